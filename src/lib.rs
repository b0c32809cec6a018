//! billaudit: audit cloud and GPU-rental bills for hidden costs.
//!
//! Data flows one way, one module per stage:
//!
//! ```text
//! ingest (bytes, encodings, CSV records, text invoice lines)
//!   -> normalise (header roles, exact numbers, dates -> LineItem)
//!   -> classify (a Category per item, with the rule that decided it)
//!   -> audit (figures per bill, findings per check)
//!   -> report (human, JSON)
//! ```
//!
//! [`pipeline::audit_paths`] runs them all; the binary is a thin shell around it.

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
pub mod vocab;

pub use audit::{Bill, Policy, Thresholds};
pub use error::{Error, Result};
pub use model::{Category, Finding, LineItem, Severity};
pub use pipeline::{
    InputKind, Options, Parallelism, Report, audit_bytes, audit_paths, audit_source,
};
