//! What differs between the engines for the findings query: integer
//! arithmetic on unscaled decimals, regex groups, arrays, day numbers and
//! the error that stops a query.

use super::Dialect;

impl Dialect {
    /// The integer type of unscaled amounts: DECIMAL(38, 0) (BigQuery:
    /// BIGNUMERIC(38, 0)); overflow is an error in every engine (Spark with
    /// ANSI mode), never a wrong figure.
    pub fn int38(self) -> String {
        self.decimal(38, 0)
    }

    pub fn int_type(self) -> &'static str {
        match self {
            Dialect::DuckDb | Dialect::Athena => "INTEGER",
            Dialect::Spark => "INT",
            Dialect::BigQuery => "INT64",
        }
    }

    pub fn bigint_type(self) -> &'static str {
        match self {
            Dialect::BigQuery => "INT64",
            _ => "BIGINT",
        }
    }

    /// Group `group` (1-based) of the first match of `re` in `hay`, `''`
    /// when it took no part. BigQuery's `REGEXP_EXTRACT` returns the only
    /// capturing group: the others are made non-capturing.
    pub fn regex_group(self, hay: &str, re: &str, group: usize) -> String {
        match self {
            Dialect::BigQuery => {
                let mut out = String::new();
                let mut n = 0;
                let mut chars = re.chars().peekable();
                while let Some(c) = chars.next() {
                    out.push(c);
                    if c == '(' && chars.peek() != Some(&'?') {
                        n += 1;
                        if n != group {
                            out.push_str("?:");
                        }
                    }
                }
                format!("coalesce(REGEXP_EXTRACT({hay}, {}), '')", self.lit(&out))
            }
            _ => format!("regexp_extract({hay}, {}, {group})", self.lit(re)),
        }
    }

    /// 1-based position of `needle` in `hay`, 0 when absent.
    pub fn position(self, hay: &str, needle: &str) -> String {
        match self {
            Dialect::Spark => format!("instr({hay}, {needle})"),
            _ => format!("strpos({hay}, {needle})"),
        }
    }

    /// An array of the expressions.
    pub fn array(self, items: &[String]) -> String {
        let j = items.join(", ");
        match self {
            Dialect::DuckDb | Dialect::BigQuery => format!("[{j}]"),
            Dialect::Spark => format!("array({j})"),
            Dialect::Athena => format!("ARRAY[{j}]"),
        }
    }

    /// A value a `PARTITION BY` can take from an array (BigQuery cannot
    /// partition by an array: its JSON text).
    pub fn array_key(self, arr: &str) -> String {
        match self {
            Dialect::BigQuery => format!("TO_JSON_STRING({arr})"),
            _ => arr.to_string(),
        }
    }

    /// Stops the query with `msg` (a string expression).
    pub fn error(self, msg: &str) -> String {
        match self {
            Dialect::DuckDb => format!("error({msg})"),
            Dialect::Spark => format!("raise_error({msg})"),
            Dialect::Athena => format!("fail({msg})"),
            Dialect::BigQuery => format!("ERROR({msg})"),
        }
    }

    /// Days from 1970-01-01 of a TIMESTAMP's date.
    pub fn day_number(self, ts: &str) -> String {
        match self {
            Dialect::DuckDb | Dialect::Athena => {
                format!("date_diff('day', DATE '1970-01-01', CAST({ts} AS DATE))")
            }
            Dialect::Spark => format!("datediff(CAST({ts} AS DATE), DATE '1970-01-01')"),
            Dialect::BigQuery => format!("DATE_DIFF(CAST({ts} AS DATE), DATE '1970-01-01', DAY)"),
        }
    }

    /// The TIMESTAMP one second before `ts`.
    pub fn second_before(self, ts: &str) -> String {
        match self {
            Dialect::DuckDb | Dialect::Spark | Dialect::Athena => {
                format!("({ts} - INTERVAL '1' SECOND)")
            }
            Dialect::BigQuery => format!("TIMESTAMP_SUB({ts}, INTERVAL 1 SECOND)"),
        }
    }

    /// The month key (year * 12 + month) of a day number.
    pub fn month_key(self, day: &str) -> String {
        let date = match self {
            Dialect::DuckDb => format!("(DATE '1970-01-01' + CAST({day} AS INTEGER))"),
            Dialect::Spark => format!("date_add(DATE '1970-01-01', CAST({day} AS INT))"),
            Dialect::Athena => format!("date_add('day', {day}, DATE '1970-01-01')"),
            Dialect::BigQuery => format!("DATE_ADD(DATE '1970-01-01', INTERVAL {day} DAY)"),
        };
        format!("(EXTRACT(YEAR FROM {date}) * 12 + EXTRACT(MONTH FROM {date}))")
    }

    /// `FROM rel` with one row per day `first..=last` of each of its rows,
    /// the day named `d`.
    pub fn expand_days(self, rel: &str, first: &str, last: &str) -> String {
        match self {
            Dialect::DuckDb => format!(
                "{rel} CROSS JOIN UNNEST(generate_series(CAST({first} AS BIGINT), CAST({last} AS BIGINT))) AS days(d)"
            ),
            Dialect::Spark => {
                format!("{rel} LATERAL VIEW explode(sequence({first}, {last})) days AS d")
            }
            Dialect::Athena => {
                format!("{rel} CROSS JOIN UNNEST(sequence({first}, {last})) AS days(d)")
            }
            Dialect::BigQuery => {
                format!("{rel} CROSS JOIN UNNEST(GENERATE_ARRAY({first}, {last})) AS d")
            }
        }
    }

    /// `a` and `b` are equal or both NULL.
    pub fn same(self, a: &str, b: &str) -> String {
        match self {
            Dialect::Spark => format!("{a} <=> {b}"),
            _ => format!("{a} IS NOT DISTINCT FROM {b}"),
        }
    }
}
