"""A second engine: the rule base translated to SWI-Prolog (tabling, well-founded negation).

* :mod:`.portable` — the portable rule subset and its lint;
* :mod:`.translate` — clingo AST → Prolog program (``runtime.pl`` is its run-time library);
* :mod:`.engine` — running it: batches through one ``swipl`` process per chunk, single scenarios
  in-process through pyswip;
* :mod:`.crosscheck` — both engines on the same scenarios, and the invariants between them;
* :mod:`.generate` — random scenarios (with unknown-valued facts) for the cross-check;
* :mod:`.ask` — goal-directed queries and their proof trees.
"""
