"""Readings and the facts they name, written in the user's language: dates the rules carry as YYYYMMDD read
as dates; a missing or unknown fact is shown by its reading beside its YAML path, which is itself in the
user's language where it is words rather than a path; European Portuguese in its post-1990 spelling."""

from __future__ import annotations

import re
from dataclasses import replace

import clingo
from click.testing import CliRunner

from pyhelpers.base.rulebase import ground_facts
from pyhelpers.engine.program import load_logic
from pyhelpers.engine.results import Finding
from pyhelpers.explain.readings import TERMS, fact_text, reading
from pyhelpers.interfaces.cli import main
from pyhelpers.output import render
from pyhelpers.scenario.catalogue import catalogue
from pyhelpers.scenario.factpaths import field_text

from .conftest import ROOT


def _atom(name: str, *args: clingo.Symbol) -> clingo.Symbol:
    return clingo.Function(name, [clingo.String("s"), *args])


def test_a_yyyymmdd_date_reads_as_a_date() -> None:
    """br-sg compares an item's date as the integer YYYYMMDD: its reading shows the date, never 20240510."""
    logic = load_logic()
    item = _atom("income_date_ymd", clingo.String("div"), clingo.Number(20240510))
    assert reading(logic, item, "pt") == "o item div tem a data 10/05/2024"
    assert reading(logic, item, "en") == "item div is dated 2024-05-10"
    force = clingo.Function("entry_into_force", [clingo.String("br-sg"), clingo.Number(20211201),
                                                  clingo.String("br-sg Decree")])
    assert "01/12/2021" in reading(logic, force, "pt")
    assert "2021-12-01" in reading(logic, force, "en")


def test_a_field_said_in_words_is_in_the_users_language() -> None:
    """A fact stated by a record, not one field, is named in words (``fact_field``): those of
    ``fact_field_in`` under --lang pt and pt-PT, never 'holdings (a record of ...)'."""
    en = "holdings (a record of lusoinvest in alfa)"
    assert field_text(en, "en") == en
    assert field_text(en, "pt") == "holdings (um registro de lusoinvest em alfa)"
    assert field_text(en, "pt-PT") == "holdings (um registo de lusoinvest em alfa)"
    assert field_text("places_of_business.b.from and .until (or .periods)", "pt") == \
        "places_of_business.b.from e .until (ou .periods)"
    assert field_text("places_of_business.b.kind", "pt") == "places_of_business.b.kind"


def test_every_field_said_in_words_has_portuguese_words() -> None:
    """Each ``fact_field`` with words has a ``fact_field_in`` for pt with the same placeholders."""
    fields = catalogue().fact_fields
    bad = []
    for name, template in sorted(fields.items()):
        if " " not in template:
            continue
        pt = catalogue().fact_fields_in.get((name, "pt"))
        if pt is None or sorted(re.findall(r"<[^>]+>", pt)) != sorted(re.findall(r"<[^>]+>", template)):
            bad.append(f"{name}: {template!r} -> {pt!r}")
    assert not bad, "\n".join(bad)


def test_an_open_fact_is_shown_by_its_reading_beside_its_path() -> None:
    """`depends on activities_preparatory_overall(b)` was the rules' name: the finding shows the fact's
    words (pt) or the reading of the input that states it (en), and still the YAML path."""
    f = Finding(kind="depends", provision="br-ae 5(4)", fact="activities_preparatory_overall(b)",
                field="places_of_business.b.activities_preparatory_overall")
    assert render.finding_text(f, "pt") == (
        "depende de caráter preparatório do conjunto das atividades (b), informado como desconhecido (br-ae 5(4)); "
        "informe-o em `places_of_business.b.activities_preparatory_overall`")
    assert render.finding_text(f, "en") == (
        "depends on whether the overall activity of b is preparatory or auxiliary, given as unknown (br-ae 5(4)); "
        "state it in `places_of_business.b.activities_preparatory_overall`")
    missing = replace(f, kind="missing", fact="holding(lusoinvest, alfa)",
                      field="holdings (a record of lusoinvest in alfa)")
    assert render.finding_text(missing, "pt") == (
        "fato ausente: participação (lusoinvest, alfa) (exigido pelo br-ae 5(4)); "
        "informe-o em `holdings (um registro de lusoinvest em alfa)`")
    logic = load_logic()
    atom = _atom("depends", clingo.String("i"), clingo.Function("site_period", [clingo.String("b")]),
                 clingo.String("br-pt 5(3)"))
    assert "site_period" not in reading(logic, atom, "pt")
    alternative = clingo.Function("alternative", [clingo.Function("technical_services"), clingo.Function("br"),
                                                  clingo.Number(1000)])
    note = _atom("note", clingo.String("fee"), alternative, clingo.String("br-pl 13(2)"))
    assert reading(logic, note, "pt") == ("quanto a fee: qualificado como serviços técnicos, o rendimento pode ser "
                                          "tributado pelo Brasil a no máximo 10% (br-pl 13(2))")
    # an id is no constant, even where it starts with one ('office-activities', not 'escritório-activities')
    assert fact_text("activities(office-activities)", "pt") == "atividades (office-activities)"


_PRE_1990 = re.compile(r"(?<!\w)(?:acç|acto|actos|activ|actua|direcç|direct|efectiv|efectu|objecto|objectiv|colectiv|"
                       r"arquitect|excepç|excepto|óptim|adopç|project|selecç|protecç|correcç|recepç|aspecto|"
                       r"respectiv|exact|redacç|electr|afect|inspecç|detect|lectiv|indirect|espectácul)", re.IGNORECASE)


def _european_texts() -> list[str]:
    """Every European Portuguese text of the tool: the ``pt-PT`` readings, and the ``pt-PT`` entries of its word
    tables (the treaty's own text, quoted as published, is none of them)."""
    from .test_vocabulary_pt import _tables

    texts = [p.pt_pt for p in load_logic().vocabulary.values() if p.pt_pt]
    texts += list(TERMS["pt-PT"].values()) + list(_tables("pt-PT"))
    texts += [t for (_, lang), t in catalogue().fact_fields_in.items() if lang == "pt-PT"]
    return texts


def test_european_portuguese_is_written_in_the_1990_spelling() -> None:
    """pt-PT writes 'atividade', 'direção efetiva', 'ações', 'exceção' (Acordo Ortográfico de 1990), never
    'actividade', 'direcção efectiva', 'acções', 'excepção' beside them."""
    old = sorted({f"{m.group(0)}… in {t!r}" for t in _european_texts() for m in _PRE_1990.finditer(t)})
    assert not old, "pre-1990 spellings in pt-PT:\n" + "\n".join(old)


def test_a_conditions_values_are_in_portuguese_form() -> None:
    """'se ...third_jurisdiction_tax é 5999.00' was the scenario layer's number: 5.999,00 under --lang pt; an
    open date range reads 'qualquer dia a partir de 01/02/2024' (was 'any day from ... on')."""
    assert render.values_text("x is 5999.00", "pt") == "x é 5.999,00"
    assert render.values_text("x is 5999.00", "en") == "x is 5999.00"
    assert render.values_text("any day from 2024-02-01 on", "pt") == "qualquer dia a partir de 01/02/2024"
    assert render.values_text("true", "pt") == "sim"  # `explain`'s note on facts given as alternatives
    assert fact_text("alternative(technical_services, br, 1000)", "pt") == \
        "qualificado como serviços técnicos, o rendimento pode ser tributado pelo Brasil a no máximo 10%"


def test_the_reports_table_of_open_facts_names_them_in_words() -> None:
    """`treaty report --lang pt`: the fact's words, its YAML path beside it; English too (issue 24: it kept the
    rules' name where no input reads the fact)."""
    from pyhelpers.output import report

    f = Finding(kind="missing", provision="br-pt 6(1)", fact="situated_in(rent)",
                field="income[0].immovable_property.situated_in")
    assert report._fact_cell(f, "pt") == "Estado onde está situado (rent)"
    assert report._fact_cell(f, "en") == "State where it is situated (rent)"
    held = replace(f, fact="holding(a, b)", field="holdings (a record of a in b)")
    assert report._field_cell(held, "pt") == "<code>holdings (um registro de a em b)</code>"


def test_an_amount_in_cents_reads_as_money_in_each_language() -> None:
    """br-pt 21(2)'s USD 10,000 limit and a remuneration converted to it are compared in cents: their readings
    show money in the language's numbers with the currency's code, never ``1000000 cents of usd``."""
    logic = load_logic()
    given = _atom("annual_remuneration_cents", clingo.String("job"), clingo.Function("usd"), clingo.Number(1000001))
    limit = clingo.Function("amount_limit", [clingo.String("br-pt"), clingo.Function("student_employment_annual_usd"),
                                             clingo.Function("usd"), clingo.Number(1000000),
                                             clingo.String("br-pt 21(2)")])
    assert reading(logic, given, "en") == "the annual remuneration job is 10,000.01 USD at the scenario's rate"
    assert reading(logic, given, "pt") == "a remuneração anual job é de 10.000,01 USD à taxa de câmbio do cenário"
    assert reading(logic, given, "pt-PT") == "a remuneração anual job é de 10\u00a0000,01 USD à taxa do cenário"
    assert reading(logic, limit, "en") == ("br-pt 21(2) sets the annual limit of a student's employment remuneration "
                                           "at 10,000.00 USD")
    assert reading(logic, limit, "pt") == ("o br-pt 21(2) fixa o limite anual de remuneração de emprego de estudante "
                                           "em 10.000,00 USD")
    for pred in logic.vocabulary.values():  # no reading writes an amount in cents or a currency's code as words
        for lang in ("en", "pt", "pt-PT"):
            assert not re.search(r"\b(cents|centavos|cêntimos) (of|de)\b", pred.reading(lang)), pred.name


def test_a_plain_meaning_reads_its_figure_in_words() -> None:
    """The indicators' plain meanings (a back-to-back payment passes on "most" of the item; a party has "no"
    employees) read with their figures as the rules use them: a share as a percentage, never ``5000``; a
    count as a count (was '"most" means beyond 5000' and '"none" means beyond 0', which misread the ``<=``)."""
    logic = load_logic()
    (share,) = ground_facts("plain_meaning_share", 2)
    (count,) = ground_facts("plain_meaning_count", 2)
    assert reading(logic, share, "en") == '"most" of an amount is more than 50% of it'
    assert reading(logic, share, "pt") == '"a maior parte" de um montante é mais de 50% dele'
    assert reading(logic, share, "pt-PT") == '"a maior parte" de um montante é mais de 50% dele'
    assert reading(logic, count, "en") == '"none" means at most 0'
    assert reading(logic, count, "pt") == '"nenhum" significa no máximo 0'


def test_explain_full_reads_the_plain_meaning_of_most() -> None:
    """`treaty explain --full` of a back-to-back payment shows the plain meaning the indicator's test rests on in
    words with its percentage, beside the comparison it decides (``50,01% > 50%``)."""
    path = str(ROOT / "scenarios/br-uy/ppt-indicator-back-to-back-50-or-50-01-percent.yaml")
    for lang, words in (("en", '"most" of an amount is more than 50% of it'),
                        ("pt", '"a maior parte" de um montante é mais de 50% dele')):
        out = CliRunner().invoke(main, ["explain", path, "--full", "--lang", lang]).stdout
        assert words in out, lang
        assert "5000" not in out and "plain_meaning" not in out, lang


def test_explain_full_shows_an_aggregates_value_and_a_day_count_by_their_types() -> None:
    """An aggregate's value reads by the type of what it ranges over (``F = #min { F1 : ... }``, F1 a date: a
    date, never the day number 738596; ``R = #min {...}`` of rates: ``10%``), and the difference of two dates is
    a number of days (``N = D - F``: ``364 days = 364 days``, never a date of the year 1)."""
    path = str(ROOT / "scenarios/br-uy/ppt-indicator-holding-acquired-364-or-365-days.yaml")
    out = CliRunner().invoke(main, ["explain", path, "--full"]).stdout
    assert "Σ #min = 2023-03-17 (1)" in out and "⊢ 364 days = 364 days — test: ✓" in out
    assert "Σ #min = 15% (1)" in out
    assert not re.search(r"#min = \d{4,}\b(?!-)|\b000\d-\d\d-\d\d\b", out)
    pt = CliRunner().invoke(main, ["explain", path, "--full", "--lang", "pt"]).stdout
    assert "Σ #min = 17/03/2023 (1)" in pt and "⊢ 364 dias = 364 dias — teste: ✓" in pt
