"""Every page carries a Content-Security-Policy that allows scripts only from the site, and the
pages need nothing more: no inline script, no inline event handler, no style element."""

import re

import pytest

from games.models import Match

from .conftest import build_knockout, build_replay_match, make_players

pytestmark = pytest.mark.django_db

POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; style-src-elem 'self'; "
          "style-src-attr 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; "
          "base-uri 'self'; form-action 'self'; frame-ancestors 'none'")


@pytest.fixture
def pages(td):
    tournament = build_knockout(td, make_players(8), results_rounds=1)
    match = build_replay_match(make_players(2))
    pairing = tournament.flights.get(name="Main").pairings.filter(status="pending").first()
    slug = tournament.slug
    return tournament, [
        "/", "/events/", f"/events/{slug}/", f"/players/{match.player_a_id}/", f"/matches/{match.pk}/",
        f"/matches/{match.pk}/games/1/", "/ratings/", "/ratings/chances/", "/login/", "/signup/", "/password/reset/",
        "/desk/", f"/desk/{slug}/", f"/desk/{slug}/slips/", f"/desk/{slug}/projector/",
        f"/desk/{slug}/pairings/{pairing.pk}/", "/account/", "/admin/login/",
    ]


def test_every_page_carries_the_policy_and_needs_no_inline_script_or_style_element(td_client, pages):
    _, paths = pages
    for path in paths:
        response = td_client.get(path)
        assert response.status_code == 200, path
        assert response["Content-Security-Policy"] == POLICY, path
        html = response.content.decode()
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == [], path
        assert re.findall(r"\son[a-z]+=", html) == [], path
        assert "<style" not in html, path
        assert "javascript:" not in html, path


def test_the_score_sheet_carries_the_policy(td_client, td):
    tournament = build_knockout(td, make_players(4), results_rounds=0)
    pairing = tournament.flights.get(name="Main").pairings.filter(player_b__isnull=False).first()
    response = td_client.post(f"/desk/{tournament.slug}/", {"action": "sheet", "pairing": pairing.pk})
    sheet = td_client.get(response["Location"])
    assert sheet["Content-Security-Policy"] == POLICY
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", sheet.content.decode()) == []
    assert Match.objects.count() == 1


def test_the_embeddable_event_page_may_be_framed_by_any_site(client, td):
    tournament = build_knockout(td, make_players(4), results_rounds=0)
    response = client.get(f"/events/{tournament.slug}/embed/")
    assert response["Content-Security-Policy"] == POLICY.replace("frame-ancestors 'none'", "frame-ancestors *")
    assert "X-Frame-Options" not in response


def test_the_api_docs_allow_only_their_own_inline_styles(client):
    response = client.get("/api/docs/")
    assert response["Content-Security-Policy"] == POLICY.replace(
        "style-src-elem 'self'", "style-src-elem 'self' 'unsafe-inline'")
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", response.content.decode()) == []
