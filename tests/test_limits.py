"""Issue 26, item 5: the limits of one check. The time limit covers grounding (the check runs in a
forked child stopped at the limit); an answer it cut says INCOMPLETE first in every output (text, JSON,
Markdown, the HTML report), names the limit and the wall-clock and CPU time measured; scenarios of many
items are checked in slices with progress, and those over the documented limits are refused naming the
limit and the count found. The reproducers' inputs come from ``tests/bench/large.py`` (30,000 items,
3,000 persons)."""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pyhelpers.base import clock, processes
from pyhelpers.base.errors import InputError, ScenarioError
from pyhelpers.engine import alternatives, bounded, limited
from pyhelpers.engine.answers import result_from_atoms
from pyhelpers.engine.bounded import run_bounded
from pyhelpers.engine.limited import check_within
from pyhelpers.engine.provenance import EXPLAINED_ROOTS
from pyhelpers.engine.results import Cut, ItemResult, ScenarioResult
from pyhelpers.engine.solve import Checker
from pyhelpers.interfaces.cli import main
from pyhelpers.output import render
from pyhelpers.output import report as rep
from pyhelpers.scenario import Scenario, load_dict, load_file
from pyhelpers.scenario.limits import MAX_ITEMS, MAX_PERSONS, SLICE_ITEMS, refuse_oversized

from .bench.large import many_items, many_persons
from .conftest import ROOT

QUALIFYING = ROOT / "scenarios/br-pt/dividends-qualifying-holding.yaml"
SG_FUTURE = ROOT / "scenarios/br-sg/unknowns-holding-end-in-the-future.yaml"
CUT = "INCOMPLETE: the time limit of 0.001 s was reached before the check ended"


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_a_check_cut_by_the_time_limit_says_so_first(fmt: str) -> None:
    """--time-limit 0.001 stops the check before the rules are applied (grounding included): every item is
    undecided with the finding time_limit, and the output's first line (JSON: first key) says INCOMPLETE
    with the limit and the time measured, wall-clock and CPU."""
    out = CliRunner().invoke(main, ["check", str(QUALIFYING), "--time-limit", "0.001", "--format", fmt])
    assert out.exit_code == 1, out.output  # the expect: block (decided, 10%) is not met by an undecided answer
    if fmt == "json":
        envelope = json.loads(out.output)
        assert next(iter(envelope)) == "incomplete" and envelope["incomplete"].startswith("1 of 1 answer(s) incomplete")
        data = envelope["results"][0]
        assert next(iter(data)) == "incomplete"
        reason = data["incomplete"]
        assert data["items"][0]["status"] == "depends"
        assert {"kind": "time_limit", "provision": "br-pt", "fact": "check"} in data["items"][0]["findings"]
    else:
        first = out.output.splitlines()[0]
        assert first.startswith(CUT if fmt == "text" else "# INCOMPLETE: "), first
        reason = next(line for line in out.output.splitlines()[:3] if "the time limit of" in line)
        assert "the time limit was reached before the check ended: nothing is final (br-pt)" in out.output
        assert "may tax, capped at 10%" not in out.output
    assert "the time limit of 0.001 s was reached before the check ended" in reason
    assert "measured in wall-clock time: " in reason and " of CPU time for the check" in reason
    assert reason.endswith("no item is decided")


def test_the_time_limit_covers_grounding(checker: Checker) -> None:
    """A scenario whose grounding alone outlasts the limit (1,500 persons: seconds of clingo's uninterruptible
    grounding) is stopped at the limit, not when the grounding ends: an incomplete answer, nothing decided."""
    scenario = load_dict(many_persons(1_500), "<1,500 persons>")
    start = time.monotonic()
    result = check_within(checker, scenario, "<1,500 persons>", time_limit=0.3)
    cut = time.monotonic() - start
    if cut >= 3.0:  # a busy machine: compared with the grounding the check was cut in, measured the same way
        start = time.monotonic()
        check_within(checker, scenario, "<1,500 persons>", time_limit=120)
        assert cut < 0.75 * (time.monotonic() - start)
    assert result.incomplete is not None and (result.incomplete.cut, result.incomplete.limit_seconds) == \
        (Cut.CHECK, 0.3)
    assert str(render.incomplete_text(result.incomplete, "en")).startswith("the time limit of 0.3 s was reached "
                                                                          "before the check ended")
    assert {it.status for it in result.items} == {"depends"} and len(result.items) == 750
    assert all(it.states and all(s.outcome == "undetermined" for s in it.states) for it in result.items)


def test_a_finished_check_is_unchanged(checker: Checker) -> None:
    scenario = load_file(QUALIFYING)
    assert check_within(checker, scenario, str(QUALIFYING)) == checker.check(scenario, str(QUALIFYING))


def test_a_cut_of_the_alternatives_keeps_what_is_certain_and_says_how_long_it_ran(checker: Checker) -> None:
    """The alternatives cut by their own deadline (the search stops on its own): the certain conclusions are
    kept, the reason is the alternatives' own, with the time measured appended."""
    result = check_within(checker, load_file(SG_FUTURE), str(SG_FUTURE), time_limit=0.0)
    assert result.incomplete is not None and result.incomplete.wall_seconds is not None
    assert str(render.incomplete_text(result.incomplete, "en")).startswith("the time limit of 0 s was reached")


def test_over_the_item_limit_is_refused_naming_the_limit_and_the_count() -> None:
    """Refused before validation (the count is all it takes): a ScenarioError, exit code 2."""
    data = {"name": "n", "treaty": "br-pt", "persons": {}, "income": [{}] * (MAX_ITEMS + 1)}
    with pytest.raises(ScenarioError) as err:
        load_dict(data, "big.yaml")
    assert f"big.yaml: income: expected at most {MAX_ITEMS:,} income items, found {MAX_ITEMS + 1:,}" in str(err.value)
    assert "treaty batch" in str(err.value)


def test_the_3000_person_reproducer_is_refused_with_the_limit_named(tmp_path: Path) -> None:
    data = many_persons(3_000)
    with pytest.raises(ScenarioError) as err:
        load_dict(data, "persons.yaml")
    assert f"persons.yaml: persons: expected at most {MAX_PERSONS:,} persons, found 3,000" in str(err.value)
    persons = tmp_path / "persons.yaml"  # the persons alone, within the reader's budget of values
    persons.write_text(json.dumps({**data, "holdings": [], "income": []}, indent=0), encoding="utf-8")
    out = CliRunner().invoke(main, ["check", str(persons)])
    assert out.exit_code == 2
    assert out.output.startswith(f"error: {persons}:5: persons: expected at most 1,800 persons, found 3,000 (split "
                                 "the scenario into groups"), out.output


def test_the_30000_item_reproducer_file_is_refused_by_the_file_budget(tmp_path: Path) -> None:
    """A file of 30,000 items (4 MB) exceeds the reader's budget of 1,000,000 bytes (read no further)."""
    path = tmp_path / "items.yaml"
    path.write_text(json.dumps(many_items(30_000)), encoding="utf-8")
    out = CliRunner().invoke(main, ["check", str(path)])
    assert out.exit_code == 2
    assert out.output.startswith(f"error: {path}: (file): expected a scenario file of at most 1,000,000 bytes, found "
                                 "a larger file (split it, or give the payments as a ledger to `treaty batch`)")


class _Stub:
    """A checker whose rules decide every item at once, nothing else (to count slices, not to decide)."""

    def __init__(self, checker: Checker) -> None:
        self.real = checker

    @property
    def declared(self) -> Any:
        return None

    def check(self, scenario: Scenario, source: str, time_limit: float, three_valued: Any = None) -> ScenarioResult:
        empty = result_from_atoms(scenario.model_copy(update={"income": []}), source, [], self.real.receipt([]))
        return dataclasses.replace(empty, items=tuple(ItemResult(it.id, scenario.treaty, it.type, "decided", (), None,
                                                                 (), ()) for it in scenario.income))

    def facts(self, scenario: Scenario) -> list[str]:
        return [f"n({len(scenario.income)})."]

    def receipt(self, facts: list[str]) -> Any:
        return self.real.receipt(facts)


def test_the_30000_item_reproducer_is_checked_in_slices_with_progress(checker: Checker) -> None:
    """30,000 items are accepted and checked in 30 slices of 1,000, each in its own bounded child, the
    progress told after each; the items come back in order (the rules replaced by a stub: the real check of
    30,000 items takes about 30 s, tests/bench/large.py)."""
    data = many_items(30_000)
    refuse_oversized(data, "<30,000 items>")  # accepted: below the limits
    small = load_dict(many_items(1_000), "<1,000 items>")  # validating 30,000 items takes seconds: copies
    scenario = small.model_copy(update={"income": [small.income[k % 1_000].model_copy(update={"id": f"item-{k}"})
                                                   for k in range(30_000)]})
    told: list[tuple[int, int]] = []
    result = check_within(_Stub(checker), scenario, "<30,000 items>", 10.0, lambda d, n: told.append((d, n)))
    assert told == [(k * SLICE_ITEMS, 30_000) for k in range(1, 31)]
    assert [it.item_id for it in result.items] == [f"item-{k}" for k in range(30_000)]
    assert result.incomplete is None


def test_slices_decide_as_the_whole(checker: Checker, monkeypatch: pytest.MonkeyPatch) -> None:
    """300 items in slices of 100: the same items as one check of the whole, progress after each slice."""
    monkeypatch.setattr(limited, "SLICE_ITEMS", 100)
    scenario = load_dict(many_items(300), "<300 items>")
    told: list[tuple[int, int]] = []
    sliced = check_within(checker, scenario, "<300 items>", 10.0, lambda d, n: told.append((d, n)))
    whole = checker.check(scenario, "<300 items>")
    assert told == [(100, 300), (200, 300), (300, 300)]
    assert sliced.items == whole.items and sliced.receipt == whole.receipt and sliced.incomplete is None
    div = sliced.item("item-0")
    assert (div.status, div.state("br").outcome, div.max_rate_bp) == ("decided", "capped", 1500)
    assert "br-pt 10(2)(b)" in div.provisions


def test_the_report_says_incomplete_first(checker: Checker, monkeypatch: pytest.MonkeyPatch) -> None:
    """The HTML report of an answer cut by the time limit: INCOMPLETE in the page's title, its headline and
    the scenario's heading, with the reason under it."""
    monkeypatch.setattr(alternatives, "DEFAULT_TIME_LIMIT", 0.0)
    loaded = [(str(SG_FUTURE), load_file(SG_FUTURE), SG_FUTURE.read_bytes())]
    page = rep.render_html(rep.build_report(checker, loaded, "en", EXPLAINED_ROOTS), None)
    assert "<title>INCOMPLETE: Decision report</title>" in page
    assert '<h1>INCOMPLETE: Decision report</h1>' in page
    assert '<h1>INCOMPLETE: Unknown future end of a holding' in page
    assert '<p class="incomplete"><strong>INCOMPLETE</strong>: the time limit of 0 s was reached' in page
    complete = rep.render_html(rep.build_report(checker, [(str(QUALIFYING), load_file(QUALIFYING),
                                                           QUALIFYING.read_bytes())], "en", EXPLAINED_ROOTS), None)
    assert "INCOMPLETE" not in complete


def _pid(_emit: Callable[[None], None]) -> int:
    return os.getpid()


def _sleep(seconds: float, _emit: Callable[[None], None]) -> int:
    time.sleep(seconds)
    return os.getpid()


def _spin(seconds: float, _emit: Callable[[None], None]) -> int:
    """Work that uses ``seconds`` of CPU time."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
    return os.getpid()


@pytest.mark.skipif(not clock.TIMED, reason="the kernel's CPU timer (ITIMER_PROF) bounds the child")
def test_the_time_limit_counts_cpu_time_not_the_machines_load() -> None:
    """Audit 24 D3: the limit counts the CPU time of the work, so that a loaded machine (whose wall-clock
    time runs ahead of the work's CPU time) gives the same answer as an idle one. Work that waits 1 s
    (no CPU) within a budget of 0.3 s of CPU time finishes; work that uses 30 s of CPU time is cut at the
    budget, in far less wall-clock time than it would have taken."""
    waited = run_bounded(functools.partial(_sleep, 1.0), clock.now() + 0.3)
    assert waited.finished and waited.wall >= 1.0
    start = time.monotonic()
    cut = run_bounded(functools.partial(_spin, 30.0), clock.now() + 0.3)
    assert (cut.finished, cut.value) == (False, None) and time.monotonic() - start < 25
    assert cut.cpu is not None and 0.25 <= cut.cpu < 5
    within = run_bounded(functools.partial(_spin, 0.1), clock.now() + 5)  # narrowly not: within its budget
    assert within.finished and within.value != os.getpid()


def _refuse(_emit: Callable[[None], None]) -> int:
    raise InputError("refused in the kept child")


@pytest.mark.skipif(not processes.forking(), reason="a kept child is forked")
def test_a_kept_child_answers_one_work_after_the_other_and_is_replaced_when_cut(
        checker: Checker, monkeypatch: pytest.MonkeyPatch) -> None:
    """``treaty serve`` keeps one child for its bounded checks: works that pickle run in that one child
    (not in this process), an error raised there is raised here and the child stays, a work past its
    deadline kills it and the next work gets a new child; a check there gives the check's answer."""
    monkeypatch.setattr(bounded, "_KEPT", None)
    bounded.keep_child()
    try:
        first = run_bounded(_pid, clock.now() + 60)
        second = run_bounded(_pid, clock.now() + 60)
        assert first.finished and first.value == second.value and first.value != os.getpid()
        assert second.cpu is not None
        with pytest.raises(InputError, match="refused in the kept child"):
            run_bounded(_refuse, clock.now() + 60)
        assert run_bounded(_pid, clock.now() + 60).value == first.value
        cut = run_bounded(functools.partial(_spin, 30.0), clock.now() + 0.5)
        assert (cut.finished, cut.value) == (False, None) and cut.wall < 10
        after = run_bounded(_pid, clock.now() + 60)
        assert after.finished and after.value not in (None, first.value, os.getpid())
        scenario = load_file(QUALIFYING)
        assert check_within(checker, scenario, str(QUALIFYING)) == checker.check(scenario, str(QUALIFYING))
    finally:
        assert bounded._KEPT is not None
        bounded._KEPT.stop()
