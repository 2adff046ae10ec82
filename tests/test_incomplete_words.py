"""Issue 24: why an answer is incomplete (a time limit) is data — what was cut, the limit, the time measured, whether
the machine was busy, the further slices cut — put in words only where it is written: in English, Brazilian or
European Portuguese, its figures in the language's numbers (Babel), in text, Markdown, JSON (beside the figures)
and over HTTP. The cuts are forced with a limit of 0 or 0.001 s (the check is then always cut; the times measured
vary, so they are matched by their form, never by value)."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest
from click.testing import CliRunner

from pyhelpers.base import formats
from pyhelpers.engine.results import Cut, Incomplete
from pyhelpers.interfaces.cli import main
from pyhelpers.output import render

from .conftest import ROOT, read_yaml
from .test_vocabulary_pt import english_vocabulary, english_words, json_texts

QUALIFYING = ROOT / "scenarios/br-pt/dividends-qualifying-holding.yaml"
SG_FUTURE = ROOT / "scenarios/br-sg/unknowns-holding-end-in-the-future.yaml"
FORTY = ROOT / "scenarios/br-pt/dividends-individual-beneficial-owner-40-percent.yaml"

PT_PT_1234_5 = formats.number(Decimal("1234.5"), "pt-PT")
"""Portugal groups thousands with a no-break space (CLDR pt_PT: ``1\u00a0234,5``), Brazil with a dot."""
EVERY_FIGURE = Incomplete(Cut.ALTERNATIVES, 10.0, wall_seconds=1234.5, cpu_seconds=0.2, busy=True, more_slices=2,
                          slice_items=1000)


def data_name() -> str:
    return str(read_yaml(QUALIFYING)["name"])


def test_the_reason_in_each_language_with_its_numbers() -> None:
    assert render.incomplete_text(None, "pt") is None
    assert render.incomplete_text(EVERY_FIGURE, "en") == (
        "the time limit of 10 s was reached before every alternative was examined (CPU time of the work: a busy "
        "machine gives the same answer): the conclusions shown as certain are certain, the others are not final "
        "(measured in wall-clock time: 1,234.5 s, of which 0.200 s of CPU time for the check; the machine was busy, "
        "which does not change the answer: the limit counts CPU time); and in 2 more slice(s) of 1,000 items")
    assert render.incomplete_text(EVERY_FIGURE, "pt") == (
        "o tempo limite de 10 s se esgotou antes de examinadas todas as alternativas (tempo de CPU do trabalho: uma "
        "máquina ocupada dá a mesma resposta): as conclusões mostradas como certas são certas, as demais não são "
        "definitivas (medido em tempo decorrido: 1.234,5 s, dos quais 0,200 s de tempo de CPU para a verificação; a "
        "máquina estava ocupada, o que não muda a resposta: o limite conta tempo de CPU); e em mais 2 parte(s) "
        "de 1.000 rendimentos")
    assert render.incomplete_text(EVERY_FIGURE, "pt-PT") == (
        "o tempo limite de 10 s esgotou-se antes de examinadas todas as alternativas (tempo de CPU do trabalho: uma "
        "máquina ocupada dá a mesma resposta): as conclusões mostradas como certas são certas, as outras não são "
        f"definitivas (medido em tempo decorrido: {PT_PT_1234_5} s, dos quais 0,200 s de tempo de CPU para a "
        "verificação; a máquina estava ocupada, o que não muda a resposta: o limite conta tempo de CPU); e em mais 2 "
        "parte(s) de 1\u00a0000 rendimentos")
    check = Incomplete(Cut.CHECK, 0.001, wall_seconds=0.006)
    assert render.incomplete_text(check, "pt") == (
        "o tempo limite de 0,001 s se esgotou antes do fim da verificação (as regras ainda estavam sendo aplicadas "
        "aos fatos do cenário; medido em tempo decorrido: 0,006 s): nenhum rendimento está decidido")
    assert render.incomplete_text(Incomplete(Cut.SEARCH, 0.3), "en") == (
        "the time limit of 0.3 s was reached before the search ended (CPU time of the work: a busy machine gives the "
        "same answer): other changes may exist")


@pytest.mark.parametrize("cut", list(Cut))
@pytest.mark.parametrize("lang", ["pt", "pt-PT"])
def test_no_english_word_in_a_portuguese_reason(cut: Cut, lang: str) -> None:
    reason = Incomplete(cut, 0.5, wall_seconds=0.75, cpu_seconds=0.1, busy=True, more_slices=1, slice_items=1000)
    text = render.incomplete_text(reason, lang)
    assert text is not None and not english_words(text, english_vocabulary(), set()), text
    english = render.incomplete_text(reason, "en")  # the check has teeth: the English words are found
    assert english is not None and english_words(english, english_vocabulary(), set())


MEASURED_PT = r"medido em tempo decorrido: \d+,\d+ s(, dos quais \d+,\d+ s de tempo de CPU para a verificação)?"


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_a_check_cut_by_the_time_limit_says_why_in_portuguese(fmt: str) -> None:
    out = CliRunner().invoke(main, ["check", str(QUALIFYING), "--time-limit", "0.001", "--format", fmt, "--lang", "pt"])
    assert out.exit_code == 1, out.output
    why = (r"o tempo limite de 0,001 s se esgotou antes do fim da verificação \(as regras ainda estavam sendo "
           rf"aplicadas aos fatos do cenário; {MEASURED_PT}(; a máquina estava ocupada, [^)]*)?\): nenhum rendimento "
           "está decidido")
    if fmt == "json":
        envelope = json.loads(out.output)
        assert re.fullmatch(rf"1 de 1 resposta\(s\) incompleta\(s\); a primeira, {re.escape(str(QUALIFYING))}: {why}",
                            envelope["incomplete"]), envelope["incomplete"]
        data = envelope["results"][0]
        assert list(data)[:2] == ["incomplete", "incomplete_reason"]
        assert re.fullmatch(why, data["incomplete"]), data["incomplete"]
        reason = data["incomplete_reason"]
        assert (reason["cut"], reason["limit_seconds"], reason["more_slices"]) == ("check", 0.001, 0)
        assert isinstance(reason["wall_seconds"], float) and isinstance(reason["busy"], bool)
    else:
        first = out.output.splitlines()[0]
        assert first.startswith("INCOMPLETO: " if fmt == "text" else "# INCOMPLETO: "), first
        line = next(x for x in out.output.splitlines() if "tempo limite de" in x)
        assert re.search(why, line), line
    if fmt == "json":
        said = "\n".join(json_texts({**envelope, "results": [{k: v for k, v in data.items() if k != "expect"}]}))
    else:  # the scenario's own name left out; the expect: block's differences are in Portuguese too
        said = out.output.replace(str(data_name()), "")
        assert "✗ div-2024: situação: esperado decidido; obtido depende" in said
    assert not english_words(said, english_vocabulary(), set()), english_words(said, english_vocabulary(), set())


def test_the_reason_in_european_portuguese_and_english_json() -> None:
    runner = CliRunner()
    pt_pt = runner.invoke(main, ["check", str(SG_FUTURE), "--time-limit", "0", "--lang", "pt-PT"]).output
    assert pt_pt.startswith("INCOMPLETO: o tempo limite de 0 s esgotou-se antes "), pt_pt
    english = json.loads(runner.invoke(main, ["check", str(SG_FUTURE), "--time-limit", "0", "--format", "json"]).output)
    assert english["results"][0]["incomplete"].startswith("the time limit of 0 s was reached before ")
    assert english["results"][0]["incomplete_reason"]["limit_seconds"] == 0.0
    complete = json.loads(runner.invoke(main, ["check", str(QUALIFYING), "--format", "json"]).output)["results"][0]
    assert (complete["incomplete"], complete["incomplete_reason"]) == (None, None)


def test_whatif_cut_by_the_time_limit_in_portuguese() -> None:
    goal = 'max_rate("div-2024", R), R <= 1000'
    runner = CliRunner()
    text = runner.invoke(main, ["whatif", str(FORTY), "--goal", goal, "--time-limit", "0", "--lang", "pt"]).output
    assert text.startswith("INCOMPLETO: o tempo limite de 0 s se esgotou antes do fim da busca (tempo de CPU do "
                           "trabalho: uma máquina ocupada dá a mesma resposta): pode haver outras alterações\n"), text
    data = json.loads(runner.invoke(main, ["whatif", str(FORTY), "--goal", goal, "--time-limit", "0", "--lang", "pt-PT",
                                           "--format", "json"]).output)
    assert data["incomplete"].startswith("o tempo limite de 0 s esgotou-se antes do fim da pesquisa")
    assert data["incomplete_reason"]["cut"] == "search"


def test_a_503_of_treaty_serve_in_the_request_language() -> None:
    pytest.importorskip("fastapi")
    from pyhelpers.interfaces.serve import ProblemError, TimeLimitReached

    cause = TimeLimitReached(Incomplete(Cut.ANSWER, 0.5))
    problem = ProblemError(503, str(cause), cause=cause)
    assert problem.document(lang="en")["detail"] == (
        "the time limit of 0.5 s was reached before the answer was complete (treaty serve --explain-time-limit): ask "
        "about fewer items, or run the command line")
    assert problem.document(lang="pt")["detail"] == (
        "o tempo limite de 0,5 s se esgotou antes de a resposta ficar completa (`treaty serve --explain-time-limit`): "
        "pergunte sobre menos rendimentos, ou use a linha de comando")
    assert problem.document(lang="pt-PT")["detail"].startswith("o tempo limite de 0,5 s esgotou-se antes de a resposta")
