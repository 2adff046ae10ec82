"""Readings: atoms rendered as English or Portuguese sentences from the vocabulary's templates."""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

import clingo
from babel import Locale

from pyhelpers.base import dates, formats
from pyhelpers.base import lang as languages
from pyhelpers.base.rulebase import ground_facts, logic_dir
from pyhelpers.engine.program import Argument, Logic, load_logic


def state_names(lang: str) -> dict[str, str]:
    """The names of the States (``state_name`` facts of the catalogue) in ``lang`` (the catalogue names
    them in English and Portuguese: both Portuguese variants read the ``pt`` names, European Portuguese
    those the catalogue spells otherwise for Portugal, ``pt_pt``, first)."""
    names = _by_language("state_name", logic_dir())
    if languages.normalize(lang) == "pt-PT":
        return {**names["pt"], **names.get("pt_pt", {})}
    return names[languages.family(lang)]


def state_name(code: str, lang: str) -> str:
    """The name of State ``code`` in ``lang``: a Contracting State's from the catalogue (:func:`state_names`), a
    third State's from the CLDR territory names Babel carries (``us`` → the United States, with the English
    article the catalogue's ``state_article`` gives it; Estados Unidos), the code in capitals where neither
    knows it."""
    known = state_names(lang).get(code)
    if known is not None:
        return known
    name = _territory_names(languages.normalize(lang)).get(code.upper(), code.upper())
    english = _by_language("state_article", logic_dir()).get("en", {}).get(code) if languages.family(lang) == "en" \
        else None  # Portuguese puts its article by the preposition before the name (:func:`state_in`)
    return f"{english} {name}" if english else name


@lru_cache(maxsize=8)
def _territory_names(lang: str) -> Mapping[str, str]:
    """CLDR's names of the territories (ISO 3166 codes in capitals) in ``lang`` (pt: Brazilian, pt-PT: European)."""
    return Locale.parse(lang.replace("-", "_")).territories


def territory_codes() -> tuple[str, ...]:
    """The codes of every territory CLDR names with two letters (``us``, ``ky``, ``xk``): the States a scenario
    may name, each named by :func:`state_name` in every language."""
    return tuple(sorted(c.lower() for c in _territory_names("en") if re.fullmatch(r"[A-Z]{2}", c)))


def state_article(code: str, lang: str) -> str | None:
    """The definite article the Portuguese name of State ``code`` takes (``state_article`` facts of the catalogue:
    "o", "a", "os", "as"; "" where it takes none, as Portugal), in Brazilian Portuguese from the ``pt`` facts; in
    European Portuguese from the ``pt_pt`` facts, else the ``pt`` one where Portugal writes the same name and
    Brazil gives it an article (Brazil's usage of no article does not carry over: "em Gana", but "no Gana"). None
    where no usage is known: the name is then written in a construction that needs none (:func:`state_in`)."""
    table = _by_language("state_article", logic_dir())
    if languages.family(lang) != "pt":
        return None
    if languages.normalize(lang) == "pt-PT":
        own = table.get("pt_pt", {}).get(code)
        if own is not None:
            return own
        brazil = table["pt"].get(code)
        return brazil if brazil and state_name(code, "pt-PT") == state_name(code, "pt") else None
    return table["pt"].get(code)


def state_plural(code: str, lang: str) -> bool:
    """Whether the name of State ``code`` is plural in ``lang`` (the article it takes says so: os Estados Unidos,
    as Filipinas), so that a verb or an adjective agrees with it (os Estados Unidos podem tributar). English
    writes every State's name as singular (the United States may tax); a name without an article, or written in a
    construction, is singular."""
    return state_article(code, lang) in ("os", "as")


def treaty_caveat(treaty: str, lang: str) -> str | None:
    """The caveat on ``treaty`` as a whole (``treaty_caveat`` facts of the catalogue: a corpus text that does not
    name its partner) in ``lang``, said once at the head of an answer; None for a treaty without one."""
    table: dict[str, str] = {}
    for sym in ground_facts("treaty_caveat", 3, logic_dir()):
        if sym.arguments[0].string == treaty:
            table[sym.arguments[1].name] = sym.arguments[2].string
    if languages.normalize(lang) == "pt-PT" and "pt_pt" in table:
        return table["pt_pt"]
    return table.get(languages.family(lang))


@lru_cache(maxsize=8)
def _by_language(name: str, root: Path) -> dict[str, dict[str, str]]:
    """The catalogue's facts ``name(Code, Lang, "words")`` (``state_name``, ``state_article``): language →
    code → words."""
    table: dict[str, dict[str, str]] = {"en": {}, "pt": {}}
    for sym in ground_facts(name, 3, root):
        table.setdefault(sym.arguments[1].name, {})[sym.arguments[0].name] = sym.arguments[2].string
    return table


CONTRACTED = {
    ("de", "o"): "do", ("de", "a"): "da", ("de", "os"): "dos", ("de", "as"): "das",
    ("em", "o"): "no", ("em", "a"): "na", ("em", "os"): "nos", ("em", "as"): "nas",
    ("a", "o"): "ao", ("a", "a"): "à", ("a", "os"): "aos", ("a", "as"): "às",
    ("por", "o"): "pelo", ("por", "a"): "pela", ("por", "os"): "pelos", ("por", "as"): "pelas",
}
"""Portuguese contractions of a preposition with the definite article."""

PREPOSITION_BEFORE = re.compile(r"(?:^|(?<=\s))(de|em|a|por) $")

_NAMED = {"pt": ("o", "território denominado {name}")}
"""How Portuguese writes a State whose name has no known article (:func:`state_article`): after a noun whose
article is known, the name itself as a mention ("residente do território denominado Ilhas Cayman"), never with
an article guessed; the noun is singular (the verb agrees with it)."""


def state_in(before: str, code: str, lang: str) -> tuple[str, str]:
    """A State's name placed after the text ``before`` of a Portuguese sentence: the article its name takes
    (``state_article``) contracted with a preposition ending ``before`` (``de`` + ``o Brasil`` → ``do
    Brasil``, ``em`` + ``os Emirados Árabes Unidos`` → ``nos ...``) or put before the name; a name whose
    article is not known after a noun that has one (:data:`_NAMED`: "no território denominado Jersey"). Returns
    ``before`` (without the contracted preposition) and the words for the State. English and names without
    an article: the name as it is."""
    name = state_name(code, lang)
    if languages.family(lang) != "pt":
        return before, name
    article = state_article(code, lang)
    if article is None:
        article, words = _NAMED["pt"]
        name = words.format(name=name)
    if not article:
        return before, name
    return after_preposition(before, article, name)


def after_preposition(before: str, article: str, words: str) -> tuple[str, str]:
    """Portuguese ``article words`` placed after the text ``before``: the article contracted with a preposition
    ending ``before`` (``de`` + ``o`` → ``do``), which leaves ``before``; else put before the words. Returns
    ``before`` (without the contracted preposition) and the words with their article."""
    m = PREPOSITION_BEFORE.search(before)
    if m is not None and (m.group(1), article) in CONTRACTED:
        return before[:m.start(1)], f"{CONTRACTED[(m.group(1), article)]} {words}"
    return before, f"{article} {words}"


def with_state(template: str, key: str, code: str, lang: str) -> str:
    """``template`` with its ``{key}`` placeholder filled by the State ``code`` (:func:`state_in`)."""
    place = "{" + key + "}"
    at = template.find(place)
    if at < 0:
        return template
    before, words = state_in(template[:at], code, lang)
    return before + words + template[at + len(place):]


_WORDS = {
    "en": {"months": "months", "days": "days", "day": "day", "not": "it is not the case that",
           "given": "given by the scenario",
           "static": "set by the treaty catalogue", "test": "test", "no_rule": "no rule derived it",
           "not_applied": "{prov} does not apply ({exception})"},
    "pt": {"months": "meses", "days": "dias", "day": "dia", "not": "não se verifica que",
           "given": "informado pelo cenário",
           "static": "fixado pelo catálogo da convenção", "test": "teste", "no_rule": "nenhuma regra o derivou",
           "not_applied": "o {prov} não se aplica ({exception})", "open": "(em aberto)",
           "no_value": "a convenção não fixa tal valor", "not_given": "não informado pelo cenário",
           "holds": "verifica-se"},
}
_WORDS["pt-PT"] = {"given": "indicado pelo cenário", "not_given": "não indicado pelo cenário"}
_WORDS["en"].update({"open": "(open)", "no_value": "the treaty sets no such value",
                     "not_given": "not given by the scenario", "holds": "it holds"})
# why an exception did not apply, where its first failed condition is one no fact or rule gives: the
# condition read under a negation, never as a statement ("X is connected with some place (not given)")
_WORDS["en"].update({"lacks_not_given": "the scenario does not say that {reading}",
                     "lacks_no_rule": "the facts do not establish that {reading}",
                     "lacks_no_value": "the treaty does not provide that {reading}"})
_WORDS["pt"].update({"lacks_not_given": "o cenário não informa que {reading}",
                     "lacks_no_rule": "os fatos não estabelecem que {reading}",
                     "lacks_no_value": "a convenção não dispõe que {reading}"})
_WORDS["pt-PT"].update({"lacks_not_given": "o cenário não indica que {reading}",
                        "lacks_no_rule": "os factos não estabelecem que {reading}"})
# a fact of the scenario about a State where the treaty asks for another (a third State where a Contracting State
# is asked): "us-prize arises in the United States, not in Brazil"
_WORDS["en"].update({"not_instead": "{fact}, not {instead}", "or_list": " or "})
_WORDS["pt"].update({"not_instead": "{fact}, não {instead}", "or_list": " ou "})
# a provision's own exception, named by a negated condition of its rule, that does not apply
_WORDS["en"]["exception_not_met"] = "the exception of {prov} does not apply ({exception})"
_WORDS["pt"]["exception_not_met"] = "a exceção do {prov} não se aplica ({exception})"
# a side of a proportion tested by cross-multiplying (N × 100% ≥ Len × 50%): a share of a figure
_WORDS["en"]["share_of"] = "{share} of {figure}"
_WORDS["pt"]["share_of"] = "{share} de {figure}"
# a fact the scenario does not give, for which the format's documented default stands: assumed, never stated
# an open yes/no fact named by the question its value answers ("whether the overall activity of b is preparatory ...")
_WORDS["en"]["whether"] = "whether {fact}"
_WORDS["pt"]["whether"] = "se {fact}"
_WORDS["en"]["assumed_fact"] = "{reading} (assumed: not given by the scenario)"
_WORDS["pt"]["assumed_fact"] = "{reading} (presumido: não informado pelo cenário)"
_WORDS["pt-PT"]["assumed_fact"] = "{reading} (presumido: não indicado pelo cenário)"
# the same where the scenario's field the default stands for is known: the field named, as `treaty check` names it
_WORDS["en"]["assumed_fact_field"] = "{reading} (assumed: `{field}` not given)"
_WORDS["pt"]["assumed_fact_field"] = "{reading} (presumido: `{field}` não informado)"
_WORDS["pt-PT"]["assumed_fact_field"] = "{reading} (presumido: `{field}` não indicado)"
# a reading that opens with the provision it is under ("under <provision>, X is not of its declared type ..."), said
# on that provision's line without it
_WORDS["en"]["under_provision"] = "under {prov}, "
_WORDS["pt"]["under_provision"] = "nos termos do {prov}, "
# a list of States the scenario gives empty (a permanent home in none): "the scenario states ... (no State)"
_WORDS["en"]["no_state"] = "no State"
_WORDS["pt"]["no_state"] = "nenhum Estado"
# the same where the default is the format's for a list of the scenario (none listed: none) and no outcome rests on it
_WORDS["en"]["listed_none"] = "{reading} (none in the scenario's `{field}`)"
_WORDS["pt"]["listed_none"] = "{reading} (nada consta em `{field}` no cenário)"
# the word a provision id writes before a Protocol item's number (``xx-yy Protocol 9``), as a reader reads it
# the end of a period the scenario gives no end for, in place of "to {To}" ("from 2021-01-15, with no end stated")
_WORDS["en"]["open_end"] = ", with no end stated"
_WORDS["pt"]["open_end"] = ", sem data final informada"
_WORDS["pt-PT"]["open_end"] = ", sem data final indicada"
# a date's bound in words (a date compared with another: "paid on 2024-03-15 (on or after 2021-01-15)")
_WORDS["en"].update({"date_≤": "on or before", "date_≥": "on or after", "date_<": "before",
                     "date_>": "after", "date_=": "on", "date_≠": "not on"})
_WORDS["pt"].update({"date_≤": "não posterior a", "date_≥": "não anterior a", "date_<": "anterior a",
                     "date_>": "posterior a", "date_=": "em", "date_≠": "diferente de"})
# a date amid a sentence with the bound the rule requires of it ("held from 2021-01-15 (required: on or before
# 2022-03-15) to the payment": the holding had to begin by the start of the period the paragraph requires)
_WORDS["en"]["date_required"] = "{value} (required: {bound})"
_WORDS["pt"]["date_required"] = "{value} (exigido: {bound})"
# a condition that does not hold because a threshold is not met, with the comparisons that hold instead
_WORDS["en"]["not_met_figures"] = "the condition that {condition} is not met ({figures})"
_WORDS["pt"]["not_met_figures"] = "a condição de que {condition} não se verifica ({figures})"
# a figure of one instance of a rule among several that fail on it, with what tells that instance apart (the
# twelve-month period a count of days is of)
_WORDS["en"]["figure_where"] = "{figure}, where {condition}"
_WORDS["pt"]["figure_where"] = "{figure}, em que {condition}"
# a more favourable provision considered for an outcome and not met, after the decisive line (`treaty check`)
_WORDS["en"]["not_met_short"] = "{prov} not met: {why}"
_WORDS["pt"]["not_met_short"] = "requisitos do {prov} não atendidos: {why}"
_WORDS["pt-PT"]["not_met_short"] = "requisitos do {prov} não cumpridos: {why}"
# an item no article of the corpus governs: the treaty cited, as `treaty check` says it (not "<treaty> is not encoded")
_WORDS["en"]["no_article"] = "no article of {prov} in the corpus governs {item}: not encoded"
_WORDS["pt"]["no_article"] = "nenhum artigo de {prov} no corpus rege {item}: não codificado"
# the same, where the item's type (after the treaty's definitions: a dividend paid to a resident of the paying
# company's State is other income) is known: the article missing named by its subject (blind58b D10)
_WORDS["en"]["no_article_on"] = "the article of {prov} on {type}, which governs {item}, is not in the corpus: " \
    "not encoded"
_WORDS["pt"]["no_article_on"] = "o artigo de {prov} sobre {type}, que rege {item}, não está no corpus: não codificado"
# the subject of an article named by an item's type where the type's own words would not read as one ("the article
# of <treaty> on shipping and air transport", not "on shipping air transport")
ARTICLE_SUBJECTS = {
    "en": {"shipping_air_transport": "shipping and air transport", "capital_gain": "capital gains",
           "pension": "pensions", "employment": "income from employment"},
    "pt": {"pension": "pensões", "capital_gain": "ganhos de capital", "employment": "rendimentos do emprego"},
    "pt-PT": {"capital_gain": "mais-valias"},
}
# an item whose treaty's application to it is for the article on entry into force, absent from the corpus and
# cited by the treaty alone (blind58b D9: not "no article governs" it)
_WORDS["en"]["no_application"] = "whether {prov} applies to {item} is not known: the article on its entry into force " \
    "and application is not in the corpus (not encoded)"
_WORDS["pt"]["no_application"] = "não se sabe se {prov} se aplica a {item}: o artigo sobre a entrada em vigor e a " \
    "aplicação não está no corpus (não codificado)"
# a test that would have given a benefit, considered under the provision that withholds it, and not met
_WORDS["en"]["not_applied_test"] = "{prov} considered and not met"
_WORDS["pt"]["not_applied_test"] = "o {prov} foi examinado e seus requisitos não foram atendidos"
_WORDS["pt-PT"]["not_applied_test"] = "o {prov} foi examinado e os seus requisitos não foram cumpridos"
# a provision cited in a line of the argument whose rule is encoded from a reconstruction (the rule's annotation
# ``reconstructed``), not from the corpus text: said next to the provision id ("<provision> (reconstructed)")
_WORDS["en"]["reconstructed_provision"] = "reconstructed"
_WORDS["pt"]["reconstructed_provision"] = "reconstituído"
_WORDS["pt-PT"]["reconstructed_provision"] = "reconstituída"
_WORDS["en"]["relies_on_reconstructed"] = "on reconstructed {prov}"
_WORDS["pt"]["relies_on_reconstructed"] = "com base no {prov} reconstituído"
_WORDS["pt-PT"]["relies_on_reconstructed"] = "com base na {prov} reconstituída"
_WORDS["en"]["protocol"] = "Protocol"
_WORDS["pt"]["protocol"] = "Protocolo"

_PROTOCOL_ID = re.compile(r'(?<![\w"/-])([a-z]{2}-[a-z]{2}) Protocol (?=\d)')
"""A provision id of a Protocol item (``<treaty> Protocol N``) in a text; not one in quotes (an atom, a rule's
text) nor inside a path or a rule id."""


def provision_text(text: str, lang: str) -> str:
    """``text`` (a provision id, or a sentence that cites some) with each Protocol item in ``lang``'s word, as
    `treaty list` names the item: ``xx-yy Protocolo 9`` in Portuguese. The id itself (``xx-yy Protocol 9``, one
    format in every language) is what machine output keeps: atoms, JSON fields that are ids, ``expect:``
    blocks, the batch's ``provisions`` column."""
    if languages.family(lang) == "en":
        return text
    return _PROTOCOL_ID.sub(rf"\1 {word('protocol', lang)} ", text)


_SOME_OF_TYPE = {
    "en": {"id": "some element of the scenario", "state": "some State", "prov": "some provision", "date": "some date",
           "ymd": "some date", "bp": "some percentage", "units": "some percentage", "cents": "some amount",
           "currency": "some currency", "months": "some number of months",
           "days": "some number of days", "int": "some number", "year": "some year",
           "term": "some value"},
    "pt": {"id": "algum elemento do cenário", "state": "algum Estado", "prov": "alguma disposição",
           "date": "alguma data", "ymd": "alguma data", "bp": "algum percentual", "units": "algum percentual",
           "cents": "algum montante", "currency": "alguma moeda", "months": "algum número de meses",
           "days": "algum número de dias",
           "int": "algum número", "year": "algum ano", "term": "algum valor"},
    "pt-PT": {"bp": "alguma percentagem", "units": "alguma percentagem"},
}
"""What an unbound argument without a noun of its own in the vocabulary is called, by its type (the vocabulary's
argument types), with the determiner that agrees with it."""


def unbound_words(logic: Logic, arg: Argument, lang: str) -> str:
    """What a reading calls ``arg`` when it leaves it unbound: the words of the noun the vocabulary gives it
    (``%~``, :meth:`Logic.noun`: "some place of business", "alguma pessoa"), else of its type ("some State")."""
    noun = logic.noun(arg)
    if noun is not None:
        return noun.words(lang)
    for table in languages.chain(lang):
        if arg.type in _SOME_OF_TYPE.get(table, {}):
            return _SOME_OF_TYPE[table][arg.type]
    raise KeyError(arg.type)


def word(key: str, lang: str) -> str:
    """One of the explanation's own words in ``lang``, from the most specific table that has it (``pt-PT``
    writes only the words that differ from ``pt``)."""
    for table in languages.chain(lang):
        if key in _WORDS.get(table, {}):
            return _WORDS[table][key]
    raise KeyError(key)


TERMS: dict[str, dict[str, str]] = {
    "pt": {
        # kinds of person, bases of residence, holdings
        "individual": "pessoa física", "company": "sociedade", "other_entity": "outra entidade",
        "government": "governo", "partnership_interest": "participação em sociedade de pessoas",
        "incorporation": "constituição", "domicile": "domicílio", "residence": "residência",
        "place_of_management": "sede de direção", "headquarters_coordination": "sede de coordenação",
        "nationality": "nacionalidade", "direct": "direta", "indirect": "indireta",
        "state_institution": "instituição estatal", "non_profit_entity": "entidade sem fins lucrativos",
        "non_profit_institution": "instituição sem fins lucrativos",
        "investment_fund_units": "cotas de fundo de investimento",
        "trust_interest": "participação em trust", "related_company": "sociedade relacionada",
        # income types
        "dividend": "dividendo", "branch_profits": "lucros de filial", "interest": "juros",
        "interest_on_equity": "juros sobre o capital próprio", "interest_on_funds": "juros sobre fundos",
        "royalty": "royalties", "technical_services": "serviços técnicos", "business_profits": "lucros das empresas",
        "shipping_air_transport": "transporte marítimo e aéreo", "immovable_property": "bens imóveis",
        "capital_gain": "ganho de capital", "independent_services": "profissões independentes",
        "employment": "rendimentos do emprego", "director_fees": "remunerações de administradores",
        "artiste_sportsperson": "artistas e desportistas", "pension": "pensão",
        "government_service": "funções públicas", "professor": "professor", "student": "estudante",
        "other_income": "outros rendimentos", "trainee": "estagiário", "grant_holder": "bolsista",
        # instruments, property, activities
        "shares": "ações", "jouissance_shares": "ações de fruição", "mining_shares": "ações de minas",
        "founders_shares": "partes de fundador", "other_profit_participating_rights": "outros direitos de participação "
        "nos lucros", "other_corporate_rights": "outros direitos sociais", "participation_account": "conta de "
        "participação", "debt_claim": "crédito", "immovable": "imóvel", "pe_business_property": "bens do "
        "estabelecimento permanente", "ships_aircraft": "navios ou aeronaves", "ship_or_aircraft": "navio ou aeronave",
        "ship": "navio", "aircraft": "aeronave", "other": "outro", "agricultural_forestry_accessories":
        "acessórios agrícolas e florestais", "landed_property_rights": "direitos sobre bens imóveis",
        "usufruct": "usufruto", "natural_resources_rights": "direitos sobre recursos naturais",
        "natural_resources": "recursos naturais", "movable_or_services": "bens móveis ou serviços",
        "operating": "atividade operacional", "holding_company": "sociedade holding",
        "group_supervision": "supervisão de grupo", "group_financing": "financiamento de grupo",
        "investments": "investimentos", "nonprofit": "sem fins lucrativos", "pension_investment":
        "investimento de fundo de pensão", "none": "nenhum", "bank": "banco", "insurer": "seguradora",
        "securities_dealer": "corretora de valores", "public_functions": "funções públicas",
        "commercial_or_industrial": "atividade comercial ou industrial", "remuneration": "remuneração",
        "scientific": "caráter científico", "literary": "caráter literário", "artistic": "caráter artístico",
        "educational": "caráter educativo", "pedagogical": "caráter pedagógico", "physician": "médico",
        "lawyer": "advogado", "engineer": "engenheiro", "architect": "arquiteto", "dentist": "dentista",
        "accountant": "contador",
        "in_name_of_enterprise": "em nome da empresa", "transfer_of_property": "transferência de propriedade",
        "provision_of_services": "prestação de serviços", "permanent_establishment": "estabelecimento permanente",
        "deduction": "dedução", "foreign_ownership": "capital estrangeiro", "branch": "filial", "office": "escritório",
        "factory": "fábrica", "workshop": "oficina", "construction_site": "canteiro de obras",
        "other_fixed_place": "outra instalação fixa", "storage": "armazenagem", "display": "exposição",
        "delivery": "entrega", "purchasing": "compra de mercadorias", "information_gathering": "coleta de informações",
        "stock_for_storage_display_delivery": "estoque para armazenagem, exposição ou entrega",
        "stock_for_processing": "estoque para transformação", "other_preparatory_or_auxiliary":
        "outra atividade preparatória ou auxiliar", "agent": "agente", "maintenance": "manutenção",
        "patent": "patente", "trademark": "marca", "design_or_model": "desenho ou modelo", "plan": "plano",
        "secret_formula_or_process": "fórmula ou processo secreto", "know_how": "know-how",
        "copyright": "direito autoral", "films_recordings": "filmes e gravações", "equipment": "equipamento",
        "information": "informações", "technical": "técnica", "consultancy": "consultiva", "managerial":
        "administrativa", "containers": "contêineres", "bareboat_rental": "afretamento a casco nu",
        "shipping": "transporte marítimo", "other_business": "outra atividade empresarial",
        "similar": "semelhante", "other_similar": "natureza similar", "other_comparable": "outro comparável",
        "same": "igual", "different": "diferente", "more_burdensome": "mais gravosa", "source_only": "só na fonte",
        "banking_financial_insurance_investment": "atividade bancária, financeira, de seguros ou de investimento",
        "ip": "propriedade intelectual", "madeira_free_zone": "Zona Franca da Madeira",
        "santa_maria_free_zone": "Zona Franca de Santa Maria", "manaus_free_zone": "Zona Franca de Manaus",
        # the word before an article the rules name by a constant (artN, artN_P: read "o Artigo N(P)")
        "article": "Artigo",
        # measures of a holding (read "o ...": "30% do capital votante"), bounds, years that windows fall in
        "votes": "capital votante", "value": "valor", "profits": "direito aos lucros", "high": "superior",
        "low": "inferior", "e": "teste (e)", "four": "teste (4)", "calendar_year": "ano-calendário",
        "employment_fiscal_year": "ano fiscal do emprego",
        "fiscal_year_earliest": "primeiro início possível do ano fiscal",
        "tax_fiscal_year": "ano fiscal do imposto",
        # the catalogue's names: rates and shares (read "a ..."), periods and day counts (read "o ..."), dates
        "artiste_public_funding_share": "parcela de financiamento público dos artistas",
        "closely_related_interest": "participação de pessoas estreitamente relacionadas",
        "connected_min_share": "participação mínima entre pessoas ligadas",
        "dividend_general_rate": "alíquota geral dos dividendos", "dividend_min_capital_share": "participação "
        "mínima no capital para dividendos", "dividend_rate_other": "alíquota dos dividendos nos demais casos",
        "dividend_rate_parent": "alíquota dos dividendos pagos à sociedade controladora",
        "dividend_reduced_rate": "alíquota reduzida dos dividendos",
        "equivalent_beneficiaries_min_share": "participação mínima de beneficiários equivalentes",
        "gross_income_to_non_entitled": "parcela da renda bruta paga a quem não tem direito aos benefícios",
        "half_of_the_days": "metade dos dias", "immovable_value_share": "parcela do valor em bens imóveis",
        "interest_rate": "alíquota dos juros", "offshore_rate_share": "fração da alíquota de um regime offshore",
        "participation_deduction_share": "parcela da dedução de participação",
        "participation_min_share": "participação mínima",
        "qualified_owners_min_share": "participação mínima de titulares qualificados",
        "royalty_other_rate": "alíquota dos royalties nos demais casos", "royalty_rate": "alíquota dos royalties",
        "royalty_trademark_rate": "alíquota dos royalties de marcas",
        "technical_fee_rate": "alíquota das remunerações por serviços técnicos",
        "third_jurisdiction_min_ratio": "proporção mínima em terceira jurisdição",
        "third_state_tax_share": "parcela do imposto do terceiro Estado",
        "construction_site_months": "prazo de duração de canteiro de obras",
        "dividend_holding_period_months": "período de detenção para dividendos",
        "independent_presence_window_months": "período de apuração da presença de profissional independente",
        "map_request_period_months": "prazo do pedido de procedimento amigável",
        "ownership_window_months": "período de apuração da participação",
        "participation_holding_period_months": "período de detenção da participação",
        "presence_window_months": "período de apuração da presença", "services_window_months":
        "período de apuração da prestação de serviços", "student_employment_months": "prazo de emprego de estudante",
        "termination_notice_months": "prazo de aviso de denúncia", "visiting_professor_months":
        "prazo de permanência de professor visitante", "connected_period_days": "número de dias de períodos conexos",
        "dividend_holding_days": "número de dias de detenção para dividendos",
        "employment_presence_days": "número de dias de presença do empregado",
        "immovable_lookback_days": "número de dias de apuração de bens imóveis",
        "independent_presence_days": "número de dias de presença de profissional independente",
        "services_days": "número de dias de prestação de serviços",
        "split_contract_days": "número de dias de contratos divididos",
        "student_employment_annual_usd": "limite anual de remuneração de emprego de estudante",
        "annual_remuneration": "remuneração anual", "signature": "assinatura",
        # the scenario's attributes that take their documented default
        "special_regime": "regime especial", "benefits_proof": "prova do direito aos benefícios",
        "past_employment": "emprego anterior", "annuity": "anuidade", "places_of_business": "instalações de negócios",
        "portugal_indirect_credit_method": "método de crédito indireto de Portugal",
        # the facts the rules may report missing or unknown that no input names (``site_period(b)``)
        "holding": "participação", "holding_until": "fim da participação", "capital": "capital",
        "owners": "titulares do capital", "holders_of": "titulares do capital",
        "votes_and_value": "votos e valor da participação", "presence": "presença", "site_period": "duração da obra",
        "site_end": "fim da obra",
        "place_status": "natureza da instalação", "federal_tax": "imposto federal", "paying_state": "Estado pagador",
        "place_of_business": "instalação de negócios", "agent_person": "pessoa do agente",
        "taxed_at_entity": "tributação na entidade", "members_taxed_directly": "tributação direta dos membros",
        "usd_exchange_rate": "taxa de câmbio do dólar", "third_jurisdiction_taxes": "impostos da terceira jurisdição",
        "services_exclusion": "exclusão dos serviços", "amount_split": "divisão do montante",
        # the attributes the scenario states (``o cenário informa {A} de {X}``)
        "activities": "atividades", "activities_preparatory_overall": "caráter preparatório do conjunto das atividades",
        "acts_exclusively_for": "atuação exclusiva por conta de", "agent_contract_authority": "poderes do agente para "
        "concluir contratos", "agent_habitual_exercise": "exercício habitual pelo agente",
        "agent_independent": "independência do agente",
        "agent_ordinary_course": "curso normal das atividades do agente",
        "arises_in": "Estado de onde provém", "arm_length_amount": "valor de mercado",
        "assimilated": "assimilação", "attributable_to_place": "imputação à instalação",
        "attributed_to_third_state_pe": "imputação a estabelecimento permanente em terceiro Estado",
        "borne_by": "quem suporta o pagamento", "business_carried_on": "atividade exercida",
        "business_property_of": "bens do negócio de", "business_substantial": "substancialidade da atividade",
        "capacity": "qualidade", "characterisation": "qualificação", "combined_activities_preparatory":
        "caráter preparatório das atividades combinadas", "competent_authority_grant":
        "concessão pela autoridade competente", "conditions_differ_from_arm_length":
        "condições diferentes das de mercado", "conducted_activity": "atividade conduzida",
        "contract_kinds": "tipos de contrato", "controlled_by": "controladores",
        "controlled_with_payer": "controle comum com o pagador", "domestic_indirect_credit": "crédito indireto interno",
        "domestic_rate": "alíquota interna", "effective_management": "direção efetiva",
        "effectively_taxed_in_residence": "tributação efetiva no Estado de residência", "employees": "empregados",
        "entity_purpose": "finalidade da entidade", "equivalent_beneficiary": "beneficiário equivalente",
        "equivalent_beneficiary_as_company": "beneficiário equivalente como sociedade",
        "exempt_in_uae": "isenção nos Emirados Árabes Unidos", "exercised_in": "Estado onde é exercido",
        "federal": "caráter federal", "financial_institution_charge": "encargo de instituição financeira",
        "fixed": "caráter fixo", "fixed_base": "base fixa", "for_teaching_until": "ensino até",
        "from_offshore_activity": "origem em atividade offshore", "gain_arises_in": "Estado de onde provém o ganho",
        "government_functions": "funções governamentais", "government_institution": "instituição governamental",
        "gross": "valor bruto", "habitual_abode": "permanência habitual", "habitually_concludes":
        "conclusão habitual de contratos", "held_by_enterprise": "detenção pela empresa",
        "identical_or_similar": "caráter idêntico ou semelhante", "incidental": "caráter acessório",
        "income_from_business": "rendimento da atividade", "institution_state": "Estado da instituição",
        "invited_by": "convite de", "kind": "tipo", "liable_to_tax": "sujeição a imposto",
        "most_favoured_nation": "nação mais favorecida", "mutual_agreement_case": "caso de procedimento amigável",
        "offshore_rate": "alíquota offshore", "partnership": "sociedade de pessoas",
        "payer_constituted": "constituição do pagador", "payer_profits_from_other_state":
        "lucros do pagador provenientes do outro Estado", "payer_taxed_without_exemption":
        "tributação do pagador sem isenção", "pe_profits_exempt": "isenção dos lucros do estabelecimento permanente",
        "period_end": "fim do período", "permanent_home": "habitação permanente", "port_of_registry":
        "porto de registro", "practical_training": "formação prática", "premises": "instalações",
        "premiums_or_risks": "prêmios ou riscos", "principal_role": "papel principal", "property": "bem",
        "property_alienated": "bem alienado", "property_situated_in": "Estado onde está o bem",
        "regularly_traded": "negociação regular", "residence_state_tax": "imposto do Estado de residência",
        "resident_before": "residência anterior", "rights": "direitos", "royalty_arises_in":
        "Estado de onde provêm os royalties", "same_circumstances": "mesmas circunstâncias",
        "same_tax_treatment_as_shares": "mesmo tratamento fiscal que as ações", "second_taxation_notified":
        "notificação da segunda tributação", "services": "natureza dos serviços",
        "situated_in": "Estado onde está situado",
        "social_security": "seguridade social", "sole_purpose": "propósito exclusivo",
        "source_law_taxes_dividends": "tributação de dividendos pela lei da fonte",
        "sources_outside_host": "fontes fora do Estado anfitrião", "tax": "imposto",
        "tax_in_force_from": "imposto em vigor desde", "taxation_notified": "notificação da tributação",
        "taxed_in_both_states": "tributação nos dois Estados", "third_jurisdiction_tax": "imposto de terceira "
        "jurisdição", "third_pe_active_business": "atividade efetiva do estabelecimento permanente em terceiro Estado",
        "treated_as_body_corporate": "tratamento como pessoa jurídica", "treatment": "tratamento",
        "value_from_immovable": "valor proveniente de bens imóveis", "vital_interests": "centro de interesses vitais",
        "withheld_at_source": "retenção na fonte",
        # conditions, notes, indicators, outcomes, errors
        "met": "atendida", "not_met": "não atendida",
        "active_business_through_permanent_establishment": "atividade empresarial por meio de estabelecimento "
        "permanente", "active_conduct_of_business": "exercício efetivo de atividade empresarial",
        "annuity_as_stated_in_scenario": "anuidade conforme informada no cenário",
        "application_date_not_encoded": "data de aplicação não codificada",
        "application_dates_not_encoded": "datas de aplicação não codificadas",
        "benefits_denied": "benefícios negados",
        "benefits_only_by_competent_authority_determination": "benefícios só por decisão da autoridade competente",
        "borne_by_pe_or_fixed_base_abroad": "suportado por estabelecimento permanente ou base fixa no exterior",
        "capped": "limitado", "case_to_competent_authority_of": "caso submetido à autoridade competente de",
        "claimant_not_a_resident": "requerente não residente",
        "competent_authority_determination": "decisão da autoridade competente",
        "connected_with_pe_or_fixed_base": "vinculação a estabelecimento permanente ou base fixa",
        "credit": "crédito", "derivative_benefits": "benefícios derivados",
        "director_fees_of_non_company": "remuneração de administrador paga por quem não é sociedade",
        "dividend_paid_by_non_company": "dividendo pago por quem não é sociedade",
        "effective_management_outside_both_states": "direção efetiva fora dos dois Estados",
        "paid_to_employee_of_payer": "pago a empregado do pagador", "encoded": "codificado",
        "entitlement_proven": "direito comprovado", "excess_over_arm_length": "excesso sobre o valor de mercado",
        "exclusive": "exclusivo", "exempt": "isento", "exemption_with_progression": "isenção com progressividade",
        "fiscal_year": "ano fiscal", "foreign_owned_enterprise": "empresa de capital estrangeiro",
        "government_interest_exemption": "isenção de juros pagos ao governo",
        "government_service_to_non_individual": "funções públicas prestadas por quem não é pessoa física",
        "home_state": "Estado de origem", "indirect_credit": "crédito indireto", "institution": "instituição",
        "interest_arises_in": "os juros provêm de", "international_traffic_crew": "tripulação em tráfego "
        "internacional", "invitation": "convite", "map_request_in_time": "pedido de procedimento amigável no prazo",
        "map_request_out_of_time": "pedido de procedimento amigável fora do prazo", "may_tax": "pode tributar",
        "national_of_paying_state": "nacional do Estado pagador", "nationals": "nacionais",
        "no_dividend_taxation_in_source_law": "a lei da fonte não tributa dividendos",
        "not_a_place_of_the_enterprise_in_the_other_state": "não é instalação da empresa no outro Estado",
        "not_a_principal_purpose": "não é um propósito principal", "not_applicable": "não aplicável",
        "not_effectively_taxed_in_residence_state": "não tributado efetivamente no Estado de residência",
        "not_permanent_establishment": "não é estabelecimento permanente",
        "object_and_purpose": "objeto e finalidade", "offshore_regime": "regime offshore",
        "only_income_attributable_to_fixed_base": "só o rendimento imputável à base fixa",
        "only_income_from_activities_there": "só o rendimento das atividades ali exercidas",
        "other_state_may_also_tax": "o outro Estado também pode tributar", "other_state_may_tax":
        "o outro Estado pode tributar",
        "participation_deduction": "dedução de participação", "partnership_excluded": "sociedade de pessoas excluída",
        "payment": "pagamento",
        "pe_connected_debt_claim": "crédito ligado a estabelecimento permanente",
        "pe_connected_right": "direito ligado a estabelecimento permanente", "period": "período",
        "personal_use": "uso pessoal",
        "principal_purpose_test_not_raised": "teste do propósito principal não suscitado",
        "procedural": "procedimental", "profits_may_be_adjusted": "os lucros podem ser ajustados",
        "public_funding": "financiamento público", "reorganisation_ignored": "reorganização desconsiderada",
        "royalty_source_taken_from_scenario": "fonte dos royalties tomada do cenário",
        "short_stay_employment": "emprego de curta permanência",
        "social_security_pension": "pensão da seguridade social", "social_security_scheme": "regime de seguridade "
        "social", "source_right_may_be_limited_by_later_brazilian_treaty": "o direito da fonte pode ser limitado "
        "por convenção brasileira posterior", "sources": "fontes",
        "taxed_as_income_of_entity": "tributado como rendimento "
        "da entidade", "taxes_of_every_kind": "impostos de qualquer natureza", "teaching": "ensino",
        "teaching_rewarded": "ensino remunerado",
        "third_state_permanent_establishment": "estabelecimento permanente em terceiro Estado",
        "to_be_proven": "a comprovar", "withholding": "retenção na fonte",
        "no_principal_purpose_for_non_resident": "sem propósito principal de obter benefícios para não residente",
        "at_most_half_of_gross_income_to_non_entitled": "no máximo metade dos rendimentos brutos usada para "
        "obrigações com pessoas sem direito aos benefícios",
        "portuguese_method_not_replaced": "método português não substituído",
        "arises_where_the_payer_resides": "provém do Estado de residência do pagador",
        "arises_where_the_property_is": "provém do Estado onde estão os bens",
        "principal_purpose": "propósito principal", "no_principal_purpose": "sem propósito principal",
        "relief": "eliminação da dupla tributação",
        "third_jurisdiction_tax_not_below_60_percent": "imposto da terceira jurisdição não inferior ao mínimo exigido",
        "air_transport_agreement_2009_without_effect": "o Acordo sobre serviços de transporte aéreo de 2009 não "
        "produz efeitos quanto aos tributos abrangidos pela convenção",
        "article_11_4_a_reaches_agency": "a disposição sobre os juros pagos a agências governamentais alcança a "
        "agência de", "article_11_4_a_does_not_reach_agency": "a disposição sobre os juros pagos a agências "
        "governamentais não alcança a agência de",
        # the assumptions a default stands for (``presumido: sem regime especial (lusoinvest)``), other bare names
        "no_special_regime": "sem regime especial", "calendar_fiscal_year": "ano fiscal igual ao ano civil",
        "fiscal_year_start": "início do ano fiscal", "not_above_arm_length": "não acima do valor de mercado",
        "not_an_annuity": "não é anuidade", "not_a_fixed_base": "não é instalação fixa",
        "not_paid_to_employee_of_payer": "não pago a empregado de quem paga",
        "not_for_teaching": "não pago por ensino", "not_for_personal_use": "não é para uso pessoal",
        "not_a_mere_purchase": "não resulta da simples compra de mercadorias",
        "management_not_aboard": "direção efetiva não situada a bordo de um navio",
        "management_on_board": "direção efetiva a bordo de um navio",
        "held_directly": "participação detida diretamente", "holding_direct": "se a participação é detida diretamente",
        "holding_not_connected": "participação não ligada a estabelecimento permanente",
        "holding_not_connected_with_place": "participação não ligada a estabelecimento permanente ou instalação fixa",
        "connected_place_of_business": "instalação à qual a participação está efetivamente ligada",
        "right_connected_place": "instalação à qual a remuneração está efetivamente ligada",
        "claim_connected_place": "instalação à qual o crédito está efetivamente ligado",
        "fees_not_connected": "remuneração não ligada a estabelecimento permanente ou instalação fixa",
        "right_not_connected": "direito ou bem não ligado a estabelecimento permanente",
        "claim_not_connected": "crédito não ligado a estabelecimento permanente",
        "income_not_connected": "direito ou bem não ligado a estabelecimento permanente",
        "right_not_connected_with_place": "direito ou bem não ligado a estabelecimento permanente ou instalação fixa",
        "other_connected_place": "instalação à qual o direito ou bem está efetivamente ligado",
        "not_aboard": "não exercido a bordo de navio ou aeronave",
        "aboard_ship_or_aircraft": "exercício a bordo de navio ou aeronave",
        "not_borne_by_permanent_establishment": "não suportado por "
        "estabelecimento permanente", "nothing_proven": "nada comprovado",
        "not_borne_by_pe_or_fixed_base": "encargo não cabe a estabelecimento permanente ou instalação fixa",
        "purpose_not_proven": "ausência de propósito principal não comprovada",
        "share_not_proven": "percentual dos rendimentos brutos não comprovado",
        "proof_no_principal_purpose": "prova da ausência de propósito principal",
        "proof_gross_income": "prova do percentual dos rendimentos brutos",
        "paid_for_past_employment": "pago por emprego anterior",
        "no_other_place_of_business": "nenhuma outra instalação de negócios",
        "holdings_after_evaluation_date": "participações posteriores à data de avaliação",
        "royalty_source": "fonte dos royalties", "article_9_adjustment": "ajuste do Artigo 9",
        "residence_only": "tributação só no Estado de residência", "all": "todas",
        "item_parties": "só as das partes do item", "at_least": "igual ou superior a", "more_than": "superior a",
        # exceptions
        "pe_connected_holding": "participação ligada a estabelecimento permanente",
        "fixed_base_connected_holding": "participação ligada a instalação fixa",
        "exemption_left_to_wholly_owned_institutions": "isenção deixada às instituições integralmente controladas",
        "ancillary_obligation": "obrigação acessória", "anti_fragmentation": "antifragmentação",
        "branch_profits_tax": "imposto sobre lucros de filial",
        "connected_activities_added": "atividades conexas somadas",
        "dependent_agent": "pessoa que atua por conta da empresa e conclui habitualmente contratos em seu nome",
        "independent_agent": "agente independente", "insurance": "seguros",
        "insurance_agent": "seguradora que arrecada prêmios ou segura riscos por intermédio de pessoa que não é "
        "agente independente",
        "non_federal_tax": "imposto não federal", "personal_allowances": "deduções pessoais",
        "preparatory_or_auxiliary": "atividade preparatória ou auxiliar",
        "royalties_paid_by_permanent_establishment": "royalties pagos por estabelecimento permanente",
        "special_relationship_excess": "excesso por relação especial", "thin_capitalisation": "subcapitalização",
        # deadlines and the events that start them
        "map_request": "pedido de procedimento amigável", "notification": "notificação",
        "second_taxation": "segunda tributação",
        # statuses and findings
        "decided": "decidido", "depends": "depende", "assumption": "presunção", "missing": "fato ausente",
        "not_encoded": "não codificado",
        "pending": "pendente", "error": "erro", "entitled": "concedidos", "denied": "negados", "open": "em aberto",
        "requires_judgment": "exige avaliação", "mutual_agreement": "acordo mútuo", "yes": "sim", "no": "não",
        "compliant": "conforme", "over_withheld": "retenção excessiva", "under_withheld": "retenção insuficiente",
        "within_cap": "dentro do limite", "no_treaty_cap": "sem limite na convenção",
        "not_checked": "não verificado", "undetermined": "indeterminado",
    },
    "pt-PT": {
        "pe_business_property": "bens do estabelecimento estável",
        "held_directly": "participação detida diretamente",
        "holding_direct": "se a participação é detida diretamente",
        "holding_not_connected": "participação não ligada a estabelecimento estável",
        "holding_not_connected_with_place": "participação não ligada a estabelecimento estável ou instalação fixa",
        "connected_place_of_business": "instalação à qual a participação está efetivamente ligada",
        "right_connected_place": "instalação à qual a remuneração está efetivamente ligada",
        "claim_connected_place": "instalação à qual o crédito está efetivamente ligado",
        "fees_not_connected": "remuneração não ligada a estabelecimento estável ou instalação fixa",
        "right_not_connected": "direito ou bem não ligado a estabelecimento estável",
        "claim_not_connected": "crédito não ligado a estabelecimento estável",
        "income_not_connected": "direito ou bem não ligado a estabelecimento estável",
        "right_not_connected_with_place": "direito ou bem não ligado a estabelecimento estável ou instalação fixa",
        "other_connected_place": "instalação à qual o direito ou bem está efetivamente ligado",
        "not_borne_by_permanent_establishment": "não suportado por estabelecimento estável",
        "not_borne_by_pe_or_fixed_base": "encargo não cabe a estabelecimento estável ou instalação fixa",
        "nothing_proven": "nada provado",
        "purpose_not_proven": "ausência de propósito principal não provada",
        "share_not_proven": "percentagem dos rendimentos brutos não provada",
        "proof_no_principal_purpose": "prova da ausência de propósito principal",
        "proof_gross_income": "prova da percentagem dos rendimentos brutos",
        "permanent_establishment": "estabelecimento estável",
        "active_business_through_permanent_establishment": "atividade empresarial por meio de estabelecimento estável",
        "borne_by_pe_or_fixed_base_abroad": "suportado por estabelecimento estável ou base fixa no exterior",
        "connected_with_pe_or_fixed_base": "vinculação a estabelecimento estável ou base fixa",
        "not_permanent_establishment": "não é estabelecimento estável",
        "pe_connected_debt_claim": "crédito ligado a estabelecimento estável",
        "pe_connected_right": "direito ligado a estabelecimento estável",
        "third_state_permanent_establishment": "estabelecimento estável em terceiro Estado",
        "pe_connected_holding": "participação ligada a estabelecimento estável",
        "fixed_base_connected_holding": "participação ligada a instalação fixa",
        "royalties_paid_by_permanent_establishment": "royalties pagos por estabelecimento estável",
        "individual": "pessoa singular", "place_of_management": "sede de direção", "direct": "direta",
        "indirect": "indireta", "investment_fund_units": "unidades de participação em fundos de investimento",
        "technical_services": "serviços técnicos", "employment": "rendimentos do emprego",
        "capital_gain": "mais-valias", "grant_holder": "bolseiro", "shares": "ações",
        "jouissance_shares": "ações de fruição", "mining_shares": "ações de minas", "debt_claim": "crédito",
        "operating": "atividade operacional", "securities_dealer": "corretor de valores mobiliários",
        "commercial_or_industrial": "atividade comercial ou industrial", "architect": "arquiteto",
        "accountant": "contabilista", "construction_site": "estaleiro de construção",
        "stock_for_storage_display_delivery": "existências para armazenagem, exposição ou entrega",
        "stock_for_processing": "existências para transformação", "information_gathering": "recolha de informações",
        "other_preparatory_or_auxiliary": "outra atividade preparatória ou auxiliar",
        "copyright": "direito de autor", "containers": "contentores", "other_business": "outra atividade empresarial",
        "banking_financial_insurance_investment": "atividade bancária, financeira, seguradora ou de investimento",
        "connected_activities_added": "atividades conexas somadas",
        "preparatory_or_auxiliary": "atividade preparatória ou auxiliar", "missing": "facto em falta",
        "denied": "recusados", "requires_judgment": "exige um juízo", "mutual_agreement": "comum acordo",
        "thin_capitalisation": "subcapitalização", "met": "cumprida", "not_met": "não cumprida",
        "entitlement_proven": "direito provado", "excess_over_arm_length": "excesso sobre o valor de plena "
        "concorrência", "object_and_purpose": "objeto e fim", "social_security_pension": "pensão da segurança social",
        "social_security_scheme": "regime de segurança social", "public_funding": "financiamento público",
        "to_be_proven": "a provar", "short_stay_employment": "emprego de curta duração",
        "attributed_to_third_state_pe": "imputação a estabelecimento estável em terceiro Estado",
        "pe_profits_exempt": "isenção dos lucros do estabelecimento estável",
        "third_pe_active_business": "atividade efetiva do estabelecimento estável em terceiro Estado",
        "port_of_registry": "porto de registo", "calendar_year": "ano civil", "scientific": "carácter científico",
        "literary": "carácter literário", "artistic": "carácter artístico", "educational": "carácter educativo",
        "pedagogical": "carácter pedagógico", "premiums_or_risks": "prémios ou riscos",
        "insurance_agent": "seguradora que cobra prémios ou segura riscos por intermédio de pessoa que não é "
        "agente independente",
        "controlled_with_payer": "controlo comum com o pagador",
        # Portugal's words where Brazil's differ: a branch is a "sucursal", a rate a "taxa"
        "branch": "sucursal", "branch_profits": "lucros de sucursal", "branch_profits_tax": "imposto sobre lucros de "
        "sucursal", "dividend_general_rate": "taxa geral dos dividendos", "dividend_rate_other": "taxa dos dividendos "
        "nos demais casos", "dividend_rate_parent": "taxa dos dividendos pagos à sociedade-mãe",
        "dividend_reduced_rate": "taxa reduzida dos dividendos", "interest_rate": "taxa dos juros",
        "offshore_rate_share": "fração da taxa de um regime offshore", "royalty_other_rate": "taxa dos royalties nos "
        "demais casos", "royalty_rate": "taxa dos royalties", "royalty_trademark_rate": "taxa dos royalties de marcas",
        "technical_fee_rate": "taxa das remunerações por serviços técnicos", "domestic_rate": "taxa interna",
        "offshore_rate": "taxa offshore", "gross_income_to_non_entitled": "parcela do rendimento bruto paga a quem não "
        "tem direito aos benefícios", "construction_site_months": "prazo de duração de estaleiro de construção",
        "activities_preparatory_overall": "carácter preparatório do conjunto das atividades",
        "combined_activities_preparatory": "carácter preparatório das atividades combinadas",
        "federal": "carácter federal", "fixed": "carácter fixo", "identical_or_similar": "carácter idêntico ou "
        "semelhante", "incidental": "carácter acessório", "social_security": "segurança social",
        "treated_as_body_corporate": "tratamento como pessoa coletiva",
        "annuity_as_stated_in_scenario": "anuidade conforme indicada no cenário",
        "government_service_to_non_individual": "funções públicas prestadas por quem não é pessoa singular",
    },
    "en": {
        # the facts the rules may report missing or unknown that no input of the scenario reads (``holding_until(a,
        # b)``): English words only where the constant with its underscores as spaces would not read
        "holding_until": "end of the holding", "owners": "holders of the capital",
        "proof_no_principal_purpose": "proof that no principal purpose was a benefit for a non-resident",
        "proof_gross_income": "proof of the share of the gross income used for persons not entitled",
        "purpose_not_proven": "no proof that no principal purpose was a benefit for a non-resident",
        "share_not_proven": "no proof of the share of the gross income used for persons not entitled",
        "holders_of": "holders of the capital",
        "votes_and_value": "votes and value of the holding", "site_period": "duration of the site",
        "site_end": "last day of the site",
        "place_status": "status of the place of business", "paying_state": "paying State",
        "agent_person": "person acting as the agent", "taxed_at_entity": "taxation at the level of the entity",
        "members_taxed_directly": "direct taxation of the members", "usd_exchange_rate": "US dollar exchange rate",
        "third_jurisdiction_taxes": "taxes of the third jurisdiction",
        "services_exclusion": "exclusion of the services",
        "management_on_board": "effective management aboard a ship",
        "held_directly": "held directly", "holding_direct": "whether the holding is direct",
        "holding_not_connected": "holding not connected with a permanent establishment",
        "holding_not_connected_with_place": "holding not connected with a permanent establishment or fixed base",
        "connected_place_of_business": "place of business the holding is effectively connected with",
        "right_connected_place": "place of business the payment is effectively connected with",
        "claim_connected_place": "place of business the debt-claim is effectively connected with",
        "fees_not_connected": "payment not connected with a permanent establishment or fixed base",
        "right_not_connected": "right or property not connected with a permanent establishment",
        "claim_not_connected": "debt-claim not connected with a permanent establishment",
        "income_not_connected": "right or property not connected with a permanent establishment",
        "right_not_connected_with_place": "right or property not connected with a permanent establishment or "
        "fixed base",
        "other_connected_place": "place of business the right or property is effectively connected with",
        "aboard_ship_or_aircraft": "employment aboard a ship or aircraft",
        "amount_split": "split of the amount", "annual_remuneration": "annual remuneration",
        "activities_preparatory_overall": "preparatory or auxiliary character of the overall activity",
        "acts_exclusively_for": "acting exclusively on behalf of",
        "agent_contract_authority": "the agent's authority to conclude contracts",
        "agent_habitual_exercise": "the agent's habitual exercise of an authority to conclude contracts",
        # the activities of a place of business (``{B} carries on {A}``), in words (exam53b)
        "stock_for_storage_display_delivery": "keeping a stock of goods for storage, display or delivery",
        "stock_for_processing": "keeping a stock of goods for processing by another enterprise",
        "purchasing": "purchasing goods", "information_gathering": "collecting information",
        "other_preparatory_or_auxiliary": "another activity of a preparatory or auxiliary character",
        "other_business": "another business activity",
        # the dependent-agent paragraph of the permanent-establishment article: a person acting for the enterprise
        # with authority to conclude contracts, dependent or an independent agent outside the ordinary course of
        # its business (exam53b)
        "dependent_agent": "a person acting for the enterprise who habitually concludes contracts in its name",
        "insurance_agent": "an insurer collecting premiums or insuring risks through a person other than an "
        "independent agent",
        "agent_independent": "the agent's independent status",
        "agent_ordinary_course": "the agent acting in the ordinary course of its business",
        "arises_in": "State where the income arises", "arm_length_amount": "arm's length amount",
        "attributable_to_place": "attribution to the place of business",
        "attributed_to_third_state_pe": "attribution to a permanent establishment in a third State",
        "borne_by": "who bears the payment", "business_property_of": "business property of",
        "business_substantial": "substantiality of the business",
        "combined_activities_preparatory": "preparatory or auxiliary character of the combined activities",
        "competent_authority_grant": "grant by the competent authority",
        "conditions_differ_from_arm_length": "conditions differing from those at arm's length",
        "contract_kinds": "kinds of contract", "controlled_with_payer": "common control with the payer",
        "domestic_indirect_credit": "domestic indirect credit", "domestic_rate": "domestic rate",
        "effectively_taxed_in_residence": "effective taxation in the State of residence",
        "entity_purpose": "purpose of the entity", "exempt_in_uae": "exemption in the United Arab Emirates",
        "exercised_in": "State where it is exercised", "federal": "federal character", "fixed": "fixed character",
        "for_teaching_until": "teaching up to", "from_offshore_activity": "derivation from an offshore activity",
        "gain_arises_in": "State where the gain arises", "habitually_concludes": "habitual conclusion of contracts",
        "held_by_enterprise": "holding by the enterprise", "identical_or_similar": "identical or similar character",
        "incidental": "incidental character", "income_from_business": "income from the business",
        "institution_state": "State of the institution", "invited_by": "invitation by",
        "liable_to_tax": "liability to tax", "mutual_agreement_case": "mutual agreement case",
        "payer_constituted": "constitution of the payer",
        "payer_profits_from_other_state": "payer's profits from the other State",
        "payer_taxed_without_exemption": "taxation of the payer without exemption",
        "pe_profits_exempt": "exemption of the permanent establishment's profits", "period_end": "end of the period",
        "property_situated_in": "State where the property is situated",
        "residence_state_tax": "tax of the State of residence", "resident_before": "residence before the visit",
        "royalty_arises_in": "State where the royalties arise",
        "same_tax_treatment_as_shares": "same tax treatment as income from shares",
        "second_taxation_notified": "notification of the second taxation",
        "situated_in": "State where it is situated",
        "source_law_taxes_dividends": "taxation of dividends by the law of the source State",
        "sources_outside_host": "sources outside the host State", "tax_in_force_from": "tax in force from",
        "taxation_notified": "notification of the taxation", "taxed_in_both_states": "taxation in both States",
        "third_jurisdiction_tax": "tax of the third jurisdiction",
        "third_pe_active_business": "active business of the permanent establishment in a third State",
        "treated_as_body_corporate": "treatment as a body corporate",
        "value_from_immovable": "value derived from immovable property",
        # notes, indicators, conditions, errors, assumptions and exceptions of the findings
        "active_business_through_permanent_establishment": "active business through a permanent establishment",
        "annuity_as_stated_in_scenario": "annuity as stated in the scenario",
        "application_date_not_encoded": "the date of application is not encoded",
        "application_dates_not_encoded": "the dates of application are not encoded",
        "benefits_only_by_competent_authority_determination": "benefits only by determination of the competent "
        "authority", "borne_by_pe_or_fixed_base_abroad": "borne by a permanent establishment or fixed base abroad",
        "case_to_competent_authority_of": "case presented to the competent authority of",
        "claimant_not_a_resident": "the claimant is not a resident",
        "connected_with_pe_or_fixed_base": "connected with a permanent establishment or fixed base",
        "director_fees_of_non_company": "director's fees paid by a payer that is not a company",
        "dividend_paid_by_non_company": "dividend paid by a payer that is not a company",
        "effective_management_outside_both_states": "place of effective management outside both States",
        "excess_over_arm_length": "excess over the arm's length amount",
        "foreign_owned_enterprise": "enterprise owned from abroad",
        "government_interest_exemption": "exemption of interest paid to a government",
        "government_service_to_non_individual": "government service rendered by a payee that is not an individual",
        "interest_arises_in": "the interest arises in",
        "map_request_in_time": "mutual agreement request in time",
        "map_request_out_of_time": "mutual agreement request out of time",
        "no_dividend_taxation_in_source_law": "the law of the source State does not tax dividends",
        "not_a_place_of_the_enterprise_in_the_other_state": "not a place of business of the enterprise in the other "
        "State", "not_effectively_taxed_in_residence_state": "not effectively taxed in the State of residence",
        "only_income_attributable_to_fixed_base": "only the income attributable to the fixed base",
        "only_income_from_activities_there": "only the income from the activities exercised there",
        "student_employment_annual_usd": "annual limit of a student's employment remuneration",
        "pe_connected_debt_claim": "debt-claim connected with a permanent establishment",
        "pe_connected_right": "right or property connected with a permanent establishment",
        "principal_purpose_test_not_raised": "the principal purpose test is not raised",
        "royalty_source_taken_from_scenario": "the source of the royalties is taken from the scenario",
        "source_right_may_be_limited_by_later_brazilian_treaty": "the source State's right may be limited by a later "
        "Brazilian convention",
        "third_jurisdiction_tax_not_below_60_percent": "the tax of the third jurisdiction is not below the minimum "
        "required", "third_state_permanent_establishment": "permanent establishment in a third State",
        "to_be_proven": "to be proven",
        "no_principal_purpose_for_non_resident": "no principal purpose of obtaining benefits for a non-resident",
        "at_most_half_of_gross_income_to_non_entitled": "at most half of the gross income paid to persons not "
        "entitled to the benefits", "portuguese_method_not_replaced": "the Portuguese method is not replaced",
        "arises_where_the_payer_resides": "arises in the State where the payer resides",
        "arises_where_the_property_is": "arises in the State where the property is situated",
        "taxed_as_income_of_entity": "taxed as income of the entity",
        "not_above_arm_length": "not above the arm's length amount",
        "not_borne_by_permanent_establishment": "not borne by a permanent establishment",
        "not_borne_by_pe_or_fixed_base": "not borne by a permanent establishment or fixed base",
        "paid_for_past_employment": "paid in consideration of past employment",
        "holdings_after_evaluation_date": "holdings after the evaluation date",
        "pe_connected_holding": "holding connected with a permanent establishment",
        "fixed_base_connected_holding": "holding connected with a fixed base",
        "exemption_left_to_wholly_owned_institutions": "exemption left to wholly owned institutions",
        "royalties_paid_by_permanent_establishment": "royalties paid by a permanent establishment",
        "air_transport_agreement_2009_without_effect": "the 2009 air transport agreement has no effect on the taxes "
        "covered by the convention", "article_11_4_a_reaches_agency": "the provision on interest paid to "
        "government agencies reaches the agency of", "article_11_4_a_does_not_reach_agency": "the provision on "
        "interest paid to government agencies does not reach the agency of",
        # the word before an article the rules name by a constant (artN, artN_P: read "Article N(P)", never
        # "art13"; the exceptions that name articles have their words in the vocabulary, %=)
        "article": "Article",
    },
}
"""The symbolic constants the readings show (income types, kinds of person, bases of residence, exceptions
...) in Portuguese, by constant; English shows the constant with its underscores as spaces, or the words of
``TERMS["en"]`` where those would not read (the facts, notes and exceptions of the findings: never a status, an
outcome or a value of the scenario format, which English writes as the format does)."""


def term(name: str, lang: str) -> str:
    """A symbolic constant in ``lang``: ``pe_connected_holding`` → ``pe connected holding`` (English)."""
    found = translated(name, lang)
    return name.replace("_", " ") if found is None else found


_ARTICLE_CONSTANT = re.compile(r"art(\d+)(?:_(\d+))?")
"""A constant by which the rules name an article (``art11``) or one of its paragraphs (``art22_1``)."""


def translated(name: str, lang: str) -> str | None:
    """The words of a symbolic constant in ``lang``: those the vocabulary declares for it (``%= name()``), else
    :data:`TERMS`'s (Portuguese never falls back on the English words); an article the rules name by a constant
    reads as the article (``artN_P``: "Artigo N(P)")."""
    declared = load_logic(logic_dir()).terms.get((name, 0))
    if declared is not None:
        return declared.reading(lang)
    portuguese = languages.family(lang) == "pt"
    for key in languages.chain(lang):
        if portuguese and key == "en":
            break
        found = TERMS.get(key, {}).get(name)
        if found is not None:
            return found
    m = _ARTICLE_CONSTANT.fullmatch(name)
    if m is not None and name != "article" and (article := translated("article", lang)) is not None:
        return f"{article} {m.group(1)}" + (f"({m.group(2)})" if m.group(2) else "")
    return None


def value(name: str, lang: str) -> str:
    """A value of the scenario format or the rules (``branch_profits``, ``not_encoded``) as shown: in English
    as written, in Portuguese in :data:`TERMS`'s words where it has them."""
    found = translated(name, lang)
    return name if found is None else found


_LEADING_CONSTANT = re.compile(r"^([a-z][a-z0-9_]*)(?=\(|$)")


def constant_text(text: str, lang: str) -> str:
    """A finding's fact that starts with a constant of the rules (``derivative_benefits``,
    ``benefits_only_by_competent_authority_determination(br)``): that constant in ``lang``'s words where
    :data:`TERMS` has them, in English else with its underscores as spaces (:func:`term`), the text unchanged
    otherwise. Its arguments follow the words in parentheses, a State by its name (``... autoridade competente
    (Brasil)``), or right after words that end in a preposition (``caso submetido à autoridade competente do
    Brasil``, ``the interest arises in Brazil``), a constant in its words (``alternativa (serviços técnicos,
    Brasil, 1000)``); a single argument that is itself such a constant follows a colon (``a comprovar:
    ...``)."""
    read = term_text(text, lang)
    if read is not None:
        return read
    m = _LEADING_CONSTANT.match(text)
    english = languages.family(lang) == "en"
    found = (term(m.group(1), lang) if english else translated(m.group(1), lang)) if m else None
    if m is None or found is None:
        return text
    rest = text[m.end():]
    args = _call_arguments(rest)
    if args is None:
        return found + rest
    states = state_names(lang)
    if len(args) == 1:
        arg = args[0]
        if PREPOSITION_BEFORE.search(found + " ") if not english else _ENGLISH_PREPOSITION_END.search(found):
            return with_state(found + " {st}", "st", arg, lang) if arg in states else f"{found} {arg}"
        inner = constant_text(arg, lang)
        if inner != arg:
            return f"{found}: {inner}"
    return f"{found} ({', '.join(_argument_words(a, states, lang) for a in args)})"


_NUMBER_TYPES = frozenset({"date", "ymd", "bp", "units", "cents", "months", "days", "int", "year"})
"""The argument types whose values are numbers the rules write (a term's text has them as digits)."""


def term_text(text: str, lang: str) -> str | None:
    """A compound term the rules write as a value (an indicator's kind, a note: ``acquired_shortly_before(alfa-uy,
    364)``) in ``lang``'s words, by the reading the vocabulary declares for it (``%=``) with each argument
    rendered by its type (a number as a percentage, an amount, a date ..., a State by its name, a constant in
    its words); None where the vocabulary declares none."""
    m = _LEADING_CONSTANT.match(text)
    args = _call_arguments(text[m.end():]) if m is not None else None
    if m is None or args is None:
        return None
    declared = load_logic(logic_dir()).terms.get((m.group(1), len(args)))
    if declared is None:
        return None
    values: dict[str, str] = {}
    states: dict[str, str] = {}
    names = state_names(lang)
    for spec, arg in zip(declared.args, args, strict=True):
        if spec.type in _NUMBER_TYPES and re.fullmatch(r"-?\d+", arg):
            values[spec.name] = render_value(clingo.Number(int(arg)), spec.type, lang)
        elif spec.type == "state" and arg in names:
            values[spec.name], states[spec.name] = names[arg], arg
        elif spec.type == "state" and re.fullmatch(r"[a-z]{2}", arg):  # a third State the catalogue does not name
            values[spec.name], states[spec.name] = render_value(clingo.Function(arg), "state", lang), arg
        elif spec.type in ("term", "currency") and re.fullmatch(r"[a-z][a-z0-9_]*", arg):
            values[spec.name] = render_value(clingo.Function(arg), spec.type, lang)
        else:
            values[spec.name] = arg
    return fill(declared.reading(lang), values, states, lang)


_ENGLISH_PREPOSITION_END = re.compile(r"\s(?:of|in|to|by|for|from)$")
_SNAKE_CONSTANT = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


def _argument_words(arg: str, states: Mapping[str, str], lang: str) -> str:
    """An argument of a finding's fact: a State by its name, a constant in its words (in English, a constant of
    several words with its underscores as spaces), anything else (an id, a number) as it is."""
    found = states.get(arg) or translated(arg, lang)
    if found is None and languages.family(lang) == "en" and _SNAKE_CONSTANT.fullmatch(arg):
        return term(arg, lang)
    return found or arg


_ATTRIBUTE_OF_FACT = re.compile(r"^(?P<name>[a-z][a-z0-9_]*)\((?P<args>[^()]*)\)\.(?P<attr>[a-z_]+)$")
"""A fact named with an attribute of a record (``holding(a, b).until``): the record's name, its arguments, the
attribute."""


def fact_text(fact: str, lang: str) -> str:
    """An open fact of the scenario (missing, given as unknown) as the rules name it
    (``activities_preparatory_overall(b)``) in ``lang``'s words: in Portuguese its constant's words
    (:func:`constant_text`: "caráter preparatório do conjunto das atividades (b)"); otherwise, and in English,
    the reading of the input that states it with its value left open (:func:`_blank_reading`:
    ``activities_preparatory_overall(S, B, V)``: "whether the overall activity of b is preparatory or
    auxiliary"), else in English the constant's words
    (``holding_until(a, b)``: "end of the holding (a, b)"); the name as it is where none exists. A term the
    vocabulary reads (``%=``, :func:`term_text`) reads by that first."""
    read = term_text(fact, lang)
    if read is not None:
        return read
    english = languages.family(lang) == "en"
    attribute = _ATTRIBUTE_OF_FACT.match(fact)
    if attribute is not None and not english:  # ``holding(a, b).until``: the attribute's constant, "fim da participação
        joined = f"{attribute['name']}_{attribute['attr']}({attribute['args']})"  # (a, b)"; else as the rules name it
        words = constant_text(joined, lang)  # (never "participação(a, b).until", half translated)
        return words if words != joined else fact
    words = fact if english else constant_text(fact, lang)
    if words != fact:
        return words
    m = _LEADING_CONSTANT.match(fact)
    args = _call_arguments(fact[m.end():]) if m is not None else None
    blank = _blank_reading(m.group(1), len(args), lang, logic_dir()) if m is not None and args else None
    if blank is None or args is None:
        return constant_text(fact, lang) if english else fact
    template, specs = blank
    values: dict[str, str] = {}
    states: dict[str, str] = {}
    known = state_names(lang)
    for (arg_name, typ), arg in zip(specs, args, strict=True):
        values[arg_name] = arg
        if typ == "state" and (arg in known or re.fullmatch(r"[a-z]{2}", arg)):  # a State by its name, as the
            values[arg_name], states[arg_name] = state_name(arg, lang), arg  # readings write it ("the law of Brazil")
    return fill(template, values, states, lang)


def stated_fact(fact: str, value: bool, lang: str) -> str | None:
    """An open yes-or-no fact as the rules name it (``agent_ordinary_course(b)``) stated with a value, by the
    reading of the input that states it, its words chosen by that value ("the agent b acts in the ordinary course
    of its business", "... does not act ..."): what a condition on the fact says (blind59 R2); None where the input's
    reading has no words chosen by its value."""
    m = _LEADING_CONSTANT.match(fact)
    args = _call_arguments(fact[m.end():]) if m is not None else None
    if m is None or not args:
        return None
    pred = load_logic(logic_dir()).predicate(m.group(1), len(args) + 2)
    if pred is None or pred.args[-1].type != "term":
        return None
    template, last = pred.reading(lang), pred.args[-1].name
    if f"{{{last}}}" in template or not re.search(r"\{" + re.escape(last) + r"\?", template):
        return None
    values = dict(zip((a.name for a in pred.args[1:-1]), args, strict=True))
    values[last] = render_value(clingo.Function("yes" if value else "no"), "term", lang)
    states = {a.name: values[a.name] for a in pred.args[1:-1] if a.type == "state"
              and re.fullmatch(r"[a-z]{2}", values[a.name])}
    for name, code in states.items():
        values[name] = state_name(code, lang)
    return fill(template, values, states, lang)


@lru_cache(maxsize=512)
def _blank_reading(name: str, arity: int, lang: str, root: Path) -> tuple[str, list[tuple[str, str]]] | None:
    """The reading of the input ``name(S, A1..An, V)`` that states a fact ``name(A1..An)`` with its value
    ``V`` (a term) left open, and the names and types of A1..An: words chosen by a yes/no value as the question
    they answer ("whether ... is preparatory"), a label before its value (``...: {V}``) alone, any other reading
    quoted with its value blank (“b is a …”); None where there is no such input."""
    pred = load_logic(root).predicate(name, arity + 2)
    if pred is None or pred.args[-1].type != "term":
        return None
    template = pred.reading(lang)
    last = f"{{{pred.args[-1].name}}}"
    chosen = re.compile(r"\{" + re.escape(pred.args[-1].name) + r"\?([^{}|]*)\|[^{}|]*\}")
    if last not in template and chosen.search(template):  # words chosen by the value: the question they answer
        return word("whether", lang).format(fact=chosen.sub(lambda m: m.group(1), template)), \
            [(a.name, a.type) for a in pred.args[1:-1]]
    if last not in template:
        return None
    if template.endswith(": " + last):  # a label before its value: the label alone; before a yes/no value (its
        # reading for yes says so): the question that reading answers ("whether ... is regularly traded ...")
        yes = next((pred.reading_of(lang, [*[""] * (len(pred.args) - 1), "yes"]) for arg, value, *_ in pred.by_value
                    if arg == pred.args[-1].name and value == "yes"), None)
        return (word("whether", lang).format(fact=yes) if yes else template[:-len(": " + last)]), \
            [(a.name, a.type) for a in pred.args[1:-1]]
    return "“" + template.replace(last, "…") + "”", [(a.name, a.type) for a in pred.args[1:-1]]


def _call_arguments(rest: str) -> list[str] | None:
    """The top-level arguments of ``(a, f(b, c))`` (``["a", "f(b, c)"]``); None unless ``rest`` is exactly one
    such parenthesised list."""
    if not (rest.startswith("(") and rest.endswith(")")):
        return None
    args, depth, start = [], 0, 1
    for i, c in enumerate(rest):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0 and i != len(rest) - 1:
                return None
        elif c == "," and depth == 1:
            args.append(rest[start:i].strip())
            start = i + 1
    args.append(rest[start:-1].strip())
    return args


def plain(sym: clingo.Symbol, lang: str = "en") -> str:
    """A symbol without quotes or underscores: ``holding(lusoinvest, alfa)``, ``place of management``
    (a constant in ``lang``'s words, :func:`term`)."""
    t = sym.type  # each property of a symbol is a call into clingo: read once
    if t == clingo.SymbolType.String:
        return str(sym.string)
    if t == clingo.SymbolType.Number:
        return str(sym.number)
    if t == clingo.SymbolType.Function:
        args = sym.arguments
        if args:
            return f"{sym.name}({', '.join(plain(a, lang) for a in args)})"
        return term(str(sym.name), lang)
    return str(sym)


def _as_written(sym: clingo.Symbol) -> str:
    """A term as findings write it: ``alternative(technical_services, br, 1000)`` (strings unquoted, constants
    as the rules name them, for :func:`fact_text` to put in words)."""
    if sym.type == clingo.SymbolType.String:
        return str(sym.string)
    if sym.type == clingo.SymbolType.Function and sym.arguments:
        return f"{sym.name}({', '.join(_as_written(a) for a in sym.arguments)})"
    return str(sym)


def render_value(sym: clingo.Symbol, typ: str, lang: str) -> str:
    """One argument rendered according to its vocabulary type."""
    t = sym.type
    if typ == "state" and t == clingo.SymbolType.Function and not sym.arguments:
        return state_name(sym.name, lang)
    if typ == "currency" and t == clingo.SymbolType.Function and not sym.arguments:
        return sym.name.upper()  # its ISO 4217 code, which the rules write in lower case: ``usd`` → USD
    if t == clingo.SymbolType.Number:
        n = sym.number
        if typ == "date":
            try:
                d = dates.from_day_number(n)
            except (ValueError, OverflowError):
                return str(n)
            return word("open", lang) if d == dates.OPEN_END else formats.date(d, lang)
        if typ == "ymd":
            try:
                return formats.date(dates.from_ymd_number(n), lang)
            except ValueError:
                return str(n)
        if typ == "bp":
            return formats.percent_bp(n, lang)
        if typ == "units":
            return formats.percent_units(n, lang)
        if typ == "cents":  # an amount in hundredths of its currency's unit, written as money: 10,000.00 / 10.000,00
            return formats.number(Decimal(n).scaleb(-2), lang)
        if typ == "months":
            return f"{formats.number(n, lang)} {word('months', lang)}"
        if typ == "days":  # a number of days, with its unit: 183 days / 183 dias (1 day / 1 dia)
            return f"{formats.number(n, lang)} {word('day' if abs(n) == 1 else 'days', lang)}"
        if typ == "year":  # a calendar year: never grouped
            return str(n)
        return formats.number(n, lang)  # a count, grouped as the language writes it: 10,000 / 10.000
    if typ == "prov" and t == clingo.SymbolType.String:
        return provision_text(sym.string, lang)
    if typ == "term" and t == clingo.SymbolType.Function and sym.arguments:
        written = _as_written(sym)
        words = fact_text(written, lang)
        if words != written:
            return words
    return plain(sym, lang) if typ == "term" else plain(sym)


_PLACEHOLDER = re.compile(r"\{([A-Za-z][A-Za-z0-9_]*)\}")
_AGREEING = re.compile(r"\{([A-Za-z][A-Za-z0-9_]*):([^{}|]*)\|([^{}|]*)\}")
"""Words of a reading that agree in number with a State it names: ``{St:pode|podem}``, the singular form then
the plural, chosen by the State's name (:func:`state_plural`: "o Brasil pode", "os Estados Unidos podem")."""


_CHOICE = re.compile(r"\{([A-Za-z][A-Za-z0-9_]*)\?([^{}|]*)\|([^{}|]*)\}")
"""Words of a reading chosen by a yes/no value it names: ``{V?is|is not}``, the words for yes (or a value left
unbound) then those for no or none ("X is not paid in consideration of past employment", never "...: no")."""
_CHOICE_NAMES = re.compile(r"\{([A-Za-z][A-Za-z0-9_]*)\?")
"""The arguments a reading names by a choice of words (:data:`_CHOICE`); ``{T?|}`` names one and shows nothing."""


def _negative(lang: str) -> frozenset[str]:
    """The words a negative value (``no``, ``none``) is rendered with in ``lang``."""
    return frozenset(render_value(clingo.Function(name), "term", lang) for name in ("no", "none"))


def reading(logic: Logic, sym: clingo.Symbol, lang: str) -> str:
    """The sentence for a ground atom (its first argument, the scenario id, is never shown)."""
    if sym.type != clingo.SymbolType.Function:
        return str(sym)
    args = sym.arguments
    pred = logic.predicate(sym.name, len(args))
    if pred is None:
        return str(sym)
    values = {
        spec.name: render_value(arg, spec.type, lang)
        for spec, arg in zip(pred.args, args, strict=True)
    }
    states = {
        spec.name: str(arg.name) for spec, arg in zip(pred.args, args, strict=True)
        if spec.type == "state" and arg.type == clingo.SymbolType.Function and not arg.arguments
    }
    template = pred.reading_of(lang, [str(a) for a in args])
    for spec, arg in zip(pred.args, args, strict=True):
        if spec.type == "date" and arg.type == clingo.SymbolType.Number and _open_end(arg.number):
            template = open_ended(template, spec.name, lang)
    return fill(template, values, states, lang)


def _open_end(n: int) -> bool:
    try:
        return dates.from_day_number(n) == dates.OPEN_END
    except (ValueError, OverflowError):
        return False


_RANGE_END = {"en": re.compile(r"\s+(?:to|until)\s+\{(?P<name>[A-Za-z]\w*)\}"),
              "pt": re.compile(r"\s+(?:a|até)\s+\{(?P<name>[A-Za-z]\w*)\}")}
_RANGE_START = {"en": None, "pt": re.compile(r"(?:^|(?<=\s))de(?=\s+\{[A-Za-z]\w*\}$)")}


def open_ended(template: str, name: str, lang: str) -> str:
    """A reading's ``template`` for an argument ``name`` that is the open end of a period (no end date given):
    the end of the range in words ("from {From} to {To}" → "from {From}, with no end stated"; "de {From} a {To}"
    → "desde {From}, sem data final informada"), never "to (open)"; the template unchanged where the date is not
    the end of a range."""
    family = languages.family(lang)
    for m in _RANGE_END[family].finditer(template):
        if m.group("name") != name:
            continue
        before = template[:m.start()]
        start = _RANGE_START[family]
        if start is not None:
            before = start.sub("desde", before)
        return before + word("open_end", lang) + template[m.end():]
    return template


def fill(template: str, values: dict[str, str], states: dict[str, str], lang: str,
         unbound: Mapping[str, tuple[str, bool]] | None = None) -> str:
    """``template`` with each ``{Name}`` replaced by ``values[Name]``; a State (``states[Name]``, its code)
    by its name with the article it takes, contracted with a preposition before it (:func:`state_in`); an
    argument left unbound (``unbound[Name]``: its noun's words, "some place of business", and whether a
    noun before it may name it, as for a scenario's id) by those words, or by the noun the template already
    names before it (:func:`some_in`). Words that agree with a State (``{St:é|são}``, :data:`_AGREEING`) take the
    number of its name; with an argument that is no State, or is left unbound ("algum Estado"), the singular. Words
    chosen by a yes/no value (``{V?is|is not}``, :data:`_CHOICE`) are those for its value."""
    template = _AGREEING.sub(lambda m: m.group(3) if m.group(1) in states and state_plural(states[m.group(1)], lang)
                             else m.group(2), template)
    template = _CHOICE.sub(lambda m: m.group(3) if values.get(m.group(1)) in _negative(lang) else m.group(2), template)
    out, at = "", 0
    for m in _PLACEHOLDER.finditer(template):
        out += template[at:m.start()]
        name = m.group(1)
        if unbound and name in unbound:
            out = some_in(out, *unbound[name], lang)
        elif name in states:
            out, words = state_in(out, states[name], lang)
            out += words
        else:
            shown = values.get(name, m.group(0))
            if languages.family(lang) == "en" and _VOWEL.match(shown) and _ARTICLE_A.search(out):
                # "is a {K}" of an individual: "is an individual"; of another entity: "is another entity"
                out = out[:-2] + ("an" if shown.startswith("other ") else "an ")
            out += shown
        at = m.end()
    return out + template[at:]


_ARTICLE_A = re.compile(r"(?:^|(?<=\s))a $")
_VOWEL = re.compile(r"[aeiouAEIOU]")
"""English ``a`` right before a value that opens with a vowel reads ``an`` (:func:`fill`)."""


_ARTICLES_EN = ("the", "a", "an")
_NOT_NOUNS_EN = frozenset({
    "other", "same", "first", "second", "last", "next", "following", "only", "own", "whole", "of", "to", "by",
    "in", "on", "at", "for", "with", "from", "under", "through", "behind", "between", "than", "as", "and", "or"})
"""Words that may follow an article without being the noun an argument is named by ("the other {St}")."""
_OPENING_WORDS_EN = frozenset({"whether", "where", "what", "when", "which", "if", "only", "are", "is", "the", "a",
                               "an", "since", "until", "after", "before", "during", "over"})
"""Words that open a reading before an argument without being a noun ("whether {B} is ...")."""
_SOME_PT = {"o": "algum", "a": "alguma", "os": "alguns", "as": "algumas", "um": "algum", "uma": "alguma"}
"""The indefinite determiner that agrees with an article ('o agente {B}' → 'algum agente')."""
_UNCONTRACTED = {contracted: pair for pair, contracted in CONTRACTED.items()} | {
    "num": ("em", "um"), "numa": ("em", "uma"), "dum": ("de", "um"), "duma": ("de", "uma")}
_NOT_NOUNS_PT = frozenset({
    "de", "em", "por", "para", "com", "sobre", "entre", "a", "o", "que", "se", "e", "ou", "seu", "sua", "seus",
    "suas", "outro", "outra", "outros", "outras", "mesmo", "mesma", "mesmos", "mesmas", "próprio", "própria",
    "primeiro", "primeira", "último", "última", "qual", "cujo", "cuja"})
"""Words that may follow an article without being the noun an argument is named by ('o outro {St}')."""
_WORD_BEFORE = re.compile(r"(?:^|(?<=\s))([^\W\d_][\w-]*) $")


def some_in(before: str, words: str, apposed: bool, lang: str) -> str:
    """The text ``before`` an unbound argument followed by what names it: ``words``, its noun's words with
    their determiner ("some place of business", "algum local de negócios"), unless ``before`` ends with a
    noun of its own that names the argument:

    - the noun of ``words`` itself, after an article, a preposition or nothing ("of kind {K}" → "of some
      kind", "a pessoa {P}" → "alguma pessoa", "do tipo {Ty}" → "de algum tipo de rendimento");
    - with ``apposed`` (a scenario's id: what a noun before it names, not the subject of a clause as in
      "the kind {Prov} describes"), another noun after an article: that noun with the determiner the
      article agrees with ("the agent {B}" → "some agent", "o canteiro {B}" → "algum canteiro", "da
      instalação {B}" → "de alguma instalação");
      and in English a sentence that opens with a noun ("site {B} lasts" → "some site lasts");
    - an article alone is left out (a contraction leaves its preposition): "the {Me}" → "some measure".

    Portuguese ``a`` right before the argument is kept (the preposition: "pago a {P}" → "pago a alguma
    pessoa")."""
    portuguese = languages.family(lang) == "pt"
    determiner, _, noun = words.partition(" ")
    head = noun.split(" ")
    for k in range(len(head), 0, -1):  # the template names the same noun: "of kind {K}", "a pessoa {P}"
        named = " ".join(head[:k]) + " "
        if not before.endswith(named) or not (len(before) == len(named) or before[-len(named) - 1].isspace()):
            continue
        rest = before[:-len(named)]
        prefix = _article_before(rest, portuguese)
        if prefix is not None:
            return prefix + words
        last = _WORD_BEFORE.search(rest)
        if last is None or last.group(1) in (PREPOSITIONS_PT if portuguese else PREPOSITIONS_EN):
            return rest + words
        break
    last = _WORD_BEFORE.search(before)
    article = _WORD_BEFORE.search(before[:last.start(1)]) if last is not None else None
    if apposed and last is not None and article is not None and \
            last.group(1) not in (_NOT_NOUNS_PT if portuguese else _NOT_NOUNS_EN):
        art, lead, named = article.group(1), before[:article.start(1)], last.group(1)
        if portuguese:  # another noun after an article: "o agente {B}" → "algum agente"
            preposition, plain_article = _UNCONTRACTED.get(art, ("", art))
            if plain_article in _SOME_PT and named not in _UNCONTRACTED:
                return f"{lead}{preposition + ' ' if preposition else ''}{_SOME_PT[plain_article]} {named}"
        elif art in _ARTICLES_EN:
            return f"{lead}{determiner} {named}"
    if apposed and not portuguese and last is not None and last.start(1) == 0 and last.group(1).islower() \
            and last.group(1) not in _NOT_NOUNS_EN | PREPOSITIONS_EN | _OPENING_WORDS_EN:  # "site {B} lasts"
        return f"{determiner} {last.group(1)}"
    prefix = _article_before(before, portuguese, keep_a=True)
    return (before if prefix is None else prefix) + words


def _article_before(text: str, portuguese: bool, keep_a: bool = False) -> str | None:
    """``text`` without the article that ends it (a contraction: its preposition stays, "do " → "de ");
    None when it does not end with one. With ``keep_a``, Portuguese ``a`` (also a preposition) is kept."""
    last = _WORD_BEFORE.search(text)
    if last is None:
        return None
    art, lead = last.group(1), text[:last.start(1)]
    if not portuguese:
        return lead if art in _ARTICLES_EN else None
    if art in _UNCONTRACTED:
        return f"{lead}{_UNCONTRACTED[art][0]} "
    if art in _SOME_PT and not (keep_a and art == "a"):
        return lead
    return None


PREPOSITIONS_EN = frozenset({"of", "to", "by", "in", "on", "at", "for", "with", "from", "under", "through",
                              "behind", "between", "about", "into", "within", "concerning"})
PREPOSITIONS_PT = frozenset({"de", "em", "por", "para", "com", "sobre", "entre", "a", "até", "desde",
                              "perante", "contra", "sem"})


def user_atom(sym: clingo.Symbol) -> str:
    """The atom as a user writes it in a query: scenario id dropped, ids quoted."""
    if sym.type != clingo.SymbolType.Function:
        return str(sym)
    args = sym.arguments
    if not args:
        return str(sym)
    return f"{sym.name}({', '.join(str(a) for a in args[1:])})"
