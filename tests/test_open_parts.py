"""Completed facts combined per group of items (``check_open_in_parts``) give each item the answer that
combining every fact in one solve gives.

A scenario whose items ask for different unknown or missing facts is solved once per group of items
that share none (each solve combines the values of its own group's facts only): the items are
independent of each other, so each item's answer must be the one of the whole solve. For every shipped
scenario whose answer opens facts deciding disjoint groups of items, the answer is compared with the
one solve over all the facts (``Checker.in_parts`` off): everything but the receipt's hash of the facts
(of several solves, not one) must be equal.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from pyhelpers.engine.alternatives import parts_of
from pyhelpers.engine.results import Finding, ScenarioResult
from pyhelpers.engine.solve import Checker
from pyhelpers.scenario import load_file
from pyhelpers.scenario.openfacts import OpenFact
from tests.conftest import SCENARIOS, scenario_params


def _in_groups(result: ScenarioResult) -> bool:
    """Whether the facts the answer opened decide two or more groups of items sharing none."""
    decided = [u for u in result.unknowns if u.items]
    if len(decided) < 2:
        return False
    groups: list[set[str]] = []
    for u in decided:
        touching = [g for g in groups if g & set(u.items)]
        merged = set(u.items).union(*touching)
        groups = [g for g in groups if not g & set(u.items)] + [merged]
    return len(groups) > 1


MULTI = [p for p in SCENARIOS if len(re.findall(r"^\s*- \{?id:", p.read_text(encoding="utf-8"), re.MULTILINE)) > 1]


@pytest.mark.parametrize("path", scenario_params(MULTI))
def test_items_in_groups_answer_as_in_one_solve(path: Path, checker: Checker,
                                                checked: Callable[[Path], ScenarioResult]) -> None:
    parted = checked(path)
    if not _in_groups(parted):
        return
    whole = Checker(checker.logic)
    whole.in_parts = False
    joint = whole.check(load_file(path), source=str(path), time_limit=300)  # one solve over every combination
    assert joint.incomplete is None and parted.incomplete is None
    a, b = parted.to_json(), joint.to_json()
    a.pop("receipt"), b.pop("receipt")
    assert a == b


def test_groups_share_no_fact_and_idle_items_join_the_first() -> None:
    def fact(name: str) -> OpenFact:
        return OpenFact(("persons", name, "x"), name, "unknown", (True, False), completed=True)

    f, g, h = fact("f"), fact("g"), fact("h")
    asks = {("i1", "f"): {Finding("depends", "p", "f")}, ("i3", "g"): {Finding("depends", "p", "g")},
            ("i4", "g"): {Finding("depends", "p", "g")}, ("i4", "h"): {Finding("depends", "p", "h")}}
    assert parts_of(["i1", "i2", "i3", "i4"], [f, g, h], asks) == [(["i1", "i2"], [f]), (["i3", "i4"], [g, h])]
