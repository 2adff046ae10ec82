"""What the rules declare they need computed from dates and amounts, as plain data.

The rule base states, as static facts beside the paragraph that uses them (the core vocabulary declares
the forms, under "measures the rules declare"), which measures a treaty's rules read and with which
period or day count; the engine reads those facts once (:meth:`pyhelpers.engine.solve.Checker.declared`)
and hands them here; the fact modules serve them for whatever treaty declares them. A new paragraph with a new period or
window therefore needs a fact in ``logic/``, never a change here:

* ``period_months(T, Name, M, Prov)``: for every month count M of any treaty, the date M months before
  each item's date, after a mutual agreement case's dates, before the year end of a notice, and the
  last day of a period of M months from a visit's or an employment's first day;
* ``measured_presence(T, Type, Year, Period)``: for items of Type, the most days the recipient was
  present in each Contracting State within any window of the period's months that begins or ends in
  the Year (``employment_fiscal_year``, ``calendar_year``) of the item;
* ``measured_services(T, Year, Period)``: the most days of services furnished at each place of business
  within any such window of the item's Year (``tax_fiscal_year``);
* ``measured_ownership(T, Period)``: the windows of the period's months that include each item's date,
  with the days of each ownership period inside them;
* ``measured_interests(T, Scope)``: each holder's exact interest, direct and indirect, in each company
  (``ownership_interest``, ``ownership_through``): over every ownership period for every company
  (``all``), or only over the ownership period of each item's (each question's) date in the persons
  the item names (payer, recipient, beneficial owner, person compared; the question's person)
  (``item_parties``); a treaty declaring neither gets none (a scenario of many holdings and periods
  would otherwise have every pair in every period);
* ``measured_value_record(T, DayCount)``: whether the shares of value given cover every one of the days
  of the day count before an alienation;
* ``measured_place_days(T)``: the stints of each place of business, the sites ``same_site_as`` links,
  their days cut into segments, and each of the treaty's month counts from each segment's first day;
* ``measured_date_ymd(T)``: each item's date as the integer YYYYMMDD;
* ``measured_amount(T, Quantity, Currency)``: an amount the rules compare with a limit, in that currency
  (given in it, or converted at the rate the scenario gives).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

INTEREST_SCOPES = ("all", "item_parties")
"""Where a treaty's rules read the interests held (``measured_interests``)."""


@dataclass(frozen=True)
class Window:
    """A window measure of one treaty: its months and the year its windows begin or end in."""

    months: int
    year: str


@dataclass(frozen=True)
class Declared:
    """The measures the rule base declares, by treaty (all empty: no measure is computed)."""

    months: frozenset[int] = frozenset()
    """Every month count of every treaty's periods."""
    states: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Treaty → its Contracting States."""
    treaty_months: Mapping[str, frozenset[int]] = field(default_factory=dict)
    """Treaty → the month counts of its own periods."""
    presence: Mapping[tuple[str, str], Window] = field(default_factory=dict)
    """(treaty, income type) → the presence window."""
    services: Mapping[str, Window] = field(default_factory=dict)
    """Treaty → the window of services furnished at a place of business."""
    ownership: Mapping[str, int] = field(default_factory=dict)
    """Treaty → the months of the ownership windows around an item's date."""
    interests: Mapping[str, str] = field(default_factory=dict)
    """Treaty → where its rules read the interests held (``all`` or ``item_parties``)."""
    value_record: Mapping[str, int] = field(default_factory=dict)
    """Treaty → the days before an alienation the shares of value must cover."""
    place_days: frozenset[str] = frozenset()
    """The treaties whose rules count the days of a place of business."""
    date_ymd: frozenset[str] = frozenset()
    """The treaties whose rules read an item's date as YYYYMMDD."""
    amounts: Mapping[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    """(treaty, quantity) → the currencies it is compared in."""
