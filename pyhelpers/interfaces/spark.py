"""Apache Spark as an engine of ``treaty batch``, through the same partition path as the local pool and
Dask (:func:`~pyhelpers.interfaces.partition.check_partition`).

* :func:`check_dataframe` takes a Spark DataFrame of ledger rows (in a notebook, on Databricks, in any
  Spark job) and a context, and returns the checked DataFrame (``mapInArrow``): ``treaty batch``'s output
  columns, a bad row reported on its row, a row whose id an earlier row has marked as ``treaty batch``
  marks it. The duplicates are found by Spark itself (a window over the id: no id reaches the driver);
  the rule base and the context are loaded once per Python worker (the partition path's cache).
* :func:`run_spark` is ``treaty batch LEDGER --engine spark [--master URL]``, Dask's path on Spark: the driver
  reads the ledger once with the reader every engine uses (the same rows, lines and errors) into the spool
  ``OUT/_rows.spool`` of the output folder while it finds the duplicate ids (temporary files, as ``treaty
  batch`` does) and while Spark starts; each Spark task is handed one partition's place in the spool and
  decides and writes it with its committed manifest entry as a Dask worker does
  (:func:`~pyhelpers.interfaces.cluster.decide_spooled_and_write`): the same parts, manifest, receipts and
  ``--resume`` as ``--engine dask``, and no row goes through Spark (neither its JVM nor a shuffle). The
  session it starts forks its Python workers from a daemon that has parsed the rule base once
  (:mod:`.spark_daemon`). A task that fails is retried by Spark: its partition is written again under its own
  name, so no row is lost or written twice.

Only the CLI prints; progress is reported through a callback (the committed entries as they appear).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import sys
import threading
import warnings
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyhelpers.base.errors import BatchError, LedgerError
from pyhelpers.base.version import pip_extra
from pyhelpers.engine.solve import Checker
from pyhelpers.interfaces import cluster
from pyhelpers.interfaces.batch import RESULT_COLUMNS, Summary, batch_rows
from pyhelpers.interfaces.chunks import writing
from pyhelpers.interfaces.cluster import ENTRIES, SPOOL, PartTarget, Progress, count_entry, run_partitioned
from pyhelpers.interfaces.ledger import (
    ERROR,
    LINE,
    ORDER,
    RESERVED,
    ROW,
    Row,
    Spooled,
    batch_name,
    cell_text,
    column_name,
    duplicate_problem,
    rows_to_batch,
    spool_partitions,
    taken_problem,
)
from pyhelpers.interfaces.partition import PartitionSpec, check_partition, partition_spec
from pyhelpers.scenario.loading import load_context_text

__all__ = ["INSTALL", "check_dataframe", "context_spec", "run_spark", "spark_session"]

INSTALL = (f"--engine spark needs PySpark and a Java runtime: {pip_extra('spark')}, and Java 17 or "
           "later (Debian: apt-get install default-jre-headless; or set JAVA_HOME)")
"""What the error says when PySpark (or Java) is missing."""

FIRST = "__first_row__"
"""The first row with the row's id (Spark's window), while the rows travel to their partition."""
PART = "__partition__"
"""The row's partition (its row number ÷ the partition size), while the rows travel to it."""
STAGING = "_staging"
"""The folder of the output where the driver stages the ledger's rows for the executors."""
POLL = 0.5
"""Seconds between two looks at the committed entries (the progress of a run)."""
CONTEXT_SUFFIXES = (".yaml", ".yml", ".json")
LEAN_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:CICompilerCount=1"
"""The JVM options of a local master that ``treaty batch --engine spark`` starts: its JVM only hands each task where
its partition lies and gets its entry back, and these (one quick compiler, the serial collector) halve the CPU
of its start."""
DAEMON = "pyhelpers.interfaces.spark_daemon"
"""The Python daemon of the sessions ``treaty batch --engine spark`` starts: PySpark's, with the rule base parsed
once before it forks the workers (:mod:`.spark_daemon`)."""


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Without PySpark's warning about a pandas newer than it has been tested with (``mapInArrow`` goes
    through its pandas UDFs, which check the version; the rows never become pandas objects)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="PySpark does not yet fully support", category=FutureWarning)
        yield


def _pyspark() -> Any:
    """PySpark's SQL module (the extra ``spark``), or the error saying how to install it."""
    try:
        import pyspark.sql
    except ImportError:
        raise BatchError(INSTALL) from None
    return pyspark.sql


# ------------------------------------------------------------------------------- the context ---

def context_spec(context: str | Path, ledger: str = "dataframe", *, strict: bool = False, lang: str = "en",
                 checker: Checker | None = None, bounds: bool = True) -> PartitionSpec:
    """The spec of a check: ``context`` is a path (a :class:`~pathlib.Path`, or a text naming an existing
    file) or the context's YAML (or JSON) text; it is loaded and validated here, on the driver (a bad
    context raises :class:`~pyhelpers.base.errors.ScenarioError` before any row). ``ledger`` names the rows
    in their error messages; ``bounds``: ``--bounds`` (:func:`~pyhelpers.interfaces.batch.run_batch`)."""
    digest = (checker or Checker(strict=strict)).logic.digest
    if isinstance(context, Path) or ("\n" not in context and Path(context).is_file()):
        path = Path(context)
        if not path.is_file():
            raise BatchError(f"{path}: expected an existing context file, found no such file")
        spec = partition_spec(path, ledger, digest, strict, lang, bounds)
    elif "\n" not in context and context.lower().endswith(CONTEXT_SUFFIXES):
        raise BatchError(f"{context}: expected an existing context file (or the context's YAML text), found no "
                         f"such file")
    else:
        spec = PartitionSpec(context, "context", hashlib.sha256(context.encode("utf-8")).hexdigest(), ledger,
                             digest, strict, lang, bounds)
    load_context_text(spec.context_text, spec.context_source)
    return spec


# ----------------------------------------------------------------------- rows in Spark and back ---

def _rows(batch: Any, columns: tuple[str, ...]) -> Iterator[tuple[Row, int]]:
    """The ledger rows of an Arrow batch as Spark gives it to a task (its columns named ``columns``, in
    order: :func:`_positional`; the ledger's own as :func:`~pyhelpers.interfaces.ledger.batch_name` names
    them), each with its partition (or 0) and marked as a duplicate where :data:`FIRST` says an earlier row
    has its id. A row with :data:`ORDER` (staged from a ledger) has the columns it lists that are not null;
    any other has every column of its own, null as empty (as ``treaty batch`` reads Parquet), each cell as
    text."""
    data = {name: column.to_pylist() for name, column in zip(columns, batch.columns, strict=True)}
    names = _own_columns(columns)
    size = batch.num_rows
    none: list[Any] = [None] * size
    orders, errors, lines = data.get(ORDER, none), data.get(ERROR, none), data.get(LINE, none)
    firsts, parts = data.get(FIRST, none), data.get(PART, none)
    for i, number in enumerate(data[ROW]):
        order = orders[i]
        if order is None:
            cells = {column_name(k): cell_text(data[k][i]) for k in names}
        else:
            cells = {column_name(k): cell_text(data[k][i]) for k in json.loads(order)
                     if data.get(k, none)[i] is not None}
        error = errors[i]
        first = firsts[i]
        if first is not None and first != number:
            error = duplicate_problem(cells.get("id", ""), first, error)
        yield Row(number, cells, lines[i], error), parts[i] or 0


def _own_columns(columns: Iterable[str]) -> list[str]:
    return [c for c in columns if c not in RESERVED and c not in (FIRST, PART)]


def _positional(df: Any) -> tuple[Any, tuple[str, ...]]:
    """``df`` with its columns renamed ``_0``, ``_1`` ..., and their names: PySpark's ``mapInArrow`` cannot
    name a column whose name has a dot (``dividend.instrument``); the task reads them by position."""
    columns = tuple(df.columns)
    return df.toDF(*(f"_{i}" for i in range(len(columns)))), columns


def _string_schema(names: Iterable[str]) -> Any:
    types = _pyspark().types
    return types.StructType([types.StructField(n, types.StringType(), True) for n in names])


def _count(batches: Iterator[Any]) -> Iterator[Any]:
    """A task: its partition's number and row count (to number the rows of a DataFrame without ROW)."""
    import pyarrow as pa
    from pyspark import TaskContext

    rows = sum(batch.num_rows for batch in batches)
    task: Any = TaskContext.get()
    yield pa.RecordBatch.from_pydict({"p": pa.array([task.partitionId()], type=pa.int64()),
                                      "n": pa.array([rows], type=pa.int64())})


@dataclass(frozen=True)
class _Number:
    """A task: its rows numbered from its partition's first (:data:`ROW`, 1 = the DataFrame's first row)."""

    starts: dict[int, int]
    columns: tuple[str, ...]

    def __call__(self, batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa
        from pyspark import TaskContext

        task: Any = TaskContext.get()
        row = self.starts.get(task.partitionId(), 0)
        for batch in batches:
            numbers = pa.array(range(row + 1, row + 1 + batch.num_rows), type=pa.int64())
            row += batch.num_rows
            yield pa.RecordBatch.from_arrays([*batch.columns, numbers], names=[*self.columns, ROW])


def _numbered(df: Any) -> Any:
    """``df`` with :data:`ROW`: its rows numbered in the DataFrame's order (partition by partition)."""
    types = _pyspark().types
    schema = types.StructType([*df.schema.fields, types.StructField(ROW, types.LongType(), False)])
    df, columns = _positional(df)
    with _quiet():
        counts = dict(df.mapInArrow(_count, "p long, n long").collect())
    starts, row = {}, 0
    for p in sorted(counts):
        starts[p] = row
        row += counts[p]
    with _quiet():
        return df.mapInArrow(_Number(starts, columns), schema)


def _with_reserved(df: Any) -> Any:
    """``df`` with every reserved column (:data:`ROW` numbered if missing, the others null if missing) and
    :data:`FIRST`: the first row with the row's id (null for a row without one), found by a window."""
    sql = _pyspark()
    f = sql.functions
    if ROW not in df.columns:
        df = _numbered(df)
    for name, kind in ((LINE, "long"), (ERROR, "string"), (ORDER, "string")):
        if name not in df.columns:
            df = df.withColumn(name, f.lit(None).cast(kind))
    if "id" in df.columns:
        rid = f.col("id").cast("string")
        first = f.when(rid.isNotNull() & (rid != ""), f.min(f.col(ROW)).over(sql.Window.partitionBy(rid)))
        return df.withColumn(FIRST, first)
    return df.withColumn(FIRST, f.lit(None).cast("long"))


@dataclass(frozen=True)
class _Check:
    """A task of :func:`check_dataframe`: each Arrow batch of its rows decided by the partition path."""

    spec: PartitionSpec
    columns: tuple[str, ...]
    out: tuple[str, ...]

    def __call__(self, batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        for batch in batches:
            rows = [row for row, _ in _rows(batch, self.columns)]
            if not rows:
                continue
            data = check_partition(rows_to_batch(rows), self.spec).to_pydict()
            yield pa.RecordBatch.from_pydict({n: pa.array([v if v is not None else "" for v in data[batch_name(n)]],
                                                          type=pa.string()) for n in self.out})


def check_dataframe(df: Any, context: str | Path, *, ledger: str = "dataframe", lang: str = "en",
                    strict: bool = False, checker: Checker | None = None, bounds: bool = True) -> Any:
    """The rows of the Spark DataFrame ``df`` (one income item each: ``treaty batch``'s ledger columns)
    decided against ``context`` (a path, or the context's YAML text: :func:`context_spec`); a DataFrame
    with ``treaty batch``'s output columns: ``df``'s own (every cell as text, null as empty), then
    :data:`~pyhelpers.interfaces.batch.RESULT_COLUMNS` (``bounds``: as ``treaty batch --bounds`` gives them). A bad
    row gets ``status=error`` and its message (``LEDGER row N (id X): ...``, ``ledger`` naming the rows); a row
    whose id an earlier row has is such an error, as ``treaty batch`` marks it (found by a Spark window, no id
    collected). Rows are numbered
    in ``df``'s order, unless it has a ``__row__`` column (long) that numbers them (it is not in the output);
    any other column is the ledger's own, whatever its name (``__line__``, ``__error__`` ...). Lazy, as any
    Spark transformation (numbering the rows runs one small job); each Python worker loads the rules and
    the context once. Raises :class:`~pyhelpers.base.errors.BatchError` without PySpark or with a missing
    context file, :class:`~pyhelpers.base.errors.ScenarioError` for a bad context,
    :class:`~pyhelpers.base.errors.LedgerError` for a column of ``df`` named like a result column (the results
    would replace its cells: :func:`~pyhelpers.interfaces.batch.batch_rows`)."""
    _pyspark()
    clash = taken_problem([n for n in df.columns if n != ROW], RESULT_COLUMNS)
    if clash:
        raise LedgerError(f"{ledger}: {clash}")
    spec = context_spec(context, ledger, strict=strict, lang=lang, checker=checker, bounds=bounds)
    out = (*(n for n in df.columns if n != ROW), *RESULT_COLUMNS)
    df = df.toDF(*(n if n == ROW else batch_name(n) for n in df.columns))  # __line__ ...: the ledger's own
    df, columns = _positional(_with_reserved(df))
    with _quiet():
        return df.mapInArrow(_Check(spec, columns, out), _string_schema(out))


# ------------------------------------------------------------------ treaty batch --engine spark ---

def spark_session(master: str | None = None, workers: int = 2, *, preload: bool = False) -> Any:
    """The session of ``treaty batch --engine spark``: of ``master`` (``spark://host:7077``, ``yarn``,
    ``local[4]`` ...); without one, the master of ``spark-submit`` when it started this process, else
    ``local[workers]``. A local master's Python workers run this interpreter. ``preload``: the Python workers
    are forked by :data:`DAEMON`, which has parsed the rule base once for all of them (every executor has
    treaty-logic installed). Raises :class:`~pyhelpers.base.errors.BatchError` when PySpark or Java is
    missing."""
    sql = _pyspark()
    submitted = "PYSPARK_GATEWAY_PORT" in os.environ  # spark-submit started us: its master and settings
    master = master or (None if submitted else f"local[{workers}]")
    if not submitted and not os.environ.get("JAVA_HOME") and shutil.which("java") is None:
        raise BatchError(f"no Java runtime found (no java on PATH, no JAVA_HOME): {INSTALL}")
    if master is not None and master.startswith("local"):
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = sql.SparkSession.builder.appName("treaty batch")
    if master is not None:
        builder = builder.master(master)
    builder = (builder.config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.caseSensitive", "true"))  # ledger columns ID and id are two columns
    if preload:
        builder = builder.config("spark.python.daemon.module", DAEMON)
    if master is not None and master.startswith("local"):  # the JVM that starts here is the whole cluster
        builder = (builder.config("spark.driver.extraJavaOptions", LEAN_JVM)
                   .config("spark.ui.enabled", "false"))
    try:
        with _quiet():
            session = builder.getOrCreate()
    except Exception as err:  # the JVM could not start: Java missing or broken
        raise BatchError(f"Spark could not start ({_last_line(err)}): {INSTALL}") from None
    session.sparkContext.setLogLevel("ERROR")
    return session


def _last_line(err: BaseException) -> str:
    """The gist of an error raised through Spark: its last ``SomeError: message`` line, else its first line."""
    text = str(err)
    found = re.findall(r"^\s*(?:[\w.]+\.)?(\w*(?:Error|Exception)): (.+)$", text, re.MULTILINE)
    return f"{found[-1][0]}: {found[-1][1]}" if found else (text.strip().splitlines() or [type(err).__name__])[0]


@dataclass(frozen=True)
class _DecideSpooled:
    """A task of ``--engine spark``: its partition read from the driver's spool, decided and written with its
    committed entry (:func:`~pyhelpers.interfaces.cluster.decide_spooled_and_write`, Dask's task); the entry
    as JSON."""

    spec: PartitionSpec
    target: PartTarget

    def __call__(self, part: Spooled) -> str:
        return json.dumps(cluster.decide_spooled_and_write(part, self.spec, self.target))


@dataclass(frozen=True)
class _Warm:
    """A task that loads the rule base and the context in its Python worker (forking it from the daemon, which
    parses the rule base first), so that the first partitions find them loaded."""

    spec: PartitionSpec

    def __call__(self, _: Iterator[Any]) -> Iterator[Any]:
        from pyhelpers.interfaces.partition import warm_partition

        warm_partition(self.spec)
        return iter(())


def _started(master: str | None, workers: int, spec: PartitionSpec) -> Any:
    """The session ``treaty batch --engine spark`` starts (:func:`spark_session`, its workers forked from
    :data:`DAEMON`), with one warming task per task slot run: while the driver reads the ledger, the daemon
    parses the rule base and the workers load the context."""
    session = spark_session(master, workers, preload=True)
    slots = max(1, session.sparkContext.defaultParallelism)
    with contextlib.suppress(Exception):  # only a head start: a problem is the partitions' to report
        session.sparkContext.parallelize(range(slots), slots).mapPartitions(_Warm(spec)).collect()
    return session


def run_spark(ledger: str | Path, context_path: str | Path, out: str | Path, *, master: str | None = None,
              workers: int = 2, partition_rows: int = 4_096, resume: bool = False, checker: Checker | None = None,
              progress: Progress | None = None, session: Any = None, lang: str = "en",
              bounds: bool = True) -> Summary:
    """Decide every row of ``ledger`` on Spark; write the folder ``out`` (``.parquet`` or ``.csv``: its parts'
    format) with its manifest, as :func:`~pyhelpers.interfaces.cluster.run_dask` does (the same parts,
    receipts and ``resume``). ``session``: a SparkSession to use (else the active one, as in a notebook,
    else one of ``master`` made by :func:`spark_session` and stopped at the end); ``progress("done",
    partition, rows)`` as each partition's entry is committed (``"resumed"`` first for those an interrupted
    run committed). The output folder must be reachable by the driver and every executor under the same
    path. Raises as :func:`~pyhelpers.interfaces.batch.run_batch` does, and
    :class:`~pyhelpers.base.errors.BatchError` without PySpark or Java, or when the Spark job fails (the
    partitions committed are kept for ``resume``)."""
    _pyspark()

    def on_spark(ledger: Path, spec: PartitionSpec, target: PartTarget, done: dict[int, dict[str, Any]],
                 summary: Summary) -> dict[int, dict[str, Any]]:
        spool = Path(target.folder) / SPOOL
        shutil.rmtree(Path(target.folder) / STAGING, ignore_errors=True)  # an older version's
        spark = session or _pyspark().SparkSession.getActiveSession()
        made = spark is None
        try:
            # Spark (its JVM) starts while this thread reads the ledger into the spool
            with ThreadPoolExecutor(1, thread_name_prefix="treaty-spark-start") as pool:
                starting = pool.submit(_started, master, workers, spec) if made else None
                try:
                    with writing(spool.parent):
                        parts = list(spool_partitions(batch_rows(ledger), partition_rows, spool, done))
                except BaseException:
                    if starting is not None:
                        with contextlib.suppress(Exception):
                            starting.result().stop()
                    raise
                if starting is not None:
                    spark = starting.result()
            try:
                if progress is not None:
                    for index in sorted(done):
                        progress("resumed", index, done[index]["rows"])
                return _decide_all(spark, parts, spec, target, done, summary)
            finally:
                if made:
                    spark.stop()
        finally:
            spool.unlink(missing_ok=True)

    def _decide_all(spark: Any, parts: list[Spooled], spec: PartitionSpec, target: PartTarget,
                    done: dict[int, dict[str, Any]], summary: Summary) -> dict[int, dict[str, Any]]:
        entries = dict(done)
        if not parts:
            return entries
        # one task per partition, handed only where its rows lie in the spool: no row goes through Spark
        job = spark.sparkContext.parallelize(parts, len(parts)).map(_DecideSpooled(spec, target))
        for text in _collect(job, Path(target.folder) / ENTRIES, set(done)):
            entry = json.loads(text)
            entries[entry["partition"]] = entry
            count_entry(summary, entry)
        return entries

    def _collect(job: Any, entries_dir: Path, seen: set[int]) -> list[Any]:
        """The job's rows; meanwhile each entry committed is told to ``progress`` as it appears."""
        result: list[Any] = []
        failure: list[BaseException] = []

        def run() -> None:
            try:
                result.extend(job.collect())
            except BaseException as err:  # raised again below, in the caller's thread
                failure.append(err)

        thread = threading.Thread(target=run, name="treaty-spark-job", daemon=True)
        thread.start()
        while thread.is_alive():
            thread.join(POLL)
            if progress is not None:
                _tell_new(entries_dir, seen)
        if failure:
            raise BatchError(f"the Spark job failed ({_last_line(failure[0])}): the partitions committed are "
                             f"kept: run the same command with --resume") from None
        if progress is not None:
            _tell_new(entries_dir, seen)
        return result

    def _tell_new(entries_dir: Path, seen: set[int]) -> None:
        assert progress is not None
        for path in sorted(entries_dir.glob("*.json")):
            with contextlib.suppress(OSError, ValueError, KeyError):
                index = int(path.stem)
                if index not in seen:
                    entry = json.loads(path.read_text(encoding="utf-8"))
                    seen.add(index)
                    progress("done", index, int(entry["rows"]))

    return run_partitioned(ledger, context_path, out, "spark", on_spark, partition_rows=partition_rows,
                           resume=resume, checker=checker, lang=lang, bounds=bounds)
