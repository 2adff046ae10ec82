"""Run the fuzz harness for longer than CI does (issue 26): ``python tests/fuzz/run.py --cases N --seed S``.

Half the cases are mutated scenarios, half mutated ledgers (``--kind`` to run one). Every case is run to
its verdict (no stop at the first failure); the failing ones are saved under ``--out`` (the mutant's bytes
and a line of ``failures.jsonl``) to be turned into regression tests. Prints, every ``--every`` cases and at
the end: cases, seconds, refused, accepted, crashes, hangs (over 10 s of CPU), accepted-invalid, the slowest case.
Exit code 1 if any case failed. Run it at low priority (``nice -n 19``): it uses one core.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from hypothesis import HealthCheck, Phase, given, seed, settings

from tests.fuzz.mutants import ledger_mutants, scenario_mutants
from tests.fuzz.oracle import Verdict, run_ledger, run_scenario

BATCH = 1_000
"""Cases per hypothesis run (each with its own seed: ``seed * 100_003 + batch``)."""


class Tally:
    def __init__(self, out: Path | None, every: int) -> None:
        self.counts: collections.Counter[str] = collections.Counter()
        self.kinds: collections.Counter[str] = collections.Counter()
        self.slowest = (0.0, "")
        self.start = time.perf_counter()
        self.cpu = time.process_time()
        self.out, self.every = out, every
        self.distinct: collections.Counter[str] = collections.Counter()
        self.harness_errors = 0

    @property
    def cases(self) -> int:
        return sum(self.counts.values())

    def add(self, kind: str, verdict: Verdict, data: bytes, suffix: str) -> None:
        self.counts[verdict.kind] += 1
        self.kinds[kind] += 1
        if verdict.seconds > self.slowest[0]:
            self.slowest = (verdict.seconds, kind)
        if verdict.failed:
            key = f"{kind} {verdict.kind}: {verdict.detail[:100]}"
            self.distinct[key] += 1
            if self.out is not None and self.distinct[key] <= 3:
                self.out.mkdir(parents=True, exist_ok=True)
                n = self.counts["crash"] + self.counts["hang"] + self.counts["accepted-invalid"]
                name = f"{kind}-{n:05d}{suffix}"
                (self.out / name).write_bytes(data)
                with open(self.out / "failures.jsonl", "a", encoding="utf-8") as fh:
                    fh.write(json.dumps({"file": name, "verdict": verdict.kind, "detail": verdict.detail,
                                         "seconds": round(verdict.seconds, 3)}) + "\n")
        if self.cases % self.every == 0:
            self.report()

    def report(self) -> None:
        c = self.counts
        print(f"cases {self.cases} ({self.kinds['scenario']} scenarios, {self.kinds['ledger']} ledgers) in "
              f"{time.perf_counter() - self.start:.0f} s ({time.process_time() - self.cpu:.0f} s of CPU): "
              f"refused {c['refused']}, accepted {c['accepted']}, "
              f"crashes {c['crash']}, hangs over 10 s of CPU {c['hang']}, accepted-invalid {c['accepted-invalid']}; "
              f"slowest case {self.slowest[0]:.2f} s of CPU ({self.slowest[1]})"
              + (f"; harness errors {self.harness_errors}" if self.harness_errors else ""), flush=True)

    @property
    def failures(self) -> int:
        return self.counts["crash"] + self.counts["hang"] + self.counts["accepted-invalid"]


def _one_run(kind: str, size: int, seed_value: int, tally: Tally) -> int:
    """One hypothesis run of ``size`` mutants of ``kind``; the number of cases run."""
    counted = [0]
    opts = settings(max_examples=size, database=None, deadline=None, phases=[Phase.generate],
                    suppress_health_check=list(HealthCheck), derandomize=False)

    def judge(data: bytes, suffix: str) -> None:
        if counted[0] < size:
            counted[0] += 1
            verdict = run_scenario(data) if kind == "scenario" else run_ledger(data, suffix)
            tally.add(kind, verdict, data, suffix)

    if kind == "scenario":
        @seed(seed_value)
        @opts
        @given(scenario_mutants())
        def case(data: bytes) -> None:
            judge(data, ".yaml")
    else:
        @seed(seed_value + 50_000)
        @opts
        @given(ledger_mutants())
        def case(mutant: tuple[bytes, str]) -> None:
            judge(*mutant)
    try:
        case()
    except Exception as err:  # a fault of the harness's own strategies: said, and the run goes on
        print(f"harness error in a run of {kind} mutants (seed {seed_value}): {type(err).__name__}: {err}", flush=True)
        tally.harness_errors += 1
    return counted[0]


def run(kind: str, cases: int, base_seed: int, tally: Tally) -> None:
    """``cases`` mutants of ``kind``, in hypothesis runs of :data:`BATCH` cases (each with its own seed)."""
    done = 0
    batch = 0
    while done < cases:
        done += _one_run(kind, min(BATCH, cases - done), base_seed * 100_003 + batch, tally)
        batch += 1
        if batch > 10 * (cases // BATCH + 1):  # hypothesis keeps finding nothing to try: never for these strategies
            break


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cases", type=int, default=2_000)
    p.add_argument("--seed", type=int, default=26)
    p.add_argument("--kind", choices=["both", "scenario", "ledger"], default="both")
    p.add_argument("--out", type=Path, default=None, help="save failing mutants here")
    p.add_argument("--every", type=int, default=1_000, help="print the tally every N cases")
    args = p.parse_args(argv)
    tally = Tally(args.out, args.every)
    kinds = ["scenario", "ledger"] if args.kind == "both" else [args.kind]
    # interleaved in runs of BATCH, so a long run stopped early has tried both kinds alike
    per_kind = {k: args.cases // len(kinds) + (1 if i < args.cases % len(kinds) else 0) for i, k in enumerate(kinds)}
    done = dict.fromkeys(kinds, 0)
    round_ = 0
    while any(done[k] < per_kind[k] for k in kinds):
        for k in kinds:
            n = min(BATCH, per_kind[k] - done[k])
            if n > 0:
                before = tally.cases
                run(k, n, args.seed + round_ * 7919, tally)
                done[k] += n if tally.cases > before else per_kind[k]
        round_ += 1
    tally.report()
    for key, n in tally.distinct.most_common():
        print(f"  {n:6d} x {key}")
    return 1 if tally.failures else 0




if __name__ == "__main__":
    sys.exit(main())
