"""`/health/`: what a monitor polls. 200 when every part works, 503 naming the part that does not,
in a fixed number of queries, without an address or a password in the answer."""

import logging
import os
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from analysis.models import AnalysisStatus, MatchAnalysis
from config import health
from ratings.models import RatingPending, RatingRun, RunStatus

# The broker of the test run (CI's Redis), where the heartbeat is written and read.
BROKER = os.environ.get("CELERY_BROKER_URL", "")


def redis_answers() -> bool:
    import redis

    if not BROKER.startswith("redis"):
        return False
    try:
        return bool(redis.Redis.from_url(BROKER, socket_connect_timeout=1).ping())
    except Exception:
        return False


needs_redis = pytest.mark.skipif(not redis_answers(), reason="needs a Redis broker (CELERY_BROKER_URL)")


@pytest.fixture(autouse=True)
def _no_broker_unless_asked(settings):
    """A laptop's site: no broker, whatever the test run configures (the tests with Redis set it)."""
    settings.CELERY_BROKER_URL = ""


@pytest.fixture
def with_broker(settings):
    settings.CELERY_BROKER_URL = BROKER
    import redis

    redis.Redis.from_url(BROKER).delete(health.HEARTBEAT_KEY)
    yield
    redis.Redis.from_url(BROKER).delete(health.HEARTBEAT_KEY)


def test_a_site_without_a_broker_is_healthy_and_says_its_tasks_run_in_process(client, db, settings):
    settings.CRAWFORD_VERSION = "9.8.7"
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/health/")
    assert response.status_code == 200
    off = {"status": "off", "detail": "no broker (CELERY_BROKER_URL unset): tasks run in the web process"}
    assert response.json() == {
        "status": "ok", "version": "9.8.7",
        "checks": {
            "database": {"status": "ok"}, "broker": off, "worker": off,
            "ratings": {"status": "ok", "owed_since": None, "last_run": None},
            "analysis": {"status": "ok", "waiting": 0, "oldest_waiting_since": None, "failed": 0},
        },
    }
    assert response["Cache-Control"].startswith("max-age=0")
    assert len(queries) == 3


def test_the_health_answer_costs_three_queries_however_much_is_stored(client, make_match):
    now = timezone.now()
    for n in range(30):
        match = make_match(length=3)
        MatchAnalysis.objects.create(match=match, status=AnalysisStatus.QUEUED)
        RatingPending.objects.create(system="fibs", match_id=match.pk)
        RatingRun.objects.create(system="fibs", requested_at=now, finished_at=now - timedelta(minutes=n),
                                 status=RunStatus.DONE)
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/health/")
    assert len(queries) == 3
    assert response.json()["checks"]["analysis"]["waiting"] == 30
    assert response.json()["checks"]["ratings"]["last_run"]["status"] == "done"


def test_a_rating_change_owed_for_eleven_minutes_answers_503_and_logs_it(client, db, caplog):
    pending = RatingPending.objects.create(system="crawford", match_id=None)
    RatingPending.objects.filter(pk=pending.pk).update(created_at=timezone.now() - timedelta(minutes=11))
    run = RatingRun.objects.create(system="crawford", requested_at=timezone.now(), status=RunStatus.FAILED,
                                   finished_at=timezone.now(), error="secret details of a crash")
    with caplog.at_level(logging.ERROR, logger="crawford.health"):
        response = client.get("/health/")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "failing"
    ratings = body["checks"]["ratings"]
    assert ratings["status"] == "failing"
    assert ratings["detail"] == "a rating change has been owed for 11 minutes"
    assert ratings["last_run"] == {"system": "crawford", "status": "failed",
                                   "finished_at": run.finished_at.isoformat()}
    assert "secret details" not in response.content.decode()
    assert [r.getMessage() for r in caplog.records if r.name == "crawford.health"] == [
        "health: ratings failing: a rating change has been owed for 11 minutes"]


def test_an_analysis_waiting_over_an_hour_answers_503(client, make_match):
    MatchAnalysis.objects.create(match=make_match(), status=AnalysisStatus.QUEUED,
                                 queued_at=timezone.now() - timedelta(minutes=61))
    MatchAnalysis.objects.create(match=make_match(), status=AnalysisStatus.FAILED)
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["checks"]["analysis"] == {
        "status": "failing", "detail": "1 analyses wait, the oldest for 61 minutes", "waiting": 1,
        "oldest_waiting_since": MatchAnalysis.objects.get(status="queued").queued_at.isoformat(), "failed": 1,
    }


def test_a_broker_that_does_not_answer_answers_503_without_its_address(client, db, settings, caplog):
    settings.CELERY_BROKER_URL = "redis://:hunter2-secret@127.0.0.1:1/0"
    with caplog.at_level(logging.ERROR, logger="crawford.health"):
        response = client.get("/health/")
    assert response.status_code == 503
    checks = response.json()["checks"]
    assert checks["broker"] == {"status": "failing", "detail": "the broker (Redis) does not answer"}
    assert checks["worker"] == {"status": "failing", "detail": "unknown: the broker does not answer"}
    assert "hunter2" not in response.content.decode() and "127.0.0.1" not in response.content.decode()
    logged = [r.getMessage() for r in caplog.records if r.name == "crawford.health"]
    assert len(logged) == 1 and logged[0].startswith("health: broker failing: the broker (Redis) does not answer (")
    assert "hunter2" not in caplog.text


@needs_redis
def test_a_fresh_worker_heartbeat_is_healthy(client, db, with_broker):
    from config.celery import heartbeat

    heartbeat.apply()
    response = client.get("/health/")
    assert response.status_code == 200
    worker = response.json()["checks"]["worker"]
    assert worker["status"] == "ok" and worker["age_seconds"] <= 2
    assert response.json()["checks"]["broker"] == {"status": "ok"}


@needs_redis
def test_no_heartbeat_for_three_minutes_says_a_worker_or_beat_is_down(client, db, with_broker):
    import redis

    redis.Redis.from_url(BROKER).set(health.HEARTBEAT_KEY, f"{time.time() - 180:.3f}")
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["checks"]["worker"]["detail"] == "no worker heartbeat for 180 s: a worker or beat is down"


@needs_redis
def test_no_heartbeat_ever_asks_whether_a_worker_runs(client, db, with_broker):
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["checks"]["worker"] == {
        "status": "failing", "detail": "no worker heartbeat yet: is a worker running, and beat?"}


def test_every_page_shows_the_release_in_its_footer(client, db, settings):
    settings.CRAWFORD_VERSION = "9.8.7"
    assert "Crawford 9.8.7 · backgammon" in client.get("/").content.decode()


def test_the_release_is_the_one_in_pyproject_and_the_changelog(settings):
    from pathlib import Path

    project = Path(__file__).resolve().parent.parent
    assert f'version = "{settings.CRAWFORD_VERSION}"' in (project / "pyproject.toml").read_text()
    assert f"## {settings.CRAWFORD_VERSION} " in (project / "CHANGELOG.md").read_text()
