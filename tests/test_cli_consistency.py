"""Issue 25, item 5: one CLI. `check` takes folders; the same option names everywhere (`--workers`, the
old `--jobs` a hidden deprecated alias); exit codes as everywhere (`diff` 1 when an outcome changed,
`crosscheck` on no scenario 2); `--version`; logging under the package's name with `--verbose`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from pyhelpers.base.version import package_version
from pyhelpers.interfaces.cli import main

from .conftest import ROOT
from .test_regression import MINI, _copy

QUALIFYING = ROOT / "scenarios/br-pt/dividends-qualifying-holding.yaml"


def _invoke(*args: str) -> tuple[int, str, str]:
    out = CliRunner().invoke(main, list(args))
    return out.exit_code, out.stdout, out.stderr


def test_check_takes_a_folder_recursing_yaml_and_yml_sorted(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    shutil.copy(QUALIFYING, tmp_path / "b" / "one.yml")
    shutil.copy(QUALIFYING, tmp_path / "a.yaml")
    (tmp_path / "notes.txt").write_text("not a scenario", encoding="utf-8")
    code, out, err = _invoke("check", str(tmp_path), "--format", "json")
    assert code == 0, err
    assert [d["source"] for d in json.loads(out)] == [str(tmp_path / "a.yaml"), str(tmp_path / "b" / "one.yml")]
    code, text, _ = _invoke("check", str(tmp_path))
    assert code == 0 and text.count("br-pt 10(2)(a)") >= 2


def test_check_of_a_folder_without_scenarios_is_bad_input(tmp_path: Path) -> None:
    code, _, err = _invoke("check", str(tmp_path))
    assert code == 2
    assert err == (f"error: {tmp_path}: expected a scenario file or a folder holding *.yaml or *.yml files, found a "
                   "folder without any\n")


def test_crosscheck_on_no_scenario_is_bad_input(tmp_path: Path) -> None:
    code, _, err = _invoke("crosscheck", str(tmp_path))
    assert code == 2
    assert err.startswith(f"error: no scenario file in {tmp_path}: expected a *.yaml or *.yml file")


def test_diff_exits_1_when_an_outcome_changed(tmp_path: Path) -> None:
    amended = _copy(tmp_path, ("P >= 2500", "P >= 2400"))
    code, out, _ = _invoke("diff", "--base", str(MINI / "logic"), "--head", str(amended), str(MINI / "scenarios"))
    assert code == 1 and "below-threshold.yaml" in out
    code, out, _ = _invoke("diff", "--base", str(MINI / "logic"), "--head", str(MINI / "logic"),
                           str(MINI / "scenarios"), "--format", "json")
    assert code == 0 and json.loads(out)["changes"] == []


def test_workers_everywhere_and_jobs_a_hidden_deprecated_alias() -> None:
    for command in ("batch", "coverage", "mutate", "serve"):
        code, out, _ = _invoke(command, "--help")
        assert code == 0 and "--workers" in out and "--jobs" not in out, command
    args = ["coverage", str(MINI / "scenarios"), "--logic", str(MINI / "logic"), "--format", "json"]
    code, new, _ = _invoke(*args, "--workers", "1")
    assert code == 0
    code, old, err = _invoke(*args, "--jobs", "1")
    assert code == 0 and err == "warning: --jobs is deprecated: use --workers\n"
    assert json.loads(old) == json.loads(new)


def test_version() -> None:
    code, out, _ = _invoke("--version")
    assert code == 0 and out == f"treaty, version {package_version()}\n"


def test_verbose_logs_under_the_package_name() -> None:
    code, out, err = _invoke("-v", "check", str(QUALIFYING))
    assert code == 0 and "br-pt 10(2)(a)" in out
    assert f"INFO pyhelpers.check: checking {QUALIFYING}\n" in err
    code, _, err = _invoke("check", str(QUALIFYING))
    assert code == 0 and "INFO" not in err


def test_shell_completion_as_the_readme_says() -> None:
    """The README's line: `eval "$(_TREATY_COMPLETE=bash_source treaty)"` gives a bash completion script."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert 'eval "$(_TREATY_COMPLETE=bash_source treaty)"' in readme
    out = CliRunner().invoke(main, [], prog_name="treaty", env={"_TREATY_COMPLETE": "bash_source"})
    assert out.exit_code == 0 and "_treaty_completion()" in out.stdout and "complete -o nosort -F" in out.stdout
    out = CliRunner().invoke(main, [], prog_name="treaty",
                             env={"_TREATY_COMPLETE": "bash_complete", "COMP_WORDS": "treaty cro", "COMP_CWORD": "1"})
    assert out.stdout == "plain,crosscheck\n"
