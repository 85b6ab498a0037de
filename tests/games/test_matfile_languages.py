"""A match file's errors and notes in the reader's language: the players' sides, the games'
values and the counts of the messages are read in it, in the plural form their number asks for."""

from django.utils import translation

from games.engine.matfile import verify_match_file

from tests.games.engine.test_matfile_dialects import REDOUBLE_BY_THE_TAKER as REDOUBLE
from tests.games.engine.test_matfile_gnubg_files import ONE_POINT_BACKGAMMON


ILLEGAL = """\
 7 point match

 Game 1
 A : 0                          B : 0
  1) 31: 24/18                   42: 8/4 6/4
"""

CUT = ONE_POINT_BACKGAMMON.replace("Wins 3 points", "Wins 1 point and the match")


def _read(text: str, language: str, what: str = "errors") -> list[str]:
    with translation.override(language):
        return [str(found) for found in getattr(verify_match_file(text), what)]


def test_the_sides_of_the_players_are_named_in_the_reader_s_language():
    assert _read(REDOUBLE, "en") == ["game 1, move 3 (line 7): A (left) owns the cube: B (right) cannot double"]
    assert _read(REDOUBLE, "da") == [
        "spil 1, træk 3 (linje 7): A (venstre) ejer doblingsterningen: B (højre) kan ikke doble"]
    assert _read(REDOUBLE, "ja") == ["第1ゲーム、3 手目（7 行目）：キューブは A（左） が持っています。B（右） はダブルできません"]
    assert _read(REDOUBLE, "ar") == ["الشوط 1، النقلة 3 (السطر 7): يملك A (يسار) المكعب: لا يستطيع B (يمين) أن يضاعف"]


def test_the_actions_left_unchecked_are_counted_in_the_plural_form_of_their_number():
    one, three = _read(ILLEGAL, "en")[1], _read(ILLEGAL + "  2) 53: 8/3 6/3                 42: 8/4 6/4\n", "en")[1]
    assert (one, three) == ("game 1, move 1 (line 5): the remaining 1 action of this game was not checked",
                            "game 1, move 1 (line 5): the remaining 3 actions of this game were not checked")
    assert _read(ILLEGAL, "da")[1] == "spil 1, træk 1 (linje 5): spillets resterende 1 handling blev ikke kontrolleret"
    assert _read(ILLEGAL, "ar")[1] == (
        "الشوط 1، النقلة 1 (السطر 5): لم يُتحقَّق من الإجراء المتبقي الوحيد في هذا الشوط (1)")
    assert _read(ILLEGAL + "  2) 53: 8/3 6/3                 42: 8/4 6/4\n", "ar")[1] == (
        "الشوط 1، النقلة 1 (السطر 5): لم يُتحقَّق من 3 إجراءات متبقية في هذا الشوط")


def test_a_wrong_wins_line_names_the_game_s_value_in_the_reader_s_language():
    wrong = ONE_POINT_BACKGAMMON.replace("Wins 3 points", "Wins 2 points")
    assert _read(wrong, "da") == ["spil 1 (linje 27): en backgammon med terningen på 1 er 3 point værd, filen siger 2"]
    assert _read(wrong, "ja") == ["第1ゲーム（27 行目）：キューブ 1 でのバックギャモン勝ちは 3 ポイントですが、ファイルでは 2 です"]
    assert _read(wrong, "ar") == ["الشوط 1 (السطر 27): الباكغامون والمكعب على 1 يساوي 3 نقاط، والملف يقول 2"]


def test_a_result_cut_down_to_what_the_match_needed_is_noted_in_the_reader_s_language():
    assert _read(CUT, "da", "notes") == [
        'spil 1 (linje 27): filen siger "Wins 1 point", men en backgammon med terningen på 1 er 3 værd: den tæller 3,'
        " som GNU Backgammon læser den (1 er, hvad root (højre) manglede for at vinde matchen)"]
    assert _read(CUT, "ja", "notes") == [
        "第1ゲーム（27 行目）：ファイルの Wins 行は 1 ポイントですが、キューブ 1 でのバックギャモン勝ちは 3 ポイントです。"
        "GNU Backgammon と同じく 3 と数えます（1 は root（右） がマッチに勝つのに必要だったポイントです）"]
    report = verify_match_file(CUT)
    with translation.override("da"):
        assert report.to_dict()["notes"][0]["message"].startswith('filen siger "Wins 1 point", men en backgammon')
    assert report.to_dict()["notes"][0]["message"].startswith('the file says "Wins 1 point", but a backgammon')
