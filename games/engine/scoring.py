"""Scoring of backgammon matches and money sessions: the rules of match play, in plain Python.

A `MatchScore` records game outcomes one by one and refuses any outcome that the rules do not
allow, with a message a player understands. It is the single place where these rules live: the
Django services, the match-file reader and the tournament code all go through it.

Sides are numbered 0 and 1 (the first and second player of the match).
"""

from __future__ import annotations

import dataclasses
import enum

from .errors import ScoringError, gettext_noop, ngettext


class ResultKind(enum.IntEnum):
    """How much a game is worth before the cube: its multiplier."""

    SINGLE = 1
    """The loser had borne off at least one checker (or the game ended by a double refused)."""
    GAMMON = 2
    """The loser had borne off no checker."""
    BACKGAMMON = 3
    """Gammoned, with a checker still on the bar or in the winner's home board."""

    @property
    def label(self) -> str:
        """The kind's name as score sheets and the API spell it: "single", "gammon", "backgammon"."""
        return self.name.lower()

    @classmethod
    def from_label(cls, label: str) -> ResultKind:
        """The kind named `label` ("single", "gammon" or "backgammon"); ValueError otherwise."""
        for kind in cls:
            if kind.label == label:
                return kind
        raise ValueError(f"{label!r} is not a result kind")


class GameEnd(enum.StrEnum):
    """How a game came to an end."""

    PLAYED_OUT = "played_out"
    """The winner bore off all fifteen checkers."""
    RESIGNED = "resigned"
    """The loser resigned a single, a gammon or a backgammon."""
    DOUBLE_REFUSED = "double_refused"
    """The loser refused a double and paid the cube value before it."""


class CrawfordState(enum.StrEnum):
    """Where a match stands with respect to its Crawford game."""

    NOT_YET = "not_yet"
    """Nobody has reached N−1 yet."""
    NEXT = "next"
    """The next game is the Crawford game."""
    PLAYED = "played"
    """The Crawford game has been played."""


class MatchKind(enum.StrEnum):
    """What two players are playing."""

    MATCH = "match"
    """A match to N points, played under the Crawford rule."""
    SESSION = "session"
    """A money session: unlimited games for points."""


HIGHEST_CUBE = 2**15
"""The highest cube a game can record (and a cap can name): 32768, the most GNU Backgammon's
Match ID can hold."""


def is_power_of_two(value: int) -> bool:
    return value >= 1 and value & (value - 1) == 0


def cube_turned(outcome: "GameOutcome") -> bool:
    """Whether a player doubled in this game (automatic doubles do not turn the cube)."""
    return outcome.beavered or outcome.cube > 2 ** outcome.automatic_doubles


@dataclasses.dataclass(frozen=True, slots=True)
class MatchRules:
    """A match to `length` points. Crawford is always on; the cube may be capped by the event."""

    length: int
    cube_cap: int | None = None

    kind = MatchKind.MATCH
    jacoby = False
    beavers = False
    raccoons = False
    automatic_doubles = False
    automatic_double_cap = 0

    def __post_init__(self) -> None:
        if not isinstance(self.length, int) or isinstance(self.length, bool) or self.length < 1:
            raise ScoringError(gettext_noop("A match is played to at least 1 point."), field="length")
        if self.length > 99:
            raise ScoringError(gettext_noop("A match is played to at most 99 points."), field="length")
        _check_cap(self.cube_cap)


@dataclasses.dataclass(frozen=True, slots=True)
class SessionRules:
    """A money session and the options its players agreed on."""

    jacoby: bool = False
    """Gammons and backgammons count only if the cube was turned."""
    beavers: bool = False
    """The taker may redouble at once and keep the cube."""
    raccoons: bool = False
    """After a beaver, the doubler may redouble again; the beaverer keeps the cube."""
    automatic_doubles: bool = False
    """A tied opening roll doubles the centred cube."""
    automatic_double_cap: int = 0
    """How many automatic doubles a game may have at most: 0 allows none."""
    cube_cap: int | None = None

    kind = MatchKind.SESSION
    length = 0

    def __post_init__(self) -> None:
        _check_cap(self.cube_cap)
        if self.raccoons and not self.beavers:
            raise ScoringError(gettext_noop("Raccoons need beavers: a raccoon answers a beaver."), field="raccoons")
        if self.automatic_double_cap < 0:
            raise ScoringError(gettext_noop("The cap on automatic doubles cannot be negative."), field="automatic_double_cap")
        if self.automatic_double_cap and not self.automatic_doubles:
            raise ScoringError(
                gettext_noop("A cap on automatic doubles needs automatic doubles to be on."), field="automatic_double_cap"
            )


Rules = MatchRules | SessionRules


def _check_cap(cap: int | None) -> None:
    if cap is not None and (not isinstance(cap, int) or not is_power_of_two(cap) or cap < 2):
        raise ScoringError(gettext_noop("The cube cap must be a power of two, 2 or more (for example 64)."), field="cube_cap")
    if cap is not None and cap > HIGHEST_CUBE:
        raise ScoringError(
            gettext_noop("The cube cap is at most %(highest)s, the highest cube there is: %(cap)s is over it."),
            field="cube_cap", highest=HIGHEST_CUBE, cap=cap,
        )


@dataclasses.dataclass(frozen=True, slots=True)
class GameOutcome:
    """How one game ended, as a score sheet records it.

    `cube` is the value of the cube when the game ended; for a refused double it is the value
    before the refused double (what the refuser pays). `cube_owner` is None for a centred cube,
    or where the score sheet does not say who owned a turned cube.
    `points` may be left out: the rules compute it; when given, it must agree with them.
    """

    winner: int
    end: GameEnd = GameEnd.PLAYED_OUT
    kind: ResultKind = ResultKind.SINGLE
    cube: int = 1
    cube_owner: int | None = None
    beavered: bool = False
    raccooned: bool = False
    automatic_doubles: int = 0
    points: int | None = None

    @classmethod
    def from_input(cls, **given) -> GameOutcome:
        """The outcome of a game as a person or a program typed it: the one door for input.

        Takes the fields of `GameOutcome` by keyword; `kind` by its multiplier (1, 2, 3) or its
        name ("single", "gammon", "backgammon"), `end` by its value ("played_out", "resigned",
        "double_refused"). Raises ScoringError (field `kind` or `end`) for anything else; the
        rules themselves are checked when the outcome is recorded (`MatchScore.check`).
        """
        kind = given.get("kind", ResultKind.SINGLE)
        try:
            given["kind"] = ResultKind.from_label(kind) if isinstance(kind, str) else ResultKind(kind)
        except ValueError:
            message = (
                gettext_noop("A game is won as a single, gammon or backgammon.")
                if isinstance(kind, str)
                else gettext_noop("A game is won as a single (1), a gammon (2) or a backgammon (3).")
            )
            raise ScoringError(message, field="kind") from None
        try:
            given["end"] = GameEnd(given.get("end", GameEnd.PLAYED_OUT))
        except ValueError:
            raise ScoringError(gettext_noop('A game ends "played_out", "resigned" or "double_refused".'), field="end") from None
        return cls(**given)

    @classmethod
    def from_row(cls, row) -> GameOutcome:
        """The outcome a stored game holds: `row` has the outcome's fields as attributes, with
        `end` and `kind` stored as their values (as `as_row` gives them)."""
        values = {field.name: getattr(row, field.name) for field in dataclasses.fields(cls)}
        values["end"] = GameEnd(values["end"])
        values["kind"] = ResultKind(values["kind"])
        return cls(**values)

    def as_row(self) -> dict:
        """The outcome's fields as plain values to store: `end` and `kind` by their values."""
        values = {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}
        values["end"] = GameEnd(self.end).value
        values["kind"] = int(self.kind)
        return values


OUTCOME_FIELDS = tuple(field.name for field in dataclasses.fields(GameOutcome))
"""The fields of a game's outcome, as `GameOutcome`, the `Game` rows and the API name them."""


@dataclasses.dataclass(frozen=True, slots=True)
class GameRecord:
    """A game as recorded in a match: its outcome, the points it gave, and where it stood."""

    number: int
    outcome: GameOutcome
    points: int
    score_before: tuple[int, int]
    score_after: tuple[int, int]
    crawford: bool
    """This was the Crawford game (no doubling in it)."""
    post_crawford: bool
    """The Crawford game has been played earlier in this match."""

    @property
    def winner(self) -> int:
        return self.outcome.winner


class MatchScore:
    """The running score of a match or session, which accepts only outcomes the rules allow.

    >>> score = MatchScore(MatchRules(length=5))
    >>> for winner, points in [(0, 2), (1, 1), (0, 2)]:
    ...     _ = score.record(GameOutcome(winner=winner, kind=ResultKind(points)))
    >>> score.score, score.next_game_is_crawford
    ((4, 1), True)
    """

    def __init__(self, rules: Rules, *, players: tuple[str, str] = ("Player 1", "Player 2")):
        self.rules = rules
        self.players = players
        self.games: list[GameRecord] = []
        self._score = [0, 0]
        self._crawford_game: int | None = None
        self._crawford_pending = False
        self._crawford_before_start = False

    @classmethod
    def resume(
        cls,
        rules: Rules,
        *,
        score: tuple[int, int],
        crawford: CrawfordState = CrawfordState.NOT_YET,
        players: tuple[str, str] = ("Player 1", "Player 2"),
    ) -> MatchScore:
        """Pick up a match at `score` (a continued match file, a score sheet begun elsewhere).

        Game numbers still start at 1: they count the games recorded here.
        """
        resumed = cls(rules, players=players)
        if any(not isinstance(points, int) or points < 0 for points in score):
            raise ScoringError(gettext_noop("A score is two whole numbers, 0 or more."), field="score")
        resumed._score = [score[0], score[1]]
        away = rules.length - 1
        if crawford is CrawfordState.NOT_YET and rules.kind is MatchKind.MATCH and away >= 1:
            # The first player to reach N−1 does so while the other is below it: from then on the
            # Crawford game is next or played, and once the other has reached N−1 too, it was played.
            a, b = score
            if min(score) == away:
                raise ScoringError(
                    gettext_noop("At %(a)s–%(b)s in a %(length)s-point match both players have reached %(away)s "
                                 "points: the Crawford game has been played."),
                    field="score", a=a, b=b, length=rules.length, away=away,
                )
            if max(score) == away:
                raise ScoringError(
                    gettext_noop("At %(a)s–%(b)s in a %(length)s-point match one player has reached %(away)s "
                                 "points: the Crawford game is the next game or has been played."),
                    field="score", a=a, b=b, length=rules.length, away=away,
                )
        if crawford is CrawfordState.NEXT:
            if resumed.finished or not (rules.kind is MatchKind.MATCH and max(score) == away and min(score) < away):
                raise ScoringError(
                    gettext_noop("At %(a)s–%(b)s the next game cannot be the Crawford game."), field="score",
                    a=score[0], b=score[1],
                )
            resumed._crawford_pending = True
        elif crawford is CrawfordState.PLAYED:
            resumed._crawford_before_start = True
        return resumed

    # -- state ---------------------------------------------------------------------------------

    @property
    def score(self) -> tuple[int, int]:
        return (self._score[0], self._score[1])

    @property
    def next_game_number(self) -> int:
        return len(self.games) + 1

    @property
    def next_game_is_crawford(self) -> bool:
        return self._crawford_pending and not self.finished

    @property
    def crawford_game(self) -> int | None:
        """The number of the Crawford game: played, or next to be played; None if there is none."""
        if self._crawford_game is not None:
            return self._crawford_game
        if self.next_game_is_crawford:
            return self.next_game_number
        return None

    @property
    def crawford_played(self) -> bool:
        """The Crawford game has been played (here, or before a resumed score)."""
        return self._crawford_game is not None or self._crawford_before_start

    @property
    def post_crawford(self) -> bool:
        """The Crawford game has been played and the match goes on."""
        return self.crawford_played and not self.finished

    @property
    def finished(self) -> bool:
        length = self.rules.length
        return bool(length) and max(self._score) >= length

    @property
    def winner(self) -> int | None:
        if not self.finished:
            return None
        return 0 if self._score[0] >= self.rules.length else 1

    # -- rules ---------------------------------------------------------------------------------

    def points_for(self, outcome: GameOutcome) -> int:
        """The points `outcome` is worth under these rules (without checking it further)."""
        if outcome.end is GameEnd.DOUBLE_REFUSED:
            return outcome.cube
        kind = int(outcome.kind)
        if self.rules.jacoby and kind > 1 and not cube_turned(outcome):
            kind = 1
        return outcome.cube * kind

    def check(self, outcome: GameOutcome) -> int:
        """Validate `outcome` as the next game; return its points or raise ScoringError."""
        rules = self.rules
        number = self.next_game_number
        if self.finished:
            a, b = self.score
            raise ScoringError(
                gettext_noop("The match ended at %(a)s–%(b)s after game %(game)s: no game can be recorded after it."),
                a=a, b=b, game=len(self.games),
            )
        if outcome.winner not in (0, 1):
            raise ScoringError(gettext_noop("The winner must be one of the two players of the match."), field="winner")
        loser = 1 - outcome.winner
        if not isinstance(outcome.cube, int) or not is_power_of_two(outcome.cube):
            raise ScoringError(
                gettext_noop("The cube holds powers of two (1, 2, 4, 8, …): %(cube)s is not one."), field="cube",
                cube=outcome.cube,
            )
        if outcome.cube > HIGHEST_CUBE:
            raise ScoringError(
                gettext_noop("The cube goes up to %(highest)s: a cube of %(cube)s is beyond it."), field="cube",
                highest=HIGHEST_CUBE, cube=outcome.cube,
            )
        if outcome.cube_owner not in (None, 0, 1):
            raise ScoringError(gettext_noop("The cube is owned by one of the two players, or centred."), field="cube_owner")
        try:
            kind = ResultKind(outcome.kind)
        except ValueError:
            raise ScoringError(gettext_noop("A game is won as a single, a gammon or a backgammon."), field="kind") from None
        try:
            end = GameEnd(outcome.end)
        except ValueError:
            raise ScoringError(gettext_noop("A game ends played out, resigned, or by a refused double."), field="end") from None

        # What the cube reached in this game, counting a refused double as offered.
        highest = outcome.cube * 2 if end is GameEnd.DOUBLE_REFUSED else outcome.cube
        if highest > HIGHEST_CUBE:
            raise ScoringError(
                gettext_noop("The cube goes up to %(highest)s: a double to %(cube)s is beyond it."), field="cube",
                highest=HIGHEST_CUBE, cube=highest,
            )

        if rules.kind is MatchKind.MATCH:
            if outcome.beavered:
                raise ScoringError(gettext_noop("Beavers are not used in match play."), field="beavered")
            if outcome.raccooned:
                raise ScoringError(gettext_noop("Raccoons are not used in match play."), field="raccooned")
            if outcome.automatic_doubles:
                raise ScoringError(gettext_noop("Automatic doubles are not used in match play."), field="automatic_doubles")
            if self.next_game_is_crawford:
                # Each refusal at the field that asked for what the Crawford game cannot have.
                if end is GameEnd.DOUBLE_REFUSED:
                    raise ScoringError(
                        gettext_noop("Game %(number)s is the Crawford game: nobody may double in it, so no double "
                                     "can be refused."), field="end", number=number,
                    )
                if highest > 1:
                    raise ScoringError(
                        gettext_noop("Game %(number)s is the Crawford game: the cube cannot be turned."), field="cube",
                        number=number,
                    )
                if outcome.cube_owner is not None:
                    raise ScoringError(
                        gettext_noop("Game %(number)s is the Crawford game: the cube stays centred, owned by nobody."),
                        field="cube_owner", number=number,
                    )
        else:
            self._check_session_options(outcome)

        if rules.cube_cap is not None and highest > rules.cube_cap:
            if end is GameEnd.DOUBLE_REFUSED:
                message = gettext_noop("The cube is capped at %(cap)s here: a double to %(cube)s is over the cap.")
            else:
                message = gettext_noop("The cube is capped at %(cap)s here: a cube of %(cube)s is over the cap.")
            raise ScoringError(message, field="cube", cap=rules.cube_cap, cube=highest)

        if outcome.cube_owner is not None and not cube_turned(outcome):
            raise ScoringError(
                gettext_noop("Nobody owns a cube that has not been turned: leave the owner empty."), field="cube_owner"
            )

        if end is GameEnd.DOUBLE_REFUSED:
            if kind is not ResultKind.SINGLE:
                raise ScoringError(
                    gettext_noop("A refused double ends the game as a single: the refuser pays the cube before the double."),
                    field="kind",
                )
            if outcome.cube_owner == loser:
                raise ScoringError(
                    gettext_noop("%(owner)s owned the cube, so %(winner)s could not double."), field="cube_owner",
                    owner=self.players[loser], winner=self.players[outcome.winner],
                )

        points = self.points_for(outcome)
        if outcome.points is not None and outcome.points != points:
            raise ScoringError(self._points_message(outcome, kind, end, points), field="points",
                               cube=outcome.cube, points=points, given=outcome.points)
        return points

    def _check_session_options(self, outcome: GameOutcome) -> None:
        rules = self.rules
        if outcome.automatic_doubles:
            if not rules.automatic_doubles:
                raise ScoringError(gettext_noop("This session does not use automatic doubles."), field="automatic_doubles")
            if not rules.automatic_double_cap:
                raise ScoringError(
                    gettext_noop("This session allows no automatic doubles: its cap is 0."), field="automatic_doubles"
                )
            if outcome.automatic_doubles < 0 or outcome.automatic_doubles > rules.automatic_double_cap:
                raise ScoringError(
                    gettext_noop("This session allows at most %(cap)s automatic doubles a game."),
                    field="automatic_doubles", cap=rules.automatic_double_cap,
                )
            lowest = 2**outcome.automatic_doubles
            if outcome.cube < lowest:
                doubles = outcome.automatic_doubles
                raise ScoringError(
                    ngettext("After %(doubles)s automatic double the cube is at least %(lowest)s: a cube of "
                             "%(cube)s is too low.",
                             "After %(doubles)s automatic doubles the cube is at least %(lowest)s: a cube of "
                             "%(cube)s is too low.", doubles),
                    field="cube", doubles=doubles, lowest=lowest, cube=outcome.cube,
                )
        if outcome.beavered:
            if not rules.beavers:
                raise ScoringError(gettext_noop("This session does not allow beavers."), field="beavered")
            if outcome.cube_owner is None:
                raise ScoringError(
                    gettext_noop("After a beaver the beaverer owns the cube: say who owns it."), field="cube_owner"
                )
            if outcome.cube < 4 * 2 ** outcome.automatic_doubles:
                raise ScoringError(
                    gettext_noop("A beaver doubles a double: the cube is at least 4 after one."), field="cube"
                )
        if outcome.raccooned:
            if not rules.raccoons:
                raise ScoringError(gettext_noop("This session does not allow raccoons."), field="raccooned")
            if not outcome.beavered:
                raise ScoringError(gettext_noop("A raccoon answers a beaver: there was none."), field="raccooned")
            if outcome.cube < 8 * 2 ** outcome.automatic_doubles:
                raise ScoringError(
                    gettext_noop("A raccoon redoubles a beaver: the cube is at least 8 after one."), field="cube"
                )

    def _points_message(self, outcome: GameOutcome, kind: ResultKind, end: GameEnd, points: int) -> tuple:
        """The refusal of points that are not what the game is worth (placeholders: cube, points,
        given), one message per kind of game so that each language words it whole."""
        if end is GameEnd.DOUBLE_REFUSED:
            return ngettext("A double refused with the cube on %(cube)s is worth %(points)s point (the cube before "
                            "the double), not %(given)s.",
                            "A double refused with the cube on %(cube)s is worth %(points)s points (the cube before "
                            "the double), not %(given)s.", points)
        if self.rules.jacoby and kind > ResultKind.SINGLE and not cube_turned(outcome):
            if kind is ResultKind.GAMMON:
                return ngettext("Under the Jacoby rule a gammon with a centred cube counts as a single: %(points)s "
                                "point, not %(given)s.",
                                "Under the Jacoby rule a gammon with a centred cube counts as a single: %(points)s "
                                "points, not %(given)s.", points)
            return ngettext("Under the Jacoby rule a backgammon with a centred cube counts as a single: %(points)s "
                            "point, not %(given)s.",
                            "Under the Jacoby rule a backgammon with a centred cube counts as a single: %(points)s "
                            "points, not %(given)s.", points)
        if kind is ResultKind.GAMMON:
            return ngettext("A gammon with the cube on %(cube)s is worth %(points)s point, not %(given)s.",
                            "A gammon with the cube on %(cube)s is worth %(points)s points, not %(given)s.", points)
        if kind is ResultKind.BACKGAMMON:
            return ngettext("A backgammon with the cube on %(cube)s is worth %(points)s point, not %(given)s.",
                            "A backgammon with the cube on %(cube)s is worth %(points)s points, not %(given)s.",
                            points)
        return ngettext("A single with the cube on %(cube)s is worth %(points)s point, not %(given)s.",
                        "A single with the cube on %(cube)s is worth %(points)s points, not %(given)s.", points)

    # -- recording -----------------------------------------------------------------------------

    def record(self, outcome: GameOutcome) -> GameRecord:
        """Record the next game; raise ScoringError (and change nothing) if the rules refuse it."""
        points = self.check(outcome)
        before = self.score
        crawford = self.next_game_is_crawford
        post_crawford = self.crawford_played
        if crawford:
            self._crawford_game = self.next_game_number
            self._crawford_pending = False
        self._score[outcome.winner] += points
        record = GameRecord(
            number=self.next_game_number,
            outcome=dataclasses.replace(outcome, points=points),
            points=points,
            score_before=before,
            score_after=self.score,
            crawford=crawford,
            post_crawford=post_crawford,
        )
        self.games.append(record)
        self._update_crawford(outcome.winner)
        return record

    def _update_crawford(self, winner: int) -> None:
        length = self.rules.length
        if self.rules.kind is not MatchKind.MATCH or length < 2 or self.finished:
            return
        if self.crawford_played or self._crawford_pending:
            return
        away = length - 1
        if self._score[winner] == away and self._score[1 - winner] < away:
            self._crawford_pending = True
