"""Other model families against FIBS on the real clubs, on many rolling origins (issue #23).

    .venv/bin/python bench/ratings_families.py [--seed 7] [--resamples 2000]

Each family is a forecaster for `ratings.calibration` (history, mode, start, end) -> player A's
chance in history[start:end]. Parameters are chosen before each origin on the matches before it
only: the configuration whose online forecasts of the second half of the matches before the
origin (by date) have the least log loss, as `bench/ratings_newcomers.FittedNewcomerOffset` does
("all past": of all the matches before it).

* Fitted Elo on FIBS's curve: FIBS's update (winner gains K·(1 − P_winner), each player's step
  times his experience factor), with K = k·4·sqrt(N), the curve P = 1/(1 + 10^(−D·N^γ/2000)),
  the experience factor max(1, 1 + (B − 1)·(1 − experience/H)) (FIBS: B 5, H 400), and a
  newcomer starting at 1500 (FIBS) or at the established players' mean plus an offset. A scale
  of the curve's D is not a parameter of its own: ratings r/a with the step k·a forecast exactly
  as ratings r with the curve scaled by a and step k, so only k·a counts (k spans it). k 1, γ ½,
  B 5, H 400, no offset is FIBS to the last bit (checked at start).
  "FIBS, new −50/−100/fitted" is FIBS itself with only the newcomer's start changed (fixed, or
  fitted among none, −50, −100, −150).
* Whole-History Rating (bench/whr.py; FIBS lengths, C 2) with its Wiener step w, prior s₀ and a
  newcomer prior mean (0, or the established players' mean in the latest fit + offset) chosen on
  the past; online, each match forecast from a fit of every match before it (`whr_run`: full
  refits every 20 matches, Newton steps on the players just seen in between).
* A logit average of crawford's defaults and FIBS (diagnostic: weight ½ each), and of the fitted
  WHR and the fitted Elo.
* Bradley–Terry with exponential time decay: before a match whose players played since the last
  fit, the MAP strengths of all past matches weighted by 2^(−age/half-life), a Gaussian prior
  N(0, s₀²) on each strength, the FIBS curve sqrt(N); half-life and s₀ chosen on the past.

Every family runs one pass per history and configuration: online forecasts of every match (each
from the matches before it), and at each origin the frozen forecasts of its block from the state
before it; the choice at an origin reads only the online forecasts of matches before it.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from itertools import product
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.ratings_accuracy import real_samples  # noqa: E402
from bench.whr import POINTS, WholeHistory, WhrParameters  # noqa: E402
from ratings import calibration  # noqa: E402
from ratings.systems import CrawfordParameters, params  # noqa: E402
from ratings.systems.history import day_number  # noqa: E402

LN10 = math.log(10.0)


# ---------------------------------------------------------------- the common frame


def _blocks(history, start: int, end: int) -> tuple[tuple[int, int], ...]:
    """The every5 blocks of `history`, or just (start, end) when it is not one of them."""
    blocks = tuple((s, e) for _, s, e in calibration.rolling_blocks(history))
    return blocks if (start, end) in blocks else ((start, end),)


_CACHES: dict = {}
"""Per family's run: its passes, shared by the forecasters that choose among its configurations."""


class Fitted:
    """A family of configurations, one chosen before each origin on the online log loss of the
    second half of the matches before it. `run(history, configs, blocks)` returns the online
    chances of every match (matches × configs) and per block (s, e) the frozen chances of
    history[s:e] from the state after history[:s] (block × configs)."""

    def __init__(self, run, configs: Sequence, subset=None, window: float = 0.5):
        self.window = window
        self.run = run
        self.configs = list(configs)
        self.subset = list(range(len(self.configs))) if subset is None else list(subset)
        self.cache = _CACHES.setdefault(run, {})
        self.chosen: dict[tuple[int, int], object] = {}

    def _pass(self, history, blocks):
        key = (id(history), blocks, tuple(map(repr, self.configs)))
        if key not in self.cache:
            self.cache[key] = self.run(history, self.configs, blocks)
        return self.cache[key]

    def choose(self, history, start: int, online: np.ndarray) -> int:
        first = calibration.cut(history, (1.0 - self.window) * start / len(history)) if start else 0
        if start - first < 1:
            return self.subset[0]
        won = calibration.a_won(history)[first:start]
        losses = [float(calibration.log_losses(online[first:start, c], won).mean()) for c in self.subset]
        return self.subset[int(np.argmin(losses))]

    def __call__(self, history, mode: str, start: int, end: int) -> np.ndarray:
        blocks = _blocks(history, start, end)
        online, frozen = self._pass(history, blocks)
        c = self.choose(history, start, online)
        self.chosen[(len(history), start)] = self.configs[c]
        return online[start:end, c] if mode == "online" else frozen[(start, end)][:, c]


def _arrays(history):
    """Player indices, lengths, A won, day numbers."""
    index: dict = {}
    a = np.array([index.setdefault(r.player_a, len(index)) for r in history])
    b = np.array([index.setdefault(r.player_b, len(index)) for r in history])
    n = np.array([r.length for r in history], dtype=float)
    won = np.array([r.winner == "a" for r in history])
    days = np.array([day_number(r.played_on) for r in history], dtype=float)
    return a, b, n, won, days, len(index)


# ---------------------------------------------------------------- 1. Elo on FIBS's curve

ELO_GRID = {
    "k": (1.0, 0.5, 0.7, 1.4, 2.0, 2.8),
    "gamma": (0.5, 0.2, 0.35, 0.65),
    "boost": (5.0, 1.0, 3.0, 8.0, 12.0, 16.0),
    "horizon": (400.0, 100.0, 200.0, 800.0),
    "offset": (None, -50.0, -100.0, -150.0),
}
"""The first of each is FIBS's."""
ELO_CONFIGS = list(product(*ELO_GRID.values()))


def elo_run(history, configs, blocks):
    """All configurations at once (a vector per player)."""
    a_idx, b_idx, n, won, _, players = _arrays(history)
    conf = np.array([[c[0], c[1], c[2], c[3], np.nan if c[4] is None else c[4]] for c in configs])
    k, gamma, boost, horizon, offset = conf.T
    has_offset = ~np.isnan(offset)
    offset = np.nan_to_num(offset)
    width = len(configs)
    rating = np.full((players, width), 1500.0)
    experience = np.zeros(players)
    matches = np.zeros(players, dtype=int)
    seen = np.zeros(players, dtype=bool)
    est_sum = np.zeros(width)
    est_count = 0
    online = np.empty((len(history), width))
    frozen = {}
    starts = {}
    for s, e in blocks:
        starts.setdefault(s, []).append(e)

    def newcomer():
        if est_count >= params.ESTABLISHED_PLAYERS:
            return np.where(has_offset, est_sum / max(est_count, 1) + offset, 1500.0)
        return np.full(width, 1500.0)

    for i in range(len(history)):
        if i in starts:
            fresh = newcomer()
            for e in starts[i]:
                ra = np.where(seen[a_idx[i:e], None], rating[a_idx[i:e]], fresh)
                rb = np.where(seen[b_idx[i:e], None], rating[b_idx[i:e]], fresh)
                frozen[(i, e)] = 1.0 / (1.0 + 10.0 ** (-(ra - rb) * n[i:e, None] ** gamma / 2000.0))
        a, b, length = a_idx[i], b_idx[i], n[i]
        for p in (a, b):
            if not seen[p]:
                rating[p] = newcomer()
                seen[p] = True
        p_a = 1.0 / (1.0 + 10.0 ** (-(rating[a] - rating[b]) * length ** gamma / 2000.0))
        online[i] = p_a
        step = k * 4.0 * math.sqrt(length) * ((1.0 if won[i] else 0.0) - p_a)
        for p, sign in ((a, 1.0), (b, -1.0)):
            factor = np.maximum(1.0, 1.0 + (boost - 1.0) * (1.0 - experience[p] / horizon))
            delta = sign * step * factor
            rating[p] += delta
            experience[p] += length
            matches[p] += 1
            if matches[p] == params.ESTABLISHED_MATCHES:
                est_sum += rating[p]
                est_count += 1
            elif matches[p] > params.ESTABLISHED_MATCHES:
                est_sum += delta
    return online, frozen


def elo_label(c) -> str:
    off = "1500" if c[4] is None else f"{c[4]:+g}"
    return f"k {c[0]:g} γ {c[1]:g} B {c[2]:g} H {c[3]:g} new {off}"


# ---------------------------------------------------------------- 2. WHR with a newcomer prior mean


class WholeHistoryNewcomer(WholeHistory):
    """bench/whr.py's WholeHistory with each player's prior on his first value centred at
    `prior_means[player]`: 0, or (offset given, at least ESTABLISHED_PLAYERS established players)
    the mean of the established players' last values in the latest fit plus the offset."""

    def __init__(self, parameters: WhrParameters, offset: float | None) -> None:
        super().__init__(parameters)
        self.offset = None if offset is None else offset * POINTS
        self.prior_means: dict[str, float] = {}
        self.count: dict[str, int] = {}

    def newcomer_mean(self) -> float:
        if self.offset is None:
            return 0.0
        established = [self.x[p][-1] for p, c in self.count.items() if c >= params.ESTABLISHED_MATCHES]
        if len(established) < params.ESTABLISHED_PLAYERS:
            return 0.0
        return math.fsum(established) / len(established) + self.offset

    def add(self, records) -> None:
        fresh = self.newcomer_mean()  # from the latest fit, before these records
        for record in records:
            for player in (record.player_a, record.player_b):
                if player not in self.x:
                    self.prior_means[player] = fresh
                    self._point(player, int(day_number(record.played_on)))
                    self.x[player][0] = fresh
        super().add(records)
        for record in records:
            for player in (record.player_a, record.player_b):
                self.count[player] = self.count.get(player, 0) + 1

    def prior_mean(self, player: str) -> float:
        return self.prior_means.get(player, 0.0)


WHR_GRID = {"step": (0.75, 1.5, 4.0, 8.0), "spread": (120.0, 250.0), "offset": (None, -50.0, -100.0)}
WHR_CONFIGS = list(product(*WHR_GRID.values()))
WHR_BLOCK = 20


def whr_run(history, configs, blocks):
    """Online: before a match one of whose players has played since the last fit, the pending
    matches are added and fitted: a full fit (sweeps to convergence) when WHR_BLOCK matches have
    come since the last full one or at an origin, else three Newton steps on the pending
    matches' players (warm start). Frozen: the full fit at the origin."""
    online = np.empty((len(history), len(configs)))
    frozen = {blk: np.empty((blk[1] - blk[0], len(configs))) for blk in blocks}
    starts = {s for s, _ in blocks}
    for c, (step, spread, offset) in enumerate(configs):
        model = WholeHistoryNewcomer(WhrParameters(step=step, spread=spread, length_constant=2.0), offset)
        pending: list = []
        dirty: set = set()
        since_full = 0
        for i, record in enumerate(history):
            if pending and (i in starts or record.player_a in dirty or record.player_b in dirty):
                model.add(pending)
                if i in starts or since_full >= WHR_BLOCK:
                    model.fit()
                    since_full = 0
                else:
                    for _ in range(3):
                        for player in sorted(dirty):  # in a fixed order: the same figures on every run
                            model._newton(player)
                pending, dirty = [], set()
            if i in starts:
                for s, e in blocks:
                    if s == i:
                        frozen[(s, e)][:, c] = [model.chance(r) for r in history[s:e]]
            online[i, c] = model.chance(record)
            pending.append(record)
            dirty.update((record.player_a, record.player_b))
            since_full += 1
    return online, frozen


def whr_label(c) -> str:
    return f"w {c[0]:g} s0 {c[1]:g} new {'0' if c[2] is None else f'{c[2]:+g}'}"


# ---------------------------------------------------------------- 3. logit average


class LogitBlend:
    """σ(w·logit(first) + (1 − w)·logit(second)), by default crawford's defaults and FIBS, ½ each:
    do the two carry different information?"""

    def __init__(self, first=None, second=None, weight: float = 0.5):
        self.first = CrawfordParameters() if first is None else first
        self.second = second
        self.weight = weight

    def __call__(self, history, mode, start, end):
        one = np.clip(calibration.chances(history, self.first, mode, start, end), 1e-9, 1 - 1e-9)
        two = np.clip(calibration.chances(history, self.second, mode, start, end), 1e-9, 1 - 1e-9)
        logit = self.weight * np.log(one / (1 - one)) + (1 - self.weight) * np.log(two / (1 - two))
        return 1.0 / (1.0 + np.exp(-logit))


# ---------------------------------------------------------------- 4. Bradley–Terry with decay

BT_GRID = {"half_life": (30.0, 90.0, 180.0, 365.0, 730.0, math.inf), "spread": (100.0, 200.0)}
BT_CONFIGS = list(product(*BT_GRID.values()))


def bt_fit(x, a, b, k, won, weight, prior, iterations=20, tolerance=1e-7):
    """MAP strengths (logit units) under weighted logistic likelihoods and a N(0, 1/prior) prior,
    Newton's method with the system solved by conjugate gradients (matrix-free). In place."""
    s = won.astype(float)
    players = len(x)
    for _ in range(iterations):
        z = k * (x[a] - x[b])
        p = 1.0 / (1.0 + np.exp(-z))
        r = weight * k * (s - p)
        grad = np.bincount(a, r, players) - np.bincount(b, r, players) - prior * x
        curv = weight * k * k * p * (1.0 - p)

        def hess(v):
            d = curv * (v[a] - v[b])
            return prior * v + np.bincount(a, d, players) - np.bincount(b, d, players)

        diag = prior + np.bincount(a, curv, players) + np.bincount(b, curv, players)
        # preconditioned CG on H δ = grad
        delta = np.zeros(players)
        res = grad.copy()
        zv = res / diag
        direction = zv.copy()
        rz = res @ zv
        for _ in range(100):
            hd = hess(direction)
            alpha = rz / (direction @ hd)
            delta += alpha * direction
            res -= alpha * hd
            if np.abs(res).max() < 1e-10:
                break
            zv = res / diag
            rz_new = res @ zv
            direction = zv + (rz_new / rz) * direction
            rz = rz_new
        x += delta
        if np.abs(delta).max() < tolerance:
            break
    return x


def bt_run(history, configs, blocks):
    a_idx, b_idx, n, won, days, players = _arrays(history)
    k = np.sqrt(n)  # strengths in logit units (rating points · POINTS)
    online = np.empty((len(history), len(configs)))
    frozen = {blk: np.empty((blk[1] - blk[0], len(configs))) for blk in blocks}
    starts = {s for s, _ in blocks}
    for c, (half_life, spread) in enumerate(configs):
        prior = 1.0 / (spread * POINTS) ** 2
        x = np.zeros(players)
        dirty: set = set()
        for i in range(len(history)):
            refit = i > 0 and (a_idx[i] in dirty or b_idx[i] in dirty or i in starts)
            if refit:
                decay = np.ones(i) if math.isinf(half_life) else 0.5 ** ((days[i] - days[:i]) / half_life)
                bt_fit(x, a_idx[:i], b_idx[:i], k[:i], won[:i], decay, prior)
                dirty.clear()
            if i in starts:
                for s, e in blocks:
                    if s == i:
                        frozen[(s, e)][:, c] = 1.0 / (1.0 + np.exp(-k[s:e] * (x[a_idx[s:e]] - x[b_idx[s:e]])))
            online[i, c] = 1.0 / (1.0 + math.exp(-k[i] * (x[a_idx[i]] - x[b_idx[i]])))
            dirty.update((a_idx[i], b_idx[i]))
    return online, frozen


def bt_label(c) -> str:
    return f"half-life {c[0]:g} d, s0 {c[1]:g}"


# ---------------------------------------------------------------- driver


def check_elo_is_fibs(samples) -> None:
    for sample in samples:
        online, frozen = elo_run(sample.history, [ELO_CONFIGS[0]], ((len(sample.history) // 2, len(sample.history)),))
        fibs = calibration.chances(sample.history, None, "online", 0, len(sample.history))
        start = len(sample.history) // 2
        fibs_frozen = calibration.chances(sample.history, None, "frozen", start, len(sample.history))
        assert np.abs(online[:, 0] - fibs).max() < 1e-9, np.abs(online[:, 0] - fibs).max()
        assert np.abs(frozen[(start, len(sample.history))][:, 0] - fibs_frozen).max() < 1e-9


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--resamples", type=int, default=2000)
    parser.add_argument("--only", default="", help="comma-separated model names (default: all)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    samples = real_samples()
    if not samples:
        print("The real sets are not here (../shared/data/realdata/); nothing to measure.")
        return
    check_elo_is_fibs(samples)
    print("Elo with FIBS's configuration reproduces FIBS (online and frozen).")

    no_offset = [i for i, c in enumerate(ELO_CONFIGS) if c[4] is None]
    fibs_with = {o: [i for i, c in enumerate(ELO_CONFIGS) if c[:4] == ELO_CONFIGS[0][:4] and c[4] == o]
                 for o in ELO_GRID["offset"]}
    whr_by_offset = {o: [i for i, c in enumerate(WHR_CONFIGS) if c[2] == o] for o in WHR_GRID["offset"]}
    labels = {}
    elo_fitted, whr_fitted = Fitted(elo_run, ELO_CONFIGS), Fitted(whr_run, WHR_CONFIGS)
    models = {
        "fibs": None,
        "crawford": CrawfordParameters(),
        "elo fitted": elo_fitted,
        "elo fitted, new 1500": Fitted(elo_run, ELO_CONFIGS, no_offset),
        "FIBS, new −50": Fitted(elo_run, ELO_CONFIGS, fibs_with[-50.0]),
        "FIBS, new −100": Fitted(elo_run, ELO_CONFIGS, fibs_with[-100.0]),
        "FIBS, new fitted": Fitted(elo_run, ELO_CONFIGS, [j for js in fibs_with.values() for j in js]),
        "WHR fitted": whr_fitted,
        "elo fitted, all past": Fitted(elo_run, ELO_CONFIGS, window=1.0),
        "WHR fitted, all past": Fitted(whr_run, WHR_CONFIGS, window=1.0),
        "WHR fitted, new 0": Fitted(whr_run, WHR_CONFIGS, whr_by_offset[None]),
        "WHR fitted, new −50": Fitted(whr_run, WHR_CONFIGS, whr_by_offset[-50.0]),
        "WHR fitted, new −100": Fitted(whr_run, WHR_CONFIGS, whr_by_offset[-100.0]),
        "logit ½ crawford+fibs": LogitBlend(),
        "BT decay fitted": Fitted(bt_run, BT_CONFIGS),
        "logit ½ WHR+elo fitted": LogitBlend(whr_fitted, elo_fitted),
    }
    for name, model in models.items():
        if isinstance(model, Fitted):
            labels[name] = {elo_run: elo_label, whr_run: whr_label, bt_run: bt_label}[model.run]
    if args.only:
        keep = {"fibs", "crawford", *args.only.split(",")}
        models = {name: model for name, model in models.items() if name in keep}
    for mode in calibration.MODES:
        print()
        t = time.perf_counter()
        scores = calibration.score_origins(samples, models, mode)
        print(f"({mode}: scored in {time.perf_counter() - t:.0f} s)")
        for line in calibration.format_origins(scores, "fibs", "crawford", rng, args.resamples):
            print(line)
    print("\nChosen before each origin (set: origin start → configuration):")
    for name, model in models.items():
        if isinstance(model, Fitted):
            print(f"  {name}:")
            for sample in samples:
                picks = [f"{start}: {labels[name](c)}" for (size, start), c in sorted(model.chosen.items())
                         if size == len(sample.history)]
                print(f"    {sample.name}: " + "; ".join(picks))
    print(f"\nDone in {time.perf_counter() - started:.0f} s.")


if __name__ == "__main__":
    main()
