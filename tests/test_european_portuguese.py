"""`--lang pt-PT` writes European Portuguese: no Brazilian-only form leaks into it from the pt (pt-BR) texts it
falls back to where it has none of its own.

pt-PT writes only what differs from pt (a ``%  pt-PT:`` reading, a ``pt-PT`` entry of a word table, a template of
``messages._PT_PT``, ``helptext.HELP_PT_PT``); everything else it reads in pt. The check has two halves: every pt
text pt-PT falls back to (the vocabulary's readings and nouns, the constants' words, the word tables of every
module, the error messages, the help) is free of the forms below; and the output of the commands under
``--lang pt-PT`` (check and explain of scenarios with missing and unknown facts, rates, list, an error, --help) is
free of them. The treaty's own text (quoted as published, `treaty show`) and the scenario's ids are not the tool's
words and are left out."""

from __future__ import annotations

import importlib
import os
import pkgutil
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from click.testing import CliRunner

import pyhelpers
from pyhelpers.base import messages
from pyhelpers.engine.program import load_logic
from pyhelpers.explain import readings
from pyhelpers.interfaces import helptext
from pyhelpers.interfaces.cli import main

from .conftest import ROOT
from .test_vocabulary_pt import _ids

BRAZILIAN = re.compile(r"\b(?:" + "|".join([
    r"fatos?", r"registros?", r"registrad[oa]s?", r"registrar", r"ônus", r"econômic[oa]s?", r"acadêmic[oa]s?",
    r"gêneros?", r"contatos?", r"seção", r"seções", r"equipe", r"usuários?", r"arquivos?", r"planilhas?", r"aluguel",
    r"esportes?", r"esportistas?", r"prêmios?", r"Polônia", r"bilhões?", r"dezesseis", r"dezessete", r"dezenove",
    r"anônim[oa]s?", r"controles?", r"pessoas? físicas?", r"pessoas? jurídicas?", r"ganhos? de capital", r"seguridade",
    r"bolsistas?", r"contador(?:es)?", r"estoques?", r"canteiros?", r"contêiner(?:es)?", r"direitos? autora(?:l|is)",
    r"caráter", r"centavos?", r"coleta", r"alíquotas?", r"faturamento", r"filial", r"filiais",
    r"informad[oa]s?", r"informa", r"informar", r"informe", r"informe-o", r"atende", r"atender", r"atendid[oa]s?",
    r"imposto de renda", r"renda", r"você", r"ponto flutuante", r"requisição", r"pulad[oa]s?", r"até o", r"até os",
]) + r")\b")
"""Forms Brazil writes where Portugal writes another (fato/facto, registro/registo, ônus/ónus, econômico/económico,
contato/contacto, seção/secção, equipe/equipa, arquivo/ficheiro, informar/indicar, alíquota/taxa, filial/sucursal,
pessoa física/pessoa singular, seguridade social/segurança social, até o/até ao ...)."""


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from _strings(v)


def fallback_texts() -> Iterator[tuple[str, str]]:
    """(where, text) for every pt text that pt-PT reads because it has no text of its own."""
    logic = load_logic()
    for p in [*logic.vocabulary.values(), *logic.terms.values()]:
        if p.pt_pt is None:
            yield f"{p.name}/{p.arity} (vocabulary)", p.pt
        if p.none is not None and p.none[2] is None:
            yield f"{p.name}/{p.arity} (vocabulary, none)", p.none[1]
    for n in logic.nouns.values():
        if n.pt_pt is None:
            yield f"noun {n.name}", n.pt
    for k, v in readings.TERMS["pt"].items():
        if k not in readings.TERMS["pt-PT"]:
            yield f"TERMS[{k}]", v
    for info in pkgutil.walk_packages(pyhelpers.__path__, "pyhelpers."):
        module = importlib.import_module(info.name)
        for name, table in vars(module).items():
            if name == "TERMS" or not isinstance(table, Mapping) or "pt" not in table:
                continue
            pt, european = table["pt"], table.get("pt-PT")
            if isinstance(pt, Mapping):
                for k, v in pt.items():
                    if not (isinstance(european, Mapping) and k in european):
                        yield from ((f"{info.name}.{name}[{k}]", s) for s in _strings(v))
            elif european is None:
                yield from ((f"{info.name}.{name}", s) for s in _strings(pt))
    for english, pt in messages._PT:
        if english not in messages._PT_PT:
            yield f"message {english!r}", pt
    for command, table in helptext.HELP.items():
        for option, text in table.items():
            if option not in helptext.HELP_PT_PT.get(command, {}):
                yield f"help {command} {option}", text
    for option, text in helptext._OPTIONS.items():
        if option not in helptext._OPTIONS_PT_PT:
            yield f"help {option}", text


def european_texts() -> Iterator[tuple[str, str]]:
    """(where, text) for every text written for pt-PT itself."""
    for p in [*load_logic().vocabulary.values(), *load_logic().terms.values()]:
        if p.pt_pt is not None:
            yield f"{p.name}/{p.arity} (vocabulary, pt-PT)", p.pt_pt
        if p.none is not None and p.none[2] is not None:
            yield f"{p.name}/{p.arity} (vocabulary, none, pt-PT)", p.none[2]
    for n in load_logic().nouns.values():
        if n.pt_pt is not None:
            yield f"noun {n.name} (pt-PT)", n.pt_pt
    for info in pkgutil.walk_packages(pyhelpers.__path__, "pyhelpers."):
        for name, table in vars(importlib.import_module(info.name)).items():
            if isinstance(table, Mapping) and "pt-PT" in table:
                yield from ((f"{info.name}.{name} (pt-PT)", s) for s in _strings(table["pt-PT"]))
    yield from (("message (pt-PT)", text) for text in messages._PT_PT.values())
    yield from (("help (pt-PT)", text) for text in _strings(helptext.HELP_PT_PT))
    yield from (("help (pt-PT)", text) for text in _strings(helptext._OPTIONS_PT_PT))


def test_no_brazilian_form_in_what_pt_pt_falls_back_to() -> None:
    texts = list(fallback_texts()) + list(european_texts())
    assert len(texts) > 1000
    bad = [f"{where}: {BRAZILIAN.findall(text)}: {text}" for where, text in texts if BRAZILIAN.search(text)]
    assert not bad, "\n".join(bad)


def test_the_european_overlays_match_their_pt_entries() -> None:
    """Each European template names an English template of the messages, with the same values; each European
    help names an option or command that has a Portuguese help."""
    english = dict(messages._PT)
    for template, european in messages._PT_PT.items():
        assert template in english, template
        assert sorted(re.findall(r"\{\w+\}", european)) == sorted(re.findall(r"\{\w+\}", english[template])), template
    for command, table in helptext.HELP_PT_PT.items():
        assert set(table) <= set(helptext.HELP[command]) | set(helptext._OPTIONS), command
    assert set(helptext._OPTIONS_PT_PT) <= set(helptext._OPTIONS)


SCENARIOS = [
    "br-pl/employment-184-days-loses-exemption",  # a partner State whose name Portugal spells otherwise
    "br-ae/unknowns-29-3-proofs-as-alternatives",
    "br-sg/dividends-still-held-period-not-yet-complete",
    "br-pt/pe-place-facts-missing-or-unknown",
    "br-pl/employment-artistes-pensions-open-facts",
    "br-uy/lob-equivalent-beneficiary-unknown",
    "br-pt/relief-protocol-7-portfolio-indirect-credit",
]


def _brazilian(text: str, ids: set[str]) -> list[str]:
    text = re.sub(r"`[^`]*`|‹[^›]*›|^\s*§.*$", " ", text, flags=re.M)
    return sorted({m.group(0) for m in BRAZILIAN.finditer(text) if m.group(0).lower() not in ids})


@pytest.mark.parametrize("command", ["check", "explain"])
def test_check_and_explain_in_european_portuguese(command: str) -> None:
    bad = []
    for name in SCENARIOS:
        path = f"scenarios/{name}.yaml"
        result = CliRunner().invoke(main, [command, str(ROOT / path), "--lang", "pt-PT"])
        assert result.exit_code in (0, 1), result.output
        found = _brazilian(result.stdout, _ids(path))
        if found:
            bad.append(f"{command} {name}: {found}")
    assert not bad, "\n".join(bad)
    if command == "check":  # the same scenarios in Brazilian Portuguese do write these forms
        brazil = CliRunner().invoke(main, ["check", str(ROOT / f"scenarios/{SCENARIOS[0]}.yaml"), "--lang", "pt"])
        assert "Polônia" in brazil.stdout


def test_rates_list_errors_and_help_in_european_portuguese(tmp_path: Any) -> None:
    runner = CliRunner()
    texts = {
        "rates": runner.invoke(main, ["rates", "--lang", "pt-PT"]).stdout,
        "list": runner.invoke(main, ["list", "--lang", "pt-PT"]).stdout,
    }
    bad = tmp_path / "bad.yaml"
    bad.write_text((ROOT / "scenarios/br-pt/dividends-qualifying-holding.yaml").read_text(encoding="utf-8")
                   .replace("payer: alfa-industria-sa", "payer: alfa-industria"), encoding="utf-8")
    error = runner.invoke(main, ["check", str(bad), "--lang", "pt-PT"])
    assert error.exit_code != 0
    texts["error"] = error.output
    texts["missing file"] = runner.invoke(main, ["check", str(tmp_path / "none.yaml"), "--lang", "pt-PT"]).output
    for command in ("check", "explain", "batch", "init", "serve"):  # the help is chosen when the program starts
        done = subprocess.run([sys.executable, "-m", "pyhelpers.interfaces.cli", command, "--help"], cwd=ROOT,
                              capture_output=True, text=True, check=True,
                              env={**os.environ, "TREATY_LANG": "pt-PT", "PYTHONPATH": str(ROOT)})
        texts[f"help {command}"] = done.stdout
    assert "Polónia" in texts["rates"] and "factos decisivos" in texts["help explain"]
    assert "queria dizer" in texts["error"]
    from pyhelpers.engine.solve import Checker

    titles = sorted({sym.arguments[-1].string for sym in Checker().static_atoms if sym.name == "article_title"},
                    key=len, reverse=True)  # the treaties' own headings, as published (`Ganhos de Capital`)
    for title in titles:
        texts["list"] = texts["list"].replace(title, " ")
    found = {name: _brazilian(text, set()) for name, text in texts.items()}
    assert not any(found.values()), found
