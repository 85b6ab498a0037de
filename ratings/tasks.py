"""Celery tasks of the ratings app. They call services and hold no rules of their own.

Both are acknowledged only once they end (`acks_late`) and given back to the broker when the
worker process running them dies (`reject_on_worker_lost`), so a killed worker loses no message.
Running one twice is harmless: a run is claimed by a conditional UPDATE, and a system has at
most one running run (a partial unique index)."""

from celery import shared_task

from . import services


@shared_task(name="ratings.recompute", ignore_result=True, acks_late=True, reject_on_worker_lost=True)
def ratings_recompute(run_id: int) -> int | None:
    """Claim and execute a queued recompute (and any that requests made necessary meanwhile).
    Returns the id of the last run published, None when another worker had it."""
    run = services.rating_run_process(run_id=run_id)
    return run.pk if run is not None else None


@shared_task(name="ratings.recompute_owed", ignore_result=True, acks_late=True, reject_on_worker_lost=True)
def ratings_recompute_owed() -> list[int]:
    """The periodic check (Celery beat): take over runs whose worker died and rate whatever is
    owed. Returns the ids of the runs published."""
    return [run.pk for run in services.rating_recompute_owed()]


@shared_task(name="ratings.calibrate", ignore_result=True)
def ratings_calibrate() -> int:
    """The monthly fit of crawford's parameters on this site's history (Celery beat, only when
    RATINGS_CALIBRATE_MONTHLY is on). It stores what it found; adopting waits for a staff member.
    Returns the calibration's id."""
    from .calibrated import rating_calibration_fit

    return rating_calibration_fit().pk
