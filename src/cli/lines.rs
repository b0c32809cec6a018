//! `billaudit lines`: every line item with its category and rule.

use std::path::PathBuf;
use std::sync::Arc;

use clap::{Args, ValueEnum};

use billaudit::ingest::TextEncoding;
use billaudit::report::paint::Paint;

use super::args::parse_encoding;
use super::output::{Out, configured, error_line};
use super::{EXIT_INPUT, EXIT_OK};

#[derive(Debug, Args)]
pub struct LinesArgs {
    /// Bill files, directories, globs, or `-` for standard input.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = LinesFormat::Human)]
    format: LinesFormat,

    /// Only items of this category (compute, storage, storage_replica, bandwidth, scheduling, tax, credit, other).
    #[arg(long, value_name = "CATEGORY", value_parser = parse_category)]
    category: Option<billaudit::Category>,

    /// Only items no rule classified.
    #[arg(long)]
    unclassified: bool,

    /// Read this config instead of the nearest billaudit.toml.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// Read every input with this profile instead of recognising it.
    #[arg(long, value_name = "NAME")]
    profile: Option<String>,

    #[command(flatten)]
    currency: super::args::CurrencyArg,

    /// Force the input encoding instead of detecting it.
    #[arg(long, value_name = "ENCODING", value_parser = parse_encoding)]
    encoding: Option<TextEncoding>,

    #[command(flatten)]
    color: super::color::ColorArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum LinesFormat {
    /// One aligned line per item.
    Human,
    /// One CSV row per item, safe to open in a spreadsheet.
    Csv,
    /// One JSON array of items, streamed.
    Json,
}

fn parse_category(s: &str) -> Result<billaudit::Category, String> {
    s.parse()
}

pub fn run(l: LinesArgs) -> u8 {
    use billaudit::report::lines::{self as render, LinesFormat as F};
    use std::sync::Mutex;
    let mut opts = match configured(l.config.as_ref(), l.profile.as_ref()) {
        Ok((_, o)) => o,
        Err(code) => return code,
    };
    l.currency.apply(&mut opts);
    if l.encoding.is_some() {
        opts.encoding = l.encoding;
    }
    let format = match l.format {
        LinesFormat::Human => F::Human,
        LinesFormat::Csv => F::Csv,
        LinesFormat::Json => F::Json,
    };
    let paint = l.color.paint(format == F::Human);
    let out = Arc::new(Mutex::new(LinesOut {
        out: Out { broken: false },
        paint,
        first: true,
        buf: render::header(format),
    }));
    let category = l.category;
    let unclassified = l.unclassified;
    let sink = out.clone();
    opts.item_hook = Some(billaudit::pipeline::ItemHook(Arc::new(
        move |path, item| {
            if category.is_some_and(|c| c != item.category) {
                return;
            }
            if unclassified && &*item.rule != billaudit::classify::rules::UNCLASSIFIED {
                return;
            }
            if let Ok(mut g) = sink.lock() {
                let text = render::item(format, path, item, g.first, paint);
                g.first = false;
                g.buf.push_str(&text);
                if g.buf.len() >= 64 * 1024 {
                    g.flush();
                }
            }
        },
    )));
    let mut failed = false;
    // One input at a time, so items come out in file order.
    for source in billaudit::ingest::expand_paths(&l.paths) {
        let result = source.and_then(|s| billaudit::pipeline::audit_source(&s, &opts));
        if let Ok(mut g) = out.lock() {
            g.flush();
        }
        if let Err(e) = result {
            error_line(&e);
            failed = true;
        }
    }
    if let Ok(mut g) = out.lock() {
        let footer = render::footer(format, !g.first);
        g.buf.push_str(&footer);
        g.flush();
    }
    if failed { EXIT_INPUT } else { EXIT_OK }
}

/// `billaudit lines` output: written in blocks of 64 KiB or per input, not per item.
struct LinesOut {
    out: Out,
    paint: Paint,
    first: bool,
    buf: String,
}

impl LinesOut {
    fn flush(&mut self) {
        let text = std::mem::take(&mut self.buf);
        self.out.write_painted(&text, self.paint);
    }
}
