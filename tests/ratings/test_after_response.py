"""Without a broker, the rating work a Save asks for runs after its response, on a thread of its
own; the change waits in the outbox meanwhile."""

import threading

import pytest

from ratings import background, selectors, services
from ratings.models import RatingPending

pytestmark = pytest.mark.django_db(transaction=True)


def one_point_match(staff_api, a, b) -> dict:
    """A 1-point match between `a` and `b`, made through the API."""
    return staff_api.post("/api/v1/matches/", {"player_a": a.pk, "player_b": b.pk, "length": 1}, format="json").data


def win_first_game(staff_api, match: dict, winner):
    """The match's one game won single by `winner` through the API: it finishes the match."""
    return staff_api.post(f"/api/v1/matches/{match['id']}/games/",
                          {"number": 1, "winner": winner.pk, "kind": "single", "cube": 1, "cube_owner": None},
                          format="json")


def test_a_game_saved_without_a_broker_answers_before_its_ratings_are_worked_out_on_another_thread(
    staff_api, make_player, broker, settings, monkeypatch
):
    settings.RATINGS_AFTER_RESPONSE = True
    broker.none()
    anna, bo = make_player(name="Anna"), make_player(name="Bo")
    match = one_point_match(staff_api, anna, bo)
    ran_on = []
    real = services.rating_run_process

    def recorded(*, run_id):
        ran_on.append((threading.current_thread().name, RatingPending.objects.filter(match_id=match["id"]).count()))
        return real(run_id=run_id)

    monkeypatch.setattr(services, "rating_run_process", recorded)
    response = win_first_game(staff_api, match, anna)
    assert response.status_code == 201
    background.wait()

    assert ran_on == [("ratings-after-response", 2), ("ratings-after-response", 1)]  # fibs, then crawford
    assert selectors.rating_list(system="fibs").get(player=anna).rating == pytest.approx(1510.0)
    assert selectors.rating_list(system="crawford").get(player=bo).matches == 1
    assert not RatingPending.objects.exists()


def test_with_a_broker_a_save_answers_before_its_rating_runs_are_asked_for(staff_api, make_player, broker,
                                                                            settings, monkeypatch):
    """With a worker, the Save's answer waits neither for the runs' bookkeeping nor for the
    broker: the outbox row is written with the game, the runs are queued after the response."""
    from ratings.models import RatingRun
    from ratings.tasks import ratings_recompute

    settings.RATINGS_AFTER_RESPONSE = True
    broker.down()  # a broker, eager mode off; what is sent to it is recorded below
    anna, bo = make_player(name="Anna"), make_player(name="Bo")
    match = one_point_match(staff_api, anna, bo)
    background.wait()
    RatingRun.objects.all().delete()
    sent = []
    monkeypatch.setattr(ratings_recompute, "delay", lambda run_id: sent.append(
        (threading.current_thread().name, RatingRun.objects.get(pk=run_id).system)))

    response = win_first_game(staff_api, match, anna)
    assert response.status_code == 201
    background.wait()

    assert sorted(sent) == [("ratings-after-response", "crawford"), ("ratings-after-response", "fibs")]
    assert sorted(RatingPending.objects.filter(match_id=match["id"]).values_list("system", flat=True)) == [
        "crawford", "fibs"]


def test_a_rating_run_that_meets_a_locked_database_after_a_save_is_tried_again_and_publishes(
    staff_api, make_player, broker, settings, monkeypatch, caplog
):
    """SQLite answers "database is locked" when another writer held the file past the
    connection's timeout: the run that met it fails, and the work after the response tries
    again, so the result is rated without waiting for the periodic check."""
    from django.db import OperationalError

    from ratings.models import RatingRun, RunStatus
    from ratings.services import execute, runs

    settings.RATINGS_AFTER_RESPONSE = True
    broker.none()
    monkeypatch.setattr(runs, "LOCKED_RETRY_PAUSES", (0, 0))
    anna, bo = make_player(name="Anna"), make_player(name="Bo")
    match = one_point_match(staff_api, anna, bo)
    background.wait()
    real, met = execute.resume_point, []

    def locked_the_first_time(run):
        met.append(run.system)
        if len(met) == 1:
            raise OperationalError("database is locked")
        return real(run)

    monkeypatch.setattr(execute, "resume_point", locked_the_first_time)
    response = win_first_game(staff_api, match, anna)
    assert response.status_code == 201
    background.wait()

    assert met == ["fibs", "fibs", "crawford"]
    assert list(RatingRun.objects.filter(status=RunStatus.FAILED).values_list("system", "error")) == [
        ("fibs", "OperationalError: database is locked")]
    failed = RatingRun.objects.get(status=RunStatus.FAILED).pk
    assert f"fibs run {failed} met a locked database (database is locked): trying again in 0 s" in caplog.text
    assert selectors.rating_list(system="fibs").get(player=anna).rating == pytest.approx(1510.0)
    assert selectors.rating_list(system="crawford").get(player=bo).matches == 1
    assert not RatingPending.objects.exists()


def test_a_database_locked_at_every_try_leaves_the_result_in_the_outbox_for_the_next_run(
    staff_api, make_player, broker, settings, monkeypatch
):
    from django.db import OperationalError

    from ratings.services import execute, runs

    settings.RATINGS_AFTER_RESPONSE = True
    broker.none()
    monkeypatch.setattr(runs, "LOCKED_RETRY_PAUSES", (0, 0))
    anna, bo = make_player(name="Anna"), make_player(name="Bo")
    first, second = (one_point_match(staff_api, anna, bo) for _ in range(2))
    background.wait()
    real = execute.resume_point

    def locked(run):
        raise OperationalError("database is locked")

    monkeypatch.setattr(execute, "resume_point", locked)
    assert win_first_game(staff_api, first, anna).status_code == 201
    background.wait()
    assert sorted(RatingPending.objects.values_list("system", "match_id")) == [
        ("crawford", first["id"]), ("fibs", first["id"])]

    monkeypatch.setattr(execute, "resume_point", real)
    assert win_first_game(staff_api, second, anna).status_code == 201
    background.wait()
    assert selectors.rating_list(system="fibs").get(player=anna).matches == 2
    assert not RatingPending.objects.exists()
