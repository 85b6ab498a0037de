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


# -- every write through the services ------------------------------------------------------------

from datetime import datetime, timezone  # noqa: E402

from django.db import connection  # noqa: E402

from games import services  # noqa: E402
from games.models import Match, Player  # noqa: E402
from ratings.services import runs as rating_runs  # noqa: E402
from ratings.models import RatingSystemState  # noqa: E402

from .admin_forms import post_form  # noqa: E402


@pytest.fixture
def recomputes(monkeypatch, django_capture_on_commit_callbacks):
    """recomputes(call) -> (response, how many recomputes the call asked for once committed).

    Rating runs are kept off the broker."""
    monkeypatch.setattr(rating_runs, "_enqueue", lambda run_id: None)

    def requested(call):
        # What the set-up left for its commit runs first, as it would have after its own commit.
        pending = [callback for _, callback, _ in connection.run_on_commit]
        connection.run_on_commit.clear()
        for callback in pending:
            callback()
        before = sum(RatingSystemState.objects.filter(system="fibs").values_list("requested", flat=True))
        with django_capture_on_commit_callbacks(execute=True):
            response = call()
        after = sum(RatingSystemState.objects.filter(system="fibs").values_list("requested", flat=True))
        return response, after - before

    return requested


@pytest.fixture
def two_games(make_match):
    match = make_match(length=5)
    services.game_record(match=match, number=1, game=services.GameInput(winner=0))
    return services.game_record(match=match, number=2, game=services.GameInput(winner=1, kind=2))


def test_only_the_last_game_can_be_deleted_in_the_admin_and_through_the_service(admin_client_logged, two_games,
                                                                                 recomputes):
    first, second = Game.objects.filter(match=two_games).order_by("number")
    page = admin_client_logged.get(f"/admin/games/game/{first.pk}/change/").content.decode()
    assert f"/admin/games/game/{first.pk}/delete/" not in page
    assert admin_client_logged.post(f"/admin/games/game/{first.pk}/delete/", {"post": "yes"}).status_code == 403
    assert "delete_selected" not in admin_client_logged.get("/admin/games/game/").content.decode()
    assert f"/admin/games/game/{second.pk}/delete/" in admin_client_logged.get(
        f"/admin/games/game/{second.pk}/change/").content.decode()

    response, requested = recomputes(
        lambda: admin_client_logged.post(f"/admin/games/game/{second.pk}/delete/", {"post": "yes"}, follow=True))
    assert response.redirect_chain == [(f"/admin/games/match/{two_games.pk}/change/", 302)]
    assert "Game 2 deleted; it stays in the match&#x27;s history." in response.content.decode()
    assert requested == 1
    match = Match.objects.get(pk=two_games.pk)
    assert (match.score_a, match.score_b, match.version) == (1, 0, two_games.version + 1)
    deleted = Game.history.filter(match_id=match.pk, number=2, history_type="-").get()
    assert (deleted.history_user.username, deleted.history_change_reason) == ("boss", "game 2 deleted in admin")
    assert match.history.first().history_change_reason == "game 2 deleted in admin"


def test_a_game_of_a_forfeited_match_is_not_deleted_in_the_admin(admin_client_logged, two_games):
    services.match_forfeit(match=two_games, forfeited_by=two_games.player_a)
    last = Game.objects.get(match=two_games, number=2)
    assert admin_client_logged.post(f"/admin/games/game/{last.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Game.objects.filter(match=two_games).count() == 2


def test_a_recorded_game_is_shown_not_edited_in_the_admin(admin_client_logged, two_games):
    game = Game.objects.get(match=two_games, number=2)
    response = admin_client_logged.post(f"/admin/games/game/{game.pk}/change/", {"cube": 4, "winner": 0})
    assert response.status_code == 403
    game.refresh_from_db()
    assert (game.winner, game.cube, game.points) == (1, 1, 2)


def test_marking_a_match_unrated_in_the_admin_goes_through_the_service_and_recomputes(admin_client_logged,
                                                                                      two_games, recomputes):
    url = f"/admin/games/match/{two_games.pk}/change/"
    response, requested = recomputes(lambda: post_form(admin_client_logged, url, rated=None))
    assert response.status_code == 302, response.content.decode()[:3000]
    assert requested == 1
    match = Match.objects.get(pk=two_games.pk)
    assert (match.rated, match.version) == (False, two_games.version + 1)
    latest = match.history.first()
    assert (latest.history_user.username, latest.history_change_reason, latest.rated) == ("boss", "changed in admin",
                                                                                          False)

    response, requested = recomputes(lambda: post_form(admin_client_logged, url, played_on_0="2026-03-01",
                                                       played_on_1="19:30:00"))
    assert response.status_code == 302
    assert requested == 1
    match.refresh_from_db()
    assert match.played_on == datetime(2026, 3, 1, 19, 30, tzinfo=timezone.utc)
    assert match.version == two_games.version + 2

    response, requested = recomputes(lambda: post_form(admin_client_logged, url))
    assert response.status_code == 302
    assert requested == 0  # nothing changed: no new version, no recompute
    assert Match.objects.get(pk=match.pk).version == match.version


def test_the_rules_and_score_of_a_match_are_not_changed_in_the_admin(admin_client_logged, two_games):
    url = f"/admin/games/match/{two_games.pk}/change/"
    response = post_form(admin_client_logged, url, length="9", score_a="5", status="finished", cube_cap="64")
    assert response.status_code == 302
    match = Match.objects.get(pk=two_games.pk)
    assert (match.length, match.score_a, match.status, match.cube_cap) == (5, 1, "in_progress", None)
    assert admin_client_logged.post(f"/admin/games/match/{match.pk}/delete/", {"post": "yes"}).status_code == 403
    history = match.history.first()
    assert admin_client_logged.post(f"/admin/games/match/{match.pk}/history/{history.history_id}/",
                                    {"rated": ""}).status_code == 403


def test_a_player_is_changed_in_the_admin_through_the_service(admin_client_logged, make_player):
    anna = make_player("Anna Berg", federation_id="DK-1")
    bo = make_player("Bo Jensen")
    url = f"/admin/games/player/{bo.pk}/change/"
    response = post_form(admin_client_logged, url, country="dk", federation_id="DK-1")
    assert response.status_code == 200
    assert "Federation id DK-1 belongs to another player." in response.content.decode()
    response = post_form(admin_client_logged, url, name="  Bo   Jensen  Jr ", country="dk")
    assert response.status_code == 302
    bo = Player.objects.get(pk=bo.pk)
    assert (bo.name, bo.country, bo.history.first().history_user.username) == ("Bo Jensen Jr", "DK", "boss")
    response = admin_client_logged.post("/admin/games/player/add/", {"name": "anna berg", "country": "",
                                                                    "club": "", "federation_id": ""})
    assert response.status_code == 200
    assert f"Anna Berg with no club is already player {anna.pk}." in response.content.decode()
    assert Player.objects.count() == 2
