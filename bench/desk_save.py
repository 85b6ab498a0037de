"""How long a Save at the desk takes: the TD's POST of one score, timed to its answer.

    python bench/desk_save.py [--mode sqlite|worker|both] [--matches 1500] [--saves 40]
                              [--no-keys | --alternate-keys]

`sqlite`: the two-command install (a scratch SQLite file, no broker, tasks in-process): the
rating run a Save asks for executes after its response, on a thread (`ratings.background`).
`worker`: PostgreSQL (`DATABASE_URL`, a scratch database with a `_desk` suffix) and a real
Celery worker on `CELERY_BROKER_URL` (its queue is purged first: give one no one else uses).

Each mode builds a rated history of `--matches` matches among 200 players (as the demo's 1,500),
then a knockout of 2 × `--saves` players, and saves every round-1 result through the desk's own
POST (Django's test client, as the TD's browser would send it, `--pause` seconds apart as a TD
types them; 0 for back to back, the ratings' thread then competing with every Save), and prints the median and p95 of the answers, and the time until the ratings have
caught up with the last one.

Each Save carries an `Idempotency-Key`, as the desk's page sends it (`--no-keys`: without, as
before the keys; the Save is then judged on the row's version instead of on the result).
Beside each answer's time, the processor time of the thread that served it is reported: on a
machine whose load moves, it says what a Save costs when the wall clock cannot.
`--alternate-keys` sends every other pair of Saves with a key and reports the two halves apart: on a
machine whose load moves, the two are then measured in the same minutes.

A Save is answered with what it changed (`views.desk.results.save_answer`), or with the whole desk when
it opens or ends a round; both are timed, and the report says how many were whole.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


BULK_FROM = 20_000
"""Histories longer than this are written in bulk (the rows the services would write), not match
by match through the services, which would take over ten minutes at 100,000."""


def bulk_history(players, matches: int, rng, opening, step) -> None:
    """`matches` finished matches among `players`, as `match_create` and `match_final_score_record`
    leave them, written 5,000 rows at a time (the database's triggers keep the history's account)."""
    from games.models import Match

    rows = []
    for n in range(matches):
        a, b = rng.sample(players, 2)
        length = rng.choice([3, 5, 7])
        loser = rng.randrange(length)
        rows.append(Match(player_a=a, player_b=b, kind="match", length=length, played_on=opening + step * n,
                          rated=True, source="bench", status="finished", score_a=length, score_b=loser,
                          winner=a, version=1))
    Match.objects.bulk_create(rows, batch_size=5_000)


def build(matches: int, entrants: int):
    """A rated history and a knockout whose round 1 waits for its results; returns (TD, event)."""
    import random

    from django.contrib.auth import get_user_model
    from django.db import transaction

    from games import services as games
    from ratings import services as ratings
    from tournaments import services as events

    rng = random.Random(22)
    players = [games.player_create(name=f"Desk bench {n}") for n in range(max(200, entrants))]
    # the history's matches spread over the 400 days before today, however many: the event's
    # results then land at the end of the history, as a club's do (at 6 hours apart, 10,000
    # matches ran years into the future and every Save was a result back-dated before them)
    opening = datetime.now(UTC) - timedelta(days=400)
    step = timedelta(days=399) / max(1, matches)
    if matches > BULK_FROM:
        bulk_history(players[:200], matches, rng, opening, step)
    else:
        with transaction.atomic():  # one rating request for the whole history
            for n in range(matches):
                a, b = rng.sample(players[:200], 2)
                match = games.match_create(player_a=a, player_b=b, length=rng.choice([3, 5, 7]),
                                           played_on=opening + step * n)
                games.match_final_score_record(match=match, score_a=match.length,
                                               score_b=rng.randrange(match.length))
    for system in ratings.enabled_systems():
        ratings.rating_recompute_now(system=system)
    staff = get_user_model().objects.create_user("bench-office", is_staff=True, is_superuser=True)
    td = get_user_model().objects.create_user("bench-td", password=secrets.token_urlsafe(12))
    event = events.tournament_create(name="Desk Bench Open", start_date=date.today(), organisers=[td], by=staff)
    flight = events.flight_create(tournament=event, name="Main", format="single_elimination",
                                  lengths=[5] * 8, seeding="random", random_seed=7, by=td)
    for player in players[:entrants]:
        events.entry_check_in(entry=events.entry_add(flight=flight, player=player, by=td), by=td)
    events.flight_start(flight=flight, by=td)
    return td, event


WHOLE = []
"""The Saves answered with the whole desk (a round opened or ended)."""
KEYED = []
"""The Saves sent with a key."""
CPU = []
"""The processor time of each Save's own thread, in seconds: what the Save itself costs (its
queries included on SQLite), whatever else the machine is doing; the ratings' thread is not in it."""


def time_saves(td, event, pause: float, keys: str = "all") -> list[float]:
    """The Saves' answer times, in seconds; with `keys="alternate"`, every other pair of Saves
    is keyed (`KEYED` lists them)."""
    from django.test import Client

    from tournaments.models import Pairing

    client = Client()
    client.force_login(td)
    timings = []
    pairings = list(Pairing.objects.filter(flight__tournament=event, status="pending", player_b__isnull=False)
                    .order_by("id"))
    for i, pairing in enumerate(pairings):
        data = {"action": "score", "pairing": pairing.pk, f"p{pairing.pk}-version": pairing.version,
                f"p{pairing.pk}-score_a": 5 if i % 2 else i % 5, f"p{pairing.pk}-score_b": i % 5 if i % 2 else 5}
        headers = {"HX-Request": "true"}
        # alternating by two: the second Save of a pair finishes two matches that feed the same
        # next one, and draws it; keyed and plain Saves each take as many of both kinds
        if keys == "all" or (keys == "alternate" and (i // 2) % 2):
            headers["Idempotency-Key"] = secrets.token_urlsafe(16)
            KEYED.append(i)
        started, cpu = time.perf_counter(), time.thread_time()
        response = client.post(f"/desk/{event.slug}/", data, headers=headers)
        timings.append(time.perf_counter() - started)
        CPU.append(time.thread_time() - cpu)
        time.sleep(pause)  # the TD types the next score
        if response.status_code != 200 or "recorded" not in response.content.decode():
            raise RuntimeError(f"the desk refused result {i}: {response.status_code}")
        if response.content.startswith(b'<div id="desk-main"'):
            WHOLE.append(i)
    return timings


KEY_WORDS = {"all": "with keys", "none": "without keys", "alternate": "keys on every other Save"}
KEY_OPTIONS = {"all": [], "none": ["--no-keys"], "alternate": ["--alternate-keys"]}


def caught_up() -> bool:
    from ratings.models import RatingPending, RatingRun, RunStatus

    return not RatingPending.objects.exists() and not RatingRun.objects.filter(
        status__in=[RunStatus.QUEUED, RunStatus.RUNNING]).exists()


def report(mode: str, timings: list[float], catching_up: float, keys: str = "all") -> None:
    if keys == "alternate":
        keyed = [t for i, t in enumerate(timings) if i in KEYED]
        plain = [t for i, t in enumerate(timings) if i not in KEYED]
        for words, half, cpu in (("with a key", keyed, [c for i, c in enumerate(CPU) if i in KEYED]),
                                 ("without a key", plain, [c for i, c in enumerate(CPU) if i not in KEYED])):
            print(f"{mode}, {words}: {len(half)} desk Saves, median {1000 * percentile(half, 0.5):.1f} ms, "
                  f"p95 {1000 * percentile(half, 0.95):.1f} ms; processor time median "
                  f"{1000 * percentile(cpu, 0.5):.1f} ms, p95 {1000 * percentile(cpu, 0.95):.1f} ms")
    print(f"{mode}: {len(timings)} desk Saves ({len(WHOLE)} answered with the whole desk), "
          f"median {1000 * percentile(timings, 0.5):.0f} ms, "
          f"p95 {1000 * percentile(timings, 0.95):.0f} ms, max {1000 * max(timings):.0f} ms "
          f"(processor time of the Save's thread: median {1000 * percentile(CPU, 0.5):.1f} ms); "
          f"ratings caught up {catching_up:.1f} s after the last Save")


def run_sqlite(args) -> None:
    from config.processes import wait

    with tempfile.TemporaryDirectory() as folder:
        os.environ.update(DATABASE_URL=f"sqlite:///{folder}/desk.sqlite3", DEBUG="1", CELERY_BROKER_URL="",
                          DJANGO_SETTINGS_MODULE="config.settings")
        import django

        django.setup()
        from django.core.management import call_command

        from ratings import background

        call_command("migrate", verbosity=0)
        td, event = build(args.matches, 2 * args.saves)
        timings = time_saves(td, event, args.pause, keys=args.keys)
        last = time.perf_counter()
        background.wait(600)
        wait(caught_up, 600, every=0.1)
        report(f"SQLite, no broker (ratings after the response), {args.pause:g} s between Saves, "
               f"{KEY_WORDS[args.keys]}", timings, time.perf_counter() - last, args.keys)


def run_worker(args) -> None:
    from bench.scratch import scratch_database
    from config.processes import Worker, wait

    database_url, broker_url = os.environ.get("DATABASE_URL", ""), os.environ.get("CELERY_BROKER_URL", "")
    if not database_url.startswith("postgres") or not broker_url.startswith("redis"):
        sys.exit("--mode worker needs DATABASE_URL=postgres://... and CELERY_BROKER_URL=redis://...")
    with scratch_database(database_url, "_desk") as url, tempfile.TemporaryDirectory() as folder:
        from config.celery import app

        app.control.purge()
        td, event = build(args.matches, 2 * args.saves)
        worker = Worker("desk", {**os.environ, "DATABASE_URL": url}, Path(folder))
        try:
            wait(worker.ready, 60)
            timings = time_saves(td, event, args.pause, keys=args.keys)
            last = time.perf_counter()
            wait(caught_up, 600, every=0.1)
        finally:
            worker.kill()
        report(f"PostgreSQL with a worker, {args.pause:g} s between Saves, {KEY_WORDS[args.keys]}",
               timings, time.perf_counter() - last, args.keys)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["sqlite", "worker", "both"], default="both")
    parser.add_argument("--matches", type=int, default=1_500)
    parser.add_argument("--saves", type=int, default=40)
    parser.add_argument("--pause", type=float, default=1.0,
                        help="seconds between Saves, as a TD types the next score (0: back to back)")
    keys = parser.add_mutually_exclusive_group()
    keys.add_argument("--no-keys", dest="keys", action="store_const", const="none", default="all",
                      help="send the Saves without an Idempotency-Key")
    keys.add_argument("--alternate-keys", dest="keys", action="store_const", const="alternate",
                      help="send every other Save with a key, and report both halves")
    args = parser.parse_args(argv)
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))  # a bench is not a deployment
    os.environ.setdefault("SECURE_HTTPS", "0")  # the test client speaks plain HTTP
    if args.mode == "both":  # each mode in its own process: Django is set up once per process
        import subprocess

        for mode in ("sqlite", "worker"):
            subprocess.run([sys.executable, __file__, "--mode", mode, "--matches", str(args.matches),
                            "--saves", str(args.saves), "--pause", str(args.pause)] + KEY_OPTIONS[args.keys],
                           check=False)
        return
    (run_sqlite if args.mode == "sqlite" else run_worker)(args)


if __name__ == "__main__":
    main()
