"""Rule instrumentation for explanations (built once per rule base, used only on demand).

Every annotated rule ``H :- B.`` with index ``N`` and global variables ``V1..Vk`` becomes

    _fired(N, (V1, ..., Vk)) :- B.
    H :- _fired(N, (V1, ..., Vk)).

and every body aggregate element ``T : C`` at body position ``P``, element ``E``, gets

    _agg(N, (V1, ..., Vk), P, E, (T), (L1, ..., Lm)) :- _fired(N, (V1, ..., Vk)), C.

with ``L1..Lm`` the element's local variables. The answer set then records which rule fired with
which bindings; :mod:`pyhelpers.explain` rebuilds the derivations from it. The instrumented program
has the same answer sets as the plain one on the original atoms (a test checks this on every scenario).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, Generic, Protocol, TypeVar

import clingo
from clingo import ast
from clingo.ast import ASTType

from pyhelpers.base.errors import LogicError
from pyhelpers.engine.program import Logic, RuleInfo
from pyhelpers.engine.provenance import VariableCollector
from pyhelpers.engine.reach import AbstractFacts
from pyhelpers.engine.slicing import Sliced

FIRED = "_fired"
AGG = "_agg"
_POS = ast.Position("<instrumentation>", 0, 0)
LOC = ast.Location(_POS, _POS)


T = TypeVar("T")


class NodeCache(Generic[T]):
    """A value computed once per AST node object. clingo's AST attributes go through CFFI, so plans
    keep their nodes and look derived values up here; the node is kept beside its value so its id is
    never reused, and the cache is emptied past a bound (why-not passes transient nodes too)."""

    def __init__(self, compute: Callable[[Any], T], bound: int = 50_000) -> None:
        self.compute = compute
        self.bound = bound
        self.entries: dict[int, tuple[T, Any]] = {}

    def __call__(self, node: Any) -> T:
        hit = self.entries.get(id(node))
        if hit is None or hit[1] is not node:
            if len(self.entries) > self.bound:
                self.entries.clear()
            hit = self.entries[id(node)] = (self.compute(node), node)
        return hit[0]


def _collect_variables(node: Any) -> list[str]:
    v = VariableCollector()
    v(node)
    return v.names


_variables = NodeCache(_collect_variables)


def variables(node: Any) -> list[str]:
    """Named variables of an AST node, in order of first occurrence (``_`` excluded); cached per node."""
    return list(_variables(node))


@dataclass(frozen=True)
class BodyPart:
    """One body literal of a rule, classified."""

    kind: str  # pos | neg | cmp | agg
    node: Any  # the Literal AST
    position: int
    atom: Any = None  # the literal's atom (symbol term for pos/neg), kept so caches keyed by it hold
    elements: tuple[tuple[Any, tuple[Any, ...], tuple[str, ...]], ...] = ()  # aggregates: (element, positive
    # condition atoms, variables)


@dataclass(frozen=True)
class RulePlan:
    """What the explainer needs about one rule."""

    info: RuleInfo
    head: Any  # the head atom's term AST (a Function)
    body: tuple[BodyPart, ...]
    gvars: tuple[str, ...]
    var_types: dict[str, str]

    @property
    def head_name(self) -> str:
        return str(self.head.name)

    @property
    def head_arity(self) -> int:
        return len(self.head.arguments)


def _classify(lit: Any, pos: int) -> BodyPart:
    if lit.ast_type != ASTType.Literal:
        raise LogicError(f"unsupported body element (outside the portable subset): {lit}")
    atom = lit.atom
    if atom.ast_type == ASTType.BodyAggregate:
        elements = tuple(
            (el, tuple(c.atom.symbol for c in el.condition if c.ast_type == ASTType.Literal
                       and c.sign == ast.Sign.NoSign and c.atom.ast_type == ASTType.SymbolicAtom),
             tuple(variables(el)))
            for el in atom.elements
        )
        return BodyPart("agg", lit, pos, atom, elements)
    if atom.ast_type == ASTType.Comparison:
        return BodyPart("cmp", lit, pos, atom)
    if atom.ast_type == ASTType.SymbolicAtom:
        return BodyPart("pos" if lit.sign == ast.Sign.NoSign else "neg", lit, pos, atom.symbol)
    raise LogicError(f"unsupported body literal (outside the portable subset): {lit}")


def _global_vars(body: list[BodyPart]) -> list[str]:
    names: list[str] = []
    for part in body:
        if part.kind == "agg":
            agg = part.node.atom
            for guard in (agg.left_guard, agg.right_guard):
                if guard is not None:
                    names += [n for n in variables(guard.term) if n not in names]
        else:
            names += [n for n in variables(part.node) if n not in names]
    return names


def _types_from_atom(term: Any, logic: Logic, out: dict[str, str]) -> None:
    if term.ast_type != ASTType.Function:
        return
    pred = logic.predicate(term.name, len(term.arguments))
    if pred is None:
        return
    for arg, spec in zip(term.arguments, pred.args, strict=True):
        if arg.ast_type == ASTType.Variable and arg.name != "_":
            out.setdefault(arg.name, spec.type)


def _plan(rule: Any, info: RuleInfo, logic: Logic) -> RulePlan:
    head = rule.head
    if head.ast_type != ASTType.Literal or head.atom.ast_type != ASTType.SymbolicAtom:
        raise LogicError(f"{info.file}:{info.line}: only normal rules are supported (found {head})")
    body = [_classify(lit, i) for i, lit in enumerate(rule.body)]
    var_types: dict[str, str] = {}
    _types_from_atom(head.atom.symbol, logic, var_types)
    for part in body:
        if part.kind in ("pos", "neg"):
            _types_from_atom(part.node.atom.symbol, logic, var_types)
        elif part.kind == "agg":
            for el in part.node.atom.elements:
                for c in el.condition:
                    if c.ast_type == ASTType.Literal and c.atom.ast_type == ASTType.SymbolicAtom:
                        _types_from_atom(c.atom.symbol, logic, var_types)
    for part in body:  # V = #min { T : ... }: V is a value of T's (a #count is a number)
        agg = part.node.atom if part.kind == "agg" else None
        if agg is None or agg.function == ast.AggregateFunction.Count:
            continue
        found = {var_types.get(el.terms[0].name, "") if el.terms and el.terms[0].ast_type == ASTType.Variable else ""
                 for el in agg.elements}
        if len(found) != 1 or "" in found:
            continue
        for guard in (agg.left_guard, agg.right_guard):
            if guard is not None and guard.comparison == ast.ComparisonOperator.Equal and \
                    guard.term.ast_type == ASTType.Variable:
                var_types.setdefault(guard.term.name, next(iter(found)))
    return RulePlan(info, head.atom.symbol, tuple(body), tuple(_global_vars(body)), var_types)


def _atom(name: str, args: list[Any]) -> Any:
    return ast.Literal(LOC, ast.Sign.NoSign, ast.SymbolicAtom(ast.Function(LOC, name, args, 0)))


def _tuple(names: list[str] | tuple[str, ...]) -> Any:
    return ast.Function(LOC, "", [ast.Variable(LOC, n) for n in names], 0)


def _num(i: int) -> Any:
    return ast.SymbolicTerm(LOC, clingo.Number(i))


@dataclass(frozen=True)
class Instrumented:
    """The instrumented program text and the plan of every rule, by rule index."""

    program: str
    plans: dict[int, RulePlan]

    @cached_property
    def sliced(self) -> Sliced:
        """The program as :class:`Sliced`: kept parsed once it is used again."""
        return Sliced(self.program)

    def rules_for(self, name: str, arity: int) -> list[RulePlan]:
        return [p for p in self.plans.values() if p.head_name == name and p.head_arity == arity]


class RuleSource(Protocol):
    """Where why-not finds the rules that could derive an atom."""

    def rules_for(self, name: str, arity: int) -> list[RulePlan]: ...


@lru_cache(maxsize=64)
def instrument(logic: Logic, treaty: str | None = None, present: frozenset[str] | None = None,
               versions: tuple[str, ...] = ()) -> Instrumented:
    """Instrument the annotated rules of ``logic``: all, or those of core and ``treaty`` (in the version
    ``versions``, see :meth:`Logic.versions_on`) that can fire given the input predicates ``present``
    (see :meth:`Logic.reachable`)."""
    return _instrument(logic, logic.reachable(treaty, present, versions), treaty is not None)


@lru_cache(maxsize=64)
def instrument_for_facts(logic: Logic, treaty: str, facts: AbstractFacts,
                         versions: tuple[str, ...] = ()) -> Instrumented:
    """:func:`instrument` for the rules that can fire on the abstract facts ``facts`` (see
    :meth:`Logic.program_for_facts`): the explanation of a scenario grounds only those."""
    return _instrument(logic, logic.reach.reachable(logic.chosen(treaty, versions), facts), True)


def _instrument(logic: Logic, kept: frozenset[int], defined: bool) -> Instrumented:
    out: list[str] = logic.defined_directives() if defined else []
    plans: dict[int, RulePlan] = {}
    infos = iter(logic.rules)
    for index, stm in enumerate(logic.statements):
        keep = index in kept
        if stm.ast_type != ASTType.Rule or not stm.body:
            if keep and stm.ast_type != ASTType.Comment:
                out.append(str(stm))
            continue
        info = next(infos)
        if not keep:
            continue
        plan = _plan(stm, info, logic)
        plans[info.index] = plan
        fired = _atom(FIRED, [_num(info.index), _tuple(plan.gvars)])
        out.append(str(ast.Rule(stm.location, fired, stm.body)))
        out.append(str(ast.Rule(stm.location, stm.head, [fired])))
        for part in plan.body:
            if part.kind != "agg":
                continue
            for ei, el in enumerate(part.node.atom.elements):
                local = [n for n in variables(el) if n not in plan.gvars]
                head = _atom(AGG, [_num(info.index), _tuple(plan.gvars), _num(part.position), _num(ei),
                                   ast.Function(LOC, "", list(el.terms), 0), _tuple(local)])
                out.append(str(ast.Rule(LOC, head, [fired, *el.condition])))
    return Instrumented("\n".join(out), plans)


class RulePlans:
    """The plans of the annotated rules of core and a treaty, built on demand by head predicate: why-not
    over rules that could not fire, without instrumenting the whole rule base (:func:`instrument`)."""

    def __init__(self, logic: Logic, treaty: str | None, versions: tuple[str, ...] = ()) -> None:
        self.logic = logic
        kept = logic.reachable(treaty, None, versions)
        self._by_head: dict[tuple[str, int], list[tuple[Any, RuleInfo]]] = {}
        infos = iter(logic.rules)
        for index, stm in enumerate(logic.statements):
            if stm.ast_type != ASTType.Rule or not stm.body:
                continue
            info = next(infos)
            if index not in kept:
                continue
            head = stm.head
            if head.ast_type != ASTType.Literal or head.atom.ast_type != ASTType.SymbolicAtom:
                continue
            sym = head.atom.symbol
            if sym.ast_type != ASTType.Function:
                continue
            self._by_head.setdefault((sym.name, len(sym.arguments)), []).append((stm, info))
        self._plans: dict[tuple[str, int], list[RulePlan]] = {}

    def rules_for(self, name: str, arity: int) -> list[RulePlan]:
        key = (name, arity)
        if key not in self._plans:
            self._plans[key] = [_plan(stm, info, self.logic) for stm, info in self._by_head.get(key, [])]
        return self._plans[key]


@lru_cache(maxsize=16)
def rule_plans(logic: Logic, treaty: str | None, versions: tuple[str, ...] = ()) -> RulePlans:
    return RulePlans(logic, treaty, versions)
