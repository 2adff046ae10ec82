"""Every State a user may name reads correctly in Portuguese: its article from the catalogue, never a guess.

A third State is named from CLDR's territory names (Babel); the article its Portuguese name takes, which also
gives its number (a reading's verb agrees with it), is a ``state_article`` fact of ``logic/core/corpus.lp``
(Brazilian usage ``pt``, European ``pt_pt``), whose sources that file states. A territory with none verified is
named after a noun that has one ("no território denominado Jersey").
"""

from __future__ import annotations

import re

import pytest

from pyhelpers.base.rulebase import ground_facts, logic_dir
from pyhelpers.explain.readings import fill, state_article, state_name, state_plural, territory_codes

ARTICLES = {"pt": {"", "o", "a", "os", "as"}, "pt_pt": {"", "o", "a", "os", "as"}, "en": {"the"}}

NO_VERIFIED_ARTICLE = {
    "ai", "aq", "aw", "bl", "bm", "cq", "cw", "dg", "ea", "eh", "gg", "gi", "gl", "gp", "gu", "hk", "je", "mf", "mo",
    "mq", "ms", "nc", "nu", "pf", "pm", "pr", "qo", "re", "sh", "sj", "sx", "ta", "tk", "tw", "wf", "xa", "xb",
    "xk", "yt"}
"""The territories CLDR names whose Brazilian article no source of ``logic/core/corpus.lp`` gives (none of them a
member of the United Nations): a fact for one of them, with its source, moves it out of this set."""


def _facts() -> dict[str, dict[str, str]]:
    table: dict[str, dict[str, str]] = {}
    for sym in ground_facts("state_article", 3, logic_dir()):
        table.setdefault(sym.arguments[1].name, {})[sym.arguments[0].name] = sym.arguments[2].string
    return table


def test_every_article_is_a_definite_article_of_a_known_state() -> None:
    codes = set(territory_codes())
    for lang, table in _facts().items():
        assert lang in ARTICLES, lang
        bad = {c: a for c, a in table.items() if a not in ARTICLES[lang] or c not in codes}
        assert not bad, (lang, bad)


def test_the_brazilian_table_covers_every_territory_but_those_without_a_source() -> None:
    """193 members of the United Nations (the Itamaraty's list), the names with a common noun, and the
    Contracting States have their article; the territories without a verified one are exactly those listed."""
    pt = _facts()["pt"]
    assert {c for c in territory_codes() if c not in pt} == NO_VERIFIED_ARTICLE
    assert len(territory_codes()) == 264  # CLDR's two-letter territories (Babel's data): a new one needs a row


_VERB = "{St} {St:pode|podem} tributar o rendimento pago a um residente de {St}"


@pytest.mark.parametrize("lang", ["pt", "pt-PT"])
def test_every_territory_reads_with_its_article_or_none_guessed(lang: str) -> None:
    """For every territory CLDR names: the sentence names it with the article of the catalogue (contracted
    with the preposition: 'dos Estados Unidos'), bare where it takes none, after 'território denominado'
    where none is known; the verb agrees in number with the article."""
    for code in territory_codes():
        name = state_name(code, lang)
        article = state_article(code, lang)
        text = fill(_VERB, {"St": name}, {"St": code}, lang)
        if article is None:
            expected = f"o território denominado {name} pode tributar o rendimento pago a um residente do " \
                       f"território denominado {name}"
        elif article == "":
            expected = f"{name} pode tributar o rendimento pago a um residente de {name}"
        else:
            contracted = {"o": "do", "a": "da", "os": "dos", "as": "das"}[article]
            verb = "podem" if article in ("os", "as") else "pode"
            expected = f"{article} {name} {verb} tributar o rendimento pago a um residente {contracted} {name}"
        assert text == expected, (code, lang)


def test_plural_names_agree_and_european_usage_is_its_own() -> None:
    assert fill("{St} {St:é|são} um Estado", {"St": "Estados Unidos"}, {"St": "us"}, "pt") == \
        "os Estados Unidos são um Estado"
    for code, plural in (("us", True), ("nl", True), ("ph", True), ("ae", True), ("br", False), ("pt", False),
                         ("je", False)):
        assert state_plural(code, "pt") is plural, code
    assert not state_plural("us", "en")  # English: the United States is
    # Brazil writes Marrocos with an article, Portugal without; Brazil's "Gana" without one is not Portugal's usage
    assert (state_article("ma", "pt"), state_article("ma", "pt-PT")) == ("o", "")
    assert (state_article("gh", "pt"), state_article("gh", "pt-PT")) == ("", None)
    assert state_article("ax", "pt-PT") is None  # Alanda: Portugal's name, its article not known
    assert fill("residente de {St}", {}, {"St": "ky"}, "pt-PT") == "residente das Ilhas Caimão"


def test_english_names_take_the_where_they_should() -> None:
    assert state_name("us", "en") == "the United States"
    assert state_name("ky", "en") == "the Cayman Islands"
    assert state_name("fr", "en") == "France"
    assert not any(re.match(r"the the ", state_name(c, "en")) for c in territory_codes())
