"""Facts a scenario gives as alternatives (issue 7), read from the raw YAML before validation.

Anywhere a scenario gives a value, it may instead give

* ``{one_of: [A, B, ...]}`` — the value is **unknown**, one of the listed alternatives;
* ``{between: [LOW, HIGH]}`` — unknown, any integer or any date from LOW to HIGH (inclusive);
* ``{value: X, changeable: [A, B, ...]}`` — the value is X, and ``treaty whatif`` may change it to one
  of the alternatives; ``changeable: true`` lets whatif choose the alternatives itself.

The first or last day of a holding, a stay (``presence``) or a place of business (or one of its
``periods``) may also be given as plain ``unknown``: any day from the record's ``from`` on (an unknown
``until``), or any day up to its ``until`` (an unknown ``from``; with no ``until``, up to the evaluation
date). Such a date is open with no end: :mod:`pyhelpers.engine.critical` gives it by the days the rules
can tell apart (:attr:`OpenFact.open_end`).

:func:`extract` replaces each such marker by a plain value (the first alternative of an unknown, the
stated value of a changeable fact), so the ordinary loader validates the result; every alternative is
validated too (:func:`substitute` builds the data of any choice of values). Nothing here turns data
into program text: the facts of each alternative come from the audited fact functions of
:mod:`pyhelpers.atoms`.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from pyhelpers.base.errors import Problem
from pyhelpers.scenario.common import percent_points
from pyhelpers.scenario.problems import field_path

MAX_VALUES = 400
"""At most this many alternatives per fact (``one_of``, ``changeable``, a ``between`` range of integers)."""

MAX_COMBINATIONS = 1024
"""At most this many combinations of the unknown facts' alternatives in one part of a scenario (:func:`parts`:
the items that read a fact in common, and the facts they read); parts are decided apart."""

MAX_DAYS = MAX_COMBINATIONS
"""At most this many days in a ``between`` range of dates. The rules read such a range by its critical dates
(:mod:`pyhelpers.engine.critical`), so its length costs little in the solve (measured: a range of 1,000
days on a holding's first or last day is answered in about 0.1 s of CPU time, over about 100 values: the
representatives and the last day each stands for; loading validates each day, about 60 ms for 1,000 days);
the loader still counts a range's days among the combinations of the unknown facts (:data:`MAX_COMBINATIONS`),
so a longer range would be refused there.
A first or last day with no bound on one side is given as plain ``unknown`` instead."""

WHOLE = 10000
"""The whole of a company's capital, in basis points: a share opened up to less than it says its bound."""

_MARKERS = ({"one_of"}, {"between"}, {"value", "changeable"})

UNNAMED_STATE = "unnamed_state"
"""The value :meth:`OpenFact.listed` gives in place of the State that stands for any State the scenario does not
name (:attr:`OpenFact.stand_in`): the answers in words say "a State the scenario does not name", never the name of
the code chosen to stand for it (blind55b: "the United States" for any third State)."""


@dataclass(frozen=True)
class OpenFact:
    """A fact given as alternatives: where it is (the loader's path), its readable name, its values."""

    path: tuple[Any, ...]
    name: str  # e.g. holding(lusoinvest, alfa).until
    kind: str  # unknown | changeable
    values: tuple[Any, ...]  # unknown: the alternatives; changeable: the stated value first, then the others
    ranged: str = ""  # given as `between`: "date" or "int" (the values are every date or integer of a range)
    auto: bool = False  # changeable: true (whatif chooses the alternatives)
    high: Any = None  # a date range given by its critical dates (values): the range's last day
    line: int | None = None
    completed: bool = False  # given as plain `unknown`, opened over every value of its field (issue 23)
    not_given: bool = False  # completed, but left out of the scenario: a fact the rules report missing
    open_end: str = ""  # a date given as plain `unknown`: "later" (any day from values[0] on), "earlier" (up to it)
    stand_in: str | None = None  # a State-valued fact opened over every State: the code that stands for any State
    # the scenario does not name (the first of a few it does not); listed as UNNAMED_STATE

    def show(self, index: int) -> str:
        """Alternative ``index`` as the scenario wrote it."""
        return show_value(self.values[index])

    def last(self) -> Any:
        """The last value the fact may take: the range's last day when ``values`` are representatives."""
        return self.values[-1] if self.high is None else self.high

    def span(self) -> str:
        """All its values in words: ``from LOW to HIGH`` over a range, ``any list of A, B, C`` for a list given as
        ``unknown`` (:meth:`lists`), else a list."""
        if self.lists():
            return "any list of " + ", ".join(_elements(self.values))
        if self.open_end == "later":
            return f"any day from {self.show(0)} on"
        if self.open_end == "earlier":
            return f"any day up to {show_value(self.last())}"
        if self.ranged:
            return f"from {self.show(0)} to {show_value(self.last())}"
        return "one of " + ", ".join(self.show(i) for i in range(len(self.values)))

    def _until(self, index: int) -> Any:
        """The last value that alternative ``index`` stands for: itself, or over representatives of a
        range of dates the day before the next representative (the range's last day for the last one)."""
        if self.high is None or self.ranged != "date":
            return self.values[index]
        if index + 1 < len(self.values):
            return (date.fromisoformat(str(self.values[index + 1])) - timedelta(days=1)).isoformat()
        return self.high

    def listed(self, indices: set[int] | frozenset[int] | None = None) -> tuple[str, ...]:
        """The alternatives ``indices`` (default: all) one by one as the scenario wrote them, where
        :meth:`describe` (:meth:`span` for all) lists them one by one; empty where it writes a range, an open
        end or "any of its values"."""
        chosen = sorted(range(len(self.values)) if indices is None else indices)
        if self.ranged or self.open_end or (indices is not None and len(chosen) == len(self.values)):
            return ()
        return tuple(UNNAMED_STATE if self.stand_in is not None and self.values[i] == self.stand_in else self.show(i)
                     for i in chosen)

    def lists(self) -> bool:
        """Whether the fact is a list given as plain ``unknown`` and answered over lists of its elements
        (:func:`pyhelpers.engine.domains.representative_lists`): its alternatives are said by what the rules test
        of a list, the elements it holds (:func:`describe_lists`), never list by list."""
        return self.completed and bool(self.values) and all(isinstance(v, list) for v in self.values)

    def describe(self, indices: set[int] | frozenset[int]) -> str:
        """The alternatives ``indices`` in words: ``2026-03-14 or later`` over a range (each run of
        consecutive values as one interval), by the elements they hold for a list (:meth:`lists`), else a
        list."""
        chosen = sorted(indices)
        if len(chosen) == len(self.values):
            return "any of its values"
        if self.lists():
            return describe_lists(self.values, chosen)
        if self.open_end and len(self.values) == 1:
            return self.span()
        if not self.ranged:
            shown = [self.show(i) for i in chosen]
            return shown[0] if len(shown) == 1 else "one of " + ", ".join(shown)
        runs: list[list[int]] = []
        for i in chosen:
            if runs and runs[-1][-1] == i - 1:
                runs[-1].append(i)
            else:
                runs.append([i])
        if self.stands_for_shares():
            return self._describe_shares(runs)
        later, earlier = ("or later", "or earlier") if self.ranged == "date" else ("or more", "or less")
        words = []
        for run in runs:
            low, high = self.show(run[0]), show_value(self._until(run[-1]))
            beyond = run[-1] == len(self.values) - 1 and self.high is not None and self.ranged != "date" \
                and self.show(run[-1]) != show_value(self.high)  # the last value stands for those above it too
            if low == high and not beyond:
                words.append(low)
            elif run[-1] == len(self.values) - 1:
                words.append(f"{low} {later}")
            elif run[0] == 0:
                words.append(f"{high} {earlier}")
            else:
                words.append(f"from {low} to {high}")
        return words[0] if len(words) == 1 else "one of " + ", ".join(words)


    def stands_for_shares(self) -> bool:
        """Whether the fact is a share opened over representative percentages (a share of the capital the rules
        report missing, :func:`pyhelpers.engine.completion.open_shares`): each value stands for every share from it
        to the next one less a basis point, the last for every share up to :attr:`high`."""
        return (self.completed and self.ranged == "int" and self.high is not None
                and all(isinstance(v, str) and v.endswith("%") for v in (*self.values, self.high)))

    def _describe_shares(self, runs: Sequence[Sequence[int]]) -> str:
        """The runs of consecutive values of a share opened over representatives (:meth:`stands_for_shares`) in
        words, each as every share it stands for: ``less than B`` (from none), ``from A to B less a basis point``,
        ``A or more`` (to the largest share there may be, said where it is less than the whole: ``(at most H)``). No
        share between two values tried is left unsaid (issue 23: an answer that says nothing of the shares between
        two boundaries reads as complete where it is not)."""
        words = []
        for run in runs:
            low = self.show(run[0])
            if run[-1] == len(self.values) - 1:
                top = show_value(self.high)
                if low == top:
                    words.append(low)
                else:
                    words.append(f"{low} or more" + (f" (at most {top})" if percent_points(top) < WHOLE else ""))
                continue
            following = self.show(run[-1] + 1)
            if run[0] == 0:
                words.append(f"less than {following}")
                continue
            high = _basis_point_below(following)
            words.append(low if high == low else f"from {low} to {high}")
        return words[0] if len(words) == 1 else "one of " + ", ".join(words)


def _basis_point_below(share: str) -> str:
    """The percentage a basis point below ``share`` (a threshold T: T less a basis point), as a scenario writes
    it."""
    whole, _, fraction = share[:-1].partition(".")
    points = int(whole) * 100 + int((fraction + "00")[:2]) - 1
    return f"{points // 100}%" if points % 100 == 0 else f"{points // 100}.{points % 100:02d}%"


def _elements(values: Sequence[Any]) -> list[str]:
    """The elements of the lists ``values`` in the order they first appear."""
    return list(dict.fromkeys(show_value(e) for v in values for e in v))


_LISTED_UP_TO = 3
"""How many lists :func:`describe_lists` names one by one before it says every list but one as such (``any list but
[other]``): ``one of [], [pt], [br, pt]`` stays as it reads."""

_LIST_WORDS = 8
"""How many characters longer than the lists one by one :func:`describe_lists` lets the words of a test be: "a list
without br" rather than "one of [], [pt]", as its counterpart "a list with br" reads."""


def describe_lists(values: Sequence[Any], chosen: Sequence[int]) -> str:
    """The lists ``values[i]`` for ``i`` in ``chosen`` in words, by what the rules test of a list: whether it
    holds an element (``a list with other_business``, ``a list without br``) and whether it holds one element or
    several or none (``a list of several values, without other_business``), the fewest such tests (at most two)
    that hold of exactly the lists chosen among ``values``; where none does, or listing them is shorter (and
    none of them is all the elements but one, which stands for a combination), the lists one by one (issue 23:
    the critical distinction, not the 18 representative lists); every list but one, ``any list but [other]``,
    where that is shorter than the tests."""
    every = _elements(values)
    sets = [frozenset(show_value(e) for e in v) for v in values]
    want = frozenset(chosen)
    tests: list[tuple[str, frozenset[int]]] = []
    for size, said in ((0, "of no value"), (1, "of one value"), (2, "of several values")):
        tests.append((said, frozenset(i for i, s in enumerate(sets) if min(len(s), 2) == size)))
    for e in every:
        tests.append((f"with {e}", frozenset(i for i, s in enumerate(sets) if e in s)))
        tests.append((f"without {e}", frozenset(i for i, s in enumerate(sets) if e not in s)))

    def words(parts: Sequence[str]) -> str:
        size = [p for p in parts if p.startswith("of ")]
        rest = [p for p in parts if not p.startswith("of ")]
        return "a list" + (f" {size[0]}" if size else "") + ("," if size and rest else "") \
            + (" " + " and ".join(rest) if rest else "")

    found: str | None = None
    for wa, sa in tests:
        if sa == want:
            found = words([wa])
            break
    if found is None:
        for a, (wa, sa) in enumerate(tests):
            both = next((wb for wb, sb in tests[a + 1:] if sa & sb == want), None)
            if both is not None:
                found = words([wa, both])
                break

    def one(i: int) -> str:
        missing = [e for e in every if e not in sets[i]]
        return f"all but [{missing[0]}]" if len(every) > 2 and len(missing) == 1 else show_value(values[i])

    shown = [one(i) for i in chosen]
    listed = shown[0] if len(shown) == 1 else "one of " + ", ".join(shown)
    left = [i for i in range(len(values)) if i not in want]
    if len(left) == 1 and len(chosen) > _LISTED_UP_TO:  # every list but one: `services` but [other], `kinds` but []
        but = f"any list but {show_value(values[left[0]])}"
        if found is None or len(but) < len(found):
            return but
    if found is not None and (len(found) < len(listed) + _LIST_WORDS
                              or any(one(i).startswith("all but") for i in chosen)):
        return found  # "all but [other_business]" would name one list where the rules test a combination
    return listed  # ``[storage]``, ``[br, pt]``: a list the rules tell apart by itself is its own best words


def show_value(value: Any) -> str:
    if value is None:
        return "not stated"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(show_value(v) for v in value) + "]"
    return str(value)


def readable_name(data: Any, path: tuple[Any, ...]) -> str:
    """A name a user recognises: ``holding(lusoinvest, alfa).until``, ``income(div-2024).date``,
    ``presence(ana, br)[2].until``, else the loader's field notation (``persons.ana.habitual_abode``)."""
    head, rest = path[:2], path[2:]
    if len(path) >= 2 and isinstance(path[1], int) and isinstance(data, dict):
        rows = data.get(path[0])
        row = rows[path[1]] if isinstance(rows, list) and len(rows) > path[1] else None
        if isinstance(row, dict):
            label = {
                "holdings": lambda r: f"holding({r.get('holder')}, {r.get('company')})",
                "income": lambda r: f"income({r.get('id')})",
                "presence": lambda r: f"presence({r.get('person')}, {r.get('state')})",
            }.get(str(path[0]))
            if label is not None:
                tail = field_path(rest)
                return label(row) + ("" if not rest else ("." + tail if not tail.startswith("[") else tail))
    return field_path(head + rest)


_OPEN_DATES: tuple[tuple[str | type, ...], ...] = (("holdings", int), ("presence", int), ("places_of_business", str),
                                                  ("places_of_business", str, "periods", int),
                                                  ("places_of_business", str, "services", "periods", int))
"""The records whose ``from`` and ``until`` may be given as plain ``unknown``."""

OPEN_DATES = _OPEN_DATES


def open_date_field(path: tuple[Any, ...]) -> bool:
    """Whether ``path`` is the ``from`` or ``until`` of a record that may give it as plain ``unknown``."""
    return _open_date(path)


def _open_date(path: tuple[Any, ...]) -> bool:
    """Whether ``path`` is the ``from`` or ``until`` of one of :data:`_OPEN_DATES`."""
    if not path or path[-1] not in ("from", "until"):
        return False
    head = path[:-1]
    return any(len(head) == len(shape) and all(
        isinstance(part, want) if isinstance(want, type) else part == want
        for part, want in zip(head, shape, strict=True)) for shape in _OPEN_DATES)


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    node = data
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def _as_date(value: Any) -> date | None:
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value)
        except ValueError:
            return None
    return None


def _range(low: Any, high: Any) -> tuple[list[Any] | None, str]:
    """The values of ``between: [low, high]``, or None and what is wrong."""
    if isinstance(low, int) and isinstance(high, int) and not isinstance(low, bool) and not isinstance(high, bool):
        if low > high:
            return None, f"{low} > {high}"
        if high - low + 1 > MAX_VALUES:
            return None, f"{high - low + 1} integers"
        return list(range(low, high + 1)), ""
    d1, d2 = _as_date(low), _as_date(high)
    if d1 is not None and d2 is not None:
        if d1 > d2:
            return None, f"{low} after {high}"
        days = (d2 - d1).days + 1
        if days > MAX_DAYS:
            return None, f"{days:,} days"
        return [(d1 + timedelta(days=n)).isoformat() for n in range(days)], ""
    return None, f"[{show_value(low)}, {show_value(high)}]"


OTHER_END = "a date, or unknown with the record's other end given as a date"
"""What a first or last day given as ``unknown`` needs: a check across fields of a record (the schema
lists it in a ``$comment`` as beyond what it can say)."""


def extract(data: Any, source: str, line: Callable[[tuple[Any, ...]], int | None]
            ) -> tuple[Any, tuple[OpenFact, ...], list[Problem]]:
    """Find the markers in ``data``: the data with each replaced by a plain value, the open facts in
    document order, and the problems (a malformed marker names its field, what was expected and found)."""
    found: list[OpenFact] = []
    problems: list[Problem] = []

    def bad(path: tuple[Any, ...], expected: str, was: str) -> None:
        problems.append(Problem(source, line(path), field_path(path), expected, was))

    def visit(node: Any, path: tuple[Any, ...]) -> Any:
        if node == "unknown" and _open_date(path):
            return open_date(path)
        if isinstance(node, dict):
            keys = set(node)
            if keys in _MARKERS and path and path[0] not in ("expect", "name", "description"):
                return marker(node, path)
            return {k: visit(v, (*path, k)) for k, v in node.items()}
        if isinstance(node, list):
            return [visit(v, (*path, n)) for n, v in enumerate(node)]
        return node

    def open_date(path: tuple[Any, ...]) -> Any:
        """A first or last day given as ``unknown``: open from the record's ``from`` on, or up to its ``until``
        (else the evaluation date); the record's other end stands in for it until the dates are opened."""
        record = _at(data, path[:-1])
        field = path[-1]
        other = _as_date(record.get("until" if field == "from" else "from")) if isinstance(record, dict) else None
        both = isinstance(record, dict) and record.get("until" if field == "from" else "from") == "unknown"
        if both:  # the days of each end would turn on the other's: no day to count from
            if field == "until":
                bad(path, OTHER_END, "unknown, and `from` is unknown too: a record open at both ends has no day "
                    "the periods can be counted from; give one end as a date or as a range (between: [FIRST, LAST])")
            return None
        if field == "from" and other is None:
            other = _as_date(data.get("evaluation_date"))
        if other is None:
            bad(path, OTHER_END, "unknown")
            return None
        found.append(OpenFact(path, readable_name(data, path), "unknown", (other.isoformat(),), ranged="date",
                              line=line(path), open_end="later" if field == "until" else "earlier"))
        return other.isoformat()

    def marker(node: dict[str, Any], path: tuple[Any, ...]) -> Any:
        name = readable_name(data, path)
        if "one_of" in node:
            values = node["one_of"]
            if not isinstance(values, list) or len(values) < 2:
                bad((*path, "one_of"), "a list of at least two alternatives", show_value(values))
                return None
            if len(values) > MAX_VALUES:
                bad((*path, "one_of"), f"at most {MAX_VALUES} alternatives", f"{len(values)}")
                return None
            if len({repr(v) for v in values}) < len(values):
                bad((*path, "one_of"), "distinct alternatives", show_value(values))
                return None
            found.append(OpenFact(path, name, "unknown", tuple(values), line=line(path)))
            return copy.deepcopy(values[0])
        if "between" in node:
            bounds = node["between"]
            if not isinstance(bounds, list) or len(bounds) != 2:
                bad((*path, "between"), "[LOW, HIGH]: two integers or two dates", show_value(bounds))
                return None
            values, why = _range(*bounds)
            if values is None:
                bad((*path, "between"), f"two integers or two dates, LOW not after HIGH, at most {MAX_VALUES} "
                    f"integers or {MAX_DAYS:,} days (the days of a range count among the {MAX_COMBINATIONS:,} "
                    "combinations of the unknown facts"
                    + ("; a first or last day with no bound on one side may be given as `unknown`)"
                       if _open_date(path) else ")"), why)
                return None
            kind = "int" if isinstance(values[0], int) else "date"
            found.append(OpenFact(path, name, "unknown", tuple(values), ranged=kind, line=line(path)))
            return values[0]
        stated, others = node["value"], node["changeable"]
        if others is True:
            found.append(OpenFact(path, name, "changeable", (stated,), auto=True, line=line(path)))
            return stated
        if not isinstance(others, list) or not others:
            bad((*path, "changeable"), "a list of the values it may change to, or true", show_value(others))
            return stated
        if len(others) > MAX_VALUES:
            bad((*path, "changeable"), f"at most {MAX_VALUES} alternatives", f"{len(others)}")
            return stated
        values = [stated] + [v for v in others if repr(v) != repr(stated)]
        if len({repr(v) for v in values}) < len(values) or len(values) < 2:
            bad((*path, "changeable"), "distinct values other than the stated one", show_value(others))
            return stated
        found.append(OpenFact(path, name, "changeable", tuple(values), line=line(path)))
        return stated

    plain = visit(data, ())
    unknown = [f for f in found if f.kind == "unknown"]
    if problems or not unknown:
        return plain, tuple(found), problems
    every = parts(plain, unknown)
    for part in every:
        combinations = math.prod(len(f.values) for f in part.facts)
        if combinations <= MAX_COMBINATIONS or (not part.items and every[0].items):  # read by no item: not combined
            continue
        first = part.facts[0].path
        rows = plain["income"] if len([p for p in every if p.items]) > 1 else []
        ids = [str(rows[i].get("id") if isinstance(rows[i], dict) else f"[{i}]") for i in part.items] if rows else []
        whose = ("" if not ids else f" of income({ids[0]})" if len(ids) == 1
                 else f" of the items decided together, income({', '.join(ids)})")
        problems.append(Problem(source, line(first), field_path(first),
                                f"at most {MAX_COMBINATIONS} combinations of the unknown facts' alternatives{whose}",
                                f"{combinations} ({' x '.join(str(len(f.values)) for f in part.facts)})",
                                "narrow the alternatives or split the scenario"))
    return plain, tuple(found), problems


@dataclass(frozen=True)
class Part:
    """Income items (their indices in the scenario's ``income``) decided together over the open facts
    they may read: the values of a part's facts are combined, never those of two parts."""

    items: tuple[int, ...]
    facts: tuple[OpenFact, ...]


_RECORDS = ("holdings", "presence", "places_of_business", "persons", "arrangements")
"""The records outside the income items whose facts an item may read: those that name it, or one of its
persons or places, or are linked to one of them by other records (ownership chains, a place's owner)."""


def _strings(node: Any) -> set[str]:
    if isinstance(node, str):
        return {node}
    if isinstance(node, dict):
        return set(node) | {s for v in node.values() for s in _strings(v)}
    if isinstance(node, list):
        return {s for v in node for s in _strings(v)}
    return set()


def linked_root(link: dict[str, str], i: str) -> str:
    """The representative of ``i``'s group in ``link`` (each id to another of its group, a root to itself),
    the path to it halved on the way (a union-find: join two groups by linking one root to the other)."""
    while link[i] != i:
        link[i] = link[link[i]]
        i = link[i]
    return i


def parts(data: Any, facts: Sequence[OpenFact], limit: int = MAX_COMBINATIONS) -> tuple[Part, ...]:
    """The scenario's income items in parts that read no open fact in common, with the facts each part reads.

    A fact of an income item (``income[N]...``) is read by that item only; a fact of another record
    (a holding, a stay, a place of business, a person, an arrangement) by every item that names an id
    linked to the record's ids, where two ids are linked when some record names both (a holding links its
    holder and its company; a chain of holdings, all of its links; an arrangement, the items it names): an
    over-approximation of what the rules read, never an omission. Any other fact is read by every item.
    Items sharing a fact form one part, unless the combinations of its facts exceed ``limit``: then each
    of its items is a part, with the facts it reads (a fact two items read is combined with each one's in
    turn; its answer for each item is the one the item has alone). An item that reads no open fact joins
    the first part. The facts no item reads, if any, come last, as a part without items: no item's answer
    turns on them, and their values are not combined. Without items (questions about persons), or where
    no item reads any fact, one part."""
    income: list[Any] = data.get("income") or [] if isinstance(data, dict) else []
    count = len(income) if isinstance(income, list) else 0
    if not count:
        return (Part((), tuple(facts)),)
    known: set[str] = set()
    for key in ("persons", "places_of_business", "arrangements"):
        table = data.get(key)
        if isinstance(table, dict):
            known |= {str(k) for k in table}
    known |= {row["id"] for row in income if isinstance(row, dict) and isinstance(row.get("id"), str)}
    link = {i: i for i in known}

    def root(i: str) -> str:
        return linked_root(link, i)

    def named(node: Any) -> set[str]:
        return _strings(node) & known

    def records() -> Iterator[tuple[tuple[Any, ...], Any]]:
        for key in _RECORDS:
            table = data.get(key)
            rows = table.items() if isinstance(table, dict) else enumerate(table) if isinstance(table, list) else ()
            for k, row in rows:
                yield (key, k), ({k} if isinstance(k, str) else set(), row)

    for _, (own, row) in records():
        ids = sorted((own & known) | named(row))
        for other in ids[1:]:
            link[root(other)] = root(ids[0])
    item_ids = [{root(i) for i in named(row)} for row in income]
    record_of = dict(records())
    reads: list[set[int]] = []
    for f in facts:
        if len(f.path) > 1 and f.path[0] == "income" and isinstance(f.path[1], int):
            reads.append({f.path[1]})
            continue
        record = record_of.get(tuple(f.path[:2]))
        if record is None:
            reads.append(set(range(count)))
            continue
        roots = {root(i) for i in (record[0] & known) | named(record[1])}
        reads.append({n for n, ids in enumerate(item_ids) if ids & roots} if roots else set(range(count)))
    group = list(range(count))

    def top(n: int) -> int:
        while group[n] != n:
            group[n] = group[group[n]]
            n = group[n]
        return n

    for items in reads:
        ordered = sorted(items)
        for n in ordered[1:]:
            group[top(n)] = top(ordered[0])
    out: list[tuple[list[int], list[int]]] = []  # (items, facts by index)
    for members in _groups([top(n) for n in range(count)]):
        mine = [k for k, items in enumerate(reads) if items & set(members)]
        if len(members) > 1 and math.prod(len(facts[k].values) for k in mine) > limit:
            out += [([n], [k for k in mine if n in reads[k]]) for n in members]
        else:
            out.append((members, mine))
    reading = [p for p in out if p[1]]
    idle = [n for p in out if not p[1] for n in p[0]]
    unread = [k for k, items in enumerate(reads) if not items]
    if not reading:
        return (Part(tuple(range(count)), tuple(facts)),)
    first_items, first_facts = reading[0]
    reading[0] = (sorted({*first_items, *idle}), first_facts)
    return (*(Part(tuple(items), tuple(facts[k] for k in mine)) for items, mine in reading),
            *([Part((), tuple(facts[k] for k in unread))] if unread else []))


def _groups(roots: Sequence[int]) -> list[list[int]]:
    """The indices of ``roots`` grouped by their root, in the order of each group's first index."""
    out: dict[int, list[int]] = {}
    for n, r in enumerate(roots):
        out.setdefault(r, []).append(n)
    return list(out.values())


def substitute(data: Any, choice: dict[tuple[Any, ...], Any]) -> Any:
    """``data`` with the value at each path of ``choice`` replaced, ``data`` itself unchanged: the dicts and
    lists along each path are copied, every other part is shared with ``data`` (neither is ever modified in
    place: a scenario's plain data is only read), each value deep-copied."""
    out = _shallow(data)
    copied: set[tuple[Any, ...]] = {()}
    for path, value in choice.items():
        node = out
        for depth, part in enumerate(path[:-1], start=1):
            if path[:depth] not in copied:
                node[part] = _shallow(node[part])
                copied.add(path[:depth])
            node = node[part]
        node[path[-1]] = copy.deepcopy(value)
    return out


def _shallow(node: Any) -> Any:
    return dict(node) if isinstance(node, dict) else list(node) if isinstance(node, list) else node
