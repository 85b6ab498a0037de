"""The codes on the players' halves of a match slip, through the services: issued by a TD, kept when
printed again, each acting for one player in one undecided match only."""

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied

from config.errors import ConflictError
from games import services as games
from tournaments import services, slipcodes
from tournaments.models import Pairing, ReportStatus, SlipCode
from tournaments.permissions import WrongSlipCode

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup():
    td = get_user_model().objects.create_user("slip-td", is_superuser=True)
    event = services.tournament_create(name="Slip Cup", start_date=datetime.date(2026, 5, 1), by=td)
    flight = services.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[5], by=td)
    players = [games.player_create(name=n) for n in ("Ada", "Bo", "Cy", "Di")]
    for seed, player in enumerate(players, start=1):
        services.entry_check_in(entry=services.entry_add(flight=flight, player=player, seed=seed, by=td), by=td)
    services.flight_start(flight=flight, by=td, first_round=[[players[0].pk, players[1].pk],
                                                             [players[2].pk, players[3].pk]])
    first, second = Pairing.objects.filter(flight=flight).order_by("id")
    return {"td": td, "event": event, "first": first, "second": second}


def issue(cup, *pairings, renew=False):
    return services.slip_codes_issue(tournament=cup["event"], pairing_ids=[p.pk for p in pairings], by=cup["td"],
                                     renew=renew)


def test_codes_are_six_unambiguous_characters_and_only_their_hash_is_kept(cup):
    codes = issue(cup, cup["first"])
    assert len(codes) == 2
    for code in codes.values():
        assert re.fullmatch(r"[346789ACDEFGHJKMNPQRTUVWXY]{6}", code)
    stored = set(SlipCode.objects.values_list("digest", flat=True))
    assert not stored & set(codes.values()) and all(len(d) == 64 for d in stored)
    assert slipcodes.normalise(" acd-efg ") == "ACDEFG" and slipcodes.normalise("ACDEF0") is None


def test_only_a_td_of_the_event_issues_codes(cup):
    stranger = get_user_model().objects.create_user("stranger")
    with pytest.raises(PermissionDenied):
        services.slip_codes_issue(tournament=cup["event"], pairing_ids=[cup["first"].pk], by=stranger)
    assert not SlipCode.objects.exists()


def test_a_code_reports_for_its_player_and_the_opponent_s_confirms(cup):
    first = cup["first"]
    codes = issue(cup, first)
    made = services.result_report(pairing=first, code=codes[(first.pk, first.player_b_id)], score_a=2, score_b=5)
    assert (made.submitted_for_id, made.submitted_by_id, made.status) == (first.player_b_id, None, "pending")
    with pytest.raises(PermissionDenied):
        services.result_confirm(report=made, code=codes[(first.pk, first.player_b_id)])
    services.result_confirm(report=made, code=codes[(first.pk, first.player_a_id)])
    first.refresh_from_db()
    assert (first.status, first.winner_id, first.score_a, first.score_b) == ("finished", first.player_b_id, 2, 5)
    with pytest.raises(ConflictError):
        services.result_report(pairing=first, code=codes[(first.pk, first.player_a_id)], score_a=5, score_b=0)


def test_a_code_acts_in_its_own_match_only(cup):
    first, second = cup["first"], cup["second"]
    codes = issue(cup, first, second)
    with pytest.raises(WrongSlipCode):
        services.result_report(pairing=second, code=codes[(first.pk, first.player_a_id)], score_a=5, score_b=0)
    assert not second.reports.exists()


def test_printing_again_keeps_codes_and_new_slips_revoke_them(cup):
    first = cup["first"]
    old = issue(cup, first)
    assert issue(cup, first) == {}
    new = issue(cup, first, renew=True)
    assert set(new) == set(old) and SlipCode.objects.filter(revoked_at__isnull=False).count() == 2
    with pytest.raises(WrongSlipCode):
        services.result_report(pairing=first, code=old[(first.pk, first.player_a_id)], score_a=5, score_b=0)
    made = services.result_report(pairing=first, code=new[(first.pk, first.player_a_id)], score_a=5, score_b=0)
    assert made.status == ReportStatus.PENDING
