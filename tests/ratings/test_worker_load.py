"""Under load, with no fault at all: many writers finishing matches at once while a real worker
publishes incrementally; once the worker has caught up the published ratings, list and rating
changes alike, equal a full recompute (PostgreSQL and Redis; CI runs it). Its length comes from
`CRAWFORD_TEST_LOAD_SECONDS` (6 s here; CI may raise it)."""

import os
import random
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection

from games import services as games
from ratings.models import RatingPending, RatingRun, RunStatus

from .conftest import OPENING, differences_from_a_full_recompute
from .test_worker import pytestmark  # noqa: F401 (the worker mark and the skips)
from .test_worker_faults import _clear_broker
from tests.support import Workers

LOAD_SECONDS = float(os.environ.get("CRAWFORD_TEST_LOAD_SECONDS", "6"))
WRITERS = 10


@pytest.fixture
def workers(transactional_db, tmp_path):
    _clear_broker()
    # As in production, beat sends the sweep that rates what the outbox still holds (every 2 s
    # here, so the wait below stays short).
    started = Workers(tmp_path, CRAWFORD_SWEEP_SECONDS="2")
    yield started
    started.stop()
    _clear_broker()


def caught_up():
    return not RatingPending.objects.exists() and not RatingRun.objects.filter(
        status__in=[RunStatus.QUEUED, RunStatus.RUNNING]).exists()


def runs_and_outbox():
    """What a failed wait shows: every run (status, stage, error) and the outbox per system."""
    runs = [f"run {run.pk} {run.system} {run.status} {run.stage} covers {run.covers_requests}: {run.error}"
            for run in RatingRun.objects.order_by("pk")]
    pending = {system: RatingPending.objects.filter(system=system).count() for system in ("fibs", "crawford")}
    return "\n".join(runs + [f"outbox: {pending}"])


def test_ten_writers_finishing_matches_at_once_leave_published_ratings_equal_to_a_full_recompute(workers):
    players = [games.player_create(name=f"Load {n}") for n in range(20)]
    for n in range(30):  # a published history to resume from
        games.match_final_score_record(match=games.match_create(
            player_a=players[n % 20], player_b=players[(n + 7) % 20], length=3,
            played_on=OPENING + timedelta(days=n)), score_a=3, score_b=n % 3)
    workers.start("one", beat=True)
    workers.start("two")  # two workers: publishes of the two systems, and takeovers, interleave
    workers.wait_for(caught_up, timeout=60)

    stop = time.monotonic() + LOAD_SECONDS
    written, failures = [], []

    def writer(number):
        rng = random.Random(number)
        try:
            while time.monotonic() < stop:
                a, b = rng.sample(players, 2)
                match = games.match_create(player_a=a, player_b=b, length=3)
                games.match_final_score_record(match=match, score_a=3, score_b=rng.randrange(3))
                written.append(match.pk)
        except Exception as error:  # noqa: BLE001 (reported below)
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == [] and len(written) > 2 * WRITERS
    workers.wait_for(caught_up, timeout=120, explain=runs_and_outbox)
    workers.stop()
    # with no fault, no run fails (two workers' claims and publishes take the locks in one order)
    assert not RatingRun.objects.filter(status=RunStatus.FAILED).exists(), runs_and_outbox()

    for system in ("fibs", "crawford"):
        assert differences_from_a_full_recompute(system) == [], (system, len(written))
