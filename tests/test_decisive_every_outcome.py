"""Issue 24 (acceptance audit): every State's outcome `treaty check` prints carries a decisive line (``↳ ...``)
saying which provision decided it and on what facts: an outcome no rule gives (the treaty's application open, a
limit open on a missing fact) by what leaves it open; an income the corpus names no article for by the treaty
and the missing article; a scenario with facts given as alternatives where its outcome does not turn on them. A
fixed sample of each kind the audit found (`tests/bench/decisive_audit.py` counts them over scenarios/); the
decisive lines of a large scenario come from the derivations they reach only (the same lines, not the load's
hostage); and `treaty explain` says of a fact the check finds not needed what the check says."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pyhelpers.engine.solve import Checker
from pyhelpers.explain.argument import argument_for
from pyhelpers.explain.explainer import explain_scenario
from pyhelpers.interfaces.cli import main
from pyhelpers.interfaces.documents import decisive_lines
from pyhelpers.scenario import load_file

from .conftest import ROOT

# (scenario, item, State, what its line says: the provision that decides first, then words it must carry)
LINES = [
    # the article of br-ae on capital gains is not in the corpus: the treaty cited, the article named by its subject
    # (lines59, blind58b D10)
    ("br-ae/income-governed-by-missing-articles", "share-gain", "ae",
     ["br-ae: the article of br-ae on capital gains, which governs share-gain, is not in the corpus: not encoded"]),
    # narrowly not: the corpus names the article (interest, br-ae 11), which is missing
    ("br-ae/income-governed-by-missing-articles", "loan-interest", "ae", ["br-ae 11 is not encoded"]),
    # the application after a notice of termination delivered late is open: 31(2) with 32(a)/32(b)'s question
    ("br-uy/blind49-uy-07-termination-notice-delivered-1-july", "div-2031-01-01", "br",
     ["br-uy 31(2): whether the Convention applies to the tax of Brazil", "the text of br-uy 32(a) does not say"]),
    ("br-uy/blind49-uy-07-termination-notice-delivered-1-july", "div-2031-01-01", "uy",
     ["br-uy 31(2): whether the Convention applies to the tax of Uruguay", "the text of br-uy 32(b) does not say"]),
    # narrowly not: a dividend of the same scenario paid before the notice takes effect is decided
    ("br-uy/blind49-uy-07-termination-notice-delivered-1-july", "div-2030-12-31", "br", ["br-uy 10(2)"]),
    # Brazil's limit open on a holding the scenario does not give
    ("br-uy/exam37-uy-div-holding-absent", "div-2024-03", "br",
     ["br-uy 10(2): the tax of Brazil on div-2024-03 is limited", "br-uy 10(2)(a) turns on holding"]),
    ("br-uy/exam37-uy-div-holding-absent", "div-2024-03", "uy", ["br-uy 10(1): Uruguay may tax div-2024-03"]),
    # a short-stay letter that fails and tests no figure (a PE bears the salary): the letter, with what fails it,
    # not the paragraph that gives the right (16(1) tests no figure)
    ("br-pl/blind52-b12-pl-employment-borne-by-place-fixed-base", "a-borne-by-pe", "br",
     ["br-pl 16(2)(c) (on reconstructed br-pl 5): short-stay condition c for a-borne-by-pe is not met",
      "sp-pe is a permanent establishment"]),
    # narrowly not: the letter that fails tests a figure (184 days against 183): that test is the line
    ("br-pl/blind52-b12-pl-employment-borne-by-place-fixed-base", "f-184-days", "br",
     ["br-pl 16(2)(a): short-stay condition a for f-184-days is not met", "184 days"]),
    # facts given as alternatives the outcome does not turn on: argued with them set aside
    ("br-ae/exam23-shipping-freight-irrelevant-unknowns", "freight-2024", "br",
     ["br-ae 8(1) (on reconstructed br-ae 3): freight-2024 may be taxed only in the United Arab Emirates"]),
    ("br-ae/exam23-shipping-freight-irrelevant-unknowns", "freight-2024", "ae",
     ["br-ae 8(1) (on reconstructed br-ae 3): freight-2024 may be taxed only in the United Arab Emirates"]),
]


@pytest.fixture(scope="module")
def checker() -> Checker:
    return Checker()


@pytest.mark.parametrize("name", sorted({case[0] for case in LINES}))
def test_every_outcome_has_a_decisive_line(checker: Checker, name: str) -> None:
    scenario = load_file(ROOT / "scenarios" / f"{name}.yaml")
    result = checker.check(scenario)
    lines = decisive_lines(checker, scenario, "en", result)
    without = [(i.item_id, s.state, s.label) for i in result.items for s in i.states
               if (i.item_id, s.state) not in lines]
    assert without == []
    for case, item, state, words in LINES:
        if case == name:
            line = lines[(item, state)]
            assert line.startswith(words[0]), line
            assert all(w in line for w in words[1:]), line


def test_open_alternatives_keep_no_line(checker: Checker) -> None:
    """A State whose outcome turns on facts given as alternatives keeps no decisive line (`treaty check` shows the
    alternatives under it): the argument with those facts set aside would call them not given."""
    scenario = load_file(ROOT / "scenarios" / "br-uy" / "exam43-royalty-active-business-income-link-alternatives.yaml")
    result = checker.check(scenario)
    lines = decisive_lines(checker, scenario, "en", result)
    for item in result.items:
        for s in item.states:
            if s.outcome == "undetermined":
                assert (item.item_id, s.state) not in lines
            else:
                assert (item.item_id, s.state) in lines


def test_ladder_lines_reach_few_derivations(checker: Checker) -> None:
    """The 12-level ownership ladder: its outcomes' arguments reach a few dozen atoms of the tens of thousands its
    entitlement's arithmetic derives; the lazy explainer finds supports for those only, and gives the lines the
    whole one gives (the same choices)."""
    scenario = load_file(ROOT / "scenarios" / "br-uy" / "exam26-uy-e-ladder-12-levels-50-50.yaml")
    lazy = explain_scenario(checker, scenario, "en", lazy=True)
    args = [a.to_dict() for a in argument_for(lazy, "dividend-2025-05", frozenset({"state_outcome"}))]
    assert [a["lines"][0]["provision"] for a in args] == ["br-uy 10(2)(a)", "br-uy 10(1)"]
    assert len(lazy.supports) < 100


@pytest.mark.parametrize("name", ["br-pt/dividends-qualifying-holding",
                                  "br-uy/blind49-uy-07-termination-notice-delivered-1-july",
                                  "br-uy/exam37-uy-div-holding-absent"])
def test_lazy_explainer_argues_as_the_whole(checker: Checker, name: str) -> None:
    scenario = load_file(ROOT / "scenarios" / f"{name}.yaml")
    whole, lazy = (explain_scenario(checker, scenario, "en", lazy=flag) for flag in (False, True))
    for item in scenario.income:
        assert [a.to_dict() for a in argument_for(lazy, item.id, frozenset({"state_outcome"}))] == \
            [a.to_dict() for a in argument_for(whole, item.id, frozenset({"state_outcome"}))]


def test_explain_after_a_ppt_denial_says_what_check_says() -> None:
    """The benefits denied under br-uy 29(9): the holding 10(2)(a) would need is not needed (check); explain says
    so, and no longer argues the limit the holding would have decided."""
    path = str(ROOT / "scenarios" / "br-uy" / "ppt-principal-purpose-benefits-denied.yaml")
    out = CliRunner().invoke(main, ["explain", path]).output
    assert "not needed: holding (alfa-uy, beta-br) (br-uy 10(2)(a))" in out
    assert "turns on holding" not in out and "needs holding" not in out and "is limited" not in out


def test_explain_where_the_ppt_spares_the_benefit_still_asks() -> None:
    """Narrowly not: the object-and-purpose exception grants the benefit; the holding decides the limit, and explain
    asks for it as check does."""
    path = str(ROOT / "scenarios" / "br-uy" / "ppt-object-and-purpose-exception.yaml")
    out = CliRunner().invoke(main, ["explain", path]).output
    assert "br-uy 10(2)(a) turns on holding" in out
    assert "not needed: holding" not in out
