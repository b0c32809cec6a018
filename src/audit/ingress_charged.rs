use rust_decimal::Decimal;

use super::Emit;
use crate::model::{Category, LineItem};
use crate::vocab::checks::Check;

pub(crate) const INBOUND: &[&str] = &[
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
    // A GPU marketplace's `Instance 42 upload charge`: data sent to the host.
    "upload",
];
pub(crate) const OUTBOUND: &[&str] = &[
    "egress",
    "outbound",
    "出方向",
    "流出",
    "-out-bytes",
    "download",
];

/// Whether the texts describe inbound traffic (lowercase input).
pub(crate) fn is_inbound(text: &str) -> bool {
    INBOUND.iter().any(|w| text.contains(w)) && !OUTBOUND.iter().any(|w| text.contains(w))
}

pub(crate) fn check<'p>(item: &LineItem, sink: &mut impl Emit<'p>) {
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
        Check::IngressCharged,
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
        assert!(is_inbound("instance 42 upload charge: 3 gb * $0.02/gb"));
        assert!(!is_inbound(
            "instance 42 download charge: 12.5 gb * $0.02/gb"
        ));
    }
}
