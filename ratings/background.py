"""Work after the response: what a request asks for that need not hold its answer up.

`AfterResponseMiddleware` (listed in `settings.MIDDLEWARE`) opens a window for each request:
while it lasts, `after_response(work)` keeps `work` instead of doing it. When Django has sent the
response (its `request_finished` signal, which the middleware connects when it is loaded), the
kept work runs on a thread of its own, "ratings-after-response", with its own database
connection, so the answer never waits for it and the web process takes the next request.

What is kept this way, and why:

- the rating runs a change asks for (`services.runs.RunsRequested`: counters, a run row, a
  message to the broker; without a broker, the run itself): a Save at the desk writes its change
  to the ratings' outbox (`RatingPending`) in its own transaction and answers at once;
- the new-match e-mails a Save asks for (`tournaments.services.notifications`).

Nothing is lost if the process ends first (the thread is a daemon: a web process that stops does
not wait for it): the change is in the outbox and the next run, or the periodic sweep, rates it;
the e-mails owed are found by the sweep too. Outside a request (a command, a shell, a Celery
task), and with `RATINGS_AFTER_RESPONSE` off (the test settings), the work is done at once.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from django.conf import settings
from django.core.signals import request_finished
from django.db import connections

logger = logging.getLogger("ratings.recompute")

_request = threading.local()
THREADS: list[threading.Thread] = []
"""The threads started so far that may still run (a bench or a test may wait for them)."""


class AfterResponseMiddleware:
    """Keeps the work a request asks for with `after_response` until its response has gone out."""

    def __init__(self, get_response):
        self.get_response = get_response
        request_finished.connect(_start_kept_work, dispatch_uid="ratings.background.after_response")

    def __call__(self, request):
        _request.deferred = [] if settings.RATINGS_AFTER_RESPONSE else None
        return self.get_response(request)


def after_response(work: Callable[[], object]) -> bool:
    """Keep `work` until the current request's response has gone out; False when there is no
    request to wait for (then the caller does it now)."""
    deferred = getattr(_request, "deferred", None)
    if deferred is None:
        return False
    deferred.append(work)
    return True


def _start_kept_work(**kwargs) -> None:
    """The response has gone out: run what the request kept, on a thread of its own."""
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
                logger.exception("work after the response failed")
    finally:
        connections.close_all()


def wait(timeout: float = 60.0) -> None:
    """Wait for the work started after responses so far."""
    for thread in list(THREADS):
        thread.join(timeout)
