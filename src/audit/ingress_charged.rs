use rust_decimal::Decimal;

use super::{CheckInfo, Sink};
use crate::model::{Category, LineItem, Severity};

pub const INFO: CheckInfo = CheckInfo {
    code: "ingress-charged",
    default_severity: Severity::Warning,
    summary: "a bandwidth line for inbound traffic has a non-zero amount",
    what: "Looks at every `bandwidth` line whose texts (description, classification columns, unit) say the traffic is inbound: `ingress`, `inbound`, AWS `-In-Bytes` and `DataTransfer-In`, `data transfer in`, and `入方向`, `入流量`, `流入`, `入网`, `入云`. `下行` (downlink) alone is not taken as inbound: Huawei, Alibaba and Tencent consoles use it for traffic leaving the cloud towards users (Huawei's EIP `下行流量`/`downflow` is the billed outbound direction); a row counts as inbound only when it also names the direction into the cloud (`下行(入云)`). A line that also says outbound (`egress`, `outbound`, `出方向`, `流出`) is ambiguous and skipped. Fires when the amount is above zero; free inbound rows (amount 0) are not findings.",
    why: "Most providers do not charge for data coming in, so inbound traffic is the fee nobody budgets for: uploading a data set or pulling checkpoints across a peering link is billed per GB in both directions. The advice for GPU renters is to confirm that the bandwidth price covers both directions before moving data.",
    example: "Azure `Virtual Network / Virtual Network Peering / Intra-Region Ingress`, 120 GB, 1.20: inbound traffic charged.",
};

const INBOUND: &[&str] = &[
    "ingress",
    "inbound",
    "-in-bytes",
    "datatransfer-in",
    "data transfer in",
    "入方向",
    "入流量",
    "流入",
    "入网",
    "入云",
];
const OUTBOUND: &[&str] = &["egress", "outbound", "出方向", "流出", "-out-bytes"];

/// Whether the texts describe inbound traffic (lowercase input).
pub fn is_inbound(text: &str) -> bool {
    INBOUND.iter().any(|w| text.contains(w)) && !OUTBOUND.iter().any(|w| text.contains(w))
}

pub fn check(item: &LineItem, sink: &mut Sink<'_>) {
    if item.category != Category::Bandwidth || item.amount <= Decimal::ZERO {
        return;
    }
    // The description already joins the texts of every classification column.
    let mut text = item.description.to_lowercase();
    if let Some(u) = &item.unit {
        text.push('\n');
        text.push_str(&u.to_lowercase());
    }
    if !is_inbound(&text) {
        return;
    }
    let quantity = match (item.quantity, &item.unit) {
        (Some(q), Some(u)) => format!(" for {q} {u}"),
        (Some(q), None) => format!(" for {q}"),
        _ => String::new(),
    };
    sink.emit(
        &INFO,
        Some(item.line),
        format!(
            "inbound traffic is charged: {}{quantity} costs {}; confirm the bandwidth price covers both directions",
            item.description,
            super::money(item.amount, item.currency.as_deref())
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions() {
        assert!(is_inbound("virtual network peering - intra-region ingress"));
        assert!(is_inbound("usw2-datatransfer-in-bytes"));
        assert!(is_inbound("公网入方向流量"));
        assert!(!is_inbound("下行流量 downflow"));
        assert!(is_inbound("下行流量(入云)"));
        assert!(!is_inbound("public egress traffic"));
        assert!(!is_inbound("outbound data transfer"));
        assert!(!is_inbound("公网流出流量"));
    }
}
