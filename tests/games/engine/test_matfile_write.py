"""Writing .mat files: read -> write -> read keeps every game, and GNU Backgammon reads the output."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from games.engine.matfile import (
    CubeWord,
    GameTranscript,
    MatchTranscript,
    TranscriptCube,
    TranscriptRoll,
    read_match_file,
    verify_match_file,
    write_match_file,
)
from config.shared_data import SHARED_DATA

MATFILES = SHARED_DATA / "matfiles"
EXPECTED = MATFILES / "expected.json"
needs_files = pytest.mark.skipif(not EXPECTED.exists(), reason=f"real match files not found in {MATFILES}")
NAMES = sorted(json.loads(EXPECTED.read_text(encoding="utf-8"))["files"]) if EXPECTED.exists() else []
GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if os.path.exists("/usr/games/gnubg") else None)


def _games(report):
    return [
        (
            g.number,
            g.score_before,
            g.winner,
            g.points,
            g.cube,
            g.result,
            g.crawford,
            [(c.side, c.action, c.value) for c in g.cube_actions],
            [(t.side, t.dice, t.position_id_before, t.position_id_after) for t in g.turns],
        )
        for g in report.games
    ], report.final_score


def _rewritten(name: str, *, with_report: bool = True) -> str:
    match_file = read_match_file((MATFILES / name).read_text(encoding="utf-8"))
    report = verify_match_file(match_file) if with_report else None
    return write_match_file(MatchTranscript.from_match_file(match_file, report))


@needs_files
@pytest.mark.parametrize("name", NAMES)
def test_reading_the_written_file_gives_the_same_games_and_results(name):
    original = verify_match_file((MATFILES / name).read_text(encoding="utf-8"))
    rewritten = verify_match_file(_rewritten(name))
    assert rewritten.ok, rewritten.errors
    assert _games(rewritten) == _games(original)
    assert rewritten.players == original.players
    assert rewritten.match_length == original.match_length


@needs_files
@pytest.mark.parametrize("name", ["gbf__test.txt", "lazyBG__match3.txt", "bglib__1857896.txt"])
def test_plays_kept_as_written_also_survive_the_round_trip(name):
    original = verify_match_file((MATFILES / name).read_text(encoding="utf-8"))
    assert _games(verify_match_file(_rewritten(name, with_report=False))) == _games(original)


def test_games_stored_without_moves_are_written_with_their_result_line_alone():
    transcript = MatchTranscript(
        players=("Anna Smith", "Bo"),
        match_length=5,
        games=(GameTranscript(0, 2), GameTranscript(1, 1), GameTranscript(0, 4)),
        tags=(("Event", "Club night"),),
    )
    text = write_match_file(transcript, and_the_match=True)
    assert text == (
        '; [Event "Club night"]\n'
        "\n"
        " 5 point match\n"
        "\n"
        " Game 1\n"
        " Anna Smith : 0                 Bo : 0\n"
        "      Wins 2 points\n"
        "\n"
        " Game 2\n"
        " Anna Smith : 2                 Bo : 0\n"
        "                                  Wins 1 point\n"
        "\n"
        " Game 3\n"
        " Anna Smith : 2                 Bo : 1\n"
        "      Wins 4 points and the match\n"
        "\n"
    )
    report = verify_match_file(text)
    assert report.ok, report.errors
    assert [(g.winner, g.points, g.cube, g.kind.name) for g in report.games] == [
        (0, 2, 1, "GAMMON"),
        (1, 1, 1, "SINGLE"),
        (0, 4, 2, "GAMMON"),
    ]
    assert report.final_score == (6, 1)


def test_a_drop_by_the_left_player_puts_the_win_on_the_same_row():
    transcript = MatchTranscript(
        players=("A", "B"),
        match_length=3,
        games=(
            GameTranscript(
                1,
                1,
                (
                    TranscriptRoll(0, (3, 1), ((8, 5), (6, 5))),
                    TranscriptRoll(1, (4, 2), "8/4 6/4"),
                    TranscriptRoll(0, (6, 5), ((24, 18), (18, 13))),
                    TranscriptCube(1, CubeWord.DOUBLE, 2),
                    TranscriptCube(0, CubeWord.DROP),
                ),
            ),
        ),
    )
    text = write_match_file(transcript)
    assert text.splitlines() == [
        " 3 point match",
        "",
        " Game 1",
        " A : 0                          B : 0",
        "  1) 31: 8/5 6/5                 42: 8/4 6/4",
        "  2) 65: 24/18 18/13              Doubles => 2",
        "  3)  Drops                      Wins 1 point",
        "",
    ]
    report = verify_match_file(text)
    assert report.ok
    assert (report.games[0].winner, report.games[0].result.value) == (1, "drop")


@needs_files
@pytest.mark.gnubg
@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed")
def test_gnu_backgammon_reads_every_written_file_with_the_same_results(tmp_path):
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))["files"]
    for name in NAMES:
        (tmp_path / name).write_text(_rewritten(name), encoding="utf-8")
    script = tmp_path / "read_all.py"
    script.write_text(
        "import gnubg, json, os\n"
        "folder = os.environ['MATFOLDER']\n"
        "out = {}\n"
        f"for name in {NAMES!r}:\n"
        "    gnubg.command('import mat \"%s\"' % os.path.join(folder, name))\n"
        "    match = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)\n"
        "    out[name] = [[g['info'].get('score-X'), g['info'].get('score-O'), g['info'].get('winner'),"
        " g['info'].get('points-won')] for g in match['games']]\n"
        "open(os.path.join(folder, 'gnubg.json'), 'w').write(json.dumps(out))\n",
        encoding="utf-8",
    )
    subprocess.run(
        [GNUBG, "-t", "-q", "-p", str(script)],
        env=os.environ | {"MATFOLDER": str(tmp_path)},
        capture_output=True,
        timeout=300,
        check=False,
    )
    read = json.loads((tmp_path / "gnubg.json").read_text())
    for name in NAMES:
        want = [
            [g["score_before"][0], g["score_before"][1], {None: None, 0: "X", 1: "O"}[g["winner"]], g["points"] or None]
            for g in expected[name]["games"]
        ]
        assert read[name] == want, name
