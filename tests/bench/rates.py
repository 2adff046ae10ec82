"""Benchmark of `treaty rates`: python tests/bench/rates.py [TREATY...]

Computes each treaty's rate table (default: every treaty) with one warmed Checker and prints, per
treaty, the rows, the situations decided (complete scenarios: every combination of the open facts'
values) and the seconds taken, then the seconds to check every row's witness scenario with
`Checker.check`. Figures only: nothing is asserted.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pyhelpers.engine import rates
from pyhelpers.engine.solve import Checker
from pyhelpers.scenario.catalogue import catalogue


def main() -> None:
    chosen = sys.argv[1:] or list(catalogue().treaties)
    checker = Checker().warm()
    decided = 0
    original = checker.check_together

    def counting(scenarios):  # type: ignore[no-untyped-def]
        nonlocal decided
        decided += len(scenarios)
        return original(scenarios)

    checker.check_together = counting  # type: ignore[method-assign]
    for treaty in chosen:
        decided = 0
        start = time.perf_counter()
        table = rates.rate_table(checker, [treaty])
        took = time.perf_counter() - start
        start = time.perf_counter()
        for row in table.rows:
            rates.witness_answer(checker, row)
        check = time.perf_counter() - start
        print(f"{treaty}: {len(table.rows)} rows from {decided} situations in {took:.1f} s; "
              f"witnesses checked in {check:.1f} s")


if __name__ == "__main__":
    main()
