"""The facts the rules can ask for: every fact name a rule of the rule base can report missing (not given),
unknown (given as unknown) or as a judgment to make, read from the heads of the rules, not from any answer.

A finding names its fact by a term (``missing(S, I, exercised_in(I), Prov)``): the fact's name is that
term's function name. A rule may also pass on a fact named by another predicate
(``missing(S, I, F, Prov) :- pe_fact_missing(S, B, F, Prov), ...``): the argument is then followed to every
positive body atom that binds its variable, and on to the heads of those atoms' predicates, until each
path ends at a term written in a head. The names found are those the scenario format must say where a
scenario states (``fact_field``, ``fact_leaf`` in ``logic/core/scenario_format.lp``)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from clingo import ast
from clingo.ast import ASTType

from pyhelpers.engine.program import Logic

MISSING, UNKNOWN, JUDGMENT = "missing", "unknown", "judgment"

REPORTS: dict[tuple[str, int], tuple[int, str]] = {
    ("missing", 4): (2, MISSING),
    ("answer_missing", 4): (2, MISSING),
    ("company_fact_missing", 5): (3, MISSING),
    ("residence_fact_missing", 5): (3, MISSING),
    ("depends", 4): (2, UNKNOWN),
    ("answer_depends", 4): (2, UNKNOWN),
    ("company_fact_unknown", 5): (3, UNKNOWN),
    ("residence_fact_unknown", 5): (3, UNKNOWN),
    ("requires_judgment", 4): (2, JUDGMENT),
}
"""The predicates of the core vocabulary that report a fact (name and arity → the fact's argument position
and whether it is reported not given, given as unknown, or a judgment the user makes)."""

Position = tuple[str, int, int]
"""An argument of a predicate: (name, arity, index)."""


@dataclass(frozen=True)
class AskedFact:
    """A fact name the rules can report, with how (``missing``, ``unknown``, ``judgment``), its numbers of
    arguments, and where (``file:line`` of each rule head that writes its term)."""

    name: str
    kinds: frozenset[str]
    arities: frozenset[int]
    rules: tuple[str, ...]


@dataclass
class _Head:
    args: list[Any]
    bound: dict[str, list[Position]] = field(default_factory=dict)
    where: str = ""


@dataclass(frozen=True)
class Asked:
    """What the rules can ask for: the fact names, and the rules whose fact could not be followed."""

    facts: dict[str, AskedFact]
    """Every fact name some rule can report, by name (sorted)."""
    untraced: tuple[str, ...]
    """The rules (``file:line``) whose head passes on a fact by a variable no positive body atom binds, or
    writes something other than a term in its place: none in a rule base whose every fact is known."""


def asked_facts(logic: Logic) -> Asked:
    """The facts the rules of ``logic`` can report missing, unknown or to be judged (:class:`Asked`)."""
    heads: dict[tuple[str, int], list[_Head]] = defaultdict(list)
    for stm, relpath in zip(logic.statements, logic.statement_files, strict=True):
        head = _head(stm, relpath)
        if head is not None:
            heads[head[0]].append(head[1])
    found: dict[str, tuple[set[str], set[int], set[str]]] = {}
    untraced: set[str] = set()
    for (name, arity), (index, kind) in REPORTS.items():
        todo: list[Position] = [(name, arity, index)]
        seen: set[Position] = set(todo)
        while todo:
            pred, n, k = todo.pop()
            for h in heads.get((pred, n), ()):
                arg = h.args[k]
                fact = _functor(arg)
                if fact is not None:
                    kinds, arities, rules = found.setdefault(fact[0], (set(), set(), set()))
                    kinds.add(kind)
                    arities.add(fact[1])
                    rules.add(h.where)
                elif arg.ast_type != ASTType.Variable or not h.bound.get(arg.name):
                    untraced.add(h.where)
                else:
                    for pos in h.bound[arg.name]:
                        if pos not in seen:
                            seen.add(pos)
                            todo.append(pos)
    facts = {n: AskedFact(n, frozenset(k), frozenset(a), tuple(sorted(r))) for n, (k, a, r) in sorted(found.items())}
    return Asked(facts, tuple(sorted(untraced)))


def _head(stm: Any, relpath: str) -> tuple[tuple[str, int], _Head] | None:
    """A rule's head atom (name and arity) with its arguments and, for each variable, the arguments of
    positive body atoms it stands at."""
    if stm.ast_type != ASTType.Rule or stm.head.ast_type != ASTType.Literal \
            or stm.head.atom.ast_type != ASTType.SymbolicAtom or stm.head.atom.symbol.ast_type != ASTType.Function:
        return None
    sym = stm.head.atom.symbol
    head = _Head(list(sym.arguments), where=f"{relpath}:{stm.location.begin.line}")
    for lit in stm.body:
        if lit.ast_type != ASTType.Literal or lit.sign != ast.Sign.NoSign \
                or lit.atom.ast_type != ASTType.SymbolicAtom or lit.atom.symbol.ast_type != ASTType.Function:
            continue
        body = lit.atom.symbol
        for k, arg in enumerate(body.arguments):
            if arg.ast_type == ASTType.Variable:
                head.bound.setdefault(arg.name, []).append((body.name, len(body.arguments), k))
    return (sym.name, len(sym.arguments)), head


def _functor(term: Any) -> tuple[str, int] | None:
    """The name and number of arguments of a fact term written in a head (``exercised_in(I)`` →
    ``("exercised_in", 1)``; a constant has none), or None for anything else (a number, a string,
    arithmetic)."""
    if term.ast_type == ASTType.Function and term.name:
        return str(term.name), len(term.arguments)
    if term.ast_type == ASTType.SymbolicTerm and term.symbol.type.name == "Function" and term.symbol.name:
        return str(term.symbol.name), len(term.symbol.arguments)
    return None
