"""Persons and their residence: who a person is (kind, government, statutory body, fiscal transparency)
and the facts of the residence articles and their tie-breakers (liability to tax by criterion,
nationality, permanent home, vital interests, habitual abode, effective management), with the
physical presence of individuals in a State."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from pyhelpers.scenario.common import Day, Flag, Id, Model, State, StateMap, Text, Unknown
from pyhelpers.scenario.entitlement import BenefitsProof, EntitlementFacts, OffshoreRegime, Substance

ResidenceCriterion = Literal[
    "domicile", "residence", "place_of_management", "incorporation", "other_similar", "source_only"
]


PersonKind = Literal["individual", "company", "other_entity", "government"]


SpecialRegime = Literal[
    "madeira_free_zone", "santa_maria_free_zone", "manaus_free_zone", "sudam", "sudene", "similar"
]


class StatutoryBody(Model):
    """A body constituted by law in a Contracting State ("órgãos estatutários")."""

    state: State = Field(description="the State under whose law the body is constituted")
    only_non_commercial_government_functions: Flag | Unknown | None = Field(default=None)


class FiscalTransparency(Model):
    """The elements of "fiscalmente transparente" under one State's tax law: the income
    (or part of it) of the entity or arrangement is not taxed at its level, but in the hands of the persons
    with an interest in it, as if they had derived it directly when it was realised, whether or not it is
    distributed to them."""

    taxed_at_entity: Flag | Unknown | None = Field(
        default=None, description="that State taxes the income at the level of the entity or arrangement")
    members_taxed_as_derived_directly: Flag | Unknown | None = Field(
        default=None,
        description="that State taxes the persons with an interest in it on the income as if derived directly "
        "by them when it was realised, whether or not distributed")


class Person(Model):
    """A person: an individual, a company, another entity or a government."""

    kind: PersonKind
    name: Text | None = None
    liable_to_tax: StateMap[list[ResidenceCriterion] | Unknown] | None = Field(
        default=None,
        description=(
            "State -> the domestic-law criteria by which the person is liable to tax there. A State "
            "not listed is one where it is not liable by any criterion; omit the whole map if unknown "
            "to the scenario (the rules then report it missing)."
        ),
    )
    treated_as_body_corporate: Flag | Unknown | None = Field(
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
    effective_management: State | Literal["undetermined"] | Unknown | None = Field(default=None)
    special_regime: list[SpecialRegime] | Unknown = Field(default_factory=list)
    partnership: Flag | Unknown | None = Field(default=None)
    statutory_body: StatutoryBody | None = Field(default=None)
    entitlement: EntitlementFacts | None = Field(default=None)
    controlled_by: list[Id] | Unknown | None = Field(default=None)
    offshore_regime: OffshoreRegime | None = Field(default=None)
    benefits_proof: BenefitsProof | None = Field(default=None)
    fiscal_transparency: StateMap[FiscalTransparency] | None = Field(default=None)
    all_places_listed: Flag = Field(
        default=False,
        description="every place of business this person has is listed in places_of_business (none listed: it has "
        "none); not stated: the rules assume so where it matters and show the assumption (--strict asks)")
    substance: Substance | None = Field(  # [ppt-indicators]
        default=None, description="its employees and premises: indicators for a principal purpose test (never a "
        "decision); default: not given")


class Presence(Model):
    """An individual's stay in a State: both the day of arrival and of departure are days of presence."""

    person: Id
    state: State
    from_: Day = Field(alias="from")
    until: Day

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
