"""Verifying a match file: replay every play, derive every result, check every score.

`verify_match_file` replays each game from the opening position, with the dice and plays of the
file, and checks the cube actions; it derives each game's result from the moves (the position
when the last checker is borne off, the refused double, or the points of a resignation), records
the outcomes in a `MatchScore` (which knows the Crawford rule and the end of the match), and
compares the score line of every game with the score so far. Nothing stops at the first error:
a game whose replay breaks off is reported as such and credited with the result its `Wins` line
declares, and the next game is checked as usual. A score line that disagrees with the results
before it is reported, and the score derived from the moves stays the reference, so one wrong
line gives one error.

The rules come from the file where it states them: a nackgammon match (`; [Variation
"NackGammon"]`) starts from the nackgammon position; eXtreme Gammon's `; [Crawford "Off"]` means
no Crawford game, and in money play `; [Jacoby "On"/"Off"]` and `; [Beaver "Off"]` are followed.
A money session without a Jacoby tag is judged by its own score lines (see
`_jacoby_from_results`).

Sides: 0 is the left column of the file (GNU Backgammon's player X), 1 the right column.

One module of about a thousand lines, on purpose: the replay (`_GameReplay`), the results it
derives, the score it keeps and the errors and notes it writes are one pass over one file and share
its state line by line; split, each part would import the others' private steps back.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

from games.engine.errors import (
    IllegalPlayError,
    InvalidNotationError,
    Marked,
    ScoringError,
    gettext_noop,
    marked_read,
    ngettext,
)
from games.engine.notation import parse_play
from games.engine.matfile_text import (
    CubeAction,
    CubeWord,
    MatchFile,
    MatchFileGame,
    Resignation,
    Roll,
    read_match_file,
)
from games.engine.position import Position
from games.engine.scoring import (
    CrawfordState,
    GameEnd,
    GameOutcome,
    MatchRules,
    MatchScore,
    ResultKind,
    SessionRules,
)


class GameResult(enum.StrEnum):
    """How a game of a match file ended, as the report names it."""

    SINGLE = "single"
    """Played out; the loser had borne off at least one checker."""
    GAMMON = "gammon"
    """Played out; the loser had borne off none."""
    BACKGAMMON = "backgammon"
    """Played out; gammoned with a checker on the bar or in the winner's home board."""
    DROP = "drop"
    """A double was refused: the doubler wins the cube value before the double."""
    RESIGN = "resign"
    """The loser resigned (the file only says `Wins K points` before the end)."""
    UNFINISHED = "unfinished"
    """The file stops before the game ended."""
    UNVERIFIED = "unverified"
    """An error stopped the replay: winner and points are only the file's word."""


class ErrorKind(enum.StrEnum):
    """What kind of fault a match-file error is."""

    ILLEGAL_PLAY = "illegal_play"
    """A checker play the dice and position do not allow."""
    NOTATION = "notation"
    """A play that could not be read."""
    TURN = "turn"
    """A player acted out of turn (rolled twice, answered his own double...)."""
    CUBE = "cube"
    """A cube action the rules do not allow (wrong value, not the owner, beaver in a match...)."""
    CRAWFORD = "crawford"
    """A cube action in the Crawford game."""
    RESULT = "result"
    """The declared `Wins K points` disagrees with the game as played."""
    SCORE = "score"
    """The score line of a game disagrees with the results before it."""
    AFTER_END = "after_end"
    """A game recorded after the match was over."""
    PLAYERS = "players"
    """A game names other players than the first one."""
    UNVERIFIABLE = "unverifiable"
    """The rest of a game could not be checked after an earlier error in it."""


@dataclasses.dataclass(frozen=True, slots=True)
class MatchFileError:
    """One fault of a match file, located by game, move (row) number and line of the file.

    `template` is a marked message (`gettext_noop`, or `ngettext` for one whose words follow a
    number) and `params` the (name, value) pairs of its placeholders (a player's name with his side
    is a `Marked`, read with it); `message` and `str()` read it in the reader's language."""

    kind: ErrorKind
    template: str | tuple[str, str, int]
    game: int | None = None
    move: int | None = None
    line: int | None = None
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def message(self) -> str:
        return marked_read(self.template, dict(self.params))

    def __str__(self) -> str:
        return _placed(self.message, self.game, self.move, self.line)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "game": self.game,
            "move": self.move,
            "line": self.line,
            "message": self.message,
            "text": str(self),
        }


def _placed(message: str, game: int | None, move: int | None, line: int | None) -> str:
    """`message` after where in the file it is ("game 2, move 5 (line 31): ..."), in the reader's
    language."""
    place = {
        (True, True, True): gettext_noop("game %(game)s, move %(move)s (line %(line)s): %(message)s"),
        (True, True, False): gettext_noop("game %(game)s, move %(move)s: %(message)s"),
        (True, False, True): gettext_noop("game %(game)s (line %(line)s): %(message)s"),
        (True, False, False): gettext_noop("game %(game)s: %(message)s"),
        (False, True, True): gettext_noop("move %(move)s (line %(line)s): %(message)s"),
        (False, True, False): gettext_noop("move %(move)s: %(message)s"),
        (False, False, True): gettext_noop("line %(line)s: %(message)s"),
    }.get((game is not None, move is not None, line is not None))
    if place is None:
        return message
    return marked_read(place, {"game": game, "move": move, "line": line, "message": message})


@dataclasses.dataclass(frozen=True, slots=True)
class MatchFileNote:
    """Something a match file says that Crawford reads differently, without failing the file.

    Today one case: a `Wins K points` line smaller than the game's value, cut to the points the
    winner still needed. No writer does it (every real file of every dialect writes the full
    value, and GNU Backgammon reads the full value from the moves), so the game counts its full
    value and the note says so.

    Like `MatchFileError`, a marked message (`template`) and its values (`params`), read in the
    reader's language (`message`, `str()`).
    """

    template: str | tuple[str, str, int]
    game: int | None = None
    line: int | None = None
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def message(self) -> str:
        return marked_read(self.template, dict(self.params))

    def __str__(self) -> str:
        return _placed(self.message, self.game, None, self.line)

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "line": self.line, "message": self.message, "text": str(self)}


@dataclasses.dataclass(frozen=True, slots=True)
class Turn:
    """One checker play of a game, replayed.

    `position_id_before` has the mover on roll; `position_id_after` has the opponent on roll,
    as GNU Backgammon shows the position after the play. `notation` is GNU Backgammon's
    spelling of the play ("" when the roll could not be played), `written` the file's.
    """

    side: int
    dice: tuple[int, int]
    notation: str
    position_id_before: str
    position_id_after: str
    move: int
    line: int
    written: str = ""
    steps: tuple[tuple[int, int], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "dice": list(self.dice),
            "notation": self.notation,
            "steps": [list(step) for step in self.steps],
            "position_id_before": self.position_id_before,
            "position_id_after": self.position_id_after,
            "move": self.move,
            "line": self.line,
        }


@dataclasses.dataclass(frozen=True, slots=True)
class CubeEvent:
    """One cube action of a game: `action` is double, take, drop, beaver or raccoon."""

    side: int
    action: str
    move: int
    line: int
    value: int | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"side": self.side, "action": self.action, "move": self.move}
        if self.value is not None:
            data["to"] = self.value
        return data


@dataclasses.dataclass(frozen=True, slots=True)
class GameReport:
    """One game of a match file, as replayed.

    `winner` (None when unfinished), `points`, `cube` (the value when the game ended; for a
    drop the value before the refused double), `result` and `kind` (the multiplier, None for an
    unfinished game) are derived from the moves; `declared_points` is what the file says.
    `verified` is False when an error in this game stopped its replay.
    """

    number: int
    names: tuple[str, str]
    score_before: tuple[int, int]
    winner: int | None
    points: int
    cube: int
    result: GameResult
    kind: ResultKind | None
    crawford: bool
    cube_owner: int | None = None
    first_side: int | None = None
    cube_actions: tuple[CubeEvent, ...] = ()
    turns: tuple[Turn, ...] = ()
    declared_points: int | None = None
    and_the_match: bool = False
    unplayed_dice: tuple[int, int] | None = None
    verified: bool = True
    line: int = 0

    def to_dict(self, *, turns: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "number": self.number,
            "score_before": list(self.score_before),
            "winner": self.winner,
            "winner_name": None if self.winner is None else self.names[self.winner],
            "points": self.points,
            "cube": self.cube,
            "result": self.result.value,
            "kind": None if self.kind is None else self.kind.name.lower(),
            "crawford": self.crawford,
            "cube_actions": [event.to_dict() for event in self.cube_actions],
            "plays": len(self.turns),
            "verified": self.verified,
        }
        if turns:
            data["turns"] = [turn.to_dict() for turn in self.turns]
        return data


@dataclasses.dataclass(frozen=True, slots=True)
class MatchFileReport:
    """What verifying a match file found: every game, the final score, and every error."""

    players: tuple[str, str]
    match_length: int
    games: tuple[GameReport, ...]
    start_score: tuple[int, int]
    final_score: tuple[int, int]
    errors: tuple[MatchFileError, ...]
    tags: tuple[tuple[str, str], ...] = ()
    notes: tuple[MatchFileNote, ...] = ()
    """What the file says that was read differently, without failing it (see `MatchFileNote`)."""

    @property
    def ok(self) -> bool:
        """True when every play is legal and every result and score agrees with the rules."""
        return not self.errors

    @property
    def crawford_game(self) -> int | None:
        """The number of the game played as the Crawford game, if any."""
        for game in self.games:
            if game.crawford:
                return game.number
        return None

    @property
    def finished(self) -> bool:
        """The final score reaches the match length (never for a money session)."""
        return bool(self.match_length) and max(self.final_score) >= self.match_length

    @property
    def winner(self) -> int | None:
        """The side that won the match, None when it is not over (or a money session)."""
        if not self.finished:
            return None
        return 0 if self.final_score[0] >= self.match_length else 1

    def to_dict(self, *, turns: bool = False) -> dict[str, Any]:
        """Plain data for JSON: players, match length, each game's result, the final score."""
        return {
            "players": list(self.players),
            "match_length": self.match_length,
            "ok": self.ok,
            "start_score": list(self.start_score),
            "final_score": list(self.final_score),
            "finished": self.finished,
            "winner": self.winner,
            "crawford_game": self.crawford_game,
            "games": [game.to_dict(turns=turns) for game in self.games],
            "errors": [error.to_dict() for error in self.errors],
            "notes": [note.to_dict() for note in self.notes],
        }


_NACKGAMMON_SIDE = (0, 0, 0, 0, 0, 4, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 0)
_OPENINGS = {
    "backgammon": Position.initial(),
    "nackgammon": Position(on_roll=_NACKGAMMON_SIDE, opponent=_NACKGAMMON_SIDE),
}
"""The opening position of each variation a match file may name (`; [Variation "NackGammon"]`)."""

_KIND_RESULT = {
    ResultKind.SINGLE: GameResult.SINGLE,
    ResultKind.GAMMON: GameResult.GAMMON,
    ResultKind.BACKGAMMON: GameResult.BACKGAMMON,
}
_PLAYED_OUT = {
    ResultKind.SINGLE: gettext_noop("a single with the cube on %(cube)s"),
    ResultKind.GAMMON: gettext_noop("a gammon with the cube on %(cube)s"),
    ResultKind.BACKGAMMON: gettext_noop("a backgammon with the cube on %(cube)s"),
}
"""A game played out, as a result line's note or error names it."""
_RESIGNED = {
    ResultKind.SINGLE: gettext_noop("a resigned single with the cube on %(cube)s"),
    ResultKind.GAMMON: gettext_noop("a resigned gammon with the cube on %(cube)s"),
    ResultKind.BACKGAMMON: gettext_noop("a resigned backgammon with the cube on %(cube)s"),
}
"""A resignation of a game, as a result line's note names it."""
_SIDE = (gettext_noop("%(player)s (left)"), gettext_noop("%(player)s (right)"))
"""A player named with his column of the file ("Anne (left)")."""


def _score_at(rules, players, score: tuple[int, int], crawford: str) -> MatchScore:
    """A `MatchScore` that starts at `score` instead of 0-0.

    Needed for files that continue an interrupted match and to go on checking after a game
    that could not be recorded. `crawford` is "pending" (the next game is the Crawford game),
    "played" (it was played before), or "none".
    """
    state = {"pending": CrawfordState.NEXT, "played": CrawfordState.PLAYED}.get(crawford, CrawfordState.NOT_YET)
    return MatchScore.resume(rules, score=score, crawford=state, players=players)


def _advance(rules, players, match_score: MatchScore, winner: int, points: int, length: int, crawford_played: bool):
    """The score after a game that `MatchScore` could not record, credited as the file says."""
    after = list(match_score.score)
    after[winner] += points
    score = (after[0], after[1])
    return _score_at(rules, players, score, _crawford_state(length, score, crawford_played) if length else "none")


def _crawford_state(length: int, score: tuple[int, int], played: bool) -> str:
    if played:
        return "played"
    away = length - 1
    if length >= 2 and min(score) == away:
        return "played"  # both reached N−1: the first to get there had the Crawford game
    if length >= 2 and max(score) == away:
        return "pending"
    return "none"


class _GameReplay:
    """Replays one game's actions and collects what it finds."""

    def __init__(
        self, game: MatchFileGame, crawford: bool, match_play: bool, errors: list, start: Position | None = None
    ):
        self.game = game
        self.crawford = crawford
        self.match_play = match_play
        self.errors = errors
        self.notes: list[MatchFileNote] = []
        self.position = start or Position.initial()
        self.position_id: str | None = None
        self.on_roll: int | None = None
        self.cube = 1
        self.owner: int | None = None
        self.offer: tuple[int, int] | None = None
        self.beavered = False
        self.raccooned = False
        self.turns: list[Turn] = []
        self.cube_events: list[CubeEvent] = []
        self.ended: GameEnd | None = None
        self.winner: int | None = None
        self.kind: ResultKind | None = None
        self.unplayed: tuple[int, int] | None = None
        self.previous = None
        self.verified = True
        self.beavers = True
        """Whether beavers (and raccoons) are allowed: money play, unless a `Beaver` tag says Off."""
        self.needed: tuple[int, int] | None = None
        """The points each side still needed to win the match before this game (None in money)."""
        self.jacoby = False
        """In a money session that may use the Jacoby rule: a gammon with a centred cube may be
        declared as a single."""

    def error(self, kind: ErrorKind, message: str | tuple[str, str, int], action=None, **params) -> None:
        """Record a fault: `message` marked (`gettext_noop`, `ngettext`), `params` its placeholders' values."""
        move = getattr(action, "row", None)
        line = getattr(action, "line", None) or self.game.line
        self.errors.append(MatchFileError(kind, message, self.game.number, move, line, tuple(params.items())))

    def stop(self, action) -> None:
        """Give up on the rest of the game after an error that leaves the position unknown."""
        self.verified = False
        rest = self.game.actions.index(action) + 1
        if rest < len(self.game.actions):
            count = len(self.game.actions) - rest
            self.error(
                ErrorKind.UNVERIFIABLE,
                ngettext("the remaining %(count)s action of this game was not checked",
                         "the remaining %(count)s actions of this game were not checked", count),
                self.game.actions[rest], count=count,
            )

    def name(self, side: int) -> Marked:
        """The player of `side` with his column, read in the reader's language ("Anne (left)")."""
        return Marked.of(_SIDE[side], player=self.game.names[side])

    def run(self) -> None:
        actions = self.game.actions
        for index, action in enumerate(actions):
            last = index == len(actions) - 1
            if self.ended is not None or self.unplayed is not None:
                self.error(ErrorKind.TURN, gettext_noop("the game was already over, yet the file goes on"), action)
                self.stop(action)
                return
            self.previous = actions[index - 1] if index else None
            if isinstance(action, Roll):
                ok = self.roll(action, last)
            elif isinstance(action, CubeAction):
                ok = self.cube_action(action)
            else:
                ok = self.resign(action)
            if not ok:
                self.stop(action)
                return

    def roll(self, roll: Roll, last: bool) -> bool:
        if self.offer is not None:
            doubler, _ = self.offer
            self.error(
                ErrorKind.TURN,
                gettext_noop("%(player)s must take or drop the double before the next roll"),
                roll, player=self.name(1 - doubler),
            )
            return False
        if self.on_roll is None:
            self.on_roll = roll.side
        elif roll.side != self.on_roll:
            self.error(ErrorKind.TURN, gettext_noop("it is %(player)s's turn to roll"), roll, player=self.name(self.on_roll))
            return False
        if roll.unplayed:
            self.unplayed = roll.dice
            return True
        before = self.position
        before_id = self.position_id or before.position_id()
        try:
            play = parse_play(roll.play, before, roll.dice)
        except InvalidNotationError as exc:
            self.error(ErrorKind.NOTATION, "%(error)s", roll, error=exc)
            return False
        except IllegalPlayError as exc:
            if not roll.play and last and self.game.win is not None and self.game.win.side != roll.side:
                # FIBS writes the roll of a player who then resigned with no play after it.
                self.unplayed = roll.dice
                return True
            self.error(ErrorKind.ILLEGAL_PLAY, gettext_noop("%(player)s rolled %(roll)s: %(error)s"), roll,
                       player=self.name(roll.side), roll=f"{roll.dice[0]}{roll.dice[1]}", error=exc)
            return False
        after = play.position.swap()
        after_id = after.position_id()
        self.turns.append(
            Turn(
                side=roll.side,
                dice=roll.dice,
                notation=play.notation,
                position_id_before=before_id,
                position_id_after=after_id,
                move=roll.row,
                line=roll.line,
                written=roll.play,
                steps=play.steps,
            )
        )
        outcome = play.position.outcome()
        if outcome is not None:
            self.ended = GameEnd.PLAYED_OUT
            self.winner = roll.side
            self.kind = outcome[1]
        self.position = after
        self.position_id = after_id
        self.on_roll = 1 - roll.side
        return True

    def cube_action(self, action: CubeAction) -> bool:
        word = action.word
        if word is CubeWord.BEAVER and self.offer is None and self.redoubling(action):
            word = CubeWord.RACCOON  # GNU Backgammon's spelling of a raccoon
        self.cube_events.append(
            CubeEvent(action.side, word.name.lower(), action.row, action.line, action.value)
        )
        if word is CubeWord.DOUBLE:
            return self.double(action)
        if word is CubeWord.RACCOON:
            return self.raccoon(action)
        if self.offer is None:
            self.error(ErrorKind.TURN, gettext_noop("%(player)s answers a double nobody offered"), action,
                       player=self.name(action.side))
            return False
        doubler, value = self.offer
        responder = 1 - doubler
        if action.side != responder:
            self.error(
                ErrorKind.TURN,
                gettext_noop("%(doubler)s doubled: only %(responder)s can take or drop"),
                action, doubler=self.name(doubler), responder=self.name(responder),
            )
            return False
        if word is CubeWord.TAKE:
            self.cube, self.owner, self.offer = value, responder, None
            return True
        if word is CubeWord.DROP:
            self.ended = GameEnd.DOUBLE_REFUSED
            self.winner = doubler
            self.kind = ResultKind.SINGLE
            self.offer = None
            return True
        # A beaver: the taker doubles again at once and keeps the cube.
        if self.match_play:
            self.error(ErrorKind.CUBE, gettext_noop("Beavers are not used in match play"), action)
            return False
        if not self.beavers:
            self.error(ErrorKind.CUBE, gettext_noop("this session does not allow beavers"), action)
            return False
        if action.value is not None and action.value != value * 2:
            self.error(ErrorKind.CUBE, gettext_noop("a beaver doubles the cube to %(cube)s, not %(value)s"), action,
                       cube=value * 2, value=action.value)
            return False
        self.cube, self.owner, self.offer = value * 2, responder, None
        self.beavered = True
        return True

    def redoubling(self, action: CubeAction) -> bool:
        """Whether `action` answers a beaver (or a raccoon) of the other player at once."""
        previous = self.previous
        return (
            isinstance(previous, CubeAction)
            and previous.word in (CubeWord.BEAVER, CubeWord.RACCOON)
            and previous.side != action.side
        )

    def raccoon(self, action: CubeAction) -> bool:
        """The player who doubled answers a beaver by doubling again; the beaverer keeps the cube.

        GNU Backgammon writes a raccoon as `Beavers`, and lets the players go on redoubling each
        other (up to the number of beavers the session allows): each such redouble is read as one
        more raccoon, and the cube stays with the beaverer.
        """
        if self.match_play:
            self.error(ErrorKind.CUBE, gettext_noop("Raccoons are not used in match play"), action)
            return False
        if not self.redoubling(action):
            self.error(ErrorKind.CUBE, gettext_noop("a raccoon answers a beaver, by the player who doubled"), action)
            return False
        if action.value is not None and action.value != self.cube * 2:
            self.error(ErrorKind.CUBE, gettext_noop("a raccoon doubles the cube to %(cube)s, not %(value)s"), action,
                       cube=self.cube * 2, value=action.value)
            return False
        self.cube *= 2
        self.raccooned = True
        return True

    def double(self, action: CubeAction) -> bool:
        if self.offer is not None:
            self.error(ErrorKind.TURN, gettext_noop("a double is already waiting for an answer"), action)
            return False
        if self.on_roll is None:
            self.error(ErrorKind.TURN, gettext_noop("nobody can double before the opening roll"), action)
            return False
        if action.side != self.on_roll:
            self.error(
                ErrorKind.TURN,
                gettext_noop("only the player on roll, %(player)s, may double"),
                action, player=self.name(self.on_roll),
            )
            return False
        if self.crawford:
            self.error(
                ErrorKind.CRAWFORD,
                gettext_noop("game %(game)s is the Crawford game: the cube cannot be turned"),
                action, game=self.game.number,
            )
        if self.owner is not None and self.owner != action.side:
            self.error(
                ErrorKind.CUBE,
                gettext_noop("%(owner)s owns the cube: %(player)s cannot double"),
                action, owner=self.name(self.owner), player=self.name(action.side),
            )
        value = self.cube * 2
        if action.value is not None and action.value != value:
            self.error(ErrorKind.CUBE, gettext_noop("the cube is on %(cube)s: a double takes it to %(double)s, not %(value)s"),
                       action, cube=self.cube, double=value, value=action.value)
        self.offer = (action.side, value)
        return True

    def resign(self, action: Resignation) -> bool:
        if self.offer is not None:
            self.error(ErrorKind.TURN, gettext_noop("a double is waiting for an answer"), action)
            return False
        self.ended = GameEnd.RESIGNED
        self.winner = 1 - action.side
        if action.points is not None:
            self.kind = self.resigned_kind(action.points, action, self.winner)
        return True

    def capped(self, winner: int, points: int, worth: int) -> bool:
        """Whether `points` are the `worth` of a game cut down to what ended the match.

        A `Wins 1 point and the match` for a gammon at 4-2 in a 5-point match. No writer does
        this: every real file, whatever its dialect (FIBS, GNU Backgammon, eXtreme Gammon,
        Backgammon Studio), writes the full value even when it passes the match length, and GNU
        Backgammon reads the full value from the moves. The match ends the same way either way:
        the points derived from the game stand, and a note tells the file said less.
        """
        return self.needed is not None and 0 < points == self.needed[winner] < worth

    def note_cut(self, points: int, worth: int, how: Marked, where) -> None:
        """Note a `Wins` line that `capped` accepted: the game counts `worth`, not `points`."""
        winner = self.name(self.winner) if self.winner is not None else Marked.of(gettext_noop("the winner"))
        self.notes.append(
            MatchFileNote(
                ngettext('the file says "Wins %(points)s point", but %(how)s is worth %(worth)s: it counts %(worth)s, '
                         "as GNU Backgammon reads it (%(points)s is what %(winner)s needed to win the match)",
                         'the file says "Wins %(points)s points", but %(how)s is worth %(worth)s: it counts '
                         "%(worth)s, as GNU Backgammon reads it (%(points)s is what %(winner)s needed to win the "
                         "match)", points),
                self.game.number,
                getattr(where, "line", None) or self.game.line,
                (("points", points), ("how", how), ("worth", worth), ("winner", winner)),
            )
        )

    def resigned_kind(self, points: int, where, winner: int | None = None) -> ResultKind | None:
        if points % self.cube == 0 and 1 <= points // self.cube <= 3:
            return ResultKind(points // self.cube)
        if winner is not None:
            for kind in ResultKind:
                if self.capped(winner, points, self.cube * int(kind)):
                    how = Marked.of(_RESIGNED[kind], cube=self.cube)
                    self.note_cut(points, self.cube * int(kind), how, where)
                    return kind
        self.error(
            ErrorKind.RESULT,
            gettext_noop("with the cube on %(cube)s a resignation is worth %(single)s, %(gammon)s or %(backgammon)s "
                         "points, not %(points)s"),
            where, cube=self.cube, single=self.cube, gammon=2 * self.cube, backgammon=3 * self.cube, points=points,
        )
        return None


def _check_declared(replay: _GameReplay, game: MatchFileGame) -> None:
    """Compares the `Wins K points` line with the game as replayed, and derives resignations."""
    win = game.win
    if win is None:
        return
    where = win if win.line else None
    if not replay.verified:
        return
    if not game.actions:
        _result_only(replay, win)
        return
    if replay.ended is None:
        if replay.offer is not None:
            doubler, _ = replay.offer
            replay.error(
                ErrorKind.RESULT,
                gettext_noop("the game ends while %(player)s has not answered the double"),
                where, player=replay.name(1 - doubler),
            )
        replay.ended = GameEnd.RESIGNED
        replay.winner = win.side
        replay.kind = replay.resigned_kind(win.points, where, win.side)
        return
    if replay.winner != win.side:
        replay.error(
            ErrorKind.RESULT,
            gettext_noop("the file gives the game to %(given)s, but %(winner)s won it"),
            where, given=replay.name(win.side), winner=replay.name(replay.winner),
        )
        return
    if replay.ended is GameEnd.RESIGNED and replay.kind is None:
        replay.kind = replay.resigned_kind(win.points, where, win.side)
        return
    expected = replay.cube if replay.ended is GameEnd.DOUBLE_REFUSED else replay.cube * int(replay.kind or 1)
    jacoby_single = (
        replay.jacoby
        and replay.ended is not GameEnd.DOUBLE_REFUSED
        and replay.cube == 1
        and not replay.beavered
        and win.points == 1
    )
    if win.points == expected or jacoby_single:
        return
    how = Marked.of({
        GameEnd.PLAYED_OUT: _PLAYED_OUT[replay.kind or ResultKind.SINGLE],
        GameEnd.DOUBLE_REFUSED: gettext_noop("a double refused with the cube on %(cube)s"),
        GameEnd.RESIGNED: gettext_noop("the resignation with the cube on %(cube)s"),
    }[replay.ended], cube=replay.cube)
    if replay.capped(win.side, win.points, expected):
        replay.note_cut(win.points, expected, how, where)
        return
    replay.error(
        ErrorKind.RESULT,
        ngettext("%(how)s is worth %(points)s point, the file says %(said)s",
                 "%(how)s is worth %(points)s points, the file says %(said)s", expected),
        where, how=how, points=expected, said=win.points,
    )


def _result_only(replay: _GameReplay, win) -> None:
    """A game written with its result line alone (stored without its moves).

    It counts as resigned; the cube is the smallest that makes the points a single, gammon or
    backgammon (in the Crawford game the cube stays at 1).
    """
    replay.ended = GameEnd.RESIGNED
    replay.winner = win.side
    cube = 1
    while not replay.crawford and cube * 3 < win.points:
        cube *= 2
    if win.points % cube == 0 and 1 <= win.points // cube <= 3:
        replay.cube = cube
        replay.kind = ResultKind(win.points // cube)
        return
    replay.cube = cube
    replay.kind = replay.resigned_kind(win.points, win, win.side)


def _jacoby_counts(replay: _GameReplay) -> bool:
    """Whether the Jacoby rule changes this game's points: a gammon or more with a centred cube."""
    return (
        replay.verified
        and replay.winner is not None
        and replay.ended in (GameEnd.PLAYED_OUT, GameEnd.RESIGNED)
        and replay.kind is not None
        and replay.kind > ResultKind.SINGLE
        and replay.cube == 1
        and not replay.beavered
    )


def _jacoby_from_results(
    replay: _GameReplay, game: MatchFileGame, following: MatchFileGame | None, score: tuple[int, int]
) -> bool | None:
    """Whether a money session without a Jacoby tag used the rule, judged from the first game
    where it matters (a gammon or backgammon with a centred cube); None for any other game.

    The score line of the next game says how many points the gammon counted (GNU Backgammon
    writes `Wins 2 points` for the gammon but scores 1 under the Jacoby rule); for the last game
    of the file, its own `Wins` line. None when neither tells.
    """
    if not _jacoby_counts(replay):
        return None
    winner = replay.winner
    full = int(replay.kind or ResultKind.SINGLE)
    if following is not None:
        gained = following.score[winner] - score[winner]
    elif game.win is not None:
        gained = game.win.points
    else:
        return None
    if gained == 1:
        return True
    if gained == full:
        return False
    return None


def _result_of(replay: _GameReplay, game: MatchFileGame) -> GameResult:
    if not replay.verified and game.win is not None:
        return GameResult.UNVERIFIED
    if replay.ended is None or replay.winner is None:
        return GameResult.UNFINISHED
    if replay.ended is GameEnd.DOUBLE_REFUSED:
        return GameResult.DROP
    if replay.ended is GameEnd.RESIGNED:
        return GameResult.RESIGN
    return _KIND_RESULT[replay.kind or ResultKind.SINGLE]


def verify_match_file(source: str | MatchFile) -> MatchFileReport:
    """Reads (if given text) and verifies a match file; returns a report, errors included.

    Raises `InvalidNotationError` only when the text cannot be read at all; every fault of a
    readable file (an illegal play, a wrong score line, a cube turned in the Crawford game, a
    game after the end of the match...) is in the report's `errors`, and `ok` is then False.
    """
    match_file = read_match_file(source) if isinstance(source, str) else source
    length = match_file.match_length
    # XG's rule tags: `; [Crawford "Off"]` (a match played without the Crawford rule), and for money
    # `; [Jacoby "On"]`, `; [Beaver "Off"]`. Without a Jacoby tag, a money session's own results
    # tell whether it used the Jacoby rule (see `_jacoby_from_results`).
    crawford_rule = match_file.rule_tag("Crawford") is not False
    beavers = match_file.rule_tag("Beaver") is not False
    jacoby = match_file.rule_tag("Jacoby") if not length else False
    rules = (
        MatchRules(length=length)
        if length
        else SessionRules(jacoby=bool(jacoby), beavers=beavers, raccoons=beavers)
    )
    opening = _OPENINGS.get(match_file.variation, Position.initial())
    players = match_file.players
    errors: list[MatchFileError] = []
    reports: list[GameReport] = []
    notes: list[MatchFileNote] = []
    start = match_file.games[0].score if match_file.games else (0, 0)
    first_has_cube = bool(match_file.games) and any(
        isinstance(action, CubeAction) for action in match_file.games[0].actions
    )
    crawford_played = not crawford_rule
    state = _crawford_state(length, start, crawford_played)
    if state == "pending" and first_has_cube:
        state = "played"
    match_score = _score_at(rules, players, start, state) if length else _score_at(rules, players, start, "none")
    expected_number = match_file.games[0].number if match_file.games else 1
    for index, game in enumerate(match_file.games):
        if game.number != expected_number:
            errors.append(
                MatchFileError(ErrorKind.SCORE, gettext_noop("expected Game %(expected)s, found Game %(found)s"), game.number,
                               None, game.line, (("expected", expected_number), ("found", game.number)))
            )
        expected_number = game.number + 1
        if game.names != players:
            errors.append(
                MatchFileError(
                    ErrorKind.PLAYERS,
                    gettext_noop("the score line names %(left)s and %(right)s, the match is between %(a)s and %(b)s"),
                    game.number,
                    None,
                    game.line + 1,
                    (("left", game.names[0]), ("right", game.names[1]), ("a", players[0]), ("b", players[1])),
                )
            )
        if match_score.score != game.score:
            a, b = match_score.score
            errors.append(
                MatchFileError(
                    ErrorKind.SCORE,
                    gettext_noop("the score line says %(left)s-%(right)s, the results before it make %(a)s-%(b)s"),
                    game.number,
                    None,
                    game.line + 1,
                    (("left", game.score[0]), ("right", game.score[1]), ("a", a), ("b", b)),
                )
            )
        crawford = bool(length) and match_score.next_game_is_crawford and not match_score.finished
        replay = _GameReplay(game, crawford, bool(length), errors, opening)
        if length:
            replay.needed = (length - match_score.score[0], length - match_score.score[1])
        replay.beavers = beavers
        replay.run()
        following = match_file.games[index + 1] if index + 1 < len(match_file.games) else None
        if not length and jacoby is None:  # a played-out gammon tells before its `Wins` line is checked
            jacoby = _jacoby_from_results(replay, game, following, match_score.score)
        replay.jacoby = not length and jacoby is not False
        _check_declared(replay, game)
        if not length and jacoby is None:  # a resigned gammon, after
            jacoby = _jacoby_from_results(replay, game, following, match_score.score)
        if not length and jacoby is not None and rules.jacoby != jacoby:
            rules = dataclasses.replace(rules, jacoby=jacoby)
            match_score = _score_at(rules, players, match_score.score, "none")
        result = _result_of(replay, game)
        notes += replay.notes
        if result is GameResult.UNFINISHED and index < len(match_file.games) - 1:
            errors.append(
                MatchFileError(
                    ErrorKind.RESULT, gettext_noop("the game has no result, yet another game follows"), game.number, None,
                    game.line
                )
            )
        winner = replay.winner
        points = 0
        if result is GameResult.UNVERIFIED:
            # Trust the file's result line so that the next games are checked from a sound score.
            winner, points = game.win.side, game.win.points
            crawford_played = crawford_played or crawford or match_score.crawford_played
            match_score = _advance(rules, players, match_score, winner, points, length, crawford_played)
        elif result is not GameResult.UNFINISHED:
            outcome = GameOutcome(
                winner=winner,
                end=replay.ended,
                kind=replay.kind or ResultKind.SINGLE,
                cube=replay.cube,
                cube_owner=replay.owner,
                beavered=replay.beavered,
                raccooned=replay.raccooned,
            )
            try:
                record = match_score.record(outcome)
                points = record.points
                crawford = record.crawford
            except ScoringError as exc:
                points = match_score.points_for(outcome)
                if not (crawford and replay.cube_events):
                    kind = ErrorKind.AFTER_END if match_score.finished else ErrorKind.SCORE
                    errors.append(MatchFileError(kind, "%(error)s", game.number, None, game.line, (("error", exc),)))
                crawford_played = crawford_played or crawford or match_score.crawford_played
                match_score = _advance(rules, players, match_score, winner, points, length, crawford_played)
        reports.append(
            GameReport(
                number=game.number,
                names=game.names,
                score_before=game.score,
                winner=winner,
                points=points,
                cube=replay.cube,
                result=result,
                kind=replay.kind if result not in (GameResult.UNFINISHED, GameResult.UNVERIFIED) else None,
                crawford=crawford,
                cube_owner=replay.owner,
                first_side=game.first_side,
                cube_actions=tuple(replay.cube_events),
                turns=tuple(replay.turns),
                declared_points=game.win.points if game.win else None,
                and_the_match=bool(game.win and game.win.and_the_match),
                unplayed_dice=replay.unplayed,
                verified=replay.verified,
                line=game.line,
            )
        )
    return MatchFileReport(
        players=players,
        match_length=length,
        games=tuple(reports),
        start_score=start,
        final_score=match_score.score,
        errors=tuple(errors),
        tags=match_file.tags,
        notes=tuple(notes),
    )
