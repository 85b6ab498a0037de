"""Rating work after the response: what a request that changed the rated history asks of the
ratings waits until the response has gone out.

A Save at the desk writes its change to the ratings' outbox (`RatingPending`) in its own
transaction; asking for the runs that answer it (counters, a run row, a message to the broker)
and, where there is no broker (the two-command install: SQLite, Celery tasks executed
in-process), the run itself, are kept until the request has finished (`request_finished`: the
response has gone out) and then done on a thread of its own, with its own database connection.
Nothing is lost if the process ends first: the change is in the outbox, and the next run, or the
sweep, rates it.

The new-match e-mails a Save asks for (`tournaments.services.notifications`) wait the same way.

Outside a request (a management command, a shell, a Celery task) the work is done at once, as
before. `RATINGS_AFTER_RESPONSE` turns this off (the tests do, to rate synchronously)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from django.conf import settings
from django.db import connections

logger = logging.getLogger("ratings.recompute")

_request = threading.local()
THREADS: list[threading.Thread] = []
"""The threads started so far that may still run (a bench or a test may wait for them)."""


def request_started(**kwargs) -> None:
    _request.deferred = [] if getattr(settings, "RATINGS_AFTER_RESPONSE", True) else None


def after_response(work: Callable[[], object]) -> bool:
    """Keep `work` until the current request has finished; False when there is no request to
    wait for (then the caller does it now)."""
    deferred = getattr(_request, "deferred", None)
    if deferred is None:
        return False
    deferred.append(work)
    return True


def request_finished(**kwargs) -> None:
    deferred, _request.deferred = getattr(_request, "deferred", None), None
    if not deferred:
        return
    thread = threading.Thread(target=_run, args=(deferred,), name="ratings-after-response", daemon=True)
    THREADS[:] = [alive for alive in THREADS if alive.is_alive()]
    THREADS.append(thread)
    thread.start()


def _run(deferred: list[Callable[[], object]]) -> None:
    try:
        for work in deferred:
            try:
                work()
            except Exception:  # the outbox keeps the change: the next run rates it
                logger.exception("rating work after the response failed")
    finally:
        connections.close_all()


def wait(timeout: float = 60.0) -> None:
    """Wait for the rating work started after responses so far."""
    for thread in list(THREADS):
        thread.join(timeout)
