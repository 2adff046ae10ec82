"""The little of the treaties' catalogue the format is checked against, read from the rule files: which
treaties the package ships, the Contracting States of each, the State that levies each tax a treaty
names, and the States whose taxes of the Union a treaty distinguishes. Nothing of it is written here."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pyhelpers.base.rulebase import ground_facts, logic_dir, treaty_folders


@dataclass(frozen=True)
class Catalogue:
    treaties: tuple[str, ...]
    """The treaty ids (the folders of ``logic/``), sorted."""
    home: str
    """The State that is a Contracting State of every treaty of the corpus (``home_state``)."""
    states: dict[str, tuple[str, ...]]
    """Treaty → its Contracting States, in the order the catalogue lists them."""
    tax_states: dict[str, str]
    """A tax some treaty names (``listed_tax``) → the State that levies it."""
    union_states: frozenset[str]
    """States whose taxes of the Union (``federal``) some treaty distinguishes (``union_state``)."""
    notice_in_year_of_cessation: dict[str, str]
    """Treaty → the provision by which a notice of termination is given in the year it names as the
    year of cessation (``notice_in_year_of_cessation``)."""
    assumption_fields: dict[tuple[str, str], str]
    """(treaty, assumption) → the scenario field that removes it (``assumption_field``; ``<1>`` stands for
    the assumption's first argument)."""
    fact_fields: dict[str, str]
    """Fact name → the scenario field that states it (``fact_field``; ``<1>``, ``<2>``: its arguments)."""
    fact_fields_in: dict[tuple[str, str], str]
    """(fact name, language) → its ``fact_field`` in that language's words (``fact_field_in``: ``pt``, and
    ``pt-PT`` where its words differ)."""
    fact_leaves: dict[str, tuple[str, ...]]
    """Fact name → the paths of the model fields that state it, where it is one field (``fact_leaf``; several
    where the field is in the details block of the item's kind, ``employment.borne_by`` or
    ``independent.borne_by``: resolved by :mod:`pyhelpers.scenario.factpaths` to the item's own)."""

    def one_of(self) -> str:
        """``a, b or c``: the treaties, as an error message lists them."""
        *rest, last = self.treaties
        return f"{', '.join(rest)} or {last}" if rest else last


def catalogue() -> Catalogue:
    """The catalogue of the rule base in use (:func:`~pyhelpers.base.rulebase.logic_dir`)."""
    return _catalogue(logic_dir())


@lru_cache(maxsize=8)
def _catalogue(root: Path) -> Catalogue:
    treaties = treaty_folders(root)
    states: dict[str, list[str]] = {t: [] for t in treaties}
    for sym in ground_facts("contracting_state", 2, root):
        treaty, state = sym.arguments[0].string, sym.arguments[1].name
        if treaty in states and state not in states[treaty]:
            states[treaty].append(state)
    taxes = {sym.arguments[1].name: sym.arguments[2].name for sym in ground_facts("listed_tax", 4, root)}
    union = frozenset(sym.arguments[1].name for sym in ground_facts("union_state", 3, root))
    same_year = {sym.arguments[0].string: sym.arguments[1].string
                 for sym in ground_facts("notice_in_year_of_cessation", 2, root)}
    home = next((sym.arguments[0].name for sym in ground_facts("home_state", 1, root)), "")
    fields = {(sym.arguments[0].string, sym.arguments[1].name): sym.arguments[2].string
              for sym in ground_facts("assumption_field", 3, root)}
    facts = {sym.arguments[0].name: sym.arguments[1].string for sym in ground_facts("fact_field", 2, root)}
    facts_in = {(sym.arguments[0].name, sym.arguments[1].string): sym.arguments[2].string
                for sym in ground_facts("fact_field_in", 3, root)}
    leaves: dict[str, tuple[str, ...]] = {}
    for sym in ground_facts("fact_leaf", 2, root):
        name, path = sym.arguments[0].name, sym.arguments[1].string
        leaves[name] = (*leaves.get(name, ()), *([path] if path not in leaves.get(name, ()) else []))
    return Catalogue(treaties, home, {t: tuple(s) for t, s in states.items()}, taxes, union, same_year, fields,
                     facts, facts_in, leaves)
