"""The venue's network drops; the results do not. A TD types results offline, reloads, closes and
reopens the desk, and they arrive once each, in the order typed, when the network returns; a
network that comes and goes during 30 Saves loses none and doubles none; a result that met
another one is shown with both scores and settled by the TD; a player's report from his phone
says "sent" only when it was."""

import re
import time
from datetime import date
from pathlib import Path

import pytest
from playwright.sync_api import expect
from django.contrib.auth import get_user_model

from tournaments import services as events
from tournaments.models import Pairing, ResultReport

from .conftest import cast

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/offline-shots")
PASSWORD = "pw-director-offline"


def knockout(players: int, name: str):
    td = get_user_model().objects.create_user("director", password=PASSWORD)
    office = get_user_model().objects.create_user("office", is_staff=True, is_superuser=True)
    event = events.tournament_create(name=name, start_date=date(2026, 11, 28), organisers=[td], by=office)
    main = events.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[5] * 8,
                                seeding="random", random_seed=5, by=td)
    for player in cast.make_players(players, "Cellar"):
        events.entry_check_in(entry=events.entry_add(flight=main, player=player, by=td), by=td)
    events.flight_start(flight=main, by=td)
    return td, event


def desk_context(browser, width: int, height: int):
    # Waits that evaluate script need the page's Content-Security-Policy set aside (as in conftest).
    return browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)


def first_round(event) -> list[Pairing]:
    return list(Pairing.objects.filter(flight__tournament=event, round__number=1, player_b__isnull=False)
                .select_related("player_a", "player_b").order_by("id"))


def log_in_at_the_desk(page, base, event):
    page.goto(f"{base}/login/")
    page.get_by_label("Username").fill("director")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{base}/desk/{event.slug}/")


def kept_copy(page):
    """Wait until the page says it opens offline (the service worker answered that it kept it), and
    check that the copy is there, as a reload offline needs."""
    expect(page.locator("html[data-offline-ready=yes]")).to_have_count(1, timeout=30000)
    assert page.evaluate("async () => !!(await caches.match(location.href.split('#')[0], {ignoreVary: true}))")


def score(i: int) -> tuple[int, int]:
    return (5, i % 5) if i % 2 else (i % 5, 5)


def type_result(page, pairing, a, b):
    page.fill(f"#p{pairing.pk}-a", str(a))
    page.fill(f"#p{pairing.pk}-b", str(b))
    page.press(f"#p{pairing.pk}-b", "Enter")


def waiting(page, count: int):
    # a locator is looked up again on every try, so the wait holds across the page reopening from
    # its kept copy (a function waited on in the page before it reopened is not)
    expect(page.locator("#offline-count")).to_have_text(str(count), timeout=20000)


def shot(page, name: str):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name))


def stored_in_order(typed: list[tuple]) -> None:
    """Each typed result stored once, with its score, in the order typed."""
    reports = list(ResultReport.objects.filter(pairing__in=[p for p, _ in typed]).order_by("id"))
    assert [(r.pairing_id, r.score_a, r.score_b) for r in reports] == [(p.pk, *s) for p, s in typed]


@pytest.mark.parametrize("width", [1280, 360])
def test_results_typed_offline_survive_a_reload_and_a_closed_tab_and_arrive_once_in_order(browser, live_server,
                                                                                         width):
    td, event = knockout(32, f"Cellar Open {width}")
    count = 10
    context = desk_context(browser, width, 900)
    context.set_default_timeout(10000)
    page = context.new_page()
    log_in_at_the_desk(page, live_server.url, event)
    pairings = first_round(event)[:count]
    kept_copy(page)

    context.set_offline(True)
    typed = []
    for i, pairing in enumerate(pairings):
        type_result(page, pairing, *score(i))
        typed.append((pairing, score(i)))
    waiting(page, count)
    state = page.locator("#offline-state")
    assert re.sub(r"\s+", " ", state.inner_text()).strip() == (
        f"{count} Offline: results you type are kept on this computer and sent when the network returns. "
        f"{count} results waiting to send.")
    first = typed[0][0]
    assert page.locator(f"#pairing-{first.pk} .q-kept").inner_text() == (
        f"Waiting to send: {first.player_a.name} {typed[0][1][0]}–{typed[0][1][1]} {first.player_b.name}. "
        "Kept on this computer; it goes by itself.")
    shot(page, f"desk-offline-{width}.png")
    assert not ResultReport.objects.exists()
    # Meanwhile the server records another match: the desk reloaded offline cannot know it.
    elsewhere = first_round(event)[count]
    events.result_report(pairing=elsewhere, by=td, score_a=5, score_b=0)

    page.reload()  # offline: the copy the service worker kept, with the kept results on their rows
    waiting(page, count)
    assert page.locator(".q-row.is-queued").count() == count
    assert page.locator(f"#p{elsewhere.pk}-a").count() == 1  # the last state known, from the copy kept
    page.close()
    page = context.new_page()  # the tab closed and opened again, still offline
    page.goto(f"{live_server.url}/desk/{event.slug}/")
    waiting(page, count)
    assert page.locator(f"#p{first.pk}-a").input_value() == str(typed[0][1][0])

    context.set_offline(False)  # they go one after another: give a busy machine time
    page.wait_for_function("document.getElementById('offline-state').hidden", timeout=40000)
    page.wait_for_function(f"!document.querySelector('#p{typed[-1][0].pk}-a')")  # the desk shows them as stored
    assert page.locator(f"#p{elsewhere.pk}-a").count() == 0
    stored_in_order(typed)
    page.goto(f"{live_server.url}/events/{event.slug}/")
    bracket = page.locator("main").inner_text()
    for pairing, (a, b) in typed:
        winner = pairing.player_a if a > b else pairing.player_b
        assert winner.name in bracket
    for pairing, (a, b) in typed:
        pairing.refresh_from_db()
        assert (pairing.status, pairing.score_a, pairing.score_b) == ("finished", a, b)
    # and rated: every result typed offline is in each system's published ratings, once the
    # server's work after its last answers is done (it may still run when the desk shows them)
    matches = {pairing.match_id for pairing, _ in typed}
    assert unrated_after_the_last_answers(matches) == {"fibs": [], "crawford": []}
    from ratings.models import RatingChange, RatingSystemState

    for system in ("fibs", "crawford"):  # each once, a change for each player
        run = RatingSystemState.objects.get(system=system).published_run_id
        rated = RatingChange.objects.filter(run_id=run, match_id__in=matches).values_list("match_id", flat=True)
        assert sorted(rated) == sorted([match for match in matches for _ in "ab"]), system
    context.close()


def unrated_after_the_last_answers(matches: set[int], patience: float = 30.0) -> dict[str, list[int]]:
    """Per system, the `matches` missing from its published ratings, once the work the server
    does after its responses has ended (polled: the last response's work may not have begun)."""
    from ratings import background
    from ratings.models import RatingChange, RatingSystemState

    deadline = time.monotonic() + patience
    while True:
        background.wait()
        missing = {}
        for system in ("fibs", "crawford"):
            run = RatingSystemState.objects.get(system=system).published_run_id
            rated = set(RatingChange.objects.filter(run_id=run, match_id__in=matches).values_list("match_id", flat=True))
            missing[system] = sorted(matches - rated)
        if not any(missing.values()) or time.monotonic() > deadline:
            return missing
        time.sleep(0.2)


def test_a_network_that_drops_every_2_s_during_30_saves_loses_none_and_doubles_none(browser, live_server):
    td, event = knockout(64, "Flaky Wifi Open")
    context = desk_context(browser, 1280, 900)
    context.set_default_timeout(20000)
    page = context.new_page()
    log_in_at_the_desk(page, live_server.url, event)
    pairings = first_round(event)[:30]
    typed, offline, switched = [], False, 0
    last = time.monotonic()
    for i, pairing in enumerate(pairings):
        if time.monotonic() - last >= 2:
            offline = not offline
            context.set_offline(offline)
            switched += 1
            last = time.monotonic()
        type_result(page, pairing, *score(i))
        typed.append((pairing, score(i)))
        page.wait_for_timeout(150)  # a TD's pace
    context.set_offline(False)
    page.wait_for_function("document.getElementById('offline-count').textContent === '0'", timeout=60000)
    page.wait_for_function("!document.querySelector('.q-row.is-queued, .q-row.is-conflict, form.q-score.is-saving')",
                           timeout=30000)
    assert switched >= 2
    for pairing, (a, b) in typed:
        assert ResultReport.objects.filter(pairing=pairing).count() == 1
        pairing.refresh_from_db()
        assert (pairing.score_a, pairing.score_b) == (a, b)
    context.close()


def test_a_result_that_met_another_is_shown_with_both_scores_and_settled_by_the_td(browser, live_server):
    td, event = knockout(8, "Conflict Cup")
    context = desk_context(browser, 360, 900)
    context.set_default_timeout(10000)
    page = context.new_page()
    log_in_at_the_desk(page, live_server.url, event)
    one, two = first_round(event)[:2]
    context.set_offline(True)
    type_result(page, one, 5, 2)
    type_result(page, two, 1, 5)
    waiting(page, 2)
    # Meanwhile another TD enters both matches online, with other scores.
    events.result_report(pairing=one, by=td, score_a=3, score_b=5)
    events.result_report(pairing=two, by=td, score_a=5, score_b=4)
    context.set_offline(False)
    row = page.locator(f"#pairing-{one.pk}")
    page.wait_for_function("document.querySelectorAll('.q-row.is-conflict .q-choices').length === 2", timeout=30000)
    assert row.locator(".q-kept p").first.inner_text() == (
        f"Not saved: this match already has another result. On the server: {one.player_a.name} 3–5 "
        f"{one.player_b.name}. You typed: {one.player_a.name} 5–2 {one.player_b.name}.")
    assert page.locator("#offline-state").inner_text().endswith("2 results to decide: see their rows.")
    shot(page, "desk-conflict-360.png")
    row.get_by_role("button", name="Keep the server's result").click()
    page.wait_for_function(f"!document.querySelector('#pairing-{one.pk}.is-conflict')")
    page.locator(f"#pairing-{two.pk}").get_by_role("button", name="Send mine as a correction").click()
    page.wait_for_url(re.compile(rf"/pairings/{two.pk}/\?score_a=1&score_b=5$"))
    assert page.locator("#id_score_a").input_value() == "1" and page.locator("#id_score_b").input_value() == "5"
    page.get_by_role("button", name="Show what it changes").click()
    page.get_by_role("button", name=re.compile("^Confirm: record this result")).click()
    page.wait_for_url(re.compile(rf"/desk/{event.slug}/$"))
    one.refresh_from_db()
    two.refresh_from_db()
    assert (one.score_a, one.score_b) == (3, 5) and (two.score_a, two.score_b) == (1, 5)
    assert ResultReport.objects.filter(pairing=one).count() == 1
    page.wait_for_function("document.getElementById('offline-state').hidden")
    context.close()


def test_what_needs_the_server_is_refused_offline_with_the_reason(browser, live_server):
    td, event = knockout(8, "Refusal Cup")
    context = desk_context(browser, 1280, 900)
    context.set_default_timeout(10000)
    page = context.new_page()
    log_in_at_the_desk(page, live_server.url, event)
    events.result_report(pairing=first_round(event)[0], by=td, score_a=5, score_b=1)
    page.reload()
    page.wait_for_function("caches.match(location.pathname).then(r => r && r.text()).then(t => t && t.includes('Correct'))")
    context.set_offline(True)
    page.locator(".q-row.is-finished").get_by_role("link", name=re.compile("^Correct")).first.click()
    assert page.locator("#offline-state").inner_text().endswith(
        "A correction needs the server: it may change matches drawn from this one. It waits until the network is "
        "back. Results you type are kept and sent by themselves.")
    assert page.url.endswith(f"/desk/{event.slug}/")
    context.close()


def test_a_player_s_report_from_his_phone_says_sent_only_when_it_was(browser, live_server):
    td, event = knockout(8, "Phone Cup")
    pairing = first_round(event)[0]
    codes = events.slip_codes_issue(tournament=event, pairing_ids=[pairing.pk], by=td)
    context = desk_context(browser, 360, 800)
    context.set_default_timeout(10000)
    phone = context.new_page()
    phone.goto(f"{live_server.url}/events/{event.slug}/m/{pairing.pk}/")
    phone.wait_for_function("caches.match(location.pathname).then(r => !!r)")
    context.set_offline(True)
    phone.get_by_label("Your code").fill(codes[(pairing.pk, pairing.player_a_id)])
    phone.get_by_label(f"Points of {pairing.player_a.name}").fill("5")
    phone.get_by_label(f"Points of {pairing.player_b.name}").fill("3")
    phone.get_by_role("button", name="Report the result").click()
    note = phone.locator(".offline-note")
    assert note.inner_text().startswith(f"Not sent yet: {pairing.player_a.name} 5–3 {pairing.player_b.name}. ")
    shot(phone, "match-offline-360.png")
    assert not ResultReport.objects.exists()
    context.set_offline(False)
    phone.locator(".offline-note.sent").wait_for(timeout=30000)
    assert note.inner_text() == (f"Sent: {pairing.player_a.name} 5–3 {pairing.player_b.name} reported. It counts "
                                 "when your opponent confirms it.")
    report = ResultReport.objects.get()
    assert (report.pairing_id, report.score_a, report.score_b, report.status) == (pairing.pk, 5, 3, "pending")
    context.close()
