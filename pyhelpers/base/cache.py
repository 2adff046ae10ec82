"""The disk cache of derived forms of the rule base (fast-path statements, Prolog translation).

Entries are keyed by a digest of what they are derived from, so a changed rule base never reads a
stale entry. The folder is ``$XDG_CACHE_HOME/treaty-logic`` where that variable names an absolute path
(on every platform), else the platform's user cache folder (``platformdirs``: ``~/.cache/treaty-logic``
on Linux, ``~/Library/Caches/treaty-logic`` on macOS, ``%LOCALAPPDATA%\\treaty-logic\\Cache`` on
Windows), else a per-user folder under the system's temporary directory.

Nothing found there is trusted for being there (a folder under the temporary directory may have been
made by another user before this one ever ran the tool):

* the folder is used only if it is a directory (not a link) of this user, in a parent others cannot
  rename it in; it is created ``0700``, and one of this user's that others may read or write is made
  ``0700`` before use (after which no one else can change it; what they may have put there before is
  not trusted, below);
* each entry is sealed: its first line carries an HMAC-SHA256 of its name and content under a key of
  32 random bytes kept in the folder (``key``, ``0600``). A user who can plant files cannot read the
  key, and a key file that is not this user's own is replaced, so a planted or altered entry, or one
  renamed to another name, does not verify; it is ignored, deleted and recomputed. (A plain hash
  recorded beside an entry would prove nothing: whoever writes the entry writes its hash.) Only regular
  files of this user are read (no link, no pipe), up to a size bound;
* a file handed to another program by its path (the Prolog translation SWI-Prolog consults) is compared
  byte for byte with the text it must hold, and written again when it differs.

Without a usable folder (none writable, or each refused) the commands recompute what they need, and
files for other programs go to a private temporary folder removed at exit. A folder refused for
safety, or an entry that did not verify, is reported by :func:`notices` (the CLI prints them as
warnings); the answer is never affected.

Owners and permission bits are checked where they say who may read and write (POSIX). On Windows the
folders are in the user's profile, which its access control lists keep private, and the owner and mode
checks are left out; the entries are sealed and verified all the same.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import hmac
import json
import os
import shutil
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_MAGIC = b"treaty-logic-cache 1 "
_SUFFIX = ".sealed"
_KEY = "key"
_KEY_BYTES = 32
_MODES = os.name == "posix"
"""Whether owners and permission bits say who may read and write (POSIX; not Windows)."""
_OPEN_FLAGS: int = os.O_RDONLY
"""How an entry is opened: never through a link, never waiting on a pipe (each flag where the OS has it)."""
for _flag in ("O_NOFOLLOW", "O_NONBLOCK", "O_CLOEXEC", "O_BINARY"):
    _OPEN_FLAGS |= getattr(os, _flag, 0)
MAX_ENTRY_BYTES = 256 << 20
"""A larger file is not read (no entry of the rule base comes near it)."""


@dataclass(frozen=True)
class _Store:
    folder: Path
    key: bytes


_stores: dict[tuple[int | None, tuple[Path, ...]], _Store | None] = {}
_notices: dict[str, None] = {}
_scratch: list[Path] = []


def _uid() -> int | None:
    """The user the cache belongs to (a function, so a test can play another user); None where the OS
    has no user ids (Windows)."""
    return os.geteuid() if hasattr(os, "geteuid") else None


def _owned(st: os.stat_result) -> bool:
    """Whether a file's owner is this user (always, where owners are not checked)."""
    uid = _uid()
    return not _MODES or uid is None or st.st_uid == uid


def _note(text: str) -> None:
    _notices.setdefault(text, None)


def carry(texts: list[str]) -> None:
    """Keep the notices of a child process (bounded work) as this process's own, to be reported once."""
    for text in texts:
        _note(text)


def notices() -> list[str]:
    """The warnings about the cache since the last call (each once): folders refused, entries ignored."""
    out = list(_notices)
    _notices.clear()
    return out


def _candidates() -> tuple[Path, ...]:
    import platformdirs

    xdg = os.environ.get("XDG_CACHE_HOME", "")  # honoured on every platform (treaty diff gives a run its own)
    first = Path(xdg, "treaty-logic") if os.path.isabs(xdg) else Path(
        platformdirs.user_cache_dir("treaty-logic", appauthor=False))
    uid = _uid()
    tmp = Path(tempfile.gettempdir()) / ("treaty-logic" if uid is None else f"treaty-logic-{uid}")
    # a relative folder (a relative $XDG_CACHE_HOME, no home directory) would depend on where one runs
    return (first, tmp) if first.is_absolute() else (tmp,)


def _refusal(folder: Path) -> tuple[str, bool] | None:
    """None if ``folder`` is (now) a private directory of this user; else why not, and whether that is a
    warning (someone else's or an unsafe folder) rather than a folder that simply cannot be made."""
    try:
        folder.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            folder.mkdir(mode=0o700)
        st = os.lstat(folder)
        parent = os.stat(folder.parent)
    except OSError as err:
        return f"cannot create {folder}: {err.strerror}", False
    if not stat.S_ISDIR(st.st_mode):
        return f"{folder} is not a directory (a link or a file)", True
    if not _MODES:  # Windows: the user profile's access control lists, not modes, keep the folder private
        pass
    elif not _owned(st):
        return f"{folder} belongs to another user", True
    elif (parent.st_mode & 0o022 and not parent.st_mode & stat.S_ISVTX) or not (_owned(parent) or parent.st_uid == 0):
        return f"{folder.parent} may be changed by other users", True
    elif st.st_mode & 0o077:  # this user's own: made private, after which no one else can change it
        try:
            os.chmod(folder, 0o700)
        except OSError as err:
            return f"cannot make {folder} private: {err.strerror}", True
        if st.st_mode & 0o022:
            _note(f"the cache folder {folder} was writable by other users: made private (0700); what they "
                  "may have put there is not trusted (entries are verified before use)")
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"{folder} is not writable", False
    return None


def _read_own(path: Path, limit: int, others: int = 0o022) -> bytes | None:
    """The content of ``path`` if it is a regular file of this user without the permission bits
    ``others`` (by default: others may not write it), never following a link nor waiting on a pipe, and
    at most ``limit`` bytes long; else None."""
    if not hasattr(os, "O_NOFOLLOW") and os.path.islink(path):  # no O_NOFOLLOW (Windows): looked at first
        return None
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode) or not _owned(st) or (_MODES and st.st_mode & others):
            _note(f"ignored {path}: not a private file of this user")
            return None
        if st.st_size > limit:
            return None
        data = f.read(limit + 1)
    return data if len(data) <= limit else None


def _write_atomic(folder: Path, name: str, data: bytes) -> None:
    """Write ``folder/name`` through a private temporary file renamed into place (a concurrent reader
    never sees half an entry). Raises OSError."""
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, folder / name)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _key(folder: Path) -> bytes | None:
    """The folder's sealing key: read, or made (32 random bytes, 0600; linked into place, so two
    processes starting together agree on one). A key file that is not this user's is replaced."""
    path = folder / _KEY
    for _ in range(3):
        key = _read_own(path, _KEY_BYTES, 0o077)  # others may not even read it
        if key is not None and len(key) == _KEY_BYTES:
            return key
        if os.path.lexists(path):
            _note(f"replaced the cache key {path}: it was not a private key of this user")
            with contextlib.suppress(OSError):
                os.unlink(path)
        try:
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".key.", suffix=".tmp")
            with os.fdopen(fd, "wb") as out:
                out.write(os.urandom(_KEY_BYTES))
            with contextlib.suppress(FileExistsError):  # another process made it first: use theirs
                os.link(tmp, path)
            os.unlink(tmp)
        except OSError:
            return None
    return None


def _store() -> _Store | None:
    candidates = _candidates()
    memo = (_uid(), candidates)
    if memo not in _stores:
        found = None
        for folder in candidates:
            refused = _refusal(folder)
            if refused is not None:
                if refused[1]:
                    _note(f"not using the cache folder {refused[0]}")
                continue
            key = _key(folder)
            if key is not None:
                found = _Store(folder, key)
                break
        _stores[memo] = found
    return _stores[memo]


def cache_dir() -> Path | None:
    """The cache folder in use, or None (the commands then recompute)."""
    store = _store()
    return store.folder if store is not None else None


def _seal(key: bytes, name: str, payload: bytes) -> bytes:
    return hmac.new(key, name.encode("utf-8") + b"\0" + payload, hashlib.sha256).hexdigest().encode("ascii")


def read_bytes(name: str) -> bytes | None:
    """The entry ``name`` if it is there and verifies; an entry that does not is deleted."""
    store = _store()
    if store is None:
        return None
    path = store.folder / (name + _SUFFIX)
    data = _read_own(path, MAX_ENTRY_BYTES)
    if data is None:
        return None
    head, _, payload = data.partition(b"\n")
    if head.startswith(_MAGIC) and hmac.compare_digest(head[len(_MAGIC):], _seal(store.key, name, payload)):
        return payload
    _note("ignored a cache entry this program did not write (damaged, or planted by someone else); "
          "it is recomputed")
    with contextlib.suppress(OSError):
        os.unlink(path)
    return None


def write_bytes(name: str, payload: bytes) -> None:
    """Keep ``payload`` as the entry ``name`` (sealed); nothing if there is no cache."""
    store = _store()
    if store is None:
        return
    with contextlib.suppress(OSError):
        _write_atomic(store.folder, name + _SUFFIX, _MAGIC + _seal(store.key, name, payload) + b"\n" + payload)


def read_json(name: str) -> Any | None:
    data = read_bytes(name)
    if data is None:
        return None
    try:
        return json.loads(data.decode("utf-8"))
    except ValueError:
        return None


def write_json(name: str, data: Any) -> None:
    write_bytes(name, json.dumps(data).encode("utf-8"))


def _scratch_folder() -> Path:
    """A private folder of this process (mkdtemp: 0700, a name no one can guess), removed at exit."""
    if not _scratch:
        _scratch.append(Path(tempfile.mkdtemp(prefix="treaty-logic-")))
        atexit.register(shutil.rmtree, _scratch[0], True)
    return _scratch[0]


def file_holding(name: str, text: str) -> Path:
    """A file named ``name`` holding exactly ``text``, for a program that reads it by its path: in the
    cache when it is there with that content (compared byte for byte) or can be written there, else in
    a private folder of this process. Raises OSError only if neither can be written."""
    data = text.encode("utf-8")
    store = _store()
    if store is not None:
        path = store.folder / name
        if _read_own(path, len(data)) == data:
            return path
        try:
            _write_atomic(store.folder, name, data)
            return path
        except OSError:
            pass
    folder = _scratch_folder()
    if _read_own(folder / name, len(data)) != data:
        _write_atomic(folder, name, data)
    return folder / name


def prune(pattern: str, keep: int = 12, age: float = 3600.0) -> None:
    """Drop the cache's files matching ``pattern`` beyond the newest ``keep`` that are older than ``age``
    seconds (each change of the rule base writes new ones; a run in progress may still use a recent one)."""
    store = _store()
    if store is None:
        return
    dated = []
    for f in store.folder.glob(pattern):
        with contextlib.suppress(OSError):  # another process may have pruned it
            dated.append((f.lstat().st_mtime, f))
    limit = time.time() - age
    for mtime, old in sorted(dated, reverse=True)[keep:]:
        if mtime < limit:
            with contextlib.suppress(OSError):
                old.unlink()
