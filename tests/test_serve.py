"""`treaty serve` over HTTP: a server started in a subprocess (once per session), each endpoint hit, its
JSON compared byte for byte with the command line's, bad input answered as RFC 9457 problem JSON, and
schemathesis run against its OpenAPI document within a fixed budget (no answer may be a 5xx)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from pyhelpers.interfaces.cli import main  # noqa: E402
from tests.conftest import read_yaml  # noqa: E402
from tests.ledger_gen import CONTEXT, generate  # noqa: E402

pytestmark = pytest.mark.xdist_group("serve")  # one server for every test of the module

ROOT = Path(__file__).resolve().parent.parent
FORTY = "scenarios/br-pt/dividends-individual-beneficial-owner-40-percent.yaml"
CONDITIONS = "scenarios/br-pt/dividends-article-10-5-condition-facts.yaml"
YAML = {"content-type": "application/yaml"}
PROBLEM = "application/problem+json"
STARTUP = 180.0
"""Seconds the server may take to load the rule base (a loaded CI machine)."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    log = tmp_path_factory.mktemp("serve") / "server.log"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "pyhelpers.interfaces.cli", "serve", "--port", str(port),
                                 "--no-access-log", "--max-batch-body", "200000"],
                                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP
        while True:
            if proc.poll() is not None:
                pytest.fail(f"treaty serve ended (exit {proc.returncode}):\n{log.read_text()}")
            try:
                if httpx.get(f"{url}/health", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"treaty serve did not answer within {STARTUP:g} s:\n{log.read_text()}")
            time.sleep(0.25)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def client(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, timeout=120) as c:
        yield c


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # scenario paths as the command line is given them: relative


def cli(*args: str) -> bytes:
    """What ``treaty ARGS`` prints (in this process, as the command line runs it)."""
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code in (0, 1), result.stderr
    return result.stdout_bytes


def body(path: str) -> bytes:
    return (ROOT / path).read_bytes()


# ---------------------------------------------------------------------- the same JSON as the CLI ---
@pytest.mark.parametrize("path", [FORTY, CONDITIONS])
def test_check_answers_the_json_of_treaty_check_byte_for_byte(client: httpx.Client, path: str) -> None:
    r = client.post("/check", params={"source": path}, content=body(path), headers=YAML)
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    assert r.content == cli("check", path, "--format", "json")


def test_check_derives_the_decisive_lines_within_its_time_limit(client: httpx.Client) -> None:
    """/check's decisive lines have a time limit of their own, as many seconds as the request's, as `treaty
    check`'s do: past it the answer says they are not shown (the same JSON as the command line), never an
    unbounded explanation."""
    r = client.post("/check", params={"source": FORTY, "time_limit": "0"}, content=body(FORTY), headers=YAML)
    assert r.status_code == 200 and r.content == cli("check", FORTY, "--format", "json", "--time-limit", "0")
    assert "the decisive lines are not shown" in r.json()["results"][0]["decisive_cut"]


def test_check_decides_the_item_with_its_provisions(client: httpx.Client) -> None:
    r = client.post("/check", content=body(FORTY), headers=YAML)
    data = r.json()["results"][0]
    item = data["items"][0]
    assert data["source"] == "body" and data["expect"] == {"matched": True, "mismatches": []}
    assert (item["item_id"], item["status"], item["max_rate_bp"]) == ("div-2024", "decided", 1500)
    assert item["provisions"] == ["br-pt 1", "br-pt 4(1)", "br-pt 10(1)", "br-pt 10(2)", "br-pt 10(2)(b)",
                                  "br-pt 10(3)"]
    assert [(s["state"], s["outcome"]) for s in item["states"]] == [("br", "capped"), ("pt", "may_tax")]
    assert item["states"][0]["provisions"] == ["br-pt 10(2)", "br-pt 10(2)(b)"]


def test_check_ask_and_a_scenario_given_as_json(client: httpx.Client) -> None:
    data = read_yaml(ROOT / CONDITIONS)
    r = client.post("/check", params={"source": CONDITIONS, "ask": "true"}, content=json.dumps(data),
                    headers={"content-type": "application/json"})
    assert r.status_code == 200
    assert r.content == cli("check", CONDITIONS, "--ask", "--format", "json")
    questions = r.json()["results"][0]["open_questions"]
    assert {q["fact"] for q in questions} >= {"payer_profits_from_other_state(div-profits-not-given)"}


def test_explain_and_why_not_answer_the_json_of_treaty_explain(client: httpx.Client) -> None:
    r = client.post("/explain", params={"source": FORTY, "item": "div-2024"}, content=body(FORTY), headers=YAML)
    assert r.status_code == 200
    assert r.content == cli("explain", FORTY, "--item", "div-2024", "--format", "json")
    assert r.json()["derivation"][0]["title"] == "div-2024"
    assert r.json()["argument"][0]["title"] == "div-2024" and r.json()["argument"][0]["conclusions"]
    query = 'max_rate("div-2024", 1000)'
    r = client.post("/why-not", params={"source": FORTY, "query": query, "lang": "pt"}, content=body(FORTY),
                    headers=YAML)
    assert r.status_code == 200
    assert r.content == cli("explain", FORTY, "--why-not", query, "--lang", "pt", "--format", "json")
    assert "br-pt 10(2)(a)" in r.text


def test_whatif_answers_the_json_of_treaty_whatif(client: httpx.Client) -> None:
    goal = 'max_rate("div-2024", R), R <= 1000'  # 10% is for a company: no change of the facts reaches it
    r = client.post("/whatif", params={"source": FORTY, "goal": goal, "time_limit": 10}, content=body(FORTY),
                    headers=YAML)
    assert r.status_code == 200
    assert r.content == cli("whatif", FORTY, "--goal", goal, "--format", "json")
    data = r.json()
    assert (data["goal"], data["holds_already"], data["no_solution"]) == (goal, False, True)
    assert "br-pt 10(2)(b)" in json.dumps(data["blocked"])


def test_report_answers_the_page_of_treaty_report(client: httpx.Client, tmp_path: Path) -> None:
    r = client.post("/report", params={"source": FORTY}, content=body(FORTY), headers=YAML)
    assert r.status_code == 200 and r.headers["content-type"] == "text/html; charset=utf-8"
    out = tmp_path / "report.html"
    CliRunner().invoke(main, ["report", FORTY, "-o", str(out)], catch_exceptions=False)
    assert r.content == out.read_bytes()


def test_treaties_and_schema_answer_the_json_of_treaty_list_and_schema(client: httpx.Client) -> None:
    r = client.get("/treaties")
    assert r.content == cli("list", "--format", "json")
    assert "br-pt" in {t["treaty"] for t in r.json()}
    r = client.get("/schema")
    assert r.content == cli("schema")


def test_rates_answers_what_treaty_rates_prints(client: httpx.Client) -> None:
    for fmt, media in (("json", "application/json"), ("markdown", "text/markdown"), ("csv", "text/csv")):
        r = client.get("/rates", params={"treaty": "br-pt", "format": fmt})
        assert r.status_code == 200 and r.headers["content-type"].startswith(media), r.text
        assert r.content == cli("rates", "br-pt", "--format", fmt)
    r = client.get("/rates", params={"treaty": "br-pt", "format": "markdown", "lang": "pt"})
    assert r.content == cli("rates", "br-pt", "--format", "markdown", "--lang", "pt")
    assert {row["treaty"] for row in client.get("/rates", params={"treaty": "br-pt"}).json()["rows"]} == {"br-pt"}
    r = client.get("/rates", params={"treaty": ["br-pt", "br-xx"]})
    assert r.status_code == 422 and r.headers["content-type"] == PROBLEM
    assert "treaty 'br-xx': expected one of" in r.json()["detail"]
    assert client.get("/rates", params={"format": "xlsx"}).status_code == 400
    r = client.get("/rates", params={"treaty": "br-pl", "format": "markdown", "on": "2025-06-30"})
    assert r.content == cli("rates", "br-pl", "--format", "markdown", "--on", "2025-06-30")
    assert client.get("/rates", params={"treaty": "br-pl", "on": "2025-13-01"}).status_code in (400, 422)


def test_batch_answers_the_json_lines_of_treaty_batch(client: httpx.Client, tmp_path: Path) -> None:
    rows = generate(60, seed=3)
    ledger = tmp_path / "ledger.jsonl"
    ledger.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    context = json.dumps(read_yaml(CONTEXT, "context"))
    r = client.post("/batch", params={"source": str(ledger), "chunk": 25},
                    content=context + "\n" + ledger.read_text(encoding="utf-8"),
                    headers={"content-type": "application/jsonl"})
    assert r.status_code == 200 and r.headers["content-type"] == "application/jsonl"
    out = tmp_path / "out.jsonl"
    CliRunner().invoke(main, ["batch", str(ledger), "--context", str(CONTEXT), "-o", str(out), "--workers", "1",
                              "-q"], catch_exceptions=False)
    served, written = r.content.splitlines(), out.read_bytes().splitlines()
    assert len(served) == len(written) == 60
    errors = 0
    for mine, theirs in zip(served, written, strict=True):
        record = json.loads(mine)
        if record["status"] != "error":
            assert mine == theirs
            continue
        errors += 1  # the body's lines are counted from the context line, one before the ledger's first
        n = record["error"].split(" (line ", 1)[1].split(",", 1)[0]
        assert mine.replace(f"(line {n},".encode(), f"(line {int(n) - 1},".encode()) == theirs
    assert errors > 0
    assert {json.loads(line)["status"] for line in served} >= {"decided", "error"}


def test_batch_bounds_is_treaty_batch_bounds(client: httpx.Client, tmp_path: Path) -> None:
    """``/batch`` answers as ``treaty batch`` (a row whose outcome a missing fact leaves undetermined with its bound,
    by default); ``bounds=true`` as ``--bounds`` (the same); ``bounds=false`` as ``--no-bounds`` (no bound)."""
    from tests.test_batch_bounds import MISSING

    ledger = tmp_path / "ledger.jsonl"
    ledger.write_text(json.dumps(MISSING | {"withheld_rate": "20"}) + "\n", encoding="utf-8")
    context = json.dumps(read_yaml(CONTEXT, "context"))
    runs: tuple[tuple[tuple[str, ...], dict[str, str]], ...] = (
        ((), {}), (("--bounds",), {"bounds": "true"}), (("--no-bounds",), {"bounds": "false"}))
    for n, (flag, param) in enumerate(runs):
        out = tmp_path / f"out{n}.jsonl"
        CliRunner().invoke(main, ["batch", str(ledger), "--context", str(CONTEXT), "-o", str(out), "--workers", "1",
                                  "-q", *flag], catch_exceptions=False)
        r = client.post("/batch", params={"source": str(ledger), **param},
                        content=context + "\n" + ledger.read_text(encoding="utf-8"),
                        headers={"content-type": "application/jsonl"})
        assert r.status_code == 200
        assert r.content == out.read_bytes()
        assert json.loads(r.content)["cap"] == ("" if flag == ("--no-bounds",) else "at most 15%")


def test_batch_with_a_row_keyed_like_a_result_column_ends_with_a_problem_naming_it(client: httpx.Client) -> None:
    """A row with a key named like a result column (its value would be replaced by the result): the answer ends
    with a problem naming the body's line and the key, what was expected (not a row answered without it)."""
    context = json.dumps(read_yaml(CONTEXT, "context"))
    row = {**generate(1, seed=1, bad_share=0.0)[0], "status": "paid"}
    r = client.post("/batch", content=context + "\n" + json.dumps(row) + "\n",
                    headers={"content-type": "application/jsonl"})
    assert r.status_code == 200
    lines = r.content.splitlines()
    problem = json.loads(lines[-1])
    assert len(lines) == 1 and problem["status"] == 422, problem
    assert "body:2: expected column names other than the result columns the batch adds (applicable_treaty, status" \
        in problem["detail"] and "found 'status'; rename it" in problem["detail"]


def test_batch_with_a_bad_context_is_a_problem_naming_its_field(client: httpx.Client) -> None:
    r = client.post("/batch", content='{"evaluation_date": "2024-13-01", "persons": {}}\n{"id": "x"}\n',
                    headers={"content-type": "application/jsonl"})
    assert r.status_code == 422 and r.headers["content-type"] == PROBLEM
    problem = r.json()
    assert problem["errors"][0]["field"] == "evaluation_date" and problem["errors"][0]["line"] == 1


def test_batch_over_the_size_limit_ends_with_a_problem_line(client: httpx.Client) -> None:
    context = json.dumps(read_yaml(CONTEXT, "context"))
    rows = "".join(json.dumps(r) + "\n" for r in generate(2, seed=1)) * 500  # over --max-batch-body 200000

    def chunks() -> Iterator[bytes]:  # streamed: no Content-Length to refuse it by
        yield (context + "\n").encode()
        for k in range(0, len(rows), 10_000):
            yield rows[k:k + 10_000].encode()

    r = client.post("/batch", content=chunks(), headers={"content-type": "application/jsonl"})
    assert r.status_code == 200
    last = json.loads(r.content.splitlines()[-1])
    assert (last["status"], last["title"]) == (413, "request too large")
    r = client.post("/batch", content=(context + "\n" + rows).encode(), headers={"content-type": "application/jsonl"})
    assert r.status_code == 413 and r.headers["content-type"] == PROBLEM


# -------------------------------------------------------------------------------------- problems ---
def test_a_bad_scenario_is_a_problem_with_the_loaders_field_and_line(client: httpx.Client) -> None:
    text = body(FORTY).decode().replace("capital: 40", "capital: 140")
    r = client.post("/check", params={"source": "upload.yaml"}, content=text, headers=YAML)
    assert r.status_code == 422 and r.headers["content-type"] == PROBLEM
    problem = r.json()
    assert problem["type"] == "urn:treaty-logic:problem:bad-input" and problem["status"] == 422
    [error] = problem["errors"]
    line = text.splitlines().index("    capital: 140") + 1
    assert (error["source"], error["line"], error["field"], error["found"]) == ("upload.yaml", line,
                                                                                "holdings[0].capital", "140")
    assert problem["detail"].startswith(f"upload.yaml:{line}: holdings[0].capital: expected")


@pytest.mark.parametrize(("path", "params", "content", "headers", "status", "says"), [
    ("/check", {}, b"name: [unclosed", YAML, 422, "(syntax): expected well-formed YAML"),
    ("/check", {}, b"", YAML, 422, "(body): expected a scenario"),
    ("/check", {}, b"\xff\xfe", YAML, 422, "expected UTF-8 text"),
    ("/check", {}, b"name: x\x01", YAML, 422, "the character U+0001"),
    ("/check", {"time_limit": "99"}, b"", YAML, 400, "time_limit: expected at most 10 seconds"),
    ("/check", {"time_limit": "soon"}, b"", YAML, 400, "time_limit"),
    ("/check", {}, b"x", {"content-type": "multipart/form-data"}, 415, "Content-Type: expected one of"),
    ("/check", {}, FORTY, {"content-type": "text/plain"}, 415, "application/json, found text/plain"),
    ("/report", {}, FORTY, {"content-type": "text/plain; charset=utf-8"}, 415, "found text/plain"),
    ("/check", {}, b"x" * 1_000_001, YAML, 413, "at most 1,000,000 bytes"),
    ("/explain", {"item": "nope"}, FORTY, YAML, 422, "item 'nope': expected the id of an income item (div-2024)"),
    ("/why-not", {"query": "max_rate(div-2024, 10)"}, FORTY, YAML, 422, "reads as a subtraction"),
    ("/why-not", {"query": "+È"}, FORTY, YAML, 422, "expected ASCII names"),
    ("/whatif", {}, FORTY, YAML, 400, "goal"),
    ("/nothing", {}, b"", YAML, 404, "Not Found"),
])
def test_bad_requests_are_problems(client: httpx.Client, path: str, params: dict[str, str], content: bytes | str,
                                   headers: dict[str, str], status: int, says: str) -> None:
    data = body(content) if isinstance(content, str) else content
    r = client.post(path, params=params, content=data, headers=headers)
    assert r.status_code == status and r.headers["content-type"] == PROBLEM, r.text
    problem = r.json()
    assert problem["status"] == status and problem["title"] and problem["type"].startswith("urn:treaty-logic:problem:")
    assert says in problem["detail"], problem["detail"]


def test_the_openapi_document(client: httpx.Client) -> None:
    doc = client.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    assert set(doc["paths"]) == {"/health", "/check", "/explain", "/why-not", "/whatif", "/report", "/batch",
                                 "/treaties", "/schema", "/rates"}
    schemas = doc["components"]["schemas"]
    assert "Scenario" in schemas and "Problem" in schemas and "HTTPValidationError" not in schemas
    assert "#/$defs/" not in json.dumps(doc)
    check = doc["paths"]["/check"]["post"]
    assert set(check["requestBody"]["content"]) == {"application/yaml", "application/json"}
    assert PROBLEM in check["responses"]["422"]["content"]


SCHEMATHESIS_EXAMPLES = 15
"""Examples per operation: a fixed budget (about 20 s on two cores)."""
SCENARIO_EXAMPLES = 8
"""Examples per operation whose body is a scenario: each may decide, explain or draw it (about 15 s in all)."""
SCENARIO_BODIES = ("/check", "/explain", "/why-not", "/whatif", "/report")


def _schemathesis(location: str, *args: str, cwd: Path) -> None:
    st = shutil.which("schemathesis", path=str(Path(sys.executable).parent)) or shutil.which("schemathesis")
    if st is None:
        pytest.fail("schemathesis is not installed: run `sh .ci/setup --dev` (the dev extra)")
    done = subprocess.run([st, "run", location, "--checks", "not_a_server_error", "--seed", "25",
                           "--generation-database", "none", "--phases", "examples,fuzzing", "--no-color",
                           "--request-timeout", "90", *args],
                          capture_output=True, text=True, timeout=300, cwd=cwd, check=False)
    assert done.returncode == 0, done.stdout[-5000:]


def test_schemathesis_finds_no_server_error(server: str, tmp_path: Path) -> None:
    """Every operation but those whose body is a scenario (the next test), from the OpenAPI document."""
    _schemathesis(f"{server}/openapi.json", "--max-examples", str(SCHEMATHESIS_EXAMPLES),
                  "--exclude-path-regex", f"^({'|'.join(SCENARIO_BODIES)})$", cwd=tmp_path)


def test_schemathesis_finds_no_server_error_on_scenario_bodies(server: str, client: httpx.Client,
                                                               tmp_path: Path) -> None:
    """The operations whose body is a scenario, their parameters generated from the OpenAPI document and
    their body either a real scenario (as JSON, or its YAML text as the example) or any text as YAML; every
    answer is a result or problem JSON, never a 5xx. Generating bodies from the scenario schema itself
    (205 definitions, hundreds of kilobytes of patterns) takes schemathesis minutes per example (measured:
    over 10 minutes for 3 examples of each operation; 4 minutes for 2 of /check with the patterns left
    out); what the loader accepts and refuses is checked against that schema by tests/test_schema_truth.py
    and fuzzed by tests/fuzz. The budget: a few examples each and a search or check of at most 1 s."""
    doc = client.get("/openapi.json").json()
    scenario, text = read_yaml(ROOT / FORTY), body(FORTY).decode("utf-8")
    for path in SCENARIO_BODIES:
        operation = doc["paths"][path]["post"]
        operation["requestBody"]["content"] = {"application/json": {"schema": {"const": scenario}},
                                               "application/yaml": {"schema": {"type": "string"}, "example": text}}
        for parameter in operation["parameters"]:
            if parameter["name"] == "time_limit":
                parameter["schema"] = {"type": "number", "minimum": 0, "maximum": 1}
    document = tmp_path / "openapi.json"
    document.write_text(json.dumps(doc), encoding="utf-8")
    _schemathesis(str(document), "--url", server, "--max-examples", str(SCENARIO_EXAMPLES),
                  "--include-path-regex", f"^({'|'.join(SCENARIO_BODIES)})$", cwd=tmp_path)


def test_work_past_the_explain_time_limit_is_stopped_and_a_503_problem() -> None:
    import threading

    from pyhelpers.interfaces.serve import Engine, ProblemError, Settings

    engine = Engine.__new__(Engine)  # the bounded work alone, without loading the rule base
    engine.settings, engine.lock = Settings(explain_time_limit=0.5), threading.Lock()
    started = time.monotonic()
    def spin() -> None:  # 30 s of CPU time: the limit counts CPU time (pyhelpers.base.clock), not waiting
        end = time.process_time() + 30
        while time.process_time() < end:
            pass

    with pytest.raises(ProblemError) as err:
        engine.bounded(spin)
    assert err.value.status == 503 and "--explain-time-limit" in err.value.detail
    assert time.monotonic() - started < 10
    assert engine.bounded(lambda: "done") == "done"


def test_an_unexpected_exception_is_a_500_problem_without_traceback() -> None:
    from pyhelpers.interfaces.serve import problem_from

    problem = problem_from(KeyError("x")).document("/check")
    assert (problem["status"], problem["type"]) == (500, "urn:treaty-logic:problem:internal-error")
    assert problem["detail"].startswith("internal error, please report it") and "Traceback" not in problem["detail"]
