"""The values a scenario field may take, read from the scenario models' type annotations (for
``treaty whatif``'s changeable facts and for the completion of facts given as ``unknown``)."""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Sequence
from typing import Any

import clingo
from pydantic import BaseModel

from pyhelpers.scenario import BasisPoints, Scenario
from pyhelpers.scenario.common import NONE, OpenedOver, State, is_place_ref, opened_over, percent_points


@functools.lru_cache(maxsize=8192)
def leaf_annotation(path: tuple[Any, ...]) -> Any:
    """The type annotation of the scenario field at ``path`` (None if it cannot be followed). Read once per path (a
    batch with ``--bounds`` walks the context's fields for every row it answers over missing facts)."""
    hints: Any = Scenario
    for part in path:
        hints = _bare(_arm_for(hints, part))
        origin = typing.get_origin(hints)
        if isinstance(hints, type) and issubclass(hints, BaseModel):
            field = next((f for name, f in hints.model_fields.items() if (f.alias or name) == part), None)
            if field is None:
                return None
            hints = field.annotation
        elif origin is dict:
            hints = typing.get_args(hints)[1]
        elif origin is list and isinstance(part, int):
            hints = typing.get_args(hints)[0]
        else:
            return None
    return hints


@functools.lru_cache(maxsize=8192)
def opened_at(path: tuple[Any, ...]) -> OpenedOver | None:
    """The :class:`~pyhelpers.scenario.common.OpenedOver` mark of the scenario field at ``path``: in its type
    (:func:`leaf_annotation`), or among the field's own metadata (where the model keeps a field's marks apart from
    its type: ``direct: HeldDirectly``); None where it has none."""
    mark = opened_over(leaf_annotation(path))
    if mark is not None or not path:
        return mark
    parent = _bare(_arm_for(leaf_annotation(path[:-1]) if len(path) > 1 else Scenario, path[-1]))
    if not (isinstance(parent, type) and issubclass(parent, BaseModel)):
        return None
    field = next((f for name, f in parent.model_fields.items() if (f.alias or name) == path[-1]), None)
    return next((m for m in field.metadata if isinstance(m, OpenedOver)), None) if field is not None else None


def _arm_for(hints: Any, part: Any) -> Any:
    """The arm of ``hints`` that ``part`` of a path follows: of a field that takes one value or a list of
    them (``tax: {...}`` or ``tax: [{...}, {...}]``), the list where ``part`` is an index, otherwise the
    value (:func:`strip_optional`)."""
    if isinstance(part, int) and typing.get_origin(hints) in (typing.Union, types.UnionType):
        lists = [a for a in typing.get_args(hints) if typing.get_origin(_bare(a)) is list]
        if len(lists) == 1:
            return lists[0]
    return strip_optional(hints)


def _bare(hints: Any) -> Any:
    """``hints`` without the validators it is annotated with (a map refusing keys that are one once
    normalised, :data:`~pyhelpers.scenario.common.StateMap`, is a dict)."""
    return typing.get_args(hints)[0] if typing.get_origin(hints) is typing.Annotated else hints


def strip_optional(hints: Any) -> Any:
    args = typing.get_args(hints)
    if typing.get_origin(hints) in (typing.Union, types.UnionType):
        real = [a for a in args if a is not type(None)]
        models = [a for a in real if isinstance(a, type) and issubclass(a, BaseModel)]
        if len(real) == 1:
            return real[0]
        if models:
            return models[0]
    return hints


def value_choices(hints: Any, value: Any, thresholds: list[str]) -> list[Any]:
    """The values a fact of type ``hints`` holding ``value`` may change to (empty: none to list)."""
    options: list[Any] = []
    for arm in typing.get_args(hints) if typing.get_origin(hints) is not None else (hints,):
        if arm is bool:
            options += [True, False]
        elif typing.get_origin(arm) is typing.Literal:
            options += list(typing.get_args(arm))
        elif arm is BasisPoints:
            options += thresholds
        elif typing.get_origin(arm) is typing.Annotated and typing.get_args(arm)[0] is bool:
            options += [True, False]
    if hints is BasisPoints:
        options = list(thresholds)
    return [o for o in dict.fromkeys(options) if repr(o) != repr(value) and o != "unknown"]


def is_state(hints: Any) -> bool:
    """Whether a field of type ``hints`` holds a State (alone or among other arms)."""
    return hints is State or (typing.get_origin(hints) in (typing.Union, types.UnionType)
                              and any(arm is State for arm in typing.get_args(hints)))


def keyed_by_state(hints: Any) -> bool:
    """Whether a field of type ``hints`` is a mapping keyed by States (``liable_to_tax: {pt: ...}``)."""
    hints = _bare(strip_optional(hints))
    return typing.get_origin(hints) is dict and typing.get_args(hints)[0] is State


def value_kind(path: tuple[Any, ...]) -> str:
    """What the values of the scenario field at ``path`` are, for the answers to name them: ``state`` (a State's
    code), ``term`` (a value of an enumeration of the format), or empty (anything else). An element of a list
    the field may also give otherwise (``rights: [patent]`` or ``rights: unknown``) is read from the list's arm."""
    hints = leaf_annotation(path)
    if hints is None and path and isinstance(path[-1], int):
        whole = leaf_annotation(path[:-1])
        arms = typing.get_args(whole) if typing.get_origin(whole) in (typing.Union, types.UnionType) else (whole,)
        lists = [typing.get_args(_bare(a))[0] for a in arms if typing.get_origin(_bare(a)) is list]
        hints = lists[0] if len(lists) == 1 else None
    if hints is None:
        return ""
    if is_state(hints) or is_state(strip_optional(hints)):
        return "state"
    arms = typing.get_args(hints) if typing.get_origin(hints) in (typing.Union, types.UnionType) else (hints,)
    if any(typing.get_origin(a) is typing.Literal and any(v != "unknown" for v in typing.get_args(a)) for a in arms):
        return "term"
    return ""


def every_value(hints: Any, states: Sequence[str] = (), places: Sequence[str] | None = None) -> list[Any] | None:
    """Every value a field of type ``hints`` may take other than ``unknown`` (a yes/no, the values of an
    enumeration; a State: each of ``states`` — the Contracting States, those the scenario names and one it
    does not, standing for any other — or none; a reference to a place of business,
    :data:`~pyhelpers.scenario.common.PlaceRef`: each of ``places``, the scenario's places of business, or
    ``none``), or None where some arm of the type cannot be listed (a date, a number, a place reference
    without the scenario's places). Where the type is a yes/no or an enumeration, leaving the field out is
    not one of its values (it is a fact not given, or its default, itself one of them)."""
    values: list[Any] = []
    arms = typing.get_args(hints) if typing.get_origin(hints) in (typing.Union, types.UnionType) else (hints,)
    for arm in arms:
        if arm is type(None):
            continue
        if arm is bool or (typing.get_origin(arm) is typing.Annotated and typing.get_args(arm)[0] is bool):
            values += [True, False]
        elif typing.get_origin(arm) is typing.Literal:
            values += [v for v in typing.get_args(arm) if v != "unknown"]
        elif arm is State and states:
            values += [*states, *([None] if type(None) in arms else [])]
        elif is_place_ref(arm) and places is not None:
            values += [*places, NONE]
        else:
            return None
    return list(dict.fromkeys(values))


def _percent(bp: int) -> str:
    whole, frac = divmod(bp, 100)
    return f"{whole}%" if frac == 0 else f"{whole}.{frac:02d}%"


def cited_percentages(static_atoms: Sequence[clingo.Symbol], treaty: str) -> list[str]:
    """The percentages the treaty's rules cite (``percentage`` facts), each with the one a basis point
    below it, in increasing order, as a scenario writes them (``24.99%``, ``25%``)."""
    bps = sorted({a.arguments[2].number for a in static_atoms
                  if a.name == "percentage" and len(a.arguments) == 4
                  and a.arguments[0].type == clingo.SymbolType.String and a.arguments[0].string == treaty
                  and a.arguments[2].type == clingo.SymbolType.Number and 0 < a.arguments[2].number <= 10000})
    out: list[str] = []
    for bp in bps:
        out += [_percent(bp - 1), _percent(bp)] if bp > 1 else [_percent(bp)]
    return out


def share_points(written: Any) -> int | None:
    """The basis points of a share as :func:`_percent` or a scenario writes it (a bare figure or one with its sign),
    None where it states none."""
    if written is None or isinstance(written, (bool, dict, list)):
        return None
    try:
        return int(percent_points(written))
    except ValueError:
        return None


MAX_OTHER_SHARES = 6
"""At most this many other owners' stated shares of a company are combined (:func:`share_representatives`: the
sums of every set of them); beyond, only each alone and all of them together."""


def share_representatives(cited: Sequence[str], others: Sequence[int]) -> tuple[tuple[str, ...], str]:
    """The values an open share of a company's capital is answered over, and the largest it may be, given the
    percentages the treaty's rules cite (``cited``: :func:`cited_percentages`, each with the one a basis point below
    it) and the shares of the same capital the scenario states for its other owners (``others``, basis points).
    A rule that counts the shares of several owners against a threshold T is met by this one's from T less the
    shares of the others it counts on: each cited value is moved down by the sum of every set of ``others`` (issue
    23: a threshold the rules derive is a boundary as the one they cite is). The share is at most what the others
    leave (the whole less their sum), and no value above it is tried; none held is first. Each value stands for every
    share from it to the next one less a basis point (:meth:`pyhelpers.scenario.openfacts.OpenFact.describe`)."""
    room = max(0, 10000 - sum(others))
    if len(others) <= MAX_OTHER_SHARES:
        sums = {0}
        for share in others:
            sums |= {s + share for s in sums}
    else:
        sums = {0, sum(others), *others}
    points = {p for p in (share_points(c) for c in cited) if p is not None}
    values = {0} | {p - s for p in points for s in sums if 0 < p - s <= room}
    return tuple(_percent(v) for v in sorted(values)), _percent(room)


LISTED_BY_KIND = frozenset({"activities", "rights", "services", "kinds", "special_regime"})
"""The list-valued fields of an enumeration given as ``unknown`` that are answered over representative lists
(:func:`representative_lists`): what is done at a place of business (``places_of_business.B.activities``), the
rights a royalty is paid for and the nature of the services a fee is paid for (``payment_for.rights``,
``payment_for.services``), the kinds of contract an agent concludes (``agent.kinds``) and a person's special
tax regimes (``persons.P.special_regime``)."""

LISTED_WITH_NONE = frozenset({"special_regime", "kinds"})
"""The fields of :data:`LISTED_BY_KIND` whose empty list is itself a statement of the format, and so one of the
lists answered over: ``special_regime: []`` states that the person has none (a protocol's regimes), an agent's
``kinds: []`` that the contracts it concludes are of none of the kinds the article names (the article then makes it
no permanent establishment). A royalty's ``rights`` and a fee's ``services`` are never empty."""

EVERY_LIST_UP_TO = 4
"""An enumeration of at most this many values is answered over every non-empty list of them (15 lists of four):
the representatives are every list there is (an agent's three kinds of contract, a fee's four natures of
services)."""

LISTED_BY_STATES = frozenset({"permanent_home", "habitual_abode", "nationality"})
"""The lists of States given as ``unknown`` that are answered over every list of the Contracting States (neither,
each alone, both: :func:`representative_lists`): an individual's ``permanent_home``, ``habitual_abode`` and
``nationality``, which the residence tie-breakers count among the Contracting States only (a third State's
is as none). The other list-valued fields (``rights``, ``services``, ``special_regime``, ``liable_to_tax``'s
criteria, ``acts_exclusively_for``, ``controlled_by``, ``business_activity``, ``value_from_immovable``) stay
three-valued (docs/guide/incomplete-facts.md)."""


def representative_lists(path: tuple[Any, ...], contracting: Sequence[str] = ()) -> list[list[str]] | None:
    """The lists a list-valued field given as ``unknown`` is answered over. Of an enumeration, where its name is
    one of :data:`LISTED_BY_KIND`: each value alone, then every value but one together, in the enumeration's
    order (of at most :data:`EVERY_LIST_UP_TO` values, every non-empty list; the empty list first where it is a
    statement, :data:`LISTED_WITH_NONE`). What the rules test of such a list is whether it holds a value (an
    activity of one letter of an article, the enterprise's core business, purchasing) and whether it holds values
    of different letters (a combination): each value alone reaches each single test, and all but one together a
    combination with and without each value (with and without the core business, with and without purchasing).
    Representatives,
    not every list: a list of two or three values is answered as the representative its tests agree with
    only where the rules test no more than these. Of States, where its name is one of :data:`LISTED_BY_STATES`:
    every list of the Contracting States ``contracting`` (none, each, both), all there is to tell apart. None
    for any other field."""
    if not path or path[-1] not in LISTED_BY_KIND | LISTED_BY_STATES:
        return None
    hints = leaf_annotation(path)
    arms = typing.get_args(hints) if typing.get_origin(hints) in (typing.Union, types.UnionType) else (hints,)
    lists = [typing.get_args(_bare(a))[0] for a in arms if typing.get_origin(_bare(a)) is list]
    if path[-1] in LISTED_BY_STATES:
        if len(lists) != 1 or lists[0] is not State or len(contracting) != 2:
            return None
        first, second = contracting
        return [[], [first], [second], [first, second]]
    if len(lists) != 1 or typing.get_origin(lists[0]) is not typing.Literal:
        return None
    kinds = [v for v in typing.get_args(lists[0]) if v != "unknown"]
    none: list[list[str]] = [[]] if path[-1] in LISTED_WITH_NONE else []
    if len(kinds) <= EVERY_LIST_UP_TO:
        return none + [[k for n, k in enumerate(kinds) if mask >> n & 1] for mask in range(1, 1 << len(kinds))]
    return none + [[a] for a in kinds] + [[b for b in kinds if b != a] for a in kinds]
