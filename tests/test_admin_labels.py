"""The admin's own words for the models of games, ratings and analysis are in the reader's language:
the models' names, their fields' labels and help, their choices and the admin's actions."""

import pytest
from django.contrib.auth import get_user_model

from analysis.models import PlayerAnalysis
from games.models import Game, Match, Player
from ratings.models import OfficialList, RatingRun

pytestmark = pytest.mark.django_db


@pytest.fixture
def site_admin(client):
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.org", "pw"))
    return client


def test_every_model_and_field_of_games_ratings_and_analysis_has_a_translatable_label():
    from django.apps import apps
    from django.utils.functional import Promise

    for label in ("games", "ratings", "analysis"):
        for model in apps.get_app_config(label).get_models():
            if model.__name__.startswith("Historical"):
                continue
            assert isinstance(model._meta.verbose_name, Promise), model
            assert isinstance(model._meta.verbose_name_plural, Promise), model
            for field in model._meta.local_fields + model._meta.local_many_to_many:
                if field.auto_created:
                    continue
                assert isinstance(field.verbose_name, Promise), (model, field.name)
                assert not field.help_text or isinstance(field.help_text, Promise), (model, field.name)


def test_the_labels_read_in_danish(settings):
    from django.utils import translation

    with translation.override("da"):
        assert str(Match._meta.verbose_name_plural) == "matcher"
        assert str(Player._meta.get_field("club").verbose_name) == "klub"
        assert str(Game._meta.get_field("cube_owner").verbose_name) == "doblingsterningens ejer"
        assert str(RatingRun._meta.verbose_name) == "ratingkørsel"
        assert str(OfficialList._meta.verbose_name_plural) == "officielle ratinglister"
        assert str(PlayerAnalysis._meta.get_field("luck").verbose_name) == "held"


def test_the_admin_speaks_danish_with_its_actions(site_admin, make_match):
    make_match()
    page = site_admin.get("/admin/games/match/", headers={"accept-language": "da"}).content.decode()
    assert "Slet det sidste spil i de valgte matcher (bevares i historikken)" in page
    index = site_admin.get("/admin/", headers={"accept-language": "da"}).content.decode()
    assert all(f">{name}</a>" in index for name in ("Matcher", "Spillere", "Ratingkørsler", "Officielle ratinglister"))


def test_the_ratings_records_name_themselves_in_the_readers_language():
    """The admin's lists and its history show a run, a pending change, a checkpoint and a start by
    these names: in Danish, with the numbers in Danish form."""
    from datetime import date

    from django.utils import translation

    from ratings.models import RatingCheckpoint, RatingPending, RatingStart

    with translation.override("da"):
        assert str(RatingRun(pk=7, system="crawford", status="done")) == "crawford-kørsel 7 (Færdig)"
        assert str(RatingPending(system="fibs", match_id=None)) == "fibs: alle matcher venter på rating"
        assert str(RatingCheckpoint(run_id=7, head=True, sequence=1)) == "kørsel 7: dens hoved, efter 1 match"
        assert str(RatingCheckpoint(run_id=7, sequence=1200)) == "kørsel 7: et checkpoint efter 1200 matcher"
        assert str(RatingStart(player_id=3, rating=1612.25, experience=400, as_of=date(2026, 3, 1))) == (
            "spiller 3: 1612,2 (400 point) pr. 1. marts 2026")
