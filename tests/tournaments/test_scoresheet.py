"""Every way a game, a final score or a forfeit reaches a pairing's match — the score sheet page,
the games API, the admin — goes through the tournaments' score-sheet service: the pairing and the
draw follow the match in the same transaction, and a failure after the games write takes all of
it back."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services as games
from games.keepers import KeptMatchError, games_writes, match_writes
from games.models import Game, Match
from games.permissions import TOURNAMENT_DIRECTOR
from tournaments import services
from tournaments.models import Pairing, PairingStatus, ReportStatus, Tournament
from tournaments.services import scoresheet

pytestmark = pytest.mark.django_db

API = "/api/v1"


@pytest.fixture
def td(make_user):
    user = make_user("director")
    user.groups.add(Group.objects.get(name=TOURNAMENT_DIRECTOR))
    return user


@pytest.fixture
def knockout(td, make_player):
    """Four players, 1-point matches, one semi-final decided: one game decides the other and draws the final."""
    event = services.tournament_create(name="Sheet Cup", start_date=datetime.date(2026, 10, 1), by=td)
    flight = services.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[1, 1],
                                    by=td)
    cast = [make_player(f"Sheet {n}") for n in range(1, 5)]
    for n, player in enumerate(cast, start=1):
        services.entry_check_in(entry=services.entry_add(flight=flight, player=player, seed=n, by=td), by=td)
    services.flight_start(flight=flight, by=td)
    services.result_report(pairing=Pairing.objects.get(flight=flight, slot="R1-2"), by=td, score_a=1, score_b=0)
    first = services.pairing_start(pairing=Pairing.objects.get(flight=flight, slot="R1-1"), by=td)
    return flight, first


def final_of(flight):
    return Pairing.objects.filter(flight=flight, round__number=2).first()


def in_final(flight, player_id) -> bool:
    final = final_of(flight)
    return final is not None and player_id in (final.player_a_id, final.player_b_id)


def untouched(flight, pairing, version):
    """Nothing of a refused write is kept: the match has no game, the pairing and the event are as they were."""
    pairing.refresh_from_db()
    assert (pairing.status, pairing.winner_id, pairing.score_a) == (PairingStatus.PLAYING, None, None)
    assert not Game.objects.filter(match_id=pairing.match_id).exists()
    assert Match.objects.get(pk=pairing.match_id).status == "in_progress"
    assert final_of(flight) is None
    assert Tournament.objects.get(pk=flight.tournament_id).version == version


def test_a_pairings_match_is_written_by_the_tournaments_service_and_any_other_by_games(knockout, make_match):
    _, pairing = knockout
    assert match_writes(pairing.match) is scoresheet.WRITES
    assert match_writes(make_match(length=3)) is games_writes()


KEPT_MATCH_WRITES = {
    "game_record": lambda match, pairing: games.game_record(match=match, number=1, game=games.GameInput(winner=0)),
    "match_games_record": lambda match, pairing: games.match_games_record(
        match=match, games=[games.GameInput(winner=0)]),
    "match_final_score_record": lambda match, pairing: games.match_final_score_record(
        match=match, score_a=1, score_b=0),
    "match_forfeit": lambda match, pairing: games.match_forfeit(match=match, forfeited_by=pairing.player_b),
    "match_update": lambda match, pairing: games.match_update(match=match, rated=False),
}


@pytest.mark.parametrize("write", KEPT_MATCH_WRITES)
def test_games_services_refuse_a_pairings_match_written_without_its_keeper(knockout, write):
    flight, pairing = knockout
    version = Tournament.objects.get(pk=flight.tournament_id).version
    match = Match.objects.get(pk=pairing.match_id)
    with pytest.raises(KeptMatchError) as refused:
        KEPT_MATCH_WRITES[write](match, pairing)
    assert str(refused.value) == (
        f"Match {match.pk} decides a result above it (an event's pairing): it is written through its keeper"
        " (the event's score sheet), never by itself.")
    untouched(flight, pairing, version)
    after = Match.objects.get(pk=match.pk)
    assert (after.version, after.rated, after.score_a, after.score_b) == (match.version, True, 0, 0)


def test_games_services_refuse_to_change_a_decided_pairings_match_without_its_keeper(knockout, td):
    flight, pairing = knockout
    services.pairing_game_record(match=pairing.match, number=1, game=games.GameInput(winner=0), by=td)
    match = Match.objects.get(pk=pairing.match_id)
    for write in (lambda: games.game_delete_last(match=match),
                  lambda: games.game_correct(match=match, number=1, game=games.GameInput(winner=1)),
                  lambda: games.match_void(match=match, reason="by hand")):
        with pytest.raises(KeptMatchError):
            write()
    pairing.refresh_from_db()
    assert (pairing.status, pairing.winner_id) == (PairingStatus.FINISHED, pairing.player_a_id)
    after = Match.objects.get(pk=match.pk)
    assert (after.version, after.winner_id, after.rated, after.games.count()) == (
        match.version, pairing.player_a_id, True, 1)


def test_games_services_still_write_a_match_no_event_keeps(make_match):
    match = make_match(length=1)
    match = games.game_record(match=match, number=1, game=games.GameInput(winner=1))
    assert (match.status, match.winner_id, match.score_a, match.score_b) == ("finished", match.player_b_id, 0, 1)


def test_a_td_enters_the_deciding_game_through_the_games_api_and_the_draw_moves_on(knockout, td, client_for):
    flight, pairing = knockout
    answer = client_for(td).post(f"{API}/matches/{pairing.match_id}/games/",
                                 {"number": 1, "winner": pairing.player_a_id}, format="json")
    assert answer.status_code == 201, answer.content
    pairing.refresh_from_db()
    assert (pairing.status, pairing.winner_id, pairing.score_a, pairing.score_b) == (
        PairingStatus.FINISHED, pairing.player_a_id, 1, 0)
    assert in_final(flight, pairing.player_a_id)


def test_the_score_sheet_page_decides_the_pairing(knockout, td, client):
    flight, pairing = knockout
    client.force_login(td)
    match = pairing.match
    answer = client.post(f"/matches/{match.pk}/enter/", {
        "number": 1, "version": match.version, "winner": 1, "end": "played_out", "kind": 1, "cube": 1,
        "cube_owner": ""})
    assert answer.status_code == 302
    pairing.refresh_from_db()
    assert (pairing.status, pairing.winner_id) == (PairingStatus.FINISHED, pairing.player_b_id)
    assert in_final(flight, pairing.player_b_id)


def test_the_admin_decides_the_pairing(knockout, client):
    flight, pairing = knockout
    client.force_login(get_user_model().objects.create_superuser("boss", "boss@example.org", "pw-boss-12345"))
    answer = client.post("/admin/games/game/add/", {
        "match": pairing.match_id, "winner": 0, "end": "played_out", "kind": 1, "cube": 1, "cube_owner": "",
        "automatic_doubles": 0, "points": ""})
    assert answer.status_code == 302
    pairing.refresh_from_db()
    assert (pairing.status, pairing.winner_id) == (PairingStatus.FINISHED, pairing.player_a_id)
    assert in_final(flight, pairing.player_a_id)


def test_a_forfeit_through_the_games_api_is_a_walkover(knockout, td, client_for):
    flight, pairing = knockout
    answer = client_for(td).post(f"{API}/matches/{pairing.match_id}/forfeit/",
                                 {"forfeited_by": pairing.player_b_id}, format="json")
    assert answer.status_code == 200, answer.content
    pairing.refresh_from_db()
    assert (pairing.status, pairing.winner_id) == (PairingStatus.WALKOVER, pairing.player_a_id)
    assert in_final(flight, pairing.player_a_id)


def test_a_failure_in_the_draw_after_the_games_write_takes_the_game_back_too(knockout, td, client_for, monkeypatch):
    flight, pairing = knockout
    version = Tournament.objects.get(pk=flight.tournament_id).version

    def broken(*args, **kwargs):
        raise RuntimeError("the draw failed")

    monkeypatch.setattr(scoresheet, "_advance", broken)
    with pytest.raises(RuntimeError):
        services.pairing_game_record(match=pairing.match, number=1, game=games.GameInput(winner=0), by=td)
    untouched(flight, pairing, version)
    # The same through the API: an error answer, and nothing of it kept.
    api = client_for(td)
    api.raise_request_exception = False
    answer = api.post(f"{API}/matches/{pairing.match_id}/games/", {"number": 1, "winner": pairing.player_a_id},
                      format="json")
    assert answer.status_code == 500
    untouched(flight, pairing, version)


def test_a_failure_while_the_pairing_takes_the_result_takes_the_final_score_back_too(knockout, td, monkeypatch):
    flight, pairing = knockout
    version = Tournament.objects.get(pk=flight.tournament_id).version

    def broken(pairing):
        raise RuntimeError("the reports could not be superseded")

    monkeypatch.setattr(scoresheet, "_supersede_open", broken)
    with pytest.raises(RuntimeError):
        services.pairing_final_score_record(match=pairing.match, score_a=1, score_b=0, by=td)
    untouched(flight, pairing, version)
    assert Match.objects.get(pk=pairing.match_id).score_a == 0


def test_a_correction_that_would_change_the_winner_is_refused_and_changes_nothing(knockout, td, client_for):
    flight, pairing = knockout
    api = client_for(td)
    api.post(f"{API}/matches/{pairing.match_id}/games/", {"number": 1, "winner": pairing.player_a_id}, format="json")
    pairing.refresh_from_db()
    match = Match.objects.get(pk=pairing.match_id)
    answer = api.put(f"{API}/matches/{match.pk}/games/1/", {"winner": pairing.player_b_id}, format="json")
    assert answer.status_code == 400
    assert "result override" in answer.json()["non_field_errors"][0]
    assert Game.objects.get(match=match).winner == 0
    assert Match.objects.get(pk=match.pk).version == match.version
    assert in_final(flight, pairing.winner_id)


def test_a_correction_that_keeps_the_winner_updates_the_pairings_score(knockout, td, client_for):
    _, pairing = knockout
    api = client_for(td)
    api.post(f"{API}/matches/{pairing.match_id}/games/", {"number": 1, "winner": pairing.player_a_id}, format="json")
    answer = api.put(f"{API}/matches/{pairing.match_id}/games/1/", {"winner": pairing.player_a_id, "kind": "gammon"},
                     format="json")
    assert answer.status_code == 200, answer.content
    pairing.refresh_from_db()
    assert (pairing.status, pairing.score_a, pairing.score_b) == (PairingStatus.FINISHED, 2, 0)


def test_the_deciding_game_supersedes_an_open_report(knockout, td, make_user):
    _, pairing = knockout
    reporter = make_user(player=pairing.player_b)
    report = services.result_report(pairing=pairing, by=reporter, score_a=0, score_b=1)
    services.pairing_game_record(match=pairing.match, number=1, game=games.GameInput(winner=0), by=td)
    report.refresh_from_db()
    assert report.status == ReportStatus.SUPERSEDED


def test_the_tournament_is_locked_before_the_match_is_written(knockout, td):
    _, pairing = knockout
    with CaptureQueriesContext(connection) as queries:
        services.pairing_game_record(match=pairing.match, number=1, game=games.GameInput(winner=0), by=td)
    sql = [q["sql"] for q in queries.captured_queries]
    event = next(i for i, s in enumerate(sql) if s.startswith('UPDATE "tournaments_tournament"'))
    pairing_read = next(i for i, s in enumerate(sql) if 'FROM "tournaments_pairing"' in s and i > event)
    game = next(i for i, s in enumerate(sql) if s.startswith('INSERT INTO "games_game"'))
    assert event < pairing_read < game


@pytest.fixture
def begun(td, make_player):
    """A 5-point match begun at the desk with one single game on its score sheet: 1-0 so far."""
    event = services.tournament_create(name="Slip Cup", start_date=datetime.date(2026, 10, 1), by=td)
    flight = services.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[5], by=td)
    for n in range(1, 3):
        services.entry_check_in(entry=services.entry_add(flight=flight, player=make_player(f"Slip {n}"), seed=n,
                                                         by=td), by=td)
    services.flight_start(flight=flight, by=td)
    pairing = services.pairing_start(pairing=Pairing.objects.get(flight=flight, slot="R1-1"), by=td)
    scoresheet.pairing_game_record(match=pairing.match, number=1, game=games.GameInput(winner=0), by=td)
    pairing.refresh_from_db()
    return pairing


def test_the_slips_final_score_replaces_the_games_on_the_sheet_so_far(begun, td):
    services.result_report(pairing=begun, by=td, score_a=5, score_b=2)
    begun.refresh_from_db()
    match = Match.objects.get(pk=begun.match_id)
    assert (begun.status, begun.score_a, begun.score_b, begun.winner_id) == ("finished", 5, 2, begun.player_a_id)
    assert (match.status, match.score_a, match.score_b, match.games.count()) == ("finished", 5, 2, 0)
    assert match.history.filter(history_change_reason="the final score from the slip replaces the games so far")\
        .exists()


def test_a_final_score_below_the_sheet_so_far_is_refused_and_changes_nothing(begun, td):
    with pytest.raises(ValidationError) as refused:
        services.result_report(pairing=begun, by=td, score_a=0, score_b=5)
    assert refused.value.message_dict == {
        "score_a": ["The score sheet of R1-1 already has 1-0: the final score cannot be lower."]}
    begun.refresh_from_db()
    assert (begun.status, begun.score_a, Match.objects.get(pk=begun.match_id).games.count()) == ("playing", None, 1)
