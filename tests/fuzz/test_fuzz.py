"""The fuzz harness in the test suite (issue 26): a fixed, seeded budget of mutated scenarios and ledgers
(``TREATY_FUZZ_CASES``, default 2,000: half each; about a minute of one core). Every mutant is refused
with a documented input error, or accepted and then checked against the README's rules; none crashes and
none takes over 10 s. A failure is shrunk by hypothesis to a small reproducer: add it as a regression test
(tests/test_hostile_input.py, tests/test_batch.py) with the fix. Longer runs: tests/fuzz/run.py."""

from __future__ import annotations

import os
import time

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings

from .mutants import ledger_mutants, scenario_mutants
from .oracle import Hang, Verdict, _id_violation, deadline, documented_violations, run_ledger, run_scenario

CASES = int(os.environ.get("TREATY_FUZZ_CASES", "2000"))
SEED = int(os.environ.get("TREATY_FUZZ_SEED", "26"))

_SETTINGS = settings(max_examples=max(1, CASES // 2), database=None, deadline=None, derandomize=False,
                     phases=[Phase.generate, Phase.shrink], suppress_health_check=list(HealthCheck))


def _judged(verdict: Verdict) -> None:
    assert not verdict.failed, f"{verdict.kind}: {verdict.detail} ({verdict.seconds:.2f} s)"


@seed(SEED)
@_SETTINGS
@given(scenario_mutants())
def test_mutated_scenarios_are_refused_or_valid(data: bytes) -> None:
    _judged(run_scenario(data))


@seed(SEED + 1)
@_SETTINGS
@given(ledger_mutants())
def test_mutated_ledgers_are_refused_or_valid(mutant: tuple[bytes, str]) -> None:
    _judged(run_ledger(*mutant))


def test_the_oracle_knows_the_documented_rules() -> None:
    """The predicate flags what the README refuses, on an accepted scenario whose raw input is changed."""
    import copy

    from pyhelpers.scenario import load_text

    from ..test_loader import GOOD

    sc = load_text(GOOD, "case.yaml")
    raw = copy.deepcopy(sc._plain_data)
    assert documented_violations(sc, raw) == []
    raw["holdings"][0]["capital"] = "24.999"
    raw["evaluation_date"] = "2024-06-31"
    raw["persons"]["lusoinvest"]["liable_to_tax"]["PT"] = ["incorporation"]
    raw["income"][0]["gross"]["amount"] = 1.5
    assert documented_violations(sc, raw) == [
        "evaluation_date: accepted a date that does not exist: '2024-06-31'",
        "persons.lusoinvest.liable_to_tax: accepted the keys 'pt' and 'PT', one once normalised",
        "holdings[0].capital: accepted a percentage with more than two decimals: '24.999'",
        "income[0].gross.amount: accepted an amount from float 1.5"]
    assert _id_violation("alfa\x85industria") == "an id with the control character(s) ['\\x85']"
    assert _id_violation("alfa\u2028industria") == ""  # a line separator is not a control character


def test_a_case_past_its_cpu_budget_is_stopped() -> None:
    started = time.process_time()
    with pytest.raises(Hang), deadline(0.2):
        while time.process_time() - started < 5:
            pass
    assert time.process_time() - started < 1
