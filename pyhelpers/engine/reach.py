"""Which rules can fire given a scenario's facts: the slice of the rule base the fast path grounds.

:meth:`Logic.reachable` works over predicates: a rule is kept when every predicate of its positive
body can be true. This module refines it with the constants of the atoms. An atom is abstracted to its
predicate and, for each argument, a constant or "any value" (``None``). A scenario's fact keeps a
symbolic constant (the scenario writes them from closed lists: kinds, income types, States), and a
string or number only where some rule's positive body compares that argument with a constant: the
ids of persons and items, dates and amounts become "any value", so scenarios of the same shape share
their slice. The analysis then derives, to a least fixpoint, the abstract atoms each rule's head can
take from the abstract atoms its positive body can join with (a variable bound to a constant in one
body atom must meet that constant, or "any value", in the others), and keeps the rules whose positive
body can join at all.

It over-approximates: negative literals, comparisons and aggregates are taken to hold, a head argument
that is not a constant or a variable bound to one is "any value", and a rule whose joins grow past a
bound forgets its bindings. A rule left out can therefore never fire on the facts, and the answer set
is that of the whole rule base (a test compares them on every scenario).
"""

from __future__ import annotations

import re
from collections import defaultdict, deque
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyhelpers.engine.statements import Statement

Key = tuple[str, int]
Abstract = tuple[str | None, ...]
AbstractFacts = frozenset[tuple[Key, Abstract]]

_ANY, _CONST, _VAR = 0, 1, 2
_SYMBOL = re.compile(r"_*[a-z][A-Za-z0-9_']*")
"""A symbolic constant (kept in a scenario's abstract facts)."""
_JOIN_BOUND = 512
"""Partial joins of one rule beyond this many bindings are replaced by one binding that knows nothing."""


def _compile(args: Sequence[str]) -> tuple[tuple[int, str | None], ...]:
    out: list[tuple[int, str | None]] = []
    for a in args:
        if a[0] == "=":
            out.append((_CONST, a[1:]))
        elif a[0] == "?":
            out.append((_VAR, a[1:]))
        else:
            out.append((_ANY, None))
    return tuple(out)


def split_fact(text: str) -> tuple[str, list[str]]:
    """``p("a", b, f(1, 2)).`` → ``("p", ['"a"', 'b', 'f(1, 2)'])``: the top-level arguments as written."""
    open_at = text.index("(")
    name = text[:open_at].strip()
    args: list[str] = []
    depth = 0
    start = open_at + 1
    in_string = False
    j = start
    n = len(text)
    while j < n:
        c = text[j]
        if in_string:
            if c == "\\":
                j += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                args.append(text[start:j].strip())
                break
            depth -= 1
        elif c == "," and depth == 0:
            args.append(text[start:j].strip())
            start = j + 1
        j += 1
    return name, args


class Abstraction:
    """How scenario facts are abstracted: for each predicate some positive body names, the constants
    each argument is compared with (computed from the statements, or read from the disk cache)."""

    def __init__(self, constants: dict[Key, list[set[str]]]) -> None:
        self.constants = constants
        self._facts: dict[str, tuple[Key, Abstract] | None] = {}

    @staticmethod
    def of(statements: Sequence[Statement]) -> Abstraction:
        constants: dict[Key, list[set[str]]] = {}
        for s in statements:
            for key, args in zip(s.positive, s.body_args or (), strict=False):
                slots = constants.setdefault(key, [set() for _ in range(key[1])])
                for k, a in enumerate(args):
                    if a[0] == "=":
                        slots[k].add(a[1:])
        return Abstraction(constants)

    def to_json(self) -> list[Any]:
        return [[name, arity, [sorted(slot) for slot in slots]] for (name, arity), slots in self.constants.items()]

    @staticmethod
    def from_json(data: Any) -> Abstraction | None:
        try:
            return Abstraction({(str(name), int(arity)): [{str(c) for c in slot} for slot in slots]
                                for name, arity, slots in data})
        except (TypeError, ValueError):
            return None

    def abstract(self, fact: str) -> tuple[Key, Abstract] | None:
        """A scenario fact as the analysis sees it (None when no positive body names its predicate)."""
        hit = self._facts.get(fact, False)
        if hit is not False:
            return hit  # type: ignore[return-value]
        name, args = split_fact(fact)
        key = (name, len(args))
        slots = self.constants.get(key)
        out = None if slots is None else (key, tuple(a if a in slots[k] or _SYMBOL.fullmatch(a) else None
                                                     for k, a in enumerate(args)))
        if len(self._facts) > 200_000:
            self._facts.clear()
        self._facts[fact] = out
        return out

    def abstract_facts(self, facts: Iterable[str]) -> AbstractFacts:
        return frozenset(a for a in map(self.abstract, facts) if a is not None)


class Reach:
    """The constant-aware reachability analysis over a rule base's statements."""

    def __init__(self, statements: Sequence[Statement]) -> None:
        self.statements = statements
        self.body = [tuple(_compile(a) for a in s.body_args) if s.body_args is not None else None
                     for s in statements]
        self.head = [_compile(s.head_args) if s.head_args is not None and s.head is not None else None
                     for s in statements]
        self.needed = [self._needed(i) for i in range(len(statements))]

    def _needed(self, i: int) -> tuple[frozenset[str], ...]:
        """For each body atom of statement ``i``, the variables still needed after it (by the atoms
        after it or the head): the partial joins keep only those."""
        body = self.body[i]
        if body is None:
            return ()
        later: set[str] = {v for kind, v in (self.head[i] or ()) if kind == _VAR and v is not None}
        out: list[frozenset[str]] = []
        for args in reversed(body):
            out.append(frozenset(later))
            later |= {v for kind, v in args if kind == _VAR and v is not None}
        return tuple(reversed(out))

    def reachable(self, chosen: Sequence[int], facts: AbstractFacts) -> frozenset[int]:
        """Of the statements ``chosen``, those to keep given the abstract input ``facts``."""
        stmts = self.statements
        atoms: dict[Key, set[Abstract]] = defaultdict(set)
        for key, args in facts:
            atoms[key].add(args)
        rules: list[int] = []
        for i in chosen:
            s = stmts[i]
            if s.is_fact:
                if s.head is not None and (head := self.head[i]) is not None:
                    atoms[s.head].add(tuple(v for _, v in head))
            elif self.body[i]:
                rules.append(i)
        readers: dict[Key, list[int]] = defaultdict(list)
        for i in rules:
            for key in set(stmts[i].positive):
                readers[key].append(i)
        fires: set[int] = set()
        queue = deque(rules)
        queued = set(rules)
        while queue:
            i = queue.popleft()
            queued.discard(i)
            envs = self._join(i, atoms)
            if not envs:
                continue
            fires.add(i)
            head = self.head[i]
            head_key = stmts[i].head
            if head is None or head_key is None:
                continue
            have = atoms[head_key]
            grew = False
            for env in envs:
                h = tuple(v if kind == _CONST else env.get(v) if kind == _VAR else None  # type: ignore[arg-type]
                          for kind, v in head)
                if h not in have:
                    have.add(h)
                    grew = True
            if grew:
                for j in readers.get(head_key, ()):
                    if j not in queued:
                        queued.add(j)
                        queue.append(j)
        return frozenset(i for i in chosen if stmts[i].is_fact or not self.body[i] or i in fires)

    def _join(self, i: int, atoms: dict[Key, set[Abstract]]) -> list[dict[str, str | None]]:
        """The bindings (projected on the variables still needed) under which the positive body of
        statement ``i`` can hold."""
        body = self.body[i]
        assert body is not None
        keys = self.statements[i].positive
        envs: list[dict[str, str | None]] = [{}]
        for args, key, needed in zip(body, keys, self.needed[i], strict=True):
            candidates = atoms.get(key)
            if not candidates:
                return []
            out: list[dict[str, str | None]] = []
            seen: set[tuple[tuple[str, str | None], ...]] = set()
            for env in envs:
                for values in candidates:
                    e = _match(args, values, env)
                    if e is None:
                        continue
                    projected = {v: x for v, x in e.items() if v in needed}
                    mark = tuple(sorted(projected.items(), key=lambda kv: kv[0]))
                    if mark not in seen:
                        seen.add(mark)
                        out.append(projected)
            if not out:
                return []
            envs = out if len(out) <= _JOIN_BOUND else [{}]
        return envs


def _match(args: tuple[tuple[int, str | None], ...], values: Abstract,
           env: dict[str, str | None]) -> dict[str, str | None] | None:
    """``env`` extended so that the body atom's ``args`` meet the abstract atom ``values``, or None."""
    out = env
    copied = False
    for (kind, a), v in zip(args, values, strict=True):
        if kind == _ANY:
            continue
        if kind == _CONST:
            if v is not None and v != a:
                return None
            continue
        assert a is not None
        if a in out:
            bound = out[a]
            if bound is not None:
                if v is not None and v != bound:
                    return None
                continue
            if v is None:
                continue
        if not copied:
            out = dict(out)
            copied = True
        out[a] = v
    return out
