"""Random scenarios for the cross-check, many with facts given as ``unknown``.

Two sources, both validated by the scenario loader (a candidate it rejects is drawn again):

* **mutations** of the scenario suite: 1–4 random changes to a scenario's data — a value set to
  ``unknown``, an optional attribute dropped, a boolean flipped, a date shifted (often by one day, to
  hit boundaries), a percentage moved to a threshold, a value replaced by one the suite uses under
  the same key elsewhere (income types, person kinds, States, instruments ...). This follows whatever
  fields the articles' groups add, without knowing them;
* **synthetic** scenarios built from scratch: persons of every kind with residence facts (each
  possibly unknown or missing), holdings, places of business, presence, and income items of every
  type the format knows.

Deterministic for a seed.
"""

from __future__ import annotations

import copy
import random
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any, get_args

import yaml

from pyhelpers.base import dates
from pyhelpers.base.errors import InputError
from pyhelpers.base.rulebase import ground_facts, logic_dir
from pyhelpers.scenario import IncomeItem, Scenario, load_dict
from pyhelpers.scenario.catalogue import catalogue
from pyhelpers.scenario.persons import PersonKind, ResidenceCriterion

_SKIP_KEYS = {"name", "description", "expect", "evaluation_date"}


def _percents() -> list[float]:
    """Shares to try: none, all, and the treaties' cited percentages with a basis point either side."""
    return _percents_of(logic_dir())


@lru_cache(maxsize=8)
def _percents_of(root: Path) -> list[float]:
    cited = sorted({s.arguments[2].number for s in ground_facts("percentage", 4, root)} - {0})
    bps = sorted({0, 10000, *cited, *(v - 1 for v in cited), *(v + 1 for v in cited)} & set(range(10001)))
    return [bp / 100 for bp in bps]


def _day_shifts() -> list[int]:
    """Date shifts to try: a day, a month, and the treaties' day counts and periods with a day more."""
    return _day_shifts_of(logic_dir())


@lru_cache(maxsize=8)
def _day_shifts_of(root: Path) -> list[int]:
    days = {s.arguments[2].number for s in ground_facts("day_count", 4, root)}
    days |= {s.arguments[2].number * 366 // dates.MONTHS_IN_YEAR + 1
             for s in ground_facts("period_months", 4, root)}
    return [d for n in [1, 1, 30, *sorted(days)] for d in (-n, n)]


@dataclass(frozen=True)
class Generated:
    name: str
    data: dict[str, Any]
    scenario: Scenario


def _suite_data(paths: Iterable[Path]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for p in paths:
        try:
            data = yaml.safe_load(p.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError):
            continue
        if isinstance(data, dict):
            data.pop("expect", None)
            out.append((str(p), data))
    return out


def _value_pools(datas: Iterable[dict[str, Any]]) -> dict[str, list[Any]]:
    """Every scalar value the suite uses, by the key it stands under (list items: the list's key)."""
    pools: dict[str, set[Any]] = defaultdict(set)

    def visit(node: Any, key: str | None) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k not in _SKIP_KEYS:
                    visit(v, str(k))
        elif isinstance(node, list):
            for v in node:
                visit(v, key)
        elif key is not None and isinstance(node, (str, int, float, bool)) and not isinstance(node, date):
            pools[key].add(node)

    for d in datas:
        visit(d, None)
    return {k: sorted(v, key=repr) for k, v in pools.items()}


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths to every value below the top-level sections (dict keys and list indices)."""
    out: list[tuple[Any, ...]] = []
    if isinstance(node, dict):
        for k, v in node.items():
            if not prefix and k in _SKIP_KEYS | {"treaty"}:
                continue
            out.append((*prefix, k))
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.append((*prefix, i))
            out += _paths(v, (*prefix, i))
    return out


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        data = data[p]
    return data


def _ids(data: dict[str, Any]) -> set[str]:
    out: set[str] = set()
    for section in ("persons", "places_of_business"):
        if isinstance(data.get(section), dict):
            out |= {str(k) for k in data[section]}
    return out


def _mutate(rng: random.Random, data: dict[str, Any], pools: dict[str, list[Any]]) -> None:
    # below the sections only: persons and places of business themselves stay (others refer to them)
    paths = [p for p in _paths(data) if len(p) >= 3 or (len(p) == 2 and isinstance(p[1], int))]
    if not paths:
        return
    path = rng.choice(paths)
    parent = _get(data, path[:-1])
    key = path[-1]
    value = parent[key]
    name = next((str(p) for p in reversed(path) if isinstance(p, str)), "")
    ids = _ids(data)
    pool = pools.get(name, [])
    op = rng.random()
    if isinstance(value, str) and value in ids:
        parent[key] = rng.choice(sorted(ids))
    elif op < 0.35 and "unknown" in pool and value != "unknown":
        parent[key] = "unknown"
    elif op < 0.5 and isinstance(parent, dict) and len(path) >= 3:
        del parent[key]
    elif isinstance(value, bool):
        parent[key] = not value
    elif isinstance(value, date):
        parent[key] = value + timedelta(days=rng.choice(_day_shifts()))
    elif isinstance(value, (int, float)) and name in ("capital", "votes", "value", "profits"):
        parent[key] = rng.choice(_percents())
    elif isinstance(value, (str, int, float)) and pool:
        parent[key] = rng.choice(pool)
    elif "unknown" in pool:
        parent[key] = "unknown"



def rule_files_of(treaty: str) -> list[str]:
    return sorted(p.name for p in (logic_dir() / treaty).glob("*.lp"))


def _day(rng: random.Random, start: date, span: int) -> date:
    return start + timedelta(days=rng.randrange(span))


def _synthetic(rng: random.Random, types: list[str]) -> dict[str, Any]:
    treaties = catalogue().treaties
    treaty = rng.choices(treaties, [len(rule_files_of(t)) for t in treaties])[0]  # by the size of its rules
    states = [*catalogue().states[treaty], "us"]  # and a third State
    kinds = list(get_args(PersonKind))
    criteria = list(get_args(ResidenceCriterion))
    persons: dict[str, Any] = {}
    for n in range(rng.randint(2, 4)):
        kind = rng.choice(kinds)
        p: dict[str, Any] = {"kind": kind}
        r = rng.random()
        if r < 0.85:
            liable: dict[str, Any] = {}
            for st in rng.sample(states, rng.randint(0, 2)):
                liable[st] = "unknown" if rng.random() < 0.15 else rng.sample(criteria, rng.randint(1, 2))
            p["liable_to_tax"] = liable
        if kind == "individual":
            for attr in ("nationality", "permanent_home", "habitual_abode"):
                x = rng.random()
                if x < 0.15:
                    p[attr] = "unknown"
                elif x < 0.85:
                    p[attr] = rng.sample(states[:2], rng.randint(0, 2))
            x = rng.random()
            if x < 0.15:
                p["vital_interests"] = "unknown"
            elif x < 0.75:
                p["vital_interests"] = rng.choice([*states[:2], "undetermined"])
        else:
            x = rng.random()
            if x < 0.15:
                p["effective_management"] = "unknown"
            elif x < 0.8:
                p["effective_management"] = rng.choice(states)
        if kind == "other_entity" and rng.random() < 0.85:
            p["treated_as_body_corporate"] = rng.choice([True, False, "unknown"])
        if kind == "government":
            p["government_of"] = rng.choice(states)
        persons[f"p{n}"] = p
    ids = list(persons)
    holdings = []
    pairs: set[tuple[int, int]] = set()
    for _ in range(rng.randint(0, 3)):
        a, b = sorted(rng.sample(range(len(ids)), 2))  # the company comes first: no cycle
        if (a, b) in pairs or persons[ids[a]]["kind"] == "individual":
            continue
        pairs.add((a, b))
        since = _day(rng, date(2019, 1, 1), 5 * 366)
        h: dict[str, Any] = {"holder": ids[b], "company": ids[a], "from": since,
                             rng.choice(["capital", "capital", "votes"]): rng.choice(_percents())}
        if rng.random() < 0.3:
            h["until"] = since + timedelta(days=rng.randrange(1, 4 * 366))
        if rng.random() < 0.2:
            h["direct"] = False
        holdings.append(h)
    places: dict[str, Any] = {}
    for n in range(rng.randint(0, 2)):
        pl: dict[str, Any] = {"owner": rng.choice(ids), "state": rng.choice(states)}
        x = rng.random()
        if x < 0.75:
            pl["permanent_establishment"] = rng.choice([True, False, "unknown"])
        places[f"pb{n}"] = pl
    income = []
    for n in range(rng.randint(1, 3)):
        payer, recipient = rng.sample(ids, 2)
        ty = rng.choice(["dividend"] * 4 + types)
        item: dict[str, Any] = {"id": f"i{n}", "type": ty, "payer": payer, "recipient": recipient,
                                "date": _day(rng, date(2028, 1, 1), 900),
                                "gross": {"amount": f"{rng.randrange(1, 10**7)}.00", "currency": "BRL"}}
        if rng.random() < 0.15:
            item["beneficial_owner"] = rng.choice(ids)
        if ty == "branch_profits" or (places and rng.random() < 0.2):
            if not places:
                places["pb9"] = {"owner": recipient, "state": rng.choice(states)}
            item["place_of_business"] = rng.choice(list(places))
        if ty == "dividend" and rng.random() < 0.7:
            d: dict[str, Any] = {"instrument": rng.choice(["shares"] * 4 + ["other_corporate_rights", "debt_claim",
                                                                           "participation_account"])}
            if d["instrument"] == "other_corporate_rights" or rng.random() < 0.2:
                d["same_tax_treatment_as_shares"] = rng.choice([True, False, "unknown"])
            if rng.random() < 0.5:
                d["payer_has_profits_from_other_state"] = rng.choice([True, False, "unknown"])
            if places and rng.random() < 0.3:
                d["connected_place_of_business"] = rng.choice(list(places))
            item["dividend"] = d
        income.append(item)
    data: dict[str, Any] = {"name": "synthetic", "treaty": treaty, "evaluation_date": date(2030, 12, 31),
                            "persons": persons, "income": income}
    if holdings:
        data["holdings"] = holdings
    if places:
        data["places_of_business"] = places
    individuals = [i for i in ids if persons[i]["kind"] == "individual"]
    if individuals and rng.random() < 0.3:
        start = _day(rng, date(2028, 1, 1), 600)
        data["presence"] = [{"person": rng.choice(individuals), "state": rng.choice(states), "from": start,
                             "until": start + timedelta(days=rng.randrange(0, 200))}]
    return data


def _plain_types() -> list[str]:
    """The income types an item may have without details of its own (the synthetic scenarios use them;
    the mutations of the suite reach the others)."""
    out = []
    for ty in get_args(IncomeItem.model_fields["type"].annotation):
        data = {"name": "probe", "treaty": catalogue().treaties[0], "evaluation_date": "2025-01-01",
                "persons": {"a": {"kind": "company"}, "b": {"kind": "company"}},
                "income": [{"id": "i", "type": ty, "payer": "a", "recipient": "b", "date": "2024-01-01"}]}
        try:
            load_dict(data, "probe")
        except (InputError, ValueError, TypeError):
            continue
        out.append(str(ty))
    return out or ["dividend"]


def generate(n: int, seed: int = 11, suite: Iterable[Path] = (), attempts: int = 20) -> tuple[list[Generated], int]:
    """``n`` random valid scenarios and the number of candidates the loader rejected on the way."""
    rng = random.Random(seed)
    base = _suite_data(suite)
    pools = _value_pools(d for _, d in base)
    types = _plain_types()
    out: list[Generated] = []
    rejected = 0
    for i in range(n):
        for _ in range(attempts):
            if base and rng.random() < 0.6:
                source, original = rng.choice(base)
                data = copy.deepcopy(original)
                for _ in range(rng.randint(1, 4)):
                    _mutate(rng, data, pools)
                label = f"generated #{i} (mutation of {source})"
            else:
                data = _synthetic(rng, types)
                label = f"generated #{i} (synthetic)"
            data["name"] = label
            try:
                scenario = load_dict(data, label)
            except (InputError, ValueError, TypeError, KeyError):
                rejected += 1
                continue
            out.append(Generated(label, data, scenario))
            break
    return out, rejected
