"""The event page: what is being played now first, brackets with their skeleton, the crosstable,
live updates that stop when the event is over, the embeddable view and its share tags."""

import re

import pytest

from tournaments.models import Pairing, Tournament

from .conftest import build_knockout, build_swiss, make_players

pytestmark = pytest.mark.django_db


def test_the_matches_to_play_come_before_the_bracket_and_the_rules_fold_away(client, td):
    tournament = build_knockout(td, make_players(8), results_rounds=0)
    html = client.get(f"/events/{tournament.slug}/").content.decode()
    assert html.count('class="now-item') == 4
    assert html.index('id="find-match"') < html.index('id="now-heading"') < html.index('class="bk-frame"')
    assert re.search(r'<details class="rules" id="rules">\s*<summary><h2 id="rules-heading">', html)


def test_tables_show_in_the_matches_to_play_once_the_td_gives_them(client, td):
    tournament = build_knockout(td, make_players(4), results_rounds=0)
    url = f"/events/{tournament.slug}/"
    assert "Table " not in client.get(url).content.decode()
    pairing = Pairing.objects.filter(flight__tournament=tournament, player_b__isnull=False).first()
    Pairing.objects.filter(pk=pairing.pk).update(table="7")
    Tournament.objects.filter(pk=tournament.pk).update(version=tournament.version + 1)
    html = client.get(url).content.decode()
    assert '<span class="now-table">Table 7</span>' in html
    assert "No table yet" in html


def test_undecided_slots_say_whose_winner_plays_there_and_rounds_have_their_names(client, td):
    tournament = build_knockout(td, make_players(8), results_rounds=0)
    html = client.get(f"/events/{tournament.slug}/").content.decode()
    assert [name for name in ("Quarter-finals", "Semi-finals", "Final") if f">{name} <span" in html] == [
        "Quarter-finals", "Semi-finals", "Final"]
    assert html.count('"nm">Winner of R1-') == 4 and html.count('"nm">Winner of R2-') == 2
    assert html.count("<path ") == 6  # the connectors of an eight-player knockout


def test_a_consolation_shows_its_whole_skeleton_before_its_players_are_known(client, td):
    tournament = build_knockout(td, make_players(8), results_rounds=0)
    html = client.get(f"/events/{tournament.slug}/").content.decode()
    consolation = html[html.index('-name">Consolation</span>'):]
    # Four losers of Main round 1: two semi-finals, then a final, each box waiting for its players.
    assert consolation.count("Loser from Main round 1") == 4
    assert consolation.count("Winner from round 1") == 2
    assert consolation.count("to be drawn") == 3


def test_the_champion_is_marked_at_the_end_of_the_bracket(client, td):
    tournament = build_knockout(td, make_players(4), results_rounds=2)
    html = client.get(f"/events/{tournament.slug}/").content.decode()
    assert html.count('class="bk-champion"') == 1


def test_a_swiss_has_a_crosstable_and_its_tie_breaks_in_words(client, td):
    tournament = build_swiss(td, make_players(6), rounds_played=2)
    html = client.get(f"/events/{tournament.slug}/").content.decode()
    decided = Pairing.objects.filter(flight__tournament=tournament, status="finished").count()
    assert decided == 6
    assert html.count('class="x-w"') == decided and html.count('class="x-l"') == decided
    assert html.count('class="x-p"') == 6  # round 3 is drawn: three matches, two players each
    assert "Buchholz</dt><dd>The sum of the points of every opponent played; a bye adds nothing.</dd>" in html


def test_the_live_part_stops_the_polling_once_the_event_is_over(client, td):
    tournament = build_knockout(td, make_players(4), results_rounds=0)
    assert client.get(f"/events/{tournament.slug}/live/").status_code == 200
    Tournament.objects.filter(pk=tournament.pk).update(status="finished")
    assert client.get(f"/events/{tournament.slug}/live/").status_code == 286


def test_the_embedded_view_may_be_framed_by_any_site_and_the_page_may_not(client, td):
    tournament = build_knockout(td, make_players(4), results_rounds=0)
    embed = client.get(f"/events/{tournament.slug}/embed/")
    assert embed.status_code == 200
    assert "X-Frame-Options" not in embed.headers
    assert embed.headers["Content-Security-Policy"].endswith("; frame-ancestors *")
    html = embed.content.decode()
    assert "site-header" not in html and 'class="bk-frame"' in html
    page = client.get(f"/events/{tournament.slug}/")
    assert page.headers["X-Frame-Options"] == "DENY"
    assert page.headers["Content-Security-Policy"].endswith("; frame-ancestors 'none'")


def test_the_event_page_has_share_tags(client, td):
    tournament = build_knockout(td, make_players(4), results_rounds=0)
    html = client.get(f"/events/{tournament.slug}/").content.decode()
    assert f'<meta property="og:title" content="{tournament.name}">' in html
    assert f'<meta property="og:url" content="http://testserver/events/{tournament.slug}/">' in html
    assert '<meta property="og:description" content="Backgammon: 20 November 2026 · Hotel Marina · Running.' in html


def test_a_player_s_calendar_holds_his_events_and_his_timed_matches(client, td):
    from datetime import UTC, datetime

    from tournaments.models import Round

    players = make_players(4)
    tournament = build_knockout(td, players, results_rounds=0)
    Round.objects.filter(flight__tournament=tournament, number=1).update(
        starts_at=datetime(2026, 11, 20, 10, 0, tzinfo=UTC))
    pairing = Pairing.objects.filter(flight__tournament=tournament, round__number=1,
                                     player_b__isnull=False).select_related("player_a", "player_b").first()
    response = client.get(f"/players/{pairing.player_a_id}/calendar.ics")
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    text = response.content.decode()
    assert text.count("BEGIN:VEVENT") == 2
    assert "DTSTART;VALUE=DATE:20261120" in text and "DTSTART:20261120T100000Z" in text
    assert f"SUMMARY:Copenhagen Open: v {pairing.player_b.name} (5 points)" in text
