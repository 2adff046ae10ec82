"""Expectations: what a scenario's author expects of each item (``expect:``), compared with the answer by
the test suite, `treaty check` and the regression tools."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Annotated, Literal, get_args

from pydantic import AfterValidator, Field, WithJsonSchema

from pyhelpers.scenario.common import Amount, Model, State, StateMap, schema_type

OutcomeKind = Literal[
    "exclusive",
    "capped",
    "may_tax",
    "exempt",
    "not_applicable",
    "mutual_agreement",
    "benefits_denied",
    "not_encoded",
    "pending",
    "undetermined",
]


Status = Literal["decided", "depends", "missing", "not_encoded", "pending", "error"]


_OUTCOME_RE = re.compile(r"^(?P<kind>[a-z_ ]+?)(?:\s+(?P<rate>[0-9]+(?:\.[0-9]{1,2})?)%)?$")


_AT_MOST = "capped at most "
MAY_TAX_ALWAYS = "may tax in every case"
"""The label of an undetermined outcome under which the State may tax whatever the open facts are (only
it, or both, or capped by some and not others)."""

_BOUND = "at most "


def parse_outcome(text: str) -> tuple[str, int | None]:
    """``"capped 10%"`` → ``("capped", 1000)``; ``"may tax"`` → ``("may_tax", None)``; an undetermined
    outcome bounded whatever the open facts, ``"capped at most 15%"`` → ``("undetermined", 1500)``; a bound
    an expectation sets, ``"at most 15%"`` → ``("at_most", 1500)`` (exempt, or capped or bounded at 15% or
    less); ``"may tax in every case"`` → ``("may_tax_always", None)``."""
    if text.strip() == MAY_TAX_ALWAYS:
        return "may_tax_always", None
    if text.strip().startswith(_BOUND):
        return "at_most", parse_outcome(f"capped {text.strip()[len(_BOUND):]}")[1]
    if text.strip().startswith(_AT_MOST):
        bound = text.strip()[len(_AT_MOST):]
        return "undetermined", parse_outcome(f"capped {bound}")[1]
    m = _OUTCOME_RE.match(text.strip())
    kind = m.group("kind").replace(" ", "_") if m else ""
    if not m or kind not in get_args(OutcomeKind):
        raise ValueError(
            f"an outcome such as 'capped 10%', 'may tax', 'exempt' or 'exclusive', found {text!r}"
        )
    rate = m.group("rate")
    if (kind == "capped") != (rate is not None):
        raise ValueError(f"a rate exactly when the outcome is 'capped', found {text!r}")
    return kind, (int(Decimal(rate) * 100) if rate is not None else None)


def _check_outcome(text: str) -> str:
    parse_outcome(text)
    return text


OutcomeText = Annotated[str, AfterValidator(_check_outcome), WithJsonSchema(schema_type("Outcome"))]


class ExpectedWithholding(Model):
    """The expected withholding finding of an item (amounts compared exactly, when given)."""

    finding: Literal["compliant", "over_withheld", "under_withheld", "within_cap", "no_treaty_cap",
                     "not_checked", "undetermined", "depends"]
    due: Amount | None = Field(default=None, description="the tax due at source")
    difference: Amount | None = Field(default=None, description="the refundable excess or the shortfall")
    reason: str | None = None


class ExpectedRelief(Model):
    """The expected elimination of double taxation of an item (amounts compared exactly, when given)."""

    state: State
    methods: list[str] | None = Field(
        default=None, description="when given, every method exactly, e.g. 'credit (<provision>)'")
    treaty_limit: Amount | None = Field(default=None, description="the source tax the Convention allows")
    creditable_tax: Amount | None = None
    credit: Amount | None = None
    deduction: Amount | None = Field(default=None, description="the participation deduction")
    not_included: list[str] | None = Field(
        default=None, description="when given, every method left out of the figures exactly (a fact it needs is "
        "missing or unknown), e.g. 'indirect_credit (<provision>)'")


class ExpectedEntitlement(Model):
    """The expected entitlement of an item's beneficial owner to the treaty's benefits."""

    status: Literal["entitled", "denied", "open", "requires_judgment"]
    provisions: list[str] | None = Field(
        default=None, description="when given, every provision of that conclusion exactly")


class ExpectedAnswer(Model):
    """What the scenario's author expects for one question about a person (``questions:``)."""

    residence: State | Literal["none", "open", "mutual_agreement"] = Field(
        description="the person's State of residence under the treaty, or none | open | mutual_agreement")
    qualified: Literal["yes", "no", "open"] | None = Field(
        default=None, description="a qualified person under the treaty's limitation on benefits (where it has one)")
    provisions: list[str] | None = Field(
        default=None, description="when given, every provision of the answer exactly (residence and qualification)")
    missing: list[str] = Field(default_factory=list, description="missing facts, e.g. 'owners(alfa-uy)'")


class ExpectedItem(Model):
    """What the scenario's author expects for one income item: exact when it lists ``provisions`` (every
    State's outcome, the provisions, the missing facts: none when not listed), else partial (only what it
    states is checked: ``status`` alone, the outcome in some States, ``provisions_include``, a bound)."""

    status: Status = "decided"
    outcome: StateMap[OutcomeText] | None = Field(
        default=None, description="State -> 'capped 10%' | 'may tax' | 'exempt' | 'at most 15%' (a bound) | ...; "
        "with provisions: every State")
    provisions: list[str] | None = Field(
        default=None, description="every provision of the answer exactly (makes the expectation exact)")
    provisions_include: list[str] | None = Field(
        default=None, description="provisions the answer includes (among others)")
    missing: list[str] | None = Field(
        default=None, description="missing facts, e.g. 'holding(a, b)' (an exact expectation: none when not listed)")
    findings: list[str] | None = Field(default=None)
    assumptions: list[str] | None = Field(
        default=None,
        description="when given, every default the decision stood on exactly, e.g. 'assumption: "
        "no_special_regime(lusoinvest) (<provision>)'")
    max_source_tax: Amount | None = Field(default=None, description="the cap times the gross amount")
    withholding: ExpectedWithholding | None = None
    relief: ExpectedRelief | None = None
    entitlement: ExpectedEntitlement | None = None
    alternatives: list[str] | None = Field(default=None)
