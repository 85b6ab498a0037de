"""How fast the rating systems rate a whole history.

    python bench/ratings_speed.py [--matches 1000000] [--players 20000] [--seed 2025]
    DATABASE_URL=postgres://... python bench/ratings_speed.py --postgres [--skip-engines]

Builds a seeded synthetic history (default a million matches among 20,000 players), rates it
with each system's engine, and for comparison rates a prefix of the same history with the
`glicko2` package from PyPI (one match per update, both players updated from the other's
pre-match rating), then compares our Glicko-2 engine with it on that same prefix and, by
speed, on the whole history. Each engine is timed through `run_arrays` (arrays in and out, what
the recompute uses), `run` (records and objects) and `run_sequential` (the scalar reference). With
`--postgres`, also times the ratings app's full recompute (load, rate, write, publish) on that
history in a scratch PostgreSQL database, with the time of each stage (load, compute, write,
publish, and discarding the previous run's rows).
"""

from __future__ import annotations

import argparse
import gc
import logging
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


def best_of(repeats: int, work) -> float:
    """The shortest of `repeats` timings of `work()`: short runs are at the mercy of the
    machine's other load."""
    return min(timed(work)[0] for _ in range(repeats))


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


def as_arrays(history: list[MatchRecord]) -> tuple:
    """The history as the arrays `run_arrays` takes (players are already 0..n − 1)."""
    import numpy as np

    from ratings.systems.history import day_number

    days: dict = {}
    return (
        np.array([r.match_id for r in history], dtype=np.int64),
        np.array([days.setdefault(r.played_on, day_number(r.played_on)) for r in history]),
        np.array([r.player_a for r in history], dtype=np.int64),
        np.array([r.player_b for r in history], dtype=np.int64),
        np.array([r.length for r in history], dtype=np.int64),
        np.array([r.winner == "a" for r in history], dtype=bool),
    )


ENTRY_POINTS = (
    ("run_arrays", "arrays in, arrays out (what the recompute uses)"),
    ("run", "records in, PlayerRating/RatingChange objects out"),
    ("run_sequential", "the scalar reference engine"),
)


def rate(system, entry: str, history, arrays, keep_changes: bool):
    if entry == "run_arrays":
        return system.run_arrays(*arrays, keep_changes=keep_changes)
    return getattr(system, entry)(history, keep_changes=keep_changes)


def section_engines(history: list[MatchRecord], arrays) -> dict:
    """Each system's engine on the whole history through each entry point, with and without
    the per-match changes."""
    print(f"Engines on {len(history):,} matches:")
    speeds = {}
    for entry, meaning in ENTRY_POINTS:
        print(f"  {entry}: {meaning}")
        for name, system_class in SYSTEMS.items():
            system = system_class()
            for keep_changes in (True, False):
                seconds, _ = timed(lambda: rate(system, entry, history, arrays, keep_changes))
                label = "ratings and changes" if keep_changes else "final ratings only"
                speeds[(entry, name, keep_changes)] = len(history) / seconds
                print(f"    {name:<9} {label:<20} {seconds:8.2f} s  {len(history) / seconds:>10,.0f} matches/s")
    return speeds


def section_glicko2_package(history: list[MatchRecord], arrays, prefix: int, speeds: dict) -> None:
    """The PyPI package against our Glicko-2 engine on the same prefix, and against our engine's
    speed on the whole history."""
    sample = history[:prefix]
    sample_arrays = tuple(column[:prefix] for column in arrays)
    note = "" if prefix == len(history) else f" (a prefix of the history: the package is too slow for all {len(history):,})"
    print(f"glicko2 {package_version()} from PyPI against crawford on {len(sample):,} matches{note}, "
          "best of 3:")
    package_seconds = best_of(3, lambda: rate_with_glicko2_package(sample))
    package_speed = len(sample) / package_seconds
    print(f"  glicko2 package                                {package_seconds:8.2f} s  {package_speed:>10,.0f} matches/s")
    engine = CrawfordRating()
    for entry, _ in ENTRY_POINTS:
        for keep_changes in (True, False):
            seconds = best_of(3, lambda: rate(engine, entry, sample, sample_arrays, keep_changes))
            label = "ratings and changes" if keep_changes else "final ratings only"
            print(f"  crawford {entry:<15} {label:<20} {seconds:8.2f} s  {len(sample) / seconds:>10,.0f} matches/s"
                  f"  ({package_seconds / seconds:.1f}x the package)")
    if speeds and prefix < len(history):
        print(f"  crawford on all {len(history):,} matches against the package's speed on the prefix:")
        for entry, _ in ENTRY_POINTS:
            for keep_changes in (True, False):
                speed = speeds[(entry, "crawford", keep_changes)]
                label = "ratings and changes" if keep_changes else "final ratings only"
                print(f"    {entry:<15} {label:<20} {speed:>10,.0f} matches/s  ({speed / package_speed:.1f}x the package)")


def section_postgres_recompute(history: list[MatchRecord], players: int, *, keep: bool = False) -> None:
    """The whole recompute service (load, rate, write, publish) on PostgreSQL.

    Works in a scratch database named after the configured one with a `_bench` suffix, created
    here and dropped afterwards (`--keep-database` keeps it): the configured database is never
    written. Players are written with bulk_create; the matches, too many for bulk_create to be
    quick, with a binary COPY.
    """
    import os
    import secrets

    import dj_database_url

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        print("PostgreSQL recompute: skipped (set DATABASE_URL to a PostgreSQL database)")
        return
    import psycopg

    config = dj_database_url.parse(url)
    scratch = f"{config['NAME']}_bench"
    print(f"PostgreSQL recompute: WARNING: (re)creating scratch database {scratch!r} on {config['HOST']}")
    server = dict(host=config["HOST"] or None, port=config["PORT"] or None, user=config["USER"] or None,
                  password=config["PASSWORD"] or None, dbname="postgres", autocommit=True)
    with psycopg.connect(**server) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{scratch}"')
        admin.execute(f'CREATE DATABASE "{scratch}"')
    os.environ["DATABASE_URL"] = url.rsplit("/", 1)[0] + "/" + scratch
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))  # a throwaway key, DEBUG stays off
    os.environ.setdefault("SITE_URL", "http://localhost:8000")
    import django

    django.setup()
    from datetime import datetime, time as time_of_day, timezone

    from django.core.management import call_command
    from django.db import connection, connections

    from games.models import Match, Player
    from ratings import services

    try:
        call_command("migrate", verbosity=0)
        seconds, created = timed(lambda: Player.objects.bulk_create(
            [Player(name=f"Bench player {n}") for n in range(players)], batch_size=5_000))
        ids = [player.pk for player in created]
        noon = time_of_day(12, tzinfo=timezone.utc)
        started = time.perf_counter()
        columns = ("player_a_id, player_b_id, kind, length, jacoby, beavers, raccoons, automatic_doubles, "
                   "automatic_double_cap, played_on, rated, source, status, score_a, score_b, post_crawford, "
                   "winner_id, version, created_at")
        now = datetime.now(timezone.utc)
        with connection.cursor() as cursor:
            with cursor.copy(f"COPY {Match._meta.db_table} ({columns}) FROM STDIN (FORMAT BINARY)") as copy:
                copy.set_types(["int8", "int8", "text", "int2", "bool", "bool", "bool", "bool", "int2",
                                "timestamptz", "bool", "text", "text", "int4", "int4", "bool", "int8", "int4",
                                "timestamptz"])
                days: dict = {}
                for record in history:
                    when = days.get(record.played_on)
                    if when is None:
                        when = days[record.played_on] = datetime.combine(record.played_on, noon)
                    a, b = ids[record.player_a], ids[record.player_b]
                    won = record.winner == "a"
                    copy.write_row((a, b, "match", record.length, False, False, False, False, 0, when, True,
                                    "bench", "finished", record.length if won else 0, 0 if won else record.length,
                                    False, a if won else b, 1, now))
            cursor.execute(f"ANALYZE {Match._meta.db_table}")
        print(f"  {players:,} players (bulk_create) in {seconds:.1f} s, {len(history):,} finished matches "
              f"(COPY) in {time.perf_counter() - started:.1f} s")
        stages: dict[str, float] = {}

        class StageTimes(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                stages[record.stage] = record.seconds

        recompute_log = logging.getLogger("ratings.recompute")
        recompute_log.addHandler(StageTimes())
        recompute_log.setLevel(logging.INFO)
        recompute_log.propagate = False
        for name in ("fibs", "crawford"):
            for attempt in ("first run", "second run, replacing the first"):
                stages.clear()
                seconds, run = timed(lambda: services.rating_recompute_now(system=name))
                print(f"  {name:<9} full recompute, {attempt:<32} {seconds:6.1f} s "
                      f"({run.matches_total:,} matches, {run.players:,} players, published run {run.pk})")
                print("            " + ", ".join(f"{stage} {took:.1f} s" for stage, took in stages.items()))
    finally:
        connections.close_all()
        if not keep:
            with psycopg.connect(**server) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{scratch}"')


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
    parser.add_argument("--postgres", action="store_true",
                        help="also time the full recompute service on PostgreSQL (DATABASE_URL), in a scratch "
                             "database <name>_bench that is created and dropped")
    parser.add_argument("--keep-database", action="store_true", help="keep the scratch database afterwards")
    parser.add_argument("--skip-engines", action="store_true", help="skip the engine sections")
    args = parser.parse_args(argv)

    seconds, history = timed(lambda: synthetic_history(args.matches, args.players, seed=args.seed))
    print(f"Synthetic history: {args.matches:,} matches among {args.players:,} players, seed {args.seed} "
          f"(built in {seconds:.1f} s); Python {sys.version.split()[0]}")
    if not args.skip_engines:
        arrays = as_arrays(history)
        speeds = section_engines(history, arrays)
        section_glicko2_package(history, arrays, min(args.package_matches, len(history)), speeds)
    if args.postgres:
        section_postgres_recompute(history, args.players, keep=args.keep_database)


if __name__ == "__main__":
    main()
