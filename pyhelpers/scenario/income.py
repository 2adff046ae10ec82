"""Income items: who pays whom, when and how much, of which type, with the type-specific details of
:mod:`.business`, :mod:`.investment`, :mod:`.services`, :mod:`.procedures` and :mod:`.entitlement`."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pyhelpers.scenario.business import (
    BusinessProfitsDetails,
    ImmovablePropertyDetails,
    ShippingAncillary,
    ShippingDetails,
    TransferPricingDetails,
)
from pyhelpers.scenario.common import Day, Flag, Id, Model, Money, State, Unknown
from pyhelpers.scenario.entitlement import (
    ItemEntitlementFacts,
    PassedOn,
    ThirdJurisdictionPE,
    ThirdStatePermanentEstablishment,
)
from pyhelpers.scenario.investment import (
    CapitalGainDetails,
    DividendDetails,
    InterestDetails,
    OtherIncomeDetails,
    PaymentForDetails,
    RoyaltyDetails,
    SharesAlienatedDetails,
)
from pyhelpers.scenario.procedures import (
    LaterConventionLimit,
    MutualAgreementCase,
    NonDiscrimination,
    ReliefFacts,
    TaxConcerned,
)
from pyhelpers.scenario.services import (
    ArtisteDetails,
    DirectorDetails,
    EmploymentDetails,
    GovernmentServiceDetails,
    IndependentServicesDetails,
    PensionDetails,
    ProfessorDetails,
    StudentDetails,
)
from pyhelpers.scenario.withholding import Withholding

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


class IncomeItem(Model):
    """One item of income: who pays whom, when, how much, and the type-specific facts."""

    id: Id
    type: IncomeType
    payer: Id
    recipient: Id
    beneficial_owner: Id | None = Field(default=None, description="default: the recipient")
    date: Day
    gross: Money | None = None
    withholding: Withholding | None = Field(
        default=None, description="tax withheld at source and the domestic rate: the compliance check")
    place_of_business: Id | None = Field(default=None)
    dividend: DividendDetails | None = None
    interest: InterestDetails | None = Field(default=None)
    royalty: RoyaltyDetails | None = Field(default=None)
    entitlement: ItemEntitlementFacts | None = Field(default=None)
    third_jurisdiction_pe: ThirdJurisdictionPE | None = Field(default=None)
    capital_gain: CapitalGainDetails | None = Field(default=None)
    other_income: OtherIncomeDetails | None = Field(default=None)
    immovable_property: ImmovablePropertyDetails | None = None
    business_profits: BusinessProfitsDetails | None = None
    shipping: ShippingDetails | None = None
    transfer_pricing: TransferPricingDetails | None = None
    shipping_ancillary: ShippingAncillary | None = Field(default=None)
    source_law_taxes_dividends: Flag | Unknown | None = Field(default=None)
    from_offshore_activity: Flag | Unknown | None = Field(default=None)
    third_state_pe: ThirdStatePermanentEstablishment | None = Field(default=None)
    derived_through: Id | None = Field(default=None)
    effectively_taxed_in_residence: Flag | Unknown | None = Field(default=None)
    financial_institution_charge: Flag | Unknown | None = Field(default=None)
    independent: IndependentServicesDetails | None = None
    employment: EmploymentDetails | None = None
    director: DirectorDetails | None = None
    artiste: ArtisteDetails | None = None
    pension: PensionDetails | None = None
    government: GovernmentServiceDetails | None = None
    professor: ProfessorDetails | None = None
    student: StudentDetails | None = None
    payment_for: PaymentForDetails | None = Field(default=None)
    shares_alienated: SharesAlienatedDetails | None = Field(default=None)
    gain_arises_in: State | Unknown | None = Field(default=None)
    tax: TaxConcerned | list[TaxConcerned] | None = Field(default=None)
    relief: ReliefFacts | None = Field(default=None)
    mutual_agreement_case: MutualAgreementCase | None = Field(default=None)
    most_favoured_nation: LaterConventionLimit | None = Field(
        default=None, description="whether a later convention limits the right of the State other than the "
        "beneficiary's State of residence, which a most-favoured-nation clause extends to this treaty")
    non_discrimination: NonDiscrimination | None = Field(default=None)
    passed_on: PassedOn | None = Field(  # [ppt-indicators]
        default=None, description="the recipient passes on a share of the item to another person within some days "
        "(back to back): an indicator for a principal purpose test, never a decision; default: not given")

    @property
    def taxes(self) -> tuple[TaxConcerned, ...]:
        """The taxes the item names: none, the one ``tax``, or each of its list."""
        if self.tax is None:
            return ()
        return tuple(self.tax) if isinstance(self.tax, list) else (self.tax,)

    @property
    def single_tax(self) -> TaxConcerned | None:
        """The item's tax where it names exactly one (given alone or as a list of one), else ``None``."""
        taxes = self.taxes
        return taxes[0] if len(taxes) == 1 else None
