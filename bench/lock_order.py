"""Two writers of one event at once, many times: how often PostgreSQL has to break a deadlock.

    DATABASE_URL=postgres://... .venv/bin/python bench/lock_order.py   # a scratch test_ database

Each trial builds a fresh 8-player knockout, starts match R1-1 and then sends, from two threads
released together, the pair of writes named below through the API. It prints, per pair, the HTTP
statuses seen and how many trials ended in a deadlock PostgreSQL detected (a 409 that should not
happen) or a 500. Needs PostgreSQL: SQLite serialises every write and cannot deadlock.
"""

from __future__ import annotations

import collections
import datetime
import itertools
import logging
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.contrib.auth import get_user_model
from django.db import connection, connections
from django.test.utils import setup_test_environment
from rest_framework.test import APIClient

TRIALS = int(os.environ.get("BENCH_TRIALS", "20"))
_serial = itertools.count(1)


def event(staff):
    from games import services as games
    from tournaments import services
    from tournaments.models import Entry, Pairing

    n = next(_serial)
    tournament = services.tournament_create(name=f"Lock bench {n}", start_date=datetime.date(2026, 1, 1), by=staff)
    flight = services.flight_create(tournament=tournament, name="Main", format="single_elimination",
                                    lengths=[3, 3, 3], by=staff)
    cast = [games.player_create(name=f"Bench {n}-{i}") for i in range(1, 9)]
    for seed, player in enumerate(cast, start=1):
        services.entry_check_in(entry=services.entry_add(flight=flight, player=player, seed=seed, by=staff), by=staff)
    services.flight_start(flight=flight, by=staff)
    pairing = services.pairing_start(pairing=Pairing.objects.get(flight=flight, slot="R1-1"), by=staff)
    return pairing, Entry.objects.get(flight=flight, player=pairing.player_a)


def at_once(staff, calls):
    barrier = threading.Barrier(len(calls))
    out = [None] * len(calls)

    def send(i, path, body):
        client = APIClient()
        client.force_authenticate(staff)
        barrier.wait()
        try:
            response = client.post(path, body, format="json")
            text = response.content.decode(errors="replace") if response.status_code >= 400 else ""
            out[i] = (response.status_code, "deadlock" in text.lower() or "same moment" in text.lower())
        except Exception as error:  # noqa: BLE001 - what a 500 would be
            out[i] = (500, "deadlock" in str(error).lower())
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(i, *call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return out


def main() -> None:
    if connection.vendor != "postgresql":
        sys.exit("bench/lock_order.py needs DATABASE_URL=postgres://...")
    setup_test_environment()
    logging.getLogger("django.request").setLevel(logging.CRITICAL)
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        staff = get_user_model().objects.create_user("bench-td", is_staff=True, is_superuser=True)
        statuses = collections.Counter()
        races = errors = 0
        started = time.perf_counter()
        for _ in range(TRIALS):
            pairing, entry = event(staff)
            results = at_once(staff, [
                (f"/api/v1/matches/{pairing.match_id}/games/",
                 {"number": 1, "winner": pairing.player_a_id, "kind": "backgammon"}),
                (f"/api/v1/entries/{entry.pk}/withdraw/", {}),
            ])
            statuses[tuple(code for code, _ in results)] += 1
            races += any(lost for _, lost in results)
            errors += any(code >= 500 for code, _ in results)
        seconds = time.perf_counter() - started
        print(f"game_record v entry_withdraw: {TRIALS} trials in {seconds:.1f} s")
        print(f"  deadlocks broken by PostgreSQL: {races}; answers of 500: {errors}")
        for pair, count in sorted(statuses.items()):
            print(f"  game {pair[0]}, withdraw {pair[1]}: {count}")
    finally:
        connections.close_all()
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
