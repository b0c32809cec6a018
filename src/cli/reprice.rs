//! `billaudit reprice`: the bill's GPU compute priced at other platforms.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use billaudit::reprice::PriceBook;

use super::output::{Out, configured, error_line, print_errors};
use super::{EXIT_INPUT, EXIT_OK};

#[derive(Debug, Args)]
pub struct RepriceArgs {
    /// Bill files, directories, globs, or `-` for standard input.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,

    /// Price with this book (TOML) instead of the built-in one, e.g.
    /// examples/platforms-2025.toml (docs/reprice.md gives the format).
    /// Without it, the built-in book: RunPod, Lambda, CoreWeave, Vast.ai,
    /// AWS, Azure and Google Cloud list prices in USD, the seed market rates
    /// in CNY, each with its source and date.
    #[arg(long, value_name = "PLATFORMS.toml")]
    prices: Option<PathBuf>,

    /// Add this book's platforms to the book in use (the built-in one, or
    /// --prices): your own platform or a negotiated price next to the list
    /// prices. Repeatable.
    #[arg(long, value_name = "PLATFORMS.toml")]
    add_prices: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = RepriceFormat::Human)]
    format: RepriceFormat,

    /// Read every input with this profile instead of recognising it (a user
    /// profile of billaudit.toml or a built-in one).
    #[arg(long, value_name = "NAME")]
    profile: Option<String>,

    #[command(flatten)]
    currency: super::args::CurrencyArg,

    /// Read this config instead of the nearest billaudit.toml (its user
    /// profiles and rules decide how the bill is read and classified).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,

    // Accepted like every command's (`--color never` in scripts); the
    // reprice table has no colours yet.
    #[command(flatten)]
    _color: super::color::ColorArgs,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum RepriceFormat {
    /// A table for people (default).
    Human,
    /// One JSON document (docs/reprice.md).
    Json,
}

fn read_book(p: &PathBuf) -> Result<PriceBook, String> {
    let path = p.display().to_string();
    std::fs::read_to_string(p)
        .map_err(|e| format!("{path}: {e}"))
        .and_then(|text| PriceBook::parse(&path, &text).map_err(|e| e.to_string()))
}

/// `--prices FILE` replaces the built-in book; each `--add-prices FILE`
/// adds its platforms.
fn book(r: &RepriceArgs) -> Result<PriceBook, String> {
    let mut book = match &r.prices {
        Some(p) => read_book(p)?,
        None => PriceBook::builtin(),
    };
    for p in &r.add_prices {
        book.extend(read_book(p)?);
    }
    Ok(book)
}

pub fn run(r: RepriceArgs) -> u8 {
    let book = match book(&r) {
        Ok(b) => b,
        Err(e) => {
            error_line(&e);
            return EXIT_INPUT;
        }
    };
    let mut opts = match configured(r.config.as_ref(), r.profile.as_ref()) {
        Ok((_, o)) => o,
        Err(code) => return code,
    };
    r.currency.apply(&mut opts);
    let report = billaudit::pipeline::audit_paths(&r.paths, &opts);
    let repriced = billaudit::reprice::reprice(&report.bills, &book);
    let text = match r.format {
        RepriceFormat::Human => billaudit::reprice::human::render(&repriced),
        RepriceFormat::Json => billaudit::reprice::json::render(&repriced),
    };
    let mut out = Out { broken: false };
    out.write(&text);
    print_errors(&report);
    // A closed pipe leaves the exit code as the result decides it.
    if !report.errors.is_empty() {
        EXIT_INPUT
    } else {
        EXIT_OK
    }
}
