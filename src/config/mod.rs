//! `billaudit.toml`: thresholds, severities, user rules, user profiles, a
//! price book and accepted findings, as plain data other code can read
//! (the SQL back-end and the reprice command read the same [`Config`]).
//!
//! Found in the working directory or its parents ([`discover`]), or named
//! with `--config FILE`. Every error names the file, line and column and
//! quotes the offending TOML ([`ConfigError`]); unknown keys are errors with
//! a "did you mean" hint.

mod error;
mod raw;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::audit::accepted::Accepted;
use crate::audit::rate_above_reference::{PriceBook, PriceEntry};
use crate::audit::{Check, Policy, Thresholds};
use crate::classify::fold;
use crate::classify::user::{Matcher, UserRule, UserRules};
use crate::ingest::TextEncoding;
use crate::model::Severity;
use crate::normalise::header::normalise_header;
use crate::normalise::profile::{Profile, Role};
use crate::vocab::currency;

pub use error::ConfigError;
use error::suggest;

/// The file name looked for by [`discover`].
pub const FILE_NAME: &str = "billaudit.toml";

/// The commented default file `billaudit init` writes. Its `[thresholds]`
/// and `[severity]` sections are written from the check table
/// ([`crate::vocab::checks::CHECKS`]), so no code or default is restated.
pub fn default_toml() -> String {
    use std::fmt::Write as _;
    let mut s = String::from(include_str!("default-head.toml"));
    s.push_str(
        "# Thresholds of the share checks: \"5%\" or \"0.05\" (exact decimals); a share is at most\n# \"100%\" (a bare 50 would be 5000% and is refused).\n[thresholds]\n",
    );
    for c in crate::vocab::checks::CHECKS {
        if let Some(r) = c.compares {
            let key = format!("{} = \"{}\"", c.code, crate::audit::default_text(&r));
            let _ = writeln!(s, "{key:<30} # {}", r.help);
        }
    }
    for l in crate::vocab::checks::LIMITS {
        let pct = (l.default * rust_decimal::Decimal::ONE_HUNDRED).normalize();
        let key = format!("{} = \"{pct}%\"", l.key);
        let _ = writeln!(s, "{key:<30} # {}", l.help);
    }
    s.push_str(
        "\n# A severity per check code: \"error\", \"warning\" or \"off\".\n\
         # `billaudit explain CODE` documents each check.\n[severity]\n",
    );
    for c in crate::vocab::checks::CHECKS {
        let _ = writeln!(s, "{} = \"{}\"", c.code, c.default_severity);
    }
    s.push('\n');
    // The `[[accept]]` example names the hidden-fee check by the table's code.
    let code = crate::vocab::checks::Check::HiddenFeeShare.code();
    s.push_str(&include_str!("default-tail.toml").replace("{hidden-fee-share}", code));
    s
}

/// A loaded, validated config.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// Where it was read from.
    pub path: PathBuf,
    /// The thresholds billaudit.toml sets (the others at their defaults).
    pub thresholds: Thresholds,
    /// Per check: `None` turns the check off.
    pub severities: HashMap<Check, Option<Severity>>,
    pub fail_on: Option<Severity>,
    pub rules: UserRules,
    /// User profiles, tried before the built-in ones.
    pub profiles: Vec<Profile>,
    /// The encoding a user profile declares, by profile name.
    pub encodings: HashMap<String, TextEncoding>,
    /// The delimiter a user profile declares, by profile name.
    pub delimiters: HashMap<String, u8>,
    /// `currency`: the currency of bills that state none (ISO 4217).
    pub currency: Option<String>,
    /// The currency a user profile declares (`[[profile]] currency`), by
    /// profile name: for its bills that state none.
    pub currencies: HashMap<String, String>,
    pub price_book: PriceBook,
    pub accepted: Vec<Accepted>,
    /// `max-findings-per-code` (`usize::MAX`: no cap).
    pub max_findings_per_code: Option<usize>,
}

/// The nearest `billaudit.toml` in `dir` or its parents.
pub fn discover(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .map(|d| d.join(FILE_NAME))
        .find(|p| p.is_file())
}

/// Reads and validates a config file.
pub fn load(path: &Path) -> Result<Config, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
        path: path.display().to_string(),
        line: None,
        column: None,
        message: format!("cannot read the config: {e}"),
        snippet: None,
    })?;
    parse(&path.display().to_string(), &text)
}

/// Parses config text; `name` is the path shown in errors.
pub fn parse(name: &str, text: &str) -> Result<Config, ConfigError> {
    let raw: raw::RawConfig =
        toml::from_str(text).map_err(|e| ConfigError::from_toml(name, text, &e))?;
    let err =
        |span: std::ops::Range<usize>, message: String| ConfigError::at(name, text, span, message);
    let mut c = Config {
        path: PathBuf::from(name),
        ..Config::default()
    };
    c.thresholds = raw.thresholds.clone();
    let codes = Check::codes();
    // A check code must name a check; a near miss gets a "did you mean".
    let known = |code: &toml::Spanned<String>| {
        if let Some(c) = Check::from_code(code.get_ref()) {
            return Ok(c);
        }
        Err(err(
            code.span(),
            format!(
                "unknown check `{}`{}",
                code.get_ref(),
                suggest(code.get_ref(), &codes)
            ),
        ))
    };
    for (code, level) in &raw.severity {
        c.severities
            .insert(known(code)?, level.get_ref().severity());
    }
    c.fail_on = raw.fail_on.map(|f| f.severity().unwrap_or(Severity::Error));
    if let Some(m) = &raw.max_findings_per_code {
        let text = match m.get_ref() {
            raw::MaxFindings::Count(n) => n.to_string(),
            raw::MaxFindings::Fraction(x) => x.to_string(),
            raw::MaxFindings::Word(w) => w.clone(),
        };
        let n = crate::audit::parse_max_findings(&text).map_err(|e| err(m.span(), e))?;
        c.max_findings_per_code = Some(n);
    }
    if let Some(cur) = &raw.currency {
        let code = currency::parse_code(cur.get_ref())
            .map_err(|m| err(cur.span(), format!("currency: {m}")))?;
        c.currency = Some(code);
    }

    for (n, spanned) in raw.rules.iter().enumerate() {
        let r = spanned.get_ref();
        let matcher = match (&r.contains, &r.any, &r.regex) {
            (Some(s), None, None) if !s.trim().is_empty() => Matcher::Contains(fold(s.trim())),
            (None, Some(list), None) if !list.is_empty() => {
                Matcher::Any(list.iter().map(|s| fold(s.trim())).collect())
            }
            (None, None, Some(re)) => Matcher::Regex(
                regex::RegexBuilder::new(re.get_ref())
                    .case_insensitive(true)
                    .size_limit(1 << 20)
                    .build()
                    .map_err(|e| err(re.span(), format!("invalid regex: {e}")))?,
            ),
            _ => {
                return Err(err(
                    spanned.span(),
                    "a rule needs exactly one of `contains = \"text\"`, `any = [\"a\", \"b\"]` or `regex = \"...\"` (not empty)".into(),
                ));
            }
        };
        let mut paths = Vec::new();
        for p in r.paths.iter().flatten() {
            paths.push(glob(p).map_err(|m| err(p.span(), m))?);
        }
        c.rules.rules.push(UserRule {
            id: match &r.label {
                Some(l) => format!("user:{l}"),
                None => format!("user:rule-{}", n + 1),
            }
            .into(),
            category: r.category.0,
            column: r.column.as_deref().map(UserRule::column_key),
            matcher,
            profile: r.profile.clone(),
            paths,
        });
    }

    for spanned in &raw.profiles {
        let p = spanned.get_ref();
        let profile = p.to_profile().map_err(|(span, m)| err(span, m))?;
        if let Some(enc) = &p.encoding {
            let e = TextEncoding::parse(enc.get_ref()).ok_or_else(|| {
                err(
                    enc.span(),
                    crate::ingest::decode::unknown_label(enc.get_ref()),
                )
            })?;
            c.encodings.insert(profile.name.clone(), e);
        }
        if let Some(d) = p.delimiter {
            c.delimiters.insert(profile.name.clone(), d.0);
        }
        if let Some(cur) = &p.currency {
            let code = currency::parse_code(cur.get_ref()).map_err(|m| {
                err(
                    cur.span(),
                    format!("profile `{}`: currency: {m}", profile.name),
                )
            })?;
            c.currencies.insert(profile.name.clone(), code);
        }
        if c.profiles.iter().any(|q| q.name == profile.name) {
            return Err(err(
                p.name.span(),
                format!("profile `{}` is defined twice", profile.name),
            ));
        }
        c.profiles.push(profile);
    }

    for spanned in &raw.prices {
        let p = spanned.get_ref();
        if p.pattern.trim().is_empty() {
            return Err(err(spanned.span(), "`match` must not be empty".into()));
        }
        c.price_book.entries.push(PriceEntry {
            pattern: fold(p.pattern.trim()),
            unit: p.unit.as_deref().map(|u| fold(u.trim())),
            currency: p.currency.as_deref().map(|s| s.trim().to_uppercase()),
            max: p.max.0,
            source: p.source.clone(),
        });
    }

    for a in &raw.accept {
        let code = known(&a.code)?;
        if a.reason.get_ref().trim().is_empty() {
            return Err(err(
                a.reason.span(),
                "an accepted finding needs a reason".into(),
            ));
        }
        c.accepted.push(Accepted {
            code,
            path: glob(&a.path).map_err(|m| err(a.path.span(), m))?,
            line: a.line,
            reason: a.reason.get_ref().trim().to_string(),
        });
    }
    Ok(c)
}

fn glob(p: &toml::Spanned<String>) -> Result<glob::Pattern, String> {
    glob::Pattern::new(p.get_ref()).map_err(|e| format!("invalid path glob: {e}"))
}

impl Config {
    /// Applies thresholds, severities, fail-on, the price book and
    /// accepted findings to a policy (run options are built from a config by
    /// `pipeline::Options::configured`).
    pub fn apply_policy(&self, policy: &mut Policy) {
        policy.thresholds.apply(&self.thresholds);
        for (k, v) in &self.severities {
            policy.severities.insert(*k, *v);
        }
        if let Some(f) = self.fail_on {
            policy.fail_on = f;
        }
        policy.price_book = self.price_book.clone();
        policy.accepted = self.accepted.clone();
        if let Some(n) = self.max_findings_per_code {
            policy.max_findings_per_code = n;
        }
    }

    /// A user profile by name (`--profile NAME`).
    pub fn profile(&self, name: &str) -> Option<&Profile> {
        self.profiles
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(name.trim()))
    }
}

/// Normalised header names, as profiles store them.
fn names(list: &[String]) -> Vec<String> {
    list.iter().map(|s| normalise_header(s).name).collect()
}

/// A role name from the config, or the list of valid ones.
fn role(name: &str) -> Result<Role, String> {
    Role::parse(name).ok_or_else(|| {
        let all: Vec<&str> = Role::ALL.iter().map(|r| r.as_str()).collect();
        format!(
            "unknown role `{name}`{} (roles: {})",
            suggest(name, &all),
            all.join(", ")
        )
    })
}

#[cfg(test)]
mod tests;
