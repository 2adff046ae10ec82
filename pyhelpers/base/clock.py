"""The work clock: time limits count CPU time, not wall-clock time (audit 24, D3).

A time limit (``--time-limit``, a server's ``time_limit``) bounds the work, not the machine's load: it
is measured in seconds of CPU time used by this process and its children (:func:`now`), so the same
input gives the same answer on an idle machine and on a loaded one (where a check of 1.5 s of CPU can
take 20 s of wall-clock time). A deadline is a :func:`now` time; a solve waits for it with
:func:`wait`, which waits again while the clock has not reached it. A child doing bounded work is
stopped by the kernel when its own CPU time reaches its budget (:func:`arm`, ``ITIMER_PROF``); where
that timer does not exist (Windows) the limit falls back to wall-clock time.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from typing import Any

try:
    import resource
except ImportError:  # pragma: no cover - Windows
    resource = None  # type: ignore[assignment]

_credited = 0.0
"""CPU seconds of children kept alive between works (a server's kept child), told by :func:`credit`:
a child's time is in this process's own measures only once it has ended."""

TIMED = hasattr(signal, "setitimer") and hasattr(signal, "SIGPROF")
"""Whether a child's CPU time can be bounded by the kernel (``ITIMER_PROF``)."""


def now() -> float:
    """Seconds of CPU time used so far by this process (all its threads: clingo's solving too) and by its
    ended children, plus what kept children reported (:func:`credit`)."""
    children = 0.0
    if resource is not None:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        children = usage.ru_utime + usage.ru_stime
    return time.process_time() + children + _credited


def credit(seconds: float) -> None:
    """Count ``seconds`` of CPU time a child that is still alive used for this process's work."""
    global _credited
    _credited += max(seconds, 0.0)


def wait(handle: Any, deadline: float) -> bool:
    """Wait for a clingo solve ``handle`` until it ends (True) or the work clock reaches ``deadline``
    (False). ``handle.wait`` takes wall-clock seconds: each wait lasts what is left of the CPU budget,
    during which the solve can use at most that much CPU, and it is waited for again while time is left."""
    while True:
        remaining = deadline - now()
        if remaining <= 0:
            return bool(handle.wait(0))
        if handle.wait(remaining):
            return True


def arm(budget: float) -> bool:
    """In a child about to do bounded work: have the kernel end it (``SIGPROF``) once it has used
    ``budget`` more seconds of CPU time. False where that cannot be done (the parent then bounds the
    work in wall-clock time)."""
    if not TIMED:
        return False
    with contextlib.suppress(ValueError):  # not the main thread: the disposition is kept
        signal.signal(signal.SIGPROF, signal.SIG_DFL)
    signal.setitimer(signal.ITIMER_PROF, max(budget, 1e-6))
    return True


def disarm() -> None:
    """Stop the timer :func:`arm` set (a kept child, between works)."""
    if TIMED:
        signal.setitimer(signal.ITIMER_PROF, 0)


def ended_by_timer(status: int) -> bool:
    """Whether a child's wait status says the kernel ended it at its CPU budget (:func:`arm`)."""
    return TIMED and os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGPROF
