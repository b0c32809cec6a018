//! The plain-text invoice parser (nom), then the audit of what it found.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

/// Built once: profiles and classification rules are not what is fuzzed.
fn opts() -> &'static billaudit::Options {
    static OPTS: OnceLock<billaudit::Options> = OnceLock::new();
    OPTS.get_or_init(|| billaudit::Options {
        input: billaudit::InputKind::Text,
        encoding: Some(billaudit::ingest::TextEncoding::Utf8),
        ..billaudit::Options::default()
    })
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let invoice = billaudit::normalise::text::parse(&text);
    let _ = invoice.items().count();
    let _ = billaudit::audit_bytes("fuzz.txt", data, opts());
});
