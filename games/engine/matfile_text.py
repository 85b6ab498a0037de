"""Reading the text of a `.mat` match file, without judging it.

The `.mat` format (Jellyfish, GNU Backgammon, eXtreme Gammon, BGBlitz, FIBS-era clients) records a
match game by game: optional `; [Key "Value"]` tags, an ` N point match` line, then for each game a
` Game N` line, a score line with both names and the score before the game, numbered rows with a
left cell and a right cell, and a `Wins K points` line. The left column is side 0 (GNU Backgammon's
player X), the right column side 1 (player O).

This module turns the text into plain data (`MatchFile`) and raises `InvalidNotationError`, with
the line number, when the text cannot be read. Whether the plays are legal and the scores right is
`matfile_check`'s business.
"""

from __future__ import annotations

import collections
import dataclasses
import enum
import re

from games.engine.errors import InvalidNotationError, gettext_noop

LEFT = 0
"""The left column of a match file: GNU Backgammon's player X."""
RIGHT = 1
"""The right column of a match file: GNU Backgammon's player O."""


class CubeWord(enum.Enum):
    """What a player does with the cube, as a match file spells it."""

    DOUBLE = "Doubles"
    """Offers the cube at twice its value (`Doubles => 2`)."""
    TAKE = "Takes"
    """Accepts the cube and owns it."""
    DROP = "Drops"
    """Refuses the cube: the doubler wins the value before the double."""
    BEAVER = "Beavers"
    """Takes and at once redoubles, keeping the cube (money play only)."""
    RACCOON = "Raccoons"
    """Answers a beaver with a further redouble, keeping the cube (money play only)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Roll:
    """One cell with dice: the roll and the checker play written after it.

    `play` is the text of the play as written (`"13/8 24/23"`, `"bar/24 6/off(2)"`), empty when
    the roll could not be played. `unplayed` marks `????`: the dice were thrown but the game ended
    before the play (the player then resigned).
    """

    side: int
    dice: tuple[int, int]
    play: str
    row: int
    line: int
    unplayed: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class CubeAction:
    """One cell with a cube action; `value` is the new cube value for a double, beaver, raccoon."""

    side: int
    word: CubeWord
    row: int
    line: int
    value: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Resignation:
    """An explicit `Resigns` cell; `points` is the value offered when the file gives it."""

    side: int
    row: int
    line: int
    points: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class WinLine:
    """`Wins K point(s)[ and the match]`, written in the winner's column."""

    side: int
    points: int
    line: int
    and_the_match: bool = False
    row: int | None = None


Action = Roll | CubeAction | Resignation


@dataclasses.dataclass(frozen=True, slots=True)
class MatchFileGame:
    """One `Game N` block as written: names and score before the game, actions, result line."""

    number: int
    line: int
    names: tuple[str, str]
    ratings: tuple[str | None, str | None]
    score: tuple[int, int]
    actions: tuple[Action, ...]
    win: WinLine | None

    @property
    def first_side(self) -> int | None:
        """The side that rolled first (whose cell is filled in row 1), None for an empty game."""
        for action in self.actions:
            return action.side
        return None


@dataclasses.dataclass(frozen=True, slots=True)
class MatchFile:
    """A whole match file as written: header tags, match length (0 = money session), games."""

    match_length: int
    games: tuple[MatchFileGame, ...]
    tags: tuple[tuple[str, str], ...] = ()

    @property
    def players(self) -> tuple[str, str]:
        """The names in the first game's score line, left then right, ratings split off."""
        if not self.games:
            return ("", "")
        return self.games[0].names

    def tag(self, key: str) -> str | None:
        """The value of a header tag, or None (the key is compared without regard to case)."""
        for name, value in self.tags:
            if name.lower() == key.lower():
                return value
        return None

    @property
    def variation(self) -> str:
        """`"backgammon"` or `"nackgammon"` (from a `; [Variation "NackGammon"]` tag)."""
        return _variation(self.tag("Variation") or "")

    def rule_tag(self, key: str) -> bool | None:
        """An `On`/`Off` rule tag (`Crawford`, `Jacoby`, `Beaver`) as True/False; None if absent."""
        value = (self.tag(key) or "").strip().lower()
        if value in ("on", "yes", "true", "1"):
            return True
        if value in ("off", "no", "false", "0"):
            return False
        return None


_VARIATIONS = {"": "backgammon", "backgammon": "backgammon", "standard": "backgammon", "nackgammon": "nackgammon"}


def _variation(value: str) -> str:
    return _VARIATIONS.get("".join(value.lower().split()), value)


_TAG = re.compile(r'^;\s*\[\s*(?P<key>[^"\]]+?)\s+"(?P<value>.*)"\s*\]\s*$')
_LENGTH = re.compile(r"^\s*(?P<length>\d+)\s+points?\s+match\s*\.?\s*$", re.IGNORECASE)
_MONEY = re.compile(r"^\s*(money\s+(session|game)|unlimited\s+game)\s*$", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(?P<number>\d+)\s*(?:\([^()]*\)\s*)?$", re.IGNORECASE)
"""`Game 5`, also `Game 5 (Crawford)`: a remark after the number is ignored (the verifier derives
the Crawford game from the scores)."""
_SCORE = re.compile(
    r"^(?P<lpad>\s*)(?P<left>\S.*?)\s*:\s*(?P<lscore>\d+)"
    r"(?P<gap>\s*)(?P<right>\S.*?)\s*:\s*(?P<rscore>\d+)\s*$"
)
_RIGHT_NAME_COLUMN = 32
"""Where GNU Backgammon starts the right name of a score line, unless the left half is longer."""
_ROW = re.compile(r"^\s*(?P<row>\d+)\)")
_CELL_START = re.compile(
    r"(?<![^\s)])(?:[1-6][1-6]:|Doubles?\b|Takes?\b|Accepts?\b|Drops?\b|Pass(?:es)?\b|Rejects?\b"
    r"|Refuses?\b|Beavers?\b|Raccoons?\b|Wins?\b|Resigns?\b)",
    re.IGNORECASE,
)
_ROLL = re.compile(r"^(?P<d1>[1-6])(?P<d2>[1-6]):\s*(?P<play>.*)$")
_CUBE = re.compile(
    r"^(?P<word>Doubles?|Beavers?|Raccoons?)(?:\s*=>\s*(?P<value>\d+))?$", re.IGNORECASE
)
_WIN = re.compile(
    r"^Wins?\s+(?P<points>\d+)\s+points?(?P<match>\s+and\s+the\s+match)?\s*\.?$", re.IGNORECASE
)
_RESIGN = re.compile(r"^Resigns?(?:\s+(?P<points>\d+)(?:\s+points?)?)?.*$", re.IGNORECASE)
_RATING = re.compile(r"^(?P<name>.+?)\s*,\s*(?P<rating>-?\d+(?:\.\d+)?)$")
_NO_PLAY = {"", "cannot move", "can't move", "no move", "(no move)"}
_UNPLAYED = {"???", "????"}
_WORDS = {
    "takes": CubeWord.TAKE,
    "accepts": CubeWord.TAKE,
    "drops": CubeWord.DROP,
    "passes": CubeWord.DROP,
    "rejects": CubeWord.DROP,
    "refuses": CubeWord.DROP,
    "doubles": CubeWord.DOUBLE,
    "beavers": CubeWord.BEAVER,
    "raccoons": CubeWord.RACCOON,
}
_WORDS.update({word.removesuffix("es" if word == "passes" else "s"): action for word, action in _WORDS.items()})
"""The singular spellings too: `Take`, `Drop`, `Pass`, `Double => 2`..."""


def _fail(line: int, message: str, **params) -> InvalidNotationError:
    """The refusal of line `line` (a marked message that starts with "line %(line)s: ")."""
    return InvalidNotationError(message, line=line, **params)


def _split_rating(text: str) -> tuple[str, str | None]:
    """`BlueNote,1798` -> ("BlueNote", "1798"); a name without a rating is kept whole."""
    match = _RATING.match(text)
    if match:
        return match.group("name"), match.group("rating")
    return text, None


def _parse_cell(text: str, side: int, row: int, line: int) -> Action | WinLine:
    """Reads one cell (already stripped)."""
    roll = _ROLL.match(text)
    if roll:
        dice = (int(roll.group("d1")), int(roll.group("d2")))
        play = " ".join(roll.group("play").split())
        if play in _UNPLAYED:
            return Roll(side, dice, "", row, line, unplayed=True)
        if play.lower() in _NO_PLAY:
            play = ""
        return Roll(side, dice, play, row, line)
    cube = _CUBE.match(text)
    if cube:
        value = int(cube.group("value")) if cube.group("value") else None
        return CubeAction(side, _WORDS[cube.group("word").lower()], row, line, value)
    word = text.lower()
    if word in _WORDS:
        return CubeAction(side, _WORDS[word], row, line)
    win = _WIN.match(text)
    if win:
        return WinLine(side, int(win.group("points")), line, bool(win.group("match")), row)
    resign = _RESIGN.match(text)
    if resign:
        points = int(resign.group("points")) if resign.group("points") else None
        return Resignation(side, row, line, points)
    raise _fail(line, gettext_noop("line %(line)s: cannot read the cell %(cell)s"), cell=repr(text))


def _cells(text: str, start: int, split: int, line: int) -> list[tuple[int, str]]:
    """The cells of a row or result line as (side, text).

    `start` is the column where the left cell may begin (after `NN)`), `split` the column of the
    right name in the score line. Two cells are told apart by their opening words (`DD:`,
    `Doubles`, `Takes`, `Wins`...); a lone cell belongs to the side whose column it is nearer.
    """
    starts = [m.start() for m in _CELL_START.finditer(text, start)]
    if not starts:
        if text[start:].strip():
            raise _fail(line, gettext_noop("line %(line)s: cannot read %(text)s"), text=repr(text[start:].strip()))
        return []
    if len(starts) > 2:
        raise _fail(line, gettext_noop("line %(line)s: more than two cells in one row"))
    if starts[0] > start and text[start : starts[0]].strip():
        raise _fail(line, gettext_noop("line %(line)s: cannot read %(text)s"), text=repr(text[start:starts[0]].strip()))
    if len(starts) == 2:
        return [(LEFT, text[starts[0] : starts[1]].strip()), (RIGHT, text[starts[1] :].strip())]
    side = LEFT if starts[0] - start < (split - start) / 2 else RIGHT
    return [(side, text[starts[0] :].strip())]


def _split_run_on_score(digits: str, right: str, at: int, known: str | None) -> tuple[str, str, int]:
    """Splits `12Fast` (a left score run on into a right name) into score, name and name column."""
    splits = []
    for cut in range(len(digits), 0, -1):
        score, name = digits[:cut], digits[cut:] + right
        if score == "0" or not score.startswith("0"):
            splits.append((score, name, at + cut))
    for split in splits:
        if known is not None and _split_rating(split[1])[0] == known:
            return split
    for split in splits:
        if split[2] == _RIGHT_NAME_COLUMN:
            return split
    return splits[0] if splits else (digits, right, at + len(digits))


def _right_column(lines: list[str]) -> int | None:
    """The column where this file's rows start their right cell, seen in rows with two cells.

    A lone cell (the first row when the right player starts, a cube action, a `Wins` line) goes
    to the column it is nearer; the rows themselves say where the right column is more reliably
    than the score line, whose right name moves with the length of the left one.
    """
    columns: collections.Counter[int] = collections.Counter()
    for raw in lines:
        line = raw.expandtabs()
        row = _ROW.match(line)
        if row:
            starts = [m.start() for m in _CELL_START.finditer(line, row.end())]
            if len(starts) == 2:
                columns[starts[1]] += 1
    return columns.most_common(1)[0][0] if columns else None


class _GameBuilder:
    """Collects the rows of one game while the file is read."""

    def __init__(self, number: int, line: int, right_column: int | None = None):
        self.number = number
        self.line = line
        self.right_column = right_column
        self.names: tuple[str, str] | None = None
        self.ratings: tuple[str | None, str | None] = (None, None)
        self.score = (0, 0)
        self.split = 33
        self.actions: list[Action] = []
        self.win: WinLine | None = None
        self.last_row = 0

    def read_score_line(self, text: str, line: int, right_name: str | None = None) -> None:
        """Reads `Left : 3     Right : 5`.

        GNU Backgammon pads the left half to a fixed width but leaves no space at all after a long
        left name (`Bartholomew_Fitzgerald_Mont : 0Bob : 0`). The score then runs into the right
        name; when that name starts with a digit, the split is the one that repeats the right
        name of the game before (`right_name`), else the one without a leading zero in the score,
        at GNU Backgammon's column if possible.
        """
        match = _SCORE.match(text)
        if not match:
            raise _fail(line, gettext_noop("line %(line)s: expected the players' names and scores after Game %(game)s"),
                        game=self.number)
        left, left_rating = _split_rating(match.group("left"))
        digits, right_text, right_at = match.group("lscore"), match.group("right"), match.start("right")
        if not match.group("gap") and len(digits) > 1:
            digits, right_text, right_at = _split_run_on_score(
                digits, right_text, match.start("lscore"), right_name
            )
        right, right_rating = _split_rating(right_text)
        self.names = (left, right)
        self.ratings = (left_rating, right_rating)
        self.score = (int(digits), int(match.group("rscore")))
        self.split = right_at

    def read_cells(self, text: str, start: int, row: int | None, line: int) -> None:
        for side, cell in _cells(text, start, self.right_column or self.split, line):
            if self.win is not None:
                raise _fail(line, gettext_noop("line %(line)s: game %(game)s goes on after its result line"), game=self.number)
            parsed = _parse_cell(cell, side, row if row is not None else self.last_row, line)
            if isinstance(parsed, WinLine):
                self.win = parsed if row is not None else dataclasses.replace(parsed, row=None)
            else:
                if row is None:
                    raise _fail(line, gettext_noop("line %(line)s: %(cell)s outside a numbered row"), cell=repr(cell))
                self.actions.append(parsed)

    def build(self) -> MatchFileGame:
        if self.names is None:
            raise _fail(self.line, gettext_noop("line %(line)s: Game %(game)s has no score line"), game=self.number)
        return MatchFileGame(
            number=self.number,
            line=self.line,
            names=self.names,
            ratings=self.ratings,
            score=self.score,
            actions=tuple(self.actions),
            win=self.win,
        )


def read_match_file(text: str) -> MatchFile:
    """Reads a `.mat` file's text into a `MatchFile`, without checking the plays or scores.

    Accepts a UTF-8 byte order mark, CRLF or CR line ends, a DOS end-of-file mark, tabs, trailing
    spaces, header tags and comments, names with spaces or a `,rating`, a long left name run into
    the right one, every column layout of the known writers, singular cube words (`Take`,
    `Drop`), and files that continue an interrupted match (first score not 0-0). Raises
    `InvalidNotationError` naming the line when the text is not a match file, names a variation
    other than backgammon or nackgammon, or holds a second match.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.splitlines()
    right_column = _right_column(lines)
    tags: list[tuple[str, str]] = []
    length: int | None = None
    games: list[MatchFileGame] = []
    game: _GameBuilder | None = None
    for number, raw in enumerate(lines, start=1):
        line = raw.replace("\x1a", "").expandtabs().rstrip()  # a DOS end-of-file mark; tabs
        if not line.strip():
            continue
        if length is None:
            tag = _TAG.match(line)
            if tag:
                key, value = tag.group("key").strip(), tag.group("value")
                if key.lower() == "variation" and _variation(value) not in ("backgammon", "nackgammon"):
                    raise _fail(
                        number, gettext_noop("line %(line)s: the variation %(variation)s is not supported: only "
                                             "backgammon and nackgammon are"), variation=repr(value)
                    )
                tags.append((key, value))
                continue
            if line.lstrip().startswith(";"):
                continue
            match = _LENGTH.match(line)
            if match:
                length = int(match.group("length"))
                continue
            if _MONEY.match(line):
                length = 0
                continue
            if line.lstrip().startswith("(;"):
                raise _fail(number, gettext_noop("line %(line)s: this is an SGF file (GNU Backgammon's own format), not a .mat "
                                                 "match file"))
            raise _fail(number, gettext_noop("line %(line)s: expected header tags or 'N point match', found %(text)s"),
                        text=repr(line.strip()))
        if line.lstrip().startswith(";"):
            continue  # a comment, or the tags of a second match (refused at its length line)
        if _LENGTH.match(line) or _MONEY.match(line):
            raise _fail(number, gettext_noop("line %(line)s: a second match starts here: a match file holds one match"))
        heading = _GAME.match(line)
        if heading:
            if game is not None:
                games.append(game.build())
            game = _GameBuilder(int(heading.group("number")), number, right_column)
            continue
        if game is None:
            raise _fail(number, gettext_noop("line %(line)s: expected 'Game 1', found %(text)s"), text=repr(line.strip()))
        if game.names is None:
            game.read_score_line(line, number, games[-1].names[1] if games else None)
            continue
        row = _ROW.match(line)
        if row:
            row_number = int(row.group("row"))
            if row_number != game.last_row + 1:
                raise _fail(number, gettext_noop("line %(line)s: row %(row)s follows row %(previous)s"), row=row_number,
                            previous=game.last_row)
            game.last_row = row_number
            game.read_cells(line, row.end(), row_number, number)
        else:
            game.read_cells(line, 0, None, number)
    if length is None:
        raise _fail(len(lines) or 1, gettext_noop("line %(line)s: no 'N point match' line"))
    if game is not None:
        games.append(game.build())
    return MatchFile(match_length=length, games=tuple(games), tags=tuple(tags))
