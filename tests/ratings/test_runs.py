"""Requests coalesce, one worker runs a system at a time, a run publishes whole or not at all."""

from datetime import timedelta

import pytest
from django.utils import timezone, translation

from games import services as games
from ratings import selectors, services
from ratings.services import checkpoints, execute
from ratings.models import Rating, RatingChange, RatingRun, RatingSystemState, RunStatus

pytestmark = pytest.mark.django_db


def published(system="fibs"):
    return {r.player.name: round(r.rating, 9) for r in selectors.rating_list(system=system)}


@pytest.fixture
def history(make_player, finish, no_enqueue):
    """Three players, two rated matches, published in both systems."""
    a, b, c = make_player(name="A"), make_player(name="B"), make_player(name="C")
    finish(a, b, length=5, winner="a", day=0)
    finish(b, c, length=7, winner="b", day=3)
    for system in ("fibs", "crawford"):
        services.rating_recompute_now(system=system)
    return a, b, c


@pytest.mark.django_db(transaction=True)
def test_ten_results_recorded_in_a_burst_queue_one_run_per_system(make_player, no_enqueue):
    a, b = make_player(name="A"), make_player(name="B")
    for _ in range(10):  # ten transactions, each committing a result
        match = games.match_create(player_a=a, player_b=b, length=1)
        games.game_record(match=match, number=1, game=games.GameInput(winner=0))
    assert len(no_enqueue) == 2  # one fibs run, one crawford run
    assert RatingRun.objects.filter(status=RunStatus.QUEUED).count() == 2
    assert RatingSystemState.objects.get(system="fibs").requested == 10

    for run_id in no_enqueue:
        services.rating_run_process(run_id=run_id)
    assert RatingRun.objects.filter(status=RunStatus.DONE).count() == 2
    assert selectors.rating_list(system="fibs").get(player=a).matches == 10
    assert len(no_enqueue) == 2


def test_one_transaction_changing_many_results_makes_one_request(make_player, django_capture_on_commit_callbacks,
                                                                 no_enqueue):
    from django.db import transaction

    a, b = make_player(), make_player()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with transaction.atomic():
            for _ in range(5):
                match = games.match_create(player_a=a, player_b=b, length=1)
                games.game_record(match=match, number=1, game=games.GameInput(winner=1))
    assert len({id(callback) for callback in callbacks if isinstance(callback, services.RunsRequested)}) == 1
    assert len(no_enqueue) == 2
    assert RatingSystemState.objects.get(system="crawford").requested == 1


def test_a_request_during_a_run_makes_the_worker_go_again_once(
    history, monkeypatch, no_enqueue, finish, django_capture_on_commit_callbacks
):
    a, b, c = history
    with django_capture_on_commit_callbacks(execute=True):
        services.rating_recompute_request(system="fibs")
    (first,) = no_enqueue
    real = execute.report_progress
    calls = []

    def progress_with_a_new_result(run_id, done, total):
        real(run_id, done, total)
        if not calls:
            calls.append(run_id)
            finish(c, a, length=3, winner="a", day=9)
            with django_capture_on_commit_callbacks(execute=True):
                services.rating_recompute_request(system="fibs")

    monkeypatch.setattr(execute, "report_progress", progress_with_a_new_result)
    last = services.rating_run_process(run_id=first)
    assert last.pk != first and last.status == RunStatus.DONE and last.matches_total == 3
    assert selectors.rating_list(system="fibs").get(player=c).matches == 2
    # the run enqueued by the request during the first finds nothing left to do
    second = no_enqueue[1]
    assert services.rating_run_process(run_id=second) is None
    assert RatingRun.objects.get(pk=second).status == RunStatus.SUPERSEDED
    assert RatingRun.objects.filter(system="fibs", status=RunStatus.DONE).count() == 3


def test_a_second_claim_while_a_run_is_running_gets_nothing(history, no_enqueue):
    now = timezone.now()
    first = RatingRun.objects.create(system="fibs", requested_at=now)
    second = RatingRun.objects.create(system="fibs", requested_at=now)
    assert services.rating_run_claim(run=first, force=True).status == RunStatus.RUNNING
    assert services.rating_run_claim(run=second, force=True) is None
    assert services.rating_run_claim(run=first, force=True) is None
    second.refresh_from_db()
    assert second.status == RunStatus.SUPERSEDED and "Another run" in second.error
    # other systems are free
    other = RatingRun.objects.create(system="crawford", requested_at=now)
    assert services.rating_run_claim(run=other, force=True) is not None


def test_a_run_whose_worker_died_is_superseded_and_cannot_publish(
    history, no_enqueue, finish, django_capture_on_commit_callbacks
):
    a, b, c = history
    before = published()
    now = timezone.now()
    dead = services.rating_run_claim(run=RatingRun.objects.create(system="fibs", requested_at=now), force=True)
    RatingRun.objects.filter(pk=dead.pk).update(heartbeat_at=now - timedelta(hours=1))
    finish(a, c, length=1, winner="b", day=5)

    with django_capture_on_commit_callbacks(execute=True):
        services.rating_recompute_request(system="fibs")
    last = services.rating_run_process(run_id=no_enqueue[-1])
    dead.refresh_from_db()
    assert dead.status == RunStatus.SUPERSEDED and "stopped reporting" in dead.error
    assert last.status == RunStatus.DONE and published() != before
    with pytest.raises(services.RunLostError):
        execute.publish(dead)
    assert RatingSystemState.objects.get(system="fibs").published_run_id == last.pk


def test_a_run_failing_after_writing_half_leaves_the_published_ratings_whole(history, monkeypatch, finish):
    a, b, c = history
    before = published()
    before_history = list(selectors.rating_history(player_id=b.pk, system="fibs").values_list("rating_after", flat=True))
    finish(c, a, length=11, winner="a", day=10)
    real_store = execute.store_changes

    def store_half_then_fail(run, records, result):
        real_store(run, records[: len(records) // 2], result)
        assert RatingChange.objects.filter(run_id=run.pk).exists()
        raise OSError("disk full")

    monkeypatch.setattr(execute, "store_changes", store_half_then_fail)
    with pytest.raises(OSError):
        services.rating_recompute_now(system="fibs")
    failed = RatingRun.objects.filter(system="fibs").latest("id")
    assert failed.status == RunStatus.FAILED and "disk full" in failed.error and not failed.published
    assert published() == before
    assert list(selectors.rating_history(player_id=b.pk, system="fibs").values_list("rating_after", flat=True)) == (
        before_history
    )
    assert not Rating.objects.filter(run_id=failed.pk).exists()
    assert not RatingChange.objects.filter(run_id=failed.pk).exists()

    monkeypatch.setattr(execute, "store_changes", real_store)
    run = services.rating_recompute_now(system="fibs")
    assert run.status == RunStatus.DONE and published() != before and run.matches_total == 3


def test_a_run_raising_midway_marks_itself_failed_and_the_next_one_completes(history, monkeypatch, finish):
    a, b, c = history
    before = published("crawford")
    finish(c, a, length=11, winner="a", day=10)

    def crash(run_id, done, total):
        raise RuntimeError("worker lost its mind")

    monkeypatch.setattr(execute, "report_progress", crash)
    with pytest.raises(RuntimeError):
        services.rating_recompute_now(system="crawford")
    assert RatingRun.objects.filter(system="crawford").latest("id").status == RunStatus.FAILED
    assert published("crawford") == before
    monkeypatch.undo()
    assert services.rating_recompute_now(system="crawford").status == RunStatus.DONE
    assert published("crawford") != before


def test_a_reader_during_a_run_sees_the_old_table_until_the_pointer_flips(history, monkeypatch, finish):
    a, b, c = history
    before = published()
    finish(c, a, length=11, winner="a", day=10)
    real_publish = execute.publish
    seen = []

    def publish_watched(run):
        seen.append(published())
        real_publish(run)
        seen.append(published())

    monkeypatch.setattr(execute, "publish", publish_watched)
    services.rating_recompute_now(system="fibs")
    assert seen[0] == before
    assert seen[1] != before and seen[1]["C"] > before["C"]
    # all rows of the old run are gone once the new one is published
    assert Rating.objects.filter(system="fibs").count() == 3


def test_progress_is_readable_on_the_run_row(history, monkeypatch):
    seen = []
    real = execute.report_progress

    def watch(run_id, done, total):
        real(run_id, done, total)
        seen.append(RatingRun.objects.values_list("matches_done", "matches_total", "status").get(pk=run_id))

    monkeypatch.setattr(execute, "report_progress", watch)
    services.rating_recompute_now(system="fibs")
    assert seen == [(2, 2, "running")]


def test_a_change_rolled_back_leaves_no_prompt_that_the_next_change_waits_on(make_player,
                                                                              django_capture_on_commit_callbacks,
                                                                              no_enqueue):
    """The prompt of a transaction rolled back never runs; the next transaction that commits makes
    it (with its own changes), so no committed change waits for the periodic check."""
    from django.db import transaction

    a, b = make_player(), make_player()
    with pytest.raises(RuntimeError), transaction.atomic():
        match = games.match_create(player_a=a, player_b=b, length=1)
        games.game_record(match=match, number=1, game=games.GameInput(winner=1))
        raise RuntimeError("the Save was refused after its game was written")
    assert RatingSystemState.objects.filter(requested__gt=0).count() == 0
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        match = games.match_create(player_a=a, player_b=b, length=1)
        games.game_record(match=match, number=1, game=games.GameInput(winner=0))
    assert len(no_enqueue) == 2
    assert sorted(RatingSystemState.objects.values_list("system", "requested")) == [("crawford", 1), ("fibs", 1)]


def test_a_run_says_why_it_rates_in_full_in_the_site_s_language_whoever_reads_it(make_player, finish, no_enqueue,
                                                                                 settings):
    settings.LANGUAGE_CODE = "el"
    a, b = make_player(name="A"), make_player(name="B")
    finish(a, b, length=5, winner="a", day=0)
    with translation.override("ja"):
        services.rating_recompute_now(system="fibs")
    run = RatingRun.objects.get(pk=RatingSystemState.objects.get(system="fibs").published_run_id)
    assert run.note == "Ζητήθηκε επανυπολογισμός όλου του ιστορικού (recompute_ratings): πλήρης υπολογισμός."
    settings.LANGUAGE_CODE = "ar"
    fresh = RatingRun.objects.create(system="crawford", requested_at=timezone.now())
    checkpoints.resume_point(fresh)
    assert fresh.note == "لم تُنشر أي تصنيفات بعد: حساب كامل."
