"""How well the rating systems predict match results, and the fit of crawford's parameters.

    python bench/ratings_accuracy.py [--quick] [--seed 7] [--data RESULTS.csv ...] [--no-origins]

Every data set is replayed in time order and every match is predicted before it is rated (the
`expected` chance a run stores), so a score is always of a forecast made from the past alone.

Data sets:

* real results: ../shared/data/realdata/bglab_online.csv, and any `--data` file in the
  `import_results` format (`played_on,player_a,player_b,length,score_a,score_b`): a federation
  can check the defaults on its own history;
* league.csv: GNU Backgammon bots of known, constant strength (../shared/data/league.csv);
* simulated clubs (bench/ratings_match_sim.py `drifting_club`): skill that drifts at a rate drawn
  at random and never shown to the fit, players who arrive and leave, uneven activity, matches
  played game by game with gammons, cube and the Crawford rule.

Time-series validation: each set is cut by date, the first 80% to fit on, the last 20% held out.
crawford's parameters are fitted by a coordinate search over round grids on the fitting part
of every set together, never on a held-out match: the values that beat FIBS by the most on
the set where they beat it least (minimax of the log-loss difference, so that the defaults win
everywhere rather than on average). The effective length S(N) (its constant C) is fitted on the
real players' results only (bglab_online.csv and any --data file), by their mean, and stays the
FIBS length S(N) = N unless they favour another value by more than LENGTH_MARGIN: bots are not
people, a simulator's games are a model whose length effect is its own, and the real set of one
player against strangers, with nearly all matches of 3 to 7 points, cannot tell C apart. The fit is also repeated from rolling origins (fit on the first 50%, 60%,
70% of each set, score the next 10%) to show that the chosen values are stable and that their
advantage holds on every block that follows a fit.

For each set, on its held-out matches: log loss and Brier score of every model, the paired
bootstrap interval of each model's log loss minus FIBS's, the same per match length, and a
reliability table (the favourite's predicted chance against how often the favourite won).
Models compared: FIBS; crawford with the fitted parameters (the defaults in
ratings/systems/params.py); crawford with S(N) as a table per length (fitted on the fitting parts
of the real sets, for each length with LENGTH_MATCHES there); Whole-
History Rating (bench/whr.py; its w and s₀ chosen per set on the fitting part, refitted every
WHR_BLOCK matches and forecasting the next from the past only); crawford with its fallback RD
fixed (not estimated);
textbook Glicko-2 (σ 0.06, τ 0.5, RD 350, S(N) = N); and crawford with the parameters it had
before the first fit (fitted on constant-skill leagues alone).

--quick (about 15 s on a quiet machine): one simulated club, one round of the search starting from
the defaults (a check that they still hold), smaller grids for the table and WHR, fewer
resamples, no rolling origins. The full run (about 50 s with --no-origins, 100 s with the
rolling origins) is the record.
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from itertools import pairwise
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.ratings_match_sim import drifting_club
from bench.whr import WhrParameters, forecasts
from ratings.systems import CrawfordParameters, CrawfordRating, FibsRating, MatchRecord
from bench.shared_data import SHARED_DATA  # noqa: E402

DATA = SHARED_DATA
REAL_SETS = (DATA / "realdata" / "bglab_online.csv",)
LEAGUE_CSV = DATA / "league.csv"
FIT_SHARE = 0.8
ORIGINS = (0.5, 0.6, 0.7)
ORIGIN_BLOCK = 0.1

GRIDS = {
    "length_constant": (0.5, 1.0, 1.5, 2.0, 3.0),
    "initial_deviation": (100.0, 150.0, 200.0, 300.0),
    "initial_volatility": (0.02, 0.04, 0.06, 0.09, 0.12, 0.18, 0.25, 0.35),
    "tau": (0.2, 0.5, 0.8, 1.2),
    "match_growth": (0.0, 0.5, 1.0, 2.0, 4.0),
}
"""The values the fit may choose from, per parameter. C = 2 is S(N) = N, the FIBS length."""

START = {"length_constant": 2.0, "initial_deviation": 200.0, "initial_volatility": 0.06, "tau": 0.5,
         "match_growth": 0.0}
"""Where the coordinate search starts: textbook Glicko-2 with the FIBS length. A new player's
deviation is estimated from each history (`population_deviation`); what is fitted is the value
the estimate starts from and falls back to when a history has too few established players to
tell (bglab: one player against strangers)."""

FIBS_LENGTH_CONSTANT = 2.0
"""C = 2: S(N) = N, the length FIBS's formula uses and decades of online play stand on."""
LENGTH_MARGIN = 0.001
"""C leaves the FIBS length only when the real sets' fitting parts favour another value by more
than this (mean log loss against FIBS): on bglab_online.csv every C from 0.5 to 3 lies within
0.0003 of the others, noise that would otherwise choose the curve (the first fit took 0.5)."""

LENGTH_MULTIPLIERS = (0.5, 0.7, 1.0, 1.4, 2.0)
"""The per-length table of S(N) is searched over these multiples of the curve's S(N)."""
LENGTH_MULTIPLIERS_QUICK = (0.6, 1.0, 1.6)
"""--quick: fewer multiples (the machine is shared; the full run is the record)."""
LENGTH_MATCHES = 100
"""A length enters the table only with at least this many matches in the fitting parts of the
real sets; the others keep the curve."""

WHR_GRID = {"step": (1.0, 3.0, 8.0), "spread": (100.0, 200.0, 350.0)}
WHR_GRID_QUICK = {"step": (3.0,), "spread": (100.0, 300.0)}
"""Whole-History Rating's Wiener step w (points per √day) and new-player spread s₀, chosen per
set on its fitting part alone: fit on the first 60%, forecast 60-80% block by block."""
WHR_BLOCK = 20
"""Matches per block of the WHR forecasts (never splitting a day): refit, then predict the next."""

TEXTBOOK = CrawfordParameters(
    initial_deviation=350.0, initial_volatility=0.06, tau=0.5, length_constant=2.0, match_growth=0.0,
    estimate_initial_deviation=False,
)
PREVIOUS = CrawfordParameters(
    initial_deviation=300.0, initial_volatility=0.005, tau=0.05, length_constant=1.0, match_growth=0.0,
    estimate_initial_deviation=False,
)
CLUB_SPREADS = (0.6, 1.0)
"""The simulated clubs' skill spreads: a club of regulars, and one where beginners play experts
(--quick: the first)."""
RELIABILITY_BINS = (0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 1.0001)


@dataclass
class DataSet:
    """A history in time order and what kind of results it holds."""

    name: str
    kind: str  # "real", "bots" or "simulated"
    history: list[MatchRecord]

    @property
    def players(self) -> int:
        """How many players took part."""
        return len({name for record in self.history for name in (record.player_a, record.player_b)})

    @property
    def a_won(self) -> np.ndarray:
        return np.array([record.winner == "a" for record in self.history])

    @property
    def lengths(self) -> np.ndarray:
        return np.array([record.length for record in self.history])

    def cut(self, share: float) -> int:
        """The number of matches before the date that cuts off `share` of the history (a day's
        matches are never split between fitting and scoring)."""
        index = int(len(self.history) * share)
        day = self.history[index].played_on
        while index > 0 and self.history[index - 1].played_on == day:
            index -= 1
        return index


# ---------------------------------------------------------------- data sets


def results_csv(path: Path, kind: str = "real") -> DataSet:
    """A results file in the import_results format. Rows without a date (older rows of some
    exports) keep their place and take the first date of the file."""
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    first = next(row["played_on"] for row in rows if row["played_on"])
    history = []
    for match_id, row in enumerate(rows):
        a_won = int(row["score_a"]) > int(row["score_b"])
        played_on = date.fromisoformat((row["played_on"] or first)[:10])
        history.append(MatchRecord(match_id, played_on, row["player_a"], row["player_b"], int(row["length"]),
                                   "a" if a_won else "b"))
    history.sort(key=lambda record: (record.played_on, record.match_id))
    return DataSet(path.name, kind, history)


def simulated_club(seed: int, skill_spread: float = 0.6, **club) -> DataSet:
    """A simulated club (drifting skills, arrivals and departures, uneven activity); its players'
    skill spread as `drifting_club` takes it (0.6 regulars, 1.0 beginners beside experts), and
    any other of its settings in `club` (`drift_per_year`, `matches`, …)."""
    matches, info = drifting_club(random.Random(seed), skill_spread=skill_spread, **club)
    start = date(2023, 1, 1)
    history = [MatchRecord(i, start + timedelta(days=day), a, b, length, "a" if a_won else "b")
               for i, (day, a, b, length, a_won, _) in enumerate(matches)]
    return DataSet(f"simulated club, seed {seed} ({info['players']} players, skill drift "
                   f"{info['drift_per_year']:.2f}/year, spread {skill_spread:g})", "simulated", history)


# ---------------------------------------------------------------- predictions and scores


def predictions(history: list[MatchRecord], parameters: CrawfordParameters | None, fit_part: int | None = None) -> np.ndarray:
    """Each match's chance for player A before it was rated: FIBS when `parameters` is None,
    else crawford with both players' deviations (the `expected` a run stores). A new player's
    deviation, when estimated, is estimated on the first `fit_part` matches only (all when None),
    so that nothing of a held-out match reaches a forecast."""
    if parameters is None:
        system = FibsRating()
    else:
        system = CrawfordRating(parameters).estimated_for(history[:fit_part])
    changes = system.run(history).changes
    return np.array([changes[i].expected for i in range(0, len(changes), 2)])


def log_losses(chances: np.ndarray, a_won: np.ndarray) -> np.ndarray:
    chances = np.clip(chances, 1e-12, 1.0 - 1e-12)
    return -np.log(np.where(a_won, chances, 1.0 - chances))


def paired_bootstrap(differences: np.ndarray, rng: np.random.Generator, resamples: int) -> tuple[float, float, float]:
    """Mean of the per-match differences and its 95% percentile bootstrap interval."""
    n = len(differences)
    means = np.sort(differences[rng.integers(0, n, size=(resamples, n))].mean(axis=1))
    return float(differences.mean()), float(means[int(0.025 * resamples)]), float(means[int(0.975 * resamples) - 1])


def parameters_of(values: dict) -> CrawfordParameters:
    return CrawfordParameters(**values, estimate_initial_deviation=True, effective_lengths={})


# ---------------------------------------------------------------- the fit


def fit_parameters(sets: list[DataSet], share: float, rounds: int, *, verbose: bool, start: dict | None = None) -> dict:
    """Coordinate search over `GRIDS`: each parameter in turn set to its value that does best
    against FIBS on the set where it does worst (the largest log loss minus FIBS's on the first
    `share` of each set; ties by the mean difference), for `rounds` rounds or until nothing
    changes; C by the mean over the real sets, the FIBS length unless they favour another by
    more than LENGTH_MARGIN. Only matches before each set's cut are ever run. Fitting the worst
    set rather than the mean keeps one set, or one player's long history, from choosing for all."""
    parts = [(s.history[:s.cut(share)], s.a_won[:s.cut(share)]) for s in sets]
    fibs = [float(log_losses(predictions(h, None), won).mean()) for h, won in parts]
    played = [s.kind == "real" for s in sets]
    memo: dict[tuple, list[float]] = {}

    def differences(values: dict) -> list[float]:
        key = tuple(sorted(values.items()))
        if key not in memo:
            parameters = parameters_of(values)
            memo[key] = [float(log_losses(predictions(h, parameters), won).mean()) - f
                         for (h, won), f in zip(parts, fibs)]
        return memo[key]

    def loss(values: dict, *, length: bool = False) -> tuple[float, float]:
        """(the worst set's log loss minus FIBS's, the mean of that over the sets); for the
        length curve (the mean over the real sets, the worst)."""
        if length:
            chosen = [d for d, p in zip(differences(values), played) if p]
            return float(np.mean(chosen)), max(chosen)
        chosen = differences(values)
        return max(chosen), float(np.mean(chosen))

    values = dict(START if start is None else start)
    for round_number in range(1, rounds + 1):
        before = dict(values)
        for name, grid in GRIDS.items():
            if name == "length_constant":
                # the length curve from real players' results only, and the FIBS length unless
                # they favour another value by more than LENGTH_MARGIN
                scored = {v: loss({**values, name: v}, length=True) for v in grid}
                best = min(grid, key=lambda v: (scored[v], v))
                fibs_length = scored[FIBS_LENGTH_CONSTANT][0] - scored[best][0] <= LENGTH_MARGIN
                values[name] = FIBS_LENGTH_CONSTANT if fibs_length else best
                if verbose:
                    print("    C on the real sets' fitting parts: " + ", ".join(
                        f"{v:g} {scored[v][0]:+.5f}" for v in grid) + f" → {values[name]:g}")
                continue
            values[name] = min(grid, key=lambda v: (loss({**values, name: v}), v))
        if verbose:
            print(f"  round {round_number}: " + ", ".join(f"{k} {v:g}" for k, v in values.items())
                  + "  worst set − fibs {:+.5f}, mean {:+.5f}".format(*loss(values)) + f" ({len(memo)} runs)")
        if values == before:
            break
    return values


def fit_length_table(sets: list[DataSet], share: float, values: dict, multipliers: Sequence[float],
                     *, verbose: bool) -> dict[int, float]:
    """S(N) per length, with the other parameters at `values`: each length with enough matches
    (LENGTH_MATCHES in the fitting parts of the real sets) in turn set
    to the multiple of the curve's S(N) that gives the least mean log loss on those fitting
    parts; one pass, the longest lengths last. Only matches before each set's cut are run."""
    played = [s for s in sets if s.kind == "real"]
    parts = [(s.history[:s.cut(share)], s.a_won[:s.cut(share)]) for s in played]
    counts = Counter(record.length for history, _ in parts for record in history)
    curve = parameters_of(values)
    table: dict[int, float] = {}

    memo: dict[tuple, float] = {}

    def loss(candidate: dict[int, float]) -> float:
        key = tuple(sorted(candidate.items()))
        if key not in memo:
            parameters = replace(curve, effective_lengths=dict(candidate))
            memo[key] = float(np.mean([log_losses(predictions(h, parameters), won).mean() for h, won in parts]))
        return memo[key]

    for length in sorted(n for n, count in counts.items() if count >= LENGTH_MATCHES):
        base = curve.effective_length(length)
        scored = {m: loss(table if m == 1.0 else {**table, length: round(base * m, 2)}) for m in multipliers}
        best = min(scored, key=lambda m: (scored[m], abs(m - 1.0)))
        table[length] = round(base * best, 2)
        if verbose:
            print(f"    {length:>2}-point: {counts[length]:>4} matches to fit on, curve S {base:.2f}, "
                  + ", ".join(f"×{m:g} {scored[m]:.5f}" for m in multipliers) + f"  → S {table[length]:.2f}")
    if verbose:
        rare = sorted(n for n, count in counts.items() if count < LENGTH_MATCHES)
        print("    too few matches for a value of their own (the curve): "
              + ", ".join(f"{n} ({counts[n]})" for n in rare))
    return table


def whr_chances(data: DataSet, parameters: WhrParameters, start: int, end: int) -> np.ndarray:
    return np.array(forecasts(data.history, start, end, parameters, WHR_BLOCK))


def fit_whr(data: DataSet, length_constant: float, grid: dict, *, verbose: bool) -> WhrParameters:
    """WHR's w and s₀ for one set, on its fitting part alone: fit on the first 60% and forecast
    the next 20% block by block; the pair with the least log loss there."""
    start, end = data.cut(FIT_SHARE - 0.2), data.cut(FIT_SHARE)
    won = data.a_won[start:end]
    scored = {}
    for step in grid["step"]:
        for spread in grid["spread"]:
            parameters = WhrParameters(step=step, spread=spread, length_constant=length_constant)
            scored[parameters] = float(log_losses(whr_chances(data, parameters, start, end), won).mean())
    best = min(scored, key=scored.get)
    if verbose:
        print(f"  WHR on {data.name[:40]}: " + ", ".join(f"w {p.step:g} s₀ {p.spread:g} {v:.4f}"
                                                        for p, v in scored.items())
              + f"  → w {best.step:g}, s₀ {best.spread:g}")
    return best


# ---------------------------------------------------------------- reports


def report_set(data: DataSet, models: dict[str, CrawfordParameters | WhrParameters | None],
               rng: np.random.Generator, resamples: int) -> dict:
    """The held-out figures of one set; returns {model: (difference, low, high)} against FIBS."""
    start = data.cut(FIT_SHARE)
    won = data.a_won[start:]
    lengths = data.lengths[start:]
    chances = {name: whr_chances(data, p, start, len(data.history)) if isinstance(p, WhrParameters)
               else predictions(data.history, p, start)[start:] for name, p in models.items()}
    losses = {name: log_losses(chance, won) for name, chance in chances.items()}
    estimated = CrawfordRating(models["crawford"]).estimated_for(data.history[:start]).parameters
    print(f"\n{data.name} [{data.kind}]: {len(data.history):,} matches, held out the last {len(won):,}"
          f" (from {data.history[start].played_on}); crawford's new-player deviation, estimated on the"
          f" matches before: {estimated.initial_deviation:.0f}")
    intervals = {}
    for name in models:
        brier = float(((chances[name] - won) ** 2).mean())
        line = f"  {name:<24} log loss {losses[name].mean():.4f}  Brier {brier:.4f}"
        if name != "fibs":
            intervals[name] = paired_bootstrap(losses[name] - losses["fibs"], rng, resamples)
            mean, low, high = intervals[name]
            line += f"   − fibs {mean:+.4f} [{low:+.4f}, {high:+.4f}]"
        print(line)
    table = "crawford, S(N) table"
    print("  per length (held out): matches, log loss fibs, crawford, crawford with the S(N) table,"
          " crawford − fibs [95% interval], favourite's chance vs win rate (fibs; crawford; table)")
    for length in sorted(set(lengths.tolist())):
        rows = lengths == length
        if rows.sum() < 5:
            continue
        cells = []
        for name in ("fibs", "crawford", table):
            favourite = np.maximum(chances[name][rows], 1.0 - chances[name][rows])
            favourite_won = (chances[name][rows] >= 0.5) == won[rows]
            cells.append(f"{favourite.mean():.2f} v {favourite_won.mean():.2f}")
        mean, low, high = paired_bootstrap(losses["crawford"][rows] - losses["fibs"][rows], rng, resamples)
        print(f"    {length:>2}-point {int(rows.sum()):>5}   {losses['fibs'][rows].mean():.4f}"
              f"  {losses['crawford'][rows].mean():.4f}  {losses[table][rows].mean():.4f}"
              f"  {mean:+.4f} [{low:+.4f}, {high:+.4f}]   " + "; ".join(cells))
    print("  reliability (held out): favourite's predicted chance in bins, matches / mean predicted / won")
    for name in ("fibs", "crawford"):
        favourite = np.maximum(chances[name], 1.0 - chances[name])
        favourite_won = (chances[name] >= 0.5) == won
        cells = []
        for low, high in pairwise(RELIABILITY_BINS):
            rows = (favourite >= low) & (favourite < high)
            if rows.any():
                cells.append(f"{low:.2f}-{min(high, 1.0):.2f}: {int(rows.sum())}/{favourite[rows].mean():.3f}/"
                             f"{favourite_won[rows].mean():.3f}")
        print(f"    {name:<9} " + "  ".join(cells))
    return intervals


def report_origins(sets: list[DataSet], rounds: int, rng: np.random.Generator, resamples: int) -> None:
    """Rolling origins: fit on each set's first 50%, 60%, 70%; score the next 10% of each."""
    print("\nRolling origins: fit on every set's history up to the origin, score each set's next"
          f" {ORIGIN_BLOCK:.0%} (crawford − fibs, log loss, 95% interval)")
    for origin in ORIGINS:
        values = fit_parameters(sets, origin, rounds, verbose=False)
        parameters = parameters_of(values)
        print(f"  origin {origin:.0%}: fitted " + ", ".join(f"{k} {v:g}" for k, v in values.items()))
        for data in sets:
            start, end = data.cut(origin), data.cut(origin + ORIGIN_BLOCK)
            history = data.history[:end]
            won = data.a_won[start:end]
            fibs = log_losses(predictions(history, None)[start:], won)
            crawford = log_losses(predictions(history, parameters, start)[start:], won)
            mean, low, high = paired_bootstrap(crawford - fibs, rng, resamples)
            print(f"    {data.name[:58]:<58} {len(won):>4} matches  fibs {fibs.mean():.4f}  crawford "
                  f"{crawford.mean():.4f}  {mean:+.4f} [{low:+.4f}, {high:+.4f}]")


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="one simulated club, one round of the fit from the defaults, smaller grids, fewer resamples")
    parser.add_argument("--seed", type=int, default=7, help="seed of the simulated clubs and the bootstrap")
    parser.add_argument("--data", type=Path, action="append", default=[],
                        help="another file of real results (import_results format); may be repeated")
    parser.add_argument("--no-origins", action="store_true", help="skip the rolling-origin fits (always skipped by --quick)")
    args = parser.parse_args(argv)
    rounds, resamples, clubs = (1, 1000, 1) if args.quick else (3, 2000, 2)
    started = time.perf_counter()
    rng = np.random.default_rng(args.seed)

    sets = [results_csv(path) for path in (*REAL_SETS, *args.data)]
    sets.append(results_csv(LEAGUE_CSV, "bots"))
    sets += [simulated_club(args.seed + i, spread) for i, spread in zip(range(clubs), CLUB_SPREADS)]
    print("Data sets (each cut by date: the first 80% to fit on, the last 20% held out):")
    for data in sets:
        print(f"  {data.name} [{data.kind}]: {len(data.history):,} matches, {data.players} players,"
              f" {data.history[0].played_on} to {data.history[-1].played_on}")

    print("\nFitting crawford's parameters on the first 80% of every set (the values that beat FIBS by the most"
          " on the set where they beat it least; C on the real sets, the FIBS length unless they favour another):")
    # --quick checks the defaults: one round of the search from them (the full run starts from START)
    defaults = CrawfordParameters()
    values = fit_parameters(sets, FIT_SHARE, rounds, verbose=True,
                            start={name: getattr(defaults, name) for name in GRIDS} if args.quick else None)
    fitted = parameters_of(values)
    current = CrawfordParameters()
    agree = all(getattr(current, name) == getattr(fitted, name) for name in GRIDS)
    print(f"  ratings/systems/params.py {'holds these values' if agree else 'DIFFERS: update it to these values'}")

    print("\nFitting S(N) per length on the first 80% of the real sets (the other"
          " parameters as fitted; mean log loss per multiple of the curve's S):")
    table = fit_length_table(sets, FIT_SHARE, values, LENGTH_MULTIPLIERS_QUICK if args.quick else LENGTH_MULTIPLIERS,
                             verbose=True)
    print("  table: " + ", ".join(f"S({n}) = {v:g}" for n, v in table.items())
          + f"  (params.py: {dict(current.effective_lengths) or 'none'})")

    print("\nWhole-History Rating, w and s₀ chosen per set on its fitting part (C as fitted):")
    grid = WHR_GRID_QUICK if args.quick else WHR_GRID
    whr = {data.name: fit_whr(data, values["length_constant"], grid, verbose=True) for data in sets}

    models = {"fibs": None, "crawford": fitted, "crawford, S(N) table": replace(fitted, effective_lengths=table),
              "whole-history rating": None, f"crawford, RD {fitted.initial_deviation:g} fixed": replace(fitted, estimate_initial_deviation=False),
              "textbook glicko-2": TEXTBOOK, "crawford before": PREVIOUS}
    summary = {}
    for data in sets:
        intervals = report_set(data, {**models, "whole-history rating": whr[data.name]}, rng, resamples)
        summary[data.name] = (data.kind, intervals)
    print("\nSummary, held-out log loss minus FIBS's [95% paired bootstrap interval]:")
    for name, (kind, intervals) in summary.items():
        print(f"  {name[:64]} [{kind}]")
        for model in ("crawford", "crawford, S(N) table", "whole-history rating"):
            mean, low, high = intervals[model]
            verdict = "better" if high < 0 else "worse" if low > 0 else "better, interval spans 0" if mean < 0 else "worse, interval spans 0"
            print(f"    {model:<24} {mean:+.4f} [{low:+.4f}, {high:+.4f}]  {verdict}")
    if not (args.no_origins or args.quick):
        report_origins(sets, rounds, rng, resamples)
    print(f"\nDone in {time.perf_counter() - started:.0f} s.")


if __name__ == "__main__":
    main()
