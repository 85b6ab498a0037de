"""Each page runs the same number of queries for a small and a large event, list or record."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services as games
from tournaments.models import Pairing

from .conftest import build_knockout, build_swiss, make_players, publish_ratings

pytestmark = pytest.mark.django_db


def count(client, url) -> tuple[int, int]:
    """The queries of a page drawn from nothing (the cache emptied), then from the cache."""
    client.get(url)  # warm any per-process cache (content types, sessions)
    cache.clear()
    counts = []
    for _ in ("cold", "warm"):
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        assert response.status_code == 200, url
        counts.append(len(captured))
    return counts[0], counts[1]


def finished_match(a, b, *, games_won=1, length=1):
    match = games.match_create(player_a=a, player_b=b, length=length)
    for number in range(1, games_won + 1):
        match = games.game_record(match=match, number=number, game=games.GameInput(winner=0))
    return match


def test_event_pages_do_not_grow_with_the_field(client, td):
    small = build_knockout(td, make_players(4), name="Small Open")
    large = build_knockout(td, make_players(24), name="Large Open", results_rounds=2)
    # (drawn from nothing, from the cache): the event, its organisers, the cache stamp; the flights,
    # the entries with names, the entries and pairings the draw is built from, the bracket's names.
    for path, queries in (("/events/{}/", (8, 3)), ("/events/{}/live/", (7, 2))):
        assert count(client, path.format(small.slug)) == count(client, path.format(large.slug)) == queries
    client.force_login(td)
    # The session, the user, the event and the TD's right to it; then the desk's six reads
    # (`selectors.desk_board`) and the ratings progress bar. Slips: the open pairings alone.
    assert count(client, f"/desk/{small.slug}/") == count(client, f"/desk/{large.slug}/") == (11, 11)
    assert count(client, f"/desk/{small.slug}/slips/") == count(client, f"/desk/{large.slug}/slips/") == (5, 5)


def test_swiss_standings_do_not_grow_with_the_field(client, td):
    small = build_swiss(td, make_players(4), name="Small Swiss")
    large = build_swiss(td, make_players(14), rounds_played=2, name="Large Swiss")
    assert count(client, f"/events/{small.slug}/") == count(client, f"/events/{large.slug}/")


def test_match_page_and_replay_do_not_grow_with_the_games(client, staff_user):
    from .conftest import game_moves

    a, b = make_players(2)
    short = finished_match(a, b, games_won=1, length=1)
    long = finished_match(a, b, games_won=9, length=9)
    assert count(client, f"/matches/{short.pk}/") == count(client, f"/matches/{long.pk}/")
    client.force_login(staff_user)
    assert count(client, f"/matches/{short.pk}/enter/") == count(client, f"/matches/{long.pk}/enter/")
    few = games.match_create(player_a=a, player_b=b, length=3)
    games.game_record(match=few, number=1, game=games.GameInput(winner=0, moves=game_moves(4)))
    many = games.match_create(player_a=a, player_b=b, length=3)
    games.game_record(match=many, number=1, game=games.GameInput(winner=0, moves=game_moves(30)))
    assert count(client, f"/matches/{few.pk}/games/1/") == count(client, f"/matches/{many.pk}/games/1/")


def test_player_page_does_not_grow_with_the_record(client, td):
    players = make_players(12)
    build_knockout(td, players[:8])
    quiet, busy = players[8], players[9]
    finished_match(quiet, players[10])
    for opponent in players[:8] + players[10:]:
        finished_match(busy, opponent)
        finished_match(opponent, busy)
    publish_ratings()
    assert count(client, f"/players/{quiet.pk}/") == count(client, f"/players/{busy.pk}/")
    assert count(client, f"/players/{players[0].pk}/") == count(client, f"/players/{busy.pk}/")


def test_rating_list_home_and_chances_do_not_grow_with_the_list(client, td):
    players = make_players(6)
    for a, b in zip(players, players[1:]):
        finished_match(a, b)
    publish_ratings()
    urls = ["/", "/ratings/", "/ratings/?system=fibs&provisional=1&sort=name", "/ratings/?q=Player&sort=club",
            f"/ratings/chances/?player_a={players[0].pk}&player_b={players[1].pk}&length=5&system=crawford",
            "/ratings/runs/"]
    before = [count(client, url) for url in urls]
    more = make_players(70)
    for a, b in zip(more, more[1:]):
        finished_match(a, b)
    build_knockout(td, more[:8])
    publish_ratings()
    after = [count(client, url) for url in urls]
    assert before == after
    assert Pairing.objects.exists()
