"""The statements of the rule base as the fast path sees them: text, head, positive body, and the
argument patterns the reachability analysis (:mod:`pyhelpers.engine.reach`) joins on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clingo import SymbolType, ast

STATEMENT_FORMAT = 4
"""Version of the cached statement format: bump it when :class:`Statement` changes."""
Pattern = tuple[str, ...]
"""The arguments of an atom of a rule, for the reachability analysis: ``=c`` a constant (as clingo
writes it), ``?V`` a variable, ``*`` anything else (a function term, arithmetic, ``_``)."""


def pattern_of(term: ast.AST) -> str:
    t = term.ast_type
    if t == ast.ASTType.Variable:
        return "*" if term.name == "_" else f"?{term.name}"
    if t == ast.ASTType.SymbolicTerm:
        sym = term.symbol
        if sym.type in (SymbolType.Number, SymbolType.String) or (sym.type == SymbolType.Function
                                                                   and not sym.arguments and sym.name):
            return f"={sym}"
    return "*"


ANONYMOUS_PREFIX = "Anon__"
"""The names given to the anonymous variables of positive body literals (:func:`named_anonymous`)."""


class _NameAnonymous(ast.Transformer):
    """Each ``_`` of the node it is called on becomes a variable of its own, named from ``fresh``."""

    def __init__(self, fresh: list[str]) -> None:
        self.fresh = fresh

    def visit_Variable(self, node: Any) -> Any:
        return node.update(name=self.fresh.pop(0)) if node.name == "_" else node


def named_anonymous(stm: ast.AST) -> ast.AST:
    """``stm`` with each anonymous variable ``_`` of its positive body literals (``p(X, _)``, outside
    aggregates and conditions, not negated) renamed to a fresh variable of its own (``Anon__1``), for
    clingo only: gringo projects an anonymous variable into an auxiliary predicate, which at scale costs
    several times the grounding of the rule itself (issue 23: a 1,500-person scenario 10.75 s -> 1.7 s),
    while a named variable that occurs in one literal alone means the same (some value exists). Not
    renamed where a name would change the meaning: ``not p(X, _)`` (there ``_`` is local to the
    negation; a name would be unsafe), aggregate elements and conditional literals. The parsed
    statements the Prolog translation and the explanation read are left as they are."""
    if stm.ast_type != ast.ASTType.Rule or not stm.body:
        return stm
    names = _Variables()
    names(stm)
    if not names.anonymous:
        return stm
    number = 0
    body = []
    for lit in stm.body:
        if lit.ast_type == ast.ASTType.Literal and lit.sign == ast.Sign.NoSign \
                and lit.atom.ast_type == ast.ASTType.SymbolicAtom:
            found = _Variables()
            found(lit)
            fresh: list[str] = []
            while len(fresh) < found.anonymous:
                number += 1
                if f"{ANONYMOUS_PREFIX}{number}" not in names.named:
                    fresh.append(f"{ANONYMOUS_PREFIX}{number}")
            if fresh:
                lit = _NameAnonymous(fresh)(lit)
        body.append(lit)
    return stm.update(body=body)


class _Variables(ast.Transformer):
    """The named variables of a node, and how many anonymous ones it has."""

    def __init__(self) -> None:
        self.named: set[str] = set()
        self.anonymous = 0

    def visit_Variable(self, node: Any) -> Any:
        if node.name == "_":
            self.anonymous += 1
        else:
            self.named.add(node.name)
        return node


@dataclass(frozen=True)
class Statement:
    """A statement of the rule base as the fast path needs it: its text, head and positive body, and
    the argument patterns of both (:data:`Pattern`, empty when not known: then only the predicates
    count)."""

    relpath: str
    text: str
    head: tuple[str, int] | None
    positive: tuple[tuple[str, int], ...]
    is_fact: bool
    head_args: Pattern | None = None
    body_args: tuple[Pattern, ...] | None = None

    @staticmethod
    def of(stm: ast.AST, relpath: str) -> Statement:
        if stm.ast_type == ast.ASTType.Comment:  # clingo 5.8 keeps comments as statements: no program text
            return Statement(relpath, "", None, (), False)
        if stm.ast_type != ast.ASTType.Rule:
            return Statement(relpath, str(stm), None, (), False)
        head = None
        head_args: Pattern = ()
        if stm.head.ast_type == ast.ASTType.Literal and stm.head.atom.ast_type == ast.ASTType.SymbolicAtom:
            sym = stm.head.atom.symbol
            if sym.ast_type == ast.ASTType.Function:
                head = (str(sym.name), len(sym.arguments))
                head_args = tuple(pattern_of(a) for a in sym.arguments)
        positive = []
        body_args = []
        for lit in stm.body:
            if lit.ast_type == ast.ASTType.Literal and lit.sign == ast.Sign.NoSign \
                    and lit.atom.ast_type == ast.ASTType.SymbolicAtom \
                    and lit.atom.symbol.ast_type == ast.ASTType.Function:
                positive.append((str(lit.atom.symbol.name), len(lit.atom.symbol.arguments)))
                body_args.append(tuple(pattern_of(a) for a in lit.atom.symbol.arguments))
        return Statement(relpath, str(named_anonymous(stm)), head, tuple(positive), not stm.body, head_args,
                         tuple(body_args))
