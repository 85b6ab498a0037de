"""The cast of the page tests: a knockout event with a consolation flight, a Swiss, a match
with its moves for the replay, published ratings, and the logins of a TD and a visitor."""

import itertools
import random
from datetime import date

import pytest
from django.contrib.auth import get_user_model

from games import services as games
from games.engine import Position, legal_plays
from ratings import services as ratings
from tournaments import services as events
from tournaments.models import Entry

_serial = itertools.count(1)


@pytest.fixture
def td(db):
    return get_user_model().objects.create_user("director", password="pw-director-1")


@pytest.fixture
def staff_user(db):
    return get_user_model().objects.create_user("office", password="pw-office-1", is_staff=True, is_superuser=True)


@pytest.fixture
def td_client(client, td):
    client.force_login(td)
    return client


def make_players(count: int, prefix: str = "Player") -> list:
    serial = next(_serial)
    countries = ["DK", "SE", "DE", "IT", "JP", "US"]
    return [
        games.player_create(name=f"{prefix} {serial}-{i:03d}", country=countries[i % 6], club=f"Club {i % 4}")
        for i in range(count)
    ]


def build_knockout(td, players, *, name="Copenhagen Open", results_rounds=1, staff=None) -> object:
    """A main knockout with a consolation fed by round 1; round 1 (or more) decided by the TD."""
    creator = staff or get_user_model().objects.create_user(f"creator{next(_serial)}", is_staff=True, is_superuser=True)
    tournament = events.tournament_create(name=name, start_date=date(2026, 11, 20), venue="Hotel Marina",
                                          cube_cap=64, clock="2 min + 12 s", organisers=[td], by=creator)
    main = events.flight_create(tournament=tournament, name="Main", format="single_elimination",
                                lengths=[5, 5, 7, 7, 9, 9, 11, 11], seeding="random", random_seed=1234, by=td)
    events.flight_create(tournament=tournament, name="Consolation", kind="consolation",
                         format="single_elimination", lengths=[3, 3, 5, 5, 7, 7, 7, 7],
                         feeders=[{"source": "Main", "source_round": 1, "entry_round": 1}], by=td)
    for player in players:
        entry = events.entry_add(flight=main, player=player, by=td)
        events.entry_check_in(entry=entry, by=td)
    events.flight_start(flight=main, by=td)
    decide_rounds(tournament, td, results_rounds)
    return tournament


def decide_rounds(tournament, td, rounds: int) -> None:
    from tournaments.models import Pairing

    for number in range(1, rounds + 1):
        pending = Pairing.objects.filter(flight__tournament=tournament, flight__name="Main", round__number=number,
                                         status="pending", player_b__isnull=False).select_related(
            "round", "flight__tournament")
        for i, pairing in enumerate(pending):
            length = pairing.round.length
            score = (length, i % length) if i % 3 else (i % length, length)
            events.result_report(pairing=pairing, by=td, score_a=score[0], score_b=score[1])


def build_swiss(td, players, *, rounds_played=1, name="Club Swiss", **flight_options) -> object:
    creator = get_user_model().objects.create_user(f"creator{next(_serial)}", is_staff=True, is_superuser=True)
    tournament = events.tournament_create(name=name, start_date=date(2026, 11, 21), organisers=[td],
                                          by=creator)
    flight = events.flight_create(tournament=tournament, name="Swiss", format="swiss", lengths=[5],
                                  swiss_rounds=4, by=td, **flight_options)
    for player in players:
        entry = events.entry_add(flight=flight, player=player, by=td)
        events.entry_check_in(entry=entry, by=td)
    events.flight_start(flight=flight, by=td)
    from tournaments.models import Pairing

    for number in range(1, rounds_played + 1):
        for i, pairing in enumerate(Pairing.objects.filter(flight=flight, round__number=number, status="pending",
                                                           player_b__isnull=False).select_related("round")):
            events.result_report(pairing=pairing, by=td, score_a=5 if i % 2 else 2, score_b=3 if i % 2 else 5)
    return tournament


def game_moves(turns: int = 12, seed: int = 7) -> list[dict]:
    """A game's turns as a match file gives them, played by the engine from the opening."""
    rng = random.Random(seed)
    position, side, moves = Position.initial(), 0, []
    for move in range(1, turns + 1):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, dice)
        play = plays[0]
        moves.append({"type": "roll", "side": side, "dice": list(dice), "notation": play.notation,
                      "steps": [list(s) for s in play.steps], "position_id_before": position.position_id(),
                      "position_id_after": play.result_id(), "move": (move + 1) // 2, "line": move})
        if move == 6:
            moves.append({"type": "cube", "side": 1 - side, "action": "double", "to": 2, "move": 3, "line": move})
            moves.append({"type": "cube", "side": side, "action": "take", "move": 3, "line": move})
        position, side = play.position.swap(), 1 - side
    return moves


def build_replay_match(players):
    match = games.match_create(player_a=players[0], player_b=players[1], length=3, source="mat")
    match = games.game_record(match=match, number=1, game=games.GameInput(winner=0, cube=2, cube_owner=0,
                                                                          moves=game_moves()))
    match = games.game_record(match=match, number=2, game=games.GameInput(winner=1, moves=game_moves(8, seed=3)))
    return games.game_record(match=match, number=3, game=games.GameInput(winner=0))


def publish_ratings():
    for system in ("fibs", "crawford"):
        ratings.rating_recompute_now(system=system)


@pytest.fixture
def world(db, td):
    """A small site: a running knockout of 8, a Swiss of 6, a replayable match, ratings."""
    players = make_players(14)
    knockout = build_knockout(td, players[:8])
    swiss = build_swiss(td, players[8:14])
    replay = build_replay_match(players[:2])
    publish_ratings()
    return {"players": players, "knockout": knockout, "swiss": swiss, "replay": replay,
            "entries": Entry.objects.count()}
