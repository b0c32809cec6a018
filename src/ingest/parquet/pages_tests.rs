//! Tests of the page decoder (`pages.rs`).

use super::*;

fn hybrid(data: &[u8], w: u32, n: usize) -> Result<Vec<u32>, String> {
    let mut h = Hybrid::new(Bytes::copy_from_slice(data), w)?;
    (0..n).map(|_| h.next()).collect()
}

#[test]
fn hybrid_reads_rle_and_bit_packed_runs() {
    // RLE run of 3 x 5 (header 3<<1 = 6, one value byte), then one
    // bit-packed group of 8 values 0..7 at width 3 (header 1<<1|1 = 3):
    // the spec's own example bytes 10001000 11000110 11111010.
    let data = [6, 5, 3, 0b1000_1000, 0b1100_0110, 0b1111_1010];
    assert_eq!(
        hybrid(&data, 3, 11).unwrap(),
        vec![5, 5, 5, 0, 1, 2, 3, 4, 5, 6, 7]
    );
    // Past the end is an error, not a panic.
    assert!(hybrid(&data, 3, 12).is_err());
    // A width over 32 is refused; width 0 reads zeros.
    assert!(Hybrid::new(Bytes::new(), 33).is_err());
    assert_eq!(hybrid(&[3], 0, 8).unwrap(), vec![0; 8]);
    // A bit-packed run cut short holds only the values of its bytes.
    assert_eq!(hybrid(&[3, 0b1000_1000], 3, 2).unwrap(), vec![0, 1]);
    assert!(hybrid(&[3, 0b1000_1000], 3, 3).is_err());
    // A header that never ends.
    assert!(hybrid(&[0xff; 11], 1, 1).is_err());
}

#[test]
fn a_dictionary_is_checked_once_an_entry() {
    let mut page = Vec::new();
    for v in [&b"GPU"[..], b"  ", b"\xff\xfe", b""] {
        page.extend_from_slice(&(v.len() as u32).to_le_bytes());
        page.extend_from_slice(v);
    }
    let d = Dict::from_plain(&page, 4, None).unwrap();
    assert_eq!(d.get(0), b"GPU");
    assert_eq!(d.get(2), b"\xff\xfe");
    assert_eq!((d.str(1), d.str(2), d.str(3)), (Some("  "), None, Some("")));
    assert_eq!(d.blank, vec![false, true, false, true]);
    assert_eq!(d.bad, vec![u32::MAX, u32::MAX, 0, u32::MAX]);
    assert_eq!(d.hashes[0], xxh3_64(b"GPU"));
    // One entry more than the page holds.
    assert!(Dict::from_plain(&page, 5, None).is_err());
    // A length past the end.
    assert!(Dict::from_plain(&[9, 0, 0, 0, b'x'], 1, None).is_err());
    // Fixed-length values: two of 2 bytes, and a third cut short.
    let d = Dict::from_plain(&[1, 2, 3, 4], 2, Some(2)).unwrap();
    assert_eq!((d.get(0), d.get(1)), (&[1u8, 2][..], &[3u8, 4][..]));
    assert!(Dict::from_plain(&[1, 2, 3], 2, Some(2)).is_err());
}

/// Encodes `runs` (an RLE run: `(false, value, count)`; a bit-packed
/// run: `(true, first, groups)`, the values `first, first + 1, ...`
/// masked to `w` bits) in the hybrid encoding, and the values they hold.
fn encode(runs: &[(bool, u32, u32)], w: u32) -> (Vec<u8>, Vec<u32>) {
    let (mut data, mut values) = (Vec::new(), Vec::new());
    let mask = if w == 0 { 0 } else { u32::MAX >> (32 - w) };
    let varint = |mut v: u64, data: &mut Vec<u8>| loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            data.push(b);
            break;
        }
        data.push(b | 0x80);
    };
    for &(packed, first, n) in runs {
        if packed {
            varint(u64::from(n) << 1 | 1, &mut data);
            let vals: Vec<u32> = (0..8 * n).map(|k| first.wrapping_add(k) & mask).collect();
            let mut bits = vec![0u8; (8 * n * w).div_ceil(8) as usize];
            for (k, v) in vals.iter().enumerate() {
                for b in 0..w {
                    if v >> b & 1 == 1 {
                        let at = k * w as usize + b as usize;
                        bits[at / 8] |= 1 << (at % 8);
                    }
                }
            }
            data.extend_from_slice(&bits);
            values.extend(vals);
        } else {
            varint(u64::from(n) << 1, &mut data);
            let v = first & mask;
            data.extend_from_slice(&v.to_le_bytes()[..w.div_ceil(8) as usize]);
            values.extend(std::iter::repeat_n(v, n as usize));
        }
    }
    (data, values)
}

proptest::proptest! {
    /// `Hybrid::fill`, in chunks of any sizes, gives the values `next`
    /// gives one by one (and the encoder's), and fails where `next`
    /// does, on the whole data and on the data cut at any byte.
    #[test]
    fn fill_in_chunks_gives_what_next_gives(
        w in 0u32..=20,
        runs in proptest::collection::vec((proptest::bool::ANY, 0u32..5000, 1u32..40), 1..8),
        chunks in proptest::collection::vec(1usize..300, 1..12),
        cut in 0usize..2000,
    ) {
        let (data, values) = encode(&runs, w);
        proptest::prop_assert_eq!(hybrid(&data, w, values.len()).unwrap(), values.clone());
        let cut = cut.min(data.len());
        for data in [&data[..], &data[..cut]] {
            let total: usize = chunks.iter().sum::<usize>().min(values.len() + 10);
            let one_by_one = hybrid(data, w, total);
            let mut h = Hybrid::new(Bytes::copy_from_slice(data), w).unwrap();
            let mut got = Vec::new();
            let mut failed = false;
            let mut asked = 0;
            for &c in &chunks {
                let c = c.min(total - asked);
                if c == 0 { break; }
                asked += c;
                if h.fill(c, &mut got).is_err() {
                    failed = true;
                    break;
                }
            }
            match one_by_one {
                Ok(v) => {
                    proptest::prop_assert!(!failed);
                    proptest::prop_assert_eq!(got, v);
                }
                Err(_) => {
                    // `next` fails within the values asked for; `fill`
                    // fails too, with the values before it given.
                    proptest::prop_assert!(failed);
                    let mut h2 = Hybrid::new(Bytes::copy_from_slice(data), w).unwrap();
                    let before: Vec<u32> =
                        std::iter::from_fn(|| h2.next().ok()).take(total).collect();
                    proptest::prop_assert!(got.len() <= before.len());
                    proptest::prop_assert_eq!(&got[..], &before[..got.len()]);
                }
            }
        }
    }
}

/// An in-memory column chunk: its pages, in order.
struct Pages(std::collections::VecDeque<Page>);

impl Iterator for Pages {
    type Item = ::parquet::errors::Result<Page>;
    fn next(&mut self) -> Option<Self::Item> {
        self.0.pop_front().map(Ok)
    }
}

impl PageReader for Pages {
    fn get_next_page(&mut self) -> ::parquet::errors::Result<Option<Page>> {
        Ok(self.0.pop_front())
    }
    fn peek_next_page(
        &mut self,
    ) -> ::parquet::errors::Result<Option<::parquet::column::page::PageMetadata>> {
        Ok(None)
    }
    fn skip_next_page(&mut self) -> ::parquet::errors::Result<()> {
        self.0.pop_front();
        Ok(())
    }
}

/// A v1 data page of `levels` (max level 1) and dictionary indices
/// `runs` at width `w`.
fn dict_page(levels: &[(bool, u32, u32)], runs: &[(bool, u32, u32)], w: u32) -> Page {
    let (lv, lvals) = encode(levels, 1);
    let (iv, _) = encode(runs, w);
    let mut buf = (lv.len() as u32).to_le_bytes().to_vec();
    buf.extend_from_slice(&lv);
    buf.push(w as u8);
    buf.extend_from_slice(&iv);
    Page::DataPage {
        buf: Bytes::from(buf),
        num_values: lvals.len() as u32,
        encoding: Encoding::RLE_DICTIONARY,
        def_level_encoding: Encoding::RLE,
        rep_level_encoding: Encoding::RLE,
        statistics: None,
    }
}

fn dictionary(entries: &[&[u8]]) -> Page {
    let mut buf = Vec::new();
    for e in entries {
        buf.extend_from_slice(&(e.len() as u32).to_le_bytes());
        buf.extend_from_slice(e);
    }
    Page::DictionaryPage {
        buf: Bytes::from(buf),
        num_values: entries.len() as u32,
        encoding: Encoding::PLAIN,
        is_sorted: false,
    }
}

/// Rows read a run at a time keep their nulls in place, across reads
/// that end inside a page; an index past the dictionary is the error
/// of its row, as one value at a time gives it.
#[test]
fn a_page_read_a_run_at_a_time_keeps_nulls_and_errors_in_place() {
    // 16 levels: 8 packed (0,1,0,1,... masked to 1 bit), then 8 x 1;
    // the 12 non-null rows take indices 0..=7 packed (masked to 2 bits:
    // 0,1,2,3,0,1,2,3), then 4 x 2.
    let levels = [(true, 0, 1), (false, 1, 8)];
    let page = dict_page(&levels, &[(true, 0, 1), (false, 2, 4)], 2);
    let pages = Pages(vec![dictionary(&[b"a", b"b", b"c", b"d"]), page].into());
    let mut chunk = BytesChunk::new(Box::new(pages), 1, None);
    let mut rows = Vec::new();
    let mut out = Slots::default();
    for n in [3, 6, 7] {
        chunk.read(n, rows.len() as u64, &mut out).unwrap();
        rows.extend((0..out.rows()).map(|i| out.cell(i).to_vec()));
    }
    let want: Vec<&[u8]> = vec![
        b"", b"a", b"", b"b", b"", b"c", b"", b"d", // 0,1,0,1,...: null or the next index
        b"a", b"b", b"c", b"d", b"c", b"c", b"c", b"c",
    ];
    assert_eq!(rows, want);
    // Index 3 in a dictionary of 2, at the third non-null row.
    let page = dict_page(&[(false, 1, 8)], &[(true, 0, 1)], 2);
    let pages = Pages(vec![dictionary(&[b"a", b"b"]), page].into());
    let mut chunk = BytesChunk::new(Box::new(pages), 1, None);
    let e = chunk.read(8, 0, &mut out).unwrap_err();
    assert_eq!(e, "a dictionary index of 2 in a dictionary of 2 entries");
}

proptest::proptest! {
    /// A run of fixed-length PLAIN values read at once gives what reading
    /// them one by one gives: the same slots, bytes and position, and an
    /// error exactly when the page ends inside the run.
    #[test]
    fn a_plain_run_gives_what_values_one_by_one_give(
        data in proptest::collection::vec(proptest::num::u8::ANY, 0..200),
        w in 1usize..20,
        n in 0usize..15,
        start in 0usize..10,
        before in 0usize..3,
    ) {
        let mut one = Slots::default();
        let mut run = Slots::default();
        // Values already in the batch (an earlier page of it).
        for out in [&mut one, &mut run] {
            for k in 0..before {
                out.plain.extend_from_slice(&[k as u8; 3]);
                out.plain_ends.push(out.plain.len() as u32);
                out.rows.push(PLAIN + k as u32);
            }
        }
        let (mut p1, mut p2) = (start, start);
        let mut failed = false;
        for _ in 0..n {
            match next_plain(&data, &mut p1, Some(w), &mut one) {
                Ok(slot) => one.rows.push(slot),
                Err(_) => {
                    failed = true;
                    break;
                }
            }
        }
        let got = plain_run(&data, &mut p2, w, n, &mut run);
        proptest::prop_assert_eq!(got.is_err(), failed);
        if !failed {
            proptest::prop_assert_eq!(p1, p2);
            proptest::prop_assert_eq!(&one.rows, &run.rows);
            proptest::prop_assert_eq!(&one.plain, &run.plain);
            proptest::prop_assert_eq!(&one.plain_ends, &run.plain_ends);
            for i in 0..one.rows() {
                proptest::prop_assert_eq!(one.cell(i), run.cell(i));
            }
        }
    }
}
