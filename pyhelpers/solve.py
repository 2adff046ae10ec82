"""Evaluation: scenario facts + the rule base → clingo → typed results (the fast path, no explanations)."""

from __future__ import annotations

import dataclasses
import hashlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from functools import cached_property, lru_cache
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING

import clingo

from . import dates
from .atoms import scenario_facts
from .errors import LogicError
from .program import Logic, load_logic, provision_key
from .results import STATUS_ORDER, Finding, ItemResult, Receipt, Relief, ReliefMethod, ScenarioResult, StateOutcome
from .scenario import CONTRACTING_STATES, IncomeItem, Money, Scenario

if TYPE_CHECKING:
    from .explain import Explainer

_STATUS_OF_FINDING = {
    "input_error": "error",
    "not_encoded": "not_encoded",
    "pending": "pending",
    "missing": "missing",
    "depends": "depends",
}


@lru_cache(maxsize=1)
def package_version() -> str:
    try:
        return version("treaty-logic")
    except PackageNotFoundError:  # running from a source checkout that is not installed
        return "0+source"


def render_term(sym: clingo.Symbol) -> str:
    """A symbol as users read it: strings without quotes, ``holding(lusoinvest, alfa)``."""
    if sym.type == clingo.SymbolType.String:
        return str(sym.string)
    if sym.type == clingo.SymbolType.Function and sym.arguments:
        inner = ", ".join(render_term(a) for a in sym.arguments)
        return f"{sym.name}({inner})"
    return str(sym)


@dataclass
class Solved:
    """The raw outcome of one solve: the shown atoms, plus clingo's messages."""

    symbols: list[clingo.Symbol]
    messages: list[str] = field(default_factory=list)


def run_clingo(program: str, facts: Iterable[str], shown_only: bool = True) -> Solved:
    """Ground and solve ``program`` with ``facts``; exactly one answer set is expected."""
    messages: list[str] = []

    def log(code: clingo.MessageCode, text: str) -> None:
        messages.append(text.strip())

    ctl = clingo.Control(["--models=2"], logger=log, message_limit=50)
    ctl.add("base", [], program)
    ctl.add("base", [], "\n".join(facts))
    ctl.ground([("base", [])])
    models: list[list[clingo.Symbol]] = []
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            models.append(model.symbols(shown=shown_only, atoms=not shown_only))
    if not models:
        raise LogicError("the rules have no answer set for this scenario (a rule set bug: findings must be atoms)")
    if len(models) > 1:
        raise LogicError("the rules have more than one answer set for a scenario without unknowns")
    return Solved(sorted(models[0]), messages)


class Checker:
    """The rule base loaded once; evaluates scenarios (thread-safe: each call uses its own Control)."""

    def __init__(self, logic: Logic | None = None) -> None:
        self.logic = logic or load_logic()

    @cached_property
    def static_atoms(self) -> list[clingo.Symbol]:
        """The treaties' catalogue facts (articles, parameters ...), grounded once without a scenario."""
        return run_clingo(self.logic.static_program(), [], shown_only=False).symbols

    @cached_property
    def period_months(self) -> frozenset[int]:
        """Month counts of the treaties' periods (``period_months``): the date module computes them."""
        return frozenset(
            s.arguments[2].number
            for s in self.static_atoms
            if s.name == "period_months" and len(s.arguments) == 4
        )

    @cached_property
    def reconstructed_provisions(self) -> frozenset[str]:
        """Provisions encoded from a reconstruction (flag ``reconstructed``), not from the corpus text."""
        return frozenset(r.provision for r in self.logic.rules if "reconstructed" in r.flags)

    def facts(self, scenario: Scenario, sid: str = "s") -> list[str]:
        return scenario_facts(scenario, sid, self.period_months)

    def check(self, scenario: Scenario, source: str = "<scenario>") -> ScenarioResult:
        """Evaluate one scenario on the fast path (no instrumentation)."""
        facts = self.facts(scenario)
        present = frozenset(f[: f.index("(")] for f in facts)
        solved = run_clingo(self.logic.program_for(scenario.treaty, present), facts)
        return build_result(scenario, source, solved.symbols, self.receipt(facts), self.reconstructed_provisions)

    def explain(self, scenario: Scenario, lang: str = "en", every_rule: bool = False) -> Explainer:
        """Solve the instrumented rules for ``scenario`` and return its explainer (on demand only);
        ``every_rule`` keeps the rules that cannot fire, for why-not."""
        from .explain import explainer_for

        return explainer_for(self.logic, self.facts(scenario), lang, scenario.treaty, every_rule)

    def receipt(self, facts: Sequence[str]) -> Receipt:
        return Receipt(
            package_version=package_version(),
            clingo_version=clingo.__version__,
            logic_sha256=self.logic.digest,
            facts_sha256=hashlib.sha256("\n".join(facts).encode("utf-8")).hexdigest(),
        )


def build_result(scenario: Scenario, source: str, symbols: list[clingo.Symbol], receipt: Receipt,
                 reconstructed: frozenset[str] = frozenset()) -> ScenarioResult:
    """Group the shown atoms by item and turn them into typed results."""
    by_item: dict[str, list[clingo.Symbol]] = defaultdict(list)
    for sym in symbols:
        if len(sym.arguments) >= 2 and sym.arguments[1].type == clingo.SymbolType.String:
            by_item[sym.arguments[1].string].append(sym)
    states = CONTRACTING_STATES[scenario.treaty]
    items = []
    for item in scenario.income:
        result = _item_result(scenario.treaty, item.id, item.type, states, by_item.get(item.id, []),
                              item.gross.amount if item.gross else None,
                              item.gross.currency if item.gross else None)
        flagged = tuple(p for p in result.provisions if p in reconstructed)
        relief = compute_relief(item, result.max_rate_bp, by_item.get(item.id, []))
        if flagged or relief is not None:
            result = dataclasses.replace(result, reconstructed=flagged, relief=relief)
        items.append(result)
    return ScenarioResult(
        source=source,
        name=scenario.name,
        treaty=scenario.treaty,
        evaluation_date=scenario.evaluation_date.isoformat(),
        items=tuple(items),
        receipt=receipt,
        atoms=tuple(str(s) for s in symbols),
    )


def _item_result(treaty: str, item_id: str, income_type: str, states: tuple[str, str],
                 atoms: list[clingo.Symbol], gross: Decimal | None, currency: str | None) -> ItemResult:
    outcome: dict[str, str] = {}
    caps: dict[str, list[tuple[int, str]]] = defaultdict(list)
    rights: dict[tuple[str, str], list[str]] = defaultdict(list)
    provisions: set[str] = set()
    findings: set[Finding] = set()
    blocking: list[str] = []
    denied: list[str] = []
    max_rate: int | None = None
    for a in atoms:
        args = a.arguments
        if a.name == "state_outcome":
            outcome[args[2].name] = args[3].name
        elif a.name == "max_rate":
            max_rate = args[2].number
        elif a.name == "source_cap":
            caps[args[2].name].append((args[3].number, args[4].string))
        elif a.name in ("may_tax", "not_limited"):
            rights[(args[2].name, "may_tax")].append(args[3].string)
        elif a.name == "may_not_tax":
            rights[(args[2].name, "exempt")].append(args[3].string)
        elif a.name == "only_taxable_in":
            rights[(args[2].name, "exclusive")].append(args[3].string)
            for other in states:
                if other != args[2].name:
                    rights[(other, "exempt")].append(args[3].string)
        elif a.name == "benefits_denied":
            denied.append(args[2].string)
        elif a.name == "note":
            findings.add(Finding("note", args[3].string, render_term(args[2])))
        elif a.name == "deadline":
            day = dates.from_day_number(args[3].number).isoformat()
            findings.add(Finding("deadline", args[4].string, f"{render_term(args[2])} {day}"))
        elif a.name == "outcome_provision":
            provisions.add(args[2].string)
        elif a.name in ("missing", "depends"):
            findings.add(Finding(a.name, args[3].string, render_term(args[2])))
        elif a.name in ("pending", "not_encoded"):
            findings.add(Finding(a.name, args[2].string))
            blocking.append(args[2].string)
        elif a.name == "treaty_not_applicable":
            blocking.append(args[2].string)
        elif a.name == "mutual_agreement":
            findings.add(Finding("mutual_agreement", args[3].string, render_term(args[2])))
        elif a.name == "exception_applies":
            findings.add(Finding("exception", args[3].string, render_term(args[2])))
        elif a.name == "input_error":
            findings.add(Finding("input_error", "(input)", render_term(args[2])))
        elif a.name == "relief":
            findings.add(Finding("relief", args[4].string, f"{args[2].name} {args[3].name}"))
        elif a.name == "discrimination":
            findings.add(Finding("discrimination", args[3].string, render_term(args[2])))
    state_results = []
    for st in states:
        kind = outcome.get(st, "undetermined")
        rate = None
        provs: list[str] = []
        if kind == "capped":
            rate = min(r for r, _ in caps[st])
            provs = rights[(st, "may_tax")] + [p for r, p in caps[st] if r == rate]
        elif kind in ("may_tax", "exempt", "exclusive"):
            provs = rights[(st, kind)]
        elif kind == "benefits_denied":
            provs = denied
        elif kind in ("not_applicable", "pending", "not_encoded"):
            provs = blocking
        elif kind == "mutual_agreement":
            provs = [f.provision for f in findings if f.kind == "mutual_agreement"]
        state_results.append(StateOutcome(st, kind, rate, tuple(sorted(set(provs), key=provision_key))))
    statuses = {_STATUS_OF_FINDING[f.kind] for f in findings if f.kind in _STATUS_OF_FINDING}
    status = next((s for s in STATUS_ORDER if s in statuses), "decided")
    return ItemResult(
        item_id=item_id,
        treaty=treaty,
        income_type=income_type,
        status=status,
        states=tuple(state_results),
        max_rate_bp=max_rate,
        provisions=tuple(sorted(provisions, key=provision_key)),
        findings=tuple(sorted(findings, key=lambda f: (f.kind, provision_key(f.provision), f.fact or ""))),
        gross=gross,
        currency=currency,
    )


# ----------------------------------------------------------------------------------- relief (Art. 23) ---

_MINOR_UNITS = {"BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0,
                "RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
                "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3}
"""ISO 4217 currencies whose smallest unit is not the hundredth (every other currency: two decimals)."""


def round_to_currency(amount: Decimal, currency: str | None) -> Decimal:
    """``amount`` rounded half-up to the smallest unit of ``currency`` (two decimals unless listed)."""
    places = _MINOR_UNITS.get(currency or "", 2)
    return amount.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def compute_relief(item: IncomeItem, max_rate_bp: int | None, atoms: list[clingo.Symbol]) -> Relief | None:
    """The amounts of the relief that the logic concludes for ``item`` (``relief/5``), in Decimal.

    * creditable tax: the source tax paid, but not above the Convention's limit on the item (the rate
      of its cap times the item: the Convention lets the other State tax only that much, and the excess
      is for it to refund), plus the underlying tax for an indirect credit (Art. 23(3), Protocol 7);
    * ceiling (Art. 23(1), second sentence): the residence tax on the item as the scenario gives it, or
      its total tax before the deduction times the item's share of the taxable income (the item as
      included, less any Art. 23(2) deduction);
    * credit: the lesser of the two; the Art. 23(2) deduction: its share of the item as included.
    """
    methods = sorted({(a.arguments[2].name, a.arguments[3].name, a.arguments[4].string)
                      for a in atoms if a.name == "relief" and len(a.arguments) == 5})
    if not methods:
        return None
    state = methods[0][0]
    share = next((a.arguments[3].number for a in atoms if a.name == "relief_deduction_share"), None)
    names = {m for _, m, _ in methods}
    result = Relief(state, tuple(ReliefMethod(m, p) for _, m, p in methods))
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
    paid = given("source_tax_paid")
    underlying = given("underlying_tax")
    creditable: Decimal | None = None
    if paid is not None:
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
