"""A seeded FOCUS bill generator for the findings differential test
(tests/sql/findings_check.py): compute and storage on overlapping days,
storage on days without compute (per resource and in the bill), monthly
single-date storage rows, exact repeats of earlier rows, block prices
(`1K Requests`, `per 1M requests`) that are right and wrong, quantity x
price overcharges, amounts above the list cost, inbound and outbound
traffic, rows no rule classifies, lines billed above their contract
(`ContractedCost`, or `ContractedUnitPrice` x quantity, within and past
rounding, the discount given in `EffectiveCost`), compute hours rounded up to
the hour or the day and some that are not (the half unit of the quantity,
the minute of slack, several GPUs, a fractional quantity), reservations with
used and unused hours (FOCUS 1.2 `CommitmentDiscountId` /
`CommitmentDiscountStatus`, shares below, at and above 10% and 25%, a
purchase row that is not counted). Amounts carry 2 to 10 decimals. The column
set is FOCUS 1.0's (docs/formats.md, the FinOps FOCUS spec) and the two
commitment columns."""
import csv
import random
from decimal import Decimal

COLUMNS = ["BillingAccountId", "BillingCurrency", "BillingPeriodStart", "ChargeCategory",
           "ChargeDescription", "ChargePeriodStart", "ChargePeriodEnd", "BilledCost", "ListCost",
           "ListUnitPrice", "PricingQuantity", "PricingUnit", "ResourceId", "ServiceName",
           "ServiceCategory", "SkuId", "ContractedCost", "ContractedUnitPrice", "EffectiveCost",
           "CommitmentDiscountId", "CommitmentDiscountStatus"]


def day(d, h=0):
    return f"2024-09-{d:02d}T{h:02d}:00:00Z"


def write_focus(path, seed):
    r = random.Random(seed)
    rows = []

    def add(desc, cat, svc, start, end, qty, unit, price, res, list_cost=None, billed=None, charge="Usage",
            contracted=None, contracted_price="", effective=None):
        q = Decimal(qty)
        p = Decimal(price)
        lc = list_cost if list_cost is not None else (q * p).quantize(Decimal("1E-10"))
        bc = billed if billed is not None else lc
        rows.append({"BillingAccountId": "acct-1", "BillingCurrency": "USD",
                     "BillingPeriodStart": "2024-09-01T00:00:00Z", "ChargeCategory": charge,
                     "ChargeDescription": desc, "ChargePeriodStart": start, "ChargePeriodEnd": end,
                     "BilledCost": str(bc), "ListCost": str(lc), "ListUnitPrice": str(p),
                     "PricingQuantity": str(q), "PricingUnit": unit, "ResourceId": res,
                     "ServiceName": svc, "ServiceCategory": cat, "SkuId": f"sku-{r.randint(1, 9)}",
                     "ContractedCost": str(lc if contracted is None else contracted),
                     "ContractedUnitPrice": contracted_price,
                     "EffectiveCost": str(bc if effective is None else effective)})

    vms = [f"i-{seed}{k:03d}" for k in range(r.randint(2, 4))]
    compute_days = sorted(r.sample(range(1, 29), r.randint(5, 15)))
    for d in compute_days:
        for vm in r.sample(vms, r.randint(1, len(vms))):
            add("Linux on-demand m5.large instance hours", "Compute", "Amazon Elastic Compute Cloud",
                day(d), day(d + 1), r.choice(["24", "12", "6"]), "Hours", "0.096", vm)
    # Storage attached to a VM (compared with its own compute) or alone
    # (compared with the bill's compute days).
    for k in range(r.randint(3, 8)):
        res = r.choice(vms) if r.random() < 0.4 else f"vol-{seed}{k:03d}"
        for d in sorted(r.sample(range(1, 30), r.randint(1, 4))):
            span = r.choice([1, 1, 2, 3])
            add("General Purpose SSD (gp3) storage GB-month", "Storage", "Amazon Elastic Block Store",
                day(d), day(min(d + span, 30)), r.choice(["0.0333", "1.5", "2.25"]), "GB-Months",
                r.choice(["0.08", "0.1", "0.125"]), res)
    # Monthly storage: one single-date row per month.
    for k in range(r.randint(1, 3)):
        add("S3 Standard storage GB-month", "Storage", "Amazon Simple Storage Service",
            day(r.randint(1, 28)), "", "10", "GB-Months", "0.023", f"bucket-{seed}-{k}")
    # Block prices: a quantity in single requests against a price per 1K.
    for k in range(r.randint(2, 5)):
        q = r.choice([5000, 12000, 250000])
        p = Decimal(r.choice(["0.004", "0.0004", "0.005"]))
        right = (Decimal(q) * p / 1000).quantize(Decimal("1E-10"))
        wrong = right * 3 if r.random() < 0.4 else right
        add("PUT, COPY, POST or LIST requests", "Storage", "Amazon Simple Storage Service",
            day(r.randint(1, 28)), day(r.randint(1, 28)), str(q), "1K Requests", str(p),
            f"bucket-{seed}-r", list_cost=wrong, billed=wrong)
    # Overcharges: quantity x price off the list cost.
    for k in range(r.randint(1, 4)):
        add("Linux on-demand c5.xlarge instance hours", "Compute", "Amazon Elastic Compute Cloud",
            day(compute_days[0]), day(compute_days[0] + 1), "10", "Hours", "0.17", vms[0],
            list_cost=Decimal("1.7") + Decimal(r.choice(["0.01", "0.5", "0.00000000004"])))
    # Above the list cost.
    for k in range(r.randint(0, 3)):
        add("Managed database instance hours", "Databases", "Amazon Relational Database Service",
            day(compute_days[-1]), day(compute_days[-1] + 1), "24", "Hours", "0.2", f"db-{k}",
            list_cost=Decimal("4.80"), billed=Decimal(r.choice(["4.81", "4.800001", "5.5"])))
    # Above the contract: 24 h x 0.2 = 4.80 listed, the contract 4.32
    # (ContractedCost) or 0.18/h (ContractedUnitPrice, ContractedCost
    # empty), billed 4.80, 4.3250 (within 0.005 of 4.32 + 0.00005) or
    # 4.33; some with the discount given in EffectiveCost (4.32).
    for k in range(r.randint(1, 4)):
        by_price = r.random() < 0.5
        add("GPU on-demand instance hours", "Compute", "Amazon Elastic Compute Cloud",
            day(compute_days[0]), day(compute_days[0] + 1), "24", "Hours", "0.2", vms[0],
            list_cost=Decimal("4.80"), billed=Decimal(r.choice(["4.80", "4.3250", "4.33", "4.32"])),
            contracted="" if by_price else "4.32", contracted_price="0.18" if by_price else "",
            effective=Decimal("4.32") if r.random() < 0.3 else None)
    # Hours rounded up (billing-rounding, billing-granularity): GPU hours
    # billed for a start and end that span less, in the unit spellings of
    # FOCUS, CUR and Azure exports. (q, unit, minutes elapsed, seconds):
    # 2 h 10 min billed 3 h; 20 min billed 1; 5 h billed 24 (a day); 2 h 30
    # min billed 3 (exactly the half unit of `3`: not rounding, but more
    # than the minute of granularity); 2 h 59 min 30 s billed 3.00 (30 s
    # above the half unit 18 s of `3.00`; within the minute); 10 h 59 min
    # billed 11 (60 s short: neither); 8 GPUs x 2 h billed 16 (neither);
    # 25 h billed 2 days; 23 h 50 min billed 24 Hours (a block of 24).
    planted = [("3", "Hours", 130, 0), ("1", "Hrs", 20, 0), ("24", "Hours", 300, 0),
               ("3", "GPU-hour", 150, 0), ("3.00", "Hours", 179, 30), ("11", "Hours", 659, 0),
               ("16", "Hours", 120, 0), ("2", "Days", 1500, 0), ("1", "24 Hours", 1430, 0),
               ("2", "1 Hour", 61, 0), ("1", "hour(s)", 59, 59)]
    gd = r.choice(compute_days)
    for q, unit, mins, secs in r.sample(planted, r.randint(3, len(planted))):
        h0 = r.randint(0, 3)
        end = (h0 * 60 + mins) * 60 + secs
        frac = r.choice(["", "", ".5"])
        add("GPU instance hours (g5.xlarge)", "Compute", "Amazon Elastic Compute Cloud",
            f"2024-09-{gd:02d}T{h0:02d}:00:00{frac}Z",
            f"2024-09-{gd + end // 86400:02d}T{end // 3600 % 24:02d}:{end // 60 % 60:02d}:{end % 60:02d}Z",
            q, unit, "1.006", vms[-1])
    # One fractional quantity of compute hours silences billing-granularity.
    if r.random() < 0.3:
        add("GPU instance hours (g5.xlarge)", "Compute", "Amazon Elastic Compute Cloud",
            day(gd, 5), day(gd, 7), "1.5", "Hours", "1.006", vms[-1])
    # Traffic both ways.
    for k in range(r.randint(1, 4)):
        add(r.choice(["Data Transfer In from internet", "Data Transfer Out to internet",
                      "Inter-region ingress", "Regional egress and ingress"]),
            "Networking", "AWS Data Transfer", day(r.randint(1, 28)), day(r.randint(1, 28)),
            "3.5", "GB", "0.09", "")
    # Rows no rule classifies.
    for k in range(r.randint(0, 3)):
        add("Quarterly widget subscription", "", "Widget Co", day(2), day(3), "1", "Units",
            "12.50", "")
    # Exact repeats of earlier rows.
    for k in range(r.randint(1, 5)):
        rows.insert(r.randint(len(rows) // 2, len(rows)), dict(r.choice(rows)))
    # Reservations (their own random stream, so the rows above stay as
    # they were): used and unused hours at 1.25 an hour, BilledCost 0 and
    # the amortised cost in EffectiveCost, as the FOCUS spec's commitment
    # scenarios write them; the purchase row is the billed view. Unused
    # shares: 0, 73/730 = 10% (not above), 80/730 = 10.96% (a warning),
    # 182.5/730 = 25% (not above 25%: a warning), 230/730 = 31.51% (an
    # error); a used row with no id pools under `(no id)`.
    c = random.Random(seed + 1000)
    rate = Decimal("1.25")
    for k in range(c.randint(1, 3)):
        cid = f"ri-{seed}-{k}"
        used, unused = c.choice([("730", "0"), ("657", "73"), ("650", "80"), ("547.5", "182.5"),
                                 ("500", "230")])
        add("GPU reservation purchase", "Compute", "Amazon Elastic Compute Cloud",
            day(compute_days[0]), day(compute_days[0] + 1), "730", "Hours", str(rate), cid,
            charge="Purchase", effective=Decimal("0"))
        rows[-1]["CommitmentDiscountId"] = cid
        for hours, status in [(used, "Used"), (unused, "Unused")]:
            if Decimal(hours) == 0:
                continue
            add("GPU reserved instance hours", "Compute", "Amazon Elastic Compute Cloud",
                day(compute_days[0]), day(compute_days[0] + 1), hours, "Hours", str(rate),
                vms[0] if status == "Used" else cid, billed=Decimal("0"),
                effective=(Decimal(hours) * rate))
            rows[-1]["CommitmentDiscountId"] = cid
            rows[-1]["CommitmentDiscountStatus"] = status
    if c.random() < 0.5:
        add("GPU reserved instance hours", "Compute", "Amazon Elastic Compute Cloud",
            day(compute_days[0]), day(compute_days[0] + 1), "10", "Hours", str(rate), vms[0],
            billed=Decimal("0"), effective=Decimal("12.50"))
        rows[-1]["CommitmentDiscountStatus"] = "Used"
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS)
        w.writeheader()
        w.writerows(rows)
