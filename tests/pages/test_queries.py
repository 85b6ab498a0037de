"""Each page runs the same number of queries for a small and a large event, list or record."""

import re

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


def count_htmx(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, headers={"HX-Request": "true"})
    assert response.status_code == 200 and response.content.startswith(b'<div id="desk-main"'), url
    return len(captured)


def finished_match(a, b, *, games_won=1, length=1):
    match = games.match_create(player_a=a, player_b=b, length=length)
    for number in range(1, games_won + 1):
        match = games.game_record(match=match, number=number, game=games.GameInput(winner=0))
    return match


def test_event_pages_do_not_grow_with_the_field(client, td):
    small = build_knockout(td, make_players(4), name="Small Open")
    large = build_knockout(td, make_players(24), name="Large Open", results_rounds=2)
    # (drawn from nothing, from the cache): the event, its organisers and their public names (chosen,
    # and their players' logins), the cache stamp, the flights
    # still taking registrations (the page alone); the flights, the entries with names, the entries
    # and pairings the draw is built from, the bracket's names; the page also reads the event's PR
    # table of analysed matches.
    for path, queries in (("/events/{}/", (12, 7)), ("/events/{}/live/", (7, 2)), ("/events/{}/embed/", (7, 2))):
        assert count(client, path.format(small.slug)) == count(client, path.format(large.slug)) == queries
    client.force_login(td)
    # The session, the user, the event and the TD's right to it; then the desk's reads
    # (`selectors.desk_board`: flights, entry counts, the entries of flights not started (with
    # their ratings when there are any), rounds, open and decided pairings, reports) and the
    # ratings progress bar, and the claims on the event's players this TD decides. Projector: the flights, the started
    # rounds, their pairings. Slips printed again: the open pairings, then the codes' service (the
    # TD's right again, the pairings, the live codes: none to issue, so the event is not locked).
    assert count(client, f"/desk/{small.slug}/") == count(client, f"/desk/{large.slug}/") == (13, 13)
    assert count(client, f"/desk/{small.slug}/slips/") == count(client, f"/desk/{large.slug}/slips/") == (8, 8)
    assert (count(client, f"/desk/{small.slug}/projector/") == count(client, f"/desk/{large.slug}/projector/")
            == (7, 7))
    # An inline result answers with the desk's main part: the same reads, whatever the field.
    for event in (small, large):
        assert count_htmx(client, f"/desk/{event.slug}/") == 12


def test_swiss_standings_do_not_grow_with_the_field(client, td):
    small = build_swiss(td, make_players(4), name="Small Swiss")
    large = build_swiss(td, make_players(14), rounds_played=2, name="Large Swiss")
    assert count(client, f"/events/{small.slug}/") == count(client, f"/events/{large.slug}/")
    # Scored by win and skill with the PR tie-break: one more query, the PRs of the analysed matches.
    plain = count(client, f"/events/{small.slug}/")
    skill = {"scoring": "win_and_skill", "tie_breaks": ["pr", "buchholz"]}
    small = build_swiss(td, make_players(4), name="Small Skill Swiss", **skill)
    large = build_swiss(td, make_players(14), rounds_played=2, name="Large Skill Swiss", **skill)
    assert count(client, f"/events/{small.slug}/") == count(client, f"/events/{large.slug}/") == (plain[0] + 1,
                                                                                                   plain[1])


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
            "/ratings/?sort=surname&dir=reverse", "/ratings/?club=lub&sort=surname", "/ratings/?provisional=0",
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


def test_desk_of_an_event_taking_entries_does_not_grow_with_the_list(client, td):
    from datetime import date

    from django.contrib.auth import get_user_model

    from tournaments import services as events

    staff = get_user_model().objects.create_user("opener", is_staff=True, is_superuser=True)
    desks = []
    for name, size in (("Few Cup", 3), ("Many Cup", 40)):
        tournament = events.tournament_create(name=name, start_date=date(2026, 11, 22), organisers=[td], by=staff)
        flight = events.flight_create(tournament=tournament, name="Main", format="swiss", lengths=[5],
                                      swiss_rounds=4, by=td)
        for player in make_players(size):
            events.entry_add(flight=flight, player=player, by=td)
        desks.append(f"/desk/{tournament.slug}/")
    publish_ratings()
    client.force_login(td)
    # As above, with the entries of the flight not started and their ratings (the published run,
    # the ratings), but no pairings to read.
    assert count(client, desks[0]) == count(client, desks[1])
    assert client.get(desks[1], {"q": "Player"}).status_code == 200


PLAYER_PAGE_QUERIES = (10, 9)
"""A player page's queries: the player, his ratings, his rating changes, the published run (the
key of the ranks in the cache, and the ranks once emptied), his pairings, his newest matches
outside events on each side, his record, and his analysed matches (one; two more for a player
with any)."""


def test_player_page_reads_any_record_in_the_same_queries_counted_here(client, td):
    players = make_players(12)
    build_knockout(td, players[:8])
    quiet, busy = players[8], players[9]
    finished_match(quiet, players[10])
    publish_ratings()
    assert count(client, f"/players/{quiet.pk}/") == PLAYER_PAGE_QUERIES
    for opponent in players[:8] + players[10:]:  # on both sides, in and outside the event
        finished_match(busy, opponent, games_won=3, length=3)
        finished_match(opponent, busy)
    publish_ratings()
    for player in (quiet, busy, players[0]):
        assert count(client, f"/players/{player.pk}/") == PLAYER_PAGE_QUERIES, player


RATING_SEARCH_QUERIES = (7, 5)
"""A search by name's queries: the official lists, the ids found (counted from them), their rows,
the published run (the key of its ranks and its players' countries in the cache, and the two once
emptied) and when it was rated. A country or a club alone counts first: one more."""


def test_rating_list_search_runs_the_queries_counted_here_however_many_it_finds(client, td):
    urls = ["/ratings/?system=fibs&q=Player&country=DK", "/ratings/?system=fibs&q=Player 0&country=SE&sort=name",
            "/ratings/?system=fibs&q=Player&club=lub 1", "/ratings/?system=fibs&q=Player&sort=matches"]
    players = make_players(6)
    for i in range(17):  # 425 points of experience each: established on FIBS
        for a, b in zip(players[::2], players[1::2]):
            games.match_final_score_record(match=games.match_create(player_a=a, player_b=b, length=25),
                                           score_a=25, score_b=i % 25)
    publish_ratings()
    assert [count(client, url) for url in urls] == [RATING_SEARCH_QUERIES] * len(urls)
    more = make_players(120)
    for a, b in zip(more, more[1:]):
        finished_match(a, b)
    publish_ratings()
    assert [count(client, url) for url in urls] == [RATING_SEARCH_QUERIES] * len(urls)
    # nothing found: no rows to read, no ranks (from nothing, the countries are read once)
    assert count(client, "/ratings/?system=fibs&q=nobody") == (5, 4)
    assert count(client, "/ratings/?system=fibs&club=lub 1") == (8, 6)


def test_a_save_at_the_desk_runs_the_same_queries_for_8_or_64_matches(client, td):
    """A Save answers with what it changed: its own queries do not grow with the event."""
    client.force_login(td)
    counts = []
    for name, players in (("Eight Open", 16), ("Sixty-Four Open", 128)):
        tournament = build_knockout(td, make_players(players), name=name, results_rounds=0)
        pairings = list(Pairing.objects.filter(flight__tournament=tournament, round__number=1, flight__name="Main")
                        .order_by("id"))
        assert len(pairings) == players // 2
        found = []
        for pairing in pairings[:4]:
            with CaptureQueriesContext(connection) as captured:
                response = client.post(f"/desk/{tournament.slug}/", {
                    "action": "score", "pairing": pairing.pk, f"p{pairing.pk}-version": pairing.version,
                    f"p{pairing.pk}-score_a": 5, f"p{pairing.pk}-score_b": 2}, headers={"HX-Request": "true"})
            assert response.status_code == 200 and b"recorded" in response.content
            found.append(len([q for q in captured if "SAVEPOINT" not in q["sql"]]))
        counts.append(found)
    # The session, the user, the event and the TD's right to it; the flights' names with the
    # newest pairing, the pairing. The service: the event's results version (which locks it), the
    # pairing locked, who acts (a TD, and not a player of it), the open reports superseded, the
    # next version, the report stored confirmed with its history; the match created and finished
    # (locked, no games, saved, its history) with the ratings' outbox; the pairing with its
    # history; the advance (the unit's flights, rounds, entries and pairings; no flight of the
    # unit over, so the event's other flights are not read). The answer: the changed rows, the open matches counted by round, the latest
    # results. A Save that draws the first match of a round is answered with the whole desk
    # (second); one that draws a match into a round on the desk adds four (fourth: the new
    # pairing and its history, the unit's entries and pairings read again; no free table to
    # offer it in an event without tables).
    assert counts[0] == counts[1] == [30, 46, 30, 34]


def test_player_page_shows_every_enabled_systems_rating_in_the_same_queries(client, td, settings):
    from ratings import services as rating_services
    from ratings.models import Rating

    players = make_players(4)
    for a, b in zip(players, players[1:]):
        finished_match(a, b)
    publish_ratings()
    two_systems = count(client, f"/players/{players[1].pk}/")
    settings.RATINGS_LUCK_ADJUSTED = True  # a third system: crawford, luck-adjusted
    rating_services.rating_recompute_now(system="skill")
    assert count(client, f"/players/{players[1].pk}/") == two_systems == PLAYER_PAGE_QUERIES
    html = client.get(f"/players/{players[1].pk}/").content.decode()
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th>\s*<td class="num" data-label="Rating"><span><strong>([^<]+)'
                      r'</strong>', html)
    published = {r.system: f"{r.rating:.1f}" for r in Rating.objects.filter(player=players[1], run__published=True)}
    assert rows == [("FIBS Elo", published["fibs"]), ("Variance-adjusted (Glicko-2)", published["crawford"]),
                    ("Crawford, luck-adjusted", published["skill"])]
    assert "Not rated yet." not in html


def test_chances_read_where_a_newcomer_starts_only_for_a_player_without_a_rating(client):
    players = make_players(3)
    finished_match(players[0], players[1])
    publish_ratings()
    rated = f"/ratings/chances/?player_a={players[0].pk}&player_b={players[1].pk}&length=5&system=crawford"
    newcomer = f"/ratings/chances/?player_a={players[0].pk}&player_b={players[2].pk}&length=5&system=crawford"
    # the newcomer's start: the parameters in force and where the published run settled them
    assert (count(client, rated), count(client, newcomer)) == ((5, 5), (7, 7))
