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
