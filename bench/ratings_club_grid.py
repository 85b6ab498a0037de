"""crawford's defaults, textbook Glicko-2 and FIBS on clubs of many kinds.

    python bench/ratings_club_grid.py [--seeds 2]

A club history like the ones a federation holds (about 2,800 matches, 60 to 80 players who
meet each other again and again over three years) is simulated for every pair of skill spread
(0.6 a club of regulars, 1.0 beginners beside experts, 1.5 a club with a few masters) and skill
drift (0.1, 0.3, 0.6 a year: steady players to players whose form comes and goes), with players
who arrive, leave and take breaks (bench/ratings_match_sim.py `drifting_club`). Each is replayed
in time order and its last 20% (by date) is scored, every match forecast before it was rated:
log loss of FIBS, and of crawford (the defaults in ratings/systems/params.py, a new player's
deviation estimated on the first 80%) and textbook Glicko-2 (σ 0.06, τ 0.5, RD 350, S(N) = N,
both deviations in the forecast) minus FIBS's. Nothing is fitted here: the defaults were chosen
by bench/ratings_accuracy.py, and this bench shows how they travel to clubs they were not
chosen on. About 5 minutes with two seeds.

--sensitivity also scores, on every club's first 80% (the part a fit would use), crawford with
other volatilities σ and system constants τ, the rest at the defaults: how much the choice of
σ matters on clubs of every kind, and how little τ does (each match is a rating period of its
own, and one result barely moves Glicko-2's volatility). About 5 minutes more.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.ratings_accuracy import TEXTBOOK, DataSet, predictions, simulated_club
from ratings.calibration import log_losses
from ratings.systems import CrawfordParameters

SPREADS = (0.6, 1.0, 1.5)
DRIFTS = (0.1, 0.3, 0.6)
MATCHES = 2800
FOUNDERS = 30
ARRIVALS_PER_YEAR = 14.0
HELD_OUT = 0.2
VOLATILITIES = (0.06, 0.09, 0.12, 0.18)
TAUS = (0.2, 5.0)


def club(seed: int, spread: float, drift: float) -> DataSet:
    """A simulated club of the grid, with the given skill spread and drift."""
    return simulated_club(seed, spread, drift_per_year=drift, matches=MATCHES, founders=FOUNDERS,
                          arrivals_per_year=ARRIVALS_PER_YEAR)


def sensitivity(clubs: list[DataSet]) -> None:
    """crawford with other σ and τ against FIBS on each club's first 80%: mean, worst, clubs won."""
    defaults = CrawfordParameters()
    variants = {f"σ {v:g}, τ {defaults.tau:g}": replace(defaults, initial_volatility=v) for v in VOLATILITIES}
    variants |= {f"σ {defaults.initial_volatility:g}, τ {t:g}": replace(defaults, tau=t) for t in TAUS}
    differences: dict[str, list[float]] = {name: [] for name in variants}
    for data in clubs:
        cut = data.cut(1.0 - HELD_OUT)
        history, won = data.history[:cut], data.a_won[:cut]
        fibs = log_losses(predictions(history, None), won).mean()
        for name, parameters in variants.items():
            differences[name].append(float(log_losses(predictions(history, parameters), won).mean() - fibs))
    print("\nOn the clubs' first 80% (crawford − FIBS):")
    print("| crawford with | mean | worst club | better than FIBS on |")
    print("|---|---|---|---|")
    for name, values in differences.items():
        print(f"| {name} | {np.mean(values):+.5f} | {max(values):+.5f} | {sum(v < 0 for v in values)} of {len(values)} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=2, help="clubs per spread and drift (seeds 1, 2, …)")
    parser.add_argument("--sensitivity", action="store_true", help="also score other σ and τ on the clubs' first 80%%")
    args = parser.parse_args(argv)
    print("| skill spread | drift / year | seed | players | held out | FIBS | crawford − FIBS | textbook − FIBS |")
    print("|---|---|---|---|---|---|---|---|")
    totals: dict[str, list[float]] = {"crawford": [], "textbook": []}
    clubs = []
    for spread in SPREADS:
        for drift in DRIFTS:
            for seed in range(1, args.seeds + 1):
                data = club(seed, spread, drift)
                clubs.append(data)
                cut = data.cut(1.0 - HELD_OUT)
                won = data.a_won[cut:]
                fibs = log_losses(predictions(data.history, None)[cut:], won).mean()
                crawford = log_losses(predictions(data.history, CrawfordParameters(), cut)[cut:], won).mean() - fibs
                textbook = log_losses(predictions(data.history, TEXTBOOK, cut)[cut:], won).mean() - fibs
                totals["crawford"].append(crawford)
                totals["textbook"].append(textbook)
                print(f"| {spread:g} | {drift:g} | {seed} | {data.players} | {len(won)} | {fibs:.4f} | {crawford:+.4f} | "
                      f"{textbook:+.4f} |", flush=True)
    count = len(clubs)
    for name, differences in totals.items():
        better = sum(d < 0 for d in differences)
        print(f"{name}: mean difference from FIBS {sum(differences) / count:+.4f}, better than FIBS on {better} "
              f"of {count} clubs, worst {max(differences):+.4f}")
    beats = sum(c < t for c, t in zip(totals["crawford"], totals["textbook"]))
    print(f"crawford better than textbook Glicko-2 on {beats} of {count} clubs")
    if args.sensitivity:
        sensitivity(clubs)


if __name__ == "__main__":
    main()
