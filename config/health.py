"""`GET /health/`: what a monitor polls. 200 when every part works, 503 when one does not.

Checked, in three queries and one round trip to Redis:
- database: it answers;
- broker: Redis answers (`off` without a broker: tasks run in the web process);
- worker: the heartbeat that beat sends every HEALTH_HEARTBEAT_SECONDS and a worker writes into
  Redis is recent, so beat, the broker and a worker all work (`off` without a broker);
- ratings: no rating change has been owed for longer than HEALTH_RATINGS_OWED_SECONDS, and the
  last rating run;
- analysis: no analysis has waited longer than HEALTH_ANALYSIS_WAIT_SECONDS, and how many wait.

The answer says what failed in words, never an address, a password or an exception's text; the
log names the part and the exception.
"""

import logging
import time
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

from django.conf import settings
from django.db import DatabaseError
from django.db.models import Count, Min, Q
from django.http import JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

logger = logging.getLogger("crawford.health")

HEARTBEAT_KEY = "crawford:worker-heartbeat"
OK, FAILING, OFF = "ok", "failing", "off"


def _redis():
    import redis

    return redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=2, socket_connect_timeout=2)


def heartbeat_record() -> None:
    """A worker's sign of life (the `crawford.heartbeat` task, and a worker as it starts)."""
    if settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://", "unix://")):
        _redis().set(HEARTBEAT_KEY, f"{time.time():.3f}", ex=7 * 86400)


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _failing(part: str, detail: str, error: BaseException | None = None) -> dict:
    if error is not None:
        logger.error("health: %s failing: %s (%s: %s)", part, detail, type(error).__name__, error)
    else:
        logger.error("health: %s failing: %s", part, detail)
    return {"status": FAILING, "detail": detail}


def check_broker_and_worker() -> tuple[dict, dict]:
    if not settings.CELERY_BROKER_URL:
        off = "no broker (CELERY_BROKER_URL unset): tasks run in the web process"
        return {"status": OFF, "detail": off}, {"status": OFF, "detail": off}
    try:
        beat = _redis().get(HEARTBEAT_KEY)
    except Exception as error:  # any failure to reach Redis is the broker's
        broker = _failing("broker", "the broker (Redis) does not answer", error)
        return broker, {"status": FAILING, "detail": "unknown: the broker does not answer"}
    broker = {"status": OK}
    silent_after = settings.HEALTH_WORKER_SILENT_SECONDS
    if beat is None:
        return broker, _failing("worker", "no worker heartbeat yet: is a worker running, and beat?")
    last = datetime.fromtimestamp(float(beat), tz=dt_timezone.utc)
    age = max(0.0, time.time() - float(beat))
    worker = {"status": OK, "last_heartbeat": _iso(last), "age_seconds": round(age)}
    if age > silent_after:
        worker.update(_failing("worker", f"no worker heartbeat for {age:.0f} s: a worker or beat is down"))
    return broker, worker


def check_ratings(now: datetime) -> dict:
    from ratings.models import RatingPending, RatingRun

    owed_since = RatingPending.objects.aggregate(since=Min("created_at"))["since"]
    last = (RatingRun.objects.filter(finished_at__isnull=False).order_by("-finished_at")
            .values("system", "status", "finished_at").first())
    answer = {"status": OK, "owed_since": _iso(owed_since),
              "last_run": last and {**last, "finished_at": _iso(last["finished_at"])}}
    limit = timedelta(seconds=settings.HEALTH_RATINGS_OWED_SECONDS)
    if owed_since is not None and now - owed_since > limit:
        minutes = (now - owed_since).total_seconds() / 60
        answer.update(_failing("ratings", f"a rating change has been owed for {minutes:.0f} minutes"))
    return answer


def check_analysis(now: datetime) -> dict:
    from analysis.models import AnalysisStatus, MatchAnalysis

    waiting = Q(status__in=[AnalysisStatus.QUEUED, AnalysisStatus.RUNNING])
    backlog = MatchAnalysis.objects.aggregate(
        waiting=Count("id", filter=waiting), oldest=Min("queued_at", filter=waiting),
        failed=Count("id", filter=Q(status=AnalysisStatus.FAILED)),
    )
    answer = {"status": OK, "waiting": backlog["waiting"], "oldest_waiting_since": _iso(backlog["oldest"]),
              "failed": backlog["failed"]}
    limit = timedelta(seconds=settings.HEALTH_ANALYSIS_WAIT_SECONDS)
    if backlog["oldest"] is not None and now - backlog["oldest"] > limit:
        minutes = (now - backlog["oldest"]).total_seconds() / 60
        answer.update(_failing("analysis", f"{backlog['waiting']} analyses wait, the oldest for {minutes:.0f} minutes"))
    return answer


def health_report() -> dict:
    now = timezone.now()
    checks = {}
    try:
        checks["ratings"] = check_ratings(now)
        checks["analysis"] = check_analysis(now)
        checks["database"] = {"status": OK}
    except DatabaseError as error:
        checks = {"database": _failing("database", "the database does not answer", error)}
    checks["broker"], checks["worker"] = check_broker_and_worker()
    status = FAILING if any(check["status"] == FAILING for check in checks.values()) else OK
    order = ["database", "broker", "worker", "ratings", "analysis"]
    return {"status": status, "version": settings.CRAWFORD_VERSION,
            "checks": {name: checks[name] for name in order if name in checks}}


@never_cache
@require_GET
def health(request):
    report = health_report()
    return JsonResponse(report, status=200 if report["status"] == OK else 503)


def version(request) -> dict:
    """Template context: `crawford_version` for the footer."""
    return {"crawford_version": settings.CRAWFORD_VERSION}
