"""One partition path for every engine of ``treaty batch`` (the local pool, Dask): a pure, picklable
function that checks a partition of ledger rows, an Arrow record batch in and one out.

* In: the ledger's own columns as text (a missing cell of a JSON Lines row is null), and the reserved
  columns :data:`ROW` (the row's number, 1 = the first data row), :data:`LINE` (the line it begins on;
  null for Parquet), :data:`ERROR` (what made it unreadable, or its id already taken by an earlier row)
  and :data:`ORDER` (the row's own column order when it is not the batch's: JSON Lines rows may differ).
* Out: the same rows in the same order with ``treaty batch``'s output columns (the ledger's own, then
  :data:`~pyhelpers.interfaces.batch.RESULT_COLUMNS`; a bad row has ``status=error`` and its message),
  and :data:`ROW` and :data:`ORDER` carried through.
* The rule base and the context are loaded once per process (a cache keyed by the context's SHA-256):
  a :class:`PartitionSpec` carries the context's text, so a worker on another machine, or one started
  with ``spawn``, needs no file of the client and no state inherited by ``fork``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ROW = "__row__"
LINE = "__line__"
ERROR = "__error__"
ORDER = "__order__"
RESERVED = (ROW, LINE, ERROR, ORDER)


@dataclass(frozen=True)
class PartitionSpec:
    """What every partition of a batch shares (small and picklable): the context as text with its name
    and SHA-256 (the key of the per-process cache), the ledger's name (rows' messages name it), and the
    SHA-256 of the rule base the client decided with (a worker with other rules refuses)."""

    context_text: str
    context_source: str
    context_sha256: str
    ledger: str
    logic_sha256: str


def check_partition(batch: Any, spec: PartitionSpec) -> Any:
    """Decide a partition: ``pyarrow.RecordBatch`` in (the ledger's columns and :data:`RESERVED`),
    ``pyarrow.RecordBatch`` out (``treaty batch``'s output columns, with :data:`ROW` and :data:`ORDER`)."""
    raise NotImplementedError
