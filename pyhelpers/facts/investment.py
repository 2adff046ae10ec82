"""Facts of income from investments and rights (:mod:`pyhelpers.scenario.investment`): dividends,
interest, royalties and fees for services (what they are paid for), capital gains (with shares deriving
their value from immovable property and, where a treaty declares it, whether the shares of value given
cover every day of its look-back before the alienation), and other income.

Details are emitted whatever the item's declared type: the rules use them only where an article reaches
the item (e.g. interest details on a "dividend" paid on a debt claim)."""

from __future__ import annotations

from pyhelpers.base import dates
from pyhelpers.facts.declared import Declared
from pyhelpers.facts.emit import (
    Add,
    Const,
    day,
    defaulted,
    fact,
    given_value,
    given_values,
    given_yes_no,
    record_given,
)
from pyhelpers.scenario import Money, Scenario
from pyhelpers.scenario.common import NONE

ARM_LENGTH_TYPES = ("dividend", "interest", "interest_on_equity", "royalty", "technical_services")
"""The item types whose details say whether the amount exceeds what independent parties would agree (a
"dividend" may be paid on a debt claim)."""


def investment_facts(sc: Scenario, sid: str, add: Add, declared: Declared, strict: bool = False) -> None:
    lookback = declared.value_record.get(sc.treaty)
    for item in sc.income:
        iid = item.id
        if item.type == "dividend":
            details = item.dividend
            add(fact("dividend_instrument", sid, iid, Const(details.instrument if details else "shares")))
            if details is None or "connected_place_of_business" not in details.model_fields_set:
                defaulted(sid, add, iid, "connected_place_of_business", strict)  # default: connected with none
            else:
                add(fact("given", sid, iid, Const("connected_place_of_business")))
            if details is not None:
                given_yes_no(sid, add, iid, "same_tax_treatment_as_shares", "same_tax_treatment_as_shares",
                             details.same_tax_treatment_as_shares)
                given_yes_no(sid, add, iid, "payer_profits_from_other_state", "payer_profits_from_other_state",
                             details.payer_has_profits_from_other_state)
                if details.connected_place_of_business not in (None, NONE):
                    add(fact("connected_place_of_business", sid, iid, details.connected_place_of_business))
        places: list[tuple[str, str | None]] = []
        excess: bool | str | None = None  # not given: not above the arm's-length amount (marked defaulted)
        arm = next((b.arm_length_amount for b in (item.interest, item.royalty)
                    if b is not None and b.arm_length_amount is not None), None)
        if item.interest is not None:
            it = item.interest
            places += [("borne_by_place_of_business", it.borne_by_place_of_business),
                       ("connected_right", it.connected_place_of_business),
                       ("paid_to_place_of_business", it.paid_to_place_of_business)]
            given_value(sid, add, iid, "government_institution", "government_institution_of",
                        it.government_institution_of)
            if "excess_over_arm_length" in it.model_fields_set:
                excess = it.excess_over_arm_length
            given_yes_no(sid, add, iid, "public_functions", "public_functions", it.public_functions)
        if item.type in ("interest", "interest_on_equity"):  # the debt-claim's connected place
            if item.interest is None or "connected_place_of_business" not in item.interest.model_fields_set:
                defaulted(sid, add, iid, "connected_claim", strict)  # default: connected with none
            else:
                add(fact("given", sid, iid, Const("connected_claim")))
        if item.type in ("royalty", "technical_services"):  # the right's or service's connected place
            if item.royalty is None or "connected_place_of_business" not in item.royalty.model_fields_set:
                defaulted(sid, add, iid, "connected_right", strict)  # default: connected with none
            else:
                add(fact("given", sid, iid, Const("connected_right")))
        if item.type == "other_income":  # the connected place of the right or property the income is paid for
            if item.other_income is None or "connected_place_of_business" not in item.other_income.model_fields_set:
                defaulted(sid, add, iid, "connected_income", strict)  # default: connected with none
            else:
                add(fact("given", sid, iid, Const("connected_income")))
        if item.royalty is not None:
            rt = item.royalty
            places += [("borne_by_place_of_business", rt.borne_by_place_of_business),
                       ("connected_right", rt.connected_place_of_business)]
            if "excess_over_arm_length" in rt.model_fields_set and excess is None:
                excess = rt.excess_over_arm_length
            given_value(sid, add, iid, "royalty_arises_in", "royalty_arises_in", rt.arises_in)
        if record_given(sid, add, iid, "arm_length_amount", arm) and excess is None and item.gross is not None:
            assert isinstance(arm, Money)
            excess = arm.amount < item.gross.amount  # the amount says whether there is an excess
        if excess is None:
            if item.interest is not None or item.royalty is not None or item.type in ARM_LENGTH_TYPES:
                defaulted(sid, add, iid, "excess_over_arm_length", strict)  # default: not above arm's length
        elif record_given(sid, add, iid, "excess_over_arm_length", excess) and excess:
            add(fact("excess_over_arm_length", sid, iid))
        given_yes_no(sid, add, iid, "financial_institution_charge", "financial_institution_charge",
                     item.financial_institution_charge)
        if item.capital_gain is not None:
            cg = item.capital_gain
            given_value(sid, add, iid, "property_alienated", "property_alienated", cg.property)
            given_value(sid, add, iid, "property_situated_in", "property_situated_in", cg.situated_in)
            if cg.place_of_business is not None:
                add(fact("given", sid, iid, Const("business_property_of")))
                add(fact("business_property_of", sid, iid, cg.place_of_business))
        if item.other_income is not None:
            oi = item.other_income
            given_value(sid, add, iid, "arises_in", "other_income_arises_in", oi.arises_in)
            places.append(("connected_right", oi.connected_place_of_business))
            if oi.from_immovable_property:
                add(fact("income_from_immovable_property", sid, iid))
        for pred, place in places:
            if place is not None and place != NONE:
                add(fact(pred, sid, iid, place))
        pf = item.payment_for
        if pf is not None:
            given_values(sid, add, iid, "rights", "royalty_right", pf.rights)
            given_values(sid, add, iid, "services", "service_nature", pf.services)
            given_value(sid, add, iid, "characterisation", "stated_characterisation", pf.characterisation)
            for attr, name in (("paid_to_employee_of_payer", "paid_to_employee_of_payer"), ("teaching", "teaching"),
                               ("personal_use", "personal_use")):  # the exclusion named as its field
                value = getattr(pf, attr)
                if attr not in pf.model_fields_set:  # default: no exclusion (marked defaulted)
                    defaulted(sid, add, iid, name, strict)
                    continue
                add(fact("given", sid, iid, Const(name)))
                if value == "unknown":
                    add(fact("unknown", sid, iid, Const(name)))
                elif value:
                    add(fact("services_exclusion", sid, iid, Const(name)))
            if pf.also_under is not None:
                add(fact("also_under", sid, iid, Const(pf.also_under)))
        sa = item.shares_alienated
        if sa is not None:
            add(fact("alienated_rights", sid, iid, Const(sa.kind), Const(sa.immovable_in)))
            if record_given(sid, add, iid, "value_from_immovable", sa.value_from_immovable):
                assert isinstance(sa.value_from_immovable, list)
                for v in sa.value_from_immovable:
                    add(fact("value_share", sid, iid, day(v.from_), day(v.until), v.share))
                if lookback is not None:
                    window = dates.days_before(item.date, lookback)
                    periods = [(v.from_, v.until) for v in sa.value_from_immovable]
                    if dates.days_present(periods, window) == lookback:
                        add(fact("value_record_complete", sid, iid))
        given_value(sid, add, iid, "gain_arises_in", "gain_arises_in", item.gain_arises_in)
