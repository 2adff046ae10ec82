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
    beside it in a source checkout."""
    chosen = os.environ.get(ENVIRONMENT)
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


def ground_facts(name: str, arity: int, root: Path | None = None) -> tuple[clingo.Symbol, ...]:
    """The facts of ``name/arity`` written as ground facts at the start of a line of a rule file
    (``contracting_state("xx-yy", yy).``), in file order: the catalogue facts a layer below the engine
    needs, read without grounding the rule base. (A fact derived by a rule is not seen: catalogue
    predicates are written as facts.)"""
    return _ground_facts(name, arity, root or logic_dir())


@lru_cache(maxsize=256)
def _ground_facts(name: str, arity: int, root: Path) -> tuple[clingo.Symbol, ...]:
    pattern = re.compile(rf"^{re.escape(name)}\((?P<args>.*)\)\.\s*(?:%.*)?$")
    out: list[clingo.Symbol] = []
    for path, source in _sources(root):
        for n, line in enumerate(source.splitlines(), 1):
            for part in _facts_on_line(line, name):
                m = pattern.match(part)
                if m is None:
                    continue
                try:
                    sym = clingo.parse_term(f"{name}({m.group('args')})")
                except RuntimeError as err:
                    raise LogicError(f"{path.name}:{n}: not a ground fact of {name}/{arity}: {err}") from None
                if len(sym.arguments) == arity:
                    out.append(sym)
    return tuple(out)


def _facts_on_line(line: str, name: str) -> list[str]:
    """The statements of ``name`` on a line that starts with one (a line may hold several facts:
    ``article_title(...). article_title(...).``)."""
    if not line.startswith(name + "("):
        return []
    parts: list[str] = []
    depth, start, quoted, escaped = 0, 0, False, False
    for i, ch in enumerate(line):
        if quoted:
            quoted = not (ch == '"' and not escaped)
            escaped = ch == "\\" and not escaped
            continue
        if ch == '"':
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
    return [p for p in parts if p.startswith(name + "(")]


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
