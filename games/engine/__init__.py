"""The rules of backgammon in plain Python: no Django, no database.

    >>> from games.engine import Position, legal_plays
    >>> opening = Position.from_position_id("4HPwATDgc/ABMA")
    >>> "8/5 6/5" in [play.notation for play in legal_plays(opening, (3, 1))]
    True
"""

from .errors import EngineError, IllegalPlayError, InvalidNotationError, ScoringError
from .match_id import MatchId
from .notation import parse_play
from .plays import Play, legal_plays
from .position import Position, game_result
from .scoring import (
    GameEnd,
    GameOutcome,
    GameRecord,
    MatchKind,
    MatchRules,
    MatchScore,
    ResultKind,
    SessionRules,
)

__all__ = [
    "EngineError",
    "GameEnd",
    "GameOutcome",
    "GameRecord",
    "IllegalPlayError",
    "InvalidNotationError",
    "MatchId",
    "MatchKind",
    "MatchRules",
    "MatchScore",
    "Play",
    "Position",
    "ResultKind",
    "ScoringError",
    "SessionRules",
    "game_result",
    "legal_plays",
    "parse_play",
]
