"""Unit tests of the comparisons between enumerated combinations of open facts' values.

Where every combination of the open facts' values has one answer set (``alternatives._enumerated``), two
things are read by comparing combinations that differ in one fact alone (those alike in every other fact's
values): which facts decide something of an item (:func:`~pyhelpers.engine.alternatives._pivotal`), and,
for an item no provision decides value by value, which provisions part the values of a fact as the item's
outcomes do (:meth:`~pyhelpers.engine.alternatives._Deciders._together`). The scenario tests reach them only
through whole answers; here they get small hand-built inputs: each combination (a dict of the facts' values)
mapped to its answer set, aggregated as ``_enumerated`` aggregates clingo's models. Provisions are
placeholders (``xx 7(1)``): no rule base is read.

Both are also compared with a reference written from their specification, every pair of combinations that
differ in the fact alone, on seeded random inputs.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pytest

from pyhelpers.base.terms import parse_atom
from pyhelpers.engine.alternatives import SID, _Consequences, _Deciders, _follows, _pivotal
from pyhelpers.engine.readers import Fired
from pyhelpers.scenario import Scenario, load_dict
from pyhelpers.scenario.openfacts import OpenFact

Model = tuple[dict[int, int], frozenset[str]]


def _fact(name: str, *values: str) -> OpenFact:
    return OpenFact(tuple(name.split(".")), name, "unknown", values, completed=True)


BEARER = _fact("income.i1.borne_by", "resident", "office")
STATUS = _fact("places_of_business.office.permanent_establishment", "yes", "no")
NOISE = _fact("persons.ana.nickname", "a", "b")
KIND = _fact("places_of_business.office.kind", "branch", "office", "factory")


def label(iid: str, state: str, outcome: str, rate: int | None = None) -> str:
    """The text clingo prints for the outcome of ``state`` for item ``iid`` (``_label``)."""
    return f'_label("{SID}","{iid}",{state},{outcome},{"none" if rate is None else rate})'


def fired(provision: str, head: str) -> str:
    """The text clingo prints for ``_fired(provision, head)``."""
    return f'_fired("{provision}",{head})'


def _models(unknowns: Sequence[OpenFact], answer: Callable[[Mapping[str, Any]], Iterable[str]]) -> list[Model]:
    """Every combination of the facts' values with its answer set: ``answer`` gets the values by fact name;
    the combination is keyed, as ``_enumerated`` keys it, by each fact's index and its value's index."""
    out = []
    for combo in itertools.product(*(range(len(f.values)) for f in unknowns)):
        named = {f.name: f.values[v] for f, v in zip(unknowns, combo, strict=True)}
        out.append((dict(enumerate(combo)), frozenset(answer(named))))
    return out


def _consequences(models: Sequence[Model], unknowns: Sequence[OpenFact], extra: Iterable[str] = ()) -> _Consequences:
    """The consequences ``_enumerated`` reads from these answer sets (``extra``: added to the possible ones,
    as ``_fired_shown`` adds the answers' ``treaty_not_applicable`` atoms)."""
    sets = [a for _, a in models]
    under = {}
    for f, fact in enumerate(unknowns):
        for v in range(len(fact.values)):
            these = [a for values, a in models if values.get(f) == v]
            if these:
                under[(f, v)] = (frozenset().union(*these), frozenset.intersection(*these))
    return _Consequences(frozenset().union(*sets) | frozenset(extra), frozenset.intersection(*sets), under, True,
                         models=list(models))


# --- _pivotal ----------------------------------------------------------------------------------------------


def _pe_answer(v: Mapping[str, Any]) -> list[str]:
    """Item i1 is taxable at source only when the office bears it and is a permanent establishment; item
    i2 never depends on anything; the nickname changes nothing."""
    taxed = v[BEARER.name] == "office" and v[STATUS.name] == "yes"
    return [label("i1", "br", "may_tax" if taxed else "no_right"), label("i2", "br", "exclusive")]


def test_a_fact_that_decides_alone_and_one_that_decides_only_under_another_value() -> None:
    unknowns = [BEARER, STATUS, NOISE]
    got = _pivotal(_consequences(_models(unknowns, _pe_answer), unknowns), unknowns)
    # the status changes the answer only where the office bears the payment: found all the same
    assert got == {"i1": {BEARER.name, STATUS.name}}


def test_a_fact_that_changes_nothing_is_not_pivotal() -> None:
    unknowns = [NOISE, BEARER]
    got = _pivotal(_consequences(_models(unknowns, lambda v: [label("i1", "br", "exclusive"),
                                                              label("i2", "pt", "may_tax")]), unknowns), unknowns)
    assert got == {}


def test_a_finding_or_a_figure_is_a_change() -> None:
    def answer(v: Mapping[str, Any]) -> list[str]:
        out = [label("i1", "br", "capped", 1500)]
        if v[BEARER.name] == "office" and v[STATUS.name] == "no":
            out.append(f'missing("{SID}","i1",kind("office"),"xx 5(1)")')
        if v[NOISE.name] == "b":
            out.append(f'max_source_tax("{SID}","i1",150)')
        return out

    unknowns = [BEARER, STATUS, NOISE]
    assert _pivotal(_consequences(_models(unknowns, answer), unknowns), unknowns) == {
        "i1": {BEARER.name, STATUS.name, NOISE.name}}


@pytest.mark.parametrize("changed", [
    'outcome_provision("s","i1","xx 7(1)")',  # only the way to the outcome
    '_label_provision("s","i1",br,may_tax,none,"xx 7(1)")',
    'treaty_not_applicable("s","i1","xx 1")',  # shown by the outcome (_label) already
    'not_encoded("s","i1","xx 12(3)")',
    'benefits_denied("s","i1","xx 29(9)")',
    'ppt_indicator("s","i1",circular_flow)',  # an indicator informs only
    '_fired("xx 5(1)",pe_status("s","office"))',  # the provisions' conditions, not the answer
    '_relies("s","i1","xx 7(1)")',
])
def test_what_only_names_a_provision_or_is_shown_by_the_outcome_decides_nothing(changed: str) -> None:
    unknowns = [BEARER, STATUS]
    models = _models(unknowns, lambda v: [label("i1", "br", "may_tax"),
                                          *([changed] if v[STATUS.name] == "yes" and v[BEARER.name] == "office"
                                            else [])])
    assert _pivotal(_consequences(models, unknowns), unknowns) == {}


def test_ties_and_duplicate_combinations() -> None:
    # a fact of three values two of which answer alike is pivotal (the third differs) ...
    unknowns = [KIND, NOISE]
    models = _models(unknowns, lambda v: [label("i1", "br", "may_tax" if v[KIND.name] == "factory" else "no_right")])
    assert _pivotal(_consequences(models, unknowns), unknowns) == {"i1": {KIND.name}}
    # ... and one whose values tie under every value of the other is not (the kind, here)
    models = _models(unknowns, lambda v: [label("i1", "br", "may_tax" if v[NOISE.name] == "b" else "no_right")])
    assert _pivotal(_consequences(models, unknowns), unknowns) == {"i1": {NOISE.name}}
    # a combination given twice (the same values, the same answer) parts nothing
    doubled = [*models, *models]
    assert _pivotal(_consequences(doubled, unknowns), unknowns) == {"i1": {NOISE.name}}


def test_nothing_to_compare() -> None:
    unknowns = [BEARER, STATUS]
    cons = _consequences(_models(unknowns, _pe_answer), unknowns)
    assert _pivotal(cons, [BEARER]) == {}  # one fact: its values' conditions say it (``_holds_if``)
    assert _pivotal(_Consequences(cons.brave, cons.cautious, cons.under, True), unknowns) == {}  # not enumerated
    assert _pivotal(_Consequences(cons.brave, cons.cautious, cons.under, False, models=cons.models), unknowns) == {}


def test_pivotal_is_deterministic() -> None:
    unknowns = [BEARER, STATUS, NOISE]
    models = _models(unknowns, _pe_answer)
    expected = _pivotal(_consequences(models, unknowns), unknowns)
    for seed in range(5):
        shuffled = list(models)
        random.Random(seed).shuffle(shuffled)
        assert _pivotal(_consequences(shuffled, unknowns), unknowns) == expected
    # the facts in another order: the same facts by name
    order = [2, 0, 1]
    moved = [({order.index(f): v for f, v in values.items()}, atoms) for values, atoms in models]
    reordered = [unknowns[f] for f in order]
    assert _pivotal(_consequences(moved, reordered), reordered) == expected


# --- _Deciders._together -----------------------------------------------------------------------------------


def _scenario(*ids: str) -> Scenario:
    return load_dict({
        "name": "items for the deciders' unit tests", "treaty": "br-pt", "evaluation_date": "2024-06-30",
        "persons": {"ana": {"kind": "individual", "liable_to_tax": {"pt": ["residence"]}},
                    "beta": {"kind": "company", "liable_to_tax": {"br": ["domicile"]}}},
        "income": [{"id": i, "type": "interest", "payer": "beta", "recipient": "ana", "date": "2024-03-15"}
                   for i in ids]})


ITEMS = _scenario("i1", "i2")


def _deciders(unknowns: Sequence[OpenFact], answer: Callable[[Mapping[str, Any]], Iterable[str]],
              conditions: Callable[[Mapping[str, Any]], Iterable[str]],
              questions: frozenset[str] = frozenset(), scenario: Scenario = ITEMS) -> _Deciders:
    """The deciders of a world whose combinations have the answer sets ``answer`` gives and the ``_fired``
    atoms ``conditions`` gives (each provision's conditions as they come out)."""
    answers = _consequences(_models(unknowns, answer), unknowns)
    gates = frozenset(t for t in answers.brave if t.startswith("treaty_not_applicable("))
    shown = _consequences(_models(unknowns, conditions), unknowns, gates)
    return _Deciders(scenario, unknowns, Fired("", frozenset(), {}), {}, lambda: shown, answers, questions)


def _together(deciders: _Deciders, f: int, items: Iterable[str] = ("i1", "i2")
              ) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """What :meth:`_Deciders._together` adds, from nothing, for fact ``f``: (provision -> items it decides,
    provision -> items it decides by a status about no item)."""
    mine: dict[str, set[str]] = defaultdict(set)
    status: dict[str, set[str]] = defaultdict(set)
    deciders._together(f, mine, status, set(items))
    return {k: v for k, v in mine.items() if v}, {k: v for k, v in status.items() if v}


def _pe_conditions(v: Mapping[str, Any]) -> list[str]:
    """The office's status (a condition about no item: a place) and what the article on the income reads
    of it once the office bears the payment (about i1); the nickname read by a provision deciding nothing."""
    out = [fired("xx 11(1)", 'interest("s","i1")')]  # certain: no condition coming out differently
    if v[STATUS.name] == "yes":
        out.append(fired("xx 5(1)", 'pe("s","office")'))
        if v[BEARER.name] == "office":
            out.append(fired("xx 11(5)", 'borne_by_pe("s","i1","office")'))
    if v.get(NOISE.name) == "b":
        out.append(fired("xx 3(2)", 'nickname("s","i1")'))
    return out


def test_a_status_that_decides_only_once_the_place_bears_the_payment() -> None:
    unknowns = [BEARER, STATUS, NOISE]
    deciders = _deciders(unknowns, _pe_answer, _pe_conditions)
    mine, status = _together(deciders, unknowns.index(STATUS))
    # i2's outcome never changes; the nickname's reader decides nothing
    assert mine == {"xx 5(1)": {"i1"}, "xx 11(5)": {"i1"}}
    assert status == {"xx 5(1)": {"i1"}}  # a place's status: about no item
    mine, _ = _together(deciders, unknowns.index(NOISE))
    assert mine == {}


def test_only_the_items_asked_for() -> None:
    unknowns = [BEARER, STATUS]
    assert _together(_deciders(unknowns, _pe_answer, _pe_conditions), 1, items=["i2"]) == ({}, {})


def test_a_condition_that_parts_values_alike_in_outcome_reads_without_deciding() -> None:
    # kinds branch and office answer alike, factory differently: a condition true for the office alone
    # reads the kind without deciding it; one true for the factory alone decides it
    unknowns = [KIND, NOISE]

    def answer(v: Mapping[str, Any]) -> list[str]:
        return [label("i1", "br", "may_tax" if v[KIND.name] == "factory" else "no_right")]

    def conditions(v: Mapping[str, Any]) -> list[str]:
        return [*([fired("xx 5(2)(b)", 'listed("s","office")')] if v[KIND.name] == "office" else []),
                *([fired("xx 5(3)", 'site("s","office")')] if v[KIND.name] == "factory" else [])]

    assert _together(_deciders(unknowns, answer, conditions), 0) == ({"xx 5(3)": {"i1"}}, {"xx 5(3)": {"i1"}})


def test_where_the_convention_does_not_apply_only_its_gate_is_compared() -> None:
    # where the payer is not resident the Convention does not apply to i1 (gate xx 1); the condition of
    # xx 11(5), which comes out differently there only, decides nothing
    unknowns = [_fact("persons.beta.residence", "br", "none"), BEARER]

    def answer(v: Mapping[str, Any]) -> list[str]:
        if v["persons.beta.residence"] == "none":
            return ['treaty_not_applicable("s","i1","xx 1")', label("i1", "br", "not_applicable")]
        return [label("i1", "br", "may_tax")]

    def conditions(v: Mapping[str, Any]) -> list[str]:
        out = []
        if v["persons.beta.residence"] == "br":
            out.append(fired("xx 1", 'resident_payer("s","i1")'))
        elif v[BEARER.name] == "office":
            out.append(fired("xx 11(5)", 'borne_by_pe("s","i1","office")'))
        return out

    assert _together(_deciders(unknowns, answer, conditions), 0) == ({"xx 1": {"i1"}}, {})
    assert _together(_deciders(unknowns, answer, conditions), 1) == ({}, {})


def test_a_question_put_and_a_condition_alike_but_for_its_figures_are_no_condition() -> None:
    unknowns = [BEARER, STATUS]

    def conditions(v: Mapping[str, Any]) -> list[str]:
        days = 200 if v[STATUS.name] == "yes" else 100  # a day count moving with the value: the same condition
        out = [fired("xx 15(2)(a)", f'days_present("s","i1",{days})')]
        if v[BEARER.name] == "office":
            out.append(fired("xx 5(1)", 'pe_at_issue("s","office")'))  # puts another provision's question
        return out

    deciders = _deciders(unknowns, _pe_answer, conditions, questions=frozenset({"pe_at_issue"}))
    assert _together(deciders, 0) == ({}, {})
    assert _together(deciders, 1) == ({}, {})


def test_together_is_deterministic() -> None:
    unknowns = [BEARER, STATUS, NOISE]
    expected = _together(_deciders(unknowns, _pe_answer, _pe_conditions), 1)
    answers = _models(unknowns, _pe_answer)
    shown = _models(unknowns, _pe_conditions)
    for seed in range(5):
        rng = random.Random(seed)
        a, s = list(answers), list(shown)
        rng.shuffle(a)
        rng.shuffle(s)
        cons_a, cons_s = _consequences(a, unknowns), _consequences(s, unknowns)
        deciders = _Deciders(ITEMS, unknowns, Fired("", frozenset(), {}), {}, functools.partial(lambda c: c, cons_s),
                             cons_a)
        assert _together(deciders, 1) == expected


# --- against the specification, on random inputs -------------------------------------------------------


def _pairs_differing_in(models: Sequence[Model], f: int) -> list[tuple[int, int]]:
    """Every two combinations (by position) whose values differ in fact ``f`` alone."""
    return [(a, b) for a, b in itertools.combinations(range(len(models)), 2)
            if models[a][0].get(f) != models[b][0].get(f)
            and all(models[a][0].get(g) == models[b][0].get(g) for g in set(models[a][0]) | set(models[b][0])
                    if g != f)]


def _pivotal_by_pairs(cons: _Consequences, unknowns: Sequence[OpenFact]) -> dict[str, set[str]]:
    """The specification of :func:`_pivotal`: a fact decides something of an item where two combinations
    differing in it alone differ in the item's open atoms, but those that only name a provision, those the
    outcome shows and indicators."""
    assert cons.models is not None
    ignored = {"outcome_provision", "_label_provision", "source_cap", "may_tax", "may_not_tax", "only_taxable_in",
               "not_limited", "exception_applies", "treaty_not_applicable", "not_encoded", "benefits_denied",
               "ppt_indicator"}

    def of(atoms: frozenset[str], iid: str) -> frozenset[str]:
        out = set()
        for t in atoms & (cons.brave - cons.cautious):
            a = parse_atom(t)
            if not t.startswith(("_fired", "_relies")) and a.name not in ignored and len(a.args) >= 2 \
                    and a.args[1] == iid:
                out.add(t)
        return frozenset(out)

    items = {a.args[1] for a in map(parse_atom, cons.brave) if len(a.args) >= 2 and isinstance(a.args[1], str)}
    out: dict[str, set[str]] = {}
    for f, fact in enumerate(unknowns):
        for a, b in _pairs_differing_in(cons.models, f):
            for iid in items:
                if of(cons.models[a][1], iid) != of(cons.models[b][1], iid):
                    out.setdefault(iid, set()).add(fact.name)
    return out


def _together_by_pairs(deciders: _Deciders, f: int, items: set[str]) -> dict[str, set[str]]:
    """The specification of :meth:`_Deciders._together` (its inputs read as it reads them): a provision decides
    an item where, among some combinations alike but for fact ``f`` (those where the Convention applies to
    the item, unless the provision makes it not apply), two have its condition come out differently, and no
    two with the same outcomes for the item do."""
    cons, answers = deciders._read(), deciders._answers
    assert cons.models is not None and answers.models is not None
    shown = {tuple(sorted(v.items())): a for v, a in cons.models}
    paired = [(v, shown[tuple(sorted(v.items()))], a) for v, a in answers.models if tuple(sorted(v.items())) in shown]
    models = [(v, a) for v, _, a in paired]
    out: dict[str, set[str]] = defaultdict(set)
    for texts, prov, about in deciders._open:
        for iid in sorted((about or deciders._items) & items):
            def cond(n: int) -> bool:
                return any(t in paired[n][1] for t in texts)  # noqa: B023

            def outcome(n: int) -> frozenset[str]:
                return frozenset(t for t in paired[n][2] if t.startswith(f'_label("{SID}","{iid}",'))  # noqa: B023

            def counted(n: int) -> bool:
                return prov in deciders._gates or not any(t in paired[n][2]  # noqa: B023
                                                          for t in deciders._not_applicable[iid])  # noqa: B023

            pairs = [(a, b) for a, b in _pairs_differing_in(models, f) if counted(a) and counted(b)]
            by_rest: dict[tuple[Any, ...], list[tuple[int, int]]] = defaultdict(list)
            for a, b in pairs:  # the pairs of one set of combinations alike but for f
                by_rest[tuple(sorted((g, v) for g, v in models[a][0].items() if g != f))].append((a, b))
            for group in by_rest.values():
                parts = any(cond(a) != cond(b) for a, b in group)
                alike = any(outcome(a) == outcome(b) and cond(a) != cond(b) for a, b in group)
                if parts and not alike:
                    out[prov].add(iid)
    return dict(out)


def _random_world(rng: random.Random) -> tuple[list[OpenFact], list[Model], list[Model]]:
    """Two to four facts of two or three values; per combination, each item's outcome and a few findings,
    a gate closing the Convention for an item now and then, and each of a few provisions' conditions, all
    drawn at random but functions of a few of the facts (so that facts decide alone, together, or not)."""
    unknowns = [_fact(f"f{n}", *"abc"[:rng.choice((2, 3))]) for n in range(rng.randint(2, 4))]
    items = ["i1", "i2"]
    combos = list(itertools.product(*(range(len(u.values)) for u in unknowns)))

    def drawn(k: int) -> Callable[[tuple[int, ...]], int]:
        """A random function of a random subset of the facts into range(k)."""
        on = rng.sample(range(len(unknowns)), rng.randint(0, len(unknowns)))
        table: dict[tuple[int, ...], int] = {}
        return lambda c: table.setdefault(tuple(c[i] for i in on), rng.randrange(k))

    outcome = {iid: drawn(3) for iid in items}
    finding = {iid: drawn(2) for iid in items}
    gate = {iid: drawn(4) for iid in items}  # 0: the Convention does not apply
    conditions = [(f"xx {n}", rng.choice([*items, "place"]), drawn(2)) for n in range(1, 7)]
    answers, shown = [], []
    for c in combos:
        values = dict(enumerate(c))
        atoms = set()
        for iid in items:
            atoms.add(label(iid, "br", ("exempt", "may_tax", "capped")[outcome[iid](c)]))
            if finding[iid](c):
                atoms.add(f'missing("{SID}","{iid}",kind("place"),"xx 5")')
            if gate[iid](c) == 0:
                atoms.add(f'treaty_not_applicable("{SID}","{iid}","xx 1")')
        answers.append((values, frozenset(atoms)))
        shown.append((values, frozenset(fired(p, f'c{p[3:]}("{SID}","{about}")') for p, about, holds in conditions
                                        if holds(c))))
    return unknowns, answers, shown


@pytest.mark.parametrize("seed", range(40))
def test_pivotal_and_together_as_specified_pair_by_pair(seed: int) -> None:
    rng = random.Random(seed)
    unknowns, answers, shown = _random_world(rng)
    cons = _consequences(answers, unknowns)
    assert _pivotal(cons, unknowns) == _pivotal_by_pairs(cons, unknowns)
    gates = frozenset(t for t in cons.brave if t.startswith("treaty_not_applicable("))
    deciders = _Deciders(ITEMS, unknowns, Fired("", frozenset(), {}), {},
                         lambda: _consequences(shown, unknowns, gates), cons)
    for f in range(len(unknowns)):
        items = set(rng.sample(["i1", "i2"], rng.randint(1, 2)))
        mine, _ = _together(deciders, f, items)
        assert mine == _together_by_pairs(deciders, f, items), f"fact {f}, items {sorted(items)}"


def test_follows_is_the_pairwise_condition() -> None:
    # _follows: a provision's condition is the same under values with the same outcomes
    assert _follows([0, 1, 1], range(3), ["a", "b", "b"])
    assert not _follows([0, 1, 0], range(3), ["a", "b", "b"])
    assert _follows([0, 1, 0], [0, 1], ["a", "b", "b"])  # the third value not compared
