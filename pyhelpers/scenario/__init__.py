"""The scenario format: what users write, validated, with line numbers in every error.

A scenario describes persons, holdings, places of business, presence periods and income items, plus an
optional ``expect:`` block. Every attribute is either required, has a documented default, or may be given
as ``unknown`` (see ``treaty schema`` and docs/guide/scenario-format.md). A fact the law needs that the
scenario does not give is *not* read as false: the rules report it as ``missing``. The models are by subject
(:mod:`.persons`, :mod:`.holdings`, :mod:`.places`, :mod:`.income` with :mod:`.business`,
:mod:`.investment`, :mod:`.services` and :mod:`.procedures`, :mod:`.entitlement`, :mod:`.withholding`,
:mod:`.expectations`, :mod:`.document`); loading and its errors in :mod:`.loading`, :mod:`.problems` and
:mod:`.consistency`; facts given as alternatives in :mod:`.openfacts`. This package names no treaty: what it
checks against the treaties (their ids, States, named taxes) it reads from the rule files
(:mod:`.catalogue`), and the descriptions of fields that cite provisions are kept there too
(``logic/*/scenario_format.lp``), merged into the JSON Schema by :mod:`.schema`, with the field that states
each fact the rules may ask for, resolved against a scenario by :mod:`.factpaths`.
"""

from pyhelpers.scenario.common import UNKNOWN, BasisPoints, Id, Money, State, Unknown
from pyhelpers.scenario.consistency import check_consistency
from pyhelpers.scenario.document import PersonQuestion, Scenario, person_questions, withholding_state
from pyhelpers.scenario.expectations import ExpectedAnswer, ExpectedItem, ExpectedWithholding, parse_outcome
from pyhelpers.scenario.income import IncomeItem, IncomeType
from pyhelpers.scenario.loading import load_context, load_dict, load_file, load_text, validate_item
from pyhelpers.scenario.schema import json_schema

__all__ = [
    "UNKNOWN", "BasisPoints", "ExpectedAnswer", "ExpectedItem", "ExpectedWithholding", "Id", "IncomeItem",
    "IncomeType", "Money", "PersonQuestion", "Scenario", "State", "Unknown", "check_consistency", "json_schema",
    "load_context", "load_dict", "load_file", "load_text", "parse_outcome", "person_questions", "validate_item",
    "withholding_state",
]
