"""The pytest plugin: any repository's scenario files run as tests, one per income item or question.

Installed with the package (entry point ``pytest11``: ``treaty``). The files are those whose path from
pytest's rootdir matches one of the globs of the ini option ``treaty_scenarios`` (default
``scenarios/**/*.yaml``; an empty list turns the plugin off), among the paths pytest collects. Each item
or question of a file is a test that compares the answer with the file's ``expect:`` block — exact or
partial (:class:`pyhelpers.scenario.expectations.ExpectedItem`) — and fails with the differences field by
field, expected against got. A file the loader refuses is one failing test naming file, line and field.

This repository turns it off (``treaty_scenarios = []`` in ``pyproject.toml``): its own scenarios are run
by ``tests/test_scenarios.py``, with the checks a shipped scenario owes beyond its expectations."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from pyhelpers.engine.expect import Mismatch
    from pyhelpers.engine.results import ScenarioResult
    from pyhelpers.engine.solve import Checker
    from pyhelpers.scenario import Scenario

INI = "treaty_scenarios"
DEFAULT_GLOBS = ["scenarios/**/*.yaml"]

_CHECKER = pytest.StashKey["Checker"]()
_PATTERNS = pytest.StashKey[list["re.Pattern[str]"]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(INI, type="linelist", default=DEFAULT_GLOBS,
                  help="globs, from the rootdir, of the treaty-logic scenario files to run as tests "
                       "(default: scenarios/**/*.yaml; empty: none)")


def glob_pattern(glob: str) -> re.Pattern[str]:
    """A path glob as a regular expression: ``**/`` any folders (or none), ``*`` and ``?`` within a name."""
    out, i = [], 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:[^/]*/)*")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return re.compile("".join(out))


def _patterns(config: pytest.Config) -> list[re.Pattern[str]]:
    if _PATTERNS not in config.stash:
        globs = [g.strip().removeprefix("./") for g in config.getini(INI) if g.strip()]
        config.stash[_PATTERNS] = [glob_pattern(g) for g in globs]
    return config.stash[_PATTERNS]


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    patterns = _patterns(parent.config)
    if not patterns:
        return None
    try:
        relative = file_path.relative_to(parent.config.rootpath).as_posix()
    except ValueError:
        return None
    if any(p.fullmatch(relative) for p in patterns):
        file: ScenarioFile = ScenarioFile.from_parent(parent, path=file_path)
        return file
    return None


def _relative(path: Path, config: pytest.Config) -> str:
    """``path`` from the rootdir, as messages name it."""
    try:
        return path.relative_to(config.rootpath).as_posix()
    except ValueError:
        return str(path)


def _checker(config: pytest.Config) -> Checker:
    """One checker per session (the rule base is read once)."""
    if _CHECKER not in config.stash:
        from pyhelpers.engine.solve import Checker

        config.stash[_CHECKER] = Checker()
    return config.stash[_CHECKER]


class ScenarioFile(pytest.File):
    """A scenario file: one test per income item and question (or one failing test if it is refused)."""

    scenario: Scenario | None = None
    lines: Any = None
    _result: ScenarioResult | None = None

    def collect(self) -> Iterator[pytest.Item]:
        from pyhelpers.base.errors import ScenarioError
        from pyhelpers.scenario import load_dict, person_questions
        from pyhelpers.scenario.reading import parse_yaml, read_file

        source = _relative(self.path, self.config)
        try:
            data, self.lines = parse_yaml(read_file(self.path, "scenario"), source)
            self.scenario = load_dict(data, source, self.lines)
        except ScenarioError as err:
            yield ScenarioItem.from_parent(self, name="(load)", key="", refused=str(err))
            return
        keys = [i.id for i in self.scenario.income] + [q.id for q in person_questions(self.scenario)]
        for key in keys:
            item = ScenarioItem.from_parent(self, name=key, key=key)
            if self.config.pluginmanager.hasplugin("xdist"):
                item.add_marker(pytest.mark.xdist_group(self.nodeid))  # checked once per file (--dist loadgroup)
            yield item

    def result(self) -> ScenarioResult:
        """The answer to the scenario, computed once for all its tests."""
        if self._result is None:
            assert self.scenario is not None
            self._result = _checker(self.config).check(self.scenario, source=_relative(self.path, self.config))
        return self._result


class ExpectationMismatch(Exception):
    """The answer differs from the expectation."""

    def __init__(self, key: str, mismatches: list[Mismatch]) -> None:
        super().__init__(key)
        self.key, self.mismatches = key, mismatches


class ScenarioItem(pytest.Item):
    """One income item or question of a scenario file, checked against its ``expect:`` entry."""

    def __init__(self, *, key: str, refused: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.key, self.refused = key, refused

    @property
    def file(self) -> ScenarioFile:
        assert isinstance(self.parent, ScenarioFile)
        return self.parent

    def runtest(self) -> None:
        from pyhelpers.engine.expect import compare_answer, compare_item
        from pyhelpers.scenario import ExpectedAnswer

        if self.refused:
            raise ScenarioRefused(self.refused)
        scenario = self.file.scenario
        assert scenario is not None
        expected = (scenario.expect or {}).get(self.key)
        if expected is None:
            pytest.skip(f"no expectation for {self.key} in expect:")
        result = self.file.result()
        if isinstance(expected, ExpectedAnswer):
            mismatches = compare_answer(expected, result.answer(self.key))
        else:
            mismatches = compare_item(expected, result.item(self.key))
        if mismatches:
            raise ExpectationMismatch(self.key, mismatches)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str | Any:
        if isinstance(excinfo.value, ScenarioRefused):
            return str(excinfo.value)
        if isinstance(excinfo.value, ExpectationMismatch):
            return describe_mismatches(self.relative(), excinfo.value.key, excinfo.value.mismatches)
        return super().repr_failure(excinfo)

    def relative(self) -> str:
        return _relative(self.path, self.config)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        line = None
        if self.file.lines is not None and self.key:
            found = self.file.lines.line(("expect", self.key))
            line = found - 1 if found is not None else None
        return self.path, line, f"scenario {self.relative()}::{self.key or '(load)'}"


class ScenarioRefused(Exception):
    """The loader refused the scenario file (the message names file, line and field)."""


def describe_mismatches(path: str, key: str, mismatches: list[Mismatch]) -> str:
    """The differences of one item from its expectation, field by field, as pytest shows a failed
    comparison: ``-`` expected, ``+`` got; for lists, what is missing and what is extra."""
    lines = [f"{path}::{key}: {len(mismatches)} difference(s) from expect: (- expected, + got)"]
    for m in mismatches:
        lines.append(f"  {m.what}:")
        listed = m.what in ("provisions", "provisions include")
        want, have = (_listed(m.expected), _listed(m.actual)) if listed else (None, None)
        if want is not None and have is not None:
            verb = "expected among" if m.what == "provisions include" else "expected"
            for x in want:
                if x not in have:
                    lines.append(f"    - {x}    ({verb}, not in the answer)")
            if m.what != "provisions include":
                for x in have:
                    if x not in want:
                        lines.append(f"    + {x}    (in the answer, not expected)")
        else:
            lines.append(f"    - {m.expected}")
            lines.append(f"    + {m.actual}")
    lines.append(f"  why: treaty explain {path} --item {key}")
    return "\n".join(lines)


def _listed(text: str) -> list[str] | None:
    """The provisions of a list as :mod:`pyhelpers.engine.expect` shows it (``[a, b]``), else None."""
    if not (text.startswith("[") and text.endswith("]")):
        return None
    body = text[1:-1]
    return [x for x in body.split(", ") if x] if body else []
