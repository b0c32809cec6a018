//! The reading that reconciles: when the items add up to a whole multiple
//! of a stated figure, and they fall into that many blocks (runs of item
//! lines between other lines) of exactly that figure each, the invoice
//! printed its charges that many times (a summary block above the
//! detail, as AWS's invoice does: `AWS Service Charges $4.11`, then the
//! per-service detail adding to 4.11). One block is counted, the others are
//! set aside ([`HeaderField::SetAside`]) and said in [`SetAside`].
//!
//! Guard: nothing is set aside unless every block of the partition equals
//! the stated figure exactly. Items that merely add up to twice a stated
//! subtotal, with no block equal to it, lose no line: `parse-double-counted`
//! still reports them as an error.

use super::*;
use crate::vocab::invoice::MAX_MULTIPLE;

/// What `reconcile` set aside, for the report.
#[derive(Debug, Clone, PartialEq)]
pub struct SetAside {
    /// The items as first read: `multiple` x `stated`.
    pub read: Decimal,
    pub multiple: u32,
    /// The stated figure the kept block equals, and its line.
    pub stated: Decimal,
    pub stated_line: u64,
    /// The item lines set aside and their sum (a multiple of `stated`).
    pub lines: Vec<u64>,
    pub sum: Decimal,
    /// The first and last line of the block counted.
    pub kept: (u64, u64),
}

impl SetAside {
    /// The note the report carries (`parse-double-counted`, as a note).
    pub fn note(&self, currency: Option<&str>) -> String {
        let cur = |d: Decimal| match currency {
            Some(c) => format!("{d} {c}"),
            None => d.to_string(),
        };
        let lines: Vec<String> = self.lines.iter().map(u64::to_string).collect();
        format!(
            "parse-double-counted: the item lines as printed add up to {}, exactly {} times the stated figure {} on line {}, and they fall into {} blocks of that figure each: the charges are printed {} times (a summary block and the detail); lines {} ({}) were set aside, counted in skipped rows as summary, and lines {}-{} are counted",
            cur(self.read),
            self.multiple,
            cur(self.stated),
            self.stated_line,
            self.multiple,
            self.multiple,
            lines.join(", "),
            cur(self.sum),
            self.kept.0,
            self.kept.1,
        )
    }
}

/// Sets aside the blocks that restate the counted one; see the module.
pub(super) fn reconcile(inv: &mut Invoice) {
    let items: Vec<(usize, u64, Decimal)> = inv
        .lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| match &l.kind {
            LineKind::Item(item) => Some((i, l.line, item.amount.value)),
            _ => None,
        })
        .collect();
    let read: Decimal = items.iter().map(|(_, _, a)| *a).sum();
    let Some((stated, stated_line, multiple)) = targets(inv)
        .into_iter()
        .find_map(|(t, line)| multiple_of(read, t).map(|k| (t, line, k)))
    else {
        return;
    };
    // Blocks: runs of items with only their own continuation and restated
    // sub-lines between them; any other line, or a blank line, ends one.
    let mut blocks: Vec<Vec<usize>> = Vec::new();
    for (n, (i, line, _)) in items.iter().enumerate() {
        let joined = n > 0 && {
            let (pi, pline, _) = items[n - 1];
            let between = &inv.lines[pi + 1..*i];
            let no_blank = between
                .iter()
                .map(|l| l.line)
                .chain([*line])
                .try_fold(pline, |prev, l| (l == prev + 1).then_some(l))
                .is_some();
            no_blank
                && between.iter().all(|l| {
                    matches!(
                        l.kind,
                        LineKind::Header(HeaderField::Continuation | HeaderField::Restated)
                    )
                })
        };
        match blocks.last_mut() {
            Some(b) if joined => b.push(n),
            _ => blocks.push(vec![n]),
        }
    }
    // Groups of whole blocks, each exactly the stated figure.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let mut sum = Decimal::ZERO;
    for b in &blocks {
        open.extend(b);
        sum += b.iter().map(|n| items[*n].2).sum::<Decimal>();
        if sum == stated {
            groups.push(std::mem::take(&mut open));
            sum = Decimal::ZERO;
        }
    }
    if !open.is_empty() || groups.len() != multiple as usize {
        return;
    }
    // The block with the most lines (the detail) is counted; of equal
    // ones, the last (`max_by_key` returns the last of equal maxima).
    let Some(keep) = (0..groups.len()).max_by_key(|g| groups[*g].len()) else {
        return;
    };
    let mut set_aside = SetAside {
        read,
        multiple,
        stated,
        stated_line,
        lines: Vec::new(),
        sum: Decimal::ZERO,
        kept: (
            items[groups[keep][0]].1,
            items[*groups[keep].last().unwrap_or(&groups[keep][0])].1,
        ),
    };
    for (g, group) in groups.iter().enumerate() {
        if g == keep {
            continue;
        }
        for n in group {
            let (i, line, amount) = items[*n];
            inv.lines[i].kind = LineKind::Header(HeaderField::SetAside);
            set_aside.lines.push(line);
            set_aside.sum += amount;
        }
    }
    inv.set_aside = Some(set_aside);
}

/// The stated figures the items may be a multiple of, with their lines: the
/// last subtotal, and the last total less the tax and credit lines.
fn targets(inv: &Invoice) -> Vec<(Decimal, u64)> {
    let last = |k: SummaryKind| inv.summaries().filter(|s| s.kind == k).last();
    let adjust: Decimal = inv
        .summaries()
        .filter(|s| matches!(s.kind, SummaryKind::Tax | SummaryKind::Credit))
        .map(|s| s.amount.value)
        .sum();
    let mut out = Vec::new();
    if let Some(s) = last(SummaryKind::Subtotal) {
        out.push((s.amount.value, s.line));
    }
    if let Some(t) = last(SummaryKind::Total) {
        out.push((t.amount.value - adjust, t.line));
    }
    out.retain(|(t, _)| *t > Decimal::ZERO);
    out
}

/// `k` when `read` is exactly `k` times `stated`, 2 <= k <= 10.
fn multiple_of(read: Decimal, stated: Decimal) -> Option<u32> {
    (2..=MAX_MULTIPLE).find(|k| stated.checked_mul(Decimal::from(*k)) == Some(read))
}
