"""A 12-player Swiss then knockout run through the API alone, against standings worked by hand.

Four Swiss rounds (lengths 3, 3, 5, 5), then the top five by Swiss rank in a seeded knockout
(7, 9 and 11 points). Pairing rules (formats/swiss.py): by points then seed, top half of a score
group against its bottom half, no rematch while one can be avoided, the bye to the lowest player
who has had none. Tie-breaks (the default order): Buchholz, median Buchholz, Sonneborn-Berger,
head to head; players still level share a rank.

    round 1   1 bt 7, 8 bt 2, 3 bt 9, 4 bt 10, 11 bt 5, 6 bt 12
    round 2   1 bt 6, 8 bt 3, 4 bt 11, 2 bt 9, 10 bt 5, 7 bt 12
    round 3   4 bt 1, 8 bt 6, 2 bt 7, 3 bt 10, 11 bt 9, 12 bt 5 by walkover (5 withdrew)
    round 4   8 bt 4, 1 bt 3, 11 bt 2, 6 bt 7, 10 bt 12, bye for 9 (eleven players left)

Round 4 is paired 4 v 8, 1 v 3, 2 v 11, then 6 v 7 and 10 v 12 (6 v 10 would leave 7 v 12, a
rematch), 9 the bye. Final standings: 8 (4 points), 4, 1, 11 (3 points, by Buchholz 12, 8, 6),
3 (2 points, Buchholz 10), 2 and 6 (2 points, level on everything: both 6th), 10, 7, 9, 12, 5.
The five qualifiers 8, 4, 1, 11, 3 are the knockout's seeds 1-5: an 8-line bracket, byes for
8, 4 and 1, and 11 v 3. Knockout: 3 bt 11, 3 bt 8, 1 bt 4, 1 bt 3.

Places: the knockout's (1: 1, 2: 3, 3-4: 8 and 4, 5: 11), then everyone else by Swiss rank:
6-7: 2 and 6, 8: 10, 9: 7, 10: 9, 11: 12, 12: 5.
"""

import pytest

from games.models import Match

from .helpers import API, FlightDriver, ok

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.tournaments.urls")]


class Event(FlightDriver):
    """The TD's view of the Swiss then knockout flight."""

    def standings(self):
        """(rank, seed, points, wins, losses, byes, buchholz, median, Sonneborn-Berger, head to head)."""
        return [
            (s["rank"], self.seed_of[s["player"]["id"]], s["points"], s["wins"], s["losses"], s["byes"],
             s["tie_breaks"]["buchholz"], s["tie_breaks"]["median_buchholz"],
             s["tie_breaks"]["sonneborn_berger"], s["tie_breaks"]["head_to_head"])
            for s in ok(self.td_api.get(f"{API}/flights/{self.flight}/standings/"))
        ]

    def snapshot(self):
        """Everything a refused write must leave as it was."""
        return (
            *self.reads(),
            ok(self.td_api.get(f"{API}/rounds/", {"flight": self.flight})),
            self.standings(),
            Match.objects.count(),
        )


def test_a_12_player_swiss_then_knockout_runs_from_entries_to_a_champion_through_the_api(
    staff_api, make_user, client_for
):
    td = make_user("td-odense")
    td_api = client_for(td)
    slug = ok(staff_api.post(f"{API}/tournaments/", {
        "name": "Odense Swiss", "slug": "odense-swiss-2026", "start_date": "2026-08-15",
    }, format="json"), 201)["slug"]
    ok(staff_api.post(f"{API}/tournaments/{slug}/organisers/", {"username": td.username}, format="json"))
    # Without the number of qualifiers there is no knockout to go to.
    refused = td_api.post(f"{API}/flights/", {
        "tournament": slug, "name": "Open", "format": "swiss_knockout", "lengths": [5], "swiss_rounds": 4,
    }, format="json")
    assert refused.status_code == 400 and "qualifiers" in refused.json()
    flight = ok(td_api.post(f"{API}/flights/", {
        "tournament": slug, "name": "Open", "format": "swiss_knockout", "lengths": [3, 3, 5, 5, 7, 9, 11],
        "swiss_rounds": 4, "qualifiers": 5,
    }, format="json"), 201)

    seed_of, entry_of = {}, {}
    for seed in range(1, 13):
        player = ok(staff_api.post(f"{API}/players/", {"name": f"Seed {seed:02d}"}, format="json"), 201)
        entry = ok(td_api.post(f"{API}/entries/", {"flight": flight["id"], "player": player["id"], "seed": seed},
                               format="json"), 201)
        ok(td_api.post(f"{API}/entries/{entry['id']}/check-in/"))
        seed_of[player["id"]], entry_of[seed] = seed, entry["id"]
    event = Event(td_api, flight["id"], seed_of)
    ok(td_api.post(f"{API}/flights/{flight['id']}/start/", {}, format="json"))

    # Round 1: one score group of twelve, top half against bottom half.
    assert event.drawn(round=1) == {
        "R1-1": (1, 7, "pending"), "R1-2": (2, 8, "pending"), "R1-3": (3, 9, "pending"),
        "R1-4": (4, 10, "pending"), "R1-5": (5, 11, "pending"), "R1-6": (6, 12, "pending"),
    }
    assert {p["length"] for p in event.pairings(round=1)} == {3}
    for slot, winner in (("R1-1", 1), ("R1-2", 8), ("R1-3", 3), ("R1-4", 4), ("R1-5", 11)):
        event.win(slot, winner)
    # The next round waits for the last result; the TD cannot start it early either.
    assert event.drawn(round=2) == {}
    before = event.snapshot()
    early = td_api.post(f"{API}/flights/{flight['id']}/start-round/", {}, format="json")
    assert early.status_code == 409 and "round 1 is still being played" in early.json()["detail"]
    assert event.snapshot() == before
    event.win("R1-6", 6)

    # Everyone has met one player: the winners all have Buchholz 0, the losers 1.
    assert event.standings() == (
        [(1, s, 1, 1, 0, 0, 0, 0, 0, 0) for s in (1, 3, 4, 6, 8, 11)]
        + [(7, s, 0, 0, 1, 0, 1, 1, 0, 0) for s in (2, 5, 7, 9, 10, 12)]
    )
    assert event.drawn(round=2) == {
        "R2-1": (1, 6, "pending"), "R2-2": (3, 8, "pending"), "R2-3": (4, 11, "pending"),
        "R2-4": (2, 9, "pending"), "R2-5": (5, 10, "pending"), "R2-6": (7, 12, "pending"),
    }

    # A result reported twice: the second is a conflict and changes nothing.
    event.win("R2-1", 1)
    before = event.snapshot()
    again = td_api.post(f"{API}/pairings/{event.pairing('R2-1')['id']}/reports/", {"score_a": 2, "score_b": 3},
                        format="json")
    assert again.status_code == 409 and "R2-1 already has a result" in again.json()["detail"]
    assert event.snapshot() == before
    for slot, winner in (("R2-2", 8), ("R2-3", 4), ("R2-4", 2), ("R2-5", 10), ("R2-6", 7)):
        event.win(slot, winner)
    assert event.standings() == (
        [(1, s, 2, 2, 0, 0, 2, 2, 2, 0) for s in (1, 4, 8)]
        + [(4, s, 1, 1, 1, 0, 2, 2, 0, 0) for s in (2, 3, 6, 7, 10, 11)]
        + [(10, s, 0, 0, 2, 0, 2, 2, 0, 0) for s in (5, 9, 12)]
    )
    # 8 has met 2 and 3 already, so he meets the best 1-point player he has not: 6.
    assert event.drawn(round=3) == {
        "R3-1": (1, 4, "pending"), "R3-2": (8, 6, "pending"), "R3-3": (2, 7, "pending"),
        "R3-4": (3, 10, "pending"), "R3-5": (11, 9, "pending"), "R3-6": (5, 12, "pending"),
    }
    assert {p["length"] for p in event.pairings(round=3)} == {5}

    # Seed 5 withdraws: 12 wins round 3 by walkover, and 5 is not paired again.
    ok(td_api.post(f"{API}/entries/{entry_of[5]}/withdraw/", {"reason": "unwell"}, format="json"))
    walkover = event.pairing("R3-6")
    assert (walkover["status"], seed_of[walkover["winner"]], walkover["match"]["rated"]) == ("walkover", 12, False)
    for slot, winner in (("R3-1", 4), ("R3-2", 8), ("R3-3", 2), ("R3-4", 3), ("R3-5", 11)):
        event.win(slot, winner)
    # Round 4 is paired at once, and its bye is decided with it: 9's bye point already counts,
    # for him and for the Buchholz of 2, 3 and 11, who played him. 1, 2 and 3 are level on
    # everything (and have not met): all three are 3rd.
    assert event.standings() == [
        (1, 4, 3, 3, 0, 0, 5, 2, 5, 0),
        (1, 8, 3, 3, 0, 0, 5, 2, 5, 0),
        (3, 1, 2, 2, 1, 0, 5, 1, 2, 0),
        (3, 2, 2, 2, 1, 0, 5, 1, 2, 0),
        (3, 3, 2, 2, 1, 0, 5, 1, 2, 0),
        (6, 11, 2, 2, 1, 0, 4, 1, 1, 0),
        (7, 6, 1, 1, 2, 0, 6, 2, 1, 0),
        (8, 9, 1, 0, 3, 1, 6, 2, 0, 0),
        (9, 7, 1, 1, 2, 0, 5, 2, 1, 0),
        (10, 10, 1, 1, 2, 0, 5, 2, 0, 0),
        (11, 12, 1, 1, 2, 0, 2, 1, 0, 0),
        (12, 5, 0, 0, 3, 0, 4, 1, 0, 0),
    ]
    # Eleven players are left: 9, the lowest, has the bye.
    assert event.drawn(round=4) == {
        "R4-1": (4, 8, "pending"), "R4-2": (1, 3, "pending"), "R4-3": (2, 11, "pending"),
        "R4-4": (6, 7, "pending"), "R4-5": (10, 12, "pending"), "R4-6": (9, None, "bye"),
    }
    before = event.snapshot()
    bye = td_api.post(f"{API}/pairings/{event.pairing('R4-6')['id']}/reports/", {"score_a": 5, "score_b": 0},
                      format="json")
    assert bye.status_code == 400
    assert bye.json() == {"non_field_errors": ["R4-6 is a bye: there is no match to report."]}
    assert event.snapshot() == before
    for slot, winner in (("R4-1", 8), ("R4-2", 1), ("R4-3", 11), ("R4-4", 6), ("R4-5", 10)):
        event.win(slot, winner)

    assert event.standings() == [
        (1, 8, 4, 4, 0, 0, 9, 4, 9, 0),
        (2, 4, 3, 3, 1, 0, 12, 6, 8, 0),
        (3, 1, 3, 3, 1, 0, 8, 4, 5, 0),
        (4, 11, 3, 3, 1, 0, 6, 3, 3, 0),
        (5, 3, 2, 2, 2, 0, 10, 5, 3, 0),
        (6, 2, 2, 2, 2, 0, 9, 4, 2, 0),
        (6, 6, 2, 2, 2, 0, 9, 4, 2, 0),
        (8, 10, 2, 2, 2, 0, 6, 3, 1, 0),
        (9, 7, 1, 1, 3, 0, 8, 4, 1, 0),
        (10, 9, 1, 0, 3, 1, 7, 2, 0, 0),
        (11, 12, 1, 1, 3, 0, 5, 3, 0, 0),
        (12, 5, 0, 0, 3, 0, 6, 2, 0, 0),
    ]

    # The Swiss is over: the top five play a knockout seeded by Swiss rank (8, 4, 1, 11, 3), the
    # top three with byes; 4 v 1 (knockout seeds 2 and 3) can be played at once.
    knockout = {slot: row for slot, row in event.drawn().items() if slot.startswith("K")}
    assert knockout == {
        "KR1-1": (8, None, "bye"), "KR1-2": (11, 3, "pending"), "KR1-3": (4, None, "bye"),
        "KR1-4": (1, None, "bye"), "KR2-2": (4, 1, "pending"),
    }
    assert {p["slot"]: (p["round"], p["length"]) for p in event.pairings() if p["slot"].startswith("K")} == {
        "KR1-1": (5, 7), "KR1-2": (5, 7), "KR1-3": (5, 7), "KR1-4": (5, 7), "KR2-2": (6, 9),
    }
    before = event.snapshot()
    # No Swiss round is left to start, and the knockout's rounds open by themselves.
    more = td_api.post(f"{API}/flights/{flight['id']}/start-round/", {}, format="json")
    assert more.status_code == 409
    assert event.snapshot() == before

    event.win("KR1-2", 3)
    assert event.drawn()["KR2-1"] == (8, 3, "pending")
    event.win("KR2-1", 3)
    event.win("KR2-2", 1)
    assert event.drawn()["KR3-1"] == (3, 1, "pending")
    assert ok(td_api.get(f"{API}/flights/{flight['id']}/placings/")) == []
    event.win("KR3-1", 1)

    finished = ok(td_api.get(f"{API}/flights/{flight['id']}/"))
    assert (finished["status"], seed_of[finished["champion"]["id"]]) == ("finished", 1)
    assert ok(td_api.get(f"{API}/tournaments/{slug}/"))["status"] == "finished"
    before = event.snapshot()
    assert td_api.post(f"{API}/pairings/{event.pairing('KR3-1')['id']}/reports/", {"score_a": 11, "score_b": 0},
                       format="json").status_code == 409
    assert event.snapshot() == before

    bracket = ok(td_api.get(f"{API}/flights/{flight['id']}/bracket/"))
    assert [(c["round"], c["name"], c["length"], len(c["slots"])) for c in bracket["rounds"]] == [
        (1, "Round 1", 3, 6), (2, "Round 2", 3, 6), (3, "Round 3", 5, 6), (4, "Round 4", 5, 6),
        (5, "Knockout round 1", 7, 4), (6, "Knockout round 2", 9, 2), (7, "Knockout round 3", 11, 1),
    ]
    assert seed_of[bracket["champion"]["id"]] == 1
    # The knockout's boxes show its own seeds (the Swiss ranks), the Swiss rounds the entry seeds.
    knockout_seeds = {(seed_of[p["id"]], p["seed"]) for c in bracket["rounds"][4:] for s in c["slots"]
                      for p in (s["player_a"], s["player_b"]) if p}
    assert knockout_seeds == {(8, 1), (4, 2), (1, 3), (11, 4), (3, 5)}
    assert all(p["seed"] == seed_of[p["id"]] for c in bracket["rounds"][:4] for s in c["slots"]
               for p in (s["player_a"], s["player_b"]) if p)
    rounds = ok(td_api.get(f"{API}/rounds/", {"flight": flight["id"]}))["results"]
    assert [(r["number"], r["status"], r["open_count"]) for r in rounds] == [
        (n, "finished", 0) for n in range(1, 8)]
    # The Swiss standings stay as they were at the end of the Swiss.
    assert [row[:2] for row in event.standings()] == [
        (1, 8), (2, 4), (3, 1), (4, 11), (5, 3), (6, 2), (6, 6), (8, 10), (9, 7), (10, 9), (11, 12), (12, 5)]

    places = [(row["place"], seed_of[row["player"]["id"]])
              for row in ok(td_api.get(f"{API}/flights/{flight['id']}/placings/"))]
    assert sorted(places, key=lambda row: (int(row[0].split("-")[0]), row[1])) == [
        ("1", 1), ("2", 3), ("3-4", 4), ("3-4", 8), ("5", 11),
        ("6-7", 2), ("6-7", 6), ("8", 10), ("9", 7), ("10", 9), ("11", 12), ("12", 5),
    ]


def test_a_withdrawal_before_the_knockout_is_drawn_lets_the_next_player_in_and_one_after_it_is_a_walkover(
    staff_api,
):
    """Eight players, two Swiss rounds, top four. Round 1: 1 v 5, 2 v 6, 3 v 7, 4 v 8; round 2:
    1 v 3, 2 v 4, 5 v 7, 6 v 8; the better seed wins. 1 and 2 share the lead; 3, 4, 5 and 6 share
    3rd (one point, Buchholz 2, Sonneborn-Berger 0, never met), 7 and 8 share 7th.

    3 withdraws during round 2 (1 wins by walkover): he does not qualify, and 5, next in the
    standings, does. The knockout is 1 v 5, 2 v 4; then 4 withdraws: he stays in the bracket and
    2 goes through by walkover.
    """
    slug = ok(staff_api.post(f"{API}/tournaments/", {"name": "Vejle Swiss", "start_date": "2026-09-12"},
                             format="json"), 201)["slug"]
    flight = ok(staff_api.post(f"{API}/flights/", {
        "tournament": slug, "name": "Open", "format": "swiss_knockout", "lengths": [3, 3, 5],
        "swiss_rounds": 2, "qualifiers": 4,
    }, format="json"), 201)
    seed_of, entry_of = {}, {}
    for seed in range(1, 9):
        player = ok(staff_api.post(f"{API}/players/", {"name": f"Vejle {seed}"}, format="json"), 201)
        entry = ok(staff_api.post(f"{API}/entries/", {"flight": flight["id"], "player": player["id"],
                                                      "seed": seed}, format="json"), 201)
        ok(staff_api.post(f"{API}/entries/{entry['id']}/check-in/"))
        seed_of[player["id"]], entry_of[seed] = seed, entry["id"]
    event = Event(staff_api, flight["id"], seed_of)
    ok(staff_api.post(f"{API}/flights/{flight['id']}/start/", {}, format="json"))
    for slot, winner in (("R1-1", 1), ("R1-2", 2), ("R1-3", 3), ("R1-4", 4)):
        event.win(slot, winner)
    assert event.drawn(round=2) == {
        "R2-1": (1, 3, "pending"), "R2-2": (2, 4, "pending"), "R2-3": (5, 7, "pending"),
        "R2-4": (6, 8, "pending"),
    }
    ok(staff_api.post(f"{API}/entries/{entry_of[3]}/withdraw/", {}, format="json"))
    assert event.drawn(round=2)["R2-1"] == (1, 3, "walkover")
    for slot, winner in (("R2-2", 2), ("R2-3", 5), ("R2-4", 6)):
        event.win(slot, winner)
    assert [row[:3] + row[6:] for row in event.standings()] == [
        (1, 1, 2, 2, 2, 2, 0), (1, 2, 2, 2, 2, 2, 0),
        (3, 3, 1, 2, 2, 0, 0), (3, 4, 1, 2, 2, 0, 0), (3, 5, 1, 2, 2, 0, 0), (3, 6, 1, 2, 2, 0, 0),
        (7, 7, 0, 2, 2, 0, 0), (7, 8, 0, 2, 2, 0, 0),
    ]
    assert event.drawn(round=3) == {"KR1-1": (1, 5, "pending"), "KR1-2": (2, 4, "pending")}

    ok(staff_api.post(f"{API}/entries/{entry_of[4]}/withdraw/", {}, format="json"))
    assert event.drawn(round=3) == {"KR1-1": (1, 5, "pending"), "KR1-2": (2, 4, "walkover")}
    event.win("KR1-1", 1)
    assert event.drawn(round=4) == {"KR2-1": (1, 2, "pending")}
    event.win("KR2-1", 1)

    places = {}
    for row in ok(staff_api.get(f"{API}/flights/{flight['id']}/placings/")):
        places.setdefault(row["place"], set()).add(seed_of[row["player"]["id"]])
    assert places == {"1": {1}, "2": {2}, "3-4": {4, 5}, "5-6": {3, 6}, "7-8": {7, 8}}


def test_with_auto_pair_off_every_round_waits_for_the_td_and_an_early_report_is_refused(staff_api):
    """Six players, two Swiss rounds, top four; the better seed wins. Round 1: 1 v 4, 2 v 5, 3 v 6;
    round 2: 1 v 2, then 3 (floating down) v 4, 5 v 6. Standings: 1 and 3 on two points (Buchholz
    1 and 0), 2 and 5 on one (3 and 1), 4 and 6 on none. Knockout: 1 v 5 and 3 v 2."""
    slug = ok(staff_api.post(f"{API}/tournaments/", {"name": "Kolding Swiss", "start_date": "2026-12-05"},
                             format="json"), 201)["slug"]
    flight = ok(staff_api.post(f"{API}/flights/", {
        "tournament": slug, "name": "Open", "format": "swiss_knockout", "lengths": [3],
        "swiss_rounds": 2, "qualifiers": 4, "auto_pair": False,
    }, format="json"), 201)
    seed_of = {}
    for seed in range(1, 7):
        player = ok(staff_api.post(f"{API}/players/", {"name": f"Kolding {seed}"}, format="json"), 201)
        entry = ok(staff_api.post(f"{API}/entries/", {"flight": flight["id"], "player": player["id"],
                                                      "seed": seed}, format="json"), 201)
        ok(staff_api.post(f"{API}/entries/{entry['id']}/check-in/"))
        seed_of[player["id"]] = seed
    event = Event(staff_api, flight["id"], seed_of)

    def start_round():
        return ok(staff_api.post(f"{API}/flights/{flight['id']}/start-round/", {}, format="json"))

    def rounds():
        listed = ok(staff_api.get(f"{API}/rounds/", {"flight": flight["id"]}))["results"]
        return [(r["number"], r["status"]) for r in listed]

    ok(staff_api.post(f"{API}/flights/{flight['id']}/start/", {}, format="json"))
    assert event.drawn() == {"R1-1": (1, 4, "pending"), "R1-2": (2, 5, "pending"), "R1-3": (3, 6, "pending")}
    for slot, winner in (("R1-1", 1), ("R1-2", 2), ("R1-3", 3)):
        event.win(slot, winner)
    assert rounds() == [(1, "finished")]
    assert (start_round()["number"], rounds()) == (2, [(1, "finished"), (2, "running")])
    assert event.drawn(round=2) == {"R2-1": (1, 2, "pending"), "R2-2": (3, 4, "pending"), "R2-3": (5, 6, "pending")}
    assert staff_api.post(f"{API}/flights/{flight['id']}/start-round/", {}, format="json").status_code == 409
    for slot, winner in (("R2-1", 1), ("R2-2", 3), ("R2-3", 5)):
        event.win(slot, winner)
    assert [row[:3] + row[6:7] for row in event.standings()] == [
        (1, 1, 2, 1), (2, 3, 2, 0), (3, 2, 1, 3), (4, 5, 1, 1), (5, 4, 0, 4), (6, 6, 0, 3)]

    # The knockout is drawn, but its round waits for the TD: a result reported now is refused.
    assert event.drawn(round=3) == {"KR1-1": (1, 5, "pending"), "KR1-2": (3, 2, "pending")}
    assert rounds()[-1] == (3, "pending")
    before = event.snapshot()
    early = staff_api.post(f"{API}/pairings/{event.pairing('KR1-1')['id']}/reports/",
                           {"score_a": 3, "score_b": 0}, format="json")
    assert early.status_code == 400
    assert early.json() == {"non_field_errors": ["Round 3 of Open has not been started by the TD yet."]}
    assert event.snapshot() == before

    assert start_round()["number"] == 3
    event.win("KR1-1", 1)
    event.win("KR1-2", 3)
    assert event.drawn(round=4) == {"KR2-1": (1, 3, "pending")}
    assert start_round()["number"] == 4
    event.win("KR2-1", 3)
    finished = ok(staff_api.get(f"{API}/flights/{flight['id']}/"))
    assert (finished["status"], seed_of[finished["champion"]["id"]]) == ("finished", 3)
    assert rounds() == [(n, "finished") for n in range(1, 5)]
