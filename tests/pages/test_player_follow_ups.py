"""The desk and the players' registration share their rules; the menu offers the desk to TDs only."""

from datetime import date, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tournaments import services as events
from tournaments.models import Entry, PlayerAccount, WaitingEntry
from tournaments.services import registration

from .conftest import make_players

pytestmark = pytest.mark.django_db

DESK_LINK = '<a href="/desk/">TD desk</a>'


@pytest.fixture
def capped(td, django_user_model):
    """A flight taking online registrations for 2 places, with 3 players registered: the third waits."""
    creator = django_user_model.objects.create_user("office", is_staff=True, is_superuser=True)
    tournament = events.tournament_create(name="Sunday Cup", start_date=date(2026, 11, 29), organisers=[td],
                                          by=creator)
    flight = events.flight_create(tournament=tournament, name="Main", format="single_elimination", lengths=[5],
                                  by=td)
    registration.registration_open(flight=flight, by=td, closes=timezone.now() + timedelta(days=1), cap=2)
    players = make_players(3)
    for i, player in enumerate(players):
        user = django_user_model.objects.create_user(f"reg{i}", password="pw-reg-12345")
        PlayerAccount.objects.create(player=player, user=user)
        registration.registration_enter(flight=flight, by=user)
    assert WaitingEntry.objects.get().player == players[2]
    return tournament, flight, players


def test_a_player_withdrawn_at_the_desk_gives_his_place_to_the_first_waiting(client, td, capped):
    tournament, flight, players = capped
    client.force_login(td)
    entry = Entry.objects.get(flight=flight, player=players[0])
    response = client.post(f"/desk/{tournament.slug}/", {"action": "withdraw", "entry": entry.pk})
    assert response.status_code == 302
    assert not WaitingEntry.objects.exists()
    assert dict(Entry.objects.filter(flight=flight).values_list("player", "status")) == {
        players[0].pk: "withdrawn", players[1].pk: "registered", players[2].pk: "registered"}


def test_the_td_enters_no_one_past_the_cap_and_a_freed_place_goes_to_the_first_waiting(td, capped):
    _, flight, players = capped
    extra = make_players(1)[0]
    with pytest.raises(ValidationError):
        events.entry_add(flight=flight, player=extra, by=td)  # raise the places first
    events.entry_withdraw(entry=Entry.objects.get(flight=flight, player=players[0]), by=td)
    assert not WaitingEntry.objects.exists()
    assert Entry.objects.get(flight=flight, player=players[2]).status == "registered"
    assert Entry.objects.filter(flight=flight, status="registered").count() == 2


def test_a_player_who_took_back_his_registration_registers_again_on_the_same_entry(td, capped):
    _, flight, players = capped
    user = players[1].account.user
    registration.registration_cancel(flight=flight, by=user)
    assert Entry.objects.get(flight=flight, player=players[2]).status == "registered"  # moved up
    again = registration.registration_enter(flight=flight, by=user)
    assert isinstance(again, WaitingEntry)  # the two places are taken again
    WaitingEntry.objects.all().delete()
    events.entry_withdraw(entry=Entry.objects.get(flight=flight, player=players[0]), by=td)
    entry = registration.registration_enter(flight=flight, by=user)
    assert entry.pk == Entry.objects.get(flight=flight, player=players[1]).pk and entry.status == "registered"
    assert Entry.objects.filter(flight=flight).count() == 3


def organiser_checks(client, url) -> tuple[str, int]:
    with CaptureQueriesContext(connection) as captured:
        html = client.get(url).content.decode()
    return html, sum('"tournaments_tournament_organisers"' in q["sql"] for q in captured.captured_queries)


def test_the_desk_link_is_for_staff_and_organisers(client, td, staff_user, django_user_model):
    html, asked = organiser_checks(client, "/")
    assert DESK_LINK not in html and asked == 0
    client.force_login(django_user_model.objects.create_user("fan", password="pw-fan-12345"))
    html, asked = organiser_checks(client, "/")
    assert "Log out fan" in html and DESK_LINK not in html and asked == 1  # one EXISTS query
    client.force_login(staff_user)
    html, asked = organiser_checks(client, "/")
    assert DESK_LINK in html and asked == 0  # staff: no query
    client.force_login(td)
    assert DESK_LINK not in organiser_checks(client, "/")[0]  # organises nothing yet
    events.tournament_create(name="Sunday Cup", start_date=date(2026, 11, 29), organisers=[td], by=staff_user)
    html, asked = organiser_checks(client, "/")
    assert DESK_LINK in html and asked == 1
