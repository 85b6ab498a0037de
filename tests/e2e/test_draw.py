"""A TD looks at a knockout's draw before it is made: moves a seed by keyboard, keeps two players
apart, confirms, and finds on the bracket exactly the round 1 he was shown."""

import re
from datetime import date

import pytest
from django.contrib.auth import get_user_model

from tournaments import services as events
from tournaments.models import Flight, Pairing

from .conftest import ARTIFACTS, cast

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ["Sato", "Holt", "Berg", "Dahl", "Kowalski", "Thygesen", "Moreau", "Lind"]


@pytest.fixture
def draft(db):
    td = get_user_model().objects.create_user("drawer", password="pw-drawer-12345", is_staff=True, is_superuser=True)
    tournament = events.tournament_create(name="Seed Cup", start_date=date(2026, 11, 28), by=td)
    main = events.flight_create(tournament=tournament, name="Main", format="single_elimination", lengths=[5, 7, 9],
                                by=td)
    events.flight_create(tournament=tournament, name="Consolation", kind="consolation", format="single_elimination",
                         lengths=[3], feeders=[{"source": "Main", "source_round": 1, "entry_round": 1}], by=td)
    players = [cast.games.player_create(name=f"{first} {name}", club="Harbour BG", country="DK")
               for first, name in zip(["Kenji", "Ada", "Bo", "Ola", "Greta", "Søren", "Luc", "Eva"], NAMES)]
    for seed, player in enumerate(players, start=1):
        events.entry_check_in(entry=events.entry_add(flight=main, player=player, seed=seed, by=td), by=td)
    return tournament, main, players


def shown_round(page):
    """Round 1 on the page: one "a v b" (or "a bye") line per table, names only."""
    rows = []
    for text in page.locator(".draw-table .t-players").all_inner_texts():
        rows.append(re.sub(r"\s+", " ", re.sub(r"\b\d+\s", "", text)).replace(" fixed", "").strip())
    return rows


def test_a_td_moves_a_seed_by_keyboard_keeps_a_pair_apart_and_confirms_the_draw_he_saw(page, live_server, draft):
    tournament, main, players = draft
    base = live_server.url
    page.goto(f"{base}/login/")
    page.get_by_label("Username").fill("drawer")
    page.get_by_label("Password").fill("pw-drawer-12345")
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").click()

    page.goto(f"{base}/desk/{tournament.slug}/")
    page.get_by_role("button", name="Draw and start Main").click()
    page.wait_for_url(re.compile(rf"/flights/{main.pk}/draw/\??$"))
    assert shown_round(page) == ["Kenji Sato v Eva Lind", "Ola Dahl v Greta Kowalski",
                                 "Ada Holt v Luc Moreau", "Bo Berg v Søren Thygesen"]

    # Greta Kowalski (seed 5) moves up twice, by keyboard alone: the focus stays on her Up button.
    greta = players[4]
    page.get_by_role("button", name="Move Greta Kowalski up to seed 4").focus()
    page.keyboard.press("Enter")
    # The move is a form sent with a new page as its answer: wait for that page (her button now
    # says seed 3) and for the focus on it, not for the old page whose button is still focused.
    page.wait_for_selector(f"#move-{greta.pk}-up[aria-label='Move Greta Kowalski up to seed 3']")
    page.wait_for_function(f"document.activeElement && document.activeElement.id === 'move-{greta.pk}-up'")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#move-{greta.pk}-up[aria-label='Move Greta Kowalski up to seed 2']")
    assert page.evaluate("document.activeElement.id") == f"move-{greta.pk}-up"
    assert " ".join(page.locator(".seed-row .seed-name").nth(2).inner_text().split()).startswith(
        "Seed 3: Greta Kowalski")

    # Kenji Sato and Eva Lind are kept apart in round 1.
    page.get_by_label("Player", exact=True).select_option(label="1. Kenji Sato")
    page.get_by_label("and player").select_option(label="8. Eva Lind")
    page.get_by_role("button", name="Keep them apart").click()
    page.wait_for_selector(".rule-list li:has-text('Kenji Sato and Eva Lind')")
    shown = shown_round(page)
    assert shown == ["Kenji Sato v Luc Moreau", "Bo Berg v Ola Dahl", "Ada Holt v Eva Lind",
                     "Greta Kowalski v Søren Thygesen"]

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "draw-preview-1280.png"), full_page=True)
    page.set_viewport_size({"width": 360, "height": 740})
    page.screenshot(path=str(ARTIFACTS / "draw-preview-360.png"), full_page=True)
    page.screenshot(path=str(ARTIFACTS / "draw-preview-360-screen.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.set_viewport_size({"width": 1280, "height": 900})

    assert Pairing.objects.count() == 0  # nothing is drawn before the confirmation
    page.get_by_role("button", name="Confirm and start Main").click()
    page.wait_for_url(re.compile(rf"/desk/{tournament.slug}/#flight-{main.pk}$"))
    assert "Main started: the first round is drawn." in page.locator(".messages").inner_text()
    assert Flight.objects.get(pk=main.pk).status == "running"
    drawn = [f"{p.player_a.name} v {p.player_b.name}" for p in
             Pairing.objects.filter(flight=main).select_related("player_a", "player_b").order_by("slot")]
    assert drawn == shown

    # The public bracket shows the same round 1.
    page.goto(f"{base}/events/{tournament.slug}/")
    html = page.content()
    for line in shown:
        a, b = line.split(" v ")
        assert a in html and b in html
