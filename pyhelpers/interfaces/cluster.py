"""``treaty batch --engine dask``: the partitions of a ledger decided on a Dask cluster, through the
same partition path as the local pool (:func:`~pyhelpers.interfaces.partition.check_partition`).

* The client reads the ledger (CSV, JSON Lines or Parquet) streaming, in partitions of
  ``partition_rows`` rows, after a first pass that finds the duplicate ids (through temporary files: no
  process holds every id); it plans partitions and joins results, and holds no row id in memory. At
  most a few partitions per worker are in flight.
* Each worker decides its partition and writes it itself, into the output folder (shared by client and
  workers, as on a cluster's network file system): ``OUT/part-NNNNNNNN.parquet`` (or ``.csv``), flushed,
  fsynced and renamed into place, then its committed manifest entry ``OUT/_entries/NNNNNNNN.json``
  (the partition's rows, the part's SHA-256 and the partition's receipt), the same way.
* At the end the client writes ``OUT/manifest.json``: what the run decided (the SHA-256 of the ledger,
  the context and the rules), every partition's entry, and the run's receipt. ``--resume`` redoes only
  the partitions without a committed entry whose part is intact; a resume with another ledger, context,
  rules or ``--partition-rows`` is refused. ``OUT.lock`` refuses a second writer.
* A worker lost mid-run (killed, its machine gone): Dask gives its partitions to another worker; a
  partition is written under its own name, so none is lost or written twice.

Only the CLI prints; progress is reported through a callback.
"""

from __future__ import annotations

import json
import logging
import shutil
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyhelpers.base.errors import BatchError, LedgerError, OutputError
from pyhelpers.engine.solve import Checker
from pyhelpers.interfaces.batch import RESULT_COLUMNS, Summary, load_batch_context
from pyhelpers.interfaces.chunks import (
    Lock,
    compare_runs,
    count_rows,
    sha256_of,
    write_json_durably,
    write_part,
    writing,
)
from pyhelpers.interfaces.ledger import ledger_format, rows_to_batch
from pyhelpers.interfaces.partition import (
    PartitionSpec,
    decide_partition,
    ledger_rows,
    partition_receipt,
    partition_spec,
    partitions,
    run_receipt,
)

MANIFEST = "manifest.json"
ENTRIES = "_entries"
HEADER = "_run.json"
OUTPUT_FORMATS = (".parquet", ".csv")
IN_FLIGHT = 3
"""Partitions submitted per worker ahead of their results (the client holds no more than these)."""

Progress = Callable[[str, int, int], None]
"""``progress(event, partition, rows)``: ``"submitted"``, ``"done"``, or ``"resumed"`` (a partition a
resumed run finds committed, told once before the others are submitted)."""


@dataclass(frozen=True)
class PartTarget:
    """Where a worker writes partition parts and their manifest entries (small and picklable)."""

    folder: str
    fmt: str

    def part(self, index: int) -> Path:
        return Path(self.folder) / f"part-{index:08d}{self.fmt}"

    def entry(self, index: int) -> Path:
        return Path(self.folder) / ENTRIES / f"{index:08d}.json"


def decide_and_write(index: int, batch: Any, spec: PartitionSpec, target: PartTarget) -> dict[str, Any]:
    """A Dask task: decide partition ``index``, write its part and then its committed manifest entry;
    the entry (also returned to the client)."""
    rows, records = decide_partition(batch, spec)
    part = target.part(index)
    entry = {"partition": index, "rows": len(records), "file": part.name,
             "sha256": write_part(part, target.fmt, records, RESULT_COLUMNS),
             "receipt": partition_receipt(spec, rows, records),
             "by_status": _by_status(records)}
    write_json_durably(target.entry(index), entry)
    return entry


def _by_status(records: list[dict[str, str]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for rec in records:
        counts[rec["status"]] = counts.get(rec["status"], 0) + 1
    return dict(sorted(counts.items()))


def _committed(target: PartTarget) -> dict[int, dict[str, Any]]:
    """The partitions with a committed entry whose part is there, whole (its SHA-256 and row count)."""
    done: dict[int, dict[str, Any]] = {}
    for path in sorted((Path(target.folder) / ENTRIES).glob("*.json")):
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
            index = int(entry["partition"])
            part = target.part(index)
            if sha256_of(part) == entry["sha256"] and count_rows(part, target.fmt) == int(entry["rows"]):
                done[index] = entry
        except (OSError, ValueError, KeyError, TypeError):
            continue  # a torn or foreign file: that partition is decided again
    return done


def _client(scheduler: str | None, workers: int) -> tuple[Any, Any]:
    """A client of the scheduler at ``scheduler``, or of a new LocalCluster of ``workers`` processes."""
    dd = _distributed()
    if scheduler:
        return dd.Client(scheduler), None
    cluster = dd.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                              silence_logs=logging.ERROR)
    return dd.Client(cluster), cluster


def _distributed() -> Any:
    """Dask's distributed scheduler (the extra ``dask``)."""
    try:
        import distributed
    except ImportError:
        raise BatchError("--engine dask needs Dask: pip install 'treaty-logic[dask]'") from None
    return distributed


def run_dask(ledger: str | Path, context_path: str | Path, out: str | Path, *, scheduler: str | None = None,
             workers: int = 2, partition_rows: int = 4_096, resume: bool = False, checker: Checker | None = None,
             progress: Progress | None = None, client: Any = None, lang: str = "en") -> Summary:
    """Decide every row of ``ledger`` on Dask; write the folder ``out`` (``.parquet`` or ``.csv``: its
    parts' format) with its manifest. ``client``: a Dask client to use (else one is made: of
    ``scheduler``, or of a LocalCluster of ``workers`` processes); a bad row's message in ``lang``. Raises as
    :func:`~pyhelpers.interfaces.batch.run_batch` does."""

    def on_dask(ledger: Path, spec: PartitionSpec, target: PartTarget, done: dict[int, dict[str, Any]],
                summary: Summary) -> dict[int, dict[str, Any]]:
        nonlocal client
        made = None
        if client is None:
            client, made = _client(scheduler, workers)
        try:
            return _submit_all(client, ledger, spec, target, partition_rows, done, summary, progress)
        finally:
            if made is not None:
                client.close()
                made.close()

    return run_partitioned(ledger, context_path, out, "dask", on_dask, partition_rows=partition_rows,
                           resume=resume, checker=checker, lang=lang)


Engine = Callable[[Path, PartitionSpec, PartTarget, dict[int, dict[str, Any]], Summary], dict[int, dict[str, Any]]]
"""``engine(ledger, spec, target, done, summary)``: decide every partition of ``ledger`` not in ``done`` (each
task writes its part and its committed entry into ``target``), count each in ``summary``
(:func:`count_entry`) and return every partition's entry (``done``'s included)."""


def run_partitioned(ledger: str | Path, context_path: str | Path, out: str | Path, engine_name: str,
                    engine: Engine, *, partition_rows: int = 4_096, resume: bool = False,
                    checker: Checker | None = None, lang: str = "en") -> Summary:
    """What every cluster engine shares (Dask, Spark: ``--engine NAME``): the checks of the arguments, the
    lock, the run's header, ``--resume`` (the committed partitions), the check that the ledger did not
    change, and the manifest with the run's receipt; ``engine`` decides the partitions."""
    ledger, out, context = Path(ledger), Path(out), Path(context_path)
    ledger_format(ledger)
    fmt = out.suffix.lower()
    if fmt not in OUTPUT_FORMATS:
        raise BatchError(f"{out}: expected an output folder ending in {', '.join(OUTPUT_FORMATS)} (the parts' "
                         f"format) with --engine {engine_name}, found {fmt or 'no extension'!r}")
    if not ledger.is_file():
        raise BatchError(f"{ledger}: expected an existing ledger file, found no such file")
    if out.exists() and not out.is_dir():
        raise OutputError(f"{out}: expected a folder for the parts of --engine {engine_name}, found a file: choose "
                          f"another -o")
    if not out.parent.is_dir():
        raise OutputError(f"{out}: expected an existing folder for the output, found no folder {out.parent}")
    ctx = load_batch_context(context, ledger, checker, lang)
    lock = Lock(out)
    with writing(out):
        lock.acquire()
    try:
        return _run_locked(ledger, context, out, fmt, partition_spec(context, ledger, ctx.checker.logic.digest,
                                                                     ctx.checker.strict, lang),
                           partition_rows, resume, engine)
    finally:
        lock.release()


def _run_locked(ledger: Path, context: Path, out: Path, fmt: str, spec: PartitionSpec, partition_rows: int,
                resume: bool, engine: Engine) -> Summary:
    target = PartTarget(str(out.resolve()), fmt)
    before = ledger.stat()
    header = {"journal": 1, "ledger": str(ledger.resolve()), "size": before.st_size, "sha256": sha256_of(ledger),
              "context": str(context.resolve()), "context_sha256": spec.context_sha256, "logic": spec.logic_sha256,
              "chunk_size": partition_rows, "format": fmt, "lang": spec.lang}
    entries_dir = out / ENTRIES
    with writing(out):
        if resume and (out / MANIFEST).is_file() and not entries_dir.exists():
            return Summary(nothing_to_resume=True)
        if entries_dir.exists() and not resume:
            raise BatchError(f"{out} holds an interrupted run: rerun with --resume to continue it, or delete that "
                             f"folder to start again")
        if entries_dir.exists():
            then = json.loads((out / HEADER).read_text(encoding="utf-8")) if (out / HEADER).is_file() else {}
            compare_runs(then, header, out, "--partition-rows")
            done = _committed(target)
        else:
            if out.exists():  # a finished run's folder: replaced
                shutil.rmtree(out)
            entries_dir.mkdir(parents=True)
            write_json_durably(out / HEADER, header)
            done = {}
    summary = Summary(resumed_chunks=len(done))
    try:
        entries = engine(ledger, spec, target, done, summary)
    except LedgerError as err:
        shutil.rmtree(out, ignore_errors=True)
        raise LedgerError(f"{err}; nothing was written: fix the ledger and run the command again") from None
    after = ledger.stat()
    if (after.st_size, after.st_mtime_ns) != (before.st_size, before.st_mtime_ns):
        shutil.rmtree(out, ignore_errors=True)
        raise BatchError(f"{ledger}: expected the ledger to stay as it was during the batch, found it changed (the "
                         f"results would mix two versions of it): nothing was written: run the command again")
    listed = [entries[i] for i in sorted(entries)]
    summary.receipt = run_receipt(e["receipt"] for e in listed)
    with writing(out):
        write_json_durably(out / MANIFEST, {**header, "rows": sum(e["rows"] for e in listed),
                                             "partitions": listed, "receipt": summary.receipt})
        shutil.rmtree(entries_dir)
        (out / HEADER).unlink()
    return summary


def count_entry(summary: Summary, entry: dict[str, Any]) -> None:
    """Count a partition just decided (its entry) in the run's summary."""
    summary.rows += entry["rows"]
    for status, count in entry["by_status"].items():
        summary.by_status[status] = summary.by_status.get(status, 0) + count
    summary.errors += entry["by_status"].get("error", 0)


def _submit_all(client: Any, ledger: Path, spec: PartitionSpec, target: PartTarget, partition_rows: int,
                done: dict[int, dict[str, Any]], summary: Summary,
                progress: Progress | None) -> dict[int, dict[str, Any]]:
    """Submit the partitions not done (a few per worker ahead), collect their entries."""
    entries = dict(done)
    if progress is not None:
        for index in sorted(done):
            progress("resumed", index, done[index]["rows"])
    limit = IN_FLIGHT * max(1, len(client.scheduler_info().get("workers", {})) or 1)
    pending = _distributed().as_completed()
    run = uuid.uuid4().hex  # the tasks' keys: unique to this run on a scheduler shared by many

    def collect(future: Any) -> None:
        entry = future.result()
        entries[entry["partition"]] = entry
        count_entry(summary, entry)
        if progress is not None:
            progress("done", entry["partition"], entry["rows"])
        future.release()

    for index, rows in partitions(ledger_rows(ledger), partition_rows, done):
        future = client.submit(decide_and_write, index, rows_to_batch(rows), spec, target,
                               key=f"treaty-partition-{run}-{index}")
        if progress is not None:
            progress("submitted", index, len(rows))
        pending.add(future)
        while pending.count() >= limit:
            collect(next(pending))
    for future in pending:
        collect(future)
    return entries
