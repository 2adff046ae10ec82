"""Where the rule base is, and the little of it that every layer may read without the engine: the list
of treaty folders the package ships, the ground catalogue facts written in the rule files (a treaty's
States, its named taxes ...), and the documentation of the scenario format kept beside the law.

The law itself lives only in ``logic/``: this module knows no treaty, article or figure, it reads them.
The rule base is the package's own ``logic/``, or the folder that ``$TREATY_LOGIC_DIR`` names (laid out
the same way: ``core/`` and one folder per treaty), for instance a treaty of one's own.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

import clingo

from pyhelpers.base.errors import LogicError

CORE = "core"
"""The folder of the rules every treaty shares; every other folder of ``logic/`` is one treaty."""


ENVIRONMENT = "TREATY_LOGIC_DIR"


def logic_dir() -> Path:
    """Where the rule files are: ``$TREATY_LOGIC_DIR`` when set, else inside the installed package, or
    beside it in a source checkout (found once per process and setting)."""
    return _logic_dir(os.environ.get(ENVIRONMENT) or "")


@lru_cache(maxsize=8)
def _logic_dir(chosen: str) -> Path:
    if chosen:
        root = Path(chosen).resolve()
        if not (root / CORE / "vocabulary.lp").is_file():
            raise LogicError(f"${ENVIRONMENT}={chosen}: expected a folder of rules with core/vocabulary.lp")
        return root
    here = Path(__file__).resolve().parents[1]  # the pyhelpers package
    for candidate in (here / "logic", here.parent / "logic"):
        if (candidate / CORE / "vocabulary.lp").is_file():
            return candidate
    raise LogicError(f"the logic/ folder was not found beside {here}; reinstall treaty-logic")


def treaty_folders(root: Path | None = None) -> tuple[str, ...]:
    """The treaties the package ships: the folders of ``logic/`` other than the core, sorted."""
    root = root or logic_dir()
    return tuple(sorted(p.name for p in root.iterdir() if p.is_dir() and p.name != CORE
                        and any(p.glob("*.lp"))))


def rule_files(root: Path | None = None) -> list[Path]:
    """Every rule file: the core's, then each treaty's, each folder's files by name."""
    root = root or logic_dir()
    core = sorted((root / CORE).glob("*.lp"))
    return core + [f for t in treaty_folders(root) for f in sorted((root / t).glob("*.lp"))]


def _sources(root: Path) -> Iterator[tuple[Path, str]]:
    for path in rule_files(root):
        yield path, path.read_text(encoding="utf-8")


_HEAD_RE = re.compile(r"^([a-z_][A-Za-z0-9_]*)\(")


@lru_cache(maxsize=8)
def _fact_lines(root: Path) -> dict[str, list[tuple[str, int, str]]]:
    """The lines of the rule files that start with an atom, by its predicate: (file, line number, text).
    The rule files are read once per rule base and process."""
    index: dict[str, list[tuple[str, int, str]]] = {}
    for path, source in _sources(root):
        for n, line in enumerate(source.splitlines(), 1):
            m = _HEAD_RE.match(line)
            if m is not None:
                index.setdefault(m.group(1), []).append((path.name, n, line))
    return index


def ground_facts(name: str, arity: int, root: Path | None = None) -> tuple[clingo.Symbol, ...]:
    """The facts of ``name/arity`` written as ground facts at the start of a line of a rule file
    (``contracting_state("xx-yy", yy).``), in file order: the catalogue facts a layer below the engine
    needs, read without grounding the rule base. (A fact derived by a rule is not seen: catalogue
    predicates are written as facts.)"""
    return _ground_facts(name, arity, root or logic_dir())


@lru_cache(maxsize=256)
def _ground_facts(name: str, arity: int, root: Path) -> tuple[clingo.Symbol, ...]:
    out: list[clingo.Symbol] = []
    for file, n, line in _fact_lines(root).get(name, ()):
        for part in _statements(line):
            if not part.startswith(name + "(") or ":-" in part:
                continue
            try:
                sym = clingo.parse_term(part[:-1])
            except RuntimeError as err:
                raise LogicError(f"{file}:{n}: not a ground fact of {name}/{arity}: {err}") from None
            if sym.type == clingo.SymbolType.Function and sym.name == name and len(sym.arguments) == arity:
                out.append(sym)
    return tuple(out)


def _statements(line: str) -> list[str]:
    """The statements a line holds, each ending in its full stop (a line may hold several facts:
    ``article_title(...). article_title(...).``), up to a comment."""
    parts: list[str] = []
    depth, start, quoted, escaped = 0, 0, False, False
    for i, ch in enumerate(line):
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "." and depth == 0:
            parts.append(line[start:i + 1].strip())
            start = i + 1
        elif ch == "%" and depth == 0:
            break
    return parts


_DOC_RE = re.compile(r"^%doc (?P<key>[A-Za-z][A-Za-z0-9_]*(?:\.[a-z_][a-z0-9_]*)?):\s?(?P<text>.*)$")
_DOC_MORE_RE = re.compile(r"^%doc(?P<join>[+>])\s?(?P<text>.*)$")


def format_documentation(root: Path | None = None) -> dict[str, str]:
    """The documentation of the scenario format that names provisions, kept in the rule files beside
    the law it cites: ``%doc Model.field: text`` (or ``%doc Model: text`` for a model as a whole),
    continued by ``%doc+ text`` lines (joined to the one before by a space) or ``%doc> text`` lines (by a
    line break). Keys are the models' class names and fields as the JSON Schema names them."""
    return dict(_format_documentation(root or logic_dir()))


@lru_cache(maxsize=8)
def _format_documentation(root: Path) -> dict[str, str]:
    docs: dict[str, str] = {}
    for path, source in _sources(root):
        key: str | None = None
        for n, line in enumerate(source.splitlines(), 1):
            if (m := _DOC_RE.match(line)) is not None:
                key = m.group("key")
                if key in docs:
                    raise LogicError(f"{path.name}:{n}: the documentation of {key} is given twice")
                docs[key] = m.group("text").strip()
            elif (m := _DOC_MORE_RE.match(line)) is not None and key is not None:
                docs[key] += (" " if m.group("join") == "+" else "\n") + m.group("text").rstrip()
            else:
                key = None
    return docs
