"""Shared fixtures: one Checker (rule base parsed once) and the scenario corpus."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest

from pyhelpers.engine.results import ScenarioResult
from pyhelpers.engine.solve import Checker
from pyhelpers.scenario import Scenario, load_file
from pyhelpers.scenario.reading import parse_yaml, read_file

pytest_plugins = ["pytester"]  # tests/test_pytest_plugin.py runs pytest in a temporary repository

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted(p for p in (ROOT / "scenarios").rglob("*.yaml"))


@pytest.fixture(scope="session")
def checker() -> Checker:
    return Checker()


SUITE_TIME_LIMIT = 60.0
"""The time limit of the shipped scenarios' checks in the suite: their answers, not the machine's load,
are under test (two busy cores run several checks at once). Whether the default limit suffices, with
its margin, is measured by ``tests/bench/time_limit.py``; what a check cut by its limit says, by
``tests/test_limits.py``."""


@pytest.fixture(scope="session", autouse=True)
def _suite_time_limit() -> Iterator[None]:
    """A check given no time limit gets the suite's, not the default's 10 s: on two busy cores a scenario of
    1-2 s (a golden argument's) was cut at 10 s and answered "undetermined"."""
    from pyhelpers.engine import alternatives

    saved = alternatives.DEFAULT_TIME_LIMIT
    alternatives.DEFAULT_TIME_LIMIT = SUITE_TIME_LIMIT
    yield
    alternatives.DEFAULT_TIME_LIMIT = saved


@pytest.fixture(scope="session")
def loaded() -> Callable[[Path], Scenario]:
    """A shipped scenario as :func:`load_file` reads it, read once per session for the tests that only read
    it (each test of a scenario, and :func:`checked`, would otherwise parse and validate it again: about
    15 ms a file). The scenario is shared: a test that changes one works on a copy (``with_values``,
    ``model_copy``), as the engine does."""
    cache: dict[Path, Scenario] = {}

    def load(path: Path) -> Scenario:
        if path not in cache:
            cache[path] = load_file(path)
        return cache[path]

    return load


@pytest.fixture(scope="session")
def checked(checker: Checker, loaded: Callable[[Path], Scenario]) -> Callable[[Path], ScenarioResult]:
    """The answer to a shipped scenario (``Checker.check`` with its path as the source), computed once per
    session for the tests that read it (results are immutable)."""
    cache: dict[Path, ScenarioResult] = {}

    def check(path: Path) -> ScenarioResult:
        if path not in cache:
            cache[path] = checker.check(loaded(path), source=str(path), time_limit=SUITE_TIME_LIMIT)
        return cache[path]

    return check


def read_yaml(path: str | Path, what: str = "scenario") -> Any:
    """The data of a scenario file (``what``: "scenario", or "context" for a batch context) as the product reads
    it: YAML 1.2 with the project's reader (:func:`~pyhelpers.scenario.reading.parse_yaml`, as :func:`load_file`
    does), not PyYAML's YAML 1.1 ``safe_load``, which reads a key ``no`` (Norway) or ``on`` as a boolean and
    ``1_000`` as a number. Dates stay text; a float keeps its text (``YamlFloat``, which ``yaml.safe_dump``
    cannot write)."""
    return parse_yaml(read_file(path, what), str(path))[0]


def scenario_id(path: Path) -> str:
    return path.relative_to(ROOT / "scenarios").with_suffix("").as_posix()


def scenario_params(paths: list[Path]) -> list[Any]:
    """One parameter per scenario, in the scenario's pytest-xdist group (``--dist loadgroup``): every test
    of a scenario runs in the same worker, which checks it once (the ``checked`` cache)."""
    return [pytest.param(p, id=scenario_id(p), marks=pytest.mark.xdist_group(scenario_id(p))) for p in paths]


FULL_CHECKS = os.environ.get("TREATY_FULL_CHECKS", "") not in ("", "0")
"""``TREATY_FULL_CHECKS=1``: the checks run within a time share (:func:`within_share`) run over every
unit, whatever the time (a maintainer's full run, e.g. before a release)."""


def _rotation() -> int:
    """Where the suite's rotation starts: from the commit under test (``git rev-parse HEAD``), so that a
    run is reproducible for its commit and successive commits cover different units first; 0 outside a
    git checkout."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              timeout=10, check=False).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return 0
    return int(head[:8], 16) if len(head) >= 8 and all(c in "0123456789abcdef" for c in head[:8]) else 0


ROTATION = _rotation()


def within_share(units: Sequence[T], seconds: float, minimum: int, label: str) -> Iterator[T]:
    """``units`` from a point that turns with the commit under test (:data:`ROTATION`), one after the
    other until ``seconds`` of wall-clock time have passed and at least ``minimum`` ran; then the
    rest are left to the next commits, and a line says how many ran. A heavy check over every scenario
    (the paths of the engine agreeing, the reconstructed flags) so takes a fixed share of the suite's
    time on a busy machine too; :data:`FULL_CHECKS` runs every unit."""
    if not units:
        return
    start = ROTATION % len(units)
    order = [*units[start:], *units[:start]]
    deadline = time.monotonic() + seconds
    for n, unit in enumerate(order):
        if not FULL_CHECKS and n >= minimum and time.monotonic() > deadline:
            print(f"{label}: {n} of {len(order)} units within the time share of {seconds:g} s "
                  f"(from unit {start}; TREATY_FULL_CHECKS=1 runs all)")
            return
        yield unit


def cli_lines(*args: str) -> list[str]:
    """The lines ``treaty ARGS`` prints, stripped (click's runner, in this process)."""
    from click.testing import CliRunner

    from pyhelpers.interfaces.cli import main
    return [ln.strip() for ln in CliRunner().invoke(main, list(args)).stdout.splitlines()]


def item_block(lines: list[str], item: str) -> list[str]:
    """The lines of ``treaty check``'s block for ``item``: from its heading to the first empty line."""
    start = next(i for i, ln in enumerate(lines) if ln.startswith(f"{item} "))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i]), len(lines))
    return lines[start:end]
