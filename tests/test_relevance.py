"""Issue 23: a fact the checker asks for can change the answer; one it calls not needed cannot.

For every shipped scenario, each fact given as ``unknown`` that the checker opens over its values
(:mod:`pyhelpers.engine.completion`) is checked directly, one value at a time, with the other facts as
they are: where the answer names it as deciding an item (an alternative's condition, or a ``depends``
finding the rules give for it), some value of it must change that item's outcome, findings or
withholding figure; where the answer lists it as ``not_needed``, no value may. The answer under test
solves all the values together (brave and cautious consequences); this test never does.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pyhelpers.engine.completion import _missing_fields, _written, unknown_values
from pyhelpers.engine.results import ItemResult, ScenarioResult
from pyhelpers.engine.solve import Checker
from pyhelpers.scenario import Scenario
from tests.conftest import SCENARIOS, SUITE_TIME_LIMIT, scenario_params


def _conclusions(item: ItemResult, ignored: set[str]) -> tuple[Any, ...]:
    """What a fact may change: each State's outcome and cap, the findings (but those naming the fact
    itself), the withholding finding, the maximum source tax, and the alternatives under the other open
    facts (a fact that decides only with a value of another, such as a place's status once it bears the
    payment, changes those alone)."""
    findings = tuple(sorted(str(f) for f in item.findings
                            if f.kind not in ("not_needed", "depends") and f.fact not in ignored))
    compliance = (item.compliance.finding, item.compliance.due) if item.compliance is not None else None
    return (tuple((s.state, s.outcome, s.max_rate_bp) for s in item.states), findings, compliance,
            item.max_source_tax, tuple(sorted(str(a) for a in item.alternatives)))


OPENED = [p for p in SCENARIOS if "unknown" in p.read_text(encoding="utf-8")]


@pytest.mark.parametrize("path", scenario_params(OPENED))
def test_asked_facts_matter_and_spared_ones_do_not(path: Path, checker: Checker, loaded: Callable[[Path], Scenario],
                                                   checked: Callable[[Path], ScenarioResult]) -> None:
    scenario = loaded(path)
    if scenario.unknowns:
        return  # alternatives the user wrote: the answer lists them as given
    result = checked(path)
    listed = {u.fact for u in result.unknowns}  # the facts the answer opened (those the rules asked for)
    opened = [f for f in unknown_values(scenario) if f.name in listed]
    if not opened:
        return
    known: dict[tuple[int, int], dict[str, ItemResult]] = {}

    def answer(f: int, v: int) -> dict[str, ItemResult]:
        """The items with open fact ``f`` given its value ``v`` (the others as they are)."""
        if (f, v) not in known:
            variant = scenario.with_values({opened[f].path: opened[f].values[v]}, str(path), keep_unknown=True)
            known[(f, v)] = {x.item_id: x for x in checker.check(variant, str(path), time_limit=SUITE_TIME_LIMIT).items}
        return known[(f, v)]

    for f, fact in enumerate(opened):
        deciding = [it for it in result.items if any(c.fact == fact.name for a in it.alternatives for c in a.holds_if)]
        if not deciding:
            continue
        answers = [answer(f, v) for v in range(len(fact.values))]
        for it in deciding:
            seen = {_conclusions(a[it.item_id], {fact.name}) for a in answers}
            assert len(seen) > 1, f"{it.item_id}: {fact.name} is named as deciding, but every value gives " \
                                  f"the same answer"
    for it in result.items:
        spared = [f for f in it.findings if f.kind == "not_needed"]
        if not spared:
            continue
        items: list[ItemResult] = []
        named = {c.fact for a in it.alternatives for c in a.holds_if}
        for f, fact in enumerate(opened):
            if fact.name in named:
                continue  # it decides the item: listed as deciding, not spared
            items += [answer(f, v)[it.item_id] for v in range(len(fact.values))]
        outcomes = {(tuple((s.state, s.outcome, s.max_rate_bp) for s in a.states)) for a in items}
        assert len(outcomes) == 1, f"{it.item_id}: {[str(f) for f in spared]} listed as not needed, but a value " \
                                   f"of an open fact changes its outcome: {sorted(outcomes)}"


def _not_given(result: ScenarioResult) -> set[str]:
    return {u.fact for u in result.unknowns if not u.given}


@pytest.mark.parametrize("path", scenario_params(SCENARIOS))
def test_missing_fields_asked_matter_and_spared_ones_do_not(path: Path, checker: Checker,
                                                            loaded: Callable[[Path], Scenario],
                                                            checked: Callable[[Path], ScenarioResult]) -> None:
    """The same for the fields the rules report missing and the answer opens over their values (left out of
    the scenario, not given as ``unknown``): each is written into the scenario alone, one value at a time,
    the other facts as they are (still missing)."""
    scenario = loaded(path)
    if scenario.unknowns:
        return
    result = checked(path)
    names = _not_given(result)
    if not names:
        return
    data = scenario._plain_data if scenario._plain_data is not None else scenario.model_dump(
        mode="json", by_alias=True, exclude_unset=True)
    fields = [f for f, _ in _missing_fields(scenario, [checker.check_three_valued(scenario, str(path))],
                                            copy.deepcopy(data), str(path), 1) if f.name in names]
    for fact in fields:
        answers = []
        for value in fact.values:
            written = copy.deepcopy(data)
            assert _written(written, fact.path, value)
            assert Scenario.revalidate is not None
            variant = Scenario.revalidate(written, str(path))
            variant._plain_data = written
            answers.append({x.item_id: x for x in checker.check(variant, str(path), time_limit=SUITE_TIME_LIMIT).items})
        for it in result.items:
            deciding = {c.fact for a in it.alternatives for c in a.holds_if}
            decides = deciding == {fact.name}  # alone: with others open it may decide only with them
            seen = {_conclusions(a[it.item_id], {fact.name}) for a in answers}
            if decides:
                assert len(seen) > 1, f"{it.item_id}: {fact.name} is named as deciding, but every value gives " \
                                      f"the same answer"
            elif any(f.kind == "not_needed" for f in it.findings) and not it.alternatives:
                outcomes = {(tuple((s.state, s.outcome, s.max_rate_bp) for s in a[it.item_id].states))
                            for a in answers}
                assert len(outcomes) == 1, f"{it.item_id}: {fact.name} spared, but its values change the " \
                                           f"outcome: {sorted(outcomes)}"
