//! Orchestration: runs the stages in order for every input, ingest ->
//! normalise -> classify -> audit. Rows stream through one at a time; only
//! per-bill totals and findings are kept. One file per job:
//!
//! - `batch`: many inputs in parallel, in path order; split parts merged;
//!   each opened input routed to the CSV run or the text run;
//! - `csv_run`: a CSV export (or the parts of one bill) read row by row,
//!   with `parallel` for large inputs;
//! - `text_run`: a text invoice (or a PDF's text layer);
//! - `sniff`: what an input's first bytes say it is;
//! - `bills`: one bill per currency, assembled from items and skips;
//! - `diagnostics`: the input errors, each naming file, line and column;
//! - `configured`: run options built from the settings of billaudit.toml.
//!
//! See docs/architecture.md for the stages and who may import whom.

use std::fmt;
use std::sync::Arc;

use crate::audit::{Bill, Policy};
use crate::classify::Classifier;
use crate::classify::user::UserRules;
use crate::error::Result;
use crate::ingest::{self, TextEncoding};
use crate::model::LineItem;
use crate::normalise::profile::{ColumnOverrides, CostBasis, Profile};
use crate::normalise::profiles;

mod batch;
mod bills;
mod configured;
mod csv_run;
mod currency;
mod diagnostics;
mod parallel;
mod parquet_run;
mod rows;
mod sniff;
mod text_run;
mod unlabelled;
/// The batch result lives in `expect`, below the reports that render it.
pub use crate::expect::Report;
pub use batch::{audit_bytes, audit_parts, audit_paths, audit_paths_streaming, audit_source};
pub use configured::UnknownProfile;
pub use configured::builtin_on_demand;
pub use currency::{AssumedCurrency, CurrencyChoice, CurrencySource};
pub use text_run::MAX_TEXT_INVOICE_BYTES;

/// What the content is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InputKind {
    /// Decide from the content.
    #[default]
    Auto,
    /// A CSV export (or Parquet, a ZIP or gzip of one).
    Csv,
    /// A plain-text invoice (`pdftotext -layout` output, an e-mail, a receipt).
    Text,
}

/// Everything that shapes one audit run.
#[derive(Debug, Clone)]
pub struct Options {
    /// The text encoding, instead of detecting it (`--encoding`).
    pub encoding: Option<TextEncoding>,
    /// Columns mapped by hand (`--columns amount=Cost`).
    pub columns: ColumnOverrides,
    /// CSV or text, instead of deciding from the content (`--input`).
    pub input: InputKind,
    /// Thresholds, severities and the fail level.
    pub policy: Policy,
    /// Profiles tried in order on each header candidate.
    pub profiles: Vec<Profile>,
    /// `profiles` is the single profile the user named (`--profile`): its
    /// signature is not required.
    pub forced_profile: bool,
    /// Which cost column is the amount (`--cost`), where a profile has a choice.
    pub cost: CostBasis,
    /// Audit split parts (`bill_1.csv`, `bill_2.csv`) as one bill.
    pub merge: bool,
    pub classifier: Classifier,
    /// Stop at the first input error instead of auditing the rest.
    pub fail_fast: bool,
    /// Told how many bytes and rows have been read, for a progress bar.
    pub progress: Option<ProgressHook>,
    /// When and how a large file is read on several threads.
    pub parallel: Parallelism,
    /// The field delimiter, instead of sniffing it (a user profile's
    /// `delimiter`, applied with `--profile`).
    pub delimiter: Option<u8>,
    /// User rules (billaudit.toml `[[rule]]`), tried before `classifier`.
    pub user_rules: UserRules,
    /// Shown every classified line item as it streams by (`billaudit lines`).
    pub item_hook: Option<ItemHook>,
    /// Stop an input once this many bytes of content (decompressed) have
    /// been read (`--max-input-bytes`); `None` reads everything.
    pub max_input_bytes: Option<u64>,
    /// The currency of bills that state none (`--currency`, billaudit.toml).
    pub currency: CurrencyChoice,
}

/// A function shown `(path, item)` for every classified line item.
pub type ItemFn = dyn Fn(&str, &LineItem) + Send + Sync;

/// Receives `(path, item)` for every classified line item.
#[derive(Clone)]
pub struct ItemHook(pub Arc<ItemFn>);

impl fmt::Debug for ItemHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ItemHook")
    }
}

/// Receives `(bytes, rows)` increments while inputs are read.
#[derive(Clone)]
pub struct ProgressHook(pub Arc<dyn Fn(u64, u64) + Send + Sync>);

impl fmt::Debug for ProgressHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProgressHook")
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            encoding: None,
            columns: Vec::new(),
            input: InputKind::Auto,
            policy: Policy::default(),
            profiles: profiles::builtin(),
            forced_profile: false,
            cost: CostBasis::Billed,
            merge: true,
            classifier: Classifier::default(),
            fail_fast: false,
            progress: None,
            parallel: Parallelism::default(),
            delimiter: None,
            user_rules: UserRules::default(),
            item_hook: None,
            max_input_bytes: None,
            currency: CurrencyChoice::default(),
        }
    }
}

/// What one input gave.
pub type SourceResult = Result<Vec<Bill>>;

/// When a large plain file is read on several threads (ranges of
/// `chunk_bytes`, from `min_bytes` of data on). The result never depends on
/// these: rows are added to the bills in file order either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parallelism {
    /// Worker threads; `None` means rayon's (`RAYON_NUM_THREADS`, else the cores).
    pub threads: Option<usize>,
    /// Files smaller than this are read on one thread.
    pub min_bytes: u64,
    /// The size of the ranges a large file is cut into.
    pub chunk_bytes: u64,
}

impl Default for Parallelism {
    fn default() -> Self {
        Parallelism {
            threads: None,
            min_bytes: 16 * 1024 * 1024,
            chunk_bytes: ingest::chunks::CHUNK_BYTES,
        }
    }
}

#[inline]
fn seen(opts: &Options, path: &str, item: &LineItem) {
    if let Some(h) = &opts.item_hook {
        (h.0)(path, item);
    }
}
