"""Errors in Brazilian Portuguese under ``--lang pt``: each names the file, the line, the field, what was
expected and what was found, and holds no English word of the tool's error vocabulary (the words of the
English templates in :mod:`pyhelpers.base.messages` that no Portuguese template uses); in English the
messages are unchanged."""

from __future__ import annotations

import asyncio
import csv
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pyhelpers.base.errors import Problem, ScenarioError
from pyhelpers.base.messages import _PT, english_templates, translate
from pyhelpers.engine.solve import Checker
from pyhelpers.interfaces.batch import run_batch
from pyhelpers.interfaces.cli import main
from pyhelpers.interfaces.helptext import HELP, help_lang
from pyhelpers.scenario import json_schema, load_text

from .conftest import ROOT
from .ledger_gen import COLUMNS, CONTEXT, write_csv
from .test_loader import GOOD

_WORD = re.compile(r"[A-Za-z]+")
_PLACEHOLDER = re.compile(r"\{\w+(:t)?\}")


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(_PLACEHOLDER.sub(" ", text))}


def _format_words(node: Any) -> Iterator[str]:
    """The scenario format's own names (fields, enum values): written as they are in any language."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                for name in value:
                    yield from _WORD.findall(name)
            if key in ("enum", "const"):
                for v in value if isinstance(value, list) else [value]:
                    yield from _WORD.findall(str(v))
            yield from _format_words(value)
    elif isinstance(node, list):
        for value in node:
            yield from _format_words(value)


@cache
def english_vocabulary() -> frozenset[str]:
    """The words of the English templates that are not also Portuguese (``a``, ``e``), keywords a Portuguese
    template keeps (``true``, ``treaty``) or names of the scenario format (``capital``, ``interest``)."""
    english = set().union(*(_words(t) for t in english_templates()))
    portuguese = set().union(*(_words(pt) for _, pt in _PT))
    return frozenset(english - portuguese - {w.lower() for w in _format_words(json_schema())})


def english_in(text: str, *verbatim: str) -> set[str]:
    """The English words of the tool's error vocabulary in ``text``, once the parts carried verbatim (file
    names, field paths, quoted values) are taken out."""
    for part in verbatim:
        text = text.replace(part, " ")
    text = re.sub(r"'[^']*'", " ", text)
    return _words(text) & english_vocabulary()


def test_the_vocabulary_is_the_error_words() -> None:
    vocab = english_vocabulary()
    assert {"expected", "found", "field", "line", "nothing", "file", "fix", "required", "least"} <= vocab
    assert not {"a", "e", "true", "false", "treaty", "capital", "yaml"} & vocab


def test_every_template_has_its_fields_in_portuguese() -> None:
    for english, portuguese in _PT:
        names = {m.group(0).removesuffix(":t}").removesuffix("}") for m in _PLACEHOLDER.finditer(english)}
        assert {m.group(0).removesuffix("}") for m in _PLACEHOLDER.finditer(portuguese)} <= names, english
        for word in ("ficheiro", "facto", "registo", "utilizador", "ecrã"):  # European forms
            assert word not in portuguese, (english, word)


BAD = {
    "bad-yaml": GOOD.replace("capital: 30", "capital: [30"),
    "wrong-type": GOOD.replace("name: base", "name: [1, 2]"),
    "not-a-map": GOOD.replace("persons:\n", "persons: 3\nextra:\n"),
    "unknown-field": GOOD.replace("    payer:", "    payr:"),
    "bad-date": GOOD.replace("date: 2024-03-15", "date: 2023-02-29"),
    "date-with-time": GOOD.replace("date: 2024-03-15", "date: 2024-03-15T10:00:00"),
    "float-amount": GOOD.replace('amount: "1000.00"', "amount: 1000.5"),
    "amount-with-separators": GOOD.replace('amount: "1000.00"', 'amount: "1,000.00"'),
    "negative-amount": GOOD.replace('amount: "1000.00"', 'amount: "-5"'),
    "unknown-treaty": GOOD.replace("treaty: br-pt", "treaty: br-xx"),
    "percentage": GOOD.replace("capital: 30", "capital: 120"),
    "three-decimals": GOOD.replace("capital: 30", "capital: 24.999"),
    "unknown-person": GOOD.replace("payer: alfa-industria-sa", "payer: alfa-industria"),
    "unknown-type": GOOD.replace("type: dividend", "type: dividends"),
    "state-code": GOOD.replace("{pt: [incorporation]}", "{portugal: [incorporation]}"),
    "repeated-key": GOOD.replace("    type: dividend\n", "    type: dividend\n    type: dividend\n"),
    "ends-before-start": GOOD.replace("    from: 2021-01-15\n", "    from: 2021-01-15\n    until: 2020-12-31\n"),
    "withholding": GOOD + '    withholding: {withheld: {amount: "10.00", currency: EUR}, withheld_rate: 15}\n',
    "government": GOOD.replace("    kind: company\n    liable_to_tax: {pt: [incorporation]}", "    kind: government"),
    "flag": GOOD.replace("    from: 2021-01-15\n", "    from: 2021-01-15\n    direct: maybe\n"),
    "not-a-scenario": "- just\n- a list\n",
}


def _error(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        load_text(text, "caso.yaml")
    return info.value


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_scenario_in_portuguese(case: str) -> None:
    err = _error(BAD[case])
    message = err.render("pt")
    lines = message.split("\n")
    assert lines[-1] == "corrija os campos acima e execute o comando novamente"
    assert len(lines) == len(err.problems) + 1
    for p, line in zip(err.problems, lines[:-1], strict=True):
        assert line.startswith(f"caso.yaml, linha {p.line}: " if p.line else "caso.yaml: "), line
        field = f"campo {p.field}" if not p.field.startswith("(") else translate(p.field, "pt")
        assert re.search(f": {re.escape(field)}: esperad[oa] ", line) and ", encontrado " in line, line  # agreeing
        assert p.found in line or translate(p.found, "pt", value=True) in line, line  # a date: 31/12/2020
        assert not english_in(line, "caso.yaml", p.field, p.found), (line, english_in(line, p.field, p.found))
    # European Portuguese reads the same messages, in Portugal's words where they differ (issue 24)
    assert err.render("pt-PT") == message.replace("você quis dizer", "queria dizer")
    # English: the message as it always was
    assert err.render("en") == str(err)
    assert [p.render("en") for p in err.problems] == [str(p) for p in err.problems]
    assert str(err).endswith("\nfix the fields above and run the command again")


def test_the_exact_portuguese_of_some_problems() -> None:
    assert _error(BAD["bad-date"]).render("pt").split("\n")[0] == (
        "caso.yaml, linha 21: campo income[0].date: esperada uma data real AAAA-MM-DD, encontrado '2023-02-29'")
    assert _error(BAD["unknown-person"]).render("pt").split("\n")[0] == (
        "caso.yaml, linha 19: campo income[0].payer: esperado o id de uma pessoa, encontrado 'alfa-industria' "
        "(você quis dizer 'alfa-industria-sa'?)")
    assert _error(BAD["unknown-treaty"]).render("pt").split("\n")[0] == (
        "caso.yaml, linha 2: campo treaty: esperado um de br-ae, br-pl, br-pt, br-sg ou br-uy, encontrado 'br-xx'")
    assert _error(BAD["unknown-field"]).render("pt").split("\n")[1] == (
        "caso.yaml, linha 19: campo income[0].payr: esperado nenhum campo com esse nome (confira a grafia; veja "
        "`treaty schema`), encontrado 'alfa-industria-sa'")


def test_a_problem_without_a_line_or_with_a_hint() -> None:
    p = Problem("a.yaml", None, "(file)", "an existing scenario file", "no such file")
    assert p.render("pt") == ("a.yaml: (arquivo): esperado um arquivo de cenário existente, encontrado arquivo "
                              "inexistente")
    p = Problem("a.yaml", 3, "income", "at most 1,000 income items", "1,200",
                "split the scenario, or give the payments as a ledger to `treaty batch`, which decides any number "
                "of rows")
    assert p.render("pt") == (
        "a.yaml, linha 3: campo income: esperado no máximo 1.000 itens de rendimento, encontrado 1.200 (divida o "
        "cenário, ou passe os pagamentos como um razão (ledger) a `treaty batch`, que decide qualquer número de "
        "linhas)")


def test_the_command_line_prints_errors_in_the_language_asked(tmp_path: Path) -> None:
    bad = tmp_path / "caso.yaml"
    bad.write_text(BAD["unknown-treaty"], encoding="utf-8")
    missing = tmp_path / "sumiu.yaml"
    runner = CliRunner()
    pt = runner.invoke(main, ["check", "--lang", "pt", str(bad), str(missing)])
    en = runner.invoke(main, ["check", "--lang", "en", str(bad), str(missing)])
    assert pt.exit_code == en.exit_code == 2
    assert pt.stderr == (
        f"erro: {bad}, linha 2: campo treaty: esperado um de br-ae, br-pl, br-pt, br-sg ou br-uy, encontrado "
        "'br-xx'\ncorrija os campos acima e execute o comando novamente\n"
        f"erro: {missing}: (arquivo): esperado um arquivo de cenário existente, encontrado arquivo inexistente\n"
        "corrija os campos acima e execute o comando novamente\n")
    assert en.stderr == (
        f"error: {bad}:2: treaty: expected one of br-ae, br-pl, br-pt, br-sg or br-uy, found 'br-xx'\n"
        "fix the fields above and run the command again\n"
        f"error: {missing}: (file): expected an existing scenario file, found no such file\n"
        "fix the fields above and run the command again\n")
    # an error raised by a command after its options are parsed (explain: an item that is not there)
    good = tmp_path / "bom.yaml"
    good.write_text(GOOD, encoding="utf-8")
    pt = runner.invoke(main, ["explain", "--lang", "pt", "--item", "nope", str(good)])
    assert pt.exit_code == 2
    assert pt.stderr.startswith(f"erro: {good}: --item 'nope': esperado o id de um item de rendimento (div-2024)")
    assert not english_in(pt.stderr, str(good))


def test_batch_rows_in_portuguese(tmp_path: Path) -> None:
    good = {c: "" for c in COLUMNS} | {"treaty": "br-pt", "type": "dividend", "payer": "alfa",
                                       "recipient": "lusoinvest", "date": "2024-05-10", "gross": "1000.00",
                                       "currency": "BRL", "withheld_rate": "15", "domestic_rate": "15"}
    cases = {"ok": {}, "unknown-person": {"payer": "alfa-sa"}, "bad-date": {"date": "2023-02-29"},
             "negative": {"gross": "-5.00"}, "bad-treaty": {"treaty": "br-xx"}, "over-100": {"withheld_rate": "150"},
             "ok#": {"id": "ok"}}
    rows = [good | {"id": k} | v for k, v in cases.items()]
    ledger = write_csv(tmp_path / "razao.csv", rows)
    checker = Checker()
    got: dict[str, dict[str, dict[str, str]]] = {}
    for lang in ("pt", "en"):
        out = tmp_path / f"out-{lang}.csv"
        run_batch(ledger, CONTEXT, out, workers=1, checker=checker, lang=lang)
        with out.open(encoding="utf-8", newline="") as fh:
            got[lang] = {r["id"] + ("#" if n == 6 else ""): r for n, r in enumerate(csv.DictReader(fh))}
    src = f"{ledger}, linha de dados"
    expected = {
        "unknown-person": f"{src} 2 (linha 3, id unknown-person): payer: esperado o id de uma pessoa, encontrado "
                          "'alfa-sa' (você quis dizer 'alfa'?)",
        "bad-date": f"{src} 3 (linha 4, id bad-date): date: esperada uma data real AAAA-MM-DD, encontrado "
                    "'2023-02-29'",
        "negative": f"{src} 4 (linha 5, id negative): gross: esperado um número maior ou igual a 0, encontrado '-5.00'",
        "bad-treaty": f"{src} 5 (linha 6, id bad-treaty): treaty: esperado um de br-ae, br-pl, br-pt, br-sg, br-uy, "
                      "encontrado 'br-xx'",
        "over-100": f"{src} 6 (linha 7, id over-100): withheld_rate: esperada uma porcentagem entre 0 e 100, "
                    "encontrado '150'",
        "ok#": f"{src} 7 (linha 8, id ok): id: esperado um id que nenhuma outra linha tenha, encontrado 'ok', já na "
               "linha 1",
    }
    for key, message in expected.items():
        assert got["pt"][key]["error"].startswith(message), (key, got["pt"][key]["error"])
        assert not english_in(got["pt"][key]["error"], str(ledger), key)
        assert got["en"][key]["error"].startswith(f"{ledger} row "), got["en"][key]["error"]
        assert translate(got["en"][key]["error"], "pt") == got["pt"][key]["error"]
    assert got["pt"]["ok"]["status"] == got["en"]["ok"]["status"] == "decided"
    assert got["pt"]["ok"]["error"] == ""


def test_problem_json_in_portuguese() -> None:
    """The application called in this process through httpx's own ASGI transport (Starlette's TestClient warns
    that it is deprecated with httpx); as with TestClient outside a ``with``, its lifespan does not run: these
    problems are found before the engine is needed."""
    pytest.importorskip("fastapi")
    httpx = pytest.importorskip("httpx")

    from pyhelpers.interfaces.serve import create_app

    app = create_app()

    def post(**request: Any) -> Any:
        """What ``POST /check`` answers (read whole)."""
        async def send() -> Any:
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as c:
                return await c.post("/check", **request)
        return asyncio.run(send())

    body = BAD["bad-date"].encode("utf-8")
    yaml = {"Content-Type": "application/yaml"}
    en = post(content=body, headers=yaml).json()
    for asked in ({"params": {"lang": "pt"}}, {"headers": {"Accept-Language": "pt-BR,pt;q=0.9,en;q=0.8"}}):
        pt = post(content=body, headers={**yaml, **asked.get("headers", {})}, params=asked.get("params")).json()
        assert pt["title"] == "entrada inválida" and pt["status"] == 422
        assert pt["detail"] == ("body, linha 21: campo income[0].date: esperada uma data real AAAA-MM-DD, encontrado "
                                "'2023-02-29'\ncorrija os campos acima e execute o comando novamente")
        assert pt["errors"][0]["detail"] == pt["detail"].split("\n")[0]
        # the data of the problem stays as it is, for the programs that read it
        assert {k: v for k, v in pt["errors"][0].items() if k != "detail"} == \
               {k: v for k, v in en["errors"][0].items() if k != "detail"}
    assert en["title"] == "bad input" and en["detail"].startswith("body:21: income[0].date: expected a real date")
    preferred_en = post(content=body, headers={**yaml, "Accept-Language": "en-US,pt;q=0.5"}).json()
    assert preferred_en == en
    empty = post(content=b"", headers=yaml, params={"lang": "pt"}).json()
    assert empty["detail"].startswith("body: (corpo): esperado um cenário (YAML ou JSON), encontrado um corpo vazio")
    media = post(content=b"x", headers={"Content-Type": "text/html"}, params={"lang": "pt"}).json()
    assert media["detail"].startswith("Content-Type: esperado um de application/yaml")
    assert media["detail"].endswith(", encontrado text/html")


def test_the_help_in_portuguese_when_the_environment_asks() -> None:
    assert help_lang({"TREATY_LANG": "pt"}) == help_lang({"LANG": "pt_BR.UTF-8"}) == "pt"
    assert help_lang({"TREATY_LANG": "pt-PT"}) == "pt-PT"
    assert help_lang({"TREATY_LANG": "en", "LANG": "pt_BR.UTF-8"}) == "en"
    assert help_lang({"LC_ALL": "C.UTF-8", "LANG": "pt_BR.UTF-8"}) == help_lang({}) == "en"
    assert set(HELP) - {""} == set(main.commands)  # a summary for every command
    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "TREATY_LANG")}
    cmd = [sys.executable, "-m", "pyhelpers.interfaces.cli", "check", "--help"]
    pt = subprocess.run(cmd, cwd=ROOT, env={**env, "TREATY_LANG": "pt"}, capture_output=True, text=True, timeout=120)
    en = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert "Decide cada item de rendimento dos cenários ARQUIVOS" in pt.stdout
    assert "formato da saída" in pt.stdout
    assert "Decide every income item of the scenario FILES" in en.stdout and "output format" in en.stdout


def test_the_help_in_the_language_of_lang() -> None:
    """``--lang`` anywhere on the command line (the root's, or the command's, before or after ``--help``) gives
    the help in its language, click's own words included; the next command line without it is in English again;
    the root's ``--lang`` is the default of the command's."""
    runner = CliRunner()
    env = {"TREATY_LANG": "", "LANG": "C.UTF-8", "LC_ALL": ""}
    root = runner.invoke(main, ["--lang", "pt", "--help"], env=env)
    assert root.exit_code == 0, root.output
    assert HELP[""][""] in root.output.replace("\n  ", " ")
    assert root.output.startswith("Uso: ") and "Opções:" in root.output and "Comandos:" in root.output
    assert "Mostra esta mensagem e sai." in root.output and "Show this message" not in root.output
    for args in (["check", "--help", "--lang", "pt"], ["--lang", "pt", "check", "--help"],
                 ["check", "--lang=pt-BR", "--help"]):
        got = runner.invoke(main, args, env=env)
        assert got.exit_code == 0, (args, got.output)
        assert "Decide cada item de rendimento dos cenários ARQUIVOS" in got.output, args
        assert "formato da saída" in got.output and "[padrão: text]" in got.output, args
        assert "output format" not in got.output and "Usage:" not in got.output, args
    european = runner.invoke(main, ["--lang", "pt-PT", "check", "--help"], env=env)
    assert "[por omissão: text]" in european.output and "factos" in european.output
    english = runner.invoke(main, ["check", "--help"], env=env)
    assert "Decide every income item of the scenario FILES" in english.output and "output format" in english.output
    assert english.output.startswith("Usage: ") and "[default: text]" in english.output
    scenario = str(ROOT / "scenarios" / "br-pt" / "dividends-qualifying-holding.yaml")
    told = runner.invoke(main, ["--lang", "pt", "check", scenario], env=env)
    assert "avaliado em" in told.output, told.output
    own = runner.invoke(main, ["--lang", "pt", "check", scenario, "--lang", "en"], env=env)
    assert "evaluated on" in own.output, own.output


def test_queries_and_ledgers_in_portuguese(tmp_path: Path) -> None:
    good = tmp_path / "bom.yaml"
    good.write_text(GOOD, encoding="utf-8")
    ledger = tmp_path / "razao.csv"
    ledger.write_text('id,type\n"x,dividend\n', encoding="utf-8")
    runner = CliRunner()
    cases = {
        ("explain", str(good), "--why-not", "max_rate(div-2024, 1000)"):
            "erro: consulta 'max_rate(div-2024, 1000)': div-2024 é lido como uma subtração; ponha os ids entre "
            "aspas: \"div-2024\"\n",
        ("explain", str(good), "--why-not", 'max_rate("div-2024" 1000'):
            "erro: a consulta 'max_rate(\"div-2024\" 1000' não está na sintaxe de átomo ASP: escreva um átomo com "
            "ids entre aspas, por exemplo max_rate(\"div-2024\", R), R <= 1000\n",
        ("explain-row", str(tmp_path / "sumiu.csv"), "--context", str(CONTEXT), "--row", "x"):
            f"erro: {tmp_path / 'sumiu.csv'}: esperado um arquivo de razão (ledger) existente, encontrado arquivo "
            "inexistente\n",
        ("explain-row", str(ledger), "--context", str(CONTEXT), "--row", "x"):
            f"erro: {ledger}:2: esperada uma aspa de fechamento (\") para uma célula entre aspas da linha que começa "
            "nesta linha, encontrado o fim do arquivo 1 linha(s) depois: feche a aspa (uma aspa dentro de uma célula "
            "entre aspas é escrita duas vezes)\n",
    }
    for args, message in cases.items():
        pt = runner.invoke(main, [*args, "--lang", "pt"])
        en = runner.invoke(main, [*args, "--lang", "en"])
        assert pt.exit_code == en.exit_code == 2, args
        assert pt.stderr == message
        assert en.stderr.startswith("error: ") and translate(en.stderr[len("error: "):], "pt") == message[6:]


def test_usage_errors_in_the_language_asked(tmp_path: Path) -> None:
    """Click's usage errors (a choice not offered, an option that does not exist, an argument missing) under
    ``--lang pt``: its frame and its message in Portuguese, the values it quotes as given; English as click writes
    it; without ``--lang`` the language of the help (``TREATY_LANG``); pt-PT in Portugal's words."""
    runner = CliRunner()
    good = str(tmp_path / "caso.yaml")
    pt = runner.invoke(main, ["check", good, "--format", "xml", "--lang", "pt"])
    en = runner.invoke(main, ["check", good, "--format", "xml", "--lang", "en"])
    assert pt.exit_code == en.exit_code == 2
    usage, hint, blank, error = pt.stderr.splitlines()
    assert usage.startswith("Uso: ") and usage.endswith(" check [OPÇÕES] ARQUIVOS...")  # click's metavars too
    assert hint.startswith("Tente '") and hint.endswith(" check --help' para ver a ajuda.") and blank == ""
    assert error == "Erro: Valor inválido para '--format': 'xml' não é um dos valores 'text', 'json', 'markdown'."
    assert en.stderr.endswith("Error: Invalid value for '--format': 'xml' is not one of 'text', 'json', "
                              "'markdown'.\n")
    cases = {("check", good, "--formt", "json"): "Erro: A opção '--formt' não existe. Você quis dizer '--format'?",
             ("check",): "Erro: Falta o argumento 'ARQUIVOS...'.",
             ("check", good, "--time-limit", "abc"): "Erro: Valor inválido para '--time-limit': 'abc' não é um "
                                                      "número válido.",
             ("batch", "a.csv"): "Erro: Falta a opção '--context'.",
             ("batch", "a.csv", "--context", "c.yaml", "--workers", "0"):
                 "Erro: Valor inválido para '--workers': 0 não está no intervalo x>=1."}
    for args, last in cases.items():
        for lang_args in (["--lang", "pt"], ["--lang=pt-BR"]):
            got = runner.invoke(main, [*args, *lang_args])
            assert got.exit_code == 2 and got.stderr.splitlines()[-1] == last, (args, got.stderr)
            hint_and_error = got.stderr.split("\n", 1)[1]  # the usage line names the arguments (ARQUIVOS) as the help
            # does
            assert not english_in(hint_and_error, *args), (args, got.stderr)
    european = runner.invoke(main, ["check", good, "--formt", "json", "--lang", "pt-PT"])
    assert european.stderr.splitlines()[-1] == "Erro: A opção '--formt' não existe. Queria dizer '--format'?"
    by_env = runner.invoke(main, ["chek"], env={"TREATY_LANG": "pt", "LANG": "", "LC_ALL": ""})
    assert by_env.exit_code == 2 and by_env.stderr.splitlines()[-1].startswith("Erro: O comando 'chek' não existe.")
    plain = runner.invoke(main, ["chek"], env={"TREATY_LANG": "", "LANG": "C.UTF-8", "LC_ALL": ""})
    assert plain.stderr.splitlines()[-1].startswith("Error: No such command 'chek'.")


# ---- audit 24 D10: the YAML parser's problems, dates and agreement in Portuguese ---------------------------------

def test_the_yaml_parsers_problem_is_said_in_portuguese(tmp_path: Path) -> None:
    """A malformed YAML file: the parser's known problems in Portuguese words, in English as the parser says them;
    a problem the templates do not know is quoted inside a Portuguese phrase, never left bare."""
    path = tmp_path / "bad.yaml"
    path.write_text("name: x\ntreaty: br-pt\npersons: [\n", encoding="utf-8")
    pt = CliRunner().invoke(main, ["check", str(path), "--lang", "pt"]).stderr
    assert "(sintaxe): esperado YAML bem formado, encontrado '<stream end>' onde se esperava o conteúdo de um nó" in pt
    assert "expected the node content" not in pt
    en = CliRunner().invoke(main, ["check", str(path)]).stderr
    assert "found expected the node content, but found '<stream end>'" in en  # narrowly not: English as it was
    unknown = Problem("a.yaml", 3, "(syntax)", "well-formed YAML", "some new problem of the parser")
    assert unknown.render("pt").endswith("encontrado um erro de sintaxe, nas palavras do analisador de YAML: "
                                         "'some new problem of the parser'")
    assert str(unknown).endswith("found some new problem of the parser")


def test_dates_in_errors_are_written_as_the_language_writes_them(tmp_path: Path) -> None:
    """A holding that ends before it begins: its dates in the language's form (15/01/2021), ISO in English; a date
    the loader could not read stays quoted as written. "esperada" agrees with a feminine object ("uma data")."""
    assert "    from: 2021-01-15\n" in GOOD
    text = GOOD.replace("    from: 2021-01-15\n", "    from: 2021-01-15\n    until: 2020-01-01\n")
    path = tmp_path / "until.yaml"
    path.write_text(text, encoding="utf-8")
    pt = CliRunner().invoke(main, ["check", str(path), "--lang", "pt"]).stderr
    assert "esperada uma data igual ou posterior a from (15/01/2021), encontrado 01/01/2020" in pt
    en = CliRunner().invoke(main, ["check", str(path)]).stderr
    assert "expected a date on or after from (2021-01-15), found 2020-01-01" in en
    assert translate("a real date YYYY-MM-DD", "pt") == "uma data real AAAA-MM-DD"
    assert Problem("a.yaml", 1, "x", "this field (required)", "nothing").render("pt").count("esperado ") == 1
