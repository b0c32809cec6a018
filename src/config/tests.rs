use super::*;
use crate::audit::{CHECKS, Thresholds};
use crate::model::Category;
use rust_decimal::Decimal;

fn ok(text: &str) -> Config {
    match parse("billaudit.toml", text) {
        Ok(c) => c,
        Err(e) => panic!("{e}"),
    }
}

fn bad(text: &str) -> String {
    match parse("billaudit.toml", text) {
        Ok(_) => panic!("parsed: {text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn default_file_is_the_defaults() {
    let c = ok(&default_toml());
    let mut p = Policy::default();
    c.apply_policy(&mut p);
    assert_eq!(p.thresholds, Thresholds::default());
    for check in CHECKS {
        assert_eq!(
            p.severity(check.check),
            Some(check.default_severity),
            "{}",
            check.code
        );
        assert!(
            default_toml().contains(&format!("\n{} = ", check.code)),
            "default.toml documents {}",
            check.code
        );
    }
    assert!(c.rules.is_empty() && c.profiles.is_empty() && c.accepted.is_empty());
}

#[test]
fn thresholds_and_severities() {
    let c = ok(r#"
fail-on = "warning"
[thresholds]
hidden-fee-share = "7%"
replica-share = 0.25
replica-redundancy = "1.5"
scheduling-fee-share = "10%"
[severity]
unclassified-items = "off"
replica-redundancy = "error"
"#);
    let mut p = Policy::default();
    c.apply_policy(&mut p);
    assert_eq!(p.thresholds.hidden_share, Decimal::new(7, 2));
    assert_eq!(p.thresholds.replica_share, Decimal::new(25, 2));
    assert_eq!(p.thresholds.redundancy, Decimal::new(15, 1));
    // "10%" is 0.10 (a bare 10, 1000%, is refused: issue 30).
    assert_eq!(p.thresholds.scheduling_share, Decimal::new(10, 2));
    assert_eq!(p.severity(Check::UnclassifiedItems), None);
    assert_eq!(p.severity(Check::ReplicaRedundancy), Some(Severity::Error));
    assert_eq!(p.fail_on, Severity::Warning);
}

#[test]
fn rules_profiles_prices_accepts() {
    let text = r#"
[[rule]]
label = "disk"
category = "storage-replica"
column = "Typ"
contains = "Spiegel"
profile = "nimbus"
paths = ["bills/*.csv"]

[[rule]]
category = "compute"
any = ["GPU", "Rechen"]

[[rule]]
category = "bandwidth"
regex = "^traffic-\\d+$"

[[profile]]
name = "nimbus"
cost = "Betrag"
columns = { description = "Beschreibung", quantity = ["Menge", "Anzahl"], unit-price = "Preis" }
classify = [["Beschreibung"], "Dienst"]
ignored = ["Guthaben"]
decimal-mark = ","
encoding = "gbk"
delimiter = "tab"

[[price]]
match = "RTX 4090"
unit = "hour"
currency = "cny"
max = "2.00"
source = "market"

[[price]]
match = "A100"
max = 1.89

[[accept]]
code = "CODE"
path = "bills/*.csv"
line = 3
reason = "known"
"#;
    let c = ok(&text.replace("CODE", Check::HiddenFeeShare.code()));
    let r = &c.rules.rules;
    assert_eq!(r.len(), 3);
    assert_eq!(&*r[0].id, "user:disk");
    assert_eq!(r[0].category, Category::StorageReplica);
    assert_eq!(r[0].column.as_deref(), Some("typ"));
    assert_eq!(r[0].profile.as_deref(), Some("nimbus"));
    assert_eq!(&*r[1].id, "user:rule-2");
    assert!(matches!(&r[1].matcher, Matcher::Any(v) if v == &["gpu", "rechen"]));
    assert!(matches!(&r[2].matcher, Matcher::Regex(re) if re.is_match("TRAFFIC-12")));
    let p = &c.profiles[0];
    assert_eq!(p.name, "nimbus");
    assert_eq!(
        p.signature,
        vec!["betrag", "beschreibung", "menge", "preis"]
    );
    assert_eq!(p.signature_min, 4);
    assert_eq!(p.class_tiers, vec![vec!["beschreibung"], vec!["dienst"]]);
    assert_eq!(p.ignored, vec!["guthaben"]);
    assert_eq!(
        p.decimal_mark,
        Some(crate::normalise::number::DecimalMark::Comma)
    );
    assert_eq!(c.encodings.get("nimbus"), Some(&TextEncoding::Gb18030));
    assert_eq!(c.delimiters.get("nimbus"), Some(&b'\t'));
    // How the pipeline turns these settings into run options is tested
    // beside it (pipeline::configured).
    let b = &c.price_book.entries;
    assert_eq!(b[0].pattern, "rtx 4090");
    assert_eq!(b[0].currency.as_deref(), Some("CNY"));
    assert_eq!(b[0].max, Decimal::new(200, 2));
    assert_eq!(b[1].max, Decimal::new(189, 2));
    assert_eq!(c.accepted[0].line, Some(3));
    assert!(c.accepted[0].covers(Check::HiddenFeeShare, "bills/oct.csv", Some(3)));
}

#[test]
fn errors_locate_and_hint() {
    let e = bad("[thresholds]\nhiden-fee-share = \"5%\"\n");
    assert!(
        e.starts_with(
            "billaudit.toml:2:1: unknown key `hiden-fee-share`; did you mean `hidden-fee-share`?"
        ),
        "{e}"
    );
    let e = bad("[severity]\nline-arithmetc = \"off\"\n");
    assert!(
        e.contains("2:1: unknown check `line-arithmetc`; did you mean `line-arithmetic`?"),
        "{e}"
    );
    let e = bad("[[rule]]\ncategory = \"compute\"\n");
    assert!(e.contains("exactly one of"), "{e}");
    let e = bad("[[rule]]\ncategory = \"compute\"\nregex = \"(\"\n");
    assert!(e.contains("3:9: invalid regex"), "{e}");
}

#[test]
fn no_panic_on_odd_configs() {
    for t in [
        "",
        "=",
        "[[rule]]",
        "[thresholds]\nhidden-fee-share = -1",
        "[thresholds]\nhidden-fee-share = nan",
        "[[price]]\nmatch = \"\"\nmax = \"1\"",
        "[[accept]]\ncode = \"x\"\npath = \"[\"\nreason = \"\"",
        "[[profile]]\nname = \"\"\ncost = \"\"",
        "[[profile]]\nname = \"x\"\ncost = \"a\"\ncolumns = { nope = \"b\" }",
        "severity = 3",
        "[severity]\n\"\" = \"off\"",
        "\u{feff}fail-on = \"bogus\"",
    ] {
        let _ = parse("f.toml", t);
    }
}
