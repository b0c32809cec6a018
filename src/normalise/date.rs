//! Dates, times and ranges as bills write them.
//!
//! Times are kept as the wall-clock time written in the file: an offset
//! (`Z`, `+08:00`, `GMT+08:00`) is read and dropped, because start and end of
//! one row always share it and only their difference matters to the checks.

use chrono::{Datelike, NaiveDate, NaiveDateTime, NaiveTime};

pub use crate::model::DateOrder;

impl DateOrder {
    /// `"dmy"` or `"mdy"`, the profile key's values.
    pub fn parse(s: &str) -> Option<DateOrder> {
        match s.trim().to_ascii_lowercase().as_str() {
            "mdy" => Some(DateOrder::MonthFirst),
            "dmy" => Some(DateOrder::DayFirst),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            DateOrder::MonthFirst => "mdy",
            DateOrder::DayFirst => "dmy",
        }
    }

    /// How a note names it: `month-first (mdy)`.
    pub fn describe(self) -> &'static str {
        match self {
            DateOrder::MonthFirst => "month-first (mdy: 03/04/2024 is 4 March)",
            DateOrder::DayFirst => "day-first (dmy: 03/04/2024 is 3 April)",
        }
    }
}

/// The order a date cell proves, if any (cheap for cells without `/`).
pub fn proves(cell: &str) -> Option<DateOrder> {
    if !cell.as_bytes().contains(&b'/') {
        return None;
    }
    match slash_evidence(cell)? {
        SlashEvidence::Proves(o) => Some(o),
        SlashEvidence::Ambiguous => None,
    }
}

/// What one cell says about the order of slashed dates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlashEvidence {
    /// `a/b/yyyy` with both `a` and `b` at most 12: either order reads it.
    Ambiguous,
    /// Only one order reads it: `13/05/2024` is day-first, `05/13/2024`
    /// month-first.
    Proves(DateOrder),
}

/// The evidence in a date cell: `None` when it holds no `a/b/yyyy` date
/// (ISO dates, `2024/05/13`, text). A range (`01/02/2024 - 01/03/2024`)
/// gives the evidence of its first date that proves an order, else
/// [`SlashEvidence::Ambiguous`].
pub fn slash_evidence(cell: &str) -> Option<SlashEvidence> {
    let mut found = None;
    let b = cell.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() || (i > 0 && (b[i - 1].is_ascii_digit() || b[i - 1] == b'/')) {
            i += 1;
            continue;
        }
        let field = |from: usize| -> Option<(u32, usize)> {
            let end = (from..b.len())
                .find(|&k| !b[k].is_ascii_digit())
                .unwrap_or(b.len());
            let n = cell.get(from..end)?.parse().ok()?;
            Some((n, end))
        };
        let parsed = (|| {
            let (x, e1) = field(i).filter(|(_, e)| e - i <= 2)?;
            (b.get(e1) == Some(&b'/')).then_some(())?;
            let (y, e2) = field(e1 + 1).filter(|(_, e)| e - (e1 + 1) <= 2)?;
            (b.get(e2) == Some(&b'/')).then_some(())?;
            let (_, e3) = field(e2 + 1).filter(|(_, e)| e - (e2 + 1) == 4)?;
            Some((x, y, e3))
        })();
        match parsed {
            Some((x, y, end)) => {
                let e = match (x, y) {
                    (1..=31, 1..=12) if x > 12 => SlashEvidence::Proves(DateOrder::DayFirst),
                    (1..=12, 1..=31) if y > 12 => SlashEvidence::Proves(DateOrder::MonthFirst),
                    (1..=12, 1..=12) => SlashEvidence::Ambiguous,
                    _ => {
                        i = end;
                        continue;
                    }
                };
                if matches!(e, SlashEvidence::Proves(_)) {
                    return Some(e);
                }
                found = Some(e);
                i = end;
            }
            None => i += 1,
        }
    }
    found
}

/// How a file's [`DateOrder`] was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OrderBasis {
    /// No slashed date in the rows scanned: nothing to decide.
    #[default]
    NoSlashedDates,
    /// The profile states it (`date-order`).
    Stated,
    /// Dates that only one order reads (`13/05/2024`), in the rows scanned.
    Evidence,
    /// Every slashed date scanned reads either way: month-first assumed.
    Assumed,
    /// The rows scanned prove both orders: the majority decided.
    Conflicting,
}

/// A file's order of slashed dates, decided before its rows are read, and
/// what the rows said about it while they were read (on any thread).
#[derive(Debug, Default)]
pub struct DateScan {
    pub order: DateOrder,
    pub basis: OrderBasis,
    /// Slashed dates in the scanned rows: (reads either way, proves
    /// day-first, proves month-first).
    pub scanned: (u64, u64, u64),
}

impl DateScan {
    /// Decides the order from the date cells of the first rows (`cells`),
    /// unless the profile states it.
    pub fn decide<'c>(stated: Option<DateOrder>, cells: impl Iterator<Item = &'c str>) -> Self {
        let (mut either, mut dmy, mut mdy) = (0, 0, 0);
        for c in cells {
            match slash_evidence(c) {
                Some(SlashEvidence::Ambiguous) => either += 1,
                Some(SlashEvidence::Proves(DateOrder::DayFirst)) => dmy += 1,
                Some(SlashEvidence::Proves(DateOrder::MonthFirst)) => mdy += 1,
                None => {}
            }
        }
        let (order, basis) = match stated {
            Some(o) => (o, OrderBasis::Stated),
            None if dmy > 0 && mdy > 0 => {
                let o = if dmy > mdy {
                    DateOrder::DayFirst
                } else {
                    DateOrder::MonthFirst
                };
                (o, OrderBasis::Conflicting)
            }
            None if dmy > 0 => (DateOrder::DayFirst, OrderBasis::Evidence),
            None if mdy > 0 => (DateOrder::MonthFirst, OrderBasis::Evidence),
            None if either > 0 => (DateOrder::MonthFirst, OrderBasis::Assumed),
            None => (DateOrder::MonthFirst, OrderBasis::NoSlashedDates),
        };
        DateScan {
            order,
            basis,
            scanned: (either, dmy, mdy),
        }
    }

    /// Reads a date cell in the file's order.
    pub fn datetime(&self, cell: &str) -> Option<NaiveDateTime> {
        parse_datetime_in(cell, self.order)
    }

    /// [`parse_range_in`] in the file's order.
    pub fn range(&self, cell: &str) -> Option<(NaiveDateTime, NaiveDateTime)> {
        parse_range_in(cell, self.order)
    }

    /// What the report says about the order, after every row was read:
    /// which order was assumed when nothing decided it, and any row that
    /// proves the other one. `None` when there is nothing to say.
    /// `first_proof` gives the first line (in file order) whose dates prove
    /// an order, if any.
    pub fn note(&self, first_proof: impl Fn(DateOrder) -> Option<u64>) -> Option<String> {
        let other = match self.order {
            DateOrder::MonthFirst => DateOrder::DayFirst,
            DateOrder::DayFirst => DateOrder::MonthFirst,
        };
        let (either, dmy, mdy) = self.scanned;
        let how = match self.basis {
            OrderBasis::NoSlashedDates | OrderBasis::Evidence => None,
            OrderBasis::Stated => None,
            OrderBasis::Assumed => Some(format!(
                "every slashed date in the first rows ({either}) reads either way; {} was assumed",
                self.order.describe()
            )),
            OrderBasis::Conflicting => Some(format!(
                "the first rows hold slashed dates of both orders ({dmy} only day-first reads, {mdy} only month-first); {} was taken for the {either} that read either way",
                self.order.describe()
            )),
        };
        match (first_proof(other), how) {
            // A later row proves the other order: the dates read before it
            // may be wrong.
            (Some(line), _) if self.basis != OrderBasis::Conflicting => Some(format!(
                "slashed dates were read {}{}, but line {line} has a date only {} reads; dates that read either way may be wrong: state `date-order` in a [[profile]] of billaudit.toml",
                self.order.describe(),
                match self.basis {
                    OrderBasis::Stated => " (the profile's date-order)",
                    OrderBasis::Evidence => " (from the first rows)",
                    _ => " (assumed)",
                },
                other.as_str()
            )),
            // An assumption the rest of the file confirmed needs no note.
            (None, Some(_))
                if self.basis == OrderBasis::Assumed && first_proof(self.order).is_some() =>
            {
                None
            }
            (_, Some(h)) => Some(format!(
                "dates: {h}; state `date-order` in a [[profile]] of billaudit.toml to decide"
            )),
            (_, None) => None,
        }
    }
}

/// [`parse_datetime`] with slashed dates read in `order`. A slashed date
/// only the other order can read (`13/05/2024` in a month-first file) is
/// read that way: a date that proves the order is never lost.
pub fn parse_datetime_in(raw: &str, order: DateOrder) -> Option<NaiveDateTime> {
    if order == DateOrder::MonthFirst {
        return parse_datetime(raw);
    }
    let s = strip_offset(raw.trim());
    for f in DMY_DATETIME_FORMATS {
        if let Ok(dt) = NaiveDateTime::parse_from_str(s, f) {
            return Some(dt);
        }
    }
    for f in DMY_DATE_FORMATS {
        if let Ok(d) = NaiveDate::parse_from_str(s, f) {
            return Some(d.and_time(NaiveTime::MIN));
        }
    }
    parse_datetime(raw)
}

/// [`parse_range`] with slashed dates read in `order`.
pub fn parse_range_in(raw: &str, order: DateOrder) -> Option<(NaiveDateTime, NaiveDateTime)> {
    range_with(raw, |t| parse_datetime_in(t, order))
}

/// Day-first forms of the slashed formats below, tried first in a
/// day-first file.
const DMY_DATETIME_FORMATS: &[&str] = &["%d/%m/%Y %H:%M:%S", "%d/%m/%Y %H:%M"];
const DMY_DATE_FORMATS: &[&str] = &["%d/%m/%Y"];

const DATETIME_FORMATS: &[&str] = &[
    "%Y-%m-%d %H:%M:%S%.f",
    "%Y-%m-%dT%H:%M:%S%.f",
    "%Y-%m-%d %H:%M",
    "%Y-%m-%dT%H:%M",
    "%Y/%m/%d %H:%M:%S%.f",
    "%Y/%m/%d %H:%M",
    "%m/%d/%Y %H:%M:%S",
    "%m/%d/%Y %H:%M",
    // A slashed date only day-first can read (`13/05/2024 10:00`).
    "%d/%m/%Y %H:%M:%S",
    "%d/%m/%Y %H:%M",
    "%Y年%m月%d日 %H:%M:%S",
    "%Y年%m月%d日 %H:%M",
    "%Y%m%d %H:%M:%S",
];

const DATE_FORMATS: &[&str] = &[
    "%Y-%m-%d",
    "%Y/%m/%d",
    "%m/%d/%Y",
    "%d/%m/%Y",
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

/// The years a month alone (`2025-10`, `Oct 2025`) may name: `Oct 25` is
/// not October of year 25.
const MONTH_YEARS: std::ops::RangeInclusive<i32> = 1900..=2200;

/// `2025-10`, `2025/10`, `202510`, `2025年10月`, `Oct 2025`, `October 2025`.
pub fn parse_month(raw: &str) -> Option<NaiveDate> {
    let s = raw.trim();
    let with_day = |y: &str, m: &str| -> Option<NaiveDate> {
        let y: i32 = y.trim().parse().ok()?;
        let m: u32 = m.trim().parse().ok()?;
        if !MONTH_YEARS.contains(&y) {
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
            return MONTH_YEARS.contains(&d.year()).then_some(d);
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
    range_with(raw, parse_datetime)
}

fn range_with(
    raw: &str,
    parse_datetime: impl Fn(&str) -> Option<NaiveDateTime>,
) -> Option<(NaiveDateTime, NaiveDateTime)> {
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
                // An end before its start is no range, as with a dash above.
                return (y >= x).then_some((x, y));
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
    fn slashed_dates_follow_the_file_order() {
        let (m, d) = (DateOrder::MonthFirst, DateOrder::DayFirst);
        // 02/05/2024: 5 February month-first, 2 May day-first.
        assert_eq!(
            parse_datetime_in("02/05/2024", m),
            Some(dt("2024-02-05 00:00:00"))
        );
        assert_eq!(
            parse_datetime_in("02/05/2024", d),
            Some(dt("2024-05-02 00:00:00"))
        );
        assert_eq!(
            parse_datetime_in("02/05/2024 10:30", d),
            Some(dt("2024-05-02 10:30:00"))
        );
        // Only one order reads these: never lost, whatever the file's order.
        assert_eq!(
            parse_datetime_in("13/05/2024", m),
            Some(dt("2024-05-13 00:00:00"))
        );
        assert_eq!(
            parse_datetime_in("05/13/2024", d),
            Some(dt("2024-05-13 00:00:00"))
        );
        // Other forms do not depend on it.
        assert_eq!(
            parse_datetime_in("2024/05/02", d),
            Some(dt("2024-05-02 00:00:00"))
        );
        assert_eq!(
            parse_datetime_in("2024-05-02", d),
            Some(dt("2024-05-02 00:00:00"))
        );
        assert_eq!(
            parse_range_in("01/02/2024 - 03/02/2024", d),
            Some((dt("2024-02-01 00:00:00"), dt("2024-02-03 00:00:00")))
        );
    }

    #[test]
    fn evidence_for_the_order() {
        use SlashEvidence::*;
        assert_eq!(
            slash_evidence("13/05/2024"),
            Some(Proves(DateOrder::DayFirst))
        );
        assert_eq!(
            slash_evidence("05/13/2024 10:00"),
            Some(Proves(DateOrder::MonthFirst))
        );
        assert_eq!(slash_evidence("02/05/2024"), Some(Ambiguous));
        assert_eq!(slash_evidence("9/2/2023"), Some(Ambiguous));
        assert_eq!(
            slash_evidence("01/02/2024 - 25/02/2024"),
            Some(Proves(DateOrder::DayFirst))
        );
        assert_eq!(slash_evidence("2024/05/13"), None);
        assert_eq!(slash_evidence("2024-05-13"), None);
        assert_eq!(slash_evidence("13/13/2024"), None);
        assert_eq!(slash_evidence("A100 1/2"), None);
        assert_eq!(DateOrder::parse("DMY"), Some(DateOrder::DayFirst));
        assert_eq!(DateOrder::parse("ymd"), None);
    }

    fn day(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn order_names_round_trip() {
        use DateOrder::*;
        assert_eq!(DateOrder::parse("mdy"), Some(MonthFirst));
        assert_eq!(DateOrder::parse(" dmy "), Some(DayFirst));
        assert_eq!(DateOrder::parse(""), None);
        assert_eq!(MonthFirst.as_str(), "mdy");
        assert_eq!(DayFirst.as_str(), "dmy");
        assert_eq!(
            MonthFirst.describe(),
            "month-first (mdy: 03/04/2024 is 4 March)"
        );
        assert_eq!(
            DayFirst.describe(),
            "day-first (dmy: 03/04/2024 is 3 April)"
        );
    }

    #[test]
    fn proves_only_from_dates_one_order_reads() {
        assert_eq!(proves("13/05/2024"), Some(DateOrder::DayFirst));
        assert_eq!(proves("05/13/2024"), Some(DateOrder::MonthFirst));
        assert_eq!(proves("02/05/2024"), None);
        assert_eq!(proves("2024-05-13"), None);
    }

    #[test]
    fn evidence_is_read_only_from_whole_fields() {
        use SlashEvidence::*;
        // A date after text counts.
        assert_eq!(
            slash_evidence("on 13/05/2024"),
            Some(Proves(DateOrder::DayFirst))
        );
        // `113/05/2024`: the first field has three digits; `13` inside it is
        // not a day.
        assert_eq!(slash_evidence("113/05/2024"), None);
        // `1/13/05/2024`: four slashed fields are not a date, and `13/05/2024`
        // inside them does not count.
        assert_eq!(slash_evidence("1/13/05/2024"), None);
        // A month field of three digits (`005`) is not a month.
        assert_eq!(slash_evidence("13/005/2024"), None);
        // A year of two digits is not a year.
        assert_eq!(slash_evidence("13/05/24"), None);
        // 12 is a month in either place: 12/05 and 05/12 read either way.
        assert_eq!(slash_evidence("12/05/2024"), Some(Ambiguous));
        assert_eq!(slash_evidence("05/12/2024"), Some(Ambiguous));
        assert_eq!(slash_evidence("12/12/2024"), Some(Ambiguous));
        // Day 31 with month 12 proves day-first; 32 is no day at all.
        assert_eq!(
            slash_evidence("31/12/2024"),
            Some(Proves(DateOrder::DayFirst))
        );
        assert_eq!(
            slash_evidence("12/31/2024"),
            Some(Proves(DateOrder::MonthFirst))
        );
        assert_eq!(slash_evidence("32/12/2024"), None);
        // An impossible first date does not hide a later one that proves.
        assert_eq!(
            slash_evidence("32/12/2024 - 05/13/2024"),
            Some(Proves(DateOrder::MonthFirst))
        );
    }

    fn scan(stated: Option<DateOrder>, cells: &[&str]) -> DateScan {
        DateScan::decide(stated, cells.iter().copied())
    }

    #[test]
    fn the_order_is_decided_by_evidence_then_majority() {
        use DateOrder::*;
        use OrderBasis::*;
        // Cells: E = reads either way, D = proves day-first, M = month-first.
        let (e, dd, m) = ("02/05/2024", "13/05/2024", "05/13/2024");
        let got = |s: DateScan| (s.order, s.basis, s.scanned);
        // D only (plus E and a non-slashed date): day-first from evidence.
        assert_eq!(
            got(scan(None, &[e, dd, "2024-05-01", dd])),
            (DayFirst, Evidence, (1, 2, 0))
        );
        assert_eq!(got(scan(None, &[m, e])), (MonthFirst, Evidence, (1, 0, 1)));
        assert_eq!(
            got(scan(None, &[e, e, e])),
            (MonthFirst, Assumed, (3, 0, 0))
        );
        assert_eq!(
            got(scan(None, &["2024-05-01", "x"])),
            (MonthFirst, NoSlashedDates, (0, 0, 0))
        );
        // Both orders proven: the majority decides (2 D > 1 M; 1 D < 2 M);
        // a tie is month-first.
        assert_eq!(
            got(scan(None, &[dd, m, dd])),
            (DayFirst, Conflicting, (0, 2, 1))
        );
        assert_eq!(
            got(scan(None, &[dd, m, m, e])),
            (MonthFirst, Conflicting, (1, 1, 2))
        );
        assert_eq!(
            got(scan(None, &[dd, m])),
            (MonthFirst, Conflicting, (0, 1, 1))
        );
        // A stated order wins over any evidence; the counts are still kept.
        assert_eq!(
            got(scan(Some(DayFirst), &[m, m])),
            (DayFirst, Stated, (0, 0, 2))
        );
        // The scan reads cells in its order.
        let s = scan(None, &[dd]);
        assert_eq!(s.datetime("02/05/2024"), Some(dt("2024-05-02 00:00:00")));
        assert_eq!(
            s.range("01/02/2024 - 03/02/2024"),
            Some((dt("2024-02-01 00:00:00"), dt("2024-02-03 00:00:00")))
        );
    }

    #[test]
    fn the_order_note() {
        use DateOrder::*;
        const STATE: &str = "state `date-order` in a [[profile]] of billaudit.toml";
        let (e, dd, m) = ("02/05/2024", "13/05/2024", "05/13/2024");
        // Assumed month-first, nothing later proves either order.
        let assumed = scan(None, &[e, e, e]);
        assert_eq!(
            assumed.note(|_| None).as_deref(),
            Some(format!("dates: every slashed date in the first rows (3) reads either way; month-first (mdy: 03/04/2024 is 4 March) was assumed; {STATE} to decide").as_str())
        );
        // Assumed, and line 9 proves month-first: confirmed, no note.
        assert_eq!(assumed.note(|o| (o == MonthFirst).then_some(9)), None);
        // Assumed, and line 42 proves day-first: the earlier reading may be wrong.
        assert_eq!(
            assumed.note(|o| (o == DayFirst).then_some(42)).as_deref(),
            Some(format!("slashed dates were read month-first (mdy: 03/04/2024 is 4 March) (assumed), but line 42 has a date only dmy reads; dates that read either way may be wrong: {STATE}").as_str())
        );
        // Evidence, nothing against it: no note.
        let evidence = scan(None, &[dd]);
        assert_eq!(evidence.note(|o| (o == DayFirst).then_some(2)), None);
        assert_eq!(
            evidence.note(|o| (o == MonthFirst).then_some(7)).as_deref(),
            Some(format!("slashed dates were read day-first (dmy: 03/04/2024 is 3 April) (from the first rows), but line 7 has a date only mdy reads; dates that read either way may be wrong: {STATE}").as_str())
        );
        // Stated: only a row against it gives a note.
        let stated = scan(Some(DayFirst), &[]);
        assert_eq!(stated.note(|_| None), None);
        assert_eq!(
            stated.note(|o| (o == MonthFirst).then_some(3)).as_deref(),
            Some(format!("slashed dates were read day-first (dmy: 03/04/2024 is 3 April) (the profile's date-order), but line 3 has a date only mdy reads; dates that read either way may be wrong: {STATE}").as_str())
        );
        // Conflicting: always the note on the first rows, whatever later rows prove.
        let conflicting = scan(None, &[dd, m, m, e]);
        let want = format!(
            "dates: the first rows hold slashed dates of both orders (1 only day-first reads, 2 only month-first); month-first (mdy: 03/04/2024 is 4 March) was taken for the 1 that read either way; {STATE} to decide"
        );
        for proof in [None, Some(5)] {
            assert_eq!(conflicting.note(|_| proof).as_deref(), Some(want.as_str()));
            assert_eq!(
                conflicting
                    .note(|o| (o == MonthFirst).then_some(5).or(proof))
                    .as_deref(),
                Some(want.as_str())
            );
        }
    }

    #[test]
    fn iso_fast_refuses_near_misses() {
        for s in [
            "2024-05x02",
            "2024x05-02",
            "2024-09-18 22x00",
            "2024-09-18x22:00",
            "2024-09-18 22:00x00",
            "2024-09-18 22:00:00x5",
            "2024-09-18 22:00:",
        ] {
            assert_eq!(iso_fast(s), None, "{s}");
            assert_eq!(parse_datetime(s), None, "{s}");
        }
        // Nine digits of fraction are the most a nanosecond holds.
        assert_eq!(
            iso_fast("2024-09-18 22:00:00.123456789"),
            Some(dt("2024-09-18 22:00:00") + chrono::Duration::nanoseconds(123_456_789))
        );
        assert_eq!(
            iso_fast("2024-09-18 22:00:00.5"),
            Some(dt("2024-09-18 22:00:00") + chrono::Duration::milliseconds(500))
        );
    }

    #[test]
    fn offsets_are_dropped_and_the_wall_clock_kept() {
        // docs/decisions.md: the time written in the file is kept; the offset
        // is read and dropped (22:00 at +08:00 stays 22:00, not 14:00 UTC).
        for s in [
            "2024-09-18T22:00:00+08:00",
            "2024-09-18T22:00:00-05:00",
            "2024-09-18T22:00:00+08",
            "2024-09-18 22:00:00 +0800",
            "2024-09-18 22:00:00 UTC",
            "2024-09-18 22:00:00 GMT",
            "2024-09-18 22:00:00 GMT+08:00",
            "2024-09-18 22:00:00Z",
        ] {
            assert_eq!(parse_datetime(s), Some(dt("2024-09-18 22:00:00")), "{s}");
        }
        // Not offsets: a letter inside, or no time before them.
        assert_eq!(parse_datetime("2024-01-01 10:00:00+08x00"), None);
        assert_eq!(parse_datetime("2024-01-01 10:00:00+0a:00"), None);
        // `-2024` after `05-Oct` is a year, not an offset.
        assert_eq!(
            parse_datetime("05-Oct-2024"),
            Some(dt("2024-10-05 00:00:00"))
        );
        // Seconds after minutes are not an offset either.
        assert_eq!(
            parse_datetime("2020/07/02 08:36:12"),
            Some(dt("2020-07-02 08:36:12"))
        );
        assert_eq!(
            parse_datetime_in("02/05/2024 10:30:00", DateOrder::DayFirst),
            Some(dt("2024-05-02 10:30:00"))
        );
        // Multi-byte text at the end is looked at on character boundaries only.
        assert_eq!(parse_datetime("2024-01-01 10:00 日日"), None);
    }

    #[test]
    fn months_alone() {
        assert_eq!(parse_month("202510"), Some(day("2025-10-01")));
        assert_eq!(parse_month("2025/10"), Some(day("2025-10-01")));
        assert_eq!(parse_month("2025.1"), Some(day("2025-01-01")));
        assert_eq!(parse_month("October 2025"), Some(day("2025-10-01")));
        // Five digits are neither `yyyymm` nor a year.
        assert_eq!(parse_month("20251"), None);
        assert_eq!(parse_month("02025-10"), None);
        // Years outside 1900..=2200 are not billing months.
        assert_eq!(parse_month("1899-12"), None);
        assert_eq!(parse_month("2025-13"), None);
        // `Oct 25` is no month of year 25 (it was read as 0025-10-01): the
        // year range holds for month names too.
        assert_eq!(parse_month("Oct 25"), None);
        assert_eq!(parse_datetime("Oct 25"), None);
        assert_eq!(parse_month("Oct 2201"), None);
        assert_eq!(parse_month("Dec 2200"), Some(day("2200-12-01")));
    }

    #[test]
    fn length_limits() {
        // A cell of 64 bytes is read, 65 is not: `2024-01-01`, spaces, `10:00`
        // (chrono reads any run of spaces where the format has one).
        let at = |n: usize| format!("2024-01-01{}10:00", " ".repeat(n - 15));
        assert_eq!(parse_datetime(&at(64)), Some(dt("2024-01-01 10:00:00")));
        assert_eq!(parse_datetime(&at(65)), None);
        let date_at = |n: usize| format!("Oct{}01, 2024", " ".repeat(n - 11));
        assert_eq!(parse_date(&date_at(64)), Some(day("2024-10-01")));
        assert_eq!(parse_date(&date_at(65)), None);
        // A range cell of 128 bytes is read, 129 is not.
        let range_at = |n: usize| format!("2024-01-01{}-2024-01-02", " ".repeat(n - 21));
        assert_eq!(
            parse_range(&range_at(128)),
            Some((dt("2024-01-01 00:00:00"), dt("2024-01-02 00:00:00")))
        );
        assert_eq!(parse_range(&range_at(129)), None);
    }

    #[test]
    fn a_range_ends_after_it_starts() {
        // Same day both ends is a range; an end before the start is not
        // (and `2025-10-31 - 2025-10-01` has no other split that reads).
        assert_eq!(
            parse_range("2025-10-01 - 2025-10-01"),
            Some((dt("2025-10-01 00:00:00"), dt("2025-10-01 00:00:00")))
        );
        assert_eq!(parse_range("2025-10-31 - 2025-10-01"), None);
        assert_eq!(
            parse_range("2025-10-01 to 2025-10-31"),
            Some((dt("2025-10-01 00:00:00"), dt("2025-10-31 00:00:00")))
        );
        // ... with ` to ` as with a dash (it was read end before start).
        assert_eq!(parse_range("2025-10-31 to 2025-10-01"), None);
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
