"""The desk's actions that the API had no call for: a program runs an event as the desk does."""

import datetime

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from games.permissions import TOURNAMENT_DIRECTOR
from tournaments import services
from tournaments.models import Entry, Flight, Pairing, SlipCode

pytestmark = pytest.mark.django_db

API = "/api/v1"


@pytest.fixture
def event(make_user, make_player, client_for):
    td = make_user("api-td")
    td.groups.add(Group.objects.get(name=TOURNAMENT_DIRECTOR))
    tournament = services.tournament_create(name="API Night", start_date=datetime.date(2026, 7, 1), by=td)
    flight = services.flight_create(tournament=tournament, name="Main", format="single_elimination", lengths=[3, 3],
                                    by=td)
    players = [make_player(f"Api {n}") for n in range(1, 5)]
    entries = [services.entry_add(flight=flight, player=player, seed=n, by=td)
               for n, player in enumerate(players, start=1)]
    return client_for(td), tournament, flight, players, entries


def test_a_td_opens_and_closes_the_players_check_in_and_checks_everyone_in_through_the_api(event, client_for,
                                                                                           make_user):
    api, _, flight, players, entries = event
    opened = api.post(f"{API}/flights/{flight.pk}/check-in-open/", {"minutes": 30}, format="json")
    assert opened.status_code == 200, opened.content
    flight.refresh_from_db()
    assert round((flight.check_in_closes - flight.check_in_opens).total_seconds()) == 30 * 60
    # While it is open a player checks himself in.
    player_login = make_user("api-player", player=players[0])
    assert client_for(player_login).post(f"{API}/entries/{entries[0].pk}/check-in/").status_code == 200
    assert api.post(f"{API}/flights/{flight.pk}/check-in-open/", {"minutes": 1}, format="json").json() == {
        "minutes": ["Open check-in for 5 to 720 minutes."]}
    closed = api.post(f"{API}/flights/{flight.pk}/check-in-close/", {}, format="json")
    assert closed.status_code == 200
    assert Flight.objects.get(pk=flight.pk).check_in_closes <= timezone.now()
    assert client_for(player_login).post(f"{API}/entries/{entries[1].pk}/check-in/").status_code == 403
    everyone = api.post(f"{API}/flights/{flight.pk}/check-in-all/", {}, format="json")
    assert everyone.json() == {"checked_in": [e.pk for e in entries[1:]]}
    assert set(Entry.objects.filter(flight=flight).values_list("status", flat=True)) == {"checked_in"}


def test_a_td_seats_calls_and_gives_walkovers_through_the_api(event):
    api, tournament, flight, players, entries = event
    for entry in entries:
        services.entry_check_in(entry=entry, by=tournament.organisers.get())
    assert api.post(f"{API}/flights/{flight.pk}/start/", {}, format="json").status_code == 200
    first, second = Pairing.objects.filter(flight=flight).order_by("slot")
    tables = api.post(f"{API}/tournaments/{tournament.slug}/tables/", {"count": 4, "reserved": []}, format="json")
    assert tables.status_code == 200, tables.content
    seated = api.post(f"{API}/pairings/{first.pk}/table/", {"table": "3"}, format="json")
    assert seated.json()["table"] == "3"
    called = api.post(f"{API}/tournaments/{tournament.slug}/call-tables/", {}, format="json")
    assert called.json() == {"called": 1}
    assert Pairing.objects.get(pk=second.pk).table == "1"
    codes = api.post(f"{API}/tournaments/{tournament.slug}/slip-codes/", {}, format="json").json()
    assert [(c["pairing"], c["player"]) for c in codes] == [
        (first.pk, first.player_a_id), (first.pk, first.player_b_id),
        (second.pk, second.player_a_id), (second.pk, second.player_b_id)]
    assert SlipCode.objects.filter(pairing__flight=flight, revoked_at__isnull=True).count() == 4
    refused = api.post(f"{API}/pairings/{first.pk}/walkover/", {"winner": players[0].pk + 1000}, format="json")
    assert refused.json() == {"winner": ["The winner of a walkover plays the match (his id)."]}
    given = api.post(f"{API}/pairings/{first.pk}/walkover/", {"winner": first.player_a_id}, format="json")
    assert given.status_code == 200, given.content
    first.refresh_from_db()
    assert (first.status, first.winner_id, first.walkover_reason) == (
        "walkover", first.player_a_id, f"{first.player_b.name} did not show up")


def test_a_td_enters_a_pasted_list_through_the_api(event):
    api, _, flight, players, _ = event
    answer = api.post(f"{API}/flights/{flight.pk}/paste/", {"text": "Api 1\nPaula Newcomer"}, format="json")
    assert answer.status_code == 200, answer.content
    lines = answer.json()
    assert [(line["number"], line["name"], line["entered"]) for line in lines] == [
        (1, "Api 1", True), (2, "Paula Newcomer", False)]
    assert lines[0]["player"] == players[0].pk
    assert Entry.objects.filter(flight=flight, player__name="Paula Newcomer").count() == 1
