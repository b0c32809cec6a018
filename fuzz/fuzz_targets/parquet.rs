//! The Parquet reader (issue 19): any bytes that start with `PAR1` become
//! CSV text and records or an error naming what is wrong. A panic, hang or unbounded
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
    // The rows as records, straight from the row groups (the pipeline's
    // way), the columns read in every mode in turn (text, hashed, stand-in,
    // exact figures where the column can be one): at most a few batches, as
    // run-length encoding lets a few bytes claim millions of rows.
    use billaudit::ingest::parquet::rows::Mode;
    use billaudit::model::Cells;
    let table = rows.table();
    let modes: Vec<Mode> = (0..table.width())
        .map(|c| match c % 4 {
            0 => Mode::Text,
            1 => Mode::Hashed,
            2 => Mode::StandIn,
            _ if table.is_figure_column(c) => Mode::Figure,
            _ => Mode::Text,
        })
        .collect();
    // A row holds the columns read as text or figures, read in place; its
    // full record a cell for every column (stand-ins for the folded ones),
    // the held ones the same cells.
    let held = billaudit::ingest::parquet::rows::held(&modes);
    let mut rec = csv::ByteRecord::new();
    for g in 0..table.row_groups().min(4) {
        let long = billaudit::normalise::MAX_CELL_BYTES;
        let Ok(mut group) = table.open_group(g, &modes, long) else {
            continue;
        };
        for _ in 0..4 {
            match group.next_batch() {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    for i in 0..n {
                        let row = group.row(i);
                        assert_eq!(row.len(), held.len(), "a cell per held column");
                        group.full_record(i, &mut rec);
                        assert_eq!(rec.len(), table.width(), "a cell per column");
                        for (k, &c) in held.iter().enumerate() {
                            assert_eq!(row.get(k), rec.get(c), "held cell {k} is column {c}'s");
                        }
                    }
                }
            }
        }
    }
    // Run-length encoding lets a few bytes claim millions of rows: the
    // text is read in bounded pieces, as the pipeline reads it.
    let mut text = Vec::new();
    if rows.take(4 << 20).read_to_end(&mut text).is_ok() {
        // Every cell is written as UTF-8 text.
        assert!(std::str::from_utf8(&text).is_ok(), "the CSV text is UTF-8");
    }
});
