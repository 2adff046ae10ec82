"""MkDocs hooks: the documentation's generated pages, written at build time from the code itself.

* ``reference/scenario-format.md``: every model and field of the scenario format, from the JSON Schema the
  models generate (:func:`pyhelpers.scenario.json_schema`): type, required or default, description, the
  provisions it names — no hand-written field table.
* ``reference/http.md`` and ``reference/openapi.json``: the endpoints of ``treaty serve``, from the
  application's OpenAPI document (:func:`pyhelpers.interfaces.serve.create_app`).
* ``treaties/<treaty>.md``: the ``<!-- treaty-catalogue -->`` marker replaced by the articles encoded,
  missing and procedural and the corpus notes of the treaty's catalogue (what ``treaty list`` prints).
* ``reference/cli.md``: every command's help, from the click commands (:func:`cli_reference`).
* ``architecture.md`` and ``changelog.md``: the repository's ARCHITECTURE.md and CHANGELOG.md.

The Python API reference is mkdocstrings' (``docs/reference/python-api.md``)."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `mkdocs build` run as a script: the checkout's package, as `python -m` sees it
    sys.path.insert(0, str(ROOT))

CATALOGUE_MARK = "<!-- treaty-catalogue -->"
SPHINX_ROLE = re.compile(r":(?:func|class|meth|mod|data|attr|exc):(?=<code>)")
"""A Sphinx role before a name in a rendered docstring (``:func:`x``` → ``x`` in code), which mkdocstrings keeps."""
PROVISION = re.compile(r"\b(?:[a-z]{2}-[a-z]{2} (?:(?:Arts?\.|Protocol) )?|(?<![\w-])(?:Arts?\.|Protocol) )"
                       r"[0-9]+(?:\([0-9A-Za-z.]+\))*")
"""A provision named in a description: ``br-pt 10(2)(a)``, ``br-pt Art. 11``, ``br-pt Protocol 9``, or an article
of the treaty the model's description names (``Art. 15(2)(a)``)."""
ALTERNATIVES = ("one_of", "between", "changeable")
MAX_ENUM = 40


# ------------------------------------------------------------------------------- scenario format ---
def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _anchor(model: str) -> str:
    return model.lower()


def _ref(node: dict[str, Any]) -> str | None:
    ref = node.get("$ref")
    return ref.rsplit("/", 1)[-1] if isinstance(ref, str) else None


class ScenarioReference:
    """The reference of the scenario format, walked from the schema's root model by model."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self.defs: dict[str, Any] = schema.get("$defs", {})

    def is_model(self, name: str) -> bool:
        return not name.startswith("open ") and "properties" in self.defs.get(name, {})

    def kind(self, node: dict[str, Any], depth: int = 0) -> str:
        """The type of a schema node, in words, models linked."""
        if depth > 12:
            return "…"
        name = _ref(node)
        if name is not None:
            target = self.defs[name]
            if self.is_model(name):
                return f"[{name}](#{_anchor(name)})"
            if not name.startswith("open "):
                return _cell(target.get("description") or target.get("title") or name)
            return self.kind(target, depth + 1)
        if "anyOf" in node:
            plain = [b for b in node["anyOf"] if not self.alternative(b) and b.get("type") != "null"]
            return " or ".join(dict.fromkeys(self.kind(b, depth + 1) for b in plain))
        if "then" in node and "else" in node:
            return f"{self.kind(node['then'], depth + 1)} or {self.kind(node['else'], depth + 1)}"
        if "allOf" in node:
            return " and ".join(self.kind(b, depth + 1) for b in node["allOf"])
        if "const" in node:
            return f"`{json.dumps(node['const'])}`"
        if "enum" in node:
            values = [f"`{v}`" for v in node["enum"]]
            shown = values if len(values) <= MAX_ENUM else [*values[:MAX_ENUM], "…"]
            return "one of " + ", ".join(shown)
        t = node.get("type")
        if t == "array":
            return "list of " + self.kind(node.get("items", {}), depth + 1)
        if t == "object":
            entries = node.get("additionalProperties")
            if isinstance(entries, dict):
                keys = node.get("propertyNames", {}).get("description", "key")
                return f"map: {_cell(keys)} → {self.kind(entries, depth + 1)}"
            props = node.get("properties", {})
            return "object {" + ", ".join(f"`{k}`: {self.kind(v, depth + 1)}" for k, v in props.items()) + "}"
        if "description" in node:
            return _cell(node["description"])
        return {"string": "text", "boolean": "`true` or `false`", "integer": "integer", "number": "number",
                "null": "none"}.get(str(t), "any")

    @staticmethod
    def alternative(node: dict[str, Any]) -> bool:
        """A branch of an open fact's type that gives the fact as alternatives (``one_of``, ``between``, ...)."""
        return (node.get("type") == "object" and not node.get("additionalProperties", True)
                and bool(set(node.get("properties", {})) & set(ALTERNATIVES)))

    def forms(self, node: dict[str, Any]) -> list[str]:
        """The forms of alternatives a field's value may take (its own, not those of a list's elements)."""
        name = _ref(node)
        if name is not None and name.startswith("open "):
            node = self.defs[name]
        return sorted({k for b in node.get("anyOf", []) if self.alternative(b)
                       for k in b.get("properties", {}) if k in ALTERNATIVES})

    def description(self, node: dict[str, Any]) -> str:
        if "description" in node:
            return str(node["description"])
        name = _ref(node)
        if name is not None and not self.is_model(name):
            return str(self.defs[name].get("description", ""))
        return ""

    def models(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """The root model, then every model in the order it is first referred to."""
        seen: list[str] = []
        queue: list[tuple[str, dict[str, Any]]] = [("Scenario", self.schema)]
        while queue:
            name, model = queue.pop(0)
            yield name, model
            for ref in re.findall(r'"#/\$defs/([^"]+)"', json.dumps(model.get("properties", {}))):
                self._follow(ref, seen, queue)

    def _follow(self, ref: str, seen: list[str], queue: list[tuple[str, dict[str, Any]]]) -> None:
        if ref in seen:
            return
        seen.append(ref)
        if self.is_model(ref):
            queue.append((ref, self.defs[ref]))
        elif ref.startswith("open "):
            for inner in re.findall(r'"#/\$defs/([^"]+)"', json.dumps(self.defs[ref])):
                self._follow(inner, seen, queue)

    def markdown(self) -> str:
        out = ["# Scenario format reference", "",
               "Generated from the scenario models' JSON Schema (`treaty schema`, "
               f"`{self.schema.get('$id', '')}`) when this site is built: every model and field, its type, "
               "whether it is required or its default, its description and the provisions the description "
               "names. How to write a scenario is in the [guide](../guide/scenario-format.md); a field marked "
               "*alternatives* may be given as alternatives or `unknown` "
               "([Incomplete facts](../guide/incomplete-facts.md)).", ""]
        if "$comment" in self.schema:
            out += ["!!! note \"Checked by the loader, not by the schema\"", "",
                    "    " + _cell(self.schema["$comment"]), ""]
        for name, model in self.models():
            required = set(model.get("required", []))
            out += [f"## {name}", ""]
            if model.get("description"):
                out += [str(model["description"]), ""]
            out += ["| field | type | required / default | description | provisions |", "|---|---|---|---|---|"]
            for field, node in model.get("properties", {}).items():
                if field in required:
                    need = "**required**"
                elif "default" in node:
                    need = f"default `{json.dumps(node['default'])}`"
                else:
                    need = "optional"
                text = self.description(node)
                provisions = "; ".join(dict.fromkeys(PROVISION.findall(text)))
                forms = self.forms(node)
                kind = self.kind(node) + (" · alternatives: " + ", ".join(f"`{f}`" for f in forms) if forms else "")
                out.append(f"| `{field}` | {kind} | {need} | {_cell(text)} | {provisions} |")
            out.append("")
        return "\n".join(out)


# ----------------------------------------------------------------------------------------- CLI ---
def cli_reference() -> str:
    """Every command's help, as ``treaty COMMAND --help`` prints it (click's own formatting)."""
    import click

    from pyhelpers.interfaces.cli import main

    settings: dict[str, Any] = {**main.context_settings, "terminal_width": 100, "max_content_width": 100}
    root = click.Context(main, info_name="treaty", **settings)
    out = ["# CLI reference", "",
           "Generated from the command line's own definitions when this site is built: what `treaty --help` and "
           "`treaty COMMAND --help` print. What the commands are for, the exit codes and the query syntax: "
           "[Commands](../guide/commands.md).", "", "```", main.get_help(root), "```", ""]
    for name in sorted(main.commands):
        command = main.commands[name]
        context = click.Context(command, info_name=name, parent=root, terminal_width=100, max_content_width=100)
        out += [f"## `treaty {name}`", "", "```", command.get_help(context), "```", ""]
    return "\n".join(out)


# ---------------------------------------------------------------------------------------- HTTP ---
def http_reference(doc: dict[str, Any]) -> str:
    """The endpoints of the OpenAPI document: method, path, parameters, request body, responses."""
    out = ["# HTTP reference", "",
           f"The endpoints of `treaty serve` ({doc['info']['title']} {doc['info']['version']}), generated from the "
           "application's OpenAPI 3 document when this site is built; the document itself: "
           "[openapi.json](openapi.json) (a running server serves it at `/openapi.json`). How to run the "
           "service, the limits and the problem JSON: [HTTP service](../guide/http-service.md).", ""]
    if doc["info"].get("description"):
        out += [doc["info"]["description"], ""]
    for path, operations in doc.get("paths", {}).items():
        for method, op in operations.items():
            out += [f"## `{method.upper()} {path}`", ""]
            for key in ("summary", "description"):
                if op.get(key):
                    out += [str(op[key]), ""]
            params = op.get("parameters", [])
            if params:
                out += ["| parameter | in | required | type | description |", "|---|---|---|---|---|"]
                for p in params:
                    schema = p.get("schema", {})
                    types = [b.get("type", "") for b in schema.get("anyOf", [schema]) if b.get("type") != "null"]
                    out.append(f"| `{p['name']}` | {p.get('in', '')} | {'yes' if p.get('required') else 'no'} | "
                               f"{_cell(' or '.join(t for t in types if t))} | "
                               f"{_cell(p.get('description') or schema.get('description', ''))} |")
                out.append("")
            body = op.get("requestBody", {})
            if body:
                out += ["Request body: " + ", ".join(f"`{m}`" for m in body.get("content", {})), ""]
            out += ["| response | media types | description |", "|---|---|---|"]
            for code, response in op.get("responses", {}).items():
                media = ", ".join(f"`{m}`" for m in response.get("content", {}))
                out.append(f"| {code} | {media} | {_cell(response.get('description', ''))} |")
            out.append("")
    return "\n".join(out)


@cache
def openapi_document() -> dict[str, Any]:
    from pyhelpers.interfaces.serve import create_app

    return create_app().openapi()


# ------------------------------------------------------------------------------------ treaties ---
@cache
def catalogues() -> dict[str, str]:
    """Each treaty's catalogue in Markdown: articles encoded, pending, missing, procedural; the corpus notes."""
    from pyhelpers.engine.solve import Checker
    from pyhelpers.interfaces import documents

    pages: dict[str, str] = {}
    for entry in documents.treaties_document(Checker()):
        out = [f"**Partner**: {entry['partner']}. **Corpus**: `{entry['source']}`. "
               f"Generated from the treaty's catalogue (`logic/{entry['treaty']}/treaty.lp`; "
               f"`treaty list`, `treaty show {entry['treaty']} ARTICLE`).", ""]
        for status, heading in (("encoded", "Encoded"), ("pending", "Pending"), ("missing", "Missing from the corpus"),
                                ("procedural", "Procedural (no taxing right)")):
            arts = [a for a in entry["articles"] if a["status"] == status]
            if not arts:
                continue
            out += [f"## {heading}", ""]
            if status == "missing":
                out += [", ".join(f"`{a['provision']}`" for a in arts), ""]
                continue
            for a in arts:
                title = a["titles"].get("en") or a["titles"].get("pt") or ""
                reason = f": {a['reason']}" if a.get("reason") else ""
                out.append(f"- `{a['provision']}` {title}{reason}".rstrip())
            out.append("")
        if entry["notes"]:
            out += ["## Notes on the corpus", "", *(f"- {n}" for n in entry["notes"]), ""]
        pages[entry["treaty"]] = "\n".join(out)
    return pages


# --------------------------------------------------------------------------------------- hooks ---
def on_files(files: Files, config: MkDocsConfig) -> Files:
    from pyhelpers.scenario import json_schema

    generated = {
        "reference/scenario-format.md": ScenarioReference(json_schema()).markdown(),
        "reference/cli.md": cli_reference(),
        "reference/http.md": http_reference(openapi_document()),
        "reference/openapi.json": json.dumps(openapi_document(), indent=2, ensure_ascii=False) + "\n",
        "architecture.md": (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8"),
        "changelog.md": (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"),
    }
    for uri, content in generated.items():
        files.append(File.generated(config, uri, content=content))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    if CATALOGUE_MARK not in markdown:
        return markdown
    treaty = Path(page.file.src_uri).stem
    return markdown.replace(CATALOGUE_MARK, catalogues()[treaty])


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    return SPHINX_ROLE.sub("", html)
