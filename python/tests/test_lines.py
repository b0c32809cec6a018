"""`billaudit.lines()` and `lines_arrow()` give every item of
`billaudit lines --format json`."""

from __future__ import annotations

from decimal import Decimal

import pytest

import billaudit
from conftest import bills, cli_json, require


@pytest.mark.parametrize("bill", bills())
def test_lines_equal_the_cli_on_every_fixture(bill: str) -> None:
    items = list(billaudit.lines(bill))
    cli = cli_json("lines", bill)
    assert len(items) == len(cli)
    assert items == cli


def test_lines_by_hand() -> None:
    # fixtures/csv/gpu-pod-en.csv: 9 rows from line 5 to line 13.
    items = list(billaudit.lines("fixtures/csv/gpu-pod-en.csv"))
    assert [i["line"] for i in items] == list(range(5, 14))
    assert items[0] == {
        "path": "fixtures/csv/gpu-pod-en.csv",
        "line": 5,
        "category": "compute",
        "amount": "82.80",
        "currency": "USD",
        "rule": "builtin:compute",
        "description": "RTX 4090 GPU pod (on-demand)",
    }
    # (10.00) is a credit of -10.00.
    assert items[-1]["amount"] == "-10.00"


pa = require("pyarrow")


@pytest.mark.parametrize("bill", bills())
def test_lines_arrow_has_every_item_exactly(bill: str) -> None:
    t = billaudit.lines_arrow(bill)
    items = list(billaudit.lines(bill))
    assert t.num_rows == len(items)
    rows = t.to_pylist()
    for row, item in zip(rows, items):
        amount = row.pop("amount")
        want = dict(item)
        assert Decimal(str(amount)) == Decimal(want.pop("amount"))
        assert row == want


def test_lines_arrow_types_and_sums_by_hand() -> None:
    t = billaudit.lines_arrow("fixtures/csv/gpu-pod-en.csv")
    assert str(t.schema.field("amount").type) == "decimal128(38, 2)"
    assert str(t.schema.field("line").type) == "uint64"
    by = {}
    for row in t.to_pylist():
        by[row["category"]] = by.get(row["category"], Decimal(0)) + row["amount"]
    # As in test_audit: compute 82.80 + 90.72 = 173.52, storage 5.00 + 35.00 = 40.00.
    assert by["compute"] == Decimal("173.52")
    assert by["storage"] == Decimal("40.00")
    assert sum(by.values()) == Decimal("241.75")


def test_lines_arrow_of_several_files_is_one_table() -> None:
    paths = ["fixtures/csv/gpu-pod-en.csv", "fixtures/csv/clean-bill.csv"]
    t = billaudit.lines_arrow(paths)
    assert t.num_rows == sum(len(cli_json("lines", p)) for p in paths)
