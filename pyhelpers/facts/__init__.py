"""Scenario → facts. The one audited place where data becomes program text.

Every fact is built by :func:`fact` from checked values only:

* ``str`` → a quoted ASP string with ``\\``, ``"`` and newline escaped (ids can never become syntax);
* :class:`Const` → a symbolic constant, only if it matches ``[a-z][a-z0-9_]*`` (enumerations the
  scenario model has already validated, e.g. State codes and person kinds);
* ``int`` → a number, only inside clingo's 32-bit range (``bool`` is refused);
* :class:`Fn` → a function term of such values.

Money never reaches the logic (amounts stay ``Decimal`` in Python); dates become day numbers.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal
from functools import lru_cache, partial

from pyhelpers.base import dates
from pyhelpers.scenario import CONTRACTING_STATES, IncomeItem, Money, Scenario

INT_MIN, INT_MAX = -(2**31), 2**31 - 1
_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")


class Const(str):
    """A symbolic constant (an enumeration value, never user free text)."""

    __slots__ = ()


@dataclass(frozen=True)
class Fn:
    """A function term ``name(args)``."""

    name: str
    args: tuple[Value, ...]


Value = str | int | Const | Fn


@lru_cache(maxsize=65536)
def quote(text: str) -> str:
    """An ASP string literal for ``text`` (memoised: ids recur in every fact of their scenario)."""
    if "\x00" in text:
        raise ValueError("a string with a NUL character cannot become a fact")
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


@lru_cache(maxsize=4096)
def _checked_name(name: str) -> str:
    if not _NAME_RE.match(name):
        raise ValueError(f"not a symbolic constant: {name!r}")
    return name


def term(value: Value) -> str:
    """The ASP text of one checked value."""
    kind = type(value)
    if kind is str:
        return quote(value)
    if kind is Const:
        return _checked_name(value)
    if isinstance(value, bool):
        raise TypeError("booleans are not facts: use a constant yes/no")
    if isinstance(value, int):
        if not INT_MIN <= value <= INT_MAX:
            raise ValueError(f"integer {value} outside clingo's 32-bit range")
        return str(value)
    if isinstance(value, Const):
        return _checked_name(str(value))
    if isinstance(value, str):
        return quote(str(value))
    if isinstance(value, Fn):
        if not _NAME_RE.match(value.name):
            raise ValueError(f"not a function name: {value.name!r}")
        return f"{value.name}({', '.join(term(a) for a in value.args)})"
    raise TypeError(f"cannot turn {type(value).__name__} into a fact")


def fact(name: str, *args: Value) -> str:
    """One fact ``name(args).`` — the only way scenario data becomes program text."""
    try:
        _checked_name(name)
    except ValueError:
        raise ValueError(f"not a predicate name: {name!r}") from None
    return f"{name}({', '.join(map(term, args))})."


def open_option(sid: str, fact_no: int, value_no: int) -> str:
    """``_option(sid, F, V).``: alternative V of the scenario's open fact F (issue 7)."""
    return f"_option({quote(sid)}, {term(fact_no)}, {term(value_no)})."


def conditional_fact(text: str, sid: str, conditions: tuple[tuple[int, int], ...],
                     absent: tuple[tuple[int, int], ...] = ()) -> str:
    """The fact ``text`` (made by :func:`fact`) holding only where every open fact F has its alternative V
    for the pairs (F, V) of ``conditions`` and none of the pairs of ``absent``:
    ``f(...) :- _value(sid, F, V), ..., not _value(sid, F2, V2), ...`` (issue 7)."""
    if not (text.endswith(").") and _checked_name(text[: text.index("(")])):
        raise ValueError(f"not a fact: {text!r}")
    if not conditions and not absent:
        return text
    body = [f"_value({quote(sid)}, {term(f)}, {term(v)})" for f, v in conditions]
    body += [f"not _value({quote(sid)}, {term(f)}, {term(v)})" for f, v in absent]
    return f"{text[:-1]} :- {', '.join(body)}."


def day(d: date) -> int:
    return dates.day_number(d)


def scenario_facts(sc: Scenario, sid: str, months: frozenset[int] = frozenset()) -> list[str]:
    """All facts of one scenario, its id ``sid`` first in every fact.

    ``months`` lists the month counts that the logic's period parameters use; for each income item
    the date module computes the date that many months before the item's date.
    """
    out: list[str] = [
        fact("scenario", sid),
        fact("scenario_treaty", sid, sc.treaty),
        fact("evaluation_date", sid, day(sc.evaluation_date)),
    ]
    add = out.append

    def given(subject: str, attribute: Value, value: object) -> bool:
        return record_given(sid, add, subject, attribute, value)

    for pid, p in sc.persons.items():
        add(fact("person", sid, pid, Const(p.kind)))
        if p.liable_to_tax is not None:
            add(fact("given", sid, pid, Const("liable_to_tax")))
            for state, criteria in sorted(p.liable_to_tax.items()):
                if criteria == "unknown":
                    add(fact("unknown", sid, pid, Fn("liable_to_tax", (Const(state),))))
                    continue
                for c in sorted(set(criteria)):
                    add(fact("liable_to_tax", sid, pid, Const(state), Const(c)))
        if given(pid, Const("treated_as_body_corporate"), p.treated_as_body_corporate) and p.treated_as_body_corporate:
            add(fact("treated_as_body_corporate", sid, pid))
        if p.government_of is not None:
            add(fact("government_of", sid, pid, Const(p.government_of)))
        for attr, pred in (
            ("nationality", "national_of"),
            ("permanent_home", "permanent_home"),
            ("habitual_abode", "habitual_abode"),
        ):
            value = getattr(p, attr)
            if given(pid, Const(attr), value):
                for state in sorted(set(value)):
                    add(fact(pred, sid, pid, Const(state)))
        if given(pid, Const("vital_interests"), p.vital_interests):
            if p.vital_interests == "undetermined":
                add(fact("vital_interests_undetermined", sid, pid))
            else:
                add(fact("vital_interests", sid, pid, Const(str(p.vital_interests))))
        if given(pid, Const("effective_management"), p.effective_management):
            add(fact("effective_management", sid, pid, Const(str(p.effective_management))))

    for n, h in enumerate(sc.holdings):
        hid = f"holding-{n + 1}"
        until = h.until or dates.OPEN_END
        mode = Const("direct" if h.direct else "indirect")
        add(fact("holding", sid, hid, h.holder, h.company, mode, day(h.from_), day(until)))
        for measure in ("capital", "votes", "value"):
            share = getattr(h, measure)
            if share is not None:
                add(fact("holding_share", sid, hid, Const(measure), share))

    periods = dates.elementary_periods((h.from_, h.until or dates.OPEN_END) for h in sc.holdings)
    for start, end in periods:
        add(fact("ownership_period", sid, day(start), day(end)))

    for aid, arr in sc.arrangements.items():
        for iid in arr.items:
            add(fact("arrangement_item", sid, aid, iid))
        for question in ("principal_purpose", "object_and_purpose"):
            value = getattr(arr, question)
            if given(aid, Const(question), value):
                add(fact("purpose_answer", sid, aid, Const(question), Const("yes" if value else "no")))

    for bid, b in sc.places_of_business.items():
        add(fact("place_of_business", sid, bid, b.owner, Const(b.state)))
        if given(bid, Const("permanent_establishment"), b.permanent_establishment):
            add(fact("permanent_establishment_stated", sid, bid, Const("yes" if b.permanent_establishment else "no")))

    for pr in sc.presence:
        add(fact("presence", sid, pr.person, Const(pr.state), day(pr.from_), day(pr.until)))

    _facts_arts_8_9_protocol_9(sc, sid, add)
    _facts_arts_5_to_9(sc, sid, add)
    _facts_arts_11_to_13_22(sc, sid, add)
    _facts_arts_14_to_21(sc, sid, add, months)
    _facts_general(sc, sid, add, months)
    _facts_br_pl(sc, sid, add)
    _facts_br_sg(sc, sid, add)
    _facts_br_uy(sc, sid, add)
    _facts_br_ae(sc, sid, add, months)
    _facts_ppt_indicators(sc, sid, add)

    for item in sc.income:
        iid = item.id
        add(fact("income", sid, iid, Const(item.type)))
        add(fact("income_payer", sid, iid, item.payer))
        add(fact("income_recipient", sid, iid, item.recipient))
        add(fact("beneficial_owner", sid, iid, item.beneficial_owner or item.recipient))
        add(fact("income_date", sid, iid, day(item.date)))
        for m in sorted(months):
            add(fact("months_before", sid, iid, m, day(dates.months_before(item.date, m))))
        if item.place_of_business is not None:
            add(fact("income_place_of_business", sid, iid, item.place_of_business))
        if item.type == "dividend":
            details = item.dividend
            add(fact("dividend_instrument", sid, iid, Const(details.instrument if details else "shares")))
            if details is not None:
                v = details.same_tax_treatment_as_shares
                if given(iid, Const("same_tax_treatment_as_shares"), v):
                    add(fact("same_tax_treatment_as_shares", sid, iid, Const("yes" if v else "no")))
                v = details.payer_has_profits_from_other_state
                if given(iid, Const("payer_profits_from_other_state"), v):
                    add(fact("payer_profits_from_other_state", sid, iid, Const("yes" if v else "no")))
                if details.connected_place_of_business is not None:
                    add(fact("connected_place_of_business", sid, iid, details.connected_place_of_business))
    return out


# --- Facts of each group of articles. Each group owns its function. ----------------------------------
Add = Callable[[str], None]


def money_cents(amount: Decimal) -> int:
    """An amount in cents for a comparison in the logic, clamped to clingo's range (never multiplied
    there: any amount above the clamp is above every threshold the treaties set)."""
    cents = int((amount * 100).to_integral_value(rounding=ROUND_HALF_UP))
    return max(INT_MIN, min(INT_MAX, cents))


def _facts_arts_8_9_protocol_9(sc: Scenario, sid: str, add: Add) -> None:
    """Shipping and air transport, associated enterprises, special regimes (br-pt Protocol 9)."""
    for pid, p in sc.persons.items():
        if p.special_regime == "unknown":
            add(fact("given", sid, pid, Const("special_regime")))
            add(fact("unknown", sid, pid, Const("special_regime")))
            continue
        add(fact("given", sid, pid, Const("special_regime")))
        for regime in sorted(set(p.special_regime)):
            add(fact("special_regime", sid, pid, Const(regime)))
    for item in sc.income:
        iid = item.id
        if item.shipping is not None:
            sh = item.shipping
            add(fact("transport_mode", sid, iid, Const(sh.mode)))
            if sh.solely_within is not None:
                add(fact("operated_solely_within", sid, iid, Const(sh.solely_within)))
            if sh.management_on_board:
                add(fact("management_on_board", sid, iid))
                if sh.port_of_registry is not None:
                    add(fact("given", sid, iid, Const("port_of_registry")))
                    if sh.port_of_registry != "none":
                        add(fact("port_of_registry", sid, iid, Const(sh.port_of_registry)))
            if sh.pool:
                add(fact("pool_participation", sid, iid))
            if sh.air_consortium_share:
                add(fact("air_consortium_share", sid, iid))
        if item.transfer_pricing is not None:
            tp = item.transfer_pricing
            add(fact("given", sid, iid, Const("conditions_differ_from_arm_length")))
            if tp.conditions_differ_from_arm_length == "unknown":
                add(fact("unknown", sid, iid, Const("conditions_differ_from_arm_length")))
            elif tp.conditions_differ_from_arm_length:
                add(fact("non_arm_length_conditions", sid, iid))
            if tp.management_or_control_link:
                add(fact("management_or_control_link", sid, iid))


def _given_yes_no(sid: str, add: Add, subject: str, attribute: str, pred: str, value: object) -> None:
    """[arts-5-9] A true/false/unknown attribute: ``given`` (and ``unknown``), and ``pred(S, X, yes|no)``."""
    if value is None:
        return
    add(fact("given", sid, subject, Const(attribute)))
    if value == "unknown":
        add(fact("unknown", sid, subject, Const(attribute)))
        return
    add(fact(pred, sid, subject, Const("yes" if value else "no")))


def record_given(sid: str, add: Add, subject: str, attribute: Value, value: object) -> bool:
    """Record that ``attribute`` of ``subject`` was given (``given``; also ``unknown`` when given as
    unknown). True when it was given as a real value; nothing is recorded when it was not given."""
    if value is None:
        return False
    attr = Const(attribute) if isinstance(attribute, str) and not isinstance(attribute, Const) else attribute
    add(fact("given", sid, subject, attr))
    if value == "unknown":
        add(fact("unknown", sid, subject, attr))
        return False
    return True


def _facts_art5_places(sc: Scenario, sid: str, add: Add) -> None:
    """[arts-5-9] Art. 5: the kind, activities and agent facts of each place of business, and the length
    of its period (whole months and days, by the date module) up to its end or, if open-ended, up to the
    evaluation date."""
    for bid, b in sc.places_of_business.items():
        if record_given(sid, add, bid, "kind", b.kind):
            add(fact("place_kind", sid, bid, Const(str(b.kind))))
        _given_yes_no(sid, add, bid, "fixed", "fixed_place", b.fixed)
        _given_yes_no(sid, add, bid, "business_carried_on", "business_through_place", b.business_carried_on)
        if b.activities is not None:
            add(fact("given", sid, bid, Const("activities")))
            if b.activities == "unknown":
                add(fact("unknown", sid, bid, Const("activities")))
            else:
                for activity in sorted(set(b.activities)):
                    add(fact("place_activity", sid, bid, Const(activity)))
        _given_yes_no(sid, add, bid, "activities_preparatory_overall", "activities_preparatory_overall",
                      b.activities_preparatory_overall)
        if b.agent is not None:
            a = b.agent
            _given_yes_no(sid, add, bid, "agent_independent", "agent_independent", a.independent)
            _given_yes_no(sid, add, bid, "agent_ordinary_course", "agent_ordinary_course",
                          a.ordinary_course_of_business)
            _given_yes_no(sid, add, bid, "agent_contract_authority", "agent_contract_authority",
                          a.authority_to_conclude_contracts)
            _given_yes_no(sid, add, bid, "agent_habitual_exercise", "agent_habitual_exercise",
                          a.habitually_exercises_authority)
        if b.from_ is not None:
            if b.until is not None:
                months, days = dates.months_and_days(b.from_, b.until)
                add(fact("place_duration", sid, bid, months, days))
            elif b.from_ <= sc.evaluation_date:
                months, days = dates.months_and_days(b.from_, sc.evaluation_date)
                add(fact("place_elapsed", sid, bid, months, days))


def _facts_arts_6_7_items(sc: Scenario, sid: str, add: Add) -> None:
    """[arts-5-9] Art. 6 (immovable property) and Art. 7 (business profits) facts of each income item."""
    for item in sc.income:
        iid = item.id
        ip = item.immovable_property
        if item.type == "immovable_property" and ip is not None:
            if record_given(sid, add, iid, "situated_in", ip.situated_in):
                add(fact("immovable_situated_in", sid, iid, Const(str(ip.situated_in))))
            if record_given(sid, add, iid, "property", ip.property):
                add(fact("property_kind", sid, iid, Const(str(ip.property))))
            _given_yes_no(sid, add, iid, "assimilated", "assimilated_to_immovable", ip.assimilated_by_situs_law)
            _given_yes_no(sid, add, iid, "held_by_enterprise", "held_by_enterprise", ip.held_by_enterprise)
        bp = item.business_profits
        if item.type in ("business_profits", "immovable_property") and bp is not None:
            _given_yes_no(sid, add, iid, "attributable_to_place", "attributable_to_place", bp.attributable_to_place)
            if bp.purchase_of_goods_only:
                add(fact("purchase_of_goods_only", sid, iid, Const("yes")))


def _facts_arts_5_to_9(sc: Scenario, sid: str, add: Add) -> None:
    """[arts-5-9] places of business, immovable property, business profits, shipping, associated enterprises."""
    _facts_art5_places(sc, sid, add)
    _facts_arts_6_7_items(sc, sid, add)


def _facts_arts_11_to_13_22(sc: Scenario, sid: str, add: Add) -> None:
    """[arts-11-13-22] interest, royalties, capital gains, other income.

    Details are emitted whatever the item's declared type: the rules use them only where an article
    reaches the item (e.g. interest details on a "dividend" paid on a debt claim, Art. 10(3))."""

    def three_valued(iid: str, attribute: str, value: object) -> bool:
        """``given`` (and ``unknown``) facts; True when a real value was given."""
        if value is None:
            return False
        add(fact("given", sid, iid, Const(attribute)))
        if value == "unknown":
            add(fact("unknown", sid, iid, Const(attribute)))
            return False
        return True

    for item in sc.income:
        iid = item.id
        places: list[tuple[str, str | None]] = []
        excess: bool | str = False
        if item.interest is not None:
            it = item.interest
            places += [("borne_by_place_of_business", it.borne_by_place_of_business),
                       ("connected_right", it.connected_place_of_business),
                       ("paid_to_place_of_business", it.paid_to_place_of_business)]
            if three_valued(iid, "government_institution", it.government_institution_of):
                add(fact("government_institution_of", sid, iid, Const(str(it.government_institution_of))))
            excess = it.excess_over_arm_length
        if item.royalty is not None:
            rt = item.royalty
            places += [("borne_by_place_of_business", rt.borne_by_place_of_business),
                       ("connected_right", rt.connected_place_of_business)]
            excess = excess if excess is not False else rt.excess_over_arm_length
        if excess is not False:
            add(fact("given", sid, iid, Const("excess_over_arm_length")))
            if excess == "unknown":
                add(fact("unknown", sid, iid, Const("excess_over_arm_length")))
            else:
                add(fact("excess_over_arm_length", sid, iid))
        if item.capital_gain is not None:
            cg = item.capital_gain
            if three_valued(iid, "property_alienated", cg.property):
                add(fact("property_alienated", sid, iid, Const(str(cg.property))))
            if three_valued(iid, "property_situated_in", cg.situated_in):
                add(fact("property_situated_in", sid, iid, Const(str(cg.situated_in))))
            if cg.place_of_business is not None:
                add(fact("given", sid, iid, Const("business_property_of")))
                add(fact("business_property_of", sid, iid, cg.place_of_business))
        if item.other_income is not None:
            oi = item.other_income
            if three_valued(iid, "arises_in", oi.arises_in):
                add(fact("other_income_arises_in", sid, iid, Const(str(oi.arises_in))))
            places.append(("connected_right", oi.connected_place_of_business))
            if oi.from_immovable_property:
                add(fact("income_from_immovable_property", sid, iid))
        for pred, place in places:
            if place is not None:
                add(fact(pred, sid, iid, place))


def _facts_arts_14_to_21(sc: Scenario, sid: str, add: Add, months: frozenset[int] = frozenset()) -> None:
    """[arts-14-21] independent services, employment, directors, artistes, pensions, government service,
    teachers, students.

    Where another article sends an item (Art. 17 to Arts. 14-15, Art. 19 to Arts. 15 and 18, Arts. 20-21
    to Arts. 14-15), the facts those articles need are emitted too, from the item's own details or their
    documented defaults. Days of presence, the periods of Arts. 20-21 and the conversion to US dollars
    are computed here (the date module; Decimal), never in the logic.
    """

    def given(subject: str, attribute: str, value: object) -> bool:
        return record_given(sid, add, subject, attribute, value)

    def yes_no(subject: str, attribute: str, value: object) -> None:
        if given(subject, attribute, value):
            add(fact(attribute, sid, subject, Const("yes" if value else "no")))

    states = CONTRACTING_STATES[sc.treaty]
    employment_like = ("employment", "government_service", "artiste_sportsperson", "professor", "student")
    for item in sc.income:
        iid = item.id
        if item.type not in _ARTS_14_21_TYPES:
            continue
        emp = item.employment
        # Art. 14: the activity (14(2)) and the place of business bearing the remuneration
        ind = item.independent
        if ind is not None and ind.profession is not None:
            add(fact("profession", sid, iid, Const(ind.profession)))
        bearer = ind.borne_by if ind is not None and ind.borne_by is not None else emp.borne_by if emp else None
        if given(iid, "borne_by", bearer):
            add(fact("borne_by", sid, iid, str(bearer)))
        # where the activity is exercised: the employment block, or the item's own details
        exercised: object = emp.exercised_in if emp is not None else None
        if item.professor is not None:
            exercised = item.professor.host_state
        elif item.student is not None and item.student.payment == "employment":
            exercised = item.student.host_state
        elif item.artiste is not None:
            exercised = item.artiste.exercised_in
        if given(iid, "exercised_in", exercised):
            add(fact("exercised_in", sid, iid, Const(str(exercised))))
        # Art. 15: employer, days of presence in each State, crews of ships and aircraft
        if item.type in employment_like:
            employer = (emp.employer if emp is not None else None) or item.payer
            add(fact("employer", sid, iid, employer))
            fy = emp.fiscal_year if emp is not None else None
            calendar_year = (date(item.date.year, 1, 1), date(item.date.year, 12, 31))
            year = (fy.from_, fy.until) if fy is not None else calendar_year
            for st in states:
                periods = [(p.from_, p.until) for p in sc.presence if p.person == item.recipient and p.state == st]
                if periods:
                    n, (w_from, w_to) = dates.max_days_in_windows(periods, year)
                    add(fact("max_presence", sid, iid, Const(st), n, day(w_from), day(w_to)))
            if emp is not None and emp.aboard is not None:
                add(fact("aboard", sid, iid, Const(emp.aboard)))
                add(fact("crew_operator", sid, iid, emp.operator or employer))
                if emp.operated_solely_within is not None:
                    add(fact("operated_solely_within", sid, iid, Const(emp.operated_solely_within)))
        # Art. 16
        if item.type == "director_fees":
            add(fact("board_company", sid, iid, (item.director.company if item.director else None) or item.payer))
        # Art. 17
        if item.type == "artiste_sportsperson":
            art = item.artiste
            add(fact("performer", sid, iid, (art.performer if art else None) or item.recipient))
            funding = art.public_funding if art is not None else {}
            if isinstance(funding, str):
                given(iid, "public_funding", funding)
            else:
                for st, share in sorted(funding.items()):
                    add(fact("public_funding", sid, iid, Const(st), share))
            if art is not None and art.employed:
                add(fact("in_employment", sid, iid))
        # Art. 18 (also for government pensions, which Art. 19 may send there)
        pen = item.pension
        if item.type == "pension" or (item.government is not None and item.government.kind == "pension"):
            if pen is not None and given(iid, "social_security", pen.social_security):
                add(fact("social_security_of", sid, iid, Const(str(pen.social_security))))
            yes_no(iid, "past_employment", pen.past_employment if pen is not None else True)
        # Art. 19
        if item.type == "government_service":
            gov = item.government
            paying = gov.paying_state if gov is not None else None
            payer = sc.persons.get(item.payer)
            if paying is None and payer is not None and payer.kind == "government":
                paying = payer.government_of
            if paying is not None:
                add(fact("paying_state", sid, iid, Const(paying)))
            if gov is not None and given(iid, "capacity", gov.capacity):
                add(fact("public_capacity", sid, iid, Const(str(gov.capacity))))
            add(fact("government_payment", sid, iid, Const(gov.kind if gov is not None else "remuneration")))
        # Arts. 20 and 21: the visit or stay, its period, the remuneration in US dollars
        prof, stu = item.professor, item.student
        if prof is not None:
            add(fact("host_state", sid, iid, Const(prof.host_state)))
            if given(iid, "resident_before", prof.resident_before):
                add(fact("resident_before", sid, iid, Const(str(prof.resident_before))))
            if given(iid, "invited_by", prof.invited_by):
                add(fact("invited_by", sid, iid, Const(str(prof.invited_by))))
            yes_no(iid, "sole_purpose", prof.sole_purpose)
            _period_facts(sid, add, iid, prof.from_, prof.until, months)
            if prof.employed:
                add(fact("in_employment", sid, iid))
        if stu is not None:
            add(fact("host_state", sid, iid, Const(stu.host_state)))
            add(fact("student_payment", sid, iid, Const(stu.payment)))
            if stu.payment == "maintenance":
                if given(iid, "resident_before", stu.resident_before):
                    add(fact("resident_before", sid, iid, Const(str(stu.resident_before))))
                if given(iid, "capacity", stu.capacity):
                    add(fact("study_capacity", sid, iid, Const(str(stu.capacity))))
                yes_no(iid, "sole_purpose", stu.sole_purpose)
                yes_no(iid, "sources_outside_host", stu.from_sources_outside_host)
            else:
                if given(iid, "institution_state", stu.institution_state):
                    add(fact("institution_state", sid, iid, Const(str(stu.institution_state))))
                yes_no(iid, "practical_training", stu.practical_training)
                if stu.employment_from is not None:
                    _period_facts(sid, add, iid, stu.employment_from, stu.employment_until, months)
                amount = stu.annual_remuneration or item.gross
                if amount is not None:
                    add(fact("given", sid, iid, Const("annual_remuneration")))
                    usd: Decimal | None = None
                    if amount.currency == "USD":
                        usd = amount.amount
                    elif given(iid, "usd_exchange_rate", stu.usd_exchange_rate):
                        assert isinstance(stu.usd_exchange_rate, Decimal)
                        usd = amount.amount / stu.usd_exchange_rate
                    if usd is not None:
                        # rounded up to the cent: 10,000.001 exceeds US$ 10,000 and must compare as above it
                        cents = (usd * 100).to_integral_value(rounding=ROUND_CEILING)
                        add(fact("annual_remuneration_cents", sid, iid, Const("usd"), money_cents(cents / 100)))


_ARTS_14_21_TYPES = (
    "independent_services", "employment", "director_fees", "artiste_sportsperson", "pension",
    "government_service", "professor", "student",
)


def _period_facts(sid: str, add: Add, iid: str, start: date, until: object, months: frozenset[int]) -> None:
    """[arts-14-21] The visit (Art. 20) or employment (Art. 21(2)) of item ``iid``: its first and last day,
    and for each period length of the treaties the last day of a period of that length from its start."""
    if until is not None:
        add(fact("given", sid, iid, Const("period_end")))
    if until == "unknown":
        add(fact("unknown", sid, iid, Const("period_end")))
    elif isinstance(until, date):
        add(fact("service_period", sid, iid, day(start), day(until)))
    for m in sorted(months):
        add(fact("period_limit", sid, iid, m, day(dates.period_last_day(start, m))))


def _facts_general(sc: Scenario, sid: str, add: Add, months: frozenset[int] = frozenset()) -> None:
    """[general] taxes covered, elimination of double taxation, non-discrimination, MAP, dates, Protocol.

    ``months`` are the month counts of the treaties' periods: the date module computes, for each, the
    date that many months after the dates of a mutual agreement case (Art. 25(1)) and before 31 December
    of the year of cessation of a termination notice (Art. 29).
    """

    def three_valued(subject: str, attribute: str, pred: str, value: bool | str | None) -> None:
        """``given`` (and ``unknown``) for an attribute; ``pred(S, X, yes|no)`` when it is known."""
        if value is None:
            return
        add(fact("given", sid, subject, Const(attribute)))
        if value == "unknown":
            add(fact("unknown", sid, subject, Const(attribute)))
        else:
            add(fact(pred, sid, subject, Const("yes" if value else "no")))

    notice = sc.termination_notice
    if notice is not None:
        add(fact("termination_notice", sid, notice.cessation_year, day(notice.given)))
        for m in sorted(months):
            add(fact("months_before_year_end", sid, notice.cessation_year, m,
                     day(dates.months_before_year_end(notice.cessation_year, m))))

    for item in sc.income:
        iid = item.id
        tax = item.tax
        add(fact("item_year", sid, iid, Const("payment"), item.date.year))
        fiscal = dates.fiscal_year_start(item.date, tax.fiscal_year_start if tax is not None else None)
        add(fact("item_year", sid, iid, Const("fiscal_year"), fiscal.year))
        if tax is not None:
            add(fact("given", sid, iid, Const("tax")))
            add(fact("item_tax", sid, iid, Const(tax.name)))
            if tax.name == "other" and tax.state is not None:
                add(fact("item_tax_state", sid, iid, Const(tax.state)))
            three_valued(iid, "withheld_at_source", "withheld_at_source", tax.withheld_at_source)
            if tax.in_force_from is not None:
                add(fact("given", sid, iid, Const("tax_in_force_from")))
                add(fact("tax_in_force_from", sid, iid, day(tax.in_force_from)))
            three_valued(iid, "identical_or_similar", "tax_identical_or_similar", tax.identical_or_similar)
            three_valued(iid, "federal", "tax_federal", tax.federal)

        relief = item.relief
        if relief is not None:
            add(fact("given", sid, iid, Const("relief")))
            three_valued(iid, "payer_taxed_without_exemption", "payer_taxed_without_exemption",
                         relief.payer_taxed_without_exemption)
            if relief.payer_constituted is not None:
                add(fact("given", sid, iid, Const("payer_constituted")))
                add(fact("payer_constituted", sid, iid, day(relief.payer_constituted)))
            three_valued(iid, "portugal_indirect_credit_method", "portugal_indirect_credit_method",
                         relief.portugal_indirect_credit_method)

        case = item.mutual_agreement_case
        if case is not None:
            add(fact("given", sid, iid, Const("mutual_agreement_case")))
            add(fact("map_claimant", sid, iid, case.claimant or item.beneficial_owner or item.recipient))
            three_valued(iid, "taxed_in_both_states", "taxed_in_both_states", case.taxed_in_both_states)
            starts = {"payment": item.date, "notification": case.notified,
                      "second_taxation": case.second_taxation_notified}
            for kind, start in starts.items():
                if start is None:
                    continue
                if kind == "notification":
                    add(fact("given", sid, iid, Const("taxation_notified")))
                if kind == "second_taxation":
                    add(fact("given", sid, iid, Const("second_taxation_notified")))
                for m in sorted(months):
                    add(fact("date_after_months", sid, iid, Const(kind), m, day(dates.months_after(start, m))))
            if case.request_filed is not None:
                add(fact("map_request_filed", sid, iid, day(case.request_filed)))

        nd = item.non_discrimination
        if nd is not None:
            add(fact("comparison", sid, iid, Const(nd.ground), Const(nd.taxing_state)))
            if nd.ground == "permanent_establishment":
                if nd.place_of_business is not None:
                    add(fact("compared_place", sid, iid, nd.place_of_business))
            elif nd.ground == "nationality":
                add(fact("compared_person", sid, iid, nd.person or item.beneficial_owner or item.recipient))
            else:
                add(fact("compared_person", sid, iid, nd.person or item.payer))
            add(fact("given", sid, iid, Const("treatment")))
            if nd.treatment == "unknown":
                add(fact("unknown", sid, iid, Const("treatment")))
            else:
                add(fact("compared_treatment", sid, iid, Const(nd.treatment)))
            three_valued(iid, "same_circumstances", "same_circumstances", nd.same_circumstances)
            if nd.reason is not None:
                add(fact("comparison_reason", sid, iid, Const(nd.reason)))


def _facts_br_sg(sc: Scenario, sid: str, add: Add) -> None:
    """[br-sg] Brazil–Singapore facts: partnerships and statutory bodies (Arts. 4(1), 10(2)(a), Protocol 1),
    the days of the services of Art. 5(4) in the best 12-month window beginning or ending in each item's
    fiscal year (the date module), insurance agents (5(8)), holdings continued through a reorganisation and
    holdings still open (10(2)(a)), the item's date as YYYYMMDD (entry into force) and Art. 8(3) facts."""
    if sc.treaty != "br-sg":
        return

    yes_no = partial(_given_yes_no, sid, add)

    for pid, p in sc.persons.items():
        yes_no(pid, "partnership", "partnership", p.partnership)
        if p.statutory_body is not None:
            add(fact("statutory_body_of", sid, pid, Const(p.statutory_body.state)))
            yes_no(pid, "government_functions", "non_commercial_government_functions",
                   p.statutory_body.only_non_commercial_government_functions)
    for n, h in enumerate(sc.holdings):
        hid = f"holding-{n + 1}"
        if h.until is None:
            add(fact("holding_open_ended", sid, hid))
        if h.continues_by_reorganisation is not None:
            c = h.continues_by_reorganisation
            add(fact("holding_continues", sid, hid, c.holder, c.company))
    for bid, b in sc.places_of_business.items():
        if b.insurance is not None:
            add(fact("insurance_agent", sid, bid))
            yes_no(bid, "premiums_or_risks", "insurance_premiums_or_risks", b.insurance.premiums_or_risks)
            if b.insurance.reinsurance_only:
                add(fact("reinsurance_only", sid, bid))
        if b.services is not None:
            add(fact("services_place", sid, bid))
    for item in sc.income:
        iid = item.id
        add(fact("income_date_ymd", sid, iid, dates.ymd_number(item.date)))
        start = dates.fiscal_year_start(item.date, item.tax.fiscal_year_start if item.tax is not None else None)
        fiscal_year = (start, dates.period_last_day(start, 12))
        for bid, b in sc.places_of_business.items():
            if b.services is not None:
                periods = [(p.from_, p.until) for p in b.services.periods]
                count, (w_from, w_to) = dates.max_days_in_windows(periods, fiscal_year)
                add(fact("service_days", sid, iid, bid, count, day(w_from), day(w_to)))
        anc = item.shipping_ancillary
        if anc is not None:
            add(fact("shipping_ancillary", sid, iid, Const(anc.kind)))
            yes_no(iid, "incidental", "ancillary_incidental", anc.incidental)
        yes_no(iid, "source_law_taxes_dividends", "source_law_taxes_dividends", item.source_law_taxes_dividends)


# [br-pl] fixed bases, what a payment is for (Arts. 12(3), 13(3)), shares deriving value from immovable
# property (Art. 14(4)), where a gain arises (Art. 14(5)), days of presence for Art. 15(1)(b).
_BR_PL_LOOKBACK_DAYS = 365
"""br-pl Art. 14(4): "os 365 dias anteriores à alienação" (the logic cites the same figure as day_count)."""


def _facts_br_pl(sc: Scenario, sid: str, add: Add) -> None:
    """[br-pl] Facts only the br-pl rules read (emitted for br-pl scenarios only). Whether the known
    shares of value cover every one of the 365 days before an alienation is computed here (the date
    module), never day by day in the logic."""
    if sc.treaty != "br-pl":
        return

    def given(subject: str, attribute: str, value: object) -> bool:
        return record_given(sid, add, subject, attribute, value)

    for bid, b in sc.places_of_business.items():
        if given(bid, "fixed_base", b.fixed_base):
            add(fact("fixed_base_stated", sid, bid, Const("yes" if b.fixed_base else "no")))
    states = CONTRACTING_STATES[sc.treaty]
    for item in sc.income:
        iid = item.id
        pf = item.payment_for
        if pf is not None:
            if given(iid, "rights", pf.rights):
                assert isinstance(pf.rights, list)
                for right in sorted(set(pf.rights)):
                    add(fact("royalty_right", sid, iid, Const(right)))
            if given(iid, "services", pf.services):
                assert isinstance(pf.services, list)
                for nature in sorted(set(pf.services)):
                    add(fact("service_nature", sid, iid, Const(nature)))
            if given(iid, "characterisation", pf.characterisation):
                add(fact("stated_characterisation", sid, iid, Const(str(pf.characterisation))))
            for attr, name in (("paid_to_employee_of_payer", "employee_of_payer"), ("teaching", "teaching"),
                               ("personal_use", "personal_use")):
                value = getattr(pf, attr)
                if value == "unknown":
                    add(fact("unknown", sid, iid, Const(name)))
                elif value:
                    add(fact("services_exclusion", sid, iid, Const(name)))
            if pf.also_under is not None:
                add(fact("also_under", sid, iid, Const(pf.also_under)))
        sa = item.shares_alienated
        if sa is not None:
            add(fact("alienated_rights", sid, iid, Const(sa.kind), Const(sa.immovable_in)))
            if given(iid, "value_from_immovable", sa.value_from_immovable):
                assert isinstance(sa.value_from_immovable, list)
                for v in sa.value_from_immovable:
                    add(fact("value_share", sid, iid, day(v.from_), day(v.until), v.share))
                window = dates.days_before(item.date, _BR_PL_LOOKBACK_DAYS)
                periods = [(v.from_, v.until) for v in sa.value_from_immovable]
                if dates.days_present(periods, window) == _BR_PL_LOOKBACK_DAYS:
                    add(fact("value_record_complete", sid, iid))
        if given(iid, "gain_arises_in", item.gain_arises_in):
            add(fact("gain_arises_in", sid, iid, Const(str(item.gain_arises_in))))
        if item.type in ("independent_services", "technical_services", "royalty"):  # Art. 15, also by 12(4), 13(3)
            year = (date(item.date.year, 1, 1), date(item.date.year, 12, 31))
            for st in states:
                periods = [(p.from_, p.until) for p in sc.presence if p.person == item.recipient and p.state == st]
                if periods:
                    n, (w_from, w_to) = dates.max_days_in_windows(periods, year)
                    add(fact("max_presence", sid, iid, Const(st), n, day(w_from), day(w_to)))


def _facts_br_uy(sc: Scenario, sid: str, add: Add) -> None:
    """[br-uy] Art. 29 facts (emitted for br-uy scenarios only): the persons' entitlement facts, the items'
    active-business and third-jurisdiction facts, the rights a royalty is paid for (12(2)(a)-(b), 12(3)), and
    the candidate twelve-month windows of 29(2)(e) and 29(4) with the days of each ownership period inside
    each window (the date module): days after the evaluation date are counted apart, as unknown, unless the
    scenario says the holdings continue. The ratio of the third-jurisdiction tax to the residence-State tax
    (29(8)) is computed here in basis points, rounded down (so it is below 6000 exactly when the tax is
    below 60 per cent): money is never multiplied in the logic."""
    if sc.treaty != "br-uy":
        return

    yes_no = partial(_given_yes_no, sid, add)
    _facts_br_uy_transparency(sc, sid, add)

    def term(subject: str, attribute: str, pred: str, value: object) -> None:
        if record_given(sid, add, subject, attribute, value):
            add(fact(pred, sid, subject, Const(str(value))))

    for pid, p in sc.persons.items():
        e = p.entitlement
        if e is None:
            continue
        yes_no(pid, "regularly_traded", "regularly_traded", e.regularly_traded)
        term(pid, "entity_purpose", "entity_purpose", e.entity_purpose)
        term(pid, "conducted_activity", "conducted_activity", e.business_activity)
        add(fact("financial_institution", sid, pid, Const(e.financial_institution)))
        yes_no(pid, "equivalent_beneficiary", "equivalent_beneficiary", e.equivalent_beneficiary)
        yes_no(pid, "equivalent_beneficiary_as_company", "equivalent_beneficiary_as_company",
               e.equivalent_beneficiary_as_company)

    periods = dates.elementary_periods((h.from_, h.until or dates.OPEN_END) for h in sc.holdings)
    cuts = sorted({a for a, _ in periods} | {b + timedelta(days=1) for _, b in periods if b < dates.OPEN_END})
    horizon = dates.OPEN_END if sc.holdings_continue else sc.evaluation_date
    for item in sc.income:
        iid = item.id
        ie = item.entitlement
        if ie is not None:
            yes_no(iid, "income_from_business", "income_from_business", ie.from_business)
            yes_no(iid, "business_substantial", "business_substantial", ie.substantial)
            yes_no(iid, "controlled_with_payer", "controlled_with_payer", ie.controlled_with_payer)
        pe = item.third_jurisdiction_pe
        if pe is not None:
            add(fact("third_jurisdiction_pe", sid, iid))
            yes_no(iid, "pe_profits_exempt", "pe_profits_exempt", pe.profits_exempt_in_residence)
            yes_no(iid, "third_pe_active_business", "third_pe_active_business", pe.active_business)
            known_third = record_given(sid, add, iid, "third_jurisdiction_tax", pe.third_jurisdiction_tax)
            known_res = record_given(sid, add, iid, "residence_state_tax", pe.residence_state_tax)
            if known_third and known_res:
                assert isinstance(pe.third_jurisdiction_tax, Decimal) and isinstance(pe.residence_state_tax, Decimal)
                ratio = (pe.third_jurisdiction_tax * 10000 / pe.residence_state_tax).to_integral_value(
                    rounding="ROUND_FLOOR")
                add(fact("third_tax_ratio", sid, iid, min(int(ratio), 1_000_000)))
        pf = item.payment_for
        if item.type == "royalty" and pf is not None and record_given(sid, add, iid, "rights", pf.rights):
            assert isinstance(pf.rights, list)
            for right in sorted(set(pf.rights)):
                add(fact("royalty_right", sid, iid, Const(right)))
        _facts_br_uy_item(sid, add, item)
        if not periods:
            continue
        for first, last in dates.period_windows_including(item.date, 12, cuts):
            unknown_days = dates.inclusive_days(max(first, horizon + timedelta(days=1)), last) \
                if horizon < dates.OPEN_END else 0
            add(fact("ownership_window", sid, iid, day(first), day(last), dates.inclusive_days(first, last),
                     unknown_days))
            for start, end in periods:
                n = dates.inclusive_days(max(first, start), min(last, end, horizon))
                if n > 0:
                    add(fact("ownership_window_days", sid, iid, day(first), day(start), n))


def _facts_br_uy_transparency(sc: Scenario, sid: str, add: Add) -> None:
    """[br-uy] Protocol 1: for each entity, the elements of fiscal transparency under each State's law
    (``given``/``unknown`` keyed by the State)."""
    for pid, p in sc.persons.items():
        for state, ft in sorted((p.fiscal_transparency or {}).items()):
            for attr, pred in (("taxed_at_entity", "taxed_at_entity"),
                               ("members_taxed_as_derived_directly", "members_taxed_directly")):
                value = getattr(ft, attr)
                key = Fn(pred, (Const(state),))
                if record_given(sid, add, pid, key, value):
                    add(fact(pred, sid, pid, Const(state), Const("yes" if value else "no")))


def _facts_br_uy_item(sid: str, add: Add, item: IncomeItem) -> None:
    """[br-uy] An item's facts for Arts. 1(2), 12 and Protocol 2-3: the entity it is derived through, the
    State its royalties arise in (12(5) is not in the corpus), whether the residence State effectively
    taxes business profits, a bank's commission, a government agency's public functions."""
    iid = item.id
    yes_no = partial(_given_yes_no, sid, add)
    if item.derived_through is not None:
        add(fact("derived_through", sid, iid, item.derived_through))
    rt = item.royalty
    if rt is not None and record_given(sid, add, iid, "royalty_arises_in", rt.arises_in):
        add(fact("royalty_arises_in", sid, iid, Const(str(rt.arises_in))))
    yes_no(iid, "effectively_taxed_in_residence", "effectively_taxed_in_residence", item.effectively_taxed_in_residence)
    yes_no(iid, "financial_institution_charge", "financial_institution_charge", item.financial_institution_charge)
    if item.interest is not None:
        yes_no(iid, "public_functions", "public_functions", item.interest.public_functions)


def _facts_br_ae(sc: Scenario, sid: str, add: Add, months: frozenset[int] = frozenset()) -> None:
    """[br-ae] Brazil–UAE facts: control (Art. 5(8)); the length in days of each place of business and of
    each period of ``months`` months from its first day (the date module; Art. 5(3)); connected sites,
    cohesive operations (5(4.1)), agents' contracts (5(5), 5(7)), insurance agents (5(6)); the UAE offshore
    regimes (29(1)), third-jurisdiction permanent establishments (29(2)) and the proof of 29(3)."""
    if sc.treaty != "br-ae":
        return

    yes_no = partial(_given_yes_no, sid, add)

    for pid, p in sc.persons.items():
        if record_given(sid, add, pid, "controlled_by", p.controlled_by):
            assert isinstance(p.controlled_by, list)
            for other in sorted(set(p.controlled_by)):
                add(fact("controlled_by", sid, pid, other))
        if p.offshore_regime is not None:
            r = p.offshore_regime
            add(fact("offshore_regime", sid, pid, Const(r.activity)))
            if record_given(sid, add, pid, "offshore_rate", r.offshore_rate):
                assert isinstance(r.offshore_rate, int)
                add(fact("offshore_rate", sid, pid, r.offshore_rate))
                if r.offshore_rate == 0:
                    add(fact("offshore_untaxed", sid, pid))
            if record_given(sid, add, pid, "domestic_rate", r.domestic_rate):
                assert isinstance(r.domestic_rate, int)
                add(fact("domestic_rate", sid, pid, r.domestic_rate))
        proof = p.benefits_proof
        if proof is not None:
            if proof.no_principal_purpose:
                add(fact("proven", sid, pid, Const("no_principal_purpose")))
            if proof.gross_income_to_non_entitled is not None:
                add(fact("proven_share_to_non_entitled", sid, pid, proof.gross_income_to_non_entitled))
    for bid, b in sc.places_of_business.items():
        if b.from_ is not None:
            end = b.until if b.until is not None else sc.evaluation_date
            if b.from_ <= end:
                add(fact("place_days" if b.until is not None else "place_days_elapsed", sid, bid,
                         dates.inclusive_days(b.from_, end)))
            for m in sorted(months):
                add(fact("place_period_days", sid, bid, m,
                         dates.inclusive_days(b.from_, dates.period_last_day(b.from_, m))))
        if b.same_site_as is not None:
            add(fact("same_site", sid, bid, b.same_site_as))
        for other in sorted(set(b.cohesive_operation_with)):
            add(fact("complementary_functions", sid, bid, other))
        yes_no(bid, "combined_activities_preparatory", "combined_activities_preparatory",
               b.combined_activities_preparatory)
        c = b.contracts
        if c is not None:
            if c.person is not None:
                add(fact("agent_person", sid, bid, c.person))
            yes_no(bid, "habitually_concludes", "agent_habitually_concludes", c.habitually_concludes)
            yes_no(bid, "principal_role", "agent_principal_role", c.principal_role)
            if record_given(sid, add, bid, "contract_kinds", c.kinds):
                assert isinstance(c.kinds, list)
                for kind in sorted(set(c.kinds)):
                    add(fact("agent_contract_kind", sid, bid, Const(kind)))
            if record_given(sid, add, bid, "acts_exclusively_for", c.acts_exclusively_for):
                assert isinstance(c.acts_exclusively_for, list)
                for other in sorted(set(c.acts_exclusively_for)):
                    add(fact("agent_acts_exclusively_for", sid, bid, other))
        if b.insurance is not None:
            add(fact("given", sid, bid, Const("insurance")))
            yes_no(bid, "premiums_or_risks", "insurance_through_person", b.insurance.premiums_or_risks)
            if b.insurance.reinsurance_only:
                add(fact("insurance_reinsurance_only", sid, bid))
    for item in sc.income:
        iid = item.id
        yes_no(iid, "from_offshore_activity", "from_offshore_activity", item.from_offshore_activity)
        anc = item.shipping_ancillary
        if anc is not None and item.type == "shipping_air_transport":
            add(fact("transport_ancillary", sid, iid, Const(anc.kind)))
            yes_no(iid, "incidental", "transport_ancillary_incidental", anc.incidental)
        t = item.third_state_pe
        if t is None:
            continue
        yes_no(iid, "attributed_to_third_state_pe", "attributed_to_third_state_pe", t.attributed_by_uae)
        yes_no(iid, "exempt_in_uae", "third_state_pe_exempt", t.exempt_in_uae)
        taxes = (t.third_state_tax, t.uae_tax_if_situated_there)
        if all(x is None for x in taxes):
            continue
        add(fact("given", sid, iid, Const("third_state_tax_share")))
        if any(x == "unknown" for x in taxes):
            add(fact("unknown", sid, iid, Const("third_state_tax_share")))
        elif all(isinstance(x, Money) for x in taxes):
            third, uae = (x.amount for x in taxes if isinstance(x, Money))
            # the third jurisdiction's tax as a share of the UAE tax, in basis points rounded down: a share
            # below 60% rounds to less than 6000 and one of 60% or more never does; no UAE tax: not below
            share = 10000 if uae == 0 else int((third * 10000 / uae).to_integral_value(rounding=ROUND_FLOOR))
            add(fact("third_state_tax_share", sid, iid, min(share, INT_MAX)))


def _facts_ppt_indicators(sc: Scenario, sid: str, add: Add) -> None:
    """[ppt-indicators] Facts weighed as indicators for a principal purpose test (never a decision): a
    person's employees and premises, and an item passed on by its recipient (logic/core/ppt_indicators.lp)."""
    for pid, p in sc.persons.items():
        sub = p.substance
        if sub is None:
            continue
        if record_given(sid, add, pid, "employees", sub.employees):
            assert isinstance(sub.employees, int)
            add(fact("employee_count", sid, pid, sub.employees))
        _given_yes_no(sid, add, pid, "premises", "has_premises", sub.premises)
    for item in sc.income:
        if item.passed_on is not None:
            add(fact("passed_on", sid, item.id, item.passed_on.to, item.passed_on.share, item.passed_on.within_days))
