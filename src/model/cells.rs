//! The cells of one row, wherever a reader keeps them ([`Cells`]), and the
//! row fingerprint of the `duplicate-line` check, computed over them.

/// The cells of one row as the normaliser, the user rules and the
/// fingerprint read them: a `csv::ByteRecord` (the csv crate, Parquet,
/// a text invoice), or a CSV record read in place in a worker's range
/// buffer (`ingest::split::InPlace`, issue 27 item 3). The row step is
/// generic over it (static dispatch: one copy of the code per kind).
pub trait Cells {
    /// How many cells the row has.
    fn len(&self) -> usize;

    /// Whether the row has no cell.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Cell `i`'s bytes, `None` past the last cell.
    fn get(&self, i: usize) -> Option<&[u8]>;

    /// The cells' bytes, in order.
    fn iter(&self) -> impl Iterator<Item = &[u8]>;

    /// Cell `i` as text, as `std::str::from_utf8` of its bytes gives it;
    /// `None` past the last cell. (A reader that has checked the whole
    /// record's UTF-8 at once slices it instead.)
    fn text(&self, i: usize) -> Option<Result<&str, std::str::Utf8Error>> {
        self.get(i).map(std::str::from_utf8)
    }

    /// The cells' lengths, in order.
    fn lens(&self) -> impl Iterator<Item = usize> {
        self.iter().map(<[u8]>::len)
    }

    /// The bytes of every cell together.
    fn byte_len(&self) -> usize {
        self.iter().map(<[u8]>::len).sum()
    }

    /// The first cell longer than `max` bytes (the oversized-cell test);
    /// a reader that knows no cell of its batch is that long says so
    /// without reading each cell.
    fn cell_over(&self, max: usize) -> Option<usize> {
        if self.byte_len() <= max {
            return None;
        }
        self.iter().position(|f| f.len() > max)
    }

    /// The row's fingerprint when the reader computes it from its own
    /// store, leaving out the cells at `skip`; `None` (the default) for
    /// [`record_fingerprint`] of the cells. A Parquet row hashes its
    /// columns' values one by one (`ingest::parquet::rows::HeldRow`).
    fn fingerprint(&self, skip: &[usize]) -> Option<u64> {
        let _ = skip;
        None
    }
}

impl Cells for csv::ByteRecord {
    #[inline]
    fn len(&self) -> usize {
        csv::ByteRecord::len(self)
    }

    #[inline]
    fn get(&self, i: usize) -> Option<&[u8]> {
        csv::ByteRecord::get(self, i)
    }

    #[inline]
    fn iter(&self) -> impl Iterator<Item = &[u8]> {
        csv::ByteRecord::iter(self)
    }

    #[inline]
    fn byte_len(&self) -> usize {
        self.as_slice().len()
    }
}

/// The fingerprint of a row, a fast 64-bit hash (not for anything
/// adversarial) of every cell except those at `skip` (a row's own id
/// column): each kept cell, in order, folded into the hash so far by
/// `fold_cell`, which mixes in the cell's length, so that `ab|c` and
/// `a|bc` differ. It reads each cell where its reader keeps it (a
/// `ByteRecord`'s buffer, a range's text read in place), so the same cells
/// give the same fingerprint however they are stored, and nothing is
/// copied (issue 27 item 3: putting a row's cells together first to hash
/// them as one cost 16% of a CSV audit's instructions). It lives only in
/// memory, for `duplicate-line`; a Parquet row computes its own
/// ([`Cells::fingerprint`]).
pub fn record_fingerprint<C: Cells + ?Sized>(rec: &C, skip: &[usize]) -> u64 {
    let mut h = SEED;
    if skip.is_empty() {
        for cell in rec.iter() {
            h = fold_cell(h, cell);
        }
    } else {
        for (i, cell) in rec.iter().enumerate() {
            if !skip.contains(&i) {
                h = fold_cell(h, cell);
            }
        }
    }
    mix(h ^ P0, P1)
}

/// `h` with the 64-bit hash `x` folded in (a cell's hash into a row's
/// fingerprint so far; not for anything adversarial).
#[inline(always)]
pub fn fold_hash(h: u64, x: u64) -> u64 {
    mix(h ^ P0, x ^ P1)
}

/// The seed of a row's fingerprint.
const SEED: u64 = 0x9e37_79b9_7f4a_7c15;
/// wyhash's constants (wyhash final version 4, public domain).
const P0: u64 = 0xa076_1d64_78bd_642f;
const P1: u64 = 0xe703_7ed1_a0b4_28db;

/// The 128-bit product of `a` and `b`, its halves xored.
#[inline(always)]
fn mix(a: u64, b: u64) -> u64 {
    let r = u128::from(a) * u128::from(b);
    (r as u64) ^ ((r >> 64) as u64)
}

#[inline(always)]
fn r4(c: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&c[at..at + 4]);
    u64::from(u32::from_le_bytes(w))
}

#[inline(always)]
fn r8(c: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&c[at..at + 8]);
    u64::from_le_bytes(w)
}

/// One cell folded into the hash `h` of the cells before it, in the manner
/// of wyhash (final version 4): the cell's bytes read as two words `a`, `b`
/// (a cell of up to 16 bytes is read whole, in overlapping loads, so the
/// two words and the length tell every such cell apart; a longer one is
/// folded 16 bytes at a time first, from a fixed seed, not from `h`, so
/// that the long cells of a row are folded side by side by the CPU rather
/// than each waiting for the cells before it: 2% of a CSV audit's CPU time),
/// then one 128-bit multiply of them with `h` and the length. The chain
/// makes the order of the cells count.
#[inline(always)]
fn fold_cell(h: u64, c: &[u8]) -> u64 {
    let len = c.len();
    let (a, b) = if len <= 16 {
        if len >= 4 {
            let q = (len >> 3) << 2;
            (
                (r4(c, 0) << 32) | r4(c, q),
                (r4(c, len - 4) << 32) | r4(c, len - 4 - q),
            )
        } else if len > 0 {
            let a = (u64::from(c[0]) << 16) | (u64::from(c[len >> 1]) << 8) | u64::from(c[len - 1]);
            (a, 0)
        } else {
            (0, 0)
        }
    } else {
        let mut s = SEED;
        let mut i = 0;
        while len - i > 16 {
            s = mix(r8(c, i) ^ P1, r8(c, i + 8) ^ s);
            i += 16;
        }
        (r8(c, len - 16) ^ s, r8(c, len - 8))
    };
    mix(a ^ h ^ P0, b ^ (len as u64) ^ P1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fp(cells: &[&str], skip: &[usize]) -> u64 {
        record_fingerprint(&csv::ByteRecord::from(cells.to_vec()), skip)
    }

    /// Rows that differ in one cell, by one byte or one character moved,
    /// at every length a cell is read in (0-3 bytes, 4-7, 8-16, longer),
    /// all have different fingerprints; a cell's bytes moved to its
    /// neighbour, or two cells swapped, change it too.
    #[test]
    fn near_rows_have_distinct_fingerprints() {
        let mut seen = std::collections::HashSet::new();
        let mut rows = 0;
        for len in 0..40 {
            for i in 0..3000u32 {
                let cell: String = format!("{i:0>len$}");
                let amount = format!("{}.{:02}", i / 100, i % 100);
                for row in [
                    [cell.as_str(), "USD", amount.as_str()],
                    ["USD", cell.as_str(), amount.as_str()],
                ] {
                    rows += 1;
                    seen.insert(fp(&row, &[]));
                }
            }
        }
        // Rows that are the same cells give the same fingerprint: 0 to 3
        // digits written at lengths 0-3 are the same cells as `{i}`, so
        // count the distinct rows, not the loops.
        let mut distinct = std::collections::HashSet::new();
        for len in 0..40 {
            for i in 0..3000u32 {
                let cell: String = format!("{i:0>len$}");
                let amount = format!("{}.{:02}", i / 100, i % 100);
                distinct.insert((0, cell.clone(), amount.clone()));
                distinct.insert((1, cell, amount));
            }
        }
        assert!(rows > distinct.len());
        assert_eq!(seen.len(), distinct.len());
        assert_ne!(fp(&["ab", "c"], &[]), fp(&["a", "bc"], &[]));
        assert_ne!(fp(&["x", "y"], &[]), fp(&["y", "x"], &[]));
        assert_ne!(fp(&["", ""], &[]), fp(&[""], &[]));
        let long = "a".repeat(40);
        let longer = "a".repeat(41);
        assert_ne!(fp(&[&long, "a"], &[]), fp(&[&longer], &[]));
        assert_ne!(fp(&[&long], &[]), fp(&[&longer], &[]));
        assert_eq!(fp(&["a", "id-1", "b"], &[1]), fp(&["a", "id-2", "b"], &[1]));
    }
}
