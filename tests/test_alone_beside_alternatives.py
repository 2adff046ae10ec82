"""An item's answer is the one it has alone in its scenario, also beside another item whose facts are given as
alternatives (docs/guide/incomplete-facts.md: «Each item's answer is the one it has alone in its scenario.»).

blind59 D6: a capital share not given was answered over its values (ranges, bounds) where the item was alone, but
not where any fact of the scenario was given as alternatives (another holding's `until: unknown`): the item read
"undetermined on the facts given", with no alternatives. Each scenario below is checked as shipped and with another
item added beside it, whose holding's end is given as `unknown` (its own payer, recipient and owner, appended after
every record, so that the fields the answer names keep their indices): each original item's answer must be the same.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from pyhelpers.engine.results import ItemResult
from pyhelpers.engine.solve import Checker
from pyhelpers.scenario import load_dict
from pyhelpers.scenario.reading import parse_yaml, read_file
from tests.conftest import ROOT, SUITE_TIME_LIMIT

FIXTURE = ROOT / "tests/fixtures/open-exam/blind59/b59-07-uy-29-4-bounds-and-short-holding.yaml"

SHIPPED = [
    "scenarios/br-uy/lob59-29-4-open-share-beside-stated-shares.yaml",
    "scenarios/br-uy/blind56b-01-shares-counted-in-capital.yaml",
]
"""Shipped scenarios whose items are answered over a capital share or a holding record not given."""


def _data(path: Path) -> dict[str, Any]:
    return parse_yaml(read_file(path, "scenario"), str(path))[0]


def _seen(item: ItemResult) -> tuple[Any, ...]:
    """What a user reads of an item's answer: its status, each State's outcome and bound, its findings, its
    alternatives, its provisions."""
    return (item.status, tuple((s.state, s.outcome, s.max_rate_bp, s.at_most_bp, s.provisions) for s in item.states),
            tuple(sorted((f.kind, f.provision, f.fact or "") for f in item.findings)),
            tuple(sorted(str(a) for a in item.alternatives)), item.provisions)


def _answers(checker: Checker, data: dict[str, Any], source: str) -> dict[str, tuple[Any, ...]]:
    data = {k: v for k, v in data.items() if k != "expect"}
    result = checker.check(load_dict(data, source), source, time_limit=SUITE_TIME_LIMIT)
    assert result.incomplete is None
    return {it.item_id: _seen(it) for it in result.items}


def _beside_open_end(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with another item beside its own: a dividend of a company of its own, whose holder's holding began
    shortly before the payment and whose end is given as `unknown`."""
    out = copy.deepcopy(data)
    first = next(iter(out["income"]))
    other = "uy" if out["treaty"] == "br-uy" else "other"
    out["persons"] = {**out["persons"],
                      "zz-payer": {"kind": "company", "liable_to_tax": {"br": ["incorporation"]}},
                      "zz-owner": {"kind": "company", "liable_to_tax": {other: ["incorporation"]},
                                   "entitlement": {"regularly_traded": False, "entity_purpose": "none",
                                                   "business_activity": "holding_company",
                                                   "financial_institution": "none"}},
                      "zz-eb": {"kind": "company", "liable_to_tax": {"cl": ["incorporation"]},
                                "entitlement": {"equivalent_beneficiary": True,
                                                "equivalent_beneficiary_as_company": True}}}
    day = str(first.get("date"))
    out["holdings"] = [*out.get("holdings", []),
                       {"holder": "zz-owner", "company": "zz-payer", "capital": 100, "direct": True,
                        "from": "2010-01-01"},
                       {"holder": "zz-eb", "company": "zz-owner", "capital": 100, "direct": True,
                        "from": day, "until": "unknown"}]
    out["income"] = [*out["income"], {"id": "zz-beside", "type": "dividend", "payer": "zz-payer",
                                      "recipient": "zz-owner", "date": day,
                                      "gross": {"amount": "1000.00", "currency": "BRL"}}]
    return out


def test_fixture_item_answers_as_alone(checker: Checker) -> None:
    """b59-07 g1 (an equivalent beneficiary's share not given, at most 15% beside 45% and 40%) answers in its file,
    beside g3's `until: unknown`, as it does alone: benefits denied whatever the share."""
    data = _data(FIXTURE)
    whole = _answers(checker, data, str(FIXTURE))
    alone = copy.deepcopy(data)
    alone["income"] = [i for i in data["income"] if i["id"] == "g1-bounded-below-75"]
    alone["arrangements"] = {"plain": {**data["arrangements"]["plain"], "items": ["g1-bounded-below-75"]}}
    alone["holdings"] = [h for h in data["holdings"] if "hold-e" in (h["holder"], h["company"])]
    answered = _answers(checker, alone, "<g1 alone>")
    assert whole["g1-bounded-below-75"] == answered["g1-bounded-below-75"]
    assert whole["g1-bounded-below-75"][0] == "decided"


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_items_answer_as_alone_beside_an_open_end(name: str, checker: Checker) -> None:
    data = _data(ROOT / name)
    before = _answers(checker, data, name)
    after = _answers(checker, _beside_open_end(data), name)
    assert {k: v for k, v in after.items() if k != "zz-beside"} == before
