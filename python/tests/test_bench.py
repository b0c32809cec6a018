"""A benchmark, not a timed test: one large bill audited from Python
(in-process) and by the CLI (the Rust binary, and the wheel's command). It
checks that the three agree and that the totals are the hand-computed ones,
and prints the times (docs/python.md records them); it never fails on time.

Size: $BILLAUDIT_BENCH_CYCLES cycles of 7 rows (default 10 000: 70 000 rows,
small enough for CI's debug build; docs/python.md has a release build on more).
"""

from __future__ import annotations

import json
import os
import time
from decimal import Decimal
from pathlib import Path

import billaudit
from conftest import ROOT, binary, run, wheel_command

ROWS = [
    "2025-10-01,RTX 4090 GPU pod (on-demand),pod-7f3a,120,hours,0.69,82.80",
    "2025-10-01,A100 80GB GPU pod (on-demand),pod-91bc,48,hours,1.89,90.72",
    "2025-10-02,Container disk (stopped pod),pod-7f3a,50,GB-month,0.10,5.00",
    "2025-10-02,Network volume 500 GB,vol-01,500,GB-month,0.07,35.00",
    "2025-10-05,Volume snapshot,snap-01,200,GB-month,0.05,10.00",
    "2025-10-06,Public egress traffic,,120,GB,0.05,6.00",
    "2025-10-07,Serverless platform fee,,1,month,4.00,4.00",
]


def write_bill(path: Path, cycles: int) -> None:
    with path.open("w", encoding="utf-8") as f:
        f.write("Date,Description,Pod ID,Quantity,Unit,Unit Price,Amount (USD)\n")
        for c in range(cycles):
            # A distinct pod id per cycle, so no row repeats another.
            for r in ROWS:
                f.write(r.replace("pod-", f"pod{c}-").replace("vol-", f"vol{c}-").replace("snap-", f"snap{c}-"))
                f.write("\n")


def timed(f):
    start = time.perf_counter()
    out = f()
    return out, time.perf_counter() - start


def test_benchmark_a_large_bill_from_python_and_the_cli(tmp_path: Path) -> None:
    cycles = int(os.environ.get("BILLAUDIT_BENCH_CYCLES", "10000"))
    bill = tmp_path / "large.csv"
    write_bill(bill, cycles)
    py, t_py = timed(lambda: billaudit.audit(bill))
    rust, t_rust = timed(lambda: run(binary(), "audit", "--format", "json", str(bill)))
    wheel, t_wheel = timed(lambda: run(wheel_command(), "audit", "--format", "json", str(bill)))
    items, t_lines = timed(lambda: sum(1 for _ in billaudit.lines(bill)))
    assert py == json.loads(rust.stdout) == json.loads(wheel.stdout)
    assert items == 7 * cycles
    b = py["bills"][0]
    # Per cycle (fixtures/csv/gpu-pod-en.csv without tax and credit):
    # compute 82.80 + 90.72 = 173.52, storage 5.00 + 35.00 = 40.00,
    # hidden 10.00 + 6.00 + 4.00 = 20.00, subtotal 233.52.
    assert Decimal(b["totals"]["compute"]) == Decimal("173.52") * cycles
    assert Decimal(b["subtotal"]) == Decimal("233.52") * cycles
    assert Decimal(b["hidden"]) == Decimal("20.00") * cycles
    size = bill.stat().st_size / 2**20
    text = (
        f"benchmark: {7 * cycles} rows, {size:.1f} MiB: "
        f"billaudit.audit() {t_py:.2f} s, Rust binary {t_rust:.2f} s, "
        f"wheel command {t_wheel:.2f} s, billaudit.lines() {t_lines:.2f} s"
    )
    print(text)
    (ROOT / "target").mkdir(exist_ok=True)
    (ROOT / "target/python-bench.txt").write_text(text + "\n", encoding="utf-8")




def test_the_gil_is_released_while_a_bill_is_read(tmp_path: Path) -> None:
    # While audit() runs on a worker thread, this thread keeps running
    # Python: the longest pause between two of its steps is a small part of
    # the call. Were the GIL held, one pause would last the whole call.
    import threading

    bill = tmp_path / "large.csv"
    write_bill(bill, 5000)
    done = threading.Event()
    worker = threading.Thread(target=lambda: (billaudit.audit(bill), done.set()))
    steps = []
    start = time.perf_counter()
    worker.start()
    while not done.is_set():
        steps.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    took = time.perf_counter() - start
    gaps = [b - a for a, b in zip(steps, steps[1:])] or [took]
    assert len(steps) > 10, (len(steps), took)
    assert max(gaps) < took / 2, (max(gaps), took)
