"""The desk's head and a draft flight's entries fit a 360 px phone as they fit a 1280 px screen:
no counter label broken inside a word, every entry's buttons within the screen."""

from datetime import date

import pytest
from django.contrib.auth import get_user_model

from tournaments import services as events

from .conftest import cast

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WORDS_BROKEN = """sel => [...document.querySelectorAll(sel)].flatMap(li => {
  const broken = [];
  const walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (lines.size > 1) broken.push(match[0]);
    }
  }
  return broken;
})"""


@pytest.fixture
def draft_event(db):
    td = get_user_model().objects.create_user("director", password="pw-director-1")
    creator = get_user_model().objects.create_user("office", is_staff=True, is_superuser=True)
    tournament = events.tournament_create(name="Phone Cup", start_date=date(2026, 12, 5), organisers=[td], by=creator)
    flight = events.flight_create(tournament=tournament, name="Main", format="single_elimination", lengths=[5], by=td)
    for player in cast.make_players(6, prefix="Maximiliane Oberhauser-Lindqvist"):
        events.entry_add(flight=flight, player=player, by=td)
    return tournament


def _desk(browser_page, live_server, tournament):
    browser_page.goto(f"{live_server.url}/login/")
    browser_page.get_by_label("Username").fill("director")
    browser_page.get_by_label("Password").fill("pw-director-1")
    browser_page.get_by_role("button", name="Log in").click()
    browser_page.goto(f"{live_server.url}/desk/{tournament.slug}/")


@pytest.mark.parametrize("width", [1280, 360])
def test_the_desk_counters_break_between_words_and_the_entries_keep_their_buttons_on_screen(
        browser, live_server, draft_event, width):
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True)
    try:
        page = context.new_page()
        _desk(page, live_server, draft_event)
        assert page.evaluate(WORDS_BROKEN, ".desk-counts li") == []
        withdraw = page.get_by_role("button", name="Withdraw").first
        box = withdraw.bounding_box()
        table = page.locator("table.entries").first.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, "Withdraw is cut off"
        assert table["x"] + table["width"] <= width, f"the entries table is {table['width']:.0f} px wide"
        widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1], "the desk scrolls sideways"
    finally:
        context.close()


@pytest.fixture
def started_event(db):
    from tournaments.models import Entry

    td = get_user_model().objects.create_user("director", password="pw-director-1")
    tournament = cast.build_knockout(td, cast.make_players(8, prefix="Maximiliane Oberhauser-Lindqvist"),
                                     name="Phone Open", results_rounds=0)
    events.entry_withdraw(entry=Entry.objects.filter(flight__tournament=tournament).order_by("id")[0], by=td,
                          reason="went home")
    return tournament


@pytest.mark.parametrize("width", [1280, 360])
def test_a_started_flights_entries_keep_undo_withdrawal_and_withdraw_on_screen(browser, live_server, started_event,
                                                                                 width):
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True,
                                  service_workers="block")
    try:
        page = context.new_page()
        _desk(page, live_server, started_event)
        page.locator("details", has_text="Show the entries").first.locator("summary").click()
        page.locator("table.entries").first.wait_for()
        for name in ("Undo withdrawal", "Withdraw"):  # the withdrawn player's, and the withdraw form's
            box = page.locator("table.entries button", has_text=name).first.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, f"{name} is cut off"
        widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1], f"the desk scrolls sideways: {widths[0]} px"
    finally:
        context.close()
