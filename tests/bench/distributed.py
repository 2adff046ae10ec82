"""Benchmark of `treaty batch`'s distributed engines: python tests/bench/distributed.py [--rows N] [--separate]

Generates one realistic ledger of N rows (tests/ledger_gen.py: mixed treaties and types, 5% bad rows of every
kind; default 20,000) and runs on it, one after the other, each through the CLI (``python -m
pyhelpers.interfaces.cli batch ... -q``: this checkout's code):

* ``treaty batch --workers 2`` — **the baseline** — and ``--workers 1``;
* ``--engine dask`` with ``--workers 1`` and ``2`` (a LocalCluster the command starts);
* with ``--separate``: ``--engine dask --scheduler ADDRESS`` against a ``dask scheduler`` and one or two
  ``dask worker`` processes this script starts on loopback, as two machines would (processes that share
  nothing with the client but the output folder), started and ready before the clock starts;
* ``--engine spark --master local[1]`` and ``local[2]``; ``spark: not available (...)`` when this checkout's
  ``treaty batch`` has no such engine, or pyspark or a Java runtime is missing.

Every run decides the same partitions (``--chunk`` of the local runs is ``--partition-rows`` of the others:
``--partition-rows``, by default the local default chunk), so that their receipts compare. Each command is also
run on a ledger of one row, for its fixed cost (start-up: Python, the rule base in each worker, a LocalCluster,
a JVM; ``--no-startup`` skips these runs). For each run it prints the wall time (from the command's start to its
exit), rows/s, the overhead against the local run with the same number of workers (goal: ≤ 15%), the start-up
and the steady rows/s (the rows over the wall time less the start-up), the CPU seconds of the command's processes
(user and system, from the same samples: on a loaded machine they compare engines better than the wall time), those
of its one-row run and the rows per CPU second less those (the steady cost of a row, which the load moves least), the
peak memory (RSS and PSS in MB, from psutil samples of the process tree every 0.2 s) of the command's process,
of its largest worker process (the processes that decide rows: the leaves of the tree) with their count, and of
the other processes together (a forkserver, Dask's nannies and scheduler, Spark's JVM), and whether its output rows
(sorted by row id) and its
run receipt (an engine's manifest's; the local runs', computed from their output with the partition receipt
functions, as the run computes its own) equal the baseline's. Then the projection for 10 M and 100 M rows: the
start-up plus the rows at the steady rows/s, for each run; the memory is the measured peaks (a worker decides a
partition at a time and the client holds a few partitions per worker: not measured at those sizes;
``tests/bench/batch.py`` measures the growth of a local run).

``--no-spark`` skips Spark. ``--rounds R`` runs every configuration R times, interleaved, and keeps each one's
fastest run (a loaded machine). Figures only: no time is asserted; the exit status is 1 if an engine's rows or
receipt differ from the baseline's. The file is named like Dask's package: it takes its own folder off ``sys.path``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
sys.path[:] = [str(ROOT), *(p for p in sys.path if Path(p or ".").resolve() != HERE)]  # not this file for Dask's

from pyhelpers.interfaces.batch import DEFAULT_CHUNK  # noqa: E402
from tests.ledger_gen import CONTEXT, iter_rows, write_csv  # noqa: E402

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
CLI = [sys.executable, "-m", "pyhelpers.interfaces.cli"]
SAMPLE = 0.2
MB = 1024 * 1024
TRACKERS = ("resource_tracker", "semaphore_tracker")
GOAL = 15.0


# ------------------------------------------------------------------------------------------- memory ---
@dataclass
class Seen:
    """A process of the sampled tree: its peaks and what it is."""

    label: str
    rss: int = 0
    pss: int = 0
    parent: int = 0
    has_children: bool = False
    cpu: float = 0.0
    """User and system CPU seconds, as last sampled."""


@dataclass
class Sampler:
    """Samples the process trees under ``roots`` every :data:`SAMPLE` seconds, in a thread."""

    roots: list[int]
    seen: dict[int, Seen] = field(default_factory=dict)
    others_peak: tuple[int, int] = (0, 0)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> Sampler:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.sample()
            self._stop.wait(SAMPLE)

    def sample(self) -> None:
        now: dict[int, tuple[int, int]] = {}
        for root in self.roots:
            try:
                procs = [psutil.Process(root), *psutil.Process(root).children(recursive=True)]
            except psutil.Error:
                continue
            for proc in procs:
                try:
                    mem = proc.memory_full_info()
                    entry = self.seen.get(proc.pid)
                    if entry is None:
                        entry = self.seen[proc.pid] = Seen(_label(proc), parent=proc.ppid())
                    else:  # read again: a script may exec its program (Spark's bash, then its JVM)
                        entry.label = _label(proc, entry.label)
                    entry.rss, entry.pss = max(entry.rss, mem.rss), max(entry.pss, getattr(mem, "pss", 0))
                    times = proc.cpu_times()
                    entry.cpu = max(entry.cpu, times.user + times.system)
                    now[proc.pid] = mem.rss, getattr(mem, "pss", 0)
                except psutil.Error:
                    continue
        for pid in now:
            parent = self.seen[pid].parent
            if parent in self.seen and "tracker" not in self.seen[pid].label:
                self.seen[parent].has_children = True
        others = [now[p] for p in now if self.role(p) == "other"]
        self.others_peak = (max(self.others_peak[0], sum(r for r, _ in others)),
                            max(self.others_peak[1], sum(p for _, p in others)))

    def role(self, pid: int) -> str:
        """``parent`` (the command), ``worker`` (a process that decides rows: a leaf), ``other``."""
        entry = self.seen[pid]
        if pid == self.roots[0]:
            return "parent"
        if entry.has_children or entry.label in ("scheduler", "tracker"):
            return "other"
        return "worker"

    def workers(self) -> list[Seen]:
        return [s for pid, s in self.seen.items() if self.role(pid) == "worker"]


def _label(proc: psutil.Process, known: str = "?") -> str:
    try:
        cmd = " ".join(proc.cmdline())
        name = proc.name()
    except psutil.Error:
        return known
    if any(t in cmd for t in TRACKERS):
        return "tracker"
    if "dask scheduler" in cmd:
        return "scheduler"
    if "dask worker" in cmd:
        return "nanny"
    if "forkserver" in cmd:
        return "forkserver"
    return "jvm" if name == "java" else name


# --------------------------------------------------------------------------------------------- runs ---
@dataclass
class Run:
    name: str
    workers: int
    wall: float = 0.0
    startup: float = 0.0
    """The wall time of the same command on a ledger of one row: its fixed cost."""
    startup_cpu: float = 0.0
    """The CPU seconds of that one-row run."""
    failed: str = ""
    output: Path | None = None
    parent: tuple[int, int] = (0, 0)
    worker_peak: tuple[int, int] = (0, 0)
    worker_count: int = 0
    others: tuple[int, int] = (0, 0)
    other_labels: str = ""
    same_rows: str = ""
    same_receipt: str = ""
    cpu: float = 0.0
    """The CPU seconds of every process of the command (sampled: a process's last 0.2 s may be missed)."""


def _cli_run(run: Run, args: list[str], extra_roots: list[int] | None = None) -> Run:
    """Run ``treaty batch ARGS -q`` timed and sampled; the run's figures filled in."""
    started = time.perf_counter()
    proc = subprocess.Popen([*CLI, "batch", *args, "-q"], cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    sampler = Sampler([proc.pid, *(extra_roots or [])]).start()
    _, err = proc.communicate()
    run.wall = time.perf_counter() - started
    sampler.stop()
    if proc.returncode != 0:
        lines = [line for line in err.strip().splitlines() if line.strip()]
        run.failed = f"exit {proc.returncode}: {lines[-1] if lines else 'no message'}"
        return run
    own = sampler.seen.get(proc.pid)
    run.parent = (own.rss, own.pss) if own else (0, 0)
    workers = sampler.workers()
    run.worker_count = len(workers)
    run.worker_peak = (max((w.rss for w in workers), default=0), max((w.pss for w in workers), default=0))
    run.others = sampler.others_peak
    run.cpu = sum(s.cpu for pid, s in sampler.seen.items() if pid not in (extra_roots or []))
    labels = sorted({s.label for pid, s in sampler.seen.items() if sampler.role(pid) == "other"})
    run.other_labels = ", ".join(labels)
    return run


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _separate_run(run: Run, args: list[str], tmp: Path, tag: str) -> Run:
    """A ``dask scheduler`` and ``run.workers`` ``dask worker`` processes on loopback, ready before the clock
    starts, stopped after the run."""
    import distributed

    address = f"tcp://127.0.0.1:{_free_port()}"
    dask = [sys.executable, "-m", "dask"]
    log = open(tmp / f"dask-separate-{run.workers}-{tag}.log", "wb")  # noqa: SIM115 (closed below, after the processes)
    started: list[subprocess.Popen[bytes]] = []
    try:
        # the HTTP server the scheduler starts even without a dashboard: a free loopback port, not 8787 on every
        # interface (a warning in the log when another cluster has it)
        started.append(subprocess.Popen([*dask, "scheduler", "--host", "127.0.0.1", "--port",
                                         address.rsplit(":", 1)[1], "--no-dashboard", "--dashboard-address",
                                         "127.0.0.1:0"], cwd=tmp, env=ENV, stdout=log, stderr=subprocess.STDOUT))
        for i in range(run.workers):
            started.append(subprocess.Popen([*dask, "worker", address, "--nthreads", "1", "--nworkers", "1",
                                             "--host", "127.0.0.1", "--no-dashboard", "--name", f"bench-{i}"],
                                            cwd=tmp, env=ENV, stdout=log, stderr=subprocess.STDOUT))
        try:
            with distributed.Client(address, timeout=120) as client:
                client.wait_for_workers(run.workers, timeout=300)
        except (OSError, TimeoutError) as err:
            run.failed = f"the scheduler and workers did not start ({err}; see {log.name})"
            return run
        return _cli_run(run, [*args, "--scheduler", address], [p.pid for p in started])
    finally:
        _stop(started[1:])  # the workers, then the scheduler
        _stop(started[:1])
        log.close()


def _spark_missing() -> str:
    """Why ``--engine spark`` cannot run here ('' when it can be tried)."""
    done = subprocess.run([*CLI, "batch", "--help"], cwd=ROOT, env=ENV, capture_output=True, text=True)
    if "spark" not in done.stdout:
        return "this treaty batch has no --engine spark"
    if find_spec("pyspark") is None:
        return "pyspark is not installed: pip install '.[spark]' in a clone of treaty-logic"
    if shutil.which("java") is None:
        return "no Java runtime on the PATH"
    return ""


# ------------------------------------------------------------------------------------------ outputs ---
def _records(path: Path) -> list[dict[str, Any]]:
    """The rows of an output: a file, or a folder of parts (those its ``manifest.json`` lists, in its order;
    without one, its ``.csv`` or ``.parquet`` files whose names start with neither ``_`` nor ``.``)."""
    manifest = path / "manifest.json"
    if path.is_file():
        files = [path]
    elif manifest.is_file():
        listed = json.loads(manifest.read_text(encoding="utf-8")).get("partitions", [])
        files = [path / str(p["file"]) for p in sorted(listed, key=lambda p: int(p["partition"]))]
    else:
        files = sorted(p for p in path.iterdir() if p.is_file() and p.suffix in (".csv", ".parquet")
                       and not p.name.startswith(("_", ".")))
    rows: list[dict[str, Any]] = []
    for f in files:
        if f.suffix == ".parquet":
            import pyarrow.parquet as pq

            rows.extend({k: ("" if v is None else v) for k, v in r.items()} for r in pq.read_table(f).to_pylist())
        else:
            with open(f, newline="", encoding="utf-8") as fh:
                rows.extend(csv.DictReader(fh))
    return rows


def _receipt_of(path: Path) -> str:
    """An engine's run receipt: its manifest's (``''`` when it has none)."""
    manifest = path / "manifest.json" if path.is_dir() else None
    if manifest is None or not manifest.is_file():
        return ""
    return str(json.loads(manifest.read_text(encoding="utf-8")).get("receipt", ""))


def _computed_receipt(ledger: Path, records: list[dict[str, Any]], size: int) -> str:
    """The run receipt of a local run's output, computed as the run computes it (its rows in ledger order)."""
    from pyhelpers.engine.program import load_logic
    from pyhelpers.interfaces.partition import ledger_rows, partition_receipt, partition_spec, partitions, run_receipt

    spec = partition_spec(CONTEXT, ledger, load_logic().digest, bounds=True)  # the CLI's default, --bounds
    receipts = [partition_receipt(spec, rows, records[i * size:i * size + len(rows)])
                for i, rows in partitions(ledger_rows(ledger), size)]
    return run_receipt(receipts)


def _by_id(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda r: str(r.get("id", "")))


# ------------------------------------------------------------------------------------------ printing ---
def _mb(pair: tuple[int, int]) -> str:
    return f"{pair[0] / MB:.0f}/{pair[1] / MB:.0f}"


def _workers(r: Run) -> str:
    return f"{r.worker_count}× {_mb(r.worker_peak)}" if r.worker_count else "in parent"


def _duration(seconds: float) -> str:
    if seconds >= 86_400:
        return f"{seconds / 86_400:.1f} d"
    if seconds >= 3_600:
        return f"{seconds / 3_600:.1f} h"
    return f"{seconds / 60:.0f} min"


def _steady(r: Run, rows: int) -> float:
    """Rows/s once started: the rows over the wall time less the one-row run's (the wall rate when that is
    not less)."""
    work = r.wall - r.startup
    return rows / work if r.startup and work > 0 else rows / r.wall


def _per_cpu(r: Run, rows: int) -> float:
    """Rows per CPU second once started: the rows over the CPU seconds less the one-row run's."""
    work = r.cpu - r.startup_cpu
    return rows / work if work > 0 else 0.0


def _print(runs: list[Run], rows: int, base: Run, size: int, out_bytes: int) -> None:
    local = {r.workers: r for r in runs if r.name == "local" and not r.failed}
    print(f"{'engine':<14} {'workers':>7} {'wall s':>7} {'rows/s':>7} {'overhead':>8} {'CPU s':>6} {'start s':>7} "
          f"{'steady':>7} {'start CPU':>9} {'rows/CPU s':>10}  "
          f"{'parent MB':>9}  {'worker MB':>11}  {'others MB':>9}  {'rows':<5} {'receipt':<7} others are")
    for r in runs:
        if r.failed:
            print(f"{r.name:<14} {r.workers:>7}  failed: {r.failed}")
            continue
        ref = local.get(r.workers)
        over = f"{(r.wall / ref.wall - 1) * 100:+.0f}%" if ref is not None and r is not ref else "-"
        start = f"{r.startup:.1f}" if r.startup else "-"
        start_cpu = f"{r.startup_cpu:.1f}" if r.startup_cpu else "-"
        print(f"{r.name:<14} {r.workers:>7} {r.wall:>7.1f} {rows / r.wall:>7.0f} {over:>8} {r.cpu:>6.1f} {start:>7} "
              f"{_steady(r, rows):>7.0f} {start_cpu:>9} {_per_cpu(r, rows):>10.0f}  "
              f"{_mb(r.parent):>9}  {_workers(r):>11}  {_mb(r.others):>9}  "
              f"{r.same_rows:<5} {r.same_receipt:<7} {r.other_labels}")
    print(f"(overhead: the wall time against treaty batch with the same --workers, goal ≤ {GOAL:.0f}%; CPU s: the "
          f"user and system seconds of the command's processes (sampled), which a loaded machine raises less than the "
          f"wall time; start s: the "
          f"same command on a one-row ledger; steady: rows/s once started, the rows over the wall time less that; "
          f"start CPU and rows/CPU s: the same in CPU seconds (the steady cost of a row, which the load moves least); "
          f"MB: RSS/PSS peaks, worker MB: the count of processes that decide rows × the largest one's; rows and "
          f"receipt: equal to the baseline's, treaty batch --workers {base.workers}, partitions of {size:,} rows)")
    print()
    print(f"projection: the start-up plus the rows at the steady rows/s; memory: the peaks above, which the rows "
          f"do not raise (a partition at a time per worker, a few per worker in the client); output "
          f"{out_bytes / rows:.0f} bytes a row as CSV: {out_bytes / rows * 1e7 / 1e9:.1f} GB at 10 M rows, "
          f"{out_bytes / rows * 1e8 / 1e9:.0f} GB at 100 M")
    header = "".join(f"{n // 1_000_000:>8} M rows" for n in (10_000_000, 100_000_000))
    print(f"{'engine':<14} {'workers':>7}{header}  {'per worker':>12}  {'peak MB, each':>13}")
    for r in runs:
        if r.failed:
            continue
        rate = _steady(r, rows)
        times = "".join(f"{_duration(r.startup + n / rate):>15}" for n in (10_000_000, 100_000_000))
        print(f"{r.name:<14} {r.workers:>7}{times}  {rate / r.workers:>7,.0f} rows/s  "
              f"parent {r.parent[0] / MB:.0f}, worker {(r.worker_peak if r.worker_count else r.parent)[0] / MB:.0f}")
    best = max((r for r in runs if not r.failed and r.workers == 2 and r.name != "local"),
               key=lambda r: _steady(r, rows), default=base)
    per = _steady(best, rows) / best.workers
    print(f"{best.name} on W machines' cores at its {per:,.0f} steady rows/s per worker, if it scaled linearly: 100 M "
          "rows in " + ", ".join(f"{_duration(1e8 / (per * w))} (W={w})" for w in (8, 32, 128)))


def _round(tmp: Path, ledger: Path, size: int, separate: bool, spark: bool, round_: str) -> list[Run]:
    """Every configuration once on ``ledger``, the baseline first (outputs named by ``round_``)."""
    common = [str(ledger), "--context", str(CONTEXT)]
    runs: list[Run] = []
    for workers in (2, 1):
        out = tmp / f"local-{workers}-{round_}.csv"
        runs.append(_cli_run(Run("local", workers, output=out),
                             [*common, "-o", str(out), "--workers", str(workers), "--chunk", str(size)]))
    for workers in (1, 2):
        out = tmp / f"dask-{workers}-{round_}.csv"
        runs.append(_cli_run(Run("dask", workers, output=out),
                             [*common, "-o", str(out), "--engine", "dask", "--workers", str(workers),
                              "--partition-rows", str(size)]))
    if separate:
        for workers in (1, 2):
            out = tmp / f"dask-separate-{workers}-{round_}.csv"
            runs.append(_separate_run(Run("dask separate", workers, output=out),
                                      [*common, "-o", str(out), "--engine", "dask", "--partition-rows", str(size)],
                                      tmp, round_))
    if spark:
        for workers in (1, 2):
            out = tmp / f"spark-{workers}-{round_}.csv"
            runs.append(_cli_run(Run("spark", workers, output=out),
                                 [*common, "-o", str(out), "--engine", "spark", "--master", f"local[{workers}]",
                                  "--partition-rows", str(size)]))
    return runs


def _faster(a: Run, b: Run) -> Run:
    """The faster of two runs of a configuration (one that failed is kept: it says why)."""
    if a.failed or b.failed:
        return a if a.failed else b
    return a if a.wall <= b.wall else b


# ---------------------------------------------------------------------------------------------- main ---
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0] if __doc__ else None)
    ap.add_argument("--rows", type=int, default=20_000, help="rows of the generated ledger")
    ap.add_argument("--partition-rows", type=int, default=DEFAULT_CHUNK,
                    help="rows per partition (--chunk of the local runs)  [default: the local default chunk]")
    ap.add_argument("--separate", action="store_true",
                    help="also Dask on a dask scheduler and dask worker processes this script starts")
    ap.add_argument("--rounds", type=int, default=1,
                    help="run every configuration this many times, interleaved, and keep each one's fastest run")
    ap.add_argument("--no-spark", action="store_true", help="skip --engine spark (its JVM doubles the bench's time)")
    ap.add_argument("--no-startup", action="store_true",
                    help="skip the runs on a one-row ledger (steady rows/s is then the wall rate)")
    ap.add_argument("--keep", metavar="DIR", help="copy the ledger and the outputs there")
    args = ap.parse_args()
    size = args.partition_rows
    with tempfile.TemporaryDirectory(prefix="distbench-") as name:
        tmp = Path(name)
        ledger = write_csv(tmp / "ledger.csv", iter_rows(args.rows, seed=1, schedule=True))
        one_row = write_csv(tmp / "one-row.csv", iter_rows(1, seed=1, schedule=True))
        print(f"{args.rows:,} rows (tests/ledger_gen.py, seed 1), partitions of {size:,} rows, "
              f"{os.cpu_count()} CPU(s), load average {os.getloadavg()[0]:.2f}, {args.rounds} round(s)")
        missing = "--no-spark" if args.no_spark else _spark_missing()
        if missing:
            print(f"spark: not available ({missing})")
        runs: list[Run] = []
        for round_ in range(args.rounds):
            fresh = _round(tmp, ledger, size, args.separate, not missing, str(round_))
            if not args.no_startup:
                for run, fixed in zip(fresh, _round(tmp, one_row, size, args.separate, not missing,
                                                    f"one-{round_}"), strict=True):
                    run.startup = fixed.wall if not fixed.failed else 0.0
                    run.startup_cpu = fixed.cpu if not fixed.failed else 0.0
            runs = fresh if not runs else [_faster(a, b) for a, b in zip(runs, fresh, strict=True)]
        base = runs[0]
        if base.failed or base.output is None:
            sys.exit(f"the baseline failed: {base.failed}")
        base_rows = _records(base.output)
        expected_rows, expected_receipt = _by_id(base_rows), _computed_receipt(ledger, base_rows, size)
        differs = False
        for r in runs:
            if r.failed or r.output is None:
                continue
            got = _records(r.output)
            r.same_rows = "yes" if _by_id(got) == expected_rows else f"NO ({len(got):,} rows)"
            receipt = _receipt_of(r.output) or (_computed_receipt(ledger, got, size) if r.name == "local" else "")
            r.same_receipt = "-" if not receipt else "yes" if receipt == expected_receipt else "NO"
            differs = differs or r.same_rows != "yes" or r.same_receipt == "NO"
        if args.keep:
            keep = Path(args.keep)
            keep.mkdir(parents=True, exist_ok=True)
            for p in tmp.iterdir():
                (shutil.copytree if p.is_dir() else shutil.copy2)(p, keep / p.name)
        print()
        _print(runs, args.rows, base, size, base.output.stat().st_size)
        print(f"the baseline's run receipt: {expected_receipt}")
    sys.exit(1 if differs else 0)


if __name__ == "__main__":
    main()
