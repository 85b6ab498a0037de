"""Chromium enforces the Content-Security-Policy and reports no violation on the main pages, the
desk (with an htmx action) and the score sheet."""

import pytest
from django.contrib.auth import get_user_model

from tournaments.models import Pairing

from .conftest import cast

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RECORD = """window.cspViolations = [];
document.addEventListener('securitypolicyviolation', e => window.cspViolations.push(
  e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' at ' + location.pathname));
"""


@pytest.fixture
def page(browser):
    """A page that enforces the policy (the other browser tests' pages bypass it, so that their
    waits may evaluate script)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(8000)
    yield context.new_page()
    context.close()


def test_no_page_breaks_the_content_security_policy(page, live_server):
    td = get_user_model().objects.create_user("director", password="pw-director-1")
    tournament = cast.build_knockout(td, cast.make_players(8), results_rounds=1)
    match = cast.build_replay_match(cast.make_players(2))
    page.add_init_script(RECORD)
    messages = []
    page.on("console", lambda m: messages.append(m.text) if "Content Security Policy" in m.text else None)
    base = live_server.url
    page.goto(f"{base}/login/")
    page.get_by_label("Username").fill("director")
    page.get_by_label("Password").fill("pw-director-1")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/desk/")
    violations = []
    slug = tournament.slug
    for path in ["/", "/events/", f"/events/{slug}/", f"/players/{match.player_a_id}/", f"/matches/{match.pk}/",
                 f"/matches/{match.pk}/games/1/", "/ratings/", "/ratings/chances/", "/account/", f"/desk/{slug}/",
                 f"/desk/{slug}/slips/", f"/desk/{slug}/projector/", f"/events/{slug}/embed/", "/api/docs/"]:
        page.goto(base + path, wait_until="load")
        violations += page.evaluate("window.cspViolations")
    # An htmx action on the desk, then the score sheet it opens.
    page.goto(f"{base}/desk/{slug}/")
    pairing = Pairing.objects.filter(flight__tournament=tournament, status="pending",
                                     player_b__isnull=False).order_by("pk").first()
    page.fill(f"#p{pairing.pk}-a", "5")
    page.fill(f"#p{pairing.pk}-b", "2")
    page.click(f"#pairing-{pairing.pk} .q-save")
    page.locator(f"#pairing-{pairing.pk}.is-finished").wait_for()
    violations += page.evaluate("window.cspViolations")
    later = Pairing.objects.filter(flight__tournament=tournament, status="pending",
                                   player_b__isnull=False).exclude(pk=pairing.pk).order_by("pk").first()
    page.locator(f"#pairing-{later.pk}").locator("button[value=sheet]").click()
    page.wait_for_url("**/enter/")
    violations += page.evaluate("window.cspViolations")
    assert violations == [] and messages == []
