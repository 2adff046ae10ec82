"""Income items of businesses: income from immovable property, business profits, the operation of
ships and aircraft in international traffic (and what is ancillary to it), and conditions between
associated enterprises."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pyhelpers.scenario.common import Flag, Model, State, Unknown

PropertyKind = Literal[
    "immovable",  # immovable property under the law of the State where it is situated
    "agricultural_forestry_accessories",  # accessories, livestock and equipment of agriculture and forestry
    "landed_property_rights",  # rights to which the provisions of private law on landed property apply
    "usufruct",  # usufruct of immovable property
    "natural_resources_rights",  # rights to payments for working mineral deposits, sources, natural resources
    "ship_or_aircraft",  # never immovable property
    "movable_or_services",  # movable property or services connected with immovable property
]


class ImmovablePropertyDetails(Model):
    """Income from immovable property (type `immovable_property`)."""

    situated_in: State | Unknown | None = Field(default=None)
    property: PropertyKind | Unknown | None = Field(default=None)
    assimilated_by_situs_law: Flag | Unknown | None = Field(default=None)
    held_by_enterprise: Flag | Unknown | None = Field(default=None)


class BusinessProfitsDetails(Model):
    """Profits of an enterprise (type `business_profits`). The enterprise is the recipient; the
    item's `place_of_business` is its place of business in the other State the profits may be attributable to
    (omitted: none; if the enterprise has places of business there, the item must name one)."""

    attributable_to_place: Flag | Unknown | None = Field(default=None)
    purchase_of_goods_only: Flag = Field(default=False)


class ShippingDetails(Model):
    """Profits from operating ships or aircraft in international traffic."""

    mode: Literal["ship", "aircraft"]
    solely_within: State | None = Field(
        default=None, description="the State if the ship or aircraft is operated solely between places in it"
    )
    management_on_board: Flag = Field(
        default=False, description="the effective management is aboard the ship; default: false, shown as an "
        "assumption where it can change the outcome (--strict asks for it)")
    port_of_registry: State | Literal["none"] | None = Field(
        default=None, description="management on board: the State of the port of registry, or none"
    )
    pool: Flag = Field(default=False, description="profits from participating in a pool or joint business")
    air_consortium_share: Flag = Field(
        default=False, description="the item is a company's share of an air transport consortium's profits"
    )


ShippingAncillaryKind = Literal["bareboat_rental", "containers", "interest_on_funds"]


class ShippingAncillary(Model):
    """Income of an operator of ships or aircraft in international traffic other than from the transport
    itself, on an item of type shipping_air_transport."""

    kind: ShippingAncillaryKind
    incidental: Flag | Unknown | None = Field(default=None)


class TransferPricingDetails(Model):
    """Conditions between associated enterprises."""

    conditions_differ_from_arm_length: Flag | Unknown = Field(
        description="the enterprises' commercial or financial relations follow conditions that differ from "
        "those between independent enterprises"
    )
    management_or_control_link: Flag = Field(
        default=False,
        description="participation in management or control (participation in capital comes from holdings)",
    )
