"""How well the rating systems forecast real clubs' matches, and the fit of crawford's defaults.

    python bench/ratings_accuracy.py [--quick] [--seed 7] [--data RESULTS.csv ...]

Data: the real histories in ../shared/data/realdata/ (or $CRAWFORD_SHARED_DATA/realdata/) (`club_history.csv`, a club whose 59
members meet again and again; `league_athens.csv`, an inter-club league; `bglab_online.csv`, one
online player against a thousand strangers) and any `--data` file in the `import_results` format
(`played_on,player_a,player_b,length,score_a,score_b`; both scores blank: player_a won). Each set
counts in the pooled figures and in the fit by how much it tells about clubs and federations
(REAL_WEIGHTS: the two clubs 1, bglab a quarter), not by the worst set.

Time-series validation (`ratings.calibration`, the same code `manage.py calibrate_ratings` runs
on a site's own history), in two forecast modes, both printed:

* online: each match forecast from everything before it, as the site publishes;
* frozen: the history up to a cut rated, the period after it forecast from those ratings alone
  (no updates; deviations grown to each match's day), as a federation predicting next season.

The fit sees the first 80% of each set by date only: rolling origins at 50%, 60% and 70%, each
scoring the next 10%, in both modes; crawford's parameters by a coordinate search over
`calibration.GRID` from the defaults (the weighted mean over the sets, mean over the modes, of
log loss − FIBS). The last 20% of each set is held out and scored once: per set, pooled
(weighted) with a paired bootstrap 95% interval against FIBS (resampled within each set), per
length and as a reliability table. Models: FIBS, crawford with the defaults (params.py), crawford
as fitted (when it differs), textbook Glicko-2 (σ 0.06, τ 0.5, RD 350, S(N) = N) and, in the full
run, Whole-History Rating (bench/whr.py; w and s₀ fitted the same way).

--quick (15 s of CPU; 50 s to 2 minutes of wall time on a busy two-core machine): one round
of the fit over a small grid from the defaults (a check that they still hold), no WHR, fewer
resamples. The full run (477 s on the same machine, WHR's fit about half of it) is the record.

--origins every5 (147 s of wall time, 93 s of CPU on the same machine): no fit; FIBS, the
defaults, textbook Glicko-2 and ORIGIN_VARIANTS (crawford's defaults changed one way at a time,
and bench/ratings_newcomers.py's changes to the model) scored from an origin every 5% from 40%
to 95% of each set, each on the next 5%, both modes: per set the mean over its blocks of
model − FIBS and the blocks won, pooled with intervals against FIBS and the defaults, for the
blocks of the fitting part (ending by 80%) and of the held-out part apart (issue #23; the table
is in docs/ratings.md, "Many rolling origins").

The simulated clubs and the bot league of the earlier fits remain in `simulated_club` and
LEAGUE_CSV for bench/ratings_club_grid.py.
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.ratings_match_sim import drifting_club
from bench.ratings_newcomers import CrawfordVariant, FittedNewcomerOffset
from bench.whr import WhrParameters, forecasts
from ratings.systems import CrawfordParameters, CrawfordRating, FibsRating, MatchRecord
from config.shared_data import SHARED_DATA  # noqa: E402

DATA = SHARED_DATA
LEAGUE_CSV = DATA / "league.csv"
WHR_BLOCK = 20
"""Matches per block of the online WHR forecasts (never splitting a day): refit, then predict the next."""
FIBS_LENGTH_CONSTANT = 2.0

TEXTBOOK = CrawfordParameters(
    initial_deviation=350.0, initial_volatility=0.06, tau=0.5, length_constant=2.0, match_growth=0.0,
    newcomer_offset=0.0, newcomer_deviation=None,
)
FIT_SHARE = 0.8


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


def winner_is_a(row: dict) -> bool:
    """Whether player A won a row of a results file: by the final score, or, both scores blank
    (a club's list of winners), player A. A blank score is never read as 0: one score blank and
    the other given is refused."""
    score_a, score_b = (row["score_a"] or "").strip(), (row["score_b"] or "").strip()
    if not score_a and not score_b:
        return True
    if not score_a or not score_b:
        raise ValueError(f"one score given and the other blank: {row}")
    if int(score_a) == int(score_b):
        raise ValueError(f"equal scores name no winner: {row}")
    return int(score_a) > int(score_b)


def results_csv(path: Path, kind: str = "real") -> DataSet:
    """A results file in the import_results format. Rows without a date (older rows of some
    exports) keep their place and take the first date of the file."""
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    first = next(row["played_on"] for row in rows if row["played_on"])
    history = []
    for match_id, row in enumerate(rows):
        a_won = winner_is_a(row)
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
        system = CrawfordRating(parameters)
    changes = system.run(history).changes
    return np.array([changes[i].expected for i in range(0, len(changes), 2)])


# ---------------------------------------------------------------- main

REAL_WEIGHTS = {"club_history.csv": 1.0, "league_athens.csv": 1.0, "bglab_online.csv": 0.25}
"""Each real set's weight in the pooled figures and in the fit: how much it tells about clubs and
federations whose members meet again and again. bglab is one player against about a thousand
strangers, most met once: it counts a quarter. A --data file counts 1."""
CLUB_SETS = tuple(DATA / "realdata" / name for name in REAL_WEIGHTS)


def real_samples(extra: Sequence[Path] = ()) -> list:
    """The real sets that are here (CLUB_SETS), then the files of `extra`, each as a
    `calibration.Sample` with its weight (REAL_WEIGHTS; another file 1)."""
    from ratings import calibration

    samples = []
    for path in (*(path for path in CLUB_SETS if path.exists()), *extra):
        data = results_csv(path)
        samples.append(calibration.Sample(data.name, data.history, REAL_WEIGHTS.get(path.name, 1.0)))
    return samples


QUICK_GRID = {"initial_deviation": (100.0, 150.0), "initial_volatility": (0.06, 0.09, 0.12)}
"""--quick: one round over these values only, from the defaults (a check that they still hold)."""


ORIGIN_VARIANTS = {
    "no newcomer start": CrawfordParameters(newcomer_offset=0.0, newcomer_deviation=None),
    "RD 350": CrawfordParameters(initial_deviation=350.0),
    "founders RD 200, cap 100": CrawfordParameters(initial_deviation=200.0, maximum_deviation=100.0),
    "σ 0.06": CrawfordParameters(initial_volatility=0.06),
    "σ 0.20": CrawfordParameters(initial_volatility=0.2),
    "C 3": CrawfordParameters(length_constant=3.0),
    "growth 1, σ 0.06": CrawfordParameters(match_growth=1.0, initial_volatility=0.06),
    "RD floor 80": CrawfordVariant(deviation_floor=80.0),
    "newcomer at the mean": CrawfordVariant(newcomer_offset=0.0),
    "newcomer −50": CrawfordVariant(newcomer_offset=-50.0),
    "newcomer −100": CrawfordVariant(newcomer_offset=-100.0),
    "newcomer, fitted": FittedNewcomerOffset(),
}
"""--origins every5: crawford's defaults changed one way at a time (and textbook Glicko-2 with the
new-player RD estimated), each against FIBS and the defaults on many rolling origins. The last
five are bench/ratings_newcomers.py's changes to the model: a deviation floor, and a newcomer
starting at the mean of the established players or that many points below it (fixed, or
fitted on the matches before each origin)."""


def origins_report(samples, calibration, rng, resamples: int) -> None:
    """--origins every5: FIBS, the defaults, textbook Glicko-2 and ORIGIN_VARIANTS on the blocks
    of many rolling origins (every 5% from 40% to 95% of each set, the next 5% each), both modes;
    the blocks of the fitting part (ending by 80%) and of the held-out part apart."""
    models = {"fibs": None, "crawford": CrawfordParameters(), "textbook": TEXTBOOK, **ORIGIN_VARIANTS}
    for mode in calibration.MODES:
        print()
        scores = calibration.score_origins(samples, models, mode)
        for line in calibration.format_origins(scores, "fibs", "crawford", rng, resamples):
            print(line)


WHR_CHOICES = {"step": (1.5, 4.0), "spread": (120.0, 250.0)}
"""Whole-History Rating's Wiener step w (points per √day) and new-player spread s₀, chosen like
crawford's parameters: on the rolling origins of the fitting parts, pooled, both modes."""


@dataclass(frozen=True)
class WhrForecaster:
    """Whole-History Rating as a forecaster for `ratings.calibration`: online, refitted after every
    block of WHR_BLOCK matches and forecasting the next from the past alone; frozen, fitted on the
    matches before the period and forecasting it whole."""

    parameters: WhrParameters

    def __call__(self, history, mode: str, start: int, end: int) -> np.ndarray:
        block = WHR_BLOCK if mode == "online" else max(1, end - start)
        return np.array(forecasts(history, start, end, self.parameters, block))


def fit_whr_pooled(samples, calibration, *, log) -> WhrForecaster:
    """WHR's (w, s₀) with the least objective of `calibration.fit`'s kind (mean over both modes of
    the weighted mean over the sets of log loss − FIBS on the rolling origins' blocks)."""
    fibs = {(s.name, mode): float(calibration.fitting_losses(s.history, None, mode).mean())
            for s in samples for mode in calibration.MODES}
    scored = {}
    for step in WHR_CHOICES["step"]:
        for spread in WHR_CHOICES["spread"]:
            model = WhrForecaster(WhrParameters(step=step, spread=spread, length_constant=FIBS_LENGTH_CONSTANT))
            scored[model] = float(np.mean([calibration.pooled(
                [float(calibration.fitting_losses(s.history, model, mode).mean()) - fibs[s.name, mode] for s in samples],
                samples) for mode in calibration.MODES]))
            log(f"WHR w {step:g}, s₀ {spread:g}: fitting objective {scored[model]:+.5f}")
    return min(scored, key=scored.get)


def main(argv: list[str] | None = None) -> None:
    from ratings import calibration

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="one round of the fit over a small grid from the defaults, fewer resamples")
    parser.add_argument("--seed", type=int, default=7, help="seed of the bootstrap")
    parser.add_argument("--origins", choices=("fit", "every5"), default="fit",
                        help="fit: the fit and the held-out tables (the default); every5: the defaults and"
                             " ORIGIN_VARIANTS against FIBS from an origin every 5%% from 40%% to 95%% of each set")
    parser.add_argument("--data", type=Path, action="append", default=[],
                        help="another file of real results (import_results format); may be repeated")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    resamples = 1000 if args.quick else 2000

    samples = real_samples(args.data)
    if not samples:
        print("The real sets are not here (../shared/data/realdata/) and no --data was given; nothing to measure.")
        return
    for sample in samples:
        history, start = sample.history, calibration.cut(sample.history, FIT_SHARE)
        players = len({name for record in history for name in (record.player_a, record.player_b)})
        print(f"  {sample.name}: {len(history):,} matches, {players} players, {history[0].played_on}"
              f" to {history[-1].played_on}, held out from {history[start].played_on}"
              f" ({len(history) - start} matches), weight {sample.weight:g}")

    if args.origins == "every5":
        origins_report(samples, calibration, rng, resamples)
        print(f"\nDone in {time.perf_counter() - started:.0f} s.")
        return
    defaults = CrawfordParameters()
    print("\nFit on the first 80% of every real set (rolling origins 50/60/70%, the next 10% each, online and"
          " frozen; weighted mean of log loss − FIBS):")
    fitted, objective = calibration.fit(samples, defaults, grid=QUICK_GRID if args.quick else calibration.GRID,
                                        rounds=1 if args.quick else 2, log=lambda line: print("  " + line))
    print(f"  defaults (ratings/systems/params.py): {calibration.describe(defaults)}")
    print(f"  fitted:                               {calibration.describe(fitted)}"
          + ("  (the same)" if fitted == defaults else ""))

    models = {"fibs": None, "crawford": defaults}
    if fitted != defaults:
        models["fitted"] = fitted
    models["textbook"] = TEXTBOOK
    if not args.quick:
        print("\nWhole-History Rating (bench/whr.py, S(N) = N), w and s₀ fitted the same way:")
        whr = fit_whr_pooled(samples, calibration, log=lambda line: print("  " + line))
        print(f"  chosen: w {whr.parameters.step:g}, s₀ {whr.parameters.spread:g}")
        models["WHR"] = whr
    for mode in calibration.MODES:
        print(f"\nHeld out (the last 20% of each set; {'each match forecast from everything before it' if mode == 'online' else 'forecast from the ratings at the cut, no updates'}):")
        comparison = calibration.compare(samples, models, mode)
        for line in calibration.format_comparison(comparison, "fibs", rng, resamples):
            print(line)
    print(f"\nDone in {time.perf_counter() - started:.0f} s.")


if __name__ == "__main__":
    main()
