//! billaudit: audit cloud and GPU-rental bills for hidden costs.
//!
//! The library under the `billaudit` command and the Python module: it reads
//! a bill (CSV, Parquet, ZIP or gzip exports, plain-text invoices), sorts
//! every line item into a [`Category`], adds the figures of each bill with
//! exact decimals, and runs the checks (hidden-fee share, replica share and
//! redundancy, arithmetic that does not add up, ...) into [`Finding`]s.
//!
//! # Audit a bill
//!
//! [`audit_paths`] audits files, directories and globs, as the command line
//! does, into a [`Report`]: the [`Bill`]s in path order and the inputs that
//! could not be read ([`Error`], with file, line and field). A bill in
//! memory goes through [`audit_bytes`]:
//!
//! ```
//! use billaudit::{Category, Options};
//!
//! let csv = "Description,Amount\nGPU instance (hours),90.00\nInternet egress traffic,10.00\n";
//! let bills = billaudit::audit_bytes("bill.csv", csv.as_bytes(), &Options::default())?;
//! let bill = &bills[0];
//! // compute 90.00 + bandwidth 10.00 = 100.00; the scale of the file is kept.
//! assert_eq!(bill.total.to_string(), "100.00");
//! assert_eq!(bill.totals.get(Category::Bandwidth).to_string(), "10.00");
//! // Hidden fees 10.00 / 100.00 = 10% of the subtotal, above the default 5%.
//! let codes: Vec<&str> = bill.findings.iter().map(|f| f.code.code()).collect();
//! assert_eq!(codes, ["hidden-fee-share"]);
//! assert!(!bill.passed);
//! # Ok::<(), billaudit::Error>(())
//! ```
//!
//! # Thresholds and policy
//!
//! [`Options`] holds everything that shapes a run; its [`Policy`] holds the
//! [`Thresholds`] of the share checks (fractions: `0.05` is 5%), the
//! severities and the level that fails a bill. Set a threshold with
//! [`Thresholds::set`]; `examples/custom_thresholds.rs` does it from the
//! command line. billaudit.toml is read by [`Options::configured`] (with
//! `billaudit::config::load`), as the CLI reads it.
//!
//! # Line items
//!
//! Each [`LineItem`] keeps its source line, description, exact amount,
//! currency and the category and rule that classified it. Set
//! [`Options::item_hook`] to see every item as it streams by (what
//! `billaudit lines` does), without keeping them.
//!
//! # Reports
//!
//! [`render`] writes a [`Report`] in any of the CLI's [`Format`]s: `Json`
//! is the contract of docs/json-output.md, also what the Python module's
//! `billaudit.audit()` returns.
//!
//! # Stable API and internals
//!
//! The items re-exported here, documented on this page, are the library's
//! API, and examples under `examples/` use only them (plus the modules their
//! types live in). The modules below them are the implementation, public so
//! that the binary, the Python module, the benches, the fuzz targets and the
//! tests can reach every stage; they are hidden from these docs and may
//! change in any release (docs/decisions.md, "The curated Rust API").
//!
//! One module per stage; a stage uses only the stages below it, so data
//! flows one way:
//!
//! ```text
//! ingest (bytes, encodings, archives, PDF text, CSV records, text lines)
//!   -> normalise (header roles, exact numbers, dates, the text-invoice
//!      grammar -> LineItem)
//!   -> classify (a Category per item, with the rule that decided it)
//!   -> audit (figures per bill, findings per check)
//!   -> expect (the batch Report, expectation outcomes)
//!   -> report (human, JSON, CSV, markdown, JUnit, SARIF, GitHub, HTML)
//! ```
//!
//! [`audit_paths`] runs them all; the binary is a thin shell around it. The
//! ranks of the modules and the rule of who may import whom are in
//! docs/architecture.md, and `tests/architecture.rs` enforces them.

#[doc(hidden)]
pub mod audit;
#[doc(hidden)]
pub mod classify;
#[doc(hidden)]
pub mod config;
#[doc(hidden)]
pub mod error;
#[doc(hidden)]
pub mod expect;
#[doc(hidden)]
pub mod ingest;
#[doc(hidden)]
pub mod model;
#[doc(hidden)]
pub mod normalise;
#[doc(hidden)]
pub mod pipeline;
#[doc(hidden)]
pub mod report;
#[doc(hidden)]
pub mod reprice;
#[doc(hidden)]
pub mod sql;
#[doc(hidden)]
pub mod terminal;
#[doc(hidden)]
pub mod vocab;

pub use audit::{Bill, Check, Policy, Thresholds, parse_fraction};
pub use error::{Error, InputError, Result};
pub use expect::Report;
pub use model::{Category, Finding, LineItem, Severity, Totals};
pub use pipeline::{InputKind, Options, Parallelism, audit_bytes, audit_paths, audit_source};
pub use report::{Context, Format, render};
