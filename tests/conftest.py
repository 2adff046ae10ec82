"""Shared fixtures: one Checker (rule base parsed once) and the scenario corpus."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pyhelpers.engine.results import ScenarioResult
from pyhelpers.engine.solve import Checker
from pyhelpers.scenario import load_file

pytest_plugins = ["pytester"]  # tests/test_pytest_plugin.py runs pytest in a temporary repository

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


@pytest.fixture(scope="session")
def checked(checker: Checker) -> Callable[[Path], ScenarioResult]:
    """The answer to a shipped scenario (``Checker.check`` with its path as the source), computed once per
    session for the tests that read it (results are immutable)."""
    cache: dict[Path, ScenarioResult] = {}

    def check(path: Path) -> ScenarioResult:
        if path not in cache:
            cache[path] = checker.check(load_file(path), source=str(path), time_limit=SUITE_TIME_LIMIT)
        return cache[path]

    return check


def scenario_id(path: Path) -> str:
    return path.relative_to(ROOT / "scenarios").with_suffix("").as_posix()


def scenario_params(paths: list[Path]) -> list[Any]:
    """One parameter per scenario, in the scenario's pytest-xdist group (``--dist loadgroup``): every test
    of a scenario runs in the same worker, which checks it once (the ``checked`` cache)."""
    return [pytest.param(p, id=scenario_id(p), marks=pytest.mark.xdist_group(scenario_id(p))) for p in paths]
