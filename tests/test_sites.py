"""The date module's facts for sites (measured_place_days): stints, the sites same_site_as links whichever
way it is written, and the segments that count each day once and lie within one ownership period."""

from __future__ import annotations

from datetime import date
from typing import Any

import clingo

from pyhelpers.base import dates
from pyhelpers.engine.solve import Checker
from pyhelpers.scenario import load_dict


def _scenario(places: dict[str, Any], holdings: list[dict[str, Any]] | None = None) -> list[clingo.Symbol]:
    data = {
        "name": "sites", "treaty": "br-ae", "evaluation_date": "2024-12-31",
        "persons": {"a": {"kind": "company", "liable_to_tax": {"ae": ["incorporation"]}},
                    "b": {"kind": "company", "liable_to_tax": {"ae": ["incorporation"]}},
                    "c": {"kind": "company", "liable_to_tax": {"ae": ["incorporation"]}}},
        "holdings": holdings or [],
        "places_of_business": places,
        "income": [],
    }
    symbols = [clingo.parse_term(f.strip().rstrip(".")) for f in Checker().facts(load_dict(data, "sites.yaml"))]
    return [s for s in symbols if s.name in
            ("place_site", "place_stint", "place_stint_open", "site_segment", "segment_in_stint")]


def _day(text: str) -> int:
    return dates.day_number(date.fromisoformat(text))


def test_a_link_written_on_either_place_makes_one_site_through_a_third() -> None:
    facts = _scenario({
        "p1": {"owner": "a", "state": "br", "kind": "construction_site", "from": "2024-01-01", "until": "2024-01-31"},
        "p2": {"owner": "b", "state": "br", "kind": "construction_site", "from": "2024-02-01", "until": "2024-02-29",
               "same_site_as": "p1"},
        "p3": {"owner": "c", "state": "br", "kind": "construction_site", "from": "2024-03-01", "until": "2024-03-31",
               "same_site_as": "p2"},
        "q": {"owner": "a", "state": "br", "kind": "construction_site", "from": "2024-01-01", "until": "2024-01-31"},
    })
    sites = {f.arguments[1].string: f.arguments[2].string for f in facts if f.name == "place_site"}
    assert sites == {"p1": "p1", "p2": "p1", "p3": "p1", "q": "q"}


def test_overlapping_stints_are_cut_so_that_each_day_counts_once() -> None:
    facts = _scenario({
        "own": {"owner": "a", "state": "br", "kind": "construction_site",
                "periods": [{"from": "2024-01-01", "until": "2024-05-15"}, {"from": "2024-07-01"}]},
        "sub": {"owner": "b", "state": "br", "kind": "construction_site", "from": "2024-03-01", "until": "2024-04-30",
                "same_site_as": "own"},
    }, holdings=[{"holder": "a", "company": "b", "votes": 100, "value": 100, "from": "2020-01-01",
                  "until": "2024-03-31"}])
    segments = [f for f in facts if f.name == "site_segment"]
    own = 136 + dates.inclusive_days(date(2024, 7, 1), date(2024, 12, 31))  # the open stint up to evaluation
    assert sum(f.arguments[4].number for f in segments) == own  # the subsidiary's days lie inside the own
    starts = {f.arguments[2].number for f in segments}
    assert _day("2024-04-01") in starts  # cut where the holding ends: one ownership period per segment
    assert any(f.name == "place_stint_open" for f in facts)
    inside = [f for f in facts if f.name == "segment_in_stint" and f.arguments[3].string == "sub"]
    assert len(inside) == 2  # 1-31 March, 1-30 April
