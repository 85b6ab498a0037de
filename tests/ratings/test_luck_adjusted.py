"""skill, crawford luck-adjusted: analysed matches rated by their luck-adjusted result."""

import math

import pytest
from django.core.exceptions import ValidationError

import analysis.services as analysis_services
from analysis import gnubg
from analysis.models import AnalysisStatus, MatchAnalysis, PlayerAnalysis
from ratings import selectors, services
from ratings.models import RatingRun, RatingSystemState
from ratings.systems import MatchRecord, SkillRating, get_system

pytestmark = pytest.mark.django_db

FIGURES = dict(
    total_moves=40, unforced_moves=35, doubtful=1, bad=0, very_bad=0, chequer_error=0.2, close_cube_decisions=3,
    total_cube_decisions=5, doubles=1, takes=1, passes=0, cube_error=0.05, luck=0.3, error_based_fibs_rating=1900.0,
)


@pytest.fixture
def skill_on(settings):
    settings.RATINGS_LUCK_ADJUSTED = True
    return settings


def analysed(match, luck_adjusted_a):
    """Store an analysis of `match` where player A's luck-adjusted result is `luck_adjusted_a`."""
    analysis = MatchAnalysis.objects.create(match=match, status=AnalysisStatus.DONE, games_revision=match.games_revision)
    for side, player, lar in ((0, match.player_a, luck_adjusted_a), (1, match.player_b, -luck_adjusted_a)):
        PlayerAnalysis.objects.create(
            analysis=analysis, side=side, player=player, chequer_error_rate=5.7, cube_error_rate=16.7,
            error_rate=6.3, snowie_error_rate=3.1, pr=3.1, luck_rate=7.5, actual_result=0.5 if side == 0 else -0.5,
            luck_adjusted_result=lar, **FIGURES,
        )
    return analysis


def test_an_analysed_match_gives_the_engine_one_half_plus_its_luck_adjusted_result(
    make_player, finish, no_enqueue, skill_on, django_assert_num_queries
):
    ann, bob, cat = make_player(name="Ann"), make_player(name="Bob"), make_player(name="Cat")
    lucky = finish(ann, bob, length=5, winner="a", day=0)
    later = finish(bob, cat, length=3, winner="a", day=1)
    analysed(lucky, -0.125)  # Ann won the match but played worse than Bob: 0.375 of it was hers
    with django_assert_num_queries(1):
        history = services.rated_history()
    assert history.a_score[0] == 0.375 and math.isnan(history.a_score[1])
    assert history.a_won.tolist() == [True, True]

    run = services.rating_recompute_now(system="skill")
    assert run.system == "skill"
    expected = SkillRating().run([
        MatchRecord(lucky.pk, lucky.played_on, ann.pk, bob.pk, 5, "a", 0.375),
        MatchRecord(later.pk, later.played_on, bob.pk, cat.pk, 3, "a", None),
    ])
    stored = {r.player_id: r for r in selectors.rating_list(system="skill")}
    for player, rating in expected.ratings.items():
        assert stored[player].rating == pytest.approx(rating.rating, abs=1e-9)
        assert stored[player].deviation == pytest.approx(rating.deviation, abs=1e-9)
    # Ann won yet lost rating to Bob: she played 0.375 of the match, less than the even 0.5
    assert stored[ann.pk].rating < 1500 < stored[bob.pk].rating
    # crawford rates the same match by its winner
    services.rating_recompute_now(system="crawford")
    crawford = {r.player_id: r.rating for r in selectors.rating_list(system="crawford")}
    assert crawford[ann.pk] > 1500
    # the change still records who won
    change = selectors.rating_history(player_id=ann.pk, system="skill").get()
    assert change.won


def test_without_analysed_matches_skill_rates_exactly_as_crawford(make_player, finish, no_enqueue, skill_on):
    players = [make_player(name=name) for name in ("Ann", "Bob", "Cat", "Dan")]
    for day in range(12):
        finish(players[day % 4], players[(day + 1 + day // 4) % 4], length=(1, 3, 5, 7)[day % 4],
               winner="ab"[day % 3 == 0], day=day)
    services.rating_recompute_now(system="crawford")
    services.rating_recompute_now(system="skill")
    crawford = [(r.player_id, r.rating, r.deviation, r.volatility) for r in selectors.rating_list(system="crawford")]
    skill = [(r.player_id, r.rating, r.deviation, r.volatility) for r in selectors.rating_list(system="skill")]
    assert skill == crawford


def test_a_finished_analysis_requests_a_recompute_of_skill(
    make_player, finish, no_enqueue, skill_on, monkeypatch, django_capture_on_commit_callbacks
):
    ann, bob = make_player(name="Ann"), make_player(name="Bob")
    with django_capture_on_commit_callbacks(execute=True):
        match = finish(ann, bob, length=5, winner="a")
    RatingRun.objects.all().delete()
    RatingSystemState.objects.update(queued_at=None)
    no_enqueue.clear()
    MatchAnalysis.objects.create(match=match, status=AnalysisStatus.QUEUED)
    side = gnubg.SideFigures(actual_result=0.5, luck_adjusted_result=0.25, **FIGURES)
    other = gnubg.SideFigures(actual_result=-0.5, luck_adjusted_result=-0.25, **FIGURES)
    result = gnubg.MatchAnalysisResult(names=("Ann", "Bob"), plies=0, sides=(side, other))
    monkeypatch.setattr(analysis_services, "analysis_program", lambda: "/usr/games/gnubg")
    monkeypatch.setattr(analysis_services.gnubg, "analyse_files", lambda files, **options: {match.pk: result})
    with django_capture_on_commit_callbacks(execute=True):
        stored = analysis_services.analysis_run(match_id=match.pk)
    assert stored.status == AnalysisStatus.DONE
    assert list(RatingRun.objects.values_list("system", "status")) == [("skill", "queued")]
    assert len(no_enqueue) == 1
    assert services.rated_history().a_score.tolist() == [0.75]


def test_a_finished_analysis_requests_nothing_while_skill_is_off(
    make_player, finish, no_enqueue, monkeypatch, django_capture_on_commit_callbacks
):
    match = finish(make_player(name="Ann"), make_player(name="Bob"), length=5, winner="a")
    RatingRun.objects.all().delete()
    MatchAnalysis.objects.create(match=match, status=AnalysisStatus.QUEUED)
    side = gnubg.SideFigures(actual_result=0.5, luck_adjusted_result=0.25, **FIGURES)
    other = gnubg.SideFigures(actual_result=-0.5, luck_adjusted_result=-0.25, **FIGURES)
    result = gnubg.MatchAnalysisResult(names=("Ann", "Bob"), plies=0, sides=(side, other))
    monkeypatch.setattr(analysis_services, "analysis_program", lambda: "/usr/games/gnubg")
    monkeypatch.setattr(analysis_services.gnubg, "analyse_files", lambda files, **options: {match.pk: result})
    with django_capture_on_commit_callbacks(execute=True):
        analysis_services.analysis_run(match_id=match.pk)
    assert not RatingRun.objects.exists()


def test_skill_is_a_system_of_its_own_only_where_enabled(settings):
    settings.RATINGS_LUCK_ADJUSTED = False
    assert services.system_names() == ["fibs", "crawford"]
    with pytest.raises(ValidationError) as refused:
        services.system_names("skill")
    assert refused.value.message_dict == {"system": ["the rating system 'skill' is not enabled on this site"]}
    settings.RATINGS_LUCK_ADJUSTED = True
    assert services.system_names() == ["fibs", "crawford", "skill"]
    assert services.system_labels()["skill"] == "Crawford, luck-adjusted"
    assert get_system("skill").name == "skill"


def test_a_request_for_every_system_includes_skill_where_enabled(no_enqueue, skill_on):
    assert [run.system for run in services.rating_recompute_request()] == ["fibs", "crawford", "skill"]


def test_the_rating_list_page_and_api_show_skill_where_enabled(make_player, finish, no_enqueue, client, api, settings):
    finish(make_player(name="Ann"), make_player(name="Bob"), length=5, winner="a")
    settings.RATINGS_LUCK_ADJUSTED = False
    assert "luck-adjusted" not in client.get("/ratings/").content.decode()
    assert api.get("/api/v1/ratings/", {"system": "skill"}).status_code == 400
    settings.RATINGS_LUCK_ADJUSTED = True
    services.rating_recompute_now(system="skill")
    page = client.get("/ratings/", {"system": "skill"}).content.decode()
    assert "Crawford, luck-adjusted" in page and "Ann" in page
    listed = api.get("/api/v1/ratings/", {"system": "skill"})
    assert listed.status_code == 200
    body = listed.json()
    rows = body["results"] if isinstance(body, dict) else body
    assert [row["name"] for row in rows] == ["Ann", "Bob"] and {row["system"] for row in rows} == {"skill"}


def test_the_formula_page_explains_the_luck_adjusted_variant_and_its_measurement(client, settings):
    settings.RATINGS_LUCK_ADJUSTED = False
    page = client.get("/ratings/formula/").content.decode()
    assert 'id="luck-adjusted"' in page and "0.5 + luck-adjusted result" in page
    assert "not the default" in page and "bench/ratings_luck.py" in page
    assert "switched on on this site" not in page
    settings.RATINGS_LUCK_ADJUSTED = True
    assert "switched on on this site" in client.get("/ratings/formula/").content.decode()
