"""The progress bar of every command that can run over a minute: on stderr, with the work's total, the time
elapsed and the time remaining, only when stderr is a terminal and the command is not ``--quiet``.

The tools do not print: their run functions take a ``progress(n)`` callback, called as work completes
(``n`` scenarios, mutants, rows ... done); a command wraps its run in :func:`progress_bar` and hands the
tool the callback it gives, a no-op when no bar is shown (the output, stdout and stderr, is then the
same bytes as without a bar)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from decimal import Decimal
from typing import TYPE_CHECKING

from pyhelpers.base import formats
from pyhelpers.output.render import progress_word

if TYPE_CHECKING:
    from rich.console import Console

class Advance:
    """``advance(n=1)``: ``n`` more units of the work done; ``advance.total(n)``: the work's total, when it is
    known only once the work has started. Does nothing when no bar is shown."""

    def __init__(self, update: Callable[..., None] | None = None) -> None:
        self._update = update

    def __call__(self, n: int = 1) -> None:
        if self._update is not None:
            self._update(advance=n)

    def total(self, n: int) -> None:
        if self._update is not None:
            self._update(total=n)


def shown(quiet: bool = False) -> bool:
    """Whether a command shows a bar: stderr is a terminal and the command is not quiet."""
    return not quiet and sys.stderr.isatty()


@contextmanager
def progress_bar(label: str, total: int | None, unit: str, lang: str = "en", *, quiet: bool = False,
                 rate: bool = False, console: Console | None = None) -> Iterator[Advance]:
    """A bar labelled ``label`` (a command's name: not translated) counting ``unit`` (a key of
    ``render._PROGRESS``: files, items, scenarios, mutants, rows, in ``lang``) up to ``total`` (None: not
    known, no bar filled nor time remaining), with the time elapsed and the time remaining; with ``rate``,
    the rows per second too. Yields ``advance(n=1)``. Shown on ``console`` when given (a test's), else on
    stderr when :func:`shown`; otherwise ``advance`` does nothing and nothing is written."""
    if console is None:
        if not shown(quiet):
            yield Advance()
            return
        from rich.console import Console

        console = Console(stderr=True)
    from rich.markup import escape
    from rich.progress import (
        BarColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    def number(n: float) -> str:
        return formats.number(Decimal(round(n)), lang)

    word = progress_word(unit, lang)

    class Count(ProgressColumn):
        """``1.234/5.678 linhas``: the numbers in the language's form."""

        def render(self, task: Task) -> Text:
            done = number(task.completed)
            return Text(f"{done}/{number(task.total)} {word}" if task.total is not None else f"{done} {word}")

    class Rate(ProgressColumn):
        """``1,234 rows/s`` over the last seconds (rich's estimate: the first advance, a resumed run's rows
        already done, is not counted)."""

        def render(self, task: Task) -> Text:
            speed = task.speed
            return Text(progress_word("rate", lang).format(rate=number(speed)) if speed is not None else "")

    columns: list[ProgressColumn] = [TextColumn(f"[bold]{escape(label)}[/bold]"), BarColumn(bar_width=None), Count()]
    if rate:
        columns.append(Rate())
    columns += [TimeElapsedColumn(), TimeRemainingColumn()]
    # the output a command writes on stdout meanwhile goes above the bar only when stdout is this terminal too
    bar = Progress(*columns, console=console, transient=True, redirect_stdout=sys.stdout.isatty())
    with bar:
        task = bar.add_task(label, total=total)
        yield Advance(lambda **change: bar.update(task, **change))
