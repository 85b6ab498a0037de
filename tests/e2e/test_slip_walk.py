"""From the slip to the result, on a 360 px phone without a login: the TD prints the slips, a
player opens the address of the QR code on his half, reports with his code, the opponent confirms
with his, and the result is on the event's public page."""

import re

import pytest
from playwright.sync_api import expect
from django.contrib.auth import get_user_model

from tournaments import services as events
from tournaments.models import Pairing

from .conftest import ARTIFACTS, cast
from .test_desk import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def fits(page) -> bool:
    scroll, client = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    return scroll <= client


def test_a_player_reports_with_his_slip_code_and_the_opponent_confirms_with_his(page, phone, live_server):
    td = get_user_model().objects.create_user("director", password="pw-director-1")
    tournament = cast.build_knockout(td, cast.make_players(4, prefix="Walker"), name="Harbour Cup",
                                     results_rounds=0)
    events.tables_set(tournament=tournament, count=8, by=td)
    pairing = (Pairing.objects.filter(flight__tournament=tournament, flight__name="Main", player_b__isnull=False)
               .select_related("player_a", "player_b").order_by("id").first())
    events.pairing_table_set(pairing=pairing, table="3", by=td)
    a, b = pairing.player_a.name, pairing.player_b.name

    # The TD prints the slips; each half carries its player's code and the QR code of the match.
    log_in(page, live_server.url, "director", "pw-director-1")
    page.goto(f"{live_server.url}/desk/{tournament.slug}/slips/")
    slip = page.get_by_role("article", name=f"Slip Main {pairing.slot}")
    codes = {}
    for name in (a, b):
        half = slip.get_by_role("region", name=f"Half of {name}")
        codes[name] = re.search(r"Code ([3-9A-Y]{3}-[3-9A-Y]{3})", half.inner_text())[1]
        address = half.locator(".slip-qr").get_attribute("title")
    assert address == f"{live_server.url}/events/{tournament.slug}/m/{pairing.pk}/"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "slips-1280.png"), full_page=True)

    # A, on his phone, without a login, opens the address of the QR code.
    phone.goto(address)
    heading = phone.get_by_role("heading", level=1)
    assert re.sub(r"\s+", " ", heading.inner_text()) == f"{a} v {b}"
    facts = re.sub(r"\s+", " ", phone.locator(".match-facts").inner_text())
    assert facts == "TABLE 3 LENGTH 5 points ROUND 1"
    assert fits(phone)
    phone.screenshot(path=str(ARTIFACTS / "match-to-play-360.png"), full_page=True)
    phone.get_by_label("Your code").fill(codes[a].lower())
    phone.get_by_label(f"Points of {a}").fill("5")
    phone.get_by_label(f"Points of {b}").fill("3")
    phone.get_by_role("button", name="Report the result").click()
    # the phone says "sent" once the server has the report, then shows the page as it now stands
    expect(phone.locator(".offline-note")).to_have_text(
        f"Sent: {a} 5–3 {b} reported. It counts when your opponent confirms it.")
    expect(phone.locator("#result")).to_contain_text(f"Reported by {a}")
    assert re.sub(r"\s+", " ", phone.locator("#result").inner_text()).endswith(
        f"Reported by {a}; it counts when {b} confirms it.")
    assert fits(phone)
    phone.screenshot(path=str(ARTIFACTS / "match-reported-360.png"), full_page=True)

    # B, on the same page, confirms with the code on his half.
    phone.get_by_role("region", name=f"{b}: is this right?").get_by_label("Your code").fill(codes[b])
    phone.get_by_role("button", name="That is right: confirm").click()
    assert "Result confirmed: it counts now." in phone.locator(".messages").inner_text()
    assert re.sub(r"\s+", " ", phone.locator("#result").inner_text()) == f"Result {a} 5–3 {b} Finished {a} won."
    phone.screenshot(path=str(ARTIFACTS / "match-finished-360.png"), full_page=True)
    page.goto(address)
    page.screenshot(path=str(ARTIFACTS / "match-finished-1280.png"), full_page=True)

    # The event's public page shows it.
    phone.get_by_role("link", name=f"All matches of {tournament.name}").click()
    phone.wait_for_url(f"{live_server.url}/events/{tournament.slug}/")
    assert phone.locator(f'.bk-box[aria-label$="{a} v {b}, 5–3"]').count() == 1
    pairing.refresh_from_db()
    assert (pairing.status, pairing.score_a, pairing.score_b) == ("finished", 5, 3)
