"""Benchmark and generator: scenarios of many income items or many persons (issue 26, item 5).

    .venv/bin/python tests/bench/large.py items 30000 [--sliced | --write FILE]
    .venv/bin/python tests/bench/large.py persons 3000 [--sliced | --write FILE]

``items N``: one Portuguese parent and N Brazilian subsidiaries' payments to it, dividends, interest and
royalties on different dates, with holdings of different sizes (the items are independent of each other).
``persons N``: N persons (companies of either State), each with a holding and one dividend.
Prints the time and peak memory of ``Checker.check`` (one grounding), or with ``--sliced`` of
``check_within`` (what ``treaty check`` runs: slices of 1,000 items, each in a child process, the limits
not applied here; the peak memory is then the largest child's); or, with ``--write``, only writes the
YAML (JSON is YAML), to try ``treaty check FILE``. Not collected by pytest; the generator is also
used by the tests (with counts of a few hundred, or just over a limit, in memory).
"""

from __future__ import annotations

import resource
import sys
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TYPES = ("dividend", "interest", "royalty")


def many_items(n: int, treaty: str = "br-pt") -> dict[str, Any]:
    """A scenario (as a dict) with ``n`` income items paid by 50 Brazilian companies to one Portuguese."""
    payers = max(1, min(50, n))
    persons: dict[str, Any] = {"parent": {"kind": "company", "liable_to_tax": {"pt": ["incorporation"]}}}
    holdings = []
    for p in range(payers):
        persons[f"sub-{p}"] = {"kind": "company", "liable_to_tax": {"br": ["incorporation"]}}
        holdings.append({"holder": "parent", "company": f"sub-{p}", "capital": 5 + p % 40,
                         "from": (date(2018, 1, 1) + timedelta(days=37 * p)).isoformat()})
    income = []
    for k in range(n):
        income.append({"id": f"item-{k}", "type": TYPES[k % 3], "payer": f"sub-{k % payers}", "recipient": "parent",
                       "date": (date(2023, 1, 1) + timedelta(days=k % 700)).isoformat(),
                       "gross": {"amount": f"{1000 + k}.00", "currency": "BRL"}})
    return {"name": f"{n} income items", "treaty": treaty, "evaluation_date": "2024-12-31",
            "persons": persons, "holdings": holdings, "income": income}


def many_persons(n: int, treaty: str = "br-pt") -> dict[str, Any]:
    """A scenario (as a dict) with ``n`` persons: pairs of a Portuguese holder and a Brazilian company it
    holds, with one dividend from each Brazilian company to its holder."""
    persons: dict[str, Any] = {}
    holdings, income = [], []
    for p in range(n // 2):
        persons[f"pt-{p}"] = {"kind": "company", "liable_to_tax": {"pt": ["incorporation"]}}
        persons[f"br-{p}"] = {"kind": "company", "liable_to_tax": {"br": ["incorporation"]}}
        holdings.append({"holder": f"pt-{p}", "company": f"br-{p}", "capital": 5 + p % 40,
                         "from": (date(2018, 1, 1) + timedelta(days=p % 2000)).isoformat()})
        income.append({"id": f"div-{p}", "type": "dividend", "payer": f"br-{p}", "recipient": f"pt-{p}",
                       "date": (date(2023, 1, 1) + timedelta(days=p % 700)).isoformat(),
                       "gross": {"amount": "1000.00", "currency": "BRL"}})
    if n % 2:
        persons["extra"] = {"kind": "company", "liable_to_tax": {"pt": ["incorporation"]}}
    return {"name": f"{n} persons", "treaty": treaty, "evaluation_date": "2024-12-31",
            "persons": persons, "holdings": holdings, "income": income}


def main() -> None:
    import json

    from pyhelpers.engine.limited import check_within
    from pyhelpers.engine.solve import Checker
    from pyhelpers.scenario import limits, load_dict

    limits.MAX_ITEMS = limits.MAX_PERSONS = sys.maxsize  # measured, not refused

    kind, n = sys.argv[1], int(sys.argv[2])
    data = many_items(n) if kind == "items" else many_persons(n)
    if "--write" in sys.argv:
        Path(sys.argv[sys.argv.index("--write") + 1]).write_text(json.dumps(data, indent=1), encoding="utf-8")
        return
    checker = Checker().warm()
    start, cpu = time.perf_counter(), time.process_time()
    scenario = load_dict(data, f"<{kind} {n}>")
    loaded = time.perf_counter() - start
    sliced = "--sliced" in sys.argv
    if sliced:
        result = check_within(checker, scenario, f"<{kind} {n}>", 600.0)
    else:
        result = checker.check(scenario, f"<{kind} {n}>")
    took, cpu_took = time.perf_counter() - start, time.process_time() - cpu
    if sliced:
        cpu_took += sum(resource.getrusage(resource.RUSAGE_CHILDREN)[:2])
    peak = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) / 1024
    label = f"{kind} {n}{' (sliced)' if sliced else ''}"
    print(f"{label}: {len(result.items)} item(s) decided in {took:.1f} s wall ({cpu_took:.1f} s CPU; loading "
          f"{loaded:.1f} s), peak memory {peak:.0f} MB{' (INCOMPLETE)' if result.incomplete else ''}")


if __name__ == "__main__":
    main()
