"""Audit 23, defects 8 and 10: an open fact the scenario gives (``unknown``, alternatives, a range) that
decides nothing of an item it is about is listed as "not needed" for that item, as the facts the rules ask
for are (text, JSON, Markdown); and a fact found for several provisions is said once, with all of them
(text and Markdown; JSON keeps one finding per provision)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pyhelpers.engine.results import Finding
from pyhelpers.interfaces.cli import main
from pyhelpers.output.render import merged_findings

BASE = """
name: t
treaty: br-pt
evaluation_date: 2024-06-30
persons:
  luso: {kind: company, liable_to_tax: {pt: [incorporation]}, special_regime: []}
  alfa: {kind: company, liable_to_tax: {br: [incorporation]}}
holdings:
  - {holder: luso, company: alfa, capital: CAPITAL, from: FROM}
income:
  - {id: div, type: dividend, payer: alfa, recipient: luso, date: 2024-03-15,
     gross: {amount: "1000000.00", currency: BRL}}
"""

FACT = "holding(luso, alfa).from"


def _run(tmp_path: object, capital: str, first: str, fmt: str) -> str:
    path = tmp_path / "s.yaml"  # type: ignore[operator]
    path.write_text(BASE.replace("CAPITAL", capital).replace("FROM", first), encoding="utf-8")
    out = CliRunner().invoke(main, ["check", "--format", fmt, str(path)])
    assert out.exit_code in (0, 1), out.output
    return out.output


@pytest.mark.parametrize("first", ["unknown", "{between: [2021-06-01, 2022-06-30]}",
                                   "{one_of: [2020-01-01, 2023-06-01]}"])
def test_a_given_open_fact_that_decides_nothing_is_not_needed(tmp_path: object, first: str) -> None:
    """10% of the capital: 10(2)(b)'s 15% whatever the first day of the holding."""
    (item,) = json.loads(_run(tmp_path, "10", first, "json"))["results"][0]["items"]
    assert item["status"] == "decided"
    br = next(s for s in item["states"] if s["state"] == "br")
    assert (br["outcome"], br["max_rate_bp"], br["provisions"]) == ("capped", 1500, ["br-pt 10(2)", "br-pt 10(2)(b)"])
    assert [(f["kind"], f["provision"], f["fact"], f["field"]) for f in item["findings"]] == [
        ("not_needed", "br-pt 10(2)(a)", FACT, "holdings[0].from"),
        ("not_needed", "br-pt 10(2)(b)", FACT, "holdings[0].from")]
    text = _run(tmp_path, "10", first, "text")
    assert (f"  - not needed: {FACT} (br-pt 10(2)(a); br-pt 10(2)(b)): every value it may take gives the same "
            "answer; in the scenario: `holdings[0].from`") in text
    assert text.count("not needed:") == 1
    md = _run(tmp_path, "10", first, "markdown")
    assert f"- `div`: not needed: {FACT} (br-pt 10(2)(a); br-pt 10(2)(b))" in md


def test_a_given_open_fact_that_decides_is_not_listed_as_not_needed(tmp_path: object) -> None:
    """The narrowly-not case: 25% of the capital, so the first day decides 10(2)(a)'s two years."""
    (item,) = json.loads(_run(tmp_path, "25", "unknown", "json"))["results"][0]["items"]
    assert item["status"] == "depends"
    assert not any(f["kind"] == "not_needed" for f in item["findings"])
    assert {(f["kind"], f["fact"]) for f in item["findings"]} == {("depends", FACT)}
    assert "not needed" not in _run(tmp_path, "25", "unknown", "text")


def test_a_fact_about_another_item_is_not_listed(tmp_path: object) -> None:
    """A holding in another company is no fact of the dividend: not listed for it."""
    text = BASE.replace("CAPITAL", "10").replace("FROM", "unknown").replace("company: alfa", "company: beta")
    text = text.replace("  alfa: {kind", "  beta: {kind: company, liable_to_tax: {br: [incorporation]}}\n  alfa: {kind")
    path = tmp_path / "s.yaml"  # type: ignore[operator]
    path.write_text(text, encoding="utf-8")
    out = CliRunner().invoke(main, ["check", "--format", "json", str(path)])
    (item,) = json.loads(out.output)["results"][0]["items"]
    assert not any(f["kind"] == "not_needed" for f in item["findings"])


def test_one_fact_for_several_provisions_is_said_once() -> None:
    a = Finding("missing", "xx-yy 29(3)(a)", "p(x).f", field="p.f")
    b = Finding("missing", "xx-yy 29(6)(d)", "p(x).f", field="p.f")
    other = Finding("missing", "xx-yy 29(6)(d)", "p(x).g", field="p.g")
    note = Finding("note", "xx-yy 30", "n")
    assert merged_findings([a, other, b, b, note, note]) == [
        Finding("missing", "xx-yy 29(3)(a); xx-yy 29(6)(d)", "p(x).f", field="p.f"), other, note, note]
    # the narrowly-not cases: another kind of finding about the same fact stays apart
    c = Finding("depends", "xx-yy 29(6)(d)", "p(x).f", field="p.f")
    assert merged_findings([a, c]) == [a, c]


NOT_NEEDED = ["br-ae/exam23-shipping-freight-irrelevant-unknowns", "br-pt/exam23-interest-cap-whatever-open-facts",
              "br-pt/exam23-open-dividend-sale-date-unknown", "br-pt/exam23-open-site-periods-first-stint-exceeds",
              "br-pt/exam23-open-split-payroll-arrival-unknown", "br-uy/unknowns-capital-every-alternative-qualifies"]
"""The shipped scenarios whose given open facts decide nothing of some item (their examiners' notes say so)."""


@pytest.mark.parametrize("name", NOT_NEEDED)
def test_each_value_of_a_fact_not_needed_gives_the_same_item(name: str) -> None:
    """On the engine, not by the listing's own reasoning: the fact fixed to each of its values (a date by
    each of its critical dates, the other open facts left open) gives the item the same States' outcomes and
    compliance, and cites at least the provisions the answer over every value cites."""
    from pyhelpers.engine import critical
    from pyhelpers.engine.completion import unknown_values
    from pyhelpers.engine.solve import Checker
    from pyhelpers.scenario import load_file

    from .conftest import ROOT

    checker = Checker()
    path = str(ROOT / "scenarios" / f"{name}.yaml")
    scenario = load_file(path)
    result = checker.check(scenario, path)
    listed = {(it.item_id, f.fact) for it in result.items for f in it.findings if f.kind == "not_needed"}
    given = {f.name: f for f in (*critical.open_facts(checker, scenario), *unknown_values(scenario))}
    pairs = [(iid, fact) for iid, fact in listed if fact in given]
    assert pairs
    for iid, fact in pairs:
        open_fact = given[fact]
        seen = set()
        certain = set(result.item(iid).provisions)
        for value in open_fact.values:
            fixed = scenario.with_values({open_fact.path: value}, path, keep_unknown=True)
            item = checker.check(fixed, path).item(iid)
            # the provisions the answer over every value cites are cited under each; a value may add one that
            # fails, a second way, an exception the outcome already does without (a short-stay letter beside
            # the one that fails under every value), never one that decides otherwise
            assert certain <= set(item.provisions), (iid, fact, value, sorted(certain - set(item.provisions)))
            seen.add((tuple((s.state, s.outcome, s.max_rate_bp) for s in item.states),
                      item.compliance.finding if item.compliance else None))
        assert len(seen) == 1, (iid, fact, seen)
