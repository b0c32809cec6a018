//! The number reader: every string gives a value, a placeholder or an error.
#![no_main]

use billaudit::normalise::number::{DecimalMark, parse_number};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    for mark in [DecimalMark::Dot, DecimalMark::Comma] {
        let _ = parse_number(&s, mark);
        let _ = billaudit::normalise::split_quantity_unit(&s, mark);
        let _ = billaudit::normalise::parse_credit_list(&s, mark);
    }
    let _ = billaudit::normalise::text::grammar::read_money(&s);
    let _ = billaudit::normalise::text::grammar::trailing_amount(&s);
});
