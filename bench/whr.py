"""Whole-History Rating (Coulom 2008) for the accuracy bench, with the FIBS length scaling.

Each player's strength is a time series x(t), one value per day he played, with a Wiener
process prior: x(t₂) − x(t₁) ~ Normal(0, w²·(t₂ − t₁) days), and his first value
~ Normal(0, s₀²) (a new player is drawn from the population). The chance that A beats B over N
points is the FIBS curve at the effective length S(N) = 1 + C·(N − 1)/2,

    P = 1 / (1 + 10^(−D·sqrt(S(N))/2000)),   D = r_A − r_B on the day,

so with x = r·ln 10/2000 the likelihood is the logistic σ(sqrt(S)·(x_A − x_B)). The posterior
mode of every series given all matches is found by Newton's method one player at a time (the
Hessian of a player's series is tridiagonal: the Thomas algorithm solves it in linear time),
sweeping over the players until the largest step is below a tolerance.

Unlike an incremental rating, a whole-history fit revises the past as results come in. To
forecast honestly the bench fits on the matches before a block and predicts the block from
that fit alone (`forecasts`): a player's last value is his strength, its variance (the inverse
of the series' Hessian at that point, from the forward elimination) grows by w² per day away,
and the forecast integrates both players' uncertainty, σ(μ/sqrt(1 + π·v/8)) with μ and v the
logit's mean and variance. A player first seen in the block is at 0 with variance s₀².
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from ratings.systems import CrawfordParameters, MatchRecord, params
from ratings.systems.history import day_number

POINTS = math.log(10.0) / 2000.0
"""One FIBS rating point in logit units at S = 1."""


@dataclass(frozen=True)
class WhrParameters:
    """Wiener step w (rating points per square root of a day), a new player's spread s₀
    (rating points) and the length constant C of S(N)."""

    step: float = 3.0
    spread: float = 200.0
    length_constant: float = params.LENGTH_CONSTANT
    tolerance: float = 1e-5
    sweeps: int = 60

    @cached_property
    def _lengths(self) -> CrawfordParameters:
        return CrawfordParameters(length_constant=self.length_constant)

    def factor(self, length: int) -> float:
        """sqrt(S(N)), S(N) the effective length crawford uses with this C."""
        return math.sqrt(self._lengths.effective_length(length))


class WholeHistory:
    """Whole-history fit of a list of matches; `add` more and `fit` again (warm start)."""

    def __init__(self, parameters: WhrParameters) -> None:
        self.p = parameters
        self.days: dict[str, list[int]] = {}
        self.x: dict[str, list[float]] = {}
        # per player, per time point: [(opponent, opponent's time point, k, score)]
        self.games: dict[str, list[list[tuple]]] = {}
        self.variance: dict[str, float] = {}

    def _point(self, player: str, day: int) -> int:
        days = self.days.get(player)
        if days is None:
            self.days[player], self.x[player], self.games[player] = [day], [0.0], [[]]
            return 0
        if days[-1] != day:
            if day < days[-1]:
                raise ValueError("matches must come in time order")
            days.append(day)
            self.x[player].append(self.x[player][-1])
            self.games[player].append([])
        return len(days) - 1

    def add(self, records: Sequence[MatchRecord]) -> None:
        for record in records:
            day = int(day_number(record.played_on))
            a, b = record.player_a, record.player_b
            i, j = self._point(a, day), self._point(b, day)
            k = self.p.factor(record.length)
            score = 1.0 if record.winner == "a" else 0.0
            self.games[a][i].append((b, j, k, score))
            self.games[b][j].append((a, i, k, 1.0 - score))

    def _newton(self, player: str) -> float:
        """One Newton step on a player's series; returns the largest change. Keeps the
        variance of his last point (1/the last pivot of the negated Hessian)."""
        x = self.x[player]
        days = self.days[player]
        games = self.games[player]
        m = len(x)
        prior = 1.0 / (self.p.spread * POINTS) ** 2
        w2 = (self.p.step * POINTS) ** 2
        # the negated Hessian: diagonal h, off-diagonal −c; the gradient g
        h = [0.0] * m
        g = [0.0] * m
        for t in range(m):
            xt = x[t]
            gt = ht = 0.0
            for opponent, point, k, score in games[t]:
                z = k * (xt - self.x[opponent][point])
                p = 1.0 / (1.0 + math.exp(-z)) if z >= 0.0 else math.exp(z) / (1.0 + math.exp(z))
                gt += k * (score - p)
                ht += k * k * p * (1.0 - p)
            g[t] = gt
            h[t] = ht
        g[0] -= prior * (x[0] - self.prior_mean(player))
        h[0] += prior
        c = [0.0] * m  # c[t] couples t and t + 1
        for t in range(m - 1):
            c[t] = 1.0 / (w2 * (days[t + 1] - days[t]))
            difference = x[t + 1] - x[t]
            g[t] += c[t] * difference
            g[t + 1] -= c[t] * difference
            h[t] += c[t]
            h[t + 1] += c[t]
        # Thomas algorithm on (negated Hessian)·δ = g, then x += δ
        pivot = [0.0] * m
        rhs = [0.0] * m
        pivot[0], rhs[0] = h[0], g[0]
        for t in range(1, m):
            ratio = c[t - 1] / pivot[t - 1]
            pivot[t] = h[t] - ratio * c[t - 1]
            rhs[t] = g[t] + ratio * rhs[t - 1]
        delta = [0.0] * m
        delta[-1] = rhs[-1] / pivot[-1]
        for t in range(m - 2, -1, -1):
            delta[t] = (rhs[t] + c[t] * delta[t + 1]) / pivot[t]
        largest = 0.0
        for t in range(m):
            x[t] += delta[t]
            largest = max(largest, abs(delta[t]))
        self.variance[player] = 1.0 / pivot[-1]
        return largest

    def prior_mean(self, player: str) -> float:
        """The centre of the prior on a player's first value (0: the scale's centre, 1500)."""
        return 0.0

    def newcomer_mean(self) -> float:
        """Where a player not yet fitted is forecast to stand."""
        return 0.0

    def fit(self) -> int:
        """Sweep Newton steps over all players until the largest step is below the tolerance;
        returns the number of sweeps."""
        for sweep in range(1, self.p.sweeps + 1):
            if max((self._newton(player) for player in self.x), default=0.0) < self.p.tolerance:
                return sweep
        return self.p.sweeps

    def chance(self, record: MatchRecord) -> float:
        """Player A's chance, from this fit, of winning `record` (played after it)."""
        day = day_number(record.played_on)
        mean, variance = [], []
        for player in (record.player_a, record.player_b):
            if player in self.x and self.variance.get(player) is not None:
                mean.append(self.x[player][-1])
                away = max(0.0, day - self.days[player][-1])
                variance.append(self.variance[player] + (self.p.step * POINTS) ** 2 * away)
            else:
                mean.append(self.prior_mean(player) if player in self.x else self.newcomer_mean())
                variance.append((self.p.spread * POINTS) ** 2)
        k = self.p.factor(record.length)
        z = k * (mean[0] - mean[1]) / math.sqrt(1.0 + math.pi * k * k * (variance[0] + variance[1]) / 8.0)
        return 1.0 / (1.0 + math.exp(-z))


def forecasts(history: Sequence[MatchRecord], start: int, end: int, parameters: WhrParameters,
              block: int) -> list[float]:
    """Player A's chance in each match of history[start:end], each forecast from a fit on the
    matches before its block: blocks of about `block` matches that never split a day, the fit
    redone (warm) after each block is added."""
    model = WholeHistory(parameters)
    model.add(history[:start])
    model.fit()
    chances = []
    i = start
    while i < end:
        j = min(end, i + block)
        while j < end and history[j].played_on == history[j - 1].played_on:
            j += 1
        chances += [model.chance(record) for record in history[i:j]]
        model.add(history[i:j])
        if j < end:
            model.fit()
        i = j
    return chances
