"""What ``treaty batch --engine dask`` installs on each Dask worker: a worker plugin that loads the rule base
and the context when the worker joins (:class:`WarmRules`), once per worker process (a cache keyed by the
context's SHA-256), while the client is still reading the ledger; a worker that joins later (one that
replaces a lost worker) loads them as it starts. Imported only with Dask (the extra ``dask``)."""

from __future__ import annotations

import asyncio
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

from pyhelpers.interfaces.partition import PartitionSpec, warm_partition


class WarmRules(WorkerPlugin):
    """Loads ``spec``'s rule base and context in the worker's process, in a thread (the worker's event loop
    keeps answering its scheduler meanwhile); a partition that comes first waits for it (the cache's lock)
    rather than load them again. A problem (other rules than the client's) is raised by the first partition."""

    idempotent = True
    """Registered once per name on a scheduler (a second run with the same rules and context adds nothing)."""

    def __init__(self, spec: PartitionSpec) -> None:
        self.spec = spec
        self.name = f"treaty-rules-{spec.logic_sha256[:16]}-{spec.context_sha256[:16]}-{int(spec.strict)}"

    async def setup(self, worker: Any) -> None:
        await asyncio.to_thread(warm_partition, self.spec)
