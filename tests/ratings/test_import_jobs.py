"""Import jobs: claimed once, taken over when their worker dies, never left running silently;
and imports running at once never create the same new player twice."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone, translation

from games import imports, results
from games.imports import (
    JobProgress,
    import_job_claim,
    import_job_run,
    import_job_submit,
)
from games.models import ImportJob, Match, Player

from .conftest import WorkerKilled

pytestmark = pytest.mark.django_db

ROWS = ("played_on,player_a,player_b,length,score_a,score_b,source_id\n"
        + "".join(f"2025-01-{day:02d},Anna,Bo,3,3,{day % 3},r{day}\n" for day in range(1, 8)))


@pytest.fixture
def no_enqueue(monkeypatch):
    sent = []
    monkeypatch.setattr(imports, "_enqueue", sent.append)
    return sent


def submit(text=ROWS, by=None):
    return import_job_submit(kind="results", name="results.csv", text=text, by=by)


def go_stale(job):
    ImportJob.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now() - timedelta(minutes=10))


def test_a_job_is_claimed_by_one_worker_only(no_enqueue):
    job = submit()
    assert import_job_claim(job_id=job.pk).status == "running"
    assert import_job_claim(job_id=job.pk) is None
    assert ImportJob.objects.get(pk=job.pk).attempts == 1


def test_a_job_killed_half_way_is_taken_over_when_looked_at_and_finishes_without_duplicates(
    staff_api, staff, no_enqueue, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(results, "IMPORT_CHUNK", 3)
    job = submit(by=staff)
    real = JobProgress.__call__
    killed = []

    def dies_in_the_second_chunk(self, done, total):
        real(self, done, total)
        if done == 6 and not killed:  # inside the second chunk's transaction: the first chunk is committed
            killed.append(done)
            raise WorkerKilled()

    monkeypatch.setattr(JobProgress, "__call__", dies_in_the_second_chunk)
    with pytest.raises(WorkerKilled):
        import_job_run(job_id=job.pk)
    stopped = staff_api.get(f"/api/v1/imports/{job.pk}/").json()
    assert (stopped["status"], stopped["rows_done"], stopped["rows_total"], stopped["stalled"]) == ("running", 3, 7, False)
    assert Match.objects.count() == 3
    go_stale(job)
    with django_capture_on_commit_callbacks(execute=True):
        looked_at = staff_api.get(f"/api/v1/imports/{job.pk}/").json()
    assert looked_at["status"] == "queued" and no_enqueue == [job.pk]
    import_job_run(job_id=job.pk)
    done = staff_api.get(f"/api/v1/imports/{job.pk}/").json()
    assert (done["status"], done["rows_done"], done["rows_total"], done["attempts"]) == ("done", 7, 7, 2)
    assert done["result"] == {"imported": 4, "already_there": 3, "players_created": [], "not_in_sheet": [], "note": None}
    assert Match.objects.count() == 7 and Player.objects.count() == 2


def test_a_job_whose_worker_keeps_dying_is_marked_failed(no_enqueue):
    job = submit()
    ImportJob.objects.filter(pk=job.pk).update(status="running", attempts=imports.MAX_ATTEMPTS)
    go_stale(job)
    assert imports.import_jobs_resume_stale() == []
    job.refresh_from_db()
    assert job.status == "failed" and job.finished_at is not None
    assert job.errors == [{"line": None, "problem": "Its worker stopped 3 times; nothing more will be tried."
                           " What was stored stays; importing the file again adds the rest."}]


def test_a_job_that_keeps_dying_is_failed_in_the_language_of_whoever_sent_it(no_enqueue):
    with translation.override("da"):
        job = submit()
    ImportJob.objects.filter(pk=job.pk).update(status="running", attempts=imports.MAX_ATTEMPTS)
    go_stale(job)
    assert imports.import_jobs_resume_stale() == []
    job.refresh_from_db()
    assert job.errors == [{"line": None, "problem": "Dens worker stoppede 3 gange; der prøves ikke mere. Det, der "
                           "blev gemt, bliver; importeres filen igen, kommer resten med."}]


def test_submitting_a_job_takes_over_stale_ones(no_enqueue):
    stale = submit()
    ImportJob.objects.filter(pk=stale.pk).update(status="running", attempts=1)
    go_stale(stale)
    fresh = submit()
    assert ImportJob.objects.get(pk=stale.pk).status == "queued"
    assert fresh.status == "queued"


def test_a_queued_job_no_worker_took_is_sent_again_when_looked_at(
    staff_api, no_enqueue, django_capture_on_commit_callbacks
):
    job = submit()
    assert no_enqueue == []  # the test's transaction never commits: as if the message were lost
    ImportJob.objects.filter(pk=job.pk).update(created_at=timezone.now() - timedelta(minutes=10))
    with django_capture_on_commit_callbacks(execute=True):
        looked_at = staff_api.get(f"/api/v1/imports/{job.pk}/").json()
    assert (looked_at["status"], looked_at["stalled"]) == ("queued", False)
    assert no_enqueue == [job.pk]
    assert imports.import_jobs_resume_stale() == []  # sent again just now: not stale again yet
    job.refresh_from_db()
    assert job.heartbeat_at > timezone.now() - timedelta(minutes=1)


def test_an_unexpected_error_fails_the_job_with_what_it_was(no_enqueue, monkeypatch):
    job = submit()

    def broken(**kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setitem(imports.RUNNERS, "results", broken)
    assert import_job_run(job_id=job.pk).status == "failed"
    assert ImportJob.objects.get(pk=job.pk).errors == [
        {"line": None, "problem": "The import stopped on an error: RuntimeError: disk full"}]


# -- three imports creating the same new player at once -----------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL for truly concurrent writers (CI runs it)")
def test_three_imports_at_once_create_a_new_player_once():
    barrier = threading.Barrier(3)
    reports, failures = [], []

    def load(number):
        text = ("played_on,player_a,player_b,length,score_a,score_b,source_id\n"
                f"2025-03-0{number},Zoë Newcomer,Rival {number},5,5,{number},t{number}\n")
        try:
            rows = results.results_file_read(text=text)
            barrier.wait()
            reports.append(results.results_import(rows=rows))
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=load, args=(n,)) for n in (1, 2, 3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert Player.objects.filter(name="Zoë Newcomer").count() == 1
    assert sum(r.players_created.count("Zoë Newcomer") for r in reports) == 1
    assert Match.objects.count() == 3
    assert len(set(Match.objects.values_list("player_a_id", flat=True))) == 1


def test_the_job_list_reads_with_the_same_queries_however_many_jobs(staff_api, no_enqueue, django_assert_num_queries):
    for _ in range(3):
        submit()
    with django_assert_num_queries(2):  # the count and the page
        first = staff_api.get("/api/v1/imports/").json()
    for _ in range(5):
        submit()
    with django_assert_num_queries(2):
        second = staff_api.get("/api/v1/imports/").json()
    assert (first["count"], second["count"]) == (3, 8)
    assert "text" not in second["results"][0]
