"""Interests held directly or indirectly, summed exactly (``ownership_interest``, ``ownership_through``).

A holder's interest in a company over an ownership period is the sum, over every chain of holdings from
the holder to the company, of the product of the shares along the chain (``logic/core/ownership.lp``
says why and who reads it). The chains are never enumerated (a ladder of holdings has twice as many at
every level): for each company, each holder's interest is its direct share plus, for each company it
holds directly, its share of that company times that company's interest, in an order where a company
comes before its holders (the loader rejects cyclic ownership) — a time linear in the holdings per
company. Arithmetic is exact (:class:`fractions.Fraction`): a share is a whole number of basis points,
and a chain of 14 holdings has a product with 56 decimals, which no 32-bit integer of the solver holds.
The rules receive the exact figure as the two integers around it in hundred-millionths of the whole
(``path_units_per_share_unit`` units in a basis point): ``Lo`` rounded down, ``Hi`` rounded up, equal
exactly when the figure is a whole number of units. A threshold T in those units is then compared
exactly: the interest is at least T iff ``Lo >= T``, more than T iff ``Hi > T``.

A chain runs through every holding, direct or indirect: one the scenario states as indirect is an interest
it does not break down, and the holder's share of what that company holds is as much the holder's (the
provisions count an interest "directly or indirectly": whether a record is direct changes no interest). A
chain is given as its holdings or as its total, never both."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from pyhelpers.base.errors import LogicError

UNITS_PER_WHOLE = 10_000 * 10_000
"""The unit of a figure handed to the rules: a hundred-millionth of the whole (a basis point is 10,000
units, as ``path_units_per_share_unit`` says in ``logic/core/ownership.lp``)."""
SHARE_UNITS = 10_000
"""A holding's share is given in units of which the whole has this many (basis points)."""
DECIMALS_PER_PLACE = 4
"""The decimal digits of one digit in base 10,000, the base the rules add shares in (``share_scale``)."""

MAX_UNITS = 2**31 - 1
"""The largest integer of the solver. An interest is at most the whole (100,000,000 units) when the
holdings of each company add up to at most 100%; a figure above this bound (holdings adding up to more
than 100%, which the loader does not reject) is handed over as the bound, still above every threshold."""

MEASURES = ("capital", "votes", "value", "profits")


@dataclass(frozen=True)
class Edge:
    """One holding held throughout a period: ``holder`` holds ``share`` basis points of ``company``."""

    hid: str
    holder: str
    company: str
    share: int
    direct: bool


@dataclass(frozen=True)
class Interest:
    """The interest of ``holder`` in ``company`` (exact), and the companies it holds it through."""

    holder: str
    company: str
    share: Fraction
    through: tuple[str, ...]

    @property
    def units(self) -> tuple[int, int]:
        """(rounded down, rounded up) in hundred-millionths of the whole, at most :data:`MAX_UNITS`."""
        scaled = self.share * UNITS_PER_WHOLE
        lo, hi = scaled.numerator // scaled.denominator, -(-scaled.numerator // scaled.denominator)
        return min(lo, MAX_UNITS), min(hi, MAX_UNITS)


def interests(edges: Sequence[Edge], targets: Iterable[str] | None = None) -> list[Interest]:
    """Every (holder, company) linked by at least one chain of ``edges`` (only the companies of
    ``targets`` if given), with the exact sum over the chains of the products of their shares, in a
    deterministic order (company, then holder)."""
    companies = {e.company for e in edges}
    if targets is not None:
        companies &= set(targets)
    if not companies:
        return []
    out_edges: dict[str, list[Edge]] = defaultdict(list)
    for e in edges:
        out_edges[e.holder].append(e)
    order = _companies_first(edges)
    result: list[Interest] = []
    for target in sorted(companies):
        share: dict[str, Fraction] = {}
        through: dict[str, set[str]] = defaultdict(set)
        for x in order:  # every company x holds comes before x
            total, linked = Fraction(0), False
            for e in out_edges[x]:
                if e.company == target:
                    total += Fraction(e.share, 10_000)
                    linked = True
                elif e.company in share:  # held directly or indirectly: its share of that company's interest
                    total += Fraction(e.share, 10_000) * share[e.company]
                    through[x].add(e.company)
                    linked = True
            if linked:
                share[x] = total
        result += [Interest(x, target, share[x], tuple(sorted(through[x]))) for x in sorted(share)]
    return result


def _companies_first(edges: Sequence[Edge]) -> list[str]:
    """Every person of ``edges``, each after every company it holds (Kahn's order of the acyclic holdings,
    ties by name)."""
    holds: dict[str, set[str]] = defaultdict(set)
    held_by: dict[str, set[str]] = defaultdict(set)
    for e in edges:
        holds[e.holder].add(e.company)
        held_by[e.company].add(e.holder)
    nodes = sorted(set(holds) | set(held_by))
    left = {n: len(holds[n]) for n in nodes}
    ready = [n for n in nodes if left[n] == 0]
    order: list[str] = []
    while ready:
        n = ready.pop()
        order.append(n)
        for h in sorted(held_by[n]):
            left[h] -= 1
            if left[h] == 0:
                ready.append(h)
    if len(order) != len(nodes):
        raise LogicError("cyclic ownership reached the computation of interests (the loader rejects it)")
    return order


def period_edges(holdings: Iterable[tuple[str, str, str, bool, date, date, dict[str, int]]], start: date,
                 end: date, measure: str) -> list[Edge]:
    """The holdings (id, holder, company, direct, from, until, shares by measure) held throughout
    ``start``..``end`` with a share in ``measure``."""
    return [Edge(hid, holder, company, shares[measure], direct)
            for hid, holder, company, direct, first, last, shares in holdings
            if first <= start and end <= last and measure in shares]


def share_decimals(units: int, scale: int) -> int:
    """The decimals of the whole a share of ``units`` out of ``scale`` (a power of ten) has, written
    exactly: 5,000 of 10,000 (0.5) has 1, 2,500 (0.25) has 2, 10,000 (1) and 0 have none."""
    decimals = len(str(scale)) - 1
    while decimals and units % 10 == 0:
        units //= 10
        decimals -= 1
    return decimals if units else 0


def chain_decimals(weighted: Iterable[tuple[str, str, int]]) -> int:
    """The most weight along one chain of the (holder, company, weight) holdings (0 without any; a pair
    given several times weighs its most). With each holding's weight the decimals of its share
    (:func:`share_decimals`), the most decimals of the whole a chain's product has exactly: a product's
    decimals are at most the sum of its factors'."""
    weights: dict[tuple[str, str], int] = {}
    for a, b, w in weighted:
        weights[(a, b)] = max(weights.get((a, b), 0), w)
    edges = [Edge("", a, b, 0, True) for a, b in sorted(weights)]
    below: dict[str, int] = {}
    holds: dict[str, set[str]] = defaultdict(set)
    for e in edges:
        holds[e.holder].add(e.company)
    for x in _companies_first(edges):
        below[x] = max((below[c] + weights[(x, c)] for c in holds[x]), default=0)
    return max(below.values(), default=0)
