"""The size of a scenario the checker accepts (issue 26, item 5): engineering limits, not law.

A scenario's items are independent of each other (each is decided with the scenario's persons, holdings
and places), so a scenario with many items is checked in slices of :data:`SLICE_ITEMS` items, one
after the other, with a progress bar on a terminal; above :data:`MAX_ITEMS` it is refused (a ledger of
payments is what ``treaty batch`` is for). Every slice is grounded with all the persons, and the
grounding grows faster than their number (measured by ``tests/bench/large.py``: 1,000 persons 1.9 s,
2,000 about 6 s, 3,000 18 s and 1 GB), so a scenario of more than :data:`MAX_PERSONS` persons (a check
within the default time limit, with a margin) is refused before it is validated. Both refusals name the
limit and the count found. (A scenario *file* meets the reader's budgets first,
:mod:`pyhelpers.scenario.reading`: 1,000,000 bytes and 50,000 values, some 5,000 items.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyhelpers.base.errors import Problem, ScenarioError

MAX_ITEMS = 100_000
"""The most income items in one scenario (checked in slices of :data:`SLICE_ITEMS`)."""

MAX_PERSONS = 1_800
"""The most persons in one scenario (each slice of items is grounded with all of them)."""

SLICE_ITEMS = 1_000
"""The items checked together, in one grounding, when a scenario has more."""


def refuse_oversized(data: Any, source: str, line: Callable[[tuple[Any, ...]], int | None] = lambda _: None) -> None:
    """Raise :class:`ScenarioError` if the scenario ``data`` (the parsed document, before validation) has
    more income items than :data:`MAX_ITEMS` or more persons than :data:`MAX_PERSONS`."""
    if not isinstance(data, dict):
        return
    problems = []
    income, persons = data.get("income"), data.get("persons")
    if isinstance(income, list) and len(income) > MAX_ITEMS:
        problems.append(Problem(source, line(("income",)), "income", f"at most {MAX_ITEMS:,} income items",
                                f"{len(income):,}", "split the scenario, or give the payments as a ledger to "
                                "`treaty batch`, which decides any number of rows"))
    if isinstance(persons, dict) and len(persons) > MAX_PERSONS:
        problems.append(Problem(source, line(("persons",)), "persons", f"at most {MAX_PERSONS:,} persons",
                                f"{len(persons):,}", "split the scenario into groups of the persons each item "
                                "involves (its parties, their holders and places)"))
    if problems:
        raise ScenarioError(problems)
