"""A visitor on the rating pages: sorts the list both ways, reads a player's chart with the keyboard,
and picks two players for a forecast from the suggestions, on a phone and a desktop."""

import re

import pytest

from .conftest import cast

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_visitor_sorts_the_list_reads_a_chart_and_asks_for_chances(page, phone, live_server, django_user_model):
    td = django_user_model.objects.create_user("director", password="pw-director-1")
    players = cast.make_players(8)
    cast.build_knockout(td, players, results_rounds=2)
    cast.publish_ratings()
    base = live_server.url

    page.goto(f"{base}/ratings/?system=fibs")
    heading = page.locator("th[aria-sort]")
    assert heading.get_attribute("aria-sort") == "descending"
    page.get_by_role("link", name="Rating", exact=True).click()
    assert page.locator("th[aria-sort]").get_attribute("aria-sort") == "ascending"
    values = [float(t.split()[0]) for t in page.locator("td[data-label=Rating]").all_inner_texts()]
    assert values == sorted(values)

    page.locator("tbody a").first.click()
    chart = page.locator("svg.chart")
    chart.focus()
    page.keyboard.press("Home")
    first = page.locator("#chart-value").inner_text()
    page.keyboard.press("End")
    last = page.locator("#chart-value").inner_text()
    assert re.match(r"^\d+ on \d+ \w+ \d{4} \(start\)$", first) and re.match(r"^\d+ on ", last)

    phone.goto(f"{base}/ratings/chances/")
    field = phone.get_by_label("Player A")
    field.fill(players[0].name[-5:])
    phone.wait_for_function("document.querySelectorAll('#players-a option').length === 1")
    assert phone.locator("#players-a option").first.get_attribute("value") == f"{players[0].name} ({players[0].club})"
    field.fill(f"{players[0].name} ({players[0].club})")
    phone.get_by_label("Player B").fill(players[1].name)
    phone.get_by_role("button", name="Work out the chances").click()
    assert "Chance to win" in phone.content()
    scroll, client = phone.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert scroll <= client
