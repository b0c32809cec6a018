"""`billaudit.audit()` is the JSON report of `billaudit audit --format json`."""

from __future__ import annotations

from decimal import Decimal

import pytest

import billaudit
from conftest import bills, cli_json


@pytest.mark.parametrize("bill", bills())
def test_audit_equals_the_cli_json_on_every_fixture(bill: str) -> None:
    assert billaudit.audit(bill, errors="report") == cli_json("audit", bill)


def test_audit_of_the_whole_fixture_tree_equals_the_cli() -> None:
    # One run over the directory: split parts (huawei-2024-11_1/_2) merge.
    report = billaudit.audit("fixtures", errors="report")
    assert report == cli_json("audit", "fixtures")
    assert len(report["bills"]) >= 40


def test_a_list_of_paths_is_one_run() -> None:
    paths = ["fixtures/csv/gpu-pod-en.csv", "fixtures/csv/clean-bill.csv"]
    assert billaudit.audit(paths) == cli_json("audit", *paths)


def test_money_is_exact_text_from_hand_arithmetic() -> None:
    # fixtures/csv/gpu-pod-en.csv by hand:
    #   compute 82.80 + 90.72 = 173.52; storage 5.00 + 35.00 = 40.00;
    #   storage_replica 10.00; bandwidth 6.00; scheduling 4.00
    #   subtotal 173.52 + 40.00 + 10.00 + 6.00 + 4.00 = 233.52
    #   total 233.52 + 18.23 (tax) - 10.00 (credit) = 241.75
    #   hidden 10.00 + 6.00 + 4.00 = 20.00 = 8.56% of 233.52, above 5%.
    bill = billaudit.audit("fixtures/csv/gpu-pod-en.csv")["bills"][0]
    t = bill["totals"]
    assert (t["compute"], t["storage"], t["storage_replica"]) == ("173.52", "40.00", "10.00")
    assert (t["bandwidth"], t["scheduling"], t["tax"], t["credit"]) == ("6.00", "4.00", "18.23", "-10.00")
    assert (bill["subtotal"], bill["total"], bill["hidden"]) == ("233.52", "241.75", "20.00")
    # Category totals add up exactly to the total.
    assert sum(Decimal(v) for v in t.values()) == Decimal(bill["total"])
    assert [f["code"] for f in bill["findings"]] == ["hidden-fee-share", "replica-redundancy"]


def test_thresholds_are_keywords_as_the_cli_flags() -> None:
    # 20.00 / 233.52 = 8.56%: under a 10% threshold, above 8%.
    bill = "fixtures/csv/gpu-pod-en.csv"
    at10 = billaudit.audit(bill, hidden_threshold="10%")
    assert at10 == cli_json("audit", bill, "--hidden-threshold", "10%")
    assert "hidden-fee-share" not in [f["code"] for f in at10["bills"][0]["findings"]]
    for value in ("0.08", Decimal("0.08"), 0.08, "8%"):
        r = billaudit.audit(bill, hidden_threshold=value)
        assert "hidden-fee-share" in [f["code"] for f in r["bills"][0]["findings"]], value
    # storage (40.00 + 10.00) / 40.00 = 1.25: under a ratio of 2 it passes.
    r = billaudit.audit(bill, redundancy_threshold=2, fail_on="warning")
    assert r == cli_json("audit", bill, "--redundancy-threshold", "2", "--fail-on", "warning")
    assert billaudit.THRESHOLD_KEYWORDS == (
        "hidden_threshold",
        "replica_threshold",
        "redundancy_threshold",
        "scheduling_threshold",
    )


def test_fail_on_warning_fails_a_bill_with_a_warning_only() -> None:
    # 233.52 and 20.00 as above: at 10% only the warning replica-redundancy is left.
    bill = "fixtures/csv/gpu-pod-en.csv"
    assert billaudit.audit(bill, hidden_threshold="10%")["passed"] is True
    assert billaudit.audit(bill, hidden_threshold="10%", fail_on="warning")["passed"] is False


def test_a_config_file_is_read_as_the_cli_reads_it(tmp_path) -> None:
    cfg = tmp_path / "billaudit.toml"
    cfg.write_text('[thresholds]\nhidden-fee-share = "10%"\n', encoding="utf-8")
    bill = "fixtures/csv/gpu-pod-en.csv"
    assert billaudit.audit(bill, cfg) == cli_json("audit", bill, "--config", str(cfg))
    assert billaudit.audit(bill, config=cfg)["passed"] is True
