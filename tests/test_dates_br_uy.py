"""[br-uy] The candidate twelve-month windows of br-uy 29(2)(e) and 29(4)."""
from datetime import date

from pyhelpers.base import dates


def test_windows_include_the_day_and_last_twelve_months() -> None:
    d = date(2024, 6, 30)
    wins = dates.period_windows_including(d, 12, [date(2024, 1, 1)])
    assert (date(2023, 7, 1), date(2024, 6, 30)) in wins
    assert (date(2024, 6, 30), date(2025, 6, 29)) in wins
    assert (date(2024, 1, 1), date(2024, 12, 31)) in wins
    assert all(a <= d <= b for a, b in wins)
    assert all(dates.add_months(a, 12) - b == date(2024, 1, 2) - date(2024, 1, 1) for a, b in wins)


def test_windows_ending_before_a_cut() -> None:
    d = date(2024, 6, 30)
    wins = dates.period_windows_including(d, 12, [date(2024, 9, 1)])
    assert (date(2023, 9, 1), date(2024, 8, 31)) in wins
