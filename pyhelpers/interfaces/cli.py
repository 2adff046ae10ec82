"""The ``treaty`` command line. The only module that prints.

Exit codes: 0 ok; 1 an ``expect:`` block did not match; 2 bad input; 3 a problem in the rule files; 4 an
internal error (an exception no input should cause: a short message asking for a report, without a
traceback unless the environment variable ``TREATY_DEBUG`` is set to 1).
"""

from __future__ import annotations

import contextlib
import datetime
import gc
import json
import logging
import os
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from pyhelpers.base import cache
from pyhelpers.base import lang as languages
from pyhelpers.base.errors import InputError, InternalError, TreatyLogicError
from pyhelpers.base.lang import family
from pyhelpers.base.messages import translate
from pyhelpers.base.version import package_version, pip_extra
from pyhelpers.engine.catalog import article_files, treaties
from pyhelpers.engine.expect import Mismatch
from pyhelpers.engine.results import ScenarioResult
from pyhelpers.engine.solve import Checker, loaded
from pyhelpers.interfaces import documents, helptext
from pyhelpers.interfaces.progress import progress_bar
from pyhelpers.output import render
from pyhelpers.scenario import Scenario, json_schema, load_file

if TYPE_CHECKING:
    from pyhelpers.explain.explainer import Step

F = TypeVar("F", bound=Callable[..., Any])
FORMAT_HELP = "output format"
"""The help of ``--format``, the same on every command (``rates`` adds what its xlsx form needs)."""
FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text",
                      show_default=True, help=FORMAT_HELP)
TEXT_OR_JSON = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                            show_default=True, help=FORMAT_HELP)
LANG = click.option("--lang", type=click.Choice(["en", "pt", "pt-BR", "pt-PT"]), default="en",
                    show_default=True, callback=lambda _ctx, _param, value: languages.normalize(value),
                    help="language of human-readable output (pt = pt-BR: Brazilian Portuguese; pt-PT: European)")
STRICT = click.option("--strict", is_flag=True,
                      help="no default stands for a fact the law needs: each is reported missing, not assumed")
FULL = click.option("--full", is_flag=True, help="the whole derivation of each conclusion, engine steps included "
                    "(default: the legal argument, provision by provision; with --why-not, the whole analysis "
                    "instead of each rule's first failed condition)")
TIME_LIMIT = click.option("--time-limit", "time_limit", type=click.FloatRange(min=0), default=10.0, show_default=True,
                          help="seconds of CPU time (of the process and its children, not wall-clock time: a loaded "
                          "machine gives the same answer) for the work on one scenario, grounding included (check: "
                          "per slice of 1,000 items in a larger one, and as much again, a limit of their own, for "
                          "the decisive lines); an answer the limit cut says INCOMPLETE first")


JOBS = click.option("--jobs", "jobs_alias", type=click.IntRange(min=1), default=None, hidden=True,
                    help="deprecated: --workers")


def _workers(workers: int | None, jobs: int | None) -> int | None:
    """``--workers``, or the deprecated ``--jobs`` (said once on stderr) when only it is given."""
    if jobs is not None:
        click.echo("warning: --jobs is deprecated: use --workers", err=True)
    return workers if workers is not None else jobs


DEBUG = "TREATY_DEBUG"
"""Set to 1, an internal error also prints its traceback."""


def internal_error(err: Exception) -> InternalError:
    """An unexpected exception as the error it is: treaty-logic's own fault, to report."""
    what = f"{type(err).__name__}: {err}"
    what = what if len(what) <= 200 else what[:197] + "..."
    debug = "" if os.environ.get(DEBUG) == "1" else f"; {DEBUG}=1 shows the traceback"
    return InternalError(f"internal error, please report it with the input that caused it ({what}{debug})")


PIPE_CLOSED = 141
"""The exit code when the reader of the output closed the pipe: a shell's for a process ended by SIGPIPE."""


def _quiet_stdout() -> None:
    """Standard output to the null device: what is left to flush at exit has no reader (Python's advice for a
    closed pipe, which would otherwise be reported again at exit)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no file descriptor (a test's captured output): nothing to flush there
        pass


def error_line(err: TreatyLogicError, lang: str) -> str:
    """``error: ...`` in the language of the command's ``--lang`` (``erro: ...`` in Portuguese)."""
    return f"{'erro' if family(lang) == 'pt' else 'error'}: {err.render(lang)}"


def _handle_errors(func: F) -> F:
    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        lang = str(kwargs.get("lang") or "en")  # the options are parsed: an error speaks the command's --lang
        try:
            return func(*args, **kwargs)
        except TreatyLogicError as err:
            click.echo(error_line(err, lang), err=True)
            sys.exit(err.exit_code)
        except (click.ClickException, click.exceptions.Abort, click.exceptions.Exit):
            raise  # click's own: usage errors (2), an abort, an exit
        except BrokenPipeError:  # the reader closed the pipe (``treaty list | head -1``): no error of ours
            _quiet_stdout()
            sys.exit(PIPE_CLOSED)
        except Exception as err:  # a traceback is never the answer to input: exit 4, not a crash
            if os.environ.get(DEBUG) == "1":
                traceback.print_exc()
            internal = internal_error(err)
            click.echo(error_line(internal, lang), err=True)
            sys.exit(internal.exit_code)
        finally:
            for note in cache.notices():  # a cache folder or entry not trusted: recomputed, said once
                click.echo(f"warning: {note}", err=True)

    return wrapper  # type: ignore[return-value]


class _Root(click.Group):
    """``treaty``: knows whether it is the whole process (its arguments read from ``sys.argv``, as the ``treaty``
    script and ``python -m pyhelpers.interfaces.cli`` call it) or is called by a program that goes on after it
    (click's ``CliRunner`` in the tests: arguments given)."""

    whole_process = False
    argv: tuple[str, ...] = ()
    """The arguments of the command line (the language of a usage error is read from its ``--lang``)."""

    def main(self, args: Sequence[str] | None = None, *rest: Any, **extra: Any) -> Any:
        _Root.whole_process = args is None
        _Root.argv = tuple(sys.argv[1:] if args is None else args)
        helptext.localize(self, usage_lang(_Root.argv))  # the help in the --lang given anywhere, else the environment's
        return super().main(args, *rest, **extra)

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as err:
            raise _in_language(err, usage_lang(_Root.argv)) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as err:  # a command's options and arguments (parsed as it is invoked)
            raise _in_language(err, usage_lang(_Root.argv)) from None


def usage_lang(argv: Sequence[str]) -> str:
    """The language of a usage error: the command line's ``--lang`` where it gives a valid one, else the language
    of the help (:func:`helptext.help_lang`: the environment's), which the error points to."""
    for n, arg in enumerate(argv):
        if arg == "--":
            break
        value = arg.partition("=")[2] if arg.startswith("--lang=") else \
            argv[n + 1] if arg == "--lang" and n + 1 < len(argv) else None
        if value in ("en", "pt", "pt-BR", "pt-PT"):
            return languages.normalize(value)
    return helptext.help_lang()


class _UsageError(click.UsageError):
    """Click's usage error in ``lang``: click writes its own words in English ("Usage:", "Error: Invalid value
    for ..."); they are translated as the tool's own messages are (:func:`pyhelpers.base.messages.translate`),
    the values quoted (an option's name, the value given, the choices) kept as written."""

    def __init__(self, err: click.UsageError, lang: str) -> None:
        super().__init__(err.format_message(), err.ctx)
        self.original = err
        self.lang = lang

    def format_message(self) -> str:
        return translate(self.message, self.lang)

    def show(self, file: Any = None) -> None:
        import io

        shown = io.StringIO()
        self.original.show(shown)
        click.echo(translate(shown.getvalue().rstrip("\n"), self.lang), file=file, err=file is None)


def _in_language(err: click.UsageError, lang: str) -> click.UsageError:
    return err if family(lang) == "en" or isinstance(err, _UsageError) else _UsageError(err, lang)


@click.group(cls=_Root, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_version(), prog_name="treaty")
@click.option("-v", "--verbose", count=True, help="say what is done on stderr (the logger `pyhelpers`): -v "
              "the steps, -vv their details")
@click.option("--lang", "lang", type=click.Choice(["en", "pt", "pt-BR", "pt-PT"]), default=None,
              callback=lambda _ctx, _param, value: languages.normalize(value) if value else None,
              help="language of the help and, for each command that has one, the default of its --lang "
              "(pt = pt-BR: Brazilian Portuguese; pt-PT: European)")
@click.pass_context
def main(ctx: click.Context, verbose: int, lang: str | None) -> None:
    """treaty-logic: Brazil's tax treaties as rules, with cited explanations."""
    _logging(verbose)
    if lang is not None:  # `treaty --lang pt check ...`: the command's --lang unless it gives its own
        group = ctx.command
        assert isinstance(group, click.Group)
        ctx.default_map = {name: {"lang": lang} for name, command in group.commands.items()
                           if any(p.name == "lang" for p in command.params)}


def _logging(verbose: int) -> None:
    """The package's log records (``logging.getLogger("pyhelpers")``) on stderr: warnings only by default,
    the steps with ``-v``, their details with ``-vv``."""
    logger = logging.getLogger(LOGGER)
    level = logging.WARNING if verbose == 0 else logging.INFO if verbose == 1 else logging.DEBUG
    logger.setLevel(level)
    if not any(isinstance(h, _Stderr) for h in logger.handlers):
        handler = _Stderr()
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        logger.addHandler(handler)


LOGGER = "pyhelpers"
"""The package's logger: every module logs under ``pyhelpers.<module>``."""


class _Stderr(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to the ``sys.stderr`` of the moment a record is written (a test runner swaps it)."""

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option("--ask", is_flag=True, help="list only the facts that could change an outcome (not given, "
              "given as unknown, or a judgment to make), most decisive first")
@TIME_LIMIT
@STRICT
@FORMAT
@LANG
@_handle_errors
def check(files: tuple[str, ...], ask: bool, time_limit: float, strict: bool, fmt: str, lang: str) -> None:
    """Decide every income item of the scenario FILES and compare with their expect: blocks (a folder:
    every *.yaml and *.yml file under it, sorted by path)."""
    from pyhelpers.scenario.loading import some_scenario_files

    paths = [str(p) for p in some_scenario_files(files)]
    checker = loaded(Checker(strict=strict))  # the checker a kept child unpickles (checker_for) is this one
    worst = 0
    outputs: list[Any] = []
    log = logging.getLogger(f"{LOGGER}.check")
    many = len(paths) > 1  # a bar over the files; one file: a bar over its items when checked in slices
    from pyhelpers.engine.bounded import kept_child

    # several files: each one's bounded check and decisive lines in one kept child (what it prepares stays)
    with kept_child() if many else contextlib.nullcontext(), \
            progress_bar("treaty check", len(paths), "files", lang, quiet=not many) as advance:
        for path in paths:
            log.info("checking %s", path)
            worst = max(worst, _check_one(checker, path, ask, time_limit, fmt, lang, outputs, not many))
            advance(1)
    if fmt == "json":
        click.echo(render.to_json(documents.check_envelope(outputs, lang)), nl=False)
    sys.exit(worst)


def _check_one(checker: Checker, path: str, ask: bool, time_limit: float, fmt: str, lang: str,
               outputs: list[Any], alone: bool) -> int:
    """``treaty check`` of one file: its text printed (its JSON appended to ``outputs``); the exit code it
    asks for (0, 1 a mismatch, 2 a file that does not load). ``alone``: the command's only file (a bar over
    its items when it is checked in slices)."""
    try:
        scenario = load_file(path)
    except InputError as err:
        click.echo(error_line(err, lang), err=True)
        return err.exit_code
    result, mismatches = _check_with_progress(checker, scenario, path, time_limit, lang, alone)
    if fmt == "json":
        document = documents.check_document(result, mismatches, scenario, path, ask, lang)
        if not ask:  # each State's decisive line, as the text prints it under the outcome (a limit of its own)
            decisive = documents.bounded_decisive_lines(checker, scenario, result, lang, time_limit)
            render.with_decisive(document, result, lang, decisive or {}, decisive is None)
        outputs.append(document)
    elif ask:
        click.echo(render.ask_text(result, lang, scenario), nl=False)
    else:
        decisive = documents.bounded_decisive_lines(checker, scenario, result, lang, time_limit)
        show = render.check_markdown if fmt == "markdown" else render.check_text
        click.echo(show(result, mismatches, lang, decisive or {}, decisive is None), nl=False)
    return 1 if mismatches else 0


def _check_with_progress(checker: Checker, scenario: Scenario, path: str, time_limit: float, lang: str = "en",
                         alone: bool = True) -> tuple[ScenarioResult, list[Mismatch] | None]:
    """``documents.check_answer`` (within the time limit), with a progress bar on a terminal for a scenario
    checked in slices (unless it is not ``alone``: the command's bar counts the files)."""
    from pyhelpers.scenario.limits import SLICE_ITEMS

    sliced = alone and len(scenario.income) > SLICE_ITEMS
    with progress_bar(f"treaty check {path}", len(scenario.income), "items", lang, quiet=not sliced) as advance:
        told = [0]

        def items_done(done: int, _total: int) -> None:
            advance(done - told[0])
            told[0] = done

        return documents.check_answer(checker, scenario, path, time_limit, items_done if sliced else None)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--item", "items", multiple=True, help="income item id (default: every item)")
@click.option("--why-not", "why_not", multiple=True, metavar="QUERY",
              help='a conclusion that does not hold, e.g. \'max_rate("div-2024", 1000)\'')
@FULL
@STRICT
@FORMAT
@LANG
@_handle_errors
def explain(file: str, items: tuple[str, ...], why_not: tuple[str, ...], full: bool, strict: bool, fmt: str,
            lang: str) -> None:
    """Show why: the legal argument for each conclusion, provision by provision with the decisive facts
    (--full: the whole derivation, cited, down to the scenario's facts)."""
    scenario = load_file(file)
    checker = Checker(strict=strict)
    answer = documents.explain_answer(checker, scenario, file, items, why_not, lang,
                                      arguments=fmt == "json" or not full)
    note = render.alternatives_note(scenario, lang, argued=bool(answer.cases))
    if fmt == "json":
        click.echo(render.to_json(documents.explain_document(answer, scenario, file, lang)), nl=False)
    elif answer.why_not is not None and fmt == "markdown":
        click.echo((f"> {note}\n\n" if note else "") + render.why_not_markdown(answer.why_not, lang), nl=False)
    elif answer.why_not is not None:
        click.echo((f"{note}\n\n" if note else "") + render.why_not_text(answer.why_not, lang), nl=False)
    elif answer.arguments is not None and fmt == "markdown":
        click.echo((f"> {note}\n\n" if note else "") + render.argument_markdown(answer.arguments, answer.result, lang,
                                                                                answer.cases), nl=False)
    elif answer.arguments is not None:
        click.echo((f"{note}\n\n" if note else "") + render.argument_text(answer.arguments, answer.result, lang,
                                                                            answer.cases), nl=False)
    elif fmt == "markdown":
        click.echo((f"> {note}\n\n" if note else "") + render.explain_markdown(answer.sections, lang), nl=False)
    else:
        click.echo((f"{note}\n\n" if note else "") + render.explain_text(answer.sections, lang), nl=False)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--goal", required=True, metavar="QUERY",
              help='what should hold, e.g. \'max_rate("div-2024", R), R <= 1000\' (rates in basis points)')
@TIME_LIMIT
@click.option("--full", is_flag=True, help="where no change reaches the goal, the whole why-not analysis, engine "
              "steps included (default: one line per rule that could have given the goal, with the condition that "
              "failed and its figures)")
@FORMAT
@LANG
@_handle_errors
def whatif(file: str, goal: str, time_limit: float, full: bool, fmt: str, lang: str) -> None:
    """The smallest changes to the facts FILE marks changeable (or, if none is marked, to any fact that is not
    an identity) that make the GOAL hold, each with its outcome; or why no change can."""
    scenario = load_file(file)
    checker = Checker()
    answer = documents.whatif_answer(checker, scenario, file, goal, time_limit, lang)
    items = [i.id for i in scenario.income if f'"{i.id}"' in goal] or None
    if fmt == "json":
        click.echo(render.to_json(render.whatif_json(answer.result, answer.blocked, file, lang, answer.why_not)),
                   nl=False)
    else:
        click.echo(render.whatif_text(answer.result, answer.blocked, items, lang,
                                      None if full else answer.why_not), nl=False)


def _interruptible(func: F) -> F:
    """Ctrl-C during ``treaty batch``: exit 130 saying how to continue (no traceback)."""
    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except KeyboardInterrupt:
            parts = Path(f"{kwargs['output']}.parts")  # chunks.parts_folder
            if kwargs.get("engine") in ("dask", "spark"):
                parts = Path(kwargs["output"]) / "_entries"
            lang = str(kwargs.get("lang") or "en")
            click.echo(render.batch_word("interrupted", lang).format(parts=parts) if parts.is_dir() else
                       render.batch_word("interrupted_early", lang), err=True)
            sys.exit(130)

    return wrapper  # type: ignore[return-value]


@main.command()
@click.argument("ledger", type=click.Path(dir_okay=False))
@click.option("--context", "context", required=True, type=click.Path(dir_okay=False),
              help="the group's scenario without income items (persons, holdings, places of business ...)")
@click.option("-o", "--output", "output", required=True, type=click.Path(),
              help="results file: .csv, .jsonl or .parquet (chosen by extension); a folder with --engine dask or "
                   "spark")
@click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True, help="processes")
@click.option("--chunk", type=click.IntRange(min=1), default=None,
              help="rows per chunk: a worker's unit of work and of --resume  [default: 3000, chosen by measurement: "
                   "pyhelpers.interfaces.batch.DEFAULT_CHUNK]")
@click.option("--resume", is_flag=True, help="continue an interrupted run from its journal")
@click.option("--bounds/--no-bounds", default=True,
              help="a row whose outcome a missing fact leaves undetermined gets its bound, as treaty check gives it "
                   "('capped at most ...', cap 'at most ...', cap_at_most_bp): a treaty check per distinct such row "
                   "(the default; --bounds is accepted and changes nothing); --no-bounds: such a row is answered in "
                   "one answer set, 'undetermined' with no cap (faster on ledgers with many such rows)")
@click.option("--engine", type=click.Choice(["local", "dask", "spark"]), default="local", show_default=True,
              help="local: --workers processes here; dask, spark: partitions on a Dask or Spark cluster (-o is then "
                   "a folder ending in .parquet or .csv, with a manifest)")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="with --engine dask: the scheduler's address (tcp://host:8786); default: a local cluster of "
                   "--workers processes")
@click.option("--master", metavar="URL", default=None,
              help="with --engine spark: the Spark master (spark://host:7077, yarn, local[4]); default: spark-submit's "
                   "when it started treaty, else local[--workers]")
@click.option("--partition-rows", type=click.IntRange(min=1), default=4_096, show_default=True,
              help="with --engine dask or spark: rows per partition (one part file)")
@click.option("-q", "--quiet", is_flag=True, help="no progress bar and no summary")
@LANG
@_handle_errors
@_interruptible
def batch(ledger: str, context: str, output: str, workers: int, chunk: int | None, resume: bool, bounds: bool,
          engine: str, scheduler: str | None, master: str | None, partition_rows: int, quiet: bool, lang: str) -> None:
    """Decide every row (one income item each) of the payment LEDGER (.csv, .jsonl, .parquet) against the
    group context, and write the rows with their outcome, cap, withholding finding and provisions."""
    from pyhelpers.interfaces.batch import DEFAULT_CHUNK, run_batch
    from pyhelpers.interfaces.ledger import count_rows
    from pyhelpers.interfaces.progress import shown

    chunk = chunk or DEFAULT_CHUNK

    started = time.perf_counter()
    show = shown(quiet)
    if engine in ("dask", "spark"):
        summary = _batch_on_cluster(engine, ledger, context, output, workers, scheduler, master, partition_rows,
                                    resume, show, lang, bounds)
    else:
        total = count_rows(ledger) if show else None  # only for the bar: not read when none is shown
        with progress_bar("treaty batch", total, "rows", lang, quiet=quiet, rate=True) as advance:
            summary = run_batch(ledger, context, output, workers=workers, chunk_size=chunk, resume=resume,
                                progress=advance if show else None, lang=lang, bounds=bounds)
    if _Root.whole_process:  # the process ends with the run (its output written): the collections at its exit
        gc.freeze()  # need not walk what it loaded and decided (the rule base, the cases and plans kept)
    if summary.nothing_to_resume:
        if not quiet:
            note = "nothing_dask" if engine in ("dask", "spark") else "nothing"
            click.echo(render.batch_word(note, lang).format(out=output), err=True)
        return
    if not quiet:
        click.echo(render.batch_summary(output, summary.rows, time.perf_counter() - started, summary.by_status,
                                        summary.resumed_chunks, summary.redone_chunks, engine != "local", lang),
                   err=True)


def _batch_on_cluster(engine: str, ledger: str, context: str, output: str, workers: int, scheduler: str | None,
                      master: str | None, partition_rows: int, resume: bool, show: bool, lang: str,
                      bounds: bool = True) -> Any:
    """``treaty batch --engine dask|spark``: a bar for the rows and one for each partition in flight (Dask
    tells when a partition is submitted; Spark only when it is done)."""
    from pyhelpers.interfaces import cluster

    def run(progress: cluster.Progress | None) -> Any:
        if engine == "spark":
            from pyhelpers.interfaces.spark import run_spark

            return run_spark(ledger, context, output, master=master, workers=workers, partition_rows=partition_rows,
                             resume=resume, progress=progress, lang=lang, bounds=bounds)
        # a process that ends with the run freezes what it has loaded (the rules, Dask) when the cluster is ready:
        # its collections, the last ones at its exit included, need not walk them again
        return cluster.run_dask(ledger, context, output, scheduler=scheduler, workers=workers,
                                partition_rows=partition_rows, resume=resume, progress=progress, lang=lang,
                                ready=gc.freeze if _Root.whole_process else None, bounds=bounds)

    if not show:
        return run(None)
    from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from pyhelpers.interfaces.ledger import count_rows

    rows_in_all = count_rows(ledger)  # the bar's total (None: not known, no time remaining)
    bar = Progress(TextColumn("[bold]{task.description}"), BarColumn(bar_width=None),
                   TextColumn("{task.completed:,}" + ("/{task.total:,.0f}" if rows_in_all is not None else "")
                              + " rows"), TimeElapsedColumn(), TimeRemainingColumn(), transient=True)
    in_flight: dict[int, TaskID] = {}
    with bar:
        total = bar.add_task(f"treaty batch ({engine})", total=rows_in_all)

        def progress(event: str, index: int, rows: int) -> None:
            if event == "submitted":
                in_flight[index] = bar.add_task(f"  partition {index}", total=rows)
            elif event == "resumed":  # committed by an earlier run: counted done, not in the time remaining
                bar.update(total, completed=bar.tasks[0].completed + rows)
            else:
                task = in_flight.pop(index, None)
                if task is not None:
                    bar.remove_task(task)
                bar.update(total, advance=rows)

        return run(progress)


@main.command(name="explain-row")
@click.argument("ledger", type=click.Path(dir_okay=False))
@click.option("--context", "context", required=True, type=click.Path(dir_okay=False),
              help="the group's scenario without income items")
@click.option("--row", "row_id", required=True, help="the row's id")
@FULL
@FORMAT
@LANG
@_handle_errors
def explain_row(ledger: str, context: str, row_id: str, full: bool, fmt: str, lang: str) -> None:
    """Re-run one row of a LEDGER with explanations (as `treaty explain` does for a scenario): its result, then
    the legal argument (--full: the whole derivation)."""
    from pyhelpers.interfaces.batch import find_row, load_batch_context, row_scenario

    ctx = load_batch_context(context, ledger)
    scenario = row_scenario(ctx, find_row(ledger, row_id))
    source = f"{ledger} row {row_id}"
    if fmt != "json":  # the heading in the language of the output; JSON's source stays the machine's
        source = render.label("ledger_row", lang).format(ledger=ledger, row=row_id)
    answer = documents.explain_answer(ctx.checker, scenario, source, (row_id,), (), lang, item_field="--row",
                                      arguments=fmt == "json" or not full)
    result = answer.result if answer.result is not None else ctx.checker.check(scenario, source=source)
    if fmt == "json":
        document = documents.explain_document(answer, scenario, ledger, lang)
        click.echo(render.to_json({"source": document.pop("source"), "result": render.check_json(result, None, lang),
                                   **document}), nl=False)
    elif answer.arguments is not None and fmt == "markdown":
        click.echo(render.check_markdown(result, None, lang) + "\n"
                   + render.argument_markdown(answer.arguments, result, lang), nl=False)
    elif answer.arguments is not None:
        click.echo(render.check_text(result, None, lang) + "\n" + render.argument_text(answer.arguments, result, lang),
                   nl=False)
    elif fmt == "markdown":
        click.echo(render.check_markdown(result, None, lang) + "\n" + render.explain_markdown(answer.sections, lang),
                   nl=False)
    else:
        click.echo(render.check_text(result, None, lang) + "\n" + render.explain_text(answer.sections, lang), nl=False)


@main.command(name="list")
@FORMAT
@LANG
@_handle_errors
def list_(fmt: str, lang: str) -> None:
    """Treaties, their encoded articles, and the articles missing from the corpus."""
    checker = Checker()
    if fmt == "json":
        click.echo(render.to_json(documents.treaties_document(checker)), nl=False)
        return
    entries = treaties(checker.logic, checker.static_atoms)
    md = fmt == "markdown"
    protocol = render.catalogue_word("protocol", lang)
    for e in entries:
        partner = render.partner_name(e.treaty, lang) or e.banner.get("Partner", "")
        click.echo(f"## {e.treaty} — {partner}\n" if md else f"{e.treaty}  {partner}")
        caveat = render.caveat_text(e.treaty, lang)  # the partner the corpus's text does not name, said once
        if caveat:
            click.echo(f"> {caveat}\n" if md else f"  {caveat}")
        statuses = ("encoded", "pending", "missing", "procedural")
        width = max(len(render.catalogue_word(st, lang)) for st in statuses) + 2
        for status in statuses:
            arts = e.by_status(status)
            if not arts:
                continue
            if status == "encoded":
                names = "; ".join(f"{a.label(protocol)} "
                                  f"{a.titles.get(languages.family(lang), a.titles.get('pt', ''))}".strip()
                                  for a in arts)
            else:
                names = ", ".join(a.label(protocol) for a in arts)
            word = render.catalogue_word(status, lang)
            click.echo(f"- **{word}**: {names}" if md else f"  {word + ':':{width}} {names}")
            if status == "procedural":
                for a in arts:
                    why, prov = a.reason(lang), render.provision_words(a.provision, lang)
                    click.echo(f"  - {prov}: {why}" if md else f"    {prov}: {why}")
        for note in e.notes_in(lang):
            word = render.catalogue_word("note", lang)
            click.echo(f"- {word}: {note}" if md else f"  {word}: {note}")
        click.echo("")


@main.command()
@click.argument("treaty")
@click.argument("article", nargs=-1, required=True)
@TEXT_OR_JSON
@LANG
@_handle_errors
def show(treaty: str, article: tuple[str, ...], fmt: str, lang: str) -> None:
    """The text of an article (e.g. `xx-yy 10` or `xx-yy Protocol 9` of a treaty xx-yy) and the rules that
    encode it (--format json: the quoted sentences, each with its rules)."""
    art = " ".join(article)
    for word in {render.catalogue_word("protocol", x) for x in languages.LANGS}:  # `Protocolo 9` as listed under pt
        if art.startswith(f"{word} "):
            art = f"{render.catalogue_word('protocol', 'en')}{art[len(word):]}"
    checker = Checker()
    if fmt == "json":
        click.echo(render.to_json(documents.article_document(checker, treaty, art)), nl=False)
        return
    files = article_files(checker.logic, treaty, art)
    if not files:
        entry = next((e for e in treaties(checker.logic, checker.static_atoms) if e.treaty == treaty), None)
        a = next((x for x in entry.articles if x.number == art), None) if entry else None
        if a is None:
            raise InputError(f"{treaty} {art}: expected an article of {treaty} (see `treaty list`)")
        key = {"missing": "missing_text", "procedural": "procedural_text"}.get(a.status, "pending_text")
        click.echo(render.catalogue_word(key, lang).format(prov=render.provision_words(a.provision, lang),
                                                          reason=a.reason(lang)))
        return
    for lf in files:
        b = lf.banner
        entry = next((e for e in treaties(checker.logic, checker.static_atoms) if e.treaty == treaty), None)
        art_entry = next((a for a in entry.articles if a.number == art), None) if entry else None
        title = art_entry.titles.get(languages.family(lang)) if art_entry else None
        status = art_entry.status if art_entry else ""
        shown = render.catalogue_word(f"article_{status}", lang) if status else status
        click.echo(f"{b.get('Treaty')} {b.get('Article')} — {title or b.get('Title')} [{shown}]")
        click.echo(f"{lf.relpath}\n{render.catalogue_word('source', lang)}: {b.get('Source')}\n")
        for line in lf.source.splitlines():
            if line.startswith("%|"):
                click.echo("\n§ " + line[2:].strip())
            elif line.startswith("%@"):
                click.echo(f"  {render.catalogue_word('rule', lang)} " + line[2:].strip())
            elif line.strip() and not line.startswith("%"):
                click.echo("    " + line)


@main.command()
@click.argument("treaty")
@click.argument("item_type", metavar="TYPE")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="the file to write (default: standard output); an existing file is never replaced")
@_handle_errors
def init(treaty: str, item_type: str, output: str | None) -> None:
    """A commented scenario of TREATY with one income item of TYPE to start from: it loads and checks as
    it is, and lists, commented out, every fact the item may give."""
    from pyhelpers.base.errors import OutputError
    from pyhelpers.scenario.starter import starter

    text = starter(treaty, item_type)
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        with open(output, "x", encoding="utf-8") as fh:
            fh.write(text)
    except FileExistsError:
        raise OutputError(f"{output}: expected a new file, found one already there: choose another -o") from None
    except OSError as err:
        raise OutputError(f"{output}: expected a file that can be written, found {err.strerror}: choose "
                          "another -o") from None
    click.echo(f"wrote {output}: fill it in, then `treaty check {output}`", err=True)


@main.command()
@_handle_errors
def schema() -> None:
    """Print the JSON Schema of the scenario format (for editors)."""
    click.echo(json.dumps(json_schema(), indent=2, ensure_ascii=False))


@main.command()
@click.argument("treaty", nargs=-1)
@click.option("--format", "fmt", type=click.Choice(["markdown", "csv", "json", "xlsx"]), default="markdown",
              show_default=True, help=f"{FORMAT_HELP} (xlsx needs the xlsx extra)")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="write to this file (required for xlsx unless stdout is redirected)")
@click.option("--on", "on", metavar="YYYY-MM-DD", default=None,
              help="the day each item is paid and the answers evaluated (default: the rules' own, in the preamble)")
@LANG
@_handle_errors
def rates(treaty: tuple[str, ...], fmt: str, output: str | None, on: str | None, lang: str) -> None:
    """The source State's limits per type of income of each TREATY (default: all), computed by deciding
    generated situations on both sides of every threshold the rules test."""
    if on is not None:
        try:
            on = datetime.date.fromisoformat(on).isoformat()
        except ValueError:
            raise InputError(f"--on: expected a date YYYY-MM-DD, found {on!r}") from None
    out = documents.rates_answer(Checker(), treaty, fmt, lang, on=on)
    if output is not None:
        with open(output, "wb") as fh:
            fh.write(out if isinstance(out, bytes) else out.encode("utf-8"))
    elif isinstance(out, bytes):
        if sys.stdout.isatty():
            raise InputError("--format xlsx: expected -o FILE or stdout redirected to a file, found a terminal")
        sys.stdout.buffer.write(out)
        sys.stdout.buffer.flush()
    else:
        click.echo(out, nl=False)


# --------------------------------------------------------------------- the second engine (issue 11) ---
@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("query")
@click.option("--engine", type=click.Choice(["prolog", "clingo"]), default="prolog", show_default=True,
              help="SWI-Prolog (goal-directed, tabled) or clingo")
@click.option("--why", is_flag=True, help="print the proof of each answer, cited, as `treaty explain` does")
@TEXT_OR_JSON
@LANG
@_handle_errors
def ask(file: str, query: str, engine: str, why: bool, fmt: str, lang: str) -> None:
    """Every answer to QUERY (e.g. 'max_rate("div-2024", R)') for the scenario FILE."""
    from pyhelpers.engine.query import parse_query
    from pyhelpers.prolog.ask import answers_json, answers_text, ask_clingo, ask_prolog, why_clingo, why_prolog

    scenario = load_file(file)
    checker = Checker()
    q = parse_query(query, checker.logic)
    trees: list[Step | None]
    if engine == "prolog":
        answers = ask_prolog(checker, scenario, q)
        trees = [why_prolog(checker, scenario, a.atom, lang) if why and a.truth == "true" else None for a in answers]
        label = "SWI-Prolog"
    else:
        answers = ask_clingo(checker, scenario, q)
        trees = list(why_clingo(checker, scenario, [a.atom for a in answers], lang)) if why else [None] * len(answers)
        label = "clingo"
    if fmt == "json":
        click.echo(render.to_json(answers_json(file, query, answers, trees, engine)), nl=False)
    else:
        click.echo(answers_text(answers, trees, label, lang), nl=False)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True))
@click.option("--generated", type=click.IntRange(min=0), default=0, metavar="N",
              help="also N random scenarios, many with facts given as unknown")
@click.option("--seed", type=int, default=11, show_default=True, help="seed of the random scenarios")
@click.option("--chunk", type=click.IntRange(min=1), default=250, show_default=True,
              help="scenarios per engine run")
@click.option("--save", type=click.Path(file_okay=False), help="folder to write generated scenarios that disagree to")
@TEXT_OR_JSON
@LANG
@_handle_errors
def crosscheck(paths: tuple[str, ...], generated: int, seed: int, chunk: int, save: str | None, fmt: str,
               lang: str) -> None:
    """Run clingo and SWI-Prolog on every scenario under PATHS (default: scenarios/) and report agreement."""
    from pathlib import Path

    from pyhelpers.prolog.crosscheck import Case, load_cases, report_json, report_text
    from pyhelpers.prolog.crosscheck import crosscheck as run_crosscheck
    from pyhelpers.prolog.generate import generate

    if not paths and Path("scenarios").is_dir():
        paths = ("scenarios",)
    cases = load_cases(paths)
    suite_files = [Path(c.name) for c in cases]
    made, rejected = generate(generated, seed, suite_files) if generated else ([], 0)
    all_cases = cases + [Case(g.name, g.scenario, g.data) for g in made]
    with progress_bar("treaty crosscheck", len(all_cases), "scenarios", lang) as advance:
        report = run_crosscheck(all_cases, Checker(), chunk=chunk, progress=advance)
    if generated:
        report.skipped.append(f"{rejected} random candidate(s) the scenario loader rejected were drawn again")
        if len(made) < generated:
            report.skipped.append(f"{generated - len(made)} generated scenario(s) could not be drawn")
    if save and not report.ok:
        import yaml

        folder = Path(save)
        folder.mkdir(parents=True, exist_ok=True)
        bad = set(report.cases_disagreeing())
        for n, g in enumerate(g for g in made if g.name in bad):
            (folder / f"disagreement-{n}.yaml").write_text(yaml.safe_dump(g.data, sort_keys=False), encoding="utf-8")
    if fmt == "json":
        click.echo(render.to_json(report_json(report, len(cases), len(made))), nl=False)
    else:
        click.echo(report_text(report, len(cases), len(made), lang=lang), nl=False)
    sys.exit(0 if report.ok else 1)

# ------------------------------------------------------------------ regression tooling (issue 10) ---
def _scenario_paths(paths: tuple[str, ...]) -> list[Any]:
    from pathlib import Path

    from pyhelpers.scenario.loading import some_scenario_files

    if not paths:
        if not Path("scenarios").is_dir():
            raise InputError("no PATHS given and no scenarios/ folder here")
        paths = ("scenarios",)
    return some_scenario_files(paths)  # a folder without any is bad input, as for check


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True))
@click.option("--fail-under", nargs=2, type=float, metavar="RULES CONDITIONS",
              help="exit 1 when rules fired % or conditions covered % is below these")
@click.option("--logic", "logic_dir", type=click.Path(file_okay=False, exists=True),
              help="the logic/ folder to measure (default: the installed rule base)")
@click.option("--workers", "jobs", type=click.IntRange(min=1), help="processes (default: the CPUs)")
@JOBS
@TEXT_OR_JSON
@LANG
@_handle_errors
def coverage(paths: tuple[str, ...], fail_under: tuple[float, float] | None, logic_dir: str | None,
             jobs: int | None, jobs_alias: int | None, fmt: str, lang: str) -> None:
    """Rules fired and body conditions seen both true and false by the scenarios under PATHS."""
    jobs = _workers(jobs, jobs_alias)
    from pathlib import Path

    from pyhelpers.engine.program import load_logic
    from pyhelpers.tools.coverage import coverage_json, coverage_text, dumps, run_coverage

    logic = load_logic(Path(logic_dir).resolve()) if logic_dir else load_logic()
    files = _scenario_paths(paths)
    with progress_bar("treaty coverage", len(files), "scenarios", lang) as advance:
        cov = run_coverage(logic, files, jobs, progress=advance)
    click.echo(dumps(coverage_json(cov)) if fmt == "json" else coverage_text(cov, lang), nl=False)
    total = cov.total()
    if fail_under and (total.rules_pct < fail_under[0] or total.conditions_pct < fail_under[1]):
        click.echo(f"coverage below --fail-under: rules {total.rules_pct:.1f}% (min {fail_under[0]}), "
                   f"conditions {total.conditions_pct:.1f}% (min {fail_under[1]})", err=True)
        sys.exit(1)


@main.command()
@click.option("--base", required=True, help="git revision (the whole package: its Python layer and its rules), "
              "or a folder of logic/ (or holding logic/: its rules with this Python layer)")
@click.option("--head", default=None, help="a folder of logic/ to compare with (default: this package)")
@click.argument("paths", nargs=-1, type=click.Path(exists=True))
@TEXT_OR_JSON
@LANG
@_handle_errors
def diff(base: str, head: str | None, paths: tuple[str, ...], fmt: str, lang: str) -> None:
    """Every answer of the scenarios under PATHS (default: scenarios/) that differs between two versions:
    a git revision of the whole package and this one, or two rule bases with this Python layer."""
    from pathlib import Path

    from pyhelpers.base.rulebase import logic_dir as installed
    from pyhelpers.tools.coverage import dumps
    from pyhelpers.tools.diff import diff_outcomes, diff_package, diff_text, logic_at, tempdir

    files = _scenario_paths(paths)
    with tempdir() as tmp, progress_bar("treaty diff", len(files), "scenarios", lang) as advance:
        if head is None and not Path(base).is_dir():
            changes = diff_package(base, files, Path(tmp), progress=advance)
        else:
            old = logic_at(base, Path(tmp))
            new = logic_at(head, Path(tmp)) if head else installed()
            changes = diff_outcomes(old, new, files, progress=advance)
    if fmt == "json":
        click.echo(dumps({"scenarios": len(files), "changes": [c.to_dict() for c in changes]}), nl=False)
    else:
        click.echo(diff_text(changes, len(files), lang), nl=False)
    sys.exit(1 if changes else 0)  # as `diff`: 1 when an answer changed


# ----------------------------------------------------------------- treaty mutate (issue 10) ---
@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True))
@click.option("--treaty", default=None,
              help="the folder of logic/ to mutate (`core`: logic/core/, against every scenario); required unless "
              "the rule base has one treaty")
@click.option("--max", "max_mutants", type=click.IntRange(min=1), metavar="N",
              help="a deterministic random sample of N mutants (default: every mutant)")
@click.option("--seed", type=int, default=1, show_default=True, help="seed of the sample")
@click.option("--workers", "jobs", type=click.IntRange(min=1), default=None, help="processes  [default: 1]")
@JOBS
@click.option("--time-budget", type=click.FloatRange(min=0), metavar="SECONDS",
              help="stop after this long; the mutants not run are reported as skipped")
@click.option("--probes", type=click.IntRange(min=0), default=100, show_default=True,
              help="generated scenarios that tell surviving from equivalent-suspected mutants")
@click.option("--logic", "logic_dir", type=click.Path(file_okay=False, exists=True),
              help="the logic/ folder to mutate (default: the installed rule base)")
@click.option("--save", type=click.Path(file_okay=False),
              help="folder to write the probes that tell a surviving mutant apart to (candidate scenarios)")
@TEXT_OR_JSON
@LANG
@_handle_errors
def mutate(paths: tuple[str, ...], treaty: str | None, max_mutants: int | None, seed: int, jobs: int | None,
           jobs_alias: int | None, time_budget: float | None, probes: int, logic_dir: str | None, save: str | None,
           fmt: str, lang: str) -> None:
    """Mutants of the rules (numbers ±1, comparisons flipped, conditions dropped, negations removed),
    each run on the scenarios under PATHS (default: scenarios/<treaty>/, or scenarios/ for core)."""
    jobs = _workers(jobs, jobs_alias) or 1
    from pathlib import Path

    from pyhelpers.base.rulebase import treaty_folders
    from pyhelpers.engine.program import load_logic
    from pyhelpers.tools.coverage import dumps
    from pyhelpers.tools.mutate import report_json, report_text, run_mutation

    if treaty is None:
        folders = treaty_folders(Path(logic_dir).resolve()) if logic_dir else treaty_folders()
        if len(folders) != 1:
            raise InputError(f"--treaty: expected the folder of logic/ to mutate (core, {', '.join(folders)}), "
                             "found nothing")
        treaty = folders[0]
    if not paths and treaty != "core" and Path("scenarios", treaty).is_dir():
        paths = (str(Path("scenarios", treaty)),)
    logic = load_logic(Path(logic_dir).resolve()) if logic_dir else load_logic()
    files = _scenario_paths(paths)
    with progress_bar("treaty mutate", None, "mutants", lang) as advance:
        report = run_mutation(logic, treaty, files, max_mutants, seed, jobs, time_budget, probes, progress=advance,
                              planned=advance.total)
    click.echo(dumps(report_json(report)) if fmt == "json" else report_text(report, limit=None, lang=lang), nl=False)
    if save:
        import yaml

        folder = Path(save)
        folder.mkdir(parents=True, exist_ok=True)
        for n, (m, data) in enumerate(report.witnesses()):
            head = f"# tells apart the surviving mutant {m.where}: {m.rule_id}: {m.operator}: {m.description}\n"
            (folder / f"survivor-{n}.yaml").write_text(head + yaml.safe_dump(data, sort_keys=False, allow_unicode=True),
                                                       encoding="utf-8")


# ------------------------------------------------------------ treaty report: HTML (issue 12) ---
@main.command(name="report")
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="the HTML file to write")
@click.option("--why-not", "why_not", multiple=True, metavar="QUERY",
              help='also draw why a conclusion does not hold, e.g. \'max_rate("div-2024", 1000)\'')
@STRICT
@LANG
@_handle_errors
def report_(files: tuple[str, ...], output: str, why_not: tuple[str, ...], strict: bool, lang: str) -> None:
    """Write one self-contained HTML decision report for the scenario FILES: a summary per item, each
    derivation drawn as a graph with the treaty text of every step, the facts and the receipt (a folder:
    every *.yaml and *.yml file under it, sorted by path)."""
    import time
    from pathlib import Path

    from pyhelpers.output.report import find_dot
    from pyhelpers.scenario.loading import some_scenario_files

    started = time.perf_counter()
    checker = Checker(strict=strict)
    loaded = []
    for path in map(str, some_scenario_files(files)):
        scenario = load_file(path)
        loaded.append((path, scenario, Path(path).read_bytes()))
    dot = find_dot()
    with progress_bar("treaty report", len(loaded), "scenarios", lang) as advance:
        page = documents.report_page(checker, loaded, why_not, lang, progress=advance)
    try:
        Path(output).write_bytes(page.encode("utf-8"))
    except OSError as err:
        raise InputError(f"{output}: cannot write the report: {err.strerror or err}") from None
    items = sum(len(s.income) for _, s, _ in loaded)
    click.echo(render.report_summary(str(output), len(loaded), items, len(page.encode("utf-8")),
                                     bool(dot) and 'data-engine="dot"' in page, time.perf_counter() - started, lang))


# ------------------------------------------------------------------- treaty serve: HTTP (issue 25) ---
SERVE_NEEDS = ("fastapi", "uvicorn")
"""The packages of the ``serve`` extra (``pyproject.toml``), named when one is missing."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", type=click.IntRange(min=0, max=65535), default=8000, show_default=True, help="port")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="processes, each with the rule base loaded once and deciding one request at a time")
@click.option("--max-body", type=click.IntRange(min=1), default=None, metavar="BYTES",
              help="largest scenario in a request body [default and most: 1,000,000, the loader's limit]")
@click.option("--max-batch-body", type=click.IntRange(min=1), default=50_000_000, show_default=True, metavar="BYTES",
              help="largest /batch body")
@click.option("--time-limit", "time_limit", type=click.FloatRange(min=0), default=10.0, show_default=True,
              help="largest time_limit a check or whatif request may ask (seconds; also its default)")
@click.option("--explain-time-limit", type=click.FloatRange(min=0), default=60.0, show_default=True,
              help="seconds an explain, why-not or report request may take before it is stopped")
@click.option("--access-log/--no-access-log", default=True, show_default=True, help="log each request")
@_handle_errors
def serve(host: str, port: int, workers: int, max_body: int | None, max_batch_body: int, time_limit: float,
          explain_time_limit: float, access_log: bool) -> None:
    """Serve the commands over HTTP (OpenAPI document at /openapi.json): check, explain, why-not, whatif,
    report, batch, treaties, schema, rates, with the JSON of --format json. Needs the extra: pip install
    '.[serve]' in a clone of treaty-logic."""
    from importlib.util import find_spec

    missing = [name for name in SERVE_NEEDS if find_spec(name) is None]  # the serve extra's packages
    try:
        from pyhelpers.interfaces.serve import Settings, run
    except ImportError as err:  # one of their own dependencies
        missing = missing or [err.name or SERVE_NEEDS[0]]
    if missing:
        raise InputError(f"treaty serve needs {' and '.join(missing)}: {pip_extra('serve')}")
    defaults = Settings()
    if max_body is not None and max_body > defaults.max_body:
        raise click.BadParameter(f"expected at most {defaults.max_body:,} (the loader reads no longer scenario), "
                                 f"found {max_body:,}", param_hint="--max-body")
    run(host, port, workers, Settings(max_body=max_body or defaults.max_body, max_batch_body=max_batch_body,
                                      time_limit=time_limit, explain_time_limit=explain_time_limit),
        access_log=access_log)


helptext.localize(main, helptext.help_lang())  # the environment's language (each command line: _Root.main)


if __name__ == "__main__":
    main()
