//! `max-findings-per-code` (billaudit.toml) and `--max-findings-per-code`:
//! the per-code cap of listed findings raised, removed, and range-checked.

use crate::common::*;

/// A FOCUS bill of `n` GPU lines, each 1 h billed for 20 minutes
/// (00:00 to 00:20 of its own day): `billing-rounding` on every line
/// (3600 - 1200 = 2400 s above the 1200 s elapsed, more than the half unit
/// of `1`, 1800 s; 1 = ceil(1200 / 3600)).
fn rounded_bill(dir: &std::path::Path, n: usize) -> std::path::PathBuf {
    let mut s = String::from(
        "BillingCurrency,ChargeCategory,ChargeDescription,ChargePeriodStart,ChargePeriodEnd,BilledCost,PricingQuantity,PricingUnit,ResourceId,ServiceName,ServiceCategory\n",
    );
    for i in 0..n {
        // Day i of 2024 from 2024-01-01: distinct rows, no duplicate-line.
        let d = chrono::NaiveDate::from_ymd_opt(2024, 1, 1).unwrap() + chrono::Days::new(i as u64);
        s.push_str(&format!(
            "USD,Usage,GPU instance hours,{d}T00:00:00Z,{d}T00:20:00Z,2.50,1,Hours,i-gpu,Amazon Elastic Compute Cloud,Compute\n"
        ));
    }
    let p = dir.join("rounded.csv");
    std::fs::write(&p, s).unwrap();
    p
}

fn rounding(args: &[&str]) -> (usize, Vec<String>) {
    let (r, out) = audit_json(args);
    assert!(out.status.code() == Some(0) || out.status.code() == Some(1));
    let f = &r.bills[0].findings;
    let listed = f
        .iter()
        .filter(|f| f.code == "billing-rounding" && f.line.is_some())
        .count();
    let closing = f
        .iter()
        .filter(|f| f.code == "billing-rounding" && f.line.is_none())
        .map(|f| f.message.clone())
        .collect();
    (listed, closing)
}

#[test]
fn the_cap_is_raised_or_removed_by_flag_and_config() {
    let dir = tempfile::tempdir().unwrap();
    let bill = rounded_bill(dir.path(), 150);
    let b = bill.to_str().unwrap();
    let cfg = dir.path().join("none.toml");
    std::fs::write(&cfg, "").unwrap();
    let c = cfg.to_str().unwrap();
    // 150 rounded lines. Default: 100 listed, 50 counted in one closing finding.
    let (n, closing) = rounding(&["--profile", "focus", "--config", c, b]);
    assert_eq!(n, 100);
    assert_eq!(closing.len(), 1);
    assert!(closing[0].contains("50 more"), "{closing:?}");
    // No cap: all 150, no closing finding.
    for v in ["0", "unlimited"] {
        let (n, closing) = rounding(&[
            "--profile",
            "focus",
            "--config",
            c,
            "--max-findings-per-code",
            v,
            b,
        ]);
        assert_eq!((n, closing.len()), (150, 0), "{v}");
    }
    // 120: 120 listed, 30 more.
    let (n, closing) = rounding(&[
        "--profile",
        "focus",
        "--config",
        c,
        "--max-findings-per-code",
        "120",
        b,
    ]);
    assert_eq!(n, 120);
    assert!(closing[0].contains("30 more"), "{closing:?}");
    // In billaudit.toml: 140 listed, 10 more; the flag wins over it.
    let toml = dir.path().join("billaudit.toml");
    std::fs::write(&toml, "max-findings-per-code = 140\n").unwrap();
    let t = toml.to_str().unwrap();
    let (n, closing) = rounding(&["--profile", "focus", "--config", t, b]);
    assert_eq!(n, 140);
    assert!(closing[0].contains("10 more"), "{closing:?}");
    let (n, _) = rounding(&[
        "--profile",
        "focus",
        "--config",
        t,
        "--max-findings-per-code",
        "0",
        b,
    ]);
    assert_eq!(n, 150);
    std::fs::write(&toml, "max-findings-per-code = \"unlimited\"\n").unwrap();
    let (n, closing) = rounding(&["--profile", "focus", "--config", t, b]);
    assert_eq!((n, closing.len()), (150, 0));
}

#[test]
fn a_cap_that_is_no_whole_number_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let bill = rounded_bill(dir.path(), 3);
    let b = bill.to_str().unwrap();
    for v in ["-1", "1.5", "lots", ""] {
        let flag = format!("--max-findings-per-code={v}");
        let out = run(&["audit", "--profile", "focus", &flag, b]);
        assert_eq!(out.status.code(), Some(2), "{v}");
        assert!(
            stderr(&out).contains("max-findings-per-code"),
            "{v}: {}",
            stderr(&out)
        );
    }
    let toml = dir.path().join("billaudit.toml");
    for v in ["-1", "1.5", "\"lots\""] {
        std::fs::write(&toml, format!("max-findings-per-code = {v}\n")).unwrap();
        let out = run(&[
            "audit",
            "--config",
            toml.to_str().unwrap(),
            "--profile",
            "focus",
            b,
        ]);
        assert_eq!(out.status.code(), Some(2), "{v}");
        let e = stderr(&out);
        assert!(
            e.contains("max-findings-per-code") && e.contains("billaudit.toml:1:"),
            "{v}: {e}"
        );
    }
}
