"""Why an analysis failed is kept as Crawford's marked message and its values, and shown in each
reader's language; an analysis that failed before keeps the words it was stored with."""

import pytest
from django.utils import translation

from analysis import gnubg, services
from analysis.models import AnalysisStatus, MatchAnalysis
from games.engine.errors import gettext_noop

pytestmark = pytest.mark.django_db


def _failed_with(match, monkeypatch, error: gnubg.AnalysisError) -> MatchAnalysis:
    """The analysis of `match`, failed because GNU Backgammon answered `error` for its file."""
    MatchAnalysis.objects.create(match=match)
    monkeypatch.setattr(services, "analysis_program", lambda: "/usr/games/gnubg")
    monkeypatch.setattr(gnubg, "analyse_files", lambda files, **options: {match.pk: error})
    return services.analysis_run(match_id=match.pk)


def test_the_error_of_an_analysis_is_stored_marked_and_read_in_each_reader_s_language(make_match, monkeypatch):
    match = make_match()
    stopped = gnubg.AnalysisError(
        gettext_noop("GNU Backgammon stopped before this file (exit %(code)s): %(output)s"), code=139,
        output="Segmentation fault")
    analysis = _failed_with(match, monkeypatch, stopped)
    assert analysis.status == AnalysisStatus.FAILED
    assert analysis.error == "GNU Backgammon stopped before this file (exit 139): Segmentation fault"
    assert analysis.error_marked == {"message": "GNU Backgammon stopped before this file (exit %(code)s): %(output)s",
                                     "params": {"code": 139, "output": "Segmentation fault"}}
    with translation.override("da"):
        assert analysis.error_text == "GNU Backgammon stoppede før denne fil (afslutningskode 139): Segmentation fault"
    with translation.override("ja"):
        assert analysis.error_text == (
            "GNU Backgammon はこのファイルの前に止まりました（終了コード 139）：Segmentation fault")
    assert analysis.error_text == analysis.error


def test_the_api_and_the_match_page_show_the_error_in_the_language_of_the_request(make_match, monkeypatch, api,
                                                                                  client):
    match = make_match()
    with translation.override("da"):  # stored while the site spoke Danish: read in each reader's language all the same
        _failed_with(match, monkeypatch, gnubg.AnalysisError(gettext_noop("The match file is gone.")))
    url = f"/api/v1/matches/{match.pk}/analysis/"
    assert api.get(url, HTTP_ACCEPT_LANGUAGE="ja").json()["error"] == "マッチファイルがなくなっています。"
    assert api.get(url, HTTP_ACCEPT_LANGUAGE="da").json()["error"] == "Matchfilen findes ikke længere."
    assert api.get(url).json()["error"] == "The match file is gone."
    page = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="da").content.decode()
    assert "GNU Backgammon kunne ikke analysere denne match: Matchfilen findes ikke længere." in page


def test_an_analysis_that_failed_before_errors_were_marked_shows_the_words_it_was_stored_with(make_match, api):
    match = make_match()
    MatchAnalysis.objects.create(match=match, status=AnalysisStatus.FAILED,
                                 error="GNU Backgammon brugte mere end 30 s.")
    assert api.get(f"/api/v1/matches/{match.pk}/analysis/", HTTP_ACCEPT_LANGUAGE="ja").json()["error"] == (
        "GNU Backgammon brugte mere end 30 s.")
    with translation.override("ja"):
        assert MatchAnalysis.objects.get().error_text == "GNU Backgammon brugte mere end 30 s."
