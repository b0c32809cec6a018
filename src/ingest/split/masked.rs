//! A record read 64 bytes at a time by bit masks (issue 27 item 3): the
//! quotes, delimiters and line ends of a block found at once, which of them
//! stand inside quotes from the running parity of the quotes before them,
//! and the cells cut at the delimiters outside quotes. It reads only the
//! records whose quoting it checks to be the common, well-formed kind (a
//! quote opens a cell only at its start, a closing quote is followed by the
//! delimiter, a line end or the quote that doubles it) and whose line end
//! is in the buffer; for any other record it says so and
//! [`Splitter::split`](super::Splitter::split) reads that record byte by
//! byte, as before. Either way the cells are the same (the tests compare
//! both with the csv crate).

const QUOTE: u8 = b'"';

/// What a record read by masks gave.
pub(super) struct Read {
    /// Its line-end byte.
    pub(super) term: usize,
    /// The line feeds inside its quoted cells.
    pub(super) lines: u64,
    /// Every byte of the record is ASCII (so its text is UTF-8).
    pub(super) ascii: bool,
}

/// Reads the record at `at` of `buf` into `bounds` (and `scratch`, for the
/// cells with doubled quotes) as [`Splitter::split`](super::Splitter::split)
/// does; `None` when the record is not of the kind read here (the bounds
/// are then undefined).
pub(super) fn record(
    buf: &[u8],
    delim: u8,
    at: usize,
    bounds: &mut Vec<(usize, usize)>,
    scratch: &mut Vec<u8>,
) -> Option<Read> {
    let n = buf.len();
    bounds.clear();
    scratch.clear();
    let mut base = at;
    // Carried from the block before: inside quotes after its last byte
    // (all ones or none); its last byte a separator (the record's start
    // counts as one); its last byte a closing quote; that quote not
    // followed by a second one in that block, so to be checked here.
    let (mut inside, mut after_sep, mut after_close, mut close_pending) = (0u64, 1u64, 0u64, 0u64);
    let mut cell = at;
    // The cell being read has a doubled quote in an earlier block.
    let mut cell_doubled = false;
    let mut lines = 0u64;
    // The record's bytes with the high bit set (not ASCII).
    let mut high = 0u64;
    loop {
        if base >= n {
            return None;
        }
        let left = n - base;
        let valid = if left >= 64 { !0 } else { (1u64 << left) - 1 };
        let [q, d, lf, cr, hi] = masks(buf, base, delim).map(|m| m & valid);
        // Bit i set: inside quotes just after byte i.
        let inq = prefix_xor(q) ^ inside;
        let ends = lf | cr;
        let seps = (d | ends) & !inq;
        let opening = q & inq;
        let closing = q & !inq;
        // The second quote of a doubled pair in a quoted cell.
        let doubled = opening & ((closing << 1) | after_close);
        let term = ends & seps;
        // The record's bytes in this block: up to its line end.
        let below = if term == 0 {
            valid
        } else {
            (term & term.wrapping_neg()) - 1
        };
        // A quote that opens a cell stands at the cell's start.
        if opening & !doubled & below & !((seps << 1) | after_sep) != 0 {
            return None;
        }
        // A closing quote at the block's end before is followed here by a
        // separator or by the quote that doubles it.
        if close_pending != 0 && (doubled | seps) & 1 == 0 {
            return None;
        }
        // ... and so is every closing quote of this block (one at its last
        // byte in the next block: the shift drops it here).
        let closed = closing & !(doubled >> 1) & below;
        if (closed << 1) & !seps != 0 {
            return None;
        }
        lines += u64::from((lf & inq & below).count_ones());
        high |= hi & below;
        let mut cuts = d & seps & below;
        // The block's bits from the current cell's start on.
        let mut from_cell = !0u64;
        while cuts != 0 {
            let b = cuts.trailing_zeros();
            let p = base + b as usize;
            let here = doubled & from_cell & ((1u64 << b) - 1) != 0;
            push_cell(buf, cell, p, cell_doubled || here, bounds, scratch);
            (cell, cell_doubled) = (p + 1, false);
            from_cell = !0u64 << b << 1;
            cuts &= cuts - 1;
        }
        if term != 0 {
            let b = term.trailing_zeros();
            let t = base + b as usize;
            let here = doubled & from_cell & ((1u64 << b) - 1) != 0;
            push_cell(buf, cell, t, cell_doubled || here, bounds, scratch);
            return Some(Read {
                term: t,
                lines,
                ascii: high == 0,
            });
        }
        cell_doubled |= doubled & from_cell != 0;
        if left <= 64 {
            // The buffer ends inside the record.
            return None;
        }
        inside = 0u64.wrapping_sub(inq >> 63);
        after_sep = seps >> 63;
        after_close = closing >> 63;
        close_pending = closed >> 63;
        base += 64;
    }
}

/// The cell `buf[from..to]`: unquoted, or quoted (its quotes dropped and,
/// when it has `doubled` quotes, unescaped into `scratch`, at `buf.len()`
/// and on in `bounds`, as [`InPlace`](super::InPlace) reads them).
#[inline(always)]
fn push_cell(
    buf: &[u8],
    from: usize,
    to: usize,
    doubled: bool,
    bounds: &mut Vec<(usize, usize)>,
    scratch: &mut Vec<u8>,
) {
    if buf.get(from) != Some(&QUOTE) {
        bounds.push((from, to));
        return;
    }
    // A well-formed quoted cell: `"`, its text, `"`.
    if !doubled {
        bounds.push((from + 1, to - 1));
        return;
    }
    let text = &buf[from + 1..to - 1];
    let kept = scratch.len();
    // Each quote of the text is the first of a doubled pair: kept once.
    // (A short cell: a byte loop, not a search call per quote.)
    let mut i = 0;
    while let Some(&b) = text.get(i) {
        scratch.push(b);
        i += if b == QUOTE { 2 } else { 1 };
    }
    let n = buf.len();
    bounds.push((n + kept, n + scratch.len()));
}

/// Bit i set when an odd number of the bits 0..=i of `x` are set.
#[inline(always)]
fn prefix_xor(mut x: u64) -> u64 {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    x
}

/// Bit masks of the quotes, delimiters, line feeds, carriage returns and
/// bytes that are not ASCII of the 64 bytes of `buf` from `from` (past its
/// end, zero bytes).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn masks(buf: &[u8], from: usize, delim: u8) -> [u64; 5] {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
    };
    let mut padded = [0u8; 64];
    let chunk = match buf.get(from..from + 64) {
        Some(c) => c,
        None => {
            let tail = buf.get(from..).unwrap_or_default();
            padded[..tail.len()].copy_from_slice(tail);
            &padded[..]
        }
    };
    let mut out = [0u64; 5];
    // SAFETY: SSE2 is part of every x86_64 target, so its intrinsics are
    // available; each load reads exactly the 16 bytes of `part`.
    unsafe {
        let wanted = [
            _mm_set1_epi8(QUOTE as i8),
            _mm_set1_epi8(delim as i8),
            _mm_set1_epi8(b'\n' as i8),
            _mm_set1_epi8(b'\r' as i8),
        ];
        for (k, part) in chunk.chunks_exact(16).take(4).enumerate() {
            let v = _mm_loadu_si128(part.as_ptr().cast::<__m128i>());
            for (m, w) in out.iter_mut().zip(wanted) {
                *m |= u64::from(_mm_movemask_epi8(_mm_cmpeq_epi8(v, w)) as u16) << (16 * k);
            }
            // The high bit of each byte.
            out[4] |= u64::from(_mm_movemask_epi8(v) as u16) << (16 * k);
        }
    }
    out
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
pub(super) fn masks(buf: &[u8], from: usize, delim: u8) -> [u64; 5] {
    let mut out = [0u64; 5];
    for (i, &b) in buf.iter().skip(from).take(64).enumerate() {
        for (m, w) in out.iter_mut().zip([QUOTE, delim, b'\n', b'\r']) {
            *m |= u64::from(b == w) << i;
        }
        out[4] |= u64::from(!b.is_ascii()) << i;
    }
    out
}
