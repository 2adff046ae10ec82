"""Which provisions read a fact: the provisions of the first rules, on each path of the rule base's
dependency graph from the fact's predicates, whose annotation names a provision of the treaty.

A fact given as alternatives that decides an item is cited by the provisions whose conditions read it,
not by the whole treaty. The graph is the rule base's, read from the rules' texts: a rule reads every
predicate named in its body (positive or negated, in a comparison's term or an aggregate's condition).
From the fact's predicates the walk goes on through rules of the shared vocabulary (``logic/core/``,
annotated ``(core)``) and rules whose provision is a variable (``{Prov}``), and stops at a rule annotated
with a provision of the treaty: that provision reads the fact. It goes on through a treaty's rule that only
takes a fact stating a conclusion itself (``stated_conclusion``: a permanent establishment's status) as
its article's, and never past a conclusion of the vocabulary (a State may tax, benefits denied): who reads
those reads another provision's conclusion. The caller keeps, of these, those that some alternative of
the item rests on (the provisions at which the alternatives part ways)."""

from __future__ import annotations

import re
from collections import defaultdict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from pyhelpers.engine.program import PROVISION_RE, Logic
from pyhelpers.engine.slicing import _NAME_RE

_HEAD_RE = re.compile(r"\s*([a-z_][A-Za-z0-9_']*)\(")
_FACT_RE = re.compile(r"^([a-z_][A-Za-z0-9_']*)\((.*)\)\.[ \t]*(?:%.*)?$", re.MULTILINE)
_STRING_RE = re.compile(r'"([^"\\]*)"')


@dataclass(frozen=True)
class _Graph:
    readers: dict[str, tuple[tuple[str, str, tuple[str, ...], str], ...]]
    """For each predicate name, the rules whose bodies read it: (head name, provision, body names, the
    treaty whose rule it is or ``core``)."""
    carried: dict[str, frozenset[str]]
    """For each predicate name, the provisions its facts carry as an argument (a treaty's first day of
    application, with the provision that sets it)."""
    conclusions: frozenset[str]
    """The predicates of facts that state a treaty's conclusion itself (``stated_conclusion``: a permanent
    establishment's status): the rules that take one as the article's conclusion read no condition of it,
    and the walk goes on through them to the provisions that read the conclusion."""
    items: frozenset[str]
    """The predicates one of whose arguments is an item of income (by the vocabulary's noun ``item``)."""
    results: frozenset[str]
    """The predicates of the vocabulary's role ``conclusion`` (a State may tax, a cap, benefits denied): a
    provision that reads one reads another provision's conclusion, not the fact; the walk stops there."""


_GRAPHS: dict[str, _Graph] = {}
"""The graph of each rule base read so far, by its digest."""


def _graph(logic: Logic) -> _Graph:
    hit = _GRAPHS.get(logic.digest)
    if hit is not None:
        return hit
    readers: dict[str, set[tuple[str, str, tuple[str, ...], str]]] = defaultdict(set)
    for rule in logic.rules:
        head_text, sep, body = rule.text.partition(":-")
        m = _HEAD_RE.match(head_text)
        if not sep or m is None:
            continue
        names = tuple(sorted(set(_NAME_RE.findall(body))))
        for name in names:
            readers[name].add((m.group(1), rule.provision, names, _home(rule.rule_id)))
    carried: dict[str, set[str]] = defaultdict(set)
    conclusions: set[str] = set()
    for lf in logic.files:
        for m in _FACT_RE.finditer(lf.source):
            carried[m.group(1)].update(t for t in _STRING_RE.findall(m.group(2)) if PROVISION_RE.match(t))
            if m.group(1) == STATED_CONCLUSION:
                conclusions.add(m.group(2).strip())
    item = logic.nouns.get("item")
    about = set(item.defaults) if item is not None else set()
    items = frozenset(p.name for p in logic.vocabulary.values() if any((a.name, a.type) in about for a in p.args))
    results = frozenset(p.name for p in logic.vocabulary.values() if p.role == "conclusion")
    if len(_GRAPHS) > 8:
        _GRAPHS.clear()
    hit = _GRAPHS[logic.digest] = _Graph({name: tuple(sorted(rs)) for name, rs in readers.items()},
                                         {name: frozenset(ps) for name, ps in carried.items()},
                                         frozenset(conclusions), items, results)
    return hit


def provisions_reading(logic: Logic, treaty: str, names: Iterable[str]) -> frozenset[str]:
    """The provisions of ``treaty`` whose rules first read the predicates ``names`` (see module doc)."""
    graph = _graph(logic)
    first = frozenset(names)
    seen = set(first)
    queue = deque(seen)
    found: set[str] = set()
    reached: set[tuple[str, str]] = set()  # (provision, head) of the treaty's rules reached
    own = treaty + " "
    while queue:
        name = queue.popleft()
        for head, provision, body, home in graph.readers.get(name, ()):
            if home not in (CORE, treaty):
                continue  # another treaty's rule: it never holds in this treaty's scenario
            if provision.startswith(own) and name not in graph.conclusions:
                found.add(provision)
                reached.add((provision, head))
                continue
            if provision.startswith("{") and first.intersection(body):  # the provision is an argument: that
                # of the facts read beside the fact's own (a treaty's date of application, read with a payment's)
                found.update(p for name in body for p in graph.carried.get(name, ()) if p.startswith(own))
            if head not in seen and head not in graph.results:
                seen.add(head)
                queue.append(head)
    by_body, _, heads = _index(logic)
    reached |= {(logic.rules[n].provision, h[0]) for n in _own_rules(logic, reached, by_body, heads)
                if (h := heads[n]) is not None}
    found.update(logic.rules[n].provision for n in _residuals(logic, reached, by_body, heads))
    return frozenset(found)


def _own_rules(logic: Logic, reached: Iterable[tuple[str, str]], by_body: dict[str, list[int]],
               heads: list[tuple[str, str, str] | None]) -> list[int]:
    """The rules of each provision reached (with the heads its rules derive from the fact) that go on from
    those heads: a condition the provision's rules state in steps (the interval a holding lasts, then
    whether it lasts 365 days), whose last step is the one that comes out differently."""
    out: list[int] = []
    seen = set(reached)
    queue = deque(sorted(seen))
    while queue:
        provision, head = queue.popleft()
        for n in by_body.get(head, ()):
            parts = heads[n]
            if parts is None or logic.rules[n].provision != provision:
                continue
            out.append(n)
            if (provision, parts[0]) not in seen:
                seen.add((provision, parts[0]))
                queue.append((provision, parts[0]))
    return sorted(set(out))


def _parent(provision: str) -> str:
    """The unit a provision is part of: ``xx-yy 10(2)`` of ``xx-yy 10(2)(b)``; itself if it has none."""
    head, sep, _ = provision.rpartition("(")
    return head if sep and "(" in head else provision


def _residuals(logic: Logic, reached: Iterable[tuple[str, str]], by_body: dict[str, list[int]],
               heads: list[tuple[str, str, str] | None]) -> list[int]:
    """The rules of the residual clauses of the provisions ``reached`` (with the heads their rules derive
    from the fact): a sibling unit's rule that reads such a head negated ("nos restantes casos": 15% where
    the 10% of the sub-paragraph before it does not apply) reads the fact as its sibling does."""
    out: list[int] = []
    for provision, head in sorted(set(reached)):
        parent = _parent(provision)
        if parent == provision:
            continue
        for n in by_body.get(head, ()):
            rule, parts = logic.rules[n], heads[n]
            if parts is not None and rule.provision != provision and _parent(rule.provision) == parent \
                    and re.search(r"\bnot\s+" + re.escape(head) + r"\(", parts[2]):
                out.append(n)
    return out


CORE = "core"
"""The rule ids' prefix of the shared vocabulary's rules (``logic/core/``); the others' is their treaty."""


def _home(rule_id: str) -> str:
    """The treaty a rule belongs to (its id's prefix, before the slash), or :data:`CORE`."""
    return rule_id.partition("/")[0]


STATED_CONCLUSION = "stated_conclusion"
"""The rule base's fact ``stated_conclusion(Name)``: facts named ``Name`` state a treaty's conclusion itself."""

FIRED = "_fired"
"""The query-time predicate ``_fired(Prov, Head)``: a rule annotated with provision ``Prov`` derives ``Head``
(:func:`fired_program`)."""

@dataclass(frozen=True)
class Fired:
    """The query-time rules of :func:`fired_program` and what they record."""

    program: str
    first: frozenset[str]
    """The provisions of the treaty whose rules first read the predicates (as :func:`provisions_reading`)."""
    after: dict[str, frozenset[str]]
    """The provisions whose rules first read what those rules derive, each with the first ones it reads."""
    later: dict[str, frozenset[str]] = field(default_factory=dict)
    """For each first provision, the provisions of the treaty whose rules of a provision given as an argument
    read what its rules derive from the fact (:func:`_later`): a later step on the same path (the kind of a
    tax, read by the sub-paragraph whose reach turns on it)."""


_FIRED_PROGRAMS: dict[tuple[str, str, frozenset[str]], Fired] = {}
"""The program of :func:`fired_program`, by rule base digest, treaty and predicates."""


_WALKS: dict[tuple[str, str, frozenset[str], str], tuple[dict[str, frozenset[str]], frozenset[str]]] = {}
"""The walks of :func:`_walk` made so far, by rule base digest, treaty, predicates and article."""


def _walk(logic: Logic, own: str, first: frozenset[str], through: str = ""
          ) -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    """From the predicates ``first``, on through the shared vocabulary (and the rules of article
    ``through``) up to the treaty's rules: for each provision of the treaty reached, the names of its
    rules' heads; and each such rule's ``_fired`` copy. The walk stops at the vocabulary's conclusions
    (:attr:`_Graph.results`): what reads them reads another provision's. A rule that takes a stated conclusion as its
    article's (:attr:`_Graph.conclusions`) is walked through. From article ``through``'s conclusions, only
    those about no item are followed (a permanent establishment, read by the article on the income): what
    that article concludes about the item (a benefit withheld) is its own conclusion, which the article
    on the income only applies."""
    key = (logic.digest, own, first, through)
    hit = _WALKS.get(key)
    if hit is not None:
        return hit
    by_body, provisions_of_head, heads = _index(logic)
    lines: set[str] = set()
    graph = _graph(logic)
    seen = {n for n in first if not through or n not in graph.items}
    queue = deque(sorted(seen))
    found: dict[str, set[str]] = defaultdict(set)
    stated: set[str] = set()  # what the rules conclude from a stated conclusion, as its article's
    while queue:
        name = queue.popleft()
        for n in by_body.get(name, ()):
            rule, parts = logic.rules[n], heads[n]
            assert parts is not None
            head_name, head, body = parts
            dynamic = rule.dynamic_provision
            if _home(rule.rule_id) not in (CORE, own.strip()):
                continue  # another treaty's rule: it never holds in this treaty's scenario
            if through and _article(rule.provision) == through and head_name in graph.items:
                continue  # the article's own conclusion about the item
            if name in graph.conclusions or (name in stated and dynamic is not None):
                # a stated conclusion taken as the article's, or carried on with the article's provision
                # (a permanent establishment at issue for an item, with the provision that stated it):
                # read by what reads it
                stated.add(head_name)
            elif rule.provision.startswith(own) and _article(rule.provision) != through:
                lines.add(_fired_line(rule.provision, head, body, provisions_of_head[head_name]))
                found[rule.provision].add(head_name)
                continue
            elif dynamic is not None and rule.rule_id.startswith(own.strip() + "/") and not through:
                # the treaty's rule of a provision its facts carry (a State's first day of application)
                lines.add(f"{FIRED}({dynamic}, {head}) :- {body}.")
                for read_name in _NAME_RE.findall(body):
                    for carried in graph.carried.get(read_name, ()):
                        if carried.startswith(own):
                            found[carried].add(head_name)
                continue
            if head_name not in seen and head_name not in graph.results:
                seen.add(head_name)
                queue.append(head_name)
    for n in _own_rules(logic, [(p, h) for p, hs in found.items() for h in hs], by_body, heads):
        rule, parts = logic.rules[n], heads[n]
        assert parts is not None
        lines.add(_fired_line(rule.provision, parts[1], parts[2], provisions_of_head[parts[0]]))
        found[rule.provision].add(parts[0])
    if not through:
        for n in _residuals(logic, [(p, h) for p, hs in found.items() for h in hs], by_body, heads):
            rule, parts = logic.rules[n], heads[n]
            assert parts is not None
            lines.add(_fired_line(rule.provision, parts[1], parts[2], provisions_of_head[parts[0]]))
            found[rule.provision].add(parts[0])
    if len(_WALKS) > 4096:
        _WALKS.clear()
    hit = _WALKS[key] = ({p: frozenset(h) for p, h in found.items()}, frozenset(lines))
    return hit


def _fired_line(provision: str, head: str, body: str, provisions: set[str]) -> str:
    """The ``_fired`` copy of a rule of ``provision`` (``provisions``: those of every rule deriving its
    head's predicate): from the head itself where that provision is the only one, else from the body."""
    prov = '"' + provision.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"{FIRED}({prov}, {head}) :- {head}." if provisions == {provision} else f"{FIRED}({prov}, {head}) :- {body}."


_Index = tuple[dict[str, list[int]], dict[str, set[str]], list[tuple[str, str, str] | None]]

_INDEXES: dict[str, _Index] = {}
"""The index of each rule base read so far (:func:`_index`), by its digest."""


def _index(logic: Logic) -> _Index:
    """The rules by the predicates their bodies read, the provisions of the rules deriving each predicate, and
    each rule's head name, head text and body text (None for a fact)."""
    hit = _INDEXES.get(logic.digest)
    if hit is not None:
        return hit
    by_body: dict[str, list[int]] = defaultdict(list)
    provisions_of_head: dict[str, set[str]] = defaultdict(set)
    heads: list[tuple[str, str, str] | None] = []
    for n, rule in enumerate(logic.rules):
        head_text, sep, body = rule.text.partition(":-")
        m = _HEAD_RE.match(head_text)
        if not sep or m is None:
            heads.append(None)
            continue
        heads.append((m.group(1), head_text.strip(), body.strip().rstrip(".")))
        provisions_of_head[m.group(1)].add(rule.provision)
        for name in set(_NAME_RE.findall(body)):
            by_body[name].append(n)
    if len(_INDEXES) > 8:
        _INDEXES.clear()
    hit = _INDEXES[logic.digest] = (by_body, provisions_of_head, heads)
    return hit


def _article(provision: str) -> str:
    """The article of a provision: ``xx-yy 5`` of ``xx-yy 5(3)(b)``."""
    return provision.partition("(")[0]


def fired_program(logic: Logic, treaty: str, names: Iterable[str]) -> Fired:
    """Query-time rules recording which provision's rules derive what, from the predicates ``names`` (those of
    the facts that differ between an open fact's values): each rule annotated with a provision of
    ``treaty`` that first reads them (the walk of :func:`provisions_reading`), or with a provision given as
    an argument (``{Prov}``) that reads them, gets a copy ``_fired(Prov, H) :- B.`` beside ``H :- B.``
    (where every rule deriving ``H``'s predicate has that one provision, ``_fired(Prov, H) :- H.``: the
    same atoms, grounded once); and so does each rule of the treaty that first reads what those derive (a
    status a first provision decides: a permanent establishment, read by the article on the income).
    Whether a ``_fired`` atom holds under every value of an open fact, some or none then says whether the
    provision's condition comes out differently between the values (:mod:`pyhelpers.engine.alternatives`).
    The rules never read ``_fired``: the answer sets on the rules' atoms are unchanged."""
    key = (logic.digest, treaty, frozenset(names))
    hit = _FIRED_PROGRAMS.get(key)
    if hit is not None:
        return hit
    own = treaty + " "
    first, copies = _walk(logic, own, key[2])
    lines = set(copies)
    after: dict[str, set[str]] = defaultdict(set)
    for prov, derived in first.items():
        then, copies = _walk(logic, own, derived, _article(prov))
        lines |= copies
        for provision in then:
            after[provision].add(prov)  # a status another article decides
    if len(_FIRED_PROGRAMS) > 64:
        _FIRED_PROGRAMS.clear()
    hit = _FIRED_PROGRAMS[key] = Fired("\n".join(sorted(lines)) + "\n", frozenset(first),
                                       {k: frozenset(v) for k, v in after.items()},
                                       {prov: _later(logic, own, derived) for prov, derived in first.items()})
    return hit


def _later(logic: Logic, own: str, derived: Iterable[str]) -> frozenset[str]:
    """The provisions of the treaty (``own``: its id and a space) carried by the facts that the treaty's rules
    whose provision is an argument (``{Prov}``: a State's first day of application or of cessation, with the
    provision that sets it) read beside one of the predicates ``derived``: the next step of the same path,
    each of whose rules cites the provision it applies."""
    graph = _graph(logic)
    found: set[str] = set()
    for name in derived:
        for _head, provision, body, home in graph.readers.get(name, ()):
            if home == own.strip() and provision.startswith("{"):
                found.update(p for n in body for p in graph.carried.get(n, ()) if p.startswith(own))
    return frozenset(found)
