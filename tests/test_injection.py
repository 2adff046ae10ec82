"""Scenario data never becomes program text: hostile ids and strings change nothing."""

from __future__ import annotations

import pytest
import yaml

from pyhelpers.engine.solve import Checker
from pyhelpers.facts.emit import Const, Fn, fact, term
from pyhelpers.scenario import load_dict

from .conftest import ROOT, read_yaml

HOSTILE = ['x). #false.', '"a" :- b.', 'a\\"). p(1', "%* comment", "#show.", "s\\",
           'div-2024"). max_rate("s","div-2024",0']


def _scenario(payer: str, recipient: str, item: str) -> dict[str, object]:
    data = read_yaml(ROOT / "scenarios/br-pt/dividends-qualifying-holding.yaml")
    # the two ids renamed everywhere in PyYAML's text of the data, which PyYAML reads back (its own output)
    data = yaml.safe_load(yaml.safe_dump(data).replace("alfa-industria-sa", "PAYER").replace("lusoinvest", "RECIP"))
    data["persons"][payer] = data["persons"].pop("PAYER")
    data["persons"][recipient] = data["persons"].pop("RECIP")
    for h in data["holdings"]:
        h["holder"], h["company"] = recipient, payer
    inc = data["income"][0]
    inc["payer"], inc["recipient"], inc["id"] = payer, recipient, item
    data["expect"] = None
    return data


@pytest.mark.parametrize("nasty", HOSTILE)
def test_hostile_ids_change_nothing(nasty: str, checker: Checker) -> None:
    clean = checker.check(load_dict(_scenario("payer", "recipient", "div")))
    hostile = checker.check(load_dict(_scenario(nasty + "-payer", nasty, nasty + "-item")))
    a, b = clean.items[0], hostile.items[0]
    assert [(s.state, s.outcome, s.max_rate_bp, s.provisions) for s in a.states] == \
           [(s.state, s.outcome, s.max_rate_bp, s.provisions) for s in b.states]
    assert (a.status, a.provisions, a.findings) == (b.status, b.provisions, b.findings)
    assert b.item_id == nasty + "-item"
    assert len(clean.atoms) == len(hostile.atoms)


def test_strings_are_quoted_and_escaped() -> None:
    assert fact("person", "s", 'x"). #false. %', Const("company")) == 'person("s", "x\\"). #false. %", company).'
    assert term("a\\b") == '"a\\\\b"'
    assert term("line\nbreak") == '"line\\nbreak"'


def test_only_checked_values_become_terms() -> None:
    with pytest.raises(TypeError):
        term(True)
    with pytest.raises(ValueError):
        term(2**31)
    with pytest.raises(ValueError):
        term(Const("Capital"))
    with pytest.raises(ValueError):
        term(Const("a). b"))
    with pytest.raises(ValueError):
        fact("p(x) :- q", "s")
    with pytest.raises(ValueError):
        term(Fn("f). g", ("a",)))
    assert term(-(2**31)) == str(-(2**31))
