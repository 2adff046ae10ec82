"""The rule base: the ``logic/`` files, their rule annotations, quoted treaty text and the vocabulary.

Loaded once per process (:func:`load_logic`) and shared by every evaluation.

* ``%@ rule-id | provision [| flag ...]`` on the line just above a rule gives its stable id and the
  provision it implements: a fixed id (``<treaty> 10(2)(a)``), ``{Var}`` (the provision carried by the
  rule's variable ``Var``) or ``(core)``. Flags: ``reconstructed``, ``requires_judgment``,
  ``bookkeeping`` (arithmetic the provision needs that is no part of its argument, such as a sum made
  digit by digit, or whether some value exists where the argument shows the value itself: folded in the
  legal argument like a core rule, its facts and comparisons shown only by ``--full``).
* ``%| provision: text`` quotes the official text of a paragraph.
* ``% Key: value`` lines in a file's opening banner: Treaty, Article, Title, Source. An amended
  version of an article file adds ``Version: <label>``, ``Applies: from YYYY-MM-DD [until YYYY-MM-DD]``
  and ``Replaces: <file name>``: for items whose relevant date (:func:`relevant_date`) falls in that
  period it replaces the named file of its folder (see :meth:`Logic.versions_on`).
* In ``core/vocabulary*.lp`` (the core vocabulary, by topic: what the core rules or two or more
  treaties use) and ``<treaty>/vocabulary.lp`` (what only that treaty's rules use):
  ``%: name(Arg:type, ...) role`` with ``%  doc:``, ``%  en:``, ``%  pt:`` (Brazilian Portuguese) and,
  only where the European form differs, ``%  pt-PT:`` right after it. Each predicate is declared
  exactly once across them. ``%~ noun(Arg:type, ...)`` with ``%  en:``, ``%  pt:`` (and ``%  pt-PT:``)
  names what a reading calls an argument it leaves unbound ("some place of business"): the default for
  each listed argument name of that type; ``%  some: Arg=noun`` in a predicate's entry gives one of its
  arguments another noun (:meth:`Logic.noun`). An argument with neither is named by its type.
  ``%  argument: no`` marks a predicate the legal argument never shows, ``%  argument: always`` a fact of ids
  only it shows all the same (:attr:`Predicate.argument`).
  ``%  none-en:``, ``%  none-pt:`` (and ``%  none-pt-PT:``) read the fact that holds where no atom of the
  predicate matches a condition whose arguments the reading names are bound and whose others are not ("X has no
  place of business in that State"): why an exception did not apply, said in the positive; ``%  none-default:
  Arg=attribute`` names the attribute of ``Arg`` whose documented default that statement rests on where the
  scenario does not give it (shown as assumed; neither given nor defaulted, it is not made)
  (:meth:`Predicate.none_reading`).
  ``%  en(Arg=value):``, ``%  pt(Arg=value):`` (and ``%  pt-PT(Arg=value):``) read an atom whose argument ``Arg`` is
  the term ``value`` ("the principal class of shares of X is not regularly traded ..." for ``no``), in place of the
  reading that writes the value ("...: no"), which stays the reading of the fact left blank (a missing fact)
  (:meth:`Predicate.reading_of`).
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import re
import threading
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from clingo import ast

from pyhelpers.base import lang as languages
from pyhelpers.base.cache import read_json, write_json
from pyhelpers.base.errors import LogicError
from pyhelpers.base.rulebase import logic_dir, rule_files
from pyhelpers.engine.provenance import companion_program
from pyhelpers.engine.reach import AbstractFacts, Abstraction, Reach
from pyhelpers.engine.slicing import SLICE_FORMAT, Signature, Sliced, _pruned, rule_bodies
from pyhelpers.engine.statements import ANONYMOUS_PREFIX, STATEMENT_FORMAT, Statement

PROVISION_RE = re.compile(
    r"^(?P<treaty>[a-z][a-z0-9]*-[a-z][a-z0-9]*) "
    r"(?:(?P<protocol>Protocol )?(?P<article>\d+)(?P<levels>(?:\([0-9a-zA-Z.]+\))*)|Decree)$"
)
_ANNOTATION_RE = re.compile(r"^%@\s*(?P<id>[a-z0-9][a-z0-9/._-]*)\s*\|\s*(?P<prov>[^|]+?)\s*(?:\|\s*(?P<flags>.*))?$")
_TEXT_RE = re.compile(r"^%\|\s*(?P<prov>[^:]+?)(?P<qual>, [a-z]+)?:\s*(?P<text>.*)$")
_BANNER_RE = re.compile(
    r"^%\s*(?P<key>Treaty|Article|Title|Source|Partner|Decree|Version|Applies|Replaces):\s*(?P<value>.*)$")
_APPLIES_RE = re.compile(r"^from (?P<from>\d{4}-\d{2}-\d{2})(?: until (?P<until>\d{4}-\d{2}-\d{2}))?$")
_DECL_RE = re.compile(r"^%:\s*(?P<name>[a-z_][a-z0-9_]*)\((?P<args>[^)]*)\)\s*(?P<role>[a-z]+)\s*$")
_DECL_LINE_RE = re.compile(
    r"^%\s+(?P<key>doc|en|pt|pt-PT|some|argument|none-en|none-pt|none-pt-PT|none-default"
    r"|(?:en|pt|pt-PT)\([A-Z][A-Za-z0-9_]*=[a-z_][a-z0-9_]*\)):\s*(?P<value>.*)$")
_BY_VALUE_RE = re.compile(r"^(?P<lang>en|pt|pt-PT)\((?P<arg>[A-Z][A-Za-z0-9_]*)=(?P<value>[a-z_][a-z0-9_]*)\)$")
_NOUN_RE = re.compile(r"^%~\s*(?P<name>[a-z_][a-z0-9_]*)\((?P<args>[^)]*)\)\s*$")
_TERM_RE = re.compile(r"^%=\s*(?P<name>[a-z_][a-z0-9_]*)\((?P<args>[^)]*)\)\s*$")
_SOME_RE = re.compile(r"^(?P<arg>[A-Z][A-Za-z0-9_]*)=(?P<noun>[a-z_][a-z0-9_]*)$")
_VOCABULARY_RE = re.compile(r"^logic/(?:core/vocabulary[^/]*|[^/]+/vocabulary)\.lp$")
"""The vocabulary files: ``logic/core/vocabulary*.lp`` and ``logic/<treaty>/vocabulary.lp``."""
_ANONYMOUS_RE = re.compile(rf"\b{ANONYMOUS_PREFIX}\d+\b")
"""The names the fast path gives to anonymous variables (:func:`~pyhelpers.engine.statements.named_anonymous`):
the rule's own text has ``_`` there."""
ROLES = ("input", "static", "derived", "question", "conclusion", "finding")
ARG_TYPES = ("id", "state", "date", "ymd", "bp", "units", "cents", "currency", "prov", "months", "days", "int", "year",
             "term")


@lru_cache(maxsize=4096)
def provision_key(prov: str) -> tuple[object, ...]:
    """Sort key that orders provisions as the treaty does: ``xx-yy 4(1) < xx-yy 4(2)(a) < xx-yy 10(1)``.
    Memoised: the same few hundred provisions are sorted on every evaluation."""
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
    noun: str | None = None
    """The noun this predicate's entry gives the argument (``%  some: Arg=noun``), if any."""


@dataclass(frozen=True)
class Noun:
    """What a reading calls an argument it leaves unbound (why-not's partial readings): ``%~ noun(...)``
    with its words in each language, written with the determiner that agrees with the noun ("some place
    of business", "algum local de negócios", "alguma pessoa")."""

    name: str
    en: str
    pt: str
    pt_pt: str | None = None
    """The European Portuguese words (``%  pt-PT:``), where they differ."""
    defaults: tuple[tuple[str, str], ...] = ()
    """The arguments (name, type) it names wherever they are declared."""

    def words(self, lang: str) -> str:
        table = {"en": self.en, "pt": self.pt, **({"pt-PT": self.pt_pt} if self.pt_pt is not None else {})}
        return languages.pick(table, lang)


@dataclass(frozen=True)
class Predicate:
    """One vocabulary entry: a predicate with its arguments, role, documentation and readings."""

    name: str
    args: tuple[Argument, ...]
    role: str
    doc: str
    en: str
    pt: str
    """The Brazilian Portuguese reading (``%  pt:``)."""
    pt_pt: str | None = None
    """The European Portuguese reading (``%  pt-PT:``, right after ``pt:``), where it differs."""
    argument: str = "yes"
    """Whether the legal argument shows it: ``yes`` (the default: a fact of the scenario where it carries a value),
    ``no`` (``%  argument: no``: a fact or step that is no part of the law's reasoning, such as the type the
    scenario declares an item of, a date module's intermediate periods, the choice of the treaty or of the
    article an item is examined under, a default assumed) or ``always`` (a fact of ids only that decides a
    relation, such as who controls whom: shown though it carries no figure)."""

    none: tuple[str, str, str | None] | None = None
    """The readings (en, pt, pt-PT) of the fact that holds where no atom matches a condition on it
    (``%  none-en:`` ...), if any."""
    none_default: tuple[str, str] | None = None
    """The argument and the attribute of it whose documented default the ``none`` reading rests on (``%
    none-default: Arg=attribute``), if any."""
    by_value: tuple[tuple[str, str, str, str, str | None], ...] = ()
    """The readings of an atom whose argument has a given value (``%  en(Arg=value):`` ...): (argument, value, en,
    pt, pt-PT)."""

    @property
    def argued(self) -> bool:
        return self.argument != "no"

    def none_reading(self, lang: str) -> str | None:
        """The reading of the fact that holds where no atom of this predicate matches (``none``), in ``lang``."""
        if self.none is None:
            return None
        en, pt, pt_pt = self.none
        return languages.pick({"en": en, "pt": pt, **({"pt-PT": pt_pt} if pt_pt is not None else {})}, lang)

    @property
    def arity(self) -> int:
        return len(self.args)

    def reading(self, lang: str) -> str:
        table = {"en": self.en, "pt": self.pt, **({"pt-PT": self.pt_pt} if self.pt_pt is not None else {})}
        return languages.pick(table, lang)

    def reading_of(self, lang: str, values: Sequence[str]) -> str:
        """The reading of an atom whose arguments are written ``values`` (as terms: ``no``): the reading its entry
        gives for the value of one of them (``%  en(V=no):``), else :meth:`reading`."""
        for arg, value, en, pt, pt_pt in self.by_value:
            at = next((k for k, a in enumerate(self.args) if a.name == arg), None)
            if at is not None and at < len(values) and values[at] == value:
                table = {"en": en, "pt": pt, **({"pt-PT": pt_pt} if pt_pt is not None else {})}
                return languages.pick(table, lang)
        return self.reading(lang)


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
    parsed: list[ast.AST] | None = field(repr=False)
    """The statements, once parsed (:attr:`statements`); None until then."""
    statement_files: list[str] = field(repr=False)
    digest: str = ""
    nouns: dict[str, Noun] = field(default_factory=dict)
    """The nouns of unbound arguments (``%~``), by name."""
    terms: dict[tuple[str, int], Predicate] = field(default_factory=dict)
    """The readings of the terms the rules write as a value (``%=``: an indicator's kind, a note), by name and
    arity; their role is ``term``."""
    _programs: dict[tuple[str, frozenset[str] | None, tuple[str, ...], bool], str] = field(default_factory=dict,
                                                                                           repr=False)
    _sliced: dict[tuple[str, AbstractFacts, tuple[str, ...]], Sliced] = field(default_factory=dict, repr=False)
    _parsed: dict[tuple[str, frozenset[str] | None, tuple[str, ...], bool], Sliced] = field(default_factory=dict,
                                                                                            repr=False)

    @property
    def statements(self) -> list[ast.AST]:
        """Every statement of the rule files, as clingo's AST (parsed on first use: the fast path reads
        the statements' texts from the disk cache and never needs them)."""
        if self.parsed is None:
            with _PARSE_LOCK:
                if self.parsed is None:
                    out: list[ast.AST] = []
                    for lf in self.files:
                        ast.parse_string(lf.source, out.append)
                    if len(out) != len(self.statement_files):
                        raise LogicError("the rule files changed while the program ran")
                    self.parsed = out
        return self.parsed

    @cached_property
    def cache_key(self) -> str:
        """What the disk cache entries derived from this rule base are keyed by: its text and file names."""
        names = "\n".join(lf.relpath for lf in self.files)
        return hashlib.sha256(f"{self.digest}\n{names}".encode()).hexdigest()[:24]

    @cached_property
    def amendments(self) -> dict[str, Amendment]:
        """Amended versions of article files, by their path: what they replace and when."""
        return _amendments(self.files)

    def versions_on(self, treaty: str, day: date | None) -> tuple[str, ...]:
        """The amended files of ``treaty`` in force on ``day`` (none when ``day`` is None): the version
        of the rule base an item of that date is decided by."""
        if day is None:
            return ()
        prefix = f"logic/{treaty}/"
        return tuple(sorted(a.relpath for a in self.amendments.values()
                            if a.relpath.startswith(prefix) and a.start <= day <= a.end))

    def _in_force(self, relpath: str, versions: tuple[str, ...]) -> bool:
        if relpath in self.amendments:
            return relpath in versions
        return not any(self.amendments[v].replaces == relpath for v in versions)

    def program_for(self, treaty: str, present: frozenset[str] | None = None,
                    versions: tuple[str, ...] = (), provenance: bool = True) -> str:
        """The fast-path program for one treaty: core plus that treaty's folder, without comments.

        With ``present`` (the names of the input predicates the scenario has facts for), rules that can
        never fire are left out: a rule fires only if every predicate of its positive body can be true,
        and a predicate can be true only if it has facts or a rule that can fire (a least fixpoint over
        predicates). The answer set is unchanged; clingo's fixed cost per rule is not paid for the
        articles a scenario does not reach. (A test compares with the full rule base on every scenario.)
        With ``provenance`` the program also says which shown atoms rest on a reconstructed provision
        (:meth:`provenance`).
        """
        key = (treaty, present, versions, provenance)
        cached = self._programs.get(key)
        if cached is None:
            shape = json.dumps([treaty, None if present is None else sorted(present), versions, provenance])
            cached = self._programs[key] = self._cached_text("program", shape,
                                                             lambda: self._program_text(*key))
        return cached

    def _program_text(self, treaty: str, present: frozenset[str] | None, versions: tuple[str, ...],
                      provenance: bool) -> str:
        kept = self.reachable(treaty, present, versions)
        chosen = [s for i, s in enumerate(self._sliceable) if i in kept]
        extra = self.provenance(chosen) if provenance else []
        return "\n".join(self.defined_directives() + [s.text for s in chosen if s.text] + extra)

    def _cached_text(self, kind: str, shape: str, compute: Callable[[], str]) -> str:
        """A program text of this rule base derived from ``shape``, from the disk cache when it was
        computed before (by ``compute``; a command run once, or each batch worker, then neither needs the
        statements nor pays for the analysis)."""
        digest = hashlib.sha256(shape.encode()).hexdigest()[:24]
        name = f"{kind}-{STATEMENT_FORMAT}.{SLICE_FORMAT}-{self.cache_key}-{digest}.json"
        cached = read_json(name)
        if isinstance(cached, dict) and cached.get("shape") == shape and isinstance(cached.get("text"), str):
            try:
                return zlib.decompress(base64.b64decode(cached["text"])).decode("utf-8")
            except (ValueError, zlib.error):
                pass
        text = compute()
        packed = base64.b64encode(zlib.compress(text.encode("utf-8"))).decode("ascii")
        write_json(name, {"shape": shape, "text": packed})
        return text

    def parsed_program_for(self, treaty: str, present: frozenset[str] | None = None,
                           versions: tuple[str, ...] = (), provenance: bool = True) -> Sliced:
        """:meth:`program_for` kept parsed (:class:`Sliced`: its text is parsed into clingo's AST once,
        on its second use, and the statements are then added to each Control without parsing the text)."""
        key = (treaty, present, versions, provenance)
        cached = self._parsed.get(key)
        if cached is None:
            if len(self._parsed) >= 256:
                self._parsed.pop(next(iter(self._parsed)))
            cached = self._parsed[key] = Sliced(self.program_for(treaty, present, versions, provenance))
        return cached

    def provenance(self, statements: Sequence[Statement]) -> list[str]:
        """The rules generated beside the program ``statements`` (statements of this rule base) that
        derive ``_relies(Atom, Provision)`` for each shown atom resting on a reconstructed provision
        (:mod:`pyhelpers.engine.provenance`); none when no rule of the program is flagged."""
        annotated = self._annotated
        rules = [(info.text, info.provision, info.flags) for s in statements if (info := annotated.get(id(s)))]
        return companion_program(rules, [s.text for s in statements if s.text.startswith("#show")])

    @cached_property
    def _annotated(self) -> dict[int, RuleInfo]:
        """The annotation of each rule statement (of :attr:`_sliceable`), by the statement's identity."""
        rules = [s for s in self._sliceable if s.text and not s.is_fact and not s.text.startswith("#")]
        if len(rules) != len(self.rules) or any(_ANONYMOUS_RE.sub("_", s.text) != r.text
                                                for s, r in zip(rules, self.rules, strict=True)):
            raise LogicError("the rule annotations do not match the statements")
        return {id(s): r for s, r in zip(rules, self.rules, strict=True)}

    def program_for_facts(self, treaty: str, facts: Iterable[str], versions: tuple[str, ...] = ()) -> Sliced:
        """:meth:`program_for` sliced by the scenario's facts themselves rather than by their predicates
        (:mod:`pyhelpers.reach`: a rule whose positive body needs ``income(S, I, interest)`` is left out
        of a scenario whose only item is a dividend), with ``#defined`` only for the predicates the
        slice names. The answer set is unchanged; scenarios of the same shape (the same constants where
        the rules compare them) share one program, kept parsed once it is used again (:class:`Sliced`)."""
        key = (treaty, self.abstraction.abstract_facts(facts), versions)
        cached = self._sliced.get(key)
        if cached is None:
            cached = Sliced(self._slice_text(*key), self._rule_bodies)
            if len(self._sliced) >= 256:
                self._sliced.pop(next(iter(self._sliced)))
            self._sliced[key] = cached
        return cached

    def _slice_text(self, treaty: str, facts: AbstractFacts, versions: tuple[str, ...]) -> str:
        """The text of :meth:`program_for_facts`, from the disk cache when this shape was seen before
        (a command run once then needs neither the statements nor the analysis)."""
        shape = json.dumps([treaty, sorted(json.dumps([n, a, args]) for (n, a), args in facts), versions])

        def compute() -> str:
            kept = [self._sliceable[i] for i in sorted(self.reach.reachable(self.chosen(treaty, versions), facts))]
            return "\n".join(_pruned(kept, self.defined_directives(), self.provenance))

        return self._cached_text("slice", shape, compute)

    @cached_property
    def abstraction(self) -> Abstraction:
        """How scenario facts are abstracted for :meth:`program_for_facts` (kept in the disk cache)."""
        name = f"constants-{STATEMENT_FORMAT}-{self.cache_key}.json"
        cached = Abstraction.from_json(read_json(name))
        if cached is not None:
            return cached
        out = Abstraction.of(self._sliceable)
        write_json(name, out.to_json())
        return out

    @cached_property
    def _rule_bodies(self) -> dict[str, tuple[Signature, ...] | None]:
        """The positive body predicates of each rule (None for facts and directives), by its fast-path text
        (:func:`rule_bodies`)."""
        return rule_bodies(self._sliceable)

    @cached_property
    def reach(self) -> Reach:
        """The constant-aware reachability analysis (:mod:`pyhelpers.reach`) over the statements."""
        return Reach(self._sliceable)

    def chosen(self, treaty: str | None, versions: tuple[str, ...] = ()) -> list[int]:
        """Indices of core's and ``treaty``'s statements (all if None) in the version ``versions``."""
        prefixes = ("logic/core/", f"logic/{treaty}/") if treaty is not None else ("logic/",)
        return [i for i, s in enumerate(self._sliceable)
                if s.relpath.startswith(prefixes) and self._in_force(s.relpath, versions)]

    def defined_directives(self) -> list[str]:
        """``#defined`` for every derived predicate: what the core reads from articles left out of a
        program (another treaty's, or unreachable ones) then has no rule, and that is not a warning."""
        return [f"#defined {p.name}/{p.arity}." for p in self.vocabulary.values() if p.role not in ("input", "static")]

    def reachable(self, treaty: str | None, present: frozenset[str] | None,
                  versions: tuple[str, ...] = ()) -> frozenset[int]:
        """Indices of the statements to keep: core and ``treaty``'s files (all if None) in the version
        ``versions`` (:meth:`versions_on`; the original files when empty), and of their rules only those
        that can fire given the input predicates ``present`` (all if None)."""
        chosen = self.chosen(treaty, versions)
        if present is None:
            return frozenset(chosen)
        possible = self.possible_predicates(chosen, present)
        return frozenset(i for i in chosen if all(p in possible for p in self._sliceable[i].positive))

    def possible_predicates(self, chosen: list[int], present: frozenset[str]) -> set[tuple[str, int]]:
        """The predicates that can be true: facts of the chosen statements, the input predicates
        ``present``, and the heads of rules whose positive body is all possible (a least fixpoint)."""
        stmts = self._sliceable
        possible = {h for i in chosen if stmts[i].is_fact and (h := stmts[i].head) is not None}
        possible |= {(p.name, p.arity) for p in self.vocabulary.values() if p.role == "input" and p.name in present}
        changed = True
        while changed:
            changed = False
            for i in chosen:
                s = stmts[i]
                if s.head is not None and s.head not in possible and all(p in possible for p in s.positive):
                    possible.add(s.head)
                    changed = True
        return possible

    def static_program(self) -> str:
        """Only the facts of the rule base: the catalogues and numbers, without any rule."""
        return "\n".join(s.text for s in self._sliceable if s.text and (s.is_fact or s.head is None))

    @cached_property
    def _sliceable(self) -> list[Statement]:
        """Every statement's text, head and positive body; read from the disk cache when this rule base
        was seen before (walking clingo's AST costs a few hundred ms, a noticeable share of a cold start)."""
        name = f"fastpath-{STATEMENT_FORMAT}-{self.cache_key}.json"
        cached = read_json(name)
        if isinstance(cached, list) and len(cached) == len(self.statement_files):
            return [Statement(r, t, tuple(h) if h else None, tuple(tuple(p) for p in pos), f,
                               None if ha is None else tuple(ha), None if ba is None else tuple(map(tuple, ba)))
                    for r, t, h, pos, f, ha, ba in cached]
        out = [Statement.of(stm, relpath) for stm, relpath in zip(self.statements, self.statement_files, strict=True)]
        write_json(name, [[s.relpath, s.text, s.head, s.positive, s.is_fact, s.head_args, s.body_args] for s in out])
        return out

    def rule(self, rule_id: str) -> RuleInfo:
        for r in self.rules:
            if r.rule_id == rule_id:
                return r
        raise KeyError(rule_id)

    def predicate(self, name: str, arity: int) -> Predicate | None:
        return self.vocabulary.get((name, arity))

    @cached_property
    def _noun_defaults(self) -> dict[tuple[str, str], Noun]:
        return {arg: noun for noun in self.nouns.values() for arg in noun.defaults}

    def noun(self, arg: Argument) -> Noun | None:
        """What a reading calls ``arg`` when it is unbound: the noun its predicate's entry gives it, else
        the noun declared for its name and type; None when there is neither (it is then named by its
        type)."""
        if arg.noun is not None:
            return self.nouns[arg.noun]
        return self._noun_defaults.get((arg.name, arg.type))


@dataclass(frozen=True)
class Amendment:
    """An amended version of an article file (banner ``Version``, ``Applies``, ``Replaces``)."""

    relpath: str
    label: str
    replaces: str
    start: date
    end: date


def _amendments(files: list[LogicFile]) -> dict[str, Amendment]:
    out: dict[str, Amendment] = {}
    paths = {lf.relpath for lf in files}
    for lf in files:
        if "Version" not in lf.banner:
            continue
        where = f"{lf.relpath}: the banner of an amended version"
        m = _APPLIES_RE.match(lf.banner.get("Applies", ""))
        if m is None:
            raise LogicError(f"{where} needs 'Applies: from YYYY-MM-DD [until YYYY-MM-DD]', found "
                             f"{lf.banner.get('Applies', 'nothing')!r}")
        replaces = f"{lf.relpath.rsplit('/', 1)[0]}/{lf.banner.get('Replaces', '')}"
        if replaces not in paths or replaces == lf.relpath:
            raise LogicError(f"{where} needs 'Replaces: <a file of its folder>', found "
                             f"{lf.banner.get('Replaces', 'nothing')!r}")
        end = date.fromisoformat(m.group("until")) if m.group("until") else date.max
        out[lf.relpath] = Amendment(lf.relpath, lf.banner["Version"], replaces, date.fromisoformat(m.group("from")),
                                    end)
    return out


def relevant_date(item_date: date, withheld_at_source: object, fiscal_year_start: date) -> date:
    """The date that picks the version of the rules for an item: its payment date for a tax withheld at
    source (or when the tax is not named), the first day of its fiscal year for other taxes."""
    return fiscal_year_start if withheld_at_source is False else item_date


def _scan_file(root: Path, path: Path, source: str) -> LogicFile:
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
    return LogicFile(path, f"logic/{path.relative_to(root).as_posix()}", banner, texts, source)


def _read_files(root: Path) -> list[LogicFile]:
    return [_scan_file(root, path, path.read_text(encoding="utf-8")) for path in rule_files(root)]


def _block(lines: list[str], i: int) -> dict[str, str]:
    """The ``%  key: value`` lines right after line ``i`` (a ``%:`` or ``%~`` declaration)."""
    info: dict[str, str] = {}
    for follow in lines[i + 1:]:
        d = _DECL_LINE_RE.match(follow)
        if d is None:
            break
        info[d.group("key")] = d.group("value").strip()
    return info


def _declared_args(raw_args: str, where: str, variables: bool = False) -> list[Argument]:
    """The ``Name:type`` arguments of a declaration (``variables``: each name must be a variable's)."""
    args = []
    for raw in filter(None, (a.strip() for a in raw_args.split(","))):
        name, _, typ = raw.partition(":")
        typ = typ or "id"
        if typ not in ARG_TYPES:
            raise LogicError(f"{where}: unknown argument type {typ!r} (one of {ARG_TYPES})")
        if variables and not re.fullmatch(r"[A-Z][A-Za-z0-9_]*", name):
            raise LogicError(f"{where}: {name!r} is not an argument's name")
        args.append(Argument(name, typ))
    return args


def _parse_vocabulary(source: str, relpath: str) -> dict[tuple[str, int], Predicate]:
    return _parse_declarations(source, relpath)[0]


def _parse_terms(source: str, relpath: str) -> dict[tuple[str, int], Predicate]:
    """The terms (``%= name(Arg:type, ...)`` with ``doc``, ``en``, ``pt`` and an optional ``pt-PT``) a
    vocabulary file declares: a compound term the rules write as a value, read in words with its arguments
    (``acquired_shortly_before(P, N:int)``: "P acquired its holding in the payer N days before ...")."""
    terms: dict[tuple[str, int], Predicate] = {}
    lines = source.splitlines()
    for i, line in enumerate(lines):
        m = _TERM_RE.match(line)
        if m is None:
            continue
        where = f"{relpath}:{i + 1}"
        args = _declared_args(m.group("args"), where, variables=True)
        info = _block(lines, i)
        missing = {"doc", "en", "pt"} - set(info)
        if missing:
            raise LogicError(f"{where}: the term {m.group('name')} lacks {sorted(missing)}")
        key = (m.group("name"), len(args))
        if key in terms:
            raise LogicError(f"{where}: the term {key[0]}/{key[1]} declared twice")
        terms[key] = Predicate(m.group("name"), tuple(args), "term", info["doc"], info["en"], info["pt"],
                               info.get("pt-PT"))
    return terms


def _parse_declarations(source: str, relpath: str) -> tuple[dict[tuple[str, int], Predicate], dict[str, Noun]]:
    """The predicates (``%:``) and the nouns (``%~``) a vocabulary file declares."""
    vocab: dict[tuple[str, int], Predicate] = {}
    nouns: dict[str, Noun] = {}
    lines = source.splitlines()
    for i, line in enumerate(lines):
        where = f"{relpath}:{i + 1}"
        n = _NOUN_RE.match(line)
        if n is not None:
            info = _block(lines, i)
            missing = {"en", "pt"} - set(info)
            if missing:
                raise LogicError(f"{where}: the noun {n.group('name')} lacks {sorted(missing)}")
            if n.group("name") in nouns:
                raise LogicError(f"{where}: the noun {n.group('name')} declared twice")
            defaults = tuple((a.name, a.type) for a in _declared_args(n.group("args"), where, variables=True))
            nouns[n.group("name")] = Noun(n.group("name"), info["en"], info["pt"], info.get("pt-PT"), defaults)
            continue
        m = _DECL_RE.match(line)
        if not m:
            continue
        args = _declared_args(m.group("args"), where)
        if m.group("role") not in ROLES:
            raise LogicError(f"{where}: unknown role {m.group('role')!r} (one of {ROLES})")
        info = _block(lines, i)
        missing = {"doc", "en", "pt"} - set(info)
        if missing:
            raise LogicError(f"{where}: declaration of {m.group('name')} lacks {sorted(missing)}")
        for given in filter(None, (x.strip() for x in info.get("some", "").split(","))):
            s = _SOME_RE.match(given)
            at = next((k for k, a in enumerate(args) if s is not None and a.name == s.group("arg")), None)
            if s is None or at is None:
                raise LogicError(f"{where}: 'some: {given}' does not name an argument of {m.group('name')} "
                                 f"(write Arg=noun)")
            args[at] = dataclasses.replace(args[at], noun=s.group("noun"))
        key = (m.group("name"), len(args))
        if key in vocab:
            raise LogicError(f"{where}: {key[0]}/{key[1]} declared twice")
        if info.get("argument", "yes") not in ("yes", "no", "always"):
            raise LogicError(f"{where}: 'argument: {info['argument']}' (write yes, no or always)")
        none = None
        if "none-en" in info or "none-pt" in info:
            if not {"none-en", "none-pt"} <= set(info):
                raise LogicError(f"{where}: {m.group('name')} has a none reading without both none-en and none-pt")
            none = (info["none-en"], info["none-pt"], info.get("none-pt-PT"))
        none_default = None
        if "none-default" in info:
            d = _SOME_RE.match(info["none-default"])
            if d is None or none is None or not any(a.name == d.group("arg") for a in args):
                raise LogicError(f"{where}: 'none-default: {info['none-default']}' (write Arg=attribute, with a "
                                 f"none reading)")
            none_default = (d.group("arg"), d.group("noun"))
        by_value: dict[tuple[str, str], dict[str, str]] = {}
        for k, v in info.items():
            b = _BY_VALUE_RE.match(k)
            if b is not None:
                if not any(a.name == b.group("arg") for a in args):
                    raise LogicError(f"{where}: '{k}' does not name an argument of {m.group('name')}")
                by_value.setdefault((b.group("arg"), b.group("value")), {})[b.group("lang")] = v
        for (arg, value), texts in by_value.items():
            if not {"en", "pt"} <= set(texts):
                raise LogicError(f"{where}: {m.group('name')} reads {arg}={value} without both en and pt")
        vocab[key] = Predicate(m.group("name"), tuple(args), m.group("role"), info["doc"], info["en"], info["pt"],
                                info.get("pt-PT"), argument=info.get("argument", "yes"), none=none,
                                none_default=none_default,
                                by_value=tuple((a, v, t["en"], t["pt"], t.get("pt-PT"))
                                               for (a, v), t in by_value.items()))
    return vocab, nouns


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


_LOGIC_FORMAT = 8
"""Version of the cached form of a loaded rule base (:func:`load_logic`): bump it when it changes."""
_PARSE_LOCK = threading.Lock()


@lru_cache(maxsize=4)
def load_logic(root: Path | None = None) -> Logic:
    """Parse every rule file once; check that each rule carries an annotation.

    What this derives from the files (their banners and quotes, the vocabulary, the rules with their
    annotations) is kept in the disk cache, keyed by the files' text and names; a rule base seen before
    is then only read and hashed, and its statements are parsed when first needed (:attr:`Logic.statements`).
    One rule base per folder and process: ``load_logic()`` (the checker's) and ``load_logic(logic_dir())`` (the
    readings') are the same object, not two copies read one after the other (:func:`_load_logic`)."""
    return _load_logic(Path(root) if root else logic_dir())


@lru_cache(maxsize=4)
def _load_logic(root: Path) -> Logic:
    """:func:`load_logic` of the folder ``root``, once per folder (whichever way it was named)."""
    paths = rule_files(root)
    sources = [path.read_text(encoding="utf-8") for path in paths]
    program = "\n".join(sources)
    digest = hashlib.sha256(program.encode("utf-8")).hexdigest()
    names = "\n".join(f"logic/{path.relative_to(root).as_posix()}" for path in paths)
    key = hashlib.sha256(f"{digest}\n{names}".encode()).hexdigest()[:24]
    entry = f"logic-{_LOGIC_FORMAT}-{key}.json"
    cached = _from_cache(read_json(entry), root, paths, sources, program, digest)
    if cached is not None:
        return cached
    logic = _parse_logic(root, [_scan_file(root, p, s) for p, s in zip(paths, sources, strict=True)], program,
                         digest)
    write_json(entry, _to_cache(logic))
    return logic


def _to_cache(logic: Logic) -> dict[str, Any]:
    return {
        "files": [[lf.relpath, lf.banner, lf.texts] for lf in logic.files],
        "vocabulary": [[p.name, [[a.name, a.type, a.noun] for a in p.args], p.role, p.doc, p.en, p.pt, p.pt_pt,
                        p.argument, list(p.none) if p.none else None, list(p.none_default) if p.none_default else None,
                        [list(b) for b in p.by_value]]
                       for p in logic.vocabulary.values()],
        "nouns": [[n.name, n.en, n.pt, n.pt_pt, [list(d) for d in n.defaults]] for n in logic.nouns.values()],
        "terms": [[p.name, [[a.name, a.type] for a in p.args], p.doc, p.en, p.pt, p.pt_pt]
                  for p in logic.terms.values()],
        "rules": [[r.rule_id, r.provision, sorted(r.flags), r.file, r.line, r.text] for r in logic.rules],
        "statement_files": logic.statement_files,
    }


def _from_cache(data: Any, root: Path, paths: list[Path], sources: list[str], program: str,
                digest: str) -> Logic | None:
    """The rule base from a cache entry (None when there is none, or it does not fit the files)."""
    try:
        if not isinstance(data, dict) or len(data["files"]) != len(paths):
            return None
        files = [LogicFile(path, relpath, dict(banner), [(t[0], t[1], t[2]) for t in texts], source)
                 for path, source, (relpath, banner, texts) in zip(paths, sources, data["files"], strict=True)]
        if any(lf.relpath != f"logic/{lf.path.relative_to(root).as_posix()}" for lf in files):
            return None
        vocabulary = {(name, len(args)): Predicate(name, tuple(Argument(a, t, n) for a, t, n in args), role, doc,
                                                 en, pt, pt_pt, argument, (none[0], none[1], none[2]) if none else None,
                                                 (dflt[0], dflt[1]) if dflt else None,
                                                 tuple((b[0], b[1], b[2], b[3], b[4]) for b in by_value))
                      for name, args, role, doc, en, pt, pt_pt, argument, none, dflt, by_value in data["vocabulary"]}
        nouns = {name: Noun(name, en, pt, pt_pt, tuple((a, t) for a, t in defaults))
                 for name, en, pt, pt_pt, defaults in data["nouns"]}
        terms = {(name, len(args)): Predicate(name, tuple(Argument(a, t) for a, t in args), "term", doc, en, pt,
                                              pt_pt)
                 for name, args, doc, en, pt, pt_pt in data["terms"]}
        rules = [RuleInfo(k, rule_id, prov, frozenset(flags), file, line, text)
                 for k, (rule_id, prov, flags, file, line, text) in enumerate(data["rules"])]
        statement_files = [str(f) for f in data["statement_files"]]
    except (KeyError, TypeError, ValueError):
        return None
    return Logic(root, files, rules, vocabulary, program, None, statement_files, digest, nouns, terms)


def _parse_logic(root: Path, files: list[LogicFile], program: str, digest: str) -> Logic:
    vocab_files = [f for f in files if _VOCABULARY_RE.match(f.relpath)]
    if not any(f.relpath.startswith("logic/core/") for f in vocab_files):
        raise LogicError(f"{root}/core/vocabulary.lp is missing")
    vocabulary: dict[tuple[str, int], Predicate] = {}
    declared_in: dict[tuple[str, int], str] = {}
    nouns: dict[str, Noun] = {}
    terms: dict[tuple[str, int], Predicate] = {}
    for vf in vocab_files:
        part, named = _parse_declarations(vf.source, vf.relpath)
        read = _parse_terms(vf.source, vf.relpath)
        twice = sorted(f"{n}/{a} already declared in {declared_in[(n, a)]}" for (n, a) in set(part) & set(vocabulary))
        twice += sorted(f"the noun {n} already declared" for n in set(named) & set(nouns))
        twice += sorted(f"the term {n}/{a} already declared" for (n, a) in set(read) & set(terms))
        if twice:
            raise LogicError(f"{vf.relpath}: {'; '.join(twice)}")
        vocabulary.update(part)
        nouns.update(named)
        terms.update(read)
        declared_in.update(dict.fromkeys(part, vf.relpath))
    _check_nouns(vocabulary, nouns)
    statements: list[ast.AST] = []
    statement_files: list[str] = []
    rules: list[RuleInfo] = []
    seen_ids: dict[str, str] = {}
    by_path = {lf.relpath: lf for lf in files}
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
            if rule_id in seen_ids and not _alternatives(by_path[seen_ids[rule_id].split(":")[0]], lf):
                errors.append(f"{lf.relpath}:{line}: rule id {rule_id} already used at {seen_ids[rule_id]}")
            seen_ids[rule_id] = f"{lf.relpath}:{line}"
            rules.append(RuleInfo(len(rules), rule_id, prov, flags, lf.relpath, line, str(stm)))
    if errors:
        raise LogicError("\n".join(errors))
    return Logic(root, files, rules, vocabulary, program, statements, statement_files, digest, nouns, terms)


def _check_nouns(vocabulary: dict[tuple[str, int], Predicate], nouns: dict[str, Noun]) -> None:
    """No argument has two nouns by default, and each ``some:`` names a declared noun."""
    errors: list[str] = []
    seen: dict[tuple[str, str], str] = {}
    for noun in nouns.values():
        for arg in noun.defaults:
            if arg in seen:
                errors.append(f"{arg[0]}:{arg[1]} has two nouns ({seen[arg]}, {noun.name})")
            seen[arg] = noun.name
    errors += sorted(f"{p.name}/{p.arity}: 'some: {a.name}={a.noun}' names no declared noun ('%~ {a.noun}(...)')"
                     for p in vocabulary.values() for a in p.args if a.noun is not None and a.noun not in nouns)
    if errors:
        raise LogicError("the vocabulary's nouns: " + "; ".join(errors))


def _alternatives(a: LogicFile, b: LogicFile) -> bool:
    """Whether one file is an amended version of the other (they never apply together, so a rule may
    keep its id in both)."""
    def replaces(v: LogicFile, base: LogicFile) -> bool:
        return "Version" in v.banner and base.relpath == f"{v.relpath.rsplit('/', 1)[0]}/{v.banner.get('Replaces')}"

    return replaces(a, b) or replaces(b, a)


def logic_file_hashes(logic: Logic) -> dict[str, str]:
    """SHA-256 of each rule file, for receipts."""
    return {lf.relpath: hashlib.sha256(lf.source.encode("utf-8")).hexdigest() for lf in logic.files}
