use super::*;

fn at(y: i32, m: u32, d: u32, h: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(y, m, d)
        .unwrap()
        .and_hms_opt(h, 0, 0)
        .unwrap()
}

fn item(line: u64, amount: &str, category: Category) -> LineItem {
    let mut i = LineItem::new(line, format!("line {line}"), amount.parse().unwrap());
    i.category = category;
    i.rule = "builtin:test".into();
    i
}

fn rows(csv_text: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut r = csv::Reader::from_reader(csv_text.as_bytes());
    let h = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            h.iter()
                .zip(rec.iter())
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        })
        .collect()
}

#[test]
fn header_is_the_57_focus_columns_then_the_x_columns() {
    let f = FocusCsv::new(Vec::new(), None).unwrap();
    let out = String::from_utf8(f.w.into_inner().unwrap()).unwrap();
    let header: Vec<&str> = out.trim_end().split(',').collect();
    assert_eq!(header.len(), 57 + 6);
    assert_eq!(header[0], "ProviderName");
    assert_eq!(header[56], "Tags");
    assert!(header[57..].iter().all(|h| h.starts_with("x_")));
    let unique: std::collections::HashSet<_> = header.iter().collect();
    assert_eq!(unique.len(), header.len());
}

#[test]
fn a_line_without_a_date_takes_its_bills_months() {
    let mut dated = item(2, "1.50", Category::Compute);
    dated.start = Some(at(2024, 11, 3, 5));
    dated.end = Some(at(2024, 11, 3, 6));
    dated.currency = Some("USD".into());
    let mut later = item(3, "-0.25", Category::Credit);
    later.start = Some(at(2024, 12, 1, 0));
    later.currency = Some("USD".into());
    let mut undated = item(4, "0.10", Category::Tax);
    undated.currency = Some("usd".into());
    let mut f = FocusCsv::new(Vec::new(), None).unwrap();
    let items: Vec<(String, LineItem)> = [dated, later, undated]
        .into_iter()
        .map(|i| ("b.csv".to_string(), i))
        .collect();
    f.write_input(&items, &[]).unwrap();
    let tally = f.tally.clone();
    let text = String::from_utf8(f.w.into_inner().unwrap()).unwrap();
    let r = rows(&text);
    assert_eq!(r.len(), 3);
    assert_eq!(r[0]["ChargePeriodStart"], "2024-11-03T05:00:00Z");
    assert_eq!(r[0]["ChargePeriodEnd"], "2024-11-03T06:00:00Z");
    // 2024-11-03 .. 2024-12-02 (the credit's date alone covers one day):
    // November's start to January's.
    assert_eq!(r[0]["BillingPeriodStart"], "2024-11-01T00:00:00Z");
    assert_eq!(r[0]["BillingPeriodEnd"], "2025-01-01T00:00:00Z");
    assert_eq!(r[1]["ChargePeriodEnd"], "2024-12-02T00:00:00Z");
    assert_eq!(r[2]["ChargePeriodStart"], "2024-11-01T00:00:00Z");
    assert_eq!(r[2]["x_ChargePeriodSource"], "bill");
    assert_eq!(r[0]["x_ChargePeriodSource"], "line");
    assert_eq!(r[1]["ChargeCategory"], "Credit");
    assert_eq!(r[2]["ChargeCategory"], "Tax");
    assert_eq!(r[0]["ChargeCategory"], "Usage");
    assert_eq!(r[2]["BillingCurrency"], "USD");
    // 1.50 - 0.25 + 0.10 = 1.35, all in USD.
    assert_eq!(tally.billed["USD"], "1.35".parse::<Decimal>().unwrap());
    assert_eq!(tally.billed.len(), 1);
    assert_eq!(r[0]["BilledCost"], "1.50");
    assert_eq!(tally.inferred_periods, 1);
}

#[test]
fn a_bill_without_any_date_gets_the_given_month_or_1970() {
    let items = vec![("t.txt".to_string(), item(7, "3", Category::Other))];
    for (given, start, end, source) in [
        (
            NaiveDate::from_ymd_opt(2024, 2, 1),
            "2024-02-01T00:00:00Z",
            "2024-03-01T00:00:00Z",
            "given",
        ),
        (None, "1970-01-01T00:00:00Z", "1970-02-01T00:00:00Z", "none"),
    ] {
        let mut f = FocusCsv::new(Vec::new(), given).unwrap();
        f.write_input(&items, &[]).unwrap();
        let text = String::from_utf8(f.w.into_inner().unwrap()).unwrap();
        let r = rows(&text);
        assert_eq!(r[0]["BillingPeriodStart"], start);
        assert_eq!(r[0]["BillingPeriodEnd"], end);
        assert_eq!(r[0]["ChargePeriodStart"], start);
        assert_eq!(r[0]["x_ChargePeriodSource"], source);
    }
}

#[test]
fn currencies_are_iso_4217() {
    assert_eq!(billing_currency(Some("¥")), "CNY");
    assert_eq!(billing_currency(Some("RMB")), "CNY");
    assert_eq!(billing_currency(Some("usd")), "USD");
    assert_eq!(billing_currency(Some("BRL")), "BRL");
    assert_eq!(billing_currency(Some("dollars")), "XXX");
    assert_eq!(billing_currency(None), "XXX");
}

#[test]
fn service_categories_are_focus_values() {
    for c in Category::ALL {
        let s = service_category(&item(1, "1", c), "generic-csv");
        assert!(SERVICE_CATEGORIES.contains(&s), "{c}: {s}");
    }
    let mut i = item(1, "1", Category::Other);
    i.class_text = vec![vec!["x".into()], vec!["Databases".into()]];
    assert_eq!(service_category(&i, "focus"), "Databases");
    assert_eq!(service_category(&i, "azure"), "Other");
}
