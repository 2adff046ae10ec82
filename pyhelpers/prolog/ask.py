"""Goal-directed questions: every answer to a query (the one query syntax, :mod:`pyhelpers.query`)
from SWI-Prolog (tabled, in-process through pyswip) or from clingo, and the proof of each answer in
the cited, readable form of ``treaty explain``.

SWI-Prolog answers a query goal-directed: only the tables the goal needs are computed. Its proof
tree comes from the Prolog side (``'$tl_why'`` in ``runtime.pl`` re-runs the clauses over the
complete tables); this module turns it into :class:`~pyhelpers.explain.Step` trees with the rule
ids, provisions, readings and locations of the rule base.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import clingo
from clingo import ast

from pyhelpers.base.errors import QueryError
from pyhelpers.engine.program import Logic
from pyhelpers.engine.query import Query
from pyhelpers.engine.solve import Checker, run_clingo
from pyhelpers.explain.explainer import (
    AGGREGATE_NAMES,
    COMPARISONS,
    Step,
    Unbound,
    compare,
    evaluate,
    explain_scenario,
    unify,
)
from pyhelpers.explain.instrument import BodyPart, RulePlan, instrument, variables
from pyhelpers.explain.readings import plain, reading, render_value, user_atom, word
from pyhelpers.prolog.engine import Session, translation_for
from pyhelpers.prolog.portable import Node, plan_body
from pyhelpers.prolog.translate import RuleTranslator, Translation, conjunction
from pyhelpers.scenario import Scenario

SID = "s"

_ORDER = {"derived": 0, "ref": 0, "given": 0, "static": 0, "aggregate": 1, "test": 2, "not": 3}


@dataclass(frozen=True)
class Answer:
    """One solution of a query: the atom (scenario id first) and its truth ("true" or "undefined")."""

    atom: clingo.Symbol
    truth: str = "true"


# --------------------------------------------------------------------------------- SWI-Prolog ---
def _goal(query: Query, tr: Translation) -> tuple[str, str, str]:
    """(goals computing arithmetic of the pattern, the atom to call, the tests) in Prolog."""
    loc = query.pattern.location
    literals = [ast.Literal(loc, ast.Sign.NoSign, ast.SymbolicAtom(query.pattern))]
    literals += [ast.Literal(loc, ast.Sign.NoSign, t) for t in query.tests]
    nodes = [Node(lit) for lit in literals]
    rules = RuleTranslator(set(tr.derived), {}, "<query>")
    pre, call = rules.atom(nodes[0].atom.symbol)
    first = plan_body([(0, nodes[0])])
    tests_plan = plan_body(list(enumerate(nodes[1:], 1)), first.bound)
    if tests_plan.stuck:
        raise QueryError(f"query {query.text!r}: {tests_plan.stuck[0][2]}")
    tests = []
    bound = set(first.bound)
    for p in tests_plan.order:
        tests += [part.goal for part in rules.literal(p, bound)]
    return conjunction(pre), call, conjunction(tests)


def ask_prolog(checker: Checker, scenario: Scenario, query: Query) -> list[Answer]:
    """Every answer SWI-Prolog finds for ``query`` (the query's scenario id must be ``"s"``)."""
    tr = translation_for(checker.logic)
    sig = (query.pattern.name, len(query.pattern.arguments))
    if sig in tr.excluded:
        raise QueryError(f"{sig[0]}/{sig[1] - 1} is not in the portable rule subset ({tr.excluded[sig]}): "
                         "use --engine clingo")
    pre, call, tests = _goal(query, tr)
    session = Session.for_translation(tr)
    session.load(checker.facts(scenario, SID))
    rows = session.answers(call, tests, pre)
    out = [Answer(clingo.parse_term(text), truth) for text, truth in rows]
    return sorted(out, key=lambda a: a.atom)


def why_prolog(checker: Checker, scenario: Scenario, atom: clingo.Symbol, lang: str = "en") -> Step:
    """The Prolog proof tree of a true atom (scenario id ``"s"``), as ``treaty explain`` shows derivations."""
    tr = translation_for(checker.logic)
    session = Session.for_translation(tr)
    session.load(checker.facts(scenario, SID))
    rows = session.why(atom)
    if not rows:
        return Step("unknown", user_atom(atom), reading(checker.logic, atom, lang), note="no proof found")
    plans = instrument(checker.logic, scenario.treaty).plans
    builder = _TreeBuilder(checker.logic, plans, lang)
    return builder.build(rows)


class _TreeBuilder:
    def __init__(self, logic: Logic, plans: dict[int, RulePlan], lang: str) -> None:
        self.logic = logic
        self.plans = plans
        self.lang = lang

    def plan(self, index: int) -> RulePlan:
        plan = self.plans.get(index)
        if plan is None:  # a rule of another treaty's folder
            plan = instrument(self.logic).plans[index]
        return plan

    def build(self, rows: list[list[Any]]) -> Step:
        """The Step tree of depth-first rows; an atom already derived higher up or earlier is a
        reference (↑), as in ``treaty explain``."""
        pos = 0
        seen: set[str] = set()

        def node(env: dict[str, clingo.Symbol], plan: RulePlan | None) -> Step:
            nonlocal pos
            depth, kind, position, rule, text, raw_env = rows[pos]
            pos += 1
            step, child_env, child_plan = self.step(kind, position, rule, text, raw_env, env, plan)
            if kind == "rule":
                if text in seen:
                    step.kind = "ref"
                    while pos < len(rows) and rows[pos][0] > depth:
                        pos += 1
                    return step
                seen.add(text)
            while pos < len(rows) and rows[pos][0] > depth:
                step.children.append(node(child_env, child_plan))
            step.children.sort(key=lambda s: _ORDER.get(s.kind, 0))
            return step

        return node({}, None)

    def step(self, kind: str, position: int, rule: int, text: str, raw_env: list[tuple[str, str]],
             env: dict[str, clingo.Symbol], plan: RulePlan | None
             ) -> tuple[Step, dict[str, clingo.Symbol], RulePlan | None]:
        lang = self.lang
        if kind == "rule":
            atom = clingo.parse_term(text)
            p = self.plan(rule)
            info = p.info
            bindings = {name: clingo.parse_term(value) for name, value in raw_env}
            step = Step("derived", user_atom(atom), reading(self.logic, atom, lang), info.rule_id,
                        _provision(p, bindings), f"{info.file}:{info.line}", tuple(sorted(info.flags)))
            return step, bindings, p
        if kind in ("fact", "given"):
            atom = clingo.parse_term(text)
            pred = self.logic.predicate(atom.name, len(atom.arguments))
            leaf = "static" if kind == "fact" or (pred is not None and pred.role == "static") else "given"
            return Step(leaf, user_atom(atom), reading(self.logic, atom, lang), note=word(leaf, lang)), env, plan
        if kind == "neg":
            atom = clingo.parse_term(text)
            return Step("not", f"not {user_atom(atom)}", f"{word('not', lang)}: {reading(self.logic, atom, lang)}",
                        note=word("no_rule", lang)), env, plan
        part = plan.body[position] if plan is not None and 0 <= position < len(plan.body) else None
        if kind == "cmp" and part is not None and part.kind == "cmp" and plan is not None:
            return _test_step(part, plan, env, lang), env, plan
        if kind == "agg" and part is not None:
            fn = AGGREGATE_NAMES.get(part.atom.function, "aggregate")
            sym = clingo.parse_term(text)  # the atom as the engine writes it; the text with the figure grouped
            return Step("aggregate", f"#{fn} = {plain(sym)}", f"#{fn} = {render_value(sym, 'int', lang)} ({rule})"), \
                env, plan
        return Step("test", text, text), env, plan


def _provision(plan: RulePlan, env: dict[str, clingo.Symbol]) -> str | None:
    var = plan.info.dynamic_provision
    if var is not None:
        value = env.get(var)
        return str(value.string) if value is not None and value.type == clingo.SymbolType.String else None
    return None if plan.info.provision == "(core)" else plan.info.provision


def _render_side(node: Any, env: dict[str, clingo.Symbol], typ: str, lang: str) -> str:
    try:
        return render_value(evaluate(node, env), typ, lang)
    except Unbound:
        return str(node)


def _test_step(part: BodyPart, plan: RulePlan, env: dict[str, clingo.Symbol], lang: str) -> Step:
    """A comparison of a rule with its values, as ``treaty explain`` prints tests."""
    cmp = part.atom
    sides = [cmp.term, *(g.term for g in cmp.guards)]
    types = [plan.var_types.get(n, "int") for side in sides for n in variables(side)]
    typ = next((t for t in types if t not in ("int", "id")), "int")
    pieces = [_render_side(cmp.term, env, typ, lang)]
    ok = True
    prev = cmp.term
    for guard in cmp.guards:
        fn, sym = COMPARISONS[guard.comparison]
        pieces += [sym, _render_side(guard.term, env, typ, lang)]
        try:
            ok = ok and fn(evaluate(prev, env), evaluate(guard.term, env))
        except Unbound:
            ok = False
        prev = guard.term
    return Step("test", str(cmp), " ".join(pieces), note=f"{word('test', lang)}: {'✓' if ok else '✗'}")


# ------------------------------------------------------------------------------------- clingo ---
def _holds(test: Any, env: dict[str, clingo.Symbol]) -> tuple[bool, dict[str, clingo.Symbol]]:
    return compare(test, env)


def clingo_model(checker: Checker, scenario: Scenario) -> list[clingo.Symbol]:
    """Every atom of clingo's answer set for ``scenario`` (its id ``"s"``)."""
    facts = checker.facts(scenario, SID)
    return run_clingo(checker.logic.program_for(scenario.treaty, provenance=False), facts, shown_only=False).symbols


def ask_clingo(checker: Checker, scenario: Scenario, query: Query,
               model: list[clingo.Symbol] | None = None) -> list[Answer]:
    """Every atom of clingo's answer set (``model``, if already solved) matching ``query``."""
    symbols = clingo_model(checker, scenario) if model is None else model
    name, arity = query.pattern.name, len(query.pattern.arguments)
    out = []
    for sym in symbols:
        if sym.type != clingo.SymbolType.Function or sym.name != name or len(sym.arguments) != arity:
            continue
        env = unify(query.pattern, sym, {})
        if env is None:
            continue
        ok = True
        for t in query.tests:
            ok, env = _holds(t, env)
            if not ok:
                break
        if ok:
            out.append(Answer(sym))
    return sorted(set(out), key=lambda a: a.atom)


def why_clingo(checker: Checker, scenario: Scenario, atoms: list[clingo.Symbol], lang: str = "en") -> list[Step]:
    """The derivations of true atoms from clingo's instrumented solve (``treaty explain``)."""
    ex = explain_scenario(checker, scenario, lang)
    return [ex.tree(a) for a in atoms]


# ---------------------------------------------------------------------------------- rendering ---
_WORDS = {
    "en": {"answers": "{n} answers", "answer": "1 answer", "none": "no answer",
           "undefined": "undefined: depends on facts given as unknown"},
    "pt": {"answers": "{n} respostas", "answer": "1 resposta", "none": "nenhuma resposta",
           "undefined": "indefinido: depende de fatos informados como desconhecidos"},
    "pt-PT": {"undefined": "indefinido: depende de factos indicados como desconhecidos"},
}


def answers_text(answers: list[Answer], trees: list[Step | None], engine: str, lang: str = "en") -> str:
    """One answer per line (as a user writes the atom), each followed by its proof when given."""
    from pyhelpers.output.render import tree_text, wording

    words = wording(_WORDS, lang)
    lines: list[str] = []
    for answer, tree in zip(answers, trees, strict=True):
        suffix = f"  ({words['undefined']})" if answer.truth != "true" else ""
        lines.append(user_atom(answer.atom) + suffix)
        if tree is not None:
            lines += tree_text(tree, 1, lang)
            lines.append("")
    count = words["none"] if not answers else words["answer"] if len(answers) == 1 else \
        words["answers"].format(n=len(answers))
    lines.append(f"{count} ({engine})")
    return "\n".join(lines) + "\n"


def answers_json(source: str, query: str, answers: list[Answer], trees: list[Step | None], engine: str
                 ) -> dict[str, Any]:
    out = []
    for answer, tree in zip(answers, trees, strict=True):
        item: dict[str, Any] = {"atom": user_atom(answer.atom), "truth": answer.truth}
        if tree is not None:
            item["why"] = tree.to_dict()
        out.append(item)
    return {"source": source, "query": query, "engine": engine, "answers": out}
