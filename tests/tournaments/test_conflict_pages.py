"""HTML pages answer a write that lost a race as the API does: 409 and a message, never 500."""

import datetime

import pytest
from django.db import OperationalError

from games import services as games
from tournaments import services
from tournaments.models import Entry, Pairing

pytestmark = pytest.mark.django_db


class DeadlockDetected(Exception):
    """Named as psycopg names PostgreSQL's deadlock error."""


def lost_race(**kwargs):
    try:
        raise DeadlockDetected("deadlock detected")
    except DeadlockDetected as cause:
        raise OperationalError("deadlock detected") from cause


@pytest.fixture
def running(staff, make_player):
    event = services.tournament_create(name="Lock Open", slug="lock-open", start_date=datetime.date(2026, 8, 1),
                                       by=staff)
    flight = services.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[3, 3],
                                    by=staff)
    for n in range(1, 5):
        entry = services.entry_add(flight=flight, player=make_player(f"Seed {n}"), seed=n, by=staff)
        services.entry_check_in(entry=entry, by=staff)
    services.flight_start(flight=flight, by=staff)
    return event, flight


def test_a_desk_withdrawal_that_loses_a_database_race_answers_a_409_page(running, staff, client, monkeypatch):
    event, flight = running
    client.force_login(staff)
    monkeypatch.setattr(services, "entry_withdraw", lost_race)
    entry = Entry.objects.filter(flight=flight).first()
    response = client.post(f"/desk/{event.slug}/", {"action": "withdraw", "entry": entry.pk})
    assert response.status_code == 409
    assert "Someone else was changing the same thing at the same moment: try again." in response.content.decode()


def test_a_score_sheet_game_that_loses_a_database_race_answers_a_409_page(running, staff, client, monkeypatch):
    _, flight = running
    pairing = services.pairing_start(pairing=Pairing.objects.get(flight=flight, slot="R1-1"), by=staff)
    client.force_login(staff)
    monkeypatch.setattr(games, "game_record", lost_race)
    response = client.post(f"/matches/{pairing.match_id}/enter/", {
        "number": 1, "version": pairing.match.version, "winner": 0, "end": "played_out", "kind": 1, "cube": 1})
    assert response.status_code == 409
    assert "Reload the page" in response.content.decode()


def test_a_conflict_the_desk_answers_itself_is_shown_as_its_message(running, staff, client, monkeypatch):
    from config.errors import ConflictError

    event, flight = running
    client.force_login(staff)

    def refused(**kwargs):
        raise ConflictError("Main was changed by someone else: reload it.")

    monkeypatch.setattr(services, "entry_withdraw", refused)
    entry = Entry.objects.filter(flight=flight).first()
    response = client.post(f"/desk/{event.slug}/", {"action": "withdraw", "entry": entry.pk}, follow=True)
    assert response.status_code == 200
    assert "Main was changed by someone else: reload it." in response.content.decode()
