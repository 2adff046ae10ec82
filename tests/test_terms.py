"""Answer-set atoms read from their text (pyhelpers/terms.py) equal what clingo's symbol API gives."""

from __future__ import annotations

import random

import clingo

from pyhelpers.base import terms
from pyhelpers.base.terms import Term, Value, parse_atom, read_symbols, render_term


def _to_value(sym: clingo.Symbol) -> Value:
    if sym.type == clingo.SymbolType.String:
        return str(sym.string)
    if sym.type == clingo.SymbolType.Number:
        return int(sym.number)
    return Term(sym.name, tuple(_to_value(a) for a in sym.arguments))


def _random_symbol(rnd: random.Random, depth: int = 0) -> clingo.Symbol:
    roll = rnd.random()
    if roll < 0.3:
        alphabet = 'ab "\\\n()",.%:-ção'
        return clingo.String("".join(rnd.choice(alphabet) for _ in range(rnd.randrange(6))))
    if roll < 0.5:
        return clingo.Number(rnd.randrange(-2**31, 2**31))
    args = [_random_symbol(rnd, depth + 1) for _ in range(rnd.randrange(4 if depth < 3 else 1))]
    return clingo.Function(rnd.choice(["a", "br", "holding", "x_1", "f'"]), args)


def test_parse_matches_the_symbol_api_on_random_terms() -> None:
    rnd = random.Random(5)
    for _ in range(3000):
        sym = clingo.Function("atom", [_random_symbol(rnd) for _ in range(rnd.randrange(1, 5))])
        assert parse_atom(str(sym)) == _to_value(sym), str(sym)
        assert render_term(parse_atom(str(sym))) == render_term(sym)


def test_reading_symbols_equals_parsing_their_text() -> None:
    """read_symbols (the batch's reader: clingo's symbol API, each distinct argument once) gives what
    parse_atom gives of the atoms' text, repeated arguments, tuples and #inf/#sup included."""
    rnd = random.Random(7)
    shared = [_random_symbol(rnd) for _ in range(5)]
    atoms = [clingo.Function("atom", [rnd.choice(shared) if rnd.random() < 0.5 else _random_symbol(rnd)
                                      for _ in range(rnd.randrange(0, 5))]) for _ in range(3000)]
    atoms += [clingo.Function("p", [clingo.Function("", [clingo.Number(1), clingo.Function("a")]), clingo.Infimum,
                                    clingo.Supremum])]
    assert read_symbols(atoms) == [parse_atom(str(sym)) for sym in atoms]
    negated = [clingo.Function("q", [clingo.Function("n", [clingo.String("x")], False), clingo.Number(-4)])]
    assert terms._READ is not None  # this clingo's C functions are read directly
    assert terms._READ(atoms + negated) == terms._read_public(atoms + negated) == [parse_atom(str(sym)) for sym
                                                                                   in atoms + negated]
    ctl = clingo.Control()  # a model's symbols: read from their C array
    ctl.add("base", [], 'p("a", 1, f(b, "c")). q. p(-2, #inf). n(-f(x)).')
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as handle:
        shown = next(iter(handle)).symbols(shown=True)
    assert read_symbols(shown) == terms._read_public(list(shown)) == [parse_atom(str(sym)) for sym in shown]
    assert len(shown) == 4


def test_tuples_and_constants() -> None:
    assert parse_atom('p("s",(1,a),b)') == Term("p", ("s", Term("", (1, Term("a"))), Term("b")))
    assert render_term(Term("holding", ("lusoinvest", "alfa"))) == "holding(lusoinvest, alfa)"


def test_symbol_keys_are_equal_exactly_where_symbols_are() -> None:
    """symbol_keys of a model's symbols (read from its C array) give each symbol the key symbol_key gives the
    same symbol made apart, and distinct symbols distinct keys."""
    rnd = random.Random(11)
    made = [clingo.Function("atom", [_random_symbol(rnd) for _ in range(rnd.randrange(0, 4))]) for _ in range(300)]
    ctl = clingo.Control()
    ctl.add("base", [], "\n".join(f"{sym}." for sym in made))
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as handle:
        shown = next(iter(handle)).symbols(shown=True)
    keys = terms.symbol_keys(shown)
    assert terms._KEYS is not None  # this clingo's C values are read directly
    assert keys == [terms.symbol_key(sym) for sym in shown]
    by_key = dict(zip(keys, map(str, shown), strict=True))
    assert {terms.symbol_key(sym) for sym in made} == set(keys)
    assert all(by_key[terms.symbol_key(sym)] == str(sym) for sym in made)
    assert len(set(keys)) == len({str(sym) for sym in made})
