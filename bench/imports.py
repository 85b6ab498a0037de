"""How fast imports check and store: a 100,000-row results file and a 1,000-game match file.

    python bench/imports.py [--rows 100000] [--games 1000] [--players 2000] [--postgres URL]

Each database is a scratch one, migrated first: SQLite in a temporary file, and PostgreSQL when
`--postgres postgres://…/NAME` is given (NAME is dropped and created again; or set
BENCH_POSTGRES_URL). For the results file it prints the rows a second of the check
(`results_file_read`), of the import (`results_import`: players resolved in bulk, matches stored
in chunks with their final score; the recompute it requests is left to a worker and not timed) and of importing the same file again (which adds nothing).
For the match file, a money session of 1,000 real games chained from the files in
../shared/data/matfiles, it prints the time to verify it and the time to import it
(`match_file_import`: verify, then store the match and its games). Each database runs in a
process of its own, as Django settles its database once.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from config.shared_data import SHARED_DATA  # noqa: E402

MATFILES = SHARED_DATA / "matfiles"


def results_csv(rows: int, players: int, seed: int = 2025) -> str:
    """A seeded results file: `rows` finished matches among `players` players over five years."""
    rng = random.Random(seed)
    names = [f"Player {number:05d}" for number in range(players)]
    start = date(2020, 1, 1)
    lines = ["played_on,player_a,player_b,length,score_a,score_b,event"]
    for index in range(rows):
        a, b = rng.sample(names, 2)
        length = rng.choice((1, 3, 5, 5, 7, 7, 9, 11, 13))
        loser = rng.randrange(length)
        won, lost = length + (rng.random() < 0.2), loser
        score_a, score_b = (won, lost) if rng.random() < 0.5 else (lost, won)
        played = start + timedelta(days=index * 1826 // rows)
        lines.append(f"{played.isoformat()},{a},{b},{length},{score_a},{score_b},League")
    return "\n".join(lines) + "\n"


def long_session(games: int) -> str:
    """A money session of `games` real games, taken in turn from the match files (each game
    replays from the opening position, so games chain; the writer counts the score lines)."""
    from games.engine.matfile import (
        GameTranscript,
        MatchTranscript,
        TranscriptCube,
        read_match_file,
        verify_match_file,
        write_match_file,
    )

    pool: list[GameTranscript] = []
    for path in sorted(MATFILES.iterdir()):
        if path.suffix not in (".txt", ".mat"):
            continue
        match_file = read_match_file(path.read_text(encoding="utf-8"))
        if match_file.variation != "backgammon":
            continue
        report = verify_match_file(match_file)
        if not report.ok:
            continue
        transcript = MatchTranscript.from_match_file(match_file, report)
        for game in transcript.games:
            # Money play: no beavers in these, and points are the cube times the result.
            if game.winner is not None and not any(
                isinstance(action, TranscriptCube) and action.word.name.lower() == "beaver" for action in game.actions
            ):
                pool.append(GameTranscript(game.winner, game.points, game.actions))
    chosen = [pool[index % len(pool)] for index in range(games)]
    text = write_match_file(MatchTranscript(("Left", "Right"), 0, tuple(chosen)), and_the_match=False)
    return '; [Jacoby "Off"]\n' + text


def run_here(rows: int, games: int, players: int) -> None:
    """Migrate the database DATABASE_URL names, then time the imports into it."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["CELERY_BROKER_URL"] = ""
    django.setup()
    import logging

    logging.disable(logging.WARNING)
    from django.core.management import call_command
    from django.db import connection

    from games.engine.matfile import verify_match_file
    from games import results
    from games.matfiles import match_file_import
    from games.models import Match, Player
    from ratings import services

    call_command("migrate", verbosity=0)
    queued = []
    services.runs._enqueue = queued.append  # the recompute the import requests runs on a worker, not here
    vendor = connection.vendor
    text = results_csv(rows, players)
    started = time.perf_counter()
    checked = results.results_file_read(text=text)
    check = time.perf_counter() - started
    started = time.perf_counter()
    report = results.results_import(rows=checked)
    store = time.perf_counter() - started
    started = time.perf_counter()
    again = results.results_import(rows=results.results_file_read(text=text))
    repeat = time.perf_counter() - started
    assert report.imported == rows and again.imported == 0 and again.already_there == rows
    assert Match.objects.count() == rows and queued, "one recompute requested"
    print(f"{vendor}: {rows:,} result rows, {Player.objects.count():,} players")
    print(f"  check   {check:6.2f} s  {rows / check:9,.0f} rows/s")
    print(f"  import  {store:6.2f} s  {rows / store:9,.0f} rows/s   (check + import {rows / (check + store):,.0f} rows/s;"
          f" target: 100,000 rows in under 60 s)")
    print(f"  again   {repeat:6.2f} s  {rows / repeat:9,.0f} rows/s   (check + nothing added)")

    if not games:
        return
    session = long_session(games)
    started = time.perf_counter()
    verified = verify_match_file(session)
    verify = time.perf_counter() - started
    assert verified.ok, verified.errors[:3]
    started = time.perf_counter()
    match, created = match_file_import(text=session, name="session.mat")
    imported = time.perf_counter() - started
    assert created and match.games.count() == games
    plays = sum(len(game.turns) for game in verified.games)
    print(f"{vendor}: a {games:,}-game match file ({len(session.encode()) / 1e6:.1f} MB, {plays:,} plays, "
          f"final score {match.score_a}-{match.score_b})")
    print(f"  verify  {verify:6.2f} s")
    print(f"  import  {imported:6.2f} s   (verify + store; the request limit is 30 s, larger files run as jobs)")


def fresh_postgres(url: str) -> None:
    """Drop and create the database `url` names."""
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--postgres", default=os.environ.get("BENCH_POSTGRES_URL", ""))
    parser.add_argument("--here", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.here:
        run_here(args.rows, args.games, args.players)
        return
    sizes = ["--rows", str(args.rows), "--games", str(args.games), "--players", str(args.players)]
    with tempfile.TemporaryDirectory() as folder:
        targets = [f"sqlite:///{folder}/bench.sqlite3"]
        if args.postgres:
            fresh_postgres(args.postgres)
            targets.append(args.postgres)
        else:
            print("(no --postgres URL: SQLite only)")
        for url in targets:
            env = dict(os.environ, DATABASE_URL=url, CELERY_BROKER_URL="")
            subprocess.run([sys.executable, __file__, "--here", *sizes], env=env, check=True, cwd=ROOT)


if __name__ == "__main__":
    main()
