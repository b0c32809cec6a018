//! Profiles: what a bill format's columns mean, as data.
//!
//! A profile is a table of header aliases per [`Role`], the columns used for
//! classification (in priority tiers), the columns that must never be summed
//! (payment splits), and markers that decide a category from a column value.
//! Adding a provider means adding a table, not control flow.

use std::collections::HashMap;

use crate::model::Category;
use crate::normalise::header::{NormHeader, normalise_header};
use crate::normalise::number::DecimalMark;

/// What a column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    Description,
    Amount,
    Quantity,
    Unit,
    UnitPrice,
    ListAmount,
    Currency,
    Date,
    Start,
    End,
    /// A `start - end` range in one cell.
    Period,
    ResourceId,
}

impl Role {
    pub const ALL: [Role; 12] = [
        Role::Description,
        Role::Amount,
        Role::Quantity,
        Role::Unit,
        Role::UnitPrice,
        Role::ListAmount,
        Role::Currency,
        Role::Date,
        Role::Start,
        Role::End,
        Role::Period,
        Role::ResourceId,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Description => "description",
            Role::Amount => "amount",
            Role::Quantity => "quantity",
            Role::Unit => "unit",
            Role::UnitPrice => "unit_price",
            Role::ListAmount => "list_amount",
            Role::Currency => "currency",
            Role::Date => "date",
            Role::Start => "start",
            Role::End => "end",
            Role::Period => "period",
            Role::ResourceId => "resource_id",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        let s = s.trim().to_ascii_lowercase().replace(['-', ' '], "_");
        let s = match s.as_str() {
            "price" | "rate" | "unitprice" => "unit_price",
            "list" | "list_cost" | "listamount" => "list_amount",
            "qty" => "quantity",
            "cost" => "amount",
            "item" => "description",
            "resource" => "resource_id",
            other => other,
        };
        Role::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

/// A column value that decides the category outright.
#[derive(Debug, Clone)]
pub struct Marker {
    /// Normalised header name.
    pub column: String,
    /// Lowercase values that trigger it.
    pub values: Vec<String>,
    pub category: Category,
    pub id: &'static str,
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
}

fn v(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| normalise_header(s).name).collect()
}

/// The generic profile: any CSV whose headers use common English or Chinese names.
pub fn generic() -> Profile {
    Profile {
        name: "generic-csv".into(),
        summary: "any CSV with recognisable English or Chinese column names".into(),
        columns: vec![
            (
                Role::Description,
                v(&[
                    "Description",
                    "Item",
                    "计费项",
                    "费用项",
                    "Line Item",
                    "Service",
                    "Product",
                    "产品名称",
                    "产品",
                    "Name",
                    "名称",
                ]),
            ),
            (
                Role::Amount,
                v(&[
                    "应付金额",
                    "优惠后总价",
                    "消费金额",
                    "Amount",
                    "Cost",
                    "金额",
                    "Total",
                    "Charge",
                    "Charges",
                    "费用",
                    "Amount Due",
                    "Billed Amount",
                    "Total Cost",
                ]),
            ),
            (
                Role::Quantity,
                v(&[
                    "Quantity",
                    "Qty",
                    "Usage",
                    "用量",
                    "使用量",
                    "数量",
                    "组件用量",
                    "Hours",
                ]),
            ),
            (
                Role::Unit,
                v(&[
                    "Unit",
                    "单位",
                    "用量单位",
                    "使用量单位",
                    "组件用量单位",
                    "Usage Unit",
                ]),
            ),
            (
                Role::UnitPrice,
                v(&[
                    "Unit Price",
                    "Rate",
                    "Price",
                    "单价",
                    "组件单价",
                    "Unit Cost",
                ]),
            ),
            (
                Role::ListAmount,
                v(&[
                    "原价",
                    "官网价",
                    "组件原价",
                    "List Cost",
                    "List Amount",
                    "List Price Total",
                ]),
            ),
            (Role::Currency, v(&["Currency", "币种", "Currency Code"])),
            (
                Role::Date,
                v(&[
                    "Date",
                    "日期",
                    "账单日期",
                    "账期",
                    "消费时间",
                    "Billing Period",
                    "Usage Date",
                ]),
            ),
            (
                Role::Start,
                v(&[
                    "Start",
                    "开始时间",
                    "Start Time",
                    "Usage Start",
                    "开始使用时间",
                    "账单开始时间",
                ]),
            ),
            (
                Role::End,
                v(&[
                    "End",
                    "结束时间",
                    "End Time",
                    "Usage End",
                    "结束使用时间",
                    "账单结束时间",
                ]),
            ),
            (Role::Period, v(&["Period", "时间段", "计费周期"])),
            (
                Role::ResourceId,
                v(&[
                    "Resource ID",
                    "ResourceId",
                    "资源ID",
                    "实例ID",
                    "Instance ID",
                    "Pod ID",
                    "Pod",
                ]),
            ),
        ],
        class_tiers: vec![
            v(&[
                "Description",
                "Item",
                "计费项",
                "费用项",
                "Line Item",
                "产品明细",
                "组件名称",
                "子产品名称",
                "Name",
                "名称",
                "Type",
                "类型",
            ]),
            v(&[
                "Service",
                "Product",
                "产品名称",
                "产品",
                "Category",
                "Service Category",
            ]),
        ],
        ignored: v(&[
            "现金支付",
            "代金券抵扣",
            "储值卡支付金额",
            "欠费金额",
            "现金账户支出",
            "代金券支出",
            "赠送账户支出",
            "Cash Paid",
            "Voucher Paid",
            "Credit Paid",
        ]),
        markers: Vec::new(),
        decimal_mark: None,
    }
}

/// How one file's header maps onto roles.
#[derive(Debug, Clone, Default)]
pub struct ColumnMap {
    pub roles: HashMap<Role, usize>,
    pub class_tiers: Vec<Vec<usize>>,
    pub markers: Vec<(usize, Marker)>,
    /// Currency named by a money header's suffix, e.g. `应付金额(¥)`.
    pub header_currency: Option<String>,
    /// Normalised header names, by column index.
    pub names: Vec<String>,
    /// Raw header cells, by column index (for messages).
    pub raw: Vec<String>,
}

impl ColumnMap {
    pub fn get(&self, role: Role) -> Option<usize> {
        self.roles.get(&role).copied()
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

/// Tries to read `cells` as this profile's header. `None` when it has no
/// amount column or nothing else the profile knows.
pub fn map_header(
    profile: &Profile,
    cells: &[String],
    overrides: &ColumnOverrides,
) -> Option<ColumnMap> {
    let norm: Vec<NormHeader> = cells.iter().map(|c| normalise_header(c)).collect();
    let find = |name: &str| norm.iter().position(|h| h.name == name);
    let mut map = ColumnMap {
        names: norm.iter().map(|h| h.name.clone()).collect(),
        raw: cells.to_vec(),
        ..ColumnMap::default()
    };
    for (role, aliases) in &profile.columns {
        if let Some(i) = aliases.iter().find_map(|a| find(a)) {
            map.roles.insert(*role, i);
        }
    }
    for (role, name) in overrides {
        let target = normalise_header(name).name;
        let i = find(&target)?;
        map.roles.insert(*role, i);
    }
    let amount = map.get(Role::Amount)?;
    if map.roles.len() < 2 {
        return None;
    }
    // Never let a payment-split column stand in as the amount.
    if profile.ignored.contains(&map.names[amount]) {
        return None;
    }
    map.header_currency = norm[amount]
        .currency
        .clone()
        .or_else(|| norm.iter().find_map(|h| h.currency.clone()));
    for tier in &profile.class_tiers {
        let cols: Vec<usize> = tier.iter().filter_map(|a| find(a)).collect();
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
    Some(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn payable_wins_over_overlapping_money_columns() {
        let h = cells(&[
            "产品",
            "计费项",
            "原价",
            "应付金额",
            "现金支付",
            "代金券抵扣",
        ]);
        let m = map_header(&generic(), &h, &Vec::new()).unwrap();
        assert_eq!(m.get(Role::Amount), Some(3));
        assert_eq!(m.get(Role::ListAmount), Some(2));
        assert_eq!(m.get(Role::Description), Some(1));
        assert_eq!(m.class_tiers, vec![vec![1], vec![0]]);
    }

    #[test]
    fn currency_suffix_is_remembered() {
        let h = cells(&["产品", "单价(¥)", "使用量", "应付金额(¥)", "现金支付(¥)"]);
        let m = map_header(&generic(), &h, &Vec::new()).unwrap();
        assert_eq!(m.get(Role::Amount), Some(3));
        assert_eq!(m.header_currency.as_deref(), Some("CNY"));
    }

    #[test]
    fn a_title_line_is_not_a_header() {
        assert!(
            map_header(
                &generic(),
                &cells(&["Monthly bill for October"]),
                &Vec::new()
            )
            .is_none()
        );
        assert!(map_header(&generic(), &cells(&["Amount"]), &Vec::new()).is_none());
    }

    #[test]
    fn overrides_map_unknown_headers() {
        let h = cells(&["Thing", "Money"]);
        assert!(map_header(&generic(), &h, &Vec::new()).is_none());
        let o = vec![
            (Role::Amount, "Money".to_string()),
            (Role::Description, "thing".into()),
        ];
        let m = map_header(&generic(), &h, &o).unwrap();
        assert_eq!(m.get(Role::Amount), Some(1));
        assert_eq!(m.get(Role::Description), Some(0));
    }
}
