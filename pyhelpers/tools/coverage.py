"""Coverage of the rule base by the scenario suite: rules fired, and body conditions seen both ways.

A rule is *covered* when some scenario fires it. A body condition (positive literal, negated literal,
comparison, aggregate guard) at position ``k`` of rule ``N`` is *covered* when the suite saw it both
true and false at a grounding where the rest of the body held (so that it mattered). It is measured by
instrumentation through clingo's AST, on top of :func:`pyhelpers.instrument.instrument`:

    _cond(N, k, G, 1) :- _fired(N, G).                    % the whole body held: the condition was true
    _cond(N, k, (V1, ..., Vj), 0) :- Rest, Negation.     % the rest held, the condition did not

where ``Rest`` is the body without condition ``k``, ``V1..Vj`` its variables and ``Negation`` the
condition negated: ``not a(X)`` for ``a(X)``, ``a(X)`` for ``not a(X)``, the complementary operator of
a comparison, ``not`` before an aggregate (its guard negated). A negation whose variables the rest does
not bind (``X = f(Y)`` binding ``X``, ``N = #count{...}``, a positive literal that alone binds a
variable) is unsafe: that condition is counted as *not measurable* and reported apart (clingo's own
safety check decides it, on every candidate rule at once).

Every scenario is measured against the whole rule base (every treaty's rules with the core's, as a
batch mixing treaties grounds them), so that a treaty's guards are seen false on the other treaties'
scenarios.

A rule whose body mentions no *scenario-dependent* predicate cannot be made true or false by any
scenario: its conditions are not measurable either, for the reason ``static`` (listed apart from the
``unsafe`` ones). A predicate is scenario-dependent when it is an input of the vocabulary (role
``input``: the facts a scenario gives), when the rule base neither defines it (no fact, no rule head)
nor declares it ``static`` (so only a scenario can give it), or when some rule with that head mentions
a scenario-dependent predicate anywhere in its body (positive, negated, or inside an aggregate) — the
least fixpoint of that. Every other predicate is *static*: defined only by the rule base's own facts
and by rules over static predicates (the catalogues, cited numbers, ``contracting_state``, and core
``other_state(T, A, B) :- contracting_state(T, A), contracting_state(T, B), A != B.``).
"""

from __future__ import annotations

import json
import os
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any

import clingo
from clingo import ast
from clingo.ast import ASTType

from pyhelpers.base import formats, processes
from pyhelpers.engine.program import Logic, RuleInfo
from pyhelpers.engine.solve import Checker, run_clingo
from pyhelpers.explain.instrument import FIRED, LOC, BodyPart, _atom, _classify, _global_vars, _num, _tuple, variables
from pyhelpers.output.render import wording
from pyhelpers.scenario import load_file
from pyhelpers.scenario.loading import scenario_files as scenario_files  # where the commands took it from

COND = "_cond"
SCENARIO = "scenario"  # the fact naming each scenario of a program (pyhelpers.facts)
_COMPLEMENT = {
    ast.ComparisonOperator.Equal: ast.ComparisonOperator.NotEqual,
    ast.ComparisonOperator.NotEqual: ast.ComparisonOperator.Equal,
    ast.ComparisonOperator.LessThan: ast.ComparisonOperator.GreaterEqual,
    ast.ComparisonOperator.GreaterEqual: ast.ComparisonOperator.LessThan,
    ast.ComparisonOperator.LessEqual: ast.ComparisonOperator.GreaterThan,
    ast.ComparisonOperator.GreaterThan: ast.ComparisonOperator.LessEqual,
}
KIND_NAMES = {"pos": "literal", "neg": "negated literal", "cmp": "comparison", "agg": "aggregate guard"}


@dataclass(frozen=True)
class Condition:
    """Body condition ``position`` of a rule, and the rule that measures it false (None: not measurable)."""

    rule: RuleInfo
    position: int
    kind: str  # pos | neg | cmp | agg
    text: str
    line: int
    false_rule: str | None
    reason: str | None = None  # why not measurable: "unsafe" | "static" (None: measurable)

    @property
    def measurable(self) -> bool:
        return self.false_rule is not None


def _scenario_scope(part: BodyPart, rest_vars: set[str], dynamic: set[tuple[str, int]]) -> list[Any]:
    """``scenario(S)`` when ``part`` is a literal of a scenario's predicate whose scenario id ``S`` (its first
    argument: every dynamic predicate's, a house rule) the rest of the body does not mention: the
    condition is then false for a scenario that has no such atom (``scenario(S), not a(S, _)``), not only
    when no scenario has one. The same with one scenario in the program; with several (measured
    together, :func:`measure_many`) each scenario's own."""
    if part.kind != "pos" or part.node.atom.ast_type != ASTType.SymbolicAtom:
        return []
    term = part.node.atom.symbol
    args = getattr(term, "arguments", None)
    if not args or (str(term.name), len(args)) not in dynamic or args[0].ast_type != ASTType.Variable \
            or args[0].name in rest_vars or args[0].name == "_":
        return []
    return [_atom(SCENARIO, [args[0]])]


def _negation(part: BodyPart, rest_vars: set[str]) -> Any:
    lit = part.node
    if part.kind == "cmp" and len(lit.atom.guards) == 1 and lit.sign == ast.Sign.NoSign:
        guard = lit.atom.guards[0]
        flipped = ast.Guard(_COMPLEMENT[guard.comparison], guard.term)
        return ast.Literal(lit.location, ast.Sign.NoSign, ast.Comparison(lit.atom.term, [flipped]))
    if part.kind == "pos":
        # a variable of the literal that the rest of the body does not mention: false for every value
        # of it (`not a(X, _)`); one the rest mentions but does not bind stays (and is unsafe)
        return ast.Literal(lit.location, ast.Sign.Negation, _Anonymise(rest_vars)(lit.atom))
    sign = ast.Sign.Negation if lit.sign == ast.Sign.NoSign else ast.Sign.NoSign
    return ast.Literal(lit.location, sign, lit.atom)


class _Anonymise(ast.Transformer):
    def __init__(self, keep: set[str]) -> None:
        self.keep = keep

    def visit_Variable(self, node: Any) -> Any:
        return node if node.name in self.keep else ast.Variable(node.location, "_")


def _unsafe_lines(candidates: Sequence[str]) -> set[int]:
    """The (1-based) lines of ``candidates`` that clingo refuses as unsafe (one rule a line)."""
    bad: set[int] = set()

    def log(code: clingo.MessageCode, text: str) -> None:
        for m in re.finditer(r"^<block>:(\d+):\d+-[\d:]+: error: unsafe", text, re.MULTILINE):
            bad.add(int(m.group(1)))

    ctl = clingo.Control(["--warn=none"], logger=log, message_limit=10 * len(candidates) + 10)  # every error
    try:
        ctl.add("base", [], "\n".join(candidates))
        ctl.ground([("base", [])])
    except RuntimeError:
        pass
    return bad


def _positive(body: Iterable[Any]) -> tuple[tuple[str, int], ...]:
    out = []
    for lit in body:
        if lit.ast_type == ASTType.Literal and lit.sign == ast.Sign.NoSign \
                and lit.atom.ast_type == ASTType.SymbolicAtom and lit.atom.symbol.ast_type == ASTType.Function:
            out.append((str(lit.atom.symbol.name), len(lit.atom.symbol.arguments)))
    return tuple(out)


class _Predicates(ast.Transformer):
    """Collects the predicates of the symbolic atoms under a node (literals, aggregate elements)."""

    def __init__(self) -> None:
        self.found: set[tuple[str, int]] = set()

    def visit_SymbolicAtom(self, node: Any) -> Any:
        sym = node.symbol
        if sym.ast_type == ASTType.Function:
            self.found.add((str(sym.name), len(sym.arguments)))
        return node


def _body_predicates(body: Iterable[Any]) -> set[tuple[str, int]]:
    collect = _Predicates()
    for lit in body:
        collect(lit)
    return collect.found


def _head_predicate(stm: Any) -> tuple[str, int] | None:
    head = stm.head
    if head.ast_type == ASTType.Literal and head.atom.ast_type == ASTType.SymbolicAtom \
            and head.atom.symbol.ast_type == ASTType.Function:
        return (str(head.atom.symbol.name), len(head.atom.symbol.arguments))
    return None


def dynamic_predicates(logic: Logic) -> set[tuple[str, int]]:
    """The scenario-dependent predicates of the rule base (see the module docstring)."""
    rules = [(_head_predicate(stm), _body_predicates(stm.body))
             for stm in logic.statements if stm.ast_type == ASTType.Rule]
    defined = {h for h, _ in rules if h is not None}
    declared_static = {k for k, p in logic.vocabulary.items() if p.role == "static"}
    dynamic = {k for k, p in logic.vocabulary.items() if p.role == "input"}
    dynamic |= {q for _, body in rules for q in body if q not in defined and q not in declared_static}
    changed = True
    while changed:
        changed = False
        for head, body in rules:
            if head is not None and head not in dynamic and body & dynamic:
                dynamic.add(head)
                changed = True
    return dynamic


@dataclass(frozen=True)
class _Piece:
    """Program text for one statement: the statement itself (instrumented when a rule) and the
    false-side rules of its conditions, each with the predicates its positive body needs."""

    text: str
    rule: int | None
    false_rules: tuple[tuple[int, str, tuple[tuple[str, int], ...]], ...] = ()


@dataclass(frozen=True)
class ConditionPlan:
    """Every condition of every rule of a rule base, and the program text to measure them."""

    conditions: tuple[Condition, ...]
    by_rule: dict[int, tuple[Condition, ...]]
    pieces: tuple[_Piece, ...]

    def program(self, logic: Logic, present: frozenset[str] | None = None,
                skip: frozenset[tuple[int, int]] = frozenset()) -> str:
        """The whole rule base, every treaty's rules with the core's, instrumented (``_fired``, ``_cond``),
        as one program holds them when a batch mixes treaties: a scenario of one treaty is what makes
        another treaty's guards (``item_treaty(S, I, "<treaty>")``) false where the rest of their rule
        holds, the case those guards exist for. With ``present`` (the input
        predicates of the scenario), a rule is kept only when its positive body can hold, and a
        false-side rule only when its own positive body can (see :meth:`Logic.reachable`): the rest of
        a rule may hold where the condition cannot. The conditions in ``skip`` (already seen false) are
        left out: grounding a body without its most selective condition is what costs."""
        chosen = sorted(logic.reachable(None, None))
        possible = _possible(logic, chosen, present)
        stmts = logic._sliceable
        out = logic.defined_directives()
        for i in chosen:
            piece = self.pieces[i]
            if not piece.text:
                continue
            if possible is None or all(p in possible for p in stmts[i].positive):
                out.append(piece.text)
            for k, text, needs in piece.false_rules:
                if piece.rule is not None and (piece.rule, k) in skip:
                    continue
                if possible is None or all(p in possible for p in needs):
                    out.append(text)
        return "\n".join(out)


def _possible(logic: Logic, chosen: list[int], present: frozenset[str] | None) -> set[tuple[str, int]] | None:
    return None if present is None else logic.possible_predicates(chosen, present)


@lru_cache(maxsize=8)
def condition_plan(logic: Logic) -> ConditionPlan:
    infos = iter(logic.rules)
    pending: list[tuple[RuleInfo, BodyPart, str, tuple[tuple[str, int], ...]]] = []
    texts: list[tuple[str, int | None]] = []
    dynamic = dynamic_predicates(logic)
    static: set[int] = set()
    for stm, sl in zip(logic.statements, logic._sliceable, strict=True):
        if stm.ast_type != ASTType.Rule or not stm.body:
            texts.append((sl.text, None))
            continue
        info = next(infos)
        if not _body_predicates(stm.body) & dynamic:
            static.add(info.index)
        parts = [_classify(lit, i) for i, lit in enumerate(stm.body)]
        gvars = _global_vars(parts)
        fired = _atom(FIRED, [_num(info.index), _tuple(gvars)])
        lines = [str(ast.Rule(stm.location, fired, stm.body)), str(ast.Rule(stm.location, stm.head, [fired]))]
        for part in parts:
            lines.append(f"{COND}({info.index},{part.position},G,1) :- {FIRED}({info.index},G).")
            rest = [p for p in parts if p.position != part.position]
            rest_vars = {v for p in rest for v in variables(p.node)}
            head = _atom(COND, [_num(info.index), _num(part.position), _tuple(_global_vars(rest)), _num(0)])
            scope = _scenario_scope(part, rest_vars, dynamic)
            body = [p.node for p in rest] + [_negation(part, rest_vars | {v for s in scope for v in variables(s)})]
            text = str(ast.Rule(LOC, head, scope + body)).replace("\n", " ")
            pending.append((info, part, text, _positive(body)))  # needs: scenario(S) is always a fact
        texts.append(("\n".join(lines), info.index))
    unsafe = _unsafe_lines([text for _, _, text, _ in pending])

    def reason(no: int, info: RuleInfo) -> str | None:
        return "static" if info.index in static else "unsafe" if no in unsafe else None

    conditions = tuple(
        Condition(info, part.position, part.kind, str(part.node), part.node.location.begin.line,
                  None if reason(no, info) else text, reason(no, info))
        for no, (info, part, text, _) in enumerate(pending, 1)
    )
    by_rule: dict[int, list[Condition]] = defaultdict(list)
    needs: dict[tuple[int, int], tuple[tuple[str, int], ...]] = {}
    for c, (_, _, _, pos) in zip(conditions, pending, strict=True):
        by_rule[c.rule.index].append(c)
        needs[(c.rule.index, c.position)] = pos
    pieces = tuple(
        _Piece(text, rule, tuple((c.position, c.false_rule, needs[(rule, c.position)])
                                 for c in by_rule.get(rule, ()) if c.false_rule is not None)
               if rule is not None else ())
        for text, rule in texts
    )
    return ConditionPlan(conditions, {k: tuple(v) for k, v in by_rule.items()}, pieces)


# ------------------------------------------------------------------------------------- measuring ---

Seen = tuple[frozenset[int], frozenset[tuple[int, int, int]]]


def measure(checker: Checker, paths: Sequence[Path], skip: frozenset[tuple[int, int]] = frozenset()) -> Seen:
    """The rules fired and the conditions seen (rule, position, truth) by the scenarios ``paths``, measured
    together in one program, each under its own scenario id (every dynamic atom carries it first, and
    a condition is measured false per scenario: :func:`_scenario_scope`); the conditions in ``skip``
    are not measured false again. Grounding the instrumented rule base once for a group of scenarios
    instead of once for each is what makes measuring a suite affordable."""
    logic = checker.logic
    facts: list[str] = []
    for n, path in enumerate(paths):
        facts += checker.facts(load_file(path), f"s{n}")
    present = frozenset(f[: f.index("(")] for f in facts)
    program = condition_plan(logic).program(logic, present, skip) + _PROJECTION
    solved = run_clingo(program, facts, sort=False)  # only the projections are read: not every binding
    fired = frozenset(s.arguments[0].number for s in solved.symbols if s.name == _RULE_FIRED)
    seen = frozenset((s.arguments[0].number, s.arguments[1].number, s.arguments[2].number)
                     for s in solved.symbols if s.name == _CONDITION_SEEN)
    return fired, seen


GROUP = 50
"""Scenarios measured together (:func:`measure`): grounding twenty takes about a quarter of the time of
grounding each alone, and the whole rule base's grounding is paid once a group: the shipped suite
measured one process after the other took 229 s of CPU in groups of 20, 188 s in groups of 50 and 183 s
in groups of 100 (the same rules fired and conditions seen); fifty leave groups enough to share among the
workers."""


_RULE_FIRED, _CONDITION_SEEN = "_coverage_fired", "_coverage_seen"
_PROJECTION = (f"\n{_RULE_FIRED}(N) :- {FIRED}(N, G).\n{_CONDITION_SEEN}(N, K, T) :- {COND}(N, K, G, T).\n"
               f"#show {_RULE_FIRED}/1. #show {_CONDITION_SEEN}/3.\n")
"""The rules fired and the conditions seen, without their bindings: what :func:`measure` reads shown."""


class _Measurer:
    """Measures scenarios one after the other, skipping the conditions already seen false."""

    def __init__(self, logic: Logic) -> None:
        self.checker = Checker(logic)
        self.seen_false: set[tuple[int, int]] = set()

    def __call__(self, paths: Sequence[Path]) -> Seen:
        fired, seen = measure(self.checker, paths, frozenset(self.seen_false))
        self.seen_false |= {(n, k) for n, k, t in seen if t == 0}
        return fired, seen


_WORKER: _Measurer | None = None
_PARENT: Logic | None = None
"""The rule base of the run that starts the workers, its condition plan built: a forked worker has it
(``load_logic`` of the folder would parse the rule base and build the plan again, ~6 s of CPU each)."""


def _worker_init(root: str) -> None:
    global _WORKER
    from pyhelpers.engine.program import load_logic

    inherited = _PARENT if _PARENT is not None and str(_PARENT.root) == root else None
    _WORKER = _Measurer(inherited or load_logic(Path(root)))


def _worker_measure(paths: list[str]) -> Seen:
    assert _WORKER is not None
    return _WORKER([Path(p) for p in paths])


@dataclass
class Row:
    treaty: str
    article: str
    rules: int = 0
    fired: int = 0
    conditions: int = 0
    covered: int = 0
    not_measurable: int = 0
    static: int = 0  # of which the conditions of static rules (the rest: unsafe negations)

    @property
    def rules_pct(self) -> float:
        return 100.0 * self.fired / self.rules if self.rules else 100.0

    @property
    def conditions_pct(self) -> float:
        return 100.0 * self.covered / self.conditions if self.conditions else 100.0


@dataclass
class Coverage:
    """The suite's coverage of a rule base."""

    logic: Logic
    scenarios: int
    fired: set[int] = field(default_factory=set)
    seen: set[tuple[int, int, int]] = field(default_factory=set)

    @property
    def plan(self) -> ConditionPlan:
        return condition_plan(self.logic)

    def truths(self, c: Condition) -> set[int]:
        return {t for t in (0, 1) if (c.rule.index, c.position, t) in self.seen}

    def covered(self, c: Condition) -> bool:
        return c.measurable and self.truths(c) == {0, 1}

    def _place(self, info: RuleInfo) -> tuple[str, str]:
        lf = next(f for f in self.logic.files if f.relpath == info.file)
        treaty = lf.banner.get("Treaty", info.file.split("/")[1])
        article = lf.banner.get("Article") or Path(info.file).stem
        return treaty, article

    def rows(self) -> list[Row]:
        rows: dict[tuple[str, str], Row] = {}
        for r in self.logic.rules:
            key = self._place(r)
            row = rows.setdefault(key, Row(*key))
            row.rules += 1
            row.fired += r.index in self.fired
            for c in self.plan.by_rule.get(r.index, ()):
                if c.measurable:
                    row.conditions += 1
                    row.covered += self.covered(c)
                else:
                    row.not_measurable += 1
                    row.static += c.reason == "static"
        return sorted(rows.values(), key=lambda x: (x.treaty, _article_key(x.article)))

    def total(self) -> Row:
        t = Row("total", "")
        for row in self.rows():
            t.rules += row.rules
            t.fired += row.fired
            t.conditions += row.conditions
            t.covered += row.covered
            t.not_measurable += row.not_measurable
            t.static += row.static
        return t

    def uncovered(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for r in self.logic.rules:
            if r.index not in self.fired:
                out.append({"where": f"{r.file}:{r.line}", "rule": r.rule_id, "what": "rule never fired"})
        for c in self.plan.conditions:
            if not c.measurable or self.covered(c):
                continue
            missing = sorted({0, 1} - self.truths(c))
            what = " and ".join("never true" if t else "never false" for t in reversed(missing))
            out.append({"where": f"{c.rule.file}:{c.line}", "rule": c.rule.rule_id, "condition": c.position,
                        "kind": KIND_NAMES[c.kind], "text": c.text, "what": what})
        return out

    def not_measurable(self, reason: str | None = None) -> list[dict[str, Any]]:
        """The conditions not measurable (only those for ``reason``, "unsafe" or "static", if given)."""
        return [{"where": f"{c.rule.file}:{c.line}", "rule": c.rule.rule_id, "condition": c.position,
                 "kind": KIND_NAMES[c.kind], "text": c.text, "reason": c.reason}
                for c in self.plan.conditions if not c.measurable and reason in (None, c.reason)]


def _article_key(article: str) -> tuple[int, int, str]:
    m = re.fullmatch(r"(Protocol )?(\d+)", article)
    if m:
        return (1 if m.group(1) else 0, int(m.group(2)), "")
    return (2, 0, article)


def run_coverage(logic: Logic, paths: Sequence[Path], jobs: int | None = None,
                 progress: Callable[[int], None] | None = None) -> Coverage:
    """Measure every scenario of ``paths`` (in ``jobs`` processes; default: the CPUs); ``progress(n)`` is
    told as each group of ``n`` scenarios (:data:`GROUP`) is measured."""
    condition_plan(logic)  # built once, before the workers fork
    cov = Coverage(logic, len(paths))
    jobs = jobs or os.cpu_count() or 1
    groups = [list(paths[i:i + GROUP]) for i in range(0, len(paths), GROUP)]

    def add(result: Seen, size: int) -> None:  # a union: the same coverage whatever the order of the groups
        cov.fired |= result[0]
        cov.seen |= result[1]
        if progress is not None:
            progress(size)

    if jobs <= 1 or len(groups) <= 1:
        one = _Measurer(logic)
        for g in groups:
            add(one(g), len(g))
    else:
        global _PARENT
        _PARENT = logic
        pool = ProcessPoolExecutor(jobs, mp_context=processes.context(), initializer=_worker_init,
                                   initargs=(str(logic.root),))
        with pool:
            futures = {pool.submit(_worker_measure, [str(p) for p in g]): len(g) for g in groups}
            for future in as_completed(futures):
                add(future.result(), futures[future])
    return cov


# ------------------------------------------------------------------------------------- rendering ---

def _pct(n: int, d: int, lang: str = "en") -> str:
    return f"{n}/{d} {formats.number(Decimal(f'{100.0 * n / d if d else 100.0:.1f}'), lang)}%"


_TEXT = {
    "en": {"title": "coverage of logic/ by {n} scenario(s)", "treaty": "treaty", "article": "article",
           "fired": "rules fired", "covered": "conditions covered", "unmeasurable": "not measurable (unsafe+static)",
           "uncovered": "uncovered ({n}):", "condition": "condition", "rule never fired": "rule never fired",
           "never true": "never true", "never false": "never false", "and": "and",
           "literal": "literal", "negated literal": "negated literal", "comparison": "comparison",
           "aggregate guard": "aggregate guard",
           "not_measurable": "not measurable, {reason} ({n}: {why}):", "unsafe": "unsafe", "static": "static",
           "why_unsafe": "the negation would be unsafe, the rest of the body does not bind its variables",
           "why_static": "the rule's body mentions no scenario-dependent predicate"},
    "pt": {"title": "cobertura de logic/ por {n} cenário(s)", "treaty": "tratado", "article": "artigo",
           "fired": "regras disparadas", "covered": "condições cobertas",
           "unmeasurable": "não mensuráveis (inseguras+estáticas)",
           "uncovered": "não cobertas ({n}):", "condition": "condição", "rule never fired": "regra nunca disparada",
           "never true": "nunca verdadeira", "never false": "nunca falsa", "and": "e",
           "literal": "literal", "negated literal": "literal negado", "comparison": "comparação",
           "aggregate guard": "guarda de agregado",
           "not_measurable": "não mensuráveis, {reason} ({n}: {why}):", "unsafe": "inseguras", "static": "estáticas",
           "why_unsafe": "a negação seria insegura, o resto do corpo não liga suas variáveis",
           "why_static": "o corpo da regra não menciona nenhum predicado que dependa do cenário"},
}
"""The words of ``treaty coverage``'s text (``--lang``); the JSON keeps the English keys and values."""


def _what(what: str, w: dict[str, str]) -> str:
    """``rule never fired``, ``never true and never false`` in the table's language."""
    return f" {w['and']} ".join(w.get(part, part) for part in what.split(" and "))


def coverage_text(cov: Coverage, lang: str = "en") -> str:
    """The coverage table and the uncovered rules and conditions, in ``lang`` (en, pt, pt-PT)."""
    w = wording(_TEXT, lang)
    lines = [w["title"].format(n=cov.scenarios), "",
             f"{w['treaty']:8} {w['article']:12} {w['fired']:>16} {w['covered']:>20} "
             f"{w['unmeasurable']:>31}"]
    for row in [*cov.rows(), cov.total()]:
        split = f"{row.not_measurable} ({row.not_measurable - row.static}+{row.static})"
        lines.append(f"{row.treaty:8} {row.article:12} {_pct(row.fired, row.rules, lang):>16} "
                     f"{_pct(row.covered, row.conditions, lang):>20} {split:>31}")
    unc = cov.uncovered()
    lines += ["", w["uncovered"].format(n=len(unc))]
    for u in unc:
        if "condition" in u:
            lines.append(f"  {u['where']}: {u['rule']} {w['condition']} {u['condition']} ({w[u['kind']]}) "
                         f"`{u['text']}`: {_what(u['what'], w)}")
        else:
            lines.append(f"  {u['where']}: {u['rule']}: {_what(u['what'], w)}")
    for reason in ("unsafe", "static"):
        nm = cov.not_measurable(reason)
        lines += ["", w["not_measurable"].format(reason=w[reason], n=len(nm), why=w[f"why_{reason}"])]
        lines += [f"  {u['where']}: {u['rule']} {w['condition']} {u['condition']} ({w[u['kind']]}) `{u['text']}`"
                  for u in nm]
    return "\n".join(lines) + "\n"


def coverage_json(cov: Coverage) -> dict[str, Any]:
    def row(r: Row) -> dict[str, Any]:
        return {"treaty": r.treaty, "article": r.article, "rules": r.rules, "fired": r.fired,
                "rules_pct": round(r.rules_pct, 2), "conditions": r.conditions, "covered": r.covered,
                "conditions_pct": round(r.conditions_pct, 2), "not_measurable": r.not_measurable,
                "not_measurable_unsafe": r.not_measurable - r.static, "not_measurable_static": r.static}

    return {"scenarios": cov.scenarios, "total": row(cov.total()), "rows": [row(r) for r in cov.rows()],
            "uncovered": cov.uncovered(), "not_measurable": cov.not_measurable()}


def dumps(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
