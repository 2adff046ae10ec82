"""The legal argument: a projection of the derivation onto the provisions that decided it.

A derivation (:meth:`Explainer.tree`) shows every step the engine took: catalogue facts, the choice of
the treaty, aggregates, negations of internal atoms. The argument keeps, for a conclusion, one line per
provision whose rules took part, top-down (the provision that gives the conclusion first):

* its reading: the sentence of the topmost atom that rule derived (one per independent use: two
  persons' residence under one paragraph are two readings on one line);
* its decisive facts with their values: the scenario's facts (given or measured) that carry a value
  (a date, a percentage, a count, a kind) in the bodies of its rules, and the comparisons of its rules
  with their figures ("30% ≥ 25%");
* steps of rules that carry no provision (core bookkeeping), or only an article number outside the
  item's outcome provisions (the item's selection), are collapsed into the nearest line above them:
  the comparisons of those that carry an article number count there, their facts do not; those of core
  rules do not either (they test facts the line does not show: "2025-01-01 ≤ 2025-01-01" for a holding
  that covers a period);
* steps that derive a predicate the vocabulary marks ``argument: no`` are collapsed likewise, and such
  facts of the scenario are never shown;
* steps of rules flagged ``bookkeeping`` (arithmetic a provision needs that is no part of its
  argument: a share added digit by digit) are collapsed likewise, their comparisons and facts
  left out: the line keeps the holdings and the total its own rules compare;

and one line per exception considered and not applying: a negated condition of a provision's rule
whose atom is a named exception (``exception_applies``) or is derived from one, with why it did not
apply (the first failed condition of its best attempt) where that can be found. Nothing here is
written per article: the lines come from the rules' annotations, the vocabulary's readings and the
values of the derivation.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import clingo
from clingo import ast
from clingo.ast import ASTType

from pyhelpers.base import lang as languages
from pyhelpers.base.terms import render_term
from pyhelpers.engine.fields import named
from pyhelpers.engine.results import FIELD_KINDS, Finding
from pyhelpers.explain.explainer import (
    _FLIP,
    COMPARISONS,
    Explainer,
    Step,
    Unbound,
    _proportion,
    _rule_provision,
    _search_order,
    _Support,
    evaluate,
    number_literal,
    term_type,
    unify,
)
from pyhelpers.explain.instrument import RulePlans, rule_plans, variables
from pyhelpers.explain.readings import (
    ARTICLE_SUBJECTS,
    plain,
    provision_text,
    reading,
    render_value,
    state_name,
    term,
    user_atom,
    word,
)
from pyhelpers.scenario import Scenario

EXCEPTION = "exception_applies"
FAILS = "exception_fails_on"
CONSIDERED = "considered_not_met"
LIMIT_NOT_MET = "limit_test_not_met"  # the same line, its test not among the provisions
UNDETERMINED = "undetermined"
BLOCKED = "state_blocked"
_OPEN = ("missing", "depends", "requires_judgment", "text_open")
"""The findings of an item that leave a State's outcome open (a fact missing, given as unknown, a judgment)."""
_MET = clingo.Function("met")
_NOT_MET = clingo.Function("not_met")
"""The values of a test's outcome (``short_stay_test(..., a, met)``), as the rules write them."""
BOOKKEEPING = "bookkeeping"
RECONSTRUCTED = "reconstructed"
GIVEN = "given"
DEFAULTED = "defaulted"
_CITING = frozenset({"answer_residence", "answer_qualified", "answer_not_qualified", "answer_open", "answer_rests_on",
                     "entitlement"})
"""Conclusions whose provision argument counts as the item's outcome provisions (an answer about a
person has no ``outcome_provision``)."""
_NOT_FIGURES = frozenset({"id", "state", "prov"})


@dataclass
class Line:
    """One line of the argument: a provision (``kind`` ``provision``) with its readings and decisive
    facts, or an exception considered that did not apply (``kind`` ``exception``) with the reason."""

    kind: str
    provision: str
    readings: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    comparisons: list[str] = field(default_factory=list)  # those no shown fact carries
    tested: list[str] = field(default_factory=list)  # the facts a comparison tests, with its bound
    rules: list[str] = field(default_factory=list)
    decides: bool = False  # a rule of the line's own provision tests a figure (not one collapsed into it)
    fails: bool = False  # a condition of an exception, not met, that the outcome rests on (``exception_fails_on``)
    grounds: list[str] = field(default_factory=list)
    """For the first line of a State's outcome: the legal facts its rule rests on that are argued on lines of their
    own (derived under another provision: "the royalties arise in Brazil and their beneficial owner is a resident of
    Portugal" under the cap's paragraph), which `treaty check` shows where the line has no figures of its own."""
    findings: dict[str, str] = field(default_factory=dict)
    """Of those grounds, the ones argued under a provision of another article (a place of business that is not a
    permanent establishment by an exclusion of the article on permanent establishments, under the business profits
    article's line), each with that provision: `treaty check` states them with that provision's facts, the finding
    the outcome turns on and its reason."""
    about: dict[str, str] = field(default_factory=dict)
    """A fact (as first said: :meth:`person_of` also finds it with its bound or the facts that continue it) → the
    person it is about, its first argument that names a person (a holding's holder, a person's liability to tax, an
    owner whose shares do not count): where the line's facts are about several persons, each person's are grouped
    under a heading naming it (:meth:`groups`)."""
    heads: dict[str, str] = field(default_factory=dict)
    """A person the line's facts are about → the heading its facts are grouped under: its id, with the States the
    facts about it name ("cl-co (Chile)"); one table for the lines of an item's argument."""
    subjects: list[tuple[Any, str]] = field(default_factory=list, repr=False, compare=False)
    """The derived conditions the line shows as the subject of a bound (:meth:`_Projector._subject`): each atom with
    its bound, so that a figure one of them restates (the share of the ownership period of the item's date, read
    again as "at the time of the item") is said once."""
    relies: list[str] = field(default_factory=list)
    """The reconstructed provisions the line rests on without a line of their own (its mark then names them: "on
    reconstructed <provision>"), where its own provision is not reconstructed."""
    mark: str = ""
    """Where the line's provision is encoded from a reconstruction (its rules annotated ``reconstructed``), not from
    the corpus text: the word said next to the provision id ("reconstructed", "reconstituído"); else empty."""

    @property
    def reading(self) -> str:
        return "; ".join(self.readings)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "provision": self.provision, "reading": self.reading,
                                "facts": list(self.facts), "tested": list(self.tested),
                                "comparisons": list(self.comparisons), "rules": list(self.rules)}
        if self.relies:
            data["relies_on_reconstructed"] = list(self.relies)
        elif self.mark:
            data["reconstructed"] = True
        groups = self.groups(self.figures)
        if groups is not None:  # the facts of each person, under the heading naming it (the text's nesting)
            data["groups"] = [{"person": person, "heading": self.heads.get(person, person), "facts": facts}
                              for person, facts in groups if person is not None]
        return data

    def person_of(self, fact: str) -> str | None:
        """The person ``fact`` is about (:attr:`about`), also where the line says it with its bound ("... (≥ 25%)")
        or with the facts that continue it ("...; that holding is 40% of the capital")."""
        found = self.about.get(fact)
        if found is not None:
            return found
        keys = [k for k in self.about if fact.startswith((k + " (", k + "; "))]
        return self.about[max(keys, key=len)] if keys else None

    def groups(self, facts: Sequence[str]) -> list[tuple[str | None, list[str]]] | None:
        """``facts`` of the line grouped by the person each is about, in the order each person is first named (a
        fact about no person stays in its place, alone): where they are about two persons or more and one of them
        has two facts or more (the owners of a claimant, each with its holding, its residence and whether it counts);
        None otherwise (the facts as they are: two persons' residence, one fact each, need no heading)."""
        persons = [self.person_of(f) for f in facts]
        named = [p for p in persons if p is not None]
        if len(set(named)) < 2 or all(named.count(p) < 2 for p in named):
            return None
        out: list[tuple[str | None, list[str]]] = []
        at: dict[str, int] = {}
        for fact, person in zip(facts, persons, strict=True):
            if person is None:
                out.append((None, [fact]))
            elif person in at:
                out[at[person]][1].append(fact)
            else:
                at[person] = len(out)
                out.append((person, [fact]))
        return out

    @property
    def figures(self) -> list[str]:
        """The decisive facts, then the comparisons of the rules with their values."""
        return [*self.facts, *self.comparisons]


@dataclass
class Argument:
    """The argument for one conclusion: ``state``/``outcome`` for a State's outcome (its ``atom``), and
    the lines, the decisive one first."""

    atom: str
    reading: str
    lines: list[Line]
    state: str | None = None
    outcome: str | None = None
    name: str = ""  # the conclusion's predicate (``not_encoded``) and the provision it names, if any
    provision: str | None = None
    finding: Finding | None = None
    """A finding about a fact the scenario may state (missing, unknown, a judgment to make: the kinds of
    :data:`~pyhelpers.engine.results.FIELD_KINDS`; or a default assumed for it) as `treaty check` reports it, with
    the field of the scenario that states the fact where :func:`argument_for` was given the scenario."""
    others: frozenset[str] = frozenset()
    """For a State's outcome: the provisions that give the other States' outcomes of the item (the first line of
    each one's argument), none of which is the test that decides this one's (:attr:`decisive`)."""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"atom": self.atom, "reading": self.reading}
        if self.state is not None:
            data["state"] = self.state
            data["outcome"] = self.outcome
        if self.finding is not None:
            data["fact"] = self.finding.fact
            data["field"] = self.finding.field
        data["lines"] = [ln.to_dict() for ln in self.lines]
        return data

    @property
    def alternatives(self) -> list[Line]:
        """For a State's outcome: the lines of kind ``not_met``, the provisions that would have given a more
        favourable outcome (their rules derive the conclusion the outcome rests on, under the same article) and
        were considered and not met, each with the condition that failed and its figures
        (:meth:`_Projector.alternatives`)."""
        return [ln for ln in self.lines if ln.kind == "not_met"]

    @property
    def decisive(self) -> Line | None:
        """The line `treaty check` prints under the outcome: the provision that gives it where its line tests a
        figure, else the first line below it that does (the test that decided: an employee's 184 days against 183
        under the short-stay exception, where the paragraph giving the right tests no figure), else the line of a
        condition of an exception not met that the outcome rests on (the permanent establishment that bears a salary,
        under the short-stay exception's letter: ``exception_fails_on``), else that provision's line. Where a more
        favourable provision was considered and not met (:attr:`alternatives`), the provision that gives the outcome:
        the test that decided is that one's, shown after it."""
        provisions = [ln for ln in self.lines if ln.kind == "provision"]
        if not provisions:  # an undetermined outcome no provision gives: what leaves it open
            return next((ln for ln in self.lines if ln.kind == "open"), None)
        if any(ln.figures for ln in self.alternatives) or self.outcome == UNDETERMINED:
            return provisions[0]  # the test that decided is the one not met, after it; or what leaves it open
        own = provisions[0].provision  # a letter that gives another State its right is no ground of this one's (the
        tests = [ln for ln in provisions if ln.provision == own or ln.provision not in self.others]  # residence
        # State's right is argued by its residence, never by the other State's days of presence: blind54a)
        return next((ln for ln in tests if ln.decides), next((ln for ln in tests if ln.fails), provisions[0]))


def _subject(name: str, lang: str) -> str:
    """An item's type as the subject of the article that governs it (:data:`ARTICLE_SUBJECTS`, else its words)."""
    chain = [key for key in languages.chain(lang) if key == lang or languages.family(key) == languages.family(lang)]
    return next((t[name] for key in chain if name in (t := ARTICLE_SUBJECTS.get(key, {}))), term(name, lang))


def _strip_provision(text: str, prov: str, lang: str) -> str:
    """``... of the gross amount (<provision>)`` → ``... of the gross amount``, ``<provision>: not applicable
    ...`` → ``not applicable ...``: the line names it (the reading cites it as ``lang`` does:
    :func:`provision_text`)."""
    shown = provision_text(prov, lang)
    tail = f" ({shown})"
    text = text[: -len(tail)] if text.endswith(tail) else text
    for head in (f"{shown}: ", word("under_provision", lang).format(prov=shown)):  # "under <provision>, X is ..."
        if text.startswith(head):
            return text[len(head):]
    return text


def _siblings(one: str, other: str) -> bool:
    """Two letters (or items) of one paragraph: ``xx-yy N(2)(a)`` and ``xx-yy N(2)(b)``, the treaty's own
    alternatives; not two paragraphs of an article (``N(2)`` and ``N(5)``)."""
    head_one, _, own = one.rpartition("(")
    head_other, _, _ = other.rpartition("(")
    return bool(own) and "(" in head_one and head_one == head_other and one != other


def _specific(prov: str) -> bool:
    """A provision below the article (a paragraph, a letter) or of a protocol."""
    return "(" in prov or "Protocol" in prov


class _Projector:
    def __init__(self, ex: Explainer, item: str, why_not_plans: RulePlans | None,
                 exception_reasons: bool = True) -> None:
        self.ex = ex
        self.exception_reasons = exception_reasons
        self.lang = ex.lang
        self.item = item
        self.full = why_not_plans
        self.outcome_provisions = {
            a.arguments[2].string for a in ex.index.get(("outcome_provision", 3), [])
            if _arg_is(a, 1, item) and a.arguments[2].type == clingo.SymbolType.String
        }
        for sym in ex.atoms_named(_CITING):  # and those the item's conclusions cite (a person's answer has no outcome)
            if _arg_is(sym, 1, item):
                pred = ex.logic.predicate(sym.name, len(sym.arguments))
                if pred is not None:
                    self.outcome_provisions.update(
                        a.string for spec, a in zip(pred.args, sym.arguments, strict=True)
                        if spec.type == "prov" and a.type == clingo.SymbolType.String)
        self.failed = {  # the conditions of an exception not met that the item's outcome rests on
            a.arguments[3].string for a in ex.index.get((FAILS, 4), [])
            if _arg_is(a, 1, item) and a.arguments[3].type == clingo.SymbolType.String
        }
        self._exception_rules: dict[tuple[str, int], list[tuple[Any, list[Any]]]] = {}
        self._not_met: dict[clingo.Symbol, list[str]] = {}
        self._root: str | None = None  # the provision of the conclusion being argued (:meth:`project`)
        self._shown: dict[str, tuple[str, ...]] = {}  # a fact's reading → the values it shows (:meth:`_fact`)
        self._inferred: set[str] = set()  # the derived conditions shown as the subject of a bound (:meth:`_subject`)
        self._steps: set[str] = set()  # dates of date arithmetic a rule tests, with their bound (:meth:`_date_step`)
        self._compared: dict[str, str] = {}  # an aggregate's comparison: what its rule concludes from it (its subject)
        self._first: str | None = None  # the rule of the first line of the conclusion being argued (:meth:`_visit`)
        self._first_pos: frozenset[clingo.Symbol] = frozenset()  # that rule's positive conditions
        self._first_line: Line | None = None  # that line
        self._own_pos: dict[int, set[clingo.Symbol]] = {}  # a line (its id) → the positive conditions of its own rules
        self._rests: set[str] = set()  # the conditions that line rests on, shown where it tests no figure
        self._outcome = False  # the conclusion being argued is a State's outcome
        self._persons: set[clingo.Symbol] | None = None  # the scenario's persons (:meth:`_about`)
        self._states: dict[str, list[str]] = {}  # a person → the States the facts about it name (:meth:`_about`)
        self._heads: dict[str, str] = {}  # a person → the heading of its facts, shared by the lines (:meth:`_about`)
        self._said: dict[clingo.Symbol, str] = {}  # a condition of the first line's rule derived under its own
        # provision, shown as a fact of that line: its text (:meth:`_visit`)

    # -------------------------------------------------------------------------------- walk ---
    def project(self, root: clingo.Symbol) -> list[Line]:
        """The lines for ``root`` from its justification; where that gives no provision's line (a core rule on a
        negated condition: "no State's right is decided"), from the first other rule deriving it that gives one
        (the provision that may still decide it)."""
        sup = self.ex.just.get(root)
        if sup is None:
            return []
        out = self._project(root, sup)
        for other in self.ex.supports.get(root, []):
            if any(ln.kind == "provision" for ln in out):
                break
            if other is not sup and _rule_provision(other.plan, other.env) is not None:
                self._inferred.clear()
                out = self._project(root, other) or out
        if root.name == EXCEPTION and not any(ln.kind == "provision" for ln in out):
            out = self._own_facts(sup) + out
        return out

    def _own_facts(self, sup: _Support) -> list[Line]:
        """Where no condition of the rule that applies a named exception has a provision's line of its own (it rests
        on the scenario's facts alone: "the pension is paid under the social security legislation of Brazil"), one
        line of that rule's provision whose reading is the facts with values its conditions show; none where they
        show none (the conclusion's own reading says it all)."""
        prov = _rule_provision(sup.plan, sup.env)
        if prov is None:
            return []
        line = Line("provision", prov)
        self._children(sup, line, {}, set(), collect=True, context=frozenset())
        facts = [f for f in line.facts if not _cites_provision(f)]
        if not facts:
            return []
        return [Line("provision", prov, facts, comparisons=line.comparisons, rules=line.rules, decides=True)]

    def _project(self, root: clingo.Symbol, sup: _Support) -> list[Line]:
        lines: dict[tuple[str, str], Line] = {}
        seen: set[clingo.Symbol] = set()
        self._first = None
        self._first_pos = frozenset()
        self._first_line = None
        self._outcome = root.name == "state_outcome"
        self._root = _rule_provision(sup.plan, sup.env)
        self._children(sup, None, lines, seen, collect=False, context=frozenset(root.arguments[1:]))
        provisions = [ln for ln in lines.values() if ln.kind == "provision"]
        exceptions = [ln for ln in lines.values() if ln.kind == "exception"]
        for ln in provisions:
            ln.fails = ln.provision in self.failed
            said = " ".join(ln.readings)
            facts = [f for f in ln.facts if f in ln.tested or not (self._repeats(f, said) or f in ln.readings)]
            if ln.tested:  # its figures decide: the conditions it rests on are no part of its argument
                facts = [f for f in facts if f not in self._rests]
            # the conditions a rule derived, read with their bound, after the scenario's facts they rest on
            ln.facts = [f for f in facts if f not in self._inferred] + [f for f in facts if f in self._inferred]
            ln.comparisons = [self._with_subject(ln, c) for c in ln.comparisons if not _relate(ln, c, self.lang)]
            _said_once(ln)
            _without_date_order(ln, self.lang, self._steps)
        return provisions + exceptions

    def _concluded(self, sup: _Support, provision: str) -> str | None:
        """What the rule of ``sup`` concludes, in words (without ``provision``), where the argument may show it:
        the subject of a comparison its aggregate makes ("with the added periods, the site X exceeds six months"
        for "200 days > 184 days"); None where the vocabulary has no reading the argument shows."""
        try:
            head = evaluate(sup.plan.head, sup.env)
        except Unbound:
            return None
        pred = self.ex.logic.predicate(head.name, len(head.arguments))
        if pred is None or pred.role != "derived" or pred.argument == "no":
            return None
        return _strip_provision(reading(self.ex.logic, head, self.lang), provision, self.lang)

    def _with_subject(self, line: Line, comparison: str) -> str:
        """A comparison no fact of ``line`` shows, after what its rule concludes from it ("with the added periods,
        the site X exceeds six months (200 days > 184 days)"), never a bare "200 days > 184 days" a reader cannot
        place; as it is where the line's reading already says that, or no rule's conclusion reads."""
        subject = self._compared.get(comparison)
        if subject is None or subject in line.readings:
            return comparison
        return f"{subject} ({comparison})"

    def _repeats(self, fact: str, said: str) -> bool:
        """Whether the line's reading (``said``) already shows every value of a fact of the scenario that no
        comparison tests: "alfa is a company in the sense of ..." says all that "alfa is a company" does."""
        values = self._shown.get(fact, ())
        return bool(values) and all(re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", said) for v in values)

    def _keep(self, prov: str | None) -> bool:
        return prov is not None and (prov in self.outcome_provisions or _specific(prov))

    def _visit(self, atom: clingo.Symbol, owner: Line | None, lines: dict[tuple[str, str], Line],
               seen: set[clingo.Symbol], context: frozenset[clingo.Symbol],
               parent: clingo.Symbol | None = None) -> None:
        sup = self.ex.support_near(atom, context)
        if sup is None:
            return
        pred = self.ex.logic.predicate(atom.name, len(atom.arguments))
        argued = pred is None or (pred.argued and pred.role != "question")  # a question put is no legal fact: its
        prov = None if BOOKKEEPING in sup.plan.info.flags or not argued else _rule_provision(sup.plan, sup.env)
        cur = owner
        own = prov
        if prov is not None and prov not in self.outcome_provisions:
            prov = self._argued_under(atom, prov, owner)
        if self._keep(prov):
            assert prov is not None
            line = lines.get(("provision", prov))
            if line is None:
                line = lines[("provision", prov)] = Line("provision", prov)
            if owner is not line or prov != own:
                text = _strip_provision(self._reading(atom), prov, self.lang)
                if text not in line.readings:
                    line.readings.append(text)
                    self._about(line, text, atom)
            elif self._outcome and self._derived(atom) and (line.rules == [self._first] or (
                    atom in self._first_pos and not _cites_provision(reading(self.ex.logic, atom, self.lang)))):
                # a condition the rule giving the conclusion derived under its own provision: the legal fact the
                # conclusion rests on ("Portugal may tax div-2024 — div-2024 is paid by a company resident of
                # Brazil to a resident of Portugal")
                text = _strip_provision(reading(self.ex.logic, atom, self.lang), prov, self.lang)
                _add_fact(line, text, None)
                self._rests.add(text)
                self._said[atom] = text
            if self._outcome and owner is not None and owner is self._first_line and line is not owner \
                    and atom in self._first_pos and self._derived(atom):
                # a condition of the conclusion's rule argued under another provision: its ground all the same
                text = _strip_provision(reading(self.ex.logic, atom, self.lang), prov, self.lang)
                if text not in owner.grounds and not _cites_provision(text):
                    owner.grounds.append(text)
                if prov.partition("(")[0] != owner.provision.partition("(")[0] and text not in owner.findings:
                    owner.findings[text] = prov  # a finding of another article the conclusion rests on
            elif owner is not None and line is not owner and owner is not self._first_line \
                    and prov.partition("(")[0] != owner.provision.partition("(")[0] \
                    and atom in self._own_pos.get(id(owner), ()) and self._derived(atom):
                # a condition of another line's own rule argued under another article: its ground, which `treaty
                # check` says where that line is the decisive one and has no figure ("short-stay condition b ... is
                # not met — for the treaty, construtora-br is a resident of Brazil only", blind55a)
                text = _strip_provision(reading(self.ex.logic, atom, self.lang), prov, self.lang)
                if text not in owner.grounds and not _cites_provision(text):
                    owner.grounds.append(text)
                    # with the provision that makes it so, said with its facts where `treaty check` shows it ("... —
                    # the place is a permanent establishment or fixed base (<provision>: the place is a fixed base)")
                    owner.findings.setdefault(text, prov)
            if self._outcome and owner is not None and owner is self._first_line and line is not owner \
                    and parent in self._said and prov != owner.provision \
                    and prov.partition("(")[0] == owner.provision.partition("(")[0] and not self._classifies(atom):
                # a fact of the conclusion's line that another paragraph of the same article decides (the profits
                # not attributable to the permanent establishment, by the business profits article's paragraph on
                # a mere purchase of goods): said with that paragraph, its provision and facts (blind53c: the line
                # read "not attributable" and named no paragraph)
                owner.findings.setdefault(self._said[parent], prov)
            cur = line
            if self._first is None:
                self._first = sup.plan.info.rule_id
                self._first_pos = frozenset(sup.pos)
                self._first_line = line
        if atom in seen:
            return
        seen.add(atom)
        self._children(sup, cur, lines, seen, collect=prov is not None, context=context | set(atom.arguments[1:]),
                       head=atom)

    def _classifies(self, atom: clingo.Symbol) -> bool:
        """Whether ``atom`` only classifies the item (of the treaty, under a provision: ``interest_item(S, I)``,
        ``is_dividend(S, I, "<provision>")``): the definition every fact of its article rests on, which decides none
        of them — a fact of the conclusion's line it is a condition of is not said with it (blind55b: "the beneficial
        owner ... is a resident of Portugal (<provision>)", the definition of interest on a residence clause)."""
        args = atom.arguments
        return len(args) >= 2 and _arg_is(atom, 1, self.item) and all(
            a.type == clingo.SymbolType.String for a in args[2:])

    def _about(self, line: Line, text: str, atom: clingo.Symbol) -> None:
        """Records on ``line`` the person ``text``, the reading of ``atom``, is about (:attr:`Line.about`): the first
        argument of ``atom`` that names a person of the scenario; with the States ``atom`` names, in the heading of
        that person's facts ("cl-co (Chile)": its liability to tax under the law of Chile)."""
        if self._persons is None:
            self._persons = {a.arguments[1] for a in self.ex.index.get(("person", 3), []) if len(a.arguments) == 3}
        person = next((a for a in atom.arguments[1:] if a in self._persons), None)
        if person is None or text in line.about:
            return
        name = render_term(person)
        line.about[text] = name
        pred = self.ex.logic.predicate(atom.name, len(atom.arguments))
        states = self._states.setdefault(name, [])
        states += [st for spec, a in zip(pred.args if pred is not None else (), atom.arguments, strict=False)
                   if spec.type == "state" and (st := state_name(render_term(a), self.lang)) not in states]
        self._heads[name] = f"{name} ({', '.join(states)})" if states else name
        line.heads = self._heads  # one table for the item: a State a later fact names heads every line's group

    def _reading(self, atom: clingo.Symbol) -> str:
        """The reading of ``atom`` on a line: an item no article of the corpus governs (``not_encoded`` citing the
        treaty alone) as `treaty check` says it, never as if the whole treaty were missing."""
        args = atom.arguments
        if atom.name == "not_encoded" and len(args) == 3 and args[2].type == clingo.SymbolType.String \
                and " " not in args[2].string:
            item = render_term(args[1])
            if clingo.Function("application_not_encoded", args) in self.ex.true:
                return word("no_application", self.lang).format(prov=args[2].string, item=item)
            typed = next((t for t in self.ex.atoms_named(frozenset({"effective_type"}))
                          if len(t.arguments) == 3 and t.arguments[:2] == args[:2]), None)
            if typed is not None and typed.arguments[2].type == clingo.SymbolType.Function \
                    and clingo.Function("mapped_type", args[:2]) not in self.ex.true:  # no article of its type
                return word("no_article_on", self.lang).format(prov=args[2].string, item=item,
                                                               type=_subject(typed.arguments[2].name, self.lang))
            return word("no_article", self.lang).format(prov=args[2].string, item=item)
        return reading(self.ex.logic, atom, self.lang)

    def _derived(self, atom: clingo.Symbol) -> bool:
        """A condition a rule derived that reads as a legal fact: a derived predicate of the vocabulary."""
        pred = self.ex.logic.predicate(atom.name, len(atom.arguments))
        return pred is not None and pred.role == "derived"

    def _argued_under(self, atom: clingo.Symbol, prov: str, owner: Line | None) -> str:
        """The provision to argue ``atom`` under, where the rule that derived it first is of ``prov``, outside the
        item's outcome provisions, and rules of other provisions derive it too: the first of the outcome provisions
        whose rules also derive it; else the provision of the line that uses it (``owner``; with no line above it,
        the conclusion's own) where a rule of that line's article derives it; else ``prov``.
        A dividend's beneficial owner's residence is derived first under the dividends article's limit (its rule
        under the article on other income needs the item to be other income, which the dividends article decides
        from that residence): where the dividends article does not deal with the item, the residence is argued
        under the article on other income, or under the paragraph that asks it."""
        provs = {p for s in self.ex.supports.get(atom, []) if (p := _rule_provision(s.plan, s.env)) is not None}
        if len(provs) < 2:  # one provision derives it: argued there
            return prov
        found = sorted(provs & self.outcome_provisions)
        if found:
            return found[0]
        base = self._root if owner is None else owner.provision
        if base is not None and any(p.partition("(")[0] == base.partition("(")[0] for p in provs):
            return base
        return prov

    def _children(self, sup: _Support, cur: Line | None, lines: dict[tuple[str, str], Line],
                  seen: set[clingo.Symbol], collect: bool, context: frozenset[clingo.Symbol],
                  head: clingo.Symbol | None = None) -> None:
        if cur is not None:
            if sup.plan.info.rule_id not in cur.rules:
                cur.rules.append(sup.plan.info.rule_id)
            if _rule_provision(sup.plan, sup.env) == cur.provision:
                self._own_pos.setdefault(id(cur), set()).update(sup.pos)
            facts = [self._fact(a) for a in sup.pos] if collect else []
            bounds: dict[int, list[str]] = {}
            derived: list[tuple[str, str]] = []
            compared = len(cur.comparisons)
            for part in sup.tests if BOOKKEEPING not in sup.plan.info.flags and collect else []:
                figure = self._figure(part, sup)
                if figure is None or self._idle(part, sup):
                    continue
                folded = self._fold(part, sup, facts)
                subject = self._subject(part, sup, facts, cur.provision) if folded is None else None
                if folded is not None:
                    if folded[1]:
                        bounds.setdefault(folded[0], []).append(folded[1])
                elif subject is not None:
                    if not self._restated(cur, *subject):
                        derived.append(subject[:2])
                elif figure not in cur.comparisons:
                    cur.comparisons.append(figure)
            named = self._named_by(head, sup, cur) if collect else None
            for part, _elements in sup.aggs if BOOKKEEPING not in sup.plan.info.flags else []:
                for figure, _ok, _held in self.ex.aggregate_tests(part.atom, sup.plan, sup.env):
                    if named is not None:  # what the sum is of: the condition the rule derives, with its figures
                        _add_fact(cur, named, figure)
                        self._inferred.add(f"{named} ({figure})")
                    elif figure not in cur.comparisons:
                        cur.comparisons.append(figure)
                    concluded = self._concluded(sup, cur.provision)
                    if concluded is not None:
                        self._compared.setdefault(figure, concluded)
            if (bounds or derived or len(cur.comparisons) > compared) and (
                    _rule_provision(sup.plan, sup.env) == cur.provision):
                cur.decides = True
            for i, fact in enumerate(facts):
                if fact is not None:
                    self._about(cur, fact, sup.pos[i])
            follows = self._continuations(sup.pos, facts, bounds)
            for i, fact in enumerate(facts):
                if i in follows:  # said with the fact it continues
                    continue
                step = fact is not None and self._date_step(sup.pos[i])
                tail = [t for j, k in follows.items() if k == i and (t := facts[j]) is not None]
                if fact is not None and tail and i not in bounds and not step:
                    joined = _add_joined(cur, fact, tail)
                    self._shown[joined] = (*self._shown.get(fact, ()),
                                           *(v for t in joined.split("; ")[1:] for v in self._shown.get(t, ())))
                    continue
                if fact is not None and (i in bounds or not step):
                    if step:  # the test of the date it computed: kept whole
                        self._steps.add(fact)
                    _add_fact(cur, fact, "; ".join(bounds[i]) if i in bounds else None)
            for text, bound in derived:
                if not bound:  # its bound already inside it
                    if text not in cur.facts:
                        cur.facts.append(text)
                        cur.tested.append(text)
                    self._inferred.add(text)
                    continue
                _add_fact(cur, text, bound)
                self._inferred.add(f"{text} ({bound})")
            if collect:
                for a in sup.neg:
                    self._exceptions(a, lines)
                    if not self._exceptions_of(a):
                        held = self._thresholds_not_met(a)
                        if not held:
                            instead = self._instead(a)  # a why-not analysis: once
                            none, below = (instead, []) if instead else (
                                self._none(a), self._none_below(a, cur.provision))
                            if none and below and cur is self._first_line and self._outcome:
                                self._unless(cur.provision, a, none, below, lines)  # the paragraph's own exception
                                continue
                            for text in [*none, *below]:  # the fact that holds in its place, in the positive
                                _add_fact(cur, text, None)
                            continue
                        unmet = self._unmet_text(a, reading(self.ex.logic, a, self.lang), cur.provision,
                                                 "; ".join(held))
                        if unmet not in cur.comparisons:  # the condition its figures are of
                            cur.comparisons.append(unmet)
                        if _rule_provision(sup.plan, sup.env) == cur.provision:
                            cur.decides = True
        for a in sup.pos:
            self._visit(a, cur, lines, seen, context, head)
        for _part, elements in sup.aggs:
            for el in elements:
                for a in el:
                    self._visit(a, cur, lines, seen, context)

    def _named_by(self, head: clingo.Symbol | None, sup: _Support, cur: Line) -> str | None:
        """The reading of ``head``, derived by a rule of the line's own provision whose only test is a sum compared
        with a figure (the days a share is held in a twelve-month period against half of them), where the vocabulary
        marks its predicate as one whose reading names what the sum is of (``argument: always``): the figures
        are shown as that condition's, "... held on at least half of the 365 days of the twelve-month period from
        ... (365 days ≥ 183 days)", never bare; None otherwise."""
        if head is None or len(sup.aggs) != 1 or sup.tests or _rule_provision(sup.plan, sup.env) != cur.provision:
            return None
        pred = self.ex.logic.predicate(head.name, len(head.arguments))
        if pred is None or pred.role != "derived" or pred.argument != "always":
            return None
        return _strip_provision(reading(self.ex.logic, head, self.lang), cur.provision, self.lang)

    def _continuations(self, pos: Sequence[clingo.Symbol], facts: list[str | None],
                       bounds: dict[int, list[str]]) -> dict[int, int]:
        """The facts of one rule's conditions that continue another: a fact of the scenario whose reading does not
        name the record it is about ("that holding is 40% of the capital": of holding record H), after the fact of
        the same conditions that is about that record without naming it either ("iberico-es holds an interest in
        ceibo-uy ... ": the holding record's own id), neither tested by a comparison: by position, the continuing
        fact's to the continued one's (a fact that names a person the other is about stays a fact of its own). Said
        together, a holding's figures stay with their holder among the owners of a company (two holdings of 40% are
        two)."""
        out: dict[int, int] = {}
        for j, atom in enumerate(pos):
            fact = facts[j] if j < len(facts) else None
            if fact is None or j in bounds or self._date_step(atom):
                continue
            pred = self.ex.logic.predicate(atom.name, len(atom.arguments))
            if pred is None:
                continue
            ids = [a for spec, a in zip(pred.args[1:], atom.arguments[1:], strict=True) if spec.type == "id"]
            if not ids or any(_names(fact, a) for a in ids):
                continue  # it names what it is about: a fact of its own
            for i in range(j):
                other = facts[i]
                if other is not None and i not in bounds and i not in out and not self._date_step(pos[i]) \
                        and all(a in pos[i].arguments[1:] and not _names(other, a) for a in ids):
                    out[j] = i  # the record neither names (a holding record's id): the one's facts go on the other's
                    break
        return out

    def _instead(self, atom: clingo.Symbol) -> list[str]:
        """Why a negated derived condition holds, in the positive: for each rule of ``atom`` (with a provision)
        whose best attempt fails on one positive condition alone, the facts of the same kind about the same
        persons and items that hold in its place, their States aside ("for the treaty, the employer is a resident of
        Portugal only" where the employer's residence in Brazil is what the rule asks). Nothing where more than one
        condition fails, or none holds in its place (the scenario says nothing about it)."""
        if atom in self.ex.true:
            return []
        ex = self._analyser()
        out: list[str] = []
        for plan in ex.rule_source.rules_for(atom.name, len(atom.arguments)):
            env = unify(plan.head, atom, {})
            if env is None:
                continue
            results: list[Any] = []
            ex._search(_search_order(plan), 0, env, [], results)
            for failures, _ in results:
                if len(failures) != 1 or failures[0][0].kind != "pos":
                    continue
                part, fenv = failures[0]
                node = part.atom
                args = list(getattr(node, "arguments", []))
                pred = self.ex.logic.predicate(node.name, len(args))
                if pred is None or pred.role not in ("derived", "input"):
                    continue
                keys = []
                for i, (spec, arg) in enumerate(zip(pred.args, args, strict=True)):
                    if spec.type == "state":
                        continue
                    try:
                        keys.append((i, evaluate(arg, fenv)))
                    except Unbound:
                        continue
                if not any(v.type == clingo.SymbolType.String and i > 0 for i, v in keys):
                    continue  # nothing to say it of
                for held in self.ex.index.get((node.name, len(args)), []):
                    if all(held.arguments[i] == v for i, v in keys):
                        text = reading(self.ex.logic, held, self.lang)
                        for spec, a in zip(pred.args, held.arguments, strict=True):
                            if spec.type == "prov" and a.type == clingo.SymbolType.String:
                                text = _strip_provision(text, a.string, self.lang)  # the fact, not where it is from
                        if text not in out:
                            out.append(text)
        return out

    def _none(self, atom: clingo.Symbol) -> list[str]:
        """A negated derived condition read in the positive by its predicate's ``none`` reading, where its atom does
        not hold and every argument is one that reading names ("the enterprise of X has no permanent establishment in
        the other State"); nothing otherwise."""
        pred = self.ex.logic.predicate(atom.name, len(atom.arguments))
        if atom in self.ex.true or pred is None or pred.role != "derived":
            return []
        text = self.ex.none_reading(atom)
        if text is None:
            return []
        return [text]  # a default assumed: the field that would state it named (:meth:`Explainer.defaulted_reading`)

    def _unless(self, prov: str, atom: clingo.Symbol, none: list[str], below: list[str],
                lines: dict[tuple[str, str], Line]) -> None:
        """The exception a provision's own rule names by a negated condition (a paragraph's "unless the remuneration
        is paid by a resident of the other State or borne by a permanent establishment there"), considered and not
        applying: one line of kind ``exception``, with what holds in its place (``none``) and the facts below it
        that bar each way it could have applied (``below``)."""
        key = ("exception", f"{prov} {atom}")
        if key in lines:
            return
        text = word("exception_not_met", self.lang).format(prov=provision_text(prov, self.lang),
                                                           exception="; ".join(none))
        lines[key] = Line("exception", prov, [text], list(below))

    def _none_below(self, atom: clingo.Symbol, prov: str) -> list[str]:
        """A negated derived condition that no rule derives, read by what holds in its place further down: for each
        rule that could derive it, the fact its first failed condition, followed down, comes to where no fact matches
        (:func:`_none_reason`: "pawel-mazur has no place of business in Brazil", where the condition is a fixed base
        there); nothing where some rule's failure reads no such fact, or some rule is of a provision other than
        ``prov`` (the line's: a condition of its own paragraph, not another paragraph's exception, which is argued
        under that paragraph)."""
        pred = self.ex.logic.predicate(atom.name, len(atom.arguments))
        if atom in self.ex.true or pred is None or pred.role != "derived":
            return []
        ex = self._analyser()
        pattern = ast.Function(_LOC, atom.name, [ast.SymbolicTerm(_LOC, a) for a in atom.arguments], 0)
        try:
            attempts = ex.why_not(pattern, [], depth=3, first=True, siblings=True)  # what _none_reason reads
        except Exception:  # an analysis the explainer cannot make: nothing said
            return []
        out: list[str] = []
        for attempt in attempts:
            if attempt.provision != prov:
                return []
            found = _none_reason(attempt)
            if found is None:
                return []
            if found not in out:
                out.append(found)
        return out

    def _open_findings(self) -> list[clingo.Symbol]:
        return sorted(a for key in self.ex.index if key[0] in _OPEN and key[1] == 4 for a in self.ex.index[key]
                      if _arg_is(a, 1, self.item) and a.arguments[3].type == clingo.SymbolType.String)

    def open_lines(self) -> list[Line]:
        """For an undetermined outcome no provision's rule gives: one line (kind ``open``) per finding of the item
        that leaves it open (a fact missing, unknown or to be judged), as `treaty check` words it."""
        return [Line("open", a.arguments[3].string, [reading(self.ex.logic, a, self.lang)], decides=True)
                for a in self._open_findings()]

    def open_facts(self, line: Line, among: set[str] | None = None) -> None:
        """For an undetermined outcome argued by ``line`` (the provision that may still decide it): what is open, as
        facts of the line: the item's findings of a fact missing, unknown or to be judged (or of a question the text
        leaves open), those under the line's provision (or one of ``among``) where there are, else all of them."""
        found = self._open_findings()
        own = [a for a in found if a.arguments[3].string in (among or {line.provision})] or found
        for a in own:
            said = self._restating(a)
            line.facts = [f for f in line.facts if f not in said]
            line.grounds = [g for g in line.grounds if g not in said]
            line.findings = {g: p for g, p in line.findings.items() if g not in said}
            _add_fact(line, reading(self.ex.logic, a, self.lang), None)
        line.decides = line.decides or bool(own)

    def _restating(self, finding: clingo.Symbol) -> set[str]:
        """The readings of the conditions that say of the item what ``finding`` says with the scenario's silence: the
        derived atoms about the item that name its fact and its provision ("for div-a, <provision> turns on holders of
        the capital (hold-a)" beside "<provision> turns on holders of the capital (hold-a), which the scenario does not
        give"): a line that says the finding does not say them again (blind56b 06)."""
        _, item, fact, prov = finding.arguments
        out: set[str] = set()
        for atom in self.ex.just:
            if atom.name == finding.name or item not in atom.arguments or fact not in atom.arguments \
                    or prov not in atom.arguments or not self._derived(atom):
                continue
            out.add(reading(self.ex.logic, atom, self.lang))
        return out

    # ---------------------------------------------------------------------------- alternatives ---
    def alternatives(self, outcome: clingo.Symbol) -> list[Line]:
        """The provisions considered for a State's ``outcome`` and not met: the rules that derive the conclusion the
        outcome's rule rests on (its positive condition that names a provision: the cap, the right to tax), for the
        same item and State, under another provision of the same article, that hold for no provision and whose best
        attempt failed on a threshold (a comparison of figures); each with the facts its rule met and the comparison
        that holds instead ("that holding is 24.9% of the capital (< 25%)"). A test that failed on a kind or an id
        (a dividend is not interest) is no alternative considered."""
        sup = self.ex.just.get(outcome)
        if sup is None:
            return []
        out: list[Line] = []
        for atom in sup.pos:
            pred = self.ex.logic.predicate(atom.name, len(atom.arguments))
            if pred is None:
                continue
            specs = list(pred.args)
            at = next((i for i, spec in enumerate(specs) if spec.type == "prov"), None)
            if at is None or atom.arguments[at].type != clingo.SymbolType.String:
                continue
            prov = atom.arguments[at].string
            fixed = {i for i, spec in enumerate(specs) if spec.type in ("id", "state") or i < 2}
            held = {a.arguments[at].string for a in self.ex.index.get((atom.name, len(atom.arguments)), [])
                    if all(a.arguments[i] == atom.arguments[i] for i in fixed)
                    and a.arguments[at].type == clingo.SymbolType.String}
            article = prov.partition("(")[0]
            key = (atom.name, len(atom.arguments))
            ex = self._analyser()
            rules = [p for p in ex.rule_source.rules_for(*key)
                     if p.info.dynamic_provision is None and p.info.provision not in held
                     and p.info.provision.partition("(")[0] == article]
            if not rules:  # no other provision of the article gives it: none considered (and no analysis to run)
                continue
            ex = copy.copy(ex)
            ex.rule_source = _Only(ex.rule_source, key, rules)
            pattern = ast.Function(_LOC, atom.name, [
                ast.SymbolicTerm(_LOC, a) if i in fixed else ast.Variable(_LOC, f"_V{i}")
                for i, a in enumerate(atom.arguments)], 0)
            try:
                attempts = ex.why_not(pattern, [], depth=6, first=True)  # each read down its first failed condition
            except Exception:  # an analysis the explainer cannot make: no alternative shown
                continue
            for step in (c for a in attempts for c in _candidates(a)):
                other = step.provision
                if other is None or other in held or other.partition("(")[0] != article:
                    continue
                if _figures_failed(step):
                    facts = self.failure(step)
                    unmet = self._unmet(step)
                elif _siblings(other, prov):  # a letter of the same paragraph failed on a fact, not a figure
                    why = self._qualitative(step)
                    if why is None:
                        continue
                    facts, unmet = [why], None
                else:
                    continue
                # said as a test considered and not met, its reason after it: never with what the provision would
                # have given ("does not apply (the tax ... may not exceed 10% ...)" named the limit, not why: blind56c)
                text = word("not_applied_test", self.lang).format(prov=provision_text(other, self.lang))
                line = Line("not_met", other, [text], facts[:-1],
                            rules=[step.rule_id] if step.rule_id else [])
                said = self._said_of_fact(step) if unmet is not None else None
                if said is not None:  # the test not met said of the fact it tests (the holding's last day, with the
                    # day it had to reach), not as a bound of another fact it compares; in that fact's place where the
                    # line says it already (the payment's date, said once)
                    at = next((i for i, f in enumerate(line.facts) if said.startswith(f.split(" (")[0])
                               and said != f), None)
                    if at is None:
                        line.facts.append(said)
                    else:
                        line.facts[at] = said
                elif facts and not _relate(line, facts[-1], self.lang):
                    # a comparison no fact of the line carries: with the condition it tests ("25% of the capital is
                    # held throughout 365 days ...: not met (364 days < 365 days)"), never the bare figures
                    line.facts.append(facts[-1] if unmet is None else unmet)
                if not any((ln.provision, ln.readings) == (line.provision, line.readings) for ln in out):
                    out.append(line)
        return out

    def considered(self, lines: list[Line]) -> list[Line]:
        """The tests considered and not met under a provision of ``lines`` that withholds a benefit: for each
        ``considered_not_met(S, I, Prov, Test)`` the rules derive for the item, with ``Prov`` the provision of one of
        ``lines``, a line of kind ``not_met`` for ``Test``: the reading and the facts of the line its own rules give
        (the projection of that atom), the test that would have given the benefit and the facts that fail it."""
        provs = {ln.provision for ln in lines if ln.kind == "provision"}
        shown = {ln.provision for ln in lines if ln.kind == "not_met"}
        out: list[Line] = []
        mine = [atom for name in (CONSIDERED, LIMIT_NOT_MET) for atom in sorted(self.ex.index.get((name, 4), []))
                if _arg_is(atom, 1, self.item) and atom.arguments[2].type == clingo.SymbolType.String
                and atom.arguments[3].type == clingo.SymbolType.String and atom.arguments[2].string in provs]
        tests = {atom.arguments[3].string for atom in mine}
        for atom in mine:
            test = atom.arguments[3].string
            if test in shown:
                continue
            shown.add(test)
            saved = (self._first, self._outcome, self._root)
            line = Line("not_met", test, [word("not_applied_test", self.lang).format(
                prov=provision_text(test, self.lang))])
            failed_by = self._failed_by(atom, test, tests - {test})
            if failed_by:  # the test fails only because another test considered fails: that test's condition
                line.facts.extend(failed_by)
                out.append(line)
                continue
            for sup in self.ex.supports.get(atom, []):  # every rule that finds it not met: each gives its facts
                for own in self._project(atom, sup):
                    if own.kind != "provision" or own.provision != test:
                        continue
                    # the first reading is the test's failure, which the line says, where it names the test ("the
                    # test of <provision> is failed"); a first reading that names none is why it fails ("the holding
                    # behind X is not held directly"), said first (blind56c); the others are facts
                    first = own.readings[:1] if own.readings and not _cites_provision(own.readings[0]) else []
                    if first and first[0] not in line.facts:
                        line.facts.append(first[0])
                        line.tested.append(first[0])
                    # after such a reason, the facts it is about are said without the bounds their tests met (the
                    # first day of the period the holding covers: "(on or before <date>)" said nothing of why)
                    bare = {t: t.rsplit(" (", 1)[0] for t in own.tested if t.endswith(")")} if first else {}
                    for fact in [*own.readings[1:], *own.facts]:
                        fact = bare.get(fact, fact)
                        if fact not in line.facts:
                            line.facts.append(fact)
                    line.tested.extend(t for t in own.tested if t not in line.tested and t not in bare)
                    for fact, person in own.about.items():
                        line.about.setdefault(fact, person)
                    line.heads = self._heads
                    line.comparisons.extend(c for c in own.comparisons if c not in line.comparisons)
                    line.rules.extend(r for r in own.rules if r not in line.rules)
            self._first, self._outcome, self._root = saved
            line.facts = [f for f in line.facts if f in line.tested] + [f for f in line.facts if f not in line.tested]
            out.append(line)  # the figures that fail it first, then the facts they rest on
        return out

    def _failed_by(self, atom: clingo.Symbol, test: str, others: set[str]) -> list[str]:
        """Where the test ``test`` of a ``considered_not_met`` ``atom`` is failed only because another test
        considered for the item fails (``others``; an active-business test whose conditions another
        sub-paragraph does not let count as satisfied where the business is not substantial): the readings of
        what the rule that fails it rests on, each derived under one of ``others`` (the condition that actually
        fails), not the conditions of ``test`` that hold; empty otherwise."""
        for sup in self.ex.supports.get(atom, []):
            for failed in sup.pos:
                if clingo.String(test) not in failed.arguments:
                    continue
                for inner in self.ex.supports.get(failed, []):
                    if inner.pos and all(any(_rule_provision(s.plan, s.env) in others
                                             for s in self.ex.supports.get(p, [])) for p in inner.pos):
                        return [reading(self.ex.logic, p, self.lang) for p in inner.pos]
        return []

    # ------------------------------------------------------------------------------ figures ---
    def _fact(self, atom: clingo.Symbol) -> str | None:
        """A fact of the scenario that carries a value (not only ids and States), as its reading."""
        if atom in self.ex.just:
            return None
        args = atom.arguments
        pred = self.ex.logic.predicate(atom.name, len(args))
        if pred is None or pred.role != "input" or not pred.argued:
            return None
        if pred.argument != "always" and not any(spec.type not in _NOT_FIGURES for spec in pred.args[1:]):
            return None
        default = self._defaulted(atom)
        if default is None:
            text = reading(self.ex.logic, atom, self.lang)
            if atom.name == GIVEN:
                text = self._with_states(atom, text)
            if pred.argument != "always":  # a relation of ids: the reading that names them does not say it
                self._shown[text] = tuple(render_value(a, spec.type, self.lang)
                                          for spec, a in zip(pred.args[1:], args[1:], strict=True))
            return text
        if atom.name == GIVEN:  # "the scenario states ..." of an attribute it does not state: the default's own,
            shown = self.ex.logic.predicate(default.name, len(default.arguments))  # unless an assumption only
            return reading(self.ex.logic, default, self.lang) if shown is None or shown.argued else None
        return self.ex.defaulted_reading(reading(self.ex.logic, atom, self.lang), default.arguments[2].name,
                                         default.arguments[1])

    def _with_states(self, atom: clingo.Symbol, text: str) -> str:
        """The reading of ``given(S, X, A)`` of a list of States (``fact_values``: a home, an abode, a nationality)
        with the States it lists: "the scenario states permanent home for tiago (Portugal)", never without where
        (blind55b); unchanged for another attribute or one given as unknown."""
        _, x, attribute = atom.arguments
        preds = frozenset(str(f.arguments[1]) for f in self.ex.atoms_named(frozenset({"fact_values"}))
                          if len(f.arguments) == 2 and f.arguments[0] == attribute)
        if not preds or clingo.Function("unknown", [atom.arguments[0], x, attribute]) in self.ex.true:
            return text
        states = sorted({str(f.arguments[2]) for f in self.ex.atoms_named(preds)
                         if len(f.arguments) == 3 and f.arguments[1] == x})
        listed = ", ".join(state_name(st, self.lang) for st in states) or word("no_state", self.lang)
        return f"{text} ({listed})"

    def _date_step(self, atom: clingo.Symbol) -> bool:
        """Whether ``atom`` is a step of date arithmetic: a date the date module computed from another by a
        number of months ("M months before the date of the item is D"), which the rule does not test
        itself. The date it gives is shown where a rule tests it (as a bound: "on or before D"); the
        step is left out of the argument (``--full`` shows it)."""
        pred = self.ex.logic.predicate(atom.name, len(atom.arguments))
        types = {spec.type for spec in pred.args} if pred is not None and pred.role == "input" else set()
        return {"months", "date"} <= types

    def _defaulted(self, atom: clingo.Symbol) -> clingo.Symbol | None:
        """The ``defaulted`` fact behind a fact the scenario does not give but whose documented default stands
        for it (``defaulted(S, X, A)``, with ``given(S, X, A)`` and the default's facts ``A(S, X, ...)``), or
        None: such a fact is assumed, never stated. A ``<attribute>_stated`` fact (``fixed_base_stated``) is the
        default of its attribute (``fixed_base``): "X is not a fixed base" is assumed, not stated (exam53b)."""
        args = atom.arguments
        if len(args) < 2:
            return None
        names = [atom.name] + ([atom.name.removesuffix("_stated")] if atom.name.endswith("_stated") else [])
        for name in names:
            attribute = args[2] if atom.name == GIVEN and len(args) == 3 else clingo.Function(name)
            default = clingo.Function(DEFAULTED, [args[0], args[1], attribute])
            if default in self.ex.true:
                return default
        return None

    def _figure(self, part: Any, sup: _Support) -> str | None:
        """A comparison of the rule with its values (``30% ≥ 25%``); not one between States or ids, nor
        one against an open end (it holds whatever the date)."""
        step = self.ex._test_step(part, sup.plan, sup.env)
        cmp = part.atom
        sides = [cmp.term, *(g.term for g in cmp.guards)]
        types = {sup.plan.var_types.get(n, "int") for side in sides for n in variables(side)}
        if types & (_NOT_FIGURES | {"term"}) or "(open)" in step.reading or "(em aberto)" in step.reading:
            return None
        return step.reading

    def _idle(self, part: Any, sup: _Support) -> bool:
        """An equality whose two sides read the same figure (``P = U / K`` that only names a value: "0.01% =
        0.01%"): it tells the reader nothing."""
        cmp = part.atom
        guards = list(cmp.guards)
        if len(guards) != 1 or guards[0].comparison != ast.ComparisonOperator.Equal:
            return False
        types = [term_type(t, sup.plan) for t in (cmp.term, guards[0].term)]
        typ = next((t for t in types if t not in ("int", "id")), "int")
        return self.ex._render_side(cmp.term, sup.env, typ) == self.ex._render_side(guards[0].term, sup.env, typ)

    def _restated(self, line: Line, text: str, bound: str, atom: clingo.Symbol) -> bool:
        """Whether the derived condition ``atom`` (read ``text``, tested against ``bound``) is a figure ``line`` says
        already: a condition shown there with the same bound rests on it directly ("at the time of div-alfa
        (2025-06-30), the counted owners hold 60% ..." is the share "over the period from 2024-12-31" that includes
        that date: one period, said once). Else records it among the line's subjects."""
        for other, said in line.subjects:
            if said == bound and other != atom:
                sup = self.ex.just.get(other)
                if sup is not None and atom in sup.pos:
                    return True
        line.subjects.append((atom, bound))
        return False

    def _subject(self, part: Any, sup: _Support, facts: list[str | None],
                 prov: str) -> tuple[str, str, clingo.Symbol] | None:
        """A comparison no shown fact carries, of a variable a derived condition of the rule binds, as that
        condition's reading with the bound: "over the period from ..., ar-parent owns ... 100% of the capital of
        alfa-uy (≥ 50%)", never "100% ≥ 50%" (what the figure is of is said); against a bare number, the condition
        alone (it shows the figure). Its left side first, else its right side; None for a proportion (its sides are
        read by their factors) or where neither side is so bound. The bound is empty where the text carries it
        already (beside a date amid the sentence) or has none."""
        if _proportion(part.atom, sup.plan):
            return None
        for side, other, op, at in _variable_sides(part.atom, sup.plan):
            if at is None or at >= len(sup.pos) or (at < len(facts) and facts[at] is not None):
                continue
            atom = sup.pos[at]
            pred = self.ex.logic.predicate(atom.name, len(atom.arguments))
            if pred is None or pred.role not in ("derived", "input") or not pred.argued:
                continue
            text = _strip_provision(reading(self.ex.logic, atom, self.lang), prov, self.lang)
            if number_literal(other):  # against a bare number ("40% > 0%"): no bound the text cites; the condition
                return text, "", atom  # shows the figure
            types = [term_type(t, sup.plan) for t in (side, other)]
            typ = next((t for t in types if t not in ("int", "id")), "int")
            bound = bound_text(COMPARISONS[op][1], self.ex._render_side(other, sup.env, typ), self.lang)
            value = self.ex._render_side(side, sup.env, typ)
            if typ == "date" and text.count(value) == 1 and not text.endswith(value):
                return text.replace(value, word("date_required", self.lang).format(value=value, bound=bound)), "", atom
                # a date amid the sentence: the bound the rule requires of it beside it
            return text, bound, atom
        return None

    def _fold(self, part: Any, sup: _Support, facts: list[str | None]) -> tuple[int, str] | None:
        """A comparison of a variable a shown fact binds with a value, as that fact's bound: (the fact's
        position, ``≥ 25%``), from ``P >= Min`` with ``P`` from ``holding_share``. Its left side first,
        else its right side (the comparison turned round). Against a bare number, no bound (an empty one)."""
        for side, other, op, at in _variable_sides(part.atom, sup.plan):
            if at is None or at >= len(facts) or facts[at] is None:
                continue
            if number_literal(other):  # a bare number (``D > 0``): no figure the text cites; as a bound it misleads
                return at, ""          # ("lasts 6 months and 1 day (> 0 days)"), and the fact shows the value
            types = [term_type(t, sup.plan) for t in (side, other)]
            typ = next((t for t in types if t not in ("int", "id")), "int")
            return at, bound_text(COMPARISONS[op][1], self.ex._render_side(other, sup.env, typ), self.lang)
        return None

    # ---------------------------------------------------------------------------- exceptions ---
    def _exceptions(self, atom: clingo.Symbol, lines: dict[tuple[str, str], Line]) -> None:
        """The named exceptions a negated condition stands for: the atom itself, or the exceptions of
        the rules that derive it."""
        for exc in self._exceptions_of(atom):
            e, prov = exc.arguments[2], exc.arguments[3].string
            key = ("exception", f"{prov} {e}")
            if key in lines or exc in self.ex.true:
                continue
            text = word("not_applied", self.lang).format(prov=provision_text(prov, self.lang),
                                                         exception=plain(e, self.lang))
            line = Line("exception", prov, [text])
            reason = self._why_not(exc) if self.exception_reasons else None
            if reason:
                line.facts.append(reason)
            lines[key] = line

    def _exceptions_of(self, atom: clingo.Symbol) -> list[clingo.Symbol]:
        args = atom.arguments
        if atom.name == EXCEPTION and len(args) == 4:
            return [atom] if args[3].type == clingo.SymbolType.String else []
        out: list[clingo.Symbol] = []
        for head, excs in self._rules_to_exception(atom.name, len(args)):
            env = self.ex_unify(head, atom)
            if env is None:
                continue
            for node in excs:
                try:
                    sym = evaluate(node, env)
                except Unbound:  # an argument of the exception the head does not bind: not this one
                    continue
                if sym not in out:
                    out.append(sym)
        return out

    def ex_unify(self, head: Any, atom: clingo.Symbol) -> dict[str, clingo.Symbol] | None:
        return unify(head, atom, {})

    def _rules_to_exception(self, name: str, arity: int) -> list[tuple[Any, list[Any]]]:
        """The rules deriving ``name/arity`` with their positive ``exception_applies`` conditions that
        name the exception and its provision by constants."""
        key = (name, arity)
        if key not in self._exception_rules:
            found: list[tuple[Any, list[Any]]] = []
            plans = (self.full or self.ex.instr).rules_for(name, arity)
            for plan in plans:
                excs = [part.atom for part in plan.body if part.kind == "pos" and part.atom.name == EXCEPTION
                        and len(part.atom.arguments) == 4
                        and part.atom.arguments[2].ast_type == ASTType.SymbolicTerm
                        and part.atom.arguments[3].ast_type == ASTType.SymbolicTerm]
                if excs:
                    found.append((plan.head, excs))
            self._exception_rules[key] = found
        return self._exception_rules[key]

    def _thresholds_not_met(self, atom: clingo.Symbol) -> list[str]:
        """A negated condition that holds because a threshold is not met: the comparisons that hold
        instead, with their figures (``181 ≤ 181``)."""
        if atom not in self._not_met:
            ex = self.ex
            if self.full is not None:
                ex = copy.copy(self.ex)
                ex.rule_source = self.full
            self._not_met[atom] = ex.thresholds_not_met(atom, cited_only=True)
        return self._not_met[atom]

    def _analyser(self) -> Explainer:
        """The explainer a why-not analysis runs on: with every rule of the treaty where the projector has them (a rule
        that could not fire is one the analysis asks about), else with those that can fire."""
        if self.full is None:
            return self.ex
        ex = copy.copy(self.ex)
        ex.rule_source = self.full
        return ex

    def _why_not(self, exc: clingo.Symbol) -> str | None:
        """Why the exception did not apply: the deepest first failed condition of its best attempt; a fact the
        scenario states with another value than the one asked for, by that fact ("the scenario states that B is not a
        permanent establishment", never "the scenario does not say that the scenario states that B is one")."""
        ex = self._analyser()
        pattern = ast.Function(_LOC, exc.name, [ast.SymbolicTerm(_LOC, a) for a in exc.arguments], 0)
        try:
            attempts = ex.why_not(pattern, [], depth=3)
        except Exception:
            return None
        if not attempts:
            return None
        prov = exc.arguments[3].string
        general = {p.info.rule_id for p in ex.rule_source.rules_for(exc.name, len(exc.arguments))
                   if p.info.dynamic_provision is not None}  # a rule for any exception: not this one's own
        own = [s for s in attempts if s.provision == prov and s.rule_id not in general] or attempts
        attempt = min(own, key=lambda s: len(s.children))
        return self._unmet(attempt) or _none_reason(attempt) or _held_against(attempt) \
            or self._other_state_reason(attempt) or self._value_instead(attempt) or self.reason(attempt)

    def _other_state_reason(self, attempt: Step) -> str | None:
        """Where the first failed condition of ``attempt``, followed down, is one the treaty's catalogue does not give
        for a State a fact of the scenario names (a third State where a Contracting State, or the other one, is asked):
        that fact, with the States the catalogue gives in its place ("us-prize arises in the United States, not in
        Brazil"), never the catalogue's silence; None otherwise."""
        chain = [attempt]
        while chain[-1].children:
            chain.append(chain[-1].children[0])
        leaf = chain[-1]
        if leaf.kind != "unknown" or leaf.note != word("no_value", self.lang) or leaf.ground is None:
            return None
        owner = next((s for s in reversed(chain) if s.kind == "failed" and s.provision is not None and s.held_atoms),
                     None)
        if owner is None:
            return None
        below = chain[chain.index(owner) + 1:]
        failed = [a for a in leaf.ground.arguments if a.type == clingo.SymbolType.Function and not a.arguments]
        for step in below:  # the highest condition about that State: what holds in its place
            sym = step.ground
            if step.kind != "unknown" or sym is None:
                continue
            pred = self.ex.logic.predicate(sym.name, len(sym.arguments))
            if pred is None:
                continue
            at = [i for i, spec in enumerate(pred.args) if spec.type == "state" and sym.arguments[i] in failed]
            if len(at) != 1:
                continue
            i = at[0]
            value = sym.arguments[i]
            instead = [a.arguments[i] for a in self.ex.index.get((sym.name, len(sym.arguments)), [])
                       if all(a.arguments[k] == sym.arguments[k] for k in range(len(sym.arguments)) if k != i)]
            facts = [a for a in owner.held_atoms if value in a.arguments and self.ex.logic.predicate(
                a.name, len(a.arguments)) is not None]
            if not instead or not facts:
                return None
            out = []
            for held in facts:
                text = reading(self.ex.logic, held, self.lang)
                tails = []
                for other in instead:
                    alt = clingo.Function(held.name, [other if a == value else a for a in held.arguments])
                    tails.append(_tail(text, reading(self.ex.logic, alt, self.lang)))
                out.append(word("not_instead", self.lang).format(fact=text, instead=word("or_list", self.lang).join(
                    t for t in tails if t)))
            return "; ".join(out)
        return None

    def _unmet(self, attempt: Step) -> str | None:
        """Where the first failed condition of ``attempt``, followed down, is a threshold not met: the condition
        of the rule that compares it, with the comparison that holds instead ("the public funding of X is more
        than half", not met: 50% ≤ 50%), never the bare comparison; None otherwise."""
        step, parent = attempt, None
        while step.children:
            parent, step = step, step.children[0]
        if parent is None or parent.kind != "failed" or step.kind != "test" or step.held is None or step.between_terms:
            return None
        said = self._subject_failed(step, parent.provision)
        if said is not None:
            return said
        return self._unmet_text(parent.ground, parent.reading, parent.provision, step.held)

    def _said_of_fact(self, attempt: Step) -> str | None:
        """Where the first failed condition of ``attempt``, followed down, is a test of a date a condition of its rule
        gives (:meth:`_subject_failed`): that fact with what the rule requires of its date ("held ... to 2026-03-15
        (required: on or after 2026-03-16)"); None otherwise."""
        step, parent = attempt, None
        while step.children:
            parent, step = step, step.children[0]
        if parent is None or parent.kind != "failed" or step.kind != "test" or step.held is None or step.between_terms \
                or step.subject is None or not _DATE.fullmatch(step.subject[1]):
            return None  # a figure other than a date is said as the bound of the fact that shows it (_relate)
        return self._subject_failed(step, parent.provision)

    def _unmet_text(self, atom: clingo.Symbol | None, condition: str, provision: str | None, figures: str) -> str:
        """A condition not met, with the comparisons that hold instead: ``the condition that <condition> is not met
        (<figures>)``; a condition that is itself a test met (its last argument ``met``: "short-stay condition a
        for X is met") read as that test not met ("short-stay condition a for X is not met (184 days > 183
        days)"), never "the condition that ... is met is not met"."""
        if atom is not None and atom.arguments and atom.arguments[-1] == _MET:
            text = reading(self.ex.logic, clingo.Function(atom.name, [*atom.arguments[:-1], _NOT_MET]), self.lang)
            text = _strip_provision(text, provision, self.lang) if provision else text
            return f"{text} ({figures})"
        if provision:
            condition = _strip_provision(condition, provision, self.lang)
        return word("not_met_figures", self.lang).format(condition=condition, figures=figures)

    def _subject_failed(self, step: Step, prov: str | None) -> str | None:
        """A failed test said of the fact it tests (:attr:`Step.subject`), as the argument says a test met: a date
        amid the sentence with what the rule requires of it ("held without interruption from 2025-03-16 (required:
        on or before 2025-03-15) to the payment"), another figure the sentence shows with the comparison that holds
        instead ("present on 182 days ... (< 183 days)"); None where the sentence does not show the value once (the
        condition is then named as not met, with its figures)."""
        if step.subject is None or step.held is None:
            return None
        text, value, op, other = step.subject
        if prov:
            text = _strip_provision(text, prov, self.lang)
        if text.count(value) != 1:
            return None
        if _DATE.fullmatch(value):
            required = word("date_required", self.lang).format(value=value, bound=bound_text(op, other, self.lang))
            return text.replace(value, required)
        held = _COMPARED.match(step.held)
        if held is None or {held.group("left"), held.group("right")} != {value, other}:
            return None
        shown = held.group("op") if held.group("left") == value else _TURNED[held.group("op")]
        return f"{text} ({shown} {other})"

    def _qualitative(self, attempt: Step) -> str | None:
        """Why a letter of the outcome's own paragraph failed where no figure did (the beneficial owner is not a
        company, a partnership is excluded): the fact that holds in place of the one its first failed condition,
        followed down, asks for ("mei-ling is an individual, not a company"; :meth:`_value_instead`), else the
        fact stated in the positive by the failed condition's ``none`` reading; None where neither is found (a fact
        not given: the findings name it; a negated condition that holds: the letter that gives the outcome, such as
        the reduced rate that bars the general one, is no alternative more favourable)."""
        return self._value_instead(attempt) or _none_reason(attempt)

    def _value_instead(self, attempt: Step) -> str | None:
        """Where the first failed condition of ``attempt``, followed down, is a fact of the scenario no fact matches
        for one value (a kind, a yes or no: ``person(S, P, company)``) while the scenario states it with another
        (``person(S, P, individual)``): that fact, with the value asked for ("mei-ling is an individual, not a
        company"); for a yes or no, the fact alone ("X is a partnership"); None otherwise."""
        leaf = attempt
        while leaf.children:
            leaf = leaf.children[0]
        sym = leaf.ground
        if leaf.kind != "unknown" or sym is None:
            return None
        pred = self.ex.logic.predicate(sym.name, len(sym.arguments))
        if pred is None or pred.role != "input" or self._about_item(sym):
            return None  # a kind of the item itself (branch profits, not a dividend): another article's, no test failed
        out: list[str] = []
        for i, spec in enumerate(pred.args):
            value = sym.arguments[i]
            if spec.type != "term" or value.type != clingo.SymbolType.Function or value.arguments:
                continue
            instead = [a for a in self.ex.index.get((sym.name, len(sym.arguments)), []) if a.arguments[i] != value
                       and all(a.arguments[k] == sym.arguments[k] for k in range(len(sym.arguments)) if k != i)]
            for held in instead:
                text = reading(self.ex.logic, held, self.lang)
                if value.name in ("yes", "no"):
                    out.append(text)
                    continue
                tail = _tail(text, reading(self.ex.logic, sym, self.lang))
                out.append(word("not_instead", self.lang).format(fact=text, instead=tail) if tail else text)
        return "; ".join(dict.fromkeys(out)) or None

    def reason(self, attempt: Step) -> str | None:
        """Why a rule's best attempt failed, in one line: the facts its rule compared where its first failed
        condition compares States or ids (:meth:`_terms_reason`), else that condition followed down
        (:func:`_leaf_reason`)."""
        return self._terms_reason(attempt) or _leaf_reason(attempt, self.lang)

    def failure(self, attempt: Step) -> list[str]:
        """Why a rule that could have given a why-not's goal did not (:func:`why_not_answer`): where its first
        failed condition, followed down, is a negated one whose atom holds, that atom (its derivation is no
        reason); else :meth:`reason`, after the facts with values that the nearest rule above a failed
        comparison of figures met ("… that holding (holding-1) is 24.9% of the capital", "24.9% < 25%")."""
        held = _held_against(attempt)
        if held is not None:
            return [held]
        reason = self.reason(attempt)
        step, owner = attempt, None
        while step.children:
            if step.kind == "failed" and step.held_atoms:
                owner = step
            step = step.children[0]
        if reason is None or owner is None or step.kind != "test" or step.held is None or step.between_terms:
            return [reason] if reason is not None else []
        facts = [f for a in owner.held_atoms if (f := self._fact(a)) is not None]
        return [*dict.fromkeys(facts), reason]

    def _terms_reason(self, attempt: Step) -> str | None:
        """Where the first failed condition is a comparison between States or ids (``Brazil ≠ Brazil``, which
        names no figure and reads as a tautology), the facts about the item that the nearest provision's rule
        above it met and compared: "… arises in Brazil; the beneficial owner … is a resident of Brazil"."""
        step, owner = attempt, None
        while step.children:
            if step.kind == "failed" and step.provision is not None and step.held_atoms:
                owner = step
            step = step.children[0]
        if not step.between_terms or owner is None:
            return None
        texts = [reading(self.ex.logic, a, self.lang) for a in owner.held_atoms if self._about_item(a)]
        return "; ".join(dict.fromkeys(texts)) or None

    def _about_item(self, atom: clingo.Symbol) -> bool:
        """A condition about the item that an argument shows: it names the item and is no catalogue fact."""
        pred = self.ex.logic.predicate(atom.name, len(atom.arguments))
        return pred is not None and pred.role != "static" and any(_arg_is(atom, i, self.item)
                                                                    for i in range(len(atom.arguments)))


_POS = ast.Position("<argument>", 0, 0)
_LOC = ast.Location(_POS, _POS)


_CITED = re.compile(r"(?<![\w-])[a-z]{2,}-[a-z]{2,} (?:Protocol |Protocolo )?\d")
"""A provision cited in a text (``<treaty> <article>(<paragraph>)``, ``<treaty> Protocol <item>``)."""


def _cites_provision(text: str) -> bool:
    """Whether a condition's reading names a provision: a step of the law's application ("... limits the tax",
    "whether ... withholds the benefit is open"), not a legal fact a conclusion rests on."""
    return _CITED.search(text) is not None


def _said_once(line: Line) -> None:
    """Each clause of a line once: a condition read as a reading (a rule below the line used it) and as a decisive
    fact stays a fact, after the dash; a reading the conclusion's first reading already is, or a fact a reading
    states word for word, is not said again ("Brazil may tax X; the employment ... — the employment ...")."""
    first, rest = line.readings[:1], line.readings[1:]
    line.readings = first + [r for r in dict.fromkeys(rest) if r not in line.facts and r not in first]
    dropped = {f for f in line.facts if f in line.readings}
    line.facts = [f for f in line.facts if f not in dropped]
    line.tested = [f for f in line.tested if f not in dropped]
    line.grounds = [g for g in line.grounds if g not in line.readings]


def _names(text: str, sym: clingo.Symbol) -> bool:
    """Whether ``text`` names the id ``sym`` (as a word of its own: ``alfa`` is not named by ``alfa-uy``)."""
    return re.search(rf"(?<![\w-]){re.escape(render_term(sym))}(?![\w-])", text) is not None


def _add_joined(line: Line, fact: str, tail: list[str]) -> str:
    """A fact said with the facts that continue it (``tail``: :meth:`_Projector._continuations`) on the line once, in
    the place of the fact alone where the line has it; where the line says it with others already (the same holding
    in another measure: "that holding is 35% of the votes"), with those too. The text on the line."""
    at = next((i for i, f in enumerate(line.facts) if f == fact or f.startswith(fact + "; ")), None)
    said = line.facts[at][len(fact) + 2:].split("; ") if at is not None and line.facts[at] != fact else []
    joined = "; ".join([fact, *dict.fromkeys([*said, *tail])])
    if at is None:
        line.facts.append(joined)
    else:
        line.facts[at] = joined
    return joined


def _add_fact(line: Line, fact: str, bound: str | None) -> None:
    """A fact on the line once: with its bound (``... 30% of the capital (≥ 25%)``) where a comparison
    tests it, which replaces the fact alone; not again where the line says it with the facts that continue it."""
    if bound is None:
        if fact not in line.facts and not any(f.startswith(fact + " (") for f in line.tested) \
                and not any(f.startswith(fact + "; ") for f in line.facts):
            line.facts.append(fact)
        return
    text = f"{fact} ({bound})"
    if text in line.facts:
        return
    if fact in line.facts:
        line.facts[line.facts.index(fact)] = text
    else:
        line.facts.append(text)
    line.tested.append(text)


_COMPARED = re.compile(r"^(?P<left>[^()]+?) (?P<op>[≤≥<>=≠]) (?P<right>[^()]+)$")
_TURNED = {"≤": "≥", "≥": "≤", "<": ">", ">": "<", "=": "=", "≠": "≠"}


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}|\d{2}/\d{2}/\d{4}|\d{2}-\d{2}-\d{4}")


def bound_text(op: str, value: str, lang: str) -> str:
    """A fact's bound: ``≥ 25%``; a date's in words (``on or after 2021-01-15``, ``não anterior a
    15/01/2021``), as a reader writes a date compared with another."""
    return f"{word('date_' + op, lang)} {value}" if _DATE.fullmatch(value) else f"{op} {value}"


def _relate(line: Line, comparison: str, lang: str) -> bool:
    """A comparison of two figures (``0% < 60% of 9%``) read as a relation of the line's facts: where a fact of
    the line shows one side's figure, as that fact's bound ("the UAE taxes ... at 0% (< 60% of 9%)"), the left
    side's fact first, else the right side's with the comparison turned round. An equality of a figure with
    itself is dropped (it tells nothing). False where no fact shows either side: it stays a comparison."""
    m = _COMPARED.match(comparison)
    if m is None:
        return False
    left, op, right = m.group("left"), m.group("op"), m.group("right")
    if op == "=" and left == right:
        return True
    for side, bound in ((left, bound_text(op, right, lang)), (right, bound_text(_TURNED[op], left, lang))):
        shows = re.compile(rf"(?<![\w.,/-]){re.escape(side)}(?![\w%/-])")
        for i, fact in enumerate(line.facts):
            tested = fact in line.tested
            closing = tested and fact.endswith(")")  # its bound at its end: this one joins it
            base = fact.rsplit(" (", 1)[0] if closing else fact
            if not shows.search(base):
                continue
            text = f"{fact[:-1]}; {bound})" if closing else f"{fact} ({bound})"
            line.facts[i] = text
            if tested:
                line.tested[line.tested.index(fact)] = text
            else:
                line.tested.append(text)
            return True
    return False


def _without_date_order(line: Line, lang: str, steps: set[str]) -> None:
    """``line`` without the bounds that only order two dates of the scenario it shows: a date bound ("not earlier
    than 2021-01-15") on a fact the scenario states, where another fact of the line states that date ("... from
    2021-01-15"), is an intermediate step (the payment falls within the holding), not a test a reader needs; the
    fact stays, its other bounds too. A date computed by date arithmetic (``steps``: "a period of M months ... ends
    on D (before E)") keeps its bound: it is the test. ``--full`` shows every comparison."""
    words = "|".join(re.escape(word(f"date_{op}", lang)) for op in _TURNED)
    order = re.compile(rf"^(?:{words}) (?P<date>{_DATE.pattern})$")

    def unbounded(fact: str) -> str:
        return fact.rsplit(" (", 1)[0] if fact in line.tested and fact.endswith(")") else fact

    for i, fact in enumerate(list(line.facts)):
        if fact not in line.tested or not fact.endswith(")") or " (" not in fact:
            continue
        base, _, bound = fact[:-1].rpartition(" (")
        if base in steps:
            continue
        others = [unbounded(f) for j, f in enumerate(line.facts) if j != i]
        kept = [part for part in bound.split("; ")
                if (m := order.match(part)) is None or not any(m["date"] in other for other in others)]
        if len(kept) == len(bound.split("; ")):
            continue
        text = f"{base} ({'; '.join(kept)})" if kept else base
        line.facts[i] = text
        line.tested.remove(fact)
        if kept:
            line.tested.append(text)


def _arg_is(sym: clingo.Symbol, i: int, item: str) -> bool:
    args = sym.arguments
    return len(args) > i and args[i].type == clingo.SymbolType.String and args[i].string == item


def _none_reason(attempt: Step) -> str | None:
    """Where the first failed condition of ``attempt``, followed down, is one no fact matches: the fact that holds
    instead, in the positive ("X has no place of business in that State"), of the deepest rule on the way whose
    failed conditions include one whose predicate reads it (:attr:`Step.none`); None otherwise (the negated
    condition stays the reason)."""
    chain = [attempt]
    while chain[-1].children:
        chain.append(chain[-1].children[0])
    if chain[-1].kind != "unknown":
        return None
    for step in reversed(chain):
        found = next((c.none for c in step.children if c.kind == "unknown" and c.none), None)
        if found is not None:
            return found
    return chain[-1].none


def _tail(text: str, other: str) -> str:
    """The words of ``other`` after those it shares with ``text`` at their start ("arises in Brazil" beside "arises in
    the United States": "in Brazil", its preposition kept; "provém do Brasil" beside "provém dos Estados Unidos":
    "do Brasil")."""
    a, b = text.split(" "), other.split(" ")
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    if n and a[n - 1] in _PREPOSITIONS:  # "not in Brazil"
        n -= 1
    return " ".join(b[n:])


_PREPOSITIONS = frozenset({"in", "of", "from", "to", "by", "at", "em", "de", "a", "por"})


def _leaf_reason(step: Step, lang: str) -> str | None:
    """The first failed condition, followed down through the conditions no rule derived; a negated one by what
    holds in its place, in the positive (the engine's negation is no reason a reader is given)."""
    while step.children:
        step = step.children[0]
    if step.kind == "failed" and not step.children and step.reading.startswith("#"):
        return None
    if step.held is not None:  # a threshold not met: the comparison that holds instead
        return step.held
    negation = word("not", lang) + ": "
    if step.kind == "failed" and step.reading.startswith(negation):  # a negated condition that failed: what holds
        return step.reading[len(negation):]                          # (never "it is not the case that: ...")
    if step.kind == "unknown" and step.note:
        for key in ("not_given", "no_rule", "no_value"):
            if step.note == word(key, lang):
                return word("lacks_" + key, lang).format(reading=step.reading)
        return f"{step.reading} ({step.note})"
    return step.reading


def item_roots(ex: Explainer, item: str, roots: frozenset[str]) -> list[clingo.Symbol]:
    return sorted(sym for sym in ex.atoms_named(roots) if _arg_is(sym, 1, item))


def argument_for(ex: Explainer, item: str, roots: frozenset[str], why_not: bool = True,
                 versions: tuple[str, ...] = (), scenario: Scenario | None = None,
                 exception_reasons: bool = True) -> list[Argument]:
    """The argument for each conclusion of ``item`` among ``roots`` (the State outcomes first, then the
    findings); the source State's rate (``max_rate``) is the capped outcome's and is not repeated. With the
    ``scenario``, a finding about a fact names the field that states it, as `treaty check` names it
    (:func:`~pyhelpers.engine.fields.named`). Without ``exception_reasons``, an exception considered that did not
    apply is said without why (its why-not search is most of an argument's cost; `treaty check`'s decisive line
    does not show it)."""
    plans = rule_plans(ex.logic, _treaty(ex), versions) if why_not else None
    proj = _Projector(ex, item, plans, exception_reasons)
    atoms = item_roots(ex, item, roots)
    atoms = [a for a in atoms if a.name == "state_outcome"] + [a for a in atoms if a.name not in (
        "state_outcome", "max_rate")]
    out = [_argument(proj, sym) for sym in atoms]
    if "state_outcome" in roots:  # a State whose outcome no rule gives: what leaves it open
        given = {a.arguments[2] for a in atoms if a.name == "state_outcome"}
        states = [a.arguments[2] for a in item_roots(ex, item, frozenset({"item_state"}))
                  if a.arguments[2] not in given]
        at = sum(1 for a in out if a.state is not None)
        out[at:at] = [_open_state(proj, st) for st in states]
    giving = {arg.state: next((ln.provision for ln in arg.lines if ln.kind == "provision"), None)
              for arg in out if arg.state is not None}
    for arg in out:
        if arg.state is not None:
            arg.others = frozenset(p for st, p in giving.items() if st != arg.state and p is not None)
    for arg in out:
        for ln in arg.lines:
            if _reconstructed(ex, ln):
                ln.mark = word("reconstructed_provision", ex.lang)
            elif relied := _relies_on_reconstructed(ex, ln, proj):
                ln.relies = relied
                ln.mark = word("relies_on_reconstructed", ex.lang).format(
                    prov=", ".join(provision_text(p, ex.lang) for p in relied))
    if scenario is not None:
        own = (item,) if any(i.id == item for i in scenario.income) else ()  # a person question: none, as check
        for arg in out:
            if arg.finding is not None:
                arg.finding = named(arg.finding, own, scenario)
    return out


def _reconstructed(ex: Explainer, line: Line) -> bool:
    """Whether ``line`` argues a provision encoded from a reconstruction: some rule of its provision that took part in
    it is annotated ``reconstructed``; where none of its rules is of its provision (a test considered and not met with
    no rule of its own), every rule of the provision is."""
    own = [r for r in ex.logic.rules if r.provision == line.provision]
    used = [r for r in own if r.rule_id in line.rules]
    return any(RECONSTRUCTED in r.flags for r in used) if used else bool(own) and all(
        RECONSTRUCTED in r.flags for r in own)


def _relies_on_reconstructed(ex: Explainer, line: Line, proj: _Projector) -> list[str]:
    """The reconstructed provisions ``line`` rests on without a line of their own: the provisions of the rules that took
    part in it, annotated ``reconstructed``, that are collapsed into it (neither its own nor one the argument keeps:
    a definition of a missing article read by a paragraph the corpus has, as "operated in international traffic" under
    the crew paragraph where the definitions article is missing); empty where there is none."""
    return sorted({r.provision for r in ex.logic.rules if r.rule_id in line.rules and RECONSTRUCTED in r.flags
                   and r.provision != line.provision and "{" not in r.provision and not proj._keep(r.provision)})


def _argument(proj: _Projector, sym: clingo.Symbol) -> Argument:
    """The argument for the true atom ``sym``: its lines, projected by ``proj``."""
    ex = proj.ex
    lines = proj.project(sym)
    args = sym.arguments
    pred = ex.logic.predicate(sym.name, len(args))
    prov = next((a.string for spec, a in zip(pred.args, args, strict=True)
                 if spec.type == "prov" and a.type == clingo.SymbolType.String), None) if pred is not None else None
    if sym.name == "state_outcome":
        if args[3].name == UNDETERMINED and lines and lines[0].kind == "provision":
            proj.open_facts(lines[0])
        elif args[3].name == UNDETERMINED and not any(ln.kind == "provision" for ln in lines):
            lines[:0] = proj.open_lines()  # no rule of a provision gives it: what is open, each under its provision
        at = next((i for i, ln in enumerate(lines) if ln.kind != "provision"), len(lines))
        lines[at:at] = proj.alternatives(sym) + proj.considered(lines)  # after the provisions that gave the
        return Argument(                                                 # outcome, before the exceptions
user_atom(sym), reading(ex.logic, sym, ex.lang), lines, args[2].name, args[3].name,
                        sym.name, prov)
    at = next((i for i, ln in enumerate(lines) if ln.kind != "provision"), len(lines))
    considered = proj.considered(lines)
    tests = {ln.provision for ln in considered}
    # a test considered and not met is said once, by its line with the figures that fail it: not again as the
    # conclusion's step under its provision ("… is considered under … and not met", one owner's holding as reason)
    lines = [ln for i, ln in enumerate(lines) if i == 0 or ln.kind != "provision" or ln.provision not in tests]
    at = next((i for i, ln in enumerate(lines) if ln.kind != "provision"), len(lines))
    lines[at:at] = considered
    return Argument(user_atom(sym), reading(ex.logic, sym, ex.lang), lines, name=sym.name, provision=prov,
                    finding=_finding(sym))


def _open_state(proj: _Projector, state: clingo.Symbol) -> Argument:
    """The argument for a State's outcome no rule gives (`treaty check` finds it undetermined, or answers it over the
    values of the facts left open): argued by what holds of the State's right, the first of: its tax on the item
    blocked (``state_blocked``: the treaty's application to it open, the item barred), its limit open
    (``cap_open``), its right to tax (``may_tax``); with what leaves it open, the item's findings of a fact missing,
    unknown or to be judged, or of a question the text leaves open (under the provisions argued where some are);
    where no provision's rule argues it, by those findings alone (:meth:`_Projector.open_lines`)."""
    ex = proj.ex
    found = [a for name in (BLOCKED, "cap_open", "may_tax") for a in item_roots(ex, proj.item, frozenset({name}))
             if a.arguments[2] == state]
    sym = found[0] if found else clingo.Function("item_state", [clingo.String(""), clingo.String(proj.item), state])
    lines = proj.project(sym) if found else []
    if not any(ln.kind == "provision" for ln in lines):
        lines[:0] = proj.open_lines()
    elif lines[0].kind == "provision" and not lines[0].figures:  # what is open, under the provisions argued
        proj.open_facts(lines[0], {ln.provision for ln in lines})
    return Argument(user_atom(sym), reading(ex.logic, sym, ex.lang), lines, state.name, UNDETERMINED, sym.name)


def finding_named(sym: clingo.Symbol, items: Sequence[str], scenario: Scenario) -> Finding | None:
    """The finding about a fact that ``sym`` reports (:func:`_finding`), with the field of ``scenario`` that states
    the fact (about ``items``), as `treaty check` names it; None where ``sym`` reports none."""
    found = _finding(sym)
    return named(found, items, scenario) if found is not None else None


def _finding(sym: clingo.Symbol) -> Finding | None:
    """The finding about a fact that ``sym`` reports as the results read it (``missing(S, I, Fact, Prov)``,
    ``answer_depends(S, Q, Fact, Prov)`` ...: :mod:`pyhelpers.engine.answers`), or None."""
    kind = sym.name.removeprefix("answer_")
    args = sym.arguments
    if kind not in (*FIELD_KINDS, "assumption") or len(args) != 4 or args[3].type != clingo.SymbolType.String:
        return None
    return Finding(kind, args[3].string, render_term(args[2]))


# ------------------------------------------------------------------------------------ why not ---
@dataclass
class WhyNot:
    """The answer to a why-not query as a tax professional reads it (`treaty explain --why-not`'s default;
    ``--full`` prints the whole analysis). Where the query holds, the argument for each atom that matches
    (``arguments``); where it does not, one line per rule that could have given it (``lines``, of kind
    ``failed``): the rule's provision, its reading, and the first of its conditions that failed, in one line
    with its facts or figures (``facts``: the reason :meth:`_Projector.reason` gives an exception that did
    not apply), or the fact that holds and bars it."""

    query: str
    holds: bool
    lines: list[Line] = field(default_factory=list)
    arguments: list[Argument] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.query, "holds": self.holds, "lines": [ln.to_dict() for ln in self.lines],
                "arguments": [a.to_dict() for a in self.arguments]}


_FAILING = frozenset({"failed", "unknown"})
"""The steps of a why-not analysis that failed: a rule's attempt, a condition no rule derived (the others
are the derivation of what holds, a negated condition's, and the tests)."""
_DERIVED = frozenset({"derived", "given", "static", "ref", "aggregate", "not"})
"""The steps of a derivation of an atom that holds."""


def why_not_answer(ex: Explainer, query: str, item: str | None, matches: list[clingo.Symbol],
                   attempts: list[Step]) -> WhyNot:
    """The answer to the why-not ``query`` about ``item`` (None: it names none), from the atoms that match it
    (``matches``) or, where none does, the analysis of the rules that could derive it (``attempts``,
    :meth:`Explainer.why_not`): for each rule that could have given it (a rule that carries a provision,
    found below the core's rules, aggregates and conditions no rule derived; the analysis's own rules where
    none carries one), its reading and why it did not."""
    proj = _Projector(ex, item or "", None)
    if matches:
        return WhyNot(query, True, arguments=[_argument(proj, sym) for sym in matches])
    found = [c for a in attempts for c in _candidates(a)] or list(attempts)
    lines: list[Line] = []
    for step in found:
        prov = step.provision or ""
        facts = proj.failure(step)
        line = Line("failed", prov, [_strip_provision(step.reading, prov, ex.lang) if prov else step.reading],
                    facts[:-1], rules=[step.rule_id] if step.rule_id else [])
        if facts and not _relate(line, facts[-1], ex.lang):  # the comparison that failed, as the bound of its fact
            line.facts.append(facts[-1])
        if not any((ln.provision, ln.readings, ln.facts) == (line.provision, line.readings, line.facts)
                   for ln in lines):
            lines.append(line)
    return WhyNot(query, False, lines)


def _candidates(step: Step) -> list[Step]:
    """The attempts of rules that carry a provision at or below ``step``, through the failed conditions of
    those that carry none."""
    if step.kind == "failed" and step.provision is not None:
        return [step]
    return [c for child in step.children if child.kind in _FAILING for c in _candidates(child)]


class _Only:
    """A rule source that gives, for one head predicate, only the rules chosen (the alternatives a projector
    analyses), and the source's rules for every other."""

    def __init__(self, source: Any, key: tuple[str, int], rules: list[Any]) -> None:
        self.source, self.key, self.rules = source, key, rules

    def rules_for(self, name: str, arity: int) -> list[Any]:
        return self.rules if (name, arity) == self.key else self.source.rules_for(name, arity)


def _figures_failed(attempt: Step) -> bool:
    """Whether the first failed condition of ``attempt``, followed down, is a comparison of figures that does not
    hold (a threshold not met), not one between States, ids or kinds."""
    step = attempt
    while step.children:
        step = step.children[0]
    return step.kind == "test" and step.held is not None and not step.between_terms


def _held_against(attempt: Step) -> str | None:
    """Where the first failed condition of ``attempt``, followed down, is a negated one whose atom holds: that
    atom's reading (its derivation is no reason: "atlantico is a resident of both Contracting States")."""
    step = attempt
    while step.children:
        child = step.children[0]
        if child.kind in _DERIVED:
            return child.reading
        step = child
    return None


def query_item(pattern: Any) -> str | None:
    """The item (or question) a query's pattern names: its second argument, where a string (the first is
    the scenario's id)."""
    args = getattr(pattern, "arguments", [])
    if len(args) < 2 or args[1].ast_type != ASTType.SymbolicTerm:
        return None
    value = args[1].symbol
    return value.string if value.type == clingo.SymbolType.String else None


def _treaty(ex: Explainer) -> str | None:
    for sym in ex.index.get(("scenario_treaty", 2), []):
        value = sym.arguments[1]
        return str(value.string) if value.type == clingo.SymbolType.String else str(value)
    return None


def _variable_sides(cmp: Any, plan: Any) -> Iterator[tuple[Any, Any, Any, int | None]]:
    """The sides of a comparison with one guard that are variables, its left side first, else its right side (the
    comparison turned round): (the side, the other side, the operator as the side reads it, the position of the
    rule's first positive condition that binds it, or None). Nothing for a comparison of several guards."""
    guards = list(cmp.guards)
    if len(guards) != 1:
        return
    positives = [p for p in plan.body if p.kind == "pos"]
    for side, other, op in ((cmp.term, guards[0].term, guards[0].comparison),
                            (guards[0].term, cmp.term, _FLIP[guards[0].comparison])):
        if side.ast_type == ASTType.Variable:
            yield side, other, op, next((i for i, p in enumerate(positives) if side.name in variables(p.atom)), None)
