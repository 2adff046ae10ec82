"""Work bounded by a deadline even where it cannot be interrupted.

clingo's solving can be stopped (``handle.wait`` and ``cancel``), its grounding cannot: a program whose
ground size explodes keeps ``Control.ground`` busy in C for minutes, whatever the time limit. So the work
runs in a forked child process (it inherits the parsed rule base, nothing is loaded again) and sends its
results through a pipe: what it finds as it goes (``emit``) and its final value. At the deadline the
parent stops waiting and kills the child, keeping what was emitted; the caller says the answer is
incomplete. Where ``fork`` does not exist the work runs in this process, bounded only between solves.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from pyhelpers.base import cache
from pyhelpers.base.errors import TreatyLogicError

T = TypeVar("T")
P = TypeVar("P")


class WorkerFailed(TreatyLogicError):
    """The child process doing bounded work ended without an answer (killed from outside, out of
    memory). Exit code 3."""


@dataclass
class Bounded(Generic[T, P]):
    """The outcome of :func:`run_bounded`: the value if the work finished, and what it emitted."""

    value: T | None
    finished: bool
    emitted: list[P] = field(default_factory=list)
    wall: float = 0.0
    """Seconds of wall-clock time from the start to the end (or the stop) of the work."""
    cpu: float | None = None
    """Seconds of CPU time the work used (the child's user and system time), where it could be measured."""


def run_bounded(work: Callable[[Callable[[P], None]], T], deadline: float) -> Bounded[T, P]:
    """``work(emit)`` finished by ``deadline`` (a :func:`time.monotonic` time), or stopped there. An
    exception raised by the work is raised here (with the child's traceback as a note), or, if it cannot
    be sent, a :class:`RuntimeError` carrying that traceback."""
    started, cpu = time.monotonic(), time.process_time()
    if not hasattr(os, "fork"):
        emitted: list[P] = []
        value = work(emitted.append)
        return Bounded(value, True, emitted, time.monotonic() - started, time.process_time() - cpu)
    if deadline <= time.monotonic():
        return Bounded(None, False, cpu=0.0)
    from multiprocessing import Pipe  # here: a command that bounds nothing does not import it

    receive, send = Pipe(duplex=False)
    pid = os.fork()
    if pid == 0:  # the child: never returns
        status = 0
        try:
            receive.close()
            value = work(lambda part: send.send(("emit", part)))
            send.send(("done", (value, cache.notices())))
        except TreatyLogicError as err:
            send.send(("error", err))
        except BaseException as err:
            text = traceback.format_exc()
            with contextlib.suppress(BaseException):
                try:
                    send.send(("crash", (err, text)))  # the exception itself, if it pickles
                except Exception:
                    send.send(("crash", (None, text)))
            status = 1
        finally:
            with contextlib.suppress(BaseException):
                send.close()
            os._exit(status)
    send.close()
    out: Bounded[T, P] = Bounded(None, False)
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not receive.poll(remaining):
                return out  # past the deadline: the child is killed below
            try:
                kind, payload = receive.recv()
            except EOFError:
                raise WorkerFailed("the process doing the bounded work ended without an answer (killed from "
                                   "outside, or out of memory)") from None
            if kind == "emit":
                out.emitted.append(payload)
            elif kind == "done":
                (out.value, notes), out.finished = payload, True
                cache.carry(notes)  # the cache's warnings, said by the parent
                return out
            elif kind == "error":
                raise payload
            else:
                raised, text = payload
                if isinstance(raised, Exception):  # raised again here, with the child's traceback as a note
                    raised.add_note(f"raised in the child process doing bounded work:\n{text}")
                    raise raised
                raise RuntimeError(f"the process doing the bounded work failed:\n{text}")
    finally:
        out.wall = time.monotonic() - started
        receive.close()
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            _, _, usage = os.wait4(pid, 0)
            out.cpu = usage.ru_utime + usage.ru_stime
