"""A check bounded by its time limit, grounding included, and large scenarios in slices (issue 26, item 5).

:meth:`Checker.check <pyhelpers.engine.solve.Checker.check>` bounds only its solves (clingo can
interrupt a search, not a grounding). :func:`check_within` runs the check in a child process (forked, or
spawned where ``fork`` is not used)
(:mod:`pyhelpers.engine.bounded`) stopped at the limit, so a grounding that outlasts the limit is cut
too: the items it had not decided are then reported with the finding ``time_limit`` and the result is
``incomplete``, never a complete answer. The limit is measured in CPU time of the work
(:mod:`pyhelpers.base.clock`), so that load does not change the answer; the result says how long the
check ran in wall-clock time and how much CPU time it had.

A scenario of more than :data:`~pyhelpers.scenario.limits.SLICE_ITEMS` items (and no open facts) is checked in slices of
that many items (the items are independent of each other; each slice carries all the persons, holdings
and places), each within the time limit, reporting its progress after each slice; above
:data:`~pyhelpers.scenario.limits.MAX_ITEMS` items or :data:`~pyhelpers.scenario.limits.MAX_PERSONS`
persons it is refused (:func:`~pyhelpers.scenario.limits.refuse_oversized`).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any

from pyhelpers.base import clock
from pyhelpers.engine.alternatives import DEFAULT_TIME_LIMIT, proven_at_cut
from pyhelpers.engine.answers import result_from_atoms
from pyhelpers.engine.bounded import Bounded, run_bounded
from pyhelpers.engine.fields import result_named
from pyhelpers.engine.results import Cut, Finding, Incomplete, ScenarioResult, UnknownFact
from pyhelpers.scenario import IncomeItem, Scenario
from pyhelpers.scenario.limits import SLICE_ITEMS, refuse_oversized

GRACE = 0.25
"""Seconds a check may take past its time limit to stop on its own (its solves are interrupted at the
limit) before it is killed (it is grounding); at most the limit itself."""

BUSY = 0.5
"""Below this share of CPU time in the wall-clock time the check ran, the machine is said to have been busy."""

CUT = "check"
"""The ``fact`` of the finding ``time_limit`` of an item the time limit left undecided, the check cut."""

CUT_PROVEN = "check_proven"
"""The same, where the check had found the scenario's three-valued answer before it was cut (kept)."""

MEANINGFUL = 0.1
"""Below this many seconds of wall-clock time, whether the machine was busy is not said (too short to tell)."""

Progress = Callable[[int, int], None]
"""Told ``(items checked, items in all)`` after each slice."""


def check_within(checker: Any, scenario: Scenario, source: str = "<scenario>",
                 time_limit: float = DEFAULT_TIME_LIMIT, progress: Progress | None = None) -> ScenarioResult:
    """:meth:`Checker.check` bounded by ``time_limit`` seconds of CPU time (:mod:`pyhelpers.base.clock`),
    grounding included (per slice of :data:`SLICE_ITEMS` items for a larger scenario; see the module doc)."""
    refuse_oversized({"income": scenario.income, "persons": dict(scenario.persons)}, source)
    _ = checker.declared  # read once here (from the disk cache), not again in each child
    items = scenario.income
    slices = [items[k:k + SLICE_ITEMS] for k in range(0, len(items), SLICE_ITEMS)] \
        if len(items) > SLICE_ITEMS and not scenario.open_facts else [items]
    parts: list[ScenarioResult] = []
    done = 0
    for part in slices:
        sub = scenario if len(slices) == 1 else _slice(scenario, part)
        run: Bounded[ScenarioResult, ScenarioResult] = run_bounded(
            functools.partial(_check, checker, sub, source, time_limit),
            clock.now() + time_limit + min(GRACE, time_limit))
        parts.append(_measured(run, checker, sub, source, time_limit))
        done += len(part)
        if progress is not None:
            progress(done, len(items))
    if len(parts) == 1:
        return parts[0]
    return result_named(_merged(checker, scenario, parts), scenario)  # the items' fields in the whole scenario


def _check(checker: Any, scenario: Scenario, source: str, time_limit: float,
           emit: Callable[[ScenarioResult], None]) -> ScenarioResult:
    """The bounded work of :func:`check_within` (a module-level function: it pickles for a spawned child); it
    emits the scenario's three-valued answer once found, which a check stopped later keeps."""
    return checker.check(scenario, source, time_limit, three_valued=emit)  # type: ignore[no-any-return]


def _slice(scenario: Scenario, items: list[IncomeItem]) -> Scenario:
    """``scenario`` with only ``items`` (a scenario without open facts: their paths index its items)."""
    sub = scenario.model_copy(update={"income": items})
    sub._plain_data = None  # the document of the whole scenario: not this one's
    return sub


def _measured(run: Bounded[ScenarioResult, ScenarioResult], checker: Any, scenario: Scenario, source: str,
              limit: float) -> ScenarioResult:
    """The result of ``run``: the check's own if it finished (its ``incomplete`` reason, if any, with the
    time measured); else, where the check had found the scenario's three-valued answer, what that answer
    proved (:func:`~pyhelpers.engine.alternatives.proven_at_cut`: a missing fact stays missing, each State's
    outcome it gives stands); else every item cut by the time limit."""
    if run.value is not None:
        result = run.value
        if result.incomplete is None:
            return result
        return dataclasses.replace(result, incomplete=_measures(result.incomplete, run))
    reason = _measures(Incomplete(Cut.CHECK, limit), run)
    if run.emitted:
        three = run.emitted[-1]
        return dataclasses.replace(three, items=tuple(proven_at_cut(it, CUT_PROVEN) for it in three.items),
                                   incomplete=dataclasses.replace(reason, proven=True))
    cut = result_from_atoms(scenario, source, [], checker.receipt(checker.facts(scenario)))
    late = Finding("time_limit", scenario.treaty, CUT)
    items = tuple(dataclasses.replace(it, status="depends", findings=(*it.findings, late)) for it in cut.items)
    return dataclasses.replace(cut, items=items, incomplete=reason)


def _measures(reason: Incomplete, run: Bounded[Any, Any]) -> Incomplete:
    """``reason`` with how long the work ran, in wall-clock and CPU time, and whether the machine was busy."""
    if run.cpu is None:
        return dataclasses.replace(reason, wall_seconds=_rounded(run.wall))
    busy = run.wall >= MEANINGFUL and run.cpu < BUSY * run.wall
    return dataclasses.replace(reason, wall_seconds=_rounded(run.wall), cpu_seconds=_rounded(run.cpu), busy=busy)


def _rounded(seconds: float) -> float:
    """Seconds as they are said: to the tenth from one second on, to the millisecond below."""
    return round(seconds, 1 if seconds >= 1 else 3)


def _merged(checker: Any, scenario: Scenario, parts: list[ScenarioResult]) -> ScenarioResult:
    """The results of the slices of ``scenario`` as one: the items in order, the questions about persons
    and the unknown facts once each, the first reason for being incomplete, the receipt of the whole."""
    first = parts[0]
    answers = {a.question: a for p in parts for a in p.answers}
    unknowns: dict[str, UnknownFact] = {}
    for p in parts:
        for u in p.unknowns:
            known = unknowns.get(u.fact)
            unknowns[u.fact] = u if known is None else dataclasses.replace(known, items=(*known.items, *u.items))
    reasons = [p.incomplete for p in parts if p.incomplete is not None]
    incomplete = None if not reasons else reasons[0] if len(reasons) == 1 else \
        dataclasses.replace(reasons[0], more_slices=len(reasons) - 1, slice_items=SLICE_ITEMS)
    return dataclasses.replace(first, items=tuple(it for p in parts for it in p.items),
                               receipt=checker.receipt(checker.facts(scenario)),
                               atoms=tuple(dict.fromkeys(a for p in parts for a in p.atoms)),
                               unknowns=tuple(unknowns.values()), incomplete=incomplete,
                               answers=tuple(answers[q] for q in answers))
