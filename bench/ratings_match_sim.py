"""A simple backgammon match simulator for the accuracy bench.

Matches are played game by game to N points. A game is a walk of the first player's winning
chances on the logit scale, one step per turn, drifting towards the more skilful player, until
one side's chances pass 98.9%. Each player judges the position with his own error (weaker
players judge worse) and uses the cube by that judgement: he doubles when he thinks his chances
have reached the doubling point and he has access to the cube, and the opponent takes when he
thinks his own chances are above the take point, else drops. Games that are played out end
as gammons and backgammons at fixed rates. The Crawford game is played without the cube; after
it the trailer doubles at once and the leader takes. A player does not double when the cube
already covers what he needs. The luck of short matches follows from all this rather than
being assumed.
"""

from __future__ import annotations

import math
import random

TURN_SPREAD = 1.6
"""Standard deviation of the change of the logit of the winning chances per turn."""

EDGE_PER_TURN = 0.08
"""Drift of the logit per turn per unit of skill difference."""

DECIDED = 4.5
"""|logit| at which a game is over (98.9%)."""

DOUBLING_POINT = 0.70
TAKE_POINT = 0.24
GAMMON_RATE = 0.20
BACKGAMMON_RATE = 0.015


def judgement_error(skill: float) -> float:
    """How far off (logit scale) a player of this skill judges his chances."""
    return 0.6 * math.exp(-0.6 * skill)


def play_game(rng: random.Random, skill_a: float, skill_b: float, cube_allowed: bool,
              a_needs: int, b_needs: int, trailer_doubles_at_once: bool) -> tuple[bool, int]:
    """One game; returns (A won, points won)."""
    error_a = judgement_error(skill_a)
    error_b = judgement_error(skill_b)
    drift = EDGE_PER_TURN * (skill_a - skill_b)
    gauss = rng.gauss
    logit = 0.0
    cube = 1
    owner = 0  # 0 centred, 1 player A, -1 player B
    a_on_roll = rng.random() < 0.5
    if trailer_doubles_at_once:
        cube = 2
    while True:
        if cube_allowed:
            if a_on_roll and owner != -1 and cube < a_needs:
                if logit + gauss(0.0, error_a) > _DOUBLING_LOGIT:
                    if -logit + gauss(0.0, error_b) > _TAKE_LOGIT:
                        cube *= 2
                        owner = -1
                    else:
                        return True, cube
            elif not a_on_roll and owner != 1 and cube < b_needs:
                if -logit + gauss(0.0, error_b) > _DOUBLING_LOGIT:
                    if logit + gauss(0.0, error_a) > _TAKE_LOGIT:
                        cube *= 2
                        owner = 1
                    else:
                        return False, cube
        logit += drift + gauss(0.0, TURN_SPREAD)
        if logit >= DECIDED or logit <= -DECIDED:
            roll = rng.random()
            multiplier = 3 if roll < BACKGAMMON_RATE else 2 if roll < GAMMON_RATE else 1
            return logit > 0.0, cube * multiplier
        a_on_roll = not a_on_roll


_DOUBLING_LOGIT = math.log(DOUBLING_POINT / (1.0 - DOUBLING_POINT))
_TAKE_LOGIT = math.log(TAKE_POINT / (1.0 - TAKE_POINT))


def play_match(rng: random.Random, skill_a: float, skill_b: float, length: int) -> bool:
    """Play an N-point match game by game with the Crawford rule; True when A wins."""
    score_a = score_b = 0
    crawford_played = False
    while score_a < length and score_b < length:
        a_needs = length - score_a
        b_needs = length - score_b
        crawford_game = not crawford_played and (a_needs == 1 or b_needs == 1) and length > 1
        if crawford_game:
            crawford_played = True
        post_crawford = crawford_played and not crawford_game and (a_needs == 1) != (b_needs == 1)
        cube_allowed = not crawford_game and length > 1 and not post_crawford
        a_won, points = play_game(rng, skill_a, skill_b, cube_allowed, a_needs, b_needs, post_crawford)
        if a_won:
            score_a += points
        else:
            score_b += points
    return score_a >= length


CLUB_LENGTHS = (1, 3, 3, 5, 5, 5, 7, 7, 7, 9, 11, 13, 17)
"""Match lengths of a simulated club: many short matches on club nights, a few long ones."""


def drifting_club(
    rng: random.Random,
    *,
    matches: int = 3000,
    days: int = 3 * 365,
    founders: int = 30,
    arrivals_per_year: float = 18.0,
    mean_stay_days: float = 700.0,
    drift_per_year: float | None = None,
    breaks_per_month: float = 0.06,
    skill_spread: float = 0.6,
) -> tuple[list[tuple[int, str, str, int, bool, float]], dict]:
    """A club's history whose players change: (day, player A, player B, length, A won, skill
    difference A − B on the day) per match.

    * Skill drifts: each player's skill (the scale of `play_match`, population sd `skill_spread`: 0.6 a
      club of regulars, 1.0 one where beginners play experts) takes a
      Gaussian random walk, `drift_per_year` being the standard deviation of a year's change.
      When not given, it is drawn log-uniformly between 0.1 and 0.6, and a fit never sees it.
    * Players arrive and leave: `founders` at the start, then arrivals at random days; each
      stays an exponential time (mean `mean_stay_days`), so some leave and some come back never.
      A newcomer is a little weaker on average and improves faster for his first year.
    * Activity is uneven: each player's weight is log-normal (some play ten times as often as
      others), most matches are played on the weekly club night, and a player takes breaks
      (each month with chance `breaks_per_month`, one to ten months away) while his skill
      goes on drifting.

    Matches are played game by game with `play_match`. Returns the history and a description
    (the drift drawn, how many players took part).
    """
    if drift_per_year is None:
        drift_per_year = math.exp(rng.uniform(math.log(0.1), math.log(0.6)))
    per_day = drift_per_year / math.sqrt(365.0)
    players: list[dict] = []

    def arrive(day: int, newcomer: bool) -> None:
        players.append({
            "name": f"C{len(players):03d}",
            "skill": rng.gauss(-0.5 * skill_spread if newcomer else 0.0, skill_spread),
            "learning": rng.uniform(0.0, 0.4) if newcomer else 0.0,
            "from": day,
            "to": day + rng.expovariate(1.0 / mean_stay_days),
            "weight": math.exp(rng.gauss(0.0, 0.8)),
            "back": day,
        })

    for _ in range(founders):
        arrive(0, False)
    history = []
    club_nights = [day for day in range(days) if day % 7 == 2]
    per_night = matches * 0.8 / len(club_nights)
    for day in range(days):
        if rng.random() < arrivals_per_year / 365.0:
            arrive(day, True)
        for player in players:
            if player["from"] <= day < player["to"]:
                improving = player["learning"] / 365.0 if day - player["from"] < 365 else 0.0
                player["skill"] += improving + rng.gauss(0.0, per_day)
        for player in players:
            if day % 30 == 0 and player["back"] <= day and rng.random() < breaks_per_month:
                player["back"] = day + rng.randrange(30, 300)
        present = [p for p in players if p["from"] <= day < p["to"] and p["back"] <= day]
        if len(present) < 2:
            continue
        expected = per_night if day % 7 == 2 else matches * 0.2 / (days - len(club_nights))
        count = int(expected) + (rng.random() < expected - int(expected))
        weights = [p["weight"] for p in present]
        for _ in range(count):
            a, b = rng.choices(present, weights, k=2)
            while a is b:
                b = rng.choices(present, weights)[0]
            length = rng.choice(CLUB_LENGTHS)
            a_won = play_match(rng, a["skill"], b["skill"], length)
            history.append((day, a["name"], b["name"], length, a_won, a["skill"] - b["skill"]))
    taking_part = len({name for _, a, b, _, _, _ in history for name in (a, b)})
    return history, {"drift_per_year": drift_per_year, "players": taking_part}
