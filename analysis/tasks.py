"""Celery tasks of the analysis. They call services and hold no rules of their own."""

from celery import shared_task

from . import services


@shared_task(name="analysis.analyse_match", ignore_result=True, acks_late=True, reject_on_worker_lost=True)
def analyse_match(match_id: int) -> None:
    """Analyse one match with GNU Backgammon (nothing when another worker has it)."""
    services.analysis_run(match_id=match_id)


@shared_task(name="analysis.sweep", ignore_result=True)
def analysis_sweep() -> int:
    """Queue again every analysis a lost task or a dead worker left behind."""
    return len(services.analysis_owed())
