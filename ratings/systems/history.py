"""The records every rating system reads and writes.

A rating system reads a history of finished, rated matches (`MatchRecord`) in time order and
hands back each player's final `PlayerRating` and one `RatingChange` per player per match.

The contract with callers: forfeits, byes, unfinished matches and matches marked unrated are
left out *before* a system sees the history. Every record given is a match that was played to
its end and counts. Records are processed in the order given; that order must not go back in
time (ties on `played_on` keep the order given, so order them by a stable key such as
`(played_on, match_id)`).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from typing import NamedTuple

ProgressCallback = Callable[[int, int], None]
"""Called as `progress(done, total)` while a history is being rated."""

PROGRESS_EVERY = 10_000
"""How many matches a run rates between two calls of its progress callback."""


class RatingInputError(ValueError):
    """A match record cannot be rated: bad length, bad winner, a player against himself, or a
    history that goes back in time."""


class UnknownRatingSystemError(ValueError):
    """No rating system goes by the name asked for."""


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One finished, rated match between two players.

    `winner` is ``"a"`` when `player_a` won the match and ``"b"`` when `player_b` did.
    Players are any hashable identifiers (primary keys, names). `score` is player A's score in
    [0, 1] where the match is to be rated by something other than its winner (the luck-adjusted
    result of an analysed match, for `skill`); None rates it by the winner. FIBS ignores it.
    """

    match_id: Hashable
    played_on: date | datetime
    player_a: Hashable
    player_b: Hashable
    length: int
    winner: str
    score: float | None = None

    @property
    def a_won(self) -> bool:
        """True when player A won the match."""
        return self.winner == "a"


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player's rating after the matches rated so far.

    `deviation` and `volatility` belong to the variance-adjusted rating and are None for FIBS.
    `experience` is the sum of the lengths of the matches played, as FIBS counts it.
    """

    player: Hashable
    rating: float
    deviation: float | None
    volatility: float | None
    experience: int
    matches: int
    last_played: date | datetime | None
    provisional: bool


class RatingChange(NamedTuple):
    """How one match moved one player's rating.

    A history yields two of these per match (player A's first), so it is a light tuple rather
    than a dataclass: a recompute of a million matches builds two million of them.
    `expected` is the player's chance of winning the match as the system forecast it
    beforehand, from the ratings before the match (for the variance-adjusted rating with both
    players' deviations, grown to the day of the match, as `predict` gives it; the two players'
    chances sum to 1). Deviations are the ones the match was rated with: grown to the day of the
    match before, shrunk by it after.
    """

    match_id: Hashable
    player: Hashable
    opponent: Hashable
    won: bool
    rating_before: float
    rating_after: float
    deviation_before: float | None
    deviation_after: float | None
    expected: float

    @property
    def delta(self) -> float:
        """Rating points gained (positive) or lost (negative) in the match."""
        return self.rating_after - self.rating_before


@dataclass(frozen=True, slots=True)
class RunResult:
    """What a run over a whole history produced.

    `ratings` holds each player's final rating; `changes` holds two entries per match in the
    order the matches were rated (empty when the run was asked not to keep them).
    """

    system: str
    ratings: Mapping[Hashable, PlayerRating]
    changes: tuple[RatingChange, ...]
    matches: int


@dataclass(frozen=True, slots=True)
class Prediction:
    """A system's forecast for a match of a given length.

    `p_a` and `p_b` are the chances that player A and player B win the match (they sum to 1).
    For the variance-adjusted rating, `difference_deviation` is the deviation of the rating
    difference, sqrt(RD_a² + RD_b²) in rating points, and `p_a_low`..`p_a_high` is the 95%
    interval of player A's chance implied by it; FIBS knows no deviation and leaves them None.
    """

    p_a: float
    p_b: float
    difference_deviation: float | None = None
    p_a_low: float | None = None
    p_a_high: float | None = None


def day_number(moment: date | datetime) -> float:
    """Days since the start of the proleptic Gregorian calendar, with the time of day as a
    fraction for datetimes, so that elapsed time is a plain subtraction."""
    if isinstance(moment, datetime):
        return (
            moment.toordinal()
            + (moment.hour * 3600 + moment.minute * 60 + moment.second) / 86400.0
            + moment.microsecond / 86_400_000_000.0
        )
    return float(moment.toordinal())


def check_record(record: MatchRecord) -> None:
    """Raise `RatingInputError` unless the record can be rated."""
    if not isinstance(record.length, int) or record.length < 1:
        raise RatingInputError(
            f"match {record.match_id!r}: length must be a whole number of points, at least 1, "
            f"not {record.length!r}"
        )
    if record.winner not in ("a", "b"):
        raise RatingInputError(
            f"match {record.match_id!r}: winner must be 'a' or 'b', not {record.winner!r}"
        )
    if record.player_a == record.player_b:
        raise RatingInputError(f"match {record.match_id!r}: {record.player_a!r} cannot play himself")
    if record.score is not None and not 0.0 <= record.score <= 1.0:
        raise RatingInputError(f"match {record.match_id!r}: a score must lie in [0, 1], not {record.score!r}")


def out_of_order_error(record: MatchRecord) -> RatingInputError:
    """The error for a record dated before the one rated just before it."""
    return RatingInputError(
        f"match {record.match_id!r} ({record.played_on}) is dated before the match rated "
        "before it; give the history in time order"
    )


def in_time_order(records) -> Iterator[tuple[MatchRecord, float]]:
    """Each record with its `day_number`, after checking it can be rated and is not dated
    before the one before it (raises `RatingInputError`)."""
    days: dict[date | datetime, float] = {}
    lengths_seen: set[int] = set()
    previous_day = float("-inf")
    for record in records:
        length = record.length
        if length not in lengths_seen:
            check_record(record)
            lengths_seen.add(length)
        winner = record.winner
        score = record.score
        if (winner != "a" and winner != "b") or record.player_a == record.player_b or (
            score is not None and not 0.0 <= score <= 1.0
        ):
            check_record(record)
        played_on = record.played_on
        day = days.get(played_on)
        if day is None:
            day = days[played_on] = day_number(played_on)
        if day < previous_day:
            raise out_of_order_error(record)
        previous_day = day
        yield record, day


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the duration of a run.

    A run allocates millions of small objects that form no cycles; left on, the collector walks
    the whole growing history again and again and costs more than the ratings themselves.
    The collector's previous state is restored afterwards.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
