"""Running the translated rule base on SWI-Prolog.

* Batches (the cross-check): one ``swipl`` process per chunk of scenarios consults the rule program
  and a file of the chunk's facts and dumps, per scenario id, every atom of every derived predicate as
  true or undefined (well-founded semantics).
* Single scenarios (``treaty ask``): in-process through pyswip — the program consulted once per
  process, a scenario's facts asserted, its tables abolished before the next.

The translation is cached on disk per rule base and translator version, so a command does not pay for
translating the rule base again (:mod:`pyhelpers.base.cache`: sealed entries, a private folder; the
file SWI-Prolog consults is compared with the translation's text before each use).
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import clingo

from pyhelpers.base.cache import file_holding, prune, read_json, write_json
from pyhelpers.base.errors import LogicError, TreatyLogicError
from pyhelpers.engine.program import Logic
from pyhelpers.prolog.translate import RUNTIME, Translation, fact, quote, string, translate_logic

_SOURCES = [Path(__file__).with_name(n) for n in ("translate.py", "portable.py")] + [RUNTIME]
SETUP_HINT = "run `sh .ci/setup --dev` as root (it installs Debian's swi-prolog-nox and pyswip), or use --engine clingo"


class EngineUnavailable(TreatyLogicError):
    """SWI-Prolog (or pyswip) is not installed. Exit code 3."""


def swipl() -> str:
    """The ``swipl`` executable, or :class:`EngineUnavailable`."""
    path = shutil.which("swipl")
    if path is None:
        raise EngineUnavailable(f"SWI-Prolog (swipl) is not installed: {SETUP_HINT}")
    return path


# ------------------------------------------------------------------------------- translations ---
def _key(logic: Logic) -> str:
    h = hashlib.sha256(logic.digest.encode())
    for src in _SOURCES:
        h.update(src.read_bytes())
    return h.hexdigest()[:24]


_loaded: dict[str, Translation] = {}


def translation_for(logic: Logic) -> Translation:
    """The Prolog translation of ``logic``: from memory, the disk cache (sealed entries that verify:
    :mod:`pyhelpers.base.cache`), or translated now."""
    key = _key(logic)
    hit = _loaded.get(key)
    if hit is not None:
        return hit
    name = f"prolog-{key}.json"
    tr: Translation | None = None
    data = read_json(name)
    if data is not None:
        try:
            tr = Translation(data["text"], frozenset(tuple(s) for s in data["derived"]),
                             frozenset(tuple(s) for s in data["inputs"]),
                             {(n, a): r for n, a, r in data["excluded"]}, data["choice"], data["digest"])
        except (ValueError, KeyError, TypeError):
            tr = None
    if tr is None or hashlib.sha256(tr.text.encode("utf-8")).hexdigest() != tr.digest:
        tr = translate_logic(logic)
        write_json(name, {"text": tr.text, "derived": sorted(tr.derived), "inputs": sorted(tr.inputs),
                          "excluded": [[n, a, r] for (n, a), r in sorted(tr.excluded.items())],
                          "choice": tr.choice, "digest": tr.digest})
        prune("prolog-*.json.sealed")
    _loaded[key] = tr
    return tr


def program_file(tr: Translation) -> Path:
    """The translated program as a file that holds exactly its text (checked against it, written when
    it differs: SWI-Prolog consults it by its path)."""
    try:
        path = file_holding(f"rules-{tr.digest[:24]}.pl", tr.text)
    except OSError as err:
        raise LogicError(f"cannot write the Prolog translation to a file: {err}") from None
    prune("rules-*.pl")
    return path


# ------------------------------------------------------------------------------------- facts ---
def prolog_facts(facts: Iterable[str], tr: Translation) -> list[tuple[str, int, str]]:
    """Scenario facts (ASP text from :func:`pyhelpers.atoms.fact`) as (Prolog functor, arity, term)."""
    out = []
    for text in facts:
        try:
            sym = clingo.parse_term(text.rstrip().rstrip("."))
        except RuntimeError as err:
            raise LogicError(f"fact {text!r} does not parse: {err}") from None
        arity = len(sym.arguments)
        out.append((tr.predicate((sym.name, arity)), arity, fact(sym, tr)))
    return out


def facts_file_text(facts: Sequence[tuple[str, int, str]]) -> str:
    """A consultable file of Prolog facts (each predicate declared multifile and dynamic)."""
    lines = [":- encoding(utf8)."]
    for name, arity in sorted({(n, a) for n, a, _ in facts}):
        lines.append(f":- dynamic({name}/{arity}).")
        lines.append(f":- multifile({name}/{arity}).")
    lines += [f"{t}." for _, _, t in facts]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------------ batches ---
@dataclass
class PrologModel:
    """What SWI-Prolog concluded for a chunk: atoms (clingo syntax) true, undefined; errors by scenario."""

    true: set[str] = field(default_factory=set)
    undefined: set[str] = field(default_factory=set)
    errors: dict[str, str] = field(default_factory=dict)
    failure: str | None = None  # the whole run failed (with its stderr)
    seconds: float = 0.0


def run_batch(tr: Translation, facts: Sequence[str], sids: Sequence[str], timeout: float = 600.0) -> PrologModel:
    """Run one chunk: ``facts`` (ASP text) of the scenarios ``sids`` in one ``swipl`` process. Without
    ``sids``, the whole model of the rule base with ``facts`` is dumped."""
    exe = swipl()
    rules = program_file(tr)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="treaty-prolog-") as tmp:
        facts_path = Path(tmp) / "facts.pl"
        out_path = Path(tmp) / "model.txt"
        facts_path.write_text(facts_file_text(prolog_facts(facts, tr)), encoding="utf-8")
        ids = ", ".join(string(s) for s in sids)
        goal = (f"consult({quote(str(rules))}), consult({quote(str(facts_path))}), "
                f"'$tl_dump'([{ids}], {quote(str(out_path))})")
        try:
            run = subprocess.run([exe, "-q", "-f", "none", "-g", goal, "-t", "halt"], capture_output=True,
                                 text=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            return PrologModel(failure=f"swipl did not finish in {timeout:.0f} s")
        model = PrologModel(seconds=time.perf_counter() - start)
        problems = [line for line in run.stderr.splitlines() if line.strip()]
        if run.returncode != 0 or not out_path.is_file():
            model.failure = f"swipl exited with {run.returncode}: " + "\n".join(problems[:20])
            return model
        if problems:
            model.failure = "swipl printed warnings or errors:\n" + "\n".join(problems[:20])
        # one atom a line, split at "\n" only: an id may hold any other line separator (U+0085, U+2028,
        # a carriage return ...), which SWI-Prolog writes as it is, as clingo prints it
        for line in out_path.read_bytes().decode("utf-8").split("\n"):
            kind, _, rest = line.partition(" ")
            if kind == "t":
                model.true.add(rest)
            elif kind == "u":
                model.undefined.add(rest)
            elif kind == "e":
                sid, _, message = rest.partition(" ")
                model.errors[sid] = message
    return model


# ---------------------------------------------------------------------------------- in-process ---
class Session:
    """The rule base loaded in this process's SWI-Prolog (through pyswip), one scenario at a time."""

    _current: Session | None = None

    def __init__(self, tr: Translation) -> None:
        try:
            from pyswip import Prolog
        except ImportError:
            raise EngineUnavailable(f"pyswip is not installed: {SETUP_HINT}") from None
        except Exception as err:  # pyswip raises at import when it finds no SWI-Prolog library
            raise EngineUnavailable(f"SWI-Prolog cannot be loaded ({err}): {SETUP_HINT}") from None
        self.tr = tr
        self.loaded = ""  # digest of the scenario facts asserted
        self.prolog = Prolog()
        previous = Session._current
        if previous is not None and previous.tr.digest != tr.digest:
            self._call(f"unload_file({quote(str(program_file(previous.tr)))})")
        if previous is None or previous.tr.digest != tr.digest:
            self._call(f"consult({quote(str(program_file(tr)))})")
        Session._current = self

    @classmethod
    def for_translation(cls, tr: Translation) -> Session:
        current = cls._current
        if current is not None and current.tr.digest == tr.digest:
            return current
        return cls(tr)

    def _call(self, goal: str) -> list[dict[str, Any]]:
        try:
            return list(self.prolog.query(goal))
        except Exception as err:  # pyswip's PrologError
            raise LogicError(f"SWI-Prolog: {err}") from None

    def load(self, facts: Iterable[str]) -> None:
        """Replace the scenario facts (and abolish every table), unless they are the ones loaded."""
        terms = [t for _, _, t in prolog_facts(facts, self.tr)]
        key = hashlib.sha256("\n".join(terms).encode("utf-8")).hexdigest()
        if key == self.loaded:
            return
        self._call(f"'$tl_load_facts'([{', '.join(terms)}])")
        self.loaded = key

    def answers(self, atom: str, tests: str = "true", pre: str = "true") -> list[tuple[str, str]]:
        """(atom in clingo syntax, "true" | "undefined") for every instance of ``atom`` (a Prolog call,
        after the goals ``pre``) for which ``tests`` hold."""
        rows = self._call(f"'$tl_answers'(({pre}), {atom}, ({tests}), Rows)")
        return [(_text(a), _text(t)) for a, t in rows[0]["Rows"]] if rows else []

    def why(self, atom: clingo.Symbol) -> list[list[Any]]:
        """The rows of a proof tree of a true atom (see '$tl_why' in runtime.pl); empty if none is found."""
        goal = fact(atom, self.tr).replace(quote("@in:" + atom.name), quote("@" + atom.name), 1)
        rows = self._call(f"'$tl_why'({goal}, Rows)")
        if not rows:
            return []
        out = []
        for depth, kind, pos, rule, text, env in rows[0]["Rows"]:
            out.append([int(depth), _text(kind), int(pos), int(rule) if not isinstance(rule, (str, bytes)) else -1,
                        _text(text), [(_text(n), _text(v)) for n, v in env]])
        return out


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)
