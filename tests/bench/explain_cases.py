"""Benchmark of `treaty explain` under alternatives (issue 24; run directly, not collected by pytest):

    .venv/bin/python tests/bench/explain_cases.py [SCENARIO ...] [--runs N] [--code DIR]

For each scenario (default: those of the pt54 work on arguing an outcome under each alternative, the three-payment
scenarios with several cases, and the README dividend), in a fresh child process each run: the CPU seconds (user +
system of the child, clingo included) of ``treaty explain``'s answer with its legal argument (what the command
computes before it prints: :func:`pyhelpers.interfaces.documents.explain_answer`), the number of cases argued, and
the part of it spent arguing the cases (:func:`pyhelpers.interfaces.documents.argument_cases`). The median of the
runs is printed. ``--code DIR``: the ``pyhelpers`` and ``logic`` of another checkout (``git archive REV pyhelpers
logic | tar -x -C DIR``), to compare two versions on the same scenarios. Figures only: nothing is asserted.
"""

from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCENARIOS = [
    "scenarios/br-sg/unknowns-holding-end-within-400-days.yaml",
    "scenarios/br-uy/unknowns-lob-ownership-end-within-400-days.yaml",
    "scenarios/br-pt/unknowns-construction-site-end-within-a-year.yaml",
    "scenarios/br-pt/unknowns-three-payments-open-dates-around-first-application.yaml",
    "scenarios/br-uy/unknowns-three-payments-open-dates-around-first-application.yaml",
    "scenarios/br-pt/unknowns-holding-end-unknown-beside-open-payment-dates.yaml",
    "scenarios/br-pt/dividends-qualifying-holding.yaml",
]

_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from pyhelpers.engine.solve import Checker
from pyhelpers.interfaces import documents
from pyhelpers.scenario import load_file

spent = [0.0]
inner = documents.argument_cases
def timed(*a, **k):
    t = time.process_time()
    try:
        return inner(*a, **k)
    finally:
        spent[0] += time.process_time() - t
documents.argument_cases = timed
checker = Checker()
scenario = load_file(sys.argv[2])
t = time.process_time()
answer = documents.explain_answer(checker, scenario, sys.argv[2], (), (), "en")
total = time.process_time() - t
cases = sum(len(c) for c in (answer.cases or {}).values())
print(json.dumps({"seconds": total, "cases_seconds": spent[0], "cases": cases}))
"""


def run(path: str, code: Path = ROOT) -> dict[str, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-c", _CHILD, str(code), str(ROOT / path)], capture_output=True,
                          text=True, check=True, cwd=code)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    data: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    data["process"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return data


def main(argv: list[str]) -> None:
    runs = 1
    code = ROOT
    if "--runs" in argv:
        at = argv.index("--runs")
        runs = int(argv[at + 1])
        argv = argv[:at] + argv[at + 2:]
    if "--code" in argv:
        at = argv.index("--code")
        code = Path(argv[at + 1]).resolve()
        argv = argv[:at] + argv[at + 2:]
    chosen = argv or SCENARIOS
    print(f"{'scenario':<78} {'cases':>5} {'explain s':>9} {'cases s':>8} {'process s':>9}")
    for path in chosen:
        found = [run(path, code) for _ in range(runs)]
        med = {k: statistics.median(f[k] for f in found) for k in found[0]}
        print(f"{path:<78} {int(med['cases']):>5} {med['seconds']:>9.2f} {med['cases_seconds']:>8.2f} "
              f"{med['process']:>9.2f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
