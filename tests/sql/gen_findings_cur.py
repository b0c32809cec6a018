"""A seeded AWS CUR bill generator for the findings differential test
(tests/sql/findings_check.py `--generated-cur N`), beside the FOCUS one
(gen_findings.py). Even seeds write the legacy CUR header
(`lineItem/UnblendedCost`, profile `aws-cur`), odd seeds the same rows in
CUR 2.0's snake_case (`line_item_unblended_cost`, profile `aws-cur2`).

The column set is the legacy CUR's (docs/formats.md; the real
`shared/data/real/aws-cur/` exports: koku's nise CUR and the anonymous
export): `identity/*`, `bill/*`, `lineItem/*`, `pricing/*`, `product/*`,
`reservation/*`, `savingsPlan/*`. CUR 2.0 names are the legacy ones in
snake case, as AWS's Data Exports write them (`reservation/ReservationARN`
-> `reservation_reservation_a_r_n`).

Planted, in CUR's own columns (the counts are fixed by the seed, see
`planted()`):
- compute (`BoxUsage:m5.large`, `Hrs`) on some days of September 2024;
- EBS volumes (`EBS:VolumeUsage.gp3`, `GB-Mo`) per day, some attached to
  an instance id with compute of its own, and S3 storage
  (`TimedStorage-ByteHrs`) whose one row spans the month: storage on days
  without compute (idle-storage);
- exact repeats of earlier rows, and one repeat with a fresh
  `identity/LineItemId` / `identity_line_item_id` (a row-id column the
  duplicate key leaves out): duplicate-line;
- inbound traffic charged (`USE1-DataTransfer-In-Bytes`, "data transfer
  in"; `USE1-USW2-AWS-In-Bytes`, "data transfer from"): ingress-charged;
  and outbound and free inbound rows that are not;
- GPU hours (`BoxUsage:g5.xlarge`) billed as whole `Hrs` above their
  start and end: billing-rounding and billing-granularity;
- reservations (`RIFee` rows with `reservation/UnusedRecurringFee`,
  `.../UnusedAmortizedUpfrontFeeForBillingPeriod`, `DiscountedUsage`
  rows) and a Savings Plan (`SavingsPlanRecurringFee` with
  `savingsPlan/TotalCommitmentToDate` and `UsedCommitment`,
  `SavingsPlanCoveredUsage` and `SavingsPlanNegation`): unused-commitment;
- rows no rule classifies (a Marketplace product): unclassified-items;
- `Tax` and `Credit` rows; a NAT gateway (hidden-fee-share) and EBS
  snapshots (replica-redundancy) on some seeds.
- Rates and list costs that are wrong: `lineItem/UnblendedRate` x
  `UsageAmount` off the cost, and the cost above `pricing/publicOnDemandCost`.
  The CUR profiles read neither column (no unit price: the rate is rounded;
  the public cost is another view of the money, docs/formats.md), so
  `line-arithmetic` and `above-list-price` must find nothing on these rows,
  in the query as natively.
- `rate-above-reference` with tests/sql/fixtures/cur-price-book.toml (the
  unit price is cost / usage: CUR has no unit price column).
Amounts carry 2 to 10 decimals; dates are in the three forms of the real
exports (`...T00:00:00Z`, `...T00:00:00.000Z`, `2024-09-01 00:00:00`) by
seed.
"""
import csv
import random
import re
from decimal import Decimal

LEGACY = ["identity/LineItemId", "identity/TimeInterval", "bill/PayerAccountId",
          "bill/BillingPeriodStartDate", "bill/BillingPeriodEndDate", "lineItem/UsageAccountId",
          "lineItem/LineItemType", "lineItem/UsageStartDate", "lineItem/UsageEndDate",
          "lineItem/ProductCode", "lineItem/UsageType", "lineItem/Operation",
          "lineItem/ResourceId", "lineItem/UsageAmount", "lineItem/CurrencyCode",
          "lineItem/UnblendedRate", "lineItem/UnblendedCost", "lineItem/BlendedCost",
          "lineItem/LineItemDescription", "pricing/publicOnDemandCost",
          "pricing/publicOnDemandRate", "pricing/unit", "product/ProductName",
          "product/productFamily", "reservation/ReservationARN",
          "reservation/AmortizedUpfrontFeeForBillingPeriod",
          "reservation/UnusedAmortizedUpfrontFeeForBillingPeriod", "reservation/UnusedQuantity",
          "reservation/UnusedRecurringFee", "savingsPlan/SavingsPlanARN",
          "savingsPlan/TotalCommitmentToDate", "savingsPlan/UsedCommitment"]

ACCOUNT = "111122223333"
Q10 = Decimal("1E-10")


def cur2_name(legacy):
    """`lineItem/UnblendedCost` -> `line_item_unblended_cost`: each capital
    a word (so `ReservationARN` -> `reservation_a_r_n`), `/` a `_`."""
    return "_".join(re.sub(r"([A-Z])", r"_\1", part).lower().lstrip("_")
                    for part in legacy.split("/"))


def profile(seed):
    return "aws-cur" if seed % 2 == 0 else "aws-cur2"


def planted(seed):
    """How many of each kind the seed plants (fixed counts; the generator's
    random stream only picks days, resources and figures)."""
    return {"repeats": 1 + seed % 3, "fresh-id repeats": 1,
            "ingress": 1 + seed % 2, "unclassified": seed % 3, "vms": 2 + seed % 3,
            # A commitment fee is compute for the whole month (the RIFee
            # row's start and end), so a bill with one has compute every
            # day: only the storage of an instance with compute of its own
            # can be idle there. Seeds 2, 3, 6, 7, 10, 11, ... carry them.
            "commitments": seed % 4 >= 2}


def write_cur(path, seed):
    r = random.Random(seed)
    n = planted(seed)
    # The date forms of the real exports: koku's `2023-06-01 00:00:00`, the
    # anonymous export's `...T04:00:00.000Z`, the CUR spec's `...T00:00:00Z`.
    form = ["{d}T{t}Z", "{d}T{t}.000Z", "{d} {t}"][seed % 3]
    rows = []

    def ts(d, h=0, m=0, s=0):
        if d > 30:
            return form.format(d="2024-10-01", t=f"{h:02d}:{m:02d}:{s:02d}")
        return form.format(d=f"2024-09-{d:02d}", t=f"{h:02d}:{m:02d}:{s:02d}")

    def money(x, places):
        return str(Decimal(x).quantize(Decimal(1).scaleb(-places)))

    def add(kind, start, end, product, usage_type, op, res, qty, rate, desc, unit, name, family,
            cost=None, public=None, **extra):
        q = Decimal(qty)
        p = Decimal(rate)
        c = Decimal(cost) if cost is not None else q * p
        places = r.randint(2, 10)
        # A charge above zero stays above zero (0.0427 GB x 0.01 is
        # 0.000427, not 0.00), so the planted counts hold.
        if c != 0 and Decimal(money(c, places)) == 0:
            places = 10
        cost_text = money(c, places) if cost is None else str(cost)
        row = {"identity/LineItemId": f"li-{seed}-{len(rows):04d}",
               "identity/TimeInterval": f"{start}/{end}",
               "bill/PayerAccountId": ACCOUNT,
               "bill/BillingPeriodStartDate": ts(1), "bill/BillingPeriodEndDate": ts(31),
               "lineItem/UsageAccountId": ACCOUNT, "lineItem/LineItemType": kind,
               "lineItem/UsageStartDate": start, "lineItem/UsageEndDate": end,
               "lineItem/ProductCode": product, "lineItem/UsageType": usage_type,
               "lineItem/Operation": op, "lineItem/ResourceId": res,
               "lineItem/UsageAmount": str(q), "lineItem/CurrencyCode": "USD",
               "lineItem/UnblendedRate": str(p), "lineItem/UnblendedCost": cost_text,
               "lineItem/BlendedCost": cost_text, "lineItem/LineItemDescription": desc,
               "pricing/publicOnDemandCost": cost_text if public is None else str(public),
               "pricing/publicOnDemandRate": str(p), "pricing/unit": unit,
               "product/ProductName": name, "product/productFamily": family}
        row.update(extra)
        rows.append(row)
        return row

    ec2 = "Amazon Elastic Compute Cloud"
    vms = [f"i-0{seed:02d}{k:04d}" for k in range(n["vms"])]
    compute_days = sorted(r.sample(range(1, 29), r.randint(5, 12)))
    for d in compute_days:
        for vm in r.sample(vms, r.randint(1, len(vms))):
            add("Usage", ts(d), ts(d + 1), "AmazonEC2", "USE1-BoxUsage:m5.large", "RunInstances",
                vm, r.choice(["24", "12", "6"]), "0.096",
                "$0.096 per On Demand Linux m5.large Instance Hour", "Hrs", ec2,
                "Compute Instance")
    # EBS volumes, one row a day (CUR's daily granularity), on an instance
    # (compared with its own compute) or a volume id (with the bill's).
    for k in range(r.randint(3, 6)):
        res = r.choice(vms) if r.random() < 0.4 else f"vol-0{seed:02d}{k:04d}"
        for d in sorted(r.sample(range(1, 30), r.randint(1, 4))):
            add("Usage", ts(d), ts(d + 1), "AmazonEC2", "USE1-EBS:VolumeUsage.gp3", "CreateVolume-Gp3",
                res, r.choice(["0.0333333333", "1.6129032258", "3.2258064516"]), "0.08",
                "$0.08 per GB-month of General Purpose (gp3) provisioned storage - US East (N. Virginia)",
                "GB-Mo", ec2, "Storage")
    # S3: one row for the month's storage (start the 1st, end the 1st of
    # October), as koku's monthly rows.
    add("Usage", ts(1), ts(31), "AmazonS3", "TimedStorage-ByteHrs", "StandardStorage",
        f"billaudit-{seed}-logs", "12.5", "0.023",
        "$0.023 per GB - first 50 TB / month of storage used", "GB-Mo",
        "Amazon Simple Storage Service", "Storage")
    # Traffic: inbound charged (a finding), inbound free (amount 0: none),
    # outbound (none).
    for k in range(n["ingress"]):
        ut, desc = [("USE1-DataTransfer-In-Bytes", "$0.01 per GB - data transfer in per month"),
                    ("USE1-USW2-AWS-In-Bytes",
                     "$0.01 per GB - US East (N. Virginia) data transfer from US West (Oregon)")][k % 2]
        add("Usage", ts(compute_days[0]), ts(compute_days[0] + 1), "AWSDataTransfer", ut,
            "RunInstances", vms[0], r.choice(["3.5", "0.0427", "120"]), "0.01", desc, "GB",
            "AWS Data Transfer", "Data Transfer")
    add("Usage", ts(compute_days[0]), ts(compute_days[0] + 1), "AWSDataTransfer",
        "DataTransfer-In-Bytes", "RunInstances", vms[0], "7.25", "0.00",
        "$0.00 per GB - data transfer in per month", "GB", "AWS Data Transfer", "Data Transfer")
    add("Usage", ts(compute_days[-1]), ts(compute_days[-1] + 1), "AWSDataTransfer",
        "USE1-DataTransfer-Out-Bytes", "RunInstances", vms[-1], "14.2", "0.09",
        "$0.09 per GB - first 10 TB / month data transfer out beyond the global free tier",
        "GB", "AWS Data Transfer", "Data Transfer")
    # Share checks: on seeds 1, 4, 7, 10 a NAT gateway for the month
    # (720 h x 0.045 = 32.40) and 2000 GB through it (x 0.045 = 90.00),
    # bandwidth above 5% of the subtotal (hidden-fee-share); on seeds 2, 5,
    # 8, 11 EBS snapshots of 0.75 to 2.25, above 1.2x the primary storage
    # (replica-redundancy).
    if seed % 3 == 1:
        add("Usage", ts(1), ts(31), "AmazonEC2", "USE1-NatGateway-Hours", "NatGateway",
            f"nat-0{seed:02d}", "720", "0.045", "$0.045 per NAT Gateway Hour", "Hrs", ec2,
            "NAT Gateway")
        add("Usage", ts(1), ts(31), "AmazonEC2", "USE1-NatGateway-Bytes", "NatGateway",
            f"nat-0{seed:02d}", "2000", "0.045", "$0.045 per GB Data Processed by NAT Gateways",
            "GB", ec2, "NAT Gateway")
    if seed % 3 == 2:
        add("Usage", ts(1), ts(31), "AmazonEC2", "USE1-EBS:SnapshotUsage", "CreateSnapshot",
            f"snap-0{seed:02d}", r.choice(["15", "30", "45"]), "0.05",
            "$0.05 per GB-Month of snapshot data stored - US East (N. Virginia)", "GB-Mo", ec2,
            "Storage Snapshot")
    # Rates and public costs that are wrong, in columns the CUR profiles do
    # not read: 10 h x 0.17 = 1.70 billed 1.71 (rate x amount off), and
    # 24 h x 0.2 = 4.80 public, billed 5.50 (above the public cost).
    add("Usage", ts(compute_days[0]), ts(compute_days[0], 10), "AmazonEC2",
        "USE1-BoxUsage:c5.xlarge", "RunInstances", vms[0], "10", "0.17",
        "$0.17 per On Demand Linux c5.xlarge Instance Hour", "Hrs", ec2, "Compute Instance",
        cost="1.71")
    add("Usage", ts(compute_days[-1]), ts(compute_days[-1] + 1), "AmazonRDS",
        "USE1-InstanceUsage:db.m5.large", "CreateDBInstance:0002", f"db-{seed}", "24", "0.2",
        "$0.20 per RDS db.m5.large instance hour running MySQL", "Hrs",
        "Amazon Relational Database Service", "Database Instance", cost="5.50",
        public=Decimal("4.80"))
    # Hours rounded up: (quantity, minutes, seconds elapsed). 2 h 10 min
    # billed 3; 20 min billed 1; 2 h 30 min billed 3 (exactly the half unit:
    # not rounding, past the minute of granularity); 10 h 59 min billed 11
    # (60 s short: neither); 1 h billed 1 (exact); 1 h 1 min billed 2.
    # The first is on every bill, the others drawn.
    gd = r.choice(compute_days)
    for q, mins, secs in [("3", 130, 0)] + r.sample([("1", 20, 0), ("3", 150, 0), ("11", 659, 0),
                                                     ("1", 60, 0), ("2", 61, 0)], r.randint(2, 5)):
        h0 = r.randint(0, 3)
        end = (h0 * 60 + mins) * 60 + secs
        add("Usage", ts(gd, h0), ts(gd + end // 86400, end // 3600 % 24, end // 60 % 60, end % 60),
            "AmazonEC2", "USE1-BoxUsage:g5.xlarge", "RunInstances", vms[-1], q, "1.006",
            "$1.006 per On Demand Linux g5.xlarge Instance Hour", "Hrs", ec2, "Compute Instance")
    # Rows no rule classifies.
    for k in range(n["unclassified"]):
        add("Usage", ts(2), ts(3), "prod-7hx2kq4b", "Widget-Units", "Unit", "", "1", "12.50",
            "Quarterly widget subscription", "Units", "Widget Co", "")
    # Tax and a credit.
    add("Tax", ts(1), ts(31), "AmazonEC2", "", "", "", "1", "0", "Tax for product code AmazonEC2",
        "", ec2, "", cost=money(Decimal(r.randint(100, 900)) / 7, 4))
    add("Credit", ts(1), ts(31), "AmazonEC2", "", "", "", "1", "0",
        "AWS Promotional Credit applied", "", ec2, "", cost="-" + money(Decimal(r.randint(1, 9)), 2))
    # Exact repeats of earlier rows (not of a row of amount 0), and a
    # repeat with a fresh line-item id.
    payable = [row for row in rows if Decimal(row["lineItem/UnblendedCost"]) != 0]
    for k in range(n["repeats"]):
        rows.insert(r.randint(len(rows) // 2, len(rows)), dict(r.choice(payable)))
    for k in range(n["fresh-id repeats"]):
        again = dict(r.choice(payable))
        again["identity/LineItemId"] = f"li-{seed}-again-{k}"
        rows.append(again)
    # Commitments (their own random stream, so the rows above stay as they
    # were). A reservation of 720 h at 0.50 + 0.20 amortised upfront: RIFee
    # cost 360.00 + 144.00 = 504.00; unused hours u give
    # UnusedRecurringFee u x 0.50 and UnusedAmortizedUpfront u x 0.20,
    # share u / 720: 0 (0%), 72 (10%, not above), 80 (11.11%: warning),
    # 180 (25%, not above 25%: warning), 240 (33.33%: error). A Savings Plan
    # of 100.00 with 88.00, 90.00 or 60.00 used: 12%, 10%, 40% unused.
    c = random.Random(seed + 1000)
    for k in range(c.randint(1, 2) if n["commitments"] else 0):
        arn = f"arn:aws:ec2:us-east-1:{ACCOUNT}:reserved-instances/ri-{seed}-{k}"
        # The first reservation of a bill is a third unused (an error).
        unused = Decimal(c.choice(["0", "72", "80", "180", "240"]) if k else "240")
        add("RIFee", ts(1), ts(31), "AmazonEC2", "HeavyUsage:g5.xlarge", "RunInstances", "",
            "720", "0.50", "USD 0.50 hourly fee per Linux/UNIX (Amazon VPC) g5.xlarge", "Hrs", ec2,
            "Compute Instance", cost="360.00",
            **{"reservation/ReservationARN": arn,
               "reservation/AmortizedUpfrontFeeForBillingPeriod": "144.00",
               "reservation/UnusedAmortizedUpfrontFeeForBillingPeriod": str(unused * Decimal("0.20")),
               "reservation/UnusedQuantity": str(unused),
               "reservation/UnusedRecurringFee": str(unused * Decimal("0.50"))})
        if unused < 720:
            add("DiscountedUsage", ts(1), ts(31), "AmazonEC2", "USE1-BoxUsage:g5.xlarge",
                "RunInstances", vms[0], str(720 - unused), "0.00",
                "Linux/UNIX (Amazon VPC) g5.xlarge reserved instance applied", "Hrs", ec2,
                "Compute Instance", cost="0.00", **{"reservation/ReservationARN": arn})
    if n["commitments"] and c.random() < 0.6:
        arn = f"arn:aws:savingsplans::{ACCOUNT}:savingsplan/sp-{seed}"
        used = c.choice(["88.00", "90.00", "60.00"])
        add("SavingsPlanRecurringFee", ts(1), ts(31), "ComputeSavingsPlans", "ComputeSP:1yrNoUpfront",
            "", "", "1", "100.00", "1 year No Upfront Compute Savings Plan", "", "Savings Plans",
            "", cost="100.00", **{"savingsPlan/SavingsPlanARN": arn,
                                  "savingsPlan/TotalCommitmentToDate": "100.00",
                                  "savingsPlan/UsedCommitment": used})
        add("SavingsPlanCoveredUsage", ts(compute_days[0]), ts(compute_days[0] + 1), "AmazonEC2",
            "USE1-BoxUsage:m5.large", "RunInstances", vms[0], "24", "0.096",
            "$0.096 per On Demand Linux m5.large Instance Hour", "Hrs", ec2, "Compute Instance",
            cost="2.304", **{"savingsPlan/SavingsPlanARN": arn})
        add("SavingsPlanNegation", ts(compute_days[0]), ts(compute_days[0] + 1), "AmazonEC2",
            "USE1-BoxUsage:m5.large", "RunInstances", vms[0], "24", "0.096",
            "SavingsPlanNegation used by AccountId : 111122223333 and UsageSku : ABCD1234", "Hrs",
            ec2, "Compute Instance", cost="-2.304", **{"savingsPlan/SavingsPlanARN": arn})
    header = LEGACY if profile(seed) == "aws-cur" else [cur2_name(h) for h in LEGACY]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for row in rows:
            w.writerow([row.get(h, "") for h in LEGACY])
