"""The house's structure: the Python layer in sub-packages by role, data flowing one way (the import-linter
contracts of pyproject.toml), each sub-package saying what it owns."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import clingo
import pytest

from .conftest import ROOT

PACKAGE = ROOT / "pyhelpers"


def test_import_contracts_hold() -> None:
    """Layers (no import from a lower layer to a higher one) and no circles inside a layer."""
    lint = Path(sys.executable).parent / "lint-imports"
    if not lint.exists():
        pytest.fail("import-linter is not installed: run `sh .ci/setup --dev`")
    done = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_every_sub_package_says_what_it_owns() -> None:
    for init in sorted(PACKAGE.glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and len(doc.split()) >= 15, f"{init.relative_to(ROOT)}: a one-paragraph docstring"


def test_no_module_in_the_package_root() -> None:
    """Modules live in their layer's sub-package; the root holds only the package's docstring."""
    assert sorted(p.name for p in PACKAGE.glob("*.py")) == ["__init__.py"]


# ------------------------------------------------------------------------------------ the law only in logic/ ---
LOGIC = ROOT / "logic"
TREATIES = sorted(p.name for p in LOGIC.iterdir() if p.is_dir() and p.name != "core")
PROVISION = re.compile(
    r"\bArts?\.\s*\d|\bArticles?\s+\d|(?<!xx-yy )\bProtocol\s+\d"  # an article or a protocol item by number
    r"|(?<!xx-yy )(?<!<treaty> )\b\d{1,2}\(\d{1,2}(?:\.\d)?\)"  # a paragraph: 10(2), 5(4.1)
)
"""A provision named in the Python layer (the grammar of provision ids is written with a placeholder
treaty, ``xx-yy 10(2)(a)`` or ``<treaty> 10(2)(a)``)."""
UNITS = {100: "percent and cents", 1000: "milliseconds", 10000: "basis points in a whole",
         1_000_000: "a chain's share units (hundred-millionths of the whole) in a per cent"}
"""Numbers that are units, not law, though a treaty also cites them (10% is 1000 basis points)."""


def _python_files() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _cited_numbers() -> set[int]:
    """Every integer a static fact of the rule base cites with a provision (rates in basis points,
    periods in months, day counts, amounts, dates), read from the rules themselves."""
    from pyhelpers.engine.program import load_logic
    from pyhelpers.engine.solve import Checker

    logic = load_logic()
    cited: set[int] = set()
    for sym in Checker(logic).static_atoms:
        pred = logic.predicate(sym.name, len(sym.arguments))
        if pred is None or pred.role != "static" or not any(a.type == "prov" for a in pred.args):
            continue
        cited |= {a.number for a, arg in zip(sym.arguments, pred.args, strict=True)
                  if a.type == clingo.SymbolType.Number and arg.type in ("bp", "months", "days", "int", "year", "date")}
    return cited


def test_no_treaty_is_named_in_the_python_layer() -> None:
    """The treaty ids are the folders of logic/: no file of pyhelpers/ names one (code, text, comment)."""
    assert TREATIES
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for path in _python_files()
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if any(re.search(rf"\b{re.escape(t)}\b", line) for t in TREATIES)]
    assert not found, "treaty ids in the Python layer (the law lives in logic/):\n" + "\n".join(found)


def test_no_provision_is_named_in_the_python_layer() -> None:
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for path in _python_files()
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if PROVISION.search(line)]
    assert not found, "provisions named in the Python layer (the law lives in logic/):\n" + "\n".join(found)


def test_no_figure_the_rules_cite_is_written_in_the_python_layer() -> None:
    """No number literal of pyhelpers/ equals a rate, period, day count, amount or date the rules cite
    (beyond the numbers up to 100, which ordinary code is full of, and the units of UNITS; periods in
    months are caught by the test of named provisions and by the synthetic treaty's)."""
    cited = {n for n in _cited_numbers() if n > 100 and n not in UNITS}
    assert {183, 365, 2500}.issubset(cited)  # the scanner sees the treaties' figures
    found = []
    for path in _python_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and type(node.value) in (int, float) and node.value in cited:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value}")
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and re.fullmatch(r"\d+(\.\d+)?", node.value) and int(float(node.value) * 100) in cited:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    assert not found, "figures the rules cite, written in Python (cite them in logic/ and read them):\n" + \
        "\n".join(found)


# ------------------------------------------------------- a treaty and a period of its own need no Python change ---
SYNTHETIC = "xx-yy"


@pytest.fixture(scope="module")
def synthetic_logic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rule base with one treaty replaced by a synthetic one: the br-pl folder renamed ``xx-yy``,
    its partner State ``yy`` (Yland), and its employment article's short stay changed from 183 days in
    any twelve months to 90 days in any six months beginning or ending in the fiscal year."""
    root = tmp_path_factory.mktemp("synthetic") / "logic"
    shutil.copytree(LOGIC, root)
    source = "br-pl"
    shutil.move(root / source, root / SYNTHETIC)
    for path in (root / SYNTHETIC).glob("*.lp"):
        text = path.read_text(encoding="utf-8").replace(f'"{source}', f'"{SYNTHETIC}')
        text = text.replace(f"{source} ", f"{SYNTHETIC} ")
        text = text.replace(f'contracting_state("{SYNTHETIC}", pl)', f'contracting_state("{SYNTHETIC}", yy)')
        text = re.sub(r'state_name\(pl, (en|pt), "[^"]*"\)', r'state_name(yy, \1, "Yland")', text)
        path.write_text(text, encoding="utf-8")
    article = root / SYNTHETIC / "art16_employment.lp"
    text = article.read_text(encoding="utf-8")
    for old, new in ((f'day_count("{SYNTHETIC}", employment_presence_days, 183,',
                      f'day_count("{SYNTHETIC}", employment_presence_days, 90,'),
                     (f'period_months("{SYNTHETIC}", presence_window_months, 12,',
                      f'period_months("{SYNTHETIC}", presence_window_months, 6,')):
        assert old in text
        text = text.replace(old, new)
    article.write_text(text, encoding="utf-8")
    return root


def _check_synthetic(root: Path, tmp_path: Path, *stays: tuple[str, str]) -> dict[str, object]:
    scenario = tmp_path / "yland.yaml"
    scenario.write_text(f"""name: Yland employee in Brazil
treaty: {SYNTHETIC}
evaluation_date: 2027-12-31
persons:
  yland-co: {{kind: company, liable_to_tax: {{yy: [incorporation]}}}}
  ana: {{kind: individual, liable_to_tax: {{yy: [domicile]}}}}
presence:
{"".join(f"  - {{person: ana, state: br, from: {a}, until: {b}}}{chr(10)}" for a, b in stays)}income:
  - {{id: salary, type: employment, payer: yland-co, recipient: ana, date: 2027-06-30,
     gross: {{amount: "1000.00", currency: EUR}}, employment: {{exercised_in: br}}}}
""", encoding="utf-8")
    env = {**os.environ, "TREATY_LOGIC_DIR": str(root), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    # the rules' answer is under test, not the machine's load: a limit that two busy cores do not reach (the
    # default 10 s, a cold rule-base cache included, was reached beside the suite's two workers)
    done = subprocess.run([sys.executable, "-m", "pyhelpers.interfaces.cli", "check", str(scenario), "--format",
                           "json", "--time-limit", "240"], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    item = json.loads(done.stdout)["results"][0]["items"][0]
    return {"outcome": {s["state"]: s["outcome"] for s in item["states"]}, "provisions": item["provisions"]}


def test_a_synthetic_treaty_with_a_new_period_needs_no_python_change(synthetic_logic: Path, tmp_path: Path) -> None:
    """90 days (2027-01-01 to 2027-03-31) within six months do not exceed 90: only Yland may tax; 91 days
    (to 2027-04-01) exceed them: both may. 45 days in January and February and 61 in September and October
    are 106 days within twelve months but at most 61 within any six: only Yland may tax. The loader knows
    the treaty and its States, the date module counts six-month windows, the rules decide — from the rule
    files alone."""
    exempt = {"outcome": {"br": "exempt", "yy": "exclusive"},  # each short-stay letter met is cited
              "provisions": [f"{SYNTHETIC} 4", f"{SYNTHETIC} 16(2)", *(f"{SYNTHETIC} 16(2)({x})" for x in "abc")]}
    taxed = {"outcome": {"br": "may_tax", "yy": "may_tax"},  # and the one that fails, beside 16(1)
             "provisions": [f"{SYNTHETIC} 4", f"{SYNTHETIC} 16(1)", f"{SYNTHETIC} 16(2)(a)"]}
    assert _check_synthetic(synthetic_logic, tmp_path, ("2027-01-01", "2027-03-31")) == exempt
    assert _check_synthetic(synthetic_logic, tmp_path, ("2027-01-01", "2027-04-01")) == taxed
    assert _check_synthetic(synthetic_logic, tmp_path, ("2027-01-01", "2027-02-14"), ("2027-09-01", "2027-10-31")) \
        == exempt


def test_article_titles_are_the_published_headings() -> None:
    """The catalogue's Portuguese title of each numbered article is the heading its literate file quotes from
    the published text (``% Title:   <heading> (<English>)``); files for text missing from the corpus, or
    encoding part of an article, say so after a dash and are not compared."""
    logic = ROOT / "logic"
    titles = {(t, int(n)): title for f in logic.glob("*/treaty.lp")
              for t, n, title in re.findall(r'article_title\("([^"]+)", (\d+), pt, "([^"]*)"\)', f.read_text())}
    compared = 0
    for path in sorted(logic.glob("br-*/art[0-9][0-9]_*.lp")):
        head = path.read_text()[:1200]
        article = re.search(r"^% Article: (\d+)\s*$", head, re.M)
        title = re.search(r"^% Title:   ([^(\n]+?) \(", head, re.M)
        if article is None or title is None or "—" in head.split("% Title:", 1)[1].split("\n", 1)[0]:
            continue
        key = (path.parent.name, int(article.group(1)))
        assert titles.get(key) == title.group(1), (path.name, titles.get(key), title.group(1))
        compared += 1
    assert compared >= 40, compared
