use super::SummaryKind::*;
use super::*;

#[test]
fn labels_by_language() {
    for (label, k) in [
        ("Subtotal", Subtotal),
        ("Balance due:", Total),
        ("Grand Total", Total),
        ("Invoice total", Total),
        ("小计", Subtotal),
        ("税额：", Tax),
        ("价税合计", Total),
        ("应付总额", Total),
        ("本期应付", Total),
        ("Zwischensumme", Subtotal),
        ("Nettobetrag", Subtotal),
        ("MwSt.", Tax),
        ("USt.", Tax),
        ("Gesamtbetrag", Total),
        ("Rechnungsbetrag", Total),
        ("Summe", Total),
        ("Sous-total", Subtotal),
        ("Total HT", Subtotal),
        ("Total TTC", Total),
        ("TVA", Tax),
        ("小計", Subtotal),
        ("合計", Total),
        ("ご請求金額", Total),
        ("消費税", Tax),
        ("Subtotaal", Subtotal),
        ("Totaal", Total),
        ("BTW", Tax),
        ("IVA", Tax),
        ("Impostos", Tax),
        ("  TOTAL  DUE ", Total),
        ("Subtotal 小计", Subtotal),
        ("Discount", Credit),
        ("total tax", Tax),
        ("Promotional credits 代金券抵扣", Credit),
    ] {
        assert_eq!(kind(label), Some(k), "{label}");
    }
    // A bilingual label of two kinds, and item words, are not summaries.
    for label in [
        "Subtotal 合计",
        "GPU hours",
        "Total GPU hours",
        "",
        "Tax refund",
    ] {
        assert_eq!(kind(label), None, "{label}");
    }
}

#[test]
fn rates_and_currencies_around_the_label() {
    let usd = |w: &str| w.eq_ignore_ascii_case("usd");
    assert_eq!(stated_kind("Tax (8%)", usd), Some(Tax));
    assert_eq!(stated_kind("税额（6%）：", usd), Some(Tax));
    assert_eq!(stated_kind("VAT 20%", usd), Some(Tax));
    assert_eq!(stated_kind("Tax @ 8%", usd), Some(Tax));
    assert_eq!(stated_kind("Total USD", usd), Some(Total));
    // Only a word the reader calls a currency is dropped.
    assert_eq!(stated_kind("Total GPU", usd), None);
    assert_eq!(stated_kind("USD", usd), None);
}

#[test]
fn each_label_once_lowercase_and_short() {
    let all: Vec<&str> = KINDS
        .iter()
        .flat_map(|(_, set)| set.iter().copied())
        .collect();
    for (i, l) in all.iter().enumerate() {
        assert!(!all[..i].contains(l), "`{l}` is in two tables");
        assert_eq!(*l, normalise(l), "`{l}` is not normalised");
        assert!(l.len() <= 32, "`{l}` is too long for MAX_LABEL_BYTES");
        assert!(kind(l).is_some(), "`{l}`");
    }
}

#[test]
fn amounts_due_payments_carried_sums_and_breakdowns() {
    for l in [
        "Amount due",
        "Te betalen",
        "Somme à payer",
        "本期应付金额",
        "TOTAL AMOUNT DUE",
        "Zahlbetrag",
        "Zu zahlen:",
    ] {
        assert!(is_due(l), "{l}");
        assert_eq!(kind(l), Some(Total), "{l}");
    }
    assert!(!is_due("Total"));
    for l in ["Applied balance", "Betaald met iDeal", "现金支付", "Paid"] {
        assert!(is_payment(l), "{l}");
        assert_eq!(kind(l), None, "{l}: a payment is no summary kind");
    }
    assert!(!is_payment("Payment processing fee"));
    assert!(is_carried("Übertrag") && is_carried("Carried forward"));
    // Item words are not carried sums.
    assert!(!is_carried("Transport") && !is_carried("Report"));
    assert!(is_breakdown("Charges") && !is_breakdown("Stratus Service Charges"));
    for l in PAYMENT.iter().chain(CARRIED).chain(BREAKDOWN).chain(TOP_UP) {
        assert_eq!(*l, normalise(l), "`{l}` is not normalised");
    }
    // A top-up is a whole cell, in any ASCII case, and no summary kind.
    for l in [
        "充值",
        " 账户充值 ",
        "\u{3000}充值\u{3000}",
        "Top-up",
        "RECHARGE",
        "Add funds\t",
    ] {
        assert!(is_top_up(l), "{l}");
        assert_eq!(kind(l), None, "{l}");
    }
    for l in ["Paid", "Payment", "Top-up bonus GPU hours", "充值卡"] {
        assert!(!is_top_up(l), "{l}");
    }
    // Every label is found, through the length mask too.
    for l in TOP_UP {
        assert!(l.len() < 64 && is_top_up(l), "{l}");
    }
}

proptest::proptest! {
    #[test]
    fn any_cell_is_asked_about_without_panic(s in "\\PC{0,80}") {
        let _ = kind(&s);
        let _ = stated_kind(&s, |w| w.len() == 3);
        let _ = label_in(&normalise(&s), TOTAL);
    }
}
