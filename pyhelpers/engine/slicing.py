"""Slices of the rule base for the fast path: the text of a slice (the rules that can change a shown
atom, with only the facts and directives they read), and a parsed slice that learns which of its rules
come close to firing and grounds those alone where the grounding proves the others cannot fire."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import clingo
from clingo import ast

from pyhelpers.engine.statements import Statement

SLICE_FORMAT = 13
"""Version of the cached slices (:meth:`Logic.program_for_facts`): bump it when the analysis of
:mod:`pyhelpers.reach` or the text of a slice changes."""

_NAME_RE = re.compile(r"([a-z_][A-Za-z0-9_']*)(?:\(|/\d)")
"""Names of predicates and functions in program text (``p(`` in rules, ``p/2`` in ``#show``)."""
_SHOW_RE = re.compile(r"#show\s+([a-z_][A-Za-z0-9_']*)/(\d+)\s*\.")
_SHOW_NOTHING = "#show."
_DEFINED_RE = re.compile(r"#defined\s+([a-z_][A-Za-z0-9_']*)/(\d+)\s*\.")


_STRING_RE = re.compile(r'"(?:[^"\\]|\\.)*"')
_IDENTIFIER_RE = re.compile(r"\b[a-z_][A-Za-z0-9_']*")


def _live(kept: Sequence[Statement]) -> list[Statement]:
    """``kept`` without the rules that cannot change a shown atom (a cone of influence): a predicate is
    *live* when it is shown (``#show p/n``) or named in the body of a rule whose head is live (or that
    has no single head atom: kept always); a rule whose head predicate is not live is left out. Its
    consumers were sliced away (the rules of another article), so what it derives reaches no
    conclusion or finding. Body names are every identifier outside strings (predicates, and also
    constants and function names: an over-approximation, never an omission)."""
    rules = [(s, s.head[0] if s.head is not None else None,
              set(_IDENTIFIER_RE.findall(_STRING_RE.sub("", s.text.partition(":-")[2]))))
             for s in kept if s.text and not s.is_fact and not s.text.startswith("#")]
    live = {m.group(1) for s in kept if (m := _SHOW_RE.fullmatch(s.text.strip())) is not None}
    changed = True
    while changed:
        changed = False
        for _, head, body in rules:
            if (head is None or head in live) and not body <= live:
                live |= body
                changed = True
    dead = {id(s) for s, head, _ in rules if head is not None and head not in live}
    return [s for s in kept if id(s) not in dead]


def _pruned(kept: Sequence[Statement], defined: Iterable[str],
            generated: Callable[[Sequence[Statement]], list[str]] | None = None) -> list[str]:
    """The text of a slice from its statements ``kept``: the rules that can change a shown atom
    (:func:`_live`); the ``#show`` directives of what they or the facts derive; of the rule base's
    facts (the catalogues: article titles, cited numbers ...) only those of a predicate the rules
    read; ``#defined`` (``defined``, and the vocabulary's own) only for a predicate the rules read
    (also one the slice derives: clingo warns about a literal that no head of the slice can match);
    no ``#program base.`` (each file's, the part every statement is in anyway). What is left out
    changes no shown atom: a fact no rule reads is not shown (``#show`` names only conclusions and
    findings), ``#defined`` only silences a warning, and a ``#show`` of a predicate nothing derives
    only makes clingo say so. ``generated`` adds rules generated from the statements left (the
    provenance of reconstructed provisions, :mod:`pyhelpers.engine.provenance`)."""
    kept = _live(kept)
    rules = [s for s in kept if s.text and not s.is_fact and not s.text.startswith("#")]
    read = set(_NAME_RE.findall("\n".join(s.text for s in rules)))
    facts = {id(s) for s in kept if s.is_fact and s.head is not None and s.head[0] in read}
    derived = {s.head[0] for s in kept if s.head is not None and (id(s) in facts or not s.is_fact)}
    directives: dict[str, None] = {}
    for d in [*defined, *(s.text for s in kept if s.text.startswith("#defined"))]:
        m = _DEFINED_RE.fullmatch(d.strip())
        if m is None or m.group(1) in read:
            directives[d] = None

    def keep(s: Statement) -> bool:
        if not s.text or s.text.startswith(("#defined", "#program base.")):  # every statement is in base
            return False
        if s.is_fact:
            return id(s) in facts
        show = _SHOW_RE.fullmatch(s.text.strip())
        return show is None or show.group(1) in derived

    out = [*directives, *(s.text for s in kept if keep(s))]
    if generated is not None:
        out += generated([s for s in kept if keep(s)])
    if not any(_SHOW_RE.fullmatch(t) for t in out):
        out.append(_SHOW_NOTHING)  # without any #show, clingo would show every atom
    return out


Signature = tuple[str, int]


def _positive_signatures(stm: ast.AST) -> tuple[Signature, ...] | None:
    """The predicates of the positive body literals of a rule with a body (None for anything else)."""
    if stm.ast_type != ast.ASTType.Rule or not stm.body:
        return None
    return tuple((str(lit.atom.symbol.name), len(lit.atom.symbol.arguments)) for lit in stm.body
                 if lit.ast_type == ast.ASTType.Literal and lit.sign == ast.Sign.NoSign
                 and lit.atom.ast_type == ast.ASTType.SymbolicAtom and lit.atom.symbol.ast_type == ast.ASTType.Function)


_GENERATED: dict[str, tuple[Signature, ...] | None] = {}
"""The positive body predicates of rules generated beside the rule base (the provenance companions), by
their text: read once per process, though they recur in every slice that has their rule."""


def _generated_body(text: str, stm: ast.AST) -> tuple[Signature, ...] | None:
    hit = _GENERATED.get(text, False)
    if hit is False:
        if len(_GENERATED) > 100_000:
            _GENERATED.clear()
        hit = _GENERATED[text] = _positive_signatures(stm)
    return hit  # type: ignore[return-value]


def rule_bodies(statements: Iterable[Statement]) -> dict[str, tuple[Signature, ...] | None]:
    """What :func:`_positive_signatures` reads from each of ``statements`` parsed again from its text, by
    that text: the positive body predicates of a rule with a body, None for a fact or a directive."""
    return {s.text: None if s.is_fact or s.text.startswith(("#", ":~")) else s.positive
            for s in statements if s.text}


class _Domain:
    """Which predicates have atoms in a grounding (a superset of the true atoms), probed on demand."""

    def __init__(self, ctl: clingo.Control) -> None:
        self.atoms = ctl.symbolic_atoms
        self.memo: dict[Signature, bool] = {}

    def has(self, sig: Signature) -> bool:
        hit = self.memo.get(sig)
        if hit is None:
            hit = self.memo[sig] = next(iter(self.atoms.by_signature(*sig)), None) is not None
        return hit


@dataclass(frozen=True)
class Narrowed:
    """A slice without its rules that did not come close to firing on the scenarios seen so far: a rule
    is *left out* when some predicate of its positive body had no atom at all. Grounded instead of the
    slice, it gives the slice's answer set whenever :meth:`proves` holds: if every rule left out still
    has a positive body predicate without atoms, no rule left out can fire, and the answer set of the
    narrowed (stratified) program is a model of the rules left out too, hence the answer set of the
    slice. Otherwise the caller solves the slice itself."""

    statements: tuple[ast.AST, ...]
    kept: frozenset[int]
    """The indices of the slice's rules kept."""
    left_out: tuple[tuple[Signature, ...], ...]
    """The positive body predicates of each rule left out, those without atoms when it was left out
    first (so that one probe usually settles it)."""

    def proves(self, ctl: clingo.Control) -> bool:
        domain = _Domain(ctl)
        return not any(all(domain.has(sig) for sig in body) for body in self.left_out)


def _head_name(stm: ast.AST) -> str | None:
    """The predicate of a rule's (or fact's) head atom, if it has one."""
    if stm.ast_type != ast.ASTType.Rule or stm.head.ast_type != ast.ASTType.Literal:
        return None
    atom = stm.head.atom
    if atom.ast_type != ast.ASTType.SymbolicAtom or atom.symbol.ast_type != ast.ASTType.Function:
        return None
    return str(atom.symbol.name)


def _needed(stm: ast.AST, read: set[str], derived: set[str]) -> bool:
    """Whether a narrowed slice keeps ``stm`` (its rules and facts are chosen already): ``#defined``
    only for a predicate its rules read, ``#show`` only for one they or its facts derive."""
    if stm.ast_type == ast.ASTType.Defined:
        return str(stm.name) in read
    if stm.ast_type == ast.ASTType.ShowSignature:
        return str(stm.name) in derived
    return True


class Sliced:
    """A fast-path program: its text, and its parsed statements once it is used a second time. Adding
    parsed statements to a Control through clingo's program builder costs a fraction of parsing the
    text again; a program used once (a command run once) is never parsed in Python. Once parsed, it
    learns from each solve of the whole slice which rules came close to firing (:class:`Narrowed`),
    and the caller grounds those alone where the result proves that the others cannot fire."""

    def __init__(self, text: str, bodies: Mapping[str, tuple[Signature, ...] | None] | None = None) -> None:
        self.text = text
        self.known = bodies or {}
        """The positive body predicates of the rule base's rules, by their text (:func:`rule_bodies`):
        looked up rather than read from the parsed statements (each AST attribute read is a call into
        clingo; walking every body was a tenth of a check with unknown facts)."""
        self._statements: list[ast.AST] | None = None
        self._bodies: list[tuple[Signature, ...] | None] = []
        """Per statement (once learning): its positive body predicates (None: not a rule), its text, the
        names it reads and its head's name (each AST read is a call into clingo: read once)."""
        self._texts: list[str] = []
        self._reads: list[set[str]] = []
        self._heads: list[str | None] = []
        self._uses = 0
        self._lock = threading.Lock()  # builder calls release the GIL; the shared AST is used by one at a time
        self.narrowed: Narrowed | None = None

    def add_to(self, ctl: clingo.Control, narrowed: Narrowed | None = None) -> None:
        """Add the slice (or ``narrowed``, the slice narrowed) to ``ctl``."""
        with self._lock:
            self._uses += 1
            if self._statements is None and self._uses > 1:
                statements: list[ast.AST] = []
                ast.parse_string(self.text, statements.append)
                self._statements = statements
            if self._statements is None:
                ctl.add("base", [], self.text)
                return
            with ast.ProgramBuilder(ctl) as builder:
                for stm in narrowed.statements if narrowed is not None else self._statements:
                    builder.add(stm)

    def learn(self, ctl: clingo.Control) -> None:
        """After grounding the whole slice in ``ctl``: keep in :attr:`narrowed` the rules whose positive
        body predicates all have atoms, with those kept before (a rule never leaves once kept), and the
        slice's other statements that these rules need (:func:`_needed`)."""
        with self._lock:
            if self._statements is None:
                return
            if not self._bodies:  # read once, on the first lesson (a slice that never learns never needs them)
                known = self.known
                self._texts = [str(stm) for stm in self._statements]
                self._bodies = [known[text] if text in known else None if text.startswith("#")
                                else _generated_body(text, stm)
                                for text, stm in zip(self._texts, self._statements, strict=True)]
                self._reads = [set(_NAME_RE.findall(text)) for text in self._texts]
                self._heads = [_head_name(stm) for stm in self._statements]
            statements, bodies, heads = self._statements, self._bodies, self._heads
            domain = _Domain(ctl)
            before = self.narrowed.kept if self.narrowed is not None else frozenset()
            kept = frozenset(i for i, body in enumerate(bodies)
                             if body is not None and (i in before or all(domain.has(sig) for sig in body)))
            if self.narrowed is not None and kept == before:
                return
            read = set().union(*(self._reads[i] for i in kept))
            derived = {name for i, name in enumerate(heads) if (i in kept or bodies[i] is None) and name is not None}
            chosen = [stm for i, stm in enumerate(statements)
                      if i in kept or (bodies[i] is None and _needed(stm, read, derived))]
            if not any(stm.ast_type == ast.ASTType.ShowSignature for stm in chosen):
                ast.parse_string(_SHOW_NOTHING, chosen.append)  # without any #show, clingo would show every atom
            self.narrowed = Narrowed(
                tuple(chosen),
                kept,
                tuple(tuple(sorted(body, key=domain.has)) for i, body in enumerate(bodies)
                      if body is not None and i not in kept))

    def __str__(self) -> str:
        return self.text
