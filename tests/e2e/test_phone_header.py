"""The site's header on a 360 px phone in English, Japanese and Arabic: one row no taller than
64 px (the page starts near the top of the screen), every link and button of it reached with Tab
and brought into sight when it takes the focus (the menu scrolls sideways), mirrored in Arabic,
and axe-core finding nothing serious; at 1280 px it stays the one row it was."""

import pytest

from .conftest import cast
from .test_accessibility import AXE, RUN
from .test_accessibility_desk import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# What has the focus in the header, and whether it is in sight: wholly, or across the whole menu
# but its margins (scroll-padding) when it is wider than the menu's row (a long "Log out <name>").
TAB_THROUGH = """() => { const el = document.activeElement;
  if (!el || !el.closest(".site-header")) return null;
  const r = el.getBoundingClientRect(), nav = el.closest(".site-nav");
  const box = nav ? nav.getBoundingClientRect() : {left: 0, right: innerWidth};
  const seen = Math.min(r.right, box.right) - Math.max(r.left, box.left);
  const room = box.right - box.left - (nav ? 2 * parseFloat(getComputedStyle(nav).scrollPaddingInlineStart) : 0);
  return {text: el.textContent.trim(), shown: seen >= Math.min(r.width, room) - 1}; }"""
EVERY = """() => [...document.querySelectorAll(".site-header a[href], .site-header button")]
  .map(el => el.textContent.trim())"""


@pytest.fixture
def td(django_user_model):
    """A TD of a running event: the header holds every link it has (the desk, the account, logging out)."""
    director = django_user_model.objects.create_user("director", password="pw-director-1")
    tournament = cast.build_knockout(director, cast.make_players(8), results_rounds=1)
    return {"user": director, "paths": ["/", f"/events/{tournament.slug}/", "/desk/"]}


def header_height(page) -> float:
    return page.evaluate("document.querySelector('.site-header').getBoundingClientRect().height")


def tab_through_header(page) -> list[dict]:
    """Tab from the top of the page until the focus leaves the header; what took it on the way."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    reached = []
    for _ in range(30):
        page.keyboard.press("Tab")
        focused = page.evaluate(TAB_THROUGH)
        if focused is None:
            if reached:
                break
            continue  # the skip link comes before the header
        reached.append(focused)
    return reached


@pytest.mark.parametrize("language", ["en", "ja", "ar"])
def test_the_header_of_a_phone_is_one_short_row_that_the_keyboard_walks_whole(browser, live_server, td, language):
    context = browser.new_context(viewport={"width": 360, "height": 740}, bypass_csp=True, service_workers="block",
                                  extra_http_headers={"Accept-Language": language})
    context.set_default_timeout(8000)
    page = context.new_page()
    try:
        log_in(context, live_server.url, td["user"])
        wrong = []
        for path in td["paths"]:
            page.goto(live_server.url + path)
            assert page.locator("html").get_attribute("lang") == language
            height = header_height(page)
            if height > 64:
                wrong.append(f"{path}: the header is {height:.0f} px tall")
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            if overflow > 0:
                wrong.append(f"{path}: {overflow} px wider than the screen")

            brand = page.locator(".brand").bounding_box()
            first = page.locator(".site-nav a").first.bounding_box()
            if language == "ar":  # mirrored: the site's name at the right, the menu reading from it leftwards
                assert brand["x"] + brand["width"] > 360 - 40 and first["x"] < brand["x"], path
            else:
                assert brand["x"] < 40 and first["x"] > brand["x"] + brand["width"], path
            assert 0 <= first["x"] and first["x"] + first["width"] <= 360, path  # the menu shown from its start

            every = page.evaluate(EVERY)
            reached = tab_through_header(page)
            if [f["text"] for f in reached] != every:
                wrong.append(f"{path}: Tab reached {[f['text'] for f in reached]}, the header holds {every}")
            wrong += [f"{path}: {f['text']} has the focus out of sight" for f in reached if not f["shown"]]

            page.add_script_tag(path=str(AXE))
            wrong += [f"{path}: axe: {v}" for v in page.evaluate(RUN)]
        assert not wrong, "\n".join(wrong)
    finally:
        context.close()


def test_the_header_of_a_screen_keeps_its_one_row(browser, live_server, td):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True, service_workers="block")
    page = context.new_page()
    try:
        log_in(context, live_server.url, td["user"])
        page.goto(live_server.url + "/desk/")
        assert header_height(page) <= 64
        nav = page.locator(".site-nav")
        assert nav.evaluate("el => el.scrollWidth <= el.clientWidth")  # nothing of the menu scrolled away
        middles = page.evaluate("""() => [...document.querySelectorAll(".site-header .brand, .site-nav li")]
          .map(el => { const r = el.getBoundingClientRect(); return r.top + r.height / 2; })""")
        assert max(middles) - min(middles) < 2  # the name and every item on one line
    finally:
        context.close()


def test_a_long_login_name_ends_in_an_ellipsis_on_a_phone_and_is_whole_in_the_buttons_title(
        browser, live_server, django_user_model):
    long_name = "margarethe.vestergaard-kristensen"
    user = django_user_model.objects.create_user(long_name, password="pw-long-name-1")
    context = browser.new_context(viewport={"width": 360, "height": 740}, bypass_csp=True, service_workers="block")
    page = context.new_page()
    try:
        log_in(context, live_server.url, user)
        page.goto(live_server.url + "/")
        button = page.locator(".site-nav button")
        assert button.text_content().strip() == f"Log out {long_name}"  # what a screen reader says
        assert button.get_attribute("title") == f"Log out {long_name}"  # what a long press shows
        width, cut = button.evaluate("el => [el.getBoundingClientRect().width, el.scrollWidth > el.clientWidth]")
        assert width <= 10 * 16 + 1 and cut
        assert header_height(page) <= 64
        button.focus()
        assert page.evaluate(TAB_THROUGH)["shown"]  # the menu scrolls it into sight, whole
    finally:
        context.close()
