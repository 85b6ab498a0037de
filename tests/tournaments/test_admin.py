"""The admin creates events, flights and entries through the same services as the API."""

import pytest
from django.contrib.auth import get_user_model

from tournaments.models import Entry, Flight, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss(client):
    user = get_user_model().objects.create_superuser("boss", "boss@example.org", "pw-boss-12345")
    client.force_login(user)
    return user


def test_an_event_flight_and_entry_are_added_in_the_admin_through_the_rules(client, boss, make_player):
    response = client.post("/admin/tournaments/tournament/add/", {
        "name": "Nordic Open", "slug": "", "venue": "Oslo", "start_date": "2026-12-04", "end_date": "2026-12-06",
        "cube_cap": "", "clock": "", "clock_seconds": "", "bye_policy": "top_seeds",
        "correction_policy": "td_after_next_round", "flights-TOTAL_FORMS": "0", "flights-INITIAL_FORMS": "0",
    })
    assert response.status_code == 302, response.content.decode()[:2000]
    event = Tournament.objects.get()
    assert list(event.organisers.all()) == [boss]

    response = client.post("/admin/tournaments/flight/add/", {
        "tournament": event.pk, "name": "Main", "kind": "main", "format": "single_elimination",
        "lengths": "[7, 0]", "feeders": "[]", "seeding": "manual", "tie_breaks": "[]", "auto_pair": "on",
    })
    assert response.status_code == 200
    assert Flight.objects.count() == 0
    response = client.post("/admin/tournaments/flight/add/", {
        "tournament": event.pk, "name": "Main", "kind": "main", "format": "single_elimination",
        "lengths": "[7, 7, 9]", "feeders": "[]", "seeding": "manual", "tie_breaks": "[]", "auto_pair": "on",
    })
    assert response.status_code == 302
    flight = Flight.objects.get()
    assert flight.lengths == [7, 7, 9]

    anna = make_player("Anna Berg")
    response = client.post("/admin/tournaments/entry/add/", {"flight": flight.pk, "player": anna.pk, "seed": ""})
    assert response.status_code == 302
    assert Entry.objects.get().player == anna
    response = client.post("/admin/tournaments/entry/add/", {"flight": flight.pk, "player": anna.pk, "seed": ""})
    assert response.status_code == 200
    assert Entry.objects.count() == 1


# -- after adding, only through the services -----------------------------------------------------

import datetime  # noqa: E402

from tournaments import services  # noqa: E402
from tournaments.models import Pairing, PlayerAccount, ResultReport, Round  # noqa: E402

from ..games.admin_forms import post_form  # noqa: E402


@pytest.fixture
def club_night(boss, make_player):
    event = services.tournament_create(name="Club night", start_date=datetime.date(2026, 5, 1), by=boss)
    main = services.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[3, 5],
                                  by=boss)
    services.flight_create(tournament=event, name="Consolation", kind="consolation", format="single_elimination",
                           lengths=[3], feeders=[{"source": "Main", "source_round": 1, "entry_round": 1}], by=boss)
    for seed in range(1, 5):
        entry = services.entry_add(flight=main, player=make_player(f"Seed {seed}"), seed=seed, by=boss)
        services.entry_check_in(entry=entry, by=boss)
    return event, main


def test_a_flight_keeps_its_name_and_changes_its_settings_through_flight_update(client, club_night):
    event, main = club_night
    url = f"/admin/tournaments/flight/{main.pk}/change/"
    page = client.get(url).content.decode()
    assert 'name="name"' not in page and 'name="lengths"' in page
    response = post_form(client, url, name="Championship", lengths="[3, 0]")
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {"lengths": ["Round 2: a match is played to 1 to 99 points, not 0."]}
    main.refresh_from_db()
    assert (main.name, main.lengths, main.version) == ("Main", [3, 5], 0)
    response = post_form(client, url, name="Championship", lengths="[5, 7]")
    assert response.status_code == 302
    main.refresh_from_db()
    assert (main.name, main.lengths, main.version) == ("Main", [5, 7], 1)
    assert main.history.first().history_user.username == "boss"

    services.flight_start(flight=main, by=main.tournament.organisers.first())
    page = client.get(url).content.decode()
    assert 'name="lengths"' not in page and 'name="auto_pair"' not in page


def test_entries_reports_and_pairings_are_never_deleted_in_the_admin(client, club_night):
    event, main = club_night
    entry = main.entries.first()
    assert client.post(f"/admin/tournaments/entry/{entry.pk}/delete/", {"post": "yes"}).status_code == 403
    assert "delete_selected" not in client.get("/admin/tournaments/entry/").content.decode()
    services.flight_start(flight=main, by=event.organisers.first())
    pairing = Pairing.objects.filter(flight=main, player_b__isnull=False).first()
    report = services.result_report(pairing=pairing, by=event.organisers.first(), score_a=3, score_b=0)
    assert client.post(f"/admin/tournaments/resultreport/{report.pk}/delete/", {"post": "yes"}).status_code == 403
    assert client.post(f"/admin/tournaments/pairing/{pairing.pk}/delete/", {"post": "yes"}).status_code == 403
    assert client.post(f"/admin/tournaments/flight/{main.pk}/delete/", {"post": "yes"}).status_code == 403
    assert client.post(f"/admin/tournaments/tournament/{event.pk}/delete/", {"post": "yes"}).status_code == 403
    assert client.post(f"/admin/tournaments/resultreport/{report.pk}/change/", {"score_a": 0}).status_code == 403
    assert (ResultReport.objects.count(), main.entries.count()) == (1, 4)


def test_a_round_is_scheduled_and_an_organiser_added_through_the_services(client, club_night, make_user):
    event, main = club_night
    services.flight_start(flight=main, by=event.organisers.first())
    first = Round.objects.get(flight=main, number=1)
    response = post_form(client, f"/admin/tournaments/round/{first.pk}/change/", starts_at_0="2026-05-01",
                         starts_at_1="19:00:00", length="11")
    assert response.status_code == 302
    first.refresh_from_db()
    assert (first.starts_at, first.length) == (datetime.datetime(2026, 5, 1, 19, tzinfo=datetime.UTC), 3)
    assert first.history.first().history_user.username == "boss"

    helper = make_user("helper")
    url = f"/admin/tournaments/tournament/{event.pk}/change/"
    response = post_form(client, url, name="Renamed", organisers=[str(u.pk) for u in event.organisers.all()]
                         + [str(helper.pk)])
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.name == "Club night"
    assert set(event.organisers.values_list("username", flat=True)) == {"boss", "helper"}
    response = post_form(client, url, organisers=[str(helper.pk)])
    assert response.status_code == 200
    assert "An organiser stays with the event" in response.content.decode()


def test_a_login_is_linked_to_a_player_through_the_service(client, boss, make_player, make_user):
    anna, bo = make_player("Anna Berg"), make_player("Bo Jensen")
    login = make_user("anna")
    response = client.post("/admin/tournaments/playeraccount/add/", {"player": anna.pk, "user": login.pk})
    assert response.status_code == 302
    response = client.post("/admin/tournaments/playeraccount/add/", {"player": bo.pk, "user": login.pk})
    assert response.status_code == 200
    assert "anna already belongs to another player." in response.content.decode()
    account = PlayerAccount.objects.get()
    assert client.post(f"/admin/tournaments/playeraccount/{account.pk}/delete/", {"post": "yes"}).status_code == 403


def test_every_admin_page_of_games_events_and_ratings_opens(client, club_night):
    from django.contrib import admin as django_admin

    from games import services as games

    event, main = club_night
    services.flight_start(flight=main, by=event.organisers.first())
    pairing = Pairing.objects.filter(flight=main, player_b__isnull=False).first()
    services.result_report(pairing=pairing, by=event.organisers.first(), score_a=3, score_b=0)
    games.player_create(name="Lone Player")
    PlayerAccount.objects.create(player=main.entries.first().player)
    opened = []
    for model, model_admin in django_admin.site._registry.items():
        meta = model._meta
        if meta.app_label not in ("games", "tournaments", "ratings"):
            continue
        base = f"/admin/{meta.app_label}/{meta.model_name}/"
        assert client.get(base).status_code == 200, base
        obj = model.objects.first()
        if obj is not None:
            assert client.get(f"{base}{obj.pk}/change/").status_code == 200, base
            if hasattr(model, "history"):
                assert client.get(f"{base}{obj.pk}/history/").status_code == 200, base
        opened.append(meta.model_name)
    assert {"game", "match", "player", "tournament", "flight", "entry", "round", "pairing", "resultreport",
            "playeraccount", "ratingrun"} <= set(opened)
