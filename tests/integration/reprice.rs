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
    // ingress-free: 100 RTX 4090 hours in USD against CNY prices.
    assert!(
        text.contains("RTX 4090: 100 GPU-hours on 1 day(s)"),
        "{text}"
    );
    assert!(text.contains("n/a (other currency)"), "{text}");
}
