"""The one exception hierarchy of treaty-logic; the CLI maps each class to an exit code."""

from __future__ import annotations

from dataclasses import dataclass

from pyhelpers.base.lang import family
from pyhelpers.base.messages import agreed, parser_problem, translate

FIX = "fix the fields above and run the command again"
"""The last line of a :class:`ScenarioError`'s message."""


class TreatyLogicError(Exception):
    """Base class. ``exit_code`` is what the CLI returns; the message says what to do next."""

    exit_code = 3

    def render(self, lang: str = "en") -> str:
        """The message in ``lang`` (``en``: ``str(self)``, byte for byte; see :mod:`pyhelpers.base.messages`)."""
        return translate(str(self), lang)


class InputError(TreatyLogicError):
    """The user's input (a scenario, a query, an option) is wrong. Exit code 2."""

    exit_code = 2


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file: where, which field, what was expected, what was found."""

    source: str
    line: int | None
    field: str
    expected: str
    found: str
    hint: str = ""

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}" if self.line else self.source
        text = f"{where}: {self.field}: expected {self.expected}, found {self.found}"
        return f"{text} ({self.hint})" if self.hint else text

    def render(self, lang: str = "en") -> str:
        """The problem in ``lang``: in Portuguese the frame (linha, campo, esperado, encontrado) and the
        phrases are translated; the file, the field's path and the values found are not."""
        if family(lang) == "en":
            return str(self)
        where = f"{self.source}, linha {self.line}" if self.line else self.source
        field = translate(self.field, lang) if self.field.startswith("(") else f"campo {self.field}"
        expected, found = translate(self.expected, lang), translate(self.found, lang, value=True)
        if self.field == "(syntax)":  # the YAML parser's own words: said in Portuguese too
            found = parser_problem(self.found, lang)
        text = agreed(f"{where}: {field}: esperado {expected}, encontrado {found}")
        return f"{text} ({translate(self.hint, lang)})" if self.hint else text


class ScenarioError(InputError):
    """A scenario file is malformed; carries every problem found, not only the first."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        lines = [str(p) for p in problems]
        super().__init__("\n".join(lines) + "\n" + FIX)

    def render(self, lang: str = "en") -> str:
        """Every problem in ``lang``, then what to do."""
        if family(lang) == "en":
            return str(self)
        return "\n".join([*(p.render(lang) for p in self.problems), translate(FIX, lang)])

    def __reduce__(self) -> tuple[type[ScenarioError], tuple[list[Problem]]]:
        """Pickled with its problems (raised in a child process doing bounded work, raised again here)."""
        return (type(self), (self.problems,))


class BatchError(InputError):
    """A batch of ledger rows as a whole cannot run (an unreadable ledger, a bad context, a run to resume
    that is missing or was made with another ledger). Exit code 2. A bad row is no such error: it gets
    its message in the results and the batch goes on."""


class LedgerError(BatchError):
    """A ledger cannot be read whole (an unclosed quote, a header that is not UTF-8, a file that is not
    Parquet): the batch stops with the line, and nothing of the run is kept."""


class OutputError(InputError):
    """An output cannot be written where the user asked (no such folder, no permission, a full disk).
    Exit code 2; the message says what to do (another output, free space, then resume)."""


class QueryError(InputError):
    """A query (``--why-not``, ``--goal``) is not an atom of the vocabulary."""


class ExpectationMismatch(TreatyLogicError):
    """An ``expect:`` block did not match the computed outcome. Exit code 1."""

    exit_code = 1


class LogicError(TreatyLogicError):
    """The rule files themselves are broken (parse error, missing annotation). Exit code 3."""


class InternalError(TreatyLogicError):
    """A fault of treaty-logic itself: an exception no input should cause. Never the answer to input, so a
    script can tell it from a mismatch (1) or bad input (2). Exit code 4."""

    exit_code = 4
