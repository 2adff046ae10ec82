"""``treaty report``: one self-contained HTML decision report (issue 12).

For each scenario: a summary row per income item (treaty, States, outcome per State, cap and maximum
tax, the withholding compliance finding, status, outcome), the derivation of each item drawn as a graph
(the item at the top, its conclusions below it, the scenario's facts at the leaves), the why-not
analyses asked for, the provisions cited with their Portuguese text, the scenario as given, its unknown
and missing facts, and the receipt that reproduces it.

The graphs are laid out by Graphviz's ``dot`` (run as a subprocess, SVG inlined); without ``dot`` the
derivations are indented trees and the report says so. Everything is inline (styles, script, SVG): the
file makes no network fetch. Output is deterministic: the same input and the same ``dot`` give the same
bytes (nothing depends on the clock, the environment or hash order).

Pure functions returning strings: the CLI writes the file and prints.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import shutil
import subprocess
import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import clingo
from clingo.ast import ASTType

from pyhelpers.base import formats
from pyhelpers.base.errors import InputError
from pyhelpers.engine.program import Logic, provision_key
from pyhelpers.engine.query import Query
from pyhelpers.engine.results import Finding, ItemResult, ScenarioResult, StateOutcome
from pyhelpers.engine.solve import Checker
from pyhelpers.explain import readings
from pyhelpers.explain.argument import (
    Argument,
    Line,
    WhyNot,
    argument_for,
    finding_named,
    query_item,
    why_not_answer,
)
from pyhelpers.explain.explainer import Explainer, Step, explain_scenario, query_matches
from pyhelpers.explain.readings import term
from pyhelpers.explain.readings import value as shown_value
from pyhelpers.output import render
from pyhelpers.scenario import Scenario
from pyhelpers.scenario.factpaths import field_text

JUDGMENT_ROOTS = frozenset({"requires_judgment"})
"""Findings drawn with the roots the CLI explains (a principal purpose test needing the user's judgment)."""

# ------------------------------------------------------------------------------------ the model ---


@dataclass
class Node:
    """One step of a drawn derivation; steps for the same atom are one node."""

    id: str
    kind: str  # item | derived | given | static | not | test | aggregate | failed | unknown
    reading: str  # in the report's language
    reading_en: str
    atom: str
    provision: str | None = None
    rule_id: str | None = None
    location: str | None = None
    note: str | None = None
    reconstructed: bool = False
    judgment: bool = False

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "reading": self.reading, "en": self.reading_en, "atom": self.atom}
        for key, value in (("provision", self.provision), ("rule", self.rule_id), ("location", self.location),
                           ("note", self.note)):
            if value:
                data[key] = value
        if self.reconstructed:
            data["reconstructed"] = True
        if self.judgment:
            data["judgment"] = True
        return data


@dataclass
class Graph:
    """A derivation (or a why-not analysis) as a graph: nodes in first-visit order, edges parent → child."""

    id: str
    title: str
    nodes: list[Node] = field(default_factory=list)
    edges: list[tuple[str, str]] = field(default_factory=list)

    def provisions(self) -> list[str]:
        return sorted({n.provision for n in self.nodes if n.provision}, key=provision_key)

    def children(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {n.id: [] for n in self.nodes}
        for a, b in self.edges:
            out[a].append(b)
        return out


@dataclass
class ItemReport:
    result: ItemResult
    graph: Graph  # the full derivation (behind a toggle)
    why_not: list[Graph] = field(default_factory=list)  # each query's answer: a line per rule (drawn by default)
    argument: Graph | None = None  # the legal argument (drawn by default)
    why_not_full: list[Graph] = field(default_factory=list)  # each query's whole analysis (behind a toggle)
    cased: bool = False  # a State's outcome argued under each alternative (the argument cites what the cases cite)


@dataclass
class ScenarioReport:
    source: str
    source_text: str
    source_sha256: str
    scenario: Scenario
    result: ScenarioResult
    facts: list[str]
    items: list[ItemReport]
    why_not: list[Graph] = field(default_factory=list)  # queries about no item of this scenario
    why_not_full: list[Graph] = field(default_factory=list)  # their whole analyses

    def unknowns(self) -> list[str]:
        """The facts given as ``unknown``: ``subject: attribute``."""
        out = []
        for fact in self.facts:
            if fact.startswith("unknown("):
                sym = clingo.parse_term(fact.rstrip("."))
                subject, attribute = sym.arguments[1], sym.arguments[2]
                out.append(f"{_plain(subject)}: {_plain(attribute)}")
        return out


@dataclass
class Report:
    lang: str
    scenarios: list[ScenarioReport]
    texts: dict[str, list[tuple[str, str]]]  # provision → its quoted paragraphs (label, Portuguese text)

    def items(self) -> list[tuple[ScenarioReport, ItemReport]]:
        return [(s, it) for s in self.scenarios for it in s.items]

    def graphs(self) -> list[Graph]:
        out = []
        for s in self.scenarios:
            for it in s.items:
                out += [*([it.argument] if it.argument is not None else []), it.graph, *it.why_not, *it.why_not_full]
            out += [*s.why_not, *s.why_not_full]
        return out


def _plain(sym: clingo.Symbol) -> str:
    return str(sym.string) if sym.type == clingo.SymbolType.String else str(sym)


# ---------------------------------------------------------------------------- building graphs ---

_WORDS = {
    "en": {
        "reconstructed": "⚠ RECONSTRUCTED provision", "judgment": "⚖ requires judgment",
        "title": "Decision report", "summary": "Summary", "scenario": "scenario", "item": "item",
        "type": "type", "treaty": "treaty", "states": "States", "per_state": "outcome per State",
        "cap": "cap", "max_tax": "maximum source tax", "compliance": "compliance", "status": "status",
        "outcome": "outcome", "derivation": "Derivation", "why_not": "Why not", "holds": "holds",
        "provisions": "Provisions cited, with the treaty text", "provision": "provision",
        "text_pt": "text (Portuguese, as encoded)", "no_text": "no quoted text in the rule base",
        "facts": "The scenario as given", "facts_atoms": "the facts as the rules read them (hashed in the receipt)",
        "unknowns": "Unknown and missing facts", "given_unknown": "given as unknown",
        "incomplete": "INCOMPLETE",
        "none": "none", "receipt": "Receipt", "reproduce": "to reproduce",
        "version": "treaty-logic version", "clingo": "clingo version", "logic": "logic (SHA-256 of the rule files)",
        "facts_hash": "facts (SHA-256)", "file_hash": "scenario file (SHA-256)", "graphviz": "graph layout",
        "language": "language", "evaluated": "evaluated on", "findings": "findings",
        "hint": "Click or hover a step to see its provision, the treaty text and the reading.",
        "no_provision": "no treaty provision (a rule of the core)", "given": "a fact given by the scenario",
        "static": "a fact of the treaty catalogue", "reading_en": "Reading (en)", "reading": "Reading",
        "rule": "rule", "fit": "fit to width / actual size", "legend": "Legend",
        "engine_dot": "Derivations drawn by Graphviz ({version}).",
        "engine_none": "Graphviz (dot) is not installed: the derivations are shown as indented trees "
                       "(install Debian's graphviz package to draw them as graphs).",
        "engine_failed": "Graphviz (dot) failed ({error}): the derivations are shown as indented trees.",
        "k_item": "income item", "k_derived": "derived by a rule", "k_given": "fact given by the scenario",
        "k_static": "fact of the treaty catalogue", "k_not": "condition: no rule derives it",
        "k_test": "comparison", "k_failed": "failed (why not)", "k_unknown": "not derived / not given (why not)",
        "k_reconstructed": "provision reconstructed, not in the corpus text",
        "k_judgment": "requires judgment (purpose test, unknown purpose)",
        "missing_facts": "missing or unknown facts that the law needs", "kind": "kind", "fact": "fact",
        "field": "scenario field",
        "no_graph": "no conclusion derived for this item", "relief": "elimination of double taxation",
        "multiple": "{n} scenario(s), {m} income item(s)", "source": "file",
        "argument": "Legal argument", "full_derivation": "Full derivation (every step of the rules)",
        "full_why_not": "Full analysis (every condition of every rule that could have given it)",
    },
    "pt": {
        "reconstructed": "⚠ dispositivo RECONSTITUÍDO", "judgment": "⚖ exige avaliação",
        "title": "Relatório de decisão", "summary": "Resumo", "scenario": "cenário", "item": "rendimento",
        "type": "tipo", "treaty": "convenção", "states": "Estados", "per_state": "resultado por Estado",
        "cap": "limite", "max_tax": "imposto máximo na fonte", "compliance": "conformidade", "status": "situação",
        "outcome": "resultado", "derivation": "Derivação", "why_not": "Por que não", "holds": "se verifica",
        "provisions": "Dispositivos citados, com o texto da convenção", "provision": "dispositivo",
        "text_pt": "texto (português, tal como codificado)", "no_text": "sem texto citado na base de regras",
        "facts": "O cenário tal como foi informado",
        "facts_atoms": "os fatos tal como as regras os leem (com hash no recibo)",
        "unknowns": "Fatos desconhecidos e ausentes", "given_unknown": "informados como desconhecidos",
        "incomplete": "INCOMPLETO",
        "none": "nenhum", "receipt": "Recibo", "reproduce": "para reproduzir",
        "version": "versão do treaty-logic", "clingo": "versão do clingo",
        "logic": "lógica (SHA-256 dos arquivos de regras)", "facts_hash": "fatos (SHA-256)",
        "file_hash": "arquivo do cenário (SHA-256)", "graphviz": "desenho dos grafos",
        "language": "idioma", "evaluated": "avaliado em", "findings": "constatações",
        "hint": "Clique ou passe o cursor sobre um passo para ver o dispositivo, o texto da convenção e a leitura.",
        "no_provision": "nenhum dispositivo da convenção (uma regra do núcleo)",
        "given": "um fato informado pelo cenário",
        "static": "um fato do catálogo da convenção", "reading_en": "Leitura (en)", "reading": "Leitura (pt-BR)",
        "rule": "regra", "fit": "ajustar à largura / tamanho real", "legend": "Legenda",
        "engine_dot": "Derivações desenhadas pelo Graphviz ({version}).",
        "engine_none": "O Graphviz (dot) não está instalado: as derivações são mostradas como árvores "
                       "indentadas (instale o pacote graphviz do Debian para desenhá-las como grafos).",
        "engine_failed": "O Graphviz (dot) falhou ({error}): as derivações são mostradas como árvores indentadas.",
        "k_item": "rendimento", "k_derived": "derivado por uma regra", "k_given": "fato informado pelo cenário",
        "k_static": "fato do catálogo da convenção", "k_not": "condição: nenhuma regra o deriva",
        "k_test": "comparação", "k_failed": "falhou (por que não)",
        "k_unknown": "não derivado / não informado (por que não)",
        "k_reconstructed": "dispositivo reconstituído, ausente do texto do corpus",
        "k_judgment": "exige avaliação (teste do propósito principal, propósito desconhecido)",
        "missing_facts": "fatos ausentes ou desconhecidos de que a lei precisa", "kind": "tipo", "fact": "fato",
        "field": "campo do cenário",
        "no_graph": "nenhuma conclusão derivada para este rendimento", "relief": "eliminação da dupla tributação",
        "multiple": "{n} cenário(s), {m} rendimento(s)", "source": "arquivo",
        "argument": "Argumentação jurídica", "full_derivation": "Derivação completa (todos os passos das regras)",
        "full_why_not": "Análise completa (todas as condições de cada regra que poderia tê-lo dado)",
    },
    "pt-PT": {
        "reconstructed": "⚠ disposição RECONSTITUÍDA", "judgment": "⚖ exige um juízo", "status": "estado",
        "why_not": "Porque não", "holds": "verifica-se",
        "provisions": "Disposições citadas, com o texto da convenção", "provision": "disposição",
        "facts": "O cenário tal como foi dado",
        "facts_atoms": "os factos tal como as regras os lêem (com hash no recibo)",
        "unknowns": "Factos desconhecidos e em falta", "given_unknown": "indicados como desconhecidos",
        "logic": "lógica (SHA-256 dos ficheiros de regras)", "facts_hash": "factos (SHA-256)",
        "file_hash": "ficheiro do cenário (SHA-256)", "language": "língua",
        "hint": "Clique ou passe o cursor sobre um passo para ver a disposição, o texto da convenção e a leitura.",
        "no_provision": "nenhuma disposição da convenção (uma regra do núcleo)", "given": "um facto dado pelo cenário",
        "static": "um facto do catálogo da convenção", "reading": "Leitura (pt-PT)",
        "engine_none": "O Graphviz (dot) não está instalado: as derivações são apresentadas como árvores "
                       "indentadas (instale o pacote graphviz da Debian para as desenhar como grafos).",
        "engine_failed": "O Graphviz (dot) falhou ({error}): as derivações são apresentadas como árvores indentadas.",
        "k_given": "facto dado pelo cenário", "k_static": "facto do catálogo da convenção",
        "k_failed": "falhou (porque não)", "k_unknown": "não derivado / não dado (porque não)",
        "k_reconstructed": "disposição reconstituída, ausente do texto do corpus",
        "k_judgment": "exige um juízo (teste do objetivo, objetivo desconhecido)",
        "missing_facts": "factos em falta ou desconhecidos de que a lei precisa", "fact": "facto",
        "source": "ficheiro",
    },
}


def word(key: str, lang: str) -> str:
    return render.wording(_WORDS, lang)[key]


def is_judgment(step: Step) -> bool:
    """A step that needs the user's judgment: a rule flagged ``requires_judgment``, a
    ``requires_judgment`` finding, or a ``depends`` finding on a purpose fact."""
    return ("requires_judgment" in step.flags or step.atom.startswith("requires_judgment(")
            or (step.atom.startswith("depends(") and "purpose" in step.atom))


class _Builder:
    """Merges derivation trees into one graph: the steps of one atom become one node."""

    def __init__(self, gid: str, title: str, reconstructed: frozenset[str]) -> None:
        self.graph = Graph(gid, title)
        self.keys: dict[tuple[str, ...], str] = {}
        self.edge_set: set[tuple[str, str]] = set()
        self.expanded: set[str] = set()
        self.reconstructed = reconstructed

    def node(self, key: tuple[str, ...], make: Node) -> str:
        """The id of the node for ``key``, made from ``make`` the first time."""
        found = self.keys.get(key)
        if found is not None:
            return found
        make.id = f"{self.graph.id}n{len(self.graph.nodes)}"
        self.keys[key] = make.id
        self.graph.nodes.append(make)
        return make.id

    def edge(self, a: str, b: str) -> None:
        if a != b and (a, b) not in self.edge_set:
            self.edge_set.add((a, b))
            self.graph.edges.append((a, b))

    def root(self, kind: str, reading: str, reading_en: str, atom: str) -> str:
        return self.node(("root",), Node("", kind, reading, reading_en, atom))

    def add(self, step: Step, en: Step | None, path: str) -> str:
        """Draw ``step`` (``en``: the same step read in English) and its premises; returns its node id."""
        kind = "derived" if step.kind == "ref" else step.kind
        node = Node("", kind, step.reading, en.reading if en is not None else step.reading, step.atom,
                    step.provision, step.rule_id, step.location, step.note,
                    "reconstructed" in step.flags or (step.provision or "") in self.reconstructed,
                    is_judgment(step))
        nid = self.node(_key(step, path), node)
        if step.kind != "ref" and step.children and nid not in self.expanded:
            # a node's premises are drawn once: from its first occurrence that has any
            self.expanded.add(nid)
            en_children: list[Step | None] = list(en.children) if en is not None and \
                len(en.children) == len(step.children) else [None] * len(step.children)
            for i, (child, child_en) in enumerate(zip(step.children, en_children, strict=True)):
                cid = self.add(child, child_en, f"{path}.{i}")
                self.edge(nid, cid)
        return nid


def _key(step: Step, path: str) -> tuple[str, ...]:
    """Steps about the same atom are one node (a reference ↑ is its derivation); a comparison, an
    aggregate or a failed aggregate belongs to its rule's bindings: one node per occurrence."""
    if step.kind in ("derived", "ref"):
        return ("derived", step.atom)
    if step.kind in ("given", "static", "not", "unknown") or (
            step.kind == "failed" and (step.rule_id is not None or step.atom.startswith("not "))):
        return (step.kind, step.atom, step.rule_id or "", step.reading)
    return ("at", path)


def _trees(ex: Explainer, atoms: Sequence[clingo.Symbol], lang: str) -> list[tuple[Step, Step]]:
    """The derivation of each atom in the report's language and in English (same shape)."""
    saved = ex.lang
    try:
        ex.lang = "en"
        english = [ex.tree(a) for a in atoms]
        ex.lang = lang
        local = [ex.tree(a) for a in atoms] if lang != "en" else english
    finally:
        ex.lang = saved
    return list(zip(local, english, strict=True))


def _why_not_steps(ex: Explainer, query: Query, lang: str
                   ) -> tuple[bool, list[tuple[Step, Step | None]], tuple[WhyNot, WhyNot]]:
    """Whether the query holds, the steps to draw (the derivations of its answers, or the failed attempts of
    the rules that could conclude it, each in the report's language and in English), and the answer as
    `treaty explain --why-not` gives it (:func:`~pyhelpers.explain.argument.why_not_answer`: one line per rule
    that could have given it), in the report's language and in English."""
    matches = query_matches(ex, query.pattern, query.tests)
    item = query_item(query.pattern)
    saved = ex.lang
    try:
        ex.lang = "en"
        english = [] if matches else ex.why_not(query.pattern, list(query.tests))
        short_en = why_not_answer(ex, query.text, item, matches, english)
        ex.lang = lang
        local = (ex.why_not(query.pattern, list(query.tests)) if not matches and lang != "en" else english)
        short = why_not_answer(ex, query.text, item, matches, local) if lang != "en" else short_en
    finally:
        ex.lang = saved
    if matches:
        return True, [(a, b) for a, b in _trees(ex, matches, lang)], (short, short_en)
    if len(local) != len(english):
        return False, [(s, None) for s in local], (short, short_en)
    return False, list(zip(local, english, strict=True)), (short, short_en)


def item_graph(gid: str, item: ItemResult, trees: Sequence[tuple[Step, Step | None]], lang: str,
               reconstructed: frozenset[str] = frozenset()) -> Graph:
    """The derivation graph of one item: the item on top, each conclusion and finding below it."""
    b = _Builder(gid, item.item_id, reconstructed)
    title = f"{item.item_id} · {term(item.income_type, lang)} · {shown_value(item.status, lang)}"
    title_en = f"{item.item_id} · {term(item.income_type, 'en')} · {item.status}"
    top = b.root("item", title, title_en, item.item_id)
    for i, (step, en) in enumerate(trees):
        b.edge(top, b.add(step, en, str(i)))
    return b.graph


CasePair = tuple[render.Case, render.Case | None]
"""A case of a State's outcome that depends on facts given as alternatives, in the report's language and in English."""


def argument_graph(gid: str, item: ItemResult, arguments: Sequence[tuple[Argument, Argument | None]],
                   lang: str, reconstructed: frozenset[str] = frozenset(),
                   cases: dict[str, list[CasePair]] | None = None) -> Graph:
    """The legal argument of one item as a graph: the item on top, each conclusion below it (a State's
    outcome as `treaty check` words it), and under each the lines of its argument, each above the next (the
    decisive provision first): a provision with its reading, tested facts and comparisons (its other
    facts in the node's note), or an exception that did not apply. A line that two conclusions share is one node.
    A State's outcome that turns on facts missing or given as unknown has its alternatives under it, one node
    each; one the explanation does not derive is drawn all the same, by what it depends on (:func:`_open_outcome`).
    A State's outcome that depends on facts given as alternatives is argued under each, as `treaty explain` argues it
    (``cases``, by State: :func:`~pyhelpers.output.cases.argued_cases`): one node per alternative naming the value it is
    argued at, the lines that hold there below it; a line argued at the value explained that does not hold alike under
    every alternative is drawn below a node saying so ("at the explained value (...)")."""
    cases = cases or {}
    b = _Builder(gid, item.item_id, reconstructed)
    title = f"{item.item_id} · {term(item.income_type, lang)} · {shown_value(item.status, lang)}"
    title_en = f"{item.item_id} · {term(item.income_type, 'en')} · {item.status}"
    top = b.root("item", title, title_en, item.item_id)
    argued = {arg.state for arg, _ in arguments if arg.state is not None}
    states = [pair for pair in arguments if pair[0].state is not None]
    findings = [pair for pair in arguments if pair[0].state is None]
    only, marker = render.at_value_marking([c for pairs in cases.values() for c, _ in pairs])
    marker_en = render.at_value_marking([e or c for pairs in cases.values() for c, e in pairs])[1]
    for at, (arg, en) in enumerate([*states, *findings]):
        if at == len(states):  # after the States argued: those whose outcome is open on the facts given
            _open_outcomes(b, top, item, argued, lang, cases)
        heading = render.argument_heading(arg, item, lang)
        heading_en = render.argument_heading(en, item, "en") if en is not None else heading
        cid = b.node(("conclusion", arg.atom), Node("", "derived", heading, heading_en, arg.atom))
        b.edge(top, cid)
        mine = cases.get(arg.state, []) if arg.state is not None else []
        if arg.state is not None and not _each_argued(mine):
            _alternatives(b, cid, item, arg.state, lang)
        if _each_argued(mine):
            _cases(b, cid, mine, reconstructed)
            continue
        lines = list(arg.lines)
        en_lines: list[Line | None] = list(en.lines) if en is not None and len(en.lines) == len(lines) \
            else [None] * len(lines)
        sure = [(ln, e) for ln, e in zip(lines, en_lines, strict=True) if not only(ln)]
        there = [(ln, e) for ln, e in zip(lines, en_lines, strict=True) if only(ln)]
        _chain(b, cid, sure, reconstructed)
        if there:
            mid = b.node(("marker", arg.atom), Node("", "unknown", marker, marker_en, f"marker {arg.atom}"))
            b.edge(cid, mid)
            _chain(b, mid, there, reconstructed)
    if not findings:
        _open_outcomes(b, top, item, argued, lang, cases)
    return b.graph


def _each_argued(pairs: Sequence[CasePair]) -> bool:
    """Whether each alternative of a State's outcome is argued on its own (its cases name them)."""
    return bool(pairs) and not any(c.at_value_only for c, _ in pairs)


def _line_label(ln: Line) -> str:
    figures = [*ln.tested, *ln.comparisons]  # the tested facts and comparisons in the label
    return ln.reading + (f" ({'; '.join(figures)})" if figures else "")


def _chain(b: _Builder, above: str, lines: Sequence[tuple[Line, Line | None]], reconstructed: frozenset[str],
           scope: tuple[str, ...] = ()) -> None:
    """The lines of an argument below ``above``, each above the next (a line two conclusions share is one node; one of a
    case, ``scope`` naming it, is the case's own: the alternatives exclude each other, a chain never runs into
    another's)."""
    previous = above
    for line, line_en in lines:
        kind = "derived" if line.kind == "provision" else "failed"
        node = Node("", kind, _line_label(line), _line_label(line_en) if line_en is not None else _line_label(line),
                    f"{line.kind} {line.provision}", line.provision, ", ".join(line.rules) or None, None,
                    "; ".join(f for f in line.facts if f not in line.tested) or None,
                    line.provision in reconstructed)
        lid = b.node(("line", *scope, line.kind, line.provision, _line_label(line)), node)
        b.edge(previous, lid)
        previous = lid


def _cases(b: _Builder, cid: str, pairs: Sequence[CasePair], reconstructed: frozenset[str]) -> None:
    """Below a State's outcome, one node per case (the alternative and the value it is argued at), each over the lines
    of the argument there; where no alternative is argued on its own, the lines at the value explained below a node
    that says they hold there only."""
    for case, en in pairs:
        kid = b.node(("case", cid, case.condition),
                     Node("", "unknown", case.condition, en.condition if en is not None else case.condition,
                          f"case {case.condition}"))
        b.edge(cid, kid)
        en_lines: list[Line | None] = list(en.lines) if en is not None and len(en.lines) == len(case.lines) \
            else [None] * len(case.lines)
        _chain(b, kid, list(zip(case.lines, en_lines, strict=True)), reconstructed, ("case", kid))


def _open_outcomes(b: _Builder, top: str, item: ItemResult, argued: set[str], lang: str,
                   cases: dict[str, list[CasePair]] | None = None) -> None:
    """The States of ``item`` whose outcome is not ``argued`` (the explanation does not derive it: it turns on
    facts missing or given as unknown), each drawn as :func:`_open_outcome` draws it."""
    for outcome in item.states:
        if outcome.state not in argued:
            _open_outcome(b, top, item, outcome, lang, (cases or {}).get(outcome.state, []))


def _open_outcome(b: _Builder, top: str, item: ItemResult, outcome: StateOutcome, lang: str,
                  cases: Sequence[CasePair] = ()) -> None:
    """A State's outcome the explanation does not derive (it turns on facts missing or given as unknown): a
    node as `treaty check` words it ("Brazil: depends on ..."), and under it one node per alternative
    (:func:`_alternatives`), or per case where each alternative is argued on its own (:func:`_cases`)."""
    def heading(lang: str) -> str:
        return f"{render.state_name(outcome.state, lang)}: {render.state_outcome_text(outcome, item, lang)}"

    atom = f'state_outcome("{item.item_id}", {outcome.state}, {outcome.outcome})'
    cid = b.node(("conclusion", atom), Node("", "unknown", heading(lang), heading("en"), atom))
    b.edge(top, cid)
    if _each_argued(cases):
        _cases(b, cid, cases, b.reconstructed)
        return
    _alternatives(b, cid, item, outcome.state, lang)


def _alternatives(b: _Builder, cid: str, item: ItemResult, state: str, lang: str) -> None:
    """Under a State's outcome that turns on facts missing or given as unknown, one node per outcome it may take,
    with the facts it holds on, as `treaty check` words them ("may tax if ... is pt")."""
    for alt in item.alternatives:
        if alt.state == state:
            text = render.alternative_text(alt, lang, provisions=False)
            node = Node("", "unknown", text, render.alternative_text(alt, "en", provisions=False),
                        f"alternative {state} {alt.outcome}")
            b.edge(cid, b.node(("alternative", state, text), node))


def _arguments(ex: Explainer, item: str, roots: frozenset[str], lang: str,
               versions: tuple[str, ...]) -> list[tuple[Argument, Argument | None]]:
    """The argument of each conclusion of ``item`` in the report's language and in English."""
    saved = ex.lang
    try:
        ex.lang = "en"
        english = argument_for(ex, item, roots, versions=versions)
        ex.lang = lang
        local = argument_for(ex, item, roots, versions=versions) if lang != "en" else english
    finally:
        ex.lang = saved
    if len(local) != len(english):
        return [(a, None) for a in local]
    return list(zip(local, english, strict=True))


def query_graph(gid: str, text: str, holds: bool, steps: Sequence[tuple[Step, Step | None]], lang: str,
                reconstructed: frozenset[str] = frozenset()) -> Graph:
    """A why-not analysis as a graph: the query on top, the rules that could conclude it below."""
    title = f"{word('why_not', lang)} {text}" + (f": {word('holds', lang)}" if holds else "")
    title_en = f"{word('why_not', 'en')} {text}" + (f": {word('holds', 'en')}" if holds else "")
    b = _Builder(gid, title, reconstructed)
    top = b.root("item", title, title_en, text)
    if not steps:
        none = Step("failed", text, render.label("no_rule", lang))
        steps = [(none, Step("failed", text, render.label("no_rule", "en")))]
    for i, (step, en) in enumerate(steps):
        b.edge(top, b.add(step, en, str(i)))
    return b.graph


def why_not_graph(gid: str, text: str, answers: tuple[WhyNot, WhyNot], lang: str,
                  reconstructed: frozenset[str] = frozenset()) -> Graph:
    """A why-not query's answer as `treaty explain --why-not` gives it, as a graph: the query on top; where it
    does not hold, one node below it per rule that could have given it, with the condition that failed and its
    figures (:func:`~pyhelpers.output.render.why_not_line`); where it holds, the argument of each atom that
    matches it, drawn as an item's argument is (:func:`argument_graph`)."""
    answer, english = answers
    holds = answer.holds
    title = f"{word('why_not', lang)} {text}" + (f": {word('holds', lang)}" if holds else "")
    title_en = f"{word('why_not', 'en')} {text}" + (f": {word('holds', 'en')}" if holds else "")
    b = _Builder(gid, title, reconstructed)
    top = b.root("item", title, title_en, text)
    en_lines = english.lines if len(english.lines) == len(answer.lines) else answer.lines
    for line, line_en in zip(answer.lines, en_lines, strict=True):
        node = Node("", "failed", render.why_not_line(line, lang), render.why_not_line(line_en, "en"),
                    f"failed {line.provision}", line.provision or None, ", ".join(line.rules) or None,
                    reconstructed=line.provision in reconstructed)
        b.edge(top, b.node(("line", line.provision, node.reading), node))
    en_arguments = english.arguments if len(english.arguments) == len(answer.arguments) else answer.arguments
    for arg, arg_en in zip(answer.arguments, en_arguments, strict=True):
        cid = b.node(("conclusion", arg.atom), Node("", "derived", arg.reading, arg_en.reading, arg.atom))
        b.edge(top, cid)
        previous = cid
        for line in arg.lines:
            label = render.argument_line(line)
            lid = b.node(("argument", line.kind, line.provision, label),
                         Node("", "derived" if line.kind == "provision" else "failed", label, label,
                              f"{line.kind} {line.provision}", line.provision or None, ", ".join(line.rules) or None,
                              reconstructed=line.provision in reconstructed))
            b.edge(previous, lid)
            previous = lid
    if not holds and not answer.lines:
        b.edge(top, b.node(("none",), Node("", "failed", render.label("no_rule", lang), render.label("no_rule", "en"),
                                           text)))
    return b.graph


# --------------------------------------------------------------------------------- the report ---


def provision_index(logic: Logic) -> dict[str, list[tuple[str, str]]]:
    """Every quoted paragraph (``%|`` lines) by its provision → [(label, text), ...]."""
    out: dict[str, list[tuple[str, str]]] = {}
    for lf in logic.files:
        for label, text, _line in lf.texts:
            base = label.split(",")[0].strip()
            entry = (label, text)
            if entry not in out.setdefault(base, []):
                out[base].append(entry)
    return out


def provision_texts(index: dict[str, list[tuple[str, str]]], provision: str) -> list[tuple[str, str]]:
    """The treaty text of a provision: its own paragraphs; for an article or paragraph without its own
    text, the texts of its parts; else the text of the nearest enclosing provision that has one."""
    if provision in index:
        return index[provision]
    parts = [(k, v) for k, v in index.items() if k.startswith(provision + "(")]
    if parts:
        parts.sort(key=lambda kv: provision_key(kv[0]))
        return [entry for _, texts in parts for entry in texts]
    current = provision
    while (m := re.fullmatch(r"(.*)\([^()]*\)", current)) is not None:
        current = m.group(1)
        if current in index:
            return index[current]
    return []


def build_report(checker: Checker, scenarios: Sequence[tuple[str, Scenario, bytes]], lang: str,
                 roots: Iterable[str], queries: Sequence[Query] = (),
                 progress: Callable[[int], None] | None = None) -> Report:
    """Evaluate and explain every scenario ``(source, scenario, file bytes)``: the derivation of each of
    its items' ``roots`` atoms (conclusions and findings), and the why-not analysis of each query (drawn
    under the item the query names, asked of the scenarios that have it; a query naming no item is
    asked of every scenario). ``progress(1)`` is told after each scenario."""
    root_names = frozenset(roots) | JUDGMENT_ROOTS
    known = {item.id for _, scenario, _ in scenarios for item in scenario.income}
    for query in queries:
        target = _query_item(query)
        if target is not None and target not in known:
            raise InputError(f"--why-not {query.text}: no scenario has an income item {target!r} "
                             f"(items: {', '.join(sorted(known))})")
    reconstructed = checker.reconstructed_provisions
    out: list[ScenarioReport] = []
    for si, (source, scenario, raw) in enumerate(scenarios):
        result = checker.check(scenario, source=source)
        ex = explain_scenario(checker, scenario, "en")
        by_item: dict[str, list[clingo.Symbol]] = {}
        for sym in sorted(ex.true):
            if sym.name in root_names and len(sym.arguments) > 1 \
                    and sym.arguments[1].type == clingo.SymbolType.String:
                by_item.setdefault(sym.arguments[1].string, []).append(sym)
        items = []
        argued = {}
        for item in result.items:
            chosen = next((i for i in scenario.income if i.id == item.item_id), None)
            versions = checker.versions(scenario.treaty, chosen) if chosen is not None else ()
            argued[item.item_id] = _arguments(ex, item.item_id, root_names, lang, versions)
        cases = _item_cases(checker, scenario, result, argued, lang)
        for ii, item in enumerate(result.items):
            atoms = by_item.get(item.item_id, [])
            own = (item.item_id,) if any(i.id == item.item_id for i in scenario.income) else ()
            trees = [(render.step_with_field(step, finding_named(sym, own, scenario), lang),
                      render.step_with_field(en, finding_named(sym, own, scenario), "en"))
                     for sym, (step, en) in zip(atoms, _trees(ex, atoms, lang), strict=True)]
            graph = item_graph(f"s{si}i{ii}", item, trees, lang, reconstructed)
            argument = argument_graph(f"s{si}a{ii}", item, argued[item.item_id], lang, reconstructed,
                                      cases.get(item.item_id))
            items.append(ItemReport(item, graph, argument=argument, cased=item.item_id in cases))
        report = ScenarioReport(source, raw.decode("utf-8", errors="replace"), hashlib.sha256(raw).hexdigest(),
                                scenario, result, checker.facts(scenario), items)
        ids = {it.result.item_id: it for it in items}
        asked = [(qi, q, _query_item(q)) for qi, q in enumerate(queries)]
        asked = [(qi, q, target) for qi, q, target in asked if target is None or target in ids]
        full = explain_scenario(checker, scenario, "en", every_rule=True) if asked else None
        for qi, query, target in asked:
            assert full is not None
            holds, steps, answers = _why_not_steps(full, query, lang)
            graph = query_graph(f"s{si}w{qi}", query.text, holds, steps, lang, reconstructed)
            short = why_not_graph(f"s{si}v{qi}", query.text, answers, lang, reconstructed)
            owner: ItemReport | ScenarioReport = ids[target] if target is not None else report
            owner.why_not.append(short)
            owner.why_not_full.append(graph)
        out.append(report)
        if progress is not None:
            progress(1)
    index = provision_index(checker.logic)
    texts: dict[str, list[tuple[str, str]]] = {}
    for s in out:
        for it in s.items:
            for prov in item_provisions(it):
                texts.setdefault(prov, provision_texts(index, prov))
        for g in (*s.why_not, *s.why_not_full):
            for prov in g.provisions():
                texts.setdefault(prov, provision_texts(index, prov))
    return Report(lang, out, dict(sorted(texts.items(), key=lambda kv: provision_key(kv[0]))))


def _item_cases(checker: Checker, scenario: Scenario, result: ScenarioResult,
                argued: dict[str, list[tuple[Argument, Argument | None]]], lang: str
                ) -> dict[str, dict[str, list[CasePair]]]:
    """By item and State: the cases of each State's outcome that depends on facts given as alternatives, in the
    report's language and in English (:func:`~pyhelpers.output.cases.argued_cases`: each value explained once)."""
    from pyhelpers.output.cases import argued_cases

    if not scenario.unknowns:
        return {}
    by_lang = {lang: [(iid, [a for a, _ in pairs]) for iid, pairs in argued.items()]}
    if lang != "en":
        by_lang["en"] = [(iid, [e if e is not None else a for a, e in pairs]) for iid, pairs in argued.items()]
    found = argued_cases(checker, scenario, result, by_lang)
    out: dict[str, dict[str, list[CasePair]]] = {}
    for (iid, state), local in found[lang].items():
        english: list[render.Case | None] = list(found["en"].get((iid, state), [])) if lang != "en" else list(local)
        if len(english) != len(local):
            english = [None] * len(local)
        out.setdefault(iid, {})[state] = list(zip(local, english, strict=True))
    return out


def _query_item(query: Query) -> str | None:
    """The item a query is about: its first argument, when that is a string."""
    args = query.pattern.arguments
    if len(args) > 1 and args[1].ast_type == ASTType.SymbolicTerm and args[1].symbol.type == clingo.SymbolType.String:
        return str(args[1].symbol.string)
    return None


_PROVISION_LIKE = re.compile(r"^br-[a-z]{2}\b")


def item_provisions(it: ItemReport) -> list[str]:
    """Every provision an item's report cites: its outcome, its findings, and every step drawn."""
    res = it.result
    provs = set(res.provisions) | {p for s in res.states for p in s.provisions}
    provs |= {f.provision for f in res.findings if _PROVISION_LIKE.match(f.provision)}
    for g in (it.graph, *it.why_not, *it.why_not_full, *([it.argument] if it.cased and it.argument else [])):
        provs |= set(g.provisions())
    return sorted(provs, key=provision_key)


# ------------------------------------------------------------------------------ drawing (dot) ---


def find_dot() -> str | None:
    """The path of Graphviz's ``dot``, or None."""
    return shutil.which("dot")


def dot_version(dot: str) -> str:
    done = subprocess.run([dot, "-V"], capture_output=True, text=True, timeout=30, check=False)
    m = re.search(r"graphviz version (\S+)", done.stderr + done.stdout)
    return f"Graphviz {m.group(1)}" if m else "Graphviz"


_STYLE = {
    "item": 'shape=box, style="filled,bold", fillcolor="#1f3b57", color="#1f3b57", fontcolor="white", fontsize=12',
    "derived": 'shape=box, style="rounded,filled", fillcolor="#e8f0fe", color="#3b6db3"',
    "given": 'shape=box, style="filled", fillcolor="#e6f4ea", color="#5a8f5a"',
    "static": 'shape=box, style="filled", fillcolor="#f1f3f4", color="#9aa0a6"',
    "not": 'shape=box, style="rounded,dashed", color="#80868b"',
    "test": 'shape=box, style="rounded", color="#80868b", fontsize=9',
    "aggregate": 'shape=box, style="rounded", color="#80868b", fontsize=9',
    "failed": 'shape=box, style="rounded,filled,dashed", fillcolor="#fce8e6", color="#c5221f", penwidth=2',
    "unknown": 'shape=box, style="filled,dashed", fillcolor="#fef7e0", color="#e37400"',
}


def _dot_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def node_label(node: Node, lang: str, width: int = 34) -> str:
    """The text drawn in a node: the reading, wrapped; the provision; the marks."""
    lines = textwrap.wrap(node.reading, width, break_long_words=True, break_on_hyphens=False) or [node.atom]
    if node.kind == "test" and node.note:
        lines[-1] += "  " + node.note.split(":")[-1].strip()
    if node.provision:
        lines.append(f"§ {readings.provision_text(node.provision, lang)}")  # "Protocolo 9" in Portuguese
    if node.reconstructed:
        lines.append(word("reconstructed", lang))
    if node.judgment:
        lines.append(word("judgment", lang))
    return "\n".join(lines)


def node_classes(node: Node) -> str:
    classes = ["step", node.kind]
    if node.reconstructed:
        classes.append("reconstructed")
    if node.judgment:
        classes.append("judgment")
    return " ".join(classes)


def dot_source(graph: Graph, lang: str) -> str:
    """The graph in the DOT language: conclusions on top, facts below."""
    lines = [
        f"digraph {_dot_string(graph.id)} {{",
        f'  graph [id={_dot_string(graph.id)}, rankdir=TB, nodesep=0.2, ranksep=0.3, bgcolor="transparent"];',
        '  node [fontname="DejaVu Sans", fontsize=10, margin="0.10,0.05", penwidth=1.2];',
        '  edge [color="#9aa0a6", arrowsize=0.6, dir=back];',
    ]
    for n in graph.nodes:
        extra = []
        if n.reconstructed:
            extra.append('peripheries=2, color="#8e24aa"')
        if n.judgment:
            extra.append('fillcolor="#fff8c5", color="#b08800", penwidth=2')
        attrs = ", ".join([_STYLE.get(n.kind, _STYLE["derived"]), *extra,
                           f"id={_dot_string(n.id)}", f"class={_dot_string(node_classes(n))}",
                           f"label={_dot_string(node_label(n, lang))}"])
        lines.append(f"  {n.id} [{attrs}];")
    for i, (a, b) in enumerate(graph.edges):
        lines.append(f"  {a} -> {b} [id={_dot_string(f'{graph.id}e{i}')}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


class DotError(Exception):
    """``dot`` failed on a graph."""


def run_dot(dot: str, source: str) -> str:
    """SVG from ``dot -Tsvg``."""
    try:
        done = subprocess.run([dot, "-Tsvg"], input=source.encode("utf-8"), capture_output=True, timeout=300,
                              check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise DotError(str(err)) from None
    if done.returncode != 0:
        raise DotError(done.stderr.decode("utf-8", errors="replace").strip().splitlines()[-1:][0]
                       if done.stderr.strip() else f"exit code {done.returncode}")
    return done.stdout.decode("utf-8")


_SVG_DROP = [
    re.compile(r"<\?xml[^>]*\?>\s*"),
    re.compile(r"<!DOCTYPE[^>]*>\s*"),
    re.compile(r"<!--.*?-->\s*", re.S),
    re.compile(r'\s+xmlns(?::xlink)?="[^"]*"'),
]


def inline_svg(svg: str, graph: Graph) -> str:
    """``dot``'s SVG made fit to sit inside HTML: no prolog, doctype, comments or namespace URLs; each
    node's tooltip is its provision and reading; edges carry no tooltip."""
    for pattern in _SVG_DROP:
        svg = pattern.sub("", svg)
    tips = {n.id: (f"{n.provision}: " if n.provision else "") + n.reading for n in graph.nodes}

    def title(m: re.Match[str]) -> str:
        name = html.unescape(m.group(1))
        if name in tips:
            return f"<title>{html.escape(tips[name], quote=False)}</title>"
        if name == graph.id:
            return f"<title>{html.escape(graph.title, quote=False)}</title>"
        return ""

    svg = re.sub(r"<title>(.*?)</title>\n?", title, svg)
    svg = svg.replace('font-family="DejaVu Sans"', 'font-family="DejaVu Sans,Verdana,sans-serif"')
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{html.escape(graph.title)}" ', 1)
    return svg.strip()


# ------------------------------------------------------------------------------ HTML rendering ---


def _e(text: object) -> str:
    return html.escape(str(text))


def max_tax(item: ItemResult) -> Decimal | None:
    """The cap times the gross amount: the result's own figure where it has one (issue 8), else computed."""
    own = getattr(item, "max_source_tax", None)
    if isinstance(own, Decimal):
        return own
    if item.limited_to is not None or item.limit_base_open is not None:  # the base is not the gross
        return None
    if item.gross is None or item.max_rate_bp is None:
        return None
    return (item.gross * Decimal(item.max_rate_bp) / Decimal(10000)).quantize(Decimal("0.01"), ROUND_HALF_UP)


def compliance_text(item: ItemResult, lang: str) -> str | None:
    """The withholding compliance finding of an item, or None while the result carries none. Reads the
    result's ``compliance`` (issue 8) and renders it as ``check`` does."""
    comp = getattr(item, "compliance", None)
    if comp is None:
        return None
    line = getattr(render, "compliance_line", None)
    return str(line(comp, lang)) if callable(line) else str(comp)


def _states_cell(item: ItemResult, lang: str) -> str:
    return " · ".join(render.state_name(s.state, lang) for s in item.states)


def _cap_cell(item: ItemResult, lang: str) -> str:
    """The source State's cap (``10%``), or the highest it may be whatever the missing facts (``15% at most``)."""
    at_most = render.short_word("cap_at_most", lang)
    caps = []
    for s in item.states:
        if s.max_rate_bp is not None:
            caps.append(formats.percent_bp(s.max_rate_bp, lang))
        elif s.outcome == "undetermined" and s.at_most_bp is not None:
            caps.append(at_most.format(rate=formats.percent_bp(s.at_most_bp, lang)))
    if caps:
        return ", ".join(caps)
    return formats.percent_bp(item.max_rate_bp, lang) if item.max_rate_bp is not None else "—"


def _money(value: Decimal | None, currency: str | None, lang: str) -> str:
    return "—" if value is None else formats.amount(value, currency, lang)


def _field_cell(f: Finding, lang: str) -> str:
    """The scenario field that states a missing or unknown fact (or removes an assumption), or a dash."""
    path = f.field if f.kind != "assumption" else f.field or render.assumption_field(f)
    return "—" if path is None else f"<code>{_e(field_text(path, lang))}</code>"


def _fact_cell(f: Finding, lang: str) -> str:
    """A missing or unknown fact (or an assumption) in ``lang``'s words where it has them, else as the
    rules name it (``<code>``)."""
    fact = f.fact or ""
    words = readings.constant_text(fact, lang) if f.kind == "assumption" else readings.fact_text(fact, lang)
    return f"<code>{_e(fact)}</code>" if words == fact else _e(words)


def _finding_text(f: Finding, lang: str) -> str:
    try:
        return render.finding_text(f, lang)
    except KeyError:
        return str(f)


short_outcome = render.short_outcome
"""A State's outcome in a few words (:func:`pyhelpers.output.render.short_outcome`)."""


SUMMARY_COLUMNS = ("item", "type", "treaty", "states", "per_state", "cap", "max_tax", "compliance", "status",
                   "outcome")


def summary_html(report: Report) -> str:
    """One row per item, under a row naming its scenario."""
    lang = report.lang
    rows = []
    for s in report.scenarios:
        rows.append(f'<tr class="group"><th colspan="{len(SUMMARY_COLUMNS)}">{_e(s.result.name)} '
                    f'<span class="src">{_e(s.source)}</span></th></tr>')
        for it in s.items:
            rows.append(_summary_row(it, lang))
    th = "".join(f"<th>{_e(word(h, lang))}</th>" for h in SUMMARY_COLUMNS)
    return (f'<section class="summary"><h2>{_e(word("summary", lang))}</h2>'
            f'<table class="summary-table"><thead><tr>{th}</tr></thead><tbody>\n' + "\n".join(rows)
            + "\n</tbody></table></section>")


def _summary_row(it: ItemReport, lang: str) -> str:
    r = it.result
    per_state = "<br>".join(f"{_e(render.state_name(x.state, lang))}: {_e(short_outcome(x, lang))}" for x in r.states)
    outcome = "<br>".join(f"{_e(render.state_name(x.state, lang))}: "
                          f"{_e(render.outcome_text(x, lang, part=render.cap_base(r)))}"
                          + (f' <span class="prov">({_e("; ".join(x.provisions))})</span>'
                             if x.provisions else "") for x in r.states)
    outcome += "".join(f'<br><span class="alternative">{_e(render.state_name(a.state, lang) + ": " if a.state else "")}'
                       f"{_e(render.alternative_text(a, lang))}</span>" for a in r.alternatives)
    comp = compliance_text(r, lang)
    cells = [
        f'<td><a href="#{it.graph.id}-section"><code>{_e(r.item_id)}</code></a></td>',
        f"<td>{_e(term(r.income_type, lang))}</td>",
        f"<td>{_e(r.treaty)}</td>",
        f"<td>{_e(_states_cell(r, lang))}</td>",
        f"<td>{per_state}</td>",
        f"<td>{_e(_cap_cell(r, lang))}</td>",
        f'<td class="num">{_e(_money(max_tax(r), r.currency, lang))}</td>',
        f'<td class="compliance">{_e(comp) if comp else "—"}</td>',
        f'<td><span class="status status-{_e(r.status)}">{_e(shown_value(r.status, lang))}</span></td>',
        f"<td>{outcome}</td>",
    ]
    return f'<tr data-item="{_e(r.item_id)}">' + "".join(cells) + "</tr>"


def _legend(lang: str) -> str:
    keys = ["item", "derived", "given", "static", "not", "test", "failed", "unknown", "reconstructed", "judgment"]
    spans = "".join(f'<span class="key key-{k}">{_e(word("k_" + k, lang))}</span>' for k in keys)
    return f'<p class="legend"><strong>{_e(word("legend", lang))}:</strong> {spans}</p>'


def _tree_html(graph: Graph, lang: str) -> str:
    """The fallback drawing: the graph as an indented tree; a node met again is a reference (↑)."""
    children = graph.children()
    by_id = {n.id: n for n in graph.nodes}
    expanded: set[str] = set()

    def item(nid: str) -> str:
        n = by_id[nid]
        cls = node_classes(n)
        text = n.reading + (f"  [{n.provision}]" if n.provision else "")
        if n.kind == "test" and n.note:
            text += f"  {n.note.split(':')[-1].strip()}"
        if nid in expanded and children[nid]:
            return f'<li><span class="{cls} ref" data-node="{nid}" tabindex="0">↑ {_e(text)}</span></li>'
        expanded.add(nid)
        marks = "".join(f' <span class="mark">{_e(m)}</span>' for m, on in (
            (word("reconstructed", lang), n.reconstructed), (word("judgment", lang), n.judgment)) if on)
        inner = "".join(item(c) for c in children[nid])
        sub = f"<ul>{inner}</ul>" if inner else ""
        return f'<li><span class="{cls}" data-node="{nid}" tabindex="0">{_e(text)}</span>{marks}{sub}</li>'

    return f'<ul class="tree">{item(graph.nodes[0].id)}</ul>' if graph.nodes else ""


@dataclass
class _Drawer:
    """Draws graphs with ``dot`` while it works; after a failure, as trees (the report says why)."""

    dot: str | None
    error: str | None = None

    def draw(self, graph: Graph, lang: str) -> tuple[str, str]:
        """(kind, html): ``svg`` or ``tree``."""
        if self.dot is not None and self.error is None:
            try:
                return "svg", inline_svg(run_dot(self.dot, dot_source(graph, lang)), graph)
            except DotError as err:
                self.error = str(err)
        return "tree", _tree_html(graph, lang)


def _graph_html(drawer: _Drawer, graph: Graph, lang: str, heading: str) -> str:
    kind, body = drawer.draw(graph, lang)
    button = (f'<button type="button" class="fit no-print" data-fit="{graph.id}">{_e(word("fit", lang))}</button>'
              if kind == "svg" else "")
    return (f'<div class="graph-block"><h3>{_e(heading)}</h3>{button}'
            f'<div class="graph graph-{kind}" id="graph-{graph.id}" data-graph="{graph.id}" '
            f'data-nodes="{len(graph.nodes)}">{body}</div>'
            f'<div class="detail no-print" id="detail-{graph.id}" aria-live="polite">'
            f'<p class="hint">{_e(word("hint", lang))}</p></div></div>')


def _provisions_table(provs: Sequence[str], texts: dict[str, list[tuple[str, str]]], lang: str) -> str:
    rows = []
    for p in provs:
        quoted = texts.get(p, [])
        body = "".join(f'<p lang="pt"><span class="label">{_e(label)}</span> {_e(text)}</p>'
                       for label, text in quoted) or f'<p class="muted">{_e(word("no_text", lang))}</p>'
        rows.append(f'<tr data-provision="{_e(p)}"><th scope="row">{_e(p)}</th><td>{body}</td></tr>')
    return (f'<details open class="provisions"><summary>{_e(word("provisions", lang))}</summary>'
            f'<table><thead><tr><th>{_e(word("provision", lang))}</th><th>{_e(word("text_pt", lang))}</th></tr>'
            f'</thead><tbody>' + "".join(rows) + "</tbody></table></details>")


def _item_html(drawer: _Drawer, s: ScenarioReport, it: ItemReport, texts: dict[str, list[tuple[str, str]]],
               lang: str) -> str:
    r = it.result
    gross = f" — {_money(r.gross, r.currency, lang)}" if r.gross is not None else ""
    parts = [f'<section class="item" id="{it.graph.id}-section" data-item="{_e(r.item_id)}">',
             f'<h2><code>{_e(r.item_id)}</code> {_e(term(r.income_type, lang))}{_e(gross)} '
             f'<span class="status status-{_e(r.status)}">{_e(shown_value(r.status, lang))}</span></h2>',
             f'<p class="meta">{_e(s.result.name)} — <code>{_e(s.source)}</code> — {_e(r.treaty)}, '
             f'{_e(word("evaluated", lang))} {_e(formats.date(s.result.evaluation_date, lang))}</p>',
             '<ul class="outcomes">']
    for x in r.states:
        provs = f' <span class="prov">({_e("; ".join(x.provisions))})</span>' if x.provisions else ""
        parts.append(f"<li><strong>{_e(render.state_name(x.state, lang))}</strong>: "
                     f"{_e(render.outcome_text(x, lang, part=render.cap_base(r)))}{provs}</li>")
    tax = max_tax(r)
    if tax is not None:
        parts.append(f"<li>{_e(word('max_tax', lang))}: {_e(_money(tax, r.currency, lang))}</li>")
    comp = compliance_text(r, lang)
    parts.append(f'<li class="compliance">{_e(word("compliance", lang))}: {_e(comp) if comp else "—"}</li>')
    if r.entitlement is not None:
        parts.append(f'<li class="entitlement">{_e(render.entitlement_line(r.entitlement, lang))}</li>')
    parts.append("</ul>")
    if r.findings or r.assumptions:
        parts.append(f'<h3>{_e(word("findings", lang))}</h3><ul class="findings">'
                     + "".join(f'<li class="finding finding-{_e(f.kind)}">{_e(_finding_text(f, lang))}</li>'
                               for f in (*r.findings, *r.assumptions)) + "</ul>")
    if r.relief is not None:
        lines = render.relief_lines(r.relief, lang)
        if lines:
            parts.append(f'<p class="relief">{_e(lines[0])} ' + "; ".join(_e(x) for x in lines[1:]) + "</p>")
    if r.reconstructed:
        parts.append(f'<p class="warning">{_e(render.label("reconstructed", lang))}: '
                     f'{_e("; ".join(r.reconstructed))}</p>')
    if it.argument is not None and len(it.argument.nodes) > 1:
        parts.append(_graph_html(drawer, it.argument, lang, word("argument", lang)))
        parts.append(f'<details class="full-derivation" data-full="{it.graph.id}"><summary>'
                     f'{_e(word("full_derivation", lang))}</summary>'
                     + _graph_html(drawer, it.graph, lang, word("derivation", lang)) + "</details>")
    elif len(it.graph.nodes) > 1:
        parts.append(_graph_html(drawer, it.graph, lang, word("derivation", lang)))
    else:
        parts.append(f'<p class="muted">{_e(word("no_graph", lang))}</p>')
    parts += _why_not_html(drawer, it.why_not, it.why_not_full, lang)
    parts.append(_provisions_table(item_provisions(it), texts, lang))
    parts.append("</section>")
    return "\n".join(parts)


def _why_not_html(drawer: _Drawer, short: Sequence[Graph], full: Sequence[Graph], lang: str) -> list[str]:
    """Each why-not query: its answer, a line per rule that could have given it (drawn), and its whole analysis
    behind a toggle, as an item's full derivation is."""
    parts = []
    for answer, whole in zip(short, full, strict=True):
        parts.append(_graph_html(drawer, answer, lang, answer.title))
        parts.append(f'<details class="full-derivation full-why-not" data-full="{whole.id}"><summary>'
                     f'{_e(word("full_why_not", lang))}</summary>'
                     + _graph_html(drawer, whole, lang, whole.title) + "</details>")
    return parts


def _unknown_field(given: str, result: ScenarioResult) -> str | None:
    """Where the scenario gives the fact ``given`` as unknown (``subject: attribute``, :meth:`ScenarioReport.unknowns`),
    as the user writes it: the field of the open fact of ``result`` about that subject and attribute
    (``income[1].immovable_property.situated_in``), or None."""
    subject, _, attribute = given.partition(": ")
    for u in result.unknowns:
        about = re.search(rf"\({re.escape(subject)}[,)]", u.fact) or f".{subject}." in f".{u.fact}"
        if u.field and about and u.fact.endswith(f".{attribute}"):
            return u.field
    return None


def _scenario_html(drawer: _Drawer, s: ScenarioReport, si: int, report: Report, engine: str) -> str:
    lang = report.lang
    res = s.result
    rc = res.receipt
    mark = word("incomplete", lang)
    why = render.incomplete_text(res.incomplete, lang)
    parts = [f'<section class="scenario" id="scenario-{si}">',
             f'<h1>{_e(mark)}: {_e(res.name)}</h1>\n<p class="incomplete"><strong>{_e(mark)}</strong>: '
             f'{_e(why)}</p>' if why else f'<h1>{_e(res.name)}</h1>',
             f'<p class="meta"><code>{_e(s.source)}</code> — {_e(res.treaty)}, {_e(word("evaluated", lang))} '
             f'{_e(formats.date(res.evaluation_date, lang))}</p>',
             *([f'<p class="caveat">{_e(caveat)}</p>'] if (caveat := render.caveat_text(res.treaty, lang)) else []),
             f'<h2>{_e(word("unknowns", lang))}</h2>']
    unknowns = s.unknowns()
    parts.append(f'<p>{_e(word("given_unknown", lang))}: '
                 + (", ".join(f"<code>{_e(u)}</code>" + (f" (<code>{_e(field_text(path, lang))}</code>)"
                                                          if (path := _unknown_field(u, res)) else "")
                              for u in unknowns) if unknowns else _e(word("none", lang)))
                 + "</p>")
    needed = [(it.result.item_id, f) for it in s.items for f in (*it.result.findings, *it.result.assumptions)
              if f.kind in ("missing", "depends", "requires_judgment", "assumption")]
    if needed:
        parts.append(f'<table class="missing"><caption>{_e(word("missing_facts", lang))}</caption><thead><tr>'
                     f'<th>{_e(word("item", lang))}</th><th>{_e(word("kind", lang))}</th>'
                     f'<th>{_e(word("fact", lang))}</th><th>{_e(word("field", lang))}</th>'
                     f'<th>{_e(word("provision", lang))}</th></tr></thead><tbody>'
                     + "".join(f'<tr class="finding-{_e(f.kind)}"><td><code>{_e(iid)}</code></td>'
                               f'<td>{_e(readings.translated(f.kind, lang) or f.kind)}</td>'
                               f"<td>{_fact_cell(f, lang)}</td><td>{_field_cell(f, lang)}</td>"
                               f"<td>{_e(f.provision)}</td></tr>"
                               for iid, f in needed) + "</tbody></table>")
    else:
        parts.append(f'<p>{_e(word("missing_facts", lang))}: {_e(word("none", lang))}</p>')
    for short, full in zip(s.why_not, s.why_not_full, strict=True):
        parts += _why_not_html(drawer, [short], [full], lang)
        parts.append(_provisions_table(sorted({*short.provisions(), *full.provisions()}, key=provision_key),
                                       report.texts, lang))
    parts.append("</section>")
    for it in s.items:
        parts.append(_item_html(drawer, s, it, report.texts, lang))
    reproduce = f"treaty report {s.source} -o report.html --lang {lang}"
    receipt = [("version", rc.package_version), ("clingo", rc.clingo_version), ("logic", rc.logic_sha256),
               ("facts_hash", rc.facts_sha256), ("file_hash", s.source_sha256), ("graphviz", engine),
               ("language", lang), ("reproduce", reproduce)]
    parts.append(f'<section class="appendix" id="scenario-{si}-facts"><h2>{_e(word("facts", lang))}: '
                 f'<code>{_e(s.source)}</code></h2><pre class="yaml">{_e(s.source_text)}</pre>'
                 f'<details class="atoms"><summary>{_e(word("facts_atoms", lang))} ({len(s.facts)})</summary>'
                 f'<pre>{_e(chr(10).join(s.facts))}</pre></details>')
    parts.append(f'<h2>{_e(word("receipt", lang))}</h2><table class="receipt"><tbody>'
                 + "".join(f'<tr><th scope="row">{_e(word(k, lang))}</th><td><code>{_e(v)}</code></td></tr>'
                           for k, v in receipt) + "</tbody></table></section>")
    return "\n".join(parts)


_VERBATIM = re.compile(r"<pre\b.*?</pre>|<code>.*?</code>", re.S)
"""The report's copies of the scenario and its facts, written as they are."""


def _provision_words(page: str, lang: str) -> str:
    """The report's text with a Protocol item cited in ``lang``'s words (:func:`render.provision_words`); the
    scenario's copy and the facts in code as they are, the provision ids of attributes (in quotes) kept."""
    out, at = [], 0
    for m in _VERBATIM.finditer(page):
        out += [render.provision_words(page[at:m.start()], lang), m.group(0)]
        at = m.end()
    return "".join([*out, render.provision_words(page[at:], lang)])


def _data_json(report: Report) -> str:
    lang = report.lang
    words = {k: word(k, lang) for k in ("no_provision", "given", "static", "reading_en", "reading", "rule", "no_text",
                                        "reconstructed", "judgment", "hint")}
    data = {
        "lang": lang,
        "words": words,
        "nodes": {n.id: {**d, "reading": render.provision_words(d["reading"], lang)} if "reading" in d else d
                  for g in report.graphs() for n in g.nodes for d in (n.to_data(),)},
        "texts": {p: [list(t) for t in texts] for p, texts in report.texts.items()},
    }
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def render_html(report: Report, dot: str | None) -> str:
    """The whole report: one HTML document with everything inline."""
    lang = report.lang
    drawer = _Drawer(dot)
    engine = dot_version(dot) if dot is not None else "—"
    sections = [_scenario_html(drawer, s, si, report, engine) for si, s in enumerate(report.scenarios)]
    if dot is None:
        note = word("engine_none", lang)
    elif drawer.error is not None:
        note = word("engine_failed", lang).format(error=drawer.error)
    else:
        note = word("engine_dot", lang).format(version=engine)
    n_items = len(report.items())
    title = word("title", lang)
    if any(s.result.incomplete for s in report.scenarios):  # said first: in the title and the headline
        title = f'{word("incomplete", lang)}: {title}'
    head = (f'<!DOCTYPE html>\n<html lang="{"pt-BR" if lang == "pt" else lang}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<meta name="generator" content="treaty-logic">\n<title>{_e(title)}</title>\n'
            f"<style>\n{_CSS}</style>\n</head>\n<body>\n")
    counted = word("multiple", lang).format(n=formats.number(len(report.scenarios), lang),
                                            m=formats.number(n_items, lang))
    top = (f'<header><p class="brand">treaty-logic</p><h1>{_e(title)}</h1>'
           f'<p>{_e(counted)}: '
           + ", ".join(f"<code>{_e(s.source)}</code>" for s in report.scenarios) + "</p>"
           f'<p class="engine" data-engine="{"dot" if dot is not None and drawer.error is None else "tree"}">'
           f"{_e(note)}</p>{_legend(lang)}</header>\n")
    body = _provision_words(top + summary_html(report) + "\n" + "\n".join(sections), lang)
    script = (f'<script type="application/json" id="report-data">{_data_json(report)}</script>\n'
              f"<script>\n{_JS}</script>\n")
    return head + body + "\n" + script + "</body>\n</html>\n"


_CSS = """\
:root { --ink: #202124; --muted: #5f6368; --line: #dadce0; --accent: #1f3b57; }
* { box-sizing: border-box; }
body { font: 14px/1.45 "DejaVu Sans", Verdana, system-ui, sans-serif; color: var(--ink); margin: 0 auto;
       max-width: 1200px; padding: 16px 24px 48px; }
h1 { font-size: 1.5em; margin: .6em 0 .2em; } h2 { font-size: 1.2em; margin: 1.2em 0 .4em; }
p.incomplete { border-left: 4px solid #b3261e; padding-left: 8px; }
h3 { font-size: 1.05em; margin: 1em 0 .3em; display: inline-block; }
code, pre { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .92em; }
pre { background: #f8f9fa; border: 1px solid var(--line); padding: 8px 10px; overflow: auto; white-space: pre-wrap; }
table { border-collapse: collapse; width: 100%; margin: .4em 0 1em; }
th, td { border: 1px solid var(--line); padding: 4px 6px; text-align: left; vertical-align: top; }
thead th { background: #f1f3f4; }
td.num { text-align: right; white-space: nowrap; }
.src { font-weight: normal; font-size: .85em; color: var(--muted); margin-left: .6em; }
tr.group th { background: #f8f9fa; border-top: 2px solid var(--accent); }
.brand { color: var(--muted); margin: 0; font-size: .9em; letter-spacing: .05em; text-transform: uppercase; }
.meta, .muted, .hint, .prov { color: var(--muted); } .prov { font-size: .9em; }
.status { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: .85em; background: #e8eaed; }
.status-decided { background: #e6f4ea; color: #137333; } .status-error { background: #fce8e6; color: #a50e0e; }
.status-missing, .status-depends { background: #fef7e0; color: #8a5300; }
.status-pending, .status-not_encoded { background: #f3e8fd; color: #6a1b9a; }
.warning { color: #8e24aa; font-weight: bold; }
.legend .key { display: inline-block; margin: 2px 6px 2px 0; padding: 0 6px; border: 1px solid; border-radius: 4px;
               font-size: .85em; }
.key-item { background: #1f3b57; color: #fff; } .key-derived { background: #e8f0fe; border-color: #3b6db3; }
.key-given { background: #e6f4ea; border-color: #5a8f5a; } .key-static { background: #f1f3f4; border-color: #9aa0a6; }
.key-not, .key-test { border-style: dashed; border-color: #80868b; }
.key-failed { background: #fce8e6; border-color: #c5221f; border-style: dashed; }
.key-unknown { background: #fef7e0; border-color: #e37400; border-style: dashed; }
.key-reconstructed { border: 3px double #8e24aa; } .key-judgment { background: #fff8c5; border-color: #b08800; }
.graph-block { margin: .8em 0; }
.fit { margin-left: 1em; font-size: .8em; }
.graph { border: 1px solid var(--line); border-radius: 4px; overflow: auto; max-height: 85vh; background: #fff; }
.graph.fitted svg { width: 100%; height: auto; }
.graph g.node { cursor: pointer; }
.graph g.node.selected polygon, .graph g.node.selected path { stroke: #d93025; stroke-width: 3px; }
.detail { border-left: 4px solid var(--accent); background: #f8f9fa; padding: 6px 12px; margin-top: 6px;
          min-height: 3em; }
.detail .head { font-weight: bold; } .detail .mark { color: #8e24aa; margin-left: .6em; }
.detail blockquote { margin: .4em 0; padding: .2em .8em; border-left: 3px solid #9aa0a6; background: #fff; }
.label { font-weight: bold; margin-right: .3em; }
ul.tree, ul.tree ul { list-style: none; padding-left: 1.2em; margin: 0; }
ul.tree { padding: 6px 8px; }
ul.tree li { border-left: 1px dotted #bdc1c6; padding-left: .6em; }
ul.tree .step { cursor: pointer; display: inline-block; padding: 0 4px; border-radius: 3px; }
ul.tree .step.selected { outline: 2px solid #d93025; }
ul.tree .derived { background: #e8f0fe; } ul.tree .given { background: #e6f4ea; }
ul.tree .static { background: #f1f3f4; }
ul.tree .failed { background: #fce8e6; } ul.tree .unknown { background: #fef7e0; }
ul.tree .item { background: #1f3b57; color: #fff; } ul.tree .ref { opacity: .75; }
ul.tree .reconstructed { outline: 3px double #8e24aa; } ul.tree .judgment { background: #fff8c5; }
.provisions table td p { margin: .2em 0; }
.provisions summary, .atoms summary { cursor: pointer; font-weight: bold; margin: .6em 0; }
.item { border-top: 3px solid var(--accent); margin-top: 2em; }
@page { size: A4; margin: 14mm 12mm; }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  .no-print, .fit, .detail { display: none !important; }
  .scenario, .item, .appendix { break-before: page; page-break-before: always; }
  .graph { overflow: visible; max-height: none; border: none; }
  .graph svg { max-width: 100%; height: auto; }
  tr, .finding, blockquote { break-inside: avoid; }
  pre { white-space: pre-wrap; }
  a { color: inherit; text-decoration: none; }
}
"""

_JS = """\
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var W = data.words;
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function show(box, id) {
    var n = data.nodes[id];
    if (!n) { return; }
    box.textContent = "";
    var head = el("p", "head");
    head.appendChild(el("span", "provision", n.provision || (n.kind === "given" ? W.given :
      n.kind === "static" ? W["static"] : W.no_provision)));
    if (n.reconstructed) { head.appendChild(el("span", "mark", W.reconstructed)); }
    if (n.judgment) { head.appendChild(el("span", "mark", W.judgment)); }
    box.appendChild(head);
    if (n.provision) {
      var texts = data.texts[n.provision] || [];
      if (!texts.length) { box.appendChild(el("p", "muted", W.no_text)); }
      texts.forEach(function (t) {
        var q = el("blockquote", "treaty-text");
        q.lang = "pt";
        q.appendChild(el("span", "label", t[0]));
        q.appendChild(document.createTextNode(t[1]));
        box.appendChild(q);
      });
    }
    var en = el("p", "reading-en");
    en.lang = "en";
    en.appendChild(el("span", "label", W.reading_en + ":"));
    en.appendChild(document.createTextNode(n.en));
    box.appendChild(en);
    if (data.lang !== "en") {
      var local = el("p", "reading-local");
      local.lang = data.lang;
      local.appendChild(el("span", "label", W.reading + ":"));
      local.appendChild(document.createTextNode(n.reading));
      box.appendChild(local);
    }
    var meta = [n.atom];
    if (n.rule) { meta.push(W.rule + " " + n.rule + (n.location ? " (" + n.location + ")" : "")); }
    if (n.note) { meta.push(n.note); }
    box.appendChild(el("p", "muted", meta.join(" — ")));
  }
  function nodeOf(graph, target) {
    var t = target && target.closest ? target.closest("[data-node], g.node") : null;
    if (!t || !graph.contains(t)) { return null; }
    return t;
  }
  function idOf(t) { return t.getAttribute("data-node") || t.id; }
  Array.prototype.forEach.call(document.querySelectorAll("[data-graph]"), function (graph) {
    var box = document.getElementById("detail-" + graph.getAttribute("data-graph"));
    var pinned = null;
    graph.addEventListener("mouseover", function (ev) {
      if (pinned) { return; }
      var t = nodeOf(graph, ev.target);
      if (t) { show(box, idOf(t)); }
    });
    function pick(t) {
      if (pinned) { pinned.classList.remove("selected"); }
      pinned = t;
      if (t) { t.classList.add("selected"); show(box, idOf(t)); }
    }
    graph.addEventListener("click", function (ev) { pick(nodeOf(graph, ev.target)); });
    graph.addEventListener("keydown", function (ev) {
      if (ev.key !== "Enter" && ev.key !== " ") { return; }
      var t = nodeOf(graph, ev.target);
      if (t) { ev.preventDefault(); pick(t); }
    });
  });
  Array.prototype.forEach.call(document.querySelectorAll(".graph-svg g.node"), function (n) {
    n.setAttribute("tabindex", "0");  // reachable from the keyboard too: Enter shows the step
  });
  Array.prototype.forEach.call(document.querySelectorAll(".graph-svg"), function (g) {
    var svg = g.querySelector("svg");  // a graph a little wider than the page starts fitted to it
    if (svg && svg.width.baseVal.value > g.clientWidth && svg.width.baseVal.value < 1.4 * g.clientWidth) {
      g.classList.add("fitted");
    }
  });
  Array.prototype.forEach.call(document.querySelectorAll("button[data-fit]"), function (b) {
    b.addEventListener("click", function () {
      document.getElementById("graph-" + b.getAttribute("data-fit")).classList.toggle("fitted");
    });
  });
})();
"""
