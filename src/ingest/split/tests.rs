use super::*;
use crate::ingest::csv::{reader, true_start};
use crate::model::Cells as _;
use proptest::prelude::*;

/// One record: its cells, its start (byte, line) and the csv reader's
/// position of it (byte, line, record).
type Rec = (Vec<Vec<u8>>, (u64, u64), (u64, u64, u64));

fn cells(rec: &ByteRecord) -> Vec<Vec<u8>> {
    rec.iter().map(<[u8]>::to_vec).collect()
}

fn reported(rec: &ByteRecord) -> (u64, u64, u64) {
    let p = rec.position().cloned().unwrap_or_else(Position::new);
    (p.byte(), p.line(), p.record())
}

/// The csv crate's records of `data`, read as a range is (after a line
/// end, so that a byte-order mark at its start is text: [`BEFORE`]), and
/// its position at the end.
fn reference(data: &[u8], delim: u8) -> (Vec<Rec>, (u64, u64)) {
    let mut rdr = reader(BEFORE.chain(data), delim);
    let mut rec = ByteRecord::new();
    let mut out = Vec::new();
    while rdr.read_byte_record(&mut rec).unwrap() {
        let p = rec.position().unwrap();
        let (byte, line) = unshift(p.byte(), p.line());
        let at = true_start((byte, line), |b| {
            data.get(usize::try_from(b).ok()?).copied()
        });
        out.push((cells(&rec), at, (byte, line, p.record())));
    }
    let end = rdr.position();
    (out, unshift(end.byte(), end.line()))
}

/// The splitter's records of the whole input `data`; `None` where it is
/// unsure.
fn fast(data: &[u8], delim: u8) -> Option<(Vec<Rec>, (u64, u64))> {
    let mut sp = Splitter::new(data, &[], true, delim);
    let mut rec = ByteRecord::new();
    let mut out = Vec::new();
    loop {
        match sp.start() {
            Start::At(at, line) => {
                if !sp.record(&mut rec) {
                    return None;
                }
                out.push((cells(&rec), (at, line), reported(&rec)));
            }
            Start::End => return Some((out, sp.position())),
            Start::Unsure => return None,
        }
    }
}

fn v(cells: &[&str]) -> Vec<Vec<u8>> {
    cells.iter().map(|c| c.as_bytes().to_vec()).collect()
}

/// A record's cells and its start (byte, line).
type Cells = (Vec<Vec<u8>>, (u64, u64));

/// The (cells, start) of each record, from the splitter alone.
fn split(data: &str) -> Vec<Cells> {
    let (recs, _) = fast(data.as_bytes(), b',').expect("well-formed");
    recs.into_iter().map(|(c, at, _)| (c, at)).collect()
}

#[test]
fn crlf_quotes_doubled_quotes_and_blank_lines() {
    // `a,b\r\n` is bytes 0-4; `"x,y",""""\r\n` 5-16; a blank `\r\n` 17-18;
    // `c` at 19 on line 4.
    assert_eq!(
        split("a,b\r\n\"x,y\",\"\"\"\"\r\n\r\nc"),
        [
            (v(&["a", "b"]), (0, 1)),
            (v(&["x,y", "\""]), (5, 2)),
            (v(&["c"]), (19, 4)),
        ]
    );
}

#[test]
fn lone_cr_ends_a_record_but_no_line() {
    // Records at 0, 2 and (after `\r\r`) 5; no LF, so all on line 1.
    assert_eq!(
        split("a\rb\r\rc"),
        [
            (v(&["a"]), (0, 1)),
            (v(&["b"]), (2, 1)),
            (v(&["c"]), (5, 1))
        ]
    );
}

#[test]
fn a_quoted_line_end_is_the_cells() {
    // `"l1\nl2",z` is 9 bytes, its LF at 9 ends it; the next record is at
    // 10, on line 3 (one LF in the cell, one after it).
    assert_eq!(
        split("\"l1\nl2\",z\nnext"),
        [(v(&["l1\nl2", "z"]), (0, 1)), (v(&["next"]), (10, 3))]
    );
}

#[test]
fn quotes_inside_unquoted_cells_ragged_rows_and_a_last_empty_cell() {
    // A quote not at a cell's start is data; rows may differ in length; a
    // delimiter at the end of the input ends with an empty cell.
    assert_eq!(
        split("5\" screen,x\na,b,c\nd\ne,"),
        [
            (v(&["5\" screen", "x"]), (0, 1)),
            (v(&["a", "b", "c"]), (12, 2)),
            (v(&["d"]), (18, 3)),
            (v(&["e", ""]), (20, 4)),
        ]
    );
}

#[test]
fn the_splitter_is_unsure_of_what_it_does_not_model() {
    // Text after a closing quote, an unclosed quote.
    assert_eq!(fast(b"\"ab\"c,d\n", b','), None);
    assert_eq!(fast(b"a\n\"abc", b','), None);
    // A record running past the buffer when more input follows.
    let mut sp = Splitter::new(b"a,b\nc,d", &[], false, b',');
    let mut rec = ByteRecord::new();
    assert_eq!(sp.start(), Start::At(0, 1));
    assert!(sp.record(&mut rec));
    assert_eq!(sp.start(), Start::At(4, 2));
    assert!(!sp.record(&mut rec));
}

/// A record read in place is, as [`Cells`](crate::model::Cells), the
/// `ByteRecord` of its cells: the same cells, bytes and fingerprints (with
/// and without skipped row-id cells).
fn same_row(row: &Row<'_>) {
    use crate::model::record_fingerprint;
    let copy: ByteRecord = row.iter().collect();
    let cells = |r: &dyn Fn(usize) -> Option<Vec<u8>>| (0..=copy.len()).map(r).collect::<Vec<_>>();
    assert_eq!(
        cells(&|i| row.get(i).map(<[u8]>::to_vec)),
        cells(&|i| copy.get(i).map(<[u8]>::to_vec))
    );
    assert_eq!(row.len(), copy.len());
    if let Row::InPlace(c) = row {
        assert_eq!(c.byte_len(), copy.as_slice().len());
        assert!(c.lens().eq(copy.iter().map(<[u8]>::len)));
        for i in 0..=copy.len() {
            let want = copy.get(i).map(std::str::from_utf8);
            assert_eq!(c.text(i), want, "cell {i}");
        }
        for skip in [&[][..], &[0], &[1], &[0, 2], &[1, 3, 4]] {
            assert_eq!(record_fingerprint(c, skip), record_fingerprint(&copy, skip));
        }
    }
}

/// What `RangeRecords` gives, as (cells, kind, at, line); kind 'R' for a
/// record, 'B' beyond the limit, 'E' the end.
type Step = (Vec<Vec<u8>>, char, u64, u64);

fn range(raw: [&[u8]; 2], rest: &[u8], ends: bool, limit: u64) -> Vec<Step> {
    let mut rr = RangeRecords::new(raw, rest, ends, limit, b',');
    let mut rec = ByteRecord::new();
    let mut out = Vec::new();
    loop {
        match rr.next(&mut rec) {
            Next::Record { at, line } => {
                let row = rr.cells(&rec);
                same_row(&row);
                out.push((row.iter().map(<[u8]>::to_vec).collect(), 'R', at, line));
            }
            Next::Beyond { at, line } => return [out, vec![(vec![], 'B', at, line)]].concat(),
            Next::End { at, line } => return [out, vec![(vec![], 'E', at, line)]].concat(),
            Next::Failed(e) => panic!("{e}"),
        }
    }
}

/// The same from the csv crate alone, as the workers read ranges before
/// the splitter.
fn range_reference(raw: [&[u8]; 2], rest: &[u8], limit: u64) -> Vec<Step> {
    let mut rdr = reader(BEFORE.chain(raw[0]).chain(raw[1]).chain(rest), b',');
    let mut rec = ByteRecord::new();
    let mut out = Vec::new();
    while rdr.read_byte_record(&mut rec).unwrap() {
        let p = rec.position().unwrap();
        let (at, line) = true_start(unshift(p.byte(), p.line()), |b| byte_of(raw, b));
        if at >= limit {
            out.push((vec![], 'B', at, line));
            return out;
        }
        out.push((cells(&rec), 'R', at, line));
    }
    let p = rdr.position();
    let (at, line) = unshift(p.byte(), p.line());
    out.push((vec![], 'E', at, line));
    out
}

/// A range's first record may start with a byte-order mark (U+FEFF in its
/// first cell): it is the cell's text, whoever reads it (the splitter, or
/// the csv crate after malformed quoting), as when one thread reads the
/// whole file. The csv crate alone would drop it at the start of its input.
#[test]
fn a_byte_order_mark_at_a_ranges_start_is_text() {
    // `\u{feff}a,b\n` is bytes 0-6 (the mark is 3); `c,d\n` 7-10.
    let want = vec![(v(&["\u{feff}a", "b"]), (0, 1)), (v(&["c", "d"]), (7, 2))];
    assert_eq!(split("\u{feff}a,b\nc,d\n"), want);
    // The first record runs past the splitter's bytes: the csv crate reads
    // the range from its start.
    let got = range([b"\xEF\xBB\xBFa,b", b"\nc,d\n"], b"".as_slice(), true, 100);
    assert_eq!(
        got,
        [
            (v(&["\u{feff}a", "b"]), 'R', 0, 1),
            (v(&["c", "d"]), 'R', 7, 2),
            (vec![], 'E', 11, 3),
        ]
    );
}

#[test]
fn malformed_quoting_is_read_by_the_csv_crate() {
    // `a\n` is bytes 0-1; `"ab"c,d\n` 2-9 (the csv crate appends the text
    // after the closing quote: `abc`); `e` at 10 on line 3.
    let data = b"a\n\"ab\"c,d\ne\n";
    let want: Vec<Step> = vec![
        (v(&["a"]), 'R', 0, 1),
        (v(&["abc", "d"]), 'R', 2, 2),
        (v(&["e"]), 'R', 10, 3),
        (vec![], 'E', 12, 4),
    ];
    assert_eq!(range([data, b""], b"", true, 100), want);
    // A byte-order mark at a range's start is the cell's text (a range
    // is never the start of the file; see `a_byte_order_mark_at_a_ranges_start_is_text`).
    assert_eq!(
        range([b"\xEF\xBB\xBFa\nb", b""], b"", true, 100),
        [
            (v(&["\u{feff}a"]), 'R', 0, 1),
            (v(&["b"]), 'R', 5, 2),
            (vec![], 'E', 6, 2)
        ]
    );
    // Also when the first slice is empty (found by the fuzz target): the
    // mark alone is a record's text, which starts at byte 0, the limit.
    assert_eq!(
        range([b"", b"\xEF\xBB\xBF"], b"", false, 0),
        [(vec![], 'B', 0, 1)]
    );
}

#[test]
fn a_range_stops_at_the_first_record_past_its_limit() {
    // Records at 0 and 2; the limit is 2, so `b` is beyond it.
    assert_eq!(
        range([b"a\nb\nc\n", b""], b"", true, 2),
        [(v(&["a"]), 'R', 0, 1), (vec![], 'B', 2, 2)]
    );
    // The record that starts past the buffer's blank lines is found in the
    // bytes after it: `a\r\n` ends at 3, two more CRLF in the next block.
    assert_eq!(
        range([b"a\r\n", b"\r\n\r\nb\n"], b"", false, 3),
        [(v(&["a"]), 'R', 0, 1), (vec![], 'B', 7, 4)]
    );
}

/// A well-formed cell of up to `parts` pieces: unquoted (no delimiter, CR,
/// LF, no leading quote) or quoted (anything, quotes doubled); a long one
/// crosses the 64-byte blocks the masked reader reads in.
fn cell_of(delim: u8, parts: usize) -> impl Strategy<Value = Vec<u8>> {
    let plain = proptest::collection::vec(
        prop_oneof![
            Just(b'a'),
            Just(b'7'),
            Just(b' '),
            Just(b'"'),
            Just(b','),
            Just(b';'),
            Just(b'\t'),
            Just(0xC3)
        ],
        0..parts,
    )
    .prop_map(move |mut c| {
        c.retain(|b| *b != delim);
        if c.first() == Some(&b'"') {
            c[0] = b'x';
        }
        c
    });
    let quoted = proptest::collection::vec(
        prop_oneof![
            Just(&b"q"[..]),
            Just(&b","[..]),
            Just(&b";"[..]),
            Just(&b"\"\""[..]),
            Just(&b"\r"[..]),
            Just(&b"\n"[..]),
            Just(&b"\r\n"[..]),
            Just(&b" "[..]),
        ],
        0..parts,
    )
    .prop_map(|parts| {
        let mut c = vec![b'"'];
        for p in parts {
            c.extend_from_slice(p);
        }
        c.push(b'"');
        c
    });
    prop_oneof![3 => plain, 1 => quoted]
}

/// Well-formed CSV: ragged rows of cells, each row ended by LF, CRLF or CR
/// and maybe blank lines, the last maybe not ended.
fn well_formed() -> impl Strategy<Value = (Vec<u8>, u8)> {
    rows_of(6, 5)
}

/// [`well_formed`] with cells of up to `parts` pieces, up to `cells` a row.
fn rows_of(parts: usize, cells: usize) -> impl Strategy<Value = (Vec<u8>, u8)> {
    prop_oneof![Just(b','), Just(b';'), Just(b'\t'), Just(b'|')].prop_flat_map(move |delim| {
        let row = (
            proptest::collection::vec(cell_of(delim, parts), 1..cells),
            prop_oneof![Just(&b"\n"[..]), Just(&b"\r\n"[..]), Just(&b"\r"[..])],
            0..3usize,
        );
        (proptest::collection::vec(row, 0..8), any::<bool>()).prop_map(move |(rows, last_ended)| {
            let mut out = Vec::new();
            let n = rows.len();
            for (k, (cells, end, blank)) in rows.into_iter().enumerate() {
                out.extend_from_slice(&cells.join(&delim));
                if k + 1 < n || last_ended {
                    for _ in 0..=blank {
                        out.extend_from_slice(end);
                    }
                }
            }
            (out, delim)
        })
    })
}

/// Bytes of every kind the CSV grammar cares about, in any order.
fn any_bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![
            Just(b'a'),
            Just(b','),
            Just(b'"'),
            Just(b'\r'),
            Just(b'\n'),
            Just(b' '),
            Just(0xEF),
            Just(0xBB),
            Just(0xBF),
            any::<u8>()
        ],
        0..200,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// (a) On well-formed CSV the splitter alone gives the csv crate's
    /// records, starts, positions and end position.
    #[test]
    fn the_splitter_alone_equals_the_csv_crate_on_well_formed_csv((data, delim) in well_formed()) {
        let want = reference(&data, delim);
        let got = fast(&data, delim);
        prop_assert_eq!(got, Some(want), "{:?}", String::from_utf8_lossy(&data));
    }

    /// (a) also on long rows and cells, whose quoted cells, doubled
    /// quotes and line ends fall on every side of the masked reader's
    /// 64-byte blocks.
    #[test]
    fn the_splitter_alone_equals_the_csv_crate_on_long_rows((data, delim) in rows_of(90, 14)) {
        let want = reference(&data, delim);
        let got = fast(&data, delim);
        prop_assert_eq!(got, Some(want), "{:?}", String::from_utf8_lossy(&data));
    }

    /// (b) On any bytes, cut anywhere into the two slices at hand and the
    /// rest, the splitter with its fallback gives the csv crate's output.
    #[test]
    fn with_its_fallback_it_equals_the_csv_crate_on_any_bytes(
        data in any_bytes(),
        cuts in (0..=200usize, 0..=200usize),
        limit in 0..=210u64,
        ends in any::<bool>(),
    ) {
        let (a, b) = (cuts.0.min(data.len()), cuts.1.min(data.len()));
        let (a, b) = (a.min(b), a.max(b));
        let raw = [&data[..a], &data[a..b]];
        let rest = &data[b..];
        let ends = ends && rest.is_empty();
        let want = range_reference(raw, rest, limit);
        prop_assert_eq!(range(raw, rest, ends, limit), want, "{:?}", String::from_utf8_lossy(&data));
    }

    /// (b) also on long inputs (several 64-byte blocks) of well-formed rows
    /// with a little damage.
    #[test]
    fn with_its_fallback_it_equals_the_csv_crate_on_damaged_csv(
        (data, _) in prop_oneof![well_formed(), rows_of(40, 10)],
        damage in proptest::collection::vec((any::<usize>(), prop_oneof![Just(b'"'), Just(b'\r'), Just(b'x')]), 0..3),
        limit in 0..=400u64,
    ) {
        let mut data = [data.clone(), data.clone(), data].concat();
        for (at, b) in damage {
            if !data.is_empty() {
                let i = at % data.len();
                data[i] = b;
            }
        }
        let raw = [&data[..], &[][..]];
        prop_assert_eq!(range(raw, &[][..], true, limit), range_reference(raw, &[], limit));
    }
}

#[test]
fn a_record_running_past_the_buffer_is_read_on_by_the_csv_crate() {
    // `GPU,1.00\n` is bytes 0-8; a quoted cell of 10,000 `x` opens at 9 and
    // closes at 10010, `,2.00` runs to 10015, its LF is 10016; `Disk` starts
    // at 10017 on line 3, the limit.
    let mut data = b"GPU,1.00\n\"".to_vec();
    data.extend(std::iter::repeat_n(b'x', 10_000));
    data.extend_from_slice(b"\",2.00\nDisk,3.00\n");
    let mut x = vec![b'x'; 10_000];
    let want: Vec<Step> = vec![
        (v(&["GPU", "1.00"]), 'R', 0, 1),
        (vec![std::mem::take(&mut x), b"2.00".to_vec()], 'R', 9, 2),
        (vec![], 'B', 10017, 3),
    ];
    // The splitter has the first `cut` bytes; the rest is read on.
    for cut in [5usize, 64, 1000, 4000] {
        let got = range([&data[..cut], &[][..]], &data[cut..], false, 10017);
        assert_eq!(got, want, "cut {cut}");
    }
}

/// The masked reader reads a FOCUS-shaped record (quoted cells with commas
/// and doubled quotes, a line feed in a quoted cell, cells across 64-byte
/// blocks) itself, with the cells the csv crate gives; it leaves to the
/// byte-by-byte reading a quote inside an unquoted cell, text after a
/// closing quote, and a record without its line end in the buffer.
#[test]
fn the_masked_reader_reads_the_common_records_and_leaves_the_rest() {
    let focus = concat!(
        "\"us-east-1a\",39.4078804920,\"100005\",\"ML Research\",\"USD\",\"2025-11-01T00:00:00Z\",",
        "\"H800 GPU instance hours, 8x cluster node, SKU0205\",NULL,19.5764,\"Hours\",",
        "\"two\nlines\",\"{\"\"team\"\":\"\"ml\"\",\"\"env\"\":\"\"dev\"\"}\",,\"\"\r\n",
        "next,row\n"
    );
    let buf = focus.as_bytes();
    let (mut bounds, mut scratch) = (Vec::new(), Vec::new());
    let read =
        super::masked::record(buf, b',', 0, &mut bounds, &mut scratch).expect("read by masks");
    assert_eq!(buf[read.term], b'\r');
    assert_eq!(read.lines, 1);
    let (want, _) = reference(buf, b',');
    let sp = Splitter {
        bounds,
        scratch,
        ..Splitter::new(buf, &[], true, b',')
    };
    let got: Vec<Vec<u8>> = sp.cells().iter().map(<[u8]>::to_vec).collect();
    assert_eq!(got, want[0].0);
    assert_eq!(got[got.len() - 3], br#"{"team":"ml","env":"dev"}"#.to_vec());
    for other in ["a,5\" screen,b\n", "\"a\"b,c\n", "a,\"b\",c", "\"open,\n"] {
        let (mut b, mut s) = (Vec::new(), Vec::new());
        assert!(
            super::masked::record(other.as_bytes(), b',', 0, &mut b, &mut s).is_none(),
            "{other:?}"
        );
    }
}

/// Every tricky piece of quoting at every offset of the masked reader's
/// 64-byte blocks (a doubled quote split by a block's end, text after a
/// closing quote on the next block's first byte, ...): the splitter with
/// its fallback gives the csv crate's records.
#[test]
fn tricky_quoting_at_every_offset_of_a_block_is_read_as_the_csv_crate_reads_it() {
    let pieces = [
        "\"q\"x",
        "\"\"\"\"",
        "5\" screen",
        "\"a\nb\"",
        "\"a\"\"b\"",
        "\"\"",
        "\"a,b\"",
        "\"a\r\nb\"",
    ];
    for pad in 0..=130 {
        for piece in pieces {
            let data = format!("{},{piece},end\r\nnext,\"row\"\n", "a".repeat(pad));
            let raw = [data.as_bytes(), &[][..]];
            assert_eq!(
                range(raw, &[][..], true, 10_000),
                range_reference(raw, &[], 10_000),
                "pad {pad}, {piece:?}"
            );
        }
    }
}
