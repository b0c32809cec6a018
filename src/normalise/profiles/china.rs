//! Console exports of Alibaba Cloud, Tencent Cloud and Huawei Cloud.
//!
//! These exports carry several columns about the same money: the list
//! amount, the payable amount, and how it was paid (cash, vouchers, stored
//! value). Only the payable column is summed; the payment splits are listed
//! in `ignored` so they can never be taken as the amount.

use super::Spec;
use crate::model::Category;
use crate::normalise::profile::Role;

/// Refund and downgrade rows in a transaction-type column.
/// `退款-退订` style values start with the kind of transaction.
const REFUNDS: &[&str] = &["退款*", "退费*", "降配*", "退订*", "refund*"];

pub(super) const ALIBABA: Spec = Spec {
    name: "alibaba",
    summary: "Alibaba Cloud 账单明细 (legacy `原价` and new `官网价` exports)",
    cost_column: "应付金额",
    signature: &[
        "产品明细",
        "产品明细Code",
        "产品Code",
        "财务单元",
        "消费类型",
        "实例规格",
        "官网价",
        "抵扣量（含RI）",
        "Owner账号",
    ],
    signature_min: 2,
    required: &[],
    columns: &[
        (Role::Description, &["计费项", "产品明细", "产品"]),
        (Role::Amount, &["应付金额"]),
        (Role::Quantity, &["用量"]),
        (Role::Unit, &["用量单位"]),
        (Role::UnitPrice, &["单价"]),
        (Role::PriceUnit, &["单价单位"]),
        (Role::ListAmount, &["官网价", "原价"]),
        (Role::Currency, &["币种"]),
        (Role::Start, &["账单开始时间"]),
        (Role::End, &["账单结束时间"]),
        (Role::Date, &["消费时间", "账期"]),
        (Role::ResourceId, &["实例ID"]),
    ],
    class_tiers: &[&["计费项", "产品明细"], &["产品"]],
    ignored: &[
        "现金支付",
        "代金券抵扣",
        "储值卡支付金额",
        "欠费金额",
        "优惠金额",
        "优惠券抵扣",
        "资源包抵扣",
        "抵扣量（含RI）",
    ],
    markers: &[
        ("账单类型", REFUNDS, Category::Credit, "alibaba-bill-type"),
        ("消费类型", REFUNDS, Category::Credit, "alibaba-bill-type"),
    ],
    ..Spec::EMPTY
};

pub(super) const TENCENT: Spec = Spec {
    name: "tencent",
    summary: "Tencent Cloud 明细账单 (resource/component detail export)",
    cost_column: "优惠后总价",
    signature: &[
        "优惠后总价",
        "组件名称",
        "子产品名称",
        "支付者UIN",
        "组件原价",
        "组件类型",
    ],
    signature_min: 2,
    required: &[],
    columns: &[
        (Role::Description, &["组件名称", "子产品名称", "产品名称"]),
        (Role::Amount, &["优惠后总价"]),
        (Role::Quantity, &["组件用量"]),
        (Role::Unit, &["组件用量单位"]),
        (Role::UnitPrice, &["组件单价"]),
        (Role::ListAmount, &["组件原价"]),
        (Role::Start, &["开始使用时间"]),
        (Role::End, &["结束使用时间"]),
        (Role::Date, &["扣费时间"]),
        (Role::ResourceId, &["资源ID"]),
    ],
    class_tiers: &[&["组件名称", "子产品名称", "组件类型"], &["产品名称"]],
    ignored: &["代金券支出", "赠送账户支出", "现金账户支出", "组件刊例价"],
    markers: &[(
        "交易类型",
        REFUNDS,
        Category::Credit,
        "tencent-transaction-type",
    )],
    tag_prefixes: &["标签键:"],
    ..Spec::EMPTY
};

pub(super) const HUAWEI: Spec = Spec {
    name: "huawei",
    summary: "Huawei Cloud 流水/明细账单 (使用量类型明细), monthly files in numbered parts",
    cost_column: "应付金额(¥)",
    signature: &[
        "使用量类型编码",
        "使用量类型",
        "产品类型",
        "规格",
        "资源名称",
    ],
    signature_min: 2,
    required: &[],
    columns: &[
        (Role::Description, &["使用量类型", "产品", "产品类型"]),
        (Role::Amount, &["应付金额"]),
        (Role::Quantity, &["使用量"]),
        (Role::Unit, &["使用量单位"]),
        (Role::UnitPrice, &["单价"]),
        (Role::PriceUnit, &["单价单位"]),
        (Role::ListAmount, &["官网价", "原价"]),
        (Role::Period, &["消费时间", "使用时间"]),
        (Role::Date, &["账期"]),
        // The usage-type detail export dates each row by its usage window.
        (Role::Start, &["开始时间"]),
        (Role::End, &["结束时间"]),
        (Role::ResourceId, &["资源ID"]),
    ],
    class_tiers: &[
        &["使用量类型", "使用量类型编码", "规格"],
        &["产品", "产品类型"],
    ],
    ignored: &[
        "现金支付",
        "代金券抵扣",
        "储值卡支付",
        "信用额度支付",
        "奖励金支付",
        "欠费金额",
        "折扣金额",
        "优惠金额",
    ],
    markers: &[("账单类型", REFUNDS, Category::Credit, "huawei-bill-type")],
    ..Spec::EMPTY
};
