//! What `billaudit sql` is asked for, the profiles it supports, and how it
//! refuses.

use std::fmt;

use super::Dialect;
use crate::audit::Thresholds;
use crate::model::Category;
use crate::normalise::profile::CostBasis;

/// The profiles `sql` supports, and the columns of their bill key:
/// `(profile, billing account aliases, billing period aliases, period is
/// the month of a timestamp)`.
pub(super) const KEYS: &[(&str, &[&str], &[&str], bool)] = &[
    (
        "focus",
        &["BillingAccountId"],
        &["BillingPeriodStart"],
        false,
    ),
    (
        "aws-cur",
        &["bill/PayerAccountId"],
        &["bill/BillingPeriodStartDate"],
        false,
    ),
    (
        "aws-cur2",
        &["bill_payer_account_id"],
        &["bill_billing_period_start_date"],
        false,
    ),
    (
        "azure",
        &["BillingAccountId", "SubscriptionGuid", "SubscriptionId"],
        &["BillingPeriodStartDate", "BillingPeriod"],
        false,
    ),
    // OCI has no billing period column: the month of the usage interval.
    (
        "oci",
        &["lineItem/tenantId"],
        &["lineItem/intervalUsageStart"],
        true,
    ),
    ("gcp", &["billing_account_id"], &["invoice.month"], false),
];

/// Profiles refused, with the reason.
pub(super) const REFUSED: &[(&str, &str)] = &[
    (
        "alibaba",
        "Chinese console exports need billaudit's number reader (currency signs, `¥12.30`, thousands separators) and header search below title lines",
    ),
    (
        "tencent",
        "Chinese console exports need billaudit's number reader (currency signs, `¥12.30`, thousands separators) and header search below title lines",
    ),
    (
        "huawei",
        "Huawei exports are split into parts and need billaudit's number reader and date-range cells",
    ),
    (
        "aws-dbr",
        "its `RecordType` column decides which rows are charges, totals or restatements; that table is not written in SQL yet",
    ),
    (
        "aws-monthly",
        "its `RecordType` column decides which rows are charges, totals or restatements; that table is not written in SQL yet",
    ),
    (
        "digitalocean",
        "no SQL mapping is written for this provider's invoice export yet (`$` amounts in a column named after the currency)",
    ),
    (
        "linode",
        "no SQL mapping is written for this provider's invoice export yet",
    ),
    (
        "vultr",
        "no SQL mapping is written for this provider's invoice export yet",
    ),
    (
        "vastai",
        "no SQL mapping is written for this provider's charge export yet",
    ),
    (
        "generic-csv",
        "the generic profile decides its columns from each file's header, stated totals and payment splits: there is no fixed column list to write SQL against",
    ),
];

/// Profiles whose export has one fixed schema, so that a query without
/// `--header-from` reads only columns every table has: the GCP billing
/// export to BigQuery (its standard usage cost schema).
pub(super) const FIXED_SCHEMA: &[&str] = &["gcp"];

/// How a user rule matches its column's text (case-insensitively).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchKind {
    Substring(String),
    /// Any of the keywords, each as a substring.
    Keywords(Vec<String>),
    Regex(String),
}

/// A user classification rule (issue 5's `billaudit.toml` `[[rules]]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserRule {
    /// For messages: the rule's label or its position in the file.
    pub label: String,
    /// The column, by its normalised header name.
    pub column: String,
    pub kind: MatchKind,
    pub category: Category,
    /// Path globs the rule is scoped to; SQL has no paths, so a rule with
    /// globs cannot be expressed.
    pub paths: Vec<String>,
}

/// What a query groups by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Grain {
    /// Billing account (when the profile has one), currency, billing period.
    #[default]
    Bill,
    /// Currency only: what `billaudit audit` reports for one file.
    Currency,
}

/// Everything that shapes one query.
#[derive(Debug, Clone)]
pub struct SqlOptions {
    pub dialect: Dialect,
    pub profile: String,
    /// The relation read: a table name or, for DuckDB, a table function
    /// such as `read_csv('exports/*.csv.gz', all_varchar = true)`.
    pub table: String,
    pub grain: Grain,
    pub thresholds: Thresholds,
    pub cost: CostBasis,
    /// The export's header, when known (`--header-from`): columns the
    /// profile lists but the header lacks are left out (key columns become
    /// NULL), and FOCUS `x_*` columns are expanded.
    pub header: Option<Vec<String>>,
    pub user_rules: Vec<UserRule>,
    /// Per check severity from billaudit.toml (`None`: the check is off),
    /// for the findings query; a check not listed has its default.
    pub severities: std::collections::HashMap<crate::audit::Check, Option<crate::model::Severity>>,
    /// billaudit.toml's price book (`[[price]]`), which
    /// `rate-above-reference` and `plan-costlier-than-on-demand` compare
    /// against (a literal list in the findings query).
    pub price_book: crate::audit::rate_above_reference::PriceBook,
    /// The built-in on-demand prices (`pipeline::configured::builtin_on_demand`,
    /// set by the CLI), which `plan-costlier-than-on-demand` compares
    /// against when billaudit.toml has no `[[price]]`.
    pub on_demand: crate::audit::rate_above_reference::PriceBook,
    /// The findings query: the table's column that holds each row's line
    /// number in its file (`--line-column`); without it DuckDB numbers the
    /// rows as it reads them and the other engines give NULL.
    pub line_column: Option<String>,
    /// The findings query: slashed dates (`9/2/2023`) read day-first
    /// rather than month-first (`--date-order day-first`).
    pub day_first: bool,
}

impl SqlOptions {
    pub fn new(dialect: Dialect, profile: &str) -> Self {
        SqlOptions {
            dialect,
            profile: profile.to_string(),
            table: "bill_lines".into(),
            grain: Grain::Bill,
            thresholds: Thresholds::default(),
            cost: CostBasis::Billed,
            header: None,
            user_rules: Vec::new(),
            severities: std::collections::HashMap::new(),
            price_book: Default::default(),
            on_demand: Default::default(),
            line_column: None,
            day_first: false,
        }
    }
}

/// Why no query was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SqlError {
    UnknownProfile(String),
    UnsupportedProfile {
        profile: String,
        dialect: Dialect,
        reason: String,
    },
    /// A rule that the dialect cannot say exactly as billaudit means it.
    Inexpressible {
        rule: String,
        dialect: Dialect,
        reason: String,
    },
    /// No header, and the dialect cannot read a column only when the table
    /// has it, while the profile's exports differ in their columns.
    NeedsHeader {
        profile: String,
        dialect: Dialect,
    },
    /// The header (`--header-from`) lacks a column the query cannot do without.
    MissingColumn {
        profile: String,
        column: String,
    },
}

impl fmt::Display for SqlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SqlError::UnknownProfile(p) => write!(
                f,
                "unknown profile `{p}` (sql supports: {})",
                supported_profiles().join(", ")
            ),
            SqlError::UnsupportedProfile {
                profile,
                dialect,
                reason,
            } => write!(
                f,
                "profile `{profile}` is not supported in SQL ({dialect}): {reason}; audit these files with `billaudit audit` (supported in SQL: {})",
                supported_profiles().join(", ")
            ),
            SqlError::Inexpressible {
                rule,
                dialect,
                reason,
            } => write!(
                f,
                "rule `{rule}` cannot be expressed in {dialect} SQL: {reason}; no query was written, because it would classify differently from `billaudit audit`"
            ),
            SqlError::NeedsHeader { profile, dialect } => write!(
                f,
                "{dialect} SQL cannot read a column only when the table has it, and `{profile}` exports differ in their columns (FOCUS 1.0 has no `SkuMeter`, CUR exports carry different optional columns); give the table's columns with `--header-from FILE` (an export, or a file holding its header line), or use `--dialect duckdb`, whose query finds them as it runs; no query was written"
            ),
            SqlError::MissingColumn { profile, column } => write!(
                f,
                "the header has no `{column}` column, which a `{profile}` query needs"
            ),
        }
    }
}

impl std::error::Error for SqlError {}

/// The profiles `billaudit sql` writes queries for.
pub fn supported_profiles() -> Vec<&'static str> {
    KEYS.iter().map(|k| k.0).collect()
}

/// A generated query.
#[derive(Debug, Clone)]
pub struct Generated {
    pub sql: String,
}
