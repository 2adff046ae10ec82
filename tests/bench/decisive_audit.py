"""Audit: the State outcomes `treaty check` prints without a decisive line (``↳ ...``) under them (issue 24: every
State's outcome carries at least one line saying which provision decided it and on what facts). Run directly,
not collected by pytest (slow: run it per folder):

    nice .venv/bin/python tests/bench/decisive_audit.py [PATH ...] [--list]

PATH: scenario files or folders (default: scenarios/). In one warmed process, each scenario is checked
(``Checker.check``) and its decisive lines derived as `treaty check` derives them
(``documents.decisive_lines``, without the time limit: the count is of the argument, not of the machine's
load). Prints, per folder, the State outcomes counted, those without a line (by outcome), and the scenarios
`treaty check` gives no decisive lines by design (facts given as alternatives, no items, checked in slices:
:func:`~pyhelpers.interfaces.documents.has_decisive_lines`) or whose check was incomplete; ``--list`` names
each outcome without a line. Figures only.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pyhelpers.engine.solve import Checker  # noqa: E402
from pyhelpers.interfaces.documents import decisive_lines, has_decisive_lines  # noqa: E402
from pyhelpers.scenario import load_file  # noqa: E402
from tests.bench.scenario_times import _files  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--list", action="store_true", help="name each outcome without a decisive line")
    args = parser.parse_args()
    checker = Checker().warm()
    counted: Counter[str] = Counter()
    missing: dict[str, Counter[str]] = defaultdict(Counter)
    skipped: Counter[str] = Counter()
    named: list[str] = []
    for path in _files(args.paths):
        path = path.resolve()
        folder = path.parent.name
        scenario = load_file(path)
        start = time.process_time()
        result = checker.check(scenario, str(path))
        if result.incomplete is not None or not has_decisive_lines(scenario):
            skipped[folder] += 1
            continue
        lines = decisive_lines(checker, scenario, "en")
        for item in result.items:
            for s in item.states:
                counted[folder] += 1
                if (item.item_id, s.state) not in lines:
                    missing[folder][s.outcome] += 1
                    named.append(f"{path.relative_to(ROOT)} {item.item_id} {s.state}: {s.label}")
                    if args.list:
                        print(f"  no line: {named[-1]}", file=sys.stderr, flush=True)
        print(f"{time.process_time() - start:6.2f} {path.relative_to(ROOT)}", file=sys.stderr, flush=True)
    for folder in sorted(counted.keys() | skipped.keys()):
        total = sum(missing[folder].values())
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(missing[folder].items()))
        print(f"{folder}: {counted[folder]} outcomes, {total} without a decisive line"
              + (f" ({kinds})" if kinds else "")
              + f"; {skipped[folder]} scenarios without lines by design or incomplete")
    if args.list:
        print("\n".join(named))


if __name__ == "__main__":
    main()
