"""`--lang pt` writes Brazilian Portuguese throughout: a set of scenarios (one per treaty, one with missing
and unknown facts, one with relief, a ledger row) run through every command with output, and no English
word of the tool's own vocabulary may appear in what they print.

The English vocabulary is built from the tool's English word tables and the English reading templates,
minus the words Portuguese also writes (or that are not words); what is not the tool's words is left out
of the check: scenario, item and person ids, provision ids, atoms and YAML paths, backquoted spans (commands,
fields), the treaty's quoted text, JSON keys and machine values."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from pyhelpers.engine.program import load_logic
from pyhelpers.explain import readings
from pyhelpers.interfaces.batch import TEXT_COLUMNS
from pyhelpers.interfaces.cli import main
from pyhelpers.output import rates, render, report
from pyhelpers.prolog import crosscheck
from pyhelpers.tools import coverage, diff, mutate

from .conftest import ROOT, read_yaml
from .ledger_gen import CONTEXT, generate, write_csv
from .test_regression import MINI, _copy

SCENARIOS = {
    "br-pt": "scenarios/br-pt/dividends-qualifying-holding.yaml",
    "br-pl": "scenarios/br-pl/employment-184-days-loses-exemption.yaml",
    "br-uy": "scenarios/br-uy/lob-equivalent-beneficiary-unknown.yaml",  # unknown and missing facts
    "br-sg": "scenarios/br-sg/dividends-capital-exactly-25-percent.yaml",
    "br-ae": "scenarios/br-ae/shipping-uae-company-proven-entitlement.yaml",
    "relief": "scenarios/br-pt/relief-protocol-7-portfolio-indirect-credit.yaml",
    "indicators": "scenarios/br-uy/ppt-indicator-answers-decide-not-indicators.yaml",  # every kind of indicator
    "right": "scenarios/br-pl/unknowns-royalty-trademark-or-patent.yaml",  # a royalty's right given as alternatives
    "protocol": "scenarios/br-pt/protocol9-recipient-sudene.yaml",  # a Protocol item cited
    "alternatives": "scenarios/br-sg/unknowns-holding-end-within-400-days.yaml",  # argued under each alternative
}
FORTY = "scenarios/br-pt/dividends-individual-beneficial-owner-40-percent.yaml"
ALMOST = "scenarios/br-pt/dividends-holding-24-9-percent.yaml"  # whatif changes a decimal holding to a percentage
LOB_ALTERNATIVES = "scenarios/br-uy/unknowns-lob-ownership-end-within-400-days.yaml"  # br-uy 29 argued by alternative
CUT = "scenarios/br-sg/unknowns-holding-end-in-the-future.yaml"  # an unknown fact: alternatives a limit may cut

_WORD = re.compile(r"[A-Za-zÀ-ÿ]+")
# words the Portuguese output writes too, or that are names rather than English words
# (words of one or two letters are never counted: :func:`_words`)
_ALSO_PORTUGUESE = {"treaty", "expect", "strict", "hash", "clingo", "graphviz", "dot", "debian", "know", "how",
                    "royalties", "holding", "trust", "sha", "corpus", "csll", "irpj", "irpf", "irc", "irs", "iass",
                    "derrama", "irae", "irnr", "sudam", "sudene", "item", "total", "uma",
                    "local",  # "autoridade local" (a reading of the vocabulary)
                    "min"}  # clingo's `#min` aggregate and a rule's `Min`, in the derivation and the program text


def _table_strings(table: Any) -> Iterator[str]:
    if isinstance(table, str):
        yield table
    elif isinstance(table, Mapping):
        for value in table.values():
            yield from _table_strings(value)
    elif isinstance(table, (tuple, list)):
        for value in table:
            yield from _table_strings(value)


def _words(text: str) -> set[str]:
    text = re.sub(r"\{[A-Za-z_]+\}", " ", text)  # placeholders
    return {w.lower() for w in _WORD.findall(text) if len(w) > 2}  # two letters: a State's code, not a word


def _tables(lang: str) -> Iterator[str]:
    for module in (render, report, rates, readings, coverage, diff, mutate, crosscheck):
        for name in dir(module):
            table = getattr(module, name)
            if name.startswith("_") and isinstance(table, dict) and lang in table:
                yield from _table_strings(table[lang])


@pytest.fixture(scope="module")
def english() -> set[str]:
    return english_vocabulary()


def english_vocabulary() -> set[str]:
    """The English words of the tool's vocabulary that Portuguese does not also write."""
    logic = load_logic()
    declared = [*logic.vocabulary.values(), *logic.terms.values()]
    en = set().union(*(_words(t) for t in _tables("en")), *(_words(p.en) for p in declared),
                     *(_words(name.replace("_", " ")) for name in readings.TERMS["pt"]),
                     *(_words(t) for t in readings.TERMS["en"].values()),
                     *(_words(n.en) for n in logic.nouns.values()))
    pt = set().union(*(_words(t) for t in _tables("pt")), *(_words(p.pt) for p in declared),
                     *(_words(t) for t in readings.TERMS["pt"].values()), *(_words(n.pt) for n in logic.nouns.values()))
    return en - pt - _ALSO_PORTUGUESE


def _ids(path: str) -> set[str]:
    """The words of the scenario's own ids (persons, items, holdings, places): not the tool's words."""
    data = read_yaml(ROOT / path)
    out: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("id", "name", "person", "payer", "recipient", "owner", "company", "of") and \
                        isinstance(value, str):
                    out.update(_words(value))
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(data)
    for key in ("persons", "places_of_business"):
        section = data.get(key) if isinstance(data, dict) else None
        if isinstance(section, dict):
            for name in section:
                out.update(_words(name))
    return out


_NOT_TOOL_WORDS = [
    re.compile(r"`[^`]*`"),  # commands, YAML fields
    re.compile(r"^\s*§.*$", re.M),  # the treaty's quoted text (`treaty show`)
    re.compile(r"<(script|style)\b.*?</\1>", re.S),  # the report's code and data (its English readings panel)
    re.compile(r"<pre\b.*?</pre>|<code>.*?</code>", re.S),  # the report's copies of the scenario and its facts
    re.compile(r"^\s+\S.*:-.*$|^\s{4}\S.*[,.]$", re.M),  # the rules' program text (`treaty show`)
    re.compile(r"‹[^›]*›"),  # rule ids
    re.compile(r"\[[a-z_, ]*\]"),  # lists of the scenario's values
    re.compile(r"<blockquote[^>]*>.*?</blockquote>|<p lang=\"pt\">.*?</p>", re.S),  # treaty text in the report
    re.compile(r"<[^>]+>"),  # HTML tags
    re.compile(r"\S*/\S*"),  # file paths
    re.compile(r"\b[a-z][a-z0-9_]*\((?:[^()]|\([^()]*\))*\)(\.[a-z_][a-z0-9_.\[\]]*)?"),  # atoms, fact paths
    re.compile(r"\b[a-z_][a-z0-9_]*(\[\d+\])?(\.[a-z_][a-z0-9_]*(\[\d+\])?)+"),  # YAML paths
    re.compile(r"\S*[_\d]\S*"),  # ids, numbers, dates, constants
    re.compile(r"\b[a-z]+-[a-z-]+\b"),  # hyphenated ids
    re.compile(r"\b[A-Z]{2,}\b"),  # acronyms and shouted marks translated as words elsewhere
]


def english_words(text: str, english: set[str], ids: set[str]) -> list[str]:
    for pattern in _NOT_TOOL_WORDS:
        text = pattern.sub(" ", text)
    found = _words(text) - ids
    return sorted(w for w in found if w in english)


_MACHINE_KEYS = {"atom", "rule", "location", "source", "provision", "provisions", "kind", "outcome", "state",
                 "status", "income_type", "currency", "fact", "field", "id", "item_id", "flags", "treaty", "finding",
                 "reason", "conclusion", "values", "alternatives", "type", "method", "name", "rule_id", "lang",
                 "question", "person", "residence", "qualified", "limited_to", "goal", "considered", "changes",
                 "considered_fields"}


def json_texts(data: Any, key: str = "") -> Iterator[str]:
    """The human-readable strings of a JSON document: sentences under keys that are not machine fields."""
    if isinstance(data, dict):
        for k, v in data.items():
            if k not in _MACHINE_KEYS:
                yield from json_texts(v, k)
    elif isinstance(data, list):
        for v in data:
            yield from json_texts(v, key)
    elif isinstance(data, str) and " " in data:
        yield data


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code in (0, 1), (args, result.output)  # 1: a scenario whose outcome is not decided
    return result.stdout


def outputs(tmp: Path) -> Iterator[tuple[str, str, set[str]]]:
    """(command, text printed, ids of its scenario) for every command with output, under --lang pt."""
    for name, path in SCENARIOS.items():  # every format of every command for one, text for the others
        ids = _ids(path)
        full = str(ROOT / path)
        yield f"check {name}", run("check", full, "--lang", "pt"), ids
        if name != "relief":  # its relief is in `check`'s words; its argument is br-pt's again
            yield f"explain {name}", run("explain", full, "--lang", "pt"), ids
        if name != "br-pt":
            continue
        yield f"check {name} markdown", run("check", full, "--lang", "pt", "--format", "markdown"), ids
        yield f"explain {name} markdown", run("explain", full, "--lang", "pt", "--format", "markdown"), ids
        check = json.loads(run("check", full, "--lang", "pt", "--format", "json"))
        yield f"check {name} json", "\n".join(json_texts(check)), ids
        explained = json.loads(run("explain", full, "--lang", "pt", "--format", "json"))
        yield f"explain {name} json", "\n".join(json_texts(explained["argument"])), ids
        yield f"check --ask {name}", run("check", full, "--lang", "pt", "--ask"), ids
    qualifying = str(ROOT / SCENARIOS["br-pt"])
    ids = _ids(SCENARIOS["br-pt"])
    yield "explain --full", run("explain", qualifying, "--lang", "pt", "--full"), ids
    yield "explain --why-not", run("explain", qualifying, "--lang", "pt", "--why-not", 'max_rate("div-2024", 500)'), ids
    yield "whatif", run("whatif", str(ROOT / FORTY), "--lang", "pt", "--goal", 'max_rate("div-2024", R), R <= 1000'), \
        _ids(FORTY)
    yield "whatif solved", run("whatif", str(ROOT / ALMOST), "--lang", "pt", "--goal", 'max_rate(I, R), R <= 1000'), \
        _ids(ALMOST)
    for fmt in ("text", "markdown"):
        yield f"explain protocol {fmt}", run("explain", str(ROOT / SCENARIOS["protocol"]), "--lang", "pt", "--full",
                                             "--format", fmt), _ids(SCENARIOS["protocol"])
    for args in (["check", qualifying, "--format", "xml"], ["check", qualifying, "--formt", "json"], ["chek"],
                 ["check"], ["check", qualifying, "--time-limit", "abc"]):
        wrong = CliRunner().invoke(main, [*args, "--lang", "pt"])
        assert wrong.exit_code == 2 and wrong.stderr.startswith("Uso: "), (args, wrong.output)
        # the values click quotes (the value given, the choices, an option's name) are the command line's own
        yield f"usage error {' '.join(args[:1] + args[2:])}", re.sub(r"'[^']*'", " ", wrong.stderr), set()
    yield from _cut_outputs(tmp)
    yield from _mismatch_outputs(tmp)
    out = tmp / "report.html"
    said = run("report", qualifying, str(ROOT / SCENARIOS["relief"]), "-o", str(out), "--lang", "pt")
    yield "report", out.read_text(encoding="utf-8"), ids | _ids(SCENARIOS["relief"])
    yield "report (its closing line)", said.replace(str(out), ""), set()
    for name, path in (("alternatives", SCENARIOS["alternatives"]), ("alternatives br-uy", LOB_ALTERNATIVES)):
        # a report whose graph argues an unknown value by value: one node per alternative, its lines beneath (alt55)
        out = tmp / f"report-{name.replace(' ', '-')}.html"
        run("report", str(ROOT / path), "-o", str(out), "--lang", "pt")
        yield f"report {name}", out.read_text(encoding="utf-8"), _ids(path)
    yield "rates", run("rates", "br-pt", "--format", "markdown", "--lang", "pt"), set()
    yield "list", run("list", "--lang", "pt"), set()
    shown = run("show", "br-pt", "10", "--lang", "pt")  # its rules' program text: the lines indented by four
    yield "show", "\n".join(line for line in shown.splitlines() if not line.startswith("    ")), set()
    rows = generate(6, seed=2)
    ledger = write_csv(tmp / "pay.csv", rows)
    row = next(r for r in rows if r["treaty"] == "br-pt")
    ledger_ids = _ids(str(CONTEXT.relative_to(ROOT))) | {w for r in rows for v in r.values() for w in _words(str(v))}
    yield "explain-row", run("explain-row", str(ledger), "--context", str(CONTEXT), "--row", row["id"],
                             "--lang", "pt"), ledger_ids
    bad = write_csv(tmp / "bad.csv", [*rows, {**row, "id": "bad-date", "date": "2023-02-29"},
                                      {**row, "id": "no-holding", "type": "dividend", "payer": "beta",
                                       "recipient": "lusoinvest"}])  # no holding record: the bound
    done = CliRunner().invoke(main, ["batch", str(bad), "--context", str(CONTEXT), "-o", str(tmp / "out.csv"),
                                     "--workers", "1", "--lang", "pt"])
    assert done.exit_code == 0, done.output
    with (tmp / "out.csv").open(encoding="utf-8", newline="") as fh:
        written = list(csv.DictReader(fh))
    errors = [r["error"] for r in written if r["error"]]
    assert errors
    yield "batch", done.stderr + "\n".join(errors), ledger_ids
    # the result columns written for people (TEXT_COLUMNS: outcomes, cap, findings, findings_text), each row's; the
    # machine columns beside them (`_code`, `cap_bp` ...) are the same bytes in every language, as JSON's machine keys
    texts = [r[c] for r in written for c in TEXT_COLUMNS if c != "error"]
    assert any("no máximo" in t for t in texts) and any(t.startswith("ausente: ") for t in texts), texts
    yield "batch columns", "\n".join(texts), ledger_ids
    # the rule-base tools, on the small fixtures of their own tests (a few seconds); `crosscheck` is left out: it
    # starts SWI-Prolog (some 25 s), and its words are tested in tests/test_cli_consistency.py
    yield "coverage", run("coverage", str(MINI / "scenarios"), "--logic", str(MINI / "logic"), "--workers", "1",
                          "--lang", "pt"), set()
    yield "diff", run("diff", "--base", str(MINI / "logic"), "--head", str(_copy(tmp, ("P >= 2500", "P >= 2400"))),
                      str(MINI / "scenarios"), "--lang", "pt"), set()
    fixture = ROOT / "tests" / "fixtures" / "mutate"
    yield "mutate", run("mutate", str(fixture / "scenarios"), "--logic", str(fixture / "logic"), "--treaty", "br-pt",
                        "--max", "6", "--probes", "2", "--lang", "pt"), set()


def _cut_outputs(tmp: Path) -> Iterator[tuple[str, str, set[str]]]:
    """Answers a time limit of 0 s cut (the check before the rules are applied, the alternatives of an unknown
    fact, whatif's search), each saying why first, under --lang pt; the scenario without its ``expect:`` block
    (whose comparison writes the block's own values)."""
    data = read_yaml(ROOT / CUT)
    data.pop("expect", None)
    for item in data.get("income", []):
        item.pop("expect", None)
    path = tmp / "cut.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    ids = _ids(CUT)
    for fmt in ("text", "markdown"):
        yield f"check --time-limit {fmt}", run("check", str(path), "--lang", "pt", "--time-limit", "0", "--format",
                                               fmt), ids
    cut = json.loads(run("check", str(path), "--lang", "pt", "--time-limit", "0", "--format", "json"))
    yield "check --time-limit json", "\n".join(json_texts(cut)), ids
    goal = 'max_rate("div-2024", R), R <= 1000'
    yield "whatif --time-limit", run("whatif", str(ROOT / FORTY), "--lang", "pt", "--goal", goal, "--time-limit",
                                     "0"), _ids(FORTY)


def wrong_expectations(tmp: Path) -> Path:
    """A copy of the br-pt dividend whose ``expect:`` block is wrong in every way `check` words: the status, an
    outcome, a State's outcome left out of an exact expectation, the provisions, the maximum source tax, and a
    withholding, entitlement and relief the item does not have."""
    data = read_yaml(ROOT / SCENARIOS["br-pt"])
    expected = data["expect"]["div-2024"]
    expected.update(status="depends", outcome={"br": "capped 15%"}, provisions=expected["provisions"][:-1],
                    max_source_tax="150000.00", withholding={"finding": "compliant"},
                    entitlement={"status": "entitled"}, relief={"state": "pt"})
    path = tmp / "wrong-expectations.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def _mismatch_outputs(tmp: Path) -> Iterator[tuple[str, str, set[str]]]:
    """`check` of a scenario whose ``expect:`` block does not match (exit code 1), in text and Markdown."""
    path = wrong_expectations(tmp)
    for fmt in ("text", "markdown"):
        text = run("check", str(path), "--lang", "pt", "--format", fmt)
        assert "8 divergências" in text, text
        yield f"check expect: {fmt}", text, _ids(SCENARIOS["br-pt"])


def test_a_failing_expect_block_is_written_in_the_users_language(tmp_path: Path) -> None:
    """The differences from a wrong ``expect:`` block: what differs, the statuses and outcomes in the words of the
    result lines, a State by its name, amounts as the locale writes them (issue 24); English as before, byte for
    byte; the JSON's machine fields unchanged in every language."""
    path = str(wrong_expectations(tmp_path))
    en, pt, european = (run("check", path, "--lang", lang).split("\n\n")[-1] for lang in ("en", "pt", "pt-PT"))
    provisions = "br-pt 1, br-pt 3(1)(f), br-pt 4(1), br-pt 10(1), br-pt 10(2), br-pt 10(2)(a)"
    assert en.splitlines() == [
        "expect: 8 mismatch(es)",
        "  ✗ div-2024: status: expected depends, got decided",
        "  ✗ div-2024: outcome for br: expected capped 15%, got capped 10%",
        "  ✗ div-2024: outcome for pt: expected (not stated in expect), got may tax",
        f"  ✗ div-2024: provisions: expected [{provisions}], got [{provisions}, br-pt 10(3)]",
        "  ✗ div-2024: maximum source tax: expected 150000.00, got 100000.00",
        "  ✗ div-2024: withholding: expected compliant, got no withholding check (no withholding: block)",
        "  ✗ div-2024: entitlement: expected entitled, got not tested (no entitlement article reaches it)",
        "  ✗ div-2024: relief: expected pt, got no relief (no relief: block, or none concluded)"]
    assert pt.splitlines() == [
        "expect: 8 divergências",
        "  ✗ div-2024: situação: esperado depende; obtido decidido",
        "  ✗ div-2024: resultado para o Brasil: esperado pode tributar, até 15% do montante bruto; obtido pode "
        "tributar, até 10% do montante bruto",
        "  ✗ div-2024: resultado para Portugal: esperado (não informado em expect); obtido pode tributar",
        f"  ✗ div-2024: dispositivos: esperado [{provisions}]; obtido [{provisions}, br-pt 10(3)]",
        "  ✗ div-2024: imposto máximo na fonte: esperado 150.000,00; obtido 100.000,00",
        "  ✗ div-2024: retenção na fonte: esperado conforme; obtido nenhuma verificação da retenção (sem bloco "
        "withholding:)",
        "  ✗ div-2024: direito aos benefícios: esperado concedidos; obtido não examinado (nenhum artigo sobre o "
        "direito aos benefícios o alcança)",
        "  ✗ div-2024: eliminação da dupla tributação: esperado Portugal; obtido nenhuma eliminação da dupla "
        "tributação (sem bloco relief:, ou nenhuma concluída)"]
    assert "  ✗ div-2024: estado: esperado depende; obtido decidido" in european.splitlines()
    assert "  ✗ div-2024: imposto máximo na fonte: esperado 150\u00a0000,00; obtido 100\u00a0000,00" in \
        european.splitlines()
    machine = [json.loads(run("check", path, "--lang", lang, "--format", "json"))["results"][0]["expect"]
               for lang in ("en", "pt", "pt-PT")]
    assert machine[0] == machine[1] == machine[2]
    assert machine[0]["matched"] is False
    assert machine[0]["mismatches"][0] == {"item_id": "div-2024", "what": "status", "expected": "depends",
                                           "actual": "decided"}


def test_every_difference_the_comparison_writes_has_portuguese_words() -> None:
    """Each ``what`` of :mod:`pyhelpers.engine.expect` and each sentence it writes for a value it could not
    compare is named in Portuguese by :func:`pyhelpers.output.render.mismatch_text` (a new one added there
    without its words would stay English under --lang pt)."""
    import ast
    import inspect

    from pyhelpers.engine import expect
    from pyhelpers.engine.expect import Mismatch

    tree = ast.parse(inspect.getsource(expect))
    whats: set[str] = set()
    sentences: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Mismatch":
            what = node.args[1]
            if isinstance(what, ast.Constant) and isinstance(what.value, str):
                whats.add(what.value)
            elif isinstance(what, ast.JoinedStr):  # f"outcome for {state}"
                whats.add("outcome for pt")
            sentences |= {a.value for a in node.args[2:]
                          if isinstance(a, ast.Constant) and isinstance(a.value, str) and " " in a.value}
        elif isinstance(node, ast.Tuple) and len(node.elts) == 3 and isinstance(node.elts[0], ast.Constant) and \
                isinstance(node.elts[0].value, str):  # the (what, want, have) checks of withholding and relief
            whats.add(node.elts[0].value)
    assert {"status", "outcome for pt", "provisions", "relief not included", "credit"} <= whats
    assert len(sentences) >= 5
    untranslated = [w for w in sorted(whats) if english_words(render.mismatch_text(Mismatch("i", w, "x", "y"), "pt"),
                                                            english_vocabulary(), set())]
    untranslated += [s for s in sorted(sentences) if english_words(
        render.mismatch_text(Mismatch("i", "status", "decided", s), "pt"), english_vocabulary(), set())]
    assert not untranslated, untranslated


# What stays English under --lang pt, and why (none of it is the tool's prose; each entry names where it comes from):
# - `batch`: a row's message names the ledger's column (``date:``), documented as written in docs/guide/batch.md ("the
#   column names and values found are not translated"); its result columns for people (`outcome_br`, `outcome_partner`,
#   `cap`, `findings`, `findings_text`) are checked ("batch columns"), its machine columns (`status`, `*_code`,
#   `cap_bp`, `findings_code` ...: TEXT_COLUMNS' complement) are not, as JSON's machine keys are not;
# - `diff`: the statuses and outcomes before and after are written as a scenario's `expect:` block writes them
#   (``decided; br: capped 15%, pt: may tax``), to be pasted into one: the scenario format's values, documented so
#   in docs/guide/commands.md.
KNOWN_ENGLISH: dict[str, set[str]] = {
    "batch": {"date"},
    "diff": {"decided", "capped", "may", "tax"},
}


def test_no_english_word_of_the_tool_under_lang_pt(english: set[str], tmp_path: Path) -> None:
    failures = []
    for command, text, ids in outputs(tmp_path):
        found = set(english_words(text, english, ids)) - KNOWN_ENGLISH.get(command.split(" ")[0], set())
        if found:
            failures.append(f"{command}: {sorted(found)}")
    assert not failures, "\n".join(failures)


def _catalogue_english() -> set[str]:
    """The English words of the catalogue's texts (corpus notes, procedural reasons, State names, titles) that their
    Portuguese texts do not also write."""
    from pyhelpers.engine.solve import Checker

    texts: dict[str, list[str]] = {"en": [], "pt": []}
    for sym in Checker().static_atoms:
        if (sym.name, len(sym.arguments)) in (("corpus_note", 3), ("procedural_reason", 4), ("state_name", 3),
                                                    ("article_title", 4), ("treaty_caveat", 3)):
            texts.setdefault(sym.arguments[-2].name, []).append(sym.arguments[-1].string)
    assert texts["en"] and texts["pt"]
    pt = set().union(*map(_words, texts["pt"]))
    return set().union(*map(_words, texts["en"])) - pt - _ALSO_PORTUGUESE


def test_the_catalogue_is_written_in_both_languages() -> None:
    """Every corpus note and every procedural article's reason has its English and its Portuguese text."""
    from pyhelpers.engine.catalog import treaties
    from pyhelpers.engine.solve import Checker

    checker = Checker()
    for entry in treaties(checker.logic, checker.static_atoms):
        assert len(entry.notes.get("en", [])) == len(entry.notes.get("pt", [])), entry.treaty
        for article in entry.by_status("procedural"):
            assert set(article.reasons) == {"en", "pt"}, article.provision


def test_list_show_and_rates_write_the_catalogue_in_portuguese() -> None:
    """`treaty list`, `show` and `rates` under --lang pt: the corpus notes, the procedural articles' reasons and
    the partner States in Portuguese, a Protocol item listed and cited as ``Protocolo`` (`rates`), and ``Protocolo
    9`` accepted by `show`, which prints the rule base's source as written: its provision ids (``br-pt Protocol
    9``, in the heading and beside each rule) and its rules' program text (the lines indented by four)."""
    english = _catalogue_english()
    assert {"missing", "decides", "taxing", "emirates", "inferred"} <= english
    texts = {"list": run("list", "--lang", "pt"), "list markdown": run("list", "--lang", "pt", "--format", "markdown"),
             "show procedural": run("show", "br-pt", "26", "--lang", "pt"),
             "show missing": run("show", "br-uy", "11", "--lang", "pt"),
             "show protocol": run("show", "br-pt", "Protocolo", "9", "--lang", "pt-BR"),
             "rates": run("rates", "br-sg", "--lang", "pt")}
    for command, text in texts.items():
        assert not re.search(r"(?<![a-z]{2}-[a-z]{2} )Protocol\b", text), command
        if command.startswith("show"):  # the source as written
            text = re.sub(r"\b[a-z]{2}-[a-z]{2} Protocol \d+", " ", text)
            text = "\n".join(line for line in text.splitlines() if not line.startswith("    "))
        else:
            assert not re.search(r"\bProtocol\b", text), command
        assert not english_words(text, english, set()), (command, english_words(text, english, set()))
    assert "Protocolo 9 Zonas Francas, SUDAM e SUDENE" in texts["list"]
    assert "br-ae  Emirados Árabes Unidos (ae)\n" in texts["list"]
    assert "## br-sg — Singapura (sg)\n" in texts["list markdown"]
    assert texts["show protocol"].startswith("br-pt Protocol 9 — Zonas Francas, SUDAM e SUDENE [codificado]\n")
    assert texts["show procedural"] == ("o br-pt 26 é procedimental e não está codificado: troca de informações entre "
                                        "as autoridades competentes: não atribui nenhum direito de tributar\n")
    european = run("list", "--lang", "pt-PT")  # Portuguese of Portugal reads the pt texts where it has none, with
    # Portugal's spelling of a State's name (issue 24)

    def catalogue_lines(text: str) -> list[str]:
        return [line for line in text.splitlines() if line.startswith(("br-", "  nota: ", "    br-"))]
    assert catalogue_lines(european) == [line.replace("Polônia", "Polónia") for line in catalogue_lines(texts["list"])]
    assert "Polónia" in european


def test_a_reading_may_have_a_european_form() -> None:
    """``%  pt-PT:`` right after ``%  pt:`` overrides it for pt-PT; without it pt-PT reads the pt line."""
    from pyhelpers.engine.program import _parse_vocabulary

    source = ("%: fact_of(S, X) derived\n%  doc: d\n%  en: the fact of {X}\n%  pt: o fato de {X}\n"
              "%  pt-PT: o facto de {X}\n\n%: other(S, X) derived\n%  doc: d\n%  en: other {X}\n%  pt: outro {X}\n")
    vocab = _parse_vocabulary(source, "logic/x.lp")
    fact, other = vocab[("fact_of", 2)], vocab[("other", 2)]
    assert [fact.reading(lang) for lang in ("en", "pt", "pt-BR", "pt-PT")] == \
        ["the fact of {X}", "o fato de {X}", "o fato de {X}", "o facto de {X}"]
    assert (other.pt_pt, other.reading("pt-PT")) == (None, "outro {X}")


def test_the_vocabulary_is_not_empty(english: set[str]) -> None:
    """The check has teeth: the tool's English words are found in English output."""
    text = run("check", str(ROOT / SCENARIOS["br-pt"]))
    assert {"capped", "gross", "amount", "provisions"} <= set(english_words(text, english, set()))


def test_whatif_writes_its_values_as_the_locale_does() -> None:
    """`treaty whatif --lang pt`: the values of a fact it may change and the changes it finds in the locale's
    numbers (``24,9``, ``9,99%``), the values set apart by ``;`` (the decimal mark is a comma); English as before;
    each fact with where the scenario states it (its YAML path, audit 24 requirement 4)."""
    goal = "max_rate(I, R), R <= 1000"
    pt = run("whatif", str(ROOT / ALMOST), "--lang", "pt", "--goal", goal).splitlines()
    en = run("whatif", str(ROOT / ALMOST), "--goal", goal).splitlines()
    fact = "holding(lusoinvest, alfa-industria-sa).capital (`holdings[0].capital`)"
    assert f"  {fact}: 24,9%; 9,99%; 10%; 14,99%; 15%; 24,99%; 25%; 49,99%; 50%; 94,99%; 95%" in pt
    assert f"  1. {fact}: 24,9% → 25%" in pt
    assert f"  {fact}: 24.9%, 9.99%, 10%, 14.99%, 15%, 24.99%, 25%, 49.99%, 50%, 94.99%, 95%" in en
    assert f"  1. {fact}: 24.9% -> 25%" in en


def test_a_protocol_item_is_cited_in_the_users_language() -> None:
    """A Protocol item is cited as `treaty list` names it in the answers' text under --lang pt (``br-pt Protocolo
    9``); its provision id (``br-pt Protocol 9``) stays in the JSON's ids and the ``expect:`` block, and in English."""
    path = str(ROOT / SCENARIOS["protocol"])
    pt, en = run("check", path, "--lang", "pt"), run("check", path)
    assert "  Brasil:   benefícios negados  (br-pt Protocolo 9)" in pt.splitlines()
    assert "  dispositivos: br-pt Protocolo 5; br-pt Protocolo 9" in pt.splitlines()
    assert "  provisions: br-pt Protocol 5; br-pt Protocol 9" in en.splitlines()
    assert "Protocolo" not in en
    machine = json.loads(run("check", path, "--lang", "pt", "--format", "json"))["results"][0]["items"][0]
    assert machine["provisions"] == ["br-pt Protocol 5", "br-pt Protocol 9"]


def test_a_value_given_as_alternatives_in_a_list_is_named_in_portuguese() -> None:
    """A royalty's right given as alternatives (``rights: [{one_of: [trademark, patent]}]``) reads in the
    format's Portuguese words, as a characterisation does; the JSON keeps the values as written."""
    path = str(ROOT / SCENARIOS["right"])
    pt = run("check", path, "--lang", "pt")
    assert "rights[0]`) for patente  (br-pl 4;" in pt and "rights[0]`) for marca  (br-pl 4;" in pt  # an "if": "for"
    assert "  income(licence-royalty).payment_for.rights[0]: marca ou patente  (decide licence-royalty)" in pt
    machine = json.loads(run("check", path, "--lang", "pt", "--format", "json"))
    assert "one of trademark, patent" in json.dumps(machine)


# ---- audit 24 D10: the help of every command, explain-row's heading, the report graph's labels --------------------

_ENGLISH_FUNCTION_WORDS = {"the", "with", "of", "default", "and", "when", "every", "each", "processes", "else", "only",
                           "from", "at", "most", "capped", "started", "master", "per", "its", "which", "for", "is"}
"""Words of English sentences (besides the tool's vocabulary) that a Portuguese help must not contain."""


_NAMES_IN_HELP = {*main.commands, "unknown", "core"}
"""What a help names as the command line or the scenario format spells it: commands (and the server's endpoints,
named after them), a scenario's ``unknown``, mutate's ``core``."""


def _help_text(text: str) -> str:
    """A help's words, without what click writes from the command's definition (metavars, choices, names)."""
    text = re.sub(r"\[[^\]\n]*\|[^\]\n]*\]", " ", text)  # choices: [text|json]
    text = re.sub(r"(?m)^\s*(-\w, )?--[\w-]+( [A-Z][A-Z_ ]*)?", " ", text)  # an option's name and metavar
    text = re.sub(r"--[\w-]+|\bpip install \S+", " ", text)  # options named in a help; an install command
    text = re.sub(r"\[(padrão|por omissão): [^\]]*\]", " ", text)  # a default value: the command line's own
    text = re.sub(r"'[^']*'", " ", text)  # examples quoted as the command line takes them
    return re.sub(r"(?m)^Uso: .*$", " ", text)  # the usage line: the command's own syntax


@pytest.mark.parametrize("lang", ["pt", "pt-PT"])
def test_every_commands_help_is_portuguese(english: set[str], lang: str) -> None:
    """`treaty --lang pt COMMAND --help` for every command: no English word of the tool's vocabulary, nor of an
    English sentence (the Spark master, the processes' default, the help of --time-limit ...)."""
    failures = []
    for name in ["", *main.commands]:
        args = ["--lang", lang, *([name] if name else []), "--help"]
        out = CliRunner().invoke(main, args)
        assert out.exit_code == 0, (name, out.output)
        text = _help_text(out.output)
        found = set(english_words(text, english | _ENGLISH_FUNCTION_WORDS, _NAMES_IN_HELP))
        if found:
            failures.append(f"{name or 'treaty'}: {sorted(found)}")
    assert not failures, "\n".join(failures)
    english_help = CliRunner().invoke(main, ["batch", "--help"]).output  # narrowly not: English as written
    assert "with --engine spark: the Spark master" in " ".join(english_help.split())


def test_explain_rows_heading_is_in_the_users_language(tmp_path: Path) -> None:
    """`treaty explain-row --lang pt`: the heading names the row in Portuguese (``razao.csv, linha r1``); English
    and the JSON's ``source`` keep ``row``."""
    rows = generate(3, seed=2)
    ledger = write_csv(tmp_path / "pay.csv", rows)
    row = rows[0]["id"]
    pt = run("explain-row", str(ledger), "--context", str(CONTEXT), "--row", row, "--lang", "pt")
    assert pt.splitlines()[0].startswith(f"{ledger}, linha {row} — "), pt.splitlines()[0]
    en = run("explain-row", str(ledger), "--context", str(CONTEXT), "--row", row)
    assert en.splitlines()[0].startswith(f"{ledger} row {row} — ")


def test_the_report_graph_cites_a_protocol_item_in_portuguese(tmp_path: Path) -> None:
    """The report's graph labels (``§ provision``) cite a Protocol item as the text does under --lang pt
    (``§ br-pt Protocolo 9``); in English ``§ br-pt Protocol 9``."""
    from pyhelpers.output.report import Node, node_label

    node = Node(id="n", kind="derived", reading="os benefícios dependem do regime", reading_en="the benefits",
                atom="a", provision="br-pt Protocol 9")
    assert node_label(node, "pt").endswith("\n§ br-pt Protocolo 9")
    assert node_label(node, "en").endswith("\n§ br-pt Protocol 9")
    out = tmp_path / "r.html"
    run("report", str(ROOT / SCENARIOS["br-pt"]), "-o", str(out), "--lang", "pt")
    page = out.read_text(encoding="utf-8")
    labels = re.findall(r"§ [^<\n\"]*", page)
    assert labels and not [x for x in labels if re.search(r"Protocol\b", x)], labels


def test_an_open_states_values_name_a_format_value_in_the_users_language() -> None:
    """An open State's values are named one by one: a State by its name, and a value of the format that is
    not a State (``undetermined``) in the user's words, never the English enum (audit 24b)."""
    listed = ["fr", "us", "undetermined"]
    assert render.named_values("", listed, "state", "pt") == "França, Estados Unidos ou indeterminado"
    assert render.named_values("", listed, "state", "en") == "France, the United States or undetermined"


_ENGLISH_METAVAR = re.compile(r"\b(OPTIONS|COMMAND|ARGS|FILES?|PATHS?|DIRECTORY|INTEGER|FLOAT|TEXT|RANGE|TREATY|QUERY|"
                              r"LEDGER|GOAL|SECONDS|YYYY)\b")


@pytest.mark.parametrize(("lang", "files"), [("pt", "ARQUIVOS"), ("pt-PT", "FICHEIROS")])
def test_the_usage_line_and_the_metavars_are_portuguese(lang: str, files: str) -> None:
    """`treaty --lang pt --help` (audit 53b, "what remains" 6): click's usage pieces (``[OPÇÕES]``, ``COMANDO
    [ARGUMENTOS]...``), each argument's and option's metavar (``ARQUIVOS``, ``INTEIRO``; pt-PT ``FICHEIROS``) in
    Portuguese, in every command's help and in a usage error, the help's text naming an argument as its usage line
    does; English as click writes it, put back after a Portuguese help in the same process."""
    def helped(*args: str) -> str:
        out = CliRunner().invoke(main, list(args))
        assert out.exit_code == 0, (args, out.output)
        return out.output
    root = helped("--lang", lang, "--help")
    assert root.splitlines()[0].endswith(" [OPÇÕES] COMANDO [ARGUMENTOS]..."), root.splitlines()[0]
    check = helped("--lang", lang, "check", "--help")
    assert check.splitlines()[0].endswith(f" check [OPÇÕES] {files}..."), check.splitlines()[0]
    assert f"dos cenários {files} e" in " ".join(check.split())
    batch = helped("--lang", lang, "batch", "--help")
    assert batch.splitlines()[0].endswith(" batch [OPÇÕES] RAZÃO") and "  --workers INTEIRO " in batch
    for name in ["", *main.commands]:
        text = helped("--lang", lang, *([name] if name else []), "--help")
        usage = [line for line in text.splitlines() if line.startswith("Uso: ")]
        options = re.findall(r"(?m)^\s*(?:-\w, )?--[\w-]+((?: [A-ZÀ-Ý][A-ZÀ-Ý_ -]*)?)", text)
        assert usage and not _ENGLISH_METAVAR.search(" ".join([*usage, *options])), (name, usage, options)
    wrong = CliRunner().invoke(main, ["--lang", lang, "check"])
    assert wrong.stderr.startswith(f"Uso: main check [OPÇÕES] {files}...") or f"check [OPÇÕES] {files}..." in \
        wrong.stderr.splitlines()[0], wrong.stderr
    english = helped("--help")  # narrowly not: English, the same process after Portuguese
    assert english.splitlines()[0].endswith(" [OPTIONS] COMMAND [ARGS]...")
    assert helped("check", "--help").splitlines()[0].endswith(" check [OPTIONS] FILES...")
    assert "  --workers INTEGER RANGE " in helped("batch", "--help")
