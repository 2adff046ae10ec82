"""Lines of the legal argument a blind examiner found wrong or unreadable (issue 24, blind55a): a provision encoded
from a reconstruction carries its mark next to its id; a figure of one of several instances that fail says which;
a short-stay condition not met says why."""

from __future__ import annotations

from click.testing import CliRunner

from pyhelpers.interfaces.cli import main

from .conftest import ROOT

BLIND = ROOT / "tests/fixtures/open-exam/blind55"
UY = str(BLIND / "blind55a01-uy-29-2-e-183-and-182-days.yaml")
PL = str(BLIND / "blind55a12-pl-16-2-b-c-employer-pe-fixed-base.yaml")


def _lines(*args: str) -> list[str]:
    return [ln.strip() for ln in CliRunner().invoke(main, list(args)).stdout.splitlines()]


def test_a_reconstructed_provision_is_marked_next_to_its_id() -> None:
    """br-uy 29(1) and 29(2)(a)-(c) are encoded from a reconstruction (their rules annotated ``reconstructed``): each
    line citing them says so inline, in every language; 29(2)(d) and (e), from the corpus text, narrowly are not."""
    lines = _lines("check", UY)
    assert "↳ br-uy 29(1) (reconstructed): the benefits of the treaty are not granted for div-beta — for div-beta, " \
           "the claimant meets none of the tests of 29(2) to 29(4)" in lines
    assert "br-uy 29(2)(a) (reconstructed) not met: beta-uy is not an individual" in lines
    assert any(ln.startswith("br-uy 29(2)(c) (reconstructed) not met: ") for ln in lines)
    assert any(ln.startswith("br-uy 29(2)(d) not met: ") for ln in lines)
    assert any(ln.startswith("br-uy 29(2)(e) not met: ") for ln in lines)
    assert any(ln.startswith("↳ br-uy 10(2)(a): ") for ln in lines)  # div-alfa: from the text, no mark
    explained = _lines("explain", UY, "--item", "div-beta")
    assert "br-uy 29(2)(b) (reconstructed) considered and not met: beta-uy is a company; beta-uy is not a " \
           "Contracting State, a political subdivision or local authority of it, or an agency or instrumentality " \
           "of them" in explained
    assert any(ln.startswith("br-uy 29(2)(d) considered and not met: ") for ln in explained)
    pt = _lines("check", UY, "--lang", "pt")
    assert "requisitos do br-uy 29(2)(a) (reconstituído) não atendidos: beta-uy não é pessoa física" in pt
    pt_pt = _lines("check", UY, "--lang", "pt-PT")
    assert any(ln.startswith("requisitos do br-uy 29(2)(a) (reconstituída) não cumpridos: ") for ln in pt_pt)
    out = CliRunner().invoke(main, ["explain", UY, "--item", "div-beta", "--format", "json"]).stdout
    assert '"reconstructed": true' in out


def test_the_days_of_a_twelve_month_period_not_met_name_the_period() -> None:
    """29(2)(e) is failed in every candidate twelve-month period: the figure is the one nearest to half the days
    (182 days, not also 181 of another period), with the period it counts."""
    lines = _lines("check", UY)
    assert "the condition that the ownership test of br-uy 29(2)(e) is met on at least half the days of a " \
           "twelve-month period is not met (182 days < 50% of 365 days, where the twelve-month period from " \
           "2024-07-01 to 2025-06-30, of 365 days, includes div-beta)" in lines
    assert not any("181 days" in ln for ln in lines)


def test_a_short_stay_condition_not_met_says_why() -> None:
    """br-pl 16(2)(b) not met: the employer is a resident of Brazil; 16(2)(c): the place that bears the pay is a fixed
    base (blind55a12). The narrowly-not case: 16(2)(a) met, whose line says its figure already."""
    lines = _lines("check", PL)
    # each with the provision that makes it so, and that provision's facts about it (not the employee's residence:
    # lines56b)
    assert "↳ br-pl 16(2)(b): short-stay condition b for sal-brazilian-employer is not met — for the treaty, " \
           "construtora-br is a resident of Brazil only (br-pl 4 (reconstructed): under the law of Brazil, " \
           "construtora-br is liable to tax by reason of incorporation)" in lines
    assert "↳ br-pl 16(2)(c): short-stay condition c for sal-fixed-base is not met — zofia-studio is a permanent " \
           "establishment or fixed base (br-pl 15(1)(a): zofia-studio is a fixed base)" in lines
    assert not any(ln.startswith("↳ br-pl 16(2)(b): ") and "dawid" in ln for ln in lines)
    pt = _lines("check", PL, "--lang", "pt")
    assert "↳ br-pl 16(2)(c): a condição (c) de curta permanência para sal-fixed-base: não atendida — zofia-studio é " \
           "um estabelecimento permanente ou instalação fixa (br-pl 15(1)(a): zofia-studio é uma instalação fixa)" in pt
    # the stated permanent establishment is read by Art. 5's reconstructed rule: the line says it rests on it
    assert "↳ br-pl 16(2)(c) (on reconstructed br-pl 5): short-stay condition c for sal-pe is not met — the scenario " \
           "states that polbud-sp is " \
           "a permanent establishment" in lines
    assert any(ln.startswith("↳ br-pl 16(2)(a): short-stay condition a for sal-on-behalf is met — the recipient of "
                             "sal-on-behalf is present in Brazil on 30 days") and ln.endswith("(≤ 183 days)")
               for ln in lines)
