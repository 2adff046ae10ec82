"""Comparison of a result with the scenario's ``expect:`` block (used by the CLI and by pytest)."""

from __future__ import annotations

from dataclasses import dataclass

from pyhelpers.engine.program import provision_key
from pyhelpers.engine.results import ItemResult, PersonAnswer, ScenarioResult, StateOutcome, format_bp
from pyhelpers.scenario import ExpectedAnswer, ExpectedItem, Scenario, parse_outcome
from pyhelpers.scenario.expectations import MAY_TAX_ALWAYS


@dataclass(frozen=True)
class Mismatch:
    """One difference between what the scenario expects and what the rules decided."""

    item_id: str
    what: str
    expected: str
    actual: str

    def __str__(self) -> str:
        return f"{self.item_id}: {self.what}: expected {self.expected}, got {self.actual}"


def _fmt(values: list[str] | tuple[str, ...]) -> str:
    return "[" + ", ".join(sorted(values, key=provision_key)) + "]"


def compare_item(expected: ExpectedItem, actual: ItemResult) -> list[Mismatch]:
    out: list[Mismatch] = []
    iid = actual.item_id
    exact = expected.provisions is not None  # else partial: only what the expectation states
    if expected.status != actual.status:
        out.append(Mismatch(iid, "status", expected.status, actual.status))
    outcome = expected.outcome or {}
    for state, text in sorted(outcome.items()):
        try:
            got = actual.state(state)
        except KeyError:
            out.append(Mismatch(iid, f"outcome for {state}", text, "no such Contracting State"))
            continue
        if not outcome_matches(text, got):
            out.append(Mismatch(iid, f"outcome for {state}", text, got.label))
    for got in actual.states:
        if exact and got.state not in outcome:
            out.append(Mismatch(iid, f"outcome for {got.state}", "(not stated in expect)", got.label))
    if expected.provisions is not None and set(expected.provisions) != set(actual.provisions):
        out.append(Mismatch(iid, "provisions", _fmt(expected.provisions), _fmt(actual.provisions)))
    if expected.provisions_include is not None:
        absent = [p for p in expected.provisions_include if p not in actual.provisions]
        if absent:
            out.append(Mismatch(iid, "provisions include", _fmt(absent), _fmt(actual.provisions)))
    missing = expected.missing if expected.missing is not None else ([] if exact else None)
    if missing is not None and set(missing) != set(actual.missing()):
        out.append(Mismatch(iid, "missing facts", _fmt(missing), _fmt(actual.missing())))
    if expected.findings is not None:
        found = sorted(str(f) for f in actual.findings if f.kind != "missing")
        if sorted(expected.findings) != found:
            out.append(Mismatch(iid, "findings", "[" + ", ".join(sorted(expected.findings)) + "]",
                                "[" + ", ".join(found) + "]"))
    if expected.assumptions is not None:
        assumed = sorted(str(f) for f in actual.assumptions)
        if sorted(expected.assumptions) != assumed:
            out.append(Mismatch(iid, "assumptions", "[" + ", ".join(sorted(expected.assumptions)) + "]",
                                "[" + ", ".join(assumed) + "]"))
    if expected.alternatives is not None:
        got_alternatives = sorted(str(a) for a in actual.alternatives)
        if sorted(expected.alternatives) != got_alternatives:
            out.append(Mismatch(iid, "alternatives", "[" + "; ".join(sorted(expected.alternatives)) + "]",
                                "[" + "; ".join(got_alternatives) + "]"))
    if expected.max_source_tax is not None and expected.max_source_tax != actual.max_source_tax:
        out.append(Mismatch(iid, "maximum source tax", str(expected.max_source_tax), str(actual.max_source_tax)))
    ew, cw = expected.withholding, actual.compliance
    if ew is not None:
        if cw is None:
            out.append(Mismatch(iid, "withholding", ew.finding, "no withholding check (no withholding: block)"))
        else:
            checks: list[tuple[str, object, object]] = [
                ("withholding finding", ew.finding, cw.finding), ("tax due", ew.due, cw.due),
                ("withholding difference", ew.difference, cw.difference), ("withholding reason", ew.reason, cw.reason)]
            for what, want, have in checks:
                if want is not None and want != have:
                    out.append(Mismatch(iid, what, str(want), str(have)))
    ee, ce = expected.entitlement, actual.entitlement
    if ee is not None:
        if ce is None:
            out.append(Mismatch(iid, "entitlement", ee.status, "not tested (no entitlement article reaches it)"))
        else:
            if ee.status != ce.status:
                out.append(Mismatch(iid, "entitlement", ee.status, ce.status))
            if ee.provisions is not None and set(ee.provisions) != set(ce.provisions):
                out.append(Mismatch(iid, "entitlement provisions", _fmt(ee.provisions), _fmt(ce.provisions)))
    er, cr = expected.relief, actual.relief
    if er is not None:
        if cr is None:
            out.append(Mismatch(iid, "relief", er.state, "no relief (no relief: block, or none concluded)"))
        else:
            methods = sorted(f"{m.method} ({m.provision})" for m in cr.methods)
            left_out = sorted(f"{m.method} ({m.provision})" for m in cr.open_methods)
            relief_checks: list[tuple[str, object, object]] = [
                ("relief State", er.state, cr.state),
                ("relief methods", sorted(er.methods) if er.methods is not None else None, methods),
                ("the Convention's limit", er.treaty_limit, cr.treaty_limit),
                ("creditable tax", er.creditable_tax, cr.creditable_tax), ("credit", er.credit, cr.credit),
                ("deduction", er.deduction, cr.deduction),
                ("relief not included", sorted(er.not_included) if er.not_included is not None else None, left_out)]
            for what, want, have in relief_checks:
                if want is not None and want != have:
                    out.append(Mismatch(iid, what, str(want), str(have)))
    return out


def outcome_matches(text: str, got: StateOutcome) -> bool:
    """Whether a State's outcome is the expected one (``capped 10%``), or within a bound (``at most 15%``:
    exempt, capped at or below it, or undetermined with every way the open facts may go at or below it)."""
    kind, rate = parse_outcome(text)
    if kind == "at_most":
        assert rate is not None
        if got.outcome == "exempt":
            return True
        have = got.max_rate_bp if got.outcome == "capped" else got.at_most_bp if got.outcome == "undetermined" else None
        return have is not None and have <= rate
    got_kind = "may_tax_always" if got.outcome == "undetermined" and got.label == MAY_TAX_ALWAYS else got.outcome
    return (kind, rate) == (got_kind, got.at_most_bp if got.outcome == "undetermined" else got.max_rate_bp)


def compare_answer(expected: ExpectedAnswer, actual: PersonAnswer) -> list[Mismatch]:
    out: list[Mismatch] = []
    q = actual.question
    if expected.residence != actual.residence:
        out.append(Mismatch(q, "residence", expected.residence, actual.residence))
    if expected.qualified != actual.qualified:
        out.append(Mismatch(q, "qualified person", str(expected.qualified), str(actual.qualified)))
    if expected.provisions is not None and set(expected.provisions) != set(actual.provisions):
        out.append(Mismatch(q, "provisions", _fmt(expected.provisions), _fmt(actual.provisions)))
    if set(expected.missing) != set(actual.missing()):
        out.append(Mismatch(q, "missing facts", _fmt(expected.missing), _fmt(actual.missing())))
    return out


def compare(scenario: Scenario, result: ScenarioResult) -> list[Mismatch]:
    """Every mismatch between ``scenario.expect`` and ``result`` (empty when all match)."""
    if scenario.expect is None:
        return []
    out: list[Mismatch] = []
    for key, expected in scenario.expect.items():
        if isinstance(expected, ExpectedAnswer):
            out += compare_answer(expected, result.answer(key))
        else:
            out += compare_item(expected, result.item(key))
    return out


def describe_rate(bp: int | None) -> str:
    return "-" if bp is None else format_bp(bp)
