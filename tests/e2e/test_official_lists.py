"""Staff publish an official rating list in a real browser; a player reads it on a phone."""

from datetime import UTC, datetime, timedelta
from itertools import pairwise

import pytest

from games import services as games
from ratings import services as ratings

from .conftest import cast

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def play(a, b, day):
    match = games.match_create(player_a=a, player_b=b, length=5,
                               played_on=datetime(2025, 1, 1, tzinfo=UTC) + timedelta(days=day))
    games.match_final_score_record(match=match, score_a=5, score_b=0)


def test_staff_publish_a_list_and_a_player_reads_his_change_on_a_phone(page, phone, live_server, django_user_model):
    django_user_model.objects.create_user("secretary", password="pw-secretary-1", is_staff=True, is_superuser=True)
    players = cast.make_players(6)
    for day, (a, b) in enumerate(pairwise(players)):
        play(a, b, day)
    ratings.rating_recompute_now(system="fibs")
    base = live_server.url

    page.goto(f"{base}/login/")
    page.get_by_label("Username").fill("secretary")
    page.get_by_label("Password").fill("pw-secretary-1")
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{base}/ratings/?system=fibs")
    assert "Live ratings as of" in page.locator("p.as-of").inner_text()
    page.get_by_text("Publish an official list (FIBS Elo)").click()
    page.get_by_label("Date of the list").fill("2025-10-31")
    page.get_by_label("Note (optional)").fill("Autumn")
    page.get_by_role("button", name="Publish the list").click()
    assert "The official FIBS Elo list of 31 Oct 2025 is published: 6 players." in page.locator(".messages").inner_text()
    assert page.locator("p.as-of").inner_text().startswith("Official list of 31 Oct 2025 — Autumn.")

    play(players[5], players[0], 10)  # the last beats the first after the list
    ratings.rating_recompute_now(system="fibs")
    phone.goto(f"{base}/ratings/?system=fibs")
    widths = phone.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], "the rating list scrolls sideways at 360 px"
    changes = phone.locator("td[data-label='Change']").all_inner_texts()
    assert len(changes) == 6 and changes.count("0.0") == 4
    assert any(c.startswith("+") for c in changes) and any(c.startswith("\u2212") for c in changes)
    phone.get_by_label("List", exact=True).select_option(label="Official list of 31 Oct 2025")
    phone.get_by_role("button", name="Show", exact=True).click()
    assert phone.locator("p.as-of").inner_text().startswith("Official list of 31 Oct 2025")
    assert phone.locator("td[data-label='Change']").count() == 0  # the first list has none before it
    with phone.expect_download() as download:
        phone.get_by_text("Download the official list of 31 Oct 2025 as CSV").click()
    assert download.value.suggested_filename == "ratings-fibs-2025-10-31.csv"
