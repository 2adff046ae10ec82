"""The treaty catalogue: which treaties and articles exist, their state of encoding, and their text."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import clingo

from pyhelpers.base import lang as languages
from pyhelpers.base.errors import InputError
from pyhelpers.engine.program import Logic, LogicFile, provision_key


@dataclass
class ArticleEntry:
    number: str
    provision: str
    status: str  # encoded | pending | missing | procedural
    titles: dict[str, str] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)  # why it is procedural, by language (en, pt)

    def reason(self, lang: str) -> str | None:
        """Why the article is procedural, in ``lang`` (pt-PT reads pt; English where a language lacks it)."""
        return languages.pick(self.reasons, lang) if self.reasons else None

    def label(self, protocol: str) -> str:
        """The article's number as shown, ``protocol`` the word for a Protocol item (``Protocol N``)."""
        return self.number.replace("Protocol ", f"{protocol} ", 1) if self.number.startswith("Protocol ") \
            else self.number


@dataclass
class TreatyEntry:
    treaty: str
    banner: dict[str, str]
    articles: list[ArticleEntry]
    notes: dict[str, list[str]] = field(default_factory=dict)  # the corpus notes, by language (en, pt)

    def by_status(self, status: str) -> list[ArticleEntry]:
        return [a for a in self.articles if a.status == status]

    def notes_in(self, lang: str) -> list[str]:
        """The corpus notes in ``lang`` (pt-PT reads pt; English where a language lacks them)."""
        return languages.pick(self.notes, lang) if self.notes else []


def _number(sym: clingo.Symbol) -> str:
    if sym.type == clingo.SymbolType.Number:
        return str(sym.number)
    if sym.name == "protocol" and sym.arguments:
        return f"Protocol {sym.arguments[0].number}"
    return str(sym)


def treaties(logic: Logic, static_atoms: list[clingo.Symbol]) -> list[TreatyEntry]:
    """Every treaty of the rule base with its articles, from the catalogue facts."""
    arts: dict[str, dict[str, ArticleEntry]] = defaultdict(dict)
    for s in static_atoms:
        if s.name == "article" and len(s.arguments) == 4:
            t, n, prov, status = s.arguments
            arts[t.string][_number(n)] = ArticleEntry(_number(n), prov.string, status.name)
    for s in static_atoms:
        if s.name == "article_title" and len(s.arguments) == 4:
            t, n, lang, title = s.arguments
            entry = arts[t.string].get(_number(n))
            if entry is not None:
                entry.titles[lang.name] = title.string
        elif s.name == "procedural_reason" and len(s.arguments) == 4:
            t, n, lang, why = s.arguments
            entry = arts[t.string].get(_number(n))
            if entry is not None:
                entry.reasons[lang.name] = why.string
    notes: dict[str, dict[str, list[str]]] = defaultdict(dict)
    for sym in static_atoms:
        if sym.name == "corpus_note" and len(sym.arguments) == 3:
            t, lang, note = sym.arguments
            notes[t.string].setdefault(lang.name, []).append(note.string)
    out = []
    for treaty in sorted(arts):
        banner = next((f.banner for f in logic.files if f.banner.get("Treaty") == treaty and "Partner" in f.banner), {})
        entries = sorted(arts[treaty].values(), key=lambda a: provision_key(a.provision))
        out.append(TreatyEntry(treaty, banner, entries, notes[treaty]))
    return out


def article_files(logic: Logic, treaty: str, article: str) -> list[LogicFile]:
    """The rule files that encode an article (its number, or ``Protocol`` and its number)."""
    found = [f for f in logic.files if f.banner.get("Treaty") == treaty and f.banner.get("Article") == article]
    if not found:
        known = sorted({f.banner["Treaty"] for f in logic.files if "Treaty" in f.banner})
        if treaty not in known:
            raise InputError(f"treaty {treaty!r} is not known: expected one of {', '.join(known)}")
    return found
