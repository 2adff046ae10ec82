"""Scenario → facts: the one audited place where scenario data becomes program text (:mod:`.emit`), with
the facts of each subject of the format emitted beside one another, one module per subject (persons,
holdings, places of business, income by type, entitlement, procedures), and the measures the rules
declare they need computed from dates and amounts (:mod:`.declared`) served for whatever treaty
declares them. No treaty, article or figure is named here.
"""

from __future__ import annotations

from typing import Any

from pyhelpers.base import dates
from pyhelpers.facts.business import business_facts
from pyhelpers.facts.declared import Declared
from pyhelpers.facts.emit import Add, Const, day, defaulted, fact
from pyhelpers.facts.entitlement import entitlement_facts
from pyhelpers.facts.holdings import holding_facts
from pyhelpers.facts.investment import investment_facts
from pyhelpers.facts.persons import person_facts
from pyhelpers.facts.places import place_facts
from pyhelpers.facts.procedures import procedure_facts
from pyhelpers.facts.services import services_facts
from pyhelpers.facts.timeline import NO_CUTS, Cuts, timeline_cuts
from pyhelpers.scenario import IncomeItem, Scenario, person_questions

__all__ = ["NO_CUTS", "Cuts", "Declared", "compared_gross", "item_key", "scenario_facts", "timeline_cuts"]


def scenario_facts(sc: Scenario, sid: str, declared: Declared | None = None, strict: bool = False,
                   cuts: Cuts = NO_CUTS) -> list[str]:
    """All facts of one scenario, its id ``sid`` first in every fact, with the measures ``declared``
    (none when not given: a scenario's facts without any computed measure).

    An attribute the scenario does not give whose documented default stands for it is emitted with that
    default and marked ``defaulted(S, X, A)``: the rules decide where the default matters and show it
    as an assumption. With ``strict`` no default is emitted: where the law needs the fact it is missing.
    ``cuts``: more days at which the ownership periods and the sites' timelines are cut
    (:func:`timeline_cuts`)."""
    declared = declared if declared is not None else Declared()
    out: list[str] = [
        fact("scenario", sid),
        fact("scenario_treaty", sid, sc.treaty),
        fact("evaluation_date", sid, day(sc.evaluation_date)),
    ]
    add = out.append
    if strict:
        add(fact("strict", sid))
    person_facts(sc, sid, add, strict)
    holding_facts(sc, sid, add, declared, cuts.ownership, strict)
    place_facts(sc, sid, add, declared, cuts.sites, strict)
    _income_facts(sc, sid, add, declared, strict)
    business_facts(sc, sid, add, strict)
    investment_facts(sc, sid, add, declared, strict)
    services_facts(sc, sid, add, declared, strict)
    procedure_facts(sc, sid, add, declared, strict)
    entitlement_facts(sc, sid, add, strict)
    return out


def compared_gross(item: IncomeItem) -> bool:
    """Whether an arm's-length amount of ``item`` is compared with its gross amount (:func:`investment_facts`):
    then :func:`item_key` depends on that amount."""
    return any(b is not None and b.arm_length_amount is not None for b in (item.interest, item.royalty))


def item_key(item: IncomeItem) -> str:
    """What the facts of ``item`` depend on but for its id: two items of one scenario with the same key
    have the same facts, their ids aside (a batch emits facts for one item of each key). That is the
    item as given (the fields set, since a default is emitted as ``defaulted``) without its id, its
    withholding (no fact reads it: compliance is computed in Python) and its gross amount, unless an
    arm's-length amount is compared with it (:func:`investment_facts`); the gross's currency stays."""
    exclude: dict[str, Any] = {"id": True, "withholding": True}
    if not compared_gross(item):
        exclude["gross"] = {"amount"}
    return item.model_dump_json(exclude_unset=True, exclude=exclude)


def _income_facts(sc: Scenario, sid: str, add: Add, declared: Declared, strict: bool) -> None:
    """What every income item has: its type, parties, dates (with the date each month count of the
    treaties' periods before it, and its payment and fiscal years) and the place of business it names."""
    for item in sc.income:
        iid = item.id
        add(fact("income", sid, iid, Const(item.type)))
        add(fact("income_payer", sid, iid, item.payer))
        add(fact("income_recipient", sid, iid, item.recipient))
        add(fact("beneficial_owner", sid, iid, item.beneficial_owner or item.recipient))
        add(fact("income_date", sid, iid, day(item.date)))
        if sc.treaty in declared.date_ymd:
            add(fact("income_date_ymd", sid, iid, dates.ymd_number(item.date)))
        for m in sorted(declared.months):
            add(fact("months_before", sid, iid, m, day(dates.months_before(item.date, m))))
        if item.place_of_business is not None:
            add(fact("income_place_of_business", sid, iid, item.place_of_business))
        if item.gross is not None:
            add(fact("given", sid, iid, Const("gross")))
        add(fact("item_year", sid, iid, Const("payment"), item.date.year))
        earliest = dates.earliest_fiscal_year_start(item.date)
        add(fact("item_year", sid, iid, Const("fiscal_year_earliest"), earliest.year))
        # the fiscal year of a State whose tax the item does not name with its first day (a tax names it:
        # tax_year, :func:`procedure_facts`): the documented default, the calendar year
        fiscal = fact("item_year", sid, iid, Const("fiscal_year"), dates.fiscal_year_start(item.date).year)
        defaulted(sid, add, iid, "fiscal_year_start", strict, fiscal)
    for q in person_questions(sc):
        add(fact("person_question", sid, q.id, q.person, day(q.date or sc.evaluation_date)))
