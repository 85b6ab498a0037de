"""Builders for the ratings tests: players and finished matches with a known result."""

from datetime import datetime, timedelta, timezone

import pytest

from games import services as games
from ratings import services

OPENING = datetime(2025, 1, 1, 12, tzinfo=timezone.utc)


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
