"""The minimiser of the conditions of an alternative (pyhelpers/engine/cover.py): every cover is exact
(each ON combination covered, no OFF one), prime, deterministic, and short on the shapes the law gives."""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyhelpers.engine.alternatives import MAX_CONJUNCTIONS, _Consequences, _holds_if_any
from pyhelpers.engine.cover import Cube, cover, exact
from pyhelpers.engine.results import Alternative, Condition
from pyhelpers.output.render import _factored, either_text
from pyhelpers.scenario.openfacts import OpenFact

Combo = tuple[int, ...]


def split(shape: Sequence[int], holds: Callable[..., bool]) -> tuple[list[Combo], list[Combo]]:
    combos = list(itertools.product(*(range(n) for n in shape)))
    return [c for c in combos if holds(*c)], [c for c in combos if not holds(*c)]


def inside(combo: Combo, cube: Cube) -> bool:
    return all(v in values for v, values in zip(combo, cube, strict=True))


# the salary of exam44 E1: until (0: 183 days or fewer, 1: more), borne_by (0 filial-rio, a permanent
# establishment; 1 mesa-recife, not one; 2 escritorio-bh, open; 3 none), escritorio-bh a PE (0 true, 1 false)
SHAPE = (2, 4, 2)


def may_tax(until: int, borne_by: int, pe: int) -> bool:
    return until == 1 or borne_by == 0 or (borne_by == 2 and pe == 0)


def test_the_conditions_a_tax_professional_writes() -> None:
    on, off = split(SHAPE, may_tax)
    cubes = cover(SHAPE, on, off, ordered=(True, False, False))
    assert exact(cubes, SHAPE, on, off)
    assert cubes == ((frozenset({1}), frozenset(range(4)), frozenset(range(2))),  # the stay ends later
                     (frozenset(range(2)), frozenset({0}), frozenset(range(2))),  # filial-rio bears it
                     (frozenset(range(2)), frozenset({2}), frozenset({0})))  # escritorio-bh, a PE, bears it
    off_cubes = cover(SHAPE, off, on, ordered=(True, False, False))
    assert exact(off_cubes, SHAPE, off, on)
    assert off_cubes == ((frozenset({0}), frozenset({1, 3}), frozenset(range(2))),
                         (frozenset({0}), frozenset({2}), frozenset({1})))


def test_a_listed_fact_is_narrowed_to_the_values_no_other_conjunction_covers() -> None:
    """Prime, escritorio-bh's cube would also allow filial-rio (which bears it as a PE whatever bh is):
    "borne by escritorio-bh and it is a PE", not "by one of filial-rio, escritorio-bh and ..."."""
    on, off = split(SHAPE, may_tax)
    cubes = cover(SHAPE, on, off)
    assert (frozenset(range(2)), frozenset({2}), frozenset({0})) in cubes
    assert (frozenset(range(2)), frozenset({0, 2}), frozenset({0})) not in cubes


def test_an_ordered_fact_keeps_its_whole_run() -> None:
    """It holds from the fourth day on, or from the second with the other fact true: "the second or later
    and true", not "the second or the third and true" (the run, not the days the other misses)."""
    shape = (5, 2)
    on, off = split(shape, lambda d, b: d >= 3 or (d >= 1 and b == 1))
    cubes = cover(shape, on, off, ordered=(True, False))
    assert exact(cubes, shape, on, off)
    assert set(cubes) == {(frozenset({3, 4}), frozenset({0, 1})), (frozenset({1, 2, 3, 4}), frozenset({1}))}


def test_an_ordered_fact_keeps_its_interval() -> None:
    """A date's alternatives: it holds from the third on, or on the first with the other fact true."""
    shape = (5, 2)
    on, off = split(shape, lambda d, b: d >= 2 or (d == 0 and b == 1))
    cubes = cover(shape, on, off, ordered=(True, False))
    assert exact(cubes, shape, on, off)
    assert cubes[0] == (frozenset({2, 3, 4}), frozenset({0, 1}))
    assert (frozenset({0}), frozenset({1})) in cubes and len(cubes) == 2


def test_nothing_on_gives_no_conjunction_and_everything_on_one_without_conditions() -> None:
    on, off = split((2, 3), lambda a, b: False)
    assert cover((2, 3), on, off) == ()
    on, off = split((2, 3), lambda a, b: True)
    assert cover((2, 3), on, off) == ((frozenset({0, 1}), frozenset({0, 1, 2})),)


def test_combinations_neither_on_nor_off_may_go_either_way() -> None:
    """A combination with no answer set (none where each has one) may widen a conjunction."""
    cubes = cover((2, 2), on=[(0, 0), (1, 1)], off=[(0, 1)])
    assert exact(cubes, (2, 2), [(0, 0), (1, 1)], [(0, 1)])
    assert cubes == ((frozenset({0, 1}), frozenset({0})), (frozenset({1}), frozenset({0, 1})))


def test_a_combination_both_on_and_off_or_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="both on and off"):
        cover((2,), on=[(0,)], off=[(0,)])
    with pytest.raises(ValueError, match="out of range"):
        cover((2,), on=[(2,)], off=[])


def test_the_order_of_the_combinations_given_changes_nothing() -> None:
    on, off = split(SHAPE, may_tax)
    assert cover(SHAPE, on, off) == cover(SHAPE, list(reversed(on)), off[::-1])


def test_six_facts_are_expanded_in_each_rotation() -> None:
    """Beyond four facts not every order is tried: a parity-free function of six still comes out exact."""
    shape = (2, 3, 2, 2, 3, 2)
    on, off = split(shape, lambda a, b, c, d, e, f: (a and b == 2) or (c and not d) or (e == 1 and f))
    cubes = cover(shape, on, off)
    assert exact(cubes, shape, on, off)
    assert len(cubes) == 3


@st.composite
def functions(draw: st.DrawFn) -> tuple[tuple[int, ...], list[Combo], list[Combo]]:
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=5)))
    combos = list(itertools.product(*(range(n) for n in shape)))
    marks = draw(st.lists(st.sampled_from("+-?"), min_size=len(combos), max_size=len(combos)))
    on = [c for c, m in zip(combos, marks, strict=True) if m == "+"]
    off = [c for c, m in zip(combos, marks, strict=True) if m == "-"]
    return shape, on, off


@settings(max_examples=150, deadline=None, derandomize=True)
@given(functions())
def test_every_cover_is_exact_prime_irredundant_and_deterministic(
        case: tuple[tuple[int, ...], list[Combo], list[Combo]]) -> None:
    shape, on, off = case
    ordered = tuple(i % 2 == 0 for i in range(len(shape)))
    cubes = cover(shape, on, off, ordered)
    assert exact(cubes, shape, on, off)
    assert cover(shape, on, off, ordered) == cubes
    assert len(cubes) <= len(on)
    for i, cube in enumerate(cubes):
        others = [c for j, c in enumerate(cubes) if j != i]
        assert any(not any(inside(c, o) for o in others) for c in on if inside(c, cube)), "redundant"
        assert all(values for values in cube)
    assert math.prod(shape) >= len(on) + len(off)


def _open(name: str, values: tuple[object, ...], ranged: str = "") -> OpenFact:
    return OpenFact(("income", 0, name), name, "unknown", values, ranged=ranged)


def _consequences(facts: Sequence[OpenFact], holds: Callable[..., bool]) -> _Consequences:
    models = [({f: v for f, v in enumerate(combo)}, frozenset({"x"} if holds(*combo) else set()))
              for combo in itertools.product(*(range(len(f.values)) for f in facts))]
    return _Consequences(frozenset({"x"}), frozenset(), {}, True, models=models)


def test_the_conditions_are_named_fact_by_fact_in_the_order_the_conjunctions_first_name_them() -> None:
    until = _open("until", ("2024-08-20", "2024-08-31"), ranged="date")
    bh = _open("bh_is_pe", (True, False))
    borne = _open("borne_by", ("filial-rio", "mesa-recife", "escritorio-bh", None))
    facts = (until, bh, borne)  # the office's status before the bearer, as the scenario opens them
    either = _holds_if_any("x", facts, _consequences(facts, lambda u, p, b: u or b == 0 or (b == 2 and p == 0)))
    assert [" and ".join(map(str, c)) for c in either] == [
        "until is 2024-08-31", "borne_by is filial-rio", "borne_by is escritorio-bh and bh_is_pe is true"]


def test_no_conjunctions_where_the_combinations_were_not_all_solved_or_too_many_are_needed() -> None:
    facts = (_open("a", (True, False)), _open("b", (True, False)))
    cons = _consequences(facts, lambda a, b: a != b)
    assert len(_holds_if_any("x", facts, cons)) == 2
    assert _holds_if_any("x", facts, dataclasses.replace(cons, complete=False)) == ()
    assert _holds_if_any("x", facts, dataclasses.replace(cons, models=None)) == ()
    parity = tuple(_open(f"f{i}", (True, False)) for i in range(4))  # odd parity: 8 conjunctions of 4 facts
    assert len(_holds_if_any("x", parity, _consequences(parity, lambda *c: sum(c) % 2 == 1))) == MAX_CONJUNCTIONS
    parity += (_open("f4", (True, False)),)  # 16
    assert _holds_if_any("x", parity, _consequences(parity, lambda *c: sum(c) % 2 == 1)) == ()


def test_the_facts_a_condition_names_include_those_of_its_conjunctions_alone() -> None:
    """``a != b`` (exclusive or): each fact takes every value where it holds, so ``holds_if`` names neither;
    its conjunctions name both, and the readers of the condition (which facts decide an item, by which
    provisions) read them there (:meth:`~pyhelpers.engine.results.Alternative.condition_facts`)."""
    facts = (_open("a", (True, False)), _open("b", (True, False)))
    either = _holds_if_any("x", facts, _consequences(facts, lambda a, b: a != b))
    alone = Alternative("br", "may tax", (), (), exact=False, holds_if_any=either)
    assert alone.condition_facts() == ("a", "b")
    narrowed = dataclasses.replace(alone, holds_if=(Condition("c", "one of 1, 2"), Condition("a", "true")))
    assert narrowed.condition_facts() == ("c", "a", "b")  # each once, in the order first named
    assert Alternative("br", "exempt", (), (), otherwise=True).condition_facts() == ()


# ------------------------------------------------------------------ the condition in words, factored ---
def _c(fact: str, values: str) -> Condition:
    return Condition(fact, values)


KIND_RELATED, KIND_OTHER = _c("kind", "related company"), _c("kind", "other fixed place")
NOT_FIXED, NO_BUSINESS = _c("fixed", "false"), _c("business_carried_on", "false")


def test_conjunctions_that_share_a_condition_say_it_once() -> None:
    """'kind is other fixed place and (fixed is false, or business_carried_on is false)', not the kind twice."""
    text = either_text([(KIND_RELATED,), (KIND_OTHER, NOT_FIXED), (KIND_OTHER, NO_BUSINESS)], "en")
    assert text == ("kind is related company, or if kind is other fixed place and (fixed is false, "
                    "or business_carried_on is false)")
    assert either_text([(KIND_OTHER, NOT_FIXED), (KIND_OTHER, NO_BUSINESS)], "pt") == (
        "kind for other fixed place e (fixed for não, ou business_carried_on for não)")


def test_conjunctions_that_share_nothing_stay_apart() -> None:
    assert either_text([(KIND_RELATED,), (NOT_FIXED, NO_BUSINESS)], "en") == (
        "kind is related company, or if fixed is false and business_carried_on is false")


@given(st.lists(st.lists(st.sampled_from([KIND_RELATED, KIND_OTHER, NOT_FIXED, NO_BUSINESS,
                                          _c("until", "2024-03-15 or later")]),
                         min_size=1, max_size=3, unique=True), min_size=1, max_size=5,
                unique_by=lambda c: tuple(sorted(map(str, c)))))
@settings(max_examples=200, deadline=None)
def test_factoring_keeps_every_conjunction(conjunctions: list[list[Condition]]) -> None:
    """Each group's shared conditions with each member's rest give back exactly the conjunctions, each once."""
    back = [sorted(map(str, [*common, *rest])) for common, rests in _factored(conjunctions)
            for rest in (rests or [[]])]
    assert sorted(back) == sorted(sorted(map(str, c)) for c in conjunctions)
