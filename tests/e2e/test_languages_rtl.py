"""An event's page in Arabic on a small phone: right to left, mirrored, nothing wider than the
screen; the language menu works without a script."""

import pytest

from .conftest import cast

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_an_event_page_in_arabic_reads_right_to_left_within_a_phone_screen(phone, live_server, django_user_model):
    td = django_user_model.objects.create_user("director", password="pw-director-1")
    tournament = cast.build_knockout(td, cast.make_players(8), results_rounds=1)
    phone.context.set_extra_http_headers({"Accept-Language": "ar"})
    phone.goto(f"{live_server.url}/events/{tournament.slug}/")

    assert phone.locator("html").get_attribute("dir") == "rtl"
    assert phone.locator("html").get_attribute("lang") == "ar"
    overflow = phone.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow == 0, f"the page is {overflow} px wider than the screen"
    # Mirrored: the site's name starts at the right edge, the navigation reads from the right.
    brand = phone.locator(".brand").bounding_box()
    assert brand["x"] + brand["width"] > 360 - 40
    assert phone.locator(".site-nav a").first.inner_text() == "البطولات"

    # The menu at the foot of the page, chosen and sent with its button (no script needed).
    phone.select_option("#language-choice", "ja")
    phone.get_by_role("button", name="تغيير").click()
    phone.wait_for_url(f"{live_server.url}/events/{tournament.slug}/")
    assert phone.locator("html").get_attribute("dir") == "ltr"
    assert phone.locator(".site-nav a").first.inner_text() == "大会"
