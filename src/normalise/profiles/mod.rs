//! The built-in profiles, one table per format. Each table is plain data
//! ([`Spec`]): recognising, mapping and classifying a format is done by the
//! same code for every profile. Adding a provider means adding a table here
//! and naming it in [`SPECS`].
//!
//! Order matters: specific profiles are tried before general ones (Azure
//! before FOCUS, because Azure MCA has FOCUS-like `billingCurrency` and
//! `chargeType` columns), and the generic profile comes last.

mod aws;
mod aws_legacy;
mod azure;
mod china;
mod focus;
mod gcp;
mod gpu_clouds;
mod hosting;
mod oci;

use super::header::normalise_header;
use super::number::DecimalMark;
use super::profile::{CostBasis, Marker, Profile, RecordKind, RecordTypes, Role, generic};
use super::terms::Term;
use crate::model::Category;

/// A profile written as static data.
pub struct Spec {
    pub name: &'static str,
    pub summary: &'static str,
    /// The cost column as the format spells it.
    pub cost_column: &'static str,
    /// Columns that identify the format; `signature_min` of them must be present.
    pub signature: &'static [&'static str],
    pub signature_min: usize,
    /// Columns that must be present, each with alternatives (first = shown).
    pub required: &'static [&'static [&'static str]],
    /// Aliases per role, in priority order.
    pub columns: &'static [(Role, &'static [&'static str])],
    /// Classification columns in tiers; an alias ending in `*` is a prefix.
    pub class_tiers: &'static [&'static [&'static str]],
    /// Payment splits and other money columns that are never summed.
    pub ignored: &'static [&'static str],
    /// `(column, values, category, id)`: a value that decides the category.
    pub markers: &'static [(
        &'static str,
        &'static [&'static str],
        Category,
        &'static str,
    )],
    /// Other cost columns for `--cost`.
    pub costs: &'static [(CostBasis, &'static str)],
    pub credit_list: Option<&'static str>,
    pub tag_prefixes: &'static [&'static str],
    pub decimal_mark: Option<DecimalMark>,
    /// `(column, [(values, kind)])`: a record-type column whose values say
    /// which rows are items, the stated total, or restatements.
    pub record_types: Option<RecordTypeTable>,
    /// The commitment and contract columns, aliases per term
    /// (`super::terms`).
    pub terms: &'static [(Term, &'static [&'static str])],
    /// The amount includes the tax of the tax column (`Profile`).
    pub amount_includes_tax: bool,
}

/// A record-type column and what its values make a row.
pub type RecordTypeTable = (
    &'static str,
    &'static [(&'static [&'static str], RecordKind)],
);

impl Spec {
    /// An empty table, for `..Spec::EMPTY` in the tables.
    pub const EMPTY: Spec = Spec {
        name: "",
        summary: "",
        cost_column: "",
        signature: &[],
        signature_min: 1,
        required: &[],
        columns: &[],
        class_tiers: &[],
        ignored: &[],
        markers: &[],
        costs: &[],
        credit_list: None,
        tag_prefixes: &[],
        decimal_mark: None,
        record_types: None,
        terms: &[],
        amount_includes_tax: false,
    };

    pub fn to_profile(&self) -> Profile {
        let n = |s: &str| normalise_header(s).name;
        let ns = |xs: &[&str]| xs.iter().map(|x| n(x)).collect::<Vec<_>>();
        // Every column name the table spells, for messages.
        let mut display: Vec<String> = vec![self.cost_column.to_string()];
        display.extend(self.signature.iter().map(|s| s.to_string()));
        display.extend(
            self.required
                .iter()
                .flat_map(|r| r.iter().map(|s| s.to_string())),
        );
        display.extend(self.costs.iter().map(|(_, c)| c.to_string()));
        Profile {
            name: self.name.into(),
            summary: self.summary.into(),
            columns: self.columns.iter().map(|(r, a)| (*r, ns(a))).collect(),
            class_tiers: self.class_tiers.iter().map(|t| ns(t)).collect(),
            ignored: ns(self.ignored),
            markers: self
                .markers
                .iter()
                .map(|(col, values, category, id)| Marker {
                    column: n(col),
                    values: values.iter().map(|v| v.to_lowercase()).collect(),
                    category: *category,
                    id,
                })
                .collect(),
            decimal_mark: self.decimal_mark,
            cost_column: self.cost_column.into(),
            signature: ns(self.signature),
            signature_min: self.signature_min,
            required: self.required.iter().map(|r| ns(r)).collect(),
            costs: self.costs.iter().map(|(b, c)| (*b, n(c))).collect(),
            credit_list: self.credit_list.map(n),
            tag_prefixes: ns(self.tag_prefixes),
            record_types: self.record_types.map(|(column, kinds)| RecordTypes {
                column: n(column),
                kinds: kinds
                    .iter()
                    .flat_map(|(values, kind)| values.iter().map(|v| (v.to_lowercase(), *kind)))
                    .collect(),
            }),
            display,
            date_formats: Vec::new(),
            date_order: None,
            skip_rows: 0,
            amount_includes_tax: self.amount_includes_tax,
            terms: self.terms.iter().map(|(t, a)| (*t, ns(a))).collect(),
        }
    }
}

/// Every built-in table, in the order they are tried.
pub const SPECS: &[&Spec] = &[
    &aws::CUR_LEGACY,
    &aws::CUR2,
    &aws_legacy::DBR,
    &aws_legacy::MONTHLY,
    &azure::AZURE,
    &gcp::GCP,
    &oci::OCI,
    &china::ALIBABA,
    &china::TENCENT,
    &china::HUAWEI,
    &hosting::DIGITALOCEAN,
    &hosting::LINODE,
    &hosting::VULTR,
    &gpu_clouds::VASTAI,
    &focus::FOCUS,
];

/// The built-in profiles in detection order, ending with `generic-csv`.
pub fn builtin() -> Vec<Profile> {
    let mut v: Vec<Profile> = SPECS.iter().map(|s| s.to_profile()).collect();
    v.push(generic());
    v
}

/// A built-in profile by name (`--profile NAME`).
pub fn by_name(name: &str) -> Option<Profile> {
    builtin()
        .into_iter()
        .find(|p| p.name.eq_ignore_ascii_case(name.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalise::profile::map_header;

    #[test]
    fn names_are_unique_and_generic_is_last() {
        let all = builtin();
        let mut names: Vec<_> = all.iter().map(|p| p.name.clone()).collect();
        assert_eq!(names.last().map(String::as_str), Some("generic-csv"));
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len());
    }

    fn cells(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn the_built_in_profiles_in_detection_order() {
        let names: Vec<String> = builtin().into_iter().map(|p| p.name).collect();
        assert_eq!(
            names,
            [
                "aws-cur",
                "aws-cur2",
                "aws-dbr",
                "aws-monthly",
                "azure",
                "gcp",
                "oci",
                "alibaba",
                "tencent",
                "huawei",
                "digitalocean",
                "linode",
                "vultr",
                "vastai",
                "focus",
                "generic-csv"
            ]
        );
        assert_eq!(by_name(" AZURE ").map(|p| p.name), Some("azure".into()));
        assert!(by_name("nope").is_none());
        for p in builtin() {
            assert!(!p.summary.is_empty(), "{}", p.name);
        }
        assert_eq!(
            by_name("aws-cur").unwrap().cost_column,
            "lineItem/UnblendedCost"
        );
        assert_eq!(by_name("huawei").unwrap().cost_column, "应付金额(¥)");
    }

    #[test]
    fn one_signature_column_is_not_enough() {
        // Every table asks for two of its signature columns: a header with
        // only the first is not that format.
        for p in builtin().iter().filter(|p| p.name != "generic-csv") {
            let one = vec![p.signature[0].clone()];
            assert!(
                map_header(p, &one, &Vec::new(), CostBasis::Billed, false).is_none(),
                "{}",
                p.name
            );
            // And each one names its classification columns.
            assert!(!p.class_tiers.is_empty(), "{}", p.name);
        }
    }

    #[test]
    fn required_columns_markers_credits_tags_and_costs() {
        let map = |name: &str, h: &[&str], cost| {
            map_header(&by_name(name).unwrap(), &cells(h), &Vec::new(), cost, false)
        };
        let billed = CostBasis::Billed;
        // AWS without `lineItem/LineItemType` (two signature columns present).
        assert_eq!(
            map(
                "aws-cur",
                &["lineItem/UnblendedCost", "identity/LineItemId"],
                billed
            )
            .unwrap()
            .unwrap_err()
            .columns,
            vec!["lineItem/LineItemType".to_string()]
        );
        assert_eq!(
            map(
                "aws-cur2",
                &[
                    "line_item_unblended_cost",
                    "bill_payer_account_id",
                    "line_item_usage_type"
                ],
                billed
            )
            .unwrap()
            .unwrap_err()
            .columns,
            vec!["line_item_line_item_type".to_string()]
        );
        assert_eq!(
            map("focus", &["BilledCost", "EffectiveCost"], billed)
                .unwrap()
                .unwrap_err()
                .columns,
            vec!["ChargeCategory".to_string()]
        );
        // Markers: the column that decides a category outright.
        let marker_columns = |name: &str, h: &[&str]| -> Vec<usize> {
            let m = map(name, h, billed).unwrap().unwrap();
            m.markers.iter().map(|(i, _)| *i).collect()
        };
        assert_eq!(
            marker_columns(
                "aws-cur",
                &["lineItem/UnblendedCost", "lineItem/LineItemType"]
            ),
            vec![1, 1]
        );
        assert_eq!(
            marker_columns(
                "aws-cur2",
                &["line_item_unblended_cost", "line_item_line_item_type"]
            ),
            vec![1, 1]
        );
        assert_eq!(
            marker_columns(
                "azure",
                &["MeterCategory", "CostInBillingCurrency", "ChargeType"]
            ),
            vec![2]
        );
        assert_eq!(
            marker_columns(
                "gcp",
                &["service.description", "cost", "cost_type", "credits"]
            ),
            vec![2, 2, 2]
        );
        assert_eq!(
            map(
                "gcp",
                &["service.description", "cost", "cost_type", "credits"],
                billed
            )
            .unwrap()
            .unwrap()
            .credit_list,
            Some(3)
        );
        assert!(!by_name("alibaba").unwrap().markers.is_empty());
        assert!(!by_name("tencent").unwrap().markers.is_empty());
        assert!(!by_name("huawei").unwrap().markers.is_empty());
        assert!(!by_name("focus").unwrap().markers.is_empty());
        // Tencent's tag columns (`标签键:产品`) never take a role.
        assert_eq!(
            by_name("tencent").unwrap().tag_prefixes,
            vec!["标签键:".to_string()]
        );
        // FOCUS `--cost effective` reads EffectiveCost.
        let h = ["BilledCost", "EffectiveCost", "ChargeCategory"];
        let m = map("focus", &h, CostBasis::Effective).unwrap().unwrap();
        assert_eq!(m.get(Role::Amount), Some(1));
    }

    #[test]
    fn a_payment_split_is_never_the_amount_even_when_named() {
        // `--columns amount=<a payment split>`: the header is refused rather
        // than summing how a charge was paid. One split per table.
        for (name, header) in [
            (
                "aws-cur",
                &[
                    "lineItem/UnblendedCost",
                    "lineItem/LineItemType",
                    "lineItem/BlendedCost",
                ][..],
            ),
            (
                "aws-cur2",
                &[
                    "line_item_unblended_cost",
                    "line_item_line_item_type",
                    "line_item_blended_cost",
                ],
            ),
            (
                "azure",
                &["MeterCategory", "CostInBillingCurrency", "CostInUsd"],
            ),
            (
                "gcp",
                &["service.description", "cost_type", "cost", "cost_at_list"],
            ),
            (
                "oci",
                &["cost/myCost", "product/Description", "cost/myCostOverage"],
            ),
            ("alibaba", &["产品明细", "消费类型", "应付金额", "现金支付"]),
            ("tencent", &["优惠后总价", "组件名称", "代金券支出"]),
            (
                "huawei",
                &["使用量类型", "产品类型", "应付金额", "现金支付"],
            ),
        ] {
            let p = by_name(name).unwrap();
            let h = cells(header);
            // Mapped as it is ...
            assert!(
                matches!(
                    map_header(&p, &h, &Vec::new(), CostBasis::Billed, false),
                    Some(Ok(_))
                ),
                "{name}"
            );
            // ... refused with the split as the amount.
            let split = header.last().unwrap().to_string();
            let o = vec![(Role::Amount, split)];
            assert!(
                map_header(&p, &h, &o, CostBasis::Billed, false).is_none(),
                "{name}"
            );
        }
    }

    #[test]
    fn record_type_tables_say_which_rows_count() {
        use crate::normalise::profile::RecordKind::{Item, Restated, Total};
        let kinds = |name: &str| by_name(name).unwrap().record_types.unwrap();
        let dbr = kinds("aws-dbr");
        assert_eq!(dbr.column, "recordtype");
        for (cell, kind) in [
            ("LineItem", Item),
            (" linkedlineitem ", Item),
            ("Rounding", Item),
            ("StatementTotal", Total),
            ("InvoiceTotal", Restated),
            ("AccountTotal", Restated),
            // A value the table does not list is money the bill shows.
            ("SomethingNew", Item),
        ] {
            assert_eq!(dbr.kind(cell), kind, "aws-dbr {cell}");
        }
        let monthly = kinds("aws-monthly");
        for (cell, kind) in [
            ("PayerLineItem", Item),
            ("LinkedLineItem", Restated),
            ("StatementTotal", Total),
            ("EstimatedDisclaimer", Restated),
        ] {
            assert_eq!(monthly.kind(cell), kind, "aws-monthly {cell}");
        }
        // Only the AWS legacy reports have one.
        for p in builtin() {
            assert_eq!(
                p.record_types.is_some(),
                p.name.starts_with("aws-dbr") || p.name == "aws-monthly",
                "{}",
                p.name
            );
        }
    }

    #[test]
    fn every_specific_profile_has_a_signature_and_a_cost_column() {
        for p in builtin().iter().filter(|p| p.name != "generic-csv") {
            assert!(!p.signature.is_empty(), "{}", p.name);
            assert!(!p.cost_column.is_empty(), "{}", p.name);
            assert!(
                p.columns.iter().any(|(r, _)| *r == Role::Amount),
                "{}",
                p.name
            );
        }
    }
}
