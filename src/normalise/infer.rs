//! Columns inferred from the content, for a CSV whose header no profile and
//! no header name of [`crate::vocab::headers`] recognises, or that has no
//! header row at all (docs/decisions.md, "Reading without a known header").
//!
//! - **The table** is the rows of the most common width (at least 2 cells,
//!   at least 2 of them filled in some row, and most of the rows from its
//!   first on); rows above its first row are title lines.
//! - **A header row** is the table's first row when none of its cells is a
//!   number or a date while a column below it holds numbers or dates;
//!   otherwise the file has no header and that row is data.
//! - **The amount** is a column of numbers on nearly every data row (some
//!   rows, a summary row among them, may leave it empty). Where the product
//!   of two other number columns equals it (quantity x unit price =
//!   amount, to the amount's own decimals), the column that the most rows
//!   prove is the amount and those two are the quantity and unit price
//!   (ties: the rightmost amount); else the rightmost number column.
//! - **The description** is the text column with the most distinct values;
//!   the other text columns are classified after it.
//! - **Dates**: one date column is the date, two are start and end.
//! - **Currency**: a column of currency codes, else the one currency symbol
//!   the texts use (`€ 5.83` inside a description), else unknown.
//!
//! Header names the vocabulary knows still name their columns (`quantity`,
//! `unit_price`), except that the content decides the amount. `--columns`
//! overrides all of it, by name or by 1-based position (`amount=7`).
//! Nothing here is refused except a table without a column of numbers.

use rust_decimal::Decimal;

use super::date;
use super::header::{self, normalise_header, override_column};
use super::number::{self, Cell, DecimalMark, parse_number};
use super::profile::{ColumnMap, ColumnOverrides, Role, generic, row_id_columns};

/// One column whose role was inferred, and why: the report's
/// `inferred_columns` (docs/json-output.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InferredColumn {
    pub role: Role,
    /// 0-based column index (the report shows it 1-based).
    pub column: usize,
    /// The header cell, `None` in a file without a header row.
    pub header: Option<String>,
    pub reason: String,
}

/// How a table was read.
#[derive(Debug, Clone)]
pub(crate) struct Inference {
    pub map: ColumnMap,
    /// Index (into the rows given) of the header row, if the file has one.
    pub header: Option<usize>,
    /// Index of the first data row.
    pub first_data: usize,
    pub columns: Vec<InferredColumn>,
    /// What the report says about the currency when no column states it.
    pub currency_note: Option<String>,
}

/// Why a table cannot be read by inference.
#[derive(Debug, Clone, PartialEq, Eq)]
// Each variant says what is missing (`NoTable`, `NoMoney`, `NoSuchColumn`).
#[allow(clippy::enum_variant_names)]
pub(crate) enum InferError {
    /// Fewer than two rows of at least two cells of one width.
    NoTable,
    /// No column holds numbers: nothing is money.
    NoMoney,
    /// A `--columns` entry names a column that is not there.
    NoSuchColumn { value: String, columns: Vec<String> },
}

/// What a cell holds, for inference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Empty,
    Number,
    Date,
    Currency,
    Text,
}

fn kind(cell: &str, mark: DecimalMark) -> Kind {
    let t = number::trim(cell);
    if t.is_empty() || number::is_placeholder(t) {
        return Kind::Empty;
    }
    let dateish = t.contains(['-', '/', '.', ':', '年']) || t.chars().any(char::is_alphabetic);
    // `2001.01` is an amount as well as January 2001: a number here; a
    // column of nothing else is a period ([`year_month`]).
    if dateish
        && !year_month(t)
        && (date::parse_datetime(t).is_some() || date::parse_range(t).is_some())
    {
        return Kind::Date;
    }
    if let Ok(Cell::Value(_)) = parse_number(t, mark) {
        return Kind::Number;
    }
    if header::is_iso_code(t) || header::currency_code(t).is_some() {
        return Kind::Currency;
    }
    Kind::Text
}

/// A cell that reads both as a number and as a month (`2025.11`: four
/// digits, a dot, two): in a column of nothing else, a period; among other
/// numbers (`0.01`, `2001.01`), an amount.
fn year_month(t: &str) -> bool {
    let b = t.as_bytes();
    b.len() == 7
        && b[4] == b'.'
        && b[..4].iter().chain(&b[5..]).all(u8::is_ascii_digit)
        && (date::parse_datetime(t).is_some() || date::parse_range(t).is_some())
}

fn value(cell: &str, mark: DecimalMark) -> Option<Decimal> {
    match parse_number(cell, mark) {
        Ok(Cell::Value(d)) => Some(d),
        _ => None,
    }
}

/// Whether `q x p` is `a` to the decimals `a` is written with (half a unit
/// of its last place), as `line-arithmetic` compares them.
fn product_matches(q: Decimal, p: Decimal, a: Decimal) -> bool {
    let Some(prod) = q.checked_mul(p) else {
        return false;
    };
    let half = number::half_unit(a);
    (prod - a).abs() <= half
}

/// The role the generic vocabulary gives a header cell, if any (`unit_price`
/// is read as `unit price`).
fn named_role(cell: &str) -> Option<Role> {
    let g = generic();
    let names = [
        normalise_header(cell).name,
        normalise_header(&cell.replace('_', " ")).name,
    ];
    names.iter().find_map(|n| {
        g.columns
            .iter()
            .find(|(_, aliases)| aliases.iter().any(|a| a == n))
            .map(|(r, _)| *r)
    })
}

/// Infers the columns of `rows` (the first records of a file).
pub(crate) fn infer(
    rows: &[Vec<String>],
    overrides: &ColumnOverrides,
    mark: DecimalMark,
) -> Result<Inference, InferError> {
    let filled = |r: &Vec<String>| r.iter().any(|c| !c.trim().is_empty());
    // The table's width: the most common width of 2 cells or more.
    let mut widths: Vec<(usize, usize)> = Vec::new();
    for r in rows.iter().filter(|r| r.len() >= 2 && filled(r)) {
        match widths.iter_mut().find(|(w, _)| *w == r.len()) {
            Some((_, n)) => *n += 1,
            None => widths.push((r.len(), 1)),
        }
    }
    let (width, count) = widths
        .iter()
        .copied()
        .max_by_key(|(w, n)| (*n, *w))
        .ok_or(InferError::NoTable)?;
    // The table starts at its first row of two filled cells: a title line
    // padded to the table's width (`Facture N° F-2025-0931;;;`, as a
    // spreadsheet saves it) is above the table, not its header.
    let filled_cells = |r: &Vec<String>| r.iter().filter(|c| !c.trim().is_empty()).count();
    let start = rows
        .iter()
        .position(|r| r.len() == width && filled_cells(r) >= 2)
        .ok_or(InferError::NoTable)?;
    let table_rows = rows[start..].iter().filter(|r| filled(r)).count();
    // A table is most of what follows its first row (a text invoice's lines
    // are not).
    if count < 2 || count * 10 < table_rows * 8 {
        return Err(InferError::NoTable);
    }
    let kinds_of = |r: &Vec<String>| r.iter().map(|c| kind(c, mark)).collect::<Vec<_>>();
    let first = kinds_of(&rows[start]);
    let data_from = start + 1;
    let below: Vec<&Vec<String>> = rows[data_from..]
        .iter()
        .filter(|r| r.len() == width && filled(r))
        .collect();
    let first_is_header = !first.iter().any(|k| matches!(k, Kind::Number | Kind::Date))
        && first.contains(&Kind::Text)
        && (0..width).any(|c| {
            below
                .iter()
                .any(|r| matches!(kind(&r[c], mark), Kind::Number | Kind::Date))
        });
    let (header, first_data) = if first_is_header {
        (Some(start), data_from)
    } else {
        (None, start)
    };
    let data: Vec<&Vec<String>> = rows[first_data..]
        .iter()
        .filter(|r| r.len() == width && filled(r))
        .collect();
    if data.is_empty() {
        return Err(InferError::NoTable);
    }
    let n = data.len();
    // Per column: how many cells of each kind.
    let col_kinds: Vec<Vec<Kind>> = (0..width)
        .map(|c| data.iter().map(|r| kind(&r[c], mark)).collect())
        .collect();
    let share = |c: usize, k: Kind| col_kinds[c].iter().filter(|x| **x == k).count();
    let nonempty = |c: usize| n - share(c, Kind::Empty);
    // A line of a bill is an amount and something about it: a column that
    // is all there is (`ListUnitPrice,` over `0.0,`) is not a bill.
    if (0..width).filter(|&c| nonempty(c) > 0).count() < 2 {
        return Err(InferError::NoTable);
    }
    // A column of numbers: numbers in nine of ten filled cells, filled on
    // more than half the rows.
    // A column whose every cell is a month (`2025.11`) is a period, not
    // money.
    let months = |c: usize| {
        data.iter()
            .filter(|r| year_month(number::trim(&r[c])))
            .count()
    };
    let period_like = |c: usize| nonempty(c) > 0 && months(c) == nonempty(c);
    let numeric: Vec<usize> = (0..width)
        .filter(|&c| {
            let f = nonempty(c);
            f * 2 > n && share(c, Kind::Number) * 10 >= f * 9 && !period_like(c)
        })
        .collect();
    if numeric.is_empty() {
        return Err(InferError::NoMoney);
    }
    let head = header.map(|h| &rows[h]);
    let header_of = |c: usize| head.map(|h| h[c].trim().to_string());
    let names: Vec<Option<Role>> = (0..width)
        .map(|c| head.and_then(|h| named_role(&h[c])))
        .collect();
    // The amount: the column that the most rows prove to be a product.
    let mut best: Option<(usize, usize, usize, usize)> = None; // (hits, a, q, p)
    for &a in &numeric {
        for &q in &numeric {
            for &p in &numeric {
                if q == a || p == a || q >= p {
                    continue;
                }
                let hits = data
                    .iter()
                    .filter(|r| {
                        match (value(&r[q], mark), value(&r[p], mark), value(&r[a], mark)) {
                            (Some(q), Some(p), Some(a)) => product_matches(q, p, a),
                            _ => false,
                        }
                    })
                    .count();
                let better = match best {
                    None => hits > 0,
                    Some((h, ba, _, _)) => hits > h || (hits == h && hits > 0 && a > ba),
                };
                if better {
                    best = Some((hits, a, q, p));
                }
            }
        }
    }
    let mut map = ColumnMap::default();
    let mut columns = Vec::new();
    let mut put = |map: &mut ColumnMap, role: Role, c: usize, reason: String| {
        map.roles.insert(role, c);
        columns.push(InferredColumn {
            role,
            column: c,
            header: header_of(c),
            reason,
        });
    };
    let amount = match best {
        Some((hits, a, q, p)) => {
            put(
                &mut map,
                Role::Amount,
                a,
                format!(
                    "numbers, and column {} x column {} equals it on {hits} of {n} rows",
                    q + 1,
                    p + 1
                ),
            );
            // Which factor is the price: the header says, else the one
            // that is not a whole number on every row, else the right one.
            let whole = |c: usize| {
                data.iter()
                    .filter_map(|r| value(&r[c], mark))
                    .all(|d| d.fract().is_zero())
            };
            let named_swapped =
                names[q] == Some(Role::UnitPrice) || names[p] == Some(Role::Quantity);
            let whole_right = names[p] != Some(Role::UnitPrice) && whole(p) && !whole(q);
            let (qty, price) = if named_swapped || whole_right {
                (p, q)
            } else {
                (q, p)
            };
            // Each factor's reason names the other factor.
            let why = |other: usize| {
                format!(
                    "times column {} equals the amount on {hits} of {n} rows",
                    other + 1
                )
            };
            if names[qty] != Some(Role::Quantity) {
                put(&mut map, Role::Quantity, qty, why(price));
            } else {
                map.roles.insert(Role::Quantity, qty);
            }
            if names[price] != Some(Role::UnitPrice) {
                put(&mut map, Role::UnitPrice, price, why(qty));
            } else {
                map.roles.insert(Role::UnitPrice, price);
            }
            a
        }
        None => {
            // Not a column the header names as something else (`Menge`,
            // `Unit Price`): those are numbers too, and not the charge.
            let other = |c: usize| names[c].is_some_and(|r| r != Role::Amount);
            let unnamed = numeric.iter().rev().find(|&&c| !other(c));
            let a = *unnamed.or(numeric.last()).unwrap_or(&0);
            let why = if unnamed.is_some() && Some(&a) != numeric.last() {
                "the rightmost column of numbers that the header does not name as a quantity or price"
            } else {
                "the rightmost column of numbers"
            };
            put(
                &mut map,
                Role::Amount,
                a,
                format!(
                    "{why} ({} of {n} rows); no product of two other columns equals it",
                    share(a, Kind::Number)
                ),
            );
            a
        }
    };
    // Roles the header names (not the amount, which the content decided).
    // A column the header calls the description holds text: `Item` over
    // `1, 2, 3` beside a `Description` column is a line number.
    for (c, role) in names.iter().enumerate() {
        if let Some(r) = role {
            let fits = *r != Role::Description || share(c, Kind::Text) > 0;
            if c != amount && *r != Role::Amount && map.get(*r).is_none() && fits {
                map.roles.insert(*r, c);
            }
        }
    }
    let taken = |map: &ColumnMap, c: usize| map.roles.iter().any(|(_, i)| *i == c);
    // Dates.
    let dates: Vec<usize> = (0..width)
        .filter(|&c| {
            !taken(&map, c)
                && nonempty(c) > 0
                && (period_like(c) || share(c, Kind::Date) * 10 >= nonempty(c) * 9)
        })
        .collect();
    let has_dates = [Role::Date, Role::Start, Role::End, Role::Period]
        .iter()
        .any(|r| map.get(*r).is_some());
    if !has_dates {
        // A period column's months count as its dates.
        let why = |c: usize| {
            let k = share(c, Kind::Date) + if period_like(c) { months(c) } else { 0 };
            format!("dates on {k} of {n} rows")
        };
        match dates.as_slice() {
            [] => {}
            [d] => put(&mut map, Role::Date, *d, why(*d)),
            [s, e, ..] => {
                put(&mut map, Role::Start, *s, why(*s));
                put(&mut map, Role::End, *e, why(*e));
            }
        }
    }
    // Currency column.
    if map.get(Role::Currency).is_none() {
        if let Some(c) = (0..width).find(|&c| {
            !taken(&map, c) && nonempty(c) > 0 && share(c, Kind::Currency) == nonempty(c)
        }) {
            put(
                &mut map,
                Role::Currency,
                c,
                format!("a currency on {} of {n} rows", share(c, Kind::Currency)),
            );
        }
    }
    // Text columns: the description is the one with the most distinct values.
    let texts: Vec<usize> = (0..width)
        .filter(|&c| !taken(&map, c) && share(c, Kind::Text) > 0)
        .collect();
    if map.get(Role::Description).is_none() {
        if let Some((d, reason)) = most_distinct_text(&data, &texts) {
            put(&mut map, Role::Description, d, reason);
        }
    }
    // Overrides: by name or by position; a column is one role.
    let raw: Vec<String> = match head {
        Some(h) => h.clone(),
        None => (1..=width).map(|i| format!("column {i}")).collect(),
    };
    let norm_names: Vec<String> = match head {
        Some(h) => h.iter().map(|c| normalise_header(c).name).collect(),
        None => vec![String::new(); width],
    };
    for (role, v) in overrides {
        let c = override_column(&norm_names, v).ok_or_else(|| InferError::NoSuchColumn {
            value: v.clone(),
            columns: raw.iter().map(|s| s.trim().to_string()).collect(),
        })?;
        let others = map.roles.assign(*role, c);
        columns.retain(|x| x.role != *role && !others.contains(&x.role));
    }
    let description = map.get(Role::Description);
    let mut tier1: Vec<usize> = description.into_iter().collect();
    let mut tier2: Vec<usize> = Vec::new();
    for (c, r) in names.iter().enumerate() {
        if r.is_none() && texts.contains(&c) && Some(c) != description && !taken(&map, c) {
            tier2.push(c);
        }
    }
    if tier1.is_empty() {
        tier1 = std::mem::take(&mut tier2);
    }
    map.class_tiers = [tier1, tier2]
        .into_iter()
        .filter(|t| !t.is_empty())
        .collect();
    map.names = norm_names;
    map.raw = raw;
    map.row_ids = row_id_columns(&map.names);
    // The currency, when no column states it: the one the headers name
    // (`Betrag CHF`), else the one symbol the texts use.
    let mut currency_note = None;
    if let (Some(h), Some(amount)) = (head, map.get(Role::Amount)) {
        let norm: Vec<_> = h.iter().map(|c| normalise_header(c)).collect();
        map.set_header_currency(&norm, amount);
    }
    if map.get(Role::Currency).is_none() && map.header_currency.is_some() {
        currency_note = map.currency_note();
    } else if map.get(Role::Currency).is_none() {
        currency_note = Some(currency_from_symbols(&mut map, data.iter().copied()));
    }
    Ok(Inference {
        map,
        header,
        first_data,
        columns,
        currency_note,
    })
}

/// Of the `texts` columns, the one with the most distinct values on the
/// `data` rows (ties: the leftmost), and the reason the report gives.
fn most_distinct_text(data: &[&Vec<String>], texts: &[usize]) -> Option<(usize, String)> {
    let distinct = |c: usize| {
        let mut v: Vec<&str> = data
            .iter()
            .filter_map(|r| r.get(c))
            .map(|t| t.trim())
            .filter(|t| !t.is_empty())
            .collect();
        v.sort_unstable();
        v.dedup();
        v.len()
    };
    let d = *texts
        .iter()
        .max_by_key(|&&c| (distinct(c), std::cmp::Reverse(c)))?;
    let reason = format!(
        "the text column with the most distinct values ({} on {} rows)",
        distinct(d),
        data.len()
    );
    Some((d, reason))
}

/// The currency of a bill whose columns and headers name none: the one
/// currency symbol the texts of its rows use (`₹1,25,000.00`, `€ 12,50`;
/// one-character symbols that are not ASCII, and `$`), set as the map's
/// header currency; with the note the report gives either way.
pub(crate) fn currency_from_symbols<'r>(
    map: &mut ColumnMap,
    rows: impl Iterator<Item = &'r Vec<String>>,
) -> String {
    let mut found: Vec<(&'static str, &'static str)> = Vec::new();
    let symbols: Vec<&'static str> = crate::vocab::currency::symbols()
        .into_iter()
        .filter(|s| (s.chars().count() == 1 && !s.is_ascii()) || *s == "$")
        .collect();
    for cell in rows.flat_map(|r| r.iter()) {
        for sym in symbols.iter().filter(|s| cell.contains(**s)) {
            if let Some(code) = header::currency_code(sym) {
                if !found.iter().any(|(c, _)| *c == code) {
                    found.push((code, sym));
                }
            }
        }
    }
    match found.as_slice() {
        [(code, sym)] => {
            map.header_currency = Some((*code).to_string());
            format!("no currency column; assumed {code} from `{sym}` in the text of the rows")
        }
        _ => {
            "no currency column and no currency in the headers; the currency is unknown".to_string()
        }
    }
}

/// The description of a table whose recognised header names none (no
/// description and nothing else to classify by: `Pos.;Artikel Nr.;Menge;
/// Betrag`): the text column with the most distinct values on `rows`, the
/// data rows that follow the header, as [`infer`] picks it, among the
/// columns the header left without a role. The map gets the column as its
/// description and first classification tier; the caller reports the
/// returned column (`inferred_columns` and a note). `None` when the header
/// names a description or a classification column, or no free column
/// holds text.
pub(crate) fn description_from_content(
    map: &mut ColumnMap,
    header: &[String],
    rows: &[Vec<String>],
    mark: DecimalMark,
) -> Option<InferredColumn> {
    if map.get(Role::Description).is_some() || !map.class_tiers.is_empty() {
        return None;
    }
    let data: Vec<&Vec<String>> = rows
        .iter()
        .filter(|r| r.iter().any(|c| !c.trim().is_empty()))
        .collect();
    let free = |c: usize| !map.roles.iter().any(|(_, i)| *i == c);
    let texts: Vec<usize> = (0..header.len())
        .filter(|&c| {
            free(c)
                && data
                    .iter()
                    .any(|r| r.get(c).is_some_and(|x| kind(x, mark) == Kind::Text))
        })
        .collect();
    let (d, reason) = most_distinct_text(&data, &texts)?;
    map.roles.insert(Role::Description, d);
    map.class_tiers.insert(0, vec![d]);
    Some(InferredColumn {
        role: Role::Description,
        column: d,
        header: header.get(d).map(|h| h.trim().to_string()),
        reason: format!("the header names no description; {reason}"),
    })
}

impl InferredColumn {
    /// The report's note for the column: `amount = column 7 (`price`): ...`.
    pub fn note(&self) -> String {
        let head = match &self.header {
            Some(h) if !h.is_empty() => format!(" `{h}`"),
            _ => String::new(),
        };
        format!(
            "inferred {} = column {}{head}: {}",
            self.role.as_str(),
            self.column + 1,
            self.reason
        )
    }
}

#[cfg(test)]
mod tests;

/// The profile an inferred file is read with (`format` in the report):
/// no aliases of its own, the columns come from [`infer`].
pub(crate) fn profile() -> &'static super::profile::Profile {
    static P: std::sync::LazyLock<super::profile::Profile> = std::sync::LazyLock::new(|| {
        let mut p = generic();
        p.name = "inferred-csv".into();
        p.summary = "any CSV without a known header: columns inferred from the content".into();
        p.columns = Vec::new();
        p.class_tiers = Vec::new();
        p.cost_column = "inferred".into();
        p
    });
    &P
}
