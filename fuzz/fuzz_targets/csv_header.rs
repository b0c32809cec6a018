//! The CSV reader with delimiter sniffing and header detection, then the
//! row normaliser through the pipeline with `--input csv`.
#![no_main]

use billaudit::normalise::detect_header;
use billaudit::normalise::profile::CostBasis;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let delimiter = billaudit::ingest::csv::sniff_delimiter(&text);
    let profiles = billaudit::normalise::profiles::builtin();
    let mut rdr = billaudit::ingest::csv::reader(data, delimiter);
    for rec in rdr.byte_records().take(10) {
        let Ok(rec) = rec else { break };
        let cells: Vec<String> = rec
            .iter()
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect();
        let _ = detect_header(&profiles, &cells, &Vec::new(), CostBasis::Billed, false);
    }
    let opts = billaudit::Options {
        input: billaudit::InputKind::Csv,
        encoding: Some(billaudit::ingest::TextEncoding::Utf8),
        ..billaudit::Options::default()
    };
    let _ = billaudit::audit_bytes("fuzz.csv", data, &opts);
});
