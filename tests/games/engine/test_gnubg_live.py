"""Legal plays compared with a live GNU Backgammon move generator on thousands of positions.

GNU Backgammon (the ``gnubg-nn`` package on PyPI) is a test oracle only: nothing of it is used
by the engine. Skipped where the package is not installed.
"""

import random

import pytest

from games.engine.plays import legal_plays
from games.engine.position import Position

gnubg = pytest.importorskip(
    "gnubg_nn", reason="GNU Backgammon's move generator (pip install gnubg-nn) is not installed"
)

pytestmark = pytest.mark.gnubg

SEED = 20_240_601


def gnubg_results(position: Position, dice: tuple[int, int]) -> set[str]:
    """GNU Backgammon's resulting positions, seen from the mover, as Position IDs."""
    board = gnubg.board_from_position_id(position.position_id())
    keys = gnubg.moves(board, dice[0], dice[1])
    return {
        gnubg.position_id([list(side) for side in gnubg.board_from_position_key(key)])
        for key in keys
    }


def our_results(position: Position, dice: tuple[int, int]) -> set[str]:
    plays = legal_plays(position, dice)
    return {play.position.position_id() for play in plays if not play.is_empty}


def scattered(rng: random.Random) -> Position:
    """Checkers dropped at random; about a third of the time all in the home boards."""
    mine = [0] * 25
    theirs = [0] * 25
    home_only = rng.random() < 0.35
    for counts, other in ((mine, theirs), (theirs, mine)):
        for _ in range(rng.randint(1, 15)):
            slot = rng.randrange(6) if home_only else rng.randrange(25)
            if home_only and rng.random() < 0.05:
                slot = 24
            if slot < 24 and other[23 - slot]:
                continue
            counts[slot] += 1
    return Position(on_roll=tuple(mine), opponent=tuple(theirs))


def from_random_games(rng: random.Random, count: int) -> list[Position]:
    """Positions met in games where both sides pick a random legal play."""
    found: list[Position] = []
    while len(found) < count:
        position = Position.initial()
        while len(found) < count and position.outcome() is None:
            found.append(position)
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            position = rng.choice(legal_plays(position, dice)).position.swap()
    return found


def all_rolls_of(positions, rng):
    return [(position, (rng.randint(1, 6), rng.randint(1, 6))) for position in positions]


def test_gnu_backgammon_loads_the_opening_and_agrees_on_it():
    opening = Position.initial()
    for first in range(1, 7):
        for second in range(1, 7):
            assert our_results(opening, (first, second)) == gnubg_results(opening, (first, second))


def test_legal_plays_agree_with_gnu_backgammon_on_3000_positions_from_random_games():
    rng = random.Random(SEED)
    cases = all_rolls_of(from_random_games(rng, 3000), rng)
    disagreements = [
        (position.position_id(), dice)
        for position, dice in cases
        if our_results(position, dice) != gnubg_results(position, dice)
    ]
    assert disagreements == []


def test_legal_plays_agree_with_gnu_backgammon_on_5000_scattered_positions():
    rng = random.Random(SEED + 1)
    cases = [(scattered(rng), (rng.randint(1, 6), rng.randint(1, 6))) for _ in range(5000)]
    disagreements = [
        (position.position_id(), dice)
        for position, dice in cases
        if our_results(position, dice) != gnubg_results(position, dice)
    ]
    assert disagreements == []


def test_a_roll_gnu_backgammon_cannot_play_is_our_single_empty_play():
    rng = random.Random(SEED + 2)
    dances = 0
    for _ in range(3000):
        position, dice = scattered(rng), (rng.randint(1, 6), rng.randint(1, 6))
        if not gnubg_results(position, dice):
            dances += 1
            plays = legal_plays(position, dice)
            assert len(plays) == 1 and plays[0].is_empty and plays[0].position == position
    assert dances > 0
