"""Undo at the desk: a walkover, a no-show, a withdrawal or a result given by mistake comes back."""

import datetime

import pytest
from django.db.models import Q
from django.core.exceptions import ValidationError

from games import services as games
from games.models import Match
from tournaments import selectors, services
from tournaments.models import EntryStatus, Pairing, PairingStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def knockout(staff, make_player):
    """Eight players, seeds 1-8, a 7-point single elimination with a 5-point consolation, started."""
    event = services.tournament_create(name="Undo Open", start_date=datetime.date(2026, 5, 1), by=staff)
    main = services.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[7, 7, 7],
                                  seeding="manual", by=staff)
    services.flight_create(tournament=event, name="Consolation", kind="consolation", format="single_elimination",
                           lengths=[5, 5], feeders=[{"source": "Main", "source_round": 1, "entry_round": 1}], by=staff)
    cast = [make_player(f"Seed {n}") for n in range(1, 9)]
    entries = []
    for n, player in enumerate(cast, start=1):
        entry = services.entry_add(flight=main, player=player, seed=n, by=staff)
        services.entry_check_in(entry=entry, by=staff)
        entries.append(entry)
    services.flight_start(flight=main, by=staff)
    return main, cast, entries


def first_match(main):
    return Pairing.objects.select_related("player_a", "player_b", "flight", "round").filter(
        flight=main, round__number=1).order_by("slot").first()


def play_three_one(pairing, staff):
    """The players sit down and play: A wins 2 (a gammon), B 1, A 1: 3-1 to A."""
    pairing = services.pairing_start(pairing=pairing, by=staff)
    match = pairing.match
    for number, (winner, kind) in enumerate([(0, "gammon"), (1, "single"), (0, "single")], start=1):
        match = services.pairing_game_record(match=match, number=number,
                                             game=games.GameInput(winner=winner, kind=kind), by=staff)
    return Pairing.objects.get(pk=pairing.pk)


def test_a_no_show_given_by_mistake_at_three_one_is_undone_and_the_games_come_back(knockout, staff):
    main, cast, _ = knockout
    pairing = play_three_one(first_match(main), staff)
    assert (pairing.match.score_a, pairing.match.score_b) == (3, 1)
    # "No-show" pressed on the leader's row by mistake: the match goes to the player who was behind.
    services.pairing_walkover(pairing=pairing, winner=pairing.player_b, reason="did not show up", by=staff)
    pairing.refresh_from_db()
    assert (pairing.status, pairing.winner_id) == (PairingStatus.WALKOVER, pairing.player_b_id)
    next_round = Pairing.objects.filter(flight=main, round__number=2).count()
    assert next_round == 0  # no other quarter-final is decided yet: nothing drawn from it in the main flight

    undone = services.pairing_walkover_undo(pairing=pairing, by=staff, reason="no-show given to the wrong row")
    match = Match.objects.get(pk=undone.match_id)
    assert (undone.status, undone.winner_id, undone.walkover_reason) == (PairingStatus.PLAYING, None, "")
    assert (match.status, match.score_a, match.score_b, match.winner_id, match.forfeited_by_id) == (
        "in_progress", 3, 1, None, None)
    assert [(g.number, g.winner, g.points) for g in match.games.order_by("number")] == [(1, 0, 2), (2, 1, 1), (3, 0, 1)]
    # The match goes on: the next game is recorded on it.
    match = services.pairing_game_record(match=match, number=4, game=games.GameInput(winner=0, kind="backgammon"),
                                         by=staff)
    assert (match.score_a, match.score_b, match.status) == (6, 1, "in_progress")
    reasons = [h.history_change_reason for h in undone.history.order_by("history_date", "history_id")]
    assert reasons[-3:] == ["walkover", "walkover", "no-show given to the wrong row"]
    assert [h.status for h in match.history.order_by("history_date", "history_id")][-3:] == [
        "forfeited", "in_progress", "in_progress"]


def test_a_walkover_before_play_is_undone_to_a_pending_match_without_the_match_made_for_it(knockout, staff):
    main, _, _ = knockout
    pairing = first_match(main)
    services.pairing_walkover(pairing=pairing, winner=pairing.player_a, reason="did not show up", by=staff)
    made = Pairing.objects.get(pk=pairing.pk).match_id
    undone = services.pairing_walkover_undo(pairing=pairing, by=staff)
    assert (undone.status, undone.match_id, undone.winner_id) == (PairingStatus.PENDING, None, None)
    assert not Match.objects.filter(pk=made).exists()
    assert Match.history.filter(id=made).order_by("-history_date").first().history_type == "-"


def test_undoing_a_walkover_takes_back_the_unstarted_matches_drawn_from_it_and_asks_for_started_ones(knockout, staff):
    main, cast, _ = knockout
    r1 = list(Pairing.objects.filter(flight=main, round__number=1).order_by("slot"))
    for pairing in r1:
        services.result_report(pairing=pairing, by=staff, score_a=7, score_b=2)
    semi = Pairing.objects.get(flight=main, slot="R2-1")
    loser = r1[0].player_b_id
    consolation = Pairing.objects.get(Q(player_a=loser) | Q(player_b=loser), flight__name="Consolation")
    services.pairing_start(pairing=semi, by=staff)

    with pytest.raises(ValidationError) as refused:
        services.result_undo(pairing=r1[0], by=staff)
    assert refused.value.message_dict == {"apply_downstream": [
        f"Matches drawn from Main {r1[0].slot} have started (Main {semi.slot}): look at the preview and confirm with"
        " apply_downstream to take them away too."]}
    preview = services.undo_preview(pairing=Pairing.objects.get(pk=r1[0].pk))
    # Without the result the consolation has not all its players: its first round is not drawn yet.
    assert sorted((a["flight"], a["slot"], a["started"]) for a in preview["affected"]) == [
        ("Consolation", "R1-1", False), ("Consolation", "R1-2", False), ("Main", semi.slot, True)]
    assert Pairing.objects.get(pk=semi.pk).status == PairingStatus.PLAYING  # nothing changed

    undone = services.result_undo(pairing=r1[0], by=staff, apply_downstream=True)
    assert (undone.status, undone.match_id, undone.score_a) == (PairingStatus.PENDING, None, None)
    assert not Pairing.objects.filter(pk__in=[semi.pk, consolation.pk]).exists()
    # Entered again, the result draws the same matches again.
    services.result_report(pairing=undone, by=staff, score_a=7, score_b=3)
    assert Pairing.objects.filter(flight=main, round__number=2).count() == 2


def test_a_result_nothing_was_built_on_is_undone_at_once(knockout, staff):
    main, _, _ = knockout
    pairing = first_match(main)
    services.result_report(pairing=pairing, by=staff, score_a=7, score_b=3)
    undone = services.result_undo(pairing=pairing, by=staff)
    assert (undone.status, undone.winner_id, undone.score_a, undone.score_b) == (PairingStatus.PENDING, None, None, None)
    with pytest.raises(ValidationError) as refused:
        services.result_undo(pairing=undone, by=staff)
    assert refused.value.message_dict == {"non_field_errors": [f"Main {pairing.slot} has no result to undo."]}


def test_a_withdrawal_given_by_mistake_is_undone_with_its_walkover(knockout, staff):
    main, cast, entries = knockout
    pairing = play_three_one(first_match(main), staff)
    leaving = next(e for e in entries if e.player_id == pairing.player_a_id)
    services.entry_withdraw(entry=leaving, by=staff, reason="withdrawn at the desk")
    pairing.refresh_from_db()
    assert pairing.status == PairingStatus.WALKOVER
    with pytest.raises(ValidationError) as refused:
        services.pairing_walkover_undo(pairing=pairing, by=staff)
    assert refused.value.message_dict == {"non_field_errors": [
        f"{leaving.player.name} has withdrawn: undo the withdrawal, which brings this match back too."]}

    entry = services.entry_withdraw_undo(entry=leaving, by=staff)
    pairing.refresh_from_db()
    assert entry.status == EntryStatus.CHECKED_IN
    assert (pairing.status, pairing.match.status, pairing.match.score_a, pairing.match.score_b) == (
        PairingStatus.PLAYING, "in_progress", 3, 1)


def test_the_api_undoes_a_no_show_and_refuses_to_undo_what_is_not_a_walkover(knockout, staff, staff_api):
    main, _, _ = knockout
    pairing = play_three_one(first_match(main), staff)
    url = f"/api/v1/pairings/{pairing.pk}/walkover-undo/"
    refused = staff_api.post(url, {}, format="json")
    assert refused.status_code == 400
    assert refused.json() == {"non_field_errors": [f"Main {pairing.slot} is not a walkover: there is no walkover to undo."]}
    services.pairing_walkover(pairing=pairing, winner=pairing.player_b, reason="did not show up", by=staff)
    preview = staff_api.get(f"/api/v1/pairings/{pairing.pk}/undo-preview/")
    assert preview.json() == {"pairing": pairing.pk, "slot": pairing.slot, "status": "walkover",
                              "needs_confirmation": False, "affected": [], "left_standing": []}
    response = staff_api.post(url, {"reason": "wrong row"}, format="json")
    assert response.status_code == 200, response.content
    assert (response.json()["status"], response.json()["winner"]) == ("playing", None)
    match = staff_api.get(f"/api/v1/matches/{pairing.match_id}/").json()
    assert (match["status"], match["score"], len(match["games"])) == ("in_progress", [3, 1], 3)


def test_the_api_refuses_a_result_undo_over_a_started_match_and_changes_nothing(knockout, staff, staff_api):
    main, _, _ = knockout
    r1 = list(Pairing.objects.filter(flight=main, round__number=1).order_by("slot"))
    for pairing in r1[:2]:
        services.result_report(pairing=pairing, by=staff, score_a=7, score_b=2)
    semi = services.pairing_start(pairing=Pairing.objects.get(flight=main, slot="R2-1"), by=staff)
    response = staff_api.post(f"/api/v1/pairings/{r1[0].pk}/result-undo/", {}, format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["apply_downstream"]
    assert Pairing.objects.get(pk=semi.pk).status == PairingStatus.PLAYING
    assert Pairing.objects.get(pk=r1[0].pk).status == PairingStatus.FINISHED
    done = staff_api.post(f"/api/v1/pairings/{r1[0].pk}/result-undo/", {"apply_downstream": True}, format="json")
    assert done.status_code == 200 and done.json()["status"] == "pending"
    assert not Pairing.objects.filter(pk=semi.pk).exists()


def test_the_api_undoes_a_withdrawal(knockout, staff, staff_api):
    main, _, entries = knockout
    pairing = first_match(main)
    leaving = next(e for e in entries if e.player_id == pairing.player_b_id)
    assert staff_api.post(f"/api/v1/entries/{leaving.pk}/withdraw/", {}, format="json").status_code == 200
    response = staff_api.post(f"/api/v1/entries/{leaving.pk}/withdraw-undo/", {}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "checked_in"
    assert Pairing.objects.get(pk=pairing.pk).status == PairingStatus.PENDING
    again = staff_api.post(f"/api/v1/entries/{leaving.pk}/withdraw-undo/", {}, format="json")
    assert again.status_code == 409



def swiss_of(staff, make_player, count, *, rounds, name="Main"):
    event = services.tournament_create(name=f"{name} Swiss Night", start_date=datetime.date(2026, 6, 1), by=staff)
    flight = services.flight_create(tournament=event, name=name, format="swiss", lengths=[3], swiss_rounds=rounds,
                                    by=staff)
    entries = []
    for n in range(1, count + 1):
        entry = services.entry_add(flight=flight, player=make_player(f"Swiss {n}"), seed=n, by=staff)
        entries.append(services.entry_check_in(entry=entry, by=staff))
    return flight, entries


def report_round(flight, number, staff):
    """The better seed (the lower number in his name) wins every match of the round 3-1."""
    for pairing in Pairing.objects.filter(flight=flight, round__number=number, status=PairingStatus.PENDING):
        a_wins = pairing.player_a.name < pairing.player_b.name
        services.result_report(pairing=pairing, by=staff, score_a=3 if a_wins else 1, score_b=1 if a_wins else 3)


def names_of_round(flight, number):
    return [(p.player_a.name, p.player_b and p.player_b.name, p.status)
            for p in Pairing.objects.filter(flight=flight, round__number=number).order_by("slot")]


def test_a_withdrawal_before_a_swiss_draw_is_undone_into_the_next_round_as_a_late_entry(staff, make_player):
    flight, entries = swiss_of(staff, make_player, 5, rounds=3)
    services.entry_withdraw(entry=entries[4], by=staff, reason="phoned in sick")
    services.flight_start(flight=flight, by=staff)
    assert names_of_round(flight, 1) == [("Swiss 1", "Swiss 3", "pending"), ("Swiss 2", "Swiss 4", "pending")]

    entry = services.entry_withdraw_undo(entry=entries[4], by=staff, reason="he came after all")
    assert (entry.status, entry.late, entry.seed) == (EntryStatus.CHECKED_IN, True, 5)
    assert entry.history.first().history_change_reason == "he came after all: a late entry"
    assert names_of_round(flight, 1) == [("Swiss 1", "Swiss 3", "pending"), ("Swiss 2", "Swiss 4", "pending")]
    report_round(flight, 1, staff)
    # Round 2 pairs him: on 0 points, the lowest, he has the bye.
    assert names_of_round(flight, 2) == [
        ("Swiss 1", "Swiss 2", "pending"), ("Swiss 3", "Swiss 4", "pending"), ("Swiss 5", None, "bye")]
    assert [(line["player"]["name"], line["points"], line["byes"]) for line in selectors.standings(flight)] == [
        ("Swiss 1", 1, 0), ("Swiss 2", 1, 0), ("Swiss 5", 1, 1), ("Swiss 3", 0, 0), ("Swiss 4", 0, 0)]


def test_a_withdrawal_before_a_knockout_draw_is_not_undone_and_says_why(staff, make_player):
    event = services.tournament_create(name="Knockout Night", start_date=datetime.date(2026, 6, 2), by=staff)
    flight = services.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[3, 3],
                                    by=staff)
    entries = [services.entry_check_in(entry=services.entry_add(flight=flight, player=make_player(f"Cup {n}"),
                                                                seed=n, by=staff), by=staff) for n in range(1, 6)]
    services.entry_withdraw(entry=entries[4], by=staff)
    services.flight_start(flight=flight, by=staff)
    drawn = names_of_round(flight, 1)
    with pytest.raises(ValidationError) as refused:
        services.entry_withdraw_undo(entry=entries[4], by=staff)
    assert refused.value.message_dict == {"non_field_errors": [
        "Cup 5 withdrew before Main was drawn and is in none of its matches. Main has started: only a Swiss takes"
        " late entries, and Main is a single elimination."]}
    entries[4].refresh_from_db()
    assert (entries[4].status, entries[4].late) == (EntryStatus.WITHDRAWN, False)
    assert names_of_round(flight, 1) == drawn


def test_a_withdrawal_before_a_swiss_draw_is_not_undone_once_every_round_is_drawn(staff, make_player):
    flight, entries = swiss_of(staff, make_player, 5, rounds=2)
    services.entry_withdraw(entry=entries[4], by=staff)
    services.flight_start(flight=flight, by=staff)
    report_round(flight, 1, staff)
    with pytest.raises(ValidationError) as refused:
        services.entry_withdraw_undo(entry=entries[4], by=staff)
    assert refused.value.message_dict == {"non_field_errors": [
        "Swiss 5 withdrew before Main was drawn and is in none of its matches. Main has drawn all its 2 rounds: a"
        " late entry would have no match left to play."]}
    entries[4].refresh_from_db()
    assert entries[4].status == EntryStatus.WITHDRAWN


def test_the_undo_preview_of_a_swiss_result_names_the_later_rounds_it_leaves_standing(staff, make_player, staff_api):
    flight, _ = swiss_of(staff, make_player, 4, rounds=3)
    services.flight_start(flight=flight, by=staff)
    report_round(flight, 1, staff)
    report_round(flight, 2, staff)
    first = Pairing.objects.get(flight=flight, round__number=1, player_a__name="Swiss 1")
    assert services.undo_preview(pairing=first) == {
        "pairing": first.pk, "slot": first.slot, "status": "finished", "needs_confirmation": False, "affected": [],
        "left_standing": [{"flight": "Main", "round": 2}, {"flight": "Main", "round": 3}]}
    answer = staff_api.get(f"/api/v1/pairings/{first.pk}/undo-preview/")
    assert answer.json()["left_standing"] == [{"flight": "Main", "round": 2}, {"flight": "Main", "round": 3}]
    # The last round's result leaves nothing standing after it; an undecided pairing has nothing to undo.
    last = Pairing.objects.filter(flight=flight, round__number=3).first()
    assert services.undo_preview(pairing=last)["left_standing"] == []
