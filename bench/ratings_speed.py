"""How fast the rating systems rate a whole history.

    python bench/ratings_speed.py [--matches 1000000] [--players 20000] [--seed 2025]

Builds a seeded synthetic history (default a million matches among 20,000 players), rates it
with each system's engine, and for comparison rates a prefix of the same history with the
`glicko2` package from PyPI (one match per update, both players updated from the other's
pre-match rating), then compares our Glicko-2 engine with it on that same prefix.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.ratings_history import synthetic_history  # noqa: E402
from ratings.systems import SYSTEMS, CrawfordRating, MatchRecord  # noqa: E402


def timed(work) -> tuple[float, object]:
    """Seconds taken by `work()` and what it returned."""
    gc.collect()
    started = time.perf_counter()
    outcome = work()
    return time.perf_counter() - started, outcome


def rate_with_glicko2_package(history: list[MatchRecord]) -> dict:
    """The same history rated by the PyPI `glicko2` package, one match per update."""
    import glicko2

    players: dict = {}
    for record in history:
        a = players.get(record.player_a)
        if a is None:
            a = players[record.player_a] = glicko2.Player()
        b = players.get(record.player_b)
        if b is None:
            b = players[record.player_b] = glicko2.Player()
        rating_a, deviation_a = a.getRating(), a.getRd()
        rating_b, deviation_b = b.getRating(), b.getRd()
        score_a = 1.0 if record.winner == "a" else 0.0
        a.update_player([rating_b], [deviation_b], [score_a])
        b.update_player([rating_a], [deviation_a], [1.0 - score_a])
    return players


def section_engines(history: list[MatchRecord]) -> dict[str, float]:
    """Each system's engine on the whole history, with and without the per-match changes."""
    print(f"Engines on {len(history):,} matches:")
    speeds = {}
    for name, system_class in SYSTEMS.items():
        system = system_class()
        for keep_changes in (True, False):
            seconds, _ = timed(lambda: system.run(history, keep_changes=keep_changes))
            label = "ratings and changes" if keep_changes else "final ratings only"
            speeds[(name, keep_changes)] = len(history) / seconds
            print(f"  {name:<9} {label:<20} {seconds:8.2f} s  {len(history) / seconds:>10,.0f} matches/s")
    return speeds


def section_glicko2_package(history: list[MatchRecord], prefix: int) -> None:
    """The PyPI package against our Glicko-2 engine on the same prefix."""
    sample = history[:prefix]
    note = "" if prefix == len(history) else f" (a prefix of the history: the package is too slow for all {len(history):,})"
    print(f"glicko2 {package_version()} from PyPI against crawford on {len(sample):,} matches{note}:")
    package_seconds, _ = timed(lambda: rate_with_glicko2_package(sample))
    engine = CrawfordRating()
    engine_seconds, _ = timed(lambda: engine.run(sample, keep_changes=True))
    bare_seconds, _ = timed(lambda: engine.run(sample, keep_changes=False))
    print(f"  glicko2 package                    {package_seconds:8.2f} s  {len(sample) / package_seconds:>10,.0f} matches/s")
    print(f"  crawford, ratings and changes      {engine_seconds:8.2f} s  {len(sample) / engine_seconds:>10,.0f} matches/s"
          f"  ({package_seconds / engine_seconds:.1f}x the package)")
    print(f"  crawford, final ratings only       {bare_seconds:8.2f} s  {len(sample) / bare_seconds:>10,.0f} matches/s"
          f"  ({package_seconds / bare_seconds:.1f}x the package)")


def package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("glicko2")
    except PackageNotFoundError:
        return "(version unknown)"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2025)
    parser.add_argument("--package-matches", type=int, default=50_000,
                        help="how many matches of the history the PyPI package rates (default 50,000)")
    args = parser.parse_args(argv)

    seconds, history = timed(lambda: synthetic_history(args.matches, args.players, seed=args.seed))
    print(f"Synthetic history: {args.matches:,} matches among {args.players:,} players, seed {args.seed} "
          f"(built in {seconds:.1f} s); Python {sys.version.split()[0]}")
    section_engines(history)
    section_glicko2_package(history, min(args.package_matches, len(history)))


if __name__ == "__main__":
    main()
