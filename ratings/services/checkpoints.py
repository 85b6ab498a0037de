"""Incremental publishing: the states stored at checkpoints (month and day starts, and the head
after the last match), where a run may pick up instead of rating the whole history
(`resume_point`), and the rewrite of the checkpoints after a rerun. Whether the published ratings
answer the history as it stands is the history's account's to tell (`account`).

A change that reaches back reruns from the latest checkpoint before it; a result at the end of
history resumes at the head. Anything the account cannot vouch for rates in full."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from datetime import time as time_of_day

import numpy as np

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_noop, ngettext_lazy

from config.languages import in_site_language
from games.models import Match

from ..calibrated import system_in_force
from ..models import (
    RatingChange,
    RatingCheckpoint,
    RatingPending,
    RatingPlayerState,
    RatingRun,
    RatingSystemState,
    RunStage,
    RunStatus,
)
from ..systems.resume import PiecewiseRun
from .account import HistoryAccount, account_of_results, history_account
from .history import RatedHistory, micros_of, moment_at, rated_matches
from .writing import (
    STATE_COLUMNS,
    delete_checkpoints,
    delete_player_rows,
    holds_published,
    player_rows,
    touch,
    write_states,
)

logger = logging.getLogger("ratings.recompute")


# -- checkpoints ---------------------------------------------------------------------------------


def checkpoint_months() -> int:
    """How many month checkpoints a system keeps (a change reaching further back reruns in full)."""
    return settings.RATINGS_CHECKPOINT_MONTHS


def checkpoint_days() -> int:
    """How many day checkpoints a system keeps (a result entered late reruns from its day)."""
    return settings.RATINGS_CHECKPOINT_DAYS


def _is_month_start(moment: datetime) -> bool:
    return moment.day == 1 and moment.time() == time_of_day()


def checkpoint_starts(played_on: np.ndarray, after: datetime | None) -> list[datetime]:
    """Where checkpoints stand among the matches after `after` (the history's first match when
    None): the first instants (UTC) of the last `checkpoint_months()` months and of the last
    `checkpoint_days()` days that fall after it and not after the history's last match."""
    if not len(played_on):
        return []
    first = after if after is not None else moment_at(int(played_on[0]))
    last = moment_at(int(played_on[-1]))
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
    delete_checkpoints(RatingCheckpoint.objects.filter(pk__in=[pk for pk, _ in standing if pk not in keep]))


def when_last_played(history: RatedHistory, last_match: np.ndarray, before: np.ndarray) -> np.ndarray:
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


def store_checkpoints(run_id: int, settled, history: RatedHistory, pieces, moments, cuts) -> None:
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
        write_states(checkpoint.pk, settled, players, state, when_last_played(history, last, last),
                     state["matches"] > 0)
    n = len(history)
    head = RatingCheckpoint.objects.create(
        run_id=run_id, head=True, sequence=n, after_on=moment_at(int(history.played_on[-1])) if n else None,
        after_match_id=int(history.match_ids[-1]) if n else -1, system_key=key, settled_value=value,
    )
    write_states(head.pk, settled, players, pieces.state,
                 when_last_played(history, pieces.last_match, pieces.last_match), pieces.state["matches"] > 0)


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


def answered_by(run: RatingRun):
    """The pending changes the run answers: those it claimed, and those of its system committed
    since (no other run of the system runs meanwhile)."""
    return RatingPending.objects.filter(Q(run_id=run.pk) | Q(run_id__isnull=True), system=run.system)


def resume_point(run: RatingRun) -> Resume | None:
    """Where the run can pick up instead of rating the whole history, or None.

    The run answers the pending changes it claimed. Each names a match; the match's rated
    result now and the one the published ratings hold (found by every player it ever had) are
    compared: the same, nothing to do; else both places in time order count. The run reruns
    from the latest checkpoint of the published run ordered before every such place (the head
    when the result lands at the end of history, or when it has no change left to answer: a
    request whose changes an earlier run of a burst took). None, for a full run, when a change
    names no match, no run is published, the published run has no checkpoints, the system's parameters
    changed since, or the change reaches into the matches that settle the system's parameters."""
    pending = list(answered_by(run).values_list("match_id", flat=True))
    if None in pending:
        note(run, gettext_noop("A request for the whole history (an import, a recompute asked for, or a change that "
                               "names no match): rating in full."))
        return None
    start = _published_start(run)
    if start is None:
        return None
    published_id, checkpoints, head, system = start
    ids = set(pending)
    now, was = _results_now_and_published(published_id, ids)
    account = _accounted_history(run, published_id, now, was)
    if account is None:
        return None
    places, touched, shifted = _changed_places(ids, now, was)
    earliest = min(places) if places else None
    for checkpoint in checkpoints:
        if earliest is None or checkpoint.after_on is None or (checkpoint.after_on, checkpoint.after_match_id) < earliest:
            break
    else:
        note(run, gettext_noop("The change reaches before the first checkpoint of the published run: rating in full."))
        return None
    settled = system.settled_with(checkpoint.settled_value)
    if checkpoint.system_key != repr(settled):
        note(run, gettext_noop("The checkpoint before the change was rated with other parameters: rating in full."))
        return None
    if checkpoint.sequence < settled.settle_window:
        note(run, ngettext_lazy(
            "The change reaches the first %(count)s rated match, which decides who founded the ratings and who "
            "arrived after: rating in full.",
            "The change reaches the first %(count)s rated matches, which decide who founded the ratings and who "
            "arrived after: rating in full.", "count"), {"count": settled.settle_window})
        return None
    return Resume(published_id, checkpoint, head, settled, frozenset(touched), earliest, shifted, account)


def _published_start(run: RatingRun) -> tuple[int, list[RatingCheckpoint], RatingCheckpoint, object] | None:
    """The published run a run may pick up from: its id, its ready checkpoints (latest first),
    its head and the system in force; None (with the run's note) when there is none to pick up
    from, or its parameters are no longer those in force."""
    published_id = RatingSystemState.objects.filter(system=run.system).values_list("published_run_id", flat=True).first()
    if published_id is None:
        note(run, gettext_noop("No ratings are published yet: rating in full."))
        return None
    checkpoints = list(RatingCheckpoint.objects.filter(run_id=published_id, ready=True).order_by(
        "-sequence", "-head", "-after_on"))
    head = next((checkpoint for checkpoint in checkpoints if checkpoint.head), None)
    system = system_in_force(run.system)  # this site's adopted parameters, if any
    if head is None:
        note(run, gettext_noop("The published run keeps no checkpoint to continue from: rating in full."))
        return None
    if head.system_key != repr(system.settled_with(head.settled_value)):
        note(run, gettext_noop("The rating system's parameters changed since the published run: rating in full."))
        return None
    return published_id, checkpoints, head, system


def _results_now_and_published(published_id: int, ids: set) -> tuple[dict[int, set], dict[int, set]]:
    """Per match of `ids`, its rated result now and the one the published run holds, each as a
    set of (player, opponent, played on, length, won); the published one is found by every player
    the match ever had."""
    everyone: dict[int, set] = {match_id: set() for match_id in ids}
    for match_id, a, b in Match.objects.filter(id__in=ids).values_list("id", "player_a_id", "player_b_id"):
        everyone[match_id] |= {a, b}
    for match_id, a, b in Match.history.filter(id__in=ids).values_list("id", "player_a_id", "player_b_id"):
        everyone[match_id] |= {a, b}
    now: dict[int, set] = {match_id: set() for match_id in ids}
    for match_id, on, a, b, length, winner in rated_matches().filter(id__in=ids).values_list(
        "id", "played_on", "player_a_id", "player_b_id", "length", "winner_id"
    ):
        now[match_id] = {(a, b, on, length, winner == a), (b, a, on, length, winner == b)}
    was: dict[int, set] = {match_id: set() for match_id in ids}
    players = set().union(*everyone.values())
    for match_id, player, opponent, on, length, won in RatingChange.objects.filter(
        run_id=published_id, player_id__in=players, match_id__in=ids
    ).values_list("match_id", "player_id", "opponent_id", "played_on", "length", "won"):
        was[match_id].add((player, opponent, on, length, won))
    return now, was


def _accounted_history(run: RatingRun, published_id: int, now: dict, was: dict) -> HistoryAccount | None:
    """The rated history's account, when the published run's account with the changes owed
    (`was` taken out, `now` put in) adds up to it; None (with the run's note) when it does not."""
    account = history_account()
    published = RatingRun.objects.filter(pk=published_id).values_list("history_matches", "history_checksum").first()
    if published[0] is None:
        note(run, gettext_noop("The published run keeps no account of its history: rating in full."))
        return None
    expected = HistoryAccount(*published) - account_of_results(was) + account_of_results(now)
    if expected != account:
        note(run, ngettext_lazy(
            "The published ratings do not account for the rated history (%(count)s match with the changes owed, "
            "%(rated)s rated; checksum %(expected)s against %(checksum)s): a change reached it without the outbox, "
            "so it rates in full.",
            "The published ratings do not account for the rated history (%(count)s matches with the changes owed, "
            "%(rated)s rated; checksum %(expected)s against %(checksum)s): a change reached it without the outbox, "
            "so it rates in full.", "count"),
            {"count": expected.matches, "rated": account.matches, "expected": expected.checksum,
             "checksum": account.checksum})
        return None
    return account


def _changed_places(ids: set, now: dict, was: dict) -> tuple[list[tuple], set, bool]:
    """Where in time order the changed results stand (before and after the change), the players
    they touch, and whether a match was added, removed or moved (which renumbers those after it)."""
    places, touched, shifted = [], set(), False
    for match_id in ids:
        if now[match_id] == was[match_id]:
            continue  # the published ratings already hold this result
        for player, opponent, on, _, _ in now[match_id] | was[match_id]:
            places.append((on, match_id))
            touched |= {player, opponent}
        # a match added, removed or moved renumbers the matches after it
        shifted |= {on for _, _, on, _, _ in now[match_id]} != {on for _, _, on, _, _ in was[match_id]}
    return places, touched, shifted


def settled_at(settled, sequence: int):
    """The system as a checkpoint after the first `sequence` matches keeps it: as `settled`, or
    unsettled when the history is not past its settling there (a run from it settles it again,
    `settled_from`, so a change after it needs no full run)."""
    return settled if sequence >= settled.settle_window else settled.settled_with(None)


def note(run: RatingRun, message, values: dict | None = None) -> None:
    """Why a run rates in full: said in the `ratings.recompute` log at once, and kept as the
    run's `note` (`run.note`, written once the run's snapshot is read: nothing is written in it).

    `message` is marked (`gettext_noop`, or `ngettext_lazy` with the name of its count in
    `values`); the note is stored text, shown on the ratings' runs page as kept, so it is written
    in the site's language as an audit trail's reasons are (`in_site_language`)."""
    text = in_site_language(message, values)
    logger.warning("%s run %s: %s", run.system, run.pk, text)
    run.note = text[:2000]


def states_at(checkpoint: RatingCheckpoint, settled, players: np.ndarray) -> tuple[dict, np.ndarray]:
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
        last_played[i] = micros_of(last)
    return state, last_played


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
    settled: object = None


def refresh_checkpoints(run: RatingRun, resume: Resume, rerun: Rerun, standing: dict) -> None:
    """After a rerun from `resume` has published: rewrite the published run's checkpoints after
    its start, in one transaction, and mark them ready; then the run is done. Those `standing`
    (read before the publish marked them unready) that were ready keep the states the changes
    do not reach; the others (new moments, or checkpoints a dead run left unready) copy the
    start's for the players who do not play after it. The run still holds the system (it is
    running) so no other run writes meanwhile; if it was superseded, the checkpoints stay
    unready and runs resume from earlier ones."""
    start = resume.checkpoint
    settled = resume.settled if rerun.settled is None else rerun.settled
    published = resume.published_id
    history, players, since, touched = rerun.history, rerun.players, rerun.since, rerun.touched
    with transaction.atomic():
        if not holds_published(run, published):
            logger.warning("%s run %s was superseded after publishing: its checkpoints stay unready", run.system,
                           run.pk)
            return
        touch(run.pk, stage=RunStage.WRITING)
        moments = set(rerun.moments)
        kept = {on: checkpoint for on, checkpoint in standing.items() if on in moments and checkpoint.ready}
        delete_checkpoints(RatingCheckpoint.objects.filter(
            pk__in=[checkpoint.pk for on, checkpoint in standing.items() if on not in kept]))
        table = connection.ops.quote_name(RatingPlayerState._meta.db_table)
        keep, keep_values = player_rows(RatingPlayerState, "checkpoint_id = %s", [start.pk], players.tolist(),
                                         inside=False)
        copied = ", ".join(connection.ops.quote_name(c) for c in STATE_COLUMNS[1:])
        for moment, cut, at_cut in zip(rerun.moments, rerun.cuts, rerun.pieces.states_at_cuts):
            last_played = when_last_played(history, _last_matches(history, cut), rerun.last_before)
            checkpoint = kept.get(moment)
            there = settled_at(settled, start.sequence + cut)
            if checkpoint is not None:
                stale = (since < cut) | (touched & (since <= cut))
                delete_player_rows(RatingPlayerState, "checkpoint_id = %s", [checkpoint.pk], players[stale].tolist())
                write_states(checkpoint.pk, settled, players, at_cut, last_played, stale & (at_cut["matches"] > 0))
                RatingCheckpoint.objects.filter(pk=checkpoint.pk).update(
                    sequence=start.sequence + cut, ready=True, system_key=repr(there),
                    settled_value=there.settled_value)
                continue
            checkpoint = RatingCheckpoint.objects.create(
                run_id=published, sequence=start.sequence + cut, after_on=moment, after_match_id=-1,
                system_key=repr(there), settled_value=there.settled_value,
            )
            with connection.cursor() as cursor:
                cursor.execute(
                    f"INSERT INTO {table} (checkpoint_id, {copied}) SELECT %s, {copied} FROM {table} WHERE {keep}",
                    [checkpoint.pk, *keep_values],
                )
            write_states(checkpoint.pk, settled, players, at_cut, last_played, at_cut["matches"] > 0)
        _prune_checkpoints(published)
        now = timezone.now()
        RatingRun.objects.filter(pk=run.pk).update(
            status=RunStatus.DONE, stage=RunStage.PUBLISHED, finished_at=now, heartbeat_at=now,
        )
