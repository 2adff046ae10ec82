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
