#!/usr/bin/env python3
"""Independent figures for the real exports in ../shared/data/real.

Written apart from billaudit's Rust code: its own column choices (from
CONTEXT.md section 4) and its own keyword classification (from CONTEXT.md
sections 2 and 5). Only the standard library: csv, gzip, decimal.

Usage: python3 scripts/validate_real.py [REAL_DATA_DIR]
Prints, per file: data rows, line items, skipped rows, the total, and the
total of each category that is not zero.
"""
import csv
import gzip
import io
import re
import sys
from decimal import Decimal, InvalidOperation
from pathlib import Path

NULLS = {"", "-", "--", "null", "n/a", "na", "none", "nan"}

# Category keywords, in the order they are tried (first hit wins), each
# tried on the most specific texts of a row before the coarser ones.
# Patterns are regular expressions on lowercased text.
KEYWORDS = [
    ("tax", [r"\btax\b", r"\bvat\b", r"sales tax", "税"]),
    ("credit", [r"\bcredits?\b", r"\bdiscount\b", r"\brefund\b", "代金券", "优惠", "退款"]),
    # look-alikes that CONTEXT.md says are "other"
    ("other", [r"early ?delete", r"extended ?support", r"defender", r"log ingest",
               r"logs? storage", r"cloudwatch", r"data factory", r"\bsupport\b",
               # FOCUS kinds of service that are not hidden fees, whose names
               # hold a hidden-fee word (internet, orchestration)
               r"internet of things", r"workflow (orchestration|automation)"]),
    ("storage_replica", [r"snapshot", r"backup", r"replica", r"replication",
                         r"\b(ra-)?g?z?rs\b", r"\bgrs\b", r"disaster recovery",
                         "快照", "备份", "副本", "冗余", "复制"]),
    ("bandwidth", [r"egress", r"ingress", r"data ?transfer", r"transfer (out|in)",
                   r"-out-bytes", r"-in-bytes", r"-xaz-", r"inter[- ]?(region|zone|az)",
                   r"nat ?gateway", r"\bnat\b", r"public ?ip", r"elastic ip",
                   r"external ip", r"bandwidth", r"peering", r"private ?link",
                   r"(out|in)bound (data|transfer)", r"data processed", r"\bcdn\b",
                   r"network connectivity", r"content delivery",
                   "流量", "带宽", "公网", "外网", "回源"]),
    ("scheduling", [r"cluster usage", r"kubernetes clusters?", r"cluster[- ]management",
                    r"control[- ]plane", r"orchestrat", r"scheduling", r"platform fee",
                    "集群管理", "调度", "管理节点", "平台服务费", "节点管理", r"ack pro定价"]),
    ("storage", [r"storage", r"\bdisks?\b", r"\bvolumes?\b", r"\bebs\b", r"\bblob\b",
                 r"\bs3\b", r"gb-mo", r"bytehrs", r"\bssd\b", r"\blrs\b", r"\bimage\b",
                 "存储", "云盘", "系统盘", "数据盘"]),
    ("compute", [r"\bgpu", r"\bcpu", r"vcpu", r"vcore", r"\bdb\.[tmrx]", r"instance", r"compute", r"virtual machine",
                 r"\bvms?\b", r"boxusage", r"\bec2\b", r"container", r"\bpods?\b",
                 r"serverless", r"lambda", "卡时", "核时", "实例", "云服务器", "计算"]),
]
COMPILED = [(cat, [re.compile(p) for p in pats]) for cat, pats in KEYWORDS]


def classify(tiers, amount=Decimal(0)):
    for tier in tiers:
        texts = [t.lower() for t in tier if t and t.strip().lower() not in NULLS]
        for cat, pats in COMPILED:
            # Money coming back is <= 0: a positive `Committed Use Discount
            # purchase` is a charge, not a credit.
            if cat == "credit" and amount > 0:
                continue
            if any(p.search(t) for t in texts for p in pats):
                return cat
    return "other"


def dec(s):
    s = (s or "").strip()
    if s.lower() in NULLS:
        return None
    return Decimal(s)


# Per format: amount column, classification tiers, marker column -> {value: category}.
FORMATS = {
    "focus": dict(
        amount="BilledCost",
        tiers=[["ChargeDescription", "SkuMeter", "x_*"], ["ServiceSubcategory"],
               ["ServiceName"], ["ServiceCategory"]],
        markers={"ChargeCategory": {"tax": "tax", "credit": "credit"},
                 "ChargeType": {"tax": "tax", "credit": "credit"}},
    ),
    "aws-cur": dict(
        amount="lineItem/UnblendedCost",
        tiers=[["lineItem/UsageType", "lineItem/LineItemDescription", "product/usagetype"],
               ["lineItem/ProductCode", "product/ProductName", "product/servicecode"],
               ["product/productFamily"]],
        markers={"lineItem/LineItemType": {"tax": "tax", "credit": "credit", "refund": "credit",
                                           "*discount": "credit",
                                           "savingsplannegation": "credit"}},
    ),
    "azure": dict(
        amount=["CostInBillingCurrency", "PreTaxCost", "Cost"],
        tiers=[["MeterName", "MeterSubCategory", "MeterSubcategory", "ProductName"],
               ["MeterCategory", "ServiceFamily"]],
        markers={"ChargeType": {"refund": "credit"}},
    ),
    "gcp": dict(
        amount="cost",
        tiers=[["sku.description"], ["service.description"]],
        markers={"cost_type": {"tax": "tax", "adjustment": "credit", "rounding_error": "other"}},
        credits="credits",
    ),
    "oci": dict(
        amount="cost/myCost",
        tiers=[["product/Description"], ["product/service"]],
        markers={},
    ),
}

FILES = [
    ("focus/focus_sample.csv", "focus"),
    ("focus-spec-examples/commitment_discount_scenarios__commitment_discount_purchase_scenario_2.csv", "focus"),
    ("focus-spec-examples/commitment_discount_scenarios__commitment_discount_usage_scenario_3.csv", "focus"),
    ("focus-spec-examples/saas_examples__spend_agreements__saas_spend_agreements_b2.csv", "focus"),
    ("focus-malformed/all_pass_0.5.csv", "focus"),
    ("aws-cur/sample-anonymous-aws-export-dataset.csv", "aws-cur"),
    ("aws-cur/koku_test_cur.csv.gz", "aws-cur"),
    ("aws-cur/koku_2023-06-01.csv", "aws-cur"),
    ("azure/sample-anonymous-ea-export-dataset.csv", "azure"),
    ("azure/headersets_PayAsYouGo.csv", "azure"),
    ("azure/headersets_BOM.csv", "azure"),
    ("gcp/2022-08-01_5.csv", "gcp"),
    ("gcp/2024-03-01_5.csv", "gcp"),
    ("gcp/evidence-2020-11-16.csv", "gcp"),
    ("oci/reports_cost-csv_0000000030000269.csv", "oci"),
]

CREDIT_AMOUNT = re.compile(r"""['"]amount['"]\s*:\s*([-+0-9.eE]+)""")


def read_rows(path):
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    text = raw.decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(text)))


def audit(path, fmt):
    cfg = FORMATS[fmt]
    rows = read_rows(path)
    header = list(rows[0].keys()) if rows else []
    amount_cols = cfg["amount"] if isinstance(cfg["amount"], list) else [cfg["amount"]]
    amount_col = next(c for c in amount_cols if c in header)
    tiers = []
    for tier in cfg["tiers"]:
        cols = []
        for c in tier:
            if c.endswith("*"):
                cols += [h for h in header if h.lower().startswith(c[:-1].lower())]
            elif c in header:
                cols.append(c)
        tiers.append(cols)
    totals, items, skipped = {}, 0, 0
    for r in rows:
        amount = dec(r[amount_col])
        if amount is None:
            skipped += 1
            continue
        cat = None
        for col, values in cfg["markers"].items():
            v = (r.get(col) or "").strip().lower()
            for key, c in values.items():
                if v == key or (key.startswith("*") and v.endswith(key[1:])):
                    cat = c
        if cat is None:
            cat = classify([[r[c] for c in tier] for tier in tiers], amount)
        totals[cat] = totals.get(cat, Decimal(0)) + amount
        items += 1
        if cfg.get("credits"):
            for a in CREDIT_AMOUNT.findall(r.get(cfg["credits"]) or ""):
                totals["credit"] = totals.get("credit", Decimal(0)) + Decimal(a)
                items += 1
    total = sum(totals.values(), Decimal(0))
    return len(rows), items, skipped, total, totals


def main():
    base = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "../shared/data/real"
    # `--cost effective` on the FOCUS sample: EffectiveCost instead of BilledCost.
    focus = read_rows(base / "focus/focus_sample.csv")
    effective = sum((dec(r["EffectiveCost"]) or Decimal(0) for r in focus), Decimal(0))
    print(f"focus/focus_sample.csv --cost effective\ttotal={effective}")
    for rel, fmt in FILES:
        n, items, skipped, total, totals = audit(base / rel, fmt)
        cats = ", ".join(f"{k}={v}" for k, v in sorted(totals.items()) if v != 0)
        print(f"{rel}\t{fmt}\trows={n} items={items} skipped={skipped}\ttotal={total}\t{cats}")


if __name__ == "__main__":
    main()
