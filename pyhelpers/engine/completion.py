"""Facts given as plain ``unknown`` completed with every value their field may take (issue 23).

The rules answer a fact given as ``unknown`` three-valued: the item ``depends`` on it. Whether it really
does is a question for the engine, not for the order of the rules: each such fact whose field has a
listable set of values (a yes/no, an enumeration) is opened as alternatives of all those values and the
scenario is solved once over every combination (:func:`pyhelpers.engine.alternatives.check_open`: brave
and cautious consequences). A conclusion of an item that holds in every completion is certain; an item
whose conclusions are the same for every value is decided, and the facts it was reported to depend on
are listed as ``not_needed``; otherwise its alternatives name the facts and values that decide it.

A field whose values cannot be listed (a date, a percentage, a list of States) stays three-valued; so do
the last ones of a scenario (in document order) whose combinations would exceed
:data:`pyhelpers.scenario.openfacts.MAX_COMBINATIONS`.
"""

from __future__ import annotations

from typing import Any

from pyhelpers.base.errors import ScenarioError
from pyhelpers.engine.domains import every_value, is_state, keyed_by_state, leaf_annotation
from pyhelpers.scenario import Scenario
from pyhelpers.scenario.catalogue import catalogue
from pyhelpers.scenario.openfacts import MAX_COMBINATIONS, OpenFact, readable_name

UNKNOWN = "unknown"


def _valid(scenario: Scenario, path: tuple[Any, ...], value: Any) -> bool:
    """Whether the scenario is valid with ``value`` at ``path`` (a kind of place that takes no agent's
    facts, say, is not one of the values the fact may have)."""
    try:
        scenario.with_values({path: value}, keep_unknown=True)
    except ScenarioError:
        return False
    return True


_OTHER_STATES = ("us", "fr", "de", "jp", "ca", "it", "es", "nl")
"""Candidates for a State the scenario does not name (the first not named stands for any such State)."""


def _states(scenario: Scenario, data: Any) -> list[str]:
    """The States a State-valued unknown fact may be: the treaty's Contracting States, every other State
    the scenario names (a State may matter by being the same as another fact's), and one it does not."""
    named: list[str] = list(catalogue().states.get(scenario.treaty, ()))

    def visit(node: Any, path: tuple[Any, ...]) -> None:
        if isinstance(node, dict):
            if path and path[0] != "expect" and keyed_by_state(leaf_annotation(path)):
                named.extend(str(k).lower() for k in node)
            for key, value in node.items():
                visit(value, (*path, key))
        elif isinstance(node, list):
            for n, value in enumerate(node):
                visit(value, (*path, n))
        elif isinstance(node, str) and node != UNKNOWN and path and path[0] != "expect" \
                and is_state(leaf_annotation(path)):
            named.append(node.lower())

    visit(data, ())
    other = next(s for s in _OTHER_STATES if s not in named)
    return [*dict.fromkeys(named), other]


def unknown_values(scenario: Scenario) -> tuple[OpenFact, ...]:
    """The facts ``scenario`` gives as plain ``unknown`` whose every value can be listed, as open facts
    over those values, in document order while their combinations, with those of the scenario's own
    alternatives, stay within the limit."""
    data = scenario._plain_data if scenario._plain_data is not None else scenario.model_dump(
        mode="json", by_alias=True, exclude_unset=True)
    found: list[OpenFact] = []
    states = _states(scenario, data)

    def visit(node: Any, path: tuple[Any, ...]) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if path or key != "expect":
                    visit(value, (*path, key))
        elif isinstance(node, list):
            for n, value in enumerate(node):
                visit(value, (*path, n))
        elif node == UNKNOWN and path:
            values = [v for v in every_value(leaf_annotation(path), states) or [] if _valid(scenario, path, v)]
            if values:  # one value only: the other facts given leave no other
                found.append(OpenFact(path, readable_name(data, path), "unknown", tuple(values), completed=True))

    visit(data, ())
    combinations = 1
    for f in scenario.unknowns:
        combinations *= len(f.values)
    opened: list[OpenFact] = []
    for f in found:  # in document order, as many as the combinations allow
        if combinations * len(f.values) <= MAX_COMBINATIONS:
            combinations *= len(f.values)
            opened.append(f)
    return tuple(opened)

