import math

import pytest

from ratings.systems.fibs import (
    FibsRating,
    experience_factor,
    match_winning_chance,
    points_at_stake,
    underdog_chance,
)

from .helpers import experienced, match


def test_a_1500_beating_a_1700_over_three_points_gains_4_146():
    result = FibsRating().run(
        [match(1, "ann", "bob", 3, "a")],
        starting_ratings={"ann": experienced("ann", 1500.0), "bob": experienced("bob", 1700.0)},
    )
    assert result.ratings["ann"].rating - 1500.0 == pytest.approx(4.146, abs=5e-4)
    assert result.ratings["bob"].rating - 1700.0 == pytest.approx(-4.146, abs=5e-4)


def test_the_underdog_chance_follows_the_fibs_formula():
    assert underdog_chance(200.0, 3) == pytest.approx(1.0 / (10.0 ** (200.0 * math.sqrt(3) / 2000.0) + 1.0))
    assert underdog_chance(200.0, 3) == pytest.approx(0.4015960, abs=1e-7)
    assert underdog_chance(-200.0, 3) == underdog_chance(200.0, 3)


def test_the_favourite_wins_with_the_complement_of_the_underdog_chance():
    assert match_winning_chance(1700.0, 1500.0, 3) == pytest.approx(1.0 - underdog_chance(200.0, 3))
    assert match_winning_chance(1500.0, 1700.0, 3) == pytest.approx(underdog_chance(200.0, 3))


def test_the_winner_of_an_even_match_gains_two_sqrt_n_points():
    assert points_at_stake(0.5, 9) == pytest.approx(6.0)


@pytest.mark.parametrize(
    ("experience", "factor"),
    [(0, 5.0), (100, 4.0), (250, 2.5), (399, 1.01), (400, 1.0), (1000, 1.0)],
)
def test_the_new_player_factor_shrinks_from_five_to_one_over_400_points(experience, factor):
    assert experience_factor(experience) == pytest.approx(factor)


def test_a_newcomer_gains_five_times_what_an_experienced_winner_would():
    result = FibsRating().run(
        [match(1, "new", "old", 5, "a")],
        starting_ratings={"old": experienced("old", 1500.0)},
    )
    stake = points_at_stake(0.5, 5)
    assert result.ratings["new"].rating == pytest.approx(1500.0 + 5.0 * stake)
    assert result.ratings["old"].rating == pytest.approx(1500.0 - stake)


def test_experience_counts_the_current_match_only_when_asked():
    history = [match(1, "new", "old", 5, "a")]
    starting = {"old": experienced("old", 1500.0)}
    stake = points_at_stake(0.5, 5)
    by_the_help = FibsRating().run(history, starting_ratings=starting)
    by_the_club = FibsRating(experience_includes_current=True).run(history, starting_ratings=starting)
    assert by_the_help.ratings["new"].rating == pytest.approx(1500.0 + 5.0 * stake)
    assert by_the_club.ratings["new"].rating == pytest.approx(1500.0 + 4.95 * stake)


def test_experience_is_the_sum_of_match_lengths_played():
    result = FibsRating().run([match(1, "ann", "bob", 5, "a"), match(2, "ann", "cid", 7, "b", day=1)])
    assert result.ratings["ann"].experience == 12
    assert result.ratings["ann"].matches == 2
    assert result.ratings["bob"].experience == 5


def test_a_player_is_provisional_until_400_points_of_experience():
    system = FibsRating()
    short_of_it = system.run([match(i, "ann", f"p{i}", 11, "a", day=i) for i in range(36)])
    enough = system.run([match(i, "ann", f"p{i}", 11, "a", day=i) for i in range(37)])
    assert short_of_it.ratings["ann"].provisional
    assert not enough.ratings["ann"].provisional
    assert system.is_provisional(system.new_rating("zoe"))


def test_a_longer_match_moves_fibs_ratings_more_than_a_shorter_one():
    starting = {"ann": experienced("ann", 1500.0), "bob": experienced("bob", 1500.0)}
    short = FibsRating().run([match(1, "ann", "bob", 1, "a")], starting_ratings=starting)
    long = FibsRating().run([match(1, "ann", "bob", 11, "a")], starting_ratings=starting)
    assert long.ratings["ann"].rating - 1500.0 > short.ratings["ann"].rating - 1500.0 > 0.0


def test_fibs_predictions_sum_to_one_and_carry_no_deviation():
    prediction = FibsRating().predict(1620.0, 1480.0, 7)
    assert prediction.p_a + prediction.p_b == pytest.approx(1.0)
    assert prediction.p_a == pytest.approx(match_winning_chance(1620.0, 1480.0, 7))
    assert prediction.difference_deviation is None
    assert prediction.p_a_low is None and prediction.p_a_high is None


def test_each_match_yields_a_rating_change_for_both_players_with_the_chances_beforehand():
    result = FibsRating().run(
        [match(7, "ann", "bob", 3, "a")],
        starting_ratings={"ann": experienced("ann", 1500.0), "bob": experienced("bob", 1700.0)},
    )
    ann, bob = result.changes
    assert (ann.match_id, ann.player, ann.opponent, ann.won) == (7, "ann", "bob", True)
    assert (bob.player, bob.won) == ("bob", False)
    assert ann.expected == pytest.approx(underdog_chance(200.0, 3))
    assert ann.expected + bob.expected == pytest.approx(1.0)
    assert ann.delta == pytest.approx(-bob.delta)
