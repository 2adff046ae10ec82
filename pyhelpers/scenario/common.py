"""The building blocks of the scenario format: the base model (no unknown field, frozen), State codes,
ids, percentages read as basis points from the text they are written as, exact money, strict
booleans and dates, maps whose keys stay distinct once normalised, and ``unknown``."""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Callable
from datetime import date, datetime
from decimal import Decimal
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    Strict,
    WithJsonSchema,
)
from pydantic_core import PydanticCustomError

from pyhelpers.scenario.catalogue import catalogue

Unknown = Literal["unknown"]


UNKNOWN: Unknown = "unknown"


NONE = "none"
"""Where a field names a person or a place, ``none`` says there is none (omitting it leaves it unstated)."""


SCHEMA_TYPE = "x-treaty-type"
"""The key that names, in the models' JSON Schema, a type of this module whose schema
:mod:`pyhelpers.scenario.schema` writes (what the validators accept, which pydantic cannot see)."""


def schema_type(name: str) -> dict[str, Any]:
    """The placeholder of a named type in the models' JSON Schema (replaced by a ``$ref`` to its definition)."""
    return {SCHEMA_TYPE: name}


class _SchemaKeys:
    """Marks, in the models' JSON Schema, the type of a map's keys (``propertyNames``)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get_pydantic_json_schema__(self, core: Any, handler: GetJsonSchemaHandler) -> dict[str, Any]:
        schema: dict[str, Any] = handler(core)
        schema["propertyNames"] = schema_type(self.name)
        return schema


class YamlFloat(float):
    """A float as the YAML loader reads it, keeping the text it was written as: a percentage is read from
    that text (``24.999999999999999`` has more than two decimals; the float would be 25.0). ``str`` and
    ``repr`` give the text, so messages quote what the user wrote."""

    __slots__ = ("text",)
    text: str

    def __new__(cls, value: float, text: str) -> YamlFloat:
        obj = super().__new__(cls, value)
        obj.text = text
        return obj

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__

    def __reduce__(self) -> tuple[type[YamlFloat], tuple[float, str]]:
        return YamlFloat, (float(self), self.text)

    def __copy__(self) -> YamlFloat:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> YamlFloat:
        return self


def shown(value: Any) -> str:
    """``value`` for a message: as written, shortened, and never a number too long to print."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return f"a number of about {int(value.bit_length() * 0.30103)} digits"
    text = repr(str(value) if isinstance(value, Decimal) else value)  # an amount as it was written: '-5'
    return text if len(text) <= 60 else text[:57] + "..."


_STATE_RE = re.compile(r"^[a-z]{2}$")


def _state(value: Any) -> Any:
    if isinstance(value, str) and re.fullmatch(r"[A-Za-z]{2}", value):
        return value.lower()
    return value


def _check_state(value: str) -> str:
    if not _STATE_RE.fullmatch(value):
        raise ValueError(f"a two-letter State code such as br or pt, found {value!r}")
    return value


State = Annotated[str, BeforeValidator(_state), AfterValidator(_check_state), WithJsonSchema(schema_type("State"))]


Id = Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f\x7f-\x9f]+$"),
               WithJsonSchema(schema_type("Id"))]
"""An id: 1-200 characters without control characters (C0, DEL and C1: the rule of docs/guide/scenario-format.md)."""


class PlaceRefMarker:
    """Marks an id that names one of the scenario's places of business, or ``none``
    (:data:`PlaceRef`)."""

    def __repr__(self) -> str:
        return "PlaceRef"


PLACE_REF = PlaceRefMarker()

PlaceRef = Annotated[Id, PLACE_REF]
"""An id of one of the scenario's places of business, or ``none`` (checked against the scenario's places
by :mod:`pyhelpers.scenario.consistency`): the values a fact given as ``unknown`` in such a field may take
are listed from the scenario (:func:`pyhelpers.engine.domains.every_value`)."""


def is_place_ref(hints: Any) -> bool:
    """Whether ``hints`` is :data:`PlaceRef` (an id naming a place of business or none)."""
    return typing.get_origin(hints) is Annotated and any(m is PLACE_REF for m in getattr(hints, "__metadata__", ()))


class OpenedOver:
    """Marks a field whose values, where the rules report it missing and the checker answers over every value it may
    take (:mod:`pyhelpers.engine.completion`), are not only those of its type: :data:`OWNERS_PLACES`,
    :data:`DIRECT_RECORD_BESIDE` (:func:`opened_over`)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"OpenedOver({self.name})"


OWNERS_PLACES = OpenedOver("owners_places")
"""A place of business an item's holding, debt-claim or right is effectively connected with: opened, where missing,
over the places of the item's recipient (its beneficial owner: another's would leave the answer as none does) and
``none``. A reference to a place without it (``borne_by``) is not opened where missing (none is assumed, and
``--strict`` asks for it)."""

DIRECT_RECORD_BESIDE = OpenedOver("direct_record_beside")
"""A holding record's ``direct``: opened, where missing, over this record held directly, and, for the bound, this
record held indirectly with a direct record of the same holder and company beside it, its share and first day open
(held indirectly, the record leaves the owner's direct holding unsaid: :func:`pyhelpers.engine.completion.
indirect_branches`)."""


def opened_over(hints: Any) -> OpenedOver | None:
    """The :class:`OpenedOver` mark of a field of type ``hints`` (in any arm of it), None where it has none."""
    arms = typing.get_args(hints) if typing.get_origin(hints) in (typing.Union, types.UnionType) else (hints,)
    for arm in arms:
        if typing.get_origin(arm) is Annotated:
            mark = next((m for m in getattr(arm, "__metadata__", ()) if isinstance(m, OpenedOver)), None)
            if mark is not None:
                return mark
    return None


OwnersPlaceRef = Annotated[PlaceRef, OWNERS_PLACES]
""":data:`PlaceRef` of a place the item's holding, debt-claim or right is connected with (:data:`OWNERS_PLACES`)."""


Text = Annotated[str, Field(min_length=1), WithJsonSchema(schema_type("Text"))]
"""Free text that, when given, is not empty (surrounding spaces do not count)."""


def _check_treaty(value: str) -> str:
    known = catalogue()
    if value not in known.treaties:
        raise ValueError(f"one of {known.one_of()}, found {value!r}")
    return value


TreatyId = Annotated[str, AfterValidator(_check_treaty), WithJsonSchema(schema_type("TreatyId"))]
"""A treaty the package ships: a folder of ``logic/`` (the JSON Schema lists them)."""


# ------------------------------------------------------------------------------------ numbers ---

_DECIMAL_RE = re.compile(r"(?P<sign>-?)(?P<whole>[0-9]+)(?:\.(?P<fraction>[0-9]+))?")
"""A decimal as the format writes it: the digits 0-9 (no other script's), at most one point, no
exponent, no separators (``1_000``, ``1,000``)."""

NUMBER_CHARS = 40
"""No number written with more characters is read at all (a 5,000-digit integer is refused as such)."""


def _written(value: Any) -> str | None:
    """The text a number was written as (a YAML float keeps it), or None for a value that is not a number."""
    if isinstance(value, bool):
        return None
    if isinstance(value, YamlFloat):
        return value.text
    if isinstance(value, int):
        return str(value) if value.bit_length() <= 128 else "9" * NUMBER_CHARS * 2
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, Decimal):
        return format(value, "f") if value.is_finite() and abs(value.adjusted()) < NUMBER_CHARS else str(value)
    if isinstance(value, str):
        return value.strip()
    return None


def _percent(value: Any) -> Any:
    """Percent 0–100 with at most two decimals, read from the text it is written as → basis points (int)."""
    text = _written(value)
    if text is None:
        found = "a boolean" if isinstance(value, bool) else shown(value)
        raise ValueError(f"a percentage between 0 and 100, found {found}")
    if text.endswith("%") and isinstance(value, str):
        text = text[:-1].strip()
    m = _DECIMAL_RE.fullmatch(text)
    if m is None:
        raise ValueError(f"a percentage between 0 and 100 written in digits, e.g. 24.9 or '25%', found {shown(value)}")
    whole, fraction = m["whole"].lstrip("0"), (m["fraction"] or "").rstrip("0")
    if len(whole) > 3 or (m["sign"] and (whole or fraction)) or (int(whole or 0), fraction) > (100, ""):
        raise ValueError(f"a percentage between 0 and 100, found {shown(value)}")
    if len(fraction) > 2:
        raise ValueError(f"a percentage with at most two decimals, found {shown(value)}")
    return int(whole or 0) * 100 + int(fraction.ljust(2, "0"))


BasisPoints = Annotated[int, BeforeValidator(_percent), WithJsonSchema(schema_type("Percentage"))]
"""A percentage as the user writes it (``24.9``), stored as basis points (``2490``)."""

percent_points = _percent
"""The value a :data:`BasisPoints` field takes for what is written (raises ValueError where it takes none)."""


MAX_AMOUNT_DIGITS = 15
"""At most this many digits before an amount's point: amounts below 10^15. Computed amounts (an amount
times a rate in basis points, shares of a tax) then stay exact within Decimal's 28 digits, and the
logic, whose integers are 32-bit, only compares amounts with its thresholds (clamped, see
:func:`pyhelpers.facts.emit.money_cents`)."""

MAX_AMOUNT_DECIMALS = 6
"""At most this many decimals in an amount (the smallest unit of a currency has at most three)."""

MAX_RATE_DECIMALS = 10
"""At most this many decimals in an exchange rate."""


def _exact(kind: str, example: str, decimals: int) -> Callable[[Any], Any]:
    """The before-validator of an exact decimal: written as text (or an integer), in digits 0-9, with at
    most :data:`MAX_AMOUNT_DIGITS` digits before the point and ``decimals`` after."""

    def check(value: Any) -> Any:
        if isinstance(value, float):
            raise ValueError(f"an exact decimal written as a string, e.g. '{example}', found a float")
        text = _written(value)
        if text is None:
            return value  # not a number at all: the decimal schema says so
        m = _DECIMAL_RE.fullmatch(text)
        if m is None:
            raise ValueError(f"{kind} written with the digits 0-9 and at most one point, e.g. '{example}' (no "
                             f"exponent, no separators), found {shown(value)}")
        if len(m["whole"].lstrip("0")) > MAX_AMOUNT_DIGITS:
            raise ValueError(f"{kind} below 10^{MAX_AMOUNT_DIGITS} (at most {MAX_AMOUNT_DIGITS} digits before the "
                             f"point), found {shown(value)}")
        if len(m["fraction"] or "") > decimals:
            raise ValueError(f"{kind} with at most {decimals} decimals, found {shown(value)}")
        return Decimal(text)

    return check


_AMOUNT = BeforeValidator(_exact("an exact decimal amount", "1000.50", MAX_AMOUNT_DECIMALS))

Amount = Annotated[Decimal, _AMOUNT, WithJsonSchema(schema_type("Amount"))]
"""An exact amount (``"1000.50"``): digits 0-9, below 10^15, at most six decimals; a float is refused."""

NonNegativeAmount = Annotated[Decimal, _AMOUNT, Field(ge=0), WithJsonSchema(schema_type("NonNegativeAmount"))]
"""An exact amount of at least zero (``-0`` is zero)."""

PositiveAmount = Annotated[Decimal, _AMOUNT, Field(gt=0), WithJsonSchema(schema_type("PositiveAmount"))]
"""An exact amount above zero."""

Rate = Annotated[Decimal, BeforeValidator(_exact("an exact decimal rate", "5.1234", MAX_RATE_DECIMALS)),
                 WithJsonSchema(schema_type("Rate"))]
"""An exact exchange rate (``"5.1234"``): as an amount, with at most ten decimals."""


# ---------------------------------------------------------------------------- booleans, dates ---

Flag = Annotated[bool, Strict()]
"""A boolean: ``true`` or ``false`` only (not ``"no"``, ``0`` or ``off``)."""

HeldDirectly = Annotated[Flag, DIRECT_RECORD_BESIDE]
"""A holding record's ``direct``: a :data:`Flag` (:data:`DIRECT_RECORD_BESIDE`)."""


_DAY_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _day(value: Any) -> Any:
    """A date: ``YYYY-MM-DD`` that exists, or a :class:`date` (never a datetime, a number or other text)."""
    if isinstance(value, datetime):
        raise ValueError(f"a date YYYY-MM-DD without a time, found {value.isoformat()!r}")
    if isinstance(value, date):
        return value
    text = value.strip() if isinstance(value, str) else None
    if text is not None and _DAY_RE.fullmatch(text):
        try:
            return date.fromisoformat(text)
        except ValueError:
            raise ValueError(f"a real date YYYY-MM-DD, found {value!r}") from None
    if text is not None and _DAY_RE.match(text):
        raise ValueError(f"a date YYYY-MM-DD without a time, found {shown(value)}")
    raise ValueError(f"a date YYYY-MM-DD, found {shown(value)}")


Day = Annotated[date, Strict(), BeforeValidator(_day), WithJsonSchema(schema_type("Date"))]
"""A date as the format writes it, ``YYYY-MM-DD``: ``0``, ``2024-03-15T00:00:00`` or ``"March 15"`` are
refused (YAML's own timestamps are off: the loader keeps dates as text, checked here)."""


# ------------------------------------------------------------------------ maps with distinct keys ---

V = TypeVar("V")


def _distinct(what: str, same: str, normal: Callable[[str], str]) -> Callable[[Any], Any]:
    """The before-validator of a map whose keys are normalised (a State's case, the spaces around an id):
    two keys that are one once normalised are refused, rather than merged."""

    def check(value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        seen: dict[str, str] = {}
        for key in value:
            if not isinstance(key, str):
                continue
            first = seen.setdefault(normal(key), key)
            if first != key:
                raise PydanticCustomError("distinct_keys", "each {what} once ({same})",
                                          {"what": what, "same": same, "key": key, "first": first})
        return value

    return check


StateMap = Annotated[dict[State, V], BeforeValidator(
    _distinct("State", "the case of a State code does not count", lambda k: k.strip().lower())), _SchemaKeys("State")]
"""State -> value, each State once whatever the case it is written in (``pt`` and ``PT`` are refused)."""

IdMap = Annotated[dict[Id, V], BeforeValidator(
    _distinct("id", "spaces around an id do not count", lambda k: k.strip())), _SchemaKeys("Id")]
"""Id -> value, each id once whatever the spaces around it (``ana`` and ``"ana "`` are refused)."""


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class Money(Model):
    amount: NonNegativeAmount = Field(description="exact decimal amount, e.g. '1000000.00'")
    currency: Annotated[str, Field(pattern=r"^[A-Z]{3}$")]
