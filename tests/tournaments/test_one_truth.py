"""One truth per pairing: reports, score sheets and corrections never disagree about a result."""

import datetime

import pytest

from config.errors import ConflictError
from games import services as games
from games.models import Match
from ratings.models import RatingChange, RatingSystemState
from ratings.services import rating_recompute_now
from tournaments import services
from tournaments.models import Pairing, PairingStatus, ReportStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def knockout(staff, make_player):
    event = services.tournament_create(name="Truth Cup", start_date=datetime.date(2026, 7, 1), by=staff)
    flight = services.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[3, 3, 3],
                                    by=staff)
    cast = [make_player(f"Seed {n}") for n in range(1, 9)]
    for n, player in enumerate(cast, start=1):
        services.entry_check_in(entry=services.entry_add(flight=flight, player=player, seed=n, by=staff), by=staff)
    services.flight_start(flight=flight, by=staff)
    return flight, cast


def single(winner):
    return games.GameInput(winner=winner, cube=1)


def test_a_stale_report_cannot_overturn_the_result_the_td_entered_on_the_score_sheet(knockout, staff, make_user):
    flight, cast = knockout
    pairing = Pairing.objects.get(flight=flight, slot="R1-1")  # Seed 1 v Seed 8
    one, eight = make_user(player=cast[0]), make_user(player=cast[7])
    report = services.result_report(pairing=pairing, by=eight, score_a=0, score_b=3)
    pairing = services.pairing_start(pairing=pairing, by=staff)
    match = pairing.match
    for number in (1, 2, 3):
        match = services.pairing_game_record(match=match, number=number, game=single(0), by=staff)
    pairing.refresh_from_db()
    assert (pairing.status, pairing.winner, pairing.score_a, pairing.score_b) == (
        PairingStatus.FINISHED, cast[0], 3, 0)
    report.refresh_from_db()
    assert report.status == ReportStatus.SUPERSEDED
    with pytest.raises(ConflictError) as refused:
        services.result_confirm(report=report, by=one)
    assert str(refused.value) == ("Main R1-1 has a result (3-0) entered after this report, which no longer counts:"
                                  " if that result is wrong, ask a TD to correct it.")
    with pytest.raises(ConflictError):
        services.result_confirm(report=report, by=staff)
    pairing.refresh_from_db()
    assert (pairing.winner, pairing.match.games.count()) == (cast[0], 3)


@pytest.mark.django_db(transaction=True)
def test_matches_undone_by_a_correction_are_voided_and_leave_the_rated_history(knockout, staff):
    flight, cast = knockout
    for slot in ("R1-1", "R1-2", "R1-3", "R1-4", "R2-1"):
        services.result_report(pairing=Pairing.objects.get(flight=flight, slot=slot), by=staff, score_a=3, score_b=0)
    semi = Pairing.objects.get(flight=flight, slot="R2-1")
    assert (semi.player_a, semi.player_b) == (cast[0], cast[3])
    first = Pairing.objects.get(flight=flight, slot="R1-1")
    undone = semi.match
    before = rating_recompute_now(system="fibs")
    assert undone.pk in set(RatingChange.objects.filter(run=before).values_list("match_id", flat=True))
    requested = RatingSystemState.objects.get(system="fibs").requested
    services.result_override(pairing=first, by=staff, score_a=0, score_b=3, apply_downstream=True, note="seed 8 won")
    assert not Pairing.objects.filter(flight=flight, match=undone).exists()
    undone.refresh_from_db()
    assert (undone.status, undone.rated, undone.winner) == ("finished", False, cast[0])
    assert undone.history.first().history_change_reason == "Main R2-1 undone by a correction upstream"
    assert RatingSystemState.objects.get(system="fibs").requested == requested + 1
    rated = set(RatingChange.objects.filter(run=rating_recompute_now(system="fibs")).values_list("match_id", flat=True))
    assert undone.pk not in rated
    assert first.match_id in rated
    semi = Pairing.objects.get(flight=flight, slot="R2-1")
    assert (semi.player_a, semi.player_b, semi.match) == (cast[7], cast[3], None)
    assert set(Match.objects.filter(rated=True).values_list("pk", flat=True)) == set(
        Pairing.objects.filter(flight=flight, status=PairingStatus.FINISHED).values_list("match_id", flat=True))
