//! The thresholds of the share checks: one type, read from billaudit.toml
//! (`[thresholds]`, keyed by check code) and from the command line
//! (the [`Flag`]s, which `src/cli` turns into clap arguments), whose defaults are the check table's
//! ([`Ratio::default`](crate::vocab::checks::Ratio)).
//!
//! A value remembers which thresholds were set explicitly, so that the
//! layers stack: `defaults <- billaudit.toml <- flags`, each applied with
//! [`Thresholds::apply`].

use std::fmt;

use rust_decimal::Decimal;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};

use crate::model::DecimalText;
use crate::vocab::checks::{CHECKS, Check, LIMITS, Ratio};

/// Thresholds of the share checks, as fractions (`0.05` is 5%).
#[derive(Debug, Clone)]
pub struct Thresholds {
    /// `hidden-fee-share`: hidden / subtotal above this fails.
    pub hidden_share: Decimal,
    /// `replica-share`: storage_replica / subtotal above this fails.
    pub replica_share: Decimal,
    /// `replica-redundancy`: (storage + storage_replica) / storage above this.
    pub redundancy: Decimal,
    /// `scheduling-fee-share`: scheduling / compute above this.
    pub scheduling_share: Decimal,
    /// The checks whose threshold was set explicitly (by a config key or a
    /// flag), which [`Thresholds::apply`] copies.
    given: Vec<Check>,
    /// The levels of [`LIMITS`], in its order, and which were set explicitly.
    limits: [Decimal; LIMITS.len()],
    limits_given: [bool; LIMITS.len()],
}

/// How many checks have a threshold.
const COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < CHECKS.len() {
        if CHECKS[i].compares.is_some() {
            n += 1;
        }
        i += 1;
    }
    n
};

/// The `[thresholds]` keys of billaudit.toml: the codes of the checks that
/// have a threshold, in the order of the table.
pub const KEYS: [&str; COUNT] = {
    let mut keys = [""; COUNT];
    let (mut i, mut n) = (0, 0);
    while i < CHECKS.len() {
        if CHECKS[i].compares.is_some() {
            keys[n] = CHECKS[i].code;
            n += 1;
        }
        i += 1;
    }
    keys
};

impl PartialEq for Thresholds {
    /// Equal when the four thresholds are (whether set or defaulted).
    fn eq(&self, o: &Self) -> bool {
        self.hidden_share == o.hidden_share
            && self.replica_share == o.replica_share
            && self.redundancy == o.redundancy
            && self.scheduling_share == o.scheduling_share
            && self.limits == o.limits
    }
}

impl Eq for Thresholds {}

impl Default for Thresholds {
    /// Every threshold at its default from the check table.
    fn default() -> Self {
        let mut t = Thresholds {
            hidden_share: Decimal::ZERO,
            replica_share: Decimal::ZERO,
            redundancy: Decimal::ZERO,
            scheduling_share: Decimal::ZERO,
            given: Vec::new(),
            limits: [Decimal::ZERO; LIMITS.len()],
            limits_given: [false; LIMITS.len()],
        };
        for (slot, l) in t.limits.iter_mut().zip(LIMITS) {
            *slot = l.default;
        }
        for c in Check::ALL {
            if let (Some(r), Some(slot)) = (c.compares(), t.slot(c)) {
                *slot = r.default;
            }
        }
        t
    }
}

impl Thresholds {
    fn slot(&mut self, check: Check) -> Option<&mut Decimal> {
        match check {
            Check::HiddenFeeShare => Some(&mut self.hidden_share),
            Check::ReplicaShare => Some(&mut self.replica_share),
            Check::ReplicaRedundancy => Some(&mut self.redundancy),
            Check::SchedulingFeeShare => Some(&mut self.scheduling_share),
            _ => None,
        }
    }

    /// The threshold of `check`; `None` for a check without one.
    pub fn get(&self, check: Check) -> Option<Decimal> {
        self.clone().slot(check).map(|d| *d)
    }

    /// Sets the threshold of `check` explicitly (ignored for a check
    /// without one).
    ///
    /// ```
    /// use billaudit::{Check, Options};
    ///
    /// let mut opts = Options::default();
    /// // 10%, as `--hidden-threshold 10%` sets it.
    /// opts.policy.thresholds.set(Check::HiddenFeeShare, "0.10".parse().unwrap());
    /// let csv = "Description,Amount\nGPU instance (hours),92.00\nInternet egress traffic,8.00\n";
    /// let bill = &billaudit::audit_bytes("bill.csv", csv.as_bytes(), &opts).unwrap()[0];
    /// // Hidden 8.00 / 100.00 = 8%: above the default 5%, within 10%.
    /// assert!(bill.findings.is_empty());
    /// assert!(bill.passed);
    /// ```
    pub fn set(&mut self, check: Check, value: Decimal) {
        if let Some(slot) = self.slot(check) {
            *slot = value;
            if !self.given.contains(&check) {
                self.given.push(check);
            }
        }
    }

    /// Whether the threshold of `check` was set explicitly.
    pub fn is_given(&self, check: Check) -> bool {
        self.given.contains(&check)
    }

    /// Copies the thresholds `over` sets explicitly (a layer above this
    /// one: billaudit.toml over the defaults, flags over the config).
    pub fn apply(&mut self, over: &Thresholds) {
        for &c in &over.given {
            if let Some(v) = over.get(c) {
                self.set(c, v);
            }
        }
        for (i, given) in over.limits_given.iter().enumerate() {
            if *given {
                self.limits[i] = over.limits[i];
                self.limits_given[i] = true;
            }
        }
    }

    /// The level of the [`LIMITS`] entry with this key.
    pub fn limit(&self, key: &str) -> Option<Decimal> {
        let i = LIMITS.iter().position(|l| l.key == key)?;
        Some(self.limits[i])
    }

    /// The levels of `check` among [`LIMITS`], lowest first, with the
    /// severity above each.
    pub fn limits_of(&self, check: Check) -> Vec<(Decimal, crate::model::Severity)> {
        LIMITS
            .iter()
            .zip(self.limits)
            .filter(|(l, _)| l.check == check)
            .map(|(l, v)| (v, l.severity))
            .collect()
    }

    /// Sets the level of the [`LIMITS`] entry with this key explicitly.
    pub fn set_limit(&mut self, key: &str, value: Decimal) {
        if let Some(i) = LIMITS.iter().position(|l| l.key == key) {
            self.limits[i] = value;
            self.limits_given[i] = true;
        }
    }
}

/// Reads `5%` or `0.05` as the fraction 0.05.
pub fn parse_fraction(s: &str) -> Result<Decimal, String> {
    let t = s.trim();
    let (num, pct) = match t.strip_suffix('%') {
        Some(n) => (n.trim(), true),
        None => (t, false),
    };
    let d: Decimal = num
        .parse()
        .map_err(|_| format!("`{s}` is not a share: write it as `5%` or `0.05`"))?;
    let d = if pct { d / Decimal::ONE_HUNDRED } else { d };
    if d.is_sign_negative() {
        return Err(format!("`{s}` is negative"));
    }
    Ok(d)
}

/// Reads a share threshold: `50%`, or a fraction from 0 to 1 (`0.5`).
/// A bare number above 1 (`50`) would be 5000%, and a percentage above
/// 100% can never be reached by a share: both are refused, with the form
/// to write instead.
pub fn parse_share(s: &str) -> Result<Decimal, String> {
    let d = parse_fraction(s)?;
    if d > Decimal::ONE {
        let t = s.trim();
        return Err(if t.ends_with('%') {
            format!("`{t}` is above 100%: a share is at most 100% (`0.05` or `5%` is 5%)")
        } else {
            format!(
                "`{t}` is above 1, that is {}%: write a percentage with `%` (`{t}%`) or a fraction (`0.05` is 5%)",
                (d * Decimal::ONE_HUNDRED).normalize()
            )
        });
    }
    Ok(d)
}

/// Whether a threshold is a share (of the subtotal or of compute), which
/// is at most 100%, rather than a ratio such as the redundancy's 1.2.
fn is_share(r: &Ratio) -> bool {
    r.value_name != "RATIO"
}

/// The forms a threshold accepts, for `--help`.
fn forms(r: &Ratio) -> &'static str {
    if !is_share(r) {
        "a ratio such as `1.2`"
    } else {
        "`5%` or a fraction `0.05`, at most 100%"
    }
}

/// A threshold's default as the help shows it: `5%` for a share, `1.2` for
/// a ratio.
pub fn default_text(r: &Ratio) -> String {
    if !is_share(r) {
        r.default.normalize().to_string()
    } else {
        format!("{}%", (r.default * Decimal::ONE_HUNDRED).normalize())
    }
}

/// The share checks with their ratio, in the order of the table.
fn ratios() -> impl Iterator<Item = (Check, Ratio)> {
    Check::ALL
        .into_iter()
        .filter_map(|c| c.compares().map(|r| (c, r)))
}

// ---- billaudit.toml: `[thresholds]`, one key per check code.

/// A `[thresholds]` key: a check with a threshold.
enum Key {
    Share(Check),
    Limit(&'static str),
}

/// Every `[thresholds]` key: the share checks', then the [`LIMITS`].
const ALL_KEYS: [&str; COUNT + LIMITS.len()] = {
    let mut keys = [""; COUNT + LIMITS.len()];
    let mut i = 0;
    while i < COUNT {
        keys[i] = KEYS[i];
        i += 1;
    }
    while i < COUNT + LIMITS.len() {
        keys[i] = LIMITS[i - COUNT].key;
        i += 1;
    }
    keys
};

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let k = String::deserialize(d)?;
        if let Some(l) = LIMITS.iter().find(|l| l.key == k) {
            return Ok(Key::Limit(l.key));
        }
        match Check::from_code(&k) {
            Some(c) if c.compares().is_some() => Ok(Key::Share(c)),
            _ => Err(de::Error::unknown_field(&k, &ALL_KEYS)),
        }
    }
}

/// A share or ratio: `"5%"`, `"0.05"` or `0.05`, read exactly.
struct Fraction(Decimal);

impl<'de> Deserialize<'de> for Fraction {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(DecimalText {
            parse: parse_fraction,
            expecting: "a share such as \"5%\" or \"0.05\"",
        })
        .map(Fraction)
    }
}

struct ThresholdsVisitor;

impl<'de> Visitor<'de> for ThresholdsVisitor {
    type Value = Thresholds;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a table of thresholds")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Thresholds, A::Error> {
        let mut t = Thresholds::default();
        while let Some(k) = map.next_key()? {
            let Fraction(v) = map.next_value()?;
            // A share above 100% is a slip (`50` for `50%`): an error
            // naming the key. Limits are shares of a commitment's cost.
            let (name, share) = match &k {
                Key::Share(c) => (c.code(), c.compares().is_some_and(|r| is_share(&r))),
                Key::Limit(key) => (*key, true),
            };
            if share && v > Decimal::ONE {
                return Err(de::Error::custom(format!(
                    "key `{}`: a share, and {} is above 1 ({}%): write a percentage as a string (`\"50%\"`) or a fraction (`0.5`), at most 100%",
                    name,
                    v.normalize(),
                    (v * Decimal::ONE_HUNDRED).normalize()
                )));
            }
            match k {
                Key::Share(c) => t.set(c, v),
                Key::Limit(key) => t.set_limit(key, v),
            }
        }
        Ok(t)
    }
}

impl<'de> Deserialize<'de> for Thresholds {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(ThresholdsVisitor)
    }
}

// ---- the command line: one flag per check with a threshold, described
// as data; `src/cli` turns each into a clap argument (the library has no
// clap).

/// The command-line flag of one threshold: `--hidden-threshold <SHARE>`.
pub struct Flag {
    /// The check the threshold belongs to.
    pub check: Check,
    /// The long flag, without `--`.
    pub name: &'static str,
    /// `SHARE` or `RATIO`.
    pub value_name: &'static str,
    /// The help line: the check, what it bounds, the forms, the default.
    pub help: String,
    /// Reads the flag's value: a share is at most 100%.
    pub parse: fn(&str) -> Result<Decimal, String>,
}

/// The flags of the share checks, in the order of the check table.
pub fn flags() -> impl Iterator<Item = Flag> {
    ratios().map(|(c, r)| Flag {
        check: c,
        name: r.flag,
        value_name: r.value_name,
        help: format!(
            "`{}` threshold: {}; {} [default: {}]",
            c.code(),
            r.help,
            forms(&r),
            default_text(&r)
        ),
        parse: if is_share(&r) {
            parse_share
        } else {
            parse_fraction
        },
    })
}

/// `max-findings-per-code` (billaudit.toml, `--max-findings-per-code`): how
/// many findings of one code a bill lists before one closing finding counts
/// the rest ([`crate::audit::Policy::max_findings_per_code`]). A whole
/// number; `0` or `unlimited` lists every finding (`usize::MAX`).
pub fn parse_max_findings(s: &str) -> Result<usize, String> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("unlimited") {
        return Ok(usize::MAX);
    }
    match t.parse::<u64>() {
        Ok(0) => Ok(usize::MAX),
        Ok(n) => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
        Err(_) => Err(format!(
            "max-findings-per-code must be a whole number of findings (0 or \"unlimited\" for no cap), not `{t}`"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    #[test]
    fn defaults_are_the_documented_ones() {
        // The thresholds docs/checks.md states: 5%, 30%, 1.2x, 8%.
        let t = Thresholds::default();
        assert_eq!(t.hidden_share, d("0.05"));
        assert_eq!(t.replica_share, d("0.30"));
        assert_eq!(t.redundancy, d("1.2"));
        assert_eq!(t.scheduling_share, d("0.08"));
        assert_eq!(t.get(Check::IdleStorage), None);
        assert!(!t.is_given(Check::HiddenFeeShare));
    }

    #[test]
    fn keys_are_the_codes_of_the_share_checks() {
        assert_eq!(
            KEYS.to_vec(),
            [
                Check::HiddenFeeShare,
                Check::ReplicaShare,
                Check::ReplicaRedundancy,
                Check::SchedulingFeeShare
            ]
            .map(Check::code)
            .to_vec()
        );
    }

    #[test]
    fn layers_copy_only_what_was_set() {
        let mut base = Thresholds::default();
        base.set(Check::ReplicaShare, d("0.5"));
        let mut over = Thresholds::default();
        over.set(Check::HiddenFeeShare, d("0.1"));
        base.apply(&over);
        assert_eq!(base.hidden_share, d("0.1"));
        // Not set in `over`: the lower layer's value stays.
        assert_eq!(base.replica_share, d("0.5"));
        assert_eq!(base.scheduling_share, d("0.08"));
    }

    #[derive(serde::Deserialize)]
    struct Toml {
        thresholds: Thresholds,
    }

    #[test]
    fn toml_keys_are_check_codes() {
        let t: Toml = toml::from_str(
            "[thresholds]\nhidden-fee-share = \"7%\"\nreplica-redundancy = 1.5\nscheduling-fee-share = 0.1\n",
        )
        .unwrap();
        let t = t.thresholds;
        assert_eq!(t.hidden_share, d("0.07"));
        assert_eq!(t.redundancy, d("1.5"));
        assert_eq!(t.scheduling_share, d("0.1"));
        // A bare 10 was 1000% and accepted; a share is at most 1 (100%).
        let e = toml::from_str::<Toml>("[thresholds]\nscheduling-fee-share = 10\n")
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("scheduling-fee-share") && e.contains("1000%"),
            "{e}"
        );
        assert_eq!(parse_share("100%"), Ok(Decimal::ONE));
        assert!(parse_share("100.01%").unwrap_err().contains("above 100%"));
        assert!(parse_share("50").unwrap_err().contains("5000%"));
        assert_eq!(t.replica_share, d("0.30"));
        assert!(t.is_given(Check::ReplicaRedundancy));
        assert!(!t.is_given(Check::ReplicaShare));
        let e = toml::from_str::<Toml>("[thresholds]\nidle-storage = \"5%\"\n")
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("unknown field `idle-storage`, expected one of `hidden-fee-share`, `replica-share`, `replica-redundancy`, `scheduling-fee-share`"),
            "{e}"
        );
    }
}
