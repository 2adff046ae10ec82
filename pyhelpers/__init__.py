"""treaty-logic's Python layer: the thin pipeline around the rules in ``logic/`` (ARCHITECTURE.md).

Data flows one way, through sub-packages by role, each importing only those below it (an
import-linter contract in ``pyproject.toml``, run by the test suite):

``interfaces`` (command line, batch) → ``tools`` (coverage, mutation, diff) → ``prolog`` (the second
engine) → ``output`` (text, JSON, Markdown, HTML report) → ``explain`` (derivations, readings) →
``engine`` (rule base, slicing, solving, alternatives, what-if) → ``facts`` (scenario → facts) →
``scenario`` (the format, its validation and loading) → ``base`` (errors, dates, terms, disk cache).

The law lives only in ``logic/``: no treaty, article, rate, period or threshold is named here. What the
rules need computed from dates and amounts they declare in the rule base, and this layer serves it.
"""

from __future__ import annotations

import importlib
from typing import Any

_API = {
    "Checker": "pyhelpers.engine.solve",
    "load_file": "pyhelpers.scenario",
    "load_text": "pyhelpers.scenario",
    "load_dict": "pyhelpers.scenario",
    "Scenario": "pyhelpers.scenario",
    "json_schema": "pyhelpers.scenario",
    "explain_scenario": "pyhelpers.explain.explainer",
    "why_not_goal": "pyhelpers.explain.explainer",
    "argument_for": "pyhelpers.explain.argument",
    "EXPLAINED_ROOTS": "pyhelpers.engine.provenance",
    "whatif": "pyhelpers.engine.whatif",
    "TreatyLogicError": "pyhelpers.base.errors",
    "InputError": "pyhelpers.base.errors",
    "ScenarioError": "pyhelpers.base.errors",
    "QueryError": "pyhelpers.base.errors",
    "LogicError": "pyhelpers.base.errors",
}
"""The Python API for programs that embed the checker (docs/reference/python-api.md): importable from
``pyhelpers`` itself, loaded on first use so that a sub-package imported alone loads nothing more."""

__all__ = sorted(_API)

__version__: str
"""The installed distribution's version (``importlib.metadata``; ``0+source`` in a checkout that is not
installed)."""


def __getattr__(name: str) -> Any:
    if name == "__version__":  # the installed distribution's (pyhelpers.base.version), read on first use
        from pyhelpers.base.version import package_version

        globals()[name] = package_version()
        return globals()[name]
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'pyhelpers' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
