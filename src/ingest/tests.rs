use super::*;

#[test]
fn utf8_content_comes_through_unchanged_without_its_bom() {
    let read = |bytes: &'static [u8]| {
        let mut opened = open_reader("x.csv", Box::new(bytes), None).unwrap();
        let mut out = Vec::new();
        opened.reader.read_to_end(&mut out).unwrap();
        (opened.encoding, out)
    };
    let body = "Description,Amount\nGPU 快照,1.00\n";
    let with_bom: &'static [u8] =
        b"\xEF\xBB\xBFDescription,Amount\nGPU \xE5\xBF\xAB\xE7\x85\xA7,1.00\n";
    assert_eq!(
        read(with_bom),
        (TextEncoding::Utf8, body.as_bytes().to_vec())
    );
    assert_eq!(read(body.as_bytes()).1, body.as_bytes());
    // Only a leading BOM is removed.
    let inner: &'static [u8] = b"a,b\n\xEF\xBB\xBFx,1\n";
    assert_eq!(read(inner).1, inner);
}

#[test]
fn split_parts_are_grouped_in_number_order() {
    let s = |p: &str| Source::file(p);
    let groups = group_parts(vec![
        s("d/huawei_10.csv"),
        s("d/huawei_2.csv"),
        s("d/other.csv"),
        s("d/huawei_1.csv"),
        s("e/huawei_3.csv"),
        s("d/2022-08-01_5.csv"),
    ]);
    let names: Vec<Vec<String>> = groups
        .iter()
        .map(|g| g.iter().map(|s| s.display.clone()).collect())
        .collect();
    assert_eq!(
        names,
        vec![
            vec!["d/huawei_1.csv", "d/huawei_2.csv", "d/huawei_10.csv"],
            vec!["d/other.csv"],
            vec!["e/huawei_3.csv"],
            vec!["d/2022-08-01_5.csv"],
        ]
    );
    assert_eq!(part_key(Path::new("a/b_x.csv")), None);
    assert_eq!(part_key(Path::new("a/_1.csv")), None);
    assert!(part_key(Path::new("a/cur_00001.csv.gz")).is_some());
}

/// The part-number rule of docs/formats.md, "Split parts".
#[test]
fn part_numbers_are_trailing_numbers_never_years_or_dates() {
    for (stem, base, n) in [
        ("bill_1", "bill", 1),
        ("bill_2", "bill", 2),
        ("bill_10", "bill", 10),
        ("bill_999", "bill", 999),
        ("bill-part-0002", "bill-part", 2),
        ("bill-Part-3", "bill-Part", 3),
        ("cur_00001", "cur", 1),
        ("cur-00012", "cur", 12),
        ("bill.001", "bill", 1),
        ("bill.02", "bill", 2),
        ("huawei-2024-11_1", "huawei-2024-11", 1),
        ("huawei-2024-11_2", "huawei-2024-11", 2),
        ("2022-08-01_5", "2022-08-01", 5),
        ("cost_2024_1", "cost_2024", 1),
        ("x_12024_11", "x_12024", 11),
        ("账单_3", "账单", 3),
    ] {
        assert_eq!(part_number(stem), Some((base, n)), "{stem}");
    }
    for stem in [
        // A year is four digits without a leading zero.
        "cost_2024",
        "cost_2025",
        "cost-1999",
        "reprice-month-4090",
        // A date: year and month, or year, month and day.
        "cost-2024-11",
        "cost_2024_11",
        "cost.2024.11",
        "aws-cur2-2024-11",
        "koku_2023-06-01",
        "evidence-2020-11-16",
        "bill_2024_12_31",
        // A bare `-` only before 5 zero-padded digits.
        "invoice-1",
        "invoice-001",
        "invoice-0001",
        "bill-part-2024",
        // Too long, or not zero-padded at 4-5 digits.
        "x_12345",
        "x_000001",
        "reports_cost-csv_0000000030000269",
        // `.` needs a zero-padded number: `0.5` is a decimal.
        "all_pass_0.5",
        "v1.2",
        // No separator, no base, no number.
        "bill1",
        "_1",
        "bill_",
        "bill",
        "账单1",
        "账单_1年",
    ] {
        assert_eq!(part_number(stem), None, "{stem}");
    }
    let key = |p: &str| part_key(Path::new(p));
    assert_eq!(key("d/cost_2024.csv"), None);
    assert_eq!(
        key("d/bill-part-0002.csv.gz"),
        Some((PathBuf::from("d/bill-part"), ".csv.gz".to_string(), 2))
    );
}
