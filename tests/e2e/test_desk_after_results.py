"""What the desk shows once results come in, at 1280 px and on a 360 px phone: a queue filter
typed for one match does not outlive it (*Next match* from the score sheet, a confirmed
correction), *Call all* seats a round in bracket order whatever order its matches were made in,
and the desk names a flight's champion in its first screen."""

from datetime import date

import pytest
from django.contrib.auth import get_user_model

from tournaments import services as events
from tournaments.models import Pairing

from .conftest import cast

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
WIDTHS = [1280, 360]
OPEN_ROWS_SHOWN = "[...document.querySelectorAll('#desk-main .q-row:not(.is-finished)')].filter(r => !r.hidden && r.offsetParent !== null).length"


def _log_in(page, base):
    page.goto(f"{base}/login/")
    page.get_by_label("Username").fill("director")
    page.get_by_label("Password").fill("pw-director-12345")
    page.get_by_role("button", name="Log in").click()


def _context(browser, width):
    return browser.new_context(viewport={"width": width, "height": 800}, bypass_csp=True)


def _pending(tournament, round_number, flight="Main"):
    return list(Pairing.objects.filter(flight__tournament=tournament, flight__name=flight, round__number=round_number,
                                       status="pending", player_b__isnull=False)
                .select_related("round", "flight__tournament", "player_a", "player_b").order_by("slot"))


def _knockout(players: int):
    td = get_user_model().objects.create_user("director", password="pw-director-12345")
    creator = get_user_model().objects.create_user("office", is_staff=True, is_superuser=True)
    tournament = events.tournament_create(name="Result Open", start_date=date(2026, 12, 5), organisers=[td],
                                          by=creator)
    flight = events.flight_create(tournament=tournament, name="Main", format="single_elimination", lengths=[3],
                                  seeding="random", random_seed=7, by=td)
    for player in cast.make_players(players):
        events.entry_check_in(entry=events.entry_add(flight=flight, player=player, by=td), by=td)
    events.flight_start(flight=flight, by=td)
    return tournament, td


@pytest.mark.parametrize("width", WIDTHS)
def test_a_filter_typed_for_one_match_does_not_outlive_it(browser, live_server, width):
    tournament, td = _knockout(8)
    first, *others = _pending(tournament, 1)
    context = _context(browser, width)
    try:
        page = context.new_page()
        _log_in(page, live_server.url)
        desk = f"{live_server.url}/desk/{tournament.slug}/"
        page.goto(desk)
        page.locator("#qf-find").fill(first.player_a.name)
        assert page.evaluate(OPEN_ROWS_SHOWN) == 1
        # Its result is entered on the score sheet (away from the desk), whose *Next match* leads
        # back to the desk.
        page.goto("about:blank")
        events.result_report(pairing=first, by=td, score_a=3, score_b=1)
        page.goto(f"{desk}#next")
        assert page.locator("#qf-find").input_value() == ""
        assert page.evaluate(OPEN_ROWS_SHOWN) == len(others) == 3
        # Found again to be corrected: once the correction is confirmed, the queue is whole again.
        page.locator("#qf-find").fill(first.player_b.name)
        page.goto(f"{desk}pairings/{first.pk}/")
        page.get_by_label(f"{first.player_a.name}'s points").fill("1")
        page.get_by_label(f"{first.player_b.name}'s points").fill("3")
        page.get_by_role("button", name="Show what it changes").click()
        page.get_by_role("button", name="Confirm: record this result").click()
        page.wait_for_url(desk)
        assert page.locator("#qf-find").input_value() == ""
        assert page.evaluate(OPEN_ROWS_SHOWN) == 3
        assert page.locator("#count-call").inner_text() == "3"
    finally:
        context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_call_all_seats_a_round_in_bracket_order_whatever_order_its_results_came_in(browser, live_server, width):
    tournament, td = _knockout(16)
    events.tables_set(tournament=tournament, by=td, count=4, reserved=[])
    first_round = {p.slot: p for p in _pending(tournament, 1)}
    # The bottom of the bracket finishes first: R2-4 is made before R2-3, R2-1 and R2-2.
    for slot in ("R1-7", "R1-8", "R1-5", "R1-6", "R1-1", "R1-2", "R1-3", "R1-4"):
        events.result_report(pairing=first_round[slot], by=td, score_a=3, score_b=0)
    context = _context(browser, width)
    try:
        page = context.new_page()
        _log_in(page, live_server.url)
        page.goto(f"{live_server.url}/desk/{tournament.slug}/")
        page.get_by_role("button", name="Call all to tables").click()
        page.wait_for_function("document.getElementById('count-table').textContent.trim() === '4'")
        seated = {p.slot: p.table for p in Pairing.objects.filter(flight__tournament=tournament, round__number=2)}
        assert seated == {"R2-1": "1", "R2-2": "2", "R2-3": "3", "R2-4": "4"}
        for slot, table in seated.items():
            row = page.locator(".q-row", has=page.locator(".q-slot", has_text=slot))
            assert row.locator(".q-table b").inner_text() == table
    finally:
        context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_desk_names_the_champion_when_the_final_is_saved(browser, live_server, width):
    tournament, td = _knockout(4)
    for pairing in _pending(tournament, 1):
        events.result_report(pairing=pairing, by=td, score_a=3, score_b=2)
    (final,) = _pending(tournament, 2)
    context = _context(browser, width)
    try:
        page = context.new_page()
        _log_in(page, live_server.url)
        page.goto(f"{live_server.url}/desk/{tournament.slug}/")
        page.locator(f"#p{final.pk}-a").fill("1")
        page.locator(f"#p{final.pk}-b").fill("3")
        page.locator(f"#p{final.pk}-b").press("Enter")
        champion = page.get_by_text(f"Champion of Main: {final.player_b.name}")
        champion.wait_for()
        box = champion.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 800, "the champion is not in the desk's first screen"
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
    finally:
        context.close()
