"""Background jobs of every kind (rating runs, imports, analyses, notifications) are swept by one
periodic task (`games.jobs_sweep`, Celery beat every `CRAWFORD_SWEEP_SECONDS`).

Each app registers what it owes (`job_sweep_register`): a function that sends again the work a
lost message or a dead worker left behind, and returns how much. A job is taken over only when
its heartbeat is older than `stale_after()`, the one setting `CRAWFORD_STALE_SECONDS` for
every kind, so a live job is never run twice at once. A sweep that raises is logged and the
others still run."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings

logger = logging.getLogger("games.jobs")

Sweep = Callable[[], int]
SWEEPS: dict[str, Sweep] = {}
"""kind of job -> its sweep: sends again what is owed, returns how many jobs it sent."""


def stale_after() -> timedelta:
    """How long a running job of any kind may go without a heartbeat before it counts as dead."""
    return timedelta(seconds=settings.CRAWFORD_STALE_SECONDS)


def job_sweep_register(kind: str, sweep: Sweep) -> None:
    SWEEPS[kind] = sweep


def jobs_sweep() -> dict[str, int]:
    """Run every registered sweep; returns, per kind, how many jobs it sent again (None for a
    sweep that failed)."""
    swept = {}
    for kind, sweep in SWEEPS.items():
        try:
            swept[kind] = sweep()
        except Exception:
            logger.exception("the sweep of %s failed", kind)
            swept[kind] = None
        if swept[kind]:
            logger.warning("%s: %s owed sent again", kind, swept[kind])
    return swept
