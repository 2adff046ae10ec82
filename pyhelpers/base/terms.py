"""Terms of an answer set as plain Python values.

Reading clingo's symbols through its C API costs a call per property (name, arguments, type ...), which
dominates the cost of turning an answer set into results. Each shown atom is therefore read once, as
text, and parsed here: strings become ``str``, integers ``int``, constants and function terms
:class:`Term`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, NamedTuple, TypeAlias, TypeVar

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


@lru_cache(maxsize=4096)
def parse_atom(text: str) -> Term:
    """``source_cap("s","d",xx,1000,"xx-yy 10(2)(a)")`` → Term('source_cap', ('s', 'd', Term('xx'), 1000, ...)).

    Remembered for the last 4,096 texts (a term is immutable; at most ~5 MB): the answers to the variants
    of one scenario that completion and alternatives solve repeat most of their atoms (checking 40 shipped
    scenarios with unknowns parses 40,361 atoms, 10,273 distinct; a larger cache finds no more)."""
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
    with long arguments (a batch's placeholder ids). Through clingo's C functions themselves where
    :func:`_c_reader` found them (a fifth of the cost: no Python object per property read)."""
    if _READ is not None:
        return _READ(symbols)
    return _read_public(symbols)


def _read_public(symbols: Iterable[clingo.Symbol]) -> list[Term]:
    """:func:`read_symbols` through clingo's public symbol API."""
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


def _c_values(symbols: Iterable[clingo.Symbol], unpack: Callable[[Any, int], list[Any]]) -> list[Any]:
    """The symbols' C values (``Symbol._rep``; ``unpack``: clingo's ``ffi.unpack``): of a model's symbols, from
    its C array at once (no Symbol made per atom)."""
    array = getattr(symbols, "_p_symbols", None)
    if array is not None:
        try:
            size = len(array)
            return unpack(array, size) if size else []
        except TypeError:  # pragma: no cover - another clingo
            pass
    return [sym._rep for sym in symbols]


def _c_reader() -> Callable[[Iterable[clingo.Symbol]], list[Term]] | None:
    """:func:`_read_public` through the C functions clingo's own :class:`clingo.Symbol` calls (``clingo._internal``'s
    ``lib`` and ``ffi``): each symbol is its C value (``Symbol._rep``, one per distinct symbol: clingo interns
    them, and ``Symbol.__eq__`` compares those values), read without a Python object per property, an
    enumeration per type or a new C buffer per call. None where clingo has no such functions, or where the
    reader does not give :func:`_read_public`'s terms on a probe (another clingo): the public API then."""
    try:
        from clingo._internal import _ffi, _lib  # type: ignore[attr-defined]

        c_type, c_string, c_name = _lib.clingo_symbol_type, _lib.clingo_symbol_string, _lib.clingo_symbol_name
        c_number, c_positive = _lib.clingo_symbol_number, _lib.clingo_symbol_is_positive
        c_arguments = _lib.clingo_symbol_arguments
        string_type, number_type = int(_lib.clingo_symbol_type_string), int(_lib.clingo_symbol_type_number)
        function_type = int(_lib.clingo_symbol_type_function)
        p_char, p_int, p_bool = _ffi.new("char**"), _ffi.new("int*"), _ffi.new("bool*")
        p_args, p_size = _ffi.new("clingo_symbol_t**"), _ffi.new("size_t*")
        text, unpack = _ffi.string, _ffi.unpack
        symbol_of = clingo.Symbol
    except (ImportError, AttributeError, TypeError):  # pragma: no cover - another clingo
        return None

    def arguments(rep: int) -> list[int]:
        if not c_arguments(rep, p_args, p_size):
            raise RuntimeError("clingo_symbol_arguments failed")
        size = p_size[0]
        return unpack(p_args[0], size) if size else []

    def name(rep: int) -> str:
        if not c_name(rep, p_char):
            raise RuntimeError("clingo_symbol_name failed")
        return text(p_char[0]).decode()  # type: ignore[no-any-return]

    def read(symbols: Iterable[clingo.Symbol]) -> list[Term]:
        seen: dict[int, Value] = {}

        def value(rep: int) -> Value:
            found = seen.get(rep)
            if found is None:
                kind = c_type(rep)
                if kind == string_type:
                    if not c_string(rep, p_char):
                        raise RuntimeError("clingo_symbol_string failed")
                    found = text(p_char[0]).decode()
                elif kind == number_type:
                    if not c_number(rep, p_int):
                        raise RuntimeError("clingo_symbol_number failed")
                    found = int(p_int[0])
                elif kind == function_type and c_positive(rep, p_bool) and p_bool[0]:
                    found = Term(name(rep), tuple([value(a) for a in arguments(rep)]))
                else:  # #inf, #sup, a negated term: as the text reader reads them
                    found = parse_atom(f"x({symbol_of(rep)})").args[0]  # type: ignore[no-untyped-call]
                seen[rep] = found
            return found

        return [Term(name(rep), tuple([value(a) for a in arguments(rep)])) for rep in _reps(symbols)]

    def _reps(symbols: Iterable[clingo.Symbol]) -> list[int]:
        return _c_values(symbols, unpack)

    probe = [clingo.Function("p", [clingo.String('s"\\\n'), clingo.Number(-3), clingo.Function("c"),
                                   clingo.Function("", [clingo.Infimum, clingo.Supremum]),
                                   clingo.Function("f", [clingo.String("é"), clingo.Number(2)], False),
                                   clingo.Function("g", [clingo.Function("h", [clingo.String("x")])])]),
             clingo.Function("q"), clingo.Function("p", [clingo.Function("c")])]
    return _verified(read, _read_public, probe)


_R = TypeVar("_R")


def _verified(read: Callable[[Iterable[clingo.Symbol]], list[_R]],
              public: Callable[[Iterable[clingo.Symbol]], list[_R]],
              probe: list[clingo.Symbol]) -> Callable[[Iterable[clingo.Symbol]], list[_R]] | None:
    """``read`` where it gives what the public API gives (``public``) on ``probe``; None where it does not, or fails
    (another clingo: its internals differ)."""
    try:
        if read(probe) != public(probe):  # pragma: no cover - another clingo
            return None
    except (AttributeError, TypeError, RuntimeError):  # pragma: no cover - another clingo
        return None
    return read


_READ = _c_reader()


def _c_keys() -> Callable[[Iterable[clingo.Symbol]], list[object]] | None:
    """:func:`symbol_keys` through clingo's C values (as :func:`_c_reader`): None where clingo has none, or where
    two equal symbols made apart do not have one value (another clingo)."""
    try:
        from clingo._internal import _ffi  # type: ignore[attr-defined]

        unpack = _ffi.unpack
        made = [clingo.Function("p", [clingo.String("x"), clingo.Number(1)]) for _ in range(2)]
        if made[0]._rep != made[1]._rep or made[0]._rep == clingo.Function("p")._rep:
            return None  # pragma: no cover - another clingo
    except (ImportError, AttributeError, TypeError):  # pragma: no cover - another clingo
        return None

    def keys(symbols: Iterable[clingo.Symbol]) -> list[object]:
        return _c_values(symbols, unpack)

    return keys


_KEYS = _c_keys()


def symbol_keys(symbols: Iterable[clingo.Symbol]) -> list[object]:
    """A key for each of ``symbols`` (a model's ``symbols()``), equal where the symbols are equal and
    :func:`symbol_key` gives it: each symbol's C value where clingo's internals give it (a model's symbols read
    from its C array at once, without a :class:`clingo.Symbol` made and hashed per atom), else the symbol."""
    return _KEYS(symbols) if _KEYS is not None else list(symbols)


def symbol_key(symbol: clingo.Symbol) -> object:
    """The key :func:`symbol_keys` gives ``symbol``."""
    return symbol._rep if _KEYS is not None else symbol


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


def _signatures_public(symbols: Iterable[clingo.Symbol]) -> list[tuple[str, int]]:
    return [(sym.name, len(sym.arguments)) for sym in symbols]


def _c_signatures() -> Callable[[Iterable[clingo.Symbol]], list[tuple[str, int]]] | None:
    """:func:`symbol_signatures` through clingo's C functions (as :func:`_c_reader`): each name read once per
    distinct C string and each arity without a :class:`clingo.Symbol` made per argument. None where clingo has no
    such functions, or where it does not give :func:`_signatures_public`'s pairs on a probe (another clingo)."""
    try:
        from clingo._internal import _ffi, _lib  # type: ignore[attr-defined]

        c_name, c_arguments = _lib.clingo_symbol_name, _lib.clingo_symbol_arguments
        p_char, p_args, p_size = _ffi.new("char**"), _ffi.new("clingo_symbol_t**"), _ffi.new("size_t*")
        text, unpack = _ffi.string, _ffi.unpack
    except (ImportError, AttributeError, TypeError):  # pragma: no cover - another clingo
        return None

    def read(symbols: Iterable[clingo.Symbol]) -> list[tuple[str, int]]:
        out: list[tuple[str, int]] = []
        for rep in _c_values(symbols, unpack):
            if not c_name(rep, p_char) or not c_arguments(rep, p_args, p_size):
                raise RuntimeError("clingo_symbol_name or clingo_symbol_arguments failed")
            out.append((text(p_char[0]).decode(), p_size[0]))
        return out

    probe = [clingo.Function("p", [clingo.String("x"), clingo.Number(-3), clingo.Function("c")]),
             clingo.Function("q"), clingo.Function("é", [clingo.Function("", [clingo.Number(1)])])]
    return _verified(read, _signatures_public, probe)


_SIGNATURES = _c_signatures()


def symbol_signatures(symbols: list[clingo.Symbol]) -> list[tuple[str, int]]:
    """The name and arity of each of ``symbols`` (function symbols: the atoms of an answer set), in their order:
    through clingo's C functions where :func:`_c_signatures` found them (no Python object per argument), else
    through the public API."""
    return _SIGNATURES(symbols) if _SIGNATURES is not None else _signatures_public(symbols)
