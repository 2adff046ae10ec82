"""One partition path for every engine of ``treaty batch`` (the local pool, Dask, Spark): a pure, picklable
function that checks a partition of ledger rows, an Arrow record batch in and one out.

* In: the ledger's own columns as text (a missing cell of a JSON Lines row is null; a name that begins
  with two underscores with one more, :func:`batch_name`, so that none is taken for a reserved one), and the
  reserved columns :data:`ROW` (the row's number, 1 = the first data row), :data:`LINE` (the line it begins on;
  null for Parquet), :data:`ERROR` (what made it unreadable, or its id already taken by an earlier row)
  and :data:`ORDER` (the row's own column order when it is not the batch's: JSON Lines rows may differ).
  :func:`rows_to_batch` makes one from rows as :func:`~pyhelpers.interfaces.ledger.read_rows` reads them.
* Out: the same rows in the same order with ``treaty batch``'s output columns (the ledger's own, then
  :data:`RESULT_COLUMNS`; a bad row has ``status=error`` and its message), with :data:`ROW` and
  :data:`ORDER` carried; :func:`batch_to_records` gives the records ``treaty batch`` writes
  (:func:`decide_partition` gives them directly, for an engine that writes them itself).
* The rule base and the context are loaded once per process (a cache keyed by the context's SHA-256):
  a :class:`PartitionSpec` carries the context's text, so a worker on another machine, or one started
  with ``spawn``, needs no file of the client and no state inherited by ``fork``.
* Duplicate ids are found by :func:`duplicate_rows`, a hash-partitioned pass over the ledger through
  temporary files: no process holds every row id in memory (Spark finds them with a window over the id);
  :func:`duplicate_problem` is the message of every engine. :func:`partition_receipt` says which rules
  decided a partition.

The code lives beside the kernel it calls (:mod:`.batch`, :mod:`.ledger`); this module is its face.
"""

from __future__ import annotations

from pyhelpers.interfaces.batch import (
    RESULT_COLUMNS,
    PartitionSpec,
    batch_to_records,
    check_and_write,
    check_partition,
    decide_partition,
    decide_spooled,
    ledger_rows,
    partition_receipt,
    partition_spec,
    partitions,
    run_options,
    run_receipt,
    warm_checker,
    warm_partition,
)
from pyhelpers.interfaces.ledger import (
    ERROR,
    LINE,
    ORDER,
    RESERVED,
    ROW,
    batch_name,
    batch_to_rows,
    column_name,
    duplicate_problem,
    duplicate_rows,
    mark_duplicates,
    rows_to_batch,
)

__all__ = [
    "ERROR", "LINE", "ORDER", "RESERVED", "RESULT_COLUMNS", "ROW", "PartitionSpec", "batch_name", "batch_to_records",
    "batch_to_rows", "check_and_write", "check_partition", "column_name", "decide_partition", "decide_spooled",
    "duplicate_problem", "duplicate_rows", "ledger_rows", "mark_duplicates", "partition_receipt", "partition_spec",
    "partitions", "rows_to_batch", "run_options", "run_receipt", "warm_checker", "warm_partition",
]
