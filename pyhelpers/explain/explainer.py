"""Explanations on demand: derivation trees ("why") and failed conditions ("why not").

An explanation solves the *instrumented* program (:mod:`pyhelpers.instrument`) for one scenario and
rebuilds, for each conclusion, the rule that derived it with its bindings and the facts, tests,
negations and aggregates it used, down to the scenario's facts. Every step carries the rule id, the
provision and the reading sentence in the chosen language.

Why-not takes a goal in the query syntax (``max_rate("div-2024", 1000)``): if it does not hold, it
lists the rules that could derive it and, for each, the best partial grounding with the conditions
that failed — recursing into failed conditions that other rules could have derived.
"""

from __future__ import annotations

import dataclasses
import operator
import re
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import clingo
from clingo import ast
from clingo.ast import ASTType

from pyhelpers.base import formats
from pyhelpers.base.terms import symbol_signatures
from pyhelpers.engine.program import Logic
from pyhelpers.engine.provenance import RECONSTRUCTED
from pyhelpers.engine.query import Query
from pyhelpers.engine.solve import Checker, run_clingo
from pyhelpers.explain.instrument import (
    AGG,
    FIRED,
    LOC,
    BodyPart,
    Instrumented,
    NodeCache,
    RulePlan,
    RuleSource,
    instrument,
    instrument_for_facts,
    variables,
)
from pyhelpers.explain.readings import (
    _CHOICE_NAMES,
    _PLACEHOLDER,
    fill,
    plain,
    reading,
    render_value,
    unbound_words,
    user_atom,
    word,
)
from pyhelpers.scenario import Scenario
from pyhelpers.scenario.catalogue import catalogue
from pyhelpers.scenario.factpaths import fact_path

Env = dict[str, clingo.Symbol]

def _div(a: int, b: int) -> int:
    """clingo's integer division: truncates toward zero (-7/2 = -3)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _mod(a: int, b: int) -> int:
    """clingo's remainder, with the sign of the dividend (-7\\2 = -1)."""
    return a - b * _div(a, b)


_BIN: dict[Any, Callable[[int, int], int]] = {
    ast.BinaryOperator.Plus: operator.add,
    ast.BinaryOperator.Minus: operator.sub,
    ast.BinaryOperator.Multiplication: operator.mul,
    ast.BinaryOperator.Division: _div,
    ast.BinaryOperator.Modulo: _mod,
}
COMPARISONS: dict[Any, tuple[Callable[[Any, Any], bool], str]] = {
    ast.ComparisonOperator.Equal: (operator.eq, "="),
    ast.ComparisonOperator.NotEqual: (operator.ne, "≠"),
    ast.ComparisonOperator.LessThan: (operator.lt, "<"),
    ast.ComparisonOperator.LessEqual: (operator.le, "≤"),
    ast.ComparisonOperator.GreaterThan: (operator.gt, ">"),
    ast.ComparisonOperator.GreaterEqual: (operator.ge, "≥"),
}
AGGREGATE_NAMES = {
    ast.AggregateFunction.Count: "count",
    ast.AggregateFunction.Sum: "sum",
    ast.AggregateFunction.SumPlus: "sum+",
    ast.AggregateFunction.Min: "min",
    ast.AggregateFunction.Max: "max",
}
_NEGATE = {
    ast.ComparisonOperator.LessThan: ast.ComparisonOperator.GreaterEqual,
    ast.ComparisonOperator.GreaterEqual: ast.ComparisonOperator.LessThan,
    ast.ComparisonOperator.GreaterThan: ast.ComparisonOperator.LessEqual,
    ast.ComparisonOperator.LessEqual: ast.ComparisonOperator.GreaterThan,
    ast.ComparisonOperator.Equal: ast.ComparisonOperator.NotEqual,
    ast.ComparisonOperator.NotEqual: ast.ComparisonOperator.Equal,
}
"""A comparison that fails: the one that holds instead."""
_PLAIN = (ASTType.Variable, ASTType.SymbolicTerm)
_FLIP = {
    ast.ComparisonOperator.LessThan: ast.ComparisonOperator.GreaterThan,
    ast.ComparisonOperator.GreaterThan: ast.ComparisonOperator.LessThan,
    ast.ComparisonOperator.LessEqual: ast.ComparisonOperator.GreaterEqual,
    ast.ComparisonOperator.GreaterEqual: ast.ComparisonOperator.LessEqual,
    ast.ComparisonOperator.Equal: ast.ComparisonOperator.Equal,
    ast.ComparisonOperator.NotEqual: ast.ComparisonOperator.NotEqual,
}


class Unbound(Exception):
    """A term still has an unbound variable."""


def compare(cmp: Any, env: Env) -> tuple[bool, Env]:
    """Whether a comparison holds under ``env``; an assignment ``X = expr`` with ``X`` unbound binds it.
    Returns the (possibly extended) bindings; a comparison that cannot be evaluated does not hold."""
    guards = list(cmp.guards)
    if (len(guards) == 1 and guards[0].comparison == ast.ComparisonOperator.Equal
            and cmp.term.ast_type == ASTType.Variable and cmp.term.name not in env):
        try:
            return True, {**env, cmp.term.name: evaluate(guards[0].term, env)}
        except Unbound:
            return False, env
    prev = cmp.term
    try:
        for g in guards:
            if not COMPARISONS[g.comparison][0](evaluate(prev, env), evaluate(g.term, env)):
                return False, env
            prev = g.term
    except Unbound:
        return False, env
    return True, env


Evaluator = Callable[[Env], clingo.Symbol]


def _compile(node: Any) -> Evaluator:
    """A closure computing the term's value: AST attribute access goes through CFFI, so it is done
    once per rule here rather than once per firing."""
    t = node.ast_type
    if t == ASTType.Variable:
        name = node.name

        def var(env: Env) -> clingo.Symbol:
            try:
                return env[name]
            except KeyError:
                raise Unbound(name) from None

        return var
    if t == ASTType.SymbolicTerm:
        sym: clingo.Symbol = node.symbol
        return lambda env: sym
    if t == ASTType.Function:
        fname = node.name
        args = [_compile(a) for a in node.arguments]
        if fname == "":
            return lambda env: clingo.Tuple_([a(env) for a in args])
        return lambda env: clingo.Function(fname, [a(env) for a in args])
    if t == ASTType.BinaryOperation:
        op = _BIN[node.operator_type]
        left, right = _compile(node.left), _compile(node.right)
        return lambda env: clingo.Number(op(left(env).number, right(env).number))
    if t == ASTType.UnaryOperation:
        arg = _compile(node.argument)
        return lambda env: clingo.Number(-arg(env).number)
    text = str(node)

    def unsupported(env: Env) -> clingo.Symbol:
        raise Unbound(text)

    return unsupported


_compiled = NodeCache(_compile)


def evaluate(node: Any, env: Env) -> clingo.Symbol:
    """The value of a term AST under ``env`` (raises :class:`Unbound`)."""
    return _compiled(node)(env)


Matcher = Callable[[clingo.Symbol, Env], "Env | None"]


def _compile_matcher(node: Any) -> Matcher:
    """``node`` (a term AST) as a function extending an environment so that it equals a symbol: the AST read
    once (each attribute of a clingo AST is a call through CFFI), the symbol's name and arity tested by one
    call (``Symbol.match``)."""
    t = node.ast_type
    if t == ASTType.Variable:
        name = node.name
        if name == "_":
            return lambda sym, env: env

        def variable(sym: clingo.Symbol, env: Env) -> Env | None:
            bound = env.get(name)
            if bound is None:
                return {**env, name: sym}
            return env if bound == sym else None

        return variable
    if t == ASTType.SymbolicTerm:
        symbol = node.symbol
        return lambda sym, env: env if symbol == sym else None
    if t == ASTType.Function:
        fname = node.name
        parts = tuple(_compile_matcher(a) for a in node.arguments)
        arity = len(parts)

        def function(sym: clingo.Symbol, env: Env) -> Env | None:
            if not sym.match(fname, arity):  # a function symbol of this name and arity (one call)
                return None
            return _unify_arguments(parts, sym.arguments, env)

        return function

    def other(sym: clingo.Symbol, env: Env) -> Env | None:
        try:
            return env if evaluate(node, env) == sym else None
        except Unbound:
            return None

    return other


_matchers = NodeCache(_compile_matcher)


def unify(node: Any, sym: clingo.Symbol, env: Env) -> Env | None:
    """Extend ``env`` so that ``node`` equals ``sym``, or None."""
    return _matchers(node)(sym, env)


_signatures = NodeCache(lambda node: (str(node.name), len(node.arguments)))
"""An atom pattern's predicate: its name and arity."""
_argument_matchers = NodeCache(lambda node: tuple(_compile_matcher(a) for a in node.arguments))
"""An atom pattern's arguments, each as :func:`_compile_matcher` makes it."""


def _unify_arguments(parts: tuple[Matcher, ...], args: list[clingo.Symbol], env: Env) -> Env | None:
    """:func:`unify` of an atom pattern (its arguments' matchers ``parts``) with an atom of its predicate
    (its arguments ``args``)."""
    out = env
    for part, s in zip(parts, args, strict=True):
        nxt = part(s, out)
        if nxt is None:
            return None
        out = nxt
    return out


def _bound(node: Any, env: Env) -> bool:
    return all(v in env for v in variables(node))


def number_literal(term: Any) -> bool:
    """A bare number in a rule (``0`` in ``D > 0``), not a figure read from a cited fact."""
    return bool(term.ast_type == ASTType.SymbolicTerm and term.symbol.type == clingo.SymbolType.Number)


_COUNTED = re.compile(r"(?P<n>\d+) (?P<unit>\S+) (?P<op>[<>≤≥]) (?P<bound>.+)")
"""A failed comparison of a count against a bound, as said ("182 days < 50% of 365 days")."""


def _nearest(found: list[tuple[list[str], Env]]) -> list[tuple[list[str], Env]]:
    """Of the instances of a rule that each fail on one count against the same bound (the days of each candidate
    twelve-month period against half of it), the one nearest to meeting it, the decisive figure (the first of them
    where several are as near); every instance otherwise."""
    said = [_COUNTED.fullmatch(texts[0]) if len(texts) == 1 else None for texts, _env in found]
    forms = {(m.group("unit"), m.group("op"), m.group("bound")) if m is not None else None for m in said}
    if len(forms) != 1 or None in forms:
        return found
    counts = [int(m.group("n")) for m in said if m is not None]
    best = max(counts) if any(m is not None and m.group("op") in "<≤" for m in said) else min(counts)
    return [found[counts.index(best)]]


def _ground(node: Any, env: Env) -> clingo.Symbol | None:
    """``node`` under ``env``, or None where a variable of it is not bound."""
    try:
        return evaluate(node, env) if _bound(node, env) else None
    except Unbound:
        return None


class _AnonymousFinder(ast.Transformer):
    def __init__(self) -> None:
        self.found = False

    def visit_Variable(self, n: Any) -> Any:
        self.found = self.found or n.name == "_"
        return n


def _find_anonymous(node: Any) -> bool:
    finder = _AnonymousFinder()
    finder(node)
    return finder.found


_has_anonymous = NodeCache(_find_anonymous)


@dataclass
class Step:
    """One step of a derivation or of a why-not analysis."""

    kind: str  # derived | given | static | not | test | aggregate | ref | failed | unknown
    atom: str
    reading: str
    rule_id: str | None = None
    provision: str | None = None
    location: str | None = None
    flags: tuple[str, ...] = ()
    note: str | None = None
    children: list[Step] = field(default_factory=list)
    held: str | None = None  # a failed test: the comparison that holds instead, with its figures
    between_terms: bool = False  # a failed test between States, ids or terms (``held`` has no figure)
    held_atoms: tuple[clingo.Symbol, ...] = ()  # a failed rule: the positive conditions its best attempt met
    none: str | None = None  # a condition no fact matches: the fact that holds instead (:meth:`Explainer._none`)
    ground: clingo.Symbol | None = None  # a condition (or a failed rule's head) that failed, its arguments all bound
    subject: tuple[str, str, str, str] | None = None
    """A failed test of a variable a positive condition of its rule binds: that condition's reading, the variable's
    value as the reading shows it, and what the rule requires of it (its operator and the other side's value), so
    that the failure is said of the fact it is about ("held from 2025-03-16 (required: on or before 2025-03-15)"),
    never by the reading of the condition the test would have met (:meth:`Explainer._failed_subject`)."""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "atom": self.atom, "reading": self.reading}
        for key in ("rule_id", "provision", "location", "note"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        if self.flags:
            data["flags"] = list(self.flags)
        if self.children:
            data["children"] = [c.to_dict() for c in self.children]
        return data

    def walk(self) -> Iterator[Step]:
        yield self
        for c in self.children:
            yield from c.walk()


class _Ordered:
    """A symbol compared as clingo compares it, only when the sort needs it (each comparison is a call
    into clingo)."""

    __slots__ = ("symbol",)

    def __init__(self, symbol: clingo.Symbol) -> None:
        self.symbol = symbol

    def __lt__(self, other: _Ordered) -> bool:
        return bool(self.symbol < other.symbol)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Ordered) and self.symbol == other.symbol

    __hash__ = None  # type: ignore[assignment]


@dataclass
class _Support:
    """A rule instance that derives an atom: its positive body atoms (``pos``), negated atoms, tests and,
    per aggregate, the positive condition atoms of each element instance whose condition holds. A
    positive atom with an anonymous variable (``p(X, _)``) is any of the true atoms it matches:
    ``pos_options`` and ``agg_options`` list them, and :meth:`Explainer._levels` picks one."""

    plan: RulePlan
    env: Env
    pos: list[clingo.Symbol]
    neg: list[clingo.Symbol]
    tests: list[BodyPart]
    aggs: list[tuple[BodyPart, list[list[clingo.Symbol]]]]
    pos_options: list[tuple[clingo.Symbol, ...]] = field(default_factory=list)
    agg_options: list[list[list[tuple[clingo.Symbol, ...]]]] = field(default_factory=list)

    @property
    def reconstructed(self) -> bool:
        return RECONSTRUCTED in self.plan.info.flags

    def premises(self) -> Iterator[tuple[clingo.Symbol, ...]]:
        """The options of each premise the explanation derives: positive body and aggregate condition atoms."""
        yield from self.pos_options
        for elements in self.agg_options:
            for element in elements:
                yield from element

    def choosing(self, ok: Callable[[clingo.Symbol], bool]) -> _Support | None:
        """This support with, for each premise, its first option that is ``ok``; None if some has none."""
        def pick(options: tuple[clingo.Symbol, ...]) -> clingo.Symbol | None:
            return next((a for a in options if ok(a)), None)

        pos = [pick(o) for o in self.pos_options]
        aggs = [(part, [[pick(o) for o in element] for element in elements])
                for (part, _), elements in zip(self.aggs, self.agg_options, strict=True)]
        if any(a is None for a in pos) or any(a is None for _, els in aggs for el in els for a in el):
            return None
        return dataclasses.replace(self, pos=pos, aggs=aggs)  # type: ignore[arg-type]


def _number(value: int | None) -> clingo.Symbol | None:
    return clingo.Number(value) if value is not None else None


_DAY_TYPES = frozenset({"date"})
"""The types whose difference is a number of days (``D - F``), not a value of the type."""


def term_type(node: Any, plan: RulePlan) -> str:
    """The vocabulary type of a term of a comparison or an aggregate: a variable's own (``int`` where the rule's
    atoms do not type it); of arithmetic, the type of its figure (a date moved by days, ``D + 30``, is a date; the
    difference of two dates, ``D - F``, is a number of days, ``days``; a share times a number is a share)."""
    t = node.ast_type
    if t == ASTType.Variable:
        return plan.var_types.get(node.name, "int")
    if t == ASTType.UnaryOperation:
        return term_type(node.argument, plan)
    if t == ASTType.BinaryOperation:
        left, right = term_type(node.left, plan), term_type(node.right, plan)
        if node.operator_type == ast.BinaryOperator.Minus and left == right and left in _DAY_TYPES:
            return "days"
        return next((x for x in (left, right) if x not in ("int", "id")), "int")
    return "int"


SHARE_WHOLE = {"bp": 10_000, "units": 100_000_000}
"""The share types and the value of a whole (100%) in each."""


def _factors(node: Any) -> list[Any]:
    """The factors of a product (``N * Sc`` → ``N``, ``Sc``); a term that is no product is its own factor."""
    if node.ast_type == ASTType.BinaryOperation and node.operator_type == ast.BinaryOperator.Multiplication:
        return [*_factors(node.left), *_factors(node.right)]
    return [node]


def _proportion(cmp: Any, plan: RulePlan) -> bool:
    """A comparison of two products that each scale a figure by a share: a proportion tested by cross-multiplying
    (``N * Sc >= Len * H``: N days out of Len at least the share H, Sc the whole; ``R * U < L * D``: a rate R below
    the share L of a rate D). Its product is no figure of either type (``18300%``): each side is shown by its
    factors (:meth:`Explainer._proportion_side`)."""
    guards = list(cmp.guards)
    if len(guards) != 1:
        return False
    return all(len(factors) > 1 and any(term_type(f, plan) in SHARE_WHOLE for f in factors)
               for factors in (_factors(cmp.term), _factors(guards[0].term)))


def _scaled(agg: Any, plan: RulePlan) -> tuple[str, int] | None:
    """A sum whose every weight scales a figure by a whole share (``#sum { D * Sc, F : ... }``, Sc 100%) and that
    a guard compares with a proportion (``Len * H <= #sum {...}``: D days out of Len at least the share H, tested by
    cross-multiplying as :func:`_proportion` does): the figure's type and the whole (the figure summed is the sum
    divided by it), else None."""
    if agg.function not in (ast.AggregateFunction.Sum, ast.AggregateFunction.SumPlus) or not agg.elements:
        return None
    guards = [g.term for g in (agg.left_guard, agg.right_guard) if g is not None]
    if not guards or not all(len(fs) > 1 and any(term_type(f, plan) in SHARE_WHOLE for f in fs)
                             for fs in map(_factors, guards)):
        return None
    types: set[tuple[str, int]] = set()
    for el in agg.elements:
        factors = _factors(el.terms[0]) if el.terms else []
        wholes = [f for f in factors if term_type(f, plan) in SHARE_WHOLE]
        if len(factors) != 2 or len(wholes) != 1:
            return None
        types.update((term_type(f, plan), SHARE_WHOLE[term_type(wholes[0], plan)]) for f in factors
                     if f is not wholes[0])
    return next(iter(types)) if len(types) == 1 else None


def _aggregate_type(agg: Any, plan: RulePlan, named: Any = None) -> str:
    """The vocabulary type an aggregate's value is shown by: that of the variable its guard names (``R =
    #min {...}``, ``named``) or compares it with (``L < #sum {...}``) where it is a share, a date or another
    figure with a form of its own (``#min = 10%``, never ``#min = 1000``); else, but for a count, that of the
    elements' terms it takes its value from (``F = #min { F1 : ... }`` with ``F1`` a date); ``int`` otherwise."""
    terms = [named] if named is not None else [g.term for g in (agg.left_guard, agg.right_guard) if g is not None]
    if agg.function != ast.AggregateFunction.Count:
        terms += [el.terms[0] for el in agg.elements if el.terms]
    return next((t for t in (term_type(term, plan) for term in terms) if t not in ("int", "id")), "int")


_ORDER = {"pos": 0, "agg": 1, "cmp": 2, "neg": 3}


def _search_order(plan: RulePlan) -> list[BodyPart]:
    """A rule's body in the order why-not grounds it: positive atoms first (they bind), then aggregates,
    comparisons and negations, each kind in the rule's order."""
    return sorted(plan.body, key=lambda p: (_ORDER[p.kind], p.position))


def _rule_provision(plan: RulePlan, env: Env) -> str | None:
    var = plan.info.dynamic_provision
    if var is not None:
        value = env.get(var)
        return str(value.string) if value is not None and value.type == clingo.SymbolType.String else None
    return None if plan.info.provision == "(core)" else plan.info.provision


class _Lazy(dict[clingo.Symbol, Any]):
    """A mapping of atoms an explainer fills on demand (:meth:`Explainer._fill`) when one is looked up."""

    def __init__(self, fill: Callable[[clingo.Symbol], None]) -> None:
        super().__init__()
        self._fill = fill

    def get(self, key: clingo.Symbol, default: Any = None) -> Any:
        self._fill(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        if isinstance(key, clingo.Symbol):
            self._fill(key)
        return super().__contains__(key)

    def __getitem__(self, key: clingo.Symbol) -> Any:
        self._fill(key)
        return super().__getitem__(key)


class _ByPredicate(Mapping[tuple[str, int], list[clingo.Symbol]]):
    """:attr:`Explainer.index`: the true atoms by predicate, each list put in clingo's order when it is read."""

    def __init__(self, ex: Explainer) -> None:
        self._ex = ex

    def __getitem__(self, key: tuple[str, int]) -> list[clingo.Symbol]:
        if key not in self._ex._index:
            raise KeyError(key)
        return self._ex._atoms(key)

    def __iter__(self) -> Iterator[tuple[str, int]]:
        return iter(list(self._ex._index))

    def __len__(self) -> int:
        return len(self._ex._index)


class Explainer:
    """Derivations and why-not for one solved, instrumented scenario."""

    def __init__(self, logic: Logic, symbols: list[clingo.Symbol], lang: str = "en",
                 instrumented: Instrumented | None = None, lazy: bool = False) -> None:
        """``lazy``: each atom's supports and justification found when first asked for (:meth:`_fill`), with those of
        every atom its derivations rest on: the same choices as found for every atom at once, for the atoms an
        argument reaches only (a State's outcome in a scenario whose other conclusions take tens of thousands of rule
        firings: an ownership ladder's share added digit by digit); ``supports`` and ``just`` then hold the atoms
        asked for and those below them."""
        self.logic = logic
        self.lang = lang
        self.scenario: Scenario | None = None
        """The scenario the facts come from, where known (:func:`explain_scenario`): a field of an income item is then
        named by the item's index, as `treaty check` names it (``income[0].pension.past_employment``)."""
        self.instr = instrumented or instrument(logic)
        self.rule_source: RuleSource = self.instr  # why-not's rules: those that can fire, unless replaced
        self.true: set[clingo.Symbol] = set()
        self._index: dict[tuple[str, int], list[clingo.Symbol]] = defaultdict(list)
        self._sorted: set[tuple[str, int]] = set()
        self._split: dict[tuple[str, int], list[tuple[clingo.Symbol, list[clingo.Symbol]]]] = {}
        fired: list[tuple[int, _Ordered, clingo.Symbol]] = []
        self.agg_rows: dict[tuple[int, clingo.Symbol, int], list[tuple[int, clingo.Symbol]]] = defaultdict(list)
        for s, signature in zip(symbols, symbol_signatures(symbols), strict=True):  # names read through clingo's C
            name = signature[0]
            if name == FIRED:
                rid, binding = s.arguments
                fired.append((rid.number, _Ordered(binding), binding))
            elif name == AGG:
                rid, g, pos, ei, _terms, loc = s.arguments
                self.agg_rows[(rid.number, g, pos.number)].append((ei.number, loc))
            else:
                self.true.add(s)
                self._index[signature].append(s)
        self.supports: dict[clingo.Symbol, list[_Support]] = defaultdict(list)
        self._rank: dict[clingo.Symbol, int] = {}  # the order in which atoms were justified (facts first)
        self._clean: set[clingo.Symbol] = set()  # the atoms justified in the clean passes (facts included)
        self._reconstructed: dict[clingo.Symbol, frozenset[str | None]] = {}
        # lazy: the firings by head, in clingo's order (each head's first firing: its key), found per predicate
        self._firings: dict[clingo.Symbol, list[tuple[tuple[int, _Ordered], RulePlan, clingo.Symbol, Env]]] = {}
        self._filled: set[clingo.Symbol] = set()  # lazy: the atoms whose supports are found
        self._facts: set[clingo.Symbol] = set()  # lazy: the premises of theirs no rule derived
        self._fired_by: dict[tuple[str, int], list[tuple[int, _Ordered, clingo.Symbol]]] = defaultdict(list)
        if lazy:
            keys: dict[int, tuple[str, int]] = {}  # each rule's head predicate, read from its AST once
            for f in fired:
                key = keys.get(f[0])
                if key is None:
                    head = self.instr.plans[f[0]].head
                    key = keys[f[0]] = (head.name, len(head.arguments))
                self._fired_by[key].append(f)
            self.supports = _Lazy(self._fill)
            self.just: dict[clingo.Symbol, _Support] = _Lazy(self._fill)
            return
        fired.sort(key=lambda f: (f[0], f[1]))  # clingo's order of the _fired atoms, comparing few symbols
        for number, _ordered, binding in fired:
            plan = self.instr.plans[number]
            env = dict(zip(plan.gvars, binding.arguments, strict=True))
            sup = self._support(plan, binding, env)
            self.supports[evaluate(plan.head, env)].append(sup)
        self.just = self._levels()

    def _derived_by_rules(self, atom: clingo.Symbol) -> bool:
        """Lazy: whether a rule fired for ``atom`` (the firings of its predicate's rules read by head first)."""
        key = (atom.name, len(atom.arguments))
        found = self._fired_by.pop(key, None)
        if found is not None:
            found.sort(key=lambda f: (f[0], f[1]))
            for number, ordered, binding in found:
                plan = self.instr.plans[number]
                env = dict(zip(plan.gvars, binding.arguments, strict=True))
                self._firings.setdefault(evaluate(plan.head, env), []).append(((number, ordered), plan, binding, env))
        return atom in self._firings

    def _fill(self, atom: clingo.Symbol) -> None:
        """Lazy: the supports of ``atom`` and of every atom they rest on (each option of each premise), then the
        justifications of them all, chosen as :meth:`_levels` chooses them over every atom (the atoms filled are closed
        under premises: their choices and the order of their ranks do not depend on the others)."""
        if atom in self._filled or not self._derived_by_rules(atom):
            return
        queue = [atom]
        facts: set[clingo.Symbol] = set()
        while queue:
            a = queue.pop()
            if a in self._filled:
                continue
            if not self._derived_by_rules(a):
                facts.add(a)
                continue
            self._filled.add(a)
            sups = [self._support(plan, g, env) for _key, plan, g, env in self._firings[a]]
            dict.__setitem__(self.supports, a, sups)
            for sup in sups:
                for options in sup.premises():
                    queue.extend(options)
        self._facts |= facts
        self._rank.clear()
        self._clean.clear()
        just = self._levels(sorted(self._filled, key=lambda a: self._firings[a][0][0]), frozenset(self._facts))
        dict.clear(self.just)
        dict.update(self.just, just)

    @property
    def index(self) -> Mapping[tuple[str, int], list[clingo.Symbol]]:
        """The true atoms by predicate, each list in clingo's order (a predicate's sorted when first read: an
        ownership ladder's tens of thousands of atoms are never all sorted for the few predicates an argument reads)."""
        return _ByPredicate(self)

    def atoms_named(self, names: frozenset[str]) -> list[clingo.Symbol]:
        """The true atoms of the predicates named ``names`` (of any arity), in no particular order."""
        return [a for key, atoms in self._index.items() if key[0] in names for a in atoms]

    def _atoms(self, key: tuple[str, int]) -> list[clingo.Symbol]:
        """The true atoms of a predicate, in clingo's order (sorted when first asked for)."""
        atoms = self._index.get(key)
        if atoms is None:
            return []
        if key not in self._sorted:
            atoms.sort()
            self._sorted.add(key)
        return atoms

    def _atoms_split(self, key: tuple[str, int]) -> list[tuple[clingo.Symbol, list[clingo.Symbol]]]:
        """:meth:`_atoms` each with its arguments (read from clingo once per atom)."""
        split = self._split.get(key)
        if split is None:
            split = self._split[key] = [(sym, sym.arguments) for sym in self._atoms(key)]
        return split

    # ------------------------------------------------------------------------------- supports ---
    def candidates(self, node: Any, env: Env) -> list[Env]:
        """Bindings under which the atom pattern ``node`` is true."""
        out = []
        parts = _argument_matchers(node)
        for _sym, args in self._atoms_split(_signatures(node)):
            e = _unify_arguments(parts, args, env)
            if e is not None:
                out.append(e)
        return out

    def _ground_positive(self, node: Any, env: Env) -> tuple[clingo.Symbol, ...]:
        """The true atoms a fired rule's positive atom can be: itself, or for a pattern with an anonymous
        variable every true atom it matches (in clingo's order)."""
        if not _has_anonymous(node):
            return (evaluate(node, env),)
        parts = _argument_matchers(node)
        found = tuple(sym for sym, args in self._atoms_split(_signatures(node))
                      if _unify_arguments(parts, args, env) is not None)
        return found or (evaluate(node, env),)  # a fired rule always has a witness

    def _support(self, plan: RulePlan, g: clingo.Symbol, env: Env) -> _Support:
        sup = _Support(plan, env, [], [], [], [])
        for part in plan.body:
            if part.kind == "pos":
                sup.pos_options.append(self._ground_positive(part.atom, env))
                sup.pos.append(sup.pos_options[-1][0])
            elif part.kind == "neg":
                sup.neg.append(evaluate(part.atom, env))
            elif part.kind == "cmp":
                sup.tests.append(part)
            else:
                elements: list[list[tuple[clingo.Symbol, ...]]] = []
                rows = self.agg_rows.get((plan.info.index, g, part.position), [])
                for ei, loc in sorted(rows, key=lambda r: (r[0], r[1])):
                    _el, conds, names = part.elements[ei]
                    local = [n for n in names if n not in plan.gvars]
                    env2 = {**env, **dict(zip(local, loc.arguments, strict=True))}
                    elements.append([self._ground_positive(c, env2) for c in conds])
                sup.agg_options.append(elements)
                sup.aggs.append((part, [[options[0] for options in el] for el in elements]))
        return sup

    def _levels(self, atoms: list[clingo.Symbol] | None = None, facts: frozenset[clingo.Symbol] | None = None
                ) -> dict[clingo.Symbol, _Support]:
        """Pick for each atom one support whose premises come earlier: acyclic trees under recursion.

        A *clean* support first, wherever there is one: an atom is clean when no rule derives it (a
        fact), or when some support is not flagged ``reconstructed`` and its premises (positive body
        atoms, and the positive condition atoms of its aggregates' element instances; a premise with
        an anonymous variable: one of the atoms it matches) are clean — the least fixpoint, which
        :mod:`pyhelpers.engine.provenance` computes in clingo on the fast path. So an explanation
        shows a reconstructed step exactly where the conclusion has no derivation free of one, as the
        results' ``reconstructed`` flag says. The other atoms get any support whose premises came earlier."""
        level: set[clingo.Symbol] = set(facts) if facts is not None else {
            a for a in self.true if a not in self.supports}
        just: dict[clingo.Symbol, _Support] = {}
        self._rank.update(dict.fromkeys(level, -1))
        self._clean.update(level)
        # The passes over the atoms not yet justified, in order, each atom taking its first support whose
        # premises are all at the level (atoms justified earlier in the same pass included); a support's
        # count of premises with no option at the level yet is kept up to date as atoms join, so that a
        # pass tries only the supports it can choose (the same choices as trying every support each pass).
        missing: dict[int, int] = {}
        waiting: dict[clingo.Symbol, list[tuple[int, list[bool], int]]] = defaultdict(list)
        pending = list(self.supports) if atoms is None else atoms
        for atom in pending:
            for s in dict.__getitem__(self.supports, atom):
                done: list[bool] = []
                for k, options in enumerate(s.premises()):
                    met = any(o in level for o in options)
                    done.append(met)
                    if not met:
                        for o in options:
                            waiting[o].append((id(s), done, k))
                missing[id(s)] = done.count(False)

        def joins(atom: clingo.Symbol) -> None:
            level.add(atom)
            for sid, done, k in waiting.pop(atom, ()):
                if not done[k]:
                    done[k] = True
                    missing[sid] -= 1

        for clean_only in (True, False):
            changed = True
            while changed:
                changed = False
                left = []
                for atom in pending:
                    chosen = None
                    for s in dict.__getitem__(self.supports, atom):
                        if missing[id(s)] == 0 and not (clean_only and s.reconstructed):
                            chosen = s.choosing(level.__contains__)
                            break
                    if chosen is None:
                        left.append(atom)
                        continue
                    just[atom] = chosen
                    self._rank[atom] = len(self._rank)
                    if clean_only:
                        self._clean.add(atom)
                    joins(atom)
                    changed = True
                pending = left
        return just

    def support_near(self, atom: clingo.Symbol, context: frozenset[clingo.Symbol]) -> _Support | None:
        """The support of ``atom`` closest to ``context`` (the arguments of the atoms above it in an
        argument): among the supports whose premises were justified before it (no cycle) and as clean as
        the one :meth:`_levels` chose, the one whose premises name most of the context; that chosen one
        on a tie. One atom can stand in several arguments (two enterprises related on a day, asked for
        at two sites): each argument then shows the premises of its own site, not those of the other."""
        chosen = self.just.get(atom)
        sups = self.supports.get(atom, [])
        if chosen is None or len(sups) < 2 or not context:
            return chosen
        rank = self._rank[atom]
        clean = atom in self._clean

        def ok(a: clingo.Symbol) -> bool:
            return self._rank.get(a, rank) < rank and (not clean or a in self._clean)

        def near(sup: _Support) -> int:
            premises = [*sup.pos, *(a for _, els in sup.aggs for el in els for a in el)]
            return sum(1 for a in premises for x in a.arguments[1:] if x in context)

        best, score = chosen, near(chosen)
        for sup in sups:
            if sup is chosen or (clean and sup.reconstructed):
                continue
            other = sup.choosing(ok)
            if other is not None and near(other) > score:
                best, score = other, near(other)
        return best

    # ---------------------------------------------------------------------------------- trees ---
    def holds(self, atom: clingo.Symbol) -> bool:
        return atom in self.true

    def reconstructed_in(self, atom: clingo.Symbol) -> frozenset[str | None]:
        """The provisions of the steps flagged ``reconstructed`` in the derivation of a true atom (what the
        walk of :meth:`tree` finds, None for a step without a provision), without rendering its steps: each
        atom's set is computed once, over the derivations the atoms share."""
        memo = self._reconstructed
        stack = [atom]
        while stack:
            top = stack[-1]
            if top in memo:
                stack.pop()
                continue
            sup = self.just.get(top)
            if sup is None:
                memo[top] = frozenset()
                stack.pop()
                continue
            premises = [*sup.pos, *(a for _, elements in sup.aggs for el in elements for a in el)]
            todo = [a for a in premises if a not in memo]
            if todo:
                stack.extend(todo)
                continue
            own = {_rule_provision(sup.plan, sup.env)} if sup.reconstructed else set()
            memo[top] = frozenset(own.union(*(memo[a] for a in premises)))
            stack.pop()
        return memo[atom]

    def tree(self, atom: clingo.Symbol, seen: set[clingo.Symbol] | None = None) -> Step:
        """The derivation of a true atom."""
        seen = set() if seen is None else seen
        text = user_atom(atom)
        sentence = reading(self.logic, atom, self.lang)
        sup = self.just.get(atom)
        if sup is None:
            pred = self.logic.predicate(atom.name, len(atom.arguments))
            kind = "static" if pred is not None and pred.role == "static" else "given"
            return Step(kind, text, sentence, note=word(kind, self.lang))
        info = sup.plan.info
        step = Step("derived", text, sentence, info.rule_id, _rule_provision(sup.plan, sup.env),
                    f"{info.file}:{info.line}", tuple(sorted(info.flags)))
        if atom in seen:
            step.kind = "ref"
            return step
        seen.add(atom)
        for a in sup.pos:
            step.children.append(self.tree(a, seen))
        for part, elements in sup.aggs:
            step.children.append(self._aggregate_step(part, sup.plan, sup.env, elements, seen))
        for part in sup.tests:
            step.children.append(self._test_step(part, sup.plan, sup.env))
        for a in sup.neg:
            step.children.append(Step("not", f"not {user_atom(a)}",
                                      f"{word('not', self.lang)}: {reading(self.logic, a, self.lang)}",
                                      note=word("no_rule", self.lang)))
        return step

    def _aggregate_step(self, part: BodyPart, plan: RulePlan, env: Env, elements: list[list[clingo.Symbol]],
                        seen: set[clingo.Symbol]) -> Step:
        """The aggregate with its value (``#sum = 200``), a test for each guard that compares it (``L <
        #sum {...}``: ``200 > 184``), and the atoms of its elements."""
        agg = part.atom
        fn = AGGREGATE_NAMES.get(agg.function, "aggregate")
        named = next((g.term for g in (agg.left_guard, agg.right_guard) if g is not None
                      and g.comparison == ast.ComparisonOperator.Equal and _bound(g.term, env)), None)
        value = evaluate(named, env) if named is not None else _number(self.aggregate_value(agg, env))
        atom = f"#{fn} = {plain(value) if value is not None else '?'}"  # the engine's text: never grouped
        scaled = _scaled(agg, plan) if named is None else None
        if value is not None and scaled is not None:  # a figure summed times the whole: the figure
            shown = render_value(clingo.Number(value.number // scaled[1]), scaled[0], self.lang)
        else:
            shown = render_value(value, _aggregate_type(agg, plan, named), self.lang) if value is not None else "?"
        label = f"#{fn} = {shown}"
        step = Step("aggregate", atom, f"{label} ({formats.number(len(elements), self.lang)})")
        for text, ok, _held in self.aggregate_tests(agg, plan, env):
            step.children.append(Step("test", str(agg), text, note=f"{word('test', self.lang)}: {'✓' if ok else '✗'}"))
        for el in elements:
            for a in el:
                step.children.append(self.tree(a, seen))
        return step

    def aggregate_tests(self, agg: Any, plan: RulePlan, env: Env) -> list[tuple[str, bool, str]]:
        """The comparisons an aggregate's guards make, the aggregate's value first, with their figures,
        whether they hold, and the comparison that holds (itself, or for one that fails the one that holds
        instead): ``L < #sum {...}`` with the sum 200 and ``L`` 184 is ``200 > 184``; with the sum 181 and
        ``L`` 181, ``181 > 181`` fails and ``181 ≤ 181`` holds. A guard ``V = #sum {...}`` only names the
        value: no test."""
        value = self.aggregate_value(agg, env)
        scaled = _scaled(agg, plan)
        out: list[tuple[str, bool, str]] = []
        for guard, left in ((agg.left_guard, True), (agg.right_guard, False)):
            if guard is None or guard.comparison == ast.ComparisonOperator.Equal or value is None:
                continue
            types = [plan.var_types.get(n, "int") for n in variables(guard.term)]
            typ = next((t for t in types if t not in ("int", "id")), "int")
            op = _FLIP[guard.comparison] if left else guard.comparison
            try:
                ok = COMPARISONS[op][0](value, evaluate(guard.term, env).number)
            except Unbound:
                ok = False
            if scaled is not None:  # a proportion: the figure summed (the sum over the whole), the guard by its factors
                left_text = render_value(clingo.Number(value // scaled[1]), scaled[0], self.lang)
                right_text = self._proportion_side(guard.term, env, plan)
            else:
                left_text = render_value(clingo.Number(value), typ, self.lang)
                right_text = self._render_side(guard.term, env, typ)
            held = op if ok else _NEGATE[op]
            out.append((f"{left_text} {COMPARISONS[op][1]} {right_text}", ok,
                        f"{left_text} {COMPARISONS[held][1]} {right_text}"))
        return out

    def thresholds_not_met(self, atom: clingo.Symbol, cited_only: bool = False) -> list[str]:
        """Why ``atom``, which does not hold, is not derived where only a threshold stands in the way:
        for each rule of it with a provision whose every other condition holds, the comparisons that
        fail, written as the ones that hold instead, with their figures (``181 ≤ 181``: the days added
        are not more than six months). Empty where some other condition fails (a fact missing, an
        exception that applies) or no rule of it compares numbers, dates or shares. ``cited_only``: not the
        comparisons against a bare number (``0 days ≤ 0 days`` of ``D > 0``), which cite no figure of the text."""
        if atom in self.true:
            return []
        out: list[str] = []
        for plan in self.rule_source.rules_for(atom.name, len(atom.arguments)):
            tests = [p for p in plan.body if p.kind in ("cmp", "agg")]
            if not tests or plan.info.provision == "(core)":
                continue
            env = unify(plan.head, atom, {})
            if env is None:
                continue
            parts = _search_order(plan)
            results: list[tuple[list[tuple[BodyPart, Env]], Env]] = []
            self._search(parts, 0, env, [], results)
            found: list[tuple[list[str], Env]] = []
            for failures, fenv_all in results:
                if not failures or any(part.kind not in ("cmp", "agg") for part, _ in failures):
                    continue
                texts: list[str] = []
                for part, fenv in failures:
                    if cited_only and part.kind == "cmp" and any(
                            number_literal(t) for t in (part.atom.term, *(g.term for g in part.atom.guards))):
                        continue
                    texts += [t for t in self._held_instead(part, plan, fenv) if t not in texts]
                if texts:
                    found.append((texts, fenv_all))
            for texts, where in self._told_apart(plan, found):
                for text in texts:
                    text = word("figure_where", self.lang).format(figure=text, condition=where) if where else text
                    if text not in out:
                        out.append(text)
        return out

    def _told_apart(self, plan: RulePlan, found: list[tuple[list[str], Env]]) -> list[tuple[list[str], str]]:
        """The figures of each instance of ``plan`` that fails on a threshold, with what tells the instance apart
        where several fail: the readings of its positive conditions that differ from one instance to another (the
        twelve-month period a count of days is of: "182 days < 50% of 365 days (the twelve-month period from
        2024-07-01 to 2025-06-30 ...)", never two figures of days unexplained, blind55a); empty where one fails."""
        if len(found) < 2:
            return [(texts, "") for texts, _env in found]
        pos = [p for p in plan.body if p.kind == "pos"]
        grounds = {id(env): [_ground(p.atom, env) for p in pos] for _texts, env in found}
        differ = [i for i in range(len(pos)) if len({g[i] for g in grounds.values()}) > 1
                  and all(g[i] is not None for g in grounds.values())]
        out: list[tuple[list[str], str]] = []
        for texts, env in _nearest(found):
            said = [reading(self.logic, sym, self.lang) for i in differ if (sym := grounds[id(env)][i]) is not None
                    and self.logic.predicate(sym.name, len(sym.arguments)) is not None]
            out.append((texts, "; ".join(said)))
        return out

    def _held_instead(self, part: BodyPart, plan: RulePlan, env: Env) -> list[str]:
        """A failed comparison of ``plan`` as the comparison that holds instead, with its figures; none for
        a chain (``A < B < C``) or one between ids, States or terms (no figure to show)."""
        if part.kind == "agg":
            return [held for _text, ok, held in self.aggregate_tests(part.atom, plan, env) if not ok]
        cmp = part.atom
        guards = list(cmp.guards)
        if _proportion(cmp, plan) and all(_bound(t, env) for t in (cmp.term, guards[0].term)):
            left, right = (self._proportion_side(t, env, plan) for t in (cmp.term, guards[0].term))
            return [f"{left} {COMPARISONS[_NEGATE[guards[0].comparison]][1]} {right}"]
        sides = (cmp.term, guards[0].term) if len(guards) == 1 else ()
        if not sides or not all(_bound(t, env) and (t.ast_type in _PLAIN or term_type(t, plan) == "days")
                                for t in sides):
            return []  # a chain, or a side computed from others (a date moved by days: no single figure); a
            # duration computed from two dates (``T - F + 1``: "364 days") is one figure
        if any(t.ast_type not in _PLAIN for t in sides):
            types = sorted({term_type(t, plan) for t in sides})
        else:
            types = sorted({plan.var_types.get(n, "int") for side in sides for n in variables(side)})
        if set(types) & {"id", "state", "prov", "term"}:
            return []
        typ = next((t for t in types if t != "int"), "int")
        left, right = (self._render_side(t, env, typ) for t in sides)
        if word("open", self.lang) in (left, right):
            return []  # against an open end: it holds whatever the date
        return [f"{left} {COMPARISONS[_NEGATE[guards[0].comparison]][1]} {right}"]

    def _other_instead(self, part: BodyPart, plan: RulePlan, env: Env) -> list[str]:
        """A failed (in)equality between ids, States or terms as the one that holds instead (``Portugal =
        Portugal`` where ``Portugal ≠ Portugal`` fails): no figure, but never the failed test read as if it
        held. None for a chain or a side computed from others."""
        cmp = part.atom
        guards = list(cmp.guards)
        if len(guards) != 1 or guards[0].comparison not in (ast.ComparisonOperator.Equal,
                                                             ast.ComparisonOperator.NotEqual):
            return []
        sides = (cmp.term, guards[0].term)
        if not all(_bound(t, env) and t.ast_type in _PLAIN for t in sides):
            return []
        typ = next((t for t in (term_type(side, plan) for side in sides) if t not in ("int", "id")), "int")
        left, right = (self._render_side(t, env, typ) for t in sides)
        return [f"{left} {COMPARISONS[_NEGATE[guards[0].comparison]][1]} {right}"]

    def _failed_subject(self, part: BodyPart, plan: RulePlan, env: Env) -> tuple[str, str, str, str] | None:
        """A failed comparison of a variable that a positive condition of ``plan`` binds, against a figure that is no
        bare number: (that condition's reading, the variable's value, the operator the rule requires of it, the other
        side's value); its left side first, else its right side (the comparison turned round). None for a
        proportion, a chain, a side computed from others (``T - F + 1``), or a condition the argument does not show
        (bookkeeping, not in the vocabulary)."""
        cmp = part.atom
        guards = list(cmp.guards)
        if len(guards) != 1 or _proportion(cmp, plan):
            return None
        positives = [p for p in plan.body if p.kind == "pos"]
        for side, other, op in ((cmp.term, guards[0].term, guards[0].comparison),
                                (guards[0].term, cmp.term, _FLIP[guards[0].comparison])):
            if side.ast_type != ASTType.Variable or number_literal(other) or not (_bound(side, env)
                                                                               and _bound(other, env)):
                continue
            binder = next((p for p in positives if side.name in variables(p.atom)), None)
            if binder is None:
                continue
            node = binder.node.atom.symbol
            pred = self.logic.predicate(node.name, len(node.arguments))
            if pred is None or pred.role not in ("derived", "input") or not pred.argued:
                continue
            types = [term_type(t, plan) for t in (side, other)]
            typ = next((t for t in types if t not in ("int", "id")), "int")
            if typ in ("id", "state", "prov", "term"):
                return None
            return (self._partial_reading(node, env), self._render_side(side, env, typ), COMPARISONS[op][1],
                    self._render_side(other, env, typ))
        return None

    def _render_side(self, node: Any, env: Env, typ: str) -> str:
        try:
            value = evaluate(node, env)
        except Unbound:
            return str(node)
        return render_value(value, typ, self.lang)

    def _proportion_side(self, node: Any, env: Env, plan: RulePlan) -> str:
        """A side of a proportion (:func:`_proportion`) as what its factors are: a share of a figure (``50% of
        365``, ``60% of 25%``), a share of a whole left out (``183`` for ``183 × 100%``), each factor by its own
        type."""
        shares: list[str] = []
        others: list[str] = []
        for factor in _factors(node):
            typ = term_type(factor, plan)
            try:
                value = evaluate(factor, env)
            except Unbound:
                return str(node)
            if typ in SHARE_WHOLE and value.type == clingo.SymbolType.Number and value.number == SHARE_WHOLE[typ]:
                continue  # a whole: the figure itself
            (shares if typ in SHARE_WHOLE else others).append(render_value(value, typ, self.lang))
        figure = " × ".join([*shares[1:], *others])
        if not shares:
            return figure or render_value(clingo.Number(SHARE_WHOLE["bp"]), "bp", self.lang)
        return word("share_of", self.lang).format(share=shares[0], figure=figure) if figure else shares[0]

    def _test_step(self, part: BodyPart, plan: RulePlan, env: Env) -> Step:
        cmp = part.atom
        sides = [cmp.term, *(g.term for g in cmp.guards)]
        typ = next((t for t in (term_type(side, plan) for side in sides) if t not in ("int", "id")), "int")
        proportion = _proportion(cmp, plan)

        def shown(side: Any) -> str:
            return self._proportion_side(side, env, plan) if proportion else self._render_side(side, env, typ)

        pieces = [shown(cmp.term)]
        ok = True
        prev = cmp.term
        for guard in cmp.guards:
            fn, sym = COMPARISONS[guard.comparison]
            pieces += [sym, shown(guard.term)]
            try:
                ok = ok and fn(evaluate(prev, env), evaluate(guard.term, env))
            except Unbound:
                ok = False
            prev = guard.term
        text = " ".join(pieces)
        return Step("test", str(cmp), text, note=f"{word('test', self.lang)}: {'✓' if ok else '✗'}")

    # -------------------------------------------------------------------------------- why not ---
    def why_not(self, pattern: Any, tests: list[Any], depth: int = 6,
                visited: frozenset[tuple[int, str]] = frozenset(), first: bool = False,
                siblings: bool = False) -> list[Step]:
        """Each rule that could derive an atom matching ``pattern`` (with extra comparison ``tests``
        over the pattern's variables), with the conditions that failed in its best partial grounding.

        With ``first``, each attempt's first failed condition only, followed down the same way (below it, the
        first attempt only): the chain of first children that a reader of an attempt's first failed condition
        walks (:func:`~pyhelpers.explain.argument._figures_failed`), each step as the whole analysis gives it.
        With ``siblings`` too, each attempt's other failed positive conditions follow its first, not followed down
        (their kind and what holds in their place, ``none``, as the whole analysis gives them: what
        :func:`~pyhelpers.explain.argument._none_reason` reads beside the chain)."""
        out = []
        for plan in self.rule_source.rules_for(pattern.name, len(pattern.arguments)):
            key = (plan.info.index, str(pattern))
            if key in visited:
                continue
            seen = visited | {key}
            matched = self._head_env(plan, pattern)
            if matched is None:
                continue
            env, aliases = matched
            extra = [_rename(t, aliases) for t in tests]
            attempt = self._best_attempt(plan, env, extra, depth, seen, first, siblings)
            if attempt is not None:
                out.append(attempt)
        return out

    def _first_attempt(self, pattern: Any, depth: int, visited: frozenset[tuple[int, str]],
                       siblings: bool = False) -> list[Step]:
        """The first attempt of :meth:`why_not` (``first``), as a list of at most one step."""
        for plan in self.rule_source.rules_for(pattern.name, len(pattern.arguments)):
            key = (plan.info.index, str(pattern))
            if key in visited:
                continue
            matched = self._head_env(plan, pattern)
            if matched is None:
                continue
            attempt = self._best_attempt(plan, matched[0], [], depth, visited | {key}, True, siblings)
            if attempt is not None:
                return [attempt]
        return []

    def _head_env(self, plan: RulePlan, pattern: Any) -> tuple[Env, dict[str, Any]] | None:
        env: Env = {}
        aliases: dict[str, Any] = {}
        for h, g in zip(plan.head.arguments, pattern.arguments, strict=True):
            if g.ast_type == ASTType.Variable:
                if h.ast_type == ASTType.Variable:
                    aliases[g.name] = h
                else:
                    try:
                        aliases[g.name] = ast.SymbolicTerm(h.location, evaluate(h, {}))
                    except Unbound:
                        aliases[g.name] = h
                continue
            value = evaluate(g, {})
            e = unify(h, value, env)
            if e is None:
                return None
            env = e
        return env, aliases

    def _best_attempt(self, plan: RulePlan, env: Env, extra: list[Any], depth: int,
                      visited: frozenset[tuple[int, str]], first: bool = False, siblings: bool = False
                      ) -> Step | None:
        parts = _search_order(plan)
        parts += [BodyPart("cmp", ast.Literal(LOC, ast.Sign.NoSign, t), -1, t) for t in extra]
        results: list[tuple[list[tuple[BodyPart, Env]], Env]] = []
        self._search(parts, 0, env, [], results)
        if not results:
            return None
        best = min(len(r[0]) for r in results)
        failures, final_env = next(r for r in results if len(r[0]) == best)
        info = plan.info
        head_text = self._partial_text(plan.head, final_env)
        fixed = None if info.provision.startswith(("{", "(")) else info.provision
        step = Step("failed", head_text, self._partial_reading(plan.head, final_env), info.rule_id,
                    _rule_provision(plan, final_env) or fixed, f"{info.file}:{info.line}", tuple(sorted(info.flags)),
                    ground=_ground(plan.head, final_env))
        missed = [part for part, _fenv in failures]
        met = (_ground(p.atom, final_env) for p in parts if p.kind == "pos" and not any(p is m for m in missed))
        step.held_atoms = tuple(a for a in met if a is not None)
        for n, (part, fenv) in enumerate(failures):
            if part.kind in ("cmp", "neg") and not _bound(part.node, fenv):
                continue  # not evaluable: a failed positive condition above leaves its variables unbound
            step.children.append(self._failed_condition(part, fenv, plan, depth, visited, first, siblings))
            if first:
                if siblings:  # the others, not followed down: what they are and what holds in their place
                    step.children += [self._failed_condition(p, e, plan, 0, visited) for p, e in failures[n + 1:]
                                      if p.kind == "pos"]
                break
        return step

    def _search(self, parts: list[BodyPart], i: int, env: Env, failures: list[tuple[BodyPart, Env]],
                results: list[tuple[list[tuple[BodyPart, Env]], Env]]) -> None:
        if len(results) >= 64:
            return
        if i == len(parts):
            results.append((failures, env))
            return
        part = parts[i]
        if part.kind == "pos":
            cands = self.candidates(part.atom, env)
            if cands:
                for e in cands[:8]:
                    self._search(parts, i + 1, e, failures, results)
                return
            self._search(parts, i + 1, env, [*failures, (part, env)], results)
            return
        if part.kind == "neg":
            node = part.atom
            ok = _bound(node, env) and evaluate(node, env) not in self.true
            self._search(parts, i + 1, env, failures if ok else [*failures, (part, env)], results)
            return
        if part.kind == "cmp":
            ok, env2 = self._compare(part.atom, env)
            self._search(parts, i + 1, env2, failures if ok else [*failures, (part, env)], results)
            return
        ok, env2 = self._aggregate(part.atom, env)
        self._search(parts, i + 1, env2, failures if ok else [*failures, (part, env)], results)

    def _compare(self, cmp: Any, env: Env) -> tuple[bool, Env]:
        return compare(cmp, env)

    def aggregate_value(self, agg: Any, env: Env) -> int | None:
        rows: set[tuple[clingo.Symbol, ...]] = set()
        for el in agg.elements:
            conds = [c for c in el.condition if c.ast_type == ASTType.Literal]
            for e in self._join(conds, env):
                try:
                    rows.add(tuple(evaluate(t, e) for t in el.terms))
                except Unbound:
                    continue
        fn = agg.function
        if fn == ast.AggregateFunction.Count:
            return len(rows)
        weights = [r[0].number for r in rows if r and r[0].type == clingo.SymbolType.Number]
        if fn in (ast.AggregateFunction.Sum, ast.AggregateFunction.SumPlus):
            return sum(weights)
        if not weights:
            return None
        return min(weights) if fn == ast.AggregateFunction.Min else max(weights)

    def _join(self, conds: list[Any], env: Env) -> Iterator[Env]:
        if not conds:
            yield env
            return
        c, rest = conds[0], conds[1:]
        if c.atom.ast_type == ASTType.SymbolicAtom and c.sign == ast.Sign.NoSign:
            for e in self.candidates(c.atom.symbol, env):
                yield from self._join(rest, e)
        elif c.atom.ast_type == ASTType.Comparison:
            ok, e = self._compare(c.atom, env)
            if ok:
                yield from self._join(rest, e)
        elif c.atom.ast_type == ASTType.SymbolicAtom and _bound(c.atom.symbol, env) \
                and evaluate(c.atom.symbol, env) not in self.true:
            yield from self._join(rest, env)

    def _aggregate(self, agg: Any, env: Env) -> tuple[bool, Env]:
        value = self.aggregate_value(agg, env)
        env2 = env
        for guard, left in ((agg.left_guard, True), (agg.right_guard, False)):
            if guard is None:
                continue
            if value is None:
                return False, env
            if guard.term.ast_type == ASTType.Variable and guard.term.name not in env2 \
                    and guard.comparison == ast.ComparisonOperator.Equal:
                env2 = {**env2, guard.term.name: clingo.Number(value)}
                continue
            try:
                bound = evaluate(guard.term, env2).number
            except Unbound:
                return False, env
            op = guard.comparison if not left else _FLIP[guard.comparison]
            if not COMPARISONS[op][0](value, bound):
                return False, env
        return True, env2

    # ---------------------------------------------------------------------- failed conditions ---
    def _partial_text(self, node: Any, env: Env) -> str:
        args = []
        for a in node.arguments[1:]:
            try:
                args.append(str(evaluate(a, env)))
            except Unbound:
                args.append(str(a))
        return f"{node.name}({', '.join(args)})"

    def _partial_reading(self, node: Any, env: Env) -> str:
        pred = self.logic.predicate(node.name, len(node.arguments))
        if pred is None:
            return self._partial_text(node, env)
        values: dict[str, str] = {}
        states: dict[str, str] = {}
        unbound: dict[str, tuple[str, bool]] = {}  # what the rule base calls an argument left unbound
        written: list[str] = []  # the bound arguments as terms, to choose the reading of a value ("en(K=other)")
        for spec, a in zip(pred.args, node.arguments, strict=True):
            try:
                sym = evaluate(a, env)
            except Unbound:
                unbound[spec.name] = (unbound_words(self.logic, spec, self.lang), spec.type == "id")
                written.append("")
                continue
            written.append(str(sym))
            values[spec.name] = render_value(sym, spec.type, self.lang)
            if spec.type == "state" and sym.type == clingo.SymbolType.Function and not sym.arguments:
                states[spec.name] = str(sym.name)  # its name with its article ('no Brasil')
        return fill(pred.reading_of(self.lang, written), values, states, self.lang, unbound)

    def none_reading(self, atom: clingo.Symbol) -> str | None:
        """The ``none`` reading of a ground atom that does not hold (:meth:`_none`)."""
        node = ast.Function(LOC, atom.name, [ast.SymbolicTerm(LOC, a) for a in atom.arguments], 0)
        return self._none(node, {})

    def _none(self, node: Any, env: Env) -> str | None:
        """Where no fact matches the condition ``node`` (under ``env``), the fact that holds instead, in the positive,
        as its predicate's ``none`` reading gives it: where the arguments that reading names are bound and the others
        (the scenario's id aside) are not ("X has no place of business in that State", never of one place named).
        Where the reading rests on a documented default (``none-default``): with the default assumed, the reading
        marked so; with the attribute neither given nor defaulted (``--strict``), None: a missing fact is never read
        as false."""
        pred = self.logic.predicate(node.name, len(node.arguments))
        template = pred.none_reading(self.lang) if pred is not None else None
        if pred is None or template is None:
            return None
        named = set(_PLACEHOLDER.findall(template)) | set(_CHOICE_NAMES.findall(template))
        values: dict[str, str] = {}
        states: dict[str, str] = {}
        bound: dict[str, clingo.Symbol] = {}
        for k, (spec, a) in enumerate(zip(pred.args, node.arguments, strict=True)):
            try:
                sym = evaluate(a, env)
            except Unbound:
                if spec.name in named:
                    return None
                continue
            if k > 0 and spec.name not in named:
                return None
            bound[spec.name] = sym
            values[spec.name] = render_value(sym, spec.type, self.lang)
            if spec.type == "state" and sym.type == clingo.SymbolType.Function and not sym.arguments:
                states[spec.name] = str(sym.name)
        text = fill(template, values, states, self.lang)
        if pred.none_default is None:
            return text
        arg, attribute = pred.none_default
        scenario = bound.get(pred.args[0].name)
        subject = bound.get(arg)
        if scenario is None or subject is None:
            return None
        key = [scenario, subject, clingo.Function(attribute)]
        if clingo.Function("defaulted", key) in self.true:
            return self.defaulted_reading(text, attribute, subject)
        return text if clingo.Function("given", key) in self.true else None

    def defaulted_reading(self, text: str, attribute: str, subject: clingo.Symbol) -> str:
        """A ``none`` reading that rests on a documented default of the scenario format, said as `treaty check` says
        it: an assumption an item's outcome rests on (one `treaty check` lists, removed by the same field) with that
        field named ("(assumed: `persons.X.special_regime` not given)"); else, for a list of the scenario whose
        absence the format documents as none (``places_of_business: {}``), what the scenario's list settles, the
        list named ("(none in the scenario's `places_of_business`)"): no assumption, as no outcome rests on it (the
        rules read the item's own fields); else the field, as an assumption."""
        name = subject.string if subject.type == clingo.SymbolType.String else str(subject)
        field = fact_path(f"{attribute}({name})", [name], self.scenario)
        if attribute in Scenario.model_fields and not self._assumes(field):
            return word("listed_none", self.lang).format(reading=text, field=attribute)
        if field is None:
            return word("assumed_fact", self.lang).format(reading=text)
        return word("assumed_fact_field", self.lang).format(reading=text, field=field)

    def _assumes(self, field: str | None) -> bool:
        """Whether an assumption the rules derived (``assumption/4``, as `treaty check` lists it) is removed by the
        scenario field ``field``."""
        if field is None:
            return False
        fields = catalogue().assumption_fields
        for sym in self.index.get(("assumption", 4), []):
            fact, prov = sym.arguments[2], sym.arguments[3]
            if fact.type != clingo.SymbolType.Function or prov.type != clingo.SymbolType.String:
                continue
            template = fields.get((prov.string.split(" ")[0], fact.name))
            if template is None:
                continue
            first = fact.arguments[0] if fact.arguments else None
            arg = "" if first is None else first.string if first.type == clingo.SymbolType.String else str(first)
            if any(field == f or field.endswith(f".{f}") for f in template.replace("<1>", arg).split(" or ")):
                return True  # a field of an income item: under the item's index (``income[0].pension...``)
        return False

    def _failed_condition(self, part: BodyPart, env: Env, plan: RulePlan, depth: int,
                          visited: frozenset[tuple[int, str]], first: bool = False, siblings: bool = False) -> Step:
        lit = part.node
        if part.kind == "pos":
            node = lit.atom.symbol
            step = Step("unknown", self._partial_text(node, env), self._partial_reading(node, env),
                        ground=_ground(node, env))
            pred = self.logic.predicate(node.name, len(node.arguments))
            if pred is not None and pred.role == "static":
                step.note = word("no_value", self.lang)
            elif pred is not None and pred.role == "input":
                step.note = word("not_given", self.lang)
                step.none = self._none(node, env)
            else:
                step.note = word("no_rule", self.lang)
                step.none = self._none(node, env) if pred is not None and pred.role == "derived" else None
                if depth > 0:
                    grounded = _substitute(node, env)
                    step.children = self._first_attempt(grounded, depth - 1, visited, siblings) if first \
                        else self.why_not(grounded, [], depth - 1, visited)
            return step
        if part.kind == "neg":
            node = lit.atom.symbol
            step = Step("failed", f"not {self._partial_text(node, env)}",
                        f"{word('not', self.lang)}: {self._partial_reading(node, env)}")
            if _bound(node, env):
                atom = evaluate(node, env)
                step.note = word("holds", self.lang)
                step.children = [self.tree(atom)]
            return step
        if part.kind == "cmp":
            step = self._test_step(part, plan, env)
            figures = self._held_instead(part, plan, env)
            step.held = next(iter(figures or self._other_instead(part, plan, env)), None)
            step.between_terms = not figures and step.held is not None
            if figures:
                step.subject = self._failed_subject(part, plan, env)
            return step
        agg = lit.atom
        value = self.aggregate_value(agg, env)
        shown = value if value is None else render_value(clingo.Number(value), _aggregate_type(agg, plan), self.lang)
        step = Step("failed", str(agg), f"#{AGGREGATE_NAMES.get(agg.function, 'aggregate')} = {shown}")
        for text, ok, held in self.aggregate_tests(agg, plan, env):
            step.children.append(Step("test", str(agg), text, note=f"{word('test', self.lang)}: {'✓' if ok else '✗'}",
                                      held=None if ok else held))
        guard = agg.left_guard or agg.right_guard
        if first and step.children:
            return step
        if depth > 0 and guard is not None and _bound(guard.term, env) and len(agg.elements) == 1:
            el = agg.elements[0]
            if len(el.terms) == 1 and el.terms[0].ast_type == ASTType.Variable:
                env2 = {**env, el.terms[0].name: evaluate(guard.term, env)}
                for c in el.condition:
                    if c.ast_type == ASTType.Literal and c.atom.ast_type == ASTType.SymbolicAtom \
                            and c.sign == ast.Sign.NoSign and not self.candidates(c.atom.symbol, env2):
                        if first:
                            step.children.extend(self._first_attempt(_substitute(c.atom.symbol, env2), depth - 1,
                                                                     visited, siblings))
                            if step.children:
                                break
                            continue
                        step.children.extend(self.why_not(_substitute(c.atom.symbol, env2), [], depth - 1, visited))
        return step


class _Subst(ast.Transformer):
    def __init__(self, env: dict[str, Any]) -> None:
        self.env = env

    def visit_Variable(self, node: Any) -> Any:
        value = self.env.get(node.name)
        if value is None:
            return node
        if isinstance(value, clingo.Symbol):
            return ast.SymbolicTerm(node.location, value)
        return value


def _substitute(node: Any, env: Env) -> Any:
    return _Subst(dict(env))(node)


def _rename(test: Any, aliases: dict[str, Any]) -> Any:
    return _Subst(aliases)(test)


def explain_scenario(checker: Checker, scenario: Scenario, lang: str = "en", every_rule: bool = False,
                     item: str | None = None, lazy: bool = False) -> Explainer:
    """Solve the instrumented rules for ``scenario`` and return its explainer (on demand only);
    ``every_rule`` keeps the rules that cannot fire, for why-not. Under an amended article, the rules
    are those of the version that decides ``item`` (default: the first item)."""
    chosen = next((i for i in scenario.income if item is None or i.id == item), None)
    versions = checker.versions(scenario.treaty, chosen) if chosen is not None else ()
    ex = explainer_for(checker.logic, checker.facts(scenario), lang, scenario.treaty, every_rule, versions, lazy)
    ex.scenario = scenario
    return ex


def why_not_goal(checker: Checker, scenario: Scenario, query: Query, lang: str = "en") -> tuple[Step, ...]:
    """Why ``query`` does not hold on ``scenario`` as stated (its unknown facts set aside): the why-not
    of the goal, and the derivations of the atoms that hold but fail its comparisons (they name the
    provisions that set them). Empty when the goal holds."""
    found = goal_attempts(checker, scenario, query, lang)
    if found is None:
        return ()
    ex, steps = found
    return tuple([*steps, *(ex.tree(sym) for sym in query_matches(ex, query.pattern, ()))])


def goal_attempts(checker: Checker, scenario: Scenario, query: Query, lang: str = "en"
                  ) -> tuple[Explainer, list[Step]] | None:
    """The explainer of ``scenario`` as stated (its unknown facts set aside) and the attempts of the rules that
    could conclude ``query`` (:meth:`Explainer.why_not`); None when the goal holds (:func:`why_not_goal`)."""
    plain = scenario.with_values({}, "<whatif>") if scenario.open_facts else scenario
    ex = explain_scenario(checker, plain, lang, every_rule=True)
    if query_matches(ex, query.pattern, query.tests):
        return None
    return ex, list(ex.why_not(query.pattern, list(query.tests)))


def explainer_for(logic: Logic, facts: list[str], lang: str = "en", treaty: str | None = None,
                  every_rule: bool = False, versions: tuple[str, ...] = (), lazy: bool = False) -> Explainer:
    """Solve the instrumented program on ``facts`` and return its explainer. The program is core plus
    ``treaty``'s rules (the whole rule base when ``treaty`` is None), reduced to the rules that can fire
    on these facts (:meth:`Logic.program_for_facts`) unless ``every_rule``: why-not must also show rules
    whose conditions were never given."""
    if treaty is not None and not every_rule:
        instr = instrument_for_facts(logic, treaty, logic.abstraction.abstract_facts(facts), versions)
    else:
        instr = instrument(logic, treaty, None, versions)
    solved = run_clingo(instr.sliced, facts, shown_only=False, sort=False)  # the explainer orders what it uses
    return Explainer(logic, solved.symbols, lang, instr, lazy)


def query_matches(explainer: Explainer, pattern: Any, tests: tuple[Any, ...] | list[Any]) -> list[clingo.Symbol]:
    """The true atoms matching a query pattern whose comparisons hold, in a stable order."""
    out = []
    for env in explainer.candidates(pattern, {}):
        ok = True
        for t in tests:
            ok, env = explainer._compare(t, env)
            if not ok:
                break
        if ok:
            out.append(evaluate(pattern, env))
    return sorted(set(out))
