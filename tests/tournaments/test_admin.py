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
