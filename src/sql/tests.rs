//! Unit tests of the query builder.

use super::checks::threshold_lit;
use super::classify::{regex_escape, rule_regex};
use super::options::REFUSED;
use super::*;
use crate::classify::rules::BUILTIN;
use crate::model::Category;
use crate::normalise::profiles::SPECS;

fn rule(kind: MatchKind, paths: &[&str]) -> UserRule {
    UserRule {
        label: "gpu-fees".into(),
        column: "ChargeDescription".into(),
        kind,
        category: Category::Scheduling,
        paths: paths.iter().map(|p| p.to_string()).collect(),
    }
}

/// DuckDB without a header (it finds the columns as the query runs); the
/// other dialects need one.
fn with_rules(d: Dialect, rules: Vec<UserRule>) -> Result<Generated, SqlError> {
    let mut o = SqlOptions::new(d, "focus");
    o.user_rules = rules;
    if d != Dialect::DuckDb {
        o.header = Some(
            [
                "BilledCost",
                "BillingCurrency",
                "ChargeCategory",
                "ChargeDescription",
            ]
            .map(String::from)
            .to_vec(),
        );
    }
    generate(&o)
}

#[test]
fn without_a_header_duckdb_finds_the_columns_and_the_others_refuse() {
    let sql = generate(&SqlOptions::new(Dialect::DuckDb, "focus"))
        .unwrap()
        .sql;
    // FOCUS 1.1's `SkuMeter` and the `x_*` columns are looked up by name
    // when the query runs; the cost is required.
    assert!(sql.contains("lower(trim(c)) = 'skumeter'"), "{sql}");
    assert!(sql.contains("starts_with(lower(trim(c)), 'x_')"), "{sql}");
    assert!(
        sql.contains("error('the table has no `BilledCost` column"),
        "{sql}"
    );
    assert!(sql.contains("  FROM bill_lines\n),\nfound AS ("), "{sql}");
    assert!(sql.contains("\n  FROM src\n"), "{sql}");
    for d in [Dialect::Spark, Dialect::Athena, Dialect::BigQuery] {
        for p in ["focus", "aws-cur", "aws-cur2", "azure", "oci"] {
            let e = generate(&SqlOptions::new(d, p)).unwrap_err();
            assert!(matches!(e, SqlError::NeedsHeader { .. }), "{d} {p}: {e}");
            assert!(e.to_string().contains("--header-from FILE"), "{e}");
        }
    }
    // The GCP export to BigQuery has one schema.
    assert!(generate(&SqlOptions::new(Dialect::BigQuery, "gcp")).is_ok());
}

#[test]
fn a_first_alias_covered_elsewhere_reads_null() {
    let mut f = super::dynamic::Found::default();
    let name = f.first(&["A", "B"], &[false, true], false);
    assert_eq!(name, "A|B");
    let ctes = f.ctes("t", "p");
    assert!(
        ctes.contains(
            "CASE WHEN len(l0) > 1 THEN CAST(NULL AS VARCHAR) WHEN len(l1) > 1 THEN l1[1] ELSE CAST(NULL AS VARCHAR) END AS \"A|B\""
        ),
        "{ctes}"
    );
    // The same column asked for again is the same column of `src`.
    assert_eq!(f.first(&["a"], &[true], false), "a");
    assert_eq!(f.first(&["A"], &[true], false), "a");
    assert_eq!(f.first(&["A"], &[true], true), "A#2");
}

#[test]
fn user_rules_come_before_markers_and_builtin_rules() {
    let g = with_rules(
        Dialect::DuckDb,
        vec![rule(
            MatchKind::Keywords(vec!["Ｐlatform".into(), "调度".into()]),
            &[],
        )],
    )
    .unwrap();
    let user = g.sql.find("-- user:gpu-fees").unwrap();
    assert!(user < g.sql.find("-- profile:focus-charge-category").unwrap());
    assert!(user < g.sql.find("-- builtin:tax (tier 0)").unwrap());
    // Folded and lowercased like the built-in patterns.
    assert!(g.sql.contains("strpos(t0, 'platform') > 0"));
    assert!(g.sql.contains("strpos(t0, '调度') > 0"));
}

#[test]
fn regexes_that_read_differently_are_refused() {
    for re in [r"\bfee\b", r"(?<!no )fee", r"\d+ gpu", r"(a)\1"] {
        for d in Dialect::ALL {
            let e = with_rules(d, vec![rule(MatchKind::Regex(re.into()), &[])]).unwrap_err();
            assert!(matches!(e, SqlError::Inexpressible { .. }), "{re} {d}: {e}");
            assert!(e.to_string().contains("no query was written"));
        }
    }
    let g = with_rules(
        Dialect::Spark,
        vec![rule(MatchKind::Regex("cluster (fee|charge)".into()), &[])],
    )
    .unwrap();
    assert!(g.sql.contains("t0 RLIKE '(?i)cluster (fee|charge)'"));
}

#[test]
fn path_scoped_rules_are_refused() {
    let e = with_rules(
        Dialect::DuckDb,
        vec![rule(MatchKind::Substring("x".into()), &["bills/*.csv"])],
    )
    .unwrap_err();
    assert!(e.to_string().contains("scoped to paths"), "{e}");
}

#[test]
fn words_become_bounded_alternations() {
    let tax = BUILTIN.iter().find(|r| r.id == "tax").unwrap();
    let re = rule_regex(tax);
    assert!(re.starts_with(
        "(^|[^a-z0-9])(tax|taxes|vat|gst|hst|pst|mwst|ust|tva|iva|btw)([^a-z0-9]|$)|sales tax|"
    ));
    assert_eq!(regex_escape("a.b(c)"), r"a\.b\(c\)");
}

#[test]
fn literals_per_dialect() {
    assert_eq!(Dialect::DuckDb.lit(r"it's \d"), r"'it''s \d'");
    assert_eq!(Dialect::Spark.lit(r"it's \d"), r"'it\'s \\d'");
    assert_eq!(
        Dialect::BigQuery.ident("service.description"),
        "`service`.`description`"
    );
    assert_eq!(
        Dialect::Athena.ident("lineItem/UsageType"),
        "\"lineItem/UsageType\""
    );
    let (lit, p) = threshold_lit(Dialect::DuckDb, rust_decimal::Decimal::new(500, 4));
    assert_eq!((lit.as_str(), p), ("CAST('0.05' AS DECIMAL(3, 2))", 3));
}

#[test]
fn every_supported_profile_has_a_table() {
    for p in supported_profiles() {
        assert!(SPECS.iter().any(|s| s.name == p), "{p}");
    }
    for s in SPECS {
        assert!(
            supported_profiles().contains(&s.name) || REFUSED.iter().any(|r| r.0 == s.name),
            "profile {} is neither supported nor refused in SQL",
            s.name
        );
    }
}

/// `findings_usage`'s two branches in every dialect.
#[test]
fn every_dialect_writes_both_branches_and_a_check_off_drops_its_own() {
    for d in [
        Dialect::DuckDb,
        Dialect::Spark,
        Dialect::Athena,
        Dialect::BigQuery,
    ] {
        let mut o = SqlOptions::new(d, "focus");
        // The columns the two checks read (the others need a header).
        o.header = Some(
            [
                "BilledCost",
                "BillingCurrency",
                "ChargeDescription",
                "ChargePeriodStart",
                "ChargePeriodEnd",
                "PricingQuantity",
                "PricingUnit",
                "ServiceCategory",
            ]
            .map(String::from)
            .to_vec(),
        );
        let sql = generate_findings(&o).unwrap().sql;
        assert!(sql.contains(&d.lit("billing-rounding")), "{d}");
        assert!(sql.contains(&d.lit("billing-granularity")), "{d}");
        let defined =
            |sql: &str, n: &str| crate::sql::findings::shape::definition(sql, n).is_some();
        assert!(defined(&sql, "br4") && defined(&sql, "bg7"), "{d}");
        o.severities
            .insert(crate::audit::Check::BillingGranularity, None);
        let sql = generate_findings(&o).unwrap().sql;
        assert!(!defined(&sql, "bg1") && defined(&sql, "br1"), "{d}");
    }
}
