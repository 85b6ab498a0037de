"""Writes to ratings: requesting, claiming, running and publishing recomputes; importing results.

How a recompute goes:

1. `rating_recompute_request` counts a request for each system and, unless a run is already
   queued, creates a queued `RatingRun` and enqueues the Celery task once the transaction
   commits. A burst of results therefore queues one run.
2. The task calls `rating_run_process`, which claims the run (`rating_run_claim`: a conditional
   UPDATE from queued to running; a partial unique index allows one running run per system,
   so a second worker's claim fails and that run is marked superseded).
3. `rating_run_execute` loads the rated history in one query, rates it with the system's
   engine, writes the new rows tagged with the run (COPY on PostgreSQL, `bulk_create`
   elsewhere), and publishes by flipping the system's published-run pointer in one short
   transaction. Old rows are deleted afterwards. Progress and a heartbeat are written to the
   run row every 10,000 matches, each in its own short transaction.
4. If requests arrived while it ran, the same worker goes again.

A run that raises is marked failed and its rows deleted; the published ratings stay as they
were. A run whose worker died keeps its heartbeat still; once it is stale the next claim, or the
periodic check `rating_recompute_owed`, supersedes it and rates what is owed.
The recompute deliberately does not run in one transaction: the rows it writes are invisible
until the pointer flips, and a long transaction would hold back PostgreSQL's vacuum and hide
progress from readers.
"""

from __future__ import annotations

import csv
import hashlib
import io
import logging
import time
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from datetime import time as time_of_day
from contextlib import contextmanager, nullcontext
from functools import partial
from itertools import repeat

import numpy as np

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import F, FilteredRelation, Q
from django.utils import timezone

from analysis.models import current_analysis
from config.errors import ConflictError
from games.engine.errors import ScoringError
from games.engine.final_score import check_final_score
from games.imports import ImportProblems
from games.jobs import stale_after
from games.models import Match, MatchKindChoice, MatchStatus
from games.permissions import is_rating_officer
from games.services import AmbiguousNamesError, NearNamesError, did_you_mean, players_get_or_create_by_names

from ..models import (
    ChangeKind,
    OfficialList,
    OfficialListRow,
    Rating,
    RatingChange,
    RatingCheckpoint,
    RatingPending,
    RatingPlayerState,
    RatingRun,
    RatingSystemState,
    RunStage,
    RunStatus,
    SystemChoice,
)
from ..calibrated import system_in_force
from ..systems import SYSTEMS
from ..systems.batches import HistoryArrays
from ..systems.resume import PiecewiseRun, rate_in_pieces
from ..systems.skill import luck_adjusted_scores

WRITE_CHUNK = 100_000
"""Rating changes written between two heartbeats."""

BULK_BATCH = 1_000
"""Rows per INSERT where COPY is not available."""


logger = logging.getLogger("ratings.recompute")


class RunLostError(RuntimeError):
    """The run was superseded while it worked (its heartbeat went stale): it must not publish."""




def enabled_systems() -> list[str]:
    """The systems this site computes and shows: fibs and crawford, and skill (crawford,
    luck-adjusted) where `RATINGS_LUCK_ADJUSTED` is on."""
    luck = getattr(settings, "RATINGS_LUCK_ADJUSTED", False)
    return [name for name in SYSTEMS if luck or name != SystemChoice.SKILL]


def system_labels() -> dict[str, str]:
    """Each enabled system's name and label, in the order the pages show them."""
    labels = dict(SystemChoice.choices)
    return {name: labels[name] for name in enabled_systems()}


def default_system() -> str:
    """The system the site shows where one rating stands for a player (the rating list, the TD's
    desk, seeding by rating): `RATINGS_DEFAULT_SYSTEM` when it is enabled, else crawford."""
    wanted = getattr(settings, "RATINGS_DEFAULT_SYSTEM", SystemChoice.CRAWFORD.value)
    return wanted if wanted in enabled_systems() else SystemChoice.CRAWFORD.value


def system_names(system: str | None = None) -> list[str]:
    """The systems a request is about: the one named, or all enabled. Raises `ValidationError`
    on a name no system goes by, or one this site does not compute."""
    enabled = enabled_systems()
    if system in (None, "", "all"):
        return enabled
    if system not in SYSTEMS:
        known = ", ".join(sorted(enabled))
        raise ValidationError({"system": [f"no rating system is called {system!r}; known systems: {known}"]})
    if system not in enabled:
        raise ValidationError({"system": [f"the rating system {system!r} is not enabled on this site"]})
    return [system]


def _state(system: str) -> RatingSystemState:
    state, _ = RatingSystemState.objects.get_or_create(system=system)
    return state


# -- requesting ----------------------------------------------------------------------------------


def _enqueue(run_id: int) -> None:
    """Send the run to a worker. Nothing that goes wrong here fails the write that asked for
    the run (the result is committed by then). A broker that cannot be reached: the run is
    marked superseded with the reason, the system is free to queue the next request at once,
    and the periodic check (`rating_recompute_owed`) rates what is owed once the broker is
    back. Without a broker the run executes in-process, after the response when a request
    asked for it (`background`); one that raises has marked itself failed, and the next result
    tries again."""
    from kombu.exceptions import OperationalError as BrokerUnreachableError

    from .. import background
    from ..tasks import ratings_recompute

    if ratings_recompute.app.conf.task_always_eager and background.after_response(
        partial(ratings_recompute.apply, args=(run_id,))
    ):
        return
    try:
        ratings_recompute.delay(run_id)
    except BrokerUnreachableError as error:
        logger.warning("rating run %s could not be sent to a worker: %s", run_id, error)
        run = RatingRun.objects.filter(pk=run_id, status=RunStatus.QUEUED).values("system", "requested_at").first()
        if run is None:
            return
        RatingRun.objects.filter(pk=run_id, status=RunStatus.QUEUED).update(
            status=RunStatus.SUPERSEDED,
            finished_at=timezone.now(),
            error=f"It could not be sent to a worker ({error}); the periodic check or the next result runs it.",
        )
        RatingSystemState.objects.filter(system=run["system"], queued_at=run["requested_at"]).update(queued_at=None)
    except Exception:
        logger.exception("rating run %s failed in-process", run_id)


def _pending_write(names: list[str], matches: list[int] | None, kind: str) -> None:
    """Write the outbox rows of a change, in the caller's transaction: one per system per match
    (one per system naming no match when `matches` is None)."""
    RatingPending.objects.bulk_create(
        [RatingPending(system=name, match_id=match_id, kind=kind) for name in names for match_id in (matches or [None])]
    )


def rating_recompute_request(*, system: str | None = None, matches: list[int] | None = None,
                             kind: str = ChangeKind.REQUESTED) -> list[RatingRun]:
    """Ask for a recompute of `system` (all systems by default).

    `matches` names the matches whose results changed, so that the run can rate only what
    follows the change (`rating_run_execute`); without it the run rates the whole history.
    Writes the change to the outbox (`RatingPending`), counts the request; a run already queued
    answers it, otherwise a new queued run is created and the task is enqueued when the
    surrounding transaction commits. Returns the runs queued now (empty when the request joined
    queued runs)."""
    names = system_names(system)
    with transaction.atomic():
        _pending_write(names, matches, kind)
        return _runs_queue(names)


def _runs_queue(names: list[str]) -> list[RatingRun]:
    """Count a request for each system and queue a run unless one is queued already; the runs'
    messages go once the transaction commits. The changes themselves are in the outbox by now."""
    now = timezone.now()
    queued = []
    with transaction.atomic():
        for name in names:
            _state(name)
            RatingSystemState.objects.filter(system=name).update(requested=F("requested") + 1)
            free = Q(queued_at__isnull=True) | Q(queued_at__lt=now - stale_after())
            if RatingSystemState.objects.filter(free, system=name).update(queued_at=now) == 1:
                run = RatingRun.objects.create(system=name, requested_at=now)
                transaction.on_commit(partial(_enqueue, run.pk))
                queued.append(run)
    return queued


class RunsRequested:
    """What a transaction that changed the rated history does once it commits: queue a run of
    each system it changed (`_runs_queue`), once however many changes it made. Only a prompt: the
    changes are in the outbox already, and the periodic check finds them if this never runs."""

    def __init__(self, names: list[str]) -> None:
        self.names = list(names)
        self.made = False

    def __call__(self) -> None:
        self.made = True
        try:
            _runs_queue(self.names)
        except Exception:  # the change is committed and in the outbox: the check queues it
            logger.exception("runs of %s could not be queued; the periodic check will", ", ".join(self.names))


def rating_change_record(*, match_ids: list[int] | None, kind: str, systems: list[str] | None = None) -> None:
    """The rated history changed: write the change to the outbox in the caller's transaction
    (one row per system: `match_ids`, or none for a change known only as a whole), and once it
    commits queue the runs that answer it. Call it inside the transaction that makes the change."""
    names = systems or enabled_systems()
    with transaction.atomic():
        _pending_write(names, match_ids, kind)
        if connection.in_atomic_block:
            for _, func, _ in connection.run_on_commit:
                if isinstance(func, RunsRequested) and not func.made:  # one prompt per transaction
                    func.names += [name for name in names if name not in func.names]
                    return
        transaction.on_commit(RunsRequested(names))


def rating_recompute_for_match(*, match: Match, kind: str = ChangeKind.RESULT) -> None:
    """A match's result changed (entered, corrected, deleted, forfeited, voided, moved): write
    "rated match changed" to the outbox of every system in the writer's transaction; the runs
    follow once it commits. Money sessions are never rated."""
    if match.kind == MatchKindChoice.SESSION:
        return
    rating_change_record(match_ids=[match.pk], kind=kind)


def rating_recompute_for_analysis(*, match: Match) -> None:
    """A match's analysis is being stored: write the change to the outbox of the systems that
    rate by the analysis (skill, where enabled). Money sessions are never rated."""
    if match.kind == MatchKindChoice.SESSION or SystemChoice.SKILL not in enabled_systems():
        return
    rating_change_record(match_ids=None, kind=ChangeKind.ANALYSED, systems=[SystemChoice.SKILL.value])


# -- claiming ------------------------------------------------------------------------------------


def _supersede_stale(system: str, now: datetime) -> int:
    """Mark the system's running runs whose heartbeat went stale as superseded."""
    return RatingRun.objects.filter(system=system, status=RunStatus.RUNNING, heartbeat_at__lt=now - stale_after()).update(
        status=RunStatus.SUPERSEDED,
        finished_at=now,
        error="Its worker stopped reporting progress; a later run replaces it.",
    )


def _covered(state: RatingSystemState) -> int:
    """The requests the system's published ratings answer: the request counter when the
    published run was claimed (0 before any run is published). Anything above it is owed."""
    if state.published_run_id is None:
        return 0
    return RatingRun.objects.filter(pk=state.published_run_id).values_list("covers_requests", flat=True).first() or 0


def rating_run_claim(*, run: RatingRun, force: bool = False) -> RatingRun | None:
    """Claim a queued run for this worker: returns it, now running, or None when it is not
    this worker's to run (already claimed, another run of the system is running, or — unless
    `force` — the published ratings already answer every request). A running run whose
    heartbeat went stale (its worker died) is superseded first, so the claim takes over."""
    now = timezone.now()
    with transaction.atomic():
        _state(run.system)
        _supersede_stale(run.system, now)
        state = RatingSystemState.objects.select_for_update().get(system=run.system)
        state.queued_at = None
        state.save(update_fields=["queued_at"])
        queued = RatingRun.objects.filter(pk=run.pk, status=RunStatus.QUEUED)
        if (not force and state.published_run_id is not None and state.requested <= _covered(state)
                and not RatingPending.objects.filter(system=run.system).exists()):
            queued.update(status=RunStatus.SUPERSEDED, finished_at=now, error="Nothing changed since the last run.")
            return None
        try:
            with transaction.atomic():
                claimed = queued.update(
                    status=RunStatus.RUNNING,
                    stage=RunStage.LOADING,
                    started_at=now,
                    heartbeat_at=now,
                    covers_requests=state.requested,
                )
        except IntegrityError:
            queued.update(
                status=RunStatus.SUPERSEDED,
                finished_at=now,
                error="Another run of this system was running; it goes again for the requests it missed.",
            )
            return None
        if claimed != 1:
            return None
        state.claimed = state.requested
        state.save(update_fields=["claimed"])
        # every change not yet published is this run's to answer, those of runs that died too
        RatingPending.objects.filter(system=run.system).update(run_id=run.pk)
    return RatingRun.objects.get(pk=run.pk)


# -- running -------------------------------------------------------------------------------------


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


def _moment(microseconds: int) -> datetime:
    return UNIX_EPOCH + timedelta(microseconds=microseconds)


def _rated_matches():
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
    matches = _rated_matches()
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


ACCOUNT_MODULUS = 2_147_483_647
"""Each match's term of the history checksum is below this prime, so a sum of ten million fits."""


@dataclass(frozen=True)
class HistoryAccount:
    """What a rated history amounts to, cheaply: how many matches, and the sum of one term per
    match (`account_term`) that changes with its id, players, winner, length and date. Terms add,
    so the account of a history with some matches changed is the old one minus their old terms
    plus their new ones."""

    matches: int
    checksum: int

    def __add__(self, other: HistoryAccount) -> HistoryAccount:
        return HistoryAccount(self.matches + other.matches, self.checksum + other.checksum)

    def __sub__(self, other: HistoryAccount) -> HistoryAccount:
        return HistoryAccount(self.matches - other.matches, self.checksum - other.checksum)


ACCOUNT_WEIGHTS = (1_000_003, 10_007, 101, 7, 13)
"""The weights of a match's checksum term: its id, its two players, its winner, its length and the
second it was played. `account_term` and the SQL of `history_account` are both made from them."""


def account_term(match_id, player_a, player_b, winner, length, seconds):
    """One match's term of the checksum (numbers, or numpy arrays of them, term by term); `seconds`
    since 1970 (UTC, rounded down) it was played."""
    w_id, w_players, w_winner, w_length, w_seconds = ACCOUNT_WEIGHTS
    return (match_id * w_id + (player_a + player_b) * w_players + winner * w_winner + length * w_length
            + seconds * w_seconds) % ACCOUNT_MODULUS


def _account_of_arrays(history: RatedHistory) -> HistoryAccount:
    """The account of a loaded history (numpy, as the SQL computes it)."""
    if not len(history):
        return HistoryAccount(0, 0)
    a = history.players[history.player_a]
    b = history.players[history.player_b]
    winner = np.where(history.a_won, a, b)
    seconds = np.floor_divide(history.played_on, 1_000_000)
    terms = account_term(history.match_ids, a, b, winner, history.lengths, seconds)
    return HistoryAccount(len(history), int(terms.sum()))


def history_account() -> HistoryAccount:
    """The account of the rated history as it stands, in one aggregate query."""
    sql, params = _rated_matches().order_by().values_list(
        "id", "played_on", "player_a_id", "player_b_id", "length", "winner_id").query.sql_with_params()
    if connection.vendor == "postgresql":
        seconds = "floor(extract(epoch FROM h.played_on))::int8"
    else:
        seconds = "CAST(strftime('%%s', h.played_on) AS INTEGER)"
    w_id, w_players, w_winner, w_length, w_seconds = ACCOUNT_WEIGHTS
    term = (f"(h.id * {w_id} + (h.player_a_id + h.player_b_id) * {w_players} + h.winner_id * {w_winner} "
            f"+ h.length * {w_length} + {seconds} * {w_seconds}) %% {ACCOUNT_MODULUS}")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*), coalesce(sum({term}), 0) FROM ({sql}) AS h", params)
        matches, checksum = cursor.fetchone()
    return HistoryAccount(int(matches), int(checksum))


def _account_of_results(results: dict[int, set]) -> HistoryAccount:
    """The account of some matches' results, each given as the set of its two sides (player,
    opponent, played_on, length, won), as `_resume_point` reads them; a match with none is absent."""
    total = HistoryAccount(0, 0)
    for match_id, sides in results.items():
        if not sides:
            continue
        player, opponent, on, length, won = next(iter(sides))
        seconds = (on - UNIX_EPOCH) // timedelta(seconds=1)
        term = account_term(match_id, player, opponent, player if won else opponent, length, seconds)
        total += HistoryAccount(1, term)
    return total


@contextmanager
def _one_snapshot():
    """A transaction whose reads all see one moment (REPEATABLE READ on PostgreSQL; SQLite's
    transactions do already): the outbox a run answers, the history's account and the history
    it rates agree. Outside a transaction only; inside one (a test's) it is a savepoint."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def _touch(run_id: int, **fields) -> None:
    """Write progress to a running run (its own short transaction); a run that is no longer
    running has been superseded and must stop."""
    if not RatingRun.objects.filter(pk=run_id, status=RunStatus.RUNNING).update(heartbeat_at=timezone.now(), **fields):
        raise RunLostError(f"Run {run_id} was superseded while it worked.")


def report_progress(run_id: int, done: int, total: int) -> None:
    """The engine's progress callback: matches rated so far."""
    _touch(run_id, matches_done=done, matches_total=total)


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
    if connection.vendor == "postgresql":
        _copy_rows(model, columns, values, rows)
    else:
        model.objects.bulk_create((model(**row) for row in _rows(values, columns, rows)), batch_size=BULK_BATCH)


def store_changes(run: RatingRun, history: RatedHistory, result) -> None:
    """Write the run's rating changes for every match of `history`, in chunks (binary COPY on
    PostgreSQL, `bulk_create` elsewhere), touching the heartbeat between them.

    Rows go in the order of the `rating_change_history` index, (player, sequence): each lands
    at the right edge of the index, which PostgreSQL appends to cheaply, and a player's history
    lies together in the table."""
    order, _ = _changes_by_player(history)
    for start in range(0, len(order), 2 * WRITE_CHUNK):
        rows = order[start : start + 2 * WRITE_CHUNK]
        _write(RatingChange, CHANGE_COLUMNS, _change_values(run.pk, history, result, rows), len(rows))
        _touch(run.pk)


def _changes_by_player(history: RatedHistory) -> tuple[np.ndarray, np.ndarray]:
    """The rating changes' numbers (2·i player A's in match i, 2·i + 1 player B's) in the order
    of the `rating_change_history` index, (player, sequence), and each one's player (index)."""
    sides = np.empty(2 * len(history), dtype=np.int64)
    sides[0::2] = history.player_a
    sides[1::2] = history.player_b
    return np.argsort(sides, kind="stable"), sides


def _write_ratings(run_id: int, system: str, players: np.ndarray, result, last_played: np.ndarray,
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
    _write_ratings(run.pk, run.system, history.players, result, history.played_on[result.last_match])
    _touch(run.pk, players=len(history.players))


def publish(run: RatingRun) -> None:
    """Make the run's rows the published ratings of its system, in one short transaction:
    readers see the previous run's rows until it commits and this run's rows after."""
    now = timezone.now()
    with transaction.atomic():
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
    Rating.objects.filter(run_id__in=stale).delete()
    RatingChange.objects.filter(run_id__in=stale).delete()
    _delete_checkpoints(RatingCheckpoint.objects.filter(run_id__in=stale))


def _delete_checkpoints(checkpoints) -> None:
    ids = list(checkpoints.values_list("pk", flat=True))
    if ids:
        RatingPlayerState.objects.filter(checkpoint_id__in=ids).delete()
        RatingCheckpoint.objects.filter(pk__in=ids).delete()


class _StageClock:
    """Logs how long each stage of a run took (logger `ratings.recompute`, level INFO)."""

    def __init__(self, run: RatingRun) -> None:
        self.run = run
        self.started = time.perf_counter()

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        logger.info("%s run %s: %s took %.2f s", self.run.system, self.run.pk, stage, now - self.started,
                    extra={"run": self.run.pk, "stage": stage, "seconds": now - self.started})
        self.started = now


def _fail(run: RatingRun, error: BaseException) -> None:
    RatingRun.objects.filter(pk=run.pk, status=RunStatus.RUNNING).update(
        status=RunStatus.FAILED, finished_at=timezone.now(), error=f"{type(error).__name__}: {error}"[:2000]
    )
    Rating.objects.filter(run_id=run.pk).delete()
    RatingChange.objects.filter(run_id=run.pk).delete()
    _delete_checkpoints(RatingCheckpoint.objects.filter(run_id=run.pk))


def rating_run_execute(*, run: RatingRun, full: bool = False) -> RatingRun:
    """Rate for a claimed (running) run and publish it: only what follows the changes it
    answers when a stored state allows (`_resume_point`, `_execute_from`), else (or with
    `full`) the whole history. On any error the run is marked failed, its rows are deleted and
    the error is raised again; the published ratings stay as they were."""
    try:
        clock = _StageClock(run)
        with _one_snapshot():
            # changes committed since the claim are this run's too: it rates them
            RatingPending.objects.filter(system=run.system, run_id__isnull=True).update(run_id=run.pk)
            resume = None if full else _resume_point(run)
            if resume is not None:
                suffix = rated_history(after=(resume.checkpoint.after_on, resume.checkpoint.after_match_id))
                last = _rated_matches().order_by("-played_on", "-id").values_list("played_on", "id").first()
            else:
                history = rated_history()
        if resume is not None:
            _execute_from(run, resume, suffix, last, clock)
            run.refresh_from_db()
            return run
        clock.lap("load")
        _touch(run.pk, stage=RunStage.RATING, matches_total=len(history))
        system = system_in_force(run.system)  # this site's adopted parameters, if any
        arrays = _arrays(history, system)
        settled = system.settled_for(arrays)
        moments = _checkpoint_starts(history.played_on, None)
        cuts = np.searchsorted(history.played_on, [_micros(m) for m in moments], side="left")
        pieces = rate_in_pieces(settled, arrays, settled.new_state(len(history.players)), cuts.tolist(),
                                partial(report_progress, run.pk))
        result = _as_run(settled, pieces)
        clock.lap("compute")
        _touch(run.pk, stage=RunStage.WRITING)
        store_ratings(run, history, result)
        store_changes(run, history, result)
        _store_checkpoints(run.pk, settled, history, pieces, moments, cuts.tolist())
        account = _account_of_arrays(history)
        RatingRun.objects.filter(pk=run.pk).update(history_matches=account.matches, history_checksum=account.checksum)
        clock.lap("write")
        publish(run)
        clock.lap("publish")
    except BaseException as error:
        _fail(run, error)
        raise
    discard_unpublished_rows(run.system)
    clock.lap("discard")
    run.refresh_from_db()
    return run


# -- incremental publishing: checkpoints and reruns from them --------------------------------------


def checkpoint_months() -> int:
    """How many month checkpoints a system keeps (a change reaching further back reruns in full)."""
    return settings.RATINGS_CHECKPOINT_MONTHS


def _micros(moment: datetime) -> int:
    return (moment - UNIX_EPOCH) // timedelta(microseconds=1)


def _arrays(history: RatedHistory, system) -> HistoryArrays:
    """The history as the engine reads it: with player A's luck-adjusted scores for a system
    scored by luck (NaN where the winner counts), with the winner alone for the others."""
    return HistoryArrays.build(
        history.match_ids, history.days, history.player_a, history.player_b, history.lengths, history.a_won,
        len(history.players), a_score=history.a_score if getattr(system, "scored_by_luck", False) else None,
    )


def _as_run(settled, pieces):
    """A piecewise run in the shape `store_ratings` and `store_changes` read."""
    from ..systems.batches import ArrayRun

    rating, deviation, volatility, provisional = settled.public_of(pieces.state)
    return ArrayRun(
        settled.name, rating, deviation, volatility, pieces.state["experience"], pieces.state["matches"],
        pieces.last_match, provisional, **pieces.changes,
    )


def checkpoint_days() -> int:
    """How many day checkpoints a system keeps (a result entered late reruns from its day)."""
    return settings.RATINGS_CHECKPOINT_DAYS


def _is_month_start(moment: datetime) -> bool:
    return moment.day == 1 and moment.time() == time_of_day()


def _checkpoint_starts(played_on: np.ndarray, after: datetime | None) -> list[datetime]:
    """Where checkpoints stand among the matches after `after` (the history's first match when
    None): the first instants (UTC) of the last `checkpoint_months()` months and of the last
    `checkpoint_days()` days that fall after it and not after the history's last match."""
    if not len(played_on):
        return []
    first = after if after is not None else _moment(int(played_on[0]))
    last = _moment(int(played_on[-1]))
    day = datetime(first.year, first.month, first.day, tzinfo=UTC) + timedelta(days=1)
    days, months = [], []
    while day <= last:
        days.append(day)
        if day.day == 1:
            months.append(day)
        day += timedelta(days=1)
    kept = set(months[-checkpoint_months():] if checkpoint_months() else [])
    kept |= set(days[-checkpoint_days():] if checkpoint_days() else [])
    return sorted(kept)


def _prune_checkpoints(run_id: int) -> None:
    """Keep the run's head, its latest `checkpoint_months()` month checkpoints and its latest
    `checkpoint_days()` day checkpoints."""
    standing = list(RatingCheckpoint.objects.filter(run_id=run_id, head=False).order_by("-after_on")
                    .values_list("pk", "after_on"))
    months = [pk for pk, on in standing if _is_month_start(on)][:checkpoint_months()]
    days = [pk for pk, _ in standing][:checkpoint_days()]
    keep = set(months) | set(days)
    _delete_checkpoints(RatingCheckpoint.objects.filter(pk__in=[pk for pk, _ in standing if pk not in keep]))


STATE_COLUMNS = (
    "checkpoint_id", "player_id", "value_0", "value_1", "value_2", "value_3", "value_4", "experience", "matches",
    "last_played",
)


def _write_states(checkpoint_id: int, settled, players: np.ndarray, state: dict, last_played: np.ndarray,
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


def _last_played(history: RatedHistory, last_match: np.ndarray, before: np.ndarray) -> np.ndarray:
    """Per player, when he last played: in the history if he played there, else `before`."""
    played = last_match >= 0
    return np.where(played, history.played_on[np.where(played, last_match, 0)] if len(history) else 0, before)


def _last_matches(history: RatedHistory, cut: int) -> np.ndarray:
    """Per player (index), his last match among the first `cut` of `history` (−1 if none)."""
    last = np.full(len(history.players), -1, dtype=np.int64)
    if cut:
        np.maximum.at(last, history.player_a[:cut], np.arange(cut))
        np.maximum.at(last, history.player_b[:cut], np.arange(cut))
    return last


def _store_checkpoints(run_id: int, settled, history: RatedHistory, pieces, moments, cuts) -> None:
    """The full run's checkpoints: one at each month start (`moments`, the history cut at
    `cuts`) and the head, after the last match."""
    key = repr(settled)
    value = settled.settled_value
    players = history.players
    for moment, cut, state in zip(moments, cuts, pieces.states_at_cuts):
        checkpoint = RatingCheckpoint.objects.create(
            run_id=run_id, sequence=cut, after_on=moment, after_match_id=-1, system_key=key, settled_value=value
        )
        last = _last_matches(history, cut)
        _write_states(checkpoint.pk, settled, players, state, _last_played(history, last, last), state["matches"] > 0)
    n = len(history)
    head = RatingCheckpoint.objects.create(
        run_id=run_id, head=True, sequence=n, after_on=_moment(int(history.played_on[-1])) if n else None,
        after_match_id=int(history.match_ids[-1]) if n else -1, system_key=key, settled_value=value,
    )
    _write_states(head.pk, settled, players, pieces.state, _last_played(history, pieces.last_match, pieces.last_match),
                  pieces.state["matches"] > 0)


@dataclass(frozen=True)
class Resume:
    """Where a run picks up: the published run, the checkpoint it reruns from, the system as
    settled there, and the players whose published rows the changes touch."""

    published_id: int
    checkpoint: RatingCheckpoint
    head: RatingCheckpoint
    settled: object
    touched: frozenset
    earliest: tuple | None = None
    shifted: bool = True
    account: HistoryAccount = HistoryAccount(0, 0)


def _resume_point(run: RatingRun) -> Resume | None:
    """Where the run can pick up instead of rating the whole history, or None.

    The run answers the pending changes it claimed. Each names a match; the match's rated
    result now and the one the published ratings hold (found by every player it ever had) are
    compared: the same, nothing to do; else both places in time order count. The run reruns
    from the latest checkpoint of the published run ordered before every such place (the head
    when the result lands at the end of history). None, for a full run, when a change names no
    match, no run is published, the published run has no checkpoints, the system's parameters
    changed since, or the change reaches into the matches that settle the system's parameters."""
    pending = list(RatingPending.objects.filter(system=run.system, run_id=run.pk).values_list("match_id", flat=True))
    if not pending or None in pending:
        return None
    published_id = RatingSystemState.objects.filter(system=run.system).values_list("published_run_id", flat=True).first()
    if published_id is None:
        return None
    checkpoints = list(RatingCheckpoint.objects.filter(run_id=published_id, ready=True).order_by(
        "-sequence", "-head", "-after_on"))
    head = next((checkpoint for checkpoint in checkpoints if checkpoint.head), None)
    system = system_in_force(run.system)  # this site's adopted parameters, if any
    if head is None or head.system_key != repr(system.settled_with(head.settled_value)):
        return None
    ids = set(pending)
    everyone: dict[int, set] = {match_id: set() for match_id in ids}
    for match_id, a, b in Match.objects.filter(id__in=ids).values_list("id", "player_a_id", "player_b_id"):
        everyone[match_id] |= {a, b}
    for match_id, a, b in Match.history.filter(id__in=ids).values_list("id", "player_a_id", "player_b_id"):
        everyone[match_id] |= {a, b}
    now: dict[int, set] = {match_id: set() for match_id in ids}
    for match_id, on, a, b, length, winner in _rated_matches().filter(id__in=ids).values_list(
        "id", "played_on", "player_a_id", "player_b_id", "length", "winner_id"
    ):
        now[match_id] = {(a, b, on, length, winner == a), (b, a, on, length, winner == b)}
    was: dict[int, set] = {match_id: set() for match_id in ids}
    players = set().union(*everyone.values())
    for match_id, player, opponent, on, length, won in RatingChange.objects.filter(
        run_id=published_id, player_id__in=players, match_id__in=ids
    ).values_list("match_id", "player_id", "opponent_id", "played_on", "length", "won"):
        was[match_id].add((player, opponent, on, length, won))
    account = history_account()
    published = RatingRun.objects.filter(pk=published_id).values_list("history_matches", "history_checksum").first()
    if published[0] is None:
        _note(run, "The published run keeps no account of its history: rating in full.")
        return None
    expected = HistoryAccount(*published) - _account_of_results(was) + _account_of_results(now)
    if expected != account:
        _note(run, f"The published ratings do not account for the rated history ({expected.matches} matches "
                   f"with the changes owed, {account.matches} rated; checksum {expected.checksum} against "
                   f"{account.checksum}): a change reached it without the outbox, so it rates in full.")
        return None
    places, touched, shifted = [], set(), False
    for match_id in ids:
        if now[match_id] == was[match_id]:
            continue  # the published ratings already hold this result
        for player, opponent, on, _, _ in now[match_id] | was[match_id]:
            places.append((on, match_id))
            touched |= {player, opponent}
        # a match added, removed or moved renumbers the matches after it
        shifted |= {on for _, _, on, _, _ in now[match_id]} != {on for _, _, on, _, _ in was[match_id]}
    earliest = min(places) if places else None
    for checkpoint in checkpoints:
        if earliest is None or checkpoint.after_on is None or (checkpoint.after_on, checkpoint.after_match_id) < earliest:
            break
    else:
        return None
    if checkpoint.system_key != head.system_key or checkpoint.sequence < system.settle_window:
        return None
    return Resume(published_id, checkpoint, head, system.settled_with(checkpoint.settled_value), frozenset(touched),
                  earliest, shifted, account)


def _note(run: RatingRun, text: str) -> None:
    """Say something in the run's log: the `ratings.recompute` logger and the run's `note`."""
    logger.warning("%s run %s: %s", run.system, run.pk, text)
    RatingRun.objects.filter(pk=run.pk).update(note=text[:2000])


def _states_at(checkpoint: RatingCheckpoint, settled, players: np.ndarray) -> tuple[dict, np.ndarray]:
    """The players' working states at the checkpoint (new players' where it has none) and when
    each last played (−2⁶³ for never)."""
    state = settled.new_state(len(players))
    last_played = np.full(len(players), np.iinfo(np.int64).min, dtype=np.int64)
    rows = RatingPlayerState.objects.filter(checkpoint_id=checkpoint.pk)
    if len(players) <= 1000:
        rows = rows.filter(player_id__in=players.tolist())
    names = settled.state_floats
    for player_id, *values, experience, matches, last in rows.values_list(
        "player_id", *(f"value_{number}" for number in range(len(names))), "experience", "matches", "last_played"
    ).iterator(chunk_size=10_000):
        i = int(np.searchsorted(players, player_id))
        if i == len(players) or players[i] != player_id:
            continue
        for name, value in zip(names, values):
            state[name][i] = value
        state["experience"][i] = experience
        state["matches"][i] = matches
        last_played[i] = _micros(last)
    return state, last_played


def _player_rows(model, where: str, params: list, players: list[int], *, inside: bool = True) -> tuple[str, list]:
    """A WHERE clause on `model`'s table: `where` and the player among (or, not `inside`, not
    among) `players`: one array parameter on PostgreSQL, a list of placeholders elsewhere."""
    column = connection.ops.quote_name("player_id")
    if connection.vendor == "postgresql":
        test = f"{column} = ANY(%s::bigint[])" if inside else f"{column} <> ALL(%s::bigint[])"
        return f"{where} AND {test}", [*params, players]
    marks = ", ".join(["%s"] * len(players)) or "NULL"
    return f"{where} AND {column} {'IN' if inside else 'NOT IN'} ({marks})", [*params, *players]


def _delete_player_rows(model, where: str, params: list, players: list[int]) -> None:
    """Delete the rows of `model` matching `where` whose player is among `players`."""
    table = connection.ops.quote_name(model._meta.db_table)
    chunk = len(players) or 1 if connection.vendor == "postgresql" else 10_000
    for start in range(0, max(len(players), 1), chunk):
        clause, values = _player_rows(model, where, params, players[start:start + chunk])
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {table} WHERE {clause}", values)


def _delete_changes_since(run_id: int, players: np.ndarray, since: np.ndarray) -> None:
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


def _changed_since(history: RatedHistory, first: int, touched: np.ndarray) -> np.ndarray:
    """Per player of `history`, the first of its matches after which his state may differ from
    the published one: `first` for the `touched` players (indexes), and for the others the first
    match where they meet a player already changed (an update reads the two players' own states
    only, so before that a player's changes and state are the published ones to the last bit);
    len(history) for a player whose state stands throughout."""
    n = len(history)
    since = [n] * len(history.players)
    for player in touched.tolist():
        since[player] = first
    for k, a, b in zip(range(first, n), history.player_a[first:].tolist(), history.player_b[first:].tolist()):
        if since[a] <= k or since[b] <= k:
            if since[a] > k:
                since[a] = k
            if since[b] > k:
                since[b] = k
    return np.array(since, dtype=np.int64)


def _holds_published(run: RatingRun, published: int) -> bool:
    """Inside a transaction: lock the system's state row and tell whether `run` is still running
    and `published` still its system's published run, so that it may write into it."""
    state_row = RatingSystemState.objects.select_for_update().get(system=run.system)
    return state_row.published_run_id == published and RatingRun.objects.filter(
        pk=run.pk, status=RunStatus.RUNNING).exists()


def _execute_from(run: RatingRun, resume: Resume, suffix: RatedHistory, last: tuple | None,
                  clock: _StageClock) -> None:
    """Rerun from the resume point's checkpoint: rate the matches ordered after it from the
    stored states, then, in one transaction, replace the published run's rows of every player
    the changes reach (`_changed_since`): his rating changes from the match that reaches him
    (every player's from the first changed match when matches are renumbered), his current
    rating and his state at the head; move the head and mark the changes answered. Readers see
    the published ratings before or after, never a mix. The checkpoints after the start are
    rewritten next (`_refresh_checkpoints`), after the ratings are published."""
    start = resume.checkpoint
    settled = resume.settled
    players = np.union1d(suffix.players, np.array(sorted(resume.touched), dtype=np.int64))
    where = np.searchsorted(players, suffix.players)
    history = RatedHistory(suffix.match_ids, suffix.played_on, where[suffix.player_a], where[suffix.player_b],
                           suffix.lengths, suffix.a_won, players, suffix.a_score)
    clock.lap("load")
    _touch(run.pk, stage=RunStage.RATING, matches_total=len(history), matches_done=0)
    state, last_before = _states_at(start, settled, players)
    moments = _checkpoint_starts(history.played_on, start.after_on)
    cuts = np.searchsorted(history.played_on, [_micros(m) for m in moments], side="left").tolist()
    pieces = rate_in_pieces(settled, _arrays(history, settled), state, cuts, partial(report_progress, run.pk))
    result = _as_run(settled, pieces)
    rated = pieces.state["matches"] > 0
    last_played = _last_played(history, pieces.last_match, last_before)
    # only the players whose state the changes reach are rewritten, each from where it is reached
    n = len(history)
    touched = np.zeros(len(players), dtype=bool)
    touched[np.searchsorted(players, np.array(sorted(resume.touched), dtype=np.int64))] = True
    if resume.earliest is None:  # no place known: every player from the checkpoint on
        first = 0
        touched[:] = True
    else:  # the matches before the earliest place are the published ones, numbered as they were
        first = int(np.searchsorted(history.played_on, _micros(resume.earliest[0]) - 1, side="left"))
    since = _changed_since(history, first, np.flatnonzero(touched))
    rows_from = np.minimum(since, first) if resume.shifted else since  # renumbered from `first`
    changed = (since < n) | touched
    rewritten = (rows_from < n) | touched
    rows, sides = _changes_by_player(history)
    rows = rows[rows // 2 >= rows_from[sides[rows]]]
    del sides
    logger.info("%s run %s: %s of %s players reached, %s of %s rating changes rewritten", run.system, run.pk,
                int(changed.sum()), len(players), len(rows), 2 * n)
    clock.lap("compute")
    _touch(run.pk, stage=RunStage.WRITING)
    published = resume.published_id
    now = timezone.now()
    with transaction.atomic():
        if not _holds_published(run, published):
            raise RunLostError(f"Run {run.pk} was superseded before it could publish.")
        _delete_changes_since(published, players[rewritten], start.sequence + rows_from[rewritten])
        if len(rows):
            _write(RatingChange, CHANGE_COLUMNS, _change_values(published, history, result, rows, start.sequence),
                   len(rows))
        clock.lap("publish: rating changes")
        _delete_player_rows(Rating, "run_id = %s", [published], players[changed].tolist())
        _write_ratings(published, run.system, players, result, last_played, rated & changed)
        clock.lap("publish: ratings")
        # the checkpoints after the start are rewritten once the ratings are published (below);
        # until then no run resumes from them
        later = RatingCheckpoint.objects.filter(run_id=published, head=False, sequence__gte=start.sequence).exclude(
            pk=start.pk).filter(Q(after_on__gt=start.after_on) if start.after_on is not None else Q())
        standing = {checkpoint.after_on: checkpoint for checkpoint in later}
        later.update(ready=False)
        head = resume.head
        _delete_player_rows(RatingPlayerState, "checkpoint_id = %s", [head.pk], players[changed].tolist())
        _write_states(head.pk, settled, players, pieces.state, last_played, rated & changed)
        total = start.sequence + n
        RatingCheckpoint.objects.filter(pk=head.pk).update(
            sequence=total, after_on=last[0] if last else None, after_match_id=last[1] if last else -1
        )
        RatingRun.objects.filter(pk=published).update(
            matches_total=total, matches_done=total, finished_at=now, covers_requests=run.covers_requests,
            players=Rating.objects.filter(run_id=published).count(),
            history_matches=resume.account.matches, history_checksum=resume.account.checksum,
        )
        RatingRun.objects.filter(pk=run.pk).update(heartbeat_at=now, matches_total=n, matches_done=n,
                                                   players=len(players))
        RatingPending.objects.filter(system=run.system, run_id=run.pk).delete()
    clock.lap("publish: head, commit")
    _refresh_checkpoints(run, resume, Rerun(history, players, pieces, moments, cuts, since, touched, last_before),
                         standing)
    clock.lap("checkpoints")


@dataclass(frozen=True)
class Rerun:
    """What a rerun from a checkpoint rated, that the checkpoints after it are rewritten from:
    the matches after the start (`history`, its `players`), the states at the month and day
    starts after it (`moments`, the history cut at `cuts`, in `pieces`), and per player where
    the changes reach him (`since`, `touched`) and when he last played before the start."""

    history: RatedHistory
    players: np.ndarray
    pieces: PiecewiseRun
    moments: list
    cuts: list
    since: np.ndarray
    touched: np.ndarray
    last_before: np.ndarray


def _refresh_checkpoints(run: RatingRun, resume: Resume, rerun: Rerun, standing: dict) -> None:
    """After a rerun from `resume` has published: rewrite the published run's checkpoints after
    its start, in one transaction, and mark them ready; then the run is done. Those `standing`
    (read before the publish marked them unready) that were ready keep the states the changes
    do not reach; the others (new moments, or checkpoints a dead run left unready) copy the
    start's for the players who do not play after it. The run still holds the system (it is
    running) so no other run writes meanwhile; if it was superseded, the checkpoints stay
    unready and runs resume from earlier ones."""
    start = resume.checkpoint
    settled = resume.settled
    published = resume.published_id
    history, players, since, touched = rerun.history, rerun.players, rerun.since, rerun.touched
    with transaction.atomic():
        if not _holds_published(run, published):
            logger.warning("%s run %s was superseded after publishing: its checkpoints stay unready", run.system,
                           run.pk)
            return
        _touch(run.pk, stage=RunStage.WRITING)
        moments = set(rerun.moments)
        kept = {on: checkpoint for on, checkpoint in standing.items() if on in moments and checkpoint.ready}
        _delete_checkpoints(RatingCheckpoint.objects.filter(
            pk__in=[checkpoint.pk for on, checkpoint in standing.items() if on not in kept]))
        table = connection.ops.quote_name(RatingPlayerState._meta.db_table)
        keep, keep_values = _player_rows(RatingPlayerState, "checkpoint_id = %s", [start.pk], players.tolist(),
                                         inside=False)
        copied = ", ".join(connection.ops.quote_name(c) for c in STATE_COLUMNS[1:])
        for moment, cut, at_cut in zip(rerun.moments, rerun.cuts, rerun.pieces.states_at_cuts):
            last_played = _last_played(history, _last_matches(history, cut), rerun.last_before)
            checkpoint = kept.get(moment)
            if checkpoint is not None:
                stale = (since < cut) | (touched & (since <= cut))
                _delete_player_rows(RatingPlayerState, "checkpoint_id = %s", [checkpoint.pk], players[stale].tolist())
                _write_states(checkpoint.pk, settled, players, at_cut, last_played, stale & (at_cut["matches"] > 0))
                RatingCheckpoint.objects.filter(pk=checkpoint.pk).update(sequence=start.sequence + cut, ready=True)
                continue
            checkpoint = RatingCheckpoint.objects.create(
                run_id=published, sequence=start.sequence + cut, after_on=moment, after_match_id=-1,
                system_key=start.system_key, settled_value=start.settled_value,
            )
            with connection.cursor() as cursor:
                cursor.execute(
                    f"INSERT INTO {table} (checkpoint_id, {copied}) SELECT %s, {copied} FROM {table} WHERE {keep}",
                    [checkpoint.pk, *keep_values],
                )
            _write_states(checkpoint.pk, settled, players, at_cut, last_played, at_cut["matches"] > 0)
        _prune_checkpoints(published)
        now = timezone.now()
        RatingRun.objects.filter(pk=run.pk).update(
            status=RunStatus.DONE, stage=RunStage.PUBLISHED, finished_at=now, heartbeat_at=now,
        )


def _next_run(system: str, covered: int) -> RatingRun | None:
    """A new queued run when requests arrived after the run that covered `covered`, or changes
    are in the outbox that no run took."""
    state = _state(system)
    if state.requested <= covered and not RatingPending.objects.filter(system=system, run_id__isnull=True).exists():
        return None
    now = timezone.now()
    RatingSystemState.objects.filter(system=system).update(queued_at=now)
    return RatingRun.objects.create(system=system, requested_at=now)


def rating_run_process(*, run_id: int) -> RatingRun | None:
    """What the Celery task does: claim the run, execute it, and go again while requests
    arrived during it. Returns the last run executed (None when there was nothing to do).

    A run that is no longer queued means the message came again: the broker redelivered it
    after its worker died, or the check sent it too. Then whatever the system is owed is run
    (`rating_recompute_owed`), which is nothing while a live run is at work."""
    run = RatingRun.objects.filter(pk=run_id).first()
    if run is None:
        return None
    if run.status != RunStatus.QUEUED:
        owed = _owed_run(run.system)
        return _process(owed) if owed is not None else None
    return _process(run)


def _process(run: RatingRun | None) -> RatingRun | None:
    executed = None
    while run is not None:
        claimed = rating_run_claim(run=run)
        if claimed is None:
            return executed
        try:
            executed = rating_run_execute(run=claimed)
        except BaseException:
            follow_up = _next_run(claimed.system, claimed.covers_requests)
            if follow_up is not None:
                _enqueue(follow_up.pk)
            raise
        run = _next_run(claimed.system, claimed.covers_requests)
    return executed


def _owed_run(system: str) -> RatingRun | None:
    """The run that rates what `system` is owed, or None when nothing is owed or a live run is
    at work. A running run whose heartbeat went stale is superseded first. "Owed" means requests
    arrived after the published run was claimed, or the outbox holds changes no published run
    answers (their writer died before it could ask). After a failed run the system waits
    `CRAWFORD_STALE_SECONDS` before it is tried again (a new result tries at once), so a
    run that fails every time does not hold a worker. The oldest queued run is taken (its
    message may be lost), else a new one is queued."""
    now = timezone.now()
    with transaction.atomic():
        _state(system)
        _supersede_stale(system, now)
        state = RatingSystemState.objects.select_for_update().get(system=system)
        if RatingRun.objects.filter(system=system, status=RunStatus.RUNNING).exists():
            return None
        if state.requested <= _covered(state) and not RatingPending.objects.filter(system=system).exists():
            return None
        last = (
            RatingRun.objects.filter(system=system, status__in=[RunStatus.DONE, RunStatus.FAILED])
            .order_by("-finished_at", "-id").values_list("status", "finished_at").first()
        )
        if last is not None and last[0] == RunStatus.FAILED and last[1] > now - stale_after():
            return None
        queued = RatingRun.objects.filter(system=system, status=RunStatus.QUEUED).order_by("requested_at", "id").first()
        if queued is not None:
            return queued
        state.queued_at = now
        state.save(update_fields=["queued_at"])
        return RatingRun.objects.create(system=system, requested_at=now)


def rating_recompute_owed(*, system: str | None = None) -> list[RatingRun]:
    """The periodic check (Celery beat, every `CRAWFORD_SWEEP_SECONDS`): for each system (all by
    default), take over a run whose worker died and rate whatever results changed after the
    published ratings were computed, with no new request needed. Returns the runs executed.
    A system whose run fails is logged and the others still go."""
    executed = []
    for name in system_names(system):
        try:
            run = _process(_owed_run(name))
        except Exception:
            logger.exception("%s: the owed recompute failed", name)
            continue
        if run is not None:
            executed.append(run)
    return executed


def rating_recompute_now(*, system: str) -> RatingRun:
    """Recompute `system` synchronously (the management command). Raises `ConflictError` while
    another run of the system is running."""
    (name,) = system_names(system)
    run = RatingRun.objects.create(system=name, requested_at=timezone.now())
    claimed = rating_run_claim(run=run, force=True)
    if claimed is None:
        running = RatingRun.objects.filter(system=name, status=RunStatus.RUNNING).first()
        raise ConflictError(f"Run {running.pk if running else '?'} of {name} is in progress; try again when it ends.")
    return rating_run_execute(run=claimed, full=True)


# -- importing results ---------------------------------------------------------------------------


RESULT_COLUMNS = ("played_on", "player_a", "player_b", "length", "score_a", "score_b")
"""The columns a results file must have; `event` and `source_id` are optional, others ignored."""


class ResultsFileError(ValueError):
    """A results file has rows that cannot be imported; `problems` lists (line, message)."""

    def __init__(self, problems: list[tuple[int, str]]):
        self.problems = problems
        super().__init__("; ".join(f"line {line}: {message}" for line, message in problems))


@dataclass(frozen=True)
class ResultRow:
    """One valid row of a results file."""

    line: int
    played_on: datetime
    player_a: str
    player_b: str
    length: int
    score_a: int | None  # both None: no final score given, player_a won
    score_b: int | None
    source_key: str
    legacy_key: str | None = None
    """The key an earlier version gave the same row (it held the site's time zone): a row imported
    under it counts as imported."""

    @property
    def a_won(self) -> bool:
        return self.score_a is None or self.score_a > self.score_b


@dataclass
class ImportReport:
    imported: int = 0
    already_there: int = 0
    players_created: list[str] = field(default_factory=list)


def _whole(value: str, what: str) -> int:
    try:
        return int(value.strip())
    except (ValueError, AttributeError):
        raise ValueError(f"{what} must be a whole number, not {value!r}") from None


def results_file_decode(data: bytes) -> tuple[str, str | None]:
    """The text of an uploaded results file: UTF-8 (with or without a byte order mark), or else
    Windows-1252, as spreadsheets on Windows save CSV. Returns (text, a note when it was not UTF-8)."""
    if b"\x00" in data:
        raise ResultsFileError([(1, "this is not a text file (it holds NUL bytes): save it as CSV UTF-8")])
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "the file is not UTF-8: it was read as Windows-1252 (Western European)"
    except UnicodeDecodeError:
        raise ResultsFileError([(1, "the file is neither UTF-8 nor Windows-1252 text; save it as CSV UTF-8")]) from None


def _played_on(text: str) -> datetime:
    """ISO dates (2025-03-31, with a time if wanted), or day.month.year (31.03.2025)."""
    text = text.strip()
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return datetime.strptime(text, "%d.%m.%Y")


def _row_problem(raw: dict) -> tuple[str | None, tuple | None]:
    """Check one row; returns (problem, None) or (None, the row's values)."""
    try:
        played_on = _played_on(raw["played_on"] or "")
    except ValueError:
        return f"played_on must be a date such as 2025-03-31 or 31.03.2025, not {raw['played_on']!r}", None
    if timezone.is_naive(played_on):
        played_on = timezone.make_aware(
            played_on if played_on.time() != time_of_day() else datetime.combine(played_on.date(), time_of_day(12))
        )
    name_a = " ".join((raw["player_a"] or "").split())
    name_b = " ".join((raw["player_b"] or "").split())
    if not name_a or not name_b:
        return "both players need a name", None
    if name_a.lower() == name_b.lower():
        return f"{name_a} cannot play himself", None
    try:
        length = _whole(raw["length"], "length")
    except ValueError as error:
        return str(error), None
    if not 1 <= length <= 99:
        return f"length must be between 1 and 99 points, not {length}", None
    blank_a, blank_b = not (raw["score_a"] or "").strip(), not (raw["score_b"] or "").strip()
    if blank_a and blank_b:  # a list of winners, as many clubs keep: player_a won; no score is invented
        return None, (played_on, name_a, name_b, length, None, None)
    if blank_a or blank_b:
        return ("give both scores, or leave both blank when player_a won "
                f"(score_{'a' if blank_a else 'b'} is blank)"), None
    try:
        score_a = _whole(raw["score_a"], "score_a")
        score_b = _whole(raw["score_b"], "score_b")
    except ValueError as error:
        return str(error), None
    if score_a < 0 or score_b < 0:
        return "scores cannot be negative", None
    if score_a == score_b:
        return f"equal scores ({score_a}-{score_b}) name no winner", None
    if max(score_a, score_b) < length:
        return f"the winner's score {max(score_a, score_b)} is below the length {length}", None
    if min(score_a, score_b) >= length:
        return f"the loser's score {min(score_a, score_b)} reaches the length {length}", None
    try:
        check_final_score(length, (score_a, score_b))
    except ScoringError as error:
        return error.message, None
    return None, (played_on, name_a, name_b, length, score_a, score_b)


def results_file_read(*, text: str) -> list[ResultRow]:
    """Validate every row of a results CSV (header `played_on,player_a,player_b,length,score_a,
    score_b`, optional `event` and `source_id`, other columns ignored; separated by commas,
    semicolons or tabs; header names in any case; empty rows skipped). Both scores blank: player_a
    won and the match is stored without a final score (never as 0-0); one blank is refused. Raises
    `ResultsFileError` listing every bad row by line number."""
    text = text.lstrip("\ufeff")
    first = text.split("\n", 1)[0]
    # Spreadsheets in much of Europe separate columns with ";" (the comma is their decimal mark).
    delimiter = max(",;\t", key=first.count)
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter)
    header = ["_".join(name.strip().lower().split()) for name in reader.fieldnames or []]
    missing = [name for name in RESULT_COLUMNS if name not in header]
    if missing:
        raise ResultsFileError([(1, f"the header lacks {', '.join(missing)} (it needs {','.join(RESULT_COLUMNS)})")])
    reader.fieldnames = header
    rows, problems = [], []
    occurrences: dict[str, int] = {}
    for raw in reader:
        line = reader.line_num
        if not any((value or "").strip() for key, value in raw.items() if key is not None):
            continue  # an empty row, as spreadsheets leave at the end
        if None in raw or any(raw.get(name) is None for name in RESULT_COLUMNS):
            problems.append((line, "the row has a different number of columns from the header"))
            continue
        problem, values = _row_problem(raw)
        if problem:
            problems.append((line, problem))
            continue
        source_id = (raw.get("source_id") or "").strip()
        if source_id:
            key = f"csv:{source_id}"
            legacy = None
        else:
            # The row's identity is the date and time as the file gives them (in UTC when the file
            # names an offset), never as read in the site's time zone: the same file imported under
            # another TIME_ZONE is the same rows.
            as_given = _played_on(raw["played_on"])
            as_given = as_given.astimezone(UTC).replace(tzinfo=None) if timezone.is_aware(as_given) else as_given
            rest = [values[1].lower(), values[2].lower(), *map(str, values[3:]), (raw.get("event") or "").strip()]
            content = "|".join(["given " + as_given.isoformat(), *rest])
            occurrences[content] = occurrences.get(content, 0) + 1
            key = "csv:" + hashlib.sha256(f"{content}|{occurrences[content]}".encode()).hexdigest()[:40]
            legacy_content = "|".join([values[0].isoformat(), *rest, str(occurrences[content])])
            legacy = "csv:" + hashlib.sha256(legacy_content.encode()).hexdigest()[:40]
        rows.append(ResultRow(line, *values, key, legacy))
    seen: dict[str, int] = {}
    for row in rows:
        if row.source_key in seen:
            problems.append((row.line, f"source_id repeats line {seen[row.source_key]}"))
        seen.setdefault(row.source_key, row.line)
    if problems:
        raise ResultsFileError(sorted(problems))
    return rows


IMPORT_CHUNK = 5_000
"""Result rows stored, and counted in the job's progress, per transaction."""


def results_import(*, rows: list[ResultRow], by=None, progress=None) -> ImportReport:
    """Store valid rows (`results_file_read`) as finished matches. Rows imported before are
    skipped, so importing a file again adds nothing and an import stopped half-way finishes when
    run again. A name several players share is refused (as `ResultsFileError` by line) before
    anything is stored. Players are resolved in bulk, matches inserted in chunks of `IMPORT_CHUNK`
    with their final score (each chunk in its own transaction, with its outbox rows and
    `progress(done, total)` told inside it), and the runs are queued at the end; an import that
    dies after a chunk commits leaves that chunk in the outbox, for the periodic check."""
    report = ImportReport()
    total = len(rows)
    if progress is not None:
        progress(0, total)
    try:
        ids, report.players_created = players_get_or_create_by_names(
            names=[name for row in rows for name in (row.player_a, row.player_b)], by=by
        )
    except AmbiguousNamesError as error:
        problems = [
            (row.line, f"Several players are named {name}: the file cannot say which one.")
            for row in rows for name in (row.player_a, row.player_b) if name.lower() in error.names
        ]
        raise ResultsFileError(sorted(set(problems))) from None
    except NearNamesError as error:
        near = {name.lower(): (name, found) for name, found in error.candidates.items()}
        problems = [
            (row.line, f"{near[name.lower()][0]} is no player here. {did_you_mean(near[name.lower()][1])} Write the"
                       " name as the record has it, or add the new player first.")
            for row in rows for name in (row.player_a, row.player_b) if name.lower() in near
        ]
        raise ResultsFileError(sorted(set(problems))) from None
    now = timezone.now()
    for start in range(0, total, IMPORT_CHUNK):
        chunk = rows[start:start + IMPORT_CHUNK]
        for attempt in (1, 2):
            try:
                with transaction.atomic():
                    imported = _store_results(chunk, ids, now=now, by=by)
                    if progress is not None:
                        progress(start + len(chunk), total)
                break
            except IntegrityError:
                if attempt == 2:  # the same rows, imported at this moment by someone else, are skipped on the retry
                    raise
        report.imported += imported
        report.already_there += len(chunk) - imported
    if report.imported or RatingPending.objects.filter(run_id__isnull=True, kind=ChangeKind.IMPORTED).exists():
        # an import taken over after its last chunk stores nothing, but its chunks are owed
        transaction.on_commit(RunsRequested(enabled_systems()))
    return report


def _store_results(rows: list[ResultRow], ids: dict[str, int], *, now: datetime, by) -> int:
    """Insert the rows not imported before as finished matches, each with its first history
    version; returns how many. The rows go in by COPY on PostgreSQL and by one prepared INSERT
    per batch elsewhere, for the matches and for their history (the ORM's bulk_create spends most
    of its time building SQL: 450 rows/s against several thousand)."""
    keys = [key for row in rows for key in (row.source_key, row.legacy_key) if key]
    existing = set(Match.objects.filter(source_key__in=keys).values_list("source_key", flat=True))
    fresh = [row for row in rows if row.source_key not in existing and row.legacy_key not in existing]
    if not fresh:
        return 0
    adapt = connection.ops.adapt_datetimefield_value
    common = {"kind": MatchKindChoice.MATCH.value, "source": "csv", "status": MatchStatus.FINISHED.value,
              "finished_at": now, "version": 1, "created_at": now, "created_by_id": by.pk if by else None}
    varying = ("player_a_id", "player_b_id", "length", "played_on", "source_key", "score_a", "score_b", "winner_id")
    values = []
    for row in fresh:
        player_a, player_b = ids[row.player_a.lower()], ids[row.player_b.lower()]
        winner = player_a if row.a_won else player_b
        values.append((player_a, player_b, row.length, adapt(row.played_on), row.source_key, row.score_a,
                       row.score_b, winner))
    _insert_rows(Match, varying, values, common)
    pks = dict(Match.objects.filter(source_key__in=[row.source_key for row in fresh]).values_list("source_key", "pk"))
    history = dict(common, history_date=now, history_type="+", history_change_reason="imported result",
                   history_user_id=by.pk if by else None)
    _insert_rows(Match.history.model, ("id", *varying), [(pks[row[4]], *row) for row in values], history)
    _pending_write(enabled_systems(), None, ChangeKind.IMPORTED)
    return len(fresh)


def _insert_rows(model, varying: tuple[str, ...], values: list[tuple], common: dict) -> None:
    """INSERT `values` (tuples of the `varying` columns, ready for the database) into `model`'s
    table; every other column takes `common`'s value or the field's default. The automatic
    primary key is left to the database."""
    columns_of = [column for column in model._meta.concrete_fields
                  if not (column.primary_key and column.get_internal_type() in ("AutoField", "BigAutoField", "SmallAutoField"))]
    constant = {}
    for column in columns_of:
        if column.attname not in varying:
            value = common[column.attname] if column.attname in common else column.get_default()
            constant[column.attname] = column.get_db_prep_save(value, connection)
    names = list(varying) + list(constant)
    by_attname = {column.attname: column for column in columns_of}
    columns = ", ".join(connection.ops.quote_name(by_attname[name].column) for name in names)
    tail = tuple(constant.values())
    table = connection.ops.quote_name(model._meta.db_table)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":  # COPY: one stream instead of a statement a row
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in values:
                    copy.write_row(row + tail)
            return
        sql = f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(names))})"
        for start in range(0, len(values), BULK_BATCH):
            cursor.executemany(sql, [row + tail for row in values[start:start + BULK_BATCH]])


def results_import_job(*, job, progress) -> dict:
    """The runner of a results import job (`games.imports`): read, check, store."""
    try:
        rows = results_file_read(text=job.text)
        report = results_import(rows=rows, by=job.created_by, progress=progress)
    except ResultsFileError as error:
        raise ImportProblems(error.problems) from None
    return {"imported": report.imported, "already_there": report.already_there,
            "players_created": report.players_created, "note": job.note or None}


# -- official lists ------------------------------------------------------------------------------


def rating_list_publish(*, system: str, as_of: date, by=None, note: str = "") -> OfficialList:
    """Publish the official list of `system` dated `as_of`: a copy of the system's published
    ratings, each established player with his rank (ties share one; provisional players have
    none), kept unchanged for ever.

    `by` is the staff member publishing it (None from the command line). The date may not be
    after today, nor before or on the date of the system's last official list (400, on
    `as_of`); two people publishing the same day's list at once get one list, and the later
    one a `ConflictError` (409) from the database's unique constraint. The copy holds the
    system's state row, so a recompute that finishes meanwhile publishes after it, never
    under it."""
    errors: dict[str, list[str]] = {}
    try:
        (system,) = system_names(system)
    except ValidationError as error:
        errors.update(error.message_dict)
    if by is not None and not is_rating_officer(by):
        raise PermissionDenied("Only a rating officer or a site admin publishes official rating lists.")
    if not isinstance(as_of, date) or isinstance(as_of, datetime):
        errors["as_of"] = ["Give the list's date as YYYY-MM-DD."]
    elif as_of > timezone.localdate():
        errors["as_of"] = [f"{as_of:%d %b %Y} is after today: a list is dated the day it stands for."]
    note = (note or "").strip()
    if len(note) > 500:
        errors["note"] = ["The note has at most 500 characters."]
    if errors:
        raise ValidationError(errors)
    label = SystemChoice(system).label
    with transaction.atomic():
        state = RatingSystemState.objects.select_for_update().filter(system=system).first()
        run = state.published_run if state is not None else None
        if run is None:
            raise ValidationError({"system": [f"{label} has no published ratings yet: recompute them first."]})
        last = _last_official_list(system)
        if last is not None and as_of < last.as_of:
            raise ValidationError({"as_of": [
                f"The last official {label} list is dated {last.as_of:%d %b %Y}: a new one cannot be dated earlier."
            ]})
        if last is not None and as_of == last.as_of:
            raise ValidationError({"as_of": [f"There is already an official {label} list of {as_of:%d %b %Y}."]})
        try:
            with transaction.atomic():
                official = OfficialList.objects.create(
                    system=system, as_of=as_of, run=run, rated_at=run.finished_at, published_at=timezone.now(),
                    published_by=by, note=note,
                )
        except IntegrityError:
            raise ConflictError(
                f"Someone else published the official {label} list of {as_of:%d %b %Y} a moment ago."
            ) from None
        ratings = Rating.objects.filter(run=run).order_by("-rating", "player_id").values_list(
            "player_id", "rating", "deviation", "provisional", "matches", "experience"
        )
        rows, above, previous, rank = [], 0, None, None
        for player_id, rating, deviation, provisional, matches, experience in ratings.iterator(chunk_size=5000):
            if not provisional:
                above += 1
                if rating != previous:
                    rank, previous = above, rating
            rows.append(OfficialListRow(
                official_list=official, player_id=player_id, rank=None if provisional else rank, rating=rating,
                deviation=deviation, provisional=provisional, matches=matches, experience=experience,
            ))
        OfficialListRow.objects.bulk_create(rows, batch_size=BULK_BATCH)
        official.players = len(rows)
        official.save(update_fields=["players"])
    logger.info("%s: official list of %s published with %d players", system, as_of, len(rows))
    return official


def _last_official_list(system: str) -> OfficialList | None:
    """The system's official list with the latest date."""
    return OfficialList.objects.filter(system=system).order_by("-as_of").first()
