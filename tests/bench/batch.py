"""Benchmark of `treaty batch`: python tests/bench/batch.py N [--workers W] [--chunk C]

Generates a realistic ledger of N rows (tests/ledger_gen.py: mixed treaties and types, 5% bad rows of
every kind, payments on schedules) and a worst case of N rows where nearly every row is a distinct case
(random days), decides both with `run_batch`, and prints rows/s, the peak memory of the batch process
and of its largest worker, and the ratio to the naive baseline (a fresh clingo Control per row, measured
on a sample). Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pyhelpers.engine.solve import Checker
from pyhelpers.interfaces.batch import BatchError, load_batch_context, read_rows, row_scenario, run_batch
from tests.ledger_gen import CONTEXT, iter_rows, write_csv


def _peak_mb(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024


def _cpu_seconds() -> float:
    """User + system CPU of this process and of its finished children (the workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int, nargs="?", default=20000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--chunk", type=int, default=2000)
    ap.add_argument("--baseline-sample", type=int, default=200)
    ap.add_argument("--only", choices=["realistic", "worst"], help="run one of the two ledgers")
    args = ap.parse_args()
    checker = Checker().warm()
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        rates = {}
        cases = (("realistic (payments on schedules)", True), ("worst case (every row distinct)", False))
        for label, schedule in cases:
            if args.only and (args.only == "realistic") != schedule:
                continue
            ledger = tmpdir / f"ledger-{schedule}.csv"
            t0 = time.perf_counter()
            write_csv(ledger, iter_rows(args.n, seed=1, schedule=schedule))  # streamed: never all in memory
            gen = time.perf_counter() - t0
            out = tmpdir / f"out-{schedule}.csv"
            t0, cpu0 = time.perf_counter(), _cpu_seconds()
            summary = run_batch(ledger, CONTEXT, out, workers=args.workers, chunk_size=args.chunk, checker=checker)
            dt, cpu = time.perf_counter() - t0, _cpu_seconds() - cpu0
            rates[schedule] = args.n / dt
            print(f"{label}: {args.n:,} rows in {dt:.2f} s = {args.n / dt:,.0f} rows/s "
                  f"({args.workers} workers, chunks of {args.chunk}; {cpu:.2f} s of CPU; ledger generated in "
                  f"{gen:.1f} s); statuses {dict(sorted(summary.by_status.items()))}")
        if args.baseline_sample <= 0:
            print("naive baseline: not measured (--baseline-sample 0)")
            print(f"peak memory: batch process {_peak_mb(resource.RUSAGE_SELF):,.0f} MB, "
                  f"largest worker {_peak_mb(resource.RUSAGE_CHILDREN):,.0f} MB")
            return
        sample = list(itertools.islice(read_rows(ledger), args.baseline_sample))
        ctx = load_batch_context(CONTEXT, ledger, checker)
        scenarios = []
        for row in sample:
            with contextlib.suppress(BatchError):  # bad rows: the baseline decides only the good ones
                scenarios.append(row_scenario(ctx, row))
        t0 = time.perf_counter()
        for sc in scenarios:
            checker.check(sc)
        per_row = (time.perf_counter() - t0) / len(scenarios)
        print(f"naive baseline (a fresh clingo Control per row, {len(scenarios)} rows): {1 / per_row:,.0f} rows/s; "
              "batch / baseline: " + ", ".join(f"{'realistic' if k else 'worst case'} {v * per_row:,.1f}x"
                                            for k, v in rates.items()))
    print(f"peak memory: batch process {_peak_mb(resource.RUSAGE_SELF):,.0f} MB, "
          f"largest worker {_peak_mb(resource.RUSAGE_CHILDREN):,.0f} MB")


if __name__ == "__main__":
    main()
