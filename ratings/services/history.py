"""The rated history: every rated match in time order, loaded as arrays in one query (a binary
COPY on PostgreSQL)."""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import numpy as np

from django.db import connection
from django.db.models import FilteredRelation, Q

from analysis.models import current_analysis
from games.models import Match, MatchKindChoice, MatchStatus

from ..systems.skill import luck_adjusted_scores


@dataclass(frozen=True)
class RatedHistory:
    """The rated history as arrays, one entry per match in time order (`rated_history`).

    `played_on` is in microseconds since 1970-01-01 UTC; `player_a` and `player_b` index
    `players`, the players' primary keys. `a_score` is player A's luck-adjusted score in [0, 1]
    where GNU Backgammon has analysed the match, NaN elsewhere (what `skill` rates). A slice
    (`history[:n]`) is the first matches, with the same players."""

    match_ids: np.ndarray
    played_on: np.ndarray
    player_a: np.ndarray
    player_b: np.ndarray
    lengths: np.ndarray
    a_won: np.ndarray
    players: np.ndarray
    a_score: np.ndarray

    def __len__(self) -> int:
        return len(self.match_ids)

    def __getitem__(self, matches: slice) -> RatedHistory:
        if not isinstance(matches, slice):
            raise TypeError("a rated history is sliced by matches, history[start:stop]")
        return RatedHistory(
            self.match_ids[matches], self.played_on[matches], self.player_a[matches], self.player_b[matches],
            self.lengths[matches], self.a_won[matches], self.players, self.a_score[matches],
        )

    @property
    def days(self) -> np.ndarray:
        """Day numbers as the rating systems count them (`day_number`), UTC."""
        whole, part = np.divmod(self.played_on, MICROSECONDS_A_DAY)
        return (whole + UNIX_EPOCH_ORDINAL) + part / float(MICROSECONDS_A_DAY)

    @classmethod
    def from_columns(cls, match_ids, played_on, player_a, player_b, lengths, a_won, a_score=None) -> RatedHistory:
        """A history from its columns, players given by primary key; `a_score` NaN (or None)
        where a match is not analysed."""
        sides = np.concatenate((np.asarray(player_a, dtype=np.int64), np.asarray(player_b, dtype=np.int64)))
        players, index = np.unique(sides, return_inverse=True)
        n = len(sides) // 2
        return cls(
            np.asarray(match_ids, dtype=np.int64), np.asarray(played_on, dtype=np.int64), index[:n], index[n:],
            np.asarray(lengths, dtype=np.int64), np.asarray(a_won, dtype=bool), players,
            np.full(n, np.nan) if a_score is None else np.asarray(a_score, dtype=np.float64),
        )


MICROSECONDS_A_DAY = 86_400_000_000
UNIX_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
UNIX_EPOCH_ORDINAL = UNIX_EPOCH.toordinal()


def moment_at(microseconds: int) -> datetime:
    """The instant (UTC) `microseconds` after 1970 began, as the history keeps its dates."""
    return UNIX_EPOCH + timedelta(microseconds=microseconds)


def micros_of(moment: datetime) -> int:
    """An instant as the history keeps it: microseconds since 1970 (UTC)."""
    return (moment - UNIX_EPOCH) // timedelta(microseconds=1)


def rated_matches():
    """The rated matches, each with player A's luck-adjusted result where GNU Backgammon has
    analysed it (`luck_a__luck_adjusted_result`: one left join, through the analysis to side 0,
    player A's figures)."""
    return Match.objects.filter(
        kind=MatchKindChoice.MATCH,
        status=MatchStatus.FINISHED,
        rated=True,
        winner__isnull=False,
        forfeited_by__isnull=True,
    ).annotate(luck_a=FilteredRelation(
        "analysis__sides", condition=Q(analysis__sides__side=0) & current_analysis("analysis__", match="")
    ))


HISTORY_COLUMNS = ("id", "played_on", "player_a_id", "player_b_id", "length", "winner_id",
                   "luck_a__luck_adjusted_result")


HISTORY_TYPES = ("int8", "int8", "int8", "int8", "int2", "bool", "float8")
"""The PostgreSQL types of a history row as the COPY below sends it (none is ever null)."""

HISTORY_ROW = np.dtype([("id", np.int64), ("played_on", np.int64), ("player_a", np.int64), ("player_b", np.int64),
                        ("length", np.int64), ("a_won", bool), ("luck", np.float64)])
"""The same row as numpy keeps it: the COPY's rows go straight into one array of these."""


def _history_from_postgres(matches) -> RatedHistory:
    """The history by a binary COPY of the query, read with psycopg's typed rows."""
    sql, params = matches.order_by().values_list(*HISTORY_COLUMNS).query.sql_with_params()
    statement = (
        "COPY (SELECT h.id::int8, (extract(epoch FROM h.played_on) * 1000000)::int8, h.player_a_id::int8, "
        "h.player_b_id::int8, h.length::int2, h.winner_id = h.player_a_id, coalesce(h.luck::float8, 'NaN') "
        f"FROM ({sql}) AS h (id, played_on, player_a_id, player_b_id, length, winner_id, luck) "
        "ORDER BY h.played_on, h.id) TO STDOUT (FORMAT BINARY)"
    )
    with connection.cursor() as cursor:
        # Django's debug cursor (DEBUG, or a test counting queries) has a copy() that takes no
        # parameters: copy on psycopg's own cursor, and log the statement where Django logs
        logged = cursor.debug_sql(statement, params) if hasattr(cursor, "debug_sql") else nullcontext()
        with logged, cursor.cursor.copy(statement, params) as copy:
            copy.set_types(HISTORY_TYPES)
            rows = np.fromiter(copy.rows(), dtype=HISTORY_ROW)
    ids, played_on, player_a, player_b, lengths, a_won, luck = (np.ascontiguousarray(rows[name])
                                                                 for name in HISTORY_ROW.names)
    del rows
    return RatedHistory.from_columns(ids, played_on, player_a, player_b, lengths, a_won, luck_adjusted_scores(luck))


def rated_history(*, after: tuple[datetime, int] | None = None) -> RatedHistory:
    """Every rated match in time order, in one query: finished (not forfeited) matches to N
    points marked rated, with a winner, ordered by (played_on, id), with player A's
    luck-adjusted score where the match is analysed. With `after` (played_on, match id), only
    the matches ordered after it."""
    matches = rated_matches()
    if after is not None and after[0] is not None:
        on, match_id = after
        matches = matches.filter(Q(played_on__gt=on) | Q(played_on=on, id__gt=match_id))
    if connection.vendor == "postgresql":
        return _history_from_postgres(matches)
    rows = matches.order_by("played_on", "id").values_list(*HISTORY_COLUMNS)
    columns = list(zip(*rows)) or [()] * 7
    ids, played_on, player_a, player_b, lengths, winners, luck = columns
    micros = [(moment - UNIX_EPOCH) // timedelta(microseconds=1) for moment in played_on]
    luck = np.array([np.nan if value is None else value for value in luck], dtype=np.float64)
    return RatedHistory.from_columns(
        ids, micros, player_a, player_b, lengths, [w == a for w, a in zip(winners, player_a)],
        luck_adjusted_scores(luck),
    )
