"""Two writers of one event at once, each pair of lock-taking paths: no deadlock, no 500, and the
rows tell one story afterwards (PostgreSQL row locks, through the API)."""

import datetime
import threading

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from games.models import Match
from tournaments import services
from tournaments.models import (
    Entry,
    EntryStatus,
    Pairing,
    PairingStatus,
    ReportStatus,
    ResultReport,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks (CI runs it)"),
    pytest.mark.urls("tests.tournaments.urls"),
]

API = "/api/v1"


def at_once(calls):
    """Send the (user, path, body) posts together from threads; the status codes in call order."""
    barrier = threading.Barrier(len(calls))
    statuses = [None] * len(calls)

    def send(index, user, path, body):
        client = APIClient()
        client.force_authenticate(user)
        barrier.wait()
        try:
            statuses[index] = client.post(path, body, format="json").status_code
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(i, *call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def one_truth(pairing: Pairing) -> None:
    """A decided pairing agrees with its match and has no open report."""
    pairing.refresh_from_db()
    assert pairing.status in (PairingStatus.FINISHED, PairingStatus.WALKOVER)
    assert pairing.match.winner_id == pairing.winner_id
    assert not pairing.reports.filter(status__in=[ReportStatus.PENDING, ReportStatus.DISPUTED]).exists()


@pytest.fixture
def knockout(staff, make_player, make_user):
    event = services.tournament_create(name="Lock Cup", start_date=datetime.date(2026, 9, 1), by=staff)
    flight = services.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[3, 3, 3],
                                    by=staff)
    cast = [make_player(f"Seed {n}") for n in range(1, 9)]
    for n, player in enumerate(cast, start=1):
        services.entry_check_in(entry=services.entry_add(flight=flight, player=player, seed=n, by=staff), by=staff)
    services.flight_start(flight=flight, by=staff)
    users = {p.pk: make_user(player=p) for p in cast}
    return flight, cast, users


def test_a_score_sheet_game_and_a_withdrawal_at_once(knockout, staff):
    flight, cast, _ = knockout
    pairing = services.pairing_start(pairing=Pairing.objects.get(flight=flight, slot="R1-1"), by=staff)
    one = Entry.objects.get(flight=flight, player=cast[0])
    game, withdraw = at_once([
        (staff, f"{API}/matches/{pairing.match_id}/games/", {"number": 1, "winner": cast[0].pk, "kind": "backgammon"}),
        (staff, f"{API}/entries/{one.pk}/withdraw/", {}),
    ])
    assert withdraw == 200
    assert game in (201, 400)
    one_truth(pairing)
    pairing.refresh_from_db()
    if game == 201:  # the game came first: Seed 1 won, then withdrew
        assert (pairing.status, pairing.winner) == (PairingStatus.FINISHED, cast[0])
    else:  # the withdrawal came first: the match was forfeited, no game can follow
        assert (pairing.status, pairing.winner) == (PairingStatus.WALKOVER, cast[7])


def test_a_walkover_undo_and_a_score_sheet_game_at_once(knockout, staff):
    from games import services as games

    flight, cast, _ = knockout
    pairing = services.pairing_start(pairing=Pairing.objects.get(flight=flight, slot="R1-4"), by=staff)
    services.pairing_game_record(match=pairing.match, number=1, game=games.GameInput(winner=0), by=staff)
    services.pairing_walkover(pairing=pairing, winner=pairing.player_b, reason="did not show up", by=staff)
    undo, game = at_once([
        (staff, f"{API}/pairings/{pairing.pk}/walkover-undo/", {}),
        (staff, f"{API}/matches/{pairing.match_id}/games/", {"number": 2, "winner": pairing.player_a_id}),
    ])
    assert undo == 200
    assert game in (201, 400)  # after the undo it is game 2; before it, the match was forfeited
    pairing.refresh_from_db()
    match = Match.objects.get(pk=pairing.match_id)
    assert (pairing.status, match.status, pairing.winner_id) == (PairingStatus.PLAYING, "in_progress", None)
    assert match.games.count() == (2 if game == 201 else 1)


def test_a_players_report_and_a_td_override_at_once(knockout, staff):
    flight, _, users = knockout
    pairing = Pairing.objects.get(flight=flight, slot="R1-2")
    a_wins = {"score_a": 3, "score_b": 0}
    report, override = at_once([
        (users[pairing.player_b_id], f"{API}/pairings/{pairing.pk}/reports/", {"score_a": 0, "score_b": 3}),
        (staff, f"{API}/pairings/{pairing.pk}/override/", a_wins),
    ])
    assert override == 201
    assert report in (201, 409)
    one_truth(pairing)
    assert pairing.winner_id == pairing.player_a_id
    assert ResultReport.objects.filter(pairing=pairing, status=ReportStatus.CONFIRMED).count() == 1


def test_a_score_sheet_game_and_a_confirmation_at_once(knockout, staff):
    flight, _, users = knockout
    pairing = Pairing.objects.get(flight=flight, slot="R1-3")
    report = services.result_report(pairing=pairing, by=users[pairing.player_a_id], score_a=3, score_b=0)
    pairing = services.pairing_start(pairing=pairing, by=staff)
    game, confirm = at_once([
        (staff, f"{API}/matches/{pairing.match_id}/games/",
         {"number": 1, "winner": pairing.player_b_id, "kind": "backgammon"}),
        (users[pairing.player_b_id], f"{API}/result-reports/{report.pk}/confirm/", {}),
    ])
    assert sorted([game, confirm]) in ([200, 400], [201, 409])
    one_truth(pairing)
    expected = pairing.player_b_id if game == 201 else pairing.player_a_id
    assert pairing.winner_id == expected


@pytest.fixture
def swiss(staff, make_player):
    event = services.tournament_create(name="Lock Swiss", start_date=datetime.date(2026, 9, 2), by=staff)
    flight = services.flight_create(tournament=event, name="Swiss", format="swiss", lengths=[3], swiss_rounds=3,
                                    auto_pair=False, by=staff)
    for seed in range(1, 7):
        entry = services.entry_add(flight=flight, player=make_player(f"Racer {seed}"), seed=seed, by=staff)
        services.entry_check_in(entry=entry, by=staff)
    services.flight_start(flight=flight, by=staff)
    for pairing in Pairing.objects.filter(flight=flight):
        services.result_report(pairing=pairing, by=staff, score_a=3, score_b=0)
    return flight


def test_starting_a_round_and_a_withdrawal_at_once(swiss, staff):
    leaving = Entry.objects.filter(flight=swiss).order_by("seed").first()
    start, withdraw = at_once([
        (staff, f"{API}/flights/{swiss.pk}/start-round/", {}),
        (staff, f"{API}/entries/{leaving.pk}/withdraw/", {}),
    ])
    assert (start, withdraw) == (200, 200)
    assert Entry.objects.get(pk=leaving.pk).status == EntryStatus.WITHDRAWN
    second = Pairing.objects.filter(flight=swiss, round__number=2)
    mine = [p for p in second if leaving.player_id in (p.player_a_id, p.player_b_id)]
    # Paired before he left: his match is a walkover; after: he is not paired at all.
    assert all(p.status in (PairingStatus.WALKOVER, PairingStatus.BYE) for p in mine)
    assert not second.filter(status=PairingStatus.PENDING, player_a=leaving.player_id).exists()
    assert not second.filter(status=PairingStatus.PENDING, player_b=leaving.player_id).exists()
    assert Match.objects.filter(pairing__flight=swiss, status="in_progress").count() == 0
