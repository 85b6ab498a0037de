"""The time-series validation behind the accuracy bench and calibrate_ratings (ratings.calibration)."""

import math
import random
from dataclasses import replace

import numpy as np
import pytest

from ratings import calibration
from ratings.systems import CrawfordParameters, FibsRating

from .helpers import match


def league(seed: int, players: int = 16, days: int = 120) -> list:
    rng = random.Random(seed)
    skill = {f"p{i}": rng.gauss(0.0, 150.0) for i in range(players)}
    history = []
    for day in range(0, days, 3):
        present = list(skill)
        rng.shuffle(present)
        for a, b in zip(present[::2], present[1::2]):
            p_a = 1.0 / (1.0 + 10.0 ** (-(skill[a] - skill[b]) * math.sqrt(5) / 2000.0))
            history.append(match(len(history), a, b, 5, "a" if rng.random() < p_a else "b", day))
    return history


def test_a_cut_never_splits_a_day_and_the_origins_score_blocks_before_the_held_out_part():
    history = league(1)
    assert len(history) == 320 and calibration.cut(history, 0.8) == 256
    assert calibration.origin_blocks(history) == [(160, 192), (192, 224), (224, 256)]
    assert all(history[s - 1].played_on < history[s].played_on for s, _ in calibration.origin_blocks(history))


def test_frozen_forecasts_use_the_ratings_at_the_cut_and_online_ones_every_match_before():
    history = league(2)
    start = calibration.cut(history, 0.8)
    ratings = FibsRating().run(history[:start]).ratings
    first = history[start]
    expected = FibsRating().predict(ratings[first.player_a], ratings[first.player_b], 5).p_a
    frozen = calibration.frozen_chances(history, None, start, len(history))
    online = calibration.online_chances(history, None, start, len(history))
    assert frozen[0] == pytest.approx(expected, abs=1e-12) and online[0] == pytest.approx(expected, abs=1e-12)
    later = history[start + 40]
    assert frozen[40] == pytest.approx(
        FibsRating().predict(ratings[later.player_a], ratings[later.player_b], 5).p_a, abs=1e-12)
    assert online[40] != pytest.approx(frozen[40], abs=1e-6)


def test_the_fit_never_sees_the_held_out_part():
    history = league(3)
    start = calibration.cut(history, 0.8)
    flipped = history[:start] + [replace(r, winner="b" if r.winner == "a" else "a") for r in history[start:]]
    grid = {"initial_deviation": (80.0, 150.0, 300.0), "initial_volatility": (0.02, 0.25)}
    fits = [calibration.fit([calibration.Sample("league", h)], CrawfordParameters(), grid=grid) for h in (history, flipped)]
    assert fits[0] == fits[1]


def test_pooled_figures_weigh_each_sample_and_the_interval_resamples_within_each():
    won = np.array([True, True, True, True])
    model = calibration.Scored(np.array([0.5, 0.5, 0.8, 0.8]), won, np.array([5, 5, 7, 7]), np.array([1.0, 1.0, 0.25, 0.25]))
    base = calibration.Scored(np.array([0.5, 0.5, 0.5, 0.5]), won, np.array([5, 5, 7, 7]), np.array([1.0, 1.0, 0.25, 0.25]))
    groups = np.array([0, 0, 1, 1])
    mean, low, high = calibration.paired_interval(model, base, groups, np.random.default_rng(0), 200)
    # the second sample gains ln(0.5) − ln(0.8) per match and counts a quarter: (2·0 + 0.5·−0.4700) / 2.5
    assert mean == pytest.approx(0.5 * (math.log(0.5) - math.log(0.8)) / 2.5, abs=1e-12)
    assert low == high == pytest.approx(mean, abs=1e-12)  # each sample's matches are alike: nothing varies
    assert calibration.reliability(model) == [(0.5, 0.55, 2, 0.5, 1.0), (0.8, 1.0, 2, 0.8, 1.0)]


def test_many_origins_score_blocks_of_five_per_cent_that_never_split_a_day():
    history = league(1)
    blocks = calibration.rolling_blocks(history)
    assert [origin for origin, _, _ in blocks] == list(calibration.EVERY_ORIGINS)
    assert blocks[0][1:] == (calibration.cut(history, 0.4), calibration.cut(history, 0.45))
    assert all(history[s - 1].played_on < history[s].played_on for _, s, _ in blocks)
    assert blocks[-1][2] == len(history)


def test_many_origins_report_both_parts_and_pool_against_fibs_and_the_defaults():
    samples = [calibration.Sample("one", league(7)), calibration.Sample("two", league(8), 0.5)]
    scores = calibration.score_origins(samples, {"fibs": None, "crawford": CrawfordParameters(),
                                                 "growth": CrawfordParameters(match_growth=1.0)}, "online")
    assert len(scores.groups) == len(scores.origins) == len(scores.scored["fibs"].won)
    lines = calibration.format_origins(scores, "fibs", "crawford", np.random.default_rng(1), 200)
    assert lines[0].startswith("online forecasts, fitting part (origins 40% to 75%)")
    assert any(line.startswith("online forecasts, held-out part (origins 80% to 95%)") for line in lines)
    assert len([line for line in lines if line.strip().startswith("growth")]) == 2
    held_out = scores.origins >= 0.8
    difference = scores.scored["crawford"].loss - scores.scored["fibs"].loss
    expected = np.average(difference[held_out], weights=scores.scored["fibs"].weights[held_out])
    header = next(i for i, line in enumerate(lines) if "held-out part" in line)
    assert lines[header + 1].strip().startswith("crawford") and f"pooled {expected:+.4f} [" in lines[header + 1]
