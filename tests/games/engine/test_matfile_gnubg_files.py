"""Match files as GNU Backgammon writes them, kept as text: each one broke the reader once.

Every fixture is a real export of GNU Backgammon 1.07 playing itself (`export match mat`), cut
to the games that matter; the expected values are GNU Backgammon's own (from the `.sgf` it saved
of the same match). No GNU Backgammon is needed to run these.
"""

import re

import pytest

from games.engine.errors import InvalidNotationError
from games.engine.matfile import ErrorKind, GameResult, read_match_file, verify_match_file
from games.engine.scoring import ResultKind

# A nackgammon match, and a left name so long that GNU Backgammon leaves no space before the right
# name, which starts with a digit: "...Mont : 02Fast : 0".
NACKGAMMON_LONG_NAMES = """\
; [EventDate "2026.11.22"]
; [Variation "NackGammon"]

 3 point match

 Game 1
 Bartholomew_Fitzgerald_Mont : 02Fast : 0
  1)                             62: 24/18 18/16
  2) 42: 24/20 24/22             65: 23/18 24/18
  3) 32: 23/20 23/21             42: 6/4* 8/4
  4) 21: 25/23 23/22             54: 18/14 23/18
  5) 32: 22/20 13/10             31: 16/15* 18/15
  6) 66:                         65: 14/9 15/9
  7) 61: 25/24 24/18              Doubles => 2
  8)  Takes                      63: 13/7* 6/3*
  9) 41: 25/24                   61: 13/7 15/14
 10) 21: 25/23 24/23             42: 13/11 18/14
 11) 52: 20/15 15/13             53: 11/6 6/3
 12) 43: 13/9 23/20              54: 13/8 8/4
 13) 53: 23/20 20/15             43: 14/10* 10/7
 14) 42: 25/23 13/9              53: 14/9 9/6
 15) 65: 20/14 20/15             53: 9/4 9/6
 16) 22: 15/13 14/12 13/11 13/11 32: 6/3 3/1
 17) 31: 23/20 13/12             62: 8/6 8/2
 18) 61: 20/14 14/13             54: 7/2 6/2
 19) 64: 13/9 20/14              43: 7/3 7/4
 20) 65: 14/8 12/7               61: 1/0 6/0
 21) 42: 12/10 11/7              51: 6/5 5/0
 22) 43: 11/8 10/6               54: 6/2 4/0
 23) 51: 9/8 9/4                 42: 4/0 2/0
 24) 31: 9/8 8/5                 44: 4/0 4/0 4/0 3/0
 25) 64: 7/3 8/2                 42: 3/1 3/0
 26) 43: 8/4 6/3                 53: 2/0 2/0
                                  Wins 4 points
"""

# Money play with beavers allowed: GNU Backgammon writes the raccoon, and a further redouble by
# the beaverer, as "Beavers". 2Fast's double to 2 goes to 16 before anyone rolls.
BEAVERS_AND_RACCOONS = """\
; [EventDate "2026.11.22"]

 0 point match

 Game 1
 gnubg : 0                      root : 0
  1) 51: 13/8 24/23              52: 24/22 13/8
  2) 65: 23/18 24/18             32: 8/5 24/22
  3) 55: 18/13 18/13 13/8 13/8   42: 8/4 6/4
  4) 55: 13/8 13/8 13/8 13/8     11: 13/12 12/11 8/7 6/5
  5) 63: 8/2 8/5                 52: 22/20* 13/8
  6) 62: 25/23 8/2                Doubles => 2
  7)  Beavers => 4                Beavers => 8
  8)  Beavers => 16              31: 11/10 10/7
  9) 41: 23/22 8/4               54: 7/3* 8/3
 10) 51: 25/24 8/3*              62:
 11) 41: 8/4 6/5*                33: 25/22* 25/22 13/10 10/7
 12) 62: 25/23 23/17*            52: 25/20* 22/20
 13) 41: 25/24 17/13             53: 20/15 15/12*
 14) 41: 25/24 8/4               52: 20/18 18/13
 15) 11: 24/23 24/23 24/23 8/7   43: 22/18* 18/15
 16) 61: 25/24 23/17             63: 15/9 12/9
 17) 42: 17/13 13/11             51: 9/8 13/8
 18) 62: 11/9 9/3                41: 13/12 9/5
 19) 53: 8/5 8/3                 55: 12/7 8/3 8/3 6/1*
 20) 41: 25/24* 6/2              42:
 21) 54: 6/2 6/1                 41: 25/24* 24/20*
 22) 44:                         21: 20/19* 3/1*
 23) 63:                         63: 7/1 7/4
 24) 52: 25/23                   33: 19/16 16/13 13/10 7/4
 25) 64:                         53: 10/5 3/0
 26) 42: 25/23                   61: 6/0 6/5
 27) 42: 25/23                   63: 4/1 5/0
 28) 44:                         41: 4/0 1/0
 29) 61: 25/19 19/18             61: 5/0 5/4
 30) 64: 23/19 23/17             63: 4/1 5/0
 31) 55: 23/18 23/18 19/14 18/13 32: 5/2* 2/0
 32) 61: 25/19 18/17             64: 4/0 4/0
 33) 66: 17/11 14/8 13/7 7/1     42: 3/0 3/1
                                  Wins 32 points
"""

# A money session under the Jacoby rule, continued from game 8: root wins a backgammon with the
# cube centred. GNU Backgammon writes "Wins 3 points" but scores 1, as the next score line says.
JACOBY_BACKGAMMON = """\
; [EventDate "2026.11.22"]

 0 point match

 Game 8
 gnubg : 0                      root : 7
  1) 61: 24/18 24/23             31: 8/5 6/5
  2) 54: 23/18 13/9              62: 24/18 18/16*
  3) 65:                         53: 16/13 13/8
  4) 53: 25/22 18/13             53: 6/3* 8/3
  5) 62: 25/23 13/7              32: 13/11 11/8
  6) 66: 13/7 13/7 13/7 7/1*     21: 25/23 13/12*
  7) 63:                         22: 23/21 13/11 11/9 9/7*
  8) 41: 25/24 25/21             21: 8/7 6/4*
  9) 61: 25/24 8/2               65: 21/16 16/10
 10) 51: 2/1 6/1                 31: 8/7 7/4
 11) 62: 8/6 23/17*              52: 25/20 10/8*
 12) 32: 25/23 7/4               21: 12/10 8/7
 13) 53: 4/1 8/3                 44: 13/9 13/9 10/6 6/2*
 14) 21: 25/23* 6/5*             31: 25/22*
 15) 44:                         64: 25/21 22/16
 16) 62: 25/23 23/17             61: 9/8* 8/2*
 17) 41: 25/24                   21: 21/20* 7/5
 18) 52: 25/23*                  62: 25/23 23/17
 19) 51: 25/24 7/2               61: 9/3 3/2*
 20) 43:                         53: 5/2 17/12
 21) 53:                         43: 16/12 20/17
 22) 64:                         32: 17/14 14/12
 23) 31: 25/24 7/4               62: 12/10 10/4
 24) 62: 4/2                     32: 12/10 10/7
 25) 61: 6/5                     42: 12/8 8/6
 26) 63: 6/3                     53: 7/2 6/3
 27) 63: 6/3                     32: 7/4 7/5
 28) 21: 3/1 3/2                 32: 3/0 2/0
 29) 32: 6/4 4/1                 31: 4/3 3/0
 30) 61: 24/18 2/1               64: 6/0 6/2
 31) 55: 24/19 24/19 18/13 13/8  62: 5/0 2/0
 32) 63: 19/13 13/10             21: 5/3 5/4
 33) 61: 24/18 18/17             53: 4/0 3/0
 34) 32: 10/7 5/3                43: 3/0 4/0
 35) 64: 19/13 7/3               65: 4/0 4/0
 36) 44: 13/9 9/5 8/4 5/1        66: 3/0 2/0 2/0
                                  Wins 3 points

 Game 9
 gnubg : 0                      root : 8
  1) 62: 24/18 24/22             66: 24/18 24/18 13/7* 13/7
"""

# A 1-point match won with a backgammon: the score passes the match length.
ONE_POINT_BACKGAMMON = """\
; [EventDate "2026.11.22"]

 1 point match

 Game 1
 gnubg : 0                      root : 0
  1)                             54: 24/20 20/15
  2) 64: 24/20 24/18             22: 15/13 13/11 13/11 13/11
  3) 65: 20/15 15/9              55: 13/8 11/6 6/1 6/1
  4) 62: 13/7 18/16              52: 11/9* 11/6
  5) 42: 25/21 13/11             41: 6/5 9/5
  6) 41: 13/9 11/10              54: 24/20 20/15*
  7) 51:                         41: 6/5 15/11
  8) 62: 25/23 13/7              44: 13/9 13/9 8/4* 8/4
  9) 31: 25/22 13/12             66: 11/5 9/3* 9/3 8/2*
 10) 32: 25/23*                  51: 25/20 6/5
 11) 22: 25/23 12/10 10/8 8/6    63: 20/14 8/5
 12) 62: 6/4 7/1                 52: 5/3 14/9
 13) 41: 9/8 9/5                 51: 9/4 1/0
 14) 52: 7/5 23/18               61: 6/5 6/0
 15) 52: 18/13 6/4               32: 5/3 3/0
 16) 61: 6/5 13/7                55: 5/0 5/0 5/0 5/0
 17) 61: 7/6 8/2                 44: 5/1 4/0 4/0 4/0
 18) 21: 5/3 8/7                 31: 3/0 1/0
 19) 52: 6/1 4/2                 41: 1/0 3/0
 20) 44: 7/3 6/2 6/2 5/1         41: 3/2* 2/0
                                  Wins 3 points
"""


def _games(report):
    return [(g.number, g.score_before, g.winner, g.points, g.cube, g.result, g.crawford) for g in report.games]


# -- a left name that runs into the right one -------------------------------------------------


def test_a_long_left_name_with_no_space_before_the_right_name_is_split_at_the_score():
    game = read_match_file(NACKGAMMON_LONG_NAMES).games[0]
    assert game.names == ("Bartholomew_Fitzgerald_Mont", "2Fast")
    assert game.score == (0, 0)


@pytest.mark.parametrize(
    "left_score, right_score",
    [(0, 3), (1, 0), (12, 7)],
)
def test_a_score_run_into_a_right_name_with_digits_is_split_like_the_game_before(left_score, right_score):
    text = (
        " 25 point match\n\n Game 1\n Bartholomew_Fitzgerald_Mont : 0                 2Fast : 0\n"
        f" Game 2\n Bartholomew_Fitzgerald_Mont : {left_score}2Fast : {right_score}\n"
    )
    second = read_match_file(text).games[1]
    assert second.names == ("Bartholomew_Fitzgerald_Mont", "2Fast")
    assert second.score == (left_score, right_score)


def test_without_the_game_before_a_run_on_score_is_split_at_gnu_backgammons_column():
    text = " 25 point match\n\n Game 1\n Bartholomew_Fitzgerald_Mont : 12Fast : 3\n"
    assert read_match_file(text).games[0].names == ("Bartholomew_Fitzgerald_Mont", "2Fast")
    assert read_match_file(text).games[0].score == (1, 3)


# -- nackgammon ---------------------------------------------------------------------------------


def test_a_nackgammon_match_is_replayed_from_the_nackgammon_opening():
    report = verify_match_file(NACKGAMMON_LONG_NAMES)
    assert report.errors == ()
    assert read_match_file(NACKGAMMON_LONG_NAMES).variation == "nackgammon"
    assert report.players == ("Bartholomew_Fitzgerald_Mont", "2Fast")
    assert _games(report) == [(1, (0, 0), 1, 4, 2, GameResult.RESIGN, False)]
    assert report.final_score == (0, 4)
    assert report.winner == 1
    # GNU Backgammon's own Position IDs before and after 2Fast's opening 62: 24/18 18/16.
    opening = report.games[0].turns[0]
    assert (opening.position_id_before, opening.position_id_after) == ("4Dl4ADbgOXgANg", "4Dl4BCzgOXgANg")


def test_the_same_plays_without_the_variation_tag_are_illegal_from_the_usual_opening():
    text = NACKGAMMON_LONG_NAMES.replace('; [Variation "NackGammon"]\n', "")
    report = verify_match_file(text)
    assert [(e.kind, e.game, e.move, e.line) for e in report.errors] == [
        (ErrorKind.ILLEGAL_PLAY, 1, 2, 8),
        (ErrorKind.UNVERIFIABLE, 1, 3, 9),
    ]


@pytest.mark.parametrize("value", ["HyperGammon (2)", "LongGammon"])
def test_a_variation_the_engine_cannot_play_is_refused_at_its_tag(value):
    text = f'; [EventDate "2026.11.22"]\n; [Variation "{value}"]\n\n 1 point match\n'
    message = "^line 2: " + re.escape(f"the variation '{value}' is not supported")
    with pytest.raises(InvalidNotationError, match=message):
        read_match_file(text)


# -- beavers and raccoons -------------------------------------------------------------------------


def test_gnu_backgammon_beavers_after_a_beaver_are_raccoons_and_the_beaverer_keeps_the_cube():
    report = verify_match_file(BEAVERS_AND_RACCOONS)
    assert report.errors == ()
    game = report.games[0]
    assert [(e.side, e.action, e.move, e.value) for e in game.cube_actions] == [
        (1, "double", 6, 2),
        (0, "beaver", 7, 4),
        (1, "raccoon", 7, 8),
        (0, "raccoon", 8, 16),
    ]
    assert (game.cube, game.cube_owner) == (16, 0)
    assert _games(report) == [(1, (0, 0), 1, 32, 16, GameResult.RESIGN, False)]
    assert game.kind is ResultKind.GAMMON
    assert report.final_score == (0, 32)


def test_beavers_are_refused_at_their_move_when_the_beaver_tag_is_off():
    report = verify_match_file('; [Beaver "Off"]\n' + BEAVERS_AND_RACCOONS)
    assert [(e.kind, e.game, e.move, e.line) for e in report.errors][:1] == [(ErrorKind.CUBE, 1, 7, 14)]
    assert report.errors[0].message == "this session does not allow beavers"


# -- the Jacoby rule in money play ---------------------------------------------------------------


def test_the_next_score_line_shows_a_money_session_used_the_jacoby_rule():
    report = verify_match_file(JACOBY_BACKGAMMON)
    assert report.errors == ()
    assert report.start_score == (0, 7)
    game = report.games[0]
    assert (game.number, game.winner, game.points, game.cube, game.result) == (8, 1, 1, 1, GameResult.BACKGAMMON)
    assert game.declared_points == 3
    assert report.games[1].result is GameResult.UNFINISHED
    assert report.final_score == (0, 8)


def test_without_the_jacoby_rule_the_backgammon_counts_three():
    text = JACOBY_BACKGAMMON.replace("root : 8", "root : 10")
    report = verify_match_file(text)
    assert report.errors == ()
    assert report.games[0].points == 3
    assert report.final_score == (0, 10)


def test_a_single_declared_against_the_next_score_line_is_an_error():
    text = JACOBY_BACKGAMMON.replace("root : 8", "root : 10").replace("Wins 3 points", "Wins 1 point")
    report = verify_match_file(text)
    assert [(e.kind, e.game, e.line) for e in report.errors] == [(ErrorKind.RESULT, 8, 43)]
    assert report.final_score == (0, 10)


def test_a_jacoby_tag_decides_and_a_score_line_against_it_is_an_error():
    report = verify_match_file('; [Jacoby "Off"]\n' + JACOBY_BACKGAMMON)
    assert [(e.kind, e.game, e.line) for e in report.errors] == [(ErrorKind.SCORE, 9, 47)]
    assert report.errors[0].message == "the score line says 0-8, the results before it make 0-10"


def test_a_last_game_under_a_jacoby_tag_counts_a_single_whatever_the_file_says():
    last_game_only = JACOBY_BACKGAMMON[: JACOBY_BACKGAMMON.index(" Game 9")]
    for points in (1, 3):
        text = '; [Jacoby "On"]\n' + last_game_only.replace("Wins 3 points", f"Wins {points} point")
        report = verify_match_file(text)
        assert report.errors == ()
        assert report.final_score == (0, 8)


def test_a_single_declared_for_a_centred_gammon_means_the_jacoby_rule():
    last_game_only = JACOBY_BACKGAMMON[: JACOBY_BACKGAMMON.index(" Game 9")]
    report = verify_match_file(last_game_only.replace("Wins 3 points", "Wins 1 point"))
    assert report.errors == ()
    assert (report.games[0].points, report.final_score) == (1, (0, 8))


# -- results past the match length ---------------------------------------------------------------


def test_a_one_point_match_won_with_a_backgammon_scores_three():
    report = verify_match_file(ONE_POINT_BACKGAMMON)
    assert report.errors == ()
    assert _games(report) == [(1, (0, 0), 1, 3, 1, GameResult.BACKGAMMON, False)]
    assert (report.final_score, report.winner) == ((0, 3), 1)


def test_a_last_result_cut_down_to_what_the_match_needed_is_accepted():
    text = ONE_POINT_BACKGAMMON.replace("Wins 3 points", "Wins 1 point and the match")
    report = verify_match_file(text)
    assert report.errors == ()
    assert (report.games[0].points, report.games[0].declared_points) == (3, 1)
    assert (report.final_score, report.winner) == ((0, 3), 1)


def test_a_last_result_cut_down_counts_the_full_value_with_a_note():
    text = ONE_POINT_BACKGAMMON.replace("Wins 3 points", "Wins 1 point and the match")
    report = verify_match_file(text)
    assert report.ok and report.final_score == (0, 3)
    message = (
        'the file says "Wins 1 point", but a backgammon with the cube on 1 is worth 3: it counts 3,'
        " as GNU Backgammon reads it (1 is what root (right) needed to win the match)"
    )
    assert [(n.game, n.line, n.message) for n in report.notes] == [(1, 27, message)]
    assert report.to_dict()["notes"] == [{"game": 1, "line": 27, "message": message, "text": f"game 1 (line 27): {message}"}]
    assert verify_match_file(ONE_POINT_BACKGAMMON).notes == ()
    assert verify_match_file(ONE_POINT_BACKGAMMON).to_dict()["notes"] == []


def test_a_resignation_cut_down_to_what_the_match_needed_counts_the_cube_with_a_note():
    text = """\
 3 point match

 Game 1
 gnubg : 1                      root : 2
  1)                             54: 24/20 20/15
  2) 64: 24/20 24/18             22: 15/13 13/11 13/11 13/11
  3)  Doubles => 2                Takes
  4) 65: 20/15 15/9              55: 13/8 11/6 6/1 6/1
                                  Wins 1 point and the match
"""
    report = verify_match_file(text)
    assert report.ok
    assert (report.games[0].result, report.games[0].points, report.final_score) == (GameResult.RESIGN, 2, (1, 4))
    assert [str(n) for n in report.notes] == [
        'game 1 (line 9): the file says "Wins 1 point", but a resigned single with the cube on 2 is worth 2:'
        " it counts 2, as GNU Backgammon reads it (1 is what root (right) needed to win the match)"
    ]


def test_a_last_result_neither_played_nor_cut_down_is_an_error():
    report = verify_match_file(ONE_POINT_BACKGAMMON.replace("Wins 3 points", "Wins 2 points"))
    assert [(e.kind, e.game, e.line) for e in report.errors] == [(ErrorKind.RESULT, 1, 27)]
    assert report.errors[0].message == "a backgammon with the cube on 1 is worth 3 points, the file says 2"


def test_a_cut_down_result_is_an_error_before_the_last_game():
    text = """\
 3 point match

 Game 1
 A : 0                          B : 0
      Wins 3 points

 Game 2
 A : 3                          B : 0
"""
    assert verify_match_file(text).errors == ()
    short = verify_match_file(text.replace("Wins 3 points", "Wins 2 points").replace("A : 3", "A : 2"))
    assert short.errors == ()
    assert short.games[0].points == 2
    assert short.crawford_game == 2


# -- the Crawford rule ----------------------------------------------------------------------------

NO_CRAWFORD = """\
; [Crawford "Off"]

 3 point match

 Game 1
 A : 0                          B : 0
      Wins 2 points

 Game 2
 A : 2                          B : 0
  1) 31: 8/5 6/5                  Doubles => 2
  2)  Drops                       Wins 1 point

 Game 3
 A : 2                          B : 1
"""


def test_a_match_played_without_the_crawford_rule_says_so_in_its_tag():
    report = verify_match_file(NO_CRAWFORD)
    assert report.errors == ()
    assert report.crawford_game is None
    assert _games(report)[1] == (2, (2, 0), 1, 1, 1, GameResult.DROP, False)
    assert report.final_score == (2, 1)


def test_without_the_tag_the_same_double_breaks_the_crawford_rule():
    report = verify_match_file(NO_CRAWFORD.replace('; [Crawford "Off"]\n', ""))
    assert [(e.kind, e.game, e.move, e.line) for e in report.errors] == [(ErrorKind.CRAWFORD, 2, 1, 10)]
    assert report.crawford_game == 2


# -- what the reader refuses, and where -----------------------------------------------------------


def test_a_second_match_in_the_same_file_is_refused_at_its_length_line():
    text = ONE_POINT_BACKGAMMON + "\n" + ONE_POINT_BACKGAMMON
    second = len(ONE_POINT_BACKGAMMON.splitlines()) + 4
    with pytest.raises(InvalidNotationError, match=f"^line {second}: a second match starts here"):
        read_match_file(text)


def test_an_sgf_file_is_told_apart():
    text = "(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:3][game:0][ws:0][bs:0]\n"
    with pytest.raises(InvalidNotationError, match=r"^line 1: this is an SGF file"):
        read_match_file(text)


def test_a_comment_between_the_rows_of_a_game_is_skipped():
    lines = ONE_POINT_BACKGAMMON.splitlines()
    lines.insert(10, "; an annotation")
    report = verify_match_file("\n".join(lines) + "\n")
    assert report.errors == ()
    assert report.final_score == (0, 3)


# -- spellings of other writers, on the same games ------------------------------------------------


def _same_reading(text, original):
    report, expected = verify_match_file(text), verify_match_file(original)
    assert report.errors == ()
    assert _games(report) == _games(expected)
    assert [(e.side, e.action, e.move) for g in report.games for e in g.cube_actions] == [
        (e.side, e.action, e.move) for g in expected.games for e in g.cube_actions
    ]
    assert report.final_score == expected.final_score


def test_singular_cube_and_result_words_read_like_gnu_backgammons():
    text = (
        NACKGAMMON_LONG_NAMES.replace("Doubles =>", "Double =>")
        .replace("Takes", "Take")
        .replace("Wins 4 points", "Win 4 points")
    )
    _same_reading(text, NACKGAMMON_LONG_NAMES)
    cube = verify_match_file(text).games[0].cube_actions
    assert [(e.action, e.value) for e in cube] == [("double", 2), ("take", None)]


def test_a_cell_right_after_the_row_number_is_read():
    text = re.sub(r"^( *\d+\)) (?=\d\d:)", r"\1", ONE_POINT_BACKGAMMON, flags=re.MULTILINE)
    assert "  2)64: 24/20 24/18" in text
    _same_reading(text, ONE_POINT_BACKGAMMON)


def test_a_dos_end_of_file_mark_and_tabs_are_ignored():
    text = ONE_POINT_BACKGAMMON.replace("  1)                             54:", "  1)\t\t\t\t54:") + "\x1a"
    _same_reading(text, ONE_POINT_BACKGAMMON)


def test_a_remark_after_the_game_number_is_ignored():
    text = NO_CRAWFORD.replace(" Game 2\n", " Game 2 (Crawford)\n")
    assert [g.number for g in read_match_file(text).games] == [1, 2, 3]
    assert verify_match_file(text).errors == ()


def test_lone_cells_go_to_the_column_the_rows_use_not_the_score_lines():
    # A writer that pads the score line wider than its rows: the right name starts at column 70,
    # the right cells at column 33, as in every row with two cells.
    text = ONE_POINT_BACKGAMMON.replace(
        " gnubg : 0                      root : 0", " gnubg : 0" + " " * 60 + "root : 0"
    )
    game = read_match_file(text).games[0]
    assert (game.actions[0].side, game.actions[0].dice) == (1, (5, 4))
    assert game.win.side == 1
    _same_reading(text, ONE_POINT_BACKGAMMON)


# Bob rolls, then resigns without playing: GNU Backgammon writes his roll with no play.
RESIGNED_AFTER_ROLLING = """\
; [EventDate "2026.11.22"]

 3 point match

 Game 1
 Alice : 0                      Bob : 0
  1) 61: 13/7 8/7                43:
      Wins 1 point

 Game 2
 Alice : 1                      Bob : 0
  1) 51: 13/8 24/23              51:
      Wins 2 points
"""


def test_a_roll_without_a_play_before_the_other_side_wins_is_a_resignation_after_rolling():
    report = verify_match_file(RESIGNED_AFTER_ROLLING)
    assert report.errors == ()
    assert [(g.winner, g.points, g.result, g.kind, g.unplayed_dice) for g in report.games] == [
        (0, 1, GameResult.RESIGN, ResultKind.SINGLE, (4, 3)),
        (0, 2, GameResult.RESIGN, ResultKind.GAMMON, (5, 1)),
    ]
    assert [len(g.turns) for g in report.games] == [1, 1]
    assert (report.final_score, report.winner) == ((3, 0), 0)
