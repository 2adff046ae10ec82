"""The output of ``treaty batch`` while it runs: ``OUT.parts/`` with one file per completed chunk and
a journal, ``OUT.lock``, and the final join into ``OUT``.

* Each chunk file is written under a temporary name, flushed and fsynced, renamed into place (the folder
  fsynced), and only then is its journal line appended (fsynced): the journal never lists a chunk that a
  crash could leave half-written. On resume each listed chunk's SHA-256 and row count are checked: a torn
  or missing chunk is decided again, never accepted; a line cut by a crash at the journal's end is dropped.
* The journal's header records what the run decides (the SHA-256 of the ledger, of the context and of the
  rules, the chunk size, the format, the language of the messages, `--bounds` where given): a resume with any of
  them changed is refused.
* When all chunks are done they are joined into ``OUT.tmp``, fsynced and renamed to ``OUT``: a
  half-written result never carries the final name. The journal is removed first, then the folder.
* ``OUT.lock`` is locked (flock) for the whole run, so a second writer of OUT is refused; the lock goes
  with its process.
* An OSError while writing becomes an :class:`~pyhelpers.base.errors.OutputError` saying what to do.
"""

from __future__ import annotations

import contextlib
import csv
import errno
import hashlib
import io
import json
import operator
import os
import shutil
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from pyhelpers.base.errors import BatchError, OutputError
from pyhelpers.interfaces.ledger import parquet, readable

JOURNAL_VERSION = 2
"""The journal's header records ``journal: 2`` and the hashes of the ledger, the context and the rules
(an earlier journal, without them, cannot be resumed)."""

JOURNAL = "journal.jsonl"
_DISK_FULL = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}
_NOT_ALLOWED = {errno.EACCES, errno.EPERM, errno.EROFS}


def parts_folder(out: Path) -> Path:
    return out.with_name(out.name + ".parts")


@contextlib.contextmanager
def writing(out: Path) -> Iterator[None]:
    """An OSError while writing the output becomes an :class:`OutputError` saying what to do: another
    output, or free space and resume (when a journal holds chunks already written)."""
    try:
        yield
    except OSError as err:
        where = err.filename or out
        then = ("run the same command with --resume (the chunks already written are kept)"
                if (parts_folder(out) / JOURNAL).is_file() else "run the command again")
        if err.errno in _DISK_FULL:
            raise OutputError(f"{where}: the disk is full ({err.strerror}): free some space, then {then}") from None
        if err.errno in _NOT_ALLOWED:
            raise OutputError(f"{where}: cannot write there ({err.strerror}): choose another -o, or make its folder "
                              f"writable, then {then}") from None
        raise OutputError(f"{where}: cannot write the output ({err.strerror or err}): fix that, then {then}") from None


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _fsync_file(path: Path) -> None:
    with open(path, "rb") as fh:
        os.fsync(fh.fileno())


def _fsync_dir(path: Path) -> None:
    """Make the files created or renamed in folder ``path`` durable."""
    if sys.platform == "win32":  # pragma: no cover - a folder cannot be opened there
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _count_rows(path: Path, fmt: str) -> int | None:
    """The number of rows a chunk file holds; None when it cannot be read whole (a torn file)."""
    try:
        if fmt == ".jsonl":
            data = path.read_bytes()
            return data.count(b"\n") if data.endswith(b"\n") else None
        if fmt == ".csv":
            with open(path, newline="", encoding="utf-8") as fh:
                return sum(1 for _ in csv.reader(fh, strict=True)) - 1  # the header
        return int(parquet().ParquetFile(path).metadata.num_rows)
    except (OSError, ValueError, csv.Error):  # pyarrow's errors are OSError or ValueError
        return None


class Lock:
    """``OUT.lock``, locked (flock) for the whole run: a second writer of OUT is refused. The lock goes
    with its process, so a killed run leaves none behind; the file is removed at the end."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.path = out.with_name(out.name + ".lock")
        self.fd = -1

    def acquire(self) -> None:
        """Lock, or raise BatchError naming the process that holds the lock."""
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            if not _try_lock(fd):
                holder = os.read(fd, 32).decode("ascii", "replace").strip()
                os.close(fd)
                by = f" (process {holder})" if holder.isdigit() else ""
                raise BatchError(f"{self.out}: another treaty batch is writing it{by}: wait until it ends, or "
                                 f"write to another -o (its lock is {self.path})")
            try:  # the file may have been removed by the writer that held it: lock the new one then
                same = os.stat(self.path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        self.fd = fd

    def release(self) -> None:
        if sys.platform == "win32":  # pragma: no cover - an open file cannot be removed there: closed first
            os.close(self.fd)
            with contextlib.suppress(OSError):
                os.unlink(self.path)
            return
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        os.close(self.fd)
        self.fd = -1

    def __enter__(self) -> Lock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _try_lock(fd: int) -> bool:
    if sys.platform == "win32":  # pragma: no cover - no advisory locks: the lock file only informs
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


class ChunkStore:
    """``OUT.parts/``: one file per completed chunk and ``journal.jsonl`` listing them: a header (what the
    run decides: the hashes of the ledger, the context and the rules, the chunk size and the format),
    then ``{"chunk", "rows", "file", "sha256"}`` for each chunk written, after its file is durable."""

    def __init__(self, out: Path, fmt: str, header: dict[str, Any], resume: bool, last: Sequence[str]) -> None:
        """``last``: the columns that end every record (the results), after the ledger's own."""
        self.out, self.fmt, self.header, self.last = out, fmt, header, tuple(last)
        self.dir = parts_folder(out)
        self.journal = self.dir / JOURNAL
        self.writer = ChunkWriter(self.dir, fmt, self.last)
        """What writes a chunk and its journal line: handed to the workers, which write their own."""
        self.done: dict[int, int] = {}
        self.receipts: dict[int, dict[str, Any]] = {}
        """The receipts of the chunks written (those the journal lists, on resume): a few hundred bytes
        each, for the run's receipt."""
        self.redone = 0
        """Chunks the journal lists whose file is missing or torn: decided again."""
        if not self.dir.exists():
            self._create()
        elif not resume:
            raise BatchError(f"{self.dir} holds an interrupted run: rerun with --resume to continue it, or "
                             f"delete that folder to start again")
        else:
            self._read_journal()

    def _create(self) -> None:
        """The folder with the journal's header, created whole (under another name, then renamed)."""
        new = self.dir.with_name(self.dir.name + ".new")
        if new.exists():
            shutil.rmtree(new)  # a creation interrupted before (the lock is held: no other writer)
        new.mkdir()
        with open(new / JOURNAL, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(self.header, sort_keys=True) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        _fsync_dir(new)
        os.rename(new, self.dir)
        _fsync_dir(self.dir.parent)

    def _broken(self, line: int, expected: str, found: bytes) -> BatchError:
        shown = readable(found.decode("utf-8", "replace"))
        return BatchError(f"{self.journal}:{line}: expected {expected}, found {shown}: "
                          f"the journal is broken; delete {self.dir} to start again (its rows will be decided again)")

    def _read_journal(self) -> None:
        try:
            data = self.journal.read_bytes()
        except FileNotFoundError:
            raise BatchError(f"{self.dir}: expected the journal of an interrupted run ({JOURNAL}), found none: "
                             f"delete {self.dir} to start again") from None
        complete, _, torn = data.rpartition(b"\n")  # a line cut by a crash while it was appended: ignored
        lines = complete.split(b"\n")
        records: list[Any] = []
        for k, raw in enumerate(lines, start=1):
            try:
                records.append(json.loads(raw))
            except ValueError:
                raise self._broken(k, "a JSON object", raw) from None
        header = records[0]
        if not isinstance(header, dict) or "chunk_size" not in header:
            raise self._broken(1, "the journal's header", lines[0])
        if header.get("journal") != JOURNAL_VERSION:
            raise BatchError(f"{self.dir}: the interrupted run was written by an earlier version of treaty batch, "
                             f"whose journal does not record the hashes of the ledger and the context, so it cannot "
                             f"be resumed safely: delete {self.dir} to start again")
        self._compare(header)
        latest: dict[int, dict[str, Any]] = {}
        for k, rec in enumerate(records[1:], start=2):
            if not (isinstance(rec, dict) and type(rec.get("chunk")) is int and rec["chunk"] >= 0
                    and type(rec.get("rows")) is int and rec["rows"] >= 1 and isinstance(rec.get("sha256"), str)
                    and rec.get("file") == self.chunk_path(rec["chunk"]).name):
                raise self._broken(k, 'a chunk record {"chunk", "rows", "file", "sha256"}', lines[k - 1])
            latest[rec["chunk"]] = rec
        for index, rec in sorted(latest.items()):
            if self._intact(index, rec):
                self.done[index] = rec["rows"]
                if isinstance(rec.get("receipt"), dict):
                    self.receipts[index] = rec["receipt"]
            else:
                self.redone += 1
        if torn:
            with open(self.journal, "r+b") as fh:
                fh.truncate(len(complete) + 1)
                os.fsync(fh.fileno())

    def _compare(self, then: dict[str, Any]) -> None:
        """Refuse to resume a run made with another ledger, context, rules, chunk size or format."""
        compare_runs(then, self.header, self.dir, "--chunk")

    def _intact(self, index: int, rec: dict[str, Any]) -> bool:
        """The chunk's file is there, whole: its SHA-256 and its row count are the journal's."""
        path = self.chunk_path(index)
        try:
            if sha256_of(path) != str(rec["sha256"]):
                return False
        except OSError:
            return False
        return _count_rows(path, self.fmt) == int(rec["rows"])

    def chunk_path(self, index: int) -> Path:
        return self.writer.chunk_path(index)

    def write(self, index: int, records: list[dict[str, str]], receipt: dict[str, Any] | None = None) -> None:
        """Write one chunk: its file, flushed and fsynced, renamed into place, then its journal line."""
        self.done[index] = self.writer.write(index, records, receipt)["rows"]
        if receipt is not None:
            self.receipts[index] = receipt

    def finish(self) -> None:
        """Join the chunk files in order into OUT.tmp, rename it to OUT, remove the parts (the journal
        first: a folder without it, beside OUT, is what is left of a finished run)."""
        tmp = self.out.with_name(self.out.name + ".tmp")
        paths = [self.chunk_path(i) for i in sorted(self.done)]
        _join(paths, tmp, self.fmt, self.last)
        _fsync_file(tmp)
        os.replace(tmp, self.out)
        _fsync_dir(self.out.parent)
        self.journal.unlink()
        shutil.rmtree(self.dir)

    def discard(self) -> None:
        """Remove the parts of a run that can never be completed (its ledger cannot be read whole)."""
        shutil.rmtree(self.dir, ignore_errors=True)


@dataclass(frozen=True)
class ChunkWriter:
    """Writes the chunks of ``OUT.parts/`` and their journal lines, in whichever process decided them (it
    is small and picklable): each chunk file flushed, fsynced and renamed into place before its journal
    line is appended (one write to a file opened for appending: the lines of several workers never mix)."""

    dir: Path
    fmt: str
    last: tuple[str, ...]

    def chunk_path(self, index: int) -> Path:
        return self.dir / f"{index:08d}{self.fmt}"

    def write(self, index: int, records: list[dict[str, str]], receipt: dict[str, Any] | None = None,
              made: PartBytes | None = None) -> dict[str, Any]:
        """Write chunk ``index``; its journal record (with the partition's receipt, if given). ``made``: the chunk's
        bytes made already (:func:`part_bytes`)."""
        path = self.chunk_path(index)
        digest = write_part(path, self.fmt, records, self.last, made)
        rec: dict[str, Any] = {"chunk": index, "rows": len(records), "file": path.name, "sha256": digest}
        if receipt is not None:
            rec["receipt"] = receipt
        self._append(rec)
        return rec

    def _append(self, rec: dict[str, Any]) -> None:
        """The journal line, in one write to the journal opened for appending, fsynced."""
        line = (json.dumps(rec, sort_keys=True) + "\n").encode("utf-8")
        fd = os.open(self.dir / JOURNAL, os.O_WRONLY | os.O_APPEND)
        try:
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)


def compare_runs(then: dict[str, Any], now: dict[str, Any], folder: Path, size_option: str) -> None:
    """Refuse to resume a run (its header ``then``, kept in ``folder``) made with another ledger, context,
    rules, partition size (``size_option``), format, language of the rows' messages, ``--bounds`` or result columns
    (where ``now`` records them) than ``now``."""
    changed = []
    if (then.get("sha256"), then.get("size")) != (now["sha256"], now["size"]):
        changed.append(f"ledger (then {then.get('ledger')}, whose content is not this one's)")
    if then.get("context_sha256") != now["context_sha256"]:
        changed.append(f"context (then {then.get('context')}, whose content is not this one's)")
    if then.get("logic") != now["logic"]:
        changed.append("set of rules (logic/ changed since the run began)")
    if then.get("chunk_size") != now["chunk_size"]:
        changed.append(f"{size_option} ({then.get('chunk_size')} then, {now['chunk_size']} now)")
    if then.get("format") != now["format"]:
        changed.append(f"output format ({then.get('format')} then)")
    if then.get("lang", "en") != now.get("lang", "en"):  # a journal from before --lang: English
        changed.append(f"--lang ({then.get('lang', 'en')} then, {now.get('lang', 'en')} now)")
    if bool(then.get("bounds")) != bool(now.get("bounds")):  # recorded only with the bound (--no-bounds: not)
        changed.append(f"--bounds ({'--bounds' if then.get('bounds') else '--no-bounds'} then, "
                       f"{'--bounds' if now.get('bounds') else '--no-bounds'} now)")
    if "columns" in now and then.get("columns") != now["columns"]:  # a journal from before findings_text: none
        changed.append("set of result columns (an earlier version of treaty-logic began the run)")
    if changed:
        raise BatchError(f"{folder}: the interrupted run was made with another {'; another '.join(changed)}: "
                         f"to resume it, give the same ledger, context and {size_option} as then; to start again, "
                         f"delete {folder}")


@dataclass(frozen=True)
class PartBytes:
    """A CSV or JSON Lines part made in memory (:func:`part_bytes`): its bytes and their SHA-256."""

    data: bytes
    sha256: str


def results_text(records: Iterable[dict[str, str]]) -> str:
    """The records' JSON texts, each followed by a line break: a JSON Lines part's text, and what a partition's
    receipt hashes as its results (``results_sha256``)."""
    return "".join(f"{json_text(rec)}\n" for rec in records)


def part_bytes(fmt: str, records: list[dict[str, str]], last: tuple[str, ...],
               results: str | None = None) -> PartBytes | None:
    """The bytes a CSV or JSON Lines part file holds (what :func:`write_part` would write to the file, byte for
    byte) and their SHA-256, made once in memory (hashed there, not read back from the file); ``results``: the
    records' :func:`results_text`, where made already (a JSON Lines part is that text). None for a Parquet part, or
    where the text has a character UTF-8 cannot encode (the file is then written as before, which says so)."""
    if fmt == ".jsonl":
        text = results_text(records) if results is None else results
        if os.linesep != "\n":  # what a file opened in text mode writes for each line break
            text = text.replace("\n", os.linesep)
    elif fmt == ".csv":
        buf = io.StringIO()
        _write_csv(buf, records, last)
        text = buf.getvalue()
    else:
        return None
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return PartBytes(data, hashlib.sha256(data).hexdigest())


def write_part(path: Path, fmt: str, records: list[dict[str, str]], last: tuple[str, ...],
               made: PartBytes | None = None) -> str:
    """Write a part file durably: under a temporary name, flushed and fsynced, renamed into place (its
    folder fsynced); its SHA-256. ``made``: its bytes made already (:func:`part_bytes` of the same records)."""
    tmp = path.with_name(path.name + ".tmp")
    if made is None:
        made = part_bytes(fmt, records, last)
    _write_records(tmp, fmt, records, last, made)
    digest = made.sha256 if made is not None else sha256_of(tmp)
    os.replace(tmp, path)
    _fsync_dir(path.parent)
    return digest


def write_json_durably(path: Path, data: Any) -> None:
    """A small JSON file written whole or not at all (temporary name, fsync, rename, folder fsync)."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(data, sort_keys=True, ensure_ascii=False) + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def count_rows(path: Path, fmt: str) -> int | None:
    """The number of rows a part file holds; None when it cannot be read whole (a torn file)."""
    return _count_rows(path, fmt)


def _columns(records: Iterable[dict[str, str]], last: tuple[str, ...]) -> list[str]:
    seen: dict[str, None] = {}
    for layout in dict.fromkeys(tuple(rec) for rec in records):  # each distinct tuple of keys, in order
        for k in layout:
            if k not in last:
                seen.setdefault(k, None)
    return [*seen, *last]


_JSON = json.JSONEncoder(ensure_ascii=False)


def _json_text() -> Callable[[Any], str]:
    """``json.dumps(value, ensure_ascii=False)`` of a list or a dict, with the C encoder ``json`` makes for every
    call made once (a part's every record, a receipt's every row and record); ``json``'s own where that
    encoder is not there or does not give the same text."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is not None:
        try:
            encode = make(None, _JSON.default, json.encoder.encode_basestring, None, ": ", ", ", False, False, True)
            probe = [{"a": ["é\u2028", 1, None, True, -2.5], "": "\x00\"\n"}, 7]
            if "".join(encode(probe, 0)) == _JSON.encode(probe):
                return lambda value: "".join(encode(value, 0))
        except TypeError:  # another signature in another Python
            pass
    return _JSON.encode


_encoded = _json_text()


_UNSEEN: Any = object()
_TEMPLATES: dict[tuple[Any, ...], str | None] = {}
"""A ``%``-template of the JSON of a dict with these keys (each ``"key": "%s"``), or None where a key is not plain text
(:func:`_flat_text`), by the keys in order: the records of a batch, and a ledger's rows, have a few."""


def _template(keys: tuple[Any, ...]) -> str | None:
    if len(_TEMPLATES) >= 1_024:
        _TEMPLATES.clear()
    template = None
    if all(type(k) is str for k in keys) and _plain("".join(keys)):
        template = "{" + ", ".join(f'"{k.replace("%", "%%")}": "%s"' for k in keys) + "}"
    _TEMPLATES[keys] = template
    return template


_PLAIN_LATIN_1 = bytes(c for c in range(256) if chr(c).isprintable() and chr(c) not in '"\\')
"""The characters of Latin-1 that :func:`_plain` takes, as bytes: printable, neither quote nor backslash."""


def _plain(text: str) -> bool:
    """Printable text with neither quote nor backslash: JSON writes every character of it as it is (a text with any
    other character, ``\x7f`` or a line separator included, is left to the encoder). Text in Latin-1 (a batch's
    record in English or Portuguese) is looked at as its bytes, with those characters deleted (nothing is left where
    every one is plain): a pass in C over the bytes, where ``str.isprintable`` looks each character up in the Unicode
    database (a tenth of its cost, for the same answer)."""
    try:
        return not text.encode("latin-1").translate(None, _PLAIN_LATIN_1)
    except UnicodeEncodeError:  # another character (or a surrogate)
        return text.isprintable() and '"' not in text and "\\" not in text


def _flat_text(value: dict[Any, Any]) -> str | None:
    """``json.dumps(value, ensure_ascii=False)`` of a non-empty dict whose keys and values are all plain text
    (:func:`_plain`), put together from its strings as they are: the encoder's every string costs more than the
    whole (a record of a batch: its cells and its results), and the template of its keys (:data:`_TEMPLATES`) is
    filled in one call; None for any other dict."""
    keys = tuple(value)
    template = _TEMPLATES.get(keys, _UNSEEN)
    if template is _UNSEEN:
        template = _template(keys)
    if template is None:
        return None
    cells = tuple(value.values())
    try:
        joined = "".join(cells)  # a TypeError unless every value is text
    except TypeError:
        return None
    return template % cells if _plain(joined) else None


def json_text(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False)`` of a list or a dict, without a new encoder for every row; a dict of
    plain text (:func:`_flat_text`: a batch's record, a row's columns) without the encoder at all."""
    if type(value) is dict and value:
        flat = _flat_text(value)
        if flat is not None:
            return flat
    return _encoded(value)


def _write_records(path: Path, fmt: str, records: list[dict[str, str]], last: tuple[str, ...],
                   made: PartBytes | None = None) -> None:
    """The part file (flushed and fsynced): ``made``'s bytes, where given (:func:`part_bytes`)."""
    if made is not None:
        with open(path, "wb") as fh:
            fh.write(made.data)
            fh.flush()
            os.fsync(fh.fileno())
        return
    if fmt == ".jsonl":
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("".join(f"{json_text(rec)}\n" for rec in records))
            fh.flush()
            os.fsync(fh.fileno())
        return
    if fmt == ".csv":
        with open(path, "w", newline="", encoding="utf-8") as fh:
            _write_csv(fh, records, last)
            fh.flush()
            os.fsync(fh.fileno())
        return
    cols = _columns(records, last)
    import pyarrow as pa

    table = pa.table({c: pa.array([rec.get(c, "") for rec in records], type=pa.string()) for c in cols})
    parquet().write_table(table, path)
    _fsync_file(path)


def _write_csv(fh: TextIO, records: list[dict[str, str]], last: tuple[str, ...]) -> None:
    """A CSV part's text: its header and its records' cells (what csv.DictWriter writes, without its per-cell
    lookups)."""
    cols = _columns(records, last)
    w = _CsvWriter(fh)
    w.writerow(cols)
    w.writerows(_cells(records, cols))


def _cells(records: list[dict[str, str]], cols: list[str]) -> list[Sequence[str]]:
    """Each record's cells in the order of ``cols`` (empty where it has no such column)."""
    if len(cols) > 1:
        every = operator.itemgetter(*cols)
        try:
            return list(map(every, records))  # the usual part: every record has every column
        except KeyError:
            pass
    return [[rec.get(c, "") for c in cols] for rec in records]


def _join(paths: list[Path], out: Path, fmt: str, last: tuple[str, ...]) -> None:
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
        cols = [c for c in columns if c not in last] + list(last)
        if _copied(paths, out, cols):
            return
        with open(out, "w", newline="", encoding="utf-8") as dst:
            w = _CsvWriter(dst)
            w.writerow(cols)
            for p in paths:
                with open(p, newline="", encoding="utf-8") as fh:
                    w.writerows([row.get(c) or "" for c in cols] for row in csv.DictReader(fh))
        return
    import pyarrow as pa

    pq = parquet()
    tables = [pq.read_table(p) for p in paths]
    names: dict[str, None] = {}
    for t in tables:
        for c in t.column_names:
            if c not in last:
                names.setdefault(c, None)
    schema = pa.schema([(c, pa.string()) for c in [*names, *last]])
    with pq.ParquetWriter(out, schema) as writer:
        for t in tables:
            arrays = {c: (t.column(c) if c in t.column_names else pa.array([""] * t.num_rows, type=pa.string()))
                      for c in schema.names}
            writer.write_table(pa.table(arrays, schema=schema))


class _CsvWriter:
    """``csv.writer`` rows ended by a newline; a row with a carriage return in a cell is written with every
    cell quoted. The csv module quotes only the line terminator's characters: a bare carriage return
    written unquoted is read back as the end of a row, and the cell is lost."""

    def __init__(self, fh: TextIO) -> None:
        self._fh = fh
        self._minimal = csv.writer(fh, lineterminator="\n")
        self._quoted = csv.writer(fh, lineterminator="\n", quoting=csv.QUOTE_ALL)

    def writerow(self, row: Sequence[str]) -> None:
        (self._quoted if any("\r" in c for c in row) else self._minimal).writerow(row)

    def writerows(self, rows: Iterable[Sequence[str]]) -> None:
        """The rows as :meth:`writerow` writes each. A row of text cells none of which holds a comma, a quote or a
        line break (and not one empty cell alone, which the csv module quotes) is its cells joined by commas, as
        the csv module writes it without quoting: joined here, a batch's usual row costs a twentieth of the csv
        module's (which looks at every cell and every character through its dialect); the others are written by
        it, in their place."""
        plain: list[str] = []
        for row in rows:
            try:
                line = ",".join(row)
            except TypeError:  # a cell that is not text: the csv module's way
                line = ""
            if not line or line.count(",") != len(row) - 1 or '"' in line or "\n" in line or "\r" in line:
                if line and _QUOTED_ALIKE and "\r" not in line and "\x00" not in line:
                    plain.append(_quoted_line(row))  # (a carriage return: every cell quoted, by the csv module)
                    continue
                if plain:
                    self._fh.write("\n".join(plain) + "\n")
                    plain.clear()
                self.writerow(row)
            else:
                plain.append(line)
        if plain:
            self._fh.write("\n".join(plain) + "\n")


def _quoted_line(row: Sequence[str]) -> str:
    """The line the csv module writes for a row of text cells with neither a carriage return nor a NUL (and not one
    empty cell alone): a cell with a comma, a quote or a line break quoted, its quotes doubled, the others as they are
    (a batch's row with a comma in a cell, ``findings_text`` ..., at a fraction of the csv module's cost, which looks
    at every character of every cell through its dialect)."""
    return ",".join([f'"{c.replace(chr(34), chr(34) * 2)}"' if "," in c or '"' in c or "\n" in c else c for c in row])


def _quotes_alike() -> bool:
    """:func:`_quoted_line` writes what this Python's csv module writes (else the module writes those rows)."""
    probe = [["a,b", 'say "x"', "l1\nl2", "", " sp ", "é\u2028", "'q'", "\t", ",", '"', "%s", "\\"], ["a,", ""],
             ["only,one"]]
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    for row in probe:
        writer.writerow(row)
    return buf.getvalue() == "".join(f"{_quoted_line(row)}\n" for row in probe)


_QUOTED_ALIKE = _quotes_alike()


def _header_text(cols: list[str]) -> bytes:
    buf = io.StringIO()
    _CsvWriter(buf).writerow(cols)
    return buf.getvalue().encode("utf-8")


def _copied(paths: list[Path], out: Path, cols: list[str]) -> bool:
    """Join CSV parts that all have the output's header by copying their bytes after it (what reading and
    writing them again gives, cell for cell); False, with nothing written, where a part has another header
    or a carriage return (which the csv module writes unquoted and reads as the end of a row)."""
    header = _header_text(cols)
    if b"\r" in header:
        return False
    for p in paths:
        with open(p, "rb") as fh:
            if fh.read(len(header)) != header:
                return False
            while block := fh.read(1 << 20):
                if b"\r" in block:
                    return False
    with open(out, "wb") as dst:
        dst.write(header)
        for p in paths:
            with open(p, "rb") as src:
                src.seek(len(header))
                shutil.copyfileobj(src, dst)
    return True
