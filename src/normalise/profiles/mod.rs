//! The built-in profiles, one table per format. Each table is plain data
//! ([`Spec`]): recognising, mapping and classifying a format is done by the
//! same code for every profile. Adding a provider means adding a table here
//! and naming it in [`SPECS`].
//!
//! Order matters: specific profiles are tried before general ones (Azure
//! before FOCUS, because Azure MCA has FOCUS-like `billingCurrency` and
//! `chargeType` columns), and the generic profile comes last.

mod aws;
mod azure;
mod china;
mod focus;
mod gcp;
mod oci;

use super::header::normalise_header;
use super::number::DecimalMark;
use super::profile::{CostBasis, Marker, Profile, Role, generic};
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
}

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
            display,
            date_formats: Vec::new(),
            date_order: None,
            skip_rows: 0,
        }
    }
}

/// Every built-in table, in the order they are tried.
pub const SPECS: &[&Spec] = &[
    &aws::CUR_LEGACY,
    &aws::CUR2,
    &azure::AZURE,
    &gcp::GCP,
    &oci::OCI,
    &china::ALIBABA,
    &china::TENCENT,
    &china::HUAWEI,
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

    #[test]
    fn names_are_unique_and_generic_is_last() {
        let all = builtin();
        let mut names: Vec<_> = all.iter().map(|p| p.name.clone()).collect();
        assert_eq!(names.last().map(String::as_str), Some("generic-csv"));
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len());
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
