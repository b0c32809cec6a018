//! Tax and discount summary rows without a figure (`VAT` with an empty
//! amount cell): not a charge missing its amount, so no `missing-amount`
//! warning, but a `summary` skip the report names in a note, so a bill
//! that names a tax and states none says so (docs/formats.md, "Summary
//! rows"). Kept as the rows come and merged in file order, like the
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
}

impl Unstated {
    /// A tax or discount summary row on `line`, labelled `label`.
    pub fn add(&mut self, line: u64, kind: SummaryKind, label: &str) {
        self.rows += 1;
        if self.named.len() < MAX_NAMED_ROWS {
            let cut: String = label.chars().take(MAX_LABEL_CHARS).collect();
            self.named.push((line, kind, cut));
        }
    }

    /// Appends the rows right after these.
    pub fn merge(&mut self, later: Unstated) {
        self.rows += later.rows;
        let room = MAX_NAMED_ROWS.saturating_sub(self.named.len());
        self.named.extend(later.named.into_iter().take(room));
    }

    /// Moves every kept line by `by`.
    pub fn shift_lines(&mut self, by: u64) {
        for (line, ..) in &mut self.named {
            *line += by;
        }
    }

    /// The report's note, when there was such a row.
    pub fn note(&self) -> Option<String> {
        let word = |k: &SummaryKind| match k {
            SummaryKind::Credit => "discount",
            _ => "tax",
        };
        let named: Vec<String> = self
            .named
            .iter()
            .map(|(line, _, label)| match label.as_str() {
                "" => format!("line {line}"),
                l => format!("line {line} `{l}`"),
            })
            .collect();
        match self.named.as_slice() {
            [] => None,
            [(_, kind, _)] if self.rows == 1 => Some(format!(
                "{} is a {} summary row without a figure (its amount cell is empty): counted as a summary skip, nothing summed",
                named[0],
                word(kind)
            )),
            _ => {
                let more = self.rows - self.named.len() as u64;
                let more = if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                };
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
