"""Why-not names an argument it leaves unbound in words, never by the rule's variable.

A failed condition's reading is the rule's atom half-bound ("some B is a permanent establishment (some
Prov)" once). What an argument is called then is declared in the vocabulary: ``%~ noun(Arg:type, ...)`` in
``logic/core/vocabulary.lp`` (a noun per argument name and type), ``%  some: Arg=noun`` in a predicate's entry;
an argument without one is named by its type ("some State"); a noun the template already names before the
argument takes its place ("the agent {B}" → "some agent", "a pessoa {P}" → "alguma pessoa"), with the determiner
that agrees with it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyhelpers.base.errors import LogicError
from pyhelpers.base.rulebase import logic_dir
from pyhelpers.engine.program import ARG_TYPES, Argument, _parse_declarations, load_logic
from pyhelpers.explain.readings import fill, unbound_words
from pyhelpers.interfaces.cli import main

from .conftest import ROOT

GOALS = [  # goals that do not hold, whose rules reach places of business, residence, holdings, persons
    ("scenarios/br-pt/dividends-qualifying-holding.yaml", 'max_rate("div-2024", 500)'),  # 10(6), Art. 5
    ("scenarios/br-pl/employment-184-days-loses-exemption.yaml", 'only_taxable_in("salary-2027", pl, P)'),
    ("scenarios/br-uy/lob-equivalent-beneficiary-unknown.yaml", 'max_rate("dividend-2024", 500)'),  # holdings
    ("scenarios/br-sg/dividends-capital-exactly-25-percent.yaml", 'max_rate("div", 500)'),
    ("scenarios/br-ae/shipping-uae-company-proven-entitlement.yaml", 'may_tax("freight-2024", br, P)'),
    ("scenarios/br-pt/question-residence-tie-breakers-and-mutual-agreement.yaml",
     'answer_residence("q-atlantico", St, P)'),  # residence: tie-breakers
]
_SOME = re.compile(r"\b(?:some|algum|alguma|alguns|algumas)\b")


def _variables() -> frozenset[str]:
    """The names the vocabulary gives arguments (``B``, ``Owner``, ``Prov`` ...): a rule's variables."""
    return frozenset(a.name for p in load_logic().vocabulary.values() for a in p.args)


def bare_variables(text: str, names: frozenset[str]) -> list[str]:
    """The lines of ``text`` with a capitalised identifier that is an argument's name standing as a word, the
    goal's own line (the query as the user wrote it), rule ids (‹…›) and provisions ([…]) left out."""
    found = []
    for line in text.splitlines()[1:]:
        prose = re.sub(r"‹[^›]*›|\[[^\]]*\]", " ", line)
        if any(w in names for w in re.findall(r"\b[A-Z][A-Za-z0-9_]*\b", prose)):
            found.append(line.strip())
    return found


@pytest.mark.parametrize("lang", ["en", "pt", "pt-PT"])
def test_why_not_names_no_rule_variable(lang: str) -> None:
    names = _variables()
    assert {"B", "Owner", "Res", "Prov", "P", "I", "St"} <= names
    unbound = 0
    for path, goal in GOALS:
        for full in ((), ("--full",)):  # the short answer (default) and the whole analysis
            result = CliRunner().invoke(main, ["explain", str(ROOT / path), "--why-not", goal, "--lang", lang, *full])
            assert result.exit_code == 0, (path, result.output)
            assert not bare_variables(result.stdout, names), (path, goal, bare_variables(result.stdout, names)[:5])
            unbound += len(_SOME.findall(result.stdout)) if full else 0
    assert unbound > 50  # the check has teeth: the goals leave arguments unbound


def test_the_words_of_the_readme_why_not() -> None:
    """The lines of issue 24: what was "some B is a permanent establishment (some Prov)" reads in words, in
    each language, the Portuguese ones agreeing with their nouns."""
    path = str(ROOT / "scenarios/br-pt/dividends-qualifying-holding.yaml")
    texts = {lang: CliRunner().invoke(main, ["explain", path, "--why-not", 'max_rate("div-2024", 500)', "--lang",
                                             lang, "--full"]).stdout for lang in ("en", "pt", "pt-PT")}
    expected = {
        "en": ["some place of business is a permanent establishment (some provision)",
               "some person carries on business through some place of business, situated in Brazil",
               "div-2024 is profits remitted by some place of business, situated in Brazil, to its enterprise of "
               "some State", "some site lasts more than nine months", "some agent is of independent status",
               "some place of business lasts some number of months and some number of days"],
        "pt": ["algum local de negócios é um estabelecimento permanente (alguma disposição)",
               "alguma pessoa exerce atividade através de algum local de negócios, situado no Brasil",
               "div-2024 são lucros remetidos por algum local de negócios, situado no Brasil, à empresa de algum "
               "Estado a que pertence", "algum agente é independente",
               "algum local de negócios dura algum número de meses e algum número de dias"],
        "pt-PT": ["algum local de negócios é um estabelecimento estável (alguma disposição)",
                  "algum local de negócios consta como estaleiro de construção"],
    }
    for lang, lines in expected.items():
        for line in lines:
            assert line in texts[lang], (lang, line)


@pytest.mark.parametrize(("template", "lang", "name", "words", "apposed", "expected"), [
    ("{B} is a permanent establishment", "en", "B", "some place of business", True,
     "some place of business is a permanent establishment"),
    ("the agent {B} acts", "en", "B", "some place of business", True, "some agent acts"),
    ("site {B} lasts", "en", "B", "some place of business", True, "some site lasts"),
    ("whether {B} is", "en", "B", "some place of business", True, "whether some place of business is"),
    ("of kind {K}", "en", "K", "some kind", False, "of some kind"),
    ("the kind {Prov} describes", "en", "Prov", "some provision", False, "the kind some provision describes"),
    ("part of the {Me} of", "en", "Me", "some measure of ownership", False, "part of some measure of ownership of"),
    ("o agente {B} atua", "pt", "B", "algum local de negócios", True, "algum agente atua"),
    ("a pessoa {P} está sujeita", "pt", "P", "alguma pessoa", True, "alguma pessoa está sujeita"),
    ("da instalação {B}", "pt", "B", "algum local de negócios", True, "de alguma instalação"),
    ("pelos lucros {I}", "pt", "I", "algum rendimento", True, "por alguns lucros"),
    ("é pago a {P}", "pt", "P", "alguma pessoa", True, "é pago a alguma pessoa"),
    ("à pessoa {P}", "pt", "P", "alguma pessoa", True, "a alguma pessoa"),
    ("do tipo {Ty}", "pt", "Ty", "algum tipo de rendimento", False, "de algum tipo de rendimento"),
    ("nos termos do {Prov}", "pt-PT", "Prov", "alguma disposição", False, "nos termos de alguma disposição"),
    ("o {Prov} fixa", "pt", "Prov", "alguma disposição", False, "alguma disposição fixa"),
    ("ao estabelecimento estável {B}", "pt-PT", "B", "algum estabelecimento estável", True,
     "a algum estabelecimento estável"),
])
def test_an_unbound_argument_reads_as_its_noun(template: str, lang: str, name: str, words: str, apposed: bool,
                                              expected: str) -> None:
    assert fill(template, {}, {}, lang, {name: (words, apposed)}) == expected


def test_every_argument_has_words_in_every_language() -> None:
    """Each argument of each predicate has words, its noun's or its type's, that start with the determiner of
    their language (the Portuguese one agreeing with the noun: 'alguma pessoa', 'algum local')."""
    logic = load_logic()
    determiners = {"en": {"some"}, "pt": {"algum", "alguma", "alguns", "algumas"}}
    determiners["pt-PT"] = determiners["pt"]
    feminine = {"pessoa", "sociedade", "empresa", "disposição", "data", "participação", "convenção", "pergunta",
                "alíquota", "taxa", "exceção", "medida", "moeda", "atividade", "condição", "instituição",
                "percentagem"}
    seen = set()
    for pred in logic.vocabulary.values():
        for arg in pred.args:
            for lang, allowed in determiners.items():
                words = unbound_words(logic, arg, lang)
                determiner, head = words.split(" ")[:2]
                assert determiner in allowed, (pred.name, arg, lang, words)
                if lang != "en":
                    assert (determiner == "alguma") == (head in feminine), (pred.name, arg, lang, words)
                seen.add(words)
    for noun in logic.nouns.values():  # a noun only a predicate's `some:` gives is checked too
        for lang in ("pt", "pt-PT"):
            determiner, head = noun.words(lang).split(" ")[:2]
            assert (determiner == "alguma") == (head in feminine), (noun.name, lang, noun.words(lang))
    assert {"some State", "alguma disposição", "alguma percentagem", "some place of business"} <= seen
    for typ in ARG_TYPES:  # an argument without a noun: named by its type, in every language
        for lang in determiners:
            assert unbound_words(logic, Argument("Unnamed", typ), lang).split(" ")[0] in determiners[lang]


def test_a_noun_is_declared_in_the_vocabulary() -> None:
    """``%~`` declares a noun, ``%  some:`` gives a predicate's argument one; the words come from there."""
    source = ("%~ site()\n%  en: some site\n%  pt: algum canteiro\n%  pt-PT: algum estaleiro\n\n"
              "%~ place(B:id)\n%  en: some place\n%  pt: algum local\n\n"
              "%: lasts(S, B) derived\n%  doc: d\n%  en: {B} lasts\n%  pt: {B} dura\n%  some: B=site\n"
              "%: open(S, B) derived\n%  doc: d\n%  en: {B} is open\n%  pt: {B} está aberto\n")
    vocab, nouns = _parse_declarations(source, "logic/x.lp")
    assert vocab[("lasts", 2)].args[1] == Argument("B", "id", "site")
    assert vocab[("open", 2)].args[1] == Argument("B", "id")
    assert [nouns["site"].words(lang) for lang in ("en", "pt", "pt-PT")] == \
        ["some site", "algum canteiro", "algum estaleiro"]
    assert nouns["place"].defaults == (("B", "id"),) and nouns["place"].words("pt-PT") == "algum local"
    with pytest.raises(LogicError, match="does not name an argument"):
        _parse_declarations("%: f(S, B) derived\n%  doc: d\n%  en: e\n%  pt: p\n%  some: X=site\n", "logic/x.lp")
    with pytest.raises(LogicError, match="lacks"):
        _parse_declarations("%~ site()\n%  en: some site\n", "logic/x.lp")


def test_the_loader_checks_the_nouns(tmp_path: Path) -> None:
    """A predicate's ``some:`` names a declared noun; an argument has one noun by default."""
    import shutil

    root = tmp_path / "logic"
    shutil.copytree(logic_dir(), root)
    core = root / "core" / "vocabulary.lp"
    text = core.read_text(encoding="utf-8")
    core.write_text(text + "\n%: stray(S, B) derived\n%  doc: d\n%  en: e\n%  pt: p\n%  some: B=nothing\n",
                    encoding="utf-8")
    with pytest.raises(LogicError, match=r"stray/2: 'some: B=nothing' names no declared noun"):
        load_logic(root)
    core.write_text(text + "\n%~ other_place(B:id)\n%  en: some other place\n%  pt: algum outro local\n",
                    encoding="utf-8")
    with pytest.raises(LogicError, match=r"B:id has two nouns \(place, other_place\)"):
        load_logic(root)
