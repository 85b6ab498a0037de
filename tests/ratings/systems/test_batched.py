"""The vectorised engines give the scalar engines' numbers, match by match."""

import csv
import math
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.systems import CrawfordParameters, CrawfordRating, FibsRating, MatchRecord

from .helpers import experienced, match

np = pytest.importorskip("numpy")
from ratings.systems.batches import batches  # noqa: E402
from config.shared_data import SHARED_DATA

LEAGUE_CSV = SHARED_DATA / "league.csv"
TOLERANCE = 1e-9

histories = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=11),
        st.integers(min_value=0, max_value=11),
        st.integers(min_value=1, max_value=25),
        st.sampled_from("ab"),
        st.integers(min_value=0, max_value=30),
    ).filter(lambda t: t[0] != t[1]),
    max_size=150,
)

SYSTEMS = [
    FibsRating(),
    FibsRating(experience_includes_current=True),
    CrawfordRating(),
    CrawfordRating(CrawfordParameters(tau=0.5, initial_volatility=0.06, period_days=3.0, maximum_deviation=250.0)),
    CrawfordRating(CrawfordParameters(match_growth=1.0, newcomer_offset=-250.0, newcomer_deviation=80.0)),
    CrawfordRating(CrawfordParameters(newcomer_offset=0.0, newcomer_deviation=None)),
]


def as_history(raw):
    """Match records from generated tuples, in time order (days as gaps from the previous match)."""
    day = 0
    history = []
    for i, (a, b, length, winner, gap) in enumerate(raw):
        day += gap if gap > 20 else 0
        history.append(match(i, f"p{a}", f"p{b}", length, winner, day=day))
    return history


def close(x, y):
    if x is None or y is None:
        return x is y
    return math.isclose(x, y, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def assert_same_run(system, history, **options):
    scalar = system.run_sequential(history, **options)
    vectorised = system.run(history, **options)
    assert vectorised.matches == scalar.matches
    assert vectorised.ratings.keys() == scalar.ratings.keys()
    for player, expected in scalar.ratings.items():
        got = vectorised.ratings[player]
        assert (got.experience, got.matches, got.last_played, got.provisional) == (
            expected.experience, expected.matches, expected.last_played, expected.provisional
        )
        assert close(got.rating, expected.rating) and close(got.deviation, expected.deviation)
        assert close(got.volatility, expected.volatility)
    assert len(vectorised.changes) == len(scalar.changes)
    for got, expected in zip(vectorised.changes, scalar.changes):
        assert got[:4] == expected[:4]
        assert all(close(x, y) for x, y in zip(got[4:], expected[4:])), (got, expected)


@settings(max_examples=80, deadline=None)
@given(histories)
def test_the_vectorised_engines_agree_with_the_scalar_ones_on_any_history(raw):
    history = as_history(raw)
    for system in SYSTEMS:
        assert_same_run(system, history)


@settings(max_examples=30, deadline=None)
@given(histories, st.floats(min_value=1000.0, max_value=2000.0), st.floats(min_value=40.0, max_value=320.0))
def test_they_agree_when_continuing_from_starting_ratings(raw, rating, deviation):
    history = as_history(raw)
    starting = {
        "p0": experienced("p0", rating, deviation=deviation, volatility=0.02, last_played=date(2024, 12, 1)),
        "p1": experienced("p1", rating - 100.0),
        "absent": experienced("absent", 1700.0, deviation=80.0, volatility=0.01),
    }
    for system in SYSTEMS:
        assert_same_run(system, history, starting_ratings=starting)
        assert_same_run(system, history, starting_ratings=starting, keep_changes=False)


@pytest.mark.skipif(not LEAGUE_CSV.exists(), reason="needs ../shared/data/league.csv")
def test_they_agree_on_the_league_file():
    with LEAGUE_CSV.open() as league:
        history = [
            MatchRecord(i, date.fromisoformat(row["played_on"]), row["player_a"], row["player_b"], int(row["length"]),
                        "a" if int(row["score_a"]) > int(row["score_b"]) else "b")
            for i, row in enumerate(csv.DictReader(league))
        ]
    assert len(history) > 1000
    for system in SYSTEMS:
        assert_same_run(system, history)


@settings(max_examples=60, deadline=None)
@given(histories)
def test_a_batch_never_holds_a_player_twice_and_keeps_each_players_order(raw):
    history = as_history(raw)
    if not history:
        return
    player_a = np.array([int(r.player_a[1:]) for r in history])
    player_b = np.array([int(r.player_b[1:]) for r in history])
    order, starts = batches(player_a, player_b)
    assert sorted(order.tolist()) == list(range(len(history)))
    batch_of = {}
    for number, (first, after) in enumerate(zip(starts[:-1], starts[1:])):
        members = order[first:after]
        players = np.concatenate((player_a[members], player_b[members]))
        assert len(set(players.tolist())) == len(players)
        for i in members.tolist():
            batch_of[i] = number
    last = {}
    for i in range(len(history)):
        for player in (player_a[i], player_b[i]):
            assert batch_of[i] > last.get(player, -1)
            last[player] = batch_of[i]


def test_run_arrays_gives_the_changes_as_arrays_in_history_order():
    history = [match(i, f"p{i % 4}", f"p{(i + 1) % 4}", 1 + 2 * (i % 5), "ab"[i % 3 == 0], day=i // 3)
               for i in range(40)]
    players = {f"p{n}": n for n in range(4)}
    for system in (FibsRating(), CrawfordRating()):
        scalar = system.run_sequential(history)
        run = system.run_arrays(
            np.arange(40), [r.played_on.toordinal() for r in history], [players[r.player_a] for r in history],
            [players[r.player_b] for r in history], [r.length for r in history], [r.winner == "a" for r in history],
        )
        assert run.rating_after_a.tolist() == pytest.approx([c.rating_after for c in scalar.changes[0::2]], abs=1e-9)
        assert run.expected_b.tolist() == pytest.approx([c.expected for c in scalar.changes[1::2]], abs=1e-9)
        assert run.rating.tolist() == pytest.approx([scalar.ratings[f"p{n}"].rating for n in range(4)], abs=1e-9)
        assert run.matches.tolist() == [20] * 4


def batch_numbers_by_definition(player_a, player_b):
    """Each match's batch as the module describes it: 1 + the latest batch of its two players'
    earlier matches (0 before a player's first)."""
    last = {}
    numbers = []
    for a, b in zip(player_a, player_b):
        number = 1 + max(last.get(a, 0), last.get(b, 0))
        last[a] = last[b] = number
        numbers.append(number)
    return numbers


def ordering_stress_history():
    """One player in many matches in a row, other players joining and leaving, many matches on
    the same day, and long gaps without a match."""
    history = []
    day = 0
    for i in range(400):
        if i % 37 == 0:
            day += 90 if i % 74 == 0 else 1
        if i % 5 < 3:
            pair = ("star", f"p{i % 7}")
        else:
            pair = (f"p{(i * 3) % 11}", f"p{(i * 3 + 1 + i % 4) % 11}")
        if pair[0] == pair[1]:
            pair = (pair[0], "star")
        a, b = pair if i % 2 else pair[::-1]
        history.append(match(i, a, b, 1 + 2 * (i % 9), "ab"[(i * 7) % 3 == 0], day=day))
    return history


def test_the_batches_follow_their_definition_on_a_history_that_stresses_ordering():
    history = ordering_stress_history()
    index = {}
    player_a = np.array([index.setdefault(r.player_a, len(index)) for r in history])
    player_b = np.array([index.setdefault(r.player_b, len(index)) for r in history])
    order, starts = batches(player_a, player_b)
    expected = batch_numbers_by_definition(player_a.tolist(), player_b.tolist())
    for number, (first, after) in enumerate(zip(starts[:-1].tolist(), starts[1:].tolist()), start=1):
        members = order[first:after].tolist()
        assert members == sorted(members)
        assert all(expected[i] == number for i in members)
    assert sorted(order.tolist()) == list(range(len(history)))


def test_the_vectorised_engines_agree_with_the_scalar_ones_on_a_history_that_stresses_ordering():
    history = ordering_stress_history()
    for system in SYSTEMS:
        assert_same_run(system, history)
        assert_same_run(system, history, keep_changes=False)
        starting = {"star": experienced("star", 1800.0, deviation=60.0, volatility=0.03)}
        assert_same_run(system, history, starting_ratings=starting)


def test_run_arrays_agrees_with_the_scalar_engines_on_a_history_that_stresses_ordering():
    history = ordering_stress_history()
    index = {}
    columns = (
        np.arange(len(history)),
        [r.played_on.toordinal() for r in history],
        [index.setdefault(r.player_a, len(index)) for r in history],
        [index.setdefault(r.player_b, len(index)) for r in history],
        [r.length for r in history],
        [r.winner == "a" for r in history],
    )
    for system in SYSTEMS:
        scalar = system.run_sequential(history)
        run = system.run_arrays(*columns)
        for side, changes in (("a", scalar.changes[0::2]), ("b", scalar.changes[1::2])):
            for name in ("rating_before", "rating_after", "deviation_before", "deviation_after", "expected"):
                got = getattr(run, f"{name}_{side}")
                expected = [getattr(change, name) for change in changes]
                assert (got is None) if expected[0] is None else got.tolist() == approx(expected)
        players = sorted(index, key=index.get)
        assert run.rating.tolist() == approx([scalar.ratings[p].rating for p in players])
        assert run.experience.tolist() == [scalar.ratings[p].experience for p in players]
        assert run.matches.tolist() == [scalar.ratings[p].matches for p in players]
        if run.deviation is not None:
            assert run.deviation.tolist() == approx([scalar.ratings[p].deviation for p in players])
            assert run.volatility.tolist() == approx([scalar.ratings[p].volatility for p in players])


def approx(values):
    return pytest.approx(values, rel=TOLERANCE, abs=TOLERANCE)
