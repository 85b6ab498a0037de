from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games import results
from games.models import Match, MatchStatus, Player
from ratings import selectors, services
from config.shared_data import SHARED_DATA

pytestmark = pytest.mark.django_db

LEAGUE = SHARED_DATA / "league.csv"

GOOD = """played_on,player_a,player_b,length,score_a,score_b,event
2025-02-01,Anna,Bo,5,5,3,Club night
2025-02-01,Bo,Carl,7,2,7,Club night
2025-02-08,Carl,Anna,3,4,1,Club night
"""


def write(tmp_path, text, name="results.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_good_file_is_stored_as_finished_matches_with_new_players(tmp_path, capsys):
    call_command("import_results", write(tmp_path, GOOD))
    assert "imported 3 matches, 0 already there, 3 new players" in capsys.readouterr().out
    matches = list(Match.objects.order_by("played_on", "id").select_related("winner"))
    assert [(m.score_a, m.score_b, m.winner.name, m.status) for m in matches] == [
        (5, 3, "Anna", MatchStatus.FINISHED), (2, 7, "Carl", MatchStatus.FINISHED), (4, 1, "Carl", MatchStatus.FINISHED),
    ]
    assert all(m.source == "csv" and m.source_key.startswith("csv:") and m.rated for m in matches)
    assert not any(m.games.exists() for m in matches)
    assert len(services.rated_history()) == 3


def test_importing_the_same_file_again_adds_nothing(tmp_path, capsys):
    path = write(tmp_path, GOOD)
    call_command("import_results", path)
    call_command("import_results", path)
    assert "imported 0 matches, 3 already there, 0 new players" in capsys.readouterr().out
    assert Match.objects.count() == 3 and Player.objects.count() == 3


def test_the_same_file_imported_under_another_time_zone_adds_nothing(tmp_path, capsys, settings):
    text = GOOD + "2025-02-08T21:30:00+01:00,Anna,Bo,5,5,0,Club night\n"
    settings.TIME_ZONE = "Europe/Copenhagen"
    call_command("import_results", write(tmp_path, text))
    settings.TIME_ZONE = "America/New_York"
    call_command("import_results", write(tmp_path, text))
    assert "imported 0 matches, 4 already there" in capsys.readouterr().out.splitlines()[-1]
    assert Match.objects.count() == 4


def test_rows_imported_under_the_earlier_time_zone_bound_key_are_still_recognised(tmp_path, capsys, settings):
    settings.TIME_ZONE = "Europe/Copenhagen"
    rows = results.results_file_read(text=GOOD)
    results.results_import(rows=rows)
    for row in rows:  # as an earlier version stored them
        Match.objects.filter(source_key=row.source_key).update(source_key=row.legacy_keys[1])
    call_command("import_results", write(tmp_path, GOOD))
    assert "imported 0 matches, 3 already there" in capsys.readouterr().out
    assert Match.objects.count() == 3


def test_source_ids_are_the_identity_of_a_row(tmp_path):
    text = "played_on,player_a,player_b,length,score_a,score_b,source_id\n2025-01-01,A,B,1,1,0,x1\n2025-01-01,A,B,1,1,0,x2\n"
    call_command("import_results", write(tmp_path, text))
    call_command("import_results", write(tmp_path, text.replace(",x2", ",x2") + "2025-01-02,A,B,1,0,1,x3\n"))
    assert sorted(Match.objects.values_list("source_key", flat=True)) == ["csv:x1", "csv:x2", "csv:x3"]


def test_bad_rows_are_reported_by_line_and_nothing_is_stored(tmp_path):
    bad = (
        "played_on,player_a,player_b,length,score_a,score_b\n"
        "2025-02-01,Anna,Bo,5,5,3\n"      # 2 fine
        "2025-02-01,Bo,Carl,7,7,7\n"      # 3 equal scores
        "2025-02-30,Carl,Anna,3,3,1\n"    # 4 bad date
        "2025-03-01,Dan,Eve,0,1,0\n"      # 5 length below 1
        "2025-03-01,Dan,dan,3,3,0\n"      # 6 same player twice
        "2025-03-01,Dan,Eve,5,4,2\n"      # 7 winner below the length
        "2025-03-01,Dan,Eve,x,4,2\n"      # 8 not a number
    )
    with pytest.raises(CommandError) as raised:
        call_command("import_results", write(tmp_path, bad))
    message = str(raised.value)
    assert "nothing imported" in message
    for line, words in [(3, "equal scores"), (4, "played_on must be a date"), (5, "length must be between 1"),
                        (6, "Dan cannot play himself"), (7, "the winner's score 4 is below the length 5"), (8, "length must be a whole number")]:
        assert f"line {line}: {words}" in message
    assert "line 2:" not in message
    assert Match.objects.count() == 0 and Player.objects.count() == 0


def test_a_final_score_no_match_can_end_on_is_refused_by_line_and_nothing_is_stored(tmp_path):
    text = (
        "played_on,player_a,player_b,length,score_a,score_b\n"
        "2025-02-01,Anna,Bo,5,7,3\n"
        "2025-02-01,Anna,Bo,5,55,3\n"
    )
    with pytest.raises(CommandError) as raised:
        call_command("import_results", write(tmp_path, text))
    assert (
        "line 3: 55–3 is not a possible final score: in a 5-point match where the loser has 3, the winner ends on"
        " 5 to 20, 24 to 28, 32 to 36, 48 to 52, 64 to 68, …"
    ) in str(raised.value)
    assert "line 2:" not in str(raised.value)
    assert Match.objects.count() == 0 and Player.objects.count() == 0


def test_a_file_without_the_needed_columns_is_refused(tmp_path):
    with pytest.raises(CommandError, match="line 1: the header lacks score_a, score_b"):
        call_command("import_results", write(tmp_path, "played_on,player_a,player_b,length\n2025-01-01,A,B,3\n"))


def test_a_row_the_database_refuses_rolls_back_the_whole_file(tmp_path, make_player):
    make_player(name="Twin", club="North")
    make_player(name="Twin", club="South", confirm_duplicate=True)
    text = GOOD + "2025-02-09,Twin,Anna,3,3,0,Club night\n"
    with pytest.raises(CommandError, match="line 5: Several players are named Twin"):
        call_command("import_results", write(tmp_path, text))
    assert Match.objects.count() == 0 and not Player.objects.filter(name="Anna").exists()


@pytest.mark.skipif(not LEAGUE.exists(), reason=f"needs the shared data's league.csv ({LEAGUE}; CRAWFORD_SHARED_DATA)")
def test_the_league_file_imports_1500_matches_and_rates_them(capsys):
    call_command("import_results", LEAGUE)
    assert "imported 1500 matches" in capsys.readouterr().out
    assert Match.objects.filter(status=MatchStatus.FINISHED, source="csv").count() == 1500
    call_command("import_results", LEAGUE)
    assert Match.objects.count() == 1500
    run = services.rating_recompute_now(system="crawford")
    assert run.matches_total == 1500
    assert selectors.rating_list(system="crawford").count() == Player.objects.count()


def test_a_spreadsheet_export_with_semicolons_dotted_dates_windows_text_and_empty_rows(tmp_path, capsys):
    """What a spreadsheet in much of Europe saves as CSV: ';' between columns, the header in
    other case, dates as 31.03.2025, Windows-1252 text and empty rows at the end."""
    text = ("Played_On;Player_A;Player B;Length;Score_A;Score_B\r\n"
            "01.02.2025;Søren Ærø;Bo;5;5;3\r\n"
            "2025-02-08;Bo;José;3;1;3\r\n"
            ";;;;;\r\n"
            ";;;;;\r\n")
    path = tmp_path / "results.csv"
    path.write_bytes(text.encode("cp1252"))
    call_command("import_results", path)
    captured = capsys.readouterr()
    assert "imported 2 matches, 0 already there, 3 new players" in captured.out
    assert "the file is not UTF-8: it was read as Windows-1252 (Western European)." in captured.err
    rows = [(m.played_on.date().isoformat(), m.player_a.name, m.player_b.name, m.score_a, m.score_b)
            for m in Match.objects.order_by("played_on").select_related("player_a", "player_b")]
    assert rows == [("2025-02-01", "Søren Ærø", "Bo", 5, 3), ("2025-02-08", "Bo", "José", 1, 3)]


def test_a_date_in_neither_form_names_both_forms(tmp_path):
    text = "played_on,player_a,player_b,length,score_a,score_b\n02/01/2025,A,B,1,1,0\n"
    with pytest.raises(CommandError) as raised:
        call_command("import_results", write(tmp_path, text))
    assert "line 2: played_on must be a date such as 2025-03-31 or 31.03.2025, not '02/01/2025'" in str(raised.value)
    assert Match.objects.count() == 0


def test_each_imported_match_has_its_first_version_in_the_audit_trail(tmp_path, staff):
    rows = results.results_file_read(text=GOOD)
    results.results_import(rows=rows, by=staff)
    match = Match.objects.get(player_a__name="Anna")
    versions = list(match.history.values_list("history_type", "history_change_reason", "history_user_id", "status",
                                              "score_a", "score_b", "winner_id"))
    assert versions == [("+", "imported result", staff.pk, "finished", 5, 3, match.player_a_id)]
    assert match.created_by == staff and match.created_at == match.finished_at
    assert list(Player.objects.order_by("name").values_list("name", "imported_name")) == [
        ("Anna", "anna"), ("Bo", "bo"), ("Carl", "carl")]


def test_a_player_renamed_since_an_import_is_found_by_the_next_import(tmp_path):
    results.results_import(rows=results.results_file_read(text=GOOD))
    Player.objects.filter(name="Anna").update(name="Anna Berg")
    later = "played_on,player_a,player_b,length,score_a,score_b\n2025-03-01,anna,Bo,3,3,0\n"
    report = results.results_import(rows=results.results_file_read(text=later))
    assert (report.imported, report.players_created) == (1, [])
    assert Match.objects.filter(player_a__name="Anna Berg").count() == 2


WINNERS = """played_on,player_a,player_b,length,score_a,score_b
2025-02-01,Anna,Bo,5,,
2025-02-08,Carl,Anna,7, , 
"""


def test_a_list_of_winners_without_scores_is_stored_with_player_a_as_winner_and_no_score(tmp_path, capsys, client):
    call_command("import_results", write(tmp_path, WINNERS))
    assert "imported 2 matches, 0 already there, 3 new players" in capsys.readouterr().out
    matches = list(Match.objects.order_by("played_on").select_related("winner"))
    assert [(m.score_a, m.score_b, m.winner.name, m.status) for m in matches] == [
        (None, None, "Anna", MatchStatus.FINISHED), (None, None, "Carl", MatchStatus.FINISHED),
    ]
    assert services.rated_history().a_won.tolist() == [True, True]
    page = client.get(f"/matches/{matches[0].pk}/").content.decode()
    assert "No final score was recorded." in page and "0 – 0" not in page
    anna = matches[0].player_a
    player_page = client.get(f"/players/{anna.pk}/").content.decode()
    assert "None" not in player_page and "0–0" not in player_page and ">won</a>" in player_page and ">lost</a>" in player_page
    home = client.get("/").content.decode()
    assert "0–0" not in home and "None" not in home and "Anna beat Bo" in home and ">won</td>" in home


def test_one_blank_score_beside_a_given_one_is_refused_and_nothing_is_stored(tmp_path):
    text = "played_on,player_a,player_b,length,score_a,score_b\n2025-02-01,Anna,Bo,5,5,\n2025-02-01,Bo,Carl,5,,3\n"
    with pytest.raises(CommandError) as raised:
        call_command("import_results", write(tmp_path, text))
    message = str(raised.value)
    assert "line 2: give both scores, or leave both blank when player_a won (score_b is blank)" in message
    assert "line 3: give both scores, or leave both blank when player_a won (score_a is blank)" in message
    assert Match.objects.count() == 0


ATHENS = SHARED_DATA / "realdata" / "league_athens.csv"


@pytest.mark.skipif(not ATHENS.exists(), reason=f"needs the shared data's league_athens.csv ({ATHENS})")
def test_the_real_club_list_of_winners_imports_whole(tmp_path, capsys):
    call_command("import_results", ATHENS)
    assert "imported 884 matches, 0 already there, 77 new players" in capsys.readouterr().out
    assert Match.objects.filter(score_a__isnull=True, score_b__isnull=True).count() == 884
    assert services.rated_history().a_won.all()


def test_a_new_player_another_import_creates_meanwhile_is_taken_not_refused_as_a_near_name(monkeypatch):
    # The name is looked up (nobody), then another import commits the same new player before this
    # one asks the name matcher, which finds the very name: the import takes that player.
    from games import selectors as game_selectors

    rows = results.results_file_read(text="played_on,player_a,player_b,length,score_a,score_b\n"
                                          "2025-03-01,Zoë Newcomer,Rival,5,5,1\n")
    real = game_selectors.player_matcher

    def meanwhile():
        Player.objects.create(name="Zoë Newcomer", imported_name="zoë newcomer")
        return real()

    monkeypatch.setattr(game_selectors, "player_matcher", meanwhile)
    report = results.results_import(rows=rows)
    assert report.players_created == ["Rival"]
    assert Player.objects.filter(name="Zoë Newcomer").count() == 1
    assert Match.objects.get().player_a == Player.objects.get(name="Zoë Newcomer")


def test_a_name_near_another_players_is_still_refused(monkeypatch):
    Player.objects.create(name="Søren Thygesen")
    rows = results.results_file_read(text="played_on,player_a,player_b,length,score_a,score_b\n"
                                          "2025-03-01,Soren Thygesen,Rival,5,5,1\n")
    with pytest.raises(results.ResultsFileError, match="Soren Thygesen is no player here. Did you mean Søren Thygesen"):
        results.results_import(rows=rows)
    assert not Match.objects.exists() and not Player.objects.filter(name="Rival").exists()


# -- a row's identity: its sheet, its content and its repeat within the sheet -----------------------

MORNING = """played_on,player_a,player_b,length,score_a,score_b
2025-02-01,Anna,Bo,5,5,3
2025-02-01,Bo,Carl,7,2,7
"""
EVENING = """played_on,player_a,player_b,length,score_a,score_b
2025-02-01,Anna,Bo,5,5,3
2025-02-01,Anna,Bo,5,5,3
2025-02-01,Carl,Anna,3,3,0
"""


def last_line(capsys) -> str:
    return capsys.readouterr().out.splitlines()[-1]


def test_a_second_sheet_of_the_same_day_stores_its_results_identical_to_the_first_sheets(tmp_path, capsys):
    morning, evening = write(tmp_path, MORNING, "morning.csv"), write(tmp_path, EVENING, "evening.csv")
    call_command("import_results", morning)
    call_command("import_results", evening)
    assert "imported 3 matches, 0 already there, 0 new players" in last_line(capsys)
    assert Match.objects.filter(player_a__name="Anna", player_b__name="Bo").count() == 3
    call_command("import_results", morning)
    assert "imported 0 matches, 2 already there" in last_line(capsys)
    call_command("import_results", evening)
    assert "imported 0 matches, 3 already there" in last_line(capsys)
    assert Match.objects.count() == 5


def test_a_sheet_exported_again_under_another_file_name_is_the_same_sheet_with_its_name_given(tmp_path, capsys):
    call_command("import_results", write(tmp_path, MORNING, "morning.csv"))
    call_command("import_results", write(tmp_path, MORNING, "morning (2).csv"), sheet="Morning.csv")
    assert "imported 0 matches, 2 already there" in last_line(capsys)
    call_command("import_results", write(tmp_path, MORNING, "morning (3).csv"))
    assert "imported 2 matches, 0 already there" in last_line(capsys)
    assert Match.objects.count() == 4


def test_a_sheet_exported_again_with_one_row_corrected_adds_that_row_and_names_the_match_it_replaces(tmp_path, capsys):
    call_command("import_results", write(tmp_path, MORNING, "morning.csv"))
    wrong = Match.objects.get(player_a__name="Bo", player_b__name="Carl")
    call_command("import_results", write(tmp_path, MORNING.replace("Bo,Carl,7,2,7", "Bo,Carl,7,3,7"), "morning.csv"))
    out, err = capsys.readouterr()
    assert "imported 1 match, 1 already there, 0 new players" in out
    assert err == (f"1 match imported from this sheet before is not in it now (match {wrong.pk}): it stays "
                   "stored. If the sheet corrects it, correct or withdraw that match.\n")
    assert sorted(Match.objects.filter(player_b__name="Carl").values_list("score_a", flat=True)) == [2, 3]


def test_rows_stored_before_sheets_counted_are_recognised_once_and_another_sheets_repeat_is_stored(tmp_path, capsys):
    rows = results.results_file_read(text=MORNING, sheet="morning.csv")
    results.results_import(rows=rows)
    for row in rows:  # as the version before sheets stored them: content and repeat, no sheet
        Match.objects.filter(source_key=row.source_key).update(source_key=row.legacy_keys[0])
    call_command("import_results", write(tmp_path, MORNING, "morning.csv"))
    assert "imported 0 matches, 2 already there" in last_line(capsys)
    assert sorted(Match.objects.values_list("source_key", flat=True)) == sorted(row.source_key for row in rows)
    call_command("import_results", write(tmp_path, EVENING, "evening.csv"))
    assert "imported 3 matches, 0 already there" in last_line(capsys)
    call_command("import_results", write(tmp_path, MORNING, "morning.csv"))
    assert "imported 0 matches, 2 already there" in last_line(capsys)
    assert Match.objects.count() == 5


CLUB = SHARED_DATA / "realdata" / "club_history.csv"


@pytest.mark.skipif(not CLUB.exists(), reason=f"needs the shared data's club_history.csv ({CLUB})")
def test_the_real_clubs_list_split_into_two_sheets_keeps_every_same_day_repeat(tmp_path, capsys):
    header, *lines = CLUB.read_text(encoding="utf-8").splitlines()
    odd = write(tmp_path, "\n".join([header, *lines[0::2]]) + "\n", "first.csv")
    even = write(tmp_path, "\n".join([header, *lines[1::2]]) + "\n", "second.csv")
    call_command("import_results", odd)
    assert "imported 1120 matches, 0 already there" in last_line(capsys)
    call_command("import_results", even)
    assert "imported 1120 matches, 0 already there" in last_line(capsys)
    call_command("import_results", even)
    assert "imported 0 matches, 1120 already there" in last_line(capsys)
    assert Match.objects.count() == 2240


# -- names near a player's: the file or the import says which are new players ------------------------


def thousand_rows(*, near_line_value: str = "") -> str:
    """1,000 rows among twenty players, one of them (line 501) by David L, whose name is near David H's."""
    rows = ["played_on,player_a,player_b,length,score_a,score_b,new_player"]
    for number in range(1000):
        a, b = f"Seed {number % 20 + 1}", f"Seed {(number + 7) % 20 + 1}"
        if number == 499:
            a = "David L"
        rows.append(f"2025-03-01,{a},{b},5,5,1,{near_line_value if number == 499 else ''}")
    return "\n".join(rows) + "\n"


@pytest.fixture
def david_h():
    return Player.objects.create(name="David H")


def test_one_near_name_refuses_the_whole_file_naming_its_line(tmp_path, david_h):
    with pytest.raises(CommandError) as refused:
        call_command("import_results", write(tmp_path, thousand_rows()))
    assert str(refused.value).splitlines()[1:] == [
        f"  line 501: David L is no player here. Did you mean David H (player {david_h.pk})? Write the name as the "
        "record has it, or add the new player first. Or, if David L is a new player, say so: yes in the row's "
        "new_player column, or the import's list of new players."
    ]
    assert Match.objects.count() == 0 and Player.objects.count() == 1


@pytest.mark.parametrize("how", ["flag", "column", "accept"])
def test_the_import_or_the_file_says_a_near_name_is_a_new_player(tmp_path, capsys, david_h, how):
    text = thousand_rows(near_line_value="yes" if how == "column" else "no")
    options = {"flag": {"new_players": "Anne K, david l"}, "column": {}, "accept": {"accept_new_names": True}}[how]
    call_command("import_results", write(tmp_path, text), **options)
    assert "imported 1000 matches, 0 already there, 21 new players" in last_line(capsys)
    assert Player.objects.filter(name__startswith="David").count() == 2
    assert Match.objects.filter(player_a__name="David L").count() == 1


def test_a_name_the_record_has_exactly_stays_that_player_when_called_new(tmp_path, capsys):
    Player.objects.create(name="Seed 1")
    call_command("import_results", write(tmp_path, thousand_rows()), new_players="Seed 1,David L")
    assert "imported 1000 matches, 0 already there, 20 new players" in last_line(capsys)
    assert Player.objects.filter(name="Seed 1").count() == 1


def test_a_new_player_cell_that_is_neither_yes_nor_no_is_refused_by_line(tmp_path):
    with pytest.raises(CommandError, match=r"line 501: new_player must be yes or no \(or blank\), not 'maybe'"):
        call_command("import_results", write(tmp_path, thousand_rows(near_line_value="maybe")))
    assert Match.objects.count() == 0
