"""Final scores: which ones a match to N points can end on.

A match known only by its final score (a result slip, an imported history, a player's report)
must end on a score the rules can reach: the loser below the length, and the winner on the
score he stood at before the last game (below the length) plus one game's value, the cube
times 1, 2 or 3, with the cube within the event's cap and the Crawford rule applied: a turned
cube needs a game that is not the Crawford game.

    >>> check_final_score(5, (7, 3))
    0
    >>> check_final_score(5, (55, 3))
    Traceback (most recent call last):
    ...
    games.engine.errors.ScoringError: 55–3 is not a possible final score: in a 5-point match where the loser has 3, the winner ends on 5 to 20, 24 to 28, 32 to 36, 48 to 52, 64 to 68, … (the score he stood at, below 5, plus one game: the cube times 1, 2 or 3).
"""

from __future__ import annotations

import functools

from .errors import ScoringError, gettext_noop
from .scoring import HIGHEST_CUBE, ResultKind

RANGES_SHOWN = 5
"""How many stretches of possible totals a refusal lists before it trails off."""


def cube_values(cube_cap: int | None) -> tuple[int, ...]:
    """The values a cube can hold in a game: 1, 2, 4, … up to the cap (or the highest cube)."""
    top = HIGHEST_CUBE if cube_cap is None else min(cube_cap, HIGHEST_CUBE)
    values, cube = [], 1
    while cube <= top:
        values.append(cube)
        cube *= 2
    return tuple(values)


def cube_can_be_turned(length: int, winner_before: int, loser_before: int) -> bool:
    """Whether the game played at this score (both below `length`) can have a turned cube.

    Nobody on `length` − 1: yes. Somebody on it: the Crawford game came when he first reached
    it, so the cube is live only if that game has been played, which needs the other player to
    have won it (a point or more) — or both to be on `length` − 1.
    """
    away = length - 1
    if length < 2 or (winner_before < away and loser_before < away):
        return True
    if winner_before == away and loser_before == away:
        return True
    if winner_before == away:
        return loser_before >= 1
    return winner_before >= 1


@functools.lru_cache(maxsize=32)
def game_values(cube_cap: int | None) -> frozenset[int]:
    """What one game can be worth with a live cube: every cube value times 1, 2 or 3."""
    return frozenset(cube * int(kind) for cube in cube_values(cube_cap) for kind in ResultKind)


CUBE_DEAD_VALUES = frozenset(int(kind) for kind in ResultKind)
"""What one game is worth when the cube cannot be turned (the Crawford game): 1, 2 or 3."""


def is_possible_final(length: int, winner: int, loser: int, *, cube_cap: int | None = None) -> bool:
    """Whether a `length`-point match can end with its winner on `winner` and its loser on
    `loser` (both checked as whole numbers by the caller): the quick form of `winning_totals`."""
    if loser >= length or winner < length:
        return False
    live = game_values(cube_cap)
    for before in range(length):
        values = live if cube_can_be_turned(length, before, loser) else CUBE_DEAD_VALUES
        if winner - before in values:
            return True
    return False


def winning_totals(length: int, loser: int, *, cube_cap: int | None = None, crawford: bool = True) -> frozenset[int]:
    """Every total the winner of a `length`-point match can end on when the loser has `loser`.

    `crawford=False` leaves the Crawford rule out (to tell a refusal it is the rule at fault).
    """
    live = game_values(cube_cap)
    totals = set()
    for before in range(length):
        values = live if not crawford or cube_can_be_turned(length, before, loser) else CUBE_DEAD_VALUES
        totals.update(before + value for value in values if before + value >= length)
    return frozenset(totals)


def _stretches(totals: frozenset[int]) -> list[str]:
    """Totals as stretches of consecutive numbers: "5 to 20", "24 to 28", "32"."""
    ordered = sorted(totals)
    stretches, start = [], None
    for index, total in enumerate(ordered):
        if start is None:
            start = total
        if index + 1 == len(ordered) or ordered[index + 1] != total + 1:
            stretches.append(str(start) if start == total else f"{start} to {total}")
            start = None
    return stretches


def check_final_score(length: int, score: tuple[int, int], *, cube_cap: int | None = None) -> int:
    """The winner (0 or 1) of a finished `length`-point match known only by its final score.

    Raises ScoringError, with the field of the score at fault, unless the score is one the
    rules can reach (see the module's docstring); its message says what is possible.
    """
    score_a, score_b = score
    for field, value in (("score_a", score_a), ("score_b", score_b)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ScoringError(gettext_noop("A score is a whole number of points, 0 or more."), field=field)
    if max(score) < length:
        raise ScoringError(
            gettext_noop("Nobody reached %(length)s points: a %(length)s-point match is not over at %(a)s–%(b)s."),
            field="score_a", length=length, a=score_a, b=score_b,
        )
    if min(score) >= length:
        raise ScoringError(
            gettext_noop("Both players cannot reach %(length)s: the match ends when the first one does."),
            field="score_a", length=length,
        )
    winner = 0 if score_a > score_b else 1
    total, loser = score[winner], score[1 - winner]
    if is_possible_final(length, total, loser, cube_cap=cube_cap):
        return winner
    totals = winning_totals(length, loser, cube_cap=cube_cap)
    stretches = _stretches(totals)
    shown = ", ".join(stretches[:RANGES_SHOWN]) + (", …" if len(stretches) > RANGES_SHOWN else "")
    crawford = total in winning_totals(length, loser, cube_cap=cube_cap, crawford=False)
    messages = {  # (capped, needs the Crawford game's cube): each a whole sentence, for each language
        (False, False): gettext_noop(
            "%(a)s–%(b)s is not a possible final score: in a %(length)s-point match where the loser has %(loser)s, "
            "the winner ends on %(shown)s (the score he stood at, below %(length)s, plus one game: the cube times 1, "
            "2 or 3)."),
        (True, False): gettext_noop(
            "%(a)s–%(b)s is not a possible final score: in a %(length)s-point match where the loser has %(loser)s, "
            "the winner ends on %(shown)s (the score he stood at, below %(length)s, plus one game: the cube times 1, "
            "2 or 3, the cube capped at %(cap)s)."),
        (False, True): gettext_noop(
            "%(a)s–%(b)s is not a possible final score: in a %(length)s-point match where the loser has %(loser)s, "
            "the winner ends on %(shown)s (the score he stood at, below %(length)s, plus one game: the cube times 1, "
            "2 or 3). %(total)s would need a turned cube in the Crawford game, where the cube cannot be turned."),
        (True, True): gettext_noop(
            "%(a)s–%(b)s is not a possible final score: in a %(length)s-point match where the loser has %(loser)s, "
            "the winner ends on %(shown)s (the score he stood at, below %(length)s, plus one game: the cube times 1, "
            "2 or 3, the cube capped at %(cap)s). %(total)s would need a turned cube in the Crawford game, where the "
            "cube cannot be turned."),
    }
    raise ScoringError(messages[cube_cap is not None, crawford], field="score_a" if winner == 0 else "score_b",
                       a=score_a, b=score_b, length=length, loser=loser, shown=shown, cap=cube_cap, total=total)


IMPROBABLE_CUBE = 8
"""A possible final score whose last game needs the cube on this value or higher is improbable
enough to be checked against the slip before it is stored (a gammon on a 4-cube is not)."""


def last_game_cube(length: int, winner: int, loser: int, *, cube_cap: int | None = None) -> int | None:
    """The lowest cube the last game of a `length`-point match needs for its winner to end on
    `winner` with the loser on `loser` (None when no game reaches it).

    >>> last_game_cube(9, 55, 3)
    16
    >>> last_game_cube(5, 7, 3)
    1
    """
    lowest = None
    for before in range(min(length, winner + 1)):
        cubes = cube_values(cube_cap) if cube_can_be_turned(length, before, loser) else (1,)
        for cube in cubes:
            if (winner - before) in (cube * int(kind) for kind in ResultKind):
                lowest = cube if lowest is None else min(lowest, cube)
                break
    return lowest


def improbable_final_cube(length: int, score: tuple[int, int], *, cube_cap: int | None = None) -> int | None:
    """The cube the last game of a possible final score needs when it is `IMPROBABLE_CUBE` or more
    (55–3 in a 9-point match: a backgammon on 16), which a slip more often holds by a slip of the
    pen; None when the score is not improbable."""
    cube = last_game_cube(length, max(score), min(score), cube_cap=cube_cap)
    return cube if cube is not None and cube >= IMPROBABLE_CUBE else None


def is_improbable_final(length: int, score: tuple[int, int], *, cube_cap: int | None = None) -> bool:
    """Whether a possible final score is improbable (`improbable_final_cube`)."""
    return improbable_final_cube(length, score, cube_cap=cube_cap) is not None
