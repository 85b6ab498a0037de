"""How well each rating forecast this site's own matches: the formula page's accuracy tables."""

import math

import pytest

from ratings import selectors, services

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_matches(make_player, finish, no_enqueue):
    """Ann beats Bob over 3 points, then Cid (new) beats Ann over 5, then Ann beats Bob over 5.

    FIBS: the first match is even (0.5 each; Ann, the lower id, is the row scored: −ln 0.5).
    Ann then has 1500 + 5·2·√3 = 1517.320508 and is the favourite against newcomer Cid over 5
    points: Cid's chance 1/(10^(17.320508·√5/2000) + 1) = 0.488855, so Ann's 0.511145 and she
    lost. Ann (experience 3, factor 4.97) drops by 4.97·4·√5·0.511145 to 1494.598541 and beats
    Bob (1482.679492) over 5 points as the favourite."""
    ann, bob, cid = make_player(name="Ann"), make_player(name="Bob"), make_player(name="Cid")
    finish(ann, bob, length=3, winner="a", day=0)
    finish(cid, ann, length=5, winner="a", day=1)
    finish(ann, bob, length=5, winner="a", day=2)
    services.rating_recompute_now(system="fibs")
    services.rating_recompute_now(system="crawford")
    return ann, bob, cid


def test_each_system_is_scored_on_every_match_forecast_before_it_was_rated(three_matches, django_assert_num_queries):
    with django_assert_num_queries(1):
        accuracy = selectors.rating_accuracy()
    fibs = accuracy["fibs"]
    cid = 1.0 / (10.0 ** (10.0 * math.sqrt(3) * math.sqrt(5) / 2000.0) + 1.0)
    assert cid == pytest.approx(0.488855, abs=1e-6)
    ann = 1500.0 + 10.0 * math.sqrt(3) - 4.97 * 4.0 * math.sqrt(5) * (1.0 - cid)
    assert ann == pytest.approx(1494.598541, abs=1e-6)
    last = 1.0 / (1.0 + 10.0 ** (-(ann - (1500.0 - 10.0 * math.sqrt(3))) * math.sqrt(5) / 2000.0))
    assert last == pytest.approx(0.507670, abs=1e-6)

    assert [row.label for row in fibs.by_length] == ["3 pt", "5 pt"]
    three, five = fibs.by_length
    assert (three.matches, three.log_loss, three.brier, three.predicted, three.won) == (
        1, pytest.approx(math.log(2.0), abs=1e-12), pytest.approx(0.25, abs=1e-12), 0.5, 1.0
    )
    assert five.matches == 2
    assert five.log_loss == pytest.approx((-math.log(cid) - math.log(last)) / 2.0, abs=1e-9)
    assert five.brier == pytest.approx(((1.0 - cid) ** 2 + (1.0 - last) ** 2) / 2.0, abs=1e-9)
    assert five.predicted == pytest.approx((1.0 - cid + last) / 2.0, abs=1e-9)
    assert five.won == 0.5
    assert fibs.overall.matches == 3
    assert fibs.overall.log_loss == pytest.approx((math.log(2.0) - math.log(cid) - math.log(last)) / 3.0, abs=1e-9)
    assert [(row.label, row.matches) for row in fibs.reliability] == [("50–60%", 3)]

    # The variance-adjusted forecasts with the default parameters (three players are all founders:
    # each starts at 1500 ± 150), both deviations counted.
    crawford = accuracy["crawford"]
    ann_2, ann_3 = 0.5106329450841048, 0.5076468373443379
    stored = [c.expected for c in selectors.rating_history(player_id=three_matches[0].pk, system="crawford")]
    assert stored == [0.5, pytest.approx(ann_2, abs=1e-12), pytest.approx(ann_3, abs=1e-12)]
    three, five = crawford.by_length
    assert three.log_loss == pytest.approx(math.log(2.0), abs=1e-12)
    assert five.log_loss == pytest.approx((-math.log(1.0 - ann_2) - math.log(ann_3)) / 2.0, abs=1e-9)
    assert crawford.overall.log_loss == pytest.approx((math.log(2.0) - math.log(1.0 - ann_2) - math.log(ann_3)) / 3.0, abs=1e-9)
    assert crawford.overall.log_loss - fibs.overall.log_loss == pytest.approx(-0.000334, abs=1e-6)


def test_the_formula_page_shows_both_systems_accuracy_per_length(client, three_matches, django_assert_num_queries):
    # drawn: the published ratings' versions, the parameters in force, the accuracy, the loss over time
    with django_assert_num_queries(4):
        html = client.get("/ratings/formula/").content.decode()
    assert "Which rating predicts this site" in html
    assert "3 matches" in html
    assert "<td class=\"num\">0.6931</td>" in html  # the even 3-point match, both systems
    assert "5 pt" in html and "All" in html and "50–60%" in html


def test_the_formula_page_says_when_there_is_nothing_to_score_yet(client, db, django_assert_num_queries):
    # the versions (none), the parameters in force, the accuracy (empty, so no loss over time)
    with django_assert_num_queries(3):
        html = client.get("/ratings/formula/").content.decode()
    assert "No rated matches yet" in html


def test_the_formula_page_says_how_the_defaults_do_on_real_clubs_against_fibs_and_hindsight(client, db):
    html = client.get("/ratings/formula/").content.decode()
    assert 'id="real-clubs"' in html and "bench/ratings_hindsight.py" in html
    assert "On these clubs the variance-adjusted rating forecasts better than FIBS" in html
    assert "<td class=\"num\">−0.0035 [−0.0064, −0.0007]</td>" in html  # the defaults, pooled online
    assert "<td class=\"num\">−0.0046 [−0.0078, −0.0014]</td>" in html  # the defaults, pooled frozen
    # newcomers explained with the parameters in force
    assert "Everyone who arrives after them starts 100 points lower, at 1400 ± 150" in html
    assert "<td class=\"num\">−0.0046 [−0.0105, +0.0015]</td>" in html  # hindsight, pooled online
