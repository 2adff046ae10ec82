"""Readings: atoms rendered as English or Portuguese sentences from the vocabulary's templates."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import clingo

from pyhelpers.base import dates
from pyhelpers.base.rulebase import ground_facts, logic_dir
from pyhelpers.engine.program import Logic
from pyhelpers.engine.results import format_bp, format_units


def state_names(lang: str) -> dict[str, str]:
    """The names of the States (``state_name`` facts of the catalogue) in ``lang`` (en or pt)."""
    return _state_names(logic_dir())["pt" if lang == "pt" else "en"]


@lru_cache(maxsize=8)
def _state_names(root: Path) -> dict[str, dict[str, str]]:
    names: dict[str, dict[str, str]] = {"en": {}, "pt": {}}
    for sym in ground_facts("state_name", 3, root):
        names.setdefault(sym.arguments[1].name, {})[sym.arguments[0].name] = sym.arguments[2].string
    return names


_WORDS = {
    "en": {"months": "months", "not": "it is not the case that", "given": "given by the scenario",
           "static": "set by the treaty catalogue", "test": "test", "no_rule": "no rule derived it",
           "not_applied": "{prov} does not apply ({exception})"},
    "pt": {"months": "meses", "not": "não se verifica que", "given": "informado pelo cenário",
           "static": "fixado pelo catálogo da convenção", "test": "teste", "no_rule": "nenhuma regra o derivou",
           "not_applied": "o {prov} não se aplica ({exception})"},
}


def word(key: str, lang: str) -> str:
    return _WORDS["pt" if lang == "pt" else "en"][key]


def plain(sym: clingo.Symbol) -> str:
    """A symbol without quotes or underscores: ``holding(lusoinvest, alfa)``, ``place of management``."""
    t = sym.type  # each property of a symbol is a call into clingo: read once
    if t == clingo.SymbolType.String:
        return str(sym.string)
    if t == clingo.SymbolType.Number:
        return str(sym.number)
    if t == clingo.SymbolType.Function:
        args = sym.arguments
        if args:
            return f"{sym.name}({', '.join(plain(a) for a in args)})"
        return str(sym.name).replace("_", " ")
    return str(sym)


def render_value(sym: clingo.Symbol, typ: str, lang: str) -> str:
    """One argument rendered according to its vocabulary type."""
    lang = "pt" if lang == "pt" else "en"
    t = sym.type
    if typ == "state" and t == clingo.SymbolType.Function and not sym.arguments:
        return state_names(lang).get(sym.name, sym.name.upper())
    if t == clingo.SymbolType.Number:
        n = sym.number
        if typ == "date":
            try:
                d = dates.from_day_number(n)
            except (ValueError, OverflowError):
                return str(n)
            return "(open)" if d == dates.OPEN_END else d.isoformat()
        if typ == "bp":
            return format_bp(n)
        if typ == "units":
            return format_units(n)
        if typ == "months":
            return f"{n} {word('months', lang)}"
        return str(n)
    return plain(sym)


_PLACEHOLDER = re.compile(r"\{([A-Za-z][A-Za-z0-9_]*)\}")


def reading(logic: Logic, sym: clingo.Symbol, lang: str) -> str:
    """The sentence for a ground atom (its first argument, the scenario id, is never shown)."""
    if sym.type != clingo.SymbolType.Function:
        return str(sym)
    args = sym.arguments
    pred = logic.predicate(sym.name, len(args))
    if pred is None:
        return str(sym)
    values = {
        spec.name: render_value(arg, spec.type, lang)
        for spec, arg in zip(pred.args, args, strict=True)
    }
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), pred.reading(lang))


def user_atom(sym: clingo.Symbol) -> str:
    """The atom as a user writes it in a query: scenario id dropped, ids quoted."""
    if sym.type != clingo.SymbolType.Function:
        return str(sym)
    args = sym.arguments
    if not args:
        return str(sym)
    return f"{sym.name}({', '.join(str(a) for a in args[1:])})"
