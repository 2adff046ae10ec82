"""The version of treaty-logic that is running: the installed distribution's (``treaty-logic``).

The version bump policy (what makes a release major, minor or patch for a rule base) is in
``CHANGELOG.md``'s header.
"""

from __future__ import annotations

from functools import lru_cache

DISTRIBUTION = "treaty-logic"
"""The distribution's name (``pyproject.toml``); the import package is ``pyhelpers``."""

def pip_extra(extra: str) -> str:
    """How to install the optional ``extra``: from a clone of the repository, since treaty-logic is not
    published (a PyPI project of the same name is another package)."""
    return f"pip install '.[{extra}]' in a clone of {DISTRIBUTION}"


NOT_INSTALLED = "0+source"
"""The version said by a source checkout that is not installed (a PEP 440 local version below every
release, so it is never taken for one)."""


@lru_cache(maxsize=1)
def package_version() -> str:
    """The installed distribution's version (its metadata), else :data:`NOT_INSTALLED`."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:  # running from a source checkout that is not installed
        return NOT_INSTALLED
