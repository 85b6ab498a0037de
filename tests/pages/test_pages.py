"""Every page answers, shows what it should, and writes only through the services."""

import re

import pytest
from django.urls import reverse

from games import services as games
from games.models import Game
from tournaments import services as events
from tournaments.models import Pairing, Tournament

from .conftest import build_knockout, make_players

pytestmark = pytest.mark.django_db


def public_urls(world):
    k, s, m, p = world["knockout"], world["swiss"], world["replay"], world["players"]
    return [
        "/", "/events/", f"/events/{k.slug}/", f"/events/{s.slug}/", f"/events/{k.slug}/live/",
        f"/matches/{m.pk}/", f"/matches/{m.pk}/games/1/", f"/matches/{m.pk}/games/2/", f"/players/{p[0].pk}/",
        f"/players/{p[0].pk}/?system=fibs", "/ratings/", "/ratings/?system=fibs&provisional=1&sort=name",
        "/ratings/formula/", "/ratings/chances/", "/ratings/runs/", "/login/",
        f"/ratings/chances/?player_a={p[0].pk}&player_b={p[1].pk}&length=7&system=crawford",
    ]


def test_every_public_page_answers_anonymous_visitors(client, world):
    for url in public_urls(world):
        response = client.get(url)
        assert response.status_code == 200, url


def test_home_lists_running_events_ratings_and_recent_results(client, world):
    html = client.get("/").content.decode()
    assert world["knockout"].name in html and world["swiss"].name in html
    assert "Top of the rating list" in html and world["players"][0].name in html


def test_match_page_marks_the_crawford_game_and_links_the_replay(client, world):
    match = world["replay"]
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'class="crawford"' in html and "Crawford game" in html
    assert reverse("game-replay", args=[match.pk, 1]) in html
    assert "2, " + match.player_a.name in html  # the cube on 2, owned by player A


def test_replay_lists_every_position_as_a_board_without_script(client, world):
    html = client.get(f"/matches/{world['replay'].pk}/games/1/").content.decode()
    assert html.count('<li class="frame"') == 1 + 12 + 2  # opening, 12 plays, a double and a take
    assert html.count("<svg class=\"board\"") == 15
    assert "doubles to 2" in html and "takes" in html


def test_replay_of_a_game_that_does_not_exist_is_not_found(client, world):
    assert client.get(f"/matches/{world['replay'].pk}/games/9/").status_code == 404


def test_event_page_shows_the_draw_seed_byes_pending_slots_and_standings(client, world):
    html = client.get(f"/events/{world['knockout'].slug}/").content.decode()
    assert "draw seed <code>1234</code>" in html
    assert 'class="bk-box pending"' in html
    assert "Winner of R2-1" in html  # an undecided slot says where its player comes from
    assert 'hx-swap="morph:innerHTML"' in html  # refreshes itself while running, in place
    assert html.index('id="now-heading"') < html.index('id="bracket-') < html.index('id="rules-heading"')
    swiss = client.get(f"/events/{world['swiss'].slug}/").content.decode()
    assert "Standings" in swiss and "Buchholz" in swiss


def test_bracket_shows_byes_as_byes(client, td):
    tournament = build_knockout(td, make_players(6), results_rounds=0)
    html = client.get(f"/events/{tournament.slug}/").content.decode()
    # Six players in an eight-line draw: two byes, drawn as no box; their holders wait in round 2.
    start = html.index('class="bk-frame"')
    main = html[start:html.index("</section>", start)]
    assert main.count('class="bk-box ') == 2 + 2 + 1
    assert main.count('class="bk-box ready') == 2
    assert "has a bye." in html


def test_player_page_has_ratings_chart_and_head_to_head(client, world):
    player = world["players"][0]
    html = client.get(f"/players/{player.pk}/").content.decode()
    assert '<svg class="chart"' in html and "Head to head" in html
    assert world["players"][1].name in html
    assert world["knockout"].name in html  # results by event


def test_rating_list_searches_filters_sorts_and_pages(client, world):
    name = world["players"][1].name
    html = client.get("/ratings/", {"system": "fibs", "provisional": "1", "q": name}).content.decode()
    assert name in html and "1 player." in html
    html = client.get("/ratings/", {"system": "fibs", "provisional": "1", "club": "No Such Club"}).content.decode()
    assert "No player matches these filters" in html
    assert client.get("/ratings/", {"sort": "name", "page": "99"}).status_code == 200


def test_chances_uses_the_predict_service_and_shows_its_refusals(client, world):
    a, b = world["players"][:2]
    html = client.get("/ratings/chances/", {"player_a": a.pk, "player_b": b.pk, "length": 7,
                                            "system": "crawford"}).content.decode()
    assert "Chance to win" in html and "95% interval" in html
    response = client.get("/ratings/chances/", {"player_a": "Nobody At All", "player_b": b.pk, "length": 7,
                                                "system": "fibs"})
    assert response.status_code == 400
    assert "No player is called" in response.content.decode()


def test_recompute_progress_fragment_stops_polling_when_done(client, world):
    html = client.get("/ratings/runs/", {"fragment": "1"}).content.decode()
    assert "<progress" in html and "data-poll-stop" in html and "<html" not in html


# -- the TD's score sheet ------------------------------------------------------------------------


def tournament_match(world, td):
    pairing = Pairing.objects.filter(flight__tournament=world["knockout"], status="pending",
                                     player_b__isnull=False).first()
    from tournaments import services as events

    return events.pairing_start(pairing=pairing, by=td).match


def post_game(client, match, **fields):
    match.refresh_from_db()
    data = {"number": match.games.count() + 1, "version": match.version, "winner": 0, "end": "played_out",
            "kind": 1, "cube": 1, "cube_owner": ""}
    data.update(fields)
    return client.post(reverse("match-enter", args=[match.pk]), data, follow=True)


def test_score_sheet_entry_needs_a_td_of_the_event(client, world, td, django_user_model):
    match = tournament_match(world, td)
    url = reverse("match-enter", args=[match.pk])
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(django_user_model.objects.create_user("stranger"))
    assert client.get(url).status_code == 403
    client.force_login(td)
    assert client.get(url).status_code == 200


def test_score_sheet_refuses_a_cube_in_the_crawford_game_beside_the_field(td_client, world, td):
    match = tournament_match(world, td)  # round 2 of the main flight: 5 points
    assert match.length == 5
    response = post_game(td_client, match, kind=2, cube=2, cube_owner=0)  # a doubled gammon: 4 = N-1
    assert "Game 1 recorded" in response.content.decode()
    page = td_client.get(reverse("match-enter", args=[match.pk])).content.decode()
    assert "Game 2 is the Crawford game" in page
    response = post_game(td_client, match, winner=1, cube=2, cube_owner=1)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="id_cube_error"' in html
    assert "Game 2 is the Crawford game: the cube cannot be turned." in html
    assert Game.objects.filter(match=match).count() == 1
    post_game(td_client, match, winner=1)
    response = post_game(td_client, match, winner=0)
    assert "Match over" in response.content.decode()
    match.refresh_from_db()
    assert match.finished and (match.score_a, match.score_b) == (5, 1)
    assert Pairing.objects.get(match=match).status == "finished"
    assert "No game can be recorded after its end" in response.content.decode()
    assert '<tr class="crawford">' in response.content.decode()


def test_score_sheet_undoes_the_last_game(staff_user, client):
    client.force_login(staff_user)
    a, b = make_players(2)
    match = games.match_create(player_a=a, player_b=b, length=5)
    post_game(client, match)
    match.refresh_from_db()
    client.post(reverse("match-enter", args=[match.pk]), {"action": "undo", "version": match.version})
    assert match.games.count() == 0


def test_score_sheet_reports_a_stale_form_as_a_conflict(staff_user, client):
    client.force_login(staff_user)
    a, b = make_players(2)
    match = games.match_create(player_a=a, player_b=b, length=5)
    response = client.post(reverse("match-enter", args=[match.pk]),
                           {"number": 1, "version": match.version + 5, "winner": 0, "end": "played_out", "kind": 1,
                            "cube": 1})
    assert response.status_code == 400 and "changed by someone else" in response.content.decode()
    assert match.games.count() == 0


# -- the TD's desk -------------------------------------------------------------------------------


def test_desk_creates_an_event_its_flights_and_entries_then_starts_it(client, staff_user):
    client.force_login(staff_user)
    response = client.post("/desk/", {"name": "Autumn Open", "start_date": "2026-11-22"})
    tournament = Tournament.objects.get(name="Autumn Open")
    assert response.status_code == 302 and tournament.slug in response.url
    desk = f"/desk/{tournament.slug}/"
    response = client.post(desk, {"action": "flight", "flight-name": "Main", "flight-format": "single_elimination",
                                  "flight-kind": "main", "flight-lengths": "5, 7", "flight-seeding": "manual"})
    assert response.status_code == 302
    flight = tournament.flights.get()
    assert flight.lengths == [5, 7]
    for player in make_players(3):
        client.post(desk, {"action": "enter", "player": player.pk, "flight": flight.pk})
    client.post(desk, {"action": "new_player", "new-name": "Walk In", "new-country": "dk", "flight": flight.pk})
    assert flight.entries.count() == 4
    page = client.get(desk, {"q": "Walk"}).content.decode()
    assert "Walk In" in page
    client.post(desk, {"action": "check_in_all", "flight": flight.pk})
    flight.refresh_from_db()
    response = client.post(desk, {"action": "start_flight", "flight": flight.pk, "version": flight.version},
                           follow=True)
    assert "Main started" in response.content.decode()
    pairing = Pairing.objects.filter(flight=flight).first()
    response = client.post(desk, {"action": "score", "pairing": pairing.pk, f"p{pairing.pk}-version": pairing.version,
                                  f"p{pairing.pk}-score_a": 5, f"p{pairing.pk}-score_b": 2}, follow=True)
    assert "recorded" in response.content.decode()
    pairing.refresh_from_db()
    assert pairing.status == "finished"
    slips = client.get(f"/desk/{tournament.slug}/slips/").content.decode()
    assert 'class="slip"' in slips


def test_desk_shows_a_flight_form_refusal_beside_the_field(client, staff_user, world):
    client.force_login(staff_user)
    response = client.post(f"/desk/{world['knockout'].slug}/", {
        "action": "flight", "flight-name": "Main", "flight-format": "single_elimination", "flight-kind": "main",
        "flight-lengths": "5", "flight-seeding": "manual"})
    assert response.status_code == 400
    assert "already has a flight called Main" in response.content.decode()


def test_desk_is_only_for_the_event_tds(client, world, django_user_model):
    client.force_login(django_user_model.objects.create_user("someone"))
    assert client.get(f"/desk/{world['knockout'].slug}/").status_code == 403


def test_correction_shows_its_downstream_effect_before_it_is_applied(td_client, td, world):
    tournament = world["knockout"]
    decided = Pairing.objects.filter(flight__tournament=tournament, flight__name="Main", round__number=1,
                                     status="finished").select_related("round").first()
    url = reverse("desk-correct", args=[tournament.slug, decided.pk])
    length = decided.round.length
    flipped = (0, length) if decided.winner_id == decided.player_a_id else (length, 0)
    response = td_client.post(url, {"version": decided.version, "score_a": flipped[0], "score_b": flipped[1]})
    html = response.content.decode()
    assert "What this changes downstream" in html and 'name="previewed"' in html
    decided.refresh_from_db()
    assert decided.winner_id != (decided.player_a_id if flipped[0] else decided.player_b_id)  # nothing applied
    response = td_client.post(url, {"version": decided.version, "score_a": flipped[0], "score_b": flipped[1],
                                    "previewed": f"{flipped[0]}-{flipped[1]}"})
    assert response.status_code == 302
    decided.refresh_from_db()
    assert decided.winner_id == (decided.player_a_id if flipped[0] else decided.player_b_id)


def test_desk_changes_a_flight_s_settings_until_it_starts(client, staff_user):
    client.force_login(staff_user)
    client.post("/desk/", {"name": "Settings Cup", "start_date": "2026-11-22"})
    tournament = Tournament.objects.get(name="Settings Cup")
    desk = f"/desk/{tournament.slug}/"
    client.post(desk, {"action": "flight", "flight-name": "Main", "flight-format": "swiss_knockout",
                       "flight-kind": "main", "flight-lengths": "3", "flight-seeding": "manual",
                       "flight-swiss_rounds": 3, "flight-qualifiers": 8})
    flight = tournament.flights.get()
    page = client.get(desk).content.decode()
    assert 'aria-label="Settings of Main"' in page and f'name="f{flight.pk}-qualifiers" value="8"' in page
    from .test_html import check_page

    check_page(page, "desk with a draft flight")

    def save(**fields):
        body = {"action": "settings", "flight": flight.pk, f"f{flight.pk}-version": flight.version,
                f"f{flight.pk}-lengths": "3", f"f{flight.pk}-seeding": "manual", f"f{flight.pk}-swiss_rounds": 3,
                f"f{flight.pk}-qualifiers": 8}
        body.update({f"f{flight.pk}-{name}": value for name, value in fields.items()})
        return client.post(desk, body, follow=True).content.decode()

    assert "Main: settings saved." in save(qualifiers=4, lengths="3, 3, 5")
    flight.refresh_from_db()
    assert (flight.qualifiers, flight.lengths, flight.version) == (4, [3, 3, 5], 1)
    # A bad value is refused with the field's name, and nothing changes.
    refused = save(lengths="3, x")
    assert "Main: Match lengths by round: Write whole numbers separated by commas, for example 7, 7, 9." in refused
    refused = save(qualifiers="")
    assert "Swiss then knockout needs the number of Swiss rounds and of qualifiers." in refused
    flight.refresh_from_db()
    assert (flight.qualifiers, flight.lengths, flight.version) == (4, [3, 3, 5], 1)
    # A form drawn before someone else's change is refused.
    flight.version = 0
    assert "Main was changed by someone else: reload it." in save(qualifiers=6)


def test_the_replay_draws_dice_lists_the_moves_and_writes_plays_in_the_board_s_numbers(client, db):
    import random

    from games import demo
    from games.views import board_notation

    assert board_notation("24/18 13/11*", 1) == "1/7 12/14*"
    assert board_notation("8/5(2) 6/off", 1) == "17/20(2) 19/off"
    assert board_notation("bar/22 6/5", 0) == "bar/22 6/5"
    players = make_players(2)
    match = demo.demo_replay(random.Random(5), players)
    game = match.games.get()
    assert match.winner_id is not None and len(game.moves) > 20
    html = client.get(f"/matches/{match.pk}/games/1/").content.decode()
    assert html.count('<li><a href="#frame-1-') == len(game.moves) + 1
    assert html.count('rx="4" fill="#f7f1e3"') + html.count('rx="4" fill="#3b2414"') == 2 * len(game.moves)


@pytest.mark.django_db
def test_a_forfeit_counts_in_no_head_to_head_nor_results_by_length(client, make_player):
    from games import services as games

    ann, bo = make_player(name="Ann Forfeit"), make_player(name="Bo Forfeit")
    played = games.match_create(player_a=ann, player_b=bo, length=5)
    games.match_final_score_record(match=played, score_a=5, score_b=2)
    given_up = games.match_create(player_a=ann, player_b=bo, length=7)
    games.match_forfeit(match=given_up, forfeited_by=bo, reason="did not show up")
    page = client.get(f"/players/{ann.pk}/")
    assert page.context["head_to_head"] == [{"id": bo.pk, "name": "Bo Forfeit", "won": 1, "lost": 0, "points": 5}]
    assert page.context["by_length"] == [{"length": 5, "won": 1, "lost": 0}]


@pytest.mark.parametrize("asked, found", [("/players/", "/ratings/"), ("/players/?q=Anna", "/ratings/?q=Anna")])
def test_the_players_address_leads_to_the_rating_list_and_its_search(client, asked, found):
    response = client.get(asked)
    assert (response.status_code, response["Location"]) == (302, found)
    assert client.get(found).status_code == 200


def test_a_walkover_reads_as_a_walkover_on_the_match_page_not_a_forfeit_at_nil_all(client, td):
    tournament = build_knockout(td, make_players(4), name="Walkover Open", results_rounds=0)
    pairing = Pairing.objects.filter(flight__tournament=tournament, status="pending").order_by("id").first()
    events.pairing_walkover(pairing=pairing, winner=pairing.player_b, reason="Ann did not show up", by=td)
    pairing.refresh_from_db()
    page = client.get(reverse("match", args=[pairing.match_id])).content.decode()
    assert f"Walkover: {pairing.player_b.name} goes through without play.</span> Ann did not show up." in page
    assert "won by forfeit" not in page
    assert re.search(rf">{pairing.player_a.name}</a> v <a [^>]*>{pairing.player_b.name}</a>", page)


def test_the_score_sheet_calls_an_unnamed_cube_owner_not_recorded_and_keeps_a_turned_cube_so(td_client, world, td):
    match = tournament_match(world, td)
    page = td_client.get(reverse("match-enter", args=[match.pk])).content.decode()
    assert "Not recorded (centred if the cube is 1)" in page and "Nobody (centred)" not in page
    response = post_game(td_client, match, cube=2, cube_owner="")
    assert "Game 1 recorded" in response.content.decode()
    game = Game.objects.get(match=match)
    assert (game.cube, game.cube_owner) == (2, None)


def test_a_walkover_counts_apart_from_the_matches_won_on_the_players_page(client, td):
    tournament = build_knockout(td, make_players(4), name="Walkover Open", results_rounds=0)
    first, second = Pairing.objects.filter(flight__tournament=tournament, status="pending").order_by("id")[:2]
    events.pairing_walkover(pairing=first, winner=first.player_b, reason="did not show up", by=td)
    events.result_report(pairing=second, by=td, score_a=5, score_b=1)
    final = Pairing.objects.get(flight__tournament=tournament, round__number=2)
    assert final.player_a_id == first.player_b_id
    events.result_report(pairing=final, by=td, score_a=5, score_b=3)

    def text(player_id):
        html = client.get(f"/players/{player_id}/").content.decode()
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))

    assert "won 1, lost 0, 1 walkover" in text(first.player_b_id)  # the final over the board, R1 by walkover
    assert "won 0, lost 0, 1 walkover" in text(first.player_a_id)
    assert "won 1, lost 1" in text(second.player_a_id) and "walkover" not in text(second.player_a_id)
