"""Imported by the fork server of the LocalCluster that ``treaty batch --engine dask`` starts
(:data:`~pyhelpers.interfaces.cluster.PRELOAD`, the last of them): the partition path and Dask's worker plugin
imported and the rule base parsed once, in that process, so that every worker it forks inherits them (as
``treaty batch``'s own workers do) instead of each importing and parsing them again. A rule base that cannot be
parsed is left for the first partition to report.

Then everything loaded so far is frozen out of the cyclic garbage collector's reach (:func:`gc.freeze`): those
objects live as long as the process, and a collection would walk them all again, the fork server's last ones at
its exit (half a second on a busy machine, while the command that started it waits for it to let go of its
output) and every forked worker's (whose walks would also write into the pages it shares with the fork server)."""

from __future__ import annotations

import contextlib
import gc

from pyhelpers.interfaces import dask_worker  # noqa: F401  (imported for the workers)
from pyhelpers.interfaces.partition import warm_checker

with contextlib.suppress(Exception):
    warm_checker()
gc.freeze()
