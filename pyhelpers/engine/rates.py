"""Rate tables computed from the rules (``treaty rates``): for each treaty and type of income, each limit
of the source State's tax, with the conditions under which it holds and the provisions that set it.

Nothing here is typed in by hand. The situations are written from the catalogue of
``logic/core/rate_tables.lp`` (which types, which kinds of beneficial owner, which fields to leave
``unknown``, which values of a list to try, the day paid): a company resident in one Contracting
State pays the item to a beneficial owner resident in the other, in both directions. Each situation
is decided by the rules; a fact they need and the situation leaves open is completed as ``treaty
check`` completes it (:mod:`pyhelpers.engine.completion`: a missing holding record at 0%, at each
percentage the treaty cites and a basis point below, from each date a cited period reaches, a day
either side; a field given as ``unknown`` at each of its values), so every threshold the rules test is
examined on both sides with the treaty's own figures. Every combination is a complete scenario,
decided; the combinations are grouped by the source State's answer (its outcome, cap and provisions),
and each group's conditions are read off the values it takes. Each row keeps a *witness*: the
complete scenario (plain data) whose checked answer is that row, for tests and for the reader.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

import clingo
import yaml

from pyhelpers.engine.completion import missing_records, unknown_values
from pyhelpers.engine.domains import value_kind
from pyhelpers.engine.program import provision_key
from pyhelpers.engine.results import Condition, ItemResult
from pyhelpers.engine.solve import Checker
from pyhelpers.scenario import Scenario, load_dict
from pyhelpers.scenario.catalogue import catalogue
from pyhelpers.scenario.openfacts import OpenFact, substitute

MAX_SITUATIONS = 512
"""At most this many complete scenarios per situation (combinations of its open facts' values)."""

PAYER, OWNER, PLACE, ITEM = "payer", "owner", "branch", "item"
"""The ids of the situations' persons, place of business and item (they appear in the conditions)."""


@dataclass(frozen=True)
class RateRow:
    """One limit of the source State's tax on one type of income under one treaty."""

    treaty: str
    income_type: str
    source: str  # the source State (the payer's State of residence)
    residence: str  # the beneficial owner's State of residence
    owner: str  # the beneficial owner's kind: company | individual | government
    given: tuple[str, ...]  # the facts the situation states beyond the minimal ones (field = value)
    conditions: tuple[str, ...]  # the values of the open facts under which the row holds ("fact is values")
    limit: str  # "capped 10%", "exempt", "may tax", "not encoded: <provision>", "undetermined: ..."
    outcome: str  # the StateOutcome's outcome (or the item's status where it is not decided)
    max_rate_bp: int | None
    provisions: tuple[str, ...]  # those the source State's outcome rests on (or the provision not encoded)
    witness: dict[str, Any] = field(compare=False, hash=False, repr=False)  # a scenario whose answer is this row
    notes: tuple[str, ...] = ()  # what the rules note on the item (a reading chosen, a provision not encoded)
    named: tuple[Condition | str, ...] = field(default=(), compare=False, hash=False, repr=False)
    """The conditions, each as the open fact's values (:class:`Condition`, which the tables in words name: a
    State by its name) or as text ("in the other combinations of ..."); ``conditions`` writes them."""

    def as_json(self) -> dict[str, Any]:
        return {"treaty": self.treaty, "income_type": self.income_type, "source": self.source,
                "residence": self.residence, "owner": self.owner, "given": list(self.given),
                "conditions": list(self.conditions), "limit": self.limit, "outcome": self.outcome,
                "max_rate_bp": self.max_rate_bp, "provisions": list(self.provisions), "notes": list(self.notes)}


@dataclass(frozen=True)
class RateTable:
    """The rows of one or more treaties, in order (treaty, type, direction, owner, situation)."""

    date: str  # the day the items are paid
    treaties: tuple[str, ...]
    rows: tuple[RateRow, ...]
    notes: tuple[str, ...] = ()  # the facts every situation states of its beneficial owner, by kind
    treaty_notes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Of :attr:`notes`, those a treaty's rules read, by treaty (its table's preamble states only them)."""
    settled: dict[str, tuple[int, str]] = field(default_factory=dict)
    """The first year from which the corpus settles that a treaty applies, with the provision the rules cite for
    its dates of application (``application_settled_from``), by treaty: a table of an earlier day is of items
    the rules leave not encoded for that reason."""


@dataclass(frozen=True)
class _Situation:
    treaty: str
    income_type: str
    source: str
    residence: str
    owner: str
    given: tuple[tuple[str, str], ...]  # (field below the item, YAML text)
    opened: tuple[str, ...]  # fields below the item given as unknown


@dataclass(frozen=True)
class Plan:
    """What ``logic/core/rate_tables.lp`` says to write (read from the catalogue facts)."""

    types: tuple[str, ...]
    owners: dict[str, tuple[str, ...]]
    opened: dict[tuple[str, str], tuple[str, ...]]
    varied: dict[str, dict[str, tuple[str, ...]]]
    placed: frozenset[str]
    date: str
    owner_open: dict[str, tuple[str, ...]] = field(default_factory=dict)
    owner_facts: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)


def plan(checker: Checker) -> Plan:
    """The catalogue of the rate tables' situations, from the rule base's static facts."""
    atoms = [a for a in checker.static_atoms if a.name.startswith("rate_table_")]

    def text(sym: clingo.Symbol) -> str:
        return sym.string if sym.type == clingo.SymbolType.String else str(sym)

    types = tuple(text(a.arguments[0]) for a in sorted((a for a in atoms if a.name == "rate_table_income"),
                                                        key=lambda a: (a.arguments[1].number, str(a))))
    owners: dict[str, list[str]] = {}
    opened: dict[tuple[str, str], list[str]] = {}
    varied: dict[str, dict[str, list[str]]] = {}
    placed: set[str] = set()
    dates: list[str] = []
    owner_open: dict[str, list[str]] = {}
    owner_facts: dict[str, list[tuple[str, str]]] = {}
    for a in sorted(atoms, key=str):
        args = [text(x) for x in a.arguments]
        if a.name == "rate_table_owner":
            owners.setdefault(args[0], []).append(args[1])
        elif a.name == "rate_table_open":
            opened.setdefault((args[0], args[1]), []).append(args[2])
        elif a.name == "rate_table_vary":
            varied.setdefault(args[0], {}).setdefault(args[1], []).append(args[2])
        elif a.name == "rate_table_place":
            placed.add(args[0])
        elif a.name == "rate_table_date":
            dates.append(args[0])
        elif a.name == "rate_table_owner_open":
            owner_open.setdefault(args[0], []).append(args[1])
        elif a.name == "rate_table_owner_fact":
            owner_facts.setdefault(args[0], []).append((args[1], args[2]))
    if len(dates) != 1:
        from pyhelpers.base.errors import LogicError

        raise LogicError(f"logic/core/rate_tables.lp: expected one rate_table_date, found {len(dates)}")
    return Plan(types, {k: tuple(v) for k, v in owners.items()}, {k: tuple(v) for k, v in opened.items()},
                {k: {f: tuple(vs) for f, vs in d.items()} for k, d in varied.items()}, frozenset(placed), dates[0],
                {k: tuple(v) for k, v in owner_open.items()}, {k: tuple(v) for k, v in owner_facts.items()})


def _situations(treaty: str, p: Plan) -> Iterator[_Situation]:
    cat = catalogue()
    home = cat.home
    partner = next(s for s in cat.states[treaty] if s != home)
    for ty in p.types:
        fields = p.varied.get(ty, {})
        choices = list(itertools.product(*[[(f, v) for v in vs] for f, vs in sorted(fields.items())]))
        for source, residence in ((home, partner), (partner, home)):
            for kind in p.owners.get(ty, ("company",)):
                for given in choices:
                    yield _Situation(treaty, ty, source, residence, kind, tuple(given),
                                     p.opened.get((ty, kind), ()))


def _put(data: dict[str, Any], path: str, value: Any) -> None:
    keys = path.split(".")
    for k in keys[:-1]:
        data = data.setdefault(k, {})
    data[keys[-1]] = value


def _scenario_data(s: _Situation, p: Plan) -> dict[str, Any]:
    owner: dict[str, Any] = {"kind": s.owner}
    if s.owner == "government":
        owner["government_of"] = s.residence
    else:
        owner["liable_to_tax"] = {s.residence: ["domicile" if s.owner == "individual" else "incorporation"]}
    for path, value in p.owner_facts.get(s.owner, ()):
        _put(owner, path, yaml.safe_load(value))
    for path in p.owner_open.get(s.owner, ()):
        _put(owner, path, "unknown")
    item: dict[str, Any] = {"id": ITEM, "type": s.income_type, "payer": PAYER, "recipient": OWNER,
                            "date": p.date, "gross": {"amount": "1000000.00", "currency": "BRL"}}
    for path, value in s.given:
        _put(item, path, yaml.safe_load(value))
    for path in s.opened:
        _put(item, path, "unknown")
    data: dict[str, Any] = {
        "name": f"{s.treaty} {s.income_type}: from {s.source} to a {s.owner} resident of {s.residence}",
        "treaty": s.treaty, "evaluation_date": p.date,
        "persons": {PAYER: {"kind": "company", "liable_to_tax": {s.source: ["incorporation"]}}, OWNER: owner},
        "income": [item]}
    if s.income_type in p.placed:
        data["places_of_business"] = {PLACE: {"owner": OWNER, "state": s.source, "permanent_establishment": True}}
        item["place_of_business"] = PLACE
    return data


def _plain(sc: Scenario) -> dict[str, Any]:
    data = sc._plain_data if sc._plain_data is not None else sc.model_dump(mode="json", by_alias=True,
                                                                           exclude_unset=True)
    return dict(data)


def _answer(item: ItemResult, source: str) -> tuple[str, str, int | None, tuple[str, ...]] | None:
    """The source State's answer as a row shows it: (limit, outcome, cap, provisions); None where the
    item is not decided (a value that leaves another fact missing: not a situation of the table)."""
    if item.status == "not_encoded":
        provs = tuple(sorted({f.provision for f in item.findings if f.kind == "not_encoded"}))
        return f"not encoded: {'; '.join(provs)}", "not_encoded", None, provs
    if item.status != "decided":
        return None
    state = item.state(source)
    if state is None:
        return None
    return state.label, state.outcome, state.max_rate_bp, _cited(state.provisions, item)


def _cited(provisions: Sequence[str], item: ItemResult) -> tuple[str, ...]:
    """The provisions a row cites for the source State's answer: the answer's own and, where it rests on any, those
    that bring the item under the article that governs it (``limit_basis``: a recharacterisation the rules made),
    in the treaty's order."""
    if not provisions or not item.limit_basis:
        return tuple(provisions)
    return tuple(sorted({*provisions, *item.limit_basis}, key=provision_key))


OPEN_KINDS = ("missing", "depends", "requires_judgment")
"""The findings that leave an item undecided, as a row names them."""


def notes_of(item: ItemResult) -> tuple[str, ...]:
    """What the rules note on an item (findings ``note``): ``fact (provision)``, sorted."""
    return tuple(sorted({f"{f.fact} ({f.provision})" for f in item.findings if f.kind == "note" and f.fact}))


def _undetermined(item: ItemResult, source: str) -> tuple[str, str, int | None, tuple[str, ...]]:
    """An item the rules do not decide for these values: the source State's outcome (a bound where
    there is one) and the facts or questions left open."""
    open_ = sorted({f"{f.kind.replace('_', ' ')}: {f.fact} ({f.provision})" for f in item.findings
                    if f.kind in OPEN_KINDS and f.fact})
    state = item.state(source)
    provs = tuple(sorted({*_cited(state.provisions if state is not None else (), item),  # the limit's own, then
                          *(f.provision for f in item.findings if f.kind in OPEN_KINDS)}))  # what is open
    label = state.label if state is not None else "undetermined"
    return f"{label}; open: {'; '.join(open_) or item.status}", item.status, None, provs


def _conditions(opened: Sequence[OpenFact], group: Sequence[tuple[int, ...]],
                every: set[tuple[int, ...]]) -> list[tuple[tuple[Condition | str, ...], tuple[int, ...]]]:
    """The conditions of a group of combinations (value indices per open fact), each with the first
    combination that meets it: one row when the group is every combination of the values it takes per
    fact (``fact is values`` for the facts not at every value), else one row per fact whose values
    alone put a combination in the group (a threshold missed on either fact), else the group as a whole
    ("in the other combinations")."""
    members = set(group)
    taken = [sorted({c[k] for c in group}) for k in range(len(opened))]
    size = 1
    for t in taken:
        size *= len(t)

    def words(k: int, values: Sequence[int]) -> Condition:
        f = opened[k]
        return Condition(f.name, _below(f, values) or f.describe(set(values)), f.listed(set(values)),
                         value_kind(f.path))

    if size == len(members):
        conds = tuple(words(k, t) for k, t in enumerate(taken) if len(t) < len(opened[k].values))
        return [(conds, group[0])]
    rows: list[tuple[tuple[Condition | str, ...], tuple[int, ...]]] = []
    covered: set[tuple[int, ...]] = set()
    for k, f in enumerate(opened):
        alone = [v for v in range(len(f.values)) if all(c in members for c in every if c[k] == v)]
        if alone and len(alone) < len(f.values):
            meet = [c for c in group if c[k] in alone]
            covered |= set(meet)
            rows.append(((words(k, alone),), meet[0]))
    if covered == members:
        return rows
    return [(("in the other combinations of " + ", ".join(f.name for f in opened),), group[0])]


def _below(f: OpenFact, values: Sequence[int]) -> str | None:
    """``less than T`` for the percentages of a range up to a basis point below the next value tried, T (a
    threshold the completion examines a basis point below: "T - 0.01% or less" is every share below T); None
    otherwise."""
    chosen = sorted(values)
    if f.ranged != "int" or chosen != list(range(len(chosen))) or len(chosen) >= len(f.values):
        return None
    last, following = f.show(chosen[-1]), f.show(len(chosen))
    if not (last.endswith("%") and following.endswith("%")):
        return None
    try:
        step = Decimal(following[:-1]) - Decimal(last[:-1])
    except ArithmeticError:
        return None
    return f"less than {following}" if step == Decimal("0.01") else None


@dataclass(frozen=True)
class _Expanded:
    """A situation with its open facts and the complete scenarios of their combinations."""

    situation: _Situation
    opened: tuple[OpenFact, ...]
    combos: list[tuple[int, ...]]
    scenarios: list[Scenario]
    data: dict[tuple[int, ...], dict[str, Any]]  # each combination's scenario as plain data (its witness)
    target: Scenario | None = None  # the scenario the combinations give values to


def _source(s: _Situation) -> str:
    return f"<rates {s.treaty} {s.income_type}>"


def _expanded(checker: Checker, s: _Situation, base: Scenario, three: Any) -> _Expanded:
    """The open facts of ``base`` (every ``unknown`` field the catalogue opens, whether or not the three-valued
    answer reports depending on it: a rule may read an unknown field as absent, as where a treaty takes a
    fact from the scenario because its own rule is not in the corpus; the holding records it reports missing)
    and a complete scenario per combination of their values."""
    records = missing_records(checker, base, three, _source(s))
    target = records.scenario if records is not None else base
    opened = (*unknown_values(target), *(records.facts if records is not None else ()))
    return _combined(s, target, opened)


def _combined(s: _Situation, target: Scenario, opened: tuple[OpenFact, ...]) -> _Expanded:
    """``target`` with every combination of the values of its open facts ``opened``: a complete scenario each."""
    combos = list(itertools.product(*[range(len(f.values)) for f in opened]))[:MAX_SITUATIONS]
    choices = [{f.path: f.values[i] for f, i in zip(opened, c, strict=True)} for c in combos]
    scenarios = [target.with_values(choice, _source(s)) if opened else target for choice in choices]
    plain = _plain(target)
    data = {c: substitute(plain, choice) for c, choice in zip(combos, choices, strict=True)}
    return _Expanded(s, opened, combos, scenarios, data, target)


_Key = tuple[tuple[str, str, int | None, tuple[str, ...]], tuple[str, ...]]


def _key(res: Any, source: str) -> _Key:
    """The source State's answer on a combination's result, as :func:`_rows` groups them, with its notes."""
    item = res.items[0]
    return _answer(item, source) or _undetermined(item, source), notes_of(item)


REFINE_ROUNDS = 4
"""At most this many rounds of :func:`_refined` per situation (each places the changes it finds at their day)."""


def _probe(checker: Checker, e: _Expanded, c: tuple[int, ...], k: int, day: date,
           probed: dict[tuple[int, tuple[int, ...], date], _Key]) -> _Key:
    """The answer of combination ``c`` of ``e`` with its ``k``-th open fact (a date) at ``day`` (kept in ``probed``)."""
    rest = c[:k] + c[k + 1:]
    if (k, rest, day) not in probed:
        choice = {g.path: g.values[i] for g, i in zip(e.opened, c, strict=True)}
        choice[e.opened[k].path] = day.isoformat()
        assert e.target is not None
        sc = e.target.with_values(choice, _source(e.situation))
        probed[(k, rest, day)] = _key(_decided(checker, [(sc, _source(e.situation))])[0], e.situation.source)
    return probed[(k, rest, day)]


def _refined(checker: Checker, e: _Expanded, results: list[Any]) -> tuple[_Expanded, list[Any]]:
    """``e`` (and ``results``) with the days added where the answer changes between two consecutive values of a
    date the completion tried: each value stands for the days up to the next one (:meth:`OpenFact.describe`), so
    where the two answer differently the day of the change is found by halving the gap (each half decided as a
    complete scenario) and both sides of it are tried. The first days the completion tries are the item's date
    moved by each period the treaty cites, a day either side; a period counted with both its ends, up to the
    evaluation date (an open-ended holding is known to last up to that day), may change a day beyond them (as
    :func:`pyhelpers.engine.alternatives._refined` finds for `treaty check`)."""
    source = e.situation.source
    for _round in range(REFINE_ROUNDS):
        if e.target is None:
            return e, results
        keys = {c: _key(r, source) for c, r in zip(e.combos, results, strict=True)}
        found: dict[int, set[date]] = {}
        probed: dict[tuple[int, tuple[int, ...], date], _Key] = {}
        for k, f in enumerate(e.opened):
            if f.ranged != "date":
                continue
            days = [date.fromisoformat(str(v)) for v in f.values]
            for c in e.combos:
                v = c[k]
                after = (*c[:k], v + 1, *c[k + 1:])
                if v + 1 >= len(days) or after not in keys or keys[c] == keys[after] \
                        or (days[v + 1] - days[v]).days < 2:
                    continue
                low, high = days[v], days[v + 1]
                while (high - low).days > 1:
                    mid = low + (high - low) // 2
                    if _probe(checker, e, c, k, mid, probed) == keys[c]:
                        low = mid
                    else:
                        high = mid
                found.setdefault(k, set()).update({low, high})
        new = {k: ds - {date.fromisoformat(str(v)) for v in e.opened[k].values} for k, ds in found.items()}
        if not any(new.values()):
            return e, results
        opened = tuple(dataclasses.replace(f, values=tuple(d.isoformat() for d in sorted(
            {date.fromisoformat(str(v)) for v in f.values} | new[k]))) if new.get(k) else f
            for k, f in enumerate(e.opened))
        e = _combined(e.situation, e.target, opened)
        results = _decided(checker, [(sc, _source(e.situation)) for sc in e.scenarios])
    return e, results


def _rows(e: _Expanded, results: Sequence[Any]) -> list[RateRow]:
    """The rows of one situation: its combinations grouped by the source State's answer."""
    s = e.situation
    groups: dict[tuple[tuple[str, str, int | None, tuple[str, ...]], tuple[str, ...]], list[tuple[int, ...]]] = {}
    for c, res in zip(e.combos, results, strict=True):
        answer = _answer(res.items[0], s.source) or _undetermined(res.items[0], s.source)
        groups.setdefault((answer, notes_of(res.items[0])), []).append(c)
    given = tuple(f"{path} = {value}" for path, value in s.given)
    out: list[RateRow] = []
    for ((limit, outcome, cap, provs), notes), group in groups.items():
        for conds, first in _conditions(e.opened, group, set(e.combos)):
            out.append(RateRow(s.treaty, s.income_type, s.source, s.residence, s.owner, given,
                               tuple(map(str, conds)), limit, outcome, cap, provs, e.data[first], notes, conds))
    return sorted(out, key=lambda r: (-(r.max_rate_bp or 0), r.limit, r.conditions))


CHUNK = 100
"""Complete scenarios decided in one clingo run (:meth:`Checker.check_together`)."""


def _decided(checker: Checker, scenarios: Sequence[tuple[Scenario, str]]) -> list[Any]:
    out: list[Any] = []
    for k in range(0, len(scenarios), CHUNK):
        out += checker.check_together(scenarios[k:k + CHUNK])
    return out


def _treaty_rows(checker: Checker, treaty: str, p: Plan) -> list[RateRow]:
    """Every situation of ``treaty``: the minimal ones decided together (three-valued), then every
    combination of their open facts, decided together."""
    situations = list(_situations(treaty, p))
    bases = [load_dict(_scenario_data(s, p)) for s in situations]
    threes = _decided(checker, [(b, _source(s)) for s, b in zip(situations, bases, strict=True)])
    expanded = [_expanded(checker, s, b, t) for s, b, t in zip(situations, bases, threes, strict=True)]
    results = _decided(checker, [(sc, _source(e.situation)) for e in expanded for sc in e.scenarios])
    rows: list[RateRow] = []
    k = 0
    for e in expanded:
        refined, answers = _refined(checker, e, results[k:k + len(e.scenarios)])
        rows += _rows(refined, answers)
        k += len(e.scenarios)
    return rows


def _merged(rows: Sequence[RateRow], p: Plan) -> list[RateRow]:
    """Rows that differ only by the value of a varied field, then only by the kind of beneficial owner,
    as one row: the values (or kinds) listed, a field at every one of its values tried (two or more) left out."""
    by_key: dict[tuple[Any, ...], list[RateRow]] = {}
    for r in rows:
        by_key.setdefault((r.treaty, r.income_type, r.source, r.owner, r.conditions, r.limit, r.provisions, r.notes), []
                          ).append(r)
    out: list[RateRow] = []
    for group in by_key.values():
        first = group[0]
        values: dict[str, list[str]] = {}
        for r in group:
            for g in r.given:
                path, value = g.split(" = ", 1)
                values.setdefault(path, [])
                if value not in values[path]:
                    values[path].append(value)
        tried = p.varied.get(first.income_type, {})
        given = tuple(f"{path} = {' | '.join(vs)}" for path, vs in values.items()
                      if len(vs) < len(tried.get(path, ())) or len(vs) == 1)
        out.append(dataclasses.replace(first, given=given))
    by_owner: dict[tuple[Any, ...], list[RateRow]] = {}
    for r in out:
        by_owner.setdefault((r.treaty, r.income_type, r.source, r.given, r.conditions, r.limit, r.provisions, r.notes),
                            []
                            ).append(r)
    return [dataclasses.replace(g[0], owner=", ".join(r.owner for r in g)) for g in by_owner.values()]


def rate_table(checker: Checker, treaties: Sequence[str] | None = None, on: str | None = None) -> RateTable:
    """The rate tables of ``treaties`` (default: every treaty of the rule base), each item paid (and the answers
    evaluated) on ``on`` (ISO date; default: the day ``logic/core/rate_tables.lp`` gives): a table of the year a
    tax team files for, where the dates of application decide which rows the treaty covers."""
    p = plan(checker)
    if on is not None:
        p = dataclasses.replace(p, date=on)
    chosen = tuple(dict.fromkeys(treaties)) if treaties else catalogue().treaties
    rows = [r for t in chosen for r in _treaty_rows(checker, t, p)]
    stated = [(f"a beneficial owner of kind {kind}: {path} = {value}", path)
              for kind, facts in sorted(p.owner_facts.items()) for path, value in facts]
    by_treaty = {t: tuple(note for note, path in stated if _reads(checker, t, f"persons.<1>.{path}")) for t in chosen}
    notes = tuple(note for note, _ in stated if any(note in by_treaty[t] for t in chosen))
    settled = {a.arguments[0].string: (a.arguments[1].number, a.arguments[2].string) for a in checker.static_atoms
               if a.name == "application_settled_from" and a.arguments[0].type == clingo.SymbolType.String
               and a.arguments[0].string in chosen}
    return RateTable(p.date, chosen, tuple(_merged(rows, p)), notes, by_treaty, settled)


def _reads(checker: Checker, treaty: str, field_path: str) -> bool:
    """Whether ``treaty``'s rules (those citing it, or in its folder) read the fact the scenario states at
    ``field_path`` (``persons.<1>.entitlement.regularly_traded``): a predicate the rule base maps to that field
    (``fact_field``) in the body of one of them. True where no predicate is mapped to it (it cannot be told)."""
    preds = {str(a.arguments[0]) for a in checker.static_atoms if a.name == "fact_field" and len(a.arguments) == 2
             and a.arguments[1].type == clingo.SymbolType.String and a.arguments[1].string == field_path}
    if not preds:
        return True
    uses = re.compile(r"(?<![\w])(?:" + "|".join(map(re.escape, sorted(preds))) + r")\(")
    return any(uses.search(r.text.partition(":-")[2])
               for r in checker.logic.rules
               if r.provision == treaty or r.provision.startswith(f"{treaty} ") or f"/{treaty}/" in r.file)


def witness_answer(checker: Checker, row: RateRow) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The answer the rules give on ``row``'s witness scenario, as a row shows it: (limit, provisions,
    notes), decided by :meth:`Checker.check` (the full path of ``treaty check``)."""
    res = checker.check(load_dict(row.witness), f"<witness {row.treaty} {row.income_type}>")
    answer = _answer(res.items[0], row.source) or _undetermined(res.items[0], row.source)
    return answer[0], answer[3], notes_of(res.items[0])
