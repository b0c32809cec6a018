//! AWS Cost and Usage Report: legacy (`lineItem/UnblendedCost`) and CUR 2.0
//! (snake_case `line_item_unblended_cost`).

use super::Spec;
use crate::model::Category;
use crate::normalise::profile::Role;
use crate::normalise::terms::Term;

/// Line item types that are credits: refunds, credits and every `*Discount`
/// (`EdpDiscount`, `BundledDiscount`, `PrivateRateDiscount`, `SppDiscount`,
/// `DistributorDiscount`), and the negation that offsets Savings Plan usage.
const CREDIT_TYPES: &[&str] = &["credit", "refund", "*discount", "savingsplannegation"];

pub(super) const CUR_LEGACY: Spec = Spec {
    name: "aws-cur",
    summary: "AWS Cost and Usage Report (legacy, `lineItem/...` columns)",
    cost_column: "lineItem/UnblendedCost",
    signature: &[
        "lineItem/UnblendedCost",
        "lineItem/LineItemType",
        "lineItem/UsageType",
        "identity/LineItemId",
        "bill/PayerAccountId",
    ],
    signature_min: 2,
    required: &[&["lineItem/LineItemType"]],
    columns: &[
        (
            Role::Description,
            &["lineItem/LineItemDescription", "lineItem/UsageType"],
        ),
        (Role::Amount, &["lineItem/UnblendedCost"]),
        (Role::Quantity, &["lineItem/UsageAmount"]),
        (Role::Unit, &["pricing/unit"]),
        (Role::Currency, &["lineItem/CurrencyCode"]),
        (Role::Start, &["lineItem/UsageStartDate"]),
        (Role::End, &["lineItem/UsageEndDate"]),
        (Role::ResourceId, &["lineItem/ResourceId"]),
    ],
    // The usage type says what was used; product family is too coarse
    // (`Storage Snapshot` also covers CloudWatch logs), so it comes last.
    class_tiers: &[
        &[
            "lineItem/UsageType",
            "lineItem/LineItemDescription",
            "product/usagetype",
        ],
        &[
            "lineItem/ProductCode",
            "product/ProductName",
            "product/servicecode",
        ],
        &["product/productFamily"],
    ],
    ignored: &[
        "lineItem/BlendedCost",
        "pricing/publicOnDemandCost",
        "reservation/EffectiveCost",
        "savingsPlan/SavingsPlanEffectiveCost",
    ],
    markers: &[
        (
            "lineItem/LineItemType",
            &["tax"],
            Category::Tax,
            "aws-line-item-type",
        ),
        (
            "lineItem/LineItemType",
            CREDIT_TYPES,
            Category::Credit,
            "aws-line-item-type",
        ),
    ],
    // `unused-commitment`: the `RIFee` and `SavingsPlanRecurringFee` rows'
    // commitment columns (docs/checks.md).
    terms: &[
        (
            Term::CommitmentId,
            &["reservation/ReservationARN", "savingsPlan/SavingsPlanARN"],
        ),
        (Term::Status, &["lineItem/LineItemType"]),
        (Term::UnusedRecurring, &["reservation/UnusedRecurringFee"]),
        (
            Term::UnusedUpfront,
            &["reservation/UnusedAmortizedUpfrontFeeForBillingPeriod"],
        ),
        (
            Term::Upfront,
            &["reservation/AmortizedUpfrontFeeForBillingPeriod"],
        ),
        (
            Term::CommitmentTotal,
            &["savingsPlan/TotalCommitmentToDate"],
        ),
        (Term::CommitmentUsed, &["savingsPlan/UsedCommitment"]),
    ],
    ..Spec::EMPTY
};

pub(super) const CUR2: Spec = Spec {
    name: "aws-cur2",
    summary: "AWS Cost and Usage Report 2.0 (snake_case `line_item_...` columns)",
    cost_column: "line_item_unblended_cost",
    signature: &[
        "line_item_unblended_cost",
        "line_item_line_item_type",
        "line_item_usage_type",
        "identity_line_item_id",
        "bill_payer_account_id",
    ],
    signature_min: 2,
    required: &[&["line_item_line_item_type"]],
    columns: &[
        (
            Role::Description,
            &["line_item_line_item_description", "line_item_usage_type"],
        ),
        (Role::Amount, &["line_item_unblended_cost"]),
        (Role::Quantity, &["line_item_usage_amount"]),
        (Role::Unit, &["pricing_unit"]),
        (Role::Currency, &["line_item_currency_code"]),
        (Role::Start, &["line_item_usage_start_date"]),
        (Role::End, &["line_item_usage_end_date"]),
        (Role::ResourceId, &["line_item_resource_id"]),
    ],
    class_tiers: &[
        &["line_item_usage_type", "line_item_line_item_description"],
        &[
            "line_item_product_code",
            "product_product_name",
            "product_servicecode",
        ],
        &["product_product_family"],
    ],
    ignored: &[
        "line_item_blended_cost",
        "line_item_net_unblended_cost",
        "pricing_public_on_demand_cost",
        "reservation_effective_cost",
        "savings_plan_savings_plan_effective_cost",
    ],
    markers: &[
        (
            "line_item_line_item_type",
            &["tax"],
            Category::Tax,
            "aws-line-item-type",
        ),
        (
            "line_item_line_item_type",
            CREDIT_TYPES,
            Category::Credit,
            "aws-line-item-type",
        ),
    ],
    terms: &[
        (
            Term::CommitmentId,
            &[
                "reservation_reservation_a_r_n",
                "savings_plan_savings_plan_a_r_n",
            ],
        ),
        (Term::Status, &["line_item_line_item_type"]),
        (Term::UnusedRecurring, &["reservation_unused_recurring_fee"]),
        (
            Term::UnusedUpfront,
            &["reservation_unused_amortized_upfront_fee_for_billing_period"],
        ),
        (
            Term::Upfront,
            &["reservation_amortized_upfront_fee_for_billing_period"],
        ),
        (
            Term::CommitmentTotal,
            &["savings_plan_total_commitment_to_date"],
        ),
        (Term::CommitmentUsed, &["savings_plan_used_commitment"]),
    ],
    ..Spec::EMPTY
};
