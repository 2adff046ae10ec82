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
from pyhelpers.engine.rates import RateRow, RateTable
from pyhelpers.engine.results import Condition, Finding, StateOutcome
from pyhelpers.explain.readings import constant_text, state_name, state_names, term, translated, value, with_state
from pyhelpers.output.render import conditions_text, finding_text, outcome_text, provision_words, values_text, wording
from pyhelpers.scenario.catalogue import catalogue
from pyhelpers.scenario.expectations import MAY_TAX_ALWAYS

FORMATS = ("markdown", "csv", "json", "xlsx")

_WORDS = {
    "en": {
        "title": "Source-State limits",
        "intro": "Computed by `treaty rates` from the rules, never typed in: each item is paid on {date} by a "
                 "company resident of the source State to a beneficial owner resident of the other State; the "
                 "facts left open (the holding, a threshold the rules test) are examined on both sides of every "
                 "figure the treaty cites. {notes}",
        "notes": "Stated of every situation: {facts}.",
        "owner": "{kinds} resident of {state}",
        "always": "—",
    },
    "pt": {
        "title": "Limites do Estado da fonte",
        "intro": "Calculado por `treaty rates` a partir das regras, nunca escrito à mão: cada rendimento é pago em "
                 "{date} por uma sociedade residente do Estado da fonte a um beneficiário efetivo residente do "
                 "outro Estado; os fatos em aberto (a participação, um limiar que as regras testam) são "
                 "examinados dos dois lados de cada valor citado pela convenção. {notes}",
        "notes": "Informado em todas as situações: {facts}.",
        "owner": "{kinds} residente de {state}",
        "always": "—",
        "owner_kind": "um beneficiário efetivo do tipo {kind}:",
        "open": "em aberto",
    },
    "pt-PT": {
        "intro": "Calculado por `treaty rates` a partir das regras, nunca escrito à mão: cada rendimento é pago em "
                 "{date} por uma sociedade residente do Estado da fonte a um beneficiário efetivo residente do "
                 "outro Estado; os factos em aberto (a participação, um limiar que as regras testam) são "
                 "examinados dos dois lados de cada valor citado pela convenção. {notes}",
        "notes": "Indicado em todas as situações: {facts}.",
        "owner_kind": "um beneficiário efetivo do tipo {kind}:",
    },
}

_COLUMNS = {
    "en": ("income", "source State", "beneficial owner", "conditions", "source-State limit", "provisions", "notes"),
    "pt": ("rendimento", "Estado da fonte", "beneficiário efetivo", "condições", "limite do Estado da fonte",
           "dispositivos", "notas"),
    "pt-PT": ("rendimento", "Estado da fonte", "beneficiário efetivo", "condições", "limite do Estado da fonte",
              "disposições", "notas"),
}

CSV_COLUMNS = ("treaty", "income_type", "source", "residence", "owner", "given", "conditions", "limit", "outcome",
               "max_rate_bp", "provisions", "notes")


def _name(code: str, lang: str) -> str:
    return state_name(code, lang)


def _conditions(row: RateRow, lang: str) -> str:
    """The facts a row's situation states and the values of its open facts, a State and a value of the format by
    their names (:func:`conditions_text`)."""
    named = row.named if len(row.named) == len(row.conditions) else row.conditions
    return "; ".join([values_text(g, lang) for g in row.given]
                     + [conditions_text((c,), lang) if isinstance(c, Condition) else values_text(c, lang)
                        for c in named])


_OWNER_NOTE = re.compile(r"a beneficial owner of kind (\w+):")
_ROW_NOTE = re.compile(r"^([a-z][a-z0-9_]*)( \(.*\))?$")
_STATE_NOTE = re.compile(r"^([a-z][a-z0-9_]*)\(([a-z]{2})\)( \(.*\))?$")  # interest_arises_in(br) (provision)


def _note(note: str, lang: str) -> str:
    """A note of the table or of a row in ``lang``: the kinds of owner and the rules' constants translated."""
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


def _open_limit(limit: str, lang: str) -> str:
    """A limit the rules leave open for these values (``undetermined; open: missing: fact (provision)``, as
    :func:`pyhelpers.engine.rates.rate_table` writes it) in ``lang``: the outcome and each open finding in the
    words of `treaty check`."""
    found = _OPEN_LIMIT.match(limit)
    if found is None:
        return term(limit, lang)
    opened = []
    for part in found["open"].split("; "):
        fact = _OPEN_FACT.match(part)
        opened.append(term(part, lang) if fact is None else
                      finding_text(Finding(fact["kind"].replace(" ", "_"), fact["prov"], fact["fact"]), lang))
    return f"{outcome_text(_label_outcome(found['label']), lang)}; {wording(_WORDS, lang)['open']}: {'; '.join(opened)}"


def _limit(row: RateRow, lang: str) -> str:
    if languages.family(lang) != "pt" or row.outcome not in _LIMIT_PT:  # undetermined: the item's status
        return row.limit if languages.family(lang) != "pt" else _open_limit(row.limit, lang)
    rate = formats.percent_bp(row.max_rate_bp, lang) if row.max_rate_bp is not None else ""
    return _LIMIT_PT[row.outcome].format(rate=rate, provisions="; ".join(row.provisions))


def _cells(row: RateRow, lang: str) -> tuple[str, ...]:
    words = wording(_WORDS, lang)
    kinds = ", ".join(value(k, lang) for k in row.owner.split(", "))
    owner = words["owner"].format(kinds=kinds, state=_name(row.residence, lang)) if languages.family(lang) == "en" \
        else with_state(words["owner"].replace("{kinds}", kinds), "state", row.residence, lang)  # do Brasil
    return (value(row.income_type, lang), _name(row.source, lang), owner, _conditions(row, lang) or words["always"],
            _limit(row, lang), "; ".join(row.provisions), "; ".join(_note(n, lang) for n in row.notes))


def _escape(text: str) -> str:
    return text.replace("|", "\\|")


def markdown(table: RateTable, lang: str = "en") -> str:
    """One section per treaty: a heading, how the table was computed, and one row per limit."""
    words = wording(_WORDS, lang)
    notes = words["notes"].format(facts="; ".join(_note(n, lang) for n in table.notes)) if table.notes else ""
    out: list[str] = []
    cat = catalogue()
    for treaty in table.treaties:
        partner = next((st for st in cat.states.get(treaty, ()) if st != cat.home), "")
        out += [f"### {treaty}: {words['title']} ({_name(partner, lang)})", "",
                words["intro"].format(date=formats.date(table.date, lang), notes=notes).rstrip(), "",
                "| " + " | ".join(languages.pick(_COLUMNS, lang)) + " |",
                "|" + "---|" * len(languages.pick(_COLUMNS, lang))]
        out += ["| " + " | ".join(_escape(c) for c in _cells(r, lang)) + " |" for r in table.rows if r.treaty == treaty]
        out.append("")
    return provision_words("\n".join(out), lang)


def rows_as_records(table: RateTable) -> list[dict[str, Any]]:
    return [r.as_json() for r in table.rows]


def as_json(table: RateTable) -> str:
    return json.dumps({"date": table.date, "treaties": list(table.treaties), "notes": list(table.notes),
                       "rows": rows_as_records(table)}, indent=2, ensure_ascii=False) + "\n"


def _flat(row: RateRow) -> list[str]:
    rec = row.as_json()
    return ["; ".join(v) if isinstance(v, list) else ("" if v is None else str(v)) for v in
            (rec[c] for c in CSV_COLUMNS)]


def as_csv(table: RateTable) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    w.writerows(_flat(r) for r in table.rows)
    return buf.getvalue()


FIXED_DATE = datetime(1980, 1, 1)
"""The workbook's creation and modification dates (and its zip members' times: the earliest a zip can
state): fixed, so the same table gives the same bytes."""


def as_xlsx(table: RateTable) -> bytes:
    """One sheet, ``rates``: the CSV's columns, a row per limit (needs openpyxl: the ``xlsx`` extra)."""
    try:
        from openpyxl import Workbook
    except ImportError:  # pragma: no cover - openpyxl is the xlsx extra's dependency
        raise InputError("--format xlsx needs openpyxl: pip install 'treaty-logic[xlsx]'") from None
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "rates"
    ws.append(list(CSV_COLUMNS))
    for row in table.rows:
        rec = _flat(row)
        ws.append([row.max_rate_bp if c == "max_rate_bp" else v for c, v in zip(CSV_COLUMNS, rec, strict=True)])
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
        return as_csv(table)
    if fmt == "json":
        return as_json(table)
    if fmt == "xlsx":
        return as_xlsx(table)
    raise InputError(f"--format: expected one of {', '.join(FORMATS)}, found {fmt!r}")


__all__: Sequence[str] = ("FORMATS", "as_csv", "as_json", "as_xlsx", "markdown", "render")
