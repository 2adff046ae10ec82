"""The scenario field of each open fact a result reports: a finding about a fact the scenario may state
(missing, given as unknown, not needed, a judgment to make: :data:`~pyhelpers.engine.results.FIELD_KINDS`)
carries, in ``Finding.field``, the YAML path that states it as the user writes it
(``places_of_business.agency-sp.agent.independent``, ``holdings[0].until``), resolved against the scenario
the user gave by :func:`~pyhelpers.scenario.factpaths.fact_path`. The path is named once here, where the
result leaves the engine, so every output shows the same one."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from pyhelpers.engine.results import FIELD_KINDS, Alternative, Finding, ItemResult, PersonAnswer, ScenarioResult
from pyhelpers.scenario.document import Scenario
from pyhelpers.scenario.factpaths import fact_path


def named(f: Finding, items: Sequence[str], scenario: Scenario) -> Finding:
    """``f`` with the field that states its fact in ``scenario`` (about ``items``); ``f`` itself for the
    other kinds, or where the rules name no field."""
    if f.kind not in FIELD_KINDS or not f.fact:
        return f
    path = fact_path(f.fact, items, scenario)
    return dataclasses.replace(f, field=path)


def item_named(it: ItemResult, scenario: Scenario) -> ItemResult:
    """``it`` with the fields of its findings, those of its alternatives, named in ``scenario``."""
    own = (it.item_id,)
    return dataclasses.replace(it, findings=tuple(named(f, own, scenario) for f in it.findings),
                               alternatives=tuple(_alternative(a, own, scenario) for a in it.alternatives))


def result_named(result: ScenarioResult, scenario: Scenario) -> ScenarioResult:
    """``result`` with the field of each finding about a fact named in ``scenario`` (the one the user
    gave: not a slice of it, nor one with records added to answer for missing ones)."""
    items = tuple(item_named(it, scenario) for it in result.items)
    answers = tuple(_answer(a, scenario) for a in result.answers)
    return dataclasses.replace(result, items=items, answers=answers)


def _alternative(a: Alternative, items: Sequence[str], scenario: Scenario) -> Alternative:
    if a.finding is None:
        return a
    return dataclasses.replace(a, finding=named(a.finding, items, scenario))


def _answer(a: PersonAnswer, scenario: Scenario) -> PersonAnswer:
    return dataclasses.replace(a, findings=tuple(named(f, (), scenario) for f in a.findings))
