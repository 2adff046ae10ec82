"""Reconstructed provisions are flagged wherever they are relied on (issue 22).

An item, or a question about a person, is flagged (``reconstructed``: the reconstructed provisions it
rests on) exactly when the explanation of its conclusions and findings contains a step flagged
``reconstructed``; the provisions of those steps are among the listed ones. With facts given as
alternatives, the flag covers every combination: the explanation (of the first values) is within it,
and the scenario at its first values is checked exactly. Checked over the whole
suite, on every scenario of a treaty with reconstructed rules (the fast path's generated program,
:mod:`pyhelpers.engine.provenance`, against the explainer's derivations), and on a small program.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import clingo
import pytest

from pyhelpers.base.errors import ScenarioError
from pyhelpers.engine.provenance import EXPLAINED_ROOTS, RELIES, TAINT, companion_program
from pyhelpers.engine.results import ScenarioResult
from pyhelpers.engine.solve import Checker
from pyhelpers.explain.explainer import explain_scenario
from pyhelpers.scenario import Scenario, load_file

from .conftest import ROOT, SCENARIOS, scenario_params, within_share


def _treaties_with_reconstructed_rules(checker: Checker) -> set[str]:
    return {r.file.split("/")[1] for r in checker.logic.rules if "reconstructed" in r.flags}


_CHECKER: Checker | None = None


def _mismatches(path: Path) -> tuple[list[str], int]:
    """For each item and question of the scenario at ``path``: its flag against its explanation."""
    assert _CHECKER is not None
    try:
        scenario = load_file(path)
    except ScenarioError:
        return [], 0  # a scenario of the loader's error tests
    name = path.relative_to(ROOT).as_posix()
    if not scenario.unknowns:
        return _compared(scenario, name, exact=True)
    # facts given as alternatives: a flag covers every combination; the explanation is of the first values
    plain = scenario.with_values({}, name)
    explained = _explained(plain)
    first, n = _compared(plain, f"{name} (first values)", True, explained)
    some, m = _compared(scenario, name, False, explained)
    return first + some, n + m


def _compared(scenario: Scenario, name: str, exact: bool,
              explained: dict[str, set[str]] | None = None) -> tuple[list[str], int]:
    assert _CHECKER is not None
    result = _CHECKER.check(scenario, name)
    exact = exact and not result.unknowns  # facts opened over their values (issue 23): as alternatives
    flagged = {it.item_id: set(it.reconstructed) for it in result.items}
    flagged |= {a.question: set(a.reconstructed) for a in result.answers}
    if explained is None:
        explained = _explained(scenario)
    # a reconstructed provision the item lists among its provisions is flagged even where no conclusion of the
    # explanation rests on it (law59, blind58b D6: a residence cited beside an article not in the corpus)
    cited = {it.item_id: set(it.provisions) for it in result.items}
    out = []
    for key, listed in flagged.items():
        shown = explained.get(key, set())
        resting = listed - (cited.get(key, set()) - shown)
        if (exact and bool(resting) != bool(shown)) or not shown <= listed:
            out.append(f"{name} {key}: flagged {sorted(listed)}, explanation {sorted(shown)}")
    return out, len(flagged)


def _explained(scenario: Scenario) -> dict[str, set[str]]:
    """The provisions of the reconstructed steps in the explanation of each item and question."""
    assert _CHECKER is not None
    explainer = explain_scenario(_CHECKER, scenario)
    explained: dict[str, set[str]] = {}
    for atom in explainer.true:
        args = atom.arguments
        if atom.name in EXPLAINED_ROOTS and len(args) > 1 and args[1].type == clingo.SymbolType.String:
            explained.setdefault(args[1].string, set()).update(p or "" for p in explainer.reconstructed_in(atom))
    return explained


SHARDS = 8
"""The suite-wide test in shards, so that pytest-xdist shares its scenarios among the workers."""
SHARE = 20.0
"""Seconds of wall-clock time for each shard (explaining a scenario takes about 0.6 s of CPU, some 800 of
them: eight minutes of CPU over the whole corpus): each run covers the scenarios its share allows, from a
point that turns with the commit (``tests.conftest.within_share``); ``TREATY_FULL_CHECKS=1`` covers them
all."""


@pytest.mark.parametrize("shard", range(SHARDS))
def test_flagged_exactly_where_the_explanation_relies_on_a_reconstruction(checker: Checker, shard: int) -> None:
    global _CHECKER
    treaties = _treaties_with_reconstructed_rules(checker)
    assert treaties, "no rule is flagged reconstructed: nothing to test"
    paths = [p for p in SCENARIOS if p.relative_to(ROOT / "scenarios").parts[0] in treaties][shard::SHARDS]
    _CHECKER = checker.warm()
    results = [_mismatches(path) for path in within_share(paths, SHARE, 10, f"reconstructed flags, shard {shard}")]
    bad = [line for lines, _ in results for line in lines]
    assert sum(n for _, n in results) >= 10
    assert not bad, "\n".join(bad)


def test_reconstructed_in_is_what_the_tree_shows(checker: Checker) -> None:
    """``Explainer.reconstructed_in`` (the suite-wide test's measure) finds the provisions of exactly the
    steps flagged reconstructed that the rendered derivation shows."""
    compared = 0
    for path in sorted((ROOT / "scenarios" / "br-uy").glob("dividends-*.yaml"))[:4]:
        explainer = explain_scenario(checker, load_file(path))
        for atom in explainer.true:
            if atom.name in EXPLAINED_ROOTS:
                shown = {s.provision for s in explainer.tree(atom).walk() if "reconstructed" in s.flags}
                assert explainer.reconstructed_in(atom) == shown, (path.name, str(atom))
                compared += bool(shown)
    assert compared > 5


@pytest.mark.parametrize("path", scenario_params(SCENARIOS))
def test_no_flag_without_reconstructed_rules(path: Path, checker: Checker,
                                             checked: Callable[[Path], ScenarioResult]) -> None:
    """A scenario of a treaty none of whose rules is reconstructed flags nothing as reconstructed."""
    if path.relative_to(ROOT / "scenarios").parts[0] in _treaties_with_reconstructed_rules(checker):
        return  # the flags of those treaties: test_flagged_exactly_where_the_explanation_relies_on_a_reconstruction
    try:
        result = checked(path)
    except ScenarioError:
        return  # a scenario the loader refuses has no flags to check
    assert not any(it.reconstructed for it in result.items)
    assert not any(a.reconstructed for a in result.answers)


def _solve(rules: list[tuple[str, str, frozenset[str]]], facts: str) -> set[str]:
    program = [text for text, _, _ in rules] + companion_program(rules, ["#show state_outcome/4."])
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], "\n".join(program) + "\n" + facts)
    ctl.ground([("base", [])])
    atoms: list[str] = []
    ctl.solve(on_model=lambda m: atoms.extend(map(str, m.symbols(atoms=True))))
    return set(atoms)


RECON = frozenset({"reconstructed"})
RULES = [
    ("res(S, P) :- liable(S, P).", "xx-yy 4", RECON),
    ("res(S, P) :- stated(S, P).", "xx-yy 1", frozenset()),
    ("owner_res(S, I) :- owner(S, I, P), res(S, P).", "xx-yy 10", frozenset()),
    ("counted(S, I, N) :- item(S, I), N = #count { P : owner(S, I, P), res(S, P) }.", "xx-yy 11", frozenset()),
    ("state_outcome(S, I, br, exempt) :- owner_res(S, I), not blocked(S, I).", "xx-yy 10(1)", frozenset()),
    ("state_outcome(S, I, br, capped) :- counted(S, I, N), N > 1.", "xx-yy 11(2)", frozenset()),
    ("state_outcome(S, I, uy, may_tax) :- item(S, I).", "xx-yy 12", frozenset()),
    ("claimant(S, I) :- owner(S, I, P), res(S, P).", "xx-yy 29(1)", RECON),
    ("state_outcome(S, I, br, denied) :- claimant(S, I), refused(S, I).", "xx-yy 29(1)", frozenset()),
]


@pytest.mark.parametrize(("facts", "relies"), [
    # residence only through the reconstructed rule: the outcome relies on it
    ('item("s", "i"). owner("s", "i", a). liable("s", a).',
     {'_relies(state_outcome("s","i",br,exempt),"xx-yy 4")'}),
    # a second derivation free of it: clean
    ('item("s", "i"). owner("s", "i", a). liable("s", a). stated("s", a).', set()),
    # an aggregate with one element resting on it: tainted, though another element is clean
    ('item("s", "i"). owner("s", "i", a). owner("s", "i", b). liable("s", a). stated("s", b).',
     {'_relies(state_outcome("s","i",br,capped),"xx-yy 4")'}),
    # a reconstructed rule over a reconstructed premise: both provisions
    ('item("s", "i"). owner("s", "i", a). liable("s", a). refused("s", "i").',
     {'_relies(state_outcome("s","i",br,exempt),"xx-yy 4")', '_relies(state_outcome("s","i",br,denied),"xx-yy 4")',
      '_relies(state_outcome("s","i",br,denied),"xx-yy 29(1)")'}),
    # the same over a clean premise: its own provision only
    ('item("s", "i"). owner("s", "i", a). stated("s", a). refused("s", "i").',
     {'_relies(state_outcome("s","i",br,denied),"xx-yy 29(1)")'}),
    # residence stated: nothing rests on the reconstruction
    ('item("s", "i"). owner("s", "i", a). stated("s", a).', set()),
])
def test_generated_program(facts: str, relies: set[str]) -> None:
    atoms = _solve(RULES, facts)
    assert {a for a in atoms if a.startswith(RELIES)} == relies
    assert not any(a.startswith(TAINT) and "uy" in a for a in atoms)  # never through unrelated rules


def test_no_program_without_reconstructed_rules() -> None:
    assert companion_program([(t, p, frozenset()) for t, p, _ in RULES], ["#show state_outcome/4."]) == []
