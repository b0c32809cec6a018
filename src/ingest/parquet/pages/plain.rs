//! PLAIN values of a data page taken into a batch's [`Slots`].

use super::{PLAIN, Slots};

/// Takes the PLAIN value at `pos` of a data page into `out`'s values and
/// moves `pos` past it; its slot.
pub(super) fn next_plain(
    data: &[u8],
    pos: &mut usize,
    width: Option<usize>,
    out: &mut Slots,
) -> Result<u32, String> {
    let (start, end) = plain_value(data, *pos, width).ok_or("a data page ends inside a value")?;
    *pos = end;
    out.plain.extend_from_slice(&data[start..end]);
    out.plain_ends.push(out.plain.len() as u32);
    Ok(PLAIN + (out.plain_ends.len() - 1) as u32)
}

/// Takes `n` PLAIN values of `w` bytes each at `pos` of a data page into
/// `out`'s values, and their slots into its rows, as `n` calls of
/// [`next_plain`] would, with one copy.
pub(super) fn plain_run(
    data: &[u8],
    pos: &mut usize,
    w: usize,
    n: usize,
    out: &mut Slots,
) -> Result<(), String> {
    // No value read, none that could end outside the page.
    if n == 0 {
        return Ok(());
    }
    let end = n
        .checked_mul(w)
        .and_then(|len| pos.checked_add(len))
        .filter(|&end| end <= data.len())
        .ok_or("a data page ends inside a value")?;
    let first = out.plain_ends.len();
    let base = out.plain.len();
    if u32::try_from(base + (end - *pos)).is_err() || u32::try_from(first + n).is_err() {
        return Err("a batch of values over 4 GiB".into());
    }
    out.plain.extend_from_slice(&data[*pos..end]);
    *pos = end;
    out.plain_ends
        .extend((1..=n).map(|k| (base + k * w) as u32));
    out.rows
        .extend((first..first + n).map(|k| PLAIN + k as u32));
    Ok(())
}

/// A PLAIN value at `pos`: a byte array (`width` `None`: a 4-byte length,
/// then its bytes) or a fixed-length one of `width` bytes; its bytes'
/// range, `None` when the data ends first. Offsets fit in `u32`: a page is
/// at most `i32::MAX` bytes.
pub(super) fn plain_value(data: &[u8], pos: usize, width: Option<usize>) -> Option<(usize, usize)> {
    if let Some(w) = width {
        let end = pos.checked_add(w)?;
        return (end <= data.len() && end <= u32::MAX as usize).then_some((pos, end));
    }
    let len = data.get(pos..pos.checked_add(4)?)?;
    let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
    let start = pos + 4;
    let end = start.checked_add(len)?;
    (end <= data.len() && end <= u32::MAX as usize).then_some((start, end))
}
