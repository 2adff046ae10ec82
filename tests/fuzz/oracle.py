"""The fuzz harness's oracle (issue 26): run one mutant through the loader, bounded in time, and judge it.

A case is one of

* **refused** — the loader raised one of the documented input errors (:class:`ScenarioError` for a
  scenario; for a ledger, :class:`LedgerError`/:class:`BatchError` for the whole file, or a message on
  the row): the expected answer to most mutants;
* **accepted** — then every value the loader took is checked by :func:`documented_violations`, a
  predicate written from the README's "Scenario format" conventions, independently of the models'
  validators: a value accepted against a documented rule is a failure (``accepted-invalid``);
* **crash** — any other exception (a traceback, an :class:`InternalError`);
* **hang** — the case took more than :data:`DEADLINE` seconds of CPU (stopped by a profiling timer; also
  judged on the CPU clock, should the signal come late). CPU time, not wall time: on a machine shared by
  other jobs a niced run waits for its turn, and that wait is not the loader's.
"""

from __future__ import annotations

import atexit
import re
import shutil
import signal
import tempfile
import time
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel

from pyhelpers.base.errors import BatchError, InternalError, ScenarioError
from pyhelpers.interfaces.batch import BatchContext, _parse_row, row_item
from pyhelpers.interfaces.ledger import read_rows
from pyhelpers.scenario import Scenario, load_context, load_file, openfacts
from pyhelpers.scenario.common import YamlFloat

ROOT = Path(__file__).resolve().parent.parent.parent
CONTEXT = ROOT / "tests" / "fixtures" / "batch" / "group.yaml"

DEADLINE = 10.0
"""No case may take longer (seconds of CPU)."""


class Hang(Exception):
    """The case ran past :data:`DEADLINE`."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in the main thread after ``seconds`` of the process's CPU time (SIGPROF; none off
    the main thread, where the case is judged on the clock only)."""

    def fire(signum: int, frame: Any) -> None:
        raise Hang(f"over {seconds} s of CPU")

    try:
        old = signal.signal(signal.SIGPROF, fire)
    except ValueError:  # not the main thread
        yield
        return
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


@dataclass
class Verdict:
    kind: str  # refused | accepted | crash | hang | accepted-invalid
    detail: str = ""
    seconds: float = 0.0

    @property
    def failed(self) -> bool:
        return self.kind in ("crash", "hang", "accepted-invalid")


# ------------------------------------------------------------------ the documented rules ---------

_DECIMAL = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")  # README: digits 0-9, at most one point, no exponent/separators
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")  # README: YYYY-MM-DD (ASCII digits: [0-9], never \d)
_STATE = re.compile(r"[A-Za-z]{2}")  # README: two-letter codes, any case

MAX_AMOUNT_DIGITS = 15  # README: amounts below 10^15
AMOUNT_DECIMALS = 6  # README: at most six decimals
RATE_DECIMALS = 10  # README: an exchange rate, at most ten decimals


def _number_text(raw: Any) -> str | None:
    """The text a number was written as (README: percentages and amounts are read from their text)."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, YamlFloat):
        return raw.text
    if isinstance(raw, int):
        return str(raw)
    if isinstance(raw, str):
        return raw.strip()
    return None


def _percent_violation(raw: Any, model: int) -> str:
    """README: percentages are 0-100 with at most two decimals, written in digits (``24.9``, ``"25%"``)."""
    text = _number_text(raw)
    if text is None:
        return f"a percentage from {type(raw).__name__} {raw!r}"
    if isinstance(raw, str) and text.endswith("%"):
        text = text[:-1].strip()
    if not _DECIMAL.fullmatch(text):
        return f"a percentage written {text[:60]!r}"
    value = Decimal(text)
    if not Decimal(0) <= value <= Decimal(100):
        return f"a percentage out of 0-100: {text[:60]!r}"
    if (value * 100) != (value * 100).to_integral_value():
        return f"a percentage with more than two decimals: {text[:60]!r}"
    if int(value * 100) != model:
        return f"a percentage {text!r} held as {model} basis points"
    return ""


def _decimal_violation(raw: Any, model: Decimal, decimals: int, signed: bool) -> str:
    """README: an exact decimal written as a string (an integer is accepted), digits 0-9, one point at
    most, no exponent or separators, below 10^15, at most six decimals (a rate: ten), at least 0."""
    if isinstance(raw, bool) or not isinstance(raw, int | str) or isinstance(raw, float):
        return f"an amount from {type(raw).__name__} {raw!r}"
    text = str(raw).strip()
    if not _DECIMAL.fullmatch(text):
        return f"an amount written {text[:60]!r}"
    whole, _, fraction = text.lstrip("-").partition(".")
    if len(whole.lstrip("0")) > MAX_AMOUNT_DIGITS:
        return f"an amount of 10^15 or more: {text[:60]!r}"
    if len(fraction) > decimals:
        return f"an amount with more than {decimals} decimals: {text[:60]!r}"
    if not signed and Decimal(text) < 0:
        return f"a negative amount: {text[:60]!r}"
    if Decimal(text) != model:
        return f"an amount {text!r} held as {model}"
    return ""


def _day_violation(raw: Any, model: date) -> str:
    """README: dates are YYYY-MM-DD and must exist; a number, a date with a time or other text is refused."""
    if not isinstance(raw, str):
        return f"a date from {type(raw).__name__} {raw!r}"
    text = raw.strip()
    if not _DAY.fullmatch(text):
        return f"a date written {text[:60]!r}"
    try:
        day = date.fromisoformat(text)
    except ValueError:
        return f"a date that does not exist: {text!r}"
    return "" if day == model else f"a date {text!r} held as {model}"


def _id_violation(text: str) -> str:
    """README: ids are any text of 1-200 characters without control characters (spaces around do not count)."""
    if not 1 <= len(text) <= 200:
        return f"an id of {len(text)} characters"
    bad = [c for c in text if unicodedata.category(c) == "Cc"]
    return f"an id with the control character(s) {bad!r}" if bad else ""


def _marks_of(metadata: Any) -> set[str]:
    """The validators (by name) and the id pattern in a piece of pydantic metadata."""
    out: set[str] = set()
    for m in metadata if isinstance(metadata, list | tuple) else [metadata]:
        func = getattr(m, "func", None)
        if func is not None:
            out.add(func.__qualname__.split(".")[0])
        if "x1f" in str(getattr(m, "pattern", "") or ""):
            out.add("id")
        inner = getattr(m, "metadata", None)
        if isinstance(inner, list):
            out |= _marks_of(inner)
    return out


def _scalar_marks(tp: Any) -> set[str]:
    """The marks of a type's scalar parts (not inside a dict or a list: those are walked with their values)."""
    if get_origin(tp) is Annotated:
        base, *meta = get_args(tp)
        return _scalar_marks(base) | _marks_of(meta)
    if get_origin(tp) in (Union, UnionType):
        return set().union(*(_scalar_marks(a) for a in get_args(tp)))
    return set()


def _container(tp: Any, kind: type) -> tuple[Any, ...] | None:
    """The type arguments of the ``kind`` (dict or list) inside ``tp`` (through Annotated and unions)."""
    origin = get_origin(tp)
    if origin is kind:
        return get_args(tp)
    if origin is Annotated:
        return _container(get_args(tp)[0], kind)
    if origin in (Union, UnionType):
        for a in get_args(tp):
            found = _container(a, kind)
            if found is not None:
                return found
    return None


def documented_violations(model: Any, raw: Any, path: str = "", tp: Any = None, marks: frozenset[str] = frozenset()
                          ) -> list[str]:
    """Every value of an accepted ``model`` whose raw input (``raw``: the data as the YAML loader or the
    ledger reader gave it) breaks a documented rule, as ``path: what``. Which rule applies is read from
    the value the model holds (a bool, a date, a Decimal, a percentage's basis points, a text) and from
    the field's type (a percentage, a State, an id); the rule is checked on what was written."""
    out: list[str] = []

    def bad(what: str) -> None:
        out.append(f"{path or '(root)'}: accepted {what}")

    if isinstance(model, BaseModel):
        if not isinstance(raw, dict):
            bad(f"a block from {type(raw).__name__}")
            return out
        for name, field in type(model).model_fields.items():
            key = field.alias or name
            if key not in raw:
                continue
            sub = f"{path}.{key}" if path else key
            field_marks = frozenset(_scalar_marks(field.annotation) | _marks_of(field.metadata))
            out += documented_violations(getattr(model, name), raw[key], sub, field.annotation, field_marks)
        return out
    if isinstance(model, bool):
        if type(raw) is not bool:  # README: booleans are true or false, nothing else
            bad(f"a boolean from {type(raw).__name__} {raw!r}")
    elif isinstance(model, date):
        found = _day_violation(raw, model)
        if found:
            bad(found)
    elif isinstance(model, Decimal):
        decimals = RATE_DECIMALS if "rate" in ".".join(path.split(".")[-2:]) else AMOUNT_DECIMALS
        found = _decimal_violation(raw, model, decimals, signed=path.startswith("expect"))
        if found:
            bad(found)
    elif isinstance(model, int):
        if "_percent" in marks:
            found = _percent_violation(raw, model)
            if found:
                bad(found)
        elif isinstance(raw, bool):
            bad(f"a number from the boolean {raw!r}")
    elif isinstance(model, str):
        text = raw.strip() if isinstance(raw, str) else None
        if text is None:
            bad(f"a text from {type(raw).__name__} {raw!r}")
        elif text != model and not ("_state" in marks and _STATE.fullmatch(text) and text.lower() == model):
            bad(f"the text {raw[:60]!r} held as {model[:60]!r}")
        elif "id" in marks:
            found = _id_violation(model)
            if found:
                bad(found)
    elif isinstance(model, dict):
        if not isinstance(raw, dict):
            bad(f"a map from {type(raw).__name__}")
            return out
        args = _container(tp, dict) or (Any, Any)
        key_marks = _scalar_marks(args[0])
        states = "_state" in key_marks
        keys: dict[str, Any] = {}
        for k in raw:
            if not isinstance(k, str):
                bad(f"a key from {type(k).__name__} {k!r}")
                continue
            norm = k.strip().lower() if states and _STATE.fullmatch(k.strip()) else k.strip()
            if norm in keys:  # README: each State / id once, whatever its case / the spaces around it
                bad(f"the keys {keys[norm]!r} and {k!r}, one once normalised")
            keys[norm] = k
            if "id" in key_marks:
                found = _id_violation(norm)
                if found:
                    bad(found)
        for k, v in model.items():
            if k in keys:
                out += documented_violations(v, raw[keys[k]], f"{path}.{k}", args[1], frozenset(_scalar_marks(args[1])))
    elif isinstance(model, list | tuple):
        if not isinstance(raw, list) or len(raw) != len(model):
            bad(f"a list from {type(raw).__name__}")
            return out
        inner = (_container(tp, list) or _container(tp, tuple) or (Any,))[0]
        for n, (m, r) in enumerate(zip(model, raw, strict=True)):
            out += documented_violations(m, r, f"{path}[{n}]", inner, frozenset(_scalar_marks(inner)))
    elif isinstance(model, set | frozenset) and not isinstance(raw, list):
        bad(f"a list from {type(raw).__name__}")
    return out


# ---------------------------------------------------------------------------------- running ---

def _alternatives_violations(sc: Scenario) -> list[str]:
    """The documented rules checked on a scenario's facts given as alternatives too (``one_of``, ``between``,
    ``changeable``): each alternative as the loader validated it (a range: its first and last values)."""
    out: list[str] = []
    for f in sc.open_facts:
        values = (f.values[0], f.values[-1]) if f.ranged else f.values[:20]
        for value in values:
            data = openfacts.substitute(sc._plain_data, {f.path: value})
            model = Scenario.model_validate(data)
            out += [f"{f.name} = {value!r}: {v}" for v in documented_violations(model, data)]
    return out


_WORK = Path(tempfile.mkdtemp(prefix="treaty-fuzz-", dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
"""Where each mutant is written to be read as a file (in memory where the system has /dev/shm)."""
atexit.register(shutil.rmtree, _WORK, True)


def run_scenario(data: bytes) -> Verdict:
    """Load one mutated scenario file (as ``treaty check`` does before solving) and judge it."""
    path = _WORK / "case.yaml"
    path.write_bytes(data)

    def work() -> list[str] | None:
        try:
            sc = load_file(path)
        except ScenarioError:
            return None
        return documented_violations(sc, sc._plain_data) + _alternatives_violations(sc)

    return _judged(work)


def _judged(work: Callable[[], list[str] | None]) -> Verdict:
    """Run ``work`` (None: the input refused with a documented error; else the documented rules the
    accepted input breaks) within the budget and judge it: refused, a hang, a crash (any other exception,
    an InternalError included) or :func:`_accepted`."""
    start = time.process_time()
    try:
        with deadline(DEADLINE):
            found = work()
    except Hang as err:
        return Verdict("hang", str(err), time.process_time() - start)
    except InternalError as err:
        return Verdict("crash", f"InternalError: {err}", time.process_time() - start)
    except Exception as err:
        return Verdict("crash", f"{type(err).__name__}: {err}"[:500], time.process_time() - start)
    if found is None:
        return Verdict("refused", seconds=time.process_time() - start)
    return _accepted(found, start)


def _accepted(found: list[str], start: float) -> Verdict:
    """The verdict on a mutant the loader accepted: a hang past the budget, accepted though documented
    invalid (``found``: the documented rules it breaks), or accepted."""
    seconds = time.process_time() - start
    if seconds > DEADLINE:
        return Verdict("hang", f"{seconds:.1f} s", seconds)
    if found:
        return Verdict("accepted-invalid", "; ".join(found)[:2000], seconds)
    return Verdict("accepted", seconds=seconds)


_SURROGATE = re.compile("[\ud800-\udfff]")
"""A lone surrogate (a byte that is not UTF-8, a JSON escape of half a pair): never kept in a row."""

_CONTEXT: BatchContext | None = None


def batch_context(ledger: str) -> BatchContext:
    """The batch fixture's context (loaded once), for reading rows as ``treaty batch`` does."""
    global _CONTEXT
    if _CONTEXT is None:
        context, treaty = load_context(CONTEXT)
        _CONTEXT = BatchContext(context, treaty, ledger, None)  # type: ignore[arg-type]  # rows are not decided
    return BatchContext(_CONTEXT.context, _CONTEXT.context_treaty, ledger, _CONTEXT.checker)


def run_ledger(data: bytes, suffix: str) -> Verdict:
    """Read one mutated ledger and parse each row as ``treaty batch`` does before deciding, and judge it."""
    path = _WORK / f"ledger{suffix}"
    path.write_bytes(data)
    ctx = batch_context(path.name)

    def work() -> list[str] | None:
        found: list[str] = []
        try:
            for row in read_rows(path):
                if _SURROGATE.search("".join([*row.columns, *row.columns.values(), row.error or ""])):
                    found.append(f"row {row.number}: a lone surrogate kept, which no output (UTF-8) can write")
                parsed = _parse_row(ctx, row)
                if isinstance(parsed, str):
                    continue  # the row's error, with its message: the batch goes on
                _, raw = row_item(row, ctx.context_treaty)
                found += [f"row {row.number}: {v}" for v in documented_violations(parsed[1], raw)]
        except BatchError:
            return None
        return found

    return _judged(work)
