"""An outcome that depends on facts given as alternatives, argued under each of them (issue 24): the cases of
`treaty explain`'s legal argument and of the report's.

A State's outcome the check answers with alternatives ("capped at 10% if the holding ends on 2025-02-28 or later")
is argued once per alternative, at a value of the open facts it holds under (the critical date, the day before): the
scenario is explained at that value, once for every case argued there and every language (:class:`_AtValue`), and
the case keeps the lines of the State's argument there. Where an alternative cannot be argued at a value of its own,
the State's lines at the value explained are shown, marked as holding there only.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pyhelpers.base.errors import TreatyLogicError
from pyhelpers.engine.provenance import EXPLAINED_ROOTS
from pyhelpers.engine.results import Alternative, Condition, ScenarioResult
from pyhelpers.engine.solve import Checker
from pyhelpers.output import render
from pyhelpers.scenario import Scenario
from pyhelpers.scenario.openfacts import OpenFact, show_value

if TYPE_CHECKING:
    from pyhelpers.explain.argument import Argument
    from pyhelpers.explain.explainer import Explainer


def item_arguments(checker: Checker, ex: Explainer, scenario: Scenario, items: list[str]) -> render.ItemArguments:
    """The legal argument for each conclusion and finding of each item (or person question) in ``items``,
    provision by provision (:func:`~pyhelpers.explain.argument.argument_for`), under the article versions
    in force for the item; a finding about a fact names the field of ``scenario`` that states it."""
    from pyhelpers.explain.argument import argument_for

    out: render.ItemArguments = []
    for iid in items:
        chosen = next((i for i in scenario.income if i.id == iid), None)
        versions = checker.versions(scenario.treaty, chosen) if chosen is not None else ()
        out.append((iid, argument_for(ex, iid, EXPLAINED_ROOTS, versions=versions, scenario=scenario)))
    return out


_DAY = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_INTEGER = re.compile(r"(?<![\w.-])-?\d+(?![\w.-])")


def _witness(f: OpenFact, cond: Condition) -> Any:
    """A value of the open fact ``f`` under which the condition ``cond`` holds (None where none is found): over a range
    the first figure its words name (``2025-02-28 or later``, ``2025-02-27 or earlier``, ``from A to B``: a day of the
    range it states), else the first alternative it names."""
    if cond.values == "any of its values":
        return f.values[0]
    if f.ranged in ("date", "int"):
        found = (_DAY if f.ranged == "date" else _INTEGER).search(cond.values)
        if found is None:
            return None
        return found.group(0) if f.ranged == "date" else int(found.group(0))
    shown = [f.show(i) for i in range(len(f.values))]
    if cond.listed:
        return f.values[shown.index(cond.listed[0])] if cond.listed[0] in shown else None
    best: tuple[int, int] | None = None
    for i, text in enumerate(shown):
        at = re.search(rf"(?<![\w.-]){re.escape(text)}(?![\w.-])", cond.values)
        if at is not None and (best is None or at.start() < best[0]):
            best = (at.start(), i)
    return f.values[best[1]] if best is not None else None


def argument_cases(checker: Checker, scenario: Scenario, result: ScenarioResult, arguments: render.ItemArguments,
                   lang: str) -> render.ArgumentCases:
    """Each State's outcome that depends on facts given as alternatives (the check's ``alternatives`` of a State),
    argued under each alternative: the scenario explained at a value of the open facts the alternative holds under
    (:func:`_witness`; the others at their first value), where the outcome there is the alternative's (a case per
    alternative, its condition naming the value). Where one cannot be argued so, the State's lines at the value
    explained, marked as holding only there (one case). Empty without facts given as alternatives."""
    return argued_cases(checker, scenario, result, {lang: arguments})[lang]


class _AtValue:
    """The scenario explained at one choice of values of its open facts, solved once for every case argued there (and
    every language): the arguments of an item only where a case of that item asks for them, each once."""

    def __init__(self, checker: Checker, at: Scenario) -> None:
        from pyhelpers.explain.explainer import explain_scenario

        self.checker = checker
        self.at = at
        self.ex = explain_scenario(checker, at, "en")
        self._args: dict[tuple[str, str], list[Argument]] = {}
        self._checked: ScenarioResult | None = None

    def arguments(self, iid: str, lang: str) -> list[Argument]:
        if (iid, lang) not in self._args:
            saved = self.ex.lang
            try:
                self.ex.lang = lang
                self._args[iid, lang] = item_arguments(self.checker, self.ex, self.at, [iid])[0][1]
            finally:
                self.ex.lang = saved
        return self._args[iid, lang]

    def label(self, iid: str, state: str) -> str | None:
        """The State's outcome of the item at these values as `treaty check` labels it (``capped 10%``): read from the
        explained model where it decides the outcome (the check's answer on a scenario without open facts: its outcome
        and its cap), else from the check of the scenario at these values."""
        found = self._model_label(iid, state)
        if found is not None:
            return found
        if self._checked is None:
            self._checked = self.checker.check(self.at)
        item = next((i for i in self._checked.items if i.item_id == iid), None)
        outcome = next((s for s in item.states if s.state == state), None) if item is not None else None
        return outcome.label if outcome is not None else None

    def _model_label(self, iid: str, state: str) -> str | None:
        """The label of a decided outcome (not ``undetermined``) from the explained model's ``state_outcome`` and, for a
        cap, ``max_rate``; None where the model does not give one outcome."""
        import clingo

        from pyhelpers.engine.results import format_bp

        def mine(a: clingo.Symbol) -> bool:
            return len(a.arguments) > 1 and a.arguments[1].type == clingo.SymbolType.String \
                and a.arguments[1].string == iid

        outcomes = {a.arguments[3].name for a in self.ex.atoms_named(frozenset({"state_outcome"}))
                    if mine(a) and len(a.arguments) == 4 and a.arguments[2].type == clingo.SymbolType.Function
                    and a.arguments[2].name == state}
        if len(outcomes) != 1 or "undetermined" in outcomes:
            return None
        outcome = outcomes.pop()
        if outcome != "capped":
            return outcome.replace("_", " ")
        rates = {a.arguments[2].number for a in self.ex.atoms_named(frozenset({"max_rate"}))
                 if mine(a) and len(a.arguments) == 3 and a.arguments[2].type == clingo.SymbolType.Number}
        return f"capped {format_bp(rates.pop())}" if len(rates) == 1 else None


def argued_cases(checker: Checker, scenario: Scenario, result: ScenarioResult,
                 arguments: dict[str, render.ItemArguments]) -> dict[str, render.ArgumentCases]:
    """:func:`argument_cases` in each language of ``arguments`` (by language: each item's argument at the value
    explained, in that language): each choice of values is explained once (:class:`_AtValue`), whatever the
    languages and the cases argued there."""
    if not scenario.unknowns:
        return {lang: {} for lang in arguments}
    by_name = {f.name: f for f in scenario.unknowns}
    at_values: dict[tuple[tuple[Any, ...], ...], _AtValue | None] = {}
    out: dict[str, render.ArgumentCases] = {}
    for lang, argued in arguments.items():
        told = "; ".join(render.told_value(f.name, f.path, f.show(0), lang) for f in scenario.unknowns)
        marker = render.label("at_value", lang).format(told=told)
        first = dict(argued)
        cases_of: render.ArgumentCases = {}
        for item in result.items:
            if item.item_id not in first:
                continue
            for code in dict.fromkeys(a.state for a in item.alternatives if a.state is not None):
                cases: list[render.Case] = []
                for a in (a for a in item.alternatives if a.state == code):
                    case = _case(checker, scenario, item.item_id, a, by_name, at_values, lang, marker)
                    if case is None:
                        cases = []
                        break
                    cases.append(case)
                if not cases:
                    at = next((x for x in first[item.item_id] if x.state == code), None)
                    cases = [render.Case(marker, at.lines if at is not None else [], at_value_only=True,
                                         marker=marker)]
                cases_of[item.item_id, code] = cases
        out[lang] = cases_of
    return out


def _case(checker: Checker, scenario: Scenario, iid: str, a: Alternative, by_name: dict[str, OpenFact],
          at_values: dict[tuple[tuple[Any, ...], ...], _AtValue | None], lang: str, marker: str) -> render.Case | None:
    """The alternative ``a`` of the item ``iid`` argued at a value it holds under (:func:`argument_cases`)."""
    choice: dict[tuple[Any, ...], Any] = {}
    told = []
    for cond in a.holds_if or (a.holds_if_any[0] if a.holds_if_any else ()):
        f = by_name.get(cond.fact)
        value = None if f is None else _witness(f, cond)
        if f is None or value is None:
            return None
        choice[f.path] = value
        told.append(render.told_value(f.name, f.path, show_value(value), lang))
    key = tuple(sorted(((p, repr(v)) for p, v in choice.items()), key=repr))
    if key not in at_values:
        try:
            at_values[key] = _AtValue(checker, scenario.with_values(choice, "<alternative>"))
        except TreatyLogicError:
            at_values[key] = None
    found = at_values[key]
    if found is None or a.state is None:
        return None
    args = found.arguments(iid, lang)
    arg = next((x for x in args if x.state == a.state), None)
    if arg is None or found.label(iid, a.state) != a.conclusion:
        return None
    condition = render.alternative_text(a, lang, provisions=False)
    if told:
        condition = render.label("argued_at", lang).format(condition=condition, told="; ".join(told))
    lines = frozenset(render.argument_line(ln) for x in args for ln in x.lines)
    return render.Case(condition, arg.lines, item_lines=lines, marker=marker)
