"""The rule base as a whole: every rule fired, both paths agree, clean grounding, cited provisions."""

from __future__ import annotations

import random
import re
import shutil
from datetime import date, timedelta
from pathlib import Path

import clingo
import pytest
from clingo import ast
from clingo.ast import ASTType

from pyhelpers.base.errors import InputError, LogicError
from pyhelpers.base.rulebase import logic_dir
from pyhelpers.engine.program import PROVISION_RE, load_logic
from pyhelpers.engine.provenance import RELIES
from pyhelpers.engine.solve import Checker, run_clingo
from pyhelpers.explain.explainer import explainer_for
from pyhelpers.explain.instrument import AGG, FIRED, instrument, variables
from pyhelpers.scenario import Scenario, load_dict, load_file
from pyhelpers.scenario.catalogue import catalogue

from .conftest import ROOT, SCENARIOS, within_share

SHARED = ROOT.parent / "shared" / "treaties"


def _instrumented_atoms(checker: Checker, treaty: str, facts: list[str]) -> set[clingo.Symbol]:
    """The atoms the instrumented program of the explanations derives on ``facts``: core and ``treaty``'s
    rules, whole (what ``program_for`` gives the fast path; the other treaties' rules are guarded by their
    treaty id), read without building the derivations (the explainer's own tests build them)."""
    solved = run_clingo(instrument(checker.logic, treaty).sliced, facts, shown_only=False, sort=False)
    return {s for s in solved.symbols if s.name not in (FIRED, AGG)}


PATH_SHARDS = 8
PATH_SHARE = 20.0
"""Seconds of wall-clock time for each of the :data:`PATH_SHARDS` shards of the paths' agreement over
the shipped scenarios (about 0.8 s of CPU each, some 850 of them: 11 minutes of CPU over the whole
corpus): each run covers the scenarios its share allows, from a point that turns with the commit
(``tests.conftest.within_share``); ``TREATY_FULL_CHECKS=1`` covers them all."""


@pytest.mark.parametrize("shard", range(PATH_SHARDS))
def test_fast_and_explained_paths_agree(shard: int, checker: Checker) -> None:
    """On each shipped scenario (within the shard's time share): the treaty's program on the scenario's
    facts has exactly one answer set (``run_clingo`` refuses none or two: a fact given as unknown is
    answered three-valued by the rules, alternatives at their first value) and no clingo warning; the
    instrumented program of the explanations derives the same conclusions and findings; and the slice
    of the facts' shape (text, then parsed statements) gives the same answer set."""
    ran = 0
    for path in within_share(SCENARIOS[shard::PATH_SHARDS], PATH_SHARE, 10, f"paths' agreement, shard {shard}"):
        _paths_agree(path, checker)
        ran += 1
    assert ran >= 10


def _paths_agree(path: Path, checker: Checker) -> None:
    scenario = load_file(path)
    facts = checker.facts(scenario)
    fast = run_clingo(checker.logic.program_for(scenario.treaty), facts)
    assert not fast.messages, (path, fast.messages)  # no clingo warnings: undefined atoms, unsafe variables ...
    relies = {s for s in fast.symbols if s.name == RELIES}  # the provenance of reconstructed provisions
    plain = set(fast.symbols) - relies
    shown = {(s.name, len(s.arguments)) for s in plain}
    shown_sigs = {(n, a) for (n, a), p in checker.logic.vocabulary.items() if p.role in ("conclusion", "finding")}
    instrumented = _instrumented_atoms(checker, scenario.treaty, facts)
    explained = {s for s in instrumented if (s.name, len(s.arguments)) in shown_sigs}
    assert shown <= shown_sigs, path
    assert plain == explained, path
    assert all(s.arguments[0] in plain for s in relies), path
    sliced = checker.logic.program_for_facts(scenario.treaty, facts)  # the slice of the facts' shape (Checker.check)
    for _ in range(2):  # its text, then its parsed statements
        again = run_clingo(sliced, facts)
        assert not again.messages, (path, again.messages)
        assert again.symbols == fast.symbols, path


def _varied(n: int) -> list[Scenario]:
    """Scenarios of every income type, kind of person and holding, deterministic."""
    rng = random.Random(11)
    out = []
    types = ["dividend", "interest", "royalty", "other_income", "capital_gain", "technical_services"]
    for i in range(n):
        treaty = rng.choice(["br-pt", "br-sg", "br-uy", "br-pl", "br-ae"])
        states = catalogue().states[treaty]
        pay = date(2019, 1, 1) + timedelta(days=rng.randrange(2500))
        kind = rng.choice(["company", "individual", "other_entity"])
        holder: dict[str, object] = {"kind": kind, "liable_to_tax": {
            states[1]: ["residence" if kind == "individual" else "incorporation"]}}
        if kind == "other_entity":
            holder["treated_as_body_corporate"] = rng.choice([True, False])
        data = {
            "name": f"varied {i}", "treaty": treaty, "evaluation_date": "2026-06-30",
            "persons": {"holder": holder, "payer": {"kind": "company", "liable_to_tax": {"br": ["incorporation"]}}},
            "holdings": [{"holder": "holder", "company": "payer", "capital": rng.choice([10, 20, 25, 60]),
                          "from": (pay - timedelta(days=rng.randrange(30, 900))).isoformat()}],
            "income": [{"id": f"item-{i}", "type": rng.choice(types), "payer": "payer", "recipient": "holder",
                        "date": pay.isoformat(), "gross": {"amount": "1000.00", "currency": "BRL"}}],
        }
        try:
            out.append(load_dict(data, f"varied-{i}"))
        except InputError:
            continue
    return out


def test_program_sliced_by_the_facts_on_generated_scenarios(checker: Checker) -> None:
    scenarios = _varied(120)
    assert len(scenarios) > 60
    for scenario in scenarios:
        for versions, group in checker.version_groups(scenario).items():
            facts = checker.facts(scenario.model_copy(update={"income": group}))
            whole = run_clingo(checker.logic.program_for(scenario.treaty, None, versions), facts)
            assert run_clingo(checker.logic.program_for_facts(scenario.treaty, facts, versions), facts).symbols \
                == whole.symbols, scenario.name


def test_narrowed_slices_give_the_answer_set_of_the_whole_slice(checker: Checker,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A slice narrowed on one scenario is used on the next scenarios of its shape only where the
    grounding proves that the rules left out cannot fire; both branches occur on these scenarios."""
    from pyhelpers.engine.slicing import Narrowed

    proofs: list[bool] = []
    proves = Narrowed.proves

    def recording(self: Narrowed, ctl: object) -> bool:
        proofs.append(proves(self, ctl))  # type: ignore[arg-type]
        return proofs[-1]

    monkeypatch.setattr(Narrowed, "proves", recording)
    for scenario in _varied(120) * 2:
        facts = checker.facts(scenario)
        versions = next(iter(checker.version_groups(scenario)))
        sliced = checker.logic.program_for_facts(scenario.treaty, facts, versions)
        whole = run_clingo(sliced.text, facts)  # the text: never narrowed
        for _ in range(3):  # the text, then parsed (learns), then narrowed where proved
            again = run_clingo(sliced, facts)
            assert again.symbols == whole.symbols and not again.messages, scenario.name
    assert True in proofs and False in proofs


def test_narrowed_slice_that_derives_nothing_shown_shows_nothing() -> None:
    """A narrowed slice whose #show directives all name predicates left out still shows nothing (clingo
    shows every atom of a program without any #show)."""
    from pyhelpers.engine.slicing import Sliced

    sliced = Sliced("#defined d/1.\na(1).\nb(X) :- a(X).\nc(X) :- d(X).\n#show c/1.")
    runs = [run_clingo(sliced, []) for _ in range(3)]  # the text, parsed (learns), narrowed
    assert sliced.narrowed is not None and len(sliced.narrowed.left_out) == 1
    assert [r.symbols for r in runs] == [[], [], []]
    assert not any(r.messages for r in runs)


def test_checker_is_thread_safe_with_shared_parsed_slices() -> None:
    from concurrent.futures import ThreadPoolExecutor

    checker = Checker()
    scenarios = _varied(40)
    alone = [checker.check(s).atoms for s in scenarios]  # each slice used once: its text
    with ThreadPoolExecutor(4) as pool:  # used again, from four threads: the parsed statements
        together = list(pool.map(lambda s: checker.check(s).atoms, scenarios * 3))
    assert together == alone * 3


def test_every_derived_atom_has_a_derivation(checker: Checker) -> None:
    path = ROOT / "scenarios/br-pt/dividends-qualifying-holding.yaml"
    scenario = load_file(path)
    ex = explainer_for(checker.logic, checker.facts(scenario), treaty=scenario.treaty, every_rule=True)
    derived = [a for a in ex.true if a in ex.supports]
    assert derived and all(a in ex.just for a in derived)


def test_provisions_are_well_formed_and_catalogued(checker: Checker) -> None:
    logic = checker.logic
    catalogued = {s.arguments[2].string for s in checker.static_atoms if s.name == "article"}
    problems = []
    for r in logic.rules:
        if r.provision == "(core)":
            if not r.file.startswith("logic/core/"):
                problems.append(f"{r.file}:{r.line}: (core) outside logic/core")
            continue
        if r.dynamic_provision:
            stm = _statement(r.file, r.line)
            if r.dynamic_provision not in variables(stm.body[0]) + [v for lit in stm.body for v in variables(lit)]:
                problems.append(f"{r.file}:{r.line}: {{{r.dynamic_provision}}} is not a body variable")
            continue
        m = PROVISION_RE.match(r.provision)
        if not m:
            problems.append(f"{r.file}:{r.line}: malformed provision {r.provision!r}")
            continue
        if m.group("article") is None:
            continue  # "<treaty> Decree": the promulgating decree, which the catalogue does not list as an article
        article = f"{m.group('treaty')} {'Protocol ' if m.group('protocol') else ''}{m.group('article')}"
        if article not in catalogued:
            problems.append(f"{r.file}:{r.line}: {r.provision} names an article not in the catalogue")
    assert not problems, "\n".join(problems)


def _statement(file: str, line: int) -> ast.AST:
    logic = load_logic()
    lf = next(f for f in logic.files if f.relpath == file)
    found: list[ast.AST] = []
    ast.parse_string(lf.source, found.append)
    return next(s for s in found if s.ast_type == ASTType.Rule and s.location.begin.line == line)


def test_provision_in_head_matches_annotation() -> None:
    logic = load_logic()
    plans = instrument(logic).plans
    bad = []
    for plan in plans.values():
        heads = [a.symbol.string for a in plan.head.arguments
                 if a.ast_type == ASTType.SymbolicTerm and a.symbol.type.name == "String"
                 and PROVISION_RE.match(a.symbol.string)]
        for prov in heads:
            if prov != plan.info.provision:
                bad.append(f"{plan.info.file}:{plan.info.line}: head cites {prov}, annotation {plan.info.provision}")
    assert not bad, "\n".join(bad)


def test_every_predicate_is_declared_and_used() -> None:
    logic = load_logic()
    used: set[tuple[str, int]] = set()

    class _Atoms(ast.Transformer):  # type: ignore[misc]
        def visit_SymbolicAtom(self, node: ast.AST) -> ast.AST:
            sym = node.symbol
            if sym.ast_type == ASTType.Function:
                used.add((sym.name, len(sym.arguments)))
            return node

    for stm in logic.statements:
        _Atoms()(stm)
    undeclared = sorted(used - set(logic.vocabulary))
    assert not undeclared, ("predicates used but not declared in logic/core/vocabulary*.lp or "
                            f"logic/<treaty>/vocabulary.lp: {undeclared}")
    unused = sorted(k for k in set(logic.vocabulary) - used if logic.vocabulary[k].role != "input")
    assert not unused, f"declared but never used: {unused}"


def test_a_treaty_vocabulary_serves_only_its_treaty() -> None:
    """A predicate declared in logic/<treaty>/vocabulary.lp is used by no rule outside that folder: a slice
    of another treaty leaves that file out, and with it the predicate's ``#defined``."""
    logic = load_logic()
    home: dict[tuple[str, int], str] = {}
    for f in logic.files:
        if re.match(r"^logic/(core/vocabulary[^/]*|[^/]+/vocabulary)\.lp$", f.relpath):
            for m in re.finditer(r"^%: ([a-z_][a-z0-9_]*)\(([^)]*)\)", f.source, re.M):
                home[(m.group(1), len([x for x in m.group(2).split(",") if x.strip()]))] = f.relpath.split("/")[1]
    assert set(home) == set(logic.vocabulary)
    assert {t for t in home.values() if t != "core"}, "no treaty has a vocabulary of its own"
    misplaced: set[str] = set()

    class _Atoms(ast.Transformer):  # type: ignore[misc]
        def __init__(self, folder: str) -> None:
            self.folder = folder

        def visit_SymbolicAtom(self, node: ast.AST) -> ast.AST:
            sym = node.symbol
            if sym.ast_type == ASTType.Function:
                where = home.get((sym.name, len(sym.arguments)), "core")
                if where not in ("core", self.folder):
                    misplaced.add(f"{sym.name}/{len(sym.arguments)} (logic/{where}/vocabulary.lp) in "
                                  f"logic/{self.folder}/")
            return node

    for stm, relpath in zip(logic.statements, logic.statement_files, strict=True):
        _Atoms(relpath.split("/")[1])(stm)
    assert not misplaced, f"predicates of one treaty's vocabulary used elsewhere: {sorted(misplaced)}"


def test_a_predicate_declared_twice_is_an_error(tmp_path: Path) -> None:
    def copy(name: str) -> Path:
        root = tmp_path / name / "logic"
        shutil.copytree(logic_dir(), root)
        return root

    root = copy("core-and-treaty")
    with (root / "br-sg" / "vocabulary.lp").open("a", encoding="utf-8") as out:
        out.write("\n%: evaluation_date(S, D:date) input\n%  doc: d\n%  en: e\n%  pt: p\n")
    with pytest.raises(LogicError, match=r"br-sg/vocabulary\.lp: evaluation_date/2 already declared in "
                                         r"logic/core/vocabulary\.lp"):
        load_logic(root)
    root = copy("two-treaties")
    (root / "br-uy" / "vocabulary.lp").write_text((root / "br-sg" / "vocabulary.lp").read_text(encoding="utf-8"),
                                                  encoding="utf-8")
    with pytest.raises(LogicError, match=r"br-uy/vocabulary\.lp: .* already declared in logic/br-sg/vocabulary\.lp"):
        load_logic(root)


def test_quoted_text_is_the_official_text() -> None:
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} not present: cannot compare quotes with the corpus")
    logic = load_logic()
    bad = []
    for lf in logic.files:
        treaty = lf.banner.get("Treaty")
        if not treaty:
            continue
        corpus = re.sub(r"\s+", " ", (SHARED / f"{treaty}.txt").read_text(encoding="utf-8"))
        for prov, text, line in lf.texts:
            body = re.sub(r"\s+", " ", text)
            pieces = [p.strip() for p in re.split(r"\s*\b[ivx]+\)\s+", body) if p.strip()]
            if not all(p in corpus for p in pieces):
                bad.append(f"{lf.relpath}:{line}: {prov} is not quoted verbatim from {treaty}.txt")
    assert not bad, "\n".join(bad)


def _corpus_paragraphs(text: str) -> set[tuple[bool, int, tuple[str, ...]]]:
    """(protocol?, article, path of paragraph levels) of every unit of a treaty's corpus file: `Artigo
    N.º` / `ARTIGO N`, then `1 - `, `1. ` or `4.1 ` paragraphs, `a) ` letters, `ii) ` roman items and `A) `
    sub-items; after `Protocolo`, `1 - ` / `1. ` items."""
    found: set[tuple[bool, int, tuple[str, ...]]] = set()
    protocol, article, para, letter, roman = False, None, None, None, None
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("#"):
            continue
        if m := re.match(r"^Artigo (\d+)(?:\.º)?$", line, re.IGNORECASE):
            article, para, letter, roman = int(m.group(1)), None, None, None
        elif m := re.match(r"^\[INCOMPLETO: .*(?:alínea [a-z]\) do parágrafo|parágrafo) (\d+)", line):
            para = m.group(1)  # the text resumes inside that paragraph, without its number
        elif re.match(r"^Protocolo$", line, re.IGNORECASE):
            protocol, article, para, letter, roman = True, None, None, None, None
        elif (m := re.match(r"^(?:(\d+)(?: - |\.(?: |$))|(\d+\.\d+) )", line)) and (protocol or article is not None):
            number = m.group(1) or m.group(2)
            if protocol:
                article, para, letter, roman = int(number), None, None, None
            else:
                para, letter, roman = number, None, None
                if glued := re.match(r"^\d+\. ([a-z])\) ", line):  # `8. a) Quando ...`
                    letter = glued.group(1)
                    found.add((protocol, article, (para, letter)))
        elif (m := re.match(r"^([ivx]+|[a-z])\) ", line)) and article is not None:
            tag = m.group(1)
            is_letter = len(tag) == 1 and (tag != "i" or letter == "h") and not (tag in "ivx" and letter not in
                                                                                  (None, chr(ord(tag) - 1)))
            if is_letter:
                letter, roman = tag, None
                found.add((protocol, article, tuple(x for x in (para, letter) if x)))
                for glued in re.findall(r";\s*(?:ou |e )?([a-z])\) [A-ZÀ-Ú]", line):  # `...; ou b) As ...`
                    letter = glued
                    found.add((protocol, article, tuple(x for x in (para, letter) if x)))
                continue
            roman = tag
            found.add((protocol, article, tuple(x for x in (para, letter, tag) if x)))
            continue
        elif (m := re.match(r"^([A-Z])[.)] ", line)) and article is not None and roman is not None:
            found.add((protocol, article, tuple(x for x in (para, letter, roman, m.group(1)) if x)))
            continue
        else:
            continue
        if article is not None:
            found.add((protocol, article, tuple(x for x in (para,) if x)))
            found.add((protocol, article, ()))
    return found


def test_every_provision_names_a_paragraph_of_the_corpus() -> None:
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} not present: cannot check provisions against the corpus")
    logic = load_logic()
    absent = {str(a.arguments[2].string) for a in Checker(logic).static_atoms
              if a.name == "article" and len(a.arguments) == 4 and str(a.arguments[3]) == "missing"}
    corpora: dict[str, set[tuple[bool, int, tuple[str, ...]]]] = {}
    bad, checked = [], 0
    for r in logic.rules:
        m = PROVISION_RE.match(r.provision)
        if not m or m.group("article") is None or "reconstructed" in r.flags:
            continue  # (core), {Var}, Decree; a reconstruction is not in the corpus by definition
        if r.text.startswith("not_encoded(") or f"{m.group('treaty')} {m.group('article')}" in absent:
            continue  # a finding or caveat that cites what the corpus lacks ("br-sg 12 is not encoded")
        treaty = m.group("treaty")
        if treaty not in corpora:
            path = SHARED / f"{treaty}.txt"
            corpora[treaty] = _corpus_paragraphs(path.read_text(encoding="utf-8")) if path.is_file() else set()
        if not corpora[treaty]:
            continue
        levels = tuple(re.findall(r"\(([^)]*)\)", m.group("levels")))
        checked += 1
        if (bool(m.group("protocol")), int(m.group("article")), levels) not in corpora[treaty]:
            bad.append(f"{r.file}:{r.line}: {r.provision} names no paragraph of {treaty}.txt "
                       "(flag the rule `reconstructed` if it is not encoded from the corpus text)")
    assert checked > 100
    assert not bad, "\n".join(bad)


def test_corpus_parser_reads_articles_paragraphs_letters_and_protocol_items() -> None:
    text = "Artigo 1.º\nTítulo\nTexto.\nArtigo 3.º\n1 - Definições:\na) um;\nh) oito;\ni) nove:\n" \
           "i) romano um;\nii) romano dois.\n2 - Quando:\na) Uma; ou b) As outras.\n" \
           "Protocolo\n8 - Com referência\na) Fica entendido\n"
    found = _corpus_paragraphs(text)
    assert {(False, 1, ()), (False, 3, ("1",)), (False, 3, ("1", "a")), (False, 3, ("1", "i")),
            (False, 3, ("1", "i", "ii")), (False, 3, ("2", "b")), (True, 8, ()), (True, 8, ("a",))} <= found
    assert (False, 3, ("3",)) not in found
    other = _corpus_paragraphs("ARTIGO 5\n1. Para os fins\n4.1 O parágrafo\nARTIGO 29\n2. Um residente\nd) uma pessoa\n"
                               "ii) seja uma entidade\nA) que opere\nPROTOCOLO\n1. Com referência\n")
    assert {(False, 5, ("1",)), (False, 5, ("4.1",)), (False, 29, ("2", "d", "ii", "A")), (True, 1, ())} <= other


def test_slice_leaves_out_rules_that_reach_no_shown_atom() -> None:
    """A slice keeps a rule only when its head is shown or read (positively, under negation or in an
    aggregate) by a rule it keeps; names inside strings do not count."""
    from pyhelpers.engine.slicing import _pruned
    from pyhelpers.engine.statements import Statement

    program = """a(1). a(7).
    b(X) :- a(X).
    c(X) :- b(X); not d(X).
    d(X) :- a(X); X > 5.
    g(X) :- a(X); #count { Y: h(Y) } = 2.
    h(X) :- a(X).
    e(X) :- a(X).
    f(X) :- e(X).
    k(X) :- a(X); X = "e(1)".
    #show c/1. #show g/1. #show k/1."""
    statements: list[ast.AST] = []
    ast.parse_string(program, statements.append)
    text = _pruned([Statement.of(s, "logic/t.lp") for s in statements], [])
    rules = sorted(t.split(" :- ")[0] for t in text if " :- " in t)
    assert rules == ["b(X)", "c(X)", "d(X)", "g(X)", "h(X)", "k(X)"]
    assert sorted(run_clingo("\n".join(text), []).symbols) == sorted(run_clingo(program, []).symbols)


def test_a_missing_fact_that_decides_only_under_a_value_of_another_is_gated_by_it() -> None:
    """blind57b D7: a place's fixed character and whether business is carried on through it decide only where its
    kind (missing too) is "other fixed place": every conjunction naming them also names that kind, which gates
    them ("possibly" missing, under it); a fact named alone in some conjunction, or in an alternative whose
    conjunctions the time limit left unknown, is gated by nothing."""
    from pyhelpers.engine.alternatives import _gate
    from pyhelpers.engine.results import Alternative, Condition

    kind_ofp = Condition("p.kind", "other fixed place")
    kind_rel = Condition("p.kind", "related company")
    fixed_no, busy_no = Condition("p.fixed", "false"), Condition("p.business_carried_on", "false")
    fixed_yes, busy_yes = Condition("p.fixed", "true"), Condition("p.business_carried_on", "true")
    names = {"p.kind", "p.fixed", "p.business_carried_on"}
    exempt = Alternative("br", "exempt", (), (), exact=False,
                         holds_if_any=((kind_rel,), (kind_ofp, fixed_no), (kind_ofp, busy_no)))
    open_ = Alternative("br", "undetermined", (), (), exact=False, holds_if_any=((kind_ofp, busy_yes, fixed_yes),))
    assert _gate("p.fixed", (exempt, open_), names) == (kind_ofp,)
    assert _gate("p.business_carried_on", (exempt, open_), names) == (kind_ofp,)
    assert _gate("p.kind", (exempt, open_), names) == ()  # named alone (related company): decides by itself
    alone = Alternative("br", "may tax", (), (fixed_yes,))
    assert _gate("p.fixed", (exempt, alone), names) == ()
    cut = Alternative("br", "may tax", (), (kind_ofp, fixed_yes), exact=False)
    assert _gate("p.fixed", (exempt, cut), names) == ()
