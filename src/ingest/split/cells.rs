//! A record of the splitter read in place ([`InPlace`]), and either kind
//! of record a range gives ([`Row`]), as [`Cells`].

use ::csv::ByteRecord;

use crate::model::Cells;

/// A record read in place ([`Splitter::cells`](super::Splitter::cells)):
/// its cells are where they are in the range's buffer, except those with
/// doubled quotes, which are unescaped into the splitter's scratch buffer.
/// Nothing is copied per cell but those (issue 27 item 3).
#[derive(Debug, Clone, Copy)]
pub struct InPlace<'s> {
    pub(super) buf: &'s [u8],
    pub(super) scratch: &'s [u8],
    /// Each cell's `[start, end)`: in `buf`, or at `start - buf.len()` in
    /// `scratch` when `start` is past `buf`.
    pub(super) bounds: &'s [(usize, usize)],
    /// The record's bytes of `buf` from `lo` on, when they are UTF-8, and
    /// `scratch`'s: a cell's text is a slice of them (a cell starts and
    /// ends at an ASCII delimiter, quote or line end, so at a character
    /// boundary).
    pub(super) text: Option<&'s str>,
    pub(super) lo: usize,
    pub(super) scratch_text: Option<&'s str>,
}

impl<'s> InPlace<'s> {
    #[inline]
    fn cell(&self, (start, end): (usize, usize)) -> &'s [u8] {
        let n = self.buf.len();
        if start < n {
            &self.buf[start..end]
        } else {
            &self.scratch[start - n..end - n]
        }
    }
}

impl Cells for InPlace<'_> {
    #[inline]
    fn len(&self) -> usize {
        self.bounds.len()
    }

    #[inline]
    fn get(&self, i: usize) -> Option<&[u8]> {
        self.bounds.get(i).map(|b| self.cell(*b))
    }

    #[inline]
    fn iter(&self) -> impl Iterator<Item = &[u8]> {
        self.bounds.iter().map(|b| self.cell(*b))
    }

    /// A slice of the record's checked text; `from_utf8` of the cell when
    /// the record is not UTF-8 as a whole (the same answer either way).
    #[inline]
    fn text(&self, i: usize) -> Option<Result<&str, std::str::Utf8Error>> {
        let &(s, e) = self.bounds.get(i)?;
        let n = self.buf.len();
        let checked = if s < n {
            let lo = self.lo;
            self.text
                .and_then(|t| t.get(s.checked_sub(lo)?..e.checked_sub(lo)?))
        } else {
            self.scratch_text.and_then(|t| t.get(s - n..e - n))
        };
        Some(match checked {
            Some(t) => Ok(t),
            None => std::str::from_utf8(self.cell((s, e))),
        })
    }

    #[inline]
    fn lens(&self) -> impl Iterator<Item = usize> {
        self.bounds.iter().map(|(s, e)| e - s)
    }

    #[inline]
    fn byte_len(&self) -> usize {
        self.lens().sum()
    }
}

/// The record [`RangeRecords::next`](super::RangeRecords::next) read: in
/// place, or in the `ByteRecord` the csv crate filled.
#[derive(Debug, Clone, Copy)]
pub enum Row<'s> {
    InPlace(InPlace<'s>),
    Record(&'s ByteRecord),
}

/// Either kind, one `match` per call (tests; the row step matches once
/// per row and runs the code made for each kind).
impl Cells for Row<'_> {
    fn len(&self) -> usize {
        match self {
            Row::InPlace(c) => c.len(),
            Row::Record(r) => r.len(),
        }
    }

    fn get(&self, i: usize) -> Option<&[u8]> {
        match self {
            Row::InPlace(c) => c.get(i),
            Row::Record(r) => r.get(i),
        }
    }

    fn iter(&self) -> impl Iterator<Item = &[u8]> {
        (0..self.len()).filter_map(|i| self.get(i))
    }
}
