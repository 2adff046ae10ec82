"""The one audited place where scenario data becomes program text.

Every fact is built by :func:`fact` from checked values only:

* ``str`` → a quoted ASP string with ``\\``, ``"`` and newline escaped (ids can never become syntax);
* :class:`Const` → a symbolic constant, only if it matches ``[a-z][a-z0-9_]*`` (enumerations the
  scenario model has already validated, e.g. State codes and person kinds);
* ``int`` → a number, only inside clingo's 32-bit range (``bool`` is refused);
* :class:`Fn` → a function term of such values.

Money never reaches the logic as an amount to compute with (amounts stay ``Decimal`` in Python; a
comparison gets cents, clamped); dates become day numbers.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

from pyhelpers.base import dates

INT_MIN, INT_MAX = -(2**31), 2**31 - 1
_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")


class Const(str):
    """A symbolic constant (an enumeration value, never user free text)."""

    __slots__ = ()


@dataclass(frozen=True)
class Fn:
    """A function term ``name(args)``."""

    name: str
    args: tuple[Value, ...]


Value = str | int | Const | Fn


@lru_cache(maxsize=65536)
def quote(text: str) -> str:
    """An ASP string literal for ``text`` (memoised: ids recur in every fact of their scenario)."""
    if "\x00" in text:
        raise ValueError("a string with a NUL character cannot become a fact")
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


@lru_cache(maxsize=4096)
def _checked_name(name: str) -> str:
    if not _NAME_RE.match(name):
        raise ValueError(f"not a symbolic constant: {name!r}")
    return name


def term(value: Value) -> str:
    """The ASP text of one checked value."""
    kind = type(value)
    if kind is str:
        return quote(value)
    if kind is Const:
        return _checked_name(value)
    if isinstance(value, bool):
        raise TypeError("booleans are not facts: use a constant yes/no")
    if isinstance(value, int):
        if not INT_MIN <= value <= INT_MAX:
            raise ValueError(f"integer {value} outside clingo's 32-bit range")
        return str(value)
    if isinstance(value, Const):
        return _checked_name(str(value))
    if isinstance(value, str):
        return quote(str(value))
    if isinstance(value, Fn):
        if not _NAME_RE.match(value.name):
            raise ValueError(f"not a function name: {value.name!r}")
        return f"{value.name}({', '.join(term(a) for a in value.args)})"
    raise TypeError(f"cannot turn {type(value).__name__} into a fact")


def fact(name: str, *args: Value) -> str:
    """One fact ``name(args).`` — the only way scenario data becomes program text. Remembered (up to
    :data:`_FACTS_KEPT` of them) by the name, the values and each value's type, so that a constant is never
    taken for the string it equals (a function term's values are not typed that way: one is made anew):
    the variants of a scenario with open facts, one per combination of their values, repeat most facts."""
    key = (name, args, *map(type, args))
    try:
        text = _FACTS.get(key)
        kept = Fn not in key[2:]
    except TypeError:  # a value that cannot be one (unhashable): refused below, as any other
        text, kept = None, False
    if text is None:
        try:
            _checked_name(name)
        except ValueError:
            raise ValueError(f"not a predicate name: {name!r}") from None
        text = f"{name}({', '.join(map(term, args))})."
        if kept:
            if len(_FACTS) >= _FACTS_KEPT:
                _FACTS.clear()
            _FACTS[key] = text
    return text


_FACTS: dict[tuple[object, ...], str] = {}
_FACTS_KEPT = 65536
"""At most this many facts are remembered (:func:`fact`; at most ~10 MB): then they are forgotten at once."""


def _fact_text(text: str) -> None:
    """Raise ValueError unless ``text`` is a fact made by :func:`fact`."""
    if not (text.endswith(").") and _checked_name(text[: text.index("(")])):
        raise ValueError(f"not a fact: {text!r}")


def open_option(sid: str, fact_no: int, value_no: int) -> str:
    """``_option(sid, F, V).``: alternative V of the scenario's open fact F (issue 7)."""
    return f"_option({quote(sid)}, {term(fact_no)}, {term(value_no)})."


def conditional_fact(text: str, sid: str, conditions: tuple[tuple[int, int], ...],
                     absent: tuple[tuple[int, int], ...] = ()) -> str:
    """The fact ``text`` (made by :func:`fact`) holding only where every open fact F has its alternative V
    for the pairs (F, V) of ``conditions`` and none of the pairs of ``absent``:
    ``f(...) :- _value(sid, F, V), ..., not _value(sid, F2, V2), ...`` (issue 7)."""
    _fact_text(text)
    if not conditions and not absent:
        return text
    body = [f"_value({quote(sid)}, {term(f)}, {term(v)})" for f, v in conditions]
    body += [f"not _value({quote(sid)}, {term(f)}, {term(v)})" for f, v in absent]
    return f"{text[:-1]} :- {', '.join(body)}."


def ranged_fact(text: str, sid: str, fact_no: int, low: int, high: int) -> str:
    """The fact ``text`` (made by :func:`fact`) holding only where open fact ``fact_no`` has one of its
    alternatives ``low`` to ``high``: ``f(...) :- _value(sid, F, V), low <= V, V <= high.`` (one rule for
    a run of alternatives, instead of one per alternative)."""
    _fact_text(text)
    return f"{text[:-1]} :- _value({quote(sid)}, {term(fact_no)}, V), {term(low)} <= V, V <= {term(high)}."


def day(d: date) -> int:
    return dates.day_number(d)


Add = Callable[[str], None]
"""Where a module's facts go (the list of the scenario's facts, appended to)."""


def money_cents(amount: Decimal) -> int:
    """An amount in cents for a comparison in the logic, clamped to clingo's range (never multiplied
    there: any amount above the clamp is above every threshold the treaties set)."""
    cents = int((amount * 100).to_integral_value(rounding=ROUND_HALF_UP))
    return max(INT_MIN, min(INT_MAX, cents))


def given_yes_no(sid: str, add: Add, subject: str, attribute: Value, pred: str, value: object) -> None:
    """A true/false/unknown attribute: ``given`` (and ``unknown``), and ``pred(S, X, yes|no)``."""
    if record_given(sid, add, subject, attribute, value):
        add(fact(pred, sid, subject, Const("yes" if value else "no")))


def record_given(sid: str, add: Add, subject: str, attribute: Value, value: object) -> bool:
    """Record that ``attribute`` of ``subject`` was given (``given``; also ``unknown`` when given as
    unknown). True when it was given as a real value; nothing is recorded when it was not given."""
    if value is None:
        return False
    attr = Const(attribute) if isinstance(attribute, str) and not isinstance(attribute, Const) else attribute
    add(fact("given", sid, subject, attr))
    if value == "unknown":
        add(fact("unknown", sid, subject, attr))
        return False
    return True




def defaulted(sid: str, add: Add, subject: str, attribute: str, strict: bool, *facts: str) -> None:
    """An attribute the scenario does not give, for which the format documents a default: unless
    ``strict``, the default ``facts`` stand for it, with ``given`` and ``defaulted`` (the rules show it as
    an assumption where it matters); with ``strict`` nothing (the rules find it missing)."""
    if strict:
        return
    add(fact("given", sid, subject, Const(attribute)))
    add(fact("defaulted", sid, subject, Const(attribute)))
    for f in facts:
        add(f)


def given_value(sid: str, add: Add, subject: str, attribute: Value, pred: str, value: object) -> None:
    """An enumerated attribute: ``given`` (and ``unknown``), and ``pred(S, X, value)`` when it is known."""
    if record_given(sid, add, subject, attribute, value):
        add(fact(pred, sid, subject, Const(str(value))))


def given_values(sid: str, add: Add, subject: str, attribute: Value, pred: str, values: object,
                 ids: bool = False) -> None:
    """A list attribute: ``given`` (and ``unknown``), and ``pred(S, X, v)`` for each value when it is known
    (symbolic constants, or with ``ids`` the ids of persons or places as strings)."""
    if record_given(sid, add, subject, attribute, values):
        assert isinstance(values, list)
        for v in sorted(set(values)):
            add(fact(pred, sid, subject, v if ids else Const(v)))
