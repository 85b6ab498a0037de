"""A cache or broker outage never turns a read or a write into a 500: with the cache pointed at
a port where nothing listens and the broker down, a stream of API writes with tokens, wrong
tokens, pages and API reads answers without a single server error."""

import logging

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import caches
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import services as games
from tests.pages.conftest import build_knockout
from tests.ratings.conftest import CLOSED_PORT, broker  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def cache_down(settings):
    """The cache on Redis at a closed port, as when Redis is stopped."""
    settings.CACHES = {"default": {"BACKEND": "config.cache.FailOpenRedisCache", "LOCATION": CLOSED_PORT,
                                   "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}}
    assert caches["default"].get("anything", "missed") == "missed"  # Django's test signals rebuilt the cache


def test_reads_and_writes_answer_without_a_500_while_the_cache_and_the_broker_are_down(cache_down, broker, caplog,
                                                                                       monkeypatch,
                                                                                       django_capture_on_commit_callbacks):
    from config import cache

    monkeypatch.setattr(cache, "_last_warning", float("-inf"))
    td = get_user_model().objects.create_user("director", password="pw-director-1")
    staff = get_user_model().objects.create_user("office", password="pw-office-1", is_staff=True, is_superuser=True)
    players = [games.player_create(name=f"Outage {n}") for n in range(8)]
    tournament = build_knockout(td, players, staff=staff)
    writer = APIClient()
    writer.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=staff).key}")
    stranger = APIClient()
    stranger.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    reader = APIClient()
    broker.down()

    statuses = []
    with caplog.at_level(logging.WARNING, logger="config.cache"), django_capture_on_commit_callbacks(execute=True):
        for n in range(6):
            match = writer.post("/api/v1/matches/", {"player_a": players[n % 8].pk, "player_b": players[(n + 1) % 8].pk,
                                                     "length": 1}, format="json")
            statuses.append(match.status_code)
            statuses.append(writer.post(f"/api/v1/matches/{match.data['id']}/games/",
                                        {"number": 1, "winner": players[n % 8].pk, "kind": "single", "cube": 1,
                                         "cube_owner": None}, format="json").status_code)
            statuses.append(stranger.get("/api/v1/players/").status_code)
            for url in (f"/events/{tournament.slug}/", "/ratings/", "/api/v1/ratings/", "/api/v1/players/"):
                statuses.append(reader.get(url).status_code)

    assert [code for code in statuses if code >= 500] == []
    assert statuses.count(201) == 12 and statuses.count(403) == 6
    assert "the cache cannot be reached" in caplog.text
