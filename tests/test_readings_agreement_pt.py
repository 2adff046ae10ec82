"""Portuguese readings agree with the names they insert, whatever the name.

A reading is a template (``logic/*/vocabulary.lp``, ``pt:`` and ``pt-PT:``) whose ``term`` placeholders
receive a name from :data:`pyhelpers.explain.readings.TERMS` ('a exceção {E}' once read 'a exceção ligado a
...'). Two rules keep such a sentence grammatical for every value:

- a name set beside a noun that has an article ('a exceção {E}', 'a condição {C}') is quoted (“{E}”,
  «{E}»), in parentheses or after a colon, unless the noun classifies whatever follows ('do tipo {K}',
  'no campo {F}');
- a name right after an article, a contraction or a possessive ('o {Name}', 'do {Me}', 'a sua {Name}')
  starts, in every language variant, with a noun of that article's gender, for every value the rules give
  the placeholder (the constants at that argument in ``logic/``).
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import lru_cache

import pytest

from pyhelpers.engine.program import Predicate, load_logic
from pyhelpers.explain.explainer import Step
from pyhelpers.explain.readings import TERMS, constant_text, fill, term, translated
from pyhelpers.output import render

from .conftest import ROOT

_QUOTES = ("“", "«", '"', "(")
_MASCULINE_DETERMINERS = {"o", "do", "no", "ao", "pelo", "um", "num", "seu", "o seu", "do seu"}
_FEMININE_DETERMINERS = {"a", "da", "na", "à", "pela", "uma", "numa", "sua", "a sua", "da sua"}
_DETERMINER = re.compile(r"(?:^|\s)((?:o |a |do |da )?(?:seu|sua)|o|a|do|da|no|na|ao|à|pelo|pela|um|uma|num|numa) $")
_NOUN_WITH_DETERMINER = re.compile(
    r"(?:^|\s)(?:o|a|os|as|do|da|dos|das|no|na|nos|nas|ao|à|pelo|pela|um|uma) ([a-zçãõáéíóúâêô]+) $")
_CLASSIFIERS = {"tipo", "campo", "tributo", "imposto", "artigo", "fato", "facto"}
"""Nouns that classify whatever name follows them ('do tipo juros', 'o tributo derrama', 'o fato
activities(b)': a fact is named by the rules' atom)."""
_PREPOSITIONS = {"de", "em", "por", "para", "com", "sobre", "entre", "a", "seu", "sua"}
"""Words after an article that are no noun (a possessive is checked as an article)."""
_AGREEING_ADJECTIVES = {("prohibited_treatment", "Tr"): {"diferente", "mais gravosa"},  # uma tributação ...
                         ("lob_share_bound", "B"): {"superior", "inferior"},  # no limite ...
                         ("ppt_owner_share", "Cmp"): {"igual ou superior a", "superior a"}}  # uma participação ...
"""Names that follow a noun as adjectives: the words each may take, all agreeing with that noun."""

_MASCULINE = {"capital", "valor", "direito", "teste", "prazo", "período", "número", "limite", "Artigo", "ano",
              "ano-calendário"}
_FEMININE = {"alíquota", "taxa", "participação", "parcela", "fração", "proporção", "metade", "assinatura", "pensão",
             "remuneração"}
"""The first words of the names that follow an article in a reading, by gender (add a noun here only if it is
of that gender)."""

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _readings() -> list[tuple[Predicate, str, str]]:
    out = []
    for pred in load_logic().vocabulary.values():
        for lang, template in (("pt", pred.pt), ("pt-PT", pred.pt_pt)):
            if template:
                out.append((pred, lang, template))
    return out


def _term_placeholders(pred: Predicate, template: str) -> list[tuple[str, str]]:
    """Each ``term`` placeholder of ``template`` with the text before it."""
    terms = {a.name for a in pred.args if a.type == "term"}
    return [(m.group(1), template[:m.start()]) for m in _PLACEHOLDER.finditer(template) if m.group(1) in terms]


@lru_cache(maxsize=1)
def _constants() -> dict[tuple[str, str], set[str]]:
    """The constants the rules give each argument of each predicate (read from the rule files' text, comments
    left out), and under ``("*", Arg)`` those of every argument of that name."""
    code = "\n".join(re.sub(r"%.*", "", p.read_text(encoding="utf-8"))
                     for p in sorted((ROOT / "logic").rglob("*.lp")))
    found: dict[tuple[str, str], set[str]] = defaultdict(set)
    for (name, arity), pred in load_logic().vocabulary.items():
        for m in re.finditer(rf"\b{name}\(", code):
            args, depth, start, i = [], 1, m.end(), m.end()
            while i < len(code) and depth:
                if code[i] == "(":
                    depth += 1
                elif code[i] == ")":
                    depth -= 1
                elif code[i] == "," and depth == 1:
                    args.append(code[start:i].strip())
                    start = i + 1
                i += 1
            args.append(code[start:i - 1].strip())
            if len(args) != arity:
                continue
            for spec, arg in zip(pred.args, args, strict=True):
                if spec.type == "term" and re.fullmatch(r"[a-z][a-z0-9_]*", arg):
                    found[(name, spec.name)].add(arg)
                    found[("*", spec.name)].add(arg)
    return found


def test_a_name_beside_a_noun_is_quoted() -> None:
    """'a exceção “{E}”', 'a condição ({C})', 'atividade exercida em {B}: {A}': never 'a exceção {E}'."""
    bad = []
    for pred, lang, template in _readings():
        for arg, before in _term_placeholders(pred, template):
            if before.endswith(_QUOTES) or before.rstrip().endswith(":"):
                continue
            m = _NOUN_WITH_DETERMINER.search(before)
            if m is None or m.group(1) in _CLASSIFIERS | _PREPOSITIONS:
                continue
            allowed = _AGREEING_ADJECTIVES.get((pred.name, arg))
            values = _constants().get((pred.name, arg), set())
            if allowed is not None and values and {term(v, lang) for v in values} <= allowed:
                continue
            bad.append(f"{pred.name}/{pred.arity} {lang}: {template}")
    assert not bad, "a name set beside a noun with an article is not quoted:\n" + "\n".join(bad)


def test_a_name_after_an_article_agrees_with_it() -> None:
    """'o {Prov} fixa a {Name} em {V}': every rate or share named there is feminine ('a alíquota dos juros');
    'do {Me}': every measure of a holding masculine ('do capital votante')."""
    bad = []
    for pred, lang, template in _readings():
        for arg, before in _term_placeholders(pred, template):
            m = _DETERMINER.search(before)
            if m is None:
                continue
            det = m.group(1)
            nouns = _MASCULINE if det in _MASCULINE_DETERMINERS else _FEMININE
            values = _constants().get((pred.name, arg)) or _constants().get(("*", arg), set())
            if not values:
                bad.append(f"{pred.name}/{pred.arity} {lang}: no value known for {{{arg}}} after '{det}'")
            for value in sorted(values):
                words = term(value, lang)
                if words.split(" ")[0].rstrip(",") not in nouns:  # the first of a list ("capital, dos votos …")
                    bad.append(f"{pred.name}/{pred.arity} {lang}: '{det} {{{arg}}}' with {value} reads '{det} {words}'")
    assert not bad, "a name after an article does not agree with it:\n" + "\n".join(bad)


@pytest.mark.parametrize("lang", ["pt", "pt-PT"])
def test_findings_say_the_exception_after_a_colon(lang: str) -> None:
    """`treaty check` writes 'aplica-se a exceção: participação ligada a estabelecimento permanente (br-pt 10(4))':
    the exception in its provision's words after a colon, never a label in quotes (AUDIT53b)."""
    text = render.wording(render._FINDING, lang)["exception"]
    assert re.search(r"exceção: \{fact\} \(\{prov\}\)", text), text


def test_every_exception_has_portuguese_words() -> None:
    """Each exception the rules name has its Portuguese words, in TERMS or declared in the vocabulary (``%=``: the
    exceptions that name articles) (a quoted English constant would not help)."""
    names = set()
    for pred, _lang, template in _readings():
        for arg, before in _term_placeholders(pred, template):
            if re.search(r"exce(?:p)?ção [“«]$", before):
                names |= _constants().get((pred.name, arg), set())
    missing = sorted(n for n in names if n not in TERMS["pt"] and translated(n, "pt") is None)
    assert not missing, f"exceptions without Portuguese words (TERMS or %=): {missing}"


def test_a_state_takes_its_article_in_every_reading() -> None:
    """A State in a reading, a condition that failed included, takes its article contracted with the
    preposition before it ('do Brasil', was 'de Brasil'); Portugal takes none; English writes the name."""
    assert fill("autoridade local) de {St} (x)", {"St": "Brasil"}, {"St": "br"}, "pt") == \
        "autoridade local) do Brasil (x)"
    assert fill("situado em {St}", {"St": "Brasil"}, {"St": "br"}, "pt-PT") == "situado no Brasil"
    assert fill("situado em {St}", {"St": "Portugal"}, {"St": "pt"}, "pt") == "situado em Portugal"
    assert fill("situated in {St}", {"St": "Brazil"}, {"St": "br"}, "en") == "situated in Brazil"


def test_a_findings_constant_reads_as_words() -> None:
    """A finding's constant with arguments: its words, a State by name ('... do Brasil'), never 'words(br)'."""
    assert constant_text("case_to_competent_authority_of(br)", "pt") == \
        "caso submetido à autoridade competente do Brasil"
    assert constant_text("benefits_only_by_competent_authority_determination(br)", "pt") == \
        "benefícios só por decisão da autoridade competente (Brasil)"
    assert constant_text("to_be_proven(no_principal_purpose_for_non_resident(pearl))", "pt") == \
        "a comprovar: sem propósito principal de obter benefícios para não residente (pearl)"
    assert constant_text("no_special_regime(lusoinvest)", "pt") == "sem regime especial (lusoinvest)"
    assert constant_text("no_special_regime(lusoinvest)", "en") == "no special regime (lusoinvest)"


def test_the_full_derivation_names_its_flags_in_portuguese() -> None:
    """`explain --full --lang pt` marks a bookkeeping rule '(cálculo interno)', never '(bookkeeping)'."""
    step = Step("derived", "x", "uma leitura", provision="br-uy 29", flags=("bookkeeping", "reconstructed"))
    assert render.tree_text(step, 0, "pt") == ["uma leitura [br-uy 29] (cálculo interno, reconstituído)"]
    assert render.tree_text(step, 0, "en") == ["uma leitura [br-uy 29] (bookkeeping, reconstructed)"]


_PARTICIPLE = re.compile(r"(?:^|[,;:]\s|\b(?:que|se|e|quando|onde)\s)\{(\w+)\}\s+(?:não\s+)?"
                         r"(?:é|está|foi|fica|seja|esteja)\s+(\w+(?:ad|id|eit|it)[oa]s?)\b")
_PERSON_OR_PLACE = {"P", "B", "Holder", "Company", "Payer", "Owner"}
"""The ids of a person (a company, an individual: 'sociedade', 'pessoa', feminine; an 'agente', masculine) or
a place of business ('instalação', but an 'escritório', 'canteiro', 'agente'): of either gender."""


def test_a_participle_about_a_person_or_place_agrees_with_a_noun() -> None:
    """'{P} está sujeito a imposto' (a company: 'sujeita'), '{B} é mantido' (an 'instalação': 'mantida'): the
    id of a person or a place that a participle describes follows a noun that fixes its gender ('a pessoa {P}
    está sujeita', 'a instalação {B} é mantida'), since the id alone may name an entity of either gender."""
    bad = []
    for pred, lang, template in _readings():
        ids = {a.name for a in pred.args if a.type == "id"}
        for m in _PARTICIPLE.finditer(template):
            if m.group(1) in ids & _PERSON_OR_PLACE:
                bad.append(f"{pred.name}/{pred.arity} {lang}: {template}")
    assert not bad, "a participle agrees with an id, not with a noun:\n" + "\n".join(bad)


_SINGULAR_AFTER_STATE = re.compile(r"(?:^|[,;:] |\b(?:só|se|que|e) )os Estados Unidos (?:não |também )?"
                                   r"(?:é|está|era|foi|pode|tem|aplica|deixa|elimina|deduz|mantém|chama-se|tributa)\b")
"""A plural State as a subject (not after a preposition: 'a legislação dos Estados Unidos tributa') with a verb
in the singular."""


def test_a_verb_agrees_with_a_plural_state() -> None:
    """A State that is the subject of a reading ('{St} pode tributar') makes its verb agree with its name's number,
    which its article carries ('os Estados Unidos podem tributar', never 'os Estados Unidos pode'): the template
    writes the verb's two forms, ``{St:pode|podem}``."""
    bad = []
    logic = load_logic()
    for pred in [*logic.vocabulary.values(), *logic.terms.values()]:
        states = {a.name: "us" for a in pred.args if a.type == "state"}
        if not states:
            continue
        for lang, template in (("pt", pred.pt), ("pt-PT", pred.pt_pt)):
            if not template:
                continue
            text = fill(template, {a.name: a.name for a in pred.args}, states, lang)
            if _SINGULAR_AFTER_STATE.search(text) or re.search(r"\{\w+:", text):
                bad.append(f"{pred.name}/{pred.arity} {lang}: {text}")
    assert not bad, "a verb does not agree with a plural State:\n" + "\n".join(bad)
    assert fill("{St} {St:pode|podem} tributar", {}, {"St": "br"}, "pt") == "o Brasil pode tributar"
    assert fill("{St} {St:pode|podem} tributar", {}, {"St": "us"}, "pt") == "os Estados Unidos podem tributar"
