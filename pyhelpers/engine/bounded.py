"""Work bounded by a deadline even where it cannot be interrupted.

clingo's solving can be stopped (``handle.wait`` and ``cancel``), its grounding cannot: a program whose
ground size explodes keeps ``Control.ground`` busy in C for minutes, whatever the time limit. So the work
runs in a child process and sends its results through a pipe: what it finds as it goes (``emit``) and
its final value. A deadline is a time of the work clock (:mod:`pyhelpers.base.clock`: CPU time, not
wall-clock time, so that load does not change answers): the child is given what is left of it as a CPU
budget, and the kernel ends it when its CPU time reaches that budget (``ITIMER_PROF``); the parent keeps
what was emitted and the caller says the answer is incomplete. The parent waits in wall-clock time only
as a safety net (:func:`wall_limit`) for a child that neither ends nor uses CPU, and, where the kernel
timer does not exist (Windows), for the budget itself.

The child is forked where the start method is ``fork`` (:mod:`pyhelpers.base.processes`): it inherits
the parsed rule base, nothing is loaded again. Elsewhere (``spawn``: Windows, macOS, or forced) it is
started fresh and the work reaches it pickled (a module-level function with its arguments,
``functools.partial``; a :class:`~pyhelpers.engine.solve.Checker` pickles as its spec and is loaded
once there): the deadline then counts from the moment the child is ready (loading the rule base is not
the work), and starting it is bounded by :data:`STARTUP_LIMIT`. Work that cannot be pickled (a closure)
runs in this process under ``spawn``, its solves bounded; if it ends past the deadline its value is
dropped and the answer is incomplete all the same, so the limit is never silently lost.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import pickle
import signal
import struct
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pyhelpers.base import cache, clock, processes
from pyhelpers.base.errors import TreatyLogicError

T = TypeVar("T")
P = TypeVar("P")
log = logging.getLogger(__name__)


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


WALL_FACTOR = 30.0
WALL_MARGIN = 60.0
"""The safety net in wall-clock time (:func:`wall_limit`): ``WALL_FACTOR`` times the CPU budget plus
``WALL_MARGIN`` seconds."""


def wall_limit(budget: float) -> float:
    """Seconds of wall-clock time the parent waits for a child given ``budget`` seconds of CPU time: a
    safety net far beyond what load makes of the budget where the kernel bounds the child's CPU time,
    the budget itself where it cannot (:data:`pyhelpers.base.clock.TIMED`)."""
    return budget * WALL_FACTOR + WALL_MARGIN if clock.TIMED else budget


def run_bounded(work: Callable[[Callable[[P], None]], T], deadline: float) -> Bounded[T, P]:
    """``work(emit)`` finished by ``deadline`` (a :func:`pyhelpers.base.clock.now` time: CPU time of this
    process and its children), or stopped there. An exception raised by the work is raised here (with the
    child's traceback as a note), or, if it cannot be sent, a :class:`RuntimeError` carrying that
    traceback. In a process that keeps a child (:func:`keep_child`), work that pickles runs in that
    child."""
    started, cpu = time.monotonic(), time.process_time()
    budget = deadline - clock.now()
    if not processes.forking():
        return _run_spawned(work, deadline, budget, started, cpu)
    if budget <= 0:
        return Bounded(None, False, cpu=0.0)
    if _KEPT is not None and (job := _pickled(work)) is not None:
        return _KEPT.run(job, budget, started)
    from multiprocessing import Pipe  # here: a command that bounds nothing does not import it

    receive, send = Pipe(duplex=False)
    pid = os.fork()
    if pid == 0:  # the child: never returns
        status = 1
        try:
            receive.close()
            status = _child(work, send, budget=budget)
        finally:
            os._exit(status)
    send.close()
    out: Bounded[T, P] = Bounded(None, False)
    reaped: list[int] = []

    def timed_out() -> bool:  # the child's pipe closed: whether the kernel ended it at its budget
        _, status, usage = os.wait4(pid, 0)
        reaped.append(status)
        out.cpu = usage.ru_utime + usage.ru_stime
        return clock.ended_by_timer(status)

    try:
        _receive(receive, time.monotonic() + wall_limit(budget), out, timed_out)
        return out
    finally:
        out.wall = time.monotonic() - started
        receive.close()
        if not reaped:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                _, _, usage = os.wait4(pid, 0)
                out.cpu = usage.ru_utime + usage.ru_stime


def _child(work: Callable[[Callable[[Any], None]], Any], send: Any, keep: bool = False,
           budget: float | None = None) -> int:
    """In the child: run ``work``, send what it emits and its value (or its exception); the exit status.
    With ``keep`` (a kept child, :class:`_Kept`) the pipe stays open and the CPU time the work used is
    sent before its value. With ``budget``, the kernel ends the child once the work has used that many
    seconds of CPU time (:func:`pyhelpers.base.clock.arm`)."""
    status = 0
    cpu = time.process_time()
    try:
        if budget is not None:
            clock.arm(budget)
        value = work(lambda part: send.send(("emit", part)))
        if budget is not None:
            clock.disarm()
        if keep:
            send.send(("cpu", time.process_time() - cpu))
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
        if budget is not None:
            clock.disarm()
        if not keep:
            with contextlib.suppress(BaseException):
                send.close()
    return status


# ------------------------------------------------------------------------------ a kept child ---

KEPT_WORKS = 500
"""Works a kept child does before it is replaced by a fresh fork (what it caches stays bounded)."""


class _Kept:
    """A forked child kept between bounded works (:func:`keep_child`): each work reaches it pickled and
    its answer comes back as from a child forked for it; a work that outlasts its deadline, or a child that
    ends, is killed and the next work forks a new one. Forking costs little, but a fresh fork's first
    work pays for the memory pages it writes (tens of ms for a check of a few ms): a server answering
    one request after the other keeps one child warm instead."""

    def __init__(self) -> None:
        self.pid: int | None = None
        self.works = 0
        self.credited = 0.0  # CPU time of this child's works counted in this process (clock.credit)
        self.jobs: Any = None
        self.answers: Any = None

    def _start(self) -> None:
        from multiprocessing import Pipe

        jobs_in, jobs_out = Pipe(duplex=False)
        answers_in, answers_out = Pipe(duplex=False)
        pid = os.fork()
        if pid == 0:  # the child: serves works until its pipe closes; never returns
            global _KEPT
            _KEPT = None  # bounded work inside a work forks its own child
            status = 1
            try:
                jobs_out.close()
                answers_in.close()
                status = _serve_works(jobs_in, answers_out)
            finally:
                os._exit(status)
        jobs_in.close()
        answers_out.close()
        self.pid, self.works, self.jobs, self.answers = pid, 0, jobs_out, answers_in

    def stop(self) -> None:
        if self.pid is None:
            return
        for end in (self.jobs, self.answers):
            with contextlib.suppress(OSError):
                end.close()
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.waitpid(self.pid, 0)
        self.forget()

    def forget(self) -> None:
        """The child ended and was waited for: its CPU time is in this process's children's now."""
        clock.credit(-self.credited)
        self.pid, self.credited = None, 0.0

    def timed_out(self) -> bool:
        """The child's pipe closed: wait for it; whether the kernel ended it at its budget."""
        assert self.pid is not None
        for end in (self.jobs, self.answers):
            with contextlib.suppress(OSError):
                end.close()
        _, status = os.waitpid(self.pid, 0)
        self.forget()
        return clock.ended_by_timer(status)

    def run(self, job: bytes, budget: float, started: float) -> Bounded[Any, Any]:
        if self.pid is None or self.works >= KEPT_WORKS:
            self.stop()
            self._start()
        self.works += 1
        out: Bounded[Any, Any] = Bounded(None, False)
        ended = False  # the child sent the work's value, or the error of its input it raised
        wall = time.monotonic() + wall_limit(budget)
        try:
            self.jobs.send_bytes(struct.pack("d", budget) + job)
            while True:
                remaining = wall - time.monotonic()
                if remaining <= 0 or not self.answers.poll(remaining):
                    break
                try:
                    message = _message(self.answers)
                except WorkerFailed:
                    if self.timed_out():  # ended at its CPU budget: the work is cut
                        break
                    raise
                ended = message[0] in ("done", "error")  # after a crash the child is not reused
                if _handle(message, out):  # raises what the work raised
                    break
        finally:
            out.wall = time.monotonic() - started
            if out.cpu is not None and self.pid is not None:
                clock.credit(out.cpu)
                self.credited += out.cpu
            if not ended:  # past the deadline, the child ended, or this process interrupted: the next work
                self.stop()  # forks anew (a child still at a work must not answer the next one)
        return out


def _serve_works(jobs: Any, send: Any) -> int:
    """A kept child's loop: run each pickled work it receives (:func:`_child`) until its pipe closes."""
    while True:
        try:
            message = jobs.recv_bytes()
        except (EOFError, OSError):
            return 0
        (budget,), job = struct.unpack("d", message[:8]), message[8:]
        try:
            work = pickle.loads(job)
        except BaseException:
            _child(functools.partial(_unpickled, job), send, keep=True)  # raises again: sent as the work's error
            continue
        _child(work, send, keep=True, budget=budget)


def _unpickled(job: bytes, _emit: Callable[[Any], None]) -> Any:
    return pickle.loads(job)


_KEPT: _Kept | None = None


def keep_child() -> None:
    """From now on this process runs its bounded work that pickles in one kept child (:class:`_Kept`),
    where the start method is ``fork``; ``treaty serve``'s workers do, one request at a time."""
    global _KEPT
    if _KEPT is None and processes.forking():
        _KEPT = _Kept()


@contextlib.contextmanager
def kept_child() -> Iterator[None]:
    """:func:`keep_child` for the work of a ``with`` block: the child is stopped at its end, and a process
    that kept none before keeps none after (``treaty check`` over several files, run inside a test
    session or an embedding program, leaves no child behind)."""
    global _KEPT
    before = _KEPT
    keep_child()
    try:
        yield
    finally:
        if before is None and _KEPT is not None:
            _KEPT.stop()
            _KEPT = None


def _pickled(work: Callable[..., Any]) -> bytes | None:
    try:
        return pickle.dumps(work)
    except (pickle.PicklingError, AttributeError, TypeError):
        return None


def _receive(receive: Any, wall: float, out: Bounded[Any, Any], timed_out: Callable[[], bool]) -> None:
    """Read the child's messages into ``out`` until it is done, the kernel ended it at its CPU budget
    (``timed_out``, asked when its pipe closes), or ``wall`` (a :func:`time.monotonic` time) passes."""
    while True:
        remaining = wall - time.monotonic()
        if remaining <= 0 or not receive.poll(remaining):
            return  # past the safety net: the caller kills the child
        try:
            message = _message(receive)
        except WorkerFailed:
            if timed_out():
                return
            raise
        if _handle(message, out):
            return


def _message(receive: Any) -> tuple[str, Any]:
    try:
        kind, payload = receive.recv()
    except EOFError:
        raise WorkerFailed("the process doing the bounded work ended without an answer (killed from "
                           "outside, or out of memory)") from None
    return kind, payload


def _handle(message: tuple[str, Any], out: Bounded[Any, Any]) -> bool:
    """Take one message of the child into ``out`` (raise what it raised); whether the work is done."""
    kind, payload = message
    if kind == "emit":
        out.emitted.append(payload)
        return False
    if kind == "cpu":  # a kept child's measure of the work (a forked one's is read when it ends)
        out.cpu = payload
        return False
    if kind == "done":
        (out.value, notes), out.finished = payload, True
        cache.carry(notes)  # the cache's warnings, said by the parent
        return True
    if kind == "error":
        raise payload
    raised, text = payload
    if isinstance(raised, Exception):  # raised again here, with the child's traceback as a note
        raised.add_note(f"raised in the child process doing bounded work:\n{text}")
        raise raised
    raise RuntimeError(f"the process doing the bounded work failed:\n{text}")


STARTUP_LIMIT = 120.0
"""Seconds a spawned child may take to start and load what the work needs (the rule base) before it is
said to have failed."""


def _spawned_child(work: bytes, send: Any, budget: float) -> None:
    """The entry point of a spawned child: unpickle the work (loading the rule base it names), say it is
    ready, then run it within ``budget`` seconds of CPU time."""
    try:
        job = pickle.loads(work)
    except BaseException:
        _child(lambda _emit: pickle.loads(work), send)  # raises again: sent as the work's error
        return
    send.send(("ready", None))
    _child(job, send, budget=budget)


def _run_here(work: Callable[[Callable[[P], None]], T], deadline: float, started: float, cpu: float
              ) -> Bounded[T, P]:
    """``work`` in this process (it cannot be pickled for a child): if it ends past ``deadline``, its value
    is dropped and it counts as stopped there, as a child killed at the deadline would have."""
    emitted: list[P] = []
    value = work(emitted.append)
    late = clock.now() > deadline
    return Bounded(None if late else value, not late, emitted, time.monotonic() - started, time.process_time() - cpu)


def _run_spawned(work: Callable[[Callable[[P], None]], T], deadline: float, budget: float, started: float,
                 cpu: float) -> Bounded[T, P]:
    """:func:`run_bounded` in a spawned child (module doc); in this process if ``work`` cannot be pickled."""
    try:
        job = pickle.dumps(work)
    except (pickle.PicklingError, AttributeError, TypeError):
        log.info("bounded work that does not pickle runs in this process; a late end counts as cut")
        return _run_here(work, deadline, started, cpu)
    if budget <= 0:
        return Bounded(None, False, cpu=0.0)
    ctx = processes.context()
    receive, send = ctx.Pipe(duplex=False)
    # not a daemon: a pool's worker may start it
    child = ctx.Process(target=_spawned_child, args=(job, send, budget))  # type: ignore[attr-defined]
    child.start()
    send.close()
    out: Bounded[T, P] = Bounded(None, False)
    ready = time.monotonic()
    try:
        if not receive.poll(STARTUP_LIMIT):
            raise WorkerFailed(f"the process doing the bounded work did not start within {STARTUP_LIMIT:g} s")
        first = _message(receive)
        if first[0] != "ready":  # the work could not be unpickled there (its rule base did not load)
            _handle(first, out)
        ready = time.monotonic()
        log.info("bounded work in a spawned child, ready after %.2f s", ready - started)
        def timed_out() -> bool:
            child.join()
            return clock.TIMED and child.exitcode == -signal.SIGPROF

        _receive(receive, ready + wall_limit(budget), out, timed_out)  # the budget counts from the child's start
        return out
    finally:
        out.wall = time.monotonic() - ready
        receive.close()
        child.kill()
        child.join()
