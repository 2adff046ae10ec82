"""The scenario field of each open fact a result reports: a finding about a fact the scenario may state
(missing, given as unknown, not needed, a judgment to make: :data:`~pyhelpers.engine.results.FIELD_KINDS`)
carries, in ``Finding.field``, the YAML path that states it as the user writes it
(``places_of_business.agency-sp.agent.independent``, ``holdings[0].until``), resolved against the scenario
the user gave by :func:`~pyhelpers.scenario.factpaths.fact_path`. The path is named once here, where the
result leaves the engine, so every output shows the same one."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Sequence

from pyhelpers.engine.results import (
    FIELD_KINDS,
    Alternative,
    Condition,
    Finding,
    ItemResult,
    PersonAnswer,
    ScenarioResult,
    replaced,
)
from pyhelpers.scenario.catalogue import catalogue
from pyhelpers.scenario.document import Scenario
from pyhelpers.scenario.factpaths import fact_parts, fact_path, open_field, rules_fact, tax_field
from pyhelpers.scenario.income import IncomeItem
from pyhelpers.scenario.services import DETAIL_BLOCKS


def named(f: Finding, items: Sequence[str], scenario: Scenario) -> Finding:
    """``f`` with the field that states its fact in ``scenario`` (about ``items``; an assumption: the field that
    removes it, :func:`assumption_path`); ``f`` itself for the other kinds, or where the rules name no field."""
    if f.kind == "assumption" and f.fact:
        path = assumption_path(f, items, scenario)
    elif f.kind not in FIELD_KINDS or not f.fact:
        return f
    else:
        path = fact_path(f.fact, items, scenario)
        if path is None and rules_fact(f.fact) is not None:  # a finding the engine writes for a fact opened over its
            path = open_field(f.fact, scenario)  # values, named by its field: that field (blind59 R2)
    out = dataclasses.replace(f, field=tax_field(path, scenario) if path is not None else None)
    if f.kind == "depends" and f.open_as is None and path is not None and path.isidentifier() \
            and not _written_at_top(scenario, path):
        # a field of the scenario left out whose default the rules read as unknown (the days after the evaluation
        # date): not stated, never "given as unknown" (blind58b D3)
        out = dataclasses.replace(out, open_as="not_given")
    return out


def _written_at_top(scenario: Scenario, name: str) -> bool:
    """Whether the scenario as written gives its top-level field ``name``."""
    plain = scenario._plain_data
    if isinstance(plain, dict):
        return name in plain
    return name in scenario.model_fields_set


def assumption_path(f: Finding, items: Sequence[str], scenario: Scenario) -> str | None:
    """The scenario field that removes the assumption ``f``, as the user writes it: the rules' ``assumption_field``
    (``pension.past_employment``, ``persons.<1>.special_regime``) with ``<1>`` the fact's first argument, a field
    of an income item under the item's index (``income[0].pension.past_employment``), in the details block that
    holds it where the item has one (``income[0].interest.arm_length_amount``); several fields (``a or b``) each
    so; a field of the scenario's own (``persons.<1>...``, ``places_of_business.<1>...``) as it stands. None where
    the rules name no field."""
    name, args = fact_parts(f.fact or "")
    template = catalogue().assumption_fields.get((f.provision.split(" ")[0], name))
    if template is None:
        return None
    first = args[0] if args else ""
    template = template.replace("<1>", first).replace("<2>", args[1] if len(args) > 1 else "<2>")
    if template.startswith("holding("):  # a field of a holding record: by its index (``holdings[0].direct``)
        return open_field(template, scenario)
    ids = [i.id for i in scenario.income]
    own = first if first in ids else next((i for i in items if i in ids), None)
    if template.split(".")[0] in type(scenario).model_fields or own is None:  # a field of the scenario's own
        return template
    k = ids.index(own)
    item = scenario.income[k]

    def path(part: str) -> str:
        head = part.split(".")[0]
        if head in type(item).model_fields:
            return f"income[{k}].{part}"
        block = next((b for b in DETAIL_BLOCKS if (details := getattr(item, b, None)) is not None
                      and head in type(details).model_fields), None)
        return f"income[{k}].{block}.{part}" if block is not None else f"income[{k}].{part}"
    return " or ".join(path(part) for part in template.split(" or "))


def item_named(it: ItemResult, scenario: Scenario) -> ItemResult:
    """``it`` with the fields of its findings, those of its alternatives and of the open facts their conditions
    (and those of its relief's methods) name, named in ``scenario``."""
    own = (it.item_id,)
    relief = it.relief
    if relief is not None and any(m.holds_if for m in relief.open_methods):
        relief = dataclasses.replace(relief, open_methods=tuple(
            dataclasses.replace(m, holds_if=_conditions(m.holds_if, scenario)) for m in relief.open_methods))
    compliance = it.compliance
    if compliance is not None and compliance.finding == "depends" and compliance.reason:
        compliance = dataclasses.replace(compliance, fields=tuple(
            open_field(f, scenario) for f in compliance.reason.split("; ")))
    findings = tuple(named(f, own, scenario) for f in it.findings)
    alternatives = tuple(_alternative(a, own, scenario) for a in it.alternatives)
    facts = {f.field: f.fact for f in (*findings, *(a.finding for a in alternatives if a.finding is not None))
             if f.kind in FIELD_KINDS and f.field and f.fact}
    if facts:  # a condition on a field a finding names: the rules' name for its fact (its words in the answers)
        alternatives = tuple(_facts_named(a, facts) for a in alternatives)
    return dataclasses.replace(it, findings=findings,
                               assumptions=tuple(named(f, own, scenario) for f in it.assumptions),
                               alternatives=alternatives, relief=relief, compliance=compliance)


def _facts_named(a: Alternative, facts: dict[str, str]) -> Alternative:
    """``a`` with each condition on a field in ``facts`` (field → the rules' name for the fact a finding gives)
    carrying that name (:attr:`Condition.named`)."""
    def each(conditions: Sequence[Condition]) -> tuple[Condition, ...]:
        return tuple(dataclasses.replace(c, named=facts[c.field]) if c.field in facts else c for c in conditions)
    return dataclasses.replace(a, holds_if=each(a.holds_if), holds_if_any=tuple(each(b) for b in a.holds_if_any))


def condition_named(c: Condition, scenario: Scenario) -> Condition:
    """``c`` with the field that states its open fact in ``scenario`` (:func:`~pyhelpers.scenario.factpaths.open_field`:
    the fact's name itself where that is the field's path already)."""
    return dataclasses.replace(c, field=open_field(c.fact, scenario))


def _conditions(conditions: Sequence[Condition], scenario: Scenario) -> tuple[Condition, ...]:
    return tuple(condition_named(c, scenario) for c in conditions)


def result_named(result: ScenarioResult, scenario: Scenario) -> ScenarioResult:
    """``result`` with the field of each finding about a fact, and of each open fact it answered over,
    named in ``scenario`` (the one the user gave: not a slice of it, nor one with records added to answer
    for missing ones)."""
    items = tuple(item_named(it, scenario) for it in result.items)
    answers = tuple(_answer(a, scenario) for a in result.answers)
    unknowns = tuple(dataclasses.replace(u, field=open_field(u.fact, scenario) or fact_path(u.fact, u.items, scenario))
                     for u in result.unknowns)
    return dataclasses.replace(result, items=items, answers=answers, unknowns=unknowns)


def _alternative(a: Alternative, items: Sequence[str], scenario: Scenario) -> Alternative:
    a = dataclasses.replace(a, holds_if=_conditions(a.holds_if, scenario),
                            holds_if_any=tuple(_conditions(both, scenario) for both in a.holds_if_any))
    if a.finding is None:
        return a
    return dataclasses.replace(a, finding=named(a.finding, items, scenario))


def _answer(a: PersonAnswer, scenario: Scenario) -> PersonAnswer:
    return dataclasses.replace(a, findings=tuple(named(f, (), scenario) for f in a.findings))


def row_named(it: ItemResult, context: Scenario, item: IncomeItem,
              names: dict[tuple[str, str, tuple[bool, ...]], str | None]) -> ItemResult:
    """:func:`item_named` in the scenario of one batch row (``context`` with ``item`` alone), each field
    looked up in ``names`` (filled as found; one per context). A fact's field depends on the row's item only
    through its type, the details blocks it gives and its id where an argument of the fact is that id
    (:func:`~pyhelpers.scenario.factpaths.fact_path`), while the context lists no arrangement: the field is
    found once with the id as :data:`_ROW_ID` and the row's id put in. A row whose id may read otherwise
    (not a plain word, or inside an argument) is named alone."""
    rid = item.id
    if context.arrangements or rid != it.item_id or not all(_one_word(f.fact, rid) for f in _open(it)):
        return item_named(it, context.model_copy(update={"income": [item]}))
    blocks = tuple(getattr(item, block) is not None for block in DETAIL_BLOCKS)
    scenario: list[Scenario] = []

    def name(f: Finding) -> Finding:
        if f.kind not in FIELD_KINDS or not f.fact:
            return f
        fact = f.fact.replace(rid, _ROW_ID)
        key = (fact, item.type, blocks)
        if key in names:
            path = names[key]
        else:
            if not scenario:
                scenario.append(context.model_copy(update={"income": [item.model_copy(update={"id": _ROW_ID})]}))
            path = names[key] = fact_path(fact, (_ROW_ID,), scenario[0])
        return replaced(f, field=path.replace(_ROW_ID, rid) if path is not None else None)

    return replaced(it, findings=tuple(name(f) for f in it.findings), alternatives=tuple(
        a if a.finding is None else replaced(a, finding=name(a.finding)) for a in it.alternatives))


def named_alike(it: ItemResult, context: Scenario) -> bool:
    """Whether :func:`row_named` names ``it`` in the scenario of its row with its id, its type and the details blocks
    its item gives, and nothing else of the item (its fields found once per fact, :func:`_one_word`): the context
    lists no arrangement and the row's id is in its facts only as whole arguments."""
    rid = it.item_id
    return not context.arrangements and all(_one_word(f.fact, rid) for f in _open(it))


def _open(it: ItemResult) -> Iterator[Finding]:
    """The findings of a result and of its alternatives."""
    yield from it.findings
    yield from (a.finding for a in it.alternatives if a.finding is not None)


def _one_word(fact: str | None, rid: str) -> bool:
    """Whether ``rid`` is not in ``fact``, or is a plain word that is each argument it is in, whole."""
    if not fact or rid not in fact:
        return True
    if _PLAIN_ID.fullmatch(rid) is None:
        return False
    name, args = fact_parts(fact.replace(rid, _ROW_ID))
    return _ROW_ID not in name and all(arg == _ROW_ID or _ROW_ID not in arg for arg in args)


_ROW_ID = "\x00row\x00"
"""A batch row's id while the field of a fact is found for every row of its kind: no id has a control character."""
_PLAIN_ID = re.compile(r"[\w.:-]+")
"""An id that a fact's argument, and a field's path, hold as one word (no parenthesis, comma, quote or space)."""
