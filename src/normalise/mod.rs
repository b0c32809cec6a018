//! Stage 2: records -> line items. Finds the header, maps columns to roles,
//! reads numbers, currencies and dates. Every data row ends as exactly one
//! [`RowOutcome`]: an item, a stated total, or a counted skip.
//! [`text`] does the same for text invoices: its grammar turns invoice lines
//! into line items.

pub(crate) mod block;
mod credit_column;
mod credit_list;
pub mod date;
pub(crate) mod header;
pub(crate) mod infer;
pub mod number;
pub mod profile;
pub mod profiles;
mod project;
pub mod ragged;
mod summary_row;
mod tax_column;
pub(crate) mod terms;
pub mod text;

use rust_decimal::Decimal;

use crate::model::{CREDIT_LIST_RULE, Category, Cells};
use crate::model::{Check, Finding, LineItem, Severity};
use crate::vocab::summary::{self, SummaryKind};
use number::{Cell, DecimalMark, parse_number};
use profile::{ColumnMap, ColumnOverrides, CostBasis, MissingColumns, Profile, Role, map_header};

pub use credit_list::parse_credit_list;
pub use summary_row::summary_of_row;

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
        /// A subtotal from the gross column, less the lines' tax (`gross_only`).
        less_tax: bool,
    },
    /// A finding about the row whose outcome follows (`ragged-row`:
    /// [`RowNormaliser::mend`]) and the row's shape (rows of one shape are
    /// one finding); not a row itself, counted nowhere.
    Remark(Box<Finding>, Box<str>),
    /// A tax or discount summary row without a figure (`VAT` and an empty
    /// amount): a `summary` skip the report names in a note, not a
    /// `missing-amount` (`summary_row::without_figure`).
    Unstated {
        kind: SummaryKind,
        label: String,
    },
    /// Money put into the account (`充值`), not a charge (`summary_row::top_up`).
    TopUp(String),
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

/// Exact values that a reader decoded for some cells of a row (a Parquet
/// DECIMAL or integer column), read instead of the cells' texts, which the
/// record then need not hold (docs/decisions.md, "Parquet: columns, money
/// and the duplicate key").
pub trait Figures {
    /// Column `i`'s value: `None` when the reader has none (the cell's text
    /// is read), `Some(None)` for a null.
    fn figure(&self, i: usize) -> Option<Option<Decimal>>;
}

/// No figures: every cell is read from its text.
impl Figures for () {
    fn figure(&self, _: usize) -> Option<Option<Decimal>> {
        None
    }
}

/// Turns records into line items for one file.
pub struct RowNormaliser<'a> {
    pub map: &'a ColumnMap,
    pub mark: DecimalMark,
    pub path: &'a str,
    /// The file's order of slashed dates, decided before its rows are read.
    pub dates: &'a date::DateScan,
    /// The delimiter the cells were split at (`,` for a Parquet file): a
    /// row wider than its header joins split cells with it ([`ragged`]).
    pub delimiter: u8,
}

impl RowNormaliser<'_> {
    /// Normalises one record. `line` is the 1-based line where it starts.
    pub fn row<C: Cells + ?Sized>(&self, line: u64, rec: &C) -> RowOutcome {
        self.row_reusing(line, rec, &mut Vec::new())
    }

    /// Like [`row`](Self::row), building the item in one taken from `spare`
    /// (items of rows already added to the bill, whose texts keep their
    /// capacity) when there is one: a reader allocates nothing per row.
    /// (The items are boxed because rows hand them on boxed.)
    #[allow(clippy::vec_box)]
    pub fn row_reusing<C: Cells + ?Sized>(
        &self,
        line: u64,
        rec: &C,
        spare: &mut Vec<Box<LineItem>>,
    ) -> RowOutcome {
        self.row_with(line, rec, &(), spare)
    }

    /// Like [`row_reusing`](Self::row_reusing), with the values of
    /// `figures` for the cells it has ([`Figures`]).
    #[allow(clippy::vec_box)]
    pub fn row_with<C: Cells + ?Sized, F: Figures + ?Sized>(
        &self,
        line: u64,
        rec: &C,
        figures: &F,
        spare: &mut Vec<Box<LineItem>>,
    ) -> RowOutcome {
        if rec
            .iter()
            .all(|f| f.iter().all(|b| b.is_ascii_whitespace()))
        {
            return RowOutcome::Skip(SkipReason::Blank, None);
        }
        // One cheap test per row; only an oversized row looks for the cell.
        if let Some(i) = rec.cell_over(MAX_CELL_BYTES) {
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
        match self.row_inner(line, rec, figures, spare) {
            Ok(outcome) => outcome,
            Err(finding) => RowOutcome::Skip(SkipReason::Unparsable, Some(*finding)),
        }
    }

    fn text<'r, C: Cells + ?Sized>(
        &self,
        line: u64,
        rec: &'r C,
        i: usize,
    ) -> Result<&'r str, Box<Finding>> {
        rec.text(i).unwrap_or(Ok("")).map_err(|e| {
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
    fn field_str<'r, C: Cells + ?Sized>(
        &self,
        line: u64,
        rec: &'r C,
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

    /// [`Self::number`], except that on a summary row a cell holding a
    /// summary label is that label, not a figure: vendors print the label
    /// in whichever column stands left of the amount (`;;IVA 21%;12,81`).
    fn figure<C: Cells + ?Sized, F: Figures + ?Sized>(
        &self,
        line: u64,
        rec: &C,
        figures: &F,
        role: Role,
        summary: Option<SummaryKind>,
    ) -> Result<Option<Decimal>, Box<Finding>> {
        if summary.is_some() {
            if let Some(i) = self.map.get(role) {
                if summary_label(number::trim(self.text(line, rec, i)?)).is_some() {
                    return Ok(None);
                }
            }
        }
        self.number(line, rec, figures, role)
    }

    fn number<C: Cells + ?Sized, F: Figures + ?Sized>(
        &self,
        line: u64,
        rec: &C,
        figures: &F,
        role: Role,
    ) -> Result<Option<Decimal>, Box<Finding>> {
        let Some(i) = self.map.get(role) else {
            return Ok(None);
        };
        if let Some(value) = figures.figure(i) {
            return Ok(value);
        }
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

    /// The row's commitment and contract cells ([`terms`]); `None` for a
    /// file without such columns. A figure that is not a number is an
    /// `unparsable-value`, as in any other money column. A money term's
    /// value is taken from `figures` when it has one (a Parquet DECIMAL),
    /// as the amount's is.
    fn terms<C: Cells + ?Sized, F: Figures + ?Sized>(
        &self,
        line: u64,
        rec: &C,
        figures: &F,
        reuse: Option<Box<crate::model::Terms>>,
    ) -> Result<Option<Box<crate::model::Terms>>, Box<Finding>> {
        if self.map.terms.is_empty() {
            return Ok(None);
        }
        terms::read(&self.map.terms, reuse, |i, figure| {
            if figure {
                if let Some(value) = figures.figure(i) {
                    return Ok(value.map(terms::TermCell::Figure));
                }
            }
            let t = number::trim(self.text(line, rec, i)?);
            if t.is_empty() || number::is_placeholder(t) {
                return Ok(None);
            }
            if !figure {
                return Ok(Some(terms::TermCell::Text(t)));
            }
            match parse_number(t, self.mark) {
                Ok(Cell::Value(d)) => Ok(Some(terms::TermCell::Figure(d))),
                Ok(Cell::Missing) => Ok(None),
                Err(e) => Err(self.finding(line, i, e.to_string())),
            }
        })
    }

    /// The currency of a row: its currency cell, else the header's.
    fn row_currency<C: Cells + ?Sized>(
        &self,
        line: u64,
        rec: &C,
    ) -> Result<Option<String>, Box<Finding>> {
        Ok(match self.field_str(line, rec, Role::Currency)? {
            Some(c) => Some(self.currency_of(line, c)?),
            None => self.map.header_currency.clone(),
        })
    }

    /// A currency cell's value as a code ([`header::currency_cell`]); a cell
    /// that names no currency is an unparsable value on its line.
    fn currency_of(&self, line: u64, c: &str) -> Result<String, Box<Finding>> {
        let col = self.map.get(Role::Currency).unwrap_or(usize::MAX);
        header::currency_cell(c).map_err(|m| self.finding(line, col, m))
    }

    /// Hash of the row's cells, leaving out its row-id columns: the
    /// reader's own ([`Cells::fingerprint`]) or [`record_fingerprint`].
    ///
    /// [`record_fingerprint`]: crate::model::record_fingerprint
    fn fingerprint<C: Cells + ?Sized>(&self, rec: &C) -> u64 {
        let skip = &self.map.row_ids;
        rec.fingerprint(skip)
            .unwrap_or_else(|| crate::model::record_fingerprint(rec, skip))
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

    /// The outcome of a row that its record-type cell ([`profile::RecordKind`])
    /// keeps out of the items: a stated total, or a restating row (a
    /// `summary` skip). `None` for an item.
    fn by_record_type<C: Cells + ?Sized, F: Figures + ?Sized>(
        &self,
        line: u64,
        rec: &C,
        figures: &F,
    ) -> Result<Option<RowOutcome>, Box<Finding>> {
        Ok(match self.map.record_kind(rec) {
            profile::RecordKind::Item => None,
            profile::RecordKind::Restated => Some(RowOutcome::Skip(SkipReason::Summary, None)),
            profile::RecordKind::Total => {
                Some(match self.number(line, rec, figures, Role::Amount)? {
                    Some(amount) => RowOutcome::Stated {
                        kind: SummaryKind::Total,
                        amount,
                        currency: self.row_currency(line, rec)?,
                        less_tax: false,
                    },
                    None => RowOutcome::Skip(SkipReason::Summary, None),
                })
            }
        })
    }

    #[allow(clippy::vec_box)]
    fn row_inner<C: Cells + ?Sized, F: Figures + ?Sized>(
        &self,
        line: u64,
        rec: &C,
        figures: &F,
        spare: &mut Vec<Box<LineItem>>,
    ) -> Result<RowOutcome, Box<Finding>> {
        let amount_col = self.map.get(Role::Amount).unwrap_or(0);
        if let Some(outcome) = self.by_record_type(line, rec, figures)? {
            return Ok(outcome);
        }
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
        let summary = summary_of_row(rec, amount_col, tiers);
        if let Some(top_up) = summary_row::top_up(summary, tiers) {
            spare.push(item);
            return Ok(top_up);
        }
        // A summary row may have its figure only in the gross column
        // (`VAT,,7.40` under `Net, Total`: `tax_column::gross_only`).
        let (net, less_tax) = match self.number(line, rec, figures, Role::Amount)? {
            None => (self.gross_only((line, rec, figures), summary)?, true),
            net => (net, false),
        };
        let mut amount = match net {
            Some(a) => a,
            // A summary row without a figure states nothing.
            None if summary.is_some() => {
                let outcome = summary_row::without_figure(summary, tiers);
                spare.push(item);
                return Ok(outcome);
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
        // The row's own tax cell, or gross - net (`tax_column`).
        let tax = self.row_tax((line, rec, figures), summary, amount)?;
        match summary {
            Some(kind @ (SummaryKind::Subtotal | SummaryKind::Total)) => {
                spare.push(item);
                let currency = self.row_currency(line, rec)?;
                // A stated figure with a tax cell: the total is the row's
                // amount with its tax, the subtotal without it.
                if let Some(t) = tax.map(|t| t.amount) {
                    let gross = self.amount_is_gross();
                    amount = match kind {
                        SummaryKind::Total if !gross => amount.checked_add(t).unwrap_or(amount),
                        SummaryKind::Subtotal if gross => amount.checked_sub(t).unwrap_or(amount),
                        _ => amount,
                    };
                }
                return Ok(RowOutcome::Stated {
                    kind,
                    amount,
                    currency,
                    less_tax: less_tax && kind == SummaryKind::Subtotal,
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
            terms,
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
        *quantity = self.figure(line, rec, figures, Role::Quantity, summary)?;
        *unit_price = self.figure(line, rec, figures, Role::UnitPrice, summary)?;
        *list_amount = self.figure(line, rec, figures, Role::ListAmount, summary)?;
        put(unit, self.field_str(line, rec, Role::Unit)?);
        put(price_unit, self.field_str(line, rec, Role::PriceUnit)?);
        put(resource, self.field_str(line, rec, Role::ResourceId)?);
        *start = None;
        *end = None;
        *date_proves = None;
        *fingerprint = 0;
        *forced = None;
        *category = Category::Other;
        *terms = self.terms(line, rec, figures, terms.take())?;
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
            Some(c) => item.currency = Some(self.currency_of(line, c)?),
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
        let mut parts = Vec::new();
        // A credit inside the amount (aws-monthly `Credits`), then the tax.
        parts.extend(self.credit_part((line, rec, figures), summary, &mut item)?);
        if let Some(t) = tax {
            parts.push(self.split_tax(&mut item, t));
        }
        if let Some(col) = self.map.credit_list {
            let t = self.text(line, rec, col)?;
            let credits =
                parse_credit_list(t, self.mark).map_err(|e| self.finding(line, col, e))?;
            parts.extend(credits.into_iter().map(|(name, amount)| {
                let credit = (Category::Credit, CREDIT_LIST_RULE);
                LineItem::beside(&item, format!("credit: {name}"), amount, credit)
            }));
        }
        if parts.is_empty() {
            Ok(RowOutcome::Item(item))
        } else {
            Ok(RowOutcome::WithCredits(item, parts))
        }
    }
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
mod tests;
