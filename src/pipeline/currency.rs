//! The currency of a bill that does not state one: `--currency CODE`, a
//! user profile's `currency`, or billaudit.toml's `currency`, in that
//! order. Applied to the finished bills of an input; every bill says in its
//! currency note where its currency came from, or that it is unknown.

use std::collections::HashMap;

use crate::audit::Bill;

/// Where an assumed currency comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CurrencySource {
    /// `--currency CODE`.
    Flag,
    /// billaudit.toml's `currency` key (the file's path).
    Config(String),
}

/// The currency given for bills that state none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssumedCurrency {
    /// An ISO 4217 code (`vocab::currency::parse_code`).
    pub code: String,
    pub source: CurrencySource,
}

/// What a run knows of currencies the bills may not state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CurrencyChoice {
    /// `--currency`, or else billaudit.toml's `currency`.
    pub given: Option<AssumedCurrency>,
    /// `[[profile]] currency`, by profile name (billaudit.toml's path too).
    pub by_profile: HashMap<String, String>,
    /// The config file the profiles come from, for the note.
    pub config: Option<String>,
}

/// The hint every note of an unknown currency ends with.
pub(super) const UNKNOWN_HINT: &str =
    "give it with --currency CODE, or `currency` in billaudit.toml or its [[profile]]";

/// Sets the currency of the bills that have none, from `choice`, and says
/// on every bill where its currency came from. A bill of an unknown
/// currency keeps `None` (and is never summed with another bill).
pub(super) fn assume(bills: &mut [Bill], choice: &CurrencyChoice) {
    // A file with a stated currency and rows without one has been read as
    // one bill per currency: an assumption that names a currency another
    // bill of the file already has would make two bills of that currency.
    let stated: Vec<String> = bills.iter().filter_map(|b| b.currency.clone()).collect();
    for b in bills.iter_mut() {
        if b.currency.is_some() {
            if b.currency_note.is_none() && b.format == "text-invoice" {
                b.currency_note = Some(format!(
                    "currency {} read from the invoice's own currency marks and codes",
                    b.currency.as_deref().unwrap_or_default()
                ));
            }
            continue;
        }
        let given = |flag: bool| {
            choice
                .given
                .as_ref()
                .filter(|a| (a.source == CurrencySource::Flag) == flag)
                .map(|a| {
                    let why = match &a.source {
                        CurrencySource::Flag => "--currency".to_string(),
                        CurrencySource::Config(p) => format!("`currency` in {p}"),
                    };
                    (a.code.clone(), why)
                })
        };
        let from_profile = || {
            choice.by_profile.get(&b.format).map(|code| {
                let cfg = choice.config.as_deref().unwrap_or("billaudit.toml");
                (
                    code.clone(),
                    format!("the `currency` of profile `{}` in {cfg}", b.format),
                )
            })
        };
        // The flag wins over a profile, a profile over the config's key.
        let pick = given(true).or_else(from_profile).or_else(|| given(false));
        let was = b
            .currency_note
            .clone()
            .unwrap_or_else(|| "the file states no currency".into());
        match pick {
            Some((code, _)) if stated.contains(&code) => {
                b.currency_note = Some(format!(
                    "{was}; not assumed {code}: another bill of the file is in {code}, and the two are kept apart"
                ));
            }
            Some((code, why)) => {
                b.currency = Some(code.clone());
                b.currency_note = Some(format!("currency {code} from {why}: the file states none"));
            }
            None => {
                b.currency_note = Some(if was.contains("unknown") {
                    format!("{was}: {UNKNOWN_HINT}")
                } else {
                    format!("{was}; the currency is unknown: {UNKNOWN_HINT}")
                });
            }
        }
    }
}
