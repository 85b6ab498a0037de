"""A stored match file is analysed by GNU Backgammon and its figures show on the API and the pages."""

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.utils import timezone

from analysis import gnubg, services
from analysis.models import AnalysisStatus, MatchAnalysis
from games.models import Match
from config.shared_data import SHARED_DATA
from tests.support import GNUBG_EQUITY_TOLERANCE, GNUBG_PR_TOLERANCE, stored_prs

MATFILES = SHARED_DATA / "matfiles"
SAMPLE = MATFILES / "bglib__1857896.txt"
pytestmark = [
    pytest.mark.analysis,
    pytest.mark.slow,  # GNU Backgammon analyses a file for most tests
    pytest.mark.gnubg,
    pytest.mark.skipif(gnubg.find_program() is None, reason="GNU Backgammon (gnubg) is not installed"),
    pytest.mark.skipif(not SAMPLE.exists(), reason="the shared match files are not beside the repository"),
]


@pytest.fixture
def upload(staff_api, django_capture_on_commit_callbacks):
    """Upload a match file as staff; what the upload queues on commit runs (tasks are eager)."""

    def send(text: str, name: str = "m.mat") -> Match:
        with django_capture_on_commit_callbacks(execute=True):
            response = staff_api.post("/api/v1/match-files/", {"file": SimpleUploadedFile(name, text.encode())},
                                      format="multipart")
        assert response.status_code == 201, response.json()
        return Match.objects.get(pk=response.json()["id"])

    return send


@pytest.fixture
def uploaded(upload):
    return upload(SAMPLE.read_text())


def test_an_uploaded_match_file_is_analysed_with_both_players_figures(uploaded, api):
    body = api.get(f"/api/v1/matches/{uploaded.pk}/analysis/").json()
    assert body["status"] == "done" and body["plies"] == 0 and body["available"] is True
    bgnori, i1awin = body["players"]
    assert (bgnori["player_name"], i1awin["player_name"]) == ("bgnori", "i1awin")
    # GNU Backgammon prints: chequer -9.4 / -41.2, cube -53.9 / -79.7, overall -14.4 / -53.0 mEMG.
    assert [round(p["chequer_error_rate"], 1) for p in body["players"]] == [9.4, 41.2]
    assert [round(p["cube_error_rate"], 1) for p in body["players"]] == [53.9, 79.7]
    assert [round(p["error_rate"], 1) for p in body["players"]] == [14.4, 53.0]
    assert [p["pr"] for p in body["players"]] == pytest.approx([7.22, 26.5], abs=GNUBG_PR_TOLERANCE)
    assert [p["pr"] for p in body["players"]] == stored_prs(uploaded)
    assert [(p["doubtful"], p["bad"], p["very_bad"]) for p in body["players"]] == [(4, 3, 2), (13, 7, 6)]
    assert [round(p["luck"], 3) for p in body["players"]] == [1.644, 1.811]
    assert [round(p["luck_adjusted_result"] * 100, 2) for p in body["players"]] == [49.47, -49.47]
    # The worst decision is a cube decision: GNU Backgammon's "Alert: wrong take (-0.803)!" in game 2.
    take, play = body["worst"][:2]
    assert {k: take[k] for k in ("rank", "side", "game", "move", "kind", "cube", "dice", "played", "best", "skill",
                                 "position_id", "match_id")} == {
        "rank": 1, "side": 1, "game": 2, "move": 10, "kind": "cube", "cube": 1, "dice": "", "played": "Take",
        "best": "Pass", "skill": "very bad", "position_id": "2syYAShsm4UJIA", "match_id": "MBmgABAAAAAE"}
    assert take["equity_lost"] == pytest.approx(0.803, abs=GNUBG_EQUITY_TOLERANCE)
    assert (play["rank"], play["side"], play["game"], play["move"], play["dice"], play["kind"]) == (
        2, 1, 1, 21, "52", "chequer")
    assert (play["played"], play["best"], play["position_id"], play["match_id"]) == (
        "bar/23 16/11", "bar/23 6/1", "rN0GICjs7hgQQA", "cImqAAAAAAAE")
    assert play["equity_lost"] == pytest.approx(0.651, abs=GNUBG_EQUITY_TOLERANCE)
    assert len(body["worst"]) == 5


def test_the_match_page_shows_pr_luck_and_the_worst_plays_with_a_link_into_the_replay(uploaded, client):
    page = client.get(f"/matches/{uploaded.pk}/").content.decode()
    bgnori, i1awin = stored_prs(uploaded)  # 7.22 and 26.50, as GNU Backgammon computes them here
    assert f"<strong>{bgnori:.2f}</strong>" in page and f"<strong>{i1awin:.2f}</strong>" in page
    assert "+49.47%" in page and "-49.47%" in page
    assert "The worst decisions" in page
    assert "played <code>bar/23 16/11</code>, better <code>bar/23 6/1</code>" in page
    # Moves are numbered as in the file and the replay: the take is on line 6 of game 2.
    take = client.get(f"/api/v1/matches/{uploaded.pk}/analysis/").json()["worst"][0]  # 0.803, as computed here
    assert (f"<strong>i1awin</strong>, game 2, move 6: <code>Take</code>, right <code>Pass</code> — lost"
            f" {take['equity_lost']:.3f} (very bad).") in page
    assert "<strong>i1awin</strong>, game 1, move 11 (52): played <code>bar/23 16/11</code>" in page
    assert f'href="/matches/{uploaded.pk}/games/1/#frame-1-' in page


def test_a_cube_decision_opens_the_replay_at_the_double_with_the_right_decision_shown(uploaded, client, api):
    from games.models import Game

    moves = Game.objects.get(match=uploaded, number=2).moves
    # Game 2: i1awin takes bgnori's double after nine rolls; the take is the eleventh frame.
    assert [(m["type"], m.get("action")) for m in moves[9:11]] == [("cube", "double"), ("cube", "take")]
    page = client.get(f"/matches/{uploaded.pk}/").content.decode()
    assert f'href="/matches/{uploaded.pk}/games/2/#frame-2-11"' in page
    replay = client.get(f"/matches/{uploaded.pk}/games/2/").content.decode()
    frame = replay.split('id="frame-2-11"', 1)[1].split("</li>", 1)[0]
    assert "i1awin takes" in frame
    assert "<strong>i1awin</strong>, game 2, move 6: <code>Take</code>, right <code>Pass</code>" in frame
    assert replay.count('class="decision-mark"') == 2  # the move list marks the frames with a decision
    worst = api.get(f"/api/v1/matches/{uploaded.pk}/analysis/").json()["worst"]
    assert replay.count('class="decision-note"') == len([w for w in worst if w["game"] == 2]) == 2


def test_the_player_page_shows_the_average_pr_and_the_luck_of_the_year(uploaded, client):
    page = client.get(f"/players/{uploaded.player_b_id}/").content.decode()
    i1awin = stored_prs(uploaded)[1]  # 26.50, as GNU Backgammon computes it here
    assert f"<strong>PR {i1awin:.2f}</strong> on average over 1 analysed match" in page
    assert f"In {uploaded.played_on.year} i1awin was lucky by 1.81 points of equity" in page


def test_the_event_and_player_api_give_averages(uploaded, api):
    body = api.get(f"/api/v1/players/{uploaded.player_a_id}/analysis/").json()
    assert (body["matches"], body["pr"]) == (1, stored_prs(uploaded)[0])


def test_a_name_with_shell_characters_is_analysed_safely(upload):
    import uuid

    marker = Path("/tmp") / f"pwned-{uuid.uuid4().hex[:8]}"
    hostile = f"$(touch {marker})`touch {marker}`;rm"
    text = SAMPLE.read_text().replace("bgnori", hostile)
    match = upload(text)
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == AnalysisStatus.DONE
    assert analysis.sides.get(side=0).player.name == hostile
    assert not marker.exists()


def test_a_file_with_a_name_too_long_for_a_player_is_refused_and_stores_nothing(staff_api):
    text = SAMPLE.read_text().replace("bgnori", "x" * 121)
    response = staff_api.post("/api/v1/match-files/", {"file": SimpleUploadedFile("long.mat", text.encode())},
                              format="multipart")
    assert response.status_code == 400
    assert response.json()["file"] == [f"A player's name in this file is longer than 120 characters: {'x' * 40}…"]
    assert not Match.objects.exists()


def test_a_file_gnubg_refuses_fails_alone_and_the_others_are_analysed():
    results = gnubg.analyse_files({"good": SAMPLE.read_text(), "bad": "this is not a match file\n"})
    assert isinstance(results["bad"], gnubg.AnalysisError)
    assert results["good"].sides[0].pr == pytest.approx(7.22, abs=GNUBG_PR_TOLERANCE)


def test_a_run_over_its_time_limit_is_stopped():
    with pytest.raises(gnubg.AnalysisError, match="took longer than"):
        gnubg.analyse_files({"m": SAMPLE.read_text()}, timeout=0.05)


def test_an_analysis_left_by_a_dead_worker_is_done_again_by_the_sweep(uploaded, settings,
                                                                    django_capture_on_commit_callbacks):
    analysis = MatchAnalysis.objects.get(match=uploaded)
    analysis.sides.all().delete()
    long_ago = timezone.now() - timezone.timedelta(seconds=settings.CRAWFORD_STALE_SECONDS + 5)
    MatchAnalysis.objects.filter(pk=analysis.pk).update(status=AnalysisStatus.RUNNING, heartbeat_at=long_ago,
                                                        attempts=1)
    assert services.analysis_owed() == [uploaded.pk]  # eager here: queued and run at once
    analysis.refresh_from_db()
    assert (analysis.status, analysis.attempts, analysis.sides.count()) == (AnalysisStatus.DONE, 2, 2)


def test_a_running_analysis_is_not_claimed_twice(uploaded):
    MatchAnalysis.objects.filter(match=uploaded).update(status=AnalysisStatus.QUEUED)
    first = services.analysis_claim(match_id=uploaded.pk)
    assert first is not None and first.status == AnalysisStatus.RUNNING
    assert services.analysis_claim(match_id=uploaded.pk) is None


def test_the_analyse_command_analyses_every_stored_file_again_with_redo(uploaded, capsys):
    call_command("analyse", "--all", "--redo", "--plies", "0")
    out = capsys.readouterr().out
    bgnori, i1awin = stored_prs(uploaded)
    assert f"match {uploaded.pk}: PR {bgnori:.2f} / PR {i1awin:.2f}" in out
    assert [bgnori, i1awin] == pytest.approx([7.22, 26.5], abs=GNUBG_PR_TOLERANCE)
    assert "1 analysed, 0 failed" in out
    with pytest.raises(CommandError, match="Name match ids or give --all"):
        call_command("analyse")


def test_without_gnubg_analysis_is_off_and_the_page_says_how_to_turn_it_on(upload, client, settings):
    settings.CRAWFORD_GNUBG = "/nonexistent/gnubg"
    match = upload(SAMPLE.read_text())
    assert not MatchAnalysis.objects.filter(match=match).exists()
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Analysis is off on this server" in page and "apt-get install gnubg" in page
    body = client.get(f"/api/v1/matches/{match.pk}/analysis/").json()
    assert (body["status"], body["available"]) == ("none", False)
    with pytest.raises(CommandError, match="not installed"):
        call_command("analyse", "--all")


def test_staff_can_ask_for_a_deeper_analysis_and_others_cannot(uploaded, staff_api, api,
                                                              django_capture_on_commit_callbacks):
    assert api.post(f"/api/v1/matches/{uploaded.pk}/analysis/").status_code in (401, 403)
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_api.post(f"/api/v1/matches/{uploaded.pk}/analysis/")
    assert response.status_code == 202 and response.json()["status"] == "queued"
    assert api.get(f"/api/v1/matches/{uploaded.pk}/analysis/").json()["status"] == "done"
    assert MatchAnalysis.objects.get(match=uploaded).attempts == 1


def test_a_match_without_moves_cannot_be_analysed(make_match, staff_api):
    match = make_match()
    response = staff_api.post(f"/api/v1/matches/{match.pk}/analysis/")
    assert response.status_code == 400
    assert "no moves to analyse" in response.json()["detail"]


def test_the_event_page_and_api_show_the_pr_table_of_its_analysed_matches(
    make_player, client, api, django_capture_on_commit_callbacks
):
    from datetime import date

    from django.contrib.auth import get_user_model

    from games.matfiles import file_digest
    from games.models import MatchFile
    from tournaments import services as events
    from tournaments.models import Pairing

    td = get_user_model().objects.create_user("director", is_staff=True, is_superuser=True)
    tournament = events.tournament_create(name="Analysed Open", start_date=date(2026, 11, 20), organisers=[td], by=td)
    main = events.flight_create(tournament=tournament, name="Main", format="single_elimination", lengths=[5],
                                seeding="manual", by=td)
    anna, bo = make_player(name="Anna"), make_player(name="Bo")
    for seed, player in enumerate((anna, bo), start=1):
        events.entry_check_in(entry=events.entry_add(flight=main, player=player, seed=seed, by=td), by=td)
    events.flight_start(flight=main, by=td)
    pairing = Pairing.objects.get(flight=main)
    events.result_report(pairing=pairing, by=td, score_a=6, score_b=4)
    pairing.refresh_from_db()
    text = SAMPLE.read_text()
    with django_capture_on_commit_callbacks(execute=True):
        MatchFile.objects.create(match=pairing.match, name="final.mat", text=text, sha256=file_digest(text),
                                 games_revision=pairing.match.games_revision)
    # The file's left player (bgnori, PR 7.22) is the pairing's first player here.
    prs = stored_prs(pairing.match)
    assert prs == pytest.approx([7.22, 26.5], abs=GNUBG_PR_TOLERANCE)
    assert [(r["name"], r["pr"], r["matches"]) for r in
            api.get(f"/api/v1/tournaments/{tournament.slug}/analysis/").json()] == [
        (pairing.player_a.name, prs[0], 1), (pairing.player_b.name, prs[1], 1)]
    page = client.get(f"/events/{tournament.slug}/").content.decode()
    assert "Play by the numbers" in page and f"<strong>{prs[0]:.2f}</strong>" in page


def test_a_correction_makes_the_analysis_stale_shown_so_and_used_by_no_rating(uploaded, staff_api, api, client):
    from games import services as games
    from games.engine.scoring import OUTCOME_FIELDS
    from ratings import services as ratings

    assert round(float(ratings.rated_history().a_score[0]), 4) == 0.9947  # 0.5 + bgnori's 49.47%
    game = uploaded.games.get(number=1)
    games.game_correct(match=uploaded, number=1, reason="slip misread",
                       game=games.GameInput(**{name: getattr(game, name) for name in OUTCOME_FIELDS}))
    assert str(ratings.rated_history().a_score[0]) == "nan"
    body = api.get(f"/api/v1/matches/{uploaded.pk}/analysis/").json()
    assert (body["status"], body["players"], body["worst"]) == ("stale", [], [])
    page = client.get(f"/matches/{uploaded.pk}/").content.decode()
    assert "were corrected after GNU Backgammon analysed its file" in page
    assert "<strong>PR" not in client.get(f"/players/{uploaded.player_b_id}/").content.decode()
    assert api.get(f"/api/v1/players/{uploaded.player_a_id}/analysis/").json()["matches"] == 0
    redo = staff_api.post(f"/api/v1/matches/{uploaded.pk}/analysis/")
    assert redo.status_code == 400
    assert "no longer describes them" in redo.json()["detail"]
    assert MatchAnalysis.objects.get().status == "done"  # kept as it was, for the record


def test_a_failed_analysis_is_used_by_no_rating(uploaded):
    from ratings import services as ratings

    MatchAnalysis.objects.update(status=AnalysisStatus.FAILED, error="the disk filled up")
    history = ratings.rated_history()
    assert history.a_score.size == 1 and str(history.a_score[0]) == "nan"
