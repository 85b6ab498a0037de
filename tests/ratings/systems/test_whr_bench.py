"""The accuracy bench's Whole-History Rating (bench/whr.py): the posterior mode and its forecasts."""

import math

import pytest

from bench.whr import POINTS, WholeHistory, WhrParameters, forecasts

from .helpers import match


def test_one_match_gives_the_posterior_mode_of_both_players():
    # Ann beats Bob once over 1 point (k = 1): by symmetry x_ann = −x_bob = x, and the mode solves
    # 1 − σ(2x) = x/s² with s = 200 rating points in logit units (found here by bisection).
    parameters = WhrParameters(step=3.0, spread=200.0, length_constant=2.0, tolerance=1e-13, sweeps=500)
    model = WholeHistory(parameters)
    model.add([match(1, "ann", "bob", 1, "a")])
    assert model.fit() < 500
    s2 = (200.0 * POINTS) ** 2
    low, high = 0.0, 1.0
    for _ in range(200):
        middle = (low + high) / 2.0
        if 1.0 - 1.0 / (1.0 + math.exp(-2.0 * middle)) > middle / s2:
            low = middle
        else:
            high = middle
    assert model.x["ann"][0] == pytest.approx(low, abs=1e-9)
    assert model.x["bob"][0] == pytest.approx(-low, abs=1e-9)
    # its variance: 1/(σ'(2x)·1 + 1/s²) when the opponent is held fixed
    p = 1.0 / (1.0 + math.exp(-2.0 * low))
    assert model.variance["ann"] == pytest.approx(1.0 / (p * (1.0 - p) + 1.0 / s2), rel=1e-9)


def test_forecasts_come_from_the_past_only_and_are_symmetric():
    history = [match(i, "ann", "bob", 5, "a", day=i) for i in range(6)] + [match(6, "bob", "ann", 5, "a", day=6)]
    parameters = WhrParameters()
    chances = forecasts(history, 3, 7, parameters, block=1)
    assert len(chances) == 4
    # the first forecast of the held-out part is the same whatever the later results are (here
    # Bob wins them all, so he is player A: the chance is for Bob)
    flipped = history[:3] + [match(i, "bob", "ann", 5, "a", day=i) for i in range(3, 7)]
    assert forecasts(flipped, 3, 7, parameters, block=1)[0] == pytest.approx(1.0 - chances[0], abs=1e-15)
    # Ann has won every match before: she is the favourite, and as player B her chance is 1 − it
    assert chances[0] > 0.5 and chances[3] < 0.5
