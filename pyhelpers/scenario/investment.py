"""Income items from investments and rights: dividends, interest, royalties and fees for services (what
they are paid for), capital gains (and shares deriving their value from immovable property), and
other income."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from pyhelpers.scenario.common import BasisPoints, Day, Flag, Id, Model, Money, OwnersPlaceRef, State, Unknown

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


class DividendDetails(Model):
    instrument: DividendInstrument = Field(default="shares", description="the right the income comes from")
    same_tax_treatment_as_shares: Flag | Unknown | None = Field(
        default=None,
        description="other_corporate_rights only: taxed like income from shares by the payer's State",
    )
    payer_has_profits_from_other_state: Flag | Unknown | None = Field(
        default=None,
        description="whether the paying company derives profits or income from the other Contracting State",
    )
    connected_place_of_business: OwnersPlaceRef | None = Field(
        default=None,
        description="the place of business with which the holding is effectively connected, or none (stated); "
        "default: none, shown as an assumption where it can change the outcome",
    )


class InterestDetails(Model):
    """Facts of an item of interest (or interest on net equity, or a
    "dividend" paid on a debt claim). Every field has a documented default."""

    borne_by_place_of_business: Id | None = Field(default=None)
    connected_place_of_business: OwnersPlaceRef | None = Field(
        default=None,
        description="the place of business with which the debt-claim is effectively connected, or none (stated); "
        "default: none, shown as an assumption where it can change the outcome",
    )
    paid_to_place_of_business: Id | None = Field(default=None)
    government_institution_of: State | Unknown | None = Field(default=None)
    excess_over_arm_length: Flag | Unknown = Field(default=False)
    arm_length_amount: Money | Unknown | None = Field(
        default=None,
        description="the amount the payer and the beneficial owner would have agreed without their special "
        "relationship, in the currency of gross: below gross, the excess over it is taxed under each State's law "
        "(it says whether there is an excess); unknown: the figures depend on it")
    public_functions: Flag | Unknown | None = Field(default=None)


class RoyaltyDetails(Model):
    """Facts of an item of royalties (or fees for technical services)."""

    borne_by_place_of_business: Id | None = Field(default=None)
    connected_place_of_business: OwnersPlaceRef | None = Field(
        default=None,
        description="the place of business with which the right, property or services are effectively connected, or "
        "none (stated); default: none, shown as an assumption where it can change the outcome",
    )
    excess_over_arm_length: Flag | Unknown = Field(default=False)
    arm_length_amount: Money | Unknown | None = Field(
        default=None,
        description="the amount the payer and the beneficial owner would have agreed without their special "
        "relationship, in the currency of gross: below gross, the excess over it is taxed under each State's law "
        "(it says whether there is an excess); unknown: the figures depend on it")
    arises_in: State | Unknown | None = Field(default=None)


RoyaltyRight = Literal[
    "copyright",  # direito de autor, obra literária, artística ou científica
    "films_recordings",  # filmes cinematográficos e gravações para transmissão por televisão ou rádio
    "patent",
    "trademark",  # marca de indústria ou comércio
    "design_or_model",
    "plan",
    "secret_formula_or_process",
    "equipment",  # uso de equipamento industrial, comercial ou científico
    "know_how",  # informações relativas à experiência adquirida (industrial, comercial ou científica)
]


ServiceNature = Literal["managerial", "technical", "consultancy", "other"]


RightsOrServices = Literal["royalty", "technical_services"]


class PaymentForDetails(Model):
    """What a royalty or a fee for services is paid for. A payment for a
    trademark together with other rights is split by amount: give two items (one trademark, one for the
    rest)."""

    rights: list[RoyaltyRight] | Unknown | None = Field(default=None)
    services: list[ServiceNature] | Unknown | None = Field(default=None)
    characterisation: RightsOrServices | Unknown | None = Field(
        default=None,
        description="a payment that may be a royalty or a fee for technical services (e.g. know-how supplied "
        "with assistance): the scenario's characterisation; unknown: both outcomes are shown and the item "
        "depends on it; default: the item's type",
    )
    paid_to_employee_of_payer: Flag | Unknown = Field(default=False)
    teaching: Flag | Unknown = Field(default=False)
    personal_use: Flag | Unknown = Field(default=False)
    also_under: Literal["shipping_air_transport", "director_fees", "artiste_sportsperson"] | None = Field(default=None)


AlienatedProperty = Literal["immovable", "pe_business_property", "ships_aircraft", "other"]


class CapitalGainDetails(Model):
    """Facts of a capital gain: what was alienated. The alienator is the item's beneficial owner."""

    property: AlienatedProperty | Unknown
    situated_in: State | Unknown | None = Field(
        default=None, description="immovable: the State where the property is situated (reported missing if not given)"
    )
    place_of_business: Id | None = Field(
        default=None,
        description="pe_business_property: the alienator's place of business whose property it is "
        "(reported missing if not given)",
    )


SharesKind = Literal["shares", "partnership_interest", "trust_interest", "investment_fund_units", "other_comparable"]


class ValueShare(Model):
    """The share of the value of the alienated shares or rights derived, directly or indirectly, from
    immovable property situated in a State, over an interval (both ends included)."""

    from_: Day = Field(alias="from", description="first day")
    until: Day = Field(description="last day (inclusive)")
    share: BasisPoints = Field(description="percent of the value (e.g. 50.1)")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class SharesAlienatedDetails(Model):
    """Shares or comparable rights alienated by a resident of a Contracting State, which may derive their value
    from immovable property."""

    kind: SharesKind = Field(description="shares, partnership_interest, trust_interest, investment_fund_units, "
                             "other_comparable")
    immovable_in: State
    value_from_immovable: list[ValueShare] | Unknown | None = Field(default=None)


class OtherIncomeDetails(Model):
    """Facts of income that no other article deals with."""

    arises_in: State | Unknown | None = Field(
        default=None,
        description="the State where the income arises (any State); not given: the State of which the "
        "payer is a resident, or for income from immovable property the State where it is situated, shown "
        "as an assumption where it matters (--strict asks for it)",
    )
    connected_place_of_business: OwnersPlaceRef | None = Field(
        default=None,
        description="the place of business with which the right or property the income is paid for is effectively "
        "connected, or none (stated); default: none, shown as an assumption where it can change the outcome",
    )
    from_immovable_property: Flag = Field(default=False)
