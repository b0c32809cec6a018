//! CSV records, with the delimiter sniffed from the first lines.

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
}
