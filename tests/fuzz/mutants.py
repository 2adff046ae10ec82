"""Hypothesis strategies for the fuzz harness (issue 26): the shipped scenarios and a generated payment
ledger, mutated in their types, bounds, YAML features, encodings, ids and (ledgers) rows.

A scenario mutant is the bytes of a file: one of ``scenarios/**/*.yaml`` with one to three mutations,
each applied to its text (a value or key of a line replaced, a YAML feature inserted) or to its bytes
(a byte order mark, bytes that are not UTF-8, another encoding). A ledger mutant is the bytes of a CSV or
JSON Lines file (or a Parquet table) of rows from :mod:`tests.ledger_gen`, with cells, column names and
lines broken the same ways.
"""

from __future__ import annotations

import csv
import io
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from tests.ledger_gen import COLUMNS, generate

ROOT = Path(__file__).resolve().parent.parent.parent


@cache
def scenario_texts() -> tuple[str, ...]:
    """Every shipped scenario's text, in a fixed order."""
    return tuple(p.read_text(encoding="utf-8") for p in sorted((ROOT / "scenarios").rglob("*.yaml")))


# ------------------------------------------------------------------------------- the values ---

_DIGITS = "٠١٢٣٤٥٦٧٨٩"  # Arabic-Indic

TYPES = ["~", "null", "''", "' '", "true", "false", "True", "FALSE", "yes", "no", "on", "off", "y", "n", "0", "1",
         "-1", "'0'", "'1'", "'true'", "\"false\"", "[]", "{}", "[1, 2]", "[[]]", "{a: 1}", "{unknown: 1}", "1.5",
         "-0.0", "0.0", "unknown", "UNKNOWN", "'unknown'", "Unknown", "none", "None", "[unknown]", "{one_of: []}",
         "{one_of: [1, 2]}", "{one_of: [true, false]}", "{one_of: [2024-01-01, 2024-02-30]}", "{one_of: unknown}",
         "{between: [1, 2]}", "{between: [2024-01-01, 2023-01-01]}", "{between: [0, 100000000000]}",
         "{between: [2024-01-01, 2999-12-31]}", "{between: [1, x]}", "{between: []}", "{value: 1, changeable: true}",
         "{value: true, changeable: [false]}", "{value: 2024-01-01, changeable: [0]}", "{value: x, changeable: 5}",
         "{value: 30, changeable: [24.999, 101]}"]

BOUNDS = ["1e999999", "-1e999999", "'1e999999'", "1e27", "'1e27'", "9" * 5000, "'" + "9" * 5000 + "'", "-" + "9" * 41,
          "'" + "1" * 40 + "'", "-5", "'-5'", "'-100.00'", "'-0'", "'-0.00'", "'0'", "'0.000000'", "'0.0000001'",
          "1000000000000000", "'1000000000000000'", "'999999999999999.999999'", "'999999999999999.9999999'",
          "'1_000'", "1_000", "'1,000'", "'1 000'", "0x1F", "0o17", "010", "1:30", "'.5'", "'5.'", ".5", "5.", "+5",
          "'+5'", "24.999999999999999", "24.99", "24.995", "100", "100.0", "100.00001", "100.01", "101", "-0.01",
          "'25%'", "'25 %'", "'%25'", "'25%%'", "'100%'", "'101%'", "'٢٥'", "'２５'", "'2⁵'", "'½'", ".inf",
          "-.inf", ".nan", ".NaN", "2023-02-29", "2024-02-29", "2024-13-01", "2024-00-10", "0000-01-01", "0001-01-01",
          "9999-12-31", "10000-01-01", "'10000-01-01'", "2024-03-15T00:00:00", "2024-03-15 10:30:00",
          "2024-03-15t10:30:00Z", "'2024-3-5'", "20240630", "'٢٠٢٤-٠٦-٣٠'", "'２０２４-０６-３０'", "'2024-06-30 '",
          "' 2024-06-30'", "2024-06-30x", "'2024‐06‐30'", "1900-01-01", "2147483648", "-2147483649",
          "4294967296", "99999", "36601", "1899", "9999"]

ENCODED = ["\"a\\0b\"", "\"\\u2028\"", "\"x\\u2029y\"", "\"\\u202etp\"", "\"\\x85\"", "\"\\x9f\"", "\"\\x7f\"",
           "\"\\ud800\"", "\"\\U0010ffff\"", "\"\\ufeff\"", "\"\\u200b\"", "\"\\u00a0\"", "\"\\t\"", "\"\\n\"",
           "\"br\\u0000\"", "'ｂｒ'", "'BR'", "' br '", "'b r'", "'βρ'", "'ﻙﻻ'", "'a' ", "\"" + "a" * 201 + "\"",
           "\"" + "a" * 200 + "\"", "'" + "x" * 300_000 + "'"]

YAML = ["&a 1", "*a", "&a [1, 2]", "!!str 5", "!!int '5'", "!!float 1", "!!bool yes", "!!timestamp 2024-01-01",
        "!!binary aGVsbG8=", "!foo x", "!<tag:yaml.org,2002:str> x", "!!python/object:os.system x", "!!set {a, b}",
        "!!omap [a: 1]", "{<<: {a: 1}}", "'<<'", "? [a]\n  : 1", "{? {a: 1} : 2}", "|\n  text", ">-\n  folded",
        "\"unterminated", "'unterminated", "[unclosed", "{unclosed", "a: b: c", "- x", "@x", "`x`", "%YAML 1.1",
        "---", "...", "|", "&a &b x", "*undefined", "[" * 45 + "]" * 45, "[" * 39 + "]" * 39, "{a: " * 45 + "1"
        + "}" * 45, "[*a, *a, *a]", "&x [*x]"]

LAUGHS = ("l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n"
          + "".join(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]\n" for i in range(1, 9)))


@st.composite
def _number_text(draw: st.DrawFn) -> str:
    """A number as text, of any size and precision (also quoted)."""
    kind = draw(st.sampled_from(["int", "float", "decimal", "digits"]))
    if kind == "int":
        text = str(draw(st.integers(min_value=-10**50, max_value=10**50)))
    elif kind == "float":
        text = repr(draw(st.floats(allow_nan=True, allow_infinity=True)))
    elif kind == "decimal":
        whole = draw(st.integers(min_value=0, max_value=10**20))
        fraction = draw(st.text("0123456789", min_size=1, max_size=14))
        text = f"{'-' if draw(st.booleans()) else ''}{whole}.{fraction}"
    else:
        text = draw(st.text("0123456789", min_size=1, max_size=60))
    return f"'{text}'" if draw(st.booleans()) else text


def _value_near(original: str) -> list[str]:
    """Variants of a written value: its digits in another script, its case, spaces, a quote, a percent."""
    v = original.strip()
    out = [f"'{v} '", f"' {v}'", v.upper(), v.title(), f"'{v}%'", f"{v}0", f"{v}.001", f"{v}.123456789", f"-{v}",
           f"'{v}'" if not v.startswith(("'", '"')) else v.strip("'\""), "'" + v.translate(str.maketrans(
               "0123456789", _DIGITS)) + "'", v.replace("-", "/"), v + "T00:00:00", f"[{v}]", f"{{a: {v}}}",
           "\"" + v.replace("'", "") + "\\u2028\"", "'‮" + v.replace("'", "") + "'"]
    return [x for x in out if x]


@st.composite
def value_token(draw: st.DrawFn, original: str) -> str:
    family = draw(st.sampled_from(["types", "bounds", "encoded", "yaml", "number", "near", "text"]))
    if family == "types":
        return draw(st.sampled_from(TYPES))
    if family == "bounds":
        return draw(st.sampled_from(BOUNDS))
    if family == "encoded":
        return draw(st.sampled_from(ENCODED))
    if family == "yaml":
        return draw(st.sampled_from(YAML))
    if family == "number":
        return draw(_number_text())
    if family == "near":
        return draw(st.sampled_from(_value_near(original)))
    return json.dumps(draw(st.text(max_size=30)))  # a JSON string is a YAML double-quoted scalar


# --------------------------------------------------------------------------- scenario texts ---

_LINE = re.compile(r"^(?P<lead>\s*(?:- )?)(?P<key>[^\s#:{}\[\]'\"][^:#{}]*?|'[^']*'|\"[^\"]*\"):(?P<rest>\s+.*)?$")


def _lines_with_key(text: str) -> list[int]:
    return [n for n, line in enumerate(text.split("\n")) if _LINE.match(line)]


@st.composite
def _replace_value(draw: st.DrawFn, text: str) -> str:
    lines = text.split("\n")
    candidates = _lines_with_key(text)
    if not candidates:
        return text
    n = draw(st.sampled_from(candidates))
    m = _LINE.match(lines[n])
    assert m is not None
    token = draw(value_token((m["rest"] or "").strip() or "x"))
    lines[n] = f"{m['lead']}{m['key']}: {token}"
    return "\n".join(lines)


@st.composite
def _inline_value(draw: st.DrawFn, text: str) -> str:
    """A value inside a flow map (``{amount: "1000.00", currency: BRL}``) replaced."""
    spots = list(re.finditer(r"(?<=[{,] )([A-Za-z_]+): ([^,{}\[\]]+)(?=[,}])", text))
    if not spots:
        return text
    m = draw(st.sampled_from(spots))
    token = draw(value_token(m[2])).replace("\n", " ")
    return text[:m.start(2)] + token + text[m.end(2):]


@st.composite
def _change_key(draw: st.DrawFn, text: str) -> str:
    """A key written otherwise: its case, spaces around it (quoted), another script, twice, unknown."""
    lines = text.split("\n")
    candidates = _lines_with_key(text)
    if not candidates:
        return text
    n = draw(st.sampled_from(candidates))
    m = _LINE.match(lines[n])
    assert m is not None
    key = m["key"]
    how = draw(st.sampled_from(["upper", "space", "lead", "twice", "unknown", "bom", "rtl", "empty", "int", "null",
                                "bool", "quoted", "case1"]))
    new = {"upper": key.upper(), "space": f"'{key} '", "lead": f"' {key}'", "twice": key, "unknown": key + "x",
           "bom": "\ufeff" + key, "rtl": "\u202e" + key, "empty": "''", "int": "1", "null": "~", "bool": "true",
           "quoted": f"\"{key}\"", "case1": key[:1].upper() + key[1:]}[how]
    line = f"{m['lead']}{new}:{m['rest'] or ''}"
    if how == "twice":
        indent = " " * len(m["lead"])
        lines.insert(n + 1, f"{indent}{key}:{m['rest'] or ' x'}")
    else:
        lines[n] = line
    return "\n".join(lines)


_REFS = re.compile(r"\b(payer|recipient|holder|company|owner|person|beneficial_owner|place_of_business|"
                   r"performer|enterprise|agent_of|of): (?P<id>[A-Za-z0-9_.-]+)")


@st.composite
def _id_variant(draw: st.DrawFn, text: str) -> str:
    """A reference to an id (or an id itself) written with another case or spaces around it."""
    refs = list(_REFS.finditer(text))
    if not refs:
        return text
    m = draw(st.sampled_from(refs))
    pid = m["id"]
    new = draw(st.sampled_from([pid.upper(), f"' {pid}'", f"'{pid} '", f"'{pid}\t'", f"\"{pid}\\u00a0\"",
                                f"'{pid.replace('-', '_')}'", f"\"{pid}\\u200b\"", f"'{pid}'", "''", "none", "NONE"]))
    if draw(st.booleans()):
        return text[:m.start("id")] + new + text[m.end("id"):]
    return re.sub(rf"^(\s+){re.escape(pid)}:", lambda k: f"{k[1]}{new}:", text, count=1, flags=re.M)


@st.composite
def _yaml_feature(draw: st.DrawFn, text: str) -> str:
    """An anchor with aliases, a merge key, a tag, deep nesting, a billion laughs, another document."""
    how = draw(st.sampled_from(["anchor", "merge", "tag", "deep", "laughs", "documents", "directive", "flow",
                                "selfalias"]))
    lines = text.split("\n")
    candidates = _lines_with_key(text)
    if how == "laughs":
        return LAUGHS + text
    if how == "documents":
        return text + "\n---\nname: second\n"
    if how == "directive":
        return draw(st.sampled_from(["%YAML 1.1\n---\n", "%YAML 1.2\n---\n", "%TAG ! tag:x,2000:\n---\n",
                                     "--- !!map\n"])) + text
    if not candidates:
        return text
    n = draw(st.sampled_from(candidates))
    m = _LINE.match(lines[n])
    assert m is not None
    rest = (m["rest"] or "").strip()
    if how == "anchor" and rest:  # the value anchored, repeated by an alias on a line of the same block
        lines[n] = f"{m['lead']}{m['key']}: &v {rest}"
        others = [k for k in candidates if k > n and _LINE.match(lines[k])]
        if others:
            k = draw(st.sampled_from(others))
            mk = _LINE.match(lines[k])
            assert mk is not None
            lines[k] = f"{mk['lead']}{mk['key']}: *v"
    elif how == "merge":
        lead = " " * len(m["lead"])
        lines.insert(n, f"{lead}<<: {{{m['key']}: {rest or 'x'}}}")
    elif how == "tag":
        tag = draw(st.sampled_from(["!!str", "!!int", "!!float", "!!bool", "!!null", "!!timestamp", "!!binary",
                                    "!local", "!!map", "!!seq", "!<tag:yaml.org,2002:str>"]))
        lines[n] = f"{m['lead']}{m['key']}: {tag} {rest}"
    elif how == "deep":
        depth = draw(st.integers(min_value=30, max_value=200))
        lines[n] = f"{m['lead']}{m['key']}: {'[' * depth}{rest or 'x'}{']' * depth}"
    elif how == "flow":
        lines[n] = f"{m['lead']}{m['key']}: {{{rest or 'x'}: {rest or 'x'}}}"
    elif how == "selfalias":
        lines[n] = f"{m['lead']}{m['key']}: &s [*s]"
    return "\n".join(lines)


@st.composite
def _structure(draw: st.DrawFn, text: str) -> str:
    """A line removed, re-indented or duplicated; the text cut short."""
    lines = text.split("\n")
    how = draw(st.sampled_from(["delete", "indent", "dedent", "duplicate", "truncate", "tab"]))
    n = draw(st.integers(min_value=0, max_value=max(0, len(lines) - 1)))
    if how == "delete":
        del lines[n]
    elif how == "indent":
        lines[n] = "  " + lines[n]
    elif how == "dedent":
        lines[n] = lines[n][2:]
    elif how == "duplicate":
        lines.insert(n, lines[n])
    elif how == "tab":
        lines[n] = "\t" + lines[n].lstrip()
    else:
        return text[: draw(st.integers(min_value=0, max_value=len(text)))]
    return "\n".join(lines)


@st.composite
def _digits(draw: st.DrawFn, text: str) -> str:
    """Every digit of one line in another script (Arabic-Indic, fullwidth)."""
    lines = text.split("\n")
    n = draw(st.integers(min_value=0, max_value=max(0, len(lines) - 1)))
    table = str.maketrans("0123456789", draw(st.sampled_from([_DIGITS, "０１２３４５６７８９", "۰۱۲۳۴۵۶۷۸۹"])))
    lines[n] = lines[n].translate(table)
    return "\n".join(lines)


@st.composite
def _insert_char(draw: st.DrawFn, text: str) -> str:
    """A character YAML or the format may trip on, inserted anywhere."""
    ch = draw(st.sampled_from(["\x00", "\u2028", "\u2029", "\u202e", "\u200f", "\ufeff", "\x85", "\x0b", "\x0c",
                               "\r", "\t", "\u00a0", "\x7f", "\x1b", "\ud800", "#", ":", "&", "*", "!", "%", "@", "`",
                               "|", ">", "'", "\"", "{", "[", "-", "?"]))
    at = draw(st.integers(min_value=0, max_value=len(text)))
    return text[:at] + ch + text[at:]


TEXT_MUTATIONS = [_replace_value, _replace_value, _replace_value, _inline_value, _inline_value, _change_key,
                  _id_variant, _yaml_feature, _structure, _digits, _insert_char]


@st.composite
def _encode(draw: st.DrawFn, text: str) -> bytes:
    """The text as bytes: UTF-8, mostly; else with a byte order mark, bytes that are not UTF-8, CRLF lines,
    another encoding, or a size past the limit."""
    how = draw(st.sampled_from(["utf8"] * 12 + ["bom", "invalid", "crlf", "cr", "utf16", "latin1", "huge",
                                                "overlong", "surrogate"]))
    data = text.encode("utf-8", "surrogatepass")
    if how == "bom":
        return b"\xef\xbb\xbf" + data
    if how == "invalid":
        at = draw(st.integers(min_value=0, max_value=len(data)))
        bad = draw(st.sampled_from([b"\xff", b"\xe9", b"\xc3", b"\x80", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80"]))
        return data[:at] + bad + data[at:]
    if how == "crlf":
        return data.replace(b"\n", b"\r\n")
    if how == "cr":
        return data.replace(b"\n", b"\r")
    if how == "utf16":
        return text.encode("utf-16", "surrogatepass")
    if how == "latin1":
        return text.encode("latin-1", "replace")
    if how == "huge":
        return data + b"#" * (1_000_001 - len(data)) + b"\n"
    if how == "overlong":
        return data.replace(b"/", b"\xc0\xaf", 1) if b"/" in data else b"\xc0\xaf" + data
    return data  # "surrogate": surrogatepass has already written any lone surrogate as its (invalid) bytes


@st.composite
def scenario_mutants(draw: st.DrawFn) -> bytes:
    """The bytes of a shipped scenario file with one to three mutations."""
    text = draw(st.sampled_from(scenario_texts()))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        text = draw(draw(st.sampled_from(TEXT_MUTATIONS))(text))
    return draw(_encode(text))


# ----------------------------------------------------------------------------------- ledgers ---

CELLS = ["", " ", "true", "false", "TRUE", "yes", "no", "0", "-1", "null", "None", "NaN", "nan", "inf", "-inf",
         "1e999999", "1e27", "9" * 5000, "-" + "9" * 41, "1000000000000000", "999999999999999.999999",
         "999999999999999.9999999", "0.0000001", "-100.00", "-0", "1_000", "1,000", "1 000", "0x1F", "010", "٢٥",
         "２５", "25%", "100%", "101", "100.001", "24.999999999999999", "24.995", "2023-02-29", "2024-13-01",
         "0000-01-01", "9999-12-31", "10000-01-01", "2024-03-15T00:00:00", "2024-03-15 10:30", "٢٠٢٤-٠٦-٣٠",
         "2024-3-5", "20240630", "unknown", "br pt", "br,pt", "BR PT", "pt br", "br-xx", "BR-PT", "br-pt ", "br",
         "br pt sg", "dividend", "DIVIDEND", "lottery", "alfa", "ALFA", "alfa ", " alfa", "alfa\u00a0",
         "alfa\u200b", "a\x00b", "\u2028", "\u202etp", "\x85", "\ufeff", "x" * 140_000, "\"", "'", "=1+1",
         "{\"a\": 1}", "[1]", "BRL", "brl", "EURO", "€"]

COLUMN_NAMES = ["id", "ID", " id", "treaty", "states", "type", "gross", "currency", "withheld", "withheld_rate",
                "domestic_rate", "withholding_state", "payer", "recipient", "date", "dividend.instrument",
                "dividend", "dividend.x.y", "interest.government_institution_of", "interest", ".", "a..b", "",
                "__error__", "__row__", "__line__", "__order__", "___row__", "gross.amount",
                "withholding.withheld_rate", "memo", "x" * 140_000, "\ufeffid", "id\x00"]


@st.composite
def _rows(draw: st.DrawFn) -> list[dict[str, Any]]:
    seed = draw(st.integers(min_value=0, max_value=10_000))
    rows: list[dict[str, Any]] = [dict(r) for r in generate(draw(st.integers(min_value=1, max_value=6)), seed=seed)]
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        row = draw(st.sampled_from(rows))
        how = draw(st.sampled_from(["cell", "cell", "cell", "number", "text", "column", "drop", "near"]))
        if how == "cell":
            row[draw(st.sampled_from(COLUMNS))] = draw(st.sampled_from(CELLS))
        elif how == "number":
            row[draw(st.sampled_from(COLUMNS))] = draw(_number_text()).strip("'")
        elif how == "text":
            row[draw(st.sampled_from(COLUMNS))] = draw(st.text(max_size=20))
        elif how == "column":
            row[draw(st.sampled_from(COLUMN_NAMES))] = draw(st.sampled_from(CELLS))
        elif how == "drop":
            row.pop(draw(st.sampled_from(sorted(row))), None)
        else:
            column = draw(st.sampled_from(COLUMNS))
            row[column] = draw(st.sampled_from(_value_near(str(row.get(column, "")) or "x"))).strip("'\"")
    return rows


@st.composite
def _csv_bytes(draw: st.DrawFn, rows: list[dict[str, Any]]) -> bytes:
    columns = list(dict.fromkeys(k for r in rows for k in r))
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=columns, lineterminator=draw(st.sampled_from(["\n", "\r\n", "\r"])))
    w.writeheader()
    w.writerows(rows)
    text = buf.getvalue()
    for _ in range(draw(st.integers(min_value=0, max_value=2))):
        how = draw(st.sampled_from(["quote", "cells", "fewer", "blank", "nul", "newline", "char", "header",
                                    "truncate"]))
        lines = text.split("\n")
        n = draw(st.integers(min_value=0, max_value=len(lines) - 1))
        if how == "quote":
            at = draw(st.integers(min_value=0, max_value=len(lines[n])))
            lines[n] = lines[n][:at] + '"' + lines[n][at:]
        elif how == "cells":
            lines[n] += ",extra,\"more\""
        elif how == "fewer":
            lines[n] = lines[n].rsplit(",", 2)[0]
        elif how == "blank":
            lines.insert(n, draw(st.sampled_from(["", " ", ",,,", "\t"])))
        elif how == "nul":
            lines[n] += "\x00"
        elif how == "newline":
            lines[n] = lines[n].replace(",", ",\"a\nb\",", 1)
        elif how == "char":
            at = draw(st.integers(min_value=0, max_value=len(lines[n])))
            lines[n] = lines[n][:at] + draw(st.sampled_from(["\u2028", "\x85", "\ufeff", "\r", "\x0b", "\\"])) \
                + lines[n][at:]
        elif how == "header":
            lines[0] = draw(st.sampled_from(["", "id", "id,id,id", "\"id", ",".join(COLUMNS).upper(),
                                             ",".join(COLUMNS) + ",dividend,dividend.instrument"]))
        else:
            return draw(_ledger_encoding("\n".join(lines)[: draw(st.integers(min_value=0, max_value=len(text)))]))
        text = "\n".join(lines)
    return draw(_ledger_encoding(text))


@st.composite
def _jsonl_bytes(draw: st.DrawFn, rows: list[dict[str, Any]]) -> bytes:
    lines = []
    for row in rows:
        rec: dict[str, Any] = dict(row)
        if draw(st.integers(min_value=0, max_value=3)) == 0:  # a cell of another JSON type
            rec[draw(st.sampled_from(sorted(rec) or ["id"]))] = draw(st.sampled_from(
                [None, True, False, 0, -1, 1.5, 1e308, "<5000 digits>", 10**20, [], {}, [1, "a"], {"a": {"b": 1}}, "",
                 float("nan"), float("inf")]))
        line = json.dumps(rec, ensure_ascii=draw(st.booleans()))
        how = draw(st.sampled_from(["ok"] * 6 + ["list", "scalar", "broken", "dupkey", "bigint", "nan", "empty",
                                                 "nested", "bigfloat", "deep", "surrogate"]))
        if how == "list":
            line = json.dumps(list(rec.values()))
        elif how == "scalar":
            line = draw(st.sampled_from(["1", "\"x\"", "null", "true", "1e999999"]))
        elif how == "broken":
            line = line[: draw(st.integers(min_value=0, max_value=len(line)))]
        elif how == "dupkey":
            line = line[:-1] + ", \"id\": \"other\"}" if line.endswith("}") else line
        elif how == "bigint":
            line = line[:-1] + ", \"gross\": " + "9" * draw(st.sampled_from([20, 4300, 4301, 5000, 100_000])) + "}"
        elif how == "nan":
            line = line[:-1] + ", \"withheld_rate\": NaN, \"gross\": -Infinity}"
        elif how == "empty":
            line = "{}"
        elif how == "nested":
            line = line[:-1] + ", \"dividend\": {\"instrument\": [1, {\"a\": null}]}}"
        elif how == "bigfloat":
            line = line[:-1] + ", \"gross\": 1e999999, \"withheld\": 1.5e-999999}"
        elif how == "deep":
            line = "[" * 100_000 + "]" * 100_000
        elif how == "surrogate":  # the escape of half a UTF-16 pair, alone: no character
            line = line[:-1] + draw(st.sampled_from([', "memo": "\\ud800"}', ', "\\udfff": "x"}', ', "id": "a\\udce9"}',
                                                     ', "memo": "\\ud83d\\ude00"}'])) if line.endswith("}") else line
        lines.append(line.replace('"<5000 digits>"', "9" * 5000))  # an integer too long for Python's str()
    sep = draw(st.sampled_from(["\n", "\r\n", "\n\n"]))
    return draw(_ledger_encoding(sep.join(lines) + sep))


@st.composite
def _ledger_encoding(draw: st.DrawFn, text: str) -> bytes:
    how = draw(st.sampled_from(["utf8"] * 8 + ["bom", "invalid", "utf16", "latin1", "surrogate"]))
    data = text.encode("utf-8", "surrogatepass")
    if how == "bom":
        return b"\xef\xbb\xbf" + data
    if how == "invalid":
        at = draw(st.integers(min_value=0, max_value=len(data)))
        return data[:at] + draw(st.sampled_from([b"\xff", b"\xe9", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf"])) + data[at:]
    if how == "utf16":
        return text.encode("utf-16", "surrogatepass")
    if how == "latin1":
        return text.encode("latin-1", "replace")
    return data


@st.composite
def _parquet_bytes(draw: st.DrawFn, rows: list[dict[str, Any]]) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns = list(dict.fromkeys(k for r in rows for k in r))
    table: dict[str, list[Any]] = {c: [r.get(c) for r in rows] for c in columns}
    if columns and draw(st.booleans()):  # a column of another type
        kind = draw(st.sampled_from(["int", "float", "bool", "null", "list", "struct", "date", "decimal"]))
        values: list[Any] = {
            "int": [2**62] * len(rows), "float": [float("nan"), 1e308, -0.0, 1.5, float("inf")][: len(rows)],
            "bool": [True] * len(rows), "null": [None] * len(rows), "list": [[1, 2]] * len(rows),
            "struct": [{"a": 1}] * len(rows), "date": [__import__("datetime").date(2024, 2, 29)] * len(rows),
            "decimal": [__import__("decimal").Decimal("1e-7")] * len(rows)}[kind]
        values += [values[-1] if values else None] * (len(rows) - len(values))
        table[draw(st.sampled_from(columns))] = values
    buf = io.BytesIO()
    try:
        pq.write_table(pa.table(table), buf)
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, OverflowError):
        return b"PAR1 not parquet"
    data = buf.getvalue()
    if draw(st.integers(min_value=0, max_value=4)) == 0:  # a byte flipped or the file cut short
        at = draw(st.integers(min_value=0, max_value=len(data) - 1))
        data = data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1:] if draw(st.booleans()) else data[:at]
    return data


@st.composite
def ledger_mutants(draw: st.DrawFn) -> tuple[bytes, str]:
    """The bytes of a small generated ledger with broken cells, columns and lines, and its suffix."""
    rows = draw(_rows())
    suffix = draw(st.sampled_from([".csv"] * 6 + [".jsonl"] * 5 + [".parquet"]))
    if suffix == ".csv":
        return draw(_csv_bytes(rows)), suffix
    if suffix == ".jsonl":
        return draw(_jsonl_bytes(rows)), suffix
    return draw(_parquet_bytes(rows)), suffix
