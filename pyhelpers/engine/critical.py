"""Critical dates of a date given as a range (issue 23): a few representative days instead of every day.

A date given as ``{between: [LOW, HIGH]}`` could be any day of the range. The rules never look at a
day for itself: they compare it with the other dates of the scenario, with the dates and years the
treaty names, and with those dates moved by the periods the rules cite (``day_count``: 183 or 365 days;
``period_months``: six, nine, twelve or twenty-four months), or with the share of a window's days the
rules cite (half of the days of twelve months). Between two such boundaries the rules cannot tell the
days apart, so one day stands for all of them.

The **candidate boundaries** are the thresholds' own dates: every date the scenario writes (the evaluation
date, each item's date, every ``from`` and ``until``, every value of the other facts given as alternatives)
and the day after it, each moved by each of the treaty's month counts and day counts (either way, one
period at a time); the dates the treaty's static facts name and the day after each; the first days of the
calendar years of those dates and of the years after them; and the range's ends. The **representatives**
are the range's first day and every candidate inside the range: each stands for the days from it up to the
day before the next one (:attr:`OpenFact.high` is the range's last day), and that last day is solved too
(:func:`with_last_days`). A change no candidate marks (a threshold reached by composing periods, or by adding
the days of several periods: a share of a window's days) then lies between a representative and its last
day, or between a last day and the next representative, where they answer differently: the solve places it
at its exact day by probing a few days of that gap at a time, never by enumerating its days
(:func:`pyhelpers.engine.alternatives._refined`).

Nothing here names a treaty, a period or a threshold: they are read from the static facts of the rules
(:attr:`pyhelpers.engine.solve.Checker.static_atoms`), for the scenario's treaty only.
``tests/test_critical_dates.py`` checks, for the shipped scenarios with a date range, that the answer
over the representatives is the answer over every day.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from datetime import date, timedelta
from typing import Any

import clingo

from pyhelpers.base import dates
from pyhelpers.scenario import Scenario
from pyhelpers.scenario.openfacts import OpenFact

_DAY = timedelta(days=1)


@dataclasses.dataclass(frozen=True)
class Periods:
    """The periods a treaty's rules cite, read from its static facts."""

    days: frozenset[int]  # day_count
    months: frozenset[int]  # period_months
    dates: frozenset[date]  # dates named by the static facts (treaty_day, a YYYYMMDD number)


def _as_date(value: Any) -> date | None:
    if isinstance(value, date):
        return value
    if isinstance(value, str) and len(value) == 10:
        try:
            return date.fromisoformat(value)
        except ValueError:
            return None
    return None


def _symbol_dates(sym: clingo.Symbol) -> Iterable[date]:
    """Dates written in a static fact: a ``date(Y, M, D)`` term, or an eight-digit YYYYMMDD number."""
    if sym.type == clingo.SymbolType.Number:
        n = sym.number
        if 10000101 <= n <= 99991231:
            try:
                yield date(n // 10000, n // 100 % 100, n % 100)
            except ValueError:
                return
        return
    if sym.type != clingo.SymbolType.Function:
        return
    args = sym.arguments
    if sym.name == "date" and len(args) == 3 and all(a.type == clingo.SymbolType.Number for a in args):
        try:
            yield date(args[0].number, args[1].number, args[2].number)
        except ValueError:
            return
        return
    for a in args:
        yield from _symbol_dates(a)


def treaty_periods(static_atoms: Sequence[clingo.Symbol], treaty: str) -> Periods:
    """The day counts, month counts and dates of the static facts whose first argument is ``treaty``."""
    days: set[int] = set()
    months: set[int] = set()
    named: set[date] = set()
    for sym in static_atoms:
        args = sym.arguments
        if not args or args[0].type != clingo.SymbolType.String or args[0].string != treaty:
            continue
        if sym.name == "day_count" and len(args) == 4 and args[2].type == clingo.SymbolType.Number:
            days.add(args[2].number)
        elif sym.name == "period_months" and len(args) == 4 and args[2].type == clingo.SymbolType.Number:
            months.add(args[2].number)
        for a in args[1:]:
            named.update(_symbol_dates(a))
    return Periods(frozenset(days), frozenset(months), frozenset(named))


def _scenario_dates(node: Any) -> Iterable[date]:
    if isinstance(node, dict):
        for v in node.values():
            yield from _scenario_dates(v)
    elif isinstance(node, (list, tuple)):
        for v in node:
            yield from _scenario_dates(v)
    else:
        d = _as_date(node)
        if d is not None:
            yield d


def thresholds(written: Iterable[date], fixed: Iterable[date], years: Iterable[date], periods: Periods, low: date,
               high: date) -> list[date]:
    """The candidate boundaries inside ``[low, high]`` (module doc), sorted, with ``low`` first: each date
    ``written`` and the day after it, each moved by each of the treaty's periods (months or days, either
    way, one period at a time); the dates ``fixed`` (the dates the treaty names) and the day after each;
    the first days of ``years`` (a calendar year's last day is the day before the next one's first)."""
    written = set(written)
    out = {low} | {d for d in years if low <= d <= high}
    for d in written | set(fixed):
        out.update(x for x in (d, d + _DAY) if low <= x <= high)
    for d in written:
        for m in periods.months:
            out.update(x for x in (dates.add_months(d, m), dates.add_months(d, -m)) if low <= x <= high)
        for n in periods.days:
            out.update(x for x in (d + timedelta(days=n), d - timedelta(days=n)) if low <= x <= high)
    return sorted(out)


def _years(ds: Iterable[date]) -> set[date]:
    """The first days of the calendar years of ``ds`` and of the years after them."""
    return {date(d.year + k, 1, 1) for d in ds for k in (0, 1) if d.year + k <= date.max.year}


def _written(scenario: Scenario, others: Sequence[OpenFact], periods: Periods, path: tuple[Any, ...],
             named: bool = True) -> set[date]:
    """The dates the scenario writes, the values of the open facts ``others`` (but the one at ``path``) and,
    with ``named``, the dates the treaty's static facts name."""
    written = set(_scenario_dates(scenario.model_dump(mode="python", by_alias=True, exclude_unset=True,
                                                      exclude={"expect", "name", "description"})))
    written.add(scenario.evaluation_date)
    for other in others:
        if other.path != path:
            written.update(_scenario_dates(list(other.values)))
    return written | periods.dates if named else written


def representatives(scenario: Scenario, others: Sequence[OpenFact], periods: Periods, low: date, high: date,
                    path: tuple[Any, ...] = ()) -> list[date]:
    """The representatives of the dates from ``low`` to ``high`` (module doc); ``others``: the open facts
    whose values are dates written too (but the one at ``path``)."""
    written = _written(scenario, others, periods, path, named=False)
    return thresholds(written, periods.dates, _years(written | {low, high}), periods, low, high)


def _open_representatives(fact: OpenFact, scenario: Scenario, others: Sequence[OpenFact], periods: Periods
                          ) -> tuple[list[date], date] | None:
    """The representatives of a date given as plain ``unknown`` (no end on one side), and the last day of
    the range they stand for: those of a range (:func:`representatives`) from beyond every candidate
    boundary on one side to the date the scenario gives (its first or last possible day), with the
    calendar years around each date. Beyond the last boundary (an unknown ``until``) or before the first
    (an unknown ``from``) the rules cannot tell the days apart: the representatives reach a day further
    than every written date moved by the longest period the treaty cites, so that a threshold reached by
    adding the days of several periods lies between two of them (:func:`with_last_days`); the last one of
    an unknown ``until`` stands for every later day, the first of an unknown ``from`` for every earlier
    day."""
    anchor = _as_date(fact.values[0])
    if anchor is None:
        return None
    own = _written(scenario, others, periods, fact.path, named=False) | {anchor}
    years = _years(own)
    far = timedelta(days=31 * max(periods.months, default=0) + max(periods.days, default=0) + 2)
    if fact.open_end == "later":
        last = max(own | years) + far
        return thresholds(own, periods.dates, years, periods, anchor, last), last
    first = min(own | years) - far
    return thresholds(own, periods.dates, years, periods, first, anchor), anchor


def with_last_days(reps: Sequence[date], high: date) -> list[date]:
    """``reps`` (sorted) with the last day each stands for: the day before the next one, and ``high``. A
    change the candidate boundaries miss (a threshold the rules reach by adding the days of several
    periods: the days still needed in a window after another period's days) then lies between two values
    that answer differently, where :func:`pyhelpers.engine.alternatives._refined` places it at its day."""
    out = set(reps) | {b - _DAY for b in reps[1:]} | ({high} if reps and high >= reps[-1] else set())
    return sorted(out)


def critical_dates(fact: OpenFact, scenario: Scenario, others: Sequence[OpenFact], periods: Periods) -> OpenFact:
    """``fact`` (a date range, or a date given as ``unknown``) with its values the representatives of the
    range (module doc)."""
    if fact.open_end:
        found = _open_representatives(fact, scenario, others, periods)
        if found is None:
            return fact
        reps, last = with_last_days(found[0], found[1]), found[1]
        return dataclasses.replace(fact, values=tuple(d.isoformat() for d in reps), high=last.isoformat())
    low, high = _as_date(fact.values[0]), _as_date(fact.values[-1])
    if low is None or high is None:
        return fact
    reps = with_last_days(representatives(scenario, others, periods, low, high, fact.path), high)
    if len(reps) >= len(fact.values):
        return fact
    return dataclasses.replace(fact, values=tuple(d.isoformat() for d in reps), high=high.isoformat())


def open_facts(checker: Any, scenario: Scenario) -> tuple[OpenFact, ...]:
    """The scenario's unknown facts, each date range given by its critical dates."""
    unknowns = scenario.unknowns
    if not any(f.ranged == "date" for f in unknowns):
        return unknowns
    periods = checker.treaty_periods(scenario.treaty)
    return tuple(critical_dates(f, scenario, unknowns, periods) if f.ranged == "date" else f for f in unknowns)
