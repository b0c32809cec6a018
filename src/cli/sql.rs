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

    #[command(flatten)]
    thresholds: billaudit::Thresholds,
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
    opts.thresholds.apply(&a.thresholds);
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
