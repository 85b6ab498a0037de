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


@pytest.fixture
def running_event(db):
    """Like the demo's event in progress: round 1 decided (the latest results to undo), round 2 to play."""
    td = get_user_model().objects.create_user("director", password="pw-director-1")
    return cast.build_knockout(td, cast.make_players(8, prefix="Maximiliane Oberhauser"), name="Copenhagen Spring Cup",
                               results_rounds=1)


# What must be in a phone's first screen, and a count's label broken across a box's edge.
FIRST_SCREEN = """() => {
  const box = el => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; };
  const row = document.querySelector(".q-list .q-row");
  return {
    title: box(document.querySelector(".desk-head h1")),
    filter: box(document.querySelector("#qf-find")),
    scores: [...row.querySelectorAll("form.q-score input.ia, form.q-score input.ib, form.q-score .q-save")].map(box),
    cut: [...document.querySelectorAll(".desk-counts li")].filter(li => li.scrollWidth > li.clientWidth)
      .map(li => li.textContent.trim()),
  };
}"""


@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("width,height", [(360, 740), (1280, 800)])
def test_the_first_screen_of_the_desk_shows_the_first_match_with_its_score_fields(
        browser, live_server, running_event, language, width, height):
    """A TD on a phone sees the event, the counts, the queue's filter and the first match ready to type
    in without scrolling; no count's label is cut or broken inside a word, in English as in Arabic."""
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True,
                                  service_workers="block", extra_http_headers={"Accept-Language": language})
    context.set_default_timeout(8000)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/login/")
        page.fill("input[name=username]", "director")
        page.fill("input[name=password]", "pw-director-1")
        page.locator("form:has(input[name=password]) button[type=submit]").click()
        page.wait_for_url(lambda url: "/login/" not in url)
        page.goto(f"{live_server.url}/desk/{running_event.slug}/")
        assert page.locator("html").get_attribute("dir") == ("rtl" if language == "ar" else "ltr")
        seen = page.evaluate(FIRST_SCREEN)
        assert seen["title"]["bottom"] <= height and seen["filter"]["bottom"] <= height
        assert len(seen["scores"]) == 3, "the first match has no score fields"
        for field in seen["scores"]:
            assert 0 <= field["top"] and field["bottom"] <= height, f"the first score is below the first screen: {seen}"
        assert seen["cut"] == [], "a count's label is cut"
        assert page.evaluate(WORDS_BROKEN, ".desk-counts li") == []
        widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1], "the desk scrolls sideways"
    finally:
        context.close()
