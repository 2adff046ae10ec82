"""The rule base, from clingo's own AST, as one SWI-Prolog program with tabling and well-founded negation.

One translator, no second hand-written encoding. The program it writes:

* loads ``runtime.pl`` (symbol order, aggregates, printing in clingo syntax, dump, proof trees);
* names every predicate ``'@name'`` (no rule-base name can clash with a Prolog built-in);
* tables (``:- table``) every predicate some rule derives; the others (scenario inputs, the treaties'
  catalogue facts) are dynamic, so a scenario's facts are consulted or asserted beside the rules;
* negation is ``tnot/1`` on derived predicates (well-founded semantics) and ``\\+`` on the others;
* runs each body in the order :func:`~pyhelpers.prolog.portable.plan_body` gives (every negation,
  comparison and aggregate guard meets its variables bound);
* keeps clingo's semantics of values: integers, constants (atoms), strings (Prolog strings), functions
  (compound terms; the tuple is ``''``), ``#inf``/``#sup``; comparisons in clingo's symbol order;
  arithmetic only on integers (``/`` and ``\\`` truncate like clingo, division by zero or arithmetic on
  a symbol makes the rule instance vanish, as in clingo);
* body aggregates by ``findall`` + ``sort`` (set semantics) over ``call_delays`` (an element whose
  condition is undefined makes the aggregate undefined unless every choice gives the same result);
* a choice rule of the unknown-fact pattern ``{ a } :- B.`` becomes the even loop
  ``a :- B, tnot(¬a). ¬a :- B, tnot(a).``, which the well-founded semantics leaves undefined;
* every derived predicate also reads ``'@in:name'``: a scenario may give, as a fact, an atom that
  rules could derive (the unknown-fact pattern);
* beside each clause, ``'$tl_rule'(Index, Head, Parts, Env)`` describes it for the proof trees of ``ask --why``.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import clingo
from clingo import ast
from clingo.ast import ASTType

from pyhelpers.base.errors import LogicError
from pyhelpers.engine.program import Logic, _annotations
from pyhelpers.prolog.portable import (
    Planned,
    Sig,
    binds,
    check,
    clingo_only_reason,
    dependency_graph,
    head_signatures,
    is_unknown_choice,
    mirror,
    outside_variables,
    plan_body,
    variables,
    walk,
)

PREFIX = "@"
BRIDGE = "@in:"
COMPLEMENT = "@not:"
RUNTIME = Path(__file__).with_name("runtime.pl")

_CMP = {
    ast.ComparisonOperator.LessThan: "lt",
    ast.ComparisonOperator.LessEqual: "le",
    ast.ComparisonOperator.GreaterThan: "gt",
    ast.ComparisonOperator.GreaterEqual: "ge",
    ast.ComparisonOperator.Equal: "eq",
    ast.ComparisonOperator.NotEqual: "ne",
}
_BIN = {ast.BinaryOperator.Plus: "+", ast.BinaryOperator.Minus: "-", ast.BinaryOperator.Multiplication: "*"}
_AGG = {
    ast.AggregateFunction.Count: "count",
    ast.AggregateFunction.Sum: "sum",
    ast.AggregateFunction.SumPlus: "sumplus",
    ast.AggregateFunction.Min: "min",
    ast.AggregateFunction.Max: "max",
}


@dataclass(frozen=True)
class Translation:
    """The Prolog program of a rule base, and what the engines need to know about it."""

    text: str
    derived: frozenset[Sig]  # tabled: some rule (with a body) derives them
    inputs: frozenset[Sig]  # dynamic: scenario facts and catalogue facts
    excluded: dict[Sig, str] = field(default_factory=dict)  # skipped by the cross-check, with the reason
    choice: bool = False  # unknown-fact choice rules: a scenario may have several answer sets
    digest: str = ""

    def predicate(self, sig: Sig) -> str:
        """The Prolog functor of a predicate of the rule base for a fact: derived ones through '@in:'."""
        return quote((BRIDGE if sig in self.derived else PREFIX) + sig[0])


# ------------------------------------------------------------------------------------- values ---
def quote(name: str) -> str:
    """A quoted Prolog atom."""
    return "'" + name.replace("\\", "\\\\").replace("'", "\\'") + "'"


def string(text: str) -> str:
    """A Prolog string literal with the same characters."""
    out = ['"']
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ord(ch) < 32 or ord(ch) == 127:
            out.append(f"\\x{ord(ch):x}\\")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def symbol(sym: clingo.Symbol) -> str:
    """A clingo value as a Prolog term."""
    kind = sym.type
    if kind == clingo.SymbolType.Number:
        return str(sym.number)
    if kind == clingo.SymbolType.String:
        return string(sym.string)
    if kind == clingo.SymbolType.Infimum:
        return "'#inf'"
    if kind == clingo.SymbolType.Supremum:
        return "'#sup'"
    if sym.negative:
        raise LogicError(f"classical negation -{sym.name} has no Prolog translation")
    if not sym.arguments:
        return quote(sym.name)
    return f"{quote(sym.name)}({', '.join(symbol(a) for a in sym.arguments)})"


def fact(sym: clingo.Symbol, translation: Translation) -> str:
    """A ground atom as a Prolog fact term (no final dot)."""
    sig = (sym.name, len(sym.arguments))
    head = translation.predicate(sig)
    if not sym.arguments:
        return head
    return f"{head}({', '.join(symbol(a) for a in sym.arguments)})"


# --------------------------------------------------------------------------------- translator ---
@dataclass
class _Part:
    position: int
    kind: str  # pos | neg | cmp | agg | hidden
    goal: str
    info: str = "none"


class RuleTranslator:
    """Translates terms, literals and rules of one rule base."""

    def __init__(self, derived: set[Sig], consts: dict[str, Any], where: str) -> None:
        self.derived = derived
        self.consts = consts
        self.where = where
        self.counter = 0

    def fail(self, node: Any, what: str) -> LogicError:
        return LogicError(f"{self.where}:{node.location.begin.line}: {what} has no Prolog translation "
                          "(outside the portable subset)")

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}_{self.counter}"

    @staticmethod
    def var(name: str) -> str:
        return "V_" + name.replace("'", "_Q")

    # ---------------------------------------------------------------------------------- terms ---
    def term(self, node: Any) -> tuple[list[str], str]:
        """(goals computing arithmetic first, the Prolog term)."""
        kind = node.ast_type
        if kind == ASTType.Variable:
            # a named fresh variable for _: the call and its description in '$tl_rule' share it
            return [], self.fresh("_Anon") if node.name == "_" else self.var(node.name)
        if kind == ASTType.SymbolicTerm:
            sym = node.symbol
            if sym.type == clingo.SymbolType.Function and not sym.arguments and sym.name in self.consts:
                return self.term(self.consts[sym.name])
            return [], symbol(sym)
        if kind == ASTType.Function:
            if node.external:
                raise self.fail(node, f"script call @{node.name}")
            if not node.arguments and node.name in self.consts:
                return self.term(self.consts[node.name])
            goals: list[str] = []
            args = []
            for a in node.arguments:
                g, t = self.term(a)
                goals += g
                args.append(t)
            if not args:
                return goals, quote(node.name)
            return goals, f"{quote(node.name)}({', '.join(args)})"
        if kind in (ASTType.BinaryOperation, ASTType.UnaryOperation):
            goals, expr = self.arith(node)
            tmp = self.fresh("A")
            return [*goals, f"{tmp} is {expr}"], tmp
        raise self.fail(node, str(node))

    def arith(self, node: Any) -> tuple[list[str], str]:
        """(goals that fail unless the operands are integers, the arithmetic expression)."""
        kind = node.ast_type
        if kind == ASTType.Variable:
            v = self.var(node.name)
            return [f"integer({v})"], v
        if kind == ASTType.SymbolicTerm:
            sym = node.symbol
            if sym.type == clingo.SymbolType.Function and not sym.arguments and sym.name in self.consts:
                return self.arith(self.consts[sym.name])
            if sym.type == clingo.SymbolType.Number:
                return [], f"({sym.number})"
            return ["fail"], "0"  # arithmetic on a symbol: undefined, the rule instance vanishes
        if kind == ASTType.Function:
            if not node.arguments and node.name in self.consts:
                return self.arith(self.consts[node.name])
            return ["fail"], "0"
        if kind == ASTType.UnaryOperation:
            goals, e = self.arith(node.argument)
            if node.operator_type == ast.UnaryOperator.Minus:
                return goals, f"(-{e})"
            if node.operator_type == ast.UnaryOperator.Absolute:
                return goals, f"abs({e})"
            raise self.fail(node, f"operator in {node}")
        if kind == ASTType.BinaryOperation:
            gl, left = self.arith(node.left)
            gr, right = self.arith(node.right)
            op = node.operator_type
            if op in _BIN:
                return _dedupe(gl + gr), f"({left} {_BIN[op]} {right})"
            if op in (ast.BinaryOperator.Division, ast.BinaryOperator.Modulo):
                d = self.fresh("D")
                fn = "//" if op == ast.BinaryOperator.Division else "rem"
                return _dedupe([*gl, *gr, f"{d} is {right}", f"{d} =\\= 0"]), f"({left} {fn} {d})"
            raise self.fail(node, f"operator in {node}")
        raise self.fail(node, str(node))

    def atom(self, node: Any, prefix: str = PREFIX) -> tuple[list[str], str]:
        """A predicate call ``'@name'(args)``."""
        if node.ast_type == ASTType.SymbolicTerm and node.symbol.type == clingo.SymbolType.Function:
            sym = node.symbol
            if sym.negative:
                raise self.fail(node, "classical negation")
            name = quote(prefix + sym.name)
            return [], f"{name}({', '.join(symbol(a) for a in sym.arguments)})" if sym.arguments else name
        if node.ast_type != ASTType.Function or not node.name:
            raise self.fail(node, f"atom {node}")
        goals: list[str] = []
        args = []
        for a in node.arguments:
            g, t = self.term(a)
            goals += g
            args.append(t)
        name = quote(prefix + node.name)
        return goals, f"{name}({', '.join(args)})" if args else name

    # ------------------------------------------------------------------------------- literals ---
    def literal(self, p: Planned, bound: set[str]) -> list[_Part]:
        lit = p.literal
        atom = lit.atom
        if p.kind in ("true", "false"):
            return [_Part(p.position, "cmp", "true" if p.kind == "true" else "fail")]
        if p.kind == "pos":
            goals, call = self.atom(atom.symbol)
            return [_Part(p.position, "pos", conjunction([*goals, call]), call)]
        if p.kind == "neg":
            goals, call = self.atom(atom.symbol)
            sig = _signature(atom.symbol)
            neg = f"tnot({call})" if sig in self.derived else f"\\+ {call}"
            if goals:  # arithmetic inside the negated atom: computed by a part of its own
                return [_Part(-1, "hidden", conjunction(goals)), _Part(p.position, "neg", neg, call)]
            return [_Part(p.position, "neg", neg, call)]
        if p.kind in ("test", "unify"):
            goal = self.comparison(atom, p)
            if lit.sign != ast.Sign.NoSign:
                goal = f"\\+ ({goal})"
            return [_Part(p.position, "cmp", goal)]
        if p.kind == "agg":
            return [self.aggregate(p, bound)]
        raise self.fail(lit, str(lit))

    def comparison(self, cmp: Any, p: Planned) -> str:
        if p.kind == "unify":
            guard = cmp.guards[0]
            pattern, other = (cmp.term, guard.term) if p.side == "left" else (guard.term, cmp.term)
            gv, v = self.term(other)
            gp, t = self.term(pattern)
            return conjunction([*gv, *gp, f"{t} = {v}"])
        goals: list[str] = []
        gl, left = self.term(cmp.term)
        goals += gl
        for guard in cmp.guards:
            gr, right = self.term(guard.term)
            goals += gr
            op = _CMP[guard.comparison]
            if op == "eq":
                goals.append(f"{left} == {right}")
            elif op == "ne":
                goals.append(f"{left} \\== {right}")
            else:
                goals.append(f"'$tl_cmp'({op}, {left}, {right})")
            left = right
        return conjunction(goals)

    def aggregate(self, p: Planned, bound: set[str]) -> _Part:
        agg = p.literal.atom
        fn = _AGG.get(agg.function)
        if fn is None:
            raise self.fail(p.literal, "aggregate function")
        tup, delays, pairs = self.fresh("T"), self.fresh("D"), self.fresh("P")
        branches: list[str] = []
        elements: list[str] = []
        for el in agg.elements:
            inner = plan_body(list(enumerate(el.condition)), bound)
            if inner.stuck:
                raise self.fail(p.literal, "an aggregate element with unbound variables")
            goals: list[str] = []
            atoms: list[str] = []
            inner_bound = set(bound)
            for q in inner.order:
                for part in self.literal(q, inner_bound):
                    goals.append(part.goal)
                    if part.kind == "pos":
                        atoms.append(part.info)
                inner_bound |= binds(q)
            terms = []
            tgoals: list[str] = []
            for t in el.terms:
                g, text = self.term(t)
                tgoals += g
                terms.append(text)
            cond = conjunction(goals)
            record = f"t({', '.join(terms)})" if terms else "t"
            branches.append(f"({conjunction([cond, *tgoals, f'{tup} = {record}'])})")
            elements.append(f"el({cond}, [{', '.join(atoms)}])")
        pre: list[str] = []
        guards = []
        for side, g in (("left", agg.left_guard), ("right", agg.right_guard)):
            if g is None:
                continue
            if side == p.side:
                guards.append(f"g(eq, bind, {self.var(g.term.name)})")
                continue
            gg, text = self.term(g.term)
            pre += gg
            guards.append(f"g({_CMP[g.comparison]}, {side}, {text})")
        body = " ; ".join(branches) if branches else "fail"
        collect = f"findall({tup}-{delays}, call_delays(({body}), {delays}), {pairs})"
        call = "'$tl_agg'" if p.literal.sign == ast.Sign.NoSign else "'$tl_nagg'"
        goal = conjunction([*pre, collect, f"{call}({fn}, {pairs}, [{', '.join(guards)}])"])
        return _Part(p.position, "agg", goal, f"agg({fn}, {pairs}, [{', '.join(elements)}])")

    # ---------------------------------------------------------------------------------- rules ---
    def body(self, rule: Any) -> tuple[list[_Part], set[str]]:
        plan = plan_body(list(enumerate(rule.body)), (), outside_variables(rule))
        if plan.stuck:
            _pos, lit, why = plan.stuck[0]
            raise LogicError(f"{self.where}:{lit.location.begin.line}: {why}")
        parts = []
        bound: set[str] = set()
        for p in plan.order:
            parts += self.literal(p, bound)
            bound |= binds(p)
        return parts, bound

    def rule(self, rule: Any, index: int | None) -> list[str]:
        """Clauses (and the '$tl_rule' description) of one statement of the rule base."""
        head = rule.head
        choice = head.ast_type == ASTType.Aggregate
        if choice:
            if not is_unknown_choice(rule):
                raise self.fail(rule, "a choice rule other than the unknown-fact pattern")
            head_atom = head.elements[0].literal.atom.symbol
        elif head.ast_type == ASTType.Literal and head.atom.ast_type == ASTType.SymbolicAtom \
                and head.sign == ast.Sign.NoSign:
            head_atom = head.atom.symbol
        else:
            raise self.fail(rule, f"the head {head}")
        parts, bound = self.body(rule)
        hgoals, htext = self.atom(head_atom)
        if hgoals:
            parts.append(_Part(-1, "hidden", conjunction(hgoals)))
        sig = _signature(head_atom)
        out = []
        if choice:
            _, comp = self.atom(head_atom, COMPLEMENT)
            body = [p.goal for p in parts]
            out.append(f"{htext} :- {conjunction([*body, f'tnot({comp})'])}.")
            out.append(f"{comp} :- {conjunction([*body, f'tnot({htext})'])}.")
            parts.append(_Part(-1, "hidden", f"tnot({comp})"))
        elif parts:
            out.append(f"{htext} :- {conjunction([p.goal for p in parts])}.")
        else:
            out.append(f"{htext}.")
        if index is None:
            if sig in self.derived:  # a fact of a derived predicate: a leaf of the proof trees
                desc = ", ".join(f"part({p.position}, {p.kind}, ({p.goal}), {p.info})" for p in parts)
                out.append(f"'$tl_rule'(fact, {htext}, [{desc}], []).")
            return out
        names = [n for n in variables(rule) if n in bound]
        env = ", ".join(f"{quote(n)}={self.var(n)}" for n in names)
        desc = ", ".join(f"part({p.position}, {p.kind}, ({p.goal}), {p.info})" for p in parts)
        out.append(f"'$tl_rule'({index}, {htext}, [{desc}], [{env}]).")
        return out


def _dedupe(goals: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for g in goals:
        if g not in seen:
            seen.add(g)
            out.append(g)
    return out


def conjunction(goals: Iterable[str]) -> str:
    items = [g for g in goals if g and g != "true"]
    return ", ".join(items) if items else "true"


def _signature(node: Any) -> Sig:
    if node.ast_type == ASTType.SymbolicTerm:
        return (str(node.symbol.name), len(node.symbol.arguments))
    return (str(node.name), len(node.arguments))


def _body_atoms(statements: Iterable[Any]) -> set[Sig]:
    out: set[Sig] = set()
    for stm in statements:
        if stm.ast_type == ASTType.Defined:
            out.add((str(stm.name), int(stm.arity)))
        for node in _walk_atoms(stm):
            out.add(node)
    return out


def _walk_atoms(stm: Any) -> Iterable[Sig]:
    for n in walk(stm):
        if n.ast_type == ASTType.SymbolicAtom:
            t = n.symbol
            if t.ast_type == ASTType.Function and t.name:
                yield (str(t.name), len(t.arguments))
            elif t.ast_type == ASTType.SymbolicTerm and t.symbol.type == clingo.SymbolType.Function and t.symbol.name:
                yield (str(t.symbol.name), len(t.symbol.arguments))


def translate(statements: list[Any], files: list[str], flags: dict[tuple[str, int], frozenset[str]] | None = None,
              extra_inputs: Iterable[Sig] = ()) -> Translation:
    """Translate parsed statements (``files[i]`` names the file of statement ``i``; ``flags`` the
    annotation flags by (file, line)). Rule indices count the rules with a body in order, as
    :class:`~pyhelpers.program.RuleInfo` does. Raises :class:`LogicError` listing every construct
    outside the portable subset."""
    flags = flags or {}
    statements = mirror(statements)
    problems = check(statements, files, flags)
    if problems:
        raise LogicError("outside the portable subset:\n" + "\n".join(str(p) for p in problems))
    rules = [s for s in statements if s.ast_type == ASTType.Rule]
    clingo_only = {id(s) for s, f in zip(statements, files, strict=True)
                   if s.ast_type == ASTType.Rule and s.body
                   and clingo_only_reason(flags.get((f, s.location.begin.line), ())) is not None}
    derived: set[Sig] = set()
    for r in rules:
        if r.body or r.head.ast_type == ASTType.Aggregate:
            derived |= set(head_signatures(r))
    consts = {str(s.name): s.value for s in statements if s.ast_type == ASTType.Definition}
    inputs = (_body_atoms(statements) | set(extra_inputs)) - derived
    excluded = _excluded(statements, files, flags, clingo_only)

    lines = [":- encoding(utf8).", RUNTIME.read_text(encoding="utf-8"), "% ---- the rule base ----"]
    for name, arity in sorted(derived):
        lines.append(f":- table {quote(PREFIX + name)}/{arity}.")
        lines.append(f":- dynamic({quote(BRIDGE + name)}/{arity}).")
        lines.append(f":- multifile({quote(BRIDGE + name)}/{arity}).")
        lines.append(f"'$tl_derived'({quote(PREFIX + name)}, {arity}).")
        args = ", ".join(f"X{i}" for i in range(arity))
        call = f"({args})" if arity else ""
        lines.append(f"{quote(PREFIX + name)}{call} :- {quote(BRIDGE + name)}{call}.")
    choices = {_signature(r.head.elements[0].literal.atom.symbol) for r in rules
               if r.head.ast_type == ASTType.Aggregate and id(r) not in clingo_only}
    for name, arity in sorted(choices):
        lines.append(f":- table {quote(COMPLEMENT + name)}/{arity}.")
    for name, arity in sorted(inputs):
        lines.append(f":- dynamic({quote(PREFIX + name)}/{arity}).")
        lines.append(f":- multifile({quote(PREFIX + name)}/{arity}).")
    index = 0
    current_file = None
    tr = RuleTranslator(derived, consts, "")
    for stm, file in zip(statements, files, strict=True):
        if stm.ast_type != ASTType.Rule:
            continue
        if file != current_file:
            lines.append(f"% ---- {file}")
            current_file = file
        tr.where = file
        is_rule = bool(stm.body)
        if id(stm) in clingo_only:
            index += 1
            continue
        lines += tr.rule(stm, index if is_rule else None)
        if is_rule:
            index += 1
    text = "\n".join(lines) + "\n"
    return Translation(text, frozenset(derived), frozenset(inputs), excluded, bool(choices),
                       hashlib.sha256(text.encode("utf-8")).hexdigest())


def _excluded(statements: list[Any], files: list[str], flags: dict[tuple[str, int], frozenset[str]],
              clingo_only: set[int]) -> dict[Sig, str]:
    """Predicates derived by a clingo-only rule, and every predicate depending on one."""
    rules = [s for s in statements if s.ast_type == ASTType.Rule]
    reasons: dict[Sig, str] = {}
    for stm, file in zip(statements, files, strict=True):
        if id(stm) in clingo_only:
            reason = clingo_only_reason(flags.get((file, stm.location.begin.line), ())) or ""
            for h in head_signatures(stm):
                reasons.setdefault(h, f"clingo-only rule at {file}:{stm.location.begin.line}: {reason}")
    if not reasons:
        return {}
    users: dict[Sig, set[Sig]] = defaultdict(set)
    for head, deps in dependency_graph(rules).items():
        for d in deps:
            users[d].add(head)
    todo = list(reasons)
    while todo:
        s = todo.pop()
        for u in users.get(s, ()):
            if u not in reasons:
                reasons[u] = f"depends on {s[0]}/{s[1]} ({reasons[s]})"
                todo.append(u)
    return reasons


@lru_cache(maxsize=4)
def translate_logic(logic: Logic) -> Translation:
    """The Prolog program of the whole rule base (every treaty), built once per rule base."""
    flags = {(r.file, r.line): r.flags for r in logic.rules}
    inputs = {(p.name, p.arity) for p in logic.vocabulary.values() if p.role in ("input", "static")}
    return translate(logic.statements, logic.statement_files, flags, inputs)


def translate_text(text: str, name: str = "<text>") -> Translation:
    """Translate a program given as text (annotations ``%@ id | prov | flags`` are read too)."""
    statements: list[Any] = []
    try:
        ast.parse_string(text, statements.append, logger=lambda code, msg: None)
    except RuntimeError as err:
        raise LogicError(f"{name}: does not parse: {err}") from None
    flags = {(name, line): note[2] for line, note in _annotations(text).items()}
    return translate(statements, [name] * len(statements), flags)
