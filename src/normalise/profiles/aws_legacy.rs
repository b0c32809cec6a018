//! AWS's pre-CUR billing exports: the Detailed Billing Report (DBR, with or
//! without resources and tags) and the monthly report / cost allocation
//! report (`aws-billing-csv`, `aws-cost-allocation`).
//!
//! Both carry a `RecordType` column, and summing every row counts the money
//! several times: besides the charges there are per-invoice, per-account
//! and per-statement total rows, and in the monthly report each linked
//! account's rows restate the payer's. The `record_types` tables below say
//! which rows are counted once, which row is the stated total checked
//! against them, and which are restatements (docs/formats.md, "aws-dbr",
//! "aws-monthly"; docs/decisions.md, "AWS legacy reports: which rows count").

use super::Spec;
use crate::model::Category;
use crate::normalise::profile::{RecordKind, Role};

/// Totals that restate part of the items: one invoice (AWS and Marketplace
/// invoice apart) or one linked account. Set aside; the statement total is
/// the one checked.
const PART_TOTALS: &[&str] = &["InvoiceTotal", "AccountTotal"];

/// `Rounding` rows are real money on the invoice (the cents the statement
/// rounds its lines by): items, of category `other`.
const ROUNDING: (&str, &[&str], Category, &str) = (
    "RecordType",
    &["Rounding"],
    Category::Other,
    "aws-record-type",
);

pub(super) const DBR: Spec = Spec {
    name: "aws-dbr",
    summary: "AWS Detailed Billing Report (pre-CUR, `RecordType` + `UnBlendedCost`)",
    cost_column: "UnBlendedCost",
    // Columns of the DBR alone (the monthly report shares `RecordType`,
    // `RecordId` and the account columns). A single-account DBR has `Cost`
    // and `Rate` instead of the (un)blended pairs.
    signature: &[
        "UnBlendedCost",
        "BlendedCost",
        "UnBlendedRate",
        "PricingPlanId",
        "SubscriptionId",
        "ReservedInstance",
    ],
    signature_min: 2,
    required: &[&["RecordType"]],
    columns: &[
        (Role::Description, &["ItemDescription", "UsageType"]),
        (Role::Amount, &["UnBlendedCost", "Cost"]),
        (Role::Quantity, &["UsageQuantity"]),
        (Role::Start, &["UsageStartDate"]),
        (Role::End, &["UsageEndDate"]),
        (Role::ResourceId, &["ResourceId"]),
    ],
    class_tiers: &[
        &["UsageType", "ItemDescription", "Operation"],
        &["ProductName"],
    ],
    // Blended figures average a rate over the organisation: an allocation,
    // not what each line cost (docs/decisions.md).
    ignored: &["BlendedCost", "BlendedRate", "UnBlendedRate", "Rate"],
    markers: &[ROUNDING],
    tag_prefixes: &["user:", "aws:"],
    record_types: Some((
        "RecordType",
        &[
            (&["LineItem", "LinkedLineItem"], RecordKind::Item),
            (&["StatementTotal"], RecordKind::Total),
            (PART_TOTALS, RecordKind::Restated),
        ],
    )),
    ..Spec::EMPTY
};

pub(super) const MONTHLY: Spec = Spec {
    name: "aws-monthly",
    summary: "AWS monthly report / cost allocation report (pre-CUR, `RecordType` + `TotalCost`)",
    cost_column: "TotalCost",
    signature: &[
        "TotalCost",
        "CostBeforeTax",
        "TaxAmount",
        "TaxationAddress",
        "SellerOfRecord",
        "PayerPONumber",
        "BillingPeriodStartDate",
    ],
    signature_min: 3,
    required: &[&["RecordType"]],
    columns: &[
        (Role::Description, &["ItemDescription", "UsageType"]),
        (Role::Amount, &["TotalCost"]),
        (Role::Quantity, &["UsageQuantity"]),
        (Role::Currency, &["CurrencyCode"]),
        // The row's tax, inside `TotalCost`: a `tax` item beside the charge.
        (Role::Tax, &["TaxAmount"]),
        // The row's credits (negative), inside `TotalCost` too: a `credit`
        // item beside the charge.
        (Role::Credit, &["Credits"]),
        (Role::Start, &["UsageStartDate", "BillingPeriodStartDate"]),
        (Role::End, &["UsageEndDate", "BillingPeriodEndDate"]),
    ],
    class_tiers: &[
        &["UsageType", "ItemDescription", "Operation"],
        &["ProductCode", "ProductName"],
    ],
    // `TotalCost` = `CostBeforeTax` + `Credits` + `TaxAmount`: the first
    // is never summed besides it, and the credits and the tax are taken
    // out of it (each its own item).
    ignored: &["CostBeforeTax", "BlendedRate"],
    amount_includes_tax: true,
    markers: &[ROUNDING],
    tag_prefixes: &["user:", "aws:"],
    // The payer's rows are the consolidated bill; each linked account's rows
    // restate them per account (docs/decisions.md).
    record_types: Some((
        "RecordType",
        &[
            (&["PayerLineItem"], RecordKind::Item),
            (&["LinkedLineItem"], RecordKind::Restated),
            (&["StatementTotal"], RecordKind::Total),
            (PART_TOTALS, RecordKind::Restated),
            (&["EstimatedDisclaimer", "Disclaimer"], RecordKind::Restated),
        ],
    )),
    ..Spec::EMPTY
};
