//! `billaudit convert --to focus --format parquet`: the FOCUS rows of
//! [`super::focus`] as an Apache Parquet file (docs/focus-export.md).
//!
//! A Parquet schema is fixed before the first row group, and a decimal
//! column's scale is part of it. So the rows are first written as the FOCUS
//! CSV to a spill file (one input's items in memory at a time, as for CSV);
//! `finish` reads the spill once to find each decimal column's scale (the
//! largest any of its values has), then again to write row groups of
//! [`ROW_GROUP`] rows. The Parquet file has exactly the CSV's rows and
//! columns; memory is bounded by one row group.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use chrono::NaiveDateTime;
use parquet::basic::Compression;
use parquet::data_type::Int64Type;
use parquet::data_type::{ByteArray, ByteArrayType, FixedLenByteArray, FixedLenByteArrayType};
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use rust_decimal::Decimal;

use super::focus::{COLUMNS, EXTRA_COLUMNS, FocusCsv, Tally};
use crate::audit::Bill;
use crate::model::LineItem;

/// Rows per row group.
pub const ROW_GROUP: usize = 64 * 1024;

/// DECIMAL precision of the decimal columns (the most a 16-byte
/// FIXED_LEN_BYTE_ARRAY holds).
pub const PRECISION: u32 = 38;

/// The FOCUS columns whose type is Decimal, written as DECIMAL(38, S).
pub const DECIMAL_COLUMNS: [&str; 12] = [
    "BilledCost",
    "EffectiveCost",
    "ListCost",
    "ContractedCost",
    "ListUnitPrice",
    "ContractedUnitPrice",
    "PricingQuantity",
    "PricingCurrencyContractedUnitPrice",
    "PricingCurrencyEffectiveCost",
    "PricingCurrencyListUnitPrice",
    "ConsumedQuantity",
    "CommitmentDiscountQuantity",
];

/// The FOCUS columns whose type is Date/Time, written as
/// TIMESTAMP(MICROS, isAdjustedToUTC=true) in an INT64.
pub const TIMESTAMP_COLUMNS: [&str; 4] = [
    "BillingPeriodStart",
    "BillingPeriodEnd",
    "ChargePeriodStart",
    "ChargePeriodEnd",
];

/// The CSV's spelling of a date/time cell (`super::focus`).
const ISO: &str = "%Y-%m-%dT%H:%M:%SZ";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Text,
    Time,
    Decimal,
}

fn kind(name: &str) -> Kind {
    if DECIMAL_COLUMNS.contains(&name) {
        Kind::Decimal
    } else if TIMESTAMP_COLUMNS.contains(&name) {
        Kind::Time
    } else {
        Kind::Text
    }
}

fn names() -> impl Iterator<Item = &'static str> {
    COLUMNS.iter().chain(EXTRA_COLUMNS.iter()).copied()
}

/// The message type of the file: every column OPTIONAL (null is definition
/// level 0); `scales` gives each column's decimal scale (read for decimal
/// columns only).
pub fn message_type(scales: &[u32]) -> String {
    let mut s = String::from("message focus_cost_and_usage {\n");
    for (i, name) in names().enumerate() {
        let line = match kind(name) {
            Kind::Text => format!("  optional binary {name} (STRING);\n"),
            Kind::Time => format!("  optional int64 {name} (TIMESTAMP(MICROS, true));\n"),
            Kind::Decimal => format!(
                "  optional fixed_len_byte_array(16) {name} (DECIMAL({PRECISION}, {}));\n",
                scales[i]
            ),
        };
        s.push_str(&line);
    }
    s.push('}');
    s
}

/// `d` as the unscaled integer of DECIMAL(38, `scale`), exactly, or why not.
pub fn unscaled(d: Decimal, scale: u32) -> Result<i128, String> {
    let up = scale
        .checked_sub(d.scale())
        .ok_or_else(|| format!("{d} has more than {scale} decimal places"))?;
    let limit = 10i128.pow(PRECISION);
    10i128
        .checked_pow(up)
        .and_then(|f| d.mantissa().checked_mul(f))
        .filter(|v| v.abs() < limit)
        .ok_or_else(|| format!("{d} does not fit DECIMAL({PRECISION}, {scale})"))
}

/// Writes FOCUS rows as Parquet: [`FocusCsv`] into a spill file, re-typed
/// into `out` by [`FocusParquet::finish`].
pub struct FocusParquet<W: Write + Send> {
    spill: Option<FocusCsv<BufWriter<File>>>,
    spill_path: PathBuf,
    out: W,
}

impl<W: Write + Send> FocusParquet<W> {
    pub fn new(out: W, period: Option<chrono::NaiveDate>) -> io::Result<Self> {
        static SEQ: AtomicU64 = AtomicU64::new(0);
        let spill_path = std::env::temp_dir().join(format!(
            "billaudit-focus-{}-{}.csv",
            std::process::id(),
            SEQ.fetch_add(1, Ordering::Relaxed)
        ));
        let file = File::options()
            .write(true)
            .create_new(true)
            .open(&spill_path)?;
        let spill = FocusCsv::new(BufWriter::new(file), period)?;
        Ok(FocusParquet {
            spill: Some(spill),
            spill_path,
            out,
        })
    }

    /// As [`FocusCsv::write_input`].
    pub fn write_input(&mut self, items: &[(String, LineItem)], bills: &[Bill]) -> io::Result<()> {
        match &mut self.spill {
            Some(s) => s.write_input(items, bills),
            None => Ok(()),
        }
    }

    /// Writes the Parquet file and returns what was written.
    pub fn finish(mut self) -> io::Result<Tally> {
        let Some(spill) = self.spill.take() else {
            return Ok(Tally::default());
        };
        let tally = spill.finish()?;
        let scales = self.scales()?;
        let schema = parse_message_type(&message_type(&scales)).map_err(io::Error::other)?;
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(ROW_GROUP))
            .build();
        let mut r = self.reader()?;
        let mut w = SerializedFileWriter::new(&mut self.out, Arc::new(schema), Arc::new(props))
            .map_err(pq)?;
        let mut group = Group::new(&scales);
        let mut rec = csv::StringRecord::new();
        while r.read_record(&mut rec).map_err(io::Error::other)? {
            group.push(&rec).map_err(io::Error::other)?;
            if group.rows == ROW_GROUP {
                group.write(&mut w)?;
            }
        }
        if group.rows > 0 {
            group.write(&mut w)?;
        }
        w.close().map_err(pq)?;
        self.out.flush()?;
        Ok(tally)
    }

    fn reader(&self) -> io::Result<csv::Reader<File>> {
        let mut r = csv::Reader::from_reader(File::open(&self.spill_path)?);
        r.headers().map_err(io::Error::other)?;
        Ok(r)
    }

    /// Each column's scale: the largest scale of its values (0 for other
    /// columns and a column with no value).
    fn scales(&self) -> io::Result<Vec<u32>> {
        let kinds: Vec<Kind> = names().map(kind).collect();
        let mut scales = vec![0u32; kinds.len()];
        let mut r = self.reader()?;
        let mut rec = csv::StringRecord::new();
        while r.read_record(&mut rec).map_err(io::Error::other)? {
            for (i, cell) in rec.iter().enumerate() {
                if kinds.get(i) == Some(&Kind::Decimal) && !cell.is_empty() {
                    let d = decimal(cell, i, &rec).map_err(io::Error::other)?;
                    scales[i] = scales[i].max(d.scale());
                }
            }
        }
        Ok(scales)
    }
}

impl<W: Write + Send> Drop for FocusParquet<W> {
    fn drop(&mut self) {
        self.spill = None;
        let _ = std::fs::remove_file(&self.spill_path);
    }
}

/// A Parquet error as an I/O error; a failed write (a closed pipe) stays
/// the I/O error it was, so that a closed standard output ends the run quietly.
fn pq(e: ParquetError) -> io::Error {
    match e {
        ParquetError::External(inner) => match inner.downcast::<io::Error>() {
            Ok(io) => *io,
            Err(other) => io::Error::other(other),
        },
        e => io::Error::other(e),
    }
}

/// Where a row came from, for an error about one of its cells.
fn at(rec: &csv::StringRecord, col: usize) -> String {
    let n = COLUMNS.len();
    let file = rec.get(n + 2).unwrap_or("?");
    let line = rec.get(n + 3).unwrap_or("?");
    let name = names().nth(col).unwrap_or("?");
    format!("{file}:{line}: {name}")
}

fn decimal(cell: &str, col: usize, rec: &csv::StringRecord) -> Result<Decimal, String> {
    cell.parse::<Decimal>()
        .map_err(|e| format!("{}: `{cell}` is not a decimal: {e}", at(rec, col)))
}

/// One column's values of a row group and their definition levels.
enum Values {
    Text(Vec<ByteArray>),
    Time(Vec<i64>),
    Decimal(u32, Vec<FixedLenByteArray>),
}

/// The rows of one row group, column by column.
struct Group {
    cols: Vec<(Values, Vec<i16>)>,
    rows: usize,
}

impl Group {
    fn new(scales: &[u32]) -> Self {
        let cols = names()
            .enumerate()
            .map(|(i, n)| {
                let v = match kind(n) {
                    Kind::Text => Values::Text(Vec::new()),
                    Kind::Time => Values::Time(Vec::new()),
                    Kind::Decimal => Values::Decimal(scales[i], Vec::new()),
                };
                (v, Vec::new())
            })
            .collect();
        Group { cols, rows: 0 }
    }

    fn push(&mut self, rec: &csv::StringRecord) -> Result<(), String> {
        if rec.len() != self.cols.len() {
            return Err(format!(
                "a spilled row has {} cells, not {}",
                rec.len(),
                self.cols.len()
            ));
        }
        for (i, ((values, defs), cell)) in self.cols.iter_mut().zip(rec.iter()).enumerate() {
            if cell.is_empty() {
                defs.push(0);
                continue;
            }
            defs.push(1);
            match values {
                Values::Text(v) => v.push(ByteArray::from(cell.as_bytes().to_vec())),
                Values::Time(v) => {
                    let t = NaiveDateTime::parse_from_str(cell, ISO)
                        .map_err(|e| format!("{}: `{cell}` is not {ISO}: {e}", at(rec, i)))?;
                    v.push(t.and_utc().timestamp_micros());
                }
                Values::Decimal(scale, v) => {
                    let d = decimal(cell, i, rec)?;
                    let u = unscaled(d, *scale).map_err(|e| format!("{}: {e}", at(rec, i)))?;
                    v.push(FixedLenByteArray::from(u.to_be_bytes().to_vec()));
                }
            }
        }
        self.rows += 1;
        Ok(())
    }

    /// Writes the row group and empties it.
    fn write<W: Write + Send>(&mut self, w: &mut SerializedFileWriter<W>) -> io::Result<()> {
        let mut rg = w.next_row_group().map_err(pq)?;
        for (values, defs) in &mut self.cols {
            let Some(mut col) = rg.next_column().map_err(pq)? else {
                return Err(io::Error::other("the schema has fewer columns than a row"));
            };
            let written = match values {
                Values::Text(v) => col
                    .typed::<ByteArrayType>()
                    .write_batch(v, Some(defs), None),
                Values::Time(v) => col.typed::<Int64Type>().write_batch(v, Some(defs), None),
                Values::Decimal(_, v) => {
                    col.typed::<FixedLenByteArrayType>()
                        .write_batch(v, Some(defs), None)
                }
            };
            written.map_err(pq)?;
            col.close().map_err(pq)?;
            match values {
                Values::Text(v) => v.clear(),
                Values::Time(v) => v.clear(),
                Values::Decimal(_, v) => v.clear(),
            }
            defs.clear();
        }
        rg.close().map_err(pq)?;
        self.rows = 0;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_rescaled_exactly_or_refused() {
        // 12.5 at scale 3 is 12500 thousandths (hand: 12.5 x 1000).
        assert_eq!(unscaled(Decimal::new(125, 1), 3), Ok(12500));
        assert_eq!(unscaled(Decimal::new(-7, 0), 2), Ok(-700));
        // A value with more places than the column's scale is refused, not rounded.
        assert!(unscaled(Decimal::new(12345, 4), 2).is_err());
        // 28 digits moved up 28 places is 56 digits: more than DECIMAL(38) holds.
        assert!(unscaled(Decimal::MAX, 28).is_err());
        // (10^28 - 1) x 10^9 has 37 digits: it fits.
        let nines: i128 = 10i128.pow(28) - 1;
        assert_eq!(
            unscaled(Decimal::from_i128_with_scale(nines, 0), 9),
            Ok(nines * 10i128.pow(9))
        );
    }

    #[test]
    fn the_schema_parses_with_the_types_of_each_column() {
        let n = COLUMNS.len() + EXTRA_COLUMNS.len();
        let s = parse_message_type(&message_type(&vec![4; n])).unwrap();
        let fields = s.get_fields();
        assert_eq!(fields.len(), n);
        let billed = fields.iter().find(|f| f.name() == "BilledCost").unwrap();
        assert_eq!((billed.get_precision(), billed.get_scale()), (38, 4));
        let start = fields
            .iter()
            .find(|f| f.name() == "ChargePeriodStart")
            .unwrap();
        let info = start.get_basic_info();
        assert_eq!(
            info.converted_type(),
            parquet::basic::ConvertedType::TIMESTAMP_MICROS
        );
        let utc = format!("{:?}", info.logical_type_ref());
        assert!(utc.contains("is_adjusted_to_u_t_c: true"), "{utc}");
    }
}
