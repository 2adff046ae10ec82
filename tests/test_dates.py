"""The date module: inclusive intervals, N months, 29 February, days of presence, 12-month windows."""

from __future__ import annotations

from datetime import date

from pyhelpers.base import dates


def test_day_numbers_round_trip_and_fit_32_bits() -> None:
    for d in (date(2000, 1, 1), date(2024, 2, 29), dates.OPEN_END):
        assert dates.from_day_number(dates.day_number(d)) == d
        assert dates.day_number(d) < 2**31


def test_months_before_same_day_and_clamped() -> None:
    assert dates.months_before(date(2024, 3, 15), 24) == date(2022, 3, 15)
    assert dates.months_before(date(2024, 2, 29), 24) == date(2022, 2, 28)  # 29 February
    assert dates.months_before(date(2024, 3, 31), 1) == date(2024, 2, 29)
    assert dates.months_before(date(2023, 3, 31), 1) == date(2023, 2, 28)
    assert dates.add_months(date(2023, 1, 31), 13) == date(2024, 2, 29)
    assert dates.add_months(date(2023, 12, 15), 1) == date(2024, 1, 15)


def test_inclusive_days() -> None:
    assert dates.inclusive_days(date(2024, 1, 1), date(2024, 1, 1)) == 1
    assert dates.inclusive_days(date(2024, 1, 1), date(2024, 12, 31)) == 366
    assert dates.inclusive_days(date(2024, 1, 2), date(2024, 1, 1)) == 0


def test_merge_intervals_joins_adjoining_and_overlapping() -> None:
    merged = dates.merge_intervals([(date(2024, 1, 10), date(2024, 1, 20)), (date(2024, 1, 1), date(2024, 1, 9)),
                                    (date(2024, 1, 15), date(2024, 2, 1)), (date(2024, 3, 1), date(2024, 3, 2))])
    assert merged == [(date(2024, 1, 1), date(2024, 2, 1)), (date(2024, 3, 1), date(2024, 3, 2))]


def test_days_present_counts_arrival_and_departure_and_overlaps_once() -> None:
    periods = [(date(2024, 1, 1), date(2024, 1, 10)), (date(2024, 1, 5), date(2024, 1, 12))]
    assert dates.days_present(periods, (date(2024, 1, 1), date(2024, 12, 31))) == 12
    assert dates.days_present(periods, (date(2024, 1, 11), date(2024, 12, 31))) == 2


def test_twelve_month_windows_begin_or_end_in_the_fiscal_year() -> None:
    fy = (date(2024, 1, 1), date(2024, 12, 31))
    windows = dates.month_windows(fy, 12)
    assert (date(2024, 1, 1), date(2024, 12, 31)) in windows
    assert (date(2023, 1, 2), date(2024, 1, 1)) in windows  # ends on the first day of the year
    assert (date(2024, 12, 31), date(2025, 12, 30)) in windows  # begins on the last day
    assert all(w[0] <= fy[1] and w[1] >= fy[0] for w in windows)


def test_max_days_in_a_window_crossing_the_calendar_year() -> None:
    # 100 days at the end of 2023 and 84 at the start of 2024: 184 days in one window, never in a year
    periods = [(date(2023, 9, 23), date(2023, 12, 31)), (date(2024, 1, 1), date(2024, 3, 24))]
    assert dates.days_present(periods, (date(2024, 1, 1), date(2024, 12, 31))) == 84
    best, window = dates.max_days_in_windows(periods, (date(2024, 1, 1), date(2024, 12, 31)), 12)
    assert best == 184
    assert window[0] <= date(2023, 9, 23) and window[1] >= date(2024, 3, 24)


def test_period_last_day_and_months_and_days() -> None:
    assert dates.period_last_day(date(2023, 1, 1), 9) == date(2023, 9, 30)
    assert dates.period_last_day(date(2023, 1, 1), 0) == date(2022, 12, 31)
    assert dates.period_last_day(date(2023, 5, 31), 9) == date(2024, 2, 28)  # clamped to 29 February
    assert dates.months_and_days(date(2023, 1, 1), date(2023, 9, 30)) == (9, 0)  # exactly nine months
    assert dates.months_and_days(date(2023, 1, 1), date(2023, 10, 1)) == (9, 1)  # nine months and a day
    assert dates.months_and_days(date(2023, 1, 1), date(2023, 1, 1)) == (0, 1)
    assert dates.months_and_days(date(2023, 3, 15), date(2024, 5, 20)) == (14, 6)
    assert dates.months_and_days(date(2023, 1, 31), date(2023, 2, 27)) == (1, 0)
    assert dates.months_and_days(date(2024, 2, 29), date(2025, 2, 27)) == (12, 0)
    for end in (date(2023, 9, 29), date(2023, 9, 30), date(2023, 10, 1), date(2023, 10, 31)):
        months, days = dates.months_and_days(date(2023, 1, 1), end)
        assert date.fromordinal(dates.period_last_day(date(2023, 1, 1), months).toordinal() + days) == end
    try:
        dates.months_and_days(date(2023, 1, 2), date(2023, 1, 1))
    except ValueError:
        pass
    else:
        raise AssertionError("an interval ending before its start must be refused")


def test_months_after_and_before_year_end_and_fiscal_year_start() -> None:
    assert dates.months_after(date(2023, 3, 15), 24) == date(2025, 3, 15)
    assert dates.months_after(date(2024, 2, 29), 24) == date(2026, 2, 28)  # clamped: no 29 February
    assert dates.months_after(date(2023, 8, 31), 6) == date(2024, 2, 29)
    assert dates.months_before_year_end(2030, 6) == date(2030, 6, 30)  # no 31 June
    assert dates.months_before_year_end(2030, 12) == date(2029, 12, 31)
    assert dates.fiscal_year_start(date(2000, 3, 1)) == date(2000, 1, 1)
    assert dates.fiscal_year_start(date(2000, 3, 1), date(1999, 7, 1)) == date(1999, 7, 1)


def test_treaty_days_in_the_logic_are_the_day_numbers_of_their_dates() -> None:
    from pyhelpers.engine.solve import Checker

    found = [s for s in Checker().static_atoms if s.name == "treaty_day" and len(s.arguments) == 5]
    assert found
    for s in found:
        y, m, d = (a.number for a in s.arguments[2].arguments)
        assert s.arguments[3].number == dates.day_number(date(y, m, d)), str(s)
