"""Facts of business income items (:mod:`pyhelpers.scenario.business`): immovable property, business
profits, the operation of ships and aircraft and what is ancillary to it, conditions between associated
enterprises, and whether the source State's law taxes remitted branch profits as dividends."""

from __future__ import annotations

from pyhelpers.facts.emit import Add, Const, defaulted, fact, given_value, given_yes_no
from pyhelpers.scenario import Scenario


def business_facts(sc: Scenario, sid: str, add: Add, strict: bool = False) -> None:
    """``strict``: a default the format documents (``purchase_of_goods_only``: false) is not applied (the
    rules find it missing where it matters); otherwise it is marked ``defaulted``."""
    for item in sc.income:
        iid = item.id
        ip = item.immovable_property
        if item.type == "immovable_property" and ip is not None:
            given_value(sid, add, iid, "situated_in", "immovable_situated_in", ip.situated_in)
            given_value(sid, add, iid, "property", "property_kind", ip.property)
            given_yes_no(sid, add, iid, "assimilated", "assimilated_to_immovable", ip.assimilated_by_situs_law)
            given_yes_no(sid, add, iid, "held_by_enterprise", "held_by_enterprise", ip.held_by_enterprise)
        bp = item.business_profits
        if item.type in ("business_profits", "immovable_property") and bp is not None:
            given_yes_no(sid, add, iid, "attributable_to_place", "attributable_to_place", bp.attributable_to_place)
        # of any item (the rules may take one of another type as profits of an enterprise): not given, the default
        # (not from a mere purchase of goods) is marked defaulted
        if bp is not None and "purchase_of_goods_only" in bp.model_fields_set:
            given_yes_no(sid, add, iid, "purchase_of_goods_only", "purchase_of_goods_only", bp.purchase_of_goods_only)
        else:
            defaulted(sid, add, iid, "purchase_of_goods_only", strict,
                      fact("purchase_of_goods_only", sid, iid, Const("no")))
        if item.shipping is not None:
            sh = item.shipping
            add(fact("transport_mode", sid, iid, Const(sh.mode)))
            if sh.solely_within is not None:
                add(fact("operated_solely_within", sid, iid, Const(sh.solely_within)))
            if "management_on_board" not in sh.model_fields_set:  # default: management ashore (marked defaulted)
                defaulted(sid, add, iid, "management_on_board", strict)
            else:
                add(fact("given", sid, iid, Const("management_on_board")))
            if sh.management_on_board:
                add(fact("management_on_board", sid, iid))
                if sh.port_of_registry is not None:
                    add(fact("given", sid, iid, Const("port_of_registry")))
                    if sh.port_of_registry != "none":
                        add(fact("port_of_registry", sid, iid, Const(sh.port_of_registry)))
                    else:  # stated: the ship has none
                        add(fact("no_port_of_registry", sid, iid))
            if sh.pool:
                add(fact("pool_participation", sid, iid))
            if sh.air_consortium_share:
                add(fact("air_consortium_share", sid, iid))
        anc = item.shipping_ancillary
        if anc is not None:
            add(fact("shipping_ancillary", sid, iid, Const(anc.kind)))
            given_yes_no(sid, add, iid, "incidental", "ancillary_incidental", anc.incidental)
        if item.transfer_pricing is not None:
            tp = item.transfer_pricing
            add(fact("given", sid, iid, Const("conditions_differ_from_arm_length")))
            if tp.conditions_differ_from_arm_length == "unknown":
                add(fact("unknown", sid, iid, Const("conditions_differ_from_arm_length")))
            elif tp.conditions_differ_from_arm_length:
                add(fact("non_arm_length_conditions", sid, iid))
            if tp.management_or_control_link:
                add(fact("management_or_control_link", sid, iid))
        given_yes_no(sid, add, iid, "source_law_taxes_dividends", "source_law_taxes_dividends",
                     item.source_law_taxes_dividends)
