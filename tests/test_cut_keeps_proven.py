"""Audit 23, defect 5: a time limit that stops the check after the three-valued answer (one answer set, the
open facts reported by name) keeps what that answer proved: each State's outcome it gives, the facts it finds
missing and the status they give (``missing`` stays ``missing``); it states no bound, no alternative, no
"otherwise" and no threshold for what it did not prove, and says which is which. The cuts are forced
deterministically: a time limit of 0 s for the alternatives (their solves start past the deadline), a stub of
the bounded child for the check (killed after it emitted the three-valued answer, or before)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from pyhelpers.engine import limited
from pyhelpers.engine.bounded import Bounded
from pyhelpers.engine.limited import check_within
from pyhelpers.engine.results import Cut, Finding, ItemResult, ScenarioResult
from pyhelpers.engine.solve import Checker
from pyhelpers.output.render import check_json, check_text, incomplete_text
from pyhelpers.scenario import load_dict, load_file

from .conftest import ROOT

RECORD_ABSENT = ROOT / "scenarios/br-pt/exam23-dividend-holding-record-absent.yaml"
HOLDING = "holding(lusoinvest, alfa-industria-sa)"


def _kept(item: ItemResult, cut: str) -> None:
    """What the three-valued answer of the dividend without a holding record proves, and nothing more."""
    assert item.status == "missing"
    assert (item.state("pt").outcome, item.state("pt").provisions) == ("may_tax", ("br-pt 10(1)",))
    br = item.state("br")
    assert (br.outcome, br.max_rate_bp, br.at_most_bp, br.may_tax_always) == ("undetermined", None, None, False)
    assert item.alternatives == () and item.bound_alternatives == ()
    assert [(f.kind, f.provision, f.fact) for f in item.findings if f.kind in ("missing", "time_limit")] == [
        ("missing", "br-pt 10(2)(a)", HOLDING), ("time_limit", "br-pt", cut)]
    assert item.compliance is not None and item.compliance.finding == "undetermined"


def _said(result: ScenarioResult) -> str:
    text = check_text(result, None, "en")
    for never in ("otherwise", "at most", "or earlier", "or later", "10%", "15%", "[decided]", "[depends]",
                  "answered over every value"):
        assert never not in text, never
    assert "Portugal: may tax  (br-pt 10(1))" in text
    assert "missing fact: holding (lusoinvest, alfa-industria-sa) (needed by br-pt 10(2)(a))" in text
    return text


def test_a_cut_of_the_alternatives_keeps_what_the_three_valued_answer_proved(checker: Checker) -> None:
    result = checker.check(load_file(RECORD_ABSENT), str(RECORD_ABSENT), time_limit=0.0)
    assert result.incomplete is not None and result.incomplete.cut == Cut.ALTERNATIVES
    item = result.item("div-2024")
    _kept(item, "proven")
    text = _said(result)
    assert "facts not given, whose values the time limit left not all examined:" in text
    assert "the time limit was reached before every value of the open facts was examined: the outcomes and " \
           "findings shown hold on the facts given; an outcome shown as undetermined is not proven either way, " \
           "and no bound is stated (br-pt)" in text
    data = check_json(result, None, "en")["items"][0]
    assert data["status"] == "missing" and data["alternatives"] == []
    assert [s["at_most_bp"] for s in data["states"]] == [None, None]
    assert {"kind": "time_limit", "provision": "br-pt", "fact": "proven"} in data["findings"]


def test_with_time_to_finish_the_same_scenario_states_its_bound(checker: Checker) -> None:
    """Narrowly not: given the time, the answer over the holding's values is the bound, with no time_limit."""
    item = checker.check(load_file(RECORD_ABSENT), str(RECORD_ABSENT)).item("div-2024")
    assert item.status == "missing" and item.state("br").at_most_bp == 1500 and item.alternatives
    assert not any(f.kind == "time_limit" for f in item.findings)


def _stopped(emit_three: bool) -> Callable[..., Bounded[ScenarioResult, ScenarioResult]]:
    """A bounded run killed at its deadline: after its work emitted the three-valued answer, or before."""

    def run(work: Callable[[Callable[[ScenarioResult], None]], ScenarioResult], deadline: float
            ) -> Bounded[ScenarioResult, ScenarioResult]:
        emitted: list[ScenarioResult] = []
        if emit_three:
            work(emitted.append)  # the whole check runs; its value is thrown away as a kill would
        return Bounded(None, False, emitted[:1], wall=0.5, cpu=0.4)

    return run


def test_a_check_cut_after_the_three_valued_answer_keeps_what_it_proved(
        checker: Checker, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limited, "run_bounded", _stopped(True))
    result = check_within(checker, load_file(RECORD_ABSENT), str(RECORD_ABSENT), time_limit=0.3)
    assert result.incomplete is not None and (result.incomplete.cut, result.incomplete.proven) == (Cut.CHECK, True)
    _kept(result.item("div-2024"), "check_proven")
    text = _said(result)
    assert text.startswith("INCOMPLETE: the time limit of 0.3 s was reached before the check ended (the rules had "
                           "been applied once, the open facts left open, but their values were not all examined; ")
    assert text.splitlines()[0].endswith("the outcomes and findings shown hold on the facts given, the others are "
                                         "not proven either way")
    assert "no item is decided" not in text and "nothing is final" not in text
    assert json.loads(json.dumps(check_json(result, None, "en")))["incomplete_reason"]["proven"] is True


def test_a_check_cut_before_the_three_valued_answer_decides_nothing(
        checker: Checker, monkeypatch: pytest.MonkeyPatch) -> None:
    """Narrowly not: cut before the rules were applied once, nothing is proven (not even that a fact is missing)."""
    monkeypatch.setattr(limited, "run_bounded", _stopped(False))
    result = check_within(checker, load_file(RECORD_ABSENT), str(RECORD_ABSENT), time_limit=0.3)
    assert result.incomplete is not None and not result.incomplete.proven
    item = result.item("div-2024")
    assert item.status == "depends" and {s.outcome for s in item.states} == {"undetermined"}
    assert [str(f) for f in item.findings] == [str(Finding("time_limit", "br-pt", "check"))]
    assert str(incomplete_text(result.incomplete, "en")).endswith("no item is decided")


def test_an_item_that_reads_no_open_fact_keeps_its_answer_without_a_time_limit_finding(checker: Checker) -> None:
    """An item of the same scenario that leaves nothing open is final at the cut: the open facts' values change
    nothing of it (a copy of the scenario with a second, decided item)."""
    data: Any = load_file(RECORD_ABSENT).model_dump(mode="json", by_alias=True, exclude_unset=True)
    data.pop("expect", None)
    interest = {"id": "int-2024", "type": "interest", "payer": data["income"][0]["payer"],
                "recipient": data["income"][0]["recipient"], "date": data["income"][0]["date"],
                "gross": {"amount": "1000.00", "currency": "BRL"}}
    data["income"].append(interest)
    scenario = load_dict(data, "<two items>")
    cut = checker.check(scenario, "<two items>", time_limit=0.0)
    whole = checker.check(scenario, "<two items>")
    assert whole.item("int-2024") == cut.item("int-2024")
    assert not any(f.kind == "time_limit" for f in cut.item("int-2024").findings)
    assert cut.item("div-2024").status == "missing"
