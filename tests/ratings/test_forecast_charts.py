"""The formula page's pictures of trust: the reliability diagram (forecast chance of the
favourite against the share the favourite won, per tenth) and crawford's log loss minus FIBS's
over time, both from aggregate queries whatever the number of matches."""

import math
import re
from datetime import date

import pytest

from ratings import selectors, services

pytestmark = pytest.mark.django_db

# The fixture's forecasts, worked out in tests/ratings/test_accuracy.py.
CID = 1.0 / (10.0 ** (10.0 * math.sqrt(3) * math.sqrt(5) / 2000.0) + 1.0)
ANN = 1500.0 + 10.0 * math.sqrt(3) - 4.97 * 4.0 * math.sqrt(5) * (1.0 - CID)
LAST = 1.0 / (1.0 + 10.0 ** (-(ANN - (1500.0 - 10.0 * math.sqrt(3))) * math.sqrt(5) / 2000.0))
ANN_2, ANN_3 = 0.5106329450841048, 0.5076468373443379


@pytest.fixture
def three_matches(make_player, finish, no_enqueue):
    """Ann beats Bob over 3 points (day 0), Cid beats Ann over 5 (day 1), Ann beats Bob over 5 (day 2)."""
    ann, bob, cid = make_player(name="Ann"), make_player(name="Bob"), make_player(name="Cid")
    finish(ann, bob, length=3, winner="a", day=0)
    finish(cid, ann, length=5, winner="a", day=1)
    finish(ann, bob, length=5, winner="a", day=2)
    services.rating_recompute_now(system="fibs")
    services.rating_recompute_now(system="crawford")
    return ann, bob, cid


def test_a_short_history_is_shown_in_blocks_of_days_each_with_both_systems_log_loss(
    three_matches, django_assert_num_queries
):
    with django_assert_num_queries(1):
        monthly, periods = selectors.rating_loss_over_time()
    assert monthly is False  # three days of one month: a block per day, each with a third of the matches
    assert [(p.first, p.last, p.matches) for p in periods] == [
        (date(2025, 1, 1), date(2025, 1, 1), 1), (date(2025, 1, 2), date(2025, 1, 2), 1),
        (date(2025, 1, 3), date(2025, 1, 3), 1),
    ]
    assert [p.fibs for p in periods] == [
        pytest.approx(math.log(2.0), abs=1e-12), pytest.approx(-math.log(CID), abs=1e-9),
        pytest.approx(-math.log(LAST), abs=1e-9),
    ]
    assert [p.crawford for p in periods] == [
        pytest.approx(math.log(2.0), abs=1e-12), pytest.approx(-math.log(1.0 - ANN_2), abs=1e-9),
        pytest.approx(-math.log(ANN_3), abs=1e-9),
    ]
    assert [round(p.difference, 6) for p in periods] == [0.0, -0.001048, 0.000046]


def test_four_months_or_more_are_shown_month_by_month(make_player, finish, no_enqueue, django_assert_num_queries):
    ann, bob = make_player(name="Ann"), make_player(name="Bob")
    for day, winner in ((0, "a"), (40, "b"), (70, "a"), (100, "a"), (101, "b")):  # Jan, Feb, Mar, Apr, Apr
        finish(ann, bob, length=5, winner=winner, day=day)
    services.rating_recompute_now(system="fibs")
    services.rating_recompute_now(system="crawford")
    with django_assert_num_queries(1):
        monthly, periods = selectors.rating_loss_over_time()
    assert monthly is True
    assert [(p.first.month, p.matches) for p in periods] == [(1, 1), (2, 1), (3, 1), (4, 2)]

    def losses(system):  # −ln of the chance Ann's forecast gave to what happened, per match
        return [-math.log(c.expected if c.won else 1.0 - c.expected)
                for c in selectors.rating_history(player_id=ann.pk, system=system)]

    fibs, crawford = losses("fibs"), losses("crawford")
    assert fibs[0] == crawford[0] == pytest.approx(math.log(2.0), abs=1e-12)
    assert [p.fibs for p in periods] == [pytest.approx(v, abs=1e-9) for v in fibs[:3] + [(fibs[3] + fibs[4]) / 2]]
    assert [p.crawford for p in periods] == [
        pytest.approx(v, abs=1e-9) for v in crawford[:3] + [(crawford[3] + crawford[4]) / 2]
    ]
    assert periods[3].difference == pytest.approx((crawford[3] + crawford[4] - fibs[3] - fibs[4]) / 2, abs=1e-9)


def numbers(pattern: str, html: str) -> list[tuple[float, ...]]:
    return [tuple(float(v) for v in found) for found in re.findall(pattern, html)]


def test_the_formula_page_draws_the_reliability_diagram_and_the_loss_over_time(client, three_matches,
                                                                                django_assert_num_queries):
    # drawn: the published ratings' versions, the parameters in force, the accuracy, the loss over time
    with django_assert_num_queries(4):
        html = client.get("/ratings/formula/").content.decode()
    # Reliability: one tenth (50–60%) per system, three matches each. FIBS's favourites were given
    # 0.5, 1 − Cid's chance and LAST, and won two of the three; the plot runs from x 48 (50%) to
    # 342 (100%) and from y 284 (0%) up to 14 (100%).
    predicted = (0.5 + (1.0 - CID) + LAST) / 3.0
    assert numbers(r'<circle class="c-fibs" cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)">', html) == [
        (round(48 + (predicted - 0.5) / 0.5 * 294, 1), round(284 - 2 / 3 * 270, 1), 10.0)
    ]
    crawford_predicted = (0.5 + ANN_2 + ANN_3) / 3.0  # Ann was crawford's favourite in all three
    side = 18.0
    x = round(48 + (crawford_predicted - 0.5) / 0.5 * 294, 1)
    assert numbers(r'<rect class="c-crawford c-dot-crawford" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"', html) == [
        (round(x - side / 2, 1), round(round(284 - 2 / 3 * 270, 1) - side / 2, 1), side),
        (1.5, 1.5, 9.0),  # the legend's square
    ]
    assert "FIBS, 50–60%: 3 matches" in html and "Variance-adjusted, 50–60%: 3 matches" in html
    assert '<line class="c-perfect" x1="48.0" y1="149.0" x2="342.0" y2="14.0"/>' in html
    assert "<title id=\"reliability-title\">" in html and "<desc id=\"reliability-desc\">" in html
    # Over time: three one-day blocks; the first even (a bar of one unit on the zero line), the
    # second below zero (crawford better), the third above.
    bars = re.findall(r'<rect class="c-(fibs|crawford)" x="[\d.]+" y="[\d.]+" width="[\d.]+" height="[\d.]+"><title>([^<]*)</title>', html)
    assert bars == [
        ("crawford", "1 Jan 2025 – 1 Jan 2025: 0.0000 (1 match)"),
        ("crawford", "2 Jan 2025 – 2 Jan 2025: -0.0010 (1 match)"),
        ("fibs", "3 Jan 2025 – 3 Jan 2025: 0.0000 (1 match)")  # +0.000046: above zero, shown without a sign at four places,
    ]
    assert "From 1 Jan 2025 to 3 Jan 2025, in 3 periods: the variance-adjusted rating forecast better than FIBS in 1." in html
    assert '<td class="num">-0.0010</td>' in html  # the table that stands for the chart


def test_the_formula_page_runs_as_many_queries_with_more_matches(client, three_matches, finish,
                                                                 django_assert_num_queries):
    ann, bob, cid = three_matches
    for day in range(40, 160, 10):
        finish(bob, cid, length=3, winner="a" if day % 20 else "b", day=day)
    services.rating_recompute_now(system="fibs")
    services.rating_recompute_now(system="crawford")
    with django_assert_num_queries(4):
        html = client.get("/ratings/formula/").content.decode()
    assert "Each bar is one month" in html
    assert len(re.findall(r'<rect class="c-(?:fibs|crawford)" [^>]*><title>', html)) == 5  # Jan to May


def test_an_empty_site_gets_a_sentence_and_no_chart(client, db, django_assert_num_queries):
    with django_assert_num_queries(3):  # nothing scored: the loss over time is not asked for
        html = client.get("/ratings/formula/").content.decode()
    assert "No rated matches yet" in html
    assert 'class="chart"' not in html and "trust-chart" not in html


def test_the_charts_speak_the_readers_language(client, three_matches):
    html = client.get("/ratings/formula/", HTTP_ACCEPT_LANGUAGE="da").content.decode()
    assert "Slog forudsigelserne til?" in html
    assert "FIBS, 50–60%: 3 matcher" in html and "Varians-justeret, 50–60%: 3 matcher" in html
    assert "(1 match)</title>" in html
    html = client.get("/ratings/formula/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "各印は、本命に同じ10%刻みの勝率（50～60%、60～70%など）" in html  # the %% of the catalog shown as %


def page(client, **headers) -> str:
    """The formula page without its language menu's CSRF token (new on every page)."""
    html = client.get("/ratings/formula/", **headers).content.decode()
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)


def test_the_formula_page_is_kept_per_language_until_the_published_ratings_change(client, three_matches, finish,
                                                                                 django_assert_num_queries):
    with django_assert_num_queries(4):  # drawn: versions, parameters in force, accuracy, loss over time
        drawn = page(client)
    with django_assert_num_queries(2):  # kept: the published ratings' versions and the parameters in force
        kept = page(client)
    assert kept == drawn and "(3 matches; worked out again with every recompute)" in kept
    with django_assert_num_queries(4):  # another language is drawn in it
        danish = page(client, HTTP_ACCEPT_LANGUAGE="da")
    assert "Slog forudsigelserne til?" in danish and danish != drawn
    with django_assert_num_queries(2):
        assert page(client, HTTP_ACCEPT_LANGUAGE="da") == danish
    ann, bob, cid = three_matches
    finish(bob, cid, length=3, winner="a", day=3)
    services.rating_recompute_now(system="fibs")
    services.rating_recompute_now(system="crawford")
    with django_assert_num_queries(4):  # new published ratings: drawn again
        html = page(client)
    assert "(4 matches; worked out again with every recompute)" in html and "(3 matches;" not in html


def test_a_new_fit_of_the_parameters_draws_the_formula_page_again(client, three_matches):
    from ratings.models import CalibrationStatus, RatingCalibration

    assert "The latest fit on this site" not in page(client)
    RatingCalibration.objects.create(system="crawford", status=CalibrationStatus.REFUSED, matches=3,
                                     reason="Three matches cannot tell parameters apart.")
    html = page(client)
    assert "The latest fit on this site" in html and "Three matches cannot tell parameters apart." in html
    RatingCalibration.objects.update(reason="Still too few.")
    assert "Still too few." in page(client)
