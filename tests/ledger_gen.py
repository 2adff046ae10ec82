"""A realistic synthetic payment ledger for the batch tests and the benchmark: mixed treaties, types,
dates and amounts, with a share of bad rows of every kind (seeded: the same N and seed give the same
ledger). The context is tests/fixtures/batch/group.yaml."""

from __future__ import annotations

import csv
import json
import random
from collections.abc import Iterable, Iterator
from pathlib import Path

CONTEXT = Path(__file__).parent / "fixtures" / "batch" / "group.yaml"
COLUMNS = ["id", "states", "treaty", "type", "payer", "recipient", "beneficial_owner", "date", "gross", "currency",
           "withheld", "withheld_rate", "domestic_rate", "interest.government_institution_of", "memo"]

# (treaty column, states column, type, payer, recipient, domestic rate %)
_KINDS = [
    ("br-pt", "", "dividend", "alfa", "lusoinvest", "15"),
    ("", "br pt", "dividend", "alfa", "maria", "15"),
    ("br-pt", "", "interest", "alfa", "lusoinvest", "15"),
    ("br-pt", "", "interest", "alfa", "republica-portuguesa", "15"),
    ("br-pt", "", "royalty", "beta", "lusoinvest", "15"),
    ("", "br,pt", "interest_on_equity", "alfa", "lusoinvest", "15"),
    ("br-sg", "", "dividend", "beta", "sg-tech", "15"),
    ("br-sg", "", "interest", "beta", "sg-tech", "15"),
    ("br-sg", "", "royalty", "beta", "sg-tech", "15"),
    ("br-uy", "", "dividend", "beta", "uy-holding", "15"),
    ("br-uy", "", "royalty", "beta", "uy-holding", "15"),
    ("br-ae", "", "interest", "alfa", "ae-invest", "15"),
    ("br-pl", "", "royalty", "beta", "pl-soft", "15"),
    ("br-pl", "", "technical_services", "beta", "pl-soft", "15"),
]

_BAD = [
    ("payer", "nobody"),            # unknown person
    ("date", "2023-02-29"),         # impossible date
    ("gross", "-100.00"),           # negative amount
    ("type", "lottery"),            # unknown type
    ("treaty", "br-xx"),            # unknown treaty
    ("withheld_rate", "150"),       # percentage over 100
]


def generate(n: int, seed: int = 7, bad_share: float = 0.05, schedule: bool = True) -> list[dict[str, str]]:
    """``n`` rows as a list (see :func:`iter_rows`)."""
    return list(iter_rows(n, seed, bad_share, schedule))


def iter_rows(n: int, seed: int = 7, bad_share: float = 0.05, schedule: bool = True) -> Iterator[dict[str, str]]:
    """``n`` rows, generated lazily. With ``schedule`` (the realistic case) each kind of payment falls on a
    fixed day of the month (dividends, interest and fees are paid on schedules), so payments repeat the
    same facts but for their amounts; without it every row gets a random day (nearly every row is a
    distinct case)."""
    rnd = random.Random(seed)
    for i in range(n):
        k = rnd.randrange(len(_KINDS))
        treaty, states, kind, payer, recipient, domestic = _KINDS[k]
        year = rnd.choice([2023, 2024])
        day = 10 + k if schedule else rnd.randrange(1, 29)
        gross = f"{rnd.randrange(100, 5_000_000)}.{rnd.randrange(100):02d}"
        row = {c: "" for c in COLUMNS}
        row.update({"id": f"pay-{i + 1:07d}", "treaty": treaty, "states": states, "type": kind, "payer": payer,
                    "recipient": recipient, "date": f"{year}-{rnd.randrange(1, 13):02d}-{day:02d}",
                    "gross": gross, "currency": "BRL", "domestic_rate": domestic,
                    "memo": f"invoice {rnd.randrange(10**6)}"})
        if rnd.random() < 0.5:
            row["withheld_rate"] = rnd.choice(["0", "10", "15", "25"])
        else:
            row["withheld"] = f"{int(float(gross) * rnd.choice([0.1, 0.15])):d}.00"
        if rnd.random() < bad_share:
            column, value = _BAD[rnd.randrange(len(_BAD))]
            row[column] = value
        yield row


def write_csv(path: Path, rows: Iterable[dict[str, str]]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return path


DUPLICATES = (7, 61, 150)
"""The rows of :func:`engines_ledger` whose id is the row before's: the second of each pair is an error
naming the first."""


def engines_ledger(path: Path, n: int) -> Path:
    """The ledger the engines' equality tests share (tests/test_distributed.py, tests/test_spark.py): ``n``
    rows of seed 27, 8% bad rows, and the rows of :data:`DUPLICATES` repeating the id of the row before."""
    rows = generate(n, seed=27, bad_share=0.08)
    for k in DUPLICATES:
        rows[k]["id"] = rows[k - 1]["id"]
    return write_csv(path, rows)


def interrupted(out: Path, committed: set[int]) -> None:
    """Make the finished partitioned output ``out`` (a Dask or Spark run's) what an interrupted run leaves:
    the journal entries of the ``committed`` partitions and their parts, the others' parts removed, no
    manifest (what ``--resume`` starts from)."""
    from pyhelpers.interfaces.cluster import ENTRIES, MANIFEST

    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    (out / ENTRIES).mkdir()
    header = {k: v for k, v in manifest.items() if k not in ("partitions", "rows", "receipt")}
    (out / "_run.json").write_text(json.dumps(header), encoding="utf-8")
    for entry in manifest["partitions"]:
        if entry["partition"] in committed:
            (out / ENTRIES / f"{entry['partition']:08d}.json").write_text(json.dumps(entry), encoding="utf-8")
        else:
            (out / entry["file"]).unlink()
    (out / MANIFEST).unlink()
