"""Facts of places of business (:mod:`pyhelpers.scenario.places`): the owner and State of each, the
scenario's own finding that it is a permanent establishment, what it is and what is done there, agents
and their contracts, insurance agents, connected sites and cohesive operations, fixed bases; its length
in whole months and days (and, where a treaty declares it, its stints, its site and the site's days
against each of the treaty's periods); and, where a treaty declares it, the most days of services
furnished at it within a window of each item's year."""

from __future__ import annotations

from datetime import date

from pyhelpers.base import dates
from pyhelpers.facts.declared import Declared
from pyhelpers.facts.emit import Add, Const, day, defaulted, fact, given_value, given_values, given_yes_no
from pyhelpers.facts.years import year_of
from pyhelpers.scenario import Scenario


def place_facts(sc: Scenario, sid: str, add: Add, declared: Declared, cuts: frozenset[date] = frozenset(),
                strict: bool = False) -> None:
    """``cuts``: more days at which the sites' timelines are cut into segments
    (:func:`pyhelpers.facts.timeline_cuts`). A place's ``fixed_base`` not given: the format's default (not a
    fixed base) is marked ``defaulted`` (the rules show it as an assumption where it decides; with ``strict``
    it is missing)."""
    counts_days = sc.treaty in declared.place_days
    for bid, b in sc.places_of_business.items():
        add(fact("place_of_business", sid, bid, b.owner, Const(b.state)))
        given_yes_no(sid, add, bid, "permanent_establishment", "permanent_establishment_stated",
                     b.permanent_establishment)
        given_value(sid, add, bid, "kind", "place_kind", b.kind)
        given_yes_no(sid, add, bid, "fixed", "fixed_place", b.fixed)
        given_yes_no(sid, add, bid, "business_carried_on", "business_through_place", b.business_carried_on)
        given_values(sid, add, bid, "activities", "place_activity", b.activities)
        given_yes_no(sid, add, bid, "activities_preparatory_overall", "activities_preparatory_overall",
                     b.activities_preparatory_overall)
        if b.agent is not None:
            a = b.agent
            given_yes_no(sid, add, bid, "agent_independent", "agent_independent", a.independent)
            given_yes_no(sid, add, bid, "agent_ordinary_course", "agent_ordinary_course",
                         a.ordinary_course_of_business)
            given_yes_no(sid, add, bid, "agent_contract_authority", "agent_contract_authority",
                         a.authority_to_conclude_contracts)
            given_yes_no(sid, add, bid, "agent_habitual_exercise", "agent_habitual_exercise",
                         a.habitually_exercises_authority)
        first, last = b.first_day(), b.last_day()
        if first is not None:
            if last is not None:
                months, days = dates.months_and_days(first, last)
                add(fact("place_duration", sid, bid, months, days))
            elif first <= sc.evaluation_date:
                months, days = dates.months_and_days(first, sc.evaluation_date)
                add(fact("place_elapsed", sid, bid, months, days))
        for other in sorted(set(b.cohesive_operation_with)):
            add(fact("complementary_functions", sid, bid, other))
        given_yes_no(sid, add, bid, "combined_activities_preparatory", "combined_activities_preparatory",
                     b.combined_activities_preparatory)
        c = b.contracts
        if c is not None:
            if c.person is not None:
                add(fact("agent_person", sid, bid, c.person))
            given_yes_no(sid, add, bid, "habitually_concludes", "agent_habitually_concludes", c.habitually_concludes)
            given_yes_no(sid, add, bid, "principal_role", "agent_principal_role", c.principal_role)
            given_values(sid, add, bid, "contract_kinds", "agent_contract_kind", c.kinds)
            given_values(sid, add, bid, "acts_exclusively_for", "agent_acts_exclusively_for", c.acts_exclusively_for,
                         ids=True)
        if b.insurance is not None:
            add(fact("given", sid, bid, Const("insurance")))
            add(fact("insurance_agent", sid, bid))
            given_yes_no(sid, add, bid, "premiums_or_risks", "insurance_premiums_or_risks",
                         b.insurance.premiums_or_risks)
            if b.insurance.reinsurance_only:
                add(fact("reinsurance_only", sid, bid))
        if b.services is not None:
            add(fact("services_place", sid, bid))
        if "fixed_base" in b.model_fields_set:
            given_yes_no(sid, add, bid, "fixed_base", "fixed_base_stated", b.fixed_base)
        else:
            defaulted(sid, add, bid, "fixed_base", strict, fact("fixed_base_stated", sid, bid, Const("no")))
    if counts_days:
        _site_facts(sc, sid, add, declared, cuts)
    window = declared.services.get(sc.treaty)
    if window is None:
        return
    for item in sc.income:
        year = year_of(item, window.year)
        for bid, b in sc.places_of_business.items():
            if b.services is not None:
                periods = [(p.from_, p.until) for p in b.services.periods]
                count, (w_from, w_to) = dates.max_days_in_windows(periods, year, window.months)
                add(fact("service_days", sid, item.id, bid, count, day(w_from), day(w_to)))


def _site_name(sc: Scenario, members: list[str]) -> str:
    """The name of the site of ``members`` (sorted): the first place that ``same_site_as`` links to no other
    (the site the others are said to share: 'the stints of E at the site'), else the first place."""
    return next((bid for bid in members if sc.places_of_business[bid].same_site_as not in members), members[0])


def _site_facts(sc: Scenario, sid: str, add: Add, declared: Declared, cuts: frozenset[date] = frozenset()) -> None:
    """The stints of each place (``place_stint``: first and last day and days; an open-ended stint counted to the
    evaluation date and marked ``place_stint_open``), the site each place belongs to (``place_site``: the places
    that ``same_site_as`` links, either way and through one another, form one site named by the first place id that
    links to no other (:func:`_site_name`); a place linked to none is a site of its own), the days the stints of
    each enterprise's places at a site cover, each day once (``site_enterprise_days``), and the site's timeline cut
    into segments (``site_segment``, ``segment_in_stint``) at every stint's and every holding's ends, so that the
    days of any set of stints are the sum of the segments they cover, each day once, and each segment lies within
    one ownership period; and the days of each of the treaty's month counts from each segment's first day
    (``segment_period_days``); also at each day of ``cuts``."""
    links: dict[str, str] = {bid: bid for bid in sc.places_of_business}

    def root(b: str) -> str:
        while links[b] != b:
            b = links[b]
        return b

    for bid, b in sc.places_of_business.items():
        if b.same_site_as is not None and b.same_site_as in links:
            r1, r2 = sorted((root(bid), root(b.same_site_as)))
            links[r2] = r1
    groups: dict[str, list[str]] = {}
    for bid in sorted(sc.places_of_business):
        groups.setdefault(root(bid), []).append(bid)
    sites = {_site_name(sc, members): members for members in groups.values()}
    holding_spans = [(h.from_, h.until or dates.OPEN_END) for h in sc.holdings]
    months = sorted(declared.treaty_months.get(sc.treaty, ()))
    for site, members in sites.items():
        stints: list[tuple[str, int, date, date]] = []
        for bid in members:
            add(fact("place_site", sid, bid, site))
            for k, (start, end) in enumerate(sc.places_of_business[bid].stints(), start=1):
                last = end if end is not None else sc.evaluation_date
                if end is None:
                    add(fact("place_stint_open", sid, bid, k))
                if start <= last:
                    add(fact("place_stint", sid, bid, k, day(start), day(last), dates.inclusive_days(start, last)))
                    stints.append((bid, k, start, last))
                else:
                    add(fact("place_stint", sid, bid, k, day(start), day(start), 0))
        owners: dict[str, list[tuple[date, date]]] = {}
        for bid, _, a, b_ in stints:
            owners.setdefault(sc.places_of_business[bid].owner, []).append((a, b_))
        for owner, periods in sorted(owners.items()):
            add(fact("site_enterprise_days", sid, site, owner,
                     sum(dates.inclusive_days(a, b_) for a, b_ in dates.merge_intervals(periods))))
        spans = [(a, b) for _, _, a, b in stints]
        for start, end in dates.elementary_periods(spans + holding_spans, cuts):
            inside = [(bid, k) for bid, k, a, b in stints if a <= start and end <= b]
            if not inside:
                continue
            add(fact("site_segment", sid, site, day(start), day(end), dates.inclusive_days(start, end)))
            for m in months:
                add(fact("segment_period_days", sid, site, day(start), m,
                         dates.inclusive_days(start, dates.period_last_day(start, m))))
            for bid, k in inside:
                add(fact("segment_in_stint", sid, site, day(start), bid, k))
