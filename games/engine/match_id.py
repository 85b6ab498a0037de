"""GNU Backgammon's Match ID: the state of a match or money session in 12 characters.

The ID is 72 bits, written as 9 bytes in base64 with the least significant bit first. Fields,
from bit 0 up: cube (log2, 4 bits), cube owner (2 bits: 0 or 1 for a player, 3 centred), player
on roll (1), Crawford game (1), game state (3), player to act (1), doubled (1), resignation
(2), the two dice (3 bits each, 0 when not rolled), match length (15, 0 for money play), the two
scores (15 each) and, at bit 66, a flag set when the Jacoby rule is *off*.
"""

from __future__ import annotations

import base64
import binascii
import enum
from dataclasses import dataclass

from games.engine.errors import InvalidNotationError, gettext_noop

CENTRED = -1
"""``cube_owner`` of a cube in the middle."""

_FIELDS = (
    # (name, first bit, width)
    ("cube_log", 0, 4),
    ("cube_owner", 4, 2),
    ("on_roll", 6, 1),
    ("crawford", 7, 1),
    ("game_state", 8, 3),
    ("turn", 11, 1),
    ("doubled", 12, 1),
    ("resigned", 13, 2),
    ("die_1", 15, 3),
    ("die_2", 18, 3),
    ("match_length", 21, 15),
    ("score_0", 36, 15),
    ("score_1", 51, 15),
    ("no_jacoby", 66, 1),
)
_BITS = 72
_MAX_POINTS = (1 << 15) - 1


class GameState(enum.IntEnum):
    """Where the current game stands."""

    NONE = 0
    """No game started yet."""
    PLAYING = 1
    """A game is being played."""
    OVER = 2
    """The game ended with the last checker borne off."""
    RESIGNED = 3
    """The game ended by a resignation."""
    DROPPED = 4
    """The game ended by a double refused."""


@dataclass(frozen=True, slots=True)
class MatchId:
    """The fields of GNU Backgammon's Match ID.

    Players are 0 and 1 as GNU Backgammon numbers them. ``cube_owner`` is -1 for a centred
    cube. ``turn`` is the player who must act now (the player on roll, or the one answering a
    double or a resignation). ``resigned`` is 0 (none), 1 single, 2 gammon, 3 backgammon.
    ``dice`` is (0, 0) before the roll. ``match_length`` is 0 for money play. ``jacoby`` only
    matters in money play.
    """

    cube: int = 1
    cube_owner: int = CENTRED
    on_roll: int = 0
    crawford: bool = False
    game_state: int = GameState.PLAYING
    turn: int = 0
    doubled: bool = False
    resigned: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        cube = self.cube
        if not isinstance(cube, int) or cube < 1 or cube & (cube - 1) or cube > 1 << 15:
            raise InvalidNotationError(gettext_noop("The cube shows a power of two up to 32768, not %(cube)s."), cube=repr(cube))
        if self.cube_owner not in (CENTRED, 0, 1):
            raise InvalidNotationError(gettext_noop("The cube owner is -1 (centred), 0 or 1."))
        for name in ("on_roll", "turn"):
            if getattr(self, name) not in (0, 1):
                raise InvalidNotationError(gettext_noop("%(field)s is player 0 or 1."), field=name)
        if self.game_state not in range(5):
            raise InvalidNotationError(gettext_noop("The game state is 0 to 4."))
        if self.resigned not in range(4):
            raise InvalidNotationError(gettext_noop("A resignation is 0 (none), 1, 2 or 3 points a cube."))
        dice = tuple(self.dice)
        if len(dice) != 2 or not all(isinstance(d, int) and 0 <= d <= 6 for d in dice) or (
            (dice[0] == 0) != (dice[1] == 0)
        ):
            raise InvalidNotationError(gettext_noop("Dice are two numbers from 1 to 6, or (0, 0): %(dice)s."), dice=repr(dice))
        score = tuple(self.score)
        if len(score) != 2 or not all(isinstance(s, int) and 0 <= s <= _MAX_POINTS for s in score):
            raise InvalidNotationError(gettext_noop("A score is two counts of points, not %(score)s."), score=repr(score))
        if not isinstance(self.match_length, int) or not 0 <= self.match_length <= _MAX_POINTS:
            raise InvalidNotationError(gettext_noop("A match length is 0 (money) to %(most)s points."), most=_MAX_POINTS)
        object.__setattr__(self, "dice", dice)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "crawford", bool(self.crawford))
        object.__setattr__(self, "doubled", bool(self.doubled))
        object.__setattr__(self, "jacoby", bool(self.jacoby))
        object.__setattr__(self, "game_state", GameState(self.game_state))

    @property
    def is_money_play(self) -> bool:
        """True for a money session (match length 0)."""
        return self.match_length == 0

    @classmethod
    def decode(cls, match_id: str) -> MatchId:
        """Read a 12-character Match ID; raise ``InvalidNotationError`` if it is not one."""
        if not isinstance(match_id, str):
            raise InvalidNotationError(gettext_noop("A Match ID is text, not %(type)s."), type=type(match_id).__name__)
        text = match_id.strip()
        if text.lower().startswith("match id:"):
            text = text[len("match id:"):].strip()
        if len(text) != 12:
            raise InvalidNotationError(
                gettext_noop("A Match ID has 12 characters; %(text)s has %(count)s."), text=repr(match_id), count=len(text)
            )
        try:
            raw = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raise InvalidNotationError(
                gettext_noop("%(text)s is not a Match ID (bad characters)."), text=repr(match_id)
            ) from None
        bits = int.from_bytes(raw, "little")
        values = {name: bits >> first & ((1 << width) - 1) for name, first, width in _FIELDS}
        owner = values["cube_owner"]
        if owner == 2:
            raise InvalidNotationError(gettext_noop("%(text)s is not a Match ID (cube owner 2)."), text=repr(match_id))
        die_1, die_2 = values["die_1"], values["die_2"]
        if die_1 > 6 or die_2 > 6:
            raise InvalidNotationError(gettext_noop("%(text)s is not a Match ID (a die above 6)."), text=repr(match_id))
        if values["game_state"] > 4:
            raise InvalidNotationError(gettext_noop("%(text)s is not a Match ID (game state above 4)."), text=repr(match_id))
        return cls(
            cube=1 << values["cube_log"],
            cube_owner=CENTRED if owner == 3 else owner,
            on_roll=values["on_roll"],
            crawford=bool(values["crawford"]),
            game_state=values["game_state"],
            turn=values["turn"],
            doubled=bool(values["doubled"]),
            resigned=values["resigned"],
            dice=(die_1, die_2),
            match_length=values["match_length"],
            score=(values["score_0"], values["score_1"]),
            jacoby=not values["no_jacoby"],
        )

    def encode(self) -> str:
        """GNU Backgammon's 12-character Match ID for these fields."""
        values = {
            "cube_log": self.cube.bit_length() - 1,
            "cube_owner": 3 if self.cube_owner == CENTRED else self.cube_owner,
            "on_roll": self.on_roll,
            "crawford": int(self.crawford),
            "game_state": int(self.game_state),
            "turn": self.turn,
            "doubled": int(self.doubled),
            "resigned": self.resigned,
            "die_1": self.dice[0],
            "die_2": self.dice[1],
            "match_length": self.match_length,
            "score_0": self.score[0],
            "score_1": self.score[1],
            "no_jacoby": int(not self.jacoby),
        }
        bits = 0
        for name, first, _width in _FIELDS:
            bits |= values[name] << first
        return base64.b64encode(bits.to_bytes(_BITS // 8, "little")).decode("ascii")

    def __str__(self) -> str:
        return self.encode()


MatchState = MatchId
"""Another name for ``MatchId``: the match state the ID carries."""
