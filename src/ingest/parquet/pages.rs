//! Byte-array columns (BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY: texts, and
//! DECIMALs stored so) decoded page by page into dictionary indices
//! (issue 27, item 4): a row's value is a [`Slots`] slot, an index into
//! the column chunk's dictionary, and each dictionary entry is checked
//! (UTF-8, blank) and hashed once, not once a row. The
//! `parquet` crate's reader copies every value out of the dictionary (a
//! reference-counted `Bytes` a row, taken and dropped); its value decoder
//! trait is private, so the pages are read here from its page reader,
//! which has already checked and decompressed them.
//!
//! Read here: data pages v1 and v2 of a flat column, definition levels in
//! the RLE / bit-packed hybrid, values PLAIN or dictionary encoded
//! (PLAIN_DICTIONARY, RLE_DICTIONARY). A column chunk that lists another
//! value encoding (DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY,
//! BYTE_STREAM_SPLIT), or BIT_PACKED levels for an optional column, is read
//! by the crate's reader as before ([`takes`]). Damaged pages are errors,
//! never a panic and never an allocation the file's bytes ask for.

use std::sync::Arc;

use ::parquet::basic::Encoding;
use ::parquet::column::page::{Page, PageReader};
use bytes::Bytes;
use xxhash_rust::xxh3::xxh3_64;

/// The slot of a row whose value is null.
pub const NULL: u32 = u32::MAX;
/// Slots from here on are the batch's plain values (`slot - PLAIN`).
const PLAIN: u32 = 1 << 31;

/// Whether a column chunk of these encodings, for a column of `max_def`,
/// is read here (see the module docs).
// BIT_PACKED is deprecated, and still named in old writers' files.
#[allow(deprecated)]
pub fn takes(encodings: impl Iterator<Item = Encoding>, max_def: i16) -> bool {
    let mut ok = true;
    for e in encodings {
        ok &= match e {
            Encoding::PLAIN | Encoding::PLAIN_DICTIONARY | Encoding::RLE_DICTIONARY => true,
            Encoding::RLE => true,
            // Old writers list BIT_PACKED for the repetition levels a flat
            // column does not have; for definition levels it is not read here.
            Encoding::BIT_PACKED => max_def == 0,
            _ => false,
        };
    }
    ok
}

/// The dictionary of a column chunk: its entries, each entry's hash, and
/// whether it is UTF-8 and blank, found once. The UTF-8 entries are kept
/// as one text (a row's cell is then a `&str` without a second check),
/// the others as bytes.
#[derive(Debug, Default)]
pub struct Dict {
    text: String,
    raw: Vec<u8>,
    /// Each entry's place in `text`, or in `raw` when it is not UTF-8.
    spans: Vec<(u32, u32)>,
    hashes: Vec<u64>,
    /// The offset of an entry's first byte that is not UTF-8, or `u32::MAX`.
    bad: Vec<u32>,
    blank: Vec<bool>,
    /// The length of the longest entry.
    longest: usize,
}

impl Dict {
    /// A dictionary page of `n` PLAIN values ([`plain_value`]).
    fn from_plain(data: &[u8], n: u32, width: Option<usize>) -> Result<Dict, String> {
        let mut d = Dict::default();
        let mut pos = 0usize;
        for k in 0..n {
            let (start, end) = plain_value(data, pos, width)
                .ok_or_else(|| format!("the dictionary page ends inside its entry {k} of {n}"))?;
            let bytes = &data[start..end];
            d.longest = d.longest.max(bytes.len());
            d.hashes.push(xxh3_64(bytes));
            d.blank.push(bytes.iter().all(u8::is_ascii_whitespace));
            // Offsets fit in u32: the page does.
            match std::str::from_utf8(bytes) {
                Ok(t) => {
                    let from = d.text.len() as u32;
                    d.text.push_str(t);
                    d.spans.push((from, d.text.len() as u32));
                    d.bad.push(u32::MAX);
                }
                Err(e) => {
                    let from = d.raw.len() as u32;
                    d.raw.extend_from_slice(bytes);
                    d.spans.push((from, d.raw.len() as u32));
                    d.bad.push(e.valid_up_to() as u32);
                }
            }
            pos = end;
        }
        Ok(d)
    }

    fn len(&self) -> usize {
        self.spans.len()
    }

    #[inline]
    fn get(&self, k: usize) -> &[u8] {
        match (self.spans.get(k), self.bad.get(k)) {
            (Some(&(s, e)), Some(&u32::MAX)) => &self.text.as_bytes()[s as usize..e as usize],
            (Some(&(s, e)), Some(_)) => &self.raw[s as usize..e as usize],
            _ => &[],
        }
    }

    /// Entry `k` as text, when it is UTF-8.
    #[inline]
    fn str(&self, k: usize) -> Option<&str> {
        match (self.spans.get(k), self.bad.get(k)) {
            (Some(&(s, e)), Some(&u32::MAX)) => self.text.get(s as usize..e as usize),
            _ => None,
        }
    }
}

/// One batch of a text column: each row's slot ([`NULL`], a dictionary
/// entry, or one of the batch's plain values).
#[derive(Debug, Default)]
pub struct Slots {
    rows: Vec<u32>,
    dict: Arc<Dict>,
    plain: Vec<u8>,
    plain_ends: Vec<u32>,
}

impl Slots {
    /// The number of rows.
    pub fn rows(&self) -> usize {
        self.rows.len()
    }

    /// Row `i`'s slot.
    #[inline]
    pub fn slot(&self, i: usize) -> u32 {
        self.rows.get(i).copied().unwrap_or(NULL)
    }

    /// A slot's bytes (empty for a null).
    #[inline]
    pub fn bytes(&self, slot: u32) -> &[u8] {
        if slot == NULL {
            b""
        } else if slot >= PLAIN {
            let k = (slot - PLAIN) as usize;
            let start = if k == 0 {
                0
            } else {
                self.plain_ends[k - 1] as usize
            };
            &self.plain[start..self.plain_ends[k] as usize]
        } else {
            self.dict.get(slot as usize)
        }
    }

    /// Row `i`'s cell (empty for a null).
    #[inline]
    pub fn cell(&self, i: usize) -> &[u8] {
        self.bytes(self.slot(i))
    }

    /// At least the length of the longest cell: the dictionary's longest
    /// entry or the longest PLAIN value of the batch.
    pub fn longest(&self) -> usize {
        let plain = self
            .plain_ends
            .iter()
            .scan(0u32, |start, &end| {
                let len = end - *start;
                *start = end;
                Some(len as usize)
            })
            .max()
            .unwrap_or(0);
        plain.max(self.dict.longest)
    }

    /// Row `i`'s cell as text, as `std::str::from_utf8` of its bytes gives
    /// it: a dictionary entry's was found once ([`Dict`]).
    #[inline]
    pub fn text(&self, i: usize) -> Result<&str, std::str::Utf8Error> {
        let slot = self.slot(i);
        match slot {
            NULL => Ok(""),
            s if s < PLAIN => match self.dict.str(s as usize) {
                Some(t) => Ok(t),
                None => std::str::from_utf8(self.bytes(s)),
            },
            s => std::str::from_utf8(self.bytes(s)),
        }
    }

    /// A slot's hash: `xxh3_64` of its bytes (a null's bytes are none).
    #[inline]
    pub fn hash(&self, slot: u32) -> u64 {
        match slot {
            s if s < PLAIN => self.dict.hashes[s as usize],
            s => xxh3_64(self.bytes(s)),
        }
    }

    /// Whether a (not null) slot's value is all ASCII whitespace.
    #[inline]
    pub fn blank(&self, slot: u32) -> bool {
        match slot {
            s if s < PLAIN => self.dict.blank[s as usize],
            s => self.bytes(s).iter().all(u8::is_ascii_whitespace),
        }
    }

    /// For a slot whose value is not UTF-8, the offset of its first invalid
    /// byte.
    #[inline]
    pub fn utf8_error(&self, slot: u32) -> Option<usize> {
        match slot {
            NULL => None,
            s if s < PLAIN => {
                let bad = self.dict.bad[s as usize];
                (bad != u32::MAX).then_some(bad as usize)
            }
            s => std::str::from_utf8(self.bytes(s))
                .err()
                .map(|e| e.valid_up_to()),
        }
    }

    fn clear(&mut self) {
        self.rows.clear();
        self.plain.clear();
        self.plain_ends.clear();
    }
}

/// The RLE / bit-packed hybrid encoding of levels and dictionary indices.
#[derive(Debug, Default, Clone)]
struct Hybrid {
    data: Bytes,
    pos: usize,
    bit_width: u32,
    rle_left: usize,
    rle_value: u32,
    packed_left: usize,
    /// The bit of `data` where the next bit-packed value starts.
    bit: usize,
}

impl Hybrid {
    fn new(data: Bytes, bit_width: u32) -> Result<Self, String> {
        if bit_width > 32 {
            return Err(format!("a bit width of {bit_width} (at most 32)"));
        }
        Ok(Hybrid {
            data,
            bit_width,
            ..Hybrid::default()
        })
    }

    /// The next value: an error when the data ends first.
    #[inline]
    fn next(&mut self) -> Result<u32, String> {
        loop {
            if self.rle_left > 0 {
                self.rle_left -= 1;
                return Ok(self.rle_value);
            }
            if self.packed_left > 0 {
                self.packed_left -= 1;
                let v = self.packed();
                self.bit += self.bit_width as usize;
                return Ok(v);
            }
            self.run()?;
        }
    }

    /// Appends the next `n` values to `out` (as `n` calls of
    /// [`Hybrid::next`] give them, a run at a time); an error when the data
    /// ends first, with the values before it appended.
    fn fill(&mut self, n: usize, out: &mut Vec<u32>) -> Result<(), String> {
        let mut left = n;
        while left > 0 {
            if self.rle_left > 0 {
                let k = self.rle_left.min(left);
                out.extend(std::iter::repeat_n(self.rle_value, k));
                self.rle_left -= k;
                left -= k;
            } else if self.packed_left > 0 {
                let k = self.packed_left.min(left);
                let w = self.bit_width as usize;
                out.extend((0..k).map(|j| self.packed_at(self.bit + j * w)));
                self.bit += k * w;
                self.packed_left -= k;
                left -= k;
            } else {
                self.run()?;
            }
        }
        Ok(())
    }

    #[inline]
    fn packed(&self) -> u32 {
        self.packed_at(self.bit)
    }

    /// The bit-packed value that starts at bit `bit` of `data`.
    #[inline]
    fn packed_at(&self, bit: usize) -> u32 {
        let w = self.bit_width;
        if w == 0 {
            return 0;
        }
        let (byte, shift) = (bit / 8, bit % 8);
        let word = match self.data.get(byte..byte + 8) {
            Some(b) => u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
            None => {
                let mut word = 0u64;
                for (k, b) in self.data.get(byte..).unwrap_or(&[]).iter().enumerate() {
                    word |= u64::from(*b) << (8 * k);
                }
                word
            }
        };
        ((word >> shift) & ((1u64 << w) - 1)) as u32
    }

    /// Reads the next run's header (and an RLE run's value).
    fn run(&mut self) -> Result<(), String> {
        let header = self.varint()?;
        let w = self.bit_width as usize;
        if header & 1 == 1 {
            let groups = usize::try_from(header >> 1).unwrap_or(usize::MAX);
            let bytes = groups.saturating_mul(w);
            let have = self.data.len() - self.pos;
            // A last run may be cut short: only the values its bytes hold.
            let values = match (have.min(bytes) * 8).checked_div(w) {
                None => groups.saturating_mul(8),
                Some(held) => groups.saturating_mul(8).min(held),
            };
            if values == 0 && groups > 0 {
                return Err("the hybrid encoding ends inside a bit-packed run".into());
            }
            self.bit = self.pos * 8;
            self.packed_left = values;
            self.pos += have.min(bytes);
        } else {
            let width = w.div_ceil(8);
            let v = self
                .data
                .get(self.pos..self.pos + width)
                .ok_or("the hybrid encoding ends inside a run's value")?;
            let mut value = 0u32;
            for (k, b) in v.iter().enumerate() {
                value |= u32::from(*b) << (8 * k);
            }
            self.pos += width;
            self.rle_value = value;
            self.rle_left = usize::try_from(header >> 1).unwrap_or(usize::MAX);
        }
        Ok(())
    }

    fn varint(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for k in 0..10 {
            let b = *self
                .data
                .get(self.pos)
                .ok_or("the hybrid encoding ends before the values it must hold")?;
            self.pos += 1;
            v |= u64::from(b & 0x7f) << (7 * k);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err("a run header of more than 10 bytes".into())
    }
}

/// The values of the current data page.
#[derive(Debug, Default, Clone)]
enum Values {
    #[default]
    None,
    Dict(Hybrid),
    Plain(Bytes, usize),
}

/// A byte-array column chunk read page by page (see the module docs).
pub struct BytesChunk {
    pages: Box<dyn PageReader>,
    max_def: i16,
    /// The length of a FIXED_LEN_BYTE_ARRAY's values; `None` for a
    /// BYTE_ARRAY.
    width: Option<usize>,
    dict: Option<Arc<Dict>>,
    levels: Hybrid,
    values: Values,
    /// Rows (levels) left in the current page.
    left: usize,
    /// The levels of the rows being read ([`BytesChunk::batch`]).
    scratch: Vec<u32>,
}

impl BytesChunk {
    pub fn new(pages: Box<dyn PageReader>, max_def: i16, width: Option<usize>) -> Self {
        BytesChunk {
            pages,
            max_def,
            width,
            dict: None,
            levels: Hybrid::default(),
            values: Values::None,
            left: 0,
            scratch: Vec::new(),
        }
    }

    /// Reads the next `n` rows into `out`. `done` rows of the row group were
    /// read before (for the message when the column ends early).
    ///
    /// A page's rows are read a run at a time ([`BytesChunk::batch`]):
    /// levels, then values; when that finds an error, the same rows
    /// are read again value by value ([`BytesChunk::values`]) from where
    /// they started, so the error is the one the first bad row gives.
    pub fn read(&mut self, n: usize, done: u64, out: &mut Slots) -> Result<(), String> {
        out.clear();
        let mut i = 0;
        while i < n {
            while self.left == 0 {
                if !self.next_page()? {
                    return Err(format!(
                        "the column ends after {} rows of a row group that claims more",
                        done + i as u64
                    ));
                }
            }
            let take = (n - i).min(self.left);
            let saved = (self.levels.clone(), self.values.clone());
            let start = (out.rows.len(), out.plain.len(), out.plain_ends.len());
            if self.batch(take, out).is_err() {
                out.rows.truncate(start.0);
                out.plain.truncate(start.1);
                out.plain_ends.truncate(start.2);
                (self.levels, self.values) = saved;
                self.values(take, out)?;
            }
            self.left -= take;
            i += take;
        }
        if let Some(d) = &self.dict {
            out.dict = Arc::clone(d);
        }
        Ok(())
    }

    /// Reads `take` rows of the current page into `out`: their levels,
    /// then the values of the rows that are not null (a run of dictionary
    /// indices, or PLAIN values), then the nulls spread among them.
    fn batch(&mut self, take: usize, out: &mut Slots) -> Result<(), String> {
        let start = out.rows.len();
        let max_def = self.max_def as u32;
        let mut values = take;
        if self.max_def > 0 {
            // The levels go where the rows will be, for a moment.
            self.levels.fill(take, &mut out.rows)?;
            let levels = &out.rows[start..];
            if levels.iter().any(|&l| l > max_def) {
                return Err("a definition level out of range".into());
            }
            values = levels.iter().filter(|&&l| l == max_def).count();
            self.scratch.clear();
            self.scratch.extend_from_slice(levels);
            out.rows.truncate(start);
        }
        match &mut self.values {
            Values::Dict(h) => {
                h.fill(values, &mut out.rows)?;
                let entries = self.dict.as_ref().map_or(0, |d| d.len());
                if out.rows[start..].iter().any(|&k| k as usize >= entries) {
                    return Err("a dictionary index out of range".into());
                }
            }
            Values::Plain(data, pos) => match self.width {
                // Fixed-length values lie one after another: one copy.
                Some(w) => plain_run(data, pos, w, values, out)?,
                None => {
                    for _ in 0..values {
                        let slot = next_plain(data, pos, self.width, out)?;
                        out.rows.push(slot);
                    }
                }
            },
            Values::None => return Err("a data page without values".into()),
        }
        if values < take {
            // Spread the nulls, from the back.
            out.rows.resize(start + take, NULL);
            let mut from = start + values;
            for (at, &l) in self.scratch.iter().enumerate().rev() {
                out.rows[start + at] = if l == max_def {
                    from -= 1;
                    out.rows[from]
                } else {
                    NULL
                };
            }
        }
        Ok(())
    }

    /// Reads `take` rows of the current page into `out`, value by value.
    fn values(&mut self, take: usize, out: &mut Slots) -> Result<(), String> {
        for _ in 0..take {
            if self.max_def > 0 {
                let level = self.levels.next()?;
                if level < self.max_def as u32 {
                    out.rows.push(NULL);
                    continue;
                }
                if level > self.max_def as u32 {
                    return Err(format!(
                        "a definition level of {level} (at most {})",
                        self.max_def
                    ));
                }
            }
            let slot = match &mut self.values {
                Values::Dict(h) => {
                    let k = h.next()?;
                    let entries = self.dict.as_ref().map_or(0, |d| d.len());
                    if k as usize >= entries {
                        return Err(format!(
                            "a dictionary index of {k} in a dictionary of {entries} entries"
                        ));
                    }
                    k
                }
                Values::Plain(data, pos) => next_plain(data, pos, self.width, out)?,
                Values::None => return Err("a data page without values".into()),
            };
            out.rows.push(slot);
        }
        Ok(())
    }

    /// Moves to the next data page (taking a dictionary page on the way):
    /// false at the end of the chunk.
    fn next_page(&mut self) -> Result<bool, String> {
        loop {
            let page = match self.pages.get_next_page().map_err(|e| e.to_string())? {
                None => return Ok(false),
                Some(p) => p,
            };
            let (buf, levels, values, encoding, rows) = match page {
                Page::DictionaryPage {
                    buf,
                    num_values,
                    encoding,
                    ..
                } => {
                    if self.dict.is_some() {
                        return Err("a column chunk with two dictionary pages".into());
                    }
                    if !matches!(encoding, Encoding::PLAIN | Encoding::PLAIN_DICTIONARY) {
                        return Err(format!("a dictionary page encoded {encoding}"));
                    }
                    self.dict = Some(Arc::new(Dict::from_plain(&buf, num_values, self.width)?));
                    continue;
                }
                Page::DataPage {
                    buf,
                    num_values,
                    encoding,
                    def_level_encoding,
                    ..
                } => {
                    let mut at = 0usize;
                    let mut levels = Bytes::new();
                    if self.max_def > 0 {
                        if def_level_encoding != Encoding::RLE {
                            return Err(format!("definition levels encoded {def_level_encoding}"));
                        }
                        let len = buf.get(0..4).ok_or("a data page ends in its levels")?;
                        let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
                        let end = 4usize.saturating_add(len);
                        if end > buf.len() {
                            return Err("a data page ends in its levels".into());
                        }
                        levels = buf.slice(4..end);
                        at = end;
                    }
                    let values = buf.slice(at..);
                    (buf, levels, values, encoding, num_values)
                }
                Page::DataPageV2 {
                    buf,
                    num_values,
                    encoding,
                    def_levels_byte_len,
                    rep_levels_byte_len,
                    ..
                } => {
                    let rep = rep_levels_byte_len as usize;
                    let end = rep.saturating_add(def_levels_byte_len as usize);
                    if end > buf.len() {
                        return Err("a data page ends in its levels".into());
                    }
                    let levels = buf.slice(rep..end);
                    let values = buf.slice(end..);
                    (buf, levels, values, encoding, num_values)
                }
            };
            drop(buf);
            let bits = 16 - (self.max_def as u16).leading_zeros();
            self.levels = Hybrid::new(levels, bits)?;
            self.values = match encoding {
                Encoding::PLAIN => Values::Plain(values, 0),
                Encoding::PLAIN_DICTIONARY | Encoding::RLE_DICTIONARY => {
                    if self.dict.is_none() {
                        return Err("a dictionary-encoded page without a dictionary".into());
                    }
                    let width = *values.first().unwrap_or(&0);
                    Values::Dict(Hybrid::new(
                        values.slice(1.min(values.len())..),
                        width.into(),
                    )?)
                }
                e => {
                    return Err(format!(
                        "a data page encoded {e}, which the chunk did not list"
                    ));
                }
            };
            self.left = rows as usize;
            if self.left > 0 {
                return Ok(true);
            }
        }
    }
}

mod plain;
use plain::{next_plain, plain_run, plain_value};

#[cfg(test)]
#[path = "pages_tests.rs"]
mod tests;
