"""Terms of an answer set as plain Python values.

Reading clingo's symbols through its C API costs a call per property (name, arguments, type ...), which
dominates the cost of turning an answer set into results. Each shown atom is therefore read once, as
text, and parsed here: strings become ``str``, integers ``int``, constants and function terms
:class:`Term`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple, TypeAlias

import clingo


class Term(NamedTuple):
    """A function term or constant of an answer set, as plain Python (``holding(lusoinvest, alfa)``);
    strings are ``str``, integers ``int``. Reading clingo's symbols through its C API costs a call per
    property, so each shown atom is converted once, from its text."""

    name: str
    args: tuple[Value, ...] = ()


Value: TypeAlias = str | int | Term
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|-?\d+|[A-Za-z_\'][A-Za-z0-9_\']*|[(),]')
_UNESCAPE = {"\\\\": "\\", '\\"': '"', "\\n": "\n"}


def parse_atom(text: str) -> Term:
    """``source_cap("s","d",xx,1000,"xx-yy 10(2)(a)")`` → Term('source_cap', ('s', 'd', Term('xx'), 1000, ...))."""
    tokens = _TOKEN.findall(text)
    stack: list[list[Value]] = [[]]
    names: list[str] = []
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        c = tok[0]
        if c == '"':
            body = tok[1:-1]
            stack[-1].append(_ESCAPE.sub(_unescape, body) if "\\" in body else body)
        elif c == ",":
            pass
        elif c == ")":
            args = stack.pop()
            stack[-1].append(Term(names.pop(), tuple(args)))
        elif c == "(":  # a tuple term
            names.append("")
            stack.append([])
        elif c == "-" or c.isdigit():
            stack[-1].append(int(tok))
        elif i + 1 < n and tokens[i + 1] == "(":
            names.append(tok)
            stack.append([])
            i += 1
        else:
            stack[-1].append(Term(tok))
        i += 1
    out = stack[0][0]
    assert isinstance(out, Term) and len(stack) == 1
    return out


_STRING, _NUMBER, _FUNCTION = clingo.SymbolType.String, clingo.SymbolType.Number, clingo.SymbolType.Function


def read_symbols(symbols: Iterable[clingo.Symbol]) -> list[Term]:
    """The atoms of an answer set as :class:`Term` (equal to :func:`parse_atom` of their text), read
    through clingo's symbol API with each distinct argument read once (arguments repeat across the
    atoms of one answer: an item's id, provisions, States), which beats printing and tokenizing atoms
    with long arguments (a batch's placeholder ids)."""
    seen: dict[clingo.Symbol, Value] = {}

    def value(sym: clingo.Symbol) -> Value:
        found = seen.get(sym)
        if found is None:
            kind = sym.type
            if kind is _STRING:
                found = sym.string
            elif kind is _NUMBER:
                found = sym.number
            elif kind is _FUNCTION and sym.positive:
                found = Term(sym.name, tuple([value(a) for a in sym.arguments]))
            else:  # #inf, #sup, a negated term: as the text reader reads them
                found = parse_atom(f"x({sym})").args[0]
            seen[sym] = found
        return found

    return [Term(sym.name, tuple([value(a) for a in sym.arguments])) for sym in symbols]


_ESCAPE = re.compile(r"\\[\\\"n]")


def _unescape(m: re.Match[str]) -> str:
    return _UNESCAPE[m.group(0)]


def render_term(value: Value | clingo.Symbol) -> str:
    """A term as users read it: strings without quotes, ``holding(lusoinvest, alfa)``."""
    if isinstance(value, clingo.Symbol):
        if value.type == clingo.SymbolType.String:
            return str(value.string)
        if value.type == clingo.SymbolType.Function and value.arguments:
            return f"{value.name}({', '.join(render_term(a) for a in value.arguments)})"
        return str(value)
    if isinstance(value, Term):
        return f"{value.name}({', '.join(render_term(a) for a in value.args)})" if value.args else value.name
    return str(value)
