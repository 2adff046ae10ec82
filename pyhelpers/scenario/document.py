"""The scenario document: the root of a scenario file (persons, holdings, places of business, presence,
arrangements, income items, expectations), its facts given as alternatives, and the State that
withheld on an item."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date
from typing import Annotated, Any, ClassVar

from pydantic import Discriminator, Field, PrivateAttr, Tag

from pyhelpers.scenario import openfacts
from pyhelpers.scenario.common import Day, Flag, Id, IdMap, Model, Text, TreatyId
from pyhelpers.scenario.entitlement import Arrangement
from pyhelpers.scenario.expectations import ExpectedAnswer, ExpectedItem
from pyhelpers.scenario.holdings import Holding
from pyhelpers.scenario.income import IncomeItem
from pyhelpers.scenario.persons import Person, Presence
from pyhelpers.scenario.places import PlaceOfBusiness
from pyhelpers.scenario.procedures import TerminationNotice


def _expectation_kind(value: Any) -> str:
    """An expectation for a question (its answer: residence, qualified) or for an income item."""
    if isinstance(value, ExpectedAnswer):
        return "answer"
    if isinstance(value, dict) and ("residence" in value or "qualified" in value):
        return "answer"
    return "item"


Expectation = Annotated[Annotated[ExpectedItem, Tag("item")] | Annotated[ExpectedAnswer, Tag("answer")],
                        Discriminator(_expectation_kind)]
"""What ``expect:`` says of one id: an income item's outcome, or a question's answer."""

_Day = date
"""``date``, under a name the field ``PersonQuestion.date`` does not shadow."""


class PersonQuestion(Model):
    """A question about a person asked without income: its residence under the treaty (with the test that
    decides it) and, for a treaty with a limitation on benefits, whether it is a qualified person."""

    id: Id = Field(description="the question's id (unique among the items and questions; used by expect:)")
    person: Id = Field(description="the person asked about")
    date: Day | None = Field(default=None, description="the day the question is asked for; default: the "
                              "evaluation date")


class Scenario(Model):
    """A described situation: the root of a scenario file."""

    name: Text
    description: str | None = None
    treaty: TreatyId
    evaluation_date: Day
    strict: Flag = Field(default=False, description=(
        "decide as --strict does: no default stands for a fact the scenario does not give; where the law "
        "needs it, it is missing (a test of the strict side of a default)"))
    persons: IdMap[Person]
    holdings: list[Holding] = Field(default_factory=list)
    places_of_business: IdMap[PlaceOfBusiness] = Field(default_factory=dict)
    presence: list[Presence] = Field(default_factory=list)
    arrangements: IdMap[Arrangement] = Field(
        default_factory=dict, description="arrangements or transactions, for principal purpose tests")
    holdings_continue: Flag = Field(default=False)
    income: list[IncomeItem] = Field(default_factory=list)
    questions: list[PersonQuestion] = Field(
        default_factory=list, description="questions about persons, without income; a scenario with neither income "
        "nor questions asks about every person at the evaluation date")
    termination_notice: TerminationNotice | None = Field(default=None)
    expect: IdMap[Expectation] | None = None
    revalidate: ClassVar[Callable[[Any, str], Scenario] | None] = None
    """How a changed document is validated again (set by :mod:`.loading`, which imports this module)."""
    _open_facts: tuple[openfacts.OpenFact, ...] = PrivateAttr(default=())
    _plain_data: Any = PrivateAttr(default=None)

    @property
    def open_facts(self) -> tuple[openfacts.OpenFact, ...]:
        """The facts given as alternatives (``one_of``, ``between``, ``changeable``), in document order."""
        return self._open_facts

    @property
    def unknowns(self) -> tuple[openfacts.OpenFact, ...]:
        return tuple(f for f in self._open_facts if f.kind == "unknown")

    def with_values(self, choice: Mapping[tuple[Any, ...], Any], source: str = "<scenario>",
                    keep_unknown: bool = False, keep_expect: bool = True) -> Scenario:
        """This scenario with the open facts at the paths of ``choice`` given those values (validated;
        raises :class:`ScenarioError`). The result keeps, with ``keep_unknown``, the unknown facts not
        in ``choice``; otherwise it has no open facts. Without ``keep_expect`` it has no ``expect:`` block
        (not validated again: no value of an open fact changes it or the ids it names), for a caller that
        reads only the facts."""
        plain = self._plain_data if self._plain_data is not None else self.model_dump(
            mode="json", by_alias=True, exclude_unset=True)
        data = openfacts.substitute(plain, dict(choice))
        if not keep_expect and isinstance(data, dict) and "expect" in data:
            data = {k: v for k, v in data.items() if k != "expect"}
        if Scenario.revalidate is None:
            raise RuntimeError("pyhelpers.scenario.loading sets Scenario.revalidate: import pyhelpers.scenario")
        sc = Scenario.revalidate(data, source)
        if keep_unknown:
            sc._open_facts = tuple(f for f in self._open_facts if f.kind == "unknown" and f.path not in choice)
            sc._plain_data = data
        return sc


def person_questions(sc: Scenario) -> list[PersonQuestion]:
    """The scenario's questions about persons: as listed, or, with neither income nor questions, one per
    person at the evaluation date (its id the person's)."""
    if sc.questions or sc.income:
        return list(sc.questions)
    return [PersonQuestion(id=pid, person=pid) for pid in sc.persons]


def withholding_state(sc: Scenario, item: IncomeItem) -> str | None:
    """The State that withheld on ``item``: as given, or the payer's only State of liability to tax."""
    if item.withholding is None:
        return None
    if item.withholding.state is not None:
        return item.withholding.state
    payer = sc.persons.get(item.payer)
    liable = payer.liable_to_tax if payer is not None else None
    if not isinstance(liable, dict) or len(liable) != 1:
        return None
    state, criteria = next(iter(liable.items()))
    return None if criteria == "unknown" else state
