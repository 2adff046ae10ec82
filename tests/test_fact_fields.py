"""The field that states each fact the rules may ask for (``fact_field``, ``fact_leaf`` in
logic/core/scenario_format.lp): every fact a rule can report has one, every leaf is one field of the models,
and a missing fact's leaf names a field the scenario indeed leaves out."""

from __future__ import annotations

import re
import types
import typing
from typing import Any

from pydantic import BaseModel

from pyhelpers.engine.asked import MISSING, asked_facts
from pyhelpers.engine.domains import leaf_annotation
from pyhelpers.engine.program import load_logic
from pyhelpers.scenario import ExpectedAnswer, ExpectedItem, Money, load_file, load_text
from pyhelpers.scenario.catalogue import catalogue
from pyhelpers.scenario.factpaths import (
    ITEM,
    fact_parts,
    fact_path,
    field_text,
    leaf_paths,
    leaf_steps,
    stated,
    tax_field,
)
from pyhelpers.scenario.services import DETAIL_BLOCKS

from .conftest import SCENARIOS

_PLACEHOLDER = re.compile(r"<(\d+)(?:\.\d+)?>")


def test_every_fact_the_rules_ask_for_has_a_field() -> None:
    """Read from the heads of the rules (following a fact passed on by a variable to the rules that name it):
    each fact name has a fact_field, and no fact_field names a fact no rule asks for."""
    asked = asked_facts(load_logic())
    assert not asked.untraced, f"a reported fact the analysis cannot follow: {asked.untraced}"
    missing = [f for f in asked.facts.values() if MISSING in f.kinds]
    assert len(missing) >= 100 and {"exercised_in", "agent_independent", "vital_interests", "holding"} <= set(
        asked.facts), "the rules' heads were not read"
    fields = catalogue().fact_fields
    unnamed = [f"{f.name} ({f.rules[0]})" for f in asked.facts.values() if f.name not in fields]
    assert not unnamed, f"facts the rules ask for with no fact_field in scenario_format.lp: {unnamed}"
    stale = sorted(set(fields) - set(asked.facts) - _defaulted_attributes())
    assert not stale, f"fact_field of facts no rule asks for: {stale}"


def _defaulted_attributes() -> set[str]:
    """The attributes a ``none`` reading rests on the default of (``none-default: I=aboard``): the argument names
    the field that states it where the default stands ("(assumed: `income[0].employment.aboard` not given)"), though
    no rule reports the attribute missing."""
    return {p.none_default[1] for p in load_logic().vocabulary.values() if p.none_default is not None}


def test_fact_field_placeholders_are_the_facts_arguments() -> None:
    asked = asked_facts(load_logic()).facts
    bad = []
    leaves = [(name, t) for name, templates in catalogue().fact_leaves.items() for t in templates]
    defaulted = _defaulted_attributes()
    for name, template in [*catalogue().fact_fields.items(), *leaves]:
        if name not in asked and name in defaulted:
            continue  # an attribute of one subject (the none reading's argument): <1> is it
        ks = [int(k) for k in _PLACEHOLDER.findall(template)]
        if ks and max(ks) > min(asked[name].arities):
            bad.append(f"{name}: {template} (arguments: {sorted(asked[name].arities)})")
    assert not bad, "\n".join(bad)


def _is_leaf(hints: Any) -> bool:
    """A field of one value: a yes/no, an enumeration, a State, an id, a number, a date, an amount, or a list of
    such values (not a block of fields, a map or a list of records)."""
    if typing.get_origin(hints) is typing.Annotated:
        return _is_leaf(typing.get_args(hints)[0])
    if typing.get_origin(hints) in (typing.Union, types.UnionType):
        return all(_is_leaf(arm) for arm in typing.get_args(hints) if arm is not type(None))
    if typing.get_origin(hints) is list:
        return _is_leaf(typing.get_args(hints)[0])
    if typing.get_origin(hints) is dict:
        return False
    if isinstance(hints, type) and issubclass(hints, BaseModel):
        return hints is Money
    return True


def _concrete(template: str) -> tuple[Any, ...]:
    """A path of the template's shape (an income item's index 0, a map key ``k``), for the models."""
    path: list[Any] = []
    for kind, value in leaf_steps(template):
        path.append(value if kind == "name" else 0 if kind == "index" else "k")
    return tuple(path)


def test_every_fact_leaf_resolves_to_one_field_of_the_models() -> None:
    """Each fact_leaf is a pure path to one leaf field of the scenario models, and is what its fact_field
    shows (the same path, possibly with words after it). A fact with several leaves: each is the same field
    of a different details block of an income item, its fact_field starts with one of them and names the
    others from their block on (``... or .independent.borne_by``)."""
    cat = catalogue()
    bad = []
    for name, templates in cat.fact_leaves.items():
        for template in templates:
            hints = leaf_annotation(_concrete(template))
            if hints is None:
                bad.append(f"{name}: {template} is no field of the models")
            elif not _is_leaf(hints):
                bad.append(f"{name}: {template} is not one value ({hints})")
        shown = cat.fact_fields.get(name, "")
        first = next((t for t in templates if shown.startswith(t)), None)
        if first is None:
            bad.append(f"{name}: its fact_field {shown!r} does not show {templates[0]!r}")
        if len(templates) > 1:
            steps = [leaf_steps(t) for t in templates]
            blocks = [s[2][1] if len(s) > 3 and s[0] == ("name", "income") and s[1][0] == "index" else None
                      for s in steps]
            if None in blocks or not set(blocks) <= set(DETAIL_BLOCKS) or len(set(blocks)) != len(blocks) \
                    or len({tuple(s[3:]) for s in steps}) != 1 or len({s[1] for s in steps}) != 1:
                bad.append(f"{name}: several leaves that are not one field of distinct details blocks: {templates}")
            for template in templates:
                own = template[template.index("]") + 1:]
                if template != first and own not in shown:
                    bad.append(f"{name}: its fact_field {shown!r} does not show {own!r}")
    assert not bad, "\n".join(bad)


def test_a_field_that_is_one_leaf_is_declared_a_leaf() -> None:
    """A fact_field that is itself a pure path to a leaf field has that fact_leaf (no leaf forgotten)."""
    cat = catalogue()
    forgotten = []
    for name, template in cat.fact_fields.items():
        if name in cat.fact_leaves or not re.fullmatch(r"[a-z_<>\[\]0-9.]+", template) \
                or "<arrangement>" in template:
            continue
        if _is_leaf(leaf_annotation(_concrete(template))):
            forgotten.append(f"{name}: {template}")
    assert not forgotten, f"fact_field that is one leaf but has no fact_leaf: {forgotten}"


GIVEN_YET_MISSING = {"vital_interests"}
"""Facts the rules also report missing when the field gives a value that does not answer the question (a
centre of vital interests in a third State says neither Contracting State: br-pt/br-sg 4(2)(a))."""


def test_a_missing_fact_names_a_field_the_scenario_leaves_out() -> None:
    """For the shipped scenarios whose expect: blocks list missing facts: the leaf of each (where it has one)
    resolves in the scenario, to a field the scenario does not give."""
    checked: set[str] = set()
    bad = []
    for path in SCENARIOS:
        text = path.read_text(encoding="utf-8")
        if "missing:" not in text:
            continue
        sc = load_file(path)
        for xid, exp in (sc.expect or {}).items():
            assert isinstance(exp, ExpectedItem | ExpectedAnswer)
            for fact in exp.missing or []:
                if fact_parts(fact)[0] not in catalogue().fact_leaves:
                    continue
                paths = leaf_paths(fact, [xid], sc)
                if not paths:
                    bad.append(f"{path.name}: {fact} ({xid}) resolves to no field")
                for p in paths:
                    if stated(sc, p) and fact_parts(fact)[0] not in GIVEN_YET_MISSING:
                        bad.append(f"{path.name}: {fact} ({xid}) is missing, but the scenario gives {p}")
                checked.add(fact_parts(fact)[0])
    assert not bad, "\n".join(bad)
    assert len(checked) >= 20, sorted(checked)


SCENARIO = """
name: t
treaty: br-pt
evaluation_date: 2024-06-30
persons:
  luso: {kind: company, liable_to_tax: {pt: [incorporation]}}
  alfa: {kind: company, liable_to_tax: {br: [incorporation]}}
  fund: {kind: other_entity, liable_to_tax: {pt: [incorporation]}}
places_of_business:
  agency-sp: {owner: luso, state: br, kind: agent}
income:
  - {id: div-1, type: dividend, payer: alfa, recipient: luso, date: 2024-03-15}
  - {id: wage, type: employment, payer: alfa, recipient: luso, date: 2024-03-15}
  - {id: div-2, type: dividend, payer: alfa, recipient: luso, date: 2024-04-15}
"""


def test_fact_path_resolves_the_leaf_then_the_field() -> None:
    sc = load_text(SCENARIO)
    assert fact_path("agent_independent(agency-sp)", ["div-1"], sc) == "places_of_business.agency-sp.agent.independent"
    assert leaf_paths("agent_independent(agency-sp)", ["div-1"], sc) == (
        ("places_of_business", "agency-sp", "agent", "independent"),)
    assert fact_path("withheld_at_source(div-2)", ["div-2"], sc) == "income[2].tax.withheld_at_source"
    assert fact_path("members_taxed_directly(fund, uy)", ["div-1"], sc) == \
        "persons.fund.fiscal_transparency.uy.members_taxed_as_derived_directly"
    # the field sits on the item the finding is about, not on the fact's argument (the payer)
    assert ITEM in catalogue().fact_leaves["payer_constituted"][0]
    assert leaf_paths("payer_constituted(alfa)", ["div-1", "div-2"], sc) == (
        ("income", 0, "relief", "payer_constituted"), ("income", 2, "relief", "payer_constituted"))
    assert fact_path("payer_constituted(alfa)", ["div-1", "div-2"], sc) == "income[0|2].relief.payer_constituted"
    # no leaf: the field's description, its arguments filled in
    assert fact_path("exercised_in(wage)", ["wage"], sc) == \
        "income[1].employment.exercised_in (an entertainer or sportsperson: .artiste.exercised_in)"
    assert fact_path("capital(holding(luso, alfa))", ["div-1"], sc) == "holdings (the record of luso in alfa).capital"
    assert fact_path("liable_to_tax(fund)", ["div-1"], sc) == "persons.fund.liable_to_tax"
    # an argument that is no income item of the scenario: no leaf path; without a scenario, the ids as given
    assert leaf_paths("withheld_at_source(other)", ["other"], sc) == ()
    assert fact_path("withheld_at_source(i-9)", ["i-9"], None) == "income[i-9].tax.withheld_at_source"
    assert fact_path("no_such_fact(x)", ["div-1"], sc) is None
    assert fact_parts("capital(holding(luso, alfa))") == ("capital", ("holding(luso, alfa)",))
    assert fact_parts("holdings_after_evaluation_date") == ("holdings_after_evaluation_date", ())


BEARER = """
name: t
treaty: br-pt
evaluation_date: 2024-06-30
persons:
  ana: {kind: individual, liable_to_tax: {pt: [residence]}}
  luso: {kind: company, liable_to_tax: {pt: [incorporation]}}
places_of_business:
  office-rec: {owner: luso, state: br, kind: office}
income:
  - {id: wage, type: employment, payer: luso, recipient: ana, date: 2024-03-15,
     employment: {exercised_in: br, borne_by: unknown}}
  - {id: fee, type: independent_services, payer: luso, recipient: ana, date: 2024-03-15}
  - {id: show, type: artiste_sportsperson, payer: luso, recipient: ana, date: 2024-03-15,
     employment: {borne_by: office-rec}}
  - {id: gig, type: artiste_sportsperson, payer: luso, recipient: ana, date: 2024-03-15}
"""


def test_a_fact_with_several_leaves_names_the_items_own_block() -> None:
    """``borne_by`` is stated in the employment block of an employment and in the independent block of
    independent services (a fact_leaf for each): the field shown and opened is the item's own; an item
    whose type may carry either block, the one it gives; neither given: the fact_field's words."""
    sc = load_text(BEARER)
    assert set(catalogue().fact_leaves["borne_by"]) == {
        "income[<1>].employment.borne_by", "income[<1>].independent.borne_by"}
    assert leaf_paths("borne_by(wage)", ["wage"], sc) == (("income", 0, "employment", "borne_by"),)
    assert fact_path("borne_by(wage)", ["wage"], sc) == "income[0].employment.borne_by"
    assert fact_path("borne_by(fee)", ["fee"], sc) == "income[1].independent.borne_by"
    assert not stated(sc, ("income", 1, "independent", "borne_by"))
    assert fact_path("borne_by(show)", ["show"], sc) == "income[2].employment.borne_by"
    assert leaf_paths("borne_by(gig)", ["gig"], sc) == ()
    assert fact_path("borne_by(gig)", ["gig"], sc) == \
        "income[3].employment.borne_by (an employment) or .independent.borne_by (independent services)"


TAXES = SCENARIO.replace(
    "  - {id: div-2, type: dividend, payer: alfa, recipient: luso, date: 2024-04-15}\n",
    "  - {id: div-2, type: dividend, payer: alfa, recipient: luso, date: 2024-04-15,\n"
    "     tax: [{name: irpj, withheld_at_source: true}]}\n"
    "  - {id: div-3, type: dividend, payer: alfa, recipient: luso, date: 2024-04-15,\n"
    "     tax: [{name: irpj, withheld_at_source: unknown}, {name: irc, withheld_at_source: false}]}\n"
    "  - {id: div-4, type: dividend, payer: alfa, recipient: luso, date: 2024-04-15,\n"
    "     tax: {name: irc, withheld_at_source: false}}\n")


def test_the_field_of_a_tax_names_it_as_the_loader_writes_paths() -> None:
    """A fact's template says ``income[k].tax.<attr>`` without saying which State's tax: the hint names each tax
    of the list that does not give it, and says to add the tax of a State the item names none of."""
    sc = load_text(TAXES)
    assert tax_field("income[0].tax.fiscal_year_start", sc) == "income[0].tax.fiscal_year_start"  # no tax named
    assert tax_field("income[2].tax.fiscal_year_start", sc) == \
        "income[2].tax[1].fiscal_year_start (add the tax of pt to income[2].tax)"  # at source: no fiscal year
    assert tax_field("income[3].tax.withheld_at_source", sc) == "income[3].tax[0].withheld_at_source"
    assert tax_field("income[3].tax.fiscal_year_start", sc) == "income[3].tax[0|1].fiscal_year_start"
    assert tax_field("income[4].tax.fiscal_year_start", sc) == \
        "income[4].tax.fiscal_year_start or income[4].tax[1].fiscal_year_start (add the tax of br to income[4].tax)"
    assert tax_field("persons.luso.liable_to_tax", sc) == "persons.luso.liable_to_tax"
    assert field_text("income[2].tax[1].fiscal_year_start (add the tax of pt to income[2].tax)", "pt") == \
        "income[2].tax[1].fiscal_year_start (acrescente o imposto de pt a income[2].tax)"
