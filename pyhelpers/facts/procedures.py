"""Facts of what an item asks beyond its taxing rights (:mod:`pyhelpers.scenario.procedures`): the tax it
concerns, the elimination of double taxation, a mutual agreement case (with the date each month count of
the treaties' periods after its dates), a non-discrimination comparison, and a notice of termination
(with the date each month count before the end of its year of cessation, and of each later year up to
the one after the notice's)."""

from __future__ import annotations

from datetime import date

from pyhelpers.base import dates
from pyhelpers.facts.declared import Declared
from pyhelpers.facts.emit import Add, Const, day, defaulted, fact, given_yes_no, record_given
from pyhelpers.scenario import Scenario
from pyhelpers.scenario.catalogue import catalogue
from pyhelpers.scenario.procedures import TaxConcerned


def procedure_facts(sc: Scenario, sid: str, add: Add, declared: Declared, strict: bool = False) -> None:
    months = declared.months
    notice = sc.termination_notice
    if notice is not None:
        add(fact("termination_notice", sid, notice.cessation_year, day(notice.given)))
        # the year of cessation, and each later year up to the one after the notice's: the years a notice
        # given on that day could be in time for, were it late for the year it names
        for year in range(notice.cessation_year, max(notice.cessation_year, notice.given.year + 1) + 1):
            for m in sorted(months):
                add(fact("months_before_year_end", sid, year, m, day(dates.months_before_year_end(year, m))))

    for item in sc.income:
        iid = item.id
        taxes = item.taxes
        if taxes:
            add(fact("given", sid, iid, Const("tax")))
        for tax in taxes:
            add(fact("item_tax", sid, iid, Const(tax.name)))
            if tax.name == "other" and tax.state is not None:
                add(fact("item_tax_state", sid, iid, Const(tax.state)))
            if tax.in_force_from is not None:
                add(fact("given", sid, iid, Const("tax_in_force_from")))
                add(fact("tax_in_force_from", sid, iid, day(tax.in_force_from)))
            given_yes_no(sid, add, iid, "identical_or_similar", "tax_identical_or_similar", tax.identical_or_similar)
            given_yes_no(sid, add, iid, "federal", "tax_federal", tax.federal)
            _tax_of_state(sid, add, iid, tax, item.date)
        single = item.single_tax
        if single is not None:  # one tax: whether it is withheld at source is the item's
            given_yes_no(sid, add, iid, "withheld_at_source", "withheld_at_source", single.withheld_at_source)

        relief = item.relief
        if relief is not None:
            add(fact("given", sid, iid, Const("relief")))
            given_yes_no(sid, add, iid, "payer_taxed_without_exemption", "payer_taxed_without_exemption",
                         relief.payer_taxed_without_exemption)
            if relief.payer_constituted is not None:
                add(fact("given", sid, iid, Const("payer_constituted")))
                add(fact("payer_constituted", sid, iid, day(relief.payer_constituted)))
            given_yes_no(sid, add, iid, "domestic_indirect_credit", "domestic_indirect_credit",
                         relief.domestic_indirect_credit)
            if "portugal_indirect_credit_method" in relief.model_fields_set:
                given_yes_no(sid, add, iid, "portugal_indirect_credit_method", "portugal_indirect_credit_method",
                             relief.portugal_indirect_credit_method)
            else:  # default: not replaced
                defaulted(sid, add, iid, "portugal_indirect_credit_method", strict,
                          fact("portugal_indirect_credit_method", sid, iid, Const("no")))

        case = item.mutual_agreement_case
        if case is not None:
            add(fact("given", sid, iid, Const("mutual_agreement_case")))
            add(fact("map_claimant", sid, iid, case.claimant or item.beneficial_owner or item.recipient))
            given_yes_no(sid, add, iid, "taxed_in_both_states", "taxed_in_both_states", case.taxed_in_both_states)
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

        mfn = item.most_favoured_nation
        if mfn is not None and record_given(sid, add, iid, "most_favoured_nation", mfn.limited):
            if not mfn.limited:
                add(fact("later_convention_limit", sid, iid, Const("none")))
            elif mfn.cap is not None:
                add(fact("later_convention_cap", sid, iid, mfn.cap))
            else:
                add(fact("later_convention_limit", sid, iid, Const("residence_only")))

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
            given_yes_no(sid, add, iid, "same_circumstances", "same_circumstances", nd.same_circumstances)
            if nd.reason is not None:
                add(fact("comparison_reason", sid, iid, Const(nd.reason)))


def _tax_of_state(sid: str, add: Add, iid: str, tax: TaxConcerned, on: date) -> None:
    """The facts of one tax the item names, each with the State that levies it (the catalogue's for a named
    tax, the scenario's for ``other``): ``tax_named``, whether it is withheld at source
    (``tax_withheld_at_source``, with ``tax_given`` and ``tax_unknown``) and the year of the first day of
    its fiscal year where the scenario gives it (``tax_year(S, I, St, fiscal_year, Y)``)."""
    state = catalogue().tax_states.get(tax.name) or tax.state
    if state is None:
        return
    st = Const(state)
    add(fact("tax_named", sid, iid, st, Const(tax.name)))
    if tax.withheld_at_source is not None:
        add(fact("tax_given", sid, iid, st, Const("withheld_at_source")))
        if tax.withheld_at_source == "unknown":
            add(fact("tax_unknown", sid, iid, st, Const("withheld_at_source")))
        else:
            add(fact("tax_withheld_at_source", sid, iid, st, Const("yes" if tax.withheld_at_source else "no")))
    if tax.fiscal_year_start is not None:
        add(fact("tax_given", sid, iid, st, Const("fiscal_year_start")))
        year = dates.fiscal_year_start(on, tax.fiscal_year_start).year
        add(fact("tax_year", sid, iid, st, Const("fiscal_year"), year))
