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
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from . import dates
from .scenario import Scenario

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


def quote(text: str) -> str:
    """An ASP string literal for ``text``."""
    if "\x00" in text:
        raise ValueError("a string with a NUL character cannot become a fact")
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def term(value: Value) -> str:
    """The ASP text of one checked value."""
    if isinstance(value, Const):
        if not _NAME_RE.match(value):
            raise ValueError(f"not a symbolic constant: {value!r}")
        return str(value)
    if isinstance(value, bool):
        raise TypeError("booleans are not facts: use a constant yes/no")
    if isinstance(value, int):
        if not INT_MIN <= value <= INT_MAX:
            raise ValueError(f"integer {value} outside clingo's 32-bit range")
        return str(value)
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, Fn):
        if not _NAME_RE.match(value.name):
            raise ValueError(f"not a function name: {value.name!r}")
        return f"{value.name}({', '.join(term(a) for a in value.args)})"
    raise TypeError(f"cannot turn {type(value).__name__} into a fact")


def fact(name: str, *args: Value) -> str:
    """One fact ``name(args).`` — the only way scenario data becomes program text."""
    if not _NAME_RE.match(name):
        raise ValueError(f"not a predicate name: {name!r}")
    return f"{name}({', '.join(term(a) for a in args)})."


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
        """Record that an attribute was given; True when it was given as a real value (not unknown)."""
        if value is None:
            return False
        add(fact("given", sid, subject, attribute))
        if value == "unknown":
            add(fact("unknown", sid, subject, attribute))
            return False
        return True

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

    for bid, b in sc.places_of_business.items():
        add(fact("place_of_business", sid, bid, b.owner, Const(b.state)))
        if given(bid, Const("permanent_establishment"), b.permanent_establishment):
            add(fact("permanent_establishment_stated", sid, bid, Const("yes" if b.permanent_establishment else "no")))

    for pr in sc.presence:
        add(fact("presence", sid, pr.person, Const(pr.state), day(pr.from_), day(pr.until)))

    _facts_arts_8_9_protocol_9(sc, sid, add)
    _facts_arts_5_to_9(sc, sid, add)
    _facts_arts_11_to_13_22(sc, sid, add)
    _facts_arts_14_to_21(sc, sid, add)
    _facts_general(sc, sid, add)

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


def _facts_arts_5_to_9(sc: Scenario, sid: str, add: Add) -> None:
    """[arts-5-9] places of business, immovable property, business profits, shipping, associated enterprises."""


def _facts_arts_11_to_13_22(sc: Scenario, sid: str, add: Add) -> None:
    """[arts-11-13-22] interest, royalties, capital gains, other income."""


def _facts_arts_14_to_21(sc: Scenario, sid: str, add: Add) -> None:
    """[arts-14-21] independent services, employment, directors, artistes, pensions, government service,
    teachers, students."""


def _facts_general(sc: Scenario, sid: str, add: Add) -> None:
    """[general] taxes covered, elimination of double taxation, non-discrimination, MAP, dates, Protocol."""
