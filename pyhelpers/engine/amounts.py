"""Money: every amount treaty-logic computes, in Python with :class:`~decimal.Decimal` (never in the
logic, whose integers are 32-bit). The logic decides rates and caps in basis points; this module turns
them into amounts.

**Rounding** (one rule, documented in docs/guide/withholding.md): every computed amount is rounded half-up to the
smallest unit of its currency (two decimals unless ISO 4217 says otherwise: JPY 0, KWD 3 ...). A
difference is computed between two rounded amounts, so it is exact.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal

from pydantic import BaseModel

from pyhelpers.base.terms import Term, Value
from pyhelpers.engine.results import Compliance, ItemResult, Relief, ReliefMethod, StateOutcome
from pyhelpers.scenario import IncomeItem, Money, Scenario, withholding_state

BASIS_POINTS = Decimal(10000)


def _name(value: Value) -> str:
    return value.name if isinstance(value, Term) else str(value)


_MINOR_UNITS = {"BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0,
                "RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
                "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3}
"""ISO 4217 currencies whose smallest unit is not the hundredth (every other currency: two decimals)."""


_UNIT = {places: Decimal(1).scaleb(-places) for places in {2, *_MINOR_UNITS.values()}}
"""The smallest unit of a currency with that many decimals (made once: a batch rounds several amounts a row)."""


def round_to_currency(amount: Decimal, currency: str | None) -> Decimal:
    """``amount`` rounded half-up to the smallest unit of ``currency`` (two decimals unless listed)."""
    return amount.quantize(_UNIT[_MINOR_UNITS.get(currency or "", 2)], rounding=ROUND_HALF_UP)


def limited_part(item: IncomeItem, part: str | None) -> Decimal | None:
    """The part of ``item``'s amount that its limit applies to, where the rules say the limit applies to a
    part only (``limit_applies_to``): the field of that name in the item's details, in the gross amount's
    currency (None when not given, or no part)."""
    if part is None:
        return None
    for name in type(item).model_fields:
        block = getattr(item, name)
        value = getattr(block, part, None) if isinstance(block, BaseModel) else None
        if isinstance(value, Money) and (item.gross is None or value.currency == item.gross.currency):
            return value.amount
    return None


def _bases(result: ItemResult) -> tuple[Decimal, Decimal] | None:
    """(the amount the limit applies to, the rest, taxed under each State's law): the gross and nothing,
    or the limited part and the excess over it; None where the part is not known."""
    return amount_bases(result.gross, result.limited_to, result.limited_amount, result.limit_base_open)


def amount_bases(gross: Decimal | None, limited_to: str | None, limited_amount: Decimal | None,
                 limit_base_open: object) -> tuple[Decimal, Decimal] | None:
    """:func:`_bases` of a result with these fields (a batch computes it for each row of a case from the row's gross
    amount: :mod:`pyhelpers.interfaces.batch`)."""
    if gross is None or limit_base_open is not None:
        return None
    if limited_to is None:
        return gross, Decimal(0)
    if limited_amount is None:
        return None
    return limited_amount, max(Decimal(0), gross - limited_amount)


def compute_relief(item: IncomeItem, max_rate_bp: int | None, atoms: Sequence[Term],
                   decided: ItemResult | None = None) -> Relief | None:
    """The amounts of the relief that the logic concludes for ``item`` (``relief/5``), in Decimal.

    * creditable tax: the source tax paid, but not above the Convention's limit on the item (the rate
      of its cap times the item: the Convention lets the other State tax only that much, and the excess
      is for it to refund; where the limit applies to a part only, the rate times that part plus the
      domestic tax on the rest, unlimited when no domestic rate is given), plus the underlying tax for an
      indirect credit;
    * ceiling (of a credit method): the residence tax on the item as the scenario gives it, or
      its total tax before the deduction times the item's share of the taxable income (the item as
      included, less any participation deduction);
    * credit: the lesser of the two; the participation deduction: its share of the item as included.
    """
    methods = sorted({(_name(a.args[2]), _name(a.args[3]), str(a.args[4]))
                      for a in atoms if a.name == "relief" and len(a.args) == 5})
    text_open = {str(a.args[3]) for a in atoms if a.name == "text_open" and len(a.args) == 4}
    still_open = tuple(sorted({ReliefMethod(_name(a.args[3]), str(a.args[4]), text_open=str(a.args[4]) in text_open)
                               for a in atoms if a.name == "relief_open" and len(a.args) == 5},
                              key=lambda m: (m.method, m.provision)))
    if not methods:  # no method certain: those left open, if any, without figures
        states = sorted({_name(a.args[2]) for a in atoms if a.name == "relief_open" and len(a.args) == 5})
        return Relief(states[0], (), open_methods=still_open) if states else None
    state = methods[0][0]
    share = next((a.args[3] for a in atoms if a.name == "relief_deduction_share" and isinstance(a.args[3], int)),
                 None)
    names = {m for _, m, _ in methods}
    result = Relief(state, tuple(ReliefMethod(m, p) for _, m, p in methods), open_methods=still_open)
    facts = item.relief
    if facts is None or names == {"exemption_with_progression"}:
        return result
    amounts = [v for _, v in facts if isinstance(v, Money)]
    currency = amounts[0].currency if amounts else (item.gross.currency if item.gross else None)

    def q(value: Decimal) -> Decimal:
        return round_to_currency(value, currency)

    def given(field: str) -> Decimal | None:
        money = getattr(facts, field)
        return money.amount if money is not None else None

    notes: list[str] = []
    gross_here = item.gross.amount if item.gross is not None and item.gross.currency == currency else None
    included = given("income_included") if facts.income_included is not None else gross_here
    deduction = q(included * share / 10000) if share is not None and included is not None else None
    limit_base = gross_here if gross_here is not None else included
    limit = q(limit_base * max_rate_bp / 10000) if max_rate_bp is not None and limit_base is not None else None
    if decided is not None and decided.limit_base_open is not None:  # whether it covers a part only is open
        limit = None
        notes.append("limited_part_not_given")
    elif decided is not None and decided.limited_to is not None:  # the limit covers a part of the item only
        bases = _bases(decided) if gross_here is not None else None
        w = item.withholding
        rate = (w.domestic_rate_on_excess if w.domestic_rate_on_excess is not None else w.domestic_rate) \
            if w is not None else None
        limit = None
        if bases is not None and max_rate_bp is not None and rate is not None:
            limit = q(bases[0] * max_rate_bp / 10000 + bases[1] * rate / 10000)
        if bases is None:
            notes.append("limited_part_not_given")
    paid = given("source_tax_paid")
    underlying = given("underlying_tax")
    creditable: Decimal | None = None
    if paid is not None:
        if "limited_part_not_given" not in notes:  # else the Convention's limit, hence the creditable tax, is open
            creditable = q(min(paid, limit) if limit is not None else paid)
    else:
        notes.append("no_source_tax")
    if "indirect_credit" in names:
        if underlying is None:
            notes.append("no_underlying_tax")
        elif creditable is not None:
            creditable = q(creditable + underlying)
    ceiling: Decimal | None = None
    total_tax, total_income = given("residence_tax_before_credit"), given("residence_taxable_income")
    if facts.residence_tax_on_income is not None:
        ceiling = q(facts.residence_tax_on_income.amount)
    elif total_tax is not None and total_income and included is not None:
        ceiling = q(total_tax * (included - (deduction or 0)) / total_income)
    else:
        notes.append("no_ceiling_figures")
    credit = min(creditable, ceiling) if "credit" in names and creditable is not None and ceiling is not None else None
    return dataclasses.replace(
        result, currency=currency, source_tax_paid=q(paid) if paid is not None else None, treaty_limit=limit,
        underlying_tax=q(underlying) if underlying is not None else None, creditable_tax=creditable,
        ceiling=ceiling, credit=credit, deduction_share_bp=share, deduction=deduction, notes=tuple(notes),
    )


_RATES: dict[int, Decimal] = {}
"""``Decimal(rate_bp)`` of the rates met so far (a batch applies a few rates to every row)."""


def apply_rate(amount: Decimal, rate_bp: int, currency: str | None) -> Decimal:
    """``rate_bp`` basis points of ``amount``, rounded to the currency's smallest unit."""
    rate = _RATES.get(rate_bp) if type(rate_bp) is int else None
    if rate is None:
        rate = Decimal(rate_bp)
        if type(rate_bp) is int and len(_RATES) < 1_024:
            _RATES[rate_bp] = rate
    return round_to_currency(amount * rate / BASIS_POINTS, currency)


def max_source_tax(item: ItemResult) -> Decimal | None:
    """The Convention's maximum source tax on the item: its cap times the gross amount, or times the part
    the limit applies to (the rest is taxed under each State's law, with no limit from the Convention)."""
    return max_source_tax_of(_bases(item), item.max_rate_bp, item.currency)


def max_source_tax_of(bases: tuple[Decimal, Decimal] | None, max_rate_bp: int | None,
                      currency: str | None) -> Decimal | None:
    """:func:`max_source_tax` of a result whose bases (:func:`amount_bases`), cap and currency are these."""
    if bases is None or max_rate_bp is None:
        return None
    return apply_rate(bases[0], max_rate_bp, currency)


_UNDECIDED = ("error", "not_encoded", "pending", "missing", "depends")


def compute_compliance(scenario: Scenario, item: IncomeItem, result: ItemResult) -> Compliance | None:
    """The withholding finding for ``item`` (None when the scenario gives no ``withholding``).

    The tax due at source is the lower of the domestic rate and the treaty cap, times the gross amount.
    Withheld above it: ``over_withheld`` (the refundable excess); below it: ``under_withheld`` (the
    shortfall); equal: ``compliant``. Without a domestic rate only an excess over the cap can be found:
    ``over_withheld`` or ``within_cap`` (reason ``no_domestic_rate``). Where the Convention sets no cap
    (it does not apply, benefits are denied, or it leaves the State's right unlimited) the comparison is
    with the domestic rate alone, and the reason says why there is no cap; without a domestic rate the
    finding is ``no_treaty_cap``. An item whose outcome is not decided gets ``undetermined``.
    """
    return compliance_for(scenario, item, result, _bases(result))


def compliance_for(scenario: Scenario, item: IncomeItem, result: ItemResult,
                   bases: tuple[Decimal, Decimal] | None, state: str | None = None) -> Compliance | None:
    """:func:`compute_compliance` with the bases given (``_bases`` of the item's own result: ``result`` may be another
    of the same status, outcomes and ``limited_to``, e.g. one of its case's, :func:`compliance_of`) and, if known,
    the withholding State."""
    w = item.withholding
    if w is None or item.gross is None:
        return None
    return compliance_of(result, bases, state or withholding_state(scenario, item) or "?", item.gross.amount,
                         item.gross.currency, w.withheld.amount if w.withheld is not None else None, w.withheld_rate,
                         w.domestic_rate, w.domestic_rate_on_excess)


def _withholding_outcome(result: ItemResult, state: str) -> tuple[StateOutcome | None, str | None]:
    """The withholding State's outcome in ``result``, and why the withholding finding is ``undetermined`` whatever
    the amounts (the item's status, that outcome, or no outcome of that State), None where it is not."""
    outcome = None
    for s in result.states:
        if s.state == state:
            outcome = s
            break
    if outcome is None or result.status in _UNDECIDED or outcome.outcome in (
            "pending", "not_encoded", "undetermined", "mutual_agreement"):
        return outcome, result.status if result.status in _UNDECIDED else outcome.outcome if outcome else \
            "unknown_state"
    return outcome, None


def undetermined_whatever_amounts(result: ItemResult, state: str) -> bool:
    """:func:`compliance_of` finds ``undetermined`` for ``result`` withheld in ``state`` whatever the amounts (its
    due and difference None): a batch's rows of one case need not compute them."""
    return _withholding_outcome(result, state)[1] is not None


def compliance_of(result: ItemResult, bases: tuple[Decimal, Decimal] | None, state: str, gross_amount: Decimal,
                  currency: str, withheld_amount: Decimal | None, withheld_rate: int | None,
                  domestic_rate: int | None, domestic_rate_on_excess: int | None) -> Compliance:
    """:func:`compute_compliance` of an item with a withholding and a gross amount, from its figures: the result's
    bases (:func:`amount_bases`), the withholding State, the gross amount and its currency, the tax withheld (an
    amount or a rate) and the domestic rates. Of ``result`` only its status, its States' outcomes and ``limited_to``
    are read (a batch computes each row of a case with its case's result: :mod:`pyhelpers.interfaces.batch`)."""
    gross = bases[0] if bases is not None else gross_amount  # the amount the Convention limits
    rest = bases[1] if bases is not None else Decimal(0)  # taxed under domestic law only
    withheld: Decimal | None = None
    if withheld_amount is not None:
        withheld = round_to_currency(withheld_amount, currency)
    elif withheld_rate is not None:
        withheld = apply_rate(gross_amount, withheld_rate, currency)
    domestic = apply_rate(gross, domestic_rate, currency) if domestic_rate is not None else None
    rest_rate = domestic_rate_on_excess if domestic_rate_on_excess is not None else domestic_rate
    domestic_rest = apply_rate(rest, rest_rate, currency) if rest_rate is not None and rest else None
    outcome, why = _withholding_outcome(result, state)
    if why is not None or outcome is None:  # (no outcome: why is "unknown_state")
        return Compliance("undetermined", state, currency, withheld, domestic_rate, domestic,
                          reason=why or "unknown_state")
    if bases is None:  # the limit applies to a part of the amount the scenario does not give
        return Compliance("undetermined", state, currency, withheld, domestic_rate, domestic,
                          reason=f"{result.limited_to}_not_given")
    cap_bp: int | None = None
    reason = ""
    if outcome.outcome == "capped":
        cap_bp = outcome.max_rate_bp
    elif outcome.outcome == "exempt":
        cap_bp = 0
    else:  # may_tax, exclusive: no limit; not_applicable, benefits_denied: the treaty sets none
        reason = {"may_tax": "treaty_sets_no_limit", "exclusive": "treaty_sets_no_limit"}.get(
            outcome.outcome, outcome.outcome)
    cap_tax = apply_rate(gross, cap_bp, currency) if cap_bp is not None else None
    due: Decimal | None = None  # the tax due at source, where the facts determine it
    if cap_tax is not None and domestic is not None:
        due = min(cap_tax, domestic)
    elif cap_bp == 0:
        due = cap_tax  # exempt at source: nothing is due whatever the domestic rate
    elif cap_tax is None:
        due = domestic
    if rest and due is not None:  # the excess over the part the Convention limits: domestic law only
        due = due + domestic_rest if domestic_rest is not None else None
    difference: Decimal | None = None
    if withheld is None:
        finding, reason = "not_checked", reason or "withheld_not_given"
    elif rest and due is None and cap_tax is not None and withheld > cap_tax:
        finding, reason = "not_checked", "excess_taxed_under_domestic_law"  # give the domestic rate
    elif due is not None:
        finding = "over_withheld" if withheld > due else "under_withheld" if withheld < due else "compliant"
        difference = abs(withheld - due)
    elif cap_tax is not None:  # a cap but no domestic rate: only an excess over the cap can be found
        finding, reason = ("over_withheld" if withheld > cap_tax else "within_cap"), "no_domestic_rate"
        difference = withheld - cap_tax if withheld > cap_tax else None
    else:
        finding = "no_treaty_cap"
    return Compliance(finding, state, currency, withheld, domestic_rate, domestic, cap_bp=cap_bp,
                      treaty_max_tax=cap_tax, due=due, difference=difference, provisions=outcome.provisions,
                      reason=reason)
