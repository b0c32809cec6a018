//! The one path from a loaded `billaudit.toml` to a run's [`Options`]:
//! `audit`, `check`, `lines` and `reprice` all start here, so user profiles
//! and user rules reach every command in the same way and the same order.
//! The pipeline asks the config for its settings; the config does not
//! reach into the pipeline.

use std::collections::BTreeMap;
use std::fmt;

use rust_decimal::Decimal;

use crate::audit::rate_above_reference::{PriceBook, PriceEntry};
use crate::classify::fold;
use crate::reprice::Plan;

use crate::config::Config;
use crate::normalise::profiles;

use super::Options;

/// `--profile NAME` names neither a user profile nor a built-in one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownProfile {
    pub name: String,
    /// Every profile that could be named: user profiles, then built-ins.
    pub known: Vec<String>,
}

impl fmt::Display for UnknownProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown profile `{}` (expected one of: {})",
            self.name,
            self.known.join(", ")
        )
    }
}

impl std::error::Error for UnknownProfile {}

impl Options {
    /// The options a command starts from, with `cfg` (when there is one):
    ///
    /// - profiles: with `profile` named, that one alone (a user profile
    ///   before a built-in of the same name), with the encoding and
    ///   delimiter a user profile declares; otherwise the user profiles,
    ///   in file order, before the built-in ones;
    /// - user rules (`[[rule]]`), tried before the built-in rules;
    /// - the policy: thresholds, severities, fail-on, price book, accepted
    ///   findings.
    ///
    /// Command-line flags are applied by the caller after this, so they win.
    pub fn configured(
        cfg: Option<&Config>,
        profile: Option<&str>,
    ) -> Result<Options, UnknownProfile> {
        let mut opts = Options::default();
        let user: &[_] = cfg.map_or(&[], |c| c.profiles.as_slice());
        match profile {
            Some(name) => {
                let forced = match cfg.and_then(|c| c.profile(name)) {
                    Some(p) => p.clone(),
                    None => profiles::by_name(name).ok_or_else(|| UnknownProfile {
                        name: name.to_string(),
                        known: user
                            .iter()
                            .map(|p| p.name.clone())
                            .chain(profiles::builtin().into_iter().map(|p| p.name))
                            .collect(),
                    })?,
                };
                if let Some(c) = cfg {
                    opts.encoding = c.encodings.get(&forced.name).copied();
                    opts.delimiter = c.delimiters.get(&forced.name).copied();
                }
                opts.profiles = vec![forced];
                opts.forced_profile = true;
            }
            None => {
                let mut all = user.to_vec();
                all.append(&mut opts.profiles);
                opts.profiles = all;
            }
        }
        opts.policy.on_demand = builtin_on_demand();
        if let Some(c) = cfg {
            opts.user_rules = c.rules.clone();
            c.apply_policy(&mut opts.policy);
            let path = c.path.display().to_string();
            opts.currency = super::CurrencyChoice {
                given: c.currency.clone().map(|code| super::AssumedCurrency {
                    code,
                    source: super::CurrencySource::Config(path.clone()),
                }),
                by_profile: c.currencies.clone(),
                config: Some(path),
            };
        }
        Ok(opts)
    }
}

/// The built-in price book's on-demand prices (`src/reprice/prices.toml`,
/// hourly plans) as one entry per GPU model and currency, for
/// `plan-costlier-than-on-demand` when billaudit.toml has no `[[price]]`:
/// the median of the platforms' offers (of an even number, the higher of
/// the middle two), so neither the cheapest marketplace nor the dearest
/// beginner platform decides alone.
pub fn builtin_on_demand() -> PriceBook {
    let book = crate::reprice::PriceBook::builtin();
    let mut offers: BTreeMap<(String, String), Vec<(Decimal, &str)>> = BTreeMap::new();
    for p in &book.platforms {
        for price in p.prices.iter().filter(|x| x.plan == Plan::Hourly) {
            offers
                .entry((price.gpu.clone(), p.currency.to_uppercase()))
                .or_default()
                .push((price.price, p.name.as_str()));
        }
    }
    let entries = offers
        .into_iter()
        .filter_map(|((gpu, currency), mut v)| {
            v.sort();
            let (max, name) = *v.get(v.len() / 2)?;
            Some(PriceEntry {
                pattern: fold(&gpu),
                unit: Some("hour".into()),
                currency: Some(currency),
                max,
                source: Some(format!(
                    "built-in price book, the median of {} on-demand offers: {name}",
                    v.len()
                )),
            })
        })
        .collect();
    PriceBook { entries }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CFG: &str = "[[profile]]\nname = \"nimbus\"\ncost = \"Betrag\"\n\
        columns = { description = \"Beschreibung\" }\nencoding = \"gb18030\"\ndelimiter = \"\\t\"\n\n\
        [[rule]]\nlabel = \"a\"\ncategory = \"compute\"\ncontains = \"x\"\n\n\
        [[rule]]\nlabel = \"b\"\ncategory = \"storage\"\ncontains = \"y\"\n\n\
        [thresholds]\nhidden-fee-share = \"3%\"\n";

    #[test]
    fn user_profiles_come_first_then_builtins_and_rules_keep_their_order() {
        let c = crate::config::parse("billaudit.toml", CFG).unwrap();
        let o = Options::configured(Some(&c), None).unwrap();
        let names: Vec<&str> = o.profiles.iter().map(|p| p.name.as_str()).collect();
        let builtin: Vec<String> = profiles::builtin().into_iter().map(|p| p.name).collect();
        // 1 user profile + every built-in, in that order.
        assert_eq!(names.len(), 1 + builtin.len());
        assert_eq!(names[0], "nimbus");
        assert_eq!(
            names[1..],
            builtin.iter().map(String::as_str).collect::<Vec<_>>()[..]
        );
        assert!(!o.forced_profile);
        // Not forced: the profile's encoding is not imposed on every input.
        assert_eq!(o.encoding, None);
        let ids: Vec<&str> = o.user_rules.rules.iter().map(|r| &*r.id).collect();
        assert_eq!(ids, ["user:a", "user:b"]);
        // "3%" = 3/100.
        assert_eq!(
            o.policy.thresholds.hidden_share,
            rust_decimal::Decimal::new(3, 2)
        );
    }

    #[test]
    fn the_built_in_on_demand_price_is_the_median_offer_per_model_and_currency() {
        let book = builtin_on_demand();
        // prices.toml: RTX 4090 hourly in CNY at 1.70, 2.00 and 9: the
        // middle one, 2.00.
        let e = book
            .entries
            .iter()
            .find(|e| e.pattern == "rtx 4090" && e.currency.as_deref() == Some("CNY"))
            .unwrap();
        assert_eq!(e.max, rust_decimal::Decimal::new(200, 2));
        assert_eq!(e.unit.as_deref(), Some("hour"));
        // One entry per (model, currency), and set with or without a config,
        // never in the price book `rate-above-reference` reads.
        let mut keys: Vec<_> = book
            .entries
            .iter()
            .map(|e| (&e.pattern, &e.currency))
            .collect();
        let n = keys.len();
        keys.dedup();
        assert_eq!(keys.len(), n);
        let o = Options::configured(None, None).unwrap();
        assert!(o.policy.price_book.entries.is_empty());
        assert_eq!(o.policy.on_demand.entries.len(), n);
    }

    #[test]
    fn a_named_user_profile_is_forced_with_its_encoding_and_delimiter() {
        let c = crate::config::parse("billaudit.toml", CFG).unwrap();
        let o = Options::configured(Some(&c), Some("NIMBUS")).unwrap();
        assert!(o.forced_profile);
        assert_eq!(o.profiles.len(), 1);
        assert_eq!(o.profiles[0].name, "nimbus");
        assert_eq!(o.encoding, Some(crate::ingest::TextEncoding::Gb18030));
        assert_eq!(o.delimiter, Some(b'\t'));
        let o = Options::configured(Some(&c), Some("focus")).unwrap();
        assert_eq!(o.profiles[0].name, "focus");
        assert_eq!(o.encoding, None);
        let e = Options::configured(Some(&c), Some("nope")).unwrap_err();
        assert_eq!(e.known[0], "nimbus");
        assert!(e.to_string().starts_with("unknown profile `nope`"), "{e}");
        assert!(Options::configured(None, Some("nimbus")).is_err());
    }
}
