"""Which provisions read a fact: the provisions of the first rules, on each path of the rule base's
dependency graph from the fact's predicates, whose annotation names a provision of the treaty.

A fact given as alternatives that decides an item is cited by the provisions whose conditions read it,
not by the whole treaty. The graph is the rule base's, read from the rules' texts: a rule reads every
predicate named in its body (positive or negated, in a comparison's term or an aggregate's condition).
From the fact's predicates the walk goes on through rules of the shared vocabulary (``logic/core/``,
annotated ``(core)``) and rules whose provision is a variable (``{Prov}``), and stops at a rule annotated
with a provision of the treaty: that provision reads the fact. The caller keeps, of these, those that
some alternative of the item rests on (the provisions at which the alternatives part ways)."""

from __future__ import annotations

import re
from collections import defaultdict, deque
from collections.abc import Iterable
from dataclasses import dataclass

from pyhelpers.engine.program import PROVISION_RE, Logic
from pyhelpers.engine.slicing import _NAME_RE

_HEAD_RE = re.compile(r"\s*([a-z_][A-Za-z0-9_']*)\(")
_FACT_RE = re.compile(r"^([a-z_][A-Za-z0-9_']*)\((.*)\)\.[ \t]*(?:%.*)?$", re.MULTILINE)
_STRING_RE = re.compile(r'"([^"\\]*)"')


@dataclass(frozen=True)
class _Graph:
    readers: dict[str, tuple[tuple[str, str, tuple[str, ...]], ...]]
    """For each predicate name, the rules whose bodies read it: (head name, provision, body names)."""
    carried: dict[str, frozenset[str]]
    """For each predicate name, the provisions its facts carry as an argument (a treaty's first day of
    application, with the provision that sets it)."""


_GRAPHS: dict[str, _Graph] = {}
"""The graph of each rule base read so far, by its digest."""


def _graph(logic: Logic) -> _Graph:
    hit = _GRAPHS.get(logic.digest)
    if hit is not None:
        return hit
    readers: dict[str, set[tuple[str, str, tuple[str, ...]]]] = defaultdict(set)
    for rule in logic.rules:
        head_text, sep, body = rule.text.partition(":-")
        m = _HEAD_RE.match(head_text)
        if not sep or m is None:
            continue
        names = tuple(sorted(set(_NAME_RE.findall(body))))
        for name in names:
            readers[name].add((m.group(1), rule.provision, names))
    carried: dict[str, set[str]] = defaultdict(set)
    for lf in logic.files:
        for m in _FACT_RE.finditer(lf.source):
            carried[m.group(1)].update(t for t in _STRING_RE.findall(m.group(2)) if PROVISION_RE.match(t))
    if len(_GRAPHS) > 8:
        _GRAPHS.clear()
    hit = _GRAPHS[logic.digest] = _Graph({name: tuple(sorted(rs)) for name, rs in readers.items()},
                                         {name: frozenset(ps) for name, ps in carried.items()})
    return hit


def provisions_reading(logic: Logic, treaty: str, names: Iterable[str]) -> frozenset[str]:
    """The provisions of ``treaty`` whose rules first read the predicates ``names`` (see module doc)."""
    graph = _graph(logic)
    first = frozenset(names)
    seen = set(first)
    queue = deque(seen)
    found: set[str] = set()
    own = treaty + " "
    while queue:
        for head, provision, body in graph.readers.get(queue.popleft(), ()):
            if provision.startswith(own):
                found.add(provision)
                continue
            if provision.startswith("{") and first.intersection(body):  # the provision is an argument: that
                # of the facts read beside the fact's own (a treaty's date of application, read with a payment's)
                found.update(p for name in body for p in graph.carried.get(name, ()) if p.startswith(own))
            if head not in seen:
                seen.add(head)
                queue.append(head)
    return frozenset(found)
