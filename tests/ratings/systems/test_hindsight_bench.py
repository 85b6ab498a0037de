"""The hindsight bound of the accuracy bench (bench/ratings_hindsight.py)."""

import math
from dataclasses import replace

import numpy as np

from bench.ratings_hindsight import hindsight_chances
from ratings import calibration

from .helpers import match
from .test_calibration import league


def test_a_forecast_never_reads_its_own_result():
    history = league(6)
    start = calibration.cut(history, 0.8)
    chances = hindsight_chances(history, start, 180.0, 2.0)
    for i in (start, len(history) - 1):
        flipped = [*history[:i], replace(history[i], winner="b" if history[i].winner == "a" else "a"), *history[i + 1:]]
        assert hindsight_chances(flipped, i, 180.0, 2.0)[0] == chances[i - start]


def test_it_reads_the_results_after_the_match_too():
    # Ann and Bob are even until day 10; from day 11 one of them wins every match: with hindsight
    # the match of day 10 already favours him
    even = [match(i, "ann", "bob", 5, "a" if i % 2 else "b", i) for i in range(10)]
    day_ten = match(10, "ann", "bob", 5, "a", 10)
    for later_winner in ("a", "b"):
        history = [*even, day_ten, *(match(11 + i, "ann", "bob", 5, later_winner, 11 + i) for i in range(10))]
        for half_life in (30.0, math.inf):
            chance = hindsight_chances(history, 10, half_life, 1.0)[0]
            assert chance > 0.6 if later_winner == "a" else chance < 0.4


def test_equal_players_are_forecast_as_even():
    history = [match(i, "ann", "bob", 7, "a" if i % 2 else "b", i) for i in range(20)]
    history.append(match(20, "ann", "bob", 7, "a", 20))
    np.testing.assert_allclose(hindsight_chances(history, 20, math.inf, 2.0), [0.5], atol=1e-12)
