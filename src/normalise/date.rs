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
    // No slash, no slashed date (most cells: ISO dates).
    memchr::memchr(b'/', cell.as_bytes())?;
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
        remembered(cell, self.order)
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

/// Cells of at most this many bytes have their [`parse_datetime_in`]
/// remembered ([`remembered`]).
const MEMO_TEXT: usize = 32;

/// Slots of a thread's memo of dates (a power of two).
const MEMO_SLOTS: usize = 4096;

/// A remembered cell: its bytes, the order it was read in, its date.
#[derive(Clone, Copy)]
struct Memo {
    len: u8,
    order: DateOrder,
    text: [u8; MEMO_TEXT],
    value: Option<NaiveDateTime>,
}

thread_local! {
    /// The last cell read in each slot of a cell's hash (an export repeats
    /// each period's start and end on every row of the period).
    static MEMO: std::cell::RefCell<Vec<Option<Memo>>> =
        std::cell::RefCell::new(vec![None; MEMO_SLOTS]);
}

/// [`parse_datetime_in`], remembered per cell: a cell whose bytes and
/// order are a slot's gets the slot's date (the same function of the same
/// input), any other is parsed and takes the slot.
fn remembered(cell: &str, order: DateOrder) -> Option<NaiveDateTime> {
    let b = cell.as_bytes();
    if b.len() > MEMO_TEXT {
        return parse_datetime_in(cell, order);
    }
    let slot = (xxhash_rust::xxh3::xxh3_64(b) as usize) & (MEMO_SLOTS - 1);
    let hit = MEMO.with(|m| {
        let m = m.borrow();
        let s = m.get(slot)?.as_ref()?;
        (usize::from(s.len) == b.len() && s.order == order && &s.text[..b.len()] == b)
            .then_some(s.value)
    });
    if let Some(value) = hit {
        return value;
    }
    let value = parse_datetime_in(cell, order);
    let mut text = [0u8; MEMO_TEXT];
    text[..b.len()].copy_from_slice(b);
    MEMO.with(|m| {
        if let Some(s) = m.borrow_mut().get_mut(slot) {
            *s = Some(Memo {
                len: b.len() as u8,
                order,
                text,
                value,
            });
        }
    });
    value
}

/// [`parse_datetime`] with slashed dates read in `order`. A slashed date
/// only the other order can read (`13/05/2024` in a month-first file) is
/// read that way: a date that proves the order is never lost.
pub fn parse_datetime_in(raw: &str, order: DateOrder) -> Option<NaiveDateTime> {
    if order == DateOrder::MonthFirst {
        return parse_datetime(raw);
    }
    // No ISO date has a slash: the day-first formats cannot read one.
    if let Some(dt) = iso_offset_fast(raw.trim()) {
        return Some(dt);
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
    // The usual cases first, before any offset handling: `2025-10-01 00:00:00`,
    // and FOCUS's `2025-10-01T00:00:00Z` or `...+08:00`.
    if let Some(dt) = iso_offset_fast(s) {
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

/// [`iso_fast`], also after a `Z` or a `+HH:MM`/`-HH:MM` offset: what
/// [`strip_offset`] would drop from such a time (it finds no `GMT` or `UTC`
/// in it, and nothing else it strips), without searching for those tags.
/// Allocation-free; `None` for anything else.
fn iso_offset_fast(s: &str) -> Option<NaiveDateTime> {
    let b = s.as_bytes();
    match b.last()? {
        b'Z' => iso_fast(&s[..s.len() - 1]),
        // `...:SS+08:00`: the offset follows a time, never a bare date.
        b'0'..=b'9' if b.len() > 16 && matches!(b[b.len() - 6], b'+' | b'-') => {
            let (head, tail) = s.split_at(s.len() - 6);
            if is_offset(tail) {
                iso_fast(head)
            } else {
                iso_fast(s)
            }
        }
        _ => iso_fast(s),
    }
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

/// [`parse_range`] with another reader of each date (the text invoice
/// reader's, which also reads dotted day-first dates).
pub fn range_with(
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
mod tests;
