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

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
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
