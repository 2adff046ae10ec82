"""Lines a blind examiner found a tax professional would not write (issue 24, blind57a R1-R3, R5, R6, R9): an item a
paragraph sends to Art. 7 names what is effectively connected (the holding, the debt-claim, the right or property),
not "the profits", and is sent to Art. 7, not found attributable by that paragraph; 10(5)'s line says why its
exception fails; 15(1)(a)'s condition and the rights royalties are paid for are said in the treaty's words."""

from __future__ import annotations

from .conftest import ROOT
from .conftest import cli_lines as _lines

PT = ROOT / "scenarios/br-pt"
HOLDING = str(PT / "relief-branch-holding-dividend-24-99-percent.yaml")
OTHER_INCOME = str(PT / "exam45-pt10-5-02-holding-connected-with-portuguese-pe.yaml")
DEBT_CLAIM = str(ROOT / "tests/fixtures/open-exam/blind55b/blind55b06-pt11-6-interest-claim-connected-with-pe.yaml")
PROFITS = str(PT / "assumptions-business-profits-places-listed.yaml")
SG_HOLDING = str(ROOT / "scenarios/br-sg/dividends-holding-connected-with-brazilian-pe.yaml")
PL_FIXED_BASE = str(ROOT / "scenarios/br-pl/independent-services-fixed-base.yaml")
PL_ROYALTIES = str(ROOT / "scenarios/br-pl/exam22-pl-06-royalties-polish-beneficial-owner.yaml")


def test_a_dividend_sent_to_article_7_names_its_holding() -> None:
    """R1, R2: 10(4) says «a participação relativamente à qual os dividendos são pagos estiver efectivamente ligada»
    and «Neste caso, são aplicáveis as disposições do artigo 7.º»: the line says the holding is connected and that
    10(4) sends the dividend to Art. 7, never «the profits div-2024» nor that 10(4) finds them attributable."""
    lines = _lines("explain", HOLDING, "--item", "div-2024")
    assert "br-pt 7(1): Brazil may tax div-2024 — the holding in respect of which div-2024 is paid is effectively " \
           "connected with sp-branch, in Brazil" in lines
    assert "br-pt 10(4): div-2024 is profits of the enterprise of lusoinvest; the holding in respect of which " \
           "div-2024 is paid is effectively connected with sp-branch; br-pt 10(4) sends div-2024 to Art. 7" in lines
    assert not any("the profits div-2024" in ln or "attributable" in ln for ln in lines)
    pt = _lines("explain", HOLDING, "--item", "div-2024", "--lang", "pt")
    assert "br-pt 7(1): o Brasil pode tributar div-2024 — a participação relativamente à qual div-2024 é pago está " \
           "efetivamente ligada a sp-branch, no Brasil" in pt
    assert any(ln.endswith("; o br-pt 10(4) remete div-2024 ao art. 7º") for ln in pt)
    pt_pt = _lines("explain", HOLDING, "--item", "div-2024", "--lang", "pt-PT")
    assert any(ln.endswith("; o br-pt 10(4) remete div-2024 para o artigo 7.º") for ln in pt_pt)


def test_other_income_and_interest_sent_to_article_7_name_their_right_and_claim() -> None:
    """R1, R2: 22(2) speaks of «o direito ou a propriedade em relação ao qual o rendimento é pago», 11(6) of «o
    crédito relativamente ao qual os juros são pagos»."""
    lines = _lines("explain", OTHER_INCOME, "--item", "div-verde-vale")
    assert "br-pt 7(1): Portugal may tax div-verde-vale — the right or property in respect of which div-verde-vale " \
           "is paid is effectively connected with lisboa-branch, in Portugal" in lines
    assert any(ln.startswith("br-pt 22(2): ") and ln.endswith("; br-pt 22(2) sends div-verde-vale to Art. 7")
               for ln in lines)
    interest = _lines("explain", DEBT_CLAIM, "--item", "loan-connected")
    assert "br-pt 7(1): Brazil may tax loan-connected — the debt-claim in respect of which loan-connected is paid " \
           "is effectively connected with sp-branch, in Brazil" in interest


def test_business_profits_keep_their_profits_line() -> None:
    """Narrowly not: business profits connected with a place of business are the profits of Art. 7 itself."""
    lines = _lines("explain", PROFITS, "--item", "cork-sales-2024")
    assert "br-pt 7(1): Portugal may tax cork-sales-2024 — cork-sales-2024 is profits of an enterprise of Portugal; " \
           "the profits cork-sales-2024 are connected with bento-goncalves-office, in Brazil" in lines
    assert not any("sends cork-sales-2024" in ln for ln in lines)


def test_singapore_dividend_sent_to_article_7_names_its_holding() -> None:
    """R2, R5: br-sg 10(4), «a participação geradora dos dividendos estiver efetivamente ligada»: the source State's
    line says the holding is connected with the branch in Brazil (not «the place branch-sp of div is in Brazil»)."""
    lines = _lines("explain", SG_HOLDING, "--item", "div")
    assert "br-sg 7(1): Brazil may tax div; the holding on which div is paid is effectively connected with " \
           "branch-sp, in Brazil" in lines
    assert "br-sg 10(4): div is profits of the enterprise of sg-holdco; the holding on which div is paid is " \
           "effectively connected with branch-sp; br-sg 10(4) sends div to Art. 7" in lines
    assert not any("attributable" in ln or "the place branch-sp" in ln for ln in lines)


def test_10_5_says_why_its_exception_does_not_apply() -> None:
    """R3: «excepto ... na medida em que a participação ... estiver efectivamente ligada a um estabelecimento estável
    situado nesse outro Estado»: the line of Portugal's restraint says the holding is not so connected (here the
    holding is connected with an office in Portugal that is no permanent establishment). Narrowly not: the
    dividend whose holding is connected with a permanent establishment there has no such line."""
    lines = _lines("explain", OTHER_INCOME, "--item", "div-rio-graos")
    assert any(ln.startswith("br-pt 10(5): Portugal may not tax div-rio-graos — ") and
               "; the holding behind div-rio-graos is not effectively connected with a permanent establishment in "
               "Portugal; " in ln for ln in lines)
    connected = _lines("explain", OTHER_INCOME, "--item", "div-verde-vale")
    assert not any("is not effectively connected" in ln for ln in connected)


def test_an_exception_fails_on_a_place_stated_no_permanent_establishment() -> None:
    """R3 (the exception's own fact): div-leste's holding is connected with a place the scenario states is no
    permanent establishment: 10(4) does not apply for that fact, not because «the scenario does not say that the
    scenario states» it is one. Narrowly not: where the owner has no place there, that is said."""
    lines = _lines("explain", str(PT / "dividends-holding-connected-with-brazilian-pe.yaml"))
    assert "br-pt 10(4) does not apply (holding connected with a permanent establishment): the scenario states that " \
           "leste-cortica-sao-paulo is not a permanent establishment" in lines
    assert "br-pt 22(2) does not apply (right or property connected with a permanent establishment): beta-comercio " \
           "has no place of business in Portugal (none in the scenario's `places_of_business`)" in lines
    assert not any("does not say that the scenario states" in ln for ln in lines)


def test_the_fixed_base_condition_is_said_in_words() -> None:
    """R6: 15(1)(a), «se ele dispuser regularmente de instalação fixa no outro Estado Contratante»: not «condition a
    for legal-fees is met». Narrowly not: where the fixed base is unknown, no line says the condition is met."""
    lines = _lines("explain", PL_FIXED_BASE, "--item", "legal-fees")
    assert "br-pl 15(1)(a): Poland may tax legal-fees — the condition of a fixed base regularly available in the " \
           "other State is met for legal-fees; lima-office-warsaw is a fixed base" in lines
    assert not any("condition a " in ln for ln in lines)
    unknown = _lines("explain", PL_FIXED_BASE, "--item", "legal-fees-base-unknown")
    assert not any("regularly available" in ln for ln in unknown)


def test_royalties_are_paid_for_the_use_of_a_right() -> None:
    """R9: 12(3), «pagas pelo uso ou pela concessão do uso de ... marcas de indústria ou de comércio»: "for the use
    of, or the right to use, a trademark", not «paid for trademark». Narrowly not: a copyright keeps its own word."""
    lines = _lines("explain", PL_ROYALTIES, "--item", "trademark-licence")
    assert any(ln.endswith("; trademark-licence is paid for the use of, or the right to use, a trademark")
               for ln in lines)
    book = _lines("explain", PL_ROYALTIES, "--item", "book-royalty")
    assert any(ln.endswith("; book-royalty is paid for the use of, or the right to use, a copyright") for ln in book)
    pt = _lines("explain", PL_ROYALTIES, "--item", "trademark-licence", "--lang", "pt")
    assert any(ln.endswith("trademark-licence é pago pelo uso, ou pelo direito de uso, de uma marca de indústria ou "
                           "de comércio") for ln in pt)
