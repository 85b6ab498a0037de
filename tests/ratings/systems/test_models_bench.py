"""The forecasters of bench/ratings_periods.py and bench/ratings_families.py: unchanged, they are
crawford's and FIBS's own forecasts, so what they measure is the change alone."""

import numpy as np
import pytest

from bench.ratings_families import ELO_CONFIGS, elo_run
from bench.ratings_newcomers import CrawfordVariant
from bench.ratings_periods import NEW100, Engine, Forecaster
from ratings import calibration
from ratings.systems import CrawfordParameters

from .test_calibration import league


@pytest.mark.parametrize("mode", calibration.MODES)
def test_with_nothing_changed_the_periods_forecaster_is_crawford(mode):
    history = league(4)
    start = calibration.cut(history, 0.6)
    mine = Forecaster()(history, mode, start, len(history))
    np.testing.assert_array_equal(mine, CrawfordVariant()(history, mode, start, len(history)))
    crawford = calibration.chances(history, CrawfordParameters(), mode, start, len(history))
    np.testing.assert_allclose(mine, crawford, rtol=0, atol=1e-12)


@pytest.mark.parametrize("mode", calibration.MODES)
def test_its_newcomer_offset_is_the_newcomer_benchs(mode):
    history = league(5)
    start = calibration.cut(history, 0.5)
    np.testing.assert_array_equal(Forecaster(NEW100)(history, mode, start, len(history)),
                                  CrawfordVariant(newcomer_offset=-100.0)(history, mode, start, len(history)))


def test_a_temperature_below_one_brings_every_forecast_towards_even():
    history = league(6)
    start = calibration.cut(history, 0.7)
    plain = Forecaster()(history, "online", start, len(history))
    cooled = Forecaster(temperature=0.8)(history, "online", start, len(history))
    logit = np.log(plain / (1 - plain))
    np.testing.assert_allclose(np.log(cooled / (1 - cooled)), 0.8 * logit, rtol=0, atol=1e-9)


def test_day_periods_forecast_a_days_matches_from_its_start():
    history = league(7)
    start = calibration.cut(history, 0.5)
    periods = Forecaster(Engine(periods=True))(history, "online", start, len(history))
    frozen = Forecaster(Engine(periods=True))(history, "frozen", start, len(history))
    first_day = [i for i in range(start, len(history)) if history[i].played_on == history[start].played_on]
    np.testing.assert_allclose(periods[: len(first_day)], frozen[: len(first_day)], rtol=0, atol=1e-12)


def test_the_elo_of_fibs_settings_is_fibs():
    history = league(8)
    start = len(history) // 2
    online, frozen = elo_run(history, [ELO_CONFIGS[0]], ((start, len(history)),))
    np.testing.assert_allclose(online[:, 0], calibration.chances(history, None, "online", 0, len(history)), atol=1e-9)
    np.testing.assert_allclose(frozen[(start, len(history))][:, 0],
                               calibration.chances(history, None, "frozen", start, len(history)), atol=1e-9)
