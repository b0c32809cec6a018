#!/usr/bin/env python3
"""Unused commitment money per commitment id, computed independently of
billaudit (standard library `csv` and `decimal` only), for the
`unused-commitment` check's tests (tests/integration/commitments.rs).

The reading is the one docs/checks.md states, from the columns' own
documentation, not from billaudit's code:

- FOCUS: per `CommitmentDiscountId`, unused = sum of `EffectiveCost` of the
  `CommitmentDiscountStatus = Unused` rows; cost = sum of `EffectiveCost`
  of its `Used` and `Unused` rows (the amortised view; `Purchase` rows
  are the billed view and are not added).
- AWS CUR (legacy names): `RIFee` rows: unused = UnusedRecurringFee +
  UnusedAmortizedUpfrontFeeForBillingPeriod, cost = UnblendedCost +
  AmortizedUpfrontFeeForBillingPeriod; `SavingsPlanRecurringFee` rows:
  cost = TotalCommitmentToDate, unused = cost - UsedCommitment.
- Azure amortised cost: per `ReservationId`, unused = cost of
  `ChargeType = UnusedReservation`/`UnusedSavingsPlan` rows; cost = that +
  the cost of `Usage` rows naming the reservation.

Usage: python3 scripts/unused_commitment.py FILE.csv ...
Prints one line per commitment with any cost:
    FILE<TAB>ID<TAB>UNUSED<TAB>COST<TAB>SHARE (6 places, half away from zero)
"""
import csv
import sys
from decimal import Decimal, ROUND_HALF_UP

PLACEHOLDERS = {"", "null", "n/a", "-", "--"}


def num(cell):
    s = (cell or "").strip()
    return None if s.lower() in PLACEHOLDERS else Decimal(s)


def text(cell):
    s = (cell or "").strip()
    return None if s.lower() in PLACEHOLDERS else s


def rows(path):
    with open(path, newline="", encoding="utf-8-sig") as f:
        yield from csv.DictReader(f)


def commitments(path):
    found = {}  # id -> [unused, cost], in order of first row

    def add(cid, unused, cost):
        u = found.setdefault(cid or "(no id)", [Decimal(0), Decimal(0)])
        u[0] += unused
        u[1] += cost

    for r in rows(path):
        if "CommitmentDiscountStatus" in r:
            status = (text(r.get("CommitmentDiscountStatus")) or "").lower()
            eff = num(r.get("EffectiveCost"))
            if eff is None:
                eff = num(r.get("BilledCost")) or Decimal(0)
            cid = text(r.get("CommitmentDiscountId"))
            if status == "unused":
                add(cid, eff, eff)
            elif status == "used":
                add(cid, Decimal(0), eff)
        elif "lineItem/LineItemType" in r:
            kind = r["lineItem/LineItemType"].strip()
            z = Decimal(0)
            if kind == "RIFee":
                unused = (num(r.get("reservation/UnusedRecurringFee")) or z) + (
                    num(r.get("reservation/UnusedAmortizedUpfrontFeeForBillingPeriod")) or z)
                cost = (num(r.get("lineItem/UnblendedCost")) or z) + (
                    num(r.get("reservation/AmortizedUpfrontFeeForBillingPeriod")) or z)
                add(text(r.get("reservation/ReservationARN")), unused, cost)
            elif kind == "SavingsPlanRecurringFee":
                total = num(r.get("savingsPlan/TotalCommitmentToDate"))
                if total is not None:
                    used = num(r.get("savingsPlan/UsedCommitment")) or z
                    add(text(r.get("savingsPlan/SavingsPlanARN")), max(total - used, z), total)
        elif "ChargeType" in r:
            kind = (r.get("ChargeType") or "").strip().lower()
            cid = text(r.get("ReservationId")) or text(r.get("benefitId"))
            cost = num(r.get("CostInBillingCurrency")) or Decimal(0)
            if kind in ("unusedreservation", "unusedsavingsplan"):
                add(cid, cost, cost)
            elif kind == "usage" and cid:
                add(cid, Decimal(0), cost)
    return found


def main():
    for path in sys.argv[1:]:
        for cid, (unused, cost) in commitments(path).items():
            share = (unused / cost).quantize(Decimal("0.000001"), ROUND_HALF_UP) if cost > 0 else None
            print(f"{path}\t{cid}\t{unused}\t{cost}\t{share}")


if __name__ == "__main__":
    main()
