//! Every integration test lives in this one test binary (one link, fast CI).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod accounting;
mod batch;
mod cli;
mod cloud_fixtures;
mod common;
mod config;
mod dates;
mod diagnostics;
mod docs;
mod fixtures_csv;
mod gpu_checks;
mod hostile;
mod html;
mod parallel;
mod props;
mod real_data;
mod real_files;
mod reprice;
mod scale;
mod sql;
mod terminal;
mod text_invoices;
