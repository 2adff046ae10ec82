"""All calendar arithmetic of treaty-logic, in one place.

The logic never computes with calendars: it receives dates as *day numbers* (the proleptic Gregorian
ordinal of :meth:`datetime.date.toordinal`, 1 = 0001-01-01, which fits clingo's 32-bit integers) and
the results of the computations below as facts carrying their provenance.

Conventions (documented in docs/guide/scenario-format.md, "Dates"; tested in ``tests/test_dates.py``):

* **Intervals are inclusive at both ends.** A holding ``from: 2022-03-15, until: 2024-03-14`` is held
  on both of those days. An open end (no ``until``) is :data:`OPEN_END` (9999-12-31).
* **"N months before D"** is the same day of the month N months earlier; when that day does not exist
  (29, 30 or 31 in a shorter month) it is the last day of that month: 24 months before 2024-02-29 is
  2022-02-28. "Two years" is 24 months.
* **Days of presence**: the day of arrival and the day of departure both count; a day on which two
  periods overlap counts once.
* **Any period of N months beginning or ending in a year**: every window of N months that starts or ends
  inside the year; :func:`max_days_in_windows` returns the largest day count over them.
"""

from __future__ import annotations

import calendar
import itertools
import operator
from collections.abc import Iterable
from datetime import date, timedelta
from functools import lru_cache

OPEN_END = date(9999, 12, 31)
"""The end of an interval that the scenario leaves open (still held, still present)."""

MONTHS_IN_YEAR = 12


def calendar_year(year: int) -> tuple[date, date]:
    """1 January and 31 December of ``year``."""
    return date(year, 1, 1), date(year, MONTHS_IN_YEAR, 31)


def year_from(start: date) -> date:
    """The last day of the year (twelve calendar months) that begins on ``start``."""
    return period_last_day(start, MONTHS_IN_YEAR)


def day_number(d: date) -> int:
    """The day number the logic uses for ``d`` (proleptic Gregorian ordinal)."""
    return d.toordinal()


def from_day_number(n: int) -> date:
    """The date of a day number produced by :func:`day_number`."""
    return date.fromordinal(n)


@lru_cache(maxsize=16_384)
def add_months(d: date, months: int) -> date:
    """``d`` moved by ``months`` calendar months (negative: back), clamped to the month's last day. (Memoised: a
    batch asks it for each new case, of a few hundred distinct dates, several month counts each.)"""
    index = d.year * MONTHS_IN_YEAR + (d.month - 1) + months
    year, month = divmod(index, MONTHS_IN_YEAR)
    month += 1
    last = calendar.monthrange(year, month)[1]
    return date(year, month, min(d.day, last))


def months_before(d: date, months: int) -> date:
    """The same day of the month ``months`` months before ``d`` (clamped to the month's last day).

    A holding covering ``[months_before(d, 24), d]`` has been held for two years before ``d``.
    """
    return add_months(d, -months)


def inclusive_days(start: date, end: date) -> int:
    """Number of days in the inclusive interval ``[start, end]`` (0 when ``end < start``)."""
    return max(0, (end - start).days + 1)


def merge_intervals(intervals: Iterable[tuple[date, date]]) -> list[tuple[date, date]]:
    """Union of inclusive intervals: overlapping or adjoining intervals become one."""
    out: list[tuple[date, date]] = []
    for start, end in sorted(intervals):
        if out and start <= out[-1][1] + timedelta(days=1):
            if end > out[-1][1]:
                out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


def elementary_periods(intervals: Iterable[tuple[date, date]],
                       more_cuts: Iterable[date] = ()) -> list[tuple[date, date]]:
    """The union of ``intervals`` cut at every interval's ends (and at each day of ``more_cuts``: a period
    then begins on it), in date order: each returned period lies wholly inside or wholly outside each
    interval (so an ownership share is constant over it).

    ``[(1 Jan, 31 Dec), (1 Jul, 31 Dec next year)]`` gives 1 Jan–30 Jun, 1 Jul–31 Dec, 1 Jan–31 Dec next
    year. Periods where no interval holds are left out; adjacent periods are not merged.
    """
    spans = [(a, b) for a, b in intervals if a <= b]
    cuts = sorted({a for a, _ in spans} | {b + timedelta(days=1) for _, b in spans if b < OPEN_END} | set(more_cuts))
    out: list[tuple[date, date]] = []
    for i, start in enumerate(cuts):
        end = cuts[i + 1] - timedelta(days=1) if i + 1 < len(cuts) else OPEN_END
        if any(a <= start and end <= b for a, b in spans):
            out.append((start, end))
    return out


def days_present(periods: Iterable[tuple[date, date]], window: tuple[date, date]) -> int:
    """Days of presence inside ``window``; arrival and departure days count, overlaps count once."""
    w_start, w_end = window
    total = 0
    for start, end in merge_intervals(periods):
        total += inclusive_days(max(start, w_start), min(end, w_end))
    return total


def month_windows(year: tuple[date, date], months: int) -> list[tuple[date, date]]:
    """Every window of ``months`` months beginning or ending in the year ``[start, end]`` (inclusive).

    A window beginning on day ``b`` ends on ``add_months(b, months) - 1 day``. Windows are returned by
    start date, without duplicates.
    """
    fy_start, fy_end = year
    windows: set[tuple[date, date]] = set()
    day = fy_start
    while day <= fy_end:
        windows.add((day, add_months(day, months) - timedelta(days=1)))  # begins in the year
        begin = add_months(day + timedelta(days=1), -months)  # ends on `day`
        windows.add((begin, day))
        day += timedelta(days=1)
    return sorted(windows)


def max_days_in_windows(
    periods: Iterable[tuple[date, date]], year: tuple[date, date], months: int
) -> tuple[int, tuple[date, date]]:
    """Largest number of days of ``periods`` in any window of ``months`` months beginning or ending in
    ``year``. Returns the count and the first window (by start date) that reaches it.
    """
    return _max_days_in_windows(tuple(periods), year, months)


@lru_cache(maxsize=4096)
def _max_days_in_windows(periods: tuple[tuple[date, date], ...], year: tuple[date, date], months: int
                         ) -> tuple[int, tuple[date, date]]:
    """:func:`max_days_in_windows`, remembered: the variants of a scenario with open facts (one per combination of
    their values) mostly repeat the same stays."""
    windows, first, starts, ends = _numbered_windows(year, months)
    if not windows:
        return -1, (year[0], year[0])
    present = bytearray(max(ends))  # each day from the first window's first on: 1 if present
    for start, end in merge_intervals(periods):
        a, b = max(start.toordinal() - first, 0), min(end.toordinal() - first + 1, len(present))
        if a < b:
            present[a:b] = b"\x01" * (b - a)
    before = [0, *itertools.accumulate(present)]  # days present before each day: a window's are a difference
    counts = list(map(operator.sub, map(before.__getitem__, ends), map(before.__getitem__, starts)))
    best = max(counts)
    return best, windows[counts.index(best)]  # the first window (by start date) that reaches it


@lru_cache(maxsize=64)
def _numbered_windows(year: tuple[date, date], months: int
                      ) -> tuple[tuple[tuple[date, date], ...], int, tuple[int, ...], tuple[int, ...]]:
    """:func:`month_windows`, the day number of the first one's first day, and the windows' first days and
    the days after their last ones, counted from there; computed once for each year: a check with open
    dates counts the days of many variants of the same stays."""
    windows = tuple(month_windows(year, months))
    first = min((a.toordinal() for a, _ in windows), default=0)
    ends = tuple(b.toordinal() - first + 1 for _, b in windows)
    return windows, first, tuple(a.toordinal() - first for a, _ in windows), ends


def period_last_day(start: date, months: int) -> date:
    """The last day of a period of exactly ``months`` calendar months that begins on ``start``.

    It is the day before the same day ``months`` months later (clamped to that month's last day, as in
    :func:`add_months`): nine months from 2023-01-01 end on 2023-09-30; zero months end the day before
    ``start``.
    """
    return add_months(start, months) - timedelta(days=1)


def months_and_days(start: date, end: date) -> tuple[int, int]:
    """The length of the inclusive interval ``[start, end]`` as whole calendar months plus days.

    ``months`` is the largest count whose period from ``start`` (:func:`period_last_day`) ends on or
    before ``end``; ``days`` counts the days after that period's last day, up to and including ``end``.
    An interval lasts *more than* N months exactly when ``(months, days) > (N, 0)``: 2023-01-01 to
    2023-09-30 is ``(9, 0)``, exactly nine months; 2023-01-01 to 2023-10-01 is ``(9, 1)``, nine months
    and a day (a period that must last *more than* nine months does). Raises :class:`ValueError` when
    ``end`` is before ``start``.
    """
    if end < start:
        raise ValueError(f"an interval ending on or after its start ({start}), found {end}")
    months = (end.year - start.year) * MONTHS_IN_YEAR + end.month - start.month + 1  # an upper bound
    while months > 0 and period_last_day(start, months) > end:
        months -= 1
    return months, (end - period_last_day(start, months)).days


def months_after(d: date, months: int) -> date:
    """The same day of the month ``months`` months after ``d`` (clamped to that month's last day).

    It is the last day of a period of that many months "counting from" ``d`` (``a contar da data``): two
    years from 2023-03-15 end on 2025-03-15; from 2024-02-29, on 2026-02-28.
    """
    return add_months(d, months)


def months_before_year_end(year: int, months: int) -> date:
    """The day ``months`` months before 31 December of ``year`` (clamped to the month's last day).

    The last day on which something is done "at least N months before 31 December" of that year: six
    months give 30 June.
    """
    return months_before(calendar_year(year)[1], months)


def fiscal_year_start(d: date, start: date | None = None) -> date:
    """The first day of the fiscal year in which ``d`` falls: ``start`` when the scenario gives it,
    otherwise 1 January of ``d``'s year (the calendar year, the fiscal year of individuals and, unless they
    adopt another period, of companies)."""
    return start if start is not None else calendar_year(d.year)[0]


def earliest_fiscal_year_start(d: date) -> date:
    """The earliest first day of a fiscal year of twelve months in which ``d`` falls: the day after ``d``'s
    date one year earlier (the fiscal year in which ``d`` falls begins between it and ``d`` itself)."""
    return add_months(d, -MONTHS_IN_YEAR) + timedelta(days=1)


def days_before(d: date, n: int) -> tuple[date, date]:
    """The ``n`` days before ``d``, as an inclusive interval that ends the day before ``d`` ("os N dias
    anteriores à alienação": the day of the alienation itself is not one of them)."""
    if n < 1:
        raise ValueError(f"a positive number of days, found {n}")
    return d - timedelta(days=n), d - timedelta(days=1)


def ymd_number(d: date) -> int:
    """``d`` as the integer YYYYMMDD (2021-12-01 → 20211201): it orders as the dates do, so the logic can
    compare an item's date with a date a treaty text names (in force from 1 December 2021: ``20211201``)
    without a day number computed by hand."""
    return d.year * 10000 + d.month * 100 + d.day


def from_ymd_number(n: int) -> date:
    """The date an integer YYYYMMDD writes (20211201 → 2021-12-01), the inverse of :func:`ymd_number`;
    ValueError where ``n`` writes no date."""
    return date(n // 10000, n // 100 % 100, n % 100)


def period_windows_including(d: date, months: int, cuts: Iterable[date]) -> list[tuple[date, date]]:
    """Candidate periods of ``months`` calendar months that include day ``d`` ("um período de doze meses
    que inclua aquele momento"), each ``(first, last)`` with last = the day
    before ``add_months(first, months)``.

    ``cuts`` are the days on which the counted periods change (each period's first day, and the day after
    its last). The number of counted days in a window only changes when one of its ends crosses a cut, so
    the windows that start on a cut or end the day before one (with the earliest and the latest window)
    include one that maximises the count: the logic compares those only, never day by day.
    """
    def last_of(first: date) -> date:
        return add_months(first, months) - timedelta(days=1)

    earliest = add_months(d + timedelta(days=1), -months)
    starts = {earliest, d}
    for c in cuts:
        starts.add(c)
        starts.add(add_months(c, -months))
    out = sorted({(s, last_of(s)) for s in starts if s <= d <= last_of(s)})
    return out
