//! Oracle Cloud Infrastructure cost reports.

use super::Spec;
use crate::normalise::profile::Role;

pub(super) const OCI: Spec = Spec {
    name: "oci",
    summary: "Oracle Cloud Infrastructure cost report (`cost/myCost`)",
    cost_column: "cost/myCost",
    signature: &[
        "cost/myCost",
        "product/Description",
        "lineItem/referenceNo",
        "lineItem/tenantId",
        "usage/billedQuantity",
        "cost/productSku",
    ],
    signature_min: 2,
    required: &[],
    columns: &[
        (
            Role::Description,
            &["product/Description", "product/service"],
        ),
        (Role::Amount, &["cost/myCost"]),
        (Role::Quantity, &["usage/billedQuantity"]),
        (Role::Unit, &["cost/skuUnitDescription"]),
        (Role::Currency, &["cost/currencyCode"]),
        (Role::Start, &["lineItem/intervalUsageStart"]),
        (Role::End, &["lineItem/intervalUsageEnd"]),
        (Role::ResourceId, &["product/resourceId"]),
    ],
    class_tiers: &[&["product/Description"], &["product/service"]],
    // The overage part is inside `cost/myCost` already.
    ignored: &["cost/myCostOverage", "cost/unitPriceOverage"],
    ..Spec::EMPTY
};
