"""Reading the checker play of one match-file cell against the position it was played in.

Writers disagree on how to spell a play: GNU Backgammon and FIBS-era files write one move per die
(`24/21 21/20`, `25/22`, `6/0`), eXtreme Gammon and BGBlitz combine the moves of one checker
(`24/20` for 11), count repeats (`6/4(2)`), spell the bar and off (`Bar/22`, `6/Off`) and mark
hits (`20/11*`, `24/18*/14`), and some writers mark no hit at all. The play is therefore read as
a list of checker movements, applied to the position, and compared with the legal plays by the
position they leave: never by the text.
"""

from __future__ import annotations

import re

from games.engine.errors import IllegalPlayError, InvalidNotationError
from games.engine.plays import Play, apply_steps, legal_plays
from games.engine.position import Position

_MOVE = re.compile(r"^(?P<path>[^()]+?)(?:\((?P<count>\d)\))?$")
_POINT = re.compile(r"^(?P<point>bar|off|\d{1,2})(?P<hit>\*?)$", re.IGNORECASE)


def _point(text: str, move: str) -> int:
    match = _POINT.match(text)
    if not match:
        raise InvalidNotationError(f"cannot read the point {text!r} in {move!r}")
    name = match.group("point").lower()
    if name == "bar":
        return 25
    if name == "off":
        return 0
    point = int(name)
    if point > 25:
        raise InvalidNotationError(f"there is no point {point} ({move!r})")
    return point


def movements(text: str) -> list[tuple[int, int]]:
    """The checker movements a play's text describes, as (from, to) pairs, 25 = bar, 0 = off.

    `24/18*/14` gives (24, 18) and (18, 14); `6/4(2)` gives (6, 4) twice; a movement may cover
    several dice. Raises `InvalidNotationError` for text that is not a play.
    """
    result: list[tuple[int, int]] = []
    for move in text.split():
        source, _, target = move.partition("/")
        if source.isdigit() and target.isdigit():
            # The common case, one move per die: "13/8".
            result.append((int(source), int(target)))
            continue
        match = _MOVE.match(move)
        if not match:
            raise InvalidNotationError(f"cannot read the move {move!r}")
        points = [_point(part, move) for part in match.group("path").split("/")]
        if len(points) < 2:
            raise InvalidNotationError(f"a move goes from one point to another, not {move!r}")
        count = int(match.group("count") or 1)
        for _ in range(count):
            result.extend(zip(points, points[1:]))
    for source, target in result:
        if target >= source:
            raise InvalidNotationError(f"checkers move down towards home: {source}/{target} cannot be")
    return result


def resolve_play(position: Position, dice: tuple[int, int], text: str) -> Play:
    """The legal play that `text` describes, for the player on roll in `position`.

    The movements are applied highest point first (a checker passing through a point is moved
    before the one that starts there), a landing on a lone opposing checker hits it, and the
    result is compared with every legal play's resulting position. A writer that leaves out an
    intermediate hit of a combined move is still understood when only one legal play moves the
    player's own checkers that way. Raises `InvalidNotationError` for unreadable text and
    `IllegalPlayError` (with the legal plays) for a play the dice and position do not allow.
    """
    plays = legal_plays(position, dice)
    steps = sorted(movements(text), key=lambda step: -step[0])
    target = apply_steps(position, steps) if steps else position
    if target is not None:
        for play in plays:
            if play.position == target:
                return play
        same_checkers = [play for play in plays if play.position.on_roll == target.on_roll]
        if len(same_checkers) == 1:
            return same_checkers[0]
    high, low = max(dice), min(dice)
    legal = tuple(play.notation or "no move" for play in plays)
    shown = ", ".join(legal[:8]) + (f" and {len(legal) - 8} more" if len(legal) > 8 else "")
    raise IllegalPlayError(
        f"{text or 'no move'} is not a legal play of {high}{low} here; legal: {shown}",
        legal=legal,
    )
