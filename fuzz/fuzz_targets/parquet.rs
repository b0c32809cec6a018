//! The Parquet reader (issue 19): any bytes that start with `PAR1` become
//! CSV text or an error naming what is wrong. A panic, hang or unbounded
//! allocation is a bug.
#![no_main]

use std::io::Read;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // A panic inside the parquet crate's decoding is caught by the reader
    // and becomes an error (`contained`); any other panic still aborts.
    static QUIET: std::sync::Once = std::sync::Once::new();
    QUIET.call_once(|| {
        let abort = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !billaudit::ingest::parquet::panic_is_contained() {
                abort(info);
            }
        }));
    });
    let Ok(rows) = billaudit::ingest::parquet::open_bytes("fuzz.parquet", data.to_vec()) else {
        return;
    };
    // Run-length encoding lets a few bytes claim millions of rows: the
    // text is read in bounded pieces, as the pipeline reads it.
    let mut text = Vec::new();
    if rows.take(4 << 20).read_to_end(&mut text).is_ok() {
        // Every cell is written as UTF-8 text.
        assert!(std::str::from_utf8(&text).is_ok(), "the CSV text is UTF-8");
    }
});
