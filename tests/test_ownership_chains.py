"""Ownership chains of any depth (issue 26, item 5): interests summed exactly over chains that are never
listed (pyhelpers.facts.interests, logic/core/ownership.lp), and br-uy 29(2)(e)'s counted share by a
running sum over the holdings. Correctness only: tests/bench/ownership.py measures the time."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

from pyhelpers.engine.expect import compare
from pyhelpers.engine.solve import Checker
from pyhelpers.facts.interests import Edge, Interest, interests
from pyhelpers.scenario import load_text

from .conftest import ROOT, read_yaml
from .ownership_gen import chain, complement_claimant, ladder, split_chain


def _checked(checker: Checker, text: str) -> list[str]:
    scenario = load_text(text)
    return [str(m) for m in compare(scenario, checker.check(scenario))]


def _by_pair(found: list[Interest]) -> dict[tuple[str, str], Interest]:
    return {(i.holder, i.company): i for i in found}


def test_ladder_interest_is_the_sum_over_its_doubling_chains() -> None:
    edges = [Edge(f"h{n}", f"l{k}{a}", f"l{k + 1}{b}", 5000, True)
             for n, (k, a, b) in enumerate((k, a, b) for k in range(40) for a in "ab" for b in "ab")]
    got = _by_pair(interests(edges))
    assert got[("l0a", "l40a")].share == Fraction(1, 2)  # 2^39 chains of 1/2^40 each
    assert got[("l0a", "l40a")].units == (50_000_000, 50_000_000)
    assert got[("l0a", "l40a")].through == ("l1a", "l1b")
    assert len(got) == sum(2 * 2 * k for k in range(1, 41))


def test_long_chain_of_100_percent_is_100_percent() -> None:
    edges = [Edge(f"h{k}", f"c{k}", f"c{k + 1}", 10_000, True) for k in range(30)]
    assert _by_pair(interests(edges))[("c0", "c30")].units == (100_000_000, 100_000_000)


def test_many_decimals_rounded_both_ways_and_exact_boundaries() -> None:
    def edges(data: dict[str, Any]) -> list[Edge]:
        return [Edge(str(n), h["holder"], h["company"], round(Fraction(h["capital"]) * 100), True)
                for n, h in enumerate(data["holdings"])]

    exact = _by_pair(interests(edges(split_chain(6))))[("x-ky", "r")]
    assert exact.share == Fraction(1, 2) and exact.units == (50_000_000, 50_000_000)
    above = _by_pair(interests(edges(split_chain(6, ["0.01", "0.01", "0.01"]))))[("x-ky", "r")]
    assert above.share == Fraction(1, 2) + Fraction(1, 10**12)
    assert above.units == (50_000_000, 50_000_001)  # at least 50%: Lo; more than 50%: Hi


def test_an_indirect_holding_carries_a_chain_as_a_direct_one() -> None:
    """«direta ou indiretamente» (br-uy 29(2)(e), 29(4)): a's interest in b not broken down (indirect) carries
    b's share of c as a direct holding does; whether the record is direct changes no interest."""
    for direct in (False, True):
        got = _by_pair(interests([Edge("1", "a", "b", 5000, direct), Edge("2", "b", "c", 5000, True)]))
        assert set(got) == {("a", "b"), ("a", "c"), ("b", "c")}
        assert got[("a", "c")].share == Fraction(1, 4) and got[("a", "c")].through == ("b",)


def test_18_level_ladder_counts_each_share_once(checker: Checker) -> None:
    assert _checked(checker, ladder(18)) == []


def test_ladder_of_qualified_and_other_owners_below_50_percent_denied(checker: Checker) -> None:
    assert _checked(checker, ladder(10, second_top_qualified=False, last_share="49.99")) == []


def test_ladder_of_qualified_and_other_owners_exactly_50_percent_entitled(checker: Checker) -> None:
    assert _checked(checker, ladder(10, second_top_qualified=False, last_share="50")) == []


def test_14_level_chain_of_100_percent_grants_the_benefit(checker: Checker) -> None:
    assert _checked(checker, chain(14)) == []


def _third_state_owned(levels: int, tail: list[str] | None = None) -> str:
    doc = {"name": "owned from a third State through many chains", "treaty": "br-uy", "evaluation_date": "2024-06-30",
           "persons": {"beta-br": {"kind": "company", "liable_to_tax": {"br": ["incorporation"]}},
                       "x-ky": {"kind": "company", "liable_to_tax": {"ky": ["incorporation"]}},
                       "r": {"kind": "company", "liable_to_tax": {"uy": ["incorporation"]},
                             "entitlement": {"regularly_traded": True}}},
           **{k: [{**h, "from": "2020-01-01"} for h in v] for k, v in split_chain(levels, tail).items()},
           "income": [{"id": "royalty", "type": "royalty", "payer": "beta-br", "recipient": "r", "date": "2024-03-15",
                       "payment_for": {"rights": ["patent"]}, "royalty": {"arises_in": "br"}}]}
    for h in doc["holdings"]:
        for p in (h["holder"], h["company"]):
            doc["persons"].setdefault(p, {"kind": "company", "liable_to_tax": {"pa": ["incorporation"]}})
    return yaml.safe_dump(doc, sort_keys=False)


def test_exactly_50_percent_only_with_many_decimals_is_at_least_50(checker: Checker) -> None:
    result = checker.check(load_text(_third_state_owned(4)))
    findings = {str(f) for f in result.item("royalty").findings}
    assert "indicator: owned_from_third_state(x-ky, ky, 5000) (br-uy 29(9))" in findings


def test_qualified_owners_exactly_50_percent_only_with_many_decimals_entitled(checker: Checker) -> None:
    assert _checked(checker, complement_claimant()) == []


def test_qualified_owners_just_below_50_percent_with_many_decimals_denied(checker: Checker) -> None:
    assert _checked(checker, complement_claimant("49.99")) == []


def test_more_than_50_percent_only_beyond_many_decimals(checker: Checker) -> None:
    """br-ae's indicator needs more than 50% ("mais de 50%"): exactly 50% through chains of many decimals
    is not more; 50% plus 10^-12 (a further chain of three holdings of 0.01%) is."""
    doc = read_yaml(ROOT / "scenarios/br-ae/ppt-indicator-owned-from-third-state-50-or-50-01-percent.yaml")
    one = split_chain(3, top="indian-parent", target="gulf-one")["holdings"]
    two = [{**h, "holder": h["holder"] + "-2" if h["holder"] != "indian-parent" else h["holder"],
            "company": h["company"] + "-2" if h["company"] != "gulf-two" else "gulf-two"}
           for h in split_chain(3, ["0.01", "0.01", "0.01"], top="indian-parent", target="gulf-two")["holdings"]]
    doc["holdings"] = [{**h, "from": "2020-01-01"} for h in one + two]
    for h in doc["holdings"]:
        for p in (h["holder"], h["company"]):
            doc["persons"].setdefault(p, {"kind": "company", "liable_to_tax": {"pa": ["incorporation"]}})
    doc["income"] = [i for i in doc["income"] if i["id"] != "freight-early"]
    doc["arrangements"]["freight-contracts"]["items"] = ["freight-one", "freight-two"]
    del doc["expect"]
    result = checker.check(load_text(yaml.safe_dump(doc, sort_keys=False)))
    indicator = "owned_from_third_state(indian-parent, in, 5000)"
    assert not any(indicator in str(f) for f in result.item("freight-one").findings)
    assert any(indicator in str(f) for f in result.item("freight-two").findings)


def test_the_argument_shows_the_holdings_and_the_total_not_the_digits(tmp_path: Path) -> None:
    """br-uy 29(2)(e)'s sum digit by digit is bookkeeping: the argument's line shows the owners' holdings
    and the total compared with 50%, never a digit, a place or a holding's rank; --full keeps them."""
    from click.testing import CliRunner

    from pyhelpers.interfaces.cli import main

    path = tmp_path / "chain.yaml"
    path.write_text(chain(3), encoding="utf-8")
    out = CliRunner().invoke(main, ["explain", str(path)])
    lines = out.output.splitlines()
    at = next(k for k, ln in enumerate(lines) if ln.strip().startswith("br-uy 29(2)(e)"))
    line = lines[at]
    indent = len(line) - len(line.lstrip())
    subs = [ln for ln in lines[at + 1:at + 20]]
    subs = subs[:next((k for k, ln in enumerate(subs) if len(ln) - len(ln.lstrip()) <= indent), len(subs))]
    # a long line keeps its figures and gives each holding of the chain a sub-line of its own (issue 24)
    assert "that holding is 100% of the capital" in " ".join([line, *subs]), [line, *subs]
    # the total with what it is the total of (an audit's finding: a bare "100% ≥ 50%")
    assert "the counted owners hold 100% of the shares (capital) (≥ 50%)" in line and "100% ≥ 50%" not in line, line
    for bookkeeping in ("digit", "holding number", "holding records", "10000 = 10000"):
        assert bookkeeping not in line, line
    full = CliRunner().invoke(main, ["explain", str(path), "--full"])
    assert "at place 0" in full.output


def test_open_shares_of_the_capital_in_a_chain_ground_in_bounded_memory() -> None:
    """Two holdings in a claimant's chain that state their votes but not their capital: each capital is asked and
    opened over the percentages the treaty cites, and the counted owners' share is grounded once per value of each
    (a running sum over the holders; the greatest figure compared only across measures), not once per set of the
    values, nor each figure against every other: before (cap57) the check passed 3.9 GB and was aborted. Run in a
    process whose address space is bounded, so that a regression fails here rather than exhausting the machine."""
    import json
    import resource
    import subprocess
    import sys

    def bounded() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    path = ROOT / "tests" / "fixtures" / "open-capital" / "two-open-shares-in-a-chain.yaml"
    done = subprocess.run([sys.executable, "-m", "pyhelpers.interfaces.cli", "check", "--format", "json", str(path)],
                          capture_output=True, text=True, timeout=300, preexec_fn=bounded, check=False,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)["results"][0]
    assert result["incomplete"] is None
    (item,) = result["items"]
    assert item["status"] == "missing"
    asked = {f["fact"] for f in item["findings"] if f["kind"] == "missing"}
    assert asked == {"capital(holding(caja-uy, hold-x))", "capital(holding(caja-uy, mid-ar))"}
