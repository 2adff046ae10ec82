"""Versions of the rules by date: an amended article file replaces the original for items whose
relevant date falls in its period (payment date for taxes withheld at source, the fiscal year's first day
for other taxes). The corpus has no amending protocol yet, so the test builds a rule base with a
synthetic one, kept here and never in logic/: "Protocol of 2026" lowers br-pt 10(2)(a) from 10% to 5%
from 1 January 2027."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pyhelpers.base.errors import LogicError
from pyhelpers.base.rulebase import logic_dir
from pyhelpers.engine.program import load_logic
from pyhelpers.engine.solve import Checker
from pyhelpers.explain.explainer import explain_scenario
from pyhelpers.scenario import load_text

BANNER = """% Version: Protocol of 2026 (synthetic, for tests)
% Applies: from 2027-01-01
% Replaces: art10_dividends.lp
"""
AMENDMENTS = [  # (original text, amended text): each must occur in the original article file
    ("%| br-pt 10(2)(a): 10% do montante bruto", "%| br-pt 10(2)(a): 5% do montante bruto"),
    ("dividend_reduced_rate", "dividend_reduced_rate_2027"),
]

SCENARIO = """
name: A dividend just before and on the first day of the amending protocol
treaty: br-pt
evaluation_date: 2027-06-30
persons:
  lusoinvest: {kind: company, liable_to_tax: {pt: [place_of_management]}}
  alfa: {kind: company, liable_to_tax: {br: [incorporation]}}
holdings:
  - {holder: lusoinvest, company: alfa, capital: 30, from: 2020-01-01}
income:
  - {id: div-2026-12-31, type: dividend, payer: alfa, recipient: lusoinvest, date: 2026-12-31}
  - {id: div-2027-01-01, type: dividend, payer: alfa, recipient: lusoinvest, date: 2027-01-01}
  - id: div-fiscal-2026
    type: dividend
    payer: alfa
    recipient: lusoinvest
    date: 2027-03-01
    tax: {name: irpj, withheld_at_source: false, fiscal_year_start: 2026-04-01}
"""


@pytest.fixture(scope="module")
def amended_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("amended") / "logic"
    shutil.copytree(logic_dir(), root)
    text = (root / "br-pt" / "art10_dividends.lp").read_text(encoding="utf-8")
    for old, new in AMENDMENTS:
        assert old in text, old
        text = text.replace(old, new)
    head, rest = text.split("% Title:", 1)
    amended = head + BANNER + "% Title:" + rest
    amended += '\npercentage("br-pt", dividend_reduced_rate_2027, 500, "br-pt 10(2)(a)").\n'
    (root / "br-pt" / "art10_dividends_protocol_2026.lp").write_text(amended, encoding="utf-8")
    return root


def test_each_item_is_decided_by_the_version_in_force_on_its_date(amended_root: Path) -> None:
    checker = Checker(load_logic(amended_root))
    result = checker.check(load_text(SCENARIO, "versions.yaml"))
    before, after, fiscal = result.items
    assert before.state("br").label == "capped 10%" and before.version == ()
    assert after.state("br").label == "capped 5%"
    assert after.version == ("art10_dividends_protocol_2026.lp: Protocol of 2026 (synthetic, for tests), "
                             "from 2027-01-01",)
    assert "br-pt 10(2)(a)" in after.provisions
    # a tax not withheld at source: the fiscal year that began on 1 April 2026 is before the protocol
    assert fiscal.state("br").label == "capped 10%" and fiscal.version == ()


def test_the_explanation_uses_and_names_the_version(amended_root: Path) -> None:
    checker = Checker(load_logic(amended_root))
    scenario = load_text(SCENARIO, "versions.yaml")
    ex = explain_scenario(checker, scenario, item="div-2027-01-01")
    caps = [s for s in ex.true if s.name == "source_cap" and s.arguments[1].string == "div-2027-01-01"]
    assert [s.arguments[3].number for s in caps] == [500]
    tree = ex.tree(caps[0])
    files = set()

    def walk(step: object) -> None:
        files.add(getattr(step, "location", "") or "")
        for c in getattr(step, "children", []):
            walk(c)

    walk(tree)
    assert any("art10_dividends_protocol_2026.lp" in f for f in files), files


def test_the_original_rule_base_is_unchanged_without_amendments() -> None:
    checker = Checker()
    result = checker.check(load_text(SCENARIO, "versions.yaml"))
    assert [it.state("br").label for it in result.items] == ["capped 10%"] * 3
    assert all(it.version == () for it in result.items)


def test_bad_amendment_banner(tmp_path: Path) -> None:
    root = tmp_path / "logic"
    shutil.copytree(logic_dir(), root)
    (root / "br-pt" / "art10_bad.lp").write_text("% Treaty: br-pt\n% Version: x\n% Applies: 2027\n",
                                                  encoding="utf-8")
    with pytest.raises(LogicError, match="needs 'Applies: from YYYY-MM-DD"):
        _ = load_logic(root).amendments
