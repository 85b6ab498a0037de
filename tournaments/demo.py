"""Demo events for `seed_demo`: a finished event, a running one and a club round robin, all
played through the services."""

import random
from datetime import timedelta

from django.utils import timezone

from games.models import Player

from . import services
from .models import Pairing, PairingStatus, Tournament


def _enter(flight, players, by):
    for seed, player in enumerate(players, start=1):
        entry = services.entry_add(flight=flight, player=player, seed=seed, by=by)
        services.entry_check_in(entry=entry, by=by)


def _play(rng: random.Random, flights, strength, by, *, limit=None) -> int:
    """Report results (final scores, entered by the TD) until nothing is left or `limit` is reached."""
    played = 0
    while limit is None or played < limit:
        ready = list(Pairing.objects.filter(flight__in=flights, status=PairingStatus.PENDING)
                     .select_related("round", "player_a", "player_b").order_by("round__number", "id"))
        if not ready:
            break
        for pairing in ready:
            if limit is not None and played >= limit:
                break
            edge = 0.5 + 0.08 * (strength[pairing.player_a_id] - strength[pairing.player_b_id])
            a_wins = rng.random() < min(0.85, max(0.15, edge))
            length = pairing.round.length
            loser_score = rng.randrange(length)
            services.result_report(pairing=pairing, by=by, score_a=length if a_wins else loser_score,
                                   score_b=loser_score if a_wins else length, note="demo result")
            played += 1
    return played


def _knockout(name, start, venue, players, by, *, lengths, consolation_lengths):
    event = services.tournament_create(name=name, start_date=start, end_date=start + timedelta(days=2),
                                       venue=venue, clock="2 min + 12 s/move", clock_seconds=120, by=by)
    main = services.flight_create(tournament=event, name="Main", format="single_elimination", lengths=lengths,
                                  seeding="random", by=by)
    consolation = services.flight_create(
        tournament=event, name="Consolation", kind="consolation", format="single_elimination",
        lengths=consolation_lengths,
        feeders=[{"source": "Main", "source_round": 1, "entry_round": 1},
                 {"source": "Main", "source_round": 2, "entry_round": 2}], by=by)
    _enter(main, players, by)
    services.flight_start(flight=main, by=by, random_seed=len(players) * 7919 + start.year)
    return event, [main, consolation]


def demo_events(rng: random.Random, players: list[Player], by) -> list[Tournament]:
    strength = {p.pk: rng.gauss(0, 1) for p in players}
    today = timezone.localdate()
    pool = list(players)
    rng.shuffle(pool)

    finished, flights = _knockout("Nordic Open", today - timedelta(days=60), "Hotel Marienlyst, Helsingør",
                                  pool[:24], by, lengths=[5, 7, 7, 9, 11], consolation_lengths=[5, 5, 7, 7])
    _play(rng, flights, strength, by)

    running, flights = _knockout("Copenhagen Spring Cup", today, "Café Backgammon, Copenhagen", pool[8:40], by,
                                 lengths=[7, 7, 9, 11, 11], consolation_lengths=[5, 7, 7])
    _play(rng, flights, strength, by, limit=16)

    club = services.tournament_create(name="Club Night Round Robin", start_date=today - timedelta(days=7),
                                      venue="Aarhus BG", by=by)
    robin = services.flight_create(tournament=club, name="Round Robin", kind="side", format="round_robin",
                                   lengths=[5], by=by)
    _enter(robin, pool[-7:], by)
    services.flight_start(flight=robin, by=by)
    _play(rng, [robin], strength, by, limit=15)
    return [finished, running, club]
