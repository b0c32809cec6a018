//! The whole ingest path: bytes (plain, gzip, ZIP, any encoding) -> bills.
//! Every input must give bills or an error; a panic, hang or OOM is a bug.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

/// Built once: profiles and classification rules are not what is fuzzed.
fn opts() -> &'static billaudit::Options {
    static OPTS: OnceLock<billaudit::Options> = OnceLock::new();
    OPTS.get_or_init(|| billaudit::Options {
        // Bounded like a careful user would run it: keeps gzip bombs quick.
        max_input_bytes: Some(8 * 1024 * 1024),
        ..billaudit::Options::default()
    })
}

fuzz_target!(|data: &[u8]| {
    if let Ok(bills) = billaudit::audit_bytes("fuzz.csv", data, opts()) {
        for b in &bills {
            // The accounting invariant holds for every bill that comes out.
            let sum = b.totals.checked_sum(|_| true);
            assert_eq!(sum, Some(b.total), "category totals must add up to the total");
        }
    }
});
