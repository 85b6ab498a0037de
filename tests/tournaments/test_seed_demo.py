"""seed_demo builds a finished event, a running one and a club round robin through the services."""

import pytest
from django.core.management import call_command

from tournaments.models import Flight, FlightStatus, PairingStatus, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db


@pytest.mark.slow
def test_seed_demo_loads_a_finished_and_a_running_event():
    call_command("seed_demo", players=48, matches=20, verbosity=0)
    statuses = dict(Tournament.objects.values_list("name", "status"))
    assert statuses == {"Nordic Open": TournamentStatus.FINISHED, "Copenhagen Spring Cup": TournamentStatus.RUNNING,
                        "Club Night Round Robin": TournamentStatus.RUNNING}
    finished = Flight.objects.filter(tournament__name="Nordic Open")
    assert all(f.status == FlightStatus.FINISHED and f.champion_id for f in finished)
    running = Tournament.objects.get(name="Copenhagen Spring Cup")
    assert running.flights.get(name="Main").random_seed is not None
    assert running.flights.get(name="Main").pairings.filter(status=PairingStatus.FINISHED).exists()
    assert running.flights.get(name="Main").pairings.filter(status=PairingStatus.PENDING).exists()


def test_seed_demo_gives_a_player_with_a_match_to_play_a_login(client, password_login):
    call_command("seed_demo", players=48, matches=20, verbosity=0)
    assert password_login(client, "player", "player-password")
    page = client.get("/me/").content.decode()
    assert page.count('aria-label="Report the result of ') == 1


def test_the_demo_history_is_result_slips_then_score_sheets_and_newcomers_play_only_lately():
    import random

    from games import demo
    from games.models import Game, Match

    rng = random.Random(7)
    players = demo.demo_players(rng, 8)
    matches = demo.demo_matches(rng, players, 20, sheets=5, newcomers=2)
    assert [m.status for m in matches] == ["finished"] * 20
    with_games = set(Game.objects.values_list("match_id", flat=True))
    assert [m.pk in with_games for m in matches] == [False] * 15 + [True] * 5
    newcomers = {p.pk for p in players[-2:]}
    older = Match.objects.filter(pk__in=[m.pk for m in matches[:15]])
    assert not older.filter(player_a__in=newcomers).exists() and not older.filter(player_b__in=newcomers).exists()
    assert all(max(m.score_a, m.score_b) >= m.length > min(m.score_a, m.score_b) for m in matches)
