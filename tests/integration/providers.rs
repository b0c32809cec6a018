//! Provider profiles added for issue 26 item 2 (`src/normalise/profiles/`):
//! each fixture in `fixtures/providers/` is written in the provider's real
//! column set (sources in docs/formats.md), and every figure below is hand
//! arithmetic on its rows, written beside it. (The `.expect.toml` beside
//! each fixture is checked again by scripts/oracle_fixtures.py, Python
//! `decimal`.)

use rust_decimal::Decimal;

// `expect` checks the profile, the currency, the total and every category
// (an unlisted category is 0), and that no line-arithmetic finding is made.
use crate::cloud_fixtures::{d, expect};
use crate::common::*;

/// The sum of one money column over every data row of a CSV whose cells
/// hold no comma (what "summing every row" would give), by Python-free
/// decimal addition in the test.
fn sum_every_row(path: &std::path::Path, column: &str) -> Decimal {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = split(lines.next().unwrap());
    let i = header.iter().position(|h| h == column).unwrap();
    lines
        .map(split)
        .filter_map(|cells| cells.get(i).and_then(|c| c.parse::<Decimal>().ok()))
        .sum()
}

/// A quoted CSV line split on `","` (the fixtures quote every cell and
/// their descriptions hold no `","`).
fn split(line: &str) -> Vec<String> {
    let inner = line.strip_prefix('"').unwrap_or(line);
    inner
        .strip_suffix('"')
        .unwrap_or(inner)
        .split("\",\"")
        .map(str::to_string)
        .collect()
}

// ------------------------------------------------------------ AWS legacy

/// Regression (issue 26): a Detailed Billing Report was refused on main with
/// "no header row found" (exit 2). Its `RecordType` rows are now read as
/// data: the 7 `LinkedLineItem` charges and the `Rounding` row are counted
/// once; `InvoiceTotal` and both `AccountTotal` rows are set aside; the
/// `StatementTotal` is checked against the items.
#[test]
fn aws_dbr_counts_each_charge_once_and_checks_the_statement_total() {
    let path = fixture("providers/aws-dbr-consolidated-2015-03.csv");
    let b = audit_one(&path);
    // UnBlendedCost, lines 2-9:
    //   compute   0.90 + 0.90 (p2.xlarge, 2 h) + 7.488 (t3.micro)   =  9.288
    //   storage   10.00 (gp2 volume)
    //   replica   2.00 (EBS snapshot)
    //   bandwidth 4.50 (data transfer out)
    //   other     18.00 (load balancer) + 0.002 (Rounding)          = 18.002
    //   total     9.288 + 10 + 2 + 4.5 + 18.002                     = 43.790
    expect(
        &b,
        "aws-dbr",
        Some("USD"), // no currency column: the `$` of the rows' descriptions
        "43.79",
        &[
            ("compute", "9.288"),
            ("storage", "10.00"),
            ("storage_replica", "2.00"),
            ("bandwidth", "4.50"),
            ("other", "18.002"),
        ],
    );
    assert_eq!(b.line_items, 8);
    // InvoiceTotal, 2 x AccountTotal, StatementTotal.
    assert_eq!(b.skipped.summary, 4);
    // The StatementTotal row states 43.79 = the items: no total-mismatch.
    assert_eq!(b.stated_total.as_deref().map(d), Some(d("43.79")));
    assert!(!codes(&b).contains(&"total-mismatch".to_string()));
    // Summing every row would count the money several times:
    // 43.79 (items) + 43.79 (InvoiceTotal) + 18.30 + 25.488 (AccountTotals)
    // + 43.79 (StatementTotal) = 175.158.
    assert_eq!(sum_every_row(&path, "UnBlendedCost"), d("175.158"));
    // Blended costs are an allocation, never the amount: BlendedCost of
    // lines 2-9 is 0.75 + 0.75 + 10 + 2 + 4.5 + 18 + 7.488 + 0.002 = 43.49.
    assert_ne!(d(&b.total), d("43.49"));
}

/// The statement total is a checked figure: a DBR whose `StatementTotal`
/// disagrees with its items fails with `total-mismatch`.
#[test]
fn aws_dbr_statement_total_that_disagrees_is_a_total_mismatch() {
    let text = std::fs::read_to_string(fixture("providers/aws-dbr-consolidated-2015-03.csv"))
        .unwrap()
        // The StatementTotal row's UnBlendedCost: 43.79 -> 53.79.
        .replace(
            "\"43.49000000\",\"\",\"43.79000000\"",
            "\"43.49000000\",\"\",\"53.79000000\"",
        );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dbr-2015-03.csv");
    std::fs::write(&path, text).unwrap();
    let b = audit_one(&path);
    // The items are unchanged (43.79); 53.79 is stated.
    assert_eq!(d(&b.total), d("43.79"));
    assert_eq!(b.stated_total.as_deref().map(d), Some(d("53.79")));
    assert!(
        codes(&b).contains(&"total-mismatch".to_string()),
        "{:?}",
        b.findings
    );
    assert!(!b.passed);
}

/// A single-account DBR has `Cost` and `Rate` in place of the (un)blended
/// pairs (awslabs/aws-detailed-billing-parser, parser.py) and `LineItem`
/// rows: read the same way.
#[test]
fn aws_dbr_single_account_reads_cost() {
    let csv = "\"InvoiceID\",\"PayerAccountId\",\"LinkedAccountId\",\"RecordType\",\"RecordId\",\"ProductName\",\"RateId\",\"SubscriptionId\",\"PricingPlanId\",\"UsageType\",\"Operation\",\"AvailabilityZone\",\"ReservedInstance\",\"ItemDescription\",\"UsageStartDate\",\"UsageEndDate\",\"UsageQuantity\",\"Rate\",\"Cost\"\n\
\"1\",\"123456789012\",\"\",\"LineItem\",\"9001\",\"Amazon Elastic Compute Cloud\",\"1\",\"2\",\"3\",\"BoxUsage:g2.2xlarge\",\"RunInstances\",\"us-east-1a\",\"N\",\"$0.65 per On Demand Linux g2.2xlarge Instance Hour\",\"2015-03-01 00:00:00\",\"2015-03-01 01:00:00\",\"2\",\"0.65\",\"1.30\"\n\
\"1\",\"123456789012\",\"\",\"LineItem\",\"9002\",\"Amazon Simple Storage Service\",\"4\",\"5\",\"6\",\"TimedStorage-ByteHrs\",\"StandardStorage\",\"\",\"N\",\"$0.030 per GB - first 1 TB / month of storage used\",\"2015-03-01 00:00:00\",\"2015-03-01 01:00:00\",\"10\",\"0.03\",\"0.30\"\n\
\"1\",\"123456789012\",\"\",\"StatementTotal\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"Total statement amount for period 2015-03-01 00:00:00 - 2015-03-31 23:59:59\",\"\",\"\",\"\",\"\",\"1.60\"\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir
        .path()
        .join("123456789012-aws-billing-detailed-line-items-2015-03.csv");
    std::fs::write(&path, csv).unwrap();
    let b = audit_one(&path);
    // 1.30 (GPU instance hours) + 0.30 (S3 storage) = 1.60, as stated.
    expect(
        &b,
        "aws-dbr",
        Some("USD"), // no currency column: the `$` of the rows' descriptions
        "1.60",
        &[("compute", "1.30"), ("storage", "0.30")],
    );
    assert_eq!(b.stated_total.as_deref().map(d), Some(d("1.60")));
    assert_eq!(b.skipped.summary, 1);
}

/// The monthly report of a consolidated bill: the payer's `PayerLineItem`
/// rows are the bill; each linked account's `LinkedLineItem` rows restate
/// them per account, and the `AccountTotal`, `InvoiceTotal` rows restate
/// the totals; `StatementTotal` is checked. `TotalCost` (= `CostBeforeTax`
/// + `Credits` + `TaxAmount`) is the amount.
#[test]
fn aws_monthly_report_counts_the_payer_rows_once() {
    let path = fixture("providers/aws-monthly-consolidated-2015-03.csv");
    let b = audit_one(&path);
    // TotalCost of the PayerLineItem rows (lines 2-5):
    //   compute   100.20 - (-5.00) (the credit inside the row) = 105.20,
    //             its CostBeforeTax; credit -5.00 (its Credits)
    //   storage   30.00; replica 6.00; bandwidth 13.50
    //   total     105.20 - 5.00 + 30 + 6 + 13.50 = 149.70
    //             = 100.20 + 30 + 6 + 13.50, as before the credit's item
    // The linked rows agree: ml-research 58.12 + 20 + 6 + 9 = 93.12 and
    // web-prod 42.08 + 10 + 4.50 = 56.58; 93.12 + 56.58 = 149.70.
    expect(
        &b,
        "aws-monthly",
        Some("USD"),
        "149.70",
        &[
            ("compute", "105.20"),
            ("storage", "30.00"),
            ("storage_replica", "6.00"),
            ("bandwidth", "13.50"),
            ("credit", "-5.00"),
        ],
    );
    // 4 charges and the GPU row's credit.
    assert_eq!(b.line_items, 5);
    // 7 LinkedLineItem + 2 AccountTotal + InvoiceTotal + StatementTotal.
    assert_eq!(b.skipped.summary, 11);
    assert_eq!(b.stated_total.as_deref().map(d), Some(d("149.70")));
    assert!(!codes(&b).contains(&"total-mismatch".to_string()));
    // Every row summed: 149.70 x 5 (payer, linked, account totals,
    // invoice total, statement total) = 748.50.
    assert_eq!(sum_every_row(&path, "TotalCost"), d("748.50"));
}

/// The monthly report's 29 columns.
const MONTHLY_HEADER: &str = "InvoiceID,PayerAccountId,LinkedAccountId,RecordType,RecordID,\
BillingPeriodStartDate,BillingPeriodEndDate,InvoiceDate,PayerAccountName,LinkedAccountName,\
TaxationAddress,PayerPONumber,ProductCode,ProductName,SellerOfRecord,UsageType,Operation,\
RateId,ItemDescription,UsageStartDate,UsageEndDate,UsageQuantity,BlendedRate,CurrencyCode,\
CostBeforeTax,Credits,TaxAmount,TaxType,TotalCost";

/// One row in the report's 29 columns; `money` is its last five cells
/// (`CostBeforeTax`, `Credits`, `TaxAmount`, `TaxType`, `TotalCost`).
fn monthly_row(
    kind: &str,
    linked: &str,
    product: &str,
    usage: &str,
    desc: &str,
    money: &str,
) -> String {
    format!(
        "\"9001\",\"123456789012\",\"{linked}\",\"{kind}\",\"1\",\"2025/03/01 00:00:00\",\
\"2025/03/31 23:59:59\",\"2025/04/02 08:00:00\",\"Exemple SAS\",\"\",\"1 rue X, Paris, FR\",\"\",\
\"{product}\",\"\",\"Amazon Web Services EMEA SARL\",\"{usage}\",\"\",\"1\",\"{desc}\",\
\"2025/03/01 00:00:00\",\"2025/03/31 23:59:59\",\"1\",\"\",\"USD\",{money}\n"
    )
}

/// A consolidated monthly report of three charges (a GPU instance, a gp2
/// volume, data transfer out), `money` the last five cells of each: the
/// payer's rows, one linked account's rows restating them, and an invoice
/// and a statement total of `total`.
fn monthly_bill(money: [&str; 3], total: &str) -> String {
    let charges = [
        (
            "AmazonEC2",
            "BoxUsage:g4dn.xlarge",
            "$0.526 per On Demand Linux g4dn.xlarge Instance Hour",
        ),
        (
            "AmazonEC2",
            "EBS:VolumeUsage.gp2",
            "$0.10 per GB-month of General Purpose SSD (gp2) provisioned storage",
        ),
        (
            "AWSDataTransfer",
            "DataTransfer-Out-Bytes",
            "$0.09 per GB - first 10 TB / month data transfer out",
        ),
    ];
    let mut csv = format!("{MONTHLY_HEADER}\n");
    for (kind, linked) in [("PayerLineItem", ""), ("LinkedLineItem", "111111111111")] {
        for ((product, usage, desc), money) in charges.iter().zip(money) {
            csv += &monthly_row(kind, linked, product, usage, desc, money);
        }
    }
    let (invoice, statement) = ("Total amount for invoice", "Total statement amount");
    csv += &monthly_row("InvoiceTotal", "", "", "", invoice, total);
    csv += &monthly_row("StatementTotal", "", "", "", statement, total);
    csv
}

/// [`monthly_bill`] written under a monthly report's file name and audited.
fn audit_monthly(money: [&str; 3], total: &str) -> billaudit::report::json::JsonBill {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("123456789012-aws-billing-csv-2025-03.csv");
    std::fs::write(&path, monthly_bill(money, total)).unwrap();
    audit_one(&path)
}

/// A monthly report with VAT (a payer taxed in France): each row's
/// `TaxAmount` is inside its `TotalCost`. Before, the tax stayed in each
/// charge's category (compute 120.24, tax 0) and the hidden share was of
/// the charges with their tax. (The GPU row's credit is its own item too:
/// `aws_monthly_report_gives_the_credits_their_own_category`.)
#[test]
fn aws_monthly_report_gives_the_tax_amount_its_own_category() {
    // CostBeforeTax, Credits, TaxAmount (20% of before tax + credits),
    // TaxType, TotalCost.
    let b = audit_monthly(
        [
            "\"105.20\",\"-5.00\",\"20.04\",\"VAT\",\"120.24\"",
            "\"30.00\",\"0.00\",\"6.00\",\"VAT\",\"36.00\"",
            "\"13.50\",\"0.00\",\"2.70\",\"VAT\",\"16.20\"",
        ],
        "\"148.70\",\"-5.00\",\"28.74\",\"\",\"172.44\"",
    );
    // The payer rows, their tax (and credit) taken out of TotalCost:
    //   compute   120.24 - 20.04 - (-5.00) = 105.20; credit -5.00
    //   storage   36.00 - 6.00 = 30.00; bandwidth 16.20 - 2.70 = 13.50
    //   tax       20.04 + 6.00 + 2.70 = 28.74
    //   total     105.20 - 5.00 + 30.00 + 13.50 + 28.74 = 172.44
    //             = 120.24 + 36.00 + 16.20, the TotalCost column's sum.
    expect(
        &b,
        "aws-monthly",
        Some("USD"),
        "172.44",
        &[
            ("compute", "105.20"),
            ("storage", "30.00"),
            ("bandwidth", "13.50"),
            ("credit", "-5.00"),
            ("tax", "28.74"),
        ],
    );
    // Subtotal 105.20 + 30.00 + 13.50 = 148.70, before tax and credits.
    assert_eq!(d(&b.subtotal), d("148.70"));
    // 3 charges, their 3 taxes and the GPU row's credit; 3 linked rows,
    // the invoice and the statement total skipped.
    assert_eq!(b.line_items, 7);
    assert_eq!(b.skipped.summary, 5);
    assert_eq!(b.stated_total.as_deref().map(d), Some(d("172.44")));
    assert!(!codes(&b).contains(&"total-mismatch".to_string()));
}

/// A monthly report whose rows carry credits (`Credits`, negative, inside
/// `TotalCost` = `CostBeforeTax` + `Credits` + `TaxAmount`). Before, each
/// credit was netted into its charge: compute 100.20, storage 20.00,
/// credit 0.
#[test]
fn aws_monthly_report_gives_the_credits_their_own_category() {
    // CostBeforeTax, Credits, TaxAmount (20% of before tax + credits),
    // TaxType, TotalCost; each row's TotalCost checked by hand:
    //   GPU       105.20 - 5.00 + 20.04 = 120.24 (20.04 = 20% of 100.20)
    //   gp2       30.00 - 10.00 + 4.00 = 24.00 (4.00 = 20% of 20.00)
    //   transfer  13.50 + 0 + 2.70 = 16.20 (2.70 = 20% of 13.50)
    // Totals: 148.70 - 15.00 + 26.74 = 160.44 = 120.24 + 24.00 + 16.20.
    let b = audit_monthly(
        [
            "\"105.20\",\"-5.00\",\"20.04\",\"VAT\",\"120.24\"",
            "\"30.00\",\"-10.00\",\"4.00\",\"VAT\",\"24.00\"",
            "\"13.50\",\"0.00\",\"2.70\",\"VAT\",\"16.20\"",
        ],
        "\"148.70\",\"-15.00\",\"26.74\",\"\",\"160.44\"",
    );
    // The payer rows, their tax and credit taken out of TotalCost:
    //   compute   120.24 - 20.04 - (-5.00) = 105.20, its CostBeforeTax
    //   storage   24.00 - 4.00 - (-10.00) = 30.00
    //   bandwidth 16.20 - 2.70 - 0 = 13.50
    //   credit    -5.00 + -10.00 = -15.00
    //   tax       20.04 + 4.00 + 2.70 = 26.74
    //   total     105.20 + 30.00 + 13.50 - 15.00 + 26.74 = 160.44, the
    //             TotalCost column's sum as before the change.
    expect(
        &b,
        "aws-monthly",
        Some("USD"),
        "160.44",
        &[
            ("compute", "105.20"),
            ("storage", "30.00"),
            ("bandwidth", "13.50"),
            ("credit", "-15.00"),
            ("tax", "26.74"),
        ],
    );
    // Subtotal 105.20 + 30.00 + 13.50 = 148.70, the CostBeforeTax sum.
    assert_eq!(d(&b.subtotal), d("148.70"));
    // 3 charges, their 3 taxes and 2 credits (the transfer's is 0: no
    // item); 3 linked rows, the invoice and the statement total skipped.
    assert_eq!(b.line_items, 8);
    assert_eq!(b.skipped.summary, 5);
    assert_eq!(b.stated_total.as_deref().map(d), Some(d("160.44")));
    assert!(!codes(&b).contains(&"total-mismatch".to_string()));
}

// ------------------------------------------------------- hosting clouds

/// DigitalOcean's invoice CSV was refused on main ("no header row found":
/// its amount column is named `USD`). The product column decides what a
/// row is: the Backups row names its Droplet (`web-01 (s-2vcpu-4gb)`) and
/// is a replica, not compute.
#[test]
fn digitalocean_invoice_csv_by_product() {
    let b = audit_one(&fixture("providers/digitalocean-invoice-2025-10.csv"));
    // compute   403.20 (H100 GPU Droplet, 120 h) + 24.00 (web-01)  = 427.20
    // storage   50.00 (volume); replica 7.20 (snapshot) + 4.80 (backups) = 12.00
    // bandwidth 1.20; other 12.00 (load balancer); tax 31.40
    // subtotal  427.20 + 50 + 12 + 1.20 + 12 = 502.40;
    //           tax 6.25% x 502.40 = 31.40; total 533.80
    // The amount column is headed `USD`: the bill is in US dollars
    // (on the branch before the currency fix: unknown, `None`).
    expect(
        &b,
        "digitalocean",
        Some("USD"),
        "533.80",
        &[
            ("compute", "427.20"),
            ("storage", "50.00"),
            ("storage_replica", "12.00"),
            ("bandwidth", "1.20"),
            ("other", "12.00"),
            ("tax", "31.40"),
        ],
    );
    assert_eq!(b.line_items, 8);
}

/// Linode invoice items: `total` (after tax) is the amount, not `amount`
/// (before it). On main the generic profile summed `amount` (263.25) and
/// classified every row by its `type` (`hourly`) as `other`.
#[test]
fn linode_invoice_items_sum_the_total_after_tax() {
    let b = audit_one(&fixture("providers/linode-invoice-items-2025-10.csv"));
    // `amount` (before tax) per category, `tax` its own:
    // compute 180.00 (RTX6000 GPU) + 48.00 (Linode 8GB) = 228.00;
    // tax 4.08 (the Linode 8GB's `tax`); storage 20.00, backups 5.00,
    // NodeBalancer 10.00, transfer overage 0.25;
    // total 228.00 + 4.08 + 20.00 + 5.00 + 10.00 + 0.25 = 267.33, the sum of
    // the `total` column (180.00 + 52.08 + 20.00 + 5.00 + 10.00 + 0.25).
    // Before the tax column was read: compute 232.08, tax 0.
    expect(
        &b,
        "linode",
        None,
        "267.33",
        &[
            ("compute", "228.00"),
            ("tax", "4.08"),
            ("storage", "20.00"),
            ("storage_replica", "5.00"),
            ("bandwidth", "0.25"),
            ("other", "10.00"),
        ],
    );
    // (20.00 + 5.00) / 20.00 = 1.25 > 1.2.
    assert!(codes(&b).contains(&"replica-redundancy".to_string()));
}

/// Vast.ai charges: quantity x rate = amount on every row, so no
/// line-arithmetic finding; the instance id is the resource.
#[test]
fn vastai_charges_read_with_their_rate() {
    let b = audit_one(&fixture("providers/vastai-charges-2025-11.csv"));
    // compute 20 h x 0.40 = 8.000, 5.5 h x 1.20 = 6.600 -> 14.600
    // storage 50 x 0.015 = 0.750, 100 x 0.015 = 1.500   ->  2.250
    expect(
        &b,
        "vastai",
        Some("USD"), // no currency column: the `$` of the rows' descriptions
        "16.850",
        &[("compute", "14.600"), ("storage", "2.250")],
    );
    assert!(codes(&b).is_empty(), "{:?}", b.findings);
}

/// Vultr invoice items: `total` is the amount, a `discount` unit type is a
/// credit. (The generic profile already read this layout to the same
/// total; the profile names the format and keeps its columns fixed.)
#[test]
fn vultr_invoice_items_with_a_discount() {
    let b = audit_one(&fixture("providers/vultr-invoice-items-2025-10.csv"));
    // compute 300.00 (A100 half GPU, 240 h) + 20.00 (Cloud Compute)  = 320.00
    // storage 10.00; replica 4.00 (backups); bandwidth 1.00; credit -25.00
    // total   320 + 10 + 4 + 1 - 25 = 310.00
    expect(
        &b,
        "vultr",
        None,
        "310.00",
        &[
            ("compute", "320.00"),
            ("storage", "10.00"),
            ("storage_replica", "4.00"),
            ("bandwidth", "1.00"),
            ("credit", "-25.00"),
        ],
    );
}

/// Every profile added here is recognised from its own fixture's header,
/// and none of them takes a header of the formats that were there before.
#[test]
fn each_new_profile_recognises_only_its_own_header() {
    for (file, profile) in [
        ("providers/aws-dbr-consolidated-2015-03.csv", "aws-dbr"),
        (
            "providers/aws-monthly-consolidated-2015-03.csv",
            "aws-monthly",
        ),
        ("providers/digitalocean-invoice-2025-10.csv", "digitalocean"),
        ("providers/linode-invoice-items-2025-10.csv", "linode"),
        ("providers/vultr-invoice-items-2025-10.csv", "vultr"),
        ("providers/vastai-charges-2025-11.csv", "vastai"),
        ("cloud/aws-cur2-2024-11.csv", "aws-cur2"),
        ("cloud/alibaba-legacy-2024-11.csv", "alibaba"),
        ("csv/clean-bill.csv", "generic-csv"),
    ] {
        assert_eq!(audit_one(&fixture(file)).format, profile, "{file}");
    }
}

/// A money column whose header is, or carries, a currency code names the
/// bill's currency when no column states it per row (`USD`, `cost_usd`,
/// `Amount EUR`), as a bracketed suffix `Cost (USD)` always did. Before
/// the fix these bills' currency was unknown.
#[test]
fn a_money_header_that_is_a_currency_code_names_the_currency() {
    let dir = tempfile::tempdir().unwrap();
    for (header, code) in [("USD", "USD"), ("cost_usd", "USD"), ("Amount EUR", "EUR")] {
        let p = dir.path().join("bill.csv");
        // 10.00 + 2.50 = 12.50
        std::fs::write(
            &p,
            format!("Item,{header}\nGPU hours,10.00\nStorage,2.50\n"),
        )
        .unwrap();
        let columns = format!("description=Item,amount={header}");
        let (r, out) = crate::common::audit_json(&["--columns", &columns, p.to_str().unwrap()]);
        assert!(out.status.code() != Some(2), "{header}: {}", stderr(&out));
        let b = &r.bills[0];
        assert_eq!(b.currency.as_deref(), Some(code), "{header}");
        assert_eq!(d(&b.total), d("12.50"), "{header}");
    }
}
