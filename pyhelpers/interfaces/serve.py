"""``treaty serve``: the commands over HTTP for audit tools in any language (an ASGI application run by
uvicorn; its OpenAPI 3 document at ``/openapi.json``).

* **The same JSON as the command line.** Each endpoint answers what ``treaty <command> --format json``
  prints for the scenario in the request body, byte for byte: both are built by
  :mod:`pyhelpers.interfaces.documents`. The request's ``source`` parameter stands for the file name
  (default ``body``); ``/report`` answers the HTML page ``treaty report`` writes; ``/batch`` reads and
  writes JSON Lines as ``treaty batch`` does (a context line first, then one ledger row a line);
  ``/rates`` answers what ``treaty rates --format json|markdown|csv`` prints.
* **Bad input** is answered as RFC 9457 problem JSON (``application/problem+json``): ``type``, ``title``,
  ``status``, ``detail`` (the loader's message, the request's ``source`` in place of a file name) and,
  for a scenario, ``errors``: each problem with its ``field``, ``line`` (of the body), ``expected`` and
  ``found``. 400: a request parameter; 413: a body over the size limit; 415: a body of another media
  type (a scenario: YAML or JSON; ``/batch``: JSON Lines or ``text/plain``; a body without a
  ``Content-Type`` is read as such); 422: a scenario, context or query the loader refuses; 503: a time
  limit reached; 500: a fault of treaty-logic (its message, never a traceback; the traceback goes to the server's log).
* **Limits** (:class:`Settings`): a scenario body of at most ``max_body`` bytes (the loader's own limit),
  a batch body of at most ``max_batch_body`` bytes; ``time_limit`` bounds a request's ``time_limit``
  (check: examining the alternatives of unknown facts, as ``treaty check --time-limit``; whatif: the
  search, in a process killed at the deadline, as ``treaty whatif``); explain, why-not and report run in a
  forked process killed after ``explain_time_limit`` seconds (:mod:`pyhelpers.engine.bounded`). A rate
  table depends on the rule base alone: it is computed once per worker and choice of treaties, and kept.
* **The rule base is loaded once per worker process**, when it starts; a worker decides one request at a
  time (clingo work, and the forks of the bounded work, never overlap in a process): ``--workers N``
  serves N at once.
"""

from __future__ import annotations

import datetime
import json
import logging
import os
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass
from typing import Annotated, Any, Literal, TypeVar

import anyio
import anyio.from_thread
from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import Response, StreamingResponse
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.types import Receive, Scope, Send

from pyhelpers.base import lang as languages
from pyhelpers.base.errors import InputError, LogicError, Problem, ScenarioError, TreatyLogicError
from pyhelpers.base.lang import family, normalize
from pyhelpers.base.messages import translate
from pyhelpers.base.version import package_version
from pyhelpers.engine.bounded import Bounded, kept_child, run_bounded
from pyhelpers.engine.rates import RateTable
from pyhelpers.engine.results import Cut, Incomplete
from pyhelpers.engine.solve import Checker, loaded
from pyhelpers.interfaces import documents
from pyhelpers.interfaces.batch import RESULT_COLUMNS, BatchContext, _chunks, decide_rows
from pyhelpers.interfaces.ledger import jsonl_rows
from pyhelpers.output import render
from pyhelpers.scenario import Scenario, json_schema, load_text
from pyhelpers.scenario.loading import load_context_text
from pyhelpers.scenario.reading import MAX_BYTES

T = TypeVar("T")
log = logging.getLogger("treaty.serve")

SETTINGS_ENV = "TREATY_SERVE_SETTINGS"
"""The settings as JSON, for the worker processes uvicorn starts (each builds its application anew)."""


@dataclass(frozen=True)
class Settings:
    """The service's limits (``treaty serve`` options of the same names)."""

    max_body: int = MAX_BYTES
    """Bytes of a scenario in a request body (the loader's limit for a scenario file)."""
    max_batch_body: int = 50_000_000
    """Bytes of a ``/batch`` body (the context line and the rows)."""
    time_limit: float = 10.0
    """The largest ``time_limit`` a request may ask (check, whatif), and its default."""
    explain_time_limit: float = 60.0
    """Seconds an explain, why-not or report may take before its process is killed (503)."""

    @staticmethod
    def from_env() -> Settings:
        text = os.environ.get(SETTINGS_ENV)
        return Settings(**json.loads(text)) if text else Settings()


# ------------------------------------------------------------------------------------- problems ---
PROBLEM = "application/problem+json"
_TITLES = {400: "bad request parameter", 404: "not found", 405: "method not allowed", 413: "request too large",
           415: "unsupported media type", 422: "bad input", 500: "internal error", 503: "time limit reached"}
_TITLES_PT = {400: "parâmetro da requisição inválido", 404: "não encontrado", 405: "método não permitido",
              413: "requisição grande demais", 415: "tipo de mídia não suportado", 422: "entrada inválida",
              500: "erro interno", 503: "limite de tempo atingido"}
_TYPES = {400: "bad-request", 404: "not-found", 405: "method-not-allowed", 413: "too-large",
          415: "unsupported-media-type", 422: "bad-input", 500: "internal-error", 503: "time-limit"}


class ProblemError(Exception):
    """An answer that is a problem: raised by the endpoints, answered by :func:`problem_response`."""

    def __init__(self, status: int, detail: str, errors: list[dict[str, Any]] | None = None,
                 title: str | None = None, kind: str | None = None, cause: TreatyLogicError | None = None) -> None:
        super().__init__(detail)
        self.status, self.detail, self.errors = status, detail, errors
        self.cause = cause
        """The error answered, whose message is given in the request's language."""
        self.title = title or _TITLES.get(status, "error")
        self.kind = kind or _TYPES.get(status, "error")

    def document(self, instance: str | None = None, lang: str = "en") -> dict[str, Any]:
        """The problem JSON; in Portuguese (``lang`` pt) its ``title`` and the ``detail`` texts (the fields
        ``expected``, ``found`` and ``hint`` of a scenario's problems stay the English data they are)."""
        pt = family(lang) == "pt"
        title = _TITLES_PT.get(self.status, self.title) if pt and self.title == _TITLES.get(self.status) else self.title
        detail = self.cause.render(lang) if self.cause is not None else translate(self.detail, lang)
        doc: dict[str, Any] = {"type": f"urn:treaty-logic:problem:{self.kind}", "title": title,
                               "status": self.status, "detail": detail}
        if instance:
            doc["instance"] = instance
        if isinstance(self.cause, ScenarioError):
            doc["errors"] = [_problem_of(p, lang) for p in self.cause.problems]
        elif self.errors is not None:
            doc["errors"] = [{**e, "detail": translate(e["detail"], lang)} for e in self.errors]
        return doc


def _problem_of(p: Problem, lang: str = "en") -> dict[str, Any]:
    return {"detail": p.render(lang), "source": p.source, "line": p.line, "field": p.field, "expected": p.expected,
            "found": p.found, **({"hint": p.hint} if p.hint else {})}


def request_lang(request: Request) -> str:
    """The language a request asks for its problems in: its ``lang`` query parameter, else the first
    language of ``Accept-Language`` (by weight) that is English or Portuguese; English otherwise."""
    asked = request.query_params.get("lang")
    if asked:
        return normalize(asked)
    weighted = []
    for n, part in enumerate(request.headers.get("accept-language", "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = params.strip().removeprefix("q=") if params.strip().startswith("q=") else "1"
        try:
            weighted.append((-float(q), n, tag.strip()))
        except ValueError:
            continue
    for _, _, tag in sorted(weighted):
        if family(tag.split("-")[0]) == "pt" or tag.lower().startswith("en"):
            return normalize(tag) if family(tag.split("-")[0]) == "pt" else "en"
    return "en"


class TimeLimitReached(TreatyLogicError):
    """A bounded answer cut by ``treaty serve --explain-time-limit`` (a 503 problem): its ``reason`` in figures,
    said in the request's language."""

    def __init__(self, reason: Incomplete) -> None:
        super().__init__(render.incomplete_text(reason, "en"))
        self.reason = reason

    def render(self, lang: str = "en") -> str:
        return render.incomplete_text(self.reason, lang) or str(self)


def problem_from(err: BaseException) -> ProblemError:
    """The problem answering an exception: the loader's problems one by one for a scenario."""
    if isinstance(err, ProblemError):
        return err
    if isinstance(err, ScenarioError):
        return ProblemError(422, str(err), [_problem_of(p) for p in err.problems], cause=err)
    if isinstance(err, InputError):
        return ProblemError(422, str(err), cause=err)
    if isinstance(err, LogicError):
        return ProblemError(500, f"the rule files have a problem: {err}", kind="rule-base", title="rule base error")
    if isinstance(err, TreatyLogicError):
        return ProblemError(500, str(err), cause=err)
    log.error("internal error", exc_info=err)
    what = f"{type(err).__name__}: {err}"
    what = what if len(what) <= 200 else what[:197] + "..."
    return ProblemError(500, f"internal error, please report it with the input that caused it ({what}; the "
                             f"server's log has the traceback)")


def problem_response(problem: ProblemError, instance: str | None = None, lang: str = "en") -> Response:
    return Response(render.to_json(problem.document(instance, lang)).encode("utf-8"), status_code=problem.status,
                    media_type=PROBLEM)


# ------------------------------------------------------------------------------------ the engine ---
class Engine:
    """The rule base of this worker process, loaded once, and the lock that makes it decide one request
    at a time."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.checker = loaded(Checker().warm())
        self.strict_checker = loaded(Checker(self.checker.logic, strict=True).warm())
        self.lock = threading.Lock()
        self.rate_tables: dict[tuple[str, ...], RateTable] = {}

    def checker_for(self, strict: bool) -> Checker:
        return self.strict_checker if strict else self.checker

    def run(self, work: Callable[[], T]) -> T:
        with self.lock:
            return work()

    def bounded(self, work: Callable[[], T]) -> T:
        """``work`` in a forked process, killed after ``explain_time_limit`` seconds (503)."""
        from pyhelpers.base import clock

        limit = self.settings.explain_time_limit
        with self.lock:
            done: Bounded[T, None] = run_bounded(lambda _emit: work(), clock.now() + limit)
        if not done.finished:
            cause = TimeLimitReached(Incomplete(Cut.ANSWER, limit))
            raise ProblemError(503, str(cause), cause=cause)
        return done.value  # type: ignore[return-value]  # finished: the work's value

    def rate_table(self, chosen: tuple[str, ...], on: str | None = None) -> RateTable:
        """:func:`documents.rates_table` of ``chosen`` on the day ``on``, computed once (call it under the lock)."""
        key = (*dict.fromkeys(chosen), f"on={on}")
        table = self.rate_tables.get(key)
        if table is None:
            table = documents.rates_table(self.checker, tuple(dict.fromkeys(chosen)), on)
            if len(self.rate_tables) >= RATE_TABLES_KEPT:
                self.rate_tables.pop(next(iter(self.rate_tables)))
            self.rate_tables[key] = table
        return table


RATE_TABLES_KEPT = 32
"""Rate tables a worker keeps (one per choice of treaties asked; the oldest goes first)."""


# --------------------------------------------------------------------------------- request bodies ---
_SCENARIO_TYPES = ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml", "application/json")
"""The media types of a scenario body: YAML's and JSON (which YAML reads); any other is answered 415."""
_JSONL_TYPES = ("application/jsonl", "application/x-ndjson", "application/x-jsonlines", "application/json-lines",
                "text/plain")


def _media_type(request: Request, accepted: tuple[str, ...]) -> None:
    given = request.headers.get("content-type")
    if given is None:
        return
    media = given.split(";", 1)[0].strip().lower()
    if media not in accepted:
        raise ProblemError(415, f"Content-Type: expected one of {', '.join(accepted)}, found {media or 'nothing'}")


def _declared_length(request: Request, limit: int, what: str) -> None:
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > limit:
        raise ProblemError(413, f"the body: expected a {what} of at most {limit:,} bytes, found {int(length):,} bytes")


async def _body(request: Request, limit: int, what: str) -> bytes:
    """The request body, refused (413) past ``limit`` bytes without reading further."""
    _declared_length(request, limit, what)
    parts: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ProblemError(413, f"the body: expected a {what} of at most {limit:,} bytes, found more")
        parts.append(chunk)
    return b"".join(parts)


def _text(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ScenarioError([Problem(source, None, "(body)", "UTF-8 text", "undecodable bytes")]) from None


async def _scenario(request: Request, source: str, settings: Settings) -> tuple[Scenario, bytes]:
    _media_type(request, _SCENARIO_TYPES)
    raw = await _body(request, settings.max_body, "scenario")
    if not raw.strip():
        raise ScenarioError([Problem(source, None, "(body)", "a scenario (YAML or JSON)", "an empty body")])
    text = _text(raw, source)
    return await run_in_threadpool(load_text, text, source), raw


def _json(data: Any) -> Response:
    return Response(render.to_json(data).encode("utf-8"), media_type="application/json")


# ------------------------------------------------------------------------------------------ batch ---
class _BodyStreamingResponse(StreamingResponse):
    """A streamed answer that goes on reading the request body while it answers (Starlette's own reads
    the client's messages to notice a disconnect, which would swallow the body)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.stream_response(send)


class _BodyLines:
    """The lines of a request body as it arrives, read by a worker thread (through the event loop), with
    the size limit; the lines already read before the answer began come first."""

    def __init__(self, chunks: AsyncIterator[bytes], buffered: bytes, size: int, limit: int) -> None:
        self.chunks, self.buffer, self.size, self.limit = chunks, buffered, size, limit
        self.over = False

    async def _next_chunk(self) -> bytes | None:
        try:
            return await self.chunks.__anext__()
        except StopAsyncIteration:
            return None

    def lines(self) -> Iterator[str]:
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                yield line.decode("utf-8", "surrogateescape") + "\n"
            chunk = anyio.from_thread.run(self._next_chunk)
            if chunk is None:
                if self.buffer:
                    yield self.buffer.decode("utf-8", "surrogateescape")
                return
            self.size += len(chunk)
            if self.size > self.limit:
                self.over = True
                return
            self.buffer += chunk


async def _context_line(chunks: AsyncIterator[bytes], limit: int) -> tuple[bytes, int, bytes, int]:
    """The body's first line that is not blank (the context), its line number, what was read after it, and
    the bytes read so far."""
    buffer, size, number = b"", 0, 1
    while True:
        while b"\n" in buffer:
            line, rest = buffer.split(b"\n", 1)
            if line.strip():
                return line, number, rest, size
            buffer, number = rest, number + 1
        if size > min(limit, MAX_BYTES):
            raise ProblemError(413, f"the body's first line (the context): expected at most {MAX_BYTES:,} bytes, "
                                    f"found more")
        try:
            chunk = await chunks.__anext__()
        except StopAsyncIteration:
            return buffer, number, b"", size
        size += len(chunk)
        buffer += chunk


# ------------------------------------------------------------------------------------- the app ---
SCENARIO_BODY: dict[str, Any] = {
    "required": True,
    "description": "A scenario, as in a scenario file: YAML (or JSON, which is YAML too), UTF-8.",
    "content": {"application/yaml": {"schema": {"type": "string"}},
                "application/json": {"schema": {"$ref": "#/components/schemas/Scenario"}}},
}
BATCH_BODY: dict[str, Any] = {
    "required": True,
    "description": "JSON Lines: the group's context first (a scenario without income items, as one JSON object "
                   "on one line), then one ledger row a line (the columns of `treaty batch`).",
    "content": {"application/jsonl": {"schema": {"type": "string"}}, "text/plain": {"schema": {"type": "string"}}},
}


def _problem_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"description": _TITLES[code],
                   "content": {PROBLEM: {"schema": {"$ref": "#/components/schemas/Problem"}}}} for code in codes}


def _json_response(description: str) -> dict[int | str, dict[str, Any]]:
    return {200: {"description": description, "content": {"application/json": {"schema": {"type": "object"}}}}}


PROBLEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "RFC 9457 problem details.",
    "required": ["type", "title", "status", "detail"],
    "properties": {
        "type": {"type": "string"}, "title": {"type": "string"}, "status": {"type": "integer"},
        "detail": {"type": "string"}, "instance": {"type": "string"},
        "errors": {"type": "array", "items": {"type": "object", "properties": {
            "detail": {"type": "string"}, "source": {"type": "string"}, "line": {"type": ["integer", "null"]},
            "field": {"type": "string"}, "expected": {"type": "string"}, "found": {"type": "string"},
            "hint": {"type": "string"}}}},
    },
}

Source = Annotated[str, Query(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f\x7f]*$",
                              description="stands for the file name in the answer and in error messages")]
Lang = Annotated[Literal["en", "pt", "pt-BR", "pt-PT"],
                 Query(description="language of the readings (pt = pt-BR: Brazilian Portuguese; pt-PT: European)")]
Strict = Annotated[bool, Query(description="no default stands for a fact the law needs (`--strict`)")]
TimeLimit = Annotated[float | None, Query(ge=0, description="seconds for examining alternatives (check) or searching "
                                   "(whatif); at most the server's --time-limit, which is the default")]


def _openapi_document(app: FastAPI) -> dict[str, Any]:
    """FastAPI's document with the scenario's JSON Schema and problem JSON in place of FastAPI's own
    validation errors (a bad parameter is a 400 problem here)."""
    doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
    schemas = doc.setdefault("components", {}).setdefault("schemas", {})
    schemas.pop("HTTPValidationError", None)
    schemas.pop("ValidationError", None)
    scenario = json_schema()
    defs = scenario.pop("$defs", {})
    scenario.pop("$schema", None)
    text = json.dumps({"Scenario": scenario, **defs}).replace('"#/$defs/', '"#/components/schemas/')
    schemas.update(json.loads(text))
    schemas["Problem"] = PROBLEM_SCHEMA
    for path in doc.get("paths", {}).values():
        for operation in path.values():
            responses = operation.setdefault("responses", {})
            if "422" in responses and "Problem" not in json.dumps(responses["422"]):
                responses["422"] = _problem_responses(422)[422]
            if operation.get("parameters"):
                responses["400"] = _problem_responses(400)[400]
            responses.setdefault("500", _problem_responses(500)[500])
    return doc


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application (uvicorn's factory): its engine is loaded when the worker starts."""
    settings = settings or Settings.from_env()
    state: dict[str, Engine] = {}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        state["engine"] = await run_in_threadpool(Engine, settings)
        with kept_child():  # one request at a time (the engine's lock): its bounded checks in one kept child
            yield

    app = FastAPI(title="treaty-logic", version=package_version(), lifespan=lifespan,
                  description="Brazil's tax treaties as rules, with cited explanations: the `treaty` commands over "
                              "HTTP. Answers are the JSON of `treaty <command> --format json`; errors are RFC 9457 "
                              "problem JSON.")

    def engine() -> Engine:
        return state["engine"]

    @app.exception_handler(ProblemError)
    async def _problem(request: Request, err: ProblemError) -> Response:
        return problem_response(err, request.url.path, request_lang(request))

    @app.exception_handler(TreatyLogicError)
    async def _treaty_error(request: Request, err: TreatyLogicError) -> Response:
        return problem_response(problem_from(err), request.url.path, request_lang(request))

    @app.exception_handler(RequestValidationError)
    async def _bad_parameter(request: Request, err: RequestValidationError) -> Response:
        errors = [{"detail": f"{'.'.join(str(x) for x in e.get('loc', ()))}: {e.get('msg', '')}",
                   "field": ".".join(str(x) for x in e.get("loc", ())[1:]) or "(request)"}
                  for e in err.errors()]
        detail = "; ".join(e["detail"] for e in errors) or "a request parameter is not valid"
        return problem_response(ProblemError(400, detail, errors), request.url.path, request_lang(request))

    @app.exception_handler(HTTPException)
    async def _http(request: Request, err: HTTPException) -> Response:
        return problem_response(ProblemError(err.status_code, str(err.detail)), request.url.path, request_lang(request))

    @app.exception_handler(Exception)
    async def _internal(request: Request, err: Exception) -> Response:
        return problem_response(problem_from(err), request.url.path, request_lang(request))

    limit = settings.time_limit

    def within(time_limit: float) -> float:
        if time_limit > limit:
            raise ProblemError(400, f"time_limit: expected at most {limit:g} seconds (the server's --time-limit), "
                                    f"found {time_limit:g}", [{"detail": "time_limit: above the server's limit",
                                                                "field": "time_limit"}])
        return time_limit

    scenario_errors = _problem_responses(413, 415, 422, 500)

    @app.get("/health", summary="the worker is ready", responses=_json_response("ok"))
    async def health() -> Response:
        return _json({"status": "ok", "version": package_version()})

    @app.post("/check", summary="treaty check --format json", openapi_extra={"requestBody": SCENARIO_BODY},
              responses={**_json_response("the answer of `treaty check --format json`"), **scenario_errors})
    async def check(request: Request, source: Source = "body", time_limit: TimeLimit = None,
                    strict: Strict = False, ask: Annotated[bool, Query(description="`--ask`: the open questions "
                                                                       "only")] = False,
                    lang: Lang = "en") -> Response:
        seconds = within(limit if time_limit is None else time_limit)
        scenario, _ = await _scenario(request, source, settings)
        eng = engine()

        def work() -> dict[str, Any]:
            checker = eng.checker_for(strict)
            result, mismatches = documents.check_answer(checker, scenario, source, seconds)
            said = languages.normalize(lang)
            document = documents.check_document(result, mismatches, scenario, source, ask, said)
            if not ask:  # each State's decisive line, as `treaty check --format json` writes it (a limit of its own)
                decisive = documents.bounded_decisive_lines(checker, scenario, result, said, seconds)
                render.with_decisive(document, result, said, decisive or {}, decisive is None)
            return documents.check_envelope([document], said)

        return _json(await run_in_threadpool(eng.run, work))

    @app.post("/explain", summary="treaty explain --format json", openapi_extra={"requestBody": SCENARIO_BODY},
              responses={**_json_response("the answer of `treaty explain --format json`"),
                         **_problem_responses(413, 415, 422, 500, 503)})
    async def explain(request: Request, source: Source = "body",
                      item: Annotated[list[str] | None, Query(description="income item id (default: every "
                                                              "item)", max_length=100)] = None,
                      strict: Strict = False, lang: Lang = "en") -> Response:
        scenario, _ = await _scenario(request, source, settings)
        eng = engine()
        items = tuple(item or ())

        def work() -> dict[str, Any]:
            answer = documents.explain_answer(eng.checker_for(strict), scenario, source, items, (),
                                              languages.normalize(lang),
                                              item_field="item")
            return documents.explain_document(answer, scenario, source, languages.normalize(lang))

        return _json(await run_in_threadpool(eng.bounded, work))

    @app.post("/why-not", summary="treaty explain --why-not --format json",
              openapi_extra={"requestBody": SCENARIO_BODY},
              responses={**_json_response("the answer of `treaty explain --why-not QUERY --format json`"),
                         **_problem_responses(413, 415, 422, 500, 503)})
    async def why_not(request: Request,
                      query: Annotated[list[str], Query(min_length=1, max_length=20, description="a conclusion "
                                                        "that does not hold, e.g. max_rate(\"div-2024\", 1000)")],
                      source: Source = "body", strict: Strict = False, lang: Lang = "en") -> Response:
        scenario, _ = await _scenario(request, source, settings)
        eng = engine()
        queries = tuple(query)

        def work() -> dict[str, Any]:
            answer = documents.explain_answer(eng.checker_for(strict), scenario, source, (), queries,
                                              languages.normalize(lang))
            return documents.explain_document(answer, scenario, source, languages.normalize(lang))

        return _json(await run_in_threadpool(eng.bounded, work))

    @app.post("/whatif", summary="treaty whatif --format json", openapi_extra={"requestBody": SCENARIO_BODY},
              responses={**_json_response("the answer of `treaty whatif --format json`"), **scenario_errors})
    async def whatif(request: Request,
                     goal: Annotated[str, Query(min_length=1, max_length=4096, description="what should hold, e.g. "
                                                "max_rate(\"div-2024\", R), R <= 1000 (rates in basis points)")],
                     source: Source = "body", time_limit: TimeLimit = None, lang: Lang = "en") -> Response:
        seconds = within(limit if time_limit is None else time_limit)
        scenario, _ = await _scenario(request, source, settings)
        eng = engine()

        def work() -> dict[str, Any]:
            said = languages.normalize(lang)
            answer = documents.whatif_answer(eng.checker, scenario, source, goal, seconds, said)
            return render.whatif_json(answer.result, answer.blocked, source, said, answer.why_not)

        return _json(await run_in_threadpool(eng.run, work))

    @app.post("/report", summary="treaty report (HTML)", openapi_extra={"requestBody": SCENARIO_BODY},
              responses={200: {"description": "the page `treaty report` writes",
                               "content": {"text/html": {"schema": {"type": "string"}}}},
                         **_problem_responses(413, 415, 422, 500, 503)})
    async def report(request: Request, source: Source = "body",
                     why_not: Annotated[list[str] | None, Query(max_length=20, description="also draw why a "
                                                                "conclusion does not hold")] = None,
                     strict: Strict = False, lang: Lang = "en") -> Response:
        scenario, raw = await _scenario(request, source, settings)
        eng = engine()
        queries = tuple(why_not or ())

        def work() -> str:
            return documents.report_page(eng.checker_for(strict), [(source, scenario, raw)], queries,
                                         languages.normalize(lang))

        page = await run_in_threadpool(eng.bounded, work)
        return Response(page.encode("utf-8"), media_type="text/html; charset=utf-8")

    @app.post("/batch", summary="treaty batch: JSON Lines in and out", openapi_extra={"requestBody": BATCH_BODY},
              responses={200: {"description": "one JSON object a line per ledger row, as `treaty batch -o OUT.jsonl` "
                               "writes them; a last line that is a problem (with `type` and `status`) if the batch "
                               "stopped", "content": {"application/jsonl": {"schema": {"type": "string"}}}},
                         **scenario_errors})
    async def batch(request: Request, source: Source = "body",
                    chunk: Annotated[int, Query(ge=1, le=10_000, description="rows decided together in one "
                                                "clingo run")] = 500,
                    bounds: Annotated[bool, Query(description="a row whose outcome a missing fact leaves "
                                                  "undetermined gets its bound, as `/check` gives it (a check per "
                                                  "distinct such row), as `treaty batch` does by default; "
                                                  "`bounds=false`: as `--no-bounds`")] = True) -> Response:
        _media_type(request, _JSONL_TYPES)
        _declared_length(request, settings.max_batch_body, "batch")
        stream = request.stream()
        line, number, rest, size = await _context_line(stream, settings.max_batch_body)
        text = _text(line, source).removeprefix("\ufeff")
        if not text.strip():
            raise ScenarioError([Problem(source, None, "(body)", "a context line (a JSON object) and ledger rows",
                                         "an empty body")])
        context, treaty = await run_in_threadpool(load_context_text, text, source)
        eng = engine()
        ctx = BatchContext(context, treaty, source, eng.checker, bounds=bounds)
        body = _BodyLines(stream, rest, size, settings.max_batch_body)

        def results() -> Iterator[bytes]:
            try:
                for _, rows in _chunks(jsonl_rows(body.lines(), number + 1, RESULT_COLUMNS, source), chunk, set()):
                    records = eng.run(lambda rows=rows: decide_rows(ctx, rows))  # type: ignore[misc]
                    yield "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode("utf-8")
                if body.over:
                    raise ProblemError(413, f"the body: expected a batch of at most {settings.max_batch_body:,} "
                                            f"bytes, found more: the rows after the last answered were not read")
            except Exception as err:  # the answer has begun: the problem is its last line
                problem = problem_from(err).document(request.url.path, request_lang(request))
                yield (json.dumps(problem, ensure_ascii=False) + "\n").encode("utf-8")

        return _BodyStreamingResponse(results(), media_type="application/jsonl")

    rates_types = {"json": "application/json", "markdown": "text/markdown; charset=utf-8",
                   "csv": "text/csv; charset=utf-8"}

    @app.get("/rates", summary="treaty rates: the source State's limits per type of income",
             responses={200: {"description": "what `treaty rates --format FORMAT` prints",
                              "content": {"application/json": {"schema": {"type": "object"}},
                                          "text/markdown": {"schema": {"type": "string"}},
                                          "text/csv": {"schema": {"type": "string"}}}},
                        **_problem_responses(422, 500)})
    async def rates(treaty: Annotated[list[str] | None, Query(max_length=100, description="a treaty id, as "
                                                              "`/treaties` names it (repeatable; default: every "
                                                              "treaty)")] = None,
                    fmt: Annotated[Literal["json", "markdown", "csv"], Query(alias="format", description="output "
                                   "format (`--format`; xlsx: the command line)")] = "json",
                    on: Annotated[datetime.date | None, Query(description="the day each item is paid and the "
                                                              "answers evaluated (`--on`; default: the rules' own)")]
                    = None,
                    lang: Lang = "en") -> Response:
        eng = engine()
        chosen = tuple(treaty or ())
        day = on.isoformat() if on is not None else None

        def work() -> str | bytes:
            return documents.rates_answer(eng.checker, chosen, fmt, languages.normalize(lang),
                                          eng.rate_table(chosen, day))

        out = await run_in_threadpool(eng.run, work)
        return Response(out if isinstance(out, bytes) else out.encode("utf-8"), media_type=rates_types[fmt])

    @app.get("/treaties", summary="treaty list --format json",
             responses={**_json_response("the answer of `treaty list --format json`"), **_problem_responses(500)})
    async def treaties_() -> Response:
        eng = engine()
        return _json(await run_in_threadpool(eng.run, lambda: documents.treaties_document(eng.checker)))

    @app.get("/schema", summary="treaty schema: the JSON Schema of the scenario format",
             responses={**_json_response("the JSON Schema `treaty schema` prints"), **_problem_responses(500)})
    async def schema() -> Response:
        text = json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"
        return Response(text.encode("utf-8"), media_type="application/json")

    app.openapi = lambda: app.openapi_schema or _set_schema(app)  # type: ignore[method-assign]
    return app


def _set_schema(app: FastAPI) -> dict[str, Any]:
    app.openapi_schema = _openapi_document(app)
    return app.openapi_schema


def run(host: str, port: int, workers: int, settings: Settings, access_log: bool = True) -> None:
    """Serve until interrupted (uvicorn; ``workers`` processes, each loading the rule base once)."""
    import uvicorn

    os.environ[SETTINGS_ENV] = json.dumps(asdict(settings))
    uvicorn.run("pyhelpers.interfaces.serve:create_app", factory=True, host=host, port=port, workers=workers,
                access_log=access_log, log_level="info", timeout_graceful_shutdown=5)
