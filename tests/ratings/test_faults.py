"""Faults heal by themselves: a run left behind by a dead worker, a lost message, a broker that
cannot be reached. Each is repaired by the periodic check or the next request, never by a person.

The same faults with a real worker on Redis and PostgreSQL are in `test_worker_faults.py`."""

from datetime import timedelta

import pytest
from django.utils import timezone

from ratings import selectors, services, tasks
from ratings.services import execute, runs
from ratings.models import RatingRun, RatingSystemState, RunStatus

pytestmark = pytest.mark.django_db

def owed(system):
    state = RatingSystemState.objects.get(system=system)
    return state.requested - RatingRun.objects.get(pk=state.published_run_id).covers_requests


def rated_matches(player, system="fibs"):
    return selectors.rating_list(system=system).get(player=player).matches


@pytest.fixture
def history(make_player, finish, no_enqueue):
    """Three players, two rated matches, published in both systems."""
    a, b, c = make_player(name="A"), make_player(name="B"), make_player(name="C")
    finish(a, b, length=5, winner="a", day=0)
    finish(b, c, length=7, winner="b", day=3)
    for system in ("fibs", "crawford"):
        services.rating_recompute_now(system=system)
    return a, b, c


def go_stale(run, settings):
    """Age the run's heartbeat past CRAWFORD_STALE_SECONDS, as when its worker was killed."""
    past = timezone.now() - timedelta(seconds=settings.CRAWFORD_STALE_SECONDS + 1)
    RatingRun.objects.filter(pk=run.pk).update(heartbeat_at=past)


def killed_run(system="fibs"):
    """A run claimed by a worker that was then killed: running, covering every request so far."""
    run = RatingRun.objects.create(system=system, requested_at=timezone.now())
    return services.rating_run_claim(run=run, force=True)


def test_a_run_left_running_by_a_killed_worker_is_rerun_by_the_check_with_no_new_request(
    history, finish, no_enqueue, settings, django_capture_on_commit_callbacks
):
    a, _, c = history
    dead = killed_run("fibs")
    finish(c, a, length=3, winner="a", day=9)
    with django_capture_on_commit_callbacks(execute=True):
        services.rating_recompute_request()
    fibs_run, crawford_run = no_enqueue
    # while the dead run still looks alive, the request it cannot claim is superseded
    assert services.rating_run_process(run_id=fibs_run) is None
    assert RatingRun.objects.get(pk=fibs_run).status == RunStatus.SUPERSEDED
    assert services.rating_run_process(run_id=crawford_run).status == RunStatus.DONE
    assert rated_matches(c) == 1 and owed("fibs") == 1
    assert services.rating_recompute_owed() == []  # not stale yet: the run may still be at work

    go_stale(dead, settings)
    (rerun,) = services.rating_recompute_owed()
    dead.refresh_from_db()
    assert dead.status == RunStatus.SUPERSEDED and "stopped reporting" in dead.error and not dead.published
    assert (rerun.system, rerun.status, rerun.matches_total) == ("fibs", RunStatus.DONE, 3)
    assert rated_matches(c) == 2 and owed("fibs") == 0 and owed("crawford") == 0
    assert services.rating_recompute_owed() == []
    assert len(no_enqueue) == 2


def test_a_message_delivered_again_after_its_worker_died_takes_the_run_over(history, no_enqueue, settings):
    (queued,) = services.rating_recompute_request(system="crawford")
    dead = services.rating_run_claim(run=queued)
    go_stale(dead, settings)

    rerun = services.rating_run_process(run_id=dead.pk)
    dead.refresh_from_db()
    assert dead.status == RunStatus.SUPERSEDED
    assert rerun.pk != dead.pk and rerun.status == RunStatus.DONE and rerun.covers_requests == dead.covers_requests
    assert RatingSystemState.objects.get(system="crawford").published_run_id == rerun.pk
    assert owed("crawford") == 0


def test_a_message_delivered_again_while_its_run_is_alive_changes_nothing(history, no_enqueue):
    services.rating_recompute_request(system="fibs")
    alive = services.rating_run_claim(run=RatingRun.objects.get(status=RunStatus.QUEUED, system="fibs"))
    runs = RatingRun.objects.count()

    assert services.rating_run_process(run_id=alive.pk) is None
    assert services.rating_recompute_owed(system="fibs") == []
    alive.refresh_from_db()
    assert alive.status == RunStatus.RUNNING and RatingRun.objects.count() == runs


def test_a_queued_run_whose_message_was_lost_is_run_by_the_check(history, finish, no_enqueue,
                                                                  django_capture_on_commit_callbacks):
    a, _, c = history
    finish(a, c, length=5, winner="b", day=6)
    with django_capture_on_commit_callbacks(execute=True):
        services.rating_recompute_request()
    no_enqueue.clear()  # the broker lost both messages

    runs = services.rating_recompute_owed()
    assert sorted((run.system, run.status, run.matches_total) for run in runs) == [
        ("crawford", RunStatus.DONE, 3), ("fibs", RunStatus.DONE, 3)
    ]
    assert rated_matches(c, "crawford") == 2 and owed("crawford") == 0
    assert RatingRun.objects.filter(status=RunStatus.QUEUED).count() == 0


def test_the_check_does_nothing_when_the_published_ratings_answer_every_request(history, no_enqueue,
                                                                                django_assert_num_queries):
    runs = RatingRun.objects.count()
    # per system: lock, take over stale runs, running?, covered, outbox, and no run left queued
    with django_assert_num_queries(18):
        assert tasks.ratings_recompute_owed() == []
    assert RatingRun.objects.count() == runs and no_enqueue == []


def test_a_failed_run_is_tried_again_by_the_check_after_the_stale_time(
    history, finish, no_enqueue, monkeypatch, settings, django_capture_on_commit_callbacks
):
    _, b, c = history
    finish(c, b, length=9, winner="a", day=12)
    with django_capture_on_commit_callbacks(execute=True):
        services.rating_recompute_request()

    def crash(run_id, done, total):
        raise OSError("connection to the database lost")

    monkeypatch.setattr(execute, "report_progress", crash)
    with pytest.raises(OSError):
        services.rating_run_process(run_id=no_enqueue[0])
    failed = RatingRun.objects.get(pk=no_enqueue[0])
    assert failed.status == RunStatus.FAILED
    monkeypatch.undo()

    assert [run.system for run in services.rating_recompute_owed()] == ["crawford"]  # fibs waits
    assert owed("fibs") == 1
    past = timezone.now() - timedelta(seconds=settings.CRAWFORD_STALE_SECONDS + 1)
    RatingRun.objects.filter(pk=failed.pk).update(finished_at=past)
    (rerun,) = services.rating_recompute_owed()
    assert (rerun.system, rerun.status, rerun.matches_total) == ("fibs", RunStatus.DONE, 3)
    assert rated_matches(c) == 2 and owed("fibs") == 0


@pytest.mark.django_db(transaction=True)
def test_a_game_recorded_while_the_broker_is_unreachable_is_saved_with_a_201_and_rated_when_it_is_back(
    staff_api, make_player, broker
):
    anna, bo = make_player(name="Anna"), make_player(name="Bo")
    match = staff_api.post("/api/v1/matches/", {"player_a": anna.pk, "player_b": bo.pk, "length": 1},
                           format="json").data
    broker.down()
    response = staff_api.post(f"/api/v1/matches/{match['id']}/games/",
                              {"number": 1, "winner": anna.pk, "kind": "single", "cube": 1, "cube_owner": None},
                              format="json")
    assert response.status_code == 201, response.content
    assert (response.data["status"], response.data["score"], response.data["winner"]) == ("finished", [1, 0], anna.pk)
    assert response.data["ratings"] == "Saved. Its ratings are recomputed in the background and follow shortly."

    runs = RatingRun.objects.order_by("system")
    assert [(run.system, run.status) for run in runs] == [
        ("crawford", RunStatus.SUPERSEDED), ("fibs", RunStatus.SUPERSEDED)
    ]
    assert all("could not be sent to a worker" in run.error for run in runs)
    assert list(RatingSystemState.objects.values_list("requested", "queued_at")) == [(1, None), (1, None)]

    broker.back()
    published = tasks.ratings_recompute_owed()  # what the worker does on beat's next check
    assert len(published) == 2
    assert selectors.rating_list(system="fibs").get(player=anna).rating == pytest.approx(1510.0)
    assert selectors.rating_list(system="crawford").get(player=bo).matches == 1


@pytest.mark.django_db(transaction=True)
def test_the_next_request_after_a_broker_outage_queues_a_run_at_once(broker, monkeypatch):
    broker.down()
    (unsent,) = services.rating_recompute_request(system="fibs")
    unsent.refresh_from_db()
    assert unsent.status == RunStatus.SUPERSEDED and "Connection refused" in unsent.error

    broker.back()
    sent = []
    monkeypatch.setattr(runs, "_enqueue", sent.append)
    (run,) = services.rating_recompute_request(system="fibs")
    assert sent == [run.pk] and run.pk != unsent.pk
    assert RatingSystemState.objects.get(system="fibs").requested == 2


def test_beat_runs_the_check_and_a_killed_worker_gives_its_task_back():
    from config.celery import app

    entry = app.conf.beat_schedule["jobs-sweep"]
    assert (entry["task"], entry["schedule"]) == ("games.jobs_sweep", 30.0)
    # One sweep takes over every kind of job; the results' keys are forgotten once a day; the heartbeat only
    # tells /health/ that a worker answers.
    assert list(app.conf.beat_schedule) == ["jobs-sweep", "save-keys-prune", "heartbeat"]
    for task in (tasks.ratings_recompute, tasks.ratings_recompute_owed):
        assert (task.acks_late, task.reject_on_worker_lost) == (True, True)
    assert app.conf.broker_transport_options["visibility_timeout"] == 3600


@pytest.mark.django_db(transaction=True)
def test_a_game_recorded_without_a_broker_answers_201_when_the_run_fails_and_the_next_result_rates_both(
    staff_api, make_player, broker, monkeypatch
):
    anna, bo = make_player(name="Anna"), make_player(name="Bo")
    broker.none()

    def record(winner):
        match = staff_api.post("/api/v1/matches/", {"player_a": anna.pk, "player_b": bo.pk, "length": 1},
                               format="json").data
        return staff_api.post(f"/api/v1/matches/{match['id']}/games/",
                              {"number": 1, "winner": winner.pk, "kind": "single", "cube": 1, "cube_owner": None},
                              format="json")

    def crash(run_id, done, total):
        raise OSError("database is locked")

    real = execute.report_progress
    monkeypatch.setattr(execute, "report_progress", crash)
    response = record(anna)
    assert response.status_code == 201 and response.data["status"] == "finished"
    assert sorted(RatingRun.objects.values_list("system", "status")) == [
        ("crawford", RunStatus.FAILED), ("fibs", RunStatus.FAILED)
    ]
    monkeypatch.setattr(execute, "report_progress", real)

    assert record(bo).status_code == 201
    assert rated_matches(anna) == 2 and rated_matches(bo, "crawford") == 2
