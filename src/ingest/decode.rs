//! Encodings, decided at the edge from a prefix of the file.
//!
//! UTF-8 (with or without BOM) is passed through untouched: fields are
//! validated one by one, so an invalid byte in the middle of a UTF-8 file is
//! reported with its line instead of being guessed away. UTF-16 and
//! GB18030/GBK and every other encoding `encoding_rs` knows (Windows-1252,
//! Shift_JIS, EUC-JP, ...) are transcoded to UTF-8 while streaming.
//!
//! Detection, when no encoding is given: a BOM; UTF-16 by its NUL pattern;
//! UTF-8 when the bytes are valid; otherwise the legacy encoding under which
//! the prefix decodes cleanly and names the most header words of
//! `crate::vocab::headers` (GB18030 or Shift_JIS), else Windows-1252 when
//! its bytes are all Windows-1252 characters (see [`sniff_reason`]).

use std::io::Read;

use encoding_rs::{Encoding, GB18030, SHIFT_JIS, UTF_16BE, UTF_16LE, WINDOWS_1252};

/// How a file's bytes become text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextEncoding {
    Utf8,
    Utf16Le,
    Utf16Be,
    Gb18030,
    /// Any other encoding of the WHATWG Encoding Standard (`windows-1252`,
    /// `shift_jis`, `euc-jp`, `iso-8859-2`, ...).
    Other(&'static Encoding),
}

/// The encoding a file was read in when it was not UTF-8, and why: the
/// report's `encoding` (docs/json-output.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodingChoice {
    /// The WHATWG name (`windows-1252`, `Shift_JIS`, `gb18030`, `UTF-16LE`).
    pub name: String,
    pub reason: String,
}

impl EncodingChoice {
    /// The report's note: `read as windows-1252: not UTF-8; ...`.
    pub fn note(&self) -> String {
        format!("read as {}: {}", self.name, self.reason)
    }
}

/// Labels shown when an encoding is not known: examples, not the list (every
/// WHATWG label is accepted).
pub const EXAMPLE_LABELS: &str = "utf-8, utf-16le, utf-16be, gb18030, gbk, windows-1252 (latin1, iso-8859-1, cp1252), iso-8859-15, windows-1250, shift_jis (sjis), euc-jp, iso-2022-jp, euc-kr, big5, koi8-r, windows-1251";

/// The message for an encoding label nobody knows.
pub fn unknown_label(label: &str) -> String {
    format!(
        "unknown encoding `{label}`: expected a WHATWG encoding label (https://encoding.spec.whatwg.org/#names-and-labels), e.g. {EXAMPLE_LABELS}"
    )
}

impl TextEncoding {
    /// Any WHATWG label (`latin1`, `windows-1252`, `iso-8859-1`,
    /// `shift_jis`, `euc-jp`, ...), plus the spellings users type
    /// (`utf8`, `utf-8-sig`, `utf-16`, `unicode`, `cp936`, `sjis`).
    pub fn parse(s: &str) -> Option<Self> {
        let t = s.trim().to_ascii_lowercase();
        match t.replace('_', "-").as_str() {
            "utf-8" | "utf8" | "utf-8-sig" => return Some(Self::Utf8),
            "utf-16le" | "utf16le" | "utf-16" | "unicode" => return Some(Self::Utf16Le),
            "utf-16be" | "utf16be" => return Some(Self::Utf16Be),
            "gb18030" | "gbk" | "gb2312" | "cp936" => return Some(Self::Gb18030),
            "sjis" | "cp932" | "shift-jis" => return Some(Self::Other(SHIFT_JIS)),
            _ => {}
        }
        let e = Encoding::for_label(t.as_bytes())?;
        Some(Self::of(e))
    }

    /// The variant of an `encoding_rs` encoding.
    pub fn of(e: &'static Encoding) -> Self {
        if e == encoding_rs::UTF_8 {
            Self::Utf8
        } else if e == UTF_16LE {
            Self::Utf16Le
        } else if e == UTF_16BE {
            Self::Utf16Be
        } else if e == GB18030 || e == encoding_rs::GBK {
            Self::Gb18030
        } else {
            Self::Other(e)
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Utf8 => "utf-8",
            Self::Utf16Le => "utf-16le",
            Self::Utf16Be => "utf-16be",
            Self::Gb18030 => "gb18030",
            Self::Other(e) => e.name(),
        }
    }

    fn encoding(self) -> Option<&'static Encoding> {
        match self {
            Self::Utf8 => None,
            Self::Utf16Le => Some(UTF_16LE),
            Self::Utf16Be => Some(UTF_16BE),
            Self::Gb18030 => Some(GB18030),
            Self::Other(e) => Some(e),
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
    sniff_reason(prefix).0
}

/// Like [`sniff`], with why a legacy encoding was chosen (for the report):
/// `None` for UTF-8 and for what a BOM or the NUL pattern of UTF-16 says.
pub fn sniff_reason(prefix: &[u8]) -> (Sniffed, Option<String>) {
    let s = sniff_bytes(prefix);
    let Sniffed::Text(TextEncoding::Utf8) = s else {
        return (s, None);
    };
    let (valid_multibyte, invalid) = utf8_census(prefix);
    if invalid == 0 {
        return (s, None);
    }
    legacy(prefix, valid_multibyte, invalid)
        .map_or((s, None), |(e, why)| (Sniffed::Text(e), Some(why)))
}

/// The legacy encoding of a prefix that is not UTF-8, and why.
fn legacy(prefix: &[u8], valid_multibyte: usize, invalid: usize) -> Option<(TextEncoding, String)> {
    let clean = |e: &'static Encoding| {
        let (text, had_errors) = e.decode_without_bom_handling(trim_partial_gb(prefix));
        (!had_errors).then(|| text.into_owned())
    };
    let gb = clean(GB18030);
    let sjis = clean(SHIFT_JIS);
    let words = |t: &Option<String>| t.as_deref().map_or(Vec::new(), header_words);
    let (gb_words, sjis_words) = (words(&gb), words(&sjis));
    // Shift_JIS pairs are mostly valid GBK pairs too: the header words decide.
    if sjis.is_some() && sjis_words.len() > gb_words.len() {
        return Some((
            TextEncoding::Other(SHIFT_JIS),
            format!(
                "not UTF-8; decodes as Shift_JIS with the Japanese header words {}",
                quoted(&sjis_words)
            ),
        ));
    }
    // Mostly invalid as UTF-8 and clean as GB18030: a GBK re-save.
    if gb.is_some() && valid_multibyte * 10 <= invalid {
        return Some((
            TextEncoding::Gb18030,
            "not UTF-8; decodes as GB18030".into(),
        ));
    }
    // Western European exports: no valid multi-byte UTF-8 at all, every
    // byte a Windows-1252 character (not one of its five unassigned bytes,
    // which decode to C1 controls), and a header found. Without a header,
    // a stray byte stays an invalid UTF-8 cell, reported on its line.
    if valid_multibyte == 0 {
        let text = clean(WINDOWS_1252)?;
        if text.chars().any(|c| ('\u{80}'..='\u{9f}').contains(&c)) {
            return None;
        }
        let found = header_words(&text);
        if !found.is_empty() {
            let why = format!(
                "not UTF-8; decodes as Windows-1252 with the header words {}",
                quoted(&found)
            );
            return Some((TextEncoding::Other(WINDOWS_1252), why));
        }
    }
    None
}

/// The header words of [`crate::vocab::headers`] that are whole cells of
/// the first lines of `text` (any delimiter), at most three, in order.
fn header_words(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in text.lines().take(64) {
        for cell in line.split([',', ';', '\t', '|']) {
            let c = cell.trim().trim_matches('"').trim();
            if !c.is_ascii() || c.len() >= 3 {
                let is_word = crate::vocab::headers::ALL
                    .iter()
                    .flat_map(|l| l.iter())
                    .any(|w| w.eq_ignore_ascii_case(c));
                if is_word && !found.iter().any(|f: &String| f == c) && found.len() < 3 {
                    found.push(c.to_string());
                }
            }
        }
    }
    found
}

fn quoted(words: &[String]) -> String {
    words
        .iter()
        .map(|w| format!("`{w}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What the bytes say before any legacy encoding is considered.
fn sniff_bytes(prefix: &[u8]) -> Sniffed {
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
