"""Where a scenario states a fact the rules ask for, resolved against the scenario's ids.

The rules name the field of each fact they may report missing or unknown (``logic/core/scenario_format.lp``):
``fact_field`` for the reader, and ``fact_leaf`` where the fact is one field of the models, as a pure
path (``places_of_business.<1>.agent.independent``); several where that field is the one of the item's
details block (``income[<1>].employment.borne_by``, ``income[<1>].independent.borne_by``). A fact is named
as findings name it (``agent_independent(agency-sp)``, :func:`~pyhelpers.base.terms.render_term`); its
arguments fill the template: ``<k>`` is argument k (``<k.j>`` argument j of a term that is argument k),
``income[<k>]`` the index of the income item whose id is argument k, ``income[<item>]`` that of the item a
finding is about, ``<arrangement>`` the arrangements an item results from.

:func:`leaf_paths` gives the model paths (the loader's: ``("income", 0, "employment", "exercised_in")``)
for a program to read or change the field; :func:`fact_path` the text an output shows, from the leaf
where it resolves and the field's description otherwise; :func:`stated` whether the scenario gives a
value at a path.
"""

from __future__ import annotations

import pathlib
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from pyhelpers.base import lang as languages
from pyhelpers.base.errors import LogicError
from pyhelpers.base.rulebase import logic_dir
from pyhelpers.scenario.catalogue import catalogue
from pyhelpers.scenario.document import Scenario
from pyhelpers.scenario.problems import field_path
from pyhelpers.scenario.services import DETAIL_BLOCKS

Path = tuple[str | int, ...]
"""A path into a scenario's data, as the loader's (``("persons", "alfa", "entitlement", "regularly_traded")``)."""

ITEM = "<item>"
"""In a template: the income item a finding is about (its index in ``income``)."""

_PLACEHOLDER = re.compile(r"<(\d+)(?:\.(\d+))?>")
_STEP = re.compile(r"(?P<name>[a-z_][a-z0-9_]*)(?:\[(?P<index><item>|<\d+(?:\.\d+)?>)\])?|(?P<key><\d+(?:\.\d+)?>)")


def fact_parts(fact: str) -> tuple[str, tuple[str, ...]]:
    """``holding(lusoinvest, alfa)`` → ``("holding", ("lusoinvest", "alfa"))``: a fact's name and its
    arguments as findings write them, split at the commas outside parentheses (a term stays whole)."""
    name, paren, rest = fact.partition("(")
    if not paren:
        return fact.strip(), ()
    body = rest[:_closing(rest)]
    args: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(body):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            args.append(body[start:i].strip())
            start = i + 1
    args.append(body[start:].strip())
    return name.strip(), tuple(args)


def _closing(rest: str) -> int:
    """The position in ``rest`` (what follows a fact's opening parenthesis) of the parenthesis that closes
    it; its length where none does."""
    depth = 0
    for i, ch in enumerate(rest):
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                return i
            depth -= 1
    return len(rest)


def _field_suffix(fact: str) -> str:
    """What follows a fact's closing parenthesis: the field of a record the fact names
    (``holding(lusoinvest, alfa).until`` → ``.until``), else nothing."""
    _name, paren, rest = fact.partition("(")
    return rest[_closing(rest) + 1:] if paren else ""


def leaf_paths(fact: str, items: Sequence[str], scenario: Scenario) -> tuple[Path, ...]:
    """The model paths of the field that states ``fact`` in ``scenario``, by its ``fact_leaf``: one path,
    or, for a template with ``income[<item>]``, one for each of ``items`` that is an income item of the
    scenario. None where the fact has no ``fact_leaf`` or an argument that indexes the path is not an
    income item of the scenario. A fact with several leaves, each in a details block of an income item
    (``employment.borne_by``, ``independent.borne_by``), is stated in the item's own: the one whose block
    the item's type may carry (:data:`~pyhelpers.scenario.services.DETAIL_BLOCKS`), and, where its type
    may carry more than one, whose block the item gives; an item for which that leaves none or several has
    no leaf path (its ``fact_field`` says which in words)."""
    name, args = fact_parts(fact)
    templates = catalogue().fact_leaves.get(name, ())
    if len(templates) == 1:
        return _template_paths(templates[0], args, items, scenario)
    return _own_block(scenario, [p for t in templates for p in _template_paths(t, args, items, scenario)])


def _own_block(scenario: Scenario, paths: Sequence[Path]) -> tuple[Path, ...]:
    """Of the paths of a fact's several leaves, for each income item, the one in the item's own details
    block (see :func:`leaf_paths`); paths that are not in an item's details block are dropped."""
    by_item: dict[int, list[Path]] = {}
    for p in paths:
        if len(p) > 2 and p[0] == "income" and isinstance(p[1], int) and p[2] in DETAIL_BLOCKS:
            by_item.setdefault(p[1], []).append(p)
    out: list[Path] = []
    for k in sorted(by_item):
        item = scenario.income[k]
        mine = [p for p in by_item[k] if item.type in DETAIL_BLOCKS[str(p[2])]]
        if len(mine) > 1:
            mine = [p for p in mine if getattr(item, str(p[2])) is not None]
        if len(mine) == 1:
            out.append(mine[0])
    return tuple(out)


def _template_paths(template: str, args: Sequence[str], items: Sequence[str], scenario: Scenario
                    ) -> tuple[Path, ...]:
    """The model paths a ``fact_leaf`` template resolves to for a fact with arguments ``args`` about
    ``items`` (see :func:`leaf_paths`)."""
    ids = [i.id for i in scenario.income]
    paths: list[Path] = [()]
    for step in leaf_steps(template):
        kind, value = step
        if kind == "name":
            paths = [(*p, value) for p in paths]
        elif value == ITEM:
            paths = [(*p, ids.index(i)) for p in paths for i in dict.fromkeys(items) if i in ids]
        else:
            arg = _argument(args, value)
            if arg is None or (kind == "index" and arg not in ids):
                return ()
            paths = [(*p, ids.index(arg) if kind == "index" else arg) for p in paths]
    return tuple(paths)


def leaf_steps(template: str) -> list[tuple[str, str]]:
    """The steps of a ``fact_leaf`` template: ``("name", field)``, ``("index", placeholder)`` (an income
    item) or ``("key", placeholder)`` (a key of a map). A template that is not a pure path is an error
    of the rule base."""
    steps: list[tuple[str, str]] = []
    for segment in template.split("."):
        m = _STEP.fullmatch(segment)
        if m is None:
            raise LogicError(f"fact_leaf {template!r}: {segment!r} is not a field, a field[<k>] or a <k>")
        if m.group("key"):
            steps.append(("key", m.group("key")))
            continue
        steps.append(("name", m.group("name")))
        if m.group("index"):
            steps.append(("index", m.group("index")))
    return steps


def fact_path(fact: str, items: Sequence[str], scenario: Scenario | None) -> str | None:
    """The scenario field that states an open fact, as outputs show it (``agent_independent(agency-sp)`` →
    ``places_of_business.agency-sp.agent.independent``; ``owners(alfa-uy)`` → ``holdings (records whose
    company is alfa-uy)``): where the scenario gives it as unknown or as alternatives, the path it gives it
    at (``holding(alfa-uy, beta-br).until`` → ``holdings[0].until``); else its ``fact_leaf`` resolved in
    ``scenario`` where there is one (several items: ``income[0|2]...``), else its ``fact_field`` with the
    arguments filled in, and a record's field after them; None where the rules name no field for it."""
    given = next((f for f in scenario.open_facts if f.name == fact), None) if scenario is not None else None
    if given is not None:  # a field the scenario gives as unknown or as alternatives: where it is given
        return field_path(given.path)
    paths = leaf_paths(fact, items, scenario) if scenario is not None else ()
    if paths:
        return _joined(paths)
    name, args = fact_parts(fact)
    template = catalogue().fact_fields.get(name)
    if template is None:
        return None
    ids = [i.id for i in scenario.income] if scenario is not None else []

    def where(arg: str) -> str:
        return str(ids.index(arg)) if arg in ids else arg

    def indexed(m: re.Match[str]) -> str:
        arg = _argument(args, m.group(1))
        return f"income[{where(arg)}]" if arg is not None else m.group(0)

    template = re.sub(r"income\[(<\d+(?:\.\d+)?>)\]", indexed, template)
    if f"income[{ITEM}]" in template:
        own = [i for i in dict.fromkeys(items) if i in ids] or list(dict.fromkeys(items))
        template = template.replace(f"income[{ITEM}]", f"income[{'|'.join(where(i) for i in own) or ITEM}]")
    template = _PLACEHOLDER.sub(lambda m: _argument(args, m.group(0)) or m.group(0), template)
    if scenario is not None and _RECORD_NAME.match(template):  # a field of a record the scenario lists
        return open_field(template, scenario)  # (``holding(a, b).direct`` → ``holdings[0].direct``)
    if "<arrangement>" in template:
        names = sorted(aid for aid, arr in scenario.arrangements.items() if set(arr.items) & set(items)) \
            if scenario is not None else []
        template = template.replace("<arrangement>", "|".join(names) or _NEW_ARRANGEMENT["en"])
    return template + _field_suffix(fact)


def rules_fact(name: str) -> str | None:
    """The rules' name for an open fact named as the answers over its values name it (the inverse of a
    ``fact_leaf`` with one argument): ``places_of_business.chan-rio-office.fixed_base`` →
    ``fixed_base(chan-rio-office)``, ``income(e3).business_profits.attributable_to_place`` →
    ``attributable_to_place(e3)``; None where no single fact of the rules has that field (blind59 R2: a finding
    the engine writes for an open fact names it by its field; the answers in words say it as the rules do)."""
    m = _OPEN_RECORD.match(name)
    if m is None:
        return None
    arg = m["item"] if m["item"] is not None else m["place"]
    template = ("income[<1>]." if m["item"] is not None else "places_of_business.<1>.") + m["rest"]
    fact = _leaf_facts().get(template)
    return f"{fact}({arg})" if fact is not None else None


_OPEN_RECORD = re.compile(r"^(?:income\((?P<item>[^(),\s]+)\)|places_of_business\.(?P<place>[^.\[\]]+))\."
                          r"(?P<rest>[a-z_.]+)$")
"""An open fact of an income item or a place of business as the answers name it, and the field below it."""


@lru_cache(maxsize=1)
def _leaf_facts() -> dict[str, str]:
    """Each ``fact_leaf`` with one argument that names the record (``places_of_business.<1>.fixed_base``) and
    the one fact of the rules it states; none where two facts share the field."""
    found: dict[str, list[str]] = {}
    for fact, templates in catalogue().fact_leaves.items():
        for template in templates:
            if len(_PLACEHOLDER.findall(template)) == 1 and template.startswith(("income[<1>].",
                                                                                  "places_of_business.<1>.")):
                found.setdefault(template, []).append(fact)
    return {template: facts[0] for template, facts in found.items() if len(facts) == 1}


_RECORD_NAME = re.compile(r"^(?P<kind>holding|income|presence)\((?P<args>[^()]*)\)(?P<rest>(?:[.\[].*)?)$")
"""An open fact named by its record (:func:`~pyhelpers.scenario.openfacts.readable_name`):
``holding(lusoinvest, alfa).until``, ``income(div-2024).date``, ``presence(ana, br).until``."""

_RECORD_TABLES = {"holding": ("holdings", ("holder", "company")), "income": ("income", ("id",)),
                  "presence": ("presence", ("person", "state"))}
"""The scenario's list of each kind of record an open fact is named by, and the fields its name gives."""


def open_field(name: str, scenario: Scenario) -> str | None:
    """The scenario field of an open fact named as the answers over its values name it
    (:func:`~pyhelpers.scenario.openfacts.readable_name`, :attr:`~pyhelpers.engine.results.Condition.fact`), as the
    user writes it in ``scenario``: where the scenario gives it as unknown or as alternatives, the path it gives
    it at; a record's field by the record's index (``income(div-2024).entitlement.substantial`` →
    ``income[0].entitlement.substantial``; several records of the same parties: ``holdings[0|2].until``); a record
    the scenario leaves out in words (:func:`fact_path`: ``holdings (a record of alfa-uy in beta-br).from``); any
    other name is the loader's field notation already (``persons.ana.habitual_abode``), itself."""
    given = next((f for f in scenario.open_facts if f.name == name), None)
    if given is not None:
        return field_path(given.path)
    m = _RECORD_NAME.match(name)
    if m is None:
        return name
    table, keys = _RECORD_TABLES[m["kind"]]
    args = tuple(a.strip() for a in m["args"].split(","))
    rows = [k for k, record in enumerate(getattr(scenario, table))
            if tuple(str(getattr(record, key)) for key in keys) == args
            and getattr(record, "direct", True) is not False]  # a holding's open fact is of a direct one
    if not rows:
        return fact_path(name, (), scenario)
    return f"{table}[{'|'.join(map(str, rows))}]{m['rest']}"


def record_paths(fact: str, scenario: Scenario) -> tuple[Path, ...]:
    """The model paths of the field that states ``fact`` where its ``fact_field`` names a field of a record the
    scenario lists (``holding_direct(a, b)`` → ``holding(a, b).direct``): that field of each record of those parties
    (``("holdings", 0, "direct")``, in the records' order); none where the template names no record's field (a
    ``fact_leaf`` says where those are: :func:`leaf_paths`) or the scenario lists no such record."""
    name, args = fact_parts(fact)
    template = catalogue().fact_fields.get(name)
    if template is None:
        return ()
    m = _RECORD_NAME.match(_PLACEHOLDER.sub(lambda p: _argument(args, p.group(0)) or p.group(0), template))
    if m is None or not m["rest"].startswith("."):
        return ()
    table, keys = _RECORD_TABLES[m["kind"]]
    wanted = tuple(a.strip() for a in m["args"].split(","))
    rest = tuple(m["rest"][1:].split("."))
    return tuple((table, k, *rest) for k, record in enumerate(getattr(scenario, table))
                 if tuple(str(getattr(record, key)) for key in keys) == wanted)


_TAX_FIELD = re.compile(r"^income\[(\d+)\]\.tax\.(\w+)$")
"""A field of the tax an item concerns, as a fact's template names it without saying which State's tax."""

_NEW_TAX = "(add the tax of {state} to income[{k}].tax)"
"""After the path of a tax the item's ``tax:`` does not name yet: the State whose tax to add to the list."""
_NEW_TAX_READ = (re.compile(r"\(add the tax of (\w+) to (income\[\d+\]\.tax)\)"), r"(acrescente o imposto de \1 a \2)")
""":data:`_NEW_TAX` as written, and in Portuguese (:func:`field_text`)."""


def tax_field(field: str, scenario: Scenario) -> str:
    """``field`` with the tax it is of named as the loader writes paths, where it is ``income[k].tax.<attr>``
    (the template of a fact that does not say which State's tax it asks about): each tax the item names that
    does not give ``attr`` (or gives it as ``unknown``), by its index (``income[0].tax[1].fiscal_year_start``,
    several: ``income[0].tax[0|1].fiscal_year_start``; the one tax not given as a list: ``field``);
    a fiscal year not of a tax stated as withheld at source, which is asked no fiscal year; and, for each State
    of the treaty none of whose taxes the item names, the index the user adds it at, with the State named
    (``income[0].tax[1].fiscal_year_start (add the tax of pt to income[0].tax)``). ``field`` itself where it
    is not such a field, where the item names no tax (the user may name one, in the single form), or where that
    names no tax."""
    m = _TAX_FIELD.match(field)
    if m is None or int(m.group(1)) >= len(scenario.income):
        return field
    k, attr = int(m.group(1)), m.group(2)
    item = scenario.income[k]
    taxes = item.taxes
    if not taxes:  # no tax named: the field of the one tax the user may name (the single form)
        return field
    at = [n for n, tax in enumerate(taxes) if getattr(tax, attr, None) in (None, "unknown")
          and not (attr == "fiscal_year_start" and tax.withheld_at_source is True)]
    named = {catalogue().tax_states.get(tax.name) or tax.state for tax in taxes}
    absent = [st for st in catalogue().states.get(scenario.treaty, ()) if st not in named]
    listed = isinstance(item.tax, list)
    paths = ([f"income[{k}].tax[{'|'.join(map(str, at))}].{attr}" if listed else field] if at else [])
    paths += [f"income[{k}].tax[{len(taxes) + j}].{attr} " + _NEW_TAX.format(state=st, k=k)
              for j, st in enumerate(absent)]
    return " or ".join(paths) or field


_NEW_ARRANGEMENT = {"en": "<new arrangement listing the item>", "pt": "<novo arrangement que liste o rendimento>"}
"""Where no arrangement lists the item: the one to add (``arrangements.<new arrangement ...>``)."""

_TOKEN = re.compile(r"<(?:\d+(?:\.\d+)?|item|arrangement)>")


def field_text(field: str, lang: str) -> str:
    """The scenario field of an open fact (:func:`fact_path`, English) in ``lang``'s words: a field that a
    ``fact_field`` says in words (``holdings (a record of lusoinvest in alfa)``) in those of its
    ``fact_field_in`` (``holdings (um registro de lusoinvest em alfa)``), a field of it after it as it is
    (``holdings (um registro de lusoinvest em alfa).from``); a path as it is."""
    if languages.family(lang) == "en":
        return field
    field = field.replace(_NEW_ARRANGEMENT["en"], _NEW_ARRANGEMENT["pt"])
    field = _NEW_TAX_READ[0].sub(_NEW_TAX_READ[1], field)
    worded = _worded_fields(logic_dir())
    found = next(((name, m, tokens) for name, pattern, tokens in worded if (m := pattern.fullmatch(field))), None) \
        or next(((name, m, tokens) for name, pattern, tokens in worded
                 if (m := pattern.match(field)) and field[m.end():].startswith((".", "["))), None)
    if found is None:
        return field
    name, m, tokens = found
    words = next((t for key in languages.chain(lang)
                  if (t := catalogue().fact_fields_in.get((name, key))) is not None), None)
    if words is None:
        return field
    return _filled(words, dict(zip(tokens, m.groups(), strict=True))) + field[m.end():]


def _filled(template: str, found: dict[str, str]) -> str:
    return _TOKEN.sub(lambda t: found.get(t.group(0), t.group(0)), template)


@lru_cache(maxsize=8)
def _worded_fields(root: pathlib.Path) -> tuple[tuple[str, re.Pattern[str], tuple[str, ...]], ...]:
    """Each ``fact_field`` said in words (one with a space), as a pattern its filled text matches, with the
    placeholders its groups stand for (a placeholder met again: the same text, matched by a back-reference)."""
    out = []
    for name, template in sorted(catalogue().fact_fields.items()):
        if " " not in template:
            continue
        pattern, at = "", 0
        tokens: list[str] = []
        for t in _TOKEN.finditer(template):
            pattern += re.escape(template[at:t.start()])
            if t.group(0) in tokens:
                pattern += f"(?:\\{tokens.index(t.group(0)) + 1})"
            else:
                tokens.append(t.group(0))
                pattern += "(.+?)"
            at = t.end()
        out.append((name, re.compile(pattern + re.escape(template[at:])), tuple(tokens)))
    return tuple(out)


def stated(scenario: Scenario, path: Path) -> bool:
    """Whether ``scenario`` gives a value at ``path`` (possibly ``unknown``): written in the scenario, not
    filled in by the format's default."""
    node: Any = scenario.model_dump(mode="json", by_alias=True, exclude_unset=True)
    for part in path:
        if isinstance(part, int):
            if not isinstance(node, list) or not 0 <= part < len(node):
                return False
        elif not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return node is not None


def _argument(args: Sequence[str], placeholder: str) -> str | None:
    """The argument a placeholder stands for (``<2>``; ``<1.2>``: the second argument of the first), or
    None where the fact has no such argument."""
    m = _PLACEHOLDER.fullmatch(placeholder)
    if m is None:
        return None
    k = int(m.group(1))
    if not 0 < k <= len(args):
        return None
    if m.group(2) is None:
        return args[k - 1]
    inner = fact_parts(args[k - 1])[1]
    j = int(m.group(2))
    return inner[j - 1] if 0 < j <= len(inner) else None


def _joined(paths: Sequence[Path]) -> str:
    """One path as the loader writes it (:func:`~pyhelpers.scenario.problems.field_path`); several that
    differ only in an income item's index, with the indices joined: ``income[0|2].relief.payer_constituted``."""
    if len(paths) == 1:
        return field_path(paths[0])
    out = ""
    for parts in zip(*paths, strict=True):
        first = parts[0]
        if isinstance(first, int):
            out += f"[{'|'.join(str(p) for p in dict.fromkeys(parts))}]"
        else:
            out += ("." if out else "") + str(first)
    return out
