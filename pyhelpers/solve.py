"""Evaluation: scenario facts + the rule base → clingo → typed results (the fast path, no explanations)."""

from __future__ import annotations

import dataclasses
import hashlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property, lru_cache
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING

import clingo

from . import dates
from .amounts import compute_compliance, compute_relief, max_source_tax
from .atoms import scenario_facts
from .errors import LogicError
from .program import Logic, load_logic, provision_key
from .results import STATUS_ORDER, Finding, ItemResult, Receipt, ScenarioResult, StateOutcome
from .scenario import CONTRACTING_STATES, Scenario

if TYPE_CHECKING:
    from .explain import Explainer

_STATUS_OF_FINDING = {
    "input_error": "error",
    "not_encoded": "not_encoded",
    "pending": "pending",
    "missing": "missing",
    "depends": "depends",
    "requires_judgment": "depends",
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
        result = dataclasses.replace(result, reconstructed=flagged, relief=relief,
                                     max_source_tax=max_source_tax(result))
        result = dataclasses.replace(result, compliance=compute_compliance(scenario, item, result))
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
        elif a.name in ("missing", "depends", "requires_judgment"):
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
