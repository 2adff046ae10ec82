"""The Python daemon of the Spark session that ``treaty batch --engine spark`` starts (Spark's setting
``spark.python.daemon.module``, :data:`~pyhelpers.interfaces.spark.DAEMON`): PySpark's own daemon, which forks a
Python worker for each task slot, after it has imported the partition path and parsed the rule base once, so that
every worker it forks inherits them (as ``treaty batch``'s and Dask's forked workers do) instead of each importing
and parsing them again before its first partition. A rule base that cannot be parsed is left for the first partition
to report. Then everything loaded so far is frozen out of the cyclic garbage collector's walks (:func:`gc.freeze`),
as in :mod:`.dask_preload`. PySpark's daemon forks its workers without threads: nothing here starts one."""

from __future__ import annotations

import contextlib
import gc

from pyspark import daemon, worker  # noqa: F401  (the daemon's worker module, imported once here too)

from pyhelpers.interfaces import cluster  # noqa: F401  (what a task unpickles)
from pyhelpers.interfaces.partition import warm_checker

with contextlib.suppress(Exception):
    warm_checker()
gc.freeze()

if __name__ == "__main__":
    daemon.manager()
