"""A change to the rated history cannot be lost: it is a row of the outbox (`RatingPending`)
written in the writer's own transaction, a run verifies that the published ratings account for
the history before it resumes from a checkpoint, and a death at any point between a write and
its publication ends, with no person, in published ratings equal to a full recompute."""

import random
from datetime import timedelta

import pytest
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import imports, results
from games import services as games
from games.imports import import_job_run, import_job_submit
from games.models import ImportJob, Match
from ratings import services
from ratings.services import execute, runs
from ratings.models import RatingPending, RatingRun, RatingSystemState, RunStatus
from ratings.systems import params

from .conftest import OPENING, WorkerKilled, differences_from_a_full_recompute

pytestmark = pytest.mark.django_db

SYSTEMS = ("fibs", "crawford")


@pytest.fixture(autouse=True)
def few_founders(monkeypatch):
    """crawford's founders play until 8 players have 10 matches; here until 2 have 2, so both
    systems resume."""
    few_founders_now(monkeypatch)


def few_founders_now(monkeypatch):
    monkeypatch.setattr(params, "ESTABLISHED_PLAYERS", 2)
    monkeypatch.setattr(params, "ESTABLISHED_MATCHES", 2)


@pytest.fixture
def sent(monkeypatch):
    """The messages a worker would receive: rating runs and import jobs, kept instead of sent."""
    messages = []
    monkeypatch.setattr(runs, "_enqueue", lambda run_id: messages.append(("run", run_id)))
    monkeypatch.setattr(imports, "_enqueue", lambda job_id: messages.append(("import", job_id)))
    return messages


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """`with committed():` the changes inside commit and what follows a commit runs."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def worker(sent):
    """A worker taking every message sent so far, in order (and those they send)."""
    while sent:
        kind, pk = sent.pop(0)
        if kind == "run":
            services.rating_run_process(run_id=pk)
        else:
            import_job_run(job_id=pk)


@pytest.fixture
def club(make_player, finish, sent, committed):
    """Eight players and 20 results over two months, published."""
    players = [make_player(name=f"P{n}") for n in range(8)]
    rng = random.Random(19)
    with committed():
        matches = [finish(*rng.sample(players, 2), length=rng.choice([1, 3, 5]), winner=rng.choice("ab"), day=n * 3)
                   for n in range(20)]
    worker(sent)
    for system in SYSTEMS:
        assert differences_from_a_full_recompute(system) == []
    return players, matches


RESULTS = "played_on,player_a,player_b,length,score_a,score_b,source_id\n" + "".join(
    f"2025-01-{day:02d},P{day % 8},P{(day + 3) % 8},3,3,{day % 3},r{day}\n" for day in range(2, 13)
)


def test_a_results_import_killed_after_its_last_chunk_and_then_one_more_result_publish_a_full_recompute(
    club, finish, sent, committed, monkeypatch, settings
):
    players, _ = club

    def killed(job_id, **fields):
        raise WorkerKilled

    monkeypatch.setattr(imports, "_finish", killed)  # the worker dies after the last chunk commits
    job = import_job_submit(kind="results", name="results.csv", text=RESULTS)
    with pytest.raises(WorkerKilled):
        import_job_run(job_id=job.pk)  # what followed the commits never ran
    monkeypatch.undo()
    sent.clear()
    ImportJob.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now() - timedelta(hours=1))
    with committed():
        assert import_job_run(job_id=job.pk).result["imported"] == 0  # taken over: nothing left to store
        finish(players[0], players[1], length=5, winner="b", day=80)
    worker(sent)

    assert Match.objects.filter(source="csv").count() == 11
    for system in SYSTEMS:
        assert RatingPending.objects.filter(system=system).count() == 0
        assert differences_from_a_full_recompute(system) == []


def test_a_change_that_reached_the_history_without_the_outbox_makes_the_next_run_rate_in_full_and_say_so(
    club, finish, sent, committed
):
    players, matches = club
    Match.objects.filter(pk=matches[4].pk).update(winner=matches[4].player_a_id if matches[4].winner_id
                                                  == matches[4].player_b_id else matches[4].player_b_id)
    with committed():
        finish(players[2], players[3], length=3, winner="a", day=80)
    worker(sent)

    for system in SYSTEMS:
        run = RatingRun.objects.filter(system=system, status=RunStatus.DONE).order_by("-id").first()
        assert run.published and run.matches_total == 21
        assert run.note.startswith("The published ratings do not account for the rated history (21 matches with "
                                   "the changes owed, 21 rated; checksum ")
        assert differences_from_a_full_recompute(system) == []


def test_a_result_at_the_end_of_history_is_published_incrementally_after_the_account_agrees(club, finish, sent,
                                                                                             committed):
    players, _ = club
    with committed():
        finish(players[2], players[3], length=3, winner="a", day=80)
    worker(sent)
    for system in SYSTEMS:
        run = RatingRun.objects.filter(system=system, status=RunStatus.DONE).order_by("-id").first()
        assert (run.published, run.matches_total, run.note) == (False, 1, "")
        published = RatingSystemState.objects.get(system=system).published_run
        assert published.history_matches == 21
        assert published.history_checksum == services.history_account().checksum
        assert differences_from_a_full_recompute(system) == []


def test_two_publishes_with_a_result_committed_between_the_first_ones_claim_and_its_load_equal_a_full_recompute(
    club, finish, sent, committed
):
    players, _ = club
    with committed():
        finish(players[0], players[1], length=3, winner="a", day=80)
    first = {system: RatingRun.objects.get(system=system, status=RunStatus.QUEUED) for system in SYSTEMS}
    sent.clear()
    claimed = {system: services.rating_run_claim(run=run) for system, run in first.items()}
    with committed():  # lands after the claim, before the history is loaded
        finish(players[2], players[3], length=5, winner="b", day=81)
    for run in claimed.values():
        services.rating_run_execute(run=run)
    worker(sent)  # the second publish, for the result the first did not claim

    for system in SYSTEMS:
        assert differences_from_a_full_recompute(system) == []


def test_a_run_asked_for_by_a_result_an_earlier_run_already_rated_rates_nothing_and_not_in_full(
    club, finish, sent, committed
):
    """Results a few seconds apart: the second commits after the first's run was claimed, so that
    run rates both, and the second's prompt queues a run with no change left to answer. It picks
    up at the head and rates nothing (a whole history rerun after every burst held SQLite's write
    lock for seconds)."""
    players, _ = club
    with committed():
        finish(players[0], players[1], length=3, winner="a", day=80)
    first = {system: RatingRun.objects.get(system=system, status=RunStatus.QUEUED) for system in SYSTEMS}
    claimed = {system: services.rating_run_claim(run=run) for system, run in first.items()}
    with committed():  # its prompt queues a second run of each system
        finish(players[2], players[3], length=5, winner="b", day=81)
    for run in claimed.values():
        services.rating_run_execute(run=run)
    assert not RatingPending.objects.exists()
    worker(sent)

    for system in SYSTEMS:
        last = RatingRun.objects.filter(system=system).order_by("-id").first()
        assert (last.status, last.published, last.matches_total, last.note) == (RunStatus.DONE, False, 0, "")
        assert differences_from_a_full_recompute(system) == []


# -- what the outbox owes, asked in three places -----------------------------------------------------

OWING = {
    "nothing": lambda system, finish, players: None,
    "a request counted": lambda system, finish, players: RatingSystemState.objects.filter(system=system).update(
        requested=F("requested") + 1),
    "a change no run took": lambda system, finish, players: finish(players[0], players[1], length=3, day=80),
}


@pytest.mark.parametrize("owing", list(OWING))
@pytest.mark.parametrize("system", SYSTEMS)
def test_the_claim_the_worker_going_again_and_the_periodic_check_agree_on_what_the_outbox_owes(
    club, finish, django_capture_on_commit_callbacks, system, owing
):
    players, _ = club
    with django_capture_on_commit_callbacks(execute=False):  # in the outbox; no run is asked for
        OWING[owing](system, finish, players)
    published = RatingSystemState.objects.get(system=system).published_run

    def answers(caller) -> bool:
        """Whether the caller finds a run to do; in a savepoint rolled back, so that none sees
        the runs another queued or claimed."""
        savepoint = transaction.savepoint_create()
        try:
            return caller() is not None
        finally:
            transaction.savepoint_rollback(savepoint)

    asked = {
        "claim": answers(lambda: services.rating_run_claim(
            run=RatingRun.objects.create(system=system, requested_at=timezone.now()))),
        "the worker after the published run": answers(lambda: runs._next_run(published)),
        "the periodic check": answers(lambda: runs._owed_run(system)),
    }
    assert set(asked.values()) == {owing != "nothing"}, asked


# -- a death at every point between a write and its publication ------------------------------------

DEATHS = [
    ("after the commit, before the runs are queued", None),
    ("after the runs are queued, the message lost", "runs._enqueue"),
    ("after the claim, loading the history", "execute.rated_history"),
    ("rating, before anything is written", "execute._as_run"),
    ("writing the ratings", "execute.store_ratings"),
    ("writing the rating changes", "execute.store_changes"),
    ("publishing in full", "execute.publish"),
    ("publishing from a checkpoint", "execute.delete_changes_since"),
    ("after publishing from a checkpoint, rewriting its checkpoints", "execute.refresh_checkpoints"),
    ("after publishing in full, discarding older rows", "execute.discard_unpublished_rows"),
]
"""Where each death strikes: the function, named in `ratings.services` where it is called."""

WRITES = {
    "a result at the end": lambda players, matches, finish: finish(players[4], players[5], length=3, day=90),
    "a correction back in time": lambda players, matches, finish: games.match_update(
        match=matches[6], played_on=OPENING + timedelta(days=40, hours=5)),
    "a void": lambda players, matches, finish: games.match_void(match=matches[12], reason="pairing undone"),
    "a deleted match": lambda players, matches, finish: Match.objects.filter(pk=matches[15].pk).delete(),
}


CASES = [(write, point, function) for point, function in DEATHS
         for write in (WRITES if function is None else ("a result at the end", "a correction back in time"))]
"""Every death after each of the two writes that take the two paths (a result at the end resumes
at the head, a correction back in time from a checkpoint); voids and deletions after the commit."""


@pytest.mark.parametrize(("write", "point", "function"), CASES, ids=[f"{w}, {p}" for w, p, _ in CASES])
def test_a_death_anywhere_between_a_write_and_its_publication_heals_by_itself_into_a_full_recompute(
    club, finish, sent, committed, monkeypatch, settings, django_capture_on_commit_callbacks, write, point, function
):
    players, matches = club
    if function is None:
        with django_capture_on_commit_callbacks(execute=False):  # committed, and the process dies
            WRITES[write](players, matches, finish)
    else:
        if function == "runs._enqueue":
            monkeypatch.setattr(runs, "_enqueue", lambda run_id: None)
        else:
            def dies(*args, **kwargs):
                raise WorkerKilled

            monkeypatch.setattr(f"ratings.services.{function}", dies)
            # a killed process cleans nothing up
            real_fail = execute._fail
            monkeypatch.setattr(execute, "_fail", lambda run, error: None if isinstance(error, WorkerKilled)
                                else real_fail(run, error))
        try:
            with committed():
                WRITES[write](players, matches, finish)
            worker(sent)
        except WorkerKilled:
            pass
        monkeypatch.undo()
        few_founders_now(monkeypatch)
        sent.clear()

    settings.CRAWFORD_STALE_SECONDS = 0  # time passes: the dead worker's heartbeat goes stale
    services.rating_recompute_owed()  # the periodic check, with no person
    worker(sent)

    for system in SYSTEMS:
        assert not RatingRun.objects.filter(system=system, status__in=[RunStatus.QUEUED, RunStatus.RUNNING]).exists()
        assert differences_from_a_full_recompute(system) == [], (point, write)


# -- one sweep for every kind of job ----------------------------------------------------------------

def test_every_kind_of_job_is_swept_by_one_mechanism_with_one_stale_time(settings):
    from analysis import services as analysis_services
    from games import jobs

    assert sorted(jobs.SWEEPS) == ["analyses", "imports", "notifications", "rating runs"]
    settings.CRAWFORD_STALE_SECONDS = 123
    assert {imports.stale_after(), runs.stale_after(), analysis_services.stale_after()} == {timedelta(seconds=123)}
    # One accessor, read by every kind: none keeps a copy of its own.
    assert imports.stale_after is runs.stale_after is analysis_services.stale_after is jobs.stale_after


def test_an_import_whose_worker_was_killed_resumes_by_the_sweep_once_its_heartbeat_is_stale(
    club, sent, committed, monkeypatch
):
    from games.jobs import jobs_sweep

    monkeypatch.setattr(results, "IMPORT_CHUNK", 4)
    real = imports.JobProgress.__call__

    def dies_in_the_second_chunk(self, done, total):
        real(self, done, total)
        if done == 8:
            raise WorkerKilled

    monkeypatch.setattr(imports.JobProgress, "__call__", dies_in_the_second_chunk)
    with committed():
        job = import_job_submit(kind="results", name="results.csv", text=RESULTS)
    sent.clear()
    with pytest.raises(WorkerKilled):
        import_job_run(job_id=job.pk)
    monkeypatch.undo()
    assert Match.objects.filter(source="csv").count() == 4

    with committed():
        assert jobs_sweep()["imports"] == 0  # its heartbeat is fresh: it may be at work
    assert ImportJob.objects.get(pk=job.pk).status == "running" and not sent

    ImportJob.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now() - timedelta(seconds=301))
    with committed():
        assert jobs_sweep()["imports"] == 1
    worker(sent)

    job.refresh_from_db()
    assert (job.status, job.result["imported"], job.attempts) == ("done", 7, 2)
    assert Match.objects.filter(source="csv").count() == 11
    for system in SYSTEMS:
        assert differences_from_a_full_recompute(system) == []


def test_a_rating_run_whose_message_was_lost_is_run_by_the_sweep_and_not_left_queued(club, finish, sent,
                                                                                       committed):
    from games.jobs import jobs_sweep

    players, _ = club
    with committed():
        finish(players[0], players[7], length=7, winner="b", day=90)
    assert RatingRun.objects.filter(status=RunStatus.QUEUED).count() == 2
    sent.clear()  # the broker lost both messages

    with committed():
        assert jobs_sweep()["rating runs"] == 2
    assert not RatingRun.objects.filter(status__in=[RunStatus.QUEUED, RunStatus.RUNNING]).exists()
    for system in SYSTEMS:
        assert differences_from_a_full_recompute(system) == []


def test_a_queued_run_left_behind_by_a_failed_claim_is_superseded_by_the_sweep_once_nothing_is_owed(
        club, finish, sent, committed, monkeypatch):
    from games.jobs import jobs_sweep

    players, _ = club
    with committed():
        finish(players[0], players[7], length=7, winner="b", day=90)
    orphans = list(RatingRun.objects.filter(status=RunStatus.QUEUED).values_list("pk", flat=True))
    assert len(orphans) == 2
    # Their messages reach a worker whose claim fails (the database broke off its transaction):
    # the broker does not send a failed task again, so the runs stay queued.
    real_claim = runs.rating_run_claim

    def failing_claim(*, run, force=False):
        raise runs.IntegrityError("deadlock detected")

    monkeypatch.setattr(runs, "rating_run_claim", failing_claim)
    for kind, pk in list(sent):
        with pytest.raises(runs.IntegrityError):
            services.rating_run_process(run_id=pk)
    sent.clear()
    monkeypatch.setattr(runs, "rating_run_claim", real_claim)
    # Later changes are published by later runs (the next result's request queues nothing while
    # the orphans hold the systems' queue, so a run is asked for as a TD's recompute would be).
    with committed():
        finish(players[1], players[6], length=5, winner="a", day=91)
    for system in SYSTEMS:
        services.rating_recompute_now(system=system)
    assert set(RatingRun.objects.filter(status=RunStatus.QUEUED).values_list("pk", flat=True)) == set(orphans)

    with committed():
        assert jobs_sweep()["rating runs"] == 0  # nothing was owed: nothing rated again
    assert not RatingRun.objects.filter(status__in=[RunStatus.QUEUED, RunStatus.RUNNING]).exists()
    assert list(RatingRun.objects.filter(pk__in=orphans).values_list("error", flat=True)) == [
        "Nothing was left for it to rate."] * 2
    assert list(RatingSystemState.objects.values_list("queued_at", flat=True)) == [None, None]
    for system in SYSTEMS:
        assert differences_from_a_full_recompute(system) == []
