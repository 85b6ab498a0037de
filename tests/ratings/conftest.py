"""Builders for the ratings tests: players and finished matches with a known result."""

import os
from datetime import datetime, timedelta, timezone

import pytest

from games import services as games
from ratings import services
from ratings.services import runs

OPENING = datetime(2025, 1, 1, 12, tzinfo=timezone.utc)

CLOSED_PORT = "redis://127.0.0.1:1/0"
"""A broker address where nothing listens, as when Redis is down."""


class WorkerKilled(BaseException):
    """What a killed worker looks like from inside: not an Exception, so nothing catches it, and
    nothing after the line that raises it runs, no clean-up either."""


@pytest.fixture
def finish(make_player):
    """finish(a, b, length, winner="a", day=0, **fields): a finished match with its final score."""

    def make(player_a, player_b, length=3, winner="a", day=0, **fields):
        match = games.match_create(
            player_a=player_a, player_b=player_b, length=length, played_on=OPENING + timedelta(days=day), **fields
        )
        scores = (length, 0) if winner == "a" else (0, length)
        return games.match_final_score_record(match=match, score_a=scores[0], score_b=scores[1])

    return make


@pytest.fixture
def no_enqueue(monkeypatch):
    """Record the runs that would be sent to the broker instead of sending or running them."""
    sent = []
    monkeypatch.setattr(runs, "_enqueue", sent.append)
    return sent


@pytest.fixture
def broker(monkeypatch):
    """`broker.down()` switches the Celery app to a broker on a closed port, eager mode off, as
    when Redis is down; `broker.none()` to no broker; `broker.back()` restores the configured one."""
    from config.celery import app

    saved = (os.environ.get("CELERY_BROKER_URL"), app.conf.broker_url, app.conf.task_always_eager)

    def use(environment, url, eager):
        if environment is None:
            monkeypatch.delenv("CELERY_BROKER_URL", raising=False)
        else:
            monkeypatch.setenv("CELERY_BROKER_URL", environment)  # Celery reads it before its settings
        app.conf.broker_url, app.conf.task_always_eager = url, eager
        app._pool = app.amqp._producer_pool = None  # the pooled connections point at the old broker

    class Broker:
        @staticmethod
        def down():
            use(CLOSED_PORT, CLOSED_PORT, False)

        @staticmethod
        def none():
            """No broker at all: tasks run in-process (a small club's server)."""
            use(None, "", True)

        @staticmethod
        def back():
            use(*saved)

    yield Broker
    Broker.back()


def published_state(system):
    """The system's published ratings and rating changes, without the run they belong to."""
    from ratings.models import Rating, RatingChange, RatingSystemState

    run_id = RatingSystemState.objects.get(system=system).published_run_id
    ratings = {row[0]: row[1:] for row in Rating.objects.filter(run_id=run_id).values_list(
        "player_id", "rating", "deviation", "volatility", "experience", "matches", "last_played", "provisional")}
    changes = sorted(RatingChange.objects.filter(run_id=run_id).values_list(
        "player_id", "sequence", "match_id", "opponent_id", "played_on", "length", "won", "rating_before",
        "rating_after", "deviation_before", "deviation_after", "expected"))
    return ratings, changes


def _same(left, right):
    if isinstance(left, float) and isinstance(right, float):
        return abs(left - right) <= 1e-9
    return left == right


def differences_from_a_full_recompute(system):
    """Recompute `system` from scratch (which is then published) and list where the ratings
    published before differ from it: [] when they equal it."""
    ratings, changes = published_state(system)
    services.rating_recompute_now(system=system)
    expected_ratings, expected_changes = published_state(system)
    found = [("players", sorted(ratings), sorted(expected_ratings))] if ratings.keys() != expected_ratings.keys() else []
    found += [(player, ratings[player], expected_ratings[player]) for player in sorted(ratings.keys() & expected_ratings.keys())
              if not all(map(_same, ratings[player], expected_ratings[player]))]
    if len(changes) != len(expected_changes):
        found.append(("rating changes", len(changes), len(expected_changes)))
    else:
        found += [(row, expected) for row, expected in zip(changes, expected_changes) if not all(map(_same, row, expected))]
    return found
