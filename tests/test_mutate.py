"""`treaty mutate` (issue 10): the exact classification of a fixture's known mutants, the fast path's
soundness for mutants, sampling and the time budget, and a seeded sample of br-pt's mutants in CI."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyhelpers.engine.program import load_logic
from pyhelpers.engine.solve import run_clingo
from pyhelpers.engine.statements import Statement
from pyhelpers.interfaces.cli import main
from pyhelpers.tools import mutate
from pyhelpers.tools.coverage import scenario_files
from pyhelpers.tools.mutate import generate_mutants, run_mutation, sample

from .conftest import ROOT, read_yaml

FIXTURE = ROOT / "tests" / "fixtures" / "mutate"
OPEN = FIXTURE / "open" / "capital-20-or-25.yaml"
"""A scenario of the fixture whose holding is given as alternatives (20% or 25%): `treaty check` decides it."""
BR_PT = sorted((ROOT / "scenarios" / "br-pt").glob("*.yaml"))

EXPECTED = {
    (13, "-", "number", 'percentage("br-pt", min_share, 2500 -> 2499, "br-pt 10(2)(a)")'): "killed",
    (13, "-", "number", 'percentage("br-pt", min_share, 2500 -> 2501, "br-pt 10(2)(a)")'): "killed",
    (16, "fx/dividend", "drop", "condition 0 `income(S,I,dividend)` dropped"): "invalid",
    (19, "fx/qualifying", "drop", "condition 0 `dividend_item(S,I)` dropped"): "invalid",
    (19, "fx/qualifying", "drop", "condition 1 `holding_share(S,H,capital,P)` dropped"): "invalid",
    (20, "fx/qualifying", "drop", 'condition 2 `percentage("br-pt",min_share,M,"br-pt 10(2)(a)")` dropped'): "invalid",
    (20, "fx/qualifying", "operator", "`P >= M` -> `P > M`"): "killed",
    (20, "fx/qualifying", "drop", "condition 3 `P >= M` dropped"): "killed",
    (23, "fx/cap-10", "number", "1000 -> 999 in the head"): "killed",
    (23, "fx/cap-10", "number", "1000 -> 1001 in the head"): "killed",
    (23, "fx/cap-10", "drop", "condition 0 `qualifying(S,I)` dropped"): "invalid",
    (26, "fx/cap-15", "number", "1500 -> 1499 in the head"): "killed",
    (26, "fx/cap-15", "number", "1500 -> 1501 in the head"): "killed",
    (26, "fx/cap-15", "drop", "condition 0 `dividend_item(S,I)` dropped"): "invalid",
    (26, "fx/cap-15", "drop", "condition 1 `not qualifying(S,I)` dropped"): "killed",
    (26, "fx/cap-15", "negation", "`not qualifying(S,I)` -> `qualifying(S,I)`"): "killed",
    (29, "fx/residence-may-tax", "drop", "condition 0 `dividend_item(S,I)` dropped"): "invalid",
    (32, "fx/capped", "drop", "condition 0 `source_cap(S,I,br,_,_)` dropped"): "invalid",
    (35, "fx/pt-may-tax", "drop", "condition 0 `may_tax(S,I,pt,_)` dropped"): "invalid",
    (38, "fx/provision", "drop", "condition 0 `source_cap(S,I,_,_,P)` dropped"): "invalid",
    (41, "fx/note", "drop", "condition 0 `dividend_item(S,I)` dropped"): "equivalent",
    (41, "fx/note", "drop", "condition 1 `qualifying(S,I)` dropped"): "survived",
}
"""The fixture's mutants (see the comment at the top of its art10.lp): 10 killed, 1 survived (a note on
every dividend; no expect: block states findings), 1 equivalent (a redundant condition), 10 invalid."""

SAMPLE_SIZE = 80
SAMPLE_SEED = 10
SAMPLE_BUDGET = 240.0
"""Seconds for judging the sampled br-pt mutants (2 processes), counted once the suite is prepared (its
scenarios decided over open facts go through `check`: 75 s on a quiet machine, twice that on a busy one,
which must not eat the judging's share); the mutants not run by then are printed as skipped. 90 s judged 8 of
the sample at stop 53 (each mutant ~11 s of wall time, the br-pt suite grown), fewer than the 10 a score needs;
150 s judged 38 in CI at stop 53 (9 killed, 5 equivalent, 24 invalid: 9 < 10 for a score), hence 240 s."""
SCORE_FLOOR = 85.0
"""Measured on that sample (2026-11-30, 57 s on a shared 2-core machine): 39 killed, 2 survived,
21 equivalent-suspected, 18 invalid = 95.1%; the floor leaves room for a run cut short by the budget on
a busy machine (fewer mutants judged). Raise it as scenarios are added. Since the scenarios decided over
open facts are used too (issue 25; checked again per mutant), 152 s: 24 killed, 1 survived, 3
equivalent-suspected, 19 invalid, 33 skipped (the budget) = 96.0%."""


def _fixture(probes: int = 0, **kwargs: float) -> mutate.Report:
    return run_mutation(load_logic(FIXTURE / "logic"), "br-pt", scenario_files([FIXTURE / "scenarios"]),
                        probes=probes, **kwargs)  # type: ignore[arg-type]


def _classes(report: mutate.Report) -> dict[tuple[int, str, str, str], str]:
    return {(m.line, m.rule_id, m.operator, m.description): report.outcomes[m.id].status for m in report.mutants}


def test_fixture_classification() -> None:
    report = _fixture()
    assert _classes(report) == EXPECTED
    assert report.counts() == {"killed": 10, "survived": 1, "equivalent": 1, "invalid": 10, "skipped": 0}
    assert round(report.score, 1) == 90.9
    survivor = report.by_status("survived")[0]
    assert report.outcomes[survivor.id].witness.endswith("below.yaml")
    text = mutate.report_text(report)
    assert "score: 10/11 = 90.9% killed" in text
    assert "logic/br-pt/art10.lp:41: fx/note: drop: condition 1 `qualifying(S,I)` dropped" in text


def test_fixture_probes_keep_the_equivalent_mutant() -> None:
    """Probes (generated scenarios) only ever move a mutant from equivalent-suspected to survived; a truly
    equivalent mutant stays where it is."""
    report = _fixture(probes=30)
    assert report.probes == 30
    assert _classes(report) == EXPECTED


def test_fixture_time_budget_and_sample() -> None:
    report = _fixture(time_budget=0)
    counts = report.counts()
    assert (counts["skipped"], counts["invalid"], counts["killed"]) == (12, 10, 0)
    assert "skipped 12 mutant(s): the time budget ran out" in mutate.report_text(report)
    every = generate_mutants(load_logic(FIXTURE / "logic"), "br-pt")
    assert sample(every, 5, 3) == sample(every, 5, 3) != sample(every, 5, 4)
    assert [m.id for m in sample(every, 5, 3)] == sorted(m.id for m in sample(every, 5, 3))
    assert sample(every, None, 3) == every


def test_fixture_command_json() -> None:
    result = CliRunner().invoke(main, ["mutate", "--logic", str(FIXTURE / "logic"), str(FIXTURE / "scenarios"),
                                       "--probes", "0", "--max", "6", "--seed", "2", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["mutants"], data["run"], data["sampled"]) == (22, 6, True)
    assert {r["status"] for r in data["results"]} <= {"killed", "survived", "equivalent-suspected", "invalid"}


def test_mutant_programs_are_sound() -> None:
    """The sliced program of a mutant (only the statements that can fire) has the answer set of the
    whole treaty's program with the mutant, and a scenario it skips (the mutated statement cannot fire,
    or its unchanged conditions cannot hold) has the original's."""
    logic = load_logic()
    every = generate_mutants(logic, "br-pt")
    chosen = sample(every, 24, 5)
    mutate.prepare(logic, "br-pt", chosen, random.Random(5).sample(BR_PT, 10), probes=0)
    state = mutate._STATE
    assert state is not None
    rng = random.Random(6)
    for m in chosen:
        if m.id in state.unsafe:
            continue
        for case in rng.sample([c for c in state.suite if not c.checked], 2):
            facts = case.facts.split("\n")
            sliced = mutate._mutant_program(state, m, case) if mutate._may_hold(m, case) else None
            whole = mutate._program(state, state.chosen[case.treaty], m.statement, m.text)
            expected: object
            try:
                expected = run_clingo(whole, facts).symbols
            except Exception as err:  # the same failure is expected of the sliced program
                expected = type(err).__name__
            if sliced is None:
                assert expected == case.output, (m.where, m.description, case.name)
                continue
            got: object
            try:
                got = run_clingo(sliced, facts).symbols
            except Exception as err:
                got = type(err).__name__
            assert got == expected, (m.where, m.description, case.name)


def test_sampled_br_pt_score() -> None:
    """A seeded sample of br-pt's mutants within a fixed time share; the score no lower than the floor."""
    start = time.monotonic()
    report = run_mutation(load_logic(), "br-pt", BR_PT, SAMPLE_SIZE, SAMPLE_SEED, jobs=2,
                          time_budget=SAMPLE_BUDGET, probes=50, budget_after_preparing=True)
    counts = report.counts()
    print(f"\nmutation sample: {len(report.mutants)} of {report.total} br-pt mutants in "
          f"{time.monotonic() - start:.0f} s: {counts}; score {report.score:.1f}%")
    for m in report.by_status("skipped"):
        print(f"  skipped (time budget): {m.where}: {m.rule_id}: {m.operator}: {m.description}")
    for m in report.by_status("survived"):
        print(f"  survived: {m.where}: {m.rule_id}: {m.operator}: {m.description}")
    assert counts["killed"] + counts["survived"] >= 10, "too few mutants judged within the budget for a score"
    assert report.score >= SCORE_FLOOR
    assert all(m.file.startswith("logic/br-pt/") for m in report.mutants)
    assert Path(ROOT / "logic" / "br-pt").is_dir()


def test_fixture_probe_tells_a_survivor_apart(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Without the exactly-25% scenario, the suite cannot tell `P >= M` from `P > M`; a probe at 25% can:
    the mutant survives (a scenario is missing) and `--save` writes the probe as a candidate scenario."""
    from pyhelpers.prolog import generate as gen
    from pyhelpers.scenario import load_dict

    data = read_yaml(FIXTURE / "scenarios" / "exactly.yaml")
    del data["expect"]
    probe = gen.Generated("probe at 25%", data, load_dict(data, "probe at 25%"))
    monkeypatch.setattr(gen, "generate", lambda n, seed, suite: ([probe], 0))
    suite = [str(FIXTURE / "scenarios" / name) for name in ("below.yaml", "above.yaml")]
    result = CliRunner().invoke(main, ["mutate", "--logic", str(FIXTURE / "logic"), *suite, "--probes", "1",
                                       "--save", str(tmp_path), "--format", "json"])
    assert result.exit_code == 0, result.output
    status = {r["mutation"]: (r["status"], r["witness"]) for r in json.loads(result.output)["results"]}
    assert status["`P >= M` -> `P > M`"] == ("survived", "probe at 25%")
    assert status['percentage("br-pt", min_share, 2500 -> 2501, "br-pt 10(2)(a)")'] == ("survived", "probe at 25%")
    assert status["condition 0 `dividend_item(S,I)` dropped"][0] == "equivalent-suspected"
    saved = sorted(tmp_path.glob("survivor-*.yaml"))
    assert len(saved) == 2
    text = saved[0].read_text(encoding="utf-8")
    assert text.startswith("# tells apart the surviving mutant logic/br-pt/art10.lp:")
    assert read_yaml(saved[0])["holdings"][0]["capital"] == 25


def test_a_scenario_with_alternatives_is_used_and_kills() -> None:
    """Issue 25 ("One CLI"): a scenario whose expectations hold under `treaty check` only (a fact given as
    alternatives: three-valued answers) is used, each mutant judged by checking it again with the mutated
    rules. It kills the mutant that the three plain scenarios let survive (the note on every qualifying
    dividend, `qualifying(S,I)` dropped) and those that make 25% not qualify; the others keep their class."""
    logic = load_logic(FIXTURE / "logic")
    files = [*scenario_files([FIXTURE / "scenarios"]), OPEN]
    prepared = mutate.prepare(logic, "br-pt", [], files, probes=0)
    assert (prepared.scenarios, prepared.baseline_failures, prepared.notes) == (4, [], [])
    state = mutate._STATE
    assert state is not None
    assert [(Path(c.name).name, c.checked) for c in state.suite] == [
        ("above.yaml", False), ("below.yaml", False), ("exactly.yaml", False), ("capital-20-or-25.yaml", True)]

    report = run_mutation(logic, "br-pt", files, probes=0)
    note = "condition 1 `qualifying(S,I)` dropped"
    expected = {**EXPECTED, (41, "fx/note", "drop", note): "killed"}
    assert _classes(report) == expected
    killed = next(m for m in report.mutants if m.description == note)
    assert report.outcomes[killed.id].witness == str(OPEN)
    assert report.outcomes[killed.id].detail == "div-2024: status: expected depends, got decided"
    assert report.notes == []

    alone = run_mutation(logic, "br-pt", [OPEN], probes=0)
    by = {m.description: alone.outcomes[m.id] for m in alone.mutants}
    for description in (note, "`P >= M` -> `P > M`", "condition 3 `P >= M` dropped",
                        'percentage("br-pt", min_share, 2500 -> 2501, "br-pt 10(2)(a)")'):
        assert (by[description].status, by[description].witness) == ("killed", str(OPEN)), description
    # the cap's rate is not stated by the expectations: the check's result differs, nothing catches it
    assert (by["1000 -> 999 in the head"].status, by["1000 -> 999 in the head"].witness) == ("survived", str(OPEN))
    assert by['percentage("br-pt", min_share, 2500 -> 2499, "br-pt 10(2)(a)")'].status == "equivalent"



def test_a_checked_scenario_is_checked_again_only_where_the_mutant_can_fire() -> None:
    """A mutant whose statement can fire in none of the programs the check of a scenario asks for (nor could
    the original) has the original's result there: a dividend whose holding is 20% or 25% (no permanent
    establishment) is not checked again for a mutant of the rule of br-pt 10(4), and is for one of the cap of
    br-pt 10(2)(b)."""
    logic = load_logic()
    path = ROOT / "scenarios" / "br-pt" / "exam23-dividend-capital-20-or-25-domestic-rate.yaml"
    every = generate_mutants(logic, "br-pt")
    chosen = [next(m for m in every if m.rule_id == rule and m.description.startswith(start))
              for rule, start in (("br-pt/10-2-b-cap", "`not reduced_rate_applies"),
                                  ("br-pt/10-4-exception", "condition 1"))]
    prepared = mutate.prepare(logic, "br-pt", chosen, [path], probes=0)
    assert (prepared.scenarios, prepared.baseline_failures) == (1, [])
    state = mutate._STATE
    assert state is not None and state.suite[0].checked and state.suite[0].shapes
    case = state.suite[0]
    assert [mutate._check_may_matter(state, m, case) for m in chosen] == [True, False]
    far, near = mutate._run_one(state, chosen[1]), mutate._run_one(state, chosen[0])
    assert (far.status, far.solved) == ("equivalent", 0)
    assert (near.status, near.solved, near.witness) == ("killed", 1, str(path))
    # sound: checked with each program's possible predicates computed afresh for the mutated rules (not
    # those of the original's check), the mutant that is skipped has the original's result, the other
    # the result it was judged by
    for m in chosen:
        fresh = mutate._checked_logic(logic, {}, m.statement, Statement(m.file, m.text, m.head, m.positive, m.is_fact))
        result = mutate._checker(state, fresh).check(case.scenario, case.name, mutate.CHECK_TIME_LIMIT)
        if m is chosen[1]:
            assert result == case.output
        else:
            assert result == mutate._checked_result(state, m, case) != case.output
