"""Evaluation: scenario facts + the rule base → clingo → typed results (the fast path, no explanations)."""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import itertools
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import Any, TypeVar

import clingo

from pyhelpers.base import clock, dates
from pyhelpers.base.cache import read_json, write_json
from pyhelpers.base.errors import LogicError, ScenarioError
from pyhelpers.base.terms import Term, Value, parse_atom, read_symbols
from pyhelpers.base.version import package_version
from pyhelpers.engine import critical
from pyhelpers.engine.amounts import compute_compliance, compute_relief, limited_part, max_source_tax
from pyhelpers.engine.answers import (
    ReadAtoms,
    build_result,
    compliance_reliance,
    item_template,
    reliance,
    result_from_atoms,
)
from pyhelpers.engine.completion import (
    Choice,
    Variants,
    accepted,
    asked_for_each,
    combinations,
    indirect_branches,
    missing_records,
    most_in_a_part,
    names_a_record,
    open_record_ends,
    revalidated,
    unknown_values,
)
from pyhelpers.engine.critical import Periods, treaty_periods
from pyhelpers.engine.declarations import FORMAT, declared_from, from_json, to_json
from pyhelpers.engine.domains import cited_percentages, opened_at
from pyhelpers.engine.fields import item_named, result_named, row_named
from pyhelpers.engine.program import Logic, load_logic, provision_key, relevant_date
from pyhelpers.engine.provenance import RELIES
from pyhelpers.engine.results import (
    FIELD_KINDS,
    Compliance,
    Finding,
    ItemResult,
    Receipt,
    ScenarioResult,
    UnknownFact,
    replaced,
)
from pyhelpers.engine.slicing import Narrowed, Sliced
from pyhelpers.facts import NO_CUTS, Cuts, Declared, item_key, scenario_facts
from pyhelpers.facts.emit import quote
from pyhelpers.scenario import IncomeItem, Scenario
from pyhelpers.scenario.catalogue import catalogue
from pyhelpers.scenario.common import DIRECT_RECORD_BESIDE
from pyhelpers.scenario.factpaths import leaf_paths
from pyhelpers.scenario.openfacts import MAX_COMBINATIONS, OpenFact, Part

ASKED_UNDER_ROUNDS = 2
"""How many rounds of facts asked for only under some value of an opened fact are opened too."""


@dataclass
class Solved:
    """The raw outcome of one solve: the shown atoms, plus clingo's messages."""

    symbols: list[clingo.Symbol]
    messages: list[str] = field(default_factory=list)


def run_clingo(program: str | Sliced, facts: Iterable[str], shown_only: bool = True, sort: bool = True,
               narrow: bool = True) -> Solved:
    """Ground and solve ``program`` (text, or a :class:`Sliced` program) with ``facts``; exactly one
    answer set is expected. A slice is grounded narrowed (:class:`Narrowed`) when it has learnt which
    rules matter and the grounding proves that the others cannot fire; otherwise whole (and learns).
    Without ``narrow`` a slice is always grounded whole (its parsed statements reused)."""
    text = "\n".join(facts)
    if narrow and isinstance(program, Sliced) and (narrowed := program.narrowed) is not None:
        ctl, messages = _grounded(program, text, narrowed)
        if narrowed.proves(ctl):
            return _solved(ctl, messages, shown_only, sort)
    ctl, messages = _grounded(program, text)
    if narrow and isinstance(program, Sliced):
        program.learn(ctl)
    return _solved(ctl, messages, shown_only, sort)


def _grounded(program: str | Sliced, facts: str, narrowed: Narrowed | None = None) -> tuple[clingo.Control, list[str]]:
    messages: list[str] = []

    def log(code: clingo.MessageCode, text: str) -> None:
        messages.append(text.strip())

    ctl = clingo.Control(["--models=2"], logger=log, message_limit=50)
    if isinstance(program, str):
        ctl.add("base", [], program)
    else:
        program.add_to(ctl, narrowed)
    ctl.add("base", [], facts)
    ctl.ground([("base", [])])
    return ctl, messages


def _solved(ctl: clingo.Control, messages: list[str], shown_only: bool, sort: bool) -> Solved:
    models: list[list[clingo.Symbol]] = []
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            models.append(model.symbols(shown=shown_only, atoms=not shown_only))
    if not models:
        raise LogicError("the rules have no answer set for this scenario (a rule set bug: findings must be atoms)")
    if len(models) > 1:
        raise LogicError("the rules have more than one answer set for a scenario without unknowns")
    return Solved(sorted(models[0]) if sort else models[0], messages)


def _by_scenario(symbols: Iterable[clingo.Symbol], alone: bool = False) -> dict[str, list[tuple[str, Term]]]:
    """The shown atoms of a run of several scenarios, as (text, term), by scenario id (the first argument;
    of a ``_relies`` atom, that of the atom it speaks of). With ``alone`` each reads as it does checked
    alone (its id ``s``)."""
    out: dict[str, list[tuple[str, Term]]] = defaultdict(list)
    for text in map(str, symbols):
        atom = parse_atom(text)
        owner = atom.args[0] if atom.args else None
        if atom.name == RELIES and isinstance(owner, Term) and owner.args:  # of the atom it speaks of
            owner = owner.args[0]
        if isinstance(owner, str):
            if alone and owner != "s":
                text = text.replace(quote(owner), quote("s"), 1)
                atom = parse_atom(text)
            out[owner].append((text, atom))
    return out


@dataclass(frozen=True)
class Case:
    """One case decided: the result under its placeholder id, the placeholder, the item's shown atoms and
    the reliance of the run's atoms (what :func:`_rebind` needs to give it to each item of the case)."""

    template: ItemResult
    placeholder: str
    atoms: list[Term]
    relies: dict[Term, set[str]]
    flags: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False)
    """The reconstructed provisions a compliance figure rests on, by withholding State
    (:func:`~pyhelpers.engine.answers.compliance_reliance`: the same for every item of the case)."""


@dataclass
class Memo:
    """The cases a batch has decided (one memo per context and process: a batch worker's), so that each
    distinct case is decided once whatever the chunking. ``signatures``: an item's key
    (:func:`~pyhelpers.facts.item_key`, with its treaty and rule versions) → its facts with its id as @ (sorted, one
    text of lines: a fact has no line break);
    ``cases``: (treaty, versions, those facts) → :class:`Case`. ``decided`` counts the cases clingo
    decided. Past ``limit`` entries each table forgets its oldest (:meth:`make_room`: memory stays flat in the
    number of rows; a case decided again gives the same answer). A new key whose facts are a case the memo holds (its
    key forgotten, or another key with the same facts) is not decided again.

    ``limit`` 16,000 (measured 2026-12-05, docs/maintainers.md): a case costs about 3 KB (its facts as one text, its
    result, the atoms read), so a full memo holds ~50 MB a worker; a realistic ledger has hundreds of cases, and a
    ledger of 20,000 rows each a new date has ~8,100, which 4,000 entries made a worker decide again and again (one
    worker: 16,463 cases decided against 8,110; two workers: 8-13% more CPU)."""

    limit: int = 16_000
    signatures: dict[tuple[str, tuple[str, ...], str], str] = field(default_factory=dict)
    cases: dict[tuple[str, tuple[str, ...], str], Case] = field(default_factory=dict)
    decided: int = 0
    fields: dict[tuple[str, str, tuple[bool, ...]], str | None] = field(default_factory=dict)
    """The scenario field of an open fact, by the fact and what of a row's item it depends on
    (:func:`~pyhelpers.engine.fields.row_named`)."""
    provenance: bool | None = None
    """Whether its cases say which reconstructed provisions they rest on (``decide_items``' ``provenance``)."""
    read: ReadAtoms = field(default_factory=dict)
    """What was read of the cases' atoms (:func:`~pyhelpers.engine.answers.item_template`'s ``read``)."""
    bounds: dict[tuple[str, tuple[str, ...], str], Any] = field(default_factory=dict)
    """A batch's answers over the values of missing facts, by case (as ``cases``): what the caller computed once
    for the case (:mod:`pyhelpers.interfaces.batch` with ``--bounds``: the bound of a row whose outcome a missing fact
    leaves undetermined), or None where there is none. Empty without ``--bounds``."""

    def make_room(self) -> None:
        """Each table past ``limit`` entries forgets its oldest, down to three quarters of the limit. (Forgetting them
        all, as an earlier version did, left the memo half as full on average: a ledger with more cases than the
        limit decided again many a case it had just forgotten.)"""
        for table in (self.signatures, self.cases, self.fields, self.read, self.bounds):
            _forget_oldest(table, self.limit)


def _forget_oldest(table: dict[Any, Any], limit: int) -> None:
    """Past ``limit`` entries, ``table`` forgets its oldest (the first inserted), down to three quarters of it."""
    if len(table) > limit:
        for key in list(itertools.islice(table, len(table) - limit * 3 // 4)):
            del table[key]



def _of_pair(scenario: Scenario, path: tuple[Any, ...], holder: str, company: str) -> bool:
    """Whether ``path`` is the field of a holding record of ``scenario``, held by ``holder`` in ``company``, that
    :func:`~pyhelpers.engine.completion.indirect_branches` reads otherwise (its type marked
    :data:`~pyhelpers.scenario.common.DIRECT_RECORD_BESIDE`: the record's ``direct``)."""
    if len(path) < 3 or path[0] != "holdings" or not isinstance(path[1], int) \
            or not 0 <= path[1] < len(scenario.holdings) \
            or opened_at(path) is not DIRECT_RECORD_BESIDE:
        return False
    record = scenario.holdings[path[1]]
    return (record.holder, record.company) == (holder, company)


class Checker:
    """The rule base loaded once; evaluates scenarios (thread-safe: each call uses its own Control)."""

    def __init__(self, logic: Logic | None = None, strict: bool = False) -> None:
        self.logic = logic or load_logic()
        self.strict = strict
        """No default stands for a fact the law needs: each is missing instead of an assumption."""
        self._periods: dict[str, Periods] = {}
        self._percentages: dict[str, tuple[str, ...]] = {}
        self.in_parts = True
        """Completed facts are combined per group of items asking for them (``check_open_in_parts``);
        False combines them all in one solve (what a test compares with)."""

    def __reduce__(self) -> tuple[Callable[[str, bool], Checker], tuple[str, bool]]:
        """Pickled as its spec, the rule base's folder and ``strict`` (small, for a process started with
        ``spawn``): unpickled, it is the rule base loaded once in that process (:func:`checker_for`)."""
        return (checker_for, (str(self.logic.root), self.strict))

    @cached_property
    def static_atoms(self) -> list[clingo.Symbol]:
        """The treaties' catalogue facts (articles, parameters ...), grounded once without a scenario."""
        return run_clingo(self.logic.static_program(), [], shown_only=False).symbols

    @cached_property
    def declared(self) -> Declared:
        """The measures the rules declare they need computed from dates and amounts
        (:mod:`pyhelpers.facts.declared`), with the month counts of every treaty's periods. Kept in the
        disk cache by rule base (a command run once need not ground the catalogue)."""
        name = f"declared-{FORMAT}-{self.logic.cache_key}.json"
        cached = from_json(read_json(name))
        if cached is not None:
            return cached
        declared = declared_from(self.static_atoms)
        write_json(name, to_json(declared))
        return declared

    @cached_property
    def reconstructed_provisions(self) -> frozenset[str]:
        """Provisions encoded from a reconstruction (flag ``reconstructed``), not from the corpus text."""
        return frozenset(r.provision for r in self.logic.rules if "reconstructed" in r.flags)

    def treaty_periods(self, treaty: str) -> Periods:
        """:func:`~pyhelpers.engine.critical.treaty_periods` of the catalogue facts, read once per treaty, when a
        check first needs them (with an open fact or a missing record): not at start-up, which most runs do
        not need; a process that checks on (a kept child, a pool's worker) keeps them."""
        periods = self._periods.get(treaty)
        if periods is None:
            periods = self._periods[treaty] = treaty_periods(self.static_atoms, treaty)
        return periods

    def cited_percentages(self, treaty: str) -> tuple[str, ...]:
        """:func:`~pyhelpers.engine.domains.cited_percentages` of the catalogue facts, read once per treaty."""
        shares = self._percentages.get(treaty)
        if shares is None:
            shares = self._percentages[treaty] = tuple(cited_percentages(self.static_atoms, treaty))
        return shares

    def warm(self) -> Checker:
        """Parse and prepare everything shared by all evaluations now (before forking workers, which then
        inherit it instead of each parsing the rule base again; a spawned worker warms its own)."""
        _ = self.static_atoms, self.declared, self.reconstructed_provisions
        self.logic.reachable(None, frozenset())
        return self

    def facts(self, scenario: Scenario, sid: str = "s", cuts: Cuts = NO_CUTS) -> list[str]:
        return scenario_facts(scenario, sid, self.declared, self.strict or scenario.strict, cuts)

    def versions(self, treaty: str, item: IncomeItem) -> tuple[str, ...]:
        """The amended article files (:meth:`Logic.versions_on`) that decide ``item``: those in force on
        its relevant date (:func:`relevant_date`). Empty for the original text."""
        if not self.logic.amendments:
            return ()
        tax = item.single_tax  # several taxes: the payment date picks the version
        fiscal_year = dates.fiscal_year_start(item.date, tax.fiscal_year_start if tax else None)
        return self.logic.versions_on(treaty, relevant_date(item.date, tax.withheld_at_source if tax else None,
                                                            fiscal_year))

    def version_groups(self, scenario: Scenario) -> dict[tuple[str, ...], list[IncomeItem]]:
        """The scenario's items grouped by the version of the rules that decides them."""
        groups: dict[tuple[str, ...], list[IncomeItem]] = {}
        for item in scenario.income:
            groups.setdefault(self.versions(scenario.treaty, item), []).append(item)
        return groups or {(): []}

    def check(self, scenario: Scenario, source: str = "<scenario>", time_limit: float | None = None,
              three_valued: Callable[[ScenarioResult], None] | None = None) -> ScenarioResult:
        """Evaluate one scenario on the fast path (no instrumentation). Items decided by different
        versions of an amended article are evaluated apart, each with its version. A scenario with
        facts given as alternatives gets three-valued answers (:mod:`pyhelpers.alternatives`), within
        ``time_limit`` seconds (default 10); so do the facts it gives as ``unknown`` and the holding
        records the rules report missing, where their values can be listed
        (:mod:`pyhelpers.engine.completion`): what holds whatever they are is decided. Each finding
        about an open fact names the scenario field that states it (:mod:`pyhelpers.engine.fields`).
        ``three_valued``, if given, is told the scenario's three-valued answer as soon as it is found (a check
        stopped later keeps what it proved: :func:`pyhelpers.engine.limited.check_within`)."""
        told = None if three_valued is None else (lambda found: three_valued(result_named(found, scenario)))
        return result_named(self._check(scenario, source, time_limit, told), scenario)

    def _check(self, scenario: Scenario, source: str, time_limit: float | None,
               told: Callable[[ScenarioResult], None] | None = None, per_part: bool | None = None) -> ScenarioResult:
        """:meth:`_check_open`, then the items whose answer turns on the days after the evaluation date, which the
        scenario does not give (:meth:`_later_days_opened`)."""
        started = clock.now()
        answer = self._check_open(scenario, source, time_limit, told, per_part)
        if answer.incomplete is not None:
            return answer
        from pyhelpers.engine.alternatives import DEFAULT_TIME_LIMIT

        limit = DEFAULT_TIME_LIMIT if time_limit is None else time_limit
        return self._later_days_opened(scenario, source, max(limit - (clock.now() - started), 0.0), answer)

    def _later_days_opened(self, scenario: Scenario, source: str, limit: float, answer: ScenarioResult
                           ) -> ScenarioResult:
        """``answer`` with each item that turns on the holdings after the evaluation date (a finding whose field is
        ``holdings_continue``, not given: outright, or under some values of the open facts) answered again with
        the holdings read as continuing and the ends of those its ownership tests count that run past the
        evaluation date (records of its recipient's capital, and of its owners', up the chain, with no last day)
        opened as a last day given as ``unknown`` is, from the evaluation date on: the critical dates each State's
        outcome turns on (blind59 D2, blind58b D3). The item keeps its status and the findings that the days after
        the evaluation date are not given (a holding bought, or bought back, after it is not answered for); an item
        whose outcome no such end changes keeps its answer (what other holdings after the evaluation date could
        change is still open), and so does one that also turns on a fact missing, or opened over its values where
        not given (answered here over the facts the scenario gives open alone, it would lose them). The facts the
        scenario gives open that decide none of these items are read at their first value. ``answer`` as it is where
        no item turns on them, or where the ends cannot be opened within the limit on combinations or the time
        limit."""
        if scenario.holdings_continue or not scenario.income:
            return answer

        def continuing(fact: str | None, item_id: str) -> bool:  # the field that states it is holdings_continue
            return bool(fact) and leaf_paths(fact or "", [item_id], scenario) == (("holdings_continue",),)

        outright = {it.item_id: [f for f in it.findings if f.kind in ("depends", "missing")
                                 and continuing(f.fact, it.item_id)] for it in answer.items}
        under = {it.item_id: [a for a in it.alternatives if a.finding is not None
                              and continuing(a.finding.fact, it.item_id)] for it in answer.items}
        completed = {u.fact for u in answer.unknowns if not u.given}  # opened here, not given: answered again below
        later = [it.id for it in scenario.income if (outright.get(it.id) or under.get(it.id))  # alone, with the given
                 and not any(f.kind == "missing" for f in answer.item(it.id).findings)  # open facts only
                 and not any(it.id in u.items for u in answer.unknowns if u.fact in completed)]
        if not later:
            return answer
        started = clock.now()
        mine: dict[str, ItemResult] = {}
        opened_facts: list[UnknownFact] = []
        for item_id in later:  # each alone in its scenario
            left = max(limit - (clock.now() - started), 0.0)
            got = self._later_days_item(scenario, source, left, answer, item_id)
            if got is None:
                continue
            it, facts = got
            findings = {*it.findings, *outright[item_id]}
            alternatives = (*it.alternatives, *(a for a in under[item_id] if a not in it.alternatives))
            before = answer.item(item_id)
            mine[item_id] = dataclasses.replace(
                it, status=before.status, provisions=tuple(sorted({*before.provisions, *it.provisions},
                                                                  key=provision_key)),
                alternatives=tuple(sorted(
                    alternatives, key=lambda x: (x.state is None, x.state or "", x.conclusion, str(x)))),
                findings=tuple(sorted(findings, key=lambda f: (f.kind, provision_key(f.provision), f.fact or ""))))
            opened_facts += facts
        if not mine:
            return answer
        unknowns = {u.fact: u for u in answer.unknowns}
        for u in opened_facts:
            items = tuple(i for i in u.items if i in mine)
            if u.fact in unknowns:
                known = unknowns[u.fact]
                unknowns[u.fact] = dataclasses.replace(known, items=tuple(
                    i.id for i in scenario.income if i.id in {*known.items, *items}))
            elif items:
                unknowns[u.fact] = dataclasses.replace(u, items=items)
        return dataclasses.replace(answer, items=tuple(mine.get(it.item_id, it) for it in answer.items),
                                   unknowns=tuple(unknowns.values()))

    def _later_days_item(self, scenario: Scenario, source: str, limit: float, answer: ScenarioResult,
                         item_id: str) -> tuple[ItemResult, list[UnknownFact]] | None:
        """The item ``item_id`` of :meth:`_later_days_opened`, alone in its scenario with the holdings read as
        continuing and the ends of the holdings it counts opened from the evaluation date on, with the open facts
        of that answer; None where no such end changes a State's outcome, or they cannot be opened. Each end is
        opened alone first (the others continuing): where one alone changes an outcome, that answer; where several
        do, all of them together (within the limit on combinations)."""
        started = clock.now()
        evaluation = scenario.evaluation_date
        index = next(n for n, it in enumerate(scenario.income) if it.id == item_id)
        recipient = getattr(scenario.income[index], "recipient", None)
        owned = {recipient} if isinstance(recipient, str) else set()
        while True:  # the recipient's owners, up the chains of holdings
            more = {h.holder for h in scenario.holdings if h.company in owned} - owned
            if not more:
                break
            owned |= more
        ends = [k for k, h in enumerate(scenario.holdings)
                if h.company in owned and h.until is None and h.from_ <= evaluation
                and not any(f.path[:2] == ("holdings", k) for f in scenario.open_facts)]
        deciding = {u.fact for u in answer.unknowns if item_id in u.items}
        given_open = tuple(f for f in scenario.open_facts if f.kind != "unknown" or f.name in deciding
                           or f.path[:2] == ("income", index))

        def opened_with(chosen: Sequence[int]) -> tuple[ItemResult, list[UnknownFact]] | None:
            data = copy.deepcopy(scenario._plain_data if scenario._plain_data is not None else scenario.model_dump(
                mode="json", by_alias=True, exclude_unset=True))
            rows = data.get("holdings") if isinstance(data, dict) else None
            if not isinstance(rows, list) or len(rows) != len(scenario.holdings):
                return None
            data["holdings_continue"] = True
            for k in chosen:
                rows[k]["until"] = evaluation.isoformat()
            variant = revalidated(data, source)
            if variant is None:
                return None
            variant._open_facts = given_open
            sub = part_scenario(variant, Part((index,), variant.unknowns), source)
            given = critical.open_facts(self, sub)
            periods = self.treaty_periods(scenario.treaty)
            opened = tuple(critical.critical_dates(
                OpenFact(("holdings", k, "until"), f"holding({rows[k]['holder']}, {rows[k]['company']}).until",
                         "unknown", (evaluation.isoformat(),), ranged="date", completed=True, not_given=True,
                         open_end="later"), sub, given, periods) for k in chosen)
            if combinations((*given, *opened)) > MAX_COMBINATIONS:
                return None
            try:
                found = check_open(self, sub, source, max(limit - (clock.now() - started), 0.0), opened)
            except ScenarioError:
                return None
            got = next(iter(found.items), None)
            names = {f.name for f in (*given, *opened)}
            if found.incomplete is not None or got is None or not any(
                    a.state is not None and names.intersection(a.condition_facts()) for a in got.alternatives):
                return None  # no end changes its outcome: the days after the evaluation date still decide
            mine = {f.name for f in opened}  # not given: said so by the unknowns, not as given open
            return dataclasses.replace(got, findings=tuple(f for f in got.findings if f.fact not in mine)), \
                list(found.unknowns)

        from pyhelpers.engine.alternatives import check_open, part_scenario

        if not ends:
            return opened_with(()) if given_open else None
        if len(ends) == 1:
            return opened_with(ends)
        alone = {k: got for k in ends if (got := opened_with((k,))) is not None}
        if len(alone) == 1:
            return next(iter(alone.values()))
        return opened_with(sorted(alone)) if alone else None

    def _check_open(self, scenario: Scenario, source: str, time_limit: float | None,
                    told: Callable[[ScenarioResult], None] | None = None, per_part: bool | None = None
                    ) -> ScenarioResult:
        """:meth:`check`'s work. The facts given as ``unknown`` are opened while the combinations of each part of
        the scenario stay within the limit (``per_part``, the default where the checker solves in parts: the parts
        are solved one by one), else of the whole; where the parts cannot be solved apart after all and the whole
        exceeds the limit, the scenario is answered again counting the whole."""
        from pyhelpers.engine.alternatives import (
            DEFAULT_TIME_LIMIT,
            check_alternatives_in_parts,
            check_open,
            check_open_in_parts,
            with_bounds,
        )

        limit = DEFAULT_TIME_LIMIT if time_limit is None else time_limit
        if scenario.unknowns:
            started = clock.now()
            parted = check_alternatives_in_parts(self, scenario, source, limit) if self.in_parts else None
            answer = parted or check_open(self, scenario, source, limit, unknown_values(scenario))
            return self._records_beside_alternatives(scenario, source, max(limit - (clock.now() - started), 0.0),
                                                     answer)
        three = self.check_three_valued(scenario, source)
        if told is not None:
            told(three)
        asks = any(f.kind == "depends" for it in three.items for f in it.findings)
        per_part = self.in_parts if per_part is None else per_part
        completed = unknown_values(scenario, per_part) if asks else ()  # only where the rules ask for an unknown fact

        def count(facts: Sequence[OpenFact]) -> int:  # what one solve combines
            return most_in_a_part(scenario, facts) if per_part else combinations(facts)

        variants = Variants(self, scenario, source)
        attributed = asked_for_each(variants, [((), three)], completed)[0] if completed else {}
        asks_of = {f.name: {d.fact or "" for (_, name), found in attributed.items() if name == f.name for d in found}
                   for f in completed}
        candidates = completed
        completed = tuple(f for f in accepted(variants, [((), f, asks_of[f.name]) for f in candidates
                                                         if asks_of[f.name]]) if f is not None)
        completed = self._asked_under(variants, completed, candidates, attributed)
        asks = bool(completed)
        under = variants.each_value(completed)
        # the facts the rules find missing, on the facts given or under some value of an opened fact (a
        # bearer's own facts, or a later provision's, asked only once that bearer is chosen), round by round
        answers = [answer for _, _, answer in under]
        records = missing_records(self, scenario, three, source, also=answers, taken=count(completed))
        tried: set[str] = set()
        for _ in range(ASKED_UNDER_ROUNDS):
            fresh = [f for f in records.facts if not f.ranged and f.name not in tried] if records else []
            if records is None or not fresh:
                break
            tried.update(f.name for f in fresh)
            answers += [answer for _, _, answer in variants.each_value(fresh)]
            again = missing_records(self, scenario, three, source, also=answers, taken=count(completed))
            if again is None or {f.name for f in again.facts} == {f.name for f in records.facts} or \
                    count((*completed, *again.facts)) > MAX_COMBINATIONS:
                break  # nothing more, or too many to combine: the facts of the rounds before
            records = again
        if records is not None and count((*completed, *records.facts)) > MAX_COMBINATIONS:
            records = None
        if records is not None:  # a fact given as unknown the rules ask for only under some value of a missing one
            # (a place's fixed base, once the holding is connected with it): opened with them
            known = {f.name for f in completed}
            unasked = [f for f in unknown_values(records.scenario, per_part) if f.name not in known]
            if unasked:
                nested = self._asked_under(Variants(self, records.scenario, source), (*completed, *records.facts),
                                           unasked, attributed, three)[len(completed) + len(records.facts):]
                if nested and count((*completed, *records.facts, *nested)) <= MAX_COMBINATIONS:
                    completed = (*completed, *nested)
        ends = open_record_ends(self, records, source, taken=combinations(completed)) if records is not None \
            else None
        if records is None and not asks:
            return three  # the rules ask for none of the facts that could be opened
        target, extra, asked = (scenario, (), {}) if records is None else (records.scenario, records.facts,
                                                                          records.asked)
        for answer in answers:  # a fact found missing under some value: asked for by the items that find it
            for it in answer.items:
                for name, stands_for in asked.items():
                    given = {f for f in it.findings if f.kind == "missing" and f.fact in stands_for}
                    if given:
                        attributed.setdefault((it.item_id, name), set()).update(given)
        started = clock.now()
        try:
            parted = check_open_in_parts(self, target, source, limit, (*completed, *extra), three, asked,
                                         attributed) if self.in_parts else None
            if parted is None and combinations((*completed, *extra)) > MAX_COMBINATIONS:
                return self._check_open(scenario, source, time_limit, None, per_part=False)  # not in parts after all
            answer = parted if parted is not None else check_open(self, target, source, limit,
                                                                   (*completed, *extra), three, asked, attributed)
        except ScenarioError:  # values valid one by one that contradict each other: three-valued
            return three
        if answer.incomplete is None and _unbounded(answer):
            # a record whose ``direct`` is missing: held indirectly, the owner's direct holding is open too
            # with the other facts opened, else (too many combinations) with this pair's alone: a State whose bound
            # needs another's facts then finds none, and keeps the answer's
            chosen: dict[tuple[str, str], Any] = {}
            for branches in (indirect_branches(self, scenario, three, source, records),
                             indirect_branches(self, scenario, three, source)):
                for pair, made in branches.items():
                    branch = open_record_ends(self, made, source, taken=combinations(completed))  # an added end
                    if pair not in chosen and combinations((*completed, *branch.facts)) <= MAX_COMBINATIONS:
                        chosen[pair] = branch
            opened = (*completed, *(records.facts if records is not None else ()))
            for (holder, company), branch in chosen.items():
                try:
                    branched = check_open(self, branch.scenario, source, max(limit - (clock.now() - started), 0.0),
                                          (*completed, *branch.facts), three, branch.asked, attributed)
                except ScenarioError:
                    continue
                direct = tuple(f.name for f in opened if _of_pair(scenario, f.path, holder, company))
                answer = with_bounds(answer, branched, direct=direct)
        if ends is None or ends is records or answer.incomplete is not None:
            return answer
        try:
            ended = check_open(self, ends.scenario, source, max(limit - (clock.now() - started), 0.0),
                               (*completed, *ends.facts), three, ends.asked, attributed)
        except ScenarioError:
            return answer
        return with_bounds(answer, ended)

    def _records_beside_alternatives(self, scenario: Scenario, source: str, limit: float,
                                     answer: ScenarioResult) -> ScenarioResult:
        """``answer`` (of a scenario with facts given as alternatives) with each item the rules find missing a
        holding record or its share of the capital answered again with them opened over their values
        (:func:`~pyhelpers.engine.completion.missing_records`), as it is where no fact is given as alternatives:
        the items that ask for no added fact in common apart (:func:`~pyhelpers.engine.alternatives.parts_of`), the
        scenario's other items left out (each item's answer is the one it has alone in its scenario), the facts
        given as alternatives kept open, the added records' facts reported ``not_needed`` where no value of them
        changes the answer (blind59 D6). ``answer`` as it is where nothing is missing, the time limit cut it, or
        the records cannot be added; a group whose combinations exceed the limit, or that the time limit cuts, keeps
        its items' answers."""
        from pyhelpers.engine.alternatives import check_open, part_scenario, parts_of

        if answer.incomplete is not None:
            return answer
        wanting = {it.item_id for it in answer.items
                   if any(f.kind == "missing" and names_a_record(f.fact or "") for f in it.findings)}
        if not wanting:
            return answer
        index = {it.id: n for n, it in enumerate(scenario.income)}
        sub = part_scenario(scenario, Part(tuple(sorted(index[i] for i in wanting)), scenario.unknowns), source)
        asked = dataclasses.replace(answer, items=tuple(it for it in answer.items if it.item_id in wanting))
        records = missing_records(self, sub, asked, source, taken=combinations(critical.open_facts(self, sub)))
        if records is None:
            return answer
        records.scenario._open_facts = sub.open_facts  # (revalidated, it reads each at its first value)
        attributed = {(it.item_id, name): given for it in asked.items for name, stands_for in records.asked.items()
                      if (given := {f for f in it.findings if f.kind == "missing" and f.fact in stands_for})}
        started = clock.now()
        mine: dict[str, ItemResult] = {}
        unknowns = {u.fact: u for u in answer.unknowns}
        for members, facts in parts_of([it.item_id for it in asked.items], records.facts, attributed):
            target = records.scenario
            if len(members) < len(asked.items):
                target = part_scenario(target, Part(tuple(n for n, it in enumerate(target.income)
                                                          if it.id in members), target.unknowns), source)
            completed = (*unknown_values(target), *facts)
            if combinations((*critical.open_facts(self, target), *completed)) > MAX_COMBINATIONS:
                continue
            try:
                again = check_open(self, target, source, max(limit - (clock.now() - started), 0.0), completed,
                                   asked, {k: v for k, v in records.asked.items() if k in {f.name for f in facts}},
                                   {k: v for k, v in attributed.items() if k[0] in members})
            except ScenarioError:
                continue
            if again.incomplete is not None:
                continue  # what the answer without them proved stands
            mine.update((it.item_id, it) for it in again.items if it.item_id in members)
            for u in again.unknowns:
                known = unknowns.get(u.fact)
                unknowns[u.fact] = u if known is None else dataclasses.replace(
                    known, items=tuple(i.id for i in scenario.income if i.id in {*known.items, *u.items}))
        if not mine:
            return answer
        return dataclasses.replace(answer, items=tuple(mine.get(it.item_id, it) for it in answer.items),
                                   unknowns=tuple(unknowns.values()))

    def _asked_under(self, variants: Variants, opened: tuple[OpenFact, ...], candidates: Sequence[OpenFact],
                     attributed: dict[tuple[str, str], set[Finding]], base: ScenarioResult | None = None
                     ) -> tuple[OpenFact, ...]:
        """``opened`` with the unknown facts the rules ask for only under some value of an opened one
        (an agent's ordinary course once it is independent), found round by round (at most
        :data:`ASKED_UNDER_ROUNDS`); ``attributed`` gains their findings. With ``base`` (the answer with none of
        ``opened`` given), only values under which the rules ask what they do not ask in ``base`` are
        searched: a fact asked there already is asked outright, not under a value (the search solves each
        candidate under each value: 16 s for a shipped scenario of places and agents that asks nothing new)."""
        before = set() if base is None else {(it.item_id, f) for it in base.items for f in it.findings
                                             if f.kind == "depends"}
        for _ in range(ASKED_UNDER_ROUNDS):
            names = {f.name for f in opened}
            pending = [f for f in candidates if f.name not in names]
            if not pending:
                break
            asking: list[tuple[Choice, ScenarioResult]] = [
                (choice, three) for choice, _, three in variants.each_value(opened)
                if any(f.kind == "depends" and (it.item_id, f) not in before
                       for it in three.items for f in it.findings)]
            tried = []  # (values given, fact, what it asks, the findings of each fact) in the order of the values
            for (choice, _), more in zip(asking, asked_for_each(variants, asking, pending), strict=True):
                for g in pending:
                    asks = {d.fact or "" for (_, name), ds in more.items() if name == g.name for d in ds}
                    if asks:
                        tried.append((choice, g, asks, more))
            found: dict[str, OpenFact] = {}
            for (_, g, _, more), kept in zip(tried, accepted(variants, [(c, g, a) for c, g, a, _ in tried]),
                                             strict=True):
                if kept is not None and g.name not in found:
                    found[g.name] = kept
                    attributed.update({k: v for k, v in more.items() if k[1] == g.name})
            if not found:
                break
            opened = (*opened, *found.values())
        return opened

    def check_three_valued(self, scenario: Scenario, source: str = "<scenario>") -> ScenarioResult:
        """Evaluate ``scenario`` in one answer set: a fact given as ``unknown`` is answered three-valued by
        the rules (``depends``), alternatives at their first value."""
        facts = self.facts(scenario)
        groups = self.version_groups(scenario)
        if len(groups) == 1:
            versions = next(iter(groups))
            solved = run_clingo(self.logic.program_for_facts(scenario.treaty, facts, versions), facts)
            result = build_result(scenario, source, solved.symbols, self.receipt(facts))
            return self._labelled(result, {i.id: versions for i in scenario.income})
        items: dict[str, ItemResult] = {}
        atoms: list[str] = []
        for versions, group in groups.items():
            part = scenario.model_copy(update={"income": group})
            part_facts = self.facts(part)
            solved = run_clingo(self.logic.program_for_facts(scenario.treaty, part_facts, versions), part_facts)
            result = self._labelled(build_result(part, source, solved.symbols, self.receipt(part_facts)),
                                    {i.id: versions for i in group})
            items.update((it.item_id, it) for it in result.items)
            atoms += result.atoms
        whole = build_result(scenario, source, [], self.receipt(facts))
        return dataclasses.replace(whole, items=tuple(items[i.id] for i in scenario.income), atoms=tuple(atoms))

    def three_valued_together(self, variants: Sequence[Scenario], source: str = "<scenario>") -> list[ScenarioResult]:
        """:meth:`check_three_valued` of each of ``variants`` (of one treaty), in one clingo run when each
        falls under one version of the rules, the same for all (the scenario id, first argument of every
        predicate, keeps them apart, as in :meth:`check_together`): the results in order, equal to each
        alone. Completion solves a scenario once per value of each fact it may open; together, clingo's
        cost per run and per rule is paid once."""
        groups = [self.version_groups(v) for v in variants]
        kinds = {(v.treaty, next(iter(g))) for v, g in zip(variants, groups, strict=True) if len(g) == 1}
        if len(variants) < 2 or len(kinds) != 1 or any(len(g) != 1 for g in groups):
            return [self.check_three_valued(v, source) for v in variants]
        treaty, versions = next(iter(kinds))
        facts = [self.facts(v, f"s{n}") for n, v in enumerate(variants)]
        every = [f for fs in facts for f in fs]
        solved = run_clingo(self.logic.program_for_facts(treaty, every, versions), every)
        by_sid = _by_scenario(solved.symbols, alone=True)
        return [self._labelled(result_from_atoms(v, source, by_sid.get(f"s{n}", []), self.receipt(facts[n], f"s{n}")),
                               {i.id: versions for i in v.income}) for n, v in enumerate(variants)]

    def _labelled(self, result: ScenarioResult, versions: dict[str, tuple[str, ...]]) -> ScenarioResult:
        """Name on each item the amended versions that decided it."""
        if not self.logic.amendments:
            return result
        items = tuple(dataclasses.replace(it, version=tuple(self.version_label(v) for v in versions[it.item_id]))
                      for it in result.items)
        return dataclasses.replace(result, items=items)

    def version_label(self, relpath: str) -> str:
        a = self.logic.amendments[relpath]
        until = f" until {a.end.isoformat()}" if a.end != date.max else ""
        return f"{relpath.rsplit('/', 1)[1]}: {a.label}, from {a.start.isoformat()}{until}"

    def check_together(self, scenarios: Sequence[tuple[Scenario, str]]) -> list[ScenarioResult]:
        """Evaluate several scenarios in one clingo run per treaty (the scenario id, first argument of
        every predicate, keeps them apart); results in input order, equal to :meth:`check`'s."""
        results: list[ScenarioResult | None] = [None] * len(scenarios)
        by_treaty: dict[tuple[str, tuple[str, ...]], list[int]] = defaultdict(list)
        for n, (sc, source) in enumerate(scenarios):
            groups = self.version_groups(sc)
            if len(groups) > 1 or sc.unknowns:  # items under different versions, or alternatives: alone
                results[n] = self.check(sc, source)
                continue
            by_treaty[(sc.treaty, next(iter(groups)))].append(n)
        for (treaty, versions), indices in sorted(by_treaty.items()):
            facts = {n: self.facts(scenarios[n][0], f"s{n}") for n in indices}
            present = frozenset(f[: f.index("(")] for fs in facts.values() for f in fs)
            solved = run_clingo(self.logic.program_for(treaty, present, versions),
                                [f for fs in facts.values() for f in fs])
            by_sid = _by_scenario(solved.symbols)
            for n in indices:
                sc, source = scenarios[n]
                results[n] = result_named(self._labelled(
                    result_from_atoms(sc, source, by_sid.get(f"s{n}", []), self.receipt(facts[n], f"s{n}")),
                    {i.id: versions for i in sc.income}), sc)
        return [r for r in results if r is not None]

    def decide_items(self, context: Scenario, items: Sequence[IncomeItem], source: str = "<batch>",
                     memo: Memo | None = None, keys: Sequence[str | None] | None = None,
                     provenance: bool = True) -> list[ItemResult]:
        """Decide many income items against one context (the items must be of ``context.treaty`` and
        consistent with it): the results in order, equal to deciding each item alone with the context.

        Items whose facts are the same but for their id (the same payer, recipient, type, date and
        type-specific facts; amounts enter the logic only where a rule compares them) are decided once:
        the logic never sees the id, so one answer serves them all. Each item keeps its own id, gross
        amount, relief and withholding finding (computed in Python for each). With ``memo`` (one per
        context: a batch's) a case decided in an earlier call is not decided again, and facts are
        emitted only for one item of each :func:`~pyhelpers.facts.item_key` not seen before. ``keys``: the items'
        :func:`~pyhelpers.facts.item_key` where the caller knows it already (None: computed here), or any other text
        that items have in common only where their ``item_key`` is the same (a batch row's, from its shape:
        :class:`~pyhelpers.interfaces.batch.RowShapes`).

        Without ``provenance`` the results do not say which reconstructed provisions they rest on (an item's
        ``reconstructed`` and its compliance figure's are empty), and clingo is spared the rules that derive it
        (:meth:`~pyhelpers.engine.program.Logic.provenance`: for a treaty whose residence article is
        reconstructed, most of the rules an item grounds). A batch's records do not show it."""
        if not items:
            return []
        memo = memo if memo is not None else Memo()
        if memo.provenance is not provenance:  # its cases were decided with (or without) the provenance
            memo.cases.clear()
            memo.provenance = provenance
        groups: dict[tuple[str, ...], list[int]] = {}
        for n, it in enumerate(items):
            groups.setdefault(self.versions(context.treaty, it), []).append(n)
        if len(groups) > 1:
            out: list[ItemResult | None] = [None] * len(items)
            for indices in groups.values():
                for n, r in zip(indices, self.decide_items(context, [items[n] for n in indices], source, memo,
                                                           [keys[n] for n in indices] if keys is not None else None,
                                                           provenance), strict=True):
                    out[n] = r
            return [r for r in out if r is not None]
        versions = next(iter(groups))
        memo.make_room()
        treaty = context.treaty
        given = keys if keys is not None else [None] * len(items)
        keyed = [(treaty, versions, item_key(it) if k is None else k) for it, k in zip(items, given, strict=True)]
        cases: dict[str, Case] = {}  # this call's cases by signature (kept here: a memo may be cleared)
        fresh: dict[tuple[str, tuple[str, ...], str], IncomeItem] = {}  # one item per key not seen (or not decided)
        for key, it in zip(keyed, items, strict=True):
            sig = memo.signatures.get(key)
            case = memo.cases.get((treaty, versions, sig)) if sig is not None else None
            if case is None:
                fresh.setdefault(key, it)
            else:
                cases[sig] = case  # type: ignore[index]  # (sig is not None where case is not)
        shared: list[str] = []
        pending: dict[str, IncomeItem] = {}  # a representative of each case to decide
        if fresh:
            shared, own = self._split_facts(context.model_copy(update={"income": list(fresh.values())}))
            for key, it in fresh.items():  # the item's facts with its id (second argument) replaced by @
                sig = "\n".join(sorted(own[it.id]))
                memo.signatures[key] = sig
                if sig not in cases:
                    case = memo.cases.get((treaty, versions, sig))  # decided under another key (or its key forgotten)
                    if case is None:
                        pending.setdefault(sig, it)
                    else:
                        cases[sig] = case
        if pending:
            cases.update(self._decide_cases(context, versions, shared, pending, provenance, memo.read))
            memo.decided += len(pending)
            memo.cases.update(((treaty, versions, sig), case) for sig, case in cases.items())
        return [_named_row(_rebind(case.template, case.placeholder, it, context, case.atoms, case.relies, case.flags),
                           context, it, memo.fields)
                for key, it in zip(keyed, items, strict=True) for case in [cases[memo.signatures[key]]]]

    def case_of(self, memo: Memo, treaty: str, item: IncomeItem, key: str | None = None) -> Case | None:
        """The case ``memo`` holds for ``item`` of ``treaty`` (``key``: as :meth:`decide_items` was given it), None
        where it holds none (not decided, or forgotten)."""
        versions = self.versions(treaty, item)
        sig = memo.signatures.get((treaty, versions, item_key(item) if key is None else key))
        return None if sig is None else memo.cases.get((treaty, versions, sig))

    def _split_facts(self, scenario: Scenario) -> tuple[list[str], dict[str, list[str]]]:
        """The scenario's facts (id ``s``): those of no item, and each item's with its id replaced by @."""
        quoted = {quote(it.id): it.id for it in scenario.income}
        shared: list[str] = []
        own: dict[str, list[str]] = defaultdict(list)
        for f in self.facts(scenario, "s"):
            m = _SECOND_ARGUMENT.match(f)
            iid = quoted.get(m.group(1)) if m else None
            if m is None or iid is None:
                shared.append(f)
            else:
                own[iid].append(f[: m.start(1)] + "@" + f[m.end(1):])
        return shared, own

    def _decide_cases(self, context: Scenario, versions: tuple[str, ...], shared: list[str],
                      pending: dict[str, IncomeItem], provenance: bool = True,
                      read: ReadAtoms | None = None) -> dict[str, Case]:
        """Decide each case (an item's facts with its id as @, one text of lines, and a representative item) in one
        clingo run, each under a placeholder id. (In a case's facts ``("s", @`` is where each fact's second argument
        was, and nowhere else: an id became @ only there, no fact has @ but in a string, and in a string a quote is
        escaped, so ``("`` is never in one: replacing every ``("s", @`` replaces each fact's.)"""
        prefix = "@" * (max(self._program_ats, _longest_ats([*shared, *pending])) + 1)
        placeholders = {sig: f"{prefix}item-{k}" for k, sig in enumerate(pending)}
        rep_facts = list(shared)
        for sig, placeholder in placeholders.items():
            rep_facts.append(sig.replace('("s", @', f'("s", {quote(placeholder)}'))
        present = frozenset(f[: f.index("(")] for text in rep_facts for f in text.split("\n"))
        solved = run_clingo(self.logic.parsed_program_for(context.treaty, present, versions, provenance), rep_facts,
                            sort=False, narrow=False)
        atoms = read_symbols(solved.symbols)
        by_item: dict[Value, list[Term]] = defaultdict(list)
        for atom in atoms:
            if len(atom.args) >= 2 and atom.name != RELIES:
                by_item[atom.args[1]].append(atom)
        relies = reliance(atoms)
        states = catalogue().states[context.treaty]
        # each case's result without the figures of its representative's amounts (_rebind makes each row's)
        templates = [item_template(context.treaty, states, pending[sig], by_item[ph], relies, ph, read)
                     for sig, ph in placeholders.items()]
        if self.logic.amendments:
            label = tuple(self.version_label(v) for v in versions)
            templates = [dataclasses.replace(t, version=label) for t in templates]
        # a case keeps its atoms where _rebind reads them (a relief's figures, what a compliance figure rests on)
        return {sig: Case(template, ph, by_item[ph] if template.relief is not None or relies else _NO_ATOMS, relies)
                for template, (sig, ph) in zip(templates, placeholders.items(), strict=True)}

    def check_many(self, scenarios: Iterable[Scenario | tuple[Scenario, str]], workers: int = 1,
                   chunk: int = 100) -> Iterator[ScenarioResult]:
        """Evaluate many scenarios, ``chunk`` at a time in one clingo run, on ``workers`` processes; a
        generator of results in input order. (A forked worker inherits the parsed rule base; a spawned
        one gets this checker pickled as its spec and loads the rule base once, :func:`_start_worker`.)"""
        pairs = ((s, "<scenario>") if isinstance(s, Scenario) else s for s in scenarios)
        chunks = _chunked(pairs, chunk)
        if workers <= 1:
            for part in chunks:
                yield from self.check_together(part)
            return
        from pyhelpers.base import processes

        with processes.context().Pool(workers, initializer=_start_worker, initargs=(self.warm(),)) as pool:
            for results in pool.imap(_check_chunk_in_worker, chunks):
                yield from results

    @cached_property
    def _program_ats(self) -> int:
        """The longest run of ``@`` in the rules' text (:func:`_longest_ats`)."""
        return _longest_ats([self.logic.program])

    def receipt(self, facts: Sequence[str], sid: str = "s") -> Receipt:
        """Hashes of the rule base and of the scenario's facts (written with the scenario id ``s``, so a
        scenario checked alone or in a batch has the same receipt), and the versions."""
        if sid != "s":
            prefix, canonical = f'("{sid}"', '("s"'
            facts = [f.replace(prefix, canonical, 1) for f in facts]
        return Receipt(
            package_version=package_version(),
            clingo_version=clingo.__version__,
            logic_sha256=self.logic.digest,
            facts_sha256=hashlib.sha256("\n".join(facts).encode("utf-8")).hexdigest(),
        )


_NO_ATOMS: list[Term] = []
"""The atoms of a case whose rows' figures read none (never changed)."""
_SECOND_ARGUMENT = re.compile(r'^[a-z_]\w*\("s", ("(?:[^"\\]|\\.)*")')
_ATS = re.compile("@+")


def _longest_ats(texts: Sequence[str]) -> int:
    """The longest run of ``@`` in ``texts`` (at least 1). :meth:`Checker._decide_cases` decides each case under a
    placeholder id made of one more ``@`` then ``item-`` and a number, so that no string of the facts or of the
    rules holds it (each may be or name an id; no id, nor any string, is another's placeholder or holds one) and
    the findings' facts sort as under any longer run (an earlier version's 201 ``@``, longer than any valid id:
    every fact and every atom of a case carried them, to be parsed, hashed and read)."""
    text = "\n".join(texts)
    if "@@" not in text:
        return 1
    return max(map(len, _ATS.findall(text)))


def _named_row(result: ItemResult, context: Scenario, item: IncomeItem,
               names: dict[tuple[str, str, tuple[bool, ...]], str | None] | None = None) -> ItemResult:
    """A batch row's result with the fields of its open facts named in the row's scenario (the context
    with the row's item alone, as ``treaty explain-row`` checks it); with ``names``, each field found once
    for the rows it is the same for (:func:`~pyhelpers.engine.fields.row_named`)."""
    if not any(f.kind in FIELD_KINDS for f in result.findings) and not any(a.finding for a in result.alternatives):
        return result
    if names is not None:
        return row_named(result, context, item, names)
    return item_named(result, context.model_copy(update={"income": [item]}))


def _rebind(template: ItemResult, placeholder: str, item: IncomeItem, scenario: Scenario,
            atoms: list[Term], relies: dict[Term, set[str]],
            flags: dict[str, tuple[str, ...]] | None = None) -> ItemResult:
    """The result decided under ``placeholder``, for ``item``: its id, its amounts, its findings
    (``flags``: the case's reconstructed provisions of a compliance figure by State, filled as found)."""
    findings = rebound_findings(template, placeholder, item.id)
    gross, currency = (item.gross.amount, item.gross.currency) if item.gross else (None, None)
    result = _with(template, item_id=item.id, findings=findings, gross=gross, currency=currency,
                   limited_amount=limited_part(item, template.limited_to))
    if template.relief is not None:
        result.__dict__["relief"] = compute_relief(item, template.max_rate_bp, atoms, result)
    result.__dict__["max_source_tax"] = max_source_tax(result)  # (a new object of this function's: no one else sees it)
    compliance = compute_compliance(scenario, item, result)
    if compliance is not None:
        state = compliance.state
        reconstructed = flags.get(state) if flags is not None else None
        if reconstructed is None:
            reconstructed = compliance_reliance(state, atoms, relies)
            if flags is not None:
                flags[state] = reconstructed
        compliance = _replaced(compliance, reconstructed=reconstructed)
    result.__dict__["compliance"] = compliance
    return result


def rebound_findings(template: ItemResult, placeholder: str, item_id: str) -> tuple[Finding, ...]:
    """The findings of a case's result decided under ``placeholder``, for the item ``item_id`` (:func:`_rebind`)."""
    return tuple(replaced(f, fact=f.fact.replace(placeholder, item_id)) if f.fact and placeholder in f.fact else f
                 for f in template.findings)


def rebound_for(template: ItemResult, placeholder: str, item_id: str) -> ItemResult:
    """What :func:`named_row` reads of :func:`_rebind`'s result for an item of the case whose id is ``item_id``: the
    template with its id and findings (its amounts, relief and compliance figure are the template's)."""
    return _with(template, item_id=item_id, findings=rebound_findings(template, placeholder, item_id))


def named_row(result: ItemResult, context: Scenario, item: IncomeItem,
              names: dict[tuple[str, str, tuple[bool, ...]], str | None]) -> ItemResult:
    """:func:`_named_row` with the fields found once per context (``names``: a batch memo's ``fields``)."""
    return _named_row(result, context, item, names)


def _replaced(compliance: Compliance, **changes: object) -> Compliance:
    """``dataclasses.replace`` of a compliance figure without calling ``__init__`` again (a plain frozen
    dataclass), once per batch row."""
    out = object.__new__(Compliance)
    out.__dict__.update(compliance.__dict__)
    out.__dict__.update(changes)
    return out


def _with(result: ItemResult, **changes: object) -> ItemResult:
    """``dataclasses.replace`` without calling ``__init__`` again (a plain frozen dataclass: no
    ``__post_init__``, no slots), three times per batch row: the new fields are the template's own types."""
    out = object.__new__(ItemResult)
    out.__dict__.update(result.__dict__)
    out.__dict__.update(changes)
    return out


_LOADED: dict[tuple[str, bool], Checker] = {}
"""The checkers unpickled in this process, by spec: each rule base is loaded once per process."""


def checker_for(root: str, strict: bool) -> Checker:
    """The checker of the rule base in ``root`` (``strict`` or not), loaded once in this process (what a
    pickled :class:`Checker` becomes in a spawned worker)."""
    key = (root, strict)
    checker = _LOADED.get(key)
    if checker is None:
        logic = next((c.logic for (r, _), c in _LOADED.items() if r == root), None)
        checker = _LOADED[key] = Checker(logic or load_logic(Path(root)), strict)
    return checker


def loaded(checker: Checker) -> Checker:
    """``checker`` as :func:`checker_for` gives it in this process and in the children forked from it (a
    pickled checker there is this one, not the rule base loaded again)."""
    return _LOADED.setdefault((str(checker.logic.root), checker.strict), checker)


_WORKER_CHECKER: Checker | None = None
"""The checker of a worker process of :meth:`Checker.check_many`."""


def _start_worker(checker: Checker) -> None:
    """A pool's initializer: the worker's checker (inherited warm under ``fork``; under ``spawn`` loaded
    once, what it derives computed when first needed)."""
    global _WORKER_CHECKER
    _WORKER_CHECKER = checker


def _check_chunk_in_worker(part: list[tuple[Scenario, str]]) -> list[ScenarioResult]:
    assert _WORKER_CHECKER is not None
    return _WORKER_CHECKER.check_together(part)


T = TypeVar("T")


def _chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    part: list[T] = []
    for x in items:
        part.append(x)
        if len(part) >= size:
            yield part
            part = []
    if part:
        yield part


def _unbounded(answer: ScenarioResult) -> bool:
    """Whether some State of some item of ``answer`` is undetermined with no bound (what
    :func:`~pyhelpers.engine.alternatives.with_bounds` may fill in)."""
    return any(s.outcome == "undetermined" and s.at_most_bp is None and not s.may_tax_always
               for it in answer.items for s in it.states)
