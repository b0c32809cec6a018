//! `billaudit reprice`, against costs computed by hand.

use serde_json::Value;

use crate::common::{run, stderr, stdout};

fn reprice_json(bill: &str, book: &str) -> Value {
    let out = run(&["reprice", bill, "--prices", book, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// (platform, plan of the first model, cost, difference) per quote, in order.
fn quotes(v: &Value) -> Vec<(String, String, String, String)> {
    v["bills"][0]["quotes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            (
                q["platform"].as_str().unwrap().to_string(),
                q["models"][0]["plan"].as_str().unwrap().to_string(),
                q["cost"].as_str().unwrap().to_string(),
                q["difference"].as_str().unwrap_or("null").to_string(),
            )
        })
        .collect()
}

fn q(p: &str, plan: &str, cost: &str, diff: &str) -> (String, String, String, String) {
    (p.into(), plan.into(), cost.into(), diff.into())
}

#[test]
fn a_month_long_run_takes_the_monthly_plan() {
    // RTX 4090, 720 hours from 2025-10-01 00:00 to 10-31 00:00 (30 days),
    // paid 1800.00. TestCloud: hourly 720 x 2.00 = 1440, daily 30 x 68 =
    // 2040, monthly 1 x 1260 = 1260 -> monthly, 1260 - 1800 = -540.
    // HourlyOnly: 720 x 1.70 = 1224 plus its disk fee 30 days x 0.50 = 15.
    let v = reprice_json(
        "fixtures/gpu/reprice-month-4090.csv",
        "fixtures/gpu/platforms-test.toml",
    );
    let usage = &v["bills"][0]["usage"][0];
    assert_eq!(usage["gpu"], "RTX 4090");
    assert_eq!(usage["hours"], "720");
    assert_eq!(usage["days"], 30);
    assert_eq!(usage["paid"], "1800.00");
    assert_eq!(
        quotes(&v),
        vec![
            q("HourlyOnly", "hourly", "1239.00", "-561.00"),
            q("TestCloud", "monthly", "1260.00", "-540.00"),
        ]
    );
    let fee = &v["bills"][0]["quotes"][0]["fees"][0];
    assert_eq!(fee["cost"], "15.00");
    assert_eq!(v["schema_version"], 1);
}

#[test]
fn a_twenty_hour_run_takes_the_hourly_plan() {
    // 20 hours on 2025-10-05, paid 50.00. TestCloud: hourly 20 x 2.00 = 40,
    // daily 1 x 68 = 68, monthly 1260 -> hourly, 40 - 50 = -10.
    // HourlyOnly: 20 x 1.70 = 34 plus 1 day x 0.50.
    let v = reprice_json(
        "fixtures/gpu/reprice-20h-4090.csv",
        "fixtures/gpu/platforms-test.toml",
    );
    assert_eq!(
        quotes(&v),
        vec![
            q("HourlyOnly", "hourly", "34.50", "-15.50"),
            q("TestCloud", "hourly", "40.00", "-10.00"),
        ]
    );
}

#[test]
fn the_shipped_price_book_prints_a_table_with_dates() {
    // The month run at the seed's 2025 figures: 720 x 1.70 = 1224,
    // 1260 monthly, 720 x 2.00 = 1440, beginner daily 30 x 68 = 2040
    // (hourly would be 720 x 9 = 6480).
    let v = reprice_json(
        "fixtures/gpu/reprice-month-4090.csv",
        "examples/platforms-2025.toml",
    );
    let got: Vec<(String, String)> = quotes(&v).into_iter().map(|x| (x.1, x.2)).collect();
    assert_eq!(
        got,
        vec![
            ("hourly".into(), "1224.00".into()),
            ("monthly".into(), "1260.00".into()),
            ("hourly".into(), "1440.00".into()),
            ("daily".into(), "2040.00".into()),
        ]
    );
    let out = run(&[
        "reprice",
        "fixtures/gpu/reprice-20h-4090.csv",
        "--prices",
        "examples/platforms-2025.toml",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.contains("platform"), "{text}");
    assert!(text.contains("vs paid"), "{text}");
    assert!(text.contains("34.00 CNY"), "{text}");
    assert!(text.contains(", 2025)"), "{text}");
    assert!(text.contains("hidden fees are not included"), "{text}");
}

#[test]
fn a_bad_price_book_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("book.toml");
    std::fs::write(
        &path,
        "[[platform]]\nname = \"x\"\ncurrency = \"CNY\"\n[[platform.price]]\ngpu = \"RTX 4090\"\nplan = \"hourly\"\nprice = 1.7\nsource = \"s\"\ndate = \"2025\"\n",
    )
    .unwrap();
    let p = path.display().to_string();
    let out = run(&[
        "reprice",
        "fixtures/gpu/reprice-20h-4090.csv",
        "--prices",
        &p,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("as a string"), "{}", stderr(&out));
}

#[test]
fn bills_without_gpu_hours_or_without_prices_say_so() {
    let out = run(&[
        "reprice",
        "fixtures/gpu/ingress-free.csv",
        "fixtures/csv/hidden-share-at-5pct.csv",
        "fixtures/csv/clean-bill.csv",
        "--prices",
        "examples/platforms-2025.toml",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    // clean-bill: 400 A100 hours; the shipped book prices only the RTX 4090.
    assert!(text.contains("A100: 400 GPU-hours"), "{text}");
    assert!(
        text.contains("no platform in the price book prices these GPU models"),
        "{text}"
    );
    // hidden-share-at-5pct names an H800 but bills it per month, not per hour.
    assert!(
        text.contains("H800: 1 line(s) without a quantity in hours or days"),
        "{text}"
    );
    assert!(text.contains("no GPU-hours to reprice"), "{text}");
    // ingress-free: 100 RTX 4090 hours in USD against CNY prices, on one
    // date with no end time: the plans are sized on ceil(100 / 24) = 5
    // days, and the usage line says 5 (it said 1 while the daily plan
    // priced 5).
    assert!(
        text.contains("RTX 4090: 100 GPU-hours on 5 day(s) (1 dated; at least 100 h on one card"),
        "{text}"
    );
    assert!(text.contains("n/a (other currency)"), "{text}");
}

/// Writes `body` to a file `name` in a fresh directory.
fn bill(name: &str, body: &str) -> (tempfile::TempDir, String) {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join(name);
    std::fs::write(&p, body).unwrap();
    let s = p.display().to_string();
    (d, s)
}

fn builtin_json(args: &[&str]) -> Value {
    let mut all = vec!["reprice", "--format", "json"];
    all.extend(args);
    let out = run(&all);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_built_in_book_prices_an_h100_bill_in_usd() {
    // 48 H100 hours, paid 48 x 2.99 = 143.52 USD. The cheapest variant per
    // platform, x 48 (checked with Python's decimal):
    // RunPod Community PCIe 1.99 -> 95.52 (-48.00); Vast.ai 2.4024 ->
    // 115.3152 = 115.32 (-28.20); RunPod Secure PCIe 2.89 -> 138.72
    // (-4.80); Lambda 1x PCIe 3.29 -> 157.92 (+14.40); RunPod Serverless
    // 4.176 -> 200.448 = 200.45 (+56.93); CoreWeave 49.24/8 = 6.155 ->
    // 295.44 (+151.92); AWS 55.04/8 = 6.88 -> 330.24 (+186.72); Azure 6.98
    // -> 335.04 (+191.52); Google 10.9791 -> 526.9968 = 527.00 (+383.48).
    // The CNY platforms price no H100.
    let (_d, p) = bill(
        "h100.csv",
        "Start,End,Description,Quantity,Unit,Amount (USD)\n\
         2025-11-01 00:00:00,2025-11-03 00:00:00,H100 SXM GPU pod,48,hours,143.52\n",
    );
    let v = builtin_json(&[&p]);
    assert_eq!(v["bills"][0]["currency"], "USD");
    let got: Vec<(String, String, String)> = quotes(&v)
        .into_iter()
        .map(|(p, _, c, d)| (p, c, d))
        .collect();
    let want = [
        ("RunPod Community Cloud", "95.52", "-48.00"),
        ("Vast.ai (marketplace median)", "115.32", "-28.20"),
        ("RunPod Secure Cloud", "138.72", "-4.80"),
        ("Lambda", "157.92", "14.40"),
        ("RunPod Serverless (flex workers)", "200.45", "56.93"),
        ("CoreWeave", "295.44", "151.92"),
        ("AWS EC2 on-demand (us-east-1)", "330.24", "186.72"),
        ("Azure on-demand (eastus)", "335.04", "191.52"),
        ("Google Cloud on-demand (us-central1)", "527.00", "383.48"),
    ];
    let want: Vec<(String, String, String)> = want
        .iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect();
    assert_eq!(got, want);
    every_price_names_a_source_and_date(&v);
    // The human table prints the variant, the source and the date.
    let text = stdout(&run(&["reprice", &p]));
    assert!(
        text.contains("H100 (PCIe 80 GB) 1.99/h (https://www.runpod.io/pricing"),
        "{text}"
    );
    assert!(text.contains(", 2026-11-09)"), "{text}");
}

fn every_price_names_a_source_and_date(v: &Value) {
    let quotes = v["bills"][0]["quotes"].as_array().unwrap();
    assert!(!quotes.is_empty());
    for q in quotes {
        for m in q["models"].as_array().unwrap() {
            let source = m["source"].as_str().unwrap();
            let date = m["date"].as_str().unwrap();
            assert!(
                source.starts_with("https://") || source.starts_with("seed brief"),
                "{source}"
            );
            assert!(date.starts_with("202"), "{date}");
        }
    }
}

#[test]
fn the_built_in_book_prices_an_a100_bill_in_cny_without_converting() {
    // 100 A100 hours, paid 800.00 CNY. No stored page gave an A100 price in
    // CNY, so the USD platforms quote costs and no difference: RunPod
    // Community PCIe 1.19 x 100 = 119.00; Secure SXM 1.79 -> 179.00; Lambda
    // SXM 40 GB 1.99 -> 199.00; CoreWeave 21.60/8 = 2.70 -> 270.00;
    // Serverless 2.736 -> 273.60; AWS p4d 21.957642/8 = 2.74470525 ->
    // 274.470525 = 274.47; Azure 3.673 -> 367.30.
    let (_d, p) = bill(
        "a100.csv",
        "开始时间,结束时间,计费项,用量,用量单位,应付金额,币种\n\
         2025-10-01 00:00:00,2025-10-05 04:00:00,A100 80GB GPU 实例,100,小时,800.00,CNY\n",
    );
    let v = builtin_json(&[&p]);
    assert_eq!(v["bills"][0]["currency"], "CNY");
    let got: Vec<(String, String, String)> = quotes(&v)
        .into_iter()
        .map(|(p, _, c, d)| (p, c, d))
        .collect();
    let want: Vec<(String, String, String)> = [
        ("RunPod Community Cloud", "119.00"),
        ("RunPod Secure Cloud", "179.00"),
        ("Lambda", "199.00"),
        ("CoreWeave", "270.00"),
        ("RunPod Serverless (flex workers)", "273.60"),
        ("AWS EC2 on-demand (us-east-1)", "274.47"),
        ("Azure on-demand (eastus)", "367.30"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string(), "null".to_string()))
    .collect();
    assert_eq!(got, want);
    every_price_names_a_source_and_date(&v);
    let text = stdout(&run(&["reprice", &p]));
    assert!(text.contains("n/a (other currency)"), "{text}");
}

#[test]
fn prices_replaces_the_built_in_book_and_add_prices_extends_it() {
    let (_d, p) = bill(
        "a100.csv",
        "Description,Quantity,Unit,Amount (CNY)\nA100 GPU instance,10,hours,80.00\n",
    );
    // The seed book prices only the RTX 4090.
    let out = run(&["reprice", &p, "--prices", "examples/platforms-2025.toml"]);
    assert!(
        stdout(&out).contains("no platform in the price book prices these GPU models"),
        "{}",
        stdout(&out)
    );
    // The built-in book plus the test book: TestCloud (RTX 4090 only) adds
    // nothing for an A100, but on the 20-hour RTX 4090 run it is there next
    // to the built-in platforms: 20 x 2.00 = 40.00 CNY.
    let v = builtin_json(&[
        "fixtures/gpu/reprice-20h-4090.csv",
        "--add-prices",
        "fixtures/gpu/platforms-test.toml",
    ]);
    let names: Vec<String> = quotes(&v).into_iter().map(|q| q.0).collect();
    assert!(names.contains(&"TestCloud".to_string()), "{names:?}");
    assert!(names.contains(&"Cheapest marketplace (low end)".to_string()));
    assert!(names.contains(&"RunPod Serverless (flex workers)".to_string()));
    let test_cloud = quotes(&v).into_iter().find(|q| q.0 == "TestCloud").unwrap();
    assert_eq!(
        (test_cloud.2.as_str(), test_cloud.3.as_str()),
        ("40.00", "-10.00")
    );
    // A bad added book is a usage error.
    let out = run(&["reprice", &p, "--add-prices", "fixtures/gpu/nope.toml"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn gpu_hours_are_read_from_the_description_and_the_invoice_line() {
    // No unit column: `GPU 时长 RTX 4090` says its 120 is hours. 120 x 1.70
    // = 204.00 CNY, 204.00 - 240.00 = -36.00; the beginner platform's daily
    // plan: ceil(120 / 24) = 5 days x 68 = 340.00 (hourly 120 x 9 = 1080).
    let (_d, csv) = bill(
        "autodl.csv",
        "项目,数量,金额\nGPU 时长 RTX 4090,120,240.00\n系统盘,5,10.00\n",
    );
    let v = builtin_json(&[&csv, "--currency", "CNY"]);
    assert_eq!(v["bills"][0]["usage"][0]["hours"], "120");
    let q = quotes(&v);
    assert!(
        q.contains(&(
            "Cheapest marketplace (low end)".into(),
            "hourly".into(),
            "204.00".into(),
            "-36.00".into()
        )),
        "{q:?}"
    );
    assert!(
        q.contains(&(
            "Beginner platform".into(),
            "daily".into(),
            "340.00".into(),
            "100.00".into()
        )),
        "{q:?}"
    );
    // The usage line counts the days the daily plan pays for: 5, not 1.
    let text = stdout(&run(&["reprice", &csv, "--currency", "CNY"]));
    assert!(text.contains("120 GPU-hours on 5 day(s)"), "{text}");
    assert!(!text.contains("on 1 day(s)"), "{text}");
    assert!(!text.contains("on 0 day(s)"), "{text}");

    // A text invoice's own unit: `(hours)` in the line. 210 x 1.70 = 357.00.
    let (_d2, txt) = bill(
        "invoice.txt",
        "INVOICE\nDate: 2025-10-31\n\
         Description                         Qty    Unit price    Amount\n\
         RTX 4090 GPU instance (hours)       210    2.00          420.00\n\
         Total                                                    420.00\n",
    );
    let v = builtin_json(&[&txt, "--currency", "CNY"]);
    assert_eq!(v["bills"][0]["usage"][0]["hours"], "210");
    assert!(
        quotes(&v).contains(&(
            "Cheapest marketplace (low end)".into(),
            "hourly".into(),
            "357.00".into(),
            "-63.00".into()
        )),
        "{:?}",
        quotes(&v)
    );
}

#[test]
fn a_bill_of_unknown_currency_gets_no_difference() {
    // 20 RTX 4090 hours and no currency anywhere: the seed's 20 x 1.70 =
    // 34.00 CNY is a cost, but 34.00 - 50.00 would compare yuan with an
    // amount of unknown currency.
    let (_d, p) = bill(
        "nocur.csv",
        "Description,Quantity,Unit,Amount\nRTX 4090 GPU instance,20,hours,50.00\n",
    );
    let v = builtin_json(&[&p]);
    assert!(quotes(&v).iter().all(|q| q.3 == "null"), "{:?}", quotes(&v));
    let text = stdout(&run(&["reprice", &p]));
    assert!(text.contains("n/a (bill currency unknown)"), "{text}");
    assert!(text.contains("--currency CODE"), "{text}");
    let v = builtin_json(&[&p, "--currency", "CNY"]);
    assert!(
        quotes(&v).contains(&(
            "Cheapest marketplace (low end)".into(),
            "hourly".into(),
            "34.00".into(),
            "-16.00".into()
        )),
        "{:?}",
        quotes(&v)
    );
}
