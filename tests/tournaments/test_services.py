"""Services: the life of an event from entries to champions, without the API."""

import datetime

import pytest

from tournaments import services
from tournaments.models import FlightStatus, Pairing, PairingStatus, TournamentStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(staff):
    return services.tournament_create(name="Nordic Open", start_date=datetime.date(2026, 5, 1), by=staff)


def knockout_with_consolation(event, staff, make_player, players=37):
    main = services.flight_create(tournament=event, name="Main", format="single_elimination",
                                  lengths=[7, 7, 9, 9, 11, 11], by=staff)
    consolation = services.flight_create(
        tournament=event, name="Consolation", kind="consolation", format="single_elimination", lengths=[5, 5, 7],
        feeders=[{"source": "Main", "source_round": 1, "entry_round": 1},
                 {"source": "Main", "source_round": 2, "entry_round": 2}], by=staff)
    last_chance = services.flight_create(
        tournament=event, name="Last Chance", kind="last_chance", format="single_elimination", lengths=[3],
        feeders=[{"source": "Consolation", "source_round": 1, "entry_round": 1}], by=staff)
    cast = [make_player(f"Seed {n}") for n in range(1, players + 1)]
    for n, player in enumerate(cast, start=1):
        entry = services.entry_add(flight=main, player=player, seed=n, by=staff)
        services.entry_check_in(entry=entry, by=staff)
    return main, consolation, last_chance, cast


def play_out(staff, seed_of):
    """Report every playable match, the better seed winning 7-3 (or length-0)."""
    while True:
        ready = list(Pairing.objects.filter(status=PairingStatus.PENDING).select_related("round", "player_a", "player_b"))
        if not ready:
            return
        for pairing in ready:
            a_wins = seed_of[pairing.player_a_id] < seed_of[pairing.player_b_id]
            length = pairing.round.length
            services.result_report(pairing=pairing, by=staff, score_a=length if a_wins else 0,
                                   score_b=0 if a_wins else length)


def test_a_37_player_knockout_with_consolation_and_last_chance_runs_to_three_champions(event, staff, make_player):
    main, consolation, last_chance, cast = knockout_with_consolation(event, staff, make_player)
    services.flight_start(flight=main, by=staff)
    seed_of = {p.pk: n for n, p in enumerate(cast, start=1)}
    play_out(staff, seed_of)
    for flight in (main, consolation, last_chance):
        flight.refresh_from_db()
        assert flight.status == FlightStatus.FINISHED
    assert main.champion == cast[0]
    event.refresh_from_db()
    assert event.status == TournamentStatus.FINISHED
    played = Pairing.objects.filter(status=PairingStatus.FINISHED)
    assert played.filter(flight=main).count() == 36
