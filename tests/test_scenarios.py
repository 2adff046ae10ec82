"""Every scenario's expect: block is a test: exact outcome per State, status, provisions, missing facts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pyhelpers.engine.expect import compare
from pyhelpers.engine.results import ScenarioResult
from pyhelpers.scenario import ExpectedItem, Scenario, person_questions

from .conftest import ROOT, SCENARIOS, scenario_params


def test_corpus_is_not_empty() -> None:
    assert len([p for p in SCENARIOS if p.parent.name == "br-pt"]) >= 15


@pytest.mark.parametrize("path", scenario_params(SCENARIOS))
def test_scenario_expectations(path: Path, loaded: Callable[[Path], Scenario],
                               checked: Callable[[Path], ScenarioResult]) -> None:
    scenario = loaded(path)
    assert scenario.expect, f"{path} has no expect: block"
    asked = {i.id for i in scenario.income} | {q.id for q in person_questions(scenario)}
    assert set(scenario.expect) == asked, "every income item and every question needs an expectation"
    partial = [k for k, e in scenario.expect.items() if isinstance(e, ExpectedItem) and e.provisions is None]
    assert not partial, f"a shipped scenario's expectations are exact (outcome and provisions): {partial}"
    result = checked(path)
    mismatches = compare(scenario, result)
    if mismatches:
        rel = path.relative_to(ROOT)
        lines = [str(m) for m in mismatches]
        for m in {m.item_id for m in mismatches}:
            item = result.item(m)
            lines.append(f"actual {m}: status={item.status} "
                         + ", ".join(f"{s.state}: {s.label}" for s in item.states)
                         + f"; provisions={list(item.provisions)}; findings={[str(f) for f in item.findings]}")
            lines.append(f"  explain: treaty explain {rel} --item {m}")
        pytest.fail("\n".join(lines), pytrace=False)


@pytest.mark.parametrize("path", scenario_params(SCENARIOS))
def test_a_decided_item_has_an_outcome_in_every_state(path: Path, checked: Callable[[Path], ScenarioResult]) -> None:
    """No item is 'decided' while a State's outcome is undetermined: a decided status means every State's
    outcome follows from the facts."""
    bad = [f"{item.item_id}: " + ", ".join(f"{s.state}: {s.label}" for s in item.states)
           for item in checked(path).items
           if item.status == "decided" and any(s.outcome == "undetermined" for s in item.states)]
    assert not bad, "decided with an undetermined State:\n" + "\n".join(bad)
