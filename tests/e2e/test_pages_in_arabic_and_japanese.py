"""The event page with its bracket, a match's page and a player's page in Arabic and Japanese, on a
360 px phone and a 1280 px screen: in the reader's words, nothing wider than the screen, no text
cut off or drawn over other text, axe-core finding nothing serious; in Arabic the bracket reads
from the right (the first round at the right, the final at the left)."""

import re
from pathlib import Path

import pytest

from tournaments.models import Pairing

from .conftest import cast

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parent / "vendor" / "axe-4.10.2.min.js"
SERIOUS = """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
  .filter(v => v.impact === "serious" || v.impact === "critical")
  .map(v => v.id + " (" + v.impact + "): " + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(", "))"""

# What a reader sees: laid out, not hidden (a closed <details>, visibility, a visually-hidden label).
SHOWN = """el => el.offsetParent && el.checkVisibility({visibilityProperty: true, opacityProperty: true})
  && el.getBoundingClientRect().width > 1"""

# Text a box clips without saying so (no ellipsis): the element is narrower than its text.
CUT = """() => { const shown = """ + SHOWN + """;
  return [...document.querySelectorAll("main *")].filter(el => {
    if (!shown(el) || !el.childNodes.length) return false;
    const style = getComputedStyle(el);
    if (!["hidden", "clip"].includes(style.overflowX) || style.textOverflow === "ellipsis") return false;
    return [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())
      && el.scrollWidth > el.clientWidth + 1;
  }).map(el => el.tagName.toLowerCase() + "." + el.className + ": " + el.textContent.trim().slice(0, 40)); }"""

# Pieces of text drawn over one another: the boxes of the bracket, and the words of the page's
# headings, labels and buttons, each against the others.
OVERLAP = """(selector) => { const shown = """ + SHOWN + """;
  const boxes = [...document.querySelectorAll(selector)].filter(shown)
    .map(el => [el, el.getBoundingClientRect()]);
  const out = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, r] = boxes[i], [b, s] = boxes[j];
    if (a.contains(b) || b.contains(a)) continue;
    const x = Math.min(r.right, s.right) - Math.max(r.left, s.left);
    const y = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
    if (x > 1 && y > 1) out.push(a.textContent.trim().slice(0, 30) + " / " + b.textContent.trim().slice(0, 30));
  }
  return out; }"""
WORDS = "main h1, main h2, main h3, main h4, main label, main button, main .bk-box, main .bk-champion, main dt, main dd"

NAMES = {"ar": {"bracket": "جدول خروج المغلوب", "final": "النهائي", "result": "النتيجة", "ratings": "التصنيفات"},
         "ja": {"bracket": "トーナメント表", "final": "決勝", "result": "結果", "ratings": "レーティング"}}


@pytest.fixture
def site(django_user_model):
    td = django_user_model.objects.create_user("director", password="pw-director-1")
    players = cast.make_players(8)
    tournament = cast.build_knockout(td, players, results_rounds=1)
    cast.publish_ratings()
    pending = Pairing.objects.filter(flight__tournament=tournament, status="pending",
                                     player_b__isnull=False).order_by("id").first()
    return {"event": f"/events/{tournament.slug}/", "match": f"/events/{tournament.slug}/m/{pending.pk}/",
            "player": f"/players/{players[0].pk}/"}


def look(page, url: str) -> list[str]:
    """What is wrong with the page at `url` as its reader sees it."""
    page.goto(url)
    wrong = []
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    if overflow > 0:
        wrong.append(f"{url}: {overflow} px wider than the screen")
    wrong += [f"{url}: cut off: {text}" for text in page.evaluate(CUT)]
    wrong += [f"{url}: overlapping: {pair}" for pair in page.evaluate(OVERLAP, WORDS)]
    page.add_script_tag(path=str(AXE))
    wrong += [f"{url}: axe: {v}" for v in page.evaluate(SERIOUS)]
    return wrong


@pytest.mark.parametrize("language", ["ar", "ja"])
@pytest.mark.parametrize("width", [1280, 360])
def test_the_event_match_and_player_pages_read_whole_in_arabic_and_japanese(browser, live_server, site, language,
                                                                            width):
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True,
                                  extra_http_headers={"Accept-Language": language})
    context.set_default_timeout(8000)
    page = context.new_page()
    try:
        wrong = []
        for path in (site["event"], site["match"], site["player"]):
            wrong += look(page, live_server.url + path)
            assert page.locator("html").get_attribute("lang") == language
            assert page.locator("html").get_attribute("dir") == ("rtl" if language == "ar" else "ltr")
        assert not wrong, "\n".join(wrong)

        page.goto(live_server.url + site["event"])
        words = NAMES[language]
        assert page.get_by_role("heading", name=words["bracket"]).first.is_visible()
        main = page.locator(".bk-frame").first  # the main flight's bracket
        final = re.compile("^" + words["final"])  # not the semi-finals
        if width == 360:  # one round at a time: the tabs name the rounds
            assert main.locator(".bk-tab").filter(has_text=final).count() == 1
        else:
            assert main.locator(".bk-head").filter(has_text=final).count() == 1
            first = main.locator('.bk-box[data-col="0"]').first.bounding_box()
            last = main.locator(".bk-box").last.bounding_box()
            if language == "ar":  # the first round at the right, the final at the left
                assert first["x"] > last["x"] + 200
            else:
                assert first["x"] + 200 < last["x"]

        page.goto(live_server.url + site["match"])
        assert page.get_by_role("heading", name=words["result"], exact=True).count() == 1
        page.goto(live_server.url + site["player"])
        assert page.get_by_role("heading", name=words["ratings"], exact=True).count() == 1
    finally:
        context.close()


def test_the_bracket_tabs_follow_the_reading_direction_on_an_arabic_phone(browser, live_server, site):
    context = browser.new_context(viewport={"width": 360, "height": 900}, bypass_csp=True,
                                  extra_http_headers={"Accept-Language": "ar"})
    page = context.new_page()
    try:
        page.goto(live_server.url + site["event"])
        main = page.locator(".bk-frame").first
        tabs = main.locator(".bk-tab")
        first, second = tabs.nth(0).bounding_box(), tabs.nth(1).bounding_box()
        assert first["x"] > second["x"]  # round 1 at the right
        shown = main.get_attribute("data-show")
        main.locator(f'.bk-tab[data-col="{shown}"]').focus()
        page.keyboard.press("ArrowLeft")  # forward, right to left
        assert main.get_attribute("data-show") == str(int(shown) + 1)
        page.keyboard.press("ArrowRight")  # and back
        assert main.get_attribute("data-show") == shown
    finally:
        context.close()
