"""Invariants of the rating systems, checked on generated histories."""

import math
from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.systems import CrawfordRating, FibsRating

from .helpers import OPENING_DAY, experienced, match

lengths = st.integers(min_value=1, max_value=25)
ratings = st.floats(min_value=800.0, max_value=2300.0)
winners = st.sampled_from("ab")

histories = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=9),
        st.integers(min_value=0, max_value=9),
        lengths,
        winners,
        st.integers(min_value=0, max_value=400),
    ).filter(lambda t: t[0] != t[1]),
    max_size=60,
)


def as_history(raw):
    """Match records from generated tuples, in time order."""
    ordered = sorted(raw, key=lambda t: t[4])
    return [match(i, f"p{a}", f"p{b}", n, w, day=day) for i, (a, b, n, w, day) in enumerate(ordered)]


@settings(deadline=None)
@given(ratings, ratings, lengths, winners)
def test_fibs_is_zero_sum_between_two_experienced_players(rating_a, rating_b, length, winner):
    result = FibsRating().run(
        [match(1, "ann", "bob", length, winner)],
        starting_ratings={"ann": experienced("ann", rating_a), "bob": experienced("bob", rating_b)},
    )
    gained = result.ratings["ann"].rating - rating_a
    lost = rating_b - result.ratings["bob"].rating
    assert math.isclose(gained, lost, rel_tol=1e-9, abs_tol=1e-9)
    assert (gained > 0) == (winner == "a")


@settings(max_examples=60, deadline=None)
@given(histories)
def test_ratings_stay_finite(raw):
    history = as_history(raw)
    for system in (FibsRating(), CrawfordRating()):
        for rating in system.run(history).ratings.values():
            assert math.isfinite(rating.rating)
            if rating.deviation is not None:
                assert math.isfinite(rating.deviation) and rating.deviation > 0.0
                assert math.isfinite(rating.volatility) and rating.volatility > 0.0


@settings(max_examples=60, deadline=None)
@given(histories, st.integers(min_value=-3000, max_value=3000))
def test_shifting_a_whole_history_in_time_changes_no_rating(raw, shift):
    history = as_history(raw)
    shifted = [
        type(record)(record.match_id, record.played_on + timedelta(days=shift), record.player_a,
                     record.player_b, record.length, record.winner)
        for record in history
    ]
    for system in (FibsRating(), CrawfordRating()):
        before = system.run(history).ratings
        after = system.run(shifted).ratings
        assert {p: r.rating for p, r in before.items()} == {p: r.rating for p, r in after.items()}


@settings(max_examples=60, deadline=None)
@given(st.permutations(range(5)), st.lists(lengths, min_size=5, max_size=5), st.lists(winners, min_size=5, max_size=5))
def test_the_order_of_independent_matches_on_one_day_does_not_matter(order, match_lengths, results):
    # five matches between ten different players on the same day, after a first day of play
    opening = [match(100 + i, f"p{2 * i}", f"p{(2 * i + 3) % 10}", 3, "a") for i in range(5)]
    same_day = [match(i, f"p{2 * i}", f"p{2 * i + 1}", match_lengths[i], results[i], day=40) for i in range(5)]
    permuted = [same_day[i] for i in order]
    for system in (FibsRating(), CrawfordRating()):
        assert system.run(opening + same_day).ratings == system.run(opening + permuted).ratings


@settings(max_examples=40, deadline=None)
@given(lengths, winners, st.integers(min_value=1, max_value=300))
def test_for_crawford_the_same_matches_further_apart_give_other_deviations(length, winner, gap):
    close = [match(1, "ann", "bob", length, winner), match(2, "ann", "bob", length, winner, day=1)]
    apart = [match(1, "ann", "bob", length, winner), match(2, "ann", "bob", length, winner, day=1 + gap)]
    assert CrawfordRating().run(close).ratings["ann"].deviation < CrawfordRating().run(apart).ratings["ann"].deviation
    assert FibsRating().run(close).ratings["ann"].rating == FibsRating().run(apart).ratings["ann"].rating


@settings(max_examples=100, deadline=None)
@given(ratings, ratings, st.floats(min_value=30.0, max_value=350.0), st.floats(min_value=30.0, max_value=350.0),
       st.floats(min_value=0.03, max_value=0.12), lengths, winners)
def test_the_history_engine_agrees_with_the_reference_glicko2_update(
    rating_a, rating_b, deviation_a, deviation_b, volatility, length, winner
):
    from ratings.systems.glicko import GameResult, Glicko2Rating, rating_period_update

    system = CrawfordRating()
    ann = experienced("ann", rating_a, deviation=deviation_a, volatility=volatility, last_played=OPENING_DAY)
    bob = experienced("bob", rating_b, deviation=deviation_b, volatility=volatility, last_played=ann.last_played)
    rated = system.run([match(1, "ann", "bob", length, winner)], starting_ratings={"ann": ann, "bob": bob}).ratings
    k = system.parameters.length_factor(length)
    for player, opponent, score in ((ann, bob, float(winner == "a")), (bob, ann, float(winner == "b"))):
        reference = rating_period_update(
            Glicko2Rating(player.rating, player.deviation, player.volatility),
            [GameResult(opponent.rating, opponent.deviation, score, k)],
            tau=system.parameters.tau,
            growth_periods=0.0,
        )
        assert math.isclose(rated[player.player].rating, reference.rating, abs_tol=1e-7)
        assert math.isclose(rated[player.player].deviation, reference.deviation, abs_tol=1e-7)
        assert math.isclose(rated[player.player].volatility, reference.volatility, abs_tol=1e-9)
