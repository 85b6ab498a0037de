"""A history as arrays, cut into batches of matches that share no player.

The vectorised engines rate a history batch by batch. A match goes into batch
1 + max(batch of player A's previous match, batch of player B's previous match): the earliest
batch after every match its two players played before. So no player appears twice in one
batch, and each player's matches land in strictly increasing batches, in the order of the
history. Every update reads only the two players' states, which only their own earlier matches
wrote; rating a batch's matches together therefore gives what rating them one by one does.
Each element goes through the scalar engine's arithmetic in the same order, so the numbers
differ at most by the last bit of numpy's exp and log against the math module's (none where
numpy calls the same C library, as on AVX2 machines).

Needs numpy; the scalar engines are the fallback without it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import partial

import numpy as np

from ratings.systems.history import (
    PROGRESS_EVERY,
    MatchRecord,
    ProgressCallback,
    RatingChange,
    RatingInputError,
    in_time_order,
)


@dataclass(frozen=True, slots=True)
class HistoryArrays:
    """A history of `len(days)` matches as parallel arrays, in time order.

    `player_a` and `player_b` are player indices 0..players − 1; `days` are day numbers
    (`history.day_number`), `a_won` is True where player A won. `a_score`, when given, is
    player A's score in [0, 1] where a match is rated by a score rather than its winner (NaN
    where the winner counts); `scores()` is what a variance-adjusted run rates.
    """

    match_ids: np.ndarray
    days: np.ndarray
    player_a: np.ndarray
    player_b: np.ndarray
    lengths: np.ndarray
    a_won: np.ndarray
    players: int
    a_score: np.ndarray | None = None

    def scores(self) -> np.ndarray:
        """Player A's score per match: 1 or 0 by the winner, or `a_score` where it is given."""
        won = self.a_won.astype(np.float64)
        if self.a_score is None:
            return won
        return np.where(np.isnan(self.a_score), won, self.a_score)

    def head(self, m: int) -> HistoryArrays:
        """The first `m` matches, with the same players."""
        return HistoryArrays(
            self.match_ids[:m], self.days[:m], self.player_a[:m], self.player_b[:m], self.lengths[:m],
            self.a_won[:m], self.players, None if self.a_score is None else self.a_score[:m],
        )

    @classmethod
    def build(
        cls, match_ids, days, player_a, player_b, lengths, a_won, players: int | None = None, a_score=None
    ) -> HistoryArrays:
        """Arrays checked like the scalar engines check records: lengths of at least one
        point, no player against himself, days that never go back."""
        match_ids = np.asarray(match_ids)
        days = np.asarray(days, dtype=np.float64)
        player_a = np.asarray(player_a, dtype=np.int64)
        player_b = np.asarray(player_b, dtype=np.int64)
        lengths = np.asarray(lengths, dtype=np.int64)
        a_won = np.asarray(a_won, dtype=bool)
        n = len(days)
        if not all(len(column) == n for column in (match_ids, player_a, player_b, lengths, a_won)):
            raise ValueError("the history's arrays must all have one entry per match")
        if a_score is not None:
            a_score = np.asarray(a_score, dtype=np.float64)
            if len(a_score) != n:
                raise ValueError("the history's arrays must all have one entry per match")
            outside = np.flatnonzero((a_score < 0.0) | (a_score > 1.0))
            if outside.size:
                raise RatingInputError(
                    f"match {match_ids[outside[0]]!r}: a score must lie in [0, 1], not {a_score[outside[0]]!r}"
                )
        if players is None:
            players = int(max(player_a.max(initial=-1), player_b.max(initial=-1))) + 1
        bad = np.flatnonzero(lengths < 1)
        if bad.size:
            raise RatingInputError(
                f"match {match_ids[bad[0]]!r}: length must be a whole number of points, at least 1, "
                f"not {lengths[bad[0]]!r}"
            )
        bad = np.flatnonzero(player_a == player_b)
        if bad.size:
            raise RatingInputError(f"match {match_ids[bad[0]]!r}: player {player_a[bad[0]]} cannot play himself")
        if n and (min(player_a.min(), player_b.min()) < 0 or max(player_a.max(), player_b.max()) >= players):
            raise ValueError(f"player indices must lie in 0..{players - 1}")
        bad = np.flatnonzero(days[1:] < days[:-1])
        if bad.size:
            raise RatingInputError(
                f"match {match_ids[bad[0] + 1]!r} is dated before the match rated before it; "
                "give the history in time order"
            )
        return cls(match_ids, days, player_a, player_b, lengths, a_won, players, a_score)


def records_as_arrays(
    records: Sequence[MatchRecord], known_players: Sequence[Hashable] = ()
) -> tuple[HistoryArrays, list[Hashable], list[date | datetime]]:
    """The records as `HistoryArrays`, the players in index order (`known_players` first) and
    each match's `played_on`. Raises `RatingInputError` on the first record the scalar engines
    would refuse, with the same message."""
    index: dict[Hashable, int] = {player: i for i, player in enumerate(known_players)}
    players = list(index)
    n = len(records)
    days = np.empty(n, dtype=np.float64)
    side_a = np.empty(n, dtype=np.int64)
    side_b = np.empty(n, dtype=np.int64)
    lengths = np.empty(n, dtype=np.int64)
    a_won = np.empty(n, dtype=bool)
    a_score = np.full(n, np.nan)
    match_ids = []
    played = []
    for i, (record, day) in enumerate(in_time_order(records)):
        length = record.length
        winner = record.winner
        player_a = record.player_a
        player_b = record.player_b
        played_on = record.played_on
        a = index.get(player_a)
        if a is None:
            a = index[player_a] = len(players)
            players.append(player_a)
        b = index.get(player_b)
        if b is None:
            b = index[player_b] = len(players)
            players.append(player_b)
        days[i] = day
        side_a[i] = a
        side_b[i] = b
        lengths[i] = length
        a_won[i] = winner == "a"
        if record.score is not None:
            a_score[i] = record.score
        match_ids.append(record.match_id)
        played.append(played_on)
    ids = np.empty(n, dtype=object)
    ids[:] = match_ids
    scored = not np.isnan(a_score).all()
    arrays = HistoryArrays(ids, days, side_a, side_b, lengths, a_won, len(players), a_score if scored else None)
    return arrays, players, played


def batches(player_a: np.ndarray, player_b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The matches in batch order and where each batch starts.

    Returns (`order`, `starts`): `order[starts[j]:starts[j + 1]]` are the indices of the
    matches of batch j, in history order. No player plays twice in a batch, and each player's
    matches fall in increasing batches (see the module's description)."""
    following, first, _ = _next_matches(player_a, player_b)
    return _in_order(_schedule(following, first))


def _in_order(placed: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The batches as (`order`, `starts`)."""
    order = np.concatenate(placed) if placed else np.zeros(0, dtype=np.int64)
    starts = np.zeros(len(placed) + 1, dtype=np.int64)
    np.cumsum([len(batch) for batch in placed], out=starts[1:])
    return order, starts


def _next_matches(player_a: np.ndarray, player_b: np.ndarray) -> tuple[np.ndarray, np.ndarray, tuple]:
    """Each player's matches in history order, as links between the sides of the matches
    (numbered 2·i for player A of match i and 2·i + 1 for player B): per side, the side of the
    same player's next match (−1 after his last), and whether it is his first match; and
    (players, their last matches) for every player who played."""
    n = len(player_a)
    # the sides grouped by player, in history order within a player: (player, side) packed
    # into one integer, as one plain sort is several times faster than a stable argsort
    bits = max(1, (2 * n - 1).bit_length())
    keys = np.empty(2 * n, dtype=np.int64)
    keys[0::2] = player_a
    keys[1::2] = player_b
    if n and int(keys.max()) >= 1 << (63 - bits):
        raise ValueError("too many players for a history this long")
    keys <<= bits
    keys |= np.arange(2 * n, dtype=np.int64)
    keys.sort()
    player = keys >> bits
    # True where the next entry is another player's (or there is none)
    ends = np.ones(2 * n, dtype=bool)
    np.not_equal(player[1:], player[:-1], out=ends[:-1])
    last_players = player[ends]
    del player
    sides = keys
    sides &= (1 << bits) - 1
    next_side = np.empty(2 * n, dtype=np.int64)
    next_side[:-1] = sides[1:]
    next_side[ends] = -1
    following = np.empty(2 * n, dtype=np.int64)
    following[sides] = next_side
    first = np.empty(2 * n, dtype=bool)
    first[sides[:1]] = True
    first[sides[1:]] = ends[:-1]
    return following, first, (last_players, sides[ends] >> 1)


def _schedule(following: np.ndarray, first: np.ndarray) -> list[np.ndarray]:
    """The batches, one batch at a time, each its matches in history order, from
    `_next_matches`' links.

    Batch 1 holds the matches that are both players' first. Once a batch is placed, the next
    holds the matches whose two players' previous matches have all been placed: the earliest
    batch after both of them, as the module's description has it. A player's next match is
    near his last in the history, so the arrays here are read and written near the batch."""
    # per side, True while the same player's previous match is still to be placed
    waiting = ~first
    batch = np.flatnonzero(~(waiting[0::2] | waiting[1::2]))
    placed = []
    while batch.size:
        placed.append(batch)
        reached = following[np.concatenate((2 * batch, 2 * batch + 1))]
        reached = reached[reached >= 0]
        waiting[reached] = False
        ready = reached[~waiting[reached ^ 1]] >> 1
        # a match whose two players both come from this batch is reached twice; sorted, a
        # batch's matches are in history order
        ready.sort()
        repeated = np.zeros(len(ready), dtype=bool)
        np.equal(ready[1:], ready[:-1], out=repeated[1:])
        batch = ready[~repeated]
    if sum(len(batch) for batch in placed) != len(first) // 2:
        raise AssertionError("every match must be placed in a batch")
    return placed


@dataclass(frozen=True, slots=True)
class BatchLayout:
    """The history in batch order: batch j's matches are order[starts[j]:starts[j + 1]].

    The engines rate a batch with its matches' A sides followed by their B sides, so that
    both sides are updated together and each side's opponent is m places away (m matches in
    the batch); the places of batch j are [2·starts[j], 2·starts[j + 1])."""

    order: np.ndarray
    starts: np.ndarray
    last_match: np.ndarray
    """Per player, the index of his last match in the history (−1 if none)."""

    @classmethod
    def of(cls, history: HistoryArrays) -> BatchLayout:
        following, first, (players, matches) = _next_matches(history.player_a, history.player_b)
        last_match = np.full(history.players, -1, dtype=np.int64)
        last_match[players] = matches
        return cls(*_in_order(_schedule(following, first)), last_match)

    def in_batch_order(self, values: np.ndarray) -> np.ndarray:
        """Per-match values (history order) in batch order."""
        return values[self.order]

    def changes(self, names: Sequence[str]) -> Changes:
        """Room for per-match changes, filled a batch at a time (see `Changes`)."""
        return Changes(self.order, names)

    def spans(self):
        """Per batch: (its first match in batch order, the match after its last)."""
        starts = self.starts.tolist()
        return zip(starts[:-1], starts[1:])


class Changes:
    """Per-match values kept a batch at a time, in history order: for each name, one array
    for the A sides (`{name}_a`) and one for the B sides (`{name}_b`).

    A match's values sit side by side in one row of a table (the arrays are its columns), so
    that keeping a batch writes one row per match."""

    def __init__(self, order: np.ndarray, names: Sequence[str]) -> None:
        self.order = order
        self.names = tuple(names)
        self.rows = np.empty((len(order), 2 * len(self.names)))
        self._records = self.rows.view(np.dtype((np.void, self.rows.itemsize * self.rows.shape[1]))).ravel()
        self.columns = {
            f"{name}_{side}": self.rows[:, 2 * number + half]
            for number, name in enumerate(self.names)
            for half, side in enumerate("ab")
        }

    def keep(self, first: int, after: int, **values: np.ndarray) -> None:
        """Keep the values of the batch of matches [first, after) in batch order, each given
        by place (the A sides, then the B sides)."""
        m = after - first
        rows = np.empty((m, self.rows.shape[1]))
        for number, name in enumerate(self.names):
            laid = values[name]
            rows[:, 2 * number] = laid[:m]
            rows[:, 2 * number + 1] = laid[m:]
        np.put(self._records, self.order[first:after], rows.view(self._records.dtype).ravel())


class PlayerTable:
    """The players' states, a row of numbers each, read and written a batch at a time (no
    player appears twice in a batch)."""

    def __init__(self, *columns: np.ndarray) -> None:
        self.rows = np.stack(columns, axis=1, dtype=np.float64)
        # the same memory seen as one record per row: writing rows is a 1-d scatter
        self._records = self.rows.view(np.dtype((np.void, self.rows.itemsize * len(columns)))).ravel()

    def read(self, players: np.ndarray) -> np.ndarray:
        """The players' rows, a copy."""
        return self.rows.take(players, axis=0)

    def write(self, players: np.ndarray, rows: np.ndarray) -> None:
        """Replace the players' rows with `rows` (C-contiguous, one row per player)."""
        np.put(self._records, players, rows.view(self._records.dtype).ravel())


class ProgressReporter:
    """Calls `progress(done, total)` each time the matches rated cross a multiple of
    `PROGRESS_EVERY`, and once at the end, as the scalar engines do."""

    def __init__(self, progress: ProgressCallback | None, total: int) -> None:
        self.progress = progress
        self.total = total
        self.reported = 0

    def advance(self, done: int) -> None:
        if self.progress is not None and done // PROGRESS_EVERY > self.reported // PROGRESS_EVERY:
            self.reported = done
            self.progress(done, self.total)

    def finish(self, done: int) -> None:
        if self.progress is not None and done != self.reported:
            self.reported = done
            self.progress(done, self.total)


def per_player_sums(player_a: np.ndarray, player_b: np.ndarray, weights: np.ndarray | None, players: int) -> np.ndarray:
    """Per player, the sum of the whole-number `weights` over his matches (as either side); with
    no weights, his number of matches."""
    if weights is None:
        return np.bincount(player_a, minlength=players) + np.bincount(player_b, minlength=players)
    totals = np.zeros(players, dtype=np.int64)
    np.add.at(totals, player_a, weights)
    np.add.at(totals, player_b, weights)
    return totals


def first_matches(history: HistoryArrays) -> np.ndarray:
    """Per player, the index of his first match in the history (len(history) if he has none)."""
    n = len(history.days)
    first = np.full(history.players, n, dtype=np.int64)
    order = np.arange(n, dtype=np.int64)
    np.minimum.at(first, history.player_b, order)
    np.minimum.at(first, history.player_a, order)
    return first


def nth_matches(history: HistoryArrays, nth: np.ndarray) -> np.ndarray:
    """Per player, the index of his `nth[player]`-th match in the history (1 for the first), −1
    where `nth` is 0 or less and len(history) where he has fewer matches."""
    n = len(history.days)
    sides = np.concatenate((history.player_a, history.player_b))
    places = np.concatenate((np.arange(n, dtype=np.int64), np.arange(n, dtype=np.int64)))
    order = np.lexsort((places, sides))
    sides, places = sides[order], places[order]
    starts = np.searchsorted(sides, np.arange(history.players))
    counts = np.bincount(sides, minlength=history.players)
    result = np.where(nth <= 0, -1, n).astype(np.int64)
    reached = (nth > 0) & (nth <= counts)
    result[reached] = places[starts[reached] + nth[reached] - 1]
    return result


_change = partial(tuple.__new__, RatingChange)
"""A `RatingChange` from a tuple of its fields, without the keyword handling of its constructor."""


def changes_of(run: ArrayRun, history: HistoryArrays, players: Sequence[Hashable]) -> tuple[RatingChange, ...]:
    """The run's per-match arrays as `RatingChange`s, two per match, player A's first."""
    n = len(history.days)
    who = np.empty(len(players), dtype=object)
    who[:] = players
    ids = history.match_ids.tolist()
    side_a = who[history.player_a].tolist()
    side_b = who[history.player_b].tolist()
    a_won = history.a_won.tolist()
    b_won = (~history.a_won).tolist()
    none = [None] * n
    deviations = run.deviation is not None
    changes: list = [None] * (2 * n)
    changes[0::2] = map(_change, zip(
        ids, side_a, side_b, a_won, run.rating_before_a.tolist(), run.rating_after_a.tolist(),
        run.deviation_before_a.tolist() if deviations else none,
        run.deviation_after_a.tolist() if deviations else none, run.expected_a.tolist(),
    ))
    changes[1::2] = map(_change, zip(
        ids, side_b, side_a, b_won, run.rating_before_b.tolist(), run.rating_after_b.tolist(),
        run.deviation_before_b.tolist() if deviations else none,
        run.deviation_after_b.tolist() if deviations else none, run.expected_b.tolist(),
    ))
    return tuple(changes)


@dataclass(frozen=True, slots=True)
class ArrayRun:
    """What a vectorised run produced, as arrays.

    Per player (by index): `rating`, `deviation` and `volatility` (None for FIBS),
    `experience`, `matches`, `last_match` (index of his last match in the history, −1 if none)
    and `provisional`. Per match (by index, None when the run kept no changes): each side's
    rating and deviation before and after the match and his expected score, `_a` for player A
    and `_b` for player B; deviations are None for FIBS.
    """

    system: str
    rating: np.ndarray
    deviation: np.ndarray | None
    volatility: np.ndarray | None
    experience: np.ndarray
    matches: np.ndarray
    last_match: np.ndarray
    provisional: np.ndarray
    rating_before_a: np.ndarray | None = None
    rating_after_a: np.ndarray | None = None
    deviation_before_a: np.ndarray | None = None
    deviation_after_a: np.ndarray | None = None
    expected_a: np.ndarray | None = None
    rating_before_b: np.ndarray | None = None
    rating_after_b: np.ndarray | None = None
    deviation_before_b: np.ndarray | None = None
    deviation_after_b: np.ndarray | None = None
    expected_b: np.ndarray | None = None
    state: dict | None = None
    """Per player, the engine's working state after the run, exactly (`RatingEngine.rate_state`)."""
