"""Lines a blind examiner found a tax professional would not write (issue 24; blind59 R1-R9): each asserts the exact
line, with a narrowly-not case beside it."""

from __future__ import annotations

from .conftest import ROOT, item_block
from .conftest import cli_lines as _lines

B59 = ROOT / "tests/fixtures/open-exam/blind59"
SG_OPEN = str(B59 / "b59-08-sg-10-6-open-facts.yaml")
SG_AGENT = str(B59 / "b59-06-sg-unknown-needed-only-if.yaml")


def test_a_fact_the_engine_opens_is_said_as_the_rules_say_it() -> None:
    """R2: «depends on places_of_business.chan-rio-office.fixed_base, given as unknown (br-sg 10(6))», a finding the
    engine writes for a fact opened over its values, and «if places_of_business.sg-trader-agent.agent
    .ordinary_course_of_business is true»: the fact in the words the rules' own terms give it («whether chan-rio-office
    is a fixed base», «the agent ... acts in the ordinary course of its business»), the field after the words.
    Narrowly not: a condition on a fact whose value is no yes or no (the place the holding is connected with) keeps
    its field."""
    block = item_block(_lines("check", "--strict", SG_OPEN), "h1-hk-office-fixed-base-unknown")
    assert "- possibly: depends on whether chan-rio-office is a fixed base, given as unknown (br-sg 10(6)) if " \
           "income(h1-hk-office-fixed-base-unknown).dividend.connected_place_of_business " \
           "(`income[0].dividend.connected_place_of_business`) is chan-rio-office; state it in " \
           "`places_of_business.chan-rio-office.fixed_base`" in block
    assert "Brazil:    depends on place of business the holding is effectively connected with " \
           "(h1-hk-office-fixed-base-unknown), whether chan-rio-office is a fixed base" in block
    assert any(ln.startswith("may tax if chan-rio-office is a fixed base and income(h1-hk-office-fixed-base-unknown)"
                             ".dividend.connected_place_of_business (`income[0]") for ln in block)
    assert not any("places_of_business.chan-rio-office.fixed_base is" in ln or
                   "on places_of_business.chan-rio-office" in ln for ln in block)
    agent = item_block(_lines("check", SG_AGENT), "e3-agent-independence-unknown")
    assert "may not tax if the agent sg-trader-agent is of independent status and the agent sg-trader-agent acts in " \
           "the ordinary course of its business  (br-sg 4(1); br-sg 5(7); br-sg 7(1))" in agent
    assert any(ln.startswith("- possibly: exception applies: a person acting for the enterprise who habitually "
                             "concludes contracts in its name (br-sg 5(6)) if the agent sg-trader-agent does not act "
                             "in the ordinary course of its business, or if the agent sg-trader-agent is not of "
                             "independent status") for ln in agent)
    assert not any("ordinary_course_of_business is" in ln for ln in agent)
    pt = item_block(_lines("check", "--strict", SG_OPEN, "--lang", "pt"), "h1-hk-office-fixed-base-unknown")
    assert any(ln.startswith("- possivelmente: depende de se chan-rio-office é uma base fixa, informado como "
                             "desconhecido (br-sg 10(6)) se ") and
               ln.endswith("; informe-o em `places_of_business.chan-rio-office.fixed_base`") for ln in pt)
    pt_agent = item_block(_lines("check", SG_AGENT, "--lang", "pt"), "e3-agent-independence-unknown")
    assert "não pode tributar se o agente sg-trader-agent for independente e o agente sg-trader-agent atua no curso " \
           "normal de suas atividades  (br-sg 4(1); br-sg 5(7); br-sg 7(1))" in pt_agent
    pt_pt = item_block(_lines("check", "--strict", SG_OPEN, "--lang", "pt-PT"), "h2-payer-brazil-income-not-stated")
    assert any(ln.startswith("não pode tributar se a sociedade que paga h2-payer-brazil-income-not-stated obtém "
                             "lucros ou rendimentos provenientes do outro Estado") for ln in pt_pt)


UY_LETTERS = str(B59 / "b59-03-uy-29-2-reconstructed-letters.yaml")


def test_a_decided_state_line_flags_what_it_rests_on() -> None:
    """R6: «Brazil: may tax, capped at 15% ... (br-uy 10(2); br-uy 10(2)(b))» for a Uruguayan individual, entitled by
    the reconstructed 29(2)(a), carried no flag of its own (only the item's last line did; the alternatives flag
    theirs): the line is flagged with what it rests on, the cap with the entitlement that grants it. Narrowly not:
    Uruguay's right under 10(1), no benefit of the treaty, is not flagged with 29(2)(a); an owner qualified by 29(4)
    is not flagged with any letter of 29(2)."""
    block = item_block(_lines("check", UY_LETTERS), "c3-individual")
    assert "Brazil:  may tax, capped at 15% of the gross amount  (br-uy 10(2); br-uy 10(2)(b))  [relies on " \
           "RECONSTRUCTED: br-uy 4; br-uy 29(1); br-uy 29(2)(a)]" in block
    assert "Uruguay: may tax  (br-uy 10(1))  [relies on RECONSTRUCTED: br-uy 4]" in block
    eb = item_block(_lines("check", UY_LETTERS), "c6-owned-by-eb")
    assert "Brazil:  may tax, capped at 15% of the gross amount  (br-uy 10(2); br-uy 10(2)(b))  [relies on " \
           "RECONSTRUCTED: br-uy 4; br-uy 29(1)]" in eb
    pt = item_block(_lines("check", UY_LETTERS, "--lang", "pt"), "c3-individual")
    assert any(ln.startswith("Brasil:") and ln.endswith("[baseia-se em RECONSTITUÍDOS: br-uy 4; br-uy 29(1); "
                                                       "br-uy 29(2)(a)]") for ln in pt)


def test_a_possibly_line_is_said_once_with_its_provisions() -> None:
    """R9: «possibly: depends on whether the agent sg-trader-agent is of independent status ...» was printed three
    times, once per provision (br-sg 5(6), 5(7), 7(1)), under the same condition: once, with the provisions together,
    as a finding that holds in every case is. Narrowly not: the two exceptions that may apply, different findings,
    stay two lines."""
    block = item_block(_lines("check", SG_AGENT), "e3-agent-independence-unknown")
    assert "- possibly: depends on whether the agent sg-trader-agent is of independent status, given as unknown " \
           "(br-sg 5(6); br-sg 5(7); br-sg 7(1)) if the agent sg-trader-agent acts in the ordinary course of its " \
           "business; state it in `places_of_business.sg-trader-agent.agent.independent`" in block
    assert sum("possibly: depends on" in ln for ln in block) == 1
    assert sum("possibly: exception applies" in ln for ln in block) == 2
    pt = item_block(_lines("check", SG_AGENT, "--lang", "pt"), "e3-agent-independence-unknown")
    assert sum("possivelmente: depende de" in ln for ln in pt) == 1
