"""Facts of persons and their residence (:mod:`pyhelpers.scenario.persons`): kind, liability to tax by
criterion, the tie-breakers' facts, government and statutory bodies, partnerships, tax regimes, fiscal
transparency, control, and the physical presence of individuals."""

from __future__ import annotations

from pyhelpers.facts.emit import (
    Add,
    Const,
    Fn,
    day,
    defaulted,
    fact,
    given_value,
    given_values,
    given_yes_no,
    record_given,
)
from pyhelpers.scenario import Scenario


def person_facts(sc: Scenario, sid: str, add: Add, strict: bool = False) -> None:
    for pid, p in sc.persons.items():
        add(fact("person", sid, pid, Const(p.kind)))
        if p.liable_to_tax is not None:
            add(fact("given", sid, pid, Const("liable_to_tax")))
            for state, criteria in sorted(p.liable_to_tax.items()):
                if criteria == "unknown":
                    add(fact("unknown", sid, pid, Fn("liable_to_tax", (Const(state),))))
                    continue
                for c in sorted(set(criteria)):
                    add(fact("liable_to_tax", sid, pid, Const(state), Const(c)))
        if record_given(sid, add, pid, "treated_as_body_corporate", p.treated_as_body_corporate) \
                and p.treated_as_body_corporate:
            add(fact("treated_as_body_corporate", sid, pid))
        if p.government_of is not None:
            add(fact("government_of", sid, pid, Const(p.government_of)))
        for attr, pred in (
            ("nationality", "national_of"),
            ("permanent_home", "permanent_home"),
            ("habitual_abode", "habitual_abode"),
        ):
            given_values(sid, add, pid, attr, pred, getattr(p, attr))
        if record_given(sid, add, pid, "vital_interests", p.vital_interests):
            if p.vital_interests == "undetermined":
                add(fact("vital_interests_undetermined", sid, pid))
            else:
                add(fact("vital_interests", sid, pid, Const(str(p.vital_interests))))
        given_value(sid, add, pid, "effective_management", "effective_management", p.effective_management)
        if "special_regime" in p.model_fields_set:
            given_values(sid, add, pid, "special_regime", "special_regime", p.special_regime)
        else:  # default: none
            defaulted(sid, add, pid, "special_regime", strict)
        if p.all_places_listed:
            add(fact("given", sid, pid, Const("places_of_business")))
        else:  # default: the places of business listed are all it has
            defaulted(sid, add, pid, "places_of_business", strict)
        given_yes_no(sid, add, pid, "partnership", "partnership", p.partnership)
        if p.statutory_body is not None:
            add(fact("statutory_body_of", sid, pid, Const(p.statutory_body.state)))
            given_yes_no(sid, add, pid, "government_functions", "non_commercial_government_functions",
                         p.statutory_body.only_non_commercial_government_functions)
        for state, ft in sorted((p.fiscal_transparency or {}).items()):
            for attr, pred in (("taxed_at_entity", "taxed_at_entity"),
                               ("members_taxed_as_derived_directly", "members_taxed_directly")):
                value = getattr(ft, attr)
                if record_given(sid, add, pid, Fn(pred, (Const(state),)), value):  # one answer per State
                    add(fact(pred, sid, pid, Const(state), Const("yes" if value else "no")))
        given_values(sid, add, pid, "controlled_by", "controlled_by", p.controlled_by, ids=True)
    for pr in sc.presence:
        add(fact("presence", sid, pr.person, Const(pr.state), day(pr.from_), day(pr.until)))
