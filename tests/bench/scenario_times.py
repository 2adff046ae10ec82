"""Benchmark: the CPU time of `treaty check` per shipped scenario (issue 23 point 4: every one within the default
time limit with a margin of 5x on two cores). Run directly, not collected by pytest:

    .venv/bin/python tests/bench/scenario_times.py [PATH ...] [--top N] [--over SECONDS]

PATH: scenario files or folders (default: scenarios/). For each scenario, in one warmed process, the CPU time
of the check (``Checker.check``) and of the decisive lines `treaty check` prints under each State's outcome
(``documents.decisive_lines``, for the scenarios that have them), the two parts the command's time limit
bounds; the process's start (about 0.4 s: imports, the rule base read from the disk cache) is not counted.
Prints the slowest N (default 15) by their sum, how many take more than ``--over`` seconds (default: the
default time limit divided by 5), and the total; each scenario's figures go to stderr as it is measured.
Figures only.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pyhelpers.engine.alternatives import DEFAULT_TIME_LIMIT  # noqa: E402
from pyhelpers.engine.solve import Checker  # noqa: E402
from pyhelpers.interfaces.documents import decisive_lines, has_decisive_lines  # noqa: E402
from pyhelpers.scenario import load_file  # noqa: E402


def _files(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths or [str(ROOT / "scenarios")]):
        out += sorted(p.rglob("*.yaml")) if p.is_dir() else [p]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--over", type=float, default=DEFAULT_TIME_LIMIT / 5)
    args = parser.parse_args()
    checker = Checker().warm()
    rows: list[tuple[float, float, float, str]] = []
    for path in _files(args.paths):
        scenario = load_file(path)
        start = time.process_time()
        result = checker.check(scenario, str(path))
        checked = time.process_time() - start
        lines = 0.0
        if result.incomplete is None and has_decisive_lines(scenario):
            start = time.process_time()
            decisive_lines(checker, scenario, "en", result)
            lines = time.process_time() - start
        name = str(path.resolve().relative_to(ROOT)) if path.resolve().is_relative_to(ROOT) else str(path)
        rows.append((checked + lines, checked, lines, name + (" (INCOMPLETE)" if result.incomplete else "")))
        print(f"{checked + lines:7.2f} {checked:7.2f} {lines:7.2f}  {rows[-1][3]}", file=sys.stderr, flush=True)
    rows.sort(reverse=True)
    print(f"{len(rows)} scenarios; CPU seconds in one warmed process (check + decisive lines)")
    print(f"{'total':>7} {'check':>7} {'lines':>7}  scenario")
    for total, checked, lines, name in rows[:args.top]:
        print(f"{total:7.2f} {checked:7.2f} {lines:7.2f}  {name}")
    over = [r for r in rows if r[0] > args.over]
    print(f"over {args.over:g} s: {len(over)}; all: {sum(r[0] for r in rows):.1f} s "
          f"(checks {sum(r[1] for r in rows):.1f} s, decisive lines {sum(r[2] for r in rows):.1f} s)")


if __name__ == "__main__":
    main()
