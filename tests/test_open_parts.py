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

import dataclasses
import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pyhelpers.base.errors import InputError, ScenarioError
from pyhelpers.engine import critical
from pyhelpers.engine.alternatives import parts_of
from pyhelpers.engine.results import Finding, ScenarioResult
from pyhelpers.engine.solve import Checker
from pyhelpers.engine.whatif import whatif
from pyhelpers.scenario import Scenario, load_dict, load_file, load_text
from pyhelpers.scenario.openfacts import MAX_COMBINATIONS, OpenFact, parts
from pyhelpers.scenario.reading import parse_yaml, read_file
from tests.conftest import ROOT, SCENARIOS, SUITE_TIME_LIMIT, scenario_params


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
    scenario = load_file(path)
    if math.prod(len(f.values) for f in critical.open_facts(checker, scenario)) > MAX_COMBINATIONS:
        return  # alternatives too many for one solve: each item is compared with itself alone (below)
    whole = Checker(checker.logic)
    whole.in_parts = False
    joint = whole.check(load_file(path), source=str(path), time_limit=300)  # one solve over every combination
    assert joint.incomplete is None and parted.incomplete is None
    a, b = parted.to_json(), joint.to_json()
    a.pop("receipt"), b.pop("receipt")
    opened_in_parts, opened_in_one = ({u["fact"] for u in x["unknowns"]} for x in (a, b))
    assert opened_in_one <= opened_in_parts
    if opened_in_one != opened_in_parts:
        # the combinations are counted per part (list56): one solve over the whole, counting them all, has room
        # for fewer of the facts found missing, and answers those three-valued; each item is then compared with
        # itself alone (below)
        return
    assert a == b


def test_groups_share_no_fact_and_idle_items_join_the_first() -> None:
    def fact(name: str) -> OpenFact:
        return OpenFact(("persons", name, "x"), name, "unknown", (True, False), completed=True)

    f, g, h = fact("f"), fact("g"), fact("h")
    asks = {("i1", "f"): {Finding("depends", "p", "f")}, ("i3", "g"): {Finding("depends", "p", "g")},
            ("i4", "g"): {Finding("depends", "p", "g")}, ("i4", "h"): {Finding("depends", "p", "h")}}
    assert parts_of(["i1", "i2", "i3", "i4"], [f, g, h], asks) == [(["i1", "i2"], [f]), (["i3", "i4"], [g, h])]


# Facts given as alternatives (``one_of``, ``between``, ``unknown`` dates) are decided part by part too
# (``check_alternatives_in_parts``): each part is the scenario with its items only, so an item's answer must be
# the one it has alone in its scenario (the file with its other items left out).

FIXTURES = ROOT / "tests" / "fixtures" / "open-parts"


def _several_items_open(path: Path) -> bool:
    text = path.read_text(encoding="utf-8")
    if not any(m in text for m in ("between:", "one_of:", ": unknown")) or path not in MULTI:
        return False
    scenario = load_file(path)
    return bool(scenario.unknowns) and len(scenario.income) > 1


OPEN_ITEMS = [p for p in SCENARIOS if _several_items_open(p)]
FOUND = sorted(FIXTURES.glob("*.yaml"))


def _alone(path: Path, n: int) -> Scenario:
    """The scenario of ``path`` with its ``n``-th income item only, as a user would write it: the other
    items, and the ``expect:`` block, left out (an arrangement names the item, or is left out)."""
    data, lines = parse_yaml(read_file(path, "scenario"), str(path))
    data.pop("expect", None)
    item = data["income"][n]
    data["income"] = [item]
    if isinstance(data.get("arrangements"), dict):
        data["arrangements"] = {k: {**a, "items": [item["id"]]} for k, a in data["arrangements"].items()
                                if item["id"] in a.get("items", [])}
    return load_dict(data, str(path), lines)


def _unindexed(item: Any) -> Any:
    """``item`` as JSON with the fields of its open facts left out: a field names an income item by its index,
    which differs between the item alone and among the others (the rest of the answer may not)."""
    def strip(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: strip(v) for k, v in node.items() if k not in ("field", "fields")}
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node
    return strip(json.loads(json.dumps(dataclasses.asdict(item), default=str)))


def _seen(result: ScenarioResult, item: str) -> list[tuple[str, str, bool]]:
    """The open facts the answer says decide ``item``."""
    return sorted((u.fact, u.alternatives, u.given) for u in result.unknowns if item in u.items)


@pytest.mark.parametrize("path", [*scenario_params(OPEN_ITEMS), *(pytest.param(p, id=p.stem) for p in FOUND)])
def test_each_item_answers_as_alone(path: Path, checker: Checker) -> None:
    scenario = load_file(path)
    together = checker.check(scenario, str(path), time_limit=SUITE_TIME_LIMIT)
    assert together.incomplete is None
    for n, item in enumerate(scenario.income):
        alone = checker.check(_alone(path, n), str(path), time_limit=SUITE_TIME_LIMIT)
        assert alone.incomplete is None
        assert _unindexed(together.item(item.id)) == _unindexed(alone.item(item.id)), item.id
        assert _seen(together, item.id) == _seen(alone, item.id), item.id


def test_several_parts_among_the_scenarios() -> None:
    """The comparison above covers scenarios decided in several parts, shipped and found."""
    split = [p for p in [*OPEN_ITEMS, *FOUND] if len(parts(load_file(p)._plain_data, load_file(p).unknowns)) > 1]
    assert len(split) >= 5


def test_the_examiners_three_dates_are_decided_part_by_part(checker: Checker) -> None:
    path = FIXTURES / "three-interest-open-dates.yaml"
    scenario = load_file(path)  # 366 x 396 x 366 combinations in one scenario, 366 at most in one part
    assert [len(p.facts[0].values) for p in parts(scenario._plain_data, scenario.unknowns)] == [366, 396, 366]
    result = checker.check(scenario, str(path), time_limit=SUITE_TIME_LIMIT)
    assert [it.status for it in result.items] == ["depends"] * 3
    assert [u.items for u in result.unknowns] == [("int-0",), ("int-1",), ("int-2",)]


_BASE = """name: t
treaty: br-pt
evaluation_date: 2024-06-30
persons:
  alfa: {kind: company, liable_to_tax: {br: [incorporation]}}
  beta: {kind: company, liable_to_tax: {br: [incorporation]}}
  luso: {kind: company, liable_to_tax: {pt: [incorporation]}}
  porto: {kind: company, liable_to_tax: {pt: [incorporation]}}
  mid: {kind: company, liable_to_tax: {pt: [incorporation]}}
holdings:
  - {holder: luso, company: alfa, capital: CAPITAL, from: 2020-01-01}
  - {holder: porto, company: mid, capital: 60, from: 2020-01-01}
  - {holder: mid, company: beta, capital: 60, from: 2020-01-01}
income:
  - {id: d1, type: dividend, payer: alfa, recipient: luso, date: DATE1}
  - {id: d2, type: dividend, payer: beta, recipient: porto, date: DATE2}
"""


def _text(capital: str = "30", date1: str = "2024-03-15", date2: str = "2024-03-15") -> str:
    return _BASE.replace("CAPITAL", capital).replace("DATE1", date1).replace("DATE2", date2)


def test_a_holding_fact_joins_the_items_of_its_persons_and_chains() -> None:
    year = "{between: [2024-01-01, 2024-12-31]}"
    sc = load_text(_text("{one_of: [20, 30]}", year, year))
    found = [(p.items, [f.name for f in p.facts]) for p in parts(sc._plain_data, sc.unknowns)]
    assert found == [((0,), ["holding(luso, alfa).capital", "income(d1).date"]), ((1,), ["income(d2).date"])]
    chained = _text(date2=year).replace("capital: 60, from: 2020-01-01}\n  - {holder: mid",
                                        "capital: {one_of: [40, 60]}, from: 2020-01-01}\n  - {holder: mid")
    sc = load_text(chained)  # porto holds beta through mid: the holding of porto in mid joins d2
    found = [(p.items, [f.name for f in p.facts]) for p in parts(sc._plain_data, sc.unknowns)]
    assert found == [((0, 1), ["holding(porto, mid).capital", "income(d2).date"])]


def test_items_sharing_a_fact_are_split_past_the_limit() -> None:
    year = "{between: [2024-01-01, 2024-12-31]}"
    sc = load_text(_text("{between: [1, 2]}", year, year).replace("payer: beta, recipient: porto",
                                                                  "payer: alfa, recipient: luso"))
    found = [(p.items, [f.name for f in p.facts]) for p in parts(sc._plain_data, sc.unknowns)]
    assert found == [((0,), ["holding(luso, alfa).capital", "income(d1).date"]),
                     ((1,), ["holding(luso, alfa).capital", "income(d2).date"])]


def test_a_part_too_large_is_refused_naming_its_item() -> None:
    text = _text("{between: [1, 100]}", "{between: [2024-01-01, 2024-02-01]}", "{between: [2024-01-01, 2024-12-31]}")
    with pytest.raises(ScenarioError) as err:
        load_text(text, "t.yaml")
    (problem,) = err.value.problems
    assert problem.expected == "at most 1024 combinations of the unknown facts' alternatives of income(d1)"
    assert problem.found == "3200 (100 x 32)"


def test_whatif_searches_the_part_of_the_items_its_goal_names(checker: Checker) -> None:
    path = ROOT / "scenarios/br-pt/unknowns-three-payments-open-dates-around-first-application.yaml"
    scenario = load_file(path)  # its alternatives combined: 260,337 critical dates, too many for one search
    found = whatif(checker, scenario, str(path), 'max_rate("div-1999-2000", R), R <= 1000', time_limit=60)
    # the date, which decides, is no fact it may change: no change is needed for the goal to hold on some of its
    # days (2000-01-01 or later), on none for all of them (the part's critical dates and the changeable facts'
    # values are few enough to be searched exactly)
    assert found.incomplete is None and [(s.changes, s.certain) for s in found.solutions] == [((), False)]
    assert not any("int-ana" in c for c in found.considered)  # the other parts' facts are not considered
    with pytest.raises(InputError, match="the goal must name the items of one part"):
        whatif(checker, scenario, str(path), "max_rate(I, R), R <= 1000", time_limit=60)
