"""A real Celery worker on Redis and PostgreSQL rates what the services record (CI runs these)."""

import time
from datetime import timedelta

import pytest
from django.db import connection

from games import services as games
from games.models import Match, MatchStatus, Player
from ratings import selectors, services
from ratings.models import RatingRun, RatingSystemState, RunStatus
from tests.support import Workers, broker_reachable

from .conftest import OPENING


pytestmark = [
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (DATABASE_URL)"),
    pytest.mark.skipif(not broker_reachable(), reason="needs a Redis broker (CELERY_BROKER_URL)"),
]


@pytest.fixture
def workers(transactional_db, tmp_path):
    """One `celery -A config worker` process on the test database; stopped afterwards."""
    from config.celery import app

    app.control.purge()
    started = Workers(tmp_path)
    started.start("worker")
    yield started
    started.stop()


def test_a_result_recorded_through_the_services_is_rated_by_the_worker(workers):
    a, b = games.player_create(name="Anna"), games.player_create(name="Bo")
    first = games.match_create(player_a=a, player_b=b, length=1, played_on=OPENING)
    games.game_record(match=first, number=1, game=games.GameInput(winner=0))  # commits, requests a run
    workers.wait_for(lambda: selectors.rating_list(system="fibs").filter(player=a).exists())
    assert selectors.rating_list(system="fibs").get(player=a).rating == pytest.approx(1510.0)

    second = games.match_create(player_a=a, player_b=b, length=1, played_on=OPENING + timedelta(days=1))
    games.game_record(match=second, number=1, game=games.GameInput(winner=1))
    workers.wait_for(lambda: selectors.rating_list(system="fibs").get(player=a).matches == 2)
    workers.wait_for(lambda: selectors.rating_list(system="crawford").filter(player=a, matches=2).exists())
    assert RatingRun.objects.filter(status=RunStatus.FAILED).count() == 0


def _long_history(players=1_000, matches=60_000):
    """A history long enough to kill a run in the middle, written by PostgreSQL itself."""
    Player.objects.bulk_create(Player(name=f"Bulk {n}") for n in range(players))
    low = Player.objects.filter(name__startswith="Bulk ").order_by("pk").values_list("pk", flat=True).first()
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
            {"low": low, "players": players, "matches": matches, "opening": OPENING},
        )


def test_a_worker_killed_midway_leaves_the_published_ratings_and_the_next_run_completes(workers, settings):
    a, b = games.player_create(name="Anna"), games.player_create(name="Bo")
    games.match_create(player_a=a, player_b=b, length=3, played_on=OPENING - timedelta(days=1))
    Match.objects.filter(player_a=a).update(status=MatchStatus.FINISHED, score_a=3, winner=a)
    services.rating_recompute_now(system="crawford")
    before = list(selectors.rating_list(system="crawford").values_list("player_id", "rating", "deviation"))
    published_before = RatingSystemState.objects.get(system="crawford").published_run_id

    _long_history()
    (run,) = services.rating_recompute_request(system="crawford")
    workers.wait_for(lambda: RatingRun.objects.filter(pk=run.pk, status=RunStatus.RUNNING, matches_done__gt=0).exists(),
                     every=0.05)
    workers.kill(workers.started[0])

    run.refresh_from_db()
    assert run.status == RunStatus.RUNNING and 0 < run.matches_done < run.matches_total
    assert RatingSystemState.objects.get(system="crawford").published_run_id == published_before
    assert list(selectors.rating_list(system="crawford").values_list("player_id", "rating", "deviation")) == before

    settings.CRAWFORD_STALE_SECONDS = 1
    time.sleep(1.5)
    done = services.rating_recompute_now(system="crawford")
    run.refresh_from_db()
    assert run.status == RunStatus.SUPERSEDED and not run.published
    assert done.status == RunStatus.DONE and done.matches_total == 60_001
    assert selectors.rating_list(system="crawford").count() == 1_002
