"""Facts of holdings and ownership (:mod:`pyhelpers.scenario.holdings`): each holding with its shares
and period, the elementary ownership periods (over which every share is constant), each holder's interest
in each company over each of them, direct and indirect, summed exactly (:mod:`pyhelpers.facts.interests`),
holdings still open and those continued through a reorganisation (the interests only where a treaty
declares its rules read them, measured_interests, and only where they do), and, where a treaty declares it, the
windows of its period around each item's date with the days of each ownership period inside them."""

from __future__ import annotations

from bisect import bisect_right
from datetime import date, timedelta

from pyhelpers.base import dates
from pyhelpers.facts.declared import Declared
from pyhelpers.facts.emit import Add, Const, day, defaulted, fact
from pyhelpers.facts.interests import (
    DECIMALS_PER_PLACE,
    MEASURES,
    SHARE_UNITS,
    Edge,
    Interest,
    chain_decimals,
    interests,
    period_edges,
    share_decimals,
)
from pyhelpers.facts.timeline import timeline_cuts
from pyhelpers.scenario import Scenario, person_questions


def holding_facts(sc: Scenario, sid: str, add: Add, declared: Declared, cuts: frozenset[date] = frozenset(),
                  strict: bool = False) -> None:
    """``cuts``: more days at which the ownership periods are cut (:func:`pyhelpers.facts.timeline_cuts`). A
    holding that does not say whether it is held directly is, by the format's default, direct, marked
    ``given`` and ``defaulted(S, H, direct)`` (the rules show it as an assumption where it decides); with
    ``strict`` it is still emitted as direct, marked ``holding_direct_not_stated(S, H)`` (the rules that read
    «directamente» do not count it and find it missing; the others read the default silently)."""
    for n, h in enumerate(sc.holdings):
        hid = f"holding-{n + 1}"
        until = h.until or dates.OPEN_END
        mode = Const("direct" if h.direct else "indirect")
        if "direct" not in h.model_fields_set:  # default: held directly (marked defaulted; strict: not stated)
            defaulted(sid, add, hid, "direct", strict)
            if strict:
                add(fact("holding_direct_not_stated", sid, hid))
        add(fact("holding", sid, hid, h.holder, h.company, mode, day(h.from_), day(until)))
        for measure in MEASURES:
            share = getattr(h, measure)
            if share is not None:
                add(fact("holding_share", sid, hid, Const(measure), share))
        if h.until is None:
            add(fact("holding_open_ended", sid, hid))
        if h.continues_by_reorganisation is not None:
            c = h.continues_by_reorganisation
            add(fact("holding_continues", sid, hid, c.holder, c.company))

    count: dict[str, int] = {}
    for n, h in enumerate(sc.holdings):
        count[h.holder] = count.get(h.holder, 0) + 1
        add(fact("holding_rank", sid, f"holding-{n + 1}", count[h.holder]))
    for rank, (holder, k) in enumerate(sorted(count.items()), 1):
        add(fact("holder_holdings", sid, holder, k))
        add(fact("holder_rank", sid, holder, rank))  # the holders in one order, for a running sum over them
    if count:
        add(fact("holder_count", sid, len(count)))
    if sc.holdings:  # the places of a share's digits in base 10,000 the rules add shares in (at least 0-2):
        # as many as a chain's product has decimals, in fours (a chain of 50% holdings, one a holding)
        decimals = chain_decimals((h.holder, h.company, max((share_decimals(s, SHARE_UNITS) for m in MEASURES
                                                              if (s := getattr(h, m)) is not None), default=0))
                                  for h in sc.holdings)
        places = max(-(-decimals // DECIMALS_PER_PLACE), 2)
        for k in range(places + 1):
            add(fact("share_digit_place", sid, k))
        add(fact("share_digit_places", sid, places))
    periods = dates.elementary_periods(((h.from_, h.until or dates.OPEN_END) for h in sc.holdings), cuts)
    records = [(f"holding-{n + 1}", h.holder, h.company, h.direct, h.from_, h.until or dates.OPEN_END,
                {m: s for m in MEASURES if (s := getattr(h, m)) is not None}) for n, h in enumerate(sc.holdings)]
    for start, end in periods:
        add(fact("ownership_period", sid, day(start), day(end)))
    scope = declared.interests.get(sc.treaty)
    targets = _interest_targets(sc, periods) if scope == "item_parties" else None
    memo: dict[tuple[tuple[Edge, ...], frozenset[str] | None], list[Interest]] = {}
    for start, end in periods if scope is not None else []:
        if targets is not None and not targets.get(start):
            continue
        for measure in MEASURES:
            edges = tuple(period_edges(records, start, end, measure))
            wanted = None if targets is None else frozenset(targets[start])
            found = memo.get((edges, wanted))
            if found is None:  # periods over which the same holdings hold have the same interests
                found = memo[(edges, wanted)] = interests(edges, wanted)
            for it in found:
                lo, hi = it.units
                add(fact("ownership_interest", sid, day(start), it.holder, it.company, Const(measure), lo, hi))
                for b in it.through:
                    add(fact("ownership_through", sid, day(start), it.holder, it.company, Const(measure), b))
    months = declared.ownership.get(sc.treaty)
    if months is not None and periods:
        _ownership_windows(sc, sid, add, periods, months, sorted(timeline_cuts(sc).ownership) if cuts else None)


def _interest_targets(sc: Scenario, periods: list[tuple[date, date]]) -> dict[date, set[str]]:
    """For each ownership period (by its first day), the companies whose holders' interests a treaty
    declaring ``measured_interests(T, item_parties)`` reads: the payer, the recipient, the beneficial owner
    and the person compared for non-discrimination of each item whose date it includes, and the person of
    each question whose date (by default the evaluation date) it includes."""
    subjects: list[tuple[date, tuple[str | None, ...]]] = [
        (item.date, (item.payer, item.recipient, item.beneficial_owner,
                     item.non_discrimination.person if item.non_discrimination is not None else None))
        for item in sc.income]
    subjects += [(q.date or sc.evaluation_date, (q.person,)) for q in person_questions(sc)]
    starts = [a for a, _ in periods]
    targets: dict[date, set[str]] = {}
    for when, parties in subjects:
        k = bisect_right(starts, when) - 1
        if k >= 0 and when <= periods[k][1]:
            targets.setdefault(starts[k], set()).update(p for p in parties if p)
    return targets


def _ownership_windows(sc: Scenario, sid: str, add: Add, periods: list[tuple[date, date]],
                       months: int, window_cuts: list[date] | None = None) -> None:
    """For each item, the candidate windows of ``months`` months that include its date
    (:func:`~pyhelpers.base.dates.period_windows_including`: one maximises the count, never day by day), with
    the days of each ownership period inside each window; days after the evaluation date are counted apart,
    as unknown, unless the scenario says the holdings continue. The windows are chosen at ``window_cuts``
    (the scenario's own, where ``periods`` are cut at other alternatives' days too), else at the periods'
    ends."""
    cuts = window_cuts if window_cuts is not None else \
        sorted({a for a, _ in periods} | {b + timedelta(days=1) for _, b in periods if b < dates.OPEN_END})
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
