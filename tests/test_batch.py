"""Batch checking of payment ledgers (pyhelpers/interfaces/batch.py, ledger.py, chunks.py; `treaty batch`,
`treaty explain-row`)."""

from __future__ import annotations

import csv
import errno
import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pyhelpers.base.errors import OutputError
from pyhelpers.engine.amounts import max_source_tax
from pyhelpers.engine.fields import result_named
from pyhelpers.engine.solve import Checker
from pyhelpers.interfaces import batch, chunks
from pyhelpers.interfaces.batch import (
    RESULT_COLUMNS,
    BatchError,
    LedgerError,
    findings_cell,
    findings_text_cell,
    load_batch_context,
    read_rows,
    row_scenario,
    run_batch,
)
from pyhelpers.interfaces.cli import main
from pyhelpers.output import render

from .conftest import ROOT
from .ledger_gen import COLUMNS, CONTEXT, generate, write_csv


@pytest.fixture(scope="module")
def checker() -> Checker:
    return Checker()


def _read(path: Path) -> list[dict[str, str]]:
    if path.suffix == ".csv":
        with open(path, newline="", encoding="utf-8") as fh:
            return list(csv.DictReader(fh))
    if path.suffix == ".jsonl":
        return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    import pyarrow.parquet as pq

    return [{k: v for k, v in r.items()} for r in pq.read_table(path).to_pylist()]


def _write(path: Path, rows: list[dict[str, str]]) -> Path:
    if path.suffix == ".csv":
        return write_csv(path, rows)
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps({k: v for k, v in r.items() if v != ""}) + "\n" for r in rows),
                        encoding="utf-8")
        return path
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({c: [r[c] for r in rows] for c in COLUMNS}), path)
    return path


def _same_source(text: str, ledger: Path) -> str:
    """An error message without what differs between formats: the ledger's name, the line (Parquet has none)."""
    return re.sub(r"\(line \d+, ", "(", text.replace(str(ledger), "LEDGER"))


def _good(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    return [r for r in rows if r["status"] != "error"]


def test_round_trip_csv_jsonl_parquet(tmp_path: Path, checker: Checker) -> None:
    rows = generate(60, seed=3)
    outputs = {}
    for ext in (".csv", ".jsonl", ".parquet"):
        ledger = _write(tmp_path / f"in{ext}", rows)
        out = tmp_path / f"out{ext}"
        summary = run_batch(ledger, CONTEXT, out, workers=1, chunk_size=25, checker=checker)
        assert summary.rows == 60 and not out.with_name(out.name + ".parts").exists()
        got = _read(out)
        assert [r["id"] for r in got] == [r["id"] for r in rows]  # input order, every row once
        assert list(got[0])[-len(RESULT_COLUMNS):] == list(RESULT_COLUMNS)
        outputs[ext] = [{k: _same_source(r.get(k, "") or "", ledger) for k in ("id", *RESULT_COLUMNS)} for r in got]
    assert outputs[".csv"] == outputs[".jsonl"] == outputs[".parquet"]
    assert any(r["status"] == "decided" and r["outcome_br"] == "capped 10%" for r in outputs[".csv"])


def test_bad_rows_are_reported_and_good_rows_processed(tmp_path: Path, checker: Checker) -> None:
    good = {c: "" for c in COLUMNS} | {"treaty": "br-pt", "type": "dividend", "payer": "alfa",
                                       "recipient": "lusoinvest", "date": "2024-05-10", "gross": "1000.00",
                                       "currency": "BRL", "withheld_rate": "15", "domestic_rate": "15"}
    cases = {
        "ok-1": {},
        "unknown-person": {"payer": "alfa-sa"},
        "bad-date": {"date": "2023-02-29"},
        "negative": {"gross": "-5.00"},
        "bad-type": {"type": "lottery"},
        "bad-treaty": {"treaty": "br-xx"},
        "over-100": {"withheld_rate": "150"},
        "ok-2": {},
        "ok-1#": {"id": "ok-1"},
    }
    rows = [good | {"id": k} | v for k, v in cases.items()]
    out = tmp_path / "out.csv"
    summary = run_batch(write_csv(tmp_path / "in.csv", rows), CONTEXT, out, workers=1, checker=checker)
    got = {r["id"] + ("#" if n == 8 else ""): r for n, r in enumerate(_read(out))}
    assert summary.rows == 9 and summary.errors == 7
    assert got["ok-1"]["status"] == got["ok-2"]["status"] == "decided"
    assert got["ok-1"]["outcome_br"] == "capped 10%" and got["ok-1"]["withholding_finding"] == "over_withheld"
    assert got["ok-1"]["provisions"] == ("br-pt 1; br-pt 3(1)(f); br-pt 4(1); br-pt 10(1); br-pt 10(2); "
                                         "br-pt 10(2)(a); br-pt 10(3)")
    src = f"{tmp_path / 'in.csv'} row"
    expected = {
        "unknown-person": f"{src} 2 (line 3, id unknown-person): payer: expected the id of a person, found 'alfa-sa' "
                          f"(did you mean 'alfa'?)",
        "bad-date": f"{src} 3 (line 4, id bad-date): date: expected a real date YYYY-MM-DD",
        "negative": f"{src} 4 (line 5, id negative): gross: expected a number at least 0, found '-5.00'",
        "bad-type": f"{src} 5 (line 6, id bad-type): type: expected one of dividend",
        "bad-treaty": f"{src} 6 (line 7, id bad-treaty): treaty: expected one of br-ae, br-pl, br-pt, br-sg, br-uy, "
                      f"found 'br-xx'",
        "over-100": f"{src} 7 (line 8, id over-100): withheld_rate: expected a percentage between 0 and 100, "
                    f"found '150'",
        "ok-1#": f"{src} 9 (line 10, id ok-1): id: expected an id no other row has, found 'ok-1', already row 1",
    }
    for key, message in expected.items():
        assert got[key]["status"] == "error", key
        assert got[key]["error"].startswith(message), (key, got[key]["error"])


def test_interrupted_run_resumes_without_duplicates_or_gaps(tmp_path: Path, checker: Checker) -> None:
    ledger = write_csv(tmp_path / "in.csv", generate(100, seed=11))
    clean = tmp_path / "clean.csv"
    run_batch(ledger, CONTEXT, clean, workers=1, chunk_size=20, checker=checker)
    out = tmp_path / "out.csv"
    seen: list[int] = []

    def stop_after_two(n: int) -> None:
        seen.append(n)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_batch(ledger, CONTEXT, out, workers=1, chunk_size=20, checker=checker, progress=stop_after_two)
    assert not out.exists() and (tmp_path / "out.csv.parts" / "journal.jsonl").exists()
    with pytest.raises(BatchError, match="--resume"):
        run_batch(ledger, CONTEXT, out, workers=1, chunk_size=20, checker=checker)
    summary = run_batch(ledger, CONTEXT, out, workers=1, chunk_size=20, checker=checker, resume=True)
    assert summary.resumed_chunks == 2 and summary.rows == 60
    assert out.read_bytes() == clean.read_bytes()
    assert not (tmp_path / "out.csv.parts").exists()


def test_two_workers_give_the_same_bytes(tmp_path: Path, checker: Checker) -> None:
    ledger = write_csv(tmp_path / "in.csv", generate(300, seed=5, schedule=False))
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    run_batch(ledger, CONTEXT, one, workers=1, chunk_size=64, checker=checker)
    run_batch(ledger, CONTEXT, two, workers=2, chunk_size=64, checker=checker)
    assert one.read_bytes() == two.read_bytes()


def test_forked_workers_inherit_the_first_partitions_cases(tmp_path: Path, checker: Checker,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """With workers started by fork, the batch process decides the first partition before the pool starts (the
    workers inherit its cases, each decided once rather than once per worker): the same bytes and receipt as one
    worker; with a single partition no pool is started."""
    from pyhelpers.base import processes

    if not processes.forking():
        pytest.skip("workers are not started by fork here")
    ledger = write_csv(tmp_path / "in.csv", generate(120, seed=5, schedule=True))
    one, two, alone = tmp_path / "one.csv", tmp_path / "two.csv", tmp_path / "alone.csv"
    first = run_batch(ledger, CONTEXT, one, workers=1, chunk_size=40, checker=checker)
    second = run_batch(ledger, CONTEXT, two, workers=2, chunk_size=40, checker=checker)
    assert two.read_bytes() == one.read_bytes() and second.receipt == first.receipt
    parent = [c for c in batch._CONTEXTS.values() if c.checker is checker]
    assert parent and parent[0].memo.decided > 0  # the first partition's cases, decided here

    def no_pool() -> Any:
        raise AssertionError("a pool was started for a single partition")

    monkeypatch.setattr(processes, "context", no_pool)
    third = run_batch(ledger, CONTEXT, alone, workers=2, chunk_size=200, checker=checker)
    assert alone.read_bytes() == one.read_bytes() and third.rows == 120


def test_the_output_is_the_same_whatever_the_chunk_and_each_case_is_decided_once(tmp_path: Path,
                                                                                 checker: Checker) -> None:
    """A ledger gives the same bytes at --chunk 7 and 500; deciding it chunk by chunk in one context decides
    each distinct case (the row's facts but for its id, per treaty and rule version) once (``memo.decided``),
    and nothing more when the rows come again."""
    rows = generate(150, seed=41, schedule=True) + generate(60, seed=43, schedule=False)
    for n, r in enumerate(rows):
        r["id"] = f"row-{n}"
    ledger = write_csv(tmp_path / "in.csv", rows)
    outs = []
    for size in (7, 500):
        out = tmp_path / f"out-{size}.csv"
        run_batch(ledger, CONTEXT, out, workers=1, chunk_size=size, checker=checker)
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]

    ctx = load_batch_context(CONTEXT, ledger, checker)
    cases = set()
    for row in read_rows(ledger):
        try:
            sc = row_scenario(ctx, row)
        except BatchError:
            continue
        item = sc.income[0]
        quoted = f'"{item.id}"'
        cases.add((sc.treaty, checker.versions(sc.treaty, item),
                   tuple(sorted(f.replace(quoted, "@") for f in checker.facts(sc)))))
    ledger_rows = list(read_rows(ledger))
    for k in range(0, len(ledger_rows), 7):
        batch.decide_rows(ctx, ledger_rows[k:k + 7])
    assert 40 < len(cases) < len(ledger_rows)  # the ledger repeats cases, across chunks
    assert ctx.memo.decided == len(cases)
    again = batch.decide_rows(ctx, ledger_rows)
    assert ctx.memo.decided == len(cases)
    assert [r["status"] for r in again] == [r["status"] for r in _read(tmp_path / "out-7.csv")]


def test_the_memo_forgets_its_oldest_cases_and_finds_a_case_by_its_facts(tmp_path: Path, checker: Checker) -> None:
    """Past its limit the memo forgets its oldest entries, down to three quarters of the limit (not all of them); an
    item whose key it forgot finds its case by its facts and is not decided again."""
    ledger = write_csv(tmp_path / "in.csv", generate(120, seed=47, schedule=False))
    ctx = load_batch_context(CONTEXT, ledger, checker)
    ledger_rows = list(read_rows(ledger))
    first = batch.decide_rows(ctx, ledger_rows)
    memo = ctx.memo
    decided = memo.decided
    assert decided > 60
    cases = list(memo.cases)
    memo.limit = 40
    memo.make_room()
    assert list(memo.cases) == cases[-30:]
    memo.limit = 16_000
    memo.signatures.clear()  # every key forgotten: the 30 cases kept are found by their facts
    assert batch.decide_rows(ctx, ledger_rows) == first
    assert memo.decided == decided + decided - 30


def test_deciding_without_provenance_changes_nothing_but_the_reconstructed_provisions(tmp_path: Path,
                                                                                     checker: Checker) -> None:
    """A batch decides without the rules that say which reconstructed provisions a result rests on (no column shows
    them): the items' results are those decided with them, their ``reconstructed`` (and their compliance figures')
    aside; some rest on one (br-uy's reconstructed residence article)."""
    import dataclasses

    from pyhelpers.engine.solve import Memo

    ledger = write_csv(tmp_path / "in.csv", generate(150, seed=53, schedule=False))
    ctx = load_batch_context(CONTEXT, ledger, checker)
    by_treaty: dict[str, list[Any]] = {}
    for row in read_rows(ledger):
        try:
            sc = row_scenario(ctx, row)
        except BatchError:
            continue
        by_treaty.setdefault(sc.treaty, []).append(sc.income[0])
    flagged = 0
    for treaty, items in sorted(by_treaty.items()):
        context = ctx.context.model_copy(update={"treaty": treaty})
        full = checker.decide_items(context, items, memo=Memo())
        bare = checker.decide_items(context, items, memo=Memo(), provenance=False)
        for a, b in zip(full, bare, strict=True):
            flagged += bool(a.reconstructed)
            assert not b.reconstructed and not (b.compliance and b.compliance.reconstructed)
            compliance = a.compliance and dataclasses.replace(a.compliance, reconstructed=())
            assert dataclasses.replace(a, reconstructed=(), compliance=compliance) == b
    assert flagged > 0


def test_item_keys_keep_the_amounts_only_where_a_fact_reads_them(checker: Checker) -> None:
    """Items with the same key have the same facts but for their id: the gross amount is left out of the key
    unless an arm's-length amount is compared with it; the withholding always."""
    from pyhelpers.facts import item_key
    from pyhelpers.scenario import validate_item

    def item(gross: str, **more: Any) -> Any:
        data = {"id": "x", "type": "interest", "payer": "alfa", "recipient": "lusoinvest", "date": "2024-03-01",
                "gross": {"amount": gross, "currency": "BRL"}, "withholding": {"withheld_rate": gross[:1]}, **more}
        it, problems = validate_item(data, "test")
        assert it is not None, problems
        return it

    assert item_key(item("100")) == item_key(item("900"))
    arm = {"interest": {"arm_length_amount": {"amount": "500", "currency": "BRL"}}}
    assert item_key(item("100", **arm)) != item_key(item("900", **arm))


@pytest.mark.parametrize("bounds", [False, True], ids=["one-answer-set", "bounds"])
def test_batch_equals_one_scenario_per_row(tmp_path: Path, checker: Checker, bounds: bool) -> None:
    """2,000 rows across all treaties: the batch (items sharing one context, identical cases decided
    once) gives exactly what each row decided as its own scenario gives. With ``--bounds``, a row whose outcome a
    missing fact leaves undetermined is what ``treaty check`` of its scenario gives (its bound, the highest tax at
    source, the withholding finding from the alternatives)."""
    rows = generate(2000, seed=23, schedule=False) + generate(400, seed=29, schedule=True)
    for n, r in enumerate(rows):
        r["id"] = f"row-{n}"
    ledger = write_csv(tmp_path / "in.csv", rows)
    out = tmp_path / "out.csv"
    run_batch(ledger, CONTEXT, out, workers=2, chunk_size=300, checker=checker, bounds=bounds)
    got = _read(out)
    ctx = load_batch_context(CONTEXT, ledger, checker)
    singles = []
    for row in read_rows(ledger):
        try:
            singles.append((row, row_scenario(ctx, row)))
        except BatchError:
            singles.append((row, None))
    decided = iter(checker.check_many([(sc, "x") for _, sc in singles if sc is not None], chunk=200))
    treaties = set()
    bounded = 0
    for (_, sc), record in zip(singles, got, strict=True):
        if sc is None:
            assert record["status"] == "error", record
            continue
        item = next(decided).items[0]
        treaties.add(item.treaty)
        highest = item.max_source_tax
        finding = item.compliance.finding if item.compliance else ""
        bounded_row = bounds and item.status == "missing" and any(s.outcome == "undetermined" for s in item.states)
        if bounded_row:
            item = checker.check(sc, "x").items[0]  # answered over the missing facts' values, as treaty check does
            bound = batch.bound_bp(item.states)
            highest = max_source_tax(replace(item, max_rate_bp=bound)) if bound is not None else None
            bounded += bound is not None
            c = item.compliance
            finding = "" if c is None else c.finding
        assert record["status"] == item.status, record
        assert record["provisions"] == "; ".join(item.provisions), record
        assert record["findings"] == findings_cell(item.findings), record
        # a withholding finding that depends on the missing facts (the bound) names them in words after the findings
        said = batch._withholding_text(item.compliance, item, "en") if bounded_row else []
        assert record["findings_text"] == " | ".join(filter(None, [findings_text_cell(item.findings, "en"), *said])), \
            record
        assert record["outcome_br"] == item.state("br").label
        assert record["max_source_tax"] == (str(highest) if highest is not None else "")
        assert record["withholding_finding"] == finding, record
        c = item.compliance  # with --bounds, where no exact figure holds, the least excess or shortfall
        difference = None if c is None else c.difference if c.difference is not None or not bounds \
            else c.difference_at_least
        assert record["withholding_difference"] == (str(difference) if difference is not None else "")
    assert treaties == {"br-pt", "br-sg", "br-ae", "br-uy", "br-pl"}
    assert bool(bounded) == bounds  # with --bounds, rows capped at most, whatever a missing fact is


@pytest.mark.parametrize("bounds", [False, True], ids=["one-answer-set", "bounds"])
def test_a_sample_equals_checking_alone(tmp_path: Path, checker: Checker, bounds: bool) -> None:
    rows = generate(60, seed=31, schedule=False)
    ledger = write_csv(tmp_path / "in.csv", rows)
    out = tmp_path / "out.jsonl"
    run_batch(ledger, CONTEXT, out, workers=1, checker=checker, bounds=bounds)
    _as_checked_alone(ledger, CONTEXT, out, checker, bounds)


def _as_checked_alone(ledger: Path, context: Path, out: Path, checker: Checker, bounds: bool = False) -> None:
    """Each row of the batch's output ``out`` (but bad rows) has the status, provisions, findings and tax due
    of its row checked alone in one answer set (a batch does not answer a row over the values of a missing
    record, as `treaty check` and `treaty explain-row` do: its findings name the record). With ``bounds``
    (``--bounds``), as `treaty check` answers it; where the missing facts change no outcome, as answered without
    their values (the batch answers over no value there)."""
    ctx = load_batch_context(context, ledger, checker)
    for row, record in zip(read_rows(ledger), _read(out), strict=True):
        if record["status"] == "error":
            continue
        scenario = row_scenario(ctx, row)
        alone = checker.check(scenario).items[0] if bounds else None
        if alone is None or (alone.alternatives and not any(a.state for a in alone.alternatives)):
            alone = result_named(checker.check_three_valued(scenario), scenario).items[0]
        assert (record["status"], record["provisions"], record["findings"], record["tax_due"]) == (
            alone.status, "; ".join(alone.provisions), findings_cell(alone.findings),
            str(alone.compliance.due) if alone.compliance and alone.compliance.due is not None else ""), record
        # then, where the withholding finding depends on the missing facts (the bound), those facts in words
        text, _, withholding = record["findings_text"].partition(" | withholding in ")
        assert text == findings_text_cell(alone.findings, "en"), record
        assert not withholding or record["withholding_finding"] == "depends", record


def test_ids_like_the_placeholders_of_the_cases_are_kept_apart(tmp_path: Path, checker: Checker) -> None:
    """A batch decides each case under a placeholder id (``@@item-0`` ...: one ``@`` more than the longest run of
    them in the facts and the rules): a context whose ids look like placeholders gives what each row alone gives."""
    ids = {"sg-tech": "@@item-0", "uy-holding": "@@@item-1"}
    context = tmp_path / "group.yaml"
    text = CONTEXT.read_text(encoding="utf-8")
    for old, new in ids.items():
        text = re.sub(rf"\b{old}\b", f'"{new}"', text)
    context.write_text(text, encoding="utf-8")
    rows = generate(120, seed=37, schedule=False)
    for r in rows:
        r["recipient"] = ids.get(r["recipient"], r["recipient"])
    assert sum(r["recipient"] in ids.values() for r in rows) >= 10
    ledger = write_csv(tmp_path / "in.csv", rows)
    out = tmp_path / "out.jsonl"
    run_batch(ledger, context, out, workers=1, checker=checker, bounds=False)  # each row in one answer set
    _as_checked_alone(ledger, context, out, checker)


def test_context_with_income_items_is_refused(tmp_path: Path) -> None:
    ctx = tmp_path / "ctx.yaml"
    ctx.write_text(CONTEXT.read_text(encoding="utf-8") + "income:\n  - {id: x, type: dividend, payer: alfa, "
                   "recipient: lusoinvest, date: 2024-01-01}\n", encoding="utf-8")
    ledger = write_csv(tmp_path / "in.csv", generate(3))
    with pytest.raises(Exception, match=r"income: expected a context without income items"):
        run_batch(ledger, ctx, tmp_path / "out.csv", workers=1)


def test_cli_batch_and_explain_row(tmp_path: Path) -> None:
    rows = generate(30, seed=2)
    ledger = write_csv(tmp_path / "pay.csv", rows)
    runner = CliRunner()
    res = runner.invoke(main, ["batch", str(ledger), "--context", str(CONTEXT), "-o", str(tmp_path / "r.csv"),
                               "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert "30 rows in" in res.output and "rows/s" in res.output
    quiet = runner.invoke(main, ["batch", str(ledger), "--context", str(CONTEXT), "-o", str(tmp_path / "q.csv"),
                                 "--workers", "1", "-q"])
    assert quiet.exit_code == 0 and quiet.output == ""
    first = next(r for r in rows if r["treaty"] == "br-pt" and r["type"] == "dividend" and r["payer"] == "alfa"
                 and r["recipient"] == "lusoinvest")
    res = runner.invoke(main, ["explain-row", str(ledger), "--context", str(CONTEXT), "--row", first["id"]])
    assert res.exit_code == 0, res.output
    assert "capped at 10%" in res.output and "[br-pt 10(2)(a)]" not in res.output
    full = runner.invoke(main, ["explain-row", str(ledger), "--context", str(CONTEXT), "--row", first["id"], "--full"])
    assert full.exit_code == 0, full.output
    assert "capped at 10%" in full.output and "[br-pt 10(2)(a)]" in full.output
    res = runner.invoke(main, ["explain-row", str(ledger), "--context", str(CONTEXT), "--row", "nope"])
    assert res.exit_code == 2 and "expected a row with id 'nope'" in res.output


def test_explain_row_prints_the_legal_argument_as_explain_does(tmp_path: Path) -> None:
    """Issue 24: `treaty explain-row` prints, after the row's result, the legal argument by default, provision by
    provision with the decisive facts and no engine bookkeeping (was the whole derivation: "Σ #min = 10% (1)", "br-pt
    is a treaty — set by the treaty catalogue", rule ids); `--full` the derivation, as `treaty explain --full`; the
    JSON carries both, as `treaty explain`'s."""
    from .test_argument import BOOKKEEPING

    rows = generate(30, seed=2)
    ledger = write_csv(tmp_path / "pay.csv", rows)
    row = next(r for r in rows if r["treaty"] == "br-pt" and r["type"] == "dividend" and r["payer"] == "alfa"
               and r["recipient"] == "lusoinvest")
    args = ["explain-row", str(ledger), "--context", str(CONTEXT), "--row", row["id"]]
    out = CliRunner().invoke(main, args).stdout
    head, _, argument = out.partition(f"\n\n{row['id']}\n")
    assert "  Brazil:   may tax, capped at 10% of the gross amount  (br-pt 10(2); br-pt 10(2)(a))" in head
    lines = argument.splitlines()
    assert lines[0] == "  grounds common to the conclusions below", out  # said once, before the States' own
    at = lines.index("  Brazil: may tax, capped at 10% of the gross amount")
    assert lines[at + 1].startswith("    br-pt 10(2)(a): the tax of Brazil on ") and "(≥ 25%)" in lines[at + 1]
    assert not any(b in argument for b in BOOKKEEPING) and len(out.splitlines()) < 40, out
    full = CliRunner().invoke(main, [*args, "--full"]).stdout
    assert full.startswith(head) and "‹br-pt/10-2-a-cap›" in full and "Σ #min = 10% (1)" in full
    md = CliRunner().invoke(main, [*args, "--format", "markdown"]).stdout
    assert "**Brazil: may tax, capped at 10% of the gross amount**" in md and "- **br-pt 10(2)(a)**: " in md
    assert "‹" in CliRunner().invoke(main, [*args, "--format", "markdown", "--full"]).stdout
    js = CliRunner().invoke(main, [*args, "--format", "json"]).stdout
    assert CliRunner().invoke(main, [*args, "--format", "json", "--full"]).stdout == js
    data = json.loads(js)
    assert list(data) == ["source", "result", "argument", "derivation"]
    assert data["argument"][0]["conclusions"][0]["lines"][0]["provision"] == "br-pt 10(2)(a)"
    assert data["derivation"][0]["steps"][0]["rule_id"] == "core/max-rate"


# ------------------------------------------------------------------- issue 26: a bad row never stops a batch ---

_GOOD = {c: "" for c in COLUMNS} | {"treaty": "br-pt", "type": "dividend", "payer": "alfa", "recipient": "lusoinvest",
                                    "date": "2024-05-10", "gross": "1000.00", "currency": "BRL",
                                    "withheld_rate": "15", "domestic_rate": "15"}


def _three(tmp_path: Path, name: str = "in.csv", **middle: str) -> Path:
    """A ledger of three rows a, b, c, where b has the ``middle`` cells."""
    return write_csv(tmp_path / name, [_GOOD | {"id": "a"}, _GOOD | {"id": "b"} | middle, _GOOD | {"id": "c"}])


def _by_id(path: Path) -> dict[str, dict[str, str]]:
    return {r["id"]: r for r in _read(path)}


def test_an_amount_too_large_is_an_error_of_its_row(tmp_path: Path, checker: Checker) -> None:
    """Reproducer: a gross of 1e28 raised decimal.InvalidOperation (a traceback, exit 1; --resume met it again,
    as no run could pass that row). Now it is an error of its row; the largest amount allowed is decided."""
    rows = [_GOOD | {"id": "a"}, _GOOD | {"id": "b", "gross": "1e28"},
            _GOOD | {"id": "c", "gross": "999999999999999.99"},
            _GOOD | {"id": "d", "withheld_rate": "", "withheld": "1E+999999"}]
    ledger = write_csv(tmp_path / "in.csv", rows)
    out = tmp_path / "out.csv"
    summary = run_batch(ledger, CONTEXT, out, workers=1, checker=checker)
    got = _by_id(out)
    assert summary.rows == 4 and summary.errors == 2
    assert got["a"]["status"] == got["c"]["status"] == "decided"
    assert got["c"]["outcome_br"] == "capped 10%"
    assert got["c"]["max_source_tax"] == "100000000000000.00"  # 99,999,999,999,999.999 rounded half-up to the cent
    assert got["b"]["error"] == (f"{ledger} row 2 (line 3, id b): gross: expected an exact decimal amount written "
                                 "with the digits 0-9 and at most one point, e.g. '1000.50' (no exponent, no "
                                 "separators), found '1e28'")
    assert got["d"]["error"].startswith(f"{ledger} row 4 (line 5, id d): withheld: expected an exact decimal amount")
    res = CliRunner().invoke(main, ["batch", str(ledger), "--context", str(CONTEXT), "-o", str(tmp_path / "r.csv"),
                                    "--workers", "1"])
    assert res.exit_code == 0 and "decided 2, error 2" in res.output, res.output


def test_a_cell_over_the_csv_limit_is_an_error_of_its_row(tmp_path: Path, checker: Checker) -> None:
    """Reproducer: a cell of 140,000 characters raised _csv.Error (a traceback, exit 1). Now its row gets the
    error, with its line, and keeps its other columns; the same in JSON Lines."""
    for name in ("in.csv", "in.jsonl"):
        rows = [_GOOD | {"id": "a"}, _GOOD | {"id": "b", "memo": "x" * 140_000}, _GOOD | {"id": "c"}]
        ledger = _write(tmp_path / name, rows)
        out = tmp_path / f"out-{name}"
        run_batch(ledger, CONTEXT, out, workers=1, checker=checker)
        got = _by_id(out)
        assert [got[k]["status"] for k in "abc"] == ["decided", "error", "decided"]
        assert got["b"]["error"] == f"{ledger} row 2 (line {3 if name.endswith('csv') else 2}, id b): memo: " \
                                    f"expected at most 131,072 characters, found 140,000"
        assert got["b"]["payer"] == "alfa" and got["b"].get("memo", "") == ""
    nested = tmp_path / "nested.jsonl"  # 100,019 characters on its line, 150,000 as the cell's text
    nested.write_text(json.dumps(_GOOD | {"id": "n", "memo": [1] * 50_000}, separators=(",", ":")) + "\n",
                      encoding="utf-8")
    run_batch(nested, CONTEXT, tmp_path / "nested.csv", workers=1, checker=checker)  # a CSV holds no longer cell
    assert _read(tmp_path / "nested.csv")[0]["error"].endswith("memo: expected at most 131,072 characters, found "
                                                               "150,000")


def test_a_cell_with_newlines_keeps_the_lines_of_the_rows_after_it(tmp_path: Path, checker: Checker) -> None:
    ledger = write_csv(tmp_path / "in.csv", [_GOOD | {"id": "a", "memo": "two\nlines"},
                                             _GOOD | {"id": "b", "payer": "nobody"}])
    out = tmp_path / "out.csv"
    run_batch(ledger, CONTEXT, out, workers=1, checker=checker)
    got = _by_id(out)
    assert got["a"]["status"] == "decided" and got["a"]["memo"] == "two\nlines"
    assert got["b"]["error"].startswith(f"{ledger} row 2 (line 4, id b): payer:")


def test_a_cell_with_a_carriage_return_reads_back_whole(tmp_path: Path, checker: Checker) -> None:
    """Reproducer: a memo holding a bare carriage return was written unquoted (the csv module quotes only the
    line terminator's characters), and a reader ended the row there. Now the row is written with its cells
    quoted, in a part and in the joined output, whether the parts are copied or read and written again."""
    for memo in ("one\rtwo", "a\r\rb", "x\r\ny"):  # a cell is read stripped: returns inside it
        ledger = tmp_path / "in.csv"
        with open(ledger, "w", newline="", encoding="utf-8") as fh:  # quoted, as a careful writer does
            w = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n", quoting=csv.QUOTE_ALL)
            w.writeheader()
            w.writerows([_GOOD | {"id": "a", "memo": memo}, _GOOD | {"id": "b"}, _GOOD | {"id": "c", "payer": "x"}])
        for chunk_size in (1, 500):
            out = tmp_path / f"out-{chunk_size}.csv"
            out.unlink(missing_ok=True)
            run_batch(ledger, CONTEXT, out, workers=1, checker=checker, chunk_size=chunk_size)
            rows = _read(out)
            assert [r["id"] for r in rows] == ["a", "b", "c"]
            assert rows[0]["memo"] == memo and rows[0]["status"] == rows[1]["status"] == "decided"
            assert rows[2]["status"] == "error"


def test_an_unclosed_quote_stops_the_batch_with_its_line_and_writes_nothing(tmp_path: Path, checker: Checker) -> None:
    """Reproducer: an unclosed quote swallowed the rows after it into one cell, exit 0. Now it is an error of
    the whole file, with the line of its row; no output, no parts, no lock is left. When the rest of the
    file is longer than a cell may be, the same."""
    lines = _three(tmp_path).read_text(encoding="utf-8").splitlines(keepends=True)
    short = tmp_path / "short.csv"
    short.write_text(lines[0] + lines[1] + lines[2].rstrip("\n") + ',"open\n' + lines[3], encoding="utf-8")
    long = tmp_path / "long.csv"
    long.write_text(lines[0] + lines[1] + lines[2].rstrip("\n") + ',"open\n' + lines[3] * 2000, encoding="utf-8")
    for ledger, found in ((short, "found the end of the file 2 line(s) later"),
                          (long, "found it still open 1,")):
        out = tmp_path / f"out-{ledger.name}"
        with pytest.raises(LedgerError) as err:
            run_batch(ledger, CONTEXT, out, workers=1, chunk_size=1, checker=checker)
        assert str(err.value).startswith(f"{ledger}:3: expected "), err.value
        assert "closing quote" in str(err.value) and "nothing was written" in str(err.value)
        if ledger is short:
            assert found in str(err.value)
        assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("out-")) == []
    res = CliRunner().invoke(main, ["batch", str(short), "--context", str(CONTEXT), "-o", str(tmp_path / "r.csv"),
                                    "--workers", "1"])
    assert res.exit_code == 2 and f"{short}:3: expected a closing quote" in res.output, res.output


def test_a_utf8_bom_header_is_read(tmp_path: Path, checker: Checker) -> None:
    """Reproducer: Excel's "CSV UTF-8" begins with a byte order mark, which became part of the first column's
    name ('\\ufeffid'): every row was an error. The same rows with and without it give the same results."""
    plain = _three(tmp_path)
    bom = tmp_path / "bom.csv"
    bom.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    jsonl = _write(tmp_path / "in.jsonl", [_GOOD | {"id": k} for k in "abc"])
    bom_jsonl = tmp_path / "bom.jsonl"
    bom_jsonl.write_bytes(b"\xef\xbb\xbf" + jsonl.read_bytes())
    outputs = []
    for ledger in (plain, bom, bom_jsonl):
        out = tmp_path / f"out-{ledger.name}.csv"
        summary = run_batch(ledger, CONTEXT, out, workers=1, checker=checker)
        assert summary.errors == 0 and summary.by_status == {"decided": 3}
        outputs.append([{k: r[k] for k in ("id", *RESULT_COLUMNS)} for r in _read(out)])
    assert outputs[0] == outputs[1] == outputs[2]


def test_a_byte_that_is_not_utf8_is_an_error_of_its_row(tmp_path: Path, checker: Checker) -> None:
    """Reproducer: one byte that is not UTF-8 (a Latin-1 'é') stopped the batch with 'expected UTF-8 text',
    naming no row. Now its row gets the error, naming the line, the column and the byte; the others go on.
    In the header it stops the batch, with the line."""
    ledger = _three(tmp_path, memo="MEMO")
    ledger.write_bytes(ledger.read_bytes().replace(b"MEMO", b"caf\xe9"))
    out = tmp_path / "out.csv"
    summary = run_batch(ledger, CONTEXT, out, workers=1, checker=checker)
    got = _by_id(out)
    assert summary.rows == 3 and [got[k]["status"] for k in "abc"] == ["decided", "error", "decided"]
    assert got["b"]["error"] == (f"{ledger} row 2 (line 3, id b): memo: expected UTF-8 text, found 'caf\ufffd' with "
                                 f"the byte(s) 0xe9, which are not UTF-8 (save the ledger as UTF-8)")
    jsonl = _write(tmp_path / "in.jsonl", [_GOOD | {"id": k} for k in "abc"])
    jsonl.write_bytes(jsonl.read_bytes().replace(b'"id": "b"', b'"id": "b", "memo": "caf\xe9"'))
    run_batch(jsonl, CONTEXT, tmp_path / "out.jsonl", workers=1, checker=checker)
    got = _by_id(tmp_path / "out.jsonl")
    assert got["b"]["error"].startswith(f"{jsonl} row 2 (line 2, id b): memo: expected UTF-8 text, found 'caf")
    assert got["a"]["status"] == got["c"]["status"] == "decided"
    header = _three(tmp_path, name="header.csv")
    header.write_bytes(header.read_bytes().replace(b"memo", b"m\xe9mo", 1))
    with pytest.raises(LedgerError, match=rf"^{re.escape(str(header))}:1: the header: expected UTF-8 text"):
        run_batch(header, CONTEXT, tmp_path / "out-header.csv", workers=1, checker=checker)


_LONE = ("expected text that can be written as UTF-8, found {found} with the lone surrogate(s) {escapes} (a \\u "
         "escape of half a UTF-16 surrogate pair, which is no character: write the character itself, or both halves "
         "of its pair)")


@pytest.mark.parametrize("fmt", [".csv", ".jsonl", ".parquet"])
def test_a_lone_surrogate_escape_in_json_lines_is_an_error_of_its_row(tmp_path: Path, checker: Checker,
                                                                       fmt: str) -> None:
    """Reproducer: a JSON Lines cell "\\ud800" (the \\u escape of half a UTF-16 surrogate pair) was read as a
    lone surrogate, which no UTF-8 output can hold: "internal error" (UnicodeEncodeError), no output, OUT.parts
    left behind. The same in the id, in a key, and for "\\udce9" (a half that is also how a byte that is not
    UTF-8 is read). Now each is an error of its row naming the line, the column (or "a column name"), what was
    expected and the escape found; the other rows are decided, a valid pair ("\\ud83d\\ude00") among them, and
    every output format is written (as UTF-8, the same rows in each)."""
    lines = [json.dumps(_GOOD | {"id": "a"}),
             json.dumps(_GOOD | {"id": "b", "payer": "PAYER"}).replace("PAYER", "\\ud800"),
             json.dumps(_GOOD | {"id": "ID"}).replace("ID", "c\\uDFFF"),
             json.dumps(_GOOD | {"id": "d", "KEY": "v"}).replace("KEY", "m\\ud801"),
             json.dumps(_GOOD | {"id": "e", "memo": "MEMO"}).replace("MEMO", "x\\udce9"),
             json.dumps(_GOOD | {"id": "f", "memo": "MEMO"}).replace("MEMO", "\\ud83d\\ude00 \\\\ud800")]
    ledger = tmp_path / "in.jsonl"
    ledger.write_text("\n".join(lines) + "\n", encoding="ascii")
    out = tmp_path / f"out{fmt}"
    summary = run_batch(ledger, CONTEXT, out, workers=1, checker=checker)
    assert summary.rows == 6 and summary.by_status == {"decided": 2, "error": 4}
    assert not (tmp_path / f"out{fmt}.parts").exists()
    got = _read(out)
    assert [r.get("id", "") for r in got] == ["a", "b", "", "d", "e", "f"]
    assert [r["status"] for r in got] == ["decided", "error", "error", "error", "error", "decided"]
    assert got[5]["memo"] == "\U0001f600 \\ud800"  # a pair is a character; an escaped backslash is no escape
    src = f"{ledger} row"
    assert [r["error"] for r in got[1:5]] == [
        f"{src} 2 (line 2, id b): payer: " + _LONE.format(found="'\\ud800'", escapes="\\ud800"),
        f"{src} 3 (line 3): id: " + _LONE.format(found="'c\\udfff'", escapes="\\udfff"),
        f"{src} 4 (line 4, id d): a column name: " + _LONE.format(found="'m\\ud801'", escapes="\\ud801"),
        f"{src} 5 (line 5, id e): memo: " + _LONE.format(found="'x\\udce9'", escapes="\\udce9")]
    assert got[1].get("payer", "") == "" and got[3]["recipient"] == "lusoinvest"  # the bad cell out, the rest kept
    if fmt != ".parquet":
        out.read_bytes().decode("utf-8")


def test_a_csv_with_the_bytes_of_a_surrogate_is_an_error_of_its_row(tmp_path: Path, checker: Checker) -> None:
    """A CSV ledger cannot hold a lone surrogate as UTF-8: its bytes (ED A0 80, as CESU-8 or a careless encoder
    writes one) are not UTF-8. In a cell (the id too) its row is an error naming the line, the column and the
    bytes; the others are decided. In the header, the batch stops naming the line, with no traceback."""
    ledger = _three(tmp_path, memo="MEMO")
    ledger.write_bytes(ledger.read_bytes().replace(b"MEMO", b"x\xed\xa0\x80").replace(b"\nc,", b"\nc\xed\xa0\x80,"))
    out = tmp_path / "out.jsonl"
    summary = run_batch(ledger, CONTEXT, out, workers=1, checker=checker)
    got = _read(out)
    assert summary.rows == 3 and [r["status"] for r in got] == ["decided", "error", "error"]
    assert got[1]["error"] == (f"{ledger} row 2 (line 3, id b): memo: expected UTF-8 text, found 'x\ufffd\ufffd\ufffd' "
                               f"with the byte(s) 0x80, 0xa0, 0xed, which are not UTF-8 (save the ledger as UTF-8)")
    assert got[2]["error"].startswith(f"{ledger} row 3 (line 4): id: expected UTF-8 text, found 'c\ufffd\ufffd\ufffd' "
                                      f"with the byte(s) 0x80, 0xa0, 0xed")
    header = _three(tmp_path, name="header.csv")
    header.write_bytes(header.read_bytes().replace(b"memo", b"m\xed\xa0\x80", 1))
    result = CliRunner().invoke(main, ["batch", str(header), "--context", str(CONTEXT), "-o",
                                       str(tmp_path / "out-header.csv")])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert f"{header}:1: the header: expected UTF-8 text, found 'id,states" in result.output
    assert "0x80, 0xa0, 0xed" in result.output


_INTERNAL = ("__row__", "__line__", "__error__", "__order__", "___row__", "__", "__first_row__", "__partition__")
"""Ledger columns named like the names a partition of rows carries beside them (and like Spark's)."""


def _internal_ledger(path: Path) -> Path:
    """Three rows with columns named like the batch's internals, rows b and c with their keys in another order
    (JSON Lines) and other cells: a number, text that is not JSON, what reads like an error."""
    rows = [_GOOD | {"id": "a"} | {c: f"a{c}" for c in _INTERNAL},
            dict(reversed((_GOOD | {"id": "b", "__order__": "[", "__row__": "7"}).items())),
            {"__error__": "oops", "__line__": "x"} | _GOOD | {"id": "c"}]
    columns = list(dict.fromkeys(k for r in rows for k in r))
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    elif path.suffix == ".csv":
        with open(path, "w", newline="", encoding="utf-8") as fh:
            w = csv.DictWriter(fh, fieldnames=columns, lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.table({c: [r.get(c, "") for r in rows] for c in columns}), path)
    return path


@pytest.mark.parametrize("fmt", [".csv", ".jsonl", ".parquet"])
def test_columns_named_like_the_batch_internals_are_carried_through(tmp_path: Path, checker: Checker,
                                                                     fmt: str) -> None:
    """Reproducer: ledger columns named __row__, __line__ or __order__ were overwritten by the bookkeeping
    a partition carries under those names: dropped from the output, and where the rows of a JSON Lines
    ledger differ in their keys, a row number in a text column made the CSV output fail ("internal error");
    a column __error__ made its rows errors whose message was the cell. Now they are columns like any other
    the batch does not read: carried through untouched, in every format, and the same bytes whatever the
    workers and the chunk."""
    pytest.importorskip("pyarrow")
    ledger = _internal_ledger(tmp_path / f"in{fmt}")
    for out_fmt in (".csv", ".jsonl", ".parquet"):
        out = tmp_path / f"out{fmt}{out_fmt}"
        summary = run_batch(ledger, CONTEXT, out, workers=1, checker=checker)
        assert summary.rows == 3 and summary.by_status == {"decided": 3}, out_fmt
        got = _by_id(out)
        assert {c: got["a"][c] for c in _INTERNAL} == {c: f"a{c}" for c in _INTERNAL}
        assert (got["b"]["__order__"], got["b"]["__row__"]) == ("[", "7")
        assert (got["c"]["__error__"], got["c"]["__line__"], got["c"]["error"]) == ("oops", "x", "")
        if out_fmt == ".csv":
            with open(out, newline="", encoding="utf-8") as fh:
                header = next(csv.reader(fh))
            assert header[-len(RESULT_COLUMNS):] == list(RESULT_COLUMNS) and set(_INTERNAL) < set(header)
    again = tmp_path / f"again{fmt}.csv"
    run_batch(ledger, CONTEXT, again, workers=2, chunk_size=1, checker=checker)
    assert again.read_bytes() == (tmp_path / f"out{fmt}.csv").read_bytes()


def test_a_column_name_given_twice_stops_the_batch_naming_it(tmp_path: Path, checker: Checker) -> None:
    """Reproducer: a CSV header or a Parquet file with a column name twice (" memo" and "memo" once stripped)
    was read with the last cell of that name: the other's cells silently lost. Now the batch stops naming the
    names, how often and where (nothing written), as for any header that cannot be read; an empty name twice
    is not refused (Excel writes columns without a name)."""
    ledger = tmp_path / "in.csv"
    ledger.write_text("id,memo,type, memo,id,,\na,x,dividend,y,a,,\n", encoding="utf-8")
    with pytest.raises(LedgerError) as err:
        run_batch(ledger, CONTEXT, tmp_path / "out.csv", workers=1, checker=checker)
    assert str(err.value) == (f"{ledger}:1: the header: expected each column name once, found 'id' 2 times "
                              f"(columns 1, 5); 'memo' 2 times (columns 2, 4); rename all but one (the cells of one "
                              f"would be lost); nothing was written: fix the ledger and run the command again")
    assert not (tmp_path / "out.csv").exists() and not (tmp_path / "out.csv.parts").exists()
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    parquet = tmp_path / "in.parquet"
    columns = [pa.array(["a"]), pa.array(["x"]), pa.array(["y"])]
    pq.write_table(pa.Table.from_arrays(columns, names=["id", "memo", "memo"]), parquet)
    with pytest.raises(LedgerError, match=re.escape(f"{parquet}: expected each column name once, found 'memo' 2 times "
                                                    f"(columns 2, 3); rename all but one")):
        list(read_rows(parquet))


def test_a_column_named_like_a_result_column_stops_the_batch_naming_it(tmp_path: Path, checker: Checker) -> None:
    """Reproducer: a ledger column named like a result column (``status``, ``cap`` ...) was silently replaced by the
    result: its cells lost. Now the batch stops before any row is decided, naming the ledger, the column(s) and
    what was expected (a name other than the result columns, listed), as for a column named twice: a CSV header,
    a Parquet file, a JSON Lines row's key (the whole ledger is read first: an earlier good row is not decided);
    nothing is written. The Dask path reads with the same check (:func:`ledger_rows`); so does ``--lang pt``."""
    listed = ", ".join(RESULT_COLUMNS)
    ledger = tmp_path / "in.csv"
    ledger.write_text("id,status,type,cap,memo\na,x,dividend,y,z\n", encoding="utf-8")
    out = tmp_path / "out.csv"
    with pytest.raises(LedgerError) as err:
        run_batch(ledger, CONTEXT, out, workers=1, checker=checker)
    assert str(err.value) == (f"{ledger}:1: the header: expected column names other than the result columns the batch "
                              f"adds ({listed}), found 'status' (column 2); 'cap' (column 4); rename them (the results "
                              f"would replace their cells); nothing was written: fix the ledger and run the command "
                              f"again")
    assert not out.exists() and not (tmp_path / "out.csv.parts").exists()
    with pytest.raises(LedgerError, match=re.escape(f"{ledger}:1: the header: expected column names other than")):
        list(batch.ledger_rows(ledger))
    assert [r.columns["status"] for r in read_rows(ledger)] == ["x"]  # explain-row reads it as it is
    empty = tmp_path / "empty.csv"
    empty.write_text("id,error\n", encoding="utf-8")
    with pytest.raises(LedgerError, match=re.escape("found 'error' (column 2); rename it (the results would replace "
                                                    "its cells)")):
        run_batch(empty, CONTEXT, out, workers=1, checker=checker)
    good = {c: v for c, v in generate(1, seed=2, bad_share=0.0)[0].items() if v != ""}
    jsonl = tmp_path / "in.jsonl"
    jsonl.write_text(json.dumps(good) + "\n\n" + json.dumps({**good, "id": "b", "tax_due": "1"}) + "\n",
                     encoding="utf-8")
    decided = []
    real = batch.decide_rows
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(batch, "decide_rows", lambda *a: decided.append(a) or real(*a))
        with pytest.raises(LedgerError) as err:
            run_batch(jsonl, CONTEXT, out, workers=1, checker=checker)
    assert str(err.value) == (f"{jsonl}:3: expected column names other than the result columns the batch adds "
                              f"({listed}), found 'tax_due'; rename it (the results would replace its cells); nothing "
                              f"was written: fix the ledger and run the command again")
    assert decided == [] and not out.exists()
    result = CliRunner().invoke(main, ["batch", str(jsonl), "--context", str(CONTEXT), "-o", str(out), "-q",
                                       "--lang", "pt"])
    assert result.exit_code != 0 and "esperado nomes de coluna diferentes dos das colunas de resultado que o lote " \
        "acrescenta (" in result.output and "encontrado 'tax_due'; renomeie-a (os resultados substituiriam suas " \
        "células)" in result.output and "Traceback" not in result.output
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    parquet = tmp_path / "in.parquet"
    pq.write_table(pa.Table.from_arrays([pa.array(["a"]), pa.array(["x"])], names=["id", "provisions"]), parquet)
    with pytest.raises(LedgerError, match=re.escape(f"{parquet}: expected column names other than the result columns "
                                                    f"the batch adds ({listed}), found 'provisions' (column 2)")):
        run_batch(parquet, CONTEXT, out, workers=1, checker=checker)


def test_cells_that_would_be_lost_are_errors_of_their_rows(tmp_path: Path, checker: Checker) -> None:
    """Reproducers: a CSV row with more cells than the header (a comma in a cell that is not quoted) lost the
    cells beyond it; of two columns without a name, one cell was lost; a JSON Lines key given twice kept its
    last value only. Each is now an error of its row saying what was found; empty cells beyond the header or
    under columns without a name lose nothing and are not errors; the other rows are decided."""
    header = ",".join(COLUMNS) + ",,"
    good = ",".join(_GOOD[c] for c in COLUMNS[1:])
    ledger = tmp_path / "in.csv"
    ledger.write_text("\n".join([header, f"a,{good},,", f"b,{good},,,Smith, John", f"c,{good},,,,", f"d,{good},x,",
                                 f"e,{good},x,y"]) + "\n", encoding="utf-8")
    out = tmp_path / "out.csv"
    summary = run_batch(ledger, CONTEXT, out, workers=1, checker=checker)
    got = _by_id(out)
    assert summary.rows == 5 and [got[k]["status"] for k in "abcde"] == ["decided", "error", "decided", "decided",
                                                                          "error"]
    assert got["b"]["error"] == (f"{ledger} row 2 (line 3, id b): (row): expected at most {len(COLUMNS) + 2} cells "
                                 f"(as many as the header has columns), found {len(COLUMNS) + 4} with 'Smith', 'John' "
                                 f"beyond the last column; is a comma in a cell that is not quoted? (quote such a "
                                 f"cell)")
    assert got["d"][""] == "x" and got["a"][""] == ""
    assert got["e"]["error"] == (f"{ledger} row 5 (line 6, id e): (row): expected at most one cell under the columns "
                                 f"without a name in the header (columns {len(COLUMNS) + 1}, {len(COLUMNS) + 2}), "
                                 f"found 'x', 'y'; name them in the header")
    jsonl = tmp_path / "in.jsonl"
    jsonl.write_text(json.dumps(_GOOD | {"id": "a"}) + "\n" + json.dumps(_GOOD | {"id": "b", "memo": "MEMO"}).replace(
        '"memo": "MEMO"', '"memo": "x", "memo": "y", "memo": "z", "more": {"a": 1, "a": 2}') + "\n", encoding="utf-8")
    rows = list(read_rows(jsonl))
    assert rows[0].error is None and rows[1].error == "memo: expected the key once in the JSON object, found it 3 " \
                                                      "times (one value would be lost)"
    assert "memo" not in rows[1].columns and rows[1].columns["more"] == "{'a': 2}"  # inside a cell: its text


def test_a_row_whose_decision_fails_is_decided_alone(tmp_path: Path, checker: Checker,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A row whose decision raises (a bug the rows' validation did not foresee) gets the error; the rows decided
    with it in the same clingo run get their results. (Row b is a kind of its own, another date: a row of a
    kind decided already takes its record from that row's, and is decided as a row only where making it raises.)"""
    real = Checker.decide_items

    def fragile(self: Checker, context: Any, items: list[Any], source: str, memo: Any = None, keys: Any = None,
                provenance: bool = True) -> Any:
        if any(it.id == "b" for it in items):
            raise ArithmeticError("boom")
        return real(self, context, items, source, memo, keys, provenance)

    monkeypatch.setattr(Checker, "decide_items", fragile)
    out = tmp_path / "out.csv"
    run_batch(_three(tmp_path, date="2024-03-06"), CONTEXT, out, workers=1, checker=checker)
    got = _by_id(out)
    assert got["a"]["status"] == got["c"]["status"] == "decided"
    assert got["b"]["status"] == "error"
    assert got["b"]["error"].startswith(f"{tmp_path / 'in.csv'} row 2 (line 3, id b): internal error while deciding "
                                        f"this row (ArithmeticError: boom)")

    def failing(*args: Any) -> Any:
        raise ArithmeticError("boom")

    monkeypatch.setattr(Checker, "decide_items", real)
    monkeypatch.setattr(batch, "_kind_record", failing)  # rows c (a's kind) and b: decided as rows
    again = tmp_path / "again.csv"
    run_batch(_three(tmp_path), CONTEXT, again, workers=1, checker=checker)
    assert [r["status"] for r in _read(again)] == ["decided"] * 3


# ---------------------------------------------------------------------------- issue 26: batch operations ---

def _interrupt(ledger: Path, out: Path, checker: Checker, after: int, chunk_size: int = 20) -> None:
    """Run until ``after`` chunks are written, then stop as Ctrl-C would."""
    seen: list[int] = []

    def stop(n: int) -> None:
        seen.append(n)
        if len(seen) == after:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_batch(ledger, CONTEXT, out, workers=1, chunk_size=chunk_size, checker=checker, progress=stop)


def _clean(tmp_path: Path, ledger: Path, checker: Checker, chunk_size: int = 20) -> bytes:
    clean = tmp_path / f"clean{ledger.suffix}"
    run_batch(ledger, CONTEXT, clean, workers=1, chunk_size=chunk_size, checker=checker)
    return clean.read_bytes()


def test_resume_refuses_another_ledger_context_rules_or_chunk_size(tmp_path: Path, checker: Checker,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    ledger = write_csv(tmp_path / "in.csv", generate(60, seed=11))
    context = tmp_path / "group.yaml"
    context.write_bytes(CONTEXT.read_bytes())
    clean = _clean(tmp_path, ledger, checker)
    out = tmp_path / "out.csv"
    _interrupt(ledger, out, checker, after=1)
    parts = tmp_path / "out.csv.parts"

    def resume(chunk_size: int = 20) -> None:
        run_batch(ledger, context, out, workers=1, chunk_size=chunk_size, checker=checker, resume=True)

    original = ledger.read_bytes()
    ledger.write_bytes(original.replace(b"invoice", b"Invoice", 1))  # the same size, another content
    with pytest.raises(BatchError, match=rf"^{re.escape(str(parts))}: the interrupted run was made with another "
                                         rf"ledger \(then {re.escape(str(ledger))}, whose content is not this one's\)"):
        resume()
    ledger.write_bytes(original)
    context.write_text(CONTEXT.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    with pytest.raises(BatchError, match=r"another context \(then .*group.yaml, whose content is not this one's\): "
                                         r"to resume it, give the same ledger, context and --chunk as then; to start "
                                         r"again, delete .*out.csv.parts$"):
        resume()
    context.write_bytes(CONTEXT.read_bytes())
    with pytest.raises(BatchError, match=r"another --chunk \(20 then, 10 now\)"):
        resume(chunk_size=10)
    monkeypatch.setattr(checker.logic, "digest", "rules of another day")
    with pytest.raises(BatchError, match=r"another set of rules \(logic/ changed since the run began\)"):
        resume()
    monkeypatch.undo()
    resume()
    assert out.read_bytes() == clean


def test_an_output_equal_to_the_ledger_or_the_context_is_refused(tmp_path: Path) -> None:
    ledger = write_csv(tmp_path / "in.csv", generate(5, seed=2))
    before = ledger.read_bytes()
    (tmp_path / "sub").mkdir()
    runner = CliRunner()
    for output in (ledger, tmp_path / "sub" / ".." / "in.csv"):
        res = runner.invoke(main, ["batch", str(ledger), "--context", str(CONTEXT), "-o", str(output), "--workers",
                                   "1"])
        assert res.exit_code == 2, res.output
        assert (f"error: {output}: expected an output file other than the ledger, found the ledger itself (the "
                f"results would replace it): choose another -o") in res.output
    context = tmp_path / "group.csv"  # a context is YAML whatever its name
    context.write_bytes(CONTEXT.read_bytes())
    with pytest.raises(BatchError, match=r"expected an output file other than the context, found the context itself"):
        run_batch(ledger, context, context, workers=1)
    assert context.read_bytes() == CONTEXT.read_bytes()
    assert ledger.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["group.csv", "in.csv", "sub"]


def test_chunks_are_fsynced_before_their_journal_line(tmp_path: Path, checker: Checker,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Each chunk file is fsynced (and the folder after its rename) before the journal names it."""
    ledger = write_csv(tmp_path / "in.csv", generate(50, seed=4))
    events: list[str] = []
    real_fsync, real_append = os.fsync, chunks.ChunkWriter._append

    def fsync(fd: int) -> None:
        events.append("fsync " + os.readlink(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    def append(self: chunks.ChunkWriter, rec: dict[str, Any]) -> None:
        events.append(f"journal {rec['chunk']}")
        real_append(self, rec)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(chunks.ChunkWriter, "_append", append)
    run_batch(ledger, CONTEXT, tmp_path / "out.csv", workers=1, chunk_size=20, checker=checker)
    parts = str(tmp_path / "out.csv.parts")
    journals = [k for k, e in enumerate(events) if e.startswith("journal")]
    assert [events[k] for k in journals] == ["journal 0", "journal 1", "journal 2"]
    previous = 0
    for chunk, k in enumerate(journals):
        before = events[previous:k]
        written = before.index(f"fsync {parts}/{chunk:08d}.csv.tmp")
        assert f"fsync {parts}" in before[written + 1:], before  # the folder, after the rename
        assert events[k + 1] == f"fsync {parts}/journal.jsonl"
        previous = k + 1


def test_a_torn_chunk_is_decided_again_never_accepted(tmp_path: Path, checker: Checker) -> None:
    """On resume each chunk the journal lists is checked: a file cut short, a missing file, a row count the
    journal does not give are decided again; a journal line cut by a crash is dropped."""
    ledger = write_csv(tmp_path / "in.csv", generate(100, seed=13))
    clean = _clean(tmp_path, ledger, checker)
    out = tmp_path / "out.csv"
    _interrupt(ledger, out, checker, after=4)
    parts = tmp_path / "out.csv.parts"
    journal = parts / "journal.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    zero = json.loads(lines[1])
    assert zero["chunk"] == 0 and zero["rows"] == 20
    lines[1] = json.dumps(zero | {"rows": 19}, sort_keys=True) + "\n"  # the file holds 20
    journal.write_text("".join(lines) + '{"chunk": 4, "file": "0000', encoding="utf-8")
    one = parts / "00000001.csv"
    data = one.read_bytes()
    one.write_bytes(data[: data.rstrip(b"\n").rfind(b"\n") + 1])  # the last row lost, still a valid CSV
    (parts / "00000002.csv").unlink()
    summary = run_batch(ledger, CONTEXT, out, workers=1, chunk_size=20, checker=checker, resume=True)
    assert (summary.resumed_chunks, summary.redone_chunks, summary.rows) == (1, 3, 80)
    assert out.read_bytes() == clean and not parts.exists()


def test_a_broken_journal_is_a_clear_error(tmp_path: Path, checker: Checker) -> None:
    ledger = write_csv(tmp_path / "in.csv", generate(60, seed=17))
    out = tmp_path / "out.csv"
    _interrupt(ledger, out, checker, after=2)
    parts = tmp_path / "out.csv.parts"
    journal = parts / "journal.jsonl"
    text = journal.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)

    def resume() -> None:
        run_batch(ledger, CONTEXT, out, workers=1, chunk_size=20, checker=checker, resume=True)

    journal.write_text(lines[0] + "not json\n" + lines[2], encoding="utf-8")
    with pytest.raises(BatchError, match=rf"^{re.escape(str(journal))}:2: expected a JSON object, found 'not json': "
                                         rf"the journal is broken; delete {re.escape(str(parts))} to start again"):
        resume()
    journal.write_text(lines[0] + '{"chunk": 0, "rows": 20, "file": "../../etc/passwd", "sha256": "x"}\n',
                       encoding="utf-8")
    with pytest.raises(BatchError, match=r"journal.jsonl:2: expected a chunk record"):
        resume()
    header = json.loads(lines[0])
    del header["journal"], header["sha256"]
    journal.write_text(json.dumps(header) + "\n" + "".join(lines[1:]), encoding="utf-8")
    with pytest.raises(BatchError, match=r"written by an earlier version of treaty batch, whose journal does not "
                                         r"record the hashes of the ledger and the context"):
        resume()
    journal.unlink()
    with pytest.raises(BatchError, match=r"expected the journal of an interrupted run \(journal.jsonl\), found none"):
        resume()
    res = CliRunner().invoke(main, ["batch", str(ledger), "--context", str(CONTEXT), "-o", str(out), "--workers",
                                    "1", "--chunk", "20", "--resume"])
    assert res.exit_code == 2 and "delete" in res.output and "Traceback" not in res.output, res.output


def test_a_second_writer_is_refused(tmp_path: Path, checker: Checker) -> None:
    ledger = write_csv(tmp_path / "in.csv", generate(10, seed=19))
    out = tmp_path / "out.csv"
    with chunks.Lock(out):
        with pytest.raises(BatchError, match=rf"^{re.escape(str(out))}: another treaty batch is writing it \(process "
                                             rf"{os.getpid()}\): wait until it ends, or write to another -o"):
            run_batch(ledger, CONTEXT, out, workers=1, checker=checker)
        assert not (tmp_path / "out.csv.parts").exists()
    run_batch(ledger, CONTEXT, out, workers=1, checker=checker)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.csv", "out.csv"]  # no lock left behind


def test_a_full_disk_and_an_unwritable_output_are_clear_errors(tmp_path: Path, checker: Checker,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    ledger = write_csv(tmp_path / "in.csv", generate(60, seed=23))
    clean = _clean(tmp_path, ledger, checker)
    out = tmp_path / "out.csv"
    real = chunks._write_records
    written: list[Path] = []

    def fills_up(path: Path, *args: Any) -> None:
        written.append(path)
        if len(written) == 2:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(path, *args)

    monkeypatch.setattr(chunks, "_write_records", fills_up)
    res = CliRunner().invoke(main, ["batch", str(ledger), "--context", str(CONTEXT), "-o", str(out), "--workers", "1",
                                    "--chunk", "20"])
    assert res.exit_code == 2, res.output
    assert res.output == (f"error: {tmp_path}/out.csv.parts/00000001.csv.tmp: the disk is full (No space left on "
                          f"device): free some space, then run the same command with --resume (the chunks already "
                          f"written are kept)\n")
    monkeypatch.undo()
    summary = run_batch(ledger, CONTEXT, out, workers=1, chunk_size=20, checker=checker, resume=True)
    assert summary.resumed_chunks == 1 and out.read_bytes() == clean

    with pytest.raises(OutputError, match=rf"^{re.escape(str(tmp_path))}/missing/out.csv: expected an existing folder "
                                          rf"for the output, found no folder {re.escape(str(tmp_path))}/missing: "
                                          rf"create it, or choose another -o$"):
        run_batch(ledger, CONTEXT, tmp_path / "missing" / "out.csv", workers=1, checker=checker)

    def denied(self: chunks.ChunkStore) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(self.dir.parent))

    monkeypatch.setattr(chunks.ChunkStore, "_create", denied)
    with pytest.raises(OutputError, match=rf"^{re.escape(str(tmp_path))}: cannot write there \(Permission denied\): "
                                          rf"choose another -o, or make its folder writable, then run the command "
                                          rf"again$"):
        run_batch(ledger, CONTEXT, tmp_path / "other.csv", workers=1, checker=checker)
    assert not (tmp_path / "other.csv.lock").exists()


def test_ctrl_c_exits_130_cleanly_and_the_run_resumes(tmp_path: Path, checker: Checker) -> None:
    """A real Ctrl-C (SIGINT to the process group) of `treaty batch` with two workers: exit 130, no traceback,
    what to do next; the chunks written are kept and --resume completes the run. The batch is slowed down
    (each chunk waits a little) so that the signal comes mid-run; nothing about time is asserted."""
    rows = generate(600, seed=37)  # a long run: the signal lands well before its end, even on a loaded machine
    ledger = write_csv(tmp_path / "in.csv", rows)
    out = tmp_path / "out.csv"
    # Ctrl-C handled as in a terminal's foreground process, whatever disposition the test runner's process
    # passes on (a process started with SIGINT ignored keeps it ignored: CI once saw the batch run to its end)
    slowed = ("import signal, sys, time\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"
              "from pyhelpers.interfaces import batch\nreal = batch.decide_rows\n"
              "def slow(ctx, rows):\n    time.sleep(0.2)\n    return real(ctx, rows)\n"
              "batch.decide_rows = slow\nfrom pyhelpers.interfaces.cli import main\nmain(sys.argv[1:])\n")
    proc = subprocess.Popen([sys.executable, "-c", slowed, "batch", str(ledger), "--context", str(CONTEXT), "-o",
                             str(out), "--workers", "2", "--chunk", "5"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    journal = tmp_path / "out.csv.parts" / "journal.jsonl"
    try:
        for _ in range(6000):  # until two chunks are written (a bound against hanging, not a timing)
            if proc.poll() is not None or (journal.exists() and journal.read_text(encoding="utf-8").count("\n") >= 3):
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the batch ended before it could be interrupted"
        os.killpg(proc.pid, signal.SIGINT)
        _, stderr = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, stderr
    assert stderr == (f"interrupted: the chunks already decided are kept in {out}.parts; run the same command with "
                      f"--resume to continue\n")
    assert not out.exists() and not (tmp_path / "out.csv.lock").exists()
    summary = run_batch(ledger, CONTEXT, out, workers=1, chunk_size=5, checker=checker, resume=True)
    assert summary.resumed_chunks >= 2 and summary.redone_chunks == 0
    assert [r["id"] for r in _read(out)] == [r["id"] for r in rows]


def test_resume_of_a_finished_run_says_so(tmp_path: Path, checker: Checker) -> None:
    ledger = write_csv(tmp_path / "in.csv", generate(10, seed=29))
    out = tmp_path / "out.csv"
    run_batch(ledger, CONTEXT, out, workers=1, checker=checker)
    done = out.read_bytes()
    assert run_batch(ledger, CONTEXT, out, workers=1, checker=checker, resume=True).nothing_to_resume
    (tmp_path / "out.csv.parts").mkdir()  # what a clean-up interrupted after the journal's removal leaves
    res = CliRunner().invoke(main, ["batch", str(ledger), "--context", str(CONTEXT), "-o", str(out), "--workers", "1",
                                    "--resume"])
    assert res.exit_code == 0, res.output
    assert res.output == (f"{out}: nothing to resume: there is no interrupted run ({out}.parts) and {out} is there, "
                          f"so the run had finished; run without --resume to decide the ledger again\n")
    assert out.read_bytes() == done and sorted(p.name for p in tmp_path.iterdir()) == ["in.csv", "out.csv"]


def test_ctrl_c_before_any_chunk_says_to_run_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ledger = write_csv(tmp_path / "in.csv", generate(5, seed=31))

    def interrupted(path: Path) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(batch, "sha256_of", interrupted)  # Ctrl-C while the ledger is hashed
    res = CliRunner().invoke(main, ["batch", str(ledger), "--context", str(CONTEXT), "-o", str(tmp_path / "out.csv"),
                                    "--workers", "1"])
    assert res.exit_code == 130 and res.output == "interrupted before any chunk was written: run the command again\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.csv"]


# --- found by the fuzz harness (tests/fuzz) -----------------------------------------------------------

def test_json_lines_too_long_or_too_deep_are_errors_of_their_rows(tmp_path: Path) -> None:
    """Reproducers: a JSON number of 5,000 digits raised ValueError (Python's limit on converting long
    integers) and a line of 100,000 nested arrays RecursionError, each a traceback that stopped the batch.
    Now each is an error of its row; the other rows are read."""
    ledger = tmp_path / "in.jsonl"
    ledger.write_text(json.dumps(_GOOD | {"id": "a"}) + "\n" + '{"id": "b", "gross": ' + "9" * 5000 + "}\n"
                      + "[" * 100_000 + "]" * 100_000 + "\n" + json.dumps(_GOOD | {"id": "d"}) + "\n", encoding="utf-8")
    rows = list(read_rows(ledger))
    assert [r.columns.get("id") for r in rows] == ["a", None, None, "d"]
    assert rows[1].columns == rows[2].columns == {}
    assert rows[1].error == (f"expected a JSON object of numbers of at most {sys.get_int_max_str_digits():,} digits "
                             f"on this line, found a longer one")
    assert rows[2].error == "expected a JSON object on this line, found lists or objects nested too deep to read"


def test_a_parquet_text_that_is_not_utf8_stops_the_batch(tmp_path: Path) -> None:
    """Reproducer: a Parquet file whose text column holds bytes that are not UTF-8 raised UnicodeDecodeError
    (a traceback). Now it is a ledger that pyarrow cannot read, with exit code 2."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    ledger = tmp_path / "in.parquet"
    pq.write_table(pa.table({"id": ["pay-0000001"], "payer": ["alfa"]}), ledger, compression="NONE")
    data = ledger.read_bytes()
    assert data.count(b"pay-0000001") >= 1
    ledger.write_bytes(data.replace(b"pay-0000001", b"pa\x86-0000001"))
    with pytest.raises(LedgerError) as err:
        list(read_rows(ledger))
    assert str(err.value).startswith(f"{ledger}: expected a Parquet file, found one pyarrow cannot read after row 0 (")


def test_an_id_with_a_c1_control_character_is_an_error_of_its_row(tmp_path: Path) -> None:
    """Reproducer: a payer ``alfa\\x81`` (a C1 control character) was accepted as an id."""
    ctx = load_batch_context(CONTEXT, tmp_path / "in.csv", checker=Checker.__new__(Checker))
    rows = list(read_rows(_three(tmp_path, payer="al\x81fa")))
    assert batch._parse_row(ctx, rows[1]) == f"{tmp_path / 'in.csv'} row 2 (line 3, id b): payer: expected an id " \
                                             f"without control characters, found 'al\\x81fa'"


def test_cli_batch_lang_pt_writes_summary_and_row_errors_in_portuguese(tmp_path: Path) -> None:
    """`treaty batch --lang pt`: the summary on stderr (the statuses counted in `check`'s words) and a bad row's
    message in the output in Portuguese, in the worker processes too, the result columns' machine values as in
    English; a resume with another --lang is refused (its chunks have the first's)."""
    good = {c: "" for c in COLUMNS} | {"treaty": "br-pt", "type": "dividend", "payer": "alfa",
                                       "recipient": "lusoinvest", "date": "2024-05-10", "gross": "1000.00",
                                       "currency": "BRL", "withheld_rate": "15", "domestic_rate": "15"}
    ledger = write_csv(tmp_path / "razao.csv", [good | {"id": "ok"}, good | {"id": "bad-date", "date": "2023-02-29"},
                                                good | {"id": "ok-2"}])
    out = tmp_path / "saida.csv"
    res = CliRunner().invoke(main, ["batch", str(ledger), "--context", str(CONTEXT), "-o", str(out),
                                    "--workers", "2", "--chunk", "1", "--lang", "pt"])
    assert res.exit_code == 0, res.output
    assert re.fullmatch(rf"{re.escape(str(out))}: 3 linhas em \d+,\d s \(\d+ linhas/s\): decidido 2, erro 1\n",
                        res.stderr), res.stderr
    got = {r["id"]: r for r in _read(out)}
    # the outcomes and the cap in words of the run's language, each beside its machine column (audit 53b)
    assert (got["ok"]["status"], got["ok"]["outcome_br"], got["ok"]["outcome_partner"], got["ok"]["cap"]) == \
        ("decided", "limitado a 10%", "pode tributar", "10%")
    assert (got["ok"]["outcome_br_code"], got["ok"]["outcome_partner_code"], got["ok"]["cap_bp"]) == \
        ("capped 10%", "may tax", "1000")
    bad = got["bad-date"]
    assert bad["error"] == (f"{ledger}, linha de dados 2 (linha 3, id bad-date): date: esperada uma data real "
                            "AAAA-MM-DD, encontrado '2023-02-29'")
    again = CliRunner().invoke(main, ["batch", str(ledger), "--context", str(CONTEXT), "-o", str(out), "--resume",
                                      "--lang", "pt"])
    assert again.exit_code == 0
    assert again.stderr == (f"{out}: nada a retomar: não há execução interrompida ({out}.parts) e {out} existe, então "
                            "a execução terminou; execute sem --resume para decidir o razão de novo\n")
    then = {"sha256": "a", "size": 1, "context_sha256": "c", "logic": "l", "chunk_size": 1, "format": ".csv",
            "lang": "pt"}
    with pytest.raises(BatchError, match=r"another --lang \(pt then, en now\): to resume it"):
        chunks.compare_runs(then, {**then, "lang": "en"}, tmp_path, "--chunk")
    chunks.compare_runs({k: v for k, v in then.items() if k != "lang"}, {**then, "lang": "en"}, tmp_path, "--chunk")


def test_a_spawned_worker_writes_row_errors_in_the_language_of_the_spec(tmp_path: Path) -> None:
    """A worker without the client's context (spawned, or on Dask) takes the language from the partition's
    spec."""
    from pyhelpers.interfaces.partition import batch_to_records, check_partition, partition_spec, rows_to_batch

    good = {c: "" for c in COLUMNS} | {"treaty": "br-pt", "type": "dividend", "payer": "alfa",
                                       "recipient": "lusoinvest", "date": "2023-02-29", "gross": "1000.00",
                                       "currency": "BRL", "id": "bad-date"}
    ledger = write_csv(tmp_path / "razao.csv", [good])
    ctx = load_batch_context(CONTEXT, ledger)
    rows = list(read_rows(ledger))
    for lang, start in (("pt", "linha de dados 1 (linha 2, id bad-date): date: esperada uma data real"),
                        ("en", "row 1 (line 2, id bad-date): date: expected a real date")):
        spec = partition_spec(CONTEXT, ledger, ctx.checker.logic.digest, lang=lang)
        [record] = batch_to_records(check_partition(rows_to_batch(rows), spec))
        assert start in record["error"], record["error"]


def _models_within(model: type[Any]) -> set[type[Any]]:
    """``model`` and every model a field of it may hold, at any depth."""
    from pydantic import BaseModel

    found: set[type[Any]] = set()
    todo = [model]
    while todo:
        cls = todo.pop()
        if cls in found:
            continue
        found.add(cls)
        for info in cls.model_fields.values():
            stack = [info.annotation]
            while stack:
                hint = stack.pop()
                if isinstance(hint, type) and issubclass(hint, BaseModel):
                    todo.append(hint)
                stack.extend(getattr(hint, "__args__", ()))
    return found


def test_no_validator_of_an_item_reads_two_fields() -> None:
    """A batch parses each shape of its rows once (RowShapes) and puts a row's own id, date and amounts back into
    the shape's item: right only while no validator of an item reads another field than its own (a model
    validator, or a field validator given the other fields' values)."""
    import inspect

    from pyhelpers.scenario import IncomeItem

    models = _models_within(IncomeItem)
    assert len(models) > 20
    for cls in models:
        decorators = cls.__pydantic_decorators__
        assert not decorators.model_validators, cls
        for dec in decorators.field_validators.values():
            assert len(inspect.signature(dec.func).parameters) <= 2, (cls, dec)  # (cls, value): no ValidationInfo


def test_a_row_parsed_from_its_shape_is_the_row_parsed_whole(tmp_path: Path) -> None:
    """The item a batch gives a row from its shape's (each distinct shape parsed once) is the one parsing the row
    whole gives, with the same fields given, or the row gets the same message: rows of every kind, with ids,
    dates and amounts that are and are not taken as written, with and without a treaty in the context."""
    import random

    from pydantic import BaseModel

    from pyhelpers.interfaces.ledger import Row

    def fields(m: Any) -> Any:
        if isinstance(m, BaseModel):
            return type(m), sorted(m.model_fields_set), {k: fields(v) for k, v in m.__dict__.items()}
        return type(m), repr(m)

    def whole(ctx: batch.BatchContext, row: Row) -> Any:
        parsed = batch._parsed(ctx, row)
        if isinstance(parsed, str):
            return f"{batch._row_source(ctx, row)}: {parsed}"
        return f"{batch._row_source(ctx, row)}: {parsed[2]}" if parsed[2] else (parsed[0], fields(parsed[1]))

    odd = ["", " ", "12 ", "1e5", "-0", "-5", "0", "00012.500000", "1.1234567", "9" * 15, "9" * 16, "١٢٣", "2023-02-29",
           "2024-02-29", "2023-1-01", " 2023-01-01", "2023-01-01T00:00", "x" * 200, "x" * 201, "a b", " ab", "a\x7fb",
           "ção", "a\u00a0", "x\x1c", "true", ".5", "+5", "BRL", "brl", "nobody", "15%", "br-xx", "br pt", "pt sg"]
    columns = ["id", "date", "gross", "withheld", "currency", "withheld_rate", "payer", "type", "gross.amount",
               "interest.government_institution_of", "treaty", "states", "date.day"]
    rnd = random.Random(5)
    context = tmp_path / "context.yaml"
    context.write_text(CONTEXT.read_text(encoding="utf-8") + "\ntreaty: br-pt\n", encoding="utf-8")
    for ctx in (load_batch_context(CONTEXT, "ledger.csv"), load_batch_context(context, "ledger.csv")):
        valid = 0
        for n, cells in enumerate(generate(1500, seed=3), start=1):
            for _ in range(rnd.randrange(4) if n % 2 else 0):
                cells[rnd.choice(columns)] = rnd.choice(odd)
            if n % 7 == 0:
                cells = dict(reversed(cells.items()))
            row = Row(n, {k: v.strip() for k, v in cells.items()}, n + 1)
            got = batch._parse_row(ctx, row)
            assert (got if isinstance(got, str) else (got[0], fields(got[1]))) == whole(ctx, row), row
            valid += not isinstance(got, str)
        assert 500 < valid < 1400 and len(ctx.shapes.shapes) < valid


def test_rows_of_a_kind_get_the_records_of_rows_decided_one_by_one(tmp_path: Path, checker: Checker) -> None:
    """decide_rows decides the first row of each kind (the same cells but for the id, the amounts and the rate
    withheld) and gives each other row of its kind its record from it (_row_kinds, _kind_record): the records are
    those of every row decided as a row (_decide_each), for rows with ids, amounts and rates that are and are not
    taken as written, ids that are words of the findings' facts, ids given twice, withholding given in dotted columns,
    currencies of other minor units, arm's-length amounts, with and without a treaty in the context, in chunks of
    several sizes."""
    import random

    from pyhelpers.interfaces.ledger import Row

    odd = ["", "0", "1e3", "0.005", "12.345", "1000.1234567", "9" * 15, "9" * 16, "15.5", "100", "100.00", "100.5",
           "07", "15%", " 15", "0.001", "alfa", "lusoinvest", "services", "rights", "pay", "a b", " ab", "ção", "JPY",
           "KWD", "BRL", "nobody", "2023-02-29", "true", "pay-0000003", "pay-0000004"]
    columns = ["id", "gross", "withheld", "withheld_rate", "domestic_rate", "currency", "withholding.withheld_rate",
               "withholding.domestic_rate_on_excess", "withholding.withheld.amount", "interest.arm_length_amount",
               "payer", "date", "gross.amount"]
    rnd = random.Random(11)
    context = tmp_path / "context.yaml"
    context.write_text(CONTEXT.read_text(encoding="utf-8") + "\ntreaty: br-pt\n", encoding="utf-8")
    derived = 0
    for path in (CONTEXT, context):
        rows = []
        copies = ({**cells, "id": f"{cells['id']}-{k}", "gross": f"{rnd.randrange(10**6)}.{rnd.randrange(100):02d}",
                   "withheld": cells["withheld"] and f"{rnd.randrange(10**5)}.{rnd.randrange(100):02d}"}
                  for cells in generate(400, seed=8) for k in range(3))  # rows of one kind but for their own cells
        for n, cells in enumerate(copies, start=1):
            if n % 3 == 0:
                for _ in range(rnd.randrange(1, 3)):
                    column = rnd.choice(columns)
                    if column != "id" or n < 350 or rnd.random() < 0.01:  # (an id not as written: rows decided as rows)
                        cells[column] = rnd.choice(odd)
            rows.append(Row(n, cells, n + 1))
        one, each = load_batch_context(path, "ledger.csv", checker), load_batch_context(path, "ledger.csv", checker)
        start = 0
        for size in (1, 2, 40, 300, 500, 1200):
            part = rows[start:start + size]
            start += size
            kinds = batch._row_kinds(one, part)
            derived += 0 if kinds is None else sum(k >= 0 and k != n for n, k in enumerate(kinds[0]))
            assert batch.decide_rows(one, part) == batch._decide_each(each, part)
        assert batch.decide_rows(one, rows) == batch._decide_each(each, rows)
    assert derived > 500


def test_a_ledger_read_once_gives_the_partitions_of_two_passes(tmp_path: Path) -> None:
    """treaty batch reads the ledger once (spool_partitions): each partition's rows, read back by its worker, are
    those of the two passes (duplicate ids found, then the rows read again and marked), partitions skipped on
    resume left out, also where a duplicate's first row is in a skipped partition; and they are the rows the
    partition path's record batch gives (rows_to_batch, batch_to_rows), whatever a ledger's column is called."""
    from pyhelpers.interfaces.ledger import (
        batch_to_rows,
        jsonl_rows,
        ledger_format,
        rows_to_batch,
        spool_partitions,
        spooled_rows,
    )

    rows = generate(40, seed=2)
    for k, first in ((7, 1), (8, 1), (25, 12), (31, 12), (39, 38)):
        rows[k]["id"] = rows[first]["id"]
    ledger = write_csv(tmp_path / "in.csv", rows)
    assert ledger_format(ledger) == ".csv"
    for skip in (set(), {0, 2}, {1}):
        spool = tmp_path / f"spool-{len(skip)}"
        read_once = [(p.index, spooled_rows(p)) for p in spool_partitions(read_rows(ledger), 6, spool, skip, buckets=3)]
        twice = list(batch.partitions(batch.ledger_rows(ledger), 6, skip))
        assert read_once == twice and [i for i, _ in twice] == [i for i in range(7) if i not in skip]
        marked = sum("already row" in (r.error or "") for _, part in twice for r in part)
        assert marked == (3 if 1 in skip else 5)  # rows 8 and 9 are in partition 1 (the first with its id in 0)
    text = ['{"id": "a", "__row__": "own", "memo": "x"}', '{"memo": "y", "__error__": "own", "id": "b"}', "[1]",
            '{"___row__": "3", "__": "", "__order__": "[", "__line__": "l", "id": "c", "memo": "\\ud800"}']
    for lines in (text[:1], text[1:2], text[2:3], text[3:], text):
        part = list(jsonl_rows(lines))
        assert batch_to_rows(rows_to_batch(part)) == part
        assert [list(r.columns) for r in batch_to_rows(rows_to_batch(part))] == [list(r.columns) for r in part]
    assert [r.error is not None for r in part] == [False, False, True, True]
    assert part[1].columns["__error__"] == "own" and part[3].columns["___row__"] == "3"


def test_a_csv_ledger_needs_no_pyarrow(tmp_path: Path) -> None:
    """CSV and JSON Lines need nothing more than the package (pyproject: pyarrow is the parquet extra's): treaty
    batch does not import pyarrow for them, on one worker or two."""
    ledger = write_csv(tmp_path / "in.csv", generate(30, seed=4))
    code = ("import sys\nfrom pyhelpers.interfaces.batch import run_batch\n"
            f"for w in (1, 2):\n    run_batch({str(ledger)!r}, {str(CONTEXT)!r}, "
            f"{str(tmp_path)!r} + f'/out{{w}}.jsonl', workers=w)\nprint('pyarrow' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "False", done.stderr


def test_json_text_is_what_json_dumps_writes() -> None:
    """The records and rows a receipt hashes: text put together where it is plain, json's otherwise."""
    values: list[Any] = [{}, {"a": "b"}, {"a": "b", "c": ""}, {"": ""}, {"a": '"'}, {'a"': "b"}, {"a": "x\\y"},
                         {"a": "\x7f"}, {"a": "\u2028"}, {"a": "\n"}, {"é": "ü ç"}, {"a": 1}, {"a": None}, [1, "x"],
                         {"%s": "%d"}, {"a%": "%"}, {"a": "b", "c": '"'}, {"a": "b", "c": "d\\"}, {1: "x"},
                         {"a": "b", "c": 2}]
    for value in values:
        assert chunks.json_text(value) == json.dumps(value, ensure_ascii=False), value


_NO_HOLDING = """\
name: a Portuguese parent whose holding record is not given
treaty: br-pt
evaluation_date: 2024-06-30
persons:
  lusoinvest: {kind: company, liable_to_tax: {pt: [place_of_management, incorporation]}}
  alfa-industria-sa: {kind: company, liable_to_tax: {br: [incorporation]}}
"""


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "missing fact: holding (lusoinvest, alfa-industria-sa) (needed by br-pt 10(2)(a); br-pt 10(2)(b)); "
           "state it in `holdings (a record of lusoinvest in alfa-industria-sa)`"),
    ("pt", "fato ausente: participação (lusoinvest, alfa-industria-sa) (exigido pelo br-pt 10(2)(a); br-pt 10(2)(b)); "
           "informe-o em `holdings (um registro de lusoinvest em alfa-industria-sa)`"),
    ("pt-PT", "facto em falta: participação (lusoinvest, alfa-industria-sa) (exigido pelo br-pt 10(2)(a); "
              "br-pt 10(2)(b)); indique-o em `holdings (um registo de lusoinvest em alfa-industria-sa)`"),
])
def test_findings_text_is_check_s_findings_in_the_language_of_the_run(tmp_path: Path, lang: str, words: str) -> None:
    """`findings_text` (issue 24, audit D10): the row's findings as `treaty check` lists them under the item of the
    row's scenario (each fact once with the provisions that need it, the YAML path that states it), in the run's
    language; `findings` keeps its machine form in every language; a row of the same kind gets the same words."""
    context = tmp_path / "ctx.yaml"
    context.write_text(_NO_HOLDING, encoding="utf-8")
    row = {"type": "dividend", "payer": "alfa-industria-sa", "recipient": "lusoinvest", "date": "2024-03-15",
           "gross": "1000000.00", "currency": "BRL", "withheld_rate": "12"}
    ledger = write_csv(tmp_path / "in.csv", [row | {"id": "r1"}, row | {"id": "r2", "gross": "5.00"}])
    out = tmp_path / "out.csv"
    res = CliRunner().invoke(main, ["--lang", lang, "batch", str(ledger), "--context", str(context), "-o", str(out),
                                    "-q", "--workers", "1"])
    assert res.exit_code == 0, res.output
    got = _read(out)
    assert [r["findings_text"].split(" | ")[0] for r in got] == [words, words]
    # then the facts the withholding finding depends on (12% withheld: within the cap or over it as the record
    # goes), in the same language (audit 24b defect 10: no longer English prose in withholding_finding)
    assert [r["withholding_finding"] for r in got] == ["depends", "depends"]
    withheld = [r["findings_text"].split(" | ")[1] for r in got]
    assert all(("withholding in Brazil: " if lang == "en" else "retenção na fonte no Brasil: ") in w
               and "`holdings (" in w for w in withheld), withheld
    record = "[in the scenario: holdings (a record of lusoinvest in alfa-industria-sa)]"
    machine = (f"missing: holding(lusoinvest, alfa-industria-sa) (br-pt 10(2)(a)) {record}; "
               f"missing: holding(lusoinvest, alfa-industria-sa) (br-pt 10(2)(b)) {record}")
    assert [r["findings_code"] for r in got] == [machine, machine]
    # `findings` in the run's language (English: the machine form); the fact is the rules' atom in every language
    kind, told = {"en": ("missing", record), "pt": ("ausente", "[no cenário: `holdings (um registro de lusoinvest em "
                                                                "alfa-industria-sa)`]"),
                  "pt-PT": ("em falta", "[no cenário: `holdings (um registo de lusoinvest em "
                                        "alfa-industria-sa)`]")}[lang]
    assert got[0]["findings"] == (f"{kind}: holding(lusoinvest, alfa-industria-sa) (br-pt 10(2)(a)) {told}; "
                                  f"{kind}: holding(lusoinvest, alfa-industria-sa) (br-pt 10(2)(b)) {told}")
    checked = CliRunner().invoke(main, ["--lang", lang, "check",
                                        str(ROOT / "scenarios/br-pt/exam23-dividend-holding-record-absent.yaml")])
    assert f"  - {words}\n" in checked.output, checked.output


def test_findings_that_name_a_rows_id_are_written_as_the_rows_own() -> None:
    """A row's findings whose facts name its item's id are written once per case, the id stood in for and put back
    (_findings_cells with the row's id, _id_free): the cells are those written for the row's own findings, in every
    language, for ids the words write as they are (stood in for) and for ids they may read otherwise (a State's code,
    a word of the vocabulary, an id inside another argument: written as before)."""
    from pyhelpers.engine.results import Finding
    from pyhelpers.output.render import _FINDING

    facts = ["services(X)", "holding(X, alfa)", "holding(lusoinvest, X)", "activities_preparatory_overall(X)",
             "agent_independent(X)", "beneficial_owner(X)", "treaty_resident(X, br)", "x(X,X)", "x(f(X))",
             "x(X-1)", "no_special_regime(X)"]
    opaque = ["pay-0000011", "a-1", "E-2.x", "Br-1", "o-o", "no-1", "A1-B2.C3"]
    ids = [*opaque, "br", "services", "pt", "pay", "1", "-5", "a b"]
    stood_in = 0
    for lang in ("en", "pt", "pt-PT"):
        for kind in _FINDING["en"]:
            if kind == "assumption_field":
                continue  # (a wording, not a kind)
            for fact in facts:
                for rid in ids:
                    findings = [Finding(kind, "br-pl 13(3)", fact.replace("X", rid), "income[0].payment_for.services"),
                                Finding("not_encoded", "br-pl", None)]
                    code = batch.findings_cell(findings)
                    expected = (code if lang == "en" else render.batch_findings_cell(findings, lang), code,
                                batch.findings_text_cell(findings, lang))
                    assert batch._findings_cells(findings, lang, rid) == expected, (lang, kind, fact, rid)
                    free = batch._id_free(findings, rid, lang)
                    assert free is None or rid in opaque
                    stood_in += free is not None
    assert stood_in > 1_000
