"""Spark as an engine of `treaty batch` (issue 27 items 4 and 5), in local mode: one SparkSession for the
module (``local[2,2]``: two task threads, a task tried twice before the job fails). The ledger has 200 rows
(ten partitions) as in tests/test_distributed.py (``TREATY_DISTRIBUTED_SMALL=1``: 200 rows, four partitions);
the killed-worker test runs 200 rows in twenty partitions.

* `treaty batch --engine spark` gives the rows (sorted by row id) and the run receipt of `treaty batch` at
  the same partition size, on the ledger of tests/test_distributed.py (the same seed, bad rows and
  duplicate ids: Dask's equality with `treaty batch` is tested there).
* :func:`check_dataframe` on a DataFrame built in memory gives `treaty batch`'s rows of the same data as a
  Parquet ledger, the context given as a path or as text.
* `--resume` redoes only the partitions without a committed entry.
* A Python worker killed mid-run: Spark retries its task, every row is written exactly once.
* Without PySpark: the error says what to install (exit code 2, no traceback)."""

from __future__ import annotations

import builtins
import csv
import json
import os
import re
import shutil
import signal
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pyhelpers.base.errors import BatchError, LedgerError
from pyhelpers.engine.solve import Checker
from pyhelpers.interfaces.batch import RESULT_COLUMNS, Summary, run_batch
from pyhelpers.interfaces.cli import main
from pyhelpers.interfaces.cluster import ENTRIES, MANIFEST

from .ledger_gen import CONTEXT, DUPLICATES, engines_ledger, generate, interrupted, write_csv

SMALL = os.environ.get("TREATY_DISTRIBUTED_SMALL") == "1"
ROWS, PART = (200, 50) if SMALL else (20_000, 2_000)

pytestmark = pytest.mark.xdist_group("spark")


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    """The module's one SparkSession: two task threads, each task tried at most twice."""
    pytest.importorskip("pyspark")
    pytest.importorskip("pandas")  # mapInArrow goes through PySpark's pandas UDF machinery
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("no Java runtime")
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = (SparkSession.builder.master("local[2,2]").appName("test_spark")
               .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.caseSensitive", "true").config("spark.sql.shuffle.partitions", "2")
               # a lean JVM for a few hundred rows: half the CPU of Spark's defaults (JIT, GC, code generation)
               .config("spark.driver.extraJavaOptions",
                       "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:CICompilerCount=1")
               .config("spark.sql.codegen.wholeStage", "false").config("spark.sql.adaptive.enabled", "false"))
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="PySpark does not yet fully support", category=FutureWarning)
        session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return engines_ledger(tmp_path_factory.mktemp("ledger") / "ledger.csv", ROWS)


@pytest.fixture(scope="module")
def local(ledger: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Summary, Path]:
    out = tmp_path_factory.mktemp("local") / "out.csv"
    return run_batch(ledger, CONTEXT, out, workers=1, chunk_size=PART, checker=Checker()), out


def _csv_rows(paths: list[Path]) -> tuple[list[str], list[list[str]]]:
    """The header (the same in every file) and the rows, sorted by row id (then row)."""
    header: list[str] | None = None
    rows: list[list[str]] = []
    for path in paths:
        with open(path, newline="", encoding="utf-8") as fh:
            reader = csv.reader(fh)
            first = next(reader)
            assert header in (None, first)
            header = first
            rows.extend(reader)
    assert header is not None
    return header, sorted(rows)


def _parquet_rows(out: Path) -> tuple[list[str], list[list[str]]]:
    import pyarrow.parquet as pq

    header: list[str] | None = None
    rows: list[list[str]] = []
    for path in sorted(out.glob("part-*.parquet")):
        table = pq.read_table(path)
        assert header in (None, table.column_names)
        header = table.column_names
        rows.extend([rec[c] for c in header] for rec in table.to_pylist())
    assert header is not None
    return header, sorted(rows)


@pytest.fixture(scope="module")
def sparked(spark: Any, ledger: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """`treaty batch --engine spark` in the session of a notebook (the active one: not stopped after), Parquet
    parts: its output and folder."""
    out = tmp_path_factory.mktemp("spark") / "spark.parquet"
    result = CliRunner().invoke(main, ["batch", str(ledger), "--context", str(CONTEXT), "-o", str(out),
                                       "--engine", "spark", "--partition-rows", str(PART)])
    assert result.exit_code == 0, result.output
    return result.output, out


def test_spark_and_treaty_batch_give_the_same_rows_and_receipts(spark: Any, ledger: Path, local: tuple[Summary, Path],
                                                                sparked: tuple[str, Path]) -> None:
    (summary, local_out), (said, out) = local, sparked
    header, rows = _csv_rows([local_out])
    assert _parquet_rows(out) == (header, rows)
    assert header[-len(RESULT_COLUMNS):] == list(RESULT_COLUMNS)
    statuses = ", ".join(f"{k} {v:,}" for k, v in sorted(summary.by_status.items()))
    assert f"{out}: {ROWS:,} rows in " in said and f"rows/s): {statuses}" in said
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["receipt"] == summary.receipt != "" and manifest["rows"] == ROWS
    assert [p["file"] for p in manifest["partitions"]] == [f"part-{k:08d}.parquet" for k in range(ROWS // PART)]
    assert {p["receipt"]["logic_sha256"] for p in manifest["partitions"]} == {Checker().logic.digest}
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST, *(f"part-{k:08d}.parquet" for k in range(ROWS // PART))]
    error = header.index("error")
    duplicate = sorted(r[error] for r in rows if "expected an id no other row has" in r[error])
    assert duplicate == sorted(f"{ledger} row {k + 1} (line {k + 2}, id pay-{k:07d}): id: expected an id no other "
                               f"row has, found 'pay-{k:07d}', already row {k}" for k in DUPLICATES)
    assert spark.sparkContext._jsc is not None  # the session it found was not stopped


def test_resume_redoes_only_partitions_without_a_committed_entry(spark: Any, ledger: Path,
                                                                 local: tuple[Summary, Path],
                                                                 sparked: tuple[str, Path], tmp_path: Path) -> None:
    """As an interrupted run leaves it: the entries of partitions 0 and 2 committed, 1 and 3 not (their duplicate
    ids are still found: row 62 repeats row 61's id, in partition 1)."""
    from pyhelpers.interfaces.spark import run_spark

    out = tmp_path / "resumed.parquet"
    shutil.copytree(sparked[1], out)
    interrupted(out, committed={0, 2})  # as an interrupted run leaves it: 0 and 2 committed, 1 and 3 not
    events: list[tuple[str, int]] = []
    summary = run_spark(ledger, CONTEXT, out, partition_rows=PART, resume=True, session=spark,
                        progress=lambda event, index, rows: events.append((event, index)))
    redone = [("done", k) for k in range(ROWS // PART) if k not in (0, 2)]
    assert events[:2] == [("resumed", 0), ("resumed", 2)] and sorted(events[2:]) == redone
    assert summary.resumed_chunks == 2 and summary.rows == ROWS - 2 * PART
    assert _parquet_rows(out) == _csv_rows([local[1]])
    assert json.loads((out / MANIFEST).read_text(encoding="utf-8"))["receipt"] == local[0].receipt


def test_check_dataframe_gives_treaty_batch_rows_of_the_same_data(spark: Any, tmp_path: Path) -> None:
    """A DataFrame built in memory (two Spark partitions: rows numbered across them), and the same rows as a
    Parquet ledger through `treaty batch`: the same rows, bad rows and a duplicate id reported on their row."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from pyhelpers.interfaces.spark import check_dataframe

    data = generate(12, seed=4, bad_share=0.0)
    data[3]["treaty"] = "br-xx"
    data[9]["id"] = data[2]["id"]
    columns = list(data[0])
    ledger = tmp_path / "payments.parquet"
    pq.write_table(pa.Table.from_pylist(data), ledger)
    out = tmp_path / "out.csv"
    run_batch(ledger, CONTEXT, out, workers=1, checker=Checker())
    header, expected = _csv_rows([out])

    df = spark.createDataFrame([tuple(r[c] for c in columns) for r in data],
                               ", ".join(f"`{c}` string" for c in columns))
    assert df.rdd.getNumPartitions() == 2
    checked = check_dataframe(df, CONTEXT, ledger=str(ledger))
    assert checked.columns == header
    got = sorted([list(r) for r in checked.collect()])
    assert got == expected
    error = header.index("error")
    assert sorted(r[error] for r in got if r[error]) == [
        f"{ledger} row 10 (id {data[2]['id']}): id: expected an id no other row has, found '{data[2]['id']}', "
        f"already row 3",
        f"{ledger} row 4 (id {data[3]['id']}): treaty: expected one of br-ae, br-pl, br-pt, br-sg, br-uy, "
        f"found 'br-xx'"]
    as_text = check_dataframe(df, CONTEXT.read_text(encoding="utf-8"), ledger=str(ledger))
    assert sorted([list(r) for r in as_text.collect()]) == expected


def test_bounds_on_spark_is_treaty_batch_bounds(spark: Any, tmp_path: Path) -> None:
    """``check_dataframe(bounds=True)`` and ``run_spark(bounds=True)`` (``--engine spark --bounds``) give the rows of
    ``treaty batch --bounds``; the manifest and the receipts record it."""
    from pyhelpers.interfaces.spark import check_dataframe, run_spark

    from .test_batch_bounds import MISSING

    rows = [MISSING | {"id": f"r{n}", "withheld_rate": "20"} for n in range(4)]
    ledger = write_csv(tmp_path / "in.csv", rows)
    local = tmp_path / "local.csv"
    summary = run_batch(ledger, CONTEXT, local, workers=1, chunk_size=2, checker=Checker(), bounds=True)
    header, expected = _csv_rows([local])
    assert {r[header.index("cap")] for r in expected} == {"at most 15%"}
    columns = list(rows[0])
    df = spark.createDataFrame([tuple(r[c] for c in columns) for r in rows],
                               ", ".join(f"`{c}` string" for c in columns))
    checked = check_dataframe(df, CONTEXT, ledger=str(ledger), bounds=True)
    assert sorted([list(r) for r in checked.collect()]) == expected
    out = tmp_path / "spark.csv"
    assert run_spark(ledger, CONTEXT, out, session=spark, partition_rows=2, bounds=True).receipt == summary.receipt
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["bounds"] is True and {p["receipt"]["bounds"] for p in manifest["partitions"]} == {True}


def test_a_column_named_like_a_result_column_is_refused(spark: Any) -> None:
    """A DataFrame column named like a result column (its cells would be replaced by the result) is refused, naming
    it, before anything runs (was: dropped from the output)."""
    from pyhelpers.interfaces.spark import check_dataframe

    df = spark.createDataFrame([("a", "x")], "`id` string, `cap` string")
    with pytest.raises(LedgerError, match=re.escape("payments: expected column names other than the result columns "
                                                    "the batch adds (applicable_treaty, status, ")) as err:
        check_dataframe(df, CONTEXT, ledger="payments")
    assert "found 'cap' (column 2); rename it" in str(err.value)


def test_columns_named_like_the_internals_are_the_dataframes_own(spark: Any, tmp_path: Path) -> None:
    """Reproducer: a DataFrame's columns __line__, __error__, __order__ (or Spark's __first_row__, __partition__)
    were taken for the bookkeeping of those names: an error whose message was the cell, an order that is not
    JSON (a traceback), a column overwritten. Now they are its own columns, carried through; a ``__row__``
    column (long) still numbers the rows (here in reverse: the duplicate reported is the one numbered later),
    and is not in the output. A CSV ledger with those columns through ``--engine spark`` gives the rows
    ``treaty batch`` gives."""
    from pyhelpers.interfaces.spark import check_dataframe

    internal = ["__line__", "__error__", "__order__", "__first_row__", "__partition__", "___row__"]
    data = generate(4, seed=4, bad_share=0.0)
    data[0]["id"] = data[3]["id"]
    columns = list(data[0])
    df = spark.createDataFrame([(*(r[c] for c in columns), *(f"{k}{c}" for c in internal), 4 - k)
                                for k, r in enumerate(data)],
                               ", ".join([*(f"`{c}` string" for c in [*columns, *internal]), "`__row__` long"]))
    checked = check_dataframe(df, CONTEXT, ledger="payments")
    assert checked.columns == [*columns, *internal, *RESULT_COLUMNS]
    got = {r["__line__"]: r.asDict() for r in checked.collect()}
    assert [got[f"{k}__line__"]["__error__"] for k in range(4)] == [f"{k}__error__" for k in range(4)]
    assert [got[f"{k}__line__"]["status"] == "error" for k in range(4)] == [True, False, False, False]
    assert got["0__line__"]["error"].startswith(f"payments row 4 (id {data[0]['id']}): id: expected an id no other "
                                                f"row has, found '{data[0]['id']}', already row 1")

    rows = [r | {c: f"{k}{c}" for c in internal} | {"__row__": str(k)} for k, r in enumerate(data)]
    ledger = tmp_path / "in.csv"
    with open(ledger, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    local, out = tmp_path / "local.csv", tmp_path / "spark.csv"
    run_batch(ledger, CONTEXT, local, workers=1, checker=Checker())
    result = CliRunner().invoke(main, ["batch", str(ledger), "--context", str(CONTEXT), "-o", str(out),
                                       "--engine", "spark", "--partition-rows", "2"])
    assert result.exit_code == 0, result.output
    assert _csv_rows(sorted(out.glob("part-*.csv"))) == _csv_rows([local])


ATTEMPTS = 5
"""Runs in which to kill a Python worker while its task runs (the moment is a race with the task)."""

KILL_ROWS, KILL_PART = 200, 10
"""The killing test's ledger: twenty partitions of ten rows, so that Spark's status shows a task done while
another runs for most of the stage, not only in the instant between the last tasks of four (CI, stop 41:
in three runs of four partitions the watcher never saw that moment on busy cores)."""


@pytest.fixture(scope="module")
def small_ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ledger's first :data:`KILL_ROWS` rows (the same seed, bad rows and duplicate ids)."""
    return engines_ledger(tmp_path_factory.mktemp("small_ledger") / "ledger.csv", KILL_ROWS)


@pytest.fixture(scope="module")
def local_fine(small_ledger: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Summary, Path]:
    """`treaty batch` of the small ledger in partitions of :data:`KILL_PART` rows."""
    out = tmp_path_factory.mktemp("local_fine") / "out.csv"
    return run_batch(small_ledger, CONTEXT, out, workers=1, chunk_size=KILL_PART, checker=Checker()), out


def _python_workers() -> list[int]:
    """This process's PySpark Python workers: the children of its ``pyspark.daemon`` (forked, not run anew)."""
    parents: dict[int, int] = {}
    commands: dict[int, bytes] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
                commands[int(entry.name)] = (entry / "cmdline").read_bytes()
            except (OSError, ValueError, IndexError):
                continue

    def ours(pid: int) -> bool:
        while pid > 1:
            if pid == os.getpid():
                return True
            pid = parents.get(pid, 1)
        return False

    return [pid for pid, parent in parents.items() if b"pyspark.daemon" in commands.get(pid, b"")
            and b"pyspark.daemon" in commands.get(parent, b"") and ours(pid)]


def test_a_task_whose_python_worker_is_killed_is_retried_and_every_row_written_once(
        spark: Any, small_ledger: Path, local_fine: tuple[Summary, Path], tmp_path: Path) -> None:
    """SIGKILL to the Python workers while the deciding stage has a task running and one done: Spark tries
    that task again (``local[2,2]``); the part files are written under their own names, so none twice."""
    from pyhelpers.interfaces.spark import run_spark

    tracker = spark.sparkContext.statusTracker()

    def failed_tasks() -> int:
        stages = (tracker.getStageInfo(s) for j in tracker.getJobIdsForGroup() for s in
                  (tracker.getJobInfo(j).stageIds if tracker.getJobInfo(j) else []))
        return sum(s.numFailedTasks for s in stages if s is not None)

    retried = False
    for attempt in range(ATTEMPTS):  # a worker killed just as its task ends fails nothing: try again
        killed: list[int] = []
        stop = threading.Event()
        before = failed_tasks()

        def kill_mid_stage(killed: list[int] = killed, stop: threading.Event = stop) -> None:
            while not stop.is_set() and not killed:
                for stage in filter(None, map(tracker.getStageInfo, tracker.getActiveStageIds())):
                    if (stage.numTasks == KILL_ROWS // KILL_PART and stage.numCompletedTasks >= 1
                            and stage.numActiveTasks >= 1):
                        for pid in _python_workers():
                            os.kill(pid, signal.SIGKILL)
                            killed.append(pid)
                        break
                time.sleep(0.01)

        watcher = threading.Thread(target=kill_mid_stage, daemon=True)
        watcher.start()
        out = tmp_path / f"killed-{attempt}.csv"
        try:
            summary = run_spark(small_ledger, CONTEXT, out, partition_rows=KILL_PART, session=spark)
        finally:
            stop.set()
            watcher.join()
        # whether or not a task failed, every row is written once, with the same receipt
        assert _csv_rows(sorted(out.glob("part-*.csv"))) == _csv_rows([local_fine[1]])
        assert summary.rows == KILL_ROWS and summary.receipt == local_fine[0].receipt
        assert not (out / ENTRIES).exists()
        if killed and failed_tasks() > before:  # Spark saw the task fail, and tried it again
            retried = True
            break
    assert retried, f"in {ATTEMPTS} runs no Python worker was killed while its task ran"


def test_without_pyspark_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    real = builtins.__import__

    def no_pyspark(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "pyspark" or name.startswith("pyspark."):
            raise ImportError(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyspark)
    ledger = write_csv(tmp_path / "ledger.csv", generate(2))
    result = CliRunner().invoke(main, ["batch", str(ledger), "--context", str(CONTEXT), "-o",
                                       str(tmp_path / "out.parquet"), "--engine", "spark"])
    assert result.exit_code == BatchError.exit_code == 2
    assert "Traceback" not in result.output
    assert result.output.strip().endswith(
        "--engine spark needs PySpark and a Java runtime: pip install '.[spark]' in a clone of treaty-logic, and Java "
        "17 or later (Debian: apt-get install default-jre-headless; or set JAVA_HOME)")
    assert not (tmp_path / "out.parquet").exists()
