"""GNU Backgammon as a separate program: analyse match files with it, read its figures back.

Crawford never imports GNU Backgammon. It writes each match file into a private temporary folder
under a fixed name, writes a short script for the program's embedded Python, runs
`gnubg -t -q -p script.py` with a time limit and no shell, and reads the JSON the script wrote.
Player names, file contents and the like never reach a command line.

Pure Python: no Django here, so it can be used and tested on its own.

The figures are GNU Backgammon's, with its definitions (all equities in EMG, normalised to a
cube of 1):

- chequer error rate = chequer error total / unforced moves × 1000 (mEMG per decision);
- cube error rate = cube error total / close or actual cube decisions × 1000;
- overall error rate = (chequer + cube error) / (unforced moves + close cube decisions) × 1000;
- Snowie error rate = (chequer + cube error) / (both players' moves) × 1000;
- luck rate = luck total / the player's moves × 1000;
- PR, the Performance Rating players know from eXtreme Gammon, = overall error rate / 2
  (average equity lost per decision × 500).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_PROGRAM = "gnubg"
SEARCH_PATH = ("/usr/games", "/usr/local/games", "/usr/local/bin", "/opt/homebrew/bin")
WORST_KEPT = 5


class AnalysisError(RuntimeError):
    """GNU Backgammon could not analyse a file: missing program, time out, or a file it refused."""


def find_program(program: str | None = None) -> str | None:
    """The path of the `gnubg` program, or None when it is not installed."""
    name = program or DEFAULT_PROGRAM
    if os.path.sep in name:
        return name if os.access(name, os.X_OK) else None
    found = shutil.which(name)
    if found:
        return found
    for folder in SEARCH_PATH:
        candidate = os.path.join(folder, name)
        if os.access(candidate, os.X_OK):
            return candidate
    return None


@dataclass(frozen=True)
class Decision:
    """One analysed decision where a player lost equity."""

    game: int
    move: int
    """The turn number in the game (1 = the first roll of the game), as the replay counts it."""
    side: int
    """0 for the file's first (left) player, 1 for the second."""
    kind: str
    """`chequer` (cube errors are counted in the figures, not listed one by one)."""
    position_id: str
    match_id: str
    cube: int
    cube_owner: int
    """-1 while the cube is centred, else the side that owns it."""
    dice: tuple[int, int] | None
    played: str
    best: str
    equity_lost: float
    skill: str
    """GNU Backgammon's mark: `doubtful`, `bad`, `very bad` (or empty)."""


@dataclass(frozen=True)
class SideFigures:
    """One player's figures for the whole match, as `show statistics match` prints them."""

    total_moves: int
    unforced_moves: int
    doubtful: int
    bad: int
    very_bad: int
    chequer_error: float
    close_cube_decisions: int
    total_cube_decisions: int
    doubles: int
    takes: int
    passes: int
    cube_error: float
    luck: float
    actual_result: float
    luck_adjusted_result: float
    error_based_fibs_rating: float

    @property
    def chequer_error_rate(self) -> float:
        return self.chequer_error / self.unforced_moves * 1000 if self.unforced_moves else 0.0

    @property
    def cube_error_rate(self) -> float:
        return self.cube_error / self.close_cube_decisions * 1000 if self.close_cube_decisions else 0.0

    @property
    def decisions(self) -> int:
        return self.unforced_moves + self.close_cube_decisions

    @property
    def error_rate(self) -> float:
        total = self.chequer_error + self.cube_error
        return total / self.decisions * 1000 if self.decisions else 0.0

    @property
    def pr(self) -> float:
        return self.error_rate / 2

    @property
    def luck_rate(self) -> float:
        return self.luck / self.total_moves * 1000 if self.total_moves else 0.0


@dataclass(frozen=True)
class MatchAnalysisResult:
    names: tuple[str, str]
    plies: int
    sides: tuple[SideFigures, SideFigures]
    worst: tuple[Decision, ...] = field(default=())
    snowie_error_rates: tuple[float, float] = (0.0, 0.0)


# -- the script run inside GNU Backgammon ----------------------------------------------------------

SCRIPT = r'''
import json, sys, traceback
import gnubg

FOLDER = %(folder)r
KEYS = %(keys)r
PLIES = %(plies)d
WORST = %(worst)d


def plain(move):
    out = []
    for step in move:
        a, b = step
        out.append("%%s/%%s" %% ("bar" if a == 25 else a, "off" if b <= 0 else b))
    return " ".join(out)


def decisions(match):
    found = []
    for g_index, game in enumerate(match["games"], start=1):
        turn = 0
        cube, owner = 1, -1
        for index, record in enumerate(game["game"]):
            action = record.get("action")
            player = record.get("player")
            if action == "take":
                cube, owner = cube * 2, (0 if player == "X" else 1)
            if action != "move":
                continue
            turn += 1
            analysis = record.get("analysis") or {}
            side = 0 if player == "X" else 1
            board = record.get("board", "")
            if analysis.get("moves"):
                moves = analysis["moves"]
                chosen = analysis.get("imove", 0)
                if 0 <= chosen < len(moves) and chosen != 0:
                    lost = moves[0]["score"] - moves[chosen]["score"]
                    found.append(dict(game=g_index, move=turn, side=side, kind="chequer", position_id=board,
                                      cube=cube, cube_owner=owner, record=index,
                                      dice=list(record.get("dice") or []), played=plain(moves[chosen]["move"]),
                                      best=plain(moves[0]["move"]), equity_lost=lost,
                                      skill=analysis.get("skill", "")))
    found.sort(key=lambda d: (-d["equity_lost"], d["game"], d["move"]))
    worst = found[:WORST]
    for decision in worst:
        gnubg.navigate()
        gnubg.navigate(game=decision["game"] - 1, next=decision["record"])
        decision["match_id"] = gnubg.matchid()
    return worst


def figures(stats, side):
    s = stats[side]
    moves, cube, dice = s["moves"], s["cube"], s["dice"]
    categories = ("missed-double-below-cp", "missed-double-above-cp", "wrong-double-below-dp",
                  "wrong-double-above-tg", "wrong-take", "wrong-drop")
    cube_error = sum(cube["err-%%s-skill" %% c] for c in categories)
    return dict(total_moves=moves["total-moves"], unforced_moves=moves["unforced-moves"],
                doubtful=moves["marked"]["doubtful"], bad=moves["marked"]["bad"],
                very_bad=moves["marked"]["very bad"], chequer_error=moves["error-skill"],
                close_cube_decisions=cube["close-cube"], total_cube_decisions=cube["total-cube"],
                doubles=cube["n-doubles"], takes=cube["n-takes"], passes=cube["n-drops"], cube_error=cube_error,
                luck=dice["luck"], actual_result=dice["actual-result"],
                luck_adjusted_result=dice["luck-adjusted-result"],
                error_based_fibs_rating=s["error-based-fibs-rating"]["total"])


gnubg.command("set threads 1")
gnubg.command("set analysis chequerplay evaluation plies %%d" %% PLIES)
gnubg.command("set analysis cubedecision evaluation plies %%d" %% PLIES)
for key in KEYS:
    out = {"key": key}
    try:
        gnubg.command("new session")
        gnubg.command("import mat %%s/%%s.mat" %% (FOLDER, key))
        gnubg.command("analyse match")
        match = gnubg.match(analysis=1, boards=1, statistics=1, verbose=0)
        info = match["match-info"]
        out["names"] = [info["X"]["name"], info["O"]["name"]]
        out["sides"] = [figures(match["stats"], "X"), figures(match["stats"], "O")]
        out["decisions"] = decisions(match)
    except Exception:
        out["error"] = traceback.format_exc(limit=2)
    with open("%%s/%%s.json" %% (FOLDER, key), "w") as handle:
        json.dump(out, handle)
'''


def _limits(memory_bytes: int):
    def apply() -> None:  # runs in the child before exec
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        os.setsid()

    return apply


def _side(raw: dict) -> SideFigures:
    return SideFigures(**{name: raw[name] for name in SideFigures.__dataclass_fields__})


def _result(raw: dict, plies: int) -> MatchAnalysisResult:
    sides = (_side(raw["sides"][0]), _side(raw["sides"][1]))
    moves = sides[0].total_moves + sides[1].total_moves
    snowie = tuple(
        (s.chequer_error + s.cube_error) / moves * 1000 if moves else 0.0 for s in sides
    )
    worst = tuple(
        Decision(
            game=d["game"], move=d["move"], side=d["side"], kind=d["kind"], position_id=d["position_id"],
            match_id=d["match_id"], cube=d["cube"], cube_owner=d["cube_owner"], dice=tuple(d["dice"]) if d["dice"] else None, played=d["played"], best=d["best"],
            equity_lost=d["equity_lost"], skill=d["skill"] or "",
        )
        for d in raw["decisions"]
    )
    return MatchAnalysisResult(names=tuple(raw["names"]), plies=plies, sides=sides, worst=worst,
                               snowie_error_rates=snowie)


def analyse_files(
    files: dict[str, str], *, plies: int = 0, program: str | None = None, timeout: float = 120.0,
    memory_bytes: int = 2 * 1024**3,
) -> dict[str, MatchAnalysisResult | AnalysisError]:
    """Analyse match files (key -> `.mat` text) in one GNU Backgammon process.

    Each key answers its figures or the `AnalysisError` that file met; a file GNU Backgammon
    refuses never stops the others. Raises `AnalysisError` when the program is missing, times out
    as a whole, or dies.
    """
    path = find_program(program)
    if path is None:
        raise AnalysisError("GNU Backgammon (gnubg) is not installed: analysis is off.")
    if not 0 <= plies <= 4:
        raise AnalysisError("Analysis depth must be 0 to 4 plies.")
    with tempfile.TemporaryDirectory(prefix="crawford-gnubg-") as folder:
        keys = []
        for index, text in enumerate(files.values()):
            key = f"m{index}"
            Path(folder, f"{key}.mat").write_text(text, encoding="utf-8")
            keys.append(key)
        script = Path(folder, "analyse.py")
        script.write_text(SCRIPT % {"folder": folder, "keys": keys, "plies": plies, "worst": WORST_KEPT}, encoding="utf-8")
        env = {"PATH": "/usr/bin:/bin", "HOME": folder, "LANG": "C.UTF-8", "DISPLAY": ""}
        try:
            completed = subprocess.run(
                [path, "-t", "-q", "-r", "-p", str(script)], cwd=folder, env=env, stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout, check=False,
                preexec_fn=_limits(memory_bytes),
            )
        except subprocess.TimeoutExpired:
            raise AnalysisError(f"GNU Backgammon took longer than {timeout:.0f} s.") from None
        results: dict[str, MatchAnalysisResult | AnalysisError] = {}
        for name, key in zip(files, keys):
            out = Path(folder, f"{key}.json")
            if not out.exists():
                tail = completed.stdout.decode("utf-8", "replace")[-400:]
                results[name] = AnalysisError(f"GNU Backgammon stopped before this file (exit {completed.returncode}): {tail}")
                continue
            raw = json.loads(out.read_text(encoding="utf-8"))
            if "error" in raw:
                results[name] = AnalysisError(f"GNU Backgammon could not analyse this file: {raw['error'][-300:]}")
            else:
                results[name] = _result(raw, plies)
        return results


def analyse_file(text: str, **options) -> MatchAnalysisResult:
    """Analyse one match file; raise `AnalysisError` if it cannot be analysed."""
    result = analyse_files({"match": text}, **options)["match"]
    if isinstance(result, AnalysisError):
        raise result
    return result
