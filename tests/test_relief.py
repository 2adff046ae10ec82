"""Art. 23 relief amounts (br-pt): computed in Decimal from the logic's conclusions, rounded half-up to the
currency's smallest unit; rendered in every format and language."""

from __future__ import annotations

import json
from decimal import Decimal

from pyhelpers.engine.amounts import round_to_currency
from pyhelpers.engine.results import Relief, ReliefMethod
from pyhelpers.engine.solve import Checker
from pyhelpers.output import render
from pyhelpers.scenario import load_file

from .conftest import ROOT

SCENARIOS = ROOT / "scenarios" / "br-pt"


def _relief(checker: Checker, name: str, item: str) -> Relief:
    result = checker.check(load_file(SCENARIOS / name))
    relief = result.item(item).relief
    assert relief is not None
    return relief


def test_credit_limited_by_the_convention_and_the_ceiling_rounded_half_up(checker: Checker) -> None:
    jcp = _relief(checker, "relief-portugal-credit-ceiling-and-limit.yaml", "jcp-2024")
    assert (jcp.state, jcp.currency) == ("pt", "BRL")
    assert jcp.methods == (ReliefMethod("credit", "br-pt 23(1)"),)
    assert jcp.ceiling == Decimal("5000.01")  # 10,000.01 x 100,000 / 200,000 = 5,000.005
    assert jcp.credit == Decimal("5000.01")
    over = _relief(checker, "relief-portugal-credit-ceiling-and-limit.yaml", "dividend-over-withheld")
    assert (over.source_tax_paid, over.treaty_limit, over.creditable_tax) == (
        Decimal("250000.00"), Decimal("150000.00"), Decimal("150000.00"))
    assert (over.ceiling, over.credit) == (Decimal("300000.00"), Decimal("150000.00"))


def test_indirect_credit_in_another_currency_than_the_gross_amount(checker: Checker) -> None:
    r = _relief(checker, "relief-brazilian-parent-credit-and-indirect-credit.yaml", "div-2024")
    assert [m.method for m in r.methods] == ["credit", "indirect_credit"]
    assert r.currency == "BRL"
    assert r.treaty_limit == Decimal("810000.00")  # 15% of the dividend as included, in BRL
    assert r.creditable_tax == Decimal("1210000.00")  # 810,000 + the underlying 400,000
    assert (r.ceiling, r.credit) == (Decimal("1836000.00"), Decimal("1210000.00"))
    open_ = _relief(checker, "relief-brazilian-parent-credit-and-indirect-credit.yaml",
                    "div-2024-payer-status-not-given")
    assert open_.credit is None and "no_ceiling_figures" in open_.notes and "no_source_tax" in open_.notes


def test_participation_deduction_and_the_ceiling_on_what_remains(checker: Checker) -> None:
    r = _relief(checker, "relief-portugal-participation-deduction-boundaries.yaml", "exactly-25-percent-two-years")
    assert r.deduction_share_bp == 9500 and r.deduction == Decimal("950000.00")
    assert r.ceiling == Decimal("10500.00")  # 210,000 x (1,000,000 - 950,000) / 1,000,000
    assert r.credit == Decimal("0.00")
    under = _relief(checker, "relief-portugal-participation-deduction-boundaries.yaml", "holding-24-99-percent")
    assert not under.has("participation_deduction") and under.deduction is None


def test_protocol_7_and_exemption_with_progression(checker: Checker) -> None:
    p7 = _relief(checker, "relief-participation-facts-missing-and-protocol-7.yaml", "indirect-credit-method")
    assert p7.has("indirect_credit") and not p7.has("participation_deduction")
    assert (p7.creditable_tax, p7.ceiling, p7.credit) == (Decimal("340000.00"), Decimal("210000.00"),
                                                          Decimal("210000.00"))
    ex = _relief(checker, "relief-exemption-with-progression.yaml", "freight-2024")
    assert ex.methods == (ReliefMethod("exemption_with_progression", "br-pt 23(4)"),) and ex.credit is None


def test_items_without_relief_block_have_no_relief(checker: Checker) -> None:
    result = checker.check(load_file(SCENARIOS / "dividends-qualifying-holding.yaml"))
    assert all(item.relief is None for item in result.items)


def test_rounding_to_the_smallest_unit_of_the_currency() -> None:
    assert round_to_currency(Decimal("10.005"), "BRL") == Decimal("10.01")
    assert round_to_currency(Decimal("10.5"), "JPY") == Decimal("11")
    assert round_to_currency(Decimal("1.0005"), "KWD") == Decimal("1.001")
    assert round_to_currency(Decimal("2.345"), None) == Decimal("2.35")


def test_relief_rendered_in_text_markdown_json_en_pt(checker: Checker) -> None:
    path = SCENARIOS / "relief-portugal-credit-ceiling-and-limit.yaml"
    result = checker.check(load_file(path), source=str(path))
    text_en = render.check_text(result, None, "en")
    assert "elimination of double taxation by Portugal:" in text_en and "ceiling 5,000.01 BRL" in text_en
    assert "Portugal: credit for the tax paid in the other State (br-pt 23(1))" in text_en
    text_pt = render.check_text(result, None, "pt")
    assert "eliminação da dupla tributação por Portugal:" in text_pt and "limite da dedução 5.000,01 BRL" in text_pt
    md = render.check_markdown(result, None, "pt")
    assert "## eliminação da dupla tributação" in md
    data = json.loads(render.to_json(render.check_json(result, None)))
    relief = data["items"][0]["relief"]
    assert relief["credit"] == "5000.01" and relief["methods"] == [{"method": "credit", "provision": "br-pt 23(1)"}]


def test_a_method_open_under_some_values_is_named_with_them(checker: Checker) -> None:
    """The 95% deduction depends on the holding's open first day: it is left out of the figures and named with
    the values under which it applies; the credit, which applies whatever the date, is a method."""
    relief = _relief(checker, "exam23-open-dividend-acquisition-date-unknown.yaml", "div-2026-03")
    assert relief.methods == (ReliefMethod("credit", "br-pt 23(1)"),)
    deduction, = relief.open_methods
    assert (deduction.method, deduction.provision) == ("participation_deduction", "br-pt 23(2)")
    assert [str(c) for c in deduction.holds_if] == ["holding(lusoaco, vale-do-aco).from is 2024-03-31 or earlier"]
    lines = render.relief_lines(relief, "en")
    assert ("not included: deduction of the dividends from the taxable base (br-pt 23(2)), which applies if "
            "the holding of lusoaco in vale-do-aco (`holdings[0]`) began on 2024-03-31 or earlier") in lines
    assert any("que se aplica se a participação de lusoaco em vale-do-aco (`holdings[0]`) tiver começado em "
               "31/03/2024 ou antes" in x
               for x in render.relief_lines(relief, "pt"))
    result = checker.check(load_file(SCENARIOS / "exam23-open-dividend-acquisition-date-unknown.yaml"))
    item, = render.check_json(result, None)["items"]
    assert item["relief"]["open_methods"] == [{"method": "participation_deduction", "provision": "br-pt 23(2)",
                                               "holds_if": [{"fact": "holding(lusoaco, vale-do-aco).from",
                                                             "values": "2024-03-31 or earlier",
                                                             "field": "holdings[0].from"}]}]
    assert all("holds_if" not in m for m in item["relief"]["methods"])  # left out where there is none


def test_credit_left_open_by_the_text_after_termination(checker: Checker) -> None:
    """The other State's tax outside the Convention, the residence State's inside it: the credit is an open
    question of the text, left out of the figures and said so; a relief with open methods only is shown."""
    name = "relief-after-termination-other-state-tax-outside.yaml"
    pt = _relief(checker, name, "pt-parent-paid-2028-02-15")
    assert pt.has("participation_deduction") and not pt.has("credit") and pt.credit is None
    assert [(m.method, m.text_open) for m in pt.open_methods] == [("credit", True)]
    br = _relief(checker, name, "br-parent-paid-2028-02-15")
    assert br.methods == () and [(m.method, m.text_open) for m in br.open_methods] == [
        ("credit", True), ("indirect_credit", True)]
    lines = render.relief_lines(br, "en")
    assert any("on which the text is open" in x for x in lines)
    assert json.loads(json.dumps(checker.check(load_file(SCENARIOS / name)).to_json()))["items"][1]["relief"][
        "open_methods"][0]["text_open"] is True
