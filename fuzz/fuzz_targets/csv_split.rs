//! The fast CSV record splitter with its fallback (`ingest::split`) against
//! the csv crate alone, on any bytes: the same records, starts, lines and
//! end, with the input cut anywhere into the slices a worker has at hand.
#![no_main]

use std::sync::atomic::Ordering;

use billaudit::ingest::split::{Next, REFERENCE_ONLY, RangeRecords};
use billaudit::model::Cells;
use csv::ByteRecord;
use libfuzzer_sys::fuzz_target;

/// Every step, as (cells, kind, byte, line).
fn steps(raw: [&[u8]; 2], rest: &[u8], ends: bool, limit: u64, reference: bool) -> Vec<(Vec<Vec<u8>>, u8, u64, u64)> {
    REFERENCE_ONLY.store(reference, Ordering::Relaxed);
    let mut records = RangeRecords::new(raw, rest, ends, limit, b',');
    let mut rec = ByteRecord::new();
    let mut out = Vec::new();
    loop {
        let step = records.next(&mut rec);
        let (kind, at, line) = match step {
            Next::Record { at, line } => (b'R', at, line),
            Next::Beyond { at, line } => (b'B', at, line),
            Next::End { at, line } => (b'E', at, line),
            Next::Failed(_) => (b'F', 0, 0),
        };
        let cells = if kind == b'R' {
            records.cells(&rec).iter().map(<[u8]>::to_vec).collect()
        } else {
            Vec::new()
        };
        out.push((cells, kind, at, line));
        if kind != b'R' {
            break;
        }
    }
    REFERENCE_ONLY.store(false, Ordering::Relaxed);
    out
}

fuzz_target!(|data: &[u8]| {
    // The first three bytes choose the cuts, the limit and the end.
    let [a, b, c, body @ ..] = data else { return };
    let (x, y) = (usize::from(*a).min(body.len()), usize::from(*b).min(body.len()));
    let (x, y) = (x.min(y), x.max(y));
    let raw = [&body[..x], &body[x..y]];
    let rest = &body[y..];
    let ends = c & 1 == 1 && rest.is_empty();
    let limit = u64::from(*c >> 1) * 4;
    let fast = steps(raw, rest, ends, limit, false);
    let reference = steps(raw, rest, ends, limit, true);
    assert_eq!(fast, reference, "fast splitter differs from the csv crate");
});
