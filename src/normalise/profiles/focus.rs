//! FOCUS 1.0, 1.1 and 1.2, the FinOps Foundation's common format.

use super::Spec;
use crate::model::Category;
use crate::normalise::profile::{CostBasis, Role};
use crate::normalise::terms::Term;

pub(super) const FOCUS: Spec = Spec {
    name: "focus",
    summary: "FOCUS 1.0-1.2 (FinOps Open Cost and Usage Specification), any provider",
    cost_column: "BilledCost",
    // Names only FOCUS uses (with FOCUS 0.5 `ChargeType`/`InvoiceIssuer`).
    signature: &[
        "BilledCost",
        "EffectiveCost",
        "ListCost",
        "ContractedCost",
        "ChargeCategory",
        "ChargeClass",
        "ChargePeriodStart",
        "ChargePeriodEnd",
        "InvoiceIssuerName",
        "InvoiceIssuer",
        "ChargeType",
        "SkuPriceId",
        "SkuMeter",
        "ServiceSubcategory",
        "PricingQuantity",
        "ConsumedQuantity",
        "CommitmentDiscountId",
    ],
    signature_min: 2,
    required: &[&["ChargeCategory", "ChargeType"]],
    columns: &[
        (
            Role::Description,
            &["ChargeDescription", "SkuMeter", "ServiceName"],
        ),
        (Role::Amount, &["BilledCost"]),
        (Role::Quantity, &["PricingQuantity"]),
        (Role::Unit, &["PricingUnit"]),
        // `ListUnitPrice` is per pricing unit; where the `PricingUnit`
        // declares a block (`10K`, `1M`) the product is off by exactly that
        // block, which line-arithmetic recognises and does not report.
        (Role::UnitPrice, &["ListUnitPrice"]),
        (Role::ListAmount, &["ListCost"]),
        (Role::Currency, &["BillingCurrency"]),
        (Role::Start, &["ChargePeriodStart"]),
        (Role::End, &["ChargePeriodEnd"]),
        (Role::ResourceId, &["ResourceId"]),
    ],
    // What was used (description, meter, provider usage type) first; then
    // FOCUS's own kind of service, finer before coarser. `ServiceSubcategory`
    // is a tier of its own: it names the service's kind (`Relational
    // Databases`, `Workflow Orchestration`), not the SKU, so a SKU word
    // (`vCore`, `Data Transfer`) beats it, and it beats the service's name.
    class_tiers: &[
        &["ChargeDescription", "SkuMeter", "x_*"],
        &["ServiceSubcategory"],
        &["ServiceName"],
        &["ServiceCategory"],
    ],
    ignored: &[],
    // Where `billaudit convert --to focus` says a row came from (file, line,
    // findings, period source): provenance, not what was bought, so never
    // classification text (a file named `credit-tax.txt` is not a tax).
    tag_prefixes: &[
        "x_SourceFile",
        "x_SourceLine",
        "x_Findings",
        "x_ChargePeriodSource",
    ],
    // A FOCUS file `billaudit convert --to focus` wrote keeps the category
    // billaudit gave each row (docs/focus-export.md).
    markers: &[
        (
            "x_BillauditCategory",
            &["compute"],
            Category::Compute,
            "focus-x-billaudit-category",
        ),
        (
            "x_BillauditCategory",
            &["storage"],
            Category::Storage,
            "focus-x-billaudit-category",
        ),
        (
            "x_BillauditCategory",
            &["storage_replica"],
            Category::StorageReplica,
            "focus-x-billaudit-category",
        ),
        (
            "x_BillauditCategory",
            &["bandwidth"],
            Category::Bandwidth,
            "focus-x-billaudit-category",
        ),
        (
            "x_BillauditCategory",
            &["scheduling"],
            Category::Scheduling,
            "focus-x-billaudit-category",
        ),
        (
            "x_BillauditCategory",
            &["tax"],
            Category::Tax,
            "focus-x-billaudit-category",
        ),
        (
            "x_BillauditCategory",
            &["credit"],
            Category::Credit,
            "focus-x-billaudit-category",
        ),
        (
            "x_BillauditCategory",
            &["other"],
            Category::Other,
            "focus-x-billaudit-category",
        ),
        (
            "ChargeCategory",
            &["tax"],
            Category::Tax,
            "focus-charge-category",
        ),
        (
            "ChargeCategory",
            &["credit"],
            Category::Credit,
            "focus-charge-category",
        ),
        ("ChargeType", &["tax"], Category::Tax, "focus-charge-type"),
        (
            "ChargeType",
            &["credit"],
            Category::Credit,
            "focus-charge-type",
        ),
    ],
    costs: &[
        (CostBasis::Billed, "BilledCost"),
        (CostBasis::Effective, "EffectiveCost"),
        (CostBasis::List, "ListCost"),
        (CostBasis::Contracted, "ContractedCost"),
    ],
    // `unused-commitment` and `above-contracted-price` (docs/checks.md).
    terms: &[
        (Term::CommitmentId, &["CommitmentDiscountId"]),
        (Term::Status, &["CommitmentDiscountStatus"]),
        (Term::Effective, &["EffectiveCost"]),
        (Term::Contracted, &["ContractedCost"]),
        (Term::ContractedUnitPrice, &["ContractedUnitPrice"]),
    ],
    ..Spec::EMPTY
};
