//! `billaudit sql`: the audit as one SQL query, for data that lives in a
//! warehouse (DuckDB, Spark, Athena/Trino, BigQuery).
//!
//! One source of truth: the query is written from the same tables the
//! native audit runs on: the profile's columns, tiers and markers
//! ([`crate::normalise::profiles::SPECS`]), the built-in rules
//! ([`crate::classify::rules::BUILTIN`]) and the [`Thresholds`](crate::audit::Thresholds). User rules
//! (`billaudit.toml`) come in as [`UserRule`]s, tried first, as in the
//! audit: before the profile's markers and the built-in rules.
//!
//! What cannot be said the same way in a dialect is refused with a
//! [`SqlError`], never written as a different query.

mod checks;
mod classify;
mod columns;
pub mod dialect;
mod dialect_rows;
mod dynamic;
pub mod findings;
mod findings_usage;
mod from_config;
mod options;
mod query;
mod rows;
pub mod user_rules;

pub use columns::read_header;
pub use dialect::{Dialect, SCALE};
pub use findings::generate_findings;
pub use options::{
    Generated, Grain, MatchKind, SqlError, SqlOptions, UserRule, supported_profiles,
};
pub use query::generate;

#[cfg(test)]
mod tests;
