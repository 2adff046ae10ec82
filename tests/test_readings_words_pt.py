"""Readings and the facts they name, written in the user's language: dates the rules carry as YYYYMMDD read
as dates; a missing or unknown fact is shown by its reading beside its YAML path, which is itself in the
user's language where it is words rather than a path; European Portuguese in its post-1990 spelling."""

from __future__ import annotations

import clingo

from pyhelpers.engine.program import load_logic
from pyhelpers.explain.readings import reading


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
