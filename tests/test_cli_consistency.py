"""Issue 25, item 5: one CLI. `check` takes folders; the same option names everywhere (`--workers`, the
old `--jobs` a hidden deprecated alias); exit codes as everywhere (`diff` 1 when an outcome changed,
`crosscheck` on no scenario 2); `treaty init`; `--version`; logging under the package's name with
`--verbose`; shell completion."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from pyhelpers.base.version import package_version
from pyhelpers.interfaces.cli import main
from pyhelpers.scenario import load_file

from .conftest import ROOT
from .test_regression import MINI, _copy

QUALIFYING = ROOT / "scenarios/br-pt/dividends-qualifying-holding.yaml"


def _invoke(*args: str) -> tuple[int, str, str]:
    out = CliRunner().invoke(main, list(args))
    return out.exit_code, out.stdout, out.stderr


def test_check_takes_a_folder_recursing_yaml_and_yml_sorted(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    shutil.copy(QUALIFYING, tmp_path / "b" / "one.yml")
    shutil.copy(QUALIFYING, tmp_path / "a.yaml")
    (tmp_path / "notes.txt").write_text("not a scenario", encoding="utf-8")
    code, out, err = _invoke("check", str(tmp_path), "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert [d["source"] for d in data["results"]] == [str(tmp_path / "a.yaml"), str(tmp_path / "b" / "one.yml")]
    assert (data["incomplete"], data["schema_version"]) == (None, "2.0")
    code, text, _ = _invoke("check", str(tmp_path))
    assert code == 0 and text.count("br-pt 10(2)(a)") >= 2


def test_check_of_a_folder_without_scenarios_is_bad_input(tmp_path: Path) -> None:
    code, _, err = _invoke("check", str(tmp_path))
    assert code == 2
    assert err == (f"error: {tmp_path}: expected a scenario file or a folder holding *.yaml or *.yml files, found a "
                   "folder without any\n")


@pytest.mark.parametrize("command", [("coverage",), ("diff", "--base", "HEAD"), ("diff", "--base", "logic"),
                                     ("mutate", "--treaty", "br-pt"), ("report", "-o", "out.html")])
def test_a_folder_without_scenarios_is_bad_input_everywhere(tmp_path: Path, command: tuple[str, ...],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """As for check: coverage (not a 0% table), diff (not the revision's own usage text), mutate, report
    refuse a folder without any scenario, naming it, with exit code 2, before running anything."""
    monkeypatch.chdir(ROOT)
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, err = _invoke(*command, str(empty))
    assert (code, out) == (2, "")
    assert err == (f"error: {empty}: expected a scenario file or a folder holding *.yaml or *.yml files, found a "
                   "folder without any\n")
    assert not (ROOT / "out.html").exists()


def test_report_takes_a_folder_as_check_does(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    shutil.copy(QUALIFYING, tmp_path / "b" / "one.yml")
    shutil.copy(QUALIFYING, tmp_path / "a.yaml")
    (tmp_path / "notes.txt").write_text("not a scenario", encoding="utf-8")
    out = tmp_path / "report.html"
    code, text, err = _invoke("report", str(tmp_path), "-o", str(out))
    assert code == 0, err
    assert text.startswith(f"{out}: 2 scenario(s), 2 item(s), "), text
    page = out.read_text(encoding="utf-8")
    assert page.index(str(tmp_path / "a.yaml")) < page.index(str(tmp_path / "b" / "one.yml"))


def test_crosscheck_on_no_scenario_is_bad_input(tmp_path: Path) -> None:
    code, _, err = _invoke("crosscheck", str(tmp_path))
    assert code == 2
    assert err.startswith(f"error: no scenario file in {tmp_path}: expected a *.yaml or *.yml file")


def test_diff_exits_1_when_an_outcome_changed(tmp_path: Path) -> None:
    amended = _copy(tmp_path, ("P >= 2500", "P >= 2400"))
    code, out, _ = _invoke("diff", "--base", str(MINI / "logic"), "--head", str(amended), str(MINI / "scenarios"))
    assert code == 1 and "below-threshold.yaml" in out
    code, out, _ = _invoke("diff", "--base", str(MINI / "logic"), "--head", str(MINI / "logic"),
                           str(MINI / "scenarios"), "--format", "json")
    assert code == 0 and json.loads(out)["changes"] == []


def test_workers_everywhere_and_jobs_a_hidden_deprecated_alias() -> None:
    for command in ("batch", "coverage", "mutate", "serve"):
        code, out, _ = _invoke(command, "--help")
        assert code == 0 and "--workers" in out and "--jobs" not in out, command
    args = ["coverage", str(MINI / "scenarios"), "--logic", str(MINI / "logic"), "--format", "json"]
    code, new, _ = _invoke(*args, "--workers", "1")
    assert code == 0
    code, old, err = _invoke(*args, "--jobs", "1")
    assert code == 0 and err == "warning: --jobs is deprecated: use --workers\n"
    assert json.loads(old) == json.loads(new)


def test_version() -> None:
    code, out, _ = _invoke("--version")
    assert code == 0 and out == f"treaty, version {package_version()}\n"


def test_verbose_logs_under_the_package_name() -> None:
    code, out, err = _invoke("-v", "check", str(QUALIFYING))
    assert code == 0 and "br-pt 10(2)(a)" in out
    assert f"INFO pyhelpers.check: checking {QUALIFYING}\n" in err
    code, _, err = _invoke("check", str(QUALIFYING))
    assert code == 0 and "INFO" not in err


def test_shell_completion_as_the_user_guide_says() -> None:
    """The user guide's line (docs/guide/commands.md): `eval "$(_TREATY_COMPLETE=bash_source treaty)"` gives a
    bash completion script."""
    guide = (ROOT / "docs" / "guide" / "commands.md").read_text(encoding="utf-8")
    assert 'eval "$(_TREATY_COMPLETE=bash_source treaty)"' in guide
    out = CliRunner().invoke(main, [], prog_name="treaty", env={"_TREATY_COMPLETE": "bash_source"})
    assert out.exit_code == 0 and "_treaty_completion()" in out.stdout and "complete -o nosort -F" in out.stdout
    out = CliRunner().invoke(main, [], prog_name="treaty",
                             env={"_TREATY_COMPLETE": "bash_complete", "COMP_WORDS": "treaty cro", "COMP_CWORD": "1"})
    assert out.stdout == "plain,crosscheck\n"


INIT_CASES = [(treaty, item_type) for treaty in ("br-ae", "br-pl", "br-pt", "br-sg", "br-uy")
              for item_type in ("dividend", "employment", "capital_gain")] + [
    ("br-pt", "interest_on_equity"), ("br-sg", "technical_services"), ("br-uy", "shipping_air_transport"),
    ("br-pl", "pension"), ("br-ae", "student")]


@pytest.mark.parametrize(("treaty", "item_type"), INIT_CASES, ids=[f"{t}-{k}" for t, k in INIT_CASES])
def test_init_writes_a_scenario_that_loads_and_checks(tmp_path: Path, treaty: str, item_type: str) -> None:
    path = tmp_path / "start.yaml"
    code, _, err = _invoke("init", treaty, item_type, "-o", str(path))
    assert code == 0 and err == f"wrote {path}: fill it in, then `treaty check {path}`\n"
    text = path.read_text(encoding="utf-8")
    assert text.startswith(f"# A scenario of {treaty} to start from (treaty init {treaty} {item_type})")
    assert f"    type: {item_type}\n" in text
    scenario = load_file(path)
    assert (scenario.treaty, [it.type for it in scenario.income]) == (treaty, [item_type])
    code, out, err = _invoke("check", str(path))
    assert code == 0 and not err, out + err
    assert "item-1" in out


def test_init_lists_the_details_of_the_type_commented_out() -> None:
    code, out, _ = _invoke("init", "br-pt", "dividend")
    assert code == 0
    assert "    # dividend:\n" in out
    assert "    #   instrument: shares | jouissance_shares" in out
    assert "    # beneficial_owner: Id  # default: the recipient\n" in out


def test_init_refuses_an_unknown_treaty_or_type_and_an_existing_file(tmp_path: Path) -> None:
    code, _, err = _invoke("init", "br-xx", "dividend")
    assert code == 2
    assert err.startswith("error: treaty: expected one of br-ae, br-pl, br-pt, br-sg, br-uy, found 'br-xx'")
    code, _, err = _invoke("init", "br-pt", "gift")
    assert code == 2 and err.startswith("error: type: expected one of dividend, branch_profits,")
    there = tmp_path / "there.yaml"
    there.write_text("mine", encoding="utf-8")
    code, _, err = _invoke("init", "br-pt", "dividend", "-o", str(there))
    assert code == 2 and "expected a new file, found one already there" in err
    assert there.read_text(encoding="utf-8") == "mine"


# ------------------------------------------------- --lang and --format on every command with output ---
NO_LANG = {
    "serve": "prints nothing but its log: each request says its own language (lang=, Accept-Language)",
    "schema": "prints the JSON Schema of the scenario format: no word of the tool's own",
    "init": "writes a YAML scenario whose comments are the scenario format's field documentation (English, as "
            "`treaty schema` gives it)",
}
"""The commands without ``--lang``, and why (docs/guide/commands.md says the same)."""
ONE_FORM = {
    "batch": "the output file's format is chosen by its extension (.csv, .jsonl, .parquet)",
    "report": "an HTML page",
    "schema": "JSON only",
    "init": "YAML only",
    "serve": "answers HTTP requests",
}
"""The commands without ``--format``: their output has one form (or its form is chosen otherwise)."""


def _option(command: click.Command, name: str) -> click.Option | None:
    return next((p for p in command.params if isinstance(p, click.Option) and name in p.opts), None)


def test_every_command_with_output_takes_lang_and_format_with_the_same_help() -> None:
    """Every command that prints a result accepts --lang (the one option definition: same choices, same help),
    and --format where its result has more than one form (the same help, `rates` adding what xlsx needs)."""
    from pyhelpers.interfaces.cli import FORMAT_HELP

    assert set(NO_LANG) <= set(main.commands) and set(ONE_FORM) <= set(main.commands)
    reference = _option(main.commands["check"], "--lang")
    assert reference is not None and isinstance(reference.type, click.Choice)
    for name, command in main.commands.items():
        lang = _option(command, "--lang")
        if name in NO_LANG:
            assert lang is None, f"{name}: --lang, though listed in NO_LANG"
        else:
            assert lang is not None, f"{name}: prints a result but has no --lang"
            assert isinstance(lang.type, click.Choice)
            assert (list(lang.type.choices), lang.default, lang.help, lang.callback) == \
                (list(reference.type.choices), reference.default, reference.help, reference.callback), name
        fmt = _option(command, "--format")
        if name in ONE_FORM:
            assert fmt is None, f"{name}: --format, though listed in ONE_FORM"
        else:
            assert fmt is not None, f"{name}: has more than one form but no --format"
            assert isinstance(fmt.type, click.Choice) and len(fmt.type.choices) > 1 and "json" in fmt.type.choices
            assert fmt.help is not None and fmt.help.startswith(FORMAT_HELP), name
            assert fmt.help == FORMAT_HELP or name == "rates", name


def test_the_commands_page_documents_lang_and_format() -> None:
    """docs/guide/commands.md lists every command, says which take --lang and --format and why the others
    do not."""
    guide = " ".join((ROOT / "docs" / "guide" / "commands.md").read_text(encoding="utf-8").split())
    for name in main.commands:
        assert f"treaty {name}" in guide, name
    for name in NO_LANG:
        assert re.search(rf"`{name}` has no (`--format` and no )?`--lang`", guide), name
    for name in ONE_FORM:
        assert f"`{name}` has no `--format`" in guide, name


def test_show_as_json() -> None:
    code, out, err = _invoke("show", "br-pt", "10", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert (data["treaty"], data["article"], data["status"], data["titles"]["pt"]) == \
        ("br-pt", "10", "encoded", "Dividendos")
    [file] = data["files"]
    assert file["path"] == "logic/br-pt/art10_dividends.lp"
    first = file["sections"][0]
    assert first["quote"] is None and first["rules"][0]["id"] == "br-pt/10-dividend-item"
    definition = file["sections"][1]
    assert definition["quote"].startswith("br-pt 10(3): O termo «dividendos»")
    assert [r["id"] for r in definition["rules"]][:2] == ["br-pt/10-3-participating-right",
                                                           "br-pt/10-3-definition-applied"]
    assert definition["rules"][0]["provision"] == "br-pt 10(3)"
    assert definition["facts"][0] == 'participating_right("br-pt", shares, "br-pt 10(3)").'
    code, out, _ = _invoke("show", "br-ae", "10", "--format", "json")
    assert code == 0
    missing = json.loads(out)
    assert (missing["status"], missing["files"]) == ("missing", [])
    code, _, err = _invoke("show", "br-pt", "99", "--format", "json")
    assert code == 2 and err.startswith("error: br-pt 99: expected an article of br-pt")


def test_coverage_and_diff_in_portuguese(tmp_path: Path) -> None:
    code, out, _ = _invoke("coverage", str(MINI / "scenarios"), "--logic", str(MINI / "logic"), "--workers", "1",
                           "--lang", "pt")
    assert code == 0
    assert out.startswith("cobertura de logic/ por 2 cenário(s)\n\ntratado  artigo       regras disparadas")
    assert "  logic/br-pt/art10.lp:30: fx/pension-exclusive: regra nunca disparada\n" in out
    assert "fx/pension-exclusive condição 0 (literal) `income(S,I,pension)`: nunca verdadeira\n" in out
    assert "9/10 90,0%" in out
    code, js, _ = _invoke("coverage", str(MINI / "scenarios"), "--logic", str(MINI / "logic"), "--workers", "1",
                          "--lang", "pt", "--format", "json")
    assert code == 0 and json.loads(js)["uncovered"][0]["what"] == "rule never fired"  # JSON: English values
    amended = _copy(tmp_path, ("P >= 2500", "P >= 2400"))
    code, out, _ = _invoke("diff", "--base", str(MINI / "logic"), "--head", str(amended), str(MINI / "scenarios"),
                           "--lang", "pt")
    assert code == 1
    assert out == (f"1 resultado(s) mudaram (2 cenário(s)):\n{MINI / 'scenarios' / 'below-threshold.yaml'} div-2024\n"
                   "  antes:  decided; br: capped 15%, pt: may tax\n          dispositivos: br-pt 10(2)(b)\n"
                   "  depois: decided; br: capped 10%, pt: may tax\n          dispositivos: br-pt 10(2)(a)\n")
    code, out, _ = _invoke("diff", "--base", str(MINI / "logic"), "--head", str(MINI / "logic"),
                           str(MINI / "scenarios"), "--lang", "pt")
    assert (code, out) == (0, "nenhum resultado mudou (2 cenário(s))\n")


def test_mutate_and_crosscheck_in_portuguese(monkeypatch: pytest.MonkeyPatch) -> None:
    fixture = ROOT / "tests" / "fixtures" / "mutate"
    code, out, _ = _invoke("mutate", str(fixture / "scenarios"), "--logic", str(fixture / "logic"), "--treaty", "br-pt",
                           "--max", "6", "--probes", "2", "--lang", "pt")
    assert code == 0
    assert out.startswith("teste de mutação de logic/br-pt/: uma amostra de 6 de 22 mutantes (semente 1); "
                          "3 cenário(s), 2 sonda(s); ")
    assert "\noperador                   mortos          sobreviventes suspeitos-equivalentes" in out
    assert "\npontuação: 2/2 = 100,0% mortos (mortos / (total - suspeitos-equivalentes - inválidos - pulados))\n" in out
    assert "\ninválidos (4):\n" in out
    assert re.search(r"\nremoção +0 +0 +0 +4 +0\n", out)
    assert ("\n  logic/br-pt/art10.lp:16: fx/dividend: remoção: condição 0 `income(S,I,dividend)` removida (regra "
            "insegura: uma variável deixou de ser ligada por uma condição positiva)\n") in out
    code, js, _ = _invoke("mutate", str(fixture / "scenarios"), "--logic", str(fixture / "logic"), "--treaty", "br-pt",
                          "--max", "6", "--probes", "2", "--lang", "pt", "--format", "json")
    assert code == 0 and "drop" in json.loads(js)["by_operator"]  # JSON: English operators and mutations
    assert any(r["mutation"] == "condition 0 `income(S,I,dividend)` dropped" for r in json.loads(js)["results"])

    from pyhelpers.prolog import crosscheck as cc

    monkeypatch.setattr(cc, "swipl_version", lambda: "9.0.4")
    report = cc.Report(with_unknowns=1, atoms=12_345, seconds=2.5, clingo_seconds=1.25, prolog_seconds=1.0,
                       disagreements=[cc.Disagreement("a.yaml", 'max_rate("x", 1000)', "true", "false", "rate")],
                       skipped=["p/2 not compared: it is static"])
    lines = cc.report_text(report, 3, 0, lang="pt").splitlines()
    assert lines[0].endswith("em 3 cenário(s) + 0 gerado(s); 1 com fatos informados como desconhecidos, 0 com vários "
                             "conjuntos de respostas")
    assert lines[1:] == ["DIVERGÊNCIA: 1 átomo(s) em 1 cenário(s) (12.345 átomos comparados)",
                         '  a.yaml: max_rate("x", 1000): clingo true, SWI-Prolog false (rate)',
                         "tempo: 2,5 s (clingo 1,2 s; SWI-Prolog 1,0 s somados os seus processos)",
                         "não comparados (1):", "  p/2 not compared: it is static"]
    english = cc.report_text(report, 3, 0).splitlines()
    assert english[1] == "DISAGREEMENT: 1 atom(s) in 1 scenario(s) (12,345 atoms compared)"
    assert english[3] == "time: 2.5 s (clingo 1.2 s; SWI-Prolog 1.0 s over its processes)"


def test_a_missing_extra_names_its_packages_and_to_install_from_a_clone(monkeypatch: pytest.MonkeyPatch) -> None:
    """treaty-logic is not on PyPI: a missing extra is installed from a clone; ``treaty serve`` names the
    serve extra's package that is missing (not a dependency of it that happens to be imported first)."""
    import importlib.util

    from pyhelpers.base.messages import translate
    from pyhelpers.interfaces.ledger import parquet

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "fastapi" else real(name, *a))
    code, _, err = _invoke("serve", "--port", "0")
    assert code == 2
    assert err == "error: treaty serve needs fastapi: pip install '.[serve]' in a clone of treaty-logic\n"
    assert translate(err[len("error: "):-1], "pt") == (
        "treaty serve precisa de fastapi: pip install '.[serve]' em um clone do treaty-logic")
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name in ("fastapi", "uvicorn")
                        else real(name, *a))
    assert _invoke("serve")[2] == ("error: treaty serve needs fastapi and uvicorn: pip install '.[serve]' in a "
                                   "clone of treaty-logic\n")
    monkeypatch.setitem(__import__("sys").modules, "pyarrow.parquet", None)
    with pytest.raises(Exception, match=r"^Parquet needs pyarrow: pip install '\.\[parquet\]' in a clone of "):
        parquet()
