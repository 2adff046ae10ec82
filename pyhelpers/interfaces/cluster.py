"""``treaty batch --engine dask``: the partitions of a ledger decided on a Dask cluster, through the
same partition path as the local pool (:func:`~pyhelpers.interfaces.partition.check_partition`).

* The client reads the ledger (CSV, JSON Lines or Parquet) once, streaming, as ``treaty batch`` does
  (:func:`~pyhelpers.interfaces.ledger.spool_partitions`): each partition of ``partition_rows`` rows is
  written to the spool ``OUT/_rows.spool`` in the output folder while the duplicate ids are found (through
  temporary files: no process holds every id). Meanwhile the cluster starts and each worker loads the rule
  base and the context (a worker plugin, :mod:`.dask_worker`). The client then submits a small
  description of each partition (where it lies in the spool, its duplicate ids), a few per worker ahead,
  and joins the results; no row passes through the scheduler.
* Each worker reads its partition from the spool, decides it and writes it itself, into the output folder
  (shared by client and workers, as on a cluster's network file system): ``OUT/part-NNNNNNNN.parquet`` (or
  ``.csv``), flushed, fsynced and renamed into place, then its committed manifest entry
  ``OUT/_entries/NNNNNNNN.json`` (the partition's rows, the part's SHA-256 and the partition's receipt), the
  same way. The spool is removed at the end (a resumed run writes it again).
* At the end the client writes ``OUT/manifest.json``: what the run decided (the SHA-256 of the ledger,
  the context and the rules), every partition's entry, and the run's receipt. ``--resume`` redoes only
  the partitions without a committed entry whose part is intact; a resume with another ledger, context,
  rules or ``--partition-rows`` is refused. ``OUT.lock`` refuses a second writer.
* A worker lost mid-run (killed, its machine gone): Dask gives its partitions to another worker; a
  partition is written under its own name, so none is lost or written twice.

Only the CLI prints; progress is reported through a callback.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import queue
import shutil
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyhelpers.base.errors import BatchError, LedgerError, OutputError
from pyhelpers.base.version import pip_extra
from pyhelpers.engine.solve import Checker
from pyhelpers.interfaces.batch import (
    RESULT_COLUMNS,
    Summary,
    batch_rows,
    load_batch_context,
    no_cycle_collection,
    part_and_results,
)
from pyhelpers.interfaces.chunks import (
    Lock,
    compare_runs,
    count_rows,
    sha256_of,
    write_json_durably,
    write_part,
    writing,
)
from pyhelpers.interfaces.ledger import Row, Spooled, ledger_format, spool_partitions
from pyhelpers.interfaces.partition import (
    PartitionSpec,
    decide_partition,
    decide_spooled,
    partition_receipt,
    partition_spec,
    run_options,
    run_receipt,
)

MANIFEST = "manifest.json"
ENTRIES = "_entries"
HEADER = "_run.json"
SPOOL = "_rows.spool"
"""The ledger's rows as the client read them, partition after partition, for the workers to read theirs."""
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
    """A task (Spark's): decide partition ``index`` (an Arrow record batch), write its part and then its
    committed manifest entry; the entry (also returned to the driver)."""
    with no_cycle_collection():
        rows, records = decide_partition(batch, spec)
        return _write_entry(index, rows, records, spec, target)


def decide_spooled_and_write(part: Spooled, spec: PartitionSpec, target: PartTarget) -> dict[str, Any]:
    """A Dask task: read partition ``part`` from the client's spool, decide it, write its part and then its
    committed manifest entry; the entry (also returned to the client)."""
    with no_cycle_collection():
        rows, records = decide_spooled(part, spec)
        return _write_entry(part.index, rows, records, spec, target)


def _write_entry(index: int, rows: list[Row], records: list[dict[str, str]], spec: PartitionSpec,
                 target: PartTarget) -> dict[str, Any]:
    part = target.part(index)
    made, results = part_and_results(target.fmt, records)
    entry = {"partition": index, "rows": len(records), "file": part.name,
             "sha256": write_part(part, target.fmt, records, RESULT_COLUMNS, made),
             "receipt": partition_receipt(spec, rows, records, results),
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


LOCAL_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.worker.memory.monitor-interval": "1s",
}
"""Dask's settings for the LocalCluster ``--engine dask`` starts (its workers get them from their nannies): no
statistical profiler (a look at the deciding thread's stack every 10 ms) and the event loops' health check and
system monitor less often (every 20 and 500 ms by default). A worker's event loop took 0.22-0.25 CPU s instead
of 0.35-0.46 s over a run of 60,000 rows on two workers (about 12 s). The memory monitors (a worker's, which
pauses it near its memory limit, and its nanny's, which restarts it past that) look every second instead of
every 100 ms: a partition's memory does not grow that fast, and the ten looks a second (two processes'
memory read per worker) took about 0.35 CPU s of a run of 60,000 rows on two workers (8.6-8.8 CPU s instead
of 9.2-9.6, a machine loaded 5)."""

PRELOAD = ("distributed", "pyhelpers.engine.expect", "pyhelpers.interfaces.documents", "pyhelpers.interfaces.helptext",
           "pyhelpers.interfaces.progress", "pyhelpers.output.render", "pyhelpers.interfaces.dask_preload")
"""What the LocalCluster's fork server imports once, for every worker it forks: Dask, what the CLI imports (a
worker runs its parent's main module again, ``treaty``'s CLI; not the CLI itself, which would then be run over a
module already imported), and last the partition path with the rule base parsed (:mod:`.dask_preload`, which then
freezes all of it out of the garbage collector's walks)."""


def _client(scheduler: str | None, workers: int) -> tuple[Any, Any]:
    """A client of the scheduler at ``scheduler``, or of a new LocalCluster of ``workers`` processes (its
    scheduler and nannies in this process's event loop thread; no dashboard, and the HTTP server the scheduler
    starts anyway on a free port of loopback, not on port 8787, taken or not; :data:`LOCAL_CONFIG`; where the
    platform has one, the processes forked by a fork server that imported :data:`PRELOAD` once). One worker
    is a thread of this process: a process of its own would only add its start, as this process decides
    nothing while it waits. Dask's logs are silenced but for critical ones: a failure reaches the run as its
    error, and Dask logs some of its own races with a traceback (a worker whose heartbeat was under way when the
    run's end closed it: "Failed to communicate with scheduler during heartbeat.", seen once after a run of 60,000
    rows that went well)."""
    dd = _distributed()
    if scheduler:
        return dd.Client(scheduler), None
    import dask.config

    with dask.config.set({**LOCAL_CONFIG, **(_fork_server() if workers > 1 else {})}):
        cluster = dd.LocalCluster(n_workers=workers, threads_per_worker=1, processes=workers > 1,
                                  dashboard_address=None, silence_logs=logging.CRITICAL,
                                  scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
    try:
        return dd.Client(cluster), cluster
    except BaseException:
        cluster.close()
        raise


def _fork_server() -> dict[str, str]:
    """Dask's setting that starts the workers from a fork server (one interpreter that imports :data:`PRELOAD`,
    then forks each worker: one set of imports and one parsed rule base instead of one per worker), where the
    platform has one; ``{}`` elsewhere (each worker is spawned, as is one that a nanny starts after the cluster
    has started, in place of a lost one). The server is started now if it is not running
    (:func:`_start_fork_server`)."""
    if not _start_fork_server():
        return {}
    import distributed.utils

    distributed.utils._forkserver_preload_set = True  # Dask's own list imports numpy and pandas, which we need not
    return {"distributed.worker.multiprocessing-method": "forkserver"}


def _start_fork_server() -> bool:
    """Start this process's fork server with :data:`PRELOAD` (it imports them while this process goes on: the
    rule base, the ledger); False where the platform has none."""
    import multiprocessing
    import multiprocessing.forkserver

    if "forkserver" not in multiprocessing.get_all_start_methods():
        return False
    multiprocessing.get_context("forkserver").set_forkserver_preload(list(PRELOAD))
    multiprocessing.forkserver.ensure_running()
    return True


def _distributed() -> Any:
    """Dask's distributed scheduler (the extra ``dask``)."""
    try:
        import distributed
    except ImportError:
        raise BatchError(f"--engine dask needs Dask: {pip_extra('dask')}") from None
    return distributed


@dataclass
class _Started:
    """A client ready for the partitions: each worker has loaded the rule base and the context (its plugin)."""

    client: Any
    cluster: Any
    """The LocalCluster made for the run (None: the scheduler is another's)."""
    own_client: bool
    plugin: str

    def close(self) -> None:
        """Leave the scheduler as it was (the plugin off a scheduler the run did not start), close what the run
        made."""
        if self.cluster is None and self.plugin:
            with contextlib.suppress(Exception):
                self.client.unregister_worker_plugin(self.plugin)
        if self.own_client:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _start(client: Any, scheduler: str | None, workers: int, spec: PartitionSpec) -> _Started:
    """``client``, or one made (of ``scheduler``, or of a LocalCluster), with the plugin that loads the rule
    base and the context on every worker (those that join later too) registered."""
    cluster = None
    own = client is None
    if own:
        client, cluster = _client(scheduler, workers)
    started = _Started(client, cluster, own, "")
    try:
        from pyhelpers.interfaces.dask_worker import WarmRules

        plugin = WarmRules(spec)
        client.register_plugin(plugin)
        started.plugin = plugin.name
    except BaseException:
        started.close()
        raise
    return started


def run_dask(ledger: str | Path, context_path: str | Path, out: str | Path, *, scheduler: str | None = None,
             workers: int = 2, partition_rows: int = 4_096, resume: bool = False, checker: Checker | None = None,
             progress: Progress | None = None, client: Any = None, lang: str = "en",
             ready: Callable[[], None] | None = None, bounds: bool = True) -> Summary:
    """Decide every row of ``ledger`` on Dask; write the folder ``out`` (``.parquet`` or ``.csv``: its
    parts' format) with its manifest. ``client``: a Dask client to use (else one is made: of
    ``scheduler``, or of a LocalCluster of ``workers`` processes); a bad row's message in ``lang``; ``bounds``:
    the default, ``--no-bounds`` turns it off (:func:`~pyhelpers.interfaces.batch.run_batch`). ``ready()``
    is called in this thread once the ledger is read and the cluster started (its workers with the rules
    loaded), before the first partition is submitted: ``treaty`` freezes there what the process has loaded
    (:func:`gc.freeze`), as the process ends with the run. Raises as :func:`~pyhelpers.interfaces.batch.run_batch`
    does."""

    if client is None and not scheduler and workers > 1:
        _start_fork_server()  # its imports go on while the context and the ledger are read

    def on_dask(ledger: Path, spec: PartitionSpec, target: PartTarget, done: dict[int, dict[str, Any]],
                summary: Summary) -> dict[int, dict[str, Any]]:
        spool = Path(target.folder) / SPOOL
        try:
            # the cluster starts and its workers load the rules while this thread reads the ledger
            with ThreadPoolExecutor(1, thread_name_prefix="treaty-dask-start") as pool:
                starting = pool.submit(_start, client, scheduler, workers, spec)
                try:
                    with writing(spool.parent):
                        parts = _spooled(ledger, partition_rows, spool, done)
                except BaseException:
                    with contextlib.suppress(Exception):
                        starting.result().close()
                    raise
            started = starting.result()
            try:
                if ready is not None:
                    ready()
                return _submit_all(started.client, parts, spec, target, done, summary, progress)
            finally:
                started.close()
        finally:
            spool.unlink(missing_ok=True)

    return run_partitioned(ledger, context_path, out, "dask", on_dask, partition_rows=partition_rows,
                           resume=resume, checker=checker, lang=lang, bounds=bounds)


def _spooled(ledger: Path, size: int, spool: Path, done: dict[int, dict[str, Any]]) -> Iterator[Spooled]:
    """The partitions not ``done`` of the ledger, read whole into ``spool`` now (a problem of the whole ledger
    raises here, before any partition is submitted)."""
    parts = spool_partitions(batch_rows(ledger), size, spool, done)
    first = next(parts, None)
    return iter(()) if first is None else itertools.chain([first], parts)


Engine = Callable[[Path, PartitionSpec, PartTarget, dict[int, dict[str, Any]], Summary], dict[int, dict[str, Any]]]
"""``engine(ledger, spec, target, done, summary)``: decide every partition of ``ledger`` not in ``done`` (each
task writes its part and its committed entry into ``target``), count each in ``summary``
(:func:`count_entry`) and return every partition's entry (``done``'s included)."""


def run_partitioned(ledger: str | Path, context_path: str | Path, out: str | Path, engine_name: str,
                    engine: Engine, *, partition_rows: int = 4_096, resume: bool = False,
                    checker: Checker | None = None, lang: str = "en", bounds: bool = False) -> Summary:
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
    ctx = load_batch_context(context, ledger, checker, lang, bounds)
    lock = Lock(out)
    with writing(out):
        lock.acquire()
    try:
        return _run_locked(ledger, context, out, fmt, partition_spec(context, ledger, ctx.checker.logic.digest,
                                                                     ctx.checker.strict, lang, bounds),
                           partition_rows, resume, engine)
    finally:
        lock.release()


def _run_locked(ledger: Path, context: Path, out: Path, fmt: str, spec: PartitionSpec, partition_rows: int,
                resume: bool, engine: Engine) -> Summary:
    target = PartTarget(str(out.resolve()), fmt)
    before = ledger.stat()
    header = {"journal": 1, "ledger": str(ledger.resolve()), "size": before.st_size, "sha256": sha256_of(ledger),
              "context": str(context.resolve()), "context_sha256": spec.context_sha256, "logic": spec.logic_sha256,
              "chunk_size": partition_rows, "format": fmt, "lang": spec.lang, **run_options(spec)}
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


def _submit_all(client: Any, parts: Iterator[Spooled], spec: PartitionSpec, target: PartTarget,
                done: dict[int, dict[str, Any]], summary: Summary,
                progress: Progress | None) -> dict[int, dict[str, Any]]:
    """Submit the partitions not done (a few per worker ahead), collect their entries. A finished partition is
    put in a queue by its future's callback, and this thread sleeps on the queue until one is there: Dask's
    ``as_completed`` woke it every 100 ms to look, and with one worker (a thread of this process) each wake-up took
    the interpreter's lock from the thread deciding the rows."""
    entries = dict(done)
    if progress is not None:
        for index in sorted(done):
            progress("resumed", index, done[index]["rows"])
    limit = IN_FLIGHT * max(1, len(client.scheduler_info().get("workers", {})) or 1)
    finished: queue.SimpleQueue[Any] = queue.SimpleQueue()
    in_flight = 0
    run = uuid.uuid4().hex  # the tasks' keys: unique to this run on a scheduler shared by many

    def collect() -> None:
        nonlocal in_flight
        future = finished.get()  # blocks until a partition is done (no polling: see _submit_all's docstring)
        in_flight -= 1
        entry = future.result()
        entries[entry["partition"]] = entry
        count_entry(summary, entry)
        if progress is not None:
            progress("done", entry["partition"], entry["rows"])
        future.release()

    for part in parts:
        future = client.submit(decide_spooled_and_write, part, spec, target, key=f"treaty-partition-{run}-{part.index}")
        if progress is not None:
            progress("submitted", part.index, part.rows)
        future.add_done_callback(finished.put)
        in_flight += 1
        while in_flight >= limit:
            collect()
    while in_flight:
        collect()
    return entries
