"""More days at which the facts cut time, for scenarios that differ only in their dates (the alternatives
of an open date): cut at the union of their days, they get the same ownership periods and site
segments, only what holds over them differing."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from pyhelpers.base import dates
from pyhelpers.scenario import Scenario


@dataclass(frozen=True)
class Cuts:
    """More days at which the facts cut time (:func:`timeline_cuts`): the ownership periods at
    ``ownership``, the sites' timelines at ``sites``."""

    ownership: frozenset[date] = frozenset()
    sites: frozenset[date] = frozenset()

    def __or__(self, other: Cuts) -> Cuts:
        return Cuts(self.ownership | other.ownership, self.sites | other.sites)


def timeline_cuts(sc: Scenario) -> Cuts:
    """The days at which the facts of ``sc`` cut time: the ownership periods at each holding's first day
    and the day after its last; the sites' timelines there too, and at each stint's at a place of
    business first day and the day after its last (or after the evaluation date, for an open one).
    Scenarios that differ only in their dates (the alternatives of an open date), each cut at the union
    of their days, get the same periods and segments, only what holds over them differing: a sum of
    days over them then ranges over one timeline's pieces whatever the alternative, not over each
    alternative's own."""
    ownership: set[date] = set()
    for h in sc.holdings:
        ownership.add(h.from_)
        if h.until is not None and h.until < dates.OPEN_END:
            ownership.add(h.until + timedelta(days=1))
    sites = set(ownership)
    for b in sc.places_of_business.values():
        for start, end in b.stints():
            sites.update((start, (end if end is not None else sc.evaluation_date) + timedelta(days=1)))
    return Cuts(frozenset(ownership), frozenset(sites))


NO_CUTS = Cuts()
