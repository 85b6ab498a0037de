"""The Celery application: `celery -A config worker`, and one `celery -A config beat` that sends
the periodic check for owed ratings (`CELERY_BEAT_SCHEDULE` in settings); `worker -B` runs both
on a single machine."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("crawford")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
