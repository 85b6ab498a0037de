"""A director's login name is never shown: the event page and the API name him as he chose."""

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments import services as events
from tournaments.models import PlayerAccount

from .conftest import make_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(td, django_user_model):
    """An event of two directors: `director` (no name chosen, no player) and `root-admin` (staff)."""
    admin = django_user_model.objects.create_user("root-admin", is_staff=True, is_superuser=True)
    tournament = events.tournament_create(name="Autumn Open", start_date=date(2026, 11, 20),
                                          organisers=[td, admin], by=admin)
    return tournament, admin


def test_directors_without_a_chosen_name_show_a_neutral_title_not_their_logins(client, api, event):
    tournament, _ = event
    html = client.get(f"/events/{tournament.slug}/").content.decode()
    assert "<dt>Directors</dt><dd>Tournament director, Tournament director</dd>" in html
    assert "root-admin" not in html
    row = api.get("/api/v1/tournaments/").json()["results"][0]
    assert row["organisers"] == ["Tournament director", "Tournament director"]


def test_a_director_linked_to_a_player_shows_the_player_s_name(client, api, td, event):
    tournament, _ = event
    PlayerAccount.objects.create(player=make_players(1, prefix="Karin")[0], user=td)
    name = PlayerAccount.objects.get(user=td).player.name
    assert api.get(f"/api/v1/tournaments/{tournament.slug}/").json()["organisers"] == [name, "Tournament director"]


def test_a_director_chooses_his_public_name_on_his_account_page(client, api, event):
    tournament, admin = event
    client.force_login(admin)
    response = client.post("/account/", {"action": "public_name", "public_name": "  Ruth   Okafor "}, follow=True)
    assert "You are shown as Ruth Okafor in public." in response.content.decode()
    html = client.get(f"/events/{tournament.slug}/").content.decode()
    assert "<dd>Tournament director, Ruth Okafor</dd>" in html
    assert api.get("/api/v1/tournaments/").json()["results"][0]["organisers"] == ["Tournament director", "Ruth Okafor"]
    # An empty name goes back to the neutral title.
    client.post("/account/", {"action": "public_name", "public_name": ""})
    assert api.get("/api/v1/tournaments/").json()["results"][0]["organisers"] == ["Tournament director"] * 2


def test_a_public_name_longer_than_80_characters_is_refused(client, td, event):
    client.force_login(td)
    response = client.post("/account/", {"action": "public_name", "public_name": "x" * 81}, follow=True)
    assert "Keep the name to 80 characters." in response.content.decode()
    assert not hasattr(td, "public_name") or td.public_name is None


def test_the_tournament_list_reads_directors_names_in_a_fixed_number_of_queries(api, td, event, django_user_model):
    def count():
        with CaptureQueriesContext(connection) as queries:
            assert api.get("/api/v1/tournaments/").status_code == 200
        return len(queries)

    PlayerAccount.objects.create(player=make_players(1)[0], user=td)
    few = count()
    for n in range(5):
        user = django_user_model.objects.create_user(f"td{n}")
        PlayerAccount.objects.create(player=make_players(1)[0], user=user)
        events.tournament_create(name=f"Cup {n}", start_date=date(2026, 12, n + 1), organisers=[user, td], by=event[1])
    assert count() == few


# -- a crawl: no login name anywhere a reader (or a player) goes ------------------------------------

LOGINS = ("zz-td-login", "zz-officer-login", "zz-admin-login", "zz-anna-login", "zz-bo-login", "zz-carl-login")


@pytest.fixture
def busy_site(django_user_model):
    """Directors, a rating officer, a site admin and two players, each with a login name found
    nowhere else, who have run an event, reported, disputed and ruled, published a list and
    adopted parameters."""
    from django.contrib.auth.models import Group
    from django.utils import timezone

    from games import services as games
    from games.permissions import RATING_OFFICER, SITE_ADMIN, TOURNAMENT_DIRECTOR
    from ratings import services as ratings
    from ratings.models import CalibrationStatus, RatingCalibration
    from tournaments.models import Pairing
    from tournaments.services import registration

    td, officer, admin, anna, bo, carl = (django_user_model.objects.create_user(name) for name in LOGINS)
    td.groups.add(Group.objects.get(name=TOURNAMENT_DIRECTOR))
    for user, group in ((officer, RATING_OFFICER), (admin, SITE_ADMIN)):
        user.is_staff = True
        user.save()
        user.groups.add(Group.objects.get(name=group))
    registration.account_public_name_set(user=admin, by=admin, name="Head of the club")
    players = make_players(4, prefix="Crawl")
    PlayerAccount.objects.create(player=players[0], user=anna)
    PlayerAccount.objects.create(player=players[1], user=bo)
    PlayerAccount.objects.create(player=players[2], user=carl)
    tournament = events.tournament_create(name="Crawl Open", start_date=date(2026, 11, 20), organisers=[td], by=admin)
    flight = events.flight_create(tournament=tournament, name="Main", format="single_elimination", lengths=[3, 3],
                                  by=td)
    for seed, player in enumerate(players, start=1):
        events.entry_check_in(entry=events.entry_add(flight=flight, player=player, seed=seed, by=td), by=td)
    events.flight_start(flight=flight, by=td, first_round=[[p.pk for p in players[:2]], [p.pk for p in players[2:]]])
    first = Pairing.objects.get(flight=flight, player_a=players[0])
    second = Pairing.objects.get(flight=flight, player_a=players[2])
    report = events.result_report(pairing=first, by=anna, score_a=3, score_b=1)
    events.result_dispute(report=report, by=bo, reason="It was 3-2")
    events.result_override(pairing=first, by=td, score_a=3, score_b=2, note="ruled")
    second = events.pairing_start(pairing=second, by=td)
    events.pairing_game_record(match=second.match, number=1, game=games.GameInput(winner=0), by=td)
    events.pairing_game_record(match=second.match, number=2, game=games.GameInput(winner=1), by=admin)
    ratings.rating_recompute_now(system="fibs")
    ratings.rating_list_publish(system="fibs", as_of=timezone.localdate(), by=officer)
    RatingCalibration.objects.create(system="crawford", status=CalibrationStatus.ADOPTED, matches=2, reason="fitted",
                                     parameters={}, created_by=officer, adopted_by=officer, adopted_at=timezone.now())
    return {"tournament": tournament, "anna": anna, "carl": carl, "match": second.match}


def _crawl_pages(client, start: list[str], limit: int = 120) -> dict[str, str]:
    import re

    seen, queue = {}, list(start)
    while queue and len(seen) < limit:
        path = queue.pop(0)
        if path in seen:
            continue
        response = client.get(path)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            seen[path] = response.content.decode(errors="replace") if response.status_code == 200 else ""
            continue
        seen[path] = text = response.content.decode()
        for link in re.findall(r'href="(/[^"#?]*)', text):
            if not link.startswith(("/admin", "/static", "/logout", "/api/docs", "/password")) and link not in seen:
                queue.append(link)
    return seen


def _crawl_api(client, start: list[str], limit: int = 80) -> dict[str, str]:
    import json
    import re

    seen, queue = {}, list(start)
    while queue and len(seen) < limit:
        path = queue.pop(0)
        if path in seen:
            continue
        response = client.get(path, HTTP_ACCEPT="application/json")
        seen[path] = text = response.content.decode(errors="replace")
        if response.status_code == 200 and response.get("Content-Type", "").startswith("application/json"):
            body = json.loads(text)
            links = re.findall(r'"(?:http://testserver)?(/api/v1/[^"?]*)"', text)
            if isinstance(body, dict) and path.endswith("s/"):  # a list: each of its items too
                links += [f"{path}{item.get('slug') or item['id']}/" for item in body.get("results", [])
                          if isinstance(item, dict) and "id" in item]
            queue += [link for link in links if link not in seen]
    return seen


def test_no_login_name_is_shown_on_any_public_page_or_in_the_api(client, api, busy_site):
    tournament, match = busy_site["tournament"], busy_site["match"]
    pages = ["/", "/events/", f"/events/{tournament.slug}/", "/ratings/", "/ratings/formula/", f"/matches/{match.pk}/"]
    endpoints = ["/api/v1/tournaments/", f"/api/v1/tournaments/{tournament.slug}/", "/api/v1/result-reports/",
                 "/api/v1/ratings/lists/", "/api/v1/matches/", f"/api/v1/matches/{match.pk}/history/",
                 "/api/v1/players/", "/api/v1/pairings/", "/api/v1/flights/", "/api/v1/ratings/"]
    # The players see who reported and disputed their match, and who changed it: by the names shown.
    anna_api, carl_api = type(api)(), type(api)()
    anna_api.force_authenticate(busy_site["anna"])
    carl_api.force_authenticate(busy_site["carl"])
    crawled = {**{f"page {k}": v for k, v in _crawl_pages(client, pages).items()},
               **{f"API {k}": v for k, v in _crawl_api(api, endpoints).items()},
               **{f"API as a player {k}": v for k, v in _crawl_api(anna_api, endpoints, limit=40).items()},
               **{f"API as his opponent {k}": v for k, v in _crawl_api(carl_api, endpoints, limit=40).items()}}
    assert len(crawled) > 60
    assert "Head of the club" in crawled[f"API as his opponent /api/v1/matches/{match.pk}/history/"]
    assert '"disputed_by":"' in crawled["API as a player /api/v1/result-reports/"]
    assert "Rating officer" in crawled["page /ratings/formula/"]
    shown = {(login, where) for where, text in crawled.items() for login in LOGINS if login in text}
    assert not shown, sorted(shown)


def test_the_neutral_title_is_in_the_readers_language(client, api, event):
    tournament, _ = event
    html = client.get(f"/events/{tournament.slug}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert html.count("大会ディレクター") == 2 and "Tournament director" not in html
    row = api.get("/api/v1/tournaments/", HTTP_ACCEPT_LANGUAGE="el").json()["results"][0]
    assert row["organisers"] == ["Διευθυντής τουρνουά", "Διευθυντής τουρνουά"]
