"""Scenario files: the YAML format, its validation, and loading with line numbers in every error.

A scenario describes persons, holdings, places of business, presence periods and income items, plus
an optional ``expect:`` block. Every attribute is either required, has a documented default, or may be
given as ``unknown`` (see ``treaty schema`` and the README). A fact the law needs that the scenario
does not give is *not* read as false: the rules report it as ``missing``.
"""

from __future__ import annotations

import dataclasses
import difflib
import itertools
import re
from collections.abc import Mapping
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
)

from pyhelpers.base.errors import Problem, ScenarioError
from pyhelpers.scenario import openfacts

Unknown = Literal["unknown"]
UNKNOWN: Unknown = "unknown"

TREATIES = ("br-pt", "br-sg", "br-ae", "br-uy", "br-pl")
CONTRACTING_STATES: dict[str, tuple[str, str]] = {
    "br-pt": ("br", "pt"),
    "br-sg": ("br", "sg"),
    "br-ae": ("br", "ae"),
    "br-uy": ("br", "uy"),
    "br-pl": ("br", "pl"),
}
_STATE_RE = re.compile(r"^[a-z]{2}$")


def _state(value: Any) -> Any:
    if isinstance(value, str) and re.fullmatch(r"[A-Za-z]{2}", value):
        return value.lower()
    return value


def _check_state(value: str) -> str:
    if not _STATE_RE.fullmatch(value):
        raise ValueError(f"a two-letter State code such as br or pt, found {value!r}")
    return value


State = Annotated[str, BeforeValidator(_state), AfterValidator(_check_state)]
Id = Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f\x7f]+$")]


def _percent(value: Any) -> Any:
    """Percent 0–100 with at most two decimals → basis points (int)."""
    if isinstance(value, bool):
        raise ValueError("a percentage between 0 and 100, found a boolean")
    if isinstance(value, str) and value.strip().endswith("%"):
        value = value.strip()[:-1]
    try:
        d = Decimal(str(value))
    except InvalidOperation:
        raise ValueError(f"a percentage between 0 and 100, found {value!r}") from None
    if not d.is_finite() or d < 0 or d > 100:
        raise ValueError(f"a percentage between 0 and 100, found {value}")
    if d != d.quantize(Decimal("0.01")):
        raise ValueError(f"a percentage with at most two decimals, found {value}")
    return int(d * 100)


BasisPoints = Annotated[int, BeforeValidator(_percent)]
"""A percentage as written by the user (``24.9``), stored as basis points (``2490``)."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


ResidenceCriterion = Literal[
    "domicile", "residence", "place_of_management", "incorporation", "other_similar", "source_only"
]
PersonKind = Literal["individual", "company", "other_entity", "government"]
SpecialRegime = Literal[
    "madeira_free_zone", "santa_maria_free_zone", "manaus_free_zone", "sudam", "sudene", "similar"
]


class Person(_Model):
    """A person in the sense of Art. 3: an individual, a company, another entity or a government."""

    kind: PersonKind
    name: str | None = None
    liable_to_tax: dict[State, list[ResidenceCriterion] | Unknown] | None = Field(
        default=None,
        description=(
            "State -> the domestic-law criteria by which the person is liable to tax there. A State "
            "not listed is one where it is not liable by any criterion; omit the whole map if unknown "
            "to the scenario (the rules then report it missing)."
        ),
    )
    treated_as_body_corporate: bool | Unknown | None = Field(
        default=None, description="other_entity only: treated as a body corporate for tax purposes"
    )
    government_of: State | None = Field(
        default=None, description="government only: the State whose government, subdivision or authority"
    )
    nationality: list[State] | Unknown | None = None
    permanent_home: list[State] | Unknown | None = Field(
        default=None, description="States where a permanent home is available to the individual"
    )
    vital_interests: State | Literal["undetermined"] | Unknown | None = Field(
        default=None, description="State of the centre of vital interests, or 'undetermined'"
    )
    habitual_abode: list[State] | Unknown | None = Field(
        default=None, description="States where the individual stays habitually"
    )
    effective_management: State | Literal["undetermined"] | Unknown | None = Field(
        default=None,
        description="State where the place of effective management is situated; 'undetermined' where it cannot "
        "be determined (br-sg 4(3): then the competent authorities settle the residence)",
    )
    special_regime: list[SpecialRegime] | Unknown = Field(
        default_factory=list,
        description="tax regimes the person is entitled to (br-pt Protocol 9); default: none",
    )
    partnership: bool | Unknown | None = Field(
        default=None,
        description="company: a partnership (sociedade de pessoas), which br-sg 10(2)(a) excludes; reported "
        "missing where that rate turns on it",
    )
    statutory_body: StatutoryBody | None = Field(
        default=None, description="a body constituted by law in a State (br-sg 4(1), Protocol 1); default: not one"
    )
    entitlement: EntitlementFacts | None = Field(
        default=None, description="limitation-on-benefits facts (br-uy Art. 29); default: none given")
    controlled_by: list[Id] | Unknown | None = Field(
        default=None,
        description="the persons or enterprises that control this one on the basis of all the relevant facts and "
        "circumstances (br-ae 5(8)); an empty list: none; asked for where closely related enterprises matter")
    offshore_regime: OffshoreRegime | None = Field(
        default=None, description="a UAE offshore-income regime the company is subject to (br-ae 29(1)); default: none")
    benefits_proof: BenefitsProof | None = Field(
        default=None, description="what a UAE company has proven under br-ae 29(3); default: nothing proven")
    fiscal_transparency: dict[State, FiscalTransparency] | None = Field(
        default=None,
        description="an entity or arrangement: how the tax law of each State listed taxes its income (the "
        "elements of 'fiscally transparent', br-uy Protocol 1); asked where an item is derived through it")
    substance: Substance | None = Field(  # [ppt-indicators]
        default=None, description="its employees and premises: indicators for a principal purpose test (never a "
        "decision); default: not given")


class Holding(_Model):
    """The holder's *total* interest in a company over an inclusive date interval."""

    holder: Id
    company: Id
    capital: BasisPoints | None = Field(default=None, description="% of the capital (0-100)")
    votes: BasisPoints | None = Field(default=None, description="% of the voting rights (0-100)")
    value: BasisPoints | None = Field(default=None, description="% of the value of the shares (0-100)")
    direct: bool = Field(default=True, description="held directly (default) or indirectly")
    from_: date = Field(alias="from", description="first day held")
    until: date | None = Field(default=None, description="last day held (inclusive); omit if still held")
    continues_by_reorganisation: HoldingContinuation | None = Field(
        default=None,
        description="br-sg 10(2)(a): the holding continues, through a change of ownership resulting directly "
        "from a corporate reorganisation (merger, division) of the holder or of the company, that earlier "
        "holding; default: none",
    )

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Arrangement(_Model):
    """An arrangement or transaction that one or more income items result from, with the two questions of
    a principal purpose test (br-uy 29(9), br-ae 29(4)). The checker never answers them itself: a
    question not given (or given as unknown) makes a benefit subject to the test "requires judgment"."""

    items: list[Id] = Field(min_length=1, description="the ids of the income items resulting from it")
    description: str | None = None
    principal_purpose: bool | Unknown | None = Field(
        default=None,
        description="obtaining the treaty benefit was one of the principal purposes of the arrangement or "
        "transaction (a judgment the user makes); default: not given, which reads as unknown",
    )
    object_and_purpose: bool | Unknown | None = Field(
        default=None,
        description="granting the benefit in these circumstances accords with the object and purpose of the "
        "relevant provisions; default: not given, which reads as unknown",
    )


class PlaceOfBusiness(_Model):
    """A place through which an enterprise carries on business (a candidate permanent establishment)."""

    owner: Id
    state: State
    permanent_establishment: bool | Unknown | None = Field(
        default=None,
        description="the scenario's own finding that it is a PE (used as stated, cited as br-pt 5; unknown: the "
        "outcome depends on it); omit to let Art. 5 decide from the facts below",
    )
    from_: date | None = Field(
        default=None, alias="from", description="first day of the place (construction_site: of the works)"
    )
    until: date | None = Field(
        default=None, description="last day, actual or planned (inclusive); omit if open-ended at the evaluation date"
    )
    # [arts-5-9] the facts Art. 5 needs (see PlaceKind, PlaceActivity, AgentFacts)
    kind: PlaceKind | Unknown | None = Field(default=None, description="what the place is (Art. 5(1)-(7))")
    fixed: bool | Unknown | None = Field(
        default=None, description="other_fixed_place: a fixed place of business (5(1))"
    )
    business_carried_on: bool | Unknown | None = Field(
        default=None, description="other_fixed_place: the enterprise carries on all or part of its business through it"
    )
    activities: list[PlaceActivity] | Unknown | None = Field(
        default=None, description="what is done there (or, for an agent, what the agent does): Art. 5(4)"
    )
    activities_preparatory_overall: bool | Unknown | None = Field(
        default=None,
        description="a combination of 5(4)(a)-(e) activities: the overall activity is preparatory or auxiliary "
        "(5(4)(f))",
    )
    agent: AgentFacts | None = Field(default=None, description="kind agent: Art. 5(5)-(6) facts")
    services: ServicesFacts | None = Field(
        default=None, description="br-sg 5(4): services furnished through personnel in the State; default: none"
    )
    insurance: InsuranceAgentFacts | None = Field(
        default=None, description="kind agent of an insurance enterprise: br-sg 5(8) facts; default: none"
    )
    same_site_as: Id | None = Field(
        default=None,
        description="construction_site: connected activities carried on at the same building site or construction "
        "or installation project as that place (br-ae 5(3)(b)); default: none")
    cohesive_operation_with: list[Id] = Field(
        default_factory=list,
        description="other places of business whose business activities and this place's are complementary "
        "functions that are part of a cohesive business operation (br-ae 5(4.1)); default: none")
    combined_activities_preparatory: bool | Unknown | None = Field(
        default=None,
        description="the overall activity resulting from combining this place's activities with those places' is "
        "preparatory or auxiliary (br-ae 5(4.1)(b))")
    contracts: AgentContracts | None = Field(
        default=None, description="kind agent: br-ae 5(5) and 5(7) facts; default: none")
    fixed_base: bool | Unknown = Field(
        default=False,
        description="a fixed base regularly available to its owner for performing independent personal services "
        "(br-pl 12(4), 13(4)-(6), 14(2), 15(1)(a), 16(2)(c)); default: false",
    )

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Presence(_Model):
    """An individual's stay in a State: both the day of arrival and of departure are days of presence."""

    person: Id
    state: State
    from_: date = Field(alias="from")
    until: date

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Money(_Model):
    amount: Decimal = Field(ge=0, description="exact decimal amount, e.g. '1000000.00'")
    currency: Annotated[str, Field(pattern=r"^[A-Z]{3}$")]

    @field_validator("amount", mode="before")
    @classmethod
    def _exact(cls, v: Any) -> Any:
        if isinstance(v, float):
            raise ValueError("an exact decimal written as a string, e.g. '1000.50', found a float")
        return v


class Withholding(_Model):
    """The tax withheld at source on an item, and the source State's domestic rate (user-supplied: the
    project ships no domestic tax law). Amounts are computed in Python with Decimal (see README)."""

    state: State | None = Field(
        default=None,
        description="the State that withheld; default: the payer's State, when the payer is liable to tax "
        "in one Contracting State only",
    )
    withheld: Money | None = Field(default=None, description="the tax withheld, in the currency of gross")
    withheld_rate: BasisPoints | None = Field(
        default=None, description="or the tax withheld as a % of gross (give withheld or withheld_rate)")
    domestic_rate: BasisPoints | None = Field(
        default=None, description="the source State's domestic rate on the item (% of gross); default: not given")


DividendInstrument = Literal[
    "shares",
    "jouissance_shares",
    "mining_shares",
    "founders_shares",
    "other_profit_participating_rights",
    "other_corporate_rights",
    "participation_account",
    "debt_claim",
]


class DividendDetails(_Model):
    instrument: DividendInstrument = Field(default="shares", description="the right the income comes from")
    same_tax_treatment_as_shares: bool | Unknown | None = Field(
        default=None,
        description="other_corporate_rights only: taxed like income from shares by the payer's State",
    )
    payer_has_profits_from_other_state: bool | Unknown | None = Field(
        default=None,
        description="whether the paying company derives profits or income from the other Contracting State",
    )
    connected_place_of_business: Id | None = Field(
        default=None,
        description="the place of business with which the holding is effectively connected; default none",
    )


# --- Type-specific details, by group of articles. Each group owns its section. ---------------------

# [arts-5-9] places of business, immovable property, business profits, shipping, associated enterprises

# Art. 5 (permanent establishment): the facts about a place of business. `kind` says which paragraph
# looks at it; each fact may be given as `unknown`; a fact Art. 5 needs and the scenario omits is missing.

PlaceKind = Literal[
    "place_of_management",  # 5(2)(a) um local de direcção
    "branch",  # 5(2)(b) uma sucursal
    "office",  # 5(2)(c) um escritório
    "factory",  # 5(2)(d) uma fábrica
    "workshop",  # 5(2)(e) uma oficina
    "natural_resources",  # 5(2)(f) mine, oil or gas well, quarry, any place of extraction of natural resources
    "construction_site",  # 5(3) building site or construction or assembly project: its from / until decide
    "other_fixed_place",  # 5(1) any other place: `fixed` and `business_carried_on` decide
    "agent",  # 5(5)-(6) a person acting for the enterprise in the State: `agent` facts decide
    "related_company",  # 5(7) a company that controls or is controlled by the enterprise, nothing more
]
PlaceActivity = Literal[
    "storage",  # 5(4)(a) facilities used to store, display or deliver the enterprise's goods
    "display",
    "delivery",
    "stock_for_storage_display_delivery",  # 5(4)(b) a stock of the enterprise's goods kept for those ends
    "stock_for_processing",  # 5(4)(c) a stock of its goods kept to be processed by another enterprise
    "purchasing",  # 5(4)(d) purchasing goods for the enterprise
    "information_gathering",  # 5(4)(d) collecting information for the enterprise
    "other_preparatory_or_auxiliary",  # 5(4)(e) any other activity of a preparatory or auxiliary character
    "other_business",  # none of these: selling, manufacturing, rendering services ... (the core business)
]


class AgentFacts(_Model):
    """A person acting for the enterprise (place kind `agent`): Art. 5(5) and 5(6)."""

    independent: bool | Unknown | None = Field(
        default=None, description="a broker, general commission agent or other agent of independent status (5(6))"
    )
    ordinary_course_of_business: bool | Unknown | None = Field(
        default=None, description="an independent agent acting in the ordinary course of its business (5(6))"
    )
    authority_to_conclude_contracts: bool | Unknown | None = Field(
        default=None, description="has authority to conclude contracts in the name of the enterprise (5(5))"
    )
    habitually_exercises_authority: bool | Unknown | None = Field(
        default=None, description="habitually exercises that authority in the State (5(5))"
    )


PropertyKind = Literal[
    "immovable",  # immovable property under the law of the State where it is situated (6(2))
    "agricultural_forestry_accessories",  # accessories, livestock and equipment of agriculture and forestry
    "landed_property_rights",  # rights to which the provisions of private law on landed property apply
    "usufruct",  # usufruct of immovable property
    "natural_resources_rights",  # rights to payments for working mineral deposits, sources, natural resources
    "ship_or_aircraft",  # never immovable property (6(2), last sentence)
    "movable_or_services",  # movable property or services connected with immovable property (6(5))
]


class ImmovablePropertyDetails(_Model):
    """Income from immovable property (type `immovable_property`, br-pt Art. 6)."""

    situated_in: State | Unknown | None = Field(
        default=None,
        description="the State where the property is situated (6(1)); for services (6(5)) where they are rendered",
    )
    property: PropertyKind | Unknown | None = Field(default=None, description="what the income is derived from (6(2))")
    assimilated_by_situs_law: bool | Unknown | None = Field(
        default=None,
        description="movable_or_services only: that State's tax law assimilates the income to income from "
        "immovable property (6(5))",
    )
    held_by_enterprise: bool | Unknown | None = Field(
        default=None,
        description="the property belongs to an enterprise carried on by the recipient (6(4)); asked only where "
        "Art. 6 does not apply (then Art. 7 or Art. 22 governs)",
    )


class BusinessProfitsDetails(_Model):
    """Profits of an enterprise (type `business_profits`, br-pt Art. 7). The enterprise is the recipient; the
    item's `place_of_business` is its place of business in the other State the profits may be attributable to
    (omitted: none; if the enterprise has places of business there, the item must name one)."""

    attributable_to_place: bool | Unknown | None = Field(
        default=None,
        description="the profits are attributable to that place of business (Art. 7(1)-(3)); needed when it is a "
        "permanent establishment",
    )
    purchase_of_goods_only: bool = Field(
        default=False,
        description="the profits arise from that place's mere purchase of goods for the enterprise (7(4)); "
        "default false",
    )


def _check_arts_5_to_9(sc: Scenario, source: str, lines: _LineMap) -> list[Problem]:
    """[arts-5-9] consistency of places of business and of the Art. 6 / Art. 7 details."""
    problems: list[Problem] = []
    for key, p in sc.places_of_business.items():
        if p.from_ is not None and p.until is not None and p.until < p.from_:
            problems.append(Problem(source, lines.line(("places_of_business", key, "until")),
                                    f"places_of_business.{key}.until", f"a date on or after from ({p.from_})",
                                    str(p.until)))
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


PlaceOfBusiness.model_rebuild(raise_errors=False)  # completed after the [br-sg] section



class ShippingDetails(_Model):
    """Profits from operating ships or aircraft (br-pt Art. 8, Art. 3(1)(h))."""

    mode: Literal["ship", "aircraft"]
    solely_within: State | None = Field(
        default=None, description="the State if the ship or aircraft is operated solely between places in it"
    )
    management_on_board: bool = Field(default=False, description="the effective management is aboard the ship")
    port_of_registry: State | Literal["none"] | None = Field(
        default=None, description="management on board: the State of the port of registry, or none"
    )
    pool: bool = Field(default=False, description="profits from participating in a pool or joint business")
    air_consortium_share: bool = Field(
        default=False, description="the item is a company's share of an air transport consortium's profits"
    )


class TransferPricingDetails(_Model):
    """Conditions between associated enterprises (br-pt Art. 9)."""

    conditions_differ_from_arm_length: bool | Unknown = Field(
        description="the enterprises' commercial or financial relations follow conditions that differ from "
        "those between independent enterprises"
    )
    management_or_control_link: bool = Field(
        default=False,
        description="participation in management or control (participation in capital comes from holdings)",
    )

# [arts-11-13-22] interest, royalties, capital gains, other income


class InterestDetails(_Model):
    """Facts of br-pt Art. 11 and Protocol 4 for an item of interest (or interest on net equity, or a
    "dividend" paid on a debt claim). Every field has a documented default."""

    borne_by_place_of_business: Id | None = Field(
        default=None,
        description="Art. 11(7): the payer's place of business in connection with which the debt was "
        "incurred and which bears the interest; default: none (the interest arises where the payer resides)",
    )
    connected_place_of_business: Id | None = Field(
        default=None,
        description="Art. 11(6): the beneficial owner's place of business with which the debt-claim is "
        "effectively connected; default: none",
    )
    paid_to_place_of_business: Id | None = Field(
        default=None,
        description="Art. 11(4): the beneficial owner's place of business (in a third State) to which the "
        "interest is attributed or paid; default: none",
    )
    government_institution_of: State | Unknown | None = Field(
        default=None,
        description="Art. 11(3), Protocol 4: the recipient is an institution (including a financial one) "
        "wholly owned by the Government, a political or administrative subdivision or a local authority "
        "of this State; default: it is not",
    )
    excess_over_arm_length: bool | Unknown = Field(
        default=False,
        description="Art. 11(8): by reason of a special relationship the amount exceeds what would have "
        "been agreed at arm's length; default: false",
    )
    public_functions: bool | Unknown | None = Field(
        default=None,
        description="br-uy Protocol 3(b): a government-owned agency (government_institution_of) receives the "
        "interest in connection with its functions of a public nature; asked where that Protocol item applies",
    )


class RoyaltyDetails(_Model):
    """Facts of br-pt Art. 12 for an item of royalties (or technical services, Protocol 5)."""

    borne_by_place_of_business: Id | None = Field(
        default=None,
        description="Art. 12(5): the payer's place of business in connection with which the obligation "
        "was incurred and which bears the royalties; default: none",
    )
    connected_place_of_business: Id | None = Field(
        default=None,
        description="Art. 12(4): the beneficial owner's place of business with which the right or "
        "property is effectively connected; default: none",
    )
    excess_over_arm_length: bool | Unknown = Field(
        default=False,
        description="Art. 12(6): by reason of a special relationship the amount exceeds what would have "
        "been agreed at arm's length; default: false",
    )
    arises_in: State | Unknown | None = Field(
        default=None,
        description="the State the royalties arise in (provêm), for a treaty whose rule on it is not in the "
        "corpus (br-uy 12(5)); omitted there: the item is not encoded",
    )


AlienatedProperty = Literal["immovable", "pe_business_property", "ships_aircraft", "other"]


class CapitalGainDetails(_Model):
    """Facts of br-pt Art. 13: what was alienated. The alienator is the item's beneficial owner."""

    property: AlienatedProperty | Unknown = Field(
        description="immovable (Art. 6 property), pe_business_property (movable business property of a "
        "permanent establishment, or the establishment itself), ships_aircraft (ships or aircraft "
        "operated in international traffic, or movable property pertaining to their operation), other"
    )
    situated_in: State | Unknown | None = Field(
        default=None, description="immovable: the State where the property is situated (reported missing if not given)"
    )
    place_of_business: Id | None = Field(
        default=None,
        description="pe_business_property: the alienator's place of business whose property it is "
        "(reported missing if not given)",
    )


class OtherIncomeDetails(_Model):
    """Facts of br-pt Art. 22 for income not dealt with in the foregoing articles."""

    arises_in: State | Unknown | None = Field(
        default=None,
        description="the State where the income arises (any State); default: the State of which the "
        "payer is a resident",
    )
    connected_place_of_business: Id | None = Field(
        default=None,
        description="Art. 22(2): the beneficial owner's place of business with which the right or "
        "property is effectively connected; default: none",
    )
    from_immovable_property: bool = Field(
        default=False, description="Art. 22(2): income from immovable property (Art. 6(2)); default: false"
    )


# [arts-14-21] independent services, employment, directors, artistes, pensions, government, teachers, students


class FiscalYear(_Model):
    """A fiscal year, both ends included (Art. 15(2)(a): 'o ano fiscal em causa')."""

    from_: date = Field(alias="from", description="first day of the fiscal year")
    until: date = Field(description="last day of the fiscal year")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


Profession = Literal[
    "scientific", "literary", "artistic", "educational", "pedagogical",
    "physician", "lawyer", "engineer", "architect", "dentist", "accountant", "other",
]


class IndependentServicesDetails(_Model):
    """Income from a liberal profession or another independent activity (br-pt Art. 14)."""

    profession: Profession | None = Field(
        default=None,
        description="the activity: one named in Art. 14(2) (scientific, literary, artistic, educational, "
        "pedagogical; physician, lawyer, engineer, architect, dentist, accountant) or other",
    )
    borne_by: Id | Unknown | None = Field(
        default=None,
        description="the place of business to which the remuneration is charged (that bears it); default: none",
    )


class EmploymentDetails(_Model):
    """Salaries, wages and similar remuneration from an employment (br-pt Art. 15)."""

    exercised_in: State | Unknown | None = Field(
        default=None,
        description="the State where the employment is exercised (the employee is physically present); "
        "professors, students and artistes take it from their own details",
    )
    employer: Id | None = Field(default=None, description="the employer; default: the payer")
    borne_by: Id | Unknown | None = Field(
        default=None,
        description="the employer's place of business that bears the remuneration; default: none",
    )
    fiscal_year: FiscalYear | None = Field(
        default=None,
        description="the fiscal year concerned (Art. 15(2)(a)); default: the calendar year of the item's date "
        "(the fiscal year of individuals in Brazil and in Portugal)",
    )
    aboard: Literal["ship", "aircraft"] | None = Field(
        default=None, description="the employment is exercised aboard a ship or an aircraft (Art. 15(3)); default: no"
    )
    operator: Id | None = Field(
        default=None, description="aboard only: the enterprise operating the ship or aircraft; default: the employer"
    )
    operated_solely_within: State | None = Field(
        default=None,
        description="aboard only: the State if the ship or aircraft is operated solely between places in it",
    )


class DirectorDetails(_Model):
    """Directors' fees (br-pt Art. 16)."""

    company: Id | None = Field(
        default=None, description="the company of whose board (or similar organ) the recipient is a member; "
        "default: the payer"
    )


class ArtisteDetails(_Model):
    """Income of entertainers and sportspersons (br-pt Art. 17)."""

    performer: Id | None = Field(
        default=None,
        description="the entertainer or sportsperson who exercises the activity personally; default: the "
        "recipient (a different recipient is 'another person' to whom the income accrues, Art. 17(2))",
    )
    exercised_in: State | Unknown | None = Field(
        default=None, description="the State where the activity is exercised"
    )
    public_funding: dict[State, BasisPoints] | Unknown = Field(
        default_factory=dict,
        description="State -> share (percent) of the activity's funding from public funds of that State, of "
        "its political or administrative subdivisions or local authorities, or of entities whose share "
        "capital they hold in majority (Art. 17(3)); default: no public funding",
    )
    employed: bool = Field(
        default=False,
        description="the activity is exercised as an employee (decides between Arts. 15 and 14 where Art. 17 "
        "does not apply); default: independent",
    )


class PensionDetails(_Model):
    """Pensions (br-pt Art. 18)."""

    social_security: State | Unknown | None = Field(
        default=None,
        description="the State under whose social security legislation the pension is paid (Art. 18(2)); "
        "default: none (an occupational or private pension)",
    )
    past_employment: bool | Unknown = Field(
        default=True, description="paid in consideration of past employment (Art. 18(1)); default: true"
    )


class GovernmentServiceDetails(_Model):
    """Remuneration and pensions paid by a State for services rendered to it (br-pt Art. 19)."""

    paying_state: State | None = Field(
        default=None,
        description="the Contracting State that pays, itself, through a subdivision or local authority or "
        "through a fund they constituted; default: the State of the payer, when the payer is a government",
    )
    capacity: Literal["public_functions", "commercial_or_industrial"] | Unknown | None = Field(
        default=None,
        description="the services are rendered in the exercise of public functions, or in connection with a "
        "commercial or industrial activity carried on by the State (Art. 19(3))",
    )
    kind: Literal["remuneration", "pension"] = Field(default="remuneration", description="default: remuneration")


ProfessorInviter = Literal[
    "government", "non_profit_entity", "state_institution", "non_profit_institution", "other"
]


class ProfessorDetails(_Model):
    """Visiting professors and researchers (br-pt Art. 20)."""

    host_state: State = Field(description="the State visited, where the person teaches or does research")
    resident_before: State | Unknown | None = Field(
        default=None,
        description="the State of which the person was a resident immediately before the visit; needed only "
        "when the person is not now a resident of the State other than the host State",
    )
    invited_by: ProfessorInviter | Unknown | None = Field(
        default=None,
        description="government: the Government of the host State; non_profit_entity: an entity without "
        "profit aims; state_institution / non_profit_institution: a university or other teaching or "
        "scientific research institution belonging to the host State / to such an entity; other",
    )
    sole_purpose: bool | Unknown | None = Field(
        default=None, description="the visit is solely to teach or do scientific research at those institutions"
    )
    from_: date = Field(alias="from", description="first day of the visit")
    until: date | Unknown | None = Field(default=None, description="last day of the visit (actual or planned)")
    employed: bool = Field(
        default=True,
        description="teaches as an employee (Art. 15 decides if Art. 20 does not apply) or independently "
        "(Art. 14); default: employee",
    )

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class StudentDetails(_Model):
    """Students and trainees (br-pt Art. 21)."""

    host_state: State = Field(description="the State where the person studies, trains or works")
    payment: Literal["maintenance", "employment"] = Field(
        description="maintenance: sums received for maintenance, education or training (Art. 21(1)); "
        "employment: remuneration from an employment (Art. 21(2))"
    )
    resident_before: State | Unknown | None = Field(
        default=None,
        description="maintenance: the State of which the person was a resident immediately before the stay; "
        "needed only when the person is not now a resident of the State other than the host State",
    )
    capacity: Literal["student", "trainee", "grant_holder", "other"] | Unknown | None = Field(
        default=None,
        description="maintenance: a student of a university, college or school (21(1)(a)), a trainee (b), "
        "the holder of a grant, allowance or award of a religious, charitable, scientific or educational "
        "organisation (c), or other",
    )
    sole_purpose: bool | Unknown | None = Field(
        default=None, description="maintenance: stays temporarily in the host State solely to study or train"
    )
    from_sources_outside_host: bool | Unknown | None = Field(
        default=None, description="maintenance: the sums arise from sources outside the host State"
    )
    institution_state: State | Unknown | None = Field(
        default=None,
        description="employment: the State of the university or other higher or technical education "
        "establishment of which the person is a student",
    )
    practical_training: bool | Unknown | None = Field(
        default=None, description="employment: for practical training related to the studies"
    )
    employment_from: date | None = Field(default=None, description="employment: its first day (required)")
    employment_until: date | Unknown | None = Field(default=None, description="employment: its last day")
    annual_remuneration: Money | None = Field(
        default=None, description="employment: the remuneration for the year; default: the item's gross amount"
    )
    usd_exchange_rate: Decimal | Unknown | None = Field(
        default=None,
        description="employment: units of the remuneration's currency per US dollar, the rate the scenario "
        "applies (not needed for USD); the checker never looks a rate up",
    )

    @field_validator("usd_exchange_rate", mode="before")
    @classmethod
    def _exact_rate(cls, v: Any) -> Any:
        if isinstance(v, float):
            raise ValueError("an exact decimal written as a string, e.g. '5.1234', found a float")
        return v

    @field_validator("usd_exchange_rate")
    @classmethod
    def _positive_rate(cls, v: Any) -> Any:
        if isinstance(v, Decimal) and (not v.is_finite() or v <= 0):
            raise ValueError(f"a positive exchange rate, found {v}")
        return v


_ARTS_14_21_BLOCKS: dict[str, tuple[str, ...]] = {
    "independent": ("independent_services", "artiste_sportsperson", "professor"),
    "employment": ("employment", "government_service", "artiste_sportsperson", "professor", "student"),
    "director": ("director_fees",),
    "artiste": ("artiste_sportsperson",),
    "pension": ("pension", "government_service"),
    "government": ("government_service",),
    "professor": ("professor",),
    "student": ("student",),
}
"""Which item types may carry each details block of Arts. 14-21 (a block is also read where another
article sends the item: Art. 17 to Arts. 14 and 15, Art. 19 to Arts. 15 and 18, Arts. 20-21 to 14-15)."""


def _check_arts_14_to_21(sc: Scenario, source: str, lines: _LineMap) -> list[Problem]:
    """[arts-14-21] details blocks on the right types, references resolved, dates in order."""
    problems: list[Problem] = []
    persons = list(sc.persons)
    places = list(sc.places_of_business)

    def problem(path: tuple[Any, ...], expected: str, found: str, hint: str = "") -> None:
        problems.append(Problem(source, lines.line(path), _field(path), expected, found, hint))

    def ref(path: tuple[Any, ...], value: str | None, choices: list[str], what: str) -> None:
        if value is not None and value != UNKNOWN and value not in choices:
            problem(path, f"the id of {what}", repr(value), _suggest(value, choices))

    for i, item in enumerate(sc.income):
        for block, types in _ARTS_14_21_BLOCKS.items():
            if getattr(item, block) is not None and item.type not in types:
                problem(("income", i, block), f"{block} details only on items of type {', '.join(types)}",
                        item.type)
        if item.type in ("professor", "student") and getattr(item, item.type) is None:
            problem(("income", i), f"{item.type} details (required for type {item.type})", "nothing")
        if item.independent is not None:
            ref(("income", i, "independent", "borne_by"), item.independent.borne_by, places, "a place of business")
        emp = item.employment
        if emp is not None:
            ref(("income", i, "employment", "employer"), emp.employer, persons, "a person")
            ref(("income", i, "employment", "operator"), emp.operator, persons, "a person")
            ref(("income", i, "employment", "borne_by"), emp.borne_by, places, "a place of business")
            if emp.fiscal_year is not None and emp.fiscal_year.until < emp.fiscal_year.from_:
                problem(("income", i, "employment", "fiscal_year", "until"),
                        f"a date on or after from ({emp.fiscal_year.from_})", str(emp.fiscal_year.until))
            if (emp.operator is not None or emp.operated_solely_within is not None) and emp.aboard is None:
                problem(("income", i, "employment", "aboard"),
                        "aboard: ship or aircraft when operator or operated_solely_within is given", "nothing")
            if emp.exercised_in is not None and item.type in ("professor", "student", "artiste_sportsperson"):
                problem(("income", i, "employment", "exercised_in"),
                        f"no exercised_in here: a {item.type} item takes it from its own details", emp.exercised_in)
        if item.director is not None:
            ref(("income", i, "director", "company"), item.director.company, persons, "a person")
        if item.artiste is not None:
            ref(("income", i, "artiste", "performer"), item.artiste.performer, persons, "a person")
        states = CONTRACTING_STATES[sc.treaty]
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
                        f"a Contracting State of {sc.treaty} ({', '.join(states)}): Art. 19 covers payments by them",
                        paying)
        prof = item.professor
        if prof is not None and isinstance(prof.until, date) and prof.until < prof.from_:
            problem(("income", i, "professor", "until"), f"a date on or after from ({prof.from_})", str(prof.until))
        st = item.student
        if st is not None and st.payment == "employment":
            if st.employment_from is None:
                problem(("income", i, "student", "employment_from"),
                        "the first day of the employment (required for payment: employment)", "nothing")
            elif isinstance(st.employment_until, date) and st.employment_until < st.employment_from:
                problem(("income", i, "student", "employment_until"),
                        f"a date on or after employment_from ({st.employment_from})", str(st.employment_until))
    return problems

# [general] taxes covered, elimination of double taxation, non-discrimination, MAP, dates, Protocol

TaxName = Literal["irpj", "irpf", "csll", "irs", "irc", "derrama", "irae", "irpf_uy", "irnr", "iass", "ip",
                  "other"]
# [br-uy] irae, irpf_uy, irnr, iass, ip: the Uruguayan taxes of br-uy 2(3)(b) (IRAE, IRPF, IRNR, IASS and the
# Impuesto al Patrimonio); irpf is Brazil's.
_NAMED_TAX_STATE = {"irpj": "br", "irpf": "br", "csll": "br", "irs": "pt", "irc": "pt", "derrama": "pt",
                    "irae": "uy", "irpf_uy": "uy", "irnr": "uy", "iass": "uy", "ip": "uy"}
"""The State of each tax the scenario can name (for checking the input; the logic has its own list)."""


class TaxConcerned(_Model):
    """The tax an item concerns (br-pt Art. 2, Protocol 1-2), and what Arts. 25(1), 28(2), 29 ask of it."""

    name: TaxName = Field(
        description="irpj or irpf (Brazil's federal income tax, on companies or individuals), csll (Protocol 1), "
        "irs, irc, derrama (the local surcharge on IRC, Protocol 2), irae, irpf_uy, irnr, iass, ip (Uruguay's taxes "
        "on economic activities, individuals, non-residents, social security assistance and net worth, br-uy "
        "2(3)(b)), or other (a tax the Convention does not name)",
    )
    state: State | None = Field(default=None, description="the State that levies it: required for other, "
                                "implied by the named taxes")
    withheld_at_source: bool | Unknown | None = Field(
        default=None, description="whether the tax is withheld (due) at source; asked only where Art. 25(1), "
        "28(2) or 29 turns on it",
    )
    fiscal_year_start: date | None = Field(
        default=None, description="first day of the fiscal year in which the income is produced (Arts. 28(2), 29); "
        "default: 1 January of the year of the item's date",
    )
    in_force_from: date | None = Field(
        default=None, description="other only: the date the tax entered into force (Art. 2(2))")
    identical_or_similar: bool | Unknown | None = Field(
        default=None, description="other only: of a nature identical or similar to the taxes covered (Art. 2(2))")
    federal: bool | Unknown | None = Field(
        default=None, description="other Brazilian taxes only: a tax of the Union (Protocol 8(e))")


class ReliefFacts(_Model):
    """Facts and figures for the elimination of double taxation of the item (br-pt Art. 23, Protocol 7).

    Present (even empty, ``relief: {}``) to ask for Art. 23. All amounts are in one currency; when it is not
    the currency of the gross amount, ``income_included`` is required.
    """

    source_tax_paid: Money | None = Field(default=None, description="the tax paid in the other (source) State")
    residence_tax_on_income: Money | None = Field(
        default=None, description="the residence State's tax, before the deduction, that corresponds to the item "
        "(the ceiling of Art. 23(1) directly); or give the next two figures",
    )
    residence_tax_before_credit: Money | None = Field(
        default=None, description="the residence State's tax on the taxpayer's income, before the deduction")
    residence_taxable_income: Money | None = Field(
        default=None, description="the taxable income on which that tax is computed (after any Art. 23(2) deduction)")
    income_included: Money | None = Field(
        default=None, description="the item as included in the residence State's taxable base, before any "
        "Art. 23(2) deduction; default: the gross amount",
    )
    underlying_tax: Money | None = Field(
        default=None, description="indirect credit (Art. 23(3), Protocol 7): the tax payable by the paying company "
        "on the profits out of which the dividend is paid, as it corresponds to the dividend",
    )
    payer_taxed_without_exemption: bool | Unknown | None = Field(
        default=None, description="dividends: the paying company is subject to its State's tax covered (Art. 2) "
        "and not exempt (Art. 23(2), 23(3))",
    )
    payer_constituted: date | None = Field(
        default=None, description="dividends: the date the paying company was constituted (Art. 23(2))")
    portugal_indirect_credit_method: bool | Unknown = Field(
        default=False, description="Portuguese law has replaced its method for foreign dividends by the indirect "
        "credit (Protocol 7); default: not replaced (the 95% deduction of Art. 23(2))",
    )


class MutualAgreementCase(_Model):
    """A case presented under the mutual agreement procedure about the item (br-pt Art. 25(1))."""

    claimant: Id | None = Field(default=None, description="the resident who presents it; default: the beneficial owner")
    taxed_in_both_states: bool | Unknown | None = Field(
        default=None, description="the case is one of taxation in both States (asked unless the tax is withheld at "
        "source)",
    )
    notified: date | None = Field(
        default=None, description="the date of notification of the tax that gives rise to the claim")
    second_taxation_notified: date | None = Field(
        default=None, description="taxation in both States: the date of notification of the second taxation")
    request_filed: date | None = Field(default=None, description="the date the request was presented, if it was")


NdGround = Literal["nationality", "permanent_establishment", "deduction", "foreign_ownership"]
NdReason = Literal[
    "personal_allowances", "branch_profits_tax", "royalties_paid_by_permanent_establishment",
    "ancillary_obligation", "thin_capitalisation", "other",
]


class NonDiscrimination(_Model):
    """A treatment the scenario compares under br-pt Art. 24 (with Protocol 8)."""

    ground: NdGround = Field(
        description="nationality (24(1)), permanent_establishment (24(2)), deduction of a payment to a resident of "
        "the other State (24(3)), foreign_ownership of an enterprise (24(4))",
    )
    taxing_state: State = Field(description="the State whose treatment is compared")
    person: Id | None = Field(
        default=None, description="nationality: the national (a legal person's nationality is the State under whose "
        "law it was constituted, Art. 3(1)(c)); default: the beneficial owner. deduction, foreign_ownership: the "
        "enterprise; default: the payer",
    )
    place_of_business: Id | None = Field(default=None, description="permanent_establishment: the place compared")
    treatment: Literal["more_burdensome", "different", "same"] | Unknown = Field(
        description="the treatment compared with the taxing State's own nationals, enterprises or residents",
    )
    same_circumstances: bool | Unknown | None = Field(
        default=None, description="the persons compared are in the same circumstances (24(1)), carry on the same "
        "activities (24(2)), are similar enterprises (24(4))",
    )
    reason: NdReason | None = Field(
        default=None, description="the ground the taxing State invokes (an exception may cover it); default: none",
    )


class TerminationNotice(_Model):
    """A notice of termination of the Convention (br-pt Art. 29)."""

    cessation_year: int = Field(ge=1900, le=9998, description="the year of cessation the notice specifies")
    given: date = Field(description="the date the notice was given through diplomatic channels")
    by: State | None = Field(default=None, description="the State giving notice (either may)")


def _check_general(sc: Scenario, source: str, lines: _LineMap) -> list[Problem]:
    """[general] consistency of the tax, relief, mutual agreement and non-discrimination details."""
    problems: list[Problem] = []

    def bad(path: tuple[Any, ...], expected: str, found: str) -> None:
        problems.append(Problem(source, lines.line(path), _field(path), expected, found))

    persons = list(sc.persons)
    for i, item in enumerate(sc.income):
        tax = item.tax
        if tax is not None:
            implied = _NAMED_TAX_STATE.get(tax.name)
            if implied is None and tax.state is None:
                bad(("income", i, "tax", "state"), "the State that levies a tax named other", "nothing")
            if implied is not None and tax.state not in (None, implied):
                bad(("income", i, "tax", "state"), f"{implied} (the State of {tax.name}) or nothing", str(tax.state))
            if tax.name != "other":
                for attr in ("in_force_from", "identical_or_similar", "federal"):
                    if getattr(tax, attr) is not None:
                        bad(("income", i, "tax", attr), f"{attr} only for a tax named other", tax.name)
            elif tax.federal is not None and tax.state != "br":
                bad(("income", i, "tax", "federal"), "federal only for a Brazilian tax",
                    f"a tax of {tax.state or 'no State given'}")
            if tax.fiscal_year_start is not None and tax.fiscal_year_start > item.date:
                bad(("income", i, "tax", "fiscal_year_start"), f"a date on or before the item's date ({item.date})",
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
            if nd.taxing_state not in CONTRACTING_STATES[sc.treaty]:
                bad((*path, "taxing_state"), "a Contracting State of " + sc.treaty, nd.taxing_state)
            if nd.person is not None and nd.person not in persons:
                bad((*path, "person"), "the id of a person", repr(nd.person))
            if nd.ground == "deduction" and nd.person not in (None, item.payer):
                bad((*path, "person"), f"the paying enterprise ({item.payer})", repr(nd.person))
            if (nd.ground == "permanent_establishment") != (nd.place_of_business is not None):
                bad((*path, "place_of_business"), "a place of business exactly for the ground permanent_establishment",
                    _describe(nd.place_of_business))
            if nd.place_of_business is not None and nd.place_of_business not in sc.places_of_business:
                bad((*path, "place_of_business"), "the id of a place of business", repr(nd.place_of_business))
            if tax is not None:
                tax_state = _NAMED_TAX_STATE.get(tax.name, tax.state)
                if tax_state is not None and tax_state != nd.taxing_state:
                    bad((*path, "taxing_state"), f"the State of the item's tax ({tax_state})", nd.taxing_state)
    return problems


# --------------------------------------------------------------------------------------------------


IncomeType = Literal[
    "dividend",
    "branch_profits",
    "interest",
    "interest_on_equity",
    "royalty",
    "technical_services",
    "business_profits",
    "shipping_air_transport",
    "immovable_property",
    "capital_gain",
    "independent_services",
    "employment",
    "director_fees",
    "artiste_sportsperson",
    "pension",
    "government_service",
    "professor",
    "student",
    "other_income",
]


# [br-sg] Brazil–Singapore: statutory bodies (Art. 4(1), Protocol 1), the services permanent establishment
# (Art. 5(4)), insurance agents (Art. 5(8)), partnerships and corporate reorganisations (Art. 10(2)(a)),
# income incidental to international traffic (Art. 8(3)).


class StatutoryBody(_Model):
    """A body constituted by law in a Contracting State (br-sg Art. 4(1) "órgãos estatutários", Protocol 1)."""

    state: State = Field(description="the State under whose law the body is constituted")
    only_non_commercial_government_functions: bool | Unknown | None = Field(
        default=None,
        description="it carries on only non-commercial functions that the Government of that State would "
        "otherwise carry on (Protocol 1); reported missing if not given",
    )


class ServicePeriod(_Model):
    """Days on which the enterprise's employees or other personnel furnish the services in the State (both
    ends included; a day worked by two persons counts once)."""

    person: Id | None = Field(default=None, description="who furnished them (informative; not read by the rules)")
    from_: date = Field(alias="from", description="first day")
    until: date = Field(description="last day (inclusive)")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class ServicesFacts(_Model):
    """Services, including consultancy, that the place's owner furnishes in the place's State through its
    employees or other personnel engaged for that purpose, for the same project or connected projects
    (br-sg Art. 5(4)). The place of business then stands for those services: its kind is not needed."""

    periods: list[ServicePeriod] = Field(min_length=1, description="the periods of activity in the State")


class InsuranceAgentFacts(_Model):
    """An insurance enterprise acting through a person in the other State (place kind agent; br-sg 5(8))."""

    premiums_or_risks: bool | Unknown | None = Field(
        default=None,
        description="through this person the enterprise collects premiums in the place's State or insures "
        "risks situated there; reported missing if not given",
    )
    reinsurance_only: bool = Field(default=False, description="only reinsurance (excepted by 5(8)); default false")


class HoldingContinuation(_Model):
    """The earlier holding that a holding continues (br-sg Art. 10(2)(a))."""

    holder: Id = Field(description="the holder of the earlier holding")
    company: Id = Field(description="the company of the earlier holding")


ShippingAncillaryKind = Literal["bareboat_rental", "containers", "interest_on_funds"]


class ShippingAncillary(_Model):
    """Income of an operator of ships or aircraft in international traffic other than from the transport
    itself (br-sg Art. 8(3), Protocol 2), on an item of type shipping_air_transport."""

    kind: ShippingAncillaryKind = Field(
        description="bareboat_rental (8(3)(a): renting ships or aircraft without crew), containers (8(3)(b): "
        "use, maintenance or rental of containers), interest_on_funds (8(3)(c): interest on funds connected "
        "with the operation)"
    )
    incidental: bool | Unknown | None = Field(
        default=None,
        description="incidental to the operation of ships or aircraft in international traffic (8(3)); "
        "interest_on_funds: on temporary investment funds forming an integral part of that operation "
        "(Protocol 2); reported missing if not given",
    )


def _check_br_sg(sc: Scenario, source: str, lines: _LineMap) -> list[Problem]:
    """[br-sg] consistency of the Brazil–Singapore facts."""
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


# [br-pl] Brazil–Poland (probably; Arts. 11(7)-19(2) only): what a payment for rights or services is paid
# for (Arts. 12-13), shares deriving their value from immovable property (Art. 14(4)), where a gain
# arises (Art. 14(5)). (Fixed bases: PlaceOfBusiness.fixed_base.)


RoyaltyRight = Literal[
    "copyright",  # 12(3) direito de autor, obra literária, artística ou científica
    "films_recordings",  # filmes cinematográficos e gravações para transmissão por televisão ou rádio
    "patent",
    "trademark",  # marca de indústria ou comércio: 12(2)(a), 15%
    "design_or_model",
    "plan",
    "secret_formula_or_process",
    "equipment",  # uso de equipamento industrial, comercial ou científico
    "know_how",  # informações relativas à experiência adquirida (industrial, comercial ou científica)
]
ServiceNature = Literal["managerial", "technical", "consultancy", "other"]
RightsOrServices = Literal["royalty", "technical_services"]


class PaymentForDetails(_Model):
    """What a royalty or a fee for services is paid for (br-pl Arts. 12(3) and 13(3)). A payment for a
    trademark together with other rights is split by amount: give two items (one trademark, one for the
    rest)."""

    rights: list[RoyaltyRight] | Unknown | None = Field(
        default=None,
        description="royalty: the rights, property or information paid for (12(3)); a trademark decides the "
        "15% limit of 12(2)(a). Omitted: missing where the limit is needed",
    )
    services: list[ServiceNature] | Unknown | None = Field(
        default=None,
        description="technical_services: the nature of the services (13(3): managerial, technical or "
        "consultancy; other). Omitted: missing",
    )
    characterisation: RightsOrServices | Unknown | None = Field(
        default=None,
        description="a payment that may be a royalty or a fee for technical services (e.g. know-how supplied "
        "with assistance): the scenario's characterisation; unknown: both outcomes are shown and the item "
        "depends on it; default: the item's type",
    )
    paid_to_employee_of_payer: bool | Unknown = Field(
        default=False, description="13(3)(a): paid to an employee of the payer; default: false"
    )
    teaching: bool | Unknown = Field(
        default=False,
        description="13(3)(b): paid for teaching in or by an educational institution; default: false",
    )
    personal_use: bool | Unknown = Field(
        default=False,
        description="13(3)(c): paid by an individual for services for the personal use of an individual; "
        "default: false",
    )
    also_under: Literal["shipping_air_transport", "director_fees", "artiste_sportsperson"] | None = Field(
        default=None,
        description="13(2): the fee also falls under Art. 8 (shipping and air transport), 17 (directors) or 18 "
        "(entertainers and sportspersons), which Art. 13(2) reserves; default: none",
    )


SharesKind = Literal["shares", "partnership_interest", "trust_interest", "investment_fund_units", "other_comparable"]


class ValueShare(_Model):
    """The share of the value of the alienated shares or rights derived, directly or indirectly, from
    immovable property situated in a State, over an interval (both ends included)."""

    from_: date = Field(alias="from", description="first day")
    until: date = Field(description="last day (inclusive)")
    share: BasisPoints = Field(description="percent of the value (e.g. 50.1)")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class SharesAlienatedDetails(_Model):
    """br-pl Art. 14(4): shares or comparable rights alienated by a resident of a Contracting State."""

    kind: SharesKind = Field(description="shares, partnership_interest, trust_interest, investment_fund_units, "
                             "other_comparable")
    immovable_in: State = Field(description="the State where the immovable property (Art. 6(2)) is situated")
    value_from_immovable: list[ValueShare] | Unknown | None = Field(
        default=None,
        description="the share of value derived from immovable property in that State, over dated intervals "
        "that should cover the 365 days before the alienation (a day not covered is not known); omitted: "
        "missing where Art. 14(4) needs it",
    )


def _check_br_pl(sc: Scenario, source: str, lines: _LineMap) -> list[Problem]:
    """[br-pl] consistency of the Brazil–Poland facts."""
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


# [br-uy] Brazil–Uruguay: entitlement to benefits (Art. 29): the facts of qualified persons (29(2)), the
# active conduct of a business (29(3)), equivalent beneficiaries (29(4), 29(6)(e)), connected persons
# (29(6)(d)) and permanent establishments in a third jurisdiction (29(8)).

EntityPurpose = Literal["nonprofit", "pension", "pension_investment", "none"]
BusinessActivity = Literal["operating", "holding_company", "group_supervision", "group_financing", "investments"]
FinancialInstitution = Literal["bank", "insurer", "securities_dealer", "none"]


class EntitlementFacts(_Model):
    """What a limitation-on-benefits article asks of a person (br-uy Art. 29). Each fact is asked only where
    the outcome turns on it (reported missing then); ``unknown`` is allowed everywhere."""

    regularly_traded: bool | Unknown | None = Field(
        default=None,
        description="company: its principal class of shares (29(6)(c)) is regularly traded on one or more "
        "recognised stock exchanges (29(6)(a)) (29(2)(c), reconstructed)")
    entity_purpose: EntityPurpose | Unknown | None = Field(
        default=None,
        description="non-individual established in its State of residence: nonprofit (organisation maintained "
        "exclusively for religious, charitable, educational or scientific purposes, 29(2)(d)(i)); pension "
        "(entity or arrangement treated as a separate person, operated exclusively or almost exclusively to "
        "administer or provide retirement benefits, regulated as such, 29(2)(d)(ii)(A)); pension_investment "
        "(operated exclusively or almost exclusively to invest funds for such pension entities, "
        "29(2)(d)(ii)(B)); none")
    business_activity: BusinessActivity | Unknown | None = Field(
        default=None,
        description="the business the person conducts in its State of residence (29(3)(a)): operating (an "
        "active trade or business), or one of the activities 29(3)(a)(i)-(iv) exclude: holding_company, "
        "group_supervision, group_financing (incl. cash pooling), investments")
    financial_institution: FinancialInstitution = Field(
        default="none",
        description="a bank, insurer or registered securities dealer making or managing investments in the "
        "ordinary course of its business (29(3)(a)(iv)); default: none")
    equivalent_beneficiary: bool | Unknown | None = Field(
        default=None,
        description="29(6)(e): the person would be entitled, under its own State's law, this Convention or "
        "another international agreement, to benefits equivalent to or more favourable than those of this "
        "Convention for the item (a fact the user establishes: other treaties are outside the corpus)")
    equivalent_beneficiary_as_company: bool | Unknown | None = Field(
        default=None,
        description="29(6)(e), last sentence: for dividends received by a company, the same question with the "
        "person treated as a company holding the same capital of the payer as the company claiming")


class ItemEntitlementFacts(_Model):
    """What Art. 29(3) and 29(6)(d) ask of an item of income (br-uy)."""

    from_business: bool | Unknown | None = Field(
        default=None,
        description="29(3)(a): the income emanates from, or is incidental to, the business the resident "
        "(or a connected person, 29(3)(c)) actively conducts in its State of residence")
    substantial: bool | Unknown | None = Field(
        default=None,
        description="29(3)(b): that business is substantial in relation to the business the connected payer "
        "conducts in the other State (all facts and circumstances: a judgment the user makes)")
    controlled_with_payer: bool | Unknown | None = Field(
        default=None,
        description="29(6)(d), last sentence: on all facts, the recipient controls the payer, the payer the "
        "recipient, or both are controlled by the same persons (the shareholdings are counted by the rules)")


class ThirdJurisdictionPE(_Model):
    """br-uy 29(8): the residence State treats the item as attributable to a permanent establishment of the
    enterprise in a third jurisdiction."""

    jurisdiction: str = Field(description="the third jurisdiction (informative)")
    profits_exempt_in_residence: bool | Unknown | None = Field(
        default=None, description="29(8)(a)(ii): the residence State exempts the profits attributable to the PE")
    third_jurisdiction_tax: Decimal | Unknown | None = Field(
        default=None, ge=0, description="29(8)(a): the tax on the item in the third jurisdiction")
    residence_state_tax: Decimal | Unknown | None = Field(
        default=None, gt=0,
        description="29(8)(a): the tax the residence State would impose on the item if the PE were situated "
        "there (same currency)")
    active_business: bool | Unknown | None = Field(
        default=None,
        description="29(8)(b): the income emanates from, or is incidental to, the active conduct of a business "
        "through the PE, other than making, managing or simply holding investments for the enterprise's own "
        "account unless banking, insurance or securities activities of a bank, insurer or registered dealer")


class FiscalTransparency(_Model):
    """br-uy Protocol 1: the elements of "fiscalmente transparente" under one State's tax law: the income
    (or part of it) of the entity or arrangement is not taxed at its level, but in the hands of the persons
    with an interest in it, as if they had derived it directly when it was realised, whether or not it is
    distributed to them."""

    taxed_at_entity: bool | Unknown | None = Field(
        default=None, description="that State taxes the income at the level of the entity or arrangement")
    members_taxed_as_derived_directly: bool | Unknown | None = Field(
        default=None,
        description="that State taxes the persons with an interest in it on the income as if derived directly "
        "by them when it was realised, whether or not distributed")


def _check_br_uy(sc: Scenario, source: str, lines: _LineMap) -> list[Problem]:
    """[br-uy] consistency: a termination notice names as cessation year the year it is delivered (br-uy
    32: the Convention ceases from 1 January of the next calendar year); an item is derived through an
    entity or arrangement that is a person of the scenario other than its recipient, and not an individual
    (br-uy 1(2)); only an entity or arrangement has a fiscal transparency (Protocol 1); only a person other
    than an individual has an entity purpose (29(2)(d))."""
    problems: list[Problem] = []
    notice = sc.termination_notice
    if sc.treaty == "br-uy" and notice is not None and notice.cessation_year != notice.given.year:
        problems.append(Problem(source, lines.line(("termination_notice", "cessation_year")),
                                "termination_notice.cessation_year",
                                f"the year the notice is delivered ({notice.given.year}) under br-uy 32",
                                str(notice.cessation_year)))
    for pid, p in sc.persons.items():
        if p.fiscal_transparency is not None and p.kind not in ("company", "other_entity"):
            problems.append(Problem(source, lines.line(("persons", pid, "fiscal_transparency")),
                                    f"persons.{pid}.fiscal_transparency",
                                    "fiscal_transparency only for a company or other_entity", p.kind))
        if p.entitlement is not None and p.entitlement.entity_purpose is not None and p.kind == "individual":
            problems.append(Problem(source, lines.line(("persons", pid, "entitlement", "entity_purpose")),
                                    f"persons.{pid}.entitlement.entity_purpose",
                                    "entity_purpose only for a non-individual (br-uy 29(2)(d))", p.kind))
    for i, item in enumerate(sc.income):
        through = item.derived_through
        if through is None:
            continue
        path = ("income", i, "derived_through")
        entity = sc.persons.get(through)
        if entity is None:
            problems.append(Problem(source, lines.line(path), f"income[{i}].derived_through",
                                    f"a person of the scenario ({_suggest(through, list(sc.persons))})", through))
        elif through == item.recipient or entity.kind not in ("company", "other_entity"):
            problems.append(Problem(source, lines.line(path), f"income[{i}].derived_through",
                                    "an entity or arrangement (company or other_entity) other than the recipient",
                                    through))
    return problems


# [br-ae] Brazil–UAE (Arts. 5, 8, 9, 29 only): closely related enterprises and control (Art. 5(8)), the
# split-contract rule (5(3)), anti-fragmentation (5(4.1)), agents concluding contracts (5(5), 5(7)), the
# UAE offshore regimes (29(1)), third-jurisdiction permanent establishments (29(2)) and the proof a UAE
# company must make (29(3)).

AgentContractKind = Literal[
    "in_name_of_enterprise",  # br-ae 5(5)(a) contracts in the name of the enterprise
    "transfer_of_property",  # 5(5)(b) transferring the ownership of, or granting the right to use, its property
    "provision_of_services",  # 5(5)(c) for the provision of services by the enterprise
]


class AgentContracts(_Model):
    """A person acting for the enterprise in a State (place kind `agent`) under br-ae Art. 5(5) and 5(7): what
    it does about contracts, and for whom it acts. Each fact may be given as unknown; one that br-ae 5 needs
    and the scenario omits is reported missing."""

    person: Id | None = Field(
        default=None, description="the id of the person who acts (needed to test 5(7): closely related enterprises)")
    habitually_concludes: bool | Unknown | None = Field(
        default=None, description="habitually concludes contracts (5(5))")
    principal_role: bool | Unknown | None = Field(
        default=None,
        description="habitually plays the principal role leading to the conclusion of contracts that are routinely "
        "concluded without material modification by the enterprise (5(5))")
    kinds: list[AgentContractKind] | Unknown | None = Field(
        default=None, description="what those contracts are (5(5)(a)-(c)); an empty list: none of these")
    acts_exclusively_for: list[Id] | Unknown | None = Field(
        default=None,
        description="the enterprises on whose behalf the person acts exclusively or almost exclusively (5(7)); an "
        "empty list: it acts for many unrelated enterprises")


OffshoreActivity = Literal[
    "shipping",  # br-ae 29(1)(a) transporte marítimo
    "banking_financial_insurance_investment",  # 29(1)(b) and similar activities
    "headquarters_coordination",  # 29(1)(c) headquarters, coordination centre or similar entity
]


class OffshoreRegime(_Model):
    """A UAE provision on the offshore income of a company from one of the activities of br-ae Art. 29(1)."""

    activity: OffshoreActivity = Field(description="the activity whose offshore income it covers (29(1)(a)-(c))")
    offshore_rate: BasisPoints | Unknown | None = Field(
        default=None, description="% the UAE taxes that offshore income at (0: not taxed); reported missing if omitted")
    domestic_rate: BasisPoints | Unknown | None = Field(
        default=None,
        description="% the UAE applies to income from similar activities carried on in its own territory; needed "
        "unless the offshore income is not taxed")


class BenefitsProof(_Model):
    """What a company resident of the UAE has proven under br-ae Art. 29(3) ("salvo se ficar provado": what is
    not proven is not assumed)."""

    no_principal_purpose: bool = Field(
        default=False,
        description="proven that neither the company, nor the conduct of its business, nor the acquisition or "
        "maintenance of the holding or property the income derives from had as a principal purpose obtaining "
        "benefits for a person not resident of the UAE; default: not proven")
    gross_income_to_non_entitled: BasisPoints | None = Field(
        default=None,
        description="the share (%) of its gross income proven to be used, directly or indirectly, to meet "
        "obligations (interest, royalties ...) to persons not entitled to the benefits; default: not proven")


class ThirdStatePermanentEstablishment(_Model):
    """Income a UAE enterprise derives from Brazil that the UAE treats as attributable to a permanent
    establishment of the enterprise in a third jurisdiction (br-ae Art. 29(2))."""

    attributed_by_uae: bool | Unknown = Field(
        description="the UAE treats the income as attributable to a permanent establishment in a third jurisdiction")
    exempt_in_uae: bool | Unknown | None = Field(
        default=None, description="the profits attributable to it are exempt from tax in the UAE")
    third_state_tax: Money | Unknown | None = Field(
        default=None, description="the tax on the item in the third jurisdiction")
    uae_tax_if_situated_there: Money | Unknown | None = Field(
        default=None,
        description="the tax the UAE would impose on the item if the permanent establishment were situated in the "
        "UAE (same currency as third_state_tax)")


def _check_br_ae(sc: Scenario, source: str, lines: _LineMap) -> list[Problem]:
    """[br-ae] references and consistency of the Brazil–UAE facts."""
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


# [ppt-indicators] facts that are indicators for the principal purpose tests (br-uy 29(9), br-ae 29(4)):
# the substance of a person and a payment passed on (back to back). They inform, never decide: no rule
# reads them to conclude an outcome (logic/core/ppt_indicators.lp).


class Substance(_Model):
    """The substance of a person: its employees and premises (indicators, not a decision)."""

    employees: Annotated[int, Field(strict=True, ge=0, le=2**31 - 1)] | Unknown | None = Field(
        default=None, description="the number of its employees; default: not given")
    premises: bool | Unknown | None = Field(
        default=None, description="it has premises of its own (offices or other places where it carries on its "
        "activities); default: not given")


class PassedOn(_Model):
    """The recipient passes on a share of the item to another person (a back-to-back payment)."""

    to: Id = Field(description="the person the recipient passes the income on to")
    share: BasisPoints = Field(description="the percent of the item passed on (0-100)")
    within_days: int = Field(strict=True, ge=0, le=36600,
                             description="the number of days after receipt within which it is passed on")


def _check_ppt_indicators(sc: Scenario, source: str, lines: _LineMap) -> list[Problem]:
    """[ppt-indicators] the person an item is passed on to exists and is not the recipient."""
    problems: list[Problem] = []
    for i, item in enumerate(sc.income):
        p = item.passed_on
        if p is not None and (p.to not in sc.persons or p.to == item.recipient):
            problems.append(Problem(source, lines.line(("income", i, "passed_on", "to")), f"income[{i}].passed_on.to",
                                    "the id of a person other than the recipient", repr(p.to)))
    return problems


Person.model_rebuild()
Holding.model_rebuild()
PlaceOfBusiness.model_rebuild()


class IncomeItem(_Model):
    """One item of income: who pays whom, when, how much, and the type-specific facts."""

    id: Id
    type: IncomeType
    payer: Id
    recipient: Id
    beneficial_owner: Id | None = Field(default=None, description="default: the recipient")
    date: date
    gross: Money | None = None
    withholding: Withholding | None = Field(
        default=None, description="tax withheld at source and the domestic rate: the compliance check")
    place_of_business: Id | None = Field(
        default=None,
        description="branch_profits: the place of business that remits the profits; business_profits: the "
        "enterprise's place of business in the other State the profits may be attributable to (Art. 7)",
    )
    dividend: DividendDetails | None = None
    interest: InterestDetails | None = Field(
        default=None, description="interest, interest_on_equity (or a dividend on a debt claim): Art. 11 facts"
    )
    royalty: RoyaltyDetails | None = Field(default=None, description="royalty, technical_services: Art. 12 facts")
    entitlement: ItemEntitlementFacts | None = Field(
        default=None, description="br-uy 29(3), 29(6)(d): active business and connection facts; default: none")
    third_jurisdiction_pe: ThirdJurisdictionPE | None = Field(
        default=None, description="br-uy 29(8): attributed to a PE in a third jurisdiction; default: not")
    capital_gain: CapitalGainDetails | None = Field(default=None, description="capital_gain: Art. 13 facts")
    other_income: OtherIncomeDetails | None = Field(default=None, description="Art. 22 facts")
    immovable_property: ImmovablePropertyDetails | None = None
    business_profits: BusinessProfitsDetails | None = None
    shipping: ShippingDetails | None = None
    transfer_pricing: TransferPricingDetails | None = None
    shipping_ancillary: ShippingAncillary | None = Field(
        default=None, description="br-sg 8(3): income incidental to international traffic; default: none")
    source_law_taxes_dividends: bool | Unknown | None = Field(
        default=None,
        description="branch_profits under br-sg (Protocol 3): the law of the State where the permanent "
        "establishment is situated provides for the taxation of dividends; reported missing where needed",
    )
    from_offshore_activity: bool | Unknown | None = Field(
        default=None,
        description="br-ae 29(1): the item is income the recipient derives from the activity its UAE offshore "
        "regime covers; asked for where that regime is below the threshold")
    third_state_pe: ThirdStatePermanentEstablishment | None = Field(
        default=None, description="br-ae 29(2): attributed by the UAE to a third-jurisdiction PE; default: no")
    derived_through: Id | None = Field(
        default=None,
        description="the entity or arrangement through which the recipient derives the item (the recipient's "
        "share of its income: br-uy 1(2), Protocol 1); default: derived directly")
    effectively_taxed_in_residence: bool | Unknown | None = Field(
        default=None,
        description="business_profits: the State of residence of the enterprise effectively taxes these profits "
        "(br-uy Protocol 2); asked where that item applies")
    financial_institution_charge: bool | Unknown | None = Field(
        default=None,
        description="the item is a commission or similar charge paid for services provided by a bank or other "
        "financial institution (br-uy Protocol 3(a): then interest); default: not stated")
    independent: IndependentServicesDetails | None = None
    employment: EmploymentDetails | None = None
    director: DirectorDetails | None = None
    artiste: ArtisteDetails | None = None
    pension: PensionDetails | None = None
    government: GovernmentServiceDetails | None = None
    professor: ProfessorDetails | None = None
    student: StudentDetails | None = None
    payment_for: PaymentForDetails | None = Field(
        default=None, description="br-pl 12(3), 13(3): what a royalty or fee for services is paid for")
    shares_alienated: SharesAlienatedDetails | None = Field(
        default=None, description="br-pl 14(4): capital_gain on shares or comparable rights; default: none")
    gain_arises_in: State | Unknown | None = Field(
        default=None, description="br-pl 14(5): capital_gain: the State the gain arises in (provém); omitted: "
        "missing where Art. 14(5) needs it")
    tax: TaxConcerned | None = Field(
        default=None, description="the tax concerned (Art. 2); default: the taxes the Convention covers")
    relief: ReliefFacts | None = Field(
        default=None, description="asks for the elimination of double taxation (Art. 23), with its figures")
    mutual_agreement_case: MutualAgreementCase | None = Field(
        default=None, description="a case presented under the mutual agreement procedure (Art. 25)")
    non_discrimination: NonDiscrimination | None = Field(
        default=None, description="a treatment to compare under Art. 24")
    passed_on: PassedOn | None = Field(  # [ppt-indicators]
        default=None, description="the recipient passes on a share of the item to another person within some days "
        "(back to back): an indicator for a principal purpose test, never a decision; default: not given")


OutcomeKind = Literal[
    "exclusive",
    "capped",
    "may_tax",
    "exempt",
    "not_applicable",
    "mutual_agreement",
    "benefits_denied",
    "not_encoded",
    "pending",
    "undetermined",
]
Status = Literal["decided", "depends", "missing", "not_encoded", "pending", "error"]
_OUTCOME_RE = re.compile(r"^(?P<kind>[a-z_ ]+?)(?:\s+(?P<rate>\d+(?:\.\d{1,2})?)%)?$")


def parse_outcome(text: str) -> tuple[str, int | None]:
    """``"capped 10%"`` → ``("capped", 1000)``; ``"may tax"`` → ``("may_tax", None)``."""
    m = _OUTCOME_RE.match(text.strip())
    kind = m.group("kind").replace(" ", "_") if m else ""
    if not m or kind not in get_args(OutcomeKind):
        raise ValueError(
            f"an outcome such as 'capped 10%', 'may tax', 'exempt' or 'exclusive', found {text!r}"
        )
    rate = m.group("rate")
    if (kind == "capped") != (rate is not None):
        raise ValueError(f"a rate exactly when the outcome is 'capped', found {text!r}")
    return kind, (int(Decimal(rate) * 100) if rate is not None else None)


def _check_outcome(text: str) -> str:
    parse_outcome(text)
    return text


OutcomeText = Annotated[str, AfterValidator(_check_outcome)]


class ExpectedWithholding(_Model):
    """The expected withholding finding of an item (amounts compared exactly, when given)."""

    finding: Literal["compliant", "over_withheld", "under_withheld", "within_cap", "no_treaty_cap",
                     "not_checked", "undetermined"]
    due: Decimal | None = Field(default=None, description="the tax due at source")
    difference: Decimal | None = Field(default=None, description="the refundable excess or the shortfall")
    reason: str | None = None


class ExpectedItem(_Model):
    """What the scenario's author expects for one income item."""

    status: Status = "decided"
    outcome: dict[State, OutcomeText] = Field(description="State -> 'capped 10%' | 'may tax' | 'exempt' | ...")
    provisions: list[str] = Field(description="every provision the outcome rests on, e.g. 'br-pt 10(2)(a)'")
    missing: list[str] = Field(default_factory=list, description="missing facts, e.g. 'holding(a, b)'")
    findings: list[str] | None = Field(
        default=None,
        description="when given, every other finding exactly, e.g. 'note: profits_may_be_adjusted (br-pt 9)'",
    )
    max_source_tax: Decimal | None = Field(default=None, description="the cap times the gross amount")
    withholding: ExpectedWithholding | None = None
    alternatives: list[str] | None = Field(
        default=None,
        description="when given, every conclusion that holds for some values of the unknown facts only, exactly, "
        "e.g. 'br: capped 10% if holding(a, b).until is 2026-03-14 or later (br-sg 10(2)(a))'")


class Scenario(_Model):
    """A described situation: the root of a scenario file."""

    name: str
    description: str | None = None
    treaty: Literal["br-pt", "br-sg", "br-ae", "br-uy", "br-pl"]
    evaluation_date: date
    persons: dict[Id, Person]
    holdings: list[Holding] = Field(default_factory=list)
    places_of_business: dict[Id, PlaceOfBusiness] = Field(default_factory=dict)
    presence: list[Presence] = Field(default_factory=list)
    arrangements: dict[Id, Arrangement] = Field(
        default_factory=dict, description="arrangements or transactions, for principal purpose tests")
    holdings_continue: bool = Field(
        default=False,
        description="the holdings continue unchanged after the evaluation date (days after it count for the "
        "twelve-month periods of br-uy 29(2)(e), 29(4)); default: false (those days are unknown)")
    income: list[IncomeItem] = Field(default_factory=list)
    termination_notice: TerminationNotice | None = Field(
        default=None, description="a notice of termination of the Convention (br-pt Art. 29); default: none")
    expect: dict[Id, ExpectedItem] | None = None
    _open_facts: tuple[openfacts.OpenFact, ...] = PrivateAttr(default=())
    _plain_data: Any = PrivateAttr(default=None)

    @property
    def open_facts(self) -> tuple[openfacts.OpenFact, ...]:
        """The facts given as alternatives (``one_of``, ``between``, ``changeable``), in document order."""
        return self._open_facts

    @property
    def unknowns(self) -> tuple[openfacts.OpenFact, ...]:
        return tuple(f for f in self._open_facts if f.kind == "unknown")

    def with_values(self, choice: Mapping[tuple[Any, ...], Any], source: str = "<scenario>",
                    keep_unknown: bool = False) -> Scenario:
        """This scenario with the open facts at the paths of ``choice`` given those values (validated;
        raises :class:`ScenarioError`). The result keeps, with ``keep_unknown``, the unknown facts not
        in ``choice``; otherwise it has no open facts."""
        plain = self._plain_data if self._plain_data is not None else self.model_dump(
            mode="json", by_alias=True, exclude_unset=True)
        data = openfacts.substitute(plain, dict(choice))
        sc = _validate(data, source, _LineMap())
        if keep_unknown:
            sc._open_facts = tuple(f for f in self._open_facts if f.kind == "unknown" and f.path not in choice)
            sc._plain_data = data
        return sc


# ----------------------------------------------------------------------------------------------------
# Loading


class _Loader(yaml.SafeLoader):
    """Safe YAML without implicit timestamps: dates stay text, so pydantic checks them (2023-02-29)."""


_Loader.yaml_implicit_resolvers = {
    key: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


class _LineMap:
    """Line numbers of the YAML nodes, by path (``("income", 0, "payer")``), from PyYAML's composer."""

    def __init__(self) -> None:
        self.lines: dict[tuple[Any, ...], int] = {}
        self.duplicates: list[tuple[tuple[Any, ...], int, str]] = []

    def walk(self, node: yaml.Node, path: tuple[Any, ...]) -> None:
        self.lines[path] = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            seen: set[str] = set()
            for key, value in node.value:
                k = key.value
                if k in seen:
                    self.duplicates.append((path, key.start_mark.line + 1, str(k)))
                seen.add(k)
                self.lines[(*path, k)] = key.start_mark.line + 1
                self.walk(value, (*path, k))
        elif isinstance(node, yaml.SequenceNode):
            for i, value in enumerate(node.value):
                self.walk(value, (*path, i))

    def line(self, path: tuple[Any, ...]) -> int | None:
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get(())


def _field(path: tuple[Any, ...]) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(document)"


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


_EXPECTED_BY_TYPE = {
    "missing": "this required field",
    "extra_forbidden": "no such field (check the spelling; see `treaty schema`)",
    "date_from_datetime_parsing": "a real date YYYY-MM-DD",
    "date_parsing": "a real date YYYY-MM-DD",
    "date_type": "a real date YYYY-MM-DD",
    "literal_error": "",
}


def _clean_loc(loc: tuple[Any, ...]) -> tuple[Any, ...]:
    # pydantic adds the union branch ("list[...]", "literal[...]") and "[key]" markers to loc: drop them
    out: list[Any] = []
    for part in loc:
        if isinstance(part, str) and ("[" in part or part in ("function-before", "function-after")):
            continue
        out.append("from" if part == "from_" else part)
    return tuple(out)


def _problems_from_validation(err: ValidationError, source: str, lines: _LineMap, data: Any) -> list[Problem]:
    problems: dict[tuple[Any, ...], Problem] = {}
    for e in err.errors(include_url=False):
        loc = _clean_loc(tuple(e["loc"]))
        if loc in problems:  # union branches report the same field several times: keep the first
            continue
        expected = _EXPECTED_BY_TYPE.get(e["type"]) or e["msg"]
        if e["type"] in ("greater_than_equal", "less_than_equal"):
            bound = e["ctx"].get("ge", e["ctx"].get("le"))
            expected = f"a number {'at least' if e['type'] == 'greater_than_equal' else 'at most'} {bound}"
        if e["type"] == "literal_error":
            expected = "one of " + e["ctx"]["expected"].replace("'", "")
        if expected.startswith("Value error, "):
            expected = expected[len("Value error, ") :]
        expected = re.sub(r", found .*$", "", expected)
        found = "nothing" if e["type"] == "missing" else _describe(e.get("input"))
        problems[loc] = Problem(source, lines.line(loc), _field(loc), expected, found)
    return list(problems.values())


def _suggest(value: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(value, choices, n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else f"known: {', '.join(sorted(choices)[:8]) or 'none'}"


def _check_references(sc: Scenario, source: str, lines: _LineMap) -> list[Problem]:
    """Every reference resolves; ids unique; holdings consistent; no cyclic ownership."""
    problems: list[Problem] = []
    persons = list(sc.persons)
    places = list(sc.places_of_business)

    def ref(path: tuple[Any, ...], value: str | None, choices: list[str], what: str) -> None:
        if value is not None and value not in choices:
            problems.append(
                Problem(source, lines.line(path), _field(path), f"the id of {what}", repr(value),
                        _suggest(value, choices))
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
        if h.capital is None and h.votes is None and h.value is None:
            problems.append(Problem(source, lines.line(("holdings", i)), f"holdings[{i}]",
                                    "at least one of capital, votes, value", "none of them"))
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
                                        _field(("arrangements", aid, "items", k)),
                                        "an item in at most one arrangement",
                                        f"{iid!r}, already in arrangement {seen_in[iid]!r}"))
            seen_in.setdefault(iid, aid)
    # cyclic ownership
    edges: dict[str, set[str]] = {}
    for h in sc.holdings:
        edges.setdefault(h.holder, set()).add(h.company)
    cycle = _find_cycle(edges)
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
                item.dividend.connected_place_of_business, places, "a place of business")
            if item.type != "dividend":
                problems.append(Problem(source, lines.line(("income", i, "dividend")), f"income[{i}].dividend",
                                        "dividend details only on an item of type dividend", item.type))
        blocks = (("interest", ("dividend", "interest", "interest_on_equity")),
                  ("royalty", ("royalty", "technical_services")),
                  ("capital_gain", ("capital_gain",)), ("other_income", ("other_income",)))
        for block, types in blocks:
            details = getattr(item, block)
            if details is None:
                continue
            if item.type not in types:
                problems.append(Problem(source, lines.line(("income", i, block)), f"income[{i}].{block}",
                                        f"{block} details only on an item of type {' or '.join(types)}", item.type))
            for name in type(details).model_fields:
                if name.endswith("place_of_business"):
                    ref(("income", i, block, name), getattr(details, name), places, "a place of business")
        if item.shipping is not None and item.shipping.management_on_board and item.shipping.mode != "ship":
            problems.append(Problem(source, lines.line(("income", i, "shipping")), f"income[{i}].shipping",
                                    "management on board only for a ship (Art. 8(2))", item.shipping.mode))
        if item.shipping is not None and item.shipping.port_of_registry is not None \
                and not item.shipping.management_on_board:
            problems.append(Problem(source, lines.line(("income", i, "shipping")), f"income[{i}].shipping",
                                    "port_of_registry only with management_on_board: true", "management ashore"))
        if item.type == "branch_profits" and item.place_of_business is None:
            problems.append(Problem(source, lines.line(("income", i)), f"income[{i}].place_of_business",
                                    "the remitting place of business (required for branch_profits)",
                                    "nothing"))
    if sc.expect is not None:
        for key in sc.expect:
            ref(("expect", key), key, list(seen), "an income item")
    for key, person in sc.persons.items():
        if person.kind == "government" and person.government_of is None:
            problems.append(Problem(source, lines.line(("persons", key)), f"persons.{key}.government_of",
                                    "the State of a government (required for kind government)", "nothing"))
    problems += _check_arts_5_to_9(sc, source, lines)
    problems += _check_arts_14_to_21(sc, source, lines)
    problems += _check_general(sc, source, lines)
    problems += _check_withholding(sc, source, lines)
    problems += _check_br_sg(sc, source, lines)
    problems += _check_br_pl(sc, source, lines)
    problems += _check_br_uy(sc, source, lines)
    problems += _check_br_ae(sc, source, lines)
    problems += _check_ppt_indicators(sc, source, lines)
    return problems


def _check_withholding(sc: Scenario, source: str, lines: _LineMap) -> list[Problem]:
    """A withholding block needs the gross amount, one form of the tax withheld at most, in the gross's
    currency, and a State (given, or the payer's only State of liability to tax)."""
    problems: list[Problem] = []
    for n, item in enumerate(sc.income):
        w = item.withholding
        if w is None:
            continue
        path: tuple[Any, ...] = ("income", n, "withholding")
        if item.gross is None:
            problems.append(Problem(source, lines.line(path), _field(path),
                                    "the item's gross amount (income[].gross) to check withholding against",
                                    "no gross"))
        if w.withheld is not None and w.withheld_rate is not None:
            problems.append(Problem(source, lines.line((*path, "withheld_rate")), _field((*path, "withheld_rate")),
                                    "either withheld or withheld_rate", "both"))
        if w.withheld is not None and item.gross is not None and w.withheld.currency != item.gross.currency:
            problems.append(Problem(source, lines.line((*path, "withheld", "currency")),
                                    _field((*path, "withheld", "currency")),
                                    f"the currency of gross ({item.gross.currency})", w.withheld.currency))
        if withholding_state(sc, item) is None:
            problems.append(Problem(source, lines.line(path), _field((*path, "state")),
                                    "the State that withheld (the payer is not liable to tax in exactly "
                                    "one Contracting State, so it cannot be inferred)", "nothing"))
    return problems


def withholding_state(sc: Scenario, item: IncomeItem) -> str | None:
    """The State that withheld on ``item``: as given, or the payer's only State of liability to tax."""
    if item.withholding is None:
        return None
    if item.withholding.state is not None:
        return item.withholding.state
    payer = sc.persons.get(item.payer)
    liable = payer.liable_to_tax if payer is not None else None
    if not isinstance(liable, dict) or len(liable) != 1:
        return None
    state, criteria = next(iter(liable.items()))
    return None if criteria == "unknown" else state


def _find_cycle(edges: Mapping[str, set[str]]) -> list[str]:
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


def load_dict(data: Any, source: str = "<scenario>", lines: _LineMap | None = None) -> Scenario:
    """Validate a scenario given as a dict (e.g. parsed YAML/JSON). Raises :class:`ScenarioError`."""
    lines = lines or _LineMap()
    if not isinstance(data, dict):
        raise ScenarioError([Problem(source, 1, "(document)", "a mapping with name, treaty, persons, ...",
                                     _describe(data))])
    data, open_facts, problems = openfacts.extract(data, source, lines.line)
    if problems:
        raise ScenarioError(problems)
    sc = _validate(data, source, lines)
    sc._plain_data = data
    if not open_facts:
        return sc
    for f in open_facts:  # every alternative must make a valid scenario on its own
        for value in f.values[1:]:
            try:
                _validate(openfacts.substitute(data, {f.path: value}), source, lines)
            except ScenarioError as err:
                problems += [dataclasses.replace(p, found=f"{p.found} (with {f.name} = {openfacts.show_value(value)})")
                             for p in err.problems]
    if problems:
        raise ScenarioError(problems)
    sc._open_facts = open_facts
    sc._plain_data = data
    return sc


def _validate(data: Any, source: str, lines: _LineMap) -> Scenario:
    try:
        sc = Scenario.model_validate(data)
    except ValidationError as err:
        raise ScenarioError(_problems_from_validation(err, source, lines, data)) from None
    problems = _check_references(sc, source, lines)
    if problems:
        raise ScenarioError(problems)
    return sc


def load_text(text: str, source: str = "<scenario>") -> Scenario:
    """Parse and validate scenario YAML text."""
    data, lines = _parse_yaml(text, source)
    return load_dict(data, source, lines)


def _parse_yaml(text: str, source: str) -> tuple[Any, _LineMap]:
    lines = _LineMap()
    try:
        node = yaml.compose(text, Loader=_Loader)
        data = yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(err, "problem", None) or str(err)
        raise ScenarioError([Problem(source, line, "(syntax)", "well-formed YAML", str(problem))]) from None
    if node is not None:
        lines.walk(node, ())
    if lines.duplicates:
        raise ScenarioError([
            Problem(source, line, _field((*path, key)), "each key once", f"{key!r} repeated")
            for path, line, key in lines.duplicates
        ])
    return data, lines


def load_context(path: str | Path) -> tuple[Scenario, str | None]:
    """Load a batch's group context: a scenario file without income items, whose ``treaty`` (and
    ``name``) may be left out when each ledger row names its treaty. Returns the context (with a
    placeholder treaty if none was given) and the treaty it names, if any."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError):
        raise ScenarioError([Problem(str(path), None, "(file)", "an existing context file", "no such file")]) from None
    data, lines = _parse_yaml(text, str(path))
    if not isinstance(data, dict):
        return load_dict(data, str(path), lines), None
    if data.get("income"):
        raise ScenarioError([Problem(str(path), lines.line(("income",)), "income",
                                     "a context without income items (the ledger's rows are the items)",
                                     f"{len(data['income'])} item(s)")])
    treaty = data.get("treaty")
    data = {"name": "batch context", **data, "treaty": treaty if treaty is not None else "br-pt"}
    context = load_dict(data, str(path), lines)
    if context.open_facts:
        f = context.open_facts[0]
        raise ScenarioError([Problem(str(path), f.line, openfacts._field(f.path), "a plain value in a batch context",
                                     "alternatives (one_of / between / changeable)",
                                     "check a scenario with alternatives with `treaty check`")])
    return context, treaty if isinstance(treaty, str) else None


def validate_item(data: dict[str, Any], source: str) -> tuple[IncomeItem | None, list[Problem]]:
    """One income item given as a dict (e.g. a ledger row), validated alone: the item, or its problems."""
    try:
        return IncomeItem.model_validate(data), []
    except ValidationError as err:
        return None, _problems_from_validation(err, source, _LineMap(), data)


def check_consistency(sc: Scenario, source: str) -> list[Problem]:
    """The loader's checks beyond the models (references, consistency) for a scenario built in memory."""
    return _check_references(sc, source, _LineMap())


def load_file(path: str | Path) -> Scenario:
    """Load and validate a scenario file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError([Problem(str(path), None, "(file)", "an existing scenario file", "no such file")]) from None
    except UnicodeDecodeError:
        raise ScenarioError([Problem(str(path), None, "(file)", "UTF-8 text", "undecodable bytes")]) from None
    return load_text(text, str(path))


def json_schema() -> dict[str, Any]:
    """JSON Schema of the scenario format (for editors)."""
    schema = Scenario.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "treaty-logic scenario"
    return schema
