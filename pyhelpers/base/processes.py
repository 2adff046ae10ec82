"""How worker and child processes are started: ``fork`` where it is safe and fast, ``spawn`` elsewhere.

``fork`` (Linux) starts a worker with the parent's memory, the parsed rule base included; ``spawn`` (the
only method on Windows, the default on macOS) starts a fresh interpreter, so everything a worker needs
reaches it pickled: small specs (a rule base's folder, a file's path), from which it loads the rule
base once (a pool's initializer). Every pool and bounded child of the package takes its start method
from :func:`context`, and each code path is correct under both; the environment variable
``TREATY_START_METHOD`` (``fork``, ``spawn`` or ``forkserver``) forces one (the tests force ``spawn``).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import sys
from multiprocessing.context import BaseContext

from pyhelpers.base.errors import InputError

log = logging.getLogger(__name__)

VARIABLE = "TREATY_START_METHOD"
"""The environment variable that forces a start method."""


def start_method() -> str:
    """The start method: the one ``TREATY_START_METHOD`` names, else ``fork`` on Linux (where it is
    available and safe), else ``spawn``."""
    forced = os.environ.get(VARIABLE, "").strip()
    available = multiprocessing.get_all_start_methods()
    if forced:
        if forced not in available:
            raise InputError(f"{VARIABLE}: expected one of {', '.join(available)}, found {forced!r}")
        return forced
    return "fork" if "fork" in available and sys.platform.startswith("linux") else "spawn"


def context() -> BaseContext:
    """The multiprocessing context of :func:`start_method`."""
    method = start_method()
    log.debug("processes start with %s", method)
    return multiprocessing.get_context(method)


def forking() -> bool:
    """Whether workers start as copies of this process (they inherit what it has loaded)."""
    return start_method() == "fork"
