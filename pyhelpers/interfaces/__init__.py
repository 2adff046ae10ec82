"""The ways in: the ``treaty`` command line (:mod:`.cli`) and the batch checker of payment ledgers
(:mod:`.batch`, which reads ledgers with :mod:`.ledger` and writes its output through :mod:`.chunks`).
Only this layer prints; it maps the exception hierarchy to exit codes."""
