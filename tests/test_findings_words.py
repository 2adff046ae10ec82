"""A missing or unknown fact, a finding and a note read in words in every language, never by the rules' name for
them (an English snake_case constant such as ``holdings_after_evaluation_date``).

The words of a constant come from :data:`pyhelpers.explain.readings.TERMS` (Portuguese; English where the constant
with its underscores as spaces would not read), a fact's also from the reading of the input that states it. What
keeps the machine's names on purpose is left out: the JSON output, the YAML ``expect:`` syntax, the scenario's own
ids, and the YAML paths and values by which the tool tells the user where and what to write (``state it in
`persons.x.field```, ``if income(x).tax.withheld_at_source is true``)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import clingo
import pytest
from click.testing import CliRunner
from clingo import ast
from clingo.ast import ASTType

from pyhelpers.engine.program import load_logic
from pyhelpers.explain.readings import constant_text, fact_text
from pyhelpers.interfaces.cli import main

from .conftest import ROOT
from .test_vocabulary_pt import _ids

SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
_FACTS = {"missing", "depends", "answer_missing", "answer_depends"}
"""The findings that name a fact of the scenario (the others name a constant of the rules)."""
_CONSTANTS = {"assumption", "note", "input_error", "requires_judgment", "ppt_indicator", "deadline", "discrimination",
              "exception_applies", "text_open"}


class _Named(ast.Transformer):
    """A term with each variable replaced by an id (``site_period(B)`` → ``site_period(b)``)."""

    def visit_Variable(self, node: Any) -> Any:
        return ast.SymbolicTerm(node.location, clingo.Function(node.name.lower().replace("_", "") or "x"))


@lru_cache(maxsize=1)
def finding_facts() -> dict[str, str]:
    """Every fact, note, exception ... the rules write in a finding's head (or in the head of a predicate that
    says which fact a provision needs, ``{Prov} turns on {F}``), with its variables as ids: text → predicate."""
    logic = load_logic()
    needs = {p.name for p in logic.vocabulary.values() if "turns on {F}" in p.en}
    at = {(p.name, p.arity): next(k for k, a in enumerate(p.args) if a.type == "term")
          for p in logic.vocabulary.values() if p.name in _FACTS | _CONSTANTS | needs}
    found: dict[str, str] = {}
    for stm in logic.statements:
        if stm.ast_type != ASTType.Rule or stm.head.ast_type != ASTType.Literal \
                or stm.head.atom.ast_type != ASTType.SymbolicAtom or stm.head.atom.symbol.ast_type != ASTType.Function:
            continue
        head = stm.head.atom.symbol
        k = at.get((head.name, len(head.arguments)))
        if k is not None and head.arguments[k].ast_type in (ASTType.Function, ASTType.SymbolicTerm):
            kind = "fact" if head.name in _FACTS | needs else "constant"
            found.setdefault(str(_Named()(head.arguments[k])).replace('"', ""), kind)
    return found


@pytest.mark.parametrize("lang", ["en", "pt", "pt-PT"])
def test_every_finding_the_rules_write_reads_in_words(lang: str) -> None:
    facts = finding_facts()
    assert len(facts) > 150 and "holdings_after_evaluation_date" in facts and "site_period(b)" in facts
    bad = []
    for text, kind in sorted(facts.items()):
        words = fact_text(text, lang) if kind == "fact" else constant_text(text, lang)
        if SNAKE.search(words):
            bad.append(f"{text} → {words}")
    assert not bad, "\n".join(bad)


def test_english_words_of_a_finding() -> None:
    assert fact_text("holdings_after_evaluation_date", "en") == "holdings after the evaluation date"
    assert fact_text("holding_until(sg-holdco, br-industria)", "en") == "end of the holding (sg-holdco, br-industria)"
    assert fact_text("agent_independent(rio)", "en") == "whether the agent rio is of independent status"
    assert constant_text("interest_arises_in(br)", "en") == "the interest arises in Brazil"
    assert constant_text("no_special_regime(ana)", "en") == "no special regime (ana)"
    assert constant_text("alternative(technical_services, br, 1000)", "en") == \
        "characterised as technical services, the income may be taxed by Brazil at no more than 10%"
    assert constant_text("article_11_4_a_reaches_agency(uy)", "pt") == \
        "a disposição sobre os juros pagos a agências governamentais alcança a agência do Uruguai"


def test_a_term_with_figures_reads_by_its_declared_reading() -> None:
    """An indicator's kind or a note's fact is a term carrying facts (a holder and the days held, a share and a
    number of days): it reads by the vocabulary's ``%=`` reading with its figures rendered as such (a percentage,
    a State by its name with its article), never as the term's arguments in parentheses."""
    assert constant_text("acquired_shortly_before(alfa-uy, 364)", "pt") == (
        "alfa-uy detém participação no pagador há apenas 364 dias na data do rendimento, menos que o período mínimo "
        "de detenção da convenção")
    assert constant_text("acquired_shortly_before(alfa-uy, 364)", "en") == (
        "alfa-uy has held its holding in the payer for only 364 days at the item's date, less than the treaty's "
        "minimum holding period")
    assert constant_text("passes_on_most(ar-parent, 5001, 5)", "pt") == \
        "quem recebe o rendimento repassa 50,01% dele, a maior parte, a ar-parent em até 5 dias"
    assert constant_text("passes_on_most(ar-parent, 5001, 5)", "pt-PT") == \
        "quem recebe o rendimento transfere 50,01% dele, a maior parte, para ar-parent no prazo de 5 dias"
    assert constant_text("owned_from_third_state(ar-parent, ar, 10000)", "pt") == \
        "ar-parent, residente apenas na Argentina, um terceiro Estado, detém 100% do capital de quem recebe o " \
        "rendimento"
    assert constant_text("alternative(royalty, pl, 1500)", "pt") == \
        "qualificado como royalties, o rendimento pode ser tributado pela Polônia a no máximo 15%"
    assert fact_text("no_premises(shell-uy)", "en") == "shell-uy has no premises of its own"
    assert constant_text("most", "pt") == "a maior parte"  # a constant with words of its own (`%= most()`)
    assert constant_text("late_notice_effect(2030, 2031)", "en") == (  # an open question of the text
        "whether a notice specifying 2030, given too late for it, takes effect for 2031 (the first later year it is "
        "in time for) or not at all")


def _written_terms() -> dict[tuple[str, int], str]:
    """The compound terms the rules write as an indicator's kind, a note's fact, an open question of the text or the
    open fact of a missing or depends finding (a State's line says it in words, issue 24): (name, arity) →
    predicate."""
    out: dict[tuple[str, int], str] = {}
    for stm in load_logic().statements:
        if stm.ast_type != ASTType.Rule or stm.head.ast_type != ASTType.Literal \
                or stm.head.atom.ast_type != ASTType.SymbolicAtom or stm.head.atom.symbol.ast_type != ASTType.Function:
            continue
        head = stm.head.atom.symbol
        if (head.name, len(head.arguments)) in (("ppt_indicator", 4), ("note", 4), ("text_open", 4), ("missing", 4),
                                                ("depends", 4)):
            kind = head.arguments[2]
            if kind.ast_type == ASTType.Function and kind.arguments:
                out[(kind.name, len(kind.arguments))] = head.name
    return out


def test_every_indicator_kind_has_a_reading_and_every_reading_a_term() -> None:
    written = _written_terms()
    logic = load_logic()
    declared = {k for k in logic.terms if k[1]}
    assert declared <= set(written), f"declared (%=) but written by no rule: {sorted(declared - set(written))}"
    constants = {name for name, arity in logic.terms if not arity}  # a constant's words: in some rule or fact
    assert constants and all(re.search(rf"\b{name}\b", logic.program) for name in constants)
    undeclared = sorted(k for k, pred in written.items() if pred == "ppt_indicator" and k not in declared)
    assert not undeclared, f"indicator kinds without a reading (%= in logic/core/vocabulary.lp): {undeclared}"
    assert ("alternative", 3) in declared  # br-pl's note with a rate


SCENARIOS = [  # the kinds of findings: missing, depends, assumptions, notes, exceptions, indicators, errors,
    # findings that hold for some values only (``possibly:``), mutual agreement, proofs
    "br-uy/lob-ownership-after-evaluation-date-unknown",
    "br-uy/lob-equivalent-beneficiary-unknown",
    "br-ae/unknowns-29-3-proofs-as-alternatives",
    "br-sg/dividends-still-held-period-not-yet-complete",
    "br-pl/employment-artistes-pensions-open-facts",
    "br-pt/directors-fees-company-of-other-state",
    "br-pt/residence-dual-company-management-unknown",
    "br-pt/associated-enterprises-adjustment",
    "br-pt/map-facts-missing-or-unknown",
    "br-pt/nondiscrimination-foreign-owned-enterprise",
]
_MACHINE = [
    re.compile(r"`[^`]*`"),  # where to write it: a YAML field
    re.compile(r"‹[^›]*›"),  # rule ids
    # a YAML path with the value the user would write there: `income(x).tax.withheld_at_source is true`,
    # `places_of_business.x.kind é um de place_of_management, branch`
    re.compile(r"\b[a-z_]+(?:\([^()]*\))?(?:\.[a-z_][a-z0-9_]*(?:\[\d+\])?)+"
               r"(?::?\s+(?:is|é|:)?\s*(?:one of|um de)?\s*[a-z0-9_.-]+(?:, [a-z0-9_.-]+)*)?"),
    re.compile(r"^\S+  [a-z_]+(?:  [\d.,]+ [A-Z]{3})?  \[[a-z_]+\]$", re.M),  # an item's heading in English: its
    # `type:` and status as the scenario format writes them
]


def prose_identifiers(text: str, ids: set[str]) -> list[str]:
    """The snake_case identifiers left in ``text`` once the machine's names kept on purpose are taken out."""
    for pattern in _MACHINE:
        text = pattern.sub(" ", text)
    return sorted({m.group(0) for m in SNAKE.finditer(text) if m.group(0) not in ids})


@pytest.mark.parametrize("lang", ["en", "pt", "pt-PT"])
def test_check_and_explain_name_no_fact_by_its_rule_name(lang: str) -> None:
    bad = []
    for name in SCENARIOS:
        path = f"scenarios/{name}.yaml"
        ids = _ids(path)
        for command in ("check", "explain"):
            result = CliRunner().invoke(main, [command, str(ROOT / path), "--lang", lang])
            assert result.exit_code in (0, 1), (command, name, result.output)
            found = prose_identifiers(result.stdout, ids)
            if found:
                bad.append(f"{command} {name}: {found}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "the royalties arise in Argentina, as the scenario states"),
    ("pt", "os royalties provêm da Argentina, como informa o cenário"),
    ("pt-PT", "os royalties provêm da Argentina, como indica o cenário"),
])
def test_a_third_state_inside_a_note_reads_by_its_name(lang: str, words: str) -> None:
    """A State inside a note's term is read by its name, a third State's too (was "the source of the royalties
    is taken from the scenario (ar)"): the term's reading declares the argument a State (``%=``)."""
    path = ROOT / "scenarios/br-uy/royalties-outside-the-article.yaml"
    result = CliRunner().invoke(main, ["check", str(path), "--lang", lang])
    assert words in result.stdout, result.stdout
    assert "(ar)" not in result.stdout, result.stdout
