"""Synthetic match histories for the rating benches."""

from __future__ import annotations

import math
import random
from datetime import date, timedelta

from ratings.systems import MatchRecord

LENGTHS = (1, 3, 5, 5, 7, 7, 7, 9, 11, 11, 13, 15, 17, 21, 25)
"""Match lengths drawn uniformly from this tuple: club nights, leagues and tournaments."""


def synthetic_history(matches: int, players: int, *, seed: int, days: int = 3 * 365) -> list[MatchRecord]:
    """`matches` matches among `players` players of normally spread skill (FIBS scale, sd 200),
    dated evenly over `days` days, the winner drawn from the FIBS curve of the true skills."""
    rng = random.Random(seed)
    skills = [rng.gauss(1500.0, 200.0) for _ in range(players)]
    start = date(2022, 1, 1)
    calendar = [start + timedelta(days=d) for d in range(days)]
    history = []
    for match_id in range(matches):
        a = rng.randrange(players)
        b = rng.randrange(players - 1)
        if b >= a:
            b += 1
        length = rng.choice(LENGTHS)
        p_a = 1.0 / (1.0 + 10.0 ** ((skills[b] - skills[a]) * math.sqrt(length) / 2000.0))
        winner = "a" if rng.random() < p_a else "b"
        history.append(MatchRecord(match_id, calendar[match_id * days // matches], a, b, length, winner))
    return history
