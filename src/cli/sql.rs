//! `billaudit sql`: the audit as one SQL query.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::args::{CostArg, cost_basis};
use super::output::{Out, error_line, load_config};
use super::{EXIT_INPUT, EXIT_OK};

#[derive(Debug, Args)]
pub struct SqlArgs {
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
    /// left out, and FOCUS `x_*` columns are read. Needed for spark, athena
    /// and bigquery (except gcp); the DuckDB query finds the columns as it runs.
    #[arg(long, value_name = "FILE")]
    header_from: Option<PathBuf>,

    /// Read this config instead of the nearest billaudit.toml (its user rules
    /// and thresholds go into the query).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,

    /// Which cost is the amount (FOCUS: billed, effective, list, contracted).
    #[arg(long, value_enum, default_value_t = CostArg::Billed)]
    cost: CostArg,

    /// Also write the findings query: one row per finding of the per-line
    /// checks (code, severity, line, row key, expected, actual, difference,
    /// message). Alone it prints the findings query; with --output both.
    #[arg(long)]
    findings: bool,

    /// Write the queries to files in this folder (`totals.sql`, and with
    /// --findings `findings.sql`) instead of printing.
    #[arg(long, value_name = "DIR")]
    output: Option<PathBuf>,

    /// The findings query: the table's column holding each row's line in
    /// its file. Without it DuckDB numbers the rows as it reads them (the
    /// header is line 1); Spark, Athena and BigQuery give NULL.
    #[arg(long, value_name = "NAME")]
    line_column: Option<String>,

    /// The findings query: how slashed dates (`9/2/2023`) read.
    #[arg(long, value_enum, default_value_t = DateOrderArg::MonthFirst)]
    date_order: DateOrderArg,

    #[command(flatten)]
    thresholds: super::thresholds::ThresholdArgs,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum DateOrderArg {
    MonthFirst,
    DayFirst,
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

pub fn run(a: SqlArgs) -> u8 {
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
    opts.on_demand = billaudit::pipeline::builtin_on_demand();
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
    opts.thresholds.apply(&a.thresholds.0);
    if let Some(path) = &a.header_from {
        match read_header(path) {
            Ok(h) => opts.header = Some(h),
            Err(e) => return err(e.to_string()),
        }
    }
    opts.line_column = a.line_column.clone();
    opts.day_first = matches!(a.date_order, DateOrderArg::DayFirst);
    let totals = match generate(&opts) {
        Ok(g) => g.sql,
        Err(e) => return err(e.to_string()),
    };
    let findings = if a.findings {
        match billaudit::sql::generate_findings(&opts) {
            Ok(g) => {
                for line in g
                    .sql
                    .lines()
                    .filter(|l| l.starts_with("-- not in this query"))
                {
                    eprintln!("note: {}", line.trim_start_matches("-- "));
                }
                Some(g.sql)
            }
            Err(e) => return err(e.to_string()),
        }
    } else {
        None
    };
    if let Some(dir) = &a.output {
        if let Err(e) = std::fs::create_dir_all(dir) {
            return err(format!("{}: cannot create the folder: {e}", dir.display()));
        }
        let mut files = vec![("totals.sql", totals)];
        if let Some(f) = findings {
            files.push(("findings.sql", f));
        }
        for (name, sql) in files {
            let path = dir.join(name);
            if let Err(e) = std::fs::write(&path, sql) {
                return err(format!("{}: cannot write: {e}", path.display()));
            }
        }
        return EXIT_OK;
    }
    let mut out = Out { broken: false };
    out.write(&findings.unwrap_or(totals));
    EXIT_OK
}
