use std::cell::RefCell;

use rust_decimal::Decimal;
use rustc_hash::FxHashMap;
use xxhash_rust::xxh3::{xxh3_64, xxh3_64_with_seed};

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

/// Descriptions and units whose [`is_inbound`] a thread remembers.
const REMEMBERED: usize = 4096;

thread_local! {
    /// [`is_inbound`] of each (description, unit) seen on this thread,
    /// by their hash: a bill repeats a few bandwidth lines on many rows.
    static INBOUND_OF: RefCell<FxHashMap<u64, bool>> = RefCell::new(FxHashMap::default());
}

/// Whether a line's description and unit describe inbound traffic:
/// [`is_inbound`] of both lowercased, remembered per distinct pair (a
/// 64-bit hash of both, as for the GPU model memo).
fn inbound(description: &str, unit: Option<&str>) -> bool {
    let seed = xxh3_64(description.as_bytes());
    let key = match unit {
        Some(u) => xxh3_64_with_seed(u.as_bytes(), seed),
        None => seed ^ 0x9e37_79b9_7f4a_7c15,
    };
    if let Some(found) = INBOUND_OF.with(|m| m.borrow().get(&key).copied()) {
        return found;
    }
    // The description already joins the texts of every classification column.
    let mut text = description.to_lowercase();
    if let Some(u) = unit {
        text.push('\n');
        text.push_str(&u.to_lowercase());
    }
    let found = is_inbound(&text);
    INBOUND_OF.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= REMEMBERED {
            m.clear();
        }
        m.insert(key, found);
    });
    found
}

pub(crate) fn check<'p>(item: &LineItem, sink: &mut impl Emit<'p>) {
    if item.category != Category::Bandwidth || item.amount <= Decimal::ZERO {
        return;
    }
    if !inbound(&item.description, item.unit.as_deref()) {
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

    /// The remembered answer is the one of the same description and unit:
    /// the unit alone can make a line inbound (`-in-bytes` in `GB-In-Bytes`) or not (with
    /// `Download` in it), and a repeat is answered from the memo as the
    /// first time. Each answer is `is_inbound` of the two lowercased,
    /// written out above.
    #[test]
    fn inbound_is_remembered_per_description_and_unit() {
        for _ in 0..2 {
            assert!(inbound("Data Transfer", Some("GB-In-Bytes")));
            assert!(!inbound("Data Transfer", Some("GB")));
            assert!(!inbound("Data Transfer", None));
            assert!(!inbound("Ingress", Some("GB Download")));
            assert!(inbound("Ingress", None));
            assert!(inbound("公网入方向流量", Some("GB")));
        }
    }
}
