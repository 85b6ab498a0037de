"""A 37-player event with main, consolation and last chance, run through the API alone."""

import pytest

from games.models import Match, MatchStatus
from tournaments.models import Flight, Pairing, PairingStatus, ResultReport
from tournaments.services import registration

from .helpers import API, ok

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.tournaments.urls")]


def by_seed_wins(pairing, seed_of):
    a, b = pairing["player_a"]["id"], pairing["player_b"]["id"]
    return (a, b) if seed_of[a] < seed_of[b] else (b, a)


def pending(client, slug, **filters):
    return ok(client.get(f"{API}/pairings/", {"tournament": slug, "status": "pending", **filters}))["results"]


def find(pairings, player_id):
    return next(p for p in pairings if player_id in (p["player_a"]["id"], (p["player_b"] or {}).get("id")))


def score(pairing, winner):
    length = pairing["length"]
    return ({"score_a": length, "score_b": length // 2} if pairing["player_a"]["id"] == winner
            else {"score_a": length // 2, "score_b": length})


@pytest.mark.slow
def test_a_37_player_event_runs_from_entries_to_three_champions_through_the_api(
    staff_api, make_user, client_for
):
    td = make_user("td-copenhagen")
    td_api = client_for(td)
    event = ok(staff_api.post(f"{API}/tournaments/", {
        "name": "Copenhagen Open", "slug": "copenhagen-open-2026", "venue": "Hotel Marienlyst",
        "start_date": "2026-05-01", "end_date": "2026-05-03", "clock": "2 min + 12 s/move",
    }, format="json"), 201)
    slug = event["slug"]
    ok(staff_api.post(f"{API}/tournaments/{slug}/organisers/", {"username": td.username}, format="json"))

    main = ok(td_api.post(f"{API}/flights/", {
        "tournament": slug, "name": "Main", "format": "single_elimination", "lengths": [7, 7, 9, 9, 11, 11],
    }, format="json"), 201)
    consolation = ok(td_api.post(f"{API}/flights/", {
        "tournament": slug, "name": "Consolation", "kind": "consolation", "format": "single_elimination",
        "lengths": [5, 5, 7, 7, 9],
        "feeders": [{"source": "Main", "source_round": 1, "entry_round": 1},
                    {"source": "Main", "source_round": 2, "entry_round": 2}],
    }, format="json"), 201)
    last_chance = ok(td_api.post(f"{API}/flights/", {
        "tournament": slug, "name": "Last Chance", "kind": "last_chance", "format": "single_elimination",
        "lengths": [5], "feeders": [{"source": "Consolation", "source_round": 1, "entry_round": 1}],
    }, format="json"), 201)

    # The TD opens the players' own check-in for an hour (they check themselves in only then).
    registration.check_in_window_open(flight=Flight.objects.get(pk=main["id"]), by=td, minutes=60)

    # 37 players, each with a login of his own, entered with seeds 1..37.
    seed_of, player_of_seed, clients, entry_of = {}, {}, {}, {}
    for seed in range(1, 38):
        player = ok(staff_api.post(f"{API}/players/", {"name": f"Seed {seed:02d}"}, format="json"), 201)
        user = make_user(f"player{seed}")
        ok(staff_api.post(f"{API}/player-accounts/", {"player": player["id"], "username": user.username},
                          format="json"), 201)
        seed_of[player["id"]], player_of_seed[seed] = seed, player["id"]
        clients[player["id"]] = client_for(user)
        entry = ok(td_api.post(f"{API}/entries/", {"flight": main["id"], "player": player["id"], "seed": seed},
                               format="json"), 201)
        entry_of[seed] = entry["id"]
        checker = clients[player["id"]] if seed % 2 else td_api  # odd seeds check themselves in
        assert ok(checker.post(f"{API}/entries/{entry['id']}/check-in/"))["status"] == "checked_in"

    started = ok(td_api.post(f"{API}/flights/{main['id']}/start/", {}, format="json"))
    assert started["status"] == "running" and started["seeding"] == "manual"

    # Round 1: a 64-line bracket, byes to seeds 1-27, and 28 v 37, 29 v 36, 30 v 35, 31 v 34, 32 v 33.
    bracket = ok(td_api.get(f"{API}/flights/{main['id']}/bracket/"))
    assert [len(column["slots"]) for column in bracket["rounds"]] == [32, 16, 8, 4, 2, 1]
    first = bracket["rounds"][0]["slots"]
    assert sum(slot["bye"] for slot in first) == 27
    assert sorted(
        (slot["player_a"]["seed"], slot["player_b"]["seed"]) for slot in first if not slot["bye"]
    ) == [(28, 37), (29, 36), (30, 35), (31, 34), (32, 33)]
    assert [slot["state"] for slot in bracket["rounds"][2]["slots"]] == ["pending"] * 8

    # Round 2 matches between two bye holders can be played at once (1 v 32's slot waits).
    assert len(pending(td_api, slug, round=2)) == 11
    round_one = pending(td_api, slug, round=1)
    assert len(round_one) == 5
    p = player_of_seed

    # 28 v 37 reported game by game by 28; a cube in the Crawford game is refused first.
    match = find(round_one, p[28])
    crawford_cube = [
        {"winner": p[28], "kind": "gammon", "cube": 2, "cube_owner": p[37]},
        {"winner": p[28], "cube": 2, "cube_owner": p[28]},
        {"winner": p[37], "cube": 2, "cube_owner": p[28]},
    ]
    refused = clients[p[28]].post(f"{API}/pairings/{match['id']}/reports/", {"games": crawford_cube}, format="json")
    assert refused.status_code == 400
    assert "Game 3" in refused.json()["games"][0] and "Crawford" in refused.json()["games"][0]
    sheet = crawford_cube[:2] + [{"winner": p[37]}, {"winner": p[28]}]
    report = ok(clients[p[28]].post(f"{API}/pairings/{match['id']}/reports/", {"games": sheet}, format="json"), 201)
    assert (report["score_a"], report["score_b"], report["status"]) == (7, 1, "pending")
    # A player cannot confirm his own report; the opponent can.
    assert clients[p[28]].post(f"{API}/result-reports/{report['id']}/confirm/").status_code == 403
    assert ok(clients[p[37]].post(f"{API}/result-reports/{report['id']}/confirm/"))["status"] == "confirmed"

    # 29 v 36 and 30 v 35 reported by a player (final score only), confirmed by the other.
    for winner, loser, reporter, confirmer in ((29, 36, 29, 36), (30, 35, 35, 30)):
        match = find(round_one, p[winner])
        report = ok(clients[p[reporter]].post(f"{API}/pairings/{match['id']}/reports/", score(match, p[winner]),
                                              format="json"), 201)
        ok(clients[p[confirmer]].post(f"{API}/result-reports/{report['id']}/confirm/"))
    # 31 v 34 and 32 v 33 entered by the TD, which counts at once.
    for winner in (31, 32):
        match = find(round_one, p[winner])
        assert ok(td_api.post(f"{API}/pairings/{match['id']}/reports/", score(match, p[winner]),
                              format="json"), 201)["status"] == "confirmed"

    # Winners advance into round 2 (5 v 28, ...); the five losers enter the consolation.
    round_two = pending(td_api, slug)
    main_two = [x for x in round_two if x["flight"] == main["id"]]
    assert len(main_two) == 16
    assert {seed_of[find(main_two, p[28])["player_a"]["id"]], seed_of[find(main_two, p[28])["player_b"]["id"]]} == {5, 28}
    consolation_one = ok(td_api.get(f"{API}/pairings/", {"flight": consolation["id"], "round": 1}))["results"]
    assert sorted((seed_of[x["player_a"]["id"]], x["player_b"] and seed_of[x["player_b"]["id"]])
                  for x in consolation_one) == [(33, None), (34, 37), (35, 36)]

    # Seed 13 withdraws: 20 goes through by walkover, unrated, and 13 does not feed the consolation.
    ok(clients[p[13]].post(f"{API}/entries/{entry_of[13]}/withdraw/", {"reason": "flight home"}, format="json"))
    walkover = Pairing.objects.get(flight_id=main["id"], round__number=2, player_a_id=p[13])
    assert (walkover.status, walkover.winner_id) == (PairingStatus.WALKOVER, p[20])
    assert (walkover.match.status, walkover.match.rated) == (MatchStatus.FORFEITED, False)

    # 16 v 17: 17 reports a win, 16 disputes, the TD rules for 16.
    disputed = find(main_two, p[16])
    claim = ok(clients[p[17]].post(f"{API}/pairings/{disputed['id']}/reports/", score(disputed, p[17]),
                                   format="json"), 201)
    assert clients[p[16]].post(f"{API}/result-reports/{claim['id']}/dispute/", {}, format="json").status_code == 400
    ok(clients[p[16]].post(f"{API}/result-reports/{claim['id']}/dispute/", {"reason": "I won 9-4"}, format="json"))
    queue = ok(td_api.get(f"{API}/tournaments/{slug}/disputes/"))
    assert [item["id"] for item in queue] == [claim["id"]]
    ruling = ok(td_api.post(f"{API}/pairings/{disputed['id']}/override/",
                            {**score(disputed, p[16]), "note": "score sheet signed by both"}, format="json"), 201)
    assert ruling["override"] and ruling["status"] == "confirmed"
    assert ok(td_api.get(f"{API}/tournaments/{slug}/disputes/")) == []
    versions = ok(td_api.get(f"{API}/pairings/{disputed['id']}/reports/"))["results"]
    assert [(r["version"], r["status"]) for r in versions] == [(1, "superseded"), (2, "confirmed")]

    # The TD enters every other result as matches become ready: the better seed wins.
    while True:
        ready = pending(td_api, slug)
        if not ready:
            break
        for match in ready:
            winner, _ = by_seed_wins(match, seed_of)
            ok(td_api.post(f"{API}/pairings/{match['id']}/reports/", score(match, winner), format="json"), 201)

    flights = {f["name"]: f for f in ok(td_api.get(f"{API}/flights/", {"tournament": slug}))["results"]}
    assert {name: (f["status"], seed_of[f["champion"]["id"]]) for name, f in flights.items()} == {
        "Main": ("finished", 1), "Consolation": ("finished", 17), "Last Chance": ("finished", 36),
    }
    assert ok(td_api.get(f"{API}/tournaments/{slug}/"))["status"] == "finished"

    decided = Pairing.objects.exclude(status=PairingStatus.BYE)
    assert {f: decided.filter(flight_id=flights[f]["id"]).count() for f in flights} == {
        "Main": 36, "Consolation": 19, "Last Chance": 1}
    assert Pairing.objects.filter(status=PairingStatus.BYE, flight_id=consolation["id"]).count() == 15
    assert Pairing.objects.filter(status=PairingStatus.WALKOVER).count() == 1
    # 20 took 13's place and met 4 in round 3.
    third = Pairing.objects.get(flight_id=main["id"], round__number=3, player_b_id=p[20])
    assert (seed_of[third.player_a_id], seed_of[third.winner_id]) == (4, 4)
    # Every decided pairing is a match: final-score reports too; the walkover is the one unrated match.
    assert Match.objects.count() == 56
    assert Match.objects.filter(rated=True, status="finished").count() == 55
    assert ResultReport.objects.count() == 56 - 1 + 1  # one report per played match, one extra for the dispute

    def places(flight):
        rows = ok(td_api.get(f"{API}/flights/{flights[flight]['id']}/placings/"))
        table = {}
        for row in rows:
            table.setdefault(row["place"], set()).add(seed_of[row["player"]["id"]])
        return table

    assert places("Main") == {
        "1": {1}, "2": {2}, "3-4": {3, 4}, "5-8": {5, 6, 7, 8},
        "9-16": {9, 10, 11, 12, 14, 15, 16, 20},
        "17-32": {13, 17, 18, 19, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32},
        "33-37": {33, 34, 35, 36, 37},
    }
    assert places("Consolation") == {
        "1": {17}, "2": {18}, "3-4": {19, 21}, "5-8": {22, 23, 24, 25},
        "9-16": {26, 27, 28, 29, 30, 31, 32, 33}, "17-18": {34, 35}, "19-20": {36, 37},
    }
    assert places("Last Chance") == {"1": {36}, "2": {37}}

    # Exports.
    entries_csv = td_api.get(f"{API}/tournaments/{slug}/entries.csv")
    assert entries_csv["Content-Type"].startswith("text/csv")
    assert len(entries_csv.content.decode().strip().splitlines()) == 38
    results_csv = td_api.get(f"{API}/tournaments/{slug}/results.csv").content.decode().strip().splitlines()
    assert len(results_csv) == 1 + 36 + 27 + 19 + 15 + 1
    first_round = ok(td_api.get(f"{API}/rounds/", {"flight": main["id"]}))["results"][0]
    ok(td_api.post(f"{API}/rounds/{first_round['id']}/schedule/", {"starts_at": "2026-05-01T10:00:00Z"},
                   format="json"))
    calendar = td_api.get(f"{API}/tournaments/{slug}/schedule.ics")
    assert calendar["Content-Type"].startswith("text/calendar")
    text = calendar.content.decode()
    assert text.startswith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n") and text.endswith("END:VCALENDAR\r\n")
    assert "DTSTART;VALUE=DATE:20260501\r\n" in text and "DTSTART:20260501T100000Z\r\n" in text
    assert "SUMMARY:Copenhagen Open: Main round 1\r\n" in text
    danish = td_api.get(f"{API}/tournaments/{slug}/schedule.ics", HTTP_ACCEPT_LANGUAGE="da").content.decode()
    assert "SUMMARY:Copenhagen Open: Main runde 1\r\n" in danish
    assert f"DESCRIPTION:matcher til {first_round['length']} point\r\n" in danish
