"""Outcome diff between two rule bases (git revisions or folders of ``logic/``) over the scenario corpus."""

from __future__ import annotations

import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any

from .errors import InputError
from .program import load_logic
from .results import ItemResult
from .scenario import load_file
from .solve import Checker


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


def diff_outcomes(base: Path, head: Path, scenarios: list[Path]) -> list[Change]:
    """Every item whose outcome (status, outcome per State, rate, findings, provisions) differs."""
    old, new = Checker(load_logic(base.resolve())), Checker(load_logic(head.resolve()))
    changes = []
    for path in scenarios:
        scenario = load_file(path)
        a, b = old.check(scenario, str(path)), new.check(scenario, str(path))
        for ia, ib in zip(a.items, b.items, strict=True):
            sa, sb = _summary(ia), _summary(ib)
            if sa != sb or ia.provisions != ib.provisions:
                changes.append(Change(str(path), ia.item_id, sa, sb, ia.provisions, ib.provisions))
    return changes


def _fmt(summary: dict[str, Any]) -> str:
    out = f"{summary['status']}; " + ", ".join(f"{k}: {v}" for k, v in summary["outcome"].items())
    if summary["findings"]:
        out += "; findings: " + ", ".join(summary["findings"])
    return out


def diff_text(changes: list[Change], scenarios: int) -> str:
    if not changes:
        return f"no outcome changed ({scenarios} scenario(s))\n"
    lines = [f"{len(changes)} outcome(s) changed ({scenarios} scenario(s)):"]
    for c in changes:
        lines += [f"{c.scenario} {c.item}",
                  f"  before: {_fmt(c.before)}", f"          provisions: {'; '.join(c.provisions_before)}",
                  f"  after:  {_fmt(c.after)}", f"          provisions: {'; '.join(c.provisions_after)}"]
    return "\n".join(lines) + "\n"


def tempdir() -> tempfile.TemporaryDirectory[str]:
    return tempfile.TemporaryDirectory(prefix="treaty-diff-")
