"""Both engines on the same scenarios, and the invariants between them.

For each scenario, on every atom of every derived predicate (not only the shown ones):

* one answer set (clingo's brave and cautious consequences agree — every scenario today, since
  unknown facts are ``unknown/3`` inputs, not choices): the well-founded model has no undefined atom
  and its true atoms are exactly clingo's;
* several answer sets (choice rules of the unknown-fact pattern): every atom true in Prolog is a
  cautious consequence, and every brave consequence is true or undefined in Prolog. (Equality does
  not hold: an atom can follow from every alternative and still be undefined in the well-founded model.)

Scenarios run in chunks: clingo grounds and solves a chunk as one program (brave, then cautious);
SWI-Prolog runs each chunk in one ``swipl`` process, in parallel with clingo. Scenario ids keep the
chunk's scenarios apart (the first argument of every predicate).
"""

from __future__ import annotations

import os
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import clingo

from pyhelpers.base import formats
from pyhelpers.engine.program import Logic
from pyhelpers.engine.solve import Checker
from pyhelpers.output.render import wording
from pyhelpers.prolog.engine import PrologModel, run_batch, translation_for
from pyhelpers.prolog.portable import Sig
from pyhelpers.prolog.translate import Translation
from pyhelpers.scenario import Scenario


@dataclass(frozen=True)
class Case:
    """One scenario to check: a name to report it by (its file, or how it was generated)."""

    name: str
    scenario: Scenario
    data: Any = None  # the generated data, to save it when it disagrees


@dataclass(frozen=True)
class Disagreement:
    case: str
    atom: str
    clingo: str  # true | brave only | false
    prolog: str  # true | undefined | false | error
    rule: str  # the invariant that failed

    def __str__(self) -> str:
        return f"{self.case}: {self.atom}: clingo {self.clingo}, SWI-Prolog {self.prolog} ({self.rule})"


@dataclass
class Report:
    cases: int = 0
    with_unknowns: int = 0
    several_answer_sets: int = 0
    atoms: int = 0
    disagreements: list[Disagreement] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    clingo_seconds: float = 0.0
    prolog_seconds: float = 0.0
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.disagreements

    def cases_disagreeing(self) -> list[str]:
        return sorted({d.case for d in self.disagreements})


@dataclass
class _Consequences:
    brave: set[str]  # atoms in clingo's syntax
    cautious: set[str]
    failure: str | None = None


def clingo_consequences(program: str, facts: Sequence[str], show: Iterable[Sig]) -> _Consequences:
    """Brave and cautious consequences of ``program`` with ``facts`` on the predicates ``show`` (clingo
    computes consequences on the shown atoms only, so each of them is shown)."""
    ctl = clingo.Control(["--warn=none", "--models=0"])
    ctl.add("base", [], program)
    ctl.add("base", [], "\n".join(f"#show {name}/{arity}." for name, arity in sorted(show)))
    ctl.add("base", [], "\n".join(facts))
    ctl.ground([("base", [])])
    out: dict[str, set[str]] = {}
    names = {name for name, _ in show}
    for mode in ("brave", "cautious"):
        ctl.configuration.solve.enum_mode = mode  # type: ignore[union-attr]
        last: list[clingo.Symbol] | None = None
        with ctl.solve(yield_=True) as handle:
            for model in handle:
                last = model.symbols(shown=True)
        if last is None:
            return _Consequences(set(), set(), "no answer set")
        out[mode] = {text for text in map(str, last) if text.split("(", 1)[0] in names}
    return _Consequences(out["brave"], out["cautious"])


def _owner(atom: str) -> str | None:
    """The scenario id an atom (in clingo's syntax) starts with, if its first argument is a string."""
    start = atom.find("(")
    if start < 0 or atom[start + 1:start + 2] != '"':
        return None
    end = atom.find('"', start + 2)
    return atom[start + 2:end] if end > 0 else None


def _compare(case: str, brave_t: set[str], cautious_t: set[str], prolog: PrologModel | None, report: Report,
             error: str | None) -> None:
    if error is not None:
        report.disagreements.append(Disagreement(case, "(every atom)", "—", "error", error))
        return
    assert prolog is not None
    true, undefined = prolog.true, prolog.undefined
    report.atoms += len(brave_t | true | undefined)

    def verdicts(atom: str) -> tuple[str, str]:
        c = "true" if atom in cautious_t else "brave only" if atom in brave_t else "false"
        p = "true" if atom in true else "undefined" if atom in undefined else "false"
        return c, p

    if brave_t == cautious_t:
        rule = "one answer set: the models must be equal"
        for atom in sorted((cautious_t ^ true) | undefined):
            c, p = verdicts(atom)
            report.disagreements.append(Disagreement(case, atom, c, p, rule))
        return
    report.several_answer_sets += 1
    for atom in sorted(true - cautious_t):
        c, p = verdicts(atom)
        report.disagreements.append(Disagreement(case, atom, c, p, "true in Prolog must be a cautious consequence"))
    for atom in sorted(brave_t - true - undefined):
        c, p = verdicts(atom)
        report.disagreements.append(Disagreement(case, atom, c, p, "a brave consequence must be true or undefined "
                                                                   "in Prolog"))


def compare_models(case: str, brave: set[str], cautious: set[str], true: set[str], undefined: set[str]
                   ) -> list[Disagreement]:
    """The invariants between clingo's brave and cautious consequences and SWI-Prolog's true and
    undefined atoms for one scenario (atoms in clingo's syntax)."""
    report = Report()
    _compare(case, brave, cautious, PrologModel(set(true), set(undefined)), report, None)
    return report.disagreements


def _split(atoms: Iterable[str], sids: dict[str, int]) -> tuple[dict[int, set[str]], set[str]]:
    """Atoms by the scenario that owns them, and the atoms no scenario of ``sids`` owns."""
    per: dict[int, set[str]] = defaultdict(set)
    loose: set[str] = set()
    for atom in atoms:
        owner = _owner(atom)
        idx = sids.get(owner) if owner is not None else None
        if idx is None:
            loose.add(atom)
        else:
            per[idx].add(atom)
    return per, loose


def restrict(atoms: set[str], names: set[str]) -> set[str]:
    return {a for a in atoms if a.split("(", 1)[0] in names}


def crosscheck(cases: Sequence[Case], checker: Checker | None = None, chunk: int = 250, workers: int | None = None,
               progress: Callable[[int], None] | None = None) -> Report:
    """Run both engines on ``cases`` and check the invariants; the report lists every disagreement.
    ``progress(n)`` is told after each chunk of ``n`` cases is compared."""
    start = time.perf_counter()
    checker = checker or Checker()
    logic: Logic = checker.logic
    tr: Translation = translation_for(logic)
    report = Report(cases=len(cases))
    sigs = {s for s in tr.derived if s not in tr.excluded}
    for (name, arity), reason in sorted(tr.excluded.items()):
        report.skipped.append(f"{name}/{arity} not compared: {reason}")
    workers = workers or max(1, min(4, os.cpu_count() or 1))
    chunks = [list(range(i, min(i + chunk, len(cases)))) for i in range(0, len(cases), chunk)]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        static_future = pool.submit(run_batch, tr, [], [])
        jobs: list[tuple[list[int], dict[str, int], list[str], Future[PrologModel]]] = []
        for k, members in enumerate(chunks):
            sids: dict[str, int] = {}
            facts: list[str] = []
            for i in members:
                sid = f"c{k}s{i}"
                sids[sid] = i
                scenario_facts = checker.facts(cases[i].scenario, sid)
                if any(f.startswith("unknown(") for f in scenario_facts):
                    report.with_unknowns += 1
                facts += scenario_facts
            jobs.append((members, sids, facts, pool.submit(run_batch, tr, facts, list(sids))))
        # the rule base alone: atoms no scenario owns (the catalogue's derived atoms)
        t = time.perf_counter()
        static = clingo_consequences(logic.program, [], sigs)
        report.clingo_seconds += time.perf_counter() - t
        static_prolog = static_future.result()
        report.prolog_seconds += static_prolog.seconds
        names = {name for name, _ in sigs}
        _compare("(the rule base without a scenario)", static.brave, static.cautious,
                 PrologModel(restrict(static_prolog.true, names), restrict(static_prolog.undefined, names)),
                 report, static.failure or static_prolog.failure)
        for members, sids, facts, future in jobs:
            t = time.perf_counter()
            cons = clingo_consequences(logic.program, facts, sigs)
            report.clingo_seconds += time.perf_counter() - t
            prolog = future.result()
            report.prolog_seconds += prolog.seconds
            if cons.failure is not None:
                _isolate(cases, members, checker, logic.program, sigs, report, cons.failure)
                if progress is not None:
                    progress(len(members))
                continue
            brave, loose = _split(cons.brave, sids)
            cautious, _ = _split(cons.cautious, sids)
            for atom in sorted(loose - static.cautious):
                report.skipped.append(f"{atom} holds in a batch but no scenario owns it (the scenario id must be "
                                      "the first argument): not compared")
            true, _ = _split(restrict(prolog.true, names), sids)
            undefined, _ = _split(restrict(prolog.undefined, names), sids)
            errors = {sids[k.strip('"')]: v for k, v in prolog.errors.items() if k.strip('"') in sids}
            for i in sids.values():
                error = prolog.failure or errors.get(i)
                _compare(cases[i].name, brave[i], cautious[i], PrologModel(true[i], undefined[i]), report, error)
            if progress is not None:
                progress(len(members))
    report.seconds = time.perf_counter() - start
    return report


def _isolate(cases: Sequence[Case], members: list[int], checker: Checker, program: str, sigs: set[Sig],
             report: Report, failure: str) -> None:
    """A chunk without an answer set: name the scenarios that have none."""
    for i in members:
        cons = clingo_consequences(program, checker.facts(cases[i].scenario, "s"), sigs)
        if cons.failure is not None:
            report.disagreements.append(Disagreement(cases[i].name, "(every atom)", cons.failure, "—",
                                                     "clingo must find an answer set (findings are atoms)"))


# --------------------------------------------------------------------------- files and output ---
def load_cases(paths: Sequence[str]) -> list[Case]:
    """The scenarios under ``paths`` (files or folders of ``*.yaml``). A file that does not load is an
    input error (exit code 2, as in every command), naming every such file and its problems."""

    from pyhelpers.base.errors import InputError, Problem, ScenarioError
    from pyhelpers.scenario import load_file
    from pyhelpers.scenario.loading import scenario_files

    files = scenario_files(paths)
    if not files:
        raise InputError(f"no scenario file in {', '.join(paths) or 'the current folder'}: expected a *.yaml or "
                         "*.yml file, or a folder holding some")
    cases: list[Case] = []
    problems: list[Problem] = []
    others: list[str] = []
    for f in files:
        try:
            cases.append(Case(str(f), load_file(f)))
        except ScenarioError as err:
            problems += err.problems
        except InputError as err:
            others.append(str(err))
    if others:
        raise InputError("\n".join(others + [str(p) for p in problems]))
    if problems:
        raise ScenarioError(problems)
    return cases


def swipl_version() -> str:
    import subprocess

    from pyhelpers.prolog.engine import swipl

    run = subprocess.run([swipl(), "--version"], capture_output=True, text=True, check=False)
    words = run.stdout.split()  # "SWI-Prolog version 9.0.4 for x86_64-linux"
    return words[2] if len(words) > 2 and words[1] == "version" else run.stdout.strip()


_TEXT = {
    "en": {"title": "crosscheck: clingo {clingo} and SWI-Prolog {swipl} on {n} scenario(s) + {g} generated; {u} with "
                    "facts given as unknown, {s} with several answer sets",
           "agreement": "agreement: {atoms} atoms compared, no disagreement",
           "disagreement": "DISAGREEMENT: {d} atom(s) in {c} scenario(s) ({atoms} atoms compared)",
           "more": "... and {n} more",
           "time": "time: {t} s (clingo {c} s; SWI-Prolog {p} s over its processes)",
           "skipped": "skipped ({n}):"},
    "pt": {"title": "verificação cruzada: clingo {clingo} e SWI-Prolog {swipl} em {n} cenário(s) + {g} gerado(s); "
                    "{u} com fatos informados como desconhecidos, {s} com vários conjuntos de respostas",
           "agreement": "concordância: {atoms} átomos comparados, nenhuma divergência",
           "disagreement": "DIVERGÊNCIA: {d} átomo(s) em {c} cenário(s) ({atoms} átomos comparados)",
           "more": "... e mais {n}",
           "time": "tempo: {t} s (clingo {c} s; SWI-Prolog {p} s somados os seus processos)",
           "skipped": "não comparados ({n}):"},
    "pt-PT": {"title": "verificação cruzada: clingo {clingo} e SWI-Prolog {swipl} em {n} cenário(s) + {g} gerado(s); "
                       "{u} com factos dados como desconhecidos, {s} com vários conjuntos de respostas"},
}
"""The words of ``treaty crosscheck``'s text (``--lang``); the disagreements and the notes of what was not
compared stay as the JSON gives them (atoms, values, rule ids)."""


def report_text(report: Report, scenarios: int, generated: int, limit: int = 50, lang: str = "en") -> str:
    """The agreement of the two engines in words, in ``lang`` (en, pt, pt-PT)."""
    w = wording(_TEXT, lang)

    def num(n: int) -> str:
        return formats.number(Decimal(n), lang)

    def sec(x: float) -> str:
        return formats.number(Decimal(f"{x:.1f}"), lang)

    lines = [w["title"].format(clingo=clingo.__version__, swipl=swipl_version(), n=scenarios, g=generated,
                               u=report.with_unknowns, s=report.several_answer_sets)]
    if report.ok:
        lines.append(w["agreement"].format(atoms=num(report.atoms)))
    else:
        lines.append(w["disagreement"].format(d=len(report.disagreements), c=len(report.cases_disagreeing()),
                                              atoms=num(report.atoms)))
        lines += [f"  {d}" for d in report.disagreements[:limit]]
        if len(report.disagreements) > limit:
            lines.append("  " + w["more"].format(n=len(report.disagreements) - limit))
    lines.append(w["time"].format(t=sec(report.seconds), c=sec(report.clingo_seconds), p=sec(report.prolog_seconds)))
    if report.skipped:
        lines.append(w["skipped"].format(n=len(report.skipped)))
        lines += [f"  {s}" for s in report.skipped]
    return "\n".join(lines) + "\n"


def report_json(report: Report, scenarios: int, generated: int) -> dict[str, Any]:
    return {
        "clingo": clingo.__version__, "swipl": swipl_version(), "scenarios": scenarios, "generated": generated,
        "with_unknowns": report.with_unknowns, "several_answer_sets": report.several_answer_sets,
        "atoms": report.atoms, "agree": report.ok,
        "disagreements": [d.__dict__ for d in report.disagreements], "skipped": report.skipped,
        "seconds": round(report.seconds, 2), "clingo_seconds": round(report.clingo_seconds, 2),
        "prolog_seconds": round(report.prolog_seconds, 2),
    }
