"""The match page shows how the match moved each player's rating, in every system the site keeps."""

import pytest

from ratings.models import RatingChange

pytestmark = pytest.mark.django_db


def test_the_match_page_shows_each_players_rating_change_in_every_system(
    client, make_player, finish, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    ann, bo = make_player(name="Ann Change"), make_player(name="Bo Change")
    with django_capture_on_commit_callbacks(execute=True):
        match = finish(ann, bo, length=5, winner="a")
    fibs = RatingChange.objects.get(match_id=match.pk, player=ann, run__system="fibs")
    # 4·√5·(1 − ½), times 5 for a player without experience.
    assert round(fibs.rating_after - fibs.rating_before, 2) == 22.36
    crawford = {c.player_id: round(c.rating_after - c.rating_before, 1)
                for c in RatingChange.objects.filter(match_id=match.pk, run__system="crawford")}
    assert crawford[ann.pk] > 0 > crawford[bo.pk]
    page = client.get(f"/matches/{match.pk}/")
    shown = [(row["player"].name, [(label, round(c["delta"], 1)) for label, c in row["changes"]])
             for row in page.context["rows"]]
    assert shown == [("Ann Change", [("FIBS Elo", 22.4), ("Variance-adjusted (Glicko-2)", crawford[ann.pk])]),
                     ("Bo Change", [("FIBS Elo", -22.4), ("Variance-adjusted (Glicko-2)", crawford[bo.pk])])]
    html = page.content.decode()
    assert "Rating changes" in html and "+22.4" in html and "-22.4" in html


def test_an_unrated_match_shows_no_rating_changes(client, make_player, finish, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = finish(make_player(), make_player(), length=3, winner="b", rated=False)
    assert "Rating changes" not in client.get(f"/matches/{match.pk}/").content.decode()
