"""Reading payment ledgers (CSV, JSON Lines, Parquet) for ``treaty batch``: rows streamed, never the
whole file in memory, each with its number and the line it begins on.

A row that cannot be read is still a row: its problem goes into its :attr:`Row.error` (a cell or column
name over :data:`MAX_FIELD` characters, bytes that are not UTF-8, a JSON \\u escape of a lone surrogate, a
line that is not a JSON object, a cell that would be lost: beyond the CSV header, a second under columns
without a name, a JSON key given twice), its other columns are kept, and the batch reports it on that row.
The error is kept apart from the columns: a ledger's column may have any name (``__error__``, ``__row__``
...) and is carried through like any other. Only a problem of the whole file raises
:class:`~pyhelpers.base.errors.LedgerError`: a quoted CSV cell that never closes (it would swallow the rows
after it), a header that is not UTF-8 or names a column twice (so does a Parquet file), a file pyarrow
cannot read. Text files are read as UTF-8 with or without a byte order mark (Excel's "CSV UTF-8" writes
one).
"""

from __future__ import annotations

import contextlib
import csv
import heapq
import json
import marshal
import re
import sys
import tempfile
import zlib
from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from pyhelpers.base.errors import BatchError, LedgerError
from pyhelpers.base.version import pip_extra

FORMATS = (".csv", ".jsonl", ".parquet")

MAX_FIELD = 131_072
"""The longest cell (or column name) a ledger may have, in characters, in every format: the limit of
Python's csv module. A longer cell is an error of its row."""

_UNDECODABLE = re.compile("[\udc80-\udcff]")
"""A byte that is not UTF-8, as the ``surrogateescape`` error handler reads it (valid UTF-8 never
decodes to a lone surrogate)."""

_SURROGATE = re.compile("([\ud800-\udfff])")
"""A lone surrogate: a byte that is not UTF-8 (:data:`_UNDECODABLE`), or a JSON ``\\u`` escape of one half
of a UTF-16 surrogate pair (``"\\ud800"``), which is no character and cannot be written as UTF-8."""

_LONE = re.compile("([\ud800-\udc7f\udd00-\udfff])")
"""A lone surrogate that is not a byte read with ``surrogateescape``."""


@dataclass(frozen=True)
class Row:
    """One data row of a ledger: its number (1 = the first data row), its columns as text, the line of
    the file it begins on (None for Parquet), and what makes it an error before it is decided (a cell that
    cannot be read, an id an earlier row has), apart from its columns, whatever they are named."""

    number: int
    columns: dict[str, str]
    line: int | None = None
    error: str | None = None

    @property
    def row_id(self) -> str:
        return self.columns.get("id", "")


def ledger_format(path: str | Path) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        found = repr(suffix) if suffix else "no extension"
        raise BatchError(f"{path}: expected a file ending in {', '.join(FORMATS)}, found {found}")
    return suffix


def cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def read_rows(path: str | Path, taken: Sequence[str] = ()) -> Iterator[Row]:
    """The ledger's rows, streamed (never the whole file in memory). A row that cannot be read gets its
    problem as its :attr:`Row.error`; a problem of the whole file raises :class:`LedgerError`. Text
    files may begin with a UTF-8 byte order mark (Excel's "CSV UTF-8"). ``taken``: names no column may
    have (``treaty batch``'s result columns, which would replace its cells): a CSV header or a Parquet
    file naming one, or a JSON Lines row with such a key, raises (:func:`taken_problem`)."""
    fmt = ledger_format(path)
    try:
        if fmt == ".parquet":
            yield from _parquet_rows(Path(path), taken)
            return
        with open(path, newline="" if fmt == ".csv" else None, encoding="utf-8-sig",
                  errors="surrogateescape") as fh:
            if fmt == ".csv":
                yield from _csv_rows(Path(path), fh, taken)
            else:
                yield from jsonl_rows(fh, taken=taken, source=str(path))
    except (FileNotFoundError, IsADirectoryError):
        raise BatchError(f"{path}: expected an existing ledger file, found no such file") from None


COUNT_BLOCK = 1 << 20
"""Bytes read at a time by :func:`count_rows`."""


def count_rows(path: str | Path) -> int | None:
    """The ledger's number of rows as a progress bar's total, cheaply: a Parquet file's metadata; the lines of
    a CSV file (less its header) or a JSON Lines file, counted in binary blocks. An estimate: a blank line,
    or a line break inside a quoted CSV cell, counts as a row. None when it cannot be known (a file that
    does not open or is not Parquet: the batch says why)."""
    try:
        fmt = ledger_format(path)
        if fmt == ".parquet":
            return int(parquet().ParquetFile(path).metadata.num_rows)
        lines, last = 0, b"\n"
        with open(path, "rb") as fh:
            while block := fh.read(COUNT_BLOCK):
                lines += block.count(b"\n")
                last = block[-1:]
        lines += last != b"\n"  # a last line without a line break
        return max(0, lines - (fmt == ".csv"))
    except (OSError, ValueError, BatchError):
        return None


def readable(text: str, raw: bool = True) -> str:
    """``text`` as it can be shown: bytes that are not UTF-8 as U+FFFD, any other lone surrogate as its
    escape (``'\\ud800'``), cut to 40 characters. ``raw=False``: ``text`` holds no byte (JSON text read as
    UTF-8), so every lone surrogate is shown as its escape."""
    parts = (_LONE if raw else _SURROGATE).split(text)
    shown = "".join(part if k % 2 else part.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
                    for k, part in enumerate(parts))  # a lone surrogate: kept, repr() escapes it
    return repr(shown if len(shown) <= 40 else shown[:40] + "…")


def _bad_bytes(text: str) -> str:
    found = sorted({f"0x{ord(c) - 0xDC00:02x}" for c in _UNDECODABLE.findall(text)})
    return f"the byte(s) {', '.join(found)}, which are not UTF-8 (save the ledger as UTF-8)"


def _not_utf8(text: str) -> str:
    return f"expected UTF-8 text, found {readable(text)} with {_bad_bytes(text)}"


def _not_text(text: str, raw: bool) -> str:
    """What is wrong with ``text``, which holds lone surrogates: bytes that are not UTF-8 (where ``raw``: read
    from the file with ``surrogateescape``) and JSON escapes of half a surrogate pair (where not ``raw``, every
    lone surrogate is one)."""
    lone = sorted(set((_LONE if raw else _SURROGATE).findall(text)))
    if not lone:
        return _not_utf8(text)
    shown = ", ".join("\\u" + format(ord(c), "04x") for c in lone)
    escapes = (f"the lone surrogate(s) {shown} (a \\u escape of half a UTF-16 surrogate pair, which is no "
               f"character: write the character itself, or both halves of its pair)")
    if raw and _UNDECODABLE.search(text):
        return f"expected UTF-8 text, found {readable(text)} with {_bad_bytes(text)}, and {escapes}"
    return f"expected text that can be written as UTF-8, found {readable(text, raw)} with {escapes}"


def _checked_row(number: int, line: int | None, columns: dict[str, str], problems: list[str] | None = None,
                 raw: bool = True, repeated: dict[str, int] | None = None) -> Row:
    """A row whose cells (and column names) over :data:`MAX_FIELD` characters or with lone surrogates
    (bytes that are not UTF-8; JSON escapes of half a surrogate pair), or whose key is ``repeated`` (a JSON
    object's key given that many times: one value would be lost), are left out and named in its
    :attr:`Row.error`; the other columns are kept (its id among them). ``raw``: a surrogate of
    :data:`_UNDECODABLE` may be a byte of the file (not in a JSON Lines line that was all UTF-8)."""
    problems = list(problems or [])
    kept: dict[str, str] = {}
    for key, value in columns.items():
        if len(key) > MAX_FIELD:
            problems.append(f"a column name: expected at most {MAX_FIELD:,} characters, found {len(key):,}")
        elif _SURROGATE.search(key):
            problems.append(f"a column name: {_not_text(key, raw)}")
        elif repeated and key in repeated:
            problems.append(f"{key}: expected the key once in the JSON object, found it {repeated[key]} times (one "
                            f"value would be lost)")
        elif len(value) > MAX_FIELD:
            problems.append(f"{key}: expected at most {MAX_FIELD:,} characters, found {len(value):,}")
        elif _SURROGATE.search(value):
            problems.append(f"{key}: {_not_text(value, raw)}")
        else:
            kept[key] = value
    return Row(number, kept, line, "; ".join(problems) if problems else None)


def _oversized(columns: dict[str, str]) -> bool:
    return any(len(k) > MAX_FIELD or len(v) > MAX_FIELD for k, v in columns.items())


class _Lines:
    """The physical lines of a text file as csv.reader asks for them: counted, each ending in a newline,
    with what the record being read ran into (the end of the file, bytes that are not UTF-8)."""

    def __init__(self, fh: TextIO) -> None:
        self._lines = iter(fh)
        self.number = 0
        """Lines served so far (the line of the last one)."""
        self.in_record = 0
        """Lines served for the record being read."""
        self.ran_out = False
        """The end of the file came inside a record (an unclosed quote)."""
        self.undecodable = False
        self.last = ""

    def start_record(self) -> int:
        """Begin a record; its first line."""
        self.in_record = 0
        self.undecodable = False
        return self.number + 1

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        line = next(self._lines, None)
        if line is None:
            self.ran_out = self.in_record > 0
            raise StopIteration
        self.number += 1
        self.in_record += 1
        if _UNDECODABLE.search(line):
            self.undecodable = True
        if not line.endswith(("\n", "\r")):
            line += "\n"  # the last line: a record never waits for more after it
        self.last = line
        return line


def _split_line(line: str) -> list[str]:
    """The cells of one physical CSV line as the csv module reads them (its default dialect), without its
    limit on a cell's length: for a row with a cell over the limit, so that its other cells are kept."""
    cells: list[str] = []
    cell: list[str] = []
    state = "start"  # start of a cell, plain, quoted, quote (a quote inside a quoted cell)
    for ch in line.rstrip("\r\n"):
        if state == "quoted":
            if ch == '"':
                state = "quote"
            else:
                cell.append(ch)
        elif state == "quote" and ch == '"':
            cell.append(ch)
            state = "quoted"
        elif ch == ",":
            cells.append("".join(cell))
            cell, state = [], "start"
        elif ch == '"' and state == "start":
            state = "quoted"
        else:
            cell.append(ch)
            state = "plain"
    cells.append("".join(cell))
    return cells


def _csv_rows(path: Path, fh: TextIO, taken: Sequence[str] = ()) -> Iterator[Row]:
    """The rows of a CSV file, as csv.DictReader reads them (a missing cell is empty, an empty cell beyond the
    header is left out, blank lines are skipped), each with the line it begins on. A header that names a column
    twice, or one of ``taken``, raises; a row with a cell beyond the header that is not empty, or with more than one
    under columns without a name (carried as the one column ``""``), is an error of its own (a cell would be lost)."""
    lines = _Lines(fh)
    reader = csv.reader(lines)
    unlimited = csv.field_size_limit() > MAX_FIELD  # raised by another user of the csv module: check every cell
    header: list[str] | None = None
    nameless: list[int] = []
    n = 0
    while True:
        start = lines.start_record()
        problems: list[str] = []
        misread = False
        try:
            cells = next(reader, None)
        except csv.Error as err:
            if header is None:
                raise LedgerError(f"{path}:{start}: expected a header row of column names, found {err}") from None
            if lines.in_record > 1:
                raise LedgerError(f"{path}:{start}: expected the quoted cell of the row that begins on this line to "
                                  f"close within {MAX_FIELD:,} characters, found it still open {lines.in_record} "
                                  f"lines later ({err}): is a closing quote missing? (a quote inside a quoted cell "
                                  f"is written twice)") from None
            cells = _split_line(lines.last)  # a row on one line whose cell is over the limit
            misread = True
            if all(len(c) <= MAX_FIELD for c in cells):
                problems.append(f"expected a CSV row, found {err}")
        if lines.ran_out:
            raise LedgerError(f"{path}:{start}: expected a closing quote (\") for a quoted cell of the row that "
                              f"begins on this line, found the end of the file {lines.number - start + 1} "
                              f"line(s) later: close the quote (a quote inside a quoted cell is written twice)")
        if cells is None:
            return
        if header is None:
            if lines.undecodable:
                raise LedgerError(f"{path}:{start}: the header: {_not_utf8(','.join(cells))}")
            header = [c.strip() for c in cells]
            if any(len(c) > MAX_FIELD for c in header):
                raise LedgerError(f"{path}:{start}: the header: expected column names of at most {MAX_FIELD:,} "
                                  f"characters, found one of {max(len(c) for c in header):,}")
            twice = _named_twice(header)
            if twice:
                raise LedgerError(f"{path}:{start}: the header: expected each column name once, found {twice}; "
                                  f"rename all but one (the cells of one would be lost)")
            clash = taken_problem(header, taken)
            if clash:
                raise LedgerError(f"{path}:{start}: the header: {clash}")
            nameless = [k for k, c in enumerate(header) if not c]
            continue
        if not cells:
            continue  # a blank line
        n += 1
        columns = dict(zip(header, map(str.strip, cells), strict=False))
        if len(cells) < len(header):
            columns.update({k: "" for k in header[len(cells):]})
        elif len(cells) > len(header) and any(c.strip() for c in cells[len(header):]):
            beyond = [readable(c.strip()) for c in cells[len(header):] if c.strip()]
            problems.append(f"(row): expected at most {len(header)} cells (as many as the header has columns), found "
                            f"{len(cells)} with {', '.join(beyond)} beyond the last column; is a comma in a cell that "
                            f"is not quoted? (quote such a cell)")
        if len(nameless) > 1:  # columns without a name: one cell of theirs at most, else one would be lost
            given = [k for k in nameless if k < len(cells) and cells[k].strip()]
            columns[""] = cells[given[0]].strip() if given else ""
            if len(given) > 1:
                problems.append(f"(row): expected at most one cell under the columns without a name in the header "
                                f"(columns {', '.join(str(k + 1) for k in nameless)}), found "
                                f"{', '.join(readable(cells[k].strip()) for k in given)}; name them in the header")
                del columns[""]
        if problems or misread or lines.undecodable or unlimited:
            yield _checked_row(n, start, columns, problems)
        else:  # the csv module has held every cell to the limit, and every byte was UTF-8
            yield Row(n, columns, start)


def _named_twice(names: Sequence[str]) -> str:
    """The column names given more than once (an empty one may be: a column without a name), each with how
    often and where (``'memo' 2 times (columns 2, 16)``); empty when there is none."""
    at: dict[str, list[int]] = {}
    for k, name in enumerate(names, start=1):
        if name:
            at.setdefault(name, []).append(k)
    return "; ".join(f"{readable(name)} {len(ks)} times (columns {', '.join(map(str, ks))})"
                     for name, ks in at.items() if len(ks) > 1)


def taken_problem(names: Sequence[str], taken: Sequence[str], where: str = "column") -> str:
    """What is wrong with column ``names`` of which some are ``taken`` (``treaty batch``'s result columns: the
    results would replace their cells), each with its place (``'status' (column 3)``); empty when none is."""
    if not taken:
        return ""
    reserved = frozenset(taken)
    if reserved.isdisjoint(names):
        return ""
    found = [f"{readable(name)} ({where} {k})" if where else readable(name)
             for k, name in enumerate(names, start=1) if name in reserved]
    return (f"expected column names other than the result columns the batch adds ({', '.join(taken)}), found "
            f"{'; '.join(found)}; rename {'it' if len(found) == 1 else 'them'} (the results would replace "
            f"{'its' if len(found) == 1 else 'their'} cells)")


def jsonl_rows(lines: Iterable[str], first_line: int = 1, taken: Sequence[str] = (),
               source: str = "") -> Iterator[Row]:
    """The rows of JSON Lines text (one object a line; blank lines skipped), the first line numbered
    ``first_line``: ``treaty batch`` reads a file, ``treaty serve`` a request body after its context line.
    A row with a key of ``taken`` raises :class:`LedgerError` (``source:line: ...``, :func:`taken_problem`)."""
    reserved = frozenset(taken)
    n = 0
    for number, line in enumerate(lines, start=first_line):
        if not line.strip():
            continue
        n += 1
        try:
            rec = _decode(line)
        except json.JSONDecodeError as err:
            found = _bad_bytes(line) if _UNDECODABLE.search(line) else f"invalid JSON ({err.msg})"
            yield Row(n, {}, number, f"expected a JSON object on this line, found {found}")
            continue
        except ValueError:  # an integer of more digits than Python converts (sys.get_int_max_str_digits())
            yield Row(n, {}, number, f"expected a JSON object of numbers of at most {sys.get_int_max_str_digits():,} "
                                     f"digits on this line, found a longer one")
            continue
        except RecursionError:  # arrays or objects nested deeper than the parser goes
            yield Row(n, {}, number, "expected a JSON object on this line, found lists or objects nested too deep "
                                     "to read")
            continue
        if not isinstance(rec, dict):
            yield Row(n, {}, number, f"expected a JSON object on this line, found {type(rec).__name__}")
            continue
        columns = {str(k): cell_text(v) for k, v in rec.items()}
        if reserved and not reserved.isdisjoint(columns):
            raise LedgerError(f"{source}:{number}: {taken_problem(list(columns), taken, '')}")
        undecodable = _UNDECODABLE.search(line) is not None
        escaped = "\\ud" in line or "\\uD" in line  # perhaps a surrogate's escape (one alone is no character)
        repeated = rec.repeated if isinstance(rec, _Repeated) else None
        if undecodable or escaped or repeated or _oversized(columns):
            yield _checked_row(n, number, columns, raw=undecodable, repeated=repeated)
        else:
            yield Row(n, columns, number)


class _Repeated(dict[str, Any]):
    """A JSON object with a key given more than once (``json`` keeps its last value): the keys and how often."""

    repeated: dict[str, int]


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) == len(pairs):
        return obj
    repeated = _Repeated(obj)
    counts: dict[str, int] = {}
    for key, _ in pairs:
        counts[key] = counts.get(key, 0) + 1
    repeated.repeated = {k: c for k, c in counts.items() if c > 1}
    return repeated


_decode = json.JSONDecoder(object_pairs_hook=_object).decode
"""``json.loads`` of a line, which tells a key given more than once (:class:`_Repeated`)."""


def _parquet_rows(path: Path, taken: Sequence[str] = ()) -> Iterator[Row]:
    pq = parquet()
    try:
        file = pq.ParquetFile(path)
        batches = file.iter_batches(batch_size=2048)
    except (FileNotFoundError, IsADirectoryError):
        raise
    except (OSError, ValueError) as err:  # pyarrow's ArrowInvalid is a ValueError, ArrowIOError an OSError
        raise LedgerError(f"{path}: expected a Parquet file, found one pyarrow cannot read ({err})") from None
    twice = _named_twice([str(name) for name in file.schema_arrow.names])
    if twice:
        raise LedgerError(f"{path}: expected each column name once, found {twice}; rename all but one (the cells of "
                          f"one would be lost)")
    clash = taken_problem([str(name) for name in file.schema_arrow.names], taken)
    if clash:
        raise LedgerError(f"{path}: {clash}")
    n = 0
    while True:
        try:
            batch = next(batches, None)
            records = batch.to_pylist() if batch is not None else []
        except (OSError, ValueError) as err:  # ValueError: also a text column that is not UTF-8 (UnicodeDecodeError)
            raise LedgerError(f"{path}: expected a Parquet file, found one pyarrow cannot read after row {n} "
                              f"({err})") from None
        if batch is None:
            return
        for rec in records:
            n += 1
            columns = {str(k): cell_text(v) for k, v in rec.items()}
            if _oversized(columns):
                yield _checked_row(n, None, columns)
            else:
                yield Row(n, columns)


def parquet() -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError:  # pragma: no cover - pyarrow is a dependency of the parquet extra
        raise BatchError(f"Parquet needs pyarrow: {pip_extra('parquet')}") from None
    return pq


# ------------------------------------------------------------------- rows as Arrow record batches ---

ROW = "__row__"
LINE = "__line__"
ERROR = "__error__"
ORDER = "__order__"
RESERVED = (ROW, LINE, ERROR, ORDER)
"""The columns a partition of rows carries besides the ledger's own: the row's number, the line it begins
on (null for Parquet), what makes it an error before it is decided (:attr:`Row.error`), and its own column
order when it is not the partition's (JSON Lines rows may differ in their keys and their order). A ledger's
own column of any name is kept apart from them: see :func:`batch_name`."""


def batch_name(column: str) -> str:
    """A ledger's column as it is named in a record batch: a name that begins with two underscores gets one
    more (``__row__`` → ``___row__``, ``___x`` → ``____x``), so that no ledger column is taken for a reserved
    one (:data:`RESERVED`, whose names begin with two underscores and not three); :func:`column_name` gives
    it back. Any other name is its own."""
    return "_" + column if column.startswith("__") else column


def column_name(name: str) -> str:
    """The ledger's column that a record batch's (not reserved) column ``name`` is: :func:`batch_name` undone."""
    return name[1:] if name.startswith("___") else name


def rows_to_batch(rows: Sequence[Row]) -> Any:
    """Rows as a ``pyarrow.RecordBatch``: their columns as text (null where a row has none; each named by
    :func:`batch_name`) and :data:`RESERVED`; :func:`batch_to_rows` gives them back as they were."""
    import pyarrow as pa

    layouts: dict[tuple[str, ...], str | None] = {}  # each distinct tuple of keys (most partitions have one)
    for row in rows:
        layouts.setdefault(tuple(row.columns), None)
    names: dict[str, None] = {}
    for layout in layouts:
        for key in layout:
            names.setdefault(key, None)
    for layout in layouts:
        present = set(layout)
        layouts[layout] = (None if list(layout) == [n for n in names if n in present]
                           else json.dumps([batch_name(k) for k in layout]))
    orders = [layouts[tuple(row.columns)] for row in rows]
    columns = [row.columns for row in rows]
    arrays = {batch_name(n): pa.array([c.get(n) for c in columns], type=pa.string()) for n in names}
    arrays[ROW] = pa.array([row.number for row in rows], type=pa.int64())
    arrays[LINE] = pa.array([row.line for row in rows], type=pa.int64())
    arrays[ERROR] = pa.array([row.error for row in rows], type=pa.string())
    arrays[ORDER] = pa.array(orders, type=pa.string())
    return pa.RecordBatch.from_pydict(arrays)


def row_keys(data: dict[str, list[Any]], names: list[str], i: int) -> list[str]:
    """Row ``i``'s own columns (their names in the batch), in its order, of a record batch as ``to_pydict``
    gives it."""
    order = data[ORDER][i]
    keys = json.loads(order) if order is not None else names
    return [k for k in keys if data[k][i] is not None]


def batch_to_rows(batch: Any) -> list[Row]:
    """The rows of a record batch made by :func:`rows_to_batch`."""
    data = batch.to_pydict()
    names = [n for n in batch.schema.names if n not in RESERVED]
    return [Row(number, {column_name(k): data[k][i] for k in row_keys(data, names, i)}, data[LINE][i], data[ERROR][i])
            for i, number in enumerate(data[ROW])]


# ------------------------------------------------------------------------------------ duplicate ids ---

BUCKETS = 64
"""The temporary files the ids are spread over by hash: only one is held in memory at a time."""


def duplicate_rows(rows: Iterable[Row], buckets: int = BUCKETS) -> Generator[tuple[int, str, int], None, None]:
    """``(row number, id, number of the first row with that id)`` for each row whose id an earlier row
    has, in row order: the ids are spread over temporary files by hash, each file's duplicates found on
    their own, the findings merged: no process holds every id in memory. ``rows`` are read whole before
    the first is yielded (a problem of the whole ledger raises then, before any row is decided)."""
    with tempfile.TemporaryDirectory(prefix="treaty-ids-") as tmp:
        folder = Path(tmp)
        with contextlib.ExitStack() as stack:
            files = [stack.enter_context(open(folder / f"{k:03d}.ids", "wb")) for k in range(buckets)]
            for row in rows:
                rid = row.row_id
                if rid:
                    key = _escaped(rid)
                    files[zlib.crc32(key) % buckets].write(b"%d\t%s\n" % (row.number, key))
        found = []
        for k in range(buckets):
            first: dict[bytes, int] = {}
            dups: list[tuple[int, int, bytes]] = []
            with open(folder / f"{k:03d}.ids", "rb") as fh:
                for line in fh:
                    number, _, key = line[:-1].partition(b"\t")
                    n = int(number)
                    earlier = first.setdefault(key, n)
                    if earlier != n:
                        dups.append((n, earlier, key))
            del first
            if dups:
                path = folder / f"{k:03d}.dups"
                with open(path, "wb") as fh:
                    fh.writelines(b"%d\t%d\t%s\n" % dup for dup in sorted(dups))
                found.append(path)
        yield from heapq.merge(*(_read_dups(p) for p in found))


def _escaped(rid: str) -> bytes:
    """An id as one line of bytes, one to one: its UTF-8 (undecodable bytes as they were) with each
    backslash and line break escaped."""
    return rid.encode("utf-8", "surrogateescape").replace(b"\\", b"\\\\").replace(b"\n", b"\\n")


def _unescaped(key: bytes) -> str:
    return re.sub(rb"\\[\\n]", lambda m: b"\n" if m.group(0) == b"\\n" else b"\\", key).decode(
        "utf-8", "surrogateescape")


def _read_dups(path: Path) -> Iterator[tuple[int, str, int]]:
    with open(path, "rb") as fh:
        for line in fh:
            number, earlier, key = line[:-1].split(b"\t", 2)
            yield int(number), _unescaped(key), int(earlier)


def mark_duplicates(rows: Iterable[Row], duplicates: Iterator[tuple[int, str, int]]) -> Iterator[Row]:
    """The rows, each whose id an earlier row has marked as an error (``duplicates`` in row order, as
    :func:`duplicate_rows` gives them)."""
    nxt = next(duplicates, None)
    for row in rows:
        while nxt is not None and nxt[0] < row.number:
            nxt = next(duplicates, None)
        if nxt is not None and nxt[0] == row.number:
            row = Row(row.number, row.columns, row.line, duplicate_problem(nxt[1], nxt[2], row.error))
        yield row


def duplicate_problem(rid: str, earlier: int, error: str | None = None) -> str:
    """The error of a row whose id ``rid`` row ``earlier`` has already, after the row's own ``error`` if
    it has one (every engine marks a duplicate with it: :func:`mark_duplicates`, Spark's)."""
    problem = f"id: expected an id no other row has, found {rid!r}, already row {earlier}"
    return f"{error}; {problem}" if error is not None else problem


# ---------------------------------------------------------------------------- read once, spooled ---

SPOOL = "rows.spool"
"""The spool's name in ``treaty batch``'s ``OUT.parts/`` (removed when the run is complete)."""


@dataclass(frozen=True)
class Spooled:
    """A partition of rows that :func:`spool_partitions` wrote to a spool file: its index, where it lies in
    the spool, and the duplicate ids among its rows (``(row number, id, first row with that id)``, as
    :func:`duplicate_rows` gives them). Small: what a local worker is handed, to read the rows itself
    (:func:`spooled_rows`)."""

    index: int
    spool: str
    offset: int
    length: int
    duplicates: tuple[tuple[int, str, int], ...] = ()
    rows: int = 0
    """How many rows it has."""


def spool_partitions(rows: Iterable[Row], size: int, spool: Path, skip: Iterable[int] = (),
                     buckets: int = BUCKETS) -> Iterator[Spooled]:
    """The partitions of ``size`` rows (those whose index is in ``skip`` are read but not kept) of a ledger
    read once: each is written to the file ``spool`` as it is read (its rows' numbers, lines and columns,
    with :mod:`marshal`, which builds no object but text, numbers, lists and dicts) while their ids go to
    :func:`duplicate_rows`. They are yielded once the whole ledger has been read (a problem of the whole
    ledger raises before any is), each with its rows' duplicates: :func:`spooled_rows` gives its rows
    as ``mark_duplicates(read_rows(...))`` gives them."""
    skipped = set(skip)
    places: list[tuple[int, int, int, int, int, int]] = []  # index, offset, length, first and last row numbers, rows

    def through(fh: Any) -> Iterator[Row]:
        part: list[Row] = []
        index = offset = 0

        def keep() -> int:
            if index in skipped:
                return offset
            data = marshal.dumps([(r.number, r.line, r.columns, r.error) for r in part])
            fh.write(data)
            places.append((index, offset, len(data), part[0].number, part[-1].number, len(part)))
            return offset + len(data)

        for row in rows:
            part.append(row)
            yield row
            if len(part) >= size:
                offset = keep()
                index += 1
                part = []
        if part:
            keep()

    with open(spool, "wb") as fh:
        found = duplicate_rows(through(fh), buckets)
        pending = next(found, None)  # the whole ledger is read here
    try:
        for index, offset, length, first, last, count in places:
            dups = []
            while pending is not None and pending[0] <= last:
                if pending[0] >= first:  # not a row of a partition skipped
                    dups.append(pending)
                pending = next(found, None)
            yield Spooled(index, str(spool), offset, length, tuple(dups), count)
    finally:
        found.close()  # its temporary files


def spooled_rows(part: Spooled) -> list[Row]:
    """The rows of a partition :func:`spool_partitions` wrote, those whose id an earlier row has marked."""
    with open(part.spool, "rb") as fh:
        fh.seek(part.offset)
        data = fh.read(part.length)
    rows = [Row(number, columns, line, error) for number, line, columns, error in marshal.loads(data)]
    return list(mark_duplicates(rows, iter(part.duplicates))) if part.duplicates else rows
