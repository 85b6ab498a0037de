"""Imports as background jobs: a match file or a results file, run by a Celery task through the
same services as the management commands, with progress a page and the API can show.

1. `import_job_submit` stores the file's text as a queued `ImportJob` and enqueues the task once
   the transaction commits.
2. The task calls `import_job_run`, which claims the job (a conditional UPDATE from queued, or
   from a running job whose heartbeat went stale, to running: one worker wins) and hands it to
   the runner of its kind (`RUNNERS`, filled in `games.apps`: `games.matfiles` for match files,
   `games.results` for results). The runner reports progress through `JobProgress`, which also beats
   the heartbeat, in the same transaction as the rows it stored.
3. The job ends done with its result, or failed with its errors by line, written in the language
   of whoever sent the file (kept with the job's options), whatever language the worker runs in.

A job whose worker died keeps a stale heartbeat; a queued job whose message was lost is never
taken. `import_jobs_resume_stale` (the periodic sweep, `games.jobs`, and also when a job is
submitted or a stalled job is looked at) sends either again: the import adds nothing twice, so the next worker finishes what is left.
After `MAX_ATTEMPTS` claims it is marked failed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q, Value
from django.db.models.functions import Greatest
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .jobs import stale_after
from .models import ImportJob, ImportKind, ImportStatus

logger = logging.getLogger("games.imports")

MAX_ATTEMPTS = 3
"""Claims of a job before a job that keeps dying is marked failed."""


class ImportProblems(ValueError):
    """A file that cannot be imported: `problems` lists (line or None, message)."""

    def __init__(self, problems: list[tuple[int | None, str]]):
        self.problems = problems
        super().__init__("; ".join(f"line {line}: {text}" if line else text for line, text in problems))


Runner = Callable[..., dict]
RUNNERS: dict[str, Runner] = {}
"""kind -> runner(job=ImportJob, progress=JobProgress) -> the result as plain data; raises
`ImportProblems` for a file that cannot be imported."""


def import_runner_register(kind: str, runner: Runner) -> None:
    RUNNERS[kind] = runner




class JobProgress:
    """`progress(done, total)`: rows done so far, and a heartbeat. Call it inside the transaction
    that stores those rows, so the count shown is the count committed."""

    def __init__(self, job_id: int):
        self.job_id = job_id

    def __call__(self, done: int, total: int) -> None:
        # A job taken over counts again from the start: the bar never goes back.
        ImportJob.objects.filter(pk=self.job_id, status=ImportStatus.RUNNING).update(
            rows_done=Greatest(F("rows_done"), Value(min(done, total))), rows_total=total, heartbeat_at=timezone.now()
        )


def _enqueue(job_id: int) -> None:
    """Send the job to a worker. A broker that cannot be reached fails nothing: the job stays
    queued, and the periodic sweep sends it again once it is stale."""
    from .tasks import import_job_task

    try:
        import_job_task.delay(job_id)
    except Exception:
        logger.warning("import job %s could not be sent to a worker; the sweep sends it again", job_id, exc_info=True)


def import_job_submit(
    *, kind: str, name: str, text: str, note: str = "", by=None, options: dict | None = None
) -> ImportJob:
    """Queue the import of a file's text (with the import's `options`, plain data its runner
    reads); the task starts once the transaction commits."""
    if kind not in ImportKind.values:
        raise ValueError(f"no import of kind {kind!r}")
    import_jobs_resume_stale()
    with transaction.atomic():
        name = name.replace("\x00", "")[:255]  # a file name is whatever the client sent
        options = {"language": translation.get_language() or settings.LANGUAGE_CODE, **(options or {})}
        job = ImportJob.objects.create(kind=kind, name=name, text=text, note=(note or "")[:200], created_by=by,
                                       options=options)
        transaction.on_commit(partial(_enqueue, job.pk))
    return job


def import_job_claim(*, job_id: int) -> ImportJob | None:
    """Claim a queued job, or take over a running one whose worker stopped beating. Returns the
    job, now running, or None when it is not this worker's."""
    now = timezone.now()
    claimable = Q(status=ImportStatus.QUEUED) | Q(status=ImportStatus.RUNNING, heartbeat_at__lt=now - stale_after())
    claimed = ImportJob.objects.filter(claimable, pk=job_id, attempts__lt=MAX_ATTEMPTS).update(
        status=ImportStatus.RUNNING, started_at=now, heartbeat_at=now, attempts=F("attempts") + 1
    )
    if claimed != 1:
        return None
    return ImportJob.objects.get(pk=job_id)


def _finish(job_id: int, **fields) -> None:
    ImportJob.objects.filter(pk=job_id, status=ImportStatus.RUNNING).update(finished_at=timezone.now(), **fields)


def import_job_run(*, job_id: int) -> ImportJob | None:
    """What the task does: claim the job, run it, and store how it ended. Returns the job (None
    when another worker has it)."""
    job = import_job_claim(job_id=job_id)
    if job is None:
        return None
    runner = RUNNERS[job.kind]
    with translation.override(job.options.get("language") or settings.LANGUAGE_CODE):
        try:
            result = runner(job=job, progress=JobProgress(job.pk))
        except ImportProblems as rejected:
            errors = [{"line": line, "problem": str(text)} for line, text in rejected.problems]
            _finish(job.pk, status=ImportStatus.FAILED, errors=errors)
        except Exception as error:
            logger.exception("import job %s failed", job.pk)
            problem = _("The import stopped on an error: %(error)s") % {"error": f"{type(error).__name__}: {error}"}
            _finish(job.pk, status=ImportStatus.FAILED, errors=[{"line": None, "problem": problem[:2000]}])
        else:
            _finish(job.pk, status=ImportStatus.DONE, result=result, rows_done=F("rows_total"))
    job.refresh_from_db()
    return job


def _stale(now) -> Q:
    """Running without a heartbeat, or queued and never taken (its message lost), for too long."""
    cut = now - stale_after()
    return Q(status=ImportStatus.RUNNING, heartbeat_at__lt=cut) | Q(
        Q(heartbeat_at__lt=cut) | Q(heartbeat_at__isnull=True, created_at__lt=cut), status=ImportStatus.QUEUED
    )


def import_jobs_resume_stale() -> list[int]:
    """Queue again the running jobs whose worker stopped beating, and send again the queued jobs
    no worker took (a broker that lost the message); fail those that died `MAX_ATTEMPTS` times.
    Returns the ids sent again."""
    now = timezone.now()
    dead = ImportJob.objects.filter(_stale(now), attempts__gte=MAX_ATTEMPTS)
    for job_id, options in dead.values_list("pk", "options"):
        # In the language of whoever sent the file, as the job's own problems are.
        with translation.override((options or {}).get("language") or settings.LANGUAGE_CODE):
            problem = ngettext(
                "Its worker stopped %(count)s time; nothing more will be tried. What was stored stays; importing the "
                "file again adds the rest.",
                "Its worker stopped %(count)s times; nothing more will be tried. What was stored stays; importing the "
                "file again adds the rest.", MAX_ATTEMPTS) % {"count": MAX_ATTEMPTS}
        dead.filter(pk=job_id).update(
            status=ImportStatus.FAILED, finished_at=now, errors=[{"line": None, "problem": problem}],
        )
    resumed = []
    for job_id in ImportJob.objects.filter(_stale(now), attempts__lt=MAX_ATTEMPTS).values_list("pk", flat=True):
        if ImportJob.objects.filter(_stale(now), pk=job_id).update(status=ImportStatus.QUEUED, heartbeat_at=now):
            logger.warning("import job %s: no worker reported on it; sent again", job_id)
            transaction.on_commit(partial(_enqueue, job_id))
            resumed.append(job_id)
    return resumed


def import_job_stalled(job: ImportJob) -> bool:
    """The job says running but its worker stopped beating, or it waits and no worker took it."""
    if job.status not in (ImportStatus.RUNNING, ImportStatus.QUEUED):
        return False
    last = job.heartbeat_at or (job.created_at if job.status == ImportStatus.QUEUED else None)
    return last is None or last < timezone.now() - stale_after()
