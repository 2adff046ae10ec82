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

from pyhelpers.base.errors import InputError, Problem, ScenarioError
from pyhelpers.scenario import openfacts
from pyhelpers.scenario.catalogue import catalogue
from pyhelpers.scenario.common import MAX_AMOUNT_DECIMALS, MAX_AMOUNT_DIGITS, percent_points
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
        found, hint = ("`unknown` (a first or last day not known)",
                       "give the day (each row is decided with the context's facts as given), or check the scenario "
                       "with the day open with `treaty check`, which answers over every day by the critical dates") \
            if f.open_end else ("a range (between)" if f.ranged else "values that may change (changeable)"
                                if f.kind == "changeable" else "alternatives (one_of)",
                                "check a scenario with alternatives with `treaty check`")
        raise ScenarioError([Problem(str(path), f.line, field_path(f.path), "a plain value in a batch context",
                                     found, hint)])
    return context, treaty if isinstance(treaty, str) else None


def validate_item(data: dict[str, Any], source: str) -> tuple[IncomeItem | None, list[Problem]]:
    """One income item given as a dict (e.g. a ledger row), validated alone: the item, or its problems."""
    try:
        return IncomeItem.model_validate(data), []
    except ValidationError as err:
        return None, problems_from_validation(err, source, LineMap(), data)


# ------------------------------------------------------------------- many items of a few shapes ---
# A batch validates each distinct shape of its rows' items once (pyhelpers.interfaces.batch): an item whose id,
# date and amounts are ones the models certainly accept as written is its shape's validated model with them put
# back. Right only while no validator of an item reads another field than its own (tests/test_batch.py checks).

_OWN_ID = re.compile(r"[!-~](?:[ -~]{0,198}[!-~])?")
_OWN_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_OWN_AMOUNT = re.compile(rf"[0-9]{{1,{MAX_AMOUNT_DIGITS}}}(?:\.[0-9]{{1,{MAX_AMOUNT_DECIMALS}}})?")

SHAPE_ID, SHAPE_DAY, SHAPE_AMOUNT = "x", "2000-01-01", "0"
"""Valid stand-ins for an item's own id, date and amount in its shape."""


def own_id(text: str) -> str | None:
    """``text`` if every :data:`~pyhelpers.scenario.common.Id` takes it as it is (printable ASCII, no space at
    either end, so nothing to strip; 1-200 characters), else None (then it is validated as usual)."""
    return text if _OWN_ID.fullmatch(text) else None


def own_day(text: str) -> date | None:
    """The date :data:`~pyhelpers.scenario.common.Day` reads ``text`` as, if it is ``YYYY-MM-DD`` and exists."""
    if _OWN_DAY.fullmatch(text):
        try:
            return date.fromisoformat(text)
        except ValueError:
            return None
    return None


def own_amount(text: str) -> Decimal | None:
    """The amount every :class:`~pyhelpers.scenario.common.Money` reads ``text`` as, if it is digits 0-9 with at
    most 15 before the point and six after, no sign (``Decimal(text)``, as its validator reads it)."""
    return Decimal(text) if _OWN_AMOUNT.fullmatch(text) else None


_OWN_RATE = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,2})?")


def own_rate(text: str) -> int | None:
    """The basis points every :data:`~pyhelpers.scenario.common.BasisPoints` field reads ``text`` as (its validator's
    value), if it is digits 0-9, at most three before the point and two after, no sign nor ``%``, at most 100 (else
    None: then it is validated as usual)."""
    if not _OWN_RATE.fullmatch(text):
        return None
    try:
        points: int = percent_points(text)
        return points
    except ValueError:
        return None


M = TypeVar("M", bound=BaseModel)


def with_values(model: M, values: dict[str, Any]) -> M:
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


SUFFIXES = (".yaml", ".yml")
"""The scenario files a folder holds (found at any depth)."""


def scenario_files(paths: Iterable[str | Path]) -> list[Path]:
    """The files of ``paths``: a file as given, a folder as every ``*.yaml`` and ``*.yml`` file under it,
    sorted by path (so that every command reads a folder in the same order)."""
    out: list[Path] = []
    for p in map(Path, paths):
        out += sorted(f for f in p.rglob("*") if f.suffix in SUFFIXES and f.is_file()) if p.is_dir() else [p]
    return out


def some_scenario_files(paths: Iterable[str | Path]) -> list[Path]:
    """:func:`scenario_files`, refused as bad input when the ``paths`` hold none (folders without any): the
    files of every command that takes scenario files and folders."""
    paths = list(paths)
    files = scenario_files(paths)
    if not files:
        raise InputError(f"{', '.join(map(str, paths))}: expected a scenario file or a folder holding *.yaml or "
                         "*.yml files, found a folder without any")
    return files


def load_file(path: str | Path) -> Scenario:
    """Load and validate a scenario file."""
    return load_text(read_file(path, "scenario"), str(path))


Scenario.revalidate = lambda data, source: validate(data, source, LineMap())
