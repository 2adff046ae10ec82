"""Issue 23, list-valued facts given as ``unknown`` (branch list55): a place's activities are said by what the rules
test of the list (the elements it holds, one or several), not as its 18 representative lists; an individual's
``permanent_home``, ``habitual_abode`` and ``nationality`` are answered over every list of the Contracting States;
and a State decided over such facts says so on its decisive line, never that it depends on them."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from pyhelpers.engine.domains import representative_lists
from pyhelpers.engine.solve import Checker
from pyhelpers.interfaces.cli import main
from pyhelpers.interfaces.documents import decisive_lines
from pyhelpers.output.render import values_text
from pyhelpers.scenario import load_file
from pyhelpers.scenario.openfacts import describe_lists

from .conftest import ROOT

ACTIVITIES = representative_lists(("places_of_business", "x", "activities"))
assert ACTIVITIES is not None
OTHER = "other_business"


def _indices(test: object) -> list[int]:
    assert ACTIVITIES is not None
    return [i for i, v in enumerate(ACTIVITIES) if test(v)]  # type: ignore[operator]


def test_the_activities_are_said_by_the_elements_the_rules_test() -> None:
    """5(2)(b) with 5(4): the core business makes the place a PE; one letter's activity alone is excluded; a
    combination without the core business asks 5(4)(f)'s overall character — each said in words of its own."""
    assert ACTIVITIES is not None and len(ACTIVITIES) == 18
    assert describe_lists(ACTIVITIES, _indices(lambda v: OTHER in v)) == "a list with other_business"
    assert describe_lists(ACTIVITIES, _indices(lambda v: OTHER not in v)) == "a list without other_business"
    assert describe_lists(ACTIVITIES, _indices(lambda v: OTHER not in v and len(v) == 1)) == \
        "a list of one value, without other_business"
    assert describe_lists(ACTIVITIES, _indices(lambda v: OTHER not in v and len(v) > 1)) == \
        "a list of several values, without other_business"  # not "all but [other_business]": a combination
    # narrowly not: lists no two tests single out are listed one by one
    assert describe_lists(ACTIVITIES, _indices(lambda v: v in (["storage"], ["display"], ["delivery"]))) == \
        "one of [storage], [display], [delivery]"
    assert describe_lists(ACTIVITIES, _indices(lambda v: v == ["purchasing"])) == "[purchasing]"


def test_lists_of_states_are_every_list_of_the_contracting_states() -> None:
    """4(2)(a)-(c) count a home, an abode, a nationality among the Contracting States: none, each, both."""
    lists = representative_lists(("persons", "ana", "permanent_home"), ("br", "pt"))
    assert lists == [[], ["br"], ["pt"], ["br", "pt"]]
    assert representative_lists(("persons", "ana", "habitual_abode"), ("br", "sg")) == \
        [[], ["br"], ["sg"], ["br", "sg"]]
    assert representative_lists(("persons", "ana", "nationality"), ("br", "pt")) == lists
    # narrowly not: another list of States (a person's controllers are ids) is not answered over them
    assert representative_lists(("persons", "ana", "controlled_by"), ("br", "pt")) is None
    assert describe_lists(lists, [1, 3]) == "a list with br"
    assert describe_lists(lists, [0, 2]) == "a list without br"
    assert describe_lists(lists, [3]) == "[br, pt]"
    assert describe_lists(lists, [0, 2, 3]) == "one of [], [pt], [br, pt]"


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "a list of several values, without other_business"),
    ("pt", "uma lista de vários valores, sem other_business"),
    ("pt-PT", "uma lista de vários valores, sem other_business"),
])
def test_the_words_of_a_list_in_each_language(lang: str, said: str) -> None:
    assert values_text("a list of several values, without other_business", lang) == said
    assert values_text("a list with br and without pt", lang) == (
        "a list with br and without pt" if lang == "en" else "uma lista com br e sem pt")


@pytest.fixture(scope="module")
def checker() -> Checker:
    return Checker()


def test_check_names_the_critical_distinction_not_the_representative_lists() -> None:
    out = CliRunner().invoke(main, ["check", str(ROOT / "scenarios/br-pt/unknowns-branch-activities-decide.yaml")])
    assert out.exit_code == 0, out.output
    assert "may tax if places_of_business.rio-branch.activities is a list with other_business, or if" in out.output
    assert "is a list of several values, without other_business and " \
        "the overall activity of rio-branch is not preparatory or auxiliary" in out.output  # in words (blind58 R1)
    assert "activities: any list of storage, display, delivery" in out.output
    assert "[display, delivery, stock_for_storage_display_delivery" not in out.output


@pytest.mark.parametrize(("name", "item", "provision"), [
    ("br-pt/unknowns-branch-activities-not-needed", "desk-profits-not-attributable", "br-pt 7(1)"),
    ("br-pt/exam37-pt-bp-agent-independence-unknown-no-authority", "wine-sales-2024", "br-pt 7(1)"),
])
def test_a_state_decided_over_an_unknown_fact_does_not_say_it_depends_on_it(checker: Checker, name: str, item: str,
                                                                             provision: str) -> None:
    scenario = load_file(ROOT / f"scenarios/{name}.yaml")
    result = checker.check(scenario)
    assert next(i for i in result.items if i.item_id == item).status == "decided"
    lines = decisive_lines(checker, scenario, "en", result)
    for state in ("br", "pt"):
        line = lines[(item, state)]
        assert line.startswith(f"{provision}: this outcome whatever `places_of_business."), line
        assert "depends" not in line
        assert not re.search(r"`[a-z_]+\(", line), line  # each fact where the scenario states it, not the rules' name
    assert "qualquer que seja" in decisive_lines(checker, scenario, "pt", result)[(item, "br")]


def test_an_open_state_keeps_its_depends_line(checker: Checker) -> None:
    """Narrowly not: where the activities decide Brazil's right, its line says so."""
    scenario = load_file(ROOT / "scenarios/br-pt/unknowns-branch-activities-decide.yaml")
    lines = decisive_lines(checker, scenario, "en", checker.check(scenario))
    assert "depends on activities (rio-branch), given as unknown" in lines[("branch-profits", "br")]


def test_a_permanent_home_given_as_unknown_decides_or_is_not_needed(checker: Checker) -> None:
    """br-pt 4(2)(a): Rita's home decides her residence and Portugal's right (a home in Brazil only against every other
    list); Rui's and Vera's government salaries (19(2), 19(1)) turn on nationality, not residence: not needed."""
    result = checker.check(load_file(ROOT / "scenarios/br-pt/unknowns-permanent-home-decides.yaml"))
    rita = result.items[0]
    assert (rita.status, rita.state("br").label, rita.state("pt").label) == \
        ("depends", "may tax in every case", "undetermined")
    assert "pt: exempt if persons.rita-campos.permanent_home is [br] (br-pt 1; br-pt 4(1); br-pt 4(2)(a); " \
        "br-pt 10(3); br-pt 10(5); br-pt 22(1))" in [str(a) for a in rita.alternatives]
    result = checker.check(load_file(ROOT / "scenarios/br-pt/unknowns-permanent-home-not-needed.yaml"))
    for item, provision in (("salary-rui", "br-pt 19(2)"), ("salary-vera", "br-pt 19(1)")):
        got = next(i for i in result.items if i.item_id == item)
        assert got.status == "decided" and provision in got.provisions and not got.alternatives
        assert [str(f) for f in got.findings if f.kind == "not_needed"] == \
            [f"not_needed: permanent_home({'rui-tavares' if item == 'salary-rui' else 'vera-lopes'}) (br-pt 4(2)(a))"]


def test_the_decisive_lines_need_no_exception_reasons(checker: Checker) -> None:
    """`treaty check`'s decisive line never shows why an exception considered did not apply: argued without that
    why-not search (most of the argument's cost), the lines are the same; narrowly not: `treaty explain` keeps it."""
    from pyhelpers.explain.argument import argument_for
    from pyhelpers.explain.explainer import explain_scenario
    from pyhelpers.output import render

    scenario = load_file(ROOT / "scenarios/br-pt/interest-special-relationship-excess.yaml")
    ex = explain_scenario(checker, scenario, "en", lazy=True)
    reasons = 0
    for item in scenario.income:
        full = argument_for(ex, item.id, frozenset({"state_outcome"}))
        bare = argument_for(ex, item.id, frozenset({"state_outcome"}), exception_reasons=False)
        assert [render.decisive_line(a, "en") for a in full] == [render.decisive_line(a, "en") for a in bare]
        reasons += sum(1 for a in full for ln in a.lines if ln.kind == "exception" and ln.facts)
        assert not any(ln.facts for a in bare for ln in a.lines if ln.kind == "exception")
    assert reasons > 0


def test_other_lists_of_an_enumeration_are_answered_over_their_lists() -> None:
    """list56: a royalty's rights, a fee's services, an agent's kinds of contract and a special regime given as
    ``unknown`` are answered over their lists: an enumeration of at most four values over every non-empty list
    of them, a larger one over its representatives; the empty list first where the format reads it as a
    statement (``special_regime: []``: none; ``kinds: []``: contracts of none of 5(5)'s kinds)."""
    rights = representative_lists(("income", 0, "payment_for", "rights"))
    assert rights is not None and len(rights) == 18 and [] not in rights and ["trademark"] in rights
    services = representative_lists(("income", 0, "payment_for", "services"))
    assert services is not None and len(services) == 15 and [] not in services
    assert ["managerial", "technical", "consultancy", "other"] in services
    kinds = representative_lists(("places_of_business", "a", "contracts", "kinds"))
    assert kinds is not None and kinds[0] == [] and len(kinds) == 8
    regimes = representative_lists(("persons", "p", "special_regime"))
    assert regimes is not None and regimes[0] == [] and len(regimes) == 13
    # narrowly not: a list of ids, or of shares, is not an enumeration: three-valued as before
    assert representative_lists(("places_of_business", "a", "contracts", "acts_exclusively_for")) is None
    assert representative_lists(("income", 0, "capital_gain", "value_from_immovable")) is None


def test_every_list_but_one_is_said_so() -> None:
    """Every list but [other] of a fee's services (br-pl 13(3): a fee for technical services) in words, not its 14
    lists one by one; three lists or fewer are still listed (``one of [], [pt], [br, pt]``, above)."""
    services = representative_lists(("income", 0, "payment_for", "services"))
    assert services is not None
    other = services.index(["other"])
    assert describe_lists(services, [i for i in range(len(services)) if i != other]) == "any list but [other]"
    assert values_text("any list but [other]", "pt") == "qualquer lista exceto [other]"
    assert values_text("any list but [other]", "pt-PT") == "qualquer lista exceto [other]"
    regimes = representative_lists(("persons", "p", "special_regime"))
    assert regimes is not None
    assert describe_lists(regimes, list(range(1, len(regimes)))) == "any list but []"
    assert describe_lists(regimes, [0]) == "[]"


def test_the_combinations_are_counted_per_part() -> None:
    """list56 (issue 23 point 3): the lists given as unknown are opened while each part of the scenario (items linked
    by the records they name) stays within the limit, not the whole: Inês's nationality is opened beside two other
    persons' homes and abodes; counted over the whole scenario it was not (narrowly not: a scenario whose facts all
    fall in one part opens the same either way)."""
    from pyhelpers.engine.completion import unknown_values

    scenario = load_file(ROOT / "scenarios" / "br-pt" / "residence-tie-breaker-facts-unknown.yaml")
    whole = {f.name for f in unknown_values(scenario)}
    parted = {f.name for f in unknown_values(scenario, per_part=True)}
    assert "persons.ines-carvalho.nationality" in parted - whole
    one = load_file(ROOT / "scenarios" / "br-pt" / "unknowns-permanent-home-decides.yaml")
    assert {f.name for f in unknown_values(one)} == {f.name for f in unknown_values(one, per_part=True)}
