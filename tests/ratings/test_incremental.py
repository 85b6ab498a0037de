"""Publishing a result without rating the whole history again: the incremental path.

Whatever the sequence of new results, same-day results, back-dated results, corrections, voids
and new players, the ratings it publishes are the ones a recompute from scratch publishes, to
1e-9; changes that reach back rerun from a checkpoint, and what it cannot prove exact runs in full.
"""

import math
import random
from datetime import timedelta

import pytest

from games import services as games
from ratings import services
from ratings.services import checkpoints, execute, writing
from ratings.models import RatingCheckpoint, Rating, RatingChange, RatingCheckpoint, RatingPending, RatingRun, RatingSystemState
from ratings.systems import params

from .conftest import OPENING, WorkerKilled

pytestmark = pytest.mark.django_db

SYSTEMS = ("fibs", "crawford")


@pytest.fixture(autouse=True)
def few_founders(monkeypatch):
    """crawford's founders are the players who arrive before 8 players have 10 matches; here before
    4 have 5, so that the club below has founders and newcomers, and changes on both sides of them."""
    monkeypatch.setattr(params, "ESTABLISHED_PLAYERS", 4)
    monkeypatch.setattr(params, "ESTABLISHED_MATCHES", 5)


def published(system):
    """The system's published ratings and changes, without the run they belong to."""
    run_id = RatingSystemState.objects.get(system=system).published_run_id
    ratings = {
        row[0]: row[1:]
        for row in Rating.objects.filter(run_id=run_id).values_list(
            "player_id", "rating", "deviation", "volatility", "experience", "matches", "last_played", "provisional"
        )
    }
    changes = sorted(RatingChange.objects.filter(run_id=run_id).values_list(
        "player_id", "sequence", "match_id", "opponent_id", "played_on", "length", "won", "rating_before",
        "rating_after", "deviation_before", "deviation_after", "expected",
    ))
    return ratings, changes


def same(left, right, tolerance=1e-9):
    if isinstance(left, float) and isinstance(right, float):
        return math.isclose(left, right, rel_tol=0, abs_tol=tolerance)
    return left == right


def assert_equal_published(incremental, scratch):
    ratings, changes = incremental
    expected_ratings, expected_changes = scratch
    assert ratings.keys() == expected_ratings.keys()
    for player, row in ratings.items():
        assert all(same(a, b) for a, b in zip(row, expected_ratings[player])), (player, row, expected_ratings[player])
    assert len(changes) == len(expected_changes)
    for row, expected in zip(changes, expected_changes):
        assert all(same(a, b) for a, b in zip(row, expected)), (row, expected)


def publish_owed():
    """What the worker does once the results are committed (the runs it executes)."""
    return services.rating_recompute_owed()


def check_against_scratch(system):
    """The published ratings and changes equal those of a recompute from scratch (which is
    then published)."""
    incremental = published(system)
    services.rating_recompute_now(system=system)
    assert_equal_published(incremental, published(system))


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """`with committed():` the changes inside are committed, so their requests are made."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def club(make_player, finish, no_enqueue, committed):
    """Ten players and 70 results over four months, rated from scratch."""
    players = [make_player(name=f"P{n}") for n in range(10)]
    rng = random.Random(7)
    matches = []
    with committed():
        for number in range(70):
            a, b = rng.sample(players, 2)
            matches.append(finish(a, b, length=rng.choice([1, 3, 5, 7]), winner=rng.choice("ab"), day=number * 1.7))
    for system in SYSTEMS:
        services.rating_recompute_now(system=system)
    assert not RatingPending.objects.exists()
    return players, matches


def test_a_result_at_the_end_of_history_updates_its_two_players_in_the_published_run(club, finish, committed):
    players, matches = club
    before = {system: published(system) for system in SYSTEMS}
    runs = {system: RatingSystemState.objects.get(system=system).published_run_id for system in SYSTEMS}
    with committed():
        match = finish(players[0], players[1], length=5, winner="b", day=200)

    publish_owed()

    for system in SYSTEMS:
        assert RatingSystemState.objects.get(system=system).published_run_id == runs[system]
        latest = RatingRun.objects.filter(system=system, status="done").order_by("-started_at").first()
        assert latest.matches_total == 1 and not latest.published
        ratings, changes = published(system)
        old_ratings, old_changes = before[system]
        moved = {player for player in ratings if ratings[player] != old_ratings[player]}
        assert moved == {players[0].pk, players[1].pk}
        assert len(changes) == len(old_changes) + 2
        new = [row for row in changes if row[2] == match.pk]
        assert [row[1] for row in new] == [70, 70]
        assert not RatingPending.objects.filter(system=system).exists()
        check_against_scratch(system)


def test_a_fibs_result_at_the_end_moves_both_players_by_the_fibs_formula(make_player, finish, no_enqueue, committed):
    """Two newcomers, 1500 each: A wins 3 points (stake 4·√3·½, factor 5), then B wins 3
    points at 1517.32/1482.68 on the incremental path."""
    a, b = make_player(name="A"), make_player(name="B")
    with committed():
        finish(a, b, length=3, winner="a", day=0)
    services.rating_recompute_now(system="fibs")
    run_id = RatingSystemState.objects.get(system="fibs").published_run_id
    with committed():
        finish(a, b, length=3, winner="b", day=1)
    services.rating_recompute_owed(system="fibs")

    assert RatingSystemState.objects.get(system="fibs").published_run_id == run_id
    ratings = {r.player_id: r for r in Rating.objects.filter(run_id=run_id)}
    first = 10 * math.sqrt(3)
    p_b = 1 / (1 + 10 ** ((1500 + first - (1500 - first)) * math.sqrt(3) / 2000))
    second = 4 * math.sqrt(3) * (1 - p_b) * (5 - 3 / 100)
    assert ratings[a.pk].rating == pytest.approx(1500 + first - second, abs=1e-9)
    assert ratings[b.pk].rating == pytest.approx(1500 - first + second, abs=1e-9)
    assert ratings[a.pk].experience == 6 and ratings[a.pk].matches == 2
    assert list(RatingChange.objects.filter(run_id=run_id, player_id=b.pk).values_list("sequence", flat=True)) == [0, 1]


def test_a_correction_reaching_back_reruns_from_a_checkpoint_before_it(club, committed, settings):
    settings.RATINGS_CHECKPOINT_DAYS = 0  # month checkpoints only
    for system in SYSTEMS:
        services.rating_recompute_now(system=system)
    players, matches = club
    runs = {system: RatingSystemState.objects.get(system=system).published_run_id for system in SYSTEMS}
    assert RatingCheckpoint.objects.filter(run_id=runs["fibs"], head=False).count() == 3  # Feb, Mar, Apr
    corrected = matches[66]  # day 112, April
    flipped = (0, corrected.length) if corrected.winner_id == corrected.player_a_id else (corrected.length, 0)
    with committed():
        games.match_final_score_record(match=corrected, score_a=flipped[0], score_b=flipped[1])

    publish_owed()

    for system in SYSTEMS:
        assert RatingSystemState.objects.get(system=system).published_run_id == runs[system]
        latest = RatingRun.objects.filter(system=system, status="done").order_by("-started_at").first()
        assert latest.matches_total == 70 - 53  # from 1 April (day 90: match 53 on) to the end
        check_against_scratch(system)


def change_ids(system, players):
    """The primary keys of the published rating changes of `players`."""
    run_id = RatingSystemState.objects.get(system=system).published_run_id
    return set(RatingChange.objects.filter(run_id=run_id, player__in=players).values_list("pk", flat=True))


def test_a_correction_rewrites_only_the_players_it_reaches(make_player, finish, no_enqueue, committed):
    """Two circles of six that meet only late: a corrected winner in one leaves the other's
    published rows standing (the same rows); a back-dated match between them, renumbering the
    matches after it, and a correction after that still publish what a recompute does."""
    east = [make_player(name=f"E{n}") for n in range(6)]
    west = [make_player(name=f"W{n}") for n in range(6)]
    rng = random.Random(11)
    matches = []
    with committed():
        for number in range(90):  # 1 January to 1 June
            a, b = rng.sample(east if number % 2 else west, 2)
            matches.append(finish(a, b, length=rng.choice([1, 3, 5, 7]), winner=rng.choice("ab"), day=number * 1.7))
    for system in SYSTEMS:
        services.rating_recompute_now(system=system)
    runs = {system: RatingSystemState.objects.get(system=system).published_run_id for system in SYSTEMS}
    standing = {system: change_ids(system, west) for system in SYSTEMS}

    corrected = matches[81]  # east, day 137.7, May
    flipped = (0, corrected.length) if corrected.winner_id == corrected.player_a_id else (corrected.length, 0)
    with committed():
        games.match_final_score_record(match=corrected, score_a=flipped[0], score_b=flipped[1])
    publish_owed()
    for system in SYSTEMS:
        assert RatingSystemState.objects.get(system=system).published_run_id == runs[system]
        assert change_ids(system, west) == standing[system]
        assert len(standing[system]) == 2 * 45
        check_against_scratch(system)

    with committed():
        finish(east[0], west[0], length=5, winner="b", day=130)
    publish_owed()
    for system in SYSTEMS:
        check_against_scratch(system)

    corrected = matches[84]  # west, day 142.8
    flipped = (0, corrected.length) if corrected.winner_id == corrected.player_a_id else (corrected.length, 0)
    with committed():
        games.match_final_score_record(match=corrected, score_a=flipped[0], score_b=flipped[1])
    runs = {system: RatingSystemState.objects.get(system=system).published_run_id for system in SYSTEMS}
    publish_owed()
    for system in SYSTEMS:
        assert RatingSystemState.objects.get(system=system).published_run_id == runs[system]
        check_against_scratch(system)


def test_a_change_among_the_founders_matches_runs_crawford_in_full(club, committed):
    players, matches = club
    run_id = RatingSystemState.objects.get(system="crawford").published_run_id
    checkpoints = RatingCheckpoint.objects.filter(run_id=run_id, head=False).order_by("sequence")
    founded_after = int(RatingCheckpoint.objects.get(run_id=run_id, head=True).settled_value)
    first = checkpoints.first().sequence
    assert (first, founded_after) == (18, 23)  # the club's founders play its first 23 matches
    with committed():
        games.match_update(match=matches[first + 1], rated=False, reason="pairing undone")
    services.rating_recompute_owed(system="crawford")
    published_now = RatingSystemState.objects.get(system="crawford").published_run_id
    assert published_now != run_id
    assert RatingRun.objects.get(pk=published_now).note.startswith(
        "The change reaches the first 23 rated matches, which decide who founded the ratings")
    check_against_scratch("crawford")


def test_a_small_site_without_founders_yet_rates_each_result_at_the_end_from_the_head(
    make_player, finish, no_enqueue, committed
):
    """Six players, eight results: no four have five matches, so the history has no founders yet.
    Each result at the end is rated from the head, not in full: the one that gives the history
    its founders too, and then a newcomer's first, who starts at 1400 ± 150 below them."""
    players = [make_player(name=f"S{n}") for n in range(6)]
    pairs = [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2), (4, 5), (0, 1)]
    with committed():
        for day, (a, b) in enumerate(pairs):
            finish(players[a], players[b], length=3, winner="a", day=day)
    services.rating_recompute_now(system="crawford")
    run_id = RatingSystemState.objects.get(system="crawford").published_run_id
    assert RatingCheckpoint.objects.get(run_id=run_id, head=True).settled_value is None

    # matches 9 to 11 make S0, S1 and S2 established (5 matches each, S3 has 4): founded after 11
    for day, (a, b) in enumerate([(0, 2), (1, 3), (2, 3), (2, 4)], start=len(pairs)):
        with committed():
            finish(players[a], players[b], length=3, winner="b", day=day)
        publish_owed()
        latest = RatingRun.objects.filter(system="crawford", status="done").order_by("-started_at").first()
        assert RatingSystemState.objects.get(system="crawford").published_run_id == run_id
        assert (latest.matches_total, latest.note) == (1, "")
    assert RatingCheckpoint.objects.get(run_id=run_id, head=True).settled_value == 11.0

    newcomer = make_player(name="S6")
    with committed():
        match = finish(newcomer, players[5], length=3, winner="a", day=20)
    publish_owed()
    latest = RatingRun.objects.filter(system="crawford", status="done").order_by("-started_at").first()
    assert RatingSystemState.objects.get(system="crawford").published_run_id == run_id
    assert (latest.matches_total, latest.note) == (1, "")
    first = RatingChange.objects.get(run_id=run_id, match=match, player=newcomer)
    assert (first.rating_before, first.deviation_before) == (1400.0, 150.0)
    founder = RatingChange.objects.filter(run_id=run_id, player=players[5]).order_by("sequence").first()
    assert (founder.rating_before, founder.deviation_before) == (1500.0, 150.0)
    check_against_scratch("crawford")
    assert RatingCheckpoint.objects.get(
        run_id=RatingSystemState.objects.get(system="crawford").published_run_id, head=True).settled_value == 11.0


@pytest.mark.parametrize("seed", [4, 5])
def test_changes_to_a_history_that_gets_its_founders_meanwhile_publish_what_a_recompute_does(
    make_player, finish, no_enqueue, committed, seed
):
    """From a history without founders, seeded random changes (results at the end, late and
    back-dated, corrections, voids, newcomers) until past its founding: after each, the
    published ratings and changes equal a recompute from scratch, most are rated from a
    checkpoint, and every run in full says why in its note."""
    players = [make_player(name=f"P{n}") for n in range(7)]
    rng = random.Random(seed)
    matches = []
    with committed():
        for number in range(12):
            a, b = rng.sample(players, 2)
            matches.append(finish(a, b, length=rng.choice([1, 3, 5]), winner=rng.choice("ab"), day=number * 1.3))
    services.rating_recompute_now(system="crawford")
    assert RatingCheckpoint.objects.get(
        run_id=RatingSystemState.objects.get(system="crawford").published_run_id, head=True).settled_value is None
    day, incremental = 12 * 1.3, 0
    for step in range(22):
        with committed():
            day = make_change(rng, step, seed, players, matches, make_player, finish, day, earliest=0)
        run_id = RatingSystemState.objects.get(system="crawford").published_run_id
        publish_owed()
        now = RatingSystemState.objects.get(system="crawford").published_run_id
        if now == run_id:
            incremental += 1
        else:
            assert RatingRun.objects.get(pk=now).note.endswith("rating in full.")
        check_against_scratch("crawford")
    head = RatingCheckpoint.objects.get(run_id=RatingSystemState.objects.get(system="crawford").published_run_id,
                                        head=True)
    assert head.settled_value is not None  # founded on the way
    assert incremental >= 10  # the others reach before the first day's checkpoint, or into the founders' matches


def test_a_request_naming_no_match_runs_in_full(club):
    run_id = RatingSystemState.objects.get(system="fibs").published_run_id
    services.rating_recompute_request(system="fibs")
    services.rating_recompute_owed(system="fibs")
    assert RatingSystemState.objects.get(system="fibs").published_run_id != run_id


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_any_sequence_of_changes_publishes_what_a_recompute_from_scratch_does(club, make_player, finish, seed,
                                                                             committed):
    """Seeded random sequences of new results, same-day results, back-dated results, corrected
    winners, moved dates, voids and restorations, new players; after each step both systems'
    published ratings and changes equal a recompute from scratch."""
    players, matches = club
    players = list(players)
    rng = random.Random(seed)
    day = 70 * 1.7
    incremental = 0
    for step in range(14):
        with committed():
            day = make_change(rng, step, seed, players, matches, make_player, finish, day)
        runs = {system: RatingSystemState.objects.get(system=system).published_run_id for system in SYSTEMS}
        publish_owed()
        for system in SYSTEMS:
            incremental += RatingSystemState.objects.get(system=system).published_run_id == runs[system]
            check_against_scratch(system)
    assert incremental >= 10


def make_change(rng, step, seed, players, matches, make_player, finish, day, earliest=40):
    """One random change (to the matches from `earliest` on); returns the day of the last result
    entered at the end."""
    kind = rng.choice(["end", "end", "same day", "back", "winner", "move", "void", "restore", "newcomer"])
    if kind == "newcomer":
        players.append(make_player(name=f"New {seed}-{step}"))
        kind = "end"
    if kind in ("end", "same day", "back"):
        if kind == "end":
            day += rng.uniform(0.1, 9)
        when = day if kind != "back" else rng.uniform(min(40, day / 2), day)
        a, b = rng.sample(players[-3:] if rng.random() < 0.3 else players, 2)
        matches.append(finish(a, b, length=rng.choice([1, 3, 5, 9]), winner=rng.choice("ab"), day=when))
    elif kind == "winner":
        match = rng.choice(matches[earliest:])
        match.refresh_from_db()
        if match.winner_id == match.player_a_id:
            games.match_final_score_record(match=match, score_a=1 if match.length > 1 else 0, score_b=match.length)
        else:
            games.match_final_score_record(match=match, score_a=match.length, score_b=0)
    elif kind == "move":
        match = rng.choice(matches[earliest:])
        match.refresh_from_db()
        games.match_update(match=match, played_on=OPENING + timedelta(days=rng.uniform(min(60, day / 2), day)))
    else:
        match = rng.choice(matches[earliest:])
        match.refresh_from_db()
        games.match_update(match=match, rated=kind == "restore")
    return day


def test_a_worker_killed_while_publishing_leaves_the_old_ratings_and_the_check_heals_it(
    club, finish, committed, monkeypatch, settings
):
    players, matches = club
    before = published("fibs")
    run_id = RatingSystemState.objects.get(system="fibs").published_run_id
    with committed():
        finish(players[2], players[3], length=7, winner="a", day=200)

    def die(*args, **kwargs):
        raise WorkerKilled

    # killed after the new changes and ratings are written, before the head moves
    monkeypatch.setattr(execute, "write_states", die)
    monkeypatch.setattr(execute, "_fail", lambda run, error: None)
    with pytest.raises(WorkerKilled):
        services.rating_recompute_owed(system="fibs")
    monkeypatch.undo()
    dead = RatingRun.objects.get(system="fibs", status="running")
    assert published("fibs") == before  # nothing of the half-done publish is seen
    assert RatingPending.objects.filter(system="fibs", run_id=dead.pk).count() == 1

    past = dead.heartbeat_at - timedelta(seconds=settings.CRAWFORD_STALE_SECONDS + 1)
    RatingRun.objects.filter(pk=dead.pk).update(heartbeat_at=past)
    (healed,) = services.rating_recompute_owed(system="fibs")
    assert RatingRun.objects.get(pk=dead.pk).status == "superseded"
    assert healed.matches_total == 1 and not healed.published  # incremental again
    assert RatingSystemState.objects.get(system="fibs").published_run_id == run_id
    assert not RatingPending.objects.filter(system="fibs").exists()
    check_against_scratch("fibs")


def test_a_result_entered_late_reruns_from_the_start_of_its_day(club, finish, committed):
    players, matches = club  # the last matches on days 112.2, 113.9, 115.6 and 117.3
    with committed():
        finish(players[4], players[5], length=3, winner="a", day=115.7)  # 1.6 days before the last

    publish_owed()

    for system in SYSTEMS:
        latest = RatingRun.objects.filter(system=system, status="done").order_by("-started_at").first()
        assert latest.matches_total == 2 + 1  # the matches of day 115 on (11 April 00:00 UTC)
        check_against_scratch(system)


def test_the_luck_adjusted_system_publishes_incrementally_what_a_recompute_from_scratch_does(
    make_player, finish, no_enqueue, committed, settings
):
    """skill reads each analysed match's luck-adjusted score on the incremental path too: a new
    result at the end of history, an analysis stored later, a back-dated result."""
    from analysis.models import AnalysisStatus, MatchAnalysis, PlayerAnalysis

    settings.RATINGS_LUCK_ADJUSTED = True
    figures = dict(
        total_moves=40, unforced_moves=35, doubtful=1, bad=0, very_bad=0, chequer_error=0.2,
        close_cube_decisions=3, total_cube_decisions=5, doubles=1, takes=1, passes=0, cube_error=0.05, luck=0.3,
        error_based_fibs_rating=1900.0, chequer_error_rate=5.7, cube_error_rate=16.7, error_rate=6.3,
        snowie_error_rate=3.1, pr=3.1, luck_rate=7.5,
    )

    def analysed(match, lar_a):
        analysis = MatchAnalysis.objects.create(match=match, status=AnalysisStatus.DONE,
                                               games_revision=match.games_revision)
        for side, player, lar in ((0, match.player_a, lar_a), (1, match.player_b, -lar_a)):
            PlayerAnalysis.objects.create(analysis=analysis, side=side, player=player, luck_adjusted_result=lar,
                                          actual_result=0.5 - side, **figures)

    players = [make_player(name=f"S{n}") for n in range(6)]
    rng = random.Random(11)
    with committed():
        for number in range(60):
            a, b = rng.sample(players, 2)
            match = finish(a, b, length=rng.choice([3, 5, 7]), winner=rng.choice("ab"), day=number * 1.5)
            if number % 3 == 0:
                analysed(match, rng.choice([-0.4, -0.125, 0.2, 0.35]))
    services.rating_recompute_now(system="skill")
    services.rating_recompute_now(system="crawford")
    assert published("skill")[0] != published("crawford")[0]  # the scores are read, not the wins

    with committed():
        last = finish(players[0], players[1], length=5, winner="a", day=120)
    publish_owed()
    latest = RatingRun.objects.filter(system="skill", status="done").order_by("-started_at").first()
    assert latest.matches_total == 1  # the new result was rated on its own, from the head
    check_against_scratch("skill")

    with committed():
        analysed(last, -0.3)
        finish(players[2], players[3], length=3, winner="b", day=40.25)
    publish_owed()
    check_against_scratch("skill")
    check_against_scratch("crawford")


@pytest.mark.django_db(transaction=True)
def test_readers_during_an_incremental_publish_see_the_old_list_or_the_new_never_a_mix(
    club, committed, monkeypatch
):
    """A reader on another connection, reading the rating list over and over while a correction
    reaching most players is published, sees the old list whole until the commit and the new one
    after it. Each write inside the publishing transaction is slowed so that reads fall inside it."""
    from django.db import connection, connections

    if connection.vendor != "postgresql":
        pytest.skip("two connections writing and reading at once: PostgreSQL (SQLite locks the file)")
    import threading
    import time

    from ratings import selectors

    def read():
        return [(r.player_id, r.rating, r.deviation) for r in selectors.rating_list(system="crawford")]

    before = read()
    players, matches = club
    corrected = matches[10]
    flipped = (0, corrected.length) if corrected.winner_id == corrected.player_a_id else (corrected.length, 0)
    inside = threading.Event()
    writes = writing._write

    def slow_write(*args, **kwargs):
        inside.set()
        time.sleep(0.05)
        return writes(*args, **kwargs)

    monkeypatch.setattr(writing, "_write", slow_write)
    seen, stop = [], threading.Event()

    def reader():
        try:
            while not stop.is_set():
                seen.append((inside.is_set(), read()))
        finally:
            connections.close_all()

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        with committed():
            games.match_final_score_record(match=corrected, score_a=flipped[0], score_b=flipped[1])
        publish_owed()
    finally:
        stop.set()
        thread.join(timeout=30)
    after = read()

    assert inside.is_set() and after != before
    assert {tuple(rows) for _, rows in seen} <= {tuple(before), tuple(after)}
    while_publishing = [rows for during, rows in seen if during]
    assert while_publishing and while_publishing[0] == before  # reads inside the transaction: the old list


def test_a_correction_publishes_before_its_checkpoints_are_rewritten_and_a_death_between_only_slows_the_next(
    club, finish, committed, monkeypatch, settings, no_enqueue
):
    """A correction reaching back publishes its ratings first and rewrites the checkpoints after
    it next. A worker dying in between leaves the published ratings right and those checkpoints
    unready: later runs resume from a ready checkpoint before them and rewrite them whole."""
    settings.RATINGS_CHECKPOINT_DAYS = 0  # month checkpoints only: 1 February, March and April
    services.rating_recompute_now(system="fibs")
    players, matches = club
    run_id = RatingSystemState.objects.get(system="fibs").published_run_id

    def ready():
        return list(RatingCheckpoint.objects.filter(run_id=run_id, head=False).order_by("sequence")
                    .values_list("after_on__month", "ready"))

    assert ready() == [(2, True), (3, True), (4, True)]
    corrected = matches[20]  # day 34, February
    flipped = (0, corrected.length) if corrected.winner_id == corrected.player_a_id else (corrected.length, 0)
    with committed():
        games.match_final_score_record(match=corrected, score_a=flipped[0], score_b=flipped[1])

    def die(*args, **kwargs):
        raise WorkerKilled

    monkeypatch.setattr(checkpoints, "_prune_checkpoints", die)  # inside the rewrite of the checkpoints
    with pytest.raises(WorkerKilled):
        services.rating_recompute_owed(system="fibs")
    monkeypatch.undo()
    assert RatingRun.objects.filter(system="fibs", status="failed").count() == 1
    assert not RatingPending.objects.filter(system="fibs").exists()  # published: nothing owed
    assert ready() == [(2, True), (3, False), (4, False)]
    incremental = published("fibs")

    with committed():  # a result at the end resumes from the head
        finish(players[1], players[2], length=5, winner="b", day=118)
    services.rating_run_process(run_id=no_enqueue[-1])  # as the worker does with the run a new result sends
    assert RatingRun.objects.filter(system="fibs", status="done").latest("finished_at").matches_total == 1
    assert ready() == [(2, True), (3, False), (4, False)]

    corrected = matches[60]  # day 102, April: March and April unready, so from February
    flipped = (0, corrected.length) if corrected.winner_id == corrected.player_a_id else (corrected.length, 0)
    with committed():
        games.match_final_score_record(match=corrected, score_a=flipped[0], score_b=flipped[1])
    services.rating_run_process(run_id=no_enqueue[-1])
    latest = RatingRun.objects.filter(system="fibs", status="done").latest("finished_at")
    assert latest.matches_total == 71 - 18  # from 1 February (day 31: match 18 on) to the end
    assert ready() == [(2, True), (3, True), (4, True)]
    assert RatingSystemState.objects.get(system="fibs").published_run_id == run_id
    check_against_scratch("fibs")
    assert incremental != published("fibs")
