"""Roles, conflicts, late corrections with their downstream preview, and fixed query counts."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments import services
from tournaments.models import Pairing, PairingStatus, ResultReport

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.tournaments.urls")]
API = "/api/v1"


@pytest.fixture
def knockout(staff, make_player, make_user):
    """An 8-player knockout of 5-point matches, started, with a TD (not staff) and logins for the players."""

    def make(name="Spring Cup", players=8):
        td = make_user()
        event = services.tournament_create(name=name, start_date=datetime.date(2026, 4, 4), organisers=[td], by=staff)
        flight = services.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[5],
                                        by=staff)
        cast = {}
        for seed in range(1, players + 1):
            player = make_player(f"{name} seed {seed}")
            cast[seed] = player
            make_user(player=player)
            entry = services.entry_add(flight=flight, player=player, seed=seed, by=staff)
            services.entry_check_in(entry=entry, by=staff)
        services.flight_start(flight=flight, by=staff)
        return event, flight, td, cast

    return make


def pairing_of(flight, player, round_no):
    return Pairing.objects.filter(flight=flight, round__number=round_no).filter(
        player_a=player).first() or Pairing.objects.get(flight=flight, round__number=round_no, player_b=player)


def win(pairing, winner, by):
    a_wins = pairing.player_a_id == winner.pk
    return services.result_report(pairing=pairing, by=by, score_a=5 if a_wins else 2, score_b=2 if a_wins else 5)


def test_anonymous_users_read_everything_but_write_nothing(knockout, api):
    event, flight, _, cast = knockout()
    assert api.get(f"{API}/tournaments/").status_code == 200
    assert api.get(f"{API}/tournaments/{event.slug}/").status_code == 200
    assert api.get(f"{API}/flights/{flight.pk}/bracket/").status_code == 200
    assert api.get(f"{API}/pairings/", {"flight": flight.pk}).json()["count"] == 4
    pairing = pairing_of(flight, cast[1], 1)
    assert api.post(f"{API}/pairings/{pairing.pk}/reports/", {"score_a": 5, "score_b": 0}).status_code in (401, 403)


def test_a_td_of_another_tournament_gets_403(knockout, client_for, make_player):
    event, flight, _, cast = knockout("Spring Cup")
    _, _, other_td, _ = knockout("Autumn Cup")
    other = client_for(other_td)
    response = other.post(f"{API}/entries/", {"flight": flight.pk, "player": make_player().pk}, format="json")
    assert response.status_code == 403
    assert "Only a TD of Spring Cup" in response.json()["detail"]
    pairing = pairing_of(flight, cast[1], 1)
    assert other.post(f"{API}/pairings/{pairing.pk}/reports/", {"score_a": 5, "score_b": 0},
                      format="json").status_code == 403
    assert other.get(f"{API}/tournaments/{event.slug}/disputes/").status_code == 403


def test_a_player_reporting_someone_elses_match_gets_403(knockout, client_for):
    _, flight, _, cast = knockout()
    not_his = pairing_of(flight, cast[2], 1)  # 2 v 7
    player_one = client_for(cast[1].account.user)
    response = player_one.post(f"{API}/pairings/{not_his.pk}/reports/", {"score_a": 5, "score_b": 0}, format="json")
    assert response.status_code == 403
    assert not ResultReport.objects.exists()


def test_bad_scores_answer_400_with_a_message_per_field(knockout, client_for):
    _, flight, td, cast = knockout()
    pairing = pairing_of(flight, cast[1], 1)
    client = client_for(td)
    response = client.post(f"{API}/pairings/{pairing.pk}/reports/", {"score_a": 4, "score_b": 2}, format="json")
    assert response.status_code == 400
    assert response.json() == {"score_a": ["Nobody reached 5 points: a 5-point match is not over at 4–2."]}
    response = client.post(f"{API}/flights/", {"tournament": flight.tournament.slug, "name": "Consolation",
                                               "kind": "consolation", "format": "single_elimination",
                                               "lengths": [5], "feeders": [{"source": "Mian", "source_round": 1,
                                                                            "entry_round": 1}]}, format="json")
    assert response.status_code == 400
    assert response.json() == {"feeders": ["Feeder 1: there is no earlier flight called 'Mian'."]}


def test_a_stale_report_and_a_second_confirmation_get_409(knockout, client_for):
    _, flight, td, cast = knockout()
    pairing = pairing_of(flight, cast[1], 1)
    one, eight = client_for(cast[1].account.user), client_for(cast[8].account.user)
    first = one.post(f"{API}/pairings/{pairing.pk}/reports/", {"score_a": 5, "score_b": 1, "version": 0},
                     format="json")
    assert first.status_code == 201
    stale = eight.post(f"{API}/pairings/{pairing.pk}/reports/", {"score_a": 1, "score_b": 5, "version": 0},
                       format="json")
    assert stale.status_code == 409
    report = first.json()["id"]
    assert eight.post(f"{API}/result-reports/{report}/confirm/").status_code == 200
    assert client_for(td).post(f"{API}/result-reports/{report}/confirm/").status_code == 409
    assert client_for(td).post(f"{API}/flights/{flight.pk}/start/", {}, format="json").status_code == 409


def test_a_late_correction_shows_what_it_undoes_and_needs_a_td(knockout, client_for):
    _, flight, td, cast = knockout()
    for seed in (1, 4, 2, 3):
        win(pairing_of(flight, cast[seed], 1), cast[seed], td)
    semi = pairing_of(flight, cast[1], 2)
    win(semi, cast[1], td)
    win(pairing_of(flight, cast[2], 2), cast[2], td)
    final = pairing_of(flight, cast[1], 3)
    assert (final.player_a, final.player_b, final.status) == (cast[1], cast[2], PairingStatus.PENDING)

    first = pairing_of(flight, cast[1], 1)  # 1 v 8: 8 really won
    client = client_for(td)
    preview = client.post(f"{API}/pairings/{first.pk}/correction-preview/", {"winner": cast[8].pk}, format="json")
    assert preview.status_code == 200
    assert preview.json() == {
        "pairing": first.pk, "slot": "R1-1", "winner_now": cast[1].pk, "winner_after": cast[8].pk,
        "needs_confirmation": True,
        "affected": [
            {"pairing": semi.pk, "flight": "Main", "slot": "R2-1", "players": [cast[1].pk, cast[4].pk],
             "status": "finished", "started": True, "becomes": [cast[8].pk, cast[4].pk]},
            {"pairing": final.pk, "flight": "Main", "slot": "R3-1", "players": [cast[1].pk, cast[2].pk],
             "status": "pending", "started": False, "becomes": None},
        ],
    }
    # A player cannot correct it; the TD must confirm the downstream change.
    player = client_for(cast[8].account.user)
    assert player.post(f"{API}/pairings/{first.pk}/override/", {"score_a": 2, "score_b": 5},
                       format="json").status_code == 403
    refused = client.post(f"{API}/pairings/{first.pk}/override/", {"score_a": 2, "score_b": 5}, format="json")
    assert refused.status_code == 400 and "Main R2-1" in refused.json()["apply_downstream"][0]
    assert Pairing.objects.get(pk=semi.pk).winner == cast[1]

    applied = client.post(f"{API}/pairings/{first.pk}/override/",
                          {"score_a": 2, "score_b": 5, "apply_downstream": True}, format="json")
    assert applied.status_code == 201
    first.refresh_from_db()
    assert first.winner == cast[8]
    semi_now = Pairing.objects.get(flight=flight, slot="R2-1")
    assert (semi_now.player_a, semi_now.player_b, semi_now.status) == (cast[8], cast[4], PairingStatus.PENDING)
    assert not Pairing.objects.filter(flight=flight, slot="R3-1").exists()
    # Nothing is lost: the undone pairing and every report version stay in the history.
    assert Pairing.history.filter(id=semi.pk, history_type="-").exists()
    assert [(r.version, r.status) for r in first.reports.order_by("version")] == [(1, "superseded"), (2, "confirmed")]


def _count(client, url, params):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url, params).status_code == 200
    return len(queries)


def test_list_endpoints_take_the_same_number_of_queries_for_a_small_and_a_large_event(knockout, api):
    small, small_flight, small_td, few = knockout("Small Cup", players=4)
    win(pairing_of(small_flight, few[1], 1), few[1], small_td)
    large, large_flight, large_td, cast = knockout("Large Cup", players=16)
    for seed in range(1, 9):
        win(pairing_of(large_flight, cast[seed], 1), cast[seed], large_td)
    for url, small_params, large_params in [
        (f"{API}/tournaments/", {"slug": small.slug}, {}),
        (f"{API}/flights/", {"tournament": small.slug}, {}),
        (f"{API}/entries/", {"tournament": small.slug}, {"tournament": large.slug}),
        (f"{API}/pairings/", {"tournament": small.slug}, {"tournament": large.slug}),
        (f"{API}/rounds/", {"flight": small_flight.pk}, {"flight": large_flight.pk}),
        (f"{API}/result-reports/", {"tournament": small.slug}, {"tournament": large.slug}),
    ]:
        assert _count(api, url, small_params) == _count(api, url, large_params), url
