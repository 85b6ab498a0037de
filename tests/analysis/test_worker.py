"""A real Celery worker analyses an uploaded match file, and a killed worker's analysis is done again
by the next one without anybody asking (CI runs these on PostgreSQL and Redis)."""

import time
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection

from analysis import gnubg
from analysis.models import AnalysisStatus, MatchAnalysis
from tests.support import GNUBG_EQUITY_TOLERANCE, GNUBG_PR_TOLERANCE, Workers, broker_reachable, stored_prs
from config.shared_data import SHARED_DATA

PROJECT = Path(__file__).resolve().parents[2]
MATFILES = SHARED_DATA / "matfiles"
LONG = MATFILES / "gnubgparser__charlot1-charlot2_7p_2025-11-08-2305.mat"
SAMPLE = MATFILES / "bglib__1857896.txt"


pytestmark = [
    pytest.mark.worker,
    pytest.mark.analysis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (DATABASE_URL)"),
    pytest.mark.skipif(not broker_reachable(), reason="needs a Redis broker (CELERY_BROKER_URL)"),
    pytest.mark.skipif(gnubg.find_program() is None, reason="GNU Backgammon (gnubg) is not installed"),
    pytest.mark.skipif(not SAMPLE.exists(), reason="the shared match files are not beside the repository"),
]


@pytest.fixture
def workers(transactional_db, tmp_path):
    """`celery -A config worker` processes (with beat) that analyse, on the test database; all
    stopped afterwards."""
    from config.celery import app

    app.control.purge()
    started = Workers(tmp_path, CRAWFORD_ANALYSIS="1")
    yield started
    started.stop()


def upload(staff_api, path: Path) -> int:
    response = staff_api.post("/api/v1/match-files/", {"file": SimpleUploadedFile(path.name, path.read_bytes())},
                              format="multipart")
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def done(match_id: int) -> bool:
    return MatchAnalysis.objects.filter(match_id=match_id, status=AnalysisStatus.DONE).exists()


def test_a_match_file_uploaded_through_the_api_is_analysed_by_the_worker(workers, staff_api, api, client):
    workers.start("worker", beat=True)
    match_id = upload(staff_api, SAMPLE)
    workers.wait_for(lambda: done(match_id), timeout=60)
    body = api.get(f"/api/v1/matches/{match_id}/analysis/").json()
    prs = stored_prs(match_id)
    assert [p["pr"] for p in body["players"]] == prs == pytest.approx([7.22, 26.5], abs=GNUBG_PR_TOLERANCE)
    page = client.get(f"/matches/{match_id}/").content.decode()
    assert f"<strong>{prs[1]:.2f}</strong>" in page and "+49.47%" in page and "-49.47%" in page
    take = body["worst"][0]
    assert take["equity_lost"] == pytest.approx(0.803, abs=GNUBG_EQUITY_TOLERANCE)
    assert f"<code>Take</code>, right <code>Pass</code> — lost {take['equity_lost']:.3f} (very bad)." in page
    player = body["players"][1]["player"]
    page = client.get(f"/players/{player}/").content.decode()
    assert f"<strong>PR {prs[1]:.2f}</strong> on average over 1 analysed match" in page
    assert "i1awin was lucky by 1.81 points of equity" in page


def test_an_analysis_a_killed_worker_left_is_done_by_the_next_worker_without_a_request(workers, staff_api):
    first = workers.start("first", beat=True, CRAWFORD_ANALYSIS_PLIES="2")
    match_id = upload(staff_api, LONG)
    workers.wait_for(lambda: MatchAnalysis.objects.filter(match_id=match_id, status=AnalysisStatus.RUNNING).exists(),
                     timeout=60)
    workers.kill(first)
    assert MatchAnalysis.objects.get(match_id=match_id).status == AnalysisStatus.RUNNING
    killed_at = time.monotonic()
    workers.start("second", beat=True, CRAWFORD_STALE_SECONDS="3", CRAWFORD_SWEEP_SECONDS="2")
    workers.wait_for(lambda: done(match_id), timeout=120)
    analysis = MatchAnalysis.objects.get(match_id=match_id)
    assert analysis.attempts == 2 and analysis.sides.count() == 2
    assert time.monotonic() - killed_at < 120
