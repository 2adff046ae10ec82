"""Batch checking of payment ledgers: rows in (CSV, JSON Lines or Parquet), one income item per row,
decided against a group context (persons, holdings, places of business ...), rows out with the outcome.

* The context is loaded and validated once; each chunk of rows becomes one scenario per treaty (the
  context plus the chunk's items) decided in one clingo run, so the context's facts are not repeated
  per row and clingo's fixed cost is paid per chunk.
* A bad row never stops the batch: it gets ``status=error`` and a message naming the ledger, the row
  and its line, the column, what was expected and what was found; every good row is processed. That
  holds for a row that cannot even be read (:mod:`.ledger`), for an amount too large to compute with
  exactly (:data:`MAX_AMOUNT`), and for a row whose decision fails unexpectedly (the rows of its group
  are decided one by one; the others go on). Only a problem of the whole ledger (``LedgerError``: an
  unclosed quote ...) stops the batch, and then nothing of the run is kept.
* Each chunk is a partition of the one partition path (:func:`check_partition`, also Dask's): the worker
  that decides it writes it into ``OUT.parts/`` with its journal line (:mod:`.chunks`); the parent reads
  the ledger once, writing its chunks to ``OUT.parts/rows.spool`` while duplicate ids are found through
  temporary files (it holds no row ids), hands each worker where its chunk lies, then joins the chunks
  and renames the result to ``OUT``. ``resume=True`` continues an interrupted run: chunks
  already written are skipped, so no row is duplicated or lost; a resume with another ledger, context,
  rules or chunk size is refused.
  ``OUT.lock`` refuses a second writer of the same output.

Only the CLI prints; progress is reported through a callback.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import hashlib
import itertools
import json
import operator
import os
import re
import shutil
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import clingo
from pydantic import BaseModel

from pyhelpers.base import formats, processes
from pyhelpers.base import lang as languages
from pyhelpers.base.errors import BatchError, LedgerError, OutputError, Problem, TreatyLogicError
from pyhelpers.base.messages import translate
from pyhelpers.base.rulebase import logic_dir
from pyhelpers.base.version import package_version
from pyhelpers.engine.amounts import (
    amount_bases,
    compliance_of,
    max_source_tax_of,
    undetermined_whatever_amounts,
)
from pyhelpers.engine.completion import missing_records, names_a_record
from pyhelpers.engine.fields import named_alike
from pyhelpers.engine.program import load_logic
from pyhelpers.engine.results import FIELD_KINDS, Compliance, Finding, ItemResult, StateOutcome, replaced
from pyhelpers.engine.solve import Case, Checker, Memo, named_row, rebound_for
from pyhelpers.explain import readings
from pyhelpers.facts import compared_gross, item_key
from pyhelpers.interfaces.chunks import (
    JOURNAL,
    JOURNAL_VERSION,
    ChunkStore,
    ChunkWriter,
    Lock,
    PartBytes,
    json_text,
    part_bytes,
    parts_folder,
    results_text,
    sha256_of,
    writing,
)
from pyhelpers.interfaces.ledger import (
    FORMATS,
    MAX_FIELD,
    ORDER,
    RESERVED,
    ROW,
    SPOOL,
    Row,
    Spooled,
    batch_to_rows,
    cell_text,
    column_name,
    duplicate_problem,
    duplicate_rows,
    ledger_format,
    mark_duplicates,
    read_rows,
    readable,
    row_keys,
    spool_partitions,
    spooled_rows,
)
from pyhelpers.output import render
from pyhelpers.scenario import (
    IncomeItem,
    Money,
    Scenario,
    check_consistency,
    load_context,
    validate_item,
    withholding_state,
)
from pyhelpers.scenario.catalogue import Catalogue, catalogue
from pyhelpers.scenario.loading import (
    SHAPE_AMOUNT,
    SHAPE_DAY,
    SHAPE_ID,
    load_context_text,
    own_amount,
    own_day,
    own_id,
    own_rate,
    with_values,
)
from pyhelpers.scenario.reading import read_file

__all__ = [
    "DEFAULT_CHUNK", "FORMATS", "MAX_AMOUNT", "MAX_FIELD", "RESULT_COLUMNS", "TEXT_COLUMNS", "BatchContext",
    "BatchError", "LedgerError", "Row", "Summary", "batch_rows", "decide_rows", "find_row", "ledger_format",
    "load_batch_context", "read_rows", "row_item", "row_scenario", "run_batch",
]

RESULT_COLUMNS = (
    "applicable_treaty", "status", f"outcome_{catalogue().home}", f"outcome_{catalogue().home}_code", "partner_state",
    "outcome_partner", "outcome_partner_code", "cap", "cap_bp", "cap_at_most_bp", "max_source_tax", "tax_due",
    "withholding_finding", "withholding_difference", "entitlement", "provisions", "findings", "findings_code",
    "findings_text", "error",
)
"""The columns a batch adds after each input row's own (documented in docs/guide/batch.md). A ledger with a column
of one of these names is refused before any row is decided (:func:`batch_rows`): the result would replace its cells.
The outcomes, ``cap`` and ``findings`` are written for people, in the run's language (English: as an ``expect:``
block writes them); each has its machine column beside it, the same bytes in every language (``_code``, ``cap_bp``,
``cap_at_most_bp``: :data:`TEXT_COLUMNS`)."""
TEXT_COLUMNS = (f"outcome_{catalogue().home}", "outcome_partner", "cap", "findings", "findings_text", "error")
"""The result columns whose words follow ``--lang``; the others are machine values, the same in every language."""
_RESULT_NAMES = frozenset(RESULT_COLUMNS)

MAX_AMOUNT_DIGITS = 15
MAX_AMOUNT = Decimal(10) ** MAX_AMOUNT_DIGITS
"""Amounts must be below 10^15 (at most 15 digits before the decimal point): amounts are computed as
Decimal with 28 significant digits, and a rate times an amount must stay exact to the smallest unit of
its currency. A larger amount is an error of its row."""

DEFAULT_CHUNK = 3_000
"""Rows per chunk unless ``--chunk`` says otherwise. Each distinct case is decided once per worker
whatever the chunking, but a chunk still pays a clingo run per treaty whose rows bring a new case, a
consistency check and a file: measured on 5,000 realistic rows (one worker, tests/ledger_gen.py, a busy
machine), CPU 5.7 s at 100 rows per chunk, 3.3 s at 500, 2.9 s at 2,000, 2.5 s at 3,000, 2.7 s at 4,000,
2.1 s at 5,000. 3,000 keeps most of the gain while a ledger of 6,000 rows still feeds two workers and an
interrupted run loses at most 3,000 rows' work. Measured again with the per-row work cut (12,000 realistic rows, one
worker, a busy machine, two runs each): 2.9 s at 1,000, 2.5-2.7 s at 2,000, 1.9-2.2 s at 3,000, 2.1-2.6 s at
6,000, 2.0-2.4 s at 12,000: 3,000 kept."""

MAX_MESSAGE = 1_000
"""An error message longer than this (it quotes a long cell) is cut, saying how long it was."""

_ITEM_COLUMNS = {
    "id": "id", "type": "type", "payer": "payer", "recipient": "recipient",
    "beneficial_owner": "beneficial_owner", "date": "date", "place_of_business": "place_of_business",
}
_SPECIAL_COLUMNS = {"treaty", "states", "gross", "currency", "withheld", "withheld_rate", "domestic_rate",
                    "withholding_state"}
_FIELD_TO_COLUMN = {"gross.amount": "gross", "gross.currency": "currency",
                    "withholding.withheld.amount": "withheld", "withholding.withheld.currency": "currency",
                    "withholding.withheld_rate": "withheld_rate", "withholding.domestic_rate": "domestic_rate",
                    "withholding.state": "withholding_state", "withholding": "withheld"}


@dataclass
class Summary:
    """What a batch did. ``redone_chunks``: chunks the journal listed whose file was missing or torn
    (decided again); ``nothing_to_resume``: a resume found no interrupted run and the output complete."""

    rows: int = 0
    errors: int = 0
    by_status: dict[str, int] = field(default_factory=dict)
    resumed_chunks: int = 0
    redone_chunks: int = 0
    nothing_to_resume: bool = False
    receipt: str = ""
    """The SHA-256 of the partitions' receipts (:func:`run_receipt`): the same on every engine."""


# ---------------------------------------------------------------------------- rows -> items ---

_BOOLEANS: dict[str, bool | str] = {"true": True, "false": False}
"""A dotted column's cell ``true`` or ``false`` is a boolean (the models take no other text as one)."""


def _set(target: dict[str, Any], dotted: str, value: str | bool) -> None:
    keys = dotted.split(".")
    for key in keys[:-1]:
        nested = target.setdefault(key, {})
        if not isinstance(nested, dict):
            raise ValueError(dotted)
        target = nested
    target[keys[-1]] = value


def row_item(row: Row, default_treaty: str | None, cat: Catalogue | None = None) -> tuple[str, dict[str, Any]]:
    """The treaty and the income item (as a dict for the models) that a row describes.

    Columns: ``id, type, payer, recipient, beneficial_owner, date, place_of_business``; ``gross`` with
    ``currency``; ``withheld`` (amount, in the gross's currency) or ``withheld_rate``, ``domestic_rate``
    and ``withholding_state``; the treaty as ``treaty`` (its id) or ``states`` (its two States), else the
    context's; type-specific facts as dotted columns (``dividend.instrument``, ``interest.
    government_institution_of``; a cell ``true`` or ``false`` is a boolean). Empty cells are not given.
    Raises ValueError(message) for a row that cannot even be read.
    """
    if row.error is not None:
        raise ValueError(row.error)
    cols = {k: v for k, v in row.columns.items() if v != ""}
    treaty = cols.get("treaty")
    cat = cat or catalogue()
    if treaty is None and "states" in cols:
        states = sorted(s for s in re.split(r"[\s,;/-]+", cols["states"].lower()) if s)
        by_states = {tuple(sorted(s)): t for t, s in cat.states.items()}
        if tuple(states) not in by_states:
            example = " ".join(next(iter(cat.states.values())))
            raise ValueError(f"states: expected the Contracting States of a treaty in the corpus "
                             f"(e.g. '{example}'), found {cols['states']!r}")
        treaty = by_states[tuple(states)]
    treaty = treaty or default_treaty
    if treaty is None:
        raise ValueError("treaty: expected the row's treaty (a treaty or states column) or a treaty in the "
                         "context, found nothing")
    if treaty not in cat.states:
        raise ValueError(f"treaty: expected one of {', '.join(cat.treaties)}, found {treaty!r}")
    item: dict[str, Any] = {}
    for column, value in cols.items():
        if column in _ITEM_COLUMNS:
            item[_ITEM_COLUMNS[column]] = value
        elif "." in column:
            try:
                _set(item, column, _BOOLEANS.get(value, value))
            except ValueError:
                raise ValueError(f"{column}: expected a column path inside the item, found a clash with "
                                 f"another column") from None
        elif column not in _SPECIAL_COLUMNS:
            continue  # the ledger's own columns (account, memo ...) are carried to the output untouched
    if "gross" in cols:
        item["gross"] = {"amount": cols["gross"], "currency": cols.get("currency", "")}
    withholding: dict[str, Any] = {key: cols[col] for key, col in (("withheld_rate", "withheld_rate"),
                                                   ("domestic_rate", "domestic_rate"),
                                                   ("state", "withholding_state")) if col in cols}
    if "withheld" in cols:
        withholding["withheld"] = {"amount": cols["withheld"], "currency": cols.get("currency", "")}
    if withholding:
        item["withholding"] = withholding
    return treaty, item


def _column_of(field_path: str) -> str:
    """``income[0].gross.amount`` / ``gross.amount`` → ``gross`` (the ledger's column)."""
    path = re.sub(r"^income\[\d+\]\.?", "", field_path)
    return _FIELD_TO_COLUMN.get(path, path or "(row)")


def _problems_text(problems: Iterable[Problem]) -> str:
    """The loader's problems of one row, named by the ledger's columns: ``payer: expected ..., found ...``."""
    return "; ".join(f"{_column_of(p.field)}: expected {p.expected}, found {p.found}"
                     + (f" ({p.hint})" if p.hint else "") for p in problems)


def _amounts(value: Any, path: str) -> Iterator[tuple[str, Decimal]]:
    """Every amount in a validated item (its Money and other decimals), with its field path."""
    if isinstance(value, Money):
        yield f"{path}.amount", value.amount
    elif isinstance(value, BaseModel):
        given = value.model_fields_set  # an amount is never a default
        for name in type(value).model_fields:  # in the fields' order: the message is the same on every run
            if name in given:
                yield from _amounts(getattr(value, name), f"{path}.{name}" if path else name)
    elif isinstance(value, list | tuple):
        for k, member in enumerate(value):
            yield from _amounts(member, f"{path}[{k}]")
    elif isinstance(value, Decimal):
        yield path, value


_EXPONENT = re.compile(r"\d[eE]|[eE][+-]?\d")
"""A cell that may be an amount written with an exponent (``1e20``, ``5E+3``)."""


def _too_large(row: Row, item: IncomeItem) -> str:
    """The row's amounts at or above :data:`MAX_AMOUNT`, named by their columns (empty when none). Every
    amount comes from a cell; a cell of at most :data:`MAX_AMOUNT_DIGITS` characters without an exponent
    (nor one of more characters but at most as many digits, Unicode digits counted) cannot hold one that
    large, so a row of such cells is not walked."""
    cells = row.columns.values()
    if not _EXPONENT.search("\x00".join(cells)) and (max(map(len, cells), default=0) <= MAX_AMOUNT_DIGITS or all(
            len(v) <= MAX_AMOUNT_DIGITS or sum(c.isdigit() for c in v) <= MAX_AMOUNT_DIGITS for v in cells)):
        return ""
    found = []
    for path, amount in _amounts(item, ""):
        if amount.is_finite() and abs(amount) >= MAX_AMOUNT:
            column = _column_of(path)
            cell = row.columns.get(column) or str(amount)
            found.append(f"{column}: expected an amount below 10^{MAX_AMOUNT_DIGITS} (at most {MAX_AMOUNT_DIGITS} "
                         f"digits before the decimal point), found {readable(cell)}")
    return "; ".join(found)


# ---------------------------------------------------------------------------------- deciding ---

@dataclass(frozen=True)
class BatchContext:
    """What every row of a batch shares: the context scenario, the checker and the language of the rows'
    error messages; and, per process, the cases decided so far (:class:`~pyhelpers.engine.solve.Memo`:
    each distinct case is decided once whatever the chunking; ``memo.decided`` counts them)."""

    context: Scenario
    context_treaty: str | None
    ledger: str
    checker: Checker
    lang: str = "en"
    memo: Memo = field(default_factory=Memo, compare=False, repr=False)
    shapes: RowShapes = field(default_factory=lambda: RowShapes(), compare=False, repr=False)
    """The shapes of the rows parsed so far (each distinct shape parsed once)."""
    kinds: KindPlans = field(default_factory=lambda: KindPlans(), compare=False, repr=False)
    """The plans of the kinds of rows met so far (each kind's first row decided once per process, whatever the
    chunking)."""
    bounds: bool = False
    """``--bounds``: a row whose outcome a missing fact leaves undetermined is answered as ``treaty check`` answers
    its scenario, with the bound (:func:`_with_bounds`); without it, in one answer set, as every other row."""


def load_batch_context(context_path: str | Path, ledger: str | Path, checker: Checker | None = None,
                       lang: str = "en", bounds: bool = True) -> BatchContext:
    context, treaty = load_context(context_path)
    return BatchContext(context, treaty, str(ledger), checker or Checker(), lang, bounds=bounds)


def _row_source(ctx: BatchContext, row: Row) -> str:
    """``payments.csv row 7 (line 8, id pay-7)``: the data row's number, the line it begins on (CSV and
    JSON Lines) and its id."""
    where = [f"line {row.line}"] if row.line is not None else []
    where += [f"id {row.row_id}"] if row.row_id else []
    return f"{ctx.ledger} row {row.number}" + (f" ({', '.join(where)})" if where else "")


def _parse_row(ctx: BatchContext, row: Row, cat: Catalogue | None = None) -> tuple[str, IncomeItem, str | None] | str:
    """The row's treaty, validated item and key (:meth:`RowShapes.parsed`; None where not known yet), or the
    message of what is wrong with it: from its shape's, where the row's own cells are ones the models take as
    written (:class:`RowShapes`)."""
    shaped = ctx.shapes.parsed(ctx, row)
    if shaped is not None:
        treaty, item, too_large, key = shaped
        return f"{_row_source(ctx, row)}: {too_large}" if too_large else (treaty, item, key)
    parsed = _parsed(ctx, row, cat)
    if isinstance(parsed, str):
        return f"{_row_source(ctx, row)}: {parsed}"
    treaty, item, too_large = parsed
    return f"{_row_source(ctx, row)}: {too_large}" if too_large else (treaty, item, None)


def _parsed(ctx: BatchContext, row: Row, cat: Catalogue | None = None) -> tuple[str, IncomeItem, str] | str:
    """The row's treaty, its validated item and what amounts of it are too large (:func:`_too_large`), or what
    is wrong with it."""
    try:
        treaty, data = row_item(row, ctx.context_treaty, cat)
    except ValueError as err:
        return str(err)
    item, problems = validate_item(data, ctx.ledger)  # the message names the row (its problems' source)
    if item is None:
        return _problems_text(problems)
    return treaty, item, _too_large(row, item)


_OWN = ("id", "date", "gross", "withheld")
"""The cells of a row that are its own (an id, a date, amounts), put back into its shape's item."""
_OWN_PATHS = {"id": "id", "date": "date", "gross": "gross.amount", "withheld": "withholding.withheld.amount"}
_SHAPE_CELLS = {"id": SHAPE_ID, "date": SHAPE_DAY, "gross": SHAPE_AMOUNT, "withheld": SHAPE_AMOUNT}


_Layout = tuple[int, tuple[str, ...], tuple[int, ...], tuple[tuple[int, str], ...]]
_Shape = tuple[str, IncomeItem, str, bool, str]
_UNSEEN: Any = object()


class RowShapes:
    """The items of a batch's rows, each distinct *shape* parsed and validated once (a realistic ledger has a
    few hundred shapes; a ledger whose every row is a new case has few more).

    A row's shape is the cells its item is made of (not a memo ...), with its own cells among them
    (:data:`_OWN`: id, date, gross, withheld) replaced by valid stand-ins, where each is one the models take
    as written (:func:`~pyhelpers.scenario.loading.own_id`, ``own_day``, ``own_amount``). The shape is parsed
    as a row (:func:`_parsed`: :func:`row_item`, ``validate_item``, :func:`_too_large`) the first time it is
    met; the row's item is then the shape's with its own values put back, which is what parsing the row
    whole gives: :func:`row_item` puts each own cell at its one path of the item, no validator of an item
    reads another field than its own (tests/test_batch.py checks), and no own value is an amount too large.
    A row with an own cell the models would not take as written, or whose shape is wrong, or with a problem
    of its own (:attr:`~pyhelpers.interfaces.ledger.Row.error`), is parsed whole, so its message is what it
    was."""

    limit = 4_000
    """Past this many shapes the cache starts afresh (memory stays flat whatever the ledger)."""

    def __init__(self) -> None:
        self.treaty: str | None = None
        """The context's treaty the shapes were parsed with (the rows' treaty where they name none)."""
        self.layouts: dict[tuple[str, ...], _Layout] = {}
        """A row's columns → a number of its own (never given to another), the columns an item is made of
        (:func:`row_item` leaves the others, a memo ...), their positions among the row's, and the positions of
        the own cells among them."""
        self.shapes: dict[tuple[int, tuple[str, ...]], _Shape | None] = {}
        """A shape (its layout's number and cells) → its treaty, item, amounts too large, whether its item's key
        depends on its gross amount (an arm's-length amount compared with it: :func:`~pyhelpers.facts.item_key`),
        and its own key (:meth:`parsed`)."""
        self._numbers = itertools.count()

    def _layout(self, columns: tuple[str, ...]) -> _Layout:
        if len(self.layouts) >= self.limit:
            self.layouts.clear()
        at = tuple(k for k, c in enumerate(columns) if c in _ITEM_COLUMNS or c in _SPECIAL_COLUMNS or "." in c)
        used = tuple(columns[k] for k in at)
        found = self.layouts[columns] = (next(self._numbers), used, at,
                                         tuple((k, c) for k, c in enumerate(used) if c in _OWN))
        return found

    def parsed(self, ctx: BatchContext, row: Row) -> tuple[str, IncomeItem, str, str] | None:
        """:func:`_parsed` of ``row`` from its shape's, with a key of its item (items have it in common only where their
        :func:`~pyhelpers.facts.item_key` is the same: ``decide_items``' key); None where the row is parsed whole."""
        if ctx.context_treaty != self.treaty:
            self.shapes.clear()
            self.treaty = ctx.context_treaty
        if row.error is not None:
            return None
        columns = tuple(row.columns)
        layout = self.layouts.get(columns) or self._layout(columns)
        number, used, at, owned = layout
        cells = list(row.columns.values())
        values = [cells[k] for k in at]
        own: dict[str, Any] = {}
        for k, column in owned:
            cell = values[k]
            if not cell:
                continue  # not given: the same in the shape
            value = own_id(cell) if column == "id" else own_day(cell) if column == "date" else own_amount(cell)
            if value is None:
                return None  # validated whole: its message names the cell
            own[column] = value
            values[k] = _SHAPE_CELLS[column]
        key = (number, tuple(values))
        shaped = self.shapes.get(key, _UNSEEN)
        if shaped is _UNSEEN:
            if len(self.shapes) >= self.limit:
                self.shapes.clear()
            parsed = _parsed(ctx, Row(row.number, dict(zip(used, values, strict=True)), row.line))
            shaped = self.shapes[key] = None if isinstance(parsed, str) else (
                *parsed, compared_gross(parsed[1]), f"\x00{item_key(parsed[1])}")
        if shaped is None:
            return None
        treaty, model, too_large, compared, shape_key = shaped
        item = _put_back(model, own)
        day, gross = own.get("date"), own.get("gross") if compared else None
        # The item's key: its shape's item_key (of the stand-ins) with the row's own values that key depends on
        # (its date and, where compared, its gross amount; the id and the withholding are not in it). Items with the
        # same such key have the same item_key, hence the same facts: what decide_items needs of a key, without
        # serialising each row's item (a ledger of distinct dates made one per row). It opens with a NUL, which no
        # item_key (JSON) does, so the two kinds of key never meet.
        item_id = f"{shape_key}\x00{'' if day is None else day.isoformat()}\x00{'' if gross is None else gross}"
        return treaty, item, too_large, item_id


def _put_back(model: IncomeItem, own: dict[str, Any]) -> IncomeItem:
    """The shape's item with the row's own id, date and amounts."""
    values: dict[str, Any] = {}
    if "id" in own:
        values["id"] = own["id"]
    if "date" in own:
        values["date"] = own["date"]
    if "gross" in own and model.gross is not None:
        values["gross"] = with_values(model.gross, {"amount": own["gross"]})
    w = model.withholding
    if "withheld" in own and w is not None and w.withheld is not None:
        values["withholding"] = with_values(w, {"withheld": with_values(w.withheld, {"amount": own["withheld"]})})
    return with_values(model, values)


_KIND_OWN = ("id", "gross", "withheld", "withheld_rate")
"""The cells a row of a kind has of its own (:func:`_row_kinds`): its id, its amounts and the rate withheld."""

_KindLayout = tuple[int, tuple[int, ...], tuple[int, ...]]
_KindKey = tuple[tuple[str, ...], tuple[str | None, ...]]
"""A kind of rows (:func:`_row_kinds`): the rows' columns and the cells its item is made of, its own ones aside
(None)."""
_Own = tuple[str, Decimal | None, Decimal | None, int | None]
_Made = tuple[IncomeItem, ItemResult, str | None]
"""A row's item, result and key (:meth:`RowShapes.parsed`'s, None where not known)."""


def _row_kinds(ctx: BatchContext,
               rows: Sequence[Row]) -> tuple[list[int], list[_Own | None], dict[int, _KindKey]] | None:
    """The rows' kinds: for each row the index of the first row of its kind (-1: a row decided as a row), its own
    values (its id, gross amount, tax withheld and rate withheld, as the models read them: :data:`_KIND_OWN`), and the
    key of each kind by the index of its first row (its columns and the cells it is made of, its own ones aside: the
    same in every chunk, :attr:`BatchContext.kinds`); None where every row is decided as a row (:func:`_decide_each`).

    A kind is the cells an item is made of (:class:`RowShapes`: not a memo ...), its own cells aside, where each own
    cell given is one the models take as written (``own_id``, ``own_amount``, ``own_rate``): its rows' items are then
    the first's with their own values put back (as :class:`RowShapes` puts them back), so they are valid, consistent
    and of one case alike (:func:`~pyhelpers.facts.item_key` reads neither the id, nor the withholding, nor the gross
    amount unless an arm's-length amount is compared with it: a row with such a column is decided as a row; the
    consistency checks read the id only against the other items' and an arrangement's, and amounts only against an
    arm's-length amount). A row of a kind whose first row a missing fact leaves undetermined gets its case's bound,
    where the bound is asked and its case has one, from its kind's plan (:func:`_bound_record`; the bound itself is
    found once per case: :func:`_case_bound`); every row is decided as a row with a context that has arrangements (they
    name items by id), and where two rows would be items with one id (the check that sees both must run)."""
    if ctx.context.arrangements or len(rows) < 2:
        return None
    layouts: dict[tuple[str, ...], _KindLayout | None] = {}
    kinds: dict[tuple[int, tuple[str | None, ...]], int] = {}
    rates: dict[str, int | None] = {}
    first = [-1] * len(rows)
    own: list[_Own | None] = [None] * len(rows)
    keys: dict[int, _KindKey] = {}
    ids: set[str] = set()
    for n, row in enumerate(rows):
        if row.error is not None:
            continue
        columns = row.columns
        rid = columns.get("id", "")
        if rid:
            if rid in ids or own_id(rid) is None:
                return None  # two items with one id (perhaps once stripped): decided together, as rows
            ids.add(rid)
        names = tuple(columns)
        layout = layouts.get(names, _UNSEEN)
        if layout is _UNSEEN:
            layout = layouts[names] = _kind_layout(names, len(layouts))
        if layout is None or not rid:
            continue
        number, at, (_, at_gross, at_withheld, at_rate) = layout
        cells = list(columns.values())
        used: list[str | None] = [cells[k] for k in at]
        gross = withheld = rate = None
        if at_gross >= 0 and used[at_gross]:
            gross = own_amount(used[at_gross])
            if gross is None:
                continue
            used[at_gross] = None
        if at_withheld >= 0 and used[at_withheld]:
            withheld = own_amount(used[at_withheld])
            if withheld is None:
                continue
            used[at_withheld] = None
        if at_rate >= 0 and used[at_rate]:
            text = used[at_rate]
            rate = rates[text] if text in rates else rates.setdefault(text, own_rate(text))
            if rate is None:
                continue
            used[at_rate] = None
        used[layout[2][0]] = None
        cells_used = tuple(used)
        first[n] = k = kinds.setdefault((number, cells_used), n)
        if k == n:
            keys[n] = (names, cells_used)
        own[n] = (rid, gross, withheld, rate)
    return first, own, keys


def _kind_layout(names: tuple[str, ...], number: int) -> _KindLayout | None:
    """A row's columns → a number of its own, the positions of the columns an item is made of, and the positions
    among them of :data:`_KIND_OWN` (-1: not a column); None where its rows are decided as rows (no id column, or an
    arm's-length amount)."""
    at = tuple(k for k, c in enumerate(names) if c in _ITEM_COLUMNS or c in _SPECIAL_COLUMNS or "." in c)
    used = [names[k] for k in at]
    if "id" not in used or any("arm_length" in c for c in used):
        return None
    return number, at, tuple(used.index(c) if c in used else -1 for c in _KIND_OWN)


@dataclass(frozen=True)
class _KindPlan:
    """What the rows of a kind take from its first row's item, result and record (:func:`_kind_plan`)."""

    cells: tuple[str, ...]
    """The first row's result cells (:data:`RESULT_COLUMNS`)."""
    result: ItemResult
    gross: Decimal | None
    withheld: Decimal | None
    rate: int | None
    """Its item's gross amount, tax withheld and rate withheld (a row of the kind has its own where its cell is
    given)."""
    state: str | None
    """Its compliance figure's withholding State (None: no figure)."""
    domestic_rate: int | None
    domestic_rate_on_excess: int | None
    case: Case | None
    """The case decided, where each row's findings are its own (a fact names its id, or a field is named for its
    row); None where they are the same for every row (:attr:`findings`)."""
    findings: tuple[str, str, str]
    """The findings cells of every row of the kind (where :attr:`case` is None): ``findings``, ``findings_code`` and
    ``findings_text``."""
    facts: tuple[str, ...]
    """The facts the case's findings name, where a field of theirs is named for the row: a row whose id is in one is
    decided as a row (its fields might be named otherwise)."""
    item: IncomeItem
    context: Scenario
    bound: tuple[str, ItemResult] | None = None
    """``--bounds``, where a missing fact leaves the first row's outcome undetermined and its case has a bound: the
    answer over the missing facts' values and the row it was found for (``ctx.memo.bounds``); each row's record is
    then its own result with it (:func:`_bounded`), as a row decided as a row gets it (:func:`_with_bounds`)."""
    undetermined: bool = False
    """Its withholding finding is ``undetermined`` whatever a row's amounts (:func:`~pyhelpers.engine.amounts.
    undetermined_whatever_amounts`): each row's is, with no tax due nor difference, as ``compliance_of`` finds it."""
    base: dict[str, str] = field(default_factory=dict)
    """The result cells of every row of the kind by their column (:data:`RESULT_COLUMNS`), the findings' cells
    :attr:`findings` where they are every row's (:func:`_based`): a row's record is its own columns, these, and its
    own figures (and findings) written over them (:func:`_kind_record`)."""


class KindPlans:
    """The plans of the kinds of rows (:func:`_row_kinds`, :class:`_KindPlan`) of the chunks decided so far, by the
    kind's key, the language of the run, ``--bounds`` and the ledger: a chunk's rows of a kind an earlier chunk made a
    plan of take their records from that plan (:func:`_kind_record`), as the rows of its own kind after its first do
    (the plan is what deciding that kind's first row gives, whichever row of the kind it is); only a kind met for the
    first time has its first row decided. A kind whose first row made no plan is not kept (the next chunk's is decided
    as a row again, as before)."""

    limit = 4_000
    """Past this many kinds the plans start afresh (memory stays flat whatever the ledger)."""

    def __init__(self) -> None:
        self.kept: dict[tuple[str, bool, str, _KindKey], _KindPlan] = {}

    def plans(self, ctx: BatchContext, keys: dict[int, _KindKey]) -> dict[int, _KindPlan]:
        """The plans kept of the kinds whose first rows are at these indices (``keys``: their keys)."""
        if not self.kept:
            return {}
        run = (ctx.lang, ctx.bounds, ctx.ledger)
        found = {}
        for n, key in keys.items():
            plan = self.kept.get((*run, key))
            if plan is not None:
                found[n] = plan
        return found

    def keep(self, ctx: BatchContext, key: _KindKey, plan: _KindPlan | None) -> None:
        if plan is None:
            return
        if len(self.kept) >= self.limit:
            self.kept.clear()
        self.kept[ctx.lang, ctx.bounds, ctx.ledger, key] = plan


def _kind_plan(ctx: BatchContext, made: _Made | None, record: dict[str, str] | None,
               contexts: dict[str, Scenario]) -> _KindPlan | None:
    """The plan of a kind from its first row's item, result, key and record; None where its other rows are decided as
    rows: the first row's was not decided in one answer set (an error, an internal error), its case is not in the memo
    (forgotten), or its result has figures the plan does not make (a relief, a limit on a part of the amount).
    ``contexts``: the context with each treaty (the scenario a row's findings are named in)."""
    if made is None or record is None or record["error"]:
        return None
    item, r, key = made
    if r.relief is not None or r.limited_to is not None:
        return None
    bound = None
    if ctx.bounds and _needs_bound(r):  # a row a missing fact leaves undetermined gets its case's bound, if it has one
        at = _bound_case(ctx, r.treaty, item, key)  # (none: its record is its own answer's)
        if at is None or at not in ctx.memo.bounds:
            return None
        bound = ctx.memo.bounds[at]
    case = ctx.checker.case_of(ctx.memo, r.treaty, item, key)
    if case is None:
        return None
    w, c = item.withholding, r.compliance
    if (c is None) != (w is None or item.gross is None):
        return None
    context = contexts.get(r.treaty)
    if context is None:
        context = contexts[r.treaty] = ctx.context.model_copy(update={"treaty": r.treaty})
    plan = _KindPlan(tuple(record[column] for column in RESULT_COLUMNS), r,
                     item.gross.amount if item.gross is not None else None,
                     w.withheld.amount if w is not None and w.withheld is not None else None,
                     w.withheld_rate if w is not None else None, c.state if c is not None else None,
                     w.domestic_rate if w is not None else None, w.domestic_rate_on_excess if w is not None else None,
                     case, (record["findings"], record["findings_code"], record["findings_text"]), (), item, context)
    if bound is not None:
        return replaced(plan, bound=bound)
    t = case.template
    if any(f.fact and case.placeholder in f.fact for f in t.findings):
        return _based(plan)  # a fact names the row's id: each row's findings are its own
    if not any(f.kind in FIELD_KINDS for f in t.findings) and not any(a.finding for a in t.alternatives):
        return _based(replaced(plan, case=None))  # _rebind and _named_row give every row the case's findings
    # Fields named for the row (_named_row): the same for every row whose id is in none of the facts (each found once
    # per fact: fields.row_named), unless a field names the row's id, which naming them for an id in no fact shows.
    found = _kind_findings(ctx, plan, _NO_ID)
    if found is None or any(_NO_ID in cell for cell in found):
        return _based(plan)
    named = (*t.findings, *(a.finding for a in t.alternatives if a.finding is not None))
    facts = tuple(f.fact for f in named if f.fact)
    return _based(replaced(plan, case=None, findings=found, facts=facts))


def _based(plan: _KindPlan) -> _KindPlan:
    """``plan`` with its :attr:`_KindPlan.base`: its result cells, and its findings' cells where they are every
    row's (:attr:`_KindPlan.case` None), made once for the rows of the kind."""
    base = dict(zip(RESULT_COLUMNS, plan.cells, strict=True))
    if plan.case is None:
        base.update(zip(_FINDINGS_COLUMNS, plan.findings, strict=True))
    r = plan.result
    undetermined = plan.state is not None and r.currency is not None and undetermined_whatever_amounts(r, plan.state)
    return replaced(plan, base=base, undetermined=undetermined)


_FINDINGS_COLUMNS = ("findings", "findings_code", "findings_text")
_ZERO = Decimal(0)


_NO_ID = "\x00id\x00"
"""An id in no fact (no fact holds a control character): a kind's findings named for it show whether a field names the
row's id (:func:`_kind_plan`)."""


def _kind_findings(ctx: BatchContext, plan: _KindPlan, rid: str) -> tuple[str, str, str] | None:
    """The findings cells (``findings``, ``findings_code``, ``findings_text``) of the row ``rid`` of a kind whose
    findings are each row's own, as ``_rebind`` and ``_named_row`` make them (``rebound_for``, ``named_row``); None
    where a field of them would be named otherwise than once per fact (:func:`~pyhelpers.engine.fields.named_alike`:
    the row is decided as a row)."""
    case = plan.case
    if case is None:
        return plan.findings
    it = rebound_for(case.template, case.placeholder, rid)
    if not named_alike(it, plan.context):
        return None
    findings = named_row(it, plan.context, with_values(plan.item, {"id": rid}), ctx.memo.fields).findings
    return _findings_cells(findings, ctx.lang, rid)


def _kind_record(ctx: BatchContext, plan: _KindPlan, row: Row, own: _Own | None) -> dict[str, str] | None:
    """The record of a row of a kind: its own columns, its kind's result cells, its figures computed from its own
    amounts as :func:`~pyhelpers.engine.solve._rebind` computes them (the same functions, with the values its item
    would hold: :func:`~pyhelpers.engine.amounts.amount_bases`, ``max_source_tax_of``, ``compliance_of``), and, where
    they are its own, its findings as ``_rebind`` and ``_named_row`` make them (``rebound_for``, ``named_row``); None
    where it is decided as a row (a field of its findings would be named otherwise than once per fact:
    :func:`~pyhelpers.engine.fields.named_alike`)."""
    if own is None:
        return None
    if plan.bound is not None:
        return _bound_record(ctx, plan, plan.bound, row, own)
    rid, gross, withheld, rate = own
    if plan.facts and any(rid in fact for fact in plan.facts):
        return None
    findings = None
    if plan.case is not None:  # each row's findings its own
        findings = _kind_findings(ctx, plan, rid)
        if findings is None:
            return None
    r = plan.result
    if gross is None:
        gross = plan.gross
    # amount_bases(gross, None, None, r.limit_base_open): the plan's result limits no part (_kind_plan)
    bases = None if gross is None or r.limit_base_open is not None else (gross, _ZERO)
    due = finding = difference = ""
    c = None
    if plan.undetermined and gross is not None:  # (plan.state and r.currency given)
        finding = "undetermined"
    elif plan.state is not None and gross is not None and r.currency is not None:
        c = compliance_of(r, bases, plan.state, gross, r.currency, plan.withheld if withheld is None else withheld,
                          plan.rate if rate is None else rate, plan.domestic_rate, plan.domestic_rate_on_excess)
        due, finding, difference = cell_text(c.due), c.finding, cell_text(c.difference)
    most: Decimal | None = None
    if c is not None and c.treaty_max_tax is not None and c.cap_bp == r.max_rate_bp and bases is not None:
        most = c.treaty_max_tax  # the cap's rate of the same amount in the same currency (apply_rate): the same
    else:
        most = max_source_tax_of(bases, r.max_rate_bp, r.currency)
    columns = row.columns
    rec = columns.copy() if _RESULT_NAMES.isdisjoint(columns) else _own_columns(row)
    rec.update(plan.base)
    rec["max_source_tax"] = cell_text(most)
    rec["tax_due"] = due
    rec["withholding_finding"] = finding
    rec["withholding_difference"] = difference
    if findings is not None:
        rec["findings"], rec["findings_code"], rec["findings_text"] = findings
    return rec


def _bound_record(ctx: BatchContext, plan: _KindPlan, bound: tuple[str, ItemResult], row: Row,
                  own: _Own) -> dict[str, str]:
    """The record of a row of a kind whose case has a bound (``bound``: :attr:`_KindPlan.bound`): the row's item (its
    kind's with its own id and amounts put back) and result (its kind's first row's, decided without the bound, with its
    own id and gross amount: what deciding it gives, as far as :func:`_bounded` reads it) answered with the bound, as
    :func:`_with_bounds` answers a row decided as a row."""
    rid, gross, withheld, rate = own
    model = plan.item
    values: dict[str, Any] = {"id": rid}
    if gross is not None and model.gross is not None:
        values["gross"] = with_values(model.gross, {"amount": gross})
    w = model.withholding
    changes: dict[str, Any] = {}
    if withheld is not None and w is not None and w.withheld is not None:
        changes["withheld"] = with_values(w.withheld, {"amount": withheld})
    if rate is not None:
        changes["withheld_rate"] = rate
    if changes and w is not None:
        values["withholding"] = with_values(w, changes)
    item = with_values(model, values)
    r = replaced(plan.result, item_id=rid, gross=item.gross.amount if item.gross is not None else None)
    return _result_record(row, _bounded(plan.context, item, r, *bound), catalogue().home, ctx.lang, True)


def _internal(ctx: BatchContext, row: Row, err: Exception) -> str:
    return (f"{_row_source(ctx, row)}: internal error while deciding this row ({type(err).__name__}: {err}); "
            f"the other rows are not affected: please report this row")


def decide_rows(ctx: BatchContext, rows: Sequence[Row]) -> list[dict[str, str]]:
    """Decide one chunk of rows; one output record per row, in order (input columns + results).

    Rows are decided together, one clingo run per treaty; should that fail unexpectedly, each of its rows
    is decided alone, so that only a row whose own decision fails gets the error. A problem of the rules
    or of the context (a :class:`TreatyLogicError`) stops the batch.

    Rows of one *kind* (:func:`_row_kinds`: the same cells but for their id and amounts) are one case: only the first
    of each kind is parsed, checked and decided; each other row of its kind gets that row's record with its own columns
    and its own figures (:func:`_kind_record`), or, where its record might differ otherwise, is decided as a row."""
    kinds = _row_kinds(ctx, rows)
    if kinds is None:
        return _decide_each(ctx, rows)
    first, own, keys = kinds
    known = ctx.kinds.plans(ctx, keys)  # the plans of kinds an earlier chunk decided: their first rows are not decided
    decided = [n for n, k in enumerate(first) if k < 0 or (k == n and n not in known)]  # as rows, each new kind's first
    made: dict[int, _Made] = {}
    out: list[dict[str, str] | None] = [None] * len(rows)
    for n, rec in zip(decided, _decide_each(ctx, [rows[n] for n in decided], made), strict=True):
        out[n] = rec
    made_at = {decided[k]: pair for k, pair in made.items()}
    plans: dict[int, _KindPlan | None] = dict(known)
    contexts: dict[str, Scenario] = {}
    again: list[int] = []
    for n, k in enumerate(first):
        if k < 0 or (k == n and n not in known):
            continue
        try:
            if k in plans:
                plan = plans[k]
            else:
                plan = plans[k] = _kind_plan(ctx, made_at.get(k), out[k], contexts)
                ctx.kinds.keep(ctx, keys[k], plan)
            derived = None if plan is None else _kind_record(ctx, plan, rows[n], own[n])
        except TreatyLogicError:
            raise
        except Exception:
            derived = None  # decided as a row: should it fail again, only that row gets the error
        if derived is None:
            again.append(n)
        else:
            out[n] = derived
    if again:
        for n, rec in zip(again, _decide_each(ctx, [rows[n] for n in again]), strict=True):
            out[n] = rec
    return [r if r is not None else _error_record(rows[i], "internal: no result") for i, r in enumerate(out)]


def _decide_each(ctx: BatchContext, rows: Sequence[Row],
                 made: dict[int, _Made] | None = None) -> list[dict[str, str]]:
    """:func:`decide_rows` of rows each parsed and decided as a row; ``made``: filled with the item and the result of
    each row decided in one answer set (not one with an error, nor one given its bound), by its index."""
    out: list[dict[str, str] | None] = [None] * len(rows)
    groups: dict[str, list[tuple[int, IncomeItem]]] = {}
    keys: dict[int, str] = {}  # the key of a row's item, where its shape gave it
    cat = catalogue()
    for n, row in enumerate(rows):
        try:
            parsed = _parse_row(ctx, row, cat)
        except TreatyLogicError:
            raise
        except Exception as err:
            out[n] = _error_record(row, _internal(ctx, row, err))
            continue
        if isinstance(parsed, str):
            out[n] = _error_record(row, parsed)
            continue
        treaty, item, key = parsed
        groups.setdefault(treaty, []).append((n, item))
        if key is not None:
            keys[n] = key
    for treaty, members in sorted(groups.items()):
        try:
            _decide_group(ctx, treaty, members, rows, out, keys, made)
        except TreatyLogicError:
            raise
        except Exception:
            for member in members:
                try:
                    _decide_group(ctx, treaty, [member], rows, out, keys)
                except TreatyLogicError:
                    raise
                except Exception as err:
                    out[member[0]] = _error_record(rows[member[0]], _internal(ctx, rows[member[0]], err))
    records = [r if r is not None else _error_record(rows[i], "internal: no result") for i, r in enumerate(out)]
    for rec in records:  # a bad row's message in the language of the run
        if rec["error"] and ctx.lang != "en":
            rec["error"] = translate(rec["error"], ctx.lang)
    return records


def _decide_group(ctx: BatchContext, treaty: str, members: list[tuple[int, IncomeItem]], rows: Sequence[Row],
                  out: list[dict[str, str] | None], keys: dict[int, str] | None = None,
                  made: dict[int, _Made] | None = None) -> None:
    """Decide the chunk's rows of one treaty in one clingo run; their records go into ``out``. ``keys``: the
    keys of rows' items already known (:meth:`RowShapes.parsed`), by row index; ``made``: filled with each row's item
    and result (:func:`_decide_each`)."""
    members = _drop_inconsistent(ctx, treaty, members, rows, out)
    if not members:
        return
    context = ctx.context.model_copy(update={"treaty": treaty})
    known = keys or {}
    decided = ctx.checker.decide_items(context, [it for _, it in members], ctx.ledger, ctx.memo,
                                       [known.get(n) for n, _ in members], provenance=False)  # (no column shows it)
    home = catalogue().home
    if ctx.bounds and any(r.status == "missing" for r in decided):  # --bounds
        answered, bounded = _with_bounds(ctx, context, members, decided, rows, known)
        records = [_result_record(rows[n], item_result, home, ctx.lang, k in bounded)
                   for k, ((n, _), item_result) in enumerate(zip(members, answered, strict=True))]
        if made is not None:  # each row's result without the bound (its kind's plan gives the others the bound)
            made.update((n, (item, item_result, known.get(n)))
                        for (n, item), item_result in zip(members, decided, strict=True))
    else:
        records = [_result_record(rows[n], item_result, home, ctx.lang)
                   for (n, _), item_result in zip(members, decided, strict=True)]
        if made is not None:
            made.update((n, (item, item_result, known.get(n)))
                        for (n, item), item_result in zip(members, decided, strict=True))
    for (n, _), record in zip(members, records, strict=True):
        out[n] = record


def _needs_bound(r: ItemResult) -> bool:
    """Whether a missing fact leaves an outcome of the row undetermined (its bound may say more)."""
    return r.status == "missing" and any(s.outcome == "undetermined" for s in r.states)


def _with_bounds(ctx: BatchContext, context: Scenario, members: list[tuple[int, IncomeItem]],
                 decided: list[ItemResult], rows: Sequence[Row], keys: dict[int, str]) -> tuple[list[ItemResult],
                                                                                               set[int]]:
    """``--bounds``: ``decided`` with each row whose outcome a missing fact leaves undetermined answered as ``treaty
    check`` answers its scenario (:func:`row_scenario`): over every value of the missing facts (a holding record
    added with its dates and capital open: :mod:`pyhelpers.engine.completion`), each State's bound and what it
    depends on, and the withholding finding from them; with the positions of the rows so answered. Each such case is
    answered once per process (``ctx.memo.bounds``); each row keeps its own id and amounts."""
    out = list(decided)
    bounded = set()
    _bounds_together(ctx, context.treaty, members, decided, rows, keys)
    for k, ((n, item), r) in enumerate(zip(members, decided, strict=True)):
        if _needs_bound(r):
            bound = _case_bound(ctx, context.treaty, rows[n], item, r, keys.get(n))
            if bound is not None:
                out[k] = _bounded(context, item, r, *bound)
                bounded.add(k)
    return out, bounded


def _case_bound(ctx: BatchContext, treaty: str, row: Row, item: IncomeItem, r: ItemResult,
                key: str | None) -> tuple[str, ItemResult] | None:
    """The answer of ``treaty check`` to the row's scenario (``r``: the row's own answer), with the id of the row it was
    found for (the first of its case: ``decide_items``' key of its facts, in ``ctx.memo``); None where it answers over
    no value (no alternative). ``check`` first looks for the facts to answer over (:meth:`~pyhelpers.engine.solve.
    Checker.check`: a fact given as unknown, a missing record or field whose values can be listed) in the row's own
    answer: where there is none, that answer is the row's and ``check`` is not run."""
    case = _bound_case(ctx, treaty, item, key)
    if case is not None and case in ctx.memo.bounds:
        found: tuple[str, ItemResult] | None = ctx.memo.bounds[case]
        return found
    scenario = row_scenario(ctx, row)
    if not _check_asks(ctx, scenario, r):
        found = None  # nothing ``check`` would answer over (what it asks first, of the row's own answer): no check
    else:
        found = _found(item.id, ctx.checker.check(scenario, ctx.ledger).items[0])
    if case is not None:
        ctx.memo.bounds[case] = found
    return found


def _bound_case(ctx: BatchContext, treaty: str, item: IncomeItem,
                key: str | None) -> tuple[str, tuple[str, ...], str] | None:
    """The row's case as ``ctx.memo`` knows it (``decide_items``' key of its facts), None where it knows none."""
    versions = ctx.checker.versions(treaty, item)
    sig = ctx.memo.signatures.get((treaty, versions, item_key(item) if key is None else key))
    return None if sig is None else (treaty, versions, sig)


def _check_asks(ctx: BatchContext, scenario: Scenario, r: ItemResult) -> bool:
    """Whether ``check`` would answer the row's scenario over some value (what it asks first, of the row's own answer
    ``r``: a fact given as unknown, a missing record or field whose values can be listed)."""
    return any(f.kind == "depends" for f in r.findings) or missing_records(
        ctx.checker, scenario, SimpleNamespace(items=[r]), ctx.ledger) is not None


def _found(rid: str, answer: ItemResult) -> tuple[str, ItemResult] | None:
    """What the memo keeps of ``check``'s answer for the row ``rid``: the answer where it is over some value and every
    value was examined (a time limit's cut leaves the row its own answer), else None."""
    cut = any(f.kind == "time_limit" for f in answer.findings)
    return (rid, answer) if answer.alternatives and answer.status != "error" and not cut else None


TOGETHER = 48
"""The most cases :func:`_bounds_together` gives ``check`` in one scenario (a larger one takes longer than the time
limit allows more often: its cases are then answered one by one)."""


def _bounds_together(ctx: BatchContext, treaty: str, members: list[tuple[int, IncomeItem]],
                     decided: list[ItemResult], rows: Sequence[Row], keys: dict[int, str]) -> None:
    """The bound of each case of the chunk's rows the memo does not hold yet (:func:`_case_bound`), found for several
    cases in one ``check`` where that gives each the answer it gets alone: cases of one rule version whose own answers
    leave open the same facts (the same findings), none of them a fact of the item (its id in it: an item's own
    field, named by its place in the scenario) or a holding record (:func:`~pyhelpers.engine.completion.
    names_a_record`: it is opened around the item's date). Items of a scenario are decided each on its own facts (as
    ``decide_items`` decides them together); the facts opened are then the context's, the same for each, over the
    same values. The answer is kept only where every fact it opened matters to every case of it, none is a record, no
    field is named by an item's place, and nothing was cut; otherwise (or on any error) each case is answered alone
    afterwards, as it was before (:func:`_case_bound`)."""
    groups: dict[tuple[Any, ...], list[tuple[tuple[str, tuple[str, ...], str], IncomeItem, Scenario]]] = {}
    seen: set[tuple[str, tuple[str, ...], str]] = set()
    try:
        for (n, item), r in zip(members, decided, strict=True):
            if not _needs_bound(r):
                continue
            case = _bound_case(ctx, treaty, item, keys.get(n))
            if case is None or case in ctx.memo.bounds or case in seen:
                continue
            seen.add(case)
            own = re.compile(rf"(?<![\w.@-]){re.escape(item.id)}(?![\w.@-])")
            if any(f.fact and (own.search(f.fact) or names_a_record(f.fact)) for f in r.findings):
                continue
            scenario = row_scenario(ctx, rows[n])
            if not _check_asks(ctx, scenario, r):
                ctx.memo.bounds[case] = None
                continue
            shown = tuple((f.kind, f.provision, f.fact, f.field) for f in r.findings)
            groups.setdefault((case[1], shown), []).append((case, item, scenario))
    except TreatyLogicError:
        raise
    except Exception:
        return  # each case as it was (its error, where it has one, found there)
    for group in groups.values():
        for start in range(0, len(group), TOGETHER):
            part = group[start:start + TOGETHER]
            if len(part) > 1:
                _together(ctx, part)


def _together(ctx: BatchContext, part: list[tuple[tuple[str, tuple[str, ...], str], IncomeItem, Scenario]]) -> None:
    """:func:`_bounds_together` of one scenario of the cases ``part`` (each with its row's item and scenario)."""
    ids = [item.id for _, item, _ in part]
    first = part[0][2]
    plain = [s._plain_data for _, _, s in part]
    if len(set(ids)) != len(ids) or (first._plain_data is None) != (plain[0] is None):
        return
    merged = first.model_copy(update={"income": [s.income[0] for _, _, s in part]})
    merged._plain_data = None if first._plain_data is None else {
        **first._plain_data, "income": [p["income"][0] for p in plain if p is not None]}
    if merged._plain_data is not None and len(merged._plain_data["income"]) != len(ids):
        return
    try:
        answer = ctx.checker.check(merged, ctx.ledger)
    except Exception:
        return  # answered one by one
    every = set(ids)
    if answer.incomplete is not None or [it.item_id for it in answer.items] != ids or any(
            names_a_record(u.fact) or set(u.items) != every for u in answer.unknowns):
        return
    alone = [_as_alone(it, k) for k, it in enumerate(answer.items)]
    if any(it is None or any(f.kind == "time_limit" for f in it.findings) for it in alone):
        return
    for (case, item, _), it in zip(part, alone, strict=True):
        ctx.memo.bounds[case] = _found(item.id, it)


_INCOME_AT = re.compile(r"\bincome\[(\d+)\]")


def _as_alone(answer: Any, k: int) -> Any:
    """``answer`` (the answer of the ``k``-th item of a scenario, or any part of it) as the item's scenario alone names
    its fields: its own place in the scenario's income (``income[k]``) is the first (``income[0]``); None where it
    names another item's place (:func:`_together`: answered alone)."""
    if isinstance(answer, str):
        if "income[" not in answer:
            return answer
        if any(int(m.group(1)) != k for m in _INCOME_AT.finditer(answer)):
            return None
        return _INCOME_AT.sub("income[0]", answer)
    if isinstance(answer, tuple):
        parts = [_as_alone(a, k) for a in answer]
        return None if any(p is None and a is not None for p, a in zip(parts, answer, strict=True)) else (
            answer if all(p is a for p, a in zip(parts, answer, strict=True)) else tuple(parts))
    if dataclasses.is_dataclass(answer) and not isinstance(answer, type):
        changes = {}
        for f in dataclasses.fields(answer):
            value = getattr(answer, f.name)
            got = _as_alone(value, k)
            if got is None and value is not None:
                return None
            if got is not value:
                changes[f.name] = got
        return replace(answer, **changes) if changes else answer
    if isinstance(answer, (list, dict, set, frozenset)):
        return None if "income[" in repr(answer) else answer
    return answer


def _bounded(context: Scenario, item: IncomeItem, r: ItemResult, first: str, answer: ItemResult) -> ItemResult:
    """The row's result ``r`` with the answer over the missing facts' values found for the row ``first`` of its case:
    its status, outcomes (each State's bound), findings (``first``'s id replaced by the row's), provisions and
    alternatives; the highest tax at source any value allows (the bound times the row's amount); the withholding
    finding from the alternatives, for the row's own withholding (:func:`~pyhelpers.engine.alternatives.
    compliance_under`)."""
    from pyhelpers.engine.alternatives import compliance_under  # (--bounds only: a batch without does not load it)

    findings = answer.findings
    if first != item.id:
        own = _ROW_ID.get(first)
        if own is None:
            if len(_ROW_ID) >= 4_000:
                _ROW_ID.clear()
            own = _ROW_ID[first] = re.compile(rf"(?<![\w.@-]){re.escape(first)}(?![\w.@-])")
        findings = tuple(replaced(f, fact=own.sub(lambda _: item.id, f.fact)) if f.fact and first in f.fact else f
                         for f in findings)
    result = replaced(r, status=answer.status, states=answer.states, max_rate_bp=None, provisions=answer.provisions,
                     findings=findings, alternatives=answer.alternatives, entitlement=answer.entitlement,
                     bound_alternatives=answer.bound_alternatives)
    at_most = bound_bp(answer.states)
    highest = None if at_most is None or answer.limit_base_open is not None else max_source_tax_of(
        amount_bases(result.gross, result.limited_to, result.limited_amount, result.limit_base_open), at_most,
        result.currency)  # max_source_tax of the result capped at most (its bases, that cap, its currency)
    state = withholding_state(context, item)
    key = (id(answer), state, r.limited_to, r.compliance.reconstructed if r.compliance is not None else None)
    kept = _COMPLIANCE_CASES.get(key)
    if kept is None or kept[0] is not answer:
        if len(_COMPLIANCE_CASES) >= _COMPLIANCE_CASES_KEPT:
            _COMPLIANCE_CASES.clear()
        kept = _COMPLIANCE_CASES[key] = (answer, {})
    return replaced(result, max_source_tax=highest,
                    compliance=compliance_under(context, item, result, kept[1], state))


_ROW_ID: dict[str, re.Pattern[str]] = {}
"""The pattern of a row id as a whole word of a fact (:func:`_bounded`), by the id: the rows of a case answered with
its bound have theirs replaced in its first row's findings, the same id's pattern for each."""

_CAP_CELLS: dict[tuple[int | None, int | None, str], str] = {}
"""The ``cap`` cell (:func:`~pyhelpers.output.render.batch_cap_cell`) by the cap, the cap at most and the language."""

_COMPLIANCE_CASES: dict[tuple[Any, ...], tuple[ItemResult, dict[Any, Any]]] = {}
"""What the withholding finding of a row answered with its bound takes from its case (:func:`~pyhelpers.engine.
alternatives.compliance_under`'s ``case``), by the case's answer (kept alive with it: its id is not reused) and what
else the finding reads from the case rather than the row: the withholding State (the one thing it reads of the
context), the row's ``limited_to`` and the provisions its certain finding flags as reconstructed. Cleared when
full."""
_COMPLIANCE_CASES_KEPT = 4000


def bound_bp(states: Sequence[StateOutcome]) -> int | None:
    """The cap at most of the one State whose outcome is undetermined but capped whatever the missing facts are (the
    ``cap`` column's ``at most``), None where there is none or more than one."""
    caps = [s.at_most_bp for s in states if s.outcome == "undetermined" and s.at_most_bp is not None]
    return caps[0] if len(caps) == 1 else None


def _drop_inconsistent(ctx: BatchContext, treaty: str, members: list[tuple[int, IncomeItem]],
                       rows: Sequence[Row], out: list[dict[str, str] | None]) -> list[tuple[int, IncomeItem]]:
    """Run the loader's reference and consistency checks on the chunk's items; rows with problems get
    their error, the others go on. A problem not tied to an item is the context's: the batch stops."""
    scenario = ctx.context.model_copy(update={"treaty": treaty, "income": [it for _, it in members]})
    problems = check_consistency(scenario, ctx.ledger)
    if not problems:
        return members
    bad: dict[int, list[str]] = {}
    for p in problems:
        m = re.match(r"^income\[(\d+)\]", p.field)
        if m is None:
            raise BatchError(f"the context does not fit the {treaty} rows: {p}")
        bad.setdefault(int(m.group(1)), []).append(_problems_text([p]))
    kept = []
    for k, (n, item) in enumerate(members):
        if k in bad:
            out[n] = _error_record(rows[n], f"{_row_source(ctx, rows[n])}: {'; '.join(bad[k])}")
        else:
            kept.append((n, item))
    return kept


def _error_record(row: Row, message: str) -> dict[str, str]:
    if len(message) > MAX_MESSAGE:
        message = f"{message[:MAX_MESSAGE]}… (cut: {len(message):,} characters)"
    rec = _own_columns(row)
    rec.update(_NO_RESULT)
    rec.update({"status": "error", "error": message})
    return rec


_FINDINGS_CELLS: dict[tuple[str, tuple[tuple[str | None, ...], ...]], tuple[str, str, str]] = {}
"""The findings cells of a row (``findings``, :func:`findings_cell`, :func:`findings_text_cell`) by the language and
each finding's every field (a :class:`~pyhelpers.engine.results.Finding` compares without its ``field``,
``open_as`` and ``gap``, which its text shows): the rows of a case have the same findings, and writing them in words
costs more than the rest of a row."""

_FINDING_TEXTS: dict[tuple[str, str, str, str | None, str | None, str | None, str | None], str] = {}
"""A finding in words (:func:`~pyhelpers.output.render.finding_text`) by the language and its every field: a row whose
findings name its id has the others of its case's findings."""


def _findings_cells(findings: Sequence[Finding], lang: str, rid: str | None = None) -> tuple[str, str, str]:
    """``(findings, findings_code, findings_text)``: the findings for people in ``lang``
    (:func:`~pyhelpers.output.render.batch_findings_cell`), :func:`findings_cell` and :func:`findings_text_cell`,
    each made once per distinct findings; with
    ``rid`` (the id of the row's item), findings whose facts name it are made once per case too
    (:func:`_id_free`): those of every row of the case with its id in its facts, put back in the words after."""
    free = None if rid is None else _id_free(findings, rid, lang)
    if free is not None and rid is not None:
        cell, code, text = _findings_cells(free, lang)
        stand_in = _STAND_IN[rid[0] in _VOWELS]
        return cell.replace(stand_in, rid), code.replace(stand_in, rid), text.replace(stand_in, rid)
    key = (lang, tuple((f.kind, f.provision, f.fact, f.field, f.open_as, f.gap) for f in findings))
    cells = _FINDINGS_CELLS.get(key)
    if cells is None:
        if len(_FINDINGS_CELLS) >= 4_000:
            _FINDINGS_CELLS.clear()
        code = findings_cell(findings)
        cell = code if languages.family(lang) == "en" else render.batch_findings_cell(findings, lang)
        cells = _FINDINGS_CELLS[key] = (cell, code, _findings_text(findings, lang))
    return cells


_VOWELS = frozenset("aeiouAEIOU")
_STAND_IN = {False: "zq7-stand-in-id", True: "aq7-stand-in-id"}
"""What stands in for a row's item id in its findings (:func:`_id_free`), by whether that id opens with a vowel
(English writes "an" before a word that does: the stand-in opens as the id does). Opaque (:data:`_OPAQUE_ID`), no word
of the vocabulary nor a State's name."""
_OPAQUE_ID = re.compile(r"[A-Za-z0-9]+(?:[.-][A-Za-z0-9]+)*-[A-Za-z0-9]+(?:[.-][A-Za-z0-9]+)*")
"""An id the words of a finding write as it is, whatever it is (:func:`_id_free`): letters and digits in parts joined by
dots and hyphens, with a hyphen after the first part (so it is not a constant, a number or a State's code)."""
_FACT_CALL = re.compile(r"[a-z][a-z0-9_]*\((.*)\)")
_KINDS_NAMED_AS_FIELDS = frozenset({"assumption", "relief", "time_limit"})
"""Findings whose words read their fact otherwise than :func:`~pyhelpers.explain.readings.fact_text` or as written (an
assumption's names a field from its first argument): a fact of theirs that names the row's id is not stood in for."""


_WORDS: dict[str, tuple[object, frozenset[str]]] = {}
"""Per language, the rule base it was made from and :func:`_words`."""


def _words(lang: str) -> frozenset[str]:
    """Every name the words of a finding may read otherwise than as written, in ``lang``: each constant the vocabulary
    declares words for, each of :data:`~pyhelpers.explain.readings.TERMS` in any language, each State's code (a
    superset of what :func:`~pyhelpers.explain.readings.translated` reads, and of ``state_names``; an article's
    constant, ``art11``, is no opaque id)."""
    logic = load_logic(logic_dir())
    made = _WORDS.get(lang)
    if made is None or made[0] is not logic:
        words = {name for name, arity in logic.terms if arity == 0}
        words.update(*readings.TERMS.values())
        words.update(readings.state_names(lang))
        made = _WORDS[lang] = (logic, frozenset(words))
    return made[1]


def _id_free(findings: Sequence[Finding], rid: str, lang: str) -> tuple[Finding, ...] | None:
    """``findings`` with the row's item id ``rid`` replaced by a stand-in (:data:`_STAND_IN`) in each fact that has it
    as an argument, where their words and cells are then the same but for that id: ``rid`` is an opaque id
    (:data:`_OPAQUE_ID`: the rendering writes an argument of that form as it is; not a word of the vocabulary, nor a
    State's name), each fact that names it has it only as whole top-level arguments of a call, and the stand-in is in no
    finding. None where no fact names it (the findings are the case's) or where it cannot stand in."""
    if not rid or not any(f.fact and rid in f.fact for f in findings):
        return None
    stand_in = _STAND_IN[rid[0] in _VOWELS]
    if _OPAQUE_ID.fullmatch(rid) is None or rid in _words(lang):
        return None
    out = []
    for f in findings:
        if stand_in in f.provision or (f.field and stand_in in f.field) or (f.fact and stand_in in f.fact):
            return None
        fact = f.fact
        if not fact or rid not in fact:
            out.append(f)
            continue
        call = _FACT_CALL.fullmatch(fact)
        if f.kind in _KINDS_NAMED_AS_FIELDS or call is None or (f.field and rid in f.field) or rid in f.provision:
            return None
        args = [a.strip() for a in call.group(1).split(",")]
        if "(" in call.group(1) or fact.count(rid) != args.count(rid):
            return None  # nested terms, or the id inside another argument
        out.append(replaced(f, fact=fact.replace(rid, stand_in)))  # each occurrence a whole argument
    return tuple(out)


def _findings_text(findings: Sequence[Finding], lang: str) -> str:
    """:func:`findings_text_cell`, each merged finding's words made once (:data:`_FINDING_TEXTS`)."""
    texts = []
    for f in render.merged_findings(findings):
        key = (lang, f.kind, f.provision, f.fact, f.field, f.open_as, f.gap)
        text = _FINDING_TEXTS.get(key)
        if text is None:
            if len(_FINDING_TEXTS) >= 4_000:
                _FINDING_TEXTS.clear()
            text = _FINDING_TEXTS[key] = readings.provision_text(render.finding_text(f, lang), lang)
        texts.append(text)
    return " | ".join(texts)


def findings_cell(findings: Sequence[Finding]) -> str:
    """A row's findings in one cell, the machine column ``findings_code`` (and ``findings`` in English):
    ``missing: agent_independent(agency-sp) (<provision>) [in the scenario:
    places_of_business.agency-sp.agent.independent]`` — each finding as an ``expect:`` block writes it, each
    missing or unknown fact with the scenario field that states it, where the rules name one."""
    return "; ".join(f"{f} [in the scenario: {f.field}]" if f.field else str(f) for f in findings)


def findings_text_cell(findings: Sequence[Finding], lang: str) -> str:
    """A row's findings in words, in ``lang``, as ``treaty check`` lists them under the item (``missing fact: holding
    (a, b) (needed by <provision>; <provision>); state it in `holdings (a record of a in b)```): those about one
    fact said once (:func:`~pyhelpers.output.render.merged_findings`), each as
    :func:`~pyhelpers.output.render.finding_text` writes it (a Protocol item cited in ``lang``'s word, as `treaty check`
    cites it), one after the other, separated by `` | `` (a finding's own words hold semicolons)."""
    return " | ".join(readings.provision_text(render.finding_text(f, lang), lang)
                      for f in render.merged_findings(findings))


def _own_columns(row: Row) -> dict[str, str]:
    """A copy of the row's columns, those named like a result column left out (a ledger read by :func:`batch_rows`
    has none: copied whole)."""
    columns = row.columns
    if _RESULT_NAMES.isdisjoint(columns):
        return columns.copy()
    return {k: v for k, v in columns.items() if k not in _RESULT_NAMES}


_NO_RESULT = dict.fromkeys(RESULT_COLUMNS, "")


_CASE_CELLS: dict[tuple[int, str], tuple[tuple[object, ...], tuple[str, ...]]] = {}
"""The cells of a result that are its case's (the same for every row of the case: treaty, status, outcomes, cap,
entitlement, provisions), by the identity of the result's ``states`` and the language, with the objects they were
made from (kept alive here, so an identity is never another's while cached; checked on each use)."""


def _case_cells(r: ItemResult, home: str, lang: str) -> tuple[str, ...]:
    """The case's cells, in the order of :data:`RESULT_COLUMNS` (the row's own figures and findings left empty)."""
    made_of = (home, r.treaty, r.status, r.states, r.max_rate_bp, r.entitlement, r.provisions, lang)
    hit = _CASE_CELLS.get((id(r.states), lang))
    if hit is not None and all(map(operator.is_, hit[0], made_of)):  # the same objects (both tuples of 8)
        return hit[1]
    partner = next((s for s in r.states if s.state != home), None)
    br = next((s for s in r.states if s.state == home), None)
    bp = r.max_rate_bp
    cells = (r.treaty, r.status, render.batch_outcome_cell(br, lang) if br else "", br.label if br else "",
             partner.state if partner else "", render.batch_outcome_cell(partner, lang) if partner else "",
             partner.label if partner else "", render.batch_cap_cell(bp, None, lang), str(bp) if bp is not None else "",
             "", "", "", "", "", str(r.entitlement) if r.entitlement is not None else "", "; ".join(r.provisions),
             "", "", "", "")
    if len(_CASE_CELLS) >= 4_000:
        _CASE_CELLS.clear()
    _CASE_CELLS[id(r.states), lang] = (made_of, cells)
    return cells


def _cap_cells(r: ItemResult, lang: str) -> tuple[str, str, str]:
    """The ``cap``, ``cap_bp`` and ``cap_at_most_bp`` cells of a row answered with its bound (``--bounds``): the
    item's cap, or ``at most`` the cap a missing fact leaves open (:func:`bound_bp`)."""
    if r.max_rate_bp is not None:
        return _cap_cell(r.max_rate_bp, None, lang), str(r.max_rate_bp), ""
    at_most = bound_bp(r.states) if r.status == "missing" else None
    return _cap_cell(None, at_most, lang), "", str(at_most) if at_most is not None else ""


def _cap_cell(bp: int | None, at_most_bp: int | None, lang: str) -> str:
    """``render.batch_cap_cell``, each once (:data:`_CAP_CELLS`)."""
    key = (bp, at_most_bp, lang)
    cell = _CAP_CELLS.get(key)
    if cell is None:
        if len(_CAP_CELLS) >= 1_024:
            _CAP_CELLS.clear()
        cell = _CAP_CELLS[key] = render.batch_cap_cell(bp, at_most_bp, lang)
    return cell


def _withholding_text(c: Compliance | None, r: ItemResult, lang: str) -> list[str]:
    """A withholding finding of a row answered with its bound (``--bounds``) that ``depends`` on the missing facts,
    in words for ``findings_text`` (``withholding in Brazil:
    withheld …: compliant or not depending on …; state it in …``, as ``treaty check`` writes it): the facts it
    depends on, each with the scenario field that states it where the conditions of the row's alternatives name
    one; ``withholding_finding`` keeps the machine value alone (``depends``). Nothing for another finding."""
    if c is None or c.finding != "depends" or not c.reason:
        return []
    fields = c.fields or _depends_fields(r.alternatives, c.reason)
    key = (lang, fields, *(v is None if type(v) is Decimal else v for v in c.__dict__.values()))
    kept = _WITHHOLDING_LINES.get(key)
    if kept is None:
        if len(_WITHHOLDING_LINES) >= 4_000:
            _WITHHOLDING_LINES.clear()
        kept = _WITHHOLDING_LINES[key] = _withholding_line(c, fields, lang)
    line, marks = kept
    if marks is None:  # a stand-in amount's words met twice: the row's line written whole
        return [render.compliance_line(dataclasses.replace(c, fields=fields), lang, alternatives_shown=False)]
    for name, mark in marks:
        line = line.replace(mark, formats.amount(getattr(c, name), c.currency, lang))
    return [line]


_DEPENDS_FIELDS: dict[tuple[int, str], tuple[object, tuple[str | None, ...]]] = {}
"""Where the scenario states each fact a ``depends`` withholding finding names (:func:`_depends_fields`), by the
identity of the case's alternatives (kept alive here, checked on each use) and the finding's ``reason``."""


def _depends_fields(alternatives: Sequence[Any], reason: str) -> tuple[str | None, ...]:
    """The field that states each fact of ``reason`` (``; ``-separated) where the conditions of the alternatives name
    one (None where none does): the same for every row of a case."""
    hit = _DEPENDS_FIELDS.get((id(alternatives), reason))
    if hit is not None and hit[0] is alternatives:
        return hit[1]
    named = {cond.fact: cond.field for a in alternatives
             for cond in (*a.holds_if, *(x for both in a.holds_if_any for x in both))}
    fields = tuple(named.get(f) for f in reason.split("; "))
    if len(_DEPENDS_FIELDS) >= 4_000:
        _DEPENDS_FIELDS.clear()
    _DEPENDS_FIELDS[id(alternatives), reason] = (alternatives, fields)
    return fields


_WITHHOLDING_LINES: dict[tuple[Any, ...], tuple[str, tuple[tuple[str, str], ...] | None]] = {}
"""A bounded row's withholding line (:func:`_withholding_text`) with a stand-in for each amount, by the language, the
fields its facts are stated in and its figure's every value but its amounts (of which only whether each is given:
the words are chosen by that alone): the rows of a case differ in their amounts only."""
_STAND_IN_AMOUNT = Decimal("987654321.37")
"""The first stand-in amount (each amount of a figure its own, one apart: no amount of the words is one)."""


def _withholding_line(c: Compliance, fields: tuple[str | None, ...], lang: str
                      ) -> tuple[str, tuple[tuple[str, str], ...] | None]:
    """``render.compliance_line`` of ``c`` (with ``fields``) with a stand-in amount for each of its amounts, and each
    amount's name with its stand-in's words (None where a stand-in's words are in the line more than once)."""
    names = [k for k, v in c.__dict__.items() if type(v) is Decimal]
    stand_ins: dict[str, Any] = {name: _STAND_IN_AMOUNT + k for k, name in enumerate(names)}
    line = render.compliance_line(dataclasses.replace(c, fields=fields, **stand_ins), lang, alternatives_shown=False)
    marks = tuple((name, formats.amount(v, c.currency, lang)) for name, v in stand_ins.items())
    if any(line.count(mark) > 1 for _, mark in marks):
        return line, None
    return line, tuple((name, mark) for name, mark in marks if mark in line)


def _result_record(row: Row, r: ItemResult, home: str, lang: str, bounded: bool = False) -> dict[str, str]:
    """The row's output record (``findings_text`` in ``lang``); ``bounded``: ``r`` is its answer over the missing
    facts' values (:func:`_bounded`)."""
    rec = _own_columns(row)
    rec.update(zip(RESULT_COLUMNS, _case_cells(r, home, lang), strict=True))
    c = r.compliance
    findings, findings_code, findings_text = _findings_cells(r.findings, lang, r.item_id)
    if bounded:
        rec["cap"], rec["cap_bp"], rec["cap_at_most_bp"] = _cap_cells(r, lang)
    rec.update({
        "max_source_tax": cell_text(r.max_source_tax),
        "tax_due": cell_text(c.due) if c else "",
        "withholding_finding": c.finding if c else "",
        "withholding_difference": cell_text(c.difference if c.difference is not None or not bounded
                                            else c.difference_at_least) if c else "",
        "findings": findings,
        "findings_code": findings_code,
        "findings_text": " | ".join(filter(None, [findings_text, *(_withholding_text(c, r, lang) if bounded else [])])),
        "error": "",
    })
    return rec


# ------------------------------------------------------------------------------------ running ---

_WORKER: list[tuple[PartitionSpec, ChunkWriter]] = []
"""A pool worker's spec and chunk writer (set by :func:`_init_worker`)."""


def _init_worker(spec: PartitionSpec, writer: ChunkWriter) -> None:
    """In a worker: Ctrl-C is for the batch process, which stops the workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER[:] = [(spec, writer)]


def _check_in_worker(part: Spooled) -> Written:
    spec, writer = _WORKER[0]
    return check_spooled_and_write(part, spec, writer)


def _chunks(rows: Iterator[Row], size: int, skip: set[int]) -> Iterator[tuple[int, list[Row]]]:
    """Chunks of rows with their index (those in ``skip`` are read but not yielded); a row whose id an
    earlier row has is marked as an error here, where the whole ledger is seen."""
    part: list[Row] = []
    index = 0
    first_row: dict[str, int] = {}
    for row in rows:
        rid = row.row_id
        if rid:
            earlier = first_row.setdefault(rid, row.number)
            if earlier != row.number:
                row = Row(row.number, row.columns, row.line, duplicate_problem(rid, earlier, row.error))
        part.append(row)
        if len(part) >= size:
            if index not in skip:
                yield index, part
            index += 1
            part = []
    if part and index not in skip:
        yield index, part


def _check_output(out: Path, ledger: Path, context: Path) -> None:
    """Refuse an output that is the ledger or the context, a folder, or in no folder."""
    for other, what in ((ledger, "the ledger"), (context, "the context")):
        if out.resolve() == other.resolve() or (out.exists() and other.exists() and os.path.samefile(out, other)):
            raise BatchError(f"{out}: expected an output file other than {what}, found {what} itself (the results "
                             f"would replace it): choose another -o")
    if out.is_dir():
        raise OutputError(f"{out}: expected a file name for the output, found a folder: choose another -o")
    if not out.parent.is_dir():
        raise OutputError(f"{out}: expected an existing folder for the output, found no folder {out.parent}: "
                          f"create it, or choose another -o")


def run_batch(ledger: str | Path, context_path: str | Path, out: str | Path, *, workers: int = 2,
              chunk_size: int = DEFAULT_CHUNK, resume: bool = False, checker: Checker | None = None,
              progress: Callable[[int], None] | None = None, lang: str = "en", bounds: bool = True) -> Summary:
    """Decide every row of ``ledger`` against the context; write ``out`` (format by extension); a bad row's
    message in ``lang``; with ``bounds`` (the default; ``--no-bounds`` turns it off), a row whose outcome a missing
    fact leaves undetermined with its bound, as ``treaty check`` answers its scenario (:attr:`BatchContext.bounds`).
    ``progress(n)`` is told
    as each chunk of ``n`` rows is written (on ``resume``, the rows the interrupted run wrote first, in one call).

    Raises :class:`BatchError` (a bad ledger, context or resume), :class:`LedgerError` (the ledger cannot
    be read whole: nothing is kept), :class:`~pyhelpers.base.errors.OutputError` (the output cannot be
    written: another ``-o``, or free space and resume). A KeyboardInterrupt leaves the chunks written so
    far for ``resume=True``."""
    ledger, out, context = Path(ledger), Path(out), Path(context_path)
    ledger_format(ledger)
    fmt = ledger_format(out)
    if not ledger.is_file():
        raise BatchError(f"{ledger}: expected an existing ledger file, found no such file")
    _check_output(out, ledger, context)
    ctx = load_batch_context(context, ledger, checker, lang, bounds)
    lock = Lock(out)
    with writing(out):
        lock.acquire()
    try:
        return _run_locked(ctx, ledger, context, out, fmt, workers, chunk_size, resume, progress)
    finally:
        lock.release()


def _run_locked(ctx: BatchContext, ledger: Path, context: Path, out: Path, fmt: str, workers: int,
                chunk_size: int, resume: bool, progress: Callable[[int], None] | None) -> Summary:
    parts = parts_folder(out)
    if parts.is_dir() and not (parts / JOURNAL).exists() and out.is_file():
        with writing(out):
            shutil.rmtree(parts)  # what is left of a finished run whose clean-up was interrupted
    if resume and not parts.exists() and out.is_file():
        return Summary(nothing_to_resume=True)
    before = ledger.stat()
    spec = partition_spec(context, ctx.ledger, ctx.checker.logic.digest, ctx.checker.strict, ctx.lang, ctx.bounds)
    header = {"journal": JOURNAL_VERSION, "ledger": str(ledger.resolve()), "size": before.st_size,
              "sha256": sha256_of(ledger), "context": str(context.resolve()), "context_sha256": sha256_of(context),
              "logic": ctx.checker.logic.digest, "chunk_size": chunk_size, "format": fmt, "lang": ctx.lang,
              "columns": list(RESULT_COLUMNS), **run_options(spec)}
    with writing(out):
        store = ChunkStore(out, fmt, header, resume, RESULT_COLUMNS)
    summary = Summary(resumed_chunks=len(store.done), redone_chunks=store.redone)
    if progress is not None and store.done:
        progress(sum(store.done.values()))  # the rows the interrupted run decided, first
    prime(spec, ctx)
    spool = parts_folder(out) / SPOOL
    jobs: Iterator[Spooled] = spool_partitions(batch_rows(ledger), chunk_size, spool, store.done)  # read once

    def record(result: Written) -> None:
        index, rows, by_status, receipt = result
        store.done[index] = rows
        store.receipts[index] = receipt
        summary.rows += rows
        for status, count in by_status.items():
            summary.by_status[status] = summary.by_status.get(status, 0) + count
        summary.errors += by_status.get("error", 0)
        if progress is not None:
            progress(rows)

    try:
        with writing(out):  # each partition is decided and written, with its journal line, by its worker
            if workers <= 1:
                for part in jobs:
                    record(check_spooled_and_write(part, spec, store.writer))
            else:
                ctx.checker.warm()  # parse once before forking: the workers inherit it
                if processes.forking():  # the first partition decided here: the workers, forked after, inherit its
                    first = next(jobs, None)  # cases, kinds' plans and bounds (each decided once, not once per
                    if first is not None:  # worker; a realistic ledger's first partition meets most of them)
                        record(check_spooled_and_write(first, spec, store.writer))
                    later = next(jobs, None)
                    jobs = iter(()) if later is None else itertools.chain([later], jobs)
                if (pending := next(jobs, None)) is not None:
                    with processes.context().Pool(workers, initializer=_init_worker,
                                                  initargs=(spec, store.writer)) as pool:
                        for result in pool.imap(_check_in_worker, itertools.chain([pending], jobs)):
                            record(result)
    except LedgerError as err:
        store.discard()
        raise LedgerError(f"{err}; nothing was written: fix the ledger and run the command again") from None
    after = ledger.stat()
    if (after.st_size, after.st_mtime_ns) != (before.st_size, before.st_mtime_ns):
        store.discard()
        raise BatchError(f"{ledger}: expected the ledger to stay as it was during the batch, found it changed (the "
                         f"results would mix two versions of it): nothing was written: run the command again")
    with writing(out):
        spool.unlink(missing_ok=True)
        store.finish()
    if len(store.receipts) == len(store.done):  # a run resumed from an older journal has no receipts
        summary.receipt = run_receipt(store.receipts.values())
    return summary


def batch_rows(ledger: str | Path) -> Iterator[Row]:
    """The rows of a ledger to decide (:func:`~pyhelpers.interfaces.ledger.read_rows`): a column named like one of
    :data:`RESULT_COLUMNS` (a CSV header's or a Parquet file's, a JSON Lines row's key) raises
    :class:`LedgerError` naming it, as a column named twice does: its cells would be silently replaced by the
    results. Every engine reads with it (``treaty batch``, Dask, Spark; ``treaty serve`` reads its body with the
    same check), before any row is decided."""
    return read_rows(ledger, RESULT_COLUMNS)


def find_row(ledger: str | Path, row_id: str) -> Row:
    """The row whose ``id`` column is ``row_id`` (for ``treaty explain-row``)."""
    for row in read_rows(ledger):
        if row.row_id == row_id:
            return row
    raise BatchError(f"{ledger}: expected a row with id {row_id!r}, found none")


def row_scenario(ctx: BatchContext, row: Row) -> Scenario:
    """The scenario that decides one row: the context and the row's item (validated as in a batch)."""
    parsed = _parse_row(ctx, row)
    if isinstance(parsed, str):
        raise BatchError(parsed)
    treaty, item, _ = parsed
    scenario = ctx.context.model_copy(update={"treaty": treaty, "income": [item]})
    # the scenario's document (missing records are added to a copy of it): the context's with the row's item as its
    # cells give it, not the models' dump (a rate dumps as basis points, which read again as a percentage is wrong)
    plain = ctx.context._plain_data
    scenario._plain_data = None if plain is None else {**plain, "treaty": treaty,
                                                       "income": [row_item(row, ctx.context_treaty)[1]]}
    inconsistent = check_consistency(scenario, ctx.ledger)
    if inconsistent:
        raise BatchError(f"{_row_source(ctx, row)}: {_problems_text(inconsistent)}")
    return scenario


# ------------------------------------------------------------------------------ the partition path ---
# One path for every engine (the local pool of run_batch, Dask: pyhelpers.interfaces.cluster): a pure,
# picklable function from a partition of rows (an Arrow record batch) to its results (another), with the
# rule base and the context loaded once per process. Its public face is pyhelpers.interfaces.partition.

@dataclass(frozen=True)
class PartitionSpec:
    """What every partition of a batch shares (small and picklable): the context as text with its name
    and SHA-256 (the key of the per-process cache), the ledger's name (rows' messages name it), and the
    SHA-256 of the rule base the client decides with (a worker with other rules refuses)."""

    context_text: str
    context_source: str
    context_sha256: str
    ledger: str
    logic_sha256: str
    strict: bool = False
    """The checker's: no default stands for a fact the law needs (:class:`~pyhelpers.engine.solve.Checker`)."""
    lang: str = "en"
    """The language of the rows' error messages (``--lang``: en, pt, pt-PT)."""
    bounds: bool = False
    """``--bounds``: a row whose outcome a missing fact leaves undetermined is given its bound
    (:attr:`BatchContext.bounds`)."""


def partition_spec(context_path: str | Path, ledger: str | Path, logic_sha256: str,
                   strict: bool = False, lang: str = "en", bounds: bool = False) -> PartitionSpec:
    """The spec of a batch: the context file read as the loader reads it (its text travels with the spec)."""
    return PartitionSpec(read_file(context_path, "context"), str(context_path), sha256_of(Path(context_path)),
                         str(ledger), logic_sha256, strict, lang, bounds)


def run_options(spec: PartitionSpec) -> dict[str, Any]:
    """What a run's journal or manifest header and its partitions' receipts record of the options that change its
    results beyond the ledger, context, rules, partition size and language: ``bounds: true`` with ``--bounds``
    (nothing without it: a run without is recorded as before the option, so its files are the same)."""
    return {"bounds": True} if spec.bounds else {}


_CONTEXTS: dict[tuple[str, bool], BatchContext] = {}
"""This process's contexts by SHA-256, each with its checker (the rule base parsed once per process)."""
_CHECKERS: dict[bool, Checker] = {}
"""Checkers warmed before any context is known (:func:`warm_checker`), by ``strict``."""
_CACHE_LOCK = threading.Lock()


def warm_checker(strict: bool = False) -> None:
    """Parse the rule base now, for the contexts this process (or a process forked from it: a Dask worker
    forked by its fork server) will decide partitions of."""
    with _CACHE_LOCK:
        if strict not in _CHECKERS:
            _CHECKERS[strict] = Checker(strict=strict).warm()


def prime(spec: PartitionSpec, ctx: BatchContext) -> None:
    """Put a context already loaded (with its checker) into this process's cache: ``treaty batch``
    decides with the checker it is given (workers started by ``fork`` inherit it)."""
    with _CACHE_LOCK:
        _CONTEXTS[spec.context_sha256, spec.strict] = ctx


def _partition_context(spec: PartitionSpec) -> BatchContext:
    with _CACHE_LOCK:
        ctx = _CONTEXTS.get((spec.context_sha256, spec.strict))
        if ctx is None:
            checker = next((c.checker for (_, strict), c in _CONTEXTS.items() if strict == spec.strict), None)
            checker = checker or _CHECKERS.get(spec.strict) or Checker(strict=spec.strict).warm()
            if checker.logic.digest != spec.logic_sha256:
                raise BatchError(f"this worker's rules (SHA-256 {checker.logic.digest[:12]}…) are not the client's "
                                 f"({spec.logic_sha256[:12]}…): install the same treaty-logic on every worker")
            context, treaty = load_context_text(spec.context_text, spec.context_source)
            ctx = BatchContext(context, treaty, spec.ledger, checker)
            _CONTEXTS[spec.context_sha256, spec.strict] = ctx
    if (ctx.ledger, ctx.lang, ctx.bounds) == (spec.ledger, spec.lang, spec.bounds):
        return ctx
    return replace(ctx, ledger=spec.ledger, lang=spec.lang, bounds=spec.bounds)  # the same memo: its cases


def check_partition(batch: Any, spec: PartitionSpec) -> Any:
    """Decide a partition of rows: a ``pyarrow.RecordBatch`` in (the ledger's columns and the reserved
    ones of :func:`~pyhelpers.interfaces.ledger.rows_to_batch`), one out, row for row: ``treaty batch``'s
    output columns (the ledger's own, then :data:`RESULT_COLUMNS`; a bad row has ``status=error`` and its
    message) with the row's number and column order carried (:data:`~pyhelpers.interfaces.ledger.ROW`,
    :data:`~pyhelpers.interfaces.ledger.ORDER`). :func:`batch_to_records` gives the records to write."""
    return _checked_batch(batch, decide_partition(batch, spec)[1])


def decide_partition(batch: Any, spec: PartitionSpec) -> tuple[list[Row], list[dict[str, str]]]:
    """A partition's rows and their output records: what :func:`batch_to_records` gives of
    :func:`check_partition`'s batch (each record the row's own columns in its order, then the results),
    without the conversion to Arrow and back (for an engine that writes the records itself)."""
    with no_cycle_collection():
        rows = batch_to_rows(batch)
        return rows, decide_rows(_partition_context(spec), rows)


@contextlib.contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Python's cyclic garbage collector paused while a partition is decided and written: its rows make many
    short-lived objects, freed as they go by reference counting, and each collection they set off walked
    the long-lived ones again (the rule base, the cases decided): 12-15% of a worker's time. What the
    partition leaves in cycles is collected after it. Enabled again after if it was (concurrent partitions
    of one process: by the last that paused it)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _checked_batch(batch: Any, records: Sequence[dict[str, str]]) -> Any:
    """The record batch :func:`check_partition` gives for ``batch`` decided into ``records``."""
    import pyarrow as pa

    names = [n for n in batch.schema.names if n not in RESERVED and n not in RESULT_COLUMNS]
    arrays = {n: pa.array([rec.get(column_name(n)) for rec in records], type=pa.string()) for n in names}
    arrays.update({n: pa.array([rec.get(n) for rec in records], type=pa.string()) for n in RESULT_COLUMNS})
    arrays[ROW] = batch.column(ROW)
    arrays[ORDER] = batch.column(ORDER)
    return pa.RecordBatch.from_pydict(arrays)


def batch_to_records(batch: Any) -> list[dict[str, str]]:
    """The output records of a checked partition, each with its columns in the order ``treaty batch``
    writes them (the row's own, then the results)."""
    data = batch.to_pydict()
    names = [n for n in batch.schema.names if n not in RESERVED and n not in RESULT_COLUMNS]
    records = []
    for i in range(batch.num_rows):
        rec = {column_name(k): data[k][i] for k in row_keys(data, names, i) if k not in RESULT_COLUMNS}
        rec.update({c: data[c][i] for c in RESULT_COLUMNS})
        records.append(rec)
    return records


def _digest(lines: Iterable[str]) -> str:
    """The SHA-256 of the lines, each followed by a line break."""
    text = "".join(f"{line}\n" for line in lines)
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()



def partition_receipt(spec: PartitionSpec, rows: Sequence[Row], records: Sequence[dict[str, str]],
                      results_sha256: str | None = None) -> dict[str, Any]:
    """What proves which rules decided a partition, and reproduces it: the versions, the SHA-256 of the
    rule base and of the context, the partition's first row and row count, and the SHA-256 of its rows
    (number, line, columns, and the error of a row that has one before it is decided) and of its results
    (the records, in order: ``results_sha256`` where already hashed, :func:`part_and_results`)."""
    return {
        "package_version": package_version(), "clingo_version": clingo.__version__,
        "logic_sha256": spec.logic_sha256, "context_sha256": spec.context_sha256,
        "first_row": rows[0].number if rows else 0, "rows": len(rows),
        "rows_sha256": _digest(map(_row_text, rows)),
        "results_sha256": _digest(map(json_text, records)) if results_sha256 is None else results_sha256,
        **run_options(spec),
    }


def part_and_results(fmt: str, records: list[dict[str, str]]) -> tuple[PartBytes | None, str | None]:
    """A part's bytes made in memory (:func:`~pyhelpers.interfaces.chunks.part_bytes`: None for Parquet) and, where it
    is the same text, the receipt's ``results_sha256``: a JSON Lines part is the records' JSON texts each followed by a
    line break, which is what :func:`partition_receipt` hashes as the results, so they are made and hashed once."""
    if fmt != ".jsonl":
        return part_bytes(fmt, records, RESULT_COLUMNS), None
    text = results_text(records)
    made = part_bytes(fmt, records, RESULT_COLUMNS, text)
    if made is None or os.linesep != "\n":
        return made, None
    return made, made.sha256  # the same bytes: text that UTF-8 encodes is encoded alike with "surrogateescape"


def _row_text(r: Row) -> str:
    """``json_text([number, line, columns])`` of a row (its error last, if it has one), its columns' text made as
    :func:`~pyhelpers.interfaces.chunks.json_text` makes a dict's (without the encoder, where they are plain text)."""
    number, line = r.number, r.line
    if type(number) is not int or (line is not None and type(line) is not int) or type(r.columns) is not dict:
        return json_text([number, line, r.columns] if r.error is None else [number, line, r.columns, r.error])
    head = f"[{number}, {'null' if line is None else line}, {json_text(r.columns)}"
    return f"{head}]" if r.error is None else f"{head}, {json_text(r.error)}]"


def receipt_digest(receipt: dict[str, Any]) -> str:
    """The SHA-256 of a partition's receipt (its JSON, keys sorted)."""
    return _digest([json.dumps(receipt, sort_keys=True)])


def run_receipt(receipts: Iterable[dict[str, Any]]) -> str:
    """The SHA-256 of a whole run's partition receipts (of their digests, in the order of their rows): the
    same ledger, context, rules and partition size give the same on every engine."""
    return _digest(receipt_digest(r) for r in sorted(receipts, key=lambda r: int(r["first_row"])))


def partitions(rows: Iterable[Row], size: int, skip: Iterable[int] = ()) -> Iterator[tuple[int, list[Row]]]:
    """Partitions of ``size`` rows with their index (those in ``skip`` are read but not yielded)."""
    skipped = set(skip)
    part: list[Row] = []
    index = 0
    for row in rows:
        part.append(row)
        if len(part) >= size:
            if index not in skipped:
                yield index, part
            index += 1
            part = []
    if part and index not in skipped:
        yield index, part


def ledger_rows(ledger: Path) -> Iterator[Row]:
    """The ledger's rows, those whose id an earlier row has marked as errors (a first pass over the
    ledger finds them: :func:`~pyhelpers.interfaces.ledger.duplicate_rows`)."""
    return mark_duplicates(batch_rows(ledger), duplicate_rows(batch_rows(ledger)))


Written = tuple[int, int, dict[str, int], dict[str, Any]]
"""A partition decided and written: its index, its row count, its rows by status, its receipt."""


def check_and_write(index: int, batch: Any, spec: PartitionSpec, writer: ChunkWriter) -> Written:
    """Decide partition ``index`` and write it with its journal line (in the process that decided it)."""
    with no_cycle_collection():
        return _write(index, *decide_partition(batch, spec), spec, writer)


def decide_spooled(part: Spooled, spec: PartitionSpec) -> tuple[list[Row], list[dict[str, str]]]:
    """:func:`decide_partition` of a partition written to a spool
    (:func:`~pyhelpers.interfaces.ledger.spool_partitions`): the worker reads its rows from there (no row
    passes through a scheduler). Call it with the cyclic collector paused (:func:`no_cycle_collection`), as
    the caller writes the records after."""
    rows = spooled_rows(part)
    return rows, decide_rows(_partition_context(spec), rows)


def warm_partition(spec: PartitionSpec) -> None:
    """Load this process's rule base and context for ``spec`` now (a worker that starts, before its first
    partition: once per process, then cached); a problem is left for the first partition to raise."""
    with contextlib.suppress(TreatyLogicError):
        _partition_context(spec)


def check_spooled_and_write(part: Spooled, spec: PartitionSpec, writer: ChunkWriter) -> Written:
    """:func:`check_and_write` of a partition that ``treaty batch`` wrote to its spool
    (:func:`~pyhelpers.interfaces.ledger.spool_partitions`): the rows are read from there, as the record batch
    of :func:`~pyhelpers.interfaces.ledger.rows_to_batch` would give them, with no conversion to Arrow and back."""
    with no_cycle_collection():
        rows = spooled_rows(part)
        return _write(part.index, rows, decide_rows(_partition_context(spec), rows), spec, writer)


def _write(index: int, rows: list[Row], records: list[dict[str, str]], spec: PartitionSpec,
           writer: ChunkWriter) -> Written:
    made, results = part_and_results(writer.fmt, records)
    receipt = partition_receipt(spec, rows, records, results)
    writer.write(index, records, receipt, made)
    by_status: dict[str, int] = {}
    for rec in records:
        by_status[rec["status"]] = by_status.get(rec["status"], 0) + 1
    return index, len(records), by_status, receipt
