"""ruff and mypy (strict) are clean: run as part of the suite so the README's one test command covers them."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from .conftest import ROOT


@pytest.mark.parametrize("tool", [["ruff", "check", "pyhelpers", "tests", "docs"], ["mypy"]])
def test_tool_is_clean(tool: list[str]) -> None:
    if shutil.which(tool[0], path=str(ROOT / ".venv/bin")) is None and \
            subprocess.run([sys.executable, "-m", tool[0], "--version"], capture_output=True).returncode != 0:
        pytest.fail(f"{tool[0]} is not installed: run `sh .ci/setup --dev`")
    done = subprocess.run([sys.executable, "-m", *tool], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
