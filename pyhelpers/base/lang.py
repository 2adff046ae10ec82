"""The languages the tool writes: English (``en``), Brazilian Portuguese (``pt``, also spelled ``pt-BR``)
and European Portuguese (``pt-PT``, for users in Portugal).

Every table of the tool's own words is keyed ``en`` and ``pt`` (pt-BR); a ``pt-PT`` entry is written only
where the European form differs, and falls back to ``pt`` otherwise."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

V = TypeVar("V")

LANGS = ("en", "pt", "pt-PT")
"""The values of ``--lang`` (``pt-BR`` is accepted as ``pt``)."""


def normalize(lang: str) -> str:
    """``pt-BR``/``pt_BR``/``pt`` → ``pt``; ``pt-PT``/``pt_PT`` → ``pt-PT``; anything else → ``en``."""
    key = lang.replace("_", "-").lower()
    if key in ("pt", "pt-br"):
        return "pt"
    if key == "pt-pt":
        return "pt-PT"
    return "en"


def family(lang: str) -> str:
    """``en`` or ``pt`` (both Portuguese variants)."""
    return "pt" if normalize(lang) in ("pt", "pt-PT") else "en"


def chain(lang: str) -> tuple[str, ...]:
    """The table keys to try, most specific first: ``pt-PT`` → (``pt-PT``, ``pt``, ``en``)."""
    lang = normalize(lang)
    return {"pt-PT": ("pt-PT", "pt", "en"), "pt": ("pt", "en")}.get(lang, ("en",))


def pick(table: Mapping[str, V], lang: str) -> V:
    """The entry of ``table`` for ``lang``, falling back along :func:`chain`."""
    for key in chain(lang):
        if key in table:
            return table[key]
    raise KeyError(f"no entry for {lang!r} or English")
