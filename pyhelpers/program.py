"""The rule base: the ``logic/`` files, their rule annotations, quoted treaty text and the vocabulary.

Loaded once per process (:func:`load_logic`) and shared by every evaluation.

* ``%@ rule-id | provision [| flag ...]`` on the line just above a rule gives its stable id and the
  provision it implements: a fixed id (``br-pt 10(2)(a)``), ``{Var}`` (the provision carried by the
  rule's variable ``Var``) or ``(core)``. Flags: ``reconstructed``, ``requires_judgment``.
* ``%| provision: text`` quotes the official text of a paragraph.
* ``% Key: value`` lines in a file's opening banner: Treaty, Article, Title, Source.
* In ``core/vocabulary*.lp`` (the core vocabulary, by topic): ``%: name(Arg:type, ...) role`` with
  ``%  doc:``, ``%  en:``, ``%  pt:``. Each predicate is declared exactly once across them.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from clingo import ast

from .errors import LogicError

PROVISION_RE = re.compile(
    r"^(?P<treaty>br-[a-z]{2}) (?:(?P<protocol>Protocol )?(?P<article>\d+)(?P<levels>(?:\([0-9a-zA-Z.]+\))*)|Decree)$"
)
_ANNOTATION_RE = re.compile(r"^%@\s*(?P<id>[a-z0-9][a-z0-9/._-]*)\s*\|\s*(?P<prov>[^|]+?)\s*(?:\|\s*(?P<flags>.*))?$")
_TEXT_RE = re.compile(r"^%\|\s*(?P<prov>[^:]+?)(?P<qual>, [a-z]+)?:\s*(?P<text>.*)$")
_BANNER_RE = re.compile(r"^%\s*(?P<key>Treaty|Article|Title|Source|Partner|Decree):\s*(?P<value>.*)$")
_DECL_RE = re.compile(r"^%:\s*(?P<name>[a-z_][a-z0-9_]*)\((?P<args>[^)]*)\)\s*(?P<role>[a-z]+)\s*$")
_DECL_LINE_RE = re.compile(r"^%\s+(?P<key>doc|en|pt):\s*(?P<value>.*)$")
ROLES = ("input", "static", "derived", "conclusion", "finding")
ARG_TYPES = ("id", "state", "date", "bp", "prov", "months", "int", "term")


def logic_dir() -> Path:
    """Where the rule files are: inside the installed package, or beside it in a source checkout."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "logic", here.parent / "logic"):
        if (candidate / "core" / "vocabulary.lp").is_file():
            return candidate
    raise LogicError(f"the logic/ folder was not found beside {here}; reinstall treaty-logic")


def provision_key(prov: str) -> tuple[object, ...]:
    """Sort key that orders provisions as the treaty does: br-pt 4(1) < br-pt 4(2)(a) < br-pt 10(1)."""
    m = PROVISION_RE.match(prov)
    if not m:
        return (prov, 1, 0, ())
    if m.group("article") is None:
        return (m.group("treaty"), 2, 0, ())
    levels = tuple(
        (0, int(x), "") if x.isdigit() else (1, 0, x) for x in re.findall(r"\(([^)]*)\)", m.group("levels"))
    )
    return (m.group("treaty"), 1 if m.group("protocol") else 0, int(m.group("article")), levels)


@dataclass(frozen=True)
class Argument:
    name: str
    type: str


@dataclass(frozen=True)
class Predicate:
    """One vocabulary entry: a predicate with its arguments, role, documentation and readings."""

    name: str
    args: tuple[Argument, ...]
    role: str
    doc: str
    en: str
    pt: str

    @property
    def arity(self) -> int:
        return len(self.args)

    def reading(self, lang: str) -> str:
        return self.pt if lang == "pt" else self.en


@dataclass(frozen=True)
class RuleInfo:
    """A rule of ``logic/`` with its annotation."""

    index: int
    rule_id: str
    provision: str
    flags: frozenset[str]
    file: str
    line: int
    text: str

    @property
    def dynamic_provision(self) -> str | None:
        """The variable that carries the provision, for ``{Var}`` annotations."""
        m = re.fullmatch(r"\{([A-Z][A-Za-z0-9_]*)\}", self.provision)
        return m.group(1) if m else None


@dataclass
class LogicFile:
    path: Path
    relpath: str
    banner: dict[str, str]
    texts: list[tuple[str, str, int]]  # (provision, text, line)
    source: str


@dataclass(eq=False)
class Logic:
    """The whole rule base, parsed once."""

    root: Path
    files: list[LogicFile]
    rules: list[RuleInfo]
    vocabulary: dict[tuple[str, int], Predicate]
    program: str
    statements: list[ast.AST] = field(repr=False)
    statement_files: list[str] = field(repr=False)
    digest: str = ""
    _programs: dict[str, str] = field(default_factory=dict, repr=False)

    def program_for(self, treaty: str) -> str:
        """The fast-path program for one treaty: core plus that treaty's folder, comment lines dropped
        (they are a large share of the text and clingo would lex them on every evaluation)."""
        cached = self._programs.get(treaty)
        if cached is None:
            parts = [f.source for f in self.files if f.relpath.startswith(("logic/core/", f"logic/{treaty}/"))]
            lines = [line for part in parts for line in part.splitlines()]
            # articles of other treaties are left out: what the core reads from them may have no rule here
            defined = [f"#defined {p.name}/{p.arity}." for p in self.vocabulary.values()
                       if p.role not in ("input", "static")]
            body = [x for x in lines if x.strip() and not x.lstrip().startswith("%")]
            cached = self._programs[treaty] = "\n".join(defined + body)
        return cached

    def rule(self, rule_id: str) -> RuleInfo:
        for r in self.rules:
            if r.rule_id == rule_id:
                return r
        raise KeyError(rule_id)

    def predicate(self, name: str, arity: int) -> Predicate | None:
        return self.vocabulary.get((name, arity))


def _read_files(root: Path) -> list[LogicFile]:
    paths = sorted((root / "core").glob("*.lp"))
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and p.name != "core"):
        paths += sorted(folder.glob("*.lp"))
    files = []
    for path in paths:
        source = path.read_text(encoding="utf-8")
        banner: dict[str, str] = {}
        texts: list[tuple[str, str, int]] = []
        for no, line in enumerate(source.splitlines(), 1):
            b = _BANNER_RE.match(line)
            if b and b.group("key") not in banner:
                banner[b.group("key")] = b.group("value").strip()
            t = _TEXT_RE.match(line)
            if t:
                prov = t.group("prov").strip()
                label = prov + (t.group("qual") or "")
                texts.append((label, t.group("text").strip(), no))
        files.append(LogicFile(path, f"logic/{path.relative_to(root).as_posix()}", banner, texts, source))
    return files


def _parse_vocabulary(source: str, relpath: str) -> dict[tuple[str, int], Predicate]:
    vocab: dict[tuple[str, int], Predicate] = {}
    lines = source.splitlines()
    for i, line in enumerate(lines):
        m = _DECL_RE.match(line)
        if not m:
            continue
        args = []
        for raw in filter(None, (a.strip() for a in m.group("args").split(","))):
            name, _, typ = raw.partition(":")
            typ = typ or "id"
            if typ not in ARG_TYPES:
                raise LogicError(f"{relpath}:{i + 1}: unknown argument type {typ!r} (one of {ARG_TYPES})")
            args.append(Argument(name, typ))
        if m.group("role") not in ROLES:
            raise LogicError(f"{relpath}:{i + 1}: unknown role {m.group('role')!r} (one of {ROLES})")
        info: dict[str, str] = {}
        for follow in lines[i + 1 : i + 4]:
            d = _DECL_LINE_RE.match(follow)
            if d:
                info[d.group("key")] = d.group("value").strip()
        missing = {"doc", "en", "pt"} - set(info)
        if missing:
            raise LogicError(f"{relpath}:{i + 1}: declaration of {m.group('name')} lacks {sorted(missing)}")
        key = (m.group("name"), len(args))
        if key in vocab:
            raise LogicError(f"{relpath}:{i + 1}: {key[0]}/{key[1]} declared twice")
        vocab[key] = Predicate(m.group("name"), tuple(args), m.group("role"), info["doc"], info["en"], info["pt"])
    return vocab


def _annotations(source: str) -> dict[int, tuple[str, str, frozenset[str]]]:
    """Annotation by the line number of the rule it precedes."""
    out: dict[int, tuple[str, str, frozenset[str]]] = {}
    lines = source.splitlines()
    for no, line in enumerate(lines, 1):
        m = _ANNOTATION_RE.match(line.strip())
        if m:
            flags = frozenset(f.strip() for f in (m.group("flags") or "").split(",") if f.strip())
            out[no + 1] = (m.group("id"), m.group("prov"), flags)
    return out


def _is_fact(stm: ast.AST) -> bool:
    return stm.ast_type == ast.ASTType.Rule and not stm.body


@lru_cache(maxsize=4)
def load_logic(root: Path | None = None) -> Logic:
    """Parse every rule file once; check that each rule carries an annotation."""
    root = root or logic_dir()
    files = _read_files(root)
    vocab_files = [f for f in files if f.relpath.startswith("logic/core/vocabulary")]
    if not vocab_files:
        raise LogicError(f"{root}/core/vocabulary.lp is missing")
    vocabulary: dict[tuple[str, int], Predicate] = {}
    for vf in vocab_files:
        part = _parse_vocabulary(vf.source, vf.relpath)
        twice = sorted(f"{n}/{a}" for (n, a) in set(part) & set(vocabulary))
        if twice:
            raise LogicError(f"{vf.relpath}: {', '.join(twice)} already declared in another vocabulary file")
        vocabulary.update(part)
    statements: list[ast.AST] = []
    statement_files: list[str] = []
    rules: list[RuleInfo] = []
    seen_ids: dict[str, str] = {}
    errors: list[str] = []
    for lf in files:
        notes = _annotations(lf.source)
        file_statements: list[ast.AST] = []
        try:
            ast.parse_string(lf.source, file_statements.append)
        except RuntimeError as err:
            raise LogicError(f"{lf.relpath}: does not parse: {err}") from None
        for stm in file_statements:
            statements.append(stm)
            statement_files.append(lf.relpath)
            if stm.ast_type != ast.ASTType.Rule or _is_fact(stm):
                continue
            line = stm.location.begin.line
            note = notes.get(line)
            if note is None:
                errors.append(f"{lf.relpath}:{line}: rule without a '%@ rule-id | provision' line above it")
                continue
            rule_id, prov, flags = note
            if rule_id in seen_ids:
                errors.append(f"{lf.relpath}:{line}: rule id {rule_id} already used at {seen_ids[rule_id]}")
            seen_ids[rule_id] = f"{lf.relpath}:{line}"
            rules.append(RuleInfo(len(rules), rule_id, prov, flags, lf.relpath, line, str(stm)))
    if errors:
        raise LogicError("\n".join(errors))
    program = "\n".join(lf.source for lf in files)
    digest = hashlib.sha256(program.encode("utf-8")).hexdigest()
    return Logic(root, files, rules, vocabulary, program, statements, statement_files, digest)


def logic_file_hashes(logic: Logic) -> dict[str, str]:
    """SHA-256 of each rule file, for receipts."""
    return {lf.relpath: hashlib.sha256(lf.source.encode("utf-8")).hexdigest() for lf in logic.files}
