"""One truth for the format: the JSON Schema accepts what the loader accepts, except the cross-field checks
it lists in its ``$comment`` (issue 25). The shipped schema file is the generated one; every shipped scenario
validates with the ``jsonschema`` library; hypothesis generates valid and mutated documents and finds no
other disagreement (a fixed, small budget)."""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from pyhelpers.base.errors import ScenarioError
from pyhelpers.scenario import load_dict, openfacts
from pyhelpers.scenario.document import Scenario
from pyhelpers.scenario.reading import parse_yaml, read_file
from pyhelpers.scenario.schema import SCHEMA_FILE, SCHEMA_ID, SCHEMA_VERSION, json_schema, shipped_schema

from .conftest import ROOT, SCENARIOS


@cache
def validator() -> jsonschema.protocols.Validator:
    schema = shipped_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def data_of(path: Path) -> Any:
    return parse_yaml(read_file(path, "scenario"), str(path))[0]


def test_the_shipped_file_is_the_generated_schema() -> None:
    assert shipped_schema() == json_schema(), \
        f"regenerate it: treaty schema > {SCHEMA_FILE.relative_to(ROOT)}"


def test_the_schema_names_itself_and_its_version() -> None:
    schema = shipped_schema()
    assert schema["$id"] == SCHEMA_ID and SCHEMA_VERSION in SCHEMA_ID
    assert schema["version"] == SCHEMA_VERSION
    for words in ("ids that refer to", "overlap", "between", "as written"):
        assert words in schema["$comment"]


_CHUNKS = 8


@pytest.mark.parametrize("chunk", range(_CHUNKS))
def test_every_shipped_scenario_validates(chunk: int) -> None:
    """Every shipped scenario (in eight chunks, spread over the workers)."""
    v = validator()
    bad = []
    for path in SCENARIOS[chunk::_CHUNKS]:
        errors = sorted(v.iter_errors(data_of(path)), key=lambda e: e.json_path)
        if errors:
            best = jsonschema.exceptions.best_match(errors)
            bad.append(f"{path.relative_to(ROOT)}: {best.json_path}: {best.message[:200]}")
    assert not bad, "\n".join(bad)


BASE = ROOT / "scenarios" / "br-pt" / "dividends-holding-24-9-percent.yaml"


@pytest.mark.parametrize(("path", "value"), [
    (("holdings", 0, "capital"), 150), (("holdings", 0, "capital"), 24.999), (("holdings", 0, "capital"), "24.999"),
    (("treaty",), "brazil"), (("evaluation_date",), "2023-02-29"), (("income", 0, "gross", "amount"), 1000.5),
    (("income", 0, "gross", "amount"), "-5"), (("income", 0, "gross", "amount"), "1e3"),
    (("persons", "lusoinvest", "liable_to_tax"), {"PT\n": ["incorporation"]}),
])
def test_what_the_loader_refuses_the_schema_refuses(path: tuple[Any, ...], value: Any) -> None:
    """The earlier finding: the published schema took ``amount: 1000.5``, ``brazil`` and ``capital: 150``."""
    data = data_of(BASE)
    set_at(data, path, value)
    with pytest.raises(ScenarioError):
        load_dict(data)
    assert not validator().is_valid(data)


@pytest.mark.parametrize(("path", "value"), [
    (("holdings", 0, "capital"), 0.29), (("holdings", 0, "capital"), "24.90 %"), (("holdings", 0, "capital"), 100),
    (("income", 0, "gross", "amount"), " 1000.000001 "), (("income", 0, "gross", "amount"), "-0"),
    (("treaty",), " br-pt "), (("holdings", 0, "capital"), {"one_of": [20, 25]}),
    (("holdings", 0, "until"), {"between": ["20240101", "2024-01-05"]}),
])
def test_what_the_loader_accepts_the_schema_accepts(path: tuple[Any, ...], value: Any) -> None:
    data = data_of(BASE)
    set_at(data, path, value)
    load_dict(data)
    assert validator().is_valid(data), jsonschema.exceptions.best_match(validator().iter_errors(data))


# ----------------------------------------------------------------------------------- property test ---

_BASES = [ROOT / "scenarios" / p for p in (
    "br-pt/dividends-holding-24-9-percent.yaml", "br-pt/unknowns-holding-24-99-or-25-percent.yaml",
    "br-pt/unknowns-agent-authority-and-habit-jointly.yaml", "br-pt/unknowns-construction-site-end-unknown.yaml",
    "br-pt/question-residence-tie-breakers-and-mutual-agreement.yaml",
    "br-pl/unknowns-employee-presence-around-183-days.yaml")]

_POOL: list[Any] = [
    "unknown", None, True, False, 0, -1, 5, 100, 101, 150, 24.9, 24.999, 0.29, 33.33, 1000.5, 2**40,
    "25%", "24.99", "24.999", "1000.50", "1000.5", "-5", "-0", "1e3", "1_000", " 12.5 ",
    "2024-02-29", "2023-02-29", "2024-13-01", "2024-01-01T00:00", "20240101",
    "pt", " pt ", "PT", " PT", "PT\n", "xx", "br", "br-pt", "brazil", "", " ", "ana", "a" * 201, "tab\there",
    "capped 10%", "capped at most 15%", "at most 15%", "may tax", "may_tax", "capped", "capped 10.123%",
    [], ["pt"], ["domicile"], {}, {"a": 1}, {"one_of": [1]}, {"value": 1, "changeable": True},
    {"between": [1, 3]}, {"between": ["2024-01-01", "2024-01-03"]}, {"between": [1, "2024-01-01"]},
    {"between": ["20240101", "20240105"]}, {"value": 5, "changeable": [6, 6]}, {"value": "unknown", "changeable": True},
    {"one_of": [True, False]}, {"one_of": ["2024-01-01", "2024-02-01"]}, {1: "x"}, {"pt": 5}, "Unknown", "  unknown",
    10**15, 10**15 - 1, "999999999999999.999999", "0.0000001", -0.0, 1e-05, 100.001, "100.00", "-0.00",
    "capped 10 %", "at most 15 %", "exempt ", "may  tax", " 2024-01-01", "2024-1-01", {"status": "depends"},
]


def set_at(data: Any, path: tuple[Any, ...], value: Any) -> None:
    node = data
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path in ``node`` outside facts given as alternatives (an alternative holds none of its own)."""
    out = [path] if path else []
    if isinstance(node, dict):
        if set(node) in ({"one_of"}, {"between"}, {"value", "changeable"}):
            return out
        for k, v in node.items():
            out += _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*path, i))
    return out


@cache
def _base(index: int) -> Any:
    return data_of(_BASES[index])


@st.composite
def documents(draw: st.DrawFn) -> Any:
    """A shipped scenario, unchanged or with up to three mutations: a value replaced (from values near the
    format's edges), a field removed, an unknown field added, a value given as alternatives."""
    data = copy.deepcopy(_base(draw(st.integers(0, len(_BASES) - 1))))
    for _ in range(draw(st.integers(0, 3))):
        paths = _paths(data)
        path = draw(st.sampled_from(paths))
        parent: Any = data
        for part in path[:-1]:
            parent = parent[part]
        how = draw(st.sampled_from(["replace", "replace", "remove", "add", "alternatives"]))
        if how == "replace":
            parent[path[-1]] = copy.deepcopy(draw(st.sampled_from(_POOL)))
        elif how == "remove" and isinstance(parent, dict):
            del parent[path[-1]]
        elif how == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["zzz", "one_of", "value"]))] = draw(st.sampled_from(_POOL[:8]))
        elif how == "alternatives":
            other = draw(st.sampled_from(_POOL))
            parent[path[-1]] = {"one_of": [copy.deepcopy(parent[path[-1]]), copy.deepcopy(other)]}
    return data


def _fill_open_ends(data: Any, plain: Any) -> None:
    """Where ``data`` gives a first or last day as ``unknown`` that the loader could not open (the record's
    other end not a date: ``plain`` holds None there), a date in ``plain``, so that the models judge the rest."""
    if isinstance(data, dict) and isinstance(plain, dict):
        for key, value in data.items():
            if key in ("from", "until") and value == "unknown" and plain.get(key, "") is None:
                plain[key] = "2000-01-01"
            elif key in plain:
                _fill_open_ends(value, plain[key])
    elif isinstance(data, list) and isinstance(plain, list):
        for value, other in zip(data, plain, strict=False):
            _fill_open_ends(value, other)


def loader_verdict(data: Any) -> str:
    """``accept``; ``cross`` when only the loader's cross-field checks refuse it (every alternative passes
    the models: the schema's ``$comment`` lists those checks); ``keys`` when the models refuse only keys
    that are one once normalised (listed too); else ``refuse``."""
    try:
        load_dict(copy.deepcopy(data))
        return "accept"
    except ScenarioError:
        pass
    if not isinstance(data, dict):
        return "refuse"
    plain, facts, problems = openfacts.extract(copy.deepcopy(data), "<doc>", lambda p: None)
    if any(p.expected != openfacts.OTHER_END for p in problems):
        return "refuse"
    if problems:  # the record's other end alone is a check across fields, which the schema lists as beyond it:
        _fill_open_ends(data, plain)  # the models read the rest with a date there

    choices = [{}] + [{f.path: v} for f in facts for v in f.values[1:]]
    try:
        for choice in choices:
            Scenario.model_validate(openfacts.substitute(plain, choice))
    except ValidationError as err:
        # a map's keys that are one once normalised (pt and PT): listed, and it hides the map's other errors
        return "keys" if all(e["type"] == "distinct_keys" for e in err.errors()) else "refuse"
    return "cross"


@settings(max_examples=120, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(documents())
def test_the_schema_and_the_loader_agree(data: Any) -> None:
    verdict = loader_verdict(data)
    if verdict == "keys":
        return
    schema_ok = validator().is_valid(data)
    # "cross": the models take it, a check the schema lists as beyond it refuses it: the schema takes it
    if schema_ok != (verdict in ("accept", "cross")):
        why = "" if schema_ok else jsonschema.exceptions.best_match(validator().iter_errors(data)).message[:300]
        raise AssertionError(f"loader: {verdict}, schema: {'accepts' if schema_ok else 'refuses: ' + why}")
