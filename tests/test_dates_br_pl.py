"""Tests of the date functions added for br-pl (Art. 14(4))."""

from datetime import date

import pytest

from pyhelpers.base import dates


def test_days_before_is_the_365_days_preceding_the_alienation() -> None:
    start, end = dates.days_before(date(2026, 3, 1), 365)
    assert (start, end) == (date(2025, 3, 1), date(2026, 2, 28))
    assert dates.inclusive_days(start, end) == 365


def test_days_before_across_a_leap_day() -> None:
    start, end = dates.days_before(date(2024, 3, 1), 365)
    assert (start, end) == (date(2023, 3, 2), date(2024, 2, 29))


def test_days_before_refuses_no_days() -> None:
    with pytest.raises(ValueError):
        dates.days_before(date(2024, 3, 1), 0)
