"""Verifying real match files against GNU Backgammon's reading of them (shared/data/matfiles)."""

import json
import re
from functools import cache
from pathlib import Path

import pytest

from games.engine.matfile import (
    ErrorKind,
    GameResult,
    MatchTranscript,
    Roll,
    TranscriptCube,
    CubeWord,
    read_match_file,
    verify_match_file,
    write_match_file,
)
from config.shared_data import SHARED_DATA

MATFILES = SHARED_DATA / "matfiles"
EXPECTED = MATFILES / "expected.json"
pytestmark = pytest.mark.skipif(not EXPECTED.exists(), reason=f"real match files not found in {MATFILES}")


@cache
def expected() -> dict:
    return json.loads(EXPECTED.read_text(encoding="utf-8"))["files"] if EXPECTED.exists() else {}


def names() -> list[str]:
    return sorted(expected())


@cache
def text_of(name: str) -> str:
    return (MATFILES / name).read_text(encoding="utf-8")


@cache
def report_of(name: str):
    return verify_match_file(text_of(name))


def test_the_data_holds_fifty_one_files():
    assert len(names()) == 51


@pytest.mark.parametrize("name", names())
def test_every_real_file_is_verified_with_gnubg_results(name):
    truth = expected()[name]
    report = report_of(name)
    assert report.errors == ()
    assert report.ok
    assert list(report.players) == truth["players"]
    assert report.match_length == truth["match_length"]
    assert list(report.final_score) == truth["final_score"]
    assert report.winner == truth["match_winner"]
    assert len(report.games) == truth["n_games"]
    for game, want in zip(report.games, truth["games"]):
        assert game.number == want["game"]
        assert list(game.score_before) == want["score_before"]
        assert game.winner == want["winner"]
        assert game.points == want["points"]
        assert game.cube == want["final_cube"]
        assert game.result.value == want["result"]
        assert game.crawford is want["crawford_game"]
        assert len(game.turns) == want["plays"]
        assert [(event.side, event.action) for event in game.cube_actions] == [
            (action["player"], action["action"]) for action in want["cube_actions"]
        ]
        if want["result"] == "resign":
            assert game.kind.name.lower() == want["resigned_value"]


def test_every_play_replays_to_gnubg_position_ids():
    plays: dict[str, list[dict]] = {}
    with (MATFILES / "replay.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            plays.setdefault(row["file"], []).append(row)
    checked = 0
    for name, rows in plays.items():
        turns = [(game.number, turn) for game in report_of(name).games for turn in game.turns]
        assert len(turns) == len(rows), name
        for (number, turn), row in zip(turns, rows):
            assert (number, turn.side, turn.position_id_before, turn.position_id_after) == (
                row["game"],
                row["player"],
                row["position_id"],
                row["result_id"],
            ), (name, turn.line)
            checked += 1
    assert checked == 9339


def test_the_crawford_game_is_derived_from_the_scores():
    report = report_of("bglib__BlueNote-nori-2009Feb261959.txt")
    assert report.crawford_game == 5
    assert [game.crawford for game in report.games] == [False, False, False, False, True, False, False, False]
    assert report.games[5].cube_actions[0].action == "double"


def test_a_one_point_match_won_with_a_gammon_ends_two_to_nothing_without_crawford():
    report = report_of("bglib__NIUSHA-nori-2009Mar220029.txt")
    assert report.final_score == (2, 0)
    assert report.crawford_game is None
    assert report.games[0].result is GameResult.GAMMON
    assert report.winner == 0


def test_an_unfinished_last_game_has_no_winner_and_the_match_is_not_over():
    report = report_of("bglib__py199-nori-2009Jan171407.txt")
    last = report.games[-1]
    assert (last.winner, last.points, last.result) == (None, 0, GameResult.UNFINISHED)
    assert report.final_score == (6, 3)
    assert report.finished is False
    assert report.ok


def test_the_json_form_names_players_games_and_final_score():
    data = report_of("bglib__1857896.txt").to_dict()
    assert data["players"] == ["bgnori", "i1awin"]
    assert data["match_length"] == 5
    assert data["final_score"] == [5, 1]
    assert data["crawford_game"] == 5
    assert data["ok"] is True
    assert data["games"][1] | {"cube_actions": None} == {
        "number": 2,
        "score_before": [1, 0],
        "winner": 0,
        "winner_name": "bgnori",
        "points": 2,
        "cube": 2,
        "result": "single",
        "kind": "single",
        "crawford": False,
        "cube_actions": None,
        "plays": 50,
        "verified": True,
    }
    assert json.loads(json.dumps(report_of("gbf__test.txt").to_dict(turns=True)))["games"][0]["turns"][0] == {
        "side": 0,
        "dice": [5, 1],
        "notation": "24/23 13/8",
        "steps": [[13, 8], [24, 23]],
        "position_id_before": "4HPwATDgc/ABMA",
        "position_id_after": "4PPgASjgc/ABMA",
        "move": 1,
        "line": 21,
    }


# --- altered files are refused, with the game, move and line named ---------------------------

_FIRST_MOVE = re.compile(r"(?P<dice>[1-6][1-6]): (?P<from>\d+|bar|Bar)/(?P<to>\d+)")


def _plays_to_alter(name: str, count: int) -> list[Roll]:
    """Rolls whose first move lands on point 2 or higher and whose play bears nothing off."""
    match_file = read_match_file(text_of(name))
    found = []
    for game in match_file.games:
        rolls = [a for a in game.actions if isinstance(a, Roll) and a.play and not a.unplayed]
        usable = [
            r for r in rolls if "/0" not in r.play and "off" not in r.play.lower() and _first_target(r) >= 2
        ]
        if usable:
            found.append(usable[len(usable) // 2])
    return found[:count]


def _first_target(roll: Roll) -> int:
    match = re.match(r"(?:\d+|bar)/(\d+)", roll.play, re.IGNORECASE)
    return int(match.group(1)) if match else 0


def _alter_play(text: str, roll: Roll) -> str:
    lines = text.splitlines(keepends=True)
    line = lines[roll.line - 1]
    dice = f"{roll.dice[0]}{roll.dice[1]}:"
    start = line.index(dice, 5 if roll.side == 0 else 20)
    match = _FIRST_MOVE.match(line, start)
    assert match, line
    altered = f"{match.group('dice')}: {match.group('from')}/{int(match.group('to')) - 1}"
    lines[roll.line - 1] = line[: match.start()] + altered + line[match.end() :]
    return "".join(lines)


ALTERED_FILES = [
    "bglib__1857896.txt",
    "bglib__BlueNote-nori-2009Feb261959.txt",
    "bglib__massie-nori-2009Feb152158.txt",
    "gbf__test.txt",
    "lazyBG__match3.txt",
    "gnubgparser__charlot1-charlot2_7p_2025-11-08-2305.mat",
]


@pytest.mark.parametrize("name", ALTERED_FILES)
def test_a_play_moved_one_pip_is_refused_with_its_game_and_move(name):
    for roll in _plays_to_alter(name, 3):
        report = verify_match_file(_alter_play(text_of(name), roll))
        assert not report.ok
        first = report.errors[0]
        game = next(g for g in read_match_file(text_of(name)).games if roll in g.actions)
        assert (first.kind, first.game, first.move, first.line) == (
            ErrorKind.ILLEGAL_PLAY,
            game.number,
            roll.row,
            roll.line,
        )
        assert f"game {game.number}, move {roll.row} (line {roll.line})" in str(first)
        assert "legal:" in first.message
        # Only that game is affected: its rest is unverifiable, the other games still check out.
        assert {error.game for error in report.errors} == {game.number}
        assert {error.kind for error in report.errors[1:]} <= {ErrorKind.UNVERIFIABLE}
        assert report.final_score == report_of(name).final_score
        assert report.games[game.number - 1].result is GameResult.UNVERIFIED


def _alter_score_line(text: str, game_line: int, side: int) -> str:
    lines = text.splitlines(keepends=True)
    index = game_line  # the score line follows the "Game N" line
    scores = list(re.finditer(r":\s*(\d+)", lines[index]))
    target = scores[side]
    value = int(target.group(1)) + 1
    lines[index] = lines[index][: target.start(1)] + str(value) + lines[index][target.end(1) :]
    return "".join(lines)


@pytest.mark.parametrize("name", ALTERED_FILES)
def test_a_wrong_score_line_is_refused_with_its_game_and_line(name):
    match_file = read_match_file(text_of(name))
    for game in match_file.games[1:4]:
        for side in (0, 1):
            report = verify_match_file(_alter_score_line(text_of(name), game.line, side))
            assert [(e.kind, e.game, e.line) for e in report.errors] == [
                (ErrorKind.SCORE, game.number, game.line + 1)
            ]
            declared = list(game.score)
            declared[side] += 1
            expected_text = f"the score line says {declared[0]}-{declared[1]}, the results before it make {game.score[0]}-{game.score[1]}"
            assert report.errors[0].message == expected_text


def test_a_wrong_wins_line_after_a_drop_is_refused():
    text = text_of("bglib__1857896.txt")
    altered = text.replace("      Wins 1 point\n\n Game 2", "      Wins 2 points\n\n Game 2", 1)
    report = verify_match_file(altered)
    assert [(e.kind, e.game, e.line) for e in report.errors] == [(ErrorKind.RESULT, 1, 18)]
    assert report.errors[0].message == "a double refused with the cube on 1 is worth 1 point, the file says 2"


def test_a_double_in_the_crawford_game_is_refused_with_its_move():
    name = "bglib__1857896.txt"
    match_file = read_match_file(text_of(name))
    transcript = MatchTranscript.from_match_file(match_file, report_of(name))
    crawford = transcript.games[4]
    opening = crawford.actions[:2]
    doubler = 1 - opening[-1].side
    altered_game = type(crawford)(
        winner=doubler,
        points=1,
        actions=opening + (TranscriptCube(doubler, CubeWord.DOUBLE, 2), TranscriptCube(1 - doubler, CubeWord.DROP)),
        score_before=crawford.score_before,
    )
    altered = write_match_file(
        MatchTranscript(transcript.players, 5, transcript.games[:4] + (altered_game,))
    )
    report = verify_match_file(altered)
    assert [(e.kind, e.game, e.move) for e in report.errors] == [(ErrorKind.CRAWFORD, 5, 2)]
    assert report.errors[0].message == "game 5 is the Crawford game: the cube cannot be turned"


def test_a_game_after_the_end_of_the_match_is_refused():
    name = "bglib__tavison-nori-2009Mar052149.txt"
    text = text_of(name)
    final = report_of(name).final_score
    last = read_match_file(text).games[-1]
    block = "\n".join(text.splitlines()[last.line - 1 :])
    extra = re.sub(r"Game \d+", f"Game {last.number + 1}", block, count=1)
    scores = iter(final)
    extra = re.sub(r"(:\s*)\d+", lambda m: m.group(1) + str(next(scores)), extra, count=2)
    report = verify_match_file(text.rstrip("\n") + "\n\n" + extra + "\n")
    kinds = [(e.kind, e.game) for e in report.errors]
    assert kinds == [(ErrorKind.AFTER_END, last.number + 1)]
    assert report.errors[0].message.startswith(f"The match ended at {final[0]}–{final[1]} after game")


def test_a_file_that_resumes_a_match_at_double_match_point_is_post_crawford():
    text = """\
 5 point match

 Game 7
 Ann : 4                              Bob : 4
  1) 31: 8/5 6/5                      Doubles => 2
  2)  Drops                           Wins 1 point and the match
"""
    report = verify_match_file(text)
    assert report.errors == ()
    assert (report.final_score, report.winner, report.crawford_game) == ((4, 5), 1, None)


def test_every_dialect_writes_the_full_value_of_a_last_game_that_passes_the_match_length():
    """FIBS (numeric and -nori- files), GNU Backgammon and Backgammon Studio: none cuts `Wins`."""
    surplus = {}
    for name in names():
        report = report_of(name)
        assert report.notes == (), name
        last = report.games[-1] if report.games else None
        if report.finished and last.points > report.match_length - last.score_before[last.winner]:
            assert last.declared_points == last.points, name
            surplus[name.split("__")[0]] = surplus.get(name.split("__")[0], 0) + 1
    assert surplus == {"bglib": 25, "gnubgparser": 1, "lazyBG": 1}
