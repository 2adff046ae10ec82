"""Answer sets read into typed results: the shown atoms of a solve grouped by item, each State's outcome
with its rate and provisions, the findings and the status, and the amounts computed from them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

import clingo

from pyhelpers.base import dates
from pyhelpers.base.terms import Term, parse_atom, render_term
from pyhelpers.engine.amounts import compute_compliance, compute_relief, limited_part, max_source_tax
from pyhelpers.engine.program import provision_key
from pyhelpers.engine.provenance import RELIES
from pyhelpers.engine.results import (
    APPLICATION,
    STATUS_ORDER,
    Compliance,
    Entitlement,
    Finding,
    ItemResult,
    PersonAnswer,
    Receipt,
    ScenarioResult,
    StateOutcome,
    replaced,
)
from pyhelpers.scenario import IncomeItem, Scenario, person_questions
from pyhelpers.scenario.catalogue import catalogue

STATUS_OF_FINDING = {
    "input_error": "error",
    "not_encoded": "not_encoded",
    "pending": "pending",
    "missing": "missing",
    "depends": "depends",
    "requires_judgment": "depends",
    "text_open": "depends",
    "time_limit": "depends",
}


_ENTITLEMENT_ORDER = ("denied", "open", "requires_judgment", "entitled")
"""The entitlement conclusions, the first one an item has being its entitlement (the rules derive only one)."""


def build_result(scenario: Scenario, source: str, symbols: list[clingo.Symbol], receipt: Receipt) -> ScenarioResult:
    """Group the shown atoms by item and turn them into typed results."""
    return result_from_atoms(scenario, source, [(t, parse_atom(t)) for t in map(str, symbols)], receipt)


CITED = "outcome_provision"
"""The shown predicate of the provisions an item rests on (its ``provisions``)."""

def reliance(atoms: Iterable[Term]) -> dict[Term, set[str]]:
    """The reconstructed provisions each shown atom rests on, from the ``_relies(Atom, Provision)`` atoms
    among ``atoms`` (:mod:`pyhelpers.engine.provenance`): an atom absent has a derivation free of them."""
    out: dict[Term, set[str]] = defaultdict(set)
    for a in atoms:
        if a.name == RELIES and isinstance(a.args[0], Term) and isinstance(a.args[1], str):
            out[a.args[0]].add(a.args[1])
    return out


def relied_on(atoms: Iterable[Term], relies: dict[Term, set[str]]) -> tuple[str, ...]:
    """The reconstructed provisions that ``atoms`` rest on, in the treaty's order."""
    if not relies:  # (a batch decides without the provenance rules: nothing rests on them)
        return ()
    return tuple(sorted({p for a in atoms if a.name != CITED for p in relies.get(a, ())}, key=provision_key))


def cited_reconstructed(atoms: Iterable[Term], relies: dict[Term, set[str]], shown: Sequence[str]) -> set[str]:
    """The reconstructed provisions an item cites among its provisions (``shown``) that rest on themselves:
    a provision listed is flagged even where no conclusion of the item rests on it (a residence cited beside an
    article not in the corpus); one the item does not list is flagged only through its conclusions."""
    return {a.args[2] for a in atoms if a.name == CITED and len(a.args) > 2 and isinstance(a.args[2], str)
            and a.args[2] in shown and a.args[2] in relies.get(a, ())}


def result_from_atoms(scenario: Scenario, source: str, atoms: list[tuple[str, Term]], receipt: Receipt,
                      relies: dict[Term, set[str]] | None = None) -> ScenarioResult:
    """:func:`build_result` from the atoms already read: (text, term) pairs. An item, an answer and a
    compliance figure are flagged with the reconstructed provisions their atoms rest on: ``relies``, or
    the ``_relies`` atoms among ``atoms`` (which are not kept among the result's atoms)."""
    if relies is None:
        relies = reliance(a for _, a in atoms)
    atoms = [(t, a) for t, a in atoms if a.name != RELIES]
    by_item: dict[str, list[Term]] = defaultdict(list)
    for _, atom in atoms:
        if len(atom.args) >= 2 and isinstance(atom.args[1], str):
            by_item[atom.args[1]].append(atom)
    states = catalogue().states[scenario.treaty]
    items = []
    for item in scenario.income:
        mine = by_item.get(item.id, [])
        result = item_template(scenario.treaty, states, item, mine, relies)
        result = replaced(result, max_source_tax=max_source_tax(result))
        result = replaced(result, compliance=flag_compliance(compute_compliance(scenario, item, result),
                                                                 mine, relies))
        items.append(result)
    answers = tuple(replaced(_answer(q.id, q.person, day, by_item.get(q.id, [])),
                                        reconstructed=relied_on(by_item.get(q.id, []), relies))
                    for q in person_questions(scenario)
                    for day in [(q.date or scenario.evaluation_date).isoformat()])
    return ScenarioResult(
        source=source,
        name=scenario.name,
        treaty=scenario.treaty,
        evaluation_date=scenario.evaluation_date.isoformat(),
        items=tuple(items),
        receipt=receipt,
        answers=answers,
        atoms=tuple(t for t, _ in atoms),
    )


ReadAtoms = dict[tuple[str, str, tuple[tuple[str, tuple[Any, ...]], ...]], ItemResult]
"""What :func:`_item_result` read of an item's atoms, by its treaty, type and atoms without their scenario and item
ids (:func:`item_template`'s ``read``)."""


def item_template(treaty: str, states: tuple[str, ...], item: IncomeItem, atoms: list[Term],
                  relies: dict[Term, set[str]], item_id: str | None = None, read: ReadAtoms | None = None
                  ) -> ItemResult:
    """An item's result from its shown atoms (``atoms``: those whose second argument is its id, or ``item_id``)
    without the two figures computed from its amounts alone, its maximum source tax and its withholding finding
    (:func:`result_from_atoms` adds them; a batch computes them for each row of a case,
    :func:`pyhelpers.engine.solve.Checker.decide_items`). With ``read`` (a batch's), the atoms are read once for
    every item of the treaty and type whose atoms are the same but for their first two arguments (the scenario and
    the item: :func:`_item_result` reads neither but for the item's id it is given; many distinct cases of a ledger
    have the same answer), and the result is that one with the item's id and gross amount."""
    gross = item.gross
    amount, currency = (gross.amount, gross.currency) if gross else (None, None)
    iid = item.id if item_id is None else item_id
    if read is None:
        result = _item_result(treaty, iid, item.type, states, atoms, amount, currency)
    else:
        key = (treaty, item.type, tuple([(a.name, a.args[2:]) for a in atoms]))
        base = read.get(key)
        if base is None:
            base = read[key] = _item_result(treaty, iid, item.type, states, atoms, None, None)
        result = replaced(base, item_id=iid, gross=amount, currency=currency)
    result = replaced(result, limited_amount=limited_part(item, result.limited_to))
    flagged = {*relied_on(atoms, relies), *cited_reconstructed(atoms, relies, result.provisions)} if relies else set()
    if relies:
        granted = relied_on([a for a in atoms if a.name == "entitlement"], relies) \
            if result.entitlement is not None and result.entitlement.status == "entitled" else ()
        result = replaced(result, states=tuple(replaced(s, reconstructed=_state_reliance(s, atoms, relies, granted))
                                               for s in result.states))
    return replaced(result, reconstructed=tuple(sorted(flagged, key=provision_key)), date=item.date.isoformat(),
                    relief=compute_relief(item, result.max_rate_bp, atoms, result))


_BENEFITS = ("capped", "exempt")
"""The outcomes that limit a State's tax: the benefits of the treaty an entitlement article grants or denies."""


def _state_reliance(s: StateOutcome, atoms: list[Term], relies: dict[Term, set[str]],
                    granted: tuple[str, ...]) -> tuple[str, ...]:
    """The reconstructed provisions the outcome of one State rests on: its ``state_outcome`` and, capped, the cap;
    a limit on its tax, those its entitlement to the benefits rests on (``granted``: a letter of the limitation on
    benefits reconstructed, blind59 R6)."""
    used = [a for a in atoms
            if (a.name == "state_outcome" and isinstance(a.args[2], Term) and a.args[2].name == s.state)
            or (a.name in _COMPLIANCE_ATOMS and s.outcome == "capped")]
    found = relied_on(used, relies)
    if s.outcome not in _BENEFITS or not granted:
        return found
    return tuple(sorted({*found, *granted}, key=provision_key))


_COMPLIANCE_ATOMS = ("max_rate",)
"""What a compliance figure reads of an item besides the withholding State's ``state_outcome``: the cap."""


def flag_compliance(compliance: Compliance | None, atoms: list[Term],
                    relies: dict[Term, set[str]]) -> Compliance | None:
    """``compliance`` with the reconstructed provisions of the atoms of its item (``atoms``) it is computed
    from: the withholding State's outcome and the cap."""
    if compliance is None:
        return None
    return replaced(compliance, reconstructed=compliance_reliance(compliance.state, atoms, relies))


def compliance_reliance(state: str, atoms: list[Term], relies: dict[Term, set[str]]) -> tuple[str, ...]:
    """The reconstructed provisions a compliance figure withheld by ``state`` rests on, of the atoms of its
    item (``atoms``): the State's outcome and the cap (:func:`flag_compliance`)."""
    if not relies:
        return ()
    used = [a for a in atoms if a.name in _COMPLIANCE_ATOMS or (
        a.name == "state_outcome" and isinstance(a.args[2], Term) and a.args[2].name == state)]
    return relied_on(used, relies)


def _answer(question: str, person: str, day: str, atoms: list[Term]) -> PersonAnswer:
    """The answer to one question about a person, from the atoms whose second argument is its id."""
    residence: str | None = None
    provisions: set[str] = set()
    findings: set[Finding] = set()
    qualified: set[str] = set()
    for a in atoms:
        args: Any = a.args
        if a.name == "answer_residence":
            residence = args[2].name
            provisions.add(args[3])
        elif a.name == "answer_no_residence":
            residence = residence or "none"
        elif a.name == "answer_not_encoded":
            findings.add(Finding("not_encoded", args[2]))
            provisions.add(args[2])
        elif a.name == "answer_mutual_agreement":
            findings.add(Finding("mutual_agreement", args[2], person))
            provisions.add(args[2])
        elif a.name in ("answer_missing", "answer_depends"):
            findings.add(Finding(a.name.removeprefix("answer_"), args[3], render_term(args[2])))
        elif a.name in ("answer_qualified", "answer_not_qualified", "answer_open"):
            qualified.add({"answer_qualified": "yes", "answer_not_qualified": "no", "answer_open": "open"}[a.name])
            provisions.add(args[2])
        elif a.name == "answer_rests_on":
            provisions.add(args[2])
    if residence is None:
        residence = "mutual_agreement" if any(f.kind == "mutual_agreement" for f in findings) else "open"
    verdict = next((v for v in ("yes", "open", "no") if v in qualified), None)
    return PersonAnswer(question, person, day, residence, verdict,
                        tuple(sorted(provisions, key=provision_key)),
                        tuple(sorted(findings, key=lambda f: (f.kind, provision_key(f.provision), f.fact or ""))))


RIGHTS = frozenset({"may_tax", "not_limited", "may_not_tax", "only_taxable_in"})
"""The atoms that give a State's right to tax an item, with the provision that gives it."""


def add_right(rights: dict[tuple[str, str], list[str]], a: Term, states: Sequence[str]) -> None:
    """The provision of a right-to-tax atom (:data:`RIGHTS`) under the outcome it gives, by (State, outcome):
    ``may_tax`` and ``not_limited`` may tax, ``may_not_tax`` exempt, ``only_taxable_in`` exclusive for its
    State and exempt for the others."""
    args: Any = a.args
    if a.name in ("may_tax", "not_limited"):
        rights[(args[2].name, "may_tax")].append(args[3])
    elif a.name == "may_not_tax":
        rights[(args[2].name, "exempt")].append(args[3])
    elif a.name == "only_taxable_in":
        rights[(args[2].name, "exclusive")].append(args[3])
        for other in states:
            if other != args[2].name:
                rights[(other, "exempt")].append(args[3])


UNAPPLIED_KEPT = frozenset({"not_encoded", "input_error"})
"""The findings an item keeps whose application is for a provision missing from the corpus (``application_unknown``):
why it is not encoded, and an error of the input; nothing found under the treaty's articles ("exception applies",
an assumption, a missing fact) decides it, nor is said."""


def _item_result(treaty: str, item_id: str, income_type: str, states: tuple[str, ...],
                 atoms: list[Term], gross: Decimal | None, currency: str | None) -> ItemResult:
    outcome: dict[str, str] = {}
    caps: dict[str, list[tuple[int, str]]] = defaultdict(list)
    rights: dict[tuple[str, str], list[str]] = defaultdict(list)
    provisions: set[str] = set()
    basis: set[str] = set()
    findings: set[Finding] = set()
    assumptions: set[Finding] = set()
    limited_to: str | None = None
    base_open: str | None = None
    blocking: list[str] = []
    blocking_in: dict[str, list[str]] = defaultdict(list)  # State -> provisions excluding its tax alone
    denied: list[str] = []
    max_rate: int | None = None
    entitlement: dict[str, list[str]] = defaultdict(list)
    at_stake: set[str] = set()
    unapplied = False  # whether the treaty applies to the item at all is for a provision missing from the corpus
    for a in atoms:
        args: Any = a.args
        if a.name == "state_outcome":
            outcome[args[2].name] = args[3].name
        elif a.name == "max_rate":
            max_rate = args[2]
        elif a.name == "source_cap":
            caps[args[2].name].append((args[3], args[4]))
        elif a.name in RIGHTS:
            add_right(rights, a, states)
        elif a.name == "benefits_denied":
            denied.append(args[2])
        elif a.name == "note":
            findings.add(Finding("note", args[3], render_term(args[2])))
        elif a.name == "deadline":
            day = dates.from_day_number(args[3]).isoformat()
            findings.add(Finding("deadline", args[4], f"{render_term(args[2])} {day}"))
        elif a.name == "outcome_provision":
            provisions.add(args[2])
        elif a.name == "application_unknown":
            unapplied = True
        elif a.name == "limit_basis":
            basis.add(args[2])
        elif a.name == "entitlement":
            entitlement[args[3].name].append(args[4])
        elif a.name == "judgment_at_stake":
            at_stake.add(args[2].name)
        elif a.name == "limit_applies_to":
            limited_to = args[2].name
        elif a.name == "limit_base_open":
            base_open = args[2]
        elif a.name == "assumption":
            assumptions.add(Finding("assumption", args[3], render_term(args[2])))
        elif a.name in ("missing", "depends", "requires_judgment", "text_open"):
            findings.add(Finding(a.name, args[3], render_term(args[2])))
        elif a.name in ("pending", "not_encoded"):
            findings.add(Finding(a.name, args[2]))
            blocking.append(args[2])
        elif a.name == "treaty_not_applicable":
            blocking.append(args[2])
        elif a.name == "state_not_applicable":  # not applicable to one State's tax: that State's outcome
            blocking_in[args[2].name].append(args[3])
        elif a.name == "mutual_agreement":
            findings.add(Finding("mutual_agreement", args[3], render_term(args[2])))
        elif a.name == "exception_applies":
            findings.add(Finding("exception", args[3], render_term(args[2])))
        elif a.name == "input_error":
            findings.add(Finding("input_error", "(input)", render_term(args[2])))
        elif a.name == "relief":
            findings.add(Finding("relief", args[4], f"{args[2].name} {args[3].name}"))
        elif a.name == "discrimination":
            findings.add(Finding("discrimination", args[3], render_term(args[2])))
        elif a.name == "ppt_indicator":  # [ppt-indicators] informs, never decides: no status (see STATUS_OF_FINDING)
            findings.add(Finding("indicator", args[3], render_term(args[2])))
    if unapplied:  # not encoded for its date: the item says only why (blind55b b04/b05), not what its articles found
        findings = {f for f in findings if f.kind in UNAPPLIED_KEPT}
        assumptions = set()
        provisions = {f.provision for f in findings if f.kind == "not_encoded"}
        if not any(" " in p for p in provisions):  # the treaty alone: its dates of application, whose
            findings = {replaced(f, gap=APPLICATION) if f.kind == "not_encoded" else f  # article's number the
                        for f in findings}  # corpus does not give (blind58b D9)
    state_results = []
    for st in states:
        kind = outcome.get(st, "undetermined")
        rate = None
        provs: list[str] = []
        if kind == "capped":
            # the cap; certain over open facts under which different provisions give it: the rate alone
            rate = min(r for r, _ in caps[st]) if caps[st] else max_rate
            provs = rights[(st, "may_tax")] + [p for r, p in caps[st] if r == rate]
        elif kind in ("may_tax", "exempt", "exclusive"):
            provs = rights[(st, kind)]
        elif kind == "benefits_denied":
            provs = denied
        elif kind in ("not_applicable", "pending", "not_encoded"):
            provs = blocking + (blocking_in[st] if kind == "not_applicable" else [])
        elif kind == "mutual_agreement":
            provs = [f.provision for f in findings if f.kind == "mutual_agreement"]
        state_results.append(StateOutcome(st, kind, rate, tuple(sorted(set(provs), key=provision_key))))
    entitled = next((Entitlement(k, tuple(sorted(set(entitlement[k]), key=provision_key)), tuple(sorted(at_stake)))
                     for k in _ENTITLEMENT_ORDER if k in entitlement), None)
    statuses = {STATUS_OF_FINDING[f.kind] for f in findings if f.kind in STATUS_OF_FINDING}
    status = next((s for s in STATUS_ORDER if s in statuses), "decided")
    return ItemResult(
        item_id=item_id,
        treaty=treaty,
        income_type=income_type,
        status=status,
        states=tuple(state_results),
        max_rate_bp=max_rate,
        provisions=tuple(sorted(provisions, key=provision_key)),
        findings=tuple(sorted(findings, key=lambda f: (f.kind, provision_key(f.provision), f.fact or ""))),
        assumptions=tuple(sorted(assumptions, key=lambda f: (provision_key(f.provision), f.fact or ""))),
        limited_to=limited_to,
        limit_base_open=base_open,
        entitlement=entitled,
        gross=gross,
        currency=currency,
        limit_basis=tuple(sorted(basis, key=provision_key)),
    )
