"""Issue 25, item 4: the process pools and the time limit work under the ``spawn`` start method (Windows,
macOS), not only ``fork``: each test forces ``spawn`` (``TREATY_START_METHOD``) and compares with the
answer of one process. Inputs are small: a spawned worker loads the rule base itself."""

from __future__ import annotations

import pickle
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pyhelpers.base import clock, processes
from pyhelpers.base.errors import InputError
from pyhelpers.engine import bounded
from pyhelpers.engine.limited import check_within
from pyhelpers.engine.program import load_logic
from pyhelpers.engine.solve import Checker
from pyhelpers.engine.whatif import whatif
from pyhelpers.interfaces.batch import run_batch
from pyhelpers.prolog.crosscheck import Case, crosscheck
from pyhelpers.scenario import load_dict, load_file
from pyhelpers.tools import coverage
from pyhelpers.tools.coverage import run_coverage
from pyhelpers.tools.mutate import run_mutation

from .bench.large import many_persons
from .conftest import ROOT
from .ledger_gen import CONTEXT, generate, write_csv
from .test_mutate import EXPECTED, FIXTURE, OPEN, _classes

QUALIFYING = ROOT / "scenarios/br-pt/dividends-qualifying-holding.yaml"
FORTY = ROOT / "scenarios/br-pt/dividends-individual-beneficial-owner-40-percent.yaml"
FIXTURE_SCENARIOS = sorted((FIXTURE / "scenarios").glob("*.yaml"))
SMALL = [QUALIFYING, *sorted((ROOT / "scenarios/br-pt").glob("interest-*.yaml"))[:2]]


@pytest.fixture(autouse=True)
def spawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(processes.VARIABLE, "spawn")
    assert processes.start_method() == "spawn" and not processes.forking()
    yield


@pytest.fixture(scope="module")
def checker() -> Checker:
    return Checker()


def test_a_start_method_that_does_not_exist_is_bad_input(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(processes.VARIABLE, "teleport")
    with pytest.raises(InputError, match=r"TREATY_START_METHOD: expected one of .*spawn.*, found 'teleport'"):
        processes.start_method()


def test_a_checker_pickles_as_its_spec(checker: Checker) -> None:
    """What a spawned worker receives: the rule base's folder and strictness, not the parsed rules."""
    data = pickle.dumps(checker)
    assert len(data) < 1_000
    again = pickle.loads(data)
    assert (again.logic.root, again.logic.digest, again.strict) == (checker.logic.root, checker.logic.digest, False)
    assert pickle.loads(pickle.dumps(Checker(checker.logic, strict=True))).strict


def test_check_many_on_spawned_workers(checker: Checker) -> None:
    scenarios = [(load_file(p), str(p)) for p in SMALL]
    alone = list(checker.check_many(scenarios, workers=1, chunk=1))
    assert list(checker.check_many(scenarios, workers=2, chunk=1)) == alone


def test_batch_on_spawned_workers(tmp_path: Path, checker: Checker, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same bytes as forked workers (which give those of one process: tests/test_batch.py)."""
    ledger = write_csv(tmp_path / "in.csv", generate(12, seed=5, schedule=False))
    spawned, forked = tmp_path / "spawned.jsonl", tmp_path / "forked.jsonl"
    summary = run_batch(ledger, CONTEXT, spawned, workers=2, chunk_size=6, checker=checker)
    assert summary.rows == 12
    monkeypatch.setenv(processes.VARIABLE, "fork")
    run_batch(ledger, CONTEXT, forked, workers=2, chunk_size=6, checker=checker)
    assert spawned.read_bytes() == forked.read_bytes()


def test_mutate_on_spawned_workers() -> None:
    """The fixture's known mutants classified as in one process: each spawned worker prepares the same
    mutants and suite from the run's spec."""
    from pyhelpers.tools.coverage import scenario_files

    report = run_mutation(load_logic(FIXTURE / "logic"), "br-pt", scenario_files([FIXTURE / "scenarios"]),
                          probes=0, jobs=2)
    assert _classes(report) == EXPECTED


def test_mutate_with_a_checked_scenario_on_spawned_workers() -> None:
    """A scenario decided over its open facts (alternatives) judges the mutants as in one process: each
    spawned worker checks it with the original rules while preparing."""
    logic = load_logic(FIXTURE / "logic")
    alone = run_mutation(logic, "br-pt", [OPEN], probes=0)
    spawned = run_mutation(logic, "br-pt", [OPEN], probes=0, jobs=2)
    assert alone.notes == [] and alone.counts()["killed"] == 4
    assert spawned.outcomes == alone.outcomes


def test_coverage_on_spawned_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """On the mutation fixture's small rule base (the whole one's condition plan takes minutes per worker),
    one scenario a group: three groups for the two workers (in one group they would be measured here)."""
    logic = load_logic(FIXTURE / "logic")
    alone = run_coverage(logic, FIXTURE_SCENARIOS, jobs=1)
    monkeypatch.setattr(coverage, "GROUP", 1)
    both = run_coverage(logic, FIXTURE_SCENARIOS, jobs=2)
    assert (both.fired, both.seen) == (alone.fired, alone.seen)
    assert alone.fired


def test_crosscheck_under_spawn() -> None:
    """The cross-check runs SWI-Prolog in subprocesses from threads: no fork anywhere (on the fixture's
    small rule base)."""
    checker = Checker(load_logic(FIXTURE / "logic"))
    report = crosscheck([Case(str(p), load_file(p)) for p in FIXTURE_SCENARIOS], checker, chunk=1)
    assert report.cases == 3 and not report.disagreements


def test_the_time_limit_is_kept_under_spawn(checker: Checker) -> None:
    """A grounding that outlasts the limit is cut in a spawned child as in a forked one: INCOMPLETE,
    nothing decided (the limit counts from the child's start: loading the rule base is not the check)."""
    scenario = load_dict(many_persons(1_500), "<1,500 persons>")
    start = time.monotonic()
    result = check_within(checker, scenario, "<1,500 persons>", time_limit=0.3)
    assert time.monotonic() - start < 20.0
    assert result.incomplete is not None and (result.incomplete.cut, result.incomplete.limit_seconds) == ("check", 0.3)
    assert {it.status for it in result.items} == {"depends"} and len(result.items) == 750


def test_a_finished_check_is_unchanged_under_spawn(checker: Checker) -> None:
    scenario = load_file(QUALIFYING)
    assert check_within(checker, scenario, str(QUALIFYING)) == checker.check(scenario, str(QUALIFYING))


def test_whatif_runs_in_a_spawned_child(checker: Checker, monkeypatch: pytest.MonkeyPatch) -> None:
    """The search pickles (its goal is parsed in the child): it does not fall back to this process."""
    monkeypatch.setattr(bounded, "_run_here", None)
    goal = 'max_rate("div-2024", R), R <= 1000'
    scenario = load_file(FORTY)
    spawned = whatif(checker, scenario, str(FORTY), goal, 30.0)
    assert (spawned.holds_already, spawned.incomplete) == (False, None)
    monkeypatch.undo()
    monkeypatch.setenv(processes.VARIABLE, "fork")
    assert spawned == whatif(checker, scenario, str(FORTY), goal, 30.0)


def test_work_that_does_not_pickle_is_still_bounded() -> None:
    """A closure cannot reach a spawned child: it runs here, and ending past the deadline it counts as cut."""
    def spin(seconds: float) -> None:  # uses CPU time: the limit counts it (pyhelpers.base.clock)
        end = time.process_time() + seconds
        while time.process_time() < end:
            pass

    run = bounded.run_bounded(lambda emit: (emit(1), spin(0.3), 2)[-1], clock.now() + 0.05)
    assert (run.value, run.finished, run.emitted) == (None, False, [1])
    run = bounded.run_bounded(lambda emit: 2, clock.now() + 5)
    assert (run.value, run.finished) == (2, True)
