"""[br-sg] the date functions the Brazil–Singapore rules use."""

from datetime import date

from pyhelpers.base import dates


def test_ymd_number_orders_as_dates() -> None:
    assert dates.ymd_number(date(2021, 12, 1)) == 20211201
    assert dates.ymd_number(date(2021, 11, 30)) < dates.ymd_number(date(2021, 12, 1))
    assert dates.ymd_number(date(2021, 12, 31)) < dates.ymd_number(date(2022, 1, 1))


def test_services_window_across_two_calendar_years_counts_a_shared_day_once() -> None:
    # two consultants overlapping on 2023-12-01 .. 2023-12-31: those days count once
    periods = [(date(2023, 9, 1), date(2023, 12, 31)), (date(2023, 12, 1), date(2024, 3, 2))]
    n, window = dates.max_days_in_windows(periods, (date(2024, 1, 1), date(2024, 12, 31)), 12)
    assert n == (date(2024, 3, 2) - date(2023, 9, 1)).days + 1
    assert window[0] <= date(2023, 9, 1)
