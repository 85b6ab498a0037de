"""Celery tasks of the ratings app. They call services and hold no rules of their own."""

from celery import shared_task

from . import services


@shared_task(name="ratings.recompute", ignore_result=True)
def ratings_recompute(run_id: int) -> int | None:
    """Claim and execute a queued recompute (and any that requests made necessary meanwhile).
    Returns the id of the last run published, None when another worker had it."""
    run = services.rating_run_process(run_id=run_id)
    return run.pk if run is not None else None
