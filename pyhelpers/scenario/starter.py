"""A commented scenario to start from (``treaty init TREATY TYPE``), generated from the models and the
catalogue: the two States of the treaty, a payer resident in the home State and a recipient resident
in the other, one income item of the type, and, commented out, every field of the item and of the
type's details block with its description. The file loads and checks as it is; each fact left out is
reported missing (or its documented default assumed) until it is given.
"""

from __future__ import annotations

import re
import types
import typing
from typing import Any, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from pyhelpers.base.errors import InputError
from pyhelpers.scenario.catalogue import catalogue
from pyhelpers.scenario.income import IncomeItem, IncomeType
from pyhelpers.scenario.services import DETAIL_BLOCKS, REQUIRED_BLOCKS

TYPES: tuple[str, ...] = get_args(IncomeType)
"""Every income type, in the order of the model."""

INDIVIDUAL_TYPES = frozenset(t for blocks in ("independent", "employment", "director", "pension", "student")
                             for t in DETAIL_BLOCKS[blocks])
"""Types whose recipient is an individual in the starter (services, pensions, students); a company otherwise."""

_BLOCK_OF = {"interest_on_equity": "interest", "shipping_air_transport": "shipping",
             "technical_services": "payment_for"}
"""A type whose details block is not named as the type itself (nor listed in :data:`DETAIL_BLOCKS`)."""

_SKELETON = ("id", "type", "payer", "recipient", "date", "gross")


def details_blocks(item_type: str) -> list[str]:
    """The item's fields that carry the details of ``item_type`` (none for a type without its own)."""
    blocks = [b for b, allowed in DETAIL_BLOCKS.items() if item_type in allowed]
    own = _BLOCK_OF.get(item_type, item_type)
    if own in IncomeItem.model_fields:
        blocks = [own, *(b for b in blocks if b != own)]  # the type's own block first
    return blocks


def starter(treaty: str, item_type: str) -> str:
    """The YAML text of a scenario of ``treaty`` with one item of ``item_type`` (module doc)."""
    cat = catalogue()
    if treaty not in cat.treaties:
        raise InputError(f"treaty: expected one of {', '.join(cat.treaties)}, found {treaty!r}")
    if item_type not in TYPES:
        raise InputError(f"type: expected one of {', '.join(TYPES)}, found {item_type!r}")
    home = cat.home
    other = next(s for s in cat.states[treaty] if s != home)
    individual = item_type in INDIVIDUAL_TYPES
    recipient = ["  recipient:", "    kind: individual", "    name: The recipient (an individual)",
                 f"    liable_to_tax: {{{other}: [residence]}}"] if individual else \
        ["  recipient:", "    kind: company", "    name: The recipient (a company)",
         f"    liable_to_tax: {{{other}: [place_of_management, incorporation]}}"]
    lines = [
        f"# A scenario of {treaty} to start from (treaty init {treaty} {item_type}): it loads and checks as it",
        "# is; each fact left out is reported missing, or its documented default assumed, until you give it.",
        "# Uncomment and fill in the fields below; `treaty check FILE` says what is still needed, and",
        "# `treaty check --ask FILE` which facts could change the outcome. The format: `treaty schema`.",
        f"name: {item_type.replace('_', ' ').capitalize()} paid from {home} to {other}",
        "description: >",
        "  Say here what happened, in the words of the file it comes from.",
        f"treaty: {treaty}",
        "evaluation_date: 2024-12-31",
        "persons:",
        "  payer:",
        "    kind: company",
        "    name: The payer (a company)",
        f"    liable_to_tax: {{{home}: [place_of_management, incorporation]}}",
        *recipient,
        "income:",
        "  - id: item-1",
        f"    type: {item_type}",
        "    payer: payer",
        "    recipient: recipient",
        "    date: 2024-06-30",
        '    gross: {amount: "1000.00", currency: BRL}',
    ]
    blocks = details_blocks(item_type)
    for block in blocks:
        if block in REQUIRED_BLOCKS and block == item_type:
            lines += _required(IncomeItem, block, "    ", home)
        lines += _commented(IncomeItem, block, "    ")
    lines.append("    # other facts of the item (each optional):")
    for name in IncomeItem.model_fields:
        if name not in _SKELETON and name not in blocks and not _is_block(IncomeItem, name):
            lines += _commented(IncomeItem, name, "    ")
    lines += ["# expect:  # what you expect, checked by `treaty check` (docs/guide/scenario-format.md, Expectations)",
              "#   item-1:", "#     status: decided"]
    return "\n".join(lines) + "\n"


def _required(model: type[BaseModel], name: str, indent: str, home: str) -> list[str]:
    """The block ``name`` that the type requires, with a value for each of its required fields (the first
    value allowed; a State: the home State), to be corrected (the rest of it follows, commented out)."""
    inner = _model_of(model.model_fields[name].annotation)
    assert inner is not None
    out = [f"{indent}{name}:  # required for this type: correct the values below"]
    for sub, info in inner.model_fields.items():
        if info.is_required():
            values = _field_type(info).split(" | ")
            value = home if values[0] == "State" else values[0]
            out.append(f"{indent}  {info.alias or sub}: {value}  # {_field_type(info)}")
    return out


def _is_block(model: type[BaseModel], name: str) -> bool:
    return _model_of(model.model_fields[name].annotation) is not None


def _model_of(annotation: Any) -> type[BaseModel] | None:
    """The model a field holds (``X | None`` included), if it holds one."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if get_origin(annotation) in (typing.Union, types.UnionType):
        found = [m for m in map(_model_of, get_args(annotation)) if m is not None]
        return found[0] if len(found) == 1 else None
    return None


def _commented(model: type[BaseModel], name: str, indent: str) -> list[str]:
    """``name`` of ``model``, commented out: its type and description; a block with each of its fields."""
    info = model.model_fields[name]
    key = info.alias or name
    doc = f"  # {_one_line(info.description)}" if info.description else ""
    inner = _model_of(info.annotation)
    if inner is None:
        return [f"{indent}# {key}: {_field_type(info)}{doc}"]
    doc = doc or f"  # {_one_line(inner.__doc__ or '')}"
    out = [f"{indent}# {key}:{doc}".rstrip(" #")]
    for sub in inner.model_fields:
        sub_info = inner.model_fields[sub]
        sub_doc = f"  # {_one_line(sub_info.description)}" if sub_info.description else ""
        out.append(f"{indent}#   {sub_info.alias or sub}: {_field_type(sub_info)}{sub_doc}")
    return out


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _field_type(info: FieldInfo) -> str:
    """:func:`_type_text` of a field (pydantic keeps the metadata of its outer ``Annotated`` apart)."""
    named = _named(info.metadata)
    return named if named is not None else _type_text(info.annotation)


def _named(metadata: Any) -> str | None:
    """The type name (``x-treaty-type``: Id, State, Date ...) the metadata of an ``Annotated`` gives, if any."""
    for meta in metadata:
        schema = getattr(meta, "json_schema", None)
        if isinstance(schema, dict) and "x-treaty-type" in schema:
            return str(schema["x-treaty-type"])
    return None


def _type_text(annotation: Any) -> str:
    """A short reading of a field's type: ``Id``, ``Day``, ``true | false | unknown``, the literals allowed."""
    origin = get_origin(annotation)
    if origin is typing.Annotated:
        named = _named(getattr(annotation, "__metadata__", ()))
        return named if named is not None else _type_text(get_args(annotation)[0])
    if origin is typing.Literal:
        return " | ".join(str(a) for a in get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        return " | ".join(dict.fromkeys(_type_text(a) for a in get_args(annotation) if a is not type(None)))
    if origin in (list, tuple):
        return f"[{', '.join(_type_text(a) for a in get_args(annotation) if a is not Ellipsis)}, ...]"
    if origin is dict:
        key, value = get_args(annotation)
        return f"{{{_type_text(key)}: {_type_text(value)}}}"
    if annotation is bool:
        return "true | false"
    return getattr(annotation, "__name__", str(annotation))
