//! Every integration test lives in this one test binary (one link, fast CI).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod cli;
mod common;
mod text_invoices;
