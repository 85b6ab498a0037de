"""The rating list and a player's chart on a small phone: the first player in the first screen,
two lines a player, the filters a tap away, and the chart answering a tap with that date's value."""

import re

import pytest

from .conftest import cast

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def touch_phone(browser):
    """A 360 × 640 touch screen, a small phone held upright."""
    context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True)
    context.set_default_timeout(8000)
    yield context.new_page()
    context.close()


def test_on_a_phone_the_first_player_is_in_the_first_screen_and_each_takes_two_lines(
    touch_phone, live_server, django_user_model
):
    td = django_user_model.objects.create_user("director", password="pw-director-1")
    cast.build_knockout(td, cast.make_players(16), results_rounds=2)
    cast.publish_ratings()
    phone = touch_phone
    phone.goto(f"{live_server.url}/ratings/")

    rows = phone.locator("table.ratings tbody tr")
    first = rows.first.bounding_box()
    assert first["y"] + first["height"] <= 640, "the first player is below the first screen"
    line = float(phone.evaluate("parseFloat(getComputedStyle(document.body).lineHeight)"))
    assert first["height"] < 3 * line, f"a player's row is {first['height']} px high, more than two lines"
    name, matches = (rows.first.locator(cell).bounding_box() for cell in ("td.card-title", "td[data-label=Matches]"))
    assert matches["y"] >= name["y"] + name["height"] - 1, "the matches are on the player's second line"

    country = phone.get_by_label("Country")
    assert not country.is_visible()
    phone.get_by_text("Sort and filter").tap()
    assert country.is_visible() and phone.get_by_label("Sort by").is_visible()
    scroll, client = phone.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert scroll <= client


def test_a_tap_on_the_rating_chart_shows_that_dates_value(touch_phone, live_server, django_user_model):
    td = django_user_model.objects.create_user("director", password="pw-director-1")
    players = cast.make_players(8)
    cast.build_knockout(td, players, results_rounds=3)
    cast.publish_ratings()
    phone = touch_phone
    champion = players[0]
    phone.goto(f"{live_server.url}/players/{champion.pk}/")
    chart = phone.locator("svg.chart")
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    phone.touchscreen.tap(box["x"] + 2, box["y"] + box["height"] / 2)
    assert re.match(r"^\d+ on \d+ \w+ \d{4} \(start\)$", phone.locator("#chart-value").inner_text())
    phone.touchscreen.tap(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)
    assert not phone.locator("#chart-value").inner_text().endswith("(start)")
