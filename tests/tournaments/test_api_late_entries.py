"""Late entries through the API: a Swiss takes them, every other format refuses them and changes nothing."""

import pytest

from .helpers import API, ok

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.tournaments.urls")]


@pytest.fixture
def started(staff_api, make_user, client_for):
    """A flight of the given format with four checked-in players, started by its TD; and a fifth player."""

    def start(fmt, name="Main"):
        td = make_user(f"td-{fmt}")
        td_api = client_for(td)
        slug = ok(staff_api.post(f"{API}/tournaments/", {
            "name": f"Late {fmt}", "start_date": "2026-10-03"}, format="json"), 201)["slug"]
        ok(staff_api.post(f"{API}/tournaments/{slug}/organisers/", {"username": td.username}, format="json"))
        flight = ok(td_api.post(f"{API}/flights/", {
            "tournament": slug, "name": name, "format": fmt, "lengths": [3], "swiss_rounds": 3, "qualifiers": 2,
        }, format="json"), 201)
        players = [ok(staff_api.post(f"{API}/players/", {"name": f"{fmt} {n}"}, format="json"), 201)["id"]
                   for n in range(1, 6)]
        for seed, player in enumerate(players[:4], start=1):
            entry = ok(td_api.post(f"{API}/entries/", {"flight": flight["id"], "player": player, "seed": seed},
                                   format="json"), 201)
            ok(td_api.post(f"{API}/entries/{entry['id']}/check-in/"))
        ok(td_api.post(f"{API}/flights/{flight['id']}/start/", {}, format="json"))
        return td_api, slug, flight["id"], players

    return start


def everything(client, slug, flight):
    return (
        ok(client.get(f"{API}/entries/", {"flight": flight})),
        ok(client.get(f"{API}/flights/{flight}/")),
        ok(client.get(f"{API}/pairings/", {"flight": flight})),
        ok(client.get(f"{API}/tournaments/{slug}/")),
    )


@pytest.mark.parametrize("fmt, kind", [
    ("single_elimination", "a single elimination"),
    ("double_elimination", "a double elimination"),
    ("round_robin", "a round robin"),
    ("swiss_knockout", "a Swiss then knockout"),
])
def test_a_started_flight_of_any_other_format_refuses_a_late_entry_and_says_why(started, fmt, kind):
    td_api, slug, flight, players = started(fmt, name="Open")
    before = everything(td_api, slug, flight)
    late = td_api.post(f"{API}/entries/", {"flight": flight, "player": players[4]}, format="json")
    assert late.status_code == 400
    assert late.json() == {"flight": [
        f"Open has started: only a Swiss takes late entries, and Open is {kind}."]}
    assert everything(td_api, slug, flight) == before


def test_a_started_swiss_takes_a_late_entry_who_starts_on_0_points_in_the_next_round(started):
    td_api, slug, flight, players = started("swiss")
    # His seed is not the TD's to choose: he comes after everyone drawn at the start.
    before = everything(td_api, slug, flight)
    seeded = td_api.post(f"{API}/entries/", {"flight": flight, "player": players[4], "seed": 7}, format="json")
    assert seeded.status_code == 400
    assert seeded.json() == {"seed": [
        "Main has started: a late entry is seeded after everyone drawn so far; leave the seed out."]}
    assert everything(td_api, slug, flight) == before
    entry = ok(td_api.post(f"{API}/entries/", {"flight": flight, "player": players[4]}, format="json"), 201)
    # He is checked in, seeded after everyone, and not in the round being played.
    assert (entry["seed"], entry["status"], entry["late"]) == (5, "checked_in", True)
    first = ok(td_api.get(f"{API}/pairings/", {"flight": flight, "round": 1}))["results"]
    assert [(p["player_a"]["id"], p["player_b"]["id"]) for p in first] == [
        (players[0], players[2]), (players[1], players[3])]
    for p in first:
        ok(td_api.post(f"{API}/pairings/{p['id']}/reports/", {"score_a": 3, "score_b": 1}, format="json"), 201)
    # Round 2: 1 v 2 on a point each, 3 v 4 on none, and the late entry (the lowest) has the bye.
    second = ok(td_api.get(f"{API}/pairings/", {"flight": flight, "round": 2}))["results"]
    assert [(p["player_a"]["id"], p["player_b"] and p["player_b"]["id"], p["status"]) for p in second] == [
        (players[0], players[1], "pending"), (players[2], players[3], "pending"), (players[4], None, "bye")]


def test_a_swiss_with_every_round_drawn_refuses_a_late_entry(started):
    td_api, slug, flight, players = started("swiss")
    for number in (1, 2):
        for p in ok(td_api.get(f"{API}/pairings/", {"flight": flight, "round": number}))["results"]:
            if p["player_b"]:
                ok(td_api.post(f"{API}/pairings/{p['id']}/reports/", {"score_a": 3, "score_b": 1}, format="json"),
                   201)
    assert [r["number"] for r in ok(td_api.get(f"{API}/rounds/", {"flight": flight}))["results"]] == [1, 2, 3]
    before = everything(td_api, slug, flight)
    late = td_api.post(f"{API}/entries/", {"flight": flight, "player": players[4]}, format="json")
    assert late.status_code == 400
    assert late.json() == {"flight": [
        "Main has drawn all its 3 rounds: a late entry would have no match left to play."]}
    assert everything(td_api, slug, flight) == before


def test_a_withdrawn_player_is_checked_in_again_before_the_draw_but_not_after(staff_api, make_user, client_for):
    td = make_user("td-back")
    td_api = client_for(td)
    slug = ok(staff_api.post(f"{API}/tournaments/", {"name": "Back Again", "start_date": "2026-10-03"},
                             format="json"), 201)["slug"]
    ok(staff_api.post(f"{API}/tournaments/{slug}/organisers/", {"username": td.username}, format="json"))
    flight = ok(td_api.post(f"{API}/flights/", {"tournament": slug, "name": "Main", "format": "single_elimination",
                                                "lengths": [3]}, format="json"), 201)
    entries = []
    for n in range(1, 4):
        player = ok(staff_api.post(f"{API}/players/", {"name": f"Back {n}"}, format="json"), 201)["id"]
        entries.append(ok(td_api.post(f"{API}/entries/", {"flight": flight["id"], "player": player},
                                      format="json"), 201)["id"])
    ok(td_api.post(f"{API}/entries/{entries[0]}/withdraw/", {"reason": "left early"}, format="json"))
    back = ok(td_api.post(f"{API}/entries/{entries[0]}/check-in/"))
    assert back["status"] == "checked_in"
    for entry in entries[1:]:
        ok(td_api.post(f"{API}/entries/{entry}/check-in/"))
    ok(td_api.post(f"{API}/flights/{flight['id']}/start/", {}, format="json"))
    ok(td_api.post(f"{API}/entries/{entries[2]}/withdraw/", {"reason": "ill"}, format="json"))
    again = td_api.post(f"{API}/entries/{entries[2]}/check-in/")
    assert again.status_code == 400
    assert again.json() == {"status": [
        "Back 3 withdrew from Main, which has started: a withdrawal is final once the draw is made."]}
    assert ok(td_api.get(f"{API}/entries/{entries[2]}/"))["status"] == "withdrawn"
