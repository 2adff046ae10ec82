"""Outcome diff over the scenario corpus: between two rule bases (folders of ``logic/``), or between a git
revision of the whole package (its Python layer *and* its rules, run in a subprocess) and the working
tree, so that a refactoring of either is proved to change no answer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any

from pyhelpers.base import formats
from pyhelpers.base.errors import InputError
from pyhelpers.engine.program import load_logic
from pyhelpers.engine.results import Finding, ItemResult, StateOutcome
from pyhelpers.engine.solve import Checker
from pyhelpers.output.render import result_json, wording
from pyhelpers.scenario import load_file


def logic_at(rev: str, workdir: Path, repo: Path | None = None) -> Path:
    """The ``logic/`` folder of ``rev``: ``rev`` itself when it is a folder (of rule files, or holding
    ``logic/``), else the git revision's ``logic/`` extracted under ``workdir``."""
    path = Path(rev)
    if path.is_dir():
        return path / "logic" if (path / "logic" / "core").is_dir() else path
    cwd = repo or Path.cwd()
    try:
        data = subprocess.run(["git", "archive", "--format=tar", rev, "logic"], cwd=cwd, check=True,
                              capture_output=True).stdout
    except (OSError, subprocess.CalledProcessError) as err:
        detail = err.stderr.decode(errors="replace").strip() if isinstance(err, subprocess.CalledProcessError) \
            else str(err)
        raise InputError(f"{rev}: expected a folder of logic/ or a git revision ({detail})") from None
    target = workdir / rev.replace("/", "_")
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(target, filter="data")
    return target / "logic"


def _summary(item: ItemResult) -> dict[str, Any]:
    return {
        "status": item.status,
        "outcome": {s.state: s.label for s in item.states},
        "max_rate_bp": item.max_rate_bp,
        "findings": sorted(str(f) for f in item.findings),
    }


_NOT_COMPARED = frozenset({"source", "receipt", "atoms", "expect", "decisive_cut"})
"""Fields of a scenario's JSON that a refactoring may change without changing an answer: where the
file is, the hashes of the rules and facts, the raw atoms, the expectations' comparison, and whether the
time limit cut the decisive lines (the explanation's words, not the answer)."""


def _compared(data: dict[str, Any], left_out: frozenset[str]) -> dict[str, Any]:
    """The fields of ``data`` compared: not those ``left_out``, nor empty ones (a field one version adds
    and leaves empty is no change of answer); a State's decisive line (the explanation's words, written by
    the command line only) is left out of its outcome."""
    out = {k: v for k, v in data.items() if k not in left_out and v not in (None, [], {}, "")}
    if isinstance(out.get("states"), list):
        out["states"] = [{k: v for k, v in st.items() if k != "decisive"} if isinstance(st, dict) else st
                         for st in out["states"]]
    return out


def _json_summary(item: dict[str, Any]) -> dict[str, Any]:
    """:func:`_summary` of an item as the ``check --format json`` output gives it."""
    return {
        "status": item["status"],
        "outcome": {s["state"]: StateOutcome(s["state"], s["outcome"], s["max_rate_bp"], ()).label
                    for s in item["states"]},
        "max_rate_bp": item["max_rate_bp"],
        "findings": sorted(str(Finding(f["kind"], f["provision"], f.get("fact"))) for f in item["findings"]),
    }


@dataclass
class Change:
    scenario: str
    item: str
    before: dict[str, Any]
    after: dict[str, Any]
    provisions_before: tuple[str, ...]
    provisions_after: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"scenario": self.scenario, "item": self.item, "before": self.before, "after": self.after,
                "provisions_before": list(self.provisions_before), "provisions_after": list(self.provisions_after)}


def diff_outcomes(base: Path, head: Path, scenarios: list[Path], progress: Callable[[int], None] | None = None
                  ) -> list[Change]:
    """Every item whose outcome (status, outcome per State, rate, findings, provisions) differs;
    ``progress(1)`` told after each scenario."""
    old, new = Checker(load_logic(base.resolve())), Checker(load_logic(head.resolve()))
    changes = []
    for path in scenarios:
        scenario = load_file(path)
        a, b = old.check(scenario, str(path)), new.check(scenario, str(path))
        for ia, ib in zip(a.items, b.items, strict=True):
            sa, sb = _summary(ia), _summary(ib)
            if sa != sb or ia.provisions != ib.provisions:
                changes.append(Change(str(path), ia.item_id, sa, sb, ia.provisions, ib.provisions))
        if progress is not None:
            progress(1)
    return changes


def package_at(rev: str, workdir: Path, repo: Path | None = None) -> Path:
    """The package (``pyhelpers/`` with ``logic/``) of git revision ``rev``, extracted under ``workdir``."""
    cwd = repo or Path.cwd()
    try:
        data = subprocess.run(["git", "archive", "--format=tar", rev, "pyhelpers", "logic"], cwd=cwd, check=True,
                              capture_output=True).stdout
    except (OSError, subprocess.CalledProcessError) as err:
        detail = err.stderr.decode(errors="replace").strip() if isinstance(err, subprocess.CalledProcessError) \
            else str(err)
        raise InputError(f"{rev}: expected a git revision of this repository ({detail})") from None
    target = workdir / ("package-" + rev.replace("/", "_"))
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(target, filter="data")
    # an installed package finds its rules in pyhelpers/logic; a checkout beside pyhelpers/
    return target


def _results_of_package(package: Path, scenarios: list[Path], workdir: Path) -> dict[str, dict[str, Any]]:
    """Every scenario checked by the package extracted at ``package`` (its own command line, in a new
    process with its own disk cache): the JSON of ``treaty check --format json`` by source path (a
    scenario that version cannot load, e.g. one using a field added since, is absent)."""
    cli = next((m for m in ("pyhelpers.interfaces.cli", "pyhelpers.cli")
                if (package / (m.replace(".", "/") + ".py")).is_file()), None)
    if cli is None:
        raise InputError(f"{package}: no command line module found in the revision's pyhelpers/")
    env = {**os.environ, "PYTHONPATH": str(package), "XDG_CACHE_HOME": str(workdir / "cache-base"),
           "PYTHONHASHSEED": "0"}
    done = subprocess.run([sys.executable, "-m", cli, "check", "--format", "json", *map(str, scenarios)],
                          cwd=package, env=env, capture_output=True, text=True)
    if done.returncode not in (0, 1, 2) or not done.stdout.strip():
        why = (done.stderr.strip().splitlines() or ["no output"])[-1]  # its error line, not a usage text
        raise InputError(f"the revision's `treaty check` failed (exit {done.returncode}): {why}")
    data = json.loads(done.stdout)
    # since schema 2.0 an envelope {incomplete, schema_version, results}; before, one object or a list
    if isinstance(data, dict) and "results" in data:
        data = data["results"]
    return {r["source"]: r for r in ([data] if isinstance(data, dict) else data)}


_NOT_LOADED: dict[str, Any] = {"status": "not loaded by the base version (a field it does not know)", "outcome": {},
               "max_rate_bp": None, "findings": []}


def diff_package(rev: str, scenarios: list[Path], workdir: Path, repo: Path | None = None,
                 progress: Callable[[int], None] | None = None) -> list[Change]:
    """Every item whose answer differs between the whole package at git revision ``rev`` and this one:
    status, outcome per State, rate, findings, provisions, and every other field of the item's JSON
    (amounts, compliance, relief, alternatives) but the receipt's hashes. ``progress(1)`` is told after
    each scenario checked by this version (the revision's checks all of them first, in one process)."""
    old = _results_of_package(package_at(rev, workdir, repo), [p.resolve() for p in scenarios], workdir)
    new = Checker()
    changes = []
    for path in scenarios:
        after = result_json(new.check(load_file(path), str(path.resolve())))  # as `treaty check --format json`
        if progress is not None:
            progress(1)
        before = old.get(str(path.resolve()))
        if before is None:
            changes += [Change(str(path), ib["item_id"], _NOT_LOADED, _json_summary(ib), (), tuple(ib["provisions"]))
                        for ib in after["items"]]
            continue
        for ia, ib in zip(before["items"], after["items"], strict=True):
            sa, sb = _json_summary(ia), _json_summary(ib)
            rest_a, rest_b = _compared(ia, _NOT_COMPARED), _compared(ib, _NOT_COMPARED)
            top_a, top_b = _compared(before, _NOT_COMPARED | {"items"}), _compared(after, _NOT_COMPARED | {"items"})
            if sa != sb or rest_a != rest_b or top_a != top_b:
                if sa == sb:  # the same outcome, another field: name the fields that differ
                    fields = sorted(k for k in set(rest_a) | set(rest_b) if rest_a.get(k) != rest_b.get(k))
                    fields += sorted(k for k in set(top_a) | set(top_b) if top_a.get(k) != top_b.get(k))
                    sb = {**sb, "findings": [*sb["findings"], f"(also differs: {', '.join(fields)})"]}
                changes.append(Change(str(path), ia["item_id"], sa, sb, tuple(ia["provisions"]),
                                      tuple(ib["provisions"])))
    return changes


_TEXT = {
    "en": {"none": "no outcome changed ({n} scenario(s))", "changed": "{c} outcome(s) changed ({n} scenario(s)):",
           "before": "before:", "after": "after:", "provisions": "provisions:", "findings": "findings:",
           "also": "(also differs:"},
    "pt": {"none": "nenhum resultado mudou ({n} cenário(s))", "changed": "{c} resultado(s) mudaram ({n} cenário(s)):",
           "before": "antes:", "after": "depois:", "provisions": "dispositivos:", "findings": "constatações:",
           "also": "(também difere:"},
}
"""The words of ``treaty diff``'s text (``--lang``); the statuses, outcome labels and findings are the JSON's
values, as ``check --format json`` writes them."""


def _fmt(summary: dict[str, Any], w: dict[str, str]) -> str:
    out = f"{summary['status']}; " + ", ".join(f"{k}: {v}" for k, v in summary["outcome"].items())
    if summary["findings"]:
        out += f"; {w['findings']} " + ", ".join(f.replace("(also differs:", w["also"]) for f in summary["findings"])
    return out


def diff_text(changes: list[Change], scenarios: int, lang: str = "en") -> str:
    """The outcomes that changed, before and after, in ``lang`` (en, pt, pt-PT)."""
    w = wording(_TEXT, lang)
    if not changes:
        return w["none"].format(n=formats.number(scenarios, lang)) + "\n"
    width = max(len(w["before"]), len(w["after"])) + 1
    lines = [w["changed"].format(c=formats.number(len(changes), lang), n=formats.number(scenarios, lang))]
    for c in changes:
        lines += [f"{c.scenario} {c.item}",
                  f"  {w['before']:{width}}{_fmt(c.before, w)}",
                  f"  {'':{width}}{w['provisions']} {'; '.join(c.provisions_before)}",
                  f"  {w['after']:{width}}{_fmt(c.after, w)}",
                  f"  {'':{width}}{w['provisions']} {'; '.join(c.provisions_after)}"]
    return "\n".join(lines) + "\n"


def tempdir() -> tempfile.TemporaryDirectory[str]:
    return tempfile.TemporaryDirectory(prefix="treaty-diff-")
