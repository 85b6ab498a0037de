"""A TD corrects a result of a knockout's second round or final, through the API."""

import pytest

from tournaments.models import Pairing

from .helpers import API, FlightDriver, ok

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.tournaments.urls")]


@pytest.fixture
def knockout(staff_api):
    """Eight seeded players; the first round, both semi-finals and the final played by seed."""
    event = ok(staff_api.post(f"{API}/tournaments/", {"name": "Corrections Cup", "start_date": "2026-12-01"},
                              format="json"), 201)
    flight = ok(staff_api.post(f"{API}/flights/", {"tournament": event["slug"], "name": "Main",
                                                   "format": "single_elimination", "lengths": [3, 3, 3]},
                               format="json"), 201)
    seed_of = {}
    for seed in range(1, 9):
        player = ok(staff_api.post(f"{API}/players/", {"name": f"Seed {seed}"}, format="json"), 201)
        entry = ok(staff_api.post(f"{API}/entries/", {"flight": flight["id"], "player": player["id"], "seed": seed},
                                  format="json"), 201)
        ok(staff_api.post(f"{API}/entries/{entry['id']}/check-in/"))
        seed_of[player["id"]] = seed
    ok(staff_api.post(f"{API}/flights/{flight['id']}/start/", {}, format="json"))
    driver = FlightDriver(staff_api, flight["id"], seed_of)
    for slot, winner in [("R1-1", 1), ("R1-2", 4), ("R1-3", 2), ("R1-4", 3), ("R2-1", 1), ("R2-2", 2),
                         ("R3-1", 1)]:
        driver.win(slot, winner)
    return driver


def test_the_preview_of_a_semi_final_correction_lists_the_final_it_undoes(staff_api, knockout):
    semi = knockout.pairing("R2-1")
    four = knockout.player[4]
    preview = ok(staff_api.post(f"{API}/pairings/{semi['id']}/correction-preview/", {"winner": four},
                                format="json"))
    assert preview["needs_confirmation"] is True
    assert [(a["slot"], a["started"], [knockout.seed_of[p] for p in a["becomes"]]) for a in preview["affected"]] == [
        ("R3-1", True, [4, 2])]
    assert Pairing.objects.get(pk=semi["id"]).winner_id == knockout.player[1]


def test_a_final_is_corrected_and_the_other_player_is_champion(staff_api, knockout):
    final = knockout.pairing("R3-1")
    two = knockout.player[2]
    preview = ok(staff_api.post(f"{API}/pairings/{final['id']}/correction-preview/", {"winner": two},
                                format="json"))
    assert (preview["needs_confirmation"], preview["affected"]) == (False, [])
    body = {"score_a": 1, "score_b": 3} if final["player_a"]["id"] == knockout.player[1] else {"score_a": 3,
                                                                                              "score_b": 1}
    ok(staff_api.post(f"{API}/pairings/{final['id']}/override/", body, format="json"), 201)
    assert ok(staff_api.get(f"{API}/flights/{knockout.flight}/"))["champion"]["id"] == two
