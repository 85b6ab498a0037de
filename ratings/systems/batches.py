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
    (`history.day_number`), `a_won` is True where player A won.
    """

    match_ids: np.ndarray
    days: np.ndarray
    player_a: np.ndarray
    player_b: np.ndarray
    lengths: np.ndarray
    a_won: np.ndarray
    players: int

    @classmethod
    def build(cls, match_ids, days, player_a, player_b, lengths, a_won, players: int | None = None) -> HistoryArrays:
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
        return cls(match_ids, days, player_a, player_b, lengths, a_won, players)


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
        match_ids.append(record.match_id)
        played.append(played_on)
    ids = np.empty(n, dtype=object)
    ids[:] = match_ids
    arrays = HistoryArrays(ids, days, side_a, side_b, lengths, a_won, len(players))
    return arrays, players, played


def batches(player_a: np.ndarray, player_b: np.ndarray, players: int) -> tuple[np.ndarray, np.ndarray]:
    """The matches in batch order and where each batch starts.

    Returns (`order`, `starts`): `order[starts[j]:starts[j + 1]]` are the indices of the
    matches of batch j, in history order. No player plays twice in a batch, and each player's
    matches fall in increasing batches (see the module's description)."""
    last = [0] * players
    batch_of = []
    put = batch_of.append
    for a, b in zip(player_a.tolist(), player_b.tolist()):
        la = last[a]
        lb = last[b]
        batch = (la if la > lb else lb) + 1
        last[a] = batch
        last[b] = batch
        put(batch)
    numbers = np.asarray(batch_of, dtype=np.int64)
    order = np.argsort(numbers, kind="stable")
    sizes = np.bincount(numbers, minlength=1)[1:]
    starts = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(sizes, out=starts[1:])
    return order, starts


@dataclass(frozen=True, slots=True)
class BatchLayout:
    """Where each side of each match goes in the engines' working order: batch after batch,
    each batch as its matches' A sides followed by their B sides, so that a batch is one
    contiguous span of length 2·m and both sides are updated together."""

    who: np.ndarray
    """The player at each place."""
    order: np.ndarray
    """The matches (history indices) batch after batch: batch j's are order[starts[j]:starts[j + 1]]."""
    slot_a: np.ndarray
    """Per match (history order), the place of its A side; its B side is at `slot_b`."""
    slot_b: np.ndarray
    starts: np.ndarray
    """Match counts before each batch (and the total at the end)."""

    @classmethod
    def of(cls, history: HistoryArrays) -> BatchLayout:
        order, starts = batches(history.player_a, history.player_b, history.players)
        n = len(order)
        sizes = np.diff(starts)
        batch = np.repeat(np.arange(len(sizes)), sizes)
        place = np.arange(n, dtype=np.int64) + starts[:-1][batch]
        slot_a = np.empty(n, dtype=np.int64)
        slot_b = np.empty(n, dtype=np.int64)
        slot_a[order] = place
        slot_b[order] = place + sizes[batch]
        who = np.empty(2 * n, dtype=np.int64)
        who[slot_a] = history.player_a
        who[slot_b] = history.player_b
        return cls(who, order, slot_a, slot_b, starts)

    def sides(self, values_a: np.ndarray, values_b: np.ndarray | None = None) -> np.ndarray:
        """Per-match values (history order) laid out by place: `values_a` for the A sides and
        `values_b` (the same by default) for the B sides."""
        laid = np.empty(2 * len(self.slot_a), dtype=values_a.dtype)
        laid[self.slot_a] = values_a
        laid[self.slot_b] = values_a if values_b is None else values_b
        return laid

    def changes_buffer(self, quantities: int) -> np.ndarray:
        """Room for `quantities` numbers per side per match, in history order: shape
        (matches, 2, quantities), A side first (see `keep_changes`)."""
        return np.empty((len(self.order), 2, quantities), dtype=np.float64)

    def keep_changes(self, buffer: np.ndarray, first: int, after: int, *columns: np.ndarray) -> None:
        """Store, for the batch laid out at places [first, after), one column per quantity (by
        place), into `buffer` by match."""
        m = (after - first) // 2
        rows = np.empty((m, 2, len(columns)), dtype=np.float64)
        for quantity, column in enumerate(columns):
            rows[:, 0, quantity] = column[:m]
            rows[:, 1, quantity] = column[m:]
        buffer[self.order[first // 2 : first // 2 + m]] = rows

    def spans(self):
        """Per batch: (first place, place after the last, matches rated once it is done)."""
        starts = self.starts.tolist()
        for first, after in zip(starts[:-1], starts[1:]):
            yield 2 * first, 2 * after, after


def change_columns(buffer: np.ndarray, names: Sequence[str]) -> dict[str, np.ndarray]:
    """The columns of a changes buffer (`BatchLayout.changes_buffer`) by name: `{name}_a` and
    `{name}_b`, views into the buffer (strided, not copied)."""
    return {
        f"{name}_{side}": buffer[:, number, quantity]
        for number, side in enumerate("ab")
        for quantity, name in enumerate(names)
    }


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


def last_match_of(player_a: np.ndarray, player_b: np.ndarray, players: int) -> np.ndarray:
    """Per player, the index of his last match in the history (−1 if none)."""
    last = np.full(players, -1, dtype=np.int64)
    n = len(player_a)
    positions = np.arange(n, dtype=np.int64)
    # later assignments win in fancy-index assignment with repeated indices in numpy only by
    # convention, so take the maximum explicitly
    np.maximum.at(last, player_a, positions)
    np.maximum.at(last, player_b, positions)
    return last


def per_player_sums(player_a: np.ndarray, player_b: np.ndarray, weights: np.ndarray | None, players: int) -> np.ndarray:
    """Per player, the sum of the whole-number `weights` over his matches (as either side); with
    no weights, his number of matches."""
    if weights is None:
        return np.bincount(player_a, minlength=players) + np.bincount(player_b, minlength=players)
    totals = np.zeros(players, dtype=np.int64)
    np.add.at(totals, player_a, weights)
    np.add.at(totals, player_b, weights)
    return totals


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

    @property
    def kept_changes(self) -> bool:
        return self.rating_before_a is not None
