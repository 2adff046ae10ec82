"""Reading scenario YAML: a safe, plain subset of YAML, within budgets fixed before anything is expanded.

* **Budgets.** A file of at most :data:`MAX_BYTES` (never read further), at most :data:`MAX_DEPTH` levels of
  nesting, at most :data:`MAX_ALIASES` aliases and at most :data:`MAX_VALUES` values once every alias is
  expanded (counted on the composed nodes, before any data is built: a "billion laughs" file is refused
  in milliseconds), no alias that contains itself, and no number written with more than
  :data:`~pyhelpers.scenario.common.NUMBER_CHARS` characters (``int("9" * 5000)``).
* **Plain YAML.** No tags (``!!timestamp x``, ``!!binary``, ``!foo``), no merge keys (``<<: *base``, which
  would silently copy fields), no key that is a list or a map, no key twice.
* **YAML 1.2's core scalars** instead of YAML 1.1's: ``true``/``false`` are the only booleans (``no``, ``on``
  and ``y`` stay text, so a State ``no`` is Norway and ``direct: no`` is refused by the model), integers are
  decimal (``010`` is ten, never octal eight; ``1_000``, ``0x1F`` and ``1:30`` stay text), and timestamps
  are not read at all: dates stay text, which the models check (``2023-02-29``, ``0``, a datetime).
* **Floats keep their text** (:class:`~pyhelpers.scenario.common.YamlFloat`): a percentage is read from what
  was written (``24.999999999999999`` has more than two decimals, although the float is 25.0).

Every refusal is a :class:`~pyhelpers.base.errors.Problem` naming the file, the line and the field.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from pyhelpers.base.errors import Problem, ScenarioError
from pyhelpers.scenario.common import NUMBER_CHARS, YamlFloat
from pyhelpers.scenario.problems import LineMap, field_path

MAX_BYTES = 1_000_000
"""The largest scenario (or batch context) file read; a longer text is refused unread."""

MAX_DEPTH = 40
"""The deepest nesting of lists and maps (a scenario needs about ten levels)."""

MAX_ALIASES = 1_000
"""The most aliases (``*name``) in one document."""

MAX_VALUES = 50_000
"""The most values (texts, numbers, lists, maps) in one document once its aliases are expanded."""

_TAGS = "tag:yaml.org,2002:"
_NUMBERS = (_TAGS + "int", _TAGS + "float")


class _Refused(yaml.YAMLError):
    """A budget exceeded while composing: what was expected, what was found, and where."""

    def __init__(self, event: yaml.Event, expected: str, found: str) -> None:
        super().__init__(expected)
        mark = event.start_mark
        self.line = mark.line + 1 if mark is not None else None
        self.expected, self.found = expected, found


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader with YAML 1.2's core scalars, floats that keep their text, and the budgets of
    nesting and aliases enforced while composing (explicit tags are noted, refused by :func:`_check`)."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.depth = 0
        self.aliases = 0
        self.tagged: dict[int, str] = {}

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        event: yaml.Event = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, yaml.AliasEvent):
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise _Refused(event, f"at most {MAX_ALIASES:,} aliases (*name)", "more")
            return super().compose_node(parent, index)
        if self.depth >= MAX_DEPTH:
            raise _Refused(event, f"at most {MAX_DEPTH} levels of nesting", "deeper nesting")
        tag: str | None = getattr(event, "tag", None)
        self.depth += 1
        try:
            node = super().compose_node(parent, index)
        finally:
            self.depth -= 1
        if tag is not None and node is not None:
            self.tagged[id(node)] = tag
        return node


def _construct_int(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
    return int(str(node.value))  # decimal only (the resolver's pattern); its length is checked before


def _construct_float(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> YamlFloat:
    text = str(node.value)
    body = text.lstrip("+-").lower()
    value = float(text[: len(text) - len(body)] + body[1:]) if body in (".inf", ".nan") else float(text)
    return YamlFloat(value, text)


_Loader.yaml_implicit_resolvers = {}
for _tag, _pattern, _first in (
    ("null", r"~|null|Null|NULL|", ["~", "n", "N", ""]),
    ("bool", r"true|True|TRUE|false|False|FALSE", list("tTfF")),
    ("int", r"[-+]?[0-9]+", list("-+0123456789")),
    ("float", r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)",
     list("-+0123456789.")),
):
    _Loader.add_implicit_resolver(_TAGS + _tag, re.compile(f"^(?:{_pattern})$"), _first)
_Loader.add_constructor(_TAGS + "int", _construct_int)
_Loader.add_constructor(_TAGS + "float", _construct_float)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _measure(root: yaml.Node) -> tuple[int, int] | None:
    """The number of values and the depth of ``root`` with every alias expanded, counted on the node
    graph (each shared node once, without recursion); None if an alias contains itself. The count stops
    just above :data:`MAX_VALUES`."""
    done: dict[int, tuple[int, int]] = {}
    started: set[int] = set()  # the ancestors of the node being looked at (an iterative depth-first walk)
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, finish = stack.pop()
        key = id(node)
        if finish:
            kids = [done[id(k)] for k in _children(node)]
            done[key] = (min(MAX_VALUES + 1, 1 + sum(n for n, _ in kids)), 1 + max((d for _, d in kids), default=0))
            started.discard(key)
        elif key in started:
            return None
        elif key not in done:
            started.add(key)
            stack.append((node, True))
            stack.extend((k, False) for k in _children(node))
    return done[id(root)]


def _tag_name(tag: str) -> str:
    return "!!" + tag[len(_TAGS):] if tag.startswith(_TAGS) else tag


def _check(node: yaml.Node, path: tuple[Any, ...], lines: LineMap, tagged: dict[int, str],
           refuse: list[tuple[tuple[Any, ...], int, str, str]]) -> None:
    """Record the line of every path; note what plain YAML refuses (the walk's depth is within budget)."""
    line = node.start_mark.line + 1
    lines.lines[path] = line
    if id(node) in tagged:
        refuse.append((path, line, "plain YAML without tags", f"the tag {_tag_name(tagged[id(node)])}"))
        return
    if isinstance(node, yaml.ScalarNode):
        text = str(node.value)
        if node.tag in _NUMBERS and len(text) > NUMBER_CHARS:
            refuse.append((path, line, f"a number of at most {NUMBER_CHARS} characters",
                           f"a number of {len(text):,} characters"))
    elif isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key, value in node.value:
            key_line = key.start_mark.line + 1
            if not isinstance(key, yaml.ScalarNode):
                kind = "a list" if isinstance(key, yaml.SequenceNode) else "a map"
                refuse.append((path, key_line, "a key that is a name, an id or a State", f"{kind} as a key"))
                continue
            k = str(key.value)
            if k == "<<" and key.style is None:
                refuse.append(((*path, k), key_line, "no YAML merge key (<<): write each field out", "<<"))
                continue
            if k in seen:
                refuse.append(((*path, k), key_line, "each key once", f"{k!r} repeated"))
            seen.add(k)
            lines.lines[(*path, k)] = key_line
            if id(key) in tagged or key.tag in _NUMBERS:
                _check(key, (*path, k), lines, tagged, refuse)
            _check(value, (*path, k), lines, tagged, refuse)
    elif isinstance(node, yaml.SequenceNode):
        for i, value in enumerate(node.value):
            _check(value, (*path, i), lines, tagged, refuse)


def _sizes(root: yaml.Node) -> str:
    """What makes a large scenario large: its counts of income items and persons, as a hint (none if it
    lists neither)."""
    if not isinstance(root, yaml.MappingNode):
        return ""
    counts = {str(k.value): len(v.value) for k, v in root.value if isinstance(k, yaml.ScalarNode)
              and str(k.value) in ("income", "persons") and isinstance(v, (yaml.SequenceNode, yaml.MappingNode))}
    if not counts:
        return ""
    listed = " and ".join(f"{n:,} {'income items' if k == 'income' else 'persons'}" for k, n in sorted(counts.items()))
    return f"the scenario lists {listed}: split it, or give the payments as a ledger to `treaty batch`"


def parse_yaml(text: str, source: str) -> tuple[Any, LineMap]:
    """The data of one YAML document and the line of each path in it; raises :class:`ScenarioError` for
    a document that is not well-formed, exceeds a budget or is not plain YAML."""
    if len(text) > MAX_BYTES:
        raise ScenarioError([Problem(source, None, "(document)", f"a text of at most {MAX_BYTES:,} characters",
                                     f"{len(text):,} characters")])
    lines = LineMap()
    try:
        loader = _Loader(text)  # the reader refuses a character YAML does not allow (NUL, U+000B) at once
    except yaml.YAMLError as err:
        raise ScenarioError([Problem(source, _line_of(text, getattr(err, "position", None)), "(syntax)",
                                     "well-formed YAML", str(getattr(err, "reason", None) or err).split("\n")[0]
                                     + _character(err))]) from None
    try:
        node = loader.get_single_node()
        if node is None:
            return None, lines
        measured = _measure(node)
        if measured is None:
            raise ScenarioError([Problem(source, node.start_mark.line + 1, "(document)",
                                         "aliases that do not contain themselves", "a recursive alias")])
        values, depth = measured
        if values > MAX_VALUES or depth > MAX_DEPTH:
            found = f"more than {MAX_VALUES:,} values" if values > MAX_VALUES else f"{depth} levels"
            raise ScenarioError([Problem(source, node.start_mark.line + 1, "(document)",
                                         f"at most {MAX_VALUES:,} values and {MAX_DEPTH} levels of nesting once "
                                         "the aliases are expanded", found, _sizes(node))])
        refuse: list[tuple[tuple[Any, ...], int, str, str]] = []
        _check(node, (), lines, loader.tagged, refuse)
        if refuse:
            raise ScenarioError([Problem(source, line, field_path(path), expected, found)
                                 for path, line, expected, found in refuse])
        return loader.construct_document(node), lines
    except _Refused as err:
        raise ScenarioError([Problem(source, err.line, "(document)", err.expected, err.found)]) from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(err, "problem", None) or str(err)
        raise ScenarioError([Problem(source, line, "(syntax)", "well-formed YAML", str(problem))]) from None
    finally:
        loader.dispose()


def _line_of(text: str, position: int | None) -> int | None:
    return text.count("\n", 0, position) + 1 if isinstance(position, int) else None


def _character(err: yaml.YAMLError) -> str:
    character = getattr(err, "character", None)  # the reader's: the character's code point
    return f" (the character U+{character:04X})" if isinstance(character, int) else ""


def read_file(path: str | Path, what: str) -> str:
    """The text of a scenario file (``what``: "scenario", "context"), read no further than
    :data:`MAX_BYTES`; raises :class:`ScenarioError` for a missing, oversized or undecodable file."""

    def refused(expected: str, found: str) -> ScenarioError:
        return ScenarioError([Problem(str(path), None, "(file)", expected, found)])

    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise refused(f"an existing {what} file", "no such file") from None
    except IsADirectoryError:
        raise refused(f"an existing {what} file", "a directory") from None
    except PermissionError:
        raise refused(f"a readable {what} file", "no permission to read it") from None
    if len(data) > MAX_BYTES:
        raise ScenarioError([Problem(str(path), None, "(file)", f"a {what} file of at most {MAX_BYTES:,} bytes",
                                     "a larger file", "split it, or give the payments as a ledger to `treaty batch`")])
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise refused("UTF-8 text", "undecodable bytes") from None
