"""Builders for the ratings tests: players and finished matches with a known result."""

import os
from datetime import datetime, timedelta, timezone

import pytest

from games import services as games
from ratings import services

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
    monkeypatch.setattr(services, "_enqueue", sent.append)
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
