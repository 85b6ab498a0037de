"""Executing a claimed run: load the rated history, rate it, write the rows and publish them; in
full, or from a checkpoint when the changes it answers allow (`checkpoints.resume_point`)."""

from __future__ import annotations

import logging
import time
from contextlib import contextmanager
from functools import partial

import numpy as np

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from ..calibrated import system_in_force
from ..ranks import ranks_refresh
from ..models import (
    Rating,
    RatingChange,
    RatingCheckpoint,
    RatingPending,
    RatingPlayerState,
    RatingRun,
    RunStage,
    RunStatus,
)
from ..systems import batches
from ..systems.batches import ArrayRun, HistoryArrays
from ..systems.resume import rate_in_pieces
from .account import account_of_arrays, history_account, history_account_fold
from .checkpoints import (
    Rerun,
    Resume,
    answered_by,
    checkpoint_starts,
    note,
    refresh_checkpoints,
    resume_point,
    states_at,
    store_checkpoints,
    when_last_played,
)
from .history import RatedHistory, micros_of, rated_history, rated_matches
from .starts import with_imported_starts
from .writing import (
    RunLostError,
    changes_by_player,
    delete_changes_since,
    delete_checkpoints,
    delete_player_rows,
    discard_unpublished_rows,
    holds_published,
    publish,
    report_progress,
    store_changes,
    store_ratings,
    touch,
    write_changes,
    write_ratings,
    write_states,
)

logger = logging.getLogger("ratings.recompute")


@contextmanager
def _one_snapshot():
    """A read transaction whose reads all see one moment (REPEATABLE READ on PostgreSQL; on
    SQLite a deferred transaction, which in WAL mode reads one snapshot and holds no lock that a
    writer waits for): the outbox a run answers, the history's account and the history it
    rates agree. Nothing is written in it: SQLite would have to turn it into a write
    transaction, which fails at once when a writer committed since its snapshot. Outside a
    transaction only; inside one (a test's) it is a savepoint."""
    outermost = not connection.in_atomic_block
    deferred = outermost and connection.vendor == "sqlite"
    if deferred:
        connection.ensure_connection()  # the connection's parameters set its transaction mode
        mode, connection.transaction_mode = connection.transaction_mode, "DEFERRED"
    try:
        with transaction.atomic():
            if deferred:
                connection.transaction_mode = mode  # BEGIN DEFERRED is sent: later transactions as set
                deferred = False
            if outermost and connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            yield
    finally:
        if deferred:
            connection.transaction_mode = mode


def _answered(run: RatingRun, pending: list[int]) -> None:
    """After the snapshot: the run takes the pending changes it saw there (`pending`, those
    committed since its claim included; later ones wait for the next run), and keeps the reason
    it rates in full, if any (`note`), in one short write transaction."""
    with transaction.atomic():
        for start in range(0, len(pending), 500):
            RatingPending.objects.filter(pk__in=pending[start:start + 500], run_id__isnull=True).update(run_id=run.pk)
        RatingRun.objects.filter(pk=run.pk).update(note=run.note)


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
    delete_checkpoints(RatingCheckpoint.objects.filter(run_id=run.pk))


def rating_run_execute(*, run: RatingRun, full: bool = False) -> RatingRun:
    """Rate for a claimed (running) run and publish it: only what follows the changes it
    answers when a stored state allows (`resume_point`, `_execute_from`), else (or with
    `full`) the whole history. On any error the run is marked failed, its rows are deleted and
    the error is raised again; the published ratings stay as they were."""
    try:
        clock = _StageClock(run)
        history_account_fold()  # the account's entries since the last run, summed into one
        run.note = ""
        with _one_snapshot():
            # changes committed since the claim are this run's too: it rates them
            pending = list(answered_by(run).values_list("pk", flat=True))
            if full:
                note(run, gettext_noop(
                    "A recompute of the whole history was asked for (recompute_ratings): rating in full."))
            resume = None if full else resume_point(run)
            if resume is not None:
                suffix = rated_history(after=(resume.checkpoint.after_on, resume.checkpoint.after_match_id))
                last = rated_matches().order_by("-played_on", "-id").values_list("played_on", "id").first()
            else:
                history = rated_history()
                account = history_account()  # the account the triggers keep, as the history stands
        _answered(run, pending)
        if resume is not None:
            _execute_from(run, resume, suffix, last, clock)
            run.refresh_from_db()
            return run
        clock.lap("load")
        touch(run.pk, stage=RunStage.RATING, matches_total=len(history))
        system = system_in_force(run.system)  # this site's adopted parameters, if any
        arrays = _arrays(history, system)
        settled = system.settled_for(arrays)
        moments = checkpoint_starts(history.played_on, None)
        cuts = np.searchsorted(history.played_on, [micros_of(m) for m in moments], side="left")
        state = with_imported_starts(settled, settled.starting_state(arrays), history.players)
        pieces = rate_in_pieces(settled, arrays, state, cuts.tolist(),
                                partial(report_progress, run.pk))
        result = _as_run(settled, pieces)
        clock.lap("compute")
        touch(run.pk, stage=RunStage.WRITING)
        store_ratings(run, history, result)
        store_changes(run, history, result)
        store_checkpoints(run.pk, settled, history, pieces, moments, cuts.tolist())
        counted = account_of_arrays(history)
        if counted != account:  # the triggers missed writes (dropped for a while): later runs compare with theirs
            logger.warning("%s run %s: the history's account (%s) differs from the history it rated (%s)",
                           run.system, run.pk, account, counted)
        RatingRun.objects.filter(pk=run.pk).update(history_matches=account.matches, history_checksum=account.checksum)
        clock.lap("write")
        publish(run)
        clock.lap("publish")
    except BaseException as error:
        _fail(run, error)
        raise
    discard_unpublished_rows(run.system)
    clock.lap("discard")
    ranks_refresh(run.system)
    run.refresh_from_db()
    return run


def _arrays(history: RatedHistory, system) -> HistoryArrays:
    """The history as the engine reads it: with player A's luck-adjusted scores for a system
    scored by luck (NaN where the winner counts), with the winner alone for the others."""
    return HistoryArrays.build(
        history.match_ids, history.days, history.player_a, history.player_b, history.lengths, history.a_won,
        len(history.players), a_score=history.a_score if getattr(system, "scored_by_luck", False) else None,
    )


def _as_run(settled, pieces):
    """A piecewise run in the shape `store_ratings` and `store_changes` read."""
    rating, deviation, volatility, provisional = settled.public_of(pieces.state)
    return ArrayRun(
        settled.name, rating, deviation, volatility, pieces.state["experience"], pieces.state["matches"],
        pieces.last_match, provisional, **pieces.changes,
    )


def _matches_elsewhere(checkpoint: RatingCheckpoint, players: np.ndarray) -> np.ndarray:
    """How many matches each player at the checkpoint who is not among `players` had played
    there (read for a system still settling: a history without founders is small)."""
    rows = np.array(list(RatingPlayerState.objects.filter(checkpoint_id=checkpoint.pk).values_list(
        "player_id", "matches")), dtype=np.int64).reshape(-1, 2)
    return rows[~np.isin(rows[:, 0], players), 1]


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


class _Rated:
    """What a rerun from a checkpoint rated: the matches after the start (`history`, its
    `players`), the system as settled there, the states at the month and day starts after it
    (`moments`, the history cut at `cuts`, in `pieces`) and the run's result."""

    def __init__(self, run: RatingRun, resume: Resume, suffix: RatedHistory) -> None:
        start = resume.checkpoint
        settled = resume.settled
        players = np.union1d(suffix.players, np.array(sorted(resume.touched), dtype=np.int64))
        where = np.searchsorted(players, suffix.players)
        self.history = history = RatedHistory(
            suffix.match_ids, suffix.played_on, where[suffix.player_a], where[suffix.player_b], suffix.lengths,
            suffix.a_won, players, suffix.a_score)
        self.players = players
        touch(run.pk, stage=RunStage.RATING, matches_total=len(history), matches_done=0)
        state, self.last_before = states_at(start, settled, players)
        self.moments = checkpoint_starts(history.played_on, start.after_on)
        self.cuts = np.searchsorted(history.played_on, [micros_of(m) for m in self.moments], side="left").tolist()
        self.arrays = arrays = _arrays(history, settled)
        if settled.settling:  # no founders at the start: this run finds them, counting everyone there
            settled = settled.settled_from(arrays, state, start.sequence, _matches_elsewhere(start, players))
        self.settled = settled
        state = with_imported_starts(settled, settled.starting_state(arrays, state, first=start.sequence), players)
        self.pieces = pieces = rate_in_pieces(settled, arrays, state, self.cuts, partial(report_progress, run.pk))
        self.result = _as_run(settled, pieces)
        self.rated = pieces.state["matches"] > 0
        self.last_played = when_last_played(history, pieces.last_match, self.last_before)


class _Reach:
    """Which players the changes reach and from where (`_changed_since`): only they are
    rewritten, each from the match that reaches him (every player's from the first changed match
    when matches are renumbered); `rows` are the rating changes written again."""

    def __init__(self, resume: Resume, rated: _Rated) -> None:
        history, players, start = rated.history, rated.players, resume.checkpoint
        n = len(history)
        touched = np.zeros(len(players), dtype=bool)
        touched[np.searchsorted(players, np.array(sorted(resume.touched), dtype=np.int64))] = True
        if resume.earliest is None:  # no place known: every player from the checkpoint on
            first = 0
            touched[:] = True
        else:  # the matches before the earliest place are the published ones, numbered as they were
            first = int(np.searchsorted(history.played_on, micros_of(resume.earliest[0]) - 1, side="left"))
        if rated.settled.settled_value != resume.head.settled_value:
            # the founders changed: whoever first plays from the earlier founding on may start
            # elsewhere (a newcomer or a founder now), so he is reached from his first match
            founded = min(value for value in (rated.settled.settled_value, resume.head.settled_value)
                          if value is not None)
            touched |= batches.first_matches(rated.arrays) >= int(founded) - start.sequence
        self.touched = touched
        self.since = since = _changed_since(history, first, np.flatnonzero(touched))
        self.rows_from = np.minimum(since, first) if resume.shifted else since  # renumbered from `first`
        self.changed = (since < n) | touched
        self.rewritten = (self.rows_from < n) | touched
        rows, sides = changes_by_player(history)
        self.rows = rows[rows // 2 >= self.rows_from[sides[rows]]]


def _execute_from(run: RatingRun, resume: Resume, suffix: RatedHistory, last: tuple | None,
                  clock: _StageClock) -> None:
    """Rerun from the resume point's checkpoint: rate the matches ordered after it from the
    stored states (`_Rated`), then, in one transaction, replace the published run's rows of every
    player the changes reach (`_Reach`): his rating changes from the match that reaches him, his
    current rating and his state at the head; move the head and mark the changes answered.
    Readers see the published ratings before or after, never a mix. The checkpoints after the
    start are rewritten next (`refresh_checkpoints`), after the ratings are published."""
    clock.lap("load")
    rated = _Rated(run, resume, suffix)
    reach = _Reach(resume, rated)
    logger.info("%s run %s: %s of %s players reached, %s of %s rating changes rewritten", run.system, run.pk,
                int(reach.changed.sum()), len(rated.players), len(reach.rows), 2 * len(rated.history))
    clock.lap("compute")
    touch(run.pk, stage=RunStage.WRITING)
    standing = _publish_from(run, resume, rated, reach, last, clock)
    clock.lap("publish: head, commit")
    ranks_refresh(run.system)  # the ranks of the new ratings, before any reader asks
    refresh_checkpoints(run, resume, Rerun(rated.history, rated.players, rated.pieces, rated.moments, rated.cuts,
                                           reach.since, reach.touched, rated.last_before, rated.settled), standing)
    clock.lap("checkpoints")


def _publish_from(run: RatingRun, resume: Resume, rated: _Rated, reach: _Reach, last: tuple | None,
                  clock: _StageClock) -> dict:
    """`_execute_from`'s one transaction: the reached players' rows of the published run
    replaced, the head moved, the changes answered. Returns the later checkpoints as they stood,
    by moment (`refresh_checkpoints` reads them)."""
    start, published, head = resume.checkpoint, resume.published_id, resume.head
    history, players, settled = rated.history, rated.players, rated.settled
    changed, rewritten, n = reach.changed, reach.rewritten, len(history)
    now = timezone.now()
    with transaction.atomic():
        if not holds_published(run, published):
            raise RunLostError(f"Run {run.pk} was superseded before it could publish.")
        delete_changes_since(published, players[rewritten], start.sequence + reach.rows_from[rewritten])
        if len(reach.rows):
            write_changes(published, history, rated.result, reach.rows, start.sequence)
        clock.lap("publish: rating changes")
        delete_player_rows(Rating, "run_id = %s", [published], players[changed].tolist())
        write_ratings(published, run.system, players, rated.result, rated.last_played, rated.rated & changed)
        clock.lap("publish: ratings")
        # the checkpoints after the start are rewritten once the ratings are published (below);
        # until then no run resumes from them
        later = RatingCheckpoint.objects.filter(run_id=published, head=False, sequence__gte=start.sequence).exclude(
            pk=start.pk).filter(Q(after_on__gt=start.after_on) if start.after_on is not None else Q())
        standing = {checkpoint.after_on: checkpoint for checkpoint in later}
        later.update(ready=False)
        delete_player_rows(RatingPlayerState, "checkpoint_id = %s", [head.pk], players[changed].tolist())
        write_states(head.pk, settled, players, rated.pieces.state, rated.last_played, rated.rated & changed)
        total = start.sequence + n
        RatingCheckpoint.objects.filter(pk=head.pk).update(
            sequence=total, after_on=last[0] if last else None, after_match_id=last[1] if last else -1,
            system_key=repr(settled), settled_value=settled.settled_value,
        )
        RatingRun.objects.filter(pk=published).update(
            matches_total=total, matches_done=total, finished_at=now, covers_requests=run.covers_requests,
            players=Rating.objects.filter(run_id=published).count(),
            history_matches=resume.account.matches, history_checksum=resume.account.checksum,
        )
        RatingRun.objects.filter(pk=run.pk).update(heartbeat_at=now, matches_total=n, matches_done=n,
                                                   players=len(players))
        RatingPending.objects.filter(system=run.system, run_id=run.pk).delete()
    return standing
