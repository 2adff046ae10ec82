"""Entitlement to the benefits of a treaty: what a limitation-on-benefits article asks of a person and of
an item (qualified persons, active business, equivalent beneficiaries, connected persons, offshore
regimes, permanent establishments in third jurisdictions, what has been proven), and what a principal
purpose test weighs: arrangements with its two questions, and its indicators (substance, payments
passed on)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from pyhelpers.scenario.common import BasisPoints, Flag, Id, Model, Money, NonNegativeAmount, PositiveAmount, Unknown


class Arrangement(Model):
    """An arrangement or transaction that one or more income items result from, with the two questions of
    a principal purpose test. The checker never answers them itself: a
    question not given (or given as unknown) makes a benefit subject to the test "requires judgment"."""

    items: list[Id] = Field(min_length=1, description="the ids of the income items resulting from it")
    description: str | None = None
    principal_purpose: Flag | Unknown | None = Field(
        default=None,
        description="obtaining the treaty benefit was one of the principal purposes of the arrangement or "
        "transaction (a judgment the user makes); default: not given, which reads as unknown",
    )
    object_and_purpose: Flag | Unknown | None = Field(
        default=None,
        description="granting the benefit in these circumstances accords with the object and purpose of the "
        "relevant provisions; default: not given, which reads as unknown",
    )


EntityPurpose = Literal["nonprofit", "pension", "pension_investment", "none"]


BusinessActivity = Literal["operating", "holding_company", "group_supervision", "group_financing", "investments"]


FinancialInstitution = Literal["bank", "insurer", "securities_dealer", "none"]


class EntitlementFacts(Model):
    """What a limitation-on-benefits article asks of a person. Each fact is asked only where
    the outcome turns on it (reported missing then); ``unknown`` is allowed everywhere."""

    regularly_traded: Flag | Unknown | None = Field(default=None)
    entity_purpose: EntityPurpose | Unknown | None = Field(default=None)
    business_activity: BusinessActivity | list[BusinessActivity] | Unknown | None = Field(
        default=None, description="the business the person carries on: one activity or a list of them (a holding "
        "company that also supervises its group and runs its cash pool: [holding_company, group_supervision, "
        "group_financing])")
    financial_institution: FinancialInstitution = Field(default="none")
    equivalent_beneficiary: Flag | Unknown | None = Field(default=None)
    equivalent_beneficiary_as_company: Flag | Unknown | None = Field(default=None)


class ItemEntitlementFacts(Model):
    """What a limitation-on-benefits article asks of an item of income: the active conduct of a business and
    the connection with the payer."""

    from_business: Flag | Unknown | None = Field(default=None)
    substantial: Flag | Unknown | None = Field(default=None)
    controlled_with_payer: Flag | Unknown | None = Field(default=None)
    competent_authority_grant: Flag | None = Field(default=None)


class ThirdJurisdictionPE(Model):
    """The residence State treats the item as attributable to a permanent establishment of the enterprise in a
    third jurisdiction."""

    jurisdiction: str = Field(description="the third jurisdiction (informative)")
    profits_exempt_in_residence: Flag | Unknown | None = Field(default=None)
    third_jurisdiction_tax: NonNegativeAmount | Unknown | None = Field(default=None)
    residence_state_tax: PositiveAmount | Unknown | None = Field(default=None)
    active_business: Flag | Unknown | None = Field(default=None)


OffshoreActivity = Literal[
    "shipping",  # transporte marítimo
    "banking_financial_insurance_investment",  # banking, financial, insurance, investment and similar activities
    "headquarters_coordination",  # headquarters, coordination centre or similar entity
]


class OffshoreRegime(Model):
    """A provision of the residence State on the offshore income of a company from one of the activities its
    treaty names."""

    activity: OffshoreActivity
    offshore_rate: BasisPoints | Unknown | None = Field(
        default=None, description="% the UAE taxes that offshore income at (0: not taxed); reported missing if omitted")
    domestic_rate: BasisPoints | Unknown | None = Field(
        default=None,
        description="% the UAE applies to income from similar activities carried on in its own territory; needed "
        "unless the offshore income is not taxed")


class BenefitsProof(Model):
    """What a company has proven under a limitation-on-benefits article that puts the burden of proof on it
    ("salvo se ficar provado": what is not proven is not assumed)."""

    no_principal_purpose: Flag = Field(
        default=False,
        description="proven that neither the company, nor the conduct of its business, nor the acquisition or "
        "maintenance of the holding or property the income derives from had as a principal purpose obtaining "
        "benefits for a person not resident of the UAE; default: not proven")
    gross_income_to_non_entitled: BasisPoints | None = Field(
        default=None,
        description="the share (%) of its gross income proven to be used, directly or indirectly, to meet "
        "obligations (interest, royalties ...) to persons not entitled to the benefits; default: not proven")


class ThirdStatePermanentEstablishment(Model):
    """Income an enterprise derives from the other State that its residence State treats as attributable to a
    permanent establishment of the enterprise in a third jurisdiction."""

    attributed_by_uae: Flag | Unknown = Field(
        description="the UAE treats the income as attributable to a permanent establishment in a third jurisdiction")
    exempt_in_uae: Flag | Unknown | None = Field(
        default=None, description="the profits attributable to it are exempt from tax in the UAE")
    third_state_tax: Money | Unknown | None = Field(
        default=None, description="the tax on the item in the third jurisdiction")
    uae_tax_if_situated_there: Money | Unknown | None = Field(
        default=None,
        description="the tax the UAE would impose on the item if the permanent establishment were situated in the "
        "UAE (same currency as third_state_tax)")


class Substance(Model):
    """The substance of a person: its employees and premises (indicators, not a decision)."""

    employees: Annotated[int, Field(strict=True, ge=0, le=2**31 - 1)] | Unknown | None = Field(
        default=None, description="the number of its employees; default: not given")
    premises: Flag | Unknown | None = Field(
        default=None, description="it has premises of its own (offices or other places where it carries on its "
        "activities); default: not given")


class PassedOn(Model):
    """The recipient passes on a share of the item to another person (a back-to-back payment)."""

    to: Id = Field(description="the person the recipient passes the income on to")
    share: BasisPoints = Field(description="the percent of the item passed on (0-100)")
    within_days: int = Field(strict=True, ge=0, le=36600,
                             description="the number of days after receipt within which it is passed on")
