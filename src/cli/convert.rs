//! `billaudit convert --to focus`: every line item as a FOCUS 1.2 row
//! (the rows: `billaudit::report::focus`; docs/focus-export.md).

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use chrono::NaiveDate;
use clap::{Args, ValueEnum};

use billaudit::LineItem;
use billaudit::ingest::{self, TextEncoding};
use billaudit::report::focus::{FocusCsv, Tally};
use billaudit::report::focus_parquet::FocusParquet;

use super::args::parse_encoding;
use super::output::{configured, error_line};
use super::{EXIT_INPUT, EXIT_OK};

#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// Bill files, directories, globs, or `-` for standard input.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,

    /// The format to convert into.
    #[arg(long, value_enum)]
    to: To,

    /// Write here instead of standard output, with the counts of rows not
    /// written in `FILE.meta.json` beside it (Parquet to standard output
    /// only when it is not a terminal).
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,

    /// File format of the output.
    #[arg(long, value_enum, default_value_t = FileFormat::Csv)]
    format: FileFormat,

    /// The month (YYYY-MM) a bill without any date is billed in (default:
    /// 1970-01, flagged `none` in x_ChargePeriodSource).
    #[arg(long, value_name = "YYYY-MM", value_parser = parse_month)]
    period: Option<NaiveDate>,

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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum To {
    /// FOCUS 1.2 Cost and Usage.
    Focus,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FileFormat {
    /// CSV with a header row.
    Csv,
    /// Apache Parquet (typed: DECIMAL money, TIMESTAMP UTC periods).
    Parquet,
}

fn parse_month(s: &str) -> Result<NaiveDate, String> {
    NaiveDate::parse_from_str(&format!("{}-01", s.trim()), "%Y-%m-%d")
        .map_err(|_| format!("`{s}` is not a month (expected YYYY-MM, e.g. 2024-11)"))
}

pub fn run(c: ConvertArgs) -> u8 {
    let To::Focus = c.to;
    if c.format == FileFormat::Parquet && c.output.is_none() && io::stdout().is_terminal() {
        error_line(
            &"--format parquet writes binary: give --output FILE (or redirect standard output)",
        );
        return EXIT_INPUT;
    }
    let mut opts = match configured(c.config.as_ref(), c.profile.as_ref()) {
        Ok((_, o)) => o,
        Err(code) => return code,
    };
    c.currency.apply(&mut opts);
    if c.encoding.is_some() {
        opts.encoding = c.encoding;
    }
    let out: Box<dyn Write + Send> = match &c.output {
        Some(p) => match std::fs::File::create(p) {
            Ok(f) => Box::new(io::BufWriter::new(f)),
            Err(e) => {
                error_line(&format!("cannot write {}: {e}", p.display()));
                return EXIT_INPUT;
            }
        },
        None => Box::new(io::BufWriter::new(io::stdout())),
    };
    let made = match c.format {
        FileFormat::Csv => FocusCsv::new(out, c.period).map(Focus::Csv),
        FileFormat::Parquet => FocusParquet::new(out, c.period).map(Focus::Parquet),
    };
    let mut focus = match made {
        Ok(f) => f,
        Err(_) if c.format == FileFormat::Csv => return EXIT_OK, // standard output closed
        Err(e) => {
            error_line(&format!(
                "cannot make a spill file for the Parquet rows: {e}"
            ));
            return EXIT_INPUT;
        }
    };
    let held: Arc<Mutex<Vec<(String, LineItem)>>> = Arc::default();
    let sink = held.clone();
    opts.item_hook = Some(billaudit::pipeline::ItemHook(Arc::new(
        move |path, item| {
            if let Ok(mut g) = sink.lock() {
                g.push((path.to_string(), item.clone()));
            }
        },
    )));
    let mut failed = false;
    // One input (or the split parts of one bill) at a time, in path order,
    // as `billaudit audit` reports them.
    let mut sources = ingest::expand_paths(&c.paths);
    sources.sort_by(|a, b| key(a).cmp(key(b)));
    sources.dedup_by(|a, b| a.is_ok() && b.is_ok() && key(a) == key(b));
    let mut units = Vec::new();
    for s in sources {
        match s {
            Ok(s) => units.push(s),
            Err(e) => {
                error_line(&e);
                failed = true;
            }
        }
    }
    for unit in ingest::group_parts(units) {
        let (bills, errors) = match unit.as_slice() {
            [one] => match billaudit::pipeline::audit_source(one, &opts) {
                Ok(b) => (b, Vec::new()),
                Err(e) => (Vec::new(), vec![e]),
            },
            parts => billaudit::pipeline::audit_parts(parts, &opts),
        };
        let items = held
            .lock()
            .map(|mut g| std::mem::take(&mut *g))
            .unwrap_or_default();
        for e in &errors {
            error_line(e);
            failed = true;
        }
        // An input that could not be read is not converted (as it is not audited).
        if !errors.is_empty() && bills.is_empty() {
            continue;
        }
        if let Err(e) = focus.write_input(&items, &bills) {
            return write_failed(&c.output, &e);
        }
    }
    let tally = match focus.finish() {
        Ok(t) => t,
        Err(e) => return write_failed(&c.output, &e),
    };
    let _ = writeln!(io::stderr(), "billaudit: {}", tally.summary_line());
    if let Some(p) = &c.output {
        let meta = meta_path(p);
        if let Err(e) = std::fs::write(&meta, tally.to_json()) {
            error_line(&format!("cannot write {}: {e}", meta.display()));
            return EXIT_INPUT;
        }
    }
    if failed { EXIT_INPUT } else { EXIT_OK }
}

/// The writer of the chosen `--format`.
enum Focus {
    Csv(FocusCsv<Box<dyn Write + Send>>),
    Parquet(FocusParquet<Box<dyn Write + Send>>),
}

impl Focus {
    fn write_input(
        &mut self,
        items: &[(String, LineItem)],
        bills: &[billaudit::Bill],
    ) -> io::Result<()> {
        match self {
            Focus::Csv(f) => f.write_input(items, bills),
            Focus::Parquet(f) => f.write_input(items, bills),
        }
    }

    fn finish(self) -> io::Result<Tally> {
        match self {
            Focus::Csv(f) => f.finish(),
            Focus::Parquet(f) => f.finish(),
        }
    }
}

fn key(r: &billaudit::Result<ingest::Source>) -> &str {
    match r {
        Ok(s) => &s.display,
        Err(e) => e.path().unwrap_or(""),
    }
}

/// `out.csv` -> `out.csv.meta.json`.
fn meta_path(p: &std::path::Path) -> PathBuf {
    let mut s = p.as_os_str().to_os_string();
    s.push(".meta.json");
    PathBuf::from(s)
}

/// A closed standard output ends the run quietly; any other write error is exit 2.
fn write_failed(output: &Option<PathBuf>, e: &io::Error) -> u8 {
    if output.is_none() && e.kind() == io::ErrorKind::BrokenPipe {
        return EXIT_OK;
    }
    let to = output
        .as_ref()
        .map_or("standard output".to_string(), |p| p.display().to_string());
    error_line(&format!("cannot write {to}: {e}"));
    EXIT_INPUT
}
