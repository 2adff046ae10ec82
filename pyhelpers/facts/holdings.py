"""Facts of holdings and ownership (:mod:`pyhelpers.scenario.holdings`): each holding with its shares
and period, the elementary ownership periods (over which every share is constant), holdings still open
and those continued through a reorganisation, and, where a treaty declares it, the windows of its period
around each item's date with the days of each ownership period inside them."""

from __future__ import annotations

from datetime import date, timedelta

from pyhelpers.base import dates
from pyhelpers.facts.declared import Declared
from pyhelpers.facts.emit import Add, Const, day, fact
from pyhelpers.scenario import Scenario, person_questions


def holding_facts(sc: Scenario, sid: str, add: Add, declared: Declared) -> None:
    for n, h in enumerate(sc.holdings):
        hid = f"holding-{n + 1}"
        until = h.until or dates.OPEN_END
        mode = Const("direct" if h.direct else "indirect")
        add(fact("holding", sid, hid, h.holder, h.company, mode, day(h.from_), day(until)))
        for measure in ("capital", "votes", "value", "profits"):
            share = getattr(h, measure)
            if share is not None:
                add(fact("holding_share", sid, hid, Const(measure), share))
        if h.until is None:
            add(fact("holding_open_ended", sid, hid))
        if h.continues_by_reorganisation is not None:
            c = h.continues_by_reorganisation
            add(fact("holding_continues", sid, hid, c.holder, c.company))

    periods = dates.elementary_periods((h.from_, h.until or dates.OPEN_END) for h in sc.holdings)
    for start, end in periods:
        add(fact("ownership_period", sid, day(start), day(end)))
    months = declared.ownership.get(sc.treaty)
    if months is not None and periods:
        _ownership_windows(sc, sid, add, periods, months)


def _ownership_windows(sc: Scenario, sid: str, add: Add, periods: list[tuple[date, date]],
                       months: int) -> None:
    """For each item, the candidate windows of ``months`` months that include its date
    (:func:`~pyhelpers.base.dates.period_windows_including`: one maximises the count, never day by day), with
    the days of each ownership period inside each window; days after the evaluation date are counted apart,
    as unknown, unless the scenario says the holdings continue."""
    cuts = sorted({a for a, _ in periods} | {b + timedelta(days=1) for _, b in periods if b < dates.OPEN_END})
    horizon = dates.OPEN_END if sc.holdings_continue else sc.evaluation_date
    subjects = [(item.id, item.date) for item in sc.income]
    subjects += [(q.id, q.date or sc.evaluation_date) for q in person_questions(sc)]
    for iid, when in subjects:
        for first, last in dates.period_windows_including(when, months, cuts):
            unknown_days = dates.inclusive_days(max(first, horizon + timedelta(days=1)), last) \
                if horizon < dates.OPEN_END else 0
            add(fact("ownership_window", sid, iid, day(first), day(last), dates.inclusive_days(first, last),
                     unknown_days))
            for start, end in periods:
                n = dates.inclusive_days(max(first, start), min(last, end, horizon))
                if n > 0:
                    add(fact("ownership_window_days", sid, iid, day(first), day(start), n))
