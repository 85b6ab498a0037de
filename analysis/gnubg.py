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

The worst decisions are chequer plays and cube decisions alike, each with the equity it lost in
the same unit (normalised equity, EMG). A chequer play's loss is the best play's equity less the
one made, from the move list GNU Backgammon keeps with each move. A cube decision is read from the
cube analysis it keeps with each move (the player could have doubled: no double, double/take) and
with each double (its take or pass is judged from the doubler's figures, as GNU Backgammon does).
In match play these are match winning chances; the script turns them into EMG with `gnubg.mwc2eq`
at the decision's cube and score, where a pass is worth +1, and finds the best action as GNU
Backgammon does: double when double/take and pass are both at least no double, and then the
smaller of the two. A missed double, a wrong double (too good to double when no double beats a
pass), a wrong take and a wrong pass thus lose what GNU Backgammon's "Alert: ..." lines print,
and all of a player's cube losses add up to its cube error total.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from games.engine.errors import MarkedRefusal, gettext_noop

DEFAULT_PROGRAM = "gnubg"
SEARCH_PATH = ("/usr/games", "/usr/local/games", "/usr/local/bin", "/opt/homebrew/bin")
WORST_KEPT = 5


class AnalysisError(MarkedRefusal, RuntimeError):
    """GNU Backgammon could not analyse a file: missing program, time out, or a file it refused (a
    marked message and its values, read in the reader's language: `MarkedRefusal`)."""


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
    """`chequer` or `cube`."""
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
    cube_errors_listed: tuple[float, float] = (0.0, 0.0)
    """Each side's equity lost by the cube decisions found one by one (all, not only the worst):
    equal to GNU Backgammon's own cube error total, `SideFigures.cube_error`."""


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


def without_dice(match_id):
    """The Match ID with no dice rolled yet (bits 15-20 cleared): a cube decision comes before the roll."""
    import base64
    raw = bytearray(base64.b64decode(match_id + "=" * (-len(match_id) %% 4)))
    bits = int.from_bytes(bytes(raw), "little") & ~(0x3F << 15)
    return base64.b64encode(bits.to_bytes(len(raw), "little")).decode().rstrip("=")


def cube_figures(analysis, cube, owner, side, length, score, crawford):
    """The cube decision of `side` from the analysis GNU Backgammon keeps with a move or a double:
    (no double, double/take, double/pass, the best action's equity, whether doubling is best, the
    verb). Equities are normalised (EMG), as GNU Backgammon's statistics count them: in match play
    its cube figures are match winning chances, turned into EMG by `mwc2eq` at the decision's cube
    and score; passing is worth +1 EMG. Doubling is best when double/take and pass are both at
    least no double, and is then worth the smaller of the two."""
    nd, dt, dp = analysis["nd-cubeful-eq"], analysis["dt-cubeful-eq"], 1.0
    if length:
        info = gnubg.cubeinfo(cube, owner, side, length, score, crawford)
        nd, dt = gnubg.mwc2eq(nd, info), gnubg.mwc2eq(dt, info)
    double = dt >= nd and dp >= nd
    return nd, dt, dp, min(dt, dp) if double else nd, double, "Redouble" if owner == side else "Double"


def cube_decision(base, move, position_id, played, best, lost, skill, no_dice):
    """A cube decision as `decisions` lists it (`no_dice`: shown before the roll)."""
    return dict(base, move=move, kind="cube", position_id=position_id, dice=[], played=played, best=best,
                equity_lost=lost, skill=skill, no_dice=no_dice)


def decisions(match):
    found = []
    length = match["match-info"].get("match-length", 0) or 0
    for g_index, game in enumerate(match["games"], start=1):
        info = game["info"]
        score = (info.get("score-X", 0), info.get("score-O", 0))
        crawford = 1 if info.get("crawford") else 0
        turn = 0
        cube, owner = info.get("initial-cube", 1), -1
        offer = None
        for index, record in enumerate(game["game"]):
            action = record.get("action")
            player = record.get("player")
            side = 0 if player == "X" else 1
            analysis = record.get("analysis") or {}
            base = dict(game=g_index, side=side, cube=cube, cube_owner=owner, record=index)
            if action == "double":
                offer = None
                if "nd-cubeful-eq" in analysis:
                    nd, dt, dp, best, double, verb = cube_figures(analysis, cube, owner, side, length, score, crawford)
                    offer = dict(board=record.get("board", ""), dt=dt, dp=dp, side=side)
                    lost = best - min(dt, dp)
                    if lost > 0:
                        right = ("Too good to %%s" %% verb.lower()) if nd > dp else "No %%s" %% verb.lower()
                        found.append(cube_decision(base, turn + 1, offer["board"], verb, right, lost,
                                                   analysis.get("skill", ""), True))
                continue
            if action in ("take", "drop"):
                if offer is not None:
                    dt, dp = offer["dt"], offer["dp"]
                    lost = (dt - dp) if action == "take" else (dp - dt)
                    if lost > 0:
                        played, right = ("Take", "Pass") if action == "take" else ("Pass", "Take")
                        found.append(cube_decision(base, turn + 1, offer["board"], played, right, lost,
                                                   analysis.get("skill", ""), False))
                if action == "take":
                    cube, owner = cube * 2, side
                offer = None
                continue
            if action != "move":
                continue
            turn += 1
            board = record.get("board", "")
            if "nd-cubeful-eq" in analysis:
                nd, dt, dp, best, double, verb = cube_figures(analysis, cube, owner, side, length, score, crawford)
                lost = best - nd
                if double and lost > 1e-6:
                    found.append(cube_decision(base, turn, board, "No %%s" %% verb.lower(),
                                               "%%s, %%s" %% (verb, "take" if dp > dt else "pass"), lost,
                                               analysis.get("cube-skill", ""), True))
            if analysis.get("moves"):
                moves = analysis["moves"]
                chosen = analysis.get("imove", 0)
                if 0 <= chosen < len(moves) and chosen != 0:
                    lost = moves[0]["score"] - moves[chosen]["score"]
                    found.append(dict(base, move=turn, kind="chequer", position_id=board,
                                      dice=list(record.get("dice") or []), played=plain(moves[chosen]["move"]),
                                      best=plain(moves[0]["move"]), equity_lost=lost,
                                      skill=analysis.get("skill", ""), no_dice=False))
    return found


def worst_of(found):
    found = sorted(found, key=lambda d: (-d["equity_lost"], d["game"], d["move"], d["kind"] != "cube"))
    worst = found[:WORST]
    for decision in worst:
        gnubg.navigate()
        gnubg.navigate(game=decision["game"] - 1, next=decision["record"])
        match_id = gnubg.matchid()
        decision["match_id"] = without_dice(match_id) if decision.pop("no_dice") else match_id
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
        found = decisions(match)
        out["decisions"] = worst_of(found)
        out["cube_errors_listed"] = [sum(d["equity_lost"] for d in found if d["kind"] == "cube" and d["side"] == s)
                                     for s in (0, 1)]
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
                               snowie_error_rates=snowie, cube_errors_listed=tuple(raw["cube_errors_listed"]))


def analyse_files(
    files: dict[str, str], *, plies: int = 0, program: str | None = None, timeout: float = 120.0,
    memory_bytes: int = 2 * 1024**3, heartbeat: Callable[[], object] | None = None, heartbeat_every: float = 30.0,
) -> dict[str, MatchAnalysisResult | AnalysisError]:
    """Analyse match files (key -> `.mat` text) in one GNU Backgammon process.

    Each key answers its figures or the `AnalysisError` that file met; a file GNU Backgammon
    refuses never stops the others. Raises `AnalysisError` when the program is missing, times out
    as a whole, or dies. `heartbeat()` is called every `heartbeat_every` seconds while GNU
    Backgammon runs (a long analysis tells the others it is alive).
    """
    path = find_program(program)
    if path is None:
        raise AnalysisError(gettext_noop("GNU Backgammon (gnubg) is not installed: analysis is off."))
    if not 0 <= plies <= 4:
        raise AnalysisError(gettext_noop("Analysis depth must be 0 to 4 plies."))
    with tempfile.TemporaryDirectory(prefix="crawford-gnubg-") as folder:
        keys = []
        for index, text in enumerate(files.values()):
            key = f"m{index}"
            Path(folder, f"{key}.mat").write_text(text, encoding="utf-8")
            keys.append(key)
        script = Path(folder, "analyse.py")
        script.write_text(SCRIPT % {"folder": folder, "keys": keys, "plies": plies, "worst": WORST_KEPT}, encoding="utf-8")
        env = {"PATH": "/usr/bin:/bin", "HOME": folder, "LANG": "C.UTF-8", "DISPLAY": ""}
        process = subprocess.Popen(
            [path, "-t", "-q", "-r", "-p", str(script)], cwd=folder, env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, preexec_fn=_limits(memory_bytes),
        )
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                output, _ = process.communicate(timeout=max(0.0, min(left, heartbeat_every)))
                break
            except subprocess.TimeoutExpired:
                if time.monotonic() >= deadline:
                    process.kill()
                    process.communicate()
                    raise AnalysisError(gettext_noop("GNU Backgammon took longer than %(seconds)s s."),
                                        seconds=f"{timeout:.0f}") from None
                if heartbeat is not None:
                    heartbeat()
        completed = subprocess.CompletedProcess(process.args, process.returncode, output)
        results: dict[str, MatchAnalysisResult | AnalysisError] = {}
        for name, key in zip(files, keys):
            out = Path(folder, f"{key}.json")
            if not out.exists():
                tail = completed.stdout.decode("utf-8", "replace")[-400:]
                results[name] = AnalysisError(gettext_noop("GNU Backgammon stopped before this file (exit %(code)s): %(output)s"),
                                              code=completed.returncode, output=tail)
                continue
            raw = json.loads(out.read_text(encoding="utf-8"))
            if "error" in raw:
                results[name] = AnalysisError(gettext_noop("GNU Backgammon could not analyse this file: %(error)s"),
                                              error=raw["error"][-300:])
            else:
                results[name] = _result(raw, plies)
        return results
