"""A match file uploaded through the API is analysed; its worst cube decision opens the replay at
the double, where GNU Backgammon's verdict is shown, on a phone and on a desktop."""

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from analysis import gnubg
from analysis.models import AnalysisStatus, MatchAnalysis

from .test_accessibility import violations
from config.shared_data import SHARED_DATA

MATFILE = SHARED_DATA / "matfiles" / \
    "bglib__BlueNote-nori-2009Apr152320.txt"
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.analysis,
    pytest.mark.gnubg,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(gnubg.find_program() is None, reason="GNU Backgammon (gnubg) is not installed"),
    pytest.mark.skipif(not MATFILE.exists(), reason="the shared match files are not beside the repository"),
]


@pytest.fixture
def analysed():
    staff = get_user_model().objects.create_user("analyst", password="pw-analyst-123", is_staff=True, is_superuser=True)
    api = APIClient()
    api.force_authenticate(staff)
    response = api.post("/api/v1/match-files/", {"file": SimpleUploadedFile(MATFILE.name, MATFILE.read_bytes())},
                        format="multipart")
    assert response.status_code == 201, response.json()
    match_id = response.json()["id"]
    assert MatchAnalysis.objects.get(match_id=match_id).status == AnalysisStatus.DONE  # eager on commit
    return match_id


@pytest.mark.parametrize("width", [360, 1280])
def test_the_worst_cube_decision_opens_the_replay_at_the_double_with_the_verdict(browser, live_server, analysed,
                                                                                width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.set_default_timeout(8000)
    page = context.new_page()
    page.goto(f"{live_server.url}/matches/{analysed}/")
    worst = page.locator("ol.worst > li")
    assert worst.count() == 5
    cube = page.locator("ol.worst > li.decision-cube")
    assert cube.count() == 3
    first = cube.first
    assert "nori, game 2, move 7: Double, right Too good to double — lost 0.231 (very bad)." in first.inner_text()
    first.get_by_role("link", name="See it in the replay").click()
    page.wait_for_url(f"**/matches/{analysed}/games/2/#frame-2-13")
    shown = page.locator(".frame.current")
    assert shown.get_attribute("id") == "frame-2-13"
    assert shown.locator(".play-caption").inner_text() == "Move 7: nori doubles to 2"
    note = shown.locator(".decision-note")
    assert "Double, right Too good to double" in note.inner_text()
    assert page.locator(".move-list a[aria-current] .decision-mark").count() == 1
    widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1]
    # A missed double shows on the position the player could have doubled in.
    page.goto(f"{live_server.url}/matches/{analysed}/")
    page.locator("ol.worst > li.decision-cube").nth(2).get_by_role("link", name="See it in the replay").click()
    page.wait_for_url(f"**/games/7/#frame-7-37")
    note = page.locator(".frame.current .decision-note")
    assert "BlueNote, game 7, move 20, before the roll: No double, right Double, pass" in note.inner_text()
    context.close()


def test_axe_finds_nothing_serious_on_the_analysed_match_and_its_replay(page, live_server, analysed):
    found = violations(page, f"{live_server.url}/matches/{analysed}/")
    found += violations(page, f"{live_server.url}/matches/{analysed}/games/2/#frame-2-13")
    assert found == []
