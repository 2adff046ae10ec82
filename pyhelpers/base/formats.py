"""Numbers, amounts, percentages and dates as each language writes them, through Babel (CLDR).

One function per kind. English keeps the tool's historical forms byte for byte (``1,000,000.00 BRL``,
``24.9%``, ``2024-03-15``: ISO dates, no locale abbreviations); Brazilian Portuguese (``pt``) is written
with the ``pt_BR`` locale (``1.000.000,00 BRL``, ``24,9%``, ``15/03/2024``) and European Portuguese
(``pt-PT``) with ``pt_PT``.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

from babel.dates import format_date
from babel.numbers import format_decimal, format_percent

from pyhelpers.base import lang as languages

_LOCALE = {"pt": "pt_BR", "pt-PT": "pt_PT"}
_DATE_FORMAT = {"pt": "short", "pt-PT": "medium"}  # both dd/MM/yyyy in CLDR


def _locale(lang: str) -> str | None:
    """The Babel locale of ``lang``; None for English (its historical forms)."""
    return _LOCALE.get(languages.normalize(lang))


def number(value: Decimal | int, lang: str) -> str:
    """A decimal or a whole number with thousands separated, its own decimal places kept: ``150,000.00`` /
    ``150.000,00``, ``10,000`` / ``10.000``. The one function that groups a number the tool writes for a
    reader; identifiers, years, dates, row numbers and machine formats are never passed to it."""
    if isinstance(value, int):
        value = Decimal(value)
    loc = _locale(lang)
    if loc is None:
        return f"{value:,}"
    exponent = value.as_tuple().exponent
    places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    pattern = "#,##0" + ("." + "0" * places if places else "")
    return format_decimal(value, pattern, locale=loc, decimal_quantization=False)


def amount(value: Decimal, currency: str | None, lang: str) -> str:
    """An amount with its currency's ISO code after it: ``1,000,000.00 BRL`` / ``1.000.000,00 BRL``."""
    return f"{number(value, lang)} {currency}" if currency else number(value, lang)


def _percent(fraction: Decimal, places: int, lang: str, english: str) -> str:
    loc = _locale(lang)
    if loc is None:
        return english
    return format_percent(fraction, "#,##0." + "#" * places + "%", locale=loc, decimal_quantization=False)


def percent_bp(bp: int, lang: str) -> str:
    """A rate in basis points: 2490 → ``24.9%`` / ``24,9%``."""
    whole, frac = divmod(bp, 100)
    english = f"{whole}%" if frac == 0 else f"{whole}.{frac:02d}".rstrip("0") + "%"
    return _percent(Decimal(bp) / 10000, 2, lang, english)


def percent_units(units: int, lang: str) -> str:
    """A share in hundred-millionths of the whole: 24998400 → ``24.9984%`` / ``24,9984%``."""
    whole, frac = divmod(units, 1_000_000)
    english = f"{whole}%" if frac == 0 else f"{whole}.{frac:06d}".rstrip("0") + "%"
    return _percent(Decimal(units) / 100_000_000, 6, lang, english)


def date(value: datetime.date | str, lang: str) -> str:
    """A date: ``2024-03-15`` (English, ISO) / ``15/03/2024``; a string that is not an ISO date is kept."""
    loc = _locale(lang)
    if isinstance(value, str):
        if loc is None:
            return value
        try:
            day = datetime.date.fromisoformat(value)
        except ValueError:
            return value
    else:
        day = value
    if loc is None:
        return day.isoformat()
    return format_date(day, _DATE_FORMAT[languages.normalize(lang)], locale=loc)
