"""The answers of the ``treaty`` commands as data: what ``--format json`` prints and what ``treaty serve``
answers over HTTP are built here, by the same functions, so that both give the same JSON byte for byte.

Nothing here prints or knows about HTTP: each function takes a loaded scenario and its ``source`` (the
file name on the command line, the request's ``source`` over HTTP) and returns data or text.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from pyhelpers.base import formats
from pyhelpers.base.errors import InputError
from pyhelpers.engine.catalog import treaties
from pyhelpers.engine.expect import Mismatch, compare
from pyhelpers.engine.provenance import EXPLAINED_ROOTS
from pyhelpers.engine.results import ScenarioResult
from pyhelpers.engine.solve import Checker
from pyhelpers.explain import readings
from pyhelpers.output import render
from pyhelpers.output.cases import argument_cases, item_arguments
from pyhelpers.scenario import Scenario, person_questions
from pyhelpers.scenario.factpaths import fact_path

if TYPE_CHECKING:
    from pyhelpers.engine.program import Logic
    from pyhelpers.engine.rates import RateTable
    from pyhelpers.engine.whatif import WhatIf
    from pyhelpers.explain.argument import WhyNot
    from pyhelpers.explain.explainer import Explainer, Step


# ------------------------------------------------------------------------------------------ check ---
def check_answer(checker: Checker, scenario: Scenario, source: str, time_limit: float,
                 progress: Callable[[int, int], None] | None = None) -> tuple[ScenarioResult, list[Mismatch] | None]:
    """The result of ``treaty check`` (within ``time_limit``, grounding included:
    :func:`~pyhelpers.engine.limited.check_within`) and its comparison with the scenario's ``expect:`` block
    (None without one)."""
    from pyhelpers.engine.limited import check_within

    result = check_within(checker, scenario, source, time_limit, progress)
    return result, (compare(scenario, result) if scenario.expect is not None else None)


def check_document(result: ScenarioResult, mismatches: list[Mismatch] | None, scenario: Scenario, source: str,
                   ask: bool = False, lang: str = "en") -> dict[str, Any]:
    """``treaty check --format json`` of one scenario (``ask``: ``treaty check --ask --format json``): why it is
    incomplete, if it is, in ``lang``'s words beside the same as figures (``incomplete_reason``)."""
    if ask:
        questions = [{"kind": k, "fact": f, "provisions": p, "items": list(i), "field": fact_path(f, i, scenario)}
                     for k, f, p, i in result.open_questions()]
        return {"incomplete": render.incomplete_text(result.incomplete, lang),
                "incomplete_reason": None if result.incomplete is None else result.incomplete.to_json(),
                "source": source, "open_questions": questions}
    return render.check_json(result, mismatches, lang)


CHECK_SCHEMA_VERSION = "2.0"
"""The version of the shape of ``treaty check --format json`` (and ``POST /check``): 2.0, one object
whatever the number of scenarios (1.0 gave one scenario's document alone, several as a bare list)."""


def check_envelope(results: list[dict[str, Any]], lang: str = "en") -> dict[str, Any]:
    """``treaty check --format json`` of any number of scenarios: ``incomplete`` first (null, or how many
    answers a time limit cut and the first one's reason, in ``lang``'s words), ``schema_version``, and
    ``results``: each scenario's :func:`check_document`, in the order checked."""
    cut = [r for r in results if r.get("incomplete")]
    incomplete = None if not cut else \
        render.incomplete_envelope(len(cut), len(results), str(cut[0].get("source")), cut[0]["incomplete"], lang)
    return {"incomplete": incomplete, "schema_version": CHECK_SCHEMA_VERSION, "results": results}


# ---------------------------------------------------------------------------------------- explain ---
def item_sections(ex: Explainer, scenario: Scenario, items: list[str], lang: str) -> list[tuple[str, list[Step]]]:
    """The derivation of every conclusion and finding of each item (or person question) in ``items``; a finding
    about a fact names the field of ``scenario`` that states it, as `treaty check` does."""
    from pyhelpers.explain.argument import finding_named

    sections = []
    for iid in items:
        steps = []
        own = (iid,) if any(i.id == iid for i in scenario.income) else ()
        for sym in sorted(ex.true):
            if sym.name in EXPLAINED_ROOTS \
                    and len(sym.arguments) > 1 and sym.arguments[1].type.name == "String" \
                    and sym.arguments[1].string == iid:
                steps.append(render.step_with_field(ex.tree(sym), finding_named(sym, own, scenario), lang))
        sections.append((f"{iid}", steps))
    return sections


def why_not_sections(ex: Explainer, logic: Logic, queries: Sequence[str], lang: str, answers: bool = True
                     ) -> tuple[list[tuple[str, list[Step]]], list[WhyNot] | None]:
    """For each query: its derivations where it holds, else the rules that could conclude it and the
    condition of each that fails; and (``answers``) the same as a tax professional reads it
    (:func:`~pyhelpers.explain.argument.why_not_answer`), built from the same analysis."""
    from pyhelpers.engine.query import parse_query
    from pyhelpers.explain.argument import query_item, why_not_answer
    from pyhelpers.explain.explainer import Step, query_matches

    sections = []
    short: list[WhyNot] = []
    for text in queries:
        q = parse_query(text, logic)
        matches = query_matches(ex, q.pattern, q.tests)
        attempts = [] if matches else ex.why_not(q.pattern, list(q.tests))
        if answers:
            short.append(why_not_answer(ex, text, query_item(q.pattern), matches, attempts))
        title = render.why_not_title(text, bool(matches), lang)
        if matches:
            sections.append((title, [ex.tree(m) for m in matches]))
        else:
            sections.append((title, attempts or [Step("failed", text, render.label("no_rule", lang))]))
    return sections, short if answers else None


class Explanation(NamedTuple):
    """``treaty explain``'s answer: the derivation ``sections``; without ``--why-not`` also the legal
    ``arguments`` and the ``result`` they argue for (None with ``--why-not``); with ``--why-not``, the
    answers a tax professional reads (``why_not``, beside the whole analysis in ``sections``)."""

    sections: list[tuple[str, list[Step]]]
    arguments: render.ItemArguments | None = None
    result: ScenarioResult | None = None
    why_not: list[WhyNot] | None = None
    cases: render.ArgumentCases | None = None
    """A State's outcome that depends on facts given as alternatives, argued under each (:func:`argument_cases`)."""


def explain_answer(checker: Checker, scenario: Scenario, source: str, items: Sequence[str], why_not: Sequence[str],
                   lang: str, item_field: str = "--item", arguments: bool = True) -> Explanation:
    """``treaty explain``: the derivations of ``items`` (default: every item and person question) and
    (``arguments``) their legal argument, or the why-not analysis of the ``why_not`` queries (and, with
    ``arguments``, their short answers).
    ``item_field`` names the option (or request field) of an unknown item id in the error."""
    from pyhelpers.explain.explainer import explain_scenario

    known = [i.id for i in scenario.income] + [q.id for q in person_questions(scenario)]
    for iid in items:
        if iid not in known:
            raise InputError(f"{source}: {item_field} {iid!r}: expected the id of an income item ({', '.join(known)})")
    ex = explain_scenario(checker, scenario, lang, every_rule=bool(why_not))
    if why_not:
        sections, answers = why_not_sections(ex, checker.logic, why_not, lang, arguments)
        return Explanation(sections, why_not=answers)
    chosen = list(items) or known
    sections = item_sections(ex, scenario, chosen, lang)
    if not arguments:
        return Explanation(sections)
    argued = item_arguments(checker, ex, scenario, chosen)
    result = checker.check(scenario, source=source)
    return Explanation(sections, argued, result, cases=argument_cases(checker, scenario, result, argued, lang))


def explain_document(explanation: Explanation, scenario: Scenario, source: str, lang: str) -> dict[str, Any]:
    """``treaty explain --format json``: the legal ``argument`` and the whole ``derivation`` of each
    conclusion; with ``--why-not``, the short ``argument`` of each query (:class:`WhyNot`) and the
    ``sections`` of the whole why-not analysis."""
    note = render.alternatives_note(scenario, lang, argued=bool(explanation.cases))
    caveat = readings.treaty_caveat(scenario.treaty, lang) if scenario.treaty else None
    head: dict[str, Any] = {"source": source, **({"note": note} if note else {}),
                            **({"caveat": caveat} if caveat else {})}
    if explanation.why_not is not None:
        return {**head, "argument": render.why_not_json(explanation.why_not, lang),
                "sections": render.explain_json(explanation.sections)}
    if explanation.arguments is None:
        return {**head, "sections": render.explain_json(explanation.sections)}
    return {**head, "argument": render.argument_json(explanation.arguments, explanation.result, lang,
                                                     explanation.cases),
            "derivation": render.explain_json(explanation.sections)}


# ----------------------------------------------------------------------------------------- whatif ---
class WhatIfAnswer(NamedTuple):
    """``treaty whatif``'s answer: the search's ``result``; when no change reaches the goal, why not on the facts
    as stated: the whole analysis (``blocked``: the rules' failed attempts, then the derivation of what holds
    instead) and the answer a tax professional reads (``why_not``: one line per rule that could have given the
    goal, with the condition that failed and its figures, as `treaty explain --why-not` gives it)."""

    result: WhatIf
    blocked: tuple[Step, ...] = ()
    why_not: WhyNot | None = None


def whatif_answer(checker: Checker, scenario: Scenario, source: str, goal: str, time_limit: float,
                  lang: str = "en") -> WhatIfAnswer:
    """The smallest changes that make ``goal`` hold, and, when no change can, why not on the facts as
    stated (``treaty whatif``)."""
    from pyhelpers.engine.alternatives import SID
    from pyhelpers.engine.query import parse_query
    from pyhelpers.engine.whatif import whatif as find
    from pyhelpers.explain.argument import query_item, why_not_answer
    from pyhelpers.explain.explainer import goal_attempts, query_matches

    result = find(checker, scenario, source, goal, time_limit)
    if not result.no_solution:
        return WhatIfAnswer(result)
    query = parse_query(goal, checker.logic, SID)
    found = goal_attempts(checker, scenario, query, lang)
    if found is None:
        return WhatIfAnswer(result)
    ex, attempts = found
    instead = query_matches(ex, query.pattern, ())  # what holds instead, failing the goal's comparisons
    item = query_item(query.pattern)
    short = why_not_answer(ex, goal, item, [], attempts)
    if instead:  # with its argument: the provisions that set it (the 15% of a general rate)
        short = dataclasses.replace(short, arguments=why_not_answer(ex, goal, item, instead, []).arguments)
    return WhatIfAnswer(result, (*attempts, *(ex.tree(sym) for sym in instead)), short)


# --------------------------------------------------------------------------------------- treaties ---
def treaties_document(checker: Checker) -> list[dict[str, Any]]:
    """``treaty list --format json``: each treaty, its articles and their status, its notes (the titles in
    every language, a procedural article's reason and the notes in English)."""
    return [{"treaty": e.treaty, "partner": e.banner.get("Partner"), "source": e.banner.get("Source"),
             "articles": [{"number": a.number, "provision": a.provision, "status": a.status, "titles": a.titles,
                           "reason": a.reason("en")} for a in e.articles], "notes": e.notes_in("en")}
            for e in treaties(checker.logic, checker.static_atoms)]


def article_document(checker: Checker, treaty: str, article: str) -> dict[str, Any]:
    """``treaty show --format json``: the article's status and titles and, for each file of logic/ that
    encodes it, its quoted treaty sentences in order, each with the rules under it (the rule's id, its
    provision and its program text) and the facts of the file under it without a rule id. An article not
    encoded has no files and says why (``reason``). Raises :class:`InputError` for an unknown article."""
    from pyhelpers.engine.catalog import article_files

    entry = next((e for e in treaties(checker.logic, checker.static_atoms) if e.treaty == treaty), None)
    art = next((a for a in entry.articles if a.number == article), None) if entry else None
    files = article_files(checker.logic, treaty, article)
    if art is None and not files:
        raise InputError(f"{treaty} {article}: expected an article of {treaty} (see `treaty list`)")
    out: dict[str, Any] = {"treaty": treaty, "article": article, "provision": art.provision if art else None,
                           "status": art.status if art else None, "titles": art.titles if art else {},
                           "reason": art.reason("en") if art else None, "files": []}
    for lf in files:
        sections: list[dict[str, Any]] = [{"quote": None, "rules": [], "facts": []}]
        rule: dict[str, Any] | None = None
        for line in lf.source.splitlines():
            if line.startswith("%|"):
                sections.append({"quote": line[2:].strip(), "rules": [], "facts": []})
                rule = None
            elif line.startswith("%@"):
                rule_id, _, provision = line[2:].strip().partition("|")
                rule = {"id": rule_id.strip(), "provision": provision.strip(), "program": ""}
                sections[-1]["rules"].append(rule)
            elif not line.strip():
                rule = None
            elif not line.startswith("%"):
                if rule is not None:
                    rule["program"] += ("\n" if rule["program"] else "") + line
                else:
                    sections[-1]["facts"].append(line)
        out["files"].append({"path": lf.relpath, "title": lf.banner.get("Title"), "source": lf.banner.get("Source"),
                             "sections": [x for x in sections if x["quote"] or x["rules"] or x["facts"]]})
    return out


# ------------------------------------------------------------------------------------------ rates ---
def rates_table(checker: Checker, chosen: Sequence[str], on: str | None = None) -> RateTable:
    """The source State's limits of the treaties ``chosen`` (default: every treaty), an unknown treaty
    refused."""
    from pyhelpers.engine.rates import rate_table

    known = [e.treaty for e in treaties(checker.logic, checker.static_atoms)]
    for t in chosen:
        if t not in known:
            raise InputError(f"treaty {t!r}: expected one of {', '.join(known)}")
    return rate_table(checker, tuple(chosen) or None, on)


def rates_answer(checker: Checker, chosen: Sequence[str], fmt: str, lang: str,
                 table: RateTable | None = None, on: str | None = None) -> str | bytes:
    """``treaty rates``: the table of the treaties ``chosen`` (:func:`rates_table`, each item paid on ``on``,
    unless given as ``table``) in ``fmt`` (:data:`pyhelpers.output.rates.FORMATS`; bytes for xlsx)."""
    from pyhelpers.output.rates import render as render_rates

    return render_rates(table if table is not None else rates_table(checker, chosen, on), fmt, lang)


# ----------------------------------------------------------------------------------------- report ---
def report_page(checker: Checker, loaded: Sequence[tuple[str, Scenario, bytes]], why_not: Sequence[str],
                lang: str, progress: Callable[[int], None] | None = None) -> str:
    """``treaty report``'s self-contained HTML page for the scenarios ``(source, scenario, file bytes)``;
    ``progress(1)`` told after each scenario is explained."""
    from pyhelpers.engine.query import parse_query
    from pyhelpers.output.report import build_report, find_dot, render_html

    queries = [parse_query(q, checker.logic) for q in why_not]
    return render_html(build_report(checker, list(loaded), lang, EXPLAINED_ROOTS, queries, progress), find_dot())


def has_decisive_lines(scenario: Scenario) -> bool:
    """Whether `treaty check` gives a scenario's States their decisive lines: not one without items or checked in
    slices (its explanation is one grounding of every item: `treaty explain --item` gives an item's argument). One
    with facts given as unknown or as alternatives has them where its outcome does not turn on those facts
    (:func:`decisive_lines`)."""
    from pyhelpers.scenario.limits import SLICE_ITEMS

    return bool(scenario.income) and len(scenario.income) <= SLICE_ITEMS


def decisive_lines(checker: Checker, scenario: Scenario, lang: str, result: ScenarioResult | None = None
                   ) -> dict[tuple[str, str], str]:
    """By (item, State): the decisive line of the legal argument for the State's outcome, as `treaty check`
    prints it under the outcome (and its JSON carries it). A scenario with facts given as unknown or as
    alternatives is argued with those facts set aside (not given): a State's line is kept where that argument
    reaches the outcome the check gives (``result``, checked here if not given) and the outcome is decided (it
    does not turn on those facts, which the argument then never cites); an open one keeps none (`treaty check`
    shows its alternatives under it)."""
    from pyhelpers.explain.argument import UNDETERMINED, argument_for
    from pyhelpers.explain.explainer import explain_scenario

    out: dict[tuple[str, str], str] = {}
    checked: dict[tuple[str, str], str] | None = None
    always: set[tuple[str, str]] = set()  # undetermined, but every way the open facts may go lets the State tax
    argued = scenario
    if scenario.open_facts:
        found = result if result is not None else checker.check(scenario)
        checked, always = _checked_outcomes(found)
        argued = scenario.with_values({}, "<decisive>")
    ex = explain_scenario(checker, argued, lang, lazy=True)  # the derivations the outcomes' arguments reach only
    for item in scenario.income:
        for arg in argument_for(ex, item.id, frozenset({"state_outcome"}), exception_reasons=False):
            line = render.decisive_line(arg, lang)  # (an exception's why-not: most of the cost, never on the line)
            if arg.state is None or line is None:
                continue
            if arg.outcome == UNDETERMINED and checked is None:  # a fact given as plain unknown, completed by the
                found = result if result is not None else checker.check(scenario)  # check: where that decides
                result = found  # the State's outcome, the line saying it depends on the fact is not its line
                checked, always = _checked_outcomes(found)
            got = checked.get((item.id, arg.state)) if checked is not None else None
            if checked is not None and arg.outcome == UNDETERMINED and got != UNDETERMINED and result is not None \
                    and (not scenario.open_facts or _decided_over_not_given(result, scenario, item.id)):
                # decided over the facts given as unknown (or not given), which the argument leaves open
                same = _same_at_bound(checker, scenario, result, item.id, arg.state, lang) or \
                    _same_whatever(result, item.id, arg.state, lang)
                if same is not None:
                    out[(item.id, arg.state)] = same
                continue
            if arg.outcome == "may_tax" and (item.id, arg.state) in always:  # "may tax in every case": the right
                out[(item.id, arg.state)] = line  # the facts given already reach (the rest only adds to it)
                continue
            if checked is not None and (got != UNDETERMINED or scenario.open_facts if arg.outcome == UNDETERMINED
                                        else got != arg.outcome):
                continue
            out[(item.id, arg.state)] = line
    return out


def _checked_outcomes(found: ScenarioResult) -> tuple[dict[tuple[str, str], str], set[tuple[str, str]]]:
    """By (item, State), the outcome the check gives; and the (item, State) pairs undetermined where every way the
    open facts may go lets the State tax ("may tax in every case")."""
    checked = {(i.item_id, s.state): s.outcome for i in found.items for s in i.states}
    return checked, {(i.item_id, s.state) for i in found.items for s in i.states if s.may_tax_always}


_SHARE_RANGE = re.compile(r"^from \S+ to (\d+(?:\.\d+)?)%$")
_RECORD_FIELD = re.compile(r"^(\w+)\[(\d+)\]\.(\w+)$")


def _same_at_bound(checker: Checker, scenario: Scenario, result: ScenarioResult, item_id: str, state: str,
                   lang: str) -> str | None:
    """The decisive line of a State's outcome that the check decided over one share of a record the scenario does not
    give, which every value it may take gives (:func:`_same_whatever`): the share's most the others' records leave, and
    the argument with the share at that most, where it reaches the same outcome (blind59 R4: «whatever
    `holdings[3].capital` (not given: at most <share> ...), as at <share>: ... equivalent beneficiaries own ... <their
    most> (< <threshold>)», the reason, not «every value they may take gives it»). None where the outcome rests on
    other facts not given, or the argument at that most reaches another outcome."""
    from pyhelpers.explain.argument import argument_for
    from pyhelpers.explain.explainer import explain_scenario

    item = next((i for i in result.items if i.item_id == item_id), None)
    outcome = next((s for s in item.states if s.state == state), None) if item is not None else None
    if item is None or outcome is None or item.alternatives:
        return None
    idle = [f for f in item.findings if f.kind == "not_needed"]  # the one fact not given, found to decide nothing
    shares = [(u, m, r) for u in result.unknowns if not u.given and (not u.items or item_id in u.items)
              and (m := _SHARE_RANGE.match(u.alternatives)) is not None
              and (r := _RECORD_FIELD.match(u.field or "")) is not None]
    if len(shares) != 1 or len(idle) != 1:
        return None
    u, m, r = shares[0]
    bound = float(m[1])
    value = int(bound) if bound.is_integer() else bound
    try:
        at = scenario.with_values({(r[1], int(r[2]), r[3]): value}, "<decisive>")
    except InputError:
        return None
    ex = explain_scenario(checker, at, lang, lazy=True)
    arg = next((a for a in argument_for(ex, item_id, frozenset({"state_outcome"}), exception_reasons=False)
                if a.state == state), None)
    line = render.decisive_line(arg, lang) if arg is not None and arg.outcome == outcome.outcome else None
    if line is None:
        return None
    shown = formats.percent_bp(round(bound * 100), lang)
    return render.label("same_at_bound", lang).format(fact=f"`{u.field}`", bound=shown, line=line)


def _decided_over_not_given(result: ScenarioResult, scenario: Scenario, item_id: str) -> bool:
    """Whether the check decided the item over a fact the scenario does not give (a share of the capital left out),
    beside facts it gives as alternatives: a fact not needed that is none of those (blind59 D6: the item's line is
    the one it has alone in its scenario)."""
    given = {f.name for f in scenario.open_facts}
    item = next((i for i in result.items if i.item_id == item_id), None)
    return item is not None and any(f.kind == "not_needed" and f.fact and f.fact not in given for f in item.findings)


def _same_whatever(result: ScenarioResult, item_id: str, state: str, lang: str) -> str | None:
    """The decisive line of a State's outcome that the check decided over facts given as unknown (or not given) which
    the legal argument, argued on the facts as given, leaves open: the outcome's provisions and the facts whose every
    value gives it (those the item's possibilities are conditioned on, or found not needed) — never "depends on"
    (issue 23: a decided item does not say it depends on anything)."""
    item = next((i for i in result.items if i.item_id == item_id), None)
    outcome = next((s for s in item.states if s.state == state), None) if item is not None else None
    if item is None or outcome is None or not outcome.provisions:
        return None
    facts = dict.fromkeys([c.fact for a in item.alternatives for c in (*a.holds_if, *(c for conj in a.holds_if_any
                                                                                      for c in conj))]
                          + [f.fact or "" for f in item.findings if f.kind == "not_needed" and f.fact])
    if not facts:
        return None
    fields = {u.fact: u.field for u in result.unknowns if u.field} | {
        f.fact: f.field for f in item.findings if f.kind == "not_needed" and f.fact and f.field}
    return render.label("same_whatever", lang).format(  # each fact where the scenario states it (issue 24 point 4)
        provisions="; ".join(readings.provision_text(p, lang) for p in outcome.provisions),
        facts=", ".join(f"`{fields.get(f) or f}`" for f in facts))


def bounded_decisive_lines(checker: Checker, scenario: Scenario, result: ScenarioResult, lang: str,
                           time_limit: float) -> dict[tuple[str, str], str] | None:
    """:func:`decisive_lines` derived within a time limit of their own, ``time_limit`` seconds of CPU time
    (:mod:`pyhelpers.base.clock`) counted from their start, as `treaty check` and the HTTP service's ``/check``
    give them after the check (which had as many seconds for itself: the argument does not wait on what the
    check left of its budget, so a check that used most of it still shows its decisive lines); None when the
    limit stopped them (the output says so: the answer itself stays complete). A result the check's limit cut
    has none (None), nor has a scenario :func:`has_decisive_lines` leaves without them (an empty mapping)."""
    import functools

    from pyhelpers.base import clock
    from pyhelpers.engine.bounded import run_bounded
    from pyhelpers.engine.limited import GRACE

    if not has_decisive_lines(scenario):
        return {}
    if result.incomplete is not None:
        return None
    deadline = clock.now() + time_limit
    run = run_bounded(functools.partial(_bounded_decisive_work, checker, scenario, lang, result),
                      deadline + min(GRACE, time_limit))
    return run.value if run.finished else None


def _bounded_decisive_work(checker: Checker, scenario: Scenario, lang: str, result: ScenarioResult,
                           _emit: Callable[[None], None]) -> dict[tuple[str, str], str]:
    """The bounded work of :func:`bounded_decisive_lines` (a module-level function: it pickles for a spawned
    child)."""
    return decisive_lines(checker, scenario, lang, result)
