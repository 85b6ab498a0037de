"""How much a forecaster could gain on FIBS on the real sets: a bound with hindsight.

Each match of a real set's held-out part (the last 20%, as `bench/ratings_accuracy.py` cuts it)
is forecast by a Bradley–Terry model on FIBS's curve (P = 1/(1 + 10^(−D·√N/2000))) fitted on
*every other match of the set*, before and after it, each weighted by exp(−|days apart| / h)
(h = ∞: strengths that never change), with a ridge penalty λ on the strengths (in Glicko-2
units of 173.7 rating points). No forecaster can know the future, so no rating forecasts the
held-out matches as well as this model at its best (h and λ chosen per set after seeing the
results): what separates it from FIBS is about the most any rating could gain on these
histories. Printed per set and pooled (the two clubs weighed 1, bglab ¼, as the accuracy bench
weighs them), against FIBS online and frozen, with the paired bootstrap interval.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.ratings_accuracy import FIT_SHARE, real_samples  # noqa: E402
from ratings import calibration  # noqa: E402

HALF_LIVES = (60.0, 120.0, 180.0, 365.0, math.inf)
"""Days over which another match's weight falls to 1/e (∞: every match weighs the same)."""
RIDGES = (1.0, 2.0, 4.0, 8.0)
NEWTON_STEPS = 25
GLICKO2_POINTS = 173.7178


def hindsight_chances(history, start: int, half_life: float, ridge: float) -> np.ndarray:
    """Player A's chance in each of history[start:], from a weighted ridge Bradley–Terry fit on
    every other match of the history (Newton steps, warm-started from the previous match's fit)."""
    names = sorted({r.player_a for r in history} | {r.player_b for r in history})
    index = {name: i for i, name in enumerate(names)}
    a = np.array([index[r.player_a] for r in history])
    b = np.array([index[r.player_b] for r in history])
    k = np.sqrt([r.length for r in history]) * math.log(10) / 2000 * GLICKO2_POINTS
    won = calibration.a_won(history).astype(float)
    days = np.array([r.played_on.toordinal() for r in history], dtype=float)
    mu = np.zeros(len(names))
    chances = []
    for i in range(start, len(history)):
        weight = np.ones(len(history)) if math.isinf(half_life) else np.exp(-np.abs(days - days[i]) / half_life)
        weight[i] = 0.0
        for _ in range(NEWTON_STEPS):
            p = 1.0 / (1.0 + np.exp(-k * (mu[a] - mu[b])))
            residual = weight * k * (won - p)
            gradient = np.bincount(a, residual, len(names)) - np.bincount(b, residual, len(names)) - ridge * mu
            curvature = weight * k * k * p * (1.0 - p)
            hessian = np.bincount(a, curvature, len(names)) + np.bincount(b, curvature, len(names)) + ridge
            mu += gradient / hessian
        chances.append(1.0 / (1.0 + math.exp(-k[i] * (mu[a[i]] - mu[b[i]]))))
    return np.array(chances)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7, help="seed of the bootstrap")
    parser.add_argument("--resamples", type=int, default=2000)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    sets = real_samples()
    if not sets:
        print("The real sets are not here (../shared/data/realdata/); nothing to measure.")
        return
    groups, weights, hindsight = [], [], []
    fibs_parts = {"online": [], "frozen": []}
    print(f"Held-out part (from {FIT_SHARE:.0%}), log loss; hindsight = Bradley–Terry fitted on every other match "
          "of the set, past and future (h days, ridge λ)")
    for number, data in enumerate(sets):
        history, weight = data.history, data.weight
        start = calibration.cut(history, FIT_SHARE)
        won = calibration.a_won(history)[start:]
        fibs = {mode: calibration.log_losses(calibration.chances(history, None, mode, start, len(history)), won)
                for mode in fibs_parts}
        grid = {}
        for half_life in HALF_LIVES:
            for ridge in RIDGES:
                grid[(half_life, ridge)] = calibration.log_losses(hindsight_chances(history, start, half_life, ridge), won)
        (half_life, ridge), best = min(grid.items(), key=lambda item: item[1].mean())
        print(f"  {data.name} ({len(won)} matches): FIBS online {fibs['online'].mean():.4f}, frozen "
              f"{fibs['frozen'].mean():.4f}; hindsight at its best (h {half_life:g}, λ {ridge:g}) {best.mean():.4f}: "
              f"{best.mean() - fibs['online'].mean():+.4f} online, {best.mean() - fibs['frozen'].mean():+.4f} frozen")
        print("    by h (best λ): " + ", ".join(
            f"h {h:g} {min(grid[(h, r)].mean() for r in RIDGES):.4f}" for h in HALF_LIVES))
        groups.append(np.full(len(won), number))
        weights.append(np.full(len(won), weight))
        hindsight.append(best)
        for mode in fibs_parts:
            fibs_parts[mode].append(fibs[mode])
    groups, weights, hindsight = np.concatenate(groups), np.concatenate(weights), np.concatenate(hindsight)
    for mode, parts in fibs_parts.items():
        difference = hindsight - np.concatenate(parts)
        pooled = float(np.sum(weights * difference) / np.sum(weights))
        draws = []
        for _ in range(args.resamples):
            rows = np.concatenate([rng.choice(np.flatnonzero(groups == g), size=int(np.sum(groups == g)))
                                   for g in np.unique(groups)])
            draws.append(np.sum(weights[rows] * difference[rows]) / np.sum(weights[rows]))
        low, high = np.percentile(draws, [2.5, 97.5])
        print(f"  pooled (weighted), hindsight − FIBS {mode}: {pooled:+.4f} [{low:+.4f}, {high:+.4f}]")
    print(f"({time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()
