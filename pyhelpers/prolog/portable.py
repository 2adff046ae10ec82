"""The portable rule subset: what ``logic/`` may use so that SWI-Prolog can run the same rules.

Allowed: normal rules with negation stratified on the atoms of every scenario (locally stratified:
the cross-check finds any atom that is not, since the well-founded model leaves it undefined);
facts; integer arithmetic (``+ - * / \\``, unary minus, ``|X|``); comparisons; body
``#count/#sum/#sum+/#min/#max`` whose conditions do not depend on the rule's own head; choice rules
only in the unknown-fact pattern ``{ a(...) } :- ..., unknown(...).``;
``#defined``, ``#show``, ``#const``. Every variable of a negated literal, a comparison or an aggregate
guard must be bound by a positive literal (or by an assignment ``X = ...`` from bound terms), and
``_`` never occurs there.

Forbidden: disjunction, head aggregates, pools, intervals, conditional literals, ``#external`` and
``#program`` (other than the implicit ``base``), optimisation, integrity constraints, classical
negation, double negation, theory atoms, script calls, and aggregates recursive through their own head.

A rule flagged ``clingo-only: <reason>`` in its annotation (``%@ id | provision | clingo-only: why``)
is exempt: the Prolog translation leaves it out and the cross-check skips every predicate that
depends on it (and says so).

:func:`plan_body` orders a rule body so that Prolog, running it left to right, meets every literal
with the variables it needs already bound; the translator and the lint share it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from clingo import ast
from clingo.ast import ASTType

Sig = tuple[str, int]
CLINGO_ONLY = "clingo-only"
UNKNOWN_PREDICATE = "unknown"

_ARITH_OPS = {
    ast.BinaryOperator.Plus, ast.BinaryOperator.Minus, ast.BinaryOperator.Multiplication,
    ast.BinaryOperator.Division, ast.BinaryOperator.Modulo,
}
_UNARY_OPS = {ast.UnaryOperator.Minus, ast.UnaryOperator.Absolute}
_AGG_FUNCTIONS = {
    ast.AggregateFunction.Count, ast.AggregateFunction.Sum, ast.AggregateFunction.SumPlus,
    ast.AggregateFunction.Min, ast.AggregateFunction.Max,
}
_ALLOWED_STATEMENTS = {ASTType.Rule, ASTType.Defined, ASTType.ShowSignature, ASTType.ShowTerm,
                       ASTType.Definition, ASTType.Program, ASTType.Comment}
_STATEMENT_NAMES = {
    ASTType.External: "#external",
    ASTType.Minimize: "optimisation (#minimize, #maximize or a weak constraint)",
    ASTType.Heuristic: "#heuristic",
    ASTType.Edge: "#edge",
    ASTType.ProjectAtom: "#project",
    ASTType.ProjectSignature: "#project",
    ASTType.TheoryDefinition: "#theory",
    ASTType.Script: "#script",
}


@dataclass(frozen=True, order=True)
class Violation:
    """One construct outside the portable subset, where it is."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


# ---------------------------------------------------------------------------------- the tree ---
class Node:
    """A clingo AST node copied into plain Python attributes: clingo's own nodes go through CFFI on
    every attribute access, far too slow for the repeated walks of the lint and the translator.
    ``str(node)`` is clingo's text of the original node."""

    ast_type: Any
    child_keys: tuple[str, ...]
    original: Any

    def __init__(self, original: Any) -> None:
        fields = self.__dict__
        fields["ast_type"] = original.ast_type
        fields["child_keys"] = tuple(original.child_keys)
        fields["original"] = original
        for key, value in original.items():
            if isinstance(value, ast.AST):
                fields[key] = Node(value)
            elif isinstance(value, ast.ASTSequence):
                fields[key] = [Node(v) if isinstance(v, ast.AST) else v for v in value]
            else:
                fields[key] = value

    def __getattr__(self, name: str) -> Any:  # attributes of other node types: absent
        raise AttributeError(name)

    def __str__(self) -> str:
        return str(self.original)


def mirror(statements: Iterable[Any]) -> list[Node]:
    """Plain-Python copies of parsed statements (comments are kept as bare nodes)."""
    out = []
    for stm in statements:
        if isinstance(stm, Node):
            out.append(stm)
        elif stm.ast_type == ASTType.Comment:
            bare = Node.__new__(Node)
            bare.__dict__.update(ast_type=stm.ast_type, child_keys=(), original=stm, location=stm.location)
            out.append(bare)
        else:
            out.append(Node(stm))
    return out


def walk(node: Any) -> Iterator[Any]:
    """Every node below ``node`` (itself included), in order."""
    yield node
    fields = node.__dict__
    for key in node.child_keys:
        child = fields.get(key)
        if child is None:
            continue
        if isinstance(child, Node):
            yield from walk(child)
        else:
            for c in child:
                if isinstance(c, Node):
                    yield from walk(c)


def variables(node: Any) -> list[str]:
    """Named variables of ``node`` in order of first occurrence (``_`` excluded)."""
    out: list[str] = []
    for n in walk(node):
        if n.ast_type == ASTType.Variable and n.name != "_" and n.name not in out:
            out.append(n.name)
    return out


def has_anonymous(node: Any) -> bool:
    return any(n.ast_type == ASTType.Variable and n.name == "_" for n in walk(node))


def split_variables(term: Any) -> tuple[set[str], set[str]]:
    """(variables a unification with ``term`` binds, variables inside arithmetic that must be bound)."""
    pattern: set[str] = set()
    arith: set[str] = set()

    def visit(t: Any, in_arith: bool) -> None:
        kind = t.ast_type
        if kind == ASTType.Variable:
            if t.name != "_":
                (arith if in_arith else pattern).add(t.name)
        elif kind == ASTType.Function:
            for a in t.arguments:
                visit(a, in_arith)
        elif kind == ASTType.BinaryOperation:
            visit(t.left, True)
            visit(t.right, True)
        elif kind == ASTType.UnaryOperation:
            visit(t.argument, True)
        elif kind in (ASTType.Pool, ASTType.Interval):
            for n in walk(t):
                if n.ast_type == ASTType.Variable and n.name != "_":
                    arith.add(n.name)

    visit(term, False)
    return pattern, arith


def is_arithmetic(term: Any) -> bool:
    return bool(term.ast_type in (ASTType.BinaryOperation, ASTType.UnaryOperation))


# ---------------------------------------------------------------------------------- body order ---
@dataclass(frozen=True)
class Planned:
    """A body literal placed in the order Prolog runs it.

    ``kind``: ``pos`` | ``neg`` | ``test`` | ``unify`` | ``agg`` | ``true`` | ``false``. For ``unify`` the
    side (``left`` or ``right``) is the pattern the other side's value is unified with; for ``agg`` it
    is the guard (``left`` or ``right``) that binds its variable, if any."""

    kind: str
    literal: Any
    position: int
    side: str | None = None


@dataclass
class BodyPlan:
    order: list[Planned] = field(default_factory=list)
    bound: set[str] = field(default_factory=set)
    stuck: list[tuple[int, Any, str]] = field(default_factory=list)  # (position, literal, why)


def _guards(agg: Any) -> list[tuple[str, Any]]:
    return [(side, g) for side, g in (("left", agg.left_guard), ("right", agg.right_guard)) if g is not None]


def _aggregate_globals(agg: Any, outside: set[str]) -> set[str]:
    inner: set[str] = set()
    for el in agg.elements:
        inner |= set(variables(el))
    return inner & outside


def _runnable(lit: Any, bound: set[str], outside: set[str]) -> tuple[str, str | None] | None:
    """How ``lit`` can run with ``bound`` variables bound, or None if it cannot run yet."""
    if lit.ast_type != ASTType.Literal:
        return None
    atom = lit.atom
    kind = atom.ast_type
    positive = lit.sign == ast.Sign.NoSign
    if kind == ASTType.BooleanConstant:
        return ("true" if atom.value == positive else "false"), None
    if kind == ASTType.SymbolicAtom:
        if positive:
            _, arith = split_variables(atom.symbol)
            return ("pos", None) if arith <= bound else None
        return ("neg", None) if set(variables(atom)) <= bound else None
    if kind == ASTType.Comparison:
        names = set(variables(atom))
        if names <= bound:
            return "test", None
        guards = list(atom.guards)
        if positive and len(guards) == 1 and guards[0].comparison == ast.ComparisonOperator.Equal:
            left, right = atom.term, guards[0].term
            for side, pattern, value in (("left", left, right), ("right", right, left)):
                _pat, arith = split_variables(pattern)
                if set(variables(value)) <= bound and arith <= bound and not is_arithmetic(pattern):
                    return "unify", side
        return None
    if kind == ASTType.BodyAggregate:
        if not _aggregate_globals(atom, outside) <= bound:
            return None
        binder = None
        for side, g in _guards(atom):
            names = set(variables(g.term))
            if names <= bound:
                continue
            if (positive and binder is None and g.comparison == ast.ComparisonOperator.Equal
                    and g.term.ast_type == ASTType.Variable):
                binder = side
                continue
            return None
        return "agg", binder
    return None


_RANK = {"true": 0, "false": 0, "test": 0, "neg": 0, "unify": 1, "agg": 2, "pos": 2}


def plan_body(literals: Iterable[tuple[int, Any]], bound: Iterable[str] = (),
              outside: dict[int, set[str]] | None = None) -> BodyPlan:
    """Order ``(position, literal)`` pairs so that each runs with the variables it needs bound.

    ``outside[pos]`` are the variables that occur in the rule outside literal ``pos`` (they decide which
    variables of an aggregate are global). Filters (tests, negations) run as soon as they can,
    positive literals and aggregates keep their source order."""
    plan = BodyPlan(bound=set(bound))
    remaining = list(literals)
    outside = outside or {}
    while remaining:
        best: tuple[int, int, Planned] | None = None
        for i, (pos, lit) in enumerate(remaining):
            how = _runnable(lit, plan.bound, outside.get(pos, set()))
            if how is None:
                continue
            candidate = (_RANK[how[0]], i, Planned(how[0], lit, pos, how[1]))
            if best is None or candidate[:2] < best[:2]:
                best = candidate
        if best is None:
            break
        _, i, planned = best
        del remaining[i]
        plan.order.append(planned)
        plan.bound |= binds(planned)
    for pos, lit in remaining:
        plan.stuck.append((pos, lit, _why_stuck(lit, plan.bound, outside.get(pos, set()))))
    return plan


def binds(p: Planned) -> set[str]:
    atom = p.literal.atom
    if p.kind == "pos":
        return split_variables(atom.symbol)[0]
    if p.kind == "unify":
        pattern = atom.term if p.side == "left" else atom.guards[0].term
        return split_variables(pattern)[0]
    if p.kind == "agg" and p.side is not None:
        guard = atom.left_guard if p.side == "left" else atom.right_guard
        return {guard.term.name}
    return set()


def _why_stuck(lit: Any, bound: set[str], outside: set[str]) -> str:
    if lit.ast_type != ASTType.Literal:
        return "cannot be placed"
    atom = lit.atom
    unbound = sorted(set(variables(lit)) - bound)
    if atom.ast_type == ASTType.SymbolicAtom:
        if lit.sign == ast.Sign.NoSign:
            names = sorted(split_variables(atom.symbol)[1] - bound)
            return f"variable(s) {', '.join(names)} inside arithmetic of a positive literal not bound"
        return f"variable(s) {', '.join(unbound)} of a negated literal not bound by a positive literal"
    if atom.ast_type == ASTType.Comparison:
        return f"variable(s) {', '.join(unbound)} of a comparison not bound by a positive literal"
    if atom.ast_type == ASTType.BodyAggregate:
        globals_ = sorted(_aggregate_globals(atom, outside) - bound)
        if globals_:
            return f"variable(s) {', '.join(globals_)} of an aggregate not bound by a positive literal"
        names = sorted({n for _, g in _guards(atom) for n in variables(g.term)} - bound)
        return f"variable(s) {', '.join(names)} of an aggregate guard not bound by a positive literal"
    return "cannot be placed"


def outside_variables(rule: Any) -> dict[int, set[str]]:
    """For each body position, the variables occurring in the rule outside that literal."""
    per = [set(variables(lit)) for lit in rule.body]
    head = set(variables(rule.head))
    out: dict[int, set[str]] = {}
    for i in range(len(per)):
        rest = set(head)
        for j, names in enumerate(per):
            if j != i:
                rest |= names
        out[i] = rest
    return out


# ------------------------------------------------------------------------------ the rule graph ---
def head_signatures(rule: Any) -> list[Sig]:
    """The predicates a rule (or fact) defines."""
    head = rule.head
    if head.ast_type == ASTType.Literal and head.atom.ast_type == ASTType.SymbolicAtom:
        sig = _sig(head.atom.symbol)
        return [sig] if sig is not None else []
    if head.ast_type == ASTType.Aggregate:
        return [s for el in head.elements if el.literal.atom.ast_type == ASTType.SymbolicAtom
                for s in [_sig(el.literal.atom.symbol)] if s]
    if head.ast_type in (ASTType.Disjunction, ASTType.HeadAggregate):
        out = []
        for n in walk(head):
            if n.ast_type == ASTType.SymbolicAtom and _sig(n.symbol):
                out.append(_sig(n.symbol))
        return [s for s in out if s is not None]
    return []


def _sig(term: Any) -> Sig | None:
    if term.ast_type == ASTType.Function and term.name:
        return (str(term.name), len(term.arguments))
    if term.ast_type == ASTType.SymbolicTerm and term.symbol.type.name == "Function" and term.symbol.name:
        return (str(term.symbol.name), len(term.symbol.arguments))
    return None


def body_signatures(rule: Any) -> list[tuple[Sig, bool, bool]]:
    """(predicate, negative?, inside an aggregate?) for every atom of the body."""
    out: list[tuple[Sig, bool, bool]] = []

    def literal(lit: Any, in_agg: bool) -> None:
        if lit.ast_type == ASTType.ConditionalLiteral:
            literal(lit.literal, in_agg)
            for c in lit.condition:
                literal(c, in_agg)
            return
        if lit.ast_type != ASTType.Literal:
            return
        atom = lit.atom
        if atom.ast_type == ASTType.SymbolicAtom:
            s = _sig(atom.symbol)
            if s:
                out.append((s, lit.sign != ast.Sign.NoSign, in_agg))
        elif atom.ast_type == ASTType.BodyAggregate:
            for el in atom.elements:
                for c in el.condition:
                    literal(c, True)
        elif atom.ast_type == ASTType.Aggregate:
            for el in atom.elements:
                literal(el.literal, True)
                for c in el.condition:
                    literal(c, True)

    for lit in rule.body:
        literal(lit, False)
    return out


def dependency_graph(rules: Iterable[Any]) -> dict[Sig, set[Sig]]:
    """Predicate → the predicates its rules' bodies use."""
    graph: dict[Sig, set[Sig]] = defaultdict(set)
    for rule in rules:
        deps = {s for s, _, _ in body_signatures(rule)}
        for h in head_signatures(rule):
            graph[h] |= deps
    return graph


def reachable(graph: dict[Sig, set[Sig]], start: Sig) -> set[Sig]:
    """Every predicate ``start`` depends on, transitively (itself only through a cycle)."""
    seen: set[Sig] = set()
    todo = list(graph.get(start, ()))
    while todo:
        s = todo.pop()
        if s in seen:
            continue
        seen.add(s)
        todo.extend(graph.get(s, ()))
    return seen


def is_unknown_choice(rule: Any) -> bool:
    """``{ a(...) } :- ..., unknown(...), ...``: one unconditional element, no bounds, and a positive
    ``unknown`` literal in the body."""
    head = rule.head
    if head.ast_type != ASTType.Aggregate or head.left_guard is not None or head.right_guard is not None:
        return False
    if len(head.elements) != 1:
        return False
    el = head.elements[0]
    if el.condition or el.literal.sign != ast.Sign.NoSign or el.literal.atom.ast_type != ASTType.SymbolicAtom:
        return False
    return any(
        lit.ast_type == ASTType.Literal and lit.sign == ast.Sign.NoSign
        and lit.atom.ast_type == ASTType.SymbolicAtom and _sig(lit.atom.symbol) is not None
        and _sig(lit.atom.symbol)[0] == UNKNOWN_PREDICATE  # type: ignore[index]
        for lit in rule.body
    )


# ------------------------------------------------------------------------------------ the lint ---
def clingo_only_reason(flags: Iterable[str]) -> str | None:
    """The reason of a ``clingo-only: reason`` flag ("" if the reason is missing), None if not flagged."""
    for f in flags:
        if f.startswith(CLINGO_ONLY):
            return f[len(CLINGO_ONLY):].lstrip(" :").strip()
    return None


def check(statements: list[Any], files: list[str], flags: dict[tuple[str, int], frozenset[str]] | None = None
          ) -> list[Violation]:
    """Every construct of ``statements`` outside the portable subset (``files[i]`` names the file of
    statement ``i``; ``flags[(file, line)]`` are the annotation flags of the rule at that line)."""
    flags = flags or {}
    statements = mirror(statements)
    found: list[Violation] = []
    rules: list[Any] = []
    exempt: set[int] = set()
    for stm, file in zip(statements, files, strict=True):
        line = stm.location.begin.line
        reason = clingo_only_reason(flags.get((file, line), ()))
        if reason is not None:
            if not reason:
                found.append(Violation(file, line, "a clingo-only rule must give its reason: "
                                                   "'| clingo-only: <why it cannot be portable>'"))
            exempt.add(id(stm))
            if stm.ast_type == ASTType.Rule:
                rules.append(stm)
            continue
        found += _check_statement(stm, file)
        if stm.ast_type == ASTType.Rule:
            rules.append(stm)
    found += _check_recursion(rules, statements, files, exempt)
    return sorted(set(found))


def _check_statement(stm: Any, file: str) -> list[Violation]:
    line = stm.location.begin.line
    kind = stm.ast_type
    if kind == ASTType.Program:
        begin, end = stm.location.begin, stm.location.end
        implicit = (begin.line, begin.column) == (end.line, end.column)  # the one clingo adds itself
        if not implicit:
            return [Violation(file, line, f"#program {stm.name} is outside the portable subset: "
                                          "all rules belong to the base program")]
        return []
    if kind not in _ALLOWED_STATEMENTS:
        name = _STATEMENT_NAMES.get(kind, str(kind).rsplit(".", 1)[-1])
        return [Violation(file, line, f"{name} is outside the portable subset")]
    out: list[Violation] = []
    out += _check_terms(stm, file)
    if kind != ASTType.Rule:
        return out
    head = stm.head
    if head.ast_type == ASTType.Disjunction:
        out.append(Violation(file, line, "disjunction in a rule head is outside the portable subset"))
    elif head.ast_type == ASTType.HeadAggregate:
        out.append(Violation(file, line, "head aggregate is outside the portable subset"))
    elif head.ast_type == ASTType.Aggregate:
        if not is_unknown_choice(stm):
            out.append(Violation(file, line, "choice rule other than the unknown-fact pattern "
                                             "'{ a(...) } :- ..., unknown(...).' is outside the portable subset"))
    elif head.ast_type == ASTType.TheoryAtom:
        out.append(Violation(file, line, "theory atom is outside the portable subset"))
    elif head.ast_type == ASTType.Literal:
        if head.atom.ast_type == ASTType.BooleanConstant:
            out.append(Violation(file, line, "integrity constraint is outside the portable subset "
                                             "(findings are atoms, never constraints)"))
        elif head.sign != ast.Sign.NoSign:
            out.append(Violation(file, line, "negation in a rule head is outside the portable subset"))
        elif head.atom.ast_type == ASTType.SymbolicAtom and head.atom.symbol.ast_type == ASTType.UnaryOperation:
            out.append(Violation(file, line, "classical negation (-p) is outside the portable subset"))
    for lit in stm.body:
        out += _check_literal(lit, file, top=True)
    if not out:
        out += _check_binding(stm, file)
    return out


def _check_terms(stm: Any, file: str) -> list[Violation]:
    out: list[Violation] = []
    for n in walk(stm):
        line = n.location.begin.line if hasattr(n, "location") else stm.location.begin.line
        kind = n.ast_type
        if kind == ASTType.Pool:
            out.append(Violation(file, line, "pool (a;b) is outside the portable subset"))
        elif kind == ASTType.Interval:
            out.append(Violation(file, line, "interval (a..b) is outside the portable subset"))
        elif kind == ASTType.BinaryOperation and n.operator_type not in _ARITH_OPS:
            out.append(Violation(file, line, f"operator {_op_text(n)} is outside the portable subset "
                                             "(integer + - * / \\ only)"))
        elif kind == ASTType.UnaryOperation:
            if n.operator_type not in _UNARY_OPS:
                out.append(Violation(file, line, "bitwise negation (~) is outside the portable subset"))
            elif n.operator_type == ast.UnaryOperator.Minus and (
                    n.argument.ast_type == ASTType.Function
                    or (n.argument.ast_type == ASTType.SymbolicTerm and n.argument.symbol.type.name != "Number")):
                out.append(Violation(file, line, "classical negation (-p) is outside the portable subset"))
        elif kind == ASTType.Function and n.external:
            out.append(Violation(file, line, f"script call @{n.name} is outside the portable subset"))
        elif kind == ASTType.SymbolicTerm and n.symbol.type.name == "Function" and n.symbol.negative:
            out.append(Violation(file, line, "classical negation (-p) is outside the portable subset"))
    return out


def _op_text(n: Any) -> str:
    text = str(n)
    for op in ("**", "&", "?", "^"):
        if op in text:
            return op
    return str(n.operator_type).rsplit(".", 1)[-1]


def _check_literal(lit: Any, file: str, top: bool) -> list[Violation]:
    line = lit.location.begin.line
    if lit.ast_type == ASTType.ConditionalLiteral:
        return [Violation(file, line, "conditional literal (a : b) is outside the portable subset")]
    if lit.ast_type != ASTType.Literal:
        return [Violation(file, line, f"{lit} is outside the portable subset")]
    out: list[Violation] = []
    atom = lit.atom
    if lit.sign == ast.Sign.DoubleNegation:
        out.append(Violation(file, line, "double negation (not not) is outside the portable subset"))
    if atom.ast_type == ASTType.SymbolicAtom:
        if atom.symbol.ast_type == ASTType.UnaryOperation:
            out.append(Violation(file, line, "classical negation (-p) is outside the portable subset"))
        if lit.sign != ast.Sign.NoSign and has_anonymous(atom):
            out.append(Violation(file, line, "anonymous variable _ in a negated literal is outside the portable "
                                             "subset (write a helper predicate)"))
    elif atom.ast_type == ASTType.Comparison:
        if has_anonymous(atom):
            out.append(Violation(file, line, "anonymous variable _ in a comparison is outside the portable subset"))
    elif atom.ast_type == ASTType.BodyAggregate:
        if not top:
            out.append(Violation(file, line, "aggregate inside an aggregate is outside the portable subset"))
        if atom.function not in _AGG_FUNCTIONS:
            out.append(Violation(file, line, "aggregate function outside #count/#sum/#sum+/#min/#max"))
        for _, g in _guards(atom):
            if has_anonymous(g.term):
                out.append(Violation(file, line, "anonymous variable _ in an aggregate guard is outside the "
                                                 "portable subset"))
        for el in atom.elements:
            for c in el.condition:
                out += _check_literal(c, file, top=False)
    elif atom.ast_type == ASTType.Aggregate:
        out.append(Violation(file, line, "set aggregate { ... } with conditional literals is outside the portable "
                                         "subset (use #count)"))
    elif atom.ast_type == ASTType.TheoryAtom:
        out.append(Violation(file, line, "theory atom is outside the portable subset"))
    return out


def _check_binding(rule: Any, file: str) -> list[Violation]:
    out: list[Violation] = []
    outside = outside_variables(rule)
    plan = plan_body(list(enumerate(rule.body)), (), outside)
    for _, lit, why in plan.stuck:
        out.append(Violation(file, lit.location.begin.line, why))
    if plan.stuck:
        return out
    for planned in plan.order:
        if planned.kind != "agg":
            continue
        for el in planned.literal.atom.elements:
            inner = plan_body(list(enumerate(el.condition)), plan.bound)
            for _, lit, why in inner.stuck:
                out.append(Violation(file, lit.location.begin.line, f"{why} (in an aggregate element)"))
            loose = sorted({n for t in el.terms for n in variables(t)} - inner.bound)
            if loose and not inner.stuck:
                out.append(Violation(file, planned.literal.location.begin.line,
                                     f"variable(s) {', '.join(loose)} of an aggregate element not bound by its "
                                     "condition"))
    head_vars = set(variables(rule.head)) - plan.bound
    if head_vars and not out:
        out.append(Violation(file, rule.location.begin.line,
                             f"variable(s) {', '.join(sorted(head_vars))} of the head not bound by the body"))
    return out


def _check_recursion(rules: list[Any], statements: list[Any], files: list[str], exempt: set[int]) -> list[Violation]:
    """Aggregates recursive through their own head (by predicate). Negation is not checked here: the
    rules are stratified on the atoms of each scenario (locally), not by predicate, and the
    cross-check finds any atom that is not (the well-founded model leaves it undefined)."""
    graph = dependency_graph(rules)
    where = {id(s): f for s, f in zip(statements, files, strict=True)}
    out: list[Violation] = []
    closure: dict[Sig, set[Sig]] = {}

    def deps(s: Sig) -> set[Sig]:
        if s not in closure:
            closure[s] = reachable(graph, s)
        return closure[s]

    for rule in rules:
        if id(rule) in exempt or rule.head.ast_type == ASTType.Aggregate:
            continue
        file = where[id(rule)]
        for h in head_signatures(rule):
            for s, _negative, in_agg in body_signatures(rule):
                if in_agg and (s == h or h in deps(s)):
                    out.append(Violation(file, rule.location.begin.line,
                                         f"aggregate recursive through its own head {h[0]}/{h[1]} (via {s[0]}/{s[1]}): "
                                         "outside the portable subset"))
    return out


def lint_logic(logic: Any) -> list[Violation]:
    """Every construct of the rule base outside the portable subset."""
    flags = {(r.file, r.line): r.flags for r in logic.rules}
    return check(logic.statements, logic.statement_files, flags)


def lint_text(text: str, name: str = "<text>") -> list[Violation]:
    """Every construct of a program given as text outside the portable subset (annotations
    ``%@ id | provision | flags`` are read for clingo-only flags)."""
    from pyhelpers.base.errors import LogicError
    from pyhelpers.engine.program import _annotations

    statements: list[Any] = []
    try:
        ast.parse_string(text, statements.append, logger=lambda code, msg: None)
    except RuntimeError as err:
        raise LogicError(f"{name}: does not parse: {err}") from None
    flags = {(name, line): note[2] for line, note in _annotations(text).items()}
    return check(statements, [name] * len(statements), flags)
