"""Human- and machine-readable output of results and explanations: text, JSON, Markdown; en or pt.

Pure functions returning strings: only the CLI prints.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar

from pyhelpers.base import formats
from pyhelpers.base import lang as languages
from pyhelpers.engine.amounts import round_to_currency
from pyhelpers.engine.domains import value_kind
from pyhelpers.engine.expect import Mismatch
from pyhelpers.engine.results import (
    APPLICATION,
    FIELD_KINDS,
    Alternative,
    Compliance,
    Condition,
    Cut,
    Entitlement,
    Finding,
    Incomplete,
    ItemResult,
    PersonAnswer,
    Relief,
    ScenarioResult,
    StateOutcome,
    UnknownFact,
)
from pyhelpers.explain import readings
from pyhelpers.explain.readings import constant_text, stated_fact, term, value, with_state
from pyhelpers.explain.readings import fact_text as _rules_fact_text
from pyhelpers.scenario import parse_outcome
from pyhelpers.scenario.catalogue import catalogue
from pyhelpers.scenario.factpaths import fact_path, field_text, rules_fact
from pyhelpers.scenario.openfacts import UNNAMED_STATE
from pyhelpers.scenario.problems import field_path

if TYPE_CHECKING:
    from pyhelpers.engine.whatif import WhatIf
    from pyhelpers.scenario import Scenario

V = TypeVar("V")


def fact_text(fact: str, lang: str) -> str:
    """An open fact in words as the rules name it (:func:`~pyhelpers.explain.readings.fact_text`); one the engine
    names by its field (a finding it writes for a fact opened over its values: ``places_of_business.X.fixed_base``)
    by the rules' name for that field (:func:`~pyhelpers.scenario.factpaths.rules_fact`: "whether X is a fixed
    base", blind59 R2), the field being said after the words."""
    return _rules_fact_text(rules_fact(fact) or fact, lang)

if TYPE_CHECKING:
    from pyhelpers.explain.argument import Argument, Line, WhyNot
    from pyhelpers.explain.explainer import Step

_OUTCOME = {
    "en": {
        "exclusive": "only this State may tax",
        "capped": "may tax, capped at {rate} of the gross amount",
        "may_tax": "may tax",
        "exempt": "may not tax",
        "not_applicable": "treaty not applicable",
        "mutual_agreement": "to be settled by the competent authorities (residence by mutual agreement)",
        "pending": "pending: the provision is in the corpus but not encoded yet",
        "not_encoded": "not encoded: text not available",
        "undetermined": "undetermined on the facts given",
        "benefits_denied": "benefits denied",
    },
    "pt": {
        "exclusive": "só este Estado pode tributar",
        "capped": "pode tributar, até {rate} do montante bruto",
        "may_tax": "pode tributar",
        "exempt": "não pode tributar",
        "not_applicable": "convenção não aplicável",
        "mutual_agreement": "a ser resolvido pelas autoridades competentes (residência por acordo mútuo)",
        "pending": "pendente: a disposição está no corpus mas ainda não foi codificada",
        "not_encoded": "não codificado: texto não disponível",
        "undetermined": "indeterminado com os fatos informados",
        "benefits_denied": "benefícios negados",
    },
    "pt-PT": {
        "mutual_agreement": "a resolver pelas autoridades competentes (residência de comum acordo)",
        "undetermined": "indeterminado com os factos dados",
        "benefits_denied": "benefícios recusados",
    },
}
_LABEL = {
    "en": {"status": "status", "provisions": "provisions", "max_tax": "maximum source tax",
           "expect_ok": "expect: all {n} item(s) match", "expect_ok_one": "expect: all {n} item(s) match",
           "expect_bad": "expect: {n} mismatch(es)", "expect_bad_one": "expect: {n} mismatch(es)",
           "evaluated": "evaluated on", "caveat": "caveat",
           "findings": "findings", "why_not": "why not", "holds": "holds",
           "no_rule": "no rule of the logic concludes this predicate",
           "reconstructed": "relies on RECONSTRUCTED provisions (not in the corpus text)",
           "reconstructed_mark": "relies on RECONSTRUCTED",
           "ledger_row": "{ledger} row {row}",
           "entitlement": "entitlement to the benefits",
           "unless_denied": "— unless {prov} denies the benefit (requires judgment): then benefits denied, "
                            "it may tax under its domestic law",
           "unless_denied_where": "— unless {prov} denies the benefit where it requires judgment (below): then "
                                  "benefits denied, it may tax under its domestic law",
           "entitled": "entitled", "denied": "denied (the State the benefit would bind may tax under its domestic law)",
           "open": "open (a fact it needs is missing or unknown)",
           "requires_judgment": "requires judgment (a principal purpose question is not answered)",
           "withholding": "withholding", "version": "decided by the amended version",
           "depends_on": "depends on", "unknowns": "the unknown facts", "possibly": "possibly:",
           "unknown_facts": "facts given as unknown or as alternatives",
           "turns_on_open": "outcomes that turn on open facts", "decides": "decides",
           "not_given_facts": "facts not given, answered over every value they may take",
           "not_given_facts_cut": "facts not given, whose values the time limit left not all examined",
           "incomplete": "INCOMPLETE",
           "and": "and", "or": "or", "is": "is", "if": "if", "is_if": "is",
           "some_combinations": "in some combinations of the unknown facts",
           "in_some": "in some combinations only", "otherwise": "otherwise",
           "at_most": "may tax, capped at {rate} of the gross amount at most",
           "may_tax_always": "may tax in every case", "unnamed_state": "a State the scenario does not name",
           "cap_if": "capped at {rate} of the gross amount", "cap_some": "capped at {rate} of the gross amount "
                                                                     "in some cases only",
           "no_cap_otherwise": "not capped by the treaty otherwise",
           "on_part": "on the {part} {amount}; the excess {excess} is taxed under each State's law",
           "part_not_given": "not known: the limit applies to the {part}, which the scenario does not give",
           "base_open": "not known: whether the limit applies to the whole amount or to a part of it only depends "
                        "on a fact not settled ({prov})",
           "on": "on", "some_amount": "an amount that depends on the unknown facts",
           "no_article": "no article of {prov} in the corpus governs this income: not encoded",
           "no_application": "whether {prov} applies to this income is not known: the article on its entry into force "
                             "and application is not in the corpus (not encoded)",
           "depends_alternatives": "depends on {fact}, given as unknown or as alternatives ({prov})",
           "depends_not_given": "depends on {fact}, not given ({prov})",
           "time_limit_check": "the time limit was reached before the check ended: nothing is final ({prov})",
           "time_limit_proven": "the time limit was reached before every value of the open facts was examined: the "
                                "outcomes and findings shown hold on the facts given; an outcome shown as undetermined "
                                "is not proven either way, and no bound is stated ({prov})",
           "time_limit_check_proven": "the time limit was reached before the check ended: the outcomes and findings "
                                      "shown hold on the facts given (the rules applied once, the open facts as "
                                      "open); an outcome shown as undetermined is not proven either way, and no "
                                      "bound is stated ({prov})",
           "alternatives_note": "note: facts given as alternatives are explained at their first value ({told}); "
                                "`treaty check` shows every alternative",
           "same_whatever": "{provisions}: this outcome whatever {facts} (given as unknown or not given): every "
                            "value they may take gives it",
           "same_at_bound": "whatever {fact} (not given: at most {bound}, what the others leave), as at {bound}: "
                            "{line}",
           "decisive_cut": "the decisive lines are not shown: the time limit was reached before the legal argument "
                           "was derived (`treaty explain {source}` gives it)",
           "item": "item", "type": "type", "common_grounds": "grounds common to the conclusions below",
           "alternatives_argued": "; an outcome that depends on them is argued under each of its alternatives, at the "
                                  "value named",
           "argued_at": "{condition} — argued at {told}",
           "at_value": "at the explained value ({told})"},
    "pt": {"status": "situação", "provisions": "dispositivos", "max_tax": "imposto máximo na fonte",
           "expect_ok": "expect: os {n} rendimentos conferem", "expect_ok_one": "expect: o rendimento confere",
           "expect_bad": "expect: {n} divergências", "expect_bad_one": "expect: 1 divergência",
           "evaluated": "avaliado em", "caveat": "ressalva",
           "findings": "constatações", "why_not": "por que não", "holds": "se verifica",
           "no_rule": "nenhuma regra conclui este predicado",
           "reconstructed": "baseia-se em dispositivos RECONSTITUÍDOS (ausentes do texto do corpus)",
           "reconstructed_mark": "baseia-se em RECONSTITUÍDOS",
           "ledger_row": "{ledger}, linha {row}",
           "entitlement": "direito aos benefícios",
           "unless_denied": "— salvo se o {prov} negar o benefício (exige avaliação): então benefícios negados, "
                            "pode tributar segundo sua legislação interna",
           "unless_denied_where": "— salvo se o {prov} negar o benefício onde exige avaliação (abaixo): então "
                                  "benefícios negados, pode tributar segundo sua legislação interna",
           "entitled": "concedidos",
           "denied": "negados (o Estado que o benefício vincularia pode tributar segundo sua legislação interna)",
           "open": "em aberto (falta um fato necessário, ou ele é desconhecido)",
           "requires_judgment": "exige avaliação (uma questão do propósito principal não tem resposta)",
           "withholding": "retenção na fonte", "version": "decidido pela versão alterada",
           "depends_on": "depende de", "unknowns": "os fatos desconhecidos", "possibly": "possivelmente:",
           "unknown_facts": "fatos informados como desconhecidos ou por alternativas",
           "turns_on_open": "resultados que dependem de fatos em aberto", "decides": "decide",
           "not_given_facts": "fatos não informados, respondidos para todos os valores que podem ter",
           "not_given_facts_cut": "fatos não informados, cujos valores o tempo limite deixou sem examinar todos",
           "incomplete": "INCOMPLETO",
           "and": "e", "or": "ou", "is": "é", "if": "se", "is_if": "for",
           "some_combinations": "em certas combinações dos fatos desconhecidos",
           "in_some": "só em certas combinações", "otherwise": "nos demais casos",
           "at_most": "pode tributar, no máximo {rate} do montante bruto",
           "may_tax_always": "pode tributar em qualquer caso", "unnamed_state": "um Estado que o cenário não menciona",
           "cap_if": "até {rate} do montante bruto", "cap_some": "até {rate} do montante bruto só em certos casos",
           "no_cap_otherwise": "sem limite na convenção nos demais casos",
           "on_part": "sobre o {part} {amount}; o excesso {excess} é tributado segundo a legislação de cada Estado",
           "part_not_given": "desconhecido: o limite se aplica ao {part}, que o cenário não informa",
           "base_open": "desconhecido: saber se o limite se aplica ao montante total ou só a uma parte dele "
                        "depende de um fato não definido ({prov})",
           "on": "em", "some_amount": "um montante que depende dos fatos desconhecidos",
           "no_article": "nenhum artigo de {prov} no corpus rege este rendimento: não codificado",
           "no_application": "não se sabe se {prov} se aplica a este rendimento: o artigo sobre a entrada em vigor e a "
                             "aplicação não está no corpus (não codificado)",
           "depends_alternatives": "depende de {fact}, informado como desconhecido ou por alternativas ({prov})",
           "depends_not_given": "depende de {fact}, não informado ({prov})",
           "time_limit_check": "o tempo limite se esgotou antes do fim da verificação: nada é definitivo ({prov})",
           "time_limit_proven": "o tempo limite se esgotou antes de examinados todos os valores dos fatos em "
                                "aberto: os resultados e constatações mostrados valem com os fatos informados; um "
                                "resultado indeterminado não está provado em nenhum sentido, e nenhum limite é "
                                "indicado ({prov})",
           "time_limit_check_proven": "o tempo limite se esgotou antes do fim da verificação: os resultados e "
                                      "constatações mostrados valem com os fatos informados (as regras aplicadas uma "
                                      "vez, os fatos em aberto como em aberto); um resultado indeterminado não está "
                                      "provado em nenhum sentido, e nenhum limite é indicado ({prov})",
           "alternatives_note": "nota: os fatos informados por alternativas são explicados no primeiro valor "
                                "({told}); `treaty check` mostra todas as alternativas",
           "same_whatever": "{provisions}: este resultado qualquer que seja {facts} (informado como desconhecido "
                            "ou não informado): todo valor possível o dá",
           "same_at_bound": "qualquer que seja {fact} (não informado: no máximo {bound}, o que os demais deixam), "
                            "como com {bound}: {line}",
           "decisive_cut": "as linhas decisivas não são mostradas: o tempo limite se esgotou antes de a argumentação "
                           "jurídica ser derivada (`treaty explain {source}` a apresenta)",
           "item": "rendimento", "type": "tipo", "common_grounds": "fundamentos comuns às conclusões abaixo",
           "alternatives_argued": "; um resultado que depende deles é fundamentado em cada uma de suas alternativas, "
                                  "no valor indicado",
           "argued_at": "{condition} — fundamentado em {told}",
           "at_value": "no valor explicado ({told})"},
    "pt-PT": {"status": "estado", "provisions": "disposições", "why_not": "porque não", "holds": "verifica-se",
              "reconstructed": "assenta em disposições RECONSTITUÍDAS (ausentes do texto do corpus)",
              "reconstructed_mark": "assenta em RECONSTITUÍDAS",
              "unless_denied": "— salvo se o {prov} recusar o benefício (exige um juízo): então benefícios "
                               "recusados, pode tributar segundo a sua legislação",
              "unless_denied_where": "— salvo se o {prov} recusar o benefício onde exige um juízo (abaixo): então "
                                     "benefícios recusados, pode tributar segundo a sua legislação",
              "denied": "recusados (o Estado que o benefício vincularia pode tributar segundo a sua legislação)",
              "open": "em aberto (falta um facto necessário, ou é desconhecido)",
              "requires_judgment": "exige um juízo (uma questão do objetivo principal não tem resposta)",
              "unknowns": "os factos desconhecidos",
              "unknown_facts": "factos indicados como desconhecidos ou por alternativas",
              "turns_on_open": "resultados que dependem de factos em aberto",
              "not_given_facts": "factos não indicados, respondidos para todos os valores que podem ter",
              "not_given_facts_cut": "factos não indicados, cujos valores o tempo limite deixou sem examinar todos",
              "some_combinations": "em certas combinações dos factos desconhecidos", "otherwise": "nos outros casos",
              "no_cap_otherwise": "sem limite na convenção nos outros casos",
              "part_not_given": "desconhecido: o limite aplica-se ao {part}, que o cenário não indica",
              "base_open": "desconhecido: saber se o limite se aplica à totalidade do montante ou só a uma parte "
                           "depende de um facto não assente ({prov})",
              "some_amount": "um montante que depende dos factos desconhecidos",
              "depends_alternatives": "depende de {fact}, indicado como desconhecido ou por alternativas ({prov})",
              "depends_not_given": "depende de {fact}, não indicado ({prov})",
              "time_limit_check": "o tempo limite esgotou-se antes do fim da verificação: nada é definitivo ({prov})",
              "time_limit_proven": "o tempo limite esgotou-se antes de examinados todos os valores dos factos em "
                                   "aberto: os resultados e constatações mostrados valem com os factos indicados; um "
                                   "resultado indeterminado não está provado em nenhum sentido, e nenhum limite é "
                                   "indicado ({prov})",
              "time_limit_check_proven": "o tempo limite esgotou-se antes do fim da verificação: os resultados e "
                                         "constatações mostrados valem com os factos indicados (as regras aplicadas "
                                         "uma vez, os factos em aberto como em aberto); um resultado indeterminado não "
                                         "está provado em nenhum sentido, e nenhum limite é indicado ({prov})",
              "alternatives_note": "nota: os factos indicados por alternativas são explicados no primeiro valor "
                                   "({told}); `treaty check` mostra todas as alternativas",
              "alternatives_argued": "; um resultado que depende deles é fundamentado em cada uma das suas "
                                     "alternativas, no valor indicado",
              "same_whatever": "{provisions}: este resultado, qualquer que seja {facts} (indicado como "
                               "desconhecido ou não indicado): todos os valores possíveis o dão",
              "same_at_bound": "qualquer que seja {fact} (não indicado: no máximo {bound}, o que os restantes "
                               "deixam), como com {bound}: {line}",
              "decisive_cut": "as linhas decisivas não são mostradas: o tempo limite esgotou-se antes de a "
                              "argumentação jurídica ser derivada (`treaty explain {source}` apresenta-a)"},
}
_FINDING = {
    "en": {
        "missing": "missing fact: {fact} (needed by {prov})",
        "assumption": "assumed: {fact} ({prov}); state it to change it (--strict asks for it)",
        "assumption_field": "assumed: {fact} ({prov}); state `{field}` to change it (--strict asks for it)",
        "depends": "depends on {fact}, given as unknown ({prov})",
        "not_needed": "not needed: {fact} ({prov}): every value it may take gives the same answer",
        "requires_judgment": "the benefit may be denied — a judgment under {prov} is not made: {fact} "
                             "(not given, or unknown)",
        "text_open": "open question: the text of {prov} does not say {fact}; not decided by the text",
        "pending": "{prov} is in the corpus but not encoded yet",
        "not_encoded": "{prov} is not encoded: text not available",
        "mutual_agreement": "residence of {fact} to be settled by mutual agreement ({prov})",
        "exception": "exception applies: {fact} ({prov})",
        "input_error": "input error: {fact}",
        "note": "{fact} ({prov})",
        "deadline": "deadline: {fact} ({prov})",
        "relief": "{fact} ({prov})",
        "discrimination": "treatment of {fact} contrary to {prov}",
        "indicator": "indicator for the principal purpose test (the user weighs it; it raises the question): "
                     "{fact} ({prov})",
        "time_limit": "the time limit was reached before every alternative of the unknown facts was examined: "
                      "not final ({prov})",
    },
    "pt": {
        "missing": "fato ausente: {fact} (exigido pelo {prov})",
        "assumption": "presumido: {fact} ({prov}); informe-o para alterá-lo (--strict o exige)",
        "assumption_field": "presumido: {fact} ({prov}); informe `{field}` para alterá-lo (--strict o exige)",
        "depends": "depende de {fact}, informado como desconhecido ({prov})",
        "not_needed": "desnecessário: {fact} ({prov}): qualquer valor que possa ter dá a mesma resposta",
        "requires_judgment": "o benefício pode ser negado — falta a avaliação exigida pelo {prov}: "
                             "{fact} (não informado, ou desconhecido)",
        "text_open": "questão em aberto: o texto do {prov} não diz {fact}; o texto não a decide",
        "pending": "o {prov} está no corpus mas ainda não foi codificado",
        "not_encoded": "o {prov} não está codificado: texto não disponível",
        "mutual_agreement": "residência de {fact} a ser resolvida por acordo mútuo ({prov})",
        "exception": "aplica-se a exceção: {fact} ({prov})",
        "input_error": "erro nos dados: {fact}",
        "note": "{fact} ({prov})",
        "deadline": "prazo: {fact} ({prov})",
        "relief": "{fact} ({prov})",
        "discrimination": "tratamento de {fact} contrário ao {prov}",
        "indicator": "indício para o teste do propósito principal (cabe ao usuário ponderá-lo; ele levanta a "
                     "questão): {fact} ({prov})",
        "time_limit": "o tempo limite se esgotou antes de examinadas todas as alternativas dos fatos "
                      "desconhecidos: não definitivo ({prov})",
    },
    "pt-PT": {
        "missing": "facto em falta: {fact} (exigido pelo {prov})",
        "assumption": "presumido: {fact} ({prov}); indique-o para o alterar (--strict pede-o)",
        "assumption_field": "presumido: {fact} ({prov}); indique `{field}` para o alterar (--strict pede-o)",
        "depends": "depende de {fact}, indicado como desconhecido ({prov})",
        "requires_judgment": "o benefício pode ser recusado — falta o juízo exigido pelo {prov}: "
                             "{fact} (não indicado, ou desconhecido)",
        "mutual_agreement": "residência de {fact} a resolver de comum acordo ({prov})",
        "indicator": "indício para o teste do objetivo principal (a ponderar pelo utilizador; levanta a questão): "
                     "{fact} ({prov})",
        "time_limit": "o tempo limite esgotou-se antes de examinadas todas as alternativas dos factos "
                      "desconhecidos: não definitivo ({prov})",
    },
}


def wording(table: Mapping[str, Mapping[str, V]], lang: str) -> dict[str, V]:
    """A table of the tool's words in ``lang``: each key from the most specific entry that has it (``pt-PT``,
    then ``pt``, then ``en``: :func:`pyhelpers.base.lang.chain`)."""
    out: dict[str, V] = {}
    for key in reversed(languages.chain(lang)):
        out.update(table.get(key, {}))
    return out


_VALUES = {"pt": ((r"\bany of its values\b", "qualquer um de seus valores"), (r"\bone of\b", "um de"),
                  (r"\bany day from (\S+) on\b", r"qualquer dia a partir de \1"),
                  (r"\bany day up to (\S+)", r"qualquer dia até \1"), (r"\bor later\b", "ou data posterior"),
                  (r"\bor earlier\b", "ou data anterior"),
                  (r"\bor more\b", "ou mais"), (r"\bor less\b", "ou menos"), (r"\bless than\b", "menos de"),
                  (r"\bfrom (\S+) to (\S+)", r"de \1 a \2"), (r"\bnot stated\b", "não informado"),
                  (r"\btrue\b", "sim"), (r"\bfalse\b", "não"), (r" is ", " é ")),
           "pt-PT": ((r"\bany of its values\b", "qualquer um dos seus valores"), (r"\bnot stated\b", "não indicado"))}
"""The words of a fact's values as the scenario layer writes them (``2026-03-14 or later``, ``one of 20, 30``,
``not stated``), in Portuguese (``pt-PT``: the patterns whose words differ); the dates and percentages in them
are rewritten by :func:`values_text`."""
_ISO_DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")
_PERCENT = re.compile(r"\b(\d+)\.(\d+)%")
_DECIMAL = re.compile(r"(?<![\w.,])\d+\.\d+(?![\w.%])")
"""An amount as the scenario layer writes it (``5999.00``): ``5.999,00`` in Portuguese."""


_LIST_PHRASE = re.compile(r"\ba list(?: of (?P<size>no value|one value|several values))?,?"
                          r"(?P<tests>(?: (?:with|without) [\w-]+(?: and)?)*)")
"""A list's values said by the elements the rules test (:func:`pyhelpers.scenario.openfacts.describe_lists`)."""
_LIST_SIZE = {"no value": " vazia", "one value": " de um só valor", "several values": " de vários valores"}


def _list_phrase(m: re.Match[str]) -> str:
    tests = re.sub(r"\bwithout\b", "sem", re.sub(r"\bwith\b", "com", m["tests"])).replace(" and", " e")
    size = _LIST_SIZE[m["size"]] if m["size"] else ""
    return "uma lista" + size + ("," if size and tests else "") + tests


def values_text(text: str, lang: str) -> str:
    """A fact's values in words (``holding(a, b).from is 2022-03-15 or earlier``) in ``lang``: English as
    given; Portuguese with its connectives translated and its dates and percentages in the locale's form."""
    if languages.family(lang) == "en":
        return text
    text = _LIST_PHRASE.sub(_list_phrase, text)
    text = re.sub(r"\bany list of\b", "qualquer lista de", text)
    text = re.sub(r"\bany list but\b", "qualquer lista exceto", text)
    text = re.sub(r"\ball but \[", "todos exceto [", text)
    european = dict(_VALUES["pt-PT"]) if languages.normalize(lang) == "pt-PT" else {}
    for pattern, repl in _VALUES["pt"]:
        text = re.sub(pattern, european.get(pattern, repl), text)
    text = _ISO_DATE.sub(lambda m: formats.date(m.group(1), lang), text)
    text = _PERCENT.sub(lambda m: formats.number(Decimal(f"{m.group(1)}.{m.group(2)}"), lang) + "%", text)
    return _DECIMAL.sub(lambda m: formats.number(Decimal(m.group(0)), lang), text)


def named_values(values: str, listed: Sequence[str], kind: str, lang: str) -> str:
    """An open fact's values in words (:func:`values_text`: ``one of br, us``), named one by one where the answer
    lists them (``listed``, of the ``kind`` :attr:`Condition.kind` says): a State by its name, a value of the
    scenario format in ``lang``'s words, joined by "or" ("Brazil or the United States", "Brasil ou Estados
    Unidos": a name in a list takes no article). The JSON keeps the values as the scenario writes them."""
    if not listed or kind not in ("state", "term"):
        return values_text(values, lang)
    words = [_named_value(v, kind, lang) for v in listed]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {label('or', lang)} {words[-1]}"


def _named_value(text: str, kind: str, lang: str) -> str:
    if kind == "state" and text == UNNAMED_STATE:  # the code that stands for any State the scenario does not name
        return label("unnamed_state", lang)
    if kind == "state" and re.fullmatch(r"[a-z]{2}", text):
        return state_name(text, lang)
    if kind == "state" and re.fullmatch(r"[a-z][a-z0-9_]*", text):  # a value of the format, not a State
        return value(text, lang)
    if kind == "term" and re.fullmatch(r"[a-z][a-z0-9_]*", text):
        return term(text, lang) if languages.family(lang) == "en" else value(text, lang)
    return values_text(text, lang)  # "not stated", a value of another kind


def label(key: str, lang: str) -> str:
    return wording(_LABEL, lang)[key]


def outcome_text(o: StateOutcome, lang: str, on: str | None = None, part: str | None = None) -> str:
    """The outcome in words; ``on``: the item's date, named when the treaty does not apply on it;
    ``part``: the part of the amount a cap applies to, where not the gross (``limit_applies_to``)."""
    if o.outcome == "undetermined" and o.at_most_bp is not None:  # bounded whatever the open facts
        return label("at_most", lang).format(rate=formats.percent_bp(o.at_most_bp, lang))
    if o.outcome == "undetermined" and o.may_tax_always:
        return label("may_tax_always", lang)
    text = wording(_OUTCOME, lang).get(o.outcome, o.outcome)
    if o.outcome == "capped" and part is not None:
        name = wording(_PARTS, lang).get(part, part.replace("_", " "))
        text = text.replace("do montante bruto", f"do {name}").replace("the gross amount", f"the {name}")
    text = text.format(rate=formats.percent_bp(o.max_rate_bp, lang) if o.max_rate_bp is not None else "?")
    if o.outcome == "not_applicable" and on is not None:
        text += f" {label('on', lang)} {formats.date(on, lang)}"
    return text


_RELIEF = {
    "en": {
        "by": "elimination of double taxation by {state}",
        "method_credit": "credit for the tax paid in the other State",
        "method_indirect_credit": "indirect credit (the company's tax on the profits behind the dividend)",
        "method_participation_deduction": "deduction of the dividends from the taxable base",
        "method_exemption_with_progression": "exemption; the income may be taken into account for the tax on "
                                             "other income",
        "paid": "source tax paid", "limit": "the Convention's limit", "underlying": "underlying tax",
        "creditable": "creditable tax", "ceiling": "ceiling", "credit": "credit", "deduction": "deduction",
        "no_source_tax": "the source tax paid is not given", "no_underlying_tax": "the underlying tax is not given",
        "no_ceiling_figures": "the residence State's figures for the ceiling are not given",
        "limited_part_not_given": "the Convention's limit, and so the creditable tax, is not known: the amount it "
                                  "applies to is not settled",
        "open_method": "not included: {method} ({prov}), which depends on a fact not settled",
        "open_method_text": "not included: {method} ({prov}), on which the text is open (see the open question)",
        "open_method_if": "not included: {method} ({prov}), which applies if {where}",
        "title": "elimination of double taxation",
    },
    "pt": {
        "by": "eliminação da dupla tributação por {state}",
        "method_credit": "dedução do imposto pago no outro Estado",
        "method_indirect_credit": "crédito indireto (imposto da sociedade sobre os lucros de que provêm os "
                                  "dividendos)",
        "method_participation_deduction": "dedução dos dividendos à base tributável",
        "method_exemption_with_progression": "isenção; o rendimento pode ser levado em conta no imposto sobre os "
                                             "outros rendimentos",
        "paid": "imposto pago na fonte", "limit": "limite da Convenção", "underlying": "imposto subjacente",
        "creditable": "imposto dedutível", "ceiling": "limite da dedução", "credit": "dedução",
        "deduction": "dedução à base",
        "no_source_tax": "o imposto pago na fonte não é informado",
        "no_underlying_tax": "o imposto subjacente não é informado",
        "no_ceiling_figures": "os valores do Estado de residência para o limite não são informados",
        "limited_part_not_given": "o limite da Convenção, e portanto o imposto dedutível, é desconhecido: o "
                                  "montante a que se aplica não está definido",
        "open_method": "não incluído: {method} ({prov}), que depende de um fato não definido",
        "open_method_text": "não incluído: {method} ({prov}), sobre o qual o texto não decide (ver a questão em "
                            "aberto)",
        "open_method_if": "não incluído: {method} ({prov}), que se aplica se {where}",
        "title": "eliminação da dupla tributação",
    },
    "pt-PT": {
        "no_source_tax": "o imposto pago na fonte não é indicado",
        "no_underlying_tax": "o imposto subjacente não é indicado",
        "no_ceiling_figures": "os valores do Estado de residência para o limite não são indicados",
        "method_indirect_credit": "crédito indireto (imposto da sociedade sobre os lucros de que provêm os "
                                  "dividendos)",
        "method_exemption_with_progression": "isenção; o rendimento pode ser tido em conta no imposto sobre os "
                                             "outros rendimentos",
        "limited_part_not_given": "o limite da Convenção, e portanto o imposto dedutível, é desconhecido: o "
                                  "montante a que se aplica não está assente",
        "open_method": "não incluído: {method} ({prov}), que depende de um facto não assente",
        "open_method_text": "não incluído: {method} ({prov}), sobre o qual o texto não decide (ver a questão em "
                            "aberto)",
        "open_method_if": "não incluído: {method} ({prov}), que se aplica se {where}",
    },
}


def relief_method_text(method: str, lang: str) -> str:
    return wording(_RELIEF, lang).get(f"method_{method}", method.replace("_", " "))


def _relief_fact(fact: str, lang: str) -> str:
    """``pt credit`` (a relief finding's fact) → ``Portugal: credit for the tax paid in the other State``."""
    state, _, method = fact.partition(" ")
    return f"{state_name(state, lang)}: {relief_method_text(method, lang)}"


def relief_lines(relief: Relief, lang: str) -> list[str]:
    """The amounts of a relief under a heading, one phrase per line; none when it has no amounts (its
    methods are findings of the item)."""
    words = wording(_RELIEF, lang)

    def amount(value: Decimal) -> str:
        return formats.amount(value, relief.currency, lang)

    out: list[str] = []
    parts = [f"{words[key]} {amount(value)}" for key, value in (
        ("paid", relief.source_tax_paid), ("limit", relief.treaty_limit), ("underlying", relief.underlying_tax),
        ("creditable", relief.creditable_tax), ("ceiling", relief.ceiling), ("credit", relief.credit),
    ) if value is not None]
    if relief.deduction is not None and relief.deduction_share_bp is not None:
        share = formats.percent_bp(relief.deduction_share_bp, lang)
        parts.append(f"{words['deduction']} {share}: {amount(relief.deduction)}")
    if parts:
        out.append("; ".join(parts))
    out += [words[n] for n in relief.notes if n in words]
    out += [words["open_method_text" if m.text_open else "open_method_if" if m.holds_if else "open_method"].format(
                method=relief_method_text(m.method, lang), prov=m.provision, where=conditions_text(m.holds_if, lang))
            for m in relief.open_methods]
    return [with_state(words["by"], "state", relief.state, lang) + ":", *out] if out else []


def assumption_field(f: Finding) -> str | None:
    """The scenario field that removes the assumption ``f`` (``persons.lusoinvest.special_regime``), as
    its treaty's rules name it (``assumption_field``), or None."""
    fact = f.fact or ""
    name, _, rest = fact.partition("(")
    field = catalogue().assumption_fields.get((f.provision.split(" ")[0], name))
    if field is None:
        return None
    first = rest.rstrip(")").split(",")[0].strip()
    return field.replace("<1>", first)


def finding_text(f: Finding, lang: str, with_field: bool = True) -> str:
    """A finding in words, ending with where the scenario states its fact (unless ``with_field`` is false)."""
    if not with_field:
        return finding_text(replace(f, field=None), lang) if f.kind != "assumption" else \
            wording(_FINDING, lang)["assumption"].format(fact=constant_text(f.fact or "", lang), prov=f.provision)
    if f.kind == "assumption" and (field := f.field or assumption_field(f)) is not None:
        return wording(_FINDING, lang)["assumption_field"].format(fact=constant_text(f.fact or "", lang),
                                                                  prov=f.provision, field=field_text(field, lang))
    if f.kind == "not_encoded" and " " not in f.provision:  # the treaty itself: no article named (the item's type's,
        # or the one on entry into force and application: blind58b D9)
        return label("no_application" if f.gap == APPLICATION else "no_article", lang).format(prov=f.provision)
    if f.kind == "depends" and f.open_as == "not_given":  # a fact left out, answered over its values
        fact = fact_text(f.fact, lang) if f.fact and f.fact.isidentifier() else f.fact or ""  # a rules' constant
        return label("depends_not_given", lang).format(fact=fact, prov=f.provision) + field_note(f, lang)
    if f.kind == "depends" and (f.open_as == "alternatives" or " " not in f.provision):  # no rule reads it as unknown
        return label("depends_alternatives", lang).format(fact=f.fact or "", prov=f.provision) + field_note(f, lang)
    if f.kind == "time_limit" and f.fact == "check":  # the whole check cut, grounding included
        return label("time_limit_check", lang).format(prov=f.provision)
    if f.kind == "time_limit" and f.fact in ("proven", "check_proven"):  # cut, the three-valued answer kept
        return label(f"time_limit_{f.fact}", lang).format(prov=f.provision)
    if f.kind == "relief":
        return wording(_FINDING, lang)[f.kind].format(fact=_relief_fact(f.fact or "", lang), prov=f.provision)
    fact = constant_text(f.fact or "", lang) if f.kind in _CONSTANT_FACTS else fact_text(f.fact or "", lang)
    return wording(_FINDING, lang)[f.kind].format(fact=fact, prov=f.provision) + field_note(f, lang)


def merged_findings(findings: Iterable[Finding]) -> list[Finding]:
    """``findings`` with those about one fact of the scenario (missing, open, not needed, a judgment) that
    differ only in their provision said once, citing every provision in the order found, separated by
    semicolons (audit 23, defect 10); the others as they are."""
    out: list[Finding] = []
    at: dict[tuple[object, ...], int] = {}
    for f in findings:
        key = (f.kind, f.fact, f.field, f.open_as)
        if f.kind not in FIELD_KINDS or not f.fact or key not in at:
            if f.kind in FIELD_KINDS and f.fact:
                at[key] = len(out)
            out.append(f)
            continue
        first = out[at[key]]
        if f.provision not in first.provision.split("; "):
            out[at[key]] = replace(first, provision=f"{first.provision}; {f.provision}")
    return out


def merged_possibly(alternatives: Iterable[Alternative]) -> list[Alternative]:
    """The findings among ``alternatives`` that hold for some values only ("possibly"), those that differ only in
    their provision said once, citing every provision in the order found (blind59 R9: «possibly: depends on
    whether the agent ... is of independent status ... (<provision>)», then (<another>), then (<a third>), each
    under the same condition), as :func:`merged_findings` says the findings that hold in every case."""
    out: list[Alternative] = []
    at: dict[tuple[object, ...], int] = {}
    for a in alternatives:
        if a.state is not None:
            continue
        f = a.finding
        key = (f.kind, f.fact, f.field, f.open_as, a.holds_if, a.holds_if_any, a.exact, a.otherwise,
               a.reconstructed) if f is not None and f.kind in FIELD_KINDS and f.fact else None
        if key is None or key not in at:
            if key is not None:
                at[key] = len(out)
            out.append(a)
            continue
        first = out[at[key]]
        assert first.finding is not None and f is not None
        if f.provision not in first.finding.provision.split("; "):
            out[at[key]] = replace(first, finding=replace(first.finding,
                                                          provision=f"{first.finding.provision}; {f.provision}"))
    return out


_CONSTANT_FACTS = ("exception", "note", "indicator", "input_error", "deadline", "discrimination",
                   "requires_judgment", "assumption", "text_open")
"""The findings whose fact is a constant of the rules (the others name a fact of the scenario): an
assumption's is the default's name (``no_special_regime(lusoinvest)``)."""


_FIELD_NOTE = {
    "en": {"not_needed": "; in the scenario: `{field}`", "other": "; state it in `{field}`"},
    "pt": {"not_needed": "; no cenário: `{field}`", "other": "; informe-o em `{field}`"},
    "pt-PT": {"other": "; indique-o em `{field}`"},
}


def step_with_field(step: Step, finding: Finding | None, lang: str) -> Step:
    """A derivation's step for a finding about a fact (the root of ``explain --full``'s tree for a missing fact, an
    assumption ...) with where the scenario states the fact, as the finding's text ends (:func:`field_note`)."""
    if finding is None or finding.field is None:
        return step
    return replace(step, reading=step.reading + field_note(finding, lang))


def field_note(f: Finding, lang: str) -> str:
    """Where the scenario states the fact of ``f`` (its ``field``), as a finding's text ends:
    ``; state it in `places_of_business.agency-sp.agent.independent``` (``; in the scenario: ...`` for a
    fact not needed) — empty where none is named."""
    if f.field is None:
        return ""
    words = wording(_FIELD_NOTE, lang)
    return words.get(f.kind, words["other"]).format(field=field_text(f.field, lang))


def state_name(code: str, lang: str) -> str:
    """A State by its name: a Contracting State's from the catalogue, a third State's from CLDR (Babel)."""
    return readings.state_name(code, lang)


def caveat_text(treaty: str, lang: str) -> str | None:
    """The caveat on the treaty as a whole (said once at the head of an answer), with its label; None if none."""
    words = readings.treaty_caveat(treaty, lang)
    return f"{label('caveat', lang)}: {words}" if words else None


def money(amount: Decimal, currency: str | None, lang: str = "en") -> str:
    """An amount as written for people: thousands separated, in the currency's smallest unit."""
    return formats.number(round_to_currency(amount, currency), lang)


_COMPLIANCE = {
    "en": {
        "compliant": "withheld {withheld}: compliant (due {due})",
        "over_withheld": "withheld {withheld}: OVER-WITHHELD by {difference} (refundable; due {due})",
        "over_withheld_cap": "withheld {withheld}: OVER-WITHHELD by {difference} above the treaty cap "
                             "{cap_tax} (refundable; no domestic rate given, so the tax due is not known)",
        "under_withheld": "withheld {withheld}: UNDER-WITHHELD by {difference} (due {due})",
        "over_withheld_every_cap": "withheld {withheld}: OVER-WITHHELD whatever the open facts: at least {difference} "
                                   "above the highest cap any of them allows ({cap}: {cap_tax}) (refundable; no "
                                   "domestic rate given, so the tax due is not known)",
        "over_withheld_every": "withheld {withheld}: OVER-WITHHELD whatever the open facts: at least {difference} "
                               "above the highest tax due any of them allows (refundable)",
        "under_withheld_every": "withheld {withheld}: UNDER-WITHHELD whatever the open facts: at least {difference} "
                                "below the lowest tax due any of them allows",
        "within_cap": "withheld {withheld}: within the treaty cap {cap_tax} (no domestic rate given: "
                      "under-withholding cannot be checked)",
        "within_every_cap": "withheld {withheld}: within the treaty cap whatever the open facts (no domestic rate "
                            "given: under-withholding cannot be checked)",
        "no_treaty_cap": "withheld {withheld}: the Convention sets no cap ({why}); no domestic rate given",
        "not_checked": "no tax withheld given: due {due}",
        "not_checked_excess": "withheld {withheld}: above the treaty cap {cap_tax} on the part it limits; the rest "
                              "is taxed under domestic law: give its domestic rate to check it",
        "why_arm_length_amount_not_given": "the arm's-length amount is not given",
        "undetermined": "withholding cannot be checked: the outcome is not decided ({why})",
        "depends": "withheld {withheld}: compliant or not depending on {why} (see the alternatives)",
        "depends_row": "withheld {withheld}: compliant or not depending on {why}",
        "why_not_applicable": "it does not apply", "why_benefits_denied": "benefits denied",
        "why_treaty_sets_no_limit": "it leaves this State's right unlimited",
        "title": "withholding in {state}", "domestic": "domestic rate {rate}",
    },
    "pt": {
        "compliant": "retido {withheld}: conforme (devido {due})",
        "over_withheld": "retido {withheld}: RETENÇÃO EXCESSIVA de {difference} (a restituir; devido {due})",
        "over_withheld_cap": "retido {withheld}: RETENÇÃO EXCESSIVA de {difference} acima do limite da "
                             "Convenção {cap_tax} (a restituir; sem alíquota interna, o imposto devido não é "
                             "conhecido)",
        "under_withheld": "retido {withheld}: RETENÇÃO INSUFICIENTE de {difference} (devido {due})",
        "over_withheld_every_cap": "retido {withheld}: RETENÇÃO EXCESSIVA quaisquer que sejam os fatos em aberto: pelo "
                                   "menos {difference} acima do maior limite que qualquer deles permite ({cap}: "
                                   "{cap_tax}) (a restituir; sem alíquota interna, o imposto devido não é conhecido)",
        "over_withheld_every": "retido {withheld}: RETENÇÃO EXCESSIVA quaisquer que sejam os fatos em aberto: pelo "
                               "menos {difference} acima do maior imposto devido que qualquer deles permite "
                               "(a restituir)",
        "under_withheld_every": "retido {withheld}: RETENÇÃO INSUFICIENTE quaisquer que sejam os fatos em aberto: pelo "
                                "menos {difference} abaixo do menor imposto devido que qualquer deles permite",
        "within_cap": "retido {withheld}: dentro do limite da Convenção {cap_tax} (sem alíquota interna: "
                      "não é possível verificar retenção insuficiente)",
        "within_every_cap": "retido {withheld}: dentro do limite da Convenção quaisquer que sejam os fatos em aberto "
                            "(sem alíquota interna: não é possível verificar retenção insuficiente)",
        "no_treaty_cap": "retido {withheld}: a Convenção não fixa limite ({why}); alíquota interna não informada",
        "not_checked": "imposto retido não informado: devido {due}",
        "not_checked_excess": "retido {withheld}: acima do limite da Convenção {cap_tax} sobre a parte que limita; o "
                              "restante é tributado segundo a legislação interna: informe sua alíquota para "
                              "verificá-lo",
        "why_arm_length_amount_not_given": "o montante em condições de mercado não é informado",
        "undetermined": "a retenção não pode ser verificada: o resultado não está decidido ({why})",
        "depends": "retido {withheld}: conforme ou não, dependendo {why} (ver as alternativas)",
        "depends_row": "retido {withheld}: conforme ou não, dependendo {why}",
        "depends_on": "de",
        "why_not_applicable": "não se aplica", "why_benefits_denied": "benefícios negados",
        "why_treaty_sets_no_limit": "deixa ilimitado o direito deste Estado",
        "title": "retenção na fonte em {state}", "domestic": "alíquota interna {rate}",
    },
    "pt-PT": {
        "over_withheld_cap": "retido {withheld}: RETENÇÃO EXCESSIVA de {difference} acima do limite da "
                             "Convenção {cap_tax} (a restituir; sem taxa interna, o imposto devido não é conhecido)",
        "over_withheld_every_cap": "retido {withheld}: RETENÇÃO EXCESSIVA quaisquer que sejam os factos em aberto: "
                                   "pelo menos {difference} acima do limite mais elevado que qualquer deles permite "
                                   "({cap}: {cap_tax}) (a restituir; sem taxa interna, o imposto devido não é "
                                   "conhecido)",
        "over_withheld_every": "retido {withheld}: RETENÇÃO EXCESSIVA quaisquer que sejam os factos em aberto: pelo "
                               "menos {difference} acima do imposto devido mais elevado que qualquer deles permite "
                               "(a restituir)",
        "under_withheld_every": "retido {withheld}: RETENÇÃO INSUFICIENTE quaisquer que sejam os factos em aberto: "
                                "pelo menos {difference} abaixo do imposto devido mais baixo que qualquer deles "
                                "permite",
        "within_cap": "retido {withheld}: dentro do limite da Convenção {cap_tax} (sem taxa interna: "
                      "não se pode verificar retenção insuficiente)",
        "within_every_cap": "retido {withheld}: dentro do limite da Convenção quaisquer que sejam os factos em aberto "
                            "(sem taxa interna: não se pode verificar retenção insuficiente)",
        "no_treaty_cap": "retido {withheld}: a Convenção não fixa limite ({why}); taxa interna não indicada",
        "not_checked": "imposto retido não indicado: devido {due}",
        "not_checked_excess": "retido {withheld}: acima do limite da Convenção {cap_tax} sobre a parte que limita; o "
                              "resto é tributado segundo a legislação interna: indique a sua taxa para o verificar",
        "why_arm_length_amount_not_given": "o montante de plena concorrência não é indicado",
        "depends": "retido {withheld}: conforme ou não consoante {why} (ver as alternativas)", "depends_on": "",
        "depends_row": "retido {withheld}: conforme ou não consoante {why}",
        "why_benefits_denied": "benefícios recusados", "domestic": "taxa interna {rate}",
    },
}


_PARTS = {"en": {"arm_length_amount": "arm's-length amount", "open": "amount it limits (see the maximum source tax)"},
          "pt": {"arm_length_amount": "montante em condições de mercado",
                 "open": "montante que limita (ver o imposto máximo na fonte)"},
          "pt-PT": {"arm_length_amount": "montante de plena concorrência"}}


def cap_base(item: ItemResult) -> str | None:
    """The part of the amount a cap applies to, where not the gross: its name, or ``open``."""
    return "open" if item.limit_base_open is not None else item.limited_to


def max_tax_text(item: ItemResult, lang: str) -> str:
    """``150,000.00 BRL``, or where the limit applies to a part of the amount only, that part and the
    excess over it too."""
    if item.limit_base_open is not None:
        return wording(_LABEL, lang)["base_open"].format(prov=item.limit_base_open)
    part = wording(_PARTS, lang).get(item.limited_to or "", (item.limited_to or "").replace("_", " "))
    if item.limited_to is not None and (item.limited_amount is None or item.max_source_tax is None):
        return wording(_LABEL, lang)["part_not_given"].format(part=part)
    assert item.max_source_tax is not None  # shown only where a limit or its base is
    text = formats.amount(item.max_source_tax, item.currency, lang)
    if item.limited_to is not None and item.gross is not None and item.limited_amount is not None:
        excess = item.gross - item.limited_amount
        text += " " + wording(_LABEL, lang)["on_part"].format(
            part=part, amount=f"{money(item.limited_amount, item.currency, lang)} {item.currency}",
            excess=f"{money(excess, item.currency, lang)} {item.currency}")
    return text


def compliance_line(c: Compliance, lang: str, alternatives_shown: bool = True) -> str:
    """One line: the withholding finding with its amounts, e.g. ``withheld 150,000.00 BRL: OVER-WITHHELD by
    50,000.00 BRL (refundable; due 100,000.00 BRL)``; ``alternatives_shown``: a finding that depends on open
    facts points to the alternatives listed with it (not in a batch row's ``findings_text``)."""
    words = wording(_COMPLIANCE, lang)

    def amount(value: Decimal | None) -> str:
        if value is None:  # the alternatives of unknown facts agree on the finding, not on this amount
            return label("some_amount", lang)
        return formats.amount(value, c.currency, lang)

    key = c.finding
    if key == "over_withheld" and c.reason == "no_domestic_rate":
        key = "over_withheld_cap"
    if key == "not_checked" and c.reason == "excess_taxed_under_domestic_law":
        key = "not_checked_excess"
    if key == "within_cap" and c.treaty_max_tax is None:
        key = "within_every_cap"
    difference, cap_tax, cap = c.difference, c.treaty_max_tax, ""
    if c.difference is None and c.difference_at_least is not None:  # the bound: whatever the open facts
        difference = c.difference_at_least
        if key == "over_withheld_cap" and c.treaty_max_tax_at_most is not None and c.cap_at_most_bp is not None:
            key, cap_tax, cap = "over_withheld_every_cap", c.treaty_max_tax_at_most, \
                formats.percent_bp(c.cap_at_most_bp, lang)
        elif key in ("over_withheld", "under_withheld"):
            key = f"{key}_every"
    why = _depends_on(c, lang) if key == "depends" else words.get(f"why_{c.reason}", term(c.reason, lang))
    if key == "depends" and not alternatives_shown:
        key = "depends_row"
    text = words[key].format(withheld=amount(c.withheld), due=amount(c.due), difference=amount(difference),
                             cap_tax=amount(cap_tax), cap=cap, why=why)
    extra = [words["domestic"].format(rate=formats.percent_bp(c.domestic_rate_bp, lang))] \
        if c.domestic_rate_bp is not None else []
    extra += list(c.provisions)
    head = with_state(words["title"], "state", c.state, lang)
    return f"{head}: {text}" + (f"  ({'; '.join(extra)})" if extra else "") + _reconstructed_mark(c.reconstructed,
                                                                                                 lang)


def _depends_on(c: Compliance, lang: str) -> str:
    """The open facts a withholding finding ``depends`` on, each with where the scenario states it."""
    facts = c.reason.split("; ")
    fields = c.fields if len(c.fields) == len(facts) else (None,) * len(facts)
    named = depends_named(dict(zip(facts, fields, strict=True)), lang)
    preposition = wording(_COMPLIANCE, lang).get("depends_on")
    return _after(preposition, named, lang) if preposition else named


def _reconstructed_mark(provisions: Sequence[str], lang: str) -> str:
    """``  [relies on RECONSTRUCTED: xx-yy 4]`` after a compliance figure or an alternative that rests on
    reconstructed provisions (nothing otherwise)."""
    return f"  [{label('reconstructed_mark', lang)}: {'; '.join(provisions)}]" if provisions else ""


# ---------------------------------------------------------------------------------- incomplete ---
_INCOMPLETE = {
    "en": {
        "check": "the time limit of {limit} was reached before the check ended (the rules were still being applied "
                 "to the scenario's facts{measured}): no item is decided",
        "check_proven": "the time limit of {limit} was reached before the check ended (the rules had been applied "
                        "once, the open facts left open, but their values were not all examined{measured}): the "
                        "outcomes and findings shown hold on the facts given, the others are not proven either way",
        "alternatives": "the time limit of {limit} was reached before every alternative was examined (CPU time "
                        "of the work: a busy machine gives the same answer): the conclusions shown as certain are "
                        "certain, the others are not final",
        "search": "the time limit of {limit} was reached before the search ended (CPU time of the work: a busy "
                  "machine gives the same answer): other changes may exist",
        "answer": "the time limit of {limit} was reached before the answer was complete (treaty serve "
                  "--explain-time-limit): ask about fewer items, or run the command line",
        "measured": "measured in wall-clock time: {wall}",
        "measured_cpu": "measured in wall-clock time: {wall}, of which {cpu} of CPU time for the check",
        "busy": "; the machine was busy, which does not change the answer: the limit counts CPU time",
        "slices": "; and in {n} more slice(s) of {size} items",
        "envelope": "{n} of {m} answer(s) incomplete; the first, {source}: {reason}",
    },
    "pt": {
        "check": "o tempo limite de {limit} se esgotou antes do fim da verificação (as regras ainda estavam sendo "
                 "aplicadas aos fatos do cenário{measured}): nenhum rendimento está decidido",
        "check_proven": "o tempo limite de {limit} se esgotou antes do fim da verificação (as regras foram aplicadas "
                        "uma vez, os fatos em aberto como em aberto, mas seus valores não foram todos "
                        "examinados{measured}): os resultados e constatações mostrados valem com os fatos informados, "
                        "os demais não estão provados em nenhum sentido",
        "alternatives": "o tempo limite de {limit} se esgotou antes de examinadas todas as alternativas (tempo de "
                        "CPU do trabalho: uma máquina ocupada dá a mesma resposta): as conclusões mostradas como "
                        "certas são certas, as demais não são definitivas",
        "search": "o tempo limite de {limit} se esgotou antes do fim da busca (tempo de CPU do trabalho: uma máquina "
                  "ocupada dá a mesma resposta): pode haver outras alterações",
        "answer": "o tempo limite de {limit} se esgotou antes de a resposta ficar completa (`treaty serve "
                  "--explain-time-limit`): pergunte sobre menos rendimentos, ou use a linha de comando",
        "measured": "medido em tempo decorrido: {wall}",
        "measured_cpu": "medido em tempo decorrido: {wall}, dos quais {cpu} de tempo de CPU para a verificação",
        "busy": "; a máquina estava ocupada, o que não muda a resposta: o limite conta tempo de CPU",
        "slices": "; e em mais {n} parte(s) de {size} rendimentos",
        "envelope": "{n} de {m} resposta(s) incompleta(s); a primeira, {source}: {reason}",
    },
    "pt-PT": {
        "check": "o tempo limite de {limit} esgotou-se antes do fim da verificação (as regras ainda estavam a ser "
                 "aplicadas aos factos do cenário{measured}): nenhum rendimento está decidido",
        "check_proven": "o tempo limite de {limit} esgotou-se antes do fim da verificação (as regras foram "
                        "aplicadas uma vez, os factos em aberto como em aberto, mas os seus valores não foram todos "
                        "examinados{measured}): os resultados e constatações mostrados valem com os factos indicados, "
                        "os outros não estão provados em nenhum sentido",
        "alternatives": "o tempo limite de {limit} esgotou-se antes de examinadas todas as alternativas (tempo de "
                        "CPU do trabalho: uma máquina ocupada dá a mesma resposta): as conclusões mostradas como "
                        "certas são certas, as outras não são definitivas",
        "search": "o tempo limite de {limit} esgotou-se antes do fim da pesquisa (tempo de CPU do trabalho: uma "
                  "máquina ocupada dá a mesma resposta): pode haver outras alterações",
        "answer": "o tempo limite de {limit} esgotou-se antes de a resposta ficar completa (`treaty serve "
                  "--explain-time-limit`): pergunte sobre menos rendimentos, ou utilize a linha de comandos",
        "busy": "; a máquina estava ocupada, o que não muda a resposta: o limite conta tempo de CPU",
    },
}


def _seconds(seconds: float, lang: str, places: int | None = None) -> str:
    """Seconds as said, in ``lang``'s numbers: ``0.001 s`` / ``0,001 s``; ``places``: that many decimals (a
    time measured), else the figure's own (a limit: ``10 s``, ``0.3 s``)."""
    figure = Decimal(repr(float(seconds)))
    if places is not None:
        figure = figure.quantize(Decimal(1).scaleb(-places))
    elif figure == figure.to_integral_value():
        figure = figure.quantize(Decimal(1))
    else:
        figure = figure.normalize()
    return f"{formats.number(figure, lang)} s"


def _measured_seconds(seconds: float, lang: str) -> str:
    return _seconds(seconds, lang, 1 if seconds >= 1 else 3)


def incomplete_text(reason: Incomplete | None, lang: str) -> str | None:
    """Why an answer is incomplete (:class:`~pyhelpers.engine.results.Incomplete`), in ``lang``'s words with
    its figures in ``lang``'s numbers; None for a complete answer."""
    if reason is None:
        return None
    words = wording(_INCOMPLETE, lang)
    measured = ""
    if reason.wall_seconds is not None:
        wall = _measured_seconds(reason.wall_seconds, lang)
        measured = words["measured"].format(wall=wall) if reason.cpu_seconds is None else \
            words["measured_cpu"].format(wall=wall, cpu=_measured_seconds(reason.cpu_seconds, lang))
        measured += words["busy"] if reason.busy else ""
    limit = _seconds(reason.limit_seconds, lang)
    if reason.cut == Cut.CHECK:
        text = words["check_proven" if reason.proven else "check"].format(
            limit=limit, measured=f"; {measured}" if measured else "")
    else:
        text = words[str(reason.cut)].format(limit=limit) + (f" ({measured})" if measured else "")
    if reason.more_slices:
        text += words["slices"].format(n=formats.number(Decimal(reason.more_slices), lang),
                                       size=formats.number(Decimal(reason.slice_items), lang))
    return text


def incomplete_envelope(cut: int, of: int, source: str, reason: str, lang: str) -> str:
    """What ``treaty check --format json`` says first of answers a time limit cut: how many, and the first's
    reason (already in ``lang``)."""
    return wording(_INCOMPLETE, lang)["envelope"].format(n=formats.number(Decimal(cut), lang),
                                                         m=formats.number(Decimal(of), lang), source=source,
                                                         reason=reason)


# --------------------------------------------------------------------------------------- check ---
def incomplete_line(reason: Incomplete | None, lang: str) -> list[str]:
    """An answer cut short by the time limit says so first: ``INCOMPLETE: <why>``, before its headline."""
    return [f"{label('incomplete', lang)}: {incomplete_text(reason, lang)}", ""] if reason else []


def check_text(result: ScenarioResult, mismatches: Sequence[Mismatch] | None, lang: str,
               decisive: dict[tuple[str, str], str] | None = None, decisive_cut: bool = False) -> str:
    """The decision of each item; ``decisive``: by (item, State), the line of the legal argument that gives
    the State's outcome, printed under it; ``decisive_cut``: the time limit stopped their derivation (said)."""
    lines = [*incomplete_line(result.incomplete, lang), f"{result.source} — {result.name}",
             f"{result.treaty}, {label('evaluated', lang)} {formats.date(result.evaluation_date, lang)}",
             *filter(None, [caveat_text(result.treaty, lang)]), ""]
    for item in result.items:
        gross = f"  {money(item.gross, item.currency, lang)} {item.currency}" if item.gross is not None else ""
        lines.append(f"{item.item_id}  {value(item.income_type, lang)}{gross}  [{value(item.status, lang)}]")
        width = max(len(state_name(s.state, lang)) for s in item.states) + 1
        for s in item.states:
            provs = f"  ({'; '.join(s.provisions)})" if s.provisions else ""
            options = [a for a in item.alternatives if a.state == s.state]
            if not options:  # a decided outcome flagged as its alternatives would be (blind59 R6)
                provs += _reconstructed_mark(s.reconstructed, lang)
            text = state_outcome_text(s, item, lang)
            lines.append(f"  {(state_name(s.state, lang) + ':').ljust(width)} {text}{provs}")
            if decisive and (item.item_id, s.state) in decisive:
                first, *more = sub_lines(decisive[(item.item_id, s.state)])
                lines.append(f"  {' ' * width}   ↳ {first}")
                lines += [f"  {' ' * width}     {part}" for part in more]
            lines += [f"  {' ' * width}   {alternative_text(a, lang)}" for a in options]
            if item.entitlement is not None and s.state in item.entitlement.at_stake and s.outcome != "undetermined":
                lines.append(f"  {' ' * width}   {unless_denied_text(item.entitlement, lang)}")
            elif s.outcome == "undetermined" and s.at_most_bp is not None and (judged := _judged_somewhere(item)):
                lines.append(f"  {' ' * width}   " + label("unless_denied_where", lang).format(prov="; ".join(judged)))
        if item.max_source_tax is not None or item.limited_to is not None or item.limit_base_open is not None:
            lines.append(f"  {label('max_tax', lang)}: {max_tax_text(item, lang)}")
        if item.compliance is not None:
            lines.append(f"  {compliance_line(item.compliance, lang)}")
        if item.entitlement is not None:
            lines.append(f"  {entitlement_line(item.entitlement, lang)}")
        for f in merged_findings((*item.findings, *item.assumptions)):
            lines.append(f"  - {finding_text(f, lang)}")
        for a in merged_possibly(item.alternatives):
            lines.append(f"  - {label('possibly', lang)} {alternative_text(a, lang)}")
        if item.relief is not None and relief_lines(item.relief, lang):
            head, *rest = relief_lines(item.relief, lang)
            lines += [f"  {head}", *(f"    {x}" for x in rest)]
        lines.append(f"  {label('provisions', lang)}: {'; '.join(item.provisions) or '-'}")
        if item.reconstructed:
            lines.append(f"  {label('reconstructed', lang)}: {'; '.join(item.reconstructed)}")
        if item.version:
            lines.append(f"  {label('version', lang)}: {'; '.join(item.version)}")
        lines.append("")
    for answer in result.answers:
        lines += answer_lines(answer, lang)
    for given, heading in ((True, "unknown_facts"), (False, "not_given_facts_cut" if result.incomplete else
                                                     "not_given_facts")):
        shown = [u for u in result.unknowns if u.given == given]
        if shown:
            lines.append(f"{label(heading, lang)}:")
            lines += [f"  {unknown_fact_text(u, lang)}" for u in shown]
            lines.append("")
    if decisive_cut:
        lines += [label("decisive_cut", lang).format(source=result.source), ""]
    lines += _expect_lines(result, mismatches, lang)
    return provision_words("\n".join(lines).rstrip() + "\n", lang, keep=(f"{result.source} — {result.name}",))


def unknown_fact_text(u: UnknownFact, lang: str) -> str:
    """An open fact the answer was given over, its values, the items it decides and where the scenario states
    it: ``holding(a, b).until: any day from 2023-03-16 on  (decides div); state it in `holdings[0].until```."""
    return (f"{u.fact}: {named_values(u.alternatives, u.listed, u.kind, lang)}"
            + (f"  ({label('decides', lang)} {', '.join(u.items)})" if u.items else "")
            + (f"; {wording(_ASK, lang)['field']} `{field_text(u.field, lang)}`" if u.field else ""))


def state_outcome_text(s: StateOutcome, item: ItemResult, lang: str) -> str:
    """A State's outcome on an item as `treaty check` words it: the outcome, or where it turns on unknown facts
    (the item's alternatives for the State) what it depends on, after what holds in every case."""
    options = [a for a in item.alternatives if a.state == s.state]
    if not options:
        return outcome_text(s, lang, item.date, cap_base(item))
    fields: dict[str, str | None] = {}
    for a in options:
        for c in (*a.holds_if, *(c for both in a.holds_if_any for c in both)):
            fields[c.fact] = fields.get(c.fact) or c.field
    named = depends_named(fields, lang, in_words=_facts_in_words(item, lang))
    text = _after(label('depends_on', lang), named or label('unknowns', lang), lang)
    if s.at_most_bp is not None:
        return f"{label('at_most', lang).format(rate=formats.percent_bp(s.at_most_bp, lang))}; {text}"
    if s.may_tax_always:
        return f"{label('may_tax_always', lang)}; {_open_cap(options, text, lang)}"
    return text


def _open_cap(options: Sequence[Alternative], depends: str, lang: str) -> str:
    """What stays open of a State that may tax in every case: the cap its alternatives give under some values
    only ("capped at 15% of the gross amount if ... is false, not capped by the treaty otherwise"); where a capped
    alternative does not hold exactly on its conditions, the cap in some cases only, with the facts it
    ``depends`` on; ``depends`` alone where no alternative caps it (:func:`state_outcome_text`)."""
    capped = [a for a in options if a.outcome == "capped" and a.max_rate_bp is not None]
    if not capped:
        return depends
    if any(not a.exact or a.otherwise or not (a.holds_if or a.holds_if_any) for a in capped):
        rates = sorted({a.max_rate_bp or 0 for a in capped})
        rate = f" {label('or', lang)} ".join(formats.percent_bp(r, lang) for r in rates)
        return f"{label('cap_some', lang).format(rate=rate)}; {depends}"
    parts = [f"{label('cap_if', lang).format(rate=formats.percent_bp(a.max_rate_bp or 0, lang))} {label('if', lang)} "
             f"{either_text(a.holds_if_any, lang) if a.holds_if_any else conditions_text(a.holds_if, lang)}"
             for a in capped]
    return f"{'; '.join(parts)}, {label('no_cap_otherwise', lang)}"


def _facts_in_words(item: ItemResult, lang: str) -> dict[str, str]:
    """The scenario fields of ``item``'s findings about a fact (missing, given as unknown ...) and that fact in
    words, as the rules name it (:func:`fact_text`: "whether teak-recife is a permanent establishment"): what a
    State's line says an outcome depends on, the field being named in the findings below it (issue 24)."""
    found = [*item.findings, *(a.finding for a in item.alternatives if a.finding is not None)]  # and those missing
    # under some values of another fact only ("possibly": a place's fixed character under one kind)
    return {f.field: fact_text(f.fact, lang) for f in found
            if f.kind in FIELD_KINDS and f.field and f.fact and fact_text(f.fact, lang) != f.fact}


def depends_named(fields: Mapping[str, str | None], lang: str, in_words: Mapping[str, str] | None = None) -> str:
    """The open facts ``fields`` (fact → the scenario field that states it) an outcome depends on, in their
    order by name: each as the answers name it (:func:`open_fact_named`), the fields of one record said together
    after the record ("the holding of a in b (`holdings[0]`): its share of the capital and its first day").
    ``in_words`` (field → the fact in words): a State's line, which names each fact in words and leaves where the
    scenario states it to the findings (a record without its field, a fact a finding reads by its reading)."""
    words = wording(_RECORD_WORDS, lang)
    parts: list[str | list[str]] = []
    records: dict[str, list[str]] = {}
    for fact in sorted(fields):
        m = _RECORD_FIELD.match(fact)
        if m is None or f"of_{m['field']}" not in words or not _has_field(m):
            field = fields[fact]
            read = in_words.get(field or fact) if in_words is not None else None
            parts.append(read if read is not None else open_fact_named(fact, field, lang))
            continue
        key = fact[:m.start("field")]
        if key not in records:
            records[key] = [_record_named(Condition(fact, "", field=fields[fact]), lang, with_path=in_words is None)]
            parts.append(records[key])
        records[key].append(words[f"of_{m['field']}"])
    and_ = f" {label('and', lang)} "

    def listed(words: list[str]) -> str:  # "its share of the capital, its first day and its last day"
        return words[0] if len(words) == 1 else f"{', '.join(words[:-1])}{and_}{words[-1]}"

    return ", ".join(part if isinstance(part, str) else f"{part[0]}: {listed(part[1:])}" for part in parts)


def _after(before: str, words: str, lang: str) -> str:
    """``words`` after ``before`` (a phrase ending in a preposition): in Portuguese the preposition contracted with
    the article the words begin with ("depende de" + "a participação" → "depende da participação")."""
    article, _, rest = words.partition(" ")
    if languages.family(lang) != "pt" or article not in ("o", "a", "os", "as") or not rest:
        return f"{before} {words}"
    head, tail = readings.after_preposition(before + " ", article, rest)
    return head + tail


def alternatives_note(scenario: Scenario, lang: str, argued: bool = False) -> str:
    """What `treaty explain` says of a scenario with facts given as alternatives: it explains the first; ``argued``:
    an outcome that depends on them is argued under each alternative (:class:`Case`)."""
    if not scenario.open_facts:
        return ""
    told = "; ".join(told_value(f.name, f.path, f.show(0), lang) for f in scenario.open_facts)
    note = label("alternatives_note", lang).format(told=told)
    if not argued:
        return note
    head, sep, tail = note.partition("; `")
    return f"{head}{label('alternatives_argued', lang)}{sep}{tail}"


def told_value(name: str, path: tuple[Any, ...], shown: str, lang: str) -> str:
    """An open fact at one of its values: ``holding(a, b).until (`holdings[0].until`) = 2024-06-28``."""
    return f"{open_fact_named(name, field_path(path), lang)} = {named_values(shown, (shown,), value_kind(path), lang)}"


def alternative_text(a: Alternative, lang: str, provisions: bool = True) -> str:
    """``capped at 10% ... if holding(a, b).until is 2026-03-14 or later  (<provision>)`` (without its
    provisions unless ``provisions``)."""
    if a.state is not None and a.outcome is not None:
        head = outcome_text(StateOutcome(a.state, a.outcome, a.max_rate_bp, (), at_most_bp=a.at_most_bp), lang)
    else:
        # a finding that holds for some values only, in words
        head = finding_text(a.finding, lang, with_field=False) if a.finding is not None else a.conclusion
    provs = (f"  ({'; '.join(a.provisions)})" if a.provisions and provisions else "")
    provs += _reconstructed_mark(a.reconstructed, lang) if provisions else ""
    provs += field_note(a.finding, lang) if a.finding else ""
    if a.otherwise:
        return f"{head} {label('otherwise', lang)}{provs}"
    if a.holds_if_any:  # exactly where one of the conjunctions holds: "if A and B, or if C"
        return f"{head} {label('if', lang)} {either_text(a.holds_if_any, lang)}{provs}"
    if not a.holds_if:
        return f"{head} {label('some_combinations', lang)}{provs}"
    some = "" if a.exact else f" ({label('in_some', lang)})"
    return f"{head} {label('if', lang)} {conditions_text(a.holds_if, lang)}{some}{provs}"


def either_text(conjunctions: Sequence[Sequence[Condition]], lang: str) -> str:
    """Where one of ``conjunctions`` holds, in words: ``A and B, or if C``; conjunctions that share a
    condition are said once with it, the rest in parentheses (``kind is X and (fixed is false, or
    business_carried_on is false)``, not ``kind is X and fixed is false, or if kind is X and ...``)."""
    either = f", {label('or', lang)} "

    def group(common: list[Condition], rests: list[list[Condition]]) -> str:
        if not rests:
            return conditions_text(common, lang)
        inner = either.join(conditions_text(r, lang) for r in rests)
        return f"{conditions_text(common, lang)} {label('and', lang)} ({inner})"
    return f"{either}{label('if', lang)} ".join(group(common, rests) for common, rests in _factored(conjunctions))


def _factored(conjunctions: Sequence[Sequence[Condition]]) -> list[tuple[list[Condition], list[list[Condition]]]]:
    """The conjunctions in groups, in their order: each group the conditions its members share and what
    remains of each member (none where the group is one conjunction). A group gathers the conjunctions that
    have the condition of the first one left that most of the others have; one whose rest would be empty is
    left alone (a minimal cover has no conjunction inside another)."""
    remaining = [list(c) for c in conjunctions]
    out: list[tuple[list[Condition], list[list[Condition]]]] = []
    while remaining:
        first, others = remaining[0], remaining[1:]
        best = max(first, key=lambda c: sum(c in other for other in others))
        group = [first, *(other for other in others if best in other)]
        common = [c for c in first if all(c in member for member in group)]
        rests = [[c for c in member if c not in common] for member in group]
        if len(group) == 1 or not all(rests):
            out.append((first, []))
            remaining = others
            continue
        out.append((common, rests))
        remaining = [member for member in remaining if member not in group]
    return out


def conditions_text(holds_if: Sequence[Condition], lang: str, if_clause: bool = True) -> str:
    """``the holding of a in b (`holdings[0]`) began on 2024-03-31 or earlier and is 25% or more of the capital
    and persons.c.partnership is false``: values of open facts in words, each fact with where the scenario states
    it (:func:`open_fact_named`); the fields of one record (a holding, a stay, a place of business) said together,
    after the record (:func:`_record_phrase`). ``if_clause``: the conditions of an "if" (Portuguese's subjunctive:
    "se ... for ..."); False for conditions stated as facts (a rate table's situation)."""
    and_ = f" {label('and', lang)} "
    is_ = label("is_if" if if_clause else "is", lang)
    parts: list[str | list[Condition]] = []
    records: dict[str, list[Condition]] = {}
    for c in holds_if:
        m = _RECORD_FIELD.match(c.fact)
        if m is not None and _record_phrase(c, lang, if_clause) is not None:
            key = c.fact[:m.start("field")]
            if key not in records:
                records[key] = []
                parts.append(records[key])
            records[key].append(c)
        else:
            parts.append(_condition_words(c, lang, if_clause) or f"{open_fact_named(c.fact, c.field, lang)} {is_} "
                         f"{named_values(c.values, c.listed, c.kind, lang)}")
    return and_.join(part if isinstance(part, str) else
                     f"{_record_named(part[0], lang)} "
                     f"{and_.join(_record_phrase(c, lang, if_clause) or '' for c in part)}"
                     for part in parts)


_STATED = {
    "en": {"whether": "whether ", "is": " is ", "true": " is ", "false": " is not ", "true_fact": " is ",
           "false_fact": " is not "},
    "pt": {"whether": "se ", "is": " é ", "true": " for ", "false": " não for ", "true_fact": " é ",
           "false_fact": " não é "},
}
"""A yes-or-no fact read as the question it answers ("whether B is a permanent establishment") said as a condition
on its value: the question's words, the copula for yes or no (Portuguese's subjunctive in an "if": "se B não for
...")."""


def _condition_words(c: Condition, lang: str, if_clause: bool) -> str | None:
    """``c`` in the words of the fact a finding names on its field (:attr:`Condition.named`): a yes or no as the
    statement its question asks ("poa-office is not a permanent establishment"). None for other values, a fact the
    rules read as a noun, or a question's words with no copula to turn: then the condition names the fact and its
    field (a noun's words with a value read worse than the field: "kind (X) is agent")."""
    if c.named is None or c.values not in ("true", "false"):
        return None
    named = rules_fact(c.named) or c.named
    words, stated = fact_text(named, lang), wording(_STATED, lang)
    question = words[len(stated["whether"]):]
    if words != named and words.startswith(stated["whether"]) and stated["is"] in question:
        return question.replace(stated["is"], stated[c.values if if_clause else f"{c.values}_fact"], 1)
    # the input that states it, its words chosen by the value ("the agent X acts in the ordinary course of its
    # business", blind59 R2); a noun's value ("kind (X) is agent", "most favoured nation (X) is true"): by its field
    said = stated_fact(named, c.values == "true", lang)
    if said is None or not if_clause or languages.family(lang) != "pt":
        return said
    return _PT_COPULA.sub(lambda m: f" {_PT_SUBJUNCTIVE[m.group(1)]} ", said, count=1)


_PT_COPULA = re.compile(r" (é|são) ")
_PT_SUBJUNCTIVE = {"é": "for", "são": "forem"}
"""Portuguese's copula in a condition's subjunctive ("se os lucros ... forem imputáveis ..."); other verbs are
said as the reading has them ("se o agente ... atua ...")."""


_RECORD_FIELD = re.compile(r"^(?:holding\((?P<holder>[^,()]+), (?P<company>[^,()]+)\)"
                           r"|presence\((?P<person>[^,()]+), (?P<state>[a-z]{2})\)(?:\[\d+\])?"
                           r"|places_of_business\.(?P<place>[^.\[\]]+)(?:\.periods\[(?P<period>\d+)\])?)"
                           r"\.(?P<field>\w+)$")
"""An open field of a record of the scenario as the answers name it: a holding (``holding(lusoinvest,
alfa).from``), a stay (``presence(ana, br)[1].until``), a place of business or one of its periods
(``places_of_business.site.periods[0].until``)."""

_RECORD_WORDS = {
    "en": {"holding": "the holding of {holder} in {company}", "presence": "the stay of {person} in {state}",
           "place": "the place of business {place}", "period": "period {n} of the place of business {place}",
           "from": "began on {v}", "until": "ends on {v}",
           "until_none": "continues", "capital": "is {v} of the capital", "votes": "is {v} of the voting rights",
           "value": "is {v} of the value of the shares", "profits": "is {v} of the participation in the profits",
           "direct_true": "is direct", "direct_false": "is indirect", "a_day": "a day {v}",
           "of_from": "its first day", "of_until": "its last day", "of_capital": "its share of the capital",
           "of_votes": "its share of the voting rights", "of_value": "its share of the value of the shares",
           "of_profits": "its share of the participation in the profits", "of_direct": "whether it is direct",
           "or_earlier": "or earlier", "or_later": "or later"},
    "pt": {"holding": "a participação de {holder} em {company}", "presence": "a permanência de {person} em {state}",
           "place": "o local de negócios {place}", "period": "o período {n} do local de negócios {place}",
           "from": "começou em {v}", "until": "termina em {v}",
           "until_none": "continua", "capital": "é de {v} do capital", "votes": "é de {v} dos direitos de voto",
           "value": "é de {v} do valor das ações", "profits": "é de {v} da participação nos lucros",
           "direct_true": "é direta", "direct_false": "é indireta", "a_day": "um dia {v}",
           "of_from": "o primeiro dia", "of_until": "o último dia", "of_capital": "a parcela do capital",
           "of_votes": "a parcela dos direitos de voto", "of_value": "a parcela do valor das ações",
           "of_profits": "a parcela da participação nos lucros", "of_direct": "se é direta",
           "or_earlier": "ou antes", "or_later": "ou depois"},
    "pt-if": {"from": "tiver começado em {v}", "until": "terminar em {v}", "until_none": "continuar",
              "capital": "for de {v} do capital", "votes": "for de {v} dos direitos de voto",
              "value": "for de {v} do valor das ações", "profits": "for de {v} da participação nos lucros",
              "direct_true": "for direta", "direct_false": "for indireta", "or_earlier": "ou antes",
              "or_later": "ou depois"},
}
"""The open fields of a record in words (the scenario format's ``holdings``, ``presence`` and
``places_of_business``, :doc:`scenario-format`): the record, what each field's values say of it, and each field
as a noun (what an outcome depends on). A stay and a place of business are said by their first and last days
only. ``pt-if``: Portuguese's forms in a condition ("se a participação ... tiver começado em 15/03/2022 ou antes e
for de 25% ou mais do capital"), over ``pt``'s."""

def _record_words(lang: str, if_clause: bool) -> dict[str, str]:
    """:data:`_RECORD_WORDS` in ``lang``, with a condition's forms (``pt-if``) where ``if_clause`` asks for them."""
    words = wording(_RECORD_WORDS, lang)
    mood = f"{languages.family(lang)}-if"
    return {**words, **_RECORD_WORDS[mood]} if if_clause and mood in _RECORD_WORDS else words


_DATES_ONLY = ("from", "until")
"""The fields of a stay and of a place of business said in words (the others as facts)."""

_SHARES = ("capital", "votes")
"""The fields of a holding that are percentages: a figure the scenario wrote bare (a range ``between: [10, 30]``)
is said with its sign, as the thresholds are ("19% or less of the capital", blind58 R2)."""

_BARE_FIGURE = re.compile(r"(?<![\d.,%])(\d+(?:\.\d+)?)(?![\d.%])")


def _has_field(m: re.Match[str]) -> bool:
    return m["holder"] is not None or m["field"] in _DATES_ONLY


def _record_phrase(c: Condition, lang: str, if_clause: bool = False) -> str | None:
    """What ``c``'s values say of its record ("began on 2022-03-15 or earlier", "is 25% or more of the capital");
    None for a field without words or values said otherwise (then the condition is said as a fact). ``if_clause``:
    in a condition's mood where the language has one (Portuguese's subjunctive: "tiver começado em ...")."""
    m = _RECORD_FIELD.match(c.fact)
    words = _record_words(lang, if_clause)
    if m is None or not _has_field(m):
        return None
    name, shown = m["field"], c.listed[0] if len(c.listed) == 1 else (c.values if not c.listed else None)
    if shown is None:
        return None
    if name == "direct":
        return words.get(f"direct_{shown}")
    if name == "until" and shown == "not stated":
        return words["until_none"]
    if f"of_{name}" not in words or "not stated" in shown:
        return None
    if name in _SHARES:
        shown = _BARE_FIGURE.sub(r"\1%", shown)
    if name in _DATES_ONLY:  # a date's bound as a day is said ("ou antes" in a Portuguese condition)
        shown = re.sub(r"\bor (earlier|later)\b", lambda b: words[f"or_{b[1]}"], shown)
    values = values_text(shown, lang)
    if shown.startswith("from ") and name in _DATES_ONLY:
        values = words["a_day"].format(v=values)
    return words[name].format(v=values)


def _record_named(c: Condition, lang: str, with_path: bool = True) -> str:
    """The record of ``c`` in words (its holder and company, its person and State, its place), with where the
    scenario states it (the field's path without the field) unless not ``with_path``."""
    m = _RECORD_FIELD.match(c.fact)
    assert m is not None
    words = wording(_RECORD_WORDS, lang)
    if m["holder"] is not None:
        record = words["holding"].format(holder=m["holder"], company=m["company"])
    elif m["person"] is not None:
        record = with_state(words["presence"].format(person=m["person"], state="{state}"), "state", m["state"], lang)
    elif m["period"] is not None:
        record = words["period"].format(n=int(m["period"]) + 1, place=m["place"])
    else:
        record = words["place"].format(place=m["place"])
    path = c.field if c.field is not None else c.fact
    if not with_path or not path.endswith("." + m["field"]):
        return record
    return f"{record} (`{field_text(path[:-len(m['field']) - 1], lang)}`)"


def open_fact_named(fact: str, field: str | None, lang: str) -> str:
    """An open fact as the answers name it, followed by the scenario field that states it as the user writes it
    where that is not its name already: ``income(div).entitlement.substantial (`income[0].entitlement.substantial`)``;
    ``persons.ana.habitual_abode`` as it is."""
    if not field or field == fact:
        return fact
    return f"{fact} (`{field_text(field, lang)}`)"


_ASK = {
    "en": {"title": "facts that could change an outcome, most decisive first:", "none": "no open facts: every "
           "outcome is decided on the facts given", "missing": "not given",
           "depends": "given as unknown or as alternatives", "requires_judgment": "a judgment to make",
           "assumption": "not given: its documented default was assumed",
           "items": "item(s)", "field": "state it in",
           "unfinished": "no open fact was found before the time limit (the search did not end)"},
    "pt": {"title": "fatos que podem alterar um resultado, os mais decisivos primeiro:", "none": "nenhum fato em "
           "aberto: todos os resultados estão decididos com os fatos informados", "missing": "não informado",
           "depends": "informado como desconhecido ou por alternativas", "requires_judgment": "uma avaliação a fazer",
           "assumption": "não informado: presumido o valor padrão documentado",
           "items": "rendimento(s)", "field": "informe-o em",
           "unfinished": "nenhum fato em aberto encontrado antes do tempo limite (a busca não terminou)"},
    "pt-PT": {"title": "factos que podem alterar um resultado, os mais decisivos primeiro:", "none": "nenhum facto "
              "em aberto: todos os resultados estão decididos com os factos dados", "missing": "não indicado",
              "depends": "indicado como desconhecido ou por alternativas", "requires_judgment": "um juízo a fazer",
              "assumption": "não indicado: presumido o valor por omissão documentado", "field": "indique-o em",
              "unfinished": "nenhum facto em aberto encontrado antes do tempo limite (a pesquisa não terminou)"},
}


def ask_text(result: ScenarioResult, lang: str, scenario: Scenario | None = None) -> str:
    """`treaty check --ask`: the open facts of a scenario, ranked (:meth:`ScenarioResult.open_questions`), each
    with the scenario field that states it where the rules name one."""
    words = wording(_ASK, lang)
    rows = result.open_questions()
    head = incomplete_line(result.incomplete, lang)
    if not rows:
        return "\n".join([*head, f"{result.source}: {words['unfinished' if head else 'none']}"]) + "\n"
    lines = [*head, f"{result.source}: {words['title']}"]
    for n, (kind, fact, provs, items) in enumerate(rows, 1):
        path = fact_path(fact, items, scenario)
        count = formats.number(len(items), lang)
        lines.append(f"  {n}. {fact_text(fact, lang)} — {words[kind]} ({provs}); {count} {words['items']}: "
                     f"{', '.join(items)}")
        if path is not None:
            lines.append(f"     {words['field']}: {field_text(path, lang)}")
    return provision_words("\n".join(lines) + "\n", lang)


_MISMATCH = {
    "en": {"mismatch": "{item}: {what}: expected {expected}, got {actual}", "outcome for": "outcome for {state}",
           "no such Contracting State": "no such Contracting State",
           "(not stated in expect)": "(not stated in expect)",
           "no withholding check (no withholding: block)": "no withholding check (no withholding: block)",
           "not tested (no entitlement article reaches it)": "not tested (no entitlement article reaches it)",
           "no relief (no relief: block, or none concluded)": "no relief (no relief: block, or none concluded)",
           "None": "None", "provisions include": "provisions include", "missing facts": "missing facts",
           "assumptions": "assumptions", "alternatives": "alternatives", "withholding finding": "withholding finding",
           "tax due": "tax due", "withholding difference": "withholding difference",
           "withholding reason": "withholding reason", "entitlement provisions": "entitlement provisions",
           "relief State": "relief State", "relief methods": "relief methods",
           "relief not included": "relief not included", "residence": "residence"},
    "pt": {"mismatch": "{item}: {what}: esperado {expected}; obtido {actual}", "outcome for": "resultado para {state}",
           "no such Contracting State": "não é um Estado Contratante",
           "(not stated in expect)": "(não informado em expect)",
           "no withholding check (no withholding: block)": "nenhuma verificação da retenção (sem bloco withholding:)",
           "not tested (no entitlement article reaches it)":
               "não examinado (nenhum artigo sobre o direito aos benefícios o alcança)",
           "no relief (no relief: block, or none concluded)":
               "nenhuma eliminação da dupla tributação (sem bloco relief:, ou nenhuma concluída)",
           "None": "nenhum", "provisions include": "dispositivos incluídos", "missing facts": "fatos ausentes",
           "assumptions": "presunções", "alternatives": "alternativas",
           "withholding finding": "constatação sobre a retenção", "tax due": "imposto devido",
           "withholding difference": "diferença da retenção", "withholding reason": "motivo da retenção",
           "entitlement provisions": "dispositivos do direito aos benefícios",
           "relief State": "Estado que elimina a dupla tributação",
           "relief methods": "métodos de eliminação da dupla tributação",
           "relief not included": "métodos de eliminação não incluídos", "residence": "residência"},
    "pt-PT": {"(not stated in expect)": "(não indicado em expect)", "missing facts": "factos em falta",
              "provisions include": "disposições incluídas",
              "entitlement provisions": "disposições do direito aos benefícios"},
}
"""The words of a difference from the scenario's ``expect:`` block (:func:`mismatch_text`), keyed by the English
``what`` and the English sentences :mod:`pyhelpers.engine.expect` writes for a value it could not compare."""
_MISMATCH_VALUES = {"status": "value", "entitlement": "value", "withholding finding": "value", "withholding": "value",
                    "qualified person": "value", "relief State": "state", "relief": "state", "residence": "state",
                    "maximum source tax": "amount", "tax due": "amount", "withholding difference": "amount",
                    "the Convention's limit": "amount", "creditable tax": "amount", "credit": "amount",
                    "deduction": "amount", "withholding reason": "reason"}
"""How the values of a difference are written, by its ``what`` (an outcome's are its words): a value of the
scenario format in the tool's words (``decided``), a State by its name, an amount as the locale writes it, a
withholding reason as the withholding line words it; the values of any other difference (lists of provisions,
facts, findings) as the ``expect:`` block writes them."""


def _mismatch_what(what: str, lang: str) -> str:
    """The name of what differs (``status``, ``outcome for br``) in ``lang``'s words."""
    words = wording(_MISMATCH, lang)
    if what.startswith("outcome for "):
        return with_state(words["outcome for"], "state", what.removeprefix("outcome for "), lang)
    named = {"status": label("status", lang), "provisions": label("provisions", lang),
             "findings": label("findings", lang), "maximum source tax": label("max_tax", lang),
             "withholding": label("withholding", lang), "entitlement": label("entitlement", lang),
             "qualified person": wording(_ANSWER, lang)["qualified"]}
    relief = wording(_RELIEF, lang)
    named |= {"relief": relief["title"], "the Convention's limit": relief["limit"],
              "creditable tax": relief["creditable"], "credit": relief["credit"], "deduction": relief["deduction"]}
    return named.get(what) or words.get(what, what)


def _mismatch_value(what: str, text: str, lang: str) -> str:
    """One side of a difference in ``lang``'s words (:data:`_MISMATCH_VALUES`)."""
    words = wording(_MISMATCH, lang)
    if text in words:
        return words[text]
    if what.startswith("outcome for "):
        try:
            kind, rate = parse_outcome(text)
        except ValueError:
            return text
        state = what.removeprefix("outcome for ")
        if kind in ("at_most", "undetermined") and rate is not None:
            return outcome_text(StateOutcome(state, "undetermined", None, (), at_most_bp=rate), lang)
        if kind == "may_tax_always":
            return outcome_text(StateOutcome(state, "undetermined", None, (), may_tax_always=True), lang)
        return outcome_text(StateOutcome(state, kind, rate, ()), lang)
    how = _MISMATCH_VALUES.get(what)
    if how == "value":
        return value(text, lang)
    if how == "reason":
        return wording(_COMPLIANCE, lang).get(f"why_{text}", value(text, lang))
    if how == "state":
        return state_name(text, lang) if re.fullmatch(r"[a-z]{2}", text) else value(text, lang)
    if how == "amount":
        try:
            return formats.number(Decimal(text), lang)
        except ArithmeticError:
            return text
    return text


def mismatch_text(m: Mismatch, lang: str) -> str:
    """A difference from the scenario's ``expect:`` block in ``lang``: in English as :class:`Mismatch` writes it
    (``div-2024: status: expected decided, got depends``); in Portuguese with what differs named in its words,
    the statuses and outcomes in theirs (as the result lines write them), a State by its name and an amount in
    the locale's form (``div-2024: situação: esperado decidido; obtido depende``). Provisions, facts and
    findings stay as the ``expect:`` block writes them."""
    if languages.family(lang) == "en":
        return str(m)
    return wording(_MISMATCH, lang)["mismatch"].format(
        item=m.item_id, what=_mismatch_what(m.what, lang), expected=_mismatch_value(m.what, m.expected, lang),
        actual=_mismatch_value(m.what, m.actual, lang))


def _expect_lines(result: ScenarioResult, mismatches: Sequence[Mismatch] | None, lang: str) -> list[str]:
    if mismatches is None:
        return []
    if not mismatches:
        n = len(result.items) + len(result.answers)
        return [label("expect_ok_one" if n == 1 else "expect_ok", lang).format(n=formats.number(n, lang))]
    n = len(mismatches)
    return [label("expect_bad_one" if n == 1 else "expect_bad", lang).format(n=formats.number(n, lang)),
            *(f"  ✗ {mismatch_text(m, lang)}" for m in mismatches)]


def result_json(result: ScenarioResult, lang: str = "en") -> dict[str, Any]:
    """A scenario's result as JSON: ``incomplete`` first (null, or why the answer is incomplete in ``lang``'s
    words), then ``incomplete_reason`` (the same as figures: ``cut``, ``limit_seconds``, ``wall_seconds``,
    ``cpu_seconds``, ``busy``, ``more_slices``, ``slice_items``; null when complete), then the rest."""
    data = result.to_json()
    caveat = readings.treaty_caveat(result.treaty, lang)
    return {"incomplete": incomplete_text(result.incomplete, lang), "incomplete_reason": data.pop("incomplete"),
            **({"caveat": caveat} if caveat else {}), **data}


def check_json(result: ScenarioResult, mismatches: Sequence[Mismatch] | None, lang: str = "en") -> dict[str, Any]:
    data = result_json(result, lang)
    if mismatches is not None:
        data["expect"] = {"matched": not mismatches, "mismatches": [m.__dict__ for m in mismatches]}
    return data


def with_decisive(data: dict[str, Any], result: ScenarioResult, lang: str, decisive: dict[tuple[str, str], str],
                  decisive_cut: bool) -> None:
    """`treaty check --format json`'s document ``data`` of ``result`` with each State's ``decisive`` line (the line the
    text prints under its outcome; null where there is none) and, where the time limit stopped their derivation,
    ``decisive_cut`` in words (as the text says it)."""
    for item in data.get("items", []):
        for state in item.get("states", []):
            line = decisive.get((item.get("item_id"), state.get("state")))
            state["decisive"] = flat_decisive(line) if line is not None else None
    if decisive_cut:
        data["decisive_cut"] = label("decisive_cut", lang).format(source=result.source)


def answer_lines(a: PersonAnswer, lang: str) -> list[str]:
    """A question about a person: its residence and, where asked, whether it is a qualified person."""
    words = wording(_ANSWER, lang)
    where = state_name(a.residence, lang) if a.residence not in words else words[a.residence]
    lines = [f"{a.question}  {words['about'].format(person=a.person, date=formats.date(a.date, lang))}",
             f"  {words['residence']}: {where}"]
    if a.qualified is not None:
        lines.append(f"  {words['qualified']}: {words['q_' + a.qualified]}")
    lines += [f"  - {finding_text(f, lang)}" for f in a.findings]
    lines.append(f"  {label('provisions', lang)}: {'; '.join(a.provisions) or '-'}")
    if a.reconstructed:
        lines.append(f"  {label('reconstructed', lang)}: {'; '.join(a.reconstructed)}")
    return [*lines, ""]


_ANSWER = {
    "en": {"questions": "questions about persons", "about": "(question about {person} on {date})",
           "residence": "resident of",
           "none": "neither Contracting State", "open": "open (a fact it needs is missing or unknown)",
           "mutual_agreement": "to be settled by mutual agreement", "qualified": "qualified person",
           "q_yes": "yes", "q_no": "no (every test failed)", "q_open": "open (a fact it needs is missing or unknown)"},
    "pt": {"questions": "perguntas sobre pessoas", "about": "(pergunta sobre {person} em {date})",
           "residence": "residente de",
           "none": "nenhum Estado Contratante", "open": "em aberto (falta um fato necessário, ou ele é desconhecido)",
           "mutual_agreement": "a ser resolvido por acordo mútuo", "qualified": "pessoa qualificada",
           "q_yes": "sim", "q_no": "não (nenhum teste é atendido)",
           "q_open": "em aberto (falta um fato necessário, ou ele é desconhecido)"},
    "pt-PT": {"open": "em aberto (falta um facto necessário, ou é desconhecido)",
              "mutual_agreement": "a resolver por acordo mútuo", "q_no": "não (nenhum teste se verifica)",
              "q_open": "em aberto (falta um facto necessário, ou é desconhecido)"},
}


def _judged_somewhere(item: ItemResult) -> list[str]:
    """The provisions of a principal purpose question open under some values of the open facts only: a bound
    holds in those cases only if the test grants the benefit (blind56c #2)."""
    return sorted({a.finding.provision for a in item.alternatives
                   if a.state is None and a.finding is not None and a.finding.kind == "requires_judgment"})


def unless_denied_text(e: Entitlement, lang: str) -> str:
    """Under the outcome a principal purpose question still open may change: the other way."""
    return label("unless_denied", lang).format(prov="; ".join(e.provisions))


def entitlement_line(e: Entitlement, lang: str) -> str:
    """``entitlement to the benefits: entitled (<the paragraphs that grant it>)``."""
    return f"{label('entitlement', lang)}: {label(e.status, lang)}  ({'; '.join(e.provisions)})"


def check_markdown(result: ScenarioResult, mismatches: Sequence[Mismatch] | None, lang: str,
                   decisive: dict[tuple[str, str], str] | None = None, decisive_cut: bool = False) -> str:
    states = [s.state for s in result.items[0].states] if result.items else []
    head = [label("item", lang), label("type", lang), label("status", lang), *(state_name(s, lang) for s in states),
            label("provisions", lang)]
    mark = label("incomplete", lang)
    lines = [f"# {mark}: {result.name}" if result.incomplete else f"# {result.name}", ""]
    if result.incomplete:
        lines += [f"> **{mark}**: {incomplete_text(result.incomplete, lang)}", ""]
    evaluated = f"{label('evaluated', lang)} {formats.date(result.evaluation_date, lang)}"
    lines += [f"`{result.source}` — {result.treaty}, {evaluated}", ""]
    if (caveat := caveat_text(result.treaty, lang)) is not None:
        lines += [f"> {caveat}", ""]
    lines += [
              "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for item in result.items:
        cells = [f"`{item.item_id}`", value(item.income_type, lang), value(item.status, lang),
                 *(state_outcome_text(s, item, lang) for s in item.states), "; ".join(item.provisions)]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    options = [(item.item_id, a) for item in result.items for a in item.alternatives if a.state is not None]
    if options:
        lines += ["", f"## {label('turns_on_open', lang)}", ""]
        lines += [f"- `{iid}` {state_name(a.state, lang)}: {alternative_text(a, lang)}".replace("|", "\\|")
                  for iid, a in options if a.state is not None]
    if decisive:
        lines += ["", f"## {wording(_ARGUMENT, lang)['decisive']}", ""]
        for item in result.items:
            for s in item.states:
                if (item.item_id, s.state) not in decisive:
                    continue
                first, *more = sub_lines(decisive[(item.item_id, s.state)])
                lines.append(f"- `{item.item_id}` {state_name(s.state, lang)}: {first}".replace("|", "\\|"))
                lines += [f"  {part[:len(part) - len(part.lstrip())]}- {part.lstrip()}".replace("|", "\\|")
                          for part in more]
    if decisive_cut:
        lines += ["", "> " + label("decisive_cut", lang).format(source=result.source)]
    notes = [(item.item_id, finding_text(f, lang)) for item in result.items
             for f in merged_findings((*item.findings, *item.assumptions))]
    notes += [(item.item_id, f"{label('possibly', lang)} {alternative_text(a, lang)}") for item in result.items
              for a in merged_possibly(item.alternatives)]
    if notes:
        lines += ["", f"## {label('findings', lang)}", ""]
        lines += [f"- `{iid}`: {text}" for iid, text in notes]
    reliefs = [(item.item_id, relief_lines(item.relief, lang)) for item in result.items if item.relief is not None]
    reliefs = [(iid, rl) for iid, rl in reliefs if rl]
    if reliefs:
        lines += ["", f"## {wording(_RELIEF, lang)['title']}", ""]
        for iid, (title, *rest) in reliefs:
            lines.append(f"- `{iid}`: {title}")
            lines += [f"  - {x}" for x in rest]
    if result.answers:
        lines += ["", f"## {wording(_ANSWER, lang)['questions']}", ""]
        for a in result.answers:
            lines += [f"- {x}" if n == 0 else f"  - {x.strip()}" for n, x in enumerate(answer_lines(a, lang)) if x]
    entitlements = [(item.item_id, entitlement_line(item.entitlement, lang)) for item in result.items
                    if item.entitlement is not None]
    if entitlements:
        lines += ["", f"## {label('entitlement', lang)}", ""]
        lines += [f"- `{iid}`: {text}" for iid, text in entitlements]
    withholding = [(item.item_id, compliance_line(item.compliance, lang)) for item in result.items
                   if item.compliance is not None]
    if withholding:
        lines += ["", f"## {label('withholding', lang)}", ""]
        lines += [f"- `{iid}`: {text}" for iid, text in withholding]
    for given, heading in ((True, "unknown_facts"), (False, "not_given_facts_cut" if result.incomplete else
                                                     "not_given_facts")):
        shown = [u for u in result.unknowns if u.given == given]
        if shown:
            lines += ["", f"## {label(heading, lang)}", ""]
            lines += [f"- {unknown_fact_text(u, lang)}" for u in shown]
    exp = _expect_lines(result, mismatches, lang)
    if exp:
        lines += ["", *exp]
    return provision_words("\n".join(lines) + "\n", lang, keep=(lines[0],))


def to_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False) + "\n"


# ---------------------------------------------------------------------------------- list, show ---
_CATALOGUE = {
    "en": {"encoded": "encoded", "pending": "pending", "missing": "missing", "procedural": "procedural",
           "note": "note", "source": "source", "rule": "rule", "article_encoded": "encoded",
           "article_pending": "pending", "article_missing": "missing", "article_procedural": "procedural",
           "missing_text": "{prov} is not encoded: text not available",
           "procedural_text": "{prov} is procedural and not encoded: {reason}",
           "pending_text": "{prov} is in the corpus but not encoded yet", "protocol": readings.word("protocol", "en")},
    "pt": {"encoded": "codificados", "pending": "pendentes", "missing": "ausentes", "procedural": "procedimentais",
           "note": "nota", "source": "fonte", "rule": "regra", "article_encoded": "codificado",
           "article_pending": "pendente", "article_missing": "ausente", "article_procedural": "procedimental",
           "missing_text": "o {prov} não está codificado: texto não disponível",
           "procedural_text": "o {prov} é procedimental e não está codificado: {reason}",
           "pending_text": "o {prov} está no corpus mas ainda não foi codificado",
           "protocol": readings.word("protocol", "pt")},
    "pt-PT": {"missing": "em falta", "article_missing": "em falta"},
}
"""The words of `treaty list` and `treaty show`: an article's status, its notes, a rule's label."""


def catalogue_word(key: str, lang: str) -> str:
    return wording(_CATALOGUE, lang)[key]


def provision_words(text: str, lang: str, keep: Sequence[str] = ()) -> str:
    """Human-readable text in ``lang`` with each Protocol item it cites in ``lang``'s word
    (:func:`pyhelpers.explain.readings.provision_text`: ``xx-yy Protocolo 9``), but in the lines of ``keep``
    (the scenario's own name)."""
    if languages.family(lang) == "en":
        return text
    return "\n".join(line if line in keep else readings.provision_text(line, lang) for line in text.split("\n"))


def partner_name(treaty: str, lang: str) -> str | None:
    """The partner State of ``treaty`` as `treaty list` heads it in Portuguese, ``Name (code)`` from the
    catalogue's ``state_name`` facts; None in English, where the treaty file's ``Partner:`` line is shown."""
    if languages.family(lang) == "en":
        return None
    cat = catalogue()
    code = next((st for st in cat.states.get(treaty, ()) if st != cat.home), None)
    return f"{state_name(code, lang)} ({code})" if code else None


# ------------------------------------------------------------------------------------------ batch ---
_SHORT = {
    "en": {"exclusive": "exclusive", "capped": "capped {rate}", "may_tax": "may tax", "exempt": "exempt",
           "not_applicable": "not applicable", "mutual_agreement": "mutual agreement", "pending": "pending",
           "not_encoded": "not encoded", "undetermined": "undetermined", "benefits_denied": "benefits denied",
           "at_most": "capped {rate} at most", "cap_at_most": "{rate} at most",
           "may_tax_always": "may tax in every case"},
    "pt": {"exclusive": "exclusivo", "capped": "limitado a {rate}", "may_tax": "pode tributar", "exempt": "isento",
           "not_applicable": "não aplicável", "mutual_agreement": "comum acordo", "pending": "pendente",
           "not_encoded": "não codificado", "undetermined": "indeterminado", "benefits_denied": "benefícios negados",
           "at_most": "limitado a {rate} no máximo", "cap_at_most": "{rate} no máximo",
           "may_tax_always": "pode tributar em qualquer caso"},
    "pt-PT": {"benefits_denied": "benefícios recusados"},
}
"""A State's outcome in a few words (the report's summary, the batch's outcome cells in Portuguese)."""


def short_word(key: str, lang: str) -> str:
    return wording(_SHORT, lang)[key]


def short_outcome(o: StateOutcome, lang: str) -> str:
    """``capped 10%``, ``may tax`` ...; in Portuguese ``limitado a 10%``, ``pode tributar`` ...; an outcome that
    turns on missing facts with the bound every way they may go keeps: ``capped 15% at most``; one that lets the
    State tax whatever they are: ``may tax in every case``."""
    words = wording(_SHORT, lang)
    if o.outcome == "undetermined" and o.at_most_bp is not None:
        return words["at_most"].format(rate=formats.percent_bp(o.at_most_bp, lang))
    if o.outcome == "undetermined" and o.may_tax_always:
        return words["may_tax_always"]
    text = words.get(o.outcome, o.outcome.replace("_", " "))
    return text.format(rate=formats.percent_bp(o.max_rate_bp, lang) if o.max_rate_bp is not None else "?")


_BATCH_CELL = {
    "en": {"at_most": "at most {rate}", "in_scenario": "in the scenario"},
    "pt": {"at_most": "no máximo {rate}", "in_scenario": "no cenário",
           "missing": "ausente", "depends": "depende", "not_needed": "desnecessário",
           "requires_judgment": "exige avaliação", "text_open": "questão em aberto", "pending": "pendente",
           "not_encoded": "não codificado", "mutual_agreement": "acordo mútuo", "exception": "exceção",
           "input_error": "erro nos dados", "note": "nota", "deadline": "prazo", "relief": "eliminação",
           "discrimination": "discriminação", "indicator": "indício", "time_limit": "tempo limite",
           "assumption": "presumido"},
    "pt-PT": {"missing": "em falta", "requires_judgment": "exige um juízo", "mutual_agreement": "comum acordo"},
}
"""The words of the batch's cells for people that follow ``--lang`` (``outcome_br``, ``outcome_partner``, ``cap``,
``findings``); English writes them as the machine columns beside them do (``outcome_br_code``, ``findings_code``):
the same bytes as before those columns were added. A finding's kind in Portuguese (English keeps the code)."""


def batch_outcome_cell(o: StateOutcome, lang: str) -> str:
    """A State's outcome in a batch row's text column: English as the ``expect:`` block writes it (``capped 10%``,
    ``capped at most 15%``, ``may tax``: the ``_code`` column's bytes); Portuguese in words (``limitado a 10%``,
    ``limitado a 15% no máximo``, ``pode tributar``), numbers as the locale writes them."""
    if languages.family(lang) == "en":
        return o.label
    return short_outcome(o, lang)


def batch_cap_cell(bp: int | None, at_most_bp: int | None, lang: str) -> str:
    """The ``cap`` cell: the cap (``10%``, ``12,5%`` in Portuguese), or the highest it may be whatever the missing
    facts (``at most 15%``, ``no máximo 15%``); empty where neither is known."""
    if bp is not None:
        return formats.percent_bp(bp, lang)
    if at_most_bp is not None:
        return wording(_BATCH_CELL, lang)["at_most"].format(rate=formats.percent_bp(at_most_bp, lang))
    return ""


def batch_findings_cell(findings: Sequence[Finding], lang: str) -> str:
    """A row's findings in one cell for people, in ``lang``: each as ``kind: fact (provision) [in the scenario:
    field]`` (English: the bytes of the ``findings_code`` column), in Portuguese the kind in words, a Protocol item
    cited as ``Protocolo`` and the field in the words the answers use, in backquotes as they write it
    (```holdings (um registro de a em b)```); the fact is the rules' atom in every language."""
    words = wording(_BATCH_CELL, lang)
    english = languages.family(lang) == "en"
    out = []
    for f in findings:
        kind = f.kind if english else words.get(f.kind, value(f.kind, lang))
        prov = f.provision if english else readings.provision_text(f.provision, lang)
        text = f"{kind}: {f.fact + ' ' if f.fact else ''}({prov})"
        if f.field:
            text += f" [{words['in_scenario']}: {f.field if english else '`' + field_text(f.field, lang) + '`'}]"
        out.append(text)
    return "; ".join(out)


_BATCH = {
    "en": {"summary": "{out}: {rows} rows in {s} s ({rate} rows/s): {statuses}{resumed}{redone}",
           "no_rows": "no rows", "chunks": "chunk(s)", "partitions": "partition(s)",
           "resumed": "; {n} {unit} from the interrupted run", "redone": "; {n} torn chunk(s) decided again",
           "nothing_dask": "{out}: nothing to resume: its manifest is complete; run without --resume to decide the "
                           "ledger again",
           "nothing": "{out}: nothing to resume: there is no interrupted run ({out}.parts) and {out} is there, so "
                      "the run had finished; run without --resume to decide the ledger again",
           "interrupted": "interrupted: the chunks already decided are kept in {parts}; run the same command with "
                          "--resume to continue",
           "interrupted_early": "interrupted before any chunk was written: run the command again"},
    "pt": {"summary": "{out}: {rows} linhas em {s} s ({rate} linhas/s): {statuses}{resumed}{redone}",
           "no_rows": "nenhuma linha", "chunks": "bloco(s)", "partitions": "partição(ões)",
           "resumed": "; {n} {unit} da execução interrompida", "redone": "; {n} bloco(s) corrompido(s) decidido(s) "
                                                                        "de novo",
           "nothing_dask": "{out}: nada a retomar: seu manifesto está completo; execute sem --resume para decidir o "
                           "razão de novo",
           "nothing": "{out}: nada a retomar: não há execução interrompida ({out}.parts) e {out} existe, então a "
                      "execução terminou; execute sem --resume para decidir o razão de novo",
           "interrupted": "interrompido: os blocos já decididos ficam em {parts}; execute o mesmo comando com "
                          "--resume para continuar",
           "interrupted_early": "interrompido antes de qualquer bloco ser gravado: execute o comando de novo"},
}
"""The words ``treaty batch`` prints on stderr (its summary, its notes on --resume and Ctrl-C); the statuses
counted are named as `treaty check` names an item's status (the output's ``status`` column keeps the value)."""


def batch_word(key: str, lang: str) -> str:
    return wording(_BATCH, lang)[key]


def batch_summary(out: str, rows: int, seconds: float, by_status: Mapping[str, int], resumed: int, redone: int,
                  dask: bool, lang: str) -> str:
    """``treaty batch``'s closing line: rows, time, rows per second, rows by status, chunks resumed or redone."""
    w = wording(_BATCH, lang)
    statuses = ", ".join(f"{value(k, lang)} {formats.number(Decimal(v), lang)}" for k, v in sorted(by_status.items()))
    unit = w["partitions" if dask else "chunks"]
    return w["summary"].format(
        out=out, rows=formats.number(Decimal(rows), lang), s=formats.number(Decimal(f"{seconds:.1f}"), lang),
        rate=formats.number(Decimal(round(rows / max(seconds, 1e-9))), lang), statuses=statuses or w["no_rows"],
        resumed=w["resumed"].format(n=formats.number(resumed, lang), unit=unit) if resumed else "",
        redone=w["redone"].format(n=formats.number(redone, lang)) if redone else "")


_REPORT = {
    "en": {"summary": "{out}: {n} scenario(s), {items} item(s), {size} bytes, {drawn}, {s} s",
           "dot": "graphs drawn by Graphviz",
           "trees": "derivations as indented trees (Graphviz's dot not found or failed)"},
    "pt": {"summary": "{out}: {n} cenário(s), {items} item(ns), {size} bytes, {drawn}, {s} s",
           "dot": "grafos desenhados pelo Graphviz",
           "trees": "derivações como árvores indentadas (o dot do Graphviz não foi encontrado ou falhou)"},
    "pt-PT": {"trees": "derivações como árvores indentadas (o dot do Graphviz não foi encontrado ou falhou)"},
}
"""The closing line ``treaty report`` prints: what it wrote and how the graphs were drawn."""


def report_summary(out: str, scenarios: int, items: int, size: int, drawn: bool, seconds: float, lang: str) -> str:
    """``treaty report``'s closing line, in ``lang``, its counts grouped as the language writes them."""
    w = wording(_REPORT, lang)
    return w["summary"].format(out=out, n=formats.number(scenarios, lang), items=formats.number(items, lang),
                               size=formats.number(size, lang), drawn=w["dot" if drawn else "trees"],
                               s=formats.number(Decimal(f"{seconds:.1f}"), lang))


_PROGRESS = {
    "en": {"files": "files", "items": "items", "scenarios": "scenarios", "mutants": "mutants", "rows": "rows",
           "rate": "{rate} rows/s"},
    "pt": {"files": "arquivos", "items": "itens", "scenarios": "cenários", "mutants": "mutantes", "rows": "linhas",
           "rate": "{rate} linhas/s"},
    "pt-PT": {"files": "ficheiros"},
}
"""The words of the progress bars the long commands show on a terminal (:mod:`pyhelpers.interfaces.progress`):
the unit of the work counted, and ``treaty batch``'s rows per second."""


def progress_word(key: str, lang: str) -> str:
    return wording(_PROGRESS, lang)[key]


# ------------------------------------------------------------------------------------- explain ---
_FLAGS = {"pt": {"bookkeeping": "cálculo interno", "reconstructed": "reconstituído"}}
"""The rule flags a step of the full derivation shows, in Portuguese (English shows them as written)."""


def _step_line(step: Step, lang: str = "en") -> str:
    cite = f" [{step.provision}]" if step.provision else ""
    rule = f" ‹{step.rule_id}›" if step.rule_id and step.kind in ("derived", "failed") else ""
    words = _FLAGS.get(languages.family(lang), {})
    flags = f" ({', '.join(words.get(f, f) for f in step.flags)})" if step.flags else ""
    note = f" — {step.note}" if step.note else ""
    mark = {"derived": "", "ref": "↑ ", "given": "• ", "static": "• ", "not": "¬ ", "test": "⊢ ",
            "aggregate": "Σ ", "failed": "✗ ", "unknown": "? "}.get(step.kind, "")
    return f"{mark}{step.reading}{cite}{flags}{rule}{note}"


def tree_text(step: Step, indent: int = 0, lang: str = "en") -> list[str]:
    lines = ["  " * indent + _step_line(step, lang)]
    for child in step.children:
        lines += tree_text(child, indent + 1, lang)
    return lines


def tree_markdown(step: Step, indent: int = 0, lang: str = "en") -> list[str]:
    lines = ["  " * indent + "- " + _step_line(step, lang).replace("|", "\\|")]
    for child in step.children:
        lines += tree_markdown(child, indent + 1, lang)
    return lines


def explain_text(sections: list[tuple[str, list[Step]]], lang: str = "en") -> str:
    out: list[str] = []
    for title, steps in sections:
        out.append(title)
        for st in steps:
            out += tree_text(st, 1, lang)
        out.append("")
    return provision_words("\n".join(out).rstrip() + "\n", lang)


def explain_markdown(sections: list[tuple[str, list[Step]]], lang: str = "en") -> str:
    out: list[str] = []
    for title, steps in sections:
        out += [f"## {title}", ""]
        for st in steps:
            out += tree_markdown(st, lang=lang)
        out.append("")
    return provision_words("\n".join(out).rstrip() + "\n", lang)


def explain_json(sections: list[tuple[str, list[Step]]]) -> list[dict[str, Any]]:
    return [{"title": title, "steps": [s.to_dict() for s in steps]} for title, steps in sections]


# --------------------------------------------------------------------------------------- whatif ---
_WHATIF = {
    "en": {"goal": "goal", "considered": "facts that may change", "already": "the goal already holds on the facts "
           "as stated: no change needed", "smallest": "smallest change: {n} fact(s); {k} way(s)",
           "none": "no change of the facts that may change makes the goal hold; why not, on the facts as stated:",
           "certain": "the goal then holds whatever the unknown facts",
           "possible": "the goal then holds only for some values of the unknown facts",
           "incomplete": "INCOMPLETE", "nothing": "(none: mark facts {value: X, changeable: [...]})",
           "unfinished": "no change that makes the goal hold was found before the time limit",
           "change": "{fact}: {before} -> {after}"},
    "pt": {"goal": "objetivo", "considered": "fatos que podem mudar", "already": "o objetivo já é atingido com os "
           "fatos informados: nenhuma alteração necessária", "smallest": "menor alteração: {n} fato(s); {k} "
           "forma(s)", "none": "nenhuma alteração dos fatos que podem mudar atinge o objetivo; por que não, com os "
           "fatos informados:", "certain": "o objetivo é então atingido quaisquer que sejam os fatos desconhecidos",
           "possible": "o objetivo é então atingido só para certos valores dos fatos desconhecidos",
           "incomplete": "INCOMPLETO", "nothing": "(nenhum: marque fatos {value: X, changeable: [...]})",
           "unfinished": "nenhuma alteração que atinja o objetivo foi encontrada antes do tempo limite",
           "change": "{fact}: {before} → {after}"},
    "pt-PT": {"considered": "factos que podem mudar", "already": "o objetivo já se verifica com os factos "
              "indicados: nenhuma alteração necessária", "smallest": "menor alteração: {n} facto(s); {k} forma(s)",
              "none": "nenhuma alteração dos factos que podem mudar atinge o objetivo; porque não, com os factos "
              "indicados:", "certain": "o objetivo verifica-se então quaisquer que sejam os factos desconhecidos",
              "possible": "o objetivo verifica-se então só para certos valores dos factos desconhecidos",
              "nothing": "(nenhum: marque factos {value: X, changeable: [...]})"},
}


def _whatif_value(text: str, lang: str) -> str:
    """A value whatif may give a fact, as :func:`pyhelpers.scenario.openfacts.show_value` writes it: a value of
    the scenario format in ``lang``'s words, a number, percentage or date as the locale writes it (``24,9``)."""
    if languages.family(lang) != "en" and re.fullmatch(r"[a-z][a-z0-9_]*", text) and text not in ("true", "false"):
        return value(text, lang)
    return values_text(text, lang)


def _with_path(fact: str, field: str) -> str:
    """A fact whatif names by the rules' name, with where the scenario states it: ``holding(a, b).capital
    (`holdings[0].capital`)`` (the name alone where the path is the same or not known)."""
    return f"{fact} (`{field}`)" if field and field != fact else fact


def _considered_text(considered: str, field: str, lang: str) -> str:
    """A fact whatif may change and its values (``holding(a, b).capital: 24.9, 25%``) in ``lang``, with where the
    scenario states it (``field``: :func:`_with_path`): each value as :func:`_whatif_value` writes it, set apart
    by ``;`` where the locale's decimal mark is a comma."""
    fact, sep, values = considered.partition(": ")
    if not sep:
        return considered
    if languages.family(lang) == "en":
        return f"{_with_path(fact, field)}: {values}"
    return f"{_with_path(fact, field)}: " + "; ".join(_whatif_value(v, lang) for v in values.split(", "))


def whatif_text(w: WhatIf, blocked: Sequence[Step], items: Sequence[str] | None, lang: str,
                why_not: WhyNot | None = None) -> str:
    """`treaty whatif`: the smallest changes, each with the outcome of the goal's item(s); with none, why the
    goal fails on the scenario as stated: ``why_not``'s lines, one per rule that could have given it (as
    `treaty explain --why-not` prints them), or, without it (``--full``), the whole analysis ``blocked``."""
    words = wording(_WHATIF, lang)
    lines = [*incomplete_line(w.incomplete, lang), f"{words['goal']}: {w.goal}", f"{words['considered']}:"]
    fields = w.fields or ("",) * len(w.considered)
    lines += [f"  {_considered_text(c, f, lang)}" for c, f in zip(w.considered, fields, strict=True)] or \
        [f"  {words['nothing']}"]
    lines.append("")
    if w.holds_already:
        lines.append(words["already"])
    elif w.solutions:
        lines.append(words["smallest"].format(n=formats.number(len(w.solutions[0].changes), lang),
                                                k=formats.number(len(w.solutions), lang)))
        for n, sol in enumerate(w.solutions, 1):
            lines.append(f"  {n}. " + "; ".join(
                words["change"].format(fact=_with_path(c.fact, c.field), before=_whatif_value(c.before, lang),
                                       after=_whatif_value(c.after, lang)) for c in sol.changes))
            for item in sol.result.items:
                if items and item.item_id not in items:
                    continue
                for s in item.states:
                    provs = f"  ({'; '.join(s.provisions)})" if s.provisions else ""
                    lines.append(f"     {item.item_id}: {state_name(s.state, lang)}: {outcome_text(s, lang)}{provs}")
                lines += [f"     {item.item_id}: {alternative_text(a, lang)}" for a in item.alternatives]
            lines.append(f"     {words['certain' if sol.certain else 'possible']}")
    elif w.no_solution:
        lines.append(words["none"])
        if why_not is not None:
            lines += ["  " + why_not_line(ln, lang) for ln in why_not.lines] or [f"  {label('no_rule', lang)}"]
            for arg in why_not.arguments:  # what holds instead, with the provisions that give it
                lines += ["  " + arg.reading, *("    " + argument_line(ln) for ln in arg.lines)]
        else:
            for st in blocked:
                lines += tree_text(st, 1, lang)
    else:  # stopped by the time limit before any change was found: not "no change can"
        lines.append(words["unfinished"])
    return provision_words("\n".join(lines).rstrip() + "\n", lang, keep=(f"{words['goal']}: {w.goal}",))


def whatif_json(w: WhatIf, blocked: Sequence[Step], source: str | None = None, lang: str = "en",
                why_not: WhyNot | None = None) -> dict[str, Any]:
    """`treaty whatif --format json`: ``incomplete`` first (null, or why the search was cut short, in ``lang``'s
    words) and ``incomplete_reason`` (the same as figures, :func:`result_json`); ``no_solution``: the search
    ended and no change reaches the goal; then why not on the facts as stated: ``argument``, the answer
    `treaty explain --why-not --format json` gives (:func:`why_not_json`; null where none is needed), and
    ``blocked``, the whole analysis."""
    return {
        "incomplete": incomplete_text(w.incomplete, lang),
        "incomplete_reason": None if w.incomplete is None else w.incomplete.to_json(),
        **({"source": source} if source is not None else {}),
        "goal": w.goal, "considered": list(w.considered), "considered_fields": list(w.fields),
        "holds_already": w.holds_already,
        "solutions": [{"changes": [c.__dict__ for c in s.changes], "certain": s.certain,
                       "result": result_json(s.result, lang)} for s in w.solutions],
        "no_solution": w.no_solution,
        "argument": why_not_json([why_not], lang)[0] if why_not is not None else None,
        "blocked": [s.to_dict() for s in blocked],
    }


# ------------------------------------------------------------------------------- the argument ---
_ARGUMENT = {"en": {"decisive": "decisive provision of each outcome",
                    "would": "{prov} would conclude that {reading}, but: {reason}",
                    "would_rules": "the rules would conclude that {reading}, but: {reason}",
                    "fails": "one of its conditions does not hold"},
             "pt": {"decisive": "dispositivo decisivo de cada resultado",
                    "would": "o {prov} concluiria que {reading}, mas: {reason}",
                    "would_rules": "as regras concluiriam que {reading}, mas: {reason}",
                    "fails": "uma das suas condições não se verifica"},
             "pt-PT": {"decisive": "disposição decisiva de cada resultado"}}


def argument_heading(arg: Argument, item: ItemResult | None, lang: str) -> str:
    """``Brazil: may tax, capped at 10% of the gross amount`` for a State's outcome (as `treaty check`
    words it, what it depends on where it turns on unknown facts), the conclusion's reading otherwise."""
    if arg.state is not None:
        outcome = next((s for s in item.states if s.state == arg.state), None) if item is not None else None
        open_ = item is not None and any(a.state == arg.state for a in item.alternatives)
        if item is None or outcome is None or (outcome.outcome != arg.outcome and not open_):
            outcome = StateOutcome(arg.state, arg.outcome or "", None, ())
            text = outcome_text(outcome, lang, item.date if item is not None else None,
                                cap_base(item) if item is not None else None)
        else:
            text = state_outcome_text(outcome, item, lang)
        return f"{state_name(arg.state, lang)}: {text}"
    if arg.finding is not None and arg.finding.kind == "not_needed":  # as `treaty check` reports it (_as_checked)
        return finding_text(arg.finding, lang)
    if arg.name == "not_encoded" and arg.provision is not None and " " not in arg.provision:
        app = item is not None and any(f.gap == APPLICATION for f in item.findings if f.provision == arg.provision)
        return label("no_application" if app else "no_article", lang).format(prov=arg.provision)  # the treaty
        # itself, as `treaty check` says
    return arg.reading + (field_note(arg.finding, lang) if arg.finding is not None else "")


_ARTICLES_BEFORE_PROVISION = ("", "o ", "a ")
"""What may stand before a provision that opens a reading: nothing (English), or a Portuguese article."""


def names_provision(line: Line) -> bool:
    """Whether the line's reading opens with its provision as its subject ("<provision> is not encoded", "o
    <provision> precisa de ..."): the line then names it once, by the reading."""
    shown = {readings.provision_text(line.provision, lang) for lang in languages.LANGS}  # as the reading cites it
    return any(line.reading.startswith(f"{article}{prov} ") for article in _ARTICLES_BEFORE_PROVISION
               for prov in shown)


def argument_line(line: Line) -> str:
    """``<provision>: <reading> — <fact>; <fact>`` (``<reading> — ...`` where the reading opens with the
    provision) or ``<provision> does not apply (<exception>): <why>``."""
    facts = "; ".join(line.figures)
    if line.kind in ("exception", "not_met", "open"):
        return f"{marked(line.reading, line)}: {facts}" if facts else marked(line.reading, line)
    head = marked(line.reading, line) if names_provision(line) else f"{marked(line.provision, line)}: {line.reading}"
    return head + (f" — {facts}" if facts else "")


def marked(text: str, line: Line) -> str:
    """``text`` with the line's mark of a reconstructed provision (:attr:`Line.mark`) after the first place it cites
    the line's provision ("<provision> (reconstructed) not met: ..."); ``text`` as it is where the line has none."""
    if not line.mark:
        return text
    shown = sorted({readings.provision_text(line.provision, lang) for lang in languages.LANGS}, key=len, reverse=True)
    found = re.search("|".join(re.escape(p) for p in shown) + r"(?![\w(])", text)
    if found is None:
        return text
    return f"{text[:found.end()]} ({line.mark}){text[found.end():]}"


def argument_lines(line: Line) -> list[str]:
    """:func:`argument_line`, split where it is longer than :data:`ARGUMENT_SUB_LINES_OVER` and has several facts
    (the holdings of an ownership chain, the measures of a share): the provision with its reading and its decisive
    figures (the facts with a figure's bound, as many as fit; else the first fact tested, else the first fact) first,
    then each other fact after :data:`SUB_LINE`, in their order."""
    text = argument_line(line)
    figures = line.figures
    if len(text) <= ARGUMENT_SUB_LINES_OVER or len(figures) < 2:
        return [text]
    tested = [f for f in figures if f in line.tested]
    keys = [f for f in tested if _FIGURE_BOUND.search(f)] or tested[:1] or figures[:1]  # a figure's bound first
    shown = keys[:1]
    for key in keys[1:]:  # the other figures tested, while the line stays short
        if len(argument_line(replace(line, facts=[*shown, key], comparisons=[]))) > ARGUMENT_SUB_LINES_OVER:
            break
        shown.append(key)
    head = argument_line(replace(line, facts=shown, comparisons=[]))
    return [head, *nested_sub_lines(line, [f for f in figures if f not in shown])]


def nested_sub_lines(line: Line, facts: Sequence[str]) -> list[str]:
    """``facts`` of ``line`` as sub-lines (after :data:`SUB_LINE`): where they are about several persons
    (:meth:`Line.groups`), each person's under one sub-line naming it (its heading, "cl-co (Chile)", with the first
    of its facts that opens with its name, said of it: "cl-co (Chile): is not an equivalent beneficiary ..."), the
    others one level deeper without the name that opens them; else each on a sub-line of its own, in their order."""
    groups = line.groups(facts)
    if groups is None:
        return [SUB_LINE + f for f in facts]
    out: list[str] = []
    for person, items in groups:
        if person is None:
            out += [SUB_LINE + f for f in items]
            continue
        head = line.heads.get(person, person)
        if _opens_with(items[0], person):
            out.append(f"{SUB_LINE}{head}: {items[0][len(person) + 1:]}")
            items = items[1:]
        else:
            out.append(SUB_LINE + head)
        out += [SUB_LINE * 2 + (f[len(person) + 1:] if _opens_with(f, person) else f) for f in items]
    return out


def _opens_with(fact: str, person: str) -> bool:
    """Whether ``fact`` opens with ``person`` as its subject (``cl-co holds ...``, not ``cl-co-2 holds ...``)."""
    return fact.startswith(person + " ")


_FIGURE_BOUND = re.compile(r"\([<>≤≥=≠] [^)]*\)$")
"""A fact with the bound of a figure ("56% of the votes (> 50%)"), not one of a date in words ("not later than ...")."""


ItemArguments = list[tuple[str, list["Argument"]]]


@dataclass(frozen=True)
class Case:
    """A State's outcome that depends on facts given as alternatives, argued under one of them (``condition``: the
    alternative as `treaty check` words it, with the value it is argued at) by the ``lines`` of the argument at that
    value; or, where no alternative could be argued on its own, the lines at the value explained, the ``condition``
    saying so (they hold only there)."""

    condition: str
    lines: list[Line]
    at_value_only: bool = False
    """The lines at the value explained (no alternative argued on its own): they hold only there."""
    item_lines: frozenset[str] = frozenset()
    """Every line of the item's argument at the case's value (:func:`argument_line`): a line argued at the value
    explained holds under every alternative where each case has it (:func:`_at_value`)."""
    marker: str = ""
    """What a line that holds at the value explained only is shown under (``at the explained value (...)``)."""

    def to_dict(self) -> dict[str, Any]:
        return {"condition": self.condition, "lines": [ln.to_dict() for ln in self.lines],
                **({"at_value_only": True} if self.at_value_only else {})}


ArgumentCases = dict[tuple[str, str], list[Case]]
"""By (item id, State): the cases of a State's outcome that depends on facts given as alternatives."""


@dataclass
class Conclusion:
    """A conclusion of the argument as shown: its heading, the argument's lines (none for a State's outcome the
    explanation does not reach: one that turns on facts not given), and, for a State's outcome that turns on
    unknown facts, its alternatives as `treaty check` words them (without their provisions: the lines argue)."""

    heading: str
    argument: Argument | None
    state: str | None = None
    outcome: str | None = None
    alternatives: list[str] = field(default_factory=list)
    cases: list[Case] = field(default_factory=list)
    """An outcome that depends on facts given as alternatives: its argument under each alternative (then
    :attr:`alternatives` is empty: the cases name them), or the argument at the value explained, marked so."""

    @property
    def lines(self) -> list[Line]:
        return self.argument.lines if self.argument is not None else []

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = self.argument.to_dict() if self.argument is not None else {
            "atom": None, "reading": None, "state": self.state, "outcome": self.outcome, "lines": []}
        if self.alternatives:
            data["alternatives"] = list(self.alternatives)
        if self.cases:
            data["lines"] = []  # each line holds only under its case
            data["cases"] = [c.to_dict() for c in self.cases]
        return {**data, "heading": self.heading}


def conclusions(args: list[Argument], item: ItemResult | None, lang: str,
                cases: ArgumentCases | None = None) -> list[Conclusion]:
    """The conclusions of an item's argument: each State's outcome in the order `treaty check` gives them,
    every State's (an outcome open on the facts given, which the explanation does not derive, by what `treaty
    check` says of it), then the findings; ``cases``: those of a State's outcome that depends on facts given as
    alternatives (:class:`Case`)."""
    by_state = {a.state: a for a in args if a.state is not None}
    states = [s.state for s in item.states] if item is not None else []
    states += [s for s in by_state if s not in states]
    out: list[Conclusion] = []
    for code in states:
        arg = by_state.get(code)
        outcome = next((s for s in item.states if s.state == code), None) if item is not None else None
        if arg is not None:
            heading = argument_heading(arg, item, lang)
        elif outcome is not None and item is not None:
            heading = f"{state_name(code, lang)}: {state_outcome_text(outcome, item, lang)}"
        else:
            continue
        options = [a for a in item.alternatives if a.state == code] if item is not None else []
        shown = (arg.outcome if arg is not None else outcome.outcome if outcome is not None else None)
        argued = list((cases or {}).get((item.item_id, code), [])) if item is not None and options else []
        each = len(argued) == len(options) and not any(c.at_value_only for c in argued)
        out.append(Conclusion(heading, arg, code, shown,
                              [] if each else [alternative_text(a, lang, provisions=False) for a in options], argued))
    for a in args:
        if a.state is None:
            a = _as_checked(a, item)
            out.append(Conclusion(argument_heading(a, item, lang), a))
    return out


def _as_checked(arg: Argument, item: ItemResult | None) -> Argument:
    """A finding about a fact the rules asked for (missing, given as unknown) as `treaty check` reports it: where
    the check found every value of the fact gives the same answer (``not_needed``: a benefit denied whatever the
    holding), that finding, without the lines that argue why the rules asked for it (the limit the holding would
    have decided, which the outcome does not rest on); the argument unchanged otherwise."""
    found = arg.finding
    if item is None or found is None or found.kind not in ("missing", "depends"):
        return arg
    same = next((f for f in item.findings if f.kind == "not_needed" and f.fact == found.fact
                 and found.provision in f.provision.split("; ")), None)
    if same is None:
        return arg
    return replace(arg, lines=[], finding=replace(same, field=same.field or found.field))


def merged(concs: Sequence[Conclusion], lang: str) -> list[Conclusion]:
    """One conclusion for those that say the same of the item under several provisions (an entitlement denied
    under each test the claimant does not meet): one heading citing each provision, as `treaty check` lists them,
    over their lines, each once."""
    groups: dict[tuple[str, str, str], list[Conclusion]] = {}
    order: list[tuple[str, str, str] | Conclusion] = []
    for c in concs:
        arg = c.argument
        shown = readings.provision_text(arg.provision, lang) if arg is not None and arg.provision else None
        if arg is None or arg.state is not None or arg.finding is not None or shown is None \
                or f"({shown})" not in c.heading:
            order.append(c)
            continue
        head, _, tail = c.heading.rpartition(f"({shown})")
        key = (arg.name, head, tail)
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(c)
    out: list[Conclusion] = []
    for entry in order:
        if isinstance(entry, Conclusion):
            out.append(entry)
            continue
        group = groups[entry]
        if len(group) == 1:
            out.append(group[0])
            continue
        _name, head, tail = entry
        cited = [readings.provision_text(c.argument.provision, lang) for c in group
                 if c.argument is not None and c.argument.provision]
        lines: dict[str, Line] = {}
        ground = group[0].lines[0].provision if group[0].lines else None
        for c in group:
            for ln in c.lines:
                if c is not group[0] and ln.provision == ground:
                    continue  # the first's ground said again under another provision's conclusion: said once
                lines.setdefault(argument_line(ln), ln)
        first = group[0].argument
        assert first is not None
        joined = replace(first, lines=list(lines.values()))
        out.append(Conclusion(f"{head}({', '.join(dict.fromkeys(cited))}){tail}", joined))
    return out


def shared_grounds(concs: Sequence[Conclusion]) -> tuple[list[Line], list[list[Line]]]:
    """Each line of an item's conclusions said once: the lines two or more conclusions share (a dividend's
    paragraph 1 and the residence of its payer and recipient, under each State's outcome and each finding),
    first, once; then each conclusion's own lines. A conclusion's first line (the provision that gives it)
    stays under it, unless it is no State's outcome and an earlier conclusion's first line already says it (the same
    provision and words: a denial and its note resting on the paragraph a State's outcome cites); a line that is
    another conclusion's first line is said there only. No line is said twice: a State's outcome whose ground is, word
    for word, an earlier State's (both States' outcomes under an article not encoded) keeps only its heading."""
    texts = [[argument_line(ln) for ln in c.lines] for c in concs]
    firsts = {t[0] for t in texts if t}
    count: dict[str, int] = {}
    for t in texts:
        for text in dict.fromkeys(t):
            count[text] = count.get(text, 0) + 1
    common: dict[str, Line] = {}
    own: list[list[Line]] = []
    said: list[str] = []  # the first lines kept so far
    said_lines: list[Line] = []
    for c, t in zip(concs, texts, strict=True):
        kept = []
        for i, (ln, text) in enumerate(zip(c.lines, t, strict=True)):
            if i == 0:
                state = c.argument is not None and c.argument.state is not None  # a State's outcome keeps its ground
                if (state and text not in said) or (not any(_says(earlier, text) for earlier in said) and not any(
                        _covers(earlier, ln) for earlier in said_lines)):
                    kept.append(ln)
                    said.append(text)
                    said_lines.append(ln)
            elif count[text] < 2 and text not in firsts:
                kept.append(ln)
            elif text not in firsts:
                common.setdefault(text, ln)
        own.append(kept[:1] + _unsubsumed(kept[1:]))
    return _unsubsumed(list(common.values())), own


def _unsubsumed(lines: list[Line]) -> list[Line]:
    """The lines without one that another line of the same provision says in full (its readings and facts among
    the other's: one person's residence under a paragraph beside both persons' under it)."""
    def within(a: Line, b: Line) -> bool:
        return a is not b and (a.kind, a.provision) == (b.kind, b.provision) and set(a.readings) <= set(b.readings) \
            and set(a.figures) <= set(b.figures) and (a.readings, a.figures) != (b.readings, b.figures)
    return [ln for ln in lines if not any(within(ln, other) for other in lines)]


def _covers(earlier: Line, line: Line) -> bool:
    """Whether ``earlier``, a line of the same provision, says all ``line`` does: its readings and figures among the
    earlier's (a State's ground "<provision> is not encoded — <item> is governed by <provision>" says the finding's
    "<provision>: <item> is governed by <provision>", in every language)."""
    return (earlier.kind, earlier.provision) == (line.kind, line.provision) \
        and set(line.readings) | set(line.figures) <= set(earlier.readings) | set(earlier.figures)


def _says(earlier: str, text: str) -> bool:
    """Whether the argument's line ``earlier`` already says ``text``: the same line, or one of the same provision whose
    words include ``text``'s (a State's outcome "<provision>: not granted — the claimant meets none of the tests" says
    the denial's "<provision>: the claimant meets none of the tests"; "<provision> is not encoded: text not available —
    <item> is governed by <provision>" says "<provision>: <item> is governed by <provision>")."""
    if earlier == text:
        return True
    head, sep, body = text.partition(": ")
    return bool(sep) and (earlier.startswith(head + ": ") or earlier.startswith(head + " ")) \
        and body in earlier[len(head) + 1:]


def _at_value(concs: Sequence[Conclusion]) -> tuple[Callable[[Line], bool], str]:
    """For an item with an outcome that depends on facts given as alternatives: whether a line argued at the value
    explained (a common ground, a line of a State's outcome that does not depend on them) holds there only (not said
    in the same words under every alternative; every line, where an alternative could not be argued on its own),
    and the marker it is shown under; nothing is marked otherwise."""
    return at_value_marking([c for conc in concs for c in conc.cases])


def at_value_marking(cases: Sequence[Case]) -> tuple[Callable[[Line], bool], str]:
    """:func:`_at_value` of an item's ``cases`` (those of each of its States' outcomes): whether a line argued at the
    value explained holds there only, and the marker it is shown under (the report draws it so too)."""
    if not cases:
        return (lambda _ln: False), ""
    if any(c.at_value_only for c in cases):
        return (lambda _ln: True), cases[0].marker
    sets = [c.item_lines for c in cases]
    return (lambda ln: not all(argument_line(ln) in lines for lines in sets)), cases[0].marker


def _case_lines(case: Case, common: Sequence[Line]) -> list[Line]:
    """A case's lines without those the item's common grounds say in the same words (they hold at its value too)."""
    said = {argument_line(ln) for ln in common}
    return [ln for ln in case.lines if argument_line(ln) not in said]


def argument_text(items: ItemArguments, result: ScenarioResult | None, lang: str,
                  cases: ArgumentCases | None = None) -> str:
    caveat = caveat_text(result.treaty, lang) if result is not None else None
    out: list[str] = [caveat, ""] if caveat else []
    by_id = {i.item_id: i for i in result.items} if result is not None else {}
    for iid, args in items:
        out.append(iid)
        concs = merged(conclusions(args, by_id.get(iid), lang, cases), lang)
        common, own = shared_grounds(concs)
        only, marker = _at_value(concs)
        sure = [ln for ln in common if not only(ln)]
        if sure:
            out.append("  " + label("common_grounds", lang))
            out += ["    " + text for ln in sure for text in argument_lines(ln)]
        if len(sure) < len(common):
            out.append(f"  {label('common_grounds', lang)}, {marker}:")
            out += ["    " + text for ln in common if only(ln) for text in argument_lines(ln)]
        for c, lines in zip(concs, own, strict=True):
            out.append("  " + c.heading)
            out += ["    " + text for text in c.alternatives]
            if not c.cases:
                out += ["    " + text for ln in lines if not only(ln) for text in argument_lines(ln)]
                if any(only(ln) for ln in lines):
                    out.append(f"    {marker}:")
                    out += ["      " + text for ln in lines if only(ln) for text in argument_lines(ln)]
            for case in c.cases:
                out.append(f"    {case.condition}:")
                out += ["      " + text for ln in _case_lines(case, common) for text in argument_lines(ln)]
        out.append("")
    return provision_words("\n".join(out).rstrip() + "\n", lang)


def argument_markdown(items: ItemArguments, result: ScenarioResult | None, lang: str,
                      cases: ArgumentCases | None = None) -> str:
    caveat = caveat_text(result.treaty, lang) if result is not None else None
    out: list[str] = [f"> {caveat}".replace("|", "\\|"), ""] if caveat else []
    by_id = {i.item_id: i for i in result.items} if result is not None else {}
    for iid, args in items:
        out += [f"## {iid}", ""]
        concs = merged(conclusions(args, by_id.get(iid), lang, cases), lang)
        common, own = shared_grounds(concs)
        only, marker = _at_value(concs)
        sure = [ln for ln in common if not only(ln)]
        if sure:
            out += [f"**{label('common_grounds', lang)}**", "", *_markdown_lines(sure), ""]
        if len(sure) < len(common):
            out += [f"**{label('common_grounds', lang)}, {marker}**".replace("|", "\\|"), "",
                    *_markdown_lines([ln for ln in common if only(ln)]), ""]
        for c, lines in zip(concs, own, strict=True):
            out += [f"**{c.heading}**".replace("|", "\\|"), ""]
            out += [f"- {text}".replace("|", "\\|") for text in c.alternatives]
            if not c.cases:
                out += _markdown_lines([ln for ln in lines if not only(ln)])
                if any(only(ln) for ln in lines):
                    out.append(f"- *{marker}*:".replace("|", "\\|"))
                    out += ["  " + text for text in _markdown_lines([ln for ln in lines if only(ln)])]
            for case in c.cases:
                out.append(f"- *{case.condition}*:".replace("|", "\\|"))
                out += ["  " + text for text in _markdown_lines(_case_lines(case, common))]
            out.append("")
    return provision_words("\n".join(out).rstrip() + "\n", lang)


def _markdown_lines(lines: Sequence[Line]) -> list[str]:
    """The argument's lines as a Markdown list, each provision in bold."""
    out = []
    for ln in lines:
        text, *more = argument_lines(ln)
        if ln.kind == "provision":
            text = text.replace(ln.provision, f"**{ln.provision}**", 1)
        out.append(f"- {text}".replace("|", "\\|"))
        for part in more:  # a sub-line one level down per mark (a person's facts under its heading: two)
            depth = (len(part) - len(part.lstrip(" "))) // len(SUB_LINE)
            out.append(f"{'  ' * depth}- {part.lstrip(' ')}".replace("|", "\\|"))
    return out


def argument_json(items: ItemArguments, result: ScenarioResult | None, lang: str,
                  cases: ArgumentCases | None = None) -> list[dict[str, Any]]:
    by_id = {i.item_id: i for i in result.items} if result is not None else {}
    return [{"title": iid, "conclusions": [c.to_dict() for c in conclusions(args, by_id.get(iid), lang, cases)]}
            for iid, args in items]


# -------------------------------------------------------------------------------- why not ---
def why_not_title(query: str, holds: bool, lang: str) -> str:
    """``why not <query>`` (``why not <query>: holds`` where it holds)."""
    return f"{label('why_not', lang)} {query}" + (f": {label('holds', lang)}" if holds else "")


def why_not_line(line: Line, lang: str) -> str:
    """A rule that could have given a why-not's goal: ``<provision> would conclude that <reading>, but:
    <reason>``."""
    words = wording(_ARGUMENT, lang)
    reason = "; ".join(line.facts) or words["fails"]
    if not line.provision:
        return words["would_rules"].format(reading=line.reading, reason=reason)
    text = words["would"].format(prov=line.provision, reading=line.reading, reason=reason)
    return readings.provision_text(text, lang)  # a Protocol item in the language's word, as the readings cite it


def why_not_text(answers: Sequence[WhyNot], lang: str) -> str:
    """`treaty explain --why-not`'s default: under each query, the argument of what matches it where it holds,
    else one line per rule that could have given it, with why it did not (:class:`WhyNot`)."""
    out: list[str] = []
    for w in answers:
        out.append(why_not_title(w.query, w.holds, lang))
        for arg in w.arguments:
            out.append("  " + arg.reading)
            out += ["    " + argument_line(ln) for ln in arg.lines]
        out += ["  " + why_not_line(ln, lang) for ln in w.lines]
        if not w.holds and not w.lines:
            out.append("  " + label("no_rule", lang))
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def why_not_markdown(answers: Sequence[WhyNot], lang: str) -> str:
    out: list[str] = []
    for w in answers:
        out += [f"## {why_not_title(w.query, w.holds, lang)}", ""]
        for arg in w.arguments:
            out += [f"**{arg.reading}**".replace("|", "\\|"), "", *_markdown_lines(arg.lines), ""]
        for ln in w.lines:
            text = why_not_line(ln, lang)
            if ln.provision:
                shown = readings.provision_text(ln.provision, lang)
                text = text.replace(shown, f"**{shown}**", 1)
            out.append(f"- {text}".replace("|", "\\|"))
        if not w.holds and not w.lines:
            out.append(f"- {label('no_rule', lang)}")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def why_not_json(answers: Sequence[WhyNot], lang: str) -> list[dict[str, Any]]:
    """Each query's answer (:meth:`WhyNot.to_dict`) under its title, each failed rule's line also as text."""
    out = []
    for w in answers:
        data = w.to_dict()
        for line, text in zip(data["lines"], w.lines, strict=True):
            line["text"] = why_not_line(text, lang)
        out.append({"title": why_not_title(w.query, w.holds, lang), **data})
    return out


def decisive_line(arg: Argument, lang: str = "en") -> str | None:
    """The line under a State's outcome in `treaty check`: the provision that gives it, with its facts, then each
    more favourable provision considered and not met with the condition that failed and its figures."""
    line = arg.decisive
    if line is None:
        return None
    if not line.figures and line.grounds:  # the legal facts its rule rests on, argued on lines of their own
        line = replace(line, facts=[g for g in line.grounds if g not in line.findings])  # (the findings: below)
    text = argument_line(line)
    said = [text]
    for finding, prov in line.findings.items():  # the finding of another article the outcome turns on, with why
        own = next((ln for ln in arg.lines if ln.kind == "provision" and ln.provision == prov), None)
        if own is None:
            continue
        why = "; ".join(f for f in own.figures if _about_finding(own, f, finding))
        if not why and readings.provision_text(prov, lang) in finding:
            if finding not in text:  # a finding that names its provision, said once ("<provision> sends X to
                said.append(finding)  # Art. N (<provision>)", blind57a R5)
            continue
        cited = marked(readings.provision_text(prov, lang), own)
        full = f"{finding} ({cited}: {why})" if why else f"{finding} ({cited})"
        if finding in line.facts and finding in said[0] and full not in said[0] \
                and prov.partition("(")[0] == line.provision.partition("(")[0]:  # a fact of the line another
            said[0] = said[0].replace(finding, full, 1)  # paragraph of its article decides: said there with it
        elif finding not in text:
            said.append(full)
    text = said[0] + (("; " if " — " in said[0] else " — ") + "; ".join(said[1:]) if len(said) > 1 else "")
    unmet = [(readings.word("not_met_short", lang).format(prov=marked(readings.provision_text(ln.provision, lang), ln),
                                                          why=""),
              _with_antecedent(list(ln.tested or ln.figures), ln.facts, lang), ln)
             for ln in arg.alternatives if ln.figures]  # the figures compared, where a comparison is of a fact
    # a condition not met keeps its words ("the condition that X is not met (F)") wherever it stands: "X (F)" after
    # the opening "<provision> not met:" reads as X met (blind54a: "... not met: the beneficial owner meets the
    # holding condition (2025-03-16 > 2025-03-15)"; exam53a: "X (182 days < 50% of 365 days)" after other facts)
    flat = [opening + "; ".join(figures) for opening, figures, _ln in unmet]
    if len(flat_decisive("\n".join([text, *flat]))) <= SUB_LINES_OVER:
        return text + ("; " if " — " in text else " — ") + "; ".join(flat) if flat else text
    out = [text]  # too long for one line: each test not met on a sub-line of its own, the figures of a long one
    for (opening, figures, ln), one in zip(unmet, flat, strict=True):  # on sub-lines below it (each person's
        out += [one] if len(one) <= SUB_LINES_OVER or len(figures) < 2 else [  # under its heading)
            opening + figures[0], *nested_sub_lines(ln, figures[1:])]
    return "\n".join(out)


_ANAPHORA = {"en": {"that": "that holding ", "holding": r"^(\S+) holds an interest in (\S+) \((\w+)\)",
                    "named": "the holding of {0} in {1} ({2}) "},
             "pt": {"that": "essa participação ", "holding": r"^(\S+) detém uma participação em (\S+) \((\w+)\)",
                    "named": "a participação de {0} em {1} ({2}) "}}
"""How a reading refers back to the holding the fact before it names (``holding_share``: "that holding is <share> of
the capital"), how that fact names it, and the holding named in its place."""


def _with_antecedent(tested: list[str], facts: Sequence[str], lang: str) -> list[str]:
    """``tested`` (a test's facts not met, as said after "<provision> not met:") with a fact that refers back to a
    holding ("that holding is <share> of the capital (< <threshold>)") naming the holding the fact before it on the line
    names ("the holding of marina in costa-azul (direct) is <share> ..."), where that fact is not said
    (blind57b W2: «that holding» had no antecedent)."""
    words = wording(_ANAPHORA, lang)
    out: list[str] = []
    for fact in tested:
        k = list(facts).index(fact) if fact.startswith(words["that"]) and fact in facts else 0
        m = re.match(words["holding"], facts[k - 1]) if k > 0 and facts[k - 1] not in tested else None
        out.append(words["named"].format(*m.groups()) + fact[len(words["that"]):] if m is not None else fact)
    return out


def _about_finding(own: Line, fact: str, finding: str) -> bool:
    """Whether ``fact``, a figure of the line ``own`` that argues ``finding``, is about what the finding is: about no
    person, or about a person the finding names (the employer's liability to tax for "construtora-br is a resident of
    Brazil only", never the employee's beside it)."""
    person = own.person_of(fact)
    return person is None or re.search(rf"(?<![\w-]){re.escape(person)}(?![\w-])", finding) is not None


SUB_LINES_OVER = 300
"""The length above which a decisive line of `treaty check` (an outcome with the tests not met that a more favourable
outcome needed: a limitation on benefits' seven) or a line of `treaty explain`'s argument (the facts of an ownership
chain) is split into sub-lines: the provision with its reading and decisive figure first, then one sub-line per test
not met or fact."""
ARGUMENT_SUB_LINES_OVER = 500
"""The same for a line of `treaty explain`'s argument, whose facts are the whole argument of its provision (a dividend's
holding, its share, its dates and the payment: some 400 characters, read best in one line)."""
SUB_LINE = "  "
"""The mark of a sub-line in a decisive line (its text after it): a figure of the test not met above it."""


def flat_decisive(text: str) -> str:
    """A decisive line (:func:`decisive_line`) in one line, as the JSON carries it: its sub-lines after the first
    joined as `treaty check` joins the tests not met (``<line> — <test>; <test>``, ``; `` where the line has facts)."""
    first, *rest = text.split("\n")
    if not rest:
        return first
    parts: list[str] = []
    for part in rest:
        if part.startswith(SUB_LINE) and parts:
            parts[-1] += "; " + part[len(SUB_LINE):]
        else:
            parts.append(part)
    return first + ("; " if " — " in first else " — ") + "; ".join(parts)


def sub_lines(text: str) -> list[str]:
    """The lines `treaty check` prints for a decisive line: its first, then its sub-lines indented by their depth."""
    first, *rest = text.split("\n")
    return [first, *(("    " + part[len(SUB_LINE):]) if part.startswith(SUB_LINE) else "  " + part for part in rest)]
