"""Celery tasks of the games app. They call services and hold no rules of their own."""

from celery import shared_task

from . import imports, jobs


@shared_task(name="games.import_job", ignore_result=True)
def import_job_task(job_id: int) -> str | None:
    """Claim and run an import job (a match file or a results file). Returns how it ended."""
    job = imports.import_job_run(job_id=job_id)
    return job.status if job is not None else None


@shared_task(name="games.jobs_sweep", ignore_result=True)
def jobs_sweep() -> dict:
    """The periodic sweep (Celery beat): send again every kind of job that is owed."""
    return jobs.jobs_sweep()
