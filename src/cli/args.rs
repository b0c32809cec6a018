//! The arguments `audit` and `check` share, and the run options built from them.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use billaudit::ingest::TextEncoding;
use billaudit::normalise::profile::{CostBasis, Role};
use billaudit::report::Format;
use billaudit::{InputKind, Options, Severity};

use super::output::{configured, progress_hook};

#[derive(Debug, Args)]
pub struct CommonArgs {
    /// Bill files, directories, globs, or `-` for standard input. Reported in path order.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,

    /// Output format; `html` is one self-contained page with charts (`> report.html`).
    #[arg(long, value_enum, default_value_t = FormatArg(Format::Human))]
    pub format: FormatArg,

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
    thresholds: super::thresholds::ThresholdArgs,

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

    #[command(flatten)]
    currency: CurrencyArg,

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

    /// List at most N findings of one code per bill, counting the rest in one
    /// closing finding [default: 100, or billaudit.toml's max-findings-per-code];
    /// `0` or `unlimited` lists them all.
    #[arg(long, value_name = "N", value_parser = billaudit::audit::parse_max_findings)]
    max_findings_per_code: Option<usize>,

    #[command(flatten)]
    pub color: super::color::ColorArgs,
}

/// The values of `--format`: [`Format`] as a clap value, its names and
/// help lines read from the library's table ([`Format::ALL`]), so the
/// library has no clap and the text is written once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FormatArg(pub Format);

/// [`Format::ALL`] as clap values.
const FORMAT_ARGS: [FormatArg; Format::ALL.len()] = {
    let mut out = [FormatArg(Format::Human); Format::ALL.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = FormatArg(Format::ALL[i]);
        i += 1;
    }
    out
};

impl ValueEnum for FormatArg {
    fn value_variants<'a>() -> &'a [Self] {
        &FORMAT_ARGS
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.0.name()).help(self.0.help()))
    }
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        f.0
    }
}

/// `--currency CODE`, shared by every command that reads bills.
#[derive(Debug, Args)]
pub struct CurrencyArg {
    /// The currency of bills that do not state one (an ISO 4217 code: USD,
    /// CNY, EUR, ...). Wins over billaudit.toml's `currency` and a
    /// profile's; a bill that states its currency keeps it. Without it, a
    /// bill of unknown currency is reported as such and never summed with
    /// another.
    #[arg(long, value_name = "CODE", value_parser = parse_currency)]
    pub currency: Option<String>,
}

impl CurrencyArg {
    /// Sets `--currency` on the options (over billaudit.toml's).
    pub fn apply(&self, opts: &mut Options) {
        if let Some(code) = &self.currency {
            opts.currency.given = Some(billaudit::pipeline::AssumedCurrency {
                code: code.clone(),
                source: billaudit::pipeline::CurrencySource::Flag,
            });
        }
    }
}

fn parse_currency(s: &str) -> Result<String, String> {
    billaudit::vocab::currency::parse_code(s)
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum CostArg {
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

pub fn parse_encoding(s: &str) -> Result<TextEncoding, String> {
    TextEncoding::parse(s).ok_or_else(|| billaudit::ingest::decode::unknown_label(s))
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

pub fn cost_basis(c: CostArg) -> CostBasis {
    match c {
        CostArg::Billed => CostBasis::Billed,
        CostArg::Effective => CostBasis::Effective,
        CostArg::List => CostBasis::List,
        CostArg::Contracted => CostBasis::Contracted,
    }
}

/// The run's options: defaults, then billaudit.toml, then flags. An unknown
/// `--profile` or a bad config is a usage error (exit 2).
pub fn options(c: &CommonArgs) -> Result<Options, u8> {
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
    opts.policy.thresholds.apply(&c.thresholds.0);
    c.currency.apply(&mut opts);
    if let Some(n) = c.max_findings_per_code {
        opts.policy.max_findings_per_code = n;
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_bytes_or_binary_units() {
        assert_eq!(parse_size("1048576"), Ok(1_048_576));
        // 64 x 1024 = 65 536; 500 x 1024^2 = 524 288 000; 2 x 1024^3 = 2 147 483 648.
        assert_eq!(parse_size("64K"), Ok(65_536));
        assert_eq!(parse_size("500M"), Ok(524_288_000));
        assert_eq!(parse_size(" 2g "), Ok(2_147_483_648));
        assert_eq!(parse_size("2GiB"), Ok(2_147_483_648));
        assert_eq!(parse_size("3kb"), Ok(3_072));
        assert!(parse_size("0").is_err());
        assert!(parse_size("lots").is_err());
        assert!(parse_size("-5M").is_err());
        // 2^24 TiB = 2^64 bytes: one past u64.
        assert!(
            parse_size("16777216T")
                .unwrap_err()
                .contains("out of range")
        );
    }

    #[test]
    fn columns_are_role_equals_header() {
        assert_eq!(
            parse_column("amount= Cost "),
            Ok((Role::Amount, "Cost".to_string()))
        );
        assert!(parse_column("Cost").unwrap_err().contains("ROLE=HEADER"));
        assert!(
            parse_column("colour=Cost")
                .unwrap_err()
                .contains("unknown role")
        );
    }

    #[test]
    fn encodings_are_named_or_refused() {
        assert!(parse_encoding("gbk").is_ok());
        assert!(parse_encoding("latin-9").unwrap_err().contains("utf-8"));
    }
}
