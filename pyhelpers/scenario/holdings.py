"""Holdings and ownership: a holder's total interest in a company (capital, votes, value, profits) over an
inclusive period, direct or indirect, and the earlier holding it continues through a reorganisation."""

from __future__ import annotations

from pydantic import ConfigDict, Field

from pyhelpers.scenario.common import BasisPoints, Day, HeldDirectly, Id, Model


class HoldingContinuation(Model):
    """The earlier holding that a holding continues through a corporate reorganisation."""

    holder: Id = Field(description="the holder of the earlier holding")
    company: Id = Field(description="the company of the earlier holding")


class Holding(Model):
    """The holder's *total* interest in a company over an inclusive date interval."""

    holder: Id
    company: Id
    capital: BasisPoints | None = Field(default=None, description="% of the capital (0-100)")
    votes: BasisPoints | None = Field(default=None, description="% of the voting rights (0-100)")
    value: BasisPoints | None = Field(default=None, description="% of the value of the shares (0-100)")
    profits: BasisPoints | None = Field(default=None,
                                       description="% of the participation in the company's profits (0-100)")
    direct: HeldDirectly = Field(default=True, description="held directly (default) or indirectly")
    from_: Day = Field(alias="from", description="first day held")
    until: Day | None = Field(default=None, description="last day held (inclusive); omit if still held")
    continues_by_reorganisation: HoldingContinuation | None = Field(default=None)

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
