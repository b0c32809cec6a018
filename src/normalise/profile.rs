//! Profiles: what a bill format's columns mean, as data.
//!
//! A profile is a table of header aliases per [`Role`], the columns used for
//! classification (in priority tiers), the columns that must never be summed
//! (payment splits), and markers that decide a category from a column value.
//! Adding a provider means adding a table, not control flow.

use crate::model::Category;
use crate::normalise::header::{NormHeader, normalise_header};
use crate::normalise::number::DecimalMark;

mod role;

pub use role::Role;

/// A column value that decides the category outright.
#[derive(Debug, Clone)]
pub struct Marker {
    /// Normalised header name.
    pub column: String,
    /// Lowercase values that trigger it. A value written `*discount` matches
    /// any value ending in `discount` (AWS `EdpDiscount`, `BundledDiscount`);
    /// `退款*` any value starting with `退款` (Huawei `退款-退订`).
    pub values: Vec<String>,
    pub category: Category,
    pub id: &'static str,
}

impl Marker {
    /// Whether a cell (already trimmed) triggers the marker. Values are
    /// lowercase; the cell is compared ASCII-case-insensitively (non-ASCII
    /// text is compared as it is), without allocating.
    pub fn matches(&self, cell: &str) -> bool {
        let eq = |a: &str, b: &str| a.len() == b.len() && a.eq_ignore_ascii_case(b);
        self.values.iter().any(|v| {
            if let Some(suffix) = v.strip_prefix('*') {
                cell.len() >= suffix.len()
                    && cell.is_char_boundary(cell.len() - suffix.len())
                    && eq(&cell[cell.len() - suffix.len()..], suffix)
            } else if let Some(prefix) = v.strip_suffix('*') {
                cell.is_char_boundary(prefix.len().min(cell.len()))
                    && cell.len() >= prefix.len()
                    && eq(&cell[..prefix.len()], prefix)
            } else {
                eq(cell, v)
            }
        })
    }
}

/// What a record-type column says a row is (the AWS Detailed Billing
/// Report's `RecordType`: `LinkedLineItem`, `StatementTotal`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordKind {
    /// A charge: a line item.
    Item,
    /// The figure the bill states for all its items (`StatementTotal`):
    /// checked against them (`total-mismatch`), never summed.
    Total,
    /// A row that restates rows counted elsewhere in the file (a per-account
    /// or per-invoice total, a payer's aggregate of itemised rows): a counted
    /// `summary` skip, never summed.
    Restated,
}

/// A profile's record-type column and what each of its values makes a row.
/// A value not listed is an item (it is money the bill shows).
#[derive(Debug, Clone, Default)]
pub struct RecordTypes {
    /// Normalised header name.
    pub column: String,
    /// Lowercase values and their kind.
    pub kinds: Vec<(String, RecordKind)>,
}

impl RecordTypes {
    /// The kind of a row whose record-type cell is `cell` (compared
    /// ASCII-case-insensitively, trimmed).
    pub fn kind(&self, cell: &str) -> RecordKind {
        let t = cell.trim();
        self.kinds
            .iter()
            .find(|(v, _)| v.eq_ignore_ascii_case(t))
            .map_or(RecordKind::Item, |(_, k)| *k)
    }
}

/// Which cost a profile reads as the amount (`--cost`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CostBasis {
    /// What is invoiced (FOCUS `BilledCost`); the default everywhere.
    #[default]
    Billed,
    /// Amortised cost after commitments (FOCUS `EffectiveCost`).
    Effective,
    /// Public list price (FOCUS `ListCost`).
    List,
    /// Negotiated price before commitments (FOCUS `ContractedCost`).
    Contracted,
}

impl CostBasis {
    pub const ALL: [CostBasis; 4] = [
        CostBasis::Billed,
        CostBasis::Effective,
        CostBasis::List,
        CostBasis::Contracted,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            CostBasis::Billed => "billed",
            CostBasis::Effective => "effective",
            CostBasis::List => "list",
            CostBasis::Contracted => "contracted",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Profile {
    pub name: String,
    pub summary: String,
    /// Aliases per role, in priority order: the first alias present wins.
    pub columns: Vec<(Role, Vec<String>)>,
    /// Classification columns, in tiers tried one after another.
    pub class_tiers: Vec<Vec<String>>,
    /// Money columns that only say how a charge was paid; never summed.
    pub ignored: Vec<String>,
    pub markers: Vec<Marker>,
    pub decimal_mark: Option<DecimalMark>,
    /// The cost column as users know it, for `billaudit profiles` and messages.
    pub cost_column: String,
    /// Columns that identify the format: a header is this profile's when at
    /// least `signature_min` of them are present. Empty: recognised by its
    /// amount column alone (the generic profile).
    pub signature: Vec<String>,
    pub signature_min: usize,
    /// Columns the format cannot be audited without. Each entry lists
    /// alternatives (first = the name shown in errors). The amount column is
    /// always required.
    pub required: Vec<Vec<String>>,
    /// Other cost columns a user may pick with `--cost`.
    pub costs: Vec<(CostBasis, String)>,
    /// A column holding a list of credits (GCP `credits`): each amount
    /// becomes its own `credit` line item.
    pub credit_list: Option<String>,
    /// Header prefixes of tag columns (`标签键:`): never mapped to a role.
    pub tag_prefixes: Vec<String>,
    /// A record-type column whose values say which rows are items, which
    /// the stated total, and which restate others (AWS DBR `RecordType`).
    pub record_types: Option<RecordTypes>,
    /// Column names as the format spells them, for messages.
    pub display: Vec<String>,
    /// chrono formats tried on date cells before the built-in ones (a user
    /// profile's `date-formats`, e.g. `%d.%m.%Y %H:%M`).
    pub date_formats: Vec<String>,
    /// The order of slashed dates (a user profile's `date-order`); decided
    /// per file from its dates when `None`.
    pub date_order: Option<crate::normalise::date::DateOrder>,
    /// Rows at the top that are never taken for the header (a user
    /// profile's `skip`).
    pub skip_rows: usize,
    /// The amount includes the tax of the tax column (AWS monthly report's
    /// `TotalCost` beside `TaxAmount`): the tax is taken out of the charge.
    pub amount_includes_tax: bool,
    /// Commitment and contract columns, aliases per term (`super::terms`).
    pub terms: Vec<(super::terms::Term, Vec<String>)>,
}

fn v(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| normalise_header(s).name).collect()
}

/// The generic profile: any CSV whose headers use the common names of
/// `crate::vocab::headers` (English, Chinese, German, French, Spanish,
/// Japanese).
pub fn generic() -> Profile {
    use crate::vocab::headers as h;
    let cat = |lists: &[&[&str]]| v(&lists.concat());
    Profile {
        name: "generic-csv".into(),
        summary:
            "any CSV with common column names (English, Chinese, German, French, Spanish, Japanese)"
                .into(),
        columns: vec![
            (Role::Description, cat(&[h::DESCRIPTION, h::SERVICE])),
            (Role::Amount, v(h::AMOUNT)),
            (Role::Quantity, v(h::QUANTITY)),
            (Role::Unit, v(h::UNIT)),
            (Role::PriceUnit, v(h::PRICE_UNIT)),
            (Role::UnitPrice, v(h::UNIT_PRICE)),
            (Role::ListAmount, v(h::LIST_AMOUNT)),
            (Role::Currency, v(h::CURRENCY)),
            (Role::Date, v(h::DATE)),
            (Role::Start, v(h::START)),
            (Role::End, v(h::END)),
            (Role::Period, v(h::PERIOD)),
            (Role::ResourceId, v(h::RESOURCE_ID)),
            (Role::Tax, v(h::TAX)),
            (Role::Gross, v(h::GROSS)),
        ],
        class_tiers: vec![
            cat(&[h::DESCRIPTION, h::LINE_KIND]),
            cat(&[h::SERVICE, h::SERVICE_KIND]),
        ],
        ignored: v(h::PAYMENT_SPLITS),
        markers: Vec::new(),
        decimal_mark: None,
        cost_column: "Amount / Cost / 应付金额 / ...".into(),
        signature: Vec::new(),
        signature_min: 0,
        required: Vec::new(),
        costs: Vec::new(),
        credit_list: None,
        tag_prefixes: Vec::new(),
        record_types: None,
        display: Vec::new(),
        date_formats: Vec::new(),
        date_order: None,
        skip_rows: 0,
        amount_includes_tax: false,
        terms: Vec::new(),
    }
}

/// How one file's header maps onto roles.
#[derive(Debug, Clone, Default)]
pub struct ColumnMap {
    /// The profile's own date formats, tried first.
    pub date_formats: Vec<String>,
    /// The profile's order of slashed dates, when it states one.
    pub date_order: Option<crate::normalise::date::DateOrder>,
    pub roles: RoleMap,
    pub class_tiers: Vec<Vec<usize>>,
    pub markers: Vec<(usize, Marker)>,
    /// Currency named by a money header's suffix, e.g. `应付金额(¥)`.
    pub header_currency: Option<String>,
    /// The column whose header named [`header_currency`](Self::header_currency).
    pub header_currency_column: Option<usize>,
    /// Normalised header names, by column index.
    pub names: Vec<String>,
    /// Raw header cells, by column index (for messages).
    pub raw: Vec<String>,
    /// The column of a credits list (GCP `credits`).
    pub credit_list: Option<usize>,
    /// Columns that number the rows themselves (AWS `identity/LineItemId`,
    /// OCI `lineItem/referenceNo`, `交易ID`): left out of a row's
    /// fingerprint, which `duplicate-line` compares.
    pub row_ids: Vec<usize>,
    /// The record-type column and its table, when the profile has one.
    pub record_type: Option<(usize, RecordTypes)>,
    /// The commitment and contract columns found (`super::terms`).
    pub terms: Vec<(super::terms::Term, usize)>,
    /// The profile says the amount includes the tax column's tax.
    pub amount_includes_tax: bool,
}

/// Headers (lowercase, normalised) of columns that give each row its own id.
pub const ROW_ID_HEADERS: &[&str] = &[
    "identity/lineitemid",
    // CUR 2.0's name for it (issue 28: a repeat under a fresh id was missed).
    "identity_line_item_id",
    "lineitem/referenceno",
    "line_item_id",
    "交易id",
    "订单号",
    "订单id",
    "订单号/账单号",
    "流水号",
    "record id",
    "recordid",
];

/// The indexes of `ROW_ID_HEADERS` columns among normalised header names.
pub fn row_id_columns(names: &[String]) -> Vec<usize> {
    names
        .iter()
        .enumerate()
        .filter(|(_, n)| ROW_ID_HEADERS.contains(&n.to_lowercase().as_str()))
        .map(|(i, _)| i)
        .collect()
}

/// The column of each role: a fixed array (looked up on every row).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoleMap([Option<usize>; Role::ALL.len()]);

impl RoleMap {
    pub fn get(&self, role: &Role) -> Option<&usize> {
        self.0[*role as usize].as_ref()
    }

    pub fn insert(&mut self, role: Role, column: usize) -> Option<usize> {
        self.0[role as usize].replace(column)
    }

    pub fn remove(&mut self, role: Role) -> Option<usize> {
        self.0[role as usize].take()
    }

    /// Gives `column` to `role` and to it alone (a column is one role, as
    /// a `--columns` override says): returns the roles that gave it up.
    pub fn assign(&mut self, role: Role, column: usize) -> Vec<Role> {
        let others: Vec<Role> = self
            .iter()
            .filter(|(r, c)| **c == column && **r != role)
            .map(|(r, _)| *r)
            .collect();
        for r in &others {
            self.remove(*r);
        }
        self.insert(role, column);
        others
    }

    pub fn len(&self) -> usize {
        self.0.iter().flatten().count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `(role, column)` pairs, in role order.
    pub fn iter(&self) -> impl Iterator<Item = (&Role, &usize)> {
        Role::ALL
            .iter()
            .zip(self.0.iter())
            .filter_map(|(r, c)| c.as_ref().map(|c| (r, c)))
    }
}

impl ColumnMap {
    pub fn get(&self, role: Role) -> Option<usize> {
        self.roles.get(&role).copied()
    }

    /// The header of `role`'s column as the file writes it (trimmed), for
    /// the items and messages that name it.
    pub fn header_of(&self, role: Role) -> Option<&str> {
        self.get(role)
            .and_then(|i| self.raw.get(i))
            .map(|s| s.trim())
    }

    /// What a row is by its record-type cell ([`RecordTypes`]); an item when
    /// the profile has no record-type column or the cell is not UTF-8 (the
    /// row's other cells then report that).
    pub fn record_kind<C: crate::model::Cells + ?Sized>(&self, rec: &C) -> RecordKind {
        match &self.record_type {
            Some((i, types)) => rec
                .text(*i)
                .and_then(Result::ok)
                .map_or(RecordKind::Item, |t| types.kind(t)),
            None => RecordKind::Item,
        }
    }

    /// What the report says about a file without a currency column: the
    /// currency a header suffix gave instead, or that there is none.
    /// `None` when a column states each row's currency.
    /// The currency the headers name (`Amount (USD)`, `Betrag CHF`): the
    /// amount column's, else the first header's that names one.
    pub(crate) fn set_header_currency(&mut self, norm: &[NormHeader], amount: usize) {
        self.header_currency_column = if norm.get(amount).is_some_and(|h| h.currency.is_some()) {
            Some(amount)
        } else {
            norm.iter().position(|h| h.currency.is_some())
        };
        self.header_currency = self
            .header_currency_column
            .and_then(|i| norm[i].currency.clone());
    }

    pub fn currency_note(&self) -> Option<String> {
        if self.get(Role::Currency).is_some() {
            return None;
        }
        let header = self.header_currency_column.and_then(|i| self.raw.get(i));
        Some(match (&self.header_currency, header) {
            (Some(c), Some(h)) => {
                format!(
                    "no currency column; assumed {c} from the header `{}`",
                    h.trim()
                )
            }
            _ => "no currency column and no currency in the headers; the currency is unknown"
                .to_string(),
        })
    }

    /// A description of the mapping, for error messages: `amount=应付金额(¥), ...`.
    pub fn describe(&self) -> String {
        let mut parts: Vec<(Role, usize)> = self.roles.iter().map(|(r, i)| (*r, *i)).collect();
        parts.sort();
        parts
            .iter()
            .map(|(r, i)| {
                format!(
                    "{}={}",
                    r.as_str(),
                    self.raw.get(*i).map(|s| s.trim()).unwrap_or("?")
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Hand-made mapping from `--columns amount=Cost,description=Item`.
pub type ColumnOverrides = Vec<(Role, String)>;

/// Why a header row that looks like a profile's cannot be audited with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingColumns {
    pub profile: String,
    /// The missing columns, as users know them (`BilledCost`, `lineItem/UnblendedCost`).
    pub columns: Vec<String>,
}

/// The names of the header cells, with tag columns blanked out so that no
/// alias ever matches them.
fn header_names(profile: &Profile, norm: &[NormHeader]) -> Vec<String> {
    norm.iter()
        .map(|h| {
            if profile
                .tag_prefixes
                .iter()
                .any(|p| h.name.starts_with(p.as_str()))
            {
                String::new()
            } else {
                h.name.clone()
            }
        })
        .collect()
}

/// An alias ending in `*` is a prefix (`x_*` for FOCUS extension columns).
fn alias_positions(names: &[String], alias: &str) -> Vec<usize> {
    match alias.strip_suffix('*') {
        Some(prefix) => names
            .iter()
            .enumerate()
            .filter(|(_, n)| !n.is_empty() && n.starts_with(prefix))
            .map(|(i, _)| i)
            .collect(),
        // A cell of one name first; a bilingual cell (`Leistung / Service`)
        // by one of its names only when no cell is the name itself.
        None => names
            .iter()
            .position(|n| n == alias)
            .or_else(|| {
                names
                    .iter()
                    .position(|n| super::header::translations(n).any(|t| t == alias))
            })
            .into_iter()
            .collect(),
    }
}

/// Tries to read `cells` as this profile's header.
///
/// - `None`: this row is not the profile's header (a title line, another format).
/// - `Some(Err(..))`: it is the profile's header, but a column the profile
///   cannot do without is missing; the caller reports it (exit 2).
/// - `Some(Ok(map))`: mapped.
///
/// `forced` (from `--profile`) skips the signature test.
pub fn map_header(
    profile: &Profile,
    cells: &[String],
    overrides: &ColumnOverrides,
    cost: CostBasis,
    forced: bool,
) -> Option<Result<ColumnMap, MissingColumns>> {
    let norm: Vec<NormHeader> = cells.iter().map(|c| normalise_header(c)).collect();
    let names = header_names(profile, &norm);
    let find = |name: &str| alias_positions(&names, name).first().copied();
    let signed = !profile.signature.is_empty();
    let hits = profile
        .signature
        .iter()
        .filter(|s| find(s).is_some())
        .count();
    if signed && !forced && hits < profile.signature_min.max(1) {
        return None;
    }
    let mut map = ColumnMap {
        names: names.clone(),
        raw: cells.to_vec(),
        date_formats: profile.date_formats.clone(),
        date_order: profile.date_order,
        amount_includes_tax: profile.amount_includes_tax,
        ..ColumnMap::default()
    };
    // `--cost effective` swaps the amount column for the profile's EffectiveCost.
    let chosen = profile
        .costs
        .iter()
        .find(|(b, _)| *b == cost)
        .map(|(_, c)| c.clone());
    for (role, aliases) in &profile.columns {
        if *role == Role::Amount {
            if let Some(c) = &chosen {
                if let Some(i) = find(c) {
                    map.roles.insert(*role, i);
                }
                continue;
            }
        }
        if *role == Role::ListAmount && cost == CostBasis::List && chosen.is_some() {
            continue;
        }
        if let Some(i) = aliases.iter().find_map(|a| find(a)) {
            map.roles.insert(*role, i);
        }
    }
    for (role, name) in overrides {
        // By name or by 1-based position (`amount=7`). A column is one
        // role: one the vocabulary gave it gives way (`amount=price` in a
        // file where `price` read as the unit price).
        let i = super::header::override_column(&names, name)?;
        map.roles.assign(*role, i);
    }
    settle_gross(&mut map, overrides);
    if signed {
        let mut missing = Vec::new();
        if map.get(Role::Amount).is_none() {
            missing.push(match &chosen {
                Some(c) => display_name(profile, c),
                None => profile.cost_column.clone(),
            });
        }
        for alternatives in &profile.required {
            if !alternatives.iter().any(|a| find(a).is_some()) {
                if let Some(first) = alternatives.first() {
                    missing.push(display_name(profile, first));
                }
            }
        }
        if !missing.is_empty() {
            // A forced profile keeps looking below title lines.
            if forced && hits == 0 && map.roles.is_empty() {
                return None;
            }
            return Some(Err(MissingColumns {
                profile: profile.name.clone(),
                columns: missing,
            }));
        }
    }
    let amount = map.get(Role::Amount)?;
    if map.roles.len() < 2 && !signed {
        return None;
    }
    // Never let a payment-split column stand in as the amount.
    if profile.ignored.contains(&map.names[amount]) {
        return None;
    }
    map.set_header_currency(&norm, amount);
    for tier in &profile.class_tiers {
        let mut cols: Vec<usize> = Vec::new();
        for a in tier {
            for i in alias_positions(&names, a) {
                if !cols.contains(&i) {
                    cols.push(i);
                }
            }
        }
        if !cols.is_empty() {
            map.class_tiers.push(cols);
        }
    }
    if let Some(d) = map.get(Role::Description) {
        if !map.class_tiers.iter().flatten().any(|c| *c == d) {
            map.class_tiers.insert(0, vec![d]);
        }
    }
    for m in &profile.markers {
        if let Some(i) = find(&m.column) {
            map.markers.push((i, m.clone()));
        }
    }
    if let Some(c) = &profile.credit_list {
        map.credit_list = find(c);
    }
    map.row_ids = row_id_columns(&map.names);
    map.record_type = profile
        .record_types
        .as_ref()
        .and_then(|r| find(&r.column).map(|i| (i, r.clone())));
    map.terms = super::terms::map(&profile.terms, &names);
    Some(Ok(map))
}

/// Keeps the gross role only where it gives the tax: no tax column, and a
/// net-named column beside it (`Net, Total`), made the amount when the names
/// chose the net or the gross one (not `Amount` beside them) or the user did;
/// or a gross column the user named beside another amount.
fn settle_gross(map: &mut ColumnMap, overrides: &ColumnOverrides) {
    let named = |role| overrides.iter().any(|(r, _)| *r == role);
    let (Some(gross), Some(amount)) = (map.get(Role::Gross), map.get(Role::Amount)) else {
        return;
    };
    let net = super::header::net_column(&map.names).filter(|&n| n != gross);
    let keep = map.get(Role::Tax).is_none()
        && match net {
            _ if named(Role::Gross) => amount != gross,
            Some(n) if named(Role::Amount) => amount == n,
            Some(n) => amount == n || amount == gross,
            None => false,
        };
    match net {
        Some(n) if keep && !named(Role::Gross) => map.roles.insert(Role::Amount, n),
        _ if keep => None,
        _ => map.roles.remove(Role::Gross),
    };
}

/// The spelling users know for a normalised column name (`billedcost` ->
/// `BilledCost`), taken from the profile's display list when it has one.
fn display_name(profile: &Profile, normalised: &str) -> String {
    profile
        .display
        .iter()
        .find(|d| normalise_header(d).name == normalised)
        .cloned()
        .unwrap_or_else(|| normalised.to_string())
}

#[cfg(test)]
mod tests;
