"""The TD's desk: the match queue and its inline results, tables, walkovers, pasted entries,
dispute rulings, the projector, slips, and bad ids refused with 400."""

import re

import pytest
from django.contrib.auth import get_user_model

from games import services as games
from tournaments import services as events
from tournaments.models import Pairing, ResultReport

from .conftest import build_knockout, make_players

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def event(td):
    return build_knockout(td, make_players(8), name="Desk Open", results_rounds=0)


def open_pairings(tournament):
    return list(Pairing.objects.filter(flight__tournament=tournament, status="pending", player_b__isnull=False)
                .select_related("player_a", "player_b", "round", "flight__tournament").order_by("id"))


def score(client, tournament, pairing, a, b, *, version=None, htmx=True):
    return client.post(f"/desk/{tournament.slug}/", {
        "action": "score", "pairing": pairing.pk, f"p{pairing.pk}-version": pairing.version if version is None
        else version, f"p{pairing.pk}-score_a": a, f"p{pairing.pk}-score_b": b}, headers=HX if htmx else {})


def test_an_inline_result_answers_with_what_it_changed_and_not_the_whole_desk(td_client, event):
    first, second, *_ = open_pairings(event)
    response = score(td_client, event, first, 5, 2)
    html = response.content.decode()
    assert response.status_code == 200 and 'id="desk-main"' not in html
    # The confirmation names the match; the saved row comes back finished, the others not at all.
    assert f"Main R1-1: {first.player_a.name} 5–2 {first.player_b.name} recorded." in html
    assert re.search(rf'<li class="q-row is-finished" id="pairing-{first.pk}"', html)
    assert f'id="pairing-{second.pk}"' not in html and f'id="p{second.pk}-a"' not in html
    # The room's counts, the round's progress and the latest results to undo, swapped out of band.
    assert '<b id="count-call" hx-swap-oob="true">3</b>' in html
    assert re.search(r'id="progress-\d+-1" hx-swap-oob="true">5 points · 3 to finish<', html)
    assert 'id="desk-recent" hx-swap-oob="true"' in html and f'name="undo{first.pk}-version"' in html
    # The players' side (claims, players to link) is not read, nor drawn.
    assert "players-side" not in html and "claims to decide" not in html
    first.refresh_from_db()
    assert (first.status, first.score_a, first.score_b) == ("finished", 5, 2)


def test_a_result_that_draws_a_match_sends_it_to_its_round_and_one_that_ends_a_round_redraws(td_client, event):
    first, second, third, fourth = open_pairings(event)
    score(td_client, event, first, 5, 2)
    # The first match of round 2: a round appears, so the whole desk is drawn, focus on the next row.
    html = score(td_client, event, second, 5, 3).content.decode()
    assert html.startswith('<div id="desk-main"') and f'data-focus="p{third.pk}-a"' in html
    score(td_client, event, third, 1, 5)
    # The second match of round 2 goes to its round on the desk; round 1 is over: all drawn again.
    html = score(td_client, event, fourth, 5, 0).content.decode()
    assert html.startswith('<div id="desk-main"')
    semis = Pairing.objects.filter(flight__tournament=event, flight__name="Main", round__number=2).order_by("id")
    assert [p.player_a_id for p in semis] == [first.player_a_id, third.player_b_id]


def test_a_match_drawn_into_a_round_on_the_desk_comes_with_the_save(td_client, td):
    tournament = build_knockout(td, make_players(16), name="Arrivals Open", results_rounds=0)
    r1 = open_pairings(tournament)
    score(td_client, tournament, r1[0], 5, 2)
    score(td_client, tournament, r1[1], 5, 2)  # draws R2-1: a new round, the whole desk
    score(td_client, tournament, r1[2], 5, 2)
    html = score(td_client, tournament, r1[3], 5, 2).content.decode()  # draws R2-2 into round 2
    new = Pairing.objects.get(flight__tournament=tournament, flight__name="Main", slot="R2-2")
    assert 'id="desk-main"' not in html
    assert re.search(rf'<li class="q-row is-call" id="pairing-{new.pk}"', html)
    assert re.search(rf'<li class="q-row is-finished" id="pairing-{r1[3].pk}"', html)
    assert re.search(r'id="progress-\d+-2" hx-swap-oob="true">5 points · 2 to finish<', html)


def test_a_refused_score_stays_beside_its_fields_with_what_was_typed(td_client, event):
    first = open_pairings(event)[0]
    response = score(td_client, event, first, 3, 2)
    html = response.content.decode()
    assert response.status_code == 400
    assert f'<p class="q-err" id="p{first.pk}-err" role="alert">' in html
    assert "not over" in html or "does not finish" in html or "5-point" in html
    assert f'name="p{first.pk}-score_a" min="0" max="999" value="3"' in html
    assert f'name="p{first.pk}-score_b" min="0" max="999" value="2"' in html
    assert f'data-focus="p{first.pk}-a"' in html
    # A form drawn before someone else's change is a conflict, said in the same place.
    stale = score(td_client, event, first, 5, 2, version=first.version + 3)
    assert stale.status_code == 409 and "changed by someone else" in stale.content.decode()


def test_without_script_a_result_redirects_back_to_its_row(td_client, event):
    first = open_pairings(event)[0]
    response = score(td_client, event, first, 5, 1, htmx=False)
    assert response.status_code == 302 and response["Location"] == f"/desk/{event.slug}/#pairing-{first.pk}"


@pytest.mark.parametrize("bad", ["abc", "1.5", "1e3", "", "-1"])
def test_malformed_ids_and_versions_answer_400(td_client, event, bad):
    first = open_pairings(event)[0]
    url = f"/desk/{event.slug}/"
    flight = event.flights.get(name="Main")
    posts = [
        {"action": "score", "pairing": bad, f"p{first.pk}-version": first.version},
        {"action": "score", "pairing": first.pk, f"p{first.pk}-version": bad, f"p{first.pk}-score_a": 5,
         f"p{first.pk}-score_b": 1},
        {"action": "walkover", "pairing": first.pk, "winner": bad, f"p{first.pk}-version": first.version},
        {"action": "walkover", "pairing": first.pk, "winner": first.player_a_id, f"p{first.pk}-version": bad},
        {"action": "table", "pairing": first.pk, f"p{first.pk}-version": bad},
        {"action": "start_round", "flight": flight.pk, "version": bad},
        {"action": "check_in", "entry": bad},
        {"action": "enter", "player": bad, "flight": flight.pk},
        {"action": "confirm", "report": bad},
        {"action": "rule", "pairing": first.pk, "from_report": bad},
    ]
    for body in posts:
        assert td_client.post(url, body).status_code == 400, body
        assert td_client.post(url, body, headers=HX).status_code == 400, body
    assert td_client.get(f"/desk/{event.slug}/slips/", {"round": bad}).status_code == (400 if bad else 200)
    assert td_client.post(f"/desk/{event.slug}/pairings/{first.pk}/", {
        "version": bad, "score_a": 5, "score_b": 1}).status_code == 400


def test_tables_are_offered_in_order_keeping_the_reserved_ones(td_client, td, event):
    events.tables_set(tournament=event, count=4, reserved=[{"table": 1, "flight": "Consolation"}], by=td)
    fourth = open_pairings(event)[3]
    html = td_client.get(f"/desk/{event.slug}/").content.decode()
    assert "Call to table 2</button>" in html and "Call to table 4</button>" in html
    assert "Call to table 1</button>" not in html  # kept for the consolation
    td_client.post(f"/desk/{event.slug}/", {"action": "call_all"}, headers=HX)
    seated = [p.table for p in open_pairings(event)]
    assert seated == ["2", "3", "4", ""]
    # The TD moves a match; a table in use is refused with the match that holds it.
    refused = td_client.post(f"/desk/{event.slug}/", {
        "action": "table", "pairing": fourth.pk, f"p{fourth.pk}-version": fourth.version + 0,
        f"p{fourth.pk}-table": "2"}, headers=HX)
    assert refused.status_code == 409 and "Table 2 is taken by Main R1-1: free it first." in refused.content.decode()
    nowhere = td_client.post(f"/desk/{event.slug}/", {
        "action": "table", "pairing": fourth.pk, f"p{fourth.pk}-version": fourth.version,
        f"p{fourth.pk}-table": "9"}, headers=HX)
    assert nowhere.status_code == 400 and "There is no table 9: tables run from 1 to 4." in nowhere.content.decode()


def test_a_no_show_gives_the_match_with_its_reason_kept(td_client, event):
    first = open_pairings(event)[0]
    response = td_client.post(f"/desk/{event.slug}/", {
        "action": "walkover", "pairing": first.pk, "winner": first.player_b_id,
        f"p{first.pk}-version": first.version, f"p{first.pk}-reason": ""}, headers=HX)
    assert response.status_code == 200
    first.refresh_from_db()
    assert (first.status, first.winner_id) == ("walkover", first.player_b_id)
    assert first.walkover_reason == f"{first.player_a.name} did not show up"
    assert first.match.rated is False
    assert first.walkover_reason in response.content.decode()


def test_draw_controls_say_why_they_cannot_work(client, staff_user):
    client.force_login(staff_user)
    client.post("/desk/", {"name": "Empty Cup", "start_date": "2026-11-22"})
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(name="Empty Cup")
    client.post(f"/desk/{tournament.slug}/", {"action": "flight", "flight-name": "Main",
                                              "flight-format": "single_elimination", "flight-kind": "main",
                                              "flight-lengths": "5", "flight-seeding": "manual"})
    html = client.get(f"/desk/{tournament.slug}/").content.decode()
    assert 'disabled aria-describedby="why-start-' in html and "Take entries first." in html
    assert "Start the next round" not in html


def test_a_pasted_list_matches_known_players_and_asks_only_about_real_ambiguities(td_client, td):
    tournament = build_knockout(td, make_players(2), name="Paste Cup", results_rounds=0)
    from tournaments.models import Flight, Tournament

    draft = Tournament.objects.get(pk=tournament.pk)
    flight = events.flight_create(tournament=draft, name="Side", format="swiss", lengths=[3], swiss_rounds=3, by=td)
    known = games.player_create(name="Lena Voss", club="Kiel")
    games.player_create(name="Ola Dahl", club="Oslo BG")
    bergen = games.player_create(name="Ola Dahl", club="Bergen BG", confirm_duplicate=True)
    text = "name,club,country,rating id\nLena Voss,Kiel,DE,\nOla Dahl,,NO,\nNew Comer,Rome,IT,IT-77\n"
    url = f"/desk/{tournament.slug}/"
    asked = td_client.post(url, {"action": "paste", "flight": flight.pk, "paste-text": text}, headers=HX)
    html = asked.content.decode()
    assert asked.status_code == 400
    assert "2 players are called Ola Dahl:" in html and "Use this player: Ola Dahl" in html
    assert "known: Kiel" in html and "new player" in html
    assert Flight.objects.get(pk=flight.pk).entries.count() == 0
    done = td_client.post(url, {"action": "paste", "flight": flight.pk, "paste-text": text,
                                "use-3": bergen.pk}, headers=HX)
    assert done.status_code == 200 and "3 players entered in Side." in done.content.decode()
    entered = set(Flight.objects.get(pk=flight.pk).entries.values_list("player__name", "player__club"))
    assert entered == {("Lena Voss", "Kiel"), ("Ola Dahl", "Bergen BG"), ("New Comer", "Rome")}
    assert Flight.objects.get(pk=flight.pk).entries.filter(player=known).exists()


def test_feeders_are_a_form_not_a_language(client, staff_user):
    client.force_login(staff_user)
    client.post("/desk/", {"name": "Fed Cup", "start_date": "2026-11-22"})
    from tournaments.models import Flight, Tournament

    tournament = Tournament.objects.get(name="Fed Cup")
    desk = f"/desk/{tournament.slug}/"
    base = {"action": "flight", "flight-format": "single_elimination", "flight-lengths": "5", "flight-seeding": "manual"}
    client.post(desk, {**base, "flight-name": "Main", "flight-kind": "main"})
    client.post(desk, {**base, "flight-name": "Consolation", "flight-kind": "consolation",
                       "flight-feeder_source": "Main", "flight-feeder_rounds": "1, 2", "flight-feeder_entry_round": 1})
    main = Flight.objects.get(tournament=tournament, name="Main")
    assert Flight.objects.get(tournament=tournament, name="Consolation").feeders == [
        {"source_id": main.pk, "source_round": 1, "entry_round": 1},
        {"source_id": main.pk, "source_round": 2, "entry_round": 2}]
    refused = client.post(desk, {**base, "flight-name": "Last chance", "flight-kind": "last_chance",
                                 "flight-feeder_source": "Main", "flight-feeder_rounds": "one"})
    assert refused.status_code == 400
    assert "Write the rounds of Main whose losers it takes, e.g. 1 or 1, 2." in refused.content.decode()


def test_a_swiss_added_at_the_desk_scores_skill_until_the_td_changes_it(client, staff_user):
    client.force_login(staff_user)
    client.post("/desk/", {"name": "Skill Cup", "start_date": "2026-11-22"})
    from tournaments.models import Flight, Tournament

    tournament = Tournament.objects.get(name="Skill Cup")
    desk = f"/desk/{tournament.slug}/"
    client.post(desk, {"action": "flight", "flight-name": "Swiss", "flight-format": "swiss", "flight-kind": "main",
                       "flight-lengths": "5", "flight-seeding": "manual", "flight-swiss_rounds": 4,
                       "flight-scoring": "win_and_skill"})
    flight = Flight.objects.get(tournament=tournament, name="Swiss")
    assert flight.scoring == "win_and_skill"
    html = client.get(desk).content.decode()
    assert f'name="f{flight.pk}-scoring"' in html
    prefix = f"f{flight.pk}-"
    client.post(desk, {"action": "settings", "flight": flight.pk, prefix + "version": flight.version,
                       prefix + "lengths": "5, 7", prefix + "seeding": "manual", prefix + "swiss_rounds": 4,
                       prefix + "scoring": "wins"})
    assert (Flight.objects.get(pk=flight.pk).scoring, Flight.objects.get(pk=flight.pk).lengths) == ("wins", [5, 7])
    refused = client.post(desk, {"action": "flight", "flight-name": "Cup", "flight-format": "single_elimination",
                                 "flight-kind": "main", "flight-lengths": "5", "flight-seeding": "manual",
                                 "flight-scoring": "win_and_skill"})
    assert refused.status_code == 400 and "Only a Swiss" in refused.content.decode()


def disputed(event, a, b, reason="I won"):
    users = get_user_model()
    first = open_pairings(event)[0]
    ua, ub = users.objects.create_user("ua"), users.objects.create_user("ub")
    staff = users.objects.create_user("linker2", is_staff=True, is_superuser=True)
    events.player_account_link(player=first.player_a, user=ua, by=staff)
    events.player_account_link(player=first.player_b, user=ub, by=staff)
    earlier = events.result_report(pairing=first, by=ub, score_a=2, score_b=5)
    report = events.result_report(pairing=first, by=ua, score_a=a, score_b=b)
    events.result_dispute(report=report, by=ub, reason=reason)
    return first, report, earlier


def test_a_dispute_shows_both_versions_and_is_ruled_with_one_click(td_client, event):
    first, _, earlier = disputed(event, 5, 3, reason="I won 5-2")
    html = td_client.get(f"/desk/{event.slug}/").content.decode()
    assert f"{first.player_b.name} disputed the result {first.player_a.name} reported" in html
    assert "Uphold 5–3" in html and f"Accept version {earlier.version}: 2–5" in html
    assert f'id="p{first.pk}-a"' not in html  # a disputed match is no longer "to play"
    assert "1 open dispute" in td_client.get("/desk/").content.decode()
    td_client.post(f"/desk/{event.slug}/", {"action": "rule", "pairing": first.pk, "from_report": earlier.pk,
                                            f"rule{first.pk}-version": Pairing.objects.get(pk=first.pk).version},
                   headers=HX)
    first.refresh_from_db()
    assert (first.status, first.winner_id, first.score_a, first.score_b) == ("finished", first.player_b_id, 2, 5)
    assert ResultReport.objects.filter(pairing=first, status="disputed").count() == 0


def test_upholding_a_disputed_report_confirms_it(td_client, event):
    first, report, _ = disputed(event, 5, 3)
    td_client.post(f"/desk/{event.slug}/", {"action": "confirm", "report": report.pk}, headers=HX)
    first.refresh_from_db()
    assert (first.status, first.score_a, first.score_b) == ("finished", 5, 3)


def test_projector_shows_the_round_with_its_tables(td_client, td, event):
    events.tables_set(tournament=event, count=8, by=td)
    first = open_pairings(event)[0]
    events.pairing_table_set(pairing=first, table="3", by=td)
    html = td_client.get(f"/desk/{event.slug}/projector/").content.decode()
    assert '<body class="projector">' in html and 'hx-trigger="every 20s"' in html
    assert f'<span class="pj-table">3</span>\n    <span class="pj-name">{first.player_a.name}</span>' in html
    fragment = td_client.get(f"/desk/{event.slug}/projector/", headers=HX).content.decode()
    assert fragment.startswith('<section class="pj-panel"')


def test_slips_carry_a_qr_code_and_rows_fitted_to_the_length(td_client, event):
    html = td_client.get(f"/desk/{event.slug}/slips/").content.decode()
    assert html.count('class="slip"') == 4 and html.count("<svg") == 8  # one on each player's half
    # A 5-point match: at most nine games; the slip has nine rows.
    first_slip = html.split('class="slip"')[1]
    assert first_slip.count("<tr><td>") == 9


def test_a_slip_s_qr_code_is_segno_s_own_svg_and_is_kept_by_address(td_client, event):
    import segno
    from django.core.cache import cache

    from tournaments import qr

    for url in ["http://testserver/me/#pairing-7", "https://crawford.example.org/me/#pairing-123456789"]:
        assert qr.svg(url) == segno.make_qr(url, error="m", boost_error=False, mask=0).svg_inline(
            scale=2, border=1, omitsize=True)
    cache.clear()
    drawn = td_client.get(f"/desk/{event.slug}/slips/").content.split(b'<div class="slips">')[1]
    pairing = open_pairings(event)[0]
    url = f"http://testserver/events/{event.slug}/m/{pairing.pk}/"
    assert qr.svgs([url]) == {url: qr.svg(url)} and qr.svg(url).encode() in drawn
    again = td_client.get(f"/desk/{event.slug}/slips/").content.split(b'<div class="slips">')[1]
    svgs = re.compile(rb"<svg.*?</svg>")
    assert svgs.findall(again) == svgs.findall(drawn) and drawn.count(b"<svg") == 8  # the second time, from the cache


def test_a_started_flight_s_entries_and_a_match_s_more_are_fetched_when_opened(td_client, event):
    flight = event.flights.get(name="Main")
    first = open_pairings(event)[0]
    desk = td_client.get(f"/desk/{event.slug}/").content.decode()
    assert f'hx-get="/desk/{event.slug}/flights/{flight.pk}/entries/"' in desk and "Withdraw a player" not in desk
    fragment = td_client.get(f"/desk/{event.slug}/flights/{flight.pk}/entries/", headers=HX).content.decode()
    assert fragment.startswith('<table class="entries">') and fragment.count("<option value=") == 8
    page = td_client.get(f"/desk/{event.slug}/flights/{flight.pk}/entries/").content.decode()
    assert "Back to the desk" in page and "Withdraw a player" in page
    more = td_client.get(f"/desk/{event.slug}/pairings/{first.pk}/more/", headers=HX).content.decode()
    assert f"No-show: {first.player_a.name}" in more and f'name="p{first.pk}-table"' in more
    assert td_client.get(f"/desk/{event.slug}/pairings/999999/more/").status_code == 404


def test_a_pasted_list_asks_about_near_names_and_creates_nobody_silently(td_client, td):
    from games.models import Player
    from tournaments.models import Flight, Tournament

    tournament = build_knockout(td, make_players(2), name="Near Cup", results_rounds=0)
    flight = events.flight_create(tournament=Tournament.objects.get(pk=tournament.pk), name="Side", format="swiss",
                                  lengths=[3], swiss_rounds=3, by=td)
    greta = games.player_create(name="Greta Kowalski", club="Warsaw BC")
    soren = games.player_create(name="Søren Thygesen", club="Copenhagen BG")
    games.player_create(name="Anna Berg", club="Oslo BK")
    text = "Greta Kowalsky\nSoren Thygesen\nKowalski, Greta\nAnna\n"
    url = f"/desk/{tournament.slug}/"
    asked = td_client.post(url, {"action": "paste", "flight": flight.pk, "paste-text": text}, headers=HX)
    html = asked.content.decode()
    assert asked.status_code == 400
    assert "Did you mean Søren Thygesen (Copenhagen BG, 1500)?" in html
    assert "Did you mean Greta Kowalski (Warsaw BC, 1500)?" in html
    assert "Kowalski, Greta <span class=\"meta\">read as</span> Greta Kowalski" in html
    assert "Did you mean Anna Berg (Oslo BK, 1500)?" in html
    assert html.count("New player:") == 4
    assert Player.objects.filter(name__in=["Greta Kowalsky", "Soren Thygesen", "Kowalski", "Anna"]).count() == 0
    assert Flight.objects.get(pk=flight.pk).entries.count() == 0
    done = td_client.post(url, {"action": "paste", "flight": flight.pk, "paste-text": text, "use-1": greta.pk,
                                "use-2": soren.pk, "use-3": greta.pk, "use-4": "new"}, headers=HX)
    assert done.status_code == 200, done.content.decode()[:2000]
    entered = sorted(Flight.objects.get(pk=flight.pk).entries.values_list("player__name", "player__club"))
    assert entered == [("Anna", ""), ("Greta Kowalski", "Warsaw BC"), ("Søren Thygesen", "Copenhagen BG")]
    assert not Player.objects.filter(name="Kowalski").exists()


def test_the_latest_result_is_undone_at_the_desk_in_one_click(td_client, event):
    first = open_pairings(event)[0]
    score(td_client, event, first, 5, 2)
    first.refresh_from_db()
    html = td_client.get(f"/desk/{event.slug}/").content.decode()
    words = f"Main {first.slot}: {first.player_a.name} 5–2 {first.player_b.name}"
    assert f'aria-label="Undo {words}"' in html
    undone = td_client.post(f"/desk/{event.slug}/", {"action": "undo", "pairing": first.pk,
                                                    f"undo{first.pk}-version": first.version}, headers=HX)
    assert undone.status_code == 200
    assert f"Undone: {words}. The match is open again." in undone.content.decode()
    first.refresh_from_db()
    assert (first.status, first.score_a, first.winner_id) == ("pending", None, None)


def test_a_result_something_was_drawn_from_is_undone_on_its_correction_page_after_the_preview(td_client, td, event):
    first, second = open_pairings(event)[:2]
    score(td_client, event, first, 5, 2)
    score(td_client, event, second, 5, 1)
    semi = Pairing.objects.get(flight__tournament=event, round__number=2, player_a=first.player_a)
    events.pairing_start(pairing=semi, by=td)
    first.refresh_from_db()
    refused = td_client.post(f"/desk/{event.slug}/", {"action": "undo", "pairing": first.pk,
                                                     f"undo{first.pk}-version": first.version}, headers=HX)
    assert refused.status_code == 400
    assert (f"Matches drawn from Main {first.slot} have started (Main {semi.slot}): undo it on its correction page,"
            " which shows what goes with it.") in refused.content.decode()
    page = f"/desk/{event.slug}/pairings/{first.pk}/"
    preview = td_client.post(page, {"undo": "preview"}).content.decode()
    assert f"Main {semi.slot}: {semi.player_a.name} v {semi.player_b.name} <strong>(already started" in preview
    assert Pairing.objects.filter(pk=semi.pk).exists()
    done = td_client.post(page, {"undo": "confirmed", "version": first.version})
    assert done.status_code == 302
    assert not Pairing.objects.filter(pk=semi.pk).exists()
    assert Pairing.objects.get(pk=first.pk).status == "pending"


def test_a_withdrawal_given_by_mistake_is_undone_from_the_entry_list(td_client, td, event):
    from tournaments.models import Entry

    first = open_pairings(event)[0]
    leaving = Entry.objects.get(flight__tournament=event, player=first.player_a)
    td_client.post(f"/desk/{event.slug}/", {"action": "withdraw", "entry": leaving.pk}, headers=HX)
    first.refresh_from_db()
    assert first.status == "walkover"
    listed = td_client.get(f"/desk/{event.slug}/flights/{leaving.flight_id}/entries/", headers=HX).content.decode()
    assert f'aria-label="Undo the withdrawal of {leaving.player.name}"' in listed
    undone = td_client.post(f"/desk/{event.slug}/", {"action": "withdraw_undo", "entry": leaving.pk}, headers=HX)
    assert f"{leaving.player.name} is in again: the withdrawal and its walkovers are undone." in undone.content.decode()
    first.refresh_from_db()
    leaving.refresh_from_db()
    assert (first.status, first.winner_id, leaving.status) == ("pending", None, "checked_in")


def test_a_no_show_given_at_three_one_by_mistake_is_undone_at_the_desk_and_the_games_come_back(td_client, td, event):
    first = open_pairings(event)[0]
    playing = events.pairing_start(pairing=first, by=td)
    match = playing.match
    for number, (winner, kind) in enumerate([(0, "gammon"), (1, "single"), (0, "single")], start=1):
        match = events.pairing_game_record(match=match, number=number,
                                            game=games.GameInput(winner=winner, kind=kind), by=td)
    playing.refresh_from_db()
    # "No-show" on the leader's row: the match goes to the player who was behind.
    td_client.post(f"/desk/{event.slug}/", {"action": "walkover", "pairing": playing.pk,
                                           "winner": playing.player_b_id, f"p{playing.pk}-version": playing.version},
                   headers=HX)
    playing.refresh_from_db()
    assert (playing.status, playing.winner_id) == ("walkover", playing.player_b_id)
    # The games API cannot take the forfeit back behind the tournament's back.
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(get_user_model().objects.create_user("office2", is_staff=True, is_superuser=True))
    refused = api.post(f"/api/v1/matches/{match.pk}/forfeit-undo/", {}, format="json")
    assert refused.status_code == 400 and "walkover-undo" in refused.json()["non_field_errors"][0]
    undone = td_client.post(f"/desk/{event.slug}/", {"action": "undo", "pairing": playing.pk,
                                                    f"undo{playing.pk}-version": playing.version}, headers=HX)
    html = undone.content.decode()
    assert f"Undone: Main {playing.slot}" in html and f"walkover to {playing.player_b.name}" in html
    playing.refresh_from_db()
    match.refresh_from_db()
    assert (playing.status, match.status, match.score_a, match.score_b) == ("playing", "in_progress", 3, 1)
    assert match.games.count() == 3


def test_a_save_that_frees_a_table_offers_it_to_the_matches_waiting_for_one(td_client, td):
    tournament = build_knockout(td, make_players(16), name="Tables Open", results_rounds=0)
    events.tables_set(tournament=tournament, count=2, by=td)
    first, second, *waiting = open_pairings(tournament)
    for pairing, table in ((first, "1"), (second, "2")):
        events.pairing_table_set(pairing=pairing, table=table, by=td)
    first.refresh_from_db()
    html = score(td_client, tournament, first, 5, 2).content.decode()
    assert 'id="desk-main"' not in html
    # Table 1 is free again: the first match waiting is offered it, and no other match is.
    assert html.count('aria-label="Call R1-3 to table 1"') == 1
    assert html.count(">Call to table 1</button>") == 1 and ">Call to table 2<" not in html
    assert all(f'id="pairing-{p.pk}"' in html for p in waiting)


def test_the_undo_preview_of_a_swiss_result_names_the_later_rounds_it_leaves_standing(td_client, td, make_player):
    import datetime

    creator = get_user_model().objects.create_user("swiss-creator", is_staff=True, is_superuser=True)
    swiss = events.tournament_create(name="Preview Swiss", start_date=datetime.date(2026, 6, 3), organisers=[td],
                                     by=creator)
    flight = events.flight_create(tournament=swiss, name="Main", format="swiss", lengths=[3], swiss_rounds=3, by=td)
    for n in range(1, 5):
        player = make_player(f"Standing {n}")
        events.entry_check_in(entry=events.entry_add(flight=flight, player=player, seed=n, by=td), by=td)
    events.flight_start(flight=flight, by=td)
    for number in (1, 2):
        for pairing in Pairing.objects.filter(flight=flight, round__number=number):
            events.result_report(pairing=pairing, by=td, score_a=3, score_b=1)
    first = Pairing.objects.filter(flight=flight, round__number=1).order_by("slot").first()
    preview = td_client.post(f"/desk/{swiss.slug}/pairings/{first.pk}/", {"undo": "preview"}).content.decode()
    assert ("<p>Later rounds were paired while this result stood and stay as they are: Main round 2, Main round 3.</p>"
            in preview)


def test_the_correction_page_offers_the_withdrawals_undo_where_it_refuses_the_walkovers(td, td_client, event):
    from tournaments.models import Entry

    pairing = open_pairings(event)[0]
    leaving = Entry.objects.get(flight=pairing.flight, player=pairing.player_a)
    events.entry_withdraw(entry=leaving, by=td, reason="went home")
    pairing.refresh_from_db()
    response = td_client.post(f"/desk/{event.slug}/pairings/{pairing.pk}/",
                              {"undo": "confirmed", "version": pairing.version})
    html = response.content.decode()
    assert response.status_code == 400
    assert f"{pairing.player_a.name} has withdrawn: undo the withdrawal, which brings this match back too." in html
    assert (f'<button type="submit" form="withdrawal-offer" class="small">Undo the withdrawal of '
            f'{pairing.player_a.name}</button>') in html
    assert (f'<input type="hidden" name="action" value="withdraw_undo"><input type="hidden" name="entry" '
            f'value="{leaving.pk}">') in html
    td_client.post(f"/desk/{event.slug}/", {"action": "withdraw_undo", "entry": leaving.pk})
    pairing.refresh_from_db()
    assert pairing.status == "pending"


def test_an_improbable_score_is_recorded_once_confirmed_and_only_the_score_confirmed(td_client, event):
    pairing = open_pairings(event)[0]
    asked = score(td_client, event, pairing, 50, 3)
    html = asked.content.decode()
    assert asked.status_code == 400
    assert "50-3 needs a cube of 16 or more in the last game of a 5-point match" in html
    assert f'<input type="hidden" name="p{pairing.pk}-sure" value="50-3">' in html
    other = td_client.post(f"/desk/{event.slug}/", {
        "action": "score", "pairing": pairing.pk, f"p{pairing.pk}-version": pairing.version,
        f"p{pairing.pk}-score_a": 48, f"p{pairing.pk}-score_b": 3, f"p{pairing.pk}-sure": "50-3"}, headers=HX)
    assert other.status_code == 400 and "48-3 needs a cube of 16" in other.content.decode()
    pairing.refresh_from_db()
    assert pairing.status == "pending"
    sure = td_client.post(f"/desk/{event.slug}/", {
        "action": "score", "pairing": pairing.pk, f"p{pairing.pk}-version": pairing.version,
        f"p{pairing.pk}-score_a": 50, f"p{pairing.pk}-score_b": 3, f"p{pairing.pk}-sure": "50-3"}, headers=HX)
    assert sure.status_code == 200
    pairing.refresh_from_db()
    assert (pairing.status, pairing.score_a, pairing.score_b) == ("finished", 50, 3)
