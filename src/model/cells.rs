//! The cells of one row, wherever a reader keeps them ([`Cells`]), and the
//! row fingerprint of the `duplicate-line` check, computed over them.

use std::cell::RefCell;

use xxhash_rust::xxh3::xxh3_64_with_seed;

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

    /// Every cell's bytes one after another, when the row is stored so (a
    /// `ByteRecord`); `None` when they are apart (in place in the CSV text).
    fn joined(&self) -> Option<&[u8]> {
        None
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

    /// Writes every cell's bytes one after another at the start of `out`
    /// and returns how many they are; `out` may hold more bytes after them
    /// (a reader may copy a cell in whole blocks).
    fn join_into(&self, out: &mut Vec<u8>) -> usize {
        out.clear();
        for cell in self.iter() {
            out.extend_from_slice(cell);
        }
        out.len()
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

    #[inline]
    fn joined(&self) -> Option<&[u8]> {
        Some(self.as_slice())
    }
}

thread_local! {
    /// The kept cells of a row whose cells are apart, put together for
    /// [`record_fingerprint`] (a few hundred bytes, reused row after row).
    static JOINED: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The fingerprint of a row, a fast 64-bit hash (not for anything
/// adversarial) of every cell except those at `skip` (a row's own id
/// column): XXH3 over the cells' bytes, one after another, in runs between
/// the skipped cells, then over every kept cell's length, so that `ab|c`
/// and `a|bc` differ. The same cells give the same fingerprint however
/// they are stored: a row whose cells are apart ([`Cells::joined`] is
/// `None`) has its kept cells put together first, so XXH3 hashes the same
/// bytes in the same calls.
pub fn record_fingerprint<C: Cells + ?Sized>(rec: &C, skip: &[usize]) -> u64 {
    if let Some(all) = rec.joined() {
        return fingerprint_of(all, rec.lens(), skip);
    }
    JOINED.with(|joined| {
        let Ok(mut joined) = joined.try_borrow_mut() else {
            // Not reentrant; never happens, but stays correct.
            let mut own = Vec::new();
            return fingerprint_apart(rec, skip, &mut own);
        };
        fingerprint_apart(rec, skip, &mut joined)
    })
}

/// [`record_fingerprint`] of a row whose cells are apart: every cell put
/// together in `joined` (the skipped ones too, as in a `ByteRecord`'s
/// buffer), then hashed as one.
fn fingerprint_apart<C: Cells + ?Sized>(rec: &C, skip: &[usize], joined: &mut Vec<u8>) -> u64 {
    let n = rec.join_into(joined);
    fingerprint_of(&joined[..n], rec.lens(), skip)
}

/// The fingerprint of the cells `all` holds one after another, of the
/// lengths `lens`.
#[inline]
fn fingerprint_of(all: &[u8], cells: impl Iterator<Item = usize>, skip: &[usize]) -> u64 {
    let mut h = 0x9e37_79b9_7f4a_7c15;
    let mut lens = [0u8; 256];
    let mut n = 0;
    let (mut run, mut at) = (0usize, 0usize);
    for (i, len) in cells.enumerate() {
        if skip.contains(&i) {
            h = xxh3_64_with_seed(&all[run..at], h);
            run = at + len;
        } else {
            if n == lens.len() {
                h = xxh3_64_with_seed(&lens, h);
                n = 0;
            }
            let len = u32::try_from(len).unwrap_or(u32::MAX);
            lens[n..n + 4].copy_from_slice(&len.to_le_bytes());
            n += 4;
        }
        at += len;
    }
    h = xxh3_64_with_seed(&all[run..at], h);
    xxh3_64_with_seed(&lens[..n], h)
}
