"""Real Celery workers on Redis and PostgreSQL heal the faults a production machine meets: a
worker killed in the middle of a run, two workers taking the same work, a broker that was down.
Nothing here makes a new request after the fault: the periodic check (beat) does the healing."""

import os
import re
import signal
import time
from datetime import timedelta
from itertools import pairwise
from pathlib import Path

import pytest
from django.conf import settings

from games import services as games
from ratings import selectors, tasks
from ratings.models import RatingRun, RatingSystemState, RunStatus

from .conftest import OPENING
from tests.support import Workers

from .test_worker import _long_history, pytestmark  # noqa: F401 (pytestmark: the skips)

STALE_SECONDS = 2
"""The workers here take a run as dead after this long without a heartbeat (300 s in production)."""

CHECK_SECONDS = 1
"""And run the periodic check this often (30 s in production)."""


def _clear_broker():
    import redis

    from config.celery import app

    app.control.purge()
    redis.Redis.from_url(settings.CELERY_BROKER_URL).delete("unacked", "unacked_index")


@pytest.fixture
def workers(transactional_db, tmp_path):
    _clear_broker()
    started = Workers(tmp_path, CRAWFORD_STALE_SECONDS=str(STALE_SECONDS), CRAWFORD_SWEEP_SECONDS=str(CHECK_SECONDS))
    yield started
    started.stop()
    _clear_broker()


def nothing_owed():
    states = list(RatingSystemState.objects.select_related("published_run"))
    return len(states) == 2 and all(
        state.published_run is not None and state.requested == state.published_run.covers_requests
        and not RatingRun.objects.filter(system=state.system, status=RunStatus.RUNNING).exists()
        for state in states
    )


def broker_idle():
    """No message waiting and none taken but unfinished (acks_late keeps them until they end)."""
    import redis

    redis_db = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    return redis_db.llen("celery") == 0 and redis_db.hlen("unacked") == 0


def never_overlapping():
    """Per system, each run that started had finished before the next one started."""
    for system in ("fibs", "crawford"):
        runs = list(RatingRun.objects.filter(system=system, started_at__isnull=False).order_by("started_at"))
        for earlier, later in pairwise(runs):
            assert earlier.finished_at is not None and earlier.finished_at <= later.started_at, (earlier, later)


def record_win(player_a, player_b, day):
    match = games.match_create(player_a=player_a, player_b=player_b, length=1, played_on=OPENING + timedelta(days=day))
    games.game_record(match=match, number=1, game=games.GameInput(winner=0))  # commits: requests both systems


def test_a_worker_killed_mid_run_is_healed_by_the_next_worker_with_no_further_request(workers):
    anna, bo = games.player_create(name="Anna"), games.player_create(name="Bo")
    first = workers.start("first")
    _long_history(matches=40_000)  # a run takes a few seconds
    record_win(anna, bo, day=1)
    dying = workers.wait_for(
        lambda: RatingRun.objects.filter(status=RunStatus.RUNNING, matches_done__gt=0).first(), timeout=30, every=0.02
    )
    workers.kill(first)
    killed = time.monotonic()
    dying.refresh_from_db()
    assert dying.status == RunStatus.RUNNING and not dying.published

    # Only the other system's message is left in the queue: the dead run's system is healed by
    # the second worker's periodic check alone (Redis would hand the lost message out again only
    # after its visibility timeout, an hour).
    workers.start("second", beat=True)
    workers.wait_for(nothing_owed, timeout=30)
    healed = time.monotonic() - killed
    print(f"killed worker healed in {healed:.1f} s (stale after {STALE_SECONDS} s, check every {CHECK_SECONDS} s)")

    dying.refresh_from_db()
    assert dying.status == RunStatus.SUPERSEDED and "stopped reporting" in dying.error
    for system in ("fibs", "crawford"):
        assert selectors.rating_list(system=system).count() == 1_002
        assert selectors.rating_list(system=system).get(player=anna).matches == 1
        assert RatingSystemState.objects.get(system=system).published_run.matches_total == 40_001
    assert not RatingRun.objects.filter(status__in=[RunStatus.FAILED, RunStatus.QUEUED]).exists()
    # the second worker's beat sent the check; whichever of its tasks claimed the dead run's pending
    # results first (the check's run or the other system's queued one) rated them
    assert "Sending due task jobs-sweep" in workers.logs(tail=10**7)
    never_overlapping()


def test_two_workers_given_the_same_work_many_times_rate_each_system_once(workers):
    anna, bo = games.player_create(name="Anna"), games.player_create(name="Bo")
    _long_history(matches=30_000)
    workers.start("one", beat=True, CRAWFORD_STALE_SECONDS="60")
    workers.start("two", beat=True, CRAWFORD_STALE_SECONDS="60")  # two beats: a deployment that got it wrong
    record_win(anna, bo, day=1)
    queued = list(RatingRun.objects.filter(status=RunStatus.QUEUED).values_list("pk", flat=True))
    for _ in range(3):  # the same messages again, as a redelivery would send them
        for run_id in queued:
            tasks.ratings_recompute.delay(run_id)
        tasks.ratings_recompute_owed.delay()

    workers.wait_for(lambda: nothing_owed() and broker_idle(), timeout=30)
    for system in ("fibs", "crawford"):
        done = RatingRun.objects.filter(system=system, status=RunStatus.DONE)
        assert done.count() == 1 and done.get().matches_total == 30_001
    assert not RatingRun.objects.filter(status__in=[RunStatus.FAILED, RunStatus.RUNNING]).exists()
    never_overlapping()


def test_a_game_recorded_while_the_broker_was_down_is_rated_once_it_is_back(workers, broker, staff_api):
    anna, bo = games.player_create(name="Anna"), games.player_create(name="Bo")
    match = staff_api.post("/api/v1/matches/", {"player_a": anna.pk, "player_b": bo.pk, "length": 1},
                           format="json").data
    broker.down()
    response = staff_api.post(f"/api/v1/matches/{match['id']}/games/",
                              {"number": 1, "winner": anna.pk, "kind": "single", "cube": 1, "cube_owner": None},
                              format="json")
    assert response.status_code == 201 and response.data["status"] == "finished"
    assert not RatingRun.objects.filter(status=RunStatus.QUEUED).exists()

    broker.back()
    workers.start("back", beat=True)
    workers.wait_for(nothing_owed, timeout=30)
    assert selectors.rating_list(system="fibs").get(player=anna).rating == pytest.approx(1510.0)
    assert selectors.rating_list(system="crawford").get(player=bo).matches == 1


@pytest.mark.slow
def test_a_pool_process_killed_mid_run_leaves_its_worker_alive_and_the_check_heals_the_run(workers):
    """The out-of-memory killer takes the pool process, not the worker: the worker survives, a new
    pool process takes over, and once the killed run's heartbeat is stale the check, sent by a
    lone beat, rates what is owed, whether or not Celery has given the killed task back yet."""
    anna, bo = games.player_create(name="Anna"), games.player_create(name="Bo")
    worker = workers.start("prefork", pool="prefork")
    workers.start("beat", command="beat")
    _long_history(matches=40_000)
    record_win(anna, bo, day=1)
    dying = workers.wait_for(
        lambda: RatingRun.objects.filter(status=RunStatus.RUNNING, matches_done__gt=0).first(), timeout=30, every=0.02
    )
    (pool_process,) = Path(f"/proc/{worker.process.pid}/task/{worker.process.pid}/children").read_text().split()
    os.kill(int(pool_process), signal.SIGKILL)

    workers.wait_for(lambda: nothing_owed() and broker_idle(), timeout=30)
    dying.refresh_from_db()
    assert dying.status == RunStatus.SUPERSEDED and "stopped reporting" in dying.error
    # Celery gives the killed task back (reject_on_worker_lost), but not always before the check
    # has rated what was owed, and on Redis not always at once: the healing must not depend on it.
    # Whatever comes back finds nothing to do; no task is run more than twice.
    log = workers.logs(tail=10**7)
    received = re.findall(r"Task ratings\.recompute\[([-0-9a-f]+)\] received", log)
    assert worker.process.poll() is None and "WorkerLostError" in log
    assert 2 <= len(received) <= 3 and max(received.count(task) for task in received) <= 2
    for system in ("fibs", "crawford"):
        assert selectors.rating_list(system=system).get(player=anna).matches == 1
    assert not RatingRun.objects.filter(status__in=[RunStatus.FAILED, RunStatus.QUEUED]).exists()
    never_overlapping()
