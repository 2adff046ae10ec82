"""Benchmark of `treaty batch`: python tests/bench/batch.py N [--workers W] [--chunk C] [--callgrind ROWS] [--no-raw]
[--no-bounds] [--without-missing]

Generates a realistic ledger of N rows (tests/ledger_gen.py: mixed treaties and types, 5% bad rows of
every kind, payments on schedules) and a worst case of N rows where nearly every row is a distinct case
(random days), decides both with `run_batch`, and prints for each, in the same run:

* rows/s and the CPU of the batch (its process and its workers);
* the **raw clingo baseline**: every program and every set of facts the batch handed to clingo
  (`pyhelpers.engine.solve.run_clingo`, recorded into temporary files by a second run of the same batch, not
  timed, after the timed one, each run with a fresh checker so that both hand clingo the same programs: the
  recording's own work, hashing and writing each program and set of facts, is not counted as the batch's; the
  programs once each, by their hash) grounded and solved again by a child process that imports only
  clingo (no project code), and so is every other Control the engine makes (the open programs of
  `pyhelpers.engine.alternatives` that bound a row with missing facts: what was added, grounded and
  solved, with each solve's mode and assumptions, replayed in order), and **batch CPU ÷ raw clingo CPU**;
* the peak memory of the batch process and of its largest worker;
* with ``--callgrind ROWS`` (valgrind's callgrind, a figure the machine's load does not move): the
  instructions per row of a single-worker batch of ROWS realistic rows (``--only worst``: of the worst case)
  (the difference with an empty ledger, divided by ROWS; nothing recorded under callgrind), and of raw clingo on
  the programs and facts that batch hands clingo (recorded by the same batch run again outside callgrind).

``--no-raw`` leaves out the raw baseline (nothing recorded), for rows/s and peak memory of long ledgers
(1 M, 10 M rows). ``--keep DIR`` copies the outputs there (to compare two versions of the code with cmp:
error messages name the ledger by its temporary path, so replace ``/tmp/tmp*/`` in both first). The batch decides
as ``treaty batch`` does by default (a row whose outcome a missing fact leaves undetermined with its bound);
``--no-bounds`` as ``treaty batch --no-bounds`` (``--bounds``, the default, is accepted). ``--without-missing``
leaves out of each ledger the rows a missing fact leaves with the status ``missing`` (found by a batch without the
bound, not timed), to measure what the bound costs a ledger that needs none.
Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import clingo

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pyhelpers.engine import solve  # noqa: E402
from pyhelpers.engine.solve import Checker  # noqa: E402
from pyhelpers.interfaces.batch import DEFAULT_CHUNK, run_batch  # noqa: E402
from tests.ledger_gen import CONTEXT, iter_rows, write_csv  # noqa: E402

RAW = """
import json, sys, resource
from pathlib import Path
import clingo
folder = Path(sys.argv[1])
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
runs = sorted(folder.glob("*.facts"))
programs = {p.stem: p.read_text(encoding="utf-8") for p in folder.glob("*.lp")}
jobs = [(programs[f.read_text(encoding="utf-8").split(chr(10), 1)[0][2:]], f.read_text(encoding="utf-8"))
        for f in runs]
controls = [json.loads(f.read_text(encoding="utf-8")) for f in sorted(folder.glob("*.ctl.json"))]
start = cpu()
atoms = 0
for program, facts in jobs:
    ctl = clingo.Control(["--models=2"])
    ctl.add("base", [], program)
    ctl.add("base", [], facts)
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            atoms += len(model.symbols(shown=True))
def counted(model):
    global atoms
    atoms += len(model.symbols(shown=True))
solves = 0
for record in controls:
    ctl = clingo.Control(record["args"])
    for op in record["ops"]:
        if op[0] == "add":
            ctl.add(op[1], op[2], programs[op[3]])
        elif op[0] == "ground":
            ctl.ground([(name, []) for name in op[1]])
        else:
            ctl.configuration.solve.enum_mode = op[1]
            ctl.configuration.solve.models = op[2]
            ctl.solve(on_model=counted, assumptions=[(clingo.parse_term(t), b) for t, b in op[3]])
            solves += 1
print(len(jobs) + solves, atoms, cpu() - start)
"""
"""The raw baseline: clingo alone on the recorded programs and facts (read before the clock starts)."""


def _peak_mb(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024


def _cpu_seconds() -> float:
    """User + system CPU of this process and of its finished children (the workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def record_clingo_runs(folder: Path) -> None:
    """From now on (and in workers forked later), every program and facts handed to clingo by the engine
    is also written to ``folder``: ``<hash>.lp`` once per program, ``<pid>-<n>.facts`` per run (first
    line: ``% <hash>`` of its program)."""
    real = solve.run_clingo
    counter = itertools.count()

    def recording(program: Any, facts: Iterable[str], *args: Any, **kwargs: Any) -> solve.Solved:
        facts = list(facts)
        digest = _stored(folder, str(program))
        (folder / f"{os.getpid()}-{next(counter):06d}.facts").write_text(f"% {digest}\n" + "\n".join(facts),
                                                                         encoding="utf-8")
        return real(program, facts, *args, **kwargs)

    solve.run_clingo = recording
    record_controls(folder)


def _stored(folder: Path, text: str) -> str:
    """``text`` written once to ``folder`` as ``<hash>.lp``; its hash."""
    digest = hashlib.sha256(text.encode()).hexdigest()[:20]
    lp = folder / f"{digest}.lp"
    if not lp.exists():
        tmp = folder / f"{digest}.{os.getpid()}.tmp"
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(lp)
    return digest


def record_controls(folder: Path) -> None:
    """From now on, every ``clingo.Control`` the engine makes outside ``run_clingo`` (the open programs of
    :mod:`pyhelpers.engine.alternatives`: the bound of a row with missing facts, its probes, the fired-rule
    readers) is recorded in ``folder`` as ``<pid>-c<n>.ctl.json``: its arguments and, in order, what was added
    (the text, by its hash; a slice added as parsed statements recorded as its text), grounded and solved (the
    enumeration mode, the number of models and the assumptions), for the raw baseline to do the same work."""
    from pyhelpers.engine import alternatives

    real_clingo = alternatives.clingo
    counter = itertools.count()

    class Recording(clingo.Control):  # type: ignore[misc]
        def __init__(self, arguments: list[str] | None = None, *args: Any, **kwargs: Any) -> None:
            super().__init__(arguments or [], *args, **kwargs)
            self.record: dict[str, Any] = {"args": list(arguments or []), "ops": []}
            self.path = folder / f"{os.getpid()}-c{next(counter):06d}.ctl.json"
            self.muted = False

        def _flush(self) -> None:
            self.path.write_text(json.dumps(self.record), encoding="utf-8")

        def add(self, name: str, parameters: list[str], program: str) -> None:  # type: ignore[override]
            if not self.muted:
                self.record["ops"].append(["add", name, list(parameters), _stored(folder, program)])
            super().add(name, parameters, program)

        def ground(self, parts: Any = (("base", ()),), context: Any = None) -> None:
            self.record["ops"].append(["ground", [name for name, _ in parts]])
            super().ground(parts, context)

        def solve(self, assumptions: Any = (), *args: Any, **kwargs: Any) -> Any:
            conf = self.configuration.solve
            self.record["ops"].append(["solve", str(conf.enum_mode), int(conf.models),  # type: ignore[union-attr]
                                       [[str(s), bool(b)] for s, b in assumptions]])
            self._flush()
            return super().solve(assumptions, *args, **kwargs)

    real_add_to = alternatives.OpenProgram.add_to

    def add_to(self: Any, ctl: Any, more: str) -> None:
        if not isinstance(ctl, Recording):
            real_add_to(self, ctl, more)
            return
        ctl.record["ops"].append(["add", "base", [], _stored(folder, self.rules + more)])
        ctl.muted = True
        try:
            real_add_to(self, ctl, more)
        finally:
            ctl.muted = False

    shim = types.SimpleNamespace(**{k: getattr(real_clingo, k) for k in dir(real_clingo) if not k.startswith("__")})
    shim.Control = Recording
    shim.__version__ = real_clingo.__version__
    alternatives.clingo = shim  # type: ignore[assignment]
    alternatives.OpenProgram.add_to = add_to  # type: ignore[method-assign]

    def stop() -> None:
        alternatives.clingo = real_clingo
        alternatives.OpenProgram.add_to = real_add_to  # type: ignore[method-assign]

    _STOPS.append(stop)


_STOPS: list[Any] = []
"""How to undo :func:`record_controls` (the recording of the Controls stops with that of ``run_clingo``)."""


def raw_clingo(folder: Path, valgrind: list[str] | None = None) -> tuple[int, float, str]:
    """Clingo alone on what ``folder`` recorded: (runs, CPU seconds, stderr)."""
    cmd = [*(valgrind or []), sys.executable, "-c", RAW, str(folder)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": ""})
    runs, _, cpu = done.stdout.split()
    return int(runs), float(cpu), done.stderr


CALLGRIND_CHILD = """
import sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from pyhelpers.engine.solve import Checker
from pyhelpers.interfaces.batch import run_batch
sys.path.insert(0, sys.argv[1] + "/tests/bench")
from batch import record_clingo_runs
checker = Checker().warm()
if sys.argv[5]:
    record_clingo_runs(Path(sys.argv[5]))
run_batch(sys.argv[2], sys.argv[3], sys.argv[4], workers=1, chunk_size=int(sys.argv[6]), checker=checker)
"""


def _collected(stderr: str) -> int:
    found = re.search(r"Collected : (\d+)", stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no total:\n{stderr[-2000:]}")
    return int(found.group(1))


def callgrind(tmp: Path, rows: int, chunk: int, schedule: bool = True) -> None:
    """Instructions per row of a single-worker batch of ``rows`` realistic rows (or, without ``schedule``, of the
    worst case), and of raw clingo."""
    if shutil.which("valgrind") is None:
        print("instructions per row: valgrind is not installed (Debian: apt-get install valgrind)")
        return
    folder = tmp / "cg"
    folder.mkdir()
    counts = {}
    for n in (0, rows):
        ledger = write_csv(folder / f"ledger-{n}.csv", iter_rows(n, seed=1, schedule=schedule))
        record = folder / f"runs-{n}"
        record.mkdir()
        child = [sys.executable, "-c", CALLGRIND_CHILD, str(ROOT), str(ledger), str(CONTEXT)]
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/cg-{n}.out", *child,
               str(folder / f"out-{n}.csv"), "", str(chunk)]
        counts[n] = _collected(subprocess.run(cmd, capture_output=True, text=True, check=True).stderr)
        # what it hands clingo, recorded by the same batch run again outside callgrind (the recording's own work,
        # hashing and writing every program and set of facts, is not the batch's)
        subprocess.run([*child, str(folder / f"out-{n}-recorded.csv"), str(record), str(chunk)], check=True)
    per_row = (counts[rows] - counts[0]) / rows
    vg = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/raw.out"]
    raw_total = _collected(raw_clingo(folder / f"runs-{rows}", vg)[2])
    vg_empty = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/raw0.out"]
    raw_fixed = _collected(raw_clingo(folder / "runs-0", vg_empty)[2])  # clingo imported, nothing solved
    raw_per_row = (raw_total - raw_fixed) / rows
    print(f"instructions per row (callgrind, {rows:,} {'realistic' if schedule else 'worst-case'} rows, 1 worker, "
          f"chunks of {chunk}): batch "
          f"{per_row / 1e3:,.0f} thousand; raw clingo {raw_per_row / 1e3:,.0f} thousand; batch / raw clingo "
          f"{per_row / raw_per_row:.2f}x")


def _drop_missing(ledger: Path, checker: Checker, workers: int, chunk: int) -> None:
    """``ledger`` without the rows a batch (without the bound) gives the status ``missing``."""
    import csv

    out = ledger.with_name(ledger.stem + "-statuses.csv")
    run_batch(ledger, CONTEXT, out, workers=workers, chunk_size=chunk, checker=checker, bounds=False)
    with open(out, newline="", encoding="utf-8") as fh:
        missing = {r["id"] for r in csv.DictReader(fh) if r["status"] == "missing"}
    with open(ledger, newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        fields = list(reader.fieldnames or ())
        kept = [r for r in reader if r["id"] not in missing]
    with open(ledger, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields)
        writer.writeheader()
        writer.writerows(kept)
    out.unlink()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int, nargs="?", default=20000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--chunk", type=int, default=None, help="rows per chunk (default: run_batch's)")
    ap.add_argument("--only", choices=["realistic", "worst"], help="run one of the two ledgers")
    ap.add_argument("--callgrind", type=int, default=0, metavar="ROWS",
                    help="also count instructions per row with callgrind on ROWS rows (e.g. 2000; realistic rows "
                         "unless --only worst)")
    ap.add_argument("--keep", type=Path, help="copy the outputs into this folder")
    ap.add_argument("--no-raw", action="store_true",
                    help="no raw clingo baseline (nothing recorded): rows/s and peak memory of long ledgers")
    ap.add_argument("--bounds", action="store_true", help="the default (accepted): each row with its bound")
    ap.add_argument("--no-bounds", action="store_true",
                    help="decide as treaty batch --no-bounds (a row whose outcome a missing fact leaves undetermined "
                         "without its bound)")
    ap.add_argument("--without-missing", action="store_true",
                    help="leave out the rows whose status is missing (a ledger that needs no bound)")
    args = ap.parse_args()
    chunk = args.chunk or DEFAULT_CHUNK
    checker = Checker().warm()
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        cases = (("realistic (payments on schedules)", True), ("worst case (every row distinct)", False))
        for label, schedule in cases:
            if args.only and (args.only == "realistic") != schedule:
                continue
            name = "realistic" if schedule else "distinct"
            ledger = tmpdir / f"ledger-{name}.csv"
            t0 = time.perf_counter()
            write_csv(ledger, iter_rows(args.n, seed=1, schedule=schedule))  # streamed: never all in memory
            if args.without_missing:
                _drop_missing(ledger, checker, args.workers, chunk)
            gen = time.perf_counter() - t0
            out = tmpdir / f"out-{name}.csv"
            runs = tmpdir / f"runs-{name}"
            runs.mkdir()
            timed = Checker().warm()  # as the recording run's: both hand clingo the same programs (none narrowed yet)
            real = solve.run_clingo
            calls = itertools.count()

            def counted(*a: Any, calls: Any = calls, real: Any = real, **k: Any) -> solve.Solved:
                next(calls)
                return real(*a, **k)

            solve.run_clingo = counted  # (a single worker's calls: forked workers count their own)
            try:
                t0, cpu0 = time.perf_counter(), _cpu_seconds()
                summary = run_batch(ledger, CONTEXT, out, workers=args.workers, chunk_size=chunk, checker=timed,
                                    bounds=not args.no_bounds)
                dt, cpu = time.perf_counter() - t0, _cpu_seconds() - cpu0
            finally:
                solve.run_clingo = real
            timed_runs = next(calls)
            peaks = _peak_mb(resource.RUSAGE_SELF), _peak_mb(resource.RUSAGE_CHILDREN)  # before raw clingo runs
            if not args.no_raw:  # the same batch again, not timed, recording what it hands clingo (the recording's
                real = solve.run_clingo  # own work, hashing and writing every program and set of facts, is not the
                record_clingo_runs(runs)  # batch's: it was counted in the batch's CPU)
                try:
                    again = run_batch(ledger, CONTEXT, tmpdir / f"out-{name}-recorded.csv", workers=args.workers,
                                      chunk_size=chunk, checker=Checker().warm(), bounds=not args.no_bounds)
                finally:
                    solve.run_clingo = real
                    while _STOPS:
                        _STOPS.pop()()
                if again.by_status != summary.by_status:
                    raise SystemExit("the recording run decided otherwise than the timed run")
                recorded = len(list(runs.glob("*.facts")))
                if args.workers <= 1 and recorded != timed_runs:  # (a time limit the load reached, say)
                    print(f"  note: the timed run made {timed_runs} clingo runs, the recording run {recorded}")
            rows = summary.rows
            flags = (" --no-bounds" if args.no_bounds else "") + (" without missing" if args.without_missing else "")
            print(f"{label}{flags}: {rows:,} rows in {dt:.2f} s = {rows / dt:,.0f} "
                  f"rows/s ({args.workers} workers, "
                  f"chunks of {chunk}; {cpu:.2f} s of CPU; ledger generated in {gen:.1f} s); statuses "
                  f"{dict(sorted(summary.by_status.items()))}")
            if not args.no_raw:
                solved, raw_cpu, _ = raw_clingo(runs)
                print(f"  raw clingo on the same {solved} programs+facts: {raw_cpu:.2f} s of CPU; batch CPU / raw "
                      f"clingo CPU = {cpu / raw_cpu:.2f}x")
            if args.keep:
                args.keep.mkdir(parents=True, exist_ok=True)
                shutil.copy(out, args.keep / out.name)
            print(f"  peak memory so far: batch process {peaks[0]:,.0f} MB, largest worker {peaks[1]:,.0f} MB")
        if args.callgrind:
            callgrind(tmpdir, args.callgrind, chunk, schedule=args.only != "worst")


if __name__ == "__main__":
    main()
