"""Scenarios of deep ownership chains (issue 26): a ladder that doubles its chains at every level, a long
chain of 100%, and an exact 50% reached only through chains with many decimals. Used by
tests/test_ownership_chains.py and tests/bench/ownership.py."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise
from typing import Any

import yaml

_CLAIMANT = {"kind": "company", "liable_to_tax": {"uy": ["incorporation"]},
             "entitlement": {"regularly_traded": False, "entity_purpose": "none",
                             "business_activity": "holding_company"}}
_UY_COMPANY = {"kind": "company", "liable_to_tax": {"uy": ["incorporation"]},
               "entitlement": {"regularly_traded": False, "entity_purpose": "none", "equivalent_beneficiary": False}}
_UY_INDIVIDUAL = {"kind": "individual", "liable_to_tax": {"uy": ["residence"]}}
_BR_INDIVIDUAL = {"kind": "individual", "liable_to_tax": {"br": ["residence"]},
                  "entitlement": {"equivalent_beneficiary": False}}


def _interest_case(name: str, persons: dict[str, Any], holdings: list[dict[str, Any]], status: str) -> str:
    persons = {**persons, "alfa-uy": _CLAIMANT,
               "beta-br": {"kind": "company", "liable_to_tax": {"br": ["incorporation"]}}}
    holdings = [*holdings, {"holder": "alfa-uy", "company": "beta-br", "capital": 100, "from": "2019-01-01"}]
    # a denial cites 29(1) with each test considered and not met (29(5): «negados em virtude das disposições
    # anteriores deste Artigo»), as the item's provisions do
    considered = ["br-uy 29(1)", "br-uy 29(2)(a)", "br-uy 29(2)(b)", "br-uy 29(2)(c)", "br-uy 29(2)(d)",
                  "br-uy 29(2)(e)", "br-uy 29(3)(a)(i)", "br-uy 29(4)"]
    prov = ["br-uy 29(2)(e)"] if status == "entitled" else considered
    # an item not encoded (Art. 11 is missing) keeps the residence and the definitions the corpus found where its
    # benefits are not denied (1(1); 29(2)(a), the qualified owners at the top: the blocked-items policy, stop 58)
    cited = ["br-uy 1(1)", *prov, "br-uy 29(2)(a)"] if status == "entitled" else considered
    doc = {"name": name, "treaty": "br-uy", "evaluation_date": "2024-06-30", "persons": persons,
           "holdings": [{**h, "from": "2019-01-01"} for h in holdings], "holdings_continue": True,
           "income": [{"id": "loan-interest", "type": "interest", "payer": "beta-br", "recipient": "alfa-uy",
                       "date": "2024-03-15", "gross": {"amount": "1000.00", "currency": "BRL"}}],
           "expect": {"loan-interest": {
               "status": "not_encoded",
               "outcome": {"br": "not encoded" if status == "entitled" else "benefits denied", "uy": "not encoded"},
               "provisions": ["br-uy 4", "br-uy 11", *cited], "entitlement": {"status": status, "provisions": prov}}}}
    return yaml.safe_dump(doc, sort_keys=False)


def ladder(depth: int, second_top_qualified: bool = True, last_share: str = "50") -> str:
    """Two holders per level, each holding 50% of each of the next level's two (2^depth chains from a
    top holder); the last level's two hold 50% and ``last_share``% of the claimant. The top two are
    individuals resident of Uruguay (29(2)(a)), or the second an individual resident of Brazil; the levels
    between are Uruguayan companies that are not qualified persons (no third-State owner, no indicator)."""
    persons: dict[str, Any] = {}
    levels = [[f"l{k}a", f"l{k}b"] for k in range(depth)]
    for k, level in enumerate(levels):
        for p in level:
            top = _UY_INDIVIDUAL if p == "l0a" or second_top_qualified else _BR_INDIVIDUAL
            persons[p] = top if k == 0 else _UY_COMPANY
    holdings = [{"holder": a, "company": b, "capital": 50}
                for up, down in pairwise(levels) for a in up for b in down]
    holdings += [{"holder": levels[-1][0], "company": "alfa-uy", "capital": 50},
                 {"holder": levels[-1][1], "company": "alfa-uy", "capital": last_share}]
    qualified = Fraction(50 + Fraction(last_share), 100) * (1 if second_top_qualified else Fraction(1, 2))
    status = "entitled" if qualified >= Fraction(1, 2) else "denied"
    return _interest_case(f"ladder of {depth} levels", persons, holdings, status)


def chain(depth: int) -> str:
    """An individual resident of Uruguay holds 100% of the claimant through ``depth`` - 1 Uruguayan companies
    that are not qualified persons."""
    names = ["ana-uy", *[f"c{i}" for i in range(1, depth)], "alfa-uy"]
    persons: dict[str, Any] = {"ana-uy": _UY_INDIVIDUAL, **{n: _UY_COMPANY for n in names[1:-1]}}
    holdings = [{"holder": a, "company": b, "capital": 100} for a, b in pairwise(names)]
    return _interest_case(f"chain of {depth} holdings of 100%", persons, holdings, "entitled")


def split_chain(levels: int, tail: list[str] | None = None, top: str = "x-ky", target: str = "r") -> dict[str, Any]:
    """Holdings only: x-ky holds 100% of s0a and s0b, which hold 33.33% and 66.67% of m0; m_k holds 100% of
    s(k+1)a and s(k+1)b, and so on; the last m holds 50% of the target r. x-ky's interest in r is exactly
    50%, but each of its 2^levels chains has a product with 4 x levels decimals. ``tail``: the shares of a
    further chain x-ky -> t1 -> ... -> r."""
    holdings: list[dict[str, Any]] = []
    first = top
    for k in range(levels):
        holdings += [{"holder": top, "company": f"s{k}a", "capital": "100"},
                     {"holder": top, "company": f"s{k}b", "capital": "100"},
                     {"holder": f"s{k}a", "company": f"m{k}", "capital": "33.33"},
                     {"holder": f"s{k}b", "company": f"m{k}", "capital": "66.67"}]
        top = f"m{k}"
    holdings.append({"holder": top, "company": target, "capital": "50"})
    if tail:
        names = [first, *[f"t{i}" for i in range(1, len(tail))], target]
        holdings += [{"holder": a, "company": b, "capital": s}
                     for (a, b), s in zip(pairwise(names), tail, strict=True)]
    return {"holdings": holdings}


def complement_claimant(z_share: str = "50") -> str:
    """An individual resident of Uruguay holds exactly 50% of the claimant, through two companies whose
    shares of it have 13 decimals each and add up to exactly 50%: g1 holds 33.33% of h1, which holds
    33.33% of h2, which holds 33.33% of z; g2 holds 66.67% of z and 33.33% of k1, which holds 66.67% of z
    and 33.33% of k2, which holds 66.67% of z; z holds 50% of the claimant (the companies are Uruguayan,
    not qualified persons). An individual resident of Brazil holds the other 50%. With ``z_share`` below 50,
    below 50%: denied."""
    shares = [("ana-uy", "g1", "100"), ("ana-uy", "g2", "100"),
              ("g1", "h1", "33.33"), ("h1", "h2", "33.33"), ("h2", "z", "33.33"),
              ("g2", "z", "66.67"), ("g2", "k1", "33.33"), ("k1", "z", "66.67"), ("k1", "k2", "33.33"),
              ("k2", "z", "66.67"), ("z", "alfa-uy", z_share), ("bruno-br", "alfa-uy", "50")]
    holdings = [{"holder": a, "company": b, "capital": c} for a, b, c in shares]
    persons: dict[str, Any] = {"ana-uy": _UY_INDIVIDUAL, "bruno-br": _BR_INDIVIDUAL,
                               **{p: _UY_COMPANY for p in ("g1", "g2", "h1", "h2", "k1", "k2", "z")}}
    status = "entitled" if Fraction(z_share) >= 50 else "denied"
    return _interest_case(f"{z_share}% of 100% through chains of 13 decimals", persons, holdings, status)
