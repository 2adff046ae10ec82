"""Issue 26, items 2 and 3: no wrong input is accepted, and no hostile input crashes the loader. Each test
holds the issue's reproducer: a wrong input is refused with a message naming the file, the line, the field,
what was expected and what was found; a hostile one is refused at once, before anything is expanded."""

from __future__ import annotations

import time
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from pyhelpers.base.errors import ScenarioError
from pyhelpers.engine.solve import Checker
from pyhelpers.scenario import load_dict, load_file, load_text
from pyhelpers.scenario.reading import MAX_BYTES, parse_yaml

from .test_loader import GOOD, one, problems

HOLDING = GOOD.replace("    from: 2021-01-15\n", "    from: 2021-01-15\n    direct: DIRECT\n")


# --- item 2: no wrong input accepted ------------------------------------------------------------------

def test_percentage_is_read_from_its_text() -> None:
    msg = one(GOOD.replace("capital: 30", "capital: 24.999999999999999"))  # the float is 25.0: a 10% cap
    assert msg == "case.yaml:14: holdings[0].capital: expected a percentage with at most two decimals, " \
                  "found 24.999999999999999", msg
    assert load_text(GOOD.replace("capital: 30", "capital: 24.99"), "case.yaml").holdings[0].capital == 2499
    assert load_text(GOOD.replace("capital: 30", "capital: 24.90"), "case.yaml").holdings[0].capital == 2490
    assert load_text(GOOD.replace("capital: 30", "capital: '25%'"), "case.yaml").holdings[0].capital == 2500
    assert load_text(GOOD.replace("capital: 30", "capital: 010"), "case.yaml").holdings[0].capital == 1000  # not 8
    for written in ("2.5e1", "0x19", ".inf", "-0.5", "'２５'"):
        msg = one(GOOD.replace("capital: 30", f"capital: {written}"))
        assert "holdings[0].capital: expected a percentage between 0 and 100" in msg, msg


def test_state_keys_are_unique_whatever_their_case() -> None:
    msg = one(GOOD.replace("{pt: [incorporation]}", "{pt: [incorporation], PT: [residence]}"))
    assert msg == "case.yaml:7: persons.lusoinvest.liable_to_tax.PT: expected each State once (the case of a " \
                  "State code does not count), found 'PT', the same State as 'pt'", msg


def test_ids_are_unique_whatever_their_spaces() -> None:
    text = GOOD.replace("  alfa-industria-sa:\n", "  'lusoinvest ':\n    kind: individual\n  alfa-industria-sa:\n")
    msg = one(text)
    assert msg == "case.yaml:9: persons.lusoinvest : expected each id once (spaces around an id do not count), " \
                  "found 'lusoinvest ', the same id as 'lusoinvest'", msg
    text = GOOD + "expect:\n  div-2024: {outcome: {br: may tax}, provisions: []}\n" \
                  "  ' div-2024': {outcome: {br: exempt}, provisions: []}\n"
    assert "expect. div-2024: expected each id once" in one(text)


def test_merge_keys_are_refused() -> None:
    # the merge key brings in a second lusoinvest: YAML lets the one written out win, silently
    text = GOOD.replace("persons:\n", "others: &others\n  lusoinvest: {kind: individual}\npersons:\n  <<: *others\n")
    assert "case.yaml:7: persons.<<: expected no YAML merge key (<<): write each field out, found <<" in problems(text)
    text = GOOD.replace("  alfa-industria-sa:\n    kind: company\n",
                        "  alfa-industria-sa:\n    <<: {kind: company, name: Alfa}\n")
    assert "persons.alfa-industria-sa.<<: expected no YAML merge key" in one(text)


def test_dates_are_dates() -> None:
    msg = one(GOOD.replace("from: 2021-01-15", "from: 0"))  # read as 1970-01-01 before
    assert msg == "case.yaml:15: holdings[0].from: expected a date YYYY-MM-DD, found 0", msg
    msg = one(GOOD.replace("date: 2024-03-15", "date: 2024-03-15T00:00:00"))
    assert msg == "case.yaml:21: income[0].date: expected a date YYYY-MM-DD without a time, found " \
                  "'2024-03-15T00:00:00'", msg
    msg = one(GOOD.replace("date: 2024-03-15", "date: 2024-03-15 10:30:00"))
    assert "income[0].date: expected a date YYYY-MM-DD without a time" in msg, msg
    msg = one(GOOD.replace("evaluation_date: 2024-06-30", "evaluation_date: 20240630"))
    assert msg == "case.yaml:3: evaluation_date: expected a date YYYY-MM-DD, found 20240630", msg
    msg = one(GOOD.replace("evaluation_date: 2024-06-30", "evaluation_date: '٢٠٢٤-٠٦-٣٠'"))
    assert "evaluation_date: expected a date YYYY-MM-DD" in msg, msg
    assert load_text(GOOD, "case.yaml").evaluation_date == date(2024, 6, 30)


def test_booleans_are_true_or_false_only() -> None:
    for written in ('"no"', "no", "off", "0", "'true'"):
        msg = one(HOLDING.replace("DIRECT", written))
        assert msg.startswith("case.yaml:16: holdings[0].direct: expected true or false, found "), msg
    assert load_text(HOLDING.replace("DIRECT", "false"), "case.yaml").holdings[0].direct is False
    text = GOOD.replace("{br: [incorporation]}", "{br: [incorporation]}\n    treated_as_body_corporate: yes")
    msg = one(text.replace("kind: company\n    liable_to_tax: {br", "kind: other_entity\n    liable_to_tax: {br"))
    assert "treated_as_body_corporate: expected true, false or unknown, found 'yes'" in msg, msg


def test_yaml_11_words_are_text() -> None:
    # YAML 1.1 read `no` as false: Norway could not be named
    sc = load_text(GOOD.replace("{pt: [incorporation]}", "{pt: [incorporation], no: [residence]}"), "case.yaml")
    assert sc.persons["lusoinvest"].liable_to_tax == {"pt": ["incorporation"], "no": ["residence"]}


def test_amounts_are_written_in_digits() -> None:
    for written in ('"1_000"', '"١٠٠٠"', '"1,000.00"', '"1e3"', '" 1000.00 x"', '"0x10"'):
        msg = one(GOOD.replace('amount: "1000.00"', f"amount: {written}"))
        assert msg.startswith("case.yaml:22: income[0].gross.amount: expected an exact decimal amount written "
                              "with the digits 0-9 and at most one point, e.g. '1000.50' (no exponent, no "
                              "separators), found "), msg
    gross = load_text(GOOD.replace('"1000.00"', "1000"), "case.yaml").income[0].gross  # an integer is exact
    assert gross is not None and gross.amount == Decimal(1000)


def test_names_are_not_empty() -> None:
    assert one(GOOD.replace("name: base", "name: ''")) == \
        "case.yaml:1: name: expected a text that is not empty, found ''"
    text = GOOD.replace("    kind: company\n    liable_to_tax: {pt", "    kind: company\n    name: '  '\n"
                        "    liable_to_tax: {pt")
    assert one(text) == "case.yaml:7: persons.lusoinvest.name: expected a text that is not empty, found '  '"


# --- item 3: no crash on hostile input ----------------------------------------------------------------

@pytest.mark.parametrize("written", ['"1e27"', '"1e999999"', "1e27", "1e999999", '"1' + "0" * 27 + '"'])
def test_huge_amounts_are_refused(written: str) -> None:
    msg = one(GOOD.replace('amount: "1000.00"', f"amount: {written}"))
    assert msg.startswith("case.yaml:22: income[0].gross.amount: expected an exact decimal"), msg


def test_amounts_within_the_bound() -> None:
    biggest = "999999999999999.999999"
    sc = load_text(GOOD.replace('"1000.00"', f'"{biggest}"'), "case.yaml")
    assert sc.income[0].gross is not None and sc.income[0].gross.amount == Decimal(biggest)
    assert "expected an exact decimal amount below 10^15 (at most 15 digits before the point), found " \
           "'1000000000000000'" in one(GOOD.replace('"1000.00"', '"1000000000000000"'))
    assert "expected an exact decimal amount with at most 6 decimals, found '1000.0000001'" in \
        one(GOOD.replace('"1000.00"', '"1000.0000001"'))


def test_the_largest_amount_is_computed_exactly(checker: Checker) -> None:
    """At the bound the rules compare a clamped amount and Python computes the cap exactly (no crash)."""
    text = GOOD.replace('"1000.00"', '"999999999999999.99"') + \
        '    withholding: {withheld: {amount: "999999999999999.99", currency: BRL}, domestic_rate: 15}\n'
    result = checker.check(load_text(text, "case.yaml"))
    item = result.items[0]
    assert item.max_rate_bp == 1000
    assert item.max_source_tax == Decimal("100000000000000.00")
    assert item.compliance is not None and item.compliance.finding == "over_withheld"


@pytest.mark.parametrize("where", ["capital: 30", 'amount: "1000.00"', "from: 2021-01-15"])
def test_5000_digit_integers_are_refused(where: str) -> None:
    field = where.split(":")[0]
    msg = one(GOOD.replace(where, f"{field}: {'9' * 5000}"))
    assert msg.endswith(f".{field}: expected a number of at most 40 characters, found a number of 5,000 characters")


def test_huge_integers_given_as_data_are_refused() -> None:
    """Through the Python API (no YAML text to bound) too: never an error printing the number itself."""
    data = parse_yaml(GOOD, "case.yaml")[0]
    data["holdings"][0]["capital"] = 10**5000
    data["income"][0]["gross"]["amount"] = 10**5000
    with pytest.raises(ScenarioError) as info:
        load_dict(data, "case.yaml")
    assert [str(p) for p in info.value.problems] == [
        "case.yaml: holdings[0].capital: expected a percentage between 0 and 100, found a number of about 5000 "
        "digits",
        "case.yaml: income[0].gross.amount: expected an exact decimal amount below 10^15 (at most 15 digits "
        "before the point), found a number of about 5000 digits"]


def test_deep_nesting_is_refused() -> None:
    msg = one(GOOD + "description: " + "[" * 500 + "]" * 500 + "\n")
    assert msg == "case.yaml:23: (document): expected at most 40 levels of nesting, found deeper nesting", msg
    block = "".join("  " * i + f"k{i}:\n" for i in range(500))
    assert one(GOOD + "description:\n" + block).endswith("expected at most 40 levels of nesting, found deeper nesting")


@pytest.mark.parametrize("tag", ["!!timestamp x", "!!timestamp 2024-03-15", "!!str 2024-03-15", "!!binary aGk=",
                                 "!!python/object/apply:os.system [echo]", "!local 2024-03-15", "! 2024-03-15"])
def test_tags_are_refused(tag: str) -> None:
    msg = one(GOOD.replace("date: 2024-03-15", f"date: {tag}"))
    assert msg.startswith("case.yaml:21: income[0].date: expected plain YAML without tags, found the tag "), msg


def test_billion_laughs_is_refused_at_once() -> None:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    text = "\n".join(lines) + "\n"  # 9^10 "lol"s: 1.5 KB that expand to billions of values
    assert len(text) < 2000
    started = time.perf_counter()
    msg = one(text)
    assert time.perf_counter() - started < 1.0
    assert msg == "case.yaml:1: (document): expected at most 50,000 values and 40 levels of nesting once the " \
                  "aliases are expanded, found more than 50,000 values", msg


def test_aliases_within_a_budget() -> None:
    assert one(GOOD + "description: &d [*d]\n").endswith(
        "(document): expected aliases that do not contain themselves, found a recursive alias")
    text = GOOD + "x: &x 1\ndescription: [" + ", ".join(["*x"] * 1001) + "]\n"
    assert one(text).endswith("(document): expected at most 1,000 aliases (*name), found more")
    deep = "".join(f"a{i}: &a{i} [[[[[[[[[[{f'*a{i - 1}' if i else 1}]]]]]]]]]]\n" for i in range(10))
    assert one(deep).endswith("found 102 levels")
    # aliases within the budget still work (shipped scenarios use them in expect:)
    text = GOOD + "expect:\n  div-2024: &e {outcome: {br: capped 10%, pt: may tax}, provisions: [br-pt 10(2)]}\n"
    assert load_text(text, "case.yaml").expect is not None


def test_keys_are_names() -> None:
    assert one(GOOD + "? [a, b]\n: 1\n") == \
        "case.yaml:23: (document): expected a key that is a name, an id or a State, found a list as a key"


def test_oversized_files_are_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text(GOOD + "description: '" + "x" * MAX_BYTES + "'\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_file(path)
    assert [str(p) for p in info.value.problems] == \
        [f"{path}: (file): expected a scenario file of at most 1,000,000 bytes, found a larger file (split it, or "
         "give the payments as a ledger to `treaty batch`)"]
    assert one(GOOD + "description: '" + "x" * MAX_BYTES + "'\n").startswith(
        "case.yaml: (document): expected a text of at most 1,000,000 characters")


# --- found by the fuzz harness (tests/fuzz) -----------------------------------------------------------

def test_characters_yaml_refuses_are_an_input_error() -> None:
    """Reproducer: a NUL or a vertical tab anywhere in the file raised yaml.reader.ReaderError (a traceback),
    before the loader's own checks. Now it is a syntax error naming the line and the character."""
    assert one(GOOD.replace("name: base", "name: ba\x00se")) == \
        "case.yaml:1: (syntax): expected well-formed YAML, found special characters are not allowed (the " \
        "character U+0000)"
    assert one(GOOD.replace("BRL}", "BRL\x0b}")) == \
        "case.yaml:22: (syntax): expected well-formed YAML, found special characters are not allowed (the " \
        "character U+000B)"


def test_ids_have_no_c1_control_characters() -> None:
    """Reproducer: an id with U+0085 or U+0081 inside (a C1 control character, as "\\x85" or from a ledger cell)
    was accepted; the README says an id has no control characters."""
    text = GOOD.replace("  alfa-industria-sa:\n", '  "ana\\x85b":\n    kind: individual\n  alfa-industria-sa:\n')
    assert one(text) == "case.yaml:9: persons.ana\x85b: expected an id without control characters, found 'ana\\x85b'"
    assert one(GOOD.replace("payer: alfa-industria-sa", 'payer: "alfa-industria\\x9fsa"')) == \
        "case.yaml:19: income[0].payer: expected an id without control characters, found 'alfa-industria\\x9fsa'"
