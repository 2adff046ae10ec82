"""Shared fixtures: one Checker (rule base parsed once) and the scenario corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyhelpers.engine.solve import Checker

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted(p for p in (ROOT / "scenarios").rglob("*.yaml"))


@pytest.fixture(scope="session")
def checker() -> Checker:
    return Checker()


def scenario_id(path: Path) -> str:
    return path.relative_to(ROOT / "scenarios").with_suffix("").as_posix()
