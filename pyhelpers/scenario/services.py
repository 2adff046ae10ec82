"""Income items from personal services and pensions: independent services, employment (with its fiscal
year, aboard ships or aircraft), directors' fees, entertainers and sportspersons, pensions, government
service, visiting professors and students. Which item types may carry each details block."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, WithJsonSchema, field_validator

from pyhelpers.scenario.common import (
    BasisPoints,
    Day,
    Flag,
    Id,
    Model,
    Money,
    PlaceRef,
    Rate,
    State,
    StateMap,
    Unknown,
    schema_type,
)


class FiscalYear(Model):
    """A fiscal year, both ends included ('o ano fiscal em causa')."""

    from_: Day = Field(alias="from", description="first day of the fiscal year")
    until: Day = Field(description="last day of the fiscal year")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


Profession = Literal[
    "scientific", "literary", "artistic", "educational", "pedagogical",
    "physician", "lawyer", "engineer", "architect", "dentist", "accountant", "other",
]


class IndependentServicesDetails(Model):
    """Income from a liberal profession or another independent activity."""

    profession: Profession | None = Field(default=None)
    borne_by: PlaceRef | Unknown | None = Field(
        default=None,
        description="the place of business to which the remuneration is charged (that bears it), or none; not "
        "given: none is assumed where it matters (shown as an assumption; --strict asks for it)",
    )


class EmploymentDetails(Model):
    """Salaries, wages and similar remuneration from an employment."""

    exercised_in: State | Unknown | None = Field(
        default=None,
        description="the State where the employment is exercised (the employee is physically present); "
        "professors, students and artistes take it from their own details",
    )
    employer: Id | None = Field(default=None, description="the employer; default: the payer")
    borne_by: PlaceRef | Unknown | None = Field(
        default=None,
        description="the employer's place of business that bears the remuneration, or none; default: none",
    )
    fiscal_year: FiscalYear | None = Field(default=None)
    aboard: Literal["ship", "aircraft", "none"] | None = Field(default=None)
    operator: Id | None = Field(
        default=None, description="aboard only: the enterprise operating the ship or aircraft; default: the employer"
    )
    operated_solely_within: State | None = Field(
        default=None,
        description="aboard only: the State if the ship or aircraft is operated solely between places in it",
    )


class DirectorDetails(Model):
    """Directors' fees."""

    company: Id | None = Field(
        default=None, description="the company of whose board (or similar organ) the recipient is a member; "
        "default: the payer"
    )


class ArtisteDetails(Model):
    """Income of entertainers and sportspersons."""

    performer: Id | None = Field(default=None)
    exercised_in: State | Unknown | None = Field(default=None, description="the State where the activity is exercised")
    public_funding: StateMap[BasisPoints] | Unknown = Field(default_factory=dict)
    employed: Flag = Field(default=False)


class PensionDetails(Model):
    """Pensions."""

    social_security: State | Unknown | None = Field(default=None)
    past_employment: Flag | Unknown = Field(default=True)
    annuity: Flag | Unknown = Field(default=False)


class GovernmentServiceDetails(Model):
    """Remuneration and pensions paid by a State for services rendered to it."""

    paying_state: State | None = Field(
        default=None,
        description="the Contracting State that pays, itself, through a subdivision or local authority or "
        "through a fund they constituted; default: the State of the payer, when the payer is a government",
    )
    capacity: Literal["public_functions", "commercial_or_industrial"] | Unknown | None = Field(default=None)
    kind: Literal["remuneration", "pension"] = Field(default="remuneration", description="default: remuneration")


ProfessorInviter = Literal[
    "government", "non_profit_entity", "state_institution", "non_profit_institution", "other"
]


class ProfessorDetails(Model):
    """Visiting professors and researchers."""

    host_state: State = Field(description="the State visited, where the person teaches or does research")
    resident_before: State | Unknown | None = Field(
        default=None,
        description="the State other than the host State if the person was a resident of it at any time before "
        "the visit ('é, ou foi antes, residente': not only immediately before), else a State of which "
        "the person was a resident before it; needed only when the person is not now a resident of the State "
        "other than the host State",
    )
    invited_by: ProfessorInviter | Unknown | None = Field(
        default=None,
        description="government: the Government of the host State; non_profit_entity: an entity without "
        "profit aims; state_institution / non_profit_institution: a university or other teaching or "
        "scientific research institution belonging to the host State / to such an entity; other",
    )
    sole_purpose: Flag | Unknown | None = Field(
        default=None, description="the visit is solely to teach or do scientific research at those institutions"
    )
    from_: Day = Field(alias="from", description="first day of the visit")
    until: Day | Unknown | None = Field(default=None, description="last day of the visit (actual or planned)")
    planned_until: Day | None = Field(
        default=None, description="the last day the visit was planned to have when the person moved")
    for_teaching_until: Day | Unknown | None = Field(
        default=None, description="the last day of the teaching or research this payment rewards")
    employed: Flag = Field(default=True)

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class StudentDetails(Model):
    """Students and trainees."""

    host_state: State = Field(description="the State where the person studies, trains or works")
    payment: Literal["maintenance", "employment"]
    resident_before: State | Unknown | None = Field(
        default=None,
        description="maintenance: the State other than the host State if the person was a resident of it at any "
        "time before the stay ('é, ou foi antes, residente': not only immediately before), else a State "
        "of which the person was a resident before it; needed only when the person is not now a resident of "
        "the State other than the host State",
    )
    capacity: Literal["student", "trainee", "grant_holder", "other"] | Unknown | None = Field(default=None)
    sole_purpose: Flag | Unknown | None = Field(
        default=None, description="maintenance: stays temporarily in the host State solely to study or train"
    )
    from_sources_outside_host: Flag | Unknown | None = Field(
        default=None, description="maintenance: the sums arise from sources outside the host State"
    )
    institution_state: State | Unknown | None = Field(
        default=None,
        description="employment: the State of the university or other higher or technical education "
        "establishment of which the person is a student",
    )
    practical_training: Flag | Unknown | None = Field(
        default=None, description="employment: for practical training related to the studies"
    )
    employment_from: Day | None = Field(default=None, description="employment: its first day (required)")
    employment_until: Day | Unknown | None = Field(default=None, description="employment: its last day")
    annual_remuneration: Money | None = Field(
        default=None, description="employment: the remuneration for the year (asked when not given)"
    )
    usd_exchange_rate: Annotated[Rate, WithJsonSchema(schema_type("PositiveRate"))] | Unknown | None = Field(
        default=None,
        description="employment: units of the remuneration's currency per US dollar, the rate the scenario "
        "applies (not needed for USD); the checker never looks a rate up",
    )

    @field_validator("usd_exchange_rate")
    @classmethod
    def _positive_rate(cls, v: Any) -> Any:
        if isinstance(v, Decimal) and (not v.is_finite() or v <= 0):
            raise ValueError(f"a positive exchange rate, found {v}")
        return v


DETAIL_BLOCKS: dict[str, tuple[str, ...]] = {
    "independent": ("independent_services", "artiste_sportsperson", "professor"),
    "employment": ("employment", "government_service", "artiste_sportsperson", "professor", "student",
                   "technical_services"),
    "director": ("director_fees",),
    "artiste": ("artiste_sportsperson",),
    "pension": ("pension", "government_service"),
    "government": ("government_service",),
    "professor": ("professor",),
    "student": ("student",),
}
"""Which item types may carry each details block (a block is also read where the rules of one kind of
income send the item to those of another: an entertainer's to independent services or employment, a
government payment to employment or pensions, a professor's or student's to independent services or
employment, a fee for technical services paid to an employee of the payer to employment)."""

REQUIRED_BLOCKS = ("professor", "student")
"""The types whose items must carry their own details block (named as the type)."""
