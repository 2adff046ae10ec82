"""`treaty whatif`: the smallest changes to a scenario's facts that make a goal hold (issue 7).

The facts whatif may change are those the scenario marks ``{value: X, changeable: [...]}`` (or
``changeable: true``: whatif picks the alternatives); when none is marked, every fact that is not an
identity (ids, parties, dates, amounts) and whose alternatives can be listed: booleans, the values of an
enumeration, and percentages (the treaty's cited thresholds and one basis point below each).

Each changeable fact becomes a choice among its values (the stated one first); the facts of every
combination come from the audited fact functions (:func:`pyhelpers.alternatives.open_program`). A
query-time rule ``_goal :- <goal>.``, the constraint ``:- not _goal.`` and
``#minimize { 1,F : _value(S, F, V), _changeable(S, F), V != 0 }`` make clingo find the combinations that
change the fewest facts; all optimal ones are listed (``optN``). Unknown facts (``one_of``, ``between``)
stay unknown: each solution is then re-checked with brave and cautious consequences and says whether
the goal holds whatever the unknowns (certain) or only for some of their values (possible). Where no
change reaches the goal, the caller shows the why-not explanation of the goal on the scenario as stated
(:func:`pyhelpers.explain.explainer.why_not_goal`), which names the provisions that block it.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import clingo
from clingo import ast

from pyhelpers.base import clock
from pyhelpers.base.errors import InputError, ScenarioError
from pyhelpers.engine import critical
from pyhelpers.engine.alternatives import _CHOICE, DEFAULT_TIME_LIMIT, SID, _solve, open_program, part_scenario
from pyhelpers.engine.bounded import Bounded, run_bounded
from pyhelpers.engine.domains import leaf_annotation, value_choices
from pyhelpers.engine.query import Query, parse_query
from pyhelpers.engine.results import Cut, Incomplete, ScenarioResult
from pyhelpers.facts.emit import conditional_fact, open_option, quote, term
from pyhelpers.scenario import Scenario, openfacts
from pyhelpers.scenario.openfacts import OpenFact
from pyhelpers.scenario.problems import field_path

MAX_SOLUTIONS = 20
"""At most this many smallest changes are listed."""

MAX_EXACT = 1024
"""Up to this many combinations of the open facts' values, every combination's facts are computed;
beyond, each fact's alternatives are computed alone (their effects assumed independent) and every
solution is verified exactly before it is shown."""

_IDENTITY = frozenset({
    "id", "name", "description", "holder", "company", "payer", "recipient", "beneficial_owner", "owner", "person",
    "treaty", "evaluation_date", "kind", "government_of", "currency", "amount", "from", "until", "date", "items",
    "state", "expect", "gross", "withheld", "domestic_rate", "withheld_rate",
})


@dataclass(frozen=True)
class Change:
    fact: str
    before: str
    after: str
    field: str = ""  # where the scenario states the fact (``holdings[0].capital``), as the YAML writes it

    def __str__(self) -> str:
        return f"{self.fact}: {self.before} -> {self.after}"


@dataclass(frozen=True)
class Solution:
    """One smallest set of changes, and the scenario's result with them."""

    changes: tuple[Change, ...]
    result: ScenarioResult
    certain: bool  # the goal holds whatever the values of the unknown facts (always, without unknowns)


@dataclass(frozen=True)
class WhatIf:
    goal: str
    considered: tuple[str, ...]  # the facts whatif may change, each with its values
    holds_already: bool
    solutions: tuple[Solution, ...]
    no_solution: bool = False  # searched to the end (or the time limit) and no change reaches the goal
    incomplete: Incomplete | None = None  # why the search was cut short (the time limit), if it was
    fields: tuple[str, ...] = ()  # where the scenario states each fact of ``considered`` (its YAML path)


def auto_changeable(scenario: Scenario, thresholds: list[str], only: set[tuple[Any, ...]] | None = None
                    ) -> list[OpenFact]:
    """Changeable facts chosen by whatif: at ``only``'s paths, or every non-identity fact with listable values."""
    data = scenario._plain_data if scenario._plain_data is not None else scenario.model_dump(
        mode="json", by_alias=True, exclude_none=True, exclude_defaults=True)
    found: list[OpenFact] = []

    def visit(node: Any, path: tuple[Any, ...]) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                visit(v, (*path, k))
        elif (isinstance(node, list) and path and path[-1] in ("holdings", "income", "presence")) or \
                (isinstance(node, list) and path and isinstance(path[-1], str) and node and isinstance(node[0], dict)):
            for n, v in enumerate(node):
                visit(v, (*path, n))
        elif not isinstance(node, list) and path and (only is None or path in only):
            if only is None and (not isinstance(path[-1], str) or path[-1] in _IDENTITY or path[0] == "expect"):
                return
            values = value_choices(leaf_annotation(path), node, thresholds)
            if values:
                given = node
                if isinstance(node, (int, float)) and not isinstance(node, bool) and \
                        all(isinstance(v, str) and v.endswith("%") for v in values):
                    given = f"{node}%"  # a percentage written as a bare number: shown as its alternatives are
                found.append(OpenFact(path, openfacts.readable_name(data, path), "changeable", (given, *values)))

    visit(data, ())
    return found


def _goal_rule(query: Query) -> Any:
    loc = query.pattern.location
    head = ast.Literal(loc, ast.Sign.NoSign, ast.SymbolicAtom(ast.Function(loc, "_goal", [], False)))
    body = [ast.Literal(loc, ast.Sign.NoSign, ast.SymbolicAtom(query.pattern)),
            *(ast.Literal(loc, ast.Sign.NoSign, t) for t in query.tests)]
    return ast.Rule(loc, head, body)


def _control(checker: Any, scenario: Scenario, source: str, chosen: list[OpenFact], query: Query,
             extra: str) -> clingo.Control:
    prog = open_program(checker, scenario, source, chosen)
    return _ground(prog.rules + "\n" + extra, prog.facts, query)


def _ground(rules: str, facts: Sequence[str], query: Query) -> clingo.Control:
    """A grounded Control of ``rules``, ``facts`` and the goal rule ``_goal :- <query>.``"""
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], rules)
    ctl.add("base", [], "\n".join(facts))
    with ast.ProgramBuilder(ctl) as builder:
        builder.add(_goal_rule(query))
    ctl.ground([("base", [])])
    return ctl


def goal_status(checker: Any, scenario: Scenario, source: str, query: Query, deadline: float
                ) -> tuple[bool, bool] | None:
    """Whether the goal holds on ``scenario`` (its unknown facts open): (certainly, possibly); None past
    the deadline."""
    ctl = _control(checker, scenario, source, list(critical.open_facts(checker, scenario)), query, "#show _goal/0.")
    brave = _solve(ctl, "brave", [], deadline)
    cautious = _solve(ctl, "cautious", [], deadline)
    if brave is None or cautious is None:
        return None
    return "_goal" in cautious, "_goal" in brave


def whatif(checker: Any, scenario: Scenario, source: str, goal: str, time_limit: float = DEFAULT_TIME_LIMIT
           ) -> WhatIf:
    """Find the smallest changes of the changeable facts that make ``goal`` hold (module doc). The search
    (grounding included, which clingo cannot interrupt) runs in a child process stopped at the time
    limit (:mod:`pyhelpers.engine.bounded`): the solutions verified by then are kept, and the answer
    says it is incomplete."""
    deadline = clock.now() + time_limit
    parse_query(goal, checker.logic, SID)  # a bad goal is refused here, before a child is started
    original, scenario = scenario, _goal_part(checker, scenario, source, goal)
    thresholds = list(checker.cited_percentages(scenario.treaty))
    marked = [f for f in scenario.open_facts if f.kind == "changeable"]
    changeable: list[OpenFact] = []
    for f in marked:
        if f.auto:
            changeable += auto_changeable(scenario, thresholds, {f.path})
        else:
            changeable.append(f)
    if not marked:
        changeable = auto_changeable(scenario, thresholds)
    if not changeable and marked:
        raise InputError(f"{source}: no alternatives can be listed for the facts marked changeable: give them as "
                         "{value: X, changeable: [A, B]}")
    considered = tuple(f"{f.name}: {', '.join(f.show(i) for i in range(len(f.values)))}" for f in changeable)
    fields = tuple(_yaml_path(f.path, scenario, original) for f in changeable)

    search = functools.partial(_search_goal, checker, scenario, source, goal, changeable, considered,
                               deadline - clock.now(), time_limit)  # module-level: it pickles for a spawned child
    run: Bounded[WhatIf, Solution] = run_bounded(search, deadline + _GRACE)
    found = run.value if run.value is not None else WhatIf(goal, considered, False, tuple(run.emitted),
                                                             incomplete=_late(time_limit))
    return _with_fields(found, {f.name: field for f, field in zip(changeable, fields, strict=True)})


def _yaml_path(path: tuple[Any, ...], part: Scenario, whole: Scenario) -> str:
    """Where the scenario ``whole`` states the fact at the loader's ``path`` of ``part`` (``whole`` or the part of
    its items the goal names: an item's index is its index in ``whole``), as the YAML writes it
    (``holdings[0].capital``)."""
    if part is not whole and len(path) > 1 and path[0] == "income" and isinstance(path[1], int):
        item = part.income[path[1]].id
        path = ("income", next(n for n, it in enumerate(whole.income) if it.id == item), *path[2:])
    return field_path(path)


def _with_fields(w: WhatIf, fields: dict[str, str]) -> WhatIf:
    """``w`` with where the scenario states each fact it may change and each change (:func:`_yaml_path`)."""
    def named(s: Solution) -> Solution:
        return replace(s, changes=tuple(replace(c, field=fields.get(c.fact, "")) for c in s.changes))

    return replace(w, fields=tuple(fields.get(c.partition(": ")[0], "") for c in w.considered),
                   solutions=tuple(map(named, w.solutions)))


def _goal_part(checker: Any, scenario: Scenario, source: str, goal: str) -> Scenario:
    """``scenario``, or, where its alternatives are too many to combine in one solve and its items are decided in
    parts (:func:`~pyhelpers.scenario.openfacts.parts`), the part of the items the goal names
    (:func:`~pyhelpers.engine.alternatives.part_scenario`): the goal reads those items only. A goal naming items
    of several such parts, or none, is refused."""
    if not scenario.unknowns or len(scenario.income) < 2:
        return scenario
    data = scenario._plain_data if scenario._plain_data is not None else scenario.model_dump(
        mode="json", by_alias=True, exclude_unset=True)
    reduced = critical.open_facts(checker, scenario)
    every = [p for p in openfacts.parts(data, reduced) if p.items]
    if len(every) < 2 or math.prod(len(f.values) for f in reduced) <= openfacts.MAX_COMBINATIONS:
        return scenario
    named = [p for p in every if any(quote(scenario.income[n].id) in goal for n in p.items)]
    if len(named) != 1:
        groups = "; ".join(", ".join(scenario.income[n].id for n in p.items) for p in every)
        raise InputError(f"{source}: the unknown facts' alternatives are too many to combine in one search; the "
                         f"goal must name the items of one part, decided together ({groups})")
    return part_scenario(scenario, named[0], source)


_GRACE = 0.25
"""Seconds the search may take past the deadline to stop on its own (its solves are interrupted at
the deadline) before it is killed (it is grounding)."""


def _search_goal(checker: Any, scenario: Scenario, source: str, goal: str, changeable: list[OpenFact],
                 considered: tuple[str, ...], budget: float, time_limit: float, emit: Callable[[Solution], None]
                 ) -> WhatIf:
    """:func:`_search` of ``goal`` parsed where it runs (a query holds clingo's AST, which does not pickle),
    within ``budget`` seconds of CPU time from now (a child's work clock starts anew)."""
    deadline = clock.now() + budget
    query = parse_query(goal, checker.logic, SID)
    return _search(checker, scenario, source, goal, query, changeable, considered, deadline, time_limit, emit)


def _search(checker: Any, scenario: Scenario, source: str, goal: str, query: Query, changeable: list[OpenFact],
            considered: tuple[str, ...], deadline: float, time_limit: float, emit: Callable[[Solution], None]
            ) -> WhatIf:
    """The search of :func:`whatif`, each verified solution also passed to ``emit`` as it is found."""
    unknowns = list(critical.open_facts(checker, scenario))  # a date range or unknown date: its critical dates
    holds = goal_status(checker, scenario, source, query, deadline)
    if holds is None:
        return WhatIf(goal, considered, False, (), incomplete=_late(time_limit))
    if holds[0]:
        return WhatIf(goal, considered, True, ())
    chosen = changeable + unknowns
    size = 1
    for f in chosen:
        size *= len(f.values)
    exact = size <= MAX_EXACT
    if exact:
        ctl = _control(checker, scenario, source, chosen, query, _OPTIMISE + _marks(len(changeable)))
    else:
        ctl = _separable_control(checker, scenario, source, changeable, query)
    found, complete = _optimal(ctl, len(changeable), deadline)
    solutions: list[Solution] = []
    for assignment in found:
        choice = {f.path: f.values[v] for f, v in zip(changeable, assignment, strict=True) if v}
        try:
            variant = scenario.with_values(choice, source, keep_unknown=True)
        except ScenarioError:
            continue  # a combination the loader refuses (e.g. two facts that contradict): not a solution
        status = goal_status(checker, variant, source, query, deadline) if (unknowns or not exact) else (True, True)
        if status is None:
            complete = False
            break
        if not status[1]:
            continue
        changes = tuple(Change(f.name, f.show(0), f.show(v)) for f, v in zip(changeable, assignment, strict=True) if v)
        result = checker.check(variant, source, max(0.0, deadline - clock.now()))
        solutions.append(Solution(changes, result, status[0]))
        emit(solutions[-1])
        if result.incomplete is not None:  # the outcome with this change was cut short (it says so)
            complete = False
        if len(solutions) >= MAX_SOLUTIONS or not complete:
            break
    return WhatIf(goal, considered, False, tuple(solutions), not solutions and complete,
                  None if complete else _late(time_limit))


def _late(time_limit: float) -> Incomplete:
    return Incomplete(Cut.SEARCH, time_limit)


_OPTIMISE = """
:- not _goal.
#minimize { 1,F : _value(S, F, V), _changeable(S, F), V != 0 }.
#show _value/3.
"""


def _marks(n: int) -> str:
    return "\n".join(f"_changeable({quote(SID)}, {term(f)})." for f in range(n))


def _optimal(ctl: clingo.Control, n: int, deadline: float) -> tuple[list[tuple[int, ...]], bool]:
    """The assignments of the first ``n`` open facts in the optimal models (distinct, in order)."""
    ctl.configuration.solve.opt_mode = "optN"  # type: ignore[union-attr]
    ctl.configuration.solve.models = 0  # type: ignore[union-attr]
    found: dict[tuple[int, ...], None] = {}

    def on_model(model: clingo.Model) -> None:
        if not model.optimality_proven:
            return
        values = [0] * n
        for sym in model.symbols(shown=True):
            if sym.name == "_value" and len(sym.arguments) == 3 and sym.arguments[1].number < n:
                values[sym.arguments[1].number] = sym.arguments[2].number
        found.setdefault(tuple(values), None)

    if deadline <= clock.now():
        return [], False
    with ctl.solve(on_model=on_model, async_=True) as handle:
        complete = clock.wait(handle, deadline)
        if not complete:
            handle.cancel()
        handle.get()
    return sorted(found), complete


def _separable_control(checker: Any, scenario: Scenario, source: str, changeable: list[OpenFact],
                       query: Query) -> clingo.Control:
    """Too many combinations: each changeable fact's alternatives computed alone against the stated
    scenario; a fact of the stated scenario that a value removes holds only if no chosen value removes
    it, one that a value adds holds if that value is chosen. (Solutions are verified exactly.)"""
    base = set(checker.facts(scenario.with_values({}, source), SID))
    added: dict[str, list[tuple[int, int]]] = {}
    removed: dict[str, list[tuple[int, int]]] = {}
    for f, fact in enumerate(changeable):
        for v in range(1, len(fact.values)):
            try:
                variant = set(checker.facts(scenario.with_values({fact.path: fact.values[v]}, source), SID))
            except ScenarioError:
                continue
            for t in variant - base:
                added.setdefault(t, []).append((f, v))
            for t in base - variant:
                removed.setdefault(t, []).append((f, v))
    lines = sorted(t for t in base if t not in removed)
    for t, pairs in sorted(removed.items()):
        lines.append(conditional_fact(t, SID, (), tuple(pairs)))
    for t, pairs in sorted(added.items()):
        lines += [conditional_fact(t, SID, (pair,)) for pair in pairs]
    lines += [open_option(SID, f, v) for f, fact in enumerate(changeable) for v in range(len(fact.values))]
    present = frozenset(t[: t.index("(")] for t in base | set(added))
    rules = checker.logic.program_for(scenario.treaty, present, provenance=False)
    return _ground(rules + "\n" + _CHOICE + _OPTIMISE + _marks(len(changeable)), lines, query)
