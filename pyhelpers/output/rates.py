"""Rate tables (``treaty rates``) as Markdown, CSV, JSON and an xlsx workbook; en or pt headings.

Pure functions returning text (or the workbook's bytes): only the CLI prints. Every output of one table
is byte-identical from run to run (the workbook's dates are fixed).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pyhelpers.base import formats
from pyhelpers.base import lang as languages
from pyhelpers.base.errors import InputError
from pyhelpers.base.rulebase import logic_dir
from pyhelpers.base.version import pip_extra
from pyhelpers.engine.program import Predicate, load_logic
from pyhelpers.engine.rates import ITEM, OWNER, PAYER, PLACE, RateRow, RateTable
from pyhelpers.engine.results import Condition, Finding, StateOutcome
from pyhelpers.explain.readings import (
    CONTRACTED,
    PREPOSITIONS_EN,
    PREPOSITIONS_PT,
    after_preposition,
    constant_text,
    fill,
    state_article,
    state_name,
    state_names,
    term,
    territory_codes,
    translated,
    value,
    with_state,
)
from pyhelpers.output.render import (
    conditions_text,
    finding_text,
    label,
    outcome_text,
    provision_words,
    values_text,
    wording,
)
from pyhelpers.scenario.catalogue import catalogue
from pyhelpers.scenario.expectations import MAY_TAX_ALWAYS
from pyhelpers.scenario.openfacts import UNNAMED_STATE

FORMATS = ("markdown", "csv", "json", "xlsx")

_WORDS = {
    "en": {
        "title": "Source-State limits",
        "intro": "Computed by `treaty rates` from the rules, never typed in: each item is paid on {date}, which is "
                 "also the day the answers are evaluated on (the date of evaluation), by a company resident of the "
                 "source State to a beneficial owner resident of the other State; the facts left open (the holding, "
                 "a threshold the rules test) are examined on both sides of every figure the treaty cites. {holding}"
                 "{notes}",
        "holding_end": "A holding is held from the day the conditions give, its end not stated: up to the payment at "
                       "least, nothing being assumed after it (a period that only a later day would complete leaves "
                       "the end of the holding open, a missing fact). ",
        "notes": "Stated of every situation: {facts}.",
        "left_out": "Not in the table (not encoded: the corpus's text of {treaty} lacks the article that governs "
                    "them, so none can be cited): {rows}.",
        "left_out_if": "{kind}, if {conditions}",
        "unsettled": "On {date} the dates from which {treaty} applies are not settled by the corpus ({provision}: "
                     "settled from 1 January {year}): every item paid then is not encoded. ",
        "left_out_source": "{row}, with {states} as the source State",
        "owner": "{kinds} resident of {state}",
        "always": "—",
        "open": "open",
        "treaty": "treaty",
        "owner_kind": "a beneficial owner that is a {kind}:",
        "third_state": "a third State",
        "holding": "the holding of {holder} in {company}",
        "holding_capital": "share of the capital",
        "holding_from": "held since",
        "holding_until": "held until",
        # a stated field of the situations that a reader names with its value inside ("payment for technical
        # services", never "payment for services: technical"): by its path
        "given:payment_for.services": "payment for {values} services",
        "given:payment_for.rights": "payment for the use of a {values}",
    },
    "pt": {
        "title": "Limites do Estado da fonte",
        "intro": "Calculado por `treaty rates` a partir das regras, nunca escrito à mão: cada rendimento é pago em "
                 "{date}, que é também a data de avaliação das respostas, por uma sociedade residente do Estado da "
                 "fonte a um beneficiário efetivo residente do outro Estado; os fatos em aberto (a participação, um "
                 "limiar que as regras testam) são examinados dos dois lados de cada valor citado pela "
                 "convenção. {holding}{notes}",
        "holding_end": "Uma participação é detida desde o dia que as condições indicam, sem data final informada: ao "
                       "menos até o pagamento, nada se presumindo depois dele (um período que só um dia posterior "
                       "completaria deixa em aberto o fim da participação, um fato ausente). ",
        "notes": "Informado em todas as situações: {facts}.",
        "left_out": "Fora da tabela (não codificado: falta ao texto da convenção {treaty} no corpus o artigo que "
                    "os rege, e nenhum pode ser citado): {rows}.",
        "left_out_if": "{kind}, se {conditions}",
        "unsettled": "Em {date} as datas a partir das quais a convenção {treaty} se aplica não estão definidas no "
                     "corpus ({provision}: definidas a partir de 1º de janeiro de {year}): todo rendimento pago nessa "
                     "data é não codificado. ",
        "left_out_source": "{row}, com {states} como Estado da fonte",
        "owner": "{kinds} residente de {state}",
        "always": "—",
        "owner_kind": "um beneficiário efetivo do tipo {kind}:",
        "open": "em aberto",
        "treaty": "convenção",
        "third_state": "um terceiro Estado",
        "holding": "a participação {holder} {company}",
        "holding_capital": "parcela do capital",
        "holding_from": "detida desde",
        "holding_until": "detida até",
        "given:payment_for.services": "serviços de natureza {values}",
        "given:payment_for.rights": "pagamento pelo uso de {values}",
    },
    "pt-PT": {
        "intro": "Calculado por `treaty rates` a partir das regras, nunca escrito à mão: cada rendimento é pago em "
                 "{date}, que é também a data de avaliação das respostas, por uma sociedade residente do Estado da "
                 "fonte a um beneficiário efetivo residente do outro Estado; os factos em aberto (a participação, "
                 "um limiar que as regras testam) são examinados dos dois lados de cada valor citado pela "
                 "convenção. {holding}{notes}",
        "holding_end": "Uma participação é detida desde o dia que as condições indicam, sem data final indicada: pelo "
                       "menos até ao pagamento, nada se presumindo depois dele (um período que só um dia posterior "
                       "completaria deixa em aberto o fim da participação, um facto em falta). ",
        "notes": "Indicado em todas as situações: {facts}.",
        "left_out": "Fora da tabela (não codificado: falta ao texto da convenção {treaty} no corpus o artigo que "
                    "os rege, e nenhum pode ser citado): {rows}.",
        "unsettled": "Em {date} as datas a partir das quais a convenção {treaty} se aplica não estão fixadas no "
                     "corpus ({provision}: fixadas a partir de 1 de Janeiro de {year}): todo o rendimento pago nessa "
                     "data é não codificado. ",
        "owner_kind": "um beneficiário efetivo do tipo {kind}:",
        "third_state": "um Estado terceiro",
    },
}

_ROLES = {
    "en": {OWNER: "the beneficial owner", PAYER: "the paying company", ITEM: "the item", PLACE: "the branch"},
    "pt": {OWNER: "o beneficiário efetivo", PAYER: "a sociedade pagadora", ITEM: "o rendimento", PLACE: "a filial"},
    "pt-PT": {PLACE: "a sucursal"},
}
"""The persons, item and place of business of the tables' situations (:mod:`pyhelpers.engine.rates` names them by
these ids) as a row names them, with the definite article (Portuguese contracts it with a preposition)."""

_HOLDING_PT = {"holder": "de", "company": "em"}
"""The prepositions before the holder and the company of a holding in Portuguese ("a participação do ... na ...")."""

_COLUMNS = {
    "en": ("income", "source State", "beneficial owner", "conditions", "source-State limit", "provisions", "notes"),
    "pt": ("rendimento", "Estado da fonte", "beneficiário efetivo", "condições", "limite do Estado da fonte",
           "dispositivos", "notas"),
    "pt-PT": ("rendimento", "Estado da fonte", "beneficiário efetivo", "condições", "limite do Estado da fonte",
              "disposições", "notas"),
}

CSV_COLUMNS = ("treaty", "income_type", "source", "residence", "owner", "given", "conditions", "limit", "outcome",
               "max_rate_bp", "provisions", "notes", "conditions_text", "limit_text", "notes_text")
"""The CSV's columns (and the JSON's keys of a row): the rules' notation for programs (``given``,
``conditions``, ``limit``, ``notes``, as :meth:`~pyhelpers.engine.rates.RateRow.as_json` writes them), then the
same in words in the language of ``--lang``, as the Markdown table's cells say them (:data:`WORDED`)."""

WORDED = ("conditions_text", "limit_text", "notes_text")
"""The columns in words: a row's facts and conditions (empty where it has none), its limit, its notes."""


def _name(code: str, lang: str) -> str:
    return state_name(code, lang)


def _role(rid: str, lang: str) -> str:
    """A person, the item or the place of business of the situations by its role (``the beneficial owner``)."""
    return wording(_ROLES, lang).get(rid, rid)


def _contract(before: str, words: str, lang: str) -> str:
    """``words`` (with their article) after ``before`` in ``lang``: in Portuguese the article contracted with a
    preposition that ends ``before`` ("de" + "o beneficiário efetivo" → "do beneficiário efetivo")."""
    article, _, rest = words.partition(" ")
    if languages.family(lang) != "pt" or not rest:
        return before + words
    return "".join(after_preposition(before, article, rest))


_IDS = re.compile(r"(?:(?<=\()|(?<=, ))(" + "|".join(map(re.escape, (OWNER, PAYER, ITEM, PLACE))) + r")(?=[,)])")


def _fact_words(fact: str, treaty: str, lang: str) -> tuple[str, tuple[str, ...]]:
    """A finding's fact with the situations' ids as their roles; and the third States among its arguments (the
    generated situations name one State that is neither Contracting State, standing for any other)."""
    states = catalogue().states.get(treaty, ())
    thirds = tuple(dict.fromkeys(a for a in re.findall(r"(?<=[(,\s])([a-z]{2})(?=[,)])", fact)
                                 if a not in states and a in territory_codes()))
    return _IDS.sub(lambda m: _role(m.group(1), lang), fact), thirds


def _third(text: str, code: str, lang: str) -> str:
    """``text`` with the State ``code`` named as a third State (with its article or contraction in Portuguese)."""
    third, name = wording(_WORDS, lang)["third_state"], state_name(code, lang)
    if languages.family(lang) == "pt":
        article = state_article(code, lang)
        if article:
            for (preposition, art), contracted in CONTRACTED.items():
                if art == article:
                    text = text.replace(f"{contracted} {name}", f"{preposition} {third}")
            text = text.replace(f"{article} {name}", third)
    return text.replace(name, third)


def _finding(kind: str, prov: str, fact: str, treaty: str, lang: str) -> str:
    """A note or an open finding of a row as `treaty check` words it (:func:`finding_text`), the situations'
    persons by their roles and a third State as such."""
    words, thirds = _fact_words(fact, treaty, lang)
    text = finding_text(Finding(kind, prov, words), lang)
    for code in thirds:
        text = _third(text, code, lang)
    return text


_NOTE = re.compile(r"^(?P<fact>.*) \((?P<prov>[a-z]{2}-[a-z]{2}(?: \S+)*)\)$")


def _row_note(note: str, treaty: str, lang: str) -> str:
    """A row's note (``fact (provision)``, as :func:`pyhelpers.engine.rates.notes_of` writes it) in words."""
    m = _NOTE.match(note)
    return _note(note, lang) if m is None else _finding("note", m["prov"], m["fact"], treaty, lang)


def _listed(words: Sequence[str], lang: str) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {label('or', lang)} {words[-1]}"


def _value_words(value_: str, kind: str, treaty: str, lang: str) -> str:
    """One value of an open fact: a State by its name (one the treaty does not name: a third State), a value of
    the format in ``lang``'s words, yes or no."""
    if kind == "state" and (re.fullmatch(r"[a-z]{2}", value_) or value_ == UNNAMED_STATE):
        return state_name(value_, lang) if value_ in catalogue().states.get(treaty, ()) \
            else wording(_WORDS, lang)["third_state"]
    if value_ in ("true", "false"):
        return term("yes" if value_ == "true" else "no", lang)
    if kind == "term" and re.fullmatch(r"[a-z][a-z0-9_]*", value_):
        return term(value_, lang)
    return values_text(value_, lang)


def _values(c: Condition, treaty: str, lang: str) -> str:
    if c.listed and not c.listed[0].startswith("["):  # a list's values are said by the elements they hold
        return _listed([_value_words(v, c.kind, treaty, lang) for v in c.listed], lang)
    return _value_words(c.values, c.kind, treaty, lang)


_RECORD = re.compile(r"^holding\((?P<holder>[^,()]+), (?P<company>[^,()]+)\)\.(?P<field>\w+)$")
_OF = re.compile(r"^(?:persons\.(?P<person>[^.]+)|income\((?P<item>[^()]+)\))\.(?P<path>[a-z_.]+)$")


def _holding(holder: str, company: str, lang: str) -> str:
    template = wording(_WORDS, lang)["holding"]
    if languages.family(lang) != "pt":
        return template.format(holder=_role(holder, lang), company=_role(company, lang))
    return template.format(holder=_contract(f"{_HOLDING_PT['holder']} ", _role(holder, lang), lang),
                           company=_contract(f"{_HOLDING_PT['company']} ", _role(company, lang), lang))


def _input_reading(fields: Sequence[str]) -> tuple[str, str, Predicate] | None:
    """The vocabulary's input that states a field of the scenario (``persons.<1>.partnership``): its name is the
    fact whose ``fact_leaf`` is that field, the field's name, or the names of its block and field
    (``royalty_arises_in``); it reads its subject and the value. Returns the names of the subject's and the
    value's arguments and the entry; None where none reads the field."""
    path = ".".join(fields)
    leaves = [name for name, templates in catalogue().fact_leaves.items()
              if any(t.split(".", 1)[-1] == path for t in templates)]
    logic = load_logic(logic_dir())
    for name in dict.fromkeys([*leaves, fields[-1], "_".join(fields[-2:])]):
        pred = logic.predicate(name, 3)
        if pred is None or pred.role != "input":
            continue
        subject_arg, value_arg = pred.args[1].name, pred.args[2].name
        if "{" + value_arg + "}" in pred.en or "{" + value_arg + "?" in pred.en:
            return subject_arg, value_arg, pred
    return None


def _fill(template: str, subject_arg: str, subject: str, lang: str) -> str:
    """``template`` with its subject (``{I}``) named by its role, or left out where the words before it already
    name it ("the royalties {I} arise in" → "the royalties arise in")."""
    place = "{" + subject_arg + "}"
    at = template.find(place)
    if at < 0:
        return template
    before, after = template[:at], template[at + len(place):]
    noun = re.search(r"(?:^|\s)(\w+)\s+([^\W\d_][\w-]*) $", before)
    articles = ("the",) if languages.family(lang) == "en" else ("o", "a", "os", "as", "do", "da", "dos", "das",
                                                                   "no", "na", "nos", "nas")
    prepositions = PREPOSITIONS_EN if languages.family(lang) == "en" else PREPOSITIONS_PT
    if noun is not None and noun.group(1).lower() in articles and noun.group(2) not in prepositions:
        return before.rstrip() + after
    return _contract(before, subject, lang) + after


def _condition(c: Condition, treaty: str, lang: str) -> str:
    """An open fact's values under which a row holds, in words: a holding's field after the holding ("the holding
    of the beneficial owner in the paying company: share of the capital T or more"); a field the vocabulary's
    input reads, by that reading (its value filled in, or after a colon where several); any other field by its
    words; else as `treaty check` writes the condition."""
    values = _values(c, treaty, lang)
    record = _RECORD.match(c.fact)
    if record is not None and f"holding_{record['field']}" in wording(_WORDS, lang):
        return f"{_holding(record['holder'], record['company'], lang)}: " \
               f"{wording(_WORDS, lang)['holding_' + record['field']]} {values}"
    of = _OF.match(c.fact)
    if of is None:
        return conditions_text((c,), lang, if_clause=False)  # a situation stated, not an "if"
    subject, fields = of["person"] or of["item"], of["path"].split(".")
    found = _input_reading(fields)
    if found is not None:
        subject_arg, value_arg, pred = found
        template = _fill(pred.reading(lang), subject_arg, _role(subject, lang), lang)
        one = c.listed[0] if len(c.listed) == 1 else (c.values if not c.listed else None)
        chosen = re.compile(r"\{" + re.escape(value_arg) + r"\?([^{}|]*)\|([^{}|]*)\}")
        if chosen.search(template):  # words chosen by a yes/no value: those of the value, or the fact left blank
            if one in _YES or one in _NO:
                return chosen.sub(lambda m: m.group(1) if one in _YES else m.group(2), template)
            return f"{chosen.sub(lambda m: m.group(1), template)}: {values}"
        place = "{" + value_arg + "}"
        before, _, after = template.partition(place)
        if one == "not stated":  # no value: the reading with its value said not stated ("arise in (not stated)")
            return f"{before}({values}){after}"
        if one is not None and pred.args[2].type == "state":
            if one in catalogue().states.get(treaty, ()):
                return fill(template, {}, {value_arg: one}, lang)
            return _contract(before, values, lang) + after  # a third State
        if one is not None or before.endswith(": "):
            return before + values + after
        return f"{before}…{after}: {values}"
    return f"{_field_words(fields, lang)}: {values}"


_YES = frozenset({"yes", "true"})
_NO = frozenset({"no", "none", "false"})
"""A yes/no field's values as a row's condition lists them (:func:`_condition`: the words a reading chooses by
them, ``{V?is|is not}``)."""


def _field_words(fields: Sequence[str], lang: str) -> str:
    """A field of the scenario by the words of its names (those that have words in ``lang``)."""
    english = languages.family(lang) == "en"
    words = [w for f in fields if (w := translated(f, lang) or (term(f, lang) if english else None))]
    return " ".join(words) or ".".join(fields)


def _given(given: str, lang: str) -> str:
    """A fact a row's situations state (``payment_for.rights = [copyright] | [patent]``) in words: as a reader
    names it, where the table's words have a phrase for its field ("payment for the use of a copyright or
    patent"), else its field's words, then its values."""
    path, _, alternatives = given.partition(" = ")
    lists = [[term(v.strip(), lang) for v in alt.strip().strip("[]").split(",") if v.strip()]
             for alt in alternatives.split(" | ")]
    values = _listed([", ".join(ws) for ws in lists], lang)
    phrase = wording(_WORDS, lang).get(f"given:{path}")
    return phrase.format(values=values) if phrase else f"{_field_words(path.split('.'), lang)}: {values}"


def _conditions(row: RateRow, lang: str) -> str:
    """The facts a row's situation states and the values of its open facts, in words (:func:`_condition`); the
    fields of one holding after it once ("the holding of ...: held since ... and share of the capital ...")."""
    named = row.named if len(row.named) == len(row.conditions) else row.conditions
    parts = [_given(g, lang) for g in row.given]
    for c in named:
        text = _condition(c, row.treaty, lang) if isinstance(c, Condition) else values_text(c, lang)
        subject, colon, rest = text.partition(": ")
        if colon and parts and _RECORD.match(c.fact if isinstance(c, Condition) else "") \
                and parts[-1].startswith(subject + ": "):
            parts[-1] += f" {label('and', lang)} {rest}"
        else:
            parts.append(text)
    return "; ".join(parts)


_OWNER_FACT = re.compile(r"^a beneficial owner of kind (?P<kind>\w+): (?P<path>[a-z_.]+) = (?P<value>.*)$")


def _table_note(note: str, lang: str) -> str:
    """A fact every situation states of a kind of beneficial owner (``a beneficial owner of kind company:
    entitlement.regularly_traded = true``, as :func:`pyhelpers.engine.rates.rate_table` writes it) in words: the
    kind, then the field as a condition reads it (:func:`_condition`)."""
    m = _OWNER_FACT.match(note)
    if m is None:
        return _note(note, lang)
    kind = wording(_WORDS, lang)["owner_kind"].format(kind=term(m["kind"], lang))
    fact = Condition(f"persons.{OWNER}.{m['path']}", m["value"])
    return f"{kind} {_condition(fact, '', lang)}"


_OWNER_NOTE = re.compile(r"a beneficial owner of kind (\w+):")
_ROW_NOTE = re.compile(r"^([a-z][a-z0-9_]*)( \(.*\))?$")
_STATE_NOTE = re.compile(r"^([a-z][a-z0-9_]*)\(([a-z]{2})\)( \(.*\))?$")  # interest_arises_in(br) (provision)


def _note(note: str, lang: str) -> str:
    """A note of the table in ``lang``: the kinds of owner and the rules' constants translated."""
    if languages.family(lang) == "en":
        return note
    note = _OWNER_NOTE.sub(lambda m: wording(_WORDS, lang)["owner_kind"].format(kind=term(m.group(1), lang)), note)
    row = _ROW_NOTE.match(note)
    if row:
        note = term(row.group(1), lang) + (row.group(2) or "")
    elif (at := _STATE_NOTE.match(note)) and at.group(2) in state_names(lang) and translated(at.group(1), lang):
        note = with_state(f"{translated(at.group(1), lang)} {{st}}", "st", at.group(2), lang) + (at.group(3) or "")
    else:  # a constant with arguments: its name in lang's words, as `treaty check` writes it
        note = constant_text(note, lang)
    return values_text(note, lang)


_LIMIT_PT = {
    "capped": "até {rate} do montante bruto",
    "exempt": "não pode tributar",
    "may_tax": "pode tributar",
    "exclusive": "só este Estado pode tributar",
    "not_encoded": "não codificado: {provisions}",
}
"""The limits in Portuguese, by outcome (a limit with open facts is shown as the rules name them)."""


_OPEN_LIMIT = re.compile(r"^(?P<label>.*?); open: (?P<open>.*)$")
_OPEN_FACT = re.compile(r"^(?P<kind>[a-z ]+): (?P<fact>.*) \((?P<prov>[a-z]{2}-[a-z]{2}(?: \S+)*)\)$")
_CAPPED = re.compile(r"^capped (?P<most>at most )?(?P<rate>\d+(?:\.\d+)?)%$")


def _label_outcome(label: str) -> StateOutcome:
    """The source State's outcome that :attr:`StateOutcome.label` wrote ``label`` for."""
    capped = _CAPPED.match(label)
    if capped is not None:
        bp = round(float(capped["rate"]) * 100)
        return StateOutcome("", "undetermined", None, (), at_most_bp=bp) if capped["most"] else \
            StateOutcome("", "capped", bp, ())
    if label == MAY_TAX_ALWAYS:
        return StateOutcome("", "undetermined", None, (), may_tax_always=True)
    return StateOutcome("", label.replace(" ", "_"), None, ())


def _open_limit(limit: str, treaty: str, lang: str) -> str:
    """A limit the rules leave open for these values (``undetermined; open: missing: fact (provision)``, as
    :func:`pyhelpers.engine.rates.rate_table` writes it) in ``lang``: the outcome and each open finding in the
    words of `treaty check`, the situations' persons by their roles."""
    found = _OPEN_LIMIT.match(limit)
    if found is None:
        return limit if languages.family(lang) == "en" else term(limit, lang)
    opened = []
    for part in found["open"].split("; "):
        fact = _OPEN_FACT.match(part)
        opened.append(term(part, lang) if fact is None else
                      _finding(fact["kind"].replace(" ", "_"), fact["prov"], fact["fact"], treaty, lang))
    outcome = _label_outcome(found["label"])
    if outcome.outcome == "capped" and outcome.max_rate_bp is not None:  # as a decided cell writes its cap
        head = found["label"] if languages.family(lang) == "en" else \
            _LIMIT_PT["capped"].format(rate=formats.percent_bp(outcome.max_rate_bp, lang))
    else:
        head = outcome_text(outcome, lang)
    return f"{head}; {wording(_WORDS, lang)['open']}: {'; '.join(opened)}"


def _unnamed(row: RateRow, table: RateTable) -> bool:
    """A row the rules leave not encoded naming no article, only the treaty (the corpus does not have the article
    that governs the item): no provision to cite, so it is left out of the tables and said in a note
    (:func:`left_out_text`). Not one the treaty's dates of application leave not encoded (the treaty alone is then
    the provision cited for them, :attr:`RateTable.settled`): the preamble says so (:func:`_unsettled`)."""
    dates = table.settled.get(row.treaty, (0, ""))[1]
    return row.outcome == "not_encoded" and bool(row.provisions) and \
        all(" " not in p and p != dates for p in row.provisions)


def _unsettled(table: RateTable, treaty: str, lang: str) -> str:
    """The preamble's sentence where the table's day is before the first year the corpus settles that ``treaty``
    applies (:attr:`RateTable.settled`); empty otherwise."""
    year, provision = table.settled.get(treaty, (0, ""))
    if not provision or int(table.date[:4]) >= year:
        return ""
    return wording(_WORDS, lang)["unsettled"].format(date=formats.date(table.date, lang), treaty=treaty,
                                                    provision=provision, year=year)


def _holdings(table: RateTable, treaty: str) -> bool:
    """Whether a row of ``treaty``'s table holds under a condition on a holding (its witness has a holding record,
    whose end it does not state: the preamble says what is assumed of it)."""
    return any(r.witness.get("holdings") for r in _shown(table) if r.treaty == treaty)


def _shown(table: RateTable) -> list[RateRow]:
    """The rows the tables show: every row but those that name no provision (:func:`_unnamed`)."""
    return [r for r in table.rows if not _unnamed(r, table)]


def left_out_text(table: RateTable, treaty: str, lang: str = "en") -> str:
    """The note under ``treaty``'s table on the rows left out for naming no provision (:func:`_unnamed`): each
    type of income with its conditions, and the source States; empty where there are none."""
    words = wording(_WORDS, lang)
    grouped: dict[str, list[str]] = {}
    for r in table.rows:
        if r.treaty == treaty and _unnamed(r, table):
            kind = term(r.income_type, lang)
            conditions = _conditions(r, lang)
            text = words["left_out_if"].format(kind=kind, conditions=conditions) if conditions else kind
            grouped.setdefault(text, []).append(_name(r.source, lang))
    if not grouped:
        return ""
    rows = "; ".join(words["left_out_source"].format(row=text, states=_listed(list(dict.fromkeys(states)), lang))
                     for text, states in grouped.items())
    return provision_words(words["left_out"].format(treaty=treaty, rows=rows), lang)


def _limit(row: RateRow, lang: str) -> str:
    if languages.family(lang) != "pt" or row.outcome not in _LIMIT_PT:  # undetermined: the item's status
        return _open_limit(row.limit, row.treaty, lang)
    rate = formats.percent_bp(row.max_rate_bp, lang) if row.max_rate_bp is not None else ""
    return _LIMIT_PT[row.outcome].format(rate=rate, provisions="; ".join(row.provisions))


def _cells(row: RateRow, lang: str) -> tuple[str, ...]:
    words = wording(_WORDS, lang)
    kinds = ", ".join(value(k, lang) for k in row.owner.split(", "))
    owner = words["owner"].format(kinds=kinds, state=_name(row.residence, lang)) if languages.family(lang) == "en" \
        else with_state(words["owner"].replace("{kinds}", kinds), "state", row.residence, lang)  # do Brasil
    return (term(row.income_type, lang), _name(row.source, lang), owner, _conditions(row, lang) or words["always"],
            _limit(row, lang), "; ".join(row.provisions), "; ".join(_row_note(n, row.treaty, lang) for n in row.notes))


def _escape(text: str) -> str:
    return text.replace("|", "\\|")


def markdown(table: RateTable, lang: str = "en") -> str:
    """One section per treaty: a heading, how the table was computed, and one row per limit."""
    words = wording(_WORDS, lang)
    out: list[str] = []
    cat = catalogue()
    for treaty in table.treaties:
        read = table.treaty_notes.get(treaty, table.notes)  # only the facts this treaty's rules read
        notes = words["notes"].format(facts="; ".join(_table_note(n, lang) for n in read)) if read else ""
        partner = next((st for st in cat.states.get(treaty, ()) if st != cat.home), "")
        out += [f"### {treaty}: {words['title']} ({_name(partner, lang)})", "",
                words["intro"].format(date=formats.date(table.date, lang), notes=notes,
                                      holding=_unsettled(table, treaty, lang)
                                      + (words["holding_end"] if _holdings(table, treaty) else "")).rstrip(), "",
                "| " + " | ".join(languages.pick(_COLUMNS, lang)) + " |",
                "|" + "---|" * len(languages.pick(_COLUMNS, lang))]
        out += ["| " + " | ".join(_escape(c) for c in _cells(r, lang)) + " |" for r in _shown(table)
                if r.treaty == treaty]
        out.append("")
        if left := left_out_text(table, treaty, lang):
            out += [left, ""]
    return provision_words("\n".join(out), lang)


def _record(row: RateRow, lang: str) -> dict[str, Any]:
    """A row as the JSON and the CSV give it: the rules' notation, then the worded columns (:data:`WORDED`)."""
    words = (_conditions(row, lang), _limit(row, lang), "; ".join(_row_note(n, row.treaty, lang) for n in row.notes))
    return {**row.as_json(), **{k: provision_words(v, lang) for k, v in zip(WORDED, words, strict=True)}}


def rows_as_records(table: RateTable, lang: str = "en") -> list[dict[str, Any]]:
    return [_record(r, lang) for r in _shown(table)]


def as_json(table: RateTable, lang: str = "en") -> str:
    """The table for programs: the rows (:data:`CSV_COLUMNS`), and the facts every situation states as the
    rules write them (``notes``) and in words (``notes_text``)."""
    return json.dumps({"date": table.date, "treaties": list(table.treaties), "notes": list(table.notes),
                       "notes_text": [provision_words(_table_note(n, lang), lang) for n in table.notes],
                       "notes_by_treaty": {t: list(ns) for t, ns in table.treaty_notes.items()},
                       "left_out_text": {t: text for t in table.treaties if (text := left_out_text(table, t, lang))},
                       "rows": rows_as_records(table, lang)}, indent=2, ensure_ascii=False) + "\n"


def _flat(row: RateRow, lang: str) -> list[str]:
    rec = _record(row, lang)
    return ["; ".join(v) if isinstance(v, list) else ("" if v is None else str(v)) for v in
            (rec[c] for c in CSV_COLUMNS)]


def as_csv(table: RateTable, lang: str = "en") -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    w.writerows(_flat(r, lang) for r in _shown(table))
    return buf.getvalue()


FIXED_DATE = datetime(1980, 1, 1)
"""The workbook's creation and modification dates (and its zip members' times: the earliest a zip can
state): fixed, so the same table gives the same bytes."""


def as_xlsx(table: RateTable, lang: str = "en") -> bytes:
    """Two sheets: ``rates``, the CSV's columns, a row per limit; and the table in words in ``lang`` (its title:
    the treaty and the Markdown table's columns), for a reader (needs openpyxl: the ``xlsx`` extra)."""
    try:
        from openpyxl import Workbook
    except ImportError:  # pragma: no cover - openpyxl is the xlsx extra's dependency
        raise InputError(f"--format xlsx needs openpyxl: {pip_extra('xlsx')}") from None
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "rates"
    ws.append(list(CSV_COLUMNS))
    for row in _shown(table):
        rec = _flat(row, lang)
        ws.append([row.max_rate_bp if c == "max_rate_bp" else v for c, v in zip(CSV_COLUMNS, rec, strict=True)])
    words = wb.create_sheet(wording(_WORDS, lang)["title"])
    words.append([wording(_WORDS, lang)["treaty"], *languages.pick(_COLUMNS, lang)])
    for row in _shown(table):
        words.append([row.treaty, *_cells(row, lang)])
    for treaty in table.treaties:
        if left := left_out_text(table, treaty, lang):
            words.append([treaty, left])
    wb.properties.created = FIXED_DATE
    wb.properties.modified = FIXED_DATE
    buf = io.BytesIO()
    wb.save(buf)
    return _fixed_zip(buf.getvalue())


def _fixed_zip(data: bytes) -> bytes:
    """The workbook's zip with every member's time and the modification date fixed (zipfile and openpyxl
    stamp the time of writing)."""
    import zipfile

    src = zipfile.ZipFile(io.BytesIO(data))
    stamp = FIXED_DATE.strftime("%Y-%m-%dT%H:%M:%SZ").encode("ascii")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=FIXED_DATE.timetuple()[:6])
            fixed.compress_type = zipfile.ZIP_DEFLATED
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":  # openpyxl stamps the time of saving as modified
                body = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*", rb"\g<1>" + stamp, body)
            dst.writestr(fixed, body)
    return out.getvalue()


def render(table: RateTable, fmt: str, lang: str = "en") -> str | bytes:
    """The table in ``fmt`` (one of :data:`FORMATS`): text, or bytes for xlsx."""
    if fmt == "markdown":
        return markdown(table, lang)
    if fmt == "csv":
        return as_csv(table, lang)
    if fmt == "json":
        return as_json(table, lang)
    if fmt == "xlsx":
        return as_xlsx(table, lang)
    raise InputError(f"--format: expected one of {', '.join(FORMATS)}, found {fmt!r}")


__all__: Sequence[str] = ("FORMATS", "as_csv", "as_json", "as_xlsx", "markdown", "render")
