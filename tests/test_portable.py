"""The portable rule subset: logic/ stays within it, and the lint names each forbidden construct with
file:line (issue 11)."""

from __future__ import annotations

import pytest

from pyhelpers.base.errors import LogicError
from pyhelpers.engine.program import load_logic
from pyhelpers.prolog.portable import lint_logic, lint_text
from pyhelpers.prolog.translate import translate_text


def test_the_rule_base_is_within_the_portable_subset() -> None:
    problems = lint_logic(load_logic())
    assert not problems, "outside the portable subset:\n" + "\n".join(map(str, problems))


FORBIDDEN = [
    ("disjunction", "a ; b :- c.", "disjunction in a rule head"),
    ("head aggregate", "#count { X : p(X) } = 1 :- q.", "head aggregate"),
    ("pool", "p(1;2).", "pool (a;b)"),
    ("pool in a body", "a :- p(1;2).", "pool (a;b)"),
    ("interval", "p(1..3).", "interval (a..b)"),
    ("conditional literal", "a :- p(X) : q(X).", "conditional literal"),
    ("set aggregate", "a :- 1 { p(X) : q(X) }.", "set aggregate"),
    ("external", "#external e.", "#external"),
    ("program", "#program step(t).\na.", "#program step"),
    ("minimize", "#minimize { X : p(X) }.", "optimisation"),
    ("weak constraint", ":~ p(X). [X]", "optimisation"),
    ("integrity constraint", ":- p(X), q(X).", "integrity constraint"),
    ("choice rule", "{ a ; b } :- c.", "choice rule other than the unknown-fact pattern"),
    ("choice without unknown", "{ a(X) } :- p(X).", "choice rule other than the unknown-fact pattern"),
    ("bounded choice", "1 { a(X) } 1 :- p(X), unknown(X).", "choice rule other than the unknown-fact pattern"),
    ("classical negation", "-a(X) :- p(X).", "classical negation"),
    ("double negation", "a(X) :- p(X), not not q(X).", "double negation"),
    ("anonymous in a negation", "a(X) :- p(X), not q(X, _).", "anonymous variable _ in a negated literal"),
    ("unbound in a negation", "a(X) :- p(X), not q(Y).", "Y of a negated literal not bound"),
    ("anonymous in a comparison", "a(X) :- p(X), _ < X.", "anonymous variable _ in a comparison"),
    ("unbound in a comparison", "a(X) :- p(X), Y < X.", "Y of a comparison not bound"),
    ("anonymous in a guard", "a(X) :- p(X), #count { Y : q(Y) } > _.", "anonymous variable _ in an aggregate guard"),
    ("unbound in a guard", "a(X) :- p(X), #count { Y : q(Y) } > Z.", "Z of an aggregate guard not bound"),
    ("unbound in an element", "a(X) :- p(X), 1 < #count { Y : q(Y), not r(Z) }.",
     "Z of a negated literal not bound by a positive literal (in an aggregate element)"),
    ("recursive aggregate", "a(N) :- p(N), N = #count { X : a(X) }.", "aggregate recursive through its own head a/1"),
    ("recursive aggregate through another predicate",
     "b(X) :- a(X).\na(N) :- p(N), N = #sum { X : b(X) }.", "aggregate recursive through its own head a/1"),
    ("power", "a(Z) :- p(X), Z = X ** 2.", "operator ** is outside the portable subset"),
    ("bitwise", "a(Z) :- p(X), Z = X ^ 2.", "is outside the portable subset (integer"),
    ("script call", "a(Z) :- p(X), Z = @f(X).", "script call @f"),
    ("clingo-only without reason", "%@ r1 | br-pt 1 | clingo-only\na(N) :- p(N), N = #count { X : a(X) }.",
     "a clingo-only rule must give its reason"),
]


@pytest.mark.parametrize(("what", "text", "message"), FORBIDDEN, ids=[f[0] for f in FORBIDDEN])
def test_lint_rejects_each_forbidden_construct(what: str, text: str, message: str) -> None:
    problems = [str(p) for p in lint_text(text, "rules.lp")]
    line = text.count("\n") + 1 if what != "program" else 1
    assert any(p.startswith(f"rules.lp:{line}: ") and message in p for p in problems), problems


@pytest.mark.parametrize(("what", "text", "message"), FORBIDDEN[:6], ids=[f[0] for f in FORBIDDEN[:6]])
def test_the_translator_refuses_what_the_lint_rejects(what: str, text: str, message: str) -> None:
    with pytest.raises(LogicError, match=r"rules\.lp:"):
        translate_text(text, "rules.lp")


ALLOWED = """
#const k = 3.
#defined unknown/2.
p(1). p(2). q(a, 1).
{ flag(S, X) } :- p(X), unknown(S, X).
a(X) :- p(X), not q(X, 1), X < k, Y = X + 1, Y != 5.
b(N) :- p(_), N = #count { X : p(X); K : q(K, _) }.
c(X) :- p(X), not d(X), 2 <= #sum { W, K : q(K, W) ; X : p(X) } < 10.
d(X) :- p(X), X \\ 2 = 0, |X| > 0.
e(M) :- M = #min { X : p(X), not flag(s, X) }.
"""


def test_the_lint_accepts_the_portable_constructs() -> None:
    assert lint_text(ALLOWED, "rules.lp") == []


def test_a_clingo_only_rule_is_left_out_and_what_depends_on_it_is_skipped() -> None:
    text = ("p(1). e(1, 2). e(2, 1).\n"
            "%@ r1 | br-pt 1 | clingo-only: ownership may be cyclic\n"
            "a(N) :- p(N), N = #count { X : a(X) }.\n"
            "%@ r2 | br-pt 1\n"
            "b(N) :- a(N).\n"
            "%@ r3 | br-pt 1\n"
            "c(X) :- p(X).\n")
    assert lint_text(text, "rules.lp") == []
    tr = translate_text(text, "rules.lp")
    assert set(tr.excluded) == {("a", 1), ("b", 1)}
    assert "clingo-only rule at rules.lp:3: ownership may be cyclic" in tr.excluded[("a", 1)]
    assert "#count" not in tr.text.split("% ---- the rule base ----")[1]
