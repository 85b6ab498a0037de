"""A TD changes a flight's settings before it starts; after the start they are fixed."""

import pytest

from .helpers import API, ok

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.tournaments.urls")]


@pytest.fixture
def event(staff_api, make_user, client_for):
    td = make_user("td-settings")
    td_api = client_for(td)
    slug = ok(staff_api.post(f"{API}/tournaments/", {"name": "Settings Open", "start_date": "2026-12-05"},
                             format="json"), 201)["slug"]
    ok(staff_api.post(f"{API}/tournaments/{slug}/organisers/", {"username": td.username}, format="json"))
    flight = ok(td_api.post(f"{API}/flights/", {
        "tournament": slug, "name": "Main", "format": "swiss_knockout", "lengths": [3],
        "swiss_rounds": 3, "qualifiers": 8,
    }, format="json"), 201)
    return td_api, slug, flight


def test_a_td_fixes_the_qualifiers_and_lengths_before_the_start(event, staff_api, make_user, client_for):
    td_api, slug, flight = event
    changed = ok(td_api.patch(f"{API}/flights/{flight['id']}/", {
        "qualifiers": 4, "lengths": [3, 3, 5, 7], "tie_breaks": ["median_buchholz", "buchholz"],
        "version": flight["version"],
    }, format="json"))
    assert (changed["qualifiers"], changed["lengths"], changed["tie_breaks"], changed["version"]) == (
        4, [3, 3, 5, 7], ["median_buchholz", "buchholz"], flight["version"] + 1)
    assert ok(td_api.get(f"{API}/flights/{flight['id']}/"))["qualifiers"] == 4

    # The version read before the change is stale now.
    stale = td_api.patch(f"{API}/flights/{flight['id']}/", {"qualifiers": 6, "version": flight["version"]},
                         format="json")
    assert stale.status_code == 409
    assert stale.json() == {"detail": "Main was changed by someone else: reload it."}

    # Someone who is not a TD of the event may not.
    stranger = client_for(make_user("stranger"))
    assert stranger.patch(f"{API}/flights/{flight['id']}/", {"qualifiers": 2}, format="json").status_code == 403
    assert ok(td_api.get(f"{API}/flights/{flight['id']}/"))["qualifiers"] == 4


@pytest.mark.parametrize("body, errors", [
    ({"qualifiers": 1}, {"qualifiers": ["Ensure this value is greater than or equal to 2."]}),
    ({"lengths": [3, 0]}, {"lengths": ["Round 2: a match is played to 1 to 99 points, not 0."]}),
    ({"lengths": []}, {"lengths": ["This list may not be empty."]}),
    ({"qualifiers": None}, {"qualifiers": ["Swiss then knockout needs the number of Swiss rounds and of qualifiers."]}),
    ({"tie_breaks": ["coin_toss"]}, {"tie_breaks": [
        "coin_toss is not a tie-break; use buchholz, median_buchholz, sonneborn_berger, head_to_head, pr."]}),
    ({"format": "swiss"}, {"format": ["This cannot be changed once the flight exists: add the flight again instead."]}),
    ({"seeding": "by_age"}, {"seeding": ['"by_age" is not a valid choice.']}),
])
def test_bad_settings_are_refused_field_by_field_and_change_nothing(event, body, errors):
    td_api, slug, flight = event
    refused = td_api.patch(f"{API}/flights/{flight['id']}/", body, format="json")
    assert refused.status_code == 400
    assert refused.json() == errors
    after = ok(td_api.get(f"{API}/flights/{flight['id']}/"))
    assert (after["qualifiers"], after["lengths"], after["version"]) == (8, [3], flight["version"])


def test_a_started_flight_keeps_its_settings(event, staff_api):
    td_api, slug, flight = event
    ok(td_api.patch(f"{API}/flights/{flight['id']}/", {"qualifiers": 2}, format="json"))
    for n in range(1, 5):
        player = ok(staff_api.post(f"{API}/players/", {"name": f"Setter {n}"}, format="json"), 201)["id"]
        entry = ok(td_api.post(f"{API}/entries/", {"flight": flight["id"], "player": player}, format="json"), 201)
        ok(td_api.post(f"{API}/entries/{entry['id']}/check-in/"))
    ok(td_api.post(f"{API}/flights/{flight['id']}/start/", {}, format="json"))
    late = td_api.patch(f"{API}/flights/{flight['id']}/", {"qualifiers": 4}, format="json")
    assert late.status_code == 409
    assert late.json() == {"detail": "Main has started: its settings are fixed."}
    assert ok(td_api.get(f"{API}/flights/{flight['id']}/"))["qualifiers"] == 2
