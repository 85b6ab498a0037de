"""Writing a run's rows: rating changes, current ratings and the players' states at checkpoints
(binary COPY on PostgreSQL, `bulk_create` elsewhere), the run's heartbeat between them, and the
publish that makes a run's rows the ratings readers see."""

from __future__ import annotations

from datetime import UTC
from itertools import repeat

import numpy as np

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from ..models import (
    Rating,
    RatingChange,
    RatingCheckpoint,
    RatingPending,
    RatingPlayerState,
    RatingRun,
    RatingSystemState,
    RunStage,
    RunStatus,
)
from .history import RatedHistory

WRITE_CHUNK = 100_000
"""Rating changes written between two heartbeats."""

BULK_BATCH = 1_000
"""Rows per INSERT where COPY is not available."""

SQLITE_SLICE = 5_000
"""Rows a full run writes or deletes per transaction on SQLite (outside a transaction of its
own): SQLite has one writer at a time, and a Save waits for one slice (tens of milliseconds),
not for a whole run's rows (seconds)."""


class RunLostError(RuntimeError):
    """The run was superseded while it worked (its heartbeat went stale): it must not publish."""


def touch(run_id: int, **fields) -> None:
    """Write progress to a running run (its own short transaction); a run that is no longer
    running has been superseded and must stop."""
    if not RatingRun.objects.filter(pk=run_id, status=RunStatus.RUNNING).update(heartbeat_at=timezone.now(), **fields):
        raise RunLostError(f"Run {run_id} was superseded while it worked.")


def report_progress(run_id: int, done: int, total: int) -> None:
    """The engine's progress callback: matches rated so far."""
    touch(run_id, matches_done=done, matches_total=total)


CHANGE_COLUMNS = (
    "run_id", "sequence", "match_id", "player_id", "opponent_id", "played_on", "length", "won",
    "rating_before", "rating_after", "deviation_before", "deviation_after", "expected",
)

RATING_COLUMNS = (
    "run_id", "system", "player_id", "rating", "deviation", "volatility", "experience", "matches",
    "last_played", "provisional",
)

def _copy_rows(model, columns: tuple[str, ...], values: dict, rows: int) -> None:
    """Write `rows` rows with PostgreSQL's binary COPY, as psycopg's typed rows.

    `values` maps each column to (PostgreSQL type, array or scalar, or None for NULL);
    timestamps are microseconds since 1970 UTC; a scalar (a text, a run's id) is every row's."""
    lists = _column_lists(values, columns, rows)
    name = connection.ops.quote_name(model._meta.db_table)
    names = ", ".join(connection.ops.quote_name(model._meta.get_field(c).column) for c in columns)
    with connection.cursor() as cursor:
        with cursor.copy(f"COPY {name} ({names}) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types([values[column][0] for column in columns])
            for row in zip(*(lists[c] for c in columns)):
                copy.write_row(row)


def _change_values(run_id: int, history: RatedHistory, result, rows: np.ndarray, first_sequence: int = 0) -> dict:
    """The columns of the rating changes numbered `rows`: row 2·i is player A's change in match
    i, row 2·i + 1 player B's."""
    match = rows // 2
    b_side = (rows % 2).astype(bool)
    a_index = history.player_a[match]
    b_index = history.player_b[match]
    player = history.players[np.where(b_side, b_index, a_index)]
    opponent = history.players[np.where(b_side, a_index, b_index)]

    def side(name):
        return np.where(b_side, getattr(result, f"{name}_b")[match], getattr(result, f"{name}_a")[match])

    deviations = result.deviation is not None
    return {
        "run_id": ("int8", run_id),
        "sequence": ("int4", match + first_sequence),
        "match_id": ("int8", history.match_ids[match]),
        "player_id": ("int8", player),
        "opponent_id": ("int8", opponent),
        "played_on": ("timestamptz", history.played_on[match]),
        "length": ("int2", history.lengths[match]),
        "won": ("bool", history.a_won[match] != b_side),
        "rating_before": ("float8", side("rating_before")),
        "rating_after": ("float8", side("rating_after")),
        "deviation_before": ("float8", side("deviation_before") if deviations else None),
        "deviation_after": ("float8", side("deviation_after") if deviations else None),
        "expected": ("float8", side("expected")),
    }


def _column_lists(values: dict, columns: tuple[str, ...], rows: int) -> dict:
    """Each column as a list (or an iterator repeating a constant) of Python values, timestamps
    (microseconds since 1970) as UTC datetimes."""
    lists = {}
    for column in columns:
        kind, value = values[column]
        if value is None or np.ndim(value) == 0:
            constant = value.item() if hasattr(value, "item") else value
            lists[column] = repeat(constant, rows)
        elif kind == "timestamptz":  # numpy makes the datetimes, in C
            micros = np.asarray(value, dtype=np.int64).astype("datetime64[us]").tolist()
            lists[column] = [moment.replace(tzinfo=UTC) for moment in micros]
        else:
            lists[column] = value.tolist()
    return lists


def _rows(values: dict, columns: tuple[str, ...], rows: int):
    """Row dicts from column values (for `bulk_create`), timestamps as datetimes."""
    lists = _column_lists(values, columns, rows)
    return [dict(zip(columns, row)) for row in zip(*(lists[c] for c in columns))]


def _write(model, columns: tuple[str, ...], values: dict, rows: int) -> None:
    """Write the rows: binary COPY on PostgreSQL; `bulk_create` elsewhere, on SQLite outside a
    transaction in slices of SQLITE_SLICE rows, each committed on its own (a run's rows are
    nobody's until it publishes, so a slice alone is never seen)."""
    if connection.vendor == "postgresql":
        _copy_rows(model, columns, values, rows)
        return
    objects = [model(**row) for row in _rows(values, columns, rows)]
    step = SQLITE_SLICE if connection.vendor == "sqlite" and not connection.in_atomic_block else len(objects) or 1
    for start in range(0, len(objects), step):
        model.objects.bulk_create(objects[start:start + step], batch_size=BULK_BATCH)


def _delete(queryset) -> None:
    """Delete the rows of `queryset`: at once, but on SQLite outside a transaction in slices of
    SQLITE_SLICE rows, each its own short write transaction."""
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        queryset.delete()
        return
    while ids := list(queryset.values_list("pk", flat=True)[:SQLITE_SLICE]):
        queryset.model.objects.filter(pk__in=ids).delete()


def store_changes(run: RatingRun, history: RatedHistory, result) -> None:
    """Write the run's rating changes for every match of `history`, in chunks (binary COPY on
    PostgreSQL, `bulk_create` elsewhere), touching the heartbeat between them.

    Rows go in the order of the `rating_change_history` index, (player, sequence): each lands
    at the right edge of the index, which PostgreSQL appends to cheaply, and a player's history
    lies together in the table."""
    order, _ = changes_by_player(history)
    for start in range(0, len(order), 2 * WRITE_CHUNK):
        rows = order[start : start + 2 * WRITE_CHUNK]
        write_changes(run.pk, history, result, rows)
        touch(run.pk)


def write_changes(run_id: int, history: RatedHistory, result, rows: np.ndarray, first_sequence: int = 0) -> None:
    """Write the rating changes numbered `rows` (`_change_values`) under the run `run_id`: a run's
    own, or the published run's that a rerun from a checkpoint rewrites."""
    _write(RatingChange, CHANGE_COLUMNS, _change_values(run_id, history, result, rows, first_sequence), len(rows))


def changes_by_player(history: RatedHistory) -> tuple[np.ndarray, np.ndarray]:
    """The rating changes' numbers (2·i player A's in match i, 2·i + 1 player B's) in the order
    of the `rating_change_history` index, (player, sequence), and each one's player (index)."""
    sides = np.empty(2 * len(history), dtype=np.int64)
    sides[0::2] = history.player_a
    sides[1::2] = history.player_b
    return np.argsort(sides, kind="stable"), sides


def write_ratings(run_id: int, system: str, players: np.ndarray, result, last_played: np.ndarray,
                   chosen: np.ndarray | None = None) -> None:
    """Write the current ratings of `players` (those `chosen`, a mask, or all) from a run's result."""
    def pick(column):
        return column if column is None or chosen is None else column[chosen]

    count = len(players) if chosen is None else int(chosen.sum())
    if not count:
        return
    values = {
        "run_id": ("int8", run_id),
        "system": ("text", system),
        "player_id": ("int8", pick(players)),
        "rating": ("float8", pick(result.rating)),
        "deviation": ("float8", pick(result.deviation)),
        "volatility": ("float8", pick(result.volatility)),
        "experience": ("int4", pick(result.experience)),
        "matches": ("int4", pick(result.matches)),
        "last_played": ("timestamptz", pick(last_played)),
        "provisional": ("bool", pick(result.provisional)),
    }
    _write(Rating, RATING_COLUMNS, values, count)


def store_ratings(run: RatingRun, history: RatedHistory, result) -> None:
    """Write the run's current ratings."""
    write_ratings(run.pk, run.system, history.players, result, history.played_on[result.last_match])
    touch(run.pk, players=len(history.players))


def publish(run: RatingRun) -> None:
    """Make the run's rows the published ratings of its system, in one short transaction:
    readers see the previous run's rows until it commits and this run's rows after."""
    now = timezone.now()
    with transaction.atomic():
        # the system's state row first, as a claim locks it: a claim that held it while waiting
        # for this run's row to leave "running" would otherwise deadlock with this transaction
        RatingSystemState.objects.select_for_update().filter(system=run.system).first()
        done = RatingRun.objects.filter(pk=run.pk, status=RunStatus.RUNNING).update(
            status=RunStatus.DONE, stage=RunStage.PUBLISHED, published=True, finished_at=now, heartbeat_at=now
        )
        if done != 1:
            raise RunLostError(f"Run {run.pk} was superseded before it could publish.")
        RatingRun.objects.filter(system=run.system, published=True).exclude(pk=run.pk).update(published=False)
        RatingSystemState.objects.filter(system=run.system).update(published_run=run)
        RatingPending.objects.filter(system=run.system, run_id=run.pk).delete()


def discard_unpublished_rows(system: str) -> None:
    """Delete the rows of every run of `system` except the published one and a running one."""
    keep = RatingRun.objects.filter(system=system).filter(Q(published=True) | Q(status=RunStatus.RUNNING))
    stale = list(RatingRun.objects.filter(system=system).exclude(pk__in=keep.values("pk")).values_list("pk", flat=True))
    _delete(Rating.objects.filter(run_id__in=stale))
    _delete(RatingChange.objects.filter(run_id__in=stale))
    delete_checkpoints(RatingCheckpoint.objects.filter(run_id__in=stale))


def delete_checkpoints(checkpoints) -> None:
    """Delete the checkpoints (a queryset) and the players' states they hold."""
    ids = list(checkpoints.values_list("pk", flat=True))
    if ids:
        _delete(RatingPlayerState.objects.filter(checkpoint_id__in=ids))
        RatingCheckpoint.objects.filter(pk__in=ids).delete()


STATE_COLUMNS = (
    "checkpoint_id", "player_id", "value_0", "value_1", "value_2", "value_3", "value_4", "experience", "matches",
    "last_played",
)


def write_states(checkpoint_id: int, settled, players: np.ndarray, state: dict, last_played: np.ndarray,
                  chosen: np.ndarray) -> None:
    """Write the state of the `chosen` players (a mask over `players`) at a checkpoint."""
    rows = int(chosen.sum())
    if not rows:
        return
    values = {"checkpoint_id": ("int8", checkpoint_id), "player_id": ("int8", players[chosen])}
    for number in range(5):
        name = settled.state_floats[number] if number < len(settled.state_floats) else None
        values[f"value_{number}"] = ("float8", state[name][chosen] if name else None)
    values["experience"] = ("int8", state["experience"][chosen])
    values["matches"] = ("int4", state["matches"][chosen])
    values["last_played"] = ("timestamptz", last_played[chosen])
    _write(RatingPlayerState, STATE_COLUMNS, values, rows)


def player_rows(model, where: str, params: list, players: list[int], *, inside: bool = True) -> tuple[str, list]:
    """A WHERE clause on `model`'s table: `where` and the player among (or, not `inside`, not
    among) `players`: one array parameter on PostgreSQL, a list of placeholders elsewhere."""
    column = connection.ops.quote_name("player_id")
    if connection.vendor == "postgresql":
        test = f"{column} = ANY(%s::bigint[])" if inside else f"{column} <> ALL(%s::bigint[])"
        return f"{where} AND {test}", [*params, players]
    marks = ", ".join(["%s"] * len(players)) or "NULL"
    return f"{where} AND {column} {'IN' if inside else 'NOT IN'} ({marks})", [*params, *players]


def delete_player_rows(model, where: str, params: list, players: list[int]) -> None:
    """Delete the rows of `model` matching `where` whose player is among `players`."""
    table = connection.ops.quote_name(model._meta.db_table)
    chunk = len(players) or 1 if connection.vendor == "postgresql" else 10_000
    for start in range(0, max(len(players), 1), chunk):
        clause, values = player_rows(model, where, params, players[start:start + chunk])
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {table} WHERE {clause}", values)


def delete_changes_since(run_id: int, players: np.ndarray, since: np.ndarray) -> None:
    """Delete the run's rating changes of each of `players` numbered `since` (his) or later."""
    if not len(players):
        return
    table = connection.ops.quote_name(RatingChange._meta.db_table)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"DELETE FROM {table} AS c USING unnest(%s::bigint[], %s::bigint[]) AS d (player, since) "
                "WHERE c.run_id = %s AND c.player_id = d.player AND c.sequence >= d.since AND c.sequence >= %s",
                [players.tolist(), since.tolist(), run_id, int(since.min())],
            )
        else:
            cursor.executemany(
                f"DELETE FROM {table} WHERE run_id = %s AND player_id = %s AND sequence >= %s",
                [(run_id, player, first) for player, first in zip(players.tolist(), since.tolist())],
            )


def holds_published(run: RatingRun, published: int) -> bool:
    """Inside a transaction: lock the system's state row and tell whether `run` is still running
    and `published` still its system's published run, so that it may write into it."""
    state_row = RatingSystemState.objects.select_for_update().get(system=run.system)
    return state_row.published_run_id == published and RatingRun.objects.filter(
        pk=run.pk, status=RunStatus.RUNNING).exists()
