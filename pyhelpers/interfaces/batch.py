"""Batch checking of payment ledgers: rows in (CSV, JSON Lines or Parquet), one income item per row,
decided against a group context (persons, holdings, places of business ...), rows out with the outcome.

* The context is loaded and validated once; each chunk of rows becomes one scenario per treaty (the
  context plus the chunk's items) decided in one clingo run, so the context's facts are not repeated
  per row and clingo's fixed cost is paid per chunk.
* A bad row never stops the batch: it gets ``status=error`` and a message naming the ledger, the row,
  the column, what was expected and what was found; every good row is processed.
* Output is written chunk by chunk into ``OUT.parts/`` with a journal of completed chunks; when all
  are done they are joined into ``OUT.tmp`` and renamed to ``OUT``, so a half-written result never
  carries the final name. ``resume=True`` continues an interrupted run from the journal: chunks already
  written are skipped, so no row is duplicated or lost. (A Parquet file has no footer until closed:
  the journal never points into an unfinished file.)

Only the CLI prints; progress is reported through a callback.
"""

from __future__ import annotations

import csv
import json
import multiprocessing
import os
import re
import shutil
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyhelpers.base.errors import InputError, Problem
from pyhelpers.engine.results import ItemResult, format_bp
from pyhelpers.engine.solve import Checker
from pyhelpers.scenario import IncomeItem, Scenario, check_consistency, load_context, validate_item
from pyhelpers.scenario.catalogue import catalogue

FORMATS = (".csv", ".jsonl", ".parquet")

RESULT_COLUMNS = (
    "applicable_treaty", "status", f"outcome_{catalogue().home}", "partner_state", "outcome_partner", "cap",
    "max_source_tax", "tax_due", "withholding_finding", "withholding_difference", "entitlement", "provisions",
    "findings", "error",
)
"""The columns a batch adds after each input row's own (documented in the README); an input column of
the same name is replaced."""

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


class BatchError(InputError):
    """The batch as a whole cannot run (unreadable ledger, bad context, a run to resume is missing)."""


@dataclass(frozen=True)
class Row:
    """One data row of a ledger: its number (1 = the first data row) and its columns as text."""

    number: int
    columns: dict[str, str]

    @property
    def row_id(self) -> str:
        return self.columns.get("id", "")


@dataclass
class Summary:
    """What a batch did."""

    rows: int = 0
    errors: int = 0
    by_status: dict[str, int] = field(default_factory=dict)
    resumed_chunks: int = 0


# ------------------------------------------------------------------------------------- reading ---

def ledger_format(path: str | Path) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        found = repr(suffix) if suffix else "no extension"
        raise BatchError(f"{path}: expected a file ending in {', '.join(FORMATS)}, found {found}")
    return suffix


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def read_rows(path: str | Path) -> Iterator[Row]:
    """The ledger's rows, streamed (never the whole file in memory)."""
    fmt = ledger_format(path)
    try:
        if fmt == ".csv":
            with open(path, newline="", encoding="utf-8") as fh:
                for n, rec in enumerate(csv.DictReader(fh), start=1):
                    yield Row(n, {k.strip(): (v or "").strip() for k, v in rec.items() if k is not None})
        elif fmt == ".jsonl":
            with open(path, encoding="utf-8") as fh:
                n = 0
                for line in fh:
                    if not line.strip():
                        continue
                    n += 1
                    try:
                        rec = json.loads(line)
                    except json.JSONDecodeError as err:
                        found = f"invalid JSON ({err.msg})"
                        yield Row(n, {"__error__": f"expected a JSON object on this line, found {found}"})
                        continue
                    if not isinstance(rec, dict):
                        yield Row(n, {"__error__": f"expected a JSON object on this line, found {type(rec).__name__}"})
                        continue
                    yield Row(n, {str(k): _text(v) for k, v in rec.items()})
        else:
            pq = _parquet()
            n = 0
            for batch in pq.ParquetFile(path).iter_batches(batch_size=2048):
                for rec in batch.to_pylist():
                    n += 1
                    yield Row(n, {str(k): _text(v) for k, v in rec.items()})
    except FileNotFoundError:
        raise BatchError(f"{path}: expected an existing ledger file, found no such file") from None
    except UnicodeDecodeError:
        raise BatchError(f"{path}: expected UTF-8 text, found undecodable bytes") from None


def _parquet() -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError:  # pragma: no cover - pyarrow is a dependency of the parquet extra
        raise BatchError("Parquet needs pyarrow: pip install 'treaty-logic[parquet]'") from None
    return pq


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


def row_item(row: Row, default_treaty: str | None) -> tuple[str, dict[str, Any]]:
    """The treaty and the income item (as a dict for the models) that a row describes.

    Columns: ``id, type, payer, recipient, beneficial_owner, date, place_of_business``; ``gross`` with
    ``currency``; ``withheld`` (amount, in the gross's currency) or ``withheld_rate``, ``domestic_rate``
    and ``withholding_state``; the treaty as ``treaty`` (its id) or ``states`` (its two States), else the
    context's; type-specific facts as dotted columns (``dividend.instrument``, ``interest.
    government_institution_of``; a cell ``true`` or ``false`` is a boolean). Empty cells are not given.
    Raises ValueError(message) for a row that cannot even be read.
    """
    cols = {k: v for k, v in row.columns.items() if v != ""}
    if "__error__" in cols:
        raise ValueError(cols["__error__"])
    treaty = cols.get("treaty")
    if treaty is None and "states" in cols:
        states = sorted(s for s in re.split(r"[\s,;/-]+", cols["states"].lower()) if s)
        by_states = {tuple(sorted(s)): t for t, s in catalogue().states.items()}
        if tuple(states) not in by_states:
            example = " ".join(next(iter(catalogue().states.values())))
            raise ValueError(f"states: expected the Contracting States of a treaty in the corpus "
                             f"(e.g. '{example}'), found {cols['states']!r}")
        treaty = by_states[tuple(states)]
    treaty = treaty or default_treaty
    if treaty is None:
        raise ValueError("treaty: expected the row's treaty (a treaty or states column) or a treaty in the "
                         "context, found nothing")
    if treaty not in catalogue().states:
        raise ValueError(f"treaty: expected one of {', '.join(catalogue().treaties)}, found {treaty!r}")
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


# ---------------------------------------------------------------------------------- deciding ---

@dataclass(frozen=True)
class BatchContext:
    """What every row of a batch shares: the context scenario and the checker."""

    context: Scenario
    context_treaty: str | None
    ledger: str
    checker: Checker


def load_batch_context(context_path: str | Path, ledger: str | Path, checker: Checker | None = None) -> BatchContext:
    context, treaty = load_context(context_path)
    return BatchContext(context, treaty, str(ledger), checker or Checker())


def _row_source(ctx: BatchContext, row: Row) -> str:
    return f"{ctx.ledger} row {row.number}" + (f" (id {row.row_id})" if row.row_id else "")


def decide_rows(ctx: BatchContext, rows: Sequence[Row]) -> list[dict[str, str]]:
    """Decide one chunk of rows; one output record per row, in order (input columns + results)."""
    out: list[dict[str, str] | None] = [None] * len(rows)
    groups: dict[str, list[tuple[int, IncomeItem]]] = {}
    for n, row in enumerate(rows):
        source = _row_source(ctx, row)
        try:
            treaty, data = row_item(row, ctx.context_treaty)
        except ValueError as err:
            out[n] = _error_record(row, f"{source}: {err}")
            continue
        item, problems = validate_item(data, source)
        if item is None:
            out[n] = _error_record(row, f"{source}: {_problems_text(problems)}")
            continue
        groups.setdefault(treaty, []).append((n, item))
    for treaty, members in sorted(groups.items()):
        members = _drop_inconsistent(ctx, treaty, members, rows, out)
        if not members:
            continue
        context = ctx.context.model_copy(update={"treaty": treaty})
        decided = ctx.checker.decide_items(context, [it for _, it in members], ctx.ledger)
        for (n, _), item_result in zip(members, decided, strict=True):
            out[n] = _result_record(rows[n], item_result)
    return [r if r is not None else _error_record(rows[i], "internal: no result") for i, r in enumerate(out)]


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
    rec = {k: v for k, v in row.columns.items() if k != "__error__" and k not in RESULT_COLUMNS}
    rec.update({c: "" for c in RESULT_COLUMNS})
    rec.update({"status": "error", "error": message})
    return rec


def _result_record(row: Row, r: ItemResult) -> dict[str, str]:
    rec = {k: v for k, v in row.columns.items() if k not in RESULT_COLUMNS}
    home = catalogue().home
    partner = next((s for s in r.states if s.state != home), None)
    br = next((s for s in r.states if s.state == home), None)
    c = r.compliance
    rec.update({
        "applicable_treaty": r.treaty,
        "status": r.status,
        f"outcome_{home}": br.label if br else "",
        "partner_state": partner.state if partner else "",
        "outcome_partner": partner.label if partner else "",
        "cap": format_bp(r.max_rate_bp) if r.max_rate_bp is not None else "",
        "max_source_tax": _text(r.max_source_tax),
        "tax_due": _text(c.due) if c else "",
        "withholding_finding": c.finding if c else "",
        "withholding_difference": _text(c.difference) if c else "",
        "entitlement": str(r.entitlement) if r.entitlement is not None else "",
        "provisions": "; ".join(r.provisions),
        "findings": "; ".join(str(f) for f in r.findings),
        "error": "",
    })
    return rec


# ---------------------------------------------------------------------------------- writing ---

class _ChunkStore:
    """``OUT.parts/``: one file per completed chunk and ``journal.jsonl`` listing them."""

    def __init__(self, out: Path, fmt: str, ledger: Path, chunk_size: int, resume: bool) -> None:
        self.out, self.fmt = out, fmt
        self.dir = out.with_name(out.name + ".parts")
        self.journal = self.dir / "journal.jsonl"
        stat = ledger.stat()
        self.header = {"ledger": str(ledger.resolve()), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns,
                       "chunk_size": chunk_size, "format": fmt}
        self.done: dict[int, int] = {}
        if self.dir.exists() and not resume:
            raise BatchError(f"{self.dir} holds an interrupted run: rerun with --resume to continue it, or "
                             f"delete that folder to start again")
        if resume and self.dir.exists():
            self._read_journal()
        else:
            self.dir.mkdir(parents=True)
            self._append(self.header)

    def _read_journal(self) -> None:
        lines = [json.loads(x) for x in self.journal.read_text(encoding="utf-8").splitlines() if x.strip()]
        if not lines or lines[0] != self.header:
            raise BatchError(f"{self.dir}: the interrupted run was for another ledger, chunk size or format; "
                             f"delete that folder to start again")
        for rec in lines[1:]:
            if (self.dir / rec["file"]).exists():
                self.done[rec["chunk"]] = rec["rows"]

    def _append(self, rec: dict[str, Any]) -> None:
        with open(self.journal, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(rec, sort_keys=True) + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    def chunk_path(self, index: int) -> Path:
        return self.dir / f"{index:08d}{self.fmt}"

    def write(self, index: int, records: list[dict[str, str]]) -> None:
        path = self.chunk_path(index)
        tmp = path.with_name(path.name + ".tmp")
        _write_records(tmp, self.fmt, records)
        os.replace(tmp, path)
        self._append({"chunk": index, "rows": len(records), "file": path.name})
        self.done[index] = len(records)

    def finish(self) -> None:
        """Join the chunk files in order into OUT.tmp, rename it to OUT, remove the parts."""
        tmp = self.out.with_name(self.out.name + ".tmp")
        paths = [self.chunk_path(i) for i in sorted(self.done)]
        _join(paths, tmp, self.fmt)
        os.replace(tmp, self.out)
        shutil.rmtree(self.dir)


def _columns(records: Iterable[dict[str, str]]) -> list[str]:
    seen: dict[str, None] = {}
    for rec in records:
        for k in rec:
            if k not in RESULT_COLUMNS:
                seen.setdefault(k, None)
    return [*seen, *RESULT_COLUMNS]


def _write_records(path: Path, fmt: str, records: list[dict[str, str]]) -> None:
    if fmt == ".jsonl":
        with open(path, "w", encoding="utf-8") as fh:
            for rec in records:
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
        return
    cols = _columns(records)
    if fmt == ".csv":
        with open(path, "w", newline="", encoding="utf-8") as fh:
            w = csv.DictWriter(fh, fieldnames=cols, lineterminator="\n")
            w.writeheader()
            w.writerows(records)
        return
    import pyarrow as pa

    table = pa.table({c: pa.array([rec.get(c, "") for rec in records], type=pa.string()) for c in cols})
    _parquet().write_table(table, path)


def _join(paths: list[Path], out: Path, fmt: str) -> None:
    if fmt == ".jsonl":
        with open(out, "wb") as dst:
            for p in paths:
                with open(p, "rb") as src:
                    shutil.copyfileobj(src, dst)
        return
    if fmt == ".csv":
        columns: dict[str, None] = {}
        for p in paths:  # chunks may differ in the ledger's own columns (JSON Lines rows): union of headers
            with open(p, newline="", encoding="utf-8") as fh:
                for c in next(csv.reader(fh), []):
                    columns.setdefault(c, None)
        cols = [c for c in columns if c not in RESULT_COLUMNS] + list(RESULT_COLUMNS)
        with open(out, "w", newline="", encoding="utf-8") as dst:
            w = csv.DictWriter(dst, fieldnames=cols, lineterminator="\n", restval="")
            w.writeheader()
            for p in paths:
                with open(p, newline="", encoding="utf-8") as fh:
                    w.writerows(csv.DictReader(fh))
        return
    import pyarrow as pa

    pq = _parquet()
    tables = [pq.read_table(p) for p in paths]
    names: dict[str, None] = {}
    for t in tables:
        for c in t.column_names:
            if c not in RESULT_COLUMNS:
                names.setdefault(c, None)
    schema = pa.schema([(c, pa.string()) for c in [*names, *RESULT_COLUMNS]])
    with pq.ParquetWriter(out, schema) as writer:
        for t in tables:
            arrays = {c: (t.column(c) if c in t.column_names else pa.array([""] * t.num_rows, type=pa.string()))
                      for c in schema.names}
            writer.write_table(pa.table(arrays, schema=schema))


# ------------------------------------------------------------------------------------ running ---

_WORKER_CONTEXT: BatchContext | None = None


def _decide_in_worker(job: tuple[int, list[Row]]) -> tuple[int, list[dict[str, str]]]:
    assert _WORKER_CONTEXT is not None
    index, rows = job
    return index, decide_rows(_WORKER_CONTEXT, rows)


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
                row = Row(row.number, {**row.columns, "__error__": f"id: expected an id no other row has, found "
                                                                    f"{rid!r}, already row {earlier}"})
        part.append(row)
        if len(part) >= size:
            if index not in skip:
                yield index, part
            index += 1
            part = []
    if part and index not in skip:
        yield index, part


def run_batch(ledger: str | Path, context_path: str | Path, out: str | Path, *, workers: int = 2,
              chunk_size: int = 500, resume: bool = False, checker: Checker | None = None,
              progress: Callable[[int], None] | None = None) -> Summary:
    """Decide every row of ``ledger`` against the context; write ``out`` (format by extension)."""
    ledger, out = Path(ledger), Path(out)
    ledger_format(ledger)
    fmt = ledger_format(out)
    if not ledger.is_file():
        raise BatchError(f"{ledger}: expected an existing ledger file, found no such file")
    ctx = load_batch_context(context_path, ledger, checker)
    store = _ChunkStore(out, fmt, ledger, chunk_size, resume)
    summary = Summary(resumed_chunks=len(store.done))
    jobs = _chunks(read_rows(ledger), chunk_size, set(store.done))

    def record(index: int, records: list[dict[str, str]]) -> None:
        store.write(index, records)
        summary.rows += len(records)
        for rec in records:
            summary.by_status[rec["status"]] = summary.by_status.get(rec["status"], 0) + 1
        summary.errors += sum(1 for rec in records if rec["status"] == "error")
        if progress is not None:
            progress(len(records))

    if workers <= 1:
        for index, rows in jobs:
            record(index, decide_rows(ctx, rows))
    else:
        global _WORKER_CONTEXT
        _WORKER_CONTEXT = ctx
        ctx.checker.warm()  # parse once before forking: the workers inherit it
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for index, records in pool.imap(_decide_in_worker, jobs):
                record(index, records)
    store.finish()
    return summary


def find_row(ledger: str | Path, row_id: str) -> Row:
    """The row whose ``id`` column is ``row_id`` (for ``treaty explain-row``)."""
    for row in read_rows(ledger):
        if row.row_id == row_id:
            return row
    raise BatchError(f"{ledger}: expected a row with id {row_id!r}, found none")


def row_scenario(ctx: BatchContext, row: Row) -> Scenario:
    """The scenario that decides one row: the context and the row's item (validated as in a batch)."""
    source = _row_source(ctx, row)
    try:
        treaty, data = row_item(row, ctx.context_treaty)
    except ValueError as err:
        raise BatchError(f"{source}: {err}") from None
    item, problems = validate_item(data, source)
    if item is None:
        raise BatchError(f"{source}: {_problems_text(problems)}")
    scenario = ctx.context.model_copy(update={"treaty": treaty, "income": [item]})
    inconsistent = check_consistency(scenario, ctx.ledger)
    if inconsistent:
        raise BatchError(f"{source}: {_problems_text(inconsistent)}")
    return scenario
