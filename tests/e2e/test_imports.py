"""Staff watch an import's progress bar fill in a real browser, on a phone."""

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import ImportJob

from .test_browser import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_import_page_follows_a_running_job_until_it_is_done(phone, live_server):
    staff = get_user_model().objects.create_user("clerk", password="pw-clerk-12345", is_staff=True, is_superuser=True)
    job = ImportJob.objects.create(kind="results", name="federation-2025.csv", text="-", status="running",
                                   rows_total=100_000, rows_done=25_000, heartbeat_at=timezone.now(),
                                   created_by=staff)
    base = live_server.url
    log_in(phone, base, "clerk", "pw-clerk-12345")
    phone.goto(f"{base}/matches/imports/{job.pk}/")
    bar = phone.locator(f"#import-{job.pk}")
    assert (bar.get_attribute("value"), bar.get_attribute("max")) == ("25000", "100000")
    assert "Running: 25000 of 100000 rows stored" in phone.content()

    ImportJob.objects.filter(pk=job.pk).update(
        status="done", rows_done=100_000, finished_at=timezone.now(),
        result={"imported": 99_990, "already_there": 10, "players_created": ["Anna Berg"], "note": None})
    phone.get_by_text("Done: 100000 of 100000 rows stored").wait_for()  # the page polls every 2 s
    assert phone.locator(f"#import-{job.pk}").get_attribute("value") == "100000"
    assert "99990" in phone.locator("dl").inner_text()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
