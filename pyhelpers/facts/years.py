"""The years a window measure is anchored in (``measured_presence``, ``measured_services``): which year
of an item its windows begin or end in, as the scenario gives it or by its documented default."""

from __future__ import annotations

from datetime import date

from pyhelpers.base import dates
from pyhelpers.base.errors import LogicError
from pyhelpers.scenario import IncomeItem

YEARS = ("employment_fiscal_year", "calendar_year", "tax_fiscal_year")
"""``employment_fiscal_year``: the fiscal year the employment details give, else the calendar year of the
item's date; ``calendar_year``: the calendar year of the item's date; ``tax_fiscal_year``: the year from
the first day of the fiscal year of the tax concerned (default 1 January of the item's year; the
calendar year too where several taxes give one)."""


def year_of(item: IncomeItem, kind: str) -> tuple[date, date]:
    """The first and last day of the year of ``kind`` (:data:`YEARS`) of ``item``."""
    calendar_year = dates.calendar_year(item.date.year)
    if kind == "calendar_year":
        return calendar_year
    if kind == "employment_fiscal_year":
        fy = item.employment.fiscal_year if item.employment is not None else None
        return (fy.from_, fy.until) if fy is not None else calendar_year
    if kind == "tax_fiscal_year":
        given = [t.fiscal_year_start for t in item.taxes if t.fiscal_year_start is not None]
        start = dates.fiscal_year_start(item.date, given[0] if len(given) == 1 else None)
        return start, dates.year_from(start)
    raise LogicError(f"a window measure's year is one of {', '.join(YEARS)}, found {kind!r}")
