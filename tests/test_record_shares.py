"""A holding's share said with its sign where the scenario wrote its range bare (blind58 R2)."""
from __future__ import annotations

from pyhelpers.engine.results import Condition
from pyhelpers.output import render


def _share(values: str, field: str = "capital") -> Condition:
    return Condition(f"holding(fundacion-uy, guazu-b).{field}", values, field=f"holdings[3].{field}")


def test_a_bare_range_of_a_share_is_said_as_percentages() -> None:
    """`capital: {between: [10, 30]}` gives "19 or less": the condition says "19% or less of the capital" (and
    "20% or more", pt "de 19% ou menos"); a threshold the completion already wrote with its sign keeps one sign.
    Narrowly not: a holding's first day (a date) is not a share and gets none."""
    assert render.conditions_text((_share("19 or less"),), "en") == \
        "the holding of fundacion-uy in guazu-b (`holdings[3]`) is 19% or less of the capital"
    assert render.conditions_text((_share("20 or more", "votes"),), "en") == \
        "the holding of fundacion-uy in guazu-b (`holdings[3]`) is 20% or more of the voting rights"
    assert "de 19% ou menos do capital" in render.conditions_text((_share("19 or less"),), "pt")
    assert render.conditions_text((_share("25% or more"),), "en").endswith("is 25% or more of the capital")
    assert "%" not in render.conditions_text((_share("2024-03-31 or earlier", "from"),), "en")
