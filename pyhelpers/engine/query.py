"""The one query syntax: an ASP atom with ids as quoted strings, optional comparisons after a comma.

``max_rate("div-2024", R), R <= 1000`` — the scenario id (the first argument of every predicate) is
added by the checker. Used by ``explain --why-not`` and by later commands that take a goal.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

import clingo
from clingo import ast
from clingo.ast import ASTType

from pyhelpers.base.errors import QueryError
from pyhelpers.engine.program import Logic

_HINT = 'write an atom with quoted ids, e.g. max_rate("div-2024", R), R <= 1000'


@dataclass(frozen=True)
class Query:
    """A parsed goal: the atom pattern (scenario id inserted) and extra comparisons."""

    text: str
    pattern: Any
    tests: tuple[Any, ...]


def _has_arithmetic_on_symbols(node: Any) -> bool:
    if node.ast_type == ASTType.BinaryOperation:
        for side in (node.left, node.right):
            if side.ast_type == ASTType.Function or (
                side.ast_type == ASTType.SymbolicTerm and side.symbol.type == clingo.SymbolType.Function
            ):
                return True
            if _has_arithmetic_on_symbols(side):
                return True
    return False


def _unreadable(text: str) -> str | None:
    """The first character of ``text`` clingo's parser cannot be given: a NUL (the text would end there), or
    one that is not ASCII outside a quoted string (its lexer reports such a character cut in the middle of
    its UTF-8 bytes, which aborts the process)."""
    quoted = escaped = False
    for ch in text:
        if ch == "\x00":
            return ch
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch > "~":
            return ch
    return None


def parse_query(text: str, logic: Logic, sid: str = "s") -> Query:
    """Parse ``text``; raises :class:`QueryError` naming what was expected and found."""
    bad = _unreadable(text)
    if bad is not None:
        raise QueryError(f"query {text!r}: expected ASCII names, numbers and quoted ids, found {bad!r}; "
                         f"{_HINT}")
    statements: list[Any] = []
    try:
        ast.parse_string(f"__query :- {text}.", statements.append, logger=lambda code, msg: None)
    except RuntimeError:
        raise QueryError(f"query {text!r} is not ASP atom syntax: {_HINT}") from None
    rules = [s for s in statements if s.ast_type == ASTType.Rule]
    if len(rules) != 1 or not rules[0].body:
        raise QueryError(f"query {text!r}: expected one atom and optional comparisons; {_HINT}")
    body = list(rules[0].body)
    first = body[0]
    if first.ast_type != ASTType.Literal or first.sign != ast.Sign.NoSign or \
            first.atom.ast_type != ASTType.SymbolicAtom or first.atom.symbol.ast_type != ASTType.Function:
        raise QueryError(f"query {text!r}: expected an atom first, found {first}; {_HINT}")
    atom = first.atom.symbol
    for arg in atom.arguments:
        if _has_arithmetic_on_symbols(arg):
            plain = str(arg).replace(" ", "").strip("()")
            raise QueryError(f"query {text!r}: {plain} reads as a subtraction; quote ids: \"{plain}\"")
    pred = logic.predicate(atom.name, len(atom.arguments) + 1)
    if pred is None:
        names = sorted({f"{n}/{a - 1}" for (n, a) in logic.vocabulary})
        close = difflib.get_close_matches(f"{atom.name}/{len(atom.arguments)}", names, n=3)
        hint = (f"did you mean {', '.join(close)}?" if close
                else "see the vocabulary in logic/core/vocabulary*.lp and logic/<treaty>/vocabulary.lp")
        sig = f"{atom.name}/{len(atom.arguments)}"
        raise QueryError(f"query {text!r}: {sig} is not a predicate of the vocabulary ({hint})")
    tests = []
    for lit in body[1:]:
        if lit.ast_type != ASTType.Literal or lit.atom.ast_type != ASTType.Comparison:
            raise QueryError(f"query {text!r}: after the atom only comparisons are allowed, found {lit}")
        tests.append(lit.atom)
    sid_term = ast.SymbolicTerm(atom.location, clingo.String(sid))
    pattern = ast.Function(atom.location, atom.name, [sid_term, *atom.arguments], atom.external)
    return Query(text, pattern, tuple(tests))
