//! Encodings, decided at the edge from a prefix of the file.
//!
//! UTF-8 (with or without BOM) is passed through untouched: fields are
//! validated one by one, so an invalid byte in the middle of a UTF-8 file is
//! reported with its line instead of being guessed away. UTF-16 and
//! GB18030/GBK are transcoded to UTF-8 while streaming.

use std::io::Read;

use encoding_rs::{Encoding, GB18030, UTF_16BE, UTF_16LE};

/// How a file's bytes become text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextEncoding {
    Utf8,
    Utf16Le,
    Utf16Be,
    Gb18030,
}

impl TextEncoding {
    pub fn parse(s: &str) -> Option<Self> {
        match s.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "utf-8" | "utf8" | "utf-8-sig" => Some(Self::Utf8),
            "utf-16le" | "utf16le" | "utf-16" | "unicode" => Some(Self::Utf16Le),
            "utf-16be" | "utf16be" => Some(Self::Utf16Be),
            "gb18030" | "gbk" | "gb2312" | "cp936" => Some(Self::Gb18030),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Utf8 => "utf-8",
            Self::Utf16Le => "utf-16le",
            Self::Utf16Be => "utf-16be",
            Self::Gb18030 => "gb18030",
        }
    }

    fn encoding(self) -> Option<&'static Encoding> {
        match self {
            Self::Utf8 => None,
            Self::Utf16Le => Some(UTF_16LE),
            Self::Utf16Be => Some(UTF_16BE),
            Self::Gb18030 => Some(GB18030),
        }
    }
}

/// What the first bytes of a file say about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sniffed {
    Text(TextEncoding),
    /// Not text at all; the string names what it looks like.
    Binary(&'static str),
}

/// Decides the encoding from a prefix of the file.
pub fn sniff(prefix: &[u8]) -> Sniffed {
    if prefix.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Sniffed::Text(TextEncoding::Utf8);
    }
    if prefix.starts_with(&[0xFF, 0xFE]) {
        return Sniffed::Text(TextEncoding::Utf16Le);
    }
    if prefix.starts_with(&[0xFE, 0xFF]) {
        return Sniffed::Text(TextEncoding::Utf16Be);
    }
    for (magic, what) in MAGIC {
        if prefix.starts_with(magic) {
            return Sniffed::Binary(what);
        }
    }
    // UTF-16 without a BOM: NULs in every other byte of ASCII text.
    let sample = &prefix[..prefix.len().min(4096) & !1];
    if sample.len() >= 8 {
        let even_nul = sample.iter().step_by(2).filter(|b| **b == 0).count();
        let odd_nul = sample
            .iter()
            .skip(1)
            .step_by(2)
            .filter(|b| **b == 0)
            .count();
        let half = sample.len() / 2;
        if odd_nul * 10 >= half * 7 && even_nul * 10 < half {
            return Sniffed::Text(TextEncoding::Utf16Le);
        }
        if even_nul * 10 >= half * 7 && odd_nul * 10 < half {
            return Sniffed::Text(TextEncoding::Utf16Be);
        }
    }
    if prefix.contains(&0) {
        return Sniffed::Binary("binary data (NUL bytes)");
    }
    let controls = prefix
        .iter()
        .filter(|b| **b < 0x20 && !matches!(**b, b'\t' | b'\n' | b'\r' | 0x0c))
        .count();
    if controls * 20 > prefix.len().max(1) {
        return Sniffed::Binary("binary data (control bytes)");
    }
    let (valid_multibyte, invalid) = utf8_census(prefix);
    if invalid == 0 {
        return Sniffed::Text(TextEncoding::Utf8);
    }
    // Mostly invalid as UTF-8 and clean as GB18030: a GBK re-save.
    if valid_multibyte * 10 <= invalid {
        let (_, had_errors) = GB18030.decode_without_bom_handling(trim_partial_gb(prefix));
        if !had_errors {
            return Sniffed::Text(TextEncoding::Gb18030);
        }
    }
    Sniffed::Text(TextEncoding::Utf8)
}

const MAGIC: &[(&[u8], &str)] = &[
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (
        b"%PDF",
        "a PDF document (run `pdftotext -layout` on it first)",
    ),
    (b"PK\x03\x04", "a ZIP archive"),
    (b"\x1f\x8b", "gzip-compressed data"),
    (b"\x7fELF", "an executable"),
    (
        b"\xd0\xcf\x11\xe0",
        "an old Excel/Office document (export it as CSV)",
    ),
];

/// Counts valid UTF-8 characters of 3 or 4 bytes (CJK text in UTF-8; GBK
/// pairs often form valid 2-byte sequences by accident, rarely longer ones)
/// and invalid sequences.
fn utf8_census(bytes: &[u8]) -> (usize, usize) {
    let mut valid = 0;
    let mut invalid = 0;
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                valid += s.chars().filter(|c| c.len_utf8() > 2).count();
                break;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                valid += std::str::from_utf8(good)
                    .map(|s| s.chars().filter(|c| c.len_utf8() > 2).count())
                    .unwrap_or(0);
                match e.error_len() {
                    Some(n) => {
                        invalid += 1;
                        rest = &bad[n..];
                    }
                    None => break, // a character cut by the end of the prefix
                }
            }
        }
    }
    (valid, invalid)
}

/// Drops a lead byte cut off by the end of the prefix.
fn trim_partial_gb(prefix: &[u8]) -> &[u8] {
    let mut end = prefix.len();
    while end > 0 && end > prefix.len().saturating_sub(3) && prefix[end - 1] >= 0x80 {
        end -= 1;
    }
    let cut = prefix.len() - end;
    // Keep whole pairs: if an odd number of high bytes ended the prefix, one is partial.
    if cut % 2 == 1 {
        &prefix[..prefix.len() - 1]
    } else {
        prefix
    }
}

/// Wraps `reader` so that it yields UTF-8. UTF-8 input is passed through
/// (a BOM is removed); others are transcoded.
pub fn utf8_reader<'a, R: Read + 'a>(reader: R, enc: TextEncoding) -> Box<dyn Read + 'a> {
    match enc.encoding() {
        None => Box::new(
            encoding_rs_io::DecodeReaderBytesBuilder::new()
                .bom_sniffing(false)
                .utf8_passthru(true)
                .strip_bom(true)
                .build(reader),
        ),
        Some(e) => Box::new(
            encoding_rs_io::DecodeReaderBytesBuilder::new()
                .encoding(Some(e))
                .bom_override(true)
                .strip_bom(true)
                .build(reader),
        ),
    }
}

/// Decodes a whole small buffer (a prefix) to text, lossily, for sniffing.
pub fn decode_prefix(prefix: &[u8], enc: TextEncoding) -> String {
    match enc.encoding() {
        None => {
            let p = prefix
                .strip_prefix(&[0xEF, 0xBB, 0xBF][..])
                .unwrap_or(prefix);
            String::from_utf8_lossy(p).into_owned()
        }
        Some(e) => e.decode_with_bom_removal(prefix).0.into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boms_decide() {
        assert_eq!(
            sniff(b"\xEF\xBB\xBFa,b\n"),
            Sniffed::Text(TextEncoding::Utf8)
        );
        assert_eq!(
            sniff(b"\xFF\xFEa\0,\0"),
            Sniffed::Text(TextEncoding::Utf16Le)
        );
        assert_eq!(
            sniff(b"\xFE\xFF\0a\0,"),
            Sniffed::Text(TextEncoding::Utf16Be)
        );
    }

    #[test]
    fn gbk_is_recognised() {
        let (bytes, _, _) = GB18030.encode("产品,计费项,应付金额\n云服务器,数据盘快照,12.00\n");
        assert_eq!(sniff(&bytes), Sniffed::Text(TextEncoding::Gb18030));
        assert_eq!(
            sniff("产品,计费项\n云服务器,快照\n".as_bytes()),
            Sniffed::Text(TextEncoding::Utf8)
        );
    }

    #[test]
    fn utf8_with_one_bad_byte_stays_utf8() {
        let mut b = "产品,计费项,金额\n云服务器,快照,1\n".as_bytes().to_vec();
        b.extend_from_slice(b"bad\xff,x,2\n");
        assert_eq!(sniff(&b), Sniffed::Text(TextEncoding::Utf8));
    }

    #[test]
    fn binary_is_refused() {
        assert!(matches!(
            sniff(b"\x89PNG\r\n\x1a\n\0\0"),
            Sniffed::Binary(_)
        ));
        assert!(matches!(sniff(b"a,b\n1,\0\0\0\0,2\n"), Sniffed::Binary(_)));
        let utf16: Vec<u8> = "Item,Amount\n"
            .encode_utf16()
            .flat_map(|u| u.to_le_bytes())
            .collect();
        assert_eq!(sniff(&utf16), Sniffed::Text(TextEncoding::Utf16Le));
    }

    #[test]
    fn transcodes_gbk_stream() {
        let (bytes, _, _) = GB18030.encode("费用,12元");
        let mut out = String::new();
        utf8_reader(&bytes[..], TextEncoding::Gb18030)
            .read_to_string(&mut out)
            .unwrap();
        assert_eq!(out, "费用,12元");
    }
}
