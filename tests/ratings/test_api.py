import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings import services
from ratings.models import RatingRun, RunStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(make_player, finish, no_enqueue):
    """Six players in two clubs; A beats everyone, then a run of each system is published."""
    a = make_player(name="Anna", country="DK", club="North")
    others = [
        make_player(name="Bo", country="DK", club="North"),
        make_player(name="Carl", country="SE", club="South"),
        make_player(name="Dina", country="SE", club="South"),
        make_player(name="Eli", country="NO", club="South"),
        make_player(name="Finn", country="NO", club="North"),
    ]
    for day, other in enumerate(others):
        finish(a, other, length=5, winner="a", day=day)
    finish(others[0], others[1], length=3, winner="a", day=9)
    for system in ("fibs", "crawford"):
        services.rating_recompute_now(system=system)
    return a, others


def test_the_rating_list_is_public_paginated_and_ordered_by_rating(api, league):
    response = api.get("/api/v1/ratings/?system=fibs")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 6
    rows = body["results"]
    assert rows[0]["name"] == "Anna" and rows[0]["country"] == "DK" and rows[0]["matches"] == 5
    assert [r["rating"] for r in rows] == sorted((r["rating"] for r in rows), reverse=True)
    assert rows[0]["deviation"] is None and rows[0]["provisional"] is True


def test_the_rating_list_filters_by_country_club_and_provisional(api, league):
    assert [r["name"] for r in api.get("/api/v1/ratings/?country=se").json()["results"]] == ["Dina", "Carl"]
    north = api.get("/api/v1/ratings/?club=North&system=crawford").json()["results"]
    assert {r["name"] for r in north} == {"Anna", "Bo", "Finn"} and north[0]["deviation"] is not None
    assert api.get("/api/v1/ratings/?provisional=false").json()["count"] == 0
    assert api.get("/api/v1/ratings/?provisional=true").json()["count"] == 6


def test_the_rating_list_needs_a_fixed_number_of_queries(api, league, make_player, finish):
    with CaptureQueriesContext(connection) as small:
        assert api.get("/api/v1/ratings/?system=crawford").status_code == 200
    a, others = league
    for n in range(20):
        finish(make_player(name=f"New {n}"), others[n % 5], length=3, day=20 + n)
    services.rating_recompute_now(system="crawford")
    with CaptureQueriesContext(connection) as large:
        assert api.get("/api/v1/ratings/?system=crawford").json()["count"] == 26
    assert len(small) == len(large) == 2  # count + page (published run and players joined in)


def test_an_unknown_system_is_a_400_naming_the_field(api, league):
    response = api.get("/api/v1/ratings/?system=elo")
    assert response.status_code == 400 and "system" in response.json()


def test_a_players_history_lists_his_matches_in_order(api, league):
    a, others = league
    response = api.get(f"/api/v1/ratings/history/{others[0].pk}/?system=fibs")
    assert response.status_code == 200
    rows = response.json()["results"]
    assert [(r["opponent_name"], r["won"], r["length"]) for r in rows] == [("Anna", False, 5), ("Carl", True, 3)]
    assert rows[0]["rating_after"] == pytest.approx(rows[0]["rating_before"] + rows[0]["delta"])
    assert rows[1]["rating_before"] == rows[0]["rating_after"]
    with CaptureQueriesContext(connection) as queries:
        api.get(f"/api/v1/ratings/history/{a.pk}/?system=crawford")
    assert len(queries) == 3  # player, count, page
    assert api.get("/api/v1/ratings/history/999999/").status_code == 404


def test_runs_show_the_latest_run_of_each_system_with_progress(api, league):
    rows = api.get("/api/v1/ratings/runs/").json()
    assert [(r["system"], r["status"], r["matches_done"], r["matches_total"], r["progress"]) for r in rows] == [
        ("crawford", "done", 6, 6, 1.0), ("fibs", "done", 6, 6, 1.0)
    ]


def test_only_staff_may_request_a_recompute(api, staff_api, league, django_capture_on_commit_callbacks, no_enqueue):
    assert api.post("/api/v1/ratings/recompute/", {"system": "fibs"}, format="json").status_code in (401, 403)
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_api.post("/api/v1/ratings/recompute/", {"system": "fibs"}, format="json")
    assert response.status_code == 202
    assert [r["status"] for r in response.json()] == ["queued"] and len(no_enqueue) == 1
    assert staff_api.post("/api/v1/ratings/recompute/", {"system": "nope"}, format="json").status_code == 400
    services.rating_run_process(run_id=no_enqueue[0])
    assert RatingRun.objects.get(pk=no_enqueue[0]).status == RunStatus.DONE


def test_predict_answers_each_players_chance_with_the_uncertainty(api, league):
    a, others = league
    fibs = api.get(f"/api/v1/ratings/predict/?a={a.pk}&b=Bo&length=7").json()
    assert fibs["p_a"] + fibs["p_b"] == pytest.approx(1.0) and fibs["p_a"] > 0.5
    assert fibs["a"]["name"] == "Anna" and fibs["p_a_low"] is None
    rating_a, rating_b = fibs["a"]["rating"], fibs["b"]["rating"]
    assert fibs["p_a"] == pytest.approx(1 / (1 + 10 ** ((rating_b - rating_a) * 7**0.5 / 2000)))
    crawford = api.get("/api/v1/ratings/predict/?a=anna&b=Bo&length=7&system=crawford").json()
    assert crawford["p_a_low"] < crawford["p_a"] < crawford["p_a_high"]
    assert crawford["difference_deviation"] > 0 and crawford["a"]["deviation"] > 0


def test_predict_refuses_unknown_players_bad_lengths_and_systems_by_field(api, league):
    response = api.get("/api/v1/ratings/predict/?a=Nobody&b=Bo&length=0&system=elo")
    assert response.status_code == 400
    assert set(response.json()) == {"a", "length", "system"}
    assert api.get("/api/v1/ratings/predict/?a=Bo&b=bo&length=3").json() == {"b": ["A player cannot play himself."]}


def test_the_predict_command_prints_chances_and_json(league, capsys):
    call_command("predict", "Anna", "Bo", "5", "--system", "crawford")
    out = capsys.readouterr().out
    assert "5-point match, crawford" in out and "95% interval for Anna" in out
    call_command("predict", "Anna", "Bo", "5", "--json")
    data = json.loads(capsys.readouterr().out)
    assert data["p_a"] + data["p_b"] == pytest.approx(1.0) and data["system"] == "fibs"
    with pytest.raises(CommandError, match="a: No player is called 'Zed'"):
        call_command("predict", "Zed", "Bo", "5")


def test_the_predict_command_forecasts_a_whole_round_as_json_lines(league, tmp_path, capsys):
    pairs = tmp_path / "round.csv"
    pairs.write_text("player_a,player_b,length\nAnna,Bo,5\nCarl,Dina,7\n", encoding="utf-8")
    call_command("predict", "--pairs", pairs, "--system", "crawford")
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(x["line"], x["a"]["name"], x["b"]["name"], x["length"]) for x in lines] == [
        (2, "Anna", "Bo", 5), (3, "Carl", "Dina", 7)
    ]
    assert all(0 < x["p_a"] < 1 and x["p_a"] + x["p_b"] == pytest.approx(1) for x in lines)


def test_rating_map_gives_published_ratings_and_the_start_for_unrated_players(league, make_player):
    from ratings import selectors

    a, others = league
    newcomer = make_player(name="Newcomer")
    ratings = selectors.rating_map([a.pk, newcomer.pk], system="fibs")
    assert ratings[newcomer.pk] == 1500.0 and ratings[a.pk] > 1500.0
    assert selectors.rating_map([a.pk], system="crawford")[a.pk] > 1500.0


def test_a_forecast_starts_a_player_without_results_as_the_runs_would(api, league, make_player, monkeypatch, staff):
    """The league's 6 players are its founders once 2 of them have 2 matches (here): a player
    without results is a newcomer, 100 below 1500 with the newcomer's deviation, as the next run
    would start him, and with the parameters this site adopted once it adopts them."""
    from ratings import calibrated
    from ratings.models import CalibrationStatus, RatingCalibration
    from ratings.systems import params

    monkeypatch.setattr(params, "ESTABLISHED_PLAYERS", 2)
    monkeypatch.setattr(params, "ESTABLISHED_MATCHES", 2)
    services.rating_recompute_now(system="crawford")
    make_player(name="Gus")
    gus = api.get("/api/v1/ratings/predict/?a=Gus&b=Bo&length=5&system=crawford").json()["a"]
    assert (gus["rating"], gus["deviation"], gus["provisional"]) == (1400.0, 150.0, True)
    assert api.get("/api/v1/ratings/predict/?a=Gus&b=Bo&length=5").json()["a"]["rating"] == 1500.0  # FIBS has none

    adopted = RatingCalibration.objects.create(
        system="crawford", status=CalibrationStatus.CANDIDATE, matches=600, reason="test",
        parameters={**calibrated.parameters_as_dict(calibrated.parameters_in_force()),
                    "newcomer_offset": -200.0, "newcomer_deviation": 100.0, "initial_deviation": 300.0})
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(services, "rating_recompute_request", lambda **kwargs: None)
        calibrated.rating_calibration_adopt(calibration_id=adopted.pk, by=staff)
    services.rating_recompute_now(system="crawford")
    forecast = api.get("/api/v1/ratings/predict/?a=Gus&b=Bo&length=5&system=crawford").json()
    assert (forecast["a"]["rating"], forecast["a"]["deviation"]) == (1300.0, 100.0)


# -- forecasts as of a date -------------------------------------------------------------------------


def test_a_forecast_as_of_a_date_equals_the_one_published_on_that_date(make_player, finish, no_enqueue, api):
    from datetime import date, timedelta

    from ratings import selectors
    from ratings.services.lists import end_of_day

    anna, bo, carl = (make_player(name=name) for name in ("Anna", "Bo", "Carl"))
    finish(anna, bo, length=5, winner="a", day=0)
    finish(bo, carl, length=7, winner="a", day=1)
    for system in ("fibs", "crawford"):
        services.rating_recompute_now(system=system)
    then = {system: selectors.match_forecast(player_a="Anna", player_b="Bo", length=7, system=system,
                                             on=end_of_day(date(2025, 1, 2))) for system in ("fibs", "crawford")}
    finish(bo, anna, length=9, winner="a", day=2)  # 3 Jan: after the date
    finish(carl, anna, length=9, winner="a", day=3)
    for system in ("fibs", "crawford"):
        services.rating_recompute_now(system=system)
    fibs = api.get("/api/v1/ratings/predict/?a=Anna&b=Bo&length=7&as_of=2025-01-02").json()
    assert fibs == dict(then["fibs"].as_dict(), as_of="2025-01-02")
    assert (fibs["a"]["rating"], fibs["b"]["rating"]) == (then["fibs"].rating_a.rating, then["fibs"].rating_b.rating)
    assert api.get("/api/v1/ratings/predict/?a=Anna&b=Bo&length=7").json()["p_a"] < fibs["p_a"]
    crawford = api.get("/api/v1/ratings/predict/?a=Anna&b=Bo&length=7&system=crawford&as_of=2025-01-02").json()
    assert (crawford["a"]["rating"], crawford["b"]["rating"]) == (then["crawford"].rating_a.rating,
                                                                  then["crawford"].rating_b.rating)
    # Deviations are grown to the end of the day with the volatility published now (the changes do
    # not keep it): the same to a thousandth of a point after half a day.
    assert crawford["a"]["deviation"] == pytest.approx(then["crawford"].rating_a.deviation, abs=1e-3)
    assert crawford["p_a"] == pytest.approx(then["crawford"].prediction.p_a, abs=1e-6)
    nobody_yet = api.get("/api/v1/ratings/predict/?a=Carl&b=Anna&length=3&as_of=2025-01-01").json()
    assert (nobody_yet["a"]["rating"], nobody_yet["a"]["provisional"], nobody_yet["p_a"] < 0.5) == (1500.0, True, True)


def test_a_forecast_as_of_a_date_after_today_or_not_a_date_is_refused_by_field(api, league):
    from datetime import timedelta

    from django.utils import timezone

    tomorrow = timezone.localdate() + timedelta(days=1)
    future = api.get(f"/api/v1/ratings/predict/?a=Anna&b=Bo&length=7&as_of={tomorrow.isoformat()}")
    assert (future.status_code, future.json()) == (400, {"as_of": [
        f"{tomorrow:%d %b %Y} is after today: a forecast as of a date uses the results played by then."]})
    bad = api.get("/api/v1/ratings/predict/?a=Anna&b=Bo&length=7&as_of=31.12.2025")
    assert (bad.status_code, bad.json()) == (400, {"as_of": ["Give the date as YYYY-MM-DD."]})


def test_the_predict_command_and_the_chances_page_forecast_as_of_a_date(league, capsys, client):
    call_command("predict", "Anna", "Bo", "5", "--as-of", "2025-01-01")
    out = capsys.readouterr().out
    assert out == ("5-point match, fibs, ratings as of 01 Jan 2025:\n  Anna 1522.4 (provisional): 52.9%\n"
                   "  Bo 1477.6 (provisional): 47.1%\n")  # Anna's win of 1 Jan only: 1500 ± 4·√5·½·5
    call_command("predict", "Anna", "Bo", "5", "--as-of", "2025-01-01", "--json")
    assert json.loads(capsys.readouterr().out)["as_of"] == "2025-01-01"
    with pytest.raises(CommandError, match="^as_of: Give the date as YYYY-MM-DD.$"):
        call_command("predict", "Anna", "Bo", "5", "--as-of", "soon")
    page = client.get("/ratings/chances/", {"player_a": "Anna", "player_b": "Bo", "length": 5, "system": "fibs",
                                            "as_of": "2025-01-01"}).content.decode()
    assert "The ratings at the end of 1 Jan 2025: results played later do not count." in page
