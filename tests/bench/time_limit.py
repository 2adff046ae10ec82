"""Benchmark: does the default time limit suffice for every shipped scenario (issue 23: with a margin of
5x on two cores)? Run directly, not collected by pytest:

    .venv/bin/python tests/bench/time_limit.py [--cpu]

Checks every scenario under scenarios/ once (``Checker.check``, the checker warmed first) and prints the
slowest ten, the number of scenarios, and the margin: the default limit divided by the slowest check.
With ``--cpu`` the times are the process's CPU time (steadier on a loaded machine). Figures only.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pyhelpers.engine.alternatives import DEFAULT_TIME_LIMIT  # noqa: E402
from pyhelpers.engine.solve import Checker  # noqa: E402
from pyhelpers.scenario import load_file  # noqa: E402


def main() -> None:
    clock = time.process_time if "--cpu" in sys.argv else time.perf_counter
    checker = Checker().warm()
    times: list[tuple[float, str]] = []
    for path in sorted((ROOT / "scenarios").rglob("*.yaml")):
        scenario = load_file(path)
        start = clock()
        result = checker.check(scenario, str(path))
        took = clock() - start
        times.append((took, str(path.relative_to(ROOT)) + (" (INCOMPLETE)" if result.incomplete else "")))
    times.sort(reverse=True)
    print(f"{len(times)} scenarios; default time limit {DEFAULT_TIME_LIMIT:g} s")
    print("slowest checks:")
    for took, name in times[:10]:
        print(f"  {took * 1000:8.0f} ms  {name}")
    print(f"total {sum(t for t, _ in times):.1f} s; margin: {DEFAULT_TIME_LIMIT / times[0][0]:.1f}x the slowest")


if __name__ == "__main__":
    main()
