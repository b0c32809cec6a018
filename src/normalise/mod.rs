//! Stage 2: records -> line items. Finds the header, maps columns to roles,
//! reads numbers, currencies and dates. Every data row ends as exactly one
//! [`RowOutcome`]: an item, a stated total, or a counted skip.

pub mod block;
pub mod date;
pub mod header;
pub mod number;
pub mod profile;
pub mod profiles;

use rust_decimal::Decimal;

use crate::model::Category;
use crate::model::{Check, Finding, LineItem, Severity};
use crate::vocab::summary::{self, SummaryKind};
use number::{Cell, DecimalMark, parse_number};
use profile::{ColumnMap, ColumnOverrides, CostBasis, MissingColumns, Profile, Role, map_header};

/// How many records from the top are searched for the header row.
pub const HEADER_SEARCH_ROWS: usize = 64;

/// Why a row did not become a line item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkipReason {
    /// A money or quantity value could not be read (`unparsable-value`).
    Unparsable,
    /// The amount cell was empty or a placeholder (`missing-amount`).
    MissingAmount,
    /// Every cell was empty.
    Blank,
    /// A summary row (`Subtotal`, `Total`, `合计`, ...): kept as a stated
    /// figure to check the lines against, not summed.
    Summary,
}

/// The fate of one data row.
#[derive(Debug)]
pub enum RowOutcome {
    Item(Box<LineItem>),
    /// A charge and the credits listed inside it (GCP `credits`), each its
    /// own `credit` line item.
    WithCredits(Box<LineItem>, Vec<LineItem>),
    Skip(SkipReason, Option<Finding>),
    /// A figure the bill states about its lines (a `Subtotal`/`小计` or a
    /// `Total`/`合计` row), to check them against; counted as a `summary`
    /// skip. `kind` is [`SummaryKind::Subtotal`] or [`SummaryKind::Total`]
    /// (a tax or credit summary row is an item). `currency` is the row's.
    Stated {
        kind: SummaryKind,
        amount: Decimal,
        currency: Option<String>,
    },
}

/// The result of trying the profiles on one header candidate.
pub type Detected<'p> = (&'p Profile, Result<ColumnMap, MissingColumns>);

/// Tries each profile, in order, on a header candidate; returns the first
/// that recognises it (mapped, or recognised with a required column missing).
/// With `forced`, `profiles` is the one profile the user named.
/// `row` is the candidate's 1-based record number: a profile with
/// `skip_rows` never takes one of its first rows for the header, and a row
/// it would recognise there is no other profile's header either (the user
/// said it is not the header: the generic names must not take it instead).
pub fn detect_header<'p>(
    profiles: &'p [Profile],
    cells: &[String],
    row: usize,
    overrides: &ColumnOverrides,
    cost: CostBasis,
    forced: bool,
) -> Option<Detected<'p>> {
    for p in profiles {
        let mapped = map_header(p, cells, overrides, cost, forced);
        if row <= p.skip_rows {
            if mapped.is_some() {
                return None;
            }
        } else if let Some(m) = mapped {
            return Some((p, m));
        }
    }
    None
}

/// What a cell names when it is a summary label (the shared table,
/// [`crate::vocab::summary`]): `Subtotal`, `Tax (8%)`, `Total USD`, `合计：`.
pub fn summary_label(s: &str) -> Option<SummaryKind> {
    summary::stated_kind(s, |w| header::currency_code(w).is_some())
}

/// The longest cell read as text. Real cells are short (a long SKU
/// description is a few hundred bytes); a cell of megabytes is a damaged
/// file, and classifying it would cost seconds per row.
pub const MAX_CELL_BYTES: usize = 256 * 1024;

/// A date cell read with the profile's own formats first, then the
/// built-in ones in the file's order of slashed dates.
fn datetime(formats: &[String], dates: &date::DateScan, t: &str) -> Option<chrono::NaiveDateTime> {
    for f in formats {
        if let Ok(dt) = chrono::NaiveDateTime::parse_from_str(t, f) {
            return Some(dt);
        }
        if let Ok(d) = chrono::NaiveDate::parse_from_str(t, f) {
            return Some(d.and_time(chrono::NaiveTime::MIN));
        }
    }
    dates.datetime(t)
}

/// Turns records into line items for one file.
pub struct RowNormaliser<'a> {
    pub map: &'a ColumnMap,
    pub mark: DecimalMark,
    pub path: &'a str,
    /// The file's order of slashed dates, decided before its rows are read.
    pub dates: &'a date::DateScan,
}

impl RowNormaliser<'_> {
    /// Normalises one record. `line` is the 1-based line where it starts.
    pub fn row(&self, line: u64, rec: &::csv::ByteRecord) -> RowOutcome {
        self.row_reusing(line, rec, &mut Vec::new())
    }

    /// Like [`row`](Self::row), building the item in one taken from `spare`
    /// (items of rows already added to the bill, whose texts keep their
    /// capacity) when there is one: a reader allocates nothing per row.
    /// (The items are boxed because rows hand them on boxed.)
    #[allow(clippy::vec_box)]
    pub fn row_reusing(
        &self,
        line: u64,
        rec: &::csv::ByteRecord,
        spare: &mut Vec<Box<LineItem>>,
    ) -> RowOutcome {
        if rec
            .iter()
            .all(|f| f.iter().all(|b| b.is_ascii_whitespace()))
        {
            return RowOutcome::Skip(SkipReason::Blank, None);
        }
        // One cheap test per row; only an oversized row looks for the cell.
        if rec.as_slice().len() > MAX_CELL_BYTES {
            if let Some(i) = rec.iter().position(|f| f.len() > MAX_CELL_BYTES) {
                let len = rec.get(i).map_or(0, <[u8]>::len);
                let finding = self.finding(
                    line,
                    i,
                    format!(
                        "a cell of {len} bytes, longer than any bill cell can be (at most {} KiB); the file is probably damaged (an unclosed quote?)",
                        MAX_CELL_BYTES / 1024
                    ),
                );
                return RowOutcome::Skip(SkipReason::Unparsable, Some(*finding));
            }
        }
        match self.row_inner(line, rec, spare) {
            Ok(outcome) => outcome,
            Err(finding) => RowOutcome::Skip(SkipReason::Unparsable, Some(*finding)),
        }
    }

    fn text<'r>(
        &self,
        line: u64,
        rec: &'r ::csv::ByteRecord,
        i: usize,
    ) -> Result<&'r str, Box<Finding>> {
        let bytes = rec.get(i).unwrap_or_default();
        std::str::from_utf8(bytes).map_err(|e| {
            self.finding(
                line,
                i,
                format!(
                    "invalid UTF-8 at byte {} of the cell; the file was read as UTF-8 (use --encoding to choose another)",
                    e.valid_up_to() + 1
                ),
            )
        })
    }

    /// A cell's trimmed text, `None` when empty or a placeholder; no allocation.
    fn field_str<'r>(
        &self,
        line: u64,
        rec: &'r ::csv::ByteRecord,
        role: Role,
    ) -> Result<Option<&'r str>, Box<Finding>> {
        match self.map.get(role) {
            Some(i) => {
                let t = number::trim(self.text(line, rec, i)?);
                Ok((!number::is_placeholder(t)).then_some(t))
            }
            None => Ok(None),
        }
    }

    fn number(
        &self,
        line: u64,
        rec: &::csv::ByteRecord,
        role: Role,
    ) -> Result<Option<Decimal>, Box<Finding>> {
        let Some(i) = self.map.get(role) else {
            return Ok(None);
        };
        let t = self.text(line, rec, i)?;
        match parse_number(t, self.mark) {
            Ok(Cell::Value(d)) => Ok(Some(d)),
            Ok(Cell::Missing) => Ok(None),
            Err(e) => {
                // `20 hours`, `500 GB`: a quantity with its unit glued on.
                if role == Role::Quantity {
                    if let Some((q, _)) = split_quantity_unit(t, self.mark) {
                        return Ok(Some(q));
                    }
                }
                Err(self.finding(line, i, e.to_string()))
            }
        }
    }

    /// The currency of a row: its currency cell, else the header's.
    fn row_currency(
        &self,
        line: u64,
        rec: &::csv::ByteRecord,
    ) -> Result<Option<String>, Box<Finding>> {
        Ok(match self.field_str(line, rec, Role::Currency)? {
            Some(c) => Some(currency_of(c)),
            None => self.map.header_currency.clone(),
        })
    }

    /// Hash of the row's cells, leaving out its row-id columns.
    fn fingerprint(&self, rec: &::csv::ByteRecord) -> u64 {
        crate::model::record_fingerprint(rec, &self.map.row_ids)
    }

    fn finding(&self, line: u64, col: usize, message: String) -> Box<Finding> {
        let name = self.map.raw.get(col).map(|s| s.trim()).unwrap_or("?");
        Box::new(Finding {
            code: Check::UnparsableValue,
            severity: Severity::Error,
            message: format!("column `{name}`: {message}; the row is kept out of the totals"),
            path: self.path.to_string(),
            line: Some(line),
            accepted: None,
        })
    }

    #[allow(clippy::vec_box)]
    fn row_inner(
        &self,
        line: u64,
        rec: &::csv::ByteRecord,
        spare: &mut Vec<Box<LineItem>>,
    ) -> Result<RowOutcome, Box<Finding>> {
        let amount_col = self.map.get(Role::Amount).unwrap_or(0);
        let mut item = spare.pop().unwrap_or_else(|| {
            Box::new(LineItem::with_class_text(
                0,
                String::new(),
                Decimal::ZERO,
                Vec::new(),
            ))
        });
        // Gather the classification texts first: a `合计` row has its label there.
        let tiers = &mut item.class_text;
        tiers.truncate(self.map.class_tiers.len());
        tiers.resize_with(self.map.class_tiers.len(), Vec::new);
        for (tier, texts) in self.map.class_tiers.iter().zip(tiers.iter_mut()) {
            let mut used = 0;
            for &i in tier {
                let t = number::trim(self.text(line, rec, i)?);
                if !t.is_empty() && !number::is_placeholder(t) {
                    match texts.get_mut(used) {
                        Some(kept) => {
                            kept.clear();
                            kept.push_str(t);
                        }
                        None => texts.push(t.to_string()),
                    }
                    used += 1;
                }
            }
            texts.truncate(used);
        }
        let tiers = &item.class_text;
        // A summary row: its label is the first text before the amount (or
        // its first classification text), and every classification text is
        // a label of the same kind (empty, the label again, or its
        // translation: `Subtotal`, `小计`). A row with any other text is an item.
        let first_text = rec
            .iter()
            .take(amount_col)
            .filter_map(|f| std::str::from_utf8(f).ok())
            .map(str::trim)
            .find(|s| !s.is_empty())
            .or_else(|| tiers.iter().flatten().next().map(String::as_str));
        let summary = first_text
            .and_then(summary_label)
            .filter(|k| tiers.iter().flatten().all(|t| summary_label(t) == Some(*k)));

        let mut amount = match self.number(line, rec, Role::Amount)? {
            Some(a) => a,
            // A subtotal or total without a figure states nothing; a tax or
            // discount row without one is an item whose amount is missing.
            None if matches!(summary, Some(SummaryKind::Subtotal | SummaryKind::Total)) => {
                spare.push(item);
                return Ok(RowOutcome::Skip(SkipReason::Summary, None));
            }
            None => {
                spare.push(item);
                let name = self
                    .map
                    .raw
                    .get(amount_col)
                    .map(|s| s.trim())
                    .unwrap_or("?");
                return Ok(RowOutcome::Skip(
                    SkipReason::MissingAmount,
                    Some(Finding {
                        code: Check::MissingAmount,
                        severity: Severity::Warning,
                        message: format!(
                            "column `{name}` is empty or a placeholder; the row is kept out of the totals"
                        ),
                        path: self.path.to_string(),
                        line: Some(line),
                        accepted: None,
                    }),
                ));
            }
        };
        match summary {
            Some(kind @ (SummaryKind::Subtotal | SummaryKind::Total)) => {
                spare.push(item);
                let currency = self.row_currency(line, rec)?;
                return Ok(RowOutcome::Stated {
                    kind,
                    amount,
                    currency,
                });
            }
            // A discount stated as a positive figure is still taken off,
            // as on a text invoice.
            Some(SummaryKind::Credit) if amount > Decimal::ZERO => amount.set_sign_negative(true),
            _ => {}
        }

        // Every field is set below (`class_text` above, `rule` by the
        // classifier): the item may have been another row's.
        let LineItem {
            line: item_line,
            description,
            amount: item_amount,
            quantity,
            unit,
            unit_price,
            price_unit,
            list_amount,
            currency: _,
            start,
            end,
            date_proves,
            resource,
            fingerprint,
            class_text,
            forced,
            category,
            rule: _,
        } = &mut *item;
        *item_line = line;
        *item_amount = amount;
        description.clear();
        let all = || class_text.iter().flatten();
        for (k, t) in all().enumerate() {
            // Each distinct text once, in tier order.
            if !all().take(k).any(|u| u == t) {
                if !description.is_empty() {
                    description.push_str(" / ");
                }
                description.push_str(t);
            }
        }
        *quantity = self.number(line, rec, Role::Quantity)?;
        *unit_price = self.number(line, rec, Role::UnitPrice)?;
        *list_amount = self.number(line, rec, Role::ListAmount)?;
        put(unit, self.field_str(line, rec, Role::Unit)?);
        put(price_unit, self.field_str(line, rec, Role::PriceUnit)?);
        put(resource, self.field_str(line, rec, Role::ResourceId)?);
        *start = None;
        *end = None;
        *date_proves = None;
        *fingerprint = 0;
        *forced = None;
        *category = Category::Other;
        item.fingerprint = self.fingerprint(rec);
        if item.unit.is_none() {
            if let Some(i) = self.map.get(Role::Quantity) {
                let t = self.text(line, rec, i)?;
                item.unit = split_quantity_unit(t, self.mark).map(|(_, u)| u);
            }
        }
        match self.field_str(line, rec, Role::Currency)? {
            // Its own value: kept in the item's text, without a new one.
            Some(c) if header::is_iso_code(c) => put(&mut item.currency, Some(c)),
            Some(c) => item.currency = Some(currency_of(c)),
            None => put(&mut item.currency, self.map.header_currency.as_deref()),
        }
        if let Some(p) = self.field_str(line, rec, Role::Period)? {
            if let Some((s, e)) = self.dates.range(p) {
                item.start = Some(s);
                item.end = Some(e);
            }
        }
        for (role, slot) in [(Role::Start, &mut item.start), (Role::End, &mut item.end)] {
            if let Some(t) = self.field_str(line, rec, role)? {
                // Huawei writes a whole range where a start time is expected;
                // a plain time (every row of most exports) is tried first.
                match datetime(&self.map.date_formats, self.dates, t) {
                    Some(d) => *slot = Some(d),
                    None => {
                        if let Some((s, e)) = self.dates.range(t) {
                            *slot = Some(if role == Role::Start { s } else { e });
                        }
                    }
                }
            }
        }
        if item.start.is_none() {
            if let Some(t) = self.field_str(line, rec, Role::Date)? {
                match datetime(&self.map.date_formats, self.dates, t) {
                    Some(d) => item.start = Some(d),
                    None => {
                        if let Some((s, e)) = self.dates.range(t) {
                            item.start = Some(s);
                            item.end = item.end.or(Some(e));
                        }
                    }
                }
            }
        }
        // What the row's slashed dates prove about the file's order; the
        // ordering thread keeps the first such line (DateScan::note).
        for role in [Role::Period, Role::Start, Role::End, Role::Date] {
            if let Some(o) = self.field_str(line, rec, role)?.and_then(date::proves) {
                item.date_proves = Some(o);
                break;
            }
        }
        // A tax or credit summary row is a charge of that category, as a
        // text invoice's `Tax`/`Discount` line is.
        match summary {
            Some(SummaryKind::Tax) => item.forced = Some((Category::Tax, "summary-tax")),
            Some(SummaryKind::Credit) => item.forced = Some((Category::Credit, "summary-credit")),
            _ => {}
        }
        if item.forced.is_none() {
            for (i, marker) in &self.map.markers {
                let t = number::trim(self.text(line, rec, *i)?);
                if marker.matches(t) {
                    item.forced = Some((marker.category, marker.id));
                    break;
                }
            }
        }
        if let Some(col) = self.map.credit_list {
            let t = self.text(line, rec, col)?;
            let credits =
                parse_credit_list(t, self.mark).map_err(|e| self.finding(line, col, e))?;
            if !credits.is_empty() {
                let items = credits
                    .into_iter()
                    .map(|(name, amount)| {
                        let mut c = LineItem::new(line, format!("credit: {name}"), amount);
                        c.currency = item.currency.clone();
                        c.start = item.start;
                        c.end = item.end;
                        c.forced = Some((Category::Credit, "credit-list"));
                        c
                    })
                    .collect();
                return Ok(RowOutcome::WithCredits(item, items));
            }
        }
        Ok(RowOutcome::Item(item))
    }
}

/// A currency cell's value as a code: `USD`, `¥` -> `CNY`, else uppercased.
fn currency_of(c: &str) -> String {
    header::currency_value(c).unwrap_or_else(|| c.to_uppercase())
}

/// Sets a text field to `value`, reusing the text it holds.
fn put(slot: &mut Option<String>, value: Option<&str>) {
    match (slot.as_mut(), value) {
        (Some(kept), Some(v)) => {
            kept.clear();
            kept.push_str(v);
        }
        (_, v) => *slot = v.map(str::to_string),
    }
}

/// Reads a credits cell: `[]`, JSON `[{"name": "x", "amount": -1.23}]` or the
/// Python-style `[{'name': 'x', 'amount': -5e-06, 'full_name': None}]` that
/// flattened GCP exports carry. Returns `(name, amount)` per credit.
pub fn parse_credit_list(cell: &str, mark: DecimalMark) -> Result<Vec<(String, Decimal)>, String> {
    let t = cell.trim();
    if number::is_placeholder(t) || t == "[]" {
        return Ok(Vec::new());
    }
    if !(t.starts_with('[') && t.ends_with(']')) {
        return Err(format!(
            "`{}` is not a list of credits",
            t.chars().take(60).collect::<String>()
        ));
    }
    let mut out = Vec::new();
    for object in t.split('{').skip(1) {
        let amount = key_value(object, "amount")
            .ok_or_else(|| "a credit without an `amount`".to_string())?;
        let amount = match parse_number(amount, mark) {
            Ok(Cell::Value(d)) => d,
            Ok(Cell::Missing) => continue,
            Err(e) => return Err(format!("credit amount: {e}")),
        };
        let name = key_value(object, "name")
            .map(|n| n.trim_matches(['\'', '"']).to_string())
            .unwrap_or_else(|| "credit".into());
        out.push((name, amount));
    }
    Ok(out)
}

/// The raw value after `'key':` or `"key":` in one object of a credits list,
/// up to the next `,` or `}` outside quotes.
fn key_value<'a>(object: &'a str, key: &str) -> Option<&'a str> {
    let mut rest = object;
    loop {
        let i = rest.find(key)?;
        let before = rest[..i].chars().last();
        let after = &rest[i + key.len()..];
        let quoted = matches!(before, Some('\'' | '"'))
            && after.starts_with(['\'', '"'])
            && after[1..].trim_start().starts_with(':');
        if quoted {
            let value = after[1..].trim_start()[1..].trim_start();
            let end = match value.chars().next() {
                Some(q @ ('\'' | '"')) => value[1..].find(q).map(|j| j + 2)?,
                _ => value.find([',', '}']).unwrap_or(value.len()),
            };
            return Some(value[..end].trim());
        }
        rest = after;
    }
}

/// `20 hours` -> (20, "hours"); `500GB` -> (500, "GB").
pub fn split_quantity_unit(s: &str, mark: DecimalMark) -> Option<(Decimal, String)> {
    let t = s.trim();
    let end = t
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_digit() || matches!(c, '.' | ',' | '-' | '+')))
        .map(|(i, _)| i)?;
    if end == 0 {
        return None;
    }
    let (num, unit) = t.split_at(end);
    let unit = unit.trim();
    if unit.is_empty() || unit.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    match parse_number(num, mark) {
        Ok(Cell::Value(d)) => Some((d, unit.to_string())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credit_lists() {
        let py = "[{'name': 'FreeTrial:Credit-000000', 'amount': -5e-06, 'full_name': None, 'id': 'x', 'type': 'PROMOTION'}]";
        let c = parse_credit_list(py, DecimalMark::Dot).unwrap();
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].0, "FreeTrial:Credit-000000");
        assert_eq!(c[0].1.to_string(), "-0.000005");
        let js = r#"[{"name":"a","amount":-1.23},{"name":"b, c","amount":-0.5}]"#;
        let c = parse_credit_list(js, DecimalMark::Dot).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c[1].0, "b, c");
        assert!(
            parse_credit_list("[]", DecimalMark::Dot)
                .unwrap()
                .is_empty()
        );
        assert!(parse_credit_list("oops", DecimalMark::Dot).is_err());
        assert!(parse_credit_list("[{'name': 'x'}]", DecimalMark::Dot).is_err());
    }

    use crate::model::Category;
    use chrono::NaiveDateTime;
    use std::str::FromStr;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }
    fn at(s: &str) -> Option<NaiveDateTime> {
        Some(NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap())
    }
    fn strings(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }
    /// The generic profile's mapping of a header row.
    fn map(header: &[&str]) -> ColumnMap {
        let p = profile::generic();
        map_header(&p, &strings(header), &Vec::new(), CostBasis::Billed, false)
            .unwrap()
            .unwrap()
    }
    fn rec(cells: &[&str]) -> ::csv::ByteRecord {
        ::csv::ByteRecord::from(cells.to_vec())
    }
    /// One row through a normaliser of `map`, in a month-first file.
    fn run(map: &ColumnMap, line: u64, cells: &[&str]) -> RowOutcome {
        let dates = date::DateScan::default();
        let n = RowNormaliser {
            map,
            mark: DecimalMark::Dot,
            path: "bill.csv",
            dates: &dates,
        };
        n.row(line, &rec(cells))
    }
    fn item(o: RowOutcome) -> Box<LineItem> {
        match o {
            RowOutcome::Item(i) => i,
            other => panic!("expected an item, got {other:?}"),
        }
    }
    fn skip(o: RowOutcome) -> (SkipReason, Option<Finding>) {
        match o {
            RowOutcome::Skip(r, f) => (r, f),
            other => panic!("expected a skip, got {other:?}"),
        }
    }

    const HEADER: &[&str] = &[
        "Description",
        "Type",
        "Service",
        "Quantity",
        "Unit",
        "Currency",
        "Amount",
    ];

    #[test]
    fn a_row_becomes_an_item_with_every_field() {
        let m = map(HEADER);
        let i = item(run(
            &m,
            7,
            &["VM", "usage", "VM", "20", "hours", "eur", "12.30"],
        ));
        assert_eq!(i.line, 7);
        assert_eq!(i.amount.to_string(), "12.30");
        assert_eq!(i.quantity, Some(d("20")));
        assert_eq!(i.unit.as_deref(), Some("hours"));
        // `eur` is not an ISO code as written: mapped to `EUR`.
        assert_eq!(i.currency.as_deref(), Some("EUR"));
        // Tier 0 (Description, Type), tier 1 (Service); the description has
        // each distinct text once, in tier order.
        assert_eq!(
            i.class_text,
            vec![strings(&["VM", "usage"]), strings(&["VM"])]
        );
        assert_eq!(i.description, "VM / usage");
        assert_eq!(i.forced, None);
    }

    #[test]
    fn placeholders_are_not_texts_and_units_come_from_the_quantity() {
        let m = map(HEADER);
        // `-` and `N/A` are placeholders: no text, no unit, no currency cell
        // (the header gives none either).
        let i = item(run(
            &m,
            2,
            &["-", "N/A", "Compute", "20 hours", "", "¥", "1"],
        ));
        assert_eq!(
            i.class_text,
            vec![Vec::<String>::new(), strings(&["Compute"])]
        );
        assert_eq!(i.description, "Compute");
        // `20 hours`: the quantity with its unit glued on.
        assert_eq!(i.quantity, Some(d("20")));
        assert_eq!(i.unit.as_deref(), Some("hours"));
        // `¥` is a known name: CNY.
        assert_eq!(i.currency.as_deref(), Some("CNY"));
    }

    #[test]
    fn unreadable_cells_are_findings_naming_the_column() {
        let m = map(HEADER);
        let (reason, f) = skip(run(&m, 9, &["VM", "", "", "", "", "", "abc"]));
        assert_eq!(reason, SkipReason::Unparsable);
        let f = f.unwrap();
        assert_eq!(f.code, Check::UnparsableValue);
        assert_eq!(f.severity, Severity::Error);
        assert_eq!(f.path, "bill.csv");
        assert_eq!(f.line, Some(9));
        assert_eq!(
            f.message,
            "column `Amount`: `abc` is not a number; the row is kept out of the totals"
        );
        // A unit glued to the amount is not read (only quantities have units).
        let (reason, _) = skip(run(&m, 9, &["VM", "", "", "", "", "", "5 apples"]));
        assert_eq!(reason, SkipReason::Unparsable);
        // A missing amount is its own finding.
        let (reason, f) = skip(run(&m, 3, &["VM", "", "", "", "", "", "-"]));
        assert_eq!(reason, SkipReason::MissingAmount);
        let f = f.unwrap();
        assert_eq!(f.code, Check::MissingAmount);
        assert_eq!(
            f.message,
            "column `Amount` is empty or a placeholder; the row is kept out of the totals"
        );
        // A blank row.
        assert_eq!(
            skip(run(&m, 4, &["", " ", "", "", "", "", ""])).0,
            SkipReason::Blank
        );
    }

    #[test]
    fn summary_rows_are_stated_figures_or_forced_items() {
        let m = map(HEADER);
        match run(&m, 5, &["Subtotal", "", "", "", "", "USD", "100.00"]) {
            RowOutcome::Stated {
                kind,
                amount,
                currency,
            } => {
                assert_eq!(kind, SummaryKind::Subtotal);
                assert_eq!(amount, d("100.00"));
                assert_eq!(currency.as_deref(), Some("USD"));
            }
            other => panic!("{other:?}"),
        }
        // A subtotal without a figure states nothing.
        assert_eq!(
            skip(run(&m, 5, &["Subtotal", "", "", "", "", "", ""])),
            (SkipReason::Summary, None)
        );
        // `Subtotal` beside another text is an item.
        let i = item(run(&m, 5, &["Subtotal", "VM", "", "", "", "", "1"]));
        assert_eq!(i.forced, None);
        // Tax and discount rows are items of their category; a discount
        // written positive is taken off: 5 -> -5; zero stays a plain 0.
        let i = item(run(&m, 6, &["Tax", "", "", "", "", "", "8"]));
        assert_eq!(i.forced, Some((Category::Tax, "summary-tax")));
        assert_eq!(i.amount, d("8"));
        let i = item(run(&m, 6, &["Discount", "", "", "", "", "", "5"]));
        assert_eq!(i.forced, Some((Category::Credit, "summary-credit")));
        assert_eq!(i.amount, d("-5"));
        let i = item(run(&m, 6, &["Discount", "", "", "", "", "", "0"]));
        assert!(!i.amount.is_sign_negative());
        assert_eq!(summary_label("Total USD"), Some(SummaryKind::Total));
        assert_eq!(summary_label("Compute"), None);
    }

    #[test]
    fn a_header_currency_is_the_row_currency() {
        let m = map(&["Description", "Amount (USD)"]);
        match run(&m, 5, &["Total", "100.00"]) {
            RowOutcome::Stated { currency, .. } => assert_eq!(currency.as_deref(), Some("USD")),
            other => panic!("{other:?}"),
        }
        let i = item(run(&m, 6, &["VM", "1"]));
        assert_eq!(i.currency.as_deref(), Some("USD"));
    }

    #[test]
    fn dates_from_start_end_and_ranges() {
        let m = map(&["Description", "Start", "End", "Amount"]);
        // A whole range in the start and in the end cell (Huawei): the start
        // takes its first date, the end its second.
        let range = "2025-10-01 - 2025-10-31";
        let i = item(run(&m, 2, &["VM", range, range, "1"]));
        assert_eq!(i.start, at("2025-10-01 00:00:00"));
        assert_eq!(i.end, at("2025-10-31 00:00:00"));
        // A slashed date that proves day-first is read and remembered.
        let i = item(run(&m, 3, &["VM", "13/05/2024", "", "1"]));
        assert_eq!(i.start, at("2024-05-13 00:00:00"));
        assert_eq!(i.date_proves, Some(date::DateOrder::DayFirst));
    }

    #[test]
    fn fingerprints_tell_rows_apart_except_by_their_ids() {
        let m = map(&["Record ID", "Description", "Amount"]);
        let f = |cells: &[&str]| item(run(&m, 2, cells)).fingerprint;
        assert_eq!(f(&["1", "VM", "5"]), f(&["2", "VM", "5"]));
        assert_ne!(f(&["1", "VM", "5"]), f(&["1", "Disk", "5"]));
    }

    #[test]
    fn cells_up_to_256_kib_are_read() {
        let m = map(&["Description", "Amount"]);
        let max = "x".repeat(MAX_CELL_BYTES);
        assert_eq!(MAX_CELL_BYTES, 262_144);
        // Exactly 256 KiB, with another cell: read (the row is longer than
        // the limit, no cell is).
        let i = item(run(&m, 2, &[&max, "1"]));
        assert_eq!(i.description.len(), 262_144);
        // 2000 bytes: far from the limit.
        assert!(matches!(
            run(&m, 2, &[&"y".repeat(2000), "1"]),
            RowOutcome::Item(_)
        ));
        // One byte more: a finding on that cell.
        let over = format!("{max}x");
        let (reason, f) = skip(run(&m, 2, &[&over, "1"]));
        assert_eq!(reason, SkipReason::Unparsable);
        assert!(
            f.unwrap().message.starts_with(
                "column `Description`: a cell of 262145 bytes, longer than any bill cell can be (at most 256 KiB)"
            )
        );
    }

    #[test]
    fn credit_list_columns_split_a_row() {
        let mut m = map(&["Description", "Amount", "Credits"]);
        m.credit_list = Some(2);
        assert!(matches!(
            run(&m, 2, &["VM", "5", "[]"]),
            RowOutcome::Item(_)
        ));
        match run(&m, 2, &["VM", "5", "[{'name': 'promo', 'amount': -1.5}]"]) {
            RowOutcome::WithCredits(i, c) => {
                assert_eq!(i.amount, d("5"));
                assert_eq!(c.len(), 1);
                assert_eq!(c[0].description, "credit: promo");
                assert_eq!(c[0].amount, d("-1.5"));
                assert_eq!(c[0].forced, Some((Category::Credit, "credit-list")));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn detect_header_respects_skip_rows() {
        let header = strings(&["Description", "Amount"]);
        let g = [profile::generic()];
        let found = detect_header(&g, &header, 1, &Vec::new(), CostBasis::Billed, false);
        assert_eq!(
            found.map(|(p, m)| (p.name.clone(), m.unwrap().get(Role::Amount))),
            Some(("generic-csv".into(), Some(1)))
        );
        let mut skipping = profile::generic();
        skipping.skip_rows = 2;
        let s = [skipping];
        assert!(detect_header(&s, &header, 2, &Vec::new(), CostBasis::Billed, false).is_none());
        assert!(detect_header(&s, &header, 3, &Vec::new(), CostBasis::Billed, false).is_some());
    }

    #[test]
    fn credit_list_edges() {
        let dot = DecimalMark::Dot;
        // Empty or placeholder cells: no credits.
        assert_eq!(parse_credit_list("", dot), Ok(Vec::new()));
        assert_eq!(parse_credit_list("-", dot), Ok(Vec::new()));
        // A list needs both brackets.
        assert!(parse_credit_list("[oops", dot).is_err());
        assert!(parse_credit_list("oops]", dot).is_err());
        // `amount` inside another key is not the amount: -2, not -3.
        let c = parse_credit_list("[{'name': 'x', 'my_amount': -3, 'amount': -2}]", dot).unwrap();
        assert_eq!(c, vec![("x".to_string(), d("-2"))]);
        let c = parse_credit_list("[{'name': 'xamount :1', 'amount': -2}]", dot).unwrap();
        assert_eq!(c, vec![("xamount :1".to_string(), d("-2"))]);
        // Quoted names keep their commas.
        let c = parse_credit_list(r#"[{"name": "a, b", "amount": -0.5}]"#, dot).unwrap();
        assert_eq!(c, vec![("a, b".to_string(), d("-0.5"))]);
    }

    #[test]
    fn quantities_with_units() {
        let dot = DecimalMark::Dot;
        assert_eq!(
            split_quantity_unit("500GB", dot),
            Some((d("500"), "GB".into()))
        );
        assert_eq!(
            split_quantity_unit(" 1,000.5 hours ", dot),
            Some((d("1000.5"), "hours".into()))
        );
        assert_eq!(split_quantity_unit("20 h2", dot), None);
        assert_eq!(split_quantity_unit("GB 20", dot), None);
        assert_eq!(split_quantity_unit("20", dot), None);
        assert_eq!(split_quantity_unit("1-2 x", dot), None);
    }

    proptest::proptest! {
        #[test]
        fn credit_lists_never_panic(s in "\\PC{0,80}", t in "[\\[\\]{}'\":, a-z0-9.eE-]{0,60}") {
            let _ = parse_credit_list(&s, DecimalMark::Dot);
            let _ = parse_credit_list(&format!("[{{{t}}}]"), DecimalMark::Dot);
            let _ = parse_credit_list(&format!("[{{'amount': {t}"), DecimalMark::Dot);
        }
    }
}
