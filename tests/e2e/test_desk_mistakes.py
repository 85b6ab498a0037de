"""A TD's slips at the desk: an impossible score is refused where it was typed, a pasted list
asks which players it means, and a result entered by mistake is undone in one click."""

import re

import pytest
from django.contrib.auth import get_user_model

from games import services as games
from games.models import Player
from tournaments import services as events
from tournaments.models import Flight, Pairing

from .conftest import ARTIFACTS, cast

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SETTLED = "document.addEventListener('htmx:afterSettle', () => { window.settled = (window.settled || 0) + 1; });"


def log_in(page, base, username, password):
    page.goto(f"{base}/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def posted(page, action):
    """Run `action` (a click) and wait until htmx has swapped the desk's answer in."""
    before = page.evaluate("window.settled || 0")
    with page.expect_response(lambda r: r.request.method in ("POST", "GET") and "/desk/" in r.url):
        action()
    page.wait_for_function(f"(window.settled || 0) > {before}")


@pytest.fixture
def desk(live_server):
    td = get_user_model().objects.create_user("director", password="pw-director-12345")
    tournament = cast.build_knockout(td, cast.make_players(8), name="Slip Open", results_rounds=0)
    return live_server.url, tournament, td


def test_an_impossible_final_score_is_refused_at_its_field_and_a_possible_one_is_recorded(page, desk):
    base, tournament, _ = desk
    page.add_init_script(SETTLED)
    log_in(page, base, "director", "pw-director-12345")
    page.goto(f"{base}/desk/{tournament.slug}/")
    pairing = Pairing.objects.filter(flight__tournament=tournament, status="pending",
                                     player_b__isnull=False).select_related("player_a", "player_b").order_by("id")[0]
    page.fill(f"#p{pairing.pk}-a", "55")
    page.fill(f"#p{pairing.pk}-b", "3")
    posted(page, lambda: page.click(f"#pairing-{pairing.pk} .q-save"))
    error = page.locator(f"#p{pairing.pk}-err")
    error.wait_for()
    assert error.inner_text().startswith(
        "55–3 is not a possible final score: in a 5-point match where the loser has 3, the winner ends on 5 to 20,")
    assert page.locator(f"#p{pairing.pk}-a").input_value() == "55"
    pairing.refresh_from_db()
    assert (pairing.status, pairing.score_a, pairing.match_id) == ("pending", None, None)

    page.fill(f"#p{pairing.pk}-a", "7")
    posted(page, lambda: page.click(f"#pairing-{pairing.pk} .q-save"))
    page.locator(".desk-status", has_text="recorded").wait_for()
    pairing.refresh_from_db()
    assert (pairing.status, pairing.score_a, pairing.score_b) == ("finished", 7, 3)

    # Entered by mistake: undone in one click from the latest results.
    page.locator("#recent-results summary").click()
    words = f"Main {pairing.slot}: {pairing.player_a.name} 7–3 {pairing.player_b.name}"
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#recent-results").screenshot(path=str(ARTIFACTS / "desk-undo-1280.png"))
    posted(page, lambda: page.get_by_role("button", name=f"Undo {words}").click())
    page.locator(".desk-status", has_text=f"Undone: {words}. The match is open again.").wait_for()
    pairing.refresh_from_db()
    assert (pairing.status, pairing.score_a, pairing.winner_id) == ("pending", None, None)


def _paste_page(page, base, tournament):
    page.add_init_script(SETTLED)
    log_in(page, base, "director", "pw-director-12345")
    page.goto(f"{base}/desk/{tournament.slug}/")
    page.get_by_label("Players, one per line").fill("Greta Kowalsky\nSoren Thygesen\nKowalski, Greta\nAnna\n")
    posted(page, lambda: page.get_by_role("button", name="Enter the list").click())
    return page.locator(".paste-plan")


@pytest.fixture
def side_flight(desk):
    base, tournament, td = desk
    flight = events.flight_create(tournament=tournament, name="Side", format="swiss", lengths=[3], swiss_rounds=3,
                                  by=td)
    cast_players = {
        "greta": games.player_create(name="Greta Kowalski", club="Warsaw BC"),
        "soren": games.player_create(name="Søren Thygesen", club="Copenhagen BG"),
        "anna": games.player_create(name="Anna Berg", club="Oslo BK"),
    }
    return base, tournament, flight, cast_players


def test_a_pasted_list_asks_which_players_it_means_and_creates_none_silently(page, side_flight):
    base, tournament, flight, known = side_flight
    before = Player.objects.count()
    plan = _paste_page(page, base, tournament)
    text = plan.inner_text()
    assert "Did you mean Søren Thygesen (Copenhagen BG, 1500)?" in text
    assert "Did you mean Greta Kowalski (Warsaw BC, 1500)?" in text
    assert "Kowalski, Greta read as Greta Kowalski" in text
    assert "Did you mean Anna Berg (Oslo BK, 1500)?" in text
    assert Player.objects.count() == before and Flight.objects.get(pk=flight.pk).entries.count() == 0
    ARTIFACTS.mkdir(exist_ok=True)
    plan.screenshot(path=str(ARTIFACTS / "desk-paste-1280.png"))

    lines = plan.locator("li")
    lines.nth(0).get_by_label(re.compile("Use Greta Kowalski")).check()
    lines.nth(1).get_by_label(re.compile("Use Søren Thygesen")).check()
    lines.nth(2).get_by_label(re.compile("Use Greta Kowalski")).check()
    lines.nth(3).get_by_label("New player: Anna").check()
    posted(page, lambda: page.get_by_role("button", name="Enter the list").click())
    page.locator(".desk-status", has_text="entered in Side").wait_for()
    entered = sorted(Flight.objects.get(pk=flight.pk).entries.values_list("player__name", flat=True))
    assert entered == ["Anna", "Greta Kowalski", "Søren Thygesen"]
    assert Player.objects.count() == before + 1


def test_the_paste_question_and_the_undo_fit_a_phone(phone, side_flight):
    base, tournament, _, _ = side_flight
    td = get_user_model().objects.get(username="director")
    first = Pairing.objects.filter(flight__tournament=tournament, status="pending", player_b__isnull=False)[0]
    events.result_report(pairing=first, by=td, score_a=5, score_b=4)
    plan = _paste_page(phone, base, tournament)
    plan.locator("fieldset").first.wait_for()
    widths = phone.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1]
    box = plan.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    ARTIFACTS.mkdir(exist_ok=True)
    plan.screenshot(path=str(ARTIFACTS / "desk-paste-360.png"))
    phone.locator("#recent-results summary").click()
    undo = phone.locator("#recent-results .recent-row").first
    undo.get_by_role("button", name="Undo").wait_for()
    box = undo.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    phone.locator("#recent-results").screenshot(path=str(ARTIFACTS / "desk-undo-360.png"))


@pytest.mark.parametrize("width", [1280, 360])
def test_a_match_with_a_game_on_its_sheet_takes_the_slips_final_score_in_its_row(browser, desk, width):
    from tournaments.services import scoresheet

    base, tournament, td = desk
    pairing = Pairing.objects.filter(flight__tournament=tournament, status="pending",
                                     player_b__isnull=False).order_by("id")[0]
    pairing = events.pairing_start(pairing=pairing, by=td)
    scoresheet.pairing_game_record(match=pairing.match, number=1, game=games.GameInput(winner=0), by=td)
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True, service_workers="block")
    page = context.new_page()
    page.add_init_script(SETTLED)
    log_in(page, base, "director", "pw-director-12345")
    page.goto(f"{base}/desk/{tournament.slug}/")
    row = page.locator(f"#pairing-{pairing.pk}")
    assert row.locator(".q-sofar").inner_text() == "1–0 so far"
    page.fill(f"#p{pairing.pk}-a", "5")
    page.fill(f"#p{pairing.pk}-b", "2")
    box = row.locator(".q-save").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    ARTIFACTS.mkdir(exist_ok=True)
    row.screenshot(path=str(ARTIFACTS / f"desk-so-far-{width}.png"))
    posted(page, lambda: row.locator(".q-save").click())
    page.locator(".desk-status", has_text="recorded").wait_for()
    pairing.refresh_from_db()
    assert (pairing.status, pairing.score_a, pairing.score_b) == ("finished", 5, 2)
    context.close()


@pytest.mark.parametrize("width", [1280, 360])
def test_the_undo_of_a_walkover_a_withdrawal_gave_offers_the_withdrawals_undo_there(browser, desk, width):
    from tournaments.models import Entry

    base, tournament, td = desk
    pairing = Pairing.objects.filter(flight__tournament=tournament, status="pending",
                                     player_b__isnull=False).select_related("player_a").order_by("id")[0]
    leaving = Entry.objects.get(flight=pairing.flight, player=pairing.player_a)
    events.entry_withdraw(entry=leaving, by=td, reason="went home")
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True, service_workers="block")
    page = context.new_page()
    page.add_init_script(SETTLED)
    log_in(page, base, "director", "pw-director-12345")
    page.goto(f"{base}/desk/{tournament.slug}/")
    page.locator("#recent-results summary").click()
    posted(page, lambda: page.locator("#recent-results .recent-row").first.get_by_role("button", name="Undo").click())
    name = pairing.player_a.name
    page.locator(".desk-status", has_text=f"{name} has withdrawn: undo the withdrawal").wait_for()
    offer = page.get_by_role("button", name=f"Undo the withdrawal of {name}")
    box = offer.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"desk-withdrawal-offer-{width}.png"))
    posted(page, lambda: offer.click())
    page.locator(".desk-status", has_text=f"{name} is in again: the withdrawal and its walkovers are undone.").wait_for()
    pairing.refresh_from_db()
    leaving.refresh_from_db()
    assert (pairing.status, pairing.winner_id, leaving.status) == ("pending", None, "checked_in")
    assert page.get_by_role("button", name=f"Undo the withdrawal of {name}").count() == 0
    context.close()


@pytest.mark.parametrize("width", [1280, 360])
def test_an_improbable_final_score_asks_before_it_is_recorded(browser, desk, width):
    base, tournament, _ = desk
    pairing = Pairing.objects.filter(flight__tournament=tournament, status="pending",
                                     player_b__isnull=False).order_by("id")[0]
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True, service_workers="block")
    page = context.new_page()
    page.add_init_script(SETTLED)
    log_in(page, base, "director", "pw-director-12345")
    page.goto(f"{base}/desk/{tournament.slug}/")
    page.fill(f"#p{pairing.pk}-a", "50")
    page.fill(f"#p{pairing.pk}-b", "3")
    posted(page, lambda: page.click(f"#pairing-{pairing.pk} .q-save"))
    error = page.locator(f"#p{pairing.pk}-err")
    error.wait_for()
    assert error.inner_text().startswith(
        "50-3 needs a cube of 16 or more in the last game of a 5-point match: check the slip, then confirm to record "
        "it.")
    pairing.refresh_from_db()
    assert (pairing.status, pairing.score_a) == ("pending", None)
    sure = error.get_by_role("button", name="Yes, record 50–3")
    box = sure.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(f"#pairing-{pairing.pk}").screenshot(path=str(ARTIFACTS / f"desk-improbable-{width}.png"))
    posted(page, lambda: sure.click())
    page.locator(".desk-status", has_text="recorded").wait_for()
    pairing.refresh_from_db()
    assert (pairing.status, pairing.score_a, pairing.score_b) == ("finished", 50, 3)
    context.close()
