"""The statements of the rule base as the fast path sees them: text, head, positive body, and the
argument patterns the reachability analysis (:mod:`pyhelpers.engine.reach`) joins on."""

from __future__ import annotations

from dataclasses import dataclass

from clingo import SymbolType, ast

STATEMENT_FORMAT = 3
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
        return Statement(relpath, str(stm), head, tuple(positive), not stm.body, head_args, tuple(body_args))
