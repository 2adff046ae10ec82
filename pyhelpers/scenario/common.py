"""The building blocks of the scenario format: the base model (no unknown field, frozen), State codes,
ids, percentages read as basis points, exact money, and ``unknown``."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, field_validator

from pyhelpers.scenario.catalogue import catalogue

Unknown = Literal["unknown"]


UNKNOWN: Unknown = "unknown"


NONE = "none"
"""Where a field names a person or a place, ``none`` says there is none (omitting it leaves it unstated)."""


_STATE_RE = re.compile(r"^[a-z]{2}$")


def _state(value: Any) -> Any:
    if isinstance(value, str) and re.fullmatch(r"[A-Za-z]{2}", value):
        return value.lower()
    return value


def _check_state(value: str) -> str:
    if not _STATE_RE.fullmatch(value):
        raise ValueError(f"a two-letter State code such as br or pt, found {value!r}")
    return value


State = Annotated[str, BeforeValidator(_state), AfterValidator(_check_state)]


Id = Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f\x7f]+$")]


def _check_treaty(value: str) -> str:
    known = catalogue()
    if value not in known.treaties:
        raise ValueError(f"one of {known.one_of()}, found {value!r}")
    return value


TreatyId = Annotated[str, AfterValidator(_check_treaty)]
"""A treaty the package ships: a folder of ``logic/`` (the JSON Schema lists them)."""


def _percent(value: Any) -> Any:
    """Percent 0–100 with at most two decimals → basis points (int)."""
    if isinstance(value, bool):
        raise ValueError("a percentage between 0 and 100, found a boolean")
    if isinstance(value, str) and value.strip().endswith("%"):
        value = value.strip()[:-1]
    try:
        d = Decimal(str(value))
    except InvalidOperation:
        raise ValueError(f"a percentage between 0 and 100, found {value!r}") from None
    if not d.is_finite() or d < 0 or d > 100:
        raise ValueError(f"a percentage between 0 and 100, found {value}")
    if d != d.quantize(Decimal("0.01")):
        raise ValueError(f"a percentage with at most two decimals, found {value}")
    return int(d * 100)


BasisPoints = Annotated[int, BeforeValidator(_percent)]
"""A percentage as written by the user (``24.9``), stored as basis points (``2490``)."""


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class Money(Model):
    amount: Decimal = Field(ge=0, description="exact decimal amount, e.g. '1000000.00'")
    currency: Annotated[str, Field(pattern=r"^[A-Z]{3}$")]

    @field_validator("amount", mode="before")
    @classmethod
    def _exact(cls, v: Any) -> Any:
        if isinstance(v, float):
            raise ValueError("an exact decimal written as a string, e.g. '1000.50', found a float")
        return v
