//! The plain-text invoice parser (nom), then the audit of what it found.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let invoice = billaudit::ingest::text::parse(&text);
    let _ = invoice.items().count();
    let opts = billaudit::Options {
        input: billaudit::InputKind::Text,
        encoding: Some(billaudit::ingest::TextEncoding::Utf8),
        ..billaudit::Options::default()
    };
    let _ = billaudit::audit_bytes("fuzz.txt", data, &opts);
});
