"""The measures the rule base declares (``logic/core/measures.lp``) read from its grounded catalogue
into :class:`~pyhelpers.facts.declared.Declared`, and kept in the disk cache by rule base."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import clingo

from pyhelpers.base.errors import LogicError
from pyhelpers.facts.declared import INTEREST_SCOPES, Declared, Window
from pyhelpers.facts.years import YEARS

FORMAT = 3
"""Version of the cached form: bump it when :class:`Declared` changes."""


def declared_from(atoms: Sequence[clingo.Symbol]) -> Declared:
    """The declarations among the static ``atoms`` (each a period or day count of the catalogue, looked
    up by its name; a treaty declaring one measure twice differently is a rule base error)."""
    by: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
    for s in atoms:
        by[s.name].append(tuple(_value(a) for a in s.arguments))
    periods = {(t, name): m for t, name, m, _ in by["period_months"]}
    day_counts = {(t, name): n for t, name, n, _ in by["day_count"]}

    def period(t: str, name: str) -> int:
        if (t, name) not in periods:
            raise LogicError(f"{t}: a measure names the period {name}, which no period_months of {t} sets")
        return int(periods[(t, name)])

    def once(table: dict[Any, Any], key: Any, value: Any, what: str) -> None:
        if table.setdefault(key, value) != value:
            raise LogicError(f"{key}: {what} declared twice, differently ({table[key]} and {value})")

    presence: dict[tuple[str, str], Window] = {}
    for t, ty, year, name in by["measured_presence"]:
        once(presence, (t, ty), Window(period(t, name), _year(year)), "a presence window")
    services: dict[str, Window] = {}
    for t, year, name in by["measured_services"]:
        once(services, t, Window(period(t, name), _year(year)), "a services window")
    ownership: dict[str, int] = {}
    for t, name in by["measured_ownership"]:
        once(ownership, t, period(t, name), "an ownership window")
    interests: dict[str, str] = {}
    for t, scope in by["measured_interests"]:
        if scope not in INTEREST_SCOPES:
            raise LogicError(f"{t}: measured_interests' scope is one of {', '.join(INTEREST_SCOPES)}, found {scope!r}")
        once(interests, t, scope, "the interests' scope")
    value_record: dict[str, int] = {}
    for t, name in by["measured_value_record"]:
        if (t, name) not in day_counts:
            raise LogicError(f"{t}: a measure names the day count {name}, which no day_count of {t} sets")
        once(value_record, t, int(day_counts[(t, name)]), "a value record")
    amounts: dict[tuple[str, str], list[str]] = defaultdict(list)
    for t, quantity, currency in by["measured_amount"]:
        amounts[(t, quantity)].append(currency)
    treaty_months: dict[str, set[int]] = defaultdict(set)
    for t, _, m, _ in by["period_months"]:
        treaty_months[t].add(int(m))
    states: dict[str, list[str]] = defaultdict(list)
    for t, st in by["contracting_state"]:
        if st not in states[t]:
            states[t].append(st)
    return Declared(
        months=frozenset(int(m) for _, _, m, _ in by["period_months"]),
        states={t: tuple(s) for t, s in sorted(states.items())},
        treaty_months={t: frozenset(ms) for t, ms in sorted(treaty_months.items())},
        presence=dict(sorted(presence.items())),
        services=dict(sorted(services.items())),
        ownership=dict(sorted(ownership.items())),
        interests=dict(sorted(interests.items())),
        value_record=dict(sorted(value_record.items())),
        place_days=frozenset(t for (t,) in by["measured_place_days"]),
        date_ymd=frozenset(t for (t,) in by["measured_date_ymd"]),
        amounts={k: tuple(sorted(set(v))) for k, v in sorted(amounts.items())},
    )


def _value(sym: clingo.Symbol) -> Any:
    if sym.type == clingo.SymbolType.Number:
        return sym.number
    if sym.type == clingo.SymbolType.String:
        return sym.string
    return str(sym)


def _year(kind: str) -> str:
    if kind not in YEARS:
        raise LogicError(f"a window measure's year is one of {', '.join(YEARS)}, found {kind!r}")
    return kind


def to_json(d: Declared) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "months": sorted(d.months),
        "states": {t: list(s) for t, s in d.states.items()},
        "treaty_months": {t: sorted(m) for t, m in d.treaty_months.items()},
        "presence": [[t, ty, w.months, w.year] for (t, ty), w in d.presence.items()],
        "services": [[t, w.months, w.year] for t, w in d.services.items()],
        "ownership": d.ownership,
        "interests": d.interests,
        "value_record": d.value_record,
        "place_days": sorted(d.place_days),
        "date_ymd": sorted(d.date_ymd),
        "amounts": [[t, q, list(c)] for (t, q), c in d.amounts.items()],
    }


def from_json(data: Any) -> Declared | None:
    """The cached form read back; None if it is not one (another format, a damaged file)."""
    try:
        if data["format"] != FORMAT:
            return None
        return Declared(
            months=frozenset(int(m) for m in data["months"]),
            states={str(t): tuple(map(str, s)) for t, s in data["states"].items()},
            treaty_months={str(t): frozenset(int(m) for m in ms) for t, ms in data["treaty_months"].items()},
            presence={(str(t), str(ty)): Window(int(m), _year(y)) for t, ty, m, y in data["presence"]},
            services={str(t): Window(int(m), _year(y)) for t, m, y in data["services"]},
            ownership={str(t): int(m) for t, m in data["ownership"].items()},
            interests={str(t): str(v) for t, v in data["interests"].items()},
            value_record={str(t): int(n) for t, n in data["value_record"].items()},
            place_days=frozenset(map(str, data["place_days"])),
            date_ymd=frozenset(map(str, data["date_ymd"])),
            amounts={(str(t), str(q)): tuple(map(str, c)) for t, q, c in data["amounts"]},
        )
    except (KeyError, TypeError, ValueError, LogicError):
        return None
