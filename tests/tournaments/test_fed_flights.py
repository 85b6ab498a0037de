"""Who enters a fed flight (consolation, last chance, losers' bracket) and who does not."""

import datetime

import pytest
from django.test import Client

from tournaments import selectors, services
from tournaments.models import Entry, Flight, FlightStatus, Pairing, PairingStatus

from .helpers import API, ok

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(staff):
    return services.tournament_create(name="Fed Open", slug="fed-open", start_date=datetime.date(2026, 5, 1),
                                      by=staff)


def seeded(event, staff, make_player, main, players):
    cast = [make_player(f"Seed {n}") for n in range(1, players + 1)]
    for n, player in enumerate(cast, start=1):
        entry = services.entry_add(flight=main, player=player, seed=n, by=staff)
        services.entry_check_in(entry=entry, by=staff)
    return cast


def win(staff, flight, slot, winner):
    pairing = Pairing.objects.select_related("round").get(flight=flight, slot=slot)
    length = pairing.round.length
    a_wins = pairing.player_a_id == winner.pk
    assert a_wins or pairing.player_b_id == winner.pk, (slot, winner)
    services.result_report(pairing=pairing, by=staff, score_a=length if a_wins else 0,
                           score_b=0 if a_wins else length)


def drawn(flight, name_of):
    return {p.slot: (name_of[p.player_a_id], p.player_b_id and name_of[p.player_b_id], p.status)
            for p in Pairing.objects.filter(flight=flight)}


def test_a_loser_who_withdraws_before_his_round_is_over_does_not_enter_the_consolation(event, staff, make_player):
    main = services.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[5, 5, 7],
                                  by=staff)
    consolation = services.flight_create(
        tournament=event, name="Consolation", kind="consolation", format="single_elimination", lengths=[3, 3],
        feeders=[{"source": "Main", "source_round": 1, "entry_round": 1}], by=staff)
    cast = seeded(event, staff, make_player, main, 8)
    name_of = {p.pk: p.name for p in cast}
    services.flight_start(flight=main, by=staff)
    win(staff, main, "R1-1", cast[0])
    services.entry_withdraw(entry=Entry.objects.get(flight=main, player=cast[7]), by=staff)
    for slot, winner in (("R1-2", cast[3]), ("R1-3", cast[1]), ("R1-4", cast[2])):
        win(staff, main, slot, winner)
    assert drawn(consolation, name_of) == {
        "R1-1": ("Seed 5", None, PairingStatus.BYE),
        "R1-2": ("Seed 6", "Seed 7", PairingStatus.PENDING),
    }


def test_a_loser_drawn_in_the_consolation_before_he_withdraws_stays_and_loses_it_by_walkover(
        event, staff, make_player):
    main = services.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[5, 5, 7],
                                  by=staff)
    consolation = services.flight_create(
        tournament=event, name="Consolation", kind="consolation", format="single_elimination", lengths=[3, 3],
        feeders=[{"source": "Main", "source_round": 1, "entry_round": 1}], by=staff)
    cast = seeded(event, staff, make_player, main, 8)
    name_of = {p.pk: p.name for p in cast}
    services.flight_start(flight=main, by=staff)
    for slot, winner in (("R1-1", cast[0]), ("R1-2", cast[3]), ("R1-3", cast[1]), ("R1-4", cast[2])):
        win(staff, main, slot, winner)
    services.entry_withdraw(entry=Entry.objects.get(flight=main, player=cast[7]), by=staff)
    assert drawn(consolation, name_of) == {
        "R1-1": ("Seed 5", "Seed 8", PairingStatus.WALKOVER),
        "R1-2": ("Seed 6", "Seed 7", PairingStatus.PENDING),
    }


@pytest.fixture
def three_flights(event, staff, make_player):
    main = services.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[5, 5, 7],
                                  by=staff)
    consolation = services.flight_create(
        tournament=event, name="Consolation", kind="consolation", format="single_elimination", lengths=[3, 3],
        feeders=[{"source": "Main", "source_round": 1, "entry_round": 1},
                 {"source": "Main", "source_round": 2, "entry_round": 2}], by=staff)
    last_chance = services.flight_create(
        tournament=event, name="Last Chance", kind="last_chance", format="single_elimination", lengths=[3],
        feeders=[{"source": "Consolation", "source_round": 1, "entry_round": 1}], by=staff)
    cast = seeded(event, staff, make_player, main, 6)
    services.flight_start(flight=main, by=staff)
    seed_of = {p.pk: n for n, p in enumerate(cast, start=1)}
    while True:
        ready = list(Pairing.objects.filter(status=PairingStatus.PENDING).select_related("round"))
        if not ready:
            break
        for pairing in ready:
            a_wins = seed_of[pairing.player_a_id] < seed_of[pairing.player_b_id]
            length = pairing.round.length
            services.result_report(pairing=pairing, by=staff, score_a=length if a_wins else 0,
                                   score_b=0 if a_wins else length)
    return main, consolation, last_chance, cast


def test_a_last_chance_with_a_single_entrant_answers_its_bracket_placings_and_event_page(
        three_flights, staff_api):
    main, _, last_chance, cast = three_flights
    last_chance.refresh_from_db()
    assert (last_chance.status, last_chance.champion) == (FlightStatus.FINISHED, cast[5])
    body = ok(staff_api.get(f"{API}/flights/{last_chance.pk}/bracket/"))
    assert body["champion"] == {"id": cast[5].pk, "name": "Seed 6", "country": "", "seed": 6}
    assert [c["slots"] for c in body["rounds"]] == []
    assert [(p["player"]["name"], p["place"]) for p in selectors.placings(last_chance)] == [("Seed 6", "1")]
    page = Client().get(f"/events/{main.tournament.slug}/")
    assert page.status_code == 200
    assert b"Last Chance" in page.content


def test_a_winners_bracket_loser_who_withdraws_before_his_losers_match_is_drawn_does_not_drop(
        event, staff, make_player):
    flight = services.flight_create(tournament=event, name="Double", format="double_elimination",
                                    lengths=[5, 5, 7], by=staff)
    cast = seeded(event, staff, make_player, flight, 8)
    name_of = {p.pk: p.name for p in cast}
    services.flight_start(flight=flight, by=staff)
    win(staff, flight, "W1-1", cast[0])
    services.entry_withdraw(entry=Entry.objects.get(flight=flight, player=cast[7]), by=staff)
    win(staff, flight, "W1-2", cast[3])
    losers = {slot: row for slot, row in drawn(flight, name_of).items() if slot.startswith("L")}
    assert losers == {"L1-1": ("Seed 5", None, PairingStatus.BYE)}


def test_a_winners_bracket_loser_whose_losers_match_is_drawn_stays_and_loses_it_by_walkover(
        event, staff, make_player):
    flight = services.flight_create(tournament=event, name="Double", format="double_elimination",
                                    lengths=[5, 5, 7], by=staff)
    cast = seeded(event, staff, make_player, flight, 8)
    name_of = {p.pk: p.name for p in cast}
    services.flight_start(flight=flight, by=staff)
    win(staff, flight, "W1-1", cast[0])
    win(staff, flight, "W1-2", cast[3])
    services.entry_withdraw(entry=Entry.objects.get(flight=flight, player=cast[7]), by=staff)
    losers = {slot: row for slot, row in drawn(flight, name_of).items() if slot.startswith("L")}
    assert losers == {"L1-1": ("Seed 8", "Seed 5", PairingStatus.WALKOVER)}


def test_renaming_the_main_flight_keeps_the_consolation_it_feeds(event, staff, make_player, staff_api):
    main = services.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[5, 5, 7],
                                  by=staff)
    consolation = services.flight_create(
        tournament=event, name="Consolation", kind="consolation", format="single_elimination", lengths=[3, 3],
        feeders=[{"source": "Main", "source_round": 1, "entry_round": 1}], by=staff)
    assert consolation.feeders == [{"source_id": main.pk, "source_round": 1, "entry_round": 1}]
    cast = seeded(event, staff, make_player, main, 4)
    name_of = {p.pk: p.name for p in cast}
    Flight.objects.filter(pk=main.pk).update(name="Championship")
    services.flight_start(flight=main, by=staff)
    win(staff, main, "R1-1", cast[0])
    win(staff, main, "R1-2", cast[1])
    assert drawn(consolation, name_of) == {"R1-1": ("Seed 3", "Seed 4", PairingStatus.PENDING)}
    assert ok(staff_api.get(f"{API}/flights/{consolation.pk}/"))["feeders"] == [
        {"source": "Championship", "source_id": main.pk, "source_round": 1, "entry_round": 1}]
    page = Client().get(f"/events/{event.slug}/")
    assert page.status_code == 200
    assert b"Losers of Championship round 1 enter in round 1" in page.content


def test_a_feeder_may_name_its_source_flight_by_id(event, staff):
    main = services.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[5],
                                  by=staff)
    consolation = services.flight_create(
        tournament=event, name="Consolation", kind="consolation", format="single_elimination", lengths=[3],
        feeders=[{"source_id": main.pk, "source_round": 1, "entry_round": 1}], by=staff)
    assert consolation.feeders == [{"source_id": main.pk, "source_round": 1, "entry_round": 1}]


@pytest.mark.django_db(transaction=True)
def test_the_migration_stores_feeders_by_the_source_flights_id():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.migrate([("tournaments", "0002_history_reason_text")])
    old = executor.loader.project_state([("tournaments", "0002_history_reason_text")]).apps
    tournament = old.get_model("tournaments", "Tournament").objects.create(
        name="Old Open", slug="old-open", start_date=datetime.date(2025, 1, 1), end_date=datetime.date(2025, 1, 1))
    flights = old.get_model("tournaments", "Flight").objects
    main = flights.create(tournament=tournament, name="Main", format="single_elimination", lengths=[5])
    fed = flights.create(tournament=tournament, name="Consolation", kind="consolation", format="single_elimination",
                         lengths=[3], feeders=[{"source": "Main", "source_round": 1, "entry_round": 1}])
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Flight.objects.get(pk=fed.pk).feeders == [{"source_id": main.pk, "source_round": 1, "entry_round": 1}]


def test_a_qualifier_who_withdrew_is_not_in_a_knockout_redrawn_by_a_swiss_correction(event, staff, make_player):
    flight = services.flight_create(tournament=event, name="Swiss KO", format="swiss_knockout", lengths=[3, 3, 5],
                                    swiss_rounds=2, qualifiers=2, by=staff)
    cast = seeded(event, staff, make_player, flight, 4)
    name_of = {p.pk: p.name for p in cast}
    services.flight_start(flight=flight, by=staff)
    win(staff, flight, "R1-1", cast[0])  # 1 v 3
    win(staff, flight, "R1-2", cast[1])  # 2 v 4
    win(staff, flight, "R2-1", cast[0])  # 1 v 2
    win(staff, flight, "R2-2", cast[3])  # 3 v 4
    assert drawn(flight, name_of)["KR1-1"] == ("Seed 1", "Seed 2", PairingStatus.PENDING)
    services.entry_withdraw(entry=Entry.objects.get(flight=flight, player=cast[1]), by=staff)
    assert drawn(flight, name_of)["KR1-1"] == ("Seed 1", "Seed 2", PairingStatus.WALKOVER)
    # Seed 2 beat seed 1 after all: the knockout is drawn again, seeded 2 v 1, and seed 2 has left.
    second = Pairing.objects.get(flight=flight, slot="R2-1")
    services.result_override(pairing=second, by=staff, score_a=0, score_b=3, apply_downstream=True)
    assert drawn(flight, name_of)["KR1-1"] == ("Seed 1", "Seed 4", PairingStatus.PENDING)


def test_a_correction_that_redraws_a_withdrawn_players_consolation_match_previews_what_it_does(
        event, staff, make_player):
    main = services.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[5, 5, 7],
                                  by=staff)
    consolation = services.flight_create(
        tournament=event, name="Consolation", kind="consolation", format="single_elimination", lengths=[3, 3],
        feeders=[{"source": "Main", "source_round": 1, "entry_round": 1}], by=staff)
    cast = seeded(event, staff, make_player, main, 8)
    name_of = {p.pk: p.name for p in cast}
    services.flight_start(flight=main, by=staff)
    for slot, winner in (("R1-1", cast[0]), ("R1-2", cast[3]), ("R1-3", cast[1]), ("R1-4", cast[2])):
        win(staff, main, slot, winner)
    services.entry_withdraw(entry=Entry.objects.get(flight=main, player=cast[7]), by=staff)
    assert drawn(consolation, name_of)["R1-1"] == ("Seed 5", "Seed 8", PairingStatus.WALKOVER)
    # Seed 5 beat seed 4 after all: seed 4 enters the consolation, which is drawn again; seed 8
    # withdrew and is not in the new draw, so seed 4 has a bye. The preview says so.
    corrected = Pairing.objects.get(flight=main, slot="R1-2")
    preview = selectors.correction_preview(pairing=corrected, winner_id=cast[4].pk)
    assert [(a["flight"], a["slot"], [p and name_of[p] for p in a["becomes"]]) for a in preview["affected"]] == [
        ("Main", "R2-1", ["Seed 1", "Seed 5"]), ("Consolation", "R1-1", ["Seed 4", None])]
    five_is_a = corrected.player_a_id == cast[4].pk
    services.result_override(pairing=corrected, by=staff, score_a=5 if five_is_a else 0,
                             score_b=0 if five_is_a else 5, apply_downstream=True)
    assert drawn(consolation, name_of) == {"R1-1": ("Seed 4", None, PairingStatus.BYE),
                                           "R1-2": ("Seed 6", "Seed 7", PairingStatus.PENDING)}
