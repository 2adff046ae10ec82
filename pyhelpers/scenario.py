"""Scenario files: the YAML format, its validation, and loading with line numbers in every error.

A scenario describes persons, holdings, places of business, presence periods and income items, plus
an optional ``expect:`` block. Every attribute is either required, has a documented default, or may be
given as ``unknown`` (see ``treaty schema`` and the README). A fact the law needs that the scenario
does not give is *not* read as false: the rules report it as ``missing``.
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Mapping
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

import yaml
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, field_validator

from .errors import Problem, ScenarioError

Unknown = Literal["unknown"]
UNKNOWN: Unknown = "unknown"

TREATIES = ("br-pt", "br-sg", "br-ae", "br-uy", "br-pl")
CONTRACTING_STATES: dict[str, tuple[str, str]] = {
    "br-pt": ("br", "pt"),
    "br-sg": ("br", "sg"),
    "br-ae": ("br", "ae"),
    "br-uy": ("br", "uy"),
    "br-pl": ("br", "pl"),
}
_STATE_RE = re.compile(r"^[a-z]{2}$")


def _state(value: Any) -> Any:
    if isinstance(value, str) and re.fullmatch(r"[A-Za-z]{2}", value):
        return value.lower()
    return value


def _check_state(value: str) -> str:
    if not _STATE_RE.fullmatch(value):
        raise ValueError(f"a two-letter State code such as br or pt, found {value!r}")
    return value


State = Annotated[str, BeforeValidator(_state), AfterValidator(_check_state)]
Id = Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f\x7f]+$")]


def _percent(value: Any) -> Any:
    """Percent 0–100 with at most two decimals → basis points (int)."""
    if isinstance(value, bool):
        raise ValueError("a percentage between 0 and 100, found a boolean")
    if isinstance(value, str) and value.strip().endswith("%"):
        value = value.strip()[:-1]
    try:
        d = Decimal(str(value))
    except InvalidOperation:
        raise ValueError(f"a percentage between 0 and 100, found {value!r}") from None
    if not d.is_finite() or d < 0 or d > 100:
        raise ValueError(f"a percentage between 0 and 100, found {value}")
    if d != d.quantize(Decimal("0.01")):
        raise ValueError(f"a percentage with at most two decimals, found {value}")
    return int(d * 100)


BasisPoints = Annotated[int, BeforeValidator(_percent)]
"""A percentage as written by the user (``24.9``), stored as basis points (``2490``)."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


ResidenceCriterion = Literal[
    "domicile", "residence", "place_of_management", "incorporation", "other_similar", "source_only"
]
PersonKind = Literal["individual", "company", "other_entity", "government"]
SpecialRegime = Literal[
    "madeira_free_zone", "santa_maria_free_zone", "manaus_free_zone", "sudam", "sudene", "similar"
]


class Person(_Model):
    """A person in the sense of Art. 3: an individual, a company, another entity or a government."""

    kind: PersonKind
    name: str | None = None
    liable_to_tax: dict[State, list[ResidenceCriterion] | Unknown] | None = Field(
        default=None,
        description=(
            "State -> the domestic-law criteria by which the person is liable to tax there. A State "
            "not listed is one where it is not liable by any criterion; omit the whole map if unknown "
            "to the scenario (the rules then report it missing)."
        ),
    )
    treated_as_body_corporate: bool | Unknown | None = Field(
        default=None, description="other_entity only: treated as a body corporate for tax purposes"
    )
    government_of: State | None = Field(
        default=None, description="government only: the State whose government, subdivision or authority"
    )
    nationality: list[State] | Unknown | None = None
    permanent_home: list[State] | Unknown | None = Field(
        default=None, description="States where a permanent home is available to the individual"
    )
    vital_interests: State | Literal["undetermined"] | Unknown | None = Field(
        default=None, description="State of the centre of vital interests, or 'undetermined'"
    )
    habitual_abode: list[State] | Unknown | None = Field(
        default=None, description="States where the individual stays habitually"
    )
    effective_management: State | Unknown | None = Field(
        default=None, description="State where the place of effective management is situated"
    )
    special_regime: list[SpecialRegime] | Unknown = Field(
        default_factory=list,
        description="tax regimes the person is entitled to (br-pt Protocol 9); default: none",
    )


class Holding(_Model):
    """The holder's *total* interest in a company over an inclusive date interval."""

    holder: Id
    company: Id
    capital: BasisPoints | None = Field(default=None, description="% of the capital (0-100)")
    votes: BasisPoints | None = Field(default=None, description="% of the voting rights (0-100)")
    value: BasisPoints | None = Field(default=None, description="% of the value of the shares (0-100)")
    direct: bool = Field(default=True, description="held directly (default) or indirectly")
    from_: date = Field(alias="from", description="first day held")
    until: date | None = Field(default=None, description="last day held (inclusive); omit if still held")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class PlaceOfBusiness(_Model):
    """A place through which an enterprise carries on business (a candidate permanent establishment)."""

    owner: Id
    state: State
    permanent_establishment: bool | Unknown | None = Field(
        default=None,
        description="the scenario's own finding that it is a PE; omit to let Art. 5 decide",
    )
    from_: date | None = Field(default=None, alias="from")
    until: date | None = None

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Presence(_Model):
    """An individual's stay in a State: both the day of arrival and of departure are days of presence."""

    person: Id
    state: State
    from_: date = Field(alias="from")
    until: date

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Money(_Model):
    amount: Decimal = Field(ge=0, description="exact decimal amount, e.g. '1000000.00'")
    currency: Annotated[str, Field(pattern=r"^[A-Z]{3}$")]

    @field_validator("amount", mode="before")
    @classmethod
    def _exact(cls, v: Any) -> Any:
        if isinstance(v, float):
            raise ValueError("an exact decimal written as a string, e.g. '1000.50', found a float")
        return v


DividendInstrument = Literal[
    "shares",
    "jouissance_shares",
    "mining_shares",
    "founders_shares",
    "other_profit_participating_rights",
    "other_corporate_rights",
    "participation_account",
    "debt_claim",
]


class DividendDetails(_Model):
    instrument: DividendInstrument = Field(default="shares", description="the right the income comes from")
    same_tax_treatment_as_shares: bool | Unknown | None = Field(
        default=None,
        description="other_corporate_rights only: taxed like income from shares by the payer's State",
    )
    payer_has_profits_from_other_state: bool | Unknown | None = Field(
        default=None,
        description="whether the paying company derives profits or income from the other Contracting State",
    )
    connected_place_of_business: Id | None = Field(
        default=None,
        description="the place of business with which the holding is effectively connected; default none",
    )


# --- Type-specific details, by group of articles. Each group owns its section. ---------------------

# [arts-5-9] places of business, immovable property, business profits, shipping, associated enterprises


class ShippingDetails(_Model):
    """Profits from operating ships or aircraft (br-pt Art. 8, Art. 3(1)(h))."""

    mode: Literal["ship", "aircraft"]
    solely_within: State | None = Field(
        default=None, description="the State if the ship or aircraft is operated solely between places in it"
    )
    management_on_board: bool = Field(default=False, description="the effective management is aboard the ship")
    port_of_registry: State | Literal["none"] | None = Field(
        default=None, description="management on board: the State of the port of registry, or none"
    )
    pool: bool = Field(default=False, description="profits from participating in a pool or joint business")
    air_consortium_share: bool = Field(
        default=False, description="the item is a company's share of an air transport consortium's profits"
    )


class TransferPricingDetails(_Model):
    """Conditions between associated enterprises (br-pt Art. 9)."""

    conditions_differ_from_arm_length: bool | Unknown = Field(
        description="the enterprises' commercial or financial relations follow conditions that differ from "
        "those between independent enterprises"
    )
    management_or_control_link: bool = Field(
        default=False,
        description="participation in management or control (participation in capital comes from holdings)",
    )

# [arts-11-13-22] interest, royalties, capital gains, other income

# [arts-14-21] independent services, employment, directors, artistes, pensions, government, teachers, students

# [general] taxes covered, elimination of double taxation, non-discrimination, MAP, dates, Protocol

# --------------------------------------------------------------------------------------------------


IncomeType = Literal[
    "dividend",
    "branch_profits",
    "interest",
    "interest_on_equity",
    "royalty",
    "technical_services",
    "business_profits",
    "shipping_air_transport",
    "immovable_property",
    "capital_gain",
    "independent_services",
    "employment",
    "director_fees",
    "artiste_sportsperson",
    "pension",
    "government_service",
    "professor",
    "student",
    "other_income",
]


class IncomeItem(_Model):
    """One item of income: who pays whom, when, how much, and the type-specific facts."""

    id: Id
    type: IncomeType
    payer: Id
    recipient: Id
    beneficial_owner: Id | None = Field(default=None, description="default: the recipient")
    date: date
    gross: Money | None = None
    place_of_business: Id | None = Field(
        default=None, description="branch_profits: the place of business that remits the profits"
    )
    dividend: DividendDetails | None = None
    shipping: ShippingDetails | None = None
    transfer_pricing: TransferPricingDetails | None = None


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
_OUTCOME_RE = re.compile(r"^(?P<kind>[a-z_ ]+?)(?:\s+(?P<rate>\d+(?:\.\d{1,2})?)%)?$")


def parse_outcome(text: str) -> tuple[str, int | None]:
    """``"capped 10%"`` → ``("capped", 1000)``; ``"may tax"`` → ``("may_tax", None)``."""
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


OutcomeText = Annotated[str, AfterValidator(_check_outcome)]


class ExpectedItem(_Model):
    """What the scenario's author expects for one income item."""

    status: Status = "decided"
    outcome: dict[State, OutcomeText] = Field(description="State -> 'capped 10%' | 'may tax' | 'exempt' | ...")
    provisions: list[str] = Field(description="every provision the outcome rests on, e.g. 'br-pt 10(2)(a)'")
    missing: list[str] = Field(default_factory=list, description="missing facts, e.g. 'holding(a, b)'")
    findings: list[str] | None = Field(
        default=None,
        description="when given, every other finding exactly, e.g. 'note: profits_may_be_adjusted (br-pt 9)'",
    )


class Scenario(_Model):
    """A described situation: the root of a scenario file."""

    name: str
    description: str | None = None
    treaty: Literal["br-pt", "br-sg", "br-ae", "br-uy", "br-pl"]
    evaluation_date: date
    persons: dict[Id, Person]
    holdings: list[Holding] = Field(default_factory=list)
    places_of_business: dict[Id, PlaceOfBusiness] = Field(default_factory=dict)
    presence: list[Presence] = Field(default_factory=list)
    income: list[IncomeItem] = Field(default_factory=list)
    expect: dict[Id, ExpectedItem] | None = None


# ----------------------------------------------------------------------------------------------------
# Loading


class _Loader(yaml.SafeLoader):
    """Safe YAML without implicit timestamps: dates stay text, so pydantic checks them (2023-02-29)."""


_Loader.yaml_implicit_resolvers = {
    key: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


class _LineMap:
    """Line numbers of the YAML nodes, by path (``("income", 0, "payer")``), from PyYAML's composer."""

    def __init__(self) -> None:
        self.lines: dict[tuple[Any, ...], int] = {}
        self.duplicates: list[tuple[tuple[Any, ...], int, str]] = []

    def walk(self, node: yaml.Node, path: tuple[Any, ...]) -> None:
        self.lines[path] = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            seen: set[str] = set()
            for key, value in node.value:
                k = key.value
                if k in seen:
                    self.duplicates.append((path, key.start_mark.line + 1, str(k)))
                seen.add(k)
                self.lines[(*path, k)] = key.start_mark.line + 1
                self.walk(value, (*path, k))
        elif isinstance(node, yaml.SequenceNode):
            for i, value in enumerate(node.value):
                self.walk(value, (*path, i))

    def line(self, path: tuple[Any, ...]) -> int | None:
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get(())


def _field(path: tuple[Any, ...]) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(document)"


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


_EXPECTED_BY_TYPE = {
    "missing": "this required field",
    "extra_forbidden": "no such field (check the spelling; see `treaty schema`)",
    "date_from_datetime_parsing": "a real date YYYY-MM-DD",
    "date_parsing": "a real date YYYY-MM-DD",
    "date_type": "a real date YYYY-MM-DD",
    "literal_error": "",
}


def _clean_loc(loc: tuple[Any, ...]) -> tuple[Any, ...]:
    # pydantic adds the union branch ("list[...]", "literal[...]") and "[key]" markers to loc: drop them
    out: list[Any] = []
    for part in loc:
        if isinstance(part, str) and ("[" in part or part in ("function-before", "function-after")):
            continue
        out.append("from" if part == "from_" else part)
    return tuple(out)


def _problems_from_validation(err: ValidationError, source: str, lines: _LineMap, data: Any) -> list[Problem]:
    problems: dict[tuple[Any, ...], Problem] = {}
    for e in err.errors(include_url=False):
        loc = _clean_loc(tuple(e["loc"]))
        if loc in problems:  # union branches report the same field several times: keep the first
            continue
        expected = _EXPECTED_BY_TYPE.get(e["type"]) or e["msg"]
        if e["type"] in ("greater_than_equal", "less_than_equal"):
            bound = e["ctx"].get("ge", e["ctx"].get("le"))
            expected = f"a number {'at least' if e['type'] == 'greater_than_equal' else 'at most'} {bound}"
        if e["type"] == "literal_error":
            expected = "one of " + e["ctx"]["expected"].replace("'", "")
        if expected.startswith("Value error, "):
            expected = expected[len("Value error, ") :]
        expected = re.sub(r", found .*$", "", expected)
        found = "nothing" if e["type"] == "missing" else _describe(e.get("input"))
        problems[loc] = Problem(source, lines.line(loc), _field(loc), expected, found)
    return list(problems.values())


def _suggest(value: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(value, choices, n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else f"known: {', '.join(sorted(choices)[:8]) or 'none'}"


def _check_references(sc: Scenario, source: str, lines: _LineMap) -> list[Problem]:
    """Every reference resolves; ids unique; holdings consistent; no cyclic ownership."""
    problems: list[Problem] = []
    persons = list(sc.persons)
    places = list(sc.places_of_business)

    def ref(path: tuple[Any, ...], value: str | None, choices: list[str], what: str) -> None:
        if value is not None and value not in choices:
            problems.append(
                Problem(source, lines.line(path), _field(path), f"the id of {what}", repr(value),
                        _suggest(value, choices))
            )

    for i, h in enumerate(sc.holdings):
        ref(("holdings", i, "holder"), h.holder, persons, "a person")
        ref(("holdings", i, "company"), h.company, persons, "a person")
        if h.company in sc.persons and sc.persons[h.company].kind == "individual":
            problems.append(Problem(source, lines.line(("holdings", i, "company")), f"holdings[{i}].company",
                                    "a company or entity", f"the individual {h.company!r}"))
        if h.until is not None and h.until < h.from_:
            problems.append(Problem(source, lines.line(("holdings", i, "until")), f"holdings[{i}].until",
                                    f"a date on or after from ({h.from_})", str(h.until)))
        if h.capital is None and h.votes is None and h.value is None:
            problems.append(Problem(source, lines.line(("holdings", i)), f"holdings[{i}]",
                                    "at least one of capital, votes, value", "none of them"))
    # overlapping records for the same holder, company and mode
    by_pair: dict[tuple[str, str, bool], list[tuple[int, Holding]]] = {}
    for i, h in enumerate(sc.holdings):
        by_pair.setdefault((h.holder, h.company, h.direct), []).append((i, h))
    for recs in by_pair.values():
        recs.sort(key=lambda r: r[1].from_)
        for (i, a), (j, b) in itertools.pairwise(recs):
            if a.until is None or b.from_ <= a.until:
                problems.append(Problem(
                    source, lines.line(("holdings", j, "from")), f"holdings[{j}].from",
                    f"a date after holdings[{i}] ends (one record per period: the holder's total interest)",
                    str(b.from_)))
    # cyclic ownership
    edges: dict[str, set[str]] = {}
    for h in sc.holdings:
        edges.setdefault(h.holder, set()).add(h.company)
    cycle = _find_cycle(edges)
    if cycle:
        problems.append(Problem(source, lines.line(("holdings",)), "holdings", "ownership without cycles",
                                " -> ".join(cycle)))
    for key, p in sc.places_of_business.items():
        ref(("places_of_business", key, "owner"), p.owner, persons, "a person")
    for i, pr in enumerate(sc.presence):
        ref(("presence", i, "person"), pr.person, persons, "a person")
        if pr.until < pr.from_:
            problems.append(Problem(source, lines.line(("presence", i, "until")), f"presence[{i}].until",
                                    f"a date on or after from ({pr.from_})", str(pr.until)))
    seen: dict[str, int] = {}
    for i, item in enumerate(sc.income):
        if item.id in seen:
            problems.append(Problem(source, lines.line(("income", i, "id")), f"income[{i}].id",
                                    "an id not used by another income item",
                                    f"{item.id!r}, already income[{seen[item.id]}]"))
        seen[item.id] = i
        for fld in ("payer", "recipient", "beneficial_owner"):
            ref(("income", i, fld), getattr(item, fld), persons, "a person")
        ref(("income", i, "place_of_business"), item.place_of_business, places, "a place of business")
        if item.dividend is not None:
            ref(("income", i, "dividend", "connected_place_of_business"),
                item.dividend.connected_place_of_business, places, "a place of business")
            if item.type not in ("dividend", "branch_profits"):
                problems.append(Problem(source, lines.line(("income", i, "dividend")), f"income[{i}].dividend",
                                        "dividend details only on an item of type dividend", item.type))
        if item.shipping is not None and item.shipping.management_on_board and item.shipping.mode != "ship":
            problems.append(Problem(source, lines.line(("income", i, "shipping")), f"income[{i}].shipping",
                                    "management on board only for a ship (Art. 8(2))", item.shipping.mode))
        if item.shipping is not None and item.shipping.port_of_registry is not None \
                and not item.shipping.management_on_board:
            problems.append(Problem(source, lines.line(("income", i, "shipping")), f"income[{i}].shipping",
                                    "port_of_registry only with management_on_board: true", "management ashore"))
        if item.type == "branch_profits" and item.place_of_business is None:
            problems.append(Problem(source, lines.line(("income", i)), f"income[{i}].place_of_business",
                                    "the remitting place of business (required for branch_profits)",
                                    "nothing"))
    if sc.expect is not None:
        for key in sc.expect:
            ref(("expect", key), key, list(seen), "an income item")
    for key, person in sc.persons.items():
        if person.kind == "government" and person.government_of is None:
            problems.append(Problem(source, lines.line(("persons", key)), f"persons.{key}.government_of",
                                    "the State of a government (required for kind government)", "nothing"))
    return problems


def _find_cycle(edges: Mapping[str, set[str]]) -> list[str]:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> list[str]:
        state[n] = 1
        stack.append(n)
        for m in sorted(edges.get(n, ())):
            if state.get(m) == 1:
                return [*stack[stack.index(m):], m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return []

    for n in sorted(edges):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return []


def load_dict(data: Any, source: str = "<scenario>", lines: _LineMap | None = None) -> Scenario:
    """Validate a scenario given as a dict (e.g. parsed YAML/JSON). Raises :class:`ScenarioError`."""
    lines = lines or _LineMap()
    if not isinstance(data, dict):
        raise ScenarioError([Problem(source, 1, "(document)", "a mapping with name, treaty, persons, ...",
                                     _describe(data))])
    try:
        sc = Scenario.model_validate(data)
    except ValidationError as err:
        raise ScenarioError(_problems_from_validation(err, source, lines, data)) from None
    problems = _check_references(sc, source, lines)
    if problems:
        raise ScenarioError(problems)
    return sc


def load_text(text: str, source: str = "<scenario>") -> Scenario:
    """Parse and validate scenario YAML text."""
    lines = _LineMap()
    try:
        node = yaml.compose(text, Loader=_Loader)
        data = yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(err, "problem", None) or str(err)
        raise ScenarioError([Problem(source, line, "(syntax)", "well-formed YAML", str(problem))]) from None
    if node is not None:
        lines.walk(node, ())
    if lines.duplicates:
        raise ScenarioError([
            Problem(source, line, _field((*path, key)), "each key once", f"{key!r} repeated")
            for path, line, key in lines.duplicates
        ])
    return load_dict(data, source, lines)


def load_file(path: str | Path) -> Scenario:
    """Load and validate a scenario file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError([Problem(str(path), None, "(file)", "an existing scenario file", "no such file")]) from None
    except UnicodeDecodeError:
        raise ScenarioError([Problem(str(path), None, "(file)", "UTF-8 text", "undecodable bytes")]) from None
    return load_text(text, str(path))


def json_schema() -> dict[str, Any]:
    """JSON Schema of the scenario format (for editors)."""
    schema = Scenario.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "treaty-logic scenario"
    return schema
