"""The loader's checks beyond the models, by subject: references resolve, ids are unique, periods are in
order, details blocks sit on the item types that read them, and what a field names exists in the
treaty's catalogue (its States, its named taxes). Every problem is reported at once."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from datetime import date
from typing import Any

from pyhelpers.base.errors import Problem
from pyhelpers.scenario.catalogue import catalogue
from pyhelpers.scenario.common import NONE, UNKNOWN, Money
from pyhelpers.scenario.document import Scenario, withholding_state
from pyhelpers.scenario.expectations import ExpectedAnswer
from pyhelpers.scenario.holdings import Holding
from pyhelpers.scenario.problems import LineMap, describe, field_path, suggest
from pyhelpers.scenario.services import DETAIL_BLOCKS, REQUIRED_BLOCKS


def check_references(sc: Scenario, source: str, lines: LineMap) -> list[Problem]:
    """Every reference resolves; ids unique; holdings consistent; no cyclic ownership."""
    problems: list[Problem] = []
    persons = list(sc.persons)
    places = list(sc.places_of_business)

    def ref(path: tuple[Any, ...], value: str | None, choices: list[str], what: str) -> None:
        if value is not None and value not in choices:
            problems.append(
                Problem(source, lines.line(path), field_path(path), f"the id of {what}", repr(value),
                        suggest(value, choices))
            )

    for i, h in enumerate(sc.holdings):
        ref(("holdings", i, "holder"), h.holder, persons, "a person")
        ref(("holdings", i, "company"), h.company, persons, "a person")
        if h.company in sc.persons and sc.persons[h.company].kind == "individual":
            problems.append(Problem(source, lines.line(("holdings", i, "company")), f"holdings[{i}].company",
                                    "a company or entity", f"the individual {h.company!r}"))
        if h.until is not None and h.until < h.from_:
            problems.append(Problem(source, lines.line(("holdings", i, "until")), f"holdings[{i}].until",
                                    f"a date on or after from ({h.from_})", str(h.until)))
        if h.capital is None and h.votes is None and h.value is None and h.profits is None:
            problems.append(Problem(source, lines.line(("holdings", i)), f"holdings[{i}]",
                                    "at least one of capital, votes, value, profits", "none of them"))
    # overlapping records for the same holder, company and mode
    by_pair: dict[tuple[str, str, bool], list[tuple[int, Holding]]] = {}
    for i, h in enumerate(sc.holdings):
        by_pair.setdefault((h.holder, h.company, h.direct), []).append((i, h))
    for recs in by_pair.values():
        recs.sort(key=lambda r: r[1].from_)
        for (i, a), (j, b) in itertools.pairwise(recs):
            if a.until is None or b.from_ <= a.until:
                problems.append(Problem(
                    source, lines.line(("holdings", j, "from")), f"holdings[{j}].from",
                    f"a date after holdings[{i}] ends (one record per period: the holder's total interest)",
                    str(b.from_)))
    # arrangements: existing items, each in at most one arrangement
    item_ids = [it.id for it in sc.income]
    seen_in: dict[str, str] = {}
    for aid, arr in sc.arrangements.items():
        for k, iid in enumerate(arr.items):
            ref(("arrangements", aid, "items", k), iid, item_ids, "an income item")
            if iid in seen_in:
                problems.append(Problem(source, lines.line(("arrangements", aid, "items", k)),
                                        field_path(("arrangements", aid, "items", k)),
                                        "an item in at most one arrangement",
                                        f"{iid!r}, already in arrangement {seen_in[iid]!r}"))
            seen_in.setdefault(iid, aid)
    # cyclic ownership
    edges: dict[str, set[str]] = {}
    for h in sc.holdings:
        edges.setdefault(h.holder, set()).add(h.company)
    cycle = find_cycle(edges)
    if cycle:
        problems.append(Problem(source, lines.line(("holdings",)), "holdings", "ownership without cycles",
                                " -> ".join(cycle)))
    for key, p in sc.places_of_business.items():
        ref(("places_of_business", key, "owner"), p.owner, persons, "a person")
    for i, pr in enumerate(sc.presence):
        ref(("presence", i, "person"), pr.person, persons, "a person")
        if pr.until < pr.from_:
            problems.append(Problem(source, lines.line(("presence", i, "until")), f"presence[{i}].until",
                                    f"a date on or after from ({pr.from_})", str(pr.until)))
    seen: dict[str, int] = {}
    for i, item in enumerate(sc.income):
        if item.id in seen:
            problems.append(Problem(source, lines.line(("income", i, "id")), f"income[{i}].id",
                                    "an id not used by another income item",
                                    f"{item.id!r}, already income[{seen[item.id]}]"))
        seen[item.id] = i
        for fld in ("payer", "recipient", "beneficial_owner"):
            ref(("income", i, fld), getattr(item, fld), persons, "a person")
        ref(("income", i, "place_of_business"), item.place_of_business, places, "a place of business")
        if item.dividend is not None:
            ref(("income", i, "dividend", "connected_place_of_business"),
                item.dividend.connected_place_of_business, [*places, NONE], "a place of business, or none")
            if item.type != "dividend":
                problems.append(Problem(source, lines.line(("income", i, "dividend")), f"income[{i}].dividend",
                                        "dividend details only on an item of type dividend", item.type))
        blocks = (("interest", ("dividend", "interest", "interest_on_equity")),
                  ("royalty", ("royalty", "technical_services")),
                  ("capital_gain", ("capital_gain",)),
                  ("other_income", ("other_income", "immovable_property", "dividend")))
        for block, types in blocks:
            details = getattr(item, block)
            if details is None:
                continue
            if item.type not in types:
                problems.append(Problem(source, lines.line(("income", i, block)), f"income[{i}].{block}",
                                        f"{block} details only on an item of type {' or '.join(types)}", item.type))
            if block == "other_income" and item.type == "dividend":  # where it arises, should it be other income
                for name in sorted(details.model_fields_set - {"arises_in"}):
                    problems.append(Problem(source, lines.line(("income", i, block, name)),
                                            f"income[{i}].{block}.{name}",
                                            "only arises_in in other_income on a dividend item (where the "
                                            "dividend arises, read where no dividend rule reaches it)", name))
            for name in type(details).model_fields:
                if name == "connected_place_of_business" and block in ("royalty", "interest", "other_income"):
                    ref(("income", i, block, name), getattr(details, name), [*places, NONE],
                        "a place of business, or none")
                elif name.endswith("place_of_business"):
                    ref(("income", i, block, name), getattr(details, name), places, "a place of business")
            arm = getattr(details, "arm_length_amount", None)
            if isinstance(arm, Money):
                path = ("income", i, block, "arm_length_amount")
                flag = details.excess_over_arm_length if "excess_over_arm_length" in details.model_fields_set else None
                if item.gross is None or arm.currency != item.gross.currency:
                    problems.append(Problem(source, lines.line(path), field_path(path),
                                            "an amount in the currency of the item's gross (gross is needed)",
                                            f"{arm.amount} {arm.currency}"))
                elif flag is not None and not isinstance(flag, bool):  # unknown, yet the amount settles it
                    settled = "an excess" if arm.amount < item.gross.amount else "no excess"
                    problems.append(Problem(source, lines.line(path), field_path(path),
                                            f"the amount alone (it settles that there is {settled} over it), or "
                                            "excess_over_arm_length true or false agreeing with it",
                                            f"{arm.amount} beside excess_over_arm_length: unknown"))
                elif flag is not None and flag is not (arm.amount < item.gross.amount):
                    problems.append(Problem(source, lines.line(path), field_path(path),
                                            f"an amount {'below' if flag else 'not below'} the gross "
                                            f"{item.gross.amount} (excess_over_arm_length is {str(flag).lower()})",
                                            str(arm.amount)))
        if item.shipping is not None and item.shipping.management_on_board and item.shipping.mode != "ship":
            problems.append(Problem(source, lines.line(("income", i, "shipping")), f"income[{i}].shipping",
                                    "management on board only for a ship", item.shipping.mode))
        if item.shipping is not None and item.shipping.port_of_registry is not None \
                and not item.shipping.management_on_board:
            problems.append(Problem(source, lines.line(("income", i, "shipping")), f"income[{i}].shipping",
                                    "port_of_registry only with management_on_board: true", "management ashore"))
        if item.type == "branch_profits" and item.place_of_business is None:
            problems.append(Problem(source, lines.line(("income", i)), f"income[{i}].place_of_business",
                                    "the remitting place of business (required for branch_profits)",
                                    "nothing"))
    for n, q in enumerate(sc.questions):
        ref(("questions", n, "person"), q.person, list(sc.persons), "a person")
        if q.id in seen:
            problems.append(Problem(source, lines.line(("questions", n, "id")), f"questions[{n}].id",
                                    "an id not used by an item or another question", q.id))
        seen[q.id] = n
    if sc.expect is not None:
        questions = {q.id for q in sc.questions} or (set() if sc.income else set(sc.persons))
        for key, exp in sc.expect.items():
            if isinstance(exp, ExpectedAnswer):
                ref(("expect", key), key, sorted(questions), "a question (questions:)")
            else:
                ref(("expect", key), key, [k for k in seen if k not in questions], "an income item")
    for key, person in sc.persons.items():
        if person.kind == "government" and person.government_of is None:
            problems.append(Problem(source, lines.line(("persons", key)), f"persons.{key}.government_of",
                                    "the State of a government (required for kind government)", "nothing"))
    problems += _check_places_and_business_items(sc, source, lines)
    problems += _check_services_items(sc, source, lines)
    problems += _check_procedures(sc, source, lines)
    problems += _check_withholding(sc, source, lines)
    problems += _check_services_insurance_and_continuations(sc, source, lines)
    problems += _check_rights_and_gains(sc, source, lines)
    problems += _check_entities_and_notice(sc, source, lines)
    problems += _check_sites_agents_and_control(sc, source, lines)
    problems += _check_passed_on(sc, source, lines)
    return problems


def _check_places_and_business_items(sc: Scenario, source: str, lines: LineMap) -> list[Problem]:
    """Places of business in order; agent facts only for an agent; details of immovable property, business
    profits and shipping only where they apply."""
    problems: list[Problem] = []
    for key, p in sc.places_of_business.items():
        if p.from_ is not None and p.until is not None and p.until < p.from_:
            problems.append(Problem(source, lines.line(("places_of_business", key, "until")),
                                    f"places_of_business.{key}.until", f"a date on or after from ({p.from_})",
                                    str(p.until)))
        if p.periods is not None and (p.from_ is not None or p.until is not None):
            problems.append(Problem(source, lines.line(("places_of_business", key, "periods")),
                                    f"places_of_business.{key}.periods", "either periods or from/until, not both",
                                    "both"))
        for n, s in enumerate(p.periods or []):
            if s.until is not None and s.until < s.from_:
                problems.append(Problem(source, lines.line(("places_of_business", key, "periods", n)),
                                        f"places_of_business.{key}.periods[{n}].until",
                                        f"a date on or after from ({s.from_})", str(s.until)))
        if p.agent is not None and p.kind not in ("agent", "unknown", None):
            problems.append(Problem(source, lines.line(("places_of_business", key, "agent")),
                                    f"places_of_business.{key}.agent", "agent facts only for kind agent", str(p.kind)))
        if isinstance(p.activities, list) and not p.activities:
            problems.append(Problem(source, lines.line(("places_of_business", key, "activities")),
                                    f"places_of_business.{key}.activities", "at least one activity, or unknown",
                                    "an empty list"))
    for i, item in enumerate(sc.income):
        if item.immovable_property is not None and item.type != "immovable_property":
            problems.append(Problem(source, lines.line(("income", i, "immovable_property")),
                                    f"income[{i}].immovable_property",
                                    "immovable property details only on an item of type immovable_property", item.type))
        if item.business_profits is not None and item.type not in ("business_profits", "immovable_property"):
            problems.append(Problem(source, lines.line(("income", i, "business_profits")),
                                    f"income[{i}].business_profits",
                                    "business profits details only on business_profits (or immovable_property) items",
                                    item.type))
        if item.shipping is not None and item.shipping.air_consortium_share and item.shipping.mode != "aircraft":
            problems.append(Problem(source, lines.line(("income", i, "shipping", "air_consortium_share")),
                                    f"income[{i}].shipping.air_consortium_share",
                                    "an air transport consortium share only with mode aircraft (a ship operated "
                                    "in common is a pool or joint business: pool)", item.shipping.mode))
    return problems


def _check_services_items(sc: Scenario, source: str, lines: LineMap) -> list[Problem]:
    """Personal services: details blocks on the item types that read them, references resolved, dates in
    order, host and paying States among the treaty's Contracting States."""
    problems: list[Problem] = []
    persons = list(sc.persons)
    places = list(sc.places_of_business)

    def problem(path: tuple[Any, ...], expected: str, found: str, hint: str = "") -> None:
        problems.append(Problem(source, lines.line(path), field_path(path), expected, found, hint))

    def ref(path: tuple[Any, ...], value: str | None, choices: list[str], what: str) -> None:
        if value is not None and value != UNKNOWN and value not in choices:
            problem(path, f"the id of {what}", repr(value), suggest(value, choices))

    states = catalogue().states[sc.treaty] if sc.income else ()  # once, not per item (a batch checks thousands)
    for i, item in enumerate(sc.income):
        for block, types in DETAIL_BLOCKS.items():
            if getattr(item, block) is not None and item.type not in types:
                problem(("income", i, block), f"{block} details only on items of type {', '.join(types)}",
                        item.type)
        if item.type in REQUIRED_BLOCKS and getattr(item, item.type) is None:
            problem(("income", i), f"{item.type} details (required for type {item.type})", "nothing")
        if item.independent is not None:
            ref(("income", i, "independent", "borne_by"), item.independent.borne_by, [*places, NONE],
                "a place of business, or none")
        emp = item.employment
        if emp is not None:
            ref(("income", i, "employment", "employer"), emp.employer, persons, "a person")
            ref(("income", i, "employment", "operator"), emp.operator, persons, "a person")
            ref(("income", i, "employment", "borne_by"), emp.borne_by, [*places, NONE], "a place of business, or none")
            if emp.fiscal_year is not None and emp.fiscal_year.until < emp.fiscal_year.from_:
                problem(("income", i, "employment", "fiscal_year", "until"),
                        f"a date on or after from ({emp.fiscal_year.from_})", str(emp.fiscal_year.until))
            if (emp.operator is not None or emp.operated_solely_within is not None) and emp.aboard in (None, "none"):
                problem(("income", i, "employment", "aboard"),
                        "aboard: ship or aircraft when operator or operated_solely_within is given",
                        emp.aboard or "nothing")
            if emp.exercised_in is not None and item.type in ("professor", "student", "artiste_sportsperson"):
                problem(("income", i, "employment", "exercised_in"),
                        f"no exercised_in here: a {item.type} item takes it from its own details", emp.exercised_in)
        if item.director is not None:
            ref(("income", i, "director", "company"), item.director.company, persons, "a person")
        if item.artiste is not None:
            ref(("income", i, "artiste", "performer"), item.artiste.performer, persons, "a person")
        for block in ("professor", "student"):
            details = getattr(item, block)
            if details is not None and details.host_state not in states:
                problem(("income", i, block, "host_state"), f"a Contracting State of {sc.treaty} ({', '.join(states)})",
                        details.host_state)
        if item.type == "government_service":
            gov = item.government
            payer = sc.persons.get(item.payer)
            paying = gov.paying_state if gov is not None else None
            if paying is None and payer is not None and payer.kind == "government":
                paying = payer.government_of
            if paying is not None and paying not in states:
                problem(("income", i, "government", "paying_state"),
                        f"a Contracting State of {sc.treaty} ({', '.join(states)}): payments by them are "
                        "government service",
                        paying)
        prof = item.professor
        if prof is not None:
            for name in ("until", "planned_until", "for_teaching_until"):
                value = getattr(prof, name)
                if isinstance(value, date) and value < prof.from_:
                    problem(("income", i, "professor", name), f"a date on or after from ({prof.from_})", str(value))
        st = item.student
        if st is not None and st.payment == "employment":
            if st.employment_from is None:
                problem(("income", i, "student", "employment_from"),
                        "the first day of the employment (required for payment: employment)", "nothing")
            elif isinstance(st.employment_until, date) and st.employment_until < st.employment_from:
                problem(("income", i, "student", "employment_until"),
                        f"a date on or after employment_from ({st.employment_from})", str(st.employment_until))
    return problems


def _check_procedures(sc: Scenario, source: str, lines: LineMap) -> list[Problem]:
    """The tax concerned (its State as the catalogue names it), the relief figures, a mutual agreement case
    and a non-discrimination comparison."""
    problems: list[Problem] = []

    def bad(path: tuple[Any, ...], expected: str, found: str) -> None:
        problems.append(Problem(source, lines.line(path), field_path(path), expected, found))

    persons = list(sc.persons)
    for i, item in enumerate(sc.income):
        listed = isinstance(item.tax, list)
        if listed and not item.taxes:
            bad(("income", i, "tax"), "one tax, or a list of taxes of different States", "an empty list")
        levied: dict[str, int] = {}
        for j, tax in enumerate(item.taxes):
            at: tuple[Any, ...] = ("income", i, "tax", j) if listed else ("income", i, "tax")
            implied = catalogue().tax_states.get(tax.name)
            if implied is None and tax.state is None:
                bad((*at, "state"), "the State that levies a tax named other", "nothing")
            if implied is not None and tax.state not in (None, implied):
                bad((*at, "state"), f"{implied} (the State of {tax.name}) or nothing", str(tax.state))
            state = implied or tax.state
            if state is not None and state in levied:
                bad(at, f"at most one tax of each State (tax[{levied[state]}] is a tax of {state})",
                    f"a second tax of {state} ({tax.name})")
            elif state is not None:
                levied[state] = j
            if tax.name == "other" and any(t.name == "other" for t in item.taxes[:j]):
                bad((*at, "name"), "at most one tax named other on an item", "a second tax named other")
            if tax.name != "other":
                for attr in ("in_force_from", "identical_or_similar", "federal"):
                    if getattr(tax, attr) is not None:
                        bad((*at, attr), f"{attr} only for a tax named other", tax.name)
            elif tax.federal is not None and tax.state not in catalogue().union_states:
                bad((*at, "federal"),
                    f"federal only for a tax of {' or '.join(sorted(catalogue().union_states)) or 'a federal State'}",
                    f"a tax of {tax.state or 'no State given'}")
            if tax.fiscal_year_start is not None and tax.fiscal_year_start > item.date:
                bad((*at, "fiscal_year_start"), f"a date on or before the item's date ({item.date})",
                    str(tax.fiscal_year_start))
        relief = item.relief
        if relief is not None:
            amounts = {k: v for k, v in relief if isinstance(v, Money)}
            currencies = {m.currency for m in amounts.values()}
            if len(currencies) > 1:
                bad(("income", i, "relief"), "every relief amount in one currency", ", ".join(sorted(currencies)))
            gross_currency = item.gross.currency if item.gross else None
            if currencies and currencies != {gross_currency} and relief.income_included is None:
                bad(("income", i, "relief", "income_included"),
                    "the item in the relief currency (the gross amount is not in it)", "nothing")
            totals = (relief.residence_tax_before_credit, relief.residence_taxable_income)
            if (totals[0] is None) != (totals[1] is None):
                bad(("income", i, "relief"), "residence_tax_before_credit and residence_taxable_income together",
                    "only one of them")
            if relief.residence_tax_on_income is not None and totals[0] is not None:
                bad(("income", i, "relief", "residence_tax_on_income"),
                    "either residence_tax_on_income or the residence totals", "both")
        case = item.mutual_agreement_case
        if case is not None and case.claimant is not None and case.claimant not in persons:
            bad(("income", i, "mutual_agreement_case", "claimant"), "the id of a person", repr(case.claimant))
        nd = item.non_discrimination
        if nd is not None:
            path = ("income", i, "non_discrimination")
            if nd.taxing_state not in catalogue().states[sc.treaty]:
                bad((*path, "taxing_state"), "a Contracting State of " + sc.treaty, nd.taxing_state)
            if nd.person is not None and nd.person not in persons:
                bad((*path, "person"), "the id of a person", repr(nd.person))
            if nd.ground == "deduction" and nd.person not in (None, item.payer):
                bad((*path, "person"), f"the paying enterprise ({item.payer})", repr(nd.person))
            if (nd.ground == "permanent_establishment") != (nd.place_of_business is not None):
                bad((*path, "place_of_business"), "a place of business exactly for the ground permanent_establishment",
                    describe(nd.place_of_business))
            if nd.place_of_business is not None and nd.place_of_business not in sc.places_of_business:
                bad((*path, "place_of_business"), "the id of a place of business", repr(nd.place_of_business))
            tax_states = sorted({st for t in item.taxes if (st := catalogue().tax_states.get(t.name, t.state))})
            if tax_states and nd.taxing_state not in tax_states:
                bad((*path, "taxing_state"), f"the State of one of the item's taxes ({' or '.join(tax_states)})",
                    nd.taxing_state)
    return problems


def _check_withholding(sc: Scenario, source: str, lines: LineMap) -> list[Problem]:
    """A withholding block needs the gross amount, one form of the tax withheld at most, in the gross's
    currency, and a State (given, or the payer's only State of liability to tax)."""
    problems: list[Problem] = []
    for n, item in enumerate(sc.income):
        w = item.withholding
        if w is None:
            continue
        path: tuple[Any, ...] = ("income", n, "withholding")
        if item.gross is None:
            problems.append(Problem(source, lines.line(path), field_path(path),
                                    "the item's gross amount (income[].gross) to check withholding against",
                                    "no gross"))
        if w.withheld is not None and w.withheld_rate is not None:
            problems.append(Problem(source, lines.line((*path, "withheld_rate")), field_path((*path, "withheld_rate")),
                                    "either withheld or withheld_rate", "both"))
        if w.withheld is not None and item.gross is not None and w.withheld.currency != item.gross.currency:
            problems.append(Problem(source, lines.line((*path, "withheld", "currency")),
                                    field_path((*path, "withheld", "currency")),
                                    f"the currency of gross ({item.gross.currency})", w.withheld.currency))
        if withholding_state(sc, item) is None:
            problems.append(Problem(source, lines.line(path), field_path((*path, "state")),
                                    "the State that withheld (the payer is not liable to tax in exactly "
                                    "one Contracting State, so it cannot be inferred)", "nothing"))
    return problems


def _check_services_insurance_and_continuations(sc: Scenario, source: str, lines: LineMap) -> list[Problem]:
    """Periods of services furnished through personnel, insurance facts only for an agent, the earlier holding
    a reorganisation continues, shipping_ancillary only on shipping items."""
    problems: list[Problem] = []
    for key, b in sc.places_of_business.items():
        if b.services is not None:
            for n, p in enumerate(b.services.periods):
                if p.until < p.from_:
                    problems.append(Problem(source, lines.line(("places_of_business", key, "services", "periods", n)),
                                            f"places_of_business.{key}.services.periods[{n}].until",
                                            f"a date on or after from ({p.from_})", str(p.until)))
        if b.insurance is not None and b.kind not in ("agent", "unknown", None):
            problems.append(Problem(source, lines.line(("places_of_business", key, "insurance")),
                                    f"places_of_business.{key}.insurance", "insurance facts only for kind agent",
                                    str(b.kind)))
    for n, h in enumerate(sc.holdings):
        c = h.continues_by_reorganisation
        if c is not None:
            for attr in ("holder", "company"):
                if getattr(c, attr) not in sc.persons:
                    problems.append(Problem(source, lines.line(("holdings", n, "continues_by_reorganisation", attr)),
                                            f"holdings[{n}].continues_by_reorganisation.{attr}", "the id of a person",
                                            repr(getattr(c, attr))))
    for i, item in enumerate(sc.income):
        if item.shipping_ancillary is not None and item.type != "shipping_air_transport":
            problems.append(Problem(source, lines.line(("income", i, "shipping_ancillary")),
                                    f"income[{i}].shipping_ancillary",
                                    "shipping_ancillary only on an item of type shipping_air_transport", item.type))
    return problems


def _check_rights_and_gains(sc: Scenario, source: str, lines: LineMap) -> list[Problem]:
    """Shares alienated and where a gain arises only on capital gains, with their value periods in order;
    what a payment is for only on royalties and fees for services."""
    problems: list[Problem] = []
    for i, item in enumerate(sc.income):
        sa = item.shares_alienated
        if sa is not None and item.type != "capital_gain":
            problems.append(Problem(source, lines.line(("income", i, "shares_alienated")),
                                    f"income[{i}].shares_alienated",
                                    "shares_alienated only on an item of type capital_gain", item.type))
        if sa is not None and isinstance(sa.value_from_immovable, list):
            for n, v in enumerate(sa.value_from_immovable):
                if v.until < v.from_:
                    problems.append(Problem(source, lines.line(("income", i, "shares_alienated",
                                                                "value_from_immovable", n)),
                                            f"income[{i}].shares_alienated.value_from_immovable[{n}].until",
                                            f"a date on or after from ({v.from_})", str(v.until)))
        if item.gain_arises_in is not None and item.type != "capital_gain":
            problems.append(Problem(source, lines.line(("income", i, "gain_arises_in")), f"income[{i}].gain_arises_in",
                                    "gain_arises_in only on an item of type capital_gain", item.type))
        pf = item.payment_for
        if pf is not None and item.type not in ("royalty", "technical_services"):
            problems.append(Problem(source, lines.line(("income", i, "payment_for")), f"income[{i}].payment_for",
                                    "payment_for only on an item of type royalty or technical_services", item.type))
    return problems


def _check_entities_and_notice(sc: Scenario, source: str, lines: LineMap) -> list[Problem]:
    """A termination notice names as cessation year the year it is delivered where the treaty says so
    (``notice_in_year_of_cessation``); an item is derived through an entity or arrangement that is a person
    of the scenario other than its recipient, and not an individual; only an entity or arrangement has a
    fiscal transparency; only a person other than an individual has an entity purpose."""
    problems: list[Problem] = []
    notice = sc.termination_notice
    same_year = catalogue().notice_in_year_of_cessation.get(sc.treaty)
    if same_year is not None and notice is not None and notice.cessation_year != notice.given.year:
        problems.append(Problem(source, lines.line(("termination_notice", "cessation_year")),
                                "termination_notice.cessation_year",
                                f"the year the notice is delivered ({notice.given.year}) under {same_year}",
                                str(notice.cessation_year)))
    for pid, p in sc.persons.items():
        if p.fiscal_transparency is not None and p.kind not in ("company", "other_entity"):
            problems.append(Problem(source, lines.line(("persons", pid, "fiscal_transparency")),
                                    f"persons.{pid}.fiscal_transparency",
                                    "fiscal_transparency only for a company or other_entity", p.kind))
        if p.entitlement is not None and p.entitlement.entity_purpose is not None and p.kind == "individual":
            problems.append(Problem(source, lines.line(("persons", pid, "entitlement", "entity_purpose")),
                                    f"persons.{pid}.entitlement.entity_purpose",
                                    "entity_purpose only for a non-individual", p.kind))
    for i, item in enumerate(sc.income):
        through = item.derived_through
        if through is None:
            continue
        path = ("income", i, "derived_through")
        entity = sc.persons.get(through)
        if entity is None:
            problems.append(Problem(source, lines.line(path), f"income[{i}].derived_through",
                                    f"a person of the scenario ({suggest(through, list(sc.persons))})", through))
        elif through == item.recipient or entity.kind not in ("company", "other_entity"):
            problems.append(Problem(source, lines.line(path), f"income[{i}].derived_through",
                                    "an entity or arrangement (company or other_entity) other than the recipient",
                                    through))
    return problems


def _check_sites_agents_and_control(sc: Scenario, source: str, lines: LineMap) -> list[Problem]:
    """Connected sites and cohesive operations name other places; contract facts only for an agent, naming
    persons; controlling persons exist; a third State's tax and the residence State's in one currency."""
    problems: list[Problem] = []
    for key, b in sc.places_of_business.items():
        refs: list[tuple[tuple[Any, ...], str, str]] = []
        if b.same_site_as is not None:
            refs.append((("places_of_business", key, "same_site_as"), f"places_of_business.{key}.same_site_as",
                         b.same_site_as))
        refs += [(("places_of_business", key, "cohesive_operation_with", n),
                  f"places_of_business.{key}.cohesive_operation_with[{n}]", other)
                 for n, other in enumerate(b.cohesive_operation_with)]
        for path, name, other in refs:
            if other not in sc.places_of_business or other == key:
                problems.append(Problem(source, lines.line(path), name, "the id of another place of business",
                                        repr(other)))
        c = b.contracts
        if c is not None:
            if b.kind not in ("agent", "unknown", None):
                problems.append(Problem(source, lines.line(("places_of_business", key, "contracts")),
                                        f"places_of_business.{key}.contracts", "contract facts only for kind agent",
                                        str(b.kind)))
            ids = ([c.person] if c.person is not None else []) + (
                list(c.acts_exclusively_for) if isinstance(c.acts_exclusively_for, list) else [])
            for pid in ids:
                if pid not in sc.persons:
                    problems.append(Problem(source, lines.line(("places_of_business", key, "contracts")),
                                            f"places_of_business.{key}.contracts", "the id of a person", repr(pid)))
    for pid, p in sc.persons.items():
        if isinstance(p.controlled_by, list):
            for n, other in enumerate(p.controlled_by):
                if other not in sc.persons or other == pid:
                    problems.append(Problem(source, lines.line(("persons", pid, "controlled_by", n)),
                                            f"persons.{pid}.controlled_by[{n}]", "the id of another person",
                                            repr(other)))
    for i, item in enumerate(sc.income):
        t = item.third_state_pe
        if t is not None and isinstance(t.third_state_tax, Money) and isinstance(t.uae_tax_if_situated_there, Money) \
                and t.third_state_tax.currency != t.uae_tax_if_situated_there.currency:
            problems.append(Problem(source, lines.line(("income", i, "third_state_pe")),
                                    f"income[{i}].third_state_pe", "both taxes in one currency",
                                    f"{t.third_state_tax.currency} and {t.uae_tax_if_situated_there.currency}"))
    return problems


def _check_passed_on(sc: Scenario, source: str, lines: LineMap) -> list[Problem]:
    """The person an item is passed on to exists and is not the recipient."""
    problems: list[Problem] = []
    for i, item in enumerate(sc.income):
        p = item.passed_on
        if p is not None and (p.to not in sc.persons or p.to == item.recipient):
            problems.append(Problem(source, lines.line(("income", i, "passed_on", "to")), f"income[{i}].passed_on.to",
                                    "the id of a person other than the recipient", repr(p.to)))
    return problems


def find_cycle(edges: Mapping[str, set[str]]) -> list[str]:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> list[str]:
        state[n] = 1
        stack.append(n)
        for m in sorted(edges.get(n, ())):
            if state.get(m) == 1:
                return [*stack[stack.index(m):], m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return []

    for n in sorted(edges):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return []


def check_consistency(sc: Scenario, source: str) -> list[Problem]:
    """The loader's checks beyond the models (references, consistency) for a scenario built in memory."""
    return check_references(sc, source, LineMap())
