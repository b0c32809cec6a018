//! The text of one Parquet cell, by the column's physical and logical type.
//! These are the rules of docs/formats.md, "Parquet": exact decimals and
//! integers, the shortest round-trip decimal of a double, ISO dates and
//! timestamps, UTF-8 strings. A value that has no such text (a NaN, a date
//! out of range, bytes that are not UTF-8) is an error message, never a
//! guess.

use std::fmt::Write as _;

use ::parquet::basic::{ConvertedType, LogicalType, TimeUnit, Type as Physical};
use ::parquet::schema::types::ColumnDescriptor;
use chrono::{DateTime, NaiveDate, NaiveTime, TimeDelta};

/// How a column's values become text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `true` / `false`.
    Bool,
    /// INT32, INT64 as signed integers.
    Signed,
    /// UINT_8 .. UINT_64: the bits are an unsigned number.
    Unsigned,
    /// DECIMAL(p, s), any physical type: the unscaled integer with `s` decimals.
    Decimal { scale: u32 },
    /// DATE: days since 1970-01-01.
    Date,
    /// TIMESTAMP in units since the epoch; `utc` when adjusted to UTC.
    Timestamp { unit: Unit, utc: bool },
    /// TIME in units since midnight.
    Time { unit: Unit },
    /// The legacy INT96 timestamp (nanoseconds, Julian day).
    Int96,
    /// FLOAT and DOUBLE: the shortest decimal that reads back as the same value.
    Float,
    /// BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY: UTF-8 text.
    Text,
}

/// A unit of time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Millis,
    Micros,
    Nanos,
}

impl Unit {
    fn per_second(self) -> i64 {
        match self {
            Unit::Millis => 1_000,
            Unit::Micros => 1_000_000,
            Unit::Nanos => 1_000_000_000,
        }
    }

    fn digits(self) -> usize {
        match self {
            Unit::Millis => 3,
            Unit::Micros => 6,
            Unit::Nanos => 9,
        }
    }

    fn of(unit: &TimeUnit) -> Unit {
        match unit {
            TimeUnit::MILLIS => Unit::Millis,
            TimeUnit::MICROS => Unit::Micros,
            TimeUnit::NANOS => Unit::Nanos,
        }
    }
}

impl Kind {
    /// The kind of a flat column, from its logical type (or, in files
    /// written before logical types, its converted type).
    pub fn of(descr: &ColumnDescriptor) -> Kind {
        let physical = descr.physical_type();
        if physical == Physical::BOOLEAN {
            return Kind::Bool;
        }
        if matches!(physical, Physical::FLOAT | Physical::DOUBLE) {
            return Kind::Float;
        }
        if physical == Physical::INT96 {
            return Kind::Int96;
        }
        let scale = || Kind::Decimal {
            scale: u32::try_from(descr.type_scale()).unwrap_or(0),
        };
        match descr.logical_type_ref() {
            Some(LogicalType::Decimal { .. }) => return scale(),
            Some(LogicalType::Date) => return Kind::Date,
            Some(LogicalType::Timestamp(t)) => {
                return Kind::Timestamp {
                    unit: Unit::of(&t.unit),
                    utc: t.is_adjusted_to_u_t_c,
                };
            }
            Some(LogicalType::Time(t)) => {
                return Kind::Time {
                    unit: Unit::of(&t.unit),
                };
            }
            Some(LogicalType::Integer(i)) if !i.is_signed => return Kind::Unsigned,
            _ => {}
        }
        match descr.converted_type() {
            ConvertedType::DECIMAL => scale(),
            ConvertedType::DATE => Kind::Date,
            ConvertedType::TIMESTAMP_MILLIS => Kind::Timestamp {
                unit: Unit::Millis,
                utc: true,
            },
            ConvertedType::TIMESTAMP_MICROS => Kind::Timestamp {
                unit: Unit::Micros,
                utc: true,
            },
            ConvertedType::TIME_MILLIS => Kind::Time { unit: Unit::Millis },
            ConvertedType::TIME_MICROS => Kind::Time { unit: Unit::Micros },
            ConvertedType::UINT_8
            | ConvertedType::UINT_16
            | ConvertedType::UINT_32
            | ConvertedType::UINT_64 => Kind::Unsigned,
            _ if matches!(physical, Physical::INT32 | Physical::INT64) => Kind::Signed,
            _ => Kind::Text,
        }
    }
}

/// Appends the text of an integer cell (INT32 or INT64, widened).
pub fn integer(kind: Kind, value: i64, bits: u32, out: &mut String) -> Result<(), String> {
    match kind {
        Kind::Decimal { scale } => decimal(i128::from(value), scale, out),
        Kind::Unsigned => {
            // The stored bits are an unsigned number of `bits` bits.
            let unsigned = if bits == 32 {
                u64::from(value as u32)
            } else {
                value as u64
            };
            let _ = write!(out, "{unsigned}");
        }
        Kind::Date => date(value, out)?,
        Kind::Timestamp { unit, utc } => timestamp(value, unit, utc, out)?,
        Kind::Time { unit } => time(value, unit, out)?,
        _ => {
            let _ = write!(out, "{value}");
        }
    }
    Ok(())
}

/// Appends `unscaled / 10^scale` with exactly `scale` decimals.
pub fn decimal(unscaled: i128, scale: u32, out: &mut String) {
    if unscaled < 0 {
        out.push('-');
    }
    // The digits, written from the end (u64 arithmetic when it fits: a
    // 128-bit division is several times slower).
    let mut buf = [0u8; 40];
    let mut at = buf.len();
    let abs = unscaled.unsigned_abs();
    let mut put = |d: u8| {
        at -= 1;
        buf[at] = b'0' + d;
    };
    match u64::try_from(abs) {
        Ok(mut v) => loop {
            put((v % 10) as u8);
            v /= 10;
            if v == 0 {
                break;
            }
        },
        Err(_) => {
            let mut v = abs;
            while v > 0 {
                put((v % 10) as u8);
                v /= 10;
            }
        }
    }
    let digits = std::str::from_utf8(&buf[at..]).unwrap_or("0");
    let scale = scale as usize;
    if scale == 0 {
        out.push_str(digits);
        return;
    }
    if digits.len() <= scale {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', scale - digits.len()));
        out.push_str(digits);
    } else {
        let (int, frac) = digits.split_at(digits.len() - scale);
        out.push_str(int);
        out.push('.');
        out.push_str(frac);
    }
}

/// The unscaled value of a DECIMAL stored as big-endian two's complement bytes.
pub fn decimal_bytes(bytes: &[u8]) -> Result<i128, String> {
    let Some(&first) = bytes.first() else {
        return Err("an empty DECIMAL value (no bytes)".into());
    };
    let sign: u8 = if first & 0x80 != 0 { 0xFF } else { 0 };
    let (extra, rest) = bytes.split_at(bytes.len().saturating_sub(16));
    // Bytes beyond 128 bits must only repeat the sign.
    if extra.iter().any(|b| *b != sign)
        || (!extra.is_empty() && (rest[0] & 0x80 != 0) != (sign != 0))
    {
        return Err(format!(
            "a DECIMAL value of {} bytes does not fit in 128 bits",
            bytes.len()
        ));
    }
    let mut wide = [sign; 16];
    wide[16 - rest.len()..].copy_from_slice(rest);
    Ok(i128::from_be_bytes(wide))
}

/// Appends a DATE (days since 1970-01-01) as `YYYY-MM-DD`.
fn date(days: i64, out: &mut String) -> Result<(), String> {
    let d = TimeDelta::try_days(days)
        .and_then(|delta| NaiveDate::from_ymd_opt(1970, 1, 1)?.checked_add_signed(delta))
        .ok_or_else(|| format!("the DATE value {days} (days since 1970-01-01) is out of range"))?;
    let _ = write!(out, "{}", d.format("%Y-%m-%d"));
    Ok(())
}

/// Appends a TIMESTAMP as `YYYY-MM-DDTHH:MM:SS[.fff]` and `Z` when it is UTC.
pub fn timestamp(value: i64, unit: Unit, utc: bool, out: &mut String) -> Result<(), String> {
    let per = unit.per_second();
    let (secs, sub) = (value.div_euclid(per), value.rem_euclid(per));
    let nanos = u32::try_from(sub * (1_000_000_000 / per)).unwrap_or(0);
    let t = DateTime::from_timestamp(secs, nanos)
        .ok_or_else(|| format!("the TIMESTAMP value {value} is out of range"))?
        .naive_utc();
    write_datetime(&t, out);
    if sub != 0 {
        let _ = write!(out, ".{sub:0width$}", width = unit.digits());
    }
    if utc {
        out.push('Z');
    }
    Ok(())
}

/// Appends `YYYY-MM-DDTHH:MM:SS`, digit by digit (chrono's `format` parses
/// its pattern on every call: a tenth of the time of a Parquet audit).
fn write_datetime(t: &chrono::NaiveDateTime, out: &mut String) {
    use chrono::{Datelike, Timelike};
    let year = t.year();
    if !(0..=9999).contains(&year) {
        let _ = write!(out, "{}", t.format("%Y-%m-%dT%H:%M:%S"));
        return;
    }
    let two = |out: &mut String, v: u32| {
        out.push(char::from(b'0' + (v / 10 % 10) as u8));
        out.push(char::from(b'0' + (v % 10) as u8));
    };
    let y = year as u32;
    two(out, y / 100);
    two(out, y % 100);
    out.push('-');
    two(out, t.month());
    out.push('-');
    two(out, t.day());
    out.push('T');
    two(out, t.hour());
    out.push(':');
    two(out, t.minute());
    out.push(':');
    two(out, t.second());
}

/// Appends a TIME (units since midnight) as `HH:MM:SS[.fff]`.
fn time(value: i64, unit: Unit, out: &mut String) -> Result<(), String> {
    let per = unit.per_second();
    let (secs, sub) = (value.div_euclid(per), value.rem_euclid(per));
    let nanos = u32::try_from(sub * (1_000_000_000 / per)).unwrap_or(0);
    let t = u32::try_from(secs)
        .ok()
        .and_then(|s| NaiveTime::from_num_seconds_from_midnight_opt(s, nanos))
        .ok_or_else(|| format!("the TIME value {value} is not a time of day"))?;
    let _ = write!(out, "{}", t.format("%H:%M:%S"));
    if sub != 0 {
        let _ = write!(out, ".{sub:0width$}", width = unit.digits());
    }
    Ok(())
}

/// Appends an INT96 timestamp (nanoseconds of the day, then the Julian day).
pub fn int96(words: &[u32], out: &mut String) -> Result<(), String> {
    const JULIAN_DAY_OF_EPOCH: i64 = 2_440_588;
    let [lo, hi, day] = [0, 1, 2].map(|i| words.get(i).copied().unwrap_or(0));
    let nanos_of_day = (u64::from(hi) << 32) | u64::from(lo);
    let nanos = i64::try_from(nanos_of_day)
        .ok()
        .and_then(|n| {
            (i64::from(day) - JULIAN_DAY_OF_EPOCH)
                .checked_mul(86_400_000_000_000)?
                .checked_add(n)
        })
        .ok_or_else(|| format!("the INT96 timestamp (day {day}) is out of range"))?;
    timestamp(nanos, Unit::Nanos, true, out)
}

/// Appends a FLOAT or DOUBLE as the shortest decimal that reads back as the
/// same value (Rust's `Display`: never an exponent). NaN and infinities
/// have no decimal: an error.
pub fn float(value: f64, single: Option<f32>, out: &mut String) -> Result<(), String> {
    if !value.is_finite() {
        return Err(format!(
            "the floating-point value {value} is not a number billaudit can add"
        ));
    }
    match single {
        // A FLOAT is written as the shortest text of the f32, as DuckDB prints it.
        Some(f) => {
            let _ = write!(out, "{f}");
        }
        None => {
            let _ = write!(out, "{value}");
        }
    }
    Ok(())
}

/// Appends bytes that must be UTF-8 text, or a DECIMAL stored as bytes.
pub fn bytes(kind: Kind, data: &[u8], out: &mut String) -> Result<(), String> {
    if let Kind::Decimal { scale } = kind {
        decimal(decimal_bytes(data)?, scale, out);
        return Ok(());
    }
    match std::str::from_utf8(data) {
        Ok(s) => {
            out.push_str(s);
            Ok(())
        }
        Err(e) => Err(format!(
            "a value that is not UTF-8 text (invalid byte at offset {})",
            e.valid_up_to()
        )),
    }
}
