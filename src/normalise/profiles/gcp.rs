//! Google Cloud billing export (BigQuery), flattened to CSV.

use super::Spec;
use crate::model::Category;
use crate::normalise::profile::Role;

pub(super) const GCP: Spec = Spec {
    name: "gcp",
    summary: "Google Cloud billing export (BigQuery table flattened to CSV)",
    cost_column: "cost",
    signature: &[
        "service.description",
        "sku.description",
        "cost_type",
        "invoice.month",
        "billing_account_id",
        "usage.pricing_unit",
    ],
    signature_min: 2,
    required: &[],
    columns: &[
        (
            Role::Description,
            &["sku.description", "service.description"],
        ),
        (Role::Amount, &["cost"]),
        (Role::Quantity, &["usage.amount_in_pricing_units"]),
        (Role::Unit, &["usage.pricing_unit"]),
        (Role::Currency, &["currency"]),
        (Role::Start, &["usage_start_time"]),
        (Role::End, &["usage_end_time"]),
        (Role::ResourceId, &["resource.global_name", "resource.name"]),
    ],
    class_tiers: &[&["sku.description"], &["service.description"]],
    ignored: &["cost_at_list", "price.effective_price"],
    markers: &[
        ("cost_type", &["tax"], Category::Tax, "gcp-cost-type"),
        (
            "cost_type",
            &["adjustment"],
            Category::Credit,
            "gcp-cost-type",
        ),
        (
            "cost_type",
            &["rounding_error"],
            Category::Other,
            "gcp-cost-type",
        ),
    ],
    // `cost` is before credits; each credit in the list is its own item.
    credit_list: Some("credits"),
    ..Spec::EMPTY
};
