"""Two changes to crawford's model tried on the real clubs (issue #23), as forecasters for the
accuracy bench (`ratings.calibration.chances` takes any forecaster(history, mode, start, end)).

* A newcomer's start relative to the players he joins: with `newcomer_offset` given, a new
  player starts at the mean rating of the established players (ESTABLISHED_MATCHES matches or
  more, at least ESTABLISHED_PLAYERS of them; else at 1500) plus that many rating points,
  instead of at 1500 like everyone else. In a club most newcomers are beginners, so a negative offset is the prior
  that they start below the players they meet. (A start below 1500 for every player changes
  nothing: it shifts everyone alike.)
* A floor on the deviation: before each match a deviation below `deviation_floor` is raised to
  it, so that a regular's rating keeps moving like FIBS's with its constant step.

Both read every player's state before every match, so they are written out sequentially here,
match by match with the arithmetic of `CrawfordRating` (with neither change the forecasts are
crawford's to the last bit); the vectorised engine, which rates batches of matches that share
no player at once, could not express the first without a new batching. A new player's
deviation is estimated on the matches before the forecasts, as crawford's runs do.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ratings.systems import CrawfordParameters, CrawfordRating, MatchRecord, params
from ratings.systems.crawford import _THREE_OVER_PI_SQUARED, _one_game
from ratings.systems.glicko import GLICKO2_SCALE
from ratings.systems.history import day_number


def newcomer_state(states: dict, p: CrawfordParameters, offset: float | None, day: float) -> list:
    """A new player's state [μ, φ, σ², ln σ², day of the last match, matches]: at the start
    rating, or (offset given, ESTABLISHED_PLAYERS established players or more) at their mean
    plus `offset` rating points."""
    mu = (p.initial_rating - 1500.0) / GLICKO2_SCALE
    if offset is not None:
        established = [s[0] for s in states.values() if s[5] >= params.ESTABLISHED_MATCHES]
        if len(established) >= params.ESTABLISHED_PLAYERS:
            mu = math.fsum(established) / len(established) + offset / GLICKO2_SCALE
    sigma2 = p.initial_volatility * p.initial_volatility
    return [mu, p.initial_deviation / GLICKO2_SCALE, sigma2, math.log(sigma2), day, 0]


def grown_deviation(state: list, day: float, p: CrawfordParameters) -> float:
    """A player's deviation (Glicko-2 units) grown by the days since his last match, never past
    the cap (a deviation already above it is kept)."""
    phi = state[1]
    if day > state[4]:
        cap = p.deviation_cap / GLICKO2_SCALE
        grown = math.sqrt(phi * phi + state[2] * (day - state[4]) / p.period_days)
        phi = grown if grown <= cap else max(phi, cap)
    return phi


@dataclass(frozen=True)
class CrawfordVariant:
    """crawford with a newcomer's start relative to the established players and a floor on the
    deviation (both in rating points; None and 0 are crawford itself)."""

    newcomer_offset: float | None = None
    deviation_floor: float = 0.0
    parameters: CrawfordParameters = field(default_factory=CrawfordParameters)

    def __call__(self, history: Sequence[MatchRecord], mode: str, start: int, end: int) -> np.ndarray:
        """Player A's chance in history[start:end]: online, each match forecast from everything
        before it; frozen, from the state after history[:start] alone (deviations grown to the
        day)."""
        p = self.parameters
        scale = GLICKO2_SCALE
        floor = self.deviation_floor / scale
        exp_minus_tau = math.exp(-p.tau)
        # per player: [μ, φ, σ², ln σ², day of the last match, matches]
        states: dict = {}

        def newcomer(day: float) -> list:
            return newcomer_state(states, p, self.newcomer_offset, day)

        def deviation_on(state: list, day: float) -> float:
            return max(grown_deviation(state, day, p), floor)

        chances = []
        for index, record in enumerate(history[:end]):
            day = float(day_number(record.played_on))
            k = p.length_factor(record.length)
            frozen = mode == "frozen" and index >= start
            a = states.get(record.player_a) or newcomer(day)
            b = states.get(record.player_b) or newcomer(day)
            phi_a, phi_b = deviation_on(a, day), deviation_on(b, day)
            spread_a = 1.0 + _THREE_OVER_PI_SQUARED * phi_a * phi_a
            spread_b = 1.0 + _THREE_OVER_PI_SQUARED * phi_b * phi_b
            if index >= start:
                chances.append(1.0 / (1.0 + math.exp(-k * (a[0] - b[0]) / math.sqrt(spread_a + spread_b - 1.0))))
            if frozen:
                continue
            states[record.player_a], states[record.player_b] = a, b
            score = 1.0 if record.winner == "a" else 0.0
            new_a = _one_game(a[0], phi_a, a[2], a[3], b[0], k / math.sqrt(spread_b), score, p.tau, exp_minus_tau,
                              p.tolerance, p.match_growth)
            new_b = _one_game(b[0], phi_b, b[2], b[3], a[0], k / math.sqrt(spread_a), 1.0 - score, p.tau,
                              exp_minus_tau, p.tolerance, p.match_growth)
            a[:4], b[:4] = new_a, new_b
            a[4] = b[4] = day
            a[5] += 1
            b[5] += 1
        return np.array(chances)


OFFSET_CHOICES = (None, 0.0, -25.0, -50.0, -100.0, -150.0)
"""The newcomer offsets `FittedNewcomerOffset` chooses from (None: a newcomer starts at 1500)."""


@dataclass(frozen=True)
class FittedNewcomerOffset:
    """The newcomer offset fitted on the past, as a site's calibration would fit it: before each
    forecast period, the one of OFFSET_CHOICES whose online forecasts of the second half of the
    matches before it (by date) have the least log loss."""

    def choose(self, history: Sequence[MatchRecord], start: int) -> float | None:
        """The offset chosen on history[:start]."""
        from ratings.calibration import a_won, cut, log_losses

        first = cut(history, 0.5 * start / len(history)) if start else 0
        won = a_won(history)[first:start]
        return min(OFFSET_CHOICES, key=lambda offset: float(
            log_losses(CrawfordVariant(newcomer_offset=offset)(history, "online", first, start), won).mean()))

    def __call__(self, history: Sequence[MatchRecord], mode: str, start: int, end: int) -> np.ndarray:
        return CrawfordVariant(newcomer_offset=self.choose(history, start))(history, mode, start, end)
