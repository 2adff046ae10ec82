"""Same answers everywhere (issue 27 item 5): one ledger (mixed treaties, bad rows, duplicate ids) through
`treaty batch` and through Dask (two workers in separate processes, started with ``spawn``, over
loopback) gives the same rows (sorted by row id) and the same receipts; a worker killed mid-run loses no
row and duplicates none; ``--resume`` redoes only partitions without a committed manifest entry.

The ledger is the issue's: 20,000 rows in ten partitions of 2,000 (~10 s of the module's time on a quiet
machine; ``TREATY_DISTRIBUTED_SMALL=1`` runs 200 rows in four partitions, for a quick run while editing)."""

from __future__ import annotations

import csv
import gc
import json
import os
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pyhelpers.engine.solve import Checker
from pyhelpers.interfaces.batch import RESULT_COLUMNS, Summary, run_batch
from pyhelpers.interfaces.cli import main
from pyhelpers.interfaces.cluster import ENTRIES, MANIFEST, SPOOL, run_dask
from pyhelpers.interfaces.ledger import Row, batch_to_rows, jsonl_rows, rows_to_batch
from pyhelpers.interfaces.partition import check_partition, partition_spec

from .ledger_gen import CONTEXT, DUPLICATES, engines_ledger, interrupted, write_csv

distributed = pytest.importorskip("distributed")
import dask  # noqa: E402  (after the skip: an extra)

SMALL = os.environ.get("TREATY_DISTRIBUTED_SMALL") == "1"
ROWS, PART = (200, 50) if SMALL else (20_000, 2_000)

pytestmark = pytest.mark.xdist_group("distributed")


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return engines_ledger(tmp_path_factory.mktemp("ledger") / "ledger.csv", ROWS)


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """Two worker processes (each its own interpreter, started by ``spawn``) over loopback. No dashboard; the
    HTTP server the scheduler starts anyway (``dashboard_address=None`` leaves it on port 8787, with a warning
    when that port is taken) on a free loopback port, as the command's own LocalCluster has it."""
    assert dask.config.get("distributed.worker.multiprocessing-method") == "spawn"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                                  host="127.0.0.1") as cluster, distributed.Client(cluster) as c:
        yield c


@pytest.fixture(scope="module")
def local(ledger: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Summary, Path]:
    out = tmp_path_factory.mktemp("local") / "out.csv"
    return run_batch(ledger, CONTEXT, out, workers=2, chunk_size=PART, checker=Checker()), out


@pytest.fixture(scope="module")
def dasked(ledger: Path, client: Any, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """`treaty batch --engine dask --scheduler ADDRESS` (the cluster's), Parquet parts: its output and folder."""
    out = tmp_path_factory.mktemp("dask") / "dask.parquet"
    result = CliRunner().invoke(main, ["batch", str(ledger), "--context", str(CONTEXT), "-o", str(out), "--engine",
                                       "dask", "--scheduler", client.scheduler.address, "--partition-rows", str(PART)])
    assert result.exit_code == 0, result.output
    return result.output, out


def _rows(paths: list[Path]) -> tuple[list[str], list[list[str]]]:
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


def _parts(out: Path) -> list[Path]:
    return sorted(out.glob("part-*.csv"))


def _parquet_rows(out: Path) -> tuple[list[str], list[list[str]]]:
    """As :func:`_rows`, of a folder of Parquet parts."""
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


def test_dask_and_treaty_batch_give_the_same_rows_and_receipts(ledger: Path, local: tuple[Summary, Path],
                                                               dasked: tuple[str, Path]) -> None:
    (summary, local_out), (said, out) = local, dasked
    header, rows = _rows([local_out])
    assert _parquet_rows(out) == (header, rows)
    assert header[-len(RESULT_COLUMNS):] == list(RESULT_COLUMNS)
    assert len(rows) == ROWS and len({r[0] for r in rows}) == ROWS - len(DUPLICATES)
    statuses = ", ".join(f"{k} {v:,}" for k, v in sorted(summary.by_status.items()))
    assert f"{out}: {ROWS:,} rows in " in said and f"rows/s): {statuses}" in said
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["receipt"] == summary.receipt != "" and manifest["rows"] == ROWS
    assert [p["file"] for p in manifest["partitions"]] == [f"part-{k:08d}.parquet" for k in range(ROWS // PART)]
    assert {p["receipt"]["logic_sha256"] for p in manifest["partitions"]} == {Checker().logic.digest}
    assert not (out / ENTRIES).exists()
    error = header.index("error")
    by_id = {r[0]: r for r in rows if r[error] == ""}
    duplicate = sorted(r[error] for r in rows if "expected an id no other row has" in r[error])
    assert duplicate == sorted(f"{ledger} row {k + 1} (line {k + 2}, id pay-{k:07d}): id: expected an id no other "
                               f"row has, found 'pay-{k:07d}', already row {k}" for k in DUPLICATES)
    assert by_id  # decided rows: their provisions name the treaty that decided them
    assert all(p == r[header.index("applicable_treaty")] or p.startswith(r[header.index("applicable_treaty")] + " ")
               for r in by_id.values() for p in r[header.index("provisions")].split("; "))


@pytest.mark.parametrize("workers", [1, 2])
def test_a_local_cluster_gives_the_same_rows_and_receipt(ledger: Path, local: tuple[Summary, Path], tmp_path: Path,
                                                         workers: int) -> None:
    """`--engine dask` without `--scheduler`: the LocalCluster it starts (one worker: a thread of the client;
    two: processes forked by a fork server that loaded the rules once) reads the partitions from its spool.
    Called in a process that goes on (CliRunner), the command leaves the garbage collector as it was (it
    freezes what it has loaded only when it is the whole process)."""
    out = tmp_path / "cluster.csv"
    frozen = gc.get_freeze_count()
    result = CliRunner().invoke(main, ["batch", str(ledger), "--context", str(CONTEXT), "-o", str(out), "--engine",
                                       "dask", "--workers", str(workers), "--partition-rows", str(PART)])
    assert result.exit_code == 0, result.output
    assert gc.get_freeze_count() == frozen
    assert _rows(_parts(out)) == _rows([local[1]])
    assert json.loads((out / MANIFEST).read_text(encoding="utf-8"))["receipt"] == local[0].receipt
    assert not (out / SPOOL).exists() and not (out / ENTRIES).exists()


def test_a_worker_killed_mid_run_loses_no_row_and_duplicates_none(ledger: Path, client: Any,
                                                                   local: tuple[Summary, Path],
                                                                   tmp_path: Path) -> None:
    """SIGKILL to a worker busy with a partition, once the first partition is done: Dask gives its
    partitions to another worker (its nanny starts a new one); every row is in the output once."""
    killed: list[int] = []

    def kill_after_first(event: str, index: int, rows: int) -> None:
        if event != "done" or killed:
            return
        busy = [w for w, keys in client.processing().items() if keys]
        if busy:
            pid = client.run(os.getpid, workers=[busy[0]])[busy[0]]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    out = tmp_path / "killed.csv"
    summary = run_dask(ledger, CONTEXT, out, partition_rows=PART, client=client, progress=kill_after_first)
    assert killed, "no worker was busy after the first partition"
    assert _rows(_parts(out)) == _rows([local[1]])
    assert summary.rows == ROWS and summary.receipt == local[0].receipt
    client.wait_for_workers(2, timeout=120)


def test_resume_redoes_only_partitions_without_a_committed_entry(ledger: Path, client: Any, local: tuple[Summary, Path],
                                                                 dasked: tuple[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "resumed.parquet"
    shutil.copytree(dasked[1], out)
    interrupted(out, committed={0, 2})  # as an interrupted run leaves it: 0 and 2 committed, the others not
    events: list[tuple[str, int]] = []
    summary = run_dask(ledger, CONTEXT, out, partition_rows=PART, client=client, resume=True,
                       progress=lambda event, index, rows: events.append((event, index)))
    done = [index for event, index in events if event == "done"]
    assert sorted(done) == [k for k in range(ROWS // PART) if k not in (0, 2)] and summary.resumed_chunks == 2
    # the committed partitions are told first, so that the bar starts from them (its time remaining too)
    assert events[:2] == [("resumed", 0), ("resumed", 2)] and ("resumed", 1) not in events
    assert _parquet_rows(out) == _rows([local[1]])
    assert json.loads((out / MANIFEST).read_text(encoding="utf-8"))["receipt"] == local[0].receipt


def test_dask_with_bounds_gives_treaty_batch_bounds(client: Any, tmp_path: Path) -> None:
    """``run_dask(bounds=True)`` (``--engine dask --bounds``): the spec carries it to the workers, whose rows are
    those of ``treaty batch --bounds``, with the same receipts; the manifest and each receipt record it."""
    from .test_batch_bounds import MISSING, _bounded, _results

    ledger = write_csv(tmp_path / "in.csv", [MISSING | {"id": f"r{n}", "withheld_rate": "20"} for n in range(4)])
    local = run_batch(ledger, CONTEXT, tmp_path / "local.csv", workers=1, chunk_size=2, checker=Checker(),
                      bounds=True)
    out = tmp_path / "dask.csv"
    summary = run_dask(ledger, CONTEXT, out, partition_rows=2, client=client, bounds=True)
    rows = [r for p in _parts(out) for r in _results(p)]
    assert rows == [_bounded(f"r{n}", "over_withheld", "50.00") for n in range(4)]  # at least 50.00 over the cap
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["bounds"] is True and {p["receipt"]["bounds"] for p in manifest["partitions"]} == {True}
    assert manifest["receipt"] == summary.receipt == local.receipt != ""


def test_a_partition_round_trips_through_arrow_as_it_was() -> None:
    """JSON Lines rows differ in their keys and their order; a row that cannot be read keeps its problem."""
    text = ['{"id": "a", "gross": "1", "memo": "x"}', '{"memo": "y", "id": "b"}', "[1]", '{"id": "c", "new": ""}']
    rows = list(jsonl_rows(text))
    assert batch_to_rows(rows_to_batch(rows)) == rows
    assert [list(r.columns) for r in batch_to_rows(rows_to_batch(rows))] == [list(r.columns) for r in rows]


def test_check_partition_gives_treaty_batch_columns_and_errors(ledger: Path) -> None:
    spec = partition_spec(CONTEXT, ledger, Checker().logic.digest)
    rows = [Row(1, {"id": "x", "treaty": "br-xx", "memo": "m"}, 2)]
    out = check_partition(rows_to_batch(rows), spec).to_pydict()
    assert out["memo"] == ["m"] and out["status"] == ["error"] and out["__row__"] == [1]
    assert out["error"] == [f"{ledger} row 1 (line 2, id x): treaty: expected one of br-ae, br-pl, br-pt, br-sg, "
                            f"br-uy, found 'br-xx'"]
