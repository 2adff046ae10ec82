"""Errors in input: line numbers of the YAML nodes by path, and pydantic's validation errors turned into
problems that name the file, line, field, what was expected and what was found."""

from __future__ import annotations

import dataclasses
import difflib
import re
from typing import Any

from pydantic import ValidationError

from pyhelpers.base.errors import Problem
from pyhelpers.scenario.common import shown


class LineMap:
    """Line numbers of the YAML nodes, by path (``("income", 0, "payer")``), recorded by
    :func:`pyhelpers.scenario.reading.parse_yaml`."""

    def __init__(self) -> None:
        self.lines: dict[tuple[Any, ...], int] = {}

    def line(self, path: tuple[Any, ...]) -> int | None:
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get(())


def field_path(path: tuple[Any, ...]) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(document)"


def describe(value: Any) -> str:
    return "nothing" if value is None else shown(value)


_EXPECTED_BY_TYPE = {
    "missing": "this required field",
    "extra_forbidden": "no such field (check the spelling; see `treaty schema`)",
    "date_from_datetime_parsing": "a real date YYYY-MM-DD",
    "date_parsing": "a real date YYYY-MM-DD",
    "date_type": "a real date YYYY-MM-DD",
    "literal_error": "",
    "bool_type": "true or false",
}


def _clean_loc(loc: tuple[Any, ...]) -> tuple[Any, ...]:
    # pydantic adds the union branch ("list[...]", "literal[...]") and "[key]" markers to loc: drop them
    out: list[Any] = []
    for part in loc:
        if isinstance(part, str) and ("[" in part or part in ("function-before", "function-after", "bool")):
            continue
        if len(out) == 2 and out[0] == "expect" and part in ("item", "answer"):
            continue  # the tag of an expectation's kind (an item's outcome or a question's answer)
        out.append("from" if part == "from_" else part)
    return tuple(out)


def problems_from_validation(err: ValidationError, source: str, lines: LineMap, data: Any) -> list[Problem]:
    problems: dict[tuple[Any, ...], Problem] = {}
    for e in err.errors(include_url=False):
        loc = _clean_loc(tuple(e["loc"]))
        if loc in problems:  # union branches report the same field several times: keep the first
            first = problems[loc]
            if first.expected == "true or false" and e["type"] == "literal_error":  # a flag that may be unknown
                problems[loc] = dataclasses.replace(
                    first, expected="true, false or " + e["ctx"]["expected"].replace("'", ""))
            continue
        at = loc
        expected = _EXPECTED_BY_TYPE.get(e["type"]) or e["msg"]
        found = "nothing" if e["type"] == "missing" else describe(e.get("input"))
        if e["type"] == "distinct_keys":  # two keys of a map that are one once normalised: name the second
            ctx = e["ctx"]
            at = (*loc, ctx["key"])
            found = f"{ctx['key']!r}, the same {ctx['what']} as {ctx['first']!r}"
        if e["type"] == "string_too_short" and e["ctx"].get("min_length") == 1:
            expected = "a text that is not empty"
        if e["type"] == "string_pattern_mismatch" and "x1f" in str(e["ctx"].get("pattern")):  # the Id type's
            expected = "an id without control characters"
        if e["type"] in ("greater_than_equal", "less_than_equal"):
            bound = e["ctx"].get("ge", e["ctx"].get("le"))
            expected = f"a number {'at least' if e['type'] == 'greater_than_equal' else 'at most'} {bound}"
        if e["type"] == "literal_error":
            expected = "one of " + e["ctx"]["expected"].replace("'", "")
        if expected.startswith("Value error, "):
            expected = expected[len("Value error, ") :]
        expected = re.sub(r", found .*$", "", expected)
        problems[loc] = Problem(source, lines.line(at), field_path(at), expected, found)
    return list(problems.values())


def suggest(value: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(value, choices, n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else f"known: {', '.join(sorted(choices)[:8]) or 'none'}"
