"""Malformed numbers, ids and dates on the pages and the API: a clear refusal, nothing changed."""

from datetime import date, datetime, timedelta, timezone as dt_timezone

import pytest
from django.contrib.messages import get_messages
from django.utils import timezone

from games import services as games
from tournaments import services as events
from tournaments.models import Flight, Pairing, PlayerAccount, PlayerClaim, PublicName
from tournaments.services import registration

from .conftest import build_knockout, make_players

pytestmark = pytest.mark.django_db

SUPERSCRIPT_TWO = "²"  # str.isdigit() says yes, int() says no


@pytest.fixture
def draft(td, django_user_model):
    creator = django_user_model.objects.create_user("office", is_staff=True, is_superuser=True)
    tournament = events.tournament_create(name="Sunday Cup", start_date=date(2026, 11, 29), organisers=[td],
                                          by=creator)
    flight = events.flight_create(tournament=tournament, name="Main", format="single_elimination", lengths=[5], by=td)
    return tournament, flight


def _messages(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_a_registration_cap_too_large_for_its_column_is_refused_with_its_reason(client, td, draft):
    tournament, flight = draft
    client.force_login(td)
    response = client.post(f"/events/{tournament.slug}/register/", {
        "flight": flight.pk, "action": "open", "closes": "2026-12-01T10:00", "cap": str(10**20)})
    assert response.status_code == 302
    assert _messages(response) == ["Ensure this value is less than or equal to 2147483647."]
    flight.refresh_from_db()
    assert (flight.registration_closes, flight.registration_cap) == (None, None)


@pytest.mark.parametrize("cap", [SUPERSCRIPT_TWO, "abc", "-1"])
def test_a_registration_cap_that_is_no_number_is_refused(client, td, draft, cap):
    tournament, flight = draft
    client.force_login(td)
    response = client.post(f"/events/{tournament.slug}/register/", {
        "flight": flight.pk, "action": "open", "closes": "2026-12-01T10:00", "cap": cap})
    assert response.status_code == 302 and len(_messages(response)) == 1
    flight.refresh_from_db()
    assert flight.registration_cap is None and flight.registration_closes is None


def test_an_impossible_closing_date_is_refused(client, td, draft):
    tournament, flight = draft
    client.force_login(td)
    response = client.post(f"/events/{tournament.slug}/register/", {
        "flight": flight.pk, "action": "open", "closes": "2026-02-30T10:00", "cap": "8"})
    assert _messages(response) == ["Enter a valid date/time."]
    assert Flight.objects.get(pk=flight.pk).registration_closes is None


@pytest.mark.parametrize("minutes, message", [
    (SUPERSCRIPT_TWO, "Enter a whole number."),
    ("", "Say for how many minutes check-in stays open."),
    (str(10**20), "Ensure this value is less than or equal to 720."),
])
def test_check_in_minutes_that_are_no_number_are_refused(client, td, draft, minutes, message):
    tournament, flight = draft
    client.force_login(td)
    response = client.post(f"/events/{tournament.slug}/check-in/", {"flight": flight.pk, "minutes": minutes})
    assert _messages(response) == [message]
    assert Flight.objects.get(pk=flight.pk).check_in_closes is None


@pytest.mark.parametrize("path", ["check-in", "register"])
@pytest.mark.parametrize("flight", [SUPERSCRIPT_TWO, "", "abc", str(10**20)])
def test_a_flight_id_that_is_no_id_is_a_bad_request(client, td, draft, path, flight):
    tournament, _ = draft
    client.force_login(td)
    response = client.post(f"/events/{tournament.slug}/{path}/", {"flight": flight, "action": "close"})
    assert response.status_code == 400


def test_a_visitor_s_forged_check_in_form_is_a_bad_request(client, draft):
    tournament, _ = draft
    assert client.post(f"/events/{tournament.slug}/check-in/", {"flight": SUPERSCRIPT_TWO}).status_code == 400


@pytest.mark.parametrize("field, value", [("pairing", SUPERSCRIPT_TWO), ("version", SUPERSCRIPT_TWO)])
def test_a_table_call_with_a_malformed_id_is_a_bad_request(client, td, field, value):
    tournament = build_knockout(td, make_players(4), results_rounds=0)
    events.tables_set(tournament=tournament, by=td, count=4, reserved=[])
    pairing = Pairing.objects.filter(flight__tournament=tournament, player_b__isnull=False).order_by("pk").first()
    data = {"action": "table", "pairing": pairing.pk, f"p{pairing.pk}-version": pairing.version,
            f"p{pairing.pk}-table": "2"}
    data[{"pairing": "pairing", "version": f"p{pairing.pk}-version", "table": f"p{pairing.pk}-table"}[field]] = value
    client.force_login(td)
    response = client.post(f"/desk/{tournament.slug}/", data)
    assert response.status_code == 400
    pairing.refresh_from_db()
    assert pairing.table == ""


@pytest.mark.parametrize("table", [SUPERSCRIPT_TWO, str(10**20), "0"])
def test_a_table_that_is_no_table_number_is_refused_with_its_reason(client, td, table):
    tournament = build_knockout(td, make_players(4), results_rounds=0)
    events.tables_set(tournament=tournament, by=td, count=4, reserved=[])
    pairing = Pairing.objects.filter(flight__tournament=tournament, player_b__isnull=False).order_by("pk").first()
    client.force_login(td)
    response = client.post(f"/desk/{tournament.slug}/", {
        "action": "table", "pairing": pairing.pk, f"p{pairing.pk}-version": pairing.version,
        f"p{pairing.pk}-table": table})
    assert _messages(response) == [f"There is no table {table[:20]}: tables run from 1 to 4."]
    pairing.refresh_from_db()
    assert pairing.table == ""


def test_flight_lengths_written_with_a_superscript_are_refused(client, td, draft):
    tournament, flight = draft
    client.force_login(td)
    response = client.post(f"/desk/{tournament.slug}/", {
        "action": "settings", "flight": flight.pk, f"f{flight.pk}-version": flight.version,
        f"f{flight.pk}-lengths": f"5, {SUPERSCRIPT_TWO}", f"f{flight.pk}-seeding": "rating"})
    assert _messages(response) == [
        "Main: Match lengths by round: Write whole numbers separated by commas, for example 7, 7, 9."]
    assert Flight.objects.get(pk=flight.pk).lengths == [5]


@pytest.mark.parametrize("entry", [SUPERSCRIPT_TWO, "", "abc"])
def test_a_player_s_check_in_with_a_malformed_entry_is_a_bad_request(client, td, draft, django_user_model, entry):
    player = make_players(1)[0]
    user = django_user_model.objects.create_user("phone")
    PlayerAccount.objects.create(player=player, user=user)
    client.force_login(user)
    assert client.post("/me/", {"action": "check_in", "entry": entry}).status_code == 400


@pytest.mark.parametrize("field, action", [("player", "claim")])
def test_a_claim_on_a_malformed_player_is_a_bad_request(client, django_user_model, field, action):
    client.force_login(django_user_model.objects.create_user("claimer"))
    assert client.post("/account/", {"action": action, field: SUPERSCRIPT_TWO}).status_code == 400


def test_a_claim_decision_on_a_malformed_claim_is_a_bad_request(client, td):
    client.force_login(td)
    assert client.post("/account/claims/", {"action": "approve", "claim": SUPERSCRIPT_TWO}).status_code == 400


# -- a NUL character in typed text (PostgreSQL stores none) ------------------------------------------

NUL_REFUSED = "Null characters are not allowed."


def test_a_public_name_with_a_nul_character_is_refused_with_its_reason(client, td):
    client.force_login(td)
    response = client.post("/account/", {"action": "public_name", "public_name": "Ruth\x00Okafor"})
    assert (response.status_code, _messages(response)) == (302, [NUL_REFUSED])
    assert not PublicName.objects.exists()


def test_a_claim_with_a_nul_character_in_its_note_is_refused_and_nothing_is_claimed(client, django_user_model):
    player = make_players(1)[0]
    client.force_login(django_user_model.objects.create_user("claimer"))
    response = client.post("/account/", {"action": "claim", "player": player.pk, "note": "It is me\x00"})
    assert (response.status_code, _messages(response)) == (302, [NUL_REFUSED])
    assert not PlayerClaim.objects.exists()


def test_a_claim_refused_with_a_nul_character_in_the_reason_stays_undecided(client, td, django_user_model):
    players = make_players(2)
    build_knockout(td, players, results_rounds=0)
    user = django_user_model.objects.create_user("claimer")
    claim = registration.claim_request(user=user, player=players[0])
    client.force_login(td)
    response = client.post("/account/claims/", {"claim": claim.pk, "action": "refuse", "reason": "Not\x00here"})
    assert (response.status_code, _messages(response)) == (302, [NUL_REFUSED])
    assert PlayerClaim.objects.get(pk=claim.pk).status == "pending"


def test_a_search_for_a_name_with_a_nul_character_finds_nobody(client, django_user_model):
    make_players(1, prefix="Ruth")
    client.force_login(django_user_model.objects.create_user("searcher"))
    response = client.get("/account/", {"q": "Ruth\x00"})
    assert response.status_code == 200
    assert response.context["found"] == []


def test_a_walkover_with_a_nul_character_in_its_reason_is_refused_and_the_match_stays_open(client, td):
    tournament = build_knockout(td, make_players(4), results_rounds=0)
    pairing = Pairing.objects.filter(flight__tournament=tournament, status="pending").order_by("id").first()
    client.force_login(td)
    response = client.post(f"/desk/{tournament.slug}/", {
        "action": "walkover", "pairing": pairing.pk, "winner": pairing.player_a_id,
        f"p{pairing.pk}-version": pairing.version, f"p{pairing.pk}-reason": "No\x00show"})
    assert (response.status_code, _messages(response)) == (302, [NUL_REFUSED])
    pairing.refresh_from_db()
    assert (pairing.status, pairing.walkover_reason) == ("pending", "")


@pytest.mark.parametrize("url, body, field", [
    ("/api/v1/players/", {"name": "Ruth\x00Okafor"}, "name"),
    ("/api/v1/tournaments/", {"name": "Club\x00Night", "start_date": "2026-12-01"}, "name"),
])
def test_a_name_with_a_nul_character_is_refused_by_the_api(staff_api, url, body, field):
    response = staff_api.post(url, body, format="json")
    assert (response.status_code, response.json()) == (400, {field: [NUL_REFUSED]})


def test_a_withdrawal_with_a_nul_character_in_its_reason_is_refused_by_the_api(staff_api, td):
    tournament = build_knockout(td, make_players(4), results_rounds=0)
    entry = tournament.flights.get(name="Main").entries.first()
    staff_api.force_authenticate(td)
    response = staff_api.post(f"/api/v1/entries/{entry.pk}/withdraw/", {"reason": "Ill\x00"}, format="json")
    assert (response.status_code, response.json()) == (400, {"reason": [NUL_REFUSED]})
    entry.refresh_from_db()
    assert entry.status != "withdrawn"


# -- the API --------------------------------------------------------------------------------------


@pytest.mark.parametrize("a", [SUPERSCRIPT_TWO, str(10**20)])
def test_a_prediction_for_a_player_that_is_no_id_is_refused(api, a):
    player = make_players(1)[0]
    response = api.get("/api/v1/ratings/predict/", {"a": a, "b": player.pk, "length": 5})
    assert response.status_code == 400
    assert "a" in response.json()


def test_a_prediction_for_a_length_written_with_a_superscript_is_refused(api):
    a, b = make_players(2)
    response = api.get("/api/v1/ratings/predict/", {"a": a.pk, "b": b.pk, "length": SUPERSCRIPT_TWO})
    assert response.status_code == 400
    assert response.json()["length"] == ["The length is a whole number of points, from 1 to 99."]


def test_matches_played_after_a_moment_with_any_offset_are_compared_in_utc(api):
    a, b = make_players(2)
    match = games.match_create(player_a=a, player_b=b, length=3,
                               played_on=datetime(2026, 11, 19, 12, 0, tzinfo=dt_timezone.utc))
    # 2026-11-20 00:00 at +23:59 is 2026-11-19 00:01 UTC: the match came after it.
    response = api.get("/api/v1/matches/", {"played_after": "2026-11-20T00:00+23:59"})
    assert response.status_code == 200
    assert [row["id"] for row in response.json()["results"]] == [match.pk]
    response = api.get("/api/v1/matches/", {"played_after": "0001-01-01T00:00+23:59"})
    assert response.status_code == 400


@pytest.mark.parametrize("version", [SUPERSCRIPT_TWO, "-1", str(10**20)])
def test_deleting_a_game_with_a_malformed_version_is_refused(staff_api, version):
    a, b = make_players(2)
    match = games.match_create(player_a=a, player_b=b, length=3)
    match = games.game_record(match=match, number=1, game=games.GameInput(winner=0))
    response = staff_api.delete(f"/api/v1/matches/{match.pk}/games/1/?version={version}")
    assert response.status_code == 400
    assert "version" in response.json()
    assert match.games.count() == 1


def test_a_whole_event_runs_with_registration_opened_through_the_form(client, td, draft):
    tournament, flight = draft
    client.force_login(td)
    closes = timezone.localtime(timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    client.post(f"/events/{tournament.slug}/register/", {"flight": flight.pk, "action": "open", "closes": closes,
                                                         "cap": "16"})
    assert Flight.objects.get(pk=flight.pk).registration_cap == 16


def test_a_user_name_longer_than_any_login_is_refused_by_the_form_and_recorded_nowhere(client):
    from axes.models import AccessAttempt

    response = client.post("/login/", {"username": "x" * 5000, "password": "whatever-1"})
    assert response.status_code == 200
    assert "Ensure this value has at most 150 characters (it has 5000)." in response.content.decode()
    assert not AccessAttempt.objects.exists()
