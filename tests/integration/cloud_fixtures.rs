//! The console fixtures in `fixtures/cloud/` (hand-computed figures in its
//! README) and the containers: gzip, ZIP, split parts.

use std::io::Write;

use rust_decimal::Decimal;

use crate::common::*;
use billaudit::report::json::JsonBill;

pub(crate) fn d(s: &str) -> Decimal {
    s.parse().unwrap()
}

/// Checks the profile, currency, total and every category (unlisted = 0).
pub(crate) fn expect(
    b: &JsonBill,
    format: &str,
    currency: Option<&str>,
    total: &str,
    cats: &[(&str, &str)],
) {
    assert_eq!(b.format, format, "{}", b.path);
    assert_eq!(b.currency.as_deref(), currency, "{}", b.path);
    assert_eq!(d(&b.total), d(total), "{}: total", b.path);
    for (cat, got) in b.totals.pairs() {
        let want = cats
            .iter()
            .find(|(c, _)| *c == cat)
            .map_or(Decimal::ZERO, |(_, v)| d(v));
        assert_eq!(d(got), want, "{}: {cat}", b.path);
    }
    assert!(
        !codes(b).contains(&"line-arithmetic".to_string()),
        "{}: {:?}",
        b.path,
        b.findings
    );
}

#[test]
fn alibaba_legacy_never_sums_payment_splits() {
    let b = audit_one(&fixture("cloud/alibaba-legacy-2024-11.csv"));
    assert_eq!(b.line_items, 6);
    // No currency column or header: the rows' one symbol, 元.
    expect(
        &b,
        "alibaba",
        Some("CNY"),
        "113.16",
        &[
            ("compute", "72.00"),
            ("storage", "10.00"),
            ("storage_replica", "3.00"),
            ("bandwidth", "20.00"),
            ("scheduling", "15.36"),
            ("credit", "-7.20"),
        ],
    );
}

#[test]
fn alibaba_new_header_in_gbk() {
    let b = audit_one(&fixture("cloud/alibaba-new-2024-11.gbk.csv"));
    assert_eq!(b.line_items, 5);
    expect(
        &b,
        "alibaba",
        Some("CNY"),
        "191.50",
        &[
            ("compute", "160.00"),
            ("storage", "6.00"),
            ("storage_replica", "7.50"),
            ("bandwidth", "6.00"),
            ("scheduling", "12.00"),
        ],
    );
}

#[test]
fn tencent_inside_a_zip() {
    let (r, out) = audit_json(&["fixtures/cloud/tencent-2024-11.zip"]);
    assert!(r.errors.is_empty(), "{}", stderr(&out));
    assert_eq!(r.bills.len(), 1);
    let b = &r.bills[0];
    assert!(
        b.path.ends_with("tencent-2024-11.zip!tencent-2024-11.csv"),
        "{}",
        b.path
    );
    assert_eq!(b.line_items, 6);
    expect(
        b,
        "tencent",
        Some("CNY"),
        "179.40",
        &[
            ("compute", "96.00"),
            ("storage", "35.00"),
            ("storage_replica", "10.00"),
            ("bandwidth", "24.00"),
            ("scheduling", "24.00"),
            ("credit", "-9.60"),
        ],
    );
}

#[test]
fn huawei_parts_are_one_bill() {
    let (r, out) = audit_json(&[
        "fixtures/cloud/huawei-2024-11_2.csv",
        "fixtures/cloud/huawei-2024-11_1.csv",
    ]);
    assert!(r.errors.is_empty(), "{}", stderr(&out));
    assert_eq!(
        r.bills.len(),
        1,
        "{:?}",
        r.bills.iter().map(|b| &b.path).collect::<Vec<_>>()
    );
    let b = &r.bills[0];
    assert_eq!(
        b.path,
        "fixtures/cloud/huawei-2024-11_1.csv + huawei-2024-11_2.csv"
    );
    assert_eq!(b.line_items, 6);
    expect(
        b,
        "huawei",
        Some("CNY"),
        "79.50",
        &[
            ("compute", "54.00"),
            ("storage", "14.00"),
            ("storage_replica", "5.00"),
            ("bandwidth", "8.00"),
            ("scheduling", "12.00"),
            ("credit", "-13.50"),
        ],
    );

    let (r, _) = audit_json(&[
        "--no-merge",
        "fixtures/cloud/huawei-2024-11_1.csv",
        "fixtures/cloud/huawei-2024-11_2.csv",
    ]);
    assert_eq!(r.bills.len(), 2);
    expect(
        &r.bills[0],
        "huawei",
        Some("CNY"),
        "76.00",
        &[
            ("compute", "54.00"),
            ("storage", "14.00"),
            ("bandwidth", "8.00"),
        ],
    );
    expect(
        &r.bills[1],
        "huawei",
        Some("CNY"),
        "3.50",
        &[
            ("storage_replica", "5.00"),
            ("scheduling", "12.00"),
            ("credit", "-13.50"),
        ],
    );
}

#[test]
fn parts_with_another_header_stay_apart() {
    let tmp = tempfile::tempdir().unwrap();
    let one = std::fs::read(fixture("cloud/huawei-2024-11_1.csv")).unwrap();
    std::fs::write(tmp.path().join("bill_1.csv"), &one).unwrap();
    std::fs::write(
        tmp.path().join("bill_2.csv"),
        "Description,Amount\nGPU hours,10.00\n",
    )
    .unwrap();
    let (r, out) = audit_json(&[tmp.path().to_str().unwrap()]);
    assert!(r.errors.is_empty(), "{}", stderr(&out));
    let formats: Vec<&str> = r.bills.iter().map(|b| b.format.as_str()).collect();
    assert_eq!(formats, ["huawei", "generic-csv"]);
}

#[test]
fn aws_cur2_line_item_types() {
    let b = audit_one(&fixture("cloud/aws-cur2-2024-11.csv"));
    expect(
        &b,
        "aws-cur2",
        Some("USD"),
        "15.765",
        &[
            ("compute", "10.06"),
            ("bandwidth", "4.805"),
            ("storage_replica", "2.50"),
            ("scheduling", "2.40"),
            ("other", "0.30"),
            ("tax", "1.20"),
            ("credit", "-5.50"),
        ],
    );
}

#[test]
fn multi_member_gzip_is_one_stream() {
    use flate2::{Compression, write::GzEncoder};
    let text = std::fs::read_to_string(fixture("cloud/aws-cur2-2024-11.csv")).unwrap();
    let (head, tail) = text.split_at(text.len() / 2);
    let mut bytes = Vec::new();
    for part in [head, tail] {
        let mut gz = GzEncoder::new(Vec::new(), Compression::default());
        gz.write_all(part.as_bytes()).unwrap();
        bytes.extend(gz.finish().unwrap());
    }
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("cur2.csv.gz");
    std::fs::write(&path, bytes).unwrap();
    let b = audit_one(&path);
    assert_eq!(b.format, "aws-cur2");
    assert_eq!(b.line_items, 10);
    assert_eq!(d(&b.total), d("15.765"));
    // The directory walk picks up `.csv.gz` and `.zip`.
    let (r, _) = audit_json(&[tmp.path().to_str().unwrap()]);
    assert_eq!(r.bills.len(), 1);
}

#[test]
fn zip_entries_with_path_tricks_are_refused() {
    use zip::write::{SimpleFileOptions, ZipWriter};
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("bills.zip");
    let mut z = ZipWriter::new(std::fs::File::create(&path).unwrap());
    let opts = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let cur2 = std::fs::read(fixture("cloud/aws-cur2-2024-11.csv")).unwrap();
    z.start_file("ok/cur2.csv", opts).unwrap();
    z.write_all(&cur2).unwrap();
    z.start_file("../evil.csv", opts).unwrap();
    z.write_all(b"Description,Amount\nx,1\n").unwrap();
    z.start_file("readme.md", opts).unwrap();
    z.write_all(b"not a bill").unwrap();
    z.finish().unwrap();

    let (r, out) = audit_json(&[path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    // The good entry is still audited; the crafted one is reported.
    assert_eq!(r.bills.len(), 1);
    assert!(r.bills[0].path.ends_with("bills.zip!ok/cur2.csv"));
    assert_eq!(d(&r.bills[0].total), d("15.765"));
    let err = stderr(&out);
    assert!(
        err.contains("../evil.csv") && err.contains("refused"),
        "{err}"
    );
    assert!(!tmp.path().parent().unwrap().join("evil.csv").exists());
}

#[test]
fn profiles_subcommand_and_forced_profile() {
    let out = run(&["profiles"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    for line in [
        "focus        cost: BilledCost (--cost effective, --cost list, --cost contracted)",
        "aws-cur      cost: lineItem/UnblendedCost",
        "aws-cur2     cost: line_item_unblended_cost",
        "azure        cost: CostInBillingCurrency (or PreTaxCost, Cost)",
        "gcp          cost: cost",
        "oci          cost: cost/myCost",
        "alibaba      cost: 应付金额",
        "tencent      cost: 优惠后总价",
        "huawei       cost: 应付金额(¥)",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    // Forcing the generic profile reads the Alibaba export without its rules.
    let (r, _) = audit_json(&[
        "--profile",
        "generic-csv",
        "fixtures/cloud/alibaba-legacy-2024-11.csv",
    ]);
    assert_eq!(r.bills[0].format, "generic-csv");
    assert_eq!(d(&r.bills[0].total), d("113.16"));
    // Forcing a profile whose cost column is absent names it.
    let out = run(&[
        "audit",
        "--profile",
        "tencent",
        "fixtures/cloud/aws-cur2-2024-11.csv",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("优惠后总价"), "{}", stderr(&out));
    let out = run(&[
        "audit",
        "--profile",
        "nope",
        "fixtures/cloud/aws-cur2-2024-11.csv",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown profile `nope`"));
}

#[test]
fn azure_camel_case_and_localised_headers() {
    let tmp = tempfile::tempdir().unwrap();
    // MCA: camelCase. Redundant storage classes are replicas, LRS is storage.
    let mca = tmp.path().join("mca.csv");
    std::fs::write(
        &mca,
        "date,meterCategory,meterSubCategory,meterName,quantity,unitOfMeasure,effectivePrice,costInBillingCurrency,billingCurrency,chargeType\n\
         11/01/2024,Storage,Tiered Block Blob,Hot GRS Data Stored,100,1 GB/Month,0.0416,4.16,EUR,Usage\n\
         11/01/2024,Storage,Tiered Block Blob,Hot LRS Data Stored,100,1 GB/Month,0.0208,2.08,EUR,Usage\n\
         11/01/2024,Storage,Files v2,RA-GRS Data Stored,10,1 GB/Month,0.1,1.00,EUR,Usage\n\
         11/01/2024,Virtual Machines,NCasT4_v3 Series,NC4as T4 v3,10,1 Hour,0.526,5.26,EUR,Usage\n\
         11/01/2024,Virtual Machines,NCasT4_v3 Series,NC4as T4 v3,,1 Hour,,-1.00,EUR,Refund\n",
    )
    .unwrap();
    let b = audit_one(&mca);
    expect(
        &b,
        "azure",
        Some("EUR"),
        "11.50",
        &[
            ("storage_replica", "5.16"),
            ("storage", "2.08"),
            ("compute", "5.26"),
            ("credit", "-1.00"),
        ],
    );
    // A German export names the English column in parentheses.
    let de = tmp.path().join("de.csv");
    std::fs::write(
        &de,
        "Datum (Date),Kategorie der Verbrauchseinheit (MeterCategory),Unterkategorie der Verbrauchseinheit (MeterSubCategory),Name der Verbrauchseinheit (MeterName),Menge (Quantity),Kosten (CostInBillingCurrency),Abrechnungswährung (BillingCurrencyCode)\n\
         01.11.2024,Bandwidth,Inter-Region,Intra Continent Data Transfer Out,12.5,0.25,EUR\n",
    )
    .unwrap();
    let b = audit_one(&de);
    expect(&b, "azure", Some("EUR"), "0.25", &[("bandwidth", "0.25")]);
}

#[test]
fn focus_1_2_extension_columns_and_markers() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("focus12.csv");
    std::fs::write(
        &path,
        "BilledCost,EffectiveCost,ListCost,ContractedCost,BillingCurrency,ChargeCategory,ChargeDescription,ServiceCategory,ServiceSubcategory,ServiceName,SkuMeter,x_UsageType\n\
         0.45,0.45,0.45,0.45,USD,Usage,Hourly charge,Compute,Other (Compute),Amazon Elastic Compute Cloud,,USE1-NatGateway-Hours\n\
         3.00,2.00,4.00,3.50,USD,Usage,g5.xlarge,Compute,Virtual Machines,Amazon Elastic Compute Cloud,Compute Usage,USE1-BoxUsage:g5.xlarge\n\
         0.25,0.25,0.25,0.25,USD,Tax,Data transfer tax,Networking,,AWS Data Transfer,NULL,NULL\n\
         -1.00,-1.00,NULL,NULL,USD,Credit,Snapshot credit,Storage,,Amazon Elastic Compute Cloud,NULL,NULL\n",
    )
    .unwrap();
    let b = audit_one(&path);
    expect(
        &b,
        "focus",
        Some("USD"),
        "2.70",
        &[
            ("bandwidth", "0.45"),
            ("compute", "3.00"),
            ("tax", "0.25"),
            ("credit", "-1.00"),
        ],
    );
    let p = path.to_str().unwrap();
    for (cost, total) in [
        ("effective", "1.70"),
        ("list", "4.70"),
        ("contracted", "4.20"),
    ] {
        let (r, out) = audit_json(&["--cost", cost, p]);
        assert!(r.errors.is_empty(), "{}", stderr(&out));
        assert_eq!(d(&r.bills[0].total), d(total), "--cost {cost}");
    }
}

/// FOCUS 1.2 rows of known kinds of service (shaped like focus-data-toolkit's):
/// each lands by a named rule, none is unclassified. Hand sums in the fixture's
/// `.expect.toml` and in fixtures/cloud/README.md.
#[test]
fn focus_1_2_known_services_are_not_unclassified() {
    let path = fixture("cloud/focus-1.2-service-categories.csv");
    let b = audit_one(&path);
    expect(
        &b,
        "focus",
        Some("USD"),
        // 82.50 + 20.00 + 2.00 + 30.00 + 89.95 + 0.88 tax
        "225.33",
        &[
            // 50.00 m6i.large + 12.50 db.r6g.large + 20.00 4 vCore
            ("compute", "82.50"),
            ("storage", "20.00"),
            // RDS automated backup storage
            ("storage_replica", "2.00"),
            // VPC, ServiceSubcategory Network Connectivity
            ("bandwidth", "30.00"),
            // 3.75 + 40.00 + 8.80 + 15.00 + 1.20 + 4.00 + 0.40 + 9.00 + 1.50 + 6.30
            ("other", "89.95"),
            ("tax", "0.88"),
        ],
    );
    assert!(
        !codes(&b).contains(&"unclassified-items".to_string()),
        "{:?}",
        b.findings
    );
    // The rule of each data line (line 2 is the first), written by hand.
    let want = [
        // `Compute` by name: a workload kind, after the disks (issue 26)
        "builtin:compute-workload",
        "builtin:storage",
        "builtin:compute",
        "builtin:replica",
        "builtin:service-databases",
        "builtin:compute",
        "builtin:service-databases",
        "builtin:service-analytics",
        "builtin:service-management",
        "builtin:service-management",
        "builtin:service-security",
        "builtin:service-integration",
        "builtin:service-web",
        "builtin:service-developer-tools",
        "builtin:service-ai-ml",
        "builtin:bandwidth",
        "profile:focus-charge-category",
    ];
    let out = run(&["lines", "--format", "csv", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut r = csv::Reader::from_reader(out.stdout.as_slice());
    let rule = r
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == "rule")
        .unwrap();
    let got: Vec<String> = r.records().map(|x| x.unwrap()[rule].to_string()).collect();
    assert_eq!(got, want);
}

#[test]
fn gcp_cost_types() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("gcp.csv");
    std::fs::write(
        &path,
        "service.description,sku.description,cost,currency,credits,cost_type\n\
         Compute Engine,N1 Predefined Instance Core running in Americas,10.00,USD,\"[{\"\"name\"\":\"\"SUD\"\",\"\"amount\"\":-1.50},{\"\"name\"\":\"\"Free tier\"\",\"\"amount\"\":-0.50}]\",regular\n\
         Compute Engine,Network Inter Zone Egress,2.00,USD,[],regular\n\
         Invoice,Tax,1.20,USD,[],tax\n\
         Invoice,Billing adjustment,-0.80,USD,[],adjustment\n\
         Invoice,Rounding,0.01,USD,[],rounding_error\n",
    )
    .unwrap();
    let b = audit_one(&path);
    assert_eq!(b.line_items, 7);
    expect(
        &b,
        "gcp",
        Some("USD"),
        "10.41",
        &[
            ("compute", "10.00"),
            ("bandwidth", "2.00"),
            ("tax", "1.20"),
            ("credit", "-2.80"),
            ("other", "0.01"),
        ],
    );
}

#[test]
fn the_fixture_folder_is_walked_with_its_containers() {
    let (r, out) = audit_json(&["fixtures/cloud"]);
    assert!(r.errors.is_empty(), "{}", stderr(&out));
    let mut got: Vec<(String, String)> = r
        .bills
        .iter()
        .map(|b| (b.path.replace('\\', "/"), b.format.clone()))
        .collect();
    got.sort();
    let want = [
        ("fixtures/cloud/alibaba-legacy-2024-11.csv", "alibaba"),
        ("fixtures/cloud/alibaba-new-2024-11.gbk.csv", "alibaba"),
        ("fixtures/cloud/aws-cur2-2024-11.csv", "aws-cur2"),
        (
            "fixtures/cloud/azure-lowercase-no-currency-2024-11.csv",
            "azure",
        ),
        ("fixtures/cloud/focus-1.2-service-categories.csv", "focus"),
        (
            "fixtures/cloud/huawei-2024-11_1.csv + huawei-2024-11_2.csv",
            "huawei",
        ),
        (
            "fixtures/cloud/tencent-2024-11.zip!tencent-2024-11.csv",
            "tencent",
        ),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(p, f)| (p.to_string(), f.to_string()))
        .collect();
    assert_eq!(got, want);
}
