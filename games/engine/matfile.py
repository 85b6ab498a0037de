"""Match files (`.mat`): read, verify and write them.

* `read_match_file(text) -> MatchFile` reads the text only (`matfile_text`);
* `verify_match_file(text or MatchFile) -> MatchFileReport` replays every play from the opening
  position, derives each game's result and the Crawford game from the moves and scores, and
  reports every fault with its game, move number and line (`matfile_check`);
* `write_match_file(MatchTranscript) -> str` writes a match in GNU Backgammon's layout
  (`matfile_write`).

Side 0 is the left column of a file (GNU Backgammon's player X), side 1 the right column.
"""

from games.engine.matfile_check import (
    CubeEvent,
    ErrorKind,
    GameReport,
    GameResult,
    MatchFileError,
    MatchFileNote,
    MatchFileReport,
    Turn,
    verify_match_file,
)
from games.engine.matfile_text import (
    LEFT,
    RIGHT,
    CubeAction,
    CubeWord,
    MatchFile,
    MatchFileGame,
    Resignation,
    Roll,
    WinLine,
    read_match_file,
)
from games.engine.matfile_write import (
    GameTranscript,
    MatchTranscript,
    TranscriptCube,
    TranscriptRoll,
    write_match_file,
)

__all__ = [
    "LEFT",
    "RIGHT",
    "CubeAction",
    "CubeEvent",
    "CubeWord",
    "ErrorKind",
    "GameReport",
    "GameResult",
    "GameTranscript",
    "MatchFile",
    "MatchFileError",
    "MatchFileGame",
    "MatchFileNote",
    "MatchFileReport",
    "MatchTranscript",
    "Resignation",
    "Roll",
    "TranscriptCube",
    "TranscriptRoll",
    "Turn",
    "WinLine",
    "read_match_file",
    "verify_match_file",
    "write_match_file",
]
