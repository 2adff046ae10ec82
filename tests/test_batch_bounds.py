"""``treaty batch --bounds``: a row whose outcome a missing fact leaves undetermined shows what ``treaty check`` of the
row's scenario shows: each State's bound whatever the missing facts are, the highest tax at source, and the withholding
finding from the bound (issue 23, point 2). Without ``--bounds`` the row is answered in one answer set, as every other
row, and nothing more is done."""

from __future__ import annotations

import contextlib
import csv
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyhelpers.base.errors import BatchError
from pyhelpers.engine.solve import Checker
from pyhelpers.interfaces import batch
from pyhelpers.interfaces.batch import (
    RESULT_COLUMNS,
    PartitionSpec,
    decide_rows,
    find_row,
    load_batch_context,
    partition_receipt,
    partition_spec,
    read_rows,
    row_scenario,
    run_batch,
    run_options,
)
from pyhelpers.interfaces.chunks import compare_runs
from pyhelpers.interfaces.cli import main

from .ledger_gen import COLUMNS, CONTEXT, write_csv

MISSING = {c: "" for c in COLUMNS} | {
    "id": "r1", "treaty": "br-pt", "type": "dividend", "payer": "beta", "recipient": "lusoinvest", "date": "2024-05-10",
    "gross": "1000.00", "currency": "BRL", "withheld_rate": "15", "domestic_rate": "15"}
"""A dividend of beta to lusoinvest: the context has no holding record of lusoinvest in beta."""
FINDINGS = ("missing: holding(lusoinvest, beta) (br-pt 10(2)(a)) [in the scenario: holdings (a record of lusoinvest "
            "in beta)]; missing: holding(lusoinvest, beta) (br-pt 10(2)(b)) [in the scenario: holdings (a record of "
            "lusoinvest in beta)]")
ONE_SET_FINDINGS = ("missing: holding(lusoinvest, beta) (br-pt 10(2)(a)) [in the scenario: holdings (a record of "
                    "lusoinvest in beta)]")
"""What the row's findings are in one answer set (without ``--bounds``)."""
RECORD = "state it in `holdings (a record of lusoinvest in beta)`"
FINDINGS_TEXT = f"missing fact: holding (lusoinvest, beta) (needed by br-pt 10(2)(a); br-pt 10(2)(b)); {RECORD}"
ONE_SET_FINDINGS_TEXT = f"missing fact: holding (lusoinvest, beta) (needed by br-pt 10(2)(a)); {RECORD}"
"""The same in words, as `treaty check` lists them (``findings_text``)."""
DEPENDS = ("withholding in Brazil: withheld {withheld} BRL: compliant or not depending on the holding of lusoinvest in "
           "beta (`holdings (a record of lusoinvest in beta)`): its share of the capital and its first day  (domestic "
           "rate 15%)")
"""A withholding finding that depends on open facts in words (``findings_text``): the facts, each with where the
context would state it (a record it lacks); ``withholding_finding`` is the machine value ``depends`` alone."""
PROVISIONS = "br-pt 1; br-pt 4(1); br-pt 10(1); br-pt 10(2); br-pt 10(3)"


@pytest.fixture(scope="module")
def checker() -> Checker:
    return Checker()


def _results(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return [{c: r[c] for c in ("id", *RESULT_COLUMNS)} for r in csv.DictReader(fh)]


def _bounded(rid: str, finding: str, difference: str = "", withheld: str = "") -> dict[str, str]:
    text = FINDINGS_TEXT + (f" | {DEPENDS.format(withheld=withheld)}" if withheld else "")
    return {"id": rid, "applicable_treaty": "br-pt", "status": "missing", "outcome_br": "capped at most 15%",
            "outcome_br_code": "capped at most 15%", "partner_state": "pt", "outcome_partner": "may tax",
            "outcome_partner_code": "may tax", "cap": "at most 15%", "cap_bp": "", "cap_at_most_bp": "1500",
            "max_source_tax": "150.00", "tax_due": "", "withholding_finding": finding,
            "withholding_difference": difference, "entitlement": "", "provisions": PROVISIONS, "findings": FINDINGS,
            "findings_code": FINDINGS, "findings_text": text, "error": ""}


def test_a_missing_holding_record_gives_the_bound_and_the_finding_from_it(tmp_path: Path, checker: Checker) -> None:
    """Brazil caps the dividend at 10% or 15% as the missing record goes: capped at 15% at most. Withheld 20%: over
    the highest cap whatever the record says, by at least 50.00 (200.00 withheld, 150.00 due at most: the least
    excess is the difference); 15% (compliant at 15%, over at 10%) and 12% (over at 10%, under the 15% due at 15%)
    depend on the record's capital and first day. Narrowly: 150.01 withheld is over by at least 0.01. A row whose
    facts are complete (alfa, whose holding record the context gives) is what it was."""
    rows = [MISSING, MISSING | {"id": "r2", "withheld_rate": "20"}, MISSING | {"id": "r3", "withheld_rate": "12"},
            MISSING | {"id": "r4", "payer": "alfa"},
            MISSING | {"id": "r5", "withheld_rate": "", "withheld": "150.01"}]
    ledger = write_csv(tmp_path / "in.csv", rows)
    for workers, chunk in ((1, 3000), (2, 1)):
        out = tmp_path / f"out-{workers}.csv"
        run_batch(ledger, CONTEXT, out, workers=workers, chunk_size=chunk, checker=checker, bounds=True)
        assert _results(out) == [
            _bounded("r1", "depends", withheld="150.00"),
            _bounded("r2", "over_withheld", "50.00"),
            _bounded("r3", "depends", withheld="120.00"),
            {"id": "r4", "applicable_treaty": "br-pt", "status": "decided", "outcome_br": "capped 10%",
             "outcome_br_code": "capped 10%", "partner_state": "pt", "outcome_partner": "may tax",
             "outcome_partner_code": "may tax", "cap": "10%", "cap_bp": "1000", "cap_at_most_bp": "",
             "max_source_tax": "100.00",
             "tax_due": "100.00", "withholding_finding": "over_withheld", "withholding_difference": "50.00",
             "entitlement": "", "provisions": "br-pt 1; br-pt 3(1)(f); br-pt 4(1); br-pt 10(1); br-pt 10(2); "
                                             "br-pt 10(2)(a); br-pt 10(3)",
             "findings": "", "findings_code": "", "findings_text": "", "error": ""},
            _bounded("r5", "over_withheld", "0.01")]


def test_the_bound_is_what_treaty_check_of_the_row_gives(tmp_path: Path, checker: Checker) -> None:
    """``treaty explain-row``'s scenario (:func:`row_scenario`) is completed as a scenario file is: its missing record
    is added with its dates and capital open (its document is the context's with the row's cells, whose rates read
    again as the percentages they are)."""
    ledger = write_csv(tmp_path / "in.csv", [MISSING | {"withheld_rate": "20"}])
    ctx = load_batch_context(CONTEXT, ledger, checker)
    item = checker.check(row_scenario(ctx, find_row(ledger, "r1"))).items[0]
    assert item.state("br").label == "capped at most 15%"
    assert item.compliance is not None and item.compliance.finding == "over_withheld"


@contextlib.contextmanager
def _counted_checks() -> Iterator[list[int]]:
    """Each call of :meth:`Checker.check` while the block runs, counted (one ``1`` per call)."""
    calls: list[int] = []
    original = Checker.check

    def counted(self: Checker, *args: object, **kwargs: object) -> object:
        calls.append(1)
        return original(self, *args, **kwargs)  # type: ignore[arg-type]

    Checker.check = counted  # type: ignore[assignment,method-assign]
    try:
        yield calls
    finally:
        Checker.check = original  # type: ignore[method-assign]


def test_each_case_is_answered_once(tmp_path: Path, checker: Checker) -> None:
    """Rows of one case (the same facts but for their id and amounts) share one answer over the missing facts."""
    rows = [MISSING | {"id": f"r{n}", "gross": f"{1000 + n}.00"} for n in range(20)]
    ledger = write_csv(tmp_path / "in.csv", rows)
    with _counted_checks() as calls:
        run_batch(ledger, CONTEXT, tmp_path / "out.csv", workers=1, checker=Checker(), bounds=True)
    assert len(calls) == 1
    got = _results(tmp_path / "out.csv")
    assert {r["cap"] for r in got} == {"at most 15%"}
    assert [r["max_source_tax"] for r in got][:2] == ["150.00", "150.15"]


def test_rows_of_a_kind_whose_case_has_a_bound_take_it_from_their_kind(tmp_path: Path, checker: Checker) -> None:
    """Rows of one kind (the same cells but for their id, amounts and rate withheld) whose case has a bound: only the
    first is parsed and decided as a row; each other gets its record from the kind's plan (_bound_record), the record
    each gets decided as a row (_decide_each), its own amounts and withholding finding included."""
    from pyhelpers.interfaces.ledger import Row

    cells = [MISSING | {"id": f"r{n}", "gross": f"{1000 + 7 * n}.{n:02d}", "withheld": "" if n % 4 else f"{100 + n}.00",
                        "withheld_rate": ["", "10", "15", "20"][n % 4]} for n in range(24)]
    rows = [Row(n, c, n + 1) for n, c in enumerate(cells, start=1)]
    one, each = load_batch_context(CONTEXT, "ledger.csv", checker), load_batch_context(CONTEXT, "ledger.csv", checker)
    parsed: set[int] = set()
    real = batch._parse_row

    def counted(ctx: object, row: Row, *args: object) -> object:
        parsed.add(row.number)
        return real(ctx, row, *args)  # type: ignore[arg-type]

    batch._parse_row = counted  # type: ignore[assignment]
    try:
        got = decide_rows(one, rows)
    finally:
        batch._parse_row = real
    assert got == batch._decide_each(each, rows)
    assert parsed == {1, 2}  # the first row of each kind (an amount withheld, or a rate)
    assert {r["cap"] for r in got} == {"at most 15%"} and len({r["max_source_tax"] for r in got}) == len(rows)
    assert "over_withheld" in {r["withholding_finding"] for r in got}  # (each row's own withholding)
    assert len({r["withholding_finding"] for r in got}) > 1


def test_without_bounds_the_row_is_answered_in_one_answer_set_and_nothing_more_is_done(tmp_path: Path,
                                                                                        checker: Checker) -> None:
    """With ``--no-bounds`` (``bounds=False``) the row is as a batch answered it before the bound was the default:
    ``missing``, its outcome ``undetermined``, no cap, no highest tax, the record named in ``findings``; no ``treaty
    check`` is run and no bound is remembered."""
    rows = [MISSING, MISSING | {"id": "r2", "withheld_rate": "20"}]
    ledger = write_csv(tmp_path / "in.csv", rows)
    unbounded = {"applicable_treaty": "br-pt", "status": "missing", "outcome_br": "undetermined",
                 "outcome_br_code": "undetermined", "partner_state": "pt", "outcome_partner": "may tax",
                 "outcome_partner_code": "may tax", "cap": "", "cap_bp": "", "cap_at_most_bp": "",
                 "max_source_tax": "", "tax_due": "", "withholding_finding": "undetermined",
                 "withholding_difference": "", "entitlement": "", "provisions": PROVISIONS,
                 "findings": ONE_SET_FINDINGS, "findings_code": ONE_SET_FINDINGS,
                 "findings_text": ONE_SET_FINDINGS_TEXT, "error": ""}
    with _counted_checks() as calls:
        run_batch(ledger, CONTEXT, tmp_path / "out.csv", workers=1, checker=checker, bounds=False)
        ctx = load_batch_context(CONTEXT, ledger, checker, bounds=False)
        decided = decide_rows(ctx, list(read_rows(ledger)))
    assert calls == []
    assert ctx.memo.bounds == {}
    assert _results(tmp_path / "out.csv") == [{"id": "r1"} | unbounded, {"id": "r2"} | unbounded]
    assert [{c: r[c] for c in ("id", *RESULT_COLUMNS)} for r in decided] == _results(tmp_path / "out.csv")


@pytest.mark.parametrize("flag", [[], ["--bounds"], ["--no-bounds"]], ids=["default", "bounds", "no-bounds"])
def test_the_command_line_option_and_a_resume_with_another(tmp_path: Path, flag: list[str]) -> None:
    """``treaty batch`` gives the bound by default (audit 23, defect 4: the bound is the normal answer); ``--bounds``
    is accepted and changes nothing; ``--no-bounds`` answers the row in one answer set (narrowly not: undetermined, no
    cap). The run's journal records the bound (a run with ``--no-bounds`` writes the journal a run without the bound
    wrote before), so a resume with or without it where the run was the other way is refused."""
    ledger = write_csv(tmp_path / "in.csv", [MISSING | {"withheld_rate": "20"}])
    out = tmp_path / "out.csv"
    res = CliRunner().invoke(main, ["batch", str(ledger), "--context", str(CONTEXT), "-o", str(out), "--workers", "1",
                                    *flag, "-q"])
    assert res.exit_code == 0, res.output
    got = _results(out)
    if flag == ["--no-bounds"]:
        assert [(r["status"], r["outcome_br"], r["cap"], r["max_source_tax"], r["withholding_finding"],
                 r["withholding_difference"]) for r in got] == [("missing", "undetermined", "", "", "undetermined", "")]
    else:
        assert got == [_bounded("r1", "over_withheld", "50.00")]
    then = {"sha256": "a", "size": 1, "context_sha256": "c", "logic": "l", "chunk_size": 1, "format": ".csv",
            "lang": "en"}
    with pytest.raises(BatchError, match=r"another --bounds \(--bounds then, --no-bounds now\): to resume it"):
        compare_runs({**then, "bounds": True}, then, tmp_path, "--chunk")
    with pytest.raises(BatchError, match=r"another --bounds \(--no-bounds then, --bounds now\)"):
        compare_runs(then, {**then, "bounds": True}, tmp_path, "--chunk")
    compare_runs({**then, "bounds": True}, {**then, "bounds": True}, tmp_path, "--chunk")


def test_the_options_recorded_and_the_receipts(tmp_path: Path, checker: Checker) -> None:
    """The journal's header and each partition's receipt record ``bounds: true`` with ``--bounds``, nothing without
    (the receipts of a run without are those of a run before the option); a worker given a spec with ``bounds``
    answers with the bound, from the same cached context as one without."""
    spec = partition_spec(CONTEXT, "in.csv", checker.logic.digest)
    assert run_options(spec) == {} and run_options(replace(spec, bounds=True)) == {"bounds": True}
    rows = list(read_rows(write_csv(tmp_path / "in.csv", [MISSING])))
    assert "bounds" not in partition_receipt(spec, rows, [])
    assert partition_receipt(replace(spec, bounds=True), rows, [])["bounds"] is True
    def caps(s: PartitionSpec) -> list[str]:
        return [r["cap"] for r in decide_rows(batch._partition_context(s), rows)]  # (a worker's context)

    assert caps(spec) == [""]
    assert caps(replace(spec, bounds=True)) == ["at most 15%"]
    assert caps(spec) == [""]


SG_CONTEXT = """name: br-sg context without the holding record
treaty: br-sg
evaluation_date: 2024-06-28
persons:
  sg-holdco: {kind: company, liable_to_tax: {sg: [incorporation]}, partnership: false}
  br-industria: {kind: company, liable_to_tax: {br: [incorporation]}}
"""


def test_a_missing_record_whose_end_matters_gives_the_bound_too(tmp_path: Path, checker: Checker) -> None:
    """br-sg 10(2)(a)'s 365 days including the payment may run past the evaluation date: the added record's end is
    missing in some way the facts may go, and is opened for the bound (issue 23, point 2; audit23 defect 2). 16%
    withheld: over the highest cap (15%) by at least 10,000.00; 10% (the lowest cap): within it whatever the facts;
    narrowly not, 10% and a centavo: depends, naming the record's capital, first day and end."""
    context = tmp_path / "ctx.yaml"
    context.write_text(SG_CONTEXT, encoding="utf-8")
    base = {"id": "s1", "type": "dividend", "payer": "br-industria", "recipient": "sg-holdco", "date": "2024-03-15",
            "gross": "1000000.00", "currency": "BRL", "withheld": "160000.00"}
    ledger = write_csv(tmp_path / "in.csv", [base, base | {"id": "s2", "withheld": "100000.00"},
                                             base | {"id": "s3", "withheld": "100000.01"}])
    out = tmp_path / "out.csv"
    run_batch(ledger, context, out, workers=1, checker=checker, bounds=True)
    got = {r["id"]: (r["outcome_br"], r["cap"], r["max_source_tax"], r["withholding_finding"],
                     r["withholding_difference"]) for r in _results(out)}
    assert got == {
        "s1": ("capped at most 15%", "at most 15%", "150000.00", "over_withheld", "10000.00"),
        "s2": ("capped at most 15%", "at most 15%", "150000.00", "within_cap", ""),
        "s3": ("capped at most 15%", "at most 15%", "150000.00", "depends", "")}
    # the facts the finding depends on are in words, in the run's language (findings_text), not in the machine
    # column (audit 24b, defect 10: English prose under --lang pt)
    texts = {r["id"]: r["findings_text"] for r in _results(out)}
    assert texts["s3"].endswith(" | withholding in Brazil: withheld 100,000.01 BRL: compliant or not depending on the "
                                "holding of sg-holdco in br-industria (`holdings (a record of sg-holdco in "
                                "br-industria)`): its share of the capital, its first day and its last day")
    assert " | withholding" not in texts["s1"] + texts["s2"]
    run_batch(ledger, context, out, workers=1, checker=checker, bounds=True, lang="pt")
    pt = {r["id"]: (r["withholding_finding"], r["findings_text"]) for r in _results(out)}
    assert pt["s3"][0] == "depends" and "[in the scenario" not in pt["s3"][1]
    assert pt["s3"][1].endswith(" | retenção na fonte no Brasil: retido 100.000,01 BRL: conforme ou não, dependendo "
                                "da participação de sg-holdco em br-industria (`holdings (um registro de sg-holdco "
                                "em br-industria)`): a parcela do capital, o primeiro dia e o último dia")
    # the outcomes, the cap and the findings follow the language too, each beside its machine column, the same bytes as
    # in English (audit 53b, "what remains" 2)
    rows = {r["id"]: r for r in _results(out)}
    assert {(r["outcome_br"], r["outcome_partner"], r["cap"]) for r in rows.values()} == \
        {("limitado a 15% no máximo", "pode tributar", "no máximo 15%")}
    assert {(r["outcome_br_code"], r["outcome_partner_code"], r["cap_bp"], r["cap_at_most_bp"])
            for r in rows.values()} == {("capped at most 15%", "may tax", "", "1500")}
    assert rows["s1"]["findings"].startswith("ausente: holding(sg-holdco, br-industria) (br-sg 10(2)(a)) [no cenário: "
                                             "`holdings (um registro de sg-holdco em br-industria)`]")
    assert rows["s1"]["findings_code"].startswith("missing: holding(sg-holdco, br-industria) (br-sg 10(2)(a)) [in the "
                                                  "scenario: holdings (a record of sg-holdco in br-industria)]")


CONTEXT_FACT = MISSING | {"treaty": "br-sg", "recipient": "sg-tech"}
"""A dividend of beta to sg-tech: the context leaves out a fact of sg-tech the bound is answered over (a fact of the
context, the same for every row), no record."""
UY_FACTS = MISSING | {"treaty": "br-uy", "recipient": "uy-holding"}
"""A dividend of beta to uy-holding: the context leaves out facts of uy-holding, and its answer names a field of the
item (its place in the scenario)."""


@pytest.mark.parametrize("row", [CONTEXT_FACT, UY_FACTS], ids=["sg", "uy"])
def test_cases_that_leave_open_the_same_facts_of_the_context_are_answered_in_one_check(
        tmp_path: Path, row: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows of distinct cases (dates the rules tell apart) whose own answers leave open the same facts of the context
    are answered over those facts in one ``check`` of a scenario with one item per case; each row's record is the one
    it gets answered alone (``TOGETHER`` 1: one check per case), byte for byte."""
    days = ["2023-01-16", "2023-07-16", "2023-12-16", "2024-01-16", "2024-06-03"]
    rows = [row | {"id": f"r{n}", "date": day, "gross": f"{1000 + n}.00", "withheld_rate": rate}
            for n, (day, rate) in enumerate(zip(days, ["25", "15", "10", "", "12"], strict=True))]
    ledger = write_csv(tmp_path / "in.csv", rows)
    with _counted_checks() as calls:
        run_batch(ledger, CONTEXT, tmp_path / "together.csv", workers=1, checker=Checker(), bounds=True)
    assert len(calls) == 1
    monkeypatch.setattr(batch, "TOGETHER", 1)
    with _counted_checks() as calls:
        run_batch(ledger, CONTEXT, tmp_path / "alone.csv", workers=1, checker=Checker(), bounds=True)
    assert len(calls) > 1  # (dates the rules tell apart: distinct cases)
    together, alone = (tmp_path / "together.csv").read_bytes(), (tmp_path / "alone.csv").read_bytes()
    assert together == alone
    assert "missing" in {r["status"] for r in _results(tmp_path / "together.csv")}


def test_cases_with_a_missing_record_are_answered_one_by_one(tmp_path: Path) -> None:
    """A missing holding record is opened around the item's date (its first day, up to the payment): rows of distinct
    dates missing one record are answered each alone (together, the record would be opened around every date)."""
    rows = [MISSING | {"id": f"r{n}", "date": day} for n, day in enumerate(["2024-05-10", "2023-01-03", "2025-07-09"])]
    ledger = write_csv(tmp_path / "in.csv", rows)
    with _counted_checks() as calls:
        run_batch(ledger, CONTEXT, tmp_path / "out.csv", workers=1, checker=Checker(), bounds=True)
    assert len(calls) == 3
    assert [r["cap"] for r in _results(tmp_path / "out.csv")] == ["at most 15%"] * 3


def test_the_rows_of_a_case_share_its_finding_s_parts_each_with_its_own_amounts(tmp_path: Path,
                                                                                 checker: Checker) -> None:
    """The withholding finding of each row of one case answered with its bound is what ``treaty check`` of the row's
    scenario gives (its own amounts: within the bound, over it, and not given), while what the finding takes from the
    case (its alternatives, the result under each) is made once for the case (``compliance_under``'s ``case``)."""
    from pyhelpers.engine import alternatives

    rates = ["10", "15", "20", ""]
    rows = [MISSING | {"id": f"r{n}", "gross": f"{1000 + 13 * n}.00", "withheld_rate": rates[n % 4]} for n in range(8)]
    ledger = write_csv(tmp_path / "in.csv", rows)
    made: list[int] = []
    real = alternatives._compliance_case

    def counted(*args: object) -> object:
        made.append(1)
        return real(*args)  # type: ignore[arg-type]

    alternatives._compliance_case = counted  # type: ignore[assignment]
    batch._COMPLIANCE_CASES.clear()
    try:
        run_batch(ledger, CONTEXT, tmp_path / "out.csv", workers=1, checker=Checker(), bounds=True)
    finally:
        alternatives._compliance_case = real
    assert len(made) == 2  # the case's (and treaty check's own, of the case's scenario)
    ctx = load_batch_context(CONTEXT, ledger, checker)
    got = _results(tmp_path / "out.csv")
    findings = []
    for r in got:
        c = checker.check(row_scenario(ctx, find_row(ledger, r["id"]))).items[0].compliance
        assert c is not None
        assert (r["withholding_finding"], r["withholding_difference"]) == (
            c.finding, "" if c.difference is None and c.difference_at_least is None
            else f"{c.difference if c.difference is not None else c.difference_at_least}")
        findings.append(c.finding)
    assert len(set(findings)) > 1  # (the rows' own withholding)
