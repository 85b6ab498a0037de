"""The rating list as lichess shows it, and a player's page: ranks that survive filters, provisional
players in place, sort directions, surname order, CSV; peak, rank, rating changes and performance."""

import csv
import io

import pytest

from games import services as games
from ratings.models import Rating

from .conftest import build_knockout, make_players, publish_ratings

pytestmark = pytest.mark.django_db


def long_match(a, b, *, a_wins=True, length=25):
    """A 25-point match decided by one game: a backgammon with the cube on 16 (48 points)."""
    match = games.match_create(player_a=a, player_b=b, length=length)
    return games.game_record(match=match, number=1, game=games.GameInput(
        winner=0 if a_wins else 1, kind=3, cube=16, cube_owner=0 if a_wins else 1))


@pytest.fixture
def ranked(db):
    """Six players; four of them established on FIBS (400 points of experience), two provisional."""
    players = make_players(6)
    a, b, c, d, e, f = players
    for i in range(16):  # 17 matches of 25 points each for a..d: 425 points of experience
        long_match(a, b, a_wins=i % 3 != 0)
        long_match(c, d, a_wins=i % 4 != 0)
    long_match(a, c)
    long_match(b, d)
    long_match(e, f)
    publish_ratings()
    return players


def listed(client, **query):
    html = client.get("/ratings/", dict({"system": "fibs"}, **query)).content.decode()
    return html


def test_ranks_count_established_players_and_stay_the_same_under_a_filter(client, ranked):
    rows = list(Rating.objects.filter(system="fibs").order_by("-rating").values_list("player_id", "provisional"))
    established = [pid for pid, provisional in rows if not provisional]
    assert len(established) == 4 and len(rows) == 6
    last = next(p for p in ranked if p.pk == established[-1])
    html = listed(client, q=last.name)
    assert '<td class="num rank" data-label="Rank">4</td>' in html
    everybody = listed(client)
    assert everybody.count('title="Provisional: not ranked yet"') == 2  # in place, marked
    assert listed(client, provisional="0").count('class="num rank"') == 4


def test_the_club_filter_takes_part_of_the_name(client, ranked):
    html = listed(client, club="lub 1")
    assert ranked[1].name in html and ranked[5].name in html and ranked[0].name not in html


def test_every_sortable_column_shows_its_direction_and_turns_round(client, ranked):
    html = listed(client, sort="rating")
    assert 'aria-sort="descending"' in html and html.count("aria-sort=") == 1
    assert "sort=rating&amp;dir=reverse" in html
    html = listed(client, sort="rating", dir="reverse")
    assert 'aria-sort="ascending"' in html


def test_surname_order_sorts_by_the_last_word(client, db):
    z, a, m = (games.player_create(name=name, country="DK")
               for name in ("Anna Zetterberg", "Bo Andersen", "Carl Mikkelsen"))
    long_match(z, a)
    long_match(m, a)
    publish_ratings()
    html = listed(client, sort="surname")
    assert html.index("Bo Andersen") < html.index("Carl Mikkelsen") < html.index("Anna Zetterberg")
    html = listed(client, sort="surname", dir="reverse")
    assert html.index("Anna Zetterberg") < html.index("Carl Mikkelsen") < html.index("Bo Andersen")


def test_a_column_s_order_is_kept_per_published_run_and_turns_round(client, db):
    from django.core.cache import cache

    z, a, m = (games.player_create(name=name, country="DK", club=club)
               for name, club in (("anna Zetterberg", "Vejle"), ("Bo Andersen", "aarhus"), ("Carl Mikkelsen", "Odense")))
    long_match(z, a)
    long_match(m, a)
    publish_ratings()
    cache.clear()
    for _ in range(2):  # drawn, then from the cache
        html = listed(client, sort="name")
        assert html.index("anna Zetterberg") < html.index("Bo Andersen") < html.index("Carl Mikkelsen")
        html = listed(client, sort="name", dir="reverse")
        assert html.index("Carl Mikkelsen") < html.index("Bo Andersen") < html.index("anna Zetterberg")
        html = listed(client, sort="club")
        assert html.index("Bo Andersen") < html.index("Carl Mikkelsen") < html.index("anna Zetterberg")
    newcomer = games.player_create(name="Aage Berg", country="DK")
    long_match(newcomer, z)
    publish_ratings()  # a new run: a new order
    html = listed(client, sort="name")
    assert html.index("Aage Berg") < html.index("anna Zetterberg") < html.index("Bo Andersen")


def test_the_list_downloads_as_csv_with_ranks(client, ranked):
    response = client.get("/ratings/", {"system": "fibs", "format": "csv"})
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 6
    assert [r["rank"] for r in rows if r["provisional"] == "no"] == ["1", "2", "3", "4"]
    assert all(r["rank"] == "" for r in rows if r["provisional"] == "yes")


def test_a_player_page_has_peak_rank_percentile_and_results_by_length(client, ranked):
    top = Rating.objects.filter(system="fibs", provisional=False).order_by("-rating").first()
    html = client.get(f"/players/{top.player_id}/", {"system": "fibs"}).content.decode()
    assert "<dt>Rank</dt><dd>1 <span class=\"meta\">of 4</span>" in html
    assert "<dt>Percentile</dt><dd>75%" in html
    assert "<dt>Peak rating</dt>" in html
    assert "25 points</td>" in html
    assert 'data-points="' in html


def test_results_by_event_show_each_match_s_rating_change_and_a_performance(client, td):
    players = make_players(8)
    tournament = build_knockout(td, players, results_rounds=1)
    publish_ratings()
    from tournaments.models import Pairing

    pairing = Pairing.objects.filter(flight__tournament=tournament, status="finished").select_related(
        "winner").first()
    html = client.get(f"/players/{pairing.winner_id}/", {"system": "fibs"}).content.decode()
    assert "performance " in html
    assert '<td class="num" data-label="Rating"><span class="win">+' in html


def test_chances_take_part_of_a_name_and_suggest_players(client, ranked):
    a, b = ranked[0], ranked[1]
    html = client.get("/ratings/chances/", {"player_a": a.name[-5:], "player_b": b.name.upper(), "length": 7,
                                            "system": "fibs"}).content.decode()
    assert "Chance to win" in html and a.name in html and b.name in html
    response = client.get("/ratings/chances/", {"player_a": "Player", "player_b": b.name, "length": 7,
                                                "system": "fibs"})
    assert response.status_code == 400 and "Several players fit" in response.content.decode()
    found = client.get("/ratings/players/", {"q": a.name[-5:]}).json()["players"]
    assert found == [{"value": f"{a.name} ({a.club})", "label": f"{a.club} · {a.country}"}]
    assert client.get("/ratings/players/", {"q": "Pl\x00ayer"}).json() == {"players": []}  # no name holds a NUL
    html = client.get("/ratings/chances/", {"player_a": f"{a.name} ({a.club})", "player_b": b.name, "length": 7,
                                            "system": "fibs"}).content.decode()
    assert "Chance to win" in html


def test_the_ranks_of_a_new_result_are_ready_before_the_first_reader(client, ranked, django_capture_on_commit_callbacks,
                                                                     monkeypatch):
    """The run that publishes a result (here one that continues the published run) puts the
    new ranks in the cache; the list then shows them without building them."""
    from django.core.cache import cache

    from ratings import services
    from ratings.models import RatingSystemState
    from ratings.ranks import ratings_version

    a, b, c, d, e, f = ranked
    listed(client)  # the ranks as they were, in the cache
    run = RatingSystemState.objects.get(system="fibs").published_run_id
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(6):
            long_match(d, a)  # the last established player beats the first, again and again
    services.rating_recompute_owed()
    assert RatingSystemState.objects.get(system="fibs").published_run_id == run  # continued, not rerun
    established = sorted(Rating.objects.filter(system="fibs", run_id=run, provisional=False)
                         .values_list("rating", flat=True))
    assert list(cache.get(f"established-ratings:fibs:{ratings_version('fibs')}")) == established
    from ratings import ranks

    monkeypatch.setattr(ranks, "_build", lambda system: pytest.fail("a reader built the ranks"))
    html = listed(client, q=d.name)
    rank = len(established) - established.index(Rating.objects.get(system="fibs", run_id=run, player=d).rating)
    assert f'<td class="num rank" data-label="Rank">{rank}</td>' in html
