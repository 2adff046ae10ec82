"""Benchmark (run directly, not collected by pytest): instructions per warm evaluation, counted by
valgrind's callgrind, a figure the machine's load does not move (wall and CPU time do).

    .venv/bin/python tests/bench/instructions.py [SCENARIO ...]

For each scenario (default: the one bench.py times), runs a child process that evaluates it 3 times to
warm up and then N more times, for N = 0 and N = 10, and prints the difference divided by 10.
Needs `valgrind` on the PATH (Debian: `apt-get install valgrind`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = "scenarios/br-pt/dividends-qualifying-holding.yaml"
RUNS = 10

CHILD = """
import sys
sys.path.insert(0, sys.argv[1])
from pyhelpers.scenario import load_file
from pyhelpers.engine.solve import Checker
checker = Checker()
scenario = load_file(sys.argv[2])
for _ in range(3 + int(sys.argv[3])):
    checker.check(scenario)
"""


def instructions(scenario: Path, runs: int, cache: str) -> int:
    with tempfile.TemporaryDirectory() as out:
        result = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/cg.out", sys.executable, "-c", CHILD,
             str(ROOT), str(scenario), str(runs)],
            capture_output=True, text=True, env={**os.environ, "XDG_CACHE_HOME": cache}, check=True)
    found = re.search(r"Collected : (\d+)", result.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no total:\n{result.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as cache:
        for name in sys.argv[1:] or [DEFAULT]:
            scenario = (ROOT / name) if not Path(name).is_absolute() else Path(name)
            instructions(scenario, 0, cache)  # fills the disk cache: both measures then read it
            per_check = (instructions(scenario, RUNS, cache) - instructions(scenario, 0, cache)) // RUNS
            print(f"{name}: {per_check / 1e6:.1f} million instructions per warm evaluation")


if __name__ == "__main__":
    main()
