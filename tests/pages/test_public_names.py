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
