"""The wording of the legal argument an acceptance audit still found (issue 24; AUDIT53b, "Reading the
argument" points 5-7 and "What remains" points 3 and 5).

1. A named exception reads as what its provision says, never as the rules' label for it in quotes
   ("the exception “connected activities added” of br-ae 5(3)"): in the argument, its headings and
   `treaty check`'s findings, in every language.
2. No line is said twice in an item's argument ("governed by br-ae 7" under each State and again).
3. A comparison the rules make inside an aggregate names what it decides ("with the added periods, the site
   X exceeds six months (200 days > 184 days)"), never a bare "200 days > 184 days"; a reading states the fact,
   not the rule ("... count for X if the enterprises are then closely related").
4. A test required met and not met reads as that test not met ("short-stay condition a ... is not met (184
   days > 183 days)"), never "the condition that ... is met is not met"; pt-BR writes possessives without the
   article ("suas ações"; pt-PT keeps "as suas") and one word for the claimant ("requerente").
5. A fact read from a default says so as `treaty check` does: an assumption check lists, with its field; the
   format's "none listed: none" of a list, as the list, not "assumed".
"""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from pyhelpers.engine.program import load_logic
from pyhelpers.explain.readings import translated
from pyhelpers.interfaces.cli import main

from .conftest import ROOT

AE_SITE = str(ROOT / "scenarios/br-ae/exam-ae5-construction-control-without-majority-5-8.yaml")
AE_SITE_NOT = str(ROOT / "scenarios/br-ae/exam39-2-six-months-exactly-vs-one-day-more.yaml")
PL_184 = str(ROOT / "scenarios/br-pl/employment-184-days-loses-exemption.yaml")
PL_183 = str(ROOT / "scenarios/br-pl/employment-183-days-keeps-exemption.yaml")
PT_DIVIDEND = str(ROOT / "scenarios/br-pt/dividends-qualifying-holding.yaml")
PT_PLACES = str(ROOT / "scenarios/br-pt/associated-enterprises-adjustment.yaml")
QUOTED_LABEL = re.compile(r"exception “|exceção [“«]|“[a-z]+(?: [a-z]+)+”|«[a-z]+(?: [a-z]+)+»")
"""A name in quotes that is no quotation: the rules' label of an exception ("“connected activities added”")."""


def _run(*args: str) -> str:
    return CliRunner().invoke(main, list(args)).stdout


def _exception_constants() -> set[str]:
    """The constants the rules name as an exception in the head of a rule (``exception_applies(S, I, name,
    ...)`` and the permanent-establishment exceptions of each treaty)."""
    heads = re.compile(r"^(?:exception_applies|pe_exception|ae_pe_exception|sg_pe_exception)\([A-Z]\w*, [A-Z]\w*, "
                       r"([a-z][a-z0-9_]*),", re.M)
    return {m.group(1) for f in (ROOT / "logic").rglob("*.lp") for m in heads.finditer(f.read_text())}


def test_every_named_exception_has_words_in_each_language() -> None:
    """Each exception the rules name reads in words of its provision in English and Portuguese (a ``%=`` entry of
    the vocabulary, or the tool's words), never as its constant with underscores as spaces."""
    found = _exception_constants()
    assert {"connected_activities_added", "entitlement_proven", "derivative_benefits", "insurance_agent"} <= found
    missing = sorted(f"{name} ({lang})" for name in found for lang in ("en", "pt", "pt-PT")
                     if translated(name, lang) is None)
    assert not missing, missing


@pytest.mark.parametrize(("lang", "heading", "finding"), [
    ("en", "the exception of br-ae 5(3) applies to substation-civil-works-2025: the addition of the periods of "
     "connected activities of closely related enterprises at the same site",
     "exception applies: the addition of the periods of connected activities of closely related enterprises at "
     "the same site (br-ae 5(3))"),
    ("pt", "a exceção do br-ae 5(3) aplica-se a substation-civil-works-2025: a soma dos períodos de atividades "
     "conexas de empresas estreitamente relacionadas no mesmo canteiro de obras",
     "aplica-se a exceção: a soma dos períodos de atividades conexas de empresas estreitamente relacionadas no "
     "mesmo canteiro de obras (br-ae 5(3))"),
    ("pt-PT", "a exceção do br-ae 5(3) aplica-se a substation-civil-works-2025: a soma dos períodos de atividades "
     "conexas de empresas estreitamente relacionadas no mesmo estaleiro de construção",
     "aplica-se a exceção: a soma dos períodos de atividades conexas de empresas estreitamente relacionadas no "
     "mesmo estaleiro de construção (br-ae 5(3))"),
])
def test_an_exception_reads_as_its_provisions_words(lang: str, heading: str, finding: str) -> None:
    explained = _run("explain", AE_SITE, "--lang", lang)
    checked = _run("check", AE_SITE, "--lang", lang)
    assert f"  {heading}\n" in explained, explained
    assert f"  - {finding}\n" in checked, checked
    for text in (explained, checked):
        assert not QUOTED_LABEL.search(text), QUOTED_LABEL.search(text)


def test_an_exception_not_applying_reads_as_its_provisions_words() -> None:
    """The br-pl 16(2) line of an employment of 184 days: the exception in words, then the test it fails."""
    out = _run("explain", PL_184)
    assert ("    br-pl 16(2) does not apply (an employment in the other State for a short stay, taxable only in the "
            "State of residence): the recipient of salary-2027 is present in Brazil on 184 days in total in the "
            "12-month period from 2026-03-04 to 2027-03-03, the most in any 12-month period beginning or ending in the "
            "fiscal year (> 183 days)\n") in out
    assert "is met is not met" not in out and not QUOTED_LABEL.search(out)
    pt = _run("explain", PL_184, "--lang", "pt")
    assert ("a condição (a) de curta permanência para salary-2027: não atendida — o beneficiário de salary-2027 "
            "permanece no Brasil durante 184 dias" in pt)
    assert "atendida não se verifica" not in pt


def test_the_exception_met_with_183_days_is_argued_without_a_test_not_met() -> None:
    """The other side of 183 days: the exception applies, its letters met; nothing reads as a test not met."""
    out = _run("explain", PL_183)
    assert "the exception of br-pl 16(2) applies to" in out, out
    assert "is not met (" not in out and not QUOTED_LABEL.search(out)


def test_no_line_is_said_twice_in_an_items_argument() -> None:
    out = _run("explain", AE_SITE)
    assert out.count("is governed by br-ae 7") == 1, out
    block = [ln.strip() for ln in out.splitlines() if ln.startswith("    ") and not ln.startswith("      ")]
    assert len(block) == len(set(block)), [ln for ln in block if block.count(ln) > 1]


def test_the_sum_of_the_added_periods_names_its_subject() -> None:
    """br-ae 5(3): the site is a permanent establishment because, with the related enterprise's 100 days added,
    it exceeds six months; the line says so with the figures, and 5(3)(b) states the fact (the days fall in a
    connected period of more than 30 days), not the rule."""
    out = _run("explain", AE_SITE)
    assert re.search(r"br-ae 5\(3\): joao-camara-civil-works is a permanent establishment; .*; with the added "
                     r"periods, the site joao-camara-civil-works exceeds six months \(200 days > 184 days\)\n", out)
    assert "; 200 days > 184 days" not in out
    assert "if the enterprises are then closely related" not in out
    assert ("the days of joao-camara-hv-works from 2025-06-09 fall in its connected period of more than 30 days at "
            "the site of joao-camara-civil-works") in out


def test_the_sum_that_does_not_exceed_six_months_says_the_condition_not_met() -> None:
    """The other side of six months (exam39-2: recife's 181 days with the added ones, against 181): the same
    condition, not met, with its figures; the site that exceeds by one day (suape, 182) names its subject."""
    out = _run("explain", AE_SITE_NOT)
    assert ("the condition that with the added periods, the site recife-site exceeds six months is not met "
            "(181 days ≤ 181 days)") in out
    assert "with the added periods, the site suape-site exceeds six months (182 days > 181 days)" in out


def test_pt_br_possessives_and_the_claimant() -> None:
    """pt-BR readings write "suas ações", "seu fim" (pt-PT: "as suas", "o seu") and "requerente" throughout."""
    logic = load_logic(ROOT / "logic")
    article = re.compile(r"(?<![\w-])(?:[Oo]s?|[Aa]s?) (?:seus?|suas?)\b")
    entries = [*logic.vocabulary.values(), *logic.terms.values()]
    bad = sorted(p.name for p in entries if article.search(p.pt))
    assert not bad, bad
    assert not [p.name for p in entries if "reivindicante" in p.pt + (p.pt_pt or "")]
    owner = next(p for p in entries if p.name == "lob_owner_not_qualified")
    assert owner.pt.endswith(": suas ações não contam")
    assert owner.reading("pt-PT").endswith(": as suas ações não contam")


def test_a_list_the_format_reads_as_none_is_not_an_assumption() -> None:
    """br-pt 10(4) does not apply to lusoinvest's dividend: lusoinvest has no place of business in Brazil. The
    scenario lists none, which the format reads as none (`places_of_business: {}`), and no outcome rests on it
    (`treaty check` lists no assumption for it): the line names the list, never "assumed"."""
    for lang, text in (
            ("en", "lusoinvest has no place of business in Brazil (none in the scenario's `places_of_business`)"),
            ("pt", "lusoinvest não tem local de negócios no Brasil (nada consta em `places_of_business` no "
                   "cenário)")):
        out = _run("explain", PT_DIVIDEND, "--lang", lang)
        line = next(ln for ln in out.splitlines() if "10(4)" in ln)
        assert line.endswith(text), line
    checked = json.loads(_run("check", PT_DIVIDEND, "--format", "json"))
    fields = [a["field"] for a in checked["results"][0]["items"][0]["assumptions"]]
    assert fields == ["persons.lusoinvest.special_regime"], fields


AE_PROOF = str(ROOT / "scenarios/br-ae/associated-enterprises-adjustment.yaml")
PT_PENSION = str(ROOT / "scenarios/br-pt/pensions-occupational-and-social-security.yaml")


@pytest.mark.parametrize("path", [PT_DIVIDEND, PT_PLACES, AE_PROOF, PT_PENSION])
def test_every_assumption_explain_names_is_one_check_lists(path: str) -> None:
    """Each "(assumed: `field` not given)" of the argument names a field of an assumption `treaty check` lists for
    the scenario (JSON ``assumptions``), and no argument says "assumed" without naming its field."""
    out = _run("explain", path)
    assert "(assumed: not given by the scenario)" not in out
    named = set(re.findall(r"\(assumed: `([^`]+)` not given\)", out))
    checked = json.loads(_run("check", path, "--format", "json"))
    listed = {a["field"] for r in checked["results"] for it in r["items"] for a in it["assumptions"]}
    assert named <= listed, (named - listed, listed)
