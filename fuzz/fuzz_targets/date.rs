//! The date, month and range readers.
#![no_main]

use billaudit::normalise::date;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    let _ = date::parse_datetime(&s);
    let _ = date::parse_date(&s);
    let _ = date::parse_month(&s);
    let _ = date::parse_range(&s);
});
