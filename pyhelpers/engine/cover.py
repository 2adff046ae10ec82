"""Exact, short conditions over open facts: two-level minimisation of a multi-valued function.

Where every combination of the values of the open facts was solved (:mod:`.alternatives`), a conclusion
that holds in some combinations but in no single conjunction of one condition per fact is described by a
disjunction of such conjunctions (*cubes*). The combinations where it holds are ON, those where it does
not are OFF, the rest (none where each combination has an answer set) may go either way. :func:`cover`:

* **expand**: each ON combination not yet inside a cube found becomes a cube of one value per fact,
  then fact by fact the largest set of values that keeps the cube clear of OFF (a fact every value of
  which is allowed drops out of the conjunction); the facts are taken in each of a few orders (every
  order up to four facts, else each rotation) and the cube covering the most ON combinations is kept
  (then the fewest facts named, then the first in order). Such a cube is prime: no fact's set can grow;
* **cover**: greedily the cube that covers the most ON combinations not yet covered (then the fewest
  facts named, then the smallest values), until every ON combination is covered;
* **irredundant**: a cube whose ON combinations the others cover is dropped (the last chosen first);
* **reduce**: in each cube (in order), a fact it names whose values are listed keeps only the values of
  the ON combinations no other cube covers ("borne by escritorio-bh", not "by one of filial-rio,
  escritorio-bh" where filial-rio bears it on its own); one whose values are ``ordered`` (dates, amounts)
  keeps the runs of consecutive values that hold one of them (an interval is not cut in pieces); a fact
  it does not name stays unnamed.

Every ON combination is covered and no OFF one, so the disjunction is exact; the result depends only on
its arguments (no set iteration order, no clock). Not minimal in general (that is NP-hard), short in
practice: the conditions of a tax outcome are few."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

Cube = tuple[frozenset[int], ...]
"""Per open fact (in order), the indices of the values a conjunction allows (all of them: no condition)."""

_PERMUTED_UP_TO = 4
"""Up to this many facts every order of expansion is tried; beyond, each rotation of the facts' order."""


class _Space:
    """The combinations of ``shape`` (the number of values of each fact) as bits of an integer: a
    combination's bit is its index in mixed radix, the first fact most significant."""

    def __init__(self, shape: Sequence[int]) -> None:
        self.shape = tuple(shape)
        self.size = math.prod(self.shape)
        self.masks: list[list[int]] = [[0] * n for n in self.shape]  # (fact, value) -> combinations
        for n, combo in enumerate(itertools.product(*(range(k) for k in self.shape))):
            for f, v in enumerate(combo):
                self.masks[f][v] |= 1 << n

    def index(self, combo: Sequence[int]) -> int:
        n = 0
        for k, v in zip(self.shape, combo, strict=True):
            if not 0 <= v < k:
                raise ValueError(f"value {v} out of range 0..{k - 1}")
            n = n * k + v
        return n

    def of(self, combos: Iterable[Sequence[int]]) -> int:
        out = 0
        for combo in combos:
            out |= 1 << self.index(combo)
        return out

    def values_mask(self, f: int, values: Iterable[int]) -> int:
        out = 0
        for v in values:
            out |= self.masks[f][v]
        return out

    def mask(self, cube: Cube) -> int:
        out = (1 << self.size) - 1
        for f, values in enumerate(cube):
            out &= self.values_mask(f, values)
        return out

    def combo(self, n: int) -> tuple[int, ...]:
        out = []
        for k in reversed(self.shape):
            n, v = divmod(n, k)
            out.append(v)
        return tuple(reversed(out))


def _named(cube: Cube, shape: Sequence[int]) -> int:
    """How many facts the cube names (those not allowed every value)."""
    return sum(len(values) < k for values, k in zip(cube, shape, strict=True))


def _key(cube: Cube) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(sorted(values)) for values in cube)


def _orders(facts: int) -> list[tuple[int, ...]]:
    if facts <= _PERMUTED_UP_TO:
        return list(itertools.permutations(range(facts)))
    return [tuple((i + r) % facts for i in range(facts)) for r in range(facts)]


def _expand(space: _Space, combo: tuple[int, ...], off: int, order: Sequence[int]) -> Cube:
    """The cube of ``combo`` grown fact by fact, in ``order``, to the largest set of values clear of ``off``."""
    sets = [space.masks[f][v] for f, v in enumerate(combo)]
    values: list[frozenset[int]] = [frozenset({v}) for v in combo]
    everything = (1 << space.size) - 1
    for f in order:
        rest = everything
        for g, m in enumerate(sets):
            if g != f:
                rest &= m
        rest &= off
        allowed = frozenset(v for v in range(space.shape[f]) if not rest & space.masks[f][v])
        values[f] = allowed
        sets[f] = space.values_mask(f, allowed)
    return tuple(values)


def cover(shape: Sequence[int], on: Iterable[Sequence[int]], off: Iterable[Sequence[int]],
          ordered: Sequence[bool] = ()) -> tuple[Cube, ...]:
    """A short disjunction of cubes over facts of ``shape`` values each that covers every combination of
    ``on`` and none of ``off`` (combinations as tuples of value indices; those in neither may go either
    way). ``ordered``: per fact, whether its values are an ordered scale (kept as intervals). Empty when
    ``on`` is. Raises ValueError when a combination is in both or out of range."""
    space = _Space(shape)
    on_mask, off_mask = space.of(on), space.of(off)
    if on_mask & off_mask:
        raise ValueError(f"combination {space.combo((on_mask & off_mask).bit_length() - 1)} is both on and off")
    orders = _orders(len(space.shape))
    candidates: dict[Cube, int] = {}  # each prime cube found, with the ON combinations it covers
    reached = 0
    rest = on_mask
    while rest:
        n = (rest & -rest).bit_length() - 1  # the lowest ON combination no cube found covers yet
        combo = space.combo(n)
        best: tuple[int, int, int, Cube] | None = None
        for rank, order in enumerate(orders):
            cube = _expand(space, combo, off_mask, order)
            covered = space.mask(cube) & on_mask
            score = (-covered.bit_count(), _named(cube, space.shape), rank, cube)
            if best is None or score[:3] < best[:3]:
                best = score
        assert best is not None
        cube = best[3]
        candidates.setdefault(cube, space.mask(cube) & on_mask)
        reached |= candidates[cube]
        rest = on_mask & ~reached
    chosen: list[Cube] = []
    uncovered = on_mask
    while uncovered:
        cube = min(candidates, key=lambda c: (-(candidates[c] & uncovered).bit_count(), _named(c, space.shape),
                                              _key(c)))
        chosen.append(cube)
        uncovered &= ~candidates[cube]
    for cube in reversed(list(chosen)):  # irredundant: drop a cube the others cover
        others = 0
        for c in chosen:
            if c != cube:
                others |= candidates[c]
        if candidates[cube] & ~others == 0:
            chosen.remove(cube)
    return _reduced(space, chosen, on_mask, tuple(ordered) + (False,) * (len(space.shape) - len(ordered)))


def _reduced(space: _Space, chosen: list[Cube], on_mask: int, ordered: Sequence[bool]) -> tuple[Cube, ...]:
    """Each cube of ``chosen`` with the listed facts it names narrowed to the values of the ON combinations
    no other cube covers (in order, each against the others as already narrowed)."""
    cubes = list(chosen)
    for i, cube in enumerate(cubes):
        others = 0
        for j, c in enumerate(cubes):
            if j != i:
                others |= space.mask(c)
        own = space.mask(cube) & on_mask & ~others
        seen: list[set[int]] = [set() for _ in space.shape]
        while own:
            low = own & -own
            for f, v in enumerate(space.combo(low.bit_length() - 1)):
                seen[f].add(v)
            own ^= low
        cubes[i] = tuple(values if len(values) == space.shape[f] or not seen[f]
                         else frozenset(v for run in _runs(values) if seen[f] & run for v in run) if ordered[f]
                         else frozenset(seen[f]) for f, values in enumerate(cube))
    return tuple(cubes)


def _runs(values: frozenset[int]) -> list[set[int]]:
    """The values as runs of consecutive ones: {0, 2, 3} gives [{0}, {2, 3}]."""
    runs: list[set[int]] = []
    for v in sorted(values):
        if runs and v - 1 in runs[-1]:
            runs[-1].add(v)
        else:
            runs.append({v})
    return runs


def exact(cubes: Sequence[Cube], shape: Sequence[int], on: Iterable[Sequence[int]],
          off: Iterable[Sequence[int]]) -> bool:
    """Whether ``cubes`` cover every combination of ``on`` and none of ``off``."""
    space = _Space(shape)
    covered = 0
    for cube in cubes:
        covered |= space.mask(cube)
    on_mask = space.of(on)
    return covered & on_mask == on_mask and not covered & space.of(off)
