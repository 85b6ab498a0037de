"""Two people writing the same thing at once: one wins, the other gets 409 (PostgreSQL row locks)."""

import datetime
import threading

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from tournaments import services
from tournaments.models import Pairing, ReportStatus, ResultReport, Round

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks (CI runs it)"),
    pytest.mark.urls("tests.tournaments.urls"),
]


def at_once(user, calls):
    """Send the (path, body) calls together from two threads; the status codes, sorted."""
    barrier = threading.Barrier(len(calls))
    statuses = []

    def send(path, body):
        client = APIClient()
        client.force_authenticate(user)
        barrier.wait()
        try:
            statuses.append(client.post(path, body, format="json").status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=call) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(statuses)


@pytest.fixture
def swiss(staff, make_player):
    event = services.tournament_create(name="Race Cup", start_date=datetime.date(2026, 6, 6), by=staff)
    flight = services.flight_create(tournament=event, name="Swiss", format="swiss", lengths=[3], swiss_rounds=3,
                                    auto_pair=False, by=staff)
    for seed in range(1, 5):
        entry = services.entry_add(flight=flight, player=make_player(f"Racer {seed}"), seed=seed, by=staff)
        services.entry_check_in(entry=entry, by=staff)
    return flight


def test_two_tds_starting_the_same_flight_get_one_200_and_one_409(swiss, staff):
    path = f"/api/v1/flights/{swiss.pk}/start/"
    assert at_once(staff, [(path, {}), (path, {})]) == [200, 409]
    assert Round.objects.filter(flight=swiss).count() == 1


def test_two_tds_confirming_different_previews_at_once_get_one_draw_and_one_409(swiss, staff):
    racers = list(swiss.entries.order_by("seed").values_list("player_id", flat=True))
    preview = f"/api/v1/flights/{swiss.pk}/draw-preview/"
    client = APIClient()
    client.force_authenticate(staff)
    mine = client.post(preview, {"seeds": racers[::-1]}, format="json").json()
    theirs = client.post(preview, {"apart": [racers[:2]]}, format="json").json()
    path = f"/api/v1/flights/{swiss.pk}/start/"
    assert at_once(staff, [(path, {"seeds": racers[::-1], "version": mine["version"]}),
                           (path, {"apart": [racers[:2]], "version": theirs["version"]})]) == [200, 409]
    drawn = sorted((p.player_a_id, p.player_b_id) for p in Pairing.objects.filter(flight=swiss))
    assert drawn in (sorted((t["player_a"]["id"], t["player_b"]["id"]) for t in mine["round"]),
                     sorted((t["player_a"]["id"], t["player_b"]["id"]) for t in theirs["round"]))


def test_two_tds_starting_the_next_round_get_one_200_and_one_409(swiss, staff):
    services.flight_start(flight=swiss, by=staff)
    for pairing in Pairing.objects.filter(flight=swiss):
        services.result_report(pairing=pairing, by=staff, score_a=3, score_b=0)
    path = f"/api/v1/flights/{swiss.pk}/start-round/"
    assert at_once(staff, [(path, {}), (path, {})]) == [200, 409]
    assert Round.objects.filter(flight=swiss).count() == 2
    assert Pairing.objects.filter(flight=swiss, round__number=2).count() == 2


def test_two_reports_of_the_same_match_at_once_get_one_201_and_one_409(swiss, staff):
    services.flight_start(flight=swiss, by=staff)
    pairing = Pairing.objects.filter(flight=swiss).first()
    path = f"/api/v1/pairings/{pairing.pk}/reports/"
    statuses = at_once(staff, [(path, {"score_a": 3, "score_b": 1, "version": 0}),
                               (path, {"score_a": 0, "score_b": 3, "version": 0})])
    assert statuses == [201, 409]
    assert ResultReport.objects.filter(pairing=pairing, status=ReportStatus.CONFIRMED).count() == 1
