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
pub const CHUNK_BYTES: u64 = 1024 * 1024;

/// Start offsets of the ranges of `[start, len)`: `start` itself, then one
/// just after a line feed near every multiple of `chunk` bytes.
pub fn cut_points(path: &Path, start: u64, len: u64, chunk: u64) -> io::Result<Vec<u64>> {
    let mut cuts = vec![start];
    let mut f = File::open(path)?;
    let mut buf = vec![0u8; 64 * 1024];
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
pub fn reader_at(path: &Path, start: u64) -> io::Result<BufReader<File>> {
    let mut f = File::open(path)?;
    f.seek(SeekFrom::Start(start))?;
    Ok(BufReader::with_capacity(256 * 1024, f))
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
}
