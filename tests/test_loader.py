"""Bad input gets a clear error naming the file, the line, the field, what was expected and found."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyhelpers.base.errors import ScenarioError
from pyhelpers.scenario import load_file, load_text

GOOD = """\
name: base
treaty: br-pt
evaluation_date: 2024-06-30
persons:
  lusoinvest:
    kind: company
    liable_to_tax: {pt: [incorporation]}
  alfa-industria-sa:
    kind: company
    liable_to_tax: {br: [incorporation]}
holdings:
  - holder: lusoinvest
    company: alfa-industria-sa
    capital: 30
    from: 2021-01-15
income:
  - id: div-2024
    type: dividend
    payer: alfa-industria-sa
    recipient: lusoinvest
    date: 2024-03-15
    gross: {amount: "1000.00", currency: BRL}
"""


def problems(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        load_text(text, "case.yaml")
    return [str(p) for p in info.value.problems]


def one(text: str) -> str:
    found = problems(text)
    assert len(found) == 1, found
    return found[0]


def test_good_scenario_loads() -> None:
    sc = load_text(GOOD, "case.yaml")
    assert sc.holdings[0].capital == 3000  # basis points


def test_malformed_yaml() -> None:
    msg = one(GOOD.replace("capital: 30", "capital: [30"))
    assert msg.startswith("case.yaml:") and "(syntax): expected well-formed YAML" in msg


def test_unknown_field_with_line() -> None:
    found = problems(GOOD.replace("    payer:", "    payr:"))
    assert "case.yaml:19: income[0].payr: expected no such field (check the spelling; see `treaty schema`), " \
           "found 'alfa-industria-sa'" in found
    assert "case.yaml:17: income[0].payer: expected this required field, found nothing" in found


def test_missing_required_field() -> None:
    msg = one(GOOD.replace("    date: 2024-03-15\n", ""))
    assert msg.startswith("case.yaml:17: income[0].date: expected this required field, found nothing"), msg


def test_impossible_date() -> None:
    msg = one(GOOD.replace("date: 2024-03-15", "date: 2023-02-29"))
    assert msg.startswith("case.yaml:21: income[0].date: expected a real date YYYY-MM-DD"), msg
    assert "2023-02-29" in msg


def test_percentage_over_100() -> None:
    msg = one(GOOD.replace("capital: 30", "capital: 120"))
    assert msg == "case.yaml:14: holdings[0].capital: expected a percentage between 0 and 100, found 120", msg


def test_percentage_with_three_decimals() -> None:
    msg = one(GOOD.replace("capital: 30", "capital: 24.999"))
    assert "holdings[0].capital: expected a percentage with at most two decimals" in msg


def test_unknown_person_with_suggestion() -> None:
    msg = one(GOOD.replace("payer: alfa-industria-sa", "payer: alfa-industria"))
    assert msg == ("case.yaml:19: income[0].payer: expected the id of a person, found 'alfa-industria' "
                   "(did you mean 'alfa-industria-sa'?)"), msg


def test_duplicate_income_ids() -> None:
    second = GOOD[GOOD.index("  - id: div-2024"):]
    msg = one(GOOD + second)
    assert "income[1].id: expected an id not used by another income item, found 'div-2024', already income[0]" in msg


def test_duplicate_yaml_keys() -> None:
    text = GOOD.replace("  alfa-industria-sa:\n", "  lusoinvest:\n    kind: individual\n  alfa-industria-sa:\n")
    msg = one(text)
    assert msg == "case.yaml:8: persons.lusoinvest: expected each key once, found 'lusoinvest' repeated", msg


def test_unknown_treaty() -> None:
    msg = one(GOOD.replace("treaty: br-pt", "treaty: br-xx"))
    assert msg == "case.yaml:2: treaty: expected one of br-ae, br-pl, br-pt, br-sg or br-uy, found 'br-xx'", msg


def test_holding_ends_before_it_starts() -> None:
    msg = one(GOOD.replace("    from: 2021-01-15\n", "    from: 2021-01-15\n    until: 2020-12-31\n"))
    assert "holdings[0].until: expected a date on or after from (2021-01-15), found 2020-12-31" in msg


def test_overlapping_holding_records() -> None:
    extra = "  - {holder: lusoinvest, company: alfa-industria-sa, capital: 40, from: 2022-01-01}\n"
    msg = one(GOOD.replace("income:\n", extra + "income:\n"))
    assert "holdings[1].from: expected a date after holdings[0] ends" in msg


def test_cyclic_ownership_rejected() -> None:
    extra = "  - {holder: alfa-industria-sa, company: lusoinvest, capital: 10, from: 2022-01-01}\n"
    msg = one(GOOD.replace("income:\n", extra + "income:\n"))
    assert "holdings: expected ownership without cycles, found " in msg
    assert "alfa-industria-sa -> lusoinvest -> alfa-industria-sa" in msg


def test_unknown_income_type() -> None:
    msg = one(GOOD.replace("type: dividend", "type: dividends"))
    assert "income[0].type: expected one of dividend, branch_profits," in msg and "found 'dividends'" in msg


def test_amount_as_float_or_negative() -> None:
    msg = one(GOOD.replace('amount: "1000.00"', "amount: 1000.5"))
    assert "expected an exact decimal written as a string, e.g. '1000.50', found 1000.5" in msg
    msg = one(GOOD.replace('amount: "1000.00"', 'amount: "-5"'))
    assert msg == "case.yaml:22: income[0].gross.amount: expected a number at least 0, found '-5'"


def test_bad_state_code() -> None:
    msg = one(GOOD.replace("{pt: [incorporation]}", "{portugal: [incorporation]}"))
    assert "persons.lusoinvest.liable_to_tax.portugal" in msg or "persons.lusoinvest.liable_to_tax" in msg
    assert "a two-letter State code" in msg


def test_expectation_for_unknown_item() -> None:
    text = GOOD + "expect:\n  div-2025:\n    outcome: {br: capped 10%}\n    provisions: []\n"
    msg = one(text)
    assert "expect.div-2025: expected the id of an income item, found 'div-2025' (did you mean 'div-2024'?)" in msg


def test_bad_expected_outcome() -> None:
    text = GOOD + "expect:\n  div-2024:\n    outcome: {br: capped at ten}\n    provisions: []\n"
    msg = one(text)
    assert "expect.div-2024.outcome.br: expected an outcome such as 'capped 10%'" in msg


def test_document_not_a_mapping() -> None:
    assert one("- just\n- a list\n") == \
        "case.yaml:1: (document): expected a mapping with name, treaty, persons, ..., found ['just', 'a list']"


def test_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as info:
        load_file(tmp_path / "nope.yaml")
    assert str(info.value.problems[0]).endswith("(file): expected an existing scenario file, found no such file")


def test_every_problem_reported_not_only_the_first() -> None:
    text = GOOD.replace("capital: 30", "capital: 130").replace("payer: alfa-industria-sa", "payer: nobody")
    found = problems(text)
    assert len(found) == 1  # the reference check runs only once the fields are valid
    text2 = GOOD.replace("capital: 30", "capital: 130").replace("date: 2024-03-15", "date: 2024-13-01")
    assert len(problems(text2)) == 2


def test_government_needs_its_state() -> None:
    text = GOOD.replace("    kind: company\n    liable_to_tax: {pt: [incorporation]}", "    kind: government")
    assert "persons.lusoinvest.government_of: expected the State of a government" in one(text)


def test_control_characters_in_ids_rejected() -> None:
    msg = one(GOOD.replace("id: div-2024", 'id: "div\\u00002024"'))
    assert "income[0].id" in msg


# --- withholding (the compliance check) and arrangements ------------------------------------------

def test_withholding_both_forms_and_foreign_currency() -> None:
    found = problems(GOOD + '    withholding: {withheld: {amount: "10.00", currency: EUR}, withheld_rate: 15}\n')
    assert any("income[0].withholding.withheld_rate: expected either withheld or withheld_rate, found both" in p
               for p in found), found
    assert any("income[0].withholding.withheld.currency: expected the currency of gross (BRL), found EUR" in p
               for p in found), found


def test_withholding_needs_gross() -> None:
    text = GOOD.replace('    gross: {amount: "1000.00", currency: BRL}\n', "")
    text += "    withholding: {withheld_rate: 15}\n"
    msg = one(text)
    assert "income[0].withholding: expected the item's gross amount" in msg and "found no gross" in msg, msg


def test_withholding_state_not_inferable() -> None:
    text = GOOD.replace("liable_to_tax: {br: [incorporation]}", "liable_to_tax: {br: [incorporation], pt: [residence]}")
    msg = one(text + "    withholding: {withheld_rate: 15}\n")
    assert "income[0].withholding.state: expected the State that withheld" in msg, msg


def test_withholding_rate_over_100() -> None:
    msg = one(GOOD + "    withholding: {withheld_rate: 150}\n")
    assert "income[0].withholding.withheld_rate: expected a percentage between 0 and 100, found 150" in msg, msg


def test_arrangement_unknown_item_and_item_twice() -> None:
    text = GOOD + "arrangements:\n  a: {items: [div-2024, div-2025]}\n  b: {items: [div-2024]}\n"
    found = problems(text)
    assert any("arrangements.a.items[1]: expected the id of an income item, found 'div-2025'" in p
               for p in found), found
    assert any("arrangements.b.items[0]: expected an item in at most one arrangement, found 'div-2024', already "
               "in arrangement 'a'" in p for p in found), found


def test_a_dividend_states_where_it_arises_and_nothing_else_of_other_income() -> None:
    """A dividend the dividend article does not reach is other income, whose source rule asks where it arises:
    a dividend item may state it (``other_income: {arises_in: ...}``), not the block's other facts."""
    item = "    gross: {amount: \"1000.00\", currency: BRL}\n"
    sc = load_text(GOOD.replace(item, item + "    other_income: {arises_in: br}\n"), "case.yaml")
    assert sc.income[0].other_income is not None and sc.income[0].other_income.arises_in == "br"
    msg = one(GOOD.replace(item, item + "    other_income: {arises_in: br, from_immovable_property: true}\n"))
    assert msg == ("case.yaml:23: income[0].other_income.from_immovable_property: expected only arises_in in "
                   "other_income on a dividend item (where the dividend arises, read where no dividend rule reaches "
                   "it), found from_immovable_property"), msg


def test_a_list_of_taxes_one_of_each_state_loads() -> None:
    text = GOOD + "    tax:\n      - {name: irpj, withheld_at_source: true}\n" \
                  "      - {name: irc, withheld_at_source: false, fiscal_year_start: 2023-07-01}\n"
    item = load_text(text, "case.yaml").income[0]
    assert [t.name for t in item.taxes] == ["irpj", "irc"] and item.single_tax is None


def test_two_taxes_of_one_state_are_refused_with_file_line_and_field() -> None:
    text = GOOD + "    tax:\n      - {name: irpj, withheld_at_source: true}\n      - {name: csll}\n"
    msg = one(text)
    assert msg.startswith("case.yaml:25: income[0].tax[1]: ")  # the line of the second tax
    assert "expected at most one tax of each State" in msg and "found a second tax of br (csll)" in msg


def test_an_empty_list_of_taxes_is_refused() -> None:
    msg = one(GOOD + "    tax: []\n")
    assert "income[0].tax" in msg and "expected one tax, or a list of taxes of different States" in msg
    assert "found an empty list" in msg


def test_a_tax_named_other_in_a_list_needs_its_state() -> None:
    msg = one(GOOD + "    tax:\n      - {name: irpj}\n      - {name: other}\n")
    assert "income[0].tax[1].state" in msg and "expected the State that levies a tax named other" in msg


def test_a_technical_fee_takes_employment_details_and_a_dividend_does_not() -> None:
    """A fee for technical services paid to an employee of the payer is employment income under some treaties
    (br-pl 13(3)(a) sends it to Art. 16): where the job is done is written in its ``employment`` block, the field
    a missing ``exercised_in`` names; other types still refuse the block."""
    item = "    gross: {amount: \"1000.00\", currency: BRL}\n"
    fee = GOOD.replace("type: dividend", "type: technical_services").replace(
        item, item + "    employment: {exercised_in: br, aboard: none}\n")
    sc = load_text(fee, "case.yaml")
    assert sc.income[0].employment is not None and sc.income[0].employment.exercised_in == "br"
    msg = one(GOOD.replace(item, item + "    employment: {exercised_in: br}\n"))
    assert "income[0].employment: expected employment details only on items of type" in msg, msg
    assert "technical_services" in msg, msg
