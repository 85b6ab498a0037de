"""The rating list, a match's score sheet and a game's replay in Arabic and Japanese, on a 360 px
phone and a 1280 px screen: in the language asked for (Arabic right to left), nothing wider than the
screen, and axe-core finds nothing serious. Screenshots are kept under the e2e artifacts folder."""

import pytest

from .conftest import ARTIFACTS, cast
from .test_accessibility import AXE, RUN

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HEADINGS = {
    ("ar", "/ratings/"): "قائمة التصنيف",
    ("ja", "/ratings/"): "レーティング一覧",
}
SHEET = {"ar": "ورقة النتائج، مباراة حتى 3", "ja": "スコアシート、3ポイントマッチ"}
REPLAY = {"ar": "وضع البداية", "ja": "初期配置"}


@pytest.fixture
def site(db):
    players = cast.make_players(6)
    replay = cast.build_replay_match(players[:2])
    cast.publish_ratings()
    return {"replay": replay}


def _look(page, url, code, width, name):
    page.context.set_extra_http_headers({"Accept-Language": code})
    page.goto(url)
    assert page.locator("html").get_attribute("lang") == code
    assert page.locator("html").get_attribute("dir") == ("rtl" if code == "ar" else "ltr")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow == 0, f"{url} in {code} is {overflow} px wider than {width} px"
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(RUN)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"languages-{name}-{code}-{width}.png"), full_page=True)
    return found


@pytest.mark.parametrize("code", ["ar", "ja"])
@pytest.mark.parametrize("width", [360, 1280])
def test_ratings_and_games_pages_read_in_arabic_and_japanese_at_phone_and_screen_widths(browser, live_server, site,
                                                                                        code, width):
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True)
    context.set_default_timeout(8000)
    page = context.new_page()
    match = site["replay"].pk
    found = []
    try:
        found += _look(page, f"{live_server.url}/ratings/", code, width, "ratings")
        assert page.locator("h1").inner_text() == HEADINGS[(code, "/ratings/")]
        found += _look(page, f"{live_server.url}/matches/{match}/", code, width, "match")
        assert page.locator("caption").first.inner_text() == SHEET[code]
        found += _look(page, f"{live_server.url}/matches/{match}/games/1/", code, width, "replay")
        assert REPLAY[code] in page.locator(".play-caption").first.inner_text()
    finally:
        context.close()
    assert found == []


SHEET_WORDS = {
    "ar": {"worth": "الشوط 2 قيمته نقطة واحدة (1).", "crawford": "الشوط 2 هو لعبة كروفورد: لا مضاعفة، فيبقى المكعب على 1."},
    "ja": {"worth": "第2ゲームは 1 ポイントです。", "crawford": "第2ゲームはクロフォードゲームです。ダブルできないのでキューブは 1 のままです。"},
}


@pytest.mark.parametrize("code", ["ar", "ja"])
def test_the_score_sheets_script_speaks_arabic_and_japanese_on_a_phone(browser, live_server, django_user_model, code):
    """The words desk.js writes on a score sheet (what the game is worth, why the cube stays at 1 in
    the Crawford game) are the page's own, in its language."""
    from games import services as games

    django_user_model.objects.create_user("office", password="pw-office-1", is_staff=True, is_superuser=True)
    players = cast.make_players(2)
    match = games.match_create(player_a=players[0], player_b=players[1], length=3)
    games.game_record(match=match, number=1, game=games.GameInput(winner=0, kind=2))  # 2-0: the Crawford game
    context = browser.new_context(viewport={"width": 360, "height": 900}, bypass_csp=True)
    context.set_default_timeout(8000)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/login/")
        page.get_by_label("Username").fill("office")
        page.get_by_label("Password").fill("pw-office-1")
        page.get_by_role("button", name="Log in").click()
        page.wait_for_load_state()
        found = _look(page, f"{live_server.url}/matches/{match.pk}/enter/", code, 360, "sheet")
        worth, why = page.locator("#game-worth").inner_text(), page.locator("#cube-why").inner_text()
    finally:
        context.close()
    assert found == []
    assert (worth, why) == (SHEET_WORDS[code]["worth"], SHEET_WORDS[code]["crawford"])
