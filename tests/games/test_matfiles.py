"""Match files through the commands and the API: verify, import once, export back."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from games.engine import Position
from games.engine.matfile import verify_match_file
from games.models import Game, Match, MatchFile, Player
from config.shared_data import SHARED_DATA

DATA = SHARED_DATA
MATFILES = DATA / "matfiles"
pytestmark = pytest.mark.skipif(not MATFILES.is_dir(), reason="shared/data/matfiles is not beside the checkout")

CHARLOT = "gnubgparser__charlot1-charlot2_7p_2025-11-08-2305.mat"


def expected(name):
    return json.loads((MATFILES / "expected.json").read_text())["files"][name]


def run(*args):
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_bg_moves_lists_every_legal_play_with_the_position_seen_from_the_mover():
    first = json.loads((DATA / "positions.jsonl").open().readline())
    dice = "".join(map(str, first["dice"]))
    shown = json.loads(run("bg", "moves", first["position_id"], dice, "--json"))
    expected_ids = sorted(Position.from_position_id(r).swap().position_id() for r in first["results"])
    assert sorted(p["position_id"] for p in shown["plays"]) == expected_ids
    assert sorted(p["notation"] for p in shown["plays"]) == sorted(m["notation"] for m in first["moves"])


def test_bg_moves_in_text_shows_the_opening_three_one():
    lines = run("bg", "moves", "4HPwATDgc/ABMA", "31").splitlines()
    assert len(lines) == 16
    assert "8/5 6/5      4HPwATCwZ/ABMA" in lines


def test_bg_moves_refuses_bad_dice_and_ids():
    with pytest.raises(CommandError, match="Dice are two numbers from 1 to 6"):
        run("bg", "moves", "4HPwATDgc/ABMA", "71")
    with pytest.raises(CommandError):
        run("bg", "moves", "not-an-id", "31")


def test_check_mat_reports_results_crawford_game_and_final_score_as_json():
    truth = expected(CHARLOT)
    report = json.loads(run("bg", "check-mat", str(MATFILES / CHARLOT), "--json"))
    assert report["ok"] is True
    assert report["players"] == truth["players"]
    assert report["match_length"] == 7
    assert report["final_score"] == truth["final_score"] == [9, 2]
    assert [g["winner"] for g in report["games"]] == [g["winner"] for g in truth["games"]]
    assert [g["points"] for g in report["games"]] == [g["points"] for g in truth["games"]]
    assert [g["cube"] for g in report["games"]] == [g["final_cube"] for g in truth["games"]]
    assert [g["crawford"] for g in report["games"]] == [g["crawford_game"] for g in truth["games"]]


def test_check_mat_fails_on_an_altered_score_naming_the_game(tmp_path):
    text = (MATFILES / CHARLOT).read_text()
    bad = tmp_path / "bad.mat"
    bad.write_text(text.replace("Wins 2 points", "Wins 3 points", 1))
    with pytest.raises(CommandError) as error:
        run("bg", "check-mat", str(bad), "--json")
    assert error.value.returncode == 1


@pytest.mark.django_db
def test_import_mat_creates_the_match_once():
    path = str(MATFILES / CHARLOT)
    assert "imported as match" in run("import_mat", path)
    assert "already imported" in run("import_mat", path)
    assert Match.objects.count() == 1 and MatchFile.objects.count() == 1
    match = Match.objects.get()
    assert (match.score_a, match.score_b, match.status) == (9, 2, "finished")
    assert match.winner.name == "charlot1"
    assert Game.objects.filter(match=match).count() == 4
    assert all(g.moves for g in Game.objects.filter(match=match))


@pytest.mark.django_db
def test_a_file_that_fails_stores_nothing(tmp_path):
    bad = tmp_path / "bad.mat"
    bad.write_text((MATFILES / CHARLOT).read_text().replace("Wins 2 points", "Wins 3 points", 1))
    with pytest.raises(CommandError, match="1 of 1 file"):
        run("import_mat", str(bad))
    assert (Match.objects.count(), Player.objects.count(), MatchFile.objects.count()) == (0, 0, 0)


@pytest.mark.django_db
def test_uploading_a_match_file_answers_201_then_409(staff_api):
    content = (MATFILES / CHARLOT).read_bytes()
    response = staff_api.post("/api/v1/match-files/", {"file": SimpleUploadedFile("m.mat", content)},
                              format="multipart")
    assert response.status_code == 201, response.data
    assert response.data["score"] == [9, 2]
    assert len(response.data["games"]) == 4
    again = staff_api.post("/api/v1/match-files/", {"file": SimpleUploadedFile("again.mat", content)},
                           format="multipart")
    assert again.status_code == 409
    assert again.data["match"] == response.data["id"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "content,message",
    [
        (b"\x00\x01\x02binary", "This is not a text file"),
        (b"hello, this is a shopping list\n", "This is not a match file Crawford can read"),
    ],
)
def test_uploads_that_are_not_match_files_are_refused_cleanly(staff_api, content, message):
    response = staff_api.post("/api/v1/match-files/", {"file": SimpleUploadedFile("x.mat", content)},
                              format="multipart")
    assert response.status_code == 400
    assert response.data["file"][0].startswith(message)
    assert Match.objects.count() == 0


@pytest.mark.django_db
def test_an_oversized_upload_is_refused(staff_api, settings):
    settings.CRAWFORD_MAX_MATCH_FILE_BYTES = 100
    response = staff_api.post("/api/v1/match-files/",
                              {"file": SimpleUploadedFile("m.mat", (MATFILES / CHARLOT).read_bytes())},
                              format="multipart")
    assert response.status_code == 400
    assert "up to 100 bytes are accepted" in response.data["file"][0]


@pytest.mark.django_db
def test_an_upload_with_an_illegal_play_returns_the_report(staff_api):
    text = (MATFILES / CHARLOT).read_text()
    altered = text.replace("41: 13/9 24/23", "41: 13/9 24/20", 1)
    assert altered != text
    response = staff_api.post("/api/v1/match-files/", {"file": SimpleUploadedFile("m.mat", altered.encode())},
                              format="multipart")
    assert response.status_code == 400
    assert response.data["report"]["errors"][0]["game"] == 1
    assert response.data["report"]["errors"][0]["move"] == 1


@pytest.mark.django_db
def test_anonymous_users_cannot_upload(api):
    response = api.post("/api/v1/match-files/",
                        {"file": SimpleUploadedFile("m.mat", (MATFILES / CHARLOT).read_bytes())}, format="multipart")
    assert response.status_code in (401, 403)


@pytest.mark.django_db
def test_an_imported_match_exports_to_a_file_that_verifies_the_same(api):
    run("import_mat", str(MATFILES / CHARLOT))
    match = Match.objects.get()
    response = api.get(f"/api/v1/matches/{match.pk}/mat/")
    assert response.status_code == 200
    report = verify_match_file(response.content.decode())
    original = verify_match_file((MATFILES / CHARLOT).read_text())
    assert report.ok, report.errors
    assert report.final_score == original.final_score
    assert [(g.winner, g.points, g.crawford) for g in report.games] == [
        (g.winner, g.points, g.crawford) for g in original.games
    ]


@pytest.mark.django_db
def test_a_match_entered_by_hand_exports_with_result_lines_only(api, make_match):
    from games import services

    match = make_match(length=3)
    services.game_record(match=match, number=1, game=services.GameInput(winner=0, kind=2))
    services.game_record(match=match, number=2, game=services.GameInput(winner=1))
    services.game_record(match=match, number=3, game=services.GameInput(winner=0))
    text = api.get(f"/api/v1/matches/{match.pk}/mat/").content.decode()
    report = verify_match_file(text)
    assert report.final_score == (3, 1)
    assert [g.crawford for g in report.games] == [False, True, False]


def test_check_mat_notes_a_last_result_cut_down_to_what_the_match_needed(tmp_path):
    text = (MATFILES / "bglib__tavison-nori-2009Mar052149.txt").read_text()
    assert text.rstrip().endswith("Wins 3 points")
    cut = tmp_path / "cut.mat"
    cut.write_text(text.rstrip()[: -len("Wins 3 points")] + "Wins 1 point\n")
    line = len(text.rstrip().splitlines())
    note = (
        f'game 2 (line {line}): the file says "Wins 1 point", but a backgammon with the cube on 1 is worth 3:'
        " it counts 3, as GNU Backgammon reads it (1 is what tavison (left) needed to win the match)"
    )
    shown = run("bg", "check-mat", str(cut)).splitlines()
    assert f"  NOTE {note}" in shown
    assert shown[-1] == "  Every play is legal and every result agrees with the rules."
    report = json.loads(run("bg", "check-mat", str(cut), "--json"))
    assert (report["ok"], report["final_score"]) == (True, expected("bglib__tavison-nori-2009Mar052149.txt")["final_score"])
    assert [n["text"] for n in report["notes"]] == [note]
    assert json.loads(run("bg", "check-mat", str(MATFILES / CHARLOT), "--json"))["notes"] == []


# -- the rules a file was checked under are the rules of the match it makes ------------------------

from tests.games.engine.test_matfile_gnubg_files import (
    BEAVERS_AND_RACCOONS,
    JACOBY_BACKGAMMON,
    NACKGAMMON_LONG_NAMES,
    NO_CRAWFORD,
)

# The Jacoby session from its first game: root's centred backgammon counts 1, as the next score line says.
JACOBY_SESSION = (
    JACOBY_BACKGAMMON.replace("Game 8", "Game 1").replace("root : 7", "root : 0")
    .replace("Game 9", "Game 2").replace("root : 8", "root : 1")
)


def write_mat(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def exported(api, match):
    return verify_match_file(api.get(f"/api/v1/matches/{match.pk}/mat/").content.decode())


@pytest.mark.django_db
def test_a_match_without_the_crawford_rule_is_imported_as_one_and_exports_so(tmp_path, api):
    assert "imported as match" in run("import_mat", write_mat(tmp_path, "nc.mat", NO_CRAWFORD))
    match = Match.objects.get()
    assert (match.kind, match.length, match.crawford_rule, match.crawford_game, match.post_crawford) == (
        "match", 3, False, None, False)
    assert (match.score_a, match.score_b, match.status) == (2, 1, "in_progress")
    assert list(match.games.values_list("number", "winner", "end", "cube", "points", "crawford")) == [
        (1, 0, "resigned", 1, 2, False), (2, 1, "double_refused", 1, 1, False)]
    report = exported(api, match)
    assert (report.ok, report.crawford_game, report.final_score) == (True, None, (2, 1))


@pytest.mark.django_db
def test_the_crawford_rule_off_is_refused_for_a_session(make_player):
    from django.core.exceptions import ValidationError

    from games import services

    with pytest.raises(ValidationError) as refused:
        services.match_create(player_a=make_player(), player_b=make_player(), kind="session", crawford_rule=False)
    assert refused.value.message_dict == {"crawford_rule": ["The Crawford rule belongs to match play: a session has none."]}


@pytest.mark.django_db
def test_a_jacoby_money_session_is_imported_with_the_jacoby_rule(tmp_path, api):
    assert verify_match_file(JACOBY_SESSION).ok
    assert "imported as match" in run("import_mat", write_mat(tmp_path, "jacoby.mat", JACOBY_SESSION))
    match = Match.objects.get()
    assert (match.kind, match.length, match.jacoby, match.beavers, match.raccoons) == ("session", 0, True, True, True)
    assert (match.score_a, match.score_b, match.status) == (0, 1, "in_progress")
    game = match.games.get()
    assert (game.winner, game.end, game.kind, game.cube, game.points) == (1, "played_out", 3, 1, 1)
    report = exported(api, match)
    assert (report.ok, report.final_score) == (True, (0, 1))


@pytest.mark.django_db
def test_a_session_with_the_beaver_tag_off_allows_no_beavers(tmp_path):
    text = '; [Beaver "Off"]\n; [Jacoby "Off"]\n' + JACOBY_SESSION.replace("root : 1", "root : 3")
    run("import_mat", write_mat(tmp_path, "nobeavers.mat", text))
    match = Match.objects.get()
    assert (match.jacoby, match.beavers, match.raccoons, match.score_b) == (False, False, False, 3)


@pytest.mark.django_db
def test_beavers_and_raccoons_of_a_money_session_are_kept(tmp_path):
    run("import_mat", write_mat(tmp_path, "beavers.mat", BEAVERS_AND_RACCOONS))
    match = Match.objects.get()
    game = match.games.get()
    assert (match.beavers, match.raccoons, match.score_b) == (True, True, 32)
    assert (game.cube, game.cube_owner, game.beavered, game.raccooned, game.points) == (16, 0, True, True, 32)


@pytest.mark.django_db
def test_a_nackgammon_match_is_stored_as_nackgammon_and_exports_a_file_that_verifies(tmp_path, api):
    run("import_mat", write_mat(tmp_path, "nack.mat", NACKGAMMON_LONG_NAMES))
    match = Match.objects.get()
    assert (match.variation, match.score_a, match.score_b, match.status) == ("nackgammon", 0, 4, "finished")
    report = exported(api, match)
    assert report.ok, report.errors
    assert [(g.winner, g.points) for g in report.games] == [(1, 4)]
    detail = api.get(f"/api/v1/matches/{match.pk}/").json()
    assert (detail["variation"], detail["crawford_rule"]) == ("nackgammon", True)


# -- a batch of files ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_one_bad_file_never_stops_the_batch_and_the_report_names_each_file(tmp_path):
    good = str(MATFILES / CHARLOT)
    run("import_mat", good)
    bad = write_mat(tmp_path, "bad.mat", (MATFILES / CHARLOT).read_text().replace("Wins 2 points", "Wins 3 points", 1))
    nack = write_mat(tmp_path, "nack.mat", NACKGAMMON_LONG_NAMES)
    missing = str(tmp_path / "missing.mat")
    out, err = StringIO(), StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("import_mat", good, bad, missing, nack, stdout=out, stderr=err)
    assert failed.value.returncode == 1
    assert str(failed.value) == f"2 of 4 files not imported: {bad}, {missing}"
    lines = out.getvalue().splitlines()
    nack_match = Match.objects.get(variation="nackgammon")
    assert lines == [
        f"{good}: already imported as match {Match.objects.get(variation='backgammon').pk}; nothing added",
        f"{nack}: imported as match {nack_match.pk} (0–4)",
        "4 files: 1 imported, 1 already there, 2 failed.",
    ]
    assert err.getvalue().splitlines()[:2] == [
        f"{bad}: not imported", "  game 1 (line 31): with the cube on 2 a resignation is worth 2, 4 or 6 points, not 3"]
    assert f"{missing}: not imported\n  No such file: {missing}" in err.getvalue()
    assert Match.objects.count() == 2


@pytest.mark.django_db
def test_a_file_naming_a_player_several_players_share_fails_alone(tmp_path, make_player):
    make_player(name="2Fast", club="North")
    make_player(name="2Fast", club="South", confirm_duplicate=True)
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("import_mat", write_mat(tmp_path, "nack.mat", NACKGAMMON_LONG_NAMES), stdout=StringIO(),
                     stderr=err)
    assert "Several players are named 2Fast: the file cannot say which one." in err.getvalue()
    assert Match.objects.count() == 0 and Player.objects.count() == 2


# -- large match files import in the background ------------------------------------------------------


def upload_mat(client, text, name="m.mat"):
    return client.post("/api/v1/match-files/", {"file": SimpleUploadedFile(name, text.encode())}, format="multipart")


@pytest.mark.django_db
def test_a_file_over_the_threshold_answers_202_with_a_job_that_stores_the_match(
    staff_api, settings, django_capture_on_commit_callbacks, django_assert_num_queries
):
    text = (MATFILES / CHARLOT).read_text()
    settings.CRAWFORD_MATCH_FILE_JOB_BYTES = len(text.encode()) - 1
    with django_capture_on_commit_callbacks(execute=True):
        accepted = upload_mat(staff_api, text)
    assert accepted.status_code == 202
    with django_assert_num_queries(1):  # the job (force_authenticate needs no query)
        job = staff_api.get(accepted["Location"]).json()
    match = Match.objects.get()
    assert (job["kind"], job["status"], job["rows_done"], job["rows_total"], job["errors"]) == (
        "match_file", "done", 4, 4, [])
    assert job["result"] == {"match": match.pk, "created": True, "score": [9, 2], "status": "finished"}
    assert job["attempts"] == 1 and job["stalled"] is False
    with django_capture_on_commit_callbacks(execute=True):
        again = upload_mat(staff_api, text, name="again.mat")
    assert staff_api.get(again["Location"]).json()["result"] == {
        "match": match.pk, "created": False, "score": [9, 2], "status": "finished"}
    assert Match.objects.count() == 1


@pytest.mark.django_db
def test_a_background_file_with_an_illegal_play_fails_with_its_errors_by_line(
    staff_api, settings, django_capture_on_commit_callbacks
):
    settings.CRAWFORD_MATCH_FILE_JOB_BYTES = 10
    altered = (MATFILES / CHARLOT).read_text().replace("41: 13/9 24/23", "41: 13/9 24/20", 1)
    with django_capture_on_commit_callbacks(execute=True):
        accepted = upload_mat(staff_api, altered)
    job = staff_api.get(accepted["Location"]).json()
    assert job["status"] == "failed"
    assert job["errors"][0]["line"] == verify_match_file(altered).errors[0].line
    assert job["errors"][0]["problem"].startswith("game 1, move 1 (line ")
    assert Match.objects.count() == 0


@pytest.mark.django_db
def test_the_job_page_shows_a_progress_bar_to_staff_only(
    staff, client, settings, django_capture_on_commit_callbacks, django_assert_num_queries
):
    from games.models import ImportJob

    settings.CRAWFORD_MATCH_FILE_JOB_BYTES = 10
    client.force_login(staff)
    queued = ImportJob.objects.create(kind="results", name="league.csv", text="x", status="running",
                                      rows_total=100_000, rows_done=25_000, heartbeat_at=timezone_now())
    with django_assert_num_queries(3):  # session, user, job
        page = client.get(f"/matches/imports/{queued.pk}/").content.decode()
    assert f'<progress class="progress" id="import-{queued.pk}" max="100000" value="25000">' in page
    assert "Running: 25000 of 100000 rows stored" in page
    assert f'data-poll="/matches/imports/{queued.pk}/"' in page
    fragment = client.get(f"/matches/imports/{queued.pk}/", HTTP_X_REQUESTED_WITH="fetch").content.decode()
    assert fragment.lstrip().startswith('<div class="field">') and "data-poll-stop" not in fragment
    text = (MATFILES / CHARLOT).read_text()
    api = APIClient()
    api.force_authenticate(staff)
    with django_capture_on_commit_callbacks(execute=True):
        job_id = upload_mat(api, text).json()["id"]
    done = client.get(f"/matches/imports/{job_id}/").content.decode()
    assert "Done: 4 of 4 games stored" in done and "data-poll-stop" in done
    assert f'<a href="/matches/{Match.objects.get().pk}/">match {Match.objects.get().pk}</a>, score 9–2' in done
    client.logout()
    assert client.get(f"/matches/imports/{job_id}/").status_code == 302


def timezone_now():
    from django.utils import timezone

    return timezone.now()


from rest_framework.test import APIClient


# -- a corrected game is the corrected game --------------------------------------------------------


@pytest.mark.django_db
def test_a_correction_without_moves_drops_the_earlier_moves_and_the_export_says_so(api):
    from games import services

    run("import_mat", str(MATFILES / CHARLOT))
    match = Match.objects.get()
    first = match.games.get(number=1)
    assert first.moves, "the file gives game 1 its moves"
    assert (first.winner, first.points) == (1, 2)
    corrected = services.GameInput(winner=1, kind=1, cube=1)
    services.game_correct(match=match, number=1, game=corrected, reason="slip misread")
    first.refresh_from_db()
    assert first.moves is None
    assert first.history.order_by("-history_id")[0].moves is None  # the newest version
    assert first.history.order_by("history_id")[0].moves  # the first version keeps what the file said
    text = api.get(f"/api/v1/matches/{match.pk}/mat/").content.decode()
    assert '; [Note "Game 1 was entered without its moves: only its result is written"]' in text.splitlines()
    report = verify_match_file(text)
    assert report.ok, report.errors
    assert [(g.winner, g.points, g.crawford) for g in report.games] == [
        (1, 1, False), (0, 2, False), (0, 4, False), (0, 3, True)
    ]
    assert report.final_score == (9, 1)


@pytest.mark.django_db
def test_a_correction_keeps_the_later_games_moves_while_their_crawford_standing_holds(make_match):
    from games import services

    match = make_match(length=5)
    moves = [{"type": "roll", "side": 0, "dice": [3, 1], "steps": [[8, 5], [6, 5]], "line": 1}]
    services.game_record(match=match, number=1, game=services.GameInput(winner=0, moves=moves))
    services.game_record(match=match, number=2, game=services.GameInput(winner=1, moves=moves))
    services.game_correct(match=match, number=1, game=services.GameInput(winner=0, kind=2), reason="a gammon")
    games = {g.number: g for g in match.games.all()}
    assert games[1].moves is None
    assert games[2].moves == moves
    assert (games[1].points, match.__class__.objects.get(pk=match.pk).score_a) == (2, 2)
