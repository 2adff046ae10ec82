"""Which conclusions rest on a reconstructed provision: a program generated beside a slice of the rules.

A rule annotated ``reconstructed`` (``%@ id | provision | reconstructed``) encodes a provision the
corpus lacks. A true atom is **clean** when it has a derivation that uses no such rule; the least
fixpoint, as the explainer counts the premises of a step (:mod:`pyhelpers.explain.explainer`):

* an atom no rule derives (a scenario fact, a catalogue fact) is clean;
* a derived atom is clean when some rule instance that derives it is not flagged ``reconstructed``,
  every positive body atom of that instance is clean, and, for each aggregate of its body, every
  element instance whose condition holds has clean positive condition atoms. Negated literals and
  comparisons do not count (the explainer shows them as leaves, without a derivation).

Only the predicates in the *forward closure* of the reconstructed rules' heads (through positive
literals and aggregate conditions) can have atoms that are not clean; every other predicate is clean
without condition and gets no generated rule, so a slice without a reconstructed rule (every slice of a
treaty that has none) is left as it is. For each rule ``H :- B.`` of the slice whose head is in the closure, with
``N`` a digest of its text and global variables ``G`` (as in :mod:`pyhelpers.explain.instrument`), the generated rules
are, writing ``B[P/Q]`` for ``B`` with its positive literal ``P`` replaced by ``Q``:

    _clean_h(H) :- B[P1/_clean_p1(P1), ..., Pk/_clean_pk(Pk)].
    _taint_h(H, T) :- B[Pi/_taint_pi(Pi, T)], not _clean_h(H).        % each positive body atom Pi

(``Pi`` ranging over the body atoms whose predicate is in the closure; one predicate per signature,
``_clean_<name>_<arity>`` and ``_taint_<name>_<arity>``, so that a narrowed slice leaves out the rules
of those without atoms, :class:`~pyhelpers.engine.slicing.Narrowed`), or, for a rule with an aggregate
whose conditions read the closure (its condition cannot be repeated beside a copy of the aggregate) and
for one with two or more such ``Pi`` (its body is joined once, not once per ``Pi``):

    _derives_N((G)) :- B.
    _clean_h(H) :- _derives_N((G)), _clean_p1(P1), ..., not _dirty_N_K_E((G)), ...
    _dirty_N_K_E((G)) :- _derives_N((G)), C, not _clean_a(A).       % element E of the aggregate at K
    _taint_h(H, T) :- _derives_N((G)), _taint_pi(Pi, T), not _clean_h(H).
    _taint_h(H, T) :- _derives_N((G)), C, _taint_a(A, T), not _clean_h(H).

and, for a reconstructed rule with provision ``Prov`` (fixed, or ``{Var}``), the same ``_taint`` rules
(what its premises rest on, which its explanation shows below it), no ``_clean`` rule, and

    _taint_h(H, Prov) :- B, not _clean_h(H).

``_taint_a(A, T)``: ``A`` is true and not clean, and some derivation of ``A`` uses a reconstructed rule of
provision ``T`` through atoms that are not clean. Every true atom that is not clean has at least one
(its well-founded derivation meets a reconstructed rule before a clean atom), and the provisions of the
reconstructed steps of its explanation are among them. The taints of the shown atoms whose derivations
an explanation shows (:data:`EXPLAINED_ROOTS`) are shown as ``_relies(A, T)``; the results read them
(:mod:`pyhelpers.engine.answers`). The generated rules depend on the rules' atoms only positively or
through stratified negation, and the rules never on them: the answer set on the rules' atoms is
unchanged. They never reach the Prolog translation, and need not be in the portable subset.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from typing import Any

import clingo
from clingo import ast
from clingo.ast import ASTType

from pyhelpers.base.errors import LogicError

RECONSTRUCTED = "reconstructed"
"""The annotation flag of a rule encoded from a reconstruction, not from the corpus text."""
RELIES = "_relies"
"""The shown predicate ``_relies(Atom, Provision)``: a shown atom rests on a reconstructed provision."""
CLEAN, TAINT, DERIVES, DIRTY = "_clean", "_taint", "_derives", "_dirty"
EXPLAINED_ROOTS = frozenset({
    "state_outcome", "max_rate", "missing", "depends", "not_encoded", "mutual_agreement",
    "exception_applies", "treaty_not_applicable", "state_not_applicable", "benefits_denied", "note", "deadline",
    "relief",
    "discrimination", "input_error", "ppt_indicator", "assumption", "entitlement", "requires_judgment",
    "text_open",
    "answer_residence", "answer_no_residence", "answer_mutual_agreement", "answer_missing", "answer_depends",
    "answer_qualified", "answer_not_qualified", "answer_open", "answer_not_encoded", "answer_rests_on",
})
"""The conclusions and findings of an item (or a question) whose derivations `treaty explain` shows:
the outcome of each State, the rate, the findings, the entitlement, the relief, the answers. An item
*relies on* a reconstructed provision when the explanation of one of its atoms of these predicates
does: the generated program reports (``_relies``) on them alone. The item's other shown atoms
(``may_tax``, ``source_cap`` ...) are read by the results only through these (a right, a cap that no
outcome uses decides nothing)."""
FLAGGED_ROOTS = EXPLAINED_ROOTS | {"outcome_provision"}
"""The shown atoms whose reliance on reconstructed provisions is reported (``_relies``): the explained roots, and
the provisions an item lists (``outcome_provision``), so that a reconstructed provision listed is flagged even where
no conclusion of the item rests on it (:func:`pyhelpers.engine.answers.cited_reconstructed`)."""

_POS = ast.Position("<provenance>", 0, 0)
_LOC = ast.Location(_POS, _POS)
_SHOW_RE = re.compile(r"#show\s+([a-z_][A-Za-z0-9_']*)/(\d+)\s*\.")

Signature = tuple[str, int]


class VariableCollector(ast.Transformer):
    """The names of the variables of an AST node, in order of first occurrence (``_`` left out)."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def visit_Variable(self, node: Any) -> Any:
        if node.name != "_" and node.name not in self.names:
            self.names.append(node.name)
        return node


def _variables(node: Any) -> list[str]:
    found = VariableCollector()
    found(node)
    return found.names


def _signature(symbol: Any) -> Signature | None:
    if symbol.ast_type != ASTType.Function:
        return None
    return str(symbol.name), len(symbol.arguments)


def _atoms_of_literal(lit: Any) -> list[Any]:
    """The positive atoms (symbol ASTs) a body literal needs true: its own, or its aggregate elements'."""
    if lit.ast_type != ASTType.Literal:
        return []
    atom = lit.atom
    if atom.ast_type == ASTType.SymbolicAtom and lit.sign == ast.Sign.NoSign:
        return [atom.symbol]
    if atom.ast_type == ASTType.BodyAggregate:
        return [c.atom.symbol for el in atom.elements for c in el.condition
                if c.ast_type == ASTType.Literal and c.sign == ast.Sign.NoSign
                and c.atom.ast_type == ASTType.SymbolicAtom]
    return []


def _global_variables(body: Sequence[Any]) -> list[str]:
    """The variables of a body outside its aggregates' elements (aggregate guards included)."""
    names: list[str] = []
    for lit in body:
        if lit.ast_type == ASTType.Literal and lit.atom.ast_type == ASTType.BodyAggregate:
            agg = lit.atom
            for guard in (agg.left_guard, agg.right_guard):
                if guard is not None:
                    names += [n for n in _variables(guard.term) if n not in names]
        else:
            names += [n for n in _variables(lit) if n not in names]
    return names


def _literal(symbol: Any, sign: Any = ast.Sign.NoSign) -> Any:
    return ast.Literal(_LOC, sign, ast.SymbolicAtom(symbol))


def _function(name: str, args: Sequence[Any]) -> Any:
    return ast.Function(_LOC, name, list(args), 0)


def _tuple(names: Sequence[str]) -> Any:
    return ast.Function(_LOC, "", [ast.Variable(_LOC, n) for n in names], 0)


def _number(n: int) -> Any:
    return ast.SymbolicTerm(_LOC, clingo.Number(n))


def _rule(head: Any, body: Sequence[Any]) -> str:
    return str(ast.Rule(_LOC, _literal(head), list(body)))


def _provision_term(provision: str) -> Any:
    """The provision a reconstructed rule carries: fixed (a string), or ``{Var}`` (the rule's variable)."""
    m = re.fullmatch(r"\{([A-Z][A-Za-z0-9_]*)\}", provision)
    if m is not None:
        return ast.Variable(_LOC, m.group(1))
    return ast.SymbolicTerm(_LOC, clingo.String(provision))


def _parse_rule(text: str) -> Any:
    found: list[Any] = []
    ast.parse_string(text, found.append)
    rules = [s for s in found if s.ast_type == ASTType.Rule]
    if len(rules) != 1:
        raise LogicError(f"not one rule: {text}")
    return rules[0]


def closure(rules: Sequence[tuple[Any, bool]]) -> set[Signature]:
    """The predicates whose atoms may fail to be clean: the heads of the reconstructed rules (``rules``:
    each parsed rule and whether it is flagged) and, to a fixpoint, of every rule with a positive body
    atom or an aggregate condition atom of such a predicate."""
    heads: list[tuple[Signature | None, set[Signature]]] = []
    out: set[Signature] = set()
    for rule, flagged in rules:
        head = _signature(rule.head.atom.symbol) if rule.head.ast_type == ASTType.Literal \
            and rule.head.atom.ast_type == ASTType.SymbolicAtom else None
        body = {sig for lit in rule.body for a in _atoms_of_literal(lit) if (sig := _signature(a)) is not None}
        heads.append((head, body))
        if flagged and head is not None:
            out.add(head)
    changed = bool(out)
    while changed:
        changed = False
        for head, body in heads:
            if head is not None and head not in out and body & out:
                out.add(head)
                changed = True
    return out


def _clean(atom: Any) -> Any:
    """``_clean_<name>_<arity>(Args)``: the atom is clean (a predicate per signature, so that a narrowed
    slice, :class:`~pyhelpers.engine.slicing.Narrowed`, leaves out the rules of those without atoms)."""
    return _function(f"{CLEAN}_{atom.name}_{len(atom.arguments)}", atom.arguments)


def _taint(atom: Any, provision: Any) -> Any:
    """``_taint_<name>_<arity>(Args, T)``: the atom relies on the reconstructed provision ``T``."""
    return _function(f"{TAINT}_{atom.name}_{len(atom.arguments)}", [*atom.arguments, provision])


def companion_program(rules: Iterable[tuple[str, str, frozenset[str]]], shown: Iterable[str]) -> list[str]:
    """The generated rules (see the module's documentation) for a slice: ``rules``, the text, provision
    and flags of each of its annotated rules; ``shown``, its ``#show`` directives. Empty when the slice
    has no reconstructed rule."""
    listed = list(rules)
    if not any(RECONSTRUCTED in flags for _, _, flags in listed):
        return []
    parsed = [(_parse_rule(text), provision, RECONSTRUCTED in flags) for text, provision, flags in listed]
    unclean = closure([(rule, flagged) for rule, _, flagged in parsed])
    out = [f"#defined {CLEAN}_{name}_{arity}/{arity}." for name, arity in sorted(unclean)]
    out += [f"#defined {TAINT}_{name}_{arity}/{arity + 1}." for name, arity in sorted(unclean)]
    for text, (rule, provision, flagged) in zip((t for t, _, _ in listed), parsed, strict=True):
        head_atom = rule.head.atom.symbol if rule.head.ast_type == ASTType.Literal \
            and rule.head.atom.ast_type == ASTType.SymbolicAtom else None
        if head_atom is None or _signature(head_atom) not in unclean:
            continue
        # named after the rule's text, not its place in the slice: the same rule's companions read the
        # same in every slice (a slice learns the bodies of the rules it has seen in another one)
        out += _companions(hashlib.sha256(text.encode("utf-8")).hexdigest()[:12], rule, head_atom, provision,
                           flagged, unclean)
    for text in shown:
        m = _SHOW_RE.fullmatch(text.strip())
        if m is None or (m.group(1), int(m.group(2))) not in unclean or m.group(1) not in FLAGGED_ROOTS:
            continue
        atom = _function(m.group(1), [ast.Variable(_LOC, f"X{i}") for i in range(int(m.group(2)))])
        t = ast.Variable(_LOC, "T")
        out.append(_rule(_function(RELIES, [atom, t]), [_literal(_taint(atom, t))]))
    out.append(f"#show {RELIES}/2.")
    return out


def _companions(number: str, rule: Any, head: Any, provision: str, flagged: bool, unclean: set[Signature]
                ) -> list[str]:
    """The generated rules of one rule whose head is in the closure. A rule with one positive body atom
    of the closure and no aggregate reading one repeats its body in its two rules (one rule fewer:
    grounding costs clingo about as much per rule as per join). Any other names its instances once
    (``_derives_<N>``): an aggregate's condition cannot be moved out of it where another copy of it is,
    and a body with k such atoms would otherwise be joined k + 1 times (digit-by-digit share sums where
    every step reads the claimant and a chain's digits grounded 2.5 times slower)."""
    t = ast.Variable(_LOC, "Reconstruction__")
    not_clean_head = _literal(_clean(head), ast.Sign.Negation)
    body = list(rule.body)
    own = [_rule(_taint(head, _provision_term(provision)), [*body, not_clean_head])] if flagged else []

    def positive(lit: Any) -> bool:
        return bool(lit.ast_type == ASTType.Literal and lit.sign == ast.Sign.NoSign
                    and lit.atom.ast_type == ASTType.SymbolicAtom and _signature(lit.atom.symbol) in unclean)

    def inner(element: Any) -> list[Any]:
        return [c.atom.symbol for c in element.condition if positive(c)]

    aggregates = [(position, lit.atom) for position, lit in enumerate(body) if lit.ast_type == ASTType.Literal
                  and lit.atom.ast_type == ASTType.BodyAggregate and any(inner(el) for el in lit.atom.elements)]
    out: list[str] = own
    if not aggregates and sum(1 for lit in body if positive(lit)) < 2:
        clean_body = [_literal(_clean(lit.atom.symbol)) if positive(lit) else lit for lit in body]
        for i, lit in enumerate(body):
            if positive(lit):
                out.append(_rule(_taint(head, t),
                                 [*body[:i], _literal(_taint(lit.atom.symbol, t)), *body[i + 1:], not_clean_head]))
        if not flagged:
            out.append(_rule(_clean(head), clean_body))
        return out
    gvars = _global_variables(body)
    derives = _literal(_function(f"{DERIVES}_{number}", [_tuple(gvars)]))
    out.append(_rule(derives.atom.symbol, body))
    clean_body = [derives, *(_literal(_clean(lit.atom.symbol)) for lit in body if positive(lit))]
    for lit in body:
        if positive(lit):
            out.append(_rule(_taint(head, t), [derives, _literal(_taint(lit.atom.symbol, t)), not_clean_head]))
    for position, agg in aggregates:
        for element_no, element in enumerate(agg.elements):
            atoms = inner(element)
            if not atoms:
                continue
            dirty = _function(f"{DIRTY}_{number}_{position}_{element_no}", [_tuple(gvars)])
            clean_body.append(_literal(dirty, ast.Sign.Negation))
            condition = list(element.condition)
            for a in atoms:
                if not flagged:
                    out.append(_rule(dirty, [derives, *condition, _literal(_clean(a), ast.Sign.Negation)]))
                out.append(_rule(_taint(head, t), [derives, *condition, _literal(_taint(a, t)), not_clean_head]))
            if not flagged:
                out.append(f"#defined {dirty.name}/1.")
    if not flagged:
        out.append(_rule(_clean(head), clean_body))
    return out
