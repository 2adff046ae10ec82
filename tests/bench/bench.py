"""Benchmark (run directly, not collected by pytest): prints the figures quoted in the README.

    .venv/bin/python tests/bench/bench.py [N]

* warm evaluation of one scenario (fast path), median of repeated runs;
* the same with explanations (instrumented solve + derivation of every conclusion);
* cold start of the `treaty check` command (a new process), median;
* scenarios per second over N (default 1,000) generated dividend scenarios, one at a time, and the
  median time of one: each is a distinct scenario (its own ids, dates, holding), so no evaluation is
  served from a memo; they share a handful of slices of the rule base (one per shape, see the README).

Nothing memoises results: what is kept between evaluations is derived from the rule base (the slice of
a shape, parsed once; the instrumented rules) and, for a slice, which of its rules came close to firing
on earlier scenarios (a narrowed slice, used on a scenario only where its grounding proves that the
rules left out cannot fire), never a scenario's outcome.
"""

from __future__ import annotations

import random
import resource
import statistics
import subprocess
import sys
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pyhelpers.engine.solve import Checker  # noqa: E402
from pyhelpers.explain.explainer import explain_scenario  # noqa: E402
from pyhelpers.scenario import Scenario, load_dict, load_file  # noqa: E402

SCENARIO = ROOT / "scenarios/br-pt/dividends-qualifying-holding.yaml"


CPU: dict[str, float] = {}
"""The CPU-time medians of the last measures (by label): on a shared machine they move less than wall time."""


def median_ms(fn: object, runs: int, label: str = "", children: bool = False) -> float:
    times, cpu = [], []
    for _ in range(runs):
        t = time.perf_counter()
        c = _cpu(children)
        fn()  # type: ignore[operator]
        times.append((time.perf_counter() - t) * 1000)
        cpu.append((_cpu(children) - c) * 1000)
    CPU[label] = statistics.median(cpu)
    return statistics.median(times)


def _cpu(children: bool) -> float:
    if not children:
        return time.process_time()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def generated(n: int, seed: int = 7) -> list[Scenario]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        pay = date(2024, 1, 1) + timedelta(days=rng.randrange(366))
        since = pay - timedelta(days=rng.randrange(200, 1500))
        kind = rng.choice(["company", "company", "individual", "other_entity"])
        criterion = "residence" if kind == "individual" else "incorporation"
        holder: dict[str, object] = {"kind": kind, "liable_to_tax": {"pt": [criterion]}}
        if kind == "other_entity":
            holder["treated_as_body_corporate"] = rng.choice([True, False])
        data = {
            "name": f"generated {i}", "treaty": "br-pt", "evaluation_date": "2024-12-31",
            "persons": {"holder": holder, "payer": {"kind": "company", "liable_to_tax": {"br": ["incorporation"]}}},
            "holdings": [{"holder": "holder", "company": "payer", "capital": rng.choice([10, 24.99, 25, 30, 60]),
                          "from": since.isoformat()}],
            "income": [{"id": f"div-{i}", "type": "dividend", "payer": "payer", "recipient": "holder",
                        "date": pay.isoformat(), "gross": {"amount": "1000.00", "currency": "BRL"}}],
        }
        out.append(load_dict(data, f"generated-{i}"))
    return out


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    checker = Checker()
    scenario = load_file(SCENARIO)
    checker.check(scenario)  # warm: rule base parsed, catalogue grounded
    warm = median_ms(lambda: checker.check(scenario), 200, "warm")
    explain_scenario(checker, scenario)  # warm the instrumentation

    def explain_all() -> None:
        ex = explain_scenario(checker, scenario)
        for atom in ex.true:
            if atom.name == "state_outcome":
                ex.tree(atom)

    explained = median_ms(explain_all, 50, "explained")
    treaty = ROOT / ".venv/bin/treaty"
    cold = median_ms(lambda: subprocess.run([str(treaty), "check", str(SCENARIO)], capture_output=True, check=True), 7,
                     "cold", children=True)
    batch = generated(n)
    times = []
    t = time.perf_counter()
    for sc in batch:
        t1 = time.perf_counter()
        checker.check(sc)
        times.append((time.perf_counter() - t1) * 1000)
    rate = n / (time.perf_counter() - t)
    print(f"warm evaluation, one scenario (median of 200):    {warm:.2f} ms (CPU {CPU['warm']:.2f} ms)")
    print(f"with explanations (median of 50):                  {explained:.2f} ms (CPU {CPU['explained']:.2f} ms)")
    print(f"CLI cold start, treaty check (median of 7):        {cold:.0f} ms (CPU of the process {CPU['cold']:.0f} ms)")
    print(f"generated dividend scenarios, one at a time (n={n}): {rate:.0f} scenarios/s "
          f"(median {statistics.median(times):.2f} ms each)")


if __name__ == "__main__":
    main()
