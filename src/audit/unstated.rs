//! Tax and discount summary rows without a figure (`VAT` with an empty
//! amount cell): not a charge missing its amount, so no `missing-amount`
//! warning, but a `summary` skip the report names in a note, so a bill
//! that names a tax and states none says so (docs/formats.md, "Summary
//! rows"). Top-ups (`充值`: money put into a prepaid account, listed
//! among a ledger's charges) are set aside the same way, in a note of
//! their own. Kept as the rows come and merged in file order, like the
//! bill's other tallies.

use crate::vocab::summary::SummaryKind;

/// How many such rows a note names; the rest are counted.
pub const MAX_NAMED_ROWS: usize = 5;

/// A label is cut to this many characters in the note.
const MAX_LABEL_CHARS: usize = 40;

/// The summary rows without a figure of a bill, or of a range of its rows.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Unstated {
    rows: u64,
    /// Line, kind and label of the first [`MAX_NAMED_ROWS`] rows.
    named: Vec<(u64, SummaryKind, String)>,
    top_ups: u64,
    /// Line and label of the first [`MAX_NAMED_ROWS`] top-ups.
    named_top_ups: Vec<(u64, String)>,
}

fn cut(label: &str) -> String {
    label.chars().take(MAX_LABEL_CHARS).collect()
}

/// `line 4 `VAT``, or `line 4` for an empty label.
fn name_row(line: u64, label: &str) -> String {
    match label {
        "" => format!("line {line}"),
        l => format!("line {line} `{l}`"),
    }
}

/// ` and 3 more` when `rows` is more than `named`.
fn and_more(rows: u64, named: usize) -> String {
    match rows.saturating_sub(named as u64) {
        0 => String::new(),
        n => format!(" and {n} more"),
    }
}

impl Unstated {
    /// A tax or discount summary row on `line`, labelled `label`.
    pub fn add(&mut self, line: u64, kind: SummaryKind, label: &str) {
        self.rows += 1;
        if self.named.len() < MAX_NAMED_ROWS {
            self.named.push((line, kind, cut(label)));
        }
    }

    /// A top-up on `line`, labelled `label`.
    pub fn add_top_up(&mut self, line: u64, label: &str) {
        self.top_ups += 1;
        if self.named_top_ups.len() < MAX_NAMED_ROWS {
            self.named_top_ups.push((line, cut(label)));
        }
    }

    /// Appends the rows right after these.
    pub fn merge(&mut self, later: Unstated) {
        self.rows += later.rows;
        let room = MAX_NAMED_ROWS.saturating_sub(self.named.len());
        self.named.extend(later.named.into_iter().take(room));
        self.top_ups += later.top_ups;
        let room = MAX_NAMED_ROWS.saturating_sub(self.named_top_ups.len());
        self.named_top_ups
            .extend(later.named_top_ups.into_iter().take(room));
    }

    /// Moves every kept line by `by`.
    pub fn shift_lines(&mut self, by: u64) {
        for (line, ..) in &mut self.named {
            *line += by;
        }
        for (line, _) in &mut self.named_top_ups {
            *line += by;
        }
    }

    /// The report's notes: the summary rows without a figure, then the
    /// top-ups.
    pub fn notes(&self) -> Vec<String> {
        self.note().into_iter().chain(self.top_up_note()).collect()
    }

    /// The note on the top-ups, when there was one.
    fn top_up_note(&self) -> Option<String> {
        let named: Vec<String> = self
            .named_top_ups
            .iter()
            .map(|(line, label)| name_row(*line, label))
            .collect();
        match named.as_slice() {
            [] => None,
            [one] if self.top_ups == 1 => Some(format!(
                "{one} is a top-up (money put into the account), not a charge: counted as a summary skip, not summed"
            )),
            _ => Some(format!(
                "{} top-ups (money put into the account), not charges: {}{}; counted as summary skips, not summed",
                self.top_ups,
                named.join(", "),
                and_more(self.top_ups, named.len())
            )),
        }
    }

    /// The note on the summary rows without a figure, when there was one.
    pub fn note(&self) -> Option<String> {
        let word = |k: &SummaryKind| match k {
            SummaryKind::Credit => "discount",
            _ => "tax",
        };
        let named: Vec<String> = self
            .named
            .iter()
            .map(|(line, _, label)| name_row(*line, label))
            .collect();
        match self.named.as_slice() {
            [] => None,
            [(_, kind, _)] if self.rows == 1 => Some(format!(
                "{} is a {} summary row without a figure (its amount cell is empty): counted as a summary skip, nothing summed",
                named[0],
                word(kind)
            )),
            _ => {
                let more = and_more(self.rows, self.named.len());
                Some(format!(
                    "{} tax or discount summary rows without a figure (their amount cells are empty): {}{more}; counted as summary skips, nothing summed",
                    self.rows,
                    named.join(", ")
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_row_is_named_and_many_are_counted() {
        let mut u = Unstated::default();
        assert_eq!(u.note(), None);
        u.add(4, SummaryKind::Tax, "VAT");
        assert_eq!(
            u.note().as_deref(),
            Some(
                "line 4 `VAT` is a tax summary row without a figure (its amount cell is empty): counted as a summary skip, nothing summed"
            )
        );
        for line in 5..12 {
            u.add(line, SummaryKind::Credit, "Discount");
        }
        // 1 + 7 = 8 rows: lines 4-8 named, 8 - 5 = 3 more.
        let note = u.note().unwrap();
        assert!(
            note.starts_with("8 tax or discount summary rows without a figure"),
            "{note}"
        );
        assert!(
            note.contains("line 4 `VAT`, line 5 `Discount`, line 6 `Discount`, line 7 `Discount`, line 8 `Discount` and 3 more;"),
            "{note}"
        );
    }

    #[test]
    fn top_ups_have_a_note_of_their_own_and_merge_in_order() {
        let mut one = Unstated::default();
        one.add_top_up(2, "充值");
        assert_eq!(
            one.notes(),
            [
                "line 2 `充值` is a top-up (money put into the account), not a charge: counted as a summary skip, not summed"
            ]
        );
        one.add(5, SummaryKind::Tax, "VAT");
        for line in 6..12 {
            one.add_top_up(line, "Top-up");
        }
        // A range of lines 8-11, counted from 1, merged after lines 2-7.
        let mut first = Unstated::default();
        first.add_top_up(2, "充值");
        first.add(5, SummaryKind::Tax, "VAT");
        for line in 6..8 {
            first.add_top_up(line, "Top-up");
        }
        let mut later = Unstated::default();
        for line in 1..5 {
            later.add_top_up(line, "Top-up");
        }
        later.shift_lines(7);
        first.merge(later);
        assert_eq!(first, one);
        // 1 + 6 = 7 top-ups: lines 2, 6-9 named, 7 - 5 = 2 more.
        let notes = one.notes();
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].starts_with("line 5 `VAT` is a tax summary row"));
        assert_eq!(
            notes[1],
            "7 top-ups (money put into the account), not charges: line 2 `充值`, line 6 `Top-up`, line 7 `Top-up`, line 8 `Top-up`, line 9 `Top-up` and 2 more; counted as summary skips, not summed"
        );
    }

    #[test]
    fn merged_in_order_equals_one_tally() {
        let rows: Vec<u64> = (10..20).collect();
        let mut one = Unstated::default();
        for &l in &rows {
            one.add(l, SummaryKind::Tax, "Tax");
        }
        for cut in 0..=rows.len() {
            let mut first = Unstated::default();
            for &l in &rows[..cut] {
                first.add(l, SummaryKind::Tax, "Tax");
            }
            let by = 9 + cut as u64;
            let mut later = Unstated::default();
            for &l in &rows[cut..] {
                later.add(l - by, SummaryKind::Tax, "Tax");
            }
            later.shift_lines(by);
            first.merge(later);
            assert_eq!(first, one, "cut {cut}");
        }
    }
}
