"""Writing a `.mat` match file in the layout GNU Backgammon exports and reads.

The input is plain data (`MatchTranscript`, `GameTranscript`, `TranscriptRoll`, `TranscriptCube`)
that the Django layer fills from stored games. A game stored without its moves (only the winner
and the points) is written with its score line and result line alone, which GNU Backgammon reads
as a game resigned for those points.

Plays given as steps are written one move per die with 25 for the bar and 0 for off
(`25/22 13/7`), exactly as GNU Backgammon writes them; plays given as text are written as given.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from games.engine.matfile_text import CubeAction, CubeWord, MatchFile, Roll

_ROW_PREFIX = 5
"""Width of `NNN) `."""
_RIGHT_COLUMN = 33
"""Column where the right cell of a row starts, as in GNU Backgammon's export."""
_RESULT_INDENT = (6, 34)
"""Indent of a `Wins` line for the left and the right player."""


@dataclasses.dataclass(frozen=True, slots=True)
class TranscriptRoll:
    """A roll and its play. `play` is a tuple of steps ((from, to) per die, 25 = bar, 0 = off)
    or a play's text; empty when the roll could not be played. `unplayed` marks dice thrown by a
    player who then resigned without playing them."""

    side: int
    dice: tuple[int, int]
    play: tuple[tuple[int, int], ...] | str = ()
    unplayed: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class TranscriptCube:
    """A cube action; `value` is the new cube value for a double (2, 4, 8...)."""

    side: int
    word: CubeWord
    value: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class GameTranscript:
    """One game to write: its actions in order (may be empty) and its result.

    `winner` is None for an unfinished game (no result line). `score_before` may be left out:
    it is then the previous game's score plus its points.
    """

    winner: int | None
    points: int
    actions: tuple[TranscriptRoll | TranscriptCube, ...] = ()
    score_before: tuple[int, int] | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class MatchTranscript:
    """A match to write: both names (left, right), the length (0 for money), the games."""

    players: tuple[str, str]
    match_length: int
    games: tuple[GameTranscript, ...]
    tags: tuple[tuple[str, str], ...] = ()
    start_score: tuple[int, int] = (0, 0)

    @classmethod
    def from_match_file(cls, match_file: MatchFile, report=None) -> MatchTranscript:
        """The transcript of a match file as read; with its verification report, plays are
        taken as the replayed steps (so that they are written in GNU Backgammon's spelling) and
        results as derived from the moves."""
        games = []
        for index, game in enumerate(match_file.games):
            game_report = report.games[index] if report is not None else None
            turns = iter(game_report.turns) if game_report is not None else None
            actions: list[TranscriptRoll | TranscriptCube] = []
            for action in game.actions:
                if isinstance(action, Roll):
                    play: tuple[tuple[int, int], ...] | str = action.play
                    unplayed = action.unplayed
                    if turns is not None and game_report.verified:
                        turn = next(turns, None)
                        if turn is None or turn.line != action.line:
                            unplayed = True
                            play = ()
                        else:
                            play = turn.steps
                    actions.append(TranscriptRoll(action.side, action.dice, play, unplayed))
                elif isinstance(action, CubeAction):
                    actions.append(TranscriptCube(action.side, action.word, action.value))
            if game_report is not None and game_report.winner is not None:
                winner, points = game_report.winner, game_report.points
            elif game.win is not None:
                winner, points = game.win.side, game.win.points
            else:
                winner, points = None, 0
            games.append(GameTranscript(winner, points, tuple(actions), game.score))
        start = match_file.games[0].score if match_file.games else (0, 0)
        return cls(match_file.players, match_file.match_length, tuple(games), match_file.tags, start)


def _steps_text(steps: Iterable[tuple[int, int]]) -> str:
    return " ".join(f"{source}/{target}" for source, target in steps)


def _cell(action: TranscriptRoll | TranscriptCube) -> str:
    if isinstance(action, TranscriptRoll):
        dice = f"{action.dice[0]}{action.dice[1]}:"
        if action.unplayed:
            return f"{dice} "
        play = action.play if isinstance(action.play, str) else _steps_text(action.play)
        play = " ".join(play.split())
        return f"{dice} {play}" if play else f"{dice} "
    if action.word is CubeWord.DOUBLE:
        return f" Doubles => {action.value}" if action.value else " Doubles"
    if action.word in (CubeWord.BEAVER, CubeWord.RACCOON):
        return f" {action.word.value} => {action.value}" if action.value else f" {action.word.value}"
    return f" {action.word.value}"


def _rows(actions: tuple[TranscriptRoll | TranscriptCube, ...]) -> list[list[str]]:
    """Lays the actions out in rows of (left, right) cells, the left column first in each row."""
    rows: list[list[str]] = []
    for action in actions:
        side = action.side
        if not rows or side == 0 or rows[-1][1]:
            rows.append(["", ""])
        rows[-1][side] = _cell(action)
    return rows


def _score_line(players: tuple[str, str], score: tuple[int, int]) -> str:
    left = f" {players[0]} : {score[0]}".ljust(_RIGHT_COLUMN - 2)
    return f"{left} {players[1]} : {score[1]}"


def _win_line(side: int, points: int, and_the_match: bool) -> str:
    word = "point" if points == 1 else "points"
    suffix = " and the match" if and_the_match else ""
    return " " * _RESULT_INDENT[side] + f"Wins {points} {word}{suffix}"


def write_match_file(transcript: MatchTranscript, *, and_the_match: bool = False) -> str:
    """The `.mat` text of a match, in GNU Backgammon's export layout, LF line ends.

    Score lines are the given `score_before` of each game, or the running score. With
    `and_the_match`, the game that takes a player to the match length says so (as eXtreme
    Gammon writes it; GNU Backgammon reads both).
    """
    out: list[str] = []
    for key, value in transcript.tags:
        out.append(f'; [{key} "{value}"]')
    if transcript.tags:
        out.append("")
    out.append(f" {transcript.match_length} point match")
    out.append("")
    score = list(transcript.start_score)
    length = transcript.match_length
    for number, game in enumerate(transcript.games, start=1):
        if game.score_before is not None:
            score = list(game.score_before)
        out.append(f" Game {number}")
        out.append(_score_line(transcript.players, (score[0], score[1])))
        rows = _rows(game.actions)
        result = ""
        if game.winner is not None:
            score[game.winner] += game.points
            ends_match = bool(length) and and_the_match and score[game.winner] >= length
            result = _win_line(game.winner, game.points, ends_match)
            if game.winner == 1 and rows and not rows[-1][1]:
                # GNU Backgammon reads the left player's last action (a drop, a roll before
                # resigning) with the right player's win on the same row, as FIBS writes it.
                rows[-1][1] = result.strip()
                result = ""
        for row_number, (left, right) in enumerate(rows, start=1):
            prefix = f"{row_number:3d}) "
            if not right:
                out.append(prefix + left)
                continue
            out.append(prefix + left.ljust(_RIGHT_COLUMN - _ROW_PREFIX - 1) + " " + right)
        if result:
            out.append(result)
        out.append("")
    return "\n".join(out) + "\n"
