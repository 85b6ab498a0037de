import math

import pytest
from django.core.management import call_command

from ratings import selectors, services
from ratings.models import Rating, RatingChange, RatingRun, RunStatus

pytestmark = pytest.mark.django_db


def fibs_ratings():
    return {r.player.name: r for r in selectors.rating_list(system="fibs")}


def test_an_underdog_beating_a_favourite_over_3_points_gains_the_fibs_amount(make_player, finish, no_enqueue):
    # Strong beats two newcomers 5 times each (experience 30 → factor 4.7), then Weak upsets Strong.
    strong, weak = make_player(name="Strong"), make_player(name="Weak")
    finish(weak, strong, length=3, winner="a")
    services.rating_recompute_now(system="fibs")

    ratings = fibs_ratings()
    # Both 1500, length 3: P = 0.5, stake 4·√3·0.5 = 3.4641, factor 5 each.
    assert ratings["Weak"].rating == pytest.approx(1500 + 5 * 2 * math.sqrt(3), abs=1e-9)
    assert ratings["Strong"].rating == pytest.approx(1500 - 5 * 2 * math.sqrt(3), abs=1e-9)
    assert ratings["Weak"].experience == 3 and ratings["Weak"].provisional


def test_the_stack_rates_an_upset_by_the_fibs_formula(make_player, finish, no_enqueue):
    """B beats newcomer X over 9 points: both at 1500, P = ½, stake 4·3·½ = 6, factor 5, so
    B 1530 and X 1470, 9 points of experience each. Newcomer A (1500, factor 5) then beats B
    (1530, factor 5 − 9/100 = 4.91) over 3 points: P_underdog = 1/(10^(30·√3/2000) + 1) =
    0.485049, stake 4·√3·(1 − 0.485049) = 3.567687; A 1500 + 5·3.567687, B 1530 − 4.91·3.567687."""
    a, b, x = make_player(name="A"), make_player(name="B"), make_player(name="X")
    finish(b, x, length=9, winner="a", day=0)
    finish(a, b, length=3, winner="a", day=1)
    services.rating_recompute_now(system="fibs")

    ratings = fibs_ratings()
    assert ratings["X"].rating == pytest.approx(1470.0, abs=1e-9)
    assert ratings["A"].rating == pytest.approx(1517.838435, abs=1e-6)
    assert ratings["B"].rating == pytest.approx(1512.482657, abs=1e-6)
    assert ratings["B"].experience == 12 and ratings["B"].matches == 2
    assert [r.player.name for r in selectors.rating_list(system="fibs")] == ["A", "B", "X"]
    upset = selectors.rating_history(player_id=a.pk, system="fibs").get()
    assert upset.rating_before == 1500.0 and upset.won and upset.opponent.name == "B"
    assert upset.expected == pytest.approx(0.485049, abs=1e-6)
    b_history = list(selectors.rating_history(player_id=b.pk, system="fibs"))
    assert [round(c.rating_after, 6) for c in b_history] == [1530.0, 1512.482657]
    assert [c.length for c in b_history] == [9, 3]


def test_the_variance_adjusted_rating_is_stored_with_its_deviation(make_player, finish, no_enqueue):
    a, b = make_player(name="A"), make_player(name="B")
    finish(a, b, length=5, winner="a")
    run = services.rating_recompute_now(system="crawford")
    assert run.status == RunStatus.DONE and run.published and run.matches_total == 1 and run.matches_done == 1
    ratings = {r.player.name: r for r in selectors.rating_list(system="crawford")}
    assert ratings["A"].rating > 1500 > ratings["B"].rating
    assert ratings["A"].rating - 1500 == pytest.approx(1500 - ratings["B"].rating, abs=1e-9)
    assert ratings["A"].deviation < 150 and ratings["A"].provisional
    change = selectors.rating_history(player_id=a.pk, system="crawford").get()
    assert change.deviation_before == pytest.approx(150.0) and change.expected == pytest.approx(0.5)


def test_forfeits_unrated_unfinished_matches_and_sessions_are_not_rated(make_player, finish, make_match, no_enqueue):
    from games import services as games

    a, b = make_player(name="A"), make_player(name="B")
    finish(a, b, length=3, winner="a")
    finish(a, b, length=3, winner="a", rated=False)
    make_match(player_a=a, player_b=b, length=5)  # in progress
    forfeited = make_match(player_a=a, player_b=b, length=5)
    games.match_forfeit(match=forfeited, forfeited_by=b)
    games.match_create(player_a=a, player_b=b, kind="session", length=0)
    assert len(services.rated_history()) == 1
    services.rating_recompute_now(system="fibs")
    assert fibs_ratings()["A"].matches == 1
    assert RatingChange.objects.count() == 2


def test_the_command_recomputes_both_systems_and_prints_a_summary(make_player, finish, no_enqueue, capsys):
    finish(make_player(name="A"), make_player(name="B"), length=7)
    call_command("recompute_ratings")
    out = capsys.readouterr().out
    assert "fibs: run" in out and "crawford: run" in out and "rated 1 matches of 2 players" in out
    assert Rating.objects.filter(system="crawford").count() == 2
    call_command("recompute_ratings", "--system", "fibs")
    assert RatingRun.objects.filter(system="fibs", status=RunStatus.DONE).count() == 2
    # the rows of the first fibs run are gone; the published run's remain
    assert Rating.objects.filter(system="fibs").count() == 2
