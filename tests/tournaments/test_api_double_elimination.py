"""An 11-player double elimination run through the API alone, against a bracket worked by hand.

The draw (docs/tournaments.md, formats/seeding.py): 11 players fill a 16-line bracket, so seeds 1-5
have byes and round 1 is 8 v 9, 7 v 10 and 6 v 11 (lines 1 16 8 9 4 13 5 12 2 15 7 10 3 14 6 11).
Losers' round 1 pairs the losers of winners' matches 1-2, 3-4, 5-6 and 7-8: every one of them
has a bye (L1-2, between two bye lines, is not played at all). After that the losers' bracket
alternates: the survivors meet the players just beaten in the winners' bracket (winners' round
2's losers in reverse order), then each other; the grand final is played again when the
losers' bracket player wins it.

The event, with the lengths [3, 5, 7, 9]:

    winners' round 1   8 bt 9, 10 bt 7 (upset), 6 bt 11
    winners' round 2   1 bt 8, 5 bt 4 (upset), 2 bt 10, 3 bt 6
    losers' round 1    byes for 9, 7, 11
    losers' round 2    6 bt 9, bye for 10, 4 bt 7, 8 bt 11 (walkover: 11 withdrew)
    losers' round 3    6 bt 10, 4 bt 8
    winners' round 3   1 bt 5, 3 bt 2 (upset)
    losers' round 4    5 bt 6, 2 bt 4
    losers' round 5    2 bt 5
    winners' final     1 bt 3
    losers' final      2 bt 3
    grand final        2 bt 1, and again in the reset: 2 is the champion with one loss

Places: the champion, the grand finalist, then by the losers' round in which players went out:
1: 2, 2: 1, 3: 3, 4: 5, 5-6: 4 and 6, 7-8: 8 and 10, 9-11: 7, 9 and 11.
"""

import pytest

from games.models import Match, MatchStatus
from tournaments.models import Pairing

from .helpers import API, FlightDriver, ok

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.tournaments.urls")]


class Event(FlightDriver):
    """The TD's view of the double elimination flight."""

    def snapshot(self):
        """Everything a refused write must leave as it was."""
        return (
            *self.reads(),
            ok(self.td_api.get(f"{API}/flights/{self.flight}/bracket/")),
            Match.objects.count(),
        )


def test_an_11_player_double_elimination_runs_from_entries_to_a_champion_through_the_api(
    staff_api, make_user, client_for
):
    td = make_user("td-aarhus")
    td_api = client_for(td)
    slug = ok(staff_api.post(f"{API}/tournaments/", {
        "name": "Aarhus Double", "slug": "aarhus-double-2026", "start_date": "2026-06-06",
    }, format="json"), 201)["slug"]
    ok(staff_api.post(f"{API}/tournaments/{slug}/organisers/", {"username": td.username}, format="json"))
    flight = ok(td_api.post(f"{API}/flights/", {
        "tournament": slug, "name": "Double", "format": "double_elimination", "lengths": [3, 5, 7, 9],
    }, format="json"), 201)
    assert (flight["format"], flight["status"]) == ("double_elimination", "draft")

    # Eleven players with seeds, and a twelfth who never checks in (a no-show: left out of the draw).
    seed_of, entry_of, clients = {}, {}, {}
    for seed in range(1, 13):
        player = ok(staff_api.post(f"{API}/players/", {"name": f"Seed {seed:02d}"}, format="json"), 201)
        entry = ok(td_api.post(f"{API}/entries/", {"flight": flight["id"], "player": player["id"],
                                                    "seed": seed if seed <= 11 else None}, format="json"), 201)
        entry_of[seed] = entry["id"]
        if seed <= 11:
            seed_of[player["id"]] = seed
            ok(td_api.post(f"{API}/entries/{entry['id']}/check-in/"))
        if seed in (1, 2, 11):
            user = make_user(f"player{seed}")
            ok(staff_api.post(f"{API}/player-accounts/", {"player": player["id"], "username": user.username},
                              format="json"), 201)
            clients[seed] = client_for(user)
    event = Event(td_api, flight["id"], seed_of)

    started = ok(td_api.post(f"{API}/flights/{flight['id']}/start/", {}, format="json"))
    assert started["status"] == "running"
    assert started["first_round"] == [[event.player[a], b and event.player[b]] for a, b in (
        (1, None), (8, 9), (4, None), (5, None), (2, None), (7, 10), (3, None), (6, 11))]
    no_show = ok(td_api.get(f"{API}/entries/{entry_of[12]}/"))
    assert (no_show["status"], no_show["seed"]) == ("registered", None)

    # Round 1: byes for seeds 1-5; 4 v 5 (two bye holders) can be played at once.
    assert event.drawn() == {
        "W1-1": (1, None, "bye"), "W1-2": (8, 9, "pending"), "W1-3": (4, None, "bye"),
        "W1-4": (5, None, "bye"), "W1-5": (2, None, "bye"), "W1-6": (7, 10, "pending"),
        "W1-7": (3, None, "bye"), "W1-8": (6, 11, "pending"), "W2-2": (4, 5, "pending"),
    }

    # A bye has no match to report; a score that does not end the match is refused.
    before = event.snapshot()
    bye = staff_api.post(f"{API}/pairings/{event.pairing('W1-1')['id']}/reports/",
                         {"score_a": 3, "score_b": 0}, format="json")
    assert bye.status_code == 400
    assert bye.json() == {"non_field_errors": ["W1-1 is a bye: there is no match to report."]}
    short = td_api.post(f"{API}/pairings/{event.pairing('W1-2')['id']}/reports/",
                        {"score_a": 2, "score_b": 1}, format="json")
    assert short.status_code == 400 and "score_a" in short.json()
    # Seed 11 may not report a match that is not his.
    assert clients[11].post(f"{API}/pairings/{event.pairing('W1-2')['id']}/reports/",
                            {"score_a": 3, "score_b": 1}, format="json").status_code == 403
    assert event.snapshot() == before

    event.win("W1-2", 8)
    event.win("W1-6", 10)
    event.win("W1-8", 6)

    # A result reported twice: the second one is a conflict and changes nothing.
    before = event.snapshot()
    again = td_api.post(f"{API}/pairings/{event.pairing('W1-2')['id']}/reports/",
                        {"score_a": 1, "score_b": 3}, format="json")
    assert again.status_code == 409
    assert "W1-2 already has a result" in again.json()["detail"]
    # So is a report based on a version of the pairing that is no longer current.
    stale = td_api.post(f"{API}/pairings/{event.pairing('W2-2')['id']}/reports/",
                        {"score_a": 5, "score_b": 0, "version": 99}, format="json")
    assert stale.status_code == 409
    assert event.snapshot() == before

    # Winners go on; the losers of round 1 all have byes in losers' round 1.
    assert {k: v for k, v in event.drawn().items() if not k.startswith("W1")} == {
        "W2-1": (1, 8, "pending"), "W2-2": (4, 5, "pending"), "W2-3": (2, 10, "pending"),
        "W2-4": (3, 6, "pending"), "L1-1": (9, None, "bye"), "L1-3": (7, None, "bye"),
        "L1-4": (11, None, "bye"),
    }

    event.win("W2-1", 1)
    event.win("W2-2", 5)
    event.win("W2-3", 2)
    event.win("W2-4", 3)
    # Winners' round 2's losers drop in reverse order: the loser of W2-4 meets the survivor of
    # L1-1, the loser of W2-3 has the bye L1-2 left him, ...
    assert {k: v for k, v in event.drawn().items() if k[:2] in ("W3", "L2", "L3")} == {
        "W3-1": (1, 5, "pending"), "W3-2": (2, 3, "pending"),
        "L2-1": (9, 6, "pending"), "L2-2": (10, None, "bye"), "L2-3": (7, 4, "pending"),
        "L2-4": (11, 8, "pending"),
    }

    # Seed 11 withdraws: 8 goes through by walkover, unrated, and nobody is drawn against 11 again.
    ok(clients[11].post(f"{API}/entries/{entry_of[11]}/withdraw/", {"reason": "train home"}, format="json"))
    walkover = event.pairing("L2-4")
    assert (walkover["status"], seed_of[walkover["winner"]]) == ("walkover", 8)
    assert (walkover["match"]["status"], walkover["match"]["rated"]) == ("forfeited", False)
    before = event.snapshot()
    assert td_api.post(f"{API}/pairings/{walkover['id']}/reports/", {"score_a": 0, "score_b": 5},
                       format="json").status_code == 409
    ruling = td_api.post(f"{API}/pairings/{walkover['id']}/override/", {"score_a": 5, "score_b": 0},
                         format="json")
    assert ruling.status_code == 400
    assert ruling.json() == {"non_field_errors": ["A walkover stands: the player withdrew."]}
    assert event.snapshot() == before

    event.win("L2-1", 6)
    event.win("L2-3", 4)
    assert {k: v for k, v in event.drawn().items() if k.startswith("L3")} == {
        "L3-1": (6, 10, "pending"), "L3-2": (4, 8, "pending"),
    }
    event.win("W3-1", 1)
    event.win("W3-2", 3)
    assert event.drawn()["W4-1"] == (1, 3, "pending")
    # The losers of winners' round 3 wait for losers' round 3 to end.
    assert not any(k.startswith("L4") for k in event.drawn())
    bracket = ok(td_api.get(f"{API}/flights/{flight['id']}/bracket/"))
    waiting = next(s for c in bracket["rounds"] for s in c["slots"] if s["slot"] == "L4-1")
    assert (waiting["pairing"], waiting["state"], waiting["player_a"], seed_of[waiting["player_b"]["id"]]) == (
        None, "pending", None, 5)

    event.win("L3-1", 6)
    event.win("L3-2", 4)
    assert {k: v for k, v in event.drawn().items() if k.startswith("L4")} == {
        "L4-1": (6, 5, "pending"), "L4-2": (4, 2, "pending"),
    }
    event.win("L4-1", 5)
    event.win("L4-2", 2)
    assert event.drawn()["L5-1"] == (5, 2, "pending")
    event.win("L5-1", 2)
    event.win("W4-1", 1)
    assert event.drawn()["L6-1"] == (2, 3, "pending")
    event.win("L6-1", 2)
    assert event.drawn()["GF-1"] == (1, 2, "pending")
    assert "GF-2" not in event.drawn()

    # The grand final: 2 reports his own win, 1 confirms; 1 has lost once, so it is played again.
    grand_final = event.win("GF-1", 2, client=clients[2])
    assert grand_final["status"] == "pending"
    assert event.drawn()["GF-1"] == (1, 2, "pending")
    ok(clients[1].post(f"{API}/result-reports/{grand_final['id']}/confirm/"))
    assert event.drawn()["GF-2"] == (1, 2, "pending")
    assert ok(td_api.get(f"{API}/flights/{flight['id']}/"))["status"] == "running"
    assert ok(td_api.get(f"{API}/flights/{flight['id']}/placings/")) == []
    event.win("GF-2", 2)

    finished = ok(td_api.get(f"{API}/flights/{flight['id']}/"))
    assert (finished["status"], seed_of[finished["champion"]["id"]]) == ("finished", 2)
    assert ok(td_api.get(f"{API}/tournaments/{slug}/"))["status"] == "finished"

    # A finished pairing takes no second report, even from a player of it.
    before = event.snapshot()
    late = clients[1].post(f"{API}/pairings/{event.pairing('GF-2')['id']}/reports/",
                           {"score_a": 9, "score_b": 0}, format="json")
    assert late.status_code == 409
    assert event.snapshot() == before

    # The bracket: winners' rounds, losers' rounds and the two grand finals as columns.
    bracket = ok(td_api.get(f"{API}/flights/{flight['id']}/bracket/"))
    assert [(c["round"], c["name"], c["length"], len(c["slots"])) for c in bracket["rounds"]] == [
        (1, "Winners' round 1", 3, 8), (2, "Winners' round 2", 5, 4), (3, "Winners' round 3", 7, 2),
        (4, "Winners' round 4", 9, 1),
        (51, "Losers' round 1", 3, 3), (52, "Losers' round 2", 5, 4), (53, "Losers' round 3", 5, 2),
        (54, "Losers' round 4", 7, 2), (55, "Losers' round 5", 7, 1), (56, "Losers' round 6", 9, 1),
        (100, "Grand final", 9, 1), (101, "Grand final, reset", 9, 1),
    ]
    slots = {s["slot"]: s for c in bracket["rounds"] for s in c["slots"]}
    assert "L1-2" not in slots  # two bye lines: no match at all
    assert [name for name, s in slots.items() if s["bye"]] == [
        "W1-1", "W1-3", "W1-4", "W1-5", "W1-7", "L1-1", "L1-3", "L1-4", "L2-2"]
    assert all(s["state"] in ("played", "bye") for s in slots.values())
    assert (slots["L2-4"]["status"], seed_of[slots["L2-4"]["winner"]]) == ("walkover", 8)
    assert (slots["GF-1"]["score"], seed_of[slots["GF-1"]["winner"]]) == ([8, 9], 2)
    assert (slots["GF-2"]["score"], seed_of[slots["GF-2"]["winner"]]) == ([8, 9], 2)
    assert seed_of[bracket["champion"]["id"]] == 2 and bracket["champion"]["seed"] == 2

    # Every match is played to its round's length: losers' rounds to the length of the winners'
    # round whose losers they take in, the grand finals to the winners' final's.
    played = Pairing.objects.filter(flight_id=flight["id"]).exclude(match=None).select_related("match", "round")
    assert {p.slot: p.match.length for p in played} == {
        "W1-2": 3, "W1-6": 3, "W1-8": 3, "W2-1": 5, "W2-2": 5, "W2-3": 5, "W2-4": 5, "W3-1": 7, "W3-2": 7,
        "W4-1": 9, "L2-1": 5, "L2-3": 5, "L2-4": 5, "L3-1": 5, "L3-2": 5, "L4-1": 7, "L4-2": 7, "L5-1": 7,
        "L6-1": 9, "GF-1": 9, "GF-2": 9,
    }
    assert Match.objects.filter(status=MatchStatus.FINISHED, rated=True).count() == 20

    rounds = ok(td_api.get(f"{API}/rounds/", {"flight": flight["id"]}))["results"]
    assert [(r["number"], r["status"], r["pairing_count"], r["open_count"]) for r in rounds] == [
        (1, "finished", 8, 0), (2, "finished", 4, 0), (3, "finished", 2, 0), (4, "finished", 1, 0),
        (51, "finished", 3, 0), (52, "finished", 4, 0), (53, "finished", 2, 0), (54, "finished", 2, 0),
        (55, "finished", 1, 0), (56, "finished", 1, 0), (100, "finished", 1, 0), (101, "finished", 1, 0),
    ]

    table = {}
    for row in ok(td_api.get(f"{API}/flights/{flight['id']}/placings/")):
        table.setdefault(row["place"], set()).add(seed_of[row["player"]["id"]])
    assert table == {
        "1": {2}, "2": {1}, "3": {3}, "4": {5}, "5-6": {4, 6}, "7-8": {8, 10}, "9-11": {7, 9, 11},
    }
    # Standings are for Swiss and round robin flights only.
    assert ok(td_api.get(f"{API}/flights/{flight['id']}/standings/")) == []


def test_a_correction_in_the_winners_bracket_redraws_both_brackets_and_reopens_the_round(staff_api):
    """Four players: W1-1 1 v 4, W1-2 2 v 3; the losers meet in L1-1, the winners in W2-1.
    1 and 2 win, then 1 beats 2. The TD corrects W1-1 to a win for 4: W2-1 becomes 4 v 2 (it had
    been played) and L1-1 becomes 1 v 3 (not started)."""
    slug = ok(staff_api.post(f"{API}/tournaments/", {"name": "Horsens Double", "start_date": "2026-11-07"},
                             format="json"), 201)["slug"]
    flight = ok(staff_api.post(f"{API}/flights/", {
        "tournament": slug, "name": "Double", "format": "double_elimination", "lengths": [3, 5],
    }, format="json"), 201)
    seed_of = {}
    for seed in range(1, 5):
        player = ok(staff_api.post(f"{API}/players/", {"name": f"Horsens {seed}"}, format="json"), 201)
        entry = ok(staff_api.post(f"{API}/entries/", {"flight": flight["id"], "player": player["id"], "seed": seed},
                                  format="json"), 201)
        ok(staff_api.post(f"{API}/entries/{entry['id']}/check-in/"))
        seed_of[player["id"]] = seed
    event = Event(staff_api, flight["id"], seed_of)
    ok(staff_api.post(f"{API}/flights/{flight['id']}/start/", {}, format="json"))
    event.win("W1-1", 1)
    event.win("W1-2", 2)
    event.win("W2-1", 1)
    assert event.drawn() == {"W1-1": (1, 4, "finished"), "W1-2": (2, 3, "finished"),
                             "W2-1": (1, 2, "finished"), "L1-1": (4, 3, "pending")}

    w11 = event.pairing("W1-1")
    four = event.player[4]
    preview = ok(staff_api.post(f"{API}/pairings/{w11['id']}/correction-preview/", {"winner": four}, format="json"))
    assert preview["needs_confirmation"] is True
    assert sorted((a["slot"], a["started"], [seed_of[p] for p in a["becomes"]]) for a in preview["affected"]) == [
        ("L1-1", False, [1, 3]), ("W2-1", True, [4, 2])]
    before = event.snapshot()
    refused = staff_api.post(f"{API}/pairings/{w11['id']}/override/", {"score_a": 2, "score_b": 3}, format="json")
    assert refused.status_code == 400 and "W2-1" in refused.json()["apply_downstream"][0]
    assert event.snapshot() == before

    ok(staff_api.post(f"{API}/pairings/{w11['id']}/override/",
                      {"score_a": 2, "score_b": 3, "apply_downstream": True}, format="json"), 201)
    assert event.drawn() == {"W1-1": (1, 4, "finished"), "W1-2": (2, 3, "finished"),
                             "W2-1": (4, 2, "pending"), "L1-1": (1, 3, "pending")}
    assert seed_of[event.pairing("W1-1")["winner"]] == 4
    # Round 2 has a match to play again: it is running, not finished.
    rounds = ok(staff_api.get(f"{API}/rounds/", {"flight": flight["id"]}))["results"]
    assert [(r["number"], r["status"], r["open_count"]) for r in rounds] == [
        (1, "finished", 0), (2, "running", 1), (51, "running", 1)]
