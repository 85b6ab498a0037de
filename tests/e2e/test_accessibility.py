"""axe-core (vendored under tests/e2e/vendor, MPL-2.0) finds no serious or critical violation on any
public or player page, light and dark, wide and on a 360 px phone."""

from pathlib import Path

import pytest

from tournaments.models import PlayerAccount

from .conftest import cast

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parent / "vendor" / "axe-4.10.2.min.js"
RUN = """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
  .filter(v => v.impact === "serious" || v.impact === "critical")
  .map(v => v.id + " (" + v.impact + "): " + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(", "))"""


def violations(page, url) -> list[str]:
    page.goto(url)
    page.add_script_tag(path=str(AXE))
    return [f"{url}: {v}" for v in page.evaluate(RUN)]


@pytest.fixture
def site(django_user_model):
    td = django_user_model.objects.create_user("director", password="pw-director-1")
    players = cast.make_players(16)
    knockout = cast.build_knockout(td, players[:8])
    swiss = cast.build_swiss(td, players[8:], rounds_played=1)
    replay = cast.build_replay_match(players[:2])
    cast.publish_ratings()
    user = django_user_model.objects.create_user("ann", password="pw-ann-12345")
    PlayerAccount.objects.create(player=players[0], user=user)
    return {"players": players, "knockout": knockout, "swiss": swiss, "replay": replay}


def match_page(site) -> str:
    """The public page of a match still to play (the address of its slip's QR code)."""
    from tournaments.models import Pairing

    pairing = Pairing.objects.filter(flight__tournament=site["knockout"], status="pending",
                                     player_b__isnull=False).order_by("id").first()
    return f"/events/{site['knockout'].slug}/m/{pairing.pk}/"


def public_paths(site) -> list[str]:
    p = site["players"]
    return [match_page(site), "/", "/events/", f"/events/{site['knockout'].slug}/", f"/events/{site['swiss'].slug}/",
            f"/events/{site['knockout'].slug}/embed/", f"/players/{p[0].pk}/", "/ratings/",
            "/ratings/?system=fibs&sort=name&dir=reverse", "/ratings/formula/", "/ratings/chances/",
            f"/ratings/chances/?player_a={p[0].name}&player_b={p[1].name}&length=7",
            f"/matches/{site['replay'].pk}/", f"/matches/{site['replay'].pk}/games/1/", "/login/", "/signup/",
            "/password/reset/", "/no/such/page/"]


@pytest.mark.slow
def test_axe_finds_nothing_serious_on_any_page(page, live_server, site):
    found = []
    for path in public_paths(site):
        found += violations(page, live_server.url + path)
    cast_login(page, live_server.url)
    for path in ("/me/", "/account/", "/account/?q=Player", "/password/change/"):
        found += violations(page, live_server.url + path)
    assert not found, "\n".join(found)


def test_axe_finds_nothing_serious_on_a_dark_phone(phone, live_server, site):
    phone.emulate_media(color_scheme="dark")
    found = []
    for path in (f"/events/{site['knockout'].slug}/", f"/events/{site['swiss'].slug}/", "/ratings/",
                 f"/players/{site['players'][0].pk}/", "/", match_page(site)):
        found += violations(phone, live_server.url + path)
    assert not found, "\n".join(found)


def cast_login(page, base):
    page.goto(f"{base}/login/")
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password").fill("pw-ann-12345")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/me/")


EVERY = """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
  .map(v => v.id + " (" + v.impact + "): " + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(", "))"""


@pytest.mark.parametrize("width", [1280, 360])
def test_an_event_with_two_brackets_labels_each_by_its_flight(browser, live_server, site, width):
    """The main flight's and the consolation's brackets are two regions: axe finds no violation at
    all, not even a moderate one (two landmarks both named 'Bracket')."""
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True,
                                  service_workers="block")
    page = context.new_page()
    page.goto(f"{live_server.url}/events/{site['knockout'].slug}/")
    assert page.get_by_role("region", name="Bracket Main").count() == 1
    assert page.get_by_role("region", name="Bracket Consolation").count() == 1
    page.add_script_tag(path=str(AXE))
    assert page.evaluate(EVERY) == []
    context.close()
