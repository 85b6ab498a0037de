"""How long a killed rating worker leaves ratings owed, healed by the next worker alone.

    DATABASE_URL=postgres://... CELERY_BROKER_URL=redis://host:6379/N python bench/ratings_faults.py

Works in a scratch database named after the configured one with a `_faults` suffix, created and
dropped here (the configured database is never written), and purges the Celery queue of the
broker's Redis database: give it a database of its own. It loads a history (`--matches`),
publishes both ratings, records a result, starts a worker (`celery -A config worker`), kills
it with SIGKILL in the middle of the run, records another result while the dead run still looks
alive, starts a second worker with its beat (`worker -B`), and times from the kill until both
systems' published ratings answer every request, with no further request. The time is about
`CRAWFORD_STALE_SECONDS` + up to `CRAWFORD_SWEEP_SECONDS` + one run, plus the worker's start.
Then, as many times, a results import whose worker is killed half-way: the time from the kill
until the import has resumed by itself (the sweep), finished, and its ratings are published,
and whether the published ratings then equal a full recompute.
"""

import argparse
import os
import signal
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.scratch import scratch_database, server_of  # noqa: E402
from config.processes import Worker, wait  # noqa: E402


def skip(reason: str) -> None:
    print(f"ratings faults: skipped ({reason})")
    sys.exit(0)


def reachable(database_url: str, broker_url: str) -> tuple[dict, dict]:
    """The database's settings and the server's connection arguments; skips when either is missing."""
    if not database_url.startswith(("postgres://", "postgresql://")):
        skip("set DATABASE_URL to a PostgreSQL database")
    if not broker_url.startswith("redis://"):
        skip("set CELERY_BROKER_URL to a Redis database")
    import psycopg
    import redis

    try:
        redis.Redis.from_url(broker_url, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        skip(f"Redis at {broker_url} does not answer: {error}")
    config, server = server_of(database_url)
    try:
        psycopg.connect(**server).close()
    except psycopg.Error as error:
        skip(f"PostgreSQL does not answer: {error}")
    return config, server


def load_history(players: int, matches: int, opening: datetime) -> None:
    """Players and finished rated matches, written by PostgreSQL itself."""
    from django.db import connection

    from games.models import Match, Player

    Player.objects.bulk_create([Player(name=f"Bench player {n}") for n in range(players)], batch_size=5_000)
    low = Player.objects.filter(name__startswith="Bench player ").order_by("pk").values_list("pk", flat=True).first()
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            INSERT INTO {Match._meta.db_table}
                (player_a_id, player_b_id, kind, length, cube_cap, jacoby, beavers, raccoons, automatic_doubles,
                 automatic_double_cap, played_on, rated, source, status, score_a, score_b, post_crawford,
                 winner_id, version, created_at)
            SELECT %(low)s + n %% %(players)s, %(low)s + (n + 1 + n / %(players)s %% (%(players)s - 1)) %% %(players)s,
                   'match', 1 + 2 * (n %% 4), NULL, false, false, false, false, 0,
                   %(opening)s + n * interval '1 minute', true, 'bench', 'finished', 1, 0, false,
                   %(low)s + n %% %(players)s, 1, now()
            FROM generate_series(0, %(matches)s - 1) AS n
            """,
            {"low": low, "players": players, "matches": matches, "opening": opening},
        )


def nothing_owed() -> bool:
    from ratings.models import RatingRun, RatingSystemState, RunStatus

    states = list(RatingSystemState.objects.select_related("published_run"))
    return len(states) == 2 and all(
        state.published_run is not None and state.requested == state.published_run.covers_requests
        for state in states
    ) and not RatingRun.objects.filter(status=RunStatus.RUNNING).exists()


def one_round(args, env: dict, folder: Path, opening: datetime, round_number: int) -> dict:
    from games import services as games
    from games.models import Player
    from ratings.models import RatingRun, RunStatus

    anna = Player.objects.get(name="Bench player 0")
    bo = Player.objects.get(name="Bench player 1")

    def record(day: int) -> None:
        match = games.match_create(player_a=anna, player_b=bo, length=1, played_on=opening + timedelta(days=day))
        games.game_record(match=match, number=1, game=games.GameInput(winner=day % 2))

    first = Worker(f"first{round_number}", env, folder)
    second = None
    try:
        wait(first.ready, 60)
        record(10_000 + 2 * round_number)
        dying = wait(lambda: RatingRun.objects.filter(status=RunStatus.RUNNING, matches_done__gt=0).first(), 60)
        first.kill()
        killed = time.monotonic()
        dying.refresh_from_db()
        if dying.status != RunStatus.RUNNING:
            raise RuntimeError("the run ended before the kill: use a longer history (--matches)")
        record(10_001 + 2 * round_number)
        second = Worker(f"second{round_number}", env, folder, beat=True)
        wait(second.ready, 60)
        ready = time.monotonic() - killed
        wait(lambda: RatingRun.objects.filter(pk=dying.pk, status=RunStatus.SUPERSEDED).exists(), 600)
        taken_over = time.monotonic() - killed
        wait(nothing_owed, 600)
        healed = time.monotonic() - killed
    finally:
        first.kill()
        if second is not None:
            second.kill(signal.SIGTERM)
    last = RatingRun.objects.filter(system=dying.system, status=RunStatus.DONE).latest("finished_at")
    return {"ready": ready, "taken_over": taken_over, "healed": healed,
            "run": (last.finished_at - last.started_at).total_seconds(), "system": dying.system}


def published_equals_a_full_recompute() -> bool:
    """Whether every system's published ratings equal a recompute from scratch (which is then
    published), to 1e-9."""
    from ratings import services
    from ratings.models import Rating, RatingSystemState

    def published(system):
        run = RatingSystemState.objects.get(system=system).published_run_id
        return dict(Rating.objects.filter(run_id=run).values_list("player_id", "rating"))

    same = True
    for system in ("fibs", "crawford"):
        before = published(system)
        services.rating_recompute_now(system=system)
        after = published(system)
        same &= before.keys() == after.keys() and all(abs(before[p] - after[p]) <= 1e-9 for p in after)
    return same


def import_round(args, env: dict, folder: Path, round_number: int) -> dict:
    """A results import whose worker is killed half-way: the time from the kill until the import
    is done and the published ratings answer it (then checked against a full recompute)."""
    from games.imports import import_job_submit
    from games.models import ImportJob, ImportStatus
    from ratings.models import RatingPending, RatingRun, RunStatus

    rows = 50_000
    text = "played_on,player_a,player_b,length,score_a,score_b,source_id\n" + "".join(
        f"2021-{1 + n % 12:02d}-{1 + n % 28:02d},Bench player {n % args.players},"
        f"Bench player {(n * 7 + 1) % args.players},3,3,{n % 3},kill{round_number}-{n}\n"
        for n in range(rows) if n % args.players != (n * 7 + 1) % args.players)
    first = Worker(f"import{round_number}", env, folder)
    second = None
    try:
        wait(first.ready, 60)
        job = import_job_submit(kind="results", name="bench.csv", text=text)
        wait(lambda: ImportJob.objects.filter(pk=job.pk, rows_done__gt=0, status=ImportStatus.RUNNING).exists(), 120)
        first.kill()
        killed = time.monotonic()
        second = Worker(f"sweeper{round_number}", env, folder, beat=True)
        wait(second.ready, 60)
        wait(lambda: ImportJob.objects.filter(pk=job.pk, status=ImportStatus.DONE).exists(), 900)
        wait(lambda: not RatingPending.objects.exists()
             and not RatingRun.objects.filter(status__in=[RunStatus.QUEUED, RunStatus.RUNNING]).exists(), 900)
        healed = time.monotonic() - killed
    finally:
        first.kill()
        if second is not None:
            second.kill(signal.SIGTERM)
    return {"healed": healed, "equal": published_equals_a_full_recompute()}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--stale", type=int, default=10, help="CRAWFORD_STALE_SECONDS of the workers (300 in production)")
    parser.add_argument("--check", type=float, default=5, help="CRAWFORD_SWEEP_SECONDS of the workers (30 in production)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keep-database", action="store_true")
    args = parser.parse_args(argv)

    database_url = os.environ.get("DATABASE_URL", "")
    broker_url = os.environ.get("CELERY_BROKER_URL", "")
    config, _ = reachable(database_url, broker_url)
    print(f"ratings faults: (re)creating scratch database {config['NAME']}_faults; purging the queue at {broker_url}")
    with scratch_database(database_url, "_faults", keep=args.keep_database) as scratch_url:
        import redis

        from config.celery import app
        from ratings import services

        def clear_broker() -> None:
            app.control.purge()
            redis.Redis.from_url(broker_url).delete("unacked", "unacked_index")

        env = {**os.environ, "DATABASE_URL": scratch_url, "CELERY_BROKER_URL": broker_url,
               "CRAWFORD_STALE_SECONDS": str(args.stale), "CRAWFORD_SWEEP_SECONDS": str(args.check)}
        opening = datetime(2020, 1, 1, 12, tzinfo=UTC)
        try:
            clear_broker()
            load_history(args.players, args.matches, opening)
            for system in ("fibs", "crawford"):
                services.rating_recompute_now(system=system)
            print(f"history: {args.matches:,} matches among {args.players:,} players; workers: "
                  f"CRAWFORD_STALE_SECONDS={args.stale}, CRAWFORD_SWEEP_SECONDS={args.check:g}")
            with tempfile.TemporaryDirectory() as folder:
                rounds = []
                for number in range(args.rounds):
                    result = one_round(args, env, Path(folder), opening, number)
                    rounds.append(result)
                    print(f"  round {number + 1}: killed during a {result['system']} run; second worker ready after "
                          f"{result['ready']:.1f} s, dead run taken over after {result['taken_over']:.1f} s, "
                          f"every owed result rated after {result['healed']:.1f} s (a run takes {result['run']:.1f} s)")
                    clear_broker()
            healed = sorted(result["healed"] for result in rounds)
            print(f"killed worker to owed results rated: median {healed[len(healed) // 2]:.1f} s, "
                  f"worst {healed[-1]:.1f} s over {len(healed)} rounds")
            with tempfile.TemporaryDirectory() as folder:
                for number in range(args.rounds):
                    result = import_round(args, env, Path(folder), number)
                    print(f"  import {number + 1}: worker killed half-way through a 50,000-row results import; "
                          f"done and its ratings published {result['healed']:.1f} s later; published ratings "
                          f"{'equal' if result['equal'] else 'DIFFER FROM'} a full recompute")
                    clear_broker()
        finally:
            clear_broker()


if __name__ == "__main__":
    main()
