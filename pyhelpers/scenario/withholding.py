"""Withholding: the tax withheld at source on an item and the source State's domestic rate, which the
compliance check compares with the treaty's limit."""

from __future__ import annotations

from pydantic import Field

from pyhelpers.scenario.common import BasisPoints, Model, Money, State


class Withholding(Model):
    """The tax withheld at source on an item, and the source State's domestic rate (user-supplied: the
    project ships no domestic tax law). Amounts are computed in Python with Decimal (see docs/guide/withholding.md)."""

    state: State | None = Field(
        default=None,
        description="the State that withheld; default: the payer's State, when the payer is liable to tax "
        "in one Contracting State only",
    )
    withheld: Money | None = Field(default=None, description="the tax withheld, in the currency of gross")
    withheld_rate: BasisPoints | None = Field(
        default=None, description="or the tax withheld as a % of gross (give withheld or withheld_rate)")
    domestic_rate_on_excess: BasisPoints | None = Field(
        default=None, description="where the treaty limits only part of the amount (the arm's-length amount): the "
        "source State's domestic rate on the rest (% of it); default: domestic_rate")
    domestic_rate: BasisPoints | None = Field(
        default=None, description="the source State's domestic rate on the item (% of gross); default: not given")
