import math
from datetime import date

import pytest

from ratings.systems import (
    CrawfordParameters,
    CrawfordRating,
    FibsRating,
    PlayerRating,
    RatingInputError,
)
from ratings.systems.fibs import match_winning_chance
from ratings.systems.glicko import (
    GameResult,
    Glicko2Rating,
    deviation_after,
    rating_period_update,
)

from .helpers import OPENING_DAY, experienced, match


def test_glickmans_worked_example_is_reproduced():
    # Glickman (2013) prints 1464.06, 151.52 and 0.05999. He rounds μ' to -0.2069 before
    # converting back (the unrounded rating is 1464.0507) and cuts σ' = 0.0599960 to 0.05999.
    updated = rating_period_update(
        Glicko2Rating(1500.0, 200.0, 0.06),
        [GameResult(1400.0, 30.0, 1.0), GameResult(1550.0, 100.0, 0.0), GameResult(1700.0, 300.0, 0.0)],
        tau=0.5,
    )
    assert updated.rating == pytest.approx(1464.06, abs=0.01)
    assert updated.deviation == pytest.approx(151.52, abs=0.005)
    assert 0.05999 <= updated.volatility < 0.06000


def test_an_effective_length_of_25_points_gives_a_length_factor_of_one():
    assert CrawfordParameters(effective_lengths={25: 25.0}).length_factor(25) == 1.0
    assert CrawfordParameters(length_constant=2.0).effective_length(25) == 25.0
    assert CrawfordParameters(length_constant=2.0).length_factor(25) == 1.0


def test_the_effective_length_grows_by_half_the_length_constant_per_point():
    parameters = CrawfordParameters(length_constant=0.6)
    assert parameters.effective_length(1) == 1.0
    assert parameters.effective_length(3) == pytest.approx(1.6)
    assert parameters.effective_length(11) == pytest.approx(4.0)


def test_a_25_point_match_is_rated_as_plain_glicko2():
    system = CrawfordRating(CrawfordParameters(effective_lengths={25: 25.0}, tau=0.5))
    ann = experienced("ann", 1500.0, deviation=200.0, volatility=0.06, last_played=OPENING_DAY)
    bob = experienced("bob", 1400.0, deviation=30.0, volatility=0.06, last_played=OPENING_DAY)
    result = system.run([match(1, "ann", "bob", 25, "a")], starting_ratings={"ann": ann, "bob": bob})
    for player, opponent, score in ((ann, bob, 1.0), (bob, ann, 0.0)):
        plain = rating_period_update(
            Glicko2Rating(player.rating, player.deviation, player.volatility),
            [GameResult(opponent.rating, opponent.deviation, score)],
            tau=0.5,
            growth_periods=0.0,
        )
        rated = result.ratings[player.player]
        assert rated.rating == pytest.approx(plain.rating, abs=1e-9)
        assert rated.deviation == pytest.approx(plain.deviation, abs=1e-9)
        assert rated.volatility == pytest.approx(plain.volatility, abs=1e-12)


def test_with_no_deviation_the_expected_score_is_the_fibs_curve_at_the_effective_length():
    system = CrawfordRating(CrawfordParameters(length_constant=2.0))
    ann = PlayerRating("ann", 1620.0, 0.0, 0.06, 0, 0, None, False)
    bob = PlayerRating("bob", 1480.0, 0.0, 0.06, 0, 0, None, False)
    for length in (1, 5, 11, 25):
        assert system.predict(ann, bob, length).p_a == pytest.approx(match_winning_chance(1620.0, 1480.0, length))


def test_deviation_grows_with_the_days_away_from_the_board():
    # 90 days are 3 periods of 30: sqrt(200² + (0.06·173.7178)²·3) = 200.8131
    assert deviation_after(200.0, 0.06, 3.0) == pytest.approx(200.8131495008135, abs=1e-9)
    system = CrawfordRating(CrawfordParameters(period_days=30.0, maximum_deviation=300.0))
    ann = experienced("ann", 1500.0, deviation=200.0, volatility=0.06, last_played=date(2025, 1, 1))
    bob = experienced("bob", 1500.0, deviation=200.0, volatility=0.06, last_played=date(2025, 4, 1))
    result = system.run([match(1, "ann", "bob", 5, "a", day=90)], starting_ratings={"ann": ann, "bob": bob})
    ann_change, bob_change = result.changes
    assert ann_change.deviation_before == pytest.approx(200.8131495008135, abs=1e-9)
    assert bob_change.deviation_before == pytest.approx(200.0, abs=1e-9)
    assert system.rating_as_of(ann, date(2025, 4, 1)).deviation == pytest.approx(200.8131495008135, abs=1e-9)


def test_matches_on_the_same_day_add_no_deviation_growth_between_them():
    result = CrawfordRating().run([match(1, "ann", "bob", 5, "a"), match(2, "ann", "cid", 5, "b")])
    first_for_ann = result.changes[0]
    second_for_ann = result.changes[2]
    assert second_for_ann.deviation_before == first_for_ann.deviation_after


def test_deviation_never_grows_past_a_new_players():
    system = CrawfordRating()
    ann = experienced("ann", 1500.0, deviation=80.0, volatility=0.06, last_played=date(2000, 1, 1))
    assert system.rating_as_of(ann, date(2025, 1, 1)).deviation == system.parameters.deviation_cap == 150.0


def test_a_new_player_is_provisional_until_his_deviation_falls_below_the_threshold():
    system = CrawfordRating(CrawfordParameters(initial_deviation=200.0, provisional_deviation=100.0,
                                               initial_volatility=0.06, tau=0.5))
    assert system.new_rating("zoe").provisional
    history = [match(i, "ann", f"p{i % 7}", 7, "ab"[i % 2], day=i // 10) for i in range(200)]
    settled = system.run(history).ratings["ann"]
    assert settled.deviation < 100.0 and not settled.provisional
    assert not system.is_provisional(settled)
    years_later = system.rating_as_of(settled, date(2035, 1, 1))
    assert years_later.provisional and system.is_provisional(years_later)


def test_crawford_predictions_sum_to_one_and_bracket_the_chance():
    system = CrawfordRating()
    ann = PlayerRating("ann", 1650.0, 80.0, 0.06, 100, 20, None, False)
    bob = PlayerRating("bob", 1500.0, 150.0, 0.06, 100, 20, None, True)
    prediction = system.predict(ann, bob, 7)
    assert prediction.p_a + prediction.p_b == pytest.approx(1.0)
    assert prediction.p_a_low < prediction.p_a < prediction.p_a_high
    assert prediction.difference_deviation == pytest.approx((80.0**2 + 150.0**2) ** 0.5)
    reversed_prediction = system.predict(bob, ann, 7)
    assert reversed_prediction.p_a == pytest.approx(prediction.p_b)


def test_uncertainty_pulls_the_favourites_chance_towards_even():
    system = CrawfordRating()
    sure = PlayerRating("ann", 1650.0, 30.0, 0.06, 0, 0, None, False)
    unsure = PlayerRating("ann", 1650.0, 300.0, 0.06, 0, 0, None, True)
    bob = PlayerRating("bob", 1500.0, 30.0, 0.06, 0, 0, None, False)
    assert 0.5 < system.predict(unsure, bob, 7).p_a < system.predict(sure, bob, 7).p_a


def test_a_longer_match_moves_crawford_ratings_more_than_a_shorter_one():
    system = CrawfordRating()
    short = system.run([match(1, "ann", "bob", 1, "a")]).ratings["ann"]
    long = system.run([match(1, "ann", "bob", 11, "a")]).ratings["ann"]
    assert long.rating - 1500.0 > short.rating - 1500.0 > 0.0
    assert long.deviation < short.deviation


def test_rating_the_same_history_twice_gives_the_same_ratings():
    history = [match(i, f"p{i % 5}", f"p{(i * 3 + 1) % 5 + 5}", 1 + 2 * (i % 6), "ab"[i % 3 == 0], day=i) for i in range(60)]
    first = CrawfordRating().run(history)
    second = CrawfordRating().run(history)
    assert first == second


def test_a_history_that_goes_back_in_time_is_refused():
    with pytest.raises(RatingInputError, match="time order"):
        CrawfordRating().run([match(1, "ann", "bob", 5, "a", day=3), match(2, "ann", "bob", 5, "a", day=2)])


@pytest.mark.parametrize(
    "bad_match",
    [match(1, "ann", "bob", 0, "a"), match(1, "ann", "bob", 5, "c"), match(1, "ann", "ann", 5, "a")],
)
def test_a_match_that_cannot_be_rated_is_refused_with_its_reason(bad_match):
    for system in (CrawfordRating(), FibsRating()):
        with pytest.raises(RatingInputError, match="match 1"):
            system.run([bad_match])


def test_progress_is_reported_up_to_the_last_match():
    reports = []
    CrawfordRating().run([match(i, "ann", "bob", 3, "a") for i in range(25)], progress=lambda done, total: reports.append((done, total)))
    assert reports[-1] == (25, 25)


def round_robin(rounds, favourite_wins):
    """Ten players meeting each other every week: the lower number always wins, or wins every
    other meeting."""
    history = []
    for week in range(rounds):
        for a in range(10):
            for b in range(a + 1, 10):
                winner = "a" if favourite_wins or (week + a + b) % 2 else "b"
                history.append(match(len(history), f"p{a}", f"p{b}", 5, winner, day=7 * week))
    return history


def test_players_who_arrive_after_the_founders_start_below_them_with_a_deviation_of_their_own():
    system = CrawfordRating(CrawfordParameters(newcomer_offset=-120.0, newcomer_deviation=180.0))
    # ten players, each pair once a week: after the first week every one has 9 matches; in the
    # second p0 meets the others in turn, so p1 reaches 10 at the 46th match, p7 (the 8th) at the 52nd
    history = round_robin(5, True) + [match(999, "zoe", "p0", 5, "a", day=40)]
    assert system.settled_on(history).founded_after == 52
    for run in (system.run(history), system.run_sequential(history)):
        first = {}
        for change in run.changes:
            first.setdefault(change.player, (change.rating_before, change.deviation_before))
        assert [first[f"p{n}"] for n in range(10)] == [(1500.0, pytest.approx(150.0, abs=1e-9))] * 10
        zoe = run.changes[-2]
        assert (zoe.player, zoe.rating_before, zoe.deviation_before) == ("zoe", 1380.0, pytest.approx(180.0, abs=1e-9))
    # a history that never has eight established players has founders only
    few = [match(i, f"p{i % 7}", f"p{(i + 1) % 7}", 3, "a", day=i) for i in range(200)] + [
        match(999, "zoe", "p0", 5, "a", day=300)]
    assert system.settled_on(few).founded_after is None
    assert system.run(few).changes[-2].rating_before == 1500.0
    assert system.run_sequential(few).changes[-2].rating_before == 1500.0


def test_the_founders_are_the_same_whether_a_history_is_rated_at_once_or_continued():
    system = CrawfordRating(CrawfordParameters(newcomer_offset=-150.0, newcomer_deviation=120.0))
    history = round_robin(6, False) + [match(1000 + i, f"new{i}", f"p{i}", 7, "ab"[i % 2], day=50 + i)
                                       for i in range(5)]
    whole = system.run(history)
    continued = system.run(history[200:], starting_ratings=system.run(history[:200]).ratings)
    for run in (continued, system.run_sequential(history)):
        assert {p: (r.rating, r.deviation) for p, r in run.ratings.items()} == {
            p: (pytest.approx(r.rating, abs=1e-9), pytest.approx(r.deviation, abs=1e-9)) for p, r in whole.ratings.items()}
    assert [c.rating_before for c in whole.changes[-10::2]] == [1350.0] * 5


def test_growth_per_match_adds_w_sigma_squared_to_the_variance_before_the_update():
    # w = 1 makes the match a Glicko-2 rating period of its own: step 6 with t = 1
    system = CrawfordRating(CrawfordParameters(effective_lengths={25: 25.0}, tau=0.5, match_growth=1.0))
    ann = experienced("ann", 1500.0, deviation=200.0, volatility=0.06, last_played=OPENING_DAY)
    bob = experienced("bob", 1400.0, deviation=30.0, volatility=0.06, last_played=OPENING_DAY)
    rated = system.run([match(1, "ann", "bob", 25, "a")], starting_ratings={"ann": ann, "bob": bob}).ratings["ann"]
    plain = rating_period_update(
        Glicko2Rating(1500.0, 200.0, 0.06), [GameResult(1400.0, 30.0, 1.0)], tau=0.5, growth_periods=1.0
    )
    assert rated.rating == pytest.approx(plain.rating, abs=1e-9)
    assert rated.deviation == pytest.approx(plain.deviation, abs=1e-9)
