"""Benchmark of facts given as alternatives (issue 7; run directly, not collected by pytest):

    .venv/bin/python tests/bench/unknowns.py [RUNS] [--cpu] [--every-day] [--several]

For a few scenarios with unknown facts, prints as a table: the number of open facts, of combinations of
their values and of clingo solves (brave/cautious consequences, overall, under each value, and within
excluded values); the median time of ``Checker.check`` with the alternatives (all the combinations at
once, solved together) and the part of it spent in those solves; the median time of the same scenario
fully known (each combination's plain scenario, ``scenario.with_values({path: value})``), for one
combination and for enumerating them all; and the ratio of the alternatives to one plain check.
With ``--cpu`` the times are the process's CPU time instead of wall-clock time (steadier on a loaded
machine). A date range is solved over its critical dates (issue 23; ``values`` counts them, of the range's
days); with ``--every-day`` over every day of the range instead (the figures before issue 23). A scenario with
more than 50 combinations times each plain combination once. Then, for scenarios whose items each read their
own open facts (decided part by part), the parts, their combinations and the time of the check beside that of
each item checked alone (``--several``: that table only). Figures only: nothing is asserted.
"""

from __future__ import annotations

import itertools
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pyhelpers.engine import alternatives, critical  # noqa: E402
from pyhelpers.engine.solve import Checker  # noqa: E402
from pyhelpers.scenario import Scenario, load_file  # noqa: E402

SCENARIOS = [
    "scenarios/br-pt/unknowns-holding-24-99-or-25-percent.yaml",
    "scenarios/br-pt/unknowns-construction-site-around-nine-months.yaml",
    "scenarios/br-pt/unknowns-agent-authority-and-habit-jointly.yaml",
    "scenarios/br-ae/unknowns-29-3-proofs-as-alternatives.yaml",
    "scenarios/br-uy/unknowns-third-jurisdiction-pe-tax-and-active-business.yaml",
    "scenarios/br-sg/unknowns-services-days-two-consultants.yaml",
    "scenarios/br-sg/unknowns-holding-end-in-the-future.yaml",
    "scenarios/br-sg/unknowns-holding-end-within-400-days.yaml",
    "scenarios/br-uy/unknowns-parent-holding-end-within-a-year.yaml",
    "scenarios/br-uy/unknowns-lob-ownership-end-within-400-days.yaml",
    "scenarios/br-uy/unknowns-lob-ownership-end-unknown.yaml",
    "scenarios/br-pt/unknowns-employee-departure-within-a-year.yaml",
    "scenarios/br-pt/unknowns-construction-site-end-within-a-year.yaml",
]

SEVERAL = [  # several items, each reading its own open facts: decided part by part
    "scenarios/br-pt/unknowns-three-payments-open-dates-around-first-application.yaml",
    "scenarios/br-pt/unknowns-holding-end-unknown-beside-open-payment-dates.yaml",
    "scenarios/br-uy/unknowns-three-payments-open-dates-around-first-application.yaml",
    "scenarios/br-uy/unknowns-two-holding-ends-open-beside-open-royalty-date.yaml",
    "tests/fixtures/open-parts/three-interest-open-dates.yaml",
]


CLOCK = time.process_time if "--cpu" in sys.argv else time.perf_counter


class _CountingSolve:
    """Wraps ``alternatives._solve``: counts the solves of one check and the time spent in them."""

    def __init__(self) -> None:
        self.inner = alternatives._solve
        self.calls = 0
        self.seconds = 0.0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        t = CLOCK()
        try:
            return self.inner(*args, **kwargs)
        finally:
            self.seconds += CLOCK() - t


def _median_ms(fn: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = CLOCK()
        fn()
        times.append((CLOCK() - t) * 1000)
    return statistics.median(times)


def _plain_variants(scenario: Scenario, source: str) -> list[Scenario]:
    facts = list(scenario.unknowns)
    out = []
    for combo in itertools.product(*(f.values for f in facts)):
        out.append(scenario.with_values({f.path: v for f, v in zip(facts, combo, strict=True)}, source))
    return out


def _line(cells: list[str], widths: list[int]) -> str:
    return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True)))


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    runs = int(args[0]) if args else 15
    if "--every-day" in sys.argv:
        critical.open_facts = lambda checker, scenario: scenario.unknowns
    checker = Checker().warm()
    rows = []
    for rel in SCENARIOS:
        path = ROOT / rel
        scenario = load_file(path)
        checker.check(scenario, str(path))  # warm
        counter = _CountingSolve()
        alternatives._solve = counter
        try:
            checker.check(scenario, str(path))  # count the solves of one check
            solves = counter.calls
            counter.seconds = 0.0
            with_alternatives = _median_ms(lambda s=scenario, p=str(path): checker.check(s, p), runs)
            solve_ms = counter.seconds * 1000 / runs  # mean over the timed runs
        finally:
            alternatives._solve = counter.inner
        variants = _plain_variants(scenario, str(path))
        for v in variants:
            checker.check(v)
        per_plain = [_median_ms(lambda v=v: checker.check(v), runs if len(variants) <= 50 else 1) for v in variants]
        kept = critical.open_facts(checker, scenario)
        one_plain = statistics.median(per_plain)
        values = "/".join(f"{len(k.values)}" + (f" of {len(f.values)}" if len(k.values) < len(f.values) else "")
                          for k, f in zip(kept, scenario.unknowns, strict=True))
        rows.append((Path(rel).stem.removeprefix("unknowns-"), len(scenario.unknowns), values, len(variants), solves,
                     with_alternatives, solve_ms, one_plain, sum(per_plain), with_alternatives / one_plain))
    head = ("scenario", "facts", "values", "combos", "solves", "alts ms", "in solves", "1 plain ms", "all plain ms",
            "x plain")
    widths = [max(len(head[0]), *(len(r[0]) for r in rows)), len(head[1]),
              max(len(head[2]), *(len(r[2]) for r in rows))]
    widths += [len(h) for h in head[3:]]
    clock = "CPU" if CLOCK is time.process_time else "wall-clock"
    print(f"{clock} time, median of {runs} runs; 'in solves': mean time of the brave/cautious solves within one check")
    print(_line(list(head), widths))
    for r in rows:
        cells = [r[0], str(r[1]), r[2], str(r[3]), str(r[4]), f"{r[5]:.1f}", f"{r[6]:.1f}", f"{r[7]:.1f}",
                 f"{r[8]:.1f}", f"{r[9]:.1f}"]
        print(_line(cells, widths))


def several(runs: int) -> None:
    """The scenarios of :data:`SEVERAL`: their parts, the critical dates of each part's facts and the product of
    the parts' combinations (the one solve they would need together); the median time of the check part by part,
    and of each item checked alone (its scenario with the other items left out), summed."""
    from pyhelpers.engine.alternatives import part_scenario
    from pyhelpers.scenario.openfacts import parts

    checker = Checker().warm()
    rows = []
    for rel in SEVERAL:
        path = ROOT / rel
        scenario = load_file(path)
        every = [p for p in parts(scenario._plain_data, critical.open_facts(checker, scenario)) if p.items]
        sizes = []
        for part in every:
            sub = part_scenario(scenario, part, str(path))
            sizes.append(math.prod(len(f.values) for f in critical.open_facts(checker, sub)))
        together = math.prod(sizes)
        checker.check(scenario, str(path))  # warm
        parted = _median_ms(lambda s=scenario, p=str(path): checker.check(s, p, 60), runs)
        alone = 0.0
        for part in every:
            for n in part.items:
                one = part_scenario(scenario, type(part)((n,), part.facts), str(path))
                checker.check(one, str(path))
                alone += _median_ms(lambda o=one, p=str(path): checker.check(o, p, 60), runs)
        label = f"{Path(rel).parent.name}/{Path(rel).stem.removeprefix('unknowns-')}"
        rows.append((label, len(scenario.income), len(every), "+".join(map(str, sizes)), f"{together:,}", parted,
                     alone))
    head = ("scenario (several items)", "items", "parts", "combos per part", "together", "parts ms", "alone ms")
    widths = [max(len(head[0]), *(len(r[0]) for r in rows)), len(head[1]), len(head[2]),
              max(len(head[3]), *(len(r[3]) for r in rows)), max(len(head[4]), *(len(r[4]) for r in rows)),
              len(head[5]), len(head[6])]
    print()
    print("'combos per part': the combinations of each part's critical dates and values; 'together': their product, "
          "one solve's; 'alone ms': each item checked alone, summed")
    print(_line(list(head), widths))
    for r in rows:
        print(_line([r[0], str(r[1]), str(r[2]), r[3], r[4], f"{r[5]:.1f}", f"{r[6]:.1f}"], widths))


if __name__ == "__main__":
    if "--several" not in sys.argv:
        main()
    several(int(next((a for a in sys.argv[1:] if not a.startswith("--")), "5")))
