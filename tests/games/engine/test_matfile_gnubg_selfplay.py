"""Match files written by a live GNU Backgammon playing itself, verified against its own results.

GNU Backgammon (the `gnubg` program, Debian package `gnubg`) plays a handful of short matches
against itself at 0-ply with evaluation noise (so that it doubles, takes, drops, resigns and
sometimes plays out gammons and backgammons), exports each as `.mat` and saves it as `.sgf`. The
`.sgf` record is GNU Backgammon's own account of each game (score before it, winner, points,
whether it was the Crawford game); `verify_match_file` must find exactly the same from the `.mat`
text. Besides plain matches of 1 to 7 points (one of even length) they include a nackgammon
match, a long left name (GNU Backgammon then writes no space between the left score and the right
name) with a right name starting with a digit, a money session with beavers and raccoons, and a
match stopped after two games. One GNU Backgammon process plays them all in about 15 seconds.

GNU Backgammon is a test oracle only. Skipped where the program is not installed.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from games.engine.matfile import verify_match_file

pytestmark = pytest.mark.gnubg


def _gnubg() -> str | None:
    found = shutil.which("gnubg")
    if found:
        return found
    return "/usr/games/gnubg" if Path("/usr/games/gnubg").exists() else None


GNUBG = _gnubg()
needs_gnubg = pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (gnubg) is not installed")


@dataclasses.dataclass(frozen=True)
class SelfPlay:
    """One match (or money session) for GNU Backgammon to play against itself.

    `noise` is the evaluation noise of (left checker play, left cube, right checker play, right
    cube): noisy cube decisions bring doubles, takes and drops; in money play a calm right player
    against a noisy left one brings beavers and raccoons. `games` stops a match or session after
    that many games (0: a match is played to the end).
    """

    name: str
    length: int
    seed: int
    names: tuple[str, str] = ("Alice", "Bob")
    variation: str = "standard"
    noise: tuple[float, float, float, float] = (0.05, 0.3, 0.2, 0.6)
    games: int = 0


MATCHES = [
    SelfPlay("one_point", 1, 101),
    SelfPlay("three_points", 3, 102, names=("Joe Smith", "Ann Lee")),
    SelfPlay("five_points_with_a_take", 5, 304),
    SelfPlay("seven_points", 7, 104),
    SelfPlay("even_length", 4, 105),
    SelfPlay("long_left_name", 3, 106, names=("Bartholomew_Fitzgerald_Mont", "2Fast")),
    SelfPlay("nackgammon", 3, 107, variation="nackgammon"),
    SelfPlay("unfinished", 9, 108, games=2),
    SelfPlay("money_with_beavers", 0, 509, noise=(0.2, 0.1, 0.0, 0.0), games=2),
]


def _commands(directory: Path) -> str:
    lines = []
    for match in MATCHES:
        for side in (0, 1):
            checker, cube = match.noise[2 * side : 2 * side + 2]
            lines += [
                f"set player {side} gnubg",
                f"set player {side} chequerplay evaluation plies 0",
                f"set player {side} cubedecision evaluation plies 0",
                f"set player {side} chequerplay evaluation noise {checker}",
                f"set player {side} cubedecision evaluation noise {cube}",
            ]
        lines += [
            f'set defaultnames "{match.names[0]}" "{match.names[1]}"',
            f"set variation {match.variation}",
            f"set automatic game {'off' if match.games else 'on'}",
            f"set seed {match.seed}",
        ]
        if match.length:
            lines.append(f"new match {match.length}")
        else:
            lines += ["set jacoby off", "set beavers 3", "new session"]
        lines += ["new game"] * max(match.games - 1, 0)
        lines += [
            f"export match mat {directory / (match.name + '.mat')}",
            f"save match {directory / (match.name + '.sgf')}",
        ]
    return "\n".join(lines + ["quit", ""])


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("gnubg")
    completed = subprocess.run(
        [GNUBG, "-t", "-q", "-r"],
        input=_commands(directory),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    missing = [m.name for m in MATCHES if not (directory / (m.name + ".sgf")).exists()]
    assert not missing, f"GNU Backgammon wrote no file for {missing}:\n{completed.stdout[-2000:]}{completed.stderr}"
    return directory


@dataclasses.dataclass(frozen=True)
class GnubgGame:
    score_before: tuple[int, int]
    winner: int
    points: int
    crawford: bool


def gnubg_record(sgf: str) -> tuple[tuple[str, str], int, list[GnubgGame]]:
    """Players, match length and games as GNU Backgammon's `.sgf` records them.

    Each game is a tree whose root node holds `MI[length:L][game:G][ws:A][bs:B]` (the score
    before it, white = left column), `RE[W+2]` (`R` appended for a resignation) and, for the
    Crawford game, `RU[Crawford:CrawfordGame]`.
    """
    games = []
    players = ("", "")
    length = 0
    for tree in sgf.split("(;FF[4]")[1:]:
        root = tree.split("\n;", 1)[0]
        info = re.search(r"MI\[length:(\d+)\]\[game:\d+\]\[ws:(\d+)\]\[bs:(\d+)\]", root)
        result = re.search(r"RE\[([WB])\+(\d+)", root)
        rules = re.search(r"RU\[([^\]]*)\]", root)
        players = (re.search(r"PW\[([^\]]*)\]", root).group(1), re.search(r"PB\[([^\]]*)\]", root).group(1))
        length = int(info.group(1))
        games.append(
            GnubgGame(
                score_before=(int(info.group(2)), int(info.group(3))),
                winner=0 if result.group(1) == "W" else 1,
                points=int(result.group(2)),
                crawford=bool(rules and "CrawfordGame" in rules.group(1)),
            )
        )
    return players, length, games


@needs_gnubg
@pytest.mark.parametrize("match", MATCHES, ids=[m.name for m in MATCHES])
def test_our_reading_of_gnubg_self_play_equals_gnubg_own_record(played, match):
    players, length, games = gnubg_record((played / (match.name + ".sgf")).read_text(encoding="utf-8"))
    report = verify_match_file((played / (match.name + ".mat")).read_text(encoding="utf-8"))

    assert report.errors == ()
    assert report.match_length == length == match.length
    assert report.players == players
    ours = [GnubgGame(g.score_before, g.winner, g.points, g.crawford) for g in report.games]
    assert ours == games
    last = games[-1]
    final = list(last.score_before)
    final[last.winner] += last.points
    assert report.final_score == tuple(final)
    if length and max(final) >= length:
        assert report.winner == (0 if final[0] >= length else 1)
        assert report.crawford_game == next((i + 1 for i, g in enumerate(games) if g.crawford), None)
    else:
        assert report.winner is None
        assert report.finished is False


CUT_DOWN = """\
 3 point match

 Game 1
 Alice : 1                      Bob : 2
  1)                             54: 24/20 20/15
  2) 64: 24/20 24/18             22: 15/13 13/11 13/11 13/11
  3)  Doubles => 2                Takes
  4) 65: 20/15 15/9              55: 13/8 11/6 6/1 6/1
                                  Wins 1 point and the match
"""

_READ_BACK = """\
import gnubg, json
for path in PATHS:
    gnubg.command("import mat " + path)
    info = gnubg.match()["games"][0]["info"]
    print("RESULT " + json.dumps([info["winner"], info["points-won"]]))
"""


@needs_gnubg
def test_gnubg_reads_a_last_result_cut_down_at_its_full_value_as_crawford_does(tmp_path):
    files = []
    for points in (1, 2):
        path = tmp_path / f"cut{points}.mat"
        path.write_text(CUT_DOWN.replace("Wins 1 point", f"Wins {points} point{'s' * (points > 1)}"))
        files.append(path)
    script = tmp_path / "read_back.py"
    script.write_text(f"PATHS = {[str(path) for path in files]!r}\n" + _READ_BACK)
    completed = subprocess.run(
        [GNUBG, "-t", "-q", "-r", "-p", str(script)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    read = [line.split(" ", 1)[1] for line in completed.stdout.splitlines() if line.startswith("RESULT ")]
    assert read == ['["O", 2]', '["O", 2]'], completed.stdout[-2000:] + completed.stderr
    ours = [verify_match_file(path.read_text()) for path in files]
    assert [(r.games[0].winner, r.games[0].points, r.ok) for r in ours] == [(1, 2, True), (1, 2, True)]
    assert [len(r.notes) for r in ours] == [1, 0]
