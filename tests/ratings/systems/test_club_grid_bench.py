"""The club grid bench (bench/ratings_club_grid.py) scores the same clubs every time it runs."""

from bench.ratings_club_grid import club


def test_a_club_of_the_grid_is_the_same_history_every_time_in_date_order_and_cut_between_days():
    data = club(1, 0.6, 0.1)
    again = club(1, 0.6, 0.1)
    assert (len(data.history), data.players) == (2785, 69)
    assert again.history == data.history
    days = [record.played_on for record in data.history]
    assert days == sorted(days) and (days[0].isoformat(), days[-1].isoformat()) == ("2023-01-01", "2025-12-30")
    cut = data.cut(0.8)
    assert cut == 2221 and days[cut - 1] < days[cut]
    other = club(2, 1.5, 0.6)
    assert other.history != data.history
