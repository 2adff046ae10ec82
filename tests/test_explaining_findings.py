"""Audit 23, defect 6: a fact is "not needed" only if every value of it leaves the item's outcomes, findings and
compliance figures unchanged (issue 23, point 1). A finding that says why an outcome holds (an exception that
applies) but holds under some values of an open fact only is shown with those values (``possibly: ... if``), and
the fact is neither listed as not needed nor reported as deciding (the outcome is the same whatever it is: it is
not asked). Fixed in the engine (:data:`pyhelpers.engine.alternatives._EXPLAINING`), not per article."""

from __future__ import annotations

import yaml

from pyhelpers.engine.alternatives import explains
from pyhelpers.engine.results import ItemResult
from pyhelpers.engine.solve import Checker
from pyhelpers.output.render import check_text
from pyhelpers.scenario import load_file, load_text

from .conftest import ROOT

OMITTED = ROOT / "tests/fixtures/audit23/anti-fragmentation-character-omitted.yaml"
"""The audit's br-ae 5(4.1) case: the warehouse's own character (``activities_preparatory_overall``) left out."""
SHIPPED = ROOT / "scenarios/br-ae/exam23-anti-fragmentation-warehouse-character-unknown.yaml"
"""The same, the character given as ``unknown``."""
EXCLUSIVE_AGENT = ROOT / "scenarios/br-ae/exam23-agent-exclusive-for-parent-independence-unknown.yaml"
FACT = "places_of_business.campinas-warehouse.activities_preparatory_overall"
EXCEPTION = "exception: anti_fragmentation (br-ae 5(4.1)(a))"


def _given(value: bool) -> ItemResult:
    data = yaml.safe_load(OMITTED.read_text(encoding="utf-8"))
    data["places_of_business"]["campinas-warehouse"]["activities_preparatory_overall"] = value
    return Checker().check(load_text(yaml.safe_dump(data), "given.yaml")).item("warehouse-profits")


def _summary(item: ItemResult) -> tuple[object, ...]:
    return (item.status, tuple((s.state, s.outcome) for s in item.states),
            sorted(str(f) for f in item.findings if f.kind not in ("not_needed", "depends")))


def test_the_values_give_the_same_outcome_and_differ_in_the_exception_finding(checker: Checker) -> None:
    """The premise, checked directly: true and false give the same outcomes; only true gives 5(4.1)'s finding."""
    true, false = _given(True), _given(False)
    assert [(s.state, s.outcome) for s in true.states] == [(s.state, s.outcome) for s in false.states]
    assert EXCEPTION in [str(f) for f in true.findings] and EXCEPTION not in [str(f) for f in false.findings]


def test_the_exception_is_shown_under_the_value_that_gives_it_and_its_fact_is_not_spared(checker: Checker) -> None:
    for path in (OMITTED, SHIPPED):
        item = checker.check(load_file(path), str(path)).item("warehouse-profits")
        assert item.status == "not_encoded"  # (business profits: br-ae 7 is not encoded) as each value gives
        assert _summary(item)[1] == _summary(_given(True))[1]
        assert [str(a) for a in item.alternatives] == [f"{EXCEPTION} if {FACT} is true"]
        assert all(explains(a) and a.exact for a in item.alternatives)
        assert not [f for f in item.findings if f.kind in ("not_needed", "depends", "missing")], item.findings
        assert EXCEPTION not in [str(f) for f in item.findings]  # not certain: it holds under true only
        text = check_text(checker.check(load_file(path), str(path)), None, "en")
        assert ("possibly: exception applies: complementary functions of the same or a closely related enterprise in "
                "an integrated business operation, which take the place out of paragraph 4 (br-ae 5(4.1)(a)) if "
                f"{FACT} is true") in text
        assert "not needed" not in text and "(decides" not in text


def test_a_fact_whose_values_change_nothing_of_the_item_is_still_not_needed(checker: Checker) -> None:
    """Narrowly not: the agent acting exclusively for its parent (br-ae 5(7)); its independence and ordinary course
    change no outcome, finding or figure: both are listed as not needed, and no alternative is shown."""
    item = checker.check(load_file(EXCLUSIVE_AGENT), str(EXCLUSIVE_AGENT)).item("dune-sales")
    assert item.alternatives == ()
    assert sorted((f.provision, f.fact) for f in item.findings if f.kind == "not_needed") == [
        ("br-ae 5(7)", "agent_independent(gulf-agent)"), ("br-ae 5(7)", "agent_ordinary_course(gulf-agent)")]

