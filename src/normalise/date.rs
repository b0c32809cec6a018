//! Dates, times and ranges as bills write them.
//!
//! Times are kept as the wall-clock time written in the file: an offset
//! (`Z`, `+08:00`, `GMT+08:00`) is read and dropped, because start and end of
//! one row always share it and only their difference matters to the checks.

use chrono::{NaiveDate, NaiveDateTime, NaiveTime};

const DATETIME_FORMATS: &[&str] = &[
    "%Y-%m-%d %H:%M:%S%.f",
    "%Y-%m-%dT%H:%M:%S%.f",
    "%Y-%m-%d %H:%M",
    "%Y-%m-%dT%H:%M",
    "%Y/%m/%d %H:%M:%S%.f",
    "%Y/%m/%d %H:%M",
    "%m/%d/%Y %H:%M:%S",
    "%m/%d/%Y %H:%M",
    "%Y年%m月%d日 %H:%M:%S",
    "%Y年%m月%d日 %H:%M",
    "%Y%m%d %H:%M:%S",
];

const DATE_FORMATS: &[&str] = &[
    "%Y-%m-%d",
    "%Y/%m/%d",
    "%m/%d/%Y",
    "%Y.%m.%d",
    "%Y年%m月%d日",
    "%Y%m%d",
    "%d-%b-%Y",
    "%b %d, %Y",
    "%B %d, %Y",
];

/// Parses one point in time. A date alone is midnight; a month alone
/// (`2025-10`, `2025年10月`, `Oct 2025`) is its first day.
pub fn parse_datetime(raw: &str) -> Option<NaiveDateTime> {
    let s = raw.trim();
    if s.is_empty() || s.len() > 64 {
        return None;
    }
    // The usual case first, before any offset handling: `2025-10-01 00:00:00`.
    if let Some(dt) = iso_fast(s) {
        return Some(dt);
    }
    let s = strip_offset(s);
    if let Some(dt) = iso_fast(s) {
        return Some(dt);
    }
    for f in DATETIME_FORMATS {
        if let Ok(dt) = NaiveDateTime::parse_from_str(s, f) {
            return Some(dt);
        }
    }
    parse_date(s).map(|d| d.and_time(NaiveTime::MIN))
}

/// `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS[.fff]]` (or with `T`): what cloud
/// exports write on every row, read without trying every format. `None`
/// for anything else, which then goes through the formats above.
fn iso_fast(s: &str) -> Option<NaiveDateTime> {
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let part = b.get(r)?;
        if part.is_empty() || !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        part.iter().try_fold(0u32, |n, d| {
            n.checked_mul(10)?.checked_add(u32::from(d - b'0'))
        })
    };
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let date = NaiveDate::from_ymd_opt(i32::try_from(num(0..4)?).ok()?, num(5..7)?, num(8..10)?)?;
    if b.len() == 10 {
        return Some(date.and_time(NaiveTime::MIN));
    }
    if b.len() < 16 || !(b[10] == b' ' || b[10] == b'T') || b[13] != b':' {
        return None;
    }
    let (h, m) = (num(11..13)?, num(14..16)?);
    let (sec, nano) = match b.len() {
        16 => (0, 0),
        n if n >= 19 && b[16] == b':' => {
            let sec = num(17..19)?;
            let nano = match n {
                19 => 0,
                _ if b[19] == b'.' && n > 20 && n <= 29 => {
                    let digits = num(20..n)?;
                    digits.checked_mul(10u32.checked_pow(9 - (n - 20) as u32)?)?
                }
                _ => return None,
            };
            (sec, nano)
        }
        _ => return None,
    };
    date.and_hms_nano_opt(h, m, sec, nano)
}

/// Parses a calendar date (or month, as its first day).
pub fn parse_date(raw: &str) -> Option<NaiveDate> {
    let s = raw.trim();
    if s.is_empty() || s.len() > 64 {
        return None;
    }
    for f in DATE_FORMATS {
        if let Ok(d) = NaiveDate::parse_from_str(s, f) {
            return Some(d);
        }
    }
    parse_month(s)
}

/// `2025-10`, `2025/10`, `202510`, `2025年10月`, `Oct 2025`, `October 2025`.
pub fn parse_month(raw: &str) -> Option<NaiveDate> {
    let s = raw.trim();
    let with_day = |y: &str, m: &str| -> Option<NaiveDate> {
        let y: i32 = y.trim().parse().ok()?;
        let m: u32 = m.trim().parse().ok()?;
        if !(1900..=2200).contains(&y) {
            return None;
        }
        NaiveDate::from_ymd_opt(y, m, 1)
    };
    if let Some(rest) = s.strip_suffix('月') {
        let (y, m) = rest.split_once('年')?;
        return with_day(y, m);
    }
    for sep in ['-', '/', '.'] {
        if let Some((y, m)) = s.split_once(sep) {
            if y.len() == 4 && (1..=2).contains(&m.len()) {
                return with_day(y, m);
            }
        }
    }
    if s.len() == 6 && s.bytes().all(|b| b.is_ascii_digit()) {
        return with_day(&s[..4], &s[4..]);
    }
    for f in ["%d %b %Y", "%d %B %Y"] {
        if let Ok(d) = NaiveDate::parse_from_str(&format!("1 {s}"), f) {
            return Some(d);
        }
    }
    None
}

/// Drops a trailing UTC offset: `Z`, `+08:00`, `+0800`, `GMT+08:00`, `UTC`.
fn strip_offset(s: &str) -> &str {
    let s = s.strip_suffix('Z').unwrap_or(s);
    for tag in [" GMT", " UTC", "GMT", "UTC"] {
        if let Some(i) = s.rfind(tag) {
            let tail = &s[i + tag.len()..];
            if tail.is_empty() || is_offset(tail) {
                return s[..i].trim_end();
            }
        }
    }
    // `...T10:00:00+08:00` or `... 10:00:00 +0800`: an offset after a time.
    if s.len() > 6 {
        for len in [6, 5, 3] {
            if s.len() > len && s.is_char_boundary(s.len() - len) {
                let (head, tail) = s.split_at(s.len() - len);
                if is_offset(tail) && head.contains(':') {
                    return head.trim_end();
                }
            }
        }
    }
    s
}

fn is_offset(t: &str) -> bool {
    let b = t.as_bytes();
    if b.is_empty() || !(b[0] == b'+' || b[0] == b'-') {
        return false;
    }
    let rest = &t[1..];
    match rest.len() {
        2 => rest.bytes().all(|c| c.is_ascii_digit()),
        4 => rest.bytes().all(|c| c.is_ascii_digit()),
        5 => {
            let r = rest.as_bytes();
            r[2] == b':'
                && r[..2].iter().all(u8::is_ascii_digit)
                && r[3..].iter().all(u8::is_ascii_digit)
        }
        _ => false,
    }
}

/// A range written in one cell: `2020-08-23 22:00:00 GMT+08:00-2020-08-23 23:00:00 GMT+08:00`,
/// `2023-11-01T00:00:00Z/2023-11-02T00:00:00Z`, `2025-10-01 - 2025-10-31`,
/// `2025-10-01 ~ 2025-10-31`, `2025-10-01至2025-10-31`.
///
/// Dates contain `-` themselves, so the range is never split blindly: every
/// separator position is tried and kept only when both sides parse.
pub fn parse_range(raw: &str) -> Option<(NaiveDateTime, NaiveDateTime)> {
    let s = raw.trim();
    if s.len() > 128 {
        return None;
    }
    for (i, c) in s.char_indices() {
        if matches!(c, '-' | '/' | '~' | '至' | '到' | '–' | '—') {
            let (a, b) = (&s[..i], &s[i + c.len_utf8()..]);
            if let (Some(x), Some(y)) = (parse_datetime(a), parse_datetime(b)) {
                if y >= x {
                    return Some((x, y));
                }
            }
        }
    }
    for sep in [" to ", " TO ", " To "] {
        if let Some((a, b)) = s.split_once(sep) {
            if let (Some(x), Some(y)) = (parse_datetime(a), parse_datetime(b)) {
                return Some((x, y));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dt(s: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap()
    }

    #[test]
    fn formats_seen_in_real_exports() {
        assert_eq!(
            parse_datetime("2025-10-01 08:30:00"),
            Some(dt("2025-10-01 08:30:00"))
        );
        assert_eq!(
            parse_datetime("2020/07/02 08:36"),
            Some(dt("2020-07-02 08:36:00"))
        );
        assert_eq!(
            parse_datetime("2020-08-23 22:00:00 GMT+08:00"),
            Some(dt("2020-08-23 22:00:00"))
        );
        assert_eq!(
            parse_datetime("2023-11-01T00:00:00.000Z"),
            Some(dt("2023-11-01 00:00:00"))
        );
        assert_eq!(
            parse_datetime("2023-11-01T00:00:00Z"),
            Some(dt("2023-11-01 00:00:00"))
        );
        assert_eq!(
            parse_datetime("2024-09-18T22:00:00+08:00"),
            Some(dt("2024-09-18 22:00:00"))
        );
        assert_eq!(parse_datetime("9/2/2023"), Some(dt("2023-09-02 00:00:00")));
        assert_eq!(parse_datetime("2025-10"), Some(dt("2025-10-01 00:00:00")));
        assert_eq!(
            parse_datetime("2025年10月"),
            Some(dt("2025-10-01 00:00:00"))
        );
        assert_eq!(parse_datetime("Oct 2025"), Some(dt("2025-10-01 00:00:00")));
        assert_eq!(
            parse_datetime("2025年10月3日"),
            Some(dt("2025-10-03 00:00:00"))
        );
        assert_eq!(parse_datetime("not a date"), None);
        assert_eq!(parse_datetime("2025-13-01"), None);
    }

    #[test]
    fn the_fast_path_agrees_with_the_formats() {
        for s in [
            "2024-09-18 22:00:00",
            "2024-09-18T22:00:00",
            "2024-09-18 22:00",
            "2024-09-18",
            "2023-11-01T00:00:00.000",
            "2022-08-02 01:11:12.066000",
            "2024-02-29 23:59:59",
        ] {
            let slow = DATETIME_FORMATS
                .iter()
                .find_map(|f| NaiveDateTime::parse_from_str(s, f).ok())
                .or_else(|| parse_date(s).map(|d| d.and_time(NaiveTime::MIN)));
            assert_eq!(iso_fast(s), slow, "{s}");
        }
        for s in [
            "2023-02-29",
            "2024-13-01 00:00:00",
            "2024-01-01 25:00:00",
            "2024-01-01 10:00:00 GMT+08:00-2024-01-01 11:00:00",
            "2024-1-01",
            "2024-01-01x",
            "2024-01-01 10:00:00.1234567890",
        ] {
            assert_eq!(iso_fast(s), None, "{s}");
        }
    }

    #[test]
    fn ranges_are_read_whole() {
        assert_eq!(
            parse_range("2020-08-23 22:00:00 GMT+08:00-2020-08-23 23:00:00 GMT+08:00"),
            Some((dt("2020-08-23 22:00:00"), dt("2020-08-23 23:00:00")))
        );
        assert_eq!(
            parse_range("2023-11-01T00:00:00Z/2023-11-02T00:00:00Z"),
            Some((dt("2023-11-01 00:00:00"), dt("2023-11-02 00:00:00")))
        );
        assert_eq!(
            parse_range("2025-10-01 - 2025-10-31"),
            Some((dt("2025-10-01 00:00:00"), dt("2025-10-31 00:00:00")))
        );
        assert_eq!(
            parse_range("2025-10-01至2025-10-31"),
            Some((dt("2025-10-01 00:00:00"), dt("2025-10-31 00:00:00")))
        );
        assert_eq!(parse_range("2025-10-01"), None);
    }
}
