"""A spectator follows a running event: live updates morph into the page and never lose his place."""

import pytest

from tournaments import services as events
from tournaments.models import Pairing

from .conftest import cast

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def wait_until_shown_played(page, pairing):
    """Wait for the state, not for a number of updates: the reported match shown as played."""
    box = f"box-slot-{pairing.flight_id}-{pairing.slot}"
    page.wait_for_function(
        "id => { const box = document.getElementById(id); return box && box.classList.contains('played'); }",
        arg=box, timeout=15000,
    )


def report_one(tournament, td):
    pairing = Pairing.objects.filter(flight__tournament=tournament, flight__name="Main", status="pending",
                                     player_b__isnull=False).select_related("round").order_by("id").first()
    events.result_report(pairing=pairing, by=td, score_a=pairing.round.length, score_b=1)
    return pairing


def test_a_spectator_keeps_his_place_through_a_live_update(page, live_server, settings, django_user_model):
    settings.EVENT_REFRESH_SECONDS = 1
    td = django_user_model.objects.create_user("director", password="pw-director-1")
    tournament = cast.build_knockout(td, cast.make_players(32), results_rounds=0)
    page.set_viewport_size({"width": 900, "height": 700})
    page.goto(f"{live_server.url}/events/{tournament.slug}/")
    frame = page.locator(".bk-scroll").first
    page.locator("details.about summary").first.click()
    box = page.locator(".bk a.bk-box.ready").nth(3)
    box.scroll_into_view_if_needed()
    box.focus()
    frame.evaluate("el => { el.scrollLeft = 300; }")
    focused = page.evaluate("document.activeElement.id")
    scroll_y = page.evaluate("window.scrollY")
    assert focused.startswith("box-slot-")

    pairing = report_one(tournament, td)
    wait_until_shown_played(page, pairing)

    assert frame.evaluate("el => el.scrollLeft") == 300
    assert page.locator("details.about").first.evaluate("el => el.open")
    assert page.evaluate("document.activeElement.id") == focused
    assert page.evaluate("window.scrollY") == scroll_y
    reported = page.locator(f"#box-slot-{pairing.flight_id}-{pairing.slot}")
    assert "played" in reported.get_attribute("class")


def test_a_phone_keeps_its_round_tab_and_finds_a_match_by_name(phone, live_server, settings, django_user_model):
    settings.EVENT_REFRESH_SECONDS = 1
    td = django_user_model.objects.create_user("director", password="pw-director-1")
    players = cast.make_players(16)
    tournament = cast.build_knockout(td, players, results_rounds=1)
    phone.goto(f"{live_server.url}/events/{tournament.slug}/")
    main = phone.locator(".bk-frame").first
    assert main.get_by_role("button", name="Quarter-finals").get_attribute("aria-pressed") == "true"
    main.get_by_role("button", name="Semi-finals").click()
    assert main.locator(".bk-box:visible").count() == 2

    someone = Pairing.objects.filter(flight__tournament=tournament, flight__name="Main", status="pending",
                                     player_b__isnull=False).select_related("player_a").first().player_a
    phone.get_by_label("Find my match").fill(someone.name)
    assert phone.locator(".now-item:visible").count() == 1
    assert "1 match to play now" in phone.locator("#find-match-result").inner_text()

    wait_until_shown_played(phone, report_one(tournament, td))
    # The tab is put back once the update has settled: wait for that state.
    from playwright.sync_api import expect

    expect(main.get_by_role("button", name="Semi-finals")).to_have_attribute("aria-pressed", "true")
    assert main.locator(".bk-box:visible").count() == 2
    assert phone.get_by_label("Find my match").input_value() == someone.name
    widths = phone.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1]


def test_find_my_match_answers_in_arabic_with_the_plural_form_of_its_count(phone, live_server, django_user_model):
    td = django_user_model.objects.create_user("director", password="pw-director-1")
    tournament = cast.build_knockout(td, cast.make_players(8), results_rounds=0)
    phone.context.set_extra_http_headers({"Accept-Language": "ar"})
    phone.goto(f"{live_server.url}/events/{tournament.slug}/")
    pending = list(Pairing.objects.filter(flight__tournament=tournament, status="pending", player_b__isnull=False)
                   .select_related("player_a", "player_b").order_by("slot"))
    find = phone.locator("#find-match")
    result = phone.locator("#find-match-result")

    find.fill(pending[0].player_a.name)
    assert result.inner_text() == f"1 مباراة واحدة للعب الآن لـ «{pending[0].player_a.name}»."
    # every player of the first round is named "Player …": four matches, the Arabic form of 3 to 10
    shared = "Player"
    find.fill(shared)
    shown = phone.locator(".now-item:visible").count()
    assert shown == len(pending) == 4
    assert result.inner_text() == f"4 مباريات للعب الآن لـ «{shared}»."
    find.fill("zzz")
    assert result.inner_text() == "لا مباراة للعب الآن لـ «zzz»."
