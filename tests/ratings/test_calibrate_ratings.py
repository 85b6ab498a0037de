"""manage.py calibrate_ratings: a site's own parameters for the variance-adjusted rating."""

import math
import random
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command

from games import results
from games.permissions import RATING_OFFICER

from ratings import calibrated, calibration
from ratings.models import CalibrationStatus, RatingCalibration, RatingCheckpoint
from ratings.systems import CrawfordParameters

pytestmark = pytest.mark.django_db

FIRST_NIGHT = datetime(2024, 1, 6, 19, tzinfo=timezone.utc)


def club_night(rng: random.Random, skill: dict, week: int, before: int) -> list[results.ResultRow]:
    """One weekly night's 5-point matches: about half the players present, paired at random, each
    result drawn from the FIBS chance of their true strengths (`skill`); rows numbered after
    `before` earlier ones."""
    present = [p for p in skill if rng.random() < 0.5]
    rng.shuffle(present)
    rows = []
    for a, b in zip(present[::2], present[1::2]):
        p_a = 1.0 / (1.0 + 10.0 ** (-(skill[a] - skill[b]) * math.sqrt(5) / 2000.0))
        a_won = rng.random() < p_a
        number = before + len(rows)
        rows.append(results.ResultRow(number + 2, FIRST_NIGHT + timedelta(weeks=week), f"Player {a}",
                                      f"Player {b}", 5, 5 if a_won else 2, 2 if a_won else 5, f"sim:{number}"))
    return rows


def federation_rows(*, players: int, weeks: int, drift: float, seed: int = 3) -> list[results.ResultRow]:
    """A federation's 5-point matches on weekly nights: strengths spread by 150 rating points
    that drift by `drift` points a week (form comes and goes); about half the players each
    night, paired at random; each result drawn from the FIBS chance of the true strengths."""
    rng = random.Random(seed)
    skill = {p: rng.gauss(0.0, 150.0) for p in range(players)}
    rows = []
    for week in range(weeks):
        for p in skill:
            skill[p] += rng.gauss(0.0, drift)
        rows += club_night(rng, skill, week, len(rows))
    return rows


def test_a_federation_whose_form_drifts_gets_parameters_that_forecast_its_held_out_matches_better(
    staff, capsys, client, django_capture_on_commit_callbacks, django_assert_num_queries
):
    results.results_import(rows=federation_rows(players=80, weeks=80, drift=50.0))
    with django_capture_on_commit_callbacks(execute=True):
        call_command("calibrate_ratings", "--by", staff.username, "--yes")
    out = capsys.readouterr().out
    adopted = calibrated.calibration_in_force()
    assert adopted is not None and adopted.adopted_by == staff and adopted.matches == 1590
    assert f"Calibration {adopted.pk} adopted by td" in out
    fitted = calibrated.parameters_in_force()
    assert (fitted.length_constant, fitted.initial_deviation, fitted.newcomer_offset, fitted.newcomer_deviation,
            fitted.initial_volatility, fitted.match_growth) == (3.0, 300.0, -100.0, 150.0, 0.25, 1.0)
    # scored independently on the last 20%, which the fit never saw: better than the defaults in both modes
    history = calibrated.site_history()
    for mode in calibration.MODES:
        comparison = calibration.compare([calibration.Sample("site", history)],
                                         {"defaults": CrawfordParameters(), "fitted": fitted}, mode)
        mean, low, high = comparison.against("fitted", "defaults", np.random.default_rng(1), 1000)
        assert high < 0.0, (mode, mean, low, high)
    # adopting reran the history with them, and the formula page says which are in force, since when and why
    head = RatingCheckpoint.objects.filter(run__system="crawford", head=True).latest("pk")
    assert "initial_volatility=0.25" in head.system_key and "match_growth=1.0" in head.system_key
    # the published ratings' versions, the parameters in force, the accuracy, the loss over time
    with django_assert_num_queries(4):
        page = client.get("/ratings/formula/").content.decode()
    assert f"in force since {adopted.adopted_at:%-d %b %Y} (adopted by Rating officer)" in page
    assert "C 3, founders&#x27; RD 300, newcomers -100 with RD 150, σ 0.25" in page and "forecasts better than the parameters in force" in page


def club_with_weaker_newcomers(*, founders: int = 24, weeks: int = 70, seed: int = 5) -> list[results.ResultRow]:
    """A club's 5-point matches on weekly nights: `founders` members spread by 100 rating points
    from the first night; from the tenth week one or two newcomers a week join, 250 points weaker
    on average (beginners), and play on. About half the members each night, paired at random;
    each result drawn from the FIBS chance of the true strengths."""
    rng = random.Random(seed)
    skill = {p: rng.gauss(0.0, 100.0) for p in range(founders)}
    rows = []
    for week in range(weeks):
        if week >= 10:
            for _ in range(rng.choice((1, 2))):
                skill[len(skill)] = rng.gauss(-250.0, 100.0)
        rows += club_night(rng, skill, week, len(rows))
    return rows


def test_a_club_whose_newcomers_are_weaker_gets_them_started_further_below(staff):
    results.results_import(rows=club_with_weaker_newcomers())
    grid = {name: calibration.GRID[name] for name in ("newcomer_offset", "newcomer_deviation")}
    found = calibrated.rating_calibration_fit(by=staff, grid=grid)
    fitted = calibrated.parameters_from(found.parameters)
    # fitted on the first 80%: newcomers start 200 below the founders (the lowest choice), ±100
    assert (found.matches, fitted.newcomer_offset, fitted.newcomer_deviation) == (1084, -200.0, 100.0)
    assert "candidate: C 2, founders' RD 150, newcomers -200 with RD 100, σ 0.12" in found.report
    # the last 232 matches cannot tell it from the defaults' -100 ± 150 with confidence: they stay
    assert found.status == CalibrationStatus.NOT_BETTER
    assert found.reason.startswith("Fitted on the first 80% of 1084 rated matches; on the last 232 it does not beat")


def test_a_small_site_is_refused_with_the_reason_and_keeps_the_defaults(staff, capsys, client):
    results.results_import(rows=federation_rows(players=20, weeks=30, drift=25.0))
    call_command("calibrate_ratings", "--by", staff.username, "--yes")
    out = capsys.readouterr().out
    refused = RatingCalibration.objects.get()
    reason = ("This site has 141 rated matches; a fit needs at least 500 to tell parameters apart, "
              "so the parameters in force stay.")
    assert (refused.status, refused.reason) == (CalibrationStatus.REFUSED, reason)
    assert f"Calibration {refused.pk}: Refused: too little history. {reason}" in out
    assert calibrated.calibration_in_force() is None and calibrated.parameters_in_force() == CrawfordParameters()
    page = client.get("/ratings/formula/").content.decode()
    assert "The defaults: C 2, founders&#x27; RD 150, newcomers -100 with RD 150, σ 0.12" in page and reason in page


def test_only_a_rating_officer_adopts_and_only_a_winning_candidate(make_user):
    player = make_user("clubber")
    with pytest.raises(CommandError, match="clubber is neither a rating officer nor a site admin: only they adopt"):
        call_command("calibrate_ratings", "--by", "clubber")
    with pytest.raises(CommandError, match="clerk is neither a rating officer nor a site admin"):
        call_command("calibrate_ratings", "--by", make_user("clerk", is_staff=True).username)
    refused = RatingCalibration.objects.create(status=CalibrationStatus.REFUSED, matches=10, reason="few")
    staff_member = make_user("boss", is_staff=True)
    staff_member.groups.add(Group.objects.get(name=RATING_OFFICER))
    with pytest.raises(CommandError, match=f"calibration {refused.pk} is not a candidate to adopt"):
        call_command("calibrate_ratings", "--adopt", str(refused.pk), "--by", staff_member.username)
    with pytest.raises(CommandError, match="Adopting needs a staff member's confirmation: --by USERNAME."):
        call_command("calibrate_ratings", "--adopt", str(refused.pk))
    assert calibrated.calibration_in_force() is None and player.is_staff is False


def test_the_admin_shows_calibrations_without_changing_them(client, django_user_model):
    found = RatingCalibration.objects.create(status=CalibrationStatus.REFUSED, matches=141, reason="Too few.")
    client.force_login(django_user_model.objects.create_superuser("root", password="pw-root-12345"))
    listing = client.get("/admin/ratings/ratingcalibration/")
    assert listing.status_code == 200 and "Refused: too little history" in listing.content.decode()
    assert client.get("/admin/ratings/ratingcalibration/add/").status_code == 403
    assert client.get(f"/admin/ratings/ratingcalibration/{found.pk}/change/").status_code == 200
    assert client.post(f"/admin/ratings/ratingcalibration/{found.pk}/delete/", {"post": "yes"}).status_code == 403
    assert RatingCalibration.objects.filter(pk=found.pk).exists()


def test_a_long_history_is_fitted_on_its_latest_matches(staff, capsys, monkeypatch):
    results.results_import(rows=federation_rows(players=20, weeks=30, drift=25.0))
    monkeypatch.setattr(calibrated, "MIN_MATCHES", 100)
    monkeypatch.setattr(calibrated, "FIT_MATCHES", 120)
    call_command("calibrate_ratings")
    found = RatingCalibration.objects.get()
    assert found.matches == 120
    assert found.reason.startswith("Fitted on the first 80% of 120 rated matches (the latest of 141); on the last 27 it does not beat")


def test_the_monthly_fit_is_off_by_default_and_only_proposes(settings, make_player, finish):
    assert "ratings-calibrate" not in settings.CELERY_BEAT_SCHEDULE
    finish(make_player(name="Ann"), make_player(name="Bo"), 5)
    from ratings.tasks import ratings_calibrate

    found = RatingCalibration.objects.get(pk=ratings_calibrate())
    assert (found.status, found.matches, found.created_by) == (CalibrationStatus.REFUSED, 1, None)


def test_switched_on_the_fit_is_sent_on_the_first_of_every_month():
    import os
    import subprocess
    import sys

    code = ("import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'; django.setup(); "
            "from django.conf import settings; entry = settings.CELERY_BEAT_SCHEDULE['ratings-calibrate']; "
            "s = entry['schedule']; print(entry['task'], sorted(s.day_of_month), sorted(s.hour), sorted(s.minute))")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "DEBUG": "1", "RATINGS_CALIBRATE_MONTHLY": "1"}).stdout
    assert shown.strip() == "ratings.calibrate [1] [3] [0]"
