"""The house's structure: the Python layer in sub-packages by role, data flowing one way (the import-linter
contracts of pyproject.toml), each sub-package saying what it owns."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

PACKAGE = ROOT / "pyhelpers"


def test_import_contracts_hold() -> None:
    """Layers (no import from a lower layer to a higher one) and no circles inside a layer."""
    lint = Path(sys.executable).parent / "lint-imports"
    if not lint.exists():
        pytest.fail("import-linter is not installed: run `sh .ci/setup --dev`")
    done = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_every_sub_package_says_what_it_owns() -> None:
    for init in sorted(PACKAGE.glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and len(doc.split()) >= 15, f"{init.relative_to(ROOT)}: a one-paragraph docstring"


def test_no_module_in_the_package_root() -> None:
    """Modules live in their layer's sub-package; the root holds only the package's docstring."""
    assert sorted(p.name for p in PACKAGE.glob("*.py")) == ["__init__.py"]
