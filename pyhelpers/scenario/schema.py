"""The JSON Schema of the scenario format, for editors: the models' schema with the treaty ids of the
catalogue, and the documentation that names provisions, kept in the rule files beside the law it cites
(``%doc Model.field: ...``, :func:`pyhelpers.base.rulebase.format_documentation`)."""

from __future__ import annotations

from typing import Any

from pyhelpers.base.errors import LogicError
from pyhelpers.base.rulebase import format_documentation
from pyhelpers.scenario.catalogue import catalogue
from pyhelpers.scenario.document import Scenario


def json_schema() -> dict[str, Any]:
    """JSON Schema of the scenario format (for editors)."""
    schema = Scenario.model_json_schema(by_alias=True)
    schema["properties"]["treaty"] = _sorted({**schema["properties"]["treaty"],
                                              "enum": list(catalogue().treaties)})
    for key, text in format_documentation().items():
        model, _, field = key.partition(".")
        node = schema if model == Scenario.__name__ else schema["$defs"].get(model)
        if node is not None and field:
            node = node["properties"].get(field)
        if node is None:
            raise LogicError(f"%doc {key}: no such model or field in the scenario format")
        node["description"] = text
        node.update(_sorted(node))
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "treaty-logic scenario"
    return schema


def _sorted(node: dict[str, Any]) -> dict[str, Any]:
    """The keys of a schema node in pydantic's order (sorted), so a description added keeps its place."""
    items = sorted(node.items())
    node.clear()
    node.update(items)
    return node
