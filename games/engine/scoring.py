"""Scoring of backgammon matches and money sessions: the rules of match play, in plain Python."""

import enum


class ResultKind(enum.IntEnum):
    """How much a game is worth before the cube: its multiplier."""

    SINGLE = 1
    """The loser had borne off at least one checker (or the game ended by a double refused)."""
    GAMMON = 2
    """The loser had borne off no checker."""
    BACKGAMMON = 3
    """Gammoned, with a checker still on the bar or in the winner's home board."""
