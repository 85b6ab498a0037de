"""The accuracy bench's variants of crawford (bench/ratings_newcomers.py)."""

from dataclasses import replace

import numpy as np
import pytest

from bench.ratings_newcomers import OFFSET_CHOICES, CrawfordVariant, FittedNewcomerOffset
from ratings import calibration
from ratings.systems import CrawfordParameters

from .helpers import match
from .test_calibration import league


@pytest.mark.parametrize("mode", calibration.MODES)
@pytest.mark.parametrize("parameters", [CrawfordParameters(), CrawfordParameters(match_growth=1.0, initial_volatility=0.2)])
def test_with_neither_change_the_variant_forecasts_as_crawford(mode, parameters):
    history = league(4)
    start = calibration.cut(history, 0.6)
    variant = CrawfordVariant(parameters=parameters)(history, mode, start, len(history))
    crawford = calibration.chances(history, parameters, mode, start, len(history))
    np.testing.assert_allclose(variant, crawford, rtol=0, atol=1e-12)


def test_a_newcomer_starts_below_the_established_players_by_the_offset():
    history = league(5)
    start = calibration.cut(history, 0.5)
    newcomer = replace(history[start], player_b="newcomer")
    extended = [*history[:start], newcomer]
    plain = CrawfordVariant()(extended, "frozen", start, start + 1)[0]
    at_the_mean = CrawfordVariant(newcomer_offset=0.0)(extended, "frozen", start, start + 1)[0]
    below = CrawfordVariant(newcomer_offset=-100.0)(extended, "frozen", start, start + 1)[0]
    assert below > at_the_mean and below > plain  # player A faces a newcomer rated below the established players
    assert at_the_mean != plain


def test_a_deviation_floor_keeps_a_regulars_rating_moving():
    # Ann beats Bob week after week: with the deviation kept at 150 every win moves both ratings
    # by more than once their deviations have shrunk, so Ann is the clearer favourite
    history = [match(i, "ann", "bob", 5, "a", 7 * i) for i in range(40)]
    history.append(match(40, "ann", "bob", 5, "a", 7 * 40))
    plain = CrawfordVariant()(history, "frozen", 40, 41)[0]
    floored = CrawfordVariant(deviation_floor=150.0)(history, "frozen", 40, 41)[0]
    assert 0.5 < plain < floored


def test_the_fitted_offset_is_the_choice_with_the_least_loss_on_the_matches_before_the_forecasts():
    history = league(9)
    start = calibration.cut(history, 0.7)
    first = calibration.cut(history, 0.35)
    won = calibration.a_won(history)[first:start]
    losses = {offset: calibration.log_losses(CrawfordVariant(newcomer_offset=offset)(history, "online", first, start),
                                             won).mean() for offset in OFFSET_CHOICES}
    fitted = FittedNewcomerOffset()
    assert fitted.choose(history, start) == min(losses, key=losses.get)
    flipped = history[:start] + [replace(r, winner="b" if r.winner == "a" else "a") for r in history[start:]]
    assert fitted.choose(flipped, start) == fitted.choose(history, start)
    np.testing.assert_array_equal(
        fitted(history, "frozen", start, len(history)),
        CrawfordVariant(newcomer_offset=fitted.choose(history, start))(history, "frozen", start, len(history)))
