"""One record of a game's outcome: typed in, stored, shown and reported through the same fields."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from games import services
from games.engine.errors import ScoringError
from games.engine.scoring import OUTCOME_FIELDS, GameEnd, GameOutcome, ResultKind
from games.models import Game
from games.serializers import GameSerializer


def test_an_outcome_is_read_from_input_by_name_or_number():
    typed = GameOutcome.from_input(winner=1, end="resigned", kind="gammon", cube=2, cube_owner=0)
    assert typed == GameOutcome(winner=1, end=GameEnd.RESIGNED, kind=ResultKind.GAMMON, cube=2, cube_owner=0)
    assert GameOutcome.from_input(winner=0, kind=3) == GameOutcome(winner=0, kind=ResultKind.BACKGAMMON)
    assert GameOutcome.from_input(winner=0) == GameOutcome(winner=0)
    assert [kind.label for kind in ResultKind] == ["single", "gammon", "backgammon"]


@pytest.mark.parametrize("given,field,message", [
    ({"kind": "double"}, "kind", "A game is won as a single, gammon or backgammon."),
    ({"kind": 4}, "kind", "A game is won as a single (1), a gammon (2) or a backgammon (3)."),
    ({"end": "abandoned"}, "end", 'A game ends "played_out", "resigned" or "double_refused".'),
])
def test_an_outcome_that_cannot_be_read_is_refused_by_field(given, field, message):
    with pytest.raises(ScoringError) as error:
        GameOutcome.from_input(winner=0, **given)
    assert (error.value.field, error.value.message) == (field, message)
    with pytest.raises(ScoringError) as error:
        services.GameInput(winner=0, **given).outcome()
    assert (error.value.field, error.value.message) == (field, message)


def test_a_game_input_takes_only_the_fields_of_an_outcome():
    assert services.GameInput(winner=0, kind=2, moves=[]).outcome() == GameOutcome(winner=0, kind=ResultKind.GAMMON)
    with pytest.raises(TypeError, match="A game has no field colour"):
        services.GameInput(winner=0, colour="white")


@pytest.mark.django_db
def test_a_stored_game_holds_and_gives_back_the_outcome_it_was_recorded_with(make_match):
    match = make_match(length=0, kind="session", beavers=True, raccoons=True, automatic_doubles=True,
                       automatic_double_cap=1)
    game = services.GameInput(winner=1, end="played_out", kind="gammon", cube=16, cube_owner=1, beavered=True,
                              raccooned=True, automatic_doubles=1)
    services.game_record(match=match, number=1, game=game)
    stored = Game.objects.get(match=match)
    assert GameOutcome.from_row(stored) == GameOutcome(
        winner=1, kind=ResultKind.GAMMON, cube=16, cube_owner=1, beavered=True, raccooned=True, automatic_doubles=1,
        points=32,
    )
    assert GameOutcome.from_row(stored).as_row() == {
        "winner": 1, "end": "played_out", "kind": 2, "cube": 16, "cube_owner": 1, "beavered": True,
        "raccooned": True, "automatic_doubles": 1, "points": 32,
    }
    assert {field.name for field in Game._meta.fields} >= set(OUTCOME_FIELDS)
    shown = GameSerializer(stored).data
    assert (shown["kind"], shown["end"], shown["points"], shown["winner"]) == ("gammon", "played_out", 32,
                                                                             match.player_b_id)


@pytest.mark.django_db
def test_a_reported_score_sheet_is_read_through_the_same_record(staff, make_player):
    from tournaments import services as events
    from tournaments.models import Pairing

    event = events.tournament_create(name="Club night", start_date=datetime.date(2026, 5, 1), by=staff)
    flight = events.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[1], by=staff)
    for seed in (1, 2):
        events.entry_check_in(entry=events.entry_add(flight=flight, player=make_player(), seed=seed, by=staff),
                              by=staff)
    events.flight_start(flight=flight, by=staff)
    pairing = Pairing.objects.get(flight=flight)
    a = pairing.player_a_id
    for line, message in [
        ({"winner": a, "kind": "double"}, "Game 1: a game is won as a single, gammon or backgammon."),
        ({"winner": a, "end": "abandoned"}, 'Game 1: a game ends "played_out", "resigned" or "double_refused".'),
    ]:
        with pytest.raises(ValidationError) as error:
            events.result_report(pairing=pairing, by=staff, games=[line])
        assert error.value.message_dict == {"games": [message]}
    report = events.result_report(pairing=pairing, by=staff, games=[{"winner": a, "kind": "gammon"}])
    assert (report.score_a, report.score_b) == (2, 0)
