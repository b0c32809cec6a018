//! Text columns read page by page into dictionary slots
//! (`src/ingest/parquet/pages.rs`, issue 27 item 4): the same rows written
//! by pyarrow with every layout of pages a writer makes (dictionary pages,
//! a dictionary that falls back to PLAIN pages mid-chunk, data pages v1
//! and v2, many small pages, several row groups, nulls, and encodings left
//! to the `parquet` crate's reader) give the CSV's report: text columns,
//! and DECIMALs stored as fixed-length byte arrays (pyarrow's default),
//! read as figures (`Amount`) or folded (`Weight`, which no profile
//! reads). The expected figures are hand arithmetic, written beside them.

use std::path::Path;
use std::process::Command;

use crate::common::{python_has, run, stderr};

/// The rows (see `layouts_of_pages_give_the_csvs_report`), as a pyarrow
/// table `t`, and the CSV of them at `dir`/rows.csv.
const ROWS: &str = r#"
rows = []
for i in range(3000):
    kind = ["GPU hours", "Egress traffic", "Snapshot storage", "Block storage"][i % 4]
    rows.append((f"{kind} pod-{i % 40}", decimal.Decimal(i % 7 + 1).quantize(decimal.Decimal("0.01")),
                 "USD", None if i % 11 == 0 else f"team-{i % 1500}",
                 None if i % 17 == 0 else decimal.Decimal(i % 13) / 1000))
rows.append(rows[5])                                   # a repeat of line 7
rows.append(rows[6][:3] + ("team-other", rows[6][4]))  # line 8 but for Zeta
cols = list(zip(*rows))
t = pa.table({"Description": pa.array(cols[0], pa.string()),
              "Amount": pa.array(cols[1], pa.decimal128(12, 2)),
              "Currency": pa.array(cols[2], pa.string()),
              "Zeta": pa.array(cols[3], pa.string()),
              "Weight": pa.array(cols[4], pa.decimal128(9, 3))})
write_csv(f"{d}/rows.csv", t.column_names, rows)
"#;

/// The layouts: name, `pq.write_table` arguments, and the encodings the
/// `Zeta` column's first chunk must list (so that each layout is what it
/// says).
const LAYOUTS: &[(&str, &str, &str)] = &[
    ("dict", "row_group_size=1000", "RLE_DICTIONARY"),
    (
        "fallback",
        "row_group_size=1000, dictionary_pagesize_limit=600, data_page_size=400",
        "PLAIN",
    ),
    (
        "v2",
        "row_group_size=1000, data_page_version='2.0', data_page_size=400, dictionary_pagesize_limit=600, compression='zstd'",
        "PLAIN",
    ),
    ("plain", "use_dictionary=False, data_page_size=400", "PLAIN"),
    (
        "delta",
        "use_dictionary=False, column_encoding={'Zeta': 'DELTA_BYTE_ARRAY', 'Description': 'DELTA_LENGTH_BYTE_ARRAY'}",
        "DELTA_BYTE_ARRAY",
    ),
    ("one-group", "row_group_size=10000", "RLE_DICTIONARY"),
    // Row 5 in the dictionary, its repeat (row 3000) in a PLAIN page.
    (
        "one-group-fallback",
        "row_group_size=10000, dictionary_pagesize_limit=600",
        "PLAIN",
    ),
];

/// What every script starts with: the modules, the folder `d`, and
/// `write_csv`, which writes the rows as a CSV export would (a null as an
/// empty cell).
const PRELUDE: &str = r#"
import csv, decimal, sys
import pyarrow as pa, pyarrow.parquet as pq
d = sys.argv[1]
D = decimal.Decimal
def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for r in rows:
            w.writerow(["" if v is None else v for v in r])
"#;

/// Runs `script` after [`PRELUDE`] with the folder `dir`.
fn python(script: &str, dir: &Path) {
    let script = format!("{PRELUDE}{script}");
    let o = Command::new("python3")
        .args(["-c", &script, dir.to_str().expect("utf-8 path")])
        .output()
        .expect("python3");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The JSON report's bill, without the path and format that name the file.
fn bill(path: &Path, threads: &str) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_billaudit"))
        .args(["audit", "--format", "json"])
        .arg(path)
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .expect("billaudit");
    let mut report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["errors"], serde_json::json!([]), "{}", stderr(&out));
    let mut b = report["bills"][0].take();
    let o = b.as_object_mut().expect("a bill");
    o.remove("path");
    o.remove("format");
    for f in o["findings"].as_array_mut().expect("findings") {
        f.as_object_mut().expect("a finding").remove("path");
    }
    b
}

/// The lines of a bill's `code` findings.
fn lines_of(bill: &serde_json::Value, code: &str) -> Vec<serde_json::Value> {
    let findings = bill["findings"].as_array().expect("findings");
    let found = findings.iter().filter(|f| f["code"] == code);
    found.map(|f| f["line"].clone()).collect()
}

/// The lines of a bill's `duplicate-line` findings.
fn duplicate_lines(bill: &serde_json::Value) -> Vec<serde_json::Value> {
    lines_of(bill, "duplicate-line")
}

/// Each `name`.parquet in `dir`, on 1 and 2 threads, gives the bill `csv`.
fn each_gives<'n>(dir: &Path, names: impl IntoIterator<Item = &'n str>, csv: &serde_json::Value) {
    for name in names {
        for threads in ["1", "2"] {
            let pq = bill(&dir.join(format!("{name}.parquet")), threads);
            assert_eq!(&pq, csv, "{name} on {threads} threads");
        }
    }
}

#[test]
fn layouts_of_pages_give_the_csvs_report() {
    if !python_has(&["pyarrow"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let mut script = ROWS.to_string();
    for (name, args, encoding) in LAYOUTS {
        script.push_str(&format!(
            "pq.write_table(t, f\"{{d}}/{name}.parquet\", {args})\n\
             e = pq.ParquetFile(f\"{{d}}/{name}.parquet\").metadata.row_group(0).column(3).encodings\n\
             assert '{encoding}' in e, ('{name}', e)\n"
        ));
    }
    python(&script, dir.path());
    let csv = bill(&dir.path().join("rows.csv"), "1");
    // 3,000 rows of amounts 1..7 in turn: 428 turns of 28 = 11,984, and
    // rows 2996-2999 (i % 7 = 0..3) 1 + 2 + 3 + 4 = 10; then the repeat of
    // row 5 (6.00) and the near-repeat of row 6 (7.00): 12,007.00.
    assert_eq!(csv["total"], "12007.00", "{csv}");
    assert_eq!(csv["line_items"], 3002, "{csv}");
    assert_eq!(csv["skipped_rows"], 0, "{csv}");
    // Row 3000 (line 3002) repeats row 5 (line 7) in every cell; row 3001
    // differs from row 6 in Zeta, a column no profile reads.
    let dups = duplicate_lines(&csv);
    assert_eq!(dups, [serde_json::json!(3002)], "{csv}");
    each_gives(dir.path(), LAYOUTS.iter().map(|l| l.0), &csv);
}

#[test]
fn a_dictionary_entry_that_is_not_utf8_is_an_error_naming_the_row() {
    if !python_has(&["pyarrow"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    // Rows 1 and 3 name the same entry; the first whose row is read is
    // named. In `plain` the value is a PLAIN value, in `dict` an entry.
    let script = r#"
t = pa.table({"Description": pa.array([b"GPU hours", b"\xffGPU", b"Storage", b"\xffGPU"], pa.binary()),
              "Amount": pa.array([decimal.Decimal("1.00")] * 4, pa.decimal128(12, 2)),
              "Currency": pa.array(["USD"] * 4)})
pq.write_table(t, f"{d}/dict.parquet")
pq.write_table(t, f"{d}/plain.parquet", use_dictionary=False)
"#;
    python(script, dir.path());
    for name in ["dict", "plain"] {
        let out = run(&[
            "audit",
            dir.path().join(format!("{name}.parquet")).to_str().unwrap(),
        ]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(
            err.contains("column `Description`: row 2 (line 3): a value that is not UTF-8 text (invalid byte at offset 0)"),
            "{name}: {err}"
        );
    }
}

/// A column read by `pages.rs` in one part of a split bill and by the
/// crate's reader in the next (DELTA_BYTE_ARRAY text, BYTE_STREAM_SPLIT
/// DECIMALs) gives equal rows equal hashes: a row of part 2 that repeats a
/// row of part 1 in every cell is a duplicate, as in the CSV parts.
#[test]
fn a_repeat_across_parts_read_by_the_two_readers_is_a_duplicate() {
    if !python_has(&["pyarrow"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let (csv, pq) = (dir.path().join("csv"), dir.path().join("pq"));
    std::fs::create_dir_all(&csv).expect("mkdir");
    std::fs::create_dir_all(&pq).expect("mkdir");
    let script = r#"
part1 = [("GPU hours", D("4.00"), "USD", "team-a", D("0.125")),
         ("Egress traffic", D("1.50"), "USD", None, None),
         ("Block storage", D("2.25"), "USD", "team-b", D("0.500"))]
# Row 1 repeats part 1's row 1, row 3 its row 2 (nulls and all); row 2
# is part 1's row 3 but for Weight.
part2 = [("GPU hours", D("4.00"), "USD", "team-a", D("0.125")),
         ("Block storage", D("2.25"), "USD", "team-b", D("0.501")),
         ("Egress traffic", D("1.50"), "USD", None, None)]
def table(rows):
    c = list(zip(*rows))
    return pa.table({"Description": pa.array(c[0], pa.string()),
                     "Amount": pa.array(c[1], pa.decimal128(12, 2)),
                     "Currency": pa.array(c[2], pa.string()),
                     "Zeta": pa.array(c[3], pa.string()),
                     "Weight": pa.array(c[4], pa.decimal128(9, 3))})
pq.write_table(table(part1), f"{d}/pq/bill_1.parquet")
pq.write_table(table(part2), f"{d}/pq/bill_2.parquet", use_dictionary=False,
               column_encoding={"Description": "DELTA_LENGTH_BYTE_ARRAY", "Currency": "DELTA_BYTE_ARRAY",
                                "Zeta": "DELTA_BYTE_ARRAY", "Amount": "BYTE_STREAM_SPLIT",
                                "Weight": "BYTE_STREAM_SPLIT"})
e = pq.ParquetFile(f"{d}/pq/bill_2.parquet").metadata.row_group(0)
assert "BYTE_STREAM_SPLIT" in e.column(1).encodings and "DELTA_BYTE_ARRAY" in e.column(3).encodings
for name, rows in (("bill_1", part1), ("bill_2", part2)):
    write_csv(f"{d}/csv/{name}.csv", ["Description", "Amount", "Currency", "Zeta", "Weight"], rows)
"#;
    python(script, dir.path());
    let from_csv = bill(&csv, "1");
    // 4.00 + 1.50 + 2.25 = 7.75 a part: 15.50.
    assert_eq!(from_csv["total"], "15.50", "{from_csv}");
    let dups = duplicate_lines(&from_csv);
    // Part 2's line 2 repeats part 1's line 2, its line 4 part 1's line 3
    // (a null and a null are the same cell); its line 3 differs in Weight.
    assert_eq!(
        dups,
        [serde_json::json!(2), serde_json::json!(4)],
        "{from_csv}"
    );
    for threads in ["1", "2"] {
        // A repeat's message names the part of its first row.
        let b = bill(&pq, threads).to_string();
        let b = b.replace("/pq/bill_1.parquet", "/csv/bill_1.csv");
        let b: serde_json::Value = serde_json::from_str(&b).expect("JSON");
        assert_eq!(b, from_csv, "on {threads} threads");
    }
}

/// A row-id column read as text (left of the amount, where a summary
/// label may stand) is left out of a Parquet row's fingerprint, as of a
/// CSV row's (`line_item_id`, one of `ROW_ID_HEADERS`): the same charge
/// under a fresh id is a duplicate, in a dictionary-encoded file and in
/// one the crate's reader decodes (DELTA_BYTE_ARRAY), on 1 and 2 threads.
#[test]
fn a_repeat_under_a_fresh_row_id_is_a_duplicate() {
    if !python_has(&["pyarrow"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let script = r#"
rows = [("li-1", "GPU hours", D("4.00"), "USD"),
        ("li-2", "Egress traffic", D("1.50"), "USD"),
        ("li-3", "GPU hours", D("4.00"), "USD")]
c = list(zip(*rows))
t = pa.table({"line_item_id": pa.array(c[0], pa.string()),
              "Description": pa.array(c[1], pa.string()),
              "Amount": pa.array(c[2], pa.decimal128(12, 2)),
              "Currency": pa.array(c[3], pa.string())})
pq.write_table(t, f"{d}/dict.parquet")
pq.write_table(t, f"{d}/delta.parquet", use_dictionary=False,
               column_encoding={"line_item_id": "DELTA_BYTE_ARRAY", "Description": "DELTA_BYTE_ARRAY"})
write_csv(f"{d}/rows.csv", t.column_names, rows)
"#;
    python(script, dir.path());
    let csv = bill(&dir.path().join("rows.csv"), "1");
    // 4.00 + 1.50 + 4.00 = 9.50; line 4 repeats line 2 under li-3.
    assert_eq!(csv["total"], "9.50", "{csv}");
    assert_eq!(duplicate_lines(&csv), [serde_json::json!(4)], "{csv}");
    each_gives(dir.path(), ["dict", "delta"], &csv);
}

/// A held cell longer than a cell may be (256 KiB) is named as in CSV in
/// every layout, in whichever batch of 4,096 rows it falls: the batch
/// knows its longest held cell and only a batch with one over the limit
/// looks at each row's cells (`HeldRow::cell_over`). 9,000 rows of 1.00;
/// rows 100 (batch 1) and 8,500 (batch 3) have a description of 300,000
/// bytes, batch 2 has none.
#[test]
fn an_oversized_held_cell_is_named_in_its_batch_as_in_csv() {
    if !python_has(&["pyarrow"]) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let script = r#"
rows = []
for i in range(9000):
    desc = "x" * 300000 if i in (100, 8500) else ["GPU hours", "Egress traffic"][i % 2]
    rows.append((desc, decimal.Decimal("1.00"), "USD"))
c = list(zip(*rows))
t = pa.table({"Description": pa.array(c[0], pa.string()),
              "Amount": pa.array(c[1], pa.decimal128(12, 2)),
              "Currency": pa.array(c[2], pa.string())})
pq.write_table(t, f"{d}/dict.parquet")
pq.write_table(t, f"{d}/plain.parquet", use_dictionary=False)
pq.write_table(t, f"{d}/delta.parquet", use_dictionary=False,
               column_encoding={"Description": "DELTA_LENGTH_BYTE_ARRAY"})
write_csv(f"{d}/rows.csv", t.column_names, rows)
"#;
    python(script, dir.path());
    let csv = bill(&dir.path().join("rows.csv"), "1");
    // Rows 100 and 8,500 (lines 102 and 8,502) are kept out: 8,998 x 1.00.
    assert_eq!(csv["total"], "8998.00", "{csv}");
    assert_eq!(csv["line_items"], 8998, "{csv}");
    let long = lines_of(&csv, "unparsable-value");
    assert_eq!(
        long,
        [serde_json::json!(102), serde_json::json!(8502)],
        "{csv}"
    );
    each_gives(dir.path(), ["dict", "plain", "delta"], &csv);
}
