//! The first tier of the built-in rules (see [`super::BUILTIN`]): tax and
//! credit first (`Tax for product code AWSDataTransfer` is tax), then the
//! look-alike fees that are not hidden fees (Glacier early delete,
//! extended support, Defender for Containers, log storage) and the
//! Internet of Things, before the bandwidth rule's `internet`.

use super::Rule;
use crate::model::Category::*;

/// The rules tried before every other tier.
pub(super) const FIRST: &[Rule] = &[
    Rule {
        id: "tax",
        category: Tax,
        patterns: &[
            "=tax",
            "=taxes",
            "=vat",
            "=gst",
            "=hst",
            "=pst",
            "sales tax",
            "withholding",
            "税额",
            "增值税",
            "税费",
            "税金",
            "消费税",
            // de, fr, es/it, nl, ja
            "=mwst",
            "mehrwertsteuer",
            "umsatzsteuer",
            "=ust",
            "=tva",
            "=iva",
            "=btw",
            "消費税",
        ],
        non_positive_only: false,
        why: "taxes are their own category and never hidden fees",
    },
    Rule {
        id: "credit",
        category: Credit,
        patterns: &[
            "=credit",
            "=credits",
            "=discount",
            "=refund",
            "=voucher",
            "=coupon",
            "=promotion",
            "promotional",
            "=rebate",
            "=bundleddiscount",
            "savingsplannegation",
            "代金券",
            "优惠",
            "退款",
            "折扣",
            "返还",
            "抵扣",
            "降配",
            "退订",
            "赠送",
            // de, fr, es, nl, ja
            "gutschrift",
            "rabatt",
            "=remise",
            "réduction",
            "=descuento",
            "=korting",
            "割引",
            "値引",
            // it
            "=sconto",
        ],
        non_positive_only: true,
        why: "credits, discounts and refunds that are their own rows (negative or zero amounts only)",
    },
    Rule {
        id: "other-lookalike",
        category: Other,
        patterns: &[
            // Certificates are neither servers nor storage (`SSLサーバ証明書`).
            "=ssl",
            "certificate",
            "証明書",
            "证书",
            "earlydelete",
            "early delete",
            "extended support",
            "extendedsupport",
            "defender",
            // A security scanner billed per scanned instance-hour
            // (`Amazon Inspector APS1-EC2-Scanning`), as Defender: not compute.
            "amazon inspector",
            "log ingestion",
            "log storage",
            // GCP Cloud Logging's ingestion SKU, not a disk.
            "log volume",
            "logs storage",
            "cloudwatch",
            "=support",
            "support plan",
            "=license",
            "=licence",
            "licensing",
            "许可",
            "技术支持",
            "日志",
            "data factory",
            "workflow orchestration",
            "workflow automation",
        ],
        non_positive_only: false,
        why: "look like fees but are not hidden fees: early-delete penalties, support, licences, security add-ons, logs, and workflow products (Azure Data Factory's `Orchestration Activity Runs`, FOCUS `Workflow Orchestration`): the product, not a cluster fee",
    },
    // Before bandwidth, whose `internet` it contains: `Internet of Things`
    // is a kind of service, not traffic.
    Rule {
        id: "service-iot",
        category: Other,
        patterns: &["internet of things", "=iot"],
        non_positive_only: false,
        why: "Internet of Things services priced per device or message",
    },
];
