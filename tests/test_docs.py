"""The documentation site builds strictly (`mkdocs build --strict`: a broken link or anchor, a page left
out of the nav, a docstring mkdocstrings cannot read fail it), and its generated reference of the scenario
format has every model and field of the schema; the README stays short and its links resolve."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pyhelpers.scenario import json_schema

from .conftest import ROOT


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if importlib.util.find_spec("mkdocs") is None:
        pytest.fail("mkdocs is not installed: run `sh .ci/setup --dev` (the `docs` extra)")
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_site_builds_strictly(site: Path) -> None:
    for page in ("index.html", "guide/quick-start/index.html", "treaties/br-pt/index.html",
                 "reference/cli/index.html", "reference/http/index.html", "reference/openapi.json",
                 "reference/python-api/index.html", "maintainers/index.html"):
        assert (site / page).is_file(), page


def test_scenario_reference_has_every_field(site: Path) -> None:
    page = (site / "reference/scenario-format/index.html").read_text(encoding="utf-8")
    schema = json_schema()
    models = {"Scenario": schema} | {k: v for k, v in schema["$defs"].items()
                                     if not k.startswith("open ") and "properties" in v}
    for name, model in models.items():
        assert f'id="{name.lower()}"' in page, name
        for field in model["properties"]:
            assert f"<code>{field}</code>" in page, f"{name}.{field}"


def test_treaty_pages_list_the_catalogue(site: Path) -> None:
    page = (site / "treaties/br-uy/index.html").read_text(encoding="utf-8")
    assert "<code>br-uy 29</code> Entitlement to benefits" in page
    assert "Missing from the corpus" in page and "<code>br-uy 11</code>" in page


def test_cli_reference_has_every_command(site: Path) -> None:
    from pyhelpers.interfaces.cli import main

    page = (site / "reference/cli/index.html").read_text(encoding="utf-8")
    for command in main.commands:
        assert f"Usage: treaty {command} [OPTIONS]" in page, command


def test_readme_is_short_and_its_links_resolve() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 180  # the entry, the two commands, a check, incomplete facts, the br-pt rates
    assert "sh .ci/setup && .venv/bin/treaty check scenarios/br-pt/dividends-qualifying-holding.yaml\n" in readme
    assert "sh .ci/setup --dev && .venv/bin/python -m pytest\n" in readme
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", readme):
        if not re.match(r"[a-z]+:", target):
            assert (ROOT / target).exists(), target


def test_every_pip_install_of_treaty_logic_installs_from_a_clone() -> None:
    """treaty-logic is not published (a PyPI project of that name is another package): an instruction to
    install it, its extras included, names a clone's path, never the bare name PyPI would resolve."""
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "docs").rglob("*.toml"))]
    installs = 0
    for path in texts:
        text = re.sub(r"\s+", " ", path.read_text(encoding="utf-8"))
        for command in re.findall(r"pip install ([^`;)]*)", text):
            named = [w for w in command.replace("'", " ").split() if "treaty-logic" in w]
            installs += bool(named)
            assert all(w.startswith(("/path/to/treaty-logic", ".")) for w in named), (path, command)
    assert installs >= 8


def test_the_readmes_modeline_reaches_the_shipped_schema_from_a_scenario() -> None:
    """The README's editor modeline works in a clone: from a scenario in ``scenarios/TREATY/`` its path is
    the schema the package ships (which tests/test_schema_truth.py keeps equal to ``treaty schema``)."""
    from pyhelpers.scenario.schema import SCHEMA_FILE

    for page in (ROOT / "README.md", ROOT / "docs/guide/scenario-format.md"):
        found = re.findall(r"^# yaml-language-server: \$schema=(\S+)$", page.read_text(encoding="utf-8"), re.M)
        assert found, page
        assert (ROOT / "scenarios/br-pt" / found[0]).resolve() == SCHEMA_FILE.resolve(), page


def test_the_test_suite_page_states_a_floor_the_suite_meets() -> None:
    """docs/maintainers/tests.md states the number of scenario files as a floor ("over N"), which stays
    true as scenarios are added; the suite must meet it."""
    page = re.sub(r"\s+", " ", (ROOT / "docs/maintainers/tests.md").read_text(encoding="utf-8"))
    stated = re.search(r"over ([\d,]+) scenario files", page)
    assert stated is not None, "tests.md: say how many scenario files as 'over N scenario files'"
    files = [p for p in (ROOT / "scenarios").rglob("*") if p.suffix in (".yaml", ".yml")]
    assert len(files) > int(stated.group(1).replace(",", ""))


def test_readme_examples_are_the_commands_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each example of the README (a block opening with ``$ .venv/bin/treaty …``) is what that command prints,
    line for line: the README shows the output as it is, not an excerpt that drifts from it. A block holding the
    command alone is followed by its Markdown output, shown as Markdown (the rate table), up to the next
    section."""
    import shlex

    from click.testing import CliRunner

    from pyhelpers.interfaces.cli import main

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    examples = []
    for m in re.finditer(r"```\n\$ \.venv/bin/treaty ([^\n]+)\n(.*?)```\n", readme, flags=re.S):
        shown = m[2]
        if not shown:  # the command alone: its Markdown output follows, up to the next section
            shown = readme[m.end():].partition("\n## ")[0].strip("\n")
        examples.append((m[1], shown))
    commands = [command for command, _ in examples]
    assert len(examples) >= 3 and any("--format markdown" in c for c in commands), commands
    monkeypatch.chdir(ROOT)
    for command, shown in examples:
        args = shlex.split(command)  # (a time limit no busy machine reaches: nothing is cut, so nothing said of it)
        out = CliRunner().invoke(main, args + (["--time-limit", "600"] if args[0] == "check" else [])).stdout
        assert shown.rstrip("\n") == out.rstrip("\n"), command


def test_the_guides_examples_are_the_commands_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """Audit 24 D13: each example of the commands guide (a block opening with ``$ .venv/bin/treaty …``) is what
    that command prints: line for line, or, where the block ends with ``...``, its first lines."""
    import shlex

    from click.testing import CliRunner

    from pyhelpers.interfaces.cli import main

    guide = (ROOT / "docs/guide/commands.md").read_text(encoding="utf-8")
    examples = re.findall(r"```\n\$ \.venv/bin/treaty ([^\n]+)\n(.*?)```\n", guide, flags=re.S)
    assert any(command.startswith("explain ") for command, _ in examples)
    monkeypatch.chdir(ROOT)
    for command, shown in examples:
        args = shlex.split(command)
        out = CliRunner().invoke(main, args + (["--time-limit", "600"] if args[0] in ("check", "whatif") else []))
        lines = shown.rstrip("\n").split("\n")
        if lines[-1].strip() == "...":  # an excerpt: its first lines
            assert out.stdout.split("\n")[:len(lines) - 1] == lines[:-1], command
        else:
            assert shown.rstrip("\n") == out.stdout.rstrip("\n"), command
