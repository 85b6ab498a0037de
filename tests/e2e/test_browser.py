"""A TD runs an event and a visitor follows it, in a real browser."""

import re

import pytest
from django.contrib.auth import get_user_model

from games.models import Game, Match

from .conftest import cast

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def log_in(page, base, username, password):
    page.goto(f"{base}/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def test_td_creates_an_event_and_enters_a_match_with_a_refused_crawford_double(page, live_server):
    get_user_model().objects.create_user("chief", password="pw-chief-12345", is_staff=True, is_superuser=True)
    players = cast.make_players(4, prefix="Entrant")
    base = live_server.url
    log_in(page, base, "chief", "pw-chief-12345")

    page.goto(f"{base}/desk/")
    page.get_by_label("Name").fill("Harbour Cup")
    page.get_by_label("First day").fill("2026-11-22")
    page.get_by_role("button", name="Create the event").click()
    page.wait_for_url(re.compile(r"/desk/harbour-cup-2026/"))

    page.get_by_label("Flight name").fill("Main")
    page.get_by_label("Match lengths by round").fill("3")
    page.get_by_label("Seeding").select_option("manual")
    page.get_by_role("button", name="Add the flight").click()
    expect(page.locator(".desk-status")).to_contain_text("Flight Main added.")

    for player in players:
        page.get_by_label("Find a player").fill(player.name)
        page.get_by_role("button", name="Search").click()
        page.get_by_role("button", name=f"Enter {player.name} in Main").click()
        expect(page.locator(".desk-status")).to_contain_text(f"{player.name} entered in Main.")
    page.get_by_role("button", name="Check in all 4").click()
    page.get_by_role("button", name="Draw and start Main").click()
    page.get_by_role("button", name="Confirm and start Main").click()
    expect(page.locator(".messages")).to_contain_text("Main started")

    page.get_by_role("button", name="Score sheet").first.click()
    page.wait_for_url(re.compile(r"/matches/\d+/enter/"))
    match = Match.objects.get(pk=int(re.search(r"/matches/(\d+)/", page.url)[1]))
    a_name = match.player_a.name

    page.get_by_label(a_name).first.check()
    page.get_by_label("Gammon", exact=True).check()
    page.get_by_role("button", name="Record game 1").click()
    assert "Game 1 recorded" in page.content()

    notice = page.locator("#crawford-note")
    assert "Game 2 is the Crawford game" in notice.inner_text()
    page.get_by_label(a_name).first.check()
    # The sheet prevents it (the cube is disabled, the reason shown); the server refuses it too,
    # for a client without the script.
    assert page.get_by_label("Cube value").is_disabled()
    assert "Game 2 is the Crawford game" in page.locator("#cube-why").inner_text()
    page.evaluate("""() => { const f = document.querySelector('form[data-sheet]');
        f.querySelector('input[type=hidden][name=cube]').remove();
        const c = f.querySelector('select[name=cube]'); c.disabled = false; c.value = '2'; }""")
    page.get_by_role("button", name="Record game 2").click()
    error = page.locator("#id_cube_error")
    assert "Game 2 is the Crawford game: the cube cannot be turned." in error.inner_text()
    assert Game.objects.filter(match=match).count() == 1

    page.get_by_role("button", name="Record game 2").click()
    assert f"Match over: {a_name} wins 3–0." in page.content()
    assert page.get_by_role("button", name=re.compile("Record game")).count() == 0
    match.refresh_from_db()
    assert match.status == "finished" and match.pairing.status == "finished"


def test_visitor_follows_the_bracket_a_player_and_the_rating_list(page, phone, live_server, django_user_model):
    td = django_user_model.objects.create_user("director", password="pw-director-1")
    players = cast.make_players(8)
    tournament = cast.build_knockout(td, players)
    replay = cast.build_replay_match(players[:2])
    cast.publish_ratings()
    base = live_server.url

    page.goto(f"{base}/events/{tournament.slug}/")
    slot = page.locator(".bk a.bk-box.played").first
    slot.focus()
    assert page.evaluate("document.activeElement.classList.contains('bk-box')")
    target = slot.get_attribute("href")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(re.escape(target) + "$"))
    if target.startswith("#"):
        assert page.locator(target).is_visible()  # the same match in the round-by-round list
    else:
        assert page.locator("h1").inner_text().count(" v ") == 1  # the match's score sheet

    page.goto(f"{base}/matches/{replay.pk}/games/1/")
    output = page.locator(".replay output")
    assert output.inner_text().startswith("Position 1 of")
    page.locator(".replay").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert output.inner_text().startswith("Position 3 of")
    assert page.locator(".frame.current svg").count() == 1

    page.goto(f"{base}/players/{players[0].pk}/")
    assert page.locator("svg.chart").count() == 1
    assert "Head to head" in page.content()

    page.goto(f"{base}/ratings/?system=fibs&provisional=1")
    page.get_by_label("Player name").fill(players[1].name)
    page.get_by_role("button", name="Search").click()
    rows = page.locator("tbody tr")
    assert rows.count() == 1 and players[1].name in rows.first.inner_text()

    phone.goto(f"{base}/events/{tournament.slug}/")
    widths = phone.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], "the page scrolls sideways at 360 px"
    # One round at a time on a phone: the round tabs choose it.
    main = phone.locator(".bk-frame").first
    assert main.locator(".bk-box:visible").count() == 2  # round 2 is being played
    main.get_by_role("button", name="Quarter-finals").click()
    assert main.locator(".bk-box:visible").count() == 4


def test_players_report_and_dispute_on_a_phone(phone, live_server, django_user_model):
    from tournaments import services as events
    from tournaments.models import Pairing, ResultReport

    td = django_user_model.objects.create_user("director", password="pw-director-1")
    staff = django_user_model.objects.create_user("office", is_staff=True, is_superuser=True)
    players = cast.make_players(4)
    tournament = cast.build_knockout(td, players, results_rounds=0)
    pairing = Pairing.objects.filter(flight__tournament=tournament, flight__name="Main").select_related(
        "player_a", "player_b").order_by("slot").first()
    for player, login in ((pairing.player_a, "ann"), (pairing.player_b, "bob")):
        user = django_user_model.objects.create_user(login, password=f"pw-{login}-12345")
        events.player_account_link(player=player, user=user, by=staff)
    base = live_server.url

    log_in(phone, base, "ann", "pw-ann-12345")
    phone.get_by_role("link", name="My matches").click()
    phone.get_by_label(pairing.player_a.name).fill("5")
    phone.get_by_label(pairing.player_b.name).fill("3")
    phone.get_by_role("button", name="Report the result").click()
    assert "It counts when your opponent confirms it." in phone.content()
    widths = phone.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], "My matches scrolls sideways at 360 px"
    phone.get_by_role("button", name=re.compile("Log out")).click()

    log_in(phone, base, "bob", "pw-bob-12345")
    phone.goto(f"{base}/me/")
    phone.get_by_label("What is wrong with it").fill("It was 5-4")
    phone.get_by_role("button", name="Dispute").click()
    assert "disputed. The TD will rule on it." in phone.content()
    assert ResultReport.objects.get(pairing=pairing).status == "disputed"


@pytest.mark.slow
def test_every_page_fits_a_360_px_phone(phone, page, live_server, django_user_model):
    """No page scrolls sideways on a small phone; only a bracket's own box may. Every page is also
    kept as a picture at 360 and 1280 px in e2e-artifacts/screens/, for people to look at."""
    from .conftest import ARTIFACTS

    screens = ARTIFACTS / "screens"
    screens.mkdir(parents=True, exist_ok=True)
    td = django_user_model.objects.create_user("director", password="pw-director-1")
    players = cast.make_players(16)
    knockout = cast.build_knockout(td, players[:8])
    swiss = cast.build_swiss(td, players[8:], rounds_played=1)
    replay = cast.build_replay_match(players[:2])
    cast.publish_ratings()
    base = live_server.url
    public = ["/", "/events/", f"/events/{knockout.slug}/", f"/events/{swiss.slug}/", f"/players/{players[0].pk}/",
              "/ratings/", "/ratings/?system=fibs&provisional=1", "/ratings/formula/",
              f"/ratings/chances/?player_a={players[0].pk}&player_b={players[1].pk}&length=7",
              f"/matches/{replay.pk}/", f"/matches/{replay.pk}/games/1/"]
    desk = ["/desk/", f"/desk/{knockout.slug}/", f"/desk/{knockout.slug}/slips/", f"/desk/{swiss.slug}/", "/me/"]
    wide = []
    for path in public + ["login"] + desk:
        if path == "login":
            log_in(phone, base, "director", "pw-director-1")
            log_in(page, base, "director", "pw-director-1")
            continue
        phone.goto(f"{base}{path}")
        scroll, client = phone.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        if scroll > client:
            wide.append(f"{path} ({scroll} px)")
        # A table wider than the phone scrolls in its own box; its caption wraps within the screen.
        wide += [f"{path}: caption {right:.0f} px" for right in phone.evaluate(
            "[...document.querySelectorAll('.table-wrap caption')].map(c => c.getBoundingClientRect().right)")
            if right > client]
        name = re.sub(r"[^a-z0-9]+", "-", path.split("?")[0].lower()).strip("-") or "home"
        if "?" in path:
            name += "-" + re.sub(r"[^a-z0-9]+", "-", path.split("?")[1].lower()).strip("-")[:24]
        phone.screenshot(path=str(screens / f"{name}-360.png"), full_page=True)
        page.goto(f"{base}{path}")
        page.screenshot(path=str(screens / f"{name}-1280.png"), full_page=True)
    assert not wide, f"these pages scroll sideways at 360 px: {wide}"
