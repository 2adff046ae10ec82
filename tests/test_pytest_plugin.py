"""The pytest plugin (issue 25): a temporary repository of scenarios, run by pytest (``pytester``), as the
The user guide's example repository (``docs/pytest-example``) shows it."""

from __future__ import annotations

import shutil
import tomllib
from importlib.metadata import entry_points

import pytest

from pyhelpers.interfaces.pytest_plugin import glob_pattern

from .conftest import ROOT

EXAMPLE = ROOT / "docs" / "pytest-example"
PLUGIN = "pyhelpers.interfaces.pytest_plugin"


def plugin_args() -> list[str]:
    """``-p`` the plugin unless the installed package already registers it (its entry point)."""
    if any(ep.value == PLUGIN for ep in entry_points(group="pytest11")):
        return ["-p", "no:cacheprovider"]
    return ["-p", PLUGIN, "-p", "no:cacheprovider"]


def test_the_package_declares_the_plugin() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["entry-points"]["pytest11"] == {"treaty": PLUGIN}


@pytest.mark.parametrize(("path", "matches"), [
    ("scenarios/a.yaml", True), ("scenarios/x/y/a.yaml", True), ("scenarios/a.yml", False),
    ("other/scenarios/a.yaml", False), ("scenarios/a.yaml.bak", False),
])
def test_the_glob_is_read_from_the_rootdir(path: str, matches: bool) -> None:
    assert bool(glob_pattern("scenarios/**/*.yaml").fullmatch(path)) is matches


FAILING = """\
name: A 25% holding, expected wrongly
treaty: br-pt
evaluation_date: 2024-06-30
persons:
  lusoinvest: {kind: company, liable_to_tax: {pt: [place_of_management]}}
  alfa: {kind: company, liable_to_tax: {br: [incorporation]}}
holdings:
  - {holder: lusoinvest, company: alfa, capital: 25, from: 2021-01-15}
income:
  - {id: div-a, type: dividend, payer: alfa, recipient: lusoinvest, date: 2024-03-15,
     gross: {amount: "100.00", currency: BRL}}
  - {id: div-b, type: dividend, payer: alfa, recipient: lusoinvest, date: 2024-03-16,
     gross: {amount: "100.00", currency: BRL}}
  - {id: div-c, type: dividend, payer: alfa, recipient: lusoinvest, date: 2024-03-17,
     gross: {amount: "100.00", currency: BRL}}
expect:
  div-a:
    outcome: {br: at most 5%}
    provisions_include: [br-pt 10(2)(b)]
  div-b: {status: decided}
"""

REFUSED = FAILING.replace("capital: 25,", "capital: 150,")


def test_scenario_files_run_as_tests_with_a_diff(pytester: pytest.Pytester) -> None:
    shutil.copytree(EXAMPLE, pytester.path, dirs_exist_ok=True)
    (pytester.path / "scenarios" / "wrong.yaml").write_text(FAILING)
    (pytester.path / "scenarios" / "refused.yaml").write_text(REFUSED)
    result = pytester.runpytest(*plugin_args(), "-v")
    result.assert_outcomes(passed=3, failed=2, skipped=1)
    result.stdout.fnmatch_lines([
        "scenarios/dividends/holding-24-9.yaml::div-2024 PASSED*",
        "scenarios/dividends/holding-25.yaml::div-2024 PASSED*",
        "scenarios/wrong.yaml::div-b PASSED*",
        "scenarios/wrong.yaml::div-c SKIPPED*",
        "scenarios/refused.yaml:8: holdings[0].capital: expected a percentage between 0 and 100, found 150",
        "scenarios/wrong.yaml::div-a: 2 difference(s) from expect: (- expected, + got)",
        "  outcome for br:",
        "    - at most 5%",
        "    + capped 10%",
        "  provisions include:",
        "    - br-pt 10(2)(b)    (expected among, not in the answer)",
        "  why: treaty explain scenarios/wrong.yaml --item div-a",
    ])


def test_an_empty_glob_list_turns_the_plugin_off(pytester: pytest.Pytester) -> None:
    shutil.copytree(EXAMPLE, pytester.path, dirs_exist_ok=True)
    pytester.makepyprojecttoml('[tool.pytest.ini_options]\ntestpaths = ["scenarios"]\ntreaty_scenarios = []\n')
    result = pytester.runpytest(*plugin_args())
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
