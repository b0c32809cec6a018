//! `billaudit sql`: the audit as one SQL query, for data that lives in a
//! warehouse (DuckDB, Spark, Athena/Trino, BigQuery).
//!
//! One source of truth: the query is written from the same tables the
//! native audit runs on: the profile's columns, tiers and markers
//! ([`crate::normalise::profiles::SPECS`]), the built-in rules
//! ([`crate::classify::rules::BUILTIN`]) and the [`Thresholds`]. User rules
//! (`billaudit.toml`) come in as [`UserRule`]s, tried first, as in the
//! audit: before the profile's markers and the built-in rules.
//!
//! What cannot be said the same way in a dialect is refused with a
//! [`SqlError`], never written as a different query.

mod checks;
pub mod dialect;
mod from_config;

use std::fmt;

use crate::audit::Thresholds;
use crate::classify::rules::{BUILTIN, Rule};
use crate::model::Category;
use crate::normalise::header::normalise_header;
use crate::normalise::profile::{CostBasis, Role};
use crate::normalise::profiles::{SPECS, Spec};

pub use dialect::{Dialect, SCALE};

/// The profiles `sql` supports, and the columns of their bill key:
/// `(profile, billing account aliases, billing period aliases, period is
/// the month of a timestamp)`.
const KEYS: &[(&str, &[&str], &[&str], bool)] = &[
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
const REFUSED: &[(&str, &str)] = &[
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
        "generic-csv",
        "the generic profile decides its columns from each file's header, stated totals and payment splits: there is no fixed column list to write SQL against",
    ),
];

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

/// Column names resolved against the export's header, when known:
/// `(normalised name, name as the header spells it)`.
struct Cols {
    header: Option<Vec<(String, String)>>,
}

impl Cols {
    fn new(header: Option<&[String]>) -> Self {
        Cols {
            header: header.map(|h| {
                h.iter()
                    .filter(|c| !c.trim().is_empty())
                    .map(|c| {
                        let raw = c.trim_start_matches('\u{feff}').trim().to_string();
                        (normalise_header(c).name, raw)
                    })
                    .collect()
            }),
        }
    }

    /// The column names an alias stands for: the header's spelling when
    /// known (an alias ending in `*` is a prefix), else the alias itself.
    fn resolve(&self, alias: &str) -> Vec<String> {
        let n = normalise_header(alias).name;
        match &self.header {
            None => {
                if alias.ends_with('*') {
                    Vec::new()
                } else {
                    vec![alias.to_string()]
                }
            }
            Some(h) => match n.strip_suffix('*') {
                Some(prefix) => h
                    .iter()
                    .filter(|(name, _)| name.starts_with(prefix))
                    .map(|(_, raw)| raw.clone())
                    .collect(),
                None => h
                    .iter()
                    .find(|(name, _)| *name == n)
                    .map(|(_, raw)| raw.clone())
                    .into_iter()
                    .collect(),
            },
        }
    }

    fn first(&self, aliases: &[&str]) -> Option<String> {
        aliases
            .iter()
            .find_map(|a| self.resolve(a).into_iter().next())
    }
}

fn regex_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The full-width folding of `classify::fold`, as `translate` arguments.
fn fold_maps() -> (String, String) {
    let mut from = String::new();
    let mut to = String::new();
    for u in 0xff01u32..=0xff5e {
        if let (Some(f), Some(t)) = (char::from_u32(u), char::from_u32(u - 0xfee0)) {
            from.push(f);
            to.push(t);
        }
    }
    for (f, t) in [
        ('\u{3000}', ' '),
        ('\u{ffe5}', '¥'),
        ('\u{2212}', '-'),
        ('\u{2012}', '-'),
        ('\u{2013}', '-'),
    ] {
        from.push(f);
        to.push(t);
    }
    (from, to)
}

/// Cell values billaudit reads as empty (`number::is_placeholder`).
fn is_placeholder_sql(d: Dialect, t: &str) -> String {
    let exact = ["", "-", "--", "—", "－", "/", "N/A", "n/a", "NA"]
        .iter()
        .map(|v| d.lit(v))
        .collect::<Vec<_>>()
        .join(", ");
    format!("({t} IN ({exact}) OR lower({t}) IN ('null', 'none', 'nan'))")
}

fn trimmed(d: Dialect, col: &str) -> String {
    format!("trim(CAST({} AS {}))", d.ident(col), d.string_type())
}

/// A lowercased, folded text, or NULL for an empty or placeholder cell.
fn text_expr(d: Dialect, col: &str) -> String {
    let t = trimmed(d, col);
    let (from, to) = fold_maps();
    // `translate` costs 3x the whole query in DuckDB: only where a
    // full-width or dash character is present.
    let wide = d.regex(
        &t,
        "[\u{ff01}-\u{ff5e}\u{3000}\u{ffe5}\u{2212}\u{2012}\u{2013}]",
    );
    format!(
        "CASE WHEN {} THEN NULL WHEN {wide} THEN lower(translate({t}, {}, {})) ELSE lower({t}) END",
        is_placeholder_sql(d, &t),
        d.lit(&from),
        d.lit(&to)
    )
}

/// Whether a pattern can be put in a regex literal unchanged in meaning.
fn check_user_regex(d: Dialect, label: &str, re: &str) -> Result<(), SqlError> {
    let bad = [
        ("(?=", "look-ahead"),
        ("(?!", "look-ahead"),
        ("(?<=", "look-behind"),
        ("(?<!", "look-behind"),
        ("\\1", "back-reference"),
        ("\\2", "back-reference"),
        (
            "\\d",
            "`\\d` (Unicode digits in billaudit, ASCII in SQL engines)",
        ),
        (
            "\\w",
            "`\\w` (Unicode word characters in billaudit, ASCII in SQL engines)",
        ),
        (
            "\\b",
            "`\\b` (Unicode word boundary in billaudit, ASCII in SQL engines)",
        ),
        (
            "\\s",
            "`\\s` (Unicode spaces in billaudit, ASCII in SQL engines)",
        ),
        ("\\p{", "Unicode classes"),
        ("(?P<", "named groups"),
        ("\\z", "`\\z`"),
        ("\\A", "`\\A`"),
    ];
    for (needle, what) in bad {
        if re.contains(needle) {
            return Err(SqlError::Inexpressible {
                rule: label.to_string(),
                dialect: d,
                reason: format!(
                    "the regex `{re}` uses {what}, which {} does not read the same way",
                    d.regex_flavour()
                ),
            });
        }
    }
    Ok(())
}

/// One regex for a built-in rule: its whole words between non-[a-z0-9]
/// characters or the ends (as `classify` matches `=word`), or any of its
/// plain patterns as substrings.
fn rule_regex(rule: &Rule) -> String {
    let words: Vec<String> = rule
        .patterns
        .iter()
        .filter_map(|p| p.strip_prefix('='))
        .map(regex_escape)
        .collect();
    let mut alts: Vec<String> = Vec::new();
    if !words.is_empty() {
        alts.push(format!("(^|[^a-z0-9])({})([^a-z0-9]|$)", words.join("|")));
    }
    alts.extend(
        rule.patterns
            .iter()
            .filter(|p| !p.starts_with('='))
            .map(|p| regex_escape(p)),
    );
    alts.join("|")
}

/// The condition of one built-in rule on a tier's text expressions.
fn rule_cond(d: Dialect, rule: &Rule, texts: &[String]) -> String {
    let re = rule_regex(rule);
    let ors: Vec<String> = texts.iter().map(|t| d.regex(t, &re)).collect();
    format!("({})", ors.join(" OR "))
}

fn marker_cond(
    d: Dialect,
    col: &str,
    values: &[&str],
    profile: &str,
    id: &str,
) -> Result<String, SqlError> {
    let t = format!("lower({})", trimmed(d, col));
    let mut ors = Vec::new();
    for v in values {
        let v = v.to_lowercase();
        let wild = v.starts_with('*') || v.ends_with('*');
        if wild && v.contains(['%', '_']) {
            return Err(SqlError::Inexpressible {
                rule: format!("profile:{id}"),
                dialect: d,
                reason: format!("marker value `{v}` of profile {profile} holds a LIKE wildcard"),
            });
        }
        ors.push(if let Some(s) = v.strip_prefix('*') {
            format!("{t} LIKE {}", d.lit(&format!("%{s}")))
        } else if let Some(p) = v.strip_suffix('*') {
            format!("{t} LIKE {}", d.lit(&format!("{p}%")))
        } else {
            format!("{t} = {}", d.lit(&v))
        });
    }
    Ok(format!("({})", ors.join(" OR ")))
}

fn cat_lit(d: Dialect, c: Category) -> String {
    d.lit(c.as_str())
}

/// The header row of a CSV export (plain or gzip): its first record.
pub fn read_header(path: &std::path::Path) -> crate::error::Result<Vec<String>> {
    let source = crate::ingest::Source::file(path);
    let opened = crate::ingest::open(&source, None)?;
    let delimiter = crate::ingest::csv::sniff_delimiter(&opened.prefix_text);
    let mut rdr = crate::ingest::csv::reader(opened.reader, delimiter);
    let mut rec = ::csv::ByteRecord::new();
    match rdr.read_byte_record(&mut rec) {
        Ok(true) => Ok(rec
            .iter()
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect()),
        Ok(false) => Err(crate::error::Error::input(
            &source.display,
            "the file is empty: no header to write the query for",
        )),
        Err(e) => Err(crate::error::Error::input(
            &source.display,
            format!("cannot read the header: {e}"),
        )),
    }
}

/// Writes the query.
pub fn generate(opts: &SqlOptions) -> Result<Generated, SqlError> {
    let d = opts.dialect;
    let name = opts.profile.trim().to_ascii_lowercase();
    if let Some((_, reason)) = REFUSED.iter().find(|(p, _)| *p == name) {
        return Err(SqlError::UnsupportedProfile {
            profile: name,
            dialect: d,
            reason: reason.to_string(),
        });
    }
    let spec: &Spec = SPECS
        .iter()
        .find(|s| s.name == name)
        .copied()
        .ok_or_else(|| SqlError::UnknownProfile(name.clone()))?;
    let Some(&(_, account_aliases, period_aliases, period_is_month)) =
        KEYS.iter().find(|k| k.0 == name)
    else {
        return Err(SqlError::UnknownProfile(name));
    };
    if spec.credit_list.is_some() && d != Dialect::BigQuery {
        return Err(SqlError::UnsupportedProfile {
            profile: name,
            dialect: d,
            reason: "its `credits` column is a list of credits per row; the native BigQuery export holds it as ARRAY<STRUCT<.., amount>> (use --dialect bigquery), while flattened CSV copies hold Python-style text that SQL cannot read exactly".into(),
        });
    }
    let cols = Cols::new(opts.header.as_deref());
    let need = |aliases: &[&str], shown: &str| -> Result<String, SqlError> {
        cols.first(aliases).ok_or_else(|| SqlError::MissingColumn {
            profile: name.clone(),
            column: shown.to_string(),
        })
    };
    let role = |r: Role| -> Vec<&'static str> {
        spec.columns
            .iter()
            .find(|(x, _)| *x == r)
            .map(|(_, a)| a.to_vec())
            .unwrap_or_default()
    };

    // The amount: `--cost` picks among the profile's cost columns.
    let amount_col = match spec.costs.iter().find(|(b, _)| *b == opts.cost) {
        Some((_, c)) => need(&[c], c)?,
        None if opts.cost != CostBasis::Billed => {
            return Err(SqlError::UnsupportedProfile {
                profile: name,
                dialect: d,
                reason: format!(
                    "it has one cost column, not a `--cost {}`",
                    opts.cost.as_str()
                ),
            });
        }
        None => need(&role(Role::Amount), spec.cost_column)?,
    };
    let currency_col = cols.first(&role(Role::Currency));
    let account_col = cols.first(account_aliases);
    let period_col = cols.first(period_aliases);

    // Classification tiers, as the normaliser builds them: the profile's
    // tiers, with the description column first when no tier holds it.
    let mut tiers: Vec<Vec<String>> = Vec::new();
    for tier in spec.class_tiers {
        let mut t: Vec<String> = Vec::new();
        for a in *tier {
            for c in cols.resolve(a) {
                if !t.contains(&c) {
                    t.push(c);
                }
            }
        }
        if !t.is_empty() {
            tiers.push(t);
        }
    }
    if let Some(desc) = cols.first(&role(Role::Description)) {
        if !tiers.iter().flatten().any(|c| *c == desc) {
            tiers.insert(0, vec![desc]);
        }
    }

    let m = d.money();
    let amount_text = trimmed(d, &amount_col);
    // A value with more (non-zero) decimals than the money type holds would
    // be rounded by the cast in silence (billaudit keeps 28): cast it with a prefix
    // instead, so the query fails and the engine's message names the value.
    let too_fine = format!(
        "length({amount_text}) > {} AND {}",
        SCALE + 1,
        d.regex(&amount_text, &format!("[.][0-9]{{{SCALE}}}0*[1-9]"))
    );
    let amount_expr = format!(
        "CASE WHEN {} THEN NULL WHEN {too_fine} THEN CAST(concat({}, {amount_text}) AS {m}) ELSE CAST({amount_text} AS {m}) END",
        is_placeholder_sql(d, &amount_text),
        d.lit(&format!("more than {SCALE} decimal places: "))
    );
    // GCP: `cost` is before credits; the BigQuery export lists them in an
    // ARRAY<STRUCT<name, amount, ..>> per row.
    // Each credit is its own `credit` item, as `billaudit audit` makes it.
    let credits_col = spec.credit_list.and_then(|c| cols.first(&[c]));
    let key_text = |col: &Option<String>, month: bool| -> String {
        match col {
            Some(c) => {
                let t = trimmed(d, c);
                let v = if month {
                    format!("substr({t}, 1, 7)")
                } else {
                    t.clone()
                };
                format!(
                    "CASE WHEN {} THEN NULL ELSE {v} END",
                    is_placeholder_sql(d, &t)
                )
            }
            None => format!("CAST(NULL AS {})", d.string_type()),
        }
    };
    let currency_expr = match &currency_col {
        Some(c) => {
            let t = trimmed(d, c);
            format!(
                "CASE WHEN {} THEN NULL ELSE upper({t}) END",
                is_placeholder_sql(d, &t)
            )
        }
        None => format!("CAST(NULL AS {})", d.string_type()),
    };

    // Text columns, each once.
    let mut text_cols: Vec<String> = Vec::new();
    let text_alias = |c: &str, text_cols: &mut Vec<String>| -> String {
        let i = match text_cols.iter().position(|x| x == c) {
            Some(i) => i,
            None => {
                text_cols.push(c.to_string());
                text_cols.len() - 1
            }
        };
        format!("t{i}")
    };
    let tier_aliases: Vec<Vec<String>> = tiers
        .iter()
        .map(|t| t.iter().map(|c| text_alias(c, &mut text_cols)).collect())
        .collect();

    // The CASE that classifies a row.
    let mut whens: Vec<String> = Vec::new();
    for r in &opts.user_rules {
        if !r.paths.is_empty() {
            return Err(SqlError::Inexpressible {
                rule: r.label.clone(),
                dialect: d,
                reason: format!(
                    "it is scoped to paths ({}), and a table has no paths",
                    r.paths.join(", ")
                ),
            });
        }
        let Some(c) = cols.first(&[r.column.as_str()]) else {
            // The header lacks the column: the rule never matches natively.
            continue;
        };
        let t = text_alias(&c, &mut text_cols);
        let cond = match &r.kind {
            MatchKind::Substring(s) => d.contains(&t, &crate::classify::fold(s)),
            MatchKind::Keywords(k) => {
                if k.is_empty() {
                    continue;
                }
                format!(
                    "({})",
                    k.iter()
                        .map(|w| d.contains(&t, &crate::classify::fold(w)))
                        .collect::<Vec<_>>()
                        .join(" OR ")
                )
            }
            MatchKind::Regex(re) => {
                check_user_regex(d, &r.label, re)?;
                d.regex(&t, &format!("(?i){re}"))
            }
        };
        whens.push(format!(
            "WHEN {cond} THEN {}  -- user:{}",
            cat_lit(d, r.category),
            r.label.replace('\n', " ")
        ));
    }
    // User rules come first, as in the audit; then the profile's markers.
    for (col, values, category, id) in spec.markers {
        let Some(c) = cols.first(&[col]) else {
            continue;
        };
        whens.push(format!(
            "WHEN {} THEN {}  -- profile:{id}",
            marker_cond(d, &c, values, spec.name, id)?,
            cat_lit(d, *category)
        ));
    }
    for (ti, tier) in tier_aliases.iter().enumerate() {
        for rule in BUILTIN {
            let cond = rule_cond(d, rule, tier);
            let cond = if rule.non_positive_only {
                format!("amount <= 0 AND {cond}")
            } else {
                cond
            };
            whens.push(format!(
                "WHEN {cond}\n      THEN {}  -- builtin:{} (tier {ti})",
                cat_lit(d, rule.category),
                rule.id
            ));
        }
    }

    // ---- assemble
    let mut s = String::new();
    s.push_str(&format!(
        "-- billaudit sql --dialect {} --profile {}{}: generated by billaudit {} from its\n\
         -- built-in rules and the `{}` profile table. Money is {m} ({SCALE} decimal\n\
         -- places; amounts with more places are rounded by the cast). Shares are\n\
         -- fractions rounded half away from zero to 6 places, NULL when subtotal <= 0.\n\
         -- A check column is TRUE when billaudit would report that finding.\n",
        d,
        spec.name,
        if opts.grain == Grain::Currency {
            " --grain currency"
        } else {
            ""
        },
        env!("CARGO_PKG_VERSION"),
        spec.name,
    ));
    s.push_str("WITH lines AS (\n  SELECT\n");
    s.push_str(&format!(
        "    {} AS billing_account,\n",
        key_text(&account_col, false)
    ));
    s.push_str(&format!("    {currency_expr} AS currency,\n"));
    s.push_str(&format!(
        "    {} AS billing_period,\n",
        key_text(&period_col, period_is_month)
    ));
    s.push_str(&format!("    {amount_expr} AS amount"));
    if let Some(c) = &credits_col {
        s.push_str(&format!(",\n    {} AS credits", d.ident(c)));
    }
    for (i, c) in text_cols.iter().enumerate() {
        s.push_str(&format!(",\n    {} AS t{i}", text_expr(d, c)));
    }
    // Markers read their columns directly; select them through.
    let mut marker_cols: Vec<String> = Vec::new();
    for (col, ..) in spec.markers {
        if let Some(c) = cols.first(&[col]) {
            if !marker_cols.contains(&c) {
                marker_cols.push(c);
            }
        }
    }
    for c in &marker_cols {
        s.push_str(&format!(",\n    {}", d.ident(c)));
    }
    s.push_str(&format!("\n  FROM {}\n),\n", opts.table));
    // Rows with an amount become line items; credit lists add credit items.
    s.push_str(
        "items AS (\n  SELECT billing_account, currency, billing_period, amount,\n    CASE\n",
    );
    for w in &whens {
        s.push_str("      ");
        s.push_str(w);
        s.push('\n');
    }
    s.push_str(&format!(
        "      ELSE {}\n    END AS category\n  FROM lines\n  WHERE amount IS NOT NULL",
        cat_lit(d, Category::Other)
    ));
    if credits_col.is_some() {
        s.push_str(&format!(
            "\n  UNION ALL\n  SELECT billing_account, currency, billing_period, CAST(CAST(cr.amount AS {}) AS {m}), {}\n  FROM lines CROSS JOIN UNNEST(lines.credits) AS cr\n  WHERE lines.amount IS NOT NULL AND cr.amount IS NOT NULL",
            d.string_type(),
            cat_lit(d, Category::Credit)
        ));
    }
    s.push_str("\n),\n");
    let keys: Vec<&str> = match opts.grain {
        Grain::Bill => vec!["billing_account", "currency", "billing_period"],
        Grain::Currency => vec!["currency"],
    };
    let zero = format!("CAST(0 AS {m})");
    let sum_if = |cond: String| format!("SUM(CASE WHEN {cond} THEN amount ELSE {zero} END)");
    let in_list = |cats: &[Category]| {
        cats.iter()
            .map(|c| cat_lit(d, *c))
            .collect::<Vec<_>>()
            .join(", ")
    };
    s.push_str(&format!("totals AS (\n  SELECT {},\n", keys.join(", ")));
    s.push_str("    COUNT(*) AS line_items");
    for c in Category::ALL {
        s.push_str(&format!(
            ",\n    {} AS {}",
            sum_if(format!("category = {}", cat_lit(d, c))),
            c.as_str()
        ));
    }
    let subtotal_cats: Vec<Category> = Category::ALL
        .into_iter()
        .filter(|c| c.in_subtotal())
        .collect();
    let hidden_cats: Vec<Category> = Category::ALL
        .into_iter()
        .filter(|c| c.is_hidden())
        .collect();
    // One SUM each, never a sum of sums: Spark narrows the scale of
    // DECIMAL(38, s) + DECIMAL(38, s).
    s.push_str(&format!(
        ",\n    {} AS subtotal",
        sum_if(format!("category IN ({})", in_list(&subtotal_cats)))
    ));
    s.push_str(",\n    SUM(amount) AS total");
    s.push_str(&format!(
        ",\n    {} AS hidden",
        sum_if(format!("category IN ({})", in_list(&hidden_cats)))
    ));
    s.push_str(&format!(
        "\n  FROM items\n  GROUP BY {}\n)\n",
        keys.join(", ")
    ));
    let t = &opts.thresholds;
    s.push_str(&format!("SELECT {},\n    line_items", keys.join(", ")));
    for c in Category::ALL {
        s.push_str(&format!(",\n    {}", c.as_str()));
    }
    s.push_str(",\n    subtotal,\n    total,\n    hidden");
    s.push_str(&format!(
        ",\n    CASE WHEN subtotal > 0 THEN {} END AS hidden_share",
        d.share("hidden", "subtotal")
    ));
    s.push_str(&format!(
        ",\n    CASE WHEN subtotal > 0 THEN {} END AS replica_share",
        d.share("storage_replica", "subtotal")
    ));
    s.push_str(&checks::check_columns(d, t));
    s.push_str(&format!(
        "\nFROM totals\nORDER BY {}\n",
        keys.iter()
            .map(|k| format!("{k} NULLS FIRST"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    Ok(Generated { sql: s })
}

#[cfg(test)]
mod tests {
    use super::checks::threshold_lit;
    use super::*;

    fn rule(kind: MatchKind, paths: &[&str]) -> UserRule {
        UserRule {
            label: "gpu-fees".into(),
            column: "ChargeDescription".into(),
            kind,
            category: Category::Scheduling,
            paths: paths.iter().map(|p| p.to_string()).collect(),
        }
    }

    fn with_rules(d: Dialect, rules: Vec<UserRule>) -> Result<Generated, SqlError> {
        let mut o = SqlOptions::new(d, "focus");
        o.user_rules = rules;
        generate(&o)
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
        assert!(re.starts_with("(^|[^a-z0-9])(tax|taxes|vat|gst|hst|pst)([^a-z0-9]|$)|sales tax|"));
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
}
