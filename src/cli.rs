//! Command-line definition (clap derive): one doc comment per flag, which is
//! also the `--help` text.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use clap::{Args, Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use billaudit::audit::parse_fraction;
use billaudit::config::{self, Config};
use billaudit::expect;
use billaudit::ingest::TextEncoding;
use billaudit::ingest::{Origin, Source};
use billaudit::normalise::profile::Profile;
use billaudit::normalise::profile::{CostBasis, Role};
use billaudit::normalise::profiles::builtin;
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
    Profiles(RulesArgs),
    /// Write a commented default billaudit.toml that documents every key.
    Init(InitArgs),
    /// List the classification rules in the order they are tried: user rules
    /// (from billaudit.toml), then the built-in ones.
    Rules(RulesArgs),
    /// Print every line item with its source line, category, amount and the
    /// rule that classified it.
    Lines(LinesArgs),
    /// Price the bill's GPU compute at other platforms from a price book.
    ///
    /// Takes the GPU-hours per model from the bill (quantities in hours or
    /// days on compute lines naming a GPU such as RTX 4090, A100, H100) and
    /// prices them at every platform of the book with its cheapest plan
    /// (hourly, daily or monthly). Prints platform, plan, cost, the
    /// difference from what was paid, each price's source and date, and the
    /// assumptions. See docs/reprice.md.
    Reprice(RepriceArgs),
    /// Print the audit as one SQL query for DuckDB, Spark, Athena (Trino) or BigQuery.
    ///
    /// Per bill (billing account, currency, billing period) the query returns
    /// the total of each category, subtotal, total, hidden, hidden_share,
    /// replica_share and one boolean per share check, TRUE when billaudit
    /// would report it. User rules and thresholds come from billaudit.toml
    /// as for `audit`. See docs/at-scale.md.
    Sql(SqlArgs),
}

#[derive(Debug, Args)]
struct RepriceArgs {
    /// Bill files, directories, globs, or `-` for standard input.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,

    /// The price book (TOML), e.g. examples/platforms-2025.toml.
    #[arg(long, value_name = "PLATFORMS.toml")]
    prices: PathBuf,

    /// Output format.
    #[arg(long, value_enum, default_value_t = RepriceFormat::Human)]
    format: RepriceFormat,

    /// Read every input with this profile instead of recognising it (a user
    /// profile of billaudit.toml or a built-in one).
    #[arg(long, value_name = "NAME")]
    profile: Option<String>,

    /// Read this config instead of the nearest billaudit.toml (its user
    /// profiles and rules decide how the bill is read and classified).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum RepriceFormat {
    /// A table for people (default).
    Human,
    /// One JSON document (docs/reprice.md).
    Json,
}

#[derive(Debug, Args)]
struct SqlArgs {
    /// The SQL engine.
    #[arg(long, value_enum)]
    dialect: DialectArg,

    /// The export's profile (sql supports focus, aws-cur, aws-cur2, azure, oci; gcp with bigquery).
    #[arg(long, value_name = "NAME")]
    profile: String,

    /// The table read: a name, or for DuckDB a table function such as
    /// `read_csv('exports/*.csv.gz', all_varchar = true, union_by_name = true)`.
    #[arg(long, value_name = "T", default_value = "bill_lines")]
    table: String,

    /// One row per bill (billing account, currency, billing period) or per
    /// currency (as `billaudit audit` reports one file).
    #[arg(long, value_enum, default_value_t = GrainArg::Bill)]
    grain: GrainArg,

    /// A CSV export (or a file holding just its header line) whose columns the
    /// query is written for: columns the profile lists but the export lacks are
    /// left out, and FOCUS `x_*` columns are read.
    #[arg(long, value_name = "FILE")]
    header_from: Option<PathBuf>,

    /// Read this config instead of the nearest billaudit.toml (its user rules
    /// and thresholds go into the query).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// Which cost is the amount (FOCUS: billed, effective, list, contracted).
    #[arg(long, value_enum, default_value_t = CostArg::Billed)]
    cost: CostArg,

    #[command(flatten)]
    thresholds: ThresholdArgs,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum DialectArg {
    Duckdb,
    Spark,
    /// Amazon Athena engine v3 (Trino).
    Athena,
    Bigquery,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum GrainArg {
    Bill,
    Currency,
}

#[derive(Debug, Args)]
struct InitArgs {
    /// Where to write the file.
    #[arg(default_value = "billaudit.toml", value_name = "FILE")]
    path: PathBuf,

    /// Overwrite an existing file.
    #[arg(long)]
    force: bool,
}

#[derive(Debug, Args)]
struct RulesArgs {
    /// Read this config instead of the nearest billaudit.toml (its user rules or profiles come first).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct LinesArgs {
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

    /// Force the input encoding instead of detecting it.
    #[arg(long, value_name = "ENCODING", value_parser = parse_encoding)]
    encoding: Option<TextEncoding>,
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

/// The share-check thresholds, for `audit`, `check` and `sql`. Each flag wins
/// over billaudit.toml, which wins over the default.
#[derive(Debug, Args)]
struct ThresholdArgs {
    /// `hidden-fee-share` threshold: hidden / subtotal above this fails (`5%` or `0.05`) [default: 5%].
    #[arg(long, value_name = "SHARE", value_parser = parse_fraction)]
    hidden_threshold: Option<rust_decimal::Decimal>,

    /// `replica-share` threshold: storage_replica / subtotal above this fails [default: 30%].
    #[arg(long, value_name = "SHARE", value_parser = parse_fraction)]
    replica_threshold: Option<rust_decimal::Decimal>,

    /// `replica-redundancy` threshold: (storage + storage_replica) / storage above this [default: 1.2].
    #[arg(long, value_name = "RATIO", value_parser = parse_fraction)]
    redundancy_threshold: Option<rust_decimal::Decimal>,

    /// `scheduling-fee-share` threshold: scheduling / compute above this [default: 8%].
    #[arg(long, value_name = "SHARE", value_parser = parse_fraction)]
    scheduling_threshold: Option<rust_decimal::Decimal>,
}

impl ThresholdArgs {
    fn apply(&self, t: &mut billaudit::Thresholds) {
        if let Some(x) = self.hidden_threshold {
            t.hidden_share = x;
        }
        if let Some(x) = self.replica_threshold {
            t.replica_share = x;
        }
        if let Some(x) = self.redundancy_threshold {
            t.redundancy = x;
        }
        if let Some(x) = self.scheduling_threshold {
            t.scheduling_share = x;
        }
    }
}

#[derive(Debug, Args)]
struct CommonArgs {
    /// Bill files, directories, globs, or `-` for standard input. Reported in path order.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,

    /// Output format; `html` is one self-contained page with charts (`> report.html`).
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    format: FormatArg,

    /// Lowest severity that fails the run (exit code 1) [default: error, or billaudit.toml's fail-on].
    #[arg(long, value_enum)]
    fail_on: Option<FailOn>,

    /// Read this config instead of the nearest billaudit.toml in the working directory or its parents.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// Stop at the first input that cannot be read (default: report it and go on).
    #[arg(long, conflicts_with = "keep_going")]
    fail_fast: bool,

    /// Report unreadable inputs and go on with the others (the default).
    #[arg(long)]
    keep_going: bool,

    #[command(flatten)]
    thresholds: ThresholdArgs,

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
        Command::Profiles(p) => profiles(p),
        Command::Init(i) => init(i),
        Command::Rules(r) => rules(r),
        Command::Lines(l) => lines(l),
        Command::Reprice(r) => reprice(r),
        Command::Sql(a) => sql(a),
    }
}

fn reprice(r: RepriceArgs) -> u8 {
    let path = r.prices.display().to_string();
    let book = std::fs::read_to_string(&r.prices)
        .map_err(|e| format!("{path}: {e}"))
        .and_then(|text| {
            billaudit::reprice::PriceBook::parse(&path, &text).map_err(|e| e.to_string())
        });
    let book = match book {
        Ok(b) => b,
        Err(e) => {
            error_line(&e);
            return EXIT_INPUT;
        }
    };
    let opts = match configured(r.config.as_ref(), r.profile.as_ref()) {
        Ok((_, o)) => o,
        Err(code) => return code,
    };
    let report = billaudit::pipeline::audit_paths(&r.paths, &opts);
    let repriced = billaudit::reprice::reprice(&report.bills, &book);
    let text = match r.format {
        RepriceFormat::Human => billaudit::reprice::human::render(&repriced),
        RepriceFormat::Json => billaudit::reprice::json::render(&repriced),
    };
    let mut out = Out { broken: false };
    out.write(&text);
    print_errors(&report);
    if !report.errors.is_empty() && !out.broken {
        EXIT_INPUT
    } else {
        EXIT_OK
    }
}

fn cost_basis(c: CostArg) -> CostBasis {
    match c {
        CostArg::Billed => CostBasis::Billed,
        CostArg::Effective => CostBasis::Effective,
        CostArg::List => CostBasis::List,
        CostArg::Contracted => CostBasis::Contracted,
    }
}

fn sql(a: SqlArgs) -> u8 {
    use billaudit::sql::{Dialect, Grain, SqlOptions, generate, read_header};
    let err = |m: String| {
        error_line(&m);
        EXIT_INPUT
    };
    let cfg = match load_config(a.config.as_ref()) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let dialect = match a.dialect {
        DialectArg::Duckdb => Dialect::DuckDb,
        DialectArg::Spark => Dialect::Spark,
        DialectArg::Athena => Dialect::Athena,
        DialectArg::Bigquery => Dialect::BigQuery,
    };
    let mut opts = SqlOptions::new(dialect, &a.profile);
    opts.table = a.table.clone();
    opts.grain = match a.grain {
        GrainArg::Bill => Grain::Bill,
        GrainArg::Currency => Grain::Currency,
    };
    opts.cost = cost_basis(a.cost);
    // Flags win over billaudit.toml, which wins over the defaults. The
    // same user rules as the audit, in order; a rule the query cannot
    // express is refused, never silently left out.
    if let Some(c) = &cfg {
        if let Err(m) = opts.configure(c) {
            return err(m);
        }
    }
    a.thresholds.apply(&mut opts.thresholds);
    if let Some(path) = &a.header_from {
        match read_header(path) {
            Ok(h) => opts.header = Some(h),
            Err(e) => return err(e.to_string()),
        }
    }
    match generate(&opts) {
        Ok(g) => {
            let mut out = Out { broken: false };
            out.write(&g.sql);
            EXIT_OK
        }
        Err(e) => err(e.to_string()),
    }
}

/// `billaudit: error: ...` on stderr. Errors quote paths and bill text, so
/// control characters are shown escaped (`\u{1b}`), as in the human report;
/// the message's own line feeds (snippets) are kept.
fn error_line(e: &dyn std::fmt::Display) {
    let text = billaudit::report::term_report(e.to_string());
    let _ = writeln!(io::stderr(), "billaudit: error: {text}");
}

fn init(i: InitArgs) -> u8 {
    if i.path.exists() && !i.force {
        let _ = writeln!(
            io::stderr(),
            "billaudit: error: {} exists; use --force to overwrite it",
            i.path.display()
        );
        return EXIT_INPUT;
    }
    match std::fs::write(&i.path, config::DEFAULT_TOML) {
        Ok(()) => {
            let _ = writeln!(
                io::stderr(),
                "wrote {}: every key is documented inside and in docs/config.md",
                i.path.display()
            );
            EXIT_OK
        }
        Err(e) => {
            error_line(&format_args!("{}: {e}", i.path.display()));
            EXIT_INPUT
        }
    }
}

fn rules(r: RulesArgs) -> u8 {
    let cfg = match load_config(r.config.as_ref()) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut out = String::new();
    let mut n = 0;
    if let Some(cfg) = &cfg {
        for rule in &cfg.rules.rules {
            n += 1;
            let mut scope = Vec::new();
            if let Some(p) = &rule.profile {
                scope.push(format!("profile {p}"));
            }
            if !rule.paths.is_empty() {
                let globs: Vec<&str> = rule.paths.iter().map(|g| g.as_str()).collect();
                scope.push(format!("paths {}", globs.join(", ")));
            }
            out.push_str(&format!(
                "{n:>3}. {:<28} {:<15} {} {}\n     from {}{}\n",
                rule.id,
                rule.category.as_str(),
                rule.column
                    .as_deref()
                    .map(|c| format!("column `{c}`"))
                    .unwrap_or_else(|| "description".into()),
                rule.matcher.describe(),
                cfg.path.display(),
                if scope.is_empty() {
                    String::new()
                } else {
                    format!("; only {}", scope.join("; "))
                }
            ));
        }
    }
    for rule in billaudit::classify::rules::BUILTIN {
        n += 1;
        let only = if rule.non_positive_only {
            " (amounts <= 0 only)"
        } else {
            ""
        };
        out.push_str(&format!(
            "{n:>3}. builtin:{:<20} {:<15} {}{only}\n     {}\n",
            rule.id,
            rule.category.as_str(),
            rule.why,
            rule.patterns.join(", ")
        ));
    }
    out.push_str(
        "Rules are tried on the most specific texts (description, SKU) before coarse ones \
         (service); a pattern written `=word` matches a whole word. \
         A profile marker (e.g. FOCUS ChargeCategory=Tax) decides before built-in rules.\n",
    );
    let mut o = Out { broken: false };
    o.write(&out);
    EXIT_OK
}

fn lines(l: LinesArgs) -> u8 {
    use billaudit::report::lines::{self as render, LinesFormat as F};
    use std::sync::Mutex;
    let mut opts = match configured(l.config.as_ref(), l.profile.as_ref()) {
        Ok((_, o)) => o,
        Err(code) => return code,
    };
    if l.encoding.is_some() {
        opts.encoding = l.encoding;
    }
    let format = match l.format {
        LinesFormat::Human => F::Human,
        LinesFormat::Csv => F::Csv,
        LinesFormat::Json => F::Json,
    };
    let out = Arc::new(Mutex::new(LinesOut {
        out: Out { broken: false },
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
                let text = render::item(format, path, item, g.first);
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
    first: bool,
    buf: String,
}

impl LinesOut {
    fn flush(&mut self) {
        let text = std::mem::take(&mut self.buf);
        self.out.write(&text);
    }
}

fn profiles(a: RulesArgs) -> u8 {
    let cfg = match load_config(a.config.as_ref()) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut all: Vec<Profile> = cfg.map(|c| c.profiles).unwrap_or_default();
    all.extend(builtin());
    let mut out = String::new();
    for p in all {
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

/// The config named with `--config`, or the nearest billaudit.toml; a bad
/// config is reported (file:line:column) and is exit code 2.
fn load_config(path: Option<&PathBuf>) -> Result<Option<Config>, u8> {
    let found = match path {
        Some(p) => Some(p.clone()),
        None => std::env::current_dir()
            .ok()
            .and_then(|d| config::discover(&d)),
    };
    let Some(found) = found else {
        return Ok(None);
    };
    match config::load(&found) {
        Ok(c) => Ok(Some(c)),
        Err(e) => {
            error_line(&e);
            Err(EXIT_INPUT)
        }
    }
}

/// billaudit.toml (`--config FILE`, or the nearest) and the options every
/// command that reads bills starts from ([`Options::configured`]: user
/// profiles before built-ins, user rules before built-in rules, the
/// config's policy). A bad config or an unknown `--profile` is exit code 2.
fn configured(
    config: Option<&PathBuf>,
    profile: Option<&String>,
) -> Result<(Option<Config>, Options), u8> {
    let cfg = load_config(config)?;
    match Options::configured(cfg.as_ref(), profile.map(String::as_str)) {
        Ok(o) => Ok((cfg, o)),
        Err(e) => {
            error_line(&e);
            Err(EXIT_INPUT)
        }
    }
}

/// The run's options: defaults, then billaudit.toml, then flags. An unknown
/// `--profile` or a bad config is a usage error (exit 2).
fn options(c: &CommonArgs) -> Result<Options, u8> {
    let (_, mut opts) = configured(c.config.as_ref(), c.profile.as_ref())?;
    opts.cost = cost_basis(c.cost);
    opts.merge = !c.no_merge;
    if c.encoding.is_some() {
        opts.encoding = c.encoding;
    }
    opts.columns.clone_from(&c.columns);
    opts.input = match c.input {
        InputArg::Auto => InputKind::Auto,
        InputArg::Csv => InputKind::Csv,
        InputArg::Text => InputKind::Text,
    };
    opts.fail_fast = c.fail_fast;
    opts.progress = progress_hook(&c.paths);
    opts.max_input_bytes = c.max_input_bytes;
    c.thresholds.apply(&mut opts.policy.thresholds);
    if let Some(f) = c.fail_on {
        opts.policy.fail_on = match f {
            FailOn::Error => Severity::Error,
            FailOn::Warning => Severity::Warning,
        };
    }
    Ok(opts)
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
    for e in &report.errors {
        error_line(&e);
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
                error_line(&e);
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
