"""Critical dates of a date given as a range (issue 23): a few representative days instead of every day.

A date given as ``{between: [LOW, HIGH]}`` could be any day of the range. The rules never look at a
day for itself: they compare it with the other dates of the scenario, with the dates and years the
treaty names, and with those dates moved by the periods the rules cite (``day_count``: 183 or 365 days;
``period_months``: six, nine, twelve or twenty-four months), or with the share of a window's days the
rules cite (half of the days of twelve months). Between two such boundaries the rules cannot tell the
days apart, so one day stands for all of them.

The **candidate boundaries** are every date the scenario writes (the evaluation date, each item's date,
every ``from`` and ``until``, every value of the other facts given as alternatives), the first and last
days of the calendar years around them and the dates the treaty's static facts name, each taken a day
either side, moved by each of the treaty's month counts (either way), then by each of its day counts
(either way), and taken a day either side again; and the range's ends. The **representatives** are the
range's first day and every candidate inside the range: each stands for the days from it up to the day
before the next one (:attr:`OpenFact.high` is the range's last day), and that last day is solved too
(:func:`with_last_days`): a change no candidate marks (a share of a window's days reached by adding the days
of several periods) lies between a representative and its last day when they answer differently, where the
solve places it at its exact day (:func:`pyhelpers.engine.alternatives._refined`).

Nothing here names a treaty, a period or a threshold: they are read from the static facts of the rules
(:attr:`pyhelpers.engine.solve.Checker.static_atoms`), for the scenario's treaty only.
``tests/test_critical_dates.py`` checks, for the shipped scenarios with a date range, that the answer
over the representatives is the answer over every day.
"""

from __future__ import annotations

import dataclasses
import math
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
    shares: frozenset[int]  # percentages (basis points) compared with a window's days (measured_ownership)


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
    """The day counts, month counts and dates of the static facts whose first argument is ``treaty``, and
    the percentages cited by the provision that cites the period of its ownership windows
    (``measured_ownership``: a share of a window's days, such as half of them)."""
    days: set[int] = set()
    months: set[int] = set()
    named: set[date] = set()
    percentages: dict[str, set[int]] = {}  # provision -> percentages it cites
    period_provision: dict[str, str] = {}  # period name -> provision citing it
    windows: set[str] = set()  # the periods of the ownership windows
    for sym in static_atoms:
        args = sym.arguments
        if not args or args[0].type != clingo.SymbolType.String or args[0].string != treaty:
            continue
        cited = args[-1].string if args[-1].type == clingo.SymbolType.String else ""
        if sym.name == "day_count" and len(args) == 4 and args[2].type == clingo.SymbolType.Number:
            days.add(args[2].number)
        elif sym.name == "period_months" and len(args) == 4 and args[2].type == clingo.SymbolType.Number:
            months.add(args[2].number)
            period_provision[str(args[1])] = cited
        elif sym.name == "percentage" and len(args) == 4 and args[2].type == clingo.SymbolType.Number:
            percentages.setdefault(cited, set()).add(args[2].number)
        elif sym.name == "measured_ownership" and len(args) == 2:
            windows.add(str(args[1]))
        for a in args[1:]:
            named.update(_symbol_dates(a))
    shares = {p for w in windows for p in percentages.get(period_provision.get(w, ""), set())}
    return Periods(frozenset(days), frozenset(months), frozenset(named), frozenset(shares))


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


def _month_lengths(months: Iterable[int], around: Iterable[date]) -> set[int]:
    """The numbers of days of each month count's periods beginning on the days ``around``."""
    return {dates.inclusive_days(d, dates.period_last_day(d, m)) for m in months for d in around}


def candidates(bases: Iterable[date], periods: Periods, low: date, high: date, holding: bool = False,
               composed: bool = True) -> list[date]:
    """The candidate boundaries inside ``[low, high]`` (module doc), sorted, with ``low`` first; without
    ``composed``, each date is moved by one period at a time (months or days, not both)."""
    base = {d + k * _DAY for d in set(bases) for k in (-1, 0, 1)
            if date.min + _DAY < d < date.max - _DAY}
    month_shifts = sorted({0} | {s * m for m in periods.months for s in (-1, 1)})
    day_counts = set(periods.days)
    if holding and periods.shares:  # a share of the days of a window of the treaty's months
        lengths = _month_lengths(periods.months, base)
        day_counts |= {math.ceil(n * bp / 10000) for n in lengths for bp in periods.shares if 0 < bp < 10000}
    day_shifts = sorted({0} | {s * n for n in day_counts for s in (-1, 1)})
    longest = max([abs(m) for m in month_shifts]) * 31 + max(abs(n) for n in day_shifts) + 2
    near = [d for d in base if low - timedelta(days=longest) <= d <= high + timedelta(days=longest)]
    out = {low}
    for d in near:
        for m in month_shifts:
            moved = dates.add_months(d, m) if m else d
            for n in day_shifts if composed or not m else (0,):
                c = moved + timedelta(days=n)
                for k in (-1, 0, 1):
                    x = c + k * _DAY
                    if low <= x <= high:
                        out.add(x)
    return sorted(out)


def _years(ds: Iterable[date]) -> set[date]:
    years = {d.year for d in ds}
    return {b for y in range(min(years) - 1, max(years) + 2) for b in dates.calendar_year(y)}


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
                    holding: bool, path: tuple[Any, ...] = ()) -> list[date]:
    """The representatives of the dates from ``low`` to ``high`` (module doc); ``others``: the open facts
    whose values are dates written too (but the one at ``path``)."""
    written = _written(scenario, others, periods, path)
    bases = written | _years(written | {low, high})
    return candidates(bases, periods, low, high, holding=holding)


def _open_representatives(fact: OpenFact, scenario: Scenario, others: Sequence[OpenFact], periods: Periods
                          ) -> tuple[list[date], date] | None:
    """The representatives of a date given as plain ``unknown`` (no end on one side), and the last day of
    the range they stand for. The candidate boundaries are those of the scenario's own dates (and the other
    open facts'), with the calendar years around them, moved by the treaty's periods, and the dates the
    treaty names, a day either side (they are compared as they are: signature, entry into force); each
    date moved by one period at a time (a boundary further away is placed by the refinement of
    :func:`pyhelpers.engine.alternatives._refined`, where two representatives answer differently). Beyond
    the last boundary (an unknown ``until``) or before the first (an unknown ``from``) the rules cannot
    tell the days apart: the first representative of an unknown ``from`` is the day before the first
    boundary, standing for every earlier day; the last one of an unknown ``until`` stands for every later
    day."""
    anchor = _as_date(fact.values[0])
    if anchor is None:
        return None
    own = _written(scenario, others, periods, fact.path, named=False)
    bases = own | {b for d in own | {anchor} for b in _years({d})}  # the calendar years around each date
    far = timedelta(days=31 * max(periods.months, default=0) + 2 * max(periods.days, default=0) + 800)
    low, high = min(bases) - far, max(bases) + far  # beyond every boundary (:func:`candidates` adds ``low``)
    points = {p for p in candidates(bases, periods, low, high, fact.path[:1] == ("holdings",), composed=False)
              if low < p < high}
    points |= {d + k * _DAY for d in periods.dates for k in (-1, 0, 1)}
    if fact.open_end == "later":
        later = sorted(p for p in points if p > anchor)
        return [anchor, *later], (later[-1] if later else anchor)
    first = min(points | {anchor}) - _DAY
    return [first, *sorted(p for p in points if first < p <= anchor)], anchor


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
    holding = fact.path[:1] == ("holdings",)
    if fact.open_end:
        found = _open_representatives(fact, scenario, others, periods)
        if found is None:
            return fact
        reps, last = with_last_days(found[0], found[1]), found[1]
        return dataclasses.replace(fact, values=tuple(d.isoformat() for d in reps), high=last.isoformat())
    low, high = _as_date(fact.values[0]), _as_date(fact.values[-1])
    if low is None or high is None:
        return fact
    reps = with_last_days(representatives(scenario, others, periods, low, high, holding, fact.path), high)
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
