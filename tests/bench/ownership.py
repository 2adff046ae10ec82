"""Benchmark of ownership chains (issue 26): python tests/bench/ownership.py [DEPTH ...]
or python tests/bench/ownership.py --facts [PERSONS [ITEMS]]

With --facts: the seconds and the count of the facts of tests/bench/large.py's many_persons(PERSONS)
(1,500 by default) and many_items(ITEMS) (3,000 by default) (Checker().facts: the interests are computed
only where a treaty's rules declare they read them, measured_interests).

For each depth, a ladder of holdings (tests/ownership_gen.py: two holders per level, each holding 50% of
each of the next level's two, so 2^depth chains from a top holder to the claimant; br-uy 29(2)(e) decides
the entitlement) and a single chain of 100% are checked, each in a fresh process; prints the seconds of
the check (facts, grounding, solving) and the peak memory of that process, and whether the answer
matched the scenario's expectation. Figures only: nothing is asserted (tests/test_ownership_chains.py
asserts the answers). Before issue 26 every chain was listed: 18 levels took 82 s and 0.9 GB.
"""

from __future__ import annotations

import multiprocessing
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pyhelpers.engine.expect import compare
from pyhelpers.engine.solve import Checker
from pyhelpers.scenario import load_text
from tests.ownership_gen import chain, ladder

DEPTHS = (6, 10, 14, 18, 24, 30)


def _run(make: Callable[[int], str], depth: int, out: multiprocessing.Queue[tuple[float, float, bool]]) -> None:
    checker = Checker().warm()
    scenario = load_text(make(depth))
    t0 = time.perf_counter()
    result = checker.check(scenario)
    seconds = time.perf_counter() - t0
    out.put((seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, not compare(scenario, result)))


def facts(persons: int, items: int) -> None:
    from pyhelpers.scenario import limits, load_dict
    from tests.bench.large import many_items, many_persons

    limits.MAX_ITEMS = limits.MAX_PERSONS = sys.maxsize  # measured, not refused
    checker = Checker().warm()
    cases = ((f"many_persons({persons})", many_persons(persons)), (f"many_items({items})", many_items(items)))
    for label, data in cases:
        scenario = load_dict(data, f"<{label}>")
        t0 = time.perf_counter()
        emitted = checker.facts(scenario)
        print(f"{label:<20} {time.perf_counter() - t0:>8.2f} s {len(emitted):>10,} facts", flush=True)


def main() -> None:
    if sys.argv[1:2] == ["--facts"]:
        numbers = [int(a) for a in sys.argv[2:]]
        facts(*(numbers + [1_500, 3_000][len(numbers):]))
        return
    depths = [int(a) for a in sys.argv[1:]] or list(DEPTHS)
    ctx = multiprocessing.get_context("fork")
    print(f"{'case':<10} {'depth':>5} {'holdings':>8} {'chains':>14} {'seconds':>8} {'peak MB':>8}  expected")
    for name, make, holdings, chains in (("ladder", ladder, lambda d: 4 * d - 1, lambda d: 2 * 2 ** (d - 1)),
                                         ("chain", chain, lambda d: d + 1, lambda d: 1)):
        for depth in depths:
            queue: multiprocessing.Queue[tuple[float, float, bool]] = ctx.Queue()
            proc = ctx.Process(target=_run, args=(make, depth, queue))
            proc.start()
            seconds, peak, ok = queue.get()
            proc.join()
            print(f"{name:<10} {depth:>5} {holdings(depth):>8} {chains(depth):>14,} {seconds:>8.2f} {peak:>8.0f}  "
                  f"{'yes' if ok else 'NO'}", flush=True)


if __name__ == "__main__":
    main()
