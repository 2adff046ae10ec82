"""Facts of entitlement to the benefits of a treaty (:mod:`pyhelpers.scenario.entitlement`): what a
limitation-on-benefits article asks of persons and items, the ratios of a third jurisdiction's tax to the
residence State's (in basis points, rounded down: money is never multiplied in the logic), arrangements
and the two questions of a principal purpose test, and its indicators."""

from __future__ import annotations

from decimal import ROUND_FLOOR, Decimal

from pyhelpers.facts.emit import (
    INT_MAX,
    Add,
    Const,
    defaulted,
    fact,
    given_value,
    given_values,
    given_yes_no,
    record_given,
)
from pyhelpers.scenario import Money, Scenario

_BASIS_POINTS = 10000
"""Basis points in a whole: a ratio is given in basis points."""

_PROOF_ELEMENTS = {"no_principal_purpose": "proof_no_principal_purpose",
                   "gross_income_to_non_entitled": "proof_gross_income"}
"""The fields of a ``benefits_proof`` block and the attribute each stands for (``given``/``defaulted``): a field
the block omits is not proven by the format's default, shown as an assumption (--strict: missing), as the
whole block omitted is (exam52 D3)."""


def _ratio_bp(part: Decimal, whole: Decimal) -> int:
    """``part / whole`` in basis points, rounded down (so it is below a threshold in basis points exactly
    when the ratio is below it), at most :data:`INT_MAX`."""
    return min(int((part * _BASIS_POINTS / whole).to_integral_value(rounding=ROUND_FLOOR)), INT_MAX)


def entitlement_facts(sc: Scenario, sid: str, add: Add, strict: bool = False) -> None:
    for pid, p in sc.persons.items():
        e = p.entitlement
        if e is not None:
            given_yes_no(sid, add, pid, "regularly_traded", "regularly_traded", e.regularly_traded)
            given_value(sid, add, pid, "entity_purpose", "entity_purpose", e.entity_purpose)
            activities = e.business_activity
            given_values(sid, add, pid, "conducted_activity", "conducted_activity",
                         [activities] if isinstance(activities, str) and activities != "unknown" else activities)
            add(fact("financial_institution", sid, pid, Const(e.financial_institution)))
            given_yes_no(sid, add, pid, "equivalent_beneficiary", "equivalent_beneficiary", e.equivalent_beneficiary)
            given_yes_no(sid, add, pid, "equivalent_beneficiary_as_company", "equivalent_beneficiary_as_company",
                         e.equivalent_beneficiary_as_company)
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
        if proof is None and p.kind == "company":  # the format's default: nothing proven (shown where it decides)
            defaulted(sid, add, pid, "benefits_proof", strict, *(fact("given", sid, pid, Const(element))
                                                                 for element in _PROOF_ELEMENTS.values()))
        if proof is not None:
            add(fact("given", sid, pid, Const("benefits_proof")))
            for field, element in _PROOF_ELEMENTS.items():  # a field the block omits: its default, as the block's
                if getattr(proof, field) is not None and field in proof.model_fields_set:
                    add(fact("given", sid, pid, Const(element)))
                else:
                    defaulted(sid, add, pid, element, strict)
            if proof.no_principal_purpose:
                add(fact("proven", sid, pid, Const("no_principal_purpose")))
            if proof.gross_income_to_non_entitled is not None:
                add(fact("proven_share_to_non_entitled", sid, pid, proof.gross_income_to_non_entitled))
        sub = p.substance
        if sub is not None:  # indicators for a principal purpose test, never a decision
            if record_given(sid, add, pid, "employees", sub.employees):
                assert isinstance(sub.employees, int)
                add(fact("employee_count", sid, pid, sub.employees))
            given_yes_no(sid, add, pid, "premises", "has_premises", sub.premises)

    for aid, arr in sc.arrangements.items():
        for iid in arr.items:
            add(fact("arrangement_item", sid, aid, iid))
        for question in ("principal_purpose", "object_and_purpose"):
            value = getattr(arr, question)
            if record_given(sid, add, aid, question, value):
                add(fact("purpose_answer", sid, aid, Const(question), Const("yes" if value else "no")))

    for item in sc.income:
        iid = item.id
        ie = item.entitlement
        if ie is not None:
            given_yes_no(sid, add, iid, "income_from_business", "income_from_business", ie.from_business)
            given_yes_no(sid, add, iid, "business_substantial", "business_substantial", ie.substantial)
            given_yes_no(sid, add, iid, "controlled_with_payer", "controlled_with_payer", ie.controlled_with_payer)
            given_yes_no(sid, add, iid, "competent_authority_grant", "competent_authority_grant",
                         ie.competent_authority_grant)
        pe = item.third_jurisdiction_pe
        if pe is not None:
            add(fact("third_jurisdiction_pe", sid, iid))
            given_yes_no(sid, add, iid, "pe_profits_exempt", "pe_profits_exempt", pe.profits_exempt_in_residence)
            given_yes_no(sid, add, iid, "third_pe_active_business", "third_pe_active_business", pe.active_business)
            known_third = record_given(sid, add, iid, "third_jurisdiction_tax", pe.third_jurisdiction_tax)
            known_res = record_given(sid, add, iid, "residence_state_tax", pe.residence_state_tax)
            if known_third and known_res:
                assert isinstance(pe.third_jurisdiction_tax, Decimal) and isinstance(pe.residence_state_tax, Decimal)
                add(fact("third_tax_ratio", sid, iid, min(_ratio_bp(pe.third_jurisdiction_tax,
                                                                   pe.residence_state_tax), 100 * _BASIS_POINTS)))
        given_yes_no(sid, add, iid, "from_offshore_activity", "from_offshore_activity", item.from_offshore_activity)
        t = item.third_state_pe
        if t is not None:
            given_yes_no(sid, add, iid, "attributed_to_third_state_pe", "attributed_to_third_state_pe",
                         t.attributed_by_uae)
            given_yes_no(sid, add, iid, "exempt_in_uae", "third_state_pe_exempt", t.exempt_in_uae)
            taxes = (t.third_state_tax, t.uae_tax_if_situated_there)
            if any(x is not None for x in taxes):
                add(fact("given", sid, iid, Const("third_state_tax_share")))
                if any(x == "unknown" for x in taxes):
                    add(fact("unknown", sid, iid, Const("third_state_tax_share")))
                elif all(isinstance(x, Money) for x in taxes):
                    third, residence = (x.amount for x in taxes if isinstance(x, Money))
                    # no residence-State tax: the third jurisdiction's share is not below any threshold
                    share = _BASIS_POINTS if residence == 0 else _ratio_bp(third, residence)
                    add(fact("third_state_tax_share", sid, iid, share))
        if item.derived_through is not None:
            add(fact("derived_through", sid, iid, item.derived_through))
        given_yes_no(sid, add, iid, "effectively_taxed_in_residence", "effectively_taxed_in_residence",
                     item.effectively_taxed_in_residence)
        if item.passed_on is not None:  # an indicator for a principal purpose test, never a decision
            add(fact("passed_on", sid, iid, item.passed_on.to, item.passed_on.share, item.passed_on.within_days))
