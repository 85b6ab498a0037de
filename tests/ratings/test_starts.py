"""A federation brings its list: players' starts from another rating list (`import_ratings`)."""

import math
from datetime import date

import pytest
from django.core.management import CommandError, call_command

from games.models import Player
from ratings import services
from ratings.models import Rating, RatingChange, RatingStart, RatingSystemState
from ratings.systems import get_system

pytestmark = pytest.mark.django_db

LIST = """player,federation_id,rating,experience,as_of
Anna Holm,DK-17,1720.5,2400,2026-06-30
Bo Lind,DK-22,1450,0,2026-06-30
"""


def published(system):
    run_id = RatingSystemState.objects.get(system=system).published_run_id
    return {row[0]: row[1:] for row in Rating.objects.filter(run_id=run_id).values_list(
        "player__name", "rating", "deviation", "experience", "matches")}


def test_a_list_gives_its_players_their_starts_and_the_same_file_again_changes_nothing(tmp_path, capsys, no_enqueue):
    bo = Player.objects.create(name="Bo Lind")
    path = tmp_path / "dbgf-2026-06.csv"
    path.write_text(LIST, encoding="utf-8")
    call_command("import_ratings", str(path))
    assert capsys.readouterr().out == ("dbgf-2026-06.csv: gave 2 players a start, changed 0, left 0 as they were; 1 players"
                                       " were new to this site. The ratings are being rated again from the starts.\n")
    anna = Player.objects.get(name="Anna Holm")
    assert anna.federation_id == "DK-17" and RatingStart.objects.get(player=bo).rating == 1450.0
    assert {(s.player.name, s.rating, s.experience, s.as_of, s.source) for s in RatingStart.objects.select_related("player")} == {
        ("Anna Holm", 1720.5, 2400, date(2026, 6, 30), "dbgf-2026-06.csv"),
        ("Bo Lind", 1450.0, 0, date(2026, 6, 30), "dbgf-2026-06.csv")}
    runs = len(no_enqueue)
    call_command("import_ratings", str(path))
    assert "gave 0 players a start, changed 0, left 2 as they were; 0 players were new" in capsys.readouterr().out
    assert len(no_enqueue) == runs and Player.objects.count() == 2  # nothing to rate again, nobody made twice


def test_a_bad_row_names_its_line_and_stores_nothing(tmp_path):
    path = tmp_path / "list.csv"
    path.write_text(LIST + "Cid Berg,,17OO,300,2026-06-30\nDag Ek,,1500,-3,2026-13-01\nAnna Holm,DK-17,1600,10,2026-06-30\n",
                    encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        call_command("import_ratings", str(path))
    assert str(refused.value).splitlines() == [
        "line 4: rating '17OO' is not a rating between 0 and 4000",
        "line 5: experience '-3' is not a whole number of points; as_of '2026-13-01' is not a date (YYYY-MM-DD)",
        "line 6: the same player as line 2",
    ]
    assert not RatingStart.objects.exists() and not Player.objects.exists()


def test_a_recompute_starts_the_listed_players_from_the_list(make_player, finish, no_enqueue, tmp_path):
    anna, bo, cid = make_player(name="Anna Holm"), make_player(name="Bo Lind"), make_player(name="Cid Berg")
    finish(anna, bo, length=5, winner="a", day=0)
    finish(cid, anna, length=3, winner="b", day=1)
    path = tmp_path / "list.csv"
    path.write_text(LIST, encoding="utf-8")
    call_command("import_ratings", str(path))
    for system in ("fibs", "crawford"):
        services.rating_recompute_now(system=system)
    fibs, crawford = published("fibs"), published("crawford")
    # FIBS: Anna starts at 1720.5 with 2,400 points (factor 1), Bo at 1450 as a newcomer (factor 5)
    chance_bo = 1.0 / (1.0 + 10.0 ** ((1720.5 - 1450.0) * math.sqrt(5) / 2000.0))
    assert fibs["Bo Lind"][0] == pytest.approx(1450.0 - 5 * 4 * math.sqrt(5) * chance_bo, abs=1e-9)
    assert fibs["Anna Holm"][2] == 2400 + 5 + 3 and fibs["Cid Berg"][2] == 3
    # crawford: Anna's first match starts at 1720.5 with the deviation of 2,400 points, grown from 30 June
    expected = get_system("crawford").imported("anna", 1720.5, 2400, date(2026, 6, 30))
    assert expected.deviation == pytest.approx(150.0 / 3.0, abs=1e-9)  # 150/√(1 + 2400/300) = 50, the floor
    run_id = RatingSystemState.objects.get(system="crawford").published_run_id
    anna_first = RatingChange.objects.filter(run_id=run_id, player=anna).order_by("played_on").first()
    assert anna_first.rating_before == 1720.5 and anna_first.deviation_before > 50.0  # grown since 30 June
    assert crawford["Cid Berg"][0] < 1500.0  # lost to the strong Anna, from a founder's 1500
    # a full recompute keeps them; a changed start reruns every rating
    services.rating_recompute_now(system="fibs")
    assert published("fibs") == fibs


def test_the_api_takes_a_list_from_a_rating_officer_only(api, make_user, no_enqueue):
    from django.contrib.auth.models import Group

    from games.permissions import RATING_OFFICER

    officer = make_user("officer", is_staff=True)
    officer.groups.add(Group.objects.get(name=RATING_OFFICER))
    api.force_authenticate(make_user("player"))
    assert api.post("/api/v1/ratings/starts/", {"csv": LIST}, format="json").status_code == 403
    response = api.post("/api/v1/ratings/starts/", {"csv": LIST}, format="json")
    assert response.status_code in (401, 403)
    api.force_authenticate(officer)
    bad = api.post("/api/v1/ratings/starts/", {"csv": "player,rating,experience,as_of\nAnna,abc,1,2026-01-01\n"},
                   format="json")
    assert bad.status_code == 400 and bad.json() == {"file": ["line 2: rating 'abc' is not a rating between 0 and 4000"]}
    checked = api.post("/api/v1/ratings/starts/", {"csv": LIST, "check": True}, format="json")
    assert checked.json() == {"created": 2, "changed": 0, "unchanged": 0, "players_created": 2, "recompute": False,
                              "checked_only": True}
    assert not RatingStart.objects.exists() and not Player.objects.exists()
    done = api.post("/api/v1/ratings/starts/", {"csv": LIST}, format="json")
    assert done.status_code == 200 and done.json()["created"] == 2 and RatingStart.objects.count() == 2
    changed = api.post("/api/v1/ratings/starts/", {"csv": LIST.replace("1720.5", "1730")}, format="json").json()
    assert (changed["changed"], changed["unchanged"], changed["recompute"]) == (1, 1, True)


def test_a_listed_players_first_result_at_the_end_is_rated_from_his_start_as_a_full_recompute_would(
        make_player, finish, no_enqueue, tmp_path, django_capture_on_commit_callbacks, monkeypatch):
    from ratings.systems import params

    monkeypatch.setattr(params, "ESTABLISHED_PLAYERS", 2)  # crawford's founders: Bo and Cid
    monkeypatch.setattr(params, "ESTABLISHED_MATCHES", 1)
    anna, bo, cid = make_player(name="Anna Holm"), make_player(name="Bo Lind"), make_player(name="Cid Berg")
    finish(bo, cid, length=5, winner="a", day=0)
    path = tmp_path / "list.csv"
    path.write_text(LIST, encoding="utf-8")
    call_command("import_ratings", str(path))
    for system in ("fibs", "crawford"):
        services.rating_recompute_now(system=system)
    runs = {system: RatingSystemState.objects.get(system=system).published_run_id for system in ("fibs", "crawford")}
    with django_capture_on_commit_callbacks(execute=True):
        finish(anna, cid, length=7, winner="a", day=5)  # Anna's first match here
    services.rating_recompute_owed()
    incremental = {system: published(system) for system in ("fibs", "crawford")}
    for system in ("fibs", "crawford"):
        assert RatingSystemState.objects.get(system=system).published_run_id == runs[system]  # not rerun in full
        services.rating_recompute_now(system=system)
        assert published(system) == {name: tuple(pytest.approx(v, abs=1e-9) if isinstance(v, float) else v
                                                 for v in row) for name, row in incremental[system].items()}
    assert incremental["fibs"]["Anna Holm"][2] == 2400 + 7
