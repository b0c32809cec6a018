//! billaudit: audit cloud and GPU-rental bills for hidden costs.
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
//! [`pipeline::audit_paths`] runs them all; the binary is a thin shell around
//! it. The ranks of the modules and the rule of who may import whom are in
//! docs/architecture.md, and `tests/architecture.rs` enforces them.

pub mod audit;
pub mod classify;
pub mod config;
pub mod error;
pub mod expect;
pub mod ingest;
pub mod model;
pub mod normalise;
pub mod pipeline;
pub mod report;
pub mod reprice;
pub mod sql;
pub mod terminal;
pub mod vocab;

pub use audit::{Bill, Policy, Thresholds};
pub use error::{Error, Result};
pub use expect::Report;
pub use model::{Category, Finding, LineItem, Severity};
pub use pipeline::{InputKind, Options, Parallelism, audit_bytes, audit_paths, audit_source};
