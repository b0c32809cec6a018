//! Command-line definition (clap derive): one doc comment per flag, which is
//! also the `--help` text.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use clap::{Args, Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use billaudit::audit::{Policy, Thresholds, parse_fraction};
use billaudit::expect;
use billaudit::ingest::TextEncoding;
use billaudit::ingest::{Origin, Source};
use billaudit::normalise::profile::{CostBasis, Role};
use billaudit::normalise::profiles::{builtin, by_name};
use billaudit::pipeline::ProgressHook;
use billaudit::report::{self, Context, Format, json};
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
    /// Audit bills: files, directories (searched recursively), globs or `-` for stdin.
    Audit(AuditArgs),
    /// Audit bills and compare each with the `<bill>.expect.toml` beside it.
    ///
    /// Exit code 1 when an audit differs from its expectation (or, with
    /// --require-expectations, when a bill has none); the bills' own findings
    /// do not fail a check.
    Check(CheckArgs),
    /// Print the documentation of a check: what it does, why it matters, an example.
    Explain(ExplainArgs),
    /// List the bill formats (profiles) billaudit recognises, with the cost column each uses.
    Profiles,
}

#[derive(Debug, Args)]
struct AuditArgs {
    #[command(flatten)]
    common: CommonArgs,

    /// Compare with an earlier JSON report: hidden-share growth, new and vanished findings.
    #[arg(long, value_name = "REPORT.json")]
    baseline: Option<PathBuf>,

    /// With --baseline: the largest allowed growth of a bill's hidden share, in percentage points.
    #[arg(
        long,
        value_name = "POINTS",
        default_value = "1",
        requires = "baseline"
    )]
    max_increase: rust_decimal::Decimal,
}

#[derive(Debug, Args)]
struct CheckArgs {
    #[command(flatten)]
    common: CommonArgs,

    /// Write or update the expectation files from the current audit (atomically; bills are never touched).
    #[arg(long)]
    bless: bool,

    /// A bill without an expectation file is an error.
    #[arg(long)]
    require_expectations: bool,
}

#[derive(Debug, Args)]
struct ExplainArgs {
    /// A check code, e.g. `hidden-fee-share`.
    #[arg(required_unless_present = "all")]
    code: Option<String>,

    /// Every check, in the order of docs/checks.md.
    #[arg(long)]
    all: bool,
}

#[derive(Debug, Args)]
struct CommonArgs {
    /// Bill files, directories, globs, or `-` for standard input. Reported in path order.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,

    /// Output format; `html` is one self-contained page with charts (`> report.html`).
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    format: FormatArg,

    /// Lowest severity that fails the run (exit code 1).
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    fail_on: FailOn,

    /// Stop at the first input that cannot be read (default: report it and go on).
    #[arg(long, conflicts_with = "keep_going")]
    fail_fast: bool,

    /// Report unreadable inputs and go on with the others (the default).
    #[arg(long)]
    keep_going: bool,

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

    /// Stop an input after this much content, counted after decompression
    /// (`500M`, `2G`, or bytes): a guard against decompression bombs. Exit code 2.
    #[arg(long, value_name = "BYTES", value_parser = parse_size)]
    max_input_bytes: Option<u64>,

    /// Force the input encoding instead of detecting it.
    #[arg(long, value_name = "ENCODING", value_parser = parse_encoding)]
    encoding: Option<TextEncoding>,

    /// Map columns by hand: `amount=Cost,description=Item,quantity=Qty,unit_price=Rate`.
    #[arg(long, value_name = "ROLE=HEADER,...", value_delimiter = ',', value_parser = parse_column)]
    columns: Vec<(Role, String)>,

    /// Read the input as this kind instead of deciding from its content.
    #[arg(long, value_enum, default_value_t = InputArg::Auto)]
    input: InputArg,

    /// Read every input with this profile instead of recognising it (see `billaudit profiles`).
    #[arg(long, value_name = "NAME")]
    profile: Option<String>,

    /// Which cost is the amount, where the format has several (FOCUS: BilledCost,
    /// EffectiveCost, ListCost, ContractedCost). Other formats use their one cost column.
    #[arg(long, value_enum, default_value_t = CostArg::Billed)]
    cost: CostArg,

    /// Audit split parts (`bill_1.csv`, `bill_2.csv`, same header) as one bill (the default).
    #[arg(long, overrides_with = "no_merge")]
    merge: bool,

    /// Audit split parts as separate bills.
    #[arg(long, overrides_with = "merge")]
    no_merge: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum CostArg {
    /// BilledCost: what is invoiced (default).
    Billed,
    /// EffectiveCost: amortised, after commitment discounts.
    Effective,
    /// ListCost: public list prices.
    List,
    /// ContractedCost: negotiated prices before commitments.
    Contracted,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum FormatArg {
    /// Tables and findings for people (default).
    Human,
    /// One JSON document (docs/json-output.md).
    Json,
    /// One JSON object per bill, streamed as each finishes.
    Jsonl,
    /// One CSV row per bill, safe to open in a spreadsheet.
    Csv,
    /// Markdown for pull-request comments and $GITHUB_STEP_SUMMARY.
    Markdown,
    /// JUnit XML: a testsuite per bill, a testcase per check.
    Junit,
    /// SARIF 2.1.0 for code-scanning tools.
    Sarif,
    /// GitHub Actions annotations (`::error file=...,line=...::`).
    Github,
    /// One self-contained HTML page with charts (`> report.html`).
    Html,
}

impl FormatArg {
    fn format(self) -> Format {
        match self {
            FormatArg::Human => Format::Human,
            FormatArg::Json => Format::Json,
            FormatArg::Jsonl => Format::Jsonl,
            FormatArg::Csv => Format::Csv,
            FormatArg::Markdown => Format::Markdown,
            FormatArg::Junit => Format::Junit,
            FormatArg::Sarif => Format::Sarif,
            FormatArg::Github => Format::Github,
            FormatArg::Html => Format::Html,
        }
    }
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

fn parse_column(pair: &str) -> Result<(Role, String), String> {
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
}

/// Runs the command line and returns the exit code.
pub fn run() -> u8 {
    // Debug builds only: lets the test suite prove that a panic becomes exit
    // code 2 with a request to report it (tests/integration/cli.rs).
    #[cfg(debug_assertions)]
    if std::env::var_os("BILLAUDIT_TEST_PANIC").is_some() {
        panic!("BILLAUDIT_TEST_PANIC is set");
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_INPUT } else { EXIT_OK };
        }
    };
    match cli.command {
        Command::Audit(a) => audit(a),
        Command::Check(c) => check(c),
        Command::Explain(e) => explain(e),
        Command::Profiles => profiles(),
    }
}

fn profiles() -> u8 {
    let mut out = String::new();
    for p in builtin() {
        let extra: Vec<String> = p
            .costs
            .iter()
            .filter(|(b, _)| *b != CostBasis::Billed)
            .map(|(b, _)| format!("--cost {}", b.as_str()))
            .collect();
        let extra = if extra.is_empty() {
            String::new()
        } else {
            format!(" ({})", extra.join(", "))
        };
        out.push_str(&format!(
            "{:<12} cost: {}{}\n             {}\n",
            p.name, p.cost_column, extra, p.summary
        ));
    }
    match io::stdout().write_all(out.as_bytes()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => EXIT_INPUT,
        _ => EXIT_OK,
    }
}

/// The run's options; an unknown `--profile` is a usage error (exit 2).
fn options(c: &CommonArgs) -> Result<Options, u8> {
    let (profiles, forced_profile) = match &c.profile {
        Some(name) => match by_name(name) {
            Some(p) => (vec![p], true),
            None => {
                let names: Vec<String> = builtin().into_iter().map(|p| p.name).collect();
                let _ = writeln!(
                    io::stderr(),
                    "billaudit: error: unknown profile `{name}` (expected one of: {})",
                    names.join(", ")
                );
                return Err(EXIT_INPUT);
            }
        },
        None => (builtin(), false),
    };
    Ok(Options {
        profiles,
        forced_profile,
        cost: match c.cost {
            CostArg::Billed => CostBasis::Billed,
            CostArg::Effective => CostBasis::Effective,
            CostArg::List => CostBasis::List,
            CostArg::Contracted => CostBasis::Contracted,
        },
        merge: !c.no_merge,
        encoding: c.encoding,
        columns: c.columns.clone(),
        input: match c.input {
            InputArg::Auto => InputKind::Auto,
            InputArg::Csv => InputKind::Csv,
            InputArg::Text => InputKind::Text,
        },
        policy: Policy {
            thresholds: Thresholds {
                hidden_share: c.hidden_threshold,
                replica_share: c.replica_threshold,
                redundancy: c.redundancy_threshold,
                scheduling_share: c.scheduling_threshold,
            },
            fail_on: fail_on(c),
            ..Policy::default()
        },
        fail_fast: c.fail_fast,
        progress: progress_hook(&c.paths),
        max_input_bytes: c.max_input_bytes,
        ..Options::default()
    })
}

/// `1048576`, `64K`, `500M`, `2G` (binary units, an optional `B`/`iB`).
fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let upper = t.to_ascii_uppercase();
    let body = upper
        .strip_suffix("IB")
        .or_else(|| upper.strip_suffix('B'))
        .unwrap_or(&upper);
    let (digits, shift) = match body.chars().last() {
        Some('K') => (&body[..body.len() - 1], 10),
        Some('M') => (&body[..body.len() - 1], 20),
        Some('G') => (&body[..body.len() - 1], 30),
        Some('T') => (&body[..body.len() - 1], 40),
        _ => (body, 0),
    };
    let n: u64 = digits
        .trim()
        .parse()
        .map_err(|_| format!("`{t}` is not a size (e.g. 500M, 2G or a number of bytes)"))?;
    n.checked_mul(1u64 << shift)
        .filter(|v| *v > 0)
        .ok_or_else(|| format!("`{t}` is out of range (1 byte to 16 EiB)"))
}

fn fail_on(c: &CommonArgs) -> Severity {
    match c.fail_on {
        FailOn::Error => Severity::Error,
        FailOn::Warning => Severity::Warning,
    }
}

/// Inputs above this size get a progress bar (when stderr is a terminal).
const PROGRESS_MIN_BYTES: u64 = 50 * 1024 * 1024;

fn progress_hook(paths: &[String]) -> Option<ProgressHook> {
    if !io::stderr().is_terminal() {
        return None;
    }
    let total: u64 = billaudit::ingest::expand_paths(paths)
        .iter()
        .filter_map(|s| match s {
            Ok(Source {
                origin: Origin::File(p),
                ..
            }) => std::fs::metadata(p).ok().map(|m| m.len()),
            _ => None,
        })
        .sum();
    if total < PROGRESS_MIN_BYTES {
        return None;
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {bytes}/{total_bytes} {binary_bytes_per_sec} {msg} rows, eta {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let rows = Arc::new(AtomicU64::new(0));
    Some(ProgressHook(Arc::new(move |bytes, new_rows| {
        bar.inc(bytes);
        if new_rows > 0 {
            let n = rows.fetch_add(new_rows, Ordering::Relaxed) + new_rows;
            bar.set_message(n.to_string());
        }
        if bar.position() >= total {
            bar.finish_and_clear();
        }
    })))
}

/// Writes report text to stdout. A closed pipe (`billaudit ... | head`) is
/// not an error: it returns `Err(())` and the run ends quietly with 0.
struct Out {
    broken: bool,
}

impl Out {
    fn write(&mut self, text: &str) {
        if self.broken {
            return;
        }
        let mut stdout = io::stdout().lock();
        if let Err(e) = stdout
            .write_all(text.as_bytes())
            .and_then(|_| stdout.flush())
        {
            if e.kind() != io::ErrorKind::BrokenPipe {
                let _ = writeln!(io::stderr(), "billaudit: cannot write the report: {e}");
            }
            self.broken = true;
        }
    }
}

fn print_errors(report: &billaudit::Report) {
    let mut stderr = io::stderr();
    for e in &report.errors {
        let _ = writeln!(stderr, "billaudit: error: {e}");
    }
}

fn audit(a: AuditArgs) -> u8 {
    let opts = match options(&a.common) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let baseline = match &a.baseline {
        Some(path) => match load_baseline(path) {
            Ok(b) => Some(b),
            Err(e) => {
                let _ = writeln!(io::stderr(), "billaudit: error: {e}");
                return EXIT_INPUT;
            }
        },
        None => None,
    };
    let format = a.common.format.format();
    let mut out = Out { broken: false };
    let apply_baseline = |r: &mut billaudit::pipeline::SourceResult| {
        if let (Some(b), Ok(bills)) = (&baseline, r) {
            billaudit::audit::baseline::apply(bills, b, a.max_increase, &opts.policy);
        }
    };
    let report = if format == Format::Jsonl {
        billaudit::pipeline::audit_paths_streaming(&a.common.paths, &opts, &mut |_, r| {
            apply_baseline(r);
            out.write(&json::lines_of(r));
        })
    } else {
        let report =
            billaudit::pipeline::audit_paths_streaming(&a.common.paths, &opts, &mut |_, r| {
                apply_baseline(r);
            });
        let ctx = Context {
            fail_on: opts.policy.fail_on,
            check: false,
        };
        out.write(&report::render(&report, format, &ctx));
        report
    };
    print_errors(&report);
    if out.broken {
        return EXIT_OK;
    }
    if !report.errors.is_empty() {
        EXIT_INPUT
    } else if !report.passed() {
        EXIT_FINDINGS
    } else {
        EXIT_OK
    }
}

fn load_baseline(path: &std::path::Path) -> Result<json::JsonReport, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}:{}: not a billaudit JSON report: {e}",
            path.display(),
            e.line()
        )
    })
}

fn check(c: CheckArgs) -> u8 {
    let opts = match options(&c.common) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let format = c.common.format.format();
    let mut out = Out { broken: false };
    let mut outcomes = Vec::new();
    let mut report =
        billaudit::pipeline::audit_paths_streaming(&c.common.paths, &opts, &mut |path, r| {
            let result = match r {
                Ok(bills) => Ok(bills.clone()),
                Err(e) => Err(&*e),
            };
            let outcome = expect::check_file(path, result, c.bless);
            if format == Format::Jsonl {
                out.write(&json::lines_of(r));
                out.write(&json::expectation_line(&outcome));
            }
            outcomes.push(outcome);
        });
    report.expectations = outcomes;
    if format != Format::Jsonl {
        let ctx = Context {
            fail_on: opts.policy.fail_on,
            check: true,
        };
        out.write(&report::render(&report, format, &ctx));
    }
    let expected_errors: Vec<&str> = report
        .expectations
        .iter()
        .filter(|o| matches!(o.status, expect::Status::Matched | expect::Status::Blessed))
        .map(|o| o.path.as_str())
        .collect();
    let unexpected = report
        .errors
        .iter()
        .filter(|e| !e.path().is_some_and(|p| expected_errors.contains(&p)))
        .count();
    if unexpected > 0 {
        print_errors(&report);
    }
    if out.broken {
        return EXIT_OK;
    }
    let failed = report.expectations.iter().any(|o| match o.status {
        expect::Status::Mismatch(_) | expect::Status::Broken(_) => true,
        expect::Status::Missing => c.require_expectations,
        _ => false,
    });
    if unexpected > 0 {
        EXIT_INPUT
    } else if failed {
        EXIT_FINDINGS
    } else {
        EXIT_OK
    }
}

fn explain(e: ExplainArgs) -> u8 {
    let mut out = Out { broken: false };
    if e.all {
        out.write(&billaudit::audit::checks_markdown());
        return EXIT_OK;
    }
    let code = e.code.unwrap_or_default();
    match billaudit::audit::check_info(&code) {
        Some(info) => {
            out.write(&format!(
                "{}: {}\n\n{}",
                info.code,
                info.summary,
                billaudit::audit::explain_text(info).replace("**", "")
            ));
            EXIT_OK
        }
        None => {
            let codes: Vec<&str> = billaudit::audit::CHECKS.iter().map(|c| c.code).collect();
            let _ = writeln!(
                io::stderr(),
                "billaudit: unknown check `{code}`; the checks are: {}",
                codes.join(", ")
            );
            EXIT_INPUT
        }
    }
}
