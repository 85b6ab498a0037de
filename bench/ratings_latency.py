"""How long a result takes to reach the published ratings, at federation scale.

    DATABASE_URL=postgres://.../crawford_x CELERY_BROKER_URL=redis://127.0.0.1:6379/N \
        python bench/ratings_latency.py [--quick] [--matches 1000000] [--players 20000] [--writers 20]

Builds a scratch PostgreSQL database named after the configured one with a `_bench` suffix
(dropped afterwards unless `--keep-database`), loads a seeded synthetic history with COPY (a
million matches among 20,000 players over three years by default; `--quick`: 100,000 among
5,000), moved to end yesterday, rates it from scratch for both systems (which stores the checkpoints), then starts a
real Celery worker (a subprocess with two processes, one a system at a time) on the broker given, and lets `--writers`
threads enter results of matches played now through the service layer
(`games.services.match_create` and `match_final_score_record`), each a few at random
intervals. A poller watches the published rating changes of both systems; the figures are
the time from the result being entered to both systems publishing it: p50, p95 and max. Then
one result six months back is corrected (its winner changed), and the time until both
systems publish the correction is printed, then the time until both runs have also rewritten
the checkpoints after it (which they do once the correction is published).

The broker's database is flushed first: give one no one else uses.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from datetime import time as time_of_day
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.ratings_history import synthetic_history  # noqa: E402
from bench.scratch import scratch_database  # noqa: E402
from config.processes import Worker, wait  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def load_history(history, players: int, shift: timedelta) -> list[int]:
    """Players and finished matches by COPY, each match moved by `shift` (so that the history
    ends yesterday); returns the players' ids."""
    from django.db import connection

    from games.models import Match, Player

    started = time.perf_counter()
    now = datetime.now(UTC)
    Player.objects.bulk_create([Player(name=f"Bench player {n}") for n in range(players)], batch_size=5_000)
    ids = list(Player.objects.order_by("pk").values_list("pk", flat=True))
    noon = time_of_day(12, tzinfo=UTC)
    columns = ("player_a_id, player_b_id, kind, length, jacoby, beavers, raccoons, automatic_doubles, "
               "automatic_double_cap, played_on, rated, source, status, score_a, score_b, post_crawford, "
               "winner_id, version, created_at")
    days: dict = {}
    with connection.cursor() as cursor:
        with cursor.copy(f"COPY {Match._meta.db_table} ({columns}) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(["int8", "int8", "text", "int2", "bool", "bool", "bool", "bool", "int2", "timestamptz",
                            "bool", "text", "text", "int4", "int4", "bool", "int8", "int4", "timestamptz"])
            for record in history:
                when = days.get(record.played_on)
                if when is None:
                    when = days[record.played_on] = datetime.combine(record.played_on, noon) + shift
                a, b = ids[record.player_a], ids[record.player_b]
                won = record.winner == "a"
                copy.write_row((a, b, "match", record.length, False, False, False, False, 0, when, True, "bench",
                                "finished", record.length if won else 0, 0 if won else record.length, False,
                                a if won else b, 1, now))
        cursor.execute(f"ANALYZE {Match._meta.db_table}")
        cursor.execute(f"ANALYZE {Player._meta.db_table}")
    print(f"  {players:,} players (bulk_create) and {len(history):,} matches (COPY) loaded in {time.perf_counter() - started:.1f} s")
    return ids


class Published:
    """Watches the published rating changes of both systems for matches entered."""

    def __init__(self) -> None:
        self.waiting: dict[int, tuple[int, float, bool | None]] = {}
        self.latencies: dict[int, float] = {}
        self.lock = threading.Lock()
        self.done = threading.Event()

    def expect(self, match_id: int, player_id: int, entered: float, won: bool | None = None) -> None:
        with self.lock:
            self.waiting[match_id] = (player_id, entered, won)

    def watch(self) -> None:
        from django.db import connection

        from ratings.models import RatingChange, RatingSystemState

        try:
            while not self.done.is_set() or self.waiting:
                with self.lock:
                    waiting = dict(self.waiting)
                if waiting:
                    runs = list(RatingSystemState.objects.values_list("published_run_id", flat=True))
                    for match_id, (player_id, entered, won) in waiting.items():
                        rows = RatingChange.objects.filter(run_id__in=runs, player_id=player_id, match_id=match_id)
                        if won is not None:
                            rows = rows.filter(won=won)
                        if rows.count() == len(runs):
                            seen = time.perf_counter()
                            with self.lock:
                                del self.waiting[match_id]
                            self.latencies[match_id] = seen - entered
                time.sleep(0.01)
        finally:
            connection.close()


def writer(number: int, ids: list[int], results: int, watcher: Published, seed: int) -> None:
    """Enters `results` results as a desk does: each match played just now."""
    from django.db import connection

    from games import services as games
    from games.models import Player

    rng = random.Random(seed * 1000 + number)
    try:
        for result in range(results):
            time.sleep(rng.uniform(0.1, 1.0))
            a, b = rng.sample(ids, 2)
            match = games.match_create(player_a=Player(pk=a), player_b=Player(pk=b), length=rng.choice([3, 5, 7]),
                                       played_on=datetime.now(UTC))
            won = rng.random() < 0.5
            entered = time.perf_counter()
            games.match_final_score_record(match=match, score_a=match.length if won else 0,
                                           score_b=0 if won else match.length)
            watcher.expect(match.pk, a, entered)
    finally:
        connection.close()


RUN_LINE = re.compile(r"\] (\w+) run (\d+): (.*)$")


def print_runs_after(log_path: Path, offset: int) -> None:
    """The worker's log lines (stages, their times, rows rewritten) of the runs that started
    after the log was `offset` bytes long."""
    runs: dict[tuple[str, int], list[str]] = {}
    with log_path.open("rb") as log:
        log.seek(offset)
        for line in log.read().decode(errors="replace").splitlines():
            found = RUN_LINE.search(line)
            if found:
                system, run, text = found.groups()
                runs.setdefault((system, int(run)), []).append(text)
    for (system, run), lines in sorted(runs.items()):
        if lines[0].startswith("load took"):
            print(f"  {system} run {run}: " + "; ".join(lines))


STAGE = re.compile(r"([a-z][a-z :,]*?) took ([0-9.]+) s")


def summarise_runs_after(log_path: Path, offset: int) -> None:
    """How many runs the worker made after the log was `offset` bytes long, and the median and
    worst time of each of their stages, per system: where the time from result to published went."""
    stages: dict[str, dict[str, list[float]]] = {}
    runs: dict[str, set[int]] = {}
    full = 0
    with log_path.open("rb") as log:
        log.seek(offset)
        for line in log.read().decode(errors="replace").splitlines():
            found = RUN_LINE.search(line)
            if not found:
                continue
            system, run, text = found.groups()
            runs.setdefault(system, set()).add(int(run))
            full += "rating in full" in text
            for stage, seconds in STAGE.findall(text):
                stages.setdefault(system, {}).setdefault(stage.strip(" ;"), []).append(float(seconds))
    for system in sorted(runs):
        parts = [f"{stage} {statistics.median(times):.3f}/{max(times):.3f}"
                 for stage, times in stages.get(system, {}).items()]
        print(f"  {system}: {len(runs[system])} runs; stage median/worst s: " + ", ".join(parts))
    print(f"  runs that rated the whole history: {full}")


def wait_for(watcher: Published, limit: float) -> None:
    deadline = time.monotonic() + limit
    while watcher.waiting and time.monotonic() < deadline:
        time.sleep(0.05)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="100,000 matches, 5,000 players, 3 results a writer")
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--writers", type=int, default=20)
    parser.add_argument("--results", type=int, default=10, help="results each writer enters")
    parser.add_argument("--seed", type=int, default=2025)
    parser.add_argument("--keep-database", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        args.matches, args.players, args.results = 100_000, 5_000, 3

    url = os.environ.get("DATABASE_URL", "")
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not url.startswith(("postgres://", "postgresql://")) or not broker.startswith("redis://"):
        sys.exit("set DATABASE_URL to a PostgreSQL database and CELERY_BROKER_URL to a Redis database")
    import redis

    print(f"Scratch database {url.rsplit('/', 1)[-1]}_bench (re)created; broker {broker} flushed")
    redis.Redis.from_url(broker).flushdb()
    with scratch_database(url, "_bench", keep=args.keep_database), tempfile.TemporaryDirectory() as folder:
        from django.db import connections

        from ratings import services

        started = time.perf_counter()
        history = synthetic_history(args.matches, args.players, seed=args.seed)
        print(f"  synthetic history of {len(history):,} matches in {time.perf_counter() - started:.1f} s")
        shift = datetime.now(UTC).date() - timedelta(days=1) - history[-1].played_on
        ids = load_history(history, args.players, shift)
        last_day = history[-1].played_on + shift
        for name in ("fibs", "crawford"):
            started = time.perf_counter()
            run = services.rating_recompute_now(system=name)
            print(f"  {name:<9} full recompute (with checkpoints) in {time.perf_counter() - started:5.1f} s "
                  f"({run.matches_total:,} matches)")
        connections.close_all()
        # two processes, one a system at a time
        worker = Worker("latency", {**os.environ, "CRAWFORD_STALE_SECONDS": "120"}, Path(folder),
                        pool="prefork", concurrency=2)
        try:
            wait(worker.ready, 60, every=0.2)
            measure(args, ids, last_day, worker.log)
        finally:
            worker.kill(signal.SIGTERM)


def measure(args, ids: list[int], last_day, log_path: Path) -> None:
    """The writers' results at the end of history, then the correction six months back."""
    from games import services as games
    from games.models import Match
    from ratings.models import RatingRun, RunStatus

    watcher = Published()
    poller = threading.Thread(target=watcher.watch)
    poller.start()
    started, offset = time.perf_counter(), log_path.stat().st_size
    threads = [threading.Thread(target=writer, args=(n, ids, args.results, watcher, args.seed))
               for n in range(args.writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wait_for(watcher, 120)
    took = time.perf_counter() - started
    latencies = list(watcher.latencies.values())
    print(f"\nResults at the end of history: {len(latencies)} from {args.writers} writers in {took:.1f} s "
          f"({len(watcher.waiting)} never published)")
    if latencies:
        print(f"  entered → published (both systems): p50 {percentile(latencies, 0.5):.2f} s, "
              f"p95 {percentile(latencies, 0.95):.2f} s, max {max(latencies):.2f} s")
    summarise_runs_after(log_path, offset)

    back = datetime.combine(last_day, time_of_day(12, tzinfo=UTC)) - timedelta(days=182)
    match = Match.objects.filter(played_on=back).order_by("id").first()
    flipped = (0, match.length) if match.winner_id == match.player_a_id else (match.length, 0)
    entered, offset = time.perf_counter(), log_path.stat().st_size
    games.match_final_score_record(match=match, score_a=flipped[0], score_b=flipped[1])
    watcher.expect(match.pk, match.player_a_id, entered, won=flipped[0] > flipped[1])
    wait_for(watcher, 300)
    watcher.done.set()
    poller.join()
    figure = watcher.latencies.get(match.pk)
    print(f"Correction of a result six months back ({back:%Y-%m-%d}, of {last_day:%Y-%m-%d}): "
          + (f"published by both systems in {figure:.2f} s" if figure is not None else "never published"))
    # the runs go on to rewrite their checkpoints after publishing: let them finish
    wait(lambda: not RatingRun.objects.filter(status=RunStatus.RUNNING).exists(), 300, every=0.1)
    done = time.perf_counter() - entered
    print(f"  both runs done, checkpoints after it rewritten too, {done:.2f} s after the correction was entered")
    print_runs_after(log_path, offset)


if __name__ == "__main__":
    main()
