"""Places of business: the candidate permanent establishments of an enterprise, with what they are and
what is done there, their periods, agents and the contracts they conclude, services furnished through
personnel, insurance agents, connected sites and cohesive operations."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import ConfigDict, Field

from pyhelpers.scenario.common import Day, Flag, Id, Model, State, Unknown

PlaceKind = Literal[
    "place_of_management",  # um local de direcção
    "branch",  # uma sucursal
    "office",  # um escritório
    "factory",  # uma fábrica
    "workshop",  # uma oficina
    "natural_resources",  # mine, oil or gas well, quarry, any place of extraction of natural resources
    "construction_site",  # building site or construction or assembly project: its from / until decide
    "other_fixed_place",  # any other place: `fixed` and `business_carried_on` decide
    "agent",  # a person acting for the enterprise in the State: `agent` facts decide
    "related_company",  # a company that controls or is controlled by the enterprise, nothing more
]


PlaceActivity = Literal[
    "storage",  # facilities used to store, display or deliver the enterprise's goods
    "display",
    "delivery",
    "stock_for_storage_display_delivery",  # a stock of the enterprise's goods kept for those ends
    "stock_for_processing",  # a stock of its goods kept to be processed by another enterprise
    "purchasing",  # purchasing goods for the enterprise
    "information_gathering",  # collecting information for the enterprise
    "other_preparatory_or_auxiliary",  # any other activity of a preparatory or auxiliary character
    "other_business",  # none of these: selling, manufacturing, rendering services ... (the core business)
]


class AgentFacts(Model):
    """A person acting for the enterprise (place kind `agent`): a dependent or an independent agent."""

    independent: Flag | Unknown | None = Field(default=None)
    ordinary_course_of_business: Flag | Unknown | None = Field(default=None)
    authority_to_conclude_contracts: Flag | Unknown | None = Field(default=None)
    habitually_exercises_authority: Flag | Unknown | None = Field(default=None)


class PlacePeriod(Model):
    """A stint of the place's own enterprise at the place (both ends included)."""

    from_: Day = Field(alias="from", description="first day")
    until: Day | None = Field(default=None, description="last day, actual or planned (inclusive); omit if open-ended "
                               "at the evaluation date")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class ServicePeriod(Model):
    """Days on which the enterprise's employees or other personnel furnish the services in the State (both
    ends included; a day worked by two persons counts once)."""

    person: Id | None = Field(default=None, description="who furnished them (informative; not read by the rules)")
    from_: Day = Field(alias="from", description="first day")
    until: Day = Field(description="last day (inclusive)")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class ServicesFacts(Model):
    """Services, including consultancy, that the place's owner furnishes in the place's State through its
    employees or other personnel engaged for that purpose, for the same project or connected projects
    The place of business then stands for those services: its kind is not needed."""

    periods: list[ServicePeriod] = Field(min_length=1, description="the periods of activity in the State")


class InsuranceAgentFacts(Model):
    """An insurance enterprise acting through a person in the other State (place kind agent)."""

    premiums_or_risks: Flag | Unknown | None = Field(
        default=None,
        description="through this person the enterprise collects premiums in the place's State or insures "
        "risks situated there; reported missing if not given",
    )
    reinsurance_only: Flag = Field(default=False)


AgentContractKind = Literal[
    "in_name_of_enterprise",  # contracts in the name of the enterprise
    "transfer_of_property",  # transferring the ownership of, or granting the right to use, its property
    "provision_of_services",  # for the provision of services by the enterprise
]


class AgentContracts(Model):
    """A person acting for the enterprise in a State (place kind `agent`): what it does about contracts, and
    for whom it acts. Each fact may be given as unknown; one that the rules need and the scenario omits is
    reported missing."""

    person: Id | None = Field(default=None)
    habitually_concludes: Flag | Unknown | None = Field(default=None)
    principal_role: Flag | Unknown | None = Field(default=None)
    kinds: list[AgentContractKind] | Unknown | None = Field(default=None)
    acts_exclusively_for: list[Id] | Unknown | None = Field(default=None)


class PlaceOfBusiness(Model):
    """A place through which an enterprise carries on business (a candidate permanent establishment)."""

    owner: Id
    state: State
    permanent_establishment: Flag | Unknown | None = Field(default=None)
    from_: Day | None = Field(
        default=None, alias="from", description="first day of the place (construction_site: of the works)"
    )
    until: Day | None = Field(
        default=None, description="last day, actual or planned (inclusive); omit if open-ended at the evaluation date"
    )
    periods: list[PlacePeriod] | None = Field(
        default=None, min_length=1,
        description="the place's enterprise's several stints at the place, instead of from/until",
    )
    # what the place is and what is done there (see PlaceKind, PlaceActivity, AgentFacts)
    kind: PlaceKind | Unknown | None = Field(default=None)
    fixed: Flag | Unknown | None = Field(default=None)
    business_carried_on: Flag | Unknown | None = Field(
        default=None, description="other_fixed_place: the enterprise carries on all or part of its business through it"
    )
    activities: list[PlaceActivity] | Unknown | None = Field(default=None)
    activities_preparatory_overall: Flag | Unknown | None = Field(default=None)
    agent: AgentFacts | None = Field(default=None)
    services: ServicesFacts | None = Field(default=None)
    insurance: InsuranceAgentFacts | None = Field(default=None)
    same_site_as: Id | None = Field(default=None)
    cohesive_operation_with: list[Id] = Field(default_factory=list)
    combined_activities_preparatory: Flag | Unknown | None = Field(default=None)
    contracts: AgentContracts | None = Field(default=None)
    fixed_base: Flag | Unknown = Field(default=False)

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    def stints(self) -> list[tuple[date, date | None]]:
        """The enterprise's stints at the place in date order: ``periods``, or the one ``from``/``until``
        (an open end is None); none when no first day is given."""
        if self.periods is not None:
            return sorted(((p.from_, p.until) for p in self.periods), key=lambda s: s[0])
        return [(self.from_, self.until)] if self.from_ is not None else []

    def first_day(self) -> date | None:
        """The first day of the first stint."""
        stints = self.stints()
        return stints[0][0] if stints else None

    def last_day(self) -> date | None:
        """The last day of the last stint; None while a stint is open-ended or no stint is given."""
        stints = self.stints()
        if not stints or any(u is None for _, u in stints):
            return None
        return max(u for _, u in stints if u is not None)
