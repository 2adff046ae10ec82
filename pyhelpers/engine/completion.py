"""Incomplete facts completed with every value they may take (issue 23).

The rules answer a fact given as ``unknown`` or left out three-valued: the item ``depends`` on it, or it
is ``missing``. Whether it really decides anything is a question for the engine, not for the order of
the rules: each such fact whose values can be listed is opened as alternatives of all of them and the
scenario is solved once over every combination (:func:`pyhelpers.engine.alternatives.check_open`: brave
and cautious consequences). A conclusion that holds in every completion is certain; an item whose
conclusions are the same for every value is decided, the facts it was reported to depend on listed as
``not_needed``; otherwise its alternatives name the facts and values that decide it, and each State's
outcome its bound.

Opened: a fact given as plain ``unknown`` whose field is a yes/no, an enumeration, a State or a reference
to a place of business (the scenario's places, or none)
(:func:`unknown_values`), where the rules ask for it (:func:`asked_for_each`), over the values the rules take
(:func:`accepted`); a holding record the rules report missing, added with its share of the capital and
its first day open (:func:`missing_records`), and for the bound its end too where the rules report it
missing under some first day (:func:`open_record_ends`). A field whose values cannot be listed (a date, a number, a
list) stays three-valued, but for the last day of a record whose first day is given, opened as if given as
``unknown``; so do the last ones of a scenario (:func:`_opening_order`: the fewest values first, a list
last, in document order otherwise) whose combinations would exceed
:data:`pyhelpers.scenario.openfacts.MAX_COMBINATIONS`.
"""

from __future__ import annotations

import copy
import dataclasses
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from pyhelpers.base import dates
from pyhelpers.base.errors import ScenarioError
from pyhelpers.engine import critical
from pyhelpers.engine.domains import (
    LISTED_BY_KIND,
    every_value,
    is_state,
    keyed_by_state,
    leaf_annotation,
    opened_at,
    representative_lists,
    share_points,
    share_representatives,
)
from pyhelpers.engine.results import Finding
from pyhelpers.scenario import Scenario
from pyhelpers.scenario.catalogue import catalogue
from pyhelpers.scenario.common import DIRECT_RECORD_BESIDE, OWNERS_PLACES, percent_points
from pyhelpers.scenario.factpaths import leaf_paths, record_paths, stated
from pyhelpers.scenario.openfacts import MAX_COMBINATIONS, OpenFact, open_date_field, parts, readable_name

UNKNOWN = "unknown"


def combinations(facts: Sequence[OpenFact]) -> int:
    """How many combinations of values the open facts have."""
    out = 1
    for f in facts:
        out *= len(f.values)
    return out


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


def unknown_values(scenario: Scenario, per_part: bool = False) -> tuple[OpenFact, ...]:
    """The facts ``scenario`` gives as plain ``unknown`` whose every value can be listed, as open facts
    over those values, in document order while their combinations, with those of the scenario's own
    alternatives, stay within the limit: of the whole scenario, or, ``per_part``, of each part of it whose
    items read no fact in common (:func:`pyhelpers.scenario.openfacts.parts`, its items linked by the records
    that name them: the parts :func:`~pyhelpers.engine.alternatives.check_open_in_parts` solves one by one; a
    caller that cannot solve them so counts the whole, :func:`most_in_a_part`)."""
    data = scenario._plain_data if scenario._plain_data is not None else scenario.model_dump(
        mode="json", by_alias=True, exclude_unset=True)
    found: list[OpenFact] = []
    states = _states(scenario, data)
    contracting = list(catalogue().states.get(scenario.treaty, ()))
    places = list(scenario.places_of_business)

    def visit(node: Any, path: tuple[Any, ...]) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if path or key != "expect":
                    visit(value, (*path, key))
        elif isinstance(node, list):
            for n, value in enumerate(node):
                visit(value, (*path, n))
        elif node == UNKNOWN and path:
            # the values the document is valid with (a kind of place that takes no agent's facts, say, is
            # not one of the values the fact may have)
            listed = every_value(leaf_annotation(path), states, places)
            values = [v for v in (listed if listed is not None else representative_lists(path, contracting) or [])
                      if _substituted(scenario, path, v) is not None]
            if values:  # one value only: the other facts given leave no other
                found.append(OpenFact(path, readable_name(data, path), "unknown", tuple(values), completed=True,
                                      stand_in=states[-1]))

    visit(data, ())
    given = 1
    for f in scenario.unknowns:
        given *= len(f.values)
    part_of = _part_of(data, found) if per_part and not scenario.unknowns else {}
    taken: dict[int, int] = {}
    opened: list[OpenFact] = []
    for f in sorted(found, key=_opening_order):  # as many as the combinations allow, the fewest values first
        part = part_of.get(f.name, -1)
        so_far = taken.get(part, given)
        if so_far * len(f.values) * (LIST_RESERVE if isinstance(f.values[0], list) else 1) <= MAX_COMBINATIONS:
            taken[part] = so_far * len(f.values)
            opened.append(f)
    return tuple(sorted(opened, key=found.index))


def _part_of(data: Any, facts: Sequence[OpenFact]) -> dict[str, int]:
    """The part of the scenario (:func:`pyhelpers.scenario.openfacts.parts`, never split for its combinations) each
    of ``facts`` is read in, by the fact's name."""
    return {f.name: n for n, part in enumerate(parts(data, facts, limit=sys.maxsize)) for f in part.facts}


def most_in_a_part(scenario: Scenario, facts: Sequence[OpenFact]) -> int:
    """The combinations of the values of ``facts`` in the part of ``scenario`` that has the most
    (:func:`_part_of`): what one solve of :func:`~pyhelpers.engine.alternatives.check_open_in_parts` combines."""
    data = scenario._plain_data if scenario._plain_data is not None else scenario.model_dump(
        mode="json", by_alias=True, exclude_unset=True)
    part_of = _part_of(data, facts)
    out: dict[int, int] = {}
    for f in facts:
        part = part_of.get(f.name, -1)
        out[part] = out.get(part, 1) * len(f.values)
    return max(out.values(), default=1)


def _opening_order(f: OpenFact) -> tuple[bool, int]:
    """The order in which :func:`unknown_values` opens the facts given as ``unknown`` while their combinations stay
    within the limit: the fewest values first (a yes/no before a State), a list last; in document order otherwise
    (the sort is stable)."""
    return isinstance(f.values[0], list), len(f.values)


LIST_RESERVE = 8
"""A list given as ``unknown`` (:func:`~pyhelpers.engine.domains.representative_lists`) is opened only where the
combinations of the facts opened before it leave this many times as many before the limit (room for three yes/no
facts): its values reach provisions that ask for more (a combination of activities' overall character, a
permanent home in both States' centre of vital interests), which the rounds after open in turn. Without it, a
list opened up to the limit leaves those facts three-valued: a shipped scenario's place with `activities`,
`fixed` and `business_carried_on` all open no longer asks whether it is fixed and business is carried on
through it (issue 23 point 3)."""


_HOLDING = re.compile(r"^holding\((?P<holder>[^,()]+), (?P<company>[^,()]+)\)$")
_CAPITAL = re.compile(r"^capital\(holding\((?P<holder>[^,()]+), (?P<company>[^,()]+)\)\)$")


def names_a_record(fact: str) -> bool:
    """Whether ``fact`` (as a finding names it, or an open fact ``<it>.<field>``) is a holding record or its share of
    the capital: what :func:`missing_records` adds with its dates open around each item's date (a record opened for
    several items at once is opened around all their dates, which one item's answer alone does not see)."""
    head = fact.split(").", 1)[0] + ")" if ")." in fact else fact
    return bool(_HOLDING.match(head) or _CAPITAL.match(head))


@dataclass(frozen=True)
class Records:
    """Holding records the rules report missing, added to the scenario with their facts open: the share of
    the capital (none, and each percentage the treaty cites and a basis point below it) and the first day
    held (the critical dates up to the item's date: :mod:`pyhelpers.engine.critical`)."""

    scenario: Scenario
    facts: tuple[OpenFact, ...]
    asked: dict[str, frozenset[str]]  # open fact name -> the missing facts (as the rules name them) it stands for


def open_shares(cited: Sequence[str], rows: Sequence[Any], holder: str, company: str, days: Sequence[date],
                skip: Sequence[int] = ()) -> tuple[tuple[str, ...], str]:
    """The values an open share of ``company``'s capital held by ``holder`` is answered over, and the largest it may
    be (:func:`~pyhelpers.engine.domains.share_representatives`), given the shares of that capital the scenario's
    other direct records (``rows``, those at ``skip`` and ``holder``'s own left out) state as held on any of
    ``days`` (each item's date): on each day the share is at most what the others leave, and each threshold less
    what they hold is tried. Only records of the same company count (another company's register bounds nothing
    here); an indirect record's share is held through a direct one, a record whose dates or share are not given
    bounds nothing."""
    values: set[str] = set()
    top = "0%"
    for day in sorted(set(days)):
        others = [points for n, r in enumerate(rows) if n not in skip and isinstance(r, dict)
                  and r.get("company") == company and r.get("holder") != holder and r.get("direct", True) is not False
                  and _held_on(r, day) and (points := share_points(r.get("capital"))) is not None]
        shown, high = share_representatives(cited, others)
        values |= set(shown)
        top = max(top, high, key=lambda v: percent_points(v))
    return tuple(sorted(values, key=lambda v: percent_points(v))), top


def _held_on(record: dict[str, Any], day: date) -> bool:
    """Whether the holding ``record`` (a scenario's, as written) is stated held on ``day``: its first day given
    and not after it, its last day not given or not before it."""
    try:
        first = date.fromisoformat(str(record.get("from")))
        last = record.get("until")
        return first <= day and (last is None or date.fromisoformat(str(last)) >= day)
    except ValueError:
        return False


def _months_back(periods: critical.Periods) -> int:
    """How far before the item an added holding record may begin: a year beyond the longest period the
    treaty cites (in months or in days); any earlier first day is as good."""
    return max(max(periods.months, default=0), -(-max(periods.days, default=0) // 28)) + 12


def _first_days(days: Sequence[date], periods: critical.Periods, low: date, high: date) -> list[date]:
    """The first days an added holding record may have that the rules can tell apart: each item's date
    moved back by each period the treaty cites (months, days), a day either side, from ``low`` to
    ``high``; ``low`` first (any earlier day)."""
    ends = {d for d in days}
    ends |= {dates.add_months(d, -m) for d in days for m in periods.months}
    ends |= {d - timedelta(days=n) for d in days for n in periods.days}
    out = {low} | {e + timedelta(days=k) for e in ends for k in (-1, 0, 1) if low <= e + timedelta(days=k) <= high}
    return sorted(out)


def missing_records(checker: Any, scenario: Scenario, three_valued: Any, source: str, also: Sequence[Any] = (),
                    taken: int = 1) -> Records | None:
    """The holding records (``holding(H, C)``) and shares of the capital (``capital(holding(H, C))``) that
    the three-valued answer reports missing, opened over the values that can change an outcome (see
    :class:`Records`), with the fields it reports missing whose values can be listed; None when none is
    missing or the record cannot be written (ids not in the scenario). ``also``: the three-valued
    answers of the scenario under each value of the facts already opened, whose missing fields count
    too; ``taken``: the combinations those facts have."""
    data = copy.deepcopy(scenario._plain_data if scenario._plain_data is not None else scenario.model_dump(
        mode="json", by_alias=True, exclude_unset=True))
    answers = (three_valued, *also)
    wanted: dict[tuple[str, str], tuple[set[str], list[date]]] = {}
    for item in three_valued.items:  # a record missing only under some value stays a possibility (its
        # dates, combined with the others, would cost more than the answer gains)
        for f in item.findings:
            m = _HOLDING.match(f.fact or "") or _CAPITAL.match(f.fact or "") if f.kind == "missing" else None
            if m is None or m["holder"] not in scenario.persons or m["company"] not in scenario.persons:
                continue
            names, days = wanted.setdefault((m["holder"], m["company"]), (set(), []))
            names.add(f.fact or "")
            if item.date is not None:
                days.append(date.fromisoformat(str(item.date)))
    periods = checker.treaty_periods(scenario.treaty)
    cited = checker.cited_percentages(scenario.treaty)
    rows = data.setdefault("holdings", [])
    facts: list[OpenFact] = []
    asked: dict[str, frozenset[str]] = {}
    for (holder, company), (names, days) in sorted(wanted.items()):
        high = max(days, default=scenario.evaluation_date)
        whole = not any(_CAPITAL.match(n) for n in names)  # the record asked for, not a share of one given
        existing = [k for k, r in enumerate(rows) if r.get("holder") == holder and r.get("company") == company
                    and not (whole and r.get("direct", True) is False)]  # an indirect record: a direct one open
        shares, top = open_shares(cited, rows, holder, company, days or [scenario.evaluation_date],
                                  existing[:1])
        if existing:  # a record without its share of the capital: that share is open
            k = existing[0]
            if rows[k].get("capital") is not None:
                continue
        else:
            low = dates.add_months(high, -_months_back(periods))
            k = len(rows)
            rows.append({"holder": holder, "company": company, "capital": shares[0], "from": low.isoformat(),
                         "direct": True})  # the record the rules ask for is a direct one: stated so, nothing assumed
            reps = _first_days(days, periods, low, high)
            name = f"holding({holder}, {company}).from"
            facts.append(OpenFact(("holdings", k, "from"), name, "unknown", tuple(d.isoformat() for d in reps),
                                  ranged="date", high=high.isoformat(), completed=True, not_given=True))
            asked[name] = frozenset(names)
        rows[k]["capital"] = shares[0]
        name = f"holding({holder}, {company}).capital"
        facts.append(OpenFact(("holdings", k, "capital"), name, "unknown", shares, ranged="int", high=top,
                              completed=True, not_given=True))
        asked[name] = frozenset(names)
    fields = _missing_fields(scenario, answers, data, source, taken * combinations(facts), periods)
    for fact, stands_for in fields:
        facts.append(fact)
        asked[fact.name] = stands_for
    if not facts:
        return None
    return _revalidated(data, source, facts, asked)


def _missing_fields(scenario: Scenario, answers: Sequence[Any], data: Any, source: str,
                    taken: int, periods: critical.Periods | None = None) -> list[tuple[OpenFact, frozenset[str]]]:
    """The fields the three-valued ``answers`` report missing whose every value can be listed (a yes/no, an
    enumeration, a State: their ``fact_leaf``, :mod:`pyhelpers.scenario.factpaths`), each written into
    ``data`` at its first value and opened over all of them, in the order the findings come while the
    combinations (``taken`` already) stay within the limit; those that cannot be written (the document
    is not valid with the field there) stay missing. A field the scenario states is not one. Every value
    is kept (leaving the field out is not one of them): one under which the rules still find the fact
    missing (a place of business not listed when the list is said not to be complete) leaves the item
    undetermined under it, never dropped as if it could not be. A reference to a place of business left
    out is not opened (``borne_by``: none is assumed, and ``--strict`` asks for it: answered over its
    values, a missing fact that another missing one leaves undetermined either way would read "not
    needed"), but for the place a holding or fee is connected with (its type marked
    :data:`~pyhelpers.scenario.common.OWNERS_PLACES`: over the recipient's places and none). A field of a
    record the rules name by their ``fact_field`` (a record's ``direct``, ``holding_direct``:
    :func:`~pyhelpers.scenario.factpaths.record_paths`) is opened as any other, over true and false.
    The last day (``until``) left out of a record that may give it as
    ``unknown`` (a building site, a stay) and whose first day is given is opened as that ``until: unknown``
    is, given ``periods`` (the treaty's): from its first day on, over its critical dates (:func:`_open_end`),
    after the fields whose values can be listed (its many days would otherwise take their place within the limit)."""
    wanted: dict[tuple[Any, ...], set[str]] = {}
    for item in (it for answer in answers for it in answer.items):
        for f in item.findings:
            if f.kind != "missing" or not f.fact:
                continue
            for path in (*leaf_paths(f.fact, [item.item_id], scenario), *record_paths(f.fact, scenario)):
                if not stated(scenario, path):
                    wanted.setdefault(path, set()).add(f.fact)
    if not wanted:
        return []
    states = _states(scenario, data)
    places = [str(p) for p in (data.get("places_of_business") or {})] if isinstance(data, dict) else []
    out: list[tuple[OpenFact, frozenset[str]]] = []
    ends: list[tuple[OpenFact, frozenset[str]]] = []
    for path, names in wanted.items():
        end = _open_end(scenario, data, path, periods)
        if end is not None:  # after the fields whose values can be listed, which keep their place in the limit
            ends.append((end, frozenset(names)))
            continue
        listed = _owners_places(data, path, places) if opened_at(path) is OWNERS_PLACES else None
        values = [v for v in every_value(leaf_annotation(path), states, listed) or ()
                  if v is not None and _valid_at(data, path, v, source)]
        if not values or taken * len(values) > MAX_COMBINATIONS:
            continue
        _written(data, path, values[0])
        taken *= len(values)
        out.append((OpenFact(path, readable_name(data, path), "unknown", tuple(values), completed=True,
                             not_given=True, stand_in=states[-1]),
                    frozenset(names)))
    for end, asks in ends:
        if taken * len(end.values) > MAX_COMBINATIONS or not _valid_at(data, end.path, end.values[0], source):
            continue
        _written(data, end.path, end.values[0])
        taken *= len(end.values)
        out.append((end, asks))
    return out


def _owners_places(data: Any, path: tuple[Any, ...], places: Sequence[str]) -> list[str]:
    """Of ``places``, those of the recipient of the income item at ``path`` (the place its holding, debt-claim or
    right may be connected with is the beneficial owner's own: another's would leave the answer as none does)."""
    try:
        recipient = data["income"][path[1]].get("recipient")
        owners = {b: (data.get("places_of_business") or {}).get(b, {}).get("owner") for b in places}
    except (KeyError, IndexError, TypeError, AttributeError):
        return list(places)
    return [b for b in places if owners.get(b) in (recipient, None)]


def _open_end(scenario: Scenario, data: Any, path: tuple[Any, ...], periods: critical.Periods | None
              ) -> OpenFact | None:
    """The last day at ``path``, left out, opened as ``until: unknown`` is
    (:func:`pyhelpers.scenario.openfacts.extract`): any day from the record's first day on, over its critical dates
    (:func:`pyhelpers.engine.critical.critical_dates`), the last standing for every later day; None where ``path``
    is not the ``until`` of a record that may give it as ``unknown``, or the record's first day is not a date."""
    if periods is None or not path or path[-1] != "until" or not open_date_field(path):
        return None
    record = data
    for part in path[:-1]:
        try:
            record = record[part]
        except (KeyError, IndexError, TypeError):
            return None
    first = record.get("from") if isinstance(record, dict) else None
    try:
        anchor = date.fromisoformat(str(first)) if first is not None else None
    except ValueError:
        anchor = None
    if anchor is None:
        return None
    fact = OpenFact(path, readable_name(data, path), "unknown", (anchor.isoformat(),), ranged="date",
                    completed=True, not_given=True, open_end="later")
    opened = critical.critical_dates(fact, scenario, scenario.unknowns, periods)
    return opened if opened is not fact else None


def _valid_at(data: Any, path: tuple[Any, ...], value: Any, source: str) -> bool:
    """Whether ``data`` with ``value`` written at ``path`` is a valid scenario (a State that cannot pay a
    government salary, say, is not one of the values the field may have). The trial document shares with ``data``
    all but the maps and lists on ``path`` (:func:`_path_copied`): :func:`_written` writes only there, and validating
    it reads the rest."""
    trial = _path_copied(data, path)
    if Scenario.revalidate is None or not _written(trial, path, value):
        return False
    try:
        Scenario.revalidate(trial, source)
    except ScenarioError:
        return False
    return True


def _path_copied(data: Any, path: tuple[Any, ...]) -> Any:
    """``data`` with each map and list :func:`_written` would step through on ``path`` copied (one level each), the
    rest shared: writing at ``path`` in the copy leaves ``data`` as it was (a deep copy of a chunk's scenario for every
    value tried cost more than validating it)."""
    top = copy.copy(data) if isinstance(data, (dict, list)) else data
    node = top
    for part in path[:-1]:
        stepped = ((isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node))
                   or (isinstance(node, dict) and node.get(part) is not None))
        if not stepped:
            break  # what _written makes from here on is new, or it writes nothing
        child = node[part]
        if not isinstance(child, (dict, list)):
            break
        node[part] = child = copy.copy(child)
        node = child
    return top


Choice = tuple[tuple[OpenFact, Any], ...]
"""Values given to incomplete facts, in order: each (fact, value)."""


class Variants:
    """A scenario under values of some of its incomplete facts, each variant made and solved three-valued once:
    the steps of one check ask for the same ones (which facts the rules ask for, which values they take, what
    each value leaves missing, what the scenario answers under each). A fact given as plain ``unknown`` is
    given its value (the others stay open); a field left out (``not_given``) is written in."""

    def __init__(self, checker: Any, scenario: Scenario, source: str) -> None:
        self._checker = checker
        self._source = source
        self._made: dict[tuple[Any, ...], Scenario | None] = {(): scenario}
        self._solved: dict[tuple[Any, ...], Any] = {}

    def variant(self, choice: Choice) -> Scenario | None:
        """The scenario with each (fact, value) of ``choice`` given, in order; None where a value is not valid
        there (values valid one by one may contradict each other)."""
        key = _key(choice)
        if key not in self._made:
            before = self.variant(choice[:-1])
            fact, value = choice[-1]
            self._made[key] = None if before is None else _given(before, fact, value, self._source)
        return self._made[key]

    def answers(self, choices: Sequence[Choice]) -> list[tuple[Scenario, Any] | None]:
        """Each of ``choices``' variant with its three-valued answer (None where it is not valid): those not solved
        yet in one run (:meth:`~pyhelpers.engine.solve.Checker.three_valued_together`)."""
        todo: dict[tuple[Any, ...], Scenario] = {}
        for choice in choices:
            made = self.variant(choice)
            if made is not None and _key(choice) not in self._solved:
                todo[_key(choice)] = made
        for key, answer in zip(todo, self._checker.three_valued_together(list(todo.values()), self._source),
                               strict=True):
            self._solved[key] = answer
        out: list[tuple[Scenario, Any] | None] = []
        for choice in choices:
            made = self.variant(choice)
            out.append(None if made is None else (made, self._solved[_key(choice)]))
        return out

    def each_value(self, facts: Sequence[OpenFact], before: Choice = ()) -> list[tuple[Choice, Scenario, Any]]:
        """``before`` with each value of each of ``facts`` given alone (the others still open), each with its
        variant and three-valued answer; a value not valid there is left out."""
        choices = [(*before, (fact, value)) for fact in facts for value in fact.values]
        return [(choice, *solved) for choice, solved in zip(choices, self.answers(choices), strict=True)
                if solved is not None]


def _key(choice: Choice) -> tuple[Any, ...]:
    return tuple((fact.path, fact.not_given, repr(value)) for fact, value in choice)


def _substituted(scenario: Scenario, path: tuple[Any, ...], value: Any, source: str = "<scenario>"
                 ) -> Scenario | None:
    """``scenario`` with ``value`` substituted for the ``unknown`` at ``path`` (the other unknown facts kept);
    None where the document is not valid with it."""
    try:
        return scenario.with_values({path: value}, source, keep_unknown=True)
    except ScenarioError:
        return None


def _given(scenario: Scenario, fact: OpenFact, value: Any, source: str) -> Scenario | None:
    """``scenario`` with ``value`` given to ``fact``: substituted for its ``unknown`` (:func:`_substituted`), or
    written in where the field is left out; None where the document is not valid with it."""
    if not fact.not_given:
        return _substituted(scenario, fact.path, value, source)
    try:
        data = copy.deepcopy(scenario._plain_data if scenario._plain_data is not None else scenario.model_dump(
            mode="json", by_alias=True, exclude_unset=True))
        if Scenario.revalidate is None or not _written(data, fact.path, value):
            return None
        variant = Scenario.revalidate(data, source)
    except ScenarioError:
        return None
    variant._plain_data = data
    return variant


def _written(data: Any, path: tuple[Any, ...], value: Any) -> bool:
    """Write ``value`` at ``path`` in ``data``, making the maps on the way that are not there; False (and
    ``data`` unchanged) where the path runs through a value that is not a map or a list."""
    node = data
    for n, part in enumerate(path[:-1]):
        if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        elif isinstance(node, dict):
            if node.get(part) is None:
                if isinstance(path[n + 1], int):
                    return False
                node[part] = {}
            node = node[part]
        else:
            return False
    if not isinstance(node, dict):
        return False
    node[path[-1]] = value
    return True


def asked_for_each(variants: Variants, cases: Sequence[tuple[Choice, Any]], completed: Sequence[OpenFact]
                   ) -> list[dict[tuple[str, str], set[Finding]]]:
    """For each (values given, the three-valued answer under them) of ``cases``, in order: which ``depends``
    findings of that answer each completed fact gives rise to, per item (item id, fact name): those that
    vanish when that fact alone is given its first value besides. A fact no item asks for is not opened (it
    changes nothing the rules look at). Every variant not solved yet is solved in one run (:class:`Variants`)."""
    solved = iter(variants.answers([(*choice, (fact, fact.values[0])) for choice, _ in cases for fact in completed]))
    out = []
    for _, three_valued in cases:
        found: dict[tuple[str, str], set[Finding]] = {}
        asking = {it.item_id: {f for f in it.findings if f.kind == "depends"} for it in three_valued.items}
        for fact in completed:
            answer = next(solved)
            if answer is None:
                continue  # its first value is not valid there
            given = {it.item_id: set(it.findings) for it in answer[1].items}
            for iid, depends in asking.items():
                gone = {f for f in depends if f not in given.get(iid, set())}
                if gone:
                    found[(iid, fact.name)] = gone
        out.append(found)
    return out


def accepted(variants: Variants, asked: Sequence[tuple[Choice, OpenFact, set[str]]]) -> list[OpenFact | None]:
    """Each (values given, fact, asks) of ``asked``: the fact with the values the rules take as values of it
    under those values. One under which they report the very fact they asked for (``asks``: its terms, e.g.
    ``vital_interests(ana)``) missing is not a value the fact may have, only a way of not giving it (a
    State left out where the rules need one, a State they do not weigh there). None when no value is
    left. Every variant not solved yet is solved in one run. A list of an enumeration (:data:`LISTED_BY_KIND`) is
    kept whole without solving: each of its lists states the field (the empty one only where the format reads it
    so), and the rules ask for it only while it is not stated, so none is a way of not giving it (solved, the 18
    lists of three royalties' rights took 1.1 s of grounding, list56)."""
    solved = iter(variants.answers([(*choice, (fact, value)) for choice, fact, _ in asked if not _stated_lists(fact)
                                    for value in fact.values]))
    out: list[OpenFact | None] = []
    for _, fact, asks in asked:
        if _stated_lists(fact):
            out.append(fact)
            continue
        kept = []
        for value in fact.values:
            answer = next(solved)
            if answer is None:
                continue
            lacking = {f.fact for it in answer[1].items for f in it.findings if f.kind == "missing"}
            if not lacking & asks:
                kept.append(value)
        out.append(dataclasses.replace(fact, values=tuple(kept)) if kept else None)
    return out


def _stated_lists(fact: OpenFact) -> bool:
    """Whether ``fact`` is a list of an enumeration given as ``unknown`` answered over its lists
    (:data:`~pyhelpers.engine.domains.LISTED_BY_KIND`), each of which states the field."""
    return fact.lists() and bool(fact.path) and fact.path[-1] in LISTED_BY_KIND


def indirect_branches(checker: Any, scenario: Scenario, three_valued: Any, source: str,
                      base: Records | None = None) -> dict[tuple[str, str], Records]:
    """For the bound: ``scenario`` (or ``base``'s target, whose opened facts it keeps) with each holding record whose
    ``direct`` the rules report missing (``holding_direct(H, C)``) read as indirect, and beside it a direct record of
    the same pair opened as one the rules report missing is (:func:`missing_records`: its share of the capital over
    none, each percentage the treaty cites and a basis point below it, and the record's own share; its first day
    over the critical dates up to the item's date, and the record's own), for
    :func:`pyhelpers.engine.alternatives.with_bounds`. Opened over true and false alone, the record held indirectly
    leaves the owner's direct holding unsaid, and the rules ask for it: that value gives no outcome, and the State
    no bound, though the rules cap it whatever the holding. Here every way the facts may go has one: held directly
    is the added record with the record's own share and first day, held indirectly is each other (none, or one
    too short or too small). One target per pair of holder and company (their combinations stay within the
    limit where two pairs' would not), by pair; none where no record's ``direct`` is missing or the records cannot
    be written."""
    pairs: dict[tuple[str, str], list[date]] = {}
    marked: dict[tuple[str, str], list[tuple[Any, ...]]] = {}
    stands: dict[tuple[str, str], set[str]] = {}
    for item in three_valued.items:
        for f in item.findings:
            paths = [p for p in record_paths(f.fact or "", scenario) if p[0] == "holdings"
                     and opened_at(p) is DIRECT_RECORD_BESIDE] if f.kind == "missing" else []
            for p in paths:
                record = scenario.holdings[int(p[1])]
                pair = (record.holder, record.company)
                days = pairs.setdefault(pair, [])
                if p not in marked.setdefault(pair, []):
                    marked[pair].append(p)
                stands.setdefault(pair, set()).add(f.fact or "")
                if item.date is not None:
                    days.append(date.fromisoformat(str(item.date)))
    plain = base.scenario._plain_data if base is not None else scenario._plain_data
    periods = checker.treaty_periods(scenario.treaty)
    cited = checker.cited_percentages(scenario.treaty)
    out: dict[tuple[str, str], Records] = {}
    for (holder, company), days in sorted(pairs.items()):
        data = copy.deepcopy(plain if plain is not None else scenario.model_dump(mode="json", by_alias=True,
                                                                                 exclude_unset=True))
        rows = data.get("holdings") if isinstance(data, dict) else None
        if not isinstance(rows, list):
            continue
        read: set[tuple[Any, ...]] = set()
        facts: list[OpenFact] = []
        asked = dict(base.asked) if base is not None else {}
        paths = [p for p in marked[(holder, company)] if not stated(scenario, p)]
        if not paths:
            continue
        own = [rows[int(p[1])] for p in paths if int(p[1]) < len(rows)]
        for p in paths:
            _written(rows[int(p[1])], p[2:], False)
            read.add(p)
        high = max(days, default=scenario.evaluation_date)
        low = dates.add_months(high, -_months_back(periods))
        firsts = {d.isoformat() for d in _first_days(days, periods, low, high)}
        firsts |= {str(r["from"]) for r in own if r.get("from") is not None and low.isoformat() < str(r["from"]) <=
                   high.isoformat()}
        shares, most = open_shares(cited, rows, holder, company, days or [high], [int(p[1]) for p in paths])
        capitals = [*shares, *(str(r["capital"]) if str(r["capital"]).endswith("%") else f"{r['capital']}%"
                               for r in own if r.get("capital") is not None)]
        capitals = sorted(dict.fromkeys(capitals), key=lambda v: percent_points(v))
        most = max(most, capitals[-1], key=lambda v: percent_points(v))
        k = len(rows)
        rows.append({"holder": holder, "company": company, "capital": shares[0], "from": low.isoformat(),
                     "direct": True})
        stands_for = frozenset({*stands[(holder, company)], f"holding({holder}, {company})"})
        for name, path, values, ranged, top in (
                (f"holding({holder}, {company}).from", ("holdings", k, "from"), tuple(sorted(firsts)), "date",
                 high.isoformat()),
                (f"holding({holder}, {company}).capital", ("holdings", k, "capital"),
                 tuple(capitals), "int", most)):
            facts.append(OpenFact(path, name, "unknown", values, ranged=ranged, high=top, completed=True,
                                  not_given=True))
            asked[name] = stands_for
        kept = [f for f in (base.facts if base is not None else ()) if f.path not in read]
        made = _revalidated(data, source, (*kept, *facts), asked)
        if made is not None:
            out[(holder, company)] = made
    return out


_UNTIL_MISSING = re.compile(r"^holding_until\((?P<holder>[^,()]+), (?P<company>[^,()]+)\)$")


def open_record_ends(checker: Any, records: Records, source: str, taken: int = 1) -> Records:
    """``records`` with the last day of each added holding record opened where the rules need it, for the
    bound (:func:`pyhelpers.engine.alternatives.with_bounds`). An added record is still held at the
    evaluation date (no ``until``), so known held up to that day only: where a period the rules cite runs
    past it under some first day and share, they report its end missing (``holding_until``) and the State's
    outcome is undetermined there. Its end is then any day from the evaluation date on (as a ``until`` given
    as ``unknown``), represented by the evaluation date and by each possible first day moved by each period
    the treaty cites (its last day, and the day before), those after the evaluation date: each way the facts
    may go then gives the State an outcome. Whether the rules ask for the end is tried at the latest first
    day, under each share: held from then, the record is held the shortest time up to the evaluation date.
    Left as it was where they do not, or where the combinations (``taken`` with the other open facts) would
    exceed the limit."""
    added = {f.path[1]: f for f in records.facts if f.not_given and f.path[:1] == ("holdings",) and
             len(f.path) == 3 and f.path[2] == "from"}
    if not added:
        return records
    shares = {f.path[1]: f for f in records.facts if f.not_given and f.path[:1] == ("holdings",) and
              len(f.path) == 3 and f.path[2] == "capital"}
    data = copy.deepcopy(records.scenario._plain_data)
    rows = data.get("holdings", []) if isinstance(data, dict) else []
    variants = Variants(checker, records.scenario, source)
    periods = checker.treaty_periods(records.scenario.treaty)
    evaluation = records.scenario.evaluation_date
    facts = list(records.facts)
    asked = dict(records.asked)
    for k, first in sorted(added.items()):
        if k >= len(rows) or rows[k].get("until") is not None or k not in shares:
            continue
        holder, company = rows[k].get("holder"), rows[k].get("company")
        latest = max(first.values, key=str)  # the shortest time held up to the evaluation date
        choices: list[Choice] = [((first, latest), (shares[k], share)) for share in shares[k].values]
        lacking = {f.fact or "" for answer in variants.answers(choices) if answer is not None
                   for it in answer[1].items for f in it.findings if f.kind == "missing"}
        wanted = {name for name in lacking if (m := _UNTIL_MISSING.match(name))
                  and (m["holder"], m["company"]) == (holder, company)}
        if not wanted:
            continue
        firsts = [date.fromisoformat(str(d)) for d in first.values]
        ends = {f + timedelta(days=n - 1 + k) for f in firsts for n in periods.days for k in (-1, 0)}
        ends |= {dates.period_last_day(f, m) + timedelta(days=k) for f in firsts for m in periods.months
                 for k in (-1, 0)}
        later = sorted(d for d in ends if d > evaluation)
        values = (evaluation.isoformat(), *(d.isoformat() for d in later))
        if taken * combinations(facts) * len(values) > MAX_COMBINATIONS:
            continue
        name = f"holding({holder}, {company}).until"
        facts.append(OpenFact(("holdings", k, "until"), name, "unknown", values, ranged="date", high=values[-1],
                              completed=True, not_given=True, open_end="later"))
        asked[name] = frozenset(wanted)
        rows[k]["until"] = values[0]
    if len(facts) == len(records.facts):
        return records
    return _revalidated(data, source, facts, asked) or records


def revalidated(data: Any, source: str) -> Scenario | None:
    """The scenario ``data`` (a user's scenario with facts added or changed) validated again, keeping ``data`` as its
    plain data; None where it does not validate."""
    try:
        if Scenario.revalidate is None:
            return None
        target = Scenario.revalidate(data, source)
    except ScenarioError:
        return None
    target._plain_data = data
    return target


def _revalidated(data: Any, source: str, facts: Sequence[OpenFact], asked: dict[str, frozenset[str]]) -> Records | None:
    """The scenario ``data`` (a user's scenario with records added for the missing facts) validated again, with the
    open ``facts`` it answers over and what each stands for; None where it does not validate."""
    target = revalidated(data, source)
    return None if target is None else Records(target, tuple(facts), asked)
