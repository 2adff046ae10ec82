"""Typed results of an evaluation (what the API returns and every output format renders)."""

from __future__ import annotations

import dataclasses
from dataclasses import asdict, dataclass, field, fields, is_dataclass, replace
from decimal import Decimal
from enum import StrEnum
from typing import Any, TypeVar

from pyhelpers.base import formats
from pyhelpers.scenario.expectations import MAY_TAX_ALWAYS

_T = TypeVar("_T")
_PLAIN: dict[type, frozenset[str] | None] = {}
"""Per dataclass: its field names where :func:`replaced` may copy it without ``__init__``, else None."""


def replaced(obj: _T, **changes: Any) -> _T:
    """``dataclasses.replace(obj, **changes)`` of one of this module's frozen dataclasses, without calling its
    ``__init__`` again where that only assigns its fields (no ``__post_init__``, no slots, every field an
    ``__init__`` argument: checked once per class, ``dataclasses.replace`` otherwise): the batch makes several
    such copies of each row's result, and ``dataclasses.replace`` walks the fields and calls ``__init__``."""
    cls: Any = type(obj)
    if cls in _PLAIN:
        names = _PLAIN[cls]
    else:
        plain = (is_dataclass(cls) and not hasattr(cls, "__post_init__") and not hasattr(cls, "__slots__")
                 and all(f.init for f in fields(cls)))
        names = _PLAIN[cls] = frozenset(f.name for f in fields(cls)) if plain else None
    if names is None or not names.issuperset(changes):
        return replace(obj, **changes)  # type: ignore[type-var]
    out: _T = object.__new__(cls)
    out.__dict__.update(obj.__dict__)
    out.__dict__.update(changes)
    return out


STATUS_ORDER = ("error", "not_encoded", "pending", "missing", "depends", "decided")
"""Status vocabulary, most severe first: an item takes the first that any of its findings gives."""


@dataclass(frozen=True)
class StateOutcome:
    """The outcome of one item for one Contracting State."""

    state: str
    outcome: str  # exclusive | capped | may_tax | exempt | not_applicable | mutual_agreement | ...
    max_rate_bp: int | None
    provisions: tuple[str, ...]
    at_most_bp: int | None = None  # undetermined: the highest cap of every way the open facts may go (0: exempt)
    may_tax_always: bool = False  # undetermined, no cap bounds it, but every way the open facts may go lets it tax
    reconstructed: tuple[str, ...] = field(default=(), compare=False)
    """The reconstructed provisions this State's outcome (and its cap) rests on, of a decided outcome: the answers in
    words flag its line as they flag an alternative's (blind59 R6). Not in the JSON (the item's ``reconstructed``
    lists them)."""

    @property
    def label(self) -> str:
        """``capped 10%``, ``may tax`` ... (the form used by ``expect:`` blocks)."""
        if self.outcome == "capped" and self.max_rate_bp is not None:
            return f"capped {format_bp(self.max_rate_bp)}"
        if self.outcome == "undetermined" and self.at_most_bp is not None:
            return f"capped at most {format_bp(self.at_most_bp)}"
        if self.outcome == "undetermined" and self.may_tax_always:
            return MAY_TAX_ALWAYS
        return self.outcome.replace("_", " ")


@dataclass(frozen=True)
class Finding:
    """A finding about an item: a missing or unknown fact, a pending or absent provision, ..."""

    kind: str  # missing | depends | pending | not_encoded | mutual_agreement | exception | input_error
    provision: str
    fact: str | None = None
    field: str | None = field(default=None, compare=False)  # FIELD_KINDS: the scenario field that states the fact
    open_as: str | None = dataclasses.field(default=None, compare=False)
    """A ``depends`` finding the rules did not write (the fact opened over its values): how the scenario
    leaves the fact open, ``alternatives`` (one_of, between) or ``not_given``; None otherwise."""
    gap: str | None = dataclasses.field(default=None, compare=False)
    """A ``not_encoded`` finding that cites the treaty alone: what is missing where it is not the article on the
    item's income (:data:`APPLICATION`); None otherwise (not in the JSON then)."""


    def __str__(self) -> str:
        return f"{self.kind}: {self.fact + ' ' if self.fact else ''}({self.provision})"


@dataclass(frozen=True)
class Entitlement:
    """Whether the beneficial owner of an item is entitled to the benefits of the treaty (its entitlement
    article: limitation on benefits, principal purpose test), whatever the item's own article.

    ``status``: ``entitled`` (``provisions``: the paragraphs that grant it) | ``denied`` (those that deny
    it) | ``open`` (those whose fact is missing or unknown) | ``requires_judgment`` (the principal purpose
    question to answer)."""

    status: str
    provisions: tuple[str, ...]
    at_stake: tuple[str, ...] = ()  # requires_judgment: the States whose outcome holds only if the test grants it

    def __str__(self) -> str:
        return f"{self.status.replace('_', ' ')} ({'; '.join(self.provisions)})"


@dataclass(frozen=True)
class ReliefMethod:
    """A method by which the State of residence relieves double taxation, with its provision."""

    method: str  # credit | indirect_credit | participation_deduction | exemption_with_progression
    provision: str
    holds_if: tuple[Condition, ...] = ()
    """Of a method an open fact decides (:attr:`Relief.open_methods`): the values of the open facts under
    which it applies, where they are exactly those (empty otherwise, and left out of the JSON)."""
    text_open: bool = False
    """Of a method left out of the figures (:attr:`Relief.open_methods`): whether an open question of the
    treaty's text (a ``text_open`` finding citing its provision) leaves it open, not a fact (left out of the
    JSON when false)."""


@dataclass(frozen=True)
class Relief:
    """The elimination of double taxation of an item by the beneficial owner's State of residence.

    Amounts are computed in Decimal from the scenario's ``relief:`` figures, rounded half-up to the
    currency's smallest unit; ``None`` where a figure they need is not given.
    """

    state: str
    methods: tuple[ReliefMethod, ...]
    currency: str | None = None
    source_tax_paid: Decimal | None = None
    treaty_limit: Decimal | None = None  # the source tax the Convention allows on the item (its limit x the item)
    underlying_tax: Decimal | None = None  # indirect credit: the paying company's tax on the profits
    creditable_tax: Decimal | None = None  # source tax paid within that limit (+ the underlying tax)
    ceiling: Decimal | None = None  # the residence tax before the deduction that the item bears
    credit: Decimal | None = None  # the lesser of the creditable tax and the ceiling
    deduction_share_bp: int | None = None  # the share of the item the participation deduction takes
    deduction: Decimal | None = None  # that share of the item included in the taxable base
    notes: tuple[str, ...] = ()  # why an amount is not computed: no_source_tax, no_ceiling_figures, ...
    open_methods: tuple[ReliefMethod, ...] = ()  # methods a missing or unknown fact decides: not in the figures

    def has(self, method: str) -> bool:
        return any(m.method == method for m in self.methods)


@dataclass(frozen=True)
class Compliance:
    """Whether the right tax was withheld at source on an item (amounts in Decimal, rounded half-up to
    the currency's smallest unit; see :mod:`pyhelpers.amounts`).

    ``finding``: ``compliant`` | ``over_withheld`` (``difference`` is the refundable excess) |
    ``under_withheld`` (``difference`` is the shortfall) | ``within_cap`` (no domestic rate: only an
    excess over the cap can be found) | ``no_treaty_cap`` (the Convention sets no cap and no domestic
    rate is given) | ``not_checked`` (no tax withheld given) | ``undetermined`` (the outcome is not decided)
    | ``depends`` (the finding differs between the ways the open facts may go: ``reason`` names them).
    ``reason`` says why a cap or a comparison is missing: ``no_domestic_rate``, ``not_applicable``,
    ``benefits_denied``, ``treaty_sets_no_limit``, ``withheld_not_given``, or the item's status.

    Where open facts leave the cap open but not the finding (issue 23: the bound), ``cap_bp``,
    ``treaty_max_tax``, ``due`` and ``difference`` are None and the bound's figures are given instead:
    ``cap_at_most_bp`` and ``treaty_max_tax_at_most`` (the highest cap any way the facts may go allows, and
    its amount; where every way caps the State's tax) and ``difference_at_least`` (an ``over_withheld`` or
    ``under_withheld`` finding's least excess or shortfall over those ways).
    """

    finding: str
    state: str
    currency: str
    withheld: Decimal | None
    domestic_rate_bp: int | None = None
    domestic_tax: Decimal | None = None
    cap_bp: int | None = None
    treaty_max_tax: Decimal | None = None
    due: Decimal | None = None
    difference: Decimal | None = None
    provisions: tuple[str, ...] = ()
    reason: str = ""
    reconstructed: tuple[str, ...] = ()  # the reconstructed provisions its outcome and cap rest on
    cap_at_most_bp: int | None = None
    treaty_max_tax_at_most: Decimal | None = None
    difference_at_least: Decimal | None = None
    fields: tuple[str | None, ...] = ()
    """``depends``: where the scenario states each fact ``reason`` names, in its order, as the user writes it
    (:mod:`pyhelpers.engine.fields`; None where the rules name no field); empty otherwise, and left out of the
    JSON."""


@dataclass(frozen=True)
class Condition:
    """An open fact of the scenario (given as alternatives) and the alternatives a conclusion needs."""

    fact: str  # the fact's readable name, e.g. holding(lusoinvest, alfa).until
    values: str  # those alternatives in words: "2026-03-14 or later", "one of 20, 30"
    listed: tuple[str, ...] = ()
    """The alternatives one by one as the scenario writes them (``br``, ``not stated``), where ``values`` lists
    them (not a range); the answers in words name them (a State, a value of the format: :attr:`kind`). Not in
    the JSON, which keeps ``values``."""
    kind: str = ""
    """What the alternatives are: ``state`` (a State's code), ``term`` (a value of the scenario format, such as a
    place's kind), or empty (a number, a date, a yes or no, an id: written as they are)."""
    field: str | None = None
    """Where the scenario states the fact, as the user writes it (``income[0].entitlement.substantial``; a record
    it leaves out in words; ``fact`` itself where the name is the path already, ``persons.ana.habitual_abode``):
    :mod:`pyhelpers.engine.fields`. The answers in words show it after ``fact`` where it differs; not part of the
    condition's text (``expect:`` blocks state ``fact``)."""
    named: str | None = None
    """The rules' name for the fact where a finding of the item names it with the same field
    (``permanent_establishment(poa-office)``): the answers in words say the condition by its reading ("if
    poa-office is not a permanent establishment"), the field being named in that finding (issue 24). Not in the
    JSON."""

    def __str__(self) -> str:
        return f"{self.fact} is {self.values}"


@dataclass(frozen=True)
class Alternative:
    """A conclusion about an item that holds for some values of the unknown facts but not for all.

    ``exact``: it holds exactly when every condition is met; otherwise only for some of the combinations
    within them (the conditions then list, per fact, the values under which it can hold), and where every
    combination was solved ``holds_if_any`` says in which: it holds exactly when the conditions of one of
    its conjunctions are all met (:mod:`pyhelpers.engine.cover`)."""

    state: str | None  # the State of an outcome; None for a finding
    conclusion: str  # "capped 10%", "may tax", "missing: holding(a, b)" ...
    provisions: tuple[str, ...]
    holds_if: tuple[Condition, ...]
    exact: bool = True
    outcome: str | None = None  # of a State: its outcome (StateOutcome.outcome) and cap
    max_rate_bp: int | None = None
    otherwise: bool = False  # holds exactly when none of the State's other alternatives does
    finding: Finding | None = None  # a finding that holds only for some values (state None)
    reconstructed: tuple[str, ...] = ()  # the reconstructed provisions it rests on (in some combination)
    holds_if_any: tuple[tuple[Condition, ...], ...] = ()
    """Not ``exact``, every combination solved: the conjunctions of conditions one of which is met exactly
    where it holds (two or more; empty otherwise, and left out of the JSON)."""
    at_most_bp: int | None = None
    """Of a State's ``undetermined`` outcome: the highest cap every way the facts may go under its conditions
    allows (``capped at most 15%``: a holding record's ``direct`` false, the owner's direct holding then unsaid,
    :func:`pyhelpers.engine.alternatives.with_bounds`); None otherwise, and left out of the JSON."""

    def condition_facts(self) -> tuple[str, ...]:
        """The open facts its condition names, each once in the order first named: those of ``holds_if`` and
        of every conjunction of ``holds_if_any`` (a fact may be named in the latter only: one whose every
        value it holds under, in some combination of the others)."""
        return tuple(dict.fromkeys(c.fact for c in (*self.holds_if, *(c for both in self.holds_if_any
                                                                        for c in both))))

    def __str__(self) -> str:
        where = " and ".join(map(str, self.holds_if))
        head = f"{self.state}: {self.conclusion}" if self.state else self.conclusion
        provs = f" ({'; '.join(self.provisions)})" if self.provisions else ""
        if self.otherwise:
            return f"{head} otherwise{provs}"
        if self.holds_if_any:
            either = ", or if ".join(" and ".join(map(str, conjunction)) for conjunction in self.holds_if_any)
            return f"{head} if {either}{provs}"
        if not self.holds_if:
            return f"{head} in some combinations of the unknown facts{provs}"
        return f"{head} if {where}{'' if self.exact else ' (in some combinations)'}{provs}"


@dataclass(frozen=True)
class ItemResult:
    """Everything decided about one income item."""

    item_id: str
    treaty: str
    income_type: str
    status: str
    states: tuple[StateOutcome, ...]
    max_rate_bp: int | None
    provisions: tuple[str, ...]
    findings: tuple[Finding, ...]
    gross: Decimal | None = None
    currency: str | None = None
    reconstructed: tuple[str, ...] = ()
    relief: Relief | None = None
    max_source_tax: Decimal | None = None  # the cap times the gross amount (or the part the limit applies to)
    compliance: Compliance | None = None
    version: tuple[str, ...] = ()  # the amended article versions that decided the item (none: the original)
    date: str | None = None  # the item's date (ISO), e.g. for "treaty not applicable on 2023-12-31"
    alternatives: tuple[Alternative, ...] = ()  # conclusions that hold only for some values of unknown facts
    assumptions: tuple[Finding, ...] = ()  # defaults that stood for facts the scenario does not give
    limited_to: str | None = None  # the part of the amount the limit applies to (arm_length_amount), if a part
    limit_base_open: str | None = None  # the provision whose open fact leaves the limit's base unknown
    limited_amount: Decimal | None = None  # that part, as the scenario gives it (None: not given)
    entitlement: Entitlement | None = None  # the entitlement to the treaty's benefits, where it is tested
    bound_alternatives: tuple[Alternative, ...] = ()
    """Where the ``alternatives`` leave a State undetermined in some way the open facts may go (a fact missing
    there too) and a further completion gives it an outcome in every way (the end of an added holding
    record: :func:`pyhelpers.engine.completion.open_record_ends`): that completion's alternatives, from which
    the State's bound and the withholding finding come. Not in the JSON (the bound and the finding are)."""
    limit_basis: tuple[str, ...] = ()
    """The provisions that bring the item under the article whose limit applies (``limit_basis``: a
    recharacterisation), which a rate table cites beside the limit's own. Not in the JSON (``provisions`` has them)."""

    def state(self, code: str) -> StateOutcome:
        for s in self.states:
            if s.state == code:
                return s
        raise KeyError(code)

    def missing(self) -> tuple[str, ...]:
        """The missing facts, each once (two provisions may need the same fact)."""
        return tuple(dict.fromkeys(f.fact or "" for f in self.findings if f.kind == "missing"))


@dataclass(frozen=True)
class PersonAnswer:
    """The answer to a question about a person asked without income (``questions:``).

    ``residence``: the State of residence under the treaty, or ``none`` | ``open`` | ``mutual_agreement``;
    ``qualified``: ``yes`` | ``no`` | ``open`` under the treaty's limitation on benefits, None where the
    treaty has none (or the person is not a resident)."""

    question: str
    person: str
    date: str
    residence: str
    qualified: str | None
    provisions: tuple[str, ...]
    findings: tuple[Finding, ...] = ()
    reconstructed: tuple[str, ...] = ()  # the provisions it relies on that are not in the corpus text

    def missing(self) -> tuple[str, ...]:
        """The missing facts, each once (two provisions may need the same fact)."""
        return tuple(dict.fromkeys(f.fact or "" for f in self.findings if f.kind == "missing"))


@dataclass(frozen=True)
class Receipt:
    """What an auditor needs to reproduce a decision."""

    package_version: str
    clingo_version: str
    logic_sha256: str
    facts_sha256: str


@dataclass(frozen=True)
class UnknownFact:
    """A fact the scenario gives as alternatives (or leaves out, where the rules report it missing and its
    values can be listed), and the items whose outcome turns on it."""

    fact: str
    alternatives: str  # in words: "one of 20, 30", "from 2025-12-28 to 2026-01-05"
    items: tuple[str, ...]
    given: bool = True  # False: left out of the scenario (the rules report it missing), answered over every value
    listed: tuple[str, ...] = ()  # as Condition.listed (not in the JSON)
    kind: str = ""  # as Condition.kind (not in the JSON)
    field: str | None = None
    """Where the scenario states it, as the user writes it (``holdings[0].until``; a record it leaves out in
    words: ``holdings (a record of alfa-uy in beta-br).from``): :mod:`pyhelpers.engine.fields`."""


class Cut(StrEnum):
    """What a time limit stopped (the kinds of :class:`Incomplete`)."""

    CHECK = "check"
    """The whole check, while the rules were still being applied to the scenario's facts: no item is decided."""
    ALTERNATIVES = "alternatives"
    """The examination of the alternatives of the unknown facts: what is shown as certain is certain."""
    SEARCH = "search"
    """whatif's search for changes: other changes may exist."""
    ANSWER = "answer"
    """A bounded answer of ``treaty serve`` (explain, why-not, report): none is given."""


@dataclass(frozen=True)
class Incomplete:
    """Why an answer is incomplete, as figures: the time limit stopped ``cut`` (the words, in each language,
    are the output's: :func:`pyhelpers.output.render.incomplete_text`)."""

    cut: Cut
    limit_seconds: float
    """The time limit, in seconds of CPU time of the work (:mod:`pyhelpers.base.clock`)."""
    wall_seconds: float | None = None
    """How long the check ran, in wall-clock time (None: not measured)."""
    cpu_seconds: float | None = None
    """How much CPU time the check had (None: not measured)."""
    busy: bool = False
    """The machine was busy: the check had less than half of the wall-clock time (which does not change the
    answer: the limit counts CPU time)."""
    more_slices: int = 0
    """How many more slices of a scenario checked in slices the limit also cut (besides this one)."""
    slice_items: int = 0
    """The number of items of a slice (with ``more_slices``)."""
    proven: bool = False
    """The check was cut after the scenario's three-valued answer was found: what it proved is kept (``cut``
    ``check`` only; an ``alternatives`` cut always keeps it)."""

    def to_json(self) -> dict[str, Any]:
        return _plain(asdict(self))  # type: ignore[no-any-return]


@dataclass(frozen=True)
class ScenarioResult:
    """The result of evaluating one scenario."""

    source: str
    name: str
    treaty: str
    evaluation_date: str
    items: tuple[ItemResult, ...]
    receipt: Receipt
    atoms: tuple[str, ...] = field(default=(), repr=False)
    unknowns: tuple[UnknownFact, ...] = ()  # the facts given as alternatives (issue 7)
    incomplete: Incomplete | None = None  # why the answer is incomplete (a time limit), if it is
    answers: tuple[PersonAnswer, ...] = ()  # the questions about persons (issue 20)

    def open_questions(self) -> list[tuple[str, str, str, tuple[str, ...]]]:
        """The facts that could change an outcome, most decisive first: (kind, fact, provision, items).
        ``missing``: the scenario never gave it; ``depends``: given as unknown; ``requires_judgment``:
        a purpose question left open. Those needed whatever the open facts first, those needed only
        under some of their values after; each by the number of items whose outcome turns on the fact,
        then missing before unknown before judgment, then by name."""
        found: dict[tuple[str, str], tuple[set[str], set[str]]] = {}
        certain: set[tuple[str, str]] = set()  # needed whatever the open facts (not only under some values)
        for it in self.items:
            possible = [a.finding for a in it.alternatives if a.finding is not None]
            for f in [*it.findings, *possible, *it.assumptions]:
                if f.kind in _OPEN_KINDS:
                    items, provs = found.setdefault((f.kind, f.fact or ""), (set(), set()))
                    items.add(it.item_id)
                    provs.add(f.provision)
                    if f not in possible:
                        certain.add((f.kind, f.fact or ""))
        for a in self.answers:
            for f in a.findings:
                if f.kind in _OPEN_KINDS:
                    items, provs = found.setdefault((f.kind, f.fact or ""), (set(), set()))
                    items.add(a.question)
                    provs.add(f.provision)
                    certain.add((f.kind, f.fact or ""))
        rows = [(kind, fact, "; ".join(sorted(provs)), tuple(sorted(items)))
                for (kind, fact), (items, provs) in found.items()]
        return sorted(rows, key=lambda r: ((r[0], r[1]) not in certain, -len(r[3]), _OPEN_KINDS.index(r[0]), r[1]))

    def answer(self, question: str) -> PersonAnswer:
        for a in self.answers:
            if a.question == question:
                return a
        raise KeyError(question)

    def item(self, item_id: str) -> ItemResult:
        for it in self.items:
            if it.item_id == item_id:
                return it
        raise KeyError(item_id)

    def to_json(self) -> dict[str, Any]:
        """The result as JSON data; ``incomplete`` as its figures (``Incomplete``'s fields, or null): the
        output puts its words in the language asked beside them (:func:`pyhelpers.output.render.result_json`)."""
        data = asdict(self)
        data.pop("atoms")
        return _plain(_findings_plain(data))  # type: ignore[no-any-return]


def _plain(value: Any) -> Any:
    """JSON-ready: every Decimal as its exact string, an enumeration's member as its value, tuples as lists."""
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


_OPEN_KINDS = ("missing", "depends", "requires_judgment", "assumption")

APPLICATION = "application_not_encoded"
"""The gap of a ``not_encoded`` finding that cites the treaty alone where what is missing is the article on its
entry into force and application (whose number the corpus does not give), not the article on the item's income:
the answers in words say so (blind58b D9)."""

FIELD_KINDS = ("missing", "depends", "not_needed", "requires_judgment")
"""The kinds of finding about a fact the scenario may state: each names the field that states it
(``Finding.field``, :mod:`pyhelpers.engine.fields`), in JSON beside its ``fact``."""


def _findings_plain(value: Any) -> Any:
    """``value`` (an ``asdict``) with ``field`` kept only on the findings of :data:`FIELD_KINDS` and assumptions, and
    a State's outcome without its ``reconstructed`` (the item's lists them)."""
    if isinstance(value, dict):
        out = {k: _findings_plain(v) for k, v in value.items()}
        if "kind" in out and "provision" in out and "field" in out and out["kind"] not in (*FIELD_KINDS, "assumption"):
            out.pop("field")
        if "kind" in out and "provision" in out and out.get("open_as", "") is None:
            out.pop("open_as")
        if "may_tax_always" in out and "outcome" in out:
            out.pop("reconstructed", None)  # a State's: the item's lists them
        if "kind" in out and "provision" in out and out.get("gap", "") is None:
            out.pop("gap")
        if "method" in out and "provision" in out and out.get("holds_if") == []:
            out.pop("holds_if")  # a relief method with no conditions
        if "method" in out and "provision" in out and out.get("text_open") is False:
            out.pop("text_open")  # a relief method no open question of the text leaves open
        if "item_id" in out:
            out.pop("bound_alternatives", None)
            out.pop("limit_basis", None)
        if "withheld" in out and "finding" in out and out.get("fields") == []:
            out.pop("fields")  # a withholding finding that names no open fact
        if "conclusion" in out and out.get("holds_if_any") == []:
            out.pop("holds_if_any")  # an alternative with one conjunction of conditions, or none exact
        if "conclusion" in out and "at_most_bp" in out and out["at_most_bp"] is None:
            out.pop("at_most_bp")  # an alternative with no bound of its own
        if "listed" in out and "kind" in out and ("values" in out or "alternatives" in out):
            out.pop("listed")  # a condition's or an open fact's values one by one, for the answers in words
            out.pop("kind")
            out.pop("named", None)
        return out
    if isinstance(value, list | tuple):
        return [_findings_plain(v) for v in value]
    return value


def format_units(units: int) -> str:
    """A share in hundred-millionths of the whole: 25000000 → ``25%``; 24998400 → ``24.9984%``."""
    return formats.percent_units(units, "en")


def format_bp(bp: int) -> str:
    """1000 → ``10%``; 2490 → ``24.9%``; 5001 → ``50.01%``."""
    return formats.percent_bp(bp, "en")
