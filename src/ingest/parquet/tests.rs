use super::cell::{self, Kind, Unit};
use super::*;

fn text(f: impl FnOnce(&mut String) -> std::result::Result<(), String>) -> String {
    let mut s = String::new();
    f(&mut s).expect("a text");
    s
}

#[test]
fn decimals_keep_their_scale() {
    let d = |v: i128, s: u32| {
        let mut out = String::new();
        cell::decimal(v, s, &mut out);
        out
    };
    // 12345 / 10^2 = 123.45; -5 / 10^3 = -0.005; 7 / 10^0 = 7.
    assert_eq!(d(12345, 2), "123.45");
    assert_eq!(d(-5, 3), "-0.005");
    assert_eq!(d(7, 0), "7");
    assert_eq!(d(0, 10), "0.0000000000");
    // 10^38 - 1 with 10 decimals: 28 nines, a point, 10 nines.
    let max = 10i128.pow(38) - 1;
    assert_eq!(d(max, 10), format!("{}.{}", "9".repeat(28), "9".repeat(10)));
}

#[test]
fn decimal_bytes_are_big_endian_twos_complement() {
    assert_eq!(cell::decimal_bytes(&[0x01, 0x00]), Ok(256));
    assert_eq!(cell::decimal_bytes(&[0xFF]), Ok(-1));
    assert_eq!(cell::decimal_bytes(&[0xFF, 0x38]), Ok(-200));
    // 17 bytes that only sign-extend 16 are fine; one that does not is an error.
    let mut wide = vec![0xFF; 17];
    wide[16] = 0xFE;
    assert_eq!(cell::decimal_bytes(&wide), Ok(-2));
    let mut too_wide = vec![0u8; 17];
    too_wide[0] = 1;
    assert!(cell::decimal_bytes(&too_wide).is_err());
    // 0x00 followed by 16 bytes of 0xFF is 2^128 - 1: positive, too wide.
    let mut positive = vec![0xFF; 17];
    positive[0] = 0;
    assert!(cell::decimal_bytes(&positive).is_err());
    assert!(cell::decimal_bytes(&[]).is_err());
}

#[test]
fn integers_dates_and_timestamps() {
    assert_eq!(text(|o| cell::integer(Kind::Signed, -42, 32, o)), "-42");
    // -1 in 32 bits unsigned is 2^32 - 1 = 4294967295.
    assert_eq!(
        text(|o| cell::integer(Kind::Unsigned, -1, 32, o)),
        "4294967295"
    );
    // 19723 days after 1970-01-01: 54 years (13 leap days) = 19723 -> 2024-01-01.
    assert_eq!(
        text(|o| cell::integer(Kind::Date, 19723, 32, o)),
        "2024-01-01"
    );
    // 1704067200 s = 2024-01-01T00:00:00Z; + 5 ms.
    let ts = |v, unit, utc| text(|o| cell::integer(Kind::Timestamp { unit, utc }, v, 64, o));
    assert_eq!(
        ts(1_704_067_200_005, Unit::Millis, true),
        "2024-01-01T00:00:00.005Z"
    );
    assert_eq!(
        ts(1_704_067_200_000_000, Unit::Micros, false),
        "2024-01-01T00:00:00"
    );
    assert_eq!(
        ts(1_704_067_200_000_000_001, Unit::Nanos, true),
        "2024-01-01T00:00:00.000000001Z"
    );
    // One millisecond before the epoch.
    assert_eq!(ts(-1, Unit::Millis, true), "1969-12-31T23:59:59.999Z");
    // 1761955198 ms = 20 days (1728000 s) + 9 h (32400) + 25 min (1500)
    // + 55.198 s.
    assert_eq!(
        ts(1_761_955_198, Unit::Millis, false),
        "1970-01-21T09:25:55.198"
    );
    // Python: datetime(2025,10,31,23,59,58,tzinfo=utc).timestamp() = 1761955198.
    assert_eq!(
        ts(1_761_955_198_000, Unit::Millis, true),
        "2025-10-31T23:59:58Z"
    );
    // Year 1 (datetime(1,1,1).timestamp() = -62135596800) and the first
    // second after year 9999 (253402300800), past four digits: chrono's form.
    assert_eq!(
        ts(-62_135_596_800_000, Unit::Millis, true),
        "0001-01-01T00:00:00Z"
    );
    assert_eq!(
        ts(253_402_300_800_000, Unit::Millis, true),
        "+10000-01-01T00:00:00Z"
    );
    // 3661 s = 01:01:01.
    assert_eq!(
        text(|o| cell::integer(Kind::Time { unit: Unit::Millis }, 3_661_000, 32, o)),
        "01:01:01"
    );
    let mut out = String::new();
    assert!(cell::integer(Kind::Date, i64::MAX, 64, &mut out).is_err());
    assert!(
        cell::integer(
            Kind::Timestamp {
                unit: Unit::Millis,
                utc: true
            },
            i64::MAX,
            64,
            &mut out
        )
        .is_err()
    );
}

#[test]
fn int96_is_julian_day_and_nanoseconds() {
    // Julian day 2440588 is 1970-01-01; 1 s = 10^9 ns in the low word.
    assert_eq!(
        text(|o| cell::int96(&[1_000_000_000, 0, 2_440_588], o)),
        "1970-01-01T00:00:01Z"
    );
}

#[test]
fn floats_are_the_shortest_round_trip_and_never_an_exponent() {
    let f = |v: f64| text(|o| cell::float(v, None, o));
    assert_eq!(f(0.1 + 0.2), "0.30000000000000004");
    assert_eq!(f(1e-7), "0.0000001");
    assert_eq!(f(1e21), "1000000000000000000000");
    assert_eq!(f(2.5), "2.5");
    // The f32 0.1 prints as 0.1, not as its f64 widening 0.10000000149011612.
    assert_eq!(
        text(|o| cell::float(f64::from(0.1f32), Some(0.1f32), o)),
        "0.1"
    );
    let mut out = String::new();
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let e = cell::float(bad, None, &mut out).expect_err("no decimal");
        assert!(e.contains("not a number"), "{e}");
    }
}

#[test]
fn bytes_are_utf8_or_an_error() {
    assert_eq!(
        text(|o| cell::bytes(Kind::Text, "東京".as_bytes(), o)),
        "東京"
    );
    assert_eq!(
        text(|o| cell::bytes(Kind::Decimal { scale: 2 }, &[0x30, 0x39], o)),
        // 0x3039 = 12345.
        "123.45"
    );
    let e = cell::bytes(Kind::Text, b"ab\xFF", &mut String::new()).expect_err("not UTF-8");
    assert!(e.contains("offset 2"), "{e}");
}

#[test]
fn lines_quote_what_csv_needs_quoted() {
    let mut out = Vec::new();
    write_line(&mut out, ["a", "b,c", "say \"hi\"", "x\ny", ""].into_iter());
    assert_eq!(out, b"a,\"b,c\",\"say \"\"hi\"\"\",\"x\ny\",\n");
}

#[test]
fn magic_is_par1_then_binary() {
    assert!(is_parquet(b"PAR1\x15\x04"));
    assert!(is_parquet(b"PARE\x15"));
    // A CSV header that starts with the same letters is text.
    assert!(!is_parquet(b"PARENT_ID,cost\n"));
    assert!(!is_parquet(b"PAR1,cost\n"));
    assert!(!is_parquet(b"PK\x03\x04"));
}

#[test]
fn frames_are_checked_before_the_footer_is_read() {
    let err = |bytes: &[u8]| {
        open_bytes("x.parquet", bytes.to_vec())
            .expect_err("refused")
            .to_string()
    };
    assert!(err(b"PAR1").contains("truncated"));
    assert!(err(b"PAR1\x15\x00\x00\x00\x00\x00\x00\x00XXXX").contains("does not end in the magic"));
    // A footer length of 0xFFFFFFF0 in a file of 16 bytes.
    assert!(err(b"PAR1\x15\x00\x00\x00\xF0\xFF\xFF\xFFPAR1").contains("claims 4294967280 bytes"));
    assert!(err(b"PARE\x15\x00\x00\x00\x04\x00\x00\x00PARE").contains("encrypted"));
    // A sane frame around a footer that is not Thrift.
    assert!(
        err(b"PAR1\xFF\xFF\xFF\xFF\x04\x00\x00\x00PAR1").contains("not a readable Parquet file")
    );
}

#[test]
fn a_stream_is_held_only_up_to_its_limit() {
    let e = read_stream("-", b"PAR1".to_vec(), &[0u8; 100][..], Some(50)).expect_err("over");
    assert!(e.to_string().contains("larger than 50 bytes"), "{e}");
    let ok = read_stream("-", b"PAR1".to_vec(), &[0u8; 10][..], Some(50)).expect("under");
    assert_eq!(ok.len(), 14);
}

#[test]
fn parquet_part_files_are_parts() {
    use crate::ingest::part_key;
    use std::path::PathBuf;
    let key = |name: &str| part_key(Path::new(name));
    // AWS Data Exports: `NAME-00001.snappy.parquet`.
    assert_eq!(
        key("cur2-00001.snappy.parquet"),
        Some((PathBuf::from("cur2"), ".snappy.parquet".into(), 1))
    );
    assert_eq!(
        key("x_00002.zstd.parquet"),
        Some((PathBuf::from("x"), ".zstd.parquet".into(), 2))
    );
    assert_eq!(
        key("bill_3.parquet"),
        Some((PathBuf::from("bill"), ".parquet".into(), 3))
    );
    // A year is never a part number.
    assert_eq!(key("cost_2024.parquet"), None);
}

/// Found by the `parquet` fuzz target (crash-9a64b399...): a column chunk
/// with a negative length in the footer hit an assert in the `parquet`
/// crate (`column start and length should not be negative`).
const NEGATIVE_CHUNK: &[&str] = &[
    "5041523115001508150c2c15021500150615060000040c010000001500151015142c15021500150615060000081c0200",
    "00000000000015001508150c2c15021500150615060000040c0000c03f1500150c15102c150215001506150600000614",
    "0200000002001500150215062c1502150015061506000001000115001508150c2c15021500150615060000040c0c4d00",
    "001500151015142c15021500150615060000081c15ff5c37b768a6171500150a150e2c15021500150615060000051001",
    "000000781500151415182c150215001506150600000a240a00000000000000020000000201010000001500156615362c",
    "15041500150615060000331a210000004102007601003402000000040201000000020000001500152215262c15021500",
    "1506150600001140020000000200020000000201010000006b1500152215262c15021500150615060000114002000000",
    "0200020000000202010000007615001508150c2c15021500150615060000040c7d00000015002f151015142c15021500",
    "150615060000081cd430000000000000150219fc143500180d6475636b64625f736368656d61151a0015022500180169",
    "2522001504250018016c2524001508250018016600150a25021801640015002500180162001502250018026474250c00",
    "1504250018026e736c8c121c3c0000000000150c25001801732500003500180273741502001502250218016125220035",
    "0018026c691502150600350418046c697374150200150225021807656c656d656e74252200350018016d150215020035",
    "0418096b65795f76616c7565150400150c250018036b6579250000150c2502180576616c756525000015022500180264",
    "34250a150215082c5c15021508000000150425001803643138250a150615242c5c150615240000001602191c19ec2600",
    "1c15021915001918016915021602162a162e26083c180401000000180401000000160028040100000018040100000011",
    "1100191c15001500150200000026001c15041915001918016c150216021632163626363c180802000000000000001808",
    "020000000000000016002808020000000000000018080200000000000000111100191c15001500150200000026001c15",
    "081915001918016615021602162a162e266c3c18040000c03f18040000c03f160028040000c03f18040000c03f111116",
    "0000191c15001500150200000026001c150a1915001918016415021602162e1631269a013c3602660000191c15001500",
    "150200000026001c150019150019180162150216021624162826cc013c1801011801011600280101180101111100191c",
    "15001500150200000026001c1502191500191802647415021602162a162e26f4013c18040c4d000018040c4d00001600",
    "28040c4d000018040c4d0000111100191c15001500150200000026001c15041915001918026e73150216021632163626",
    "a2023c180815ff5c37b768a617180815ff5c37b768a6171600280815ff5c37b768a617180815ff5c37b768a617111100",
    "191c15001500150200000026001c150c1915001918017315021602162c163026d8023c18017818017816002801781801",
    "78111100191c15001500150200000026001c150219150019280273740161150216021636163a2688033c180401000000",
    "1804010000001600280401000000180401000000111100191c15001500150200000026001c15021915001938026c6904",
    "6c69737407656c656d656e7415021604168801165826c2033c1804020000001804010000001600280402000000180401",
    "000000111100191c15001500150200000026001c150c1915001938016d096b65795f76616c7565036b65791502160216",
    "441648269a043c18016b18016b160028016b18016b111100191c15001500150200000026001c150c1915001938016d09",
    "6b65795f76616c75650576616c7565150216021644164826e2043c1801761801761600280176180176111100191c1500",
    "1500150200000026001c1502191500191802643415021602162a162e26aa053c18047d00000018047d00000016002804",
    "7d00000018047d000000111100191c15001500150200000026001c1504191500191803643138150216021632163626d8",
    "053c1808d4300000000000001808d43000000000000016002808d4300000000000001808d43000000000000011110019",
    "1c150015001502000000168206160226081686060028284475636b44422076657273696f6e2076322e302e3120286275",
    "696c6420386437383131346539302919ec1c00001c00001c00001c00001c00001c00001c00001c00001c00001c00001c",
    "00001c00001c00001c0000000c05000050415231",
];

#[test]
fn a_column_chunk_outside_the_file_is_an_error_not_a_panic() {
    let hex: String = NEGATIVE_CHUNK.concat();
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
        .collect();
    let err = match open_bytes("crash.parquet", bytes) {
        Ok(mut rows) => {
            let mut text = Vec::new();
            rows.read_to_end(&mut text)
                .expect_err("refused")
                .to_string()
        }
        Err(e) => e.to_string(),
    };
    assert!(err.contains("the footer is damaged"), "{err}");
}

/// The second fuzz crash (crash-b0c9c557..., not kept: its bytes came from
/// a seed made of the real FOCUS sample): a dictionary page whose values run
/// out made the `parquet` crate's PLAIN byte-array decoder index past the
/// page (`read_num_bytes`). Such a panic is contained: an error, and the
/// flag that keeps the panic hook quiet is set only inside.
#[test]
fn a_panic_in_the_decoder_is_an_error_about_the_file() {
    assert!(!panic_is_contained());
    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let inner = contained(|| {
        assert!(panic_is_contained());
        let v: Vec<u8> = Vec::new();
        v[..4].len()
    });
    std::panic::set_hook(quiet);
    let e = inner.expect_err("caught");
    assert!(
        e.starts_with("the Parquet decoder stopped on damaged data ("),
        "{e}"
    );
    assert!(e.contains("out of range"), "{e}");
    assert!(!panic_is_contained());
    assert_eq!(contained(|| 7), Ok(7));
}

#[test]
fn figures_are_the_decimals_their_texts_read_as() {
    use super::figures::exact;
    use rust_decimal::Decimal;
    use std::str::FromStr;
    // 12345 / 10^2 = 123.45, scale 2 kept; -5 / 10^3 = -0.005.
    assert_eq!(
        exact(12345, 2).map(|d| d.to_string()),
        Some("123.45".into())
    );
    assert_eq!(exact(-5, 3).map(|d| d.to_string()), Some("-0.005".into()));
    // 0 with 18 decimals: "0." and 18 zeros, 20 characters, scale kept.
    assert_eq!(exact(0, 18).map(|d| d.scale()), Some(18));
    // 999,999,999 and 18 decimals: 9 + 1 + 18 = 28 characters, read here;
    // 10^9 and 18 decimals: 29 characters, left to the text.
    let e18 = 10i128.pow(18);
    assert!(exact(999_999_999 * e18, 18).is_some());
    assert_eq!(exact(1_000_000_000 * e18, 18), None);
    assert_eq!(exact(-1_000_000_000 * e18, 18), None);
    // 10^27 - 1, no decimals: 27 characters; 10^28: 29.
    assert!(exact(10i128.pow(27) - 1, 0).is_some());
    assert_eq!(exact(10i128.pow(28), 0), None);
    // Each equals rust_decimal's exact reading of the text, scale and all.
    for (u, s) in [
        (39_407_880_492i128 * 10i128.pow(8), 18),
        (-7, 0),
        (1, 10),
        (-123_456, 4),
    ] {
        let mut text = String::new();
        cell::decimal(u, s, &mut text);
        let read = Decimal::from_str_exact(&text).expect("exact text");
        let got = exact(u, s).expect("a figure");
        assert_eq!((got, got.scale()), (read, read.scale()), "{text}");
        assert_eq!(Decimal::from_str(&text).ok(), Some(got));
    }
}
