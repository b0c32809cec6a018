//! Command-line definition (clap derive): one doc comment per flag, which is
//! also the `--help` text. One file per command; `args` holds the arguments
//! `audit` and `check` share, `output` what every command writes with.

mod args;
mod audit;
mod check;
mod color;
mod completions;
mod convert;
mod explain;
mod init;
mod lines;
mod man;
mod output;
mod profiles;
mod reprice;
mod rules;
mod sql;
mod thresholds;

use clap::{Parser, Subcommand};

pub use billaudit::expect::exit::{INPUT as EXIT_INPUT, OK as EXIT_OK};

/// Audit cloud and GPU-rental bills for hidden costs.
///
/// Reads CSV and Parquet exports, PDF invoices (their text layer) and
/// plain-text invoices (`pdftotext -layout` output, e-mails, receipts), plain,
/// gzipped or zipped, and sorts every line into compute, storage,
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
    Audit(audit::AuditArgs),
    /// Audit bills and compare each with the `<bill>.expect.toml` beside it.
    ///
    /// Exit code 1 when an audit differs from its expectation (or, with
    /// --require-expectations, when a bill has none); the bills' own findings
    /// do not fail a check.
    Check(check::CheckArgs),
    /// Print the documentation of a check: what it does, why it matters, an
    /// example. Without a code, list the checks.
    Explain(explain::ExplainArgs),
    /// List the bill formats (profiles) billaudit recognises, with the cost column each uses.
    Profiles(rules::RulesArgs),
    /// Write a commented default billaudit.toml that documents every key.
    Init(init::InitArgs),
    /// List the classification rules in the order they are tried: user rules
    /// (from billaudit.toml), then the built-in ones.
    Rules(rules::RulesArgs),
    /// Print every line item with its source line, category, amount and the
    /// rule that classified it.
    Lines(lines::LinesArgs),
    /// Price the bill's GPU compute at other platforms from a price book
    /// (built in, or --prices FILE).
    ///
    /// Takes the GPU-hours per model from the bill (quantities in hours or
    /// days on compute lines naming a GPU such as RTX 4090, A100, H100; a
    /// quantity without a unit on a line whose text names an hour, as
    /// `GPU 时长 RTX 4090` or `GPU instance (hours)`) and prices them at
    /// every platform of the book with its cheapest plan
    /// (hourly, daily or monthly). Prints platform, plan, cost, the
    /// difference from what was paid, each price's source and date, and the
    /// assumptions. See docs/reprice.md.
    Reprice(reprice::RepriceArgs),
    /// Print the audit as one SQL query for DuckDB, Spark, Athena (Trino) or BigQuery.
    ///
    /// Per bill (billing account, currency, billing period) the query returns
    /// the total of each category, subtotal, total, hidden, hidden_share,
    /// replica_share and one boolean per share check, TRUE when billaudit
    /// would report it. User rules and thresholds come from billaudit.toml
    /// as for `audit`. See docs/at-scale.md.
    Sql(sql::SqlArgs),
    /// Print the shell completion script for bash, zsh, fish, powershell or elvish.
    ///
    /// bash: `billaudit completions bash > ~/.local/share/bash-completion/completions/billaudit`;
    /// zsh: into a directory of your `$fpath` as `_billaudit`; fish:
    /// `> ~/.config/fish/completions/billaudit.fish`.
    Completions(completions::CompletionsArgs),
    /// Print the man page (roff): `billaudit man > ~/.local/share/man/man1/billaudit.1`.
    ///
    /// Without COMMAND, the main page billaudit(1); `billaudit man audit`
    /// prints billaudit-audit(1), with every flag of that command.
    Man(man::ManArgs),
    /// Write every line item as a FOCUS 1.2 Cost and Usage row (CSV or Parquet); see docs/focus-export.md.
    Convert(convert::ConvertArgs),
}

/// Any panic that escapes is a bug: it is reported as one (exit code 2, a
/// request to report it), never a crash dump. The binary and the wheel's
/// `billaudit` command install it before [`run`].
pub fn set_panic_hook() {
    use std::io::Write;
    std::panic::set_hook(Box::new(|info| {
        // A damaged Parquet page: caught and reported as an input error.
        if billaudit::ingest::parquet::panic_is_contained() {
            return;
        }
        let _ = writeln!(
            std::io::stderr(),
            "billaudit: internal error: {info}\nThis is a bug; please report it with the input that caused it."
        );
    }));
}

/// Runs the command line and returns the exit code.
pub fn run() -> u8 {
    run_from(std::env::args_os())
}

/// Runs the command line `args` (the first is the program name) and returns
/// the exit code: the wheel's `billaudit` command (crates/billaudit-py)
/// passes Python's `sys.argv` here.
pub fn run_from(args: impl IntoIterator<Item = std::ffi::OsString>) -> u8 {
    // Debug builds only: lets the test suite prove that a panic becomes exit
    // code 2 with a request to report it (tests/integration/cli.rs).
    #[cfg(debug_assertions)]
    if std::env::var_os("BILLAUDIT_TEST_PANIC").is_some() {
        panic!("BILLAUDIT_TEST_PANIC is set");
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_INPUT } else { EXIT_OK };
        }
    };
    match cli.command {
        Command::Audit(a) => audit::run(a),
        Command::Check(c) => check::run(c),
        Command::Explain(e) => explain::run(e),
        Command::Profiles(p) => profiles::run(p),
        Command::Init(i) => init::run(i),
        Command::Rules(r) => rules::run(r),
        Command::Lines(l) => lines::run(l),
        Command::Reprice(r) => reprice::run(r),
        Command::Sql(a) => sql::run(a),
        Command::Completions(a) => completions::run(a),
        Command::Man(a) => man::run(a),
        Command::Convert(c) => convert::run(c),
    }
}
