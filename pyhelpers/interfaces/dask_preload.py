"""Imported by the fork server of the LocalCluster that ``treaty batch --engine dask`` starts
(:data:`~pyhelpers.interfaces.cluster.PRELOAD`): the partition path and Dask's worker plugin imported and the
rule base parsed once, in that process, so that every worker it forks inherits them (as ``treaty batch``'s
own workers do) instead of each importing and parsing them again. A rule base that cannot be parsed is left
for the first partition to report."""

from __future__ import annotations

import contextlib

from pyhelpers.interfaces import dask_worker  # noqa: F401  (imported for the workers)
from pyhelpers.interfaces.partition import warm_checker

with contextlib.suppress(Exception):
    warm_checker()
