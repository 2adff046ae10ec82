"""Human- and machine-readable output of results and explanations: text, JSON, Markdown; en or pt.

Pure functions returning strings: only the CLI prints.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from .expect import Mismatch
from .explain import Step
from .readings import STATE_NAMES
from .results import Finding, ItemResult, ScenarioResult, StateOutcome, format_bp

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
        "mutual_agreement": "a resolver pelas autoridades competentes (residência de comum acordo)",
        "pending": "pendente: a disposição está no corpus mas ainda não foi codificada",
        "not_encoded": "não codificado: texto não disponível",
        "undetermined": "indeterminado com os factos dados",
        "benefits_denied": "benefícios recusados",
    },
}
_LABEL = {
    "en": {"status": "status", "provisions": "provisions", "max_tax": "maximum source tax",
           "expect_ok": "expect: all {n} item(s) match", "expect_bad": "expect: {n} mismatch(es)",
           "evaluated": "evaluated on", "findings": "findings", "why_not": "why not", "holds": "holds",
           "no_rule": "no rule of the logic concludes this predicate",
           "reconstructed": "relies on RECONSTRUCTED provisions (not in the corpus text)"},
    "pt": {"status": "estado", "provisions": "disposições", "max_tax": "imposto máximo na fonte",
           "expect_ok": "expect: os {n} rendimento(s) conferem", "expect_bad": "expect: {n} divergência(s)",
           "evaluated": "avaliado em", "findings": "constatações", "why_not": "porque não", "holds": "verifica-se",
           "no_rule": "nenhuma regra conclui este predicado",
           "reconstructed": "assenta em disposições RECONSTITUÍDAS (ausentes do texto do corpus)"},
}
_FINDING = {
    "en": {
        "missing": "missing fact: {fact} (needed by {prov})",
        "depends": "depends on {fact}, given as unknown ({prov})",
        "pending": "{prov} is in the corpus but not encoded yet",
        "not_encoded": "{prov} is not encoded: text not available",
        "mutual_agreement": "residence of {fact} to be settled by mutual agreement ({prov})",
        "exception": "exception {fact} applies ({prov})",
        "input_error": "input error: {fact}",
        "note": "{fact} ({prov})",
        "deadline": "deadline: {fact} ({prov})",
    },
    "pt": {
        "missing": "facto em falta: {fact} (exigido pelo {prov})",
        "depends": "depende de {fact}, indicado como desconhecido ({prov})",
        "pending": "o {prov} está no corpus mas ainda não foi codificado",
        "not_encoded": "o {prov} não está codificado: texto não disponível",
        "mutual_agreement": "residência de {fact} a resolver de comum acordo ({prov})",
        "exception": "aplica-se a excepção {fact} ({prov})",
        "input_error": "erro nos dados: {fact}",
        "note": "{fact} ({prov})",
        "deadline": "prazo: {fact} ({prov})",
    },
}


def _lang(lang: str) -> str:
    return "pt" if lang == "pt" else "en"


def label(key: str, lang: str) -> str:
    return _LABEL[_lang(lang)][key]


def outcome_text(o: StateOutcome, lang: str) -> str:
    text = _OUTCOME[_lang(lang)].get(o.outcome, o.outcome)
    return text.format(rate=format_bp(o.max_rate_bp) if o.max_rate_bp is not None else "?")


def finding_text(f: Finding, lang: str) -> str:
    if f.kind == "not_encoded" and " " not in f.provision:  # the treaty itself: no article named
        if _lang(lang) == "pt":
            return f"nenhum artigo de {f.provision} no corpus rege este rendimento: não codificado"
        return f"no article of {f.provision} in the corpus governs this income: not encoded"
    return _FINDING[_lang(lang)][f.kind].format(fact=f.fact or "", prov=f.provision)


def state_name(code: str, lang: str) -> str:
    return STATE_NAMES[_lang(lang)].get(code, code.upper())


def money(amount: Decimal) -> str:
    return f"{amount.quantize(Decimal('0.01'), rounding=ROUND_HALF_UP):,.2f}"


def max_source_tax(item: ItemResult) -> Decimal | None:
    """Cap × gross, rounded half-up to the cent (Decimal arithmetic, never in the logic)."""
    if item.gross is None or item.max_rate_bp is None:
        return None
    return (item.gross * Decimal(item.max_rate_bp) / Decimal(10000)).quantize(Decimal("0.01"), ROUND_HALF_UP)


# --------------------------------------------------------------------------------------- check ---
def check_text(result: ScenarioResult, mismatches: Sequence[Mismatch] | None, lang: str) -> str:
    lines = [f"{result.source} — {result.name}",
             f"{result.treaty}, {label('evaluated', lang)} {result.evaluation_date}", ""]
    for item in result.items:
        gross = f"  {money(item.gross)} {item.currency}" if item.gross is not None else ""
        lines.append(f"{item.item_id}  {item.income_type}{gross}  [{item.status}]")
        width = max(len(state_name(s.state, lang)) for s in item.states) + 1
        for s in item.states:
            provs = f"  ({'; '.join(s.provisions)})" if s.provisions else ""
            lines.append(f"  {(state_name(s.state, lang) + ':').ljust(width)} {outcome_text(s, lang)}{provs}")
        tax = max_source_tax(item)
        if tax is not None:
            lines.append(f"  {label('max_tax', lang)}: {money(tax)} {item.currency}")
        for f in item.findings:
            lines.append(f"  - {finding_text(f, lang)}")
        lines.append(f"  {label('provisions', lang)}: {'; '.join(item.provisions) or '-'}")
        if item.reconstructed:
            lines.append(f"  {label('reconstructed', lang)}: {'; '.join(item.reconstructed)}")
        lines.append("")
    lines += _expect_lines(result, mismatches, lang)
    return "\n".join(lines).rstrip() + "\n"


def _expect_lines(result: ScenarioResult, mismatches: Sequence[Mismatch] | None, lang: str) -> list[str]:
    if mismatches is None:
        return []
    if not mismatches:
        return [label("expect_ok", lang).format(n=len(result.items))]
    return [label("expect_bad", lang).format(n=len(mismatches)), *(f"  ✗ {m}" for m in mismatches)]


def check_json(result: ScenarioResult, mismatches: Sequence[Mismatch] | None) -> dict[str, Any]:
    data = result.to_json()
    for item, raw in zip(result.items, data["items"], strict=True):
        tax = max_source_tax(item)
        raw["max_source_tax"] = str(tax) if tax is not None else None
    if mismatches is not None:
        data["expect"] = {"matched": not mismatches, "mismatches": [m.__dict__ for m in mismatches]}
    return data


def check_markdown(result: ScenarioResult, mismatches: Sequence[Mismatch] | None, lang: str) -> str:
    states = [s.state for s in result.items[0].states] if result.items else []
    head = ["item", "type", label("status", lang), *(state_name(s, lang) for s in states),
            label("provisions", lang)]
    lines = [f"# {result.name}", "", f"`{result.source}` — {result.treaty}, {label('evaluated', lang)} "
             f"{result.evaluation_date}", "", "| " + " | ".join(head) + " |",
             "|" + "---|" * len(head)]
    for item in result.items:
        cells = [f"`{item.item_id}`", item.income_type, item.status,
                 *(outcome_text(s, lang) for s in item.states), "; ".join(item.provisions)]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    notes = [(item.item_id, f) for item in result.items for f in item.findings]
    if notes:
        lines += ["", f"## {label('findings', lang)}", ""]
        lines += [f"- `{iid}`: {finding_text(f, lang)}" for iid, f in notes]
    exp = _expect_lines(result, mismatches, lang)
    if exp:
        lines += ["", *exp]
    return "\n".join(lines) + "\n"


def to_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False) + "\n"


# ------------------------------------------------------------------------------------- explain ---
def _step_line(step: Step) -> str:
    cite = f" [{step.provision}]" if step.provision else ""
    rule = f" ‹{step.rule_id}›" if step.rule_id and step.kind in ("derived", "failed") else ""
    flags = f" ({', '.join(step.flags)})" if step.flags else ""
    note = f" — {step.note}" if step.note else ""
    mark = {"derived": "", "ref": "↑ ", "given": "• ", "static": "• ", "not": "¬ ", "test": "⊢ ",
            "aggregate": "Σ ", "failed": "✗ ", "unknown": "? "}.get(step.kind, "")
    return f"{mark}{step.reading}{cite}{flags}{rule}{note}"


def tree_text(step: Step, indent: int = 0) -> list[str]:
    lines = ["  " * indent + _step_line(step)]
    for child in step.children:
        lines += tree_text(child, indent + 1)
    return lines


def tree_markdown(step: Step, indent: int = 0) -> list[str]:
    lines = ["  " * indent + "- " + _step_line(step).replace("|", "\\|")]
    for child in step.children:
        lines += tree_markdown(child, indent + 1)
    return lines


def explain_text(sections: list[tuple[str, list[Step]]]) -> str:
    out: list[str] = []
    for title, steps in sections:
        out.append(title)
        for st in steps:
            out += tree_text(st, 1)
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def explain_markdown(sections: list[tuple[str, list[Step]]]) -> str:
    out: list[str] = []
    for title, steps in sections:
        out += [f"## {title}", ""]
        for st in steps:
            out += tree_markdown(st)
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def explain_json(sections: list[tuple[str, list[Step]]]) -> list[dict[str, Any]]:
    return [{"title": title, "steps": [s.to_dict() for s in steps]} for title, steps in sections]
