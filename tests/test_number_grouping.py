"""Whole numbers the tool writes for a reader are grouped as the language writes them (Babel), through
the one function that formats numbers (:func:`pyhelpers.base.formats.number`); years are not."""

from __future__ import annotations

import clingo

from pyhelpers.engine.program import load_logic
from pyhelpers.explain.readings import reading


def _units_per_bp(lang: str) -> str:
    return reading(load_logic(), clingo.Function("path_units_per_share_unit", [clingo.Number(10000)]), lang)


def test_a_count_is_grouped_in_english_and_brazilian_portuguese() -> None:
    assert _units_per_bp("en") == "a basis point is 10,000 units of an interest"
    assert _units_per_bp("pt") == "um ponto-base são 10.000 unidades de uma participação"


def test_a_count_is_grouped_in_european_portuguese_as_babel_writes_it() -> None:
    from babel.numbers import format_decimal

    assert _units_per_bp("pt-PT") == \
        f"um ponto-base são {format_decimal(10000, '#,##0', locale='pt_PT')} unidades de uma participação"


def test_a_year_is_not_grouped() -> None:
    atom = clingo.Function("termination_notice", [clingo.String("s"), clingo.Number(2024), clingo.Number(0)])
    for lang in ("en", "pt", "pt-PT"):
        text = reading(load_logic(), atom, lang)
        assert "2024" in text and "2,024" not in text and "2.024" not in text, text


def test_an_error_regroups_the_counts_english_grouped_and_keeps_row_numbers() -> None:
    from pyhelpers.base.messages import translate

    assert translate("a text of at most 10,000 characters", "pt") == "um texto de no máximo 10.000 caracteres"
    assert translate("a text of at most 10,000 characters", "en") == "a text of at most 10,000 characters"
    assert translate("x, already row 1234", "pt") == "x, já na linha 1234"
