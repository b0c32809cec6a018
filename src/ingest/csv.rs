//! CSV records, with the delimiter sniffed from the first lines, and where
//! each record really starts.

use std::io::Read;

/// Delimiters we sniff, in order of preference on a tie.
pub const DELIMITERS: [u8; 4] = [b',', b'\t', b';', b'|'];

/// Picks the delimiter that splits the most of the first lines into the
/// same number (at least 2) of fields. Quoted fields are respected.
pub fn sniff_delimiter(prefix: &str) -> u8 {
    // Only whole lines: the prefix may end inside a record.
    let text = match prefix.rfind('\n') {
        Some(i) if i + 1 < prefix.len() => &prefix[..=i],
        _ => prefix,
    };
    let mut best = (b',', 0usize);
    for d in DELIMITERS {
        let mut rdr = ::csv::ReaderBuilder::new()
            .delimiter(d)
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes());
        let mut counts: Vec<usize> = Vec::new();
        for rec in rdr.byte_records().take(50) {
            match rec {
                Ok(r) if r.len() >= 2 => counts.push(r.len()),
                Ok(_) => counts.push(1),
                Err(_) => break,
            }
        }
        // The most common field count among rows with at least 2 fields.
        let mut modes: Vec<(usize, usize)> = Vec::new();
        for c in counts.iter().filter(|c| **c >= 2) {
            match modes.iter_mut().find(|(n, _)| n == c) {
                Some((_, k)) => *k += 1,
                None => modes.push((*c, 1)),
            }
        }
        let score = modes.iter().map(|(n, k)| k * 1000 + n).max().unwrap_or(0);
        if score > best.1 {
            best = (d, score);
        }
    }
    best.0
}

/// A streaming CSV reader over UTF-8 bytes: no header handling (headers are
/// found by `normalise`), flexible row lengths, quotes honoured.
pub fn reader<R: Read>(r: R, delimiter: u8) -> ::csv::Reader<R> {
    ::csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .buffer_capacity(256 * 1024)
        .from_reader(r)
}

/// A reader that keeps bytes it has read, so that where a record starts can
/// be checked against the bytes themselves ([`true_start`]): all of them at
/// first (a header search, whose bytes may be read again; at most
/// [`KEEP_ALL_BYTES`] of them), then the last [`WINDOW_BYTES`] in a ring once
/// [`Window::forget`] is called. It also notes the end of its input.
#[derive(Debug)]
pub struct Window<R> {
    inner: R,
    /// Every byte read, until `forget`.
    all: Option<Vec<u8>>,
    /// The last bytes read: byte `i` of the input is at `i % ring.len()`.
    ring: Vec<u8>,
    /// Bytes read so far.
    read: u64,
    eof: bool,
}

/// Bytes a reader keeps behind it: the csv reader's buffer and a long row.
pub const WINDOW_BYTES: usize = 1 << 20;

/// At most this many bytes are kept whole: past them (a damaged file with a
/// cell of megabytes in its first rows) the window forgets by itself.
pub const KEEP_ALL_BYTES: usize = 8 << 20;

impl<R> Window<R> {
    pub fn new(inner: R) -> Self {
        Window {
            inner,
            all: Some(Vec::new()),
            ring: Vec::new(),
            read: 0,
            eof: false,
        }
    }

    /// From now on, keeps only the last [`WINDOW_BYTES`] bytes.
    pub fn forget(&mut self) {
        if let Some(all) = self.all.take() {
            self.ring = vec![0; WINDOW_BYTES];
            let from = all.len().saturating_sub(WINDOW_BYTES);
            for (i, b) in all.iter().enumerate().skip(from) {
                self.ring[i % WINDOW_BYTES] = *b;
            }
        }
    }

    /// The byte at offset `at`, when it is still kept.
    pub fn byte(&self, at: u64) -> Option<u8> {
        if at >= self.read {
            return None;
        }
        let i = usize::try_from(at).ok()?;
        match &self.all {
            Some(all) => all.get(i).copied(),
            None if self.read - at <= self.ring.len() as u64 => {
                Some(self.ring[i % self.ring.len()])
            }
            None => None,
        }
    }

    /// Whether the input has ended.
    pub fn eof(&self) -> bool {
        self.eof
    }

    /// Whether every byte read so far is kept (see [`into_rest`](Self::into_rest)).
    pub fn keeps_all(&self) -> bool {
        self.all.is_some()
    }

    /// Bytes read so far.
    pub fn bytes_read(&self) -> u64 {
        self.read
    }

    /// The bytes from offset `from` on that were read before [`forget`](Self::forget)
    /// (none after it), and the rest of the input.
    pub fn into_rest(self, from: u64) -> (Vec<u8>, R) {
        let mut all = self.all.unwrap_or_default();
        let skip = usize::try_from(from).unwrap_or(usize::MAX).min(all.len());
        all.drain(..skip);
        (all, self.inner)
    }
}

impl<R: Read> Read for Window<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let got = &buf[..n];
        match &mut self.all {
            Some(all) if all.len() + n <= KEEP_ALL_BYTES => all.extend_from_slice(got),
            Some(_) => {
                self.forget();
                self.keep_last(got);
            }
            None => self.keep_last(got),
        }
        self.read += n as u64;
        if n == 0 && !buf.is_empty() {
            self.eof = true;
        }
        Ok(n)
    }
}

impl<R> Window<R> {
    /// Puts the bytes just read (after `self.read`) into the ring.
    fn keep_last(&mut self, got: &[u8]) {
        // Into the ring, in at most two copies.
        let cap = self.ring.len();
        let skipped = got.len().saturating_sub(cap);
        let got = &got[skipped..];
        let start = usize::try_from((self.read + skipped as u64) % cap as u64).unwrap_or(0);
        let first = got.len().min(cap - start);
        self.ring[start..start + first].copy_from_slice(&got[..first]);
        self.ring[..got.len() - first].copy_from_slice(&got[first..]);
    }
}

/// Where a record really starts, as (byte, line), from where the csv
/// reader says it starts and the input's bytes (`byte(offset)`, `None` when
/// unknown). The reader reports a record that follows a CRLF at the LF (one
/// byte and one line early), and one that follows blank lines at the first
/// of them (rust-csv issues 395 and 208): a record never starts with a line
/// end, so the line-end bytes at the reported offset are stepped over, each
/// LF counting a line.
pub fn true_start((mut at, mut line): (u64, u64), byte: impl Fn(u64) -> Option<u8>) -> (u64, u64) {
    while let Some(b @ (b'\r' | b'\n')) = byte(at) {
        at += 1;
        if b == b'\n' {
            line += 1;
        }
    }
    (at, line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs() {
        assert_eq!(sniff_delimiter("a,b,c\n1,2,3\n"), b',');
        assert_eq!(sniff_delimiter("a;b;c\n1,5;2,5;3\n"), b';');
        assert_eq!(sniff_delimiter("a\tb\tc\n1\t2\t3\n"), b'\t');
        assert_eq!(
            sniff_delimiter("Bill for Oct 2025\n\"a,x\";b;c\n1;2;3\n"),
            b';'
        );
    }

    /// Each record's (byte, line), as `true_start` corrects the reader's.
    fn starts(data: &[u8]) -> Vec<(u64, u64)> {
        let mut rdr = reader(Window::new(data), b',');
        let mut rec = ::csv::ByteRecord::new();
        let mut out = Vec::new();
        while rdr.read_byte_record(&mut rec).unwrap() {
            let p = rec.position().unwrap();
            out.push(true_start((p.byte(), p.line()), |b| rdr.get_ref().byte(b)));
        }
        out
    }

    #[test]
    fn records_start_where_they_start_after_crlf_and_blank_lines() {
        assert_eq!(starts(b"h\na\nb\n"), [(0, 1), (2, 2), (4, 3)]);
        assert_eq!(starts(b"h\r\na\r\nb\r\n"), [(0, 1), (3, 2), (6, 3)]);
        assert_eq!(starts(b"h\n\n\nb\n"), [(0, 1), (4, 4)]);
        assert_eq!(starts(b"h\r\n\r\nb"), [(0, 1), (5, 3)]);
        // A quoted CRLF is a cell's, not a line end between records.
        assert_eq!(
            starts(b"h\r\n\"x\r\ny\",1\r\nb\r\n"),
            [(0, 1), (3, 2), (13, 4)]
        );
    }

    #[test]
    fn a_window_keeps_all_bytes_then_the_last_ones() {
        let data: Vec<u8> = (0..3 * WINDOW_BYTES).map(|i| (i % 251) as u8).collect();
        let mut w = Window::new(&data[..]);
        let mut buf = vec![0u8; 100_000];
        let n = w.read(&mut buf[..10]).unwrap();
        assert_eq!(n, 10);
        assert_eq!(w.byte(3), Some(3));
        assert_eq!(w.byte(10), None);
        w.forget();
        assert_eq!(w.byte(3), Some(3));
        while w.read(&mut buf).unwrap() > 0 {}
        assert!(w.eof());
        let end = data.len() as u64;
        assert_eq!(w.bytes_read(), end);
        for at in [end - 1, end - 1000, end - WINDOW_BYTES as u64] {
            assert_eq!(w.byte(at), Some(data[at as usize]), "{at}");
        }
        assert_eq!(w.byte(end - WINDOW_BYTES as u64 - 1), None);
        assert_eq!(w.byte(end), None);
        // A read larger than the ring keeps its last bytes.
        let mut w = Window::new(&data[..]);
        w.forget();
        let mut big = vec![0u8; 2 * WINDOW_BYTES + 7];
        let n = w.read(&mut big).unwrap();
        assert_eq!(w.byte(n as u64 - 1), Some(data[n - 1]));
        assert_eq!(
            w.byte(n as u64 - WINDOW_BYTES as u64),
            Some(data[n - WINDOW_BYTES])
        );
        // Before `forget`, the rest of the input starts where asked.
        let mut w = Window::new(&data[..20]);
        w.read_exact(&mut buf[..12]).unwrap();
        let (rest, _) = w.into_rest(5);
        assert_eq!(rest, &data[5..12]);
    }
}
