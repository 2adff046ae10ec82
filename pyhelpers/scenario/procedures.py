"""What an item may ask beyond its taxing rights: the tax it concerns, the elimination of double
taxation with its figures, a mutual agreement case, a non-discrimination comparison, and a notice of
termination of the treaty."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pyhelpers.scenario.common import BasisPoints, Day, Flag, Id, Model, Money, State, Unknown

TaxName = Literal["irpj", "irpf", "csll", "irs", "irc", "derrama", "irae", "irpf_uy", "irnr", "iass", "ip",
                  "other"]


class TaxConcerned(Model):
    """The tax an item concerns, and what the articles on taxes covered, mutual agreement, entry into force and
    termination ask of it."""

    name: TaxName
    state: State | None = Field(default=None, description="the State that levies it: required for other, "
                                "implied by the named taxes")
    withheld_at_source: Flag | Unknown | None = Field(default=None)
    fiscal_year_start: Day | None = Field(default=None)
    in_force_from: Day | None = Field(default=None)
    identical_or_similar: Flag | Unknown | None = Field(default=None)
    federal: Flag | Unknown | None = Field(default=None)


class ReliefFacts(Model):
    """Facts and figures for the elimination of double taxation of the item.

    Present (even empty, ``relief: {}``) to ask for it. All amounts are in one currency; when it is not
    the currency of the gross amount, ``income_included`` is required.
    """

    source_tax_paid: Money | None = Field(default=None, description="the tax paid in the other (source) State")
    residence_tax_on_income: Money | None = Field(default=None)
    residence_tax_before_credit: Money | None = Field(
        default=None, description="the residence State's tax on the taxpayer's income, before the deduction")
    residence_taxable_income: Money | None = Field(default=None)
    income_included: Money | None = Field(default=None)
    underlying_tax: Money | None = Field(default=None)
    payer_taxed_without_exemption: Flag | Unknown | None = Field(default=None)
    payer_constituted: Day | None = Field(default=None)
    domestic_indirect_credit: Flag | Unknown | None = Field(
        default=None, description="dividends: the residence State's law grants the credit for the tax the "
        "paying company bore on the profits (the underlying tax); asked where the treaty leaves it to domestic law")
    portugal_indirect_credit_method: Flag | Unknown = Field(default=False)


class MutualAgreementCase(Model):
    """A case presented under the mutual agreement procedure about the item."""

    claimant: Id | None = Field(default=None, description="the resident who presents it; default: the beneficial owner")
    taxed_in_both_states: Flag | Unknown | None = Field(
        default=None, description="the case is one of taxation in both States (asked unless the tax is withheld at "
        "source)",
    )
    notified: Day | None = Field(
        default=None, description="the date of notification of the tax that gives rise to the claim")
    second_taxation_notified: Day | None = Field(
        default=None, description="taxation in both States: the date of notification of the second taxation")
    request_filed: Day | None = Field(default=None, description="the date the request was presented, if it was")


NdGround = Literal["nationality", "permanent_establishment", "deduction", "foreign_ownership"]


NdReason = Literal[
    "personal_allowances", "branch_profits_tax", "royalties_paid_by_permanent_establishment",
    "ancillary_obligation", "thin_capitalisation", "other",
]


class NonDiscrimination(Model):
    """A treatment the scenario compares under a non-discrimination article."""

    ground: NdGround
    taxing_state: State = Field(description="the State whose treatment is compared")
    person: Id | None = Field(default=None)
    place_of_business: Id | None = Field(default=None, description="permanent_establishment: the place compared")
    treatment: Literal["more_burdensome", "different", "same"] | Unknown = Field(
        description="the treatment compared with the taxing State's own nationals, enterprises or residents",
    )
    same_circumstances: Flag | Unknown | None = Field(default=None)
    reason: NdReason | None = Field(
        default=None, description="the ground the taxing State invokes (an exception may cover it); default: none",
    )


class LaterConventionLimit(Model):
    """Whether a convention one State concluded after the treaty's signature with a third State limits the
    taxing right of the State other than the beneficiary's State of residence on the item (a most-favoured-
    nation clause applies an identical limitation)."""

    limited: Flag | Unknown = Field(description="such a convention limits that right (true), does not (false)")
    cap: BasisPoints | None = Field(
        default=None, description="limited: the rate (%) it caps that State's tax at; omitted: that State may not "
        "tax at all (the State of residence only)")


class TerminationNotice(Model):
    """A notice of termination of the Convention."""

    cessation_year: int = Field(ge=1900, le=9998, description="the year of cessation the notice specifies")
    given: Day = Field(description="the date the notice was given through diplomatic channels")
    by: State | None = Field(default=None, description="the State giving notice (either may)")
