//! A row's fingerprint from the cells its record holds (docs/decisions.md,
//! "Parquet: the held cells' fingerprint, column by column"): each kept
//! cell's `xxh3_64` (a dictionary entry's hashed once), folded in column
//! order into the hash so far ([`model::fold_hash`]). A batch's rows are
//! fingerprinted column by column when the batch is decoded
//! ([`batch`]); [`row`] gives the same value for one row.

use super::Cells;
use crate::model;

/// The seed of a held row's fingerprint.
const SEED: u64 = 0x1319_8a2e_0370_7344;

/// The fingerprints of the `n` rows of a batch, into `out`: the cells of
/// the columns `held` (a row's record, in order) but those at `skip` (its
/// indices in the record).
pub(super) fn batch(held: &[usize], skip: &[usize], cells: &[Cells], n: usize, out: &mut Vec<u64>) {
    out.clear();
    out.resize(n, SEED);
    for (k, &c) in held.iter().enumerate() {
        if skip.contains(&k) {
            continue;
        }
        let Some(col) = cells.get(c) else { continue };
        if col.paged_text {
            // A text column's slots: each entry's hash found once.
            for (i, h) in out.iter_mut().enumerate() {
                *h = model::fold_hash(*h, col.paged.hash(col.paged.slot(i)));
            }
        } else {
            for (i, h) in out.iter_mut().enumerate() {
                *h = model::fold_hash(*h, col.cell_hash(i));
            }
        }
    }
}

/// Row `i`'s fingerprint, as [`batch`] gives it.
pub(super) fn row(held: &[usize], skip: &[usize], cells: &[Cells], i: usize) -> u64 {
    let mut h = SEED;
    for (k, &c) in held.iter().enumerate() {
        if !skip.contains(&k) {
            if let Some(col) = cells.get(c) {
                h = model::fold_hash(h, col.cell_hash(i));
            }
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A column of `n` cells, `cell(i)` each, held as bytes and ends.
    fn column(n: usize, cell: impl Fn(usize) -> String) -> Cells {
        let mut c = Cells::default();
        for i in 0..n {
            c.data.extend_from_slice(cell(i).as_bytes());
            c.ends.push(c.data.len());
        }
        c
    }

    #[test]
    fn a_batch_gives_each_row_its_own_fingerprint() {
        let n = 50;
        let cells = vec![
            column(n, |i| format!("GPU hours {}", i % 7)),
            column(n, |i| format!("li-{i}")),
            column(n, |i| format!("{}.00", i % 5)),
            column(n, |_| String::new()),
        ];
        // The record holds columns 0, 1, 2 and 3; the row id (record
        // index 1) is left out.
        let (held, skip) = ([0, 1, 2, 3], [1]);
        let mut out = Vec::new();
        batch(&held, &skip, &cells, n, &mut out);
        assert_eq!(out.len(), n);
        for (i, &fp) in out.iter().enumerate() {
            assert_eq!(fp, row(&held, &skip, &cells, i), "row {i}");
        }
        // Rows 0 and 35 differ only in their ids (35 % 7 = 0, 35 % 5 = 0):
        // the same fingerprint; rows 0 and 5 differ in their description.
        assert_eq!(out[0], out[35]);
        assert_ne!(out[0], out[5]);
        // With the id kept, they differ.
        batch(&held, &[], &cells, n, &mut out);
        assert_ne!(out[0], out[35]);
        // The columns' order counts: two columns swapped give another key.
        let swapped = [cells[2].clone_cells(), cells[0].clone_cells()];
        let mut other = Vec::new();
        batch(&[0, 1], &[], &swapped, n, &mut other);
        let mut same = Vec::new();
        batch(&[0, 2], &[], &cells, n, &mut same);
        assert_ne!(other[0], same[0]);
    }

    impl Cells {
        fn clone_cells(&self) -> Cells {
            let mut c = Cells::default();
            c.data.clone_from(&self.data);
            c.ends.clone_from(&self.ends);
            c
        }
    }
}
