"""The JSON Schema of the scenario format: one truth with the loader.

The schema is the models' schema (pydantic) with what pydantic cannot see written in: the types whose
validators read what was written (percentages with at most two decimals, exact amounts, dates, State
codes and ids once the spaces around them are stripped — :data:`pyhelpers.scenario.common.SCHEMA_TYPE`
marks them), the treaty ids of the catalogue, the facts given as alternatives (``one_of``, ``between``,
``changeable``, a record's first or last day ``unknown``: :mod:`.openfacts`) wherever the loader reads
them, and the documentation that names provisions, kept in the rule files beside the law it cites
(``%doc Model.field: ...``, :func:`pyhelpers.base.rulebase.format_documentation`).

It accepts what the loader accepts, except the checks a JSON Schema cannot express, which it lists in
``$comment`` (:data:`NOT_EXPRESSED`): references between fields and records, overlaps and orders of
periods, and what only the written text shows. ``tests/test_schema_truth.py`` holds it to that (every
shipped scenario, and documents generated and mutated by hypothesis); the file shipped in the package
(:data:`SCHEMA_FILE`) is this schema, written by ``treaty schema > pyhelpers/scenario/scenario.schema.json``."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

from pyhelpers.base.errors import LogicError
from pyhelpers.base.rulebase import format_documentation
from pyhelpers.scenario.catalogue import catalogue
from pyhelpers.scenario.common import (
    MAX_AMOUNT_DECIMALS,
    MAX_AMOUNT_DIGITS,
    MAX_RATE_DECIMALS,
    SCHEMA_TYPE,
    UNKNOWN,
)
from pyhelpers.scenario.document import Scenario
from pyhelpers.scenario.openfacts import MAX_DAYS, MAX_VALUES, OPEN_DATES

SCHEMA_VERSION = "1.0.0"
"""The version of the scenario format's schema: the major part changes when a scenario valid before may
be refused, the minor when the format accepts more."""

SCHEMA_ID = f"urn:treaty-logic:scenario-schema:{SCHEMA_VERSION}"

SCHEMA_FILE = Path(__file__).with_name("scenario.schema.json")
"""The schema as shipped in the package (for editors: ``# yaml-language-server: $schema=<this file>``)."""

NOT_EXPRESSED = (
    "Checked by the loader, not by this schema: references and overlaps a JSON Schema cannot express, and the "
    "checks between fields, which must hold for each alternative of a fact given as alternatives (a schema "
    "cannot follow them there): "
    "ids that refer to a person, a place of business, an income item or a question exist (and name another "
    "one where a record cannot name itself); ids of income items and questions are unique; a map's keys "
    "stay distinct once a State's case or the spaces around an id are set aside; periods end on or after "
    "they begin (holdings, presence, places, services, fiscal years, value periods, professors, students); "
    "the holdings of one holder in one company do not overlap, and ownership has no cycle; a holding states "
    "at least one of capital, votes, value or profits; a details block sits on an item type that reads it, and "
    "the blocks a type requires are given; agent, insurance and contract facts only for a place of kind agent; "
    "a place has periods or from/until, not both; a government names government_of; a withholding block needs "
    "the gross amount, one form of the tax withheld, its currency, and a State that withheld; amounts compared "
    "with each other are in one currency; what a field names is in the treaty's catalogue (its Contracting "
    "States, the State of a named tax, a federal State); a termination notice's year where the treaty fixes it; "
    "each item in at most one arrangement; expect: names the scenario's income items and questions.",
    "Facts given as alternatives: a `between` range has LOW not after HIGH and at most "
    f"{MAX_VALUES} integers or {MAX_DAYS} days; `changeable` names at least one value other than the stated "
    "one; the unknown facts' alternatives make at most 1024 combinations; a first or last day given as "
    "`unknown` needs the record's other end as a date (both ends `unknown` are refused); an alternative holds "
    "no alternatives of its own; alternatives are distinct "
    "as written (1 and 1.0 are two).",
    "What only the written text shows: a number's decimals are counted as written (24.999999999999999, 1e1, "
    ".5 and +5.5 are refused as percentages; 5.0 is refused where an amount or a whole number is asked, "
    "JSON Schema reading it as 5); a year given as text ('2025'); a `between` bound written as an ISO week "
    "date; and the YAML the loader reads (no tags, no merge keys, no key twice, YAML 1.2 scalars, at most "
    "1,000,000 bytes, 40 levels, 1,000 aliases and 50,000 values).",
)

# ------------------------------------------------------------------------------ regular expressions ---

_WS = "\\t\\n\\x0b\\x0c\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"
"""The spaces pydantic strips from a text (Unicode White_Space), as a character class body."""

_PWS = _WS + "\\x1c-\\x1f"
"""The spaces Python's ``str.strip`` strips (which the validators of numbers, dates and outcomes use)."""


_END = "(?![\\s\\S])"
"""The end of the text (``$`` also matches before a last newline in Python's regular expressions)."""


def _spaced(core: str, ws: str = _WS) -> str:
    """A pattern for ``core`` with any spaces around it (stripped before the check)."""
    return f"^[{ws}]*(?:{core})[{ws}]*$"


def _date_core(sep: str = "-") -> str:
    """A real day YYYY-MM-DD of the years 1-9999 (leap years included), its parts joined by ``sep``."""
    year = "(?:[0-9]{3}[1-9]|[0-9]{2}[1-9]0|[0-9][1-9]00|[1-9]000)"
    days = (f"(?:(?:0[13578]|1[02]){sep}(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11){sep}(?:0[1-9]|[12][0-9]|30)"
            f"|02{sep}(?:0[1-9]|1[0-9]|2[0-8]))")
    leap = "(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)"
    return f"{year}{sep}{days}|{leap}{sep}02{sep}29"


_DATE = _date_core()
_BASIC_DATE = _date_core("")
"""The same day written without hyphens (``20240315``), as ``date.fromisoformat`` reads a range's bound."""


def _decimal(digits: int, decimals: int, sign: str) -> str:
    """An exact decimal as the format writes it (digits 0-9, one point, no exponent): ``sign`` is ``any``,
    ``nonnegative`` (a minus only on zero) or ``positive`` (not zero)."""
    whole = f"0*[0-9]{{1,{digits}}}"
    fraction = f"(?:\\.[0-9]{{1,{decimals}}})?"
    zero = f"0+(?:\\.0{{1,{decimals}}})?"
    if sign == "any":
        return f"-?{whole}{fraction}"
    if sign == "nonnegative":
        return f"{whole}{fraction}|-{zero}"
    nonzero_fraction = "|".join(f"0{{{k}}}[1-9][0-9]{{0,{decimals - k - 1}}}" for k in range(decimals))
    return f"0*[1-9][0-9]{{0,{digits - 1}}}{fraction}|0+\\.(?:{nonzero_fraction})"


def _percentage() -> dict[str, Any]:
    """0-100 with at most two decimals: a number, or text with an optional ``%``."""
    core = "0*(?:100(?:\\.0+)?|[0-9]{1,2}(?:\\.[0-9]{1,2}0*)?)|-0+(?:\\.0+)?"
    pattern = f"^[{_PWS}]*(?:{core})(?:[{_PWS}]*%)?[{_PWS}]*$"
    # a binary float of two decimals that JSON Schema's `multipleOf` misses (0.29 / 0.01 = 28.999...)
    missed = [float(Decimal(k) / 100) for k in range(10001) if not _multiple_of_hundredth(float(Decimal(k) / 100))]
    return {"anyOf": [{"type": "integer", "minimum": 0, "maximum": 100},
                      {"type": "number", "minimum": 0, "maximum": 100, "multipleOf": 0.01},
                      {"enum": missed},
                      {"type": "string", "pattern": pattern}],
            "description": "a percentage from 0 to 100 with at most two decimals: 24.9, '25%'"}


def _multiple_of_hundredth(x: float) -> bool:
    """What a JSON Schema validator computes for ``multipleOf: 0.01`` on the float ``x``."""
    quotient = x / 0.01
    return int(quotient) == quotient


def _amount(decimals: int, sign: str, what: str) -> dict[str, Any]:
    limit = 10**MAX_AMOUNT_DIGITS - 1
    low = {"any": -limit, "nonnegative": 0, "positive": 1}[sign]
    return {"anyOf": [{"type": "integer", "minimum": low, "maximum": limit},
                      {"type": "string", "pattern": _spaced(_decimal(MAX_AMOUNT_DIGITS, decimals, sign), _PWS)}],
            "description": f"{what}: digits 0-9 as text, e.g. '1000.50' (at most {decimals} decimals; a number "
            "with a point is refused: floats are not exact)"}


def _types() -> dict[str, dict[str, Any]]:
    """The definitions of the types :data:`SCHEMA_TYPE` names."""
    outcomes = ["exclusive", "may tax", "exempt", "not applicable", "mutual agreement", "benefits denied",
                "not encoded", "pending", "undetermined"]
    kinds = "|".join(o.replace(" ", "[ _]") for o in outcomes)
    rate = f"[{_PWS}]*[0-9]+(?:\\.[0-9]{{1,2}})?%"
    outcome = (f"{kinds}|capped[{_PWS}]+[0-9]+(?:\\.[0-9]{{1,2}})?%|capped at most {rate}|at most {rate}"
               "|may tax in every case")
    control = "\\x00-\\x1f\\x7f-\\x9f"
    visible = f"[^{control}{_WS}]"
    treaties = "|".join(re.escape(t) for t in catalogue().treaties)
    return {
        "State": {"type": "string", "pattern": f"^[A-Za-z]{{2}}{_END}|{_spaced('[a-z]{2}')}",
                  "description": "a two-letter State code, e.g. br, pt"},
        "Id": {"type": "string",
               "pattern": _spaced(f"{visible}|{visible}[^{control}]{{0,198}}{visible}"),
               "description": "an id: 1-200 characters, no control characters"},
        "Text": {"type": "string", "pattern": f"[^{_WS}]", "description": "text that is not empty"},
        "TreatyId": {"type": "string", "pattern": _spaced(treaties),
                     "examples": list(catalogue().treaties), "description": "a treaty the package ships"},
        "Percentage": _percentage(),
        "Amount": _amount(MAX_AMOUNT_DECIMALS, "any", "an exact amount"),
        "NonNegativeAmount": _amount(MAX_AMOUNT_DECIMALS, "nonnegative", "an exact amount, zero or more"),
        "PositiveAmount": _amount(MAX_AMOUNT_DECIMALS, "positive", "an exact amount above zero"),
        "Rate": _amount(MAX_RATE_DECIMALS, "any", "an exact rate"),
        "PositiveRate": _amount(MAX_RATE_DECIMALS, "positive", "an exact rate above zero"),
        "Date": {"type": "string", "pattern": _spaced(_DATE, _PWS), "description": "a date YYYY-MM-DD"},
        "Outcome": {"type": "string", "pattern": _spaced(outcome, _PWS),
                    "description": "'capped 10%' | 'may tax' | 'exempt' | 'exclusive' | 'capped at most 15%' | "
                    "'at most 15%' | ..."},
        "OpenFact": {"type": "object", "anyOf": [
            {"required": ["one_of"], "maxProperties": 1}, {"required": ["between"], "maxProperties": 1},
            {"required": ["value", "changeable"], "maxProperties": 2}],
            "description": "the shape of a fact given as alternatives"},
    }


# ----------------------------------------------------------------------------------------- building ---

_NOT_OPEN = ("expect", "name", "description")
"""The top-level fields where no fact is given as alternatives (:func:`.openfacts.extract`)."""

_REF = "#/$defs/"


def json_schema() -> dict[str, Any]:
    """JSON Schema of the scenario format: it accepts what the loader accepts, except the checks listed in
    its ``$comment``."""
    schema = Scenario.model_json_schema(by_alias=True)
    defs: dict[str, Any] = schema["$defs"]
    for key, text in format_documentation().items():
        model, _, field = key.partition(".")
        node = schema if model == Scenario.__name__ else defs.get(model)
        if node is not None and field:
            node = node["properties"].get(field)
        if node is None:
            raise LogicError(f"%doc {key}: no such model or field in the scenario format")
        node["description"] = text
    _resolve_types(schema)
    _discriminate(schema)
    types = _types()
    for name in types:
        if name in defs:
            raise LogicError(f"the scenario format has a model named {name}, as a type of its schema")
    defs.update(types)
    _open_dates(schema)
    opened = _Alternatives(defs)
    for name, node in schema["properties"].items():
        if name not in _NOT_OPEN:
            schema["properties"][name] = opened.of(node, f"{Scenario.__name__}.{name}")
    for name, node in sorted(defs.items()):
        if name in types or name.startswith("Expected"):
            continue
        for key, sub in node.get("properties", {}).items():
            node["properties"][key] = opened.of(sub, f"{name}.{key}")
    defs.update(opened.defs)
    inlined = {name: types[name] for name in types if name != "Percentage"}
    schema = _inline(schema, inlined)
    schema["$defs"] = {name: node for name, node in sorted(schema["$defs"].items()) if name not in inlined}
    out: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "treaty-logic scenario",
        "version": SCHEMA_VERSION,
        "$comment": "\n".join(NOT_EXPRESSED),
    }
    out.update((k, v) for k, v in schema.items() if k not in out)
    result: dict[str, Any] = _sorted_deep(out, top=True)
    return result


def shipped_schema() -> dict[str, Any]:
    """The schema file shipped in the package."""
    data: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return data


def _resolve_types(node: Any) -> None:
    """Replace each :data:`SCHEMA_TYPE` placeholder by a ``$ref``; a map of States or ids names its keys."""
    if isinstance(node, list):
        for sub in node:
            _resolve_types(sub)
        return
    if not isinstance(node, dict):
        return
    if SCHEMA_TYPE in node:
        name = node.pop(SCHEMA_TYPE)
        node["$ref"] = _REF + name
    if node.get("type") == "string" and isinstance(node.get("pattern"), str):  # stripped before the check
        pattern: str = node["pattern"]
        if pattern.startswith("^") and pattern.endswith("$"):
            node["pattern"] = _spaced(pattern[1:-1])
    for sub in node.values():
        _resolve_types(sub)


def _inline(node: Any, types: dict[str, Any]) -> Any:
    """``node`` with each ``$ref`` to one of ``types`` replaced by its definition (a validator follows a
    ``$ref`` slowly: the small types written out make the schema three times faster to check against)."""
    if isinstance(node, list):
        return [_inline(v, types) for v in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref", "")
    if ref.startswith(_REF) and ref[len(_REF):] in types:
        rest = {k: v for k, v in node.items() if k != "$ref"}
        body = types[ref[len(_REF):]]
        if set(rest) & set(body) - {"description", "examples"}:
            return {**_inline(rest, types), "allOf": [_inline(body, types)]}
        return _inline({**body, **rest}, types)
    return {k: _inline(v, types) for k, v in node.items()}


def _discriminate(node: Any) -> None:
    """An expectation is a question's answer when it names ``residence`` or ``qualified``, else an item's
    (:func:`.document._expectation_kind`): ``if``/``then``/``else`` as the loader decides, not a ``oneOf``."""
    if isinstance(node, list):
        for sub in node:
            _discriminate(sub)
        return
    if not isinstance(node, dict):
        return
    answer, item = {"$ref": _REF + "ExpectedAnswer"}, {"$ref": _REF + "ExpectedItem"}
    if node.get("oneOf") in ([item, answer], [answer, item]):
        del node["oneOf"]
        node["if"] = {"type": "object", "anyOf": [{"required": ["residence"]}, {"required": ["qualified"]}]}
        node["then"], node["else"] = answer, item
    for sub in node.values():
        _discriminate(sub)


_OPEN_END = "a first or last day not known: opened by the loader, never one of a fact's alternatives"


def _plain_value(plain: dict[str, Any]) -> dict[str, Any]:
    """``plain`` without the ``unknown`` of a first or last day (:func:`_open_dates`): the loader opens a
    plain ``unknown`` there, not one given as an alternative or as a changeable fact's value."""
    branches = plain.get("anyOf")
    if not isinstance(branches, list) or not any(b.get("$comment") == _OPEN_END for b in branches):
        return plain
    kept = [b for b in branches if b.get("$comment") != _OPEN_END]
    return {**{k: v for k, v in plain.items() if k != "anyOf"}, **(kept[0] if len(kept) == 1 else {"anyOf": kept})}


def _open_dates(schema: dict[str, Any]) -> None:
    """The first and last days that may be given as plain ``unknown`` (:data:`.openfacts.OPEN_DATES`)."""
    defs = schema["$defs"]
    for shape in OPEN_DATES:
        node: dict[str, Any] = schema
        for part in shape:
            node = _unwrap(node, defs)
            if part is int:
                node = node["items"]
            elif part is str:
                node = node["additionalProperties"]
            else:
                node = node["properties"][part]
        model = _unwrap(node, defs)
        for field in ("from", "until"):
            if field in model["properties"]:
                sub = model["properties"][field]
                branches = sub["anyOf"] if "anyOf" in sub else [{k: v for k, v in sub.items() if k == "$ref"}]
                sub.pop("$ref", None)
                sub["anyOf"] = [*branches, {"const": UNKNOWN, "$comment": _OPEN_END}]


def _unwrap(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """The schema ``node`` stands for: through a ``$ref``, or the one branch of an optional value that is not null."""
    while True:
        if "$ref" in node:
            node = defs[node["$ref"][len(_REF):]]
        elif "anyOf" in node:
            (node,) = [b for b in node["anyOf"] if b.get("type") != "null"]
        else:
            return node


class _Alternatives:
    """The schemas of values the loader also reads as alternatives (:mod:`.openfacts`), one definition per
    distinct schema (named after the first field that has it)."""

    def __init__(self, defs: dict[str, Any]) -> None:
        self.known = defs
        self.defs: dict[str, Any] = {}
        self.names: dict[str, str] = {}

    def of(self, node: dict[str, Any], where: str) -> dict[str, Any]:
        """``node`` (the schema of the field ``where``) where a value may also be given as alternatives."""
        annotations: dict[str, Any] = {k: node[k] for k in ("description", "default", "title", "examples")
                                       if k in node}
        plain = {k: v for k, v in node.items() if k not in annotations}
        if isinstance(plain.get("items"), dict):
            plain["items"] = self.of(plain["items"], where + "[]")
        if isinstance(plain.get("additionalProperties"), dict):
            plain["additionalProperties"] = self.of(plain["additionalProperties"], where + ".*")
        for branch in plain.get("anyOf", []):
            if isinstance(branch.get("items"), dict):
                branch["items"] = self.of(branch["items"], where + "[]")
            if isinstance(branch.get("additionalProperties"), dict):
                branch["additionalProperties"] = self.of(branch["additionalProperties"], where + ".*")
        key = json.dumps(plain, sort_keys=True)
        if key not in self.names:
            name = "open " + where
            self.names[key] = name
            self.defs[name] = self._open(plain)
        return {**annotations, "$ref": _REF + self.names[key]}

    def _open(self, written: dict[str, Any]) -> dict[str, Any]:
        plain = _plain_value(written)
        listed = {"type": "array", "minItems": 2, "maxItems": MAX_VALUES, "uniqueItems": True, "items": plain}
        if _admits(plain, self.known, "map"):  # a map of ids: {one_of: ...} is a marker, not an id
            first: dict[str, Any] = {"allOf": [written], "not": {"$ref": _REF + "OpenFact"}}
        else:  # nothing else takes a map of the markers' keys alone (a model forbids unknown fields)
            first = written
        branches: list[dict[str, Any]] = [
            first,
            {"type": "object", "properties": {"one_of": listed}, "required": ["one_of"],
             "additionalProperties": False},
        ]
        ranges: list[dict[str, Any]] = []
        if _admits(plain, self.known, "integer"):
            ranges.append({"items": {"allOf": [{"type": "integer"}, plain]}})
        if _admits(plain, self.known, "date"):
            ranges.append({"items": {"type": "string", "pattern": f"^(?:{_DATE}|{_BASIC_DATE}){_END}"}})
        if ranges:
            bounds = {"type": "array", "minItems": 2, "maxItems": 2, "anyOf": ranges}
            branches.append({"type": "object", "properties": {"between": bounds}, "required": ["between"],
                             "additionalProperties": False})
        changes = {"anyOf": [{"const": True}, {**listed, "minItems": 1}]}
        branches.append({"type": "object", "properties": {"value": plain, "changeable": changes},
                         "required": ["value", "changeable"], "additionalProperties": False})
        return {"anyOf": branches}


def _admits(node: Any, defs: dict[str, Any], kind: str) -> bool:
    """Whether ``node`` accepts some integers (``kind`` integer), every ISO date (``kind`` date) or is a map
    of ids (``kind`` map)."""
    if not isinstance(node, dict):
        return False
    if "$ref" in node:
        name = node["$ref"][len(_REF):]
        if kind == "date":  # every ISO date is a date, an id, a text
            return name in ("Date", "Id", "Text")
        return name in ("Percentage", "Amount", "NonNegativeAmount", "PositiveAmount", "Rate", "PositiveRate")
    if "anyOf" in node:
        return any(_admits(b, defs, kind) for b in node["anyOf"])
    if kind == "map":
        return node.get("propertyNames") == {"$ref": _REF + "Id"}
    if kind == "integer":
        return node.get("type") in ("integer", "number")
    return node.get("type") == "string" and not ({"pattern", "enum", "const", "maxLength"} & set(node))


def _sorted_deep(node: Any, top: bool = False) -> Any:
    """The keys of every schema object sorted (the top's order kept), for a stable file; lists keep their order."""
    if isinstance(node, list):
        return [_sorted_deep(v) for v in node]
    if not isinstance(node, dict):
        return node
    items = node.items() if top else sorted(node.items())
    return {k: _sorted_deep(v) for k, v in items}
