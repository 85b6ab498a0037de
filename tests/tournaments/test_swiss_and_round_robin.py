"""Swiss and round robin flights run to final standings, tie-breaks against hand-worked values."""

import datetime

import pytest

from tournaments import selectors, services
from tournaments.models import Flight, FlightStatus, Pairing, PairingStatus, Round

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.tournaments.urls")]


@pytest.fixture
def event(staff):
    return services.tournament_create(name="Club Championship", start_date=datetime.date(2026, 9, 5), by=staff)


def entered(flight, make_player, staff, count):
    seed_of = {}
    for seed in range(1, count + 1):
        player = make_player(f"Seed {seed:02d}")
        entry = services.entry_add(flight=flight, player=player, seed=seed, by=staff)
        services.entry_check_in(entry=entry, by=staff)
        seed_of[player.pk] = seed
    return seed_of




def play(flight, staff, seed_of, winner_seed=min):
    while True:
        ready = list(Pairing.objects.filter(flight=flight, status=PairingStatus.PENDING).select_related("round"))
        if not ready:
            return
        for pairing in ready:
            a, b = seed_of[pairing.player_a_id], seed_of[pairing.player_b_id]
            a_wins = winner_seed(a, b) == a
            length = pairing.round.length
            services.result_report(pairing=pairing, by=staff, score_a=length if a_wins else 1,
                                   score_b=1 if a_wins else length)


def test_a_24_player_swiss_out_on_the_third_loss_runs_to_one_survivor(event, staff, make_player):
    flight = services.flight_create(tournament=event, name="Swiss", format="swiss", lengths=[5],
                                    out_after_losses=3, by=staff)
    seed_of = entered(flight, make_player, staff, 24)
    services.flight_start(flight=flight, by=staff)
    play(flight, staff, seed_of)
    flight.refresh_from_db()
    assert flight.status == FlightStatus.FINISHED and seed_of[flight.champion_id] == 1
    assert Round.objects.filter(flight=flight).count() == 11
    assert Pairing.objects.filter(flight=flight, status=PairingStatus.FINISHED).count() == 69
    lines = selectors.standings(flight)
    assert [(line["rank"], seed_of[line["player"]["id"]], line["points"], line["wins"], line["losses"])
            for line in lines[:3]] == [(1, 1, 11, 10, 0), (2, 2, 8, 7, 3), (3, 3, 7, 6, 3)]
    assert all(line["losses"] == 3 for line in lines[1:])


# The six-player Swiss worked by hand in tests/tournaments/formats/test_swiss.py.
WINNERS = {1: [1, 5, 3], 2: [3, 5, 6], 3: [5, 1, 4]}


def test_six_player_swiss_through_the_api_matches_the_hand_worked_tie_breaks(event, staff, staff_api, make_player):
    flight = services.flight_create(tournament=event, name="Side Swiss", kind="side", format="swiss",
                                    lengths=[3], swiss_rounds=3, by=staff)
    seed_of = entered(flight, make_player, staff, 6)
    assert staff_api.post(f"/api/v1/flights/{flight.pk}/start/", {}, format="json").status_code == 200
    for round_no in (1, 2, 3):
        pairings = staff_api.get("/api/v1/pairings/", {"flight": flight.pk, "round": round_no}).json()["results"]
        for p in pairings:
            a, b = p["player_a"]["id"], p["player_b"]["id"]
            a_wins = any(w == seed_of[a] for w in WINNERS[round_no])
            body = {"score_a": 3, "score_b": 2} if a_wins else {"score_a": 0, "score_b": 3}
            assert staff_api.post(f"/api/v1/pairings/{p['id']}/reports/", body, format="json").status_code == 201
    lines = staff_api.get(f"/api/v1/flights/{flight.pk}/standings/").json()
    assert [
        (s["rank"], seed_of[s["player"]["id"]], s["points"], s["wins"], s["losses"], s["tie_breaks"]["buchholz"],
         s["tie_breaks"]["median_buchholz"], s["tie_breaks"]["sonneborn_berger"])
        for s in lines
    ] == [
        (1, 5, 3, 3, 0, 3, 1, 3),
        (2, 3, 2, 2, 1, 6, 2, 3),
        (3, 1, 2, 2, 1, 4, 1, 2),
        (4, 4, 1, 1, 2, 5, 2, 0),
        (5, 6, 1, 1, 2, 4, 2, 0),
        (6, 2, 0, 0, 3, 5, 1, 0),
    ]
    assert Flight.objects.get(pk=flight.pk).status == FlightStatus.FINISHED


# The nine-player round robin worked by hand in tests/tournaments/formats/test_round_robin.py.
UPSETS = {(3, 1), (4, 2), (4, 3), (7, 5), (6, 4), (9, 6)}


def rr_winner(a, b):
    if (a, b) in UPSETS:
        return a
    if (b, a) in UPSETS:
        return b
    return min(a, b)


def test_nine_player_round_robin_runs_to_the_hand_worked_standings(event, staff, make_player):
    flight = services.flight_create(tournament=event, name="Round Robin", kind="side", format="round_robin",
                                    lengths=[5], by=staff)
    seed_of = entered(flight, make_player, staff, 9)
    services.flight_start(flight=flight, by=staff)
    assert Pairing.objects.filter(flight=flight).count() == 36 + 9
    play(flight, staff, seed_of, rr_winner)
    lines = selectors.standings(flight)
    assert [(s["rank"], seed_of[s["player"]["id"]], s["points"], s["tie_breaks"]["head_to_head"],
             s["tie_breaks"]["sonneborn_berger"]) for s in lines] == [
        (1, 1, 7, 0, 23),
        (2, 4, 6, 2, 20),
        (3, 2, 6, 1, 17),
        (4, 3, 6, 0, 18),
        (5, 6, 3, 1, 10),
        (6, 5, 3, 1, 5),
        (6, 7, 3, 1, 5),
        (8, 8, 1, 1, 1),
        (9, 9, 1, 0, 3),
    ]
    flight.refresh_from_db()
    assert flight.status == FlightStatus.FINISHED and seed_of[flight.champion_id] == 1
    places = {seed_of[row["player"]["id"]]: row["place"] for row in selectors.placings(flight)}
    assert (places[1], places[5], places[7], places[9]) == ("1", "6-7", "6-7", "9")
