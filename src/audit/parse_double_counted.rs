//! Reconciliation as the safety net of the text-invoice reader: items that
//! add up to a whole multiple of a stated total, or to the sum of several
//! stated totals, were read more than once.

use rust_decimal::Decimal;

use super::{Sink, agrees, money};
use crate::vocab::checks::Check;

/// One subtotal or total a text invoice states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stated {
    pub line: u64,
    pub amount: Decimal,
    /// A total (`Total`, `Amount due`), not a subtotal: only totals are
    /// added together (section subtotals legitimately add up to the items).
    pub total: bool,
}

/// At most this multiple of a stated figure is recognised.
pub(crate) const MAX_MULTIPLE: u32 = crate::vocab::invoice::MAX_MULTIPLE;

/// Sums of stated figures are tried over at most this many of them (the
/// first ones, by line): 2^12 subsets.
pub(crate) const MAX_STATED: usize = 12;

/// `stated`: every subtotal and total the invoice states, in line order.
/// The items: their sum (`subtotal`), and with tax and credits (`total`).
pub(crate) fn check(
    stated: &[Stated],
    subtotal: Decimal,
    total: Decimal,
    currency: Option<&str>,
    sink: &mut Sink<'_>,
) {
    let stated: Vec<Stated> = stated
        .iter()
        .copied()
        .filter(|s| s.amount > Decimal::ZERO)
        .collect();
    if stated.is_empty() {
        return;
    }
    let computed = [
        (subtotal, "the item lines"),
        (total, "the items with tax and credits"),
    ];
    if stated
        .iter()
        .any(|s| computed.iter().any(|(c, _)| agrees(s.amount, *c)))
    {
        return;
    }
    // A whole multiple of one stated figure.
    for (sum, what) in computed {
        if sum <= Decimal::ZERO {
            continue;
        }
        for Stated {
            line, amount: s, ..
        } in &stated
        {
            for k in 2..=MAX_MULTIPLE {
                let Some(times) = s.checked_mul(Decimal::from(k)) else {
                    break;
                };
                let tolerance = super::tolerance(*s) * Decimal::from(k);
                if (sum - times).abs() <= tolerance {
                    sink.emit(
                        Check::ParseDoubleCounted,
                        Some(*line),
                        format!(
                            "{what} add up to {}, exactly {k} times the stated figure {} on this line: each charge was probably read {k} times (a line restated by a sub-line, or a summary and a detail listing the same charges); the figures of this bill are not to be trusted",
                            money(sum, currency),
                            money(*s, currency)
                        ),
                    );
                    return;
                }
            }
        }
    }
    // The sum of two or more stated totals.
    let first: Vec<(u64, Decimal)> = stated
        .iter()
        .filter(|s| s.total)
        .map(|s| (s.line, s.amount))
        .take(MAX_STATED)
        .collect();
    for (sum, what) in computed {
        if sum <= Decimal::ZERO {
            continue;
        }
        for mask in 1u32..(1u32 << first.len()) {
            if mask.count_ones() < 2 {
                continue;
            }
            let parts: Vec<(u64, Decimal)> = first
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, p)| *p)
                .collect();
            let Some(together) = parts
                .iter()
                .try_fold(Decimal::ZERO, |acc, (_, d)| acc.checked_add(*d))
            else {
                continue;
            };
            let tolerance: Decimal = parts.iter().map(|(_, d)| super::tolerance(*d)).sum();
            if (sum - together).abs() <= tolerance {
                let named: Vec<String> = parts
                    .iter()
                    .map(|(l, d)| format!("{d} (line {l})"))
                    .collect();
                sink.emit(
                    Check::ParseDoubleCounted,
                    Some(parts[0].0),
                    format!(
                        "{what} add up to {}, the sum of the stated totals {}: charges were probably read once per total that states them; the figures of this bill are not to be trusted",
                        money(sum, currency),
                        named.join(" + ")
                    ),
                );
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::Policy;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    /// `(line, amount, is a total)`.
    fn run(
        stated: &[(u64, &str, bool)],
        subtotal: &str,
        total: &str,
    ) -> Vec<(Option<u64>, String)> {
        let policy = Policy::default();
        let mut sink = Sink::new("inv.txt", &policy);
        let stated: Vec<Stated> = stated
            .iter()
            .map(|(line, s, total)| Stated {
                line: *line,
                amount: d(s),
                total: *total,
            })
            .collect();
        check(&stated, d(subtotal), d(total), Some("USD"), &mut sink);
        sink.finish()
            .into_iter()
            .map(|f| (f.line, f.message))
            .collect()
    }

    #[test]
    fn a_whole_multiple_of_a_stated_total_is_reported() {
        // 1,200.00 + 300.00 + 45.50 = 1,545.50, each read twice: 3,091.00 = 2 x 1,545.50.
        let f = run(&[(15, "1545.50", true)], "3091.00", "3091.00");
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].0, Some(15));
        assert!(
            f[0].1
                .contains("exactly 2 times the stated figure 1545.50 USD"),
            "{f:?}"
        );
        // Three times: 3 x 10.00 = 30.00, off by 0.01 (within 3 x 0.005 = 0.015).
        let f = run(&[(9, "10.00", false)], "30.01", "30.01");
        assert!(f[0].1.contains("exactly 3 times"), "{f:?}");
        // Off by 0.02 > 0.015: not a multiple.
        assert!(run(&[(9, "10.00", false)], "30.02", "30.02").is_empty());
        // 11 x is beyond MAX_MULTIPLE.
        assert!(run(&[(9, "10.00", false)], "110.00", "110.00").is_empty());
    }

    #[test]
    fn the_sum_of_several_stated_totals_is_reported() {
        // A summary page states `Total 100.00` (line 20) for October and a
        // second invoice page `Total 70.00` (line 40) for a credit note's
        // re-bill; the items are read from both detail pages and the summary:
        // 100.00 + 70.00 = 170.00, neither total agreeing, no multiple of either
        // (170.00 / 100.00 = 1.7, 170.00 / 70.00 = 2.43).
        let f = run(
            &[(20, "100.00", true), (40, "70.00", true)],
            "170.00",
            "170.00",
        );
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].0, Some(20));
        assert!(
            f[0].1.contains("100.00 (line 20) + 70.00 (line 40)"),
            "{f:?}"
        );
        // Subtotals (sections) adding up to the items are not a wrong parse.
        assert!(
            run(
                &[(20, "100.00", false), (40, "70.00", false)],
                "170.00",
                "170.00"
            )
            .is_empty()
        );
    }

    #[test]
    fn silent_when_a_stated_figure_agrees_or_nothing_is_stated() {
        // Section subtotals 50.00 + 50.00 and a grand total 100.00 that agrees.
        assert!(
            run(
                &[
                    (5, "50.00", false),
                    (9, "50.00", false),
                    (12, "100.00", true)
                ],
                "100.00",
                "100.00"
            )
            .is_empty()
        );
        // Subtotal agrees, total (with tax) agrees.
        assert!(
            run(
                &[(5, "100.00", false), (7, "120.00", true)],
                "100.00",
                "120.00"
            )
            .is_empty()
        );
        assert!(run(&[], "200.00", "200.00").is_empty());
        // An amount due of zero is not a figure to multiply.
        assert!(run(&[(5, "0.00", true)], "200.00", "200.00").is_empty());
        // Items that merely differ: total-mismatch's business, not this check's.
        assert!(run(&[(5, "100.00", true)], "130.00", "130.00").is_empty());
    }

    #[test]
    fn a_stated_zero_is_no_figure_to_agree_with() {
        // An invoice of tax only (items 0.00, tax 200.00) stating `Total
        // 100.00` and, after a payment, `Amount due 0.00`: the items with tax,
        // 200.00 = 2 x 100.00, are a double count; the zero agreeing with the
        // item lines' 0.00 must not silence it.
        let f = run(&[(5, "100.00", true), (9, "0.00", true)], "0.00", "200.00");
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].0, Some(5));
        assert!(f[0].1.contains("exactly 2 times"), "{f:?}");
    }

    #[test]
    fn sums_of_exactly_the_totals_named() {
        // Three totals, 110.00 (line 3), 230.00 (line 6), 470.00 (line 9), no
        // multiple of any one near the sums below (110 x 3 = 330, x 4 = 440,
        // x 7 = 770, x 8 = 880; 230 x 3 = 690, x 4 = 920; 470 x 2 = 940).
        let stated = [
            (3, "110.00", true),
            (6, "230.00", true),
            (9, "470.00", true),
        ];
        // Two of them: 110.00 + 230.00 = 340.00, named alone.
        let f = run(&stated, "340.00", "340.00");
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].0, Some(3));
        assert!(
            f[0].1.contains("totals 110.00 (line 3) + 230.00 (line 6):"),
            "{f:?}"
        );
        assert!(!f[0].1.contains("line 9"), "{f:?}");
        // All three: 110.00 + 230.00 + 470.00 = 810.00 (no pair makes it:
        // 340.00, 580.00, 700.00).
        let f = run(&stated, "810.00", "810.00");
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].1
                .contains("110.00 (line 3) + 230.00 (line 6) + 470.00 (line 9)"),
            "{f:?}"
        );
    }
}
