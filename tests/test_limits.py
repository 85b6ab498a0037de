"""Limits: brute force on logins and tokens, bounded text, capped report versions, nested bodies
and malformed ids answered with 400, never 500."""

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db

LOCKED = ("After 5 wrong passwords in a row for <strong>anna</strong>, logging in as anna from here is locked: try "
          "again in 15 minutes.\nUntil then even the right password is refused. Other logins are not held up.")


@pytest.fixture
def anna(db):
    return get_user_model().objects.create_user("anna", password="the-right-password-1", is_staff=True, is_superuser=True)


def login(client, password, url="/login/"):
    return client.post(url, {"username": "anna", "password": password})


# -- brute force on the login page and the admin --------------------------------------------------


def test_the_sixth_wrong_login_is_locked_out_with_a_clear_message(client, anna):
    for _ in range(4):
        response = login(client, "wrong")
        assert response.status_code == 200
        assert "Please enter a correct username and password" in response.content.decode()
    assert login(client, "wrong").status_code == 429  # the fifth wrong one says so at once
    response = login(client, "wrong")
    assert response.status_code == 429
    html = response.content.decode()
    assert LOCKED in html


def test_the_right_password_stays_locked_until_the_cool_off_has_passed(client, anna, settings):
    for _ in range(6):
        login(client, "wrong")
    response = login(client, "the-right-password-1")
    assert response.status_code == 429 and "_auth_user_id" not in client.session
    from axes.models import AccessAttempt

    # Fifteen minutes later (the attempt's time moved back) the right password opens it again.
    from datetime import timedelta

    from django.utils import timezone

    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    response = login(client, "the-right-password-1")
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(anna.pk)


def test_a_hundred_wrong_passwords_leave_the_101st_try_locked(client, anna):
    codes = [login(client, f"guess-{n}").status_code for n in range(100)]
    assert codes[:4] == [200] * 4 and set(codes[4:]) == {429}
    assert login(client, "the-right-password-1").status_code == 429


def test_the_admin_login_is_locked_out_too(client, anna):
    for _ in range(4):
        assert login(client, "wrong", "/admin/login/").status_code == 200
    assert login(client, "wrong", "/admin/login/").status_code == 429
    assert login(client, "wrong", "/admin/login/").status_code == 429
    assert login(client, "the-right-password-1", "/admin/login/").status_code == 429


def test_another_address_is_not_locked_out_by_someone_else_s_guesses(client, anna):
    for _ in range(6):
        login(client, "wrong")
    response = client.post("/login/", {"username": "anna", "password": "the-right-password-1"},
                           REMOTE_ADDR="10.1.2.3")
    assert response.status_code == 302


def test_a_correct_login_resets_the_count(client, anna):
    for _ in range(4):
        login(client, "wrong")
    assert login(client, "the-right-password-1").status_code == 302
    client.logout()
    for _ in range(4):
        assert login(client, "wrong").status_code == 200
    assert login(client, "the-right-password-1").status_code == 302


# -- brute force on API tokens --------------------------------------------------------------------


def test_wrong_tokens_answer_429_past_the_throttle_and_the_right_one_still_works(api, anna):
    cache.clear()
    token = Token.objects.create(user=anna)
    codes = []
    for n in range(12):
        api.credentials(HTTP_AUTHORIZATION=f"Token {'0' * 39}{n % 10}")
        codes.append(api.get("/api/v1/players/").status_code)
    # 403: the API names no login scheme to a browser (session first), so refusals are 403, not 401.
    assert codes == [403] * 10 + [429, 429]
    response = api.get("/api/v1/players/")
    assert response.json()["detail"].startswith("Too many wrong tokens from your address: wait a while")
    assert int(response["Retry-After"]) > 0
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api.get("/api/v1/players/").status_code == 200


def test_the_right_token_from_another_address_still_works(api, anna):
    token = Token.objects.create(user=anna)
    for n in range(11):
        api.credentials(HTTP_AUTHORIZATION=f"Token wrong{n}")
        api.get("/api/v1/players/")
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api.get("/api/v1/players/", REMOTE_ADDR="10.9.9.9").status_code == 200


def test_the_address_behind_trusted_proxies_is_the_one_the_proxy_saw(api, anna, settings):
    settings.NUM_PROXIES = 1
    for n in range(10):
        api.credentials(HTTP_AUTHORIZATION=f"Token wrong{n}")
        # A client may prepend what it likes: the proxy's own entry (the last) is the one read.
        api.get("/api/v1/players/", HTTP_X_FORWARDED_FOR=f"1.1.1.{n}, 203.0.113.7")
    assert api.get("/api/v1/players/", HTTP_X_FORWARDED_FOR="203.0.113.7").status_code == 429
    assert api.get("/api/v1/players/", HTTP_X_FORWARDED_FOR="203.0.113.8").status_code == 403


# -- exports: CSV without formulas, iCalendar by RFC 5545 -----------------------------------------


@pytest.fixture
def event(db, make_player, make_user):
    """A knockout of four: Anna (a player with a login) reported 3-1 against Bo, who disputed it."""
    from datetime import date

    from tournaments import services as events
    from tournaments.models import Pairing

    staff = get_user_model().objects.create_user("office", is_staff=True, is_superuser=True)
    td = get_user_model().objects.create_user("director")
    tournament = events.tournament_create(name="Open", start_date=date(2026, 11, 20), organisers=[td], by=staff,
                                          venue="Hotel; Bar, \\Room 2\r\nFloor 3")
    flight = events.flight_create(tournament=tournament, name="Main", format="single_elimination", lengths=[3, 3],
                                  by=staff)
    names = ["=HYPERLINK(\"http://evil\")", "+SUM(A1)", "-2+3", "@cmd"]
    players = [make_player(name, club="+club" if n == 0 else "") for n, name in enumerate(names)]
    for seed, player in enumerate(players, start=1):
        events.entry_check_in(entry=events.entry_add(flight=flight, player=player, seed=seed, by=staff), by=staff)
    events.flight_start(flight=flight, first_round=[[players[0].pk, players[1].pk], [players[2].pk, players[3].pk]],
                        by=staff)
    pairing = Pairing.objects.get(flight=flight, player_a=players[0])
    anna, bo = make_user("anna-login", player=players[0]), make_user("bo-login", player=players[1])
    report = events.result_report(pairing=pairing, by=anna, score_a=3, score_b=1)
    events.result_dispute(report=report, by=bo, reason="It was 3-2 and I won the last game")
    return {"tournament": tournament, "flight": flight, "pairing": pairing, "report": report, "td": td,
            "staff": staff, "anna": anna, "bo": bo, "players": players}


def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised():
    from config.exports import csv_cell

    assert [csv_cell(v) for v in ["=1+1", "+1", "-1", "@A1", "\tx", "\rx", "Anna", "", 7, -3]] == [
        "'=1+1", "'+1", "'-1", "'@A1", "'\tx", "'\rx", "Anna", "", 7, -3]


def test_entries_and_results_csv_write_no_formula(api, event):
    import csv
    import io

    slug = event["tournament"].slug
    entries = list(csv.reader(io.StringIO(api.get(f"/api/v1/tournaments/{slug}/entries.csv").content.decode())))
    assert [row[3:6] for row in entries[1:]] == [
        ["'=HYPERLINK(\"http://evil\")", "", "'+club"], ["'+SUM(A1)", "", ""], ["'-2+3", "", ""], ["'@cmd", "", ""]]
    results = list(csv.reader(io.StringIO(api.get(f"/api/v1/tournaments/{slug}/results.csv").content.decode())))
    assert [row[4:6] for row in results[1:3]] == [["'=HYPERLINK(\"http://evil\")", "'+SUM(A1)"],
                                                   ["'-2+3", "'@cmd"]]


def test_the_calendar_escapes_text_and_folds_long_lines(api, event):
    from datetime import datetime, timezone

    from tournaments import services as events
    from tournaments.models import Round

    tournament = event["tournament"]
    tournament.name = "The very long name of the annual open championship of the club, with a; semicolon"
    tournament.save()
    events.schedule_round(round=Round.objects.get(flight=event["flight"], number=1),
                          starts_at=datetime(2026, 11, 20, 10, tzinfo=timezone.utc), by=event["staff"])
    text = api.get(f"/api/v1/tournaments/{tournament.slug}/schedule.ics").content.decode()
    raw_lines = text.split("\r\n")
    assert raw_lines[-1] == "" and all(len(line.encode()) <= 75 for line in raw_lines)
    assert "\r" not in text.replace("\r\n", "") and "\n" not in text.replace("\r\n", "")
    unfolded = text.replace("\r\n ", "")
    assert "LOCATION:Hotel\\; Bar\\, \\\\Room 2\\nFloor 3\r\n" in unfolded
    assert ("SUMMARY:The very long name of the annual open championship of the club\\, with a\\; semicolon\r\n"
            in unfolded)
    name_at = next(n for n, line in enumerate(raw_lines) if line.startswith("X-WR-CALNAME:"))
    assert len(raw_lines[name_at].encode()) == 75 and raw_lines[name_at + 1].startswith(" ")


# -- privacy: login names and dispute reasons -----------------------------------------------------

# Who reported and who disputed, by the names they show (their players'), never their login names.
PRIVATE = {"submitted_by": '=HYPERLINK("http://evil")', "confirmed_by": None, "disputed_by": "+SUM(A1)",
           "dispute_reason": "It was 3-2 and I won the last game"}
HIDDEN = dict.fromkeys(PRIVATE)


def private_fields(report: dict) -> dict:
    return {key: report[key] for key in PRIVATE}


def report_views(client, event) -> list[dict]:
    pairing = event["pairing"].pk
    return [
        client.get(f"/api/v1/result-reports/{event['report'].pk}/").json(),
        *client.get("/api/v1/result-reports/").json()["results"],
        *client.get("/api/v1/result-reports/", {"status": "disputed"}).json()["results"],
        *client.get(f"/api/v1/pairings/{pairing}/reports/").json()["results"],
    ]


def test_anonymous_readers_see_no_login_names_or_dispute_reasons(api, event):
    views = report_views(api, event)
    assert len(views) == 4 and all(private_fields(view) == HIDDEN for view in views)
    assert views[0]["score_a"] == 3 and views[0]["status"] == "disputed"


def test_a_login_that_is_not_of_the_event_sees_them_neither(client_for, make_user, event):
    views = report_views(client_for(make_user("someone")), event)
    assert all(private_fields(view) == HIDDEN for view in views)


@pytest.mark.parametrize("who", ["td", "staff", "anna", "bo"])
def test_tds_staff_and_the_two_players_see_them(client_for, event, who):
    views = report_views(client_for(event[who]), event)
    assert all(private_fields(view) == PRIVATE for view in views)


def test_a_match_history_shows_who_and_why_only_to_those_who_may_see_it(api, client_for, make_user, staff,
                                                                        make_match):
    from games import services as games

    match = make_match(length=3)
    games.game_record(match=match, number=1, game=games.GameInput(winner=0), by=staff)
    url = f"/api/v1/matches/{match.pk}/history/"
    assert {(e["by"], e["reason"]) for e in api.get(url).json()} == {(None, None)}
    assert {(e["by"], e["reason"]) for e in client_for(make_user("nosy")).get(url).json()} == {(None, None)}
    assert "Tournament director" in {e["by"] for e in client_for(staff).get(url).json()}  # no name chosen
    player = make_user("player-a", player=match.player_a)
    assert "Tournament director" in {e["by"] for e in client_for(player).get(url).json()}


def test_the_td_of_the_event_sees_who_changed_its_match(client_for, event):
    from tournaments import services as events

    pairing = events.pairing_start(pairing=event["pairing"], by=event["td"])
    url = f"/api/v1/matches/{pairing.match_id}/history/"
    assert "Tournament director" in {e["by"] for e in client_for(event["td"]).get(url).json()}
    other = get_user_model().objects.create_user("other-td")
    assert {e["by"] for e in client_for(other).get(url).json()} == {None}


# -- a player's own page: forged ids and versions -------------------------------------------------


@pytest.fixture
def my_page(client, event):
    client.force_login(event["bo"])
    return client


@pytest.mark.parametrize("value", ["abc", "1.5", "1e3", "", " ", "-1", "9" * 30, "1\x00"])
@pytest.mark.parametrize("field", ["pairing", "version"])
def test_a_report_with_a_malformed_id_or_version_answers_400(my_page, event, field, value):
    from tournaments.models import ResultReport

    pairing = event["pairing"]
    body = {"action": "report", "pairing": pairing.pk, f"p{pairing.pk}-version": pairing.version,
            f"p{pairing.pk}-score_a": 3, f"p{pairing.pk}-score_b": 0}
    body["pairing" if field == "pairing" else f"p{pairing.pk}-version"] = value
    response = my_page.post("/me/", body)
    assert response.status_code == 400
    assert ResultReport.objects.filter(pairing=pairing).count() == 1


@pytest.mark.parametrize("action", ["confirm", "dispute"])
@pytest.mark.parametrize("value", ["abc", "1.5", "1e3", ""])
def test_an_answer_to_a_report_with_a_malformed_id_answers_400(my_page, event, action, value):
    from tournaments.models import ResultReport

    response = my_page.post("/me/", {"action": action, "report": value, f"r{value}-reason": "wrong"})
    assert response.status_code == 400
    assert ResultReport.objects.get(pk=event["report"].pk).status == "disputed"


def test_an_id_of_someone_else_s_match_is_not_found(my_page, event):
    from tournaments.models import Pairing

    other = Pairing.objects.filter(flight=event["flight"]).exclude(pk=event["pairing"].pk).first()
    response = my_page.post("/me/", {"action": "report", "pairing": other.pk, f"p{other.pk}-version": 0,
                                     f"p{other.pk}-score_a": 3, f"p{other.pk}-score_b": 0})
    assert response.status_code == 404


def test_a_forged_anchor_does_not_break_the_answer(my_page, event):
    response = my_page.post("/me/", {"action": "confirm", "report": event["report"].pk,
                                     "anchor": "x\r\nSet-Cookie: a=b"})
    assert response.status_code == 302 and response["Location"] == "/me/#xSet-Cookieab"


# -- the same record twice: the database decides, the later request gets 409 and the record ------


def test_a_second_player_with_a_federation_id_already_held_gets_409_naming_the_holder(staff_api):
    from games.models import Player

    first = staff_api.post("/api/v1/players/", {"name": "Anna Berg", "federation_id": "DK-123"}, format="json")
    assert first.status_code == 201
    second = staff_api.post("/api/v1/players/", {"name": "Bo Holm", "federation_id": "DK-123"}, format="json")
    assert second.status_code == 409
    holder = first.json()["id"]
    assert second.json() == {
        "detail": f"Federation id DK-123 belongs to player {holder} (Anna Berg).",
        "existing": {"id": holder, "url": f"http://testserver/api/v1/players/{holder}/"}}
    assert Player.objects.count() == 1


def test_a_second_tournament_at_an_address_already_taken_gets_409_naming_it(staff_api):
    from tournaments.models import Tournament

    body = {"name": "Nordic Open", "start_date": "2026-12-01"}
    assert staff_api.post("/api/v1/tournaments/", body, format="json").status_code == 201
    second = staff_api.post("/api/v1/tournaments/", {**body, "venue": "Elsewhere"}, format="json")
    assert second.status_code == 409
    first = Tournament.objects.get()
    assert second.json() == {
        "detail": 'The address "nordic-open-2026" is taken by another tournament (Nordic Open); choose another.',
        "existing": {"id": first.pk, "url": "http://testserver/api/v1/tournaments/nordic-open-2026"}}


def test_a_twin_without_confirm_duplicate_is_still_refused_with_400(staff_api):
    assert staff_api.post("/api/v1/players/", {"name": "Anna Berg", "club": "Aarhus"}, format="json").status_code == 201
    response = staff_api.post("/api/v1/players/", {"name": "anna  berg", "club": "AARHUS"}, format="json")
    assert response.status_code == 400
    assert response.json()["name"][0].startswith("Anna Berg of AARHUS is already player")


def test_confirmed_twins_are_numbered_and_all_kept(staff_api):
    from games.models import Player

    for _ in range(3):
        response = staff_api.post("/api/v1/players/", {"name": "Anna Berg", "confirm_duplicate": True}, format="json")
        assert response.status_code == 201
    assert list(Player.objects.order_by("id").values_list("twin", flat=True)) == [0, 1, 2]


def test_the_database_refuses_a_twin_that_slipped_past_the_check():
    """What a request that lost the race meets: the constraint, then a 409 with the player there."""
    from games import services
    from games.models import Player
    from games.services import players
    from config.errors import ConflictError

    anna = services.player_create(name="Anna Berg", club="Aarhus")
    twin = Player(name="ANNA BERG", club="aarhus")
    with pytest.raises(ConflictError) as refused:
        players._save_player(twin)
    assert refused.value.existing == anna
    assert str(refused.value) == (f"Anna Berg was added as player {anna.pk} at the same moment: check that it is not "
                                  "the same person before adding another.")


def test_renaming_a_player_into_a_twin_keeps_both(make_player):
    from games import services

    anna = make_player("Anna Berg")
    other = make_player("Anna Borg")
    renamed = services.player_update(player=other, name="anna berg")
    assert (renamed.name, renamed.twin, anna.twin) == ("anna berg", 1, 0)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(__import__("django.db").db.connection.vendor != "postgresql",
                    reason="needs two PostgreSQL transactions at once (CI runs it)")
@pytest.mark.parametrize("url, body", [
    ("/api/v1/tournaments/", {"name": "Race Open", "start_date": "2026-12-01"}),
    ("/api/v1/players/", {"name": "Racer", "federation_id": "DK-777"}),
    ("/api/v1/players/", {"name": "Racer Twin", "club": "Club"}),
])
def test_two_requests_creating_the_same_record_at_once_give_one_record_and_no_500(url, body):
    import threading

    from django.db import connections
    from rest_framework.test import APIClient

    from games.models import Player
    from tournaments.models import Tournament

    staff = get_user_model().objects.create_user("racer-staff", is_staff=True, is_superuser=True)
    for attempt in range(4):
        Tournament.objects.all().delete()
        Player.objects.all().delete()
        barrier, answers = threading.Barrier(2), []

        def send():
            client = APIClient()
            client.force_authenticate(staff)
            barrier.wait()
            try:
                answers.append(client.post(url, body, format="json"))
            finally:
                connections.close_all()

        threads = [threading.Thread(target=send) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        codes = sorted(answer.status_code for answer in answers)
        assert codes in ([201, 409], [201, 400]), codes
        created = (Tournament if "tournaments" in url else Player).objects.get()
        loser = next(answer for answer in answers if answer.status_code != 201).json()
        if codes == [201, 409]:
            assert loser["existing"]["id"] == created.pk


def test_code_that_logs_in_without_a_request_is_not_counted_nor_locked(client, anna):
    for _ in range(6):
        assert not client.login(username="anna", password="wrong")
    assert client.login(username="anna", password="the-right-password-1")


def test_reading_reports_as_a_td_takes_the_same_queries_for_few_and_many(client_for, event):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments import services as events

    pairing = event["pairing"]

    def queries():
        counts = []
        for url in (f"/api/v1/pairings/{pairing.pk}/reports/", "/api/v1/result-reports/"):
            td = client_for(get_user_model().objects.get(pk=event["td"].pk))  # as a new request loads it
            with CaptureQueriesContext(connection) as captured:
                assert td.get(url).status_code == 200
            counts.append(len(captured))
        return counts

    few = queries()
    for n in range(6):
        events.result_report(pairing=pairing, by=event["anna"], score_a=3, score_b=n % 3)
    assert queries() == few
