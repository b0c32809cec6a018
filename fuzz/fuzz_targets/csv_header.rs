//! The CSV reader with delimiter sniffing and header detection, then the
//! row normaliser through the pipeline with `--input csv`.
#![no_main]

use std::sync::OnceLock;

use billaudit::normalise::detect_header;
use billaudit::normalise::profile::CostBasis;
use libfuzzer_sys::fuzz_target;

/// Built once: profiles and classification rules are not what is fuzzed.
fn opts() -> &'static billaudit::Options {
    static OPTS: OnceLock<billaudit::Options> = OnceLock::new();
    OPTS.get_or_init(|| billaudit::Options {
        input: billaudit::InputKind::Csv,
        encoding: Some(billaudit::ingest::TextEncoding::Utf8),
        ..billaudit::Options::default()
    })
}

fuzz_target!(|data: &[u8]| {
    let opts = opts();
    let text = String::from_utf8_lossy(data);
    let delimiter = billaudit::ingest::csv::sniff_delimiter(&text);
    let mut rdr = billaudit::ingest::csv::reader(data, delimiter);
    for (row, rec) in rdr.byte_records().take(10).enumerate() {
        let Ok(rec) = rec else { break };
        let cells: Vec<String> = rec
            .iter()
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect();
        let _ = detect_header(
            &opts.profiles,
            &cells,
            row + 1,
            &Vec::new(),
            CostBasis::Billed,
            false,
        );
    }
    let _ = billaudit::audit_bytes("fuzz.csv", data, opts);
});
