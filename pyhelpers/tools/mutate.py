"""Mutation testing of the rule base: do the scenarios pin the rules down?

Mutants are made from clingo's AST of the rules, parsed once (:func:`pyhelpers.program.load_logic`);
each changes one statement of ``logic/<treaty>/`` (or ``logic/core/``):

* ``number``: an integer literal of a rule ±1, and the cited value of a static fact ±1 (a rate or share
  in basis points, a period in months, a day count, a year, a day number: every ``bp``, ``months``,
  ``date`` or ``int`` argument of a ``static`` predicate of the vocabulary, except the catalogue's
  article numbers);
* ``operator``: a comparison operator flipped, ``<``↔``<=``, ``>``↔``>=``, ``=``↔``!=`` (in a
  comparison or an aggregate guard);
* ``drop``: a body condition dropped;
* ``negation``: the ``not`` of a body condition removed.

Every mutant runs the scenario suite (the ``expect:`` blocks of the scenarios given, compared as
``pytest`` does, :func:`pyhelpers.expect.compare`) on the fast path, stopping at the first scenario that
fails. A scenario where the mutated statement cannot matter has the original's answer set and is not
solved: neither the original statement nor the mutant can fire given the scenario's input predicates
(:meth:`Logic.reachable`), or the conditions they share cannot hold together in the original's answer
set (a positive condition without an atom of its predicate and constants there): no instance of either
body is then true, and the mutated program, still stratified, has the same answer set.

A scenario that ``treaty check`` decides other than by one solve of its facts (facts given as
alternatives or ``unknown``, answered three-valued; holding records the rules report missing, opened over
their values; items under different versions of an amended article) is used when its expectations hold
under :meth:`Checker.check`, and each mutant is judged there by checking it again with the mutated rules
(:class:`_CheckedLogic`): after the plain scenarios, and only where the mutated statement, or the
original, can fire in some program that the original's check asked for (otherwise every solve of the
check has the original's answer set, and so has its result).

Mutants that are not killed are also run on *probe* scenarios, randomly generated from the suite
(:func:`pyhelpers.prolog.generate.generate`: boundary values, flipped facts, unknowns), and compared
with the original rules there (every answer set). Classification:

* **killed**: on some scenario of the suite an expectation fails, or the mutated rules have no answer
  set or several (the test suite fails either way);
* **survived**: no expectation fails, but the output (every shown atom: status, outcome, rate, provisions,
  findings) differs from the original's on a scenario of the suite (its ``expect:`` block is too weak)
  or on a probe (a scenario is missing); the first such scenario is the witness;
* **equivalent-suspected**: the output is the original's on every scenario of the suite and every probe;
* **invalid**: the mutant is not a valid program (an unsafe variable): not counted;
* **skipped**: not run within the time budget: not counted.

Score = killed / (killed + survived): killed / (total − equivalent-suspected − invalid − skipped).
"""

from __future__ import annotations

import dataclasses
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import clingo
from clingo import ast
from clingo.ast import ASTType

from pyhelpers.base import formats, processes
from pyhelpers.base import lang as languages
from pyhelpers.base.errors import InputError, LogicError
from pyhelpers.engine.answers import build_result
from pyhelpers.engine.expect import compare
from pyhelpers.engine.program import _ANONYMOUS_RE, Logic, RuleInfo
from pyhelpers.engine.results import Receipt, ScenarioResult
from pyhelpers.engine.slicing import Sliced
from pyhelpers.engine.solve import Checker, run_clingo
from pyhelpers.engine.statements import Statement
from pyhelpers.facts import Declared, scenario_facts
from pyhelpers.output.render import incomplete_text, wording
from pyhelpers.scenario import Scenario, load_file
from pyhelpers.tools.coverage import _unsafe_lines

OPERATORS = ("number", "operator", "drop", "negation")
STATUSES = ("killed", "survived", "equivalent", "invalid", "skipped")
STATUS_NAMES = {"killed": "killed", "survived": "survived", "equivalent": "equivalent-suspected",
                "invalid": "invalid", "skipped": "skipped"}
_FLIP = {
    ast.ComparisonOperator.LessThan: ast.ComparisonOperator.LessEqual,
    ast.ComparisonOperator.LessEqual: ast.ComparisonOperator.LessThan,
    ast.ComparisonOperator.GreaterThan: ast.ComparisonOperator.GreaterEqual,
    ast.ComparisonOperator.GreaterEqual: ast.ComparisonOperator.GreaterThan,
    ast.ComparisonOperator.Equal: ast.ComparisonOperator.NotEqual,
    ast.ComparisonOperator.NotEqual: ast.ComparisonOperator.Equal,
}
_OP_TEXT = {
    ast.ComparisonOperator.LessThan: "<", ast.ComparisonOperator.LessEqual: "<=",
    ast.ComparisonOperator.GreaterThan: ">", ast.ComparisonOperator.GreaterEqual: ">=",
    ast.ComparisonOperator.Equal: "=", ast.ComparisonOperator.NotEqual: "!=",
}
CITED_TYPES = frozenset({"bp", "cents", "months", "days", "date", "ymd", "int", "year"})
"""Argument types of a static fact's numbers that are cited values (thresholds, rates, periods)."""
CATALOGUE = frozenset({"article"})
"""Static predicates whose numbers are identifiers, not values (article numbers)."""
PROBE_MODELS = 32
"""A probe with more answer sets than this under the original rules (many unknowns) is not used."""
CHECK_TIME_LIMIT = 60.0
"""Seconds for one check of a scenario decided over its open facts (``treaty check`` gives it 10): a
mutant whose check is cut short by it is skipped, not judged."""


Pattern = tuple[tuple[str, int, tuple[tuple[int, clingo.Symbol], ...]], ...]
"""Positive body literals as name, arity and the constant arguments by position."""
_Shape = tuple[str, frozenset[str], tuple[str, ...]]
"""A program the check asks the rule base for: treaty, input predicates present, versions."""


@dataclass(frozen=True)
class Mutant:
    """One mutation of one statement of the rule base."""

    id: int
    statement: int  # index into Logic.statements
    operator: str  # number | operator | drop | negation
    file: str
    line: int
    rule_id: str  # "-" for a fact
    description: str
    text: str  # the mutated statement's program text
    head: tuple[str, int] | None
    positive: tuple[tuple[str, int], ...]
    is_fact: bool
    rest: Pattern | None  # the unchanged positive conditions; None: a fact, run on every scenario

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Outcome:
    """What became of one mutant."""

    mutant: int
    status: str  # killed | survived | equivalent | invalid | skipped
    detail: str = ""
    witness: str = ""
    solved: int = 0  # scenarios solved (suite and probes)


@dataclass
class _Case:
    """A scenario prepared once: its facts, the predicates that can be true, the statements of its
    fast-path program, and the original rules' output."""

    name: str
    treaty: str
    facts: str
    inputs: frozenset[tuple[str, int]]
    possible: frozenset[tuple[str, int]]
    kept: tuple[int, ...]
    kept_set: frozenset[int]
    output: Any  # suite: sorted shown symbols; probe: frozenset of models
    scenario: Scenario | None = None  # suite scenarios only (expectations)
    receipt: Receipt | None = None
    preds: frozenset[tuple[str, int]] = frozenset()  # predicates with an atom in an original answer set
    holds: frozenset[tuple[str, int, int, clingo.Symbol]] = frozenset()  # their constant arguments
    checked: bool = False  # decided as `treaty check` decides it (open facts, versions): output is its result
    shapes: tuple[_Shape, ...] = ()  # checked: the programs the check asked for (keys of _State.shapes)


@dataclass(frozen=True)
class _Known:
    """A program the original's check of a scenario asked for: the statements of its treaty and versions
    (in order, and as a set), and the predicates that can be true given its input predicates."""

    chosen: tuple[int, ...]
    members: frozenset[int]
    possible: frozenset[tuple[str, int]]


@dataclass
class _State:
    logic: Logic
    directives: str
    texts: list[str]
    chosen: dict[str, list[int]]  # by treaty: the statements of core and that treaty
    mutants: list[Mutant]
    suite: list[_Case]
    probes: list[_Case]
    deadline: float | None
    declared: Declared = field(default_factory=Declared)
    keys: frozenset[tuple[str, int, int]] = frozenset()  # (predicate, arity, position) the mutants test
    unsafe: frozenset[int] = frozenset()
    killers: dict[int, list[int]] = field(default_factory=dict)
    by_id: dict[int, Mutant] = field(default_factory=dict)
    shapes: dict[_Shape, _Known] = field(default_factory=dict)
    """Of each program a check asked for: its statements (before slicing) and the predicates that can be true."""
    static_atoms: list[clingo.Symbol] = field(default_factory=list)
    reconstructed: frozenset[str] = frozenset()


_STATE: _State | None = None
"""The state of this process's mutation run: prepared here, inherited by forked workers."""
_STATE_SPEC: _Spec | None = None
"""What :data:`_STATE` was prepared from (a spawned worker prepares its own from it)."""


@dataclass(frozen=True)
class _Spec:
    """What a worker needs to prepare the run's state itself (small, pickled for a spawned worker)."""

    root: str
    treaty: str
    max_mutants: int | None
    seed: int
    scenario_paths: tuple[str, ...]
    probes: int
    deadline: float | None


def _start_worker(spec: _Spec) -> None:
    """A pool's initializer: the state of the run, inherited under ``fork``, prepared once under
    ``spawn`` (the same mutants and suite: generation and sampling are deterministic)."""
    global _STATE_SPEC
    if _STATE is not None and spec == _STATE_SPEC:
        return
    from pyhelpers.engine.program import load_logic

    logic = load_logic(Path(spec.root))
    chosen = sample(generate_mutants(logic, spec.treaty), spec.max_mutants, spec.seed)
    prepare(logic, spec.treaty, chosen, [Path(p) for p in spec.scenario_paths], spec.probes, deadline=spec.deadline)
    _STATE_SPEC = spec


# ------------------------------------------------------------------------------------ generation ---

class _NumberAt(ast.Transformer):
    """Replaces the ``target``-th integer literal (in visiting order) by itself + ``delta``; counts them."""

    def __init__(self, target: int = -1, delta: int = 0) -> None:
        self.target = target
        self.delta = delta
        self.seen = 0
        self.found: tuple[int, int] | None = None  # (value, line)

    def visit_SymbolicTerm(self, node: Any) -> Any:
        if node.symbol.type != clingo.SymbolType.Number:
            return node
        here = self.seen
        self.seen += 1
        if here != self.target:
            return node
        self.found = (node.symbol.number, node.location.begin.line)
        return ast.SymbolicTerm(node.location, clingo.Number(node.symbol.number + self.delta))


def _flat(node: Any) -> str:
    return " ".join(str(node).split())


def _numbers(node: Any) -> Iterable[tuple[int, int, int, Any]]:
    """(value, delta, line, mutated node) for each integer literal of ``node`` ±1."""
    counter = _NumberAt()
    counter(node)
    for k in range(counter.seen):
        for delta in (-1, 1):
            t = _NumberAt(k, delta)
            new = t(node)
            assert t.found is not None
            yield t.found[0], delta, t.found[1], new


def _rule_mutants(stm: Any) -> Iterable[tuple[str, int, str, Any, int]]:
    """(operator, line, description, mutated statement, the body position changed or -1 for the head)
    of a rule with a body."""
    body = list(stm.body)
    for value, delta, line, head in _numbers(stm.head):
        yield "number", line, f"{value} -> {value + delta} in the head", stm.update(head=head), -1
    for k, lit in enumerate(body):
        line = lit.location.begin.line
        for value, delta, nline, new_lit in _numbers(lit):
            yield "number", nline, f"{value} -> {value + delta} in `{_flat(lit)}`", \
                stm.update(body=[*body[:k], new_lit, *body[k + 1:]]), k
        atom = lit.atom if lit.ast_type == ASTType.Literal else None
        if atom is not None and atom.ast_type == ASTType.Comparison:
            for g, guard in enumerate(atom.guards):
                flipped = list(atom.guards)
                flipped[g] = ast.Guard(_FLIP[guard.comparison], guard.term)
                new_lit = ast.Literal(lit.location, lit.sign, ast.Comparison(atom.term, flipped))
                yield "operator", line, f"`{_flat(lit)}` -> `{_flat(new_lit)}`", \
                    stm.update(body=[*body[:k], new_lit, *body[k + 1:]]), k
        if atom is not None and atom.ast_type == ASTType.BodyAggregate:
            for side in ("left_guard", "right_guard"):
                guard = getattr(atom, side)
                if guard is None:
                    continue
                new_atom = atom.update(**{side: ast.Guard(_FLIP[guard.comparison], guard.term)})
                new_lit = ast.Literal(lit.location, lit.sign, new_atom)
                yield "operator", line, f"`{_flat(lit)}` -> `{_flat(new_lit)}`", \
                    stm.update(body=[*body[:k], new_lit, *body[k + 1:]]), k
        yield "drop", line, f"condition {k} `{_flat(lit)}` dropped", stm.update(body=body[:k] + body[k + 1:]), k
        if lit.ast_type == ASTType.Literal and lit.sign != ast.Sign.NoSign:
            new_lit = ast.Literal(lit.location, ast.Sign.NoSign, lit.atom)
            yield "negation", line, f"`{_flat(lit)}` -> `{_flat(new_lit)}`", \
                stm.update(body=[*body[:k], new_lit, *body[k + 1:]]), k


def _fact_mutants(stm: Any, logic: Logic) -> Iterable[tuple[str, int, str, Any]]:
    """Cited values of a static fact ±1."""
    head = stm.head
    if head.ast_type != ASTType.Literal or head.atom.ast_type != ASTType.SymbolicAtom \
            or head.atom.symbol.ast_type != ASTType.Function:
        return
    fn = head.atom.symbol
    pred = logic.predicate(str(fn.name), len(fn.arguments))
    if pred is None or pred.role != "static" or pred.name in CATALOGUE:
        return
    for k, (arg, spec) in enumerate(zip(fn.arguments, pred.args, strict=True)):
        if spec.type not in CITED_TYPES or arg.ast_type != ASTType.SymbolicTerm \
                or arg.symbol.type != clingo.SymbolType.Number:
            continue
        value = arg.symbol.number
        for delta in (-1, 1):
            args = list(fn.arguments)
            args[k] = ast.SymbolicTerm(arg.location, clingo.Number(value + delta))
            new = stm.update(head=head.update(atom=head.atom.update(symbol=fn.update(arguments=args))))
            shown = [f"{value} -> {value + delta}" if j == k else _flat(a) for j, a in enumerate(fn.arguments)]
            yield "number", arg.location.begin.line, f"{pred.name}({', '.join(shown)})", new


def _pattern(lits: Iterable[Any]) -> Pattern:
    out = []
    for lit in lits:
        if lit.ast_type == ASTType.Literal and lit.sign == ast.Sign.NoSign \
                and lit.atom.ast_type == ASTType.SymbolicAtom and lit.atom.symbol.ast_type == ASTType.Function:
            fn = lit.atom.symbol
            consts = tuple((n, a.symbol) for n, a in enumerate(fn.arguments) if a.ast_type == ASTType.SymbolicTerm)
            out.append((str(fn.name), len(fn.arguments), consts))
    return tuple(out)


def generate_mutants(logic: Logic, treaty: str) -> list[Mutant]:
    """Every mutant of the statements of ``logic/<treaty>/`` (``core``: of ``logic/core/``), in file
    order: for each statement the numbers of its head, then per body condition its numbers, operator,
    drop and negation; for a fact its cited values."""
    prefix = f"logic/{treaty}/"
    infos: dict[int, RuleInfo] = {}
    rules = iter(logic.rules)
    for i, stm in enumerate(logic.statements):
        if stm.ast_type == ASTType.Rule and stm.body:
            infos[i] = next(rules)
    out: list[Mutant] = []
    for i, (stm, relpath) in enumerate(zip(logic.statements, logic.statement_files, strict=True)):
        if not relpath.startswith(prefix) or stm.ast_type != ASTType.Rule:
            continue
        info = infos.get(i)
        made: Iterable[tuple[str, int, str, Any, Pattern | None]]
        if stm.body:
            body = list(stm.body)
            made = ((op, line, d, new, _pattern(body[:k] + body[k + 1:] if k >= 0 else body))
                    for op, line, d, new, k in _rule_mutants(stm))
        else:
            made = ((op, line, d, new, None) for op, line, d, new in _fact_mutants(stm, logic))
        for op, line, description, new, rest in made:
            s = Statement.of(new, relpath)
            out.append(Mutant(len(out), i, op, relpath, line, info.rule_id if info else "-", description,
                              s.text.replace("\n", " "), s.head, s.positive, s.is_fact, rest))
    return out


def sample(mutants: Sequence[Mutant], n: int | None, seed: int) -> list[Mutant]:
    """A deterministic random sample of ``n`` mutants (all when ``n`` is None or not smaller), in order."""
    if n is None or n >= len(mutants):
        return list(mutants)
    chosen = sorted(random.Random(seed).sample(range(len(mutants)), n))
    return [mutants[i] for i in chosen]


# ------------------------------------------------------------------------------------- preparing ---

def _possible(stmts: Callable[[int], Statement], chosen: Sequence[int],
              present: frozenset[tuple[str, int]]) -> frozenset[tuple[str, int]]:
    """The least fixpoint of :meth:`Logic.possible_predicates`, over statements given by index."""
    possible = set(present)
    for i in chosen:
        s = stmts(i)
        if s.is_fact and s.head is not None:
            possible.add(s.head)
    changed = True
    while changed:
        changed = False
        for i in chosen:
            s = stmts(i)
            if s.head is not None and s.head not in possible and all(p in possible for p in s.positive):
                possible.add(s.head)
                changed = True
    return frozenset(possible)


def _inputs(logic: Logic, present: frozenset[str]) -> frozenset[tuple[str, int]]:
    return frozenset((p.name, p.arity) for p in logic.vocabulary.values() if p.role == "input" and p.name in present)


def _models(program: str, facts: str, limit: int, atoms: set[clingo.Symbol] | None = None
            ) -> frozenset[frozenset[clingo.Symbol]] | None:
    """The answer sets (shown atoms) of a probe; None when there are more than ``limit``. With
    ``atoms``, every atom true in some answer set is added to it."""
    ctl = clingo.Control([f"--models={limit + 1}", "--warn=none"])
    ctl.add("base", [], program)
    ctl.add("base", [], facts)
    ctl.ground([("base", [])])
    models: set[frozenset[clingo.Symbol]] = set()
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            models.add(frozenset(model.symbols(shown=True)))
            if atoms is not None:
                atoms.update(model.symbols(atoms=True))
    return None if len(models) > limit else frozenset(models)


def _prepare_case(state: _State, checker: Checker, name: str, scenario: Scenario, suite: bool) -> _Case | None:
    logic = state.logic
    facts = scenario_facts(scenario, "s", state.declared, scenario.strict)
    present = frozenset(f[: f.index("(")] for f in facts)
    inputs = _inputs(logic, present)
    sl = logic._sliceable
    chosen = state.chosen.setdefault(scenario.treaty, [
        i for i, s in enumerate(sl) if s.relpath.startswith(("logic/core/", f"logic/{scenario.treaty}/"))])
    possible = _possible(sl.__getitem__, chosen, inputs)
    kept = tuple(i for i in chosen if all(p in possible for p in sl[i].positive))
    program = _program(state, kept, None, None)
    text = "\n".join(facts)
    atoms: set[clingo.Symbol] = set()
    models = _models(program, text, PROBE_MODELS if not suite else 1, atoms)
    if models is None:
        if suite:
            raise LogicError(f"{name}: the rules have more than one answer set for a scenario of the suite")
        return None
    if not models:
        raise LogicError(f"{name}: the rules have no answer set")
    case = _Case(name, scenario.treaty, text, inputs, possible, kept, frozenset(kept), None)
    case.preds = frozenset((a.name, len(a.arguments)) for a in atoms)
    case.holds = frozenset((a.name, len(a.arguments), n, arg) for a in atoms for n, arg in enumerate(a.arguments)
                           if (a.name, len(a.arguments), n) in state.keys)
    if suite:
        case.output = sorted(next(iter(models)))
        case.scenario = scenario
        case.receipt = checker.receipt(facts)
    else:
        case.output = models
    return case


def _may_hold(m: Mutant, case: _Case) -> bool:
    """Whether the conditions that the mutant shares with the original can hold together in the
    original's answer sets: each needs an atom of its predicate with its constant arguments. When they
    cannot, neither the original rule nor the mutant has a body true there, and the answer sets are the
    original's (the mutated programs stay stratified)."""
    if m.rest is None:
        return True
    for name, arity, consts in m.rest:
        if (name, arity) not in case.preds:
            return False
        for n, sym in consts:
            if (name, arity, n, sym) not in case.holds:
                return False
    return True


def _program(state: _State, kept: Iterable[int], index: int | None, text: str | None) -> str:
    parts = [state.directives]
    for i in kept:
        t = text if i == index else state.texts[i]
        if t:
            parts.append(t)
    return "\n".join(parts)


@dataclass
class Prepared:
    """What a mutation run needs, built once before the workers fork."""

    mutants: list[Mutant]
    scenarios: int
    probes: int
    baseline_failures: list[str]
    notes: list[str]
    probe_data: dict[str, dict[str, Any]]


def prepare(logic: Logic, treaty: str, mutants: list[Mutant], scenario_paths: Sequence[Path], probes: int,
            probe_seed: int = 11, deadline: float | None = None) -> Prepared:
    """Load and solve the suite and the probes with the original rules (module state for the workers)."""
    global _STATE
    checker = Checker(logic)
    sl = logic._sliceable
    state = _State(logic, "\n".join(logic.defined_directives()), [s.text for s in sl], {}, mutants,
                   [], [], deadline)
    # the date module computes the periods the rules name: a period mutated ±1 month needs its facts too
    declared = checker.declared
    state.declared = dataclasses.replace(declared, months=frozenset(
        n + d for n in declared.months for d in (-1, 0, 1) if n + d > 0))
    state.static_atoms = checker.static_atoms
    state.reconstructed = checker.reconstructed_provisions
    state.keys = frozenset((name, arity, n) for m in mutants for name, arity, consts in m.rest or ()
                           for n, _ in consts)
    baseline: list[str] = []
    notes: list[str] = []
    probe_data: dict[str, dict[str, Any]] = {}
    suite_files: list[Path] = []
    for path in scenario_paths:
        scenario = load_file(path)
        if treaty != "core" and scenario.treaty != treaty:
            continue
        if scenario.expect is None:
            notes.append(f"{path}: no expect: block, not used")
            continue
        case = _prepare_case(state, checker, str(path), scenario, True)
        assert case is not None and case.scenario is not None and case.receipt is not None
        result = build_result(scenario, str(path), case.output, case.receipt)
        failed = compare(scenario, result)
        if failed or _open(checker, scenario):  # decided as `treaty check` decides it
            problem = _prepare_checked(state, case, scenario)
            if problem is not None:
                baseline.append(f"{path}: fails with the original rules ({problem}): not used")
                continue
        state.suite.append(case)
        suite_files.append(path)
    # the plain scenarios first (one solve each), then those decided over their open facts
    state.suite.sort(key=lambda c: c.checked)
    if not state.suite:
        raise InputError(f"no scenario of {treaty} with an expect: block that the original rules pass")
    if probes:
        from pyhelpers.prolog.generate import generate

        # drawn three times over: some are of another treaty, or have too many answer sets
        made, _ = generate(3 * probes, probe_seed, suite_files)
        for g in made:
            if len(state.probes) == probes:
                break
            if treaty != "core" and g.scenario.treaty != treaty:
                continue
            case = _prepare_case(state, checker, g.name, g.scenario, False)
            if case is not None:
                state.probes.append(case)
                probe_data[g.name] = g.data
        if len(state.probes) < probes:
            notes.append(f"only {len(state.probes)} of {probes} probe(s) drawn (of another treaty, or more than "
                         f"{PROBE_MODELS} answer sets)")
    if mutants:
        state.unsafe = frozenset(mutants[n - 1].id for n in _unsafe_lines([m.text for m in mutants]))
    _STATE = state
    return Prepared(mutants, len(state.suite), len(state.probes), baseline, notes, probe_data)


# ---------------------------------------------------------------------------- checked scenarios ---

class _CheckedLogic(Logic):
    """The rule base as :class:`Checker` reads it, with one statement replaced (or none), for the scenarios
    that ``treaty check`` decides other than by one plain solve (facts given as alternatives or
    ``unknown``, holding records opened over their values, items of amended article versions). Its
    programs are sliced by the input predicates present (:meth:`Logic.program_for`: the same answer sets
    as the slices by facts, without the constant analysis of the mutated statements), never read from or
    written to the disk cache, and recorded (:attr:`shapes`: which programs the check asked for)."""

    shapes: set[_Shape]
    known: dict[_Shape, _Known]
    """The programs the original's check asked for (the run's state), with what is known of them."""
    index: int | None

    def program_for(self, treaty: str, present: frozenset[str] | None = None,
                    versions: tuple[str, ...] = (), provenance: bool = True) -> str:
        assert present is not None, "a check asks for the program of its facts"
        self.shapes.add((treaty, present, versions))
        key = (treaty, present, versions, provenance)
        text = self._programs.get(key)
        if text is None:
            chosen = [self._sliceable[i] for i in self._kept((treaty, present, versions))]
            extra = self.provenance(chosen) if provenance else []
            text = self._programs[key] = "\n".join(self.defined_directives() + [s.text for s in chosen if s.text]
                                                   + extra)
        return text

    def _kept(self, shape: _Shape) -> list[int]:
        """The statements that can fire in the program of ``shape``. Where the original's check asked for
        it, its possible predicates serve the mutant too unless the mutated statement makes one more
        possible: those of the mutated rules are among them, and a statement kept that cannot fire does
        not change the answer set."""
        treaty, present, versions = shape
        known = self.known.get(shape)
        if known is None:
            chosen = self.chosen(treaty, versions)
            possible: Iterable[tuple[str, int]] = self.possible_predicates(chosen, present)
        else:
            chosen, possible = list(known.chosen), known.possible
            s = self._sliceable[self.index] if self.index is not None and self.index in known.members else None
            if s is not None and s.head is not None and s.head not in possible \
                    and all(p in possible for p in s.positive):
                possible = self.possible_predicates(chosen, present)
        can = frozenset(possible)
        return [i for i in chosen if all(p in can for p in self._sliceable[i].positive)]

    def program_for_facts(self, treaty: str, facts: Iterable[str], versions: tuple[str, ...] = ()) -> Sliced:
        present = frozenset(f[: f.index("(")] for f in facts)
        return self.parsed_program_for(treaty, present, versions)

    def parsed_program_for(self, treaty: str, present: frozenset[str] | None = None,
                           versions: tuple[str, ...] = (), provenance: bool = True) -> Sliced:
        assert present is not None, "a check asks for the program of its facts"
        key = (treaty, present, versions)
        cached = self._parsed.get((*key, provenance))
        if cached is None:
            cached = self._parsed[(*key, provenance)] = Sliced(self.program_for(treaty, present, versions, provenance))
        self.shapes.add(key)
        return cached

    def _cached_text(self, kind: str, shape: str, compute: Callable[[], str]) -> str:
        return compute()


def _checked_logic(logic: Logic, known: dict[_Shape, _Known], index: int | None = None,
                   statement: Statement | None = None) -> _CheckedLogic:
    """``logic`` as a :class:`_CheckedLogic`, with ``statement`` in place of statement ``index`` (its rule
    annotation, and so the provenance of its atoms, kept)."""
    out = _CheckedLogic.__new__(_CheckedLogic)
    out.__dict__.update(logic.__dict__)
    for derived in ("reach", "abstraction", "_rule_bodies"):  # of the original statements: computed again if asked
        out.__dict__.pop(derived, None)
    out._programs, out._sliced, out._parsed = {}, {}, {}
    out.shapes = set()
    out.known = known
    out.index = index
    statements = list(logic._sliceable)
    annotated = dict(logic._annotated)
    if index is not None and statement is not None:
        info = annotated.pop(id(statements[index]), None)
        statements[index] = statement
        if info is not None:
            annotated[id(statement)] = dataclasses.replace(info, text=_ANONYMOUS_RE.sub("_", statement.text))
    out.__dict__["_sliceable"] = statements
    out.__dict__["_annotated"] = annotated
    return out


def _checker(state: _State, logic: _CheckedLogic, static: bool = True) -> Checker:
    """A checker of ``logic`` with what the run shares: the measures of the dates (with the periods ±1
    month), and the catalogue's atoms unless a static fact is mutated (``static`` False)."""
    checker = Checker(logic)
    checker.__dict__["declared"] = state.declared
    checker.__dict__["reconstructed_provisions"] = state.reconstructed
    if static:
        checker.__dict__["static_atoms"] = state.static_atoms
    return checker


def _open(checker: Checker, scenario: Scenario) -> bool:
    """Whether ``treaty check`` decides ``scenario`` other than by one solve of its facts: facts given as
    alternatives, or items under an amended article's version."""
    return bool(scenario.unknowns) or set(checker.version_groups(scenario)) != {()}


def _prepare_checked(state: _State, case: _Case, scenario: Scenario) -> str | None:
    """``case`` decided as ``treaty check`` decides it (with the original rules): None when its
    expectations hold (``case`` is then a checked case), else the first that fails."""
    logic = _checked_logic(state.logic, state.shapes)
    try:
        result = _checker(state, logic).check(scenario, case.name, CHECK_TIME_LIMIT)
    except InputError as err:  # `treaty check` refuses it (too many combinations, versions mixed ...)
        return f"refused: {err}"
    if result.incomplete:
        return incomplete_text(result.incomplete, "en")
    failed = compare(scenario, result)
    if failed:
        return str(failed[0])
    for shape in logic.shapes:
        if shape not in state.shapes:
            treaty, present, versions = shape
            chosen = state.logic.chosen(treaty, versions)
            state.shapes[shape] = _Known(tuple(chosen), frozenset(chosen),
                                         frozenset(state.logic.possible_predicates(chosen, present)))
    case.checked = True
    case.shapes = tuple(sorted(logic.shapes, key=repr))
    case.output = result
    case.scenario = scenario
    return None


def _check_may_matter(state: _State, m: Mutant, case: _Case) -> bool:
    """Whether the mutated statement can fire, or the original could, in some program the check of
    ``case`` asked for. When neither can in any, every solve of the mutant's check has the original's
    answer set, so it asks for the same programs and has the same result."""
    was = state.logic._sliceable[m.statement].positive
    for shape in case.shapes:
        known = state.shapes[shape]
        if m.statement in known.members and (all(p in known.possible for p in was)
                                             or all(p in known.possible for p in m.positive)):
            return True
    return False


def _checked_result(state: _State, m: Mutant, case: _Case) -> ScenarioResult:
    """The result of ``treaty check`` on ``case`` with the mutant in place of its statement."""
    assert case.scenario is not None
    logic = _checked_logic(state.logic, state.shapes, m.statement,
                           Statement(m.file, m.text, m.head, m.positive, m.is_fact))
    static = not m.is_fact and not state.logic._sliceable[m.statement].is_fact
    return _checker(state, logic, static).check(case.scenario, case.name, CHECK_TIME_LIMIT)


# --------------------------------------------------------------------------------------- running ---

def _mutant_program(state: _State, m: Mutant, case: _Case) -> str | None:
    """The fast-path program of ``case`` with ``m`` in place of its statement; None when neither the
    original statement nor the mutant can fire there (the output is then the original's)."""
    i = m.statement
    was = i in case.kept_set
    now = all(p in case.possible for p in m.positive)
    if not was and not now:
        return None
    if not now or m.head is None or m.head in case.possible:
        # the original's possible predicates are closed under the mutant's rules: its program, with
        # the mutant in place of the statement (or without it, when the mutant cannot fire)
        if now and was:
            kept: Iterable[int] = case.kept
        elif now:
            kept = sorted((*case.kept, i))
        else:
            kept = (j for j in case.kept if j != i)
        return _program(state, kept, i, m.text)
    sl = state.logic._sliceable
    mutated = Statement(m.file, m.text, m.head, m.positive, m.is_fact)
    chosen = state.chosen[case.treaty]
    possible = _possible(lambda j: mutated if j == i else sl[j], chosen, case.inputs)
    kept2 = [j for j in chosen if all(p in possible for p in (mutated if j == i else sl[j]).positive)]
    return _program(state, kept2, i, m.text)


def _solvable(state: _State, m: Mutant, cases: list[tuple[int, _Case]]
              ) -> Iterator[tuple[int, _Case, str | None]]:
    """The cases where the mutated statement can matter, each with the mutant's program (empty for a
    checked case: it is checked again); once the time budget is spent, one last case with no program
    (and nothing after it)."""
    for n, case in cases:
        if case.checked:
            program: str | None = "" if _check_may_matter(state, m, case) else None
        else:
            program = _mutant_program(state, m, case) if _may_hold(m, case) else None
        if program is None:
            continue
        if state.deadline is not None and time.monotonic() > state.deadline:
            yield n, case, None
            return
        yield n, case, program


def _run_one(state: _State, m: Mutant) -> Outcome:
    if m.id in state.unsafe:
        return Outcome(m.id, "invalid", "unsafe: a variable is no longer bound by a positive condition")
    solved = 0
    first: list[int] = state.killers.get(m.statement, [])
    order = first + [n for n in range(len(state.suite)) if n not in first]
    witness = ""
    detail = ""
    for n, case, program in _solvable(state, m, [(n, state.suite[n]) for n in order]):
        if program is None:
            return Outcome(m.id, "skipped", "time budget", solved=solved)
        solved += 1
        if case.checked:
            verdict = _judge_checked(state, m, case)
            if verdict is None:
                continue
            status, why = verdict
            if status == "killed":
                _remember(state, m.statement, n)
            if status != "survived":
                return Outcome(m.id, status, why, case.name, solved)
            if not witness:
                witness, detail = case.name, why
            continue
        try:
            symbols = run_clingo(program, case.facts.split("\n")).symbols
        except LogicError as err:
            _remember(state, m.statement, n)
            return Outcome(m.id, "killed", str(err), case.name, solved)
        except RuntimeError as err:
            return Outcome(m.id, "invalid", f"clingo: {err}", case.name, solved)
        if symbols == case.output:
            continue
        assert case.scenario is not None and case.receipt is not None
        result = build_result(case.scenario, case.name, symbols, case.receipt)
        failed = compare(case.scenario, result)
        if failed:
            _remember(state, m.statement, n)
            return Outcome(m.id, "killed", str(failed[0]), case.name, solved)
        if not witness:
            witness = case.name
            detail = "the output differs, no expectation catches it"
    if witness:
        return Outcome(m.id, "survived", detail, witness, solved)
    for _, case, program in _solvable(state, m, list(enumerate(state.probes))):
        if program is None:
            return Outcome(m.id, "skipped", "time budget", solved=solved)
        solved += 1
        try:
            models = _models(program, case.facts, PROBE_MODELS)
        except RuntimeError as err:
            return Outcome(m.id, "invalid", f"clingo: {err}", case.name, solved)
        if models != case.output:
            return Outcome(m.id, "survived", "no scenario of the suite tells it apart; this probe does",
                           case.name, solved)
    return Outcome(m.id, "equivalent", "the output is the original's on every scenario and probe", solved=solved)


def _judge_checked(state: _State, m: Mutant, case: _Case) -> tuple[str, str] | None:
    """The mutant on a checked case: killed (an expectation fails, or the check fails or refuses the
    scenario), invalid (clingo refuses the program), skipped (the check's time limit), survived (the
    result differs, no expectation catches it), or None (the original's result)."""
    assert case.scenario is not None
    try:
        result = _checked_result(state, m, case)
    except (LogicError, InputError) as err:
        return "killed", str(err)
    except RuntimeError as err:
        return "invalid", f"clingo: {err}"
    if result.incomplete:
        return "skipped", f"the check's time limit ({CHECK_TIME_LIMIT:g} s)"
    failed = compare(case.scenario, result)
    if failed:
        return "killed", str(failed[0])
    if result != case.output:
        return "survived", "the output differs, no expectation catches it"
    return None


def _remember(state: _State, statement: int, n: int) -> None:
    killers = state.killers.setdefault(statement, [])
    if n in killers:
        killers.remove(n)
    killers.insert(0, n)


def _run_group(ids: list[int]) -> list[Outcome]:
    state = _STATE
    assert state is not None
    by_id = state.by_id or {m.id: m for m in state.mutants}
    state.by_id = by_id
    return [_run_one(state, by_id[i]) for i in ids]


@dataclass
class Report:
    """The result of a mutation run."""

    treaty: str
    total: int  # mutants generated
    mutants: list[Mutant]  # those run (all, or the sample)
    outcomes: dict[int, Outcome]
    scenarios: int
    probes: int
    seconds: float
    sampled: bool
    seed: int
    notes: list[str] = field(default_factory=list)
    probe_data: dict[str, dict[str, Any]] = field(default_factory=dict)

    def by_status(self, status: str) -> list[Mutant]:
        return [m for m in self.mutants if self.outcomes[m.id].status == status]

    def counts(self) -> dict[str, int]:
        c = Counter(o.status for o in self.outcomes.values())
        return {s: c.get(s, 0) for s in STATUSES}

    @property
    def score(self) -> float:
        c = self.counts()
        judged = c["killed"] + c["survived"]
        return 100.0 * c["killed"] / judged if judged else 100.0

    def table(self) -> list[tuple[str, dict[str, int]]]:
        """Counts per operator."""
        rows = []
        for op in OPERATORS:
            c = Counter(self.outcomes[m.id].status for m in self.mutants if m.operator == op)
            rows.append((op, {s: c.get(s, 0) for s in STATUSES}))
        return rows

    def witnesses(self) -> list[tuple[Mutant, dict[str, Any]]]:
        """The surviving mutants told apart by a probe only, with the probe's scenario data: each is a
        candidate for a new scenario of the suite (with an ``expect:`` block written by hand)."""
        return [(m, self.probe_data[self.outcomes[m.id].witness]) for m in self.by_status("survived")
                if self.outcomes[m.id].witness in self.probe_data]

    def survivors_by(self) -> list[tuple[str, int]]:
        """Surviving mutants per file and operator, most first."""
        c = Counter(f"{m.file} {m.operator}" for m in self.by_status("survived"))
        return c.most_common()


def run_mutation(logic: Logic, treaty: str, scenario_paths: Sequence[Path], max_mutants: int | None = None,
                 seed: int = 1, jobs: int = 1, time_budget: float | None = None, probes: int = 100,
                 progress: Callable[[int], None] | None = None, planned: Callable[[int], None] | None = None,
                 *, budget_after_preparing: bool = False) -> Report:
    """Generate the mutants of ``treaty`` (a sample of ``max_mutants`` with ``seed``), run each on the
    scenarios (and ``probes`` generated ones) in ``jobs`` processes, within ``time_budget`` seconds
    (counted from the start, or with ``budget_after_preparing`` from the end of the preparation: a fixed
    share for judging mutants whatever the preparation took; the mutants not run by then are *skipped*).
    ``planned(n)`` is told the
    number of mutants to run once they are chosen, ``progress(n)`` after each group of ``n`` judged
    (the mutants of one statement; the skipped ones too)."""
    start = time.monotonic()
    deadline = start + time_budget if time_budget is not None else None
    every = generate_mutants(logic, treaty)
    if not every:
        raise InputError(f"no statement of logic/{treaty}/ to mutate (is {treaty!r} an encoded treaty?)")
    chosen = sample(every, max_mutants, seed)
    if planned is not None:
        planned(len(chosen))
    prepared = prepare(logic, treaty, chosen, scenario_paths, probes,
                       deadline=None if budget_after_preparing else deadline)
    if budget_after_preparing and time_budget is not None:
        deadline = time.monotonic() + time_budget
        assert _STATE is not None
        _STATE.deadline = deadline
    global _STATE_SPEC
    _STATE_SPEC = _Spec(str(logic.root), treaty, max_mutants, seed, tuple(map(str, scenario_paths)), probes, deadline)
    groups: dict[int, list[int]] = {}
    for m in chosen:
        groups.setdefault(m.statement, []).append(m.id)
    # run in a random order (fixed by the seed): a run cut short by the time budget has judged a random
    # part of the rule base, not its first articles
    order = list(groups.values())
    random.Random(seed).shuffle(order)
    outcomes: dict[int, Outcome] = {}
    if jobs <= 1 or len(groups) <= 1:
        for ids in order:
            for o in _run_group(ids):
                outcomes[o.mutant] = o
            if progress is not None:
                progress(len(ids))
    else:
        # forked workers inherit the parsed logic and the suite; spawned ones prepare them from the spec
        with ProcessPoolExecutor(jobs, mp_context=processes.context(), initializer=_start_worker,
                                 initargs=(_STATE_SPEC,)) as pool:
            futures = [pool.submit(_run_group, ids) for ids in order]
            for fut in as_completed(futures):
                done = fut.result()
                for o in done:
                    outcomes[o.mutant] = o
                if progress is not None:
                    progress(len(done))
    notes = prepared.baseline_failures + prepared.notes
    return Report(treaty, len(every), chosen, outcomes, prepared.scenarios, prepared.probes,
                  time.monotonic() - start, max_mutants is not None and max_mutants < len(every), seed, notes,
                  prepared.probe_data)


# ------------------------------------------------------------------------------------- rendering ---

_SAID = {
    "en": {"number": "number", "operator": "operator", "drop": "drop", "negation": "negation",
           "head": "{a} -> {b} in the head", "in": "{a} -> {b} in {lit}", "dropped": "condition {k} {lit} dropped",
           "unsafe": "unsafe: a variable is no longer bound by a positive condition", "budget": "time budget",
           "differs": "the output differs, no expectation catches it",
           "probe": "no scenario of the suite tells it apart; this probe does",
           "same": "the output is the original's on every scenario and probe",
           "no_expect": "{path}: no expect: block, not used",
           "baseline": "{path}: fails with the original rules ({failed}): not used",
           "probes": "only {n} of {m} probe(s) drawn (of another treaty, or more than {k} answer sets)"},
    "pt": {"number": "número", "operator": "operador", "drop": "remoção", "negation": "negação",
           "head": "{a} -> {b} na cabeça", "in": "{a} -> {b} em {lit}", "dropped": "condição {k} {lit} removida",
           "unsafe": "regra insegura: uma variável deixou de ser ligada por uma condição positiva",
           "budget": "tempo disponível esgotado", "differs": "a saída muda, nenhuma expectativa o detecta",
           "probe": "nenhum cenário da suíte o distingue; esta sonda o distingue",
           "same": "a saída é a da regra original em todo cenário e toda sonda",
           "no_expect": "{path}: sem bloco expect:, não usado",
           "baseline": "{path}: falha com as regras originais ({failed}): não usado",
           "probes": "só {n} de {m} sonda(s) sorteada(s) (de outra convenção, ou com mais de {k} conjuntos de "
                     "resposta)"},
}
"""The words of a mutation, its detail and the notes in ``treaty mutate``'s text under ``--lang``: the JSON gives
them in English, as :func:`_rule_mutants` and :func:`_run_one` write them; the program text they quote stays."""

_SAID_PATTERNS = (
    ("head", re.compile(r"^(?P<a>-?\d+) -> (?P<b>-?\d+) in the head$")),
    ("in", re.compile(r"^(?P<a>-?\d+) -> (?P<b>-?\d+) in (?P<lit>`.*`)$")),
    ("dropped", re.compile(r"^condition (?P<k>\d+) (?P<lit>`.*`) dropped$")),
    ("no_expect", re.compile(r"^(?P<path>.*): no expect: block, not used$")),
    ("baseline", re.compile(r"^(?P<path>.*): fails with the original rules \((?P<failed>.*)\): not used$", re.S)),
    ("probes", re.compile(r"^only (?P<n>\d+) of (?P<m>\d+) probe\(s\) drawn \(of another treaty, or more than "
                          r"(?P<k>\d+) answer sets\)$")),
)


def said(text: str, lang: str) -> str:
    """An operator, a mutation, its detail or a note as the JSON gives it, in ``lang``'s words (unchanged in
    English, and where it is not one of :data:`_SAID`'s)."""
    if languages.family(lang) == "en":
        return text
    w = wording(_SAID, lang)
    for key in ("number", "operator", "drop", "negation", "unsafe", "budget", "differs", "probe", "same"):
        if text == _SAID["en"][key]:
            return w[key]
    for key, pattern in _SAID_PATTERNS:
        m = pattern.match(text)
        if m:
            return w[key].format(**m.groupdict())
    return text


def _line(m: Mutant, o: Outcome, lang: str = "en") -> str:
    out = f"  {m.where}: {m.rule_id}: {said(m.operator, lang)}: {said(m.description, lang)}"
    if o.witness:
        out += f"\n      {said(o.detail, lang)}: {o.witness}" if o.status != "killed" else ""
    elif o.detail and o.status in ("invalid", "skipped"):
        out += f" ({said(o.detail, lang)})"
    return out


_TEXT = {
    "en": {"sample": "a sample of {run} of {total} mutants (seed {seed})", "all": "{total} mutants",
           "title": "mutation testing of logic/{treaty}/: {scope}; {n} scenario(s), {p} probe(s); {s} s",
           "operator": "operator", "total": "total",
           "killed": "killed", "survived": "survived", "equivalent": "equivalent-suspected", "invalid": "invalid",
           "skipped": "skipped",
           "score": "score: {k}/{j} = {pct}% killed (killed / (total - equivalent-suspected - invalid - skipped))",
           "more": "... and {n} more (--format json lists every one)",
           "budget": "skipped {n} mutant(s): the time budget ran out",
           "survivors": "survivors by file and operator:", "notes": "notes:"},
    "pt": {"sample": "uma amostra de {run} de {total} mutantes (semente {seed})", "all": "{total} mutantes",
           "title": "teste de mutação de logic/{treaty}/: {scope}; {n} cenário(s), {p} sonda(s); {s} s",
           "operator": "operador", "total": "total",
           "killed": "mortos", "survived": "sobreviventes", "equivalent": "suspeitos-equivalentes",
           "invalid": "inválidos", "skipped": "pulados",
           "score": "pontuação: {k}/{j} = {pct}% mortos (mortos / (total - suspeitos-equivalentes - inválidos - "
                    "pulados))",
           "more": "... e mais {n} (--format json lista todos)",
           "budget": "{n} mutante(s) pulado(s): o tempo disponível acabou",
           "survivors": "sobreviventes por arquivo e operador:", "notes": "notas:"},
    "pt-PT": {"survivors": "sobreviventes por ficheiro e operador:", "skipped": "saltados",
              "score": "pontuação: {k}/{j} = {pct}% mortos (mortos / (total - suspeitos-equivalentes - inválidos - "
                       "saltados))",
              "budget": "{n} mutante(s) saltado(s): o tempo disponível acabou"},
}
"""The words of ``treaty mutate``'s text (``--lang``); the operators, mutations, details and notes are put in
``lang``'s words by :func:`said`, the rule ids and program text stay as written."""


def _survivors_key(key: str, lang: str) -> str:
    """``FILE OPERATOR`` of :meth:`Report.survivors_by` with the operator in ``lang``'s words."""
    file, _, op = key.rpartition(" ")
    return f"{file} {said(op, lang)}"


def report_text(r: Report, limit: int | None = None, lang: str = "en") -> str:
    """The mutation report in words, in ``lang`` (en, pt, pt-PT)."""
    w = wording(_TEXT, lang)
    c = r.counts()
    scope = w["sample"].format(run=len(r.mutants), total=r.total, seed=r.seed) if r.sampled \
        else w["all"].format(total=r.total)
    lines = [w["title"].format(treaty=r.treaty, scope=scope, n=r.scenarios, p=r.probes, s=f"{r.seconds:.0f}"), ""]
    width = max(20, *(len(w[s]) for s in STATUSES))
    lines.append(f"{w['operator']:10} " + " ".join(f"{w[s]:>{width}}" for s in STATUSES))
    for op, counts in [*[(said(op, lang), n) for op, n in r.table()], (w["total"], c)]:
        lines.append(f"{op:10} " + " ".join(f"{counts[s]:>{width}}" for s in STATUSES))
    judged = c["killed"] + c["survived"]
    lines += ["", w["score"].format(k=c["killed"], j=judged, pct=formats.number(Decimal(f"{r.score:.1f}"), lang))]
    for status in ("survived", "equivalent", "invalid", "skipped"):
        ms = r.by_status(status)
        if not ms:
            continue
        shown = ms if limit is None else ms[:limit]
        lines += ["", f"{w[status]} ({len(ms)}):"]
        lines += [_line(m, r.outcomes[m.id], lang) for m in shown]
        if len(shown) < len(ms):
            lines.append("  " + w["more"].format(n=len(ms) - len(shown)))
    if c["skipped"]:
        lines += ["", w["budget"].format(n=c["skipped"])]
    if r.survivors_by():
        lines += ["", w["survivors"]]
        lines += [f"  {n:4}  {_survivors_key(key, lang)}" for key, n in r.survivors_by()]
    if r.notes:
        lines += ["", w["notes"]] + [f"  {said(n, lang)}" for n in r.notes]
    return "\n".join(lines) + "\n"


def report_json(r: Report) -> dict[str, Any]:
    c = r.counts()
    return {
        "treaty": r.treaty, "mutants": r.total, "run": len(r.mutants), "sampled": r.sampled, "seed": r.seed,
        "scenarios": r.scenarios, "probes": r.probes, "seconds": round(r.seconds, 1),
        "counts": {STATUS_NAMES[s]: n for s, n in c.items()}, "score": round(r.score, 2),
        "by_operator": {op: {STATUS_NAMES[s]: n for s, n in counts.items()} for op, counts in r.table()},
        "results": [{"where": m.where, "rule": m.rule_id, "operator": m.operator, "mutation": m.description,
                     "status": STATUS_NAMES[r.outcomes[m.id].status], "detail": r.outcomes[m.id].detail,
                     "witness": r.outcomes[m.id].witness, "solved": r.outcomes[m.id].solved}
                    for m in r.mutants],
        "notes": r.notes,
    }
