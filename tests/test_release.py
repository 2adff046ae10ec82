"""Release hygiene (issue 25, item 7): one version, from the installed metadata, said by the package and
the CLI; the licence and the changelog beside the code."""

from __future__ import annotations

import tomllib

from click.testing import CliRunner

import pyhelpers
from pyhelpers.base.version import NOT_INSTALLED, package_version
from pyhelpers.interfaces.cli import main

from .conftest import ROOT


def _declared() -> str:
    with open(ROOT / "pyproject.toml", "rb") as f:
        version: str = tomllib.load(f)["project"]["version"]
    return version


def test_version_is_the_one_pyproject_declares() -> None:
    """The installed metadata (this checkout installed, as .ci/setup does); not the fallback."""
    assert pyhelpers.__version__ == package_version() == _declared() != NOT_INSTALLED


def test_treaty_version_prints_it() -> None:
    done = CliRunner().invoke(main, ["--version"])
    assert done.exit_code == 0, done.output
    assert done.output == f"treaty, version {_declared()}\n"


def test_license_and_changelog() -> None:
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## Unreleased" in changelog and "## Version bump policy" in changelog
    assert f"## {_declared()} - " in changelog or "## Unreleased" in changelog
