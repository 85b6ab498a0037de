"""The Celery application: `celery -A config worker`, and one `celery -A config beat` that sends
the periodic check for owed ratings (`CELERY_BEAT_SCHEDULE` in settings); `worker -B` runs both
on a single machine."""

import os

from celery import Celery
from celery.signals import worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("crawford")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="crawford.heartbeat", ignore_result=True)
def heartbeat() -> None:
    """Sent by beat every HEALTH_HEARTBEAT_SECONDS: a worker that runs it shows `/health/` that beat,
    the broker and a worker all work."""
    from config.health import heartbeat_record

    heartbeat_record()


@worker_ready.connect
def heartbeat_on_start(**_) -> None:
    from config.health import heartbeat_record

    heartbeat_record()
