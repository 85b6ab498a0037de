"""How well the rating systems predict match results, and the fit of crawford's parameters.

    python bench/ratings_accuracy.py [--quick] [--seed 7]

Two leagues with known skills, each replayed in time order, every match predicted before it
is rated:

* a simulated league (bench/ratings_match_sim.py: matches played game by game with gammons,
  cube and the Crawford rule) whose first 70% of matches train crawford's parameters and whose
  last 30% are held out;
* /work/shared/data/league.csv, GNU Backgammon bots of known evaluation noise, held out
  entirely from the fit.

For each: log loss, Brier score and calibration per match length for FIBS, for crawford, and
for the true skills (the floor), and a paired bootstrap interval of the difference in log loss
crawford − fibs. The parameter fit is a coordinate search over round grids, lowest log loss on
the training matches; the values it prints are the defaults in ratings/systems/params.py.
"""

from __future__ import annotations

import argparse
import csv
import math
import random
import sys
import time
from collections import defaultdict
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.ratings_match_sim import play_match  # noqa: E402
from ratings.systems import CrawfordParameters, CrawfordRating, FibsRating, MatchRecord  # noqa: E402
from ratings.systems import params as defaults  # noqa: E402
from ratings.systems.glicko import GLICKO2_SCALE, g  # noqa: E402

LEAGUE_CSV = Path("/work/shared/data/league.csv")
LENGTHS = (1, 3, 3, 5, 5, 5, 7, 7, 7, 9, 11, 13, 17)
SKILL_LEVELS = tuple(-1.5 + 3.0 * i / 9 for i in range(10))
TRAINING_SHARE = 0.7

GRIDS = {
    "length_constant": (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0, 1.5, 2.0),
    "initial_deviation": (100.0, 150.0, 200.0, 250.0, 300.0, 350.0, 400.0),
    "initial_volatility": (0.005, 0.01, 0.02, 0.04, 0.06, 0.09, 0.12, 0.16, 0.2),
    "tau": (0.05, 0.1, 0.2, 0.5, 0.8, 1.2, 1.6),
}
"""The values the fit may choose from, per parameter."""


# ---------------------------------------------------------------- leagues


class League:
    """A history with, per match, the true chance that player A wins (None when unknown)."""

    def __init__(self, name: str, history: list[MatchRecord], true_chances: list[float]):
        self.name = name
        self.history = history
        self.true_chances = true_chances


def simulated_league(rng: random.Random, players: int, matches: int, days: int) -> tuple[League, dict]:
    """Players of ten skill levels, half there from the start and half joining later, some
    playing much more often than others; matches played game by game."""
    skill = {f"S{i:03d}": SKILL_LEVELS[i % len(SKILL_LEVELS)] for i in range(players)}
    names = list(skill)
    joins = {name: (0 if i % 2 == 0 else rng.randrange(int(days * 0.6))) for i, name in enumerate(names)}
    activity = {name: rng.choice((0.3, 1.0, 1.0, 3.0)) for name in names}
    start = date(2024, 1, 1)
    history = []
    for match_id in range(matches):
        day = match_id * days // matches
        active = [name for name in names if joins[name] <= day]
        weights = [activity[name] for name in active]
        a, b = rng.choices(active, weights, k=2)
        while a == b:
            b = rng.choices(active, weights)[0]
        length = rng.choice(LENGTHS)
        winner = "a" if play_match(rng, skill[a], skill[b], length) else "b"
        history.append(MatchRecord(match_id, start + timedelta(days=day), a, b, length, winner))
    return League("simulated league", history, []), skill


def true_match_chances(rng: random.Random, samples: int) -> dict[tuple[float, float, int], float]:
    """The chance that a player of one skill level beats one of another over N points,
    estimated by playing `samples` matches per pair of levels and length."""
    table = {}
    for i, skill_a in enumerate(SKILL_LEVELS):
        for skill_b in SKILL_LEVELS[i:]:
            for length in sorted(set(LENGTHS)):
                if skill_a == skill_b:
                    chance = 0.5
                else:
                    chance = (sum(play_match(rng, skill_a, skill_b, length) for _ in range(samples)) + 0.5) / (samples + 1)
                table[skill_a, skill_b, length] = chance
                table[skill_b, skill_a, length] = 1.0 - chance
    return table


def csv_league() -> tuple[League, list[tuple[float, int, bool]]]:
    """league.csv in time order, with (noise_b − noise_a, length, A won) per match."""
    with LEAGUE_CSV.open(newline="") as f:
        rows = list(csv.DictReader(f))
    rows.sort(key=lambda row: row["played_on"])
    history, facts = [], []
    for match_id, row in enumerate(rows):
        a_won = int(row["score_a"]) > int(row["score_b"])
        length = int(row["length"])
        history.append(MatchRecord(match_id, date.fromisoformat(row["played_on"]), row["player_a"], row["player_b"],
                                   length, "a" if a_won else "b"))
        facts.append((float(row["noise_b"]) - float(row["noise_a"]), length, a_won))
    return League("league.csv", history, []), facts


def fit_noise_floor(facts: list[tuple[float, int, bool]]) -> tuple[list[float], float, float]:
    """The floor for league.csv: P(A wins) = logistic(β·(noise_b − noise_a)·sqrt(1 + c·(N − 1)/2)),
    β and c by maximum likelihood on the same data (in-sample, so a slightly flattering floor)."""
    def loss(beta: float, c: float) -> float:
        return mean_log_loss([_logistic(beta * d * math.sqrt(1.0 + c * (n - 1) / 2.0)) for d, n, _ in facts],
                             [won for _, _, won in facts])

    best = (math.inf, 0.0, 0.0)
    for c in (0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0):
        low, high = 0.0, 400.0
        for _ in range(60):  # golden-section search on β, the loss being convex in β
            m1 = high - (high - low) / 1.618033988749895
            m2 = low + (high - low) / 1.618033988749895
            if loss(m1, c) < loss(m2, c):
                high = m2
            else:
                low = m1
        beta = (low + high) / 2.0
        best = min(best, (loss(beta, c), beta, c))
    _, beta, c = best
    return [_logistic(beta * d * math.sqrt(1.0 + c * (n - 1) / 2.0)) for d, n, _ in facts], beta, c


# ---------------------------------------------------------------- predictions and scores


def fibs_predictions(history: list[MatchRecord]) -> list[float]:
    """FIBS's chance for player A of each match, before it was rated."""
    changes = FibsRating().run(history).changes
    return [changes[i].expected for i in range(0, len(changes), 2)]


def crawford_predictions(history: list[MatchRecord], parameters: CrawfordParameters) -> list[float]:
    """crawford's chance for player A of each match before it was rated, both deviations as of
    the day of the match integrated as in `CrawfordRating.predict`."""
    changes = CrawfordRating(parameters).run(history).changes
    factors = {}
    chances = []
    for i, record in enumerate(history):
        a, b = changes[2 * i], changes[2 * i + 1]
        k = factors.get(record.length)
        if k is None:
            k = factors[record.length] = parameters.length_factor(record.length)
        phi = math.hypot(a.deviation_before, b.deviation_before) / GLICKO2_SCALE
        chances.append(_logistic(k * g(phi) * (a.rating_before - b.rating_before) / GLICKO2_SCALE))
    return chances


def match_log_losses(chances: list[float], a_won: list[bool]) -> list[float]:
    return [-math.log(max(p, 1e-12) if won else max(1.0 - p, 1e-12)) for p, won in zip(chances, a_won)]


def mean_log_loss(chances: list[float], a_won: list[bool]) -> float:
    losses = match_log_losses(chances, a_won)
    return sum(losses) / len(losses)


def brier(chances: list[float], a_won: list[bool]) -> float:
    return sum((p - won) ** 2 for p, won in zip(chances, a_won)) / len(chances)


def paired_bootstrap(first: list[float], second: list[float], rng: random.Random, resamples: int) -> tuple[float, float, float]:
    """Mean of first − second and its 95% percentile bootstrap interval, resampling matches."""
    differences = [x - y for x, y in zip(first, second)]
    n = len(differences)
    means = sorted(sum(rng.choices(differences, k=n)) / n for _ in range(resamples))
    return sum(differences) / n, means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]


def report(title: str, lengths: list[int], a_won: list[bool], predictions: dict[str, list[float]],
           rng: random.Random, resamples: int) -> None:
    """Log loss, Brier score and calibration per match length, and the bootstrap interval."""
    print(f"\n{title}: {len(a_won):,} matches")
    names = list(predictions)
    print(f"  {'':<34}" + "".join(f"{name:>22}" for name in names))
    print(f"  {'log loss (all lengths)':<34}" + "".join(f"{mean_log_loss(predictions[n], a_won):>22.4f}" for n in names))
    print(f"  {'Brier score (all lengths)':<34}" + "".join(f"{brier(predictions[n], a_won):>22.4f}" for n in names))
    print("  per length: log loss / Brier / favourite's predicted chance vs favourite's win rate")
    by_length = defaultdict(list)
    for i, length in enumerate(lengths):
        by_length[length].append(i)
    for length in sorted(by_length):
        rows = by_length[length]
        won = [a_won[i] for i in rows]
        cells = []
        for name in names:
            chances = [predictions[name][i] for i in rows]
            favourite_chance = sum(max(p, 1.0 - p) for p in chances) / len(rows)
            favourite_won = sum((p >= 0.5) == w for p, w in zip(chances, won)) / len(rows)
            cells.append(f"{mean_log_loss(chances, won):.3f}/{brier(chances, won):.3f}/{favourite_chance:.2f}v{favourite_won:.2f}")
        print(f"  {f'{length:>2}-point ({len(rows)} matches)':<34}" + "".join(f"{cell:>22}" for cell in cells))
    mean, low, high = paired_bootstrap(match_log_losses(predictions["crawford"], a_won),
                                       match_log_losses(predictions["fibs"], a_won), rng, resamples)
    print(f"  log loss crawford − fibs: {mean:+.4f}, 95% paired bootstrap interval [{low:+.4f}, {high:+.4f}]"
          f" ({resamples} resamples)")


# ---------------------------------------------------------------- the fit


def fit_parameters(history: list[MatchRecord], training: int, rounds: int) -> tuple[CrawfordParameters, float]:
    """Coordinate search: each parameter in turn set to its grid value of lowest training log
    loss, the others held, for `rounds` rounds (or until nothing changes)."""
    a_won = [record.winner == "a" for record in history[:training]]
    memo: dict[tuple, float] = {}

    def training_loss(values: dict) -> float:
        key = tuple(sorted(values.items()))
        if key not in memo:
            parameters = CrawfordParameters(**values, maximum_deviation=values["initial_deviation"])
            memo[key] = mean_log_loss(crawford_predictions(history[:training], parameters), a_won)
        return memo[key]

    values = {"length_constant": 1.0, "initial_deviation": 350.0, "initial_volatility": 0.06, "tau": 0.5}
    for round_number in range(1, rounds + 1):
        before = dict(values)
        for name, grid in GRIDS.items():
            values[name] = min(grid, key=lambda v: (training_loss({**values, name: v}), v))
        print(f"  round {round_number}: " + ", ".join(f"{k} {v:g}" for k, v in values.items())
              + f"  training log loss {training_loss(values):.5f}  ({len(memo)} runs)")
        if values == before:
            break
    return CrawfordParameters(**values, maximum_deviation=values["initial_deviation"]), training_loss(values)


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smaller league, fewer samples, a shorter fit")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    players, matches, days, samples, rounds, resamples = (
        (40, 2500, 540, 60, 2, 500) if args.quick else (80, 6000, 720, 200, 3, 2000)
    )
    started = time.perf_counter()
    rng = random.Random(args.seed)

    league, skill = simulated_league(rng, players, matches, days)
    history = league.history
    training = int(len(history) * TRAINING_SHARE)
    print(f"Simulated league: {players} players of {len(SKILL_LEVELS)} skill levels, {matches:,} matches over "
          f"{days} days, seed {args.seed}; training on the first {training:,}, holding out {len(history) - training:,}")
    table = true_match_chances(rng, samples)
    print(f"True match-winning chances: {samples} simulated matches per pair of skill levels and length"
          f" ({time.perf_counter() - started:.0f} s so far)")

    print("\nFitting crawford's parameters (lowest log loss on the training matches):")
    fitted, training_loss = fit_parameters(history, training, rounds)
    print("Best values (the defaults in ratings/systems/params.py):")
    for name in GRIDS:
        print(f"  {name} = {getattr(fitted, name)!r}")
    current = CrawfordParameters()
    agree = all(getattr(current, name) == getattr(fitted, name) for name in GRIDS)
    print(f"  ratings/systems/params.py {'holds these values' if agree else 'DIFFERS: update it to these values'}")

    a_won = [record.winner == "a" for record in history]
    truth = [table[skill[r.player_a], skill[r.player_b], r.length] for r in history]
    predictions = {
        "fibs": fibs_predictions(history),
        "crawford": crawford_predictions(history, fitted),
        "true skills (floor)": truth,
    }
    held_out = slice(training, None)
    report("Simulated league, held-out matches (true chances by simulation)",
           [r.length for r in history[held_out]], a_won[held_out],
           {name: chances[held_out] for name, chances in predictions.items()}, rng, resamples)

    csv_history_league, facts = csv_league()
    csv_history = csv_history_league.history
    floor, beta, c = fit_noise_floor(facts)
    report(f"league.csv (floor: logistic in noise difference, β={beta:.1f}, S(N)=1+{c:g}(N−1)/2, fitted in-sample)",
           [r.length for r in csv_history], [won for _, _, won in facts],
           {"fibs": fibs_predictions(csv_history), "crawford": crawford_predictions(csv_history, fitted),
            "true skills (floor)": floor}, rng, resamples)
    print(f"\nDone in {time.perf_counter() - started:.0f} s.")


def _logistic(x: float) -> float:
    if x >= 0.0:
        return 1.0 / (1.0 + math.exp(-x))
    ex = math.exp(x)
    return ex / (1.0 + ex)


if __name__ == "__main__":
    main()
