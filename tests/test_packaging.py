"""The built wheel carries the law it encodes: logic/ and its quoted texts are inside the package."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from .conftest import ROOT


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # build from a clean copy: a stale build/ folder would keep files the tree no longer has
    source = tmp_path_factory.mktemp("source") / "treaty-logic"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".venv", "build", "*.egg-info", ".git", "__pycache__",
                                                                  ".mypy_cache", ".ruff_cache", ".pytest_cache"))
    return source


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory, source: Path) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(source)],
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        pytest.fail(f"pip wheel failed:\n{done.stderr}")
    return next(out.glob("treaty_logic-*.whl"))


def test_wheel_contains_every_rule_file_and_py_typed(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {f"pyhelpers/logic/{p.relative_to(ROOT / 'logic').as_posix()}" for p in (ROOT / "logic").rglob("*.lp")}
    assert expected and expected <= names
    assert "pyhelpers/py.typed" in names
    assert "pyhelpers/scenario/scenario.schema.json" in names  # the format's JSON Schema, for editors
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    declared = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "[pytest11]\ntreaty = pyhelpers.interfaces.pytest_plugin" in declared  # the pytest plugin
    assert any(n.endswith("LICENSE") and ".dist-info/" in n for n in names)  # the MIT licence text


def test_sdist_contains_the_license(source: Path, tmp_path: Path) -> None:
    out = tmp_path / "sdist"
    code = f"from setuptools import build_meta as b; print(b.build_sdist({str(out)!r}))"
    done = subprocess.run([sys.executable, "-c", code], cwd=source, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    with tarfile.open(out / done.stdout.split()[-1]) as sdist:
        names = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    assert {"LICENSE", "pyproject.toml"} <= names


def test_installed_package_runs_without_the_source_tree(wheel: Path, tmp_path: Path) -> None:
    zipfile.ZipFile(wheel).extractall(tmp_path / "site")
    scenario = ROOT / "scenarios/br-pt/dividends-qualifying-holding.yaml"
    code = (
        "import sys; sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in type(f).__name__.lower()];"
        f"sys.path.insert(0, {str(tmp_path / 'site')!r});"
        "from pyhelpers.base.rulebase import logic_dir; from pyhelpers.engine.solve import Checker;"
        "from pyhelpers.scenario import load_file;"
        f"r = Checker().check(load_file({str(scenario)!r}));"
        "print(logic_dir()); print(r.items[0].max_rate_bp)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    where, rate = done.stdout.split()
    assert where == str(tmp_path / "site" / "pyhelpers" / "logic")
    assert rate == "1000"


def test_pip_install_into_a_folder_of_the_user_runs_the_cli(source: Path, tmp_path: Path) -> None:
    """Issue 25 item 4: ``pip install .`` needs no root: installed into a folder of the user (``--target``,
    as into a virtual environment or with pipx), the command runs with a fresh home (its disk cache in the
    platform's user cache folder there), under ``spawn`` as on Windows, and writes nowhere else."""
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site),
                           str(source)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    home = tmp_path / "home"
    home.mkdir()
    scenario = ROOT / "scenarios/br-pt/dividends-qualifying-holding.yaml"
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(home), "PYTHONPATH": str(site),
           "TREATY_START_METHOD": "spawn", "PYTHONDONTWRITEBYTECODE": "1"}
    code = ("import sys; sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in type(f).__name__.lower()];"
            "from pyhelpers.interfaces.cli import main; main()")
    run = subprocess.run([sys.executable, "-c", code, "check", str(scenario), "--time-limit", "60"],
                         capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "br-pt 10(2)(a)" in run.stdout
    assert (site / "pyhelpers" / "logic").is_dir()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "site"]
    assert any((home / ".cache" / "treaty-logic").iterdir())
