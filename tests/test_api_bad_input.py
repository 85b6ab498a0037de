"""Bad input at the API: a 400 with a message on the field, nothing changed, never a 500.

Numbers too large for their column, NUL characters (PostgreSQL refuses them), null where an
object belongs and bodies that are not objects. Each test also runs on PostgreSQL, where these
used to fail in the database.
"""

import pytest

from games.models import Game, Match
from tournaments.models import Entry, Flight, ResultReport, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.tournaments.urls")]

API = "/api/v1"
HUGE = 10**20


def post(client, url, body):
    return client.post(f"{API}{url}", body, format="json")


@pytest.fixture
def event(staff_api, make_player):
    """A tournament with a Swiss flight of four checked-in players that has not started yet."""
    tournament = post(staff_api, "/tournaments/", {"name": "Club Night", "start_date": "2026-12-01"}).json()
    flight = post(staff_api, "/flights/", {"tournament": tournament["slug"], "name": "Swiss", "format": "swiss",
                                           "lengths": [3, 3], "swiss_rounds": 2}).json()
    players = [make_player(f"Entrant {n}") for n in range(4)]
    for player in players:
        entry = post(staff_api, "/entries/", {"flight": flight["id"], "player": player.pk}).json()
        assert staff_api.post(f"{API}/entries/{entry['id']}/check-in/").status_code == 200
    return tournament, flight, players


@pytest.fixture
def started(staff_api, event):
    """The event with its first round drawn: a pending pairing between two players."""
    _, flight, players = event
    body = {"pairings": [[players[0].pk, players[1].pk], [players[2].pk, players[3].pk]]}
    assert post(staff_api, f"/flights/{flight['id']}/start/", {}).status_code == 200
    assert post(staff_api, f"/flights/{flight['id']}/start-round/", body).status_code in (200, 409)
    pairing = staff_api.get(f"{API}/pairings/", {"flight": flight["id"], "status": "pending"}).json()["results"][0]
    return flight, pairing


# -- the cube ------------------------------------------------------------------------------------


def test_a_cube_over_32768_is_refused_and_nothing_is_recorded(staff_api, make_player):
    a, b = make_player(), make_player()
    match = post(staff_api, "/matches/", {"player_a": a.pk, "player_b": b.pk, "kind": "session"}).json()
    response = post(staff_api, f"/matches/{match['id']}/games/",
                    {"number": 1, "winner": a.pk, "kind": "backgammon", "cube": 2**30, "cube_owner": a.pk})
    assert response.status_code == 400
    assert response.json() == {"cube": ["The cube goes up to 32768: a cube of 1073741824 is beyond it."]}
    assert not Game.objects.filter(match_id=match["id"]).exists()
    assert Match.objects.get(pk=match["id"]).version == match["version"]


def test_the_highest_cube_is_recorded_with_its_points(staff_api, make_player):
    a, b = make_player(), make_player()
    match = post(staff_api, "/matches/", {"player_a": a.pk, "player_b": b.pk, "kind": "session"}).json()
    response = post(staff_api, f"/matches/{match['id']}/games/",
                    {"number": 1, "winner": a.pk, "kind": "backgammon", "cube": 2**15, "cube_owner": a.pk})
    assert response.status_code == 201, response.json()
    assert response.json()["score"] == [3 * 2**15, 0]


@pytest.mark.parametrize("url", ["/matches/", "/tournaments/"])
def test_a_cube_cap_too_large_for_any_cube_is_refused(staff_api, make_player, url):
    a, b = make_player(), make_player()
    body = {"player_a": a.pk, "player_b": b.pk, "length": 7} if url == "/matches/" else {
        "name": "Capped", "start_date": "2026-12-01"}
    response = post(staff_api, url, {**body, "cube_cap": 2**31})
    assert response.status_code == 400
    assert response.json() == {
        "cube_cap": ["The cube cap is at most 32768, the highest cube there is: 2147483648 is over it."]}
    assert not Match.objects.exists() and not Tournament.objects.exists()


# -- numbers too large for their columns ----------------------------------------------------------


@pytest.mark.parametrize("field, value, message", [
    ("random_seed", HUGE, "Ensure this value is less than or equal to 9223372036854775807."),
    ("random_seed", -HUGE, "Ensure this value is greater than or equal to -9223372036854775808."),
    ("swiss_rounds", 2**31, "Ensure this value is less than or equal to 32767."),
    ("out_after_losses", 2**31, "Ensure this value is less than or equal to 32767."),
    ("qualifiers", 2**31, "Ensure this value is less than or equal to 32767."),
])
def test_a_flight_setting_too_large_is_refused_when_added_and_when_changed(staff_api, event, field, value, message):
    tournament, flight, _ = event
    response = post(staff_api, "/flights/", {"tournament": tournament["slug"], "name": "Side", "format": "swiss",
                                             "lengths": [3], field: value})
    assert response.status_code == 400
    assert response.json() == {field: [message]}
    assert list(Flight.objects.values_list("name", flat=True)) == ["Swiss"]

    response = staff_api.patch(f"{API}/flights/{flight['id']}/", {field: value}, format="json")
    assert response.status_code == 400
    assert response.json() == {field: [message]}
    stored = Flight.objects.get(pk=flight["id"])
    assert (getattr(stored, field), stored.version) == (flight[field], flight["version"])


def test_a_draw_seed_too_large_is_refused_and_the_flight_does_not_start(staff_api, event):
    _, flight, _ = event
    response = post(staff_api, f"/flights/{flight['id']}/start/", {"random_seed": HUGE})
    assert response.status_code == 400
    assert response.json() == {"random_seed": ["Ensure this value is less than or equal to 9223372036854775807."]}
    assert Flight.objects.get(pk=flight["id"]).status == "draft"


def test_a_seed_too_large_is_refused_for_an_entry(staff_api, event, make_player):
    _, flight, _ = event
    response = post(staff_api, "/entries/", {"flight": flight["id"], "player": make_player().pk, "seed": 2**31})
    assert response.status_code == 400
    assert response.json() == {"seed": ["Ensure this value is less than or equal to 2147483647."]}
    assert Entry.objects.filter(flight_id=flight["id"]).count() == 4


def test_a_clock_too_long_is_refused_for_a_tournament(staff_api):
    response = post(staff_api, "/tournaments/", {"name": "Slow", "start_date": "2026-12-01", "clock_seconds": HUGE})
    assert response.status_code == 400
    assert response.json() == {"clock_seconds": ["Ensure this value is less than or equal to 2147483647."]}
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("action", ["reports", "override"])
def test_a_reported_score_too_large_is_refused(staff_api, started, action):
    _, pairing = started
    response = post(staff_api, f"/pairings/{pairing['id']}/{action}/", {"score_a": HUGE, "score_b": 1})
    assert response.status_code == 400
    assert response.json() == {"score_a": ["Ensure this value is less than or equal to 9999."]}
    assert not ResultReport.objects.filter(pairing_id=pairing["id"]).exists()


@pytest.mark.parametrize("url", ["/matches/", "/pairings/"])
@pytest.mark.parametrize("value, message", [
    (str(HUGE), "Ensure this value is less than or equal to 9223372036854775807."),
    (str(-HUGE), "Ensure this value is greater than or equal to -9223372036854775808."),
    ("1.5", "Enter a whole number."),
])
def test_a_player_filter_that_is_no_id_is_refused(api, url, value, message):
    response = api.get(f"{API}{url}", {"player": value})
    assert response.status_code == 400
    assert response.json() == {"player": [message]}


# -- ids in the path -----------------------------------------------------------------------------


def _paths_with_an_id():
    """Every operation of the API whose view reads an id from its path, as (method, path). The
    routes that take `<int:pk>` are left out: text never reaches their view (the URL is a 404)."""
    from django.urls import resolve
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    return sorted((method.upper(), path.replace("{number}", "1"))
                  for path, operations in schema["paths"].items() if "{id}" in path
                  and "<int:" not in resolve(path.replace("{id}", "1").replace("{number}", "1")).route
                  for method in operations if method in {"get", "post", "put", "patch", "delete"})


NOT_AN_ID = "There is nothing with the id “{}” here: an id is a whole number, such as 12."


@pytest.mark.parametrize("text", ["abc", "1²", "-3", "0", str(HUGE)])
def test_unlinking_an_account_named_by_no_id_is_not_found_with_the_reason(staff_api, make_player, make_user, text):
    player = make_player()
    make_user(player=player)
    response = staff_api.delete(f"{API}/player-accounts/{text}/")
    assert (response.status_code, response.json()) == (404, {"detail": NOT_AN_ID.format(text[:20])})
    assert staff_api.delete(f"{API}/player-accounts/{player.pk}/").status_code == 204


@pytest.mark.parametrize("method, path", _paths_with_an_id())
def test_an_id_in_the_path_that_is_text_is_not_found_with_the_reason(staff_api, method, path):
    response = staff_api.generic(method, path.replace("{id}", "abc"), "{}", content_type="application/json")
    assert (response.status_code, response.json()) == (404, {"detail": NOT_AN_ID.format("abc")})


# -- null, NUL and bodies that are not objects ----------------------------------------------------


@pytest.mark.parametrize("action", ["reports", "override"])
def test_a_null_game_in_a_reported_score_sheet_is_refused(staff_api, started, action):
    _, pairing = started
    winner = pairing["player_a"]["id"]
    response = post(staff_api, f"/pairings/{pairing['id']}/{action}/", {"games": [None, {"winner": winner}]})
    assert response.status_code == 400
    assert response.json() == {"games": {"0": ["This field may not be null."]}}
    assert not ResultReport.objects.filter(pairing_id=pairing["id"]).exists()


def test_a_tournament_named_with_a_nul_character_is_not_found(staff_api, event):
    response = post(staff_api, "/flights/", {"tournament": "club\x00night", "name": "Side", "format": "swiss",
                                             "lengths": [3]})
    assert response.status_code == 400
    assert response.json() == {"tournament": ["Object with slug=club\\x00night does not exist."]}
    assert Flight.objects.count() == 1


@pytest.mark.parametrize("body, message", [
    ("null", "No data provided"),
    ('["ill"]', "Invalid data. Expected a dictionary, but got list."),
    ('"ill"', "Invalid data. Expected a dictionary, but got str."),
])
def test_a_withdrawal_whose_body_is_not_an_object_is_refused(staff_api, event, body, message):
    _, flight, players = event
    entry = Entry.objects.get(flight_id=flight["id"], player=players[0])
    response = staff_api.post(f"{API}/entries/{entry.pk}/withdraw/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"non_field_errors": [message]}
    assert Entry.objects.get(pk=entry.pk).status == "checked_in"


def test_a_withdrawal_without_a_body_is_taken(staff_api, event):
    _, flight, players = event
    entry = Entry.objects.get(flight_id=flight["id"], player=players[0])
    response = staff_api.post(f"{API}/entries/{entry.pk}/withdraw/")
    assert response.status_code == 200
    assert response.json()["status"] == "withdrawn"


@pytest.mark.parametrize("field", ["country", "club"])
def test_a_rating_list_filter_with_a_nul_character_is_refused(api, field):
    response = api.get(f"{API}/ratings/", {field: "D\x00K"})
    assert response.status_code == 400
    assert response.json() == {field: ["Null characters are not allowed."]}


def test_a_prediction_for_a_name_with_a_nul_character_finds_nobody(api, make_player):
    anna = make_player("Anna Berg")
    response = api.get(f"{API}/ratings/predict/", {"a": "Anna\x00Berg", "b": str(anna.pk), "length": "7"})
    assert response.status_code == 400
    assert response.json() == {"a": ["No player is called 'Anna\\x00Berg'."]}


@pytest.mark.parametrize("length", ["100", "2147483648", str(HUGE)])
def test_a_prediction_for_a_match_longer_than_99_points_is_refused(api, make_player, length):
    anna, bo = make_player("Anna Berg"), make_player("Bo Jensen")
    response = api.get(f"{API}/ratings/predict/", {"a": str(anna.pk), "b": str(bo.pk), "length": length})
    assert response.status_code == 400
    assert response.json() == {"length": ["The length is a whole number of points, from 1 to 99."]}


# -- reasons in the audit trail ------------------------------------------------------------------


def test_a_long_reason_for_a_correction_is_kept_whole_in_the_history(staff_api, make_player):
    a, b = make_player(), make_player()
    match = post(staff_api, "/matches/", {"player_a": a.pk, "player_b": b.pk, "length": 7}).json()
    assert post(staff_api, f"/matches/{match['id']}/games/", {"number": 1, "winner": a.pk}).status_code == 201
    reason = ("The score sheet was read upside down. " * 13).strip()  # 493 characters; the API takes 500
    response = staff_api.put(f"{API}/matches/{match['id']}/games/1/", {"winner": b.pk, "reason": reason},
                             format="json")
    assert response.status_code == 200, response.json()
    assert Game.history.filter(match_id=match["id"], history_change_reason=reason).count() == 1
    assert Match.history.filter(id=match["id"], history_change_reason=reason).count() == 1


def test_a_long_reason_for_a_withdrawal_is_kept_whole_in_the_history(staff_api, event):
    _, flight, players = event
    entry = Entry.objects.get(flight_id=flight["id"], player=players[0])
    reason = "Called away: " + "x" * 300
    response = post(staff_api, f"/entries/{entry.pk}/withdraw/", {"reason": reason})
    assert response.status_code == 200, response.json()
    assert entry.history.latest().history_change_reason == reason


def test_the_rated_filter_takes_true_or_false_and_refuses_anything_else(staff_api, make_match):
    rated = make_match(length=3)
    Match.objects.filter(pk=rated.pk).update(rated=False)
    other = make_match(length=5)
    assert [m["id"] for m in staff_api.get(f"{API}/matches/", {"rated": "false"}).json()["results"]] == [rated.pk]
    assert [m["id"] for m in staff_api.get(f"{API}/matches/", {"rated": "1"}).json()["results"]] == [other.pk]
    refused = staff_api.get(f"{API}/matches/", {"rated": "maybe"})
    assert refused.status_code == 400
    assert refused.json() == {"rated": ["Give true or false."]}


@pytest.mark.parametrize("value, message", [
    (1.5, "A valid integer is required."),
    (HUGE, f'Invalid pk "{HUGE}" - object does not exist.'),
    (0, 'Invalid pk "0" - object does not exist.'),
])
def test_a_player_id_that_is_no_id_is_refused_not_read_as_another(staff_api, make_player, value, message):
    a, b = make_player("Id One"), make_player("Id Two")
    body = {"player_a": a.pk, "player_b": value if value != 1.5 else b.pk + 0.5, "length": 5}
    refused = post(staff_api, "/matches/", body)
    assert refused.status_code == 400
    assert refused.json() == {"player_b": [message]}
    assert Match.objects.count() == 0


# -- bounded text and bounded lists ---------------------------------------------------------------

LONG = "x" * 501
TOO_LONG = ["Ensure this field has no more than 500 characters."]


def test_a_note_longer_than_500_characters_is_refused_and_nothing_is_reported(staff_api, started):
    _, pairing = started
    a, b = pairing["player_a"]["id"], pairing["player_b"]["id"]
    response = post(staff_api, f"/pairings/{pairing['id']}/reports/", {"score_a": 3, "score_b": 1, "note": LONG})
    assert response.status_code == 400 and response.json() == {"note": TOO_LONG}
    assert not ResultReport.objects.filter(pairing_id=pairing["id"]).exists()
    response = post(staff_api, f"/pairings/{pairing['id']}/override/", {"score_a": 3, "score_b": 1, "note": LONG})
    assert response.status_code == 400 and response.json() == {"note": TOO_LONG}
    assert (a, b) and not ResultReport.objects.filter(pairing_id=pairing["id"]).exists()


def test_a_dispute_reason_longer_than_500_characters_is_refused(client_for, make_user, started):
    from games.models import Player

    _, pairing = started
    a = make_user(player=Player.objects.get(pk=pairing["player_a"]["id"]))
    b = make_user(player=Player.objects.get(pk=pairing["player_b"]["id"]))
    report = post(client_for(a), f"/pairings/{pairing['id']}/reports/", {"score_a": 3, "score_b": 1}).json()
    response = post(client_for(b), f"/result-reports/{report['id']}/dispute/", {"reason": LONG})
    assert response.status_code == 400 and response.json() == {"reason": TOO_LONG}
    assert ResultReport.objects.get(pk=report["id"]).status == "pending"


def test_a_withdrawal_reason_longer_than_500_characters_is_refused(staff_api, event):
    _, flight, players = event
    entry = Entry.objects.get(flight_id=flight["id"], player=players[0])
    response = post(staff_api, f"/entries/{entry.pk}/withdraw/", {"reason": LONG})
    assert response.status_code == 400 and response.json() == {"reason": TOO_LONG}
    assert Entry.objects.get(pk=entry.pk).status == "checked_in"


@pytest.mark.parametrize("url, body, field, message", [
    ("/players/", {"name": "N" * 121}, "name", "Ensure this field has no more than 120 characters."),
    ("/players/", {"name": "Anna", "club": "C" * 121}, "club", "Ensure this field has no more than 120 characters."),
    ("/tournaments/", {"name": "T" * 201, "start_date": "2026-12-01"}, "name",
     "Ensure this field has no more than 200 characters."),
    ("/tournaments/", {"name": "Open", "venue": "V" * 201, "start_date": "2026-12-01"}, "venue",
     "Ensure this field has no more than 200 characters."),
    ("/player-accounts/", {"player": 1, "username": "u" * 151}, "username",
     "Ensure this field has no more than 150 characters."),
])
def test_names_longer_than_their_column_are_refused(staff_api, url, body, field, message):
    response = post(staff_api, url, body)
    assert response.status_code == 400
    assert response.json()[field] == [message]


def test_a_hand_made_draw_with_more_tables_than_any_field_has_is_refused(staff_api, event):
    _, flight, _ = event
    response = post(staff_api, f"/flights/{flight['id']}/start/", {"first_round": [[1, 2]] * 2049})
    assert response.status_code == 400
    assert response.json() == {"first_round": ["Ensure this field has no more than 2048 elements."]}
    assert Flight.objects.get(pk=flight["id"]).status == "draft"


# -- a pairing's reports: capped, and read a page at a time ----------------------------------------


def test_a_pairing_takes_twenty_reports_from_its_players_then_asks_for_a_td(client_for, make_user, staff_api,
                                                                           started):
    from games.models import Player

    _, pairing = started
    a = client_for(make_user(player=Player.objects.get(pk=pairing["player_a"]["id"])))
    for n in range(20):
        response = post(a, f"/pairings/{pairing['id']}/reports/", {"score_a": 3, "score_b": n % 3})
        assert response.status_code == 201, (n, response.json())
    response = post(a, f"/pairings/{pairing['id']}/reports/", {"score_a": 3, "score_b": 0})
    assert response.status_code == 400
    assert response.json() == {"non_field_errors": [
        f"{pairing['slot']} already has 20 reported versions: ask a TD to enter the result."]}
    assert ResultReport.objects.filter(pairing_id=pairing["id"]).count() == 20
    # The TD still rules.
    assert post(staff_api, f"/pairings/{pairing['id']}/override/", {"score_a": 3, "score_b": 2}).status_code == 201


def test_a_pairing_s_reports_come_a_page_at_a_time(client_for, make_user, started, monkeypatch):
    from rest_framework.pagination import PageNumberPagination

    from games.models import Player

    monkeypatch.setattr(PageNumberPagination, "page_size", 5)  # the API's pages hold 50
    _, pairing = started
    a = client_for(make_user(player=Player.objects.get(pk=pairing["player_a"]["id"])))
    for n in range(7):
        assert post(a, f"/pairings/{pairing['id']}/reports/", {"score_a": 3, "score_b": n % 3}).status_code == 201
    first = a.get(f"{API}/pairings/{pairing['id']}/reports/").json()
    assert first["count"] == 7 and [r["version"] for r in first["results"]] == [1, 2, 3, 4, 5]
    second = a.get(first["next"]).json()
    assert [r["version"] for r in second["results"]] == [6, 7] and second["next"] is None


# -- bodies nested too deep ------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [33, 5000, 100_000])
def test_a_body_nested_too_deep_is_refused_with_400(staff_api, started, depth):
    _, pairing = started
    body = "[" * depth + "]" * depth
    response = staff_api.post(f"{API}/pairings/{pairing['id']}/reports/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {
        "detail": "JSON parse error - the body nests arrays and objects more than 32 levels deep."}
    assert not ResultReport.objects.filter(pairing_id=pairing["id"]).exists()


def test_a_body_nested_32_levels_is_read(staff_api):
    body = '{"name": "Deep", "start_date": "2026-12-01", "x": ' + "[" * 31 + "]" * 31 + "}"
    response = staff_api.post(f"{API}/tournaments/", body, content_type="application/json")
    assert response.status_code == 201, response.json()
