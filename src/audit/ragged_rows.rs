//! `ragged-row` findings, one per shape of row: a bill exported with an
//! unquoted thousands separator has one ragged row per amount of 1,000 or
//! more, and a finding on each buried every other finding under the same
//! sentence. Rows wider than their header that are read the same way
//! (the same number of cells, the same columns joined, or read by position
//! for the same reason: the normaliser's shape key) are one finding, on the
//! first such row's line, with the exact number of rows and the first
//! [`MAX_LISTED_LINES`] lines (docs/decisions.md, "Rows wider than their
//! header"). The findings of distinct shapes are capped per code like any
//! other.
//!
//! Kept as the rows come, merged in file order: a range's shapes extend the
//! shapes of the rows before it, so every thread count gives one result.

use rustc_hash::FxHashMap;

use super::Sink;
use crate::model::{Check, Finding};
use crate::normalise::ragged::and_list;

/// How many lines of a shape a finding lists; the rest are counted.
pub const MAX_LISTED_LINES: usize = 10;

/// The ragged rows of a bill (or of a range of its rows), by shape, in the
/// order of each shape's first row.
#[derive(Debug, Default)]
pub struct RaggedRows {
    shapes: Vec<Shape>,
    /// A shape's place in `shapes`, by its key.
    index: FxHashMap<Box<str>, usize>,
}

#[derive(Debug)]
struct Shape {
    key: Box<str>,
    /// The part of a merged bill the first row comes from ([`Sink::part`]).
    part: usize,
    /// The finding on the first row of the shape.
    first: Finding,
    /// How many rows have the shape.
    rows: u64,
    /// The lines of its first [`MAX_LISTED_LINES`] rows, in file order.
    lines: Vec<u64>,
}

impl RaggedRows {
    /// A ragged row of shape `key`, of part `part`, and its finding.
    pub fn add(&mut self, finding: Finding, key: &str, part: usize) {
        let line = finding.line.unwrap_or(0);
        match self.index.get(key) {
            Some(&i) => {
                let s = &mut self.shapes[i];
                s.rows += 1;
                if s.lines.len() < MAX_LISTED_LINES {
                    s.lines.push(line);
                }
            }
            None => {
                self.index.insert(key.into(), self.shapes.len());
                self.shapes.push(Shape {
                    key: key.into(),
                    part,
                    first: finding,
                    rows: 1,
                    lines: vec![line],
                });
            }
        }
    }

    /// Appends the ragged rows of the rows right after these, of part
    /// `part` (a range's rows are of the part read when it is merged).
    pub fn merge(&mut self, later: RaggedRows, part: usize) {
        for mut shape in later.shapes {
            match self.index.get(&shape.key) {
                Some(&i) => {
                    let s = &mut self.shapes[i];
                    s.rows += shape.rows;
                    let room = MAX_LISTED_LINES.saturating_sub(s.lines.len());
                    s.lines.extend(shape.lines.into_iter().take(room));
                }
                None => {
                    shape.part = part;
                    self.index.insert(shape.key.clone(), self.shapes.len());
                    self.shapes.push(shape);
                }
            }
        }
    }

    /// Moves every kept line by `by` (a range counts its lines from its
    /// start).
    pub fn shift_lines(&mut self, by: u64) {
        for s in &mut self.shapes {
            s.first.line = s.first.line.map(|l| l + by);
            for l in &mut s.lines {
                *l += by;
            }
        }
    }

    /// One `ragged-row` finding per shape, on its first row's line.
    pub fn evaluate(self, sink: &mut Sink<'_>) {
        for s in self.shapes {
            let message = if s.rows == 1 {
                s.first.message
            } else {
                let listed: Vec<String> = s.lines.iter().map(u64::to_string).collect();
                let more = s.rows - s.lines.len() as u64;
                let tail = if more > 0 {
                    format!("{} and {more} more", listed.join(", "))
                } else {
                    and_list(&listed)
                };
                format!(
                    "{}; {} rows have this shape, read the same way: lines {tail}",
                    s.first.message, s.rows
                )
            };
            sink.emit_in(s.part, Check::RaggedRow, s.first.line, message);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::Policy;
    use crate::model::Severity;

    /// The finding of the row on line `line` of the file, read `by` lines
    /// after the file's start (a range counts its lines from its start).
    fn finding(line: u64, by: u64) -> Finding {
        Finding {
            code: Check::RaggedRow,
            severity: Severity::Warning,
            message: format!("row {line}"),
            path: "b.csv".into(),
            line: Some(line - by),
            accepted: None,
        }
    }

    fn messages(r: RaggedRows) -> Vec<(Option<u64>, String)> {
        let policy = Policy::default();
        let mut sink = Sink::new("b.csv", &policy);
        r.evaluate(&mut sink);
        sink.finish()
            .into_iter()
            .map(|f| (f.line, f.message))
            .collect()
    }

    /// Rows 2..=31 of shape `a`, rows 40, 41 of shape `b`, row 50 of `c`.
    fn rows() -> Vec<(u64, &'static str)> {
        let mut rows: Vec<(u64, &str)> = (2..=31).map(|l| (l, "a")).collect();
        rows.extend([(40, "b"), (41, "b"), (50, "c")]);
        rows
    }

    #[test]
    fn one_finding_per_shape_with_its_exact_count_and_first_lines() {
        let mut r = RaggedRows::default();
        for (line, key) in rows() {
            r.add(finding(line, 0), key, 0);
        }
        let got = messages(r);
        // 30 rows of `a`: lines 2-11 listed, 30 - 10 = 20 more.
        assert_eq!(
            got,
            [
                (
                    Some(2),
                    "row 2; 30 rows have this shape, read the same way: lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 20 more".to_string()
                ),
                (
                    Some(40),
                    "row 40; 2 rows have this shape, read the same way: lines 40 and 41".to_string()
                ),
                (Some(50), "row 50".to_string()),
            ]
        );
    }

    #[test]
    fn ranges_merged_in_order_give_the_one_state_result() {
        let mut one = RaggedRows::default();
        for (line, key) in rows() {
            one.add(finding(line, 0), key, 0);
        }
        let want = messages(one);
        let all = rows();
        for cut in [0, 1, 5, 12, 30, 31, all.len()] {
            let (head, tail) = all.split_at(cut);
            let mut first = RaggedRows::default();
            for &(line, key) in head {
                first.add(finding(line, 0), key, 0);
            }
            // A range counts its lines from its start (line 1 is `by` + 1).
            let by = head.last().map_or(0, |(l, _)| *l);
            let mut later = RaggedRows::default();
            for &(line, key) in tail {
                later.add(finding(line, by), key, 0);
            }
            later.shift_lines(by);
            first.merge(later, 0);
            assert_eq!(messages(first), want, "cut at {cut}");
        }
    }
}
