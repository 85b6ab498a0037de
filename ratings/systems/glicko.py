"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013) with match-length scaling.

This module is the reference update, written step by step after Glickman's description; the
history engine in `crawford` inlines the same arithmetic for one match at a time and is tested
against it.

Two changes from the paper, both neutral when left at their defaults:

* each result carries a length factor k (1 by default) that multiplies g(φ_j)·(μ − μ_j) in the
  expected score, E = 1 / (1 + exp(−k·g(φ_j)·(μ − μ_j))); the variance v and the improvement Δ
  follow from the same likelihood, v = 1 / Σ k²g²E(1 − E) and Δ = v·Σ k·g·(s − E);
* the deviation's growth in step 6, φ* = sqrt(φ² + σ'²·t), takes the number of periods t as
  `growth_periods` (1 in the paper). The history engine instead brings each deviation to the day
  of the match with `deviation_after` (by the days elapsed, before the match) and then updates
  with t = 0, so that two matches on the same day add no growth between them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

GLICKO2_SCALE = 400.0 / math.log(10.0)
"""Rating points per unit of the Glicko-2 scale (173.7178...)."""

RATING_CENTRE = 1500.0
"""The rating that maps to μ = 0 on the Glicko-2 scale."""

CONVERGENCE_TOLERANCE = 1e-6
"""Glickman's ε for the volatility iteration."""

_THREE_OVER_PI_SQUARED = 3.0 / (math.pi * math.pi)


@dataclass(frozen=True, slots=True)
class GameResult:
    """One result of a rating period, seen from the player being rated.

    `score` is 1 for a win and 0 for a loss; `length_factor` is k = sqrt(S(N))/5 for an N-point
    match of effective length S(N), and 1 for plain Glicko-2.
    """

    opponent_rating: float
    opponent_deviation: float
    score: float
    length_factor: float = 1.0


@dataclass(frozen=True, slots=True)
class Glicko2Rating:
    """A rating, its deviation (both in rating points) and its volatility."""

    rating: float
    deviation: float
    volatility: float


def to_glicko2_scale(rating: float, deviation: float) -> tuple[float, float]:
    """(μ, φ) for a rating and deviation in rating points."""
    return (rating - RATING_CENTRE) / GLICKO2_SCALE, deviation / GLICKO2_SCALE


def from_glicko2_scale(mu: float, phi: float) -> tuple[float, float]:
    """Rating and deviation in rating points for (μ, φ)."""
    return RATING_CENTRE + GLICKO2_SCALE * mu, GLICKO2_SCALE * phi


def g(phi: float) -> float:
    """Glickman's g(φ) = 1 / sqrt(1 + 3φ²/π²), which damps what an uncertain opponent tells."""
    return 1.0 / math.sqrt(1.0 + _THREE_OVER_PI_SQUARED * phi * phi)


def new_volatility(
    phi: float,
    sigma: float,
    delta: float,
    variance: float,
    tau: float,
    tolerance: float = CONVERGENCE_TOLERANCE,
) -> float:
    """σ' from Glickman's step 5: the root of f(x) found by the Illinois method."""
    sigma2 = sigma * sigma
    base = phi * phi + variance
    log_sigma2 = new_log_volatility(
        math.log(sigma2), sigma2, delta * delta - base, base, tau, math.exp(-tau), tolerance
    )
    return math.exp(log_sigma2 / 2.0)


def new_log_volatility(
    log_sigma2: float,
    sigma2: float,
    excess: float,
    base: float,
    tau: float,
    exp_minus_tau: float,
    tolerance: float = CONVERGENCE_TOLERANCE,
) -> float:
    """ln σ'² by Glickman's step 5, the one scalar form of the volatility iteration.

    With a = ln σ², base = φ² + v and excess = Δ² − φ² − v, the new ln σ'² is the root of
    f(x) = eˣ·(excess − eˣ) / (2·(base + eˣ)²) − (x − a)/τ². The bracket [A, B] starts at
    A = a and B = ln(excess) when excess > 0, else the first of a − τ, a − 2τ, … where f is not
    negative (eˣ stepping by the factor `exp_minus_tau` = exp(−τ)); `illinois` then closes it.
    """
    a = log_sigma2
    tau2 = tau * tau
    denominator = base + sigma2
    f_a = sigma2 * (excess - sigma2) / (2.0 * denominator * denominator)
    if excess > 0.0:
        big_b = math.log(excess)
        f_b = -(big_b - a) / tau2
    else:
        steps = 1
        ex = sigma2
        while True:
            ex *= exp_minus_tau
            big_b = a - steps * tau
            denominator = base + ex
            f_b = ex * (excess - ex) / (2.0 * denominator * denominator) + steps / tau
            if f_b >= 0.0:
                break
            steps += 1
    return illinois(a, big_b, f_a, f_b, excess, base, a, tau2, tolerance)


def illinois(
    big_a: float,
    big_b: float,
    f_a: float,
    f_b: float,
    excess: float,
    base: float,
    a: float,
    tau2: float,
    tolerance: float,
) -> float:
    """The Illinois iteration of Glickman's step 5 from the bracket [A, B] with f(A) = f_a and
    f(B) = f_b (f as in `new_log_volatility`): returns A once |B − A| is within `tolerance`.
    The vectorised engine runs the same rounds on arrays and finishes its last brackets here."""
    exp = math.exp
    while abs(big_b - big_a) > tolerance:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        ex = exp(big_c)
        denominator = base + ex
        f_c = ex * (excess - ex) / (2.0 * denominator * denominator) - (big_c - a) / tau2
        if f_c * f_b <= 0.0:
            big_a = big_b
            f_a = f_b
        else:
            f_a *= 0.5
        big_b = big_c
        f_b = f_c
    return big_a


def rating_period_update(
    rating: Glicko2Rating,
    results: Iterable[GameResult],
    *,
    tau: float,
    growth_periods: float = 1.0,
    tolerance: float = CONVERGENCE_TOLERANCE,
) -> Glicko2Rating:
    """One Glicko-2 update of `rating` with all `results` of a rating period.

    With no results only the deviation grows, φ' = sqrt(φ² + σ²·t). With `growth_periods=1`
    and length factors of 1 this is Glickman's algorithm exactly.
    """
    mu, phi = to_glicko2_scale(rating.rating, rating.deviation)
    sigma = rating.volatility
    information = 0.0
    improvement = 0.0
    for result in results:
        opponent_mu, opponent_phi = to_glicko2_scale(result.opponent_rating, result.opponent_deviation)
        kg = result.length_factor * g(opponent_phi)
        e = 1.0 / (1.0 + math.exp(-kg * (mu - opponent_mu)))
        information += kg * kg * e * (1.0 - e)
        improvement += kg * (result.score - e)
    if information == 0.0:
        phi_star = math.sqrt(phi * phi + sigma * sigma * growth_periods)
        new_rating, new_deviation = from_glicko2_scale(mu, phi_star)
        return Glicko2Rating(new_rating, new_deviation, sigma)
    variance = 1.0 / information
    delta = variance * improvement
    sigma_new = new_volatility(phi, sigma, delta, variance, tau, tolerance)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new * growth_periods)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + information)
    mu_new = mu + phi_new * phi_new * improvement
    new_rating, new_deviation = from_glicko2_scale(mu_new, phi_new)
    return Glicko2Rating(new_rating, new_deviation, sigma_new)


def deviation_after(
    deviation: float,
    volatility: float,
    elapsed_periods: float,
    maximum_deviation: float | None = None,
) -> float:
    """A deviation (rating points) after `elapsed_periods` rating periods without play:
    sqrt(φ² + σ²·t) on the Glicko-2 scale, capped at `maximum_deviation` when one is given."""
    phi = deviation / GLICKO2_SCALE
    grown = GLICKO2_SCALE * math.sqrt(phi * phi + volatility * volatility * elapsed_periods)
    if maximum_deviation is not None and grown > maximum_deviation:
        return max(deviation, maximum_deviation)
    return grown
