//! The config as written: serde structs with `deny_unknown_fields`, so a
//! misspelt key is an error with its span. Validation that needs more than
//! serde (regexes, globs, check codes) happens in `super::parse`.

use crate::normalise::date::DateOrder;
use std::collections::BTreeMap;
use std::ops::Range;

use rust_decimal::Decimal;
use serde::Deserialize;
use serde::de::{self, Deserializer};
use toml::Spanned;

use super::{names, role};
use crate::audit::Thresholds;
use crate::model::{Category, DecimalText, Severity};
use crate::normalise::number::DecimalMark;
use crate::normalise::profile::{Profile, Role};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawConfig {
    /// Keyed by check code; the type the command line uses too.
    #[serde(default)]
    pub thresholds: Thresholds,
    #[serde(default)]
    pub severity: BTreeMap<Spanned<String>, Spanned<Level>>,
    #[serde(default)]
    pub fail_on: Option<Level>,
    #[serde(default, rename = "rule")]
    pub rules: Vec<Spanned<RawRule>>,
    #[serde(default, rename = "profile")]
    pub profiles: Vec<Spanned<RawProfile>>,
    #[serde(default, rename = "price")]
    pub prices: Vec<Spanned<RawPrice>>,
    #[serde(default)]
    pub accept: Vec<RawAccept>,
    /// The currency of bills that do not state one (an ISO 4217 code).
    pub currency: Option<Spanned<String>>,
    /// How many findings of one code a bill lists (`0` or `"unlimited"`: all).
    pub max_findings_per_code: Option<Spanned<MaxFindings>>,
}

/// `max-findings-per-code`: a TOML integer or a word (`"unlimited"`).
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum MaxFindings {
    Count(i64),
    /// Read only to be refused with the value in the message.
    Fraction(f64),
    Word(String),
}

/// `error`, `warning` or `off`.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Error,
    Warning,
    Off,
}

impl Level {
    pub fn severity(self) -> Option<Severity> {
        match self {
            Level::Error => Some(Severity::Error),
            Level::Warning => Some(Severity::Warning),
            Level::Off => None,
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawRule {
    pub label: Option<String>,
    pub category: Cat,
    pub column: Option<String>,
    pub contains: Option<String>,
    pub any: Option<Vec<String>>,
    pub regex: Option<Spanned<String>>,
    pub profile: Option<String>,
    pub paths: Option<Vec<Spanned<String>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawProfile {
    pub name: Spanned<String>,
    pub summary: Option<String>,
    /// The amount column.
    pub cost: String,
    #[serde(default)]
    pub columns: BTreeMap<Spanned<String>, OneOrMany>,
    pub classify: Option<Vec<OneOrMany>>,
    #[serde(default)]
    pub ignored: Vec<String>,
    pub signature: Option<Vec<String>>,
    pub signature_min: Option<usize>,
    pub decimal_mark: Option<Mark>,
    pub encoding: Option<Spanned<String>>,
    pub delimiter: Option<Delim>,
    /// chrono formats for the date cells, tried before the built-in ones.
    pub date_formats: Option<Vec<Spanned<String>>>,
    /// The order of slashed dates: `"dmy"` or `"mdy"`.
    pub date_order: Option<Spanned<String>>,
    /// Rows at the top that are never the header.
    pub skip: Option<usize>,
    /// The currency of this format's bills when they do not state one.
    pub currency: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawPrice {
    #[serde(rename = "match")]
    pub pattern: String,
    pub max: Money,
    pub unit: Option<String>,
    pub currency: Option<String>,
    pub source: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawAccept {
    pub code: Spanned<String>,
    pub path: Spanned<String>,
    pub line: Option<u64>,
    pub reason: Spanned<String>,
}

/// One string or a list of strings.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn list(&self) -> Vec<String> {
        match self {
            OneOrMany::One(s) => vec![s.clone()],
            OneOrMany::Many(v) => v.clone(),
        }
    }
}

/// `"."` or `","`.
#[derive(Debug, Clone, Copy)]
pub struct Mark(pub DecimalMark);

impl<'de> Deserialize<'de> for Mark {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        match s.trim() {
            "." => Ok(Mark(DecimalMark::Dot)),
            "," => Ok(Mark(DecimalMark::Comma)),
            other => Err(de::Error::custom(format!(
                "decimal-mark must be \".\" or \",\", not `{other}`"
            ))),
        }
    }
}

/// One ASCII field delimiter: `","`, `";"`, `"|"`, `"\t"` or `"tab"`.
#[derive(Debug, Clone, Copy)]
pub struct Delim(pub u8);

impl<'de> Deserialize<'de> for Delim {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        match s.as_str() {
            "tab" | "\t" => Ok(Delim(b'\t')),
            one if one.len() == 1 && one.is_ascii() && one != "\"" && one != "\n" => {
                Ok(Delim(one.as_bytes()[0]))
            }
            other => Err(de::Error::custom(format!(
                "delimiter must be one ASCII character such as \",\", \";\", \"|\" or \"tab\", not `{other}`"
            ))),
        }
    }
}

/// A category name (`storage_replica` or `storage-replica`).
#[derive(Debug, Clone, Copy)]
pub struct Cat(pub Category);

impl<'de> Deserialize<'de> for Cat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map(Cat).map_err(|m: String| {
            let names = Category::ALL.map(|c| c.as_str());
            let key = s.trim().to_ascii_lowercase().replace('-', "_");
            de::Error::custom(format!("{m}{}", super::error::suggest(&key, &names)))
        })
    }
}

/// Money: `"2.00"` or `2.0`, read exactly (a TOML float through its shortest
/// decimal spelling).
#[derive(Debug, Clone, Copy)]
pub struct Money(pub Decimal);

/// An exact non-negative decimal (`"2.00"`, `2.0`).
fn parse_money(v: &str) -> Result<Decimal, String> {
    let d = v
        .trim()
        .parse::<Decimal>()
        .map_err(|_| format!("`{v}` is not a decimal number"))?;
    if d.is_sign_negative() {
        return Err(format!("`{v}` is negative"));
    }
    Ok(d)
}

impl<'de> Deserialize<'de> for Money {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(DecimalText {
            parse: parse_money,
            expecting: "an exact decimal such as \"2.00\"",
        })
        .map(Money)
    }
}

impl RawProfile {
    /// The profile as the pipeline uses it, or a message and its span.
    pub fn to_profile(&self) -> Result<Profile, (Range<usize>, String)> {
        let name = self.name.get_ref().trim().to_string();
        if name.is_empty() {
            return Err((self.name.span(), "a profile needs a name".into()));
        }
        let cost = names(std::slice::from_ref(&self.cost));
        let mut columns: Vec<(Role, Vec<String>)> = vec![(Role::Amount, cost.clone())];
        for (r, aliases) in &self.columns {
            let role = role(r.get_ref()).map_err(|m| (r.span(), m))?;
            let list = names(&aliases.list());
            match columns.iter_mut().find(|(x, _)| *x == role) {
                Some((_, existing)) => existing.extend(list),
                None => columns.push((role, list)),
            }
        }
        let class_tiers: Vec<Vec<String>> = match &self.classify {
            Some(tiers) => tiers.iter().map(|t| names(&t.list())).collect(),
            None => columns
                .iter()
                .filter(|(r, _)| *r == Role::Description)
                .map(|(_, a)| a.clone())
                .collect(),
        };
        // Unless told otherwise, a file is this profile's when the cost
        // column and the first alias of every mapped role are all present:
        // user profiles are tried first and must not capture other formats.
        let signature = match &self.signature {
            Some(s) => names(s),
            None => columns
                .iter()
                .filter_map(|(_, a)| a.first().cloned())
                .collect(),
        };
        let signature_min = self.signature_min.unwrap_or(signature.len()).max(1);
        let mut date_formats = Vec::new();
        for f in self.date_formats.iter().flatten() {
            let bad = chrono::format::StrftimeItems::new(f.get_ref())
                .any(|i| matches!(i, chrono::format::Item::Error));
            if bad || f.get_ref().trim().is_empty() {
                return Err((
                    f.span(),
                    format!(
                        "`{}` is not a date format: write it as chrono does, e.g. `%d.%m.%Y %H:%M`",
                        f.get_ref()
                    ),
                ));
            }
            date_formats.push(f.get_ref().clone());
        }
        let date_order = match &self.date_order {
            None => None,
            Some(o) => Some(DateOrder::parse(o.get_ref()).ok_or_else(|| {
                (
                    o.span(),
                    format!(
                        "`{}` is not a date order: write \"dmy\" (03/04/2024 is 3 April) or \"mdy\" (4 March)",
                        o.get_ref()
                    ),
                )
            })?),
        };
        let mut display = vec![self.cost.clone()];
        display.extend(self.signature.iter().flatten().cloned());
        Ok(Profile {
            summary: self
                .summary
                .clone()
                .unwrap_or_else(|| "user profile (billaudit.toml)".into()),
            name,
            columns,
            class_tiers,
            ignored: names(&self.ignored),
            markers: Vec::new(),
            decimal_mark: self.decimal_mark.map(|m| m.0),
            cost_column: self.cost.clone(),
            signature,
            signature_min,
            required: Vec::new(),
            costs: Vec::new(),
            credit_list: None,
            tag_prefixes: Vec::new(),
            record_types: None,
            display,
            date_formats,
            date_order,
            skip_rows: self.skip.unwrap_or(0),
            amount_includes_tax: false,
            terms: Vec::new(),
        })
    }
}
