"""Requesting rating runs, the outbox of changes they answer (`RatingPending`), claiming a run,
the worker's loop, and the periodic check that rates whatever is owed."""

from __future__ import annotations

import logging
import threading
import time
from datetime import datetime
from functools import partial

from django.db import IntegrityError, OperationalError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from config.errors import ConflictError
from config.languages import in_site_language
from games.jobs import stale_after
from games.models import Match, MatchKindChoice

from ..background import after_response
from ..models import ChangeKind, RatingPending, RatingRun, RatingSystemState, RunStage, RunStatus, SystemChoice
from .execute import rating_run_execute
from .systems import enabled_systems, system_names

logger = logging.getLogger("ratings.recompute")


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

    from ..tasks import ratings_recompute

    if ratings_recompute.app.conf.task_always_eager and after_response(
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
            error=in_site_language(gettext_noop("It could not be sent to a worker (%(error)s); the periodic check or the"
                                                " next result runs it."), {"error": error}),
        )
        RatingSystemState.objects.filter(system=run["system"], queued_at=run["requested_at"]).update(queued_at=None)
    except OperationalError as error:
        if not database_locked(error):
            logger.exception("rating run %s failed in-process", run_id)
            return
        _run_again_after_locked(run_id, error)
    except Exception:
        logger.exception("rating run %s failed in-process", run_id)


def _run_again_after_locked(run_id: int, error: OperationalError) -> None:
    """A run executed in-process met SQLite's "database is locked" (another writer held the file
    past the connection's timeout) and marked itself failed: run its system again after a pause,
    up to `LOCKED_RETRY_PAUSES`. The changes wait in the outbox meanwhile; after the last try the
    periodic check, or the next result, rates them."""
    from ..tasks import ratings_recompute

    system = RatingRun.objects.filter(pk=run_id).values_list("system", flat=True).first()
    for pause in LOCKED_RETRY_PAUSES:
        logger.warning("%s run %s met a locked database (%s): trying again in %g s", system, run_id, error, pause)
        time.sleep(pause)
        run = None
        try:
            run = RatingRun.objects.create(system=system, requested_at=timezone.now())
            ratings_recompute.delay(run.pk)
            return
        except OperationalError as again:
            if not database_locked(again):
                logger.exception("%s run %s failed in-process", system, run.pk if run else run_id)
                return
            run_id, error = (run.pk if run else run_id), again
        except Exception:
            logger.exception("%s run %s failed in-process", system, run.pk if run else run_id)
            return
    logger.error("%s run %s met a locked database at every try (%s): the periodic check or the next result rates"
                 " what is owed", system, run_id, error)


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


_prompts = threading.local()
"""The prompt the changes of this thread's open transaction share (`RunsRequested`)."""


class RunsRequested:
    """What a transaction that changed the rated history does once it commits: queue a run of
    each system it changed (`_runs_queue`), once however many changes it made. Only a prompt: the
    changes are in the outbox already, and the periodic check finds them if this never runs.
    Within a request the prompt waits until the response has gone out (`background`): a Save at
    the desk answers without waiting for the run's bookkeeping or the broker.

    The changes of one transaction share the open prompt of their thread: each adds its systems
    and registers the prompt with `transaction.on_commit`; the first call after the commit makes
    it, the later ones find it made, and the next change opens a new one. A prompt whose
    transaction was rolled back stays open and is made by the next transaction that commits (its
    systems then get a run with nothing new to rate, which costs nothing)."""

    def __init__(self, names: list[str] = ()) -> None:
        self.names = list(names)
        self.made = False

    def __call__(self) -> None:
        if self.made:
            return
        self.made = True
        if getattr(_prompts, "open", None) is self:
            _prompts.open = None
        if not after_response(self._queue):
            self._queue()

    def _queue(self) -> None:
        """Queue the runs (without a broker: run them); a "database is locked" tries again after
        a pause, up to `LOCKED_RETRY_PAUSES`. Whatever else goes wrong, or the last try, is
        logged: the change is committed and in the outbox, and the periodic check queues it."""
        for pause in (*LOCKED_RETRY_PAUSES, None):
            try:
                _runs_queue(self.names)
                return
            except OperationalError as error:
                if pause is None or not database_locked(error):
                    logger.exception("runs of %s could not be queued; the periodic check will", ", ".join(self.names))
                    return
                logger.warning("runs of %s met a locked database (%s): trying again in %g s",
                               ", ".join(self.names), error, pause)
            except Exception:
                logger.exception("runs of %s could not be queued; the periodic check will", ", ".join(self.names))
                return
            time.sleep(pause)


LOCKED_RETRY_PAUSES = (0.5, 1, 2, 4, 8, 15)
"""Seconds between the tries of a prompt whose run met SQLite's "database is locked" (another
writer held the file longer than the connection's timeout): half a minute in all, after which
the periodic check finds the change in the outbox."""


def database_locked(error: OperationalError) -> bool:
    """Whether `error` is SQLite's "database is locked" (or "... table is locked")."""
    return "is locked" in str(error)


def rating_change_record(*, match_ids: list[int] | None, kind: str, systems: list[str] | None = None) -> None:
    """The rated history changed: write the change to the outbox in the caller's transaction
    (one row per system: `match_ids`, or none for a change known only as a whole), and once it
    commits queue the runs that answer it. Call it inside the transaction that makes the change."""
    names = systems or enabled_systems()
    with transaction.atomic():
        _pending_write(names, match_ids, kind)
        prompt = getattr(_prompts, "open", None)
        if prompt is None or prompt.made:
            prompt = _prompts.open = RunsRequested()
        prompt.names += [name for name in names if name not in prompt.names]
        transaction.on_commit(prompt)


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


def rating_import_record() -> None:
    """A chunk of imported results is being stored: write "results imported" to the outbox of
    every enabled system, in the chunk's transaction. The runs are asked for once, when the
    import ends (`rating_import_finish`), not after every chunk."""
    _pending_write(enabled_systems(), None, ChangeKind.IMPORTED)


def rating_import_finish(*, imported: int) -> None:
    """An import of results ended, its chunks committed with their outbox rows: once the
    surrounding transaction commits, queue the runs that rate them. An import taken over after
    its last chunk stores nothing (`imported` 0), but its chunks are still owed while imported
    changes wait in the outbox that no run took."""
    if imported or RatingPending.objects.filter(run_id__isnull=True, kind=ChangeKind.IMPORTED).exists():
        transaction.on_commit(RunsRequested(enabled_systems()))


# -- claiming ------------------------------------------------------------------------------------


def _supersede_stale(system: str, now: datetime) -> int:
    """Mark the system's running runs whose heartbeat went stale as superseded."""
    return RatingRun.objects.filter(system=system, status=RunStatus.RUNNING, heartbeat_at__lt=now - stale_after()).update(
        status=RunStatus.SUPERSEDED,
        finished_at=now,
        error=in_site_language(gettext_noop("Its worker stopped reporting progress; a later run replaces it.")),
    )


def _covered(state: RatingSystemState) -> int:
    """The requests the system's published ratings answer: the request counter when the
    published run was claimed (0 before any run is published). Anything above it is owed."""
    if state.published_run_id is None:
        return 0
    return RatingRun.objects.filter(pk=state.published_run_id).values_list("covers_requests", flat=True).first() or 0


def _outbox_owes(state: RatingSystemState, *, after: RatingRun | None = None) -> bool:
    """What the outbox owes: whether the system of `state` is owed a run. It is when requests
    arrived after those the published ratings answer (`_covered`), or the outbox holds changes
    of the system, a dead or failed run's too (no published run answers them).

    The worker asks it right `after` a run ended (published or failed): then requests after
    those that run covered count, and only the changes no run took. A failed run's own changes
    wait for the periodic check, which tries again after the stale time."""
    covered = _covered(state) if after is None else after.covers_requests
    if state.requested > covered:
        return True
    pending = RatingPending.objects.filter(system=state.system)
    if after is not None:
        pending = pending.filter(run_id__isnull=True)
    return pending.exists()


def rating_run_claim(*, run: RatingRun, force: bool = False) -> RatingRun | None:
    """Claim a queued run for this worker: returns it, now running, or None when it is not
    this worker's to run (already claimed, another run of the system is running, or — unless
    `force` — the published ratings already answer every request). A running run whose
    heartbeat went stale (its worker died) is superseded first, so the claim takes over."""
    now = timezone.now()
    with transaction.atomic():
        _state(run.system)
        state = RatingSystemState.objects.select_for_update().get(system=run.system)
        _supersede_stale(run.system, now)  # runs' rows after the state's, the one lock order
        state.queued_at = None
        state.save(update_fields=["queued_at"])
        queued = RatingRun.objects.filter(pk=run.pk, status=RunStatus.QUEUED)
        if not force and state.published_run_id is not None and not _outbox_owes(state):
            queued.update(status=RunStatus.SUPERSEDED, finished_at=now,
                          error=in_site_language(gettext_noop("Nothing changed since the last run.")))
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
                error=in_site_language(gettext_noop("Another run of this system was running; it goes again for the"
                                                    " requests it missed.")),
            )
            return None
        if claimed != 1:
            return None
        state.claimed = state.requested
        state.save(update_fields=["claimed"])
        # every change not yet published is this run's to answer, those of runs that died too
        RatingPending.objects.filter(system=run.system).update(run_id=run.pk)
    return RatingRun.objects.get(pk=run.pk)


# -- the worker's loop and the periodic check ----------------------------------------------------


def _next_run(run: RatingRun) -> RatingRun | None:
    """After `run` ended: a new queued run when the outbox owes one (`_outbox_owes`): requests
    arrived after those `run` covered, or changes are in the outbox that no run took."""
    if not _outbox_owes(_state(run.system), after=run):
        return None
    now = timezone.now()
    RatingSystemState.objects.filter(system=run.system).update(queued_at=now)
    return RatingRun.objects.create(system=run.system, requested_at=now)


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
            follow_up = _next_run(claimed)
            if follow_up is not None:
                _enqueue(follow_up.pk)
            raise
        run = _next_run(claimed)
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
        state = RatingSystemState.objects.select_for_update().get(system=system)
        _supersede_stale(system, now)  # runs' rows after the state's, the one lock order
        if RatingRun.objects.filter(system=system, status=RunStatus.RUNNING).exists():
            return None
        if not _outbox_owes(state):
            _supersede_orphans(state, now)
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


def _supersede_orphans(state: RatingSystemState, now: datetime) -> None:
    """Nothing is owed and no run is running: a run still queued answers nothing (its message
    was lost, or its claim failed and the broker does not send it again). Mark it superseded and
    free the system to queue the next request at once, so that no run stays "queued" for ever."""
    if RatingRun.objects.filter(system=state.system, status=RunStatus.QUEUED).update(
        status=RunStatus.SUPERSEDED, finished_at=now,
        error=in_site_language(gettext_noop("Nothing was left for it to rate."))
    ):
        state.queued_at = None
        state.save(update_fields=["queued_at"])


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
        raise ConflictError(_("Run %(run)s of %(system)s is in progress; try again when it ends.")
                            % {"run": running.pk if running else "?", "system": name})
    return rating_run_execute(run=claimed, full=True)
