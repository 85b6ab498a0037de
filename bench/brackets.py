"""How long the tournament formats take on large fields.

    .venv/bin/python bench/brackets.py

Prints the time to draw a 512-player main flight (with its consolation and last chance, and to
play it out), and to pair round 5 of a 1,000-player Swiss after four simulated rounds.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.formats import (  # noqa: E402
    Competitor,
    Feeder,
    FlightKind,
    FlightSpec,
    KnockoutEvent,
    Result,
    SeedingMethod,
    SingleElimination,
    seed_competitors,
)
from tournaments.formats.swiss import Swiss, SwissSettings  # noqa: E402


def timed(label: str, action, repeat: int = 5):
    best = float("inf")
    value = None
    for _ in range(repeat):
        start = time.perf_counter()
        value = action()
        best = min(best, time.perf_counter() - start)
    print(f"{label:<62} {best * 1000:9.1f} ms")
    return value


def main() -> None:
    rng = random.Random(1)
    players = [Competitor(i, i, rating=rng.gauss(1500, 200)) for i in range(1, 513)]
    seeded = timed("seed 512 players by rating", lambda: seed_competitors(players, SeedingMethod.RATING))
    main_flight = timed("draw a 512-player main flight", lambda: SingleElimination(seeded))
    print(f"{'':<62} {len(main_flight.ready())} matches ready")

    specs = (
        FlightSpec("Main", lengths=(7, 7, 9, 9, 11, 11, 13, 13, 15)),
        FlightSpec("Consolation", FlightKind.CONSOLATION,
                   feeders=(Feeder("Main", 1, 1), Feeder("Main", 2, 2))),
        FlightSpec("Last Chance", FlightKind.LAST_CHANCE, feeders=(Feeder("Consolation", 1, 1),)),
    )

    def play_event():
        results = {spec.name: [] for spec in specs}
        draw = random.Random(7)
        while True:
            event = KnockoutEvent(seeded, specs, results=results)
            ready = event.ready()
            if not any(ready.values()):
                return event
            for name, pairings in ready.items():
                results[name] += [Result(p.slot, draw.choice(p.players)) for p in pairings]

    event = timed("play out 512 players: main, consolation, last chance", play_event, repeat=1)
    print(f"{'':<62} {sum(len(f.played()) for f in event.flights.values())} matches played")

    field = [Competitor(i, i) for i in range(1, 1001)]
    swiss_settings = SwissSettings(rounds=9)
    pairings: list = []
    results: list = []
    draw = random.Random(11)
    for _ in range(4):
        new = Swiss(field, swiss_settings, pairings=pairings, results=results).pair_next_round()
        pairings += new
        results += [Result(p.slot, draw.choice(p.players)) for p in new if not p.is_bye]
    swiss = Swiss(field, swiss_settings, pairings=pairings, results=results)
    round_five = timed("pair round 5 of a 1,000-player Swiss (no rematches)", swiss.pair_next_round)
    played = {frozenset(p.players) for p in pairings}
    rematches = sum(frozenset(p.players) in played for p in round_five if not p.is_bye)
    print(f"{'':<62} {len(round_five)} tables, {rematches} rematches")


if __name__ == "__main__":
    main()
