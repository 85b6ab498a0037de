"""The event page keeps its drawn flights in the cache, and never shows an older draw."""

import pytest

from games import services as games
from tournaments import services as events
from tournaments.models import Pairing, Tournament

from .conftest import build_knockout, make_players

pytestmark = pytest.mark.django_db


def open_pairing(tournament):
    return (Pairing.objects.filter(flight__tournament=tournament, status="pending", player_b__isnull=False)
            .select_related("flight__tournament", "round", "player_a", "player_b").order_by("id").first())


def test_the_event_page_shows_a_result_as_soon_as_it_is_reported(client, td):
    tournament = build_knockout(td, make_players(8), results_rounds=0)
    pairing = open_pairing(tournament)
    for url in (f"/events/{tournament.slug}/", f"/events/{tournament.slug}/live/"):
        assert "7–3" not in client.get(url).content.decode()  # drawn now, and kept
    before = Tournament.objects.get(pk=tournament.pk).version
    events.result_report(pairing=pairing, by=td, score_a=7, score_b=3)
    assert Tournament.objects.get(pk=tournament.pk).version > before
    for url in (f"/events/{tournament.slug}/", f"/events/{tournament.slug}/live/"):
        page = client.get(url).content.decode()
        assert "beat" in page and "7–3" in page


def test_a_match_started_and_played_through_the_games_shows_at_once(client, td):
    tournament = build_knockout(td, make_players(4), results_rounds=0)
    pairing = open_pairing(tournament)
    url = f"/events/{tournament.slug}/"
    assert "playing" not in client.get(url).content.decode()
    pairing = events.pairing_start(pairing=pairing, by=td)
    assert "badge live\">playing" in client.get(url).content.decode()
    match = pairing.match
    for number in range(1, pairing.round.length + 1):
        match = events.pairing_game_record(match=match, number=number, game=games.GameInput(winner=1), by=td)
        if match.finished:
            break
    page = client.get(url).content.decode()
    assert "lost to" in page


def test_a_player_renamed_shows_at_once(client, td):
    players = make_players(4)
    tournament = build_knockout(td, players)
    url = f"/events/{tournament.slug}/"
    assert "Renamed Player" not in client.get(url).content.decode()
    player = players[0]
    player.name = "Renamed Player"
    player.save()
    assert "Renamed Player" in client.get(url).content.decode()


def test_a_withdrawal_and_a_correction_show_at_once(client, td):
    tournament = build_knockout(td, make_players(8), results_rounds=1)
    url = f"/events/{tournament.slug}/"
    client.get(url)
    decided = (Pairing.objects.filter(flight__tournament=tournament, status="finished", player_b__isnull=False)
               .select_related("flight__tournament", "round", "player_a", "player_b").order_by("id").first())
    loser_wins = (1, 9) if decided.winner_id == decided.player_a_id else (9, 1)
    events.result_override(pairing=decided, by=td, score_a=loser_wins[0], score_b=loser_wins[1],
                           apply_downstream=True)
    assert f"{loser_wins[0]}–{loser_wins[1]}" in client.get(url).content.decode()
    entry = tournament.entries.filter(status="checked_in").select_related("flight", "player").first()
    events.entry_withdraw(entry=entry, by=td)
    assert "(walkover)" in client.get(url).content.decode() or "withdrawn" in client.get(url).content.decode()
