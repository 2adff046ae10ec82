"""Batch checking of payment ledgers (pyhelpers/batch.py, `treaty batch`, `treaty explain-row`)."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pyhelpers.engine.solve import Checker
from pyhelpers.interfaces.batch import (
    RESULT_COLUMNS,
    BatchError,
    LedgerError,
    load_batch_context,
    read_rows,
    row_scenario,
    run_batch,
)
from pyhelpers.interfaces.cli import main

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


def test_batch_equals_one_scenario_per_row(tmp_path: Path, checker: Checker) -> None:
    """2,000 rows across all treaties: the batch (items sharing one context, identical cases decided
    once) gives exactly what each row decided as its own scenario gives."""
    rows = generate(2000, seed=23, schedule=False) + generate(400, seed=29, schedule=True)
    for n, r in enumerate(rows):
        r["id"] = f"row-{n}"
    ledger = write_csv(tmp_path / "in.csv", rows)
    out = tmp_path / "out.csv"
    run_batch(ledger, CONTEXT, out, workers=2, chunk_size=300, checker=checker)
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
    for (_, sc), record in zip(singles, got, strict=True):
        if sc is None:
            assert record["status"] == "error", record
            continue
        item = next(decided).items[0]
        treaties.add(item.treaty)
        assert record["status"] == item.status, record
        assert record["provisions"] == "; ".join(item.provisions), record
        assert record["findings"] == "; ".join(str(f) for f in item.findings), record
        assert record["outcome_br"] == item.state("br").label
        assert record["max_source_tax"] == (str(item.max_source_tax) if item.max_source_tax is not None else "")
        assert record["withholding_finding"] == (item.compliance.finding if item.compliance else "")
        assert record["withholding_difference"] == (
            str(item.compliance.difference) if item.compliance and item.compliance.difference is not None else "")
    assert treaties == {"br-pt", "br-sg", "br-ae", "br-uy", "br-pl"}


def test_a_sample_equals_checking_alone(tmp_path: Path, checker: Checker) -> None:
    rows = generate(60, seed=31, schedule=False)
    ledger = write_csv(tmp_path / "in.csv", rows)
    out = tmp_path / "out.jsonl"
    run_batch(ledger, CONTEXT, out, workers=1, checker=checker)
    ctx = load_batch_context(CONTEXT, ledger, checker)
    for row, record in zip(read_rows(ledger), _read(out), strict=True):
        if record["status"] == "error":
            continue
        alone = checker.check(row_scenario(ctx, row)).items[0]
        assert (record["status"], record["provisions"], record["tax_due"]) == (
            alone.status, "; ".join(alone.provisions),
            str(alone.compliance.due) if alone.compliance and alone.compliance.due is not None else "")


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
    assert "capped at 10%" in res.output and "[br-pt 10(2)(a)]" in res.output
    res = runner.invoke(main, ["explain-row", str(ledger), "--context", str(CONTEXT), "--row", "nope"])
    assert res.exit_code == 2 and "expected a row with id 'nope'" in res.output


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
    assert got["b"]["error"] == (f"{ledger} row 2 (line 3, id b): gross: expected an amount below 10^15 (at most 15 "
                                 f"digits before the decimal point), found '1e28'")
    assert got["d"]["error"].startswith(f"{ledger} row 4 (line 5, id d): withheld: expected an amount below 10^15")
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


def test_a_cell_with_newlines_keeps_the_lines_of_the_rows_after_it(tmp_path: Path, checker: Checker) -> None:
    ledger = write_csv(tmp_path / "in.csv", [_GOOD | {"id": "a", "memo": "two\nlines"},
                                             _GOOD | {"id": "b", "payer": "nobody"}])
    out = tmp_path / "out.csv"
    run_batch(ledger, CONTEXT, out, workers=1, checker=checker)
    got = _by_id(out)
    assert got["a"]["status"] == "decided" and got["a"]["memo"] == "two\nlines"
    assert got["b"]["error"].startswith(f"{ledger} row 2 (line 4, id b): payer:")


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


def test_a_row_whose_decision_fails_is_decided_alone(tmp_path: Path, checker: Checker,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A row whose decision raises (a bug the rows' validation did not foresee) gets the error; the rows decided
    with it in the same clingo run get their results."""
    real = Checker.decide_items

    def fragile(self: Checker, context: Any, items: list[Any], source: str) -> Any:
        if any(it.id == "b" for it in items):
            raise ArithmeticError("boom")
        return real(self, context, items, source)

    monkeypatch.setattr(Checker, "decide_items", fragile)
    out = tmp_path / "out.csv"
    run_batch(_three(tmp_path), CONTEXT, out, workers=1, checker=checker)
    got = _by_id(out)
    assert got["a"]["status"] == got["c"]["status"] == "decided"
    assert got["b"]["status"] == "error"
    assert got["b"]["error"].startswith(f"{tmp_path / 'in.csv'} row 2 (line 3, id b): internal error while deciding "
                                        f"this row (ArithmeticError: boom)")
