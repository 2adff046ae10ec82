"""The fast path names the anonymous variables of positive body literals (issue 23: gringo projects
``_`` into auxiliary predicates, slow at scale); nowhere else, and with the same answer set."""

from __future__ import annotations

import clingo
from clingo import ast

from pyhelpers.engine.program import load_logic
from pyhelpers.engine.statements import named_anonymous


def _rewritten(text: str) -> list[str]:
    out: list[str] = []
    ast.parse_string(text, lambda stm: out.append(str(named_anonymous(stm))))
    return out[1:]  # after "#program base."


def _shown(program: str) -> list[str]:
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], program)
    ctl.ground([("base", [])])
    models: list[str] = []
    ctl.solve(on_model=lambda m: models.append(" ".join(sorted(map(str, m.symbols(shown=True))))))
    return models


RULE = "a(X) :- p(X,_), q(_,f(_)), not r(X,_), #count { Y: s(Y,_) } > 1, t(Z): u(Z,_)."


def test_only_positive_body_literals_are_renamed() -> None:
    assert _rewritten(RULE) == [
        "a(X) :- p(X,Anon__1); q(Anon__2,f(Anon__3)); not r(X,_); 1 < #count { Y: s(Y,_) }; t(Z): u(Z,_)."]


def test_fresh_names_avoid_the_rule_s_own_variables() -> None:
    assert _rewritten("a(Anon__1) :- p(Anon__1, _), q(_).") == ["a(Anon__1) :- p(Anon__1,Anon__2); q(Anon__3)."]


def test_rules_without_anonymous_variables_and_facts_are_unchanged() -> None:
    assert _rewritten("b(X) :- p(X), not q(X,_). c(1).") == ["b(X) :- p(X); not q(X,_).", "c(1)."]


def test_the_answer_set_is_the_same() -> None:
    facts = "p(1,2). p(2,3). q(5,f(1)). r(1,7). s(1,1). s(2,1). s(3,9). t(1). u(1,4). u(2,2). t(2)."
    assert _shown(facts + RULE + "#show a/1.") == _shown(facts + "\n".join(_rewritten(RULE)) + "#show a/1.")


def test_the_fast_path_text_names_them_and_the_parsed_rules_keep_them() -> None:
    logic = load_logic()
    rewritten = [s.text for s in logic._sliceable if "Anon__" in s.text]
    assert rewritten, "the rule base has anonymous variables in positive body literals"
    assert not any("Anon__" in str(stm) for stm in logic.statements)  # what Prolog and explain read
    assert not any("Anon__" in r.text for r in logic.rules)
