//! Azure cost details: EA, MCA and pay-as-you-go (usage details) exports,
//! in PascalCase, camelCase or localised headers with the English name in
//! parentheses (`Kategorie der Verbrauchseinheit (MeterCategory)`).

use super::Spec;
use crate::model::Category;
use crate::normalise::profile::Role;
use crate::normalise::terms::Term;

pub(super) const AZURE: Spec = Spec {
    name: "azure",
    summary: "Azure cost details / usage details (EA, MCA, pay-as-you-go)",
    cost_column: "CostInBillingCurrency (or PreTaxCost, Cost)",
    signature: &[
        "MeterCategory",
        "MeterSubCategory",
        "MeterName",
        "MeterId",
        "MeterRegion",
        // The cost columns are Azure's own names: with one meter column
        // beside them, a minimal cost-details extract is recognised.
        "CostInBillingCurrency",
        "PreTaxCost",
    ],
    signature_min: 2,
    required: &[],
    columns: &[
        (Role::Description, &["ProductName", "MeterName"]),
        // EA/MCA, then pay-as-you-go (`PreTaxCost`), then the short `Cost`.
        (
            Role::Amount,
            &[
                "CostInBillingCurrency",
                "PreTaxCost",
                "Cost",
                "CostInPricingCurrency",
            ],
        ),
        (Role::Quantity, &["Quantity", "UsageQuantity"]),
        // `10K`, `100 Hours`: the quantity is already counted in these blocks.
        (Role::Unit, &["UnitOfMeasure"]),
        (Role::UnitPrice, &["EffectivePrice", "ResourceRate"]),
        (
            Role::Currency,
            &["BillingCurrencyCode", "BillingCurrency", "Currency"],
        ),
        (Role::Date, &["Date", "UsageDateTime"]),
        (
            Role::ResourceId,
            &["ResourceId", "InstanceId", "InstanceName"],
        ),
    ],
    class_tiers: &[
        &["MeterName", "MeterSubCategory", "ProductName"],
        &["MeterCategory", "ServiceFamily"],
    ],
    ignored: &["CostInUsd", "PaygCostInBillingCurrency", "PaygCostInUsd"],
    markers: &[(
        "ChargeType",
        &["refund"],
        Category::Credit,
        "azure-charge-type",
    )],
    // `unused-commitment`: `ChargeType = UnusedReservation` /
    // `UnusedSavingsPlan` rows of the amortised export (docs/checks.md).
    terms: &[
        (Term::CommitmentId, &["ReservationId", "benefitId"]),
        (Term::Status, &["ChargeType"]),
    ],
    ..Spec::EMPTY
};
