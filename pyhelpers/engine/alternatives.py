"""Scenarios with unknown facts (issue 7): three-valued answers from brave and cautious consequences.

A scenario may give facts as alternatives (:mod:`pyhelpers.openfacts`). Every combination of their
values is a complete scenario with one answer set; they are solved together, never enumerated:

* the facts of each combination come from the audited fact functions; a fact common to all is plain,
  any other holds under the values it needs: ``f :- _value("s", F, V).`` (the smallest set of open facts
  its presence depends on), with one choice of a value per open fact,
  ``1 { _value(S, F, V) : _option(S, F, V) } 1 :- _open(S, F).`` — query-time text, never in ``logic/``;
* clingo's **cautious** consequences are the conclusions that hold whatever the values (*certain*),
  its **brave** consequences those that hold for some (*possible*); the rest are *impossible*;
* for each value V of each open fact F, brave and cautious consequences under the assumption
  ``_value(S, F, V)`` say under which values each possible conclusion holds: it holds *exactly* when F
  is one of the values where it is certain if it is impossible under every other value of F.

Every solve shares one deadline (``time_limit`` seconds, default 10); when it is reached the result
says so (``incomplete``) and no item that depends on the unknown facts is reported as decided.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import itertools
import operator
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

import clingo

from pyhelpers.base import clock
from pyhelpers.base.errors import InputError, Problem, ScenarioError
from pyhelpers.base.terms import Term, parse_atom, render_term, symbol_key, symbol_keys
from pyhelpers.engine import critical
from pyhelpers.engine.amounts import amount_bases, compliance_for
from pyhelpers.engine.answers import (
    RIGHTS,
    STATUS_OF_FINDING,
    UNAPPLIED_KEPT,
    add_right,
    reliance,
    relied_on,
    result_from_atoms,
)
from pyhelpers.engine.completion import combinations, unknown_values
from pyhelpers.engine.cover import cover
from pyhelpers.engine.domains import value_kind
from pyhelpers.engine.program import provision_key
from pyhelpers.engine.provenance import RELIES
from pyhelpers.engine.readers import FIRED, Fired, fired_program, provisions_reading
from pyhelpers.engine.results import (
    STATUS_ORDER,
    Alternative,
    Condition,
    Cut,
    Entitlement,
    Finding,
    Incomplete,
    ItemResult,
    Receipt,
    Relief,
    ReliefMethod,
    ScenarioResult,
    StateOutcome,
    UnknownFact,
    format_bp,
    replaced,
)
from pyhelpers.engine.slicing import Sliced
from pyhelpers.facts import NO_CUTS, timeline_cuts
from pyhelpers.facts.emit import conditional_fact, open_option, ranged_fact
from pyhelpers.scenario import Scenario, withholding_state
from pyhelpers.scenario.openfacts import MAX_COMBINATIONS, OpenFact, Part, linked_root, parts

DEFAULT_TIME_LIMIT = 10.0
"""Seconds allowed for all the solves of one scenario with unknown facts."""

SID = "s"

_CHOICE = "1 { _value(S, F, V) : _option(S, F, V) } 1 :- _option(S, F, _)."

_PRESENTATION = """
_label(S, I, St, capped, R) :- state_outcome(S, I, St, capped), max_rate(S, I, R).
_label(S, I, St, O, none) :- state_outcome(S, I, St, O), O != capped.
_outcome_given(S, I, St) :- state_outcome(S, I, St, _).
_label(S, I, St, undetermined, none) :- item_state(S, I, St), not _outcome_given(S, I, St).
_label_provision(S, I, St, O, R, P) :- _label(S, I, St, O, R), outcome_provision(S, I, P), not _elsewhere(S, I, St, P).
_elsewhere(S, I, St, P) :- state_not_applicable(S, I, Oth, P), item_state(S, I, St), St != Oth,
                           not state_not_applicable(S, I, St, P).
_label_provision(S, I, St, O, R, P) :- _label(S, I, St, O, R), not_encoded(S, I, P).
_label_provision(S, I, St, O, R, P) :- _label(S, I, St, O, R), treaty_not_applicable(S, I, P).
_label_provision(S, I, St, O, R, P) :- _label(S, I, St, O, R), state_not_applicable(S, I, St, P).
_label_provision(S, I, St, O, R, P) :- _label(S, I, St, O, R), benefits_denied(S, I, P).
_has_label(S, I, St) :- _label(S, I, St, _, _).
_entitlement_status(S, I, St) :- entitlement(S, I, T, St, P).
_judged_ground(S, I, P) :- entitlement(S, I, T, requires_judgment, Q), entitlement_ground(S, I, T, P).
#show _label/5.
#show _entitlement_status/3.
#show _judged_ground/3.
#show _label_provision/6.
#show _has_label/3.
"""
"""Query-time presentation rules: the outcome of each State as one atom (``_label``: the outcome and the
cap, ``none`` when not capped) and the provisions it rests on (not those by which the Convention does not
apply to the other State's tax alone: ``_elsewhere``), so that brave and cautious consequences speak of
whole outcomes; and the paragraph that grants the benefits where only a principal purpose question is left
(``_judged_ground``: the entitlement is then ``requires_judgment``, not ``entitled``)."""

_NOT_APPLICABLE = ("treaty_not_applicable(", "state_not_applicable(")
"""The atoms by which the Convention does not apply to an item, or to one State's tax on it (the provision
is their last argument)."""

_PROVISIONS_ONLY = frozenset({"outcome_provision", "_label_provision", "source_cap", "may_tax", "may_not_tax",
                              "only_taxable_in", "not_limited", "exception_applies", "limit_basis",
                              "_judged_ground"})
"""Atoms that name the provisions an outcome rests on (the outcome itself is ``_label``; the paragraph that
would grant the benefits where a principal purpose question is left, ``_judged_ground``): open facts that
change only these change no outcome, finding or figure of the item, only the way to it."""

_INFORMING = frozenset({"ppt_indicator"})
"""Findings that inform a judgment the user makes and decide nothing (core ppt_indicators.lp: an indicator
"raises no missing or unknown fact; a fact it would need that the scenario does not give is simply not an
indicator"): an open fact that changes only these changes no outcome, finding or figure of the item. What
an indicator raises (a principal purpose question not answered) is a finding of its own, and does decide."""

_EXPLAINING = frozenset({"exception"})
"""The kinds of :class:`Finding` that say why an outcome holds (an exception that applies, taking a place out of
another provision): a fact whose values change only these (and the provisions) changes no outcome and no figure.
Such a finding that holds under some values only is shown with them (an alternative: ``possibly: ... if``),
and the facts it turns on are neither deciding (``depends``) nor ``not_needed`` (:func:`explains`)."""


def explains(alternative: Alternative) -> bool:
    """Whether ``alternative`` is a finding of a kind that explains an outcome (:data:`_EXPLAINING`)."""
    return alternative.state is None and alternative.finding is not None and alternative.finding.kind in _EXPLAINING


_FINDINGS = ("missing", "depends", "assumption", "requires_judgment", "not_encoded", "exception_applies",
             "input_error", "note", "mutual_agreement", "discrimination", "text_open")
_FINDING_KIND = {"exception_applies": "exception"}
"""The kind of :class:`Finding` an atom of :data:`_FINDINGS` is, where it is not the atom's name."""


@dataclass
class _Consequences:
    """Brave (possible) and cautious (certain) consequences, overall and under each value of each fact."""

    brave: frozenset[str]
    cautious: frozenset[str]
    under: dict[tuple[int, int], tuple[frozenset[str], frozenset[str]]]  # (fact, value) -> (brave, cautious)
    complete: bool
    ctl: clingo.Control | None = None
    deadline: float = 0.0
    _within: dict[tuple[tuple[int, int], ...], frozenset[str] | None] = dataclasses.field(default_factory=dict)
    models: list[tuple[dict[int, int], frozenset[str]]] | None = None  # every combination's answer set
    _where_of: dict[tuple[int, int], int] | None = None

    def _where(self) -> dict[tuple[int, int], int]:
        """For each (fact, value) pair, the answer sets of :attr:`models` where the fact takes that value, as
        the bits of an integer (bit n: the n-th), read once."""
        if self._where_of is None:
            self._where_of = {}
            for n, (values, _) in enumerate(self.models or ()):
                for pair in values.items():
                    self._where_of[pair] = self._where_of.get(pair, 0) | 1 << n
        return self._where_of

    def certain_within(self, excluded: tuple[tuple[int, int], ...]) -> frozenset[str] | None:
        """Cautious consequences when each open fact F may take any value but the excluded (F, V) pairs
        (memoised; None past the deadline)."""
        if excluded not in self._within and self.models is not None:
            dropped = 0  # the answer sets where some excluded fact takes its excluded value, one bit each
            where = self._where()
            for pair in excluded:
                dropped |= where.get(pair, 0)
            out = set(self.brave)
            for n, (_, atoms) in enumerate(self.models):
                if not dropped >> n & 1:
                    out &= atoms
            self._within[excluded] = frozenset(out)
        if excluded not in self._within:
            assumptions = [(_value(f, v), False) for f, v in excluded]
            self._within[excluded] = None if self.ctl is None else _solve(self.ctl, "cautious", assumptions,
                                                                          self.deadline)
        return self._within[excluded]


def _value(f: int, v: int) -> clingo.Symbol:
    return clingo.Function("_value", [clingo.String(SID), clingo.Number(f), clingo.Number(v)])


def _condition_sets(unknowns: Sequence[OpenFact], facts_of: list[list[str]]
                    ) -> dict[str, tuple[tuple[tuple[int, int], ...], ...]]:
    """For each fact text, the value assignments under which it holds: () for a fact of every
    combination; else one tuple of (open fact, value) pairs per assignment of the fewest open facts on
    which its presence depends."""
    shape = [len(f.values) for f in unknowns]
    combos = list(itertools.product(*(range(n) for n in shape)))
    present: dict[str, set[int]] = defaultdict(set)
    for n, facts in enumerate(facts_of):
        for text in facts:
            present[text].add(n)
    out: dict[str, tuple[tuple[tuple[int, int], ...], ...]] = {}
    everywhere = set(range(len(combos)))
    for text, where in present.items():
        if where == everywhere:
            out[text] = ()
            continue
        if len(shape) == 1:  # one open fact: its values are the combinations
            out[text] = tuple(((0, combos[n][0]),) for n in sorted(where))
            continue
        for size in range(1, len(shape) + 1):
            found = None
            for subset in itertools.combinations(range(len(shape)), size):
                keyed: dict[tuple[int, ...], bool] = {}
                consistent = True
                for n, combo in enumerate(combos):
                    key = tuple(combo[i] for i in subset)
                    holds = n in where
                    if keyed.setdefault(key, holds) != holds:
                        consistent = False
                        break
                if consistent:
                    found = tuple(tuple(zip(subset, key, strict=True)) for key, holds in sorted(keyed.items()) if holds)
                    break
            if found is not None:
                out[text] = found
                break
    return out


def _solve(ctl: clingo.Control, mode: str, assumptions: list[tuple[clingo.Symbol, bool]],
           deadline: float) -> frozenset[str] | None:
    """The ``mode`` consequences (brave | cautious) of the shown atoms, or None past the deadline."""
    remaining = deadline - clock.now()
    if remaining <= 0:
        return None
    ctl.configuration.solve.enum_mode = mode  # type: ignore[union-attr]
    ctl.configuration.solve.models = 0  # type: ignore[union-attr]
    last: list[clingo.Symbol] = []

    def on_model(model: clingo.Model) -> None:
        last[:] = model.symbols(shown=True)

    with ctl.solve(on_model=on_model, assumptions=assumptions, async_=True) as handle:
        if not clock.wait(handle, deadline):
            handle.cancel()
            return None
        handle.get()
    return frozenset(map(str, last))


@dataclass(frozen=True)
class OpenProgram:
    """The program of a scenario whose open facts are choices: rules, facts and the values' options."""

    rules: str
    facts: tuple[str, ...]
    reads: tuple[frozenset[str], ...] = ()
    """Per open fact (in order): the predicates of the facts that differ between its values."""
    sliced: Sliced | None = None
    """The slice of the rules (``rules`` without the choice of the values), which a Control is given parsed once the
    slice is used again (:meth:`~pyhelpers.engine.slicing.Sliced.add_to`)."""

    def add_to(self, ctl: clingo.Control, more: str) -> None:
        """Add the rules and ``more`` (query-time rules) to ``ctl``: the slice's statements as it keeps them, then the
        choice of the values and ``more`` as text (the same program, in the same order, as ``rules`` and ``more``)."""
        if self.sliced is None:
            ctl.add("base", [], self.rules + more)
            return
        self.sliced.add_to(ctl)
        ctl.add("base", [], "\n" + _CHOICE + more)


def _runs(values: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted distinct integers as runs of consecutive ones: [1, 2, 3, 7] gives [(1, 3), (7, 7)]."""
    runs: list[tuple[int, int]] = []
    for v in values:
        if runs and runs[-1][1] == v - 1:
            runs[-1] = (runs[-1][0], v)
        else:
            runs.append((v, v))
    return runs


OWNERSHIP_CUT_ALIKE_UP_TO = 8
"""Up to this many combinations, :func:`open_program` cuts the ownership periods of each at the days of all
(:func:`~pyhelpers.facts.timeline_cuts`): the periods are the same in every combination, so what the rules
derive over a period (the shares held in it) is derived once for all of them. Beyond, each combination's
periods are its own: the windows of a share's days (each combination's own, chosen at its own days) would each
list every period of the common timeline, as many as the combinations' days, a cost that grows with the square
of the combinations (an open end of an ownership record over its critical dates), where each combination's
own periods cost the same for each. Measured on an open end of an ownership record over 17 to 32 critical
dates: cut alike, 1.2 to 2.2 s of CPU time; each its own, 0.5 to 0.7 s."""


def open_program(checker: Any, scenario: Scenario, source: str, chosen: Sequence[OpenFact]) -> OpenProgram:
    """The facts of every combination of the values of ``chosen`` (open facts of ``scenario``; the others
    at their first value), each fact under the values it needs (:func:`_condition_sets`), and the rule
    slice of the treaty. Raises :class:`ScenarioError` naming a combination that is not a valid scenario."""
    combos = list(itertools.product(*(range(len(f.values)) for f in chosen)))
    variants: list[Scenario] = []
    problems = []
    versions: set[tuple[str, ...]] = set()
    for combo in combos:
        choice = {f.path: f.values[v] for f, v in zip(chosen, combo, strict=True)}
        try:
            variant = scenario.with_values(choice, source, keep_expect=False)  # read for its facts only
        except ScenarioError as err:
            told = ", ".join(f"{f.name} = {f.show(v)}" for f, v in zip(chosen, combo, strict=True))
            problems += [dataclasses.replace(p, found=f"{p.found} (with {told})") for p in err.problems]
            continue
        variants.append(variant)
        versions.update(checker.version_groups(variant))
    if problems:
        raise ScenarioError(problems)
    # time cut alike in every combination: a sum of days ranges over the pieces of one timeline; the ownership
    # periods so only for a few combinations (:data:`OWNERSHIP_CUT_ALIKE_UP_TO`)
    cuts = functools.reduce(operator.or_, map(timeline_cuts, variants)) if len(variants) > 1 else NO_CUTS
    if len(variants) > OWNERSHIP_CUT_ALIKE_UP_TO:
        cuts = dataclasses.replace(cuts, ownership=frozenset())
    facts_of = [checker.facts(variant, SID, cuts) for variant in variants]
    if len(versions) > 1:
        raise InputError(f"{source}: the alternatives of the open facts fall under different versions of an "
                         "amended article; check each version's dates in a separate scenario")
    conditions = _condition_sets(chosen, facts_of)
    program_facts: list[str] = []
    for text in sorted(conditions):
        assignments = conditions[text]
        if not assignments:
            program_facts.append(text)
        elif all(len(a) == 1 and a[0][0] == assignments[0][0][0] for a in assignments):  # values of one fact
            f = assignments[0][0][0]
            for low, high in _runs(sorted(a[0][1] for a in assignments)):
                program_facts.append(conditional_fact(text, SID, ((f, low),)) if low == high
                                     else ranged_fact(text, SID, f, low, high))
        else:
            program_facts += [conditional_fact(text, SID, assignment) for assignment in assignments]
    program_facts += [open_option(SID, f, v) for f, fact in enumerate(chosen) for v in range(len(fact.values))]
    # the slice of the rules that can fire on some combination's facts (every fact of any combination)
    sliced = checker.logic.program_for_facts(scenario.treaty, list(conditions), next(iter(versions), ()))
    rules = str(sliced)
    reads = _reads_of(conditions, len(chosen))
    if cuts.ownership and len(variants) > 1:
        # the predicates that differ between the values whichever way time is cut: cut alike, the ownership periods
        # are the same in every combination and only what holds over them differs, so the rules that read the periods
        # would not be told from those the values leave alike, as they are where each combination's own periods are
        # read (more combinations than OWNERSHIP_CUT_ALIKE_UP_TO): the deciding provisions would then turn on the
        # number of values (blind58b D5, test_critical_dates blind49-lob-29-2-e-16)
        own = _condition_sets(chosen, [checker.facts(v, SID, dataclasses.replace(cuts, ownership=frozenset()))
                                       for v in variants])
        reads = tuple(a | b for a, b in zip(reads, _reads_of(own, len(chosen)), strict=True))
    return OpenProgram(rules + "\n" + _CHOICE, tuple(program_facts), reads, sliced)


def _reads_of(conditions: Mapping[str, tuple[tuple[tuple[int, int], ...], ...]], count: int
              ) -> tuple[frozenset[str], ...]:
    """Per open fact (``count`` of them, in order): the predicates of the facts of ``conditions``
    (:func:`_condition_sets`) that differ between its values."""
    return tuple(frozenset(text.partition("(")[0] for text, assignments in conditions.items()
                           if any(f == n for a in assignments for f, _ in a))
                 for n in range(count))


def _solved_open(checker: Any, scenario: Scenario, source: str, unknowns: Sequence[OpenFact], deadline: float,
                 readers: bool = True) -> tuple[OpenProgram, clingo.Control, Fired, _Consequences]:
    """The program of ``scenario`` over the values of ``unknowns`` (:func:`open_program`), grounded with the
    presentation rules and (with ``readers``) the fired-rule readers, and its consequences by the deadline.
    The readers' atoms are not among the consequences (they are shown later, :func:`_fired_shown`): a probe
    (:func:`_refined`) goes without them."""
    prog = open_program(checker, scenario, source, unknowns)
    ctl = clingo.Control(["--warn=none"])
    fired = fired_program(checker.logic, scenario.treaty, frozenset().union(*prog.reads)) if readers else \
        Fired("", frozenset(), {})
    prog.add_to(ctl, _PRESENTATION + "\n#show _value/3.\n" + fired.program)
    ctl.add("base", [], "\n".join(prog.facts))
    ctl.ground([("base", [])])
    return prog, ctl, fired, _consequences(ctl, unknowns, deadline)


def check_open(checker: Any, scenario: Scenario, source: str, time_limit: float = DEFAULT_TIME_LIMIT,
               completed: Sequence[OpenFact] = (), three_valued: ScenarioResult | None = None,
               missing: dict[str, frozenset[str]] | None = None,
               asked_for: dict[tuple[str, str], set[Finding]] | None = None) -> ScenarioResult:
    """Evaluate ``scenario``, whose facts include unknowns given as alternatives (see module doc), and
    the facts given as plain ``unknown`` opened over their values (``completed``,
    :mod:`pyhelpers.engine.completion`): an item whose conclusions are the same whatever they are is
    decided, the facts the rules asked for listed as ``not_needed``. An item of ``three_valued`` (the
    scenario answered three-valued) that asks for none of them keeps that answer. ``missing``: the open
    facts of records added for missing ones, each with the missing facts it stands for."""

    deadline = clock.now() + time_limit
    unknowns: tuple[OpenFact, ...] = (*critical.open_facts(checker, scenario), *completed)  # dates: critical ones
    _within_limit(unknowns, source)
    for _ in range(REFINE_ROUNDS + 1):
        prog, ctl, fired, cons = _solved_open(checker, scenario, source, unknowns, deadline)
        if not cons.complete:
            break
        placed = _refined(unknowns, cons, lambda probed: _solved_open(checker, scenario, source, probed, deadline,
                                                                            readers=False)[3])
        if placed is None:
            cons = dataclasses.replace(cons, complete=False)  # a change between two days not placed in time
            break
        if placed == unknowns:
            break
        unknowns = placed
    else:
        cons = dataclasses.replace(cons, complete=False)  # a change between two days still not placed
    receipt = Receipt(checker.receipt([]).package_version, clingo.__version__, checker.logic.digest,
                      hashlib.sha256("\n".join(prog.facts).encode("utf-8")).hexdigest())
    parsed = [(t, parse_atom(t)) for t in sorted(cons.cautious)]
    settled = {(a.args[1], a.args[2]) for _, a in parsed if a.name == "_label"}  # (item, State) with a certain outcome
    certain = [(t, a) for t, a in parsed if not t.startswith("_")
               and not (a.name == "state_outcome" and (a.args[1], a.args[2]) not in settled)]
    relies = reliance(parse_atom(t) for t in cons.brave if t.startswith(RELIES))  # in some combination
    base = result_from_atoms(scenario, source, certain, receipt, relies)
    readers = {f.name: provisions_reading(checker.logic, scenario.treaty, names)
               for f, names in zip(unknowns, prog.reads, strict=True)}
    questions = frozenset(p.name for p in checker.logic.vocabulary.values() if p.role == "question")
    citing = {p.name: tuple(n for n, a in enumerate(p.args) if a.type == "prov")
              for p in checker.logic.vocabulary.values() if any(a.type == "prov" for a in p.args)}
    deciders = _Deciders(scenario, unknowns, fired, readers, lambda: _fired_shown(ctl, unknowns, cons, deadline),
                         cons, questions, citing)
    grounds = _grounds_only(cons)
    pivotal = _pivotal(cons, unknowns, grounds)
    items = tuple(_item(scenario, it, unknowns, cons, relies, readers, deciders, pivotal.get(it.item_id, set()),
                        grounds) for it in base.items)
    if three_valued is not None and not cons.complete:  # cut: what the three-valued answer proved stands
        askers = {iid for iid, _ in (asked_for or {})}
        items = tuple(proven_at_cut(three, CUT_PROVEN, asks=three.item_id in askers)
                      for three in (three_valued.item(it.item_id) for it in items))
    if three_valued is not None and cons.complete:
        asked = {it.item_id: it for it in three_valued.items}
        attributed = dict(asked_for or {})
        for it in three_valued.items:  # an added record stands for the missing facts the rules name
            for name, stands_for in (missing or {}).items():
                given = {f for f in it.findings if f.kind == "missing" and f.fact in stands_for}
                if given:
                    attributed[(it.item_id, name)] = given
        items = tuple(_relevance(it, asked[it.item_id], completed, attributed, readers, deciders,
                                 pivotal.get(it.item_id, set())) for it in items)
    elif cons.complete:  # the facts the scenario gives open: each that decides nothing of an item it is about
        items = tuple(_given_not_needed(scenario, it, unknowns, readers, pivotal.get(it.item_id, set()))
                      for it in items)
    answers = tuple(dataclasses.replace(a, reconstructed=possibly_relied_on(a.question, relies)) for a in base.answers)
    facts = tuple(UnknownFact(f.name, _span(f), tuple(it.item_id for it in items
                                                       if f.name in pivotal.get(it.item_id, ())
                                                       or any(f.name in a.condition_facts()
                                                              for a in it.alternatives if not explains(a))),
                              not f.not_given,
                              f.listed(), value_kind(f.path))
                  for f in unknowns)
    incomplete = None if cons.complete else Incomplete(Cut.ALTERNATIVES, time_limit)
    return dataclasses.replace(base, items=items, answers=answers, unknowns=facts, incomplete=incomplete,
                               atoms=tuple(sorted(t for t in cons.brave if not t.startswith((RELIES, FIRED)))))


CUT_PROVEN = "proven"
"""The ``fact`` of the finding ``time_limit`` of an item whose alternatives the time limit cut, its
three-valued answer kept (:func:`proven_at_cut`)."""

_OPEN_KINDS = ("missing", "depends", "requires_judgment")
"""The findings by which an item of a three-valued answer leaves something open (a fact not given or given
as unknown, a judgment to make)."""


def proven_at_cut(three: ItemResult, cut: str, asks: bool = False) -> ItemResult:
    """An item of a scenario's three-valued answer (one answer set, the open facts reported by name) where the
    time limit stopped the check before the answer over the open facts' values was found: what that answer
    proved stands (each State's outcome it gives, the facts it finds missing, the status they give: ``missing``
    stays ``missing``), with the finding ``time_limit`` (``cut``: its ``fact``) saying that what it leaves
    undetermined is not proven either way; no bound and no alternative is stated. An item that leaves nothing
    open and asks for none of the opened facts (``asks``) is final as it is: the values of the open facts
    change nothing of it."""
    if not asks and not any(f.kind in _OPEN_KINDS for f in three.findings):
        return three
    findings = {*three.findings, Finding("time_limit", three.treaty, cut)}
    statuses = {STATUS_OF_FINDING[f.kind] for f in findings if f.kind in STATUS_OF_FINDING}
    status = next((s for s in STATUS_ORDER if s in statuses), "depends")
    states = tuple(dataclasses.replace(s, at_most_bp=None, may_tax_always=False) for s in three.states)
    return dataclasses.replace(three, status=status, states=states, alternatives=(), bound_alternatives=(),
                               findings=tuple(sorted(findings, key=lambda f: (f.kind, provision_key(f.provision),
                                                                               f.fact or ""))))


PARTS_FROM = 64
"""Below this many combinations of the completed facts, :func:`check_open_in_parts` leaves them in one
solve (one grounding costs less than a few small ones)."""


def parts_of(items: Sequence[str], completed: Sequence[OpenFact],
             attributed: dict[tuple[str, str], set[Finding]]) -> list[tuple[list[str], list[OpenFact]]]:
    """The items in groups that ask for no completed fact in common (``attributed``: the facts each item
    asks for, by item id and fact name), each with the facts its items ask for, in the items' order; an
    item that asks for none goes with the first group."""
    parent = {i: i for i in items}

    def root(i: str) -> str:
        return linked_root(parent, i)

    first_asking: dict[str, str] = {}
    for iid, name in sorted(attributed, key=lambda k: (items.index(k[0]) if k[0] in parent else -1, k[1])):
        if iid not in parent:
            continue
        other = first_asking.setdefault(name, iid)
        parent[root(iid)] = root(other)
    asking = {i for i, _ in attributed if i in parent}
    groups: dict[str, list[str]] = {}
    for i in items:
        if i in asking:
            groups.setdefault(root(i), []).append(i)
    out = [(members, [f for f in completed if any((i, f.name) in attributed for i in members)])
           for members in groups.values()]
    idle = [i for i in items if i not in asking]
    if out and idle:
        out[0] = ([i for i in items if i in out[0][0] or i in idle], out[0][1])
    return out


def _ids_of(fact: OpenFact) -> set[str]:
    """The ids an open fact is about: the keys and names of its path and the arguments of its name
    (``holding(h, c).from``: ``h`` and ``c``)."""
    found = {p for p in fact.path if isinstance(p, str)}
    m = re.search(r"\(([^)]*)\)", fact.name)
    return found | ({a.strip() for a in m.group(1).split(",")} if m else set())


def _reads(item: ItemResult, ids: set[str]) -> bool:
    """Whether ``item`` reports, in every combination or in some, a fact missing or open (``depends``)
    about one of ``ids``: one its group did not open, which another group may (its answer would then turn
    on that group's facts, and the groups are not independent)."""
    found = [*item.findings, *(a.finding for a in item.alternatives if a.finding is not None)]
    texts = [f.fact or "" for f in found if f.kind in ("missing", "depends")]
    return any(set(re.split(r"[(), ]+", t.partition("(")[2])) & ids for t in texts)  # its arguments


def check_open_in_parts(checker: Any, scenario: Scenario, source: str, time_limit: float,
                        completed: Sequence[OpenFact], three_valued: ScenarioResult,
                        missing: dict[str, frozenset[str]], attributed: dict[tuple[str, str], set[Finding]]
                        ) -> ScenarioResult | None:
    """:func:`check_open` of a scenario whose items fall in groups asking for no completed fact in common
    (:func:`parts_of`), one group at a time: each solve combines the values of its own facts only (the
    facts of other groups stay unknown, which its items do not read), not those of every fact. The items
    are independent of each other (as :mod:`pyhelpers.engine.limited` slices them), so each item's answer
    is the one the whole solve gives (a test compares them on every shipped scenario this applies to),
    unless under some value of its own facts an item reads a fact another group opens (a salary borne by
    a place whose kind is unknown): then None, and the facts are combined in one solve.
    None where it does not apply: a single group, fewer than :data:`PARTS_FROM` combinations, questions
    about persons (not items), or facts given as alternatives or open dates (their scenario is decided in
    parts by :func:`check_alternatives_in_parts`)."""
    if scenario.unknowns or not scenario.income or combinations(completed) < PARTS_FROM or any(
            a for a in three_valued.answers):
        return None
    attributed = dict(attributed)
    for it in three_valued.items:  # an added record stands for the missing facts the rules name
        for name, stands_for in missing.items():
            given = {f for f in it.findings if f.kind == "missing" and f.fact in stands_for}
            if given:
                attributed[(it.item_id, name)] = given
    parts = parts_of([i.id for i in scenario.income], completed, attributed)
    if len(parts) < 2:
        return None
    deadline = clock.now() + time_limit
    runs = []
    for members, facts in parts:
        left = max(deadline - clock.now(), 0.0)
        names = {f.name for f in facts}
        mine = {k: v for k, v in attributed.items() if k[0] in members and k[1] in names}
        run = check_open(checker, scenario, source, left, facts, three_valued,
                         {k: v for k, v in missing.items() if k in names}, mine)
        others = {i for _, fs in parts if fs is not facts for f in fs for i in _ids_of(f)}
        if any(_reads(it, others) for it in run.items if it.item_id in members):
            return None  # under some value of its own facts an item reads what another group opens
        runs.append((set(members), run))
    item_of = {it.item_id: it for own, run in runs for it in run.items if it.item_id in own}
    unknowns = {u.fact: u for _, run in runs for u in run.unknowns}
    reasons = [run.incomplete for _, run in runs if run.incomplete is not None]
    first = runs[0][1]
    digest = hashlib.sha256("\n".join(run.receipt.facts_sha256 for _, run in runs).encode("utf-8")).hexdigest()
    ids = set(item_of)
    atoms = []
    for n, (own, run) in enumerate(runs):
        for text in run.atoms:
            atom = parse_atom(text)
            item = atom.args[1] if len(atom.args) > 1 and isinstance(atom.args[1], str) and atom.args[1] in ids \
                else None
            if (item is None and n == 0) or item in own:
                atoms.append(text)
    return dataclasses.replace(
        first, items=tuple(item_of[i.id] for i in scenario.income),
        unknowns=tuple(unknowns[f.name] for f in completed if f.name in unknowns),
        incomplete=reasons[0] if reasons else None, receipt=dataclasses.replace(first.receipt, facts_sha256=digest),
        atoms=tuple(sorted(set(atoms))))


def part_scenario(scenario: Scenario, part: Part, source: str) -> Scenario:
    """The scenario of one part (:func:`~pyhelpers.scenario.openfacts.parts`): its income items only (no
    ``expect:`` block; an arrangement names only those), every other record as it is, and the open facts
    of the part (an item's own at its new index) and the facts ``whatif`` may change (its items' and the
    other records'); every other unknown fact at its first value, which the part's items do not read."""
    data = scenario._plain_data if scenario._plain_data is not None else scenario.model_dump(
        mode="json", by_alias=True, exclude_unset=True)
    position = {old: new for new, old in enumerate(part.items)}
    sub = {k: v for k, v in data.items() if k != "expect"}
    sub["income"] = [data["income"][n] for n in part.items]
    ids = {row.get("id") for row in sub["income"] if isinstance(row, dict)}
    if isinstance(data.get("arrangements"), dict):  # each with the part's items only (one with none: left out)
        sub["arrangements"] = {k: {**a, "items": [i for i in a.get("items", []) if i in ids]}
                               for k, a in data["arrangements"].items()
                               if isinstance(a, dict) and any(i in ids for i in a.get("items", []))}
    if Scenario.revalidate is None:
        raise RuntimeError("pyhelpers.scenario.loading sets Scenario.revalidate: import pyhelpers.scenario")
    out = Scenario.revalidate(sub, source)
    mine = {f.path for f in part.facts}
    def own_item(f: OpenFact) -> bool:  # a fact of one income item (its index after "income")
        return len(f.path) > 1 and f.path[0] == "income" and isinstance(f.path[1], int)

    out._open_facts = tuple(dataclasses.replace(f, path=("income", position[f.path[1]], *f.path[2:]))
                            if own_item(f) else f
                            for f in scenario.open_facts if f.path in mine or (
                                f.kind == "changeable" and (not own_item(f) or f.path[1] in position)))
    out._plain_data = sub
    return out


def check_alternatives_in_parts(checker: Any, scenario: Scenario, source: str, time_limit: float
                                ) -> ScenarioResult | None:
    """:func:`check_open` of a scenario with facts given as alternatives, part by part
    (:func:`~pyhelpers.scenario.openfacts.parts`: items that read no open fact in common, each part with
    the facts its items may read, a date by its critical dates): each part is the scenario with its items
    only (:func:`part_scenario`), solved over the combinations of its own facts (and of the facts it gives
    as plain ``unknown``), so that the limit on combinations applies to each part, not to the product of
    every part's. An item's answer is the one it has alone in its scenario (``tests/test_open_parts.py``
    compares them); the facts no item reads are listed, deciding nothing, and not combined. The parts
    share the time limit. None where it does not apply: one part, or questions about persons."""
    if scenario.questions or not scenario.income:
        return None
    data = scenario._plain_data if scenario._plain_data is not None else scenario.model_dump(
        mode="json", by_alias=True, exclude_unset=True)
    every = parts(data, critical.open_facts(checker, scenario))  # a date counted by its critical dates
    if len(every) < 2:
        return None
    deadline = clock.now() + time_limit
    runs = []
    for part in every:
        if not part.items:
            continue  # facts no item reads: listed below, deciding nothing
        sub = part_scenario(scenario, part, source)
        try:
            runs.append(check_open(checker, sub, source, max(deadline - clock.now(), 0.0), unknown_values(sub)))
        except ScenarioError as err:  # too many combinations in one part: the part named
            ids = ", ".join(i.id for i in sub.income)
            raise ScenarioError([dataclasses.replace(p, found=f"{p.found} (in the part of income({ids}), decided "
                                                     "apart from the other items)") for p in err.problems]) from None
    item_of = {it.item_id: it for run in runs for it in run.items}
    merged: dict[str, UnknownFact] = {}
    for run in runs:
        for u in run.unknowns:
            known = merged.get(u.fact)
            merged[u.fact] = u if known is None else dataclasses.replace(
                known, items=tuple(i for i in item_of if i in {*known.items, *u.items}))
    for f in (f for part in every if not part.items for f in part.facts):
        merged[f.name] = UnknownFact(f.name, _span(f), (), not f.not_given, f.listed(), value_kind(f.path))
    order = {f.name: n for n, f in enumerate(scenario.unknowns)}
    unknowns = sorted(merged.values(), key=lambda u: (order.get(u.fact, len(order)), list(merged).index(u.fact)))
    reasons = [run.incomplete for run in runs if run.incomplete is not None]
    first = runs[0]
    digest = hashlib.sha256("\n".join(run.receipt.facts_sha256 for run in runs).encode("utf-8")).hexdigest()
    return dataclasses.replace(
        first, items=tuple(item_of[i.id] for i in scenario.income), unknowns=tuple(unknowns),
        incomplete=reasons[0] if reasons else None, receipt=dataclasses.replace(first.receipt, facts_sha256=digest),
        atoms=tuple(dict.fromkeys(a for run in runs for a in run.atoms)))


def _within_limit(unknowns: Sequence[OpenFact], source: str) -> None:
    """Refuse dates given as plain ``unknown`` whose days the rules can tell apart, combined with the other
    open facts, exceed :data:`~pyhelpers.scenario.openfacts.MAX_COMBINATIONS` (the loader cannot count them:
    they are known only once the treaty's periods are read)."""
    dated = [f for f in unknowns if f.open_end]
    if not dated or combinations(unknowns) <= MAX_COMBINATIONS:
        return
    first = dated[0]
    raise ScenarioError([Problem(
        source, first.line, first.name, f"at most {MAX_COMBINATIONS:,} combinations of the unknown facts' values",
        f"{combinations(unknowns):,} ({' x '.join(f'{len(f.values)} ({f.name})' for f in unknowns)}); a date "
        "given as unknown counts the days the rules can tell apart",
        "give one of the dates as a range (between: [FIRST, LAST]) or a value, or check the records in separate "
        "scenarios")])


REFINE_ROUNDS = 6
"""At most this many rounds of the whole solve place, between two representatives of a date that answer
differently, the first day that answers as the later one (:func:`_refined`): each round's changes are placed
by probes; a further round is needed only where placing them changes what another open fact's values lead to."""

_PROBES = 7
"""Days probed inside each gap whose ends answer differently, per probing solve (:func:`_refined`): a gap of
``n`` days is placed to its day in about log(n) / log(_PROBES + 1) solves of a few values each."""


def _refined(unknowns: Sequence[OpenFact], cons: _Consequences,
             probe: Callable[[tuple[OpenFact, ...]], _Consequences]) -> tuple[OpenFact, ...] | None:
    """``unknowns`` with the days added, inside each gap between two consecutive representatives of a date
    that answer differently (their conclusions and findings, the other facts open), where the answer changes
    (the first day answering as the later side, and the day before it); ``unknowns`` itself where every such
    change falls on a representative that follows the day before it; None where a probe did not finish by
    the deadline. The critical dates are the boundaries the rules compare a date with one by one; a threshold
    that the rules reach by adding the days of several records (stays in a State over a twelve-month window)
    is not one of them, and is found here. It is found by probing, never by enumerating days: each gap is cut
    at :data:`_PROBES` days solved together with its two ends (``probe``: the consequences of the open facts
    with one fact's values replaced by the days probed), and only the parts whose ends still answer
    differently are cut again, until each change lies between two consecutive days."""
    out: list[OpenFact] = []
    changed = False
    masks: dict[str, str] = {}  # each atom's text masked, once for every value it holds under
    seen: dict[tuple[int, int], tuple[frozenset[str], frozenset[str]] | None] = {}

    def observed(f: int, v: int) -> tuple[frozenset[str], frozenset[str]] | None:
        if (f, v) not in seen:
            seen[(f, v)] = _observed(cons, f, v, masks)
        return seen[(f, v)]

    for f, fact in enumerate(unknowns):
        # an added record's first day too: a boundary set by the evaluation date (up to which an
        # open-ended holding is known) lies between the ones tried around the item's date
        if fact.ranged != "date":
            out.append(fact)
            continue
        days = [date.fromisoformat(str(v)) for v in fact.values]
        gaps = [(days[v], days[v + 1]) for v in range(len(days) - 1)
                if (days[v + 1] - days[v]).days > 1 and observed(f, v) != observed(f, v + 1)]
        added: set[date] = set()
        while gaps:
            probed = sorted({d for lo, hi in gaps for d in _cuts(lo, hi)})
            trial = (*unknowns[:f], dataclasses.replace(fact, values=tuple(d.isoformat() for d in probed)),
                     *unknowns[f + 1:])
            found = probe(trial)
            if not found.complete:
                return None
            at = {d: _observed(found, f, n, masks) for n, d in enumerate(probed)}
            following: list[tuple[date, date]] = []
            for lo, hi in gaps:
                cut = _cuts(lo, hi)
                for a, b in itertools.pairwise(cut):
                    if at[a] == at[b]:
                        continue
                    if (b - a).days > 1:
                        following.append((a, b))
                    else:
                        added |= {a, b}
            gaps = following
        if added - set(days):
            changed = True
            values = sorted(set(days) | added)
            out.append(dataclasses.replace(fact, values=tuple(d.isoformat() for d in values),
                                           high=fact.high if fact.high is not None else str(fact.values[-1])))
        else:
            out.append(fact)
    return tuple(out) if changed else tuple(unknowns)


def _cuts(lo: date, hi: date) -> list[date]:
    """``lo``, ``hi`` and up to :data:`_PROBES` days evenly between them, sorted."""
    gap = (hi - lo).days
    inner = min(_PROBES, gap - 1)
    return sorted({lo, hi} | {lo + timedelta(days=round(gap * (n + 1) / (inner + 1))) for n in range(inner)})


def _observed(cons: _Consequences, f: int, v: int, masks: dict[str, str] | None = None
              ) -> tuple[frozenset[str], frozenset[str]] | None:
    """What value ``v`` of fact ``f`` leads to: its brave and cautious consequences, but the value itself,
    each with the figures inside its terms masked (:func:`_masked`; ``masks``: those masked already, by text,
    filled here)."""
    under = cons.under.get((f, v))
    if under is None:
        return None
    masks = {} if masks is None else masks

    def masked(a: str) -> str:
        m = masks.get(a)
        if m is None:
            m = masks[a] = _masked(a)
        return m

    return (frozenset(masked(a) for a in under[0] if not a.startswith(("_value(", FIRED))),
            frozenset(masked(a) for a in under[1] if not a.startswith(("_value(", FIRED))))


def _masked(atom: str) -> str:
    """``atom`` with the numbers nested inside its arguments' terms replaced by ``#``: a finding that
    carries a day count (``acquired_shortly_before(alfa-uy, 363)``) changes with every day and is not a
    change of the answer to place; a rate or an outcome, an argument of the atom itself, is kept."""
    out: list[str] = []
    depth, quoted, i = 0, False, 0
    while i < len(atom):
        ch = atom[i]
        if quoted:
            out.append(ch)
            if ch == "\\" and i + 1 < len(atom):
                out.append(atom[i + 1])
                i += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
            out.append(ch)
        elif ch.isdigit() and depth >= 2:
            while i + 1 < len(atom) and atom[i + 1].isdigit():
                i += 1
            out.append("#")
        else:
            depth += (ch == "(") - (ch == ")")
            out.append(ch)
        i += 1
    return "".join(out)


def _gate(name: str, alternatives: Sequence[Alternative], names: Set[str]) -> tuple[Condition, ...]:
    """The conditions on other completed facts under which alone the completed fact ``name`` decides anything of
    the item: those every conjunction naming it in the alternatives (outcomes and deciding findings, each exact or
    with its conjunctions) also states, such as a place's kind where its fixed character matters only for one kind
    (blind57b D7: the fact is then "possibly" missing, under them, as a fact the rules ask only for some values of
    another is). Empty where it is named alone in some conjunction, or only in an alternative whose conjunctions
    are not known (the time limit cut it)."""
    shared: set[Condition] | None = None
    for a in alternatives:
        if explains(a):
            continue
        conjunctions = a.holds_if_any or ((a.holds_if,) if a.exact and a.holds_if else ())
        if not conjunctions and name in a.condition_facts():
            return ()
        for conjunction in conjunctions:
            if any(c.fact == name for c in conjunction):
                others = {c for c in conjunction if c.fact != name and c.fact in names}
                shared = others if shared is None else shared & others
    return tuple(sorted(shared, key=str)) if shared else ()


def _relevance(item: ItemResult, asked: ItemResult, completed: Sequence[OpenFact],
               attributed: dict[tuple[str, str], set[Finding]], readers: Mapping[str, frozenset[str]],
               deciders: _Deciders, pivotal: Set[str]) -> ItemResult:
    """``item`` answered over every completion of the unknown values, its findings speaking as the rules
    do: a completed fact some value of which changes an outcome, a finding or a figure of the item is
    reported with the ``depends`` findings the rules give for it, by the rules' provisions if the fact's
    values part the condition of one of them, else by the provisions whose condition they do part
    (:class:`_Deciders`: a permanent establishment's stated status by the article on the income, not by
    the article whose conclusion it states); where the rules give
    none, by those of :func:`_deciding_provisions`; one that changes
    nothing, with the same findings as ``not_needed``. An item the rules asked for none of them keeps its
    three-valued answer (``asked``). ``pivotal``: the facts that decide something of the item with a value
    of another (:func:`_pivotal`)."""
    if not any(iid == item.item_id for iid, _ in attributed) and not any(f.kind == "depends" for f in asked.findings):
        return asked
    names = {f.name for f in completed}
    deciding = ({f for a in item.alternatives if not explains(a) for f in a.condition_facts()} | pivotal) & names
    explained = {f for a in item.alternatives if explains(a) for f in a.condition_facts()}
    if item.status == "depends" and not deciding:  # a figure turns on them, or not exactly: each the rules ask
        deciding = {name for (iid, name) in attributed if iid == item.item_id}
    findings = {f for f in item.findings if not (f.kind == "depends" and f.fact in names)}
    gated: list[Alternative] = []
    missing_too = {f.name for f in completed if f.not_given}  # a gate is a fact not given, which stays missing
    gates = {name: _gate(name, item.alternatives, missing_too) for name in deciding | missing_too}
    for fact in completed:
        given = attributed.get((item.item_id, fact.name), set())
        # not two facts each deciding only with a value of the other (fixed and business carried on, a kind stated)
        gate = tuple(c for c in gates[fact.name] if not gates[c.fact]) if fact.name in deciding else ()
        mine: set[Finding] = set()
        if fact.name in deciding:
            decided = deciders.get(item.item_id, fact.name)
            provisions = _deciding_provisions(fact.name, item.alternatives, readers, item.treaty, decided)
            argued = {p.partition("(")[0] for p in (*item.provisions, *(g.provision for g in given),
                                                    *(q for x in item.alternatives for q in x.provisions))}
            # a provision that decides only a status about no item (a place is a fixed base), of an article the item's
            # answer rests on in no combination, lends the provisions that do a notion (the fixed base of the article
            # on independent services, read by the employment article's letter on who bears the pay): the fact is
            # needed by those, not by it (blind56a s3)
            provisions = tuple(p for p in provisions if p.partition("(")[0] in argued
                               or not deciders.status_only(item.item_id, fact.name, p)) or provisions
            # Not one rule ("the deciders' units, plus the rules' own where it is one of them"): tried on every
            # shipped scenario, it changes the answers of 18. Where no provision's condition is parted it cites
            # the treaty alone, or only the other provisions that read the fact, not the rules' own; it cites
            # a paragraph beside its own sub-paragraph; and where the rules give findings about two facts, it
            # cites each by the other's provision too.
            own = [p for p in decided if p.startswith(item.treaty + " ")]
            tested = {p.partition("(")[0] for p in readers.get(fact.name, ())}  # articles whose conditions it compared
            if given and own and not any(g.provision.partition("(")[0] in tested for g in given) and \
                    all(any(g.provision in deciders.later(p) for g in given) for p in own):
                # the rules cite a provision of an article none of whose conditions the engine compared, which
                # reads what each deciding provision derives from the fact on the next step of the same path
                # (the kind of a State's tax, read by the sub-paragraph whose reach turns on it): the deciding
                # ones only classify, the rules' findings stand
                mine |= given
            elif given and any(p.startswith(item.treaty + " ") for p in decided) and \
                    not any(_same_unit(p, g.provision) and not p.startswith(g.provision + "(")
                            for p in decided for g in given):
                # the rules cite a provision whose condition the fact's values do not part (the article
                # whose conclusion the fact states), or a whole unit of which a sub-unit parts them (the
                # article beside its paragraph, exam44 D5): their findings, cited by the provisions it does part
                mine |= {dataclasses.replace(g, provision=p) for g in given for p in provisions}
            elif given:  # and by the other provisions whose condition it parts (the exception beside the rule)
                mine |= given | {dataclasses.replace(g, provision=p) for g in given for p in provisions
                                     if p.startswith(item.treaty + " ")
                                     and not any(_same_unit(p, h.provision) for h in given)}
            else:
                mine |= given or {Finding("depends", p, fact.name, open_as=_open_as(fact)) for p in provisions}
        elif fact.name not in explained:  # one that changes only an exception's finding: named there alone
            mine |= {Finding("not_needed", f.provision, f.fact) for f in given}
        if gate and mine and all(g.kind in ("missing", "depends") for g in mine):
            # missing or given as unknown, and deciding only under values of another fact not given (a place's
            # fixed character, for one kind; its fixed base, once the holding is connected with it): "possibly"
            # missing or open, under those values, as the rules' findings that hold for some values are
            gated += [Alternative(None, str(g), (), gate, True, finding=g) for g in sorted(mine, key=str)]
        else:
            findings |= mine
    status = item.status
    if any(f.kind == "missing" for f in findings) and status in ("depends", "decided"):
        status = "missing"  # a missing fact decides: it stays missing, with the bound it leaves
    reconstructed = item.reconstructed
    if any(findings & gs for (iid, _), gs in attributed.items() if iid == item.item_id):
        # the rules' findings of the three-valued answer kept: flagged with what that answer rests on
        reconstructed = tuple(sorted({*reconstructed, *asked.reconstructed}, key=provision_key))
    alternatives = item.alternatives
    gated = list(dict.fromkeys(g for g in gated if g.finding not in findings))  # not one missing outright too
    if gated:
        alternatives = tuple(sorted((*alternatives, *(g for g in gated if g not in alternatives)),
                                    key=lambda x: (x.state is None, x.state or "", x.conclusion, str(x))))
    return dataclasses.replace(item, status=status, reconstructed=reconstructed, alternatives=alternatives,
                               findings=tuple(sorted(findings, key=lambda f: (f.kind, provision_key(f.provision),
                                                                               f.fact or ""))))


def _given_not_needed(scenario: Scenario, item: ItemResult, unknowns: Sequence[OpenFact],
                      readers: Mapping[str, frozenset[str]], pivotal: Set[str]) -> ItemResult:
    """``item`` with a ``not_needed`` finding for each fact the scenario gives open (as ``unknown``, as
    alternatives or as a range) that is about the item and decides nothing of it (audit 23, defect 8): the
    answer over every combination of the values (brave and cautious consequences) names it in no
    alternative's condition, in no pair of combinations that differ in it alone (``pivotal``) and in no
    ``depends`` finding. A fact is about the item where the persons and places it names are
    among those the item names (a holding of its payer held by its recipient, a stay of its recipient, the
    place it is paid through: not a holding of its recipient in another company) and
    some provision whose rules first read it (``readers``) is of an article the item cites; it is cited by
    those provisions. An item whose status turns on a figure with no alternatives is left as it is, and so
    is one with a fact missing or a judgment to make (not opened here: once given, the fact may decide)."""
    found = (*item.findings, *(a.finding for a in item.alternatives if a.finding is not None))
    if (item.status == "depends" and not item.alternatives) or any(
            f.kind in ("missing", "requires_judgment") for f in found):
        return item  # a figure turns on them; or a fact not opened here may make them matter once given
    ids = _item_ids(scenario, item.item_id)
    named = {*scenario.persons, *scenario.places_of_business}
    articles = {p.partition("(")[0] for p in item.provisions}
    deciding = {f for a in item.alternatives for f in a.condition_facts()} | set(pivotal) | {
        f.fact for f in found if f.kind == "depends"}
    added = set()
    for fact in unknowns:
        if fact.not_given or fact.kind != "unknown" or fact.name in deciding:
            continue
        about = _ids_of(fact) & named  # the persons and places it names: each one the item names
        owner = not about <= ids and item.entitlement is not None and _owner_of(scenario, fact, item.item_id)
        if not about or not (about <= ids or owner):
            continue  # an owner of the recipient: read by the entitlement article's ownership tests alone
        within = {p.partition("(")[0] for p in item.entitlement.provisions} if owner and item.entitlement else articles
        cited = {p for p in readers.get(fact.name, frozenset()) if p.partition("(")[0] in articles & within}
        added |= {Finding("not_needed", p, fact.name) for p in cited}
    if not added:
        return item
    return dataclasses.replace(item, findings=tuple(sorted(
        {*item.findings, *added}, key=lambda f: (f.kind, provision_key(f.provision), f.fact or ""))))


def _owner_of(scenario: Scenario, fact: OpenFact, item_id: str) -> bool:
    """Whether ``fact`` is about a holding in the item's recipient (its owner, whom an entitlement article's
    ownership test reads: exam52 D1, an owner's holding end that decides nothing of a listed company)."""
    path = fact.path
    if len(path) < 2 or path[0] != "holdings" or not isinstance(path[1], int) or path[1] >= len(scenario.holdings):
        return False
    recipient = next((getattr(i, "recipient", None) for i in scenario.income if i.id == item_id), None)
    return recipient is not None and scenario.holdings[path[1]].company == recipient


def _item_ids(scenario: Scenario, item_id: str) -> set[str]:
    """The ids an income item names: its own and every text it gives (payer, recipient, place, ...)."""
    found = {item_id}

    def walk(node: Any) -> None:
        if isinstance(node, str):
            found.add(node)
        elif isinstance(node, dict):
            for v in node.values():
                walk(v)
        elif isinstance(node, (list, tuple)):
            for v in node:
                walk(v)

    for it in scenario.income:
        if it.id == item_id:
            walk(it.model_dump())
    return found


def _same_unit(a: str, b: str) -> bool:
    """Whether provision ``a`` is ``b``, one of its sub-units, or a unit ``b`` is part of."""
    return a == b or a.startswith(b + "(") or b.startswith(a + "(")


_SHOWN_BY_LABEL = frozenset({"treaty_not_applicable", "state_not_applicable", "not_encoded", "benefits_denied"})
"""Conclusions the outcome (``_label``) already shows, with the provision they rest on: two combinations
that differ only in that provision (a payment's date under one paragraph of the date of application or
another) decide nothing apart."""


def _pivotal(cons: _Consequences, unknowns: Sequence[OpenFact],
             grounds: Set[str] = frozenset()) -> dict[str, set[str]]:
    """For each item, the open facts that decide something of it together with the others: those with two
    combinations of values, the same but for that fact, whose answer sets differ in an outcome, a finding
    or a figure of the item (read from every combination's answer set where they were enumerated; else
    none, and the caller keeps to the conditions each alternative holds under). A fact that matters only
    with a value of another (a place's status, once it bears the payment) has no condition of its own."""
    if cons.models is None or not cons.complete or len(unknowns) < 2:
        return {}
    of_item: dict[str, set[str]] = defaultdict(set)
    for text in cons.brave - cons.cautious:
        if text.startswith((FIRED, RELIES)) or text in grounds:  # a ground only (:func:`_grounds_only`)
            continue
        a = parse_atom(text)
        if len(a.args) >= 2 and isinstance(a.args[1], str) and a.name not in _PROVISIONS_ONLY \
                and a.name not in _SHOWN_BY_LABEL and a.name not in _INFORMING:
            of_item[a.args[1]].add(text)
    out: dict[str, set[str]] = {}
    for iid, texts in of_item.items():
        seen = [(values, frozenset(texts & atoms)) for values, atoms in cons.models]
        for f, fact in enumerate(unknowns):
            first: dict[tuple[int | None, ...], frozenset[str]] = {}
            for values, shown in seen:
                key = tuple(values.get(g) for g in range(len(unknowns)) if g != f)
                if first.setdefault(key, shown) != shown:
                    out.setdefault(iid, set()).add(fact.name)
                    break
    return out


def possibly_relied_on(key: str, relies: dict[Term, set[str]]) -> tuple[str, ...]:
    """The reconstructed provisions that the conclusions and findings of the item or question ``key``
    rest on in some combination of the open facts (``relies``: from the brave consequences)."""
    return tuple(sorted({p for atom, provisions in relies.items() if len(atom.args) > 1 and atom.args[1] == key
                         for p in provisions}, key=provision_key))


def _span(f: OpenFact) -> str:
    return f.span()


class _NotOnePerCombination(Exception):
    """More answer sets than combinations: the rules leave some open question a choice (a judgment)."""


def _enumerated(ctl: clingo.Control, unknowns: Sequence[OpenFact], deadline: float,
                combos: int) -> _Consequences | None:
    """Brave and cautious consequences, overall and under each value, from every combination's answer set
    in one solve, where each combination has exactly one: cheaper than two solves per value where the
    combinations are few. None past the deadline; raises :class:`_NotOnePerCombination` (having stopped
    the solve) when the answer sets outnumber the combinations."""
    remaining = deadline - clock.now()
    if remaining <= 0:
        return None
    ctl.configuration.solve.enum_mode = "auto"  # type: ignore[union-attr]
    ctl.configuration.solve.models = 0  # type: ignore[union-attr]
    models: list[tuple[dict[int, int], frozenset[str]]] = []
    texts: dict[object, str] = {}  # each atom's text by its key (symbol_key), computed once over all the answer sets
    chosen: dict[object, tuple[int, int]] = {}  # the values of the open facts, by key

    def on_model(model: clingo.Model) -> bool:
        if len(models) >= combos:
            return False  # stop: not one answer set per combination
        values: dict[int, int] = {}
        atoms: list[str] = []
        symbols = model.symbols(shown=True)
        for n, key in enumerate(symbol_keys(symbols)):
            text = texts.get(key)
            if text is None:
                option = chosen.get(key)
                if option is None:
                    sym = symbols[n]
                    if sym.name == "_value" and len(sym.arguments) == 3:
                        option = chosen[key] = (sym.arguments[1].number, sym.arguments[2].number)
                if option is not None:
                    values[option[0]] = option[1]
                    continue
                text = texts[key] = str(symbols[n])
            atoms.append(text)
        models.append((values, frozenset(atoms)))
        return True

    with ctl.solve(on_model=on_model, async_=True) as handle:
        if not clock.wait(handle, deadline):
            handle.cancel()
            return None
        result = handle.get()
    if not result.exhausted:
        raise _NotOnePerCombination()
    if not models:
        return None
    brave = frozenset().union(*(a for _, a in models))
    cautious = frozenset.intersection(*(a for _, a in models))
    under: dict[tuple[int, int], tuple[frozenset[str], frozenset[str]]] = {}
    for f, fact in enumerate(unknowns):
        for v in range(len(fact.values)):
            these = [a for values, a in models if values.get(f) == v]
            if these:
                under[(f, v)] = (frozenset().union(*these), frozenset.intersection(*these))
    return _Consequences(brave, cautious, under, True, ctl, deadline, models=models)


ENUMERATE_UP_TO = 1024
"""Up to this many combinations their answer sets are enumerated in one solve (:func:`_enumerated`);
beyond, brave and cautious consequences are solved under each value."""


def _consequences(ctl: clingo.Control, unknowns: Sequence[OpenFact], deadline: float) -> _Consequences:
    combos = combinations(unknowns)
    if combos <= ENUMERATE_UP_TO:
        try:
            enumerated = _enumerated(ctl, unknowns, deadline, combos)
            return enumerated if enumerated is not None else _Consequences(frozenset(), frozenset(), {}, False)
        except _NotOnePerCombination:
            pass  # brave and cautious solves under each value instead
    brave = _solve(ctl, "brave", [], deadline)
    cautious = _solve(ctl, "cautious", [], deadline)
    if brave is None or cautious is None:
        return _Consequences(brave or frozenset(), cautious or frozenset(), {}, False)
    under: dict[tuple[int, int], tuple[frozenset[str], frozenset[str]]] = {}
    single = len(unknowns) == 1  # one open fact: each value leaves one answer set, brave = cautious
    for f, fact in enumerate(unknowns):
        for v in range(len(fact.values)):
            assumption = [(_value(f, v), True)]
            b = _solve(ctl, "brave", assumption, deadline)
            c = b if single else _solve(ctl, "cautious", assumption, deadline)
            if b is None or c is None:
                return _Consequences(brave, cautious, under, False)
            under[(f, v)] = (b, c)
    return _Consequences(brave, cautious, under, True, ctl, deadline)


def _holds_if(text: str, unknowns: Sequence[OpenFact], cons: _Consequences
              ) -> tuple[tuple[Condition, ...], bool, tuple[tuple[int, int], ...] | None]:
    """The conditions under which the possible conclusion ``text`` holds, whether they are exact, and
    (when exact) the values excluded outside them, as (fact, value) pairs."""
    per_fact: list[tuple[OpenFact, set[int], set[int]]] = []
    for f, fact in enumerate(unknowns):
        possible = {v for v in range(len(fact.values)) if (f, v) in cons.under and text in cons.under[(f, v)][0]}
        sure = {v for v in range(len(fact.values)) if (f, v) in cons.under and text in cons.under[(f, v)][1]}
        per_fact.append((fact, possible, sure))
    for f, (fact, possible, sure) in enumerate(per_fact):
        if possible and possible == sure and len(possible) < len(fact.values):
            outside = tuple((f, v) for v in range(len(fact.values)) if v not in possible)
            return (condition(fact, possible),), True, outside
    narrowed = tuple(condition(fact, possible) for fact, possible, _ in per_fact
                     if possible and len(possible) < len(fact.values))
    # exact if it holds in every combination of the possible values (it is impossible outside them)
    excluded = tuple((f, v) for f, (fact, possible, _) in enumerate(per_fact)
                     for v in range(len(fact.values)) if v not in possible)
    within = cons.certain_within(excluded) if narrowed else None
    exact = within is not None and text in within
    return narrowed, exact, excluded if exact else None


MAX_CONJUNCTIONS = 8
"""An alternative's exact condition (:func:`_holds_if_any`) is stated with at most this many conjunctions:
beyond, it would be no easier to read than the combinations themselves (none of the shipped scenarios'
needs more than 5)."""


def _holds_if_any(text: str, unknowns: Sequence[OpenFact], cons: _Consequences
                  ) -> tuple[tuple[Condition, ...], ...]:
    """Where every combination was solved (``cons.models``), the conjunctions of conditions one of which is
    met exactly where the possible conclusion ``text`` holds (:func:`pyhelpers.engine.cover.cover`: the
    combinations where it holds against those where it does not), each fact named in the order in which
    the conjunctions first name it ("borne by escritorio-bh and escritorio-bh is a permanent
    establishment" after "borne by filial-rio"); empty otherwise, and where more than
    :data:`MAX_CONJUNCTIONS` would be needed."""
    if cons.models is None or not cons.complete:
        return ()
    on: list[tuple[int, ...]] = []
    off: list[tuple[int, ...]] = []
    for values, atoms in cons.models:
        combo = tuple(values.get(f, 0) for f in range(len(unknowns)))
        (on if text in atoms else off).append(combo)
    if not on or not off:
        return ()
    cubes = cover([len(f.values) for f in unknowns], on, off, [bool(f.ranged or f.open_end) for f in unknowns])
    if len(cubes) > MAX_CONJUNCTIONS:
        return ()
    named = [[f for f, values in enumerate(cube) if len(values) < len(unknowns[f].values)] for cube in cubes]
    order = list(dict.fromkeys(f for facts in named for f in facts))
    return tuple(tuple(condition(unknowns[f], cube[f]) for f in sorted(facts, key=order.index))
                 for cube, facts in zip(cubes, named, strict=True))


def _each_value_within(cons: _Consequences, unknowns: Sequence[OpenFact], excluded: tuple[tuple[int, int], ...],
                       within: frozenset[str]) -> frozenset[str]:
    """What is certain under each value apart of a fact that an exact conclusion holds under several
    values of (the others outside ``excluded``), joined: ``within`` (certain wherever it holds) and, for
    each such value, what is certain where the fact takes that value (None past the deadline: skipped)."""
    out = set(within)
    for f, fact in enumerate(unknowns):
        kept = [v for v in range(len(fact.values)) if (f, v) not in excluded]
        if len(kept) < 2 or len(kept) == len(fact.values):
            continue
        for v in kept:
            each = cons.certain_within(excluded + tuple((f, w) for w in kept if w != v))
            out |= each if each is not None else set()
    return frozenset(out)


def condition(fact: OpenFact, possible: set[int] | frozenset[int]) -> Condition:
    """That the open ``fact`` takes one of the values ``possible`` (indices), in words and one by one."""
    return Condition(fact.name, fact.describe(possible), fact.listed(possible), value_kind(fact.path))


def _label_provision_text(label_text: str, provision: str) -> str:
    """The text clingo prints for ``_label_provision`` of the ``_label`` atom ``label_text`` and ``provision``."""
    return f"_label_provision({label_text[len('_label('):-1]},{clingo.String(provision)})"


def _item(scenario: Scenario, result: ItemResult, unknowns: Sequence[OpenFact], cons: _Consequences,
          relies: dict[Term, set[str]], readers: Mapping[str, frozenset[str]],
          deciders: _Deciders, pivotal: Set[str] = frozenset(), grounds: Set[str] = frozenset()) -> ItemResult:
    """The certain result of an item, with its possible-but-not-certain conclusions as alternatives. Each
    alternative is flagged with the reconstructed provisions its atoms rest on in some combination where
    they hold (``relies``), and the item with those of every conclusion and finding it has in some
    combination (:func:`possibly_relied_on`)."""
    iid = result.item_id
    open_atoms = [(t, parse_atom(t)) for t in sorted(cons.brave - cons.cautious) if not t.startswith(FIRED)]
    mine = [(t, a) for t, a in open_atoms if len(a.args) >= 2 and a.args[1] == iid]
    if not mine and cons.complete:
        return result
    alternatives: list[Alternative] = []
    provisions_of: dict[tuple[str, str, Any], set[str]] = defaultdict(set)
    rights: dict[tuple[str, str], list[str]] = defaultdict(list)  # of some combination: (State, outcome) → provisions
    item_states = [s.state for s in result.states]
    unapplied = f"application_unknown({clingo.String(SID)},{clingo.String(iid)})" in cons.cautious  # says only why
    for _, a in mine:
        if a.name == "_label_provision":
            args: Any = a.args
            provisions_of[(args[2].name, args[3].name, args[4])].add(args[5])
        elif a.name in RIGHTS:
            add_right(rights, a, item_states)
    open_states: set[str] = set()
    for text, a in mine:
        args = a.args
        if a.name == "_label":
            state, outcome, rate = args[2].name, args[3].name, args[4]
            cap = rate if isinstance(rate, int) else None
            label = StateOutcome(state, outcome, cap, ()).label
            holds, exact, excluded = _holds_if(text, unknowns, cons)
            provs = provisions_of[(state, outcome, rate)]
            within = cons.certain_within(excluded) if excluded is not None else None
            if within is not None and excluded is not None:  # exact: the provisions it rests on wherever it
                # holds (if any: else those of every combination where it holds); where it holds under several
                # values of a fact, under each value apart: the union of each value's own (one paragraph per
                # kind of property sold under one "may tax", exam45), not only what they share
                each = _each_value_within(cons, unknowns, excluded, within)
                provs = {p for p in provs if _label_provision_text(text, p) in each} or provs
            used = [Term("state_outcome", (SID, iid, Term(state), Term(outcome)))]
            used += [Term("max_rate", (SID, iid, cap))] if cap is not None else []
            alternatives.append(Alternative(state, label, tuple(sorted(provs, key=provision_key)), holds, exact,
                                            outcome, cap, reconstructed=relied_on(used, relies),
                                            holds_if_any=() if exact else _holds_if_any(text, unknowns, cons)))
            open_states.add(state)
        elif a.name in _FINDINGS:
            kind = _FINDING_KIND.get(a.name, a.name)
            if unapplied and kind not in UNAPPLIED_KEPT:  # not encoded for its date: nothing its articles find
                continue
            prov = args[2] if a.name == "not_encoded" else (args[3] if len(args) > 3 else "")
            fact = render_term(args[2]) if a.name != "not_encoded" else None
            finding = Finding(kind, prov if isinstance(prov, str) else "", fact)
            holds, exact, _ = _holds_if(text, unknowns, cons)
            alternatives.append(Alternative(None, str(finding), (), holds, exact, finding=finding,
                                            reconstructed=relied_on([a], relies),
                                            holds_if_any=() if exact else _holds_if_any(text, unknowns, cons)))
    varies = any(a.name not in _PROVISIONS_ONLY | _INFORMING and t not in grounds  # an outcome, a finding or a figure
                 for t, a in mine)
    if not varies and cons.complete:  # the same answer whatever the values, by different provisions: an exception
        alternatives = [x for x in alternatives if explains(x)]  # applying under some values only says so there
    if not cons.complete:  # stopped by the time limit: which values decide what is not proven
        alternatives = [dataclasses.replace(x, holds_if=(), exact=False, holds_if_any=()) for x in alternatives]
    for state in open_states if cons.complete else ():  # one outcome per State: the last open one is "otherwise"
        mine_ = [x for x in alternatives if x.state == state]
        loose = [x for x in mine_ if not x.exact]
        labelled = _has_label(iid, state) in cons.cautious  # the State has an outcome in every combination
        if len(loose) == 1 and len(mine_) > 1 and labelled:
            alternatives[alternatives.index(loose[0])] = dataclasses.replace(loose[0], holds_if=(), exact=True,
                                                                            otherwise=True, holds_if_any=())
    alternatives.sort(key=lambda x: (x.state is None, x.state or "", x.conclusion, str(x)))
    deciding_alternatives = [x for x in alternatives if not explains(x)]
    deciding = sorted({f for x in deciding_alternatives for f in x.condition_facts()}
                      | (pivotal if deciding_alternatives else set()))
    if not deciding and deciding_alternatives:
        deciding = [f.name for f in unknowns]
    open_as = {f.name: _open_as(f) for f in unknowns}
    findings = set(result.findings) | {Finding("depends", prov, fact, open_as=open_as.get(fact)) for fact in deciding
                                       for prov in _deciding_provisions(fact, alternatives, readers, result.treaty,
                                                                        deciders.get(iid, fact))}
    if not cons.complete:
        findings.add(Finding("time_limit", result.treaty))
    # a certain outcome resting on provisions that differ between the alternatives: each combination's that give
    # it (one article under one value, another under the other), else all those its label rests on in some combination
    states = tuple(dataclasses.replace(s, outcome="undetermined", max_rate_bp=None, provisions=(),
                                       at_most_bp=_at_most(s.state, alternatives, cons.complete and _has_label(
                                           iid, s.state) in cons.cautious),
                                       may_tax_always=_may_tax_always(s.state, alternatives, cons.complete and
                                                                      _has_label(iid, s.state) in cons.cautious))
                   if s.state in open_states else
                   dataclasses.replace(s, provisions=tuple(sorted(set(s.provisions) | set(rights[(s.state, s.outcome)]),
                                                                 key=provision_key)))
                   if rights[(s.state, s.outcome)] else
                   dataclasses.replace(s, provisions=tuple(sorted(
                       {p for (st, o, _), ps in provisions_of.items() if st == s.state and o == s.outcome for p in ps},
                       key=provision_key))) if not s.provisions else s
                   for s in result.states)
    status = result.status if result.status in ("error", "not_encoded", "pending", "missing") or (
        not varies and cons.complete) else "depends"
    base_open = any(a.name in ("limit_applies_to", "limit_base_open") for _, a in mine)  # the cap's base is open
    flagged = possibly_relied_on(iid, relies)
    entitlement = _open_entitlement(result, mine, {f.provision for f in findings if f.kind == "depends"}, grounds,
                                    _where_applies(result, mine, unknowns, cons))
    provisions = result.provisions
    if result.entitlement is None and entitlement is not None and entitlement.status != "open" \
            and any(t in grounds for t, _ in mine):  # granted in every combination, by one paragraph or another
        provisions = tuple(sorted({*provisions, *entitlement.provisions}, key=provision_key))
    decided = dataclasses.replace(
        result, status=status, states=states, alternatives=tuple(alternatives), reconstructed=flagged,
        provisions=provisions,
        findings=tuple(sorted(findings, key=lambda f: (f.kind, provision_key(f.provision), f.fact or ""))),
        max_rate_bp=None if open_states else result.max_rate_bp,
        max_source_tax=None if open_states or base_open else result.max_source_tax,
        relief=_open_relief(result.relief, mine, base_open, unknowns, cons),
        entitlement=entitlement)
    item = next(i for i in scenario.income if i.id == result.item_id)
    state = withholding_state(scenario, item)
    every = cons.complete and state is not None and _has_label(iid, state) in cons.cautious
    return dataclasses.replace(decided, compliance=_compliance(scenario, item, decided, every))


def _open_as(fact: OpenFact) -> str | None:
    """How the scenario leaves ``fact`` open, for a ``depends`` finding the rules did not write
    (:attr:`Finding.open_as`): None for a fact given as plain ``unknown``, as the rules' own say."""
    return "not_given" if fact.not_given else None if fact.completed else "alternatives"


_FIGURE = re.compile(r'"(?:[^"\\]|\\.)*"|(?<![\w\'])-?\d+')
"""A quoted string or an integer in an atom's text (a ``_fired`` atom has no integer outside its head)."""


def _figure(m: re.Match[str]) -> str:
    return m.group(0) if m.group(0).startswith('"') else "#"


def _fired_shown(ctl: clingo.Control, unknowns: Sequence[OpenFact], cons: _Consequences, deadline: float
                 ) -> _Consequences:
    """The consequences of the ``_fired`` atoms (:func:`~pyhelpers.engine.readers.fired_program`: grounded
    with the rules, read only when an item depends on a fact) under each value, with the answer's
    ``treaty_not_applicable`` atoms; incomplete where the first were, or past the deadline. Where each
    combination has one answer set (:func:`_enumerated` gave them), they are shown and one more enumeration
    reads, of each, those that grounding did not make facts (the others hold under every value); else
    they are shown and the consequences solved again."""
    if not cons.complete:
        return cons
    if cons.models is not None:
        fired = [(a.symbol, a.is_fact) for a in ctl.symbolic_atoms.by_signature(FIRED, 2)]
        texts = {symbol_key(a): str(a) for a, is_fact in fired if not is_fact}  # the atoms read, each one's text
        options = {symbol_key(_value(f, v)): (f, v) for f, fact in enumerate(unknowns) for v in range(len(fact.values))}
        models: list[tuple[dict[int, int], frozenset[str]]] = []
        # shown from now on (the answer's consequences are read already): each answer set gives its own at once,
        # not one call per atom grounded
        ctl.add(FIRED, [], f"#show {FIRED}/2.")
        ctl.ground([(FIRED, [])])

        def on_model(model: clingo.Model) -> None:
            chosen: list[tuple[int, int]] = []
            atoms: list[str] = []
            for key in symbol_keys(model.symbols(shown=True)):
                text = texts.get(key)
                if text is not None:
                    atoms.append(text)
                elif (option := options.get(key)) is not None:
                    chosen.append(option)
            models.append((dict(sorted(chosen)), frozenset(atoms)))

        remaining = deadline - clock.now()
        if remaining <= 0:
            return dataclasses.replace(cons, complete=False)
        ctl.configuration.solve.enum_mode = "auto"  # type: ignore[union-attr]
        ctl.configuration.solve.models = 0  # type: ignore[union-attr]
        with ctl.solve(on_model=on_model, async_=True) as handle:
            if not clock.wait(handle, deadline):
                handle.cancel()
                return dataclasses.replace(cons, complete=False)
            handle.get()
        gates = frozenset(t for t in cons.brave if t.startswith(_NOT_APPLICABLE))
        under: dict[tuple[int, int], tuple[frozenset[str], frozenset[str]]] = {}
        for f, fact in enumerate(unknowns):
            for v in range(len(fact.values)):
                these = [a for values, a in models if values.get(f) == v]
                old = cons.under.get((f, v))
                if these and old is not None:
                    under[(f, v)] = (frozenset().union(*these) | (old[0] & gates), frozenset.intersection(*these))
        facts = frozenset(str(a) for a, is_fact in fired if is_fact)
        brave = frozenset().union(*(a for _, a in models)) | gates | facts
        return _Consequences(brave, facts, under, len(models) == len(cons.models), models=models)
    ctl.add(FIRED, [], f"#show {FIRED}/2.")
    ctl.ground([(FIRED, [])])
    return _consequences(ctl, unknowns, deadline)


class _Deciders:
    """For an item and an open fact, the provisions whose condition comes out differently between the
    fact's values: of the provisions whose rules first read that fact (:attr:`Fired.first`, of the fact's own
    readers: not those of another open fact whose conditions move with it), those one of
    whose ``_fired`` atoms about the item, or about no item (a place, a person), but for those that only put
    another provision's question (vocabulary role ``question``: a place's status at issue), is certain under some value
    of the fact and possible or impossible under another (brave and cautious consequences under each value;
    the figures inside the atom masked: a date or a day count that moves with the value is no condition
    coming out differently); and of those that first read what these derive (:attr:`Fired.after`), those
    whose atoms about the item so differ where what they read is a status about no item that so differs
    (a permanent establishment, read by the article on the income it makes taxable). A provision's
    condition is compared between the values under which the Convention applies to the item (no
    ``treaty_not_applicable`` is possible), but for the provisions that make it not apply; and it must part
    the values as the item's outcomes do (:func:`_follows`: the same under values with the same outcomes),
    else it reads the fact without deciding it. Computed when first asked, for that fact (an answer with no
    item depending on a fact never reads the atoms)."""

    def __init__(self, scenario: Scenario, unknowns: Sequence[OpenFact], fired: Fired,
                 readers: Mapping[str, frozenset[str]], consequences: Callable[[], _Consequences],
                 answers: _Consequences, questions: frozenset[str] = frozenset(),
                 citing: Mapping[str, tuple[int, ...]] | None = None) -> None:
        self._items = {i.id for i in scenario.income}
        self._questions = questions  # predicates that only put another provision's question: no condition
        self._citing = citing or {}  # predicate -> the positions of its arguments that name a provision
        self._readers = readers  # fact -> the provisions whose rules first read it
        self._answers = answers  # the item's outcomes under each value (``_label``), grouping the values
        self._unknowns = list(unknowns)
        self._fired = fired
        self._consequences = consequences
        self._cons: _Consequences | None = None
        self._open: list[tuple[list[str], str, frozenset[str]]] = []  # atoms alike but for figures, provision, items
        self._not_applicable: dict[str, list[str]] = defaultdict(list)  # item -> its treaty_not_applicable atoms
        self._gates: set[str] = set()  # the provisions that make the Convention not apply to an item
        self._found: dict[str, dict[str, frozenset[str]]] = {}  # fact -> item -> provisions
        self._status: dict[str, dict[str, frozenset[str]]] = {}  # fact -> provision -> items: statuses about no item
        self._combos: list[tuple[dict[int, int], frozenset[str], frozenset[str]]] | None = None
        self._held_in: dict[int, list[int]] = {}  # _open's index -> its condition in each combination
        self._outcomes_of: dict[str, tuple[list[frozenset[str]], list[bool]]] = {}  # item -> (outcomes, applies)
        self._labels_of: list[list[str]] | None = None  # each combination's _label atoms
        self._value_labels: dict[tuple[int, int], tuple[list[str], list[str]]] = {}  # (fact, value) -> _label atoms

    def _read(self) -> _Consequences:
        if self._cons is None:
            cons = self._cons = self._consequences()
            classes: dict[str, list[str]] = defaultdict(list)
            for text in cons.brave:
                if text.startswith(FIRED):
                    classes[_FIGURE.sub(_figure, text)].append(text)
                elif text.startswith(_NOT_APPLICABLE):
                    atom = parse_atom(text)
                    if len(atom.args) > 2 and isinstance(atom.args[1], str) and isinstance(atom.args[-1], str):
                        self._not_applicable[atom.args[1]].append(text)
                        self._gates.add(atom.args[-1])
            for texts in classes.values():
                if any(t in cons.cautious for t in texts):
                    continue  # certain under every value
                atom = parse_atom(texts[0])
                prov, head = atom.args[0], atom.args[1]
                if isinstance(prov, str) and isinstance(head, Term) and head.name not in self._questions \
                        and not self._ground_of_another(prov, head):
                    self._open.append((texts, prov, frozenset(a for a in head.args
                                                              if isinstance(a, str) and a in self._items)))
        return self._cons

    def _ground_of_another(self, provision: str, head: Term) -> bool:
        """Whether the atom ``head`` that ``provision``'s rules derive names, as provisions, ``provision`` and another
        that is none of its own units: a test listed among the grounds of another's conclusion (a
        qualifying test considered under the paragraph that denies the benefit, and not met). It holds where that
        conclusion does, and parts the values as the conclusion does, whatever its own test: no condition of
        ``provision`` coming out differently (blind58b D5: a third-State owner's capital, which the residents'
        ownership test never counts, cited as needed by it because the denial listing that test is open)."""
        named = [p for p in (head.args[n] for n in self._citing.get(head.name, ()) if n < len(head.args))
                 if isinstance(p, str)]
        return provision in named and any(p != provision and not p.startswith(provision + "(")
                                          and not provision.startswith(p + "(") for p in named)

    def later(self, provision: str) -> frozenset[str]:
        """The provisions whose rules read, later on the same path, what ``provision``'s rules derive from the
        facts (:attr:`Fired.later`)."""
        return self._fired.later.get(provision, frozenset())

    def status_only(self, item: str, fact: str, provision: str) -> bool:
        """Whether ``provision`` decides, for ``item`` and the open ``fact``, only a status about no item (a place's,
        a person's), never a condition about an item."""
        self.get(item, fact)
        return item in self._status.get(fact, {}).get(provision, frozenset())

    def get(self, item: str, fact: str) -> frozenset[str]:
        if fact not in self._found:
            self._found[fact] = self._decide(fact)
        return self._found[fact].get(item, frozenset())

    def _decide(self, name: str) -> dict[str, frozenset[str]]:
        cons = self._read()
        f = next((n for n, u in enumerate(self._unknowns) if u.name == name), None)
        if not cons.complete or f is None:
            return {}
        values = [v for v in range(len(self._unknowns[f].values)) if (f, v) in cons.under]
        under = [cons.under[(f, v)] for v in values]
        applies = {iid: [n for n, (b, _) in enumerate(under) if not any(t in b for t in self._not_applicable[iid])]
                   for iid in self._items}
        groups = {iid: self._groups(f, values, iid) for iid in self._items}
        mine: dict[str, set[str]] = defaultdict(set)  # provision -> items it decides for
        status: dict[str, set[str]] = defaultdict(set)  # provision -> items it decides a status about no item for
        itemwise: dict[str, set[str]] = defaultdict(set)  # provision -> items it decides a condition about for
        for texts, prov, about in self._open:
            each = [max((t in brave) + (t in cautious) for t in texts) for brave, cautious in under]
            if len(set(each)) < 2:
                continue
            for iid in about or self._items:
                among = range(len(under)) if prov in self._gates else applies[iid]
                if len({each[n] for n in among}) > 1 and _follows(each, among, groups[iid]):
                    mine[prov].add(iid)
                    if not about:
                        status[prov].add(iid)
                    else:
                        itemwise[prov].add(iid)
        first = self._fired.first & self._readers.get(name, frozenset())  # this fact's, not another open one's
        out = self._kept(mine, status, first)
        alone = self._items - set(out)  # items no provision decides value by value: compared pair by pair
        if alone and cons.models is not None and self._answers.models is not None:
            self._together(f, mine, status, alone)
            out = self._kept(mine, status, first)
        self._status[name] = {p: frozenset(its - itemwise[p]) for p, its in status.items()}
        return out

    def _kept(self, mine: dict[str, set[str]], status: dict[str, set[str]], first: frozenset[str]
              ) -> dict[str, frozenset[str]]:
        """Of the provisions deciding each item (``mine``), those whose rules first read the fact, or that read
        a status about no item one of those decides (``status``)."""
        out: dict[str, set[str]] = defaultdict(set)
        for prov, its in mine.items():
            for iid in its:
                if prov in first or any(iid in status[p] for p in self._fired.after.get(prov, ()) if p in first):
                    out[iid].add(prov)
        return {k: frozenset(v) for k, v in out.items()}

    def _together(self, f: int, mine: dict[str, set[str]], status: dict[str, set[str]], items: set[str]) -> None:
        """For ``items`` (those no provision's condition decides value by value), the provisions whose
        condition comes out differently between two combinations of values the same but for fact ``f``,
        which give the item different outcomes, and the same under those with the same (a place's status,
        which decides only once that place bears the payment): added to ``mine`` (and ``status``) as in
        :meth:`_decide`."""
        combos = self._combinations()
        if not items or combos is None:
            return
        others = [g for g in range(len(self._unknowns)) if g != f]
        groups: dict[tuple[int | None, ...], list[int]] = defaultdict(list)  # by the other facts' values
        for c, (values, _, _) in enumerate(combos):
            groups[tuple(values.get(g) for g in others)].append(c)
        for k, (_, prov, about) in enumerate(self._open):
            gate = prov in self._gates
            held = self._held(k)
            # the groups where the condition comes out differently (no other can part an item's outcomes)
            varying = [members for members in groups.values() if len({held[c] for c in members}) > 1]
            if not varying:
                continue
            for iid in (about or self._items) & items:
                outcome, applies = self._outcomes(iid)
                for members in varying:
                    among = [c for c in members if gate or applies[c]]
                    conditions = [held[c] for c in among]
                    outcomes = [outcome[c] for c in among]
                    if len(set(conditions)) > 1 and len(set(outcomes)) > 1 and \
                            _follows(conditions, range(len(among)), outcomes):
                        mine[prov].add(iid)
                        if not about:
                            status[prov].add(iid)
                        break

    def _combinations(self) -> list[tuple[dict[int, int], frozenset[str], frozenset[str]]] | None:
        """Each enumerated combination of values with its fired atoms and its answer (read once for every
        fact); None where they were not enumerated."""
        if self._combos is None:
            cons, answers = self._read(), self._answers
            if cons.models is None or answers.models is None:
                return None
            fired = {tuple(sorted(values.items())): atoms for values, atoms in cons.models}
            self._combos = [(values, shown, atoms) for values, atoms in answers.models
                            if (shown := fired.get(tuple(sorted(values.items())))) is not None]
        return self._combos

    def _held(self, k: int) -> list[int]:
        """Whether the condition of :attr:`_open`'s ``k``-th provision holds in each combination."""
        if k not in self._held_in:
            texts = self._open[k][0]
            self._held_in[k] = [max(t in shown for t in texts) for _, shown, _ in self._combinations() or ()]
        return self._held_in[k]

    def _outcomes(self, iid: str) -> tuple[list[frozenset[str]], list[bool]]:
        """The item's outcome atoms in each combination, and whether the Convention applies to it there."""
        if iid not in self._outcomes_of:
            head = f'_label("{SID}","{iid}",'
            not_applicable = self._not_applicable[iid]
            combos = self._combinations() or []
            if self._labels_of is None:  # each combination's outcome atoms, of every item (read once for all)
                self._labels_of = [[t for t in atoms if t.startswith("_label(")] for _, _, atoms in combos]
            self._outcomes_of[iid] = ([frozenset(t for t in labels if t.startswith(head))
                                       for labels in self._labels_of],
                                      [not any(t in atoms for t in not_applicable) for _, _, atoms in combos])
        return self._outcomes_of[iid]

    def _groups(self, f: int, values: Sequence[int], iid: str) -> list[tuple[frozenset[str], frozenset[str]]]:
        """For each value of fact ``f``, the item's outcomes under it (possible and certain ``_label`` atoms):
        values with equal outcomes form a group."""
        head = f'_label("{SID}","{iid}",'
        out = []
        for v in values:
            labels = self._value_labels.get((f, v))
            if labels is None:  # the outcome atoms under the value, of every item (read once for all)
                brave, cautious = self._answers.under.get((f, v), (frozenset(), frozenset()))
                labels = self._value_labels[(f, v)] = ([t for t in brave if t.startswith("_label(")],
                                                       [t for t in cautious if t.startswith("_label(")])
            out.append((frozenset(t for t in labels[0] if t.startswith(head)),
                        frozenset(t for t in labels[1] if t.startswith(head))))
        return out


def _follows(each: Sequence[int], among: Iterable[int], groups: Sequence[object]) -> bool:
    """Whether a provision's condition (``each``: its status under each value) is the same under the values
    that give the item the same outcomes: it then parts the values as the outcomes do. A condition that
    differs between values with the same outcomes (kinds of place that a paragraph lists, all leading to the same
    answer) reads the fact without deciding it."""
    seen: dict[object, int] = {}
    return all(seen.setdefault(groups[n], each[n]) == each[n] for n in among)


def _deciding_provisions(fact: str, alternatives: Sequence[Alternative], readers: Mapping[str, frozenset[str]],
                         treaty: str, deciding: frozenset[str] | None = None) -> tuple[str, ...]:
    """The provisions to cite for an item's depending on ``fact``: those whose rules first read it
    (:func:`~pyhelpers.engine.readers.provisions_reading`) that an alternative holding under some of
    its values (its condition names it, in any of its conjunctions: :meth:`Alternative.condition_facts`)
    rests on; else those that any alternative of the item rests on (the fact matters only beside
    another); the treaty where none does. A provision is left out beside one of its own
    sub-units (a paragraph beside its sub-paragraph): the sub-unit holds the condition."""
    def rested_on(x: Alternative) -> tuple[str, ...]:
        return (*x.provisions, *([x.finding.provision] if x.finding is not None else []))

    own = treaty + " "
    decided = [p for p in deciding or () if p.startswith(own)]
    if decided:
        return tuple(sorted((p for p in decided if not any(q.startswith(p + "(") for q in decided)), key=provision_key))
    reading = readers.get(fact, frozenset())
    cited = reading & {p for x in alternatives if x.otherwise or fact in x.condition_facts() for p in rested_on(x)}
    cited = cited or reading & {p for x in alternatives for p in rested_on(x)}  # read where another fact decides
    specific = [p for p in cited if not any(q.startswith(p + "(") for q in cited)]  # the most specific units only
    return tuple(sorted(specific, key=provision_key)) or (treaty,)


def _where_applies(result: ItemResult, mine: Sequence[tuple[str, Term]], unknowns: Sequence[OpenFact],
                   cons: _Consequences) -> Entitlement | None:
    """The item's entitlement where it is the same wherever the Convention applies to the item and is
    absent only where it applies to no State's tax (an open fact deciding whether the Convention applies at
    all, not who may claim its benefits: blind51 a08): one conclusion, holding exactly under some values of
    the open facts, and every State's outcome ``not_applicable`` under each of the others. None otherwise
    (or past the deadline)."""
    if result.entitlement is not None or not cons.complete:
        return None
    atoms = [(t, a) for t, a in mine if a.name == "entitlement" and len(a.args) == 5]
    kinds = {a.args[3].name for _, a in atoms if isinstance(a.args[3], Term)}
    if not atoms or len(kinds) != 1:
        return None
    states = [s.state for s in result.states]
    for text, _ in atoms:
        _, exact, outside = _holds_if(text, unknowns, cons)
        if not exact or not outside:
            return None
        for f, v in outside:  # each combination where it does not hold has some fact at such a value
            others = tuple((f, w) for w in range(len(unknowns[f].values)) if w != v)
            within = cons.certain_within(others)
            if within is None or not all(str(clingo.Function("_label", [
                    clingo.String(SID), clingo.String(result.item_id), clingo.Function(st),
                    clingo.Function("not_applicable"), clingo.Function("none")])) in within for st in states):
                return None
    provisions = {a.args[4] for _, a in atoms if isinstance(a.args[4], str)}
    return Entitlement(kinds.pop(), tuple(sorted(provisions, key=provision_key)))


def _open_entitlement(result: ItemResult, mine: Sequence[tuple[str, Term]],
                      deciding: Set[str] = frozenset(), grounds: Set[str] = frozenset(),
                      where_applies: Entitlement | None = None) -> Entitlement | None:
    """The item's entitlement: the certain one, else the one it has wherever the Convention applies
    (``where_applies``: :func:`_where_applies`), else ``entitled`` where it is granted in every combination
    that has an entitlement at all (the others claim no benefit: a distributive article's open fact), else the
    same status in every combination by one paragraph or another (``grounds``), else ``open`` where the
    entitlement article decides it differently for different values of the open facts: the tests still
    open (a provision of the denial where the benefit is denied, a test considered and not met, that grants
    it where it is given, or that leaves only a principal purpose question there, ``_judged_ground``; a test
    considered and not met where the benefit is denied whose own condition an open fact decides,
    ``deciding``, or a sub-unit of it; a provision that denies in some of them and decides an open fact),
    else the provisions that decide it in some of them. The provision that denies for want of a test met,
    reading no open fact, is no ground while a test may grant, and the principal purpose test is no test
    still open: it is what remains to judge where a test is met (its ``requires_judgment`` findings)."""
    if result.entitlement is not None:
        return result.entitlement
    if where_applies is not None:
        return where_applies
    provisions = {a.args[4] for _, a in mine if a.name == "entitlement" and len(a.args) == 5}
    if not provisions:
        return None
    kinds = {a.args[3].name if isinstance(a.args[3], Term) else None
             for _, a in mine if a.name == "entitlement" and len(a.args) == 5}
    if kinds == {"entitled"}:  # granted in every combination where a benefit is claimed (blind58 D8: an open
        # fact of the distributive article, under which no benefit is claimed in some combinations, is no
        # fact of the entitlement article): entitled, by each paragraph that grants in some
        return Entitlement("entitled", tuple(sorted({p for p in provisions if isinstance(p, str)}, key=provision_key)))
    settled = [(a.args[3], a.args[4]) for t, a in mine if a.name == "entitlement" and t in grounds]
    if settled and len(settled) == len(provisions) and isinstance(settled[0][0], Term):
        # the same status in every combination, by one paragraph or another: each that grants in some
        return Entitlement(settled[0][0].name, tuple(sorted({p for _, p in settled if isinstance(p, str)},
                                                            key=provision_key)))
    granting = {a.args[4] for _, a in mine if a.name == "entitlement" and len(a.args) == 5
                and isinstance(a.args[3], Term) and a.args[3].name == "entitled"}
    granting |= {a.args[2] for _, a in mine if a.name == "_judged_ground" and len(a.args) == 3}
    considered = {a.args[5] for _, a in mine if a.name == "_label_provision" and len(a.args) == 6
                  and isinstance(a.args[3], Term) and a.args[3].name == "benefits_denied"}
    denying = {a.args[4] for _, a in mine if a.name == "entitlement" and len(a.args) == 5
               and isinstance(a.args[3], Term) and a.args[3].name == "denied"}
    asked = {p for p in considered if isinstance(p, str) and any(_within(d, p) for d in deciding)}
    still_open = {p for p in (granting & considered) | (denying & deciding) if isinstance(p, str)} | asked
    # else the tests the rules leave open in some combinations and find not met in others (blind58b D5: the
    # equivalent beneficiaries' share, open from the boundary on, not met below it), with those that grant in some
    opened = {a.args[4] for _, a in mine if a.name == "entitlement" and len(a.args) == 5
              and isinstance(a.args[3], Term) and a.args[3].name == "open" and isinstance(a.args[4], str)} & denying
    if opened:
        opened |= {p for p in granting if isinstance(p, str)}
    return Entitlement("open", tuple(sorted(still_open or opened or {p for p in provisions if isinstance(p, str)},
                                            key=provision_key)))


def _within(provision: str, unit: str) -> bool:
    """Whether ``provision`` is ``unit`` or one of its sub-units (a sub-paragraph's item of that sub-paragraph)."""
    return provision == unit or provision.startswith(unit + "(")


def _grounds_only(cons: _Consequences) -> frozenset[str]:
    """The possible-but-not-certain ``entitlement`` atoms that change only the ground of an entitlement whose
    status is the same in every combination (issue 23 point 1, exam52 D1/D2: a listed company entitled by one
    test, and by an ownership test too while an owner still holds; a paragraph that grants whether or not the
    resident is a qualified person): like :data:`_PROVISIONS_ONLY`, they name the paragraph that grants, not what
    is granted, and decide nothing."""
    statuses: dict[str, set[str]] = defaultdict(set)
    texts: dict[str, list[str]] = defaultdict(list)
    for text in cons.brave:
        if text.startswith(("entitlement(", "_entitlement_status(")):
            a = parse_atom(text)
            if a.name == "_entitlement_status" and len(a.args) == 3 and isinstance(a.args[2], Term):
                statuses[str(a.args[1])].add(a.args[2].name)
            elif a.name == "entitlement" and len(a.args) == 5 and text not in cons.cautious:
                texts[str(a.args[1])].append(text)
    return frozenset(t for iid, ts in texts.items() if len(statuses[iid]) == 1
                     and f"_entitlement_status({clingo.String(SID)},{clingo.String(iid)},{next(iter(statuses[iid]))})"
                     in cons.cautious for t in ts)


def _has_label(item: str, state: str) -> str:
    """The text clingo prints for ``_has_label``: the State has an outcome (not undetermined)."""
    return f"_has_label({clingo.String(SID)},{clingo.String(item)},{state})"


def _at_most(state: str, alternatives: Sequence[Alternative], complete: bool) -> int | None:
    """The highest cap on ``state``'s tax over every way the open facts may go, where each of them caps it
    or exempts the item (0); None where one leaves it unlimited or undecided, or not all were examined
    (``complete``: every way was examined and gives the State an outcome)."""
    caps = [0 if a.outcome == "exempt" else a.max_rate_bp for a in alternatives if a.state == state]
    if not complete or not caps or any(c is None for c in caps):
        return None
    return max(c for c in caps if c is not None)


def _may_tax_always(state: str, alternatives: Sequence[Alternative], complete: bool) -> bool:
    """Whether every way the open facts may go lets ``state`` tax the item (only it, both, or within a
    cap) where no single cap bounds them all (some leave it unlimited): a bound as certain as a cap's."""
    outcomes = [a.outcome for a in alternatives if a.state == state]
    return complete and bool(outcomes) and all(o in ("exclusive", "may_tax", "capped") for o in outcomes) \
        and _at_most(state, alternatives, complete) is None


def _open_relief(relief: Relief | None, mine: Sequence[tuple[str, Any]], base_open: bool,
                 unknowns: Sequence[OpenFact], cons: _Consequences) -> Relief | None:
    """The certain relief figures of an item whose relief, or the base of its cap, depends on the open
    facts: the methods found in some alternatives only are left out of the figures and named, each with
    the values of the open facts under which it applies where those are exact (:func:`_holds_if`); an
    open base leaves the Convention's limit, and so the creditable tax and the credit, not computed."""
    if relief is None:
        return None
    conditions: dict[ReliefMethod, tuple[Condition, ...]] = {}
    for text, a in mine:
        if a.name == "relief":
            holds, exact, _ = _holds_if(text, unknowns, cons) if cons.complete else ((), False, None)
            conditions[ReliefMethod(a.args[3].name, a.args[4])] = holds if exact else ()
    for _, a in mine:
        if a.name == "relief_open":
            conditions[ReliefMethod(a.args[3].name, a.args[4])] = ()  # open beside a missing fact too
    methods = {dataclasses.replace(m, holds_if=c) for m, c in conditions.items()}
    if not methods and not base_open:
        return relief
    opened = tuple(sorted(set(relief.open_methods) | methods, key=lambda m: (m.method, m.provision)))
    if not base_open:
        return dataclasses.replace(relief, open_methods=opened)
    return dataclasses.replace(relief, open_methods=opened, treaty_limit=None, creditable_tax=None, credit=None,
                               notes=tuple(sorted({*relief.notes, "limited_part_not_given"})))


_NOT_GIVEN: Any = object()


def compliance_under(scenario: Scenario, item: Any, result: ItemResult, case: dict[Any, Any] | None = None,
                     state: Any = _NOT_GIVEN) -> Any:
    """The withholding finding of ``item`` from an answer over the values of its open facts (``result``: what
    :meth:`~pyhelpers.engine.solve.Checker.check` gives another item of the same facts, with ``item``'s id and
    amounts), as ``check`` gives it for ``item`` itself (:func:`_compliance`): the alternatives of the withholding
    State cover every way the facts may go where that State is one of the item's (a State without an outcome in some
    way has an ``undetermined`` alternative there) and no time limit cut the answer. For a batch's rows, each of
    whose cases is answered once: ``case`` (kept by the caller for the rows of one case, the same answer) keeps what
    the finding takes from the case rather than the row's amounts (:class:`_ComplianceCase`); ``state``: the item's
    withholding State, where the caller has it (``withholding_state(scenario, item)``)."""
    if state is _NOT_GIVEN:
        state = withholding_state(scenario, item)
    every = state is not None and any(s.state == state for s in result.states)
    return _compliance(scenario, item, result, every, case)


@dataclass(frozen=True)
class _ComplianceCase:
    """What :func:`_compliance` takes from an item's case and not its amounts: the withholding State, its
    alternatives with an outcome, the provisions flagged as reconstructed, and the result under each alternative
    (read for its status, outcomes and ``limited_to`` alone: :func:`~pyhelpers.engine.amounts.compliance_of`)."""

    state: str | None
    options: tuple[Alternative, ...]
    flagged: tuple[str, ...]
    under: tuple[ItemResult, ...]
    facts: tuple[str, ...] = ()
    """The facts the alternatives' conditions name, sorted (what a ``depends`` finding names)."""


def _compliance_case(scenario: Scenario, item: Any, result: ItemResult) -> _ComplianceCase:
    state = withholding_state(scenario, item)
    options = tuple(a for a in result.bound_alternatives or result.alternatives
                    if a.state == state and a.outcome is not None)
    certain = result.compliance.reconstructed if result.compliance is not None else ()
    flagged = tuple(sorted({*certain, *(p for a in options for p in a.reconstructed)}, key=provision_key))
    # the item's status in every alternative: at least that of its certain findings which no open fact
    # gives (an article not encoded, a pending one, an input error); a missing or open fact may be given
    given = {STATUS_OF_FINDING[f.kind] for f in result.findings if f.kind in STATUS_OF_FINDING}
    status = next((s for s in STATUS_ORDER if s in given and s in ("error", "not_encoded", "pending")), "decided")
    under = tuple(replaced(result, status=status, states=tuple(
        StateOutcome(s.state, a.outcome or "", a.max_rate_bp, a.provisions) if s.state == state else s
        for s in result.states)) for a in options)
    facts = tuple(sorted({f for a in options for f in a.condition_facts()}))
    return _ComplianceCase(state, options, flagged, under, facts)


def _compliance(scenario: Scenario, item: Any, result: ItemResult, every: bool = True,
                case: dict[Any, Any] | None = None) -> Any:
    """The withholding finding: where the withholding State's outcome depends on the unknown facts, the
    finding of each of its alternatives; if they all agree it is the finding (with the amounts they agree
    on), otherwise ``depends`` on the facts that decide them. ``every``: the alternatives cover every way
    the facts may go (else, where some leaves the outcome undetermined, no finding is stated). ``case``: where
    the parts of the finding that are the case's are kept, for the next row of the case (its amounts, id and
    gross its own, its status, outcomes, findings' kinds, alternatives and ``limited_to`` the same)."""
    parts = case.get("parts") if case is not None else None
    if parts is None:
        parts = _compliance_case(scenario, item, result)
        if case is not None:
            case["parts"] = parts
    state, options, flagged = parts.state, parts.options, parts.flagged
    bases = amount_bases(result.gross, result.limited_to, result.limited_amount, result.limit_base_open)
    plain = compliance_for(scenario, item, result, bases, state)
    if plain is not None:
        plain = replaced(plain, reconstructed=flagged)
    if plain is None or not options or not every or any(f.kind == "time_limit" for f in result.findings):
        return plain
    each = [compliance_for(scenario, item, under, bases, state) for under in parts.under]
    within = [c for c in each if c is not None and c.finding == "within_cap"]
    if within and all(c is not None and c.finding in ("compliant", "within_cap") for c in each):
        each = [replaced(c, finding="within_cap") if c is not None else c for c in each]  # no excess
    first = each[0]
    if first is None or any(c is None or c.finding != first.finding for c in each):
        facts = parts.facts or [f.fact or "" for f in result.findings if f.kind == "depends"]
        return replaced(plain, finding="depends", reason="; ".join(facts))
    def agreed(name: str) -> Any:
        values = {getattr(c, name) for c in each}
        return values.pop() if len(values) == 1 else None
    provisions = tuple(sorted({p for c in each if c is not None for p in c.provisions}, key=provision_key))
    out = replaced(first, cap_bp=agreed("cap_bp"), treaty_max_tax=agreed("treaty_max_tax"),
                              due=agreed("due"), difference=agreed("difference"), provisions=provisions,
                              reason=agreed("reason") or "", reconstructed=flagged)
    return _bound_figures(out, [c for c in each if c is not None])


def _bound_figures(agreed: Any, each: Sequence[Any]) -> Any:
    """The figures of a withholding finding every way the open facts may go agrees on, where they differ
    between those ways: the highest cap and its amount (where every way caps the tax) and, for an over- or
    under-withholding, the least excess or shortfall (:class:`~pyhelpers.engine.results.Compliance`)."""
    out = agreed
    caps = [(c.cap_bp, c.treaty_max_tax) for c in each]
    if agreed.cap_bp is None and caps and all(bp is not None and tax is not None for bp, tax in caps):
        bp, tax = max(caps, key=lambda cap: (cap[0], cap[1]))
        out = replaced(out, cap_at_most_bp=bp, treaty_max_tax_at_most=tax)
    differences = [c.difference for c in each]
    if agreed.finding in ("over_withheld", "under_withheld") and agreed.difference is None and differences \
            and all(d is not None for d in differences):
        out = replaced(out, difference_at_least=min(d for d in differences if d is not None))
    return out



def with_bounds(answer: ScenarioResult, ended: ScenarioResult, direct: Sequence[str] = ()) -> ScenarioResult:
    """``answer`` with the bounds ``ended`` finds where it finds none: ``ended`` is the same scenario answered
    with the ends of its added holding records open too (:func:`pyhelpers.engine.completion.open_record_ends`),
    every way the facts may go giving each State an outcome. A State ``answer`` leaves undetermined with no
    bound (a record's end missing in some way) takes ``ended``'s bound, and the item the withholding finding
    from ``ended``'s alternatives (kept as :attr:`~pyhelpers.engine.results.ItemResult.bound_alternatives`);
    the alternatives shown stay ``answer``'s, whose conditions are exact (the end's critical day moves with
    the first day, which a condition on each fact alone cannot say). ``answer`` as it is where ``ended`` is
    incomplete.

    ``direct``: ``ended`` answers the records whose ``direct`` these open facts are (``holding(H, C).direct``) read
    indirect, with the owner's direct holding open beside them (:func:`pyhelpers.engine.completion.
    indirect_branches`). An alternative of ``answer`` undetermined where one of them is false is then that
    branch's answer: the State's bound (every way the owner's direct holding may go, the record's own share and
    first day among them), with the provisions of the alternatives of ``ended`` that reach it (the general
    limit); and a withholding finding that depends names those facts, the ones the user gives, not the added
    record's share and first day."""
    if ended.incomplete is not None:
        return answer
    by_id = {it.item_id: it for it in ended.items}
    items = []
    for it in answer.items:
        other = by_id.get(it.item_id)
        bounds = {s.state: s for s in other.states if s.outcome == "undetermined" and (
            s.at_most_bp is not None or s.may_tax_always)} if other is not None else {}
        states = tuple(dataclasses.replace(s, at_most_bp=bounds[s.state].at_most_bp,
                                           may_tax_always=bounds[s.state].may_tax_always)
                       if s.state in bounds and s.outcome == "undetermined" and s.at_most_bp is None
                       and not s.may_tax_always else s for s in it.states)
        if other is None or states == it.states:
            items.append(it)
            continue
        alternatives, compliance = it.alternatives, other.compliance
        if direct:
            alternatives = tuple(_indirect_bound(a, bounds, other.alternatives, direct) for a in it.alternatives)
            named = sorted({c.fact for a in it.alternatives for c in a.holds_if if c.fact in direct})
            if compliance is not None and compliance.finding == "depends" and named:
                compliance = dataclasses.replace(compliance, reason="; ".join(named))
        items.append(dataclasses.replace(it, states=states, compliance=compliance, alternatives=alternatives,
                                         bound_alternatives=other.alternatives))
    return dataclasses.replace(answer, items=tuple(items))


def _indirect_bound(a: Alternative, bounds: Mapping[str, StateOutcome], branch: Sequence[Alternative],
                    direct: Sequence[str]) -> Alternative:
    """``a`` (see :func:`with_bounds`) as the indirect branch answers it: a State's outcome undetermined, with no
    bound, where a record's ``direct`` (one of ``direct``) is false, becomes the State's bound ``bounds`` gives
    (``capped at most 15%``), resting on the provisions of the alternatives of the ``branch`` that reach that cap;
    ``a`` itself otherwise."""
    bound = bounds.get(a.state or "")
    if bound is None or bound.at_most_bp is None or a.outcome != "undetermined" or a.at_most_bp is not None \
            or not any(c.fact in direct and c.values == "false" for c in a.holds_if):
        return a
    reaching = [b for b in branch if b.state == a.state and b.outcome == "capped" and b.max_rate_bp == bound.at_most_bp]
    provisions = tuple(sorted({p for b in reaching for p in b.provisions}, key=provision_key)) or a.provisions
    reconstructed = tuple(sorted({p for b in reaching for p in b.reconstructed}, key=provision_key)) or a.reconstructed
    return dataclasses.replace(a, conclusion=f"capped at most {format_bp(bound.at_most_bp)}",
                               at_most_bp=bound.at_most_bp, provisions=provisions, reconstructed=reconstructed)
