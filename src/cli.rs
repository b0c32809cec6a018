//! Command-line definition (clap derive): one doc comment per flag, which is
//! also the `--help` text.

use std::io::{self, Write};

use clap::{Args, Parser, Subcommand, ValueEnum};

use billaudit::audit::{Policy, Thresholds, parse_fraction};
use billaudit::ingest::TextEncoding;
use billaudit::normalise::profile::Role;
use billaudit::report::{self, Format};
use billaudit::{InputKind, Options, Severity};

pub const EXIT_OK: u8 = 0;
pub const EXIT_FINDINGS: u8 = 1;
pub const EXIT_INPUT: u8 = 2;

/// Audit cloud and GPU-rental bills for hidden costs.
///
/// Reads CSV exports and plain-text invoices (`pdftotext -layout` output,
/// e-mails, receipts) and sorts every line into compute, storage,
/// storage_replica, bandwidth, scheduling, tax, credit or other, then flags
/// hidden fees above 5% of the bill, oversized replicas, arithmetic that does
/// not add up and items it could not classify.
///
/// Exit codes: 0 no failing finding, 1 a finding at or above --fail-on,
/// 2 usage or input error.
#[derive(Debug, Parser)]
#[command(name = "billaudit", version, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Audit bills: files, directories (searched recursively) or `-` for stdin.
    Audit(AuditArgs),
}

#[derive(Debug, Args)]
struct AuditArgs {
    /// Bill files, directories, or `-` for standard input.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    format: FormatArg,

    /// Lowest severity that fails the run (exit code 1).
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    fail_on: FailOn,

    /// `hidden-fee-share` threshold: hidden / subtotal above this fails (`5%` or `0.05`).
    #[arg(long, value_name = "SHARE", value_parser = parse_fraction, default_value = "5%")]
    hidden_threshold: rust_decimal::Decimal,

    /// `replica-share` threshold: storage_replica / subtotal above this fails.
    #[arg(long, value_name = "SHARE", value_parser = parse_fraction, default_value = "30%")]
    replica_threshold: rust_decimal::Decimal,

    /// `replica-redundancy` threshold: (storage + storage_replica) / storage above this.
    #[arg(long, value_name = "RATIO", value_parser = parse_fraction, default_value = "1.2")]
    redundancy_threshold: rust_decimal::Decimal,

    /// `scheduling-fee-share` threshold: scheduling / compute above this.
    #[arg(long, value_name = "SHARE", value_parser = parse_fraction, default_value = "8%")]
    scheduling_threshold: rust_decimal::Decimal,

    /// Force the input encoding instead of detecting it.
    #[arg(long, value_name = "ENCODING", value_parser = parse_encoding)]
    encoding: Option<TextEncoding>,

    /// Map columns by hand: `amount=Cost,description=Item,quantity=Qty,unit_price=Rate`.
    #[arg(long, value_name = "ROLE=HEADER,...", value_parser = parse_columns)]
    columns: Option<Vec<(Role, String)>>,

    /// Read the input as this kind instead of deciding from its content.
    #[arg(long, value_enum, default_value_t = InputArg::Auto)]
    input: InputArg,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum FormatArg {
    Human,
    Json,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum FailOn {
    Error,
    Warning,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum InputArg {
    Auto,
    Csv,
    Text,
}

fn parse_encoding(s: &str) -> Result<TextEncoding, String> {
    TextEncoding::parse(s).ok_or_else(|| {
        format!("unknown encoding `{s}` (expected utf-8, utf-16le, utf-16be, gb18030 or gbk)")
    })
}

fn parse_columns(s: &str) -> Result<Vec<(Role, String)>, String> {
    s.split(',')
        .filter(|p| !p.trim().is_empty())
        .map(|pair| {
            let (role, name) = pair
                .split_once('=')
                .ok_or_else(|| format!("`{pair}` should be ROLE=HEADER, e.g. amount=Cost"))?;
            let role = Role::parse(role).ok_or_else(|| {
                format!(
                    "unknown role `{role}` (expected one of: {})",
                    Role::ALL.map(|r| r.as_str()).join(", ")
                )
            })?;
            Ok((role, name.trim().to_string()))
        })
        .collect()
}

/// Runs the command line and returns the exit code.
pub fn run() -> u8 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_INPUT } else { EXIT_OK };
        }
    };
    match cli.command {
        Command::Audit(a) => audit(a),
    }
}

fn audit(a: AuditArgs) -> u8 {
    let opts = Options {
        encoding: a.encoding,
        columns: a.columns.unwrap_or_default(),
        input: match a.input {
            InputArg::Auto => InputKind::Auto,
            InputArg::Csv => InputKind::Csv,
            InputArg::Text => InputKind::Text,
        },
        policy: Policy {
            thresholds: Thresholds {
                hidden_share: a.hidden_threshold,
                replica_share: a.replica_threshold,
                redundancy: a.redundancy_threshold,
                scheduling_share: a.scheduling_threshold,
            },
            fail_on: match a.fail_on {
                FailOn::Error => Severity::Error,
                FailOn::Warning => Severity::Warning,
            },
            ..Policy::default()
        },
        ..Options::default()
    };
    let report = billaudit::audit_paths(&a.paths, &opts);
    let format = match a.format {
        FormatArg::Human => Format::Human,
        FormatArg::Json => Format::Json,
    };
    let mut stderr = io::stderr();
    for e in &report.errors {
        let _ = writeln!(stderr, "billaudit: error: {e}");
    }
    let text = report::render(&report, format);
    if let Err(e) = io::stdout()
        .write_all(text.as_bytes())
        .and_then(|_| io::stdout().flush())
    {
        // `billaudit ... | head` is not an error.
        if e.kind() != io::ErrorKind::BrokenPipe {
            let _ = writeln!(stderr, "billaudit: cannot write the report: {e}");
            return EXIT_INPUT;
        }
    }
    if !report.errors.is_empty() {
        EXIT_INPUT
    } else if !report.passed() {
        EXIT_FINDINGS
    } else {
        EXIT_OK
    }
}
