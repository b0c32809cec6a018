//! What differs between the SQL engines: quoting, string literals, the
//! decimal type, substring and regular-expression tests, and the exact
//! division behind a share.

use std::fmt;

/// The engines `billaudit sql` writes for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    DuckDb,
    Spark,
    /// Amazon Athena (engine v3 = Trino).
    Athena,
    BigQuery,
}

/// Digits after the decimal point of every money value in the query. The
/// real exports carry up to 19 (koku's CUR sample), OCI 18, FOCUS 11.
pub const SCALE: u32 = 20;

impl Dialect {
    pub const ALL: [Dialect; 4] = [
        Dialect::DuckDb,
        Dialect::Spark,
        Dialect::Athena,
        Dialect::BigQuery,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::DuckDb => "duckdb",
            Dialect::Spark => "spark",
            Dialect::Athena => "athena",
            Dialect::BigQuery => "bigquery",
        }
    }

    pub fn parse(s: &str) -> Option<Dialect> {
        let s = s.trim().to_ascii_lowercase();
        match s.as_str() {
            "trino" => Some(Dialect::Athena),
            "sparksql" | "databricks" => Some(Dialect::Spark),
            _ => Dialect::ALL.into_iter().find(|d| d.as_str() == s),
        }
    }

    /// The money type: DECIMAL(38,20) (BigQuery: BIGNUMERIC, 38 places).
    pub fn money(self) -> String {
        self.decimal(38, SCALE)
    }

    /// A decimal type of `precision` digits, `scale` of them after the point.
    pub fn decimal(self, precision: u32, scale: u32) -> String {
        match self {
            // BIGNUMERIC(P, S) is a parameterised type; the arithmetic on
            // it is BIGNUMERIC (76 digits, 38 places), wider than needed.
            Dialect::BigQuery => format!("BIGNUMERIC({precision}, {scale})"),
            _ => format!("DECIMAL({precision}, {scale})"),
        }
    }

    pub fn string_type(self) -> &'static str {
        match self {
            Dialect::DuckDb | Dialect::Athena => "VARCHAR",
            Dialect::Spark | Dialect::BigQuery => "STRING",
        }
    }

    /// A quoted identifier. BigQuery paths (`service.description` in the
    /// GCP export) are quoted part by part.
    pub fn ident(self, name: &str) -> String {
        match self {
            Dialect::DuckDb | Dialect::Athena => format!("\"{}\"", name.replace('"', "\"\"")),
            Dialect::Spark => format!("`{}`", name.replace('`', "``")),
            Dialect::BigQuery => name
                .split('.')
                .map(|p| format!("`{}`", p.replace('`', "\\`")))
                .collect::<Vec<_>>()
                .join("."),
        }
    }

    /// A string literal. Spark and BigQuery read backslash escapes.
    pub fn lit(self, s: &str) -> String {
        match self {
            Dialect::DuckDb | Dialect::Athena => format!("'{}'", s.replace('\'', "''")),
            Dialect::Spark | Dialect::BigQuery => {
                format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
            }
        }
    }

    /// `hay` contains the literal `needle`.
    pub fn contains(self, hay: &str, needle: &str) -> String {
        let n = self.lit(needle);
        match self {
            Dialect::DuckDb | Dialect::Athena => format!("strpos({hay}, {n}) > 0"),
            Dialect::Spark => format!("instr({hay}, {n}) > 0"),
            Dialect::BigQuery => format!("STRPOS({hay}, {n}) > 0"),
        }
    }

    /// `hay` matches the regular expression `re` somewhere.
    pub fn regex(self, hay: &str, re: &str) -> String {
        let r = self.lit(re);
        match self {
            Dialect::DuckDb => format!("regexp_matches({hay}, {r})"),
            Dialect::Spark => format!("{hay} RLIKE {r}"),
            Dialect::Athena => format!("regexp_like({hay}, {r})"),
            Dialect::BigQuery => format!("REGEXP_CONTAINS({hay}, {r})"),
        }
    }

    /// `part / whole` rounded half away from zero to 6 places, computed
    /// exactly; `whole` is known to be > 0 where this is evaluated.
    pub fn share(self, part: &str, whole: &str) -> String {
        let six = self.decimal(38, 6);
        match self {
            // DuckDB divides decimals as DOUBLE: divide the unscaled
            // integers instead (HUGEINT), by long division so no product
            // exceeds 1000 x the whole (a whole up to about 1.7e15; beyond,
            // overflow is an error): the integer part, then two groups of
            // three decimals, then half away from zero on the remainder
            // (`abs` and `sign`). Multiplying the part by 2e6 first
            // overflowed HUGEINT from a part of about 8.5e11.
            Dialect::DuckDb => {
                let unscaled = |e: &str| {
                    format!(
                        "CAST(replace(CAST(CAST({e} AS {m}) AS VARCHAR), '.', '') AS HUGEINT)",
                        m = self.money()
                    )
                };
                let p = unscaled(part);
                let w = unscaled(whole);
                let r0 = format!("(abs({p}) % {w})");
                let r1 = format!("(({r0} * 1000) % {w})");
                let r2 = format!("(({r1} * 1000) % {w})");
                let n = format!(
                    "((abs({p}) // {w}) * 1000000 + (({r0} * 1000) // {w}) * 1000 + (({r1} * 1000) // {w}) + CASE WHEN {r2} * 2 >= {w} THEN 1 ELSE 0 END)"
                );
                format!(
                    "CAST(CAST(sign({p}) * {n} AS {dec}) * CAST(0.000001 AS DECIMAL(7, 6)) AS {six})",
                    dec = self.decimal(38, 0)
                )
            }
            // Spark: DECIMAL(38,20) / DECIMAL(38,20) is DECIMAL(38,6),
            // rounded HALF_UP (away from zero). Trino: DECIMAL(38,20),
            // rounded HALF_UP. BigQuery: 38 places, half away from zero.
            // ROUND(.., 6) is half away from zero in all three.
            Dialect::Spark | Dialect::Athena | Dialect::BigQuery => {
                format!("CAST(ROUND({part} / {whole}, 6) AS {six})")
            }
        }
    }

    /// Whether the regex flavour is RE2 (DuckDB, BigQuery), Java (Spark) or
    /// Joni (Trino): for messages.
    pub fn regex_flavour(self) -> &'static str {
        match self {
            Dialect::DuckDb | Dialect::BigQuery => "RE2",
            Dialect::Spark => "Java regex",
            Dialect::Athena => "Joni (Java regex syntax)",
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
