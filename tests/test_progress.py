"""Progress bars of the long commands (issue 25, "One CLI"): the shared bar shows the work's total, the time
elapsed and the time remaining, in the command's language, only on a terminal; each tool tells its callback
the whole of its work; off a terminal the output is the same bytes as without a bar."""

from __future__ import annotations

import io
import json
import os
import pty
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from pyhelpers.engine.program import load_logic
from pyhelpers.engine.solve import Checker
from pyhelpers.interfaces import documents
from pyhelpers.interfaces.batch import run_batch
from pyhelpers.interfaces.cli import main
from pyhelpers.interfaces.ledger import count_rows
from pyhelpers.interfaces.progress import progress_bar
from pyhelpers.scenario import load_file
from pyhelpers.tools import coverage
from pyhelpers.tools.coverage import coverage_text, run_coverage, scenario_files
from pyhelpers.tools.diff import diff_outcomes
from pyhelpers.tools.mutate import run_mutation

from .conftest import ROOT
from .ledger_gen import CONTEXT, generate, write_csv

MINI = ROOT / "tests" / "fixtures" / "mini"
MUTATE = ROOT / "tests" / "fixtures" / "mutate"
TIME = r"\d+:\d\d:\d\d"
"""A time as rich writes it (elapsed, remaining); an unknown remaining time is ``-:--:--``."""


def _terminal() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=True, width=140, color_system=None), out


def _frames(text: str) -> list[str]:
    """The bar's lines as drawn, without the terminal's control sequences."""
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
    return [line.strip() for line in re.split(r"[\r\n]", plain) if line.strip()]


def test_the_bar_shows_the_total_the_time_elapsed_and_the_time_remaining() -> None:
    console, out = _terminal()
    with progress_bar("treaty coverage", 40, "scenarios", console=console) as advance:
        advance(10)
        time.sleep(0.3)
        advance(10)  # two advances apart in time: a speed, so a time remaining
        time.sleep(0.2)
    last = _frames(out.getvalue())[-1]
    assert re.fullmatch(rf"treaty coverage ━+ *20/40 scenarios {TIME} {TIME}", last), last


def test_the_bar_speaks_the_commands_language() -> None:
    console, out = _terminal()
    with progress_bar("treaty batch", 5_678, "rows", "pt", rate=True, console=console) as advance:
        advance(1_000)
        time.sleep(0.3)
        advance(234)
        time.sleep(0.2)
    last = _frames(out.getvalue())[-1]
    assert re.fullmatch(rf"treaty batch ━+ *1\.234/5\.678 linhas [\d.]+ linhas/s {TIME} {TIME}", last), last
    for lang, word in (("pt", "arquivos"), ("pt-BR", "arquivos"), ("pt-PT", "ficheiros"), ("en", "files")):
        console, out = _terminal()
        with progress_bar("treaty check", 3, "files", lang, console=console) as advance:
            advance(1)
        assert f"1/3 {word} " in _frames(out.getvalue())[-1], lang


def test_a_total_told_once_the_work_has_started() -> None:
    console, out = _terminal()
    with progress_bar("treaty mutate", None, "mutants", console=console) as advance:
        advance.total(12)
        advance(3)
    assert "3/12 mutants" in _frames(out.getvalue())[-1]


def test_off_a_terminal_nothing_is_written(capsys: pytest.CaptureFixture[str]) -> None:
    with progress_bar("treaty coverage", 40, "scenarios") as advance:
        advance(40)
        advance.total(50)
    with progress_bar("treaty batch", None, "rows", quiet=True) as advance:
        advance(3)
    assert capsys.readouterr() == ("", "")


# ------------------------------------------------------------------- each tool tells its whole work ---

def test_coverage_tells_each_group_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    logic, paths = load_logic(MINI / "logic"), scenario_files([MINI / "scenarios"])
    told: list[int] = []
    one = run_coverage(logic, paths, jobs=1, progress=told.append)
    assert told == [len(paths)]  # one group: the mini suite is smaller than GROUP
    monkeypatch.setattr(coverage, "GROUP", 1)
    told = []
    two = run_coverage(logic, paths, jobs=2, progress=told.append)
    assert told == [1] * len(paths) and (two.fired, two.seen) == (one.fired, one.seen)


def test_diff_tells_each_scenario() -> None:
    paths = scenario_files([MINI / "scenarios"])
    told: list[int] = []
    assert diff_outcomes(MINI / "logic", MINI / "logic", paths, progress=told.append) == []
    assert told == [1] * len(paths)


def test_mutate_tells_its_plan_then_each_statements_mutants() -> None:
    planned: list[int] = []
    told: list[int] = []
    report = run_mutation(load_logic(MUTATE / "logic"), "br-pt", scenario_files([MUTATE / "scenarios"]), probes=0,
                          progress=told.append, planned=planned.append)
    assert planned == [len(report.mutants)] and sum(told) == len(report.mutants) and len(told) > 1


@pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is not installed")
def test_crosscheck_tells_each_chunk(checker: Checker) -> None:
    from pyhelpers.prolog.crosscheck import crosscheck, load_cases

    cases = load_cases([str(ROOT / "scenarios/br-pt" / name) for name in
                        ("dividends-qualifying-holding.yaml", "residence-tie-breaker-facts-unknown.yaml",
                         "dividends-holding-24-9-percent.yaml")])
    told: list[int] = []
    assert crosscheck(cases, checker, chunk=2, progress=told.append).ok
    assert told == [2, 1]


def test_report_tells_each_scenario(checker: Checker) -> None:
    names = ["scenarios/br-pt/dividends-qualifying-holding.yaml", "scenarios/br-pt/dividends-holding-24-9-percent.yaml"]
    loaded = [(p, load_file(str(ROOT / p)), (ROOT / p).read_bytes()) for p in names]
    told: list[int] = []
    page = documents.report_page(checker, loaded, (), "en", progress=told.append)
    assert told == [1, 1] and all(p in page for p in names)


def test_batch_tells_each_chunk_and_a_resumed_runs_rows_first(tmp_path: Path, checker: Checker) -> None:
    ledger = write_csv(tmp_path / "in.csv", generate(50, seed=11))
    told: list[int] = []
    assert run_batch(ledger, CONTEXT, tmp_path / "a.csv", workers=1, chunk_size=20, checker=checker,
                     progress=told.append).rows == 50
    assert told == [20, 20, 10]

    def stop(n: int) -> None:
        told.append(n)
        if len(told) == 2:
            raise KeyboardInterrupt

    told = []
    with pytest.raises(KeyboardInterrupt):
        run_batch(ledger, CONTEXT, tmp_path / "b.csv", workers=1, chunk_size=20, checker=checker, progress=stop)
    told = []
    run_batch(ledger, CONTEXT, tmp_path / "b.csv", workers=1, chunk_size=20, checker=checker, resume=True,
              progress=told.append)
    assert told == [40, 10]


def test_the_ledgers_rows_are_counted_cheaply(tmp_path: Path) -> None:
    rows = generate(30, seed=3)
    csv_path = write_csv(tmp_path / "l.csv", rows)
    assert count_rows(csv_path) == 30
    jsonl = tmp_path / "l.jsonl"
    jsonl.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")  # no final line break
    assert count_rows(jsonl) == 30
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "l.parquet")
    assert count_rows(tmp_path / "l.parquet") == 30
    (tmp_path / "empty.csv").write_bytes(b"")
    assert count_rows(tmp_path / "empty.csv") == 0
    assert count_rows(tmp_path / "missing.csv") is None and count_rows(tmp_path / "l.txt") is None


# ----------------------------------------------------------------------- the commands, on and off a terminal ---

def test_off_a_terminal_the_commands_write_no_bar(tmp_path: Path) -> None:
    runner = CliRunner()
    done = runner.invoke(main, ["coverage", "--workers", "1", "--logic", str(MINI / "logic"), str(MINI / "scenarios")])
    cov = run_coverage(load_logic(MINI / "logic"), scenario_files([MINI / "scenarios"]), jobs=1)
    assert done.exit_code == 0 and done.stdout == coverage_text(cov) and done.stderr == ""
    ledger = write_csv(tmp_path / "in.csv", generate(5, seed=2))
    done = runner.invoke(main, ["batch", str(ledger), "--context", str(CONTEXT), "-o", str(tmp_path / "o.csv"),
                                "--workers", "1", "-q"])
    assert done.exit_code == 0 and done.stdout == "" and done.stderr == ""


def test_on_a_terminal_the_bar_goes_to_stderr_and_stdout_keeps_its_bytes(tmp_path: Path) -> None:
    args = [sys.executable, "-m", "pyhelpers.interfaces.cli", "coverage", "--workers", "1", "--logic",
            str(MINI / "logic"), str(MINI / "scenarios")]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    plain = subprocess.run(args, capture_output=True, env=env, check=True)
    primary, secondary = pty.openpty()
    with open(tmp_path / "stdout", "wb") as out:
        run = subprocess.Popen(args, stdout=out, stderr=secondary, stdin=subprocess.DEVNULL, env=env)
        os.close(secondary)
        seen = b""
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # the terminal closed with the command
                break
            if not chunk:
                break
            seen += chunk
        assert run.wait(timeout=60) == 0
    os.close(primary)
    assert (tmp_path / "stdout").read_bytes() == plain.stdout and plain.stderr == b""
    frames = _frames(seen.decode("utf-8", errors="replace"))
    assert any(re.fullmatch(rf"treaty coverage ━+ *2/2 scenarios {TIME} {TIME}", f) for f in frames), frames
