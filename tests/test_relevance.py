"""Issue 23: a fact the checker asks for can change the answer; one it calls not needed cannot.

For every shipped scenario (within a time share, see :data:`SHARE`), every fact left open that can be given
its values one at a time is checked directly, the other facts as they are, never by solving all the values
together as the answer under test does (brave and cautious consequences):

* the facts opened: given as ``unknown`` (completed over their values), written by the user as alternatives
  (``one_of``, ``between``: a range of dates by its critical dates, an open first or last day), and fields the
  rules report missing whose values can be listed (written into the scenario);
* a fact named as deciding an item (an alternative's condition) must change some conclusion of the item: alone
  where it decides alone, or, where the item's alternatives name several facts, with some values of the others
  (two combinations that differ in that fact alone give different conclusions);
* a fact reported ``missing`` or ``depends`` that the answer did not complete (too many combinations, not
  accepted) is checked likewise where its values can be listed: some value of it, with some values of the
  item's other such facts, changes the item's conclusions;
* a fact listed as ``not_needed`` must change none of the item's conclusions: each State's outcome and cap,
  the findings (but those naming the fact itself), the withholding finding and figure, the maximum tax and the
  alternatives under the other open facts (audit 23, defect 6: not only the outcomes).

The conclusions an exception's finding (:func:`pyhelpers.engine.alternatives.explains`) holds under are checked
in ``tests/test_explaining_findings.py``. The cost is bounded: each shard runs the scenarios its share of
wall-clock time allows (``tests.conftest.within_share``, from a point that turns with the commit), a fact is tried
at most :data:`MAX_VALUES` values (deterministically spread, the first and last among them) and facts that decide
jointly over at most :data:`MAX_COMBINATIONS` combinations; ``TREATY_FULL_CHECKS=1`` runs every scenario.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import itertools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from pyhelpers.base.errors import ScenarioError
from pyhelpers.engine import critical
from pyhelpers.engine.alternatives import explains
from pyhelpers.engine.completion import _missing_fields, _written, unknown_values
from pyhelpers.engine.results import ItemResult, ScenarioResult
from pyhelpers.engine.solve import Checker
from pyhelpers.scenario import Scenario
from pyhelpers.scenario.openfacts import OpenFact, substitute
from pyhelpers.scenario.problems import field_path
from tests.conftest import SCENARIOS, SUITE_TIME_LIMIT, within_share

SHARDS = 8
SHARE = 30.0
"""Seconds of wall-clock time for each of the :data:`SHARDS` shards (the whole corpus took 23 minutes on two
busy cores when every scenario ran as its own test, outcomes only, without alternatives written by the user)."""

MAX_VALUES = 12
"""At most this many values of one fact are tried (spread over its values, the first and the last among them)."""

MAX_COMBINATIONS = 16
"""Facts that decide jointly are combined only where their values (each at most :data:`MAX_VALUES`) make at most
this many combinations; beyond, the fact is checked alone."""

MAX_ANSWERS = 40
"""At most this many variants of one scenario are checked (each a ``treaty check``); the claims left then are not
checked in this run (a count, not a time: the same claims each run of a commit)."""


class _Spent(Exception):
    """:data:`MAX_ANSWERS` variants of one scenario were checked."""


OPENED = [p for p in SCENARIOS if any(w in p.read_text(encoding="utf-8") for w in ("unknown", "one_of", "between"))]


def _conclusions(item: ItemResult, ignored: set[str]) -> tuple[Any, ...]:
    """What a fact may change: each State's outcome and cap, the findings (but those naming the fact
    itself, and the relevance findings ``not_needed`` and ``depends``), the withholding finding and figures,
    the maximum source tax, and the alternatives under the other open facts (a fact that decides only with
    a value of another, such as a place's status once it bears the payment, changes those alone)."""
    findings = tuple(sorted(str(f) for f in item.findings if f.kind not in ("not_needed", "depends", "time_limit")
                            and f.fact not in ignored and (f.field is None or f.field not in ignored)))
    c = item.compliance
    compliance = (c.finding, c.due, c.difference, c.treaty_max_tax) if c is not None else None
    return (tuple((s.state, s.outcome, s.max_rate_bp) for s in item.states), findings, compliance,
            item.max_source_tax, tuple(sorted(str(a) for a in item.alternatives)))


@dataclasses.dataclass(frozen=True)
class _Fact:
    """A fact left open that the test gives its values: its name in the answer, where the scenario states it,
    and the values tried."""

    name: str
    path: tuple[Any, ...]
    values: tuple[Any, ...]
    given: bool  # in the scenario (as unknown or alternatives); else a field left out, written in

    @property
    def field(self) -> str:
        return field_path(self.path)


def _spread(values: Sequence[Any]) -> tuple[Any, ...]:
    """At most :data:`MAX_VALUES` of ``values``, evenly spread, the first and the last among them."""
    if len(values) <= MAX_VALUES:
        return tuple(values)
    step = (len(values) - 1) / (MAX_VALUES - 1)
    return tuple(values[round(k * step)] for k in range(MAX_VALUES))


def _representatives(f: OpenFact) -> tuple[Any, ...]:
    """The values a fact stands for: an open first or last day by the critical dates the engine found (its
    ``values``), a range given ``between`` by its values (critical dates for a range of dates)."""
    return tuple(f.values)


class _Variants:
    """Answers of a scenario with some of its open facts given values (each answer computed once)."""

    def __init__(self, checker: Checker, scenario: Scenario, source: str, facts: Sequence[_Fact]) -> None:
        self.checker, self.scenario, self.source, self.facts = checker, scenario, source, list(facts)
        self.data = scenario._plain_data if scenario._plain_data is not None else scenario.model_dump(
            mode="json", by_alias=True, exclude_unset=True)
        self.known: dict[tuple[tuple[int, int], ...], dict[str, ItemResult] | None] = {}

    def answer(self, choice: dict[int, int]) -> dict[str, ItemResult] | None:
        """The items with fact ``f`` given its ``v``-th value for each ``f: v`` of ``choice`` (the other facts
        as they are); None where the values together are not a valid scenario."""
        key = tuple(sorted(choice.items()))
        if key not in self.known:
            if len(self.known) >= MAX_ANSWERS:
                raise _Spent
            data = copy.deepcopy({k: v for k, v in self.data.items() if k != "expect"})
            given = {self.facts[f].path: self.facts[f].values[v] for f, v in choice.items() if self.facts[f].given}
            data = substitute(data, given)  # where the scenario gives it (in a list too), as ``with_values`` does
            for f, v in choice.items():
                if not self.facts[f].given:  # a field left out: written in, with the maps on its way
                    assert _written(data, self.facts[f].path, self.facts[f].values[v]), self.facts[f].field
            try:
                assert Scenario.revalidate is not None
                variant = Scenario.revalidate(data, self.source)
            except ScenarioError:
                self.known[key] = None
                return None
            chosen = {self.facts[f].path for f in choice}
            variant._open_facts = tuple(f for f in self.scenario.open_facts if f.kind == "unknown"
                                        and f.path not in chosen)
            variant._plain_data = data
            result = self.checker.check(variant, self.source, time_limit=SUITE_TIME_LIMIT)
            self.known[key] = {x.item_id: x for x in result.items}
        return self.known[key]

    def varies(self, f: int, item: str, others: Sequence[int] = ()) -> bool | None:
        """Whether fact ``f`` changes a conclusion of ``item`` between two of its values, the facts ``others``
        at the same values (each combination of theirs tried, within :data:`MAX_COMBINATIONS`); None where no
        two values of ``f`` could be tried."""
        fact = self.facts[f]
        ignored = {fact.name, fact.field}
        spaces = [range(len(self.facts[g].values)) for g in others]
        tried = False
        for rest in itertools.product(*spaces):
            seen = set()
            for v in range(len(fact.values)):
                got = self.answer({f: v, **dict(zip(others, rest, strict=True))})
                if got is None or item not in got:
                    continue
                seen.add(_conclusions(got[item], ignored))
                if len(seen) > 1:
                    return True
            tried = tried or len(seen) == 1
        return False if tried else None

    def same(self, f: int, item: str) -> set[Any]:
        """The conclusions of ``item`` under each value of fact ``f`` (the others as they are)."""
        fact = self.facts[f]
        out = set()
        for v in range(len(fact.values)):
            got = self.answer({f: v})
            if got is not None and item in got:
                out.add(_conclusions(got[item], {fact.name, fact.field}))
        return out


def _opened(checker: Checker, scenario: Scenario, source: str, result: ScenarioResult) -> list[_Fact]:
    """The scenario's open facts the test can give values: the user's alternatives (ranges of dates by their
    critical dates), facts given as ``unknown`` whose values can be listed, fields left out that the rules report
    missing whose values can be listed."""
    out: dict[str, _Fact] = {}
    for f in critical.open_facts(checker, scenario):
        if f.kind == "unknown" and f.values and not f.open_end:
            out[f.name] = _Fact(f.name, f.path, _spread(_representatives(f)), True)
    for f in unknown_values(scenario, per_part=True):  # as the checker opens them, per part of the scenario
        # a list's values are its representative lists (at most 18), each one the rules tell apart: all tried
        out.setdefault(f.name, _Fact(f.name, f.path, tuple(f.values) if f.lists() else _spread(f.values), True))
    if not scenario.unknowns:
        data = scenario._plain_data if scenario._plain_data is not None else scenario.model_dump(
            mode="json", by_alias=True, exclude_unset=True)
        for f, _ in _missing_fields(scenario, [checker.check_three_valued(scenario, source)], copy.deepcopy(data),
                                    source, 1):
            out.setdefault(f.name, _Fact(f.name, f.path, _spread(f.values), False))
    return list(out.values())


def _deciding(item: ItemResult) -> set[str]:
    """The facts the item's alternatives (not an exception's finding alone) are conditioned on."""
    named = set()
    for a in item.alternatives:
        if explains(a):
            continue
        named |= {c.fact for c in a.holds_if}
        named |= {c.fact for conj in a.holds_if_any for c in conj}
    return named


def _problems(checker: Checker, scenario: Scenario, path: Path, result: ScenarioResult) -> tuple[list[str], int]:
    """What the answer to one scenario says of its open facts that a direct check contradicts, and how many
    claims were checked."""
    if result.incomplete is not None:
        return [f"{path}: cut by the time limit"], 0
    facts = _opened(checker, scenario, str(path), result)
    if not facts:
        return [], 0
    index = {f.name: n for n, f in enumerate(facts)} | {f.field: n for n, f in enumerate(facts)}
    variants = _Variants(checker, scenario, str(path), facts)
    opened = {u.fact for u in result.unknowns}
    bad: list[str] = []
    checked = 0
    with contextlib.suppress(_Spent):
        checked = _claims(result, path, facts, index, variants, opened, bad)
    return bad, checked


def _claims(result: ScenarioResult, path: Path, facts: list[_Fact], index: dict[str, int], variants: _Variants,
            opened: set[str], bad: list[str]) -> int:
    """Check the answer's claims on its open facts, one item after the other, adding what a direct check
    contradicts to ``bad``; the number of claims checked."""
    checked = 0

    def joint(f: int, others: list[int]) -> list[int]:
        room = MAX_COMBINATIONS
        kept = []
        for g in others:
            if g != f and len(facts[g].values) <= room // max(len(facts[g].values), 1):
                kept.append(g)
                room //= len(facts[g].values)
        return kept

    for it in result.items:
        deciding = sorted(index[name] for name in _deciding(it) if name in index)
        for f in deciding:  # (1), (4): named as deciding, alone or with the others named
            checked += 1
            if variants.varies(f, it.item_id) or (
                    len(deciding) > 1 and variants.varies(f, it.item_id, joint(f, deciding))):
                continue
            bad.append(f"{path}: {it.item_id}: {facts[f].name} is named as deciding, but no value of it changes "
                       "the item's conclusions (alone, or with the other facts named)")
        reported = [f for f in it.findings if f.kind in ("missing", "depends") and f.fact not in opened
                    and (f.field not in opened if f.field else True)]
        listable = sorted({index[k] for f in reported for k in (f.fact, f.field) if k in index})
        for f in listable:  # (2): reported missing or depending, not completed by the answer
            if facts[f].name in opened:
                continue
            checked += 1
            found = variants.varies(f, it.item_id)
            if found is None or found:
                continue
            if variants.varies(f, it.item_id, joint(f, listable)):
                continue
            unlisted = [g for g in reported if g.fact not in index and (g.field or "") not in index]
            if not unlisted:  # another fact not given may be needed with it: only then it may change nothing alone
                bad.append(f"{path}: {it.item_id}: {facts[f].name} is reported ({[str(g) for g in reported]}), "
                           "but no value of it changes the item's conclusions")
        for spared in (g for g in it.findings if g.kind == "not_needed"):  # (3): every conclusion, not the outcomes
            f = index.get(spared.fact or "", index.get(spared.field or "", -1))
            if f < 0:
                continue
            checked += 1
            seen = variants.same(f, it.item_id)
            if len(seen) > 1:
                bad.append(f"{path}: {it.item_id}: {facts[f].name} listed as not needed, but its values change the "
                           f"item's conclusions: {sorted(map(str, seen))}")
    return checked


@pytest.mark.parametrize("shard", range(SHARDS))
def test_open_facts_reported_matter_and_spared_ones_do_not(shard: int, checker: Checker,
                                                           loaded: Callable[[Path], Scenario],
                                                           checked: Callable[[Path], ScenarioResult]) -> None:
    """Every shipped scenario that leaves a fact open (within the shard's share): see the module doc."""
    bad: list[str] = []
    ran = claims = 0
    for path in within_share(OPENED[shard::SHARDS], SHARE, 5, f"relevance, shard {shard}"):
        found, n = _problems(checker, loaded(path), path, checked(path))
        bad += found
        claims += n
        ran += 1
    assert ran >= 5
    assert not bad, "\n".join(bad)


MISSING_ONLY = [p for p in SCENARIOS if p not in OPENED]
"""The scenarios that give no fact open: each field the rules report missing is what they leave open."""


@pytest.mark.parametrize("shard", range(SHARDS // 2))
def test_missing_fields_reported_matter_and_spared_ones_do_not(shard: int, checker: Checker,
                                                               loaded: Callable[[Path], Scenario],
                                                               checked: Callable[[Path], ScenarioResult]) -> None:
    """The same for the scenarios that give no fact open (the fields left out that the rules report missing)."""
    bad: list[str] = []
    ran = 0
    for path in within_share(MISSING_ONLY[shard::SHARDS // 2], SHARE, 5, f"relevance of missing fields, shard "
                                                                          f"{shard}"):
        result = checked(path)
        if any(f.kind in ("missing", "not_needed") for it in result.items for f in it.findings) or result.unknowns:
            bad += _problems(checker, loaded(path), path, result)[0]
        ran += 1
    assert ran >= 5
    assert not bad, "\n".join(bad)
