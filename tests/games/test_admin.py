import pytest
from django.contrib.auth import get_user_model

from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_logged(client):
    user = get_user_model().objects.create_superuser("boss", "boss@example.org", "pw-boss-12345")
    client.force_login(user)
    return client


def add_game(client, match, **fields):
    data = {"match": match.pk, "winner": 0, "end": "played_out", "kind": 1, "cube": 1, "cube_owner": "",
            "automatic_doubles": 0, "points": "", **fields}
    return client.post("/admin/games/game/add/", data)


def test_the_admin_records_a_game_through_the_rules(admin_client_logged, make_match):
    match = make_match(length=3)
    response = add_game(admin_client_logged, match, kind=2)
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.score_a, match.score_b, match.crawford_game) == (2, 0, 2)
    response = add_game(admin_client_logged, match, winner=1, cube=2, cube_owner=1)
    assert response.status_code == 200
    assert "Game 2 is the Crawford game: the cube cannot be turned." in response.content.decode()
    assert Game.objects.filter(match=match).count() == 1


def test_the_match_page_in_the_admin_shows_the_score_sheet(admin_client_logged, make_match):
    match = make_match(length=3)
    add_game(admin_client_logged, match, kind=2)
    response = admin_client_logged.get(f"/admin/games/match/{match.pk}/change/")
    assert response.status_code == 200
    assert "Games" in response.content.decode()
    assert admin_client_logged.get("/admin/games/player/?q=Player").status_code == 200
