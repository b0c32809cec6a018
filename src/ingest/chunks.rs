//! Byte ranges of a large CSV file, for reading it on several threads.
//!
//! The file is cut at nominal offsets, each moved forward to just after a
//! line feed. A cut inside a quoted field that contains a line feed would
//! be wrong, so cuts are *speculative*: the reader of the range before a cut
//! proves it, by ending its last record exactly there. The pipeline checks
//! that proof in order and re-reads sequentially from the last proven point
//! when a cut was not a record boundary. No cut is ever trusted unproven.

use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

/// Ranges smaller than this are not worth a thread.
pub(crate) const CHUNK_BYTES: u64 = 1024 * 1024;

/// A range holds about this many rows at most: the rows of a range wait in
/// memory as line items until they are added to the bill, so a file of very
/// short rows is cut finer than [`CHUNK_BYTES`].
pub(crate) const ROWS_PER_RANGE: u64 = 2048;

/// Ranges are never cut finer than this for their rows' sake.
const MIN_RANGE_BYTES: u64 = 64 * 1024;

/// The range size for rows of `bytes_per_row` on average: `chunk`, or less
/// so that a range holds about [`ROWS_PER_RANGE`] rows.
pub(crate) fn range_bytes(chunk: u64, bytes_per_row: u64) -> u64 {
    chunk.min(
        bytes_per_row
            .saturating_mul(ROWS_PER_RANGE)
            .max(MIN_RANGE_BYTES),
    )
}

/// Start offsets of the ranges of `[start, len)`: `start` itself, then one
/// just after a line feed near every multiple of `chunk` bytes (fewer
/// bytes when the first rows are short, see [`range_bytes`]).
pub(crate) fn cut_points(path: &Path, start: u64, len: u64, chunk: u64) -> io::Result<Vec<u64>> {
    let mut cuts = vec![start];
    let mut f = File::open(path)?;
    let mut sample = Vec::new();
    f.seek(SeekFrom::Start(start))?;
    (&mut f).take(MIN_RANGE_BYTES).read_to_end(&mut sample)?;
    let lines = memchr::memchr_iter(b'\n', &sample).count().max(1) as u64;
    let chunk = range_bytes(chunk, sample.len() as u64 / lines).max(1);
    // Rows are short: a few KB find the next line feed without reading
    // (and copying) much of the range.
    let mut buf = vec![0u8; 4 * 1024];
    let mut nominal = start + chunk;
    while nominal < len {
        f.seek(SeekFrom::Start(nominal))?;
        let mut pos = nominal;
        let found = loop {
            let n = f.read(&mut buf)?;
            if n == 0 {
                break None;
            }
            if let Some(i) = memchr::memchr(b'\n', &buf[..n]) {
                break Some(pos + i as u64 + 1);
            }
            pos += n as u64;
        };
        match found {
            Some(cut) if cut < len => {
                cuts.push(cut);
                nominal = cut.max(nominal) + chunk;
            }
            _ => break,
        }
    }
    Ok(cuts)
}

/// A reader positioned at `start`.
pub(crate) fn reader_at(path: &Path, start: u64) -> io::Result<BufReader<File>> {
    let mut f = File::open(path)?;
    f.seek(SeekFrom::Start(start))?;
    Ok(BufReader::with_capacity(256 * 1024, f))
}

/// A reader of the range `[start, end)` of a file that reads on past `end`
/// in small steps: the last record of a range usually ends just after
/// `end`, and reading a whole buffer beyond it would copy bytes that the
/// next range's reader copies again.
pub(crate) fn range_reader(path: &Path, start: u64, end: u64) -> io::Result<RangeReader> {
    let mut file = File::open(path)?;
    file.seek(SeekFrom::Start(start))?;
    Ok(RangeReader {
        file,
        pos: start,
        end,
    })
}

/// See [`range_reader`].
#[derive(Debug)]
pub(crate) struct RangeReader {
    file: File,
    pos: u64,
    end: u64,
}

/// How much is read at a time past the end of the range.
const TAIL_READ: usize = 4 * 1024;

impl Read for RangeReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let want = match self.end.checked_sub(self.pos) {
            Some(left) if left > 0 => buf.len().min(usize::try_from(left).unwrap_or(usize::MAX)),
            _ => buf.len().min(TAIL_READ),
        };
        let n = self.file.read(&mut buf[..want])?;
        self.pos += n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_follow_line_feeds() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.csv");
        let body: String = (0..1000).map(|i| format!("row{i},{i}\n")).collect();
        std::fs::write(&p, &body).unwrap();
        let cuts = cut_points(&p, 0, body.len() as u64, 1000).unwrap();
        assert_eq!(cuts[0], 0);
        assert!(cuts.len() > 5);
        for c in &cuts[1..] {
            assert_eq!(body.as_bytes()[*c as usize - 1], b'\n');
        }
        assert!(cuts.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn ranges_of_short_rows_are_smaller() {
        // FOCUS rows of about 546 bytes: 2048 of them exceed a megabyte.
        assert_eq!(range_bytes(CHUNK_BYTES, 546), CHUNK_BYTES);
        // 24-byte rows: about 2,700 rows per range, not 43,000.
        assert_eq!(range_bytes(CHUNK_BYTES, 24), MIN_RANGE_BYTES);
        assert_eq!(range_bytes(CHUNK_BYTES, 200), 200 * ROWS_PER_RANGE);
        // A small size asked for (tests) is kept.
        assert_eq!(range_bytes(100, 24), 100);
    }

    #[test]
    fn a_range_reader_reads_on_past_its_end_to_the_end_of_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.csv");
        let body: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
        std::fs::write(&p, &body).unwrap();
        for (start, end) in [(0, 10), (7, 50_000), (99_999, 100_000), (50_000, 50_000)] {
            let mut got = Vec::new();
            let mut r = range_reader(&p, start, end).unwrap();
            let mut buf = vec![0u8; 65_536];
            loop {
                let n = r.read(&mut buf).unwrap();
                if n == 0 {
                    break;
                }
                // Past the range's end, reads are small.
                if r.pos > end + TAIL_READ as u64 {
                    assert!(n <= TAIL_READ);
                }
                got.extend_from_slice(&buf[..n]);
            }
            assert_eq!(got, &body[start as usize..]);
        }
    }
}
