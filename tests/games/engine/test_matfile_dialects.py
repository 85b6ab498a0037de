"""Reading the dialects of the .mat format: byte order marks, line ends, names, columns, words."""

from pathlib import Path

import pytest

from games.engine.errors import InvalidNotationError
from games.engine.matfile import (
    CubeAction,
    CubeWord,
    ErrorKind,
    GameResult,
    Roll,
    read_match_file,
    verify_match_file,
)
from config.shared_data import SHARED_DATA

MATFILES = SHARED_DATA / "matfiles"
needs_files = pytest.mark.skipif(
    not (MATFILES / "expected.json").exists(), reason=f"real match files not found in {MATFILES}"
)

SHORT_MATCH = """\
 3 point match

 Game 1
 Ann Lee : 0                    Bob,1650 : 0
  1)                             31: 8/5 6/5
  2) 62: 24/18 13/11             Doubles => 2
  3)  Drops                      Wins 1 point

 Game 2
 Ann Lee : 0                    Bob,1650 : 1
  1) 41: 24/23 13/9              53: 8/3 6/3
  2)  Doubles => 2                Takes
  3) 62: 24/18 13/11
      Wins 4 points and the match
"""


def _summary(report):
    return [(g.winner, g.points, g.cube, g.result, g.crawford) for g in report.games], report.final_score


def test_names_with_spaces_and_a_rating_are_read_from_the_score_line():
    match_file = read_match_file(SHORT_MATCH)
    assert match_file.players == ("Ann Lee", "Bob")
    assert match_file.games[0].ratings == (None, "1650")
    assert match_file.match_length == 3


def test_a_byte_order_mark_and_crlf_line_ends_change_nothing():
    plain = verify_match_file(SHORT_MATCH)
    windows = verify_match_file("\ufeff" + SHORT_MATCH.replace("\n", "\r\n"))
    assert _summary(windows) == _summary(plain)
    assert windows.players == ("Ann Lee", "Bob")


def test_trailing_spaces_after_cells_change_nothing():
    padded = "\n".join(line + "        " for line in SHORT_MATCH.splitlines())
    assert _summary(verify_match_file(padded)) == _summary(verify_match_file(SHORT_MATCH))


def test_a_drop_and_the_win_on_the_same_row_go_to_their_columns():
    game = read_match_file(SHORT_MATCH).games[0]
    assert game.actions[-1] == CubeAction(0, CubeWord.DROP, 3, 7)
    assert (game.win.side, game.win.points, game.win.row) == (1, 1, 3)


def test_and_the_match_is_read_but_the_end_is_decided_from_the_scores():
    report = verify_match_file(SHORT_MATCH)
    assert read_match_file(SHORT_MATCH).games[1].win.and_the_match is True
    assert report.games[1].result is GameResult.RESIGN
    assert (report.games[1].points, report.games[1].cube) == (4, 2)
    assert report.final_score == (4, 1)
    assert report.winner == 0
    without = verify_match_file(SHORT_MATCH.replace(" and the match", ""))
    assert _summary(without) == _summary(report)
    assert without.winner == 0


GNUBG_SPELLING = """\
 5 point match

 Game 1
 A : 0                          B : 0
  1) 31: 8/5 6/5                 64: 24/18 18/14
  2) 22: 13/11* 13/11 6/4 6/4    52: 25/23 13/8
  3) 55: 8/3 8/3 6/1* 6/1
"""

XG_SPELLING = """\
5 point match

 Game 1
 A : 0                                 B : 0
  1) 31: 8/5 6/5                       64: 24/14
  2) 22: 13/11*(2) 6/4(2)              52: Bar/23 13/8
  3) 55: 8/3(2) 6/1*(2)
"""


def test_xg_spellings_of_bar_repeats_and_combined_moves_replay_like_gnubg_ones():
    gnubg = verify_match_file(GNUBG_SPELLING)
    xg = verify_match_file(XG_SPELLING)
    assert gnubg.ok and xg.ok, (gnubg.errors, xg.errors)
    assert [t.position_id_after for t in xg.games[0].turns] == [
        t.position_id_after for t in gnubg.games[0].turns
    ]
    assert [t.notation for t in xg.games[0].turns] == ["8/5 6/5", "24/14", "13/11*(2) 6/4(2)", "bar/23 13/8", "8/3(2) 6/1*(2)"]


def test_cannot_move_and_an_empty_cell_both_mean_no_play():
    text = " 5 point match\n\n Game 1\n A : 0                 B : 0\n  1) 31: Cannot Move          42:\n"
    rolls = read_match_file(text).games[0].actions
    assert [(roll.side, roll.play) for roll in rolls] == [(0, ""), (1, "")]


HIT_ON_THE_WAY = """\
 5 point match

 Game 1
 A : 0                          B : 0
  1) 64: 13/7 13/9               64: {play}
"""


def test_a_combined_move_hits_on_the_way_only_where_it_says_so():
    marked = verify_match_file(HIT_ON_THE_WAY.format(play="24/18*/14"))
    stepwise = verify_match_file(HIT_ON_THE_WAY.format(play="24/18* 18/14"))
    unmarked = verify_match_file(HIT_ON_THE_WAY.format(play="24/14"))
    assert marked.ok and stepwise.ok and unmarked.ok
    after = [report.games[0].turns[1] for report in (marked, stepwise, unmarked)]
    assert after[0].position_id_after == after[1].position_id_after
    assert after[0].position_id_after != after[2].position_id_after
    assert [turn.notation for turn in after] == ["24/18*/14", "24/18*/14", "24/14"]


def test_an_unplayed_roll_before_a_resignation_is_not_a_play():
    text = """\
 5 point match

 Game 1
 A : 0                          B : 0
  1) 31: 8/5 6/5                 42: ????                          Wins 1 point
"""
    with pytest.raises(InvalidNotationError):
        read_match_file(text)
    text = text.replace("42: ????                          Wins 1 point", "42: ????\n      Wins 1 point")
    report = verify_match_file(text)
    assert report.ok
    game = report.games[0]
    assert (game.winner, game.points, game.result, game.unplayed_dice) == (0, 1, GameResult.RESIGN, (4, 2))
    assert len(game.turns) == 1


def test_the_first_mover_is_whoever_fills_row_one():
    game = read_match_file(SHORT_MATCH).games[0]
    assert game.first_side == 1
    assert read_match_file(SHORT_MATCH).games[1].first_side == 0


def test_a_money_session_is_a_zero_point_match_and_allows_beavers():
    text = """\
 0 point match

 Game 1
 A : 0                          B : 0
  1) 31: 8/5 6/5                 Doubles => 2
  2)  Beavers => 4
  3)                             42: 8/4 6/4
      Wins 4 points
"""
    report = verify_match_file(text)
    assert report.ok, report.errors
    assert report.match_length == 0
    game = report.games[0]
    assert (game.winner, game.cube, game.cube_owner, game.points) == (0, 4, 0, 4)
    assert report.final_score == (4, 0)
    assert report.finished is False


def test_a_beaver_in_match_play_is_refused():
    text = """\
 5 point match

 Game 1
 A : 0                          B : 0
  1) 31: 8/5 6/5                 Doubles => 2
  2)  Beavers => 4
"""
    report = verify_match_file(text)
    assert [(e.kind, e.game, e.move, e.line) for e in report.errors] == [(ErrorKind.CUBE, 1, 2, 6)]
    assert report.errors[0].message == "Beavers are not used in match play"


REDOUBLE_BY_THE_TAKER = """\
 7 point match

 Game 1
 A : 0                          B : 0
  1) 31: 8/5 6/5                 Doubles => 2
  2)  Takes                      42: 8/4 6/4
  3) 53: 8/3 6/3                 Doubles => 4
"""
"""Game 1: A doubles, B takes and owns the cube, then A doubles again."""


def test_a_redouble_by_the_player_who_does_not_own_the_cube_is_refused():
    report = verify_match_file(REDOUBLE_BY_THE_TAKER)
    assert [(e.kind, e.move, e.line) for e in report.errors] == [(ErrorKind.CUBE, 3, 7)]
    assert report.errors[0].message == "A (left) owns the cube: B (right) cannot double"


@needs_files
def test_a_continuation_file_starts_from_its_first_score_line():
    text = (MATFILES / "bglib__BlueNote-nori-2009Feb261959.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "Game 6")
    rest = "\n".join(lines[start:])
    for old, new in (("Game 6", "Game 1"), ("Game 7", "Game 2"), ("Game 8", "Game 3")):
        rest = rest.replace(old, new)
    report = verify_match_file(" 7 point match\n\n" + rest + "\n")
    assert report.ok, report.errors
    assert report.start_score == (6, 2)
    assert report.final_score == (8, 5)
    assert report.crawford_game is None
    assert [game.number for game in report.games] == [1, 2, 3]


def test_a_continuation_at_one_away_without_a_double_starts_with_the_crawford_game():
    text = """\
 3 point match

 Game 1
 A : 2                          B : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
      Wins 1 point
"""
    report = verify_match_file(text)
    assert report.ok
    assert report.crawford_game == 1
    assert report.final_score == (3, 0)


@needs_files
@pytest.mark.parametrize(
    "name, players",
    [
        ("gbf__test.txt", ("Kévin Unger", "Maxence Job")),
        ("bglib__MASODA-nori-2009Mar181925.txt", ("nori", "MASODA")),
        ("lazyBG__match3.txt", ("marcow777", "postmanpat")),
    ],
)
def test_the_columns_not_the_header_tags_give_the_player_order(name, players):
    match_file = read_match_file((MATFILES / name).read_text(encoding="utf-8"))
    assert match_file.players == players


@needs_files
def test_header_tags_are_kept():
    match_file = read_match_file((MATFILES / "gbf__test.txt").read_text(encoding="utf-8"))
    assert match_file.tag("Player 1") == "Maxence Job"
    assert match_file.tag("Crawford") == "On"
    assert match_file.tag("Missing") is None


@pytest.mark.parametrize(
    "text, line",
    [
        ("hello\n", 1),
        (" 5 point match\n\n Game 1\n A : 0     B\n", 4),
        (" 5 point match\n\n Game 1\n A : 0                 B : 0\n  1) 7x: 13/8\n", 5),
        (" 5 point match\n\n Game 1\n A : 0                 B : 0\n  2) 31: 8/5 6/5\n", 5),
        (" 5 point match\n\n Game 1\n A : 0                 B : 0\n  1) 31: 8/5 6/5\n      Wins 1 point\n  2) 42: 8/4 6/4\n", 7),
        ("; [Event \"x\"]\n", 1),
    ],
)
def test_unreadable_text_names_its_line(text, line):
    with pytest.raises(InvalidNotationError, match=f"^line {line}: "):
        read_match_file(text)


def test_an_unreadable_play_is_reported_as_notation_with_its_move():
    text = " 5 point match\n\n Game 1\n A : 0                 B : 0\n  1) 31: 8/5 6/x\n"
    report = verify_match_file(text)
    assert [(e.kind, e.game, e.move, e.line) for e in report.errors] == [(ErrorKind.NOTATION, 1, 1, 5)]


def test_rolls_and_cube_words_are_read_into_actions():
    game = read_match_file(SHORT_MATCH).games[1]
    assert game.actions[0] == Roll(0, (4, 1), "24/23 13/9", 1, 11)
    assert game.actions[2] == CubeAction(0, CubeWord.DOUBLE, 2, 12, 2)
    assert game.actions[3] == CubeAction(1, CubeWord.TAKE, 2, 12)
