import threading

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from games import services
from games.models import Game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks (CI runs it)"),
]


def test_two_people_recording_the_same_game_get_one_201_and_one_409(staff):
    white = services.player_create(name="White")
    black = services.player_create(name="Black")
    match = services.match_create(player_a=white, player_b=black, length=5)
    barrier = threading.Barrier(2)
    statuses = []

    def enter(winner):
        client = APIClient()
        client.force_authenticate(staff)
        barrier.wait()
        try:
            response = client.post(f"/api/v1/matches/{match.pk}/games/", {"number": 1, "winner": winner},
                                   format="json")
            statuses.append(response.status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=enter, args=(p.pk,)) for p in (white, black)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201, 409]
    assert Game.objects.filter(match=match).count() == 1
    match.refresh_from_db()
    assert match.score_a + match.score_b == 1 and match.version == 1
