"""The first draw of a flight on the desk, without script: the seed list and round 1 before anything
is drawn, seeds moved, pairs kept apart or made to meet, the confirmation, a second TD's late
confirmation, and the desk's ratings in the site's default system."""

import re
from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings.selectors import rating_map
from tournaments import services as events
from tournaments.models import Flight, Pairing

from .conftest import build_knockout, make_players, publish_ratings

pytestmark = pytest.mark.django_db


def draft_event(td, players, *, name="Draw Open"):
    """A knockout of `players` seeded by hand in list order, with a consolation, not yet drawn."""
    tournament = events.tournament_create(name=name, start_date=date(2026, 11, 20), organisers=[td], by=td) \
        if td.is_staff else _created(td, name)
    main = events.flight_create(tournament=tournament, name="Main", format="single_elimination", lengths=[5, 7, 9],
                                by=td)
    events.flight_create(tournament=tournament, name="Consolation", kind="consolation", format="single_elimination",
                         lengths=[3], feeders=[{"source": "Main", "source_round": 1, "entry_round": 1}], by=td)
    for seed, player in enumerate(players, start=1):
        events.entry_check_in(entry=events.entry_add(flight=main, player=player, seed=seed, by=td), by=td)
    return tournament, main


def _created(td, name):
    from django.contrib.auth import get_user_model

    creator = get_user_model().objects.create_user(f"creator-{name}", is_staff=True, is_superuser=True)
    return events.tournament_create(name=name, start_date=date(2026, 11, 20), organisers=[td], by=creator)


def round_one(html):
    """Round 1 on the page: (slot, name a, name b or None for a bye) per table."""
    rows = []
    for slot, body in re.findall(r'data-slot="(R1-\d+)">(.*?)</li>', html, re.S):
        names = re.findall(r"<b>\d+</b> ([^<]+?)</span>", body)
        rows.append((slot, names[0], names[1] if len(names) > 1 else None))
    return rows


def state(html):
    """The form's hidden state, as the browser would post it back."""
    return {
        "seeds": re.findall(r'name="seeds" value="(\d+)"', html),
        "apart": re.findall(r'name="apart" value="([\d-]+)"', html),
        "fixed": re.findall(r'name="fixed" value="([\d-]+)"', html),
        "version": re.search(r'name="version" value="(\d+)"', html).group(1),
    }


@pytest.fixture
def cast(td):
    players = make_players(8, "Seed")
    tournament, main = draft_event(td, players)
    return tournament, main, players


def test_draw_and_start_on_the_desk_leads_to_the_draw_not_to_a_blind_start(td_client, cast):
    tournament, main, players = cast
    desk = td_client.get(f"/desk/{tournament.slug}/").content.decode()
    assert f'<form method="get" action="/desk/{tournament.slug}/flights/{main.pk}/draw/"' in desk
    page = td_client.get(f"/desk/{tournament.slug}/flights/{main.pk}/draw/")
    html = page.content.decode()
    assert page.status_code == 200
    n = [p.name for p in players]
    assert round_one(html) == [("R1-1", n[0], n[7]), ("R1-2", n[3], n[4]), ("R1-3", n[1], n[6]), ("R1-4", n[2], n[5])]
    assert "The losers of round 1 go to Consolation (its round 1)." in html
    assert (Flight.objects.get(pk=main.pk).status, Pairing.objects.count()) == ("draft", 0)


def test_a_seed_moved_up_redraws_round_one_and_keeps_the_focus_on_its_button(td_client, cast):
    tournament, main, players = cast
    url = f"/desk/{tournament.slug}/flights/{main.pk}/draw/"
    html = td_client.get(url).content.decode()
    fifth = players[4]
    moved = td_client.post(url, {**state(html), "move": f"{fifth.pk}:up"})
    html = moved.content.decode()
    assert moved.status_code == 200
    n = [p.name for p in players]
    assert round_one(html) == [("R1-1", n[0], n[7]), ("R1-2", n[4], n[3]), ("R1-3", n[1], n[6]), ("R1-4", n[2], n[5])]
    assert re.search(rf'id="move-{fifth.pk}-up" aria-label="Move {fifth.name} up to seed 3" autofocus>', html)
    assert "seeds moved by hand" in html
    assert (Flight.objects.get(pk=main.pk).status, Pairing.objects.count()) == ("draft", 0)


def test_a_pair_kept_apart_and_a_pair_made_to_meet_show_in_round_one_then_the_confirmation_draws_it(td_client,
                                                                                                  cast):
    tournament, main, players = cast
    url = f"/desk/{tournament.slug}/flights/{main.pk}/draw/"
    n = [p.name for p in players]
    html = td_client.get(url).content.decode()
    html = td_client.post(url, {**state(html), "action": "apart", "pair_a": players[0].pk,
                                "pair_b": players[7].pk}).content.decode()
    assert f"kept apart</span> {n[0]} and {n[7]}" in html
    html = td_client.post(url, {**state(html), "action": "fixed", "pair_a": players[1].pk,
                                "pair_b": players[2].pk}).content.decode()
    shown = round_one(html)
    assert shown == [("R1-1", n[0], n[6]), ("R1-2", n[3], n[4]), ("R1-3", n[1], n[2]), ("R1-4", n[7], n[5])]
    confirmed = td_client.post(url, {**state(html), "action": "confirm"})
    assert confirmed.status_code == 302 and confirmed["Location"] == f"/desk/{tournament.slug}/#flight-{main.pk}"
    drawn = [(p.slot, p.player_a.name, p.player_b.name) for p in
             Pairing.objects.filter(flight=main).select_related("player_a", "player_b").order_by("slot")]
    assert drawn == shown
    public = td_client.get(f"/events/{tournament.slug}/").content.decode()
    assert "The TD&#x27;s order; 1 pair kept apart in round 1; 1 pairing fixed in round 1</dd>" in public


def test_a_rule_that_cannot_be_kept_is_refused_beside_the_players_with_the_focus_there(td_client, td):
    players = make_players(2, "Pair")
    tournament, main = draft_event(td, players, name="Pair Open")
    url = f"/desk/{tournament.slug}/flights/{main.pk}/draw/"
    html = td_client.get(url).content.decode()
    refused = td_client.post(url, {**state(html), "action": "apart", "pair_a": players[0].pk,
                                   "pair_b": players[1].pk})
    html = refused.content.decode()
    assert refused.status_code == 400
    assert (f'<p class="errorlist" id="rule-error" role="alert">Main: {players[0].name} and {players[1].name} '
            "cannot be kept apart in round 1") in html
    assert 'aria-invalid="true" autofocus>' in html
    assert "kept apart</span>" not in html


def test_a_second_td_confirming_after_the_first_sees_409_and_the_way_back_to_the_desk(td_client, client, cast,
                                                                                      django_user_model):
    tournament, main, players = cast
    url = f"/desk/{tournament.slug}/flights/{main.pk}/draw/"
    other = django_user_model.objects.create_user("second-td")
    tournament.organisers.add(other)
    client.force_login(other)
    mine = state(td_client.get(url).content.decode())
    theirs = state(client.get(url).content.decode())
    assert td_client.post(url, {**mine, "action": "confirm"}).status_code == 302
    drawn = list(Pairing.objects.order_by("id").values_list("slot", "player_a_id", "player_b_id"))
    late = client.post(url, {**theirs, "action": "confirm"})
    html = late.content.decode()
    assert late.status_code == 409
    assert ('role="alert" tabindex="-1" autofocus>Main has already been started by another TD: its draw is made. '
            "Nothing of yours was drawn; reload the desk to see it.</p>") in html
    assert "See the draw on the desk" in html
    assert list(Pairing.objects.order_by("id").values_list("slot", "player_a_id", "player_b_id")) == drawn


def test_the_draw_page_reads_as_many_queries_for_32_players_as_for_8(td_client, td, cast):
    tournament, main, _ = cast
    big, big_main = draft_event(td, make_players(32, "Big"), name="Big Open")
    counts = []
    for slug, pk in ((tournament.slug, main.pk), (big.slug, big_main.pk)):
        with CaptureQueriesContext(connection) as queries:
            assert td_client.get(f"/desk/{slug}/flights/{pk}/draw/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_desk_and_the_draw_show_ratings_in_the_sites_default_system_as_the_rating_list_does(td_client, td,
                                                                                               settings):
    rated = make_players(4, "Rated")
    build_knockout(td, rated, name="Rated Open", results_rounds=2)
    publish_ratings()
    crawford, fibs = rating_map([rated[0].pk], "crawford"), rating_map([rated[0].pk], "fibs")
    assert round(crawford[rated[0].pk]) != round(fibs[rated[0].pk])
    tournament, main = draft_event(td, rated, name="Next Open")
    cell = f'<td class="num">{round(crawford[rated[0].pk])}</td>'
    assert cell in td_client.get(f"/desk/{tournament.slug}/").content.decode()
    html = td_client.get(f"/desk/{tournament.slug}/flights/{main.pk}/draw/").content.decode()
    label = "Variance-adjusted (Glicko-2)"
    assert f'<span class="seed-rating" title="{label}">{round(crawford[rated[0].pk])}</span>' in html
    # A site whose default is FIBS shows FIBS on both, as its rating list does.
    settings.RATINGS_DEFAULT_SYSTEM = "fibs"
    desk = td_client.get(f"/desk/{tournament.slug}/").content.decode()
    assert f'<td class="num">{round(fibs[rated[0].pk])}</td>' in desk
    assert "<title>Ratings: FIBS Elo · Crawford</title>" in td_client.get("/ratings/").content.decode()


def test_a_withdrawal_after_the_page_was_drawn_restarts_from_the_seeding_and_says_who(td_client, td, cast):
    tournament, main, players = cast
    url = f"/desk/{tournament.slug}/flights/{main.pk}/draw/"
    html = td_client.get(url).content.decode()
    html = td_client.post(url, {**state(html), "action": "apart", "pair_a": players[0].pk,
                                "pair_b": players[7].pk}).content.decode()
    events.entry_withdraw(entry=main.entries.get(player=players[7]), by=td)
    moved = td_client.post(url, {**state(html), "move": f"{players[3].pk}:down"})
    html = moved.content.decode()
    assert moved.status_code == 409
    assert (f"The players of Main changed since this draw was shown ({players[7].name} no longer checked in): "
            f"look at the draw again before you confirm it. The pairs kept apart or made to meet are cleared: Main: "
            f"{players[7].name} is not in the draw (only checked-in players are).</p>") in html
    n = [p.name for p in players]
    assert round_one(html) == [("R1-1", n[0], None), ("R1-2", n[3], n[4]), ("R1-3", n[1], n[6]),
                               ("R1-4", n[2], n[5])]
    assert "kept apart</span>" not in html and Pairing.objects.count() == 0


def test_a_forged_draw_number_answers_400_not_a_server_error(td, client, make_player):
    tournament, main = draft_event(td, [make_player(name=f"Forged {n}") for n in range(4)], name="Forged Open")
    client.force_login(td)
    for value in ("²", "1e5", "9" * 30):
        response = client.post(f"/desk/{tournament.slug}/flights/{main.pk}/draw/",
                               {"action": "confirm", "random_seed": value})
        assert response.status_code == 400, value
    main.refresh_from_db()
    assert main.status == "draft"
