"""Loading: YAML text, files and dicts into validated scenarios (facts given as alternatives validated
one by one), batch contexts, and single income items (a ledger row)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from pyhelpers.base.errors import Problem, ScenarioError
from pyhelpers.scenario import openfacts
from pyhelpers.scenario.catalogue import catalogue
from pyhelpers.scenario.common import MAX_AMOUNT_DECIMALS, MAX_AMOUNT_DIGITS
from pyhelpers.scenario.consistency import check_references
from pyhelpers.scenario.document import Scenario
from pyhelpers.scenario.income import IncomeItem
from pyhelpers.scenario.limits import refuse_oversized
from pyhelpers.scenario.problems import LineMap, describe, field_path, problems_from_validation
from pyhelpers.scenario.reading import parse_yaml, read_file


def load_dict(data: Any, source: str = "<scenario>", lines: LineMap | None = None) -> Scenario:
    """Validate a scenario given as a dict (e.g. parsed YAML/JSON). Raises :class:`ScenarioError`."""
    lines = lines or LineMap()
    if not isinstance(data, dict):
        raise ScenarioError([Problem(source, 1, "(document)", "a mapping with name, treaty, persons, ...",
                                     describe(data))])
    refuse_oversized(data, source, lines.line)
    data, open_facts, problems = openfacts.extract(data, source, lines.line)
    if problems:
        raise ScenarioError(problems)
    sc = validate(data, source, lines)
    sc._plain_data = data
    if not open_facts:
        return sc
    for f in open_facts:  # every alternative must make a valid scenario on its own
        for value in f.values[1:]:
            try:
                validate(openfacts.substitute(data, {f.path: value}), source, lines)
            except ScenarioError as err:
                problems += [dataclasses.replace(p, found=f"{p.found} (with {f.name} = {openfacts.show_value(value)})")
                             for p in err.problems]
    if problems:
        raise ScenarioError(problems)
    sc._open_facts = open_facts
    sc._plain_data = data
    return sc


def validate(data: Any, source: str, lines: LineMap) -> Scenario:
    try:
        sc = Scenario.model_validate(data)
    except ValidationError as err:
        raise ScenarioError(problems_from_validation(err, source, lines, data)) from None
    problems = check_references(sc, source, lines)
    if problems:
        raise ScenarioError(problems)
    return sc


def load_text(text: str, source: str = "<scenario>") -> Scenario:
    """Parse and validate scenario YAML text."""
    data, lines = parse_yaml(text, source)
    return load_dict(data, source, lines)


def load_context(path: str | Path) -> tuple[Scenario, str | None]:
    """Load a batch's group context: a scenario file without income items, whose ``treaty`` (and
    ``name``) may be left out when each ledger row names its treaty. Returns the context (with a
    placeholder treaty if none was given) and the treaty it names, if any."""
    return load_context_text(read_file(path, "context"), str(path))


def load_context_text(text: str, source: str) -> tuple[Scenario, str | None]:
    """:func:`load_context` of a context given as YAML (or JSON) text, ``source`` naming it."""
    path = source
    data, lines = parse_yaml(text, source)
    if not isinstance(data, dict):
        return load_dict(data, str(path), lines), None
    if data.get("income"):
        raise ScenarioError([Problem(str(path), lines.line(("income",)), "income",
                                     "a context without income items (the ledger's rows are the items)",
                                     f"{len(data['income'])} item(s)")])
    treaty = data.get("treaty")
    data = {"name": "batch context", **data, "treaty": treaty if treaty is not None else catalogue().treaties[0]}
    context = load_dict(data, str(path), lines)
    if context.open_facts:
        f = context.open_facts[0]
        raise ScenarioError([Problem(str(path), f.line, field_path(f.path), "a plain value in a batch context",
                                     "alternatives (one_of / between / changeable)",
                                     "check a scenario with alternatives with `treaty check`")])
    return context, treaty if isinstance(treaty, str) else None


def validate_item(data: dict[str, Any], source: str) -> tuple[IncomeItem | None, list[Problem]]:
    """One income item given as a dict (e.g. a ledger row), validated alone: the item, or its problems."""
    try:
        return IncomeItem.model_validate(data), []
    except ValidationError as err:
        return None, problems_from_validation(err, source, LineMap(), data)


# ------------------------------------------------------------------- many items of a few shapes ---

_OWN_ID = re.compile(r"[!-~](?:[ -~]{0,198}[!-~])?")
"""An id every :data:`~pyhelpers.scenario.common.Id` accepts as it is: printable ASCII, no space at
either end (nothing to strip), 1-200 characters."""
_OWN_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
"""A date :data:`~pyhelpers.scenario.common.Day` reads as :meth:`date.fromisoformat` does (when that
accepts it)."""
_OWN_AMOUNT = re.compile(rf"[0-9]{{1,{MAX_AMOUNT_DIGITS}}}(?:\.[0-9]{{1,{MAX_AMOUNT_DECIMALS}}})?")
"""An amount every :class:`~pyhelpers.scenario.common.Money` accepts as it is: digits 0-9, no sign, at
most 15 digits before the point and six after; read as ``Decimal(text)``."""
_SHAPE_ID, _SHAPE_DAY, _SHAPE_AMOUNT = "x", "2000-01-01", "0"
"""What stands for a row's own id, date and amounts in its shape (each valid)."""

M = TypeVar("M", bound=BaseModel)


def _with(model: M, values: dict[str, Any]) -> M:
    """``model.model_copy(update=values)`` for fields ``model`` was given (its fields set stay the same),
    without the generic copy's overhead."""
    copied = object.__new__(type(model))
    fields = model.__dict__.copy()
    fields.update(values)
    object.__setattr__(copied, "__dict__", fields)
    object.__setattr__(copied, "__pydantic_fields_set__", set(model.__pydantic_fields_set__))
    object.__setattr__(copied, "__pydantic_extra__", None)
    private = model.__pydantic_private__
    object.__setattr__(copied, "__pydantic_private__", None if private is None else dict(private))
    return copied


class ItemShapes:
    """:func:`validate_item` for many items that differ mostly in their id, date and amounts (the rows of a
    ledger): the same item, or the same problems, validating each distinct *shape* once.

    An item's shape is its dict with its id, its date, its gross amount and its withheld amount replaced
    by valid stand-ins, where the row's own value is one that the models certainly accept as it is (an id
    of printable ASCII without spaces at its ends, a date ``YYYY-MM-DD`` that exists, an amount of digits
    within the limits: :data:`_OWN_ID`, :data:`_OWN_DAY`, :data:`_OWN_AMOUNT`); any other value stays in
    the shape and is validated with it. No validator of :class:`IncomeItem` or of the models within it
    reads two fields (tests/test_batch.py checks), so an item is valid exactly when its shape is and its
    own values are; the item is then the shape's validated model with its own values put back (what
    validating it gives: the id as it is, ``date.fromisoformat``, ``Decimal`` of the text). When the shape
    is not valid the item is validated whole, so its problems are :func:`validate_item`'s."""

    limit = 4_000
    """Past this many shapes the cache starts afresh (a ledger whose rows differ in other cells gains
    nothing from it, and its memory stays flat)."""

    def __init__(self) -> None:
        self.shapes: dict[str, IncomeItem | None] = {}

    def validate(self, data: dict[str, Any], source: str) -> tuple[IncomeItem | None, list[Problem]]:
        shape = dict(data)
        own: dict[str, Any] = {}
        rid = data.get("id")
        if isinstance(rid, str) and _OWN_ID.fullmatch(rid):
            shape["id"] = _SHAPE_ID
            own["id"] = rid
        day = data.get("date")
        if isinstance(day, str) and _OWN_DAY.fullmatch(day):
            try:
                own["date"] = date.fromisoformat(day)
                shape["date"] = _SHAPE_DAY
            except ValueError:
                pass  # not a real date: validated with the shape, which then fails
        gross_amount = withheld_amount = None
        gross = data.get("gross")
        if isinstance(gross, dict) and (gross_amount := _own_amount(gross)) is not None:
            shape["gross"] = {**gross, "amount": _SHAPE_AMOUNT}
        withholding: Any = data.get("withholding")
        withheld = withholding.get("withheld") if isinstance(withholding, dict) else None
        if isinstance(withheld, dict) and (withheld_amount := _own_amount(withheld)) is not None:
            shape["withholding"] = {**withholding, "withheld": {**withheld, "amount": _SHAPE_AMOUNT}}
        key = repr(shape)  # its values are text and booleans, and dicts of them: one text per shape
        if key in self.shapes:
            model = self.shapes[key]
        else:
            if len(self.shapes) >= self.limit:
                self.shapes.clear()
            model = self.shapes[key] = validate_item(shape, source)[0]
        if model is None:
            return validate_item(data, source)
        if gross_amount is not None and model.gross is not None:
            own["gross"] = _with(model.gross, {"amount": gross_amount})
        if withheld_amount is not None and model.withholding is not None and model.withholding.withheld is not None:
            own["withholding"] = _with(model.withholding,
                                       {"withheld": _with(model.withholding.withheld, {"amount": withheld_amount})})
        return _with(model, own), []


def _own_amount(money: dict[str, Any]) -> Decimal | None:
    """The amount of a Money given as a dict, when it is one :data:`_OWN_AMOUNT` accepts."""
    amount = money.get("amount")
    return Decimal(amount) if isinstance(amount, str) and _OWN_AMOUNT.fullmatch(amount) else None


SUFFIXES = (".yaml", ".yml")
"""The scenario files a folder holds (found at any depth)."""


def scenario_files(paths: Iterable[str | Path]) -> list[Path]:
    """The files of ``paths``: a file as given, a folder as every ``*.yaml`` and ``*.yml`` file under it,
    sorted by path (so that every command reads a folder in the same order)."""
    out: list[Path] = []
    for p in map(Path, paths):
        out += sorted(f for f in p.rglob("*") if f.suffix in SUFFIXES and f.is_file()) if p.is_dir() else [p]
    return out


def load_file(path: str | Path) -> Scenario:
    """Load and validate a scenario file."""
    return load_text(read_file(path, "scenario"), str(path))


Scenario.revalidate = lambda data, source: validate(data, source, LineMap())
