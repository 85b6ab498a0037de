"""A backgammon position: where both players' checkers stand, seen by the player on roll.

Each side is a tuple of 25 counts in that player's own numbering: index 0..23 hold his points
1..24 (counted from his own home board, so index 0 is his ace point and index 23 his 24-point,
the opponent's ace point), index 24 holds his checkers on the bar. Checkers borne off are not
stored: they are 15 minus the checkers still on the board.

The player on roll's point ``p`` is the opponent's point ``25 - p``.

GNU Backgammon's Position ID is read and written exactly as the program does: the checkers of
the player *not* on roll come first in the bit string, those of the player on roll second.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

from games.engine.errors import InvalidNotationError, gettext_noop
from games.engine.scoring import ResultKind

CHECKERS = 15
"""Checkers each player owns."""
POINTS = 24
"""Points on the board."""
BAR = 24
"""Index of the bar in a side's tuple of counts."""

_EMPTY_SIDE = (0,) * 25
_OPENING_SIDE = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


def _encode_sides(first: tuple[int, ...], second: tuple[int, ...]) -> str:
    """Pack two sides into a 14-character Position ID, ``first`` in the leading bits."""
    bits = 0
    length = 0
    for side in (first, second):
        for count in side:
            # ``count`` ones, then a zero: ones at the low end, since bits are read LSB first.
            bits |= ((1 << count) - 1) << length
            length += count + 1
    return base64.b64encode(bits.to_bytes(10, "little")).decode("ascii")[:14]


def _decode_sides(position_id: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Unpack a Position ID into its (first, second) sides; raise on anything malformed."""
    if not isinstance(position_id, str):
        raise InvalidNotationError(gettext_noop("A Position ID is text, not %(type)s."), type=type(position_id).__name__)
    text = position_id.strip()
    if text.lower().startswith("position id:"):
        text = text[len("position id:"):].strip()
    if len(text) != 14:
        raise InvalidNotationError(
            gettext_noop("A Position ID has 14 characters; %(text)s has %(count)s."), text=repr(position_id), count=len(text)
        )
    try:
        raw = base64.b64decode(text + "==", validate=True)
    except (binascii.Error, ValueError):
        raise InvalidNotationError(gettext_noop("%(text)s is not a Position ID (bad characters)."), text=repr(position_id))
    # Bit 0 first: runs of ones separated by zeros, one run per point and bar, 50 in all.
    bits = format(int.from_bytes(raw, "little"), "080b")[::-1]
    runs = bits.split("0")
    if len(runs) < 51 or "1" in "".join(runs[50:]):
        raise InvalidNotationError(gettext_noop("%(text)s is not a Position ID (wrong bit pattern)."), text=repr(position_id))
    counts = tuple(map(len, runs[:50]))
    return counts[:25], counts[25:]


@dataclass(frozen=True, slots=True)
class Position:
    """Both sides' checkers, seen from the player on roll.

    ``on_roll`` and ``opponent`` are 25 counts each in that player's own numbering (index
    ``p - 1`` for point ``p``, index 24 for the bar). A position is checked when built: at most
    fifteen checkers a side, no negative counts, no point held by both players.
    """

    on_roll: tuple[int, ...]
    opponent: tuple[int, ...]

    def __post_init__(self) -> None:
        for name in ("on_roll", "opponent"):
            side = getattr(self, name)
            if not isinstance(side, tuple):
                object.__setattr__(self, name, tuple(side))
                side = getattr(self, name)
            if len(side) != 25:
                raise InvalidNotationError(gettext_noop("%(side)s needs 25 counts (24 points and the bar)."), side=name)
            if any(not isinstance(n, int) or n < 0 for n in side):
                raise InvalidNotationError(gettext_noop("%(side)s has a negative or non-integer count."), side=name)
            if sum(side) > CHECKERS:
                raise InvalidNotationError(gettext_noop("%(side)s has more than %(most)s checkers."), side=name, most=CHECKERS)
        mine, theirs = self.on_roll, self.opponent
        for index in range(POINTS):
            if mine[index] and theirs[23 - index]:
                raise InvalidNotationError(gettext_noop("Both players have checkers on point %(point)s."), point=index + 1)

    @classmethod
    def _trusted(cls, on_roll: tuple[int, ...], opponent: tuple[int, ...]) -> Position:
        """Build without checks, for positions the engine itself derived from a valid one."""
        position = object.__new__(cls)
        object.__setattr__(position, "on_roll", on_roll)
        object.__setattr__(position, "opponent", opponent)
        return position

    # --- construction -----------------------------------------------------------------------

    @classmethod
    def initial(cls) -> Position:
        """The opening position (either player on roll: it is symmetric)."""
        return cls._trusted(_OPENING_SIDE, _OPENING_SIDE)

    @classmethod
    def from_position_id(cls, position_id: str) -> Position:
        """Read GNU Backgammon's Position ID (the player not on roll's checkers come first)."""
        not_on_roll, on_roll = _decode_sides(position_id)
        return cls(on_roll=on_roll, opponent=not_on_roll)

    # --- output -----------------------------------------------------------------------------

    def position_id(self) -> str:
        """GNU Backgammon's 14-character Position ID, as the program writes it."""
        return _encode_sides(self.opponent, self.on_roll)

    def __repr__(self) -> str:
        return f"Position.from_position_id({self.position_id()!r})"

    def __str__(self) -> str:
        return self.position_id()

    # --- views ------------------------------------------------------------------------------

    def swap(self) -> Position:
        """The same board with the other player on roll."""
        return Position._trusted(self.opponent, self.on_roll)

    flipped = swap

    def side(self, side: int) -> tuple[int, ...]:
        """The counts of one side: 0 the player on roll, 1 the opponent."""
        if side == 0:
            return self.on_roll
        if side == 1:
            return self.opponent
        raise ValueError("side is 0 (the player on roll) or 1 (the opponent)")

    def borne_off(self, side: int = 0) -> int:
        """Checkers borne off by a side: 0 the player on roll, 1 the opponent."""
        return CHECKERS - sum(self.side(side))

    def on_bar(self, side: int = 0) -> int:
        """Checkers on the bar of a side: 0 the player on roll, 1 the opponent."""
        return self.side(side)[BAR]

    def pip_count(self, side: int = 0) -> int:
        """Pips a side needs to bear everything off (a checker on the bar counts 25)."""
        return sum(count * (index + 1) for index, count in enumerate(self.side(side)))

    @property
    def pip_counts(self) -> tuple[int, int]:
        """(player on roll, opponent) pip counts."""
        return self.pip_count(0), self.pip_count(1)

    def outcome(self) -> tuple[int, ResultKind] | None:
        """``(winner, kind)`` if the game is over, else None.

        ``winner`` is 0 when the player on roll has borne off all fifteen, 1 when the opponent
        has. Positions produced by a play are still seen from the side that moved (see
        ``games.engine.plays``), so there a finished game has winner 0: the mover.
        """
        if not any(self.on_roll):
            return 0, _kind_of_loss(self.opponent)
        if not any(self.opponent):
            return 1, _kind_of_loss(self.on_roll)
        return None


def _kind_of_loss(loser: tuple[int, ...]) -> ResultKind:
    """How badly a side with these checkers lost, once the other side bore off its last one.

    Gammon: the loser has borne off none. Backgammon: a gammon with a loser's checker on the
    bar or in the winner's home board (the loser's points 19..24, indexes 18..24).
    """
    if sum(loser) < CHECKERS:
        return ResultKind.SINGLE
    if any(loser[18:]):
        return ResultKind.BACKGAMMON
    return ResultKind.GAMMON


def game_result(position: Position) -> ResultKind | None:
    """What the finished game is worth to its winner, or None if nobody has borne off all 15.

    The winner is whichever side has no checker left (see ``Position.outcome`` for which one);
    the kind depends on the loser's checkers only.
    """
    outcome = position.outcome()
    return None if outcome is None else outcome[1]
