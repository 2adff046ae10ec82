"""The disk cache of derived forms of the rule base (fast-path statements, Prolog translation).

Entries are keyed by a digest of what they are derived from, so a changed rule base never reads a
stale entry. ``$XDG_CACHE_HOME/treaty-logic``, else ``~/.cache/treaty-logic``, else a per-user folder
under the system's temporary directory; when none is writable the callers simply recompute.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


def cache_dir() -> Path | None:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    for candidate in (Path(base) / "treaty-logic", Path(tempfile.gettempdir()) / f"treaty-logic-{os.getuid()}"):
        try:
            candidate.mkdir(parents=True, exist_ok=True)
            if os.access(candidate, os.W_OK):
                return candidate
        except OSError:
            continue
    return None


def read_json(name: str) -> Any | None:
    folder = cache_dir()
    if folder is None:
        return None
    try:
        return json.loads((folder / name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write_json(name: str, data: Any) -> None:
    """Write atomically (a temporary file renamed), so a concurrent reader never sees half an entry."""
    folder = cache_dir()
    if folder is None:
        return
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=name, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out)
        os.replace(tmp, folder / name)
    except OSError:
        return
