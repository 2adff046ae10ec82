"""Facts of income from personal services and of pensions (:mod:`pyhelpers.scenario.services`):
independent services, employment, directors' fees, entertainers and sportspersons, pensions, government
service, visiting professors and students.

Where one kind of income is sent to the rules of another (an entertainer's income to those of
employment or independent services, a government pension to those of pensions, a professor's or
student's remuneration to those of employment), the facts those rules need are emitted too, from the
item's own details or their documented defaults. Computed here, never in the logic: where a treaty
declares them, the most days of presence in a window of the item's year (``measured_presence``), the
end of a period of each month count from a visit's or an employment's first day, and an amount in the
currency the rules compare it in (``measured_amount``)."""

from __future__ import annotations

from datetime import date
from decimal import ROUND_CEILING, Decimal

from pyhelpers.base import dates
from pyhelpers.facts.declared import Declared
from pyhelpers.facts.emit import Add, Const, day, defaulted, fact, given_value, given_yes_no, money_cents, record_given
from pyhelpers.facts.years import year_of
from pyhelpers.scenario import IncomeItem, Scenario
from pyhelpers.scenario.common import NONE

SERVICE_TYPES = (
    "independent_services", "employment", "director_fees", "artiste_sportsperson", "pension",
    "government_service", "professor", "student", "technical_services",
)
"""The item types of personal services and pensions, whose details this module emits (and fees for
technical services, which the rules of one treaty may send to employment: their employment details)."""

EMPLOYED_TYPES = ("employment", "government_service", "artiste_sportsperson", "professor", "student",
                  "technical_services")
"""The item types that have an employer (the payer, unless the employment details name another): a fee for
technical services has one where the rules send it to employment (a fee paid to an employee of the payer)."""


def services_facts(sc: Scenario, sid: str, add: Add, declared: Declared, strict: bool = False) -> None:
    states = declared.states.get(sc.treaty, ())
    for item in sc.income:
        window = declared.presence.get((sc.treaty, item.type))
        if window is not None:
            year = year_of(item, window.year)
            for st in states:
                periods = [(p.from_, p.until) for p in sc.presence if p.person == item.recipient and p.state == st]
                if periods:
                    n, (w_from, w_to) = dates.max_days_in_windows(periods, year, window.months)
                    add(fact("max_presence", sid, item.id, Const(st), n, day(w_from), day(w_to)))
        if item.type in SERVICE_TYPES:
            _item_facts(sc, sid, add, item, declared, strict)


def _item_facts(sc: Scenario, sid: str, add: Add, item: IncomeItem, declared: Declared, strict: bool) -> None:
    iid = item.id
    emp = item.employment
    # independent services: the activity and the place of business bearing the remuneration
    ind = item.independent
    if ind is not None and ind.profession is not None:
        add(fact("profession", sid, iid, Const(ind.profession)))
    bearer = ind.borne_by if ind is not None and ind.borne_by is not None else emp.borne_by if emp else None
    if record_given(sid, add, iid, "borne_by", bearer) and bearer != NONE:
        add(fact("borne_by", sid, iid, str(bearer)))
    # where the activity is exercised: the employment block, or the item's own details
    exercised: object = emp.exercised_in if emp is not None else None
    if item.professor is not None:
        exercised = item.professor.host_state
    elif item.student is not None and item.student.payment == "employment":
        exercised = item.student.host_state
    elif item.artiste is not None:
        exercised = item.artiste.exercised_in
    given_value(sid, add, iid, "exercised_in", "exercised_in", exercised)
    # employment: the employer, crews of ships and aircraft
    if item.type in EMPLOYED_TYPES:
        employer = (emp.employer if emp is not None else None) or item.payer
        add(fact("employer", sid, iid, employer))
        if emp is None or "aboard" not in emp.model_fields_set or emp.aboard is None:
            defaulted(sid, add, iid, "aboard", strict)  # default: not aboard (marked defaulted)
        else:
            add(fact("given", sid, iid, Const("aboard")))
        if emp is not None and emp.aboard is not None and emp.aboard != "none":
            add(fact("aboard", sid, iid, Const(emp.aboard)))
            add(fact("crew_operator", sid, iid, emp.operator or employer))
            if emp.operated_solely_within is not None:
                add(fact("operated_solely_within", sid, iid, Const(emp.operated_solely_within)))
    # directors' fees
    if item.type == "director_fees":
        add(fact("board_company", sid, iid, (item.director.company if item.director else None) or item.payer))
    # entertainers and sportspersons
    if item.type == "artiste_sportsperson":
        art = item.artiste
        add(fact("performer", sid, iid, (art.performer if art else None) or item.recipient))
        funding = art.public_funding if art is not None else {}
        if isinstance(funding, str):
            record_given(sid, add, iid, "public_funding", funding)
        else:
            for st, share in sorted(funding.items()):
                add(fact("public_funding", sid, iid, Const(st), share))
        if art is not None and art.employed:
            add(fact("in_employment", sid, iid))
    # pensions (also government pensions, which the rules of government service may send there)
    pen = item.pension
    if item.type == "pension" or (item.government is not None and item.government.kind == "pension"):
        if pen is not None:
            given_value(sid, add, iid, "social_security", "social_security_of", pen.social_security)
        if pen is not None and "past_employment" in pen.model_fields_set:
            given_yes_no(sid, add, iid, "past_employment", "past_employment", pen.past_employment)
        else:  # default: paid in consequence of a past employment
            defaulted(sid, add, iid, "past_employment", strict, fact("past_employment", sid, iid, Const("yes")))
        if pen is not None and "annuity" in pen.model_fields_set:
            given_yes_no(sid, add, iid, "annuity", "annuity", pen.annuity)
        else:  # default: not an annuity
            defaulted(sid, add, iid, "annuity", strict, fact("annuity", sid, iid, Const("no")))
    # government service
    if item.type == "government_service":
        gov = item.government
        paying = gov.paying_state if gov is not None else None
        payer = sc.persons.get(item.payer)
        if paying is None and payer is not None and payer.kind == "government":
            paying = payer.government_of
        if paying is not None:
            add(fact("paying_state", sid, iid, Const(paying)))
        if gov is not None:
            given_value(sid, add, iid, "capacity", "public_capacity", gov.capacity)
        add(fact("government_payment", sid, iid, Const(gov.kind if gov is not None else "remuneration")))
    # visiting professors and students: the visit or stay, its period, the remuneration in the currency of
    # the limit the rules compare it with
    prof, stu = item.professor, item.student
    if prof is not None:
        add(fact("host_state", sid, iid, Const(prof.host_state)))
        given_value(sid, add, iid, "resident_before", "resident_before", prof.resident_before)
        given_value(sid, add, iid, "invited_by", "invited_by", prof.invited_by)
        given_yes_no(sid, add, iid, "sole_purpose", "sole_purpose", prof.sole_purpose)
        _period_facts(sid, add, iid, prof.from_, prof.until, declared.months)
        if prof.planned_until is not None:
            add(fact("planned_visit_end", sid, iid, day(prof.planned_until)))
        if record_given(sid, add, iid, "for_teaching_until", prof.for_teaching_until):
            assert isinstance(prof.for_teaching_until, date)
            add(fact("rewarded_teaching_end", sid, iid, day(prof.for_teaching_until)))
        if prof.employed:
            add(fact("in_employment", sid, iid))
    if stu is not None:
        add(fact("host_state", sid, iid, Const(stu.host_state)))
        add(fact("student_payment", sid, iid, Const(stu.payment)))
        if stu.payment == "maintenance":
            given_value(sid, add, iid, "resident_before", "resident_before", stu.resident_before)
            given_value(sid, add, iid, "capacity", "study_capacity", stu.capacity)
            given_yes_no(sid, add, iid, "sole_purpose", "sole_purpose", stu.sole_purpose)
            given_yes_no(sid, add, iid, "sources_outside_host", "sources_outside_host", stu.from_sources_outside_host)
        else:
            given_value(sid, add, iid, "institution_state", "institution_state", stu.institution_state)
            given_yes_no(sid, add, iid, "practical_training", "practical_training", stu.practical_training)
            if stu.employment_from is not None:
                _period_facts(sid, add, iid, stu.employment_from, stu.employment_until, declared.months)
            amount = stu.annual_remuneration
            if amount is not None:
                add(fact("given", sid, iid, Const("annual_remuneration")))
                for currency in declared.amounts.get((sc.treaty, "annual_remuneration"), ()):
                    converted: Decimal | None = None
                    rate = getattr(stu, f"{currency}_exchange_rate", None)
                    if amount.currency == currency.upper():
                        converted = amount.amount
                    elif record_given(sid, add, iid, f"{currency}_exchange_rate", rate):
                        assert isinstance(rate, Decimal)
                        converted = amount.amount / rate
                    if converted is not None:
                        # rounded up to the cent: a hundredth of a cent over a limit is over it
                        cents = (converted * 100).to_integral_value(rounding=ROUND_CEILING)
                        add(fact("annual_remuneration_cents", sid, iid, Const(currency), money_cents(cents / 100)))


def _period_facts(sid: str, add: Add, iid: str, start: date, until: object, months: frozenset[int]) -> None:
    """The visit or employment of item ``iid``: its first and last day, and for each period length of
    the treaties the last day of a period of that length from its start."""
    if until is not None:
        add(fact("given", sid, iid, Const("period_end")))
    if until == "unknown":
        add(fact("unknown", sid, iid, Const("period_end")))
    elif isinstance(until, date):
        add(fact("service_period", sid, iid, day(start), day(until)))
    for m in sorted(months):
        add(fact("period_limit", sid, iid, m, day(dates.period_last_day(start, m))))
