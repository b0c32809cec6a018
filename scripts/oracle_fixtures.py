#!/usr/bin/env python3
"""An oracle for the fixture expectations that does not come from billaudit.

Every `fixtures/**/*.expect.toml` was first written by `billaudit check
--bless`, so on its own it only says what the code already does. This script
reads each fixture's bill itself and recomputes what the expectation claims:

- the bill is read with the standard library only: `csv`, `zipfile`, the
  `gbk` and `utf-8-sig` codecs, and `decimal.Decimal` for every amount;
- which column is the payable amount, and which columns describe a row, is
  written down per fixture below (SPECS), from CONTEXT.md section 4;
- each row's category comes from this script's own keyword list (CLASSES,
  written from CONTEXT.md section 2, not from src/classify), and where a row
  needs judgement the category is fixed by hand in the spec with the reason;
- text invoices: the item lines are listed by hand per fixture and the
  amount is the last decimal number on the line;
- totals per category, total, subtotal (all but tax and credit), hidden
  (storage_replica + bandwidth + scheduling) and the hidden share, rounded
  half away from zero to 6 places as docs/json-output.md says (None when the
  subtotal is 0 or negative);
- the four share checks (hidden-fee-share > 5%, replica-share > 30%,
  replica-redundancy (storage + storage_replica) / storage > 1.2 or replicas
  with no storage, scheduling-fee-share > 8% of compute or scheduling with no
  compute) are computed from those totals;
- every other finding (`code:line`) is judged by hand: FINDINGS below holds,
  per fixture, the findings a careful auditor raises with the reason; the
  expectation must list exactly those;
- `passed` is false exactly when an error-severity finding is present.

Where billaudit is wrong by that reading, KNOWN_WRONG records what billaudit
says; the expectation is then reported as WRONG but does not fail the run as
long as it holds exactly that known-wrong value (so a fix elsewhere can land
first). Any other difference fails.

Usage:
    python3 scripts/oracle_fixtures.py             # check every expectation
    python3 scripts/oracle_fixtures.py --annotate  # also write the arithmetic
                                                   # as comments into them
    python3 scripts/oracle_fixtures.py -v          # print the per-row reading
Exit status 1 on any mismatch, or a fixture this script has no reading for.
"""
import argparse
import csv
import io
import re
import sys
import tomllib
import zipfile
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CATS = ["compute", "storage", "storage_replica", "bandwidth", "scheduling", "tax", "credit", "other"]
HIDDEN = ["storage_replica", "bandwidth", "scheduling"]
SUBTOTAL = [c for c in CATS if c not in ("tax", "credit")]
# Severity of each code (docs/checks.md): errors fail the bill.
ERRORS = {"hidden-fee-share", "replica-share", "line-arithmetic", "subtotal-mismatch",
          "total-mismatch", "unparsable-value", "hidden-share-increase", "above-contracted-price",
          "above-list-price"}
# `unused-commitment` is an error above its higher level: its reason in
# FINDINGS says `: error`.


def is_error(rel, finding):
    return finding.split(":")[0] in ERRORS or ": error" in FINDINGS.get(rel, {}).get(finding, "")
SHARE_CHECKS = ["hidden-fee-share", "replica-share", "replica-redundancy", "scheduling-fee-share"]
PLACEHOLDERS = {"", "-", "--", "null", "n/a"}

# ---------------------------------------------------------------- classifying
# First match wins. Regular expressions on the lowercased description.
# Credit words only count when the amount is negative or the row is marked
# as a refund/credit (a "reserved discount" GPU line is compute).
CLASSES = [
    ("tax", [r"\btax\b", r"\bvat\b", "税"]),
    ("storage_replica", [r"snapshot", r"backup", r"replica", r"replication", r"\b(ra-)?grs\b",
                         r"\bg?zrs\b", "快照", "备份", "副本", "冗余", "复制"]),
    ("bandwidth", [r"egress", r"ingress", r"data ?transfer", r"traffic", r"\bnat\b",
                   r"public ipv4", r"elastic ip", r"bandwidth", r"outbound", r"inbound",
                   r"-(in|out)-bytes", "流量", "带宽", "流出", "回源", "公网"]),
    ("scheduling", [r"cluster", r"control ?plane", r"platform (service )?fee", r"orchestration",
                    r"scheduling", r"\beks\b", "集群", "调度", "管理费", "平台服务费", "ack pro"]),
    ("other", [r"support plan", r"log storage", r"licen[cs]e"]),
    ("storage", [r"disk", r"volume", r"storage", r"filesystem", r"\bssd\b", "盘", "存储"]),
    ("compute", [r"\bgpu\b", r"gpu", r"\bcpu\b", r"instance", r"\bpod\b", r"\brtx\b", r"\ba100\b",
                 r"\bh100\b", r"\bh800\b", r"\bl40s\b", r"server", "卡时", "实例", "云服务器"]),
]
CREDIT_WORDS = [r"credit", r"discount", r"refund", r"promotional", "代金券", "优惠", "退款", "抵扣"]


def classify(text, amount, marked=None):
    """The category of one row: `marked` is what a type column says."""
    if marked:
        return marked
    t = text.lower()
    if (amount is None or amount < 0) and any(re.search(p, t) for p in CREDIT_WORDS):
        return "credit"
    for cat, pats in CLASSES:
        if any(re.search(p, t) for p in pats):
            return cat
    return "other"


# ------------------------------------------------------------------- amounts
def parse_amount(cell, decimal_comma=False):
    """(Decimal, None) | (None, 'missing') | (None, 'unparsable')."""
    s = cell.strip()
    if s.lower() in PLACEHOLDERS:
        return None, "missing"
    neg = s.startswith("(") and s.endswith(")")
    s = s.strip("()").replace("$", "").replace("¥", "").replace("€", "").replace("元", "").strip()
    if decimal_comma:
        s = s.replace(".", "").replace(",", ".")
    else:
        s = s.replace(",", "")
    try:
        v = Decimal(s)
    except InvalidOperation:
        return None, "unparsable"
    return (-v if neg else v), None


MONEY = re.compile(r"-?[$¥€]?\(?-?\d[\d,]*\.\d+\)?")


def last_money(line):
    m = MONEY.findall(line)
    if not m:
        raise ValueError(f"no amount on line: {line!r}")
    v, err = parse_amount(m[-1].replace("$", ""))
    if err:
        raise ValueError(f"bad amount on line: {line!r}")
    return v


# --------------------------------------------------------------- fixture specs
def csv_spec(amount, desc, **kw):
    return {"kind": "csv", "amount": amount, "desc": desc, **kw}


def text_spec(items, **kw):
    return {"kind": "text", "items": items, **kw}


REFUND = ("退款", "退费", "退订", "降配")
# What a type column says about a row: (column, {value prefix: category}).
ALI_TYPE = [("账单类型", {p: "credit" for p in REFUND}), ("消费类型", {p: "credit" for p in REFUND})]
TENCENT_TYPE = [("交易类型", {p: "credit" for p in REFUND})]
HUAWEI_TYPE = [("账单类型", {p: "credit" for p in REFUND})]
CUR2_TYPE = [("line_item_line_item_type",
              {"Tax": "tax", "Credit": "credit", "Refund": "credit", "EdpDiscount": "credit",
               "BundledDiscount": "credit", "SavingsPlanNegation": "credit"})]

# focus-1.2-service-categories.csv: managed services that are neither
# provisioned compute or storage nor a hidden fee are `other`, decided per
# line (CONTEXT.md section 2: "other: everything else").
FOCUS_SERVICE_KINDS = {
    2: ("compute", "EC2 m6i.large on-demand: a virtual machine"),
    4: ("compute", "RDS db.r6g.large: database instance hours are instance time"),
    6: ("other", "DynamoDB requests: a managed database's requests"),
    7: ("compute", "Azure SQL 4 vCore: vCores are instance time"),
    8: ("other", "BigQuery query analysis: a data warehouse's queries"),
    9: ("other", "Glue ETL job: a managed analytics service"),
    10: ("other", "Azure Monitor log ingestion (CONTEXT.md 5: log ingestion is other)"),
    11: ("other", "Cloud Monitoring data ingested: observability"),
    12: ("other", "GuardDuty: a security add-on"),
    13: ("other", "SQS requests: messaging"),
    14: ("other", "Static Web Apps plan: a web platform"),
    15: ("other", "CodeBuild minutes: a developer tool"),
    16: ("other", "Bedrock tokens: a managed AI service, not rented compute"),
    17: ("bandwidth", "Networking / Network Connectivity: network transport charges"),
}

# AWS legacy reports (docs/formats.md "aws-dbr", "aws-monthly"): the record
# types that are charges. Every other row is a total or a restatement:
# DBR `InvoiceTotal`/`AccountTotal`/`StatementTotal`; in the monthly report
# also `LinkedLineItem` (each linked account's rows restate the payer's).
# `Rounding` is money on the invoice: an item, `other`.
RECORDS_DBR = ("RecordType", {"LineItem", "LinkedLineItem", "Rounding"})
RECORDS_MONTHLY = ("RecordType", {"PayerLineItem", "Rounding"})
AWS_ROUNDING = [("RecordType", {"Rounding": "other"})]

SIMPLE = csv_spec("Amount", ["Description"])
GPU_USD = csv_spec("Amount (USD)", ["Description"])
GPU_CNY = csv_spec("Amount (CNY)", ["Description"])
CN_PLATFORM = csv_spec("金额(元)", ["计费项"])

FOCUS_COMMIT = csv_spec("BilledCost", ["ChargeDescription", "ServiceName", "ServiceCategory"],
                        types=[("ChargeCategory", {"Tax": "tax", "Credit": "credit"})])
CUR_COMMIT = csv_spec(
    "lineItem/UnblendedCost", ["lineItem/LineItemDescription", "lineItem/UsageType"],
    types=[("lineItem/LineItemType", {"Tax": "tax", "Credit": "credit", "SavingsPlanNegation": "credit"})],
    overrides={4: ("compute", "Compute Savings Plan recurring fee: a commitment to compute spend")})
AZURE_COMMIT = csv_spec("CostInBillingCurrency", ["MeterName", "MeterSubCategory", "ProductName"])

SPECS = {
    # Commitments and contracts (issue 31): the amount is the billed cost;
    # commitment columns never change a total.
    "fixtures/commitments/focus-1.2-unused-reservation.csv": FOCUS_COMMIT,
    "fixtures/commitments/focus-1.2-commitment-clean.csv": FOCUS_COMMIT,
    "fixtures/commitments/aws-cur-unused-reservation.csv": CUR_COMMIT,
    "fixtures/commitments/aws-cur-commitment-clean.csv": CUR_COMMIT,
    "fixtures/commitments/azure-amortized-unused-reservation.csv": AZURE_COMMIT,
    "fixtures/commitments/azure-amortized-commitment-clean.csv": AZURE_COMMIT,
    # No billaudit.toml in a fixture run: `plan-costlier-than-on-demand`
    # compares with the built-in book's on-demand median (FINDINGS below);
    # tests/integration/commitments.rs judges examples/price-book.toml too.
    "fixtures/commitments/gpu-monthly-plan-cny.csv": CN_PLATFORM,
    "fixtures/commitments/gpu-monthly-plan-busy-cny.csv": CN_PLATFORM,
    "fixtures/cloud/alibaba-legacy-2024-11.csv": csv_spec("应付金额", ["产品", "计费项"], types=ALI_TYPE),
    "fixtures/cloud/alibaba-new-2024-11.gbk.csv": csv_spec("应付金额", ["产品", "计费项"], types=ALI_TYPE,
                                                            encoding="gbk"),
    "fixtures/cloud/aws-cur2-2024-11.csv": csv_spec(
        "line_item_unblended_cost", ["line_item_line_item_description", "line_item_usage_type"],
        types=CUR2_TYPE,
        overrides={7: ("other", "CloudWatch log storage: productFamily `Storage Snapshot` but no "
                                "snapshot and no provisioned storage (CONTEXT.md 3, 5)")}),
    "fixtures/cloud/huawei-2024-11_1.csv": csv_spec(
        "应付金额(¥)", ["产品", "使用量类型"], types=HUAWEI_TYPE,
        parts=["fixtures/cloud/huawei-2024-11_1.csv", "fixtures/cloud/huawei-2024-11_2.csv"]),
    "fixtures/cloud/azure-lowercase-no-currency-2024-11.csv": csv_spec(
        "costinbillingcurrency", ["metername", "metersubcategory", "productname"],
        overrides={2: ("compute", "meter category Virtual Machines: an NC6s v3 GPU VM")}),
    "fixtures/cloud/focus-1.2-service-categories.csv": csv_spec(
        "BilledCost", ["ChargeDescription", "ServiceSubcategory", "ServiceName"],
        types=[("ChargeCategory", {"Tax": "tax", "Credit": "credit"})],
        overrides=FOCUS_SERVICE_KINDS),
    "fixtures/cloud/tencent-2024-11.zip": csv_spec("优惠后总价", ["产品名称", "组件名称"], types=TENCENT_TYPE,
                                                   member="tencent-2024-11.csv"),
    # fixtures/providers: one bill per provider, in its real column set.
    "fixtures/providers/aws-dbr-consolidated-2015-03.csv": csv_spec(
        "UnBlendedCost", ["UsageType", "ItemDescription", "Operation", "ProductName"],
        records=RECORDS_DBR, types=AWS_ROUNDING),
    # The monthly report: `TotalCost` = `CostBeforeTax` + `Credits` +
    # `TaxAmount`; read here as its parts (the charge before tax and
    # credits, a `credit` item, a `tax` item), where billaudit takes the
    # credit and the tax out of `TotalCost`.
    "fixtures/providers/aws-monthly-consolidated-2015-03.csv": csv_spec(
        "CostBeforeTax", ["UsageType", "ItemDescription", "Operation", "ProductName"],
        records=RECORDS_MONTHLY, types=AWS_ROUNDING, tax="TaxAmount", credit="Credits"),
    # DigitalOcean: the description is the resource's name; the product
    # column says what each charge is (a Backups row names its Droplet).
    "fixtures/providers/digitalocean-invoice-2025-10.csv": csv_spec(
        "USD", ["description", "group_description", "product"],
        types=[("product", {"Taxes": "tax", "Droplets": "compute", "Backups": "storage_replica",
                            "Snapshots": "storage_replica", "Volumes": "storage",
                            "Bandwidth": "bandwidth"})]),
    # Linode: `total` = `amount` + `tax`; the tax of each row is a `tax`
    # item beside its charge.
    "fixtures/providers/linode-invoice-items-2025-10.csv": csv_spec(
        "amount", ["label", "type"], tax="tax",
        overrides={3: ("compute", "`Linode 8GB` is a Linode virtual machine plan"),
                   7: ("bandwidth", "`Network Transfer Overage`: outbound data beyond the pool")}),
    "fixtures/providers/vastai-charges-2025-11.csv": csv_spec("amount", ["description", "type"]),
    "fixtures/providers/vultr-invoice-items-2025-10.csv": csv_spec(
        "total", ["description", "product"], types=[("unit_type", {"discount": "credit"})],
        overrides={3: ("compute", "a `Cloud Compute` plan (2 vCPU, 4 GB): a virtual machine")}),
    "fixtures/csv/alibaba-detail.csv": csv_spec("应付金额", ["产品", "计费项"], types=ALI_TYPE),
    "fixtures/csv/arithmetic-error.csv": csv_spec("Cost", ["Item"]),
    "fixtures/csv/clean-bill.csv": SIMPLE,
    "fixtures/csv/eu-semicolon-decimal-comma.csv": csv_spec("Amount", ["Description"], delimiter=";",
                                                            decimal_comma=True),
    # German GPU-cloud invoices exported as CSV: title lines, `;` and decimal
    # commas, Zwischensumme / MwSt. / Gesamtbetrag rows. The first names its
    # description bilingually (`Leistung / Service`), the second with a word
    # no vocabulary knows (`Artikeltext`).
    "fixtures/csv/de-bilingual-header.csv": csv_spec(
        "Betrag (EUR)", ["Leistung / Service"], delimiter=";", decimal_comma=True,
        overrides={8: ("storage", "`NVMe Speicher`: German `Speicher` is storage, a provisioned NVMe disk")}),
    "fixtures/csv/de-unknown-description-header.csv": csv_spec("Betrag (EUR)", ["Artikeltext"], delimiter=";",
                                                               decimal_comma=True),
    "fixtures/csv/gpu-platform-cn-gbk.csv": csv_spec("金额(元)", ["计费项"], encoding="gbk"),
    "fixtures/csv/gpu-platform-cn-utf8bom.csv": CN_PLATFORM,
    "fixtures/csv/gpu-pod-en.csv": GPU_USD,
    "fixtures/csv/hidden-share-at-5pct.csv": SIMPLE,
    "fixtures/csv/hidden-share-over-5pct.csv": SIMPLE,
    "fixtures/csv/hidden-share-under-5pct.csv": SIMPLE,
    "fixtures/csv/huawei-usage.csv": csv_spec("应付金额(¥)", ["产品", "使用量类型编码"], types=HUAWEI_TYPE),
    "fixtures/csv/placeholders-and-totals.csv": csv_spec("Amount", ["Service", "Description"]),
    "fixtures/csv/summary-rows-en.csv": csv_spec("Amount", ["Service", "Description"]),
    "fixtures/csv/summary-rows-zh.csv": csv_spec("金额", ["产品", "计费项"]),
    "fixtures/csv/summary-rows-mismatch.csv": csv_spec("Amount", ["Service", "Description"]),
    "fixtures/csv/tenfold-overcharge.csv": csv_spec(
        "Cost", ["Item"],
        overrides={4: ("storage", "object storage requests: the storage service's own charge"),
                   5: ("storage", "object storage operations: the storage service's own charge")}),
    "fixtures/csv/day-first-dates.csv": csv_spec("Cost", ["Item"]),
    "fixtures/csv/tencent-detail.csv": csv_spec("优惠后总价", ["产品名称", "组件名称"], types=TENCENT_TYPE),
    "fixtures/gpu/billing-granularity-hourly.csv": GPU_CNY,
    "fixtures/gpu/billing-granularity-per-second.csv": GPU_CNY,
    "fixtures/gpu/duplicate-line-distinct.csv": GPU_USD,
    "fixtures/gpu/duplicate-line.csv": GPU_USD,
    "fixtures/gpu/idle-storage-busy.csv": GPU_USD,
    "fixtures/gpu/idle-storage.csv": GPU_USD,
    "fixtures/gpu/ingress-charged-cn.csv": CN_PLATFORM,
    "fixtures/gpu/ingress-charged.csv": GPU_USD,
    "fixtures/gpu/ingress-free.csv": GPU_USD,
    "fixtures/gpu/reprice-20h-4090.csv": GPU_CNY,
    "fixtures/gpu/reprice-month-4090.csv": GPU_CNY,
    "fixtures/html/gpu-cloud-2025h2.csv": GPU_USD,
    "fixtures/html/hostile.csv": GPU_USD,
    # Text invoices: the item lines, by hand. Credit lines count negative
    # whatever sign they are written with (`代金券：20.00 元`).
    "fixtures/text/en-columns-credit-tax.txt": text_spec([12, 13, 14, 15, 16, 17, 20, 21]),
    "fixtures/text/en-leader-dots.txt": text_spec([6, 7, 8, 9, 10, 13]),
    "fixtures/text/mixed-zh-en.txt": text_spec([7, 8, 9, 10, 11, 14, 15]),
    "fixtures/text/one-line-receipt.txt": text_spec([1]),
    "fixtures/text/subtotal-mismatch.txt": text_spec([2, 3]),
    "fixtures/text/total-mismatch.txt": text_spec([7, 8, 10]),
    "fixtures/text/unparsed-line.txt": text_spec([6, 8]),
    "fixtures/text/windows-crlf.txt": text_spec([7, 8, 9, 11]),
    "fixtures/text/zh-gpu.txt": text_spec([7, 8, 9, 10, 11, 12, 14, 15]),
}

# Findings other than the four share checks, judged by hand from the rows.
# Bill-level findings have no `:line`.
FINDINGS = {
    "fixtures/commitments/focus-1.2-unused-reservation.csv": {
        "unused-commitment:3": "ri-a100: Used EffectiveCost 500.00 (line 3) + Unused 230.00 (line 4) = 730.00; "
                               "230.00 / 730.00 = 31.51% > 25%: error, on the commitment's first "
                               "Used/Unused row (line 3; the Purchase row, line 2, is the billed view and not counted)",
        "above-contracted-price:5": "line 5: on-demand BilledCost 300.00 (200 h x 1.50 list) where ContractedCost "
                                    "says 270.00 (200 h x 1.35): 30.00 above; EffectiveCost 300.00 gives no discount",
    },
    "fixtures/commitments/aws-cur-unused-reservation.csv": {
        "unclassified-items:2": "line 2: RIFee `USD 0.50 hourly fee per Linux/UNIX (Amazon VPC) g5.xlarge` "
                                "names nothing a category rule knows",
        "unused-commitment:2": "line 2 RIFee: unused 120.00 recurring + 48.00 upfront = 168.00 of 360.00 fee "
                               "+ 144.00 amortised upfront = 504.00: 33.33% > 25%: error",
        "unused-commitment:4": "line 4 SavingsPlanRecurringFee: TotalCommitmentToDate 100.00 - UsedCommitment "
                               "88.00 = 12.00 of 100.00: 12.00% > 10%, <= 25%: warning",
        "unused-commitment": "the bill: 168.00 + 12.00 = 180.00 of 504.00 + 100.00 = 604.00 (29.80%)",
    },
    "fixtures/commitments/aws-cur-commitment-clean.csv": {
        "unclassified-items:2": "line 2: RIFee `USD 0.50 hourly fee per Linux/UNIX (Amazon VPC) g5.xlarge` "
                                "names nothing a category rule knows (the RI is fully used: unused 0.00; "
                                "the savings plan 100.00 - 96.00 = 4.00 = 4.00%, within 10%)",
    },
    "fixtures/commitments/gpu-monthly-plan-cny.csv": {
        "plan-costlier-than-on-demand:2": "RTX 4090 包月 1260.00 CNY (line 2) for 200 小时 used (line 3); "
                                          "built-in on-demand RTX 4090 CNY offers 1.70, 2.00, 9: median 2.00/hour; "
                                          "200 x 2.00 = 400.00; 1260.00 - 400.00 = 860.00 more: warning",
    },
    "fixtures/commitments/azure-amortized-unused-reservation.csv": {
        "unused-commitment:2": "reservation 5c2d: Usage 1500.00 (line 2) + UnusedReservation 690.00 (line 3) = "
                               "2190.00; 690.00 / 2190.00 = 31.51% > 25%: error",
    },
    "fixtures/csv/tenfold-overcharge.csv": {
        "line-arithmetic:2": "line 2: 20 h x 1.80 = 36.00 but billed 360.00 (tenfold; `h` declares no block)",
        "line-arithmetic:3": "line 3: 5 hour x 2.00 = 10.00 but billed 1000.00 (hundredfold; `hour` declares no block)",
    },
    "fixtures/csv/summary-rows-mismatch.csv": {
        "subtotal-mismatch:5": "line 5: states 45.00, items other than tax and credit 36.00 + 4.00 + 2.00 = 42.00",
        "total-mismatch:8": "line 8: states 44.00, all items 42.00 - 5.00 (discount) + 2.96 (VAT) = 39.96",
    },
    "fixtures/cloud/aws-cur2-2024-11.csv": {
        "idle-storage:4": "line 4: EBS snapshot billed 11-01..12-01; the only compute (line 2) ran "
                          "11-01 00:00-10:00, so 11-02..11-30 are idle",
    },
    "fixtures/cloud/huawei-2024-11_1.csv": {
        "idle-storage:2": "part _2 line 2: 云备份 cbr-0001 billed 11-02; nothing computed on 11-02 (the "
                          "11-02 row of ecs-0001 is a refund); line is part 2's (merged-part "
                          "locations are being fixed elsewhere)",
    },
    "fixtures/csv/alibaba-detail.csv": {
        "idle-storage:3": "line 3: 系统盘 of i-bp1gpu001 billed 10-01..10-31, the instance computed "
                          "10-01..10-05 04:00 only",
        "idle-storage:4": "line 4: 数据盘 d-bp1data01 billed 10-01..10-31, compute only 10-01..10-05",
        "idle-storage:5": "line 5: 快照 s-bp1snap01 billed 10-01..10-31, compute only 10-01..10-05",
    },
    "fixtures/csv/arithmetic-error.csv": {
        "line-arithmetic:3": "line 3: 20 x 1.80 = 36.00 but billed 37.00",
        "above-list-price:6": "line 6: 100 x 0.08 = 8.00 = list, but payable 8.50 is above the list "
                              "(8.50 - 8.00 = 0.50; was line-arithmetic before issue 31)",
    },
    "fixtures/csv/huawei-usage.csv": {
        "idle-storage:3": "line 3: 云硬盘 evs-0001 billed 10-01..10-31 (开始时间/结束时间), the only compute "
                          "(line 2) ran 10-01..10-05 04:00: 26 of 31 days idle, about 350.00 x 26/31 = 293.55",
        "idle-storage:4": "line 4: 云备份 cbr-0001 billed 10-01..10-31, compute only 10-01..10-05: "
                          "about 40.00 x 26/31 = 33.55",
    },
    "fixtures/csv/placeholders-and-totals.csv": {
        "missing-amount:5": "line 5: Amount is `-`",
        "unparsable-value:6": "line 6: Amount `O.50` has a letter O for a zero",
        "unclassified-items:8": "line 8: `Quantum flux capacitor` matches no category",
    },
    "fixtures/csv/tencent-detail.csv": {
        "idle-storage:3": "line 3: 云硬盘 disk-001 billed 10-01..10-31, compute only 10-01..10-03",
        "idle-storage:4": "line 4: 快照 snap-001 billed 10-01..10-31, compute only 10-01..10-03",
    },
    "fixtures/gpu/billing-granularity-hourly.csv": {
        "billing-rounding:2": "line 2: 09:00-11:10 is 2 h 10 min, billed 3 h",
        "billing-rounding:3": "line 3: 09:00-13:05 is 4 h 5 min, billed 5 h",
        "billing-rounding:4": "line 4: 09:00-09:20 is 20 min, billed 1 h",
        "billing-granularity": "every line whole hours, rounded up: 18.00 billed, "
                               "(2.1667 + 4.0833 + 0.3333) x 2.00 = 13.17 per second",
    },
    "fixtures/gpu/duplicate-line.csv": {
        "duplicate-line:3": "line 3 repeats line 2 in every cell (pod-7f3a, 10-03, 20 x 0.69 = 13.80)",
    },
    "fixtures/gpu/idle-storage.csv": {
        "idle-storage:4": "lines 4-8 (pod-a container disk; the group's first line is 4): billed "
                          "10-03..10-05 (lines 6-8) when pod-a computed only 10-01..10-02: 3 x 0.50 = 1.50",
        "idle-storage:9": "lines 9-12 (vol-01; first line 9): billed 10-03, 10-04 (lines 11-12) with no "
                          "compute that day: 2 x 2.00 = 4.00",
    },
    "fixtures/gpu/ingress-charged-cn.csv": {
        "ingress-charged:3": "line 3: 公网入方向流量 (inbound) billed 300 x 0.50 = 150.00",
    },
    "fixtures/gpu/ingress-charged.csv": {
        "ingress-charged:3": "line 3: `Data transfer in (ingress)` billed 500 x 0.01 = 5.00",
        "ingress-charged:4": "line 4: `USE1-DataTransfer-In-Bytes` billed 200 x 0.01 = 2.00",
    },
    "fixtures/text/subtotal-mismatch.txt": {
        "line-arithmetic:2": "line 2: 10 x 0.50 = 5.00 but billed 5.50",
        "subtotal-mismatch:4": "line 4: states 13.00, items 5.50 + 7.00 = 12.50",
    },
    "fixtures/text/total-mismatch.txt": {
        "total-mismatch:11": "line 11: states 84.25, lines 47.50 + 20.00 + 6.75 = 74.25",
    },
    "fixtures/text/unparsed-line.txt": {
        "unparsed-line:7": "line 7: `Egress to internet (see attached usage report)` has no amount",
    },
}

# What billaudit says where it is wrong by the reading above: fixture ->
# {field: billaudit's value}. Reported as WRONG, not failed, while the
# expectation holds exactly this value.
KNOWN_WRONG = {}


# ------------------------------------------------------------------- reading
def read_text(path, spec):
    data = Path(path).read_bytes()
    if "member" in spec:
        with zipfile.ZipFile(path) as z:
            data = z.read(spec["member"])
    return data.decode(spec.get("encoding", "utf-8-sig"))


# Summary labels, written here by hand (not read from billaudit): what a
# row says when its only words are one of these.
SUMMARY_LABELS = {
    "subtotal": {"subtotal", "sub-total", "小计", "zwischensumme", "total ht", "sous-total", "小計"},
    "total": {"total", "balance due", "amount due", "grand total", "合计", "总计", "价税合计",
              "gesamtbetrag", "total ttc", "合計"},
    "tax": {"tax", "vat", "税额", "mwst.", "tva", "消費税"},
    "credit": {"discount", "credit"},
}


def summary_kind(row, spec):
    """`subtotal`, `total`, `tax`, `credit` when a row's only words are one
    summary label (repeated or not), else None."""
    words = set()
    for col, v in row.items():
        v = (v or "").strip()
        if not v or col == spec["amount"] or col.lower() == "currency" or col == "币种":
            continue
        if re.fullmatch(r"[-+]?[\d.,]+", v):
            continue
        words.add(v)
    if len(words) != 1:
        return None
    w = words.pop().lower().rstrip(":：").strip()
    w = re.sub(r"\s*[(（][^)）]*[)）]$", "", w)      # `VAT (8%)`, `税额（6%）`
    w = re.sub(r"\s+\d+(?:[.,]\d+)?\s*%$", "", w)    # `MwSt. 19%`, `VAT 20 %`
    w = re.sub(r"\s+[a-z]{3}$", "", w) if w.split()[0] in ("total", "amount") else w  # `Total USD`
    for kind, labels in SUMMARY_LABELS.items():
        if w in labels:
            return kind
    return None


def read_csv_rows(rel, spec):
    """Rows of one CSV fixture: dicts with line, amount, category, text."""
    parts = spec.get("parts", [rel])
    rows = []
    for pi, part in enumerate(parts):
        text = read_text(ROOT / part, spec)
        lines = text.splitlines()
        header = None
        for i, line in enumerate(lines, 1):
            cells = next(csv.reader([line], delimiter=spec.get("delimiter", ",")), [])
            if header is None:
                if spec["amount"] in [c.strip() for c in cells]:
                    header = [c.strip() for c in cells]
                continue
            row = dict(zip(header, cells))
            if not any(c.strip() for c in cells):
                rows.append({"line": i, "part": pi, "skip": "blank"})
                continue
            if "records" in spec:
                # A record-type column (AWS DBR / monthly report `RecordType`):
                # only the rows it calls items are summed (see RECORDS_*).
                col, counted = spec["records"]
                if row.get(col, "").strip() not in counted:
                    rows.append({"line": i, "part": pi, "skip": "summary", "text": line})
                    continue
            kind = summary_kind(row, spec)
            if kind in ("subtotal", "total"):
                rows.append({"line": i, "part": pi, "skip": "summary", "text": line})
                continue
            amount, err = parse_amount(row.get(spec["amount"], ""), spec.get("decimal_comma", False))
            if kind in ("tax", "credit") and not err:
                # A tax or discount row states real money on the bill: an item.
                if kind == "credit":
                    amount = -abs(amount)
                rows.append({"line": i, "part": pi, "amount": amount, "category": kind,
                             "text": line, "why": f"a `{kind}` summary row"})
                continue
            desc = " / ".join(row.get(c, "").strip() for c in spec["desc"] if row.get(c, "").strip())
            if err:
                rows.append({"line": i, "part": pi, "skip": err, "text": desc})
                continue
            marked = None
            for col, values in spec.get("types", []):
                v = row.get(col, "").strip()
                for prefix, cat in values.items():
                    if v == prefix or (any('\u4e00' <= ch <= '\u9fff' for ch in prefix) and v.startswith(prefix)):
                        marked = cat
            cat = classify(desc, amount, marked)
            why = None
            if pi == 0 and i in spec.get("overrides", {}):
                cat, why = spec["overrides"][i]
            rows.append({"line": i, "part": pi, "amount": amount, "category": cat, "text": desc, "why": why})
            if "tax" in spec:
                # A per-row tax column: its non-zero cell is the row's tax.
                tax, terr = parse_amount(row.get(spec["tax"], ""), spec.get("decimal_comma", False))
                if not terr and tax != 0:
                    rows.append({"line": i, "part": pi, "amount": tax, "category": "tax",
                                 "text": f"{spec['tax']}: {desc}", "why": f"the row's `{spec['tax']}` column"})
            if "credit" in spec:
                # A per-row credit column: its non-zero cell is the row's credit.
                credit, cerr = parse_amount(row.get(spec["credit"], ""), spec.get("decimal_comma", False))
                if not cerr and credit != 0:
                    rows.append({"line": i, "part": pi, "amount": credit, "category": "credit",
                                 "text": f"{spec['credit']}: {desc}",
                                 "why": f"the row's `{spec['credit']}` column"})
        if header is None:
            raise ValueError(f"{part}: no header with column {spec['amount']!r}")
    return rows


def read_text_rows(rel, spec):
    lines = read_text(ROOT / rel, spec).splitlines()
    rows = []
    for i in spec["items"]:
        line = lines[i - 1]
        amount = last_money(line)
        t = line.lower()
        if any(re.search(p, t) for p in CREDIT_WORDS):
            amount = -abs(amount)
        cat = classify(line, amount)
        rows.append({"line": i, "part": 0, "amount": amount, "category": cat, "text": line.strip()})
    return rows


# --------------------------------------------------------------- the figures
def share(num, den):
    if den <= 0:
        return None
    return (num / den).quantize(Decimal("0.000001"), rounding=ROUND_HALF_UP)


def figures(rows):
    items = [r for r in rows if "skip" not in r]
    totals = {c: Decimal(0) for c in CATS}
    for r in items:
        totals[r["category"]] += r["amount"]
    subtotal = sum((totals[c] for c in SUBTOTAL), Decimal(0))
    hidden = sum((totals[c] for c in HIDDEN), Decimal(0))
    total = sum((r["amount"] for r in items), Decimal(0))
    checks = set()
    if subtotal > 0 and hidden / subtotal > Decimal("0.05"):
        checks.add("hidden-fee-share")
    if subtotal > 0 and totals["storage_replica"] / subtotal > Decimal("0.30"):
        checks.add("replica-share")
    st, rp = totals["storage"], totals["storage_replica"]
    if (st > 0 and (st + rp) / st > Decimal("1.2")) or (st <= 0 and rp > 0):
        checks.add("replica-redundancy")
    cp, sc = totals["compute"], totals["scheduling"]
    if (cp > 0 and sc / cp > Decimal("0.08")) or (cp <= 0 and sc > 0):
        checks.add("scheduling-fee-share")
    return {"totals": totals, "subtotal": subtotal, "hidden": hidden, "total": total,
            "hidden_share": share(hidden, subtotal), "checks": checks, "items": items}


def terms(items, cat=None):
    """`line 3: 10.00 + line 5: 2.00` style arithmetic for a comment."""
    out = []
    for r in items:
        if cat is None or r["category"] == cat:
            where = f"{'part 2 ' if r['part'] else ''}line {r['line']}"
            out.append(f"{r['amount']} ({where})")
    return out


def plus(parts):
    return " + ".join(parts)


def share_reason(code, f):
    t = f["totals"]
    if code == "hidden-fee-share":
        return f"hidden {f['hidden']} / subtotal {f['subtotal']} = {pct(f['hidden'], f['subtotal'])} > 5%"
    if code == "replica-share":
        return f"storage_replica {t['storage_replica']} / {f['subtotal']} = {pct(t['storage_replica'], f['subtotal'])} > 30%"
    if code == "replica-redundancy":
        if t["storage"] <= 0:
            return f"storage_replica {t['storage_replica']} with no storage"
        r = ((t["storage"] + t["storage_replica"]) / t["storage"]).quantize(Decimal("0.001"))
        return f"({t['storage']} + {t['storage_replica']}) / {t['storage']} = {r}x > 1.2x"
    if code == "scheduling-fee-share":
        if t["compute"] <= 0:
            return f"scheduling {t['scheduling']} with no compute"
        return f"scheduling {t['scheduling']} / compute {t['compute']} = {pct(t['scheduling'], t['compute'])} > 8%"
    raise KeyError(code)


def pct(a, b):
    return f"{(a / b * 100).quantize(Decimal('0.01'))}%"


# ------------------------------------------------------------------ checking
def check(rel, expect, f, verbose):
    """Differences between the oracle and one expectation (list of str)."""
    bills = expect.get("bill", [])
    if len(bills) != 1:
        return [f"expected one [[bill]], found {len(bills)} (the oracle reads one bill per file)"]
    b = bills[0]
    diffs = []
    for c in CATS:
        want = b.get("totals", {}).get(c)
        if want is None or Decimal(want) != f["totals"][c]:
            diffs.append(f"totals.{c}: expect {want}, oracle {f['totals'][c]} = {plus(terms(f['items'], c)) or '0'}")
    if Decimal(b["total"]) != f["total"]:
        diffs.append(f"total: expect {b['total']}, oracle {f['total']}")
    hs = b.get("hidden_share")
    if (None if hs is None else Decimal(hs)) != f["hidden_share"] or (hs is not None and len(hs.split(".")[-1]) != 6):
        diffs.append(f"hidden_share: expect {hs}, oracle {f['hidden_share']}")
    want_findings = set(f["checks"]) | set(FINDINGS.get(rel, {}))
    got_findings = set(b.get("findings", []))
    passed = not any(is_error(rel, x) for x in want_findings)
    wrong = KNOWN_WRONG.get(rel, {})
    if got_findings != want_findings:
        if "findings" in wrong and got_findings == set(wrong["findings"]):
            diffs.append(f"WRONG(known) findings: billaudit {sorted(got_findings)}, right "
                         f"{sorted(want_findings)}: {wrong['why']}")
        else:
            diffs.append(f"findings: expect {sorted(got_findings)}, oracle {sorted(want_findings)}")
    if b.get("passed") != passed:
        diffs.append(f"passed: expect {b.get('passed')}, oracle {passed}")
    return diffs


# ---------------------------------------------------------------- annotating
def annotate(path, rel, f):
    """Writes the oracle's arithmetic beside each value of the expect file."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    out = []
    note = "# Each value below is recomputed by scripts/oracle_fixtures.py from the bill itself; its arithmetic is beside it."
    reasons = {**{c: share_reason(c, f) for c in f["checks"]}, **FINDINGS.get(rel, {})}
    wrong = KNOWN_WRONG.get(rel)
    for line in lines:
        bare = re.sub(r"\s+# (oracle|WRONG)\b.*$", "", line) if not line.startswith("#") else line
        if line.startswith("# Each value below is recomputed") or line.startswith("# WRONG:"):
            continue
        m = re.match(r'^(\w+) = "([^"]*)"', bare)
        single = re.match(r'^findings = \[(.*)\]$', bare)
        item = re.match(r'^\s+"([^"]+)",$', bare)
        comment = None
        if m and m.group(1) in CATS:
            c = m.group(1)
            t = terms(f["items"], c)
            comment = f"{plus(t)} = {f['totals'][c]}" if len(t) > 1 else (f"{t[0]}" if t else "no line")
        elif m and m.group(1) == "total":
            comment = f"subtotal {f['subtotal']} + tax {f['totals']['tax']} + credit {f['totals']['credit']} = {f['total']}"
        elif m and m.group(1) == "hidden_share":
            t = f["totals"]
            comment = (f"({t['storage_replica']} + {t['bandwidth']} + {t['scheduling']}) / {f['subtotal']}"
                       f" = {f['hidden']} / {f['subtotal']} -> {f['hidden_share']}")
        elif re.match(r"^passed = (true|false)$", bare):
            errs = sorted(x for x in reasons if is_error(rel, x))
            comment = f"error findings: {', '.join(errs)}" if errs else "no error-severity finding"
        elif item and item.group(1) in reasons:
            comment = reasons[item.group(1)]
        elif single and single.group(1).strip().strip('"') in reasons:
            comment = reasons[single.group(1).strip().strip('"')]
        elif single and single.group(1).strip() == "":
            comment = "none of the share checks fires and no line needs one"
        if comment:
            out.append(f"{bare}  # oracle: {comment}")
        else:
            out.append(bare)
        if bare == "[[bill]]":
            pass
    # the note goes after the two header lines billaudit writes
    head = 0
    while head < len(out) and out[head].startswith("#"):
        head += 1
    out.insert(head, note)
    if wrong:
        out.insert(head + 1, f"# WRONG: billaudit lists {wrong['findings']} but a careful reading finds "
                             f"{sorted(set(f['checks']) | set(FINDINGS.get(rel, {})))}: {wrong['why']}.")
    Path(path).write_text("\n".join(out) + "\n", encoding="utf-8")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--annotate", action="store_true", help="write the arithmetic into the expect files")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each row's reading")
    ap.add_argument("paths", nargs="*", help="expect files (default: every fixtures/**/*.expect.toml)")
    a = ap.parse_args()
    paths = [Path(p) for p in a.paths] or sorted((ROOT / "fixtures").rglob("*.expect.toml"))
    failed = 0
    wrong = 0
    for p in paths:
        rel = str(p.resolve().relative_to(ROOT))[: -len(".expect.toml")]
        spec = SPECS.get(rel)
        if spec is None:
            print(f"NO ORACLE {rel}: add a reading of it to SPECS in scripts/oracle_fixtures.py")
            failed += 1
            continue
        expect = tomllib.loads(p.read_text(encoding="utf-8"))
        if "error" in expect:
            print(f"skip      {rel}: expects an input error")
            continue
        try:
            rows = read_csv_rows(rel, spec) if spec["kind"] == "csv" else read_text_rows(rel, spec)
        except (ValueError, OSError, KeyError) as e:
            print(f"UNREADABLE {rel}: {e}")
            failed += 1
            continue
        f = figures(rows)
        if a.verbose:
            for r in rows:
                if "skip" in r:
                    print(f"    l{r['line']}: skipped ({r['skip']})")
                else:
                    print(f"    {'_2 ' if r['part'] else ''}l{r['line']}: {r['category']:15} {r['amount']:>12}  "
                          f"{r['text'][:60]}{'  [' + r['why'] + ']' if r.get('why') else ''}")
        diffs = check(rel, expect, f, a.verbose)
        hard = [d for d in diffs if not d.startswith("WRONG(known)")]
        status = "ok" if not diffs else ("WRONG" if not hard else "MISMATCH")
        print(f"{status:9} {rel}: total {f['total']}, hidden share {f['hidden_share']}")
        for d in diffs:
            print(f"          {d}")
        failed += bool(hard)
        wrong += bool(diffs) and not hard
        if a.annotate and not hard:
            annotate(p, rel, f)
    print(f"{len(paths)} expectations: {len(paths) - failed - wrong} agree, {wrong} known wrong, {failed} mismatched")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
