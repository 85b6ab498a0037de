"""Time-series validation of the variance-adjusted rating's parameters, and their fit.

A pure core (no Django): histories are lists of `MatchRecord` in time order. The accuracy bench
(`bench/ratings_accuracy.py`) chooses the defaults with it on the real sets, and
`manage.py calibrate_ratings` fits a site's own parameters with it on the site's history.

Two ways of forecasting are scored, and both count:

* online: every match is forecast from everything before it, as the site publishes (the
  `expected` chance a run stores with each rating change);
* frozen: the history up to an origin is rated, and the matches of the period after it are
  forecast from those ratings alone, with no update inside the period (a federation predicting
  next season); crawford's deviations grow to each match's day.

The history is cut by date (a day's matches are never split). Parameters are fitted on the part
before `FIT_SHARE` only, by rolling origins: rate up to 50%, 60% and 70% of the history and score
the next 10% (online and frozen alike). The last 20% is held out: it is scored once, to report,
and never chooses anything.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from itertools import pairwise

import numpy as np

from ratings.systems import CrawfordParameters, CrawfordRating, FibsRating, MatchRecord

FIT_SHARE = 0.8
"""The share of a history (by date) that fitting may see; the rest is held out."""
ORIGINS = (0.5, 0.6, 0.7)
"""Rolling origins of the fit: rate up to each, score the next ORIGIN_BLOCK."""
ORIGIN_BLOCK = 0.1
MODES = ("online", "frozen")

GRID: dict[str, tuple] = {
    "initial_deviation": (80.0, 100.0, 150.0, 200.0, 300.0),
    "newcomer_offset": (0.0, -50.0, -100.0, -150.0, -200.0),
    "newcomer_deviation": (100.0, 150.0, 200.0, 300.0),
    "initial_volatility": (0.02, 0.06, 0.09, 0.12, 0.25),
    "length_constant": (1.0, 2.0, 3.0),
    "match_growth": (0.0, 1.0),
}
"""The values the coordinate search may choose, per parameter (τ hardly matters: every match is a
rating period of its own, so it is left where it is)."""

RELIABILITY_BINS = (0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 1.0001)
"""Bins of the favourite's forecast chance in the reliability table."""


# ---------------------------------------------------------------- forecasts


def cut(history: Sequence[MatchRecord], share: float) -> int:
    """The number of matches before the day that cuts off `share` of the history."""
    if share >= 1.0:
        return len(history)
    index = int(len(history) * share + 1e-9)  # 0.7 · 320 is 224, not 223.99…
    day = _day(history[index].played_on)
    while index > 0 and _day(history[index - 1].played_on) == day:
        index -= 1
    return index


def _day(moment):
    return moment.date() if isinstance(moment, datetime) else moment


def a_won(history: Sequence[MatchRecord]) -> np.ndarray:
    return np.array([record.winner == "a" for record in history], dtype=bool)


def system_for(parameters: CrawfordParameters | None, past: Sequence[MatchRecord] = ()):
    """FIBS when `parameters` is None, else crawford with them, settled on `past` (a player
    unseen there starts as a newcomer once `past` has its founders)."""
    if parameters is None:
        return FibsRating()
    return CrawfordRating(parameters).settled_on(past)


def online_chances(history: Sequence[MatchRecord], parameters: CrawfordParameters | None, start: int,
                   end: int) -> np.ndarray:
    """Player A's chance in history[start:end], each forecast before it was rated (the run's
    `expected`); a new player's deviation estimated on the matches before `start`."""
    system = system_for(parameters, history[:start])
    changes = system.run(history[:end]).changes
    return np.array([changes[i].expected for i in range(2 * start, 2 * end, 2)])


def frozen_chances(history: Sequence[MatchRecord], parameters: CrawfordParameters | None, start: int,
                   end: int) -> np.ndarray:
    """Player A's chance in history[start:end] from the ratings after history[:start] alone."""
    system = system_for(parameters, history[:start])
    ratings = system.run(history[:start], keep_changes=False).ratings
    chances = []
    for record in history[start:end]:
        rating_a = ratings.get(record.player_a) or system.new_rating(record.player_a)
        rating_b = ratings.get(record.player_b) or system.new_rating(record.player_b)
        if parameters is None:
            chances.append(system.predict(rating_a, rating_b, record.length).p_a)
        else:
            chances.append(system.predict(rating_a, rating_b, record.length, on=record.played_on).p_a)
    return np.array(chances)


def chances(history: Sequence[MatchRecord], parameters: CrawfordParameters | None, mode: str, start: int,
            end: int) -> np.ndarray:
    if callable(parameters):  # another model's forecaster(history, mode, start, end): the bench's WHR
        return np.asarray(parameters(history, mode, start, end))
    if mode == "online":
        return online_chances(history, parameters, start, end)
    if mode == "frozen":
        return frozen_chances(history, parameters, start, end)
    raise ValueError(f"mode must be online or frozen, not {mode!r}")


def log_losses(chance: np.ndarray, won: np.ndarray) -> np.ndarray:
    chance = np.clip(chance, 1e-12, 1.0 - 1e-12)
    return -np.log(np.where(won, chance, 1.0 - chance))


def origin_blocks(history: Sequence[MatchRecord], share: float = FIT_SHARE) -> list[tuple[int, int]]:
    """The (start, end) of the blocks scored by the rolling origins, all before `share`."""
    blocks = []
    for origin in ORIGINS:
        start, end = cut(history, origin * share / FIT_SHARE), cut(history, (origin + ORIGIN_BLOCK) * share / FIT_SHARE)
        if end > start:
            blocks.append((start, end))
    return blocks


def fitting_losses(history: Sequence[MatchRecord], parameters: CrawfordParameters | None, mode: str,
                   share: float = FIT_SHARE) -> np.ndarray:
    """The per-match log losses of the rolling origins' blocks (all before `share`)."""
    won = a_won(history)
    return np.concatenate([log_losses(chances(history, parameters, mode, s, e), won[s:e])
                           for s, e in origin_blocks(history, share)] or [np.zeros(0)])


# ---------------------------------------------------------------- the fit


@dataclass(frozen=True)
class Sample:
    """A history to fit on or score, with its weight in pooled figures (how much it tells about
    the clubs and federations the rating serves)."""

    name: str
    history: Sequence[MatchRecord]
    weight: float = 1.0


def pooled(values: Sequence[float], samples: Sequence[Sample]) -> float:
    weights = np.array([s.weight for s in samples])
    return float(np.dot(weights, values) / weights.sum())


def fit(samples: Sequence[Sample], start: CrawfordParameters, *, grid: Mapping[str, tuple] = GRID, rounds: int = 2,
        share: float = FIT_SHARE, log=None) -> tuple[CrawfordParameters, float]:
    """Coordinate search over `grid` from `start`: each parameter in turn set to the value with
    the least objective, for `rounds` rounds or until nothing moves. The objective is the mean over
    both forecast modes of the weighted mean over the samples of (crawford's log loss − FIBS's) on
    the rolling origins' blocks: nothing at or after `share` of any history is ever run. Returns
    the parameters and their objective."""
    fibs = {(s.name, mode): float(fitting_losses(s.history, None, mode, share).mean()) for s in samples for mode in MODES}
    memo: dict[tuple, float] = {}

    def objective(parameters: CrawfordParameters) -> float:
        key = _key(parameters)
        if key not in memo:
            per_mode = [pooled([float(fitting_losses(s.history, parameters, mode, share).mean()) - fibs[s.name, mode]
                                for s in samples], samples) for mode in MODES]
            memo[key] = float(np.mean(per_mode))
        return memo[key]

    current = start
    for round_number in range(1, rounds + 1):
        before = current
        for name, values in grid.items():
            options = [replace(current, **{name: value}) for value in values]
            if current not in options:
                options.append(current)
            kept = current
            current = min(options, key=lambda p: (round(objective(p), 7), p != kept))
        if log is not None:
            log(f"round {round_number}: {describe(current)}, fitting objective (log loss − FIBS) {objective(current):+.5f}"
                f" ({len(memo)} parameter sets tried)")
        if current == before:
            break
    return current, objective(current)


def _key(parameters: CrawfordParameters) -> tuple:
    return tuple((name, getattr(parameters, name)) for name in GRID) + (
        ("tau", parameters.tau), ("effective_lengths", tuple(sorted(parameters.effective_lengths.items()))))


def describe(parameters: CrawfordParameters) -> str:
    deviation = (f"founders' RD {parameters.initial_deviation:g}, newcomers {parameters.newcomer_offset:+g}"
                 f" with RD {parameters.newcomer_start_deviation:g}")
    return (f"C {parameters.length_constant:g}, {deviation}, σ {parameters.initial_volatility:g}, "
            f"τ {parameters.tau:g}, growth per match {parameters.match_growth:g}")


# ---------------------------------------------------------------- reports


@dataclass
class Scored:
    """One model's forecasts of some matches, and what they are scored against."""

    chance: np.ndarray
    won: np.ndarray
    lengths: np.ndarray
    weights: np.ndarray

    @property
    def loss(self) -> np.ndarray:
        return log_losses(self.chance, self.won)

    def mean(self, rows=slice(None)) -> float:
        return float(np.average(self.loss[rows], weights=self.weights[rows]))


def paired_interval(model: Scored, base: Scored, groups: np.ndarray, rng: np.random.Generator, resamples: int,
                    rows=None) -> tuple[float, float, float]:
    """Weighted mean of model − base per match, and its 95% paired bootstrap interval,
    resampling matches within each group (each sample's own count)."""
    mean, means = _bootstrap(model, base, groups, rng, resamples, rows)
    return mean, float(means[int(0.025 * resamples)]), float(means[int(0.975 * resamples) - 1])


def chance_better(model: Scored, base: Scored, groups: np.ndarray, rng: np.random.Generator, resamples: int,
                  rows=None) -> float:
    """The share of paired bootstrap resamples in which `model` has the lower log loss: the
    probability, as far as these matches tell, that it forecasts better than `base`."""
    _, means = _bootstrap(model, base, groups, rng, resamples, rows)
    return float(np.mean(means < 0.0))


def _bootstrap(model: Scored, base: Scored, groups: np.ndarray, rng: np.random.Generator, resamples: int,
               rows=None) -> tuple[float, np.ndarray]:
    """The weighted mean of model − base per match and the sorted means of `resamples` paired
    bootstrap resamples (matches resampled within each group)."""
    difference = model.loss - base.loss
    weights = model.weights
    if rows is not None:
        difference, weights, groups = difference[rows], weights[rows], groups[rows]
    means = np.zeros(resamples)
    total = np.zeros(resamples)
    for group in np.unique(groups):
        index = np.flatnonzero(groups == group)
        draws = index[rng.integers(0, len(index), size=(resamples, len(index)))]
        means += (difference[draws] * weights[draws]).sum(axis=1)
        total += weights[draws].sum(axis=1)
    return float(np.average(difference, weights=weights)), np.sort(means / total)


def reliability(scored: Scored) -> list[tuple[float, float, int, float, float]]:
    """(low, high, matches, mean forecast of the favourite, share the favourite won) per bin."""
    favourite = np.maximum(scored.chance, 1.0 - scored.chance)
    favourite_won = (scored.chance >= 0.5) == scored.won
    rows = []
    for low, high in pairwise(RELIABILITY_BINS):
        inside = (favourite >= low) & (favourite < high)
        if inside.any():
            rows.append((low, min(high, 1.0), int(inside.sum()), float(favourite[inside].mean()),
                         float(favourite_won[inside].mean())))
    return rows


@dataclass
class Comparison:
    """Models scored on the same matches in one mode: per model a `Scored`, and `groups` (the
    sample of each match) for the paired bootstrap."""

    mode: str
    scored: dict[str, Scored]
    groups: np.ndarray
    names: list[str] = field(default_factory=list)

    def against(self, model: str, base: str, rng, resamples: int, rows=None) -> tuple[float, float, float]:
        return paired_interval(self.scored[model], self.scored[base], self.groups, rng, resamples, rows)

    def chance_better(self, model: str, base: str, rng, resamples: int, rows=None) -> float:
        return chance_better(self.scored[model], self.scored[base], self.groups, rng, resamples, rows)


def compare(samples: Sequence[Sample], models: Mapping[str, CrawfordParameters | None], mode: str,
            share: float = FIT_SHARE) -> Comparison:
    """Every model's forecasts of every sample's matches from `share` on (the held-out part),
    pooled with each sample's weight spread over its matches."""
    scored = {name: [] for name in models}
    groups = []
    for number, sample in enumerate(samples):
        start = cut(sample.history, share)
        won = a_won(sample.history)[start:]
        lengths = np.array([r.length for r in sample.history[start:]])
        weights = np.full(len(won), sample.weight)
        for name, parameters in models.items():
            scored[name].append(Scored(chances(sample.history, parameters, mode, start, len(sample.history)),
                                       won, lengths, weights))
        groups.append(np.full(len(won), number))
    joined = {name: Scored(*(np.concatenate([getattr(s, f) for s in parts])
                             for f in ("chance", "won", "lengths", "weights"))) for name, parts in scored.items()}
    return Comparison(mode, joined, np.concatenate(groups), [s.name for s in samples])


def format_comparison(comparison: Comparison, base: str, rng: np.random.Generator, resamples: int,
                      *, min_length_matches: int = 20) -> list[str]:
    """Lines of text: each sample and the pool (log loss, − base [interval]), per length, and the
    reliability table of every model."""
    lines = [f"{comparison.mode} forecasts: log loss (model − {base} [95% paired bootstrap interval], the chance that"
             f" the model forecasts better than {base})"]
    models = list(comparison.scored)
    for number, name in enumerate([*comparison.names, None]):
        rows = comparison.groups == number if name is not None else slice(None)
        label = name if name is not None else "pooled (weighted)"
        count = int(np.count_nonzero(comparison.groups == number)) if name is not None else len(comparison.groups)
        cells = []
        for model in models:
            cell = f"{model} {comparison.scored[model].mean(rows):.4f}"
            if model != base:
                rows_of = None if name is None else comparison.groups == number
                mean, low, high = comparison.against(model, base, rng, resamples, rows_of)
                better = comparison.chance_better(model, base, rng, resamples, rows_of)
                cell += f" {mean:+.4f} [{low:+.4f}, {high:+.4f}] P(better) {better:.0%}"
            cells.append(cell)
        lines.append(f"  {label[:30]:<30} {count:>5}  " + " | ".join(cells))
    lengths = comparison.scored[base].lengths
    lines.append("  per length (pooled):")
    for length in sorted(set(lengths.tolist())):
        rows = lengths == length
        if rows.sum() < min_length_matches:
            continue
        cells = []
        for model in models:
            cell = f"{model} {comparison.scored[model].mean(rows):.4f}"
            if model != base:
                mean, low, high = comparison.against(model, base, rng, resamples, rows)
                cell += f" {mean:+.4f} [{low:+.4f}, {high:+.4f}]"
            cells.append(cell)
        lines.append(f"    {length:>2}-point {int(rows.sum()):>5}  " + " | ".join(cells))
    lines.append("  reliability (pooled): favourite's forecast in bins: matches / mean forecast / share won")
    for model in models:
        lines.append(f"    {model:<12} " + "  ".join(f"{low:.2f}-{high:.2f}: {n}/{forecast:.3f}/{share:.3f}"
                                                    for low, high, n, forecast, share in reliability(comparison.scored[model])))
    return lines


def calibration_error(scored: Scored) -> float:
    """The mean |forecast − share won| over the reliability bins, weighted by their matches."""
    bins = reliability(scored)
    total = sum(n for _, _, n, _, _ in bins)
    return math.fsum(n * abs(forecast - share) for _, _, n, forecast, share in bins) / total if total else 0.0


# ---------------------------------------------------------------- many origins

EVERY_ORIGINS = tuple(round(0.40 + 0.05 * step, 2) for step in range(12))
"""The many rolling origins of `score_origins`: every 5% from 40% to 95% of a history."""
EVERY_BLOCK = 0.05
"""Each origin scores the matches of the next 5% of the history."""


def rolling_blocks(history: Sequence[MatchRecord], origins: Sequence[float] = EVERY_ORIGINS,
                   block: float = EVERY_BLOCK) -> list[tuple[float, int, int]]:
    """(origin, start, end) per origin: rate history[:start], score history[start:end], the
    matches up to `origin + block` of the history (a day never split; empty blocks left out)."""
    blocks = []
    for origin in origins:
        start, end = cut(history, origin), cut(history, origin + block)
        if end > start:
            blocks.append((origin, start, end))
    return blocks


@dataclass
class OriginScores:
    """Models scored on the blocks of many rolling origins in one mode: per model a `Scored` of
    every block's matches one after the other; per match its sample (`groups`) and its block's
    origin (`origins`)."""

    mode: str
    scored: dict[str, Scored]
    groups: np.ndarray
    origins: np.ndarray
    names: list[str]
    block: float = EVERY_BLOCK

    def block_differences(self, model: str, base: str, sample: int, rows: np.ndarray) -> list[float]:
        """Per block of `sample` within `rows`: the mean log loss of `model` − `base`."""
        difference = self.scored[model].loss - self.scored[base].loss
        inside = rows & (self.groups == sample)
        return [float(difference[inside & (self.origins == origin)].mean())
                for origin in np.unique(self.origins[inside])]


def score_origins(samples: Sequence[Sample], models: Mapping[str, CrawfordParameters | None], mode: str,
                  origins: Sequence[float] = EVERY_ORIGINS, block: float = EVERY_BLOCK) -> OriginScores:
    """Every model's forecasts of every block of every sample (`rolling_blocks`): each block
    forecast from the matches before its origin only (online: and each match from everything
    before it), a new player's deviation estimated on the matches before the origin."""
    parts = {name: [] for name in models}
    groups, block_origins = [], []
    for number, sample in enumerate(samples):
        won = a_won(sample.history)
        lengths = np.array([r.length for r in sample.history])
        for origin, start, end in rolling_blocks(sample.history, origins, block):
            weights = np.full(end - start, sample.weight)
            for name, parameters in models.items():
                parts[name].append(Scored(chances(sample.history, parameters, mode, start, end), won[start:end],
                                          lengths[start:end], weights))
            groups.append(np.full(end - start, number))
            block_origins.append(np.full(end - start, origin))
    joined = {name: Scored(*(np.concatenate([getattr(s, f) for s in scored])
                             for f in ("chance", "won", "lengths", "weights"))) for name, scored in parts.items()}
    return OriginScores(mode, joined, np.concatenate(groups), np.concatenate(block_origins),
                        [s.name for s in samples], block)


def format_origins(scores: OriginScores, base: str, reference: str, rng: np.random.Generator, resamples: int,
                   share: float = FIT_SHARE) -> list[str]:
    """Lines of text, for the blocks of the fitting part (ending by `share`) and of the held-out
    part (origins from `share` on): per model and sample the mean over the blocks of model − `base`
    and how many blocks the model wins; pooled over the samples (each match by its sample's
    weight), model − `base` and model − `reference` with their paired bootstrap 95% intervals."""
    lines = []
    parts = {"fitting part": scores.origins + scores.block <= share + 1e-9, "held-out part": scores.origins >= share - 1e-9}
    for part, rows in parts.items():
        origins = sorted(set(scores.origins[rows].tolist()))
        if not origins:
            continue
        lines.append(f"{scores.mode} forecasts, {part} (origins {origins[0]:.0%} to {origins[-1]:.0%}): per set the mean"
                     f" over its blocks of model − {base} (blocks won); pooled per match (weighted), − {base} and"
                     f" − {reference} [95% paired bootstrap interval]")
        for model in scores.scored:
            if model == base:
                continue
            cells = []
            won = total = 0
            for number, name in enumerate(scores.names):
                differences = scores.block_differences(model, base, number, rows)
                if differences:
                    wins = sum(d < 0 for d in differences)
                    won, total = won + wins, total + len(differences)
                    cells.append(f"{name.removesuffix('.csv')[:14]} {np.mean(differences):+.4f} ({wins}/{len(differences)})")
            mean, low, high = paired_interval(scores.scored[model], scores.scored[base], scores.groups, rng, resamples, rows)
            pooled_cell = f"pooled {mean:+.4f} [{low:+.4f}, {high:+.4f}] ({won}/{total})"
            if model != reference:
                mean, low, high = paired_interval(scores.scored[model], scores.scored[reference], scores.groups, rng,
                                                  resamples, rows)
                pooled_cell += f", − {reference} {mean:+.4f} [{low:+.4f}, {high:+.4f}]"
            lines.append(f"  {model[:22]:<22} " + " | ".join(cells) + " | " + pooled_cell)
    return lines
