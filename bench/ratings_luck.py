"""Does rating by the luck-adjusted result predict better? A league of GNU Backgammon bots.

    python bench/ratings_luck.py [--quick | --matches N] [--workers 2] [--cache FOLDER]

1. A league of bots of known strength, played by GNU Backgammon itself: every bot is gnubg at
   0-ply with its own evaluation noise on chequer play and cube decisions (`set player N
   chequerplay evaluation noise …`, deterministic noise; more noise, weaker bot). Matches are
   played move by move with the cube, gammons and the Crawford rule, each from its own dice seed
   (`set seed`), lengths 1, 3, 5 and 7 points in turn, four matches a day, pairs drawn at random
   (a fixed seed), and saved as .mat files (`export match mat`) under `.cache/bot-league/`
   (gitignored; made on first use, reused after: delete it to play the league again).
2. Every match is analysed with Crawford's own analysis code (`analysis/gnubg.py`, 0-ply), as
   the site analyses an uploaded match; the figures are cached beside the files.
3. The league is replayed in time order. Each system is trained on the first 80% of the matches
   by date; its ratings at the cut predict the winner of every match in the last 20% (frozen:
   no update inside the held-out part). Scores: log loss per length and overall, a reliability
   table (the predicted chance of player A in bins against how often A won), and the paired
   bootstrap interval (2,000 resamples of the held-out matches) of each model's log loss minus
   FIBS's, and minus crawford's.

Models: FIBS; crawford (the current default: Glicko-2 with S(N), both deviations); skill (the
same engine, analysed matches scored 0.5 + luck-adjusted result, clamped to [0, 1]); skill/2, the
mapping not chosen (0.5 + LAR/2, a neutral win worth 0.75), for comparison; prskill (the same
engine, each analysed match's PR difference also taken in as a measurement of the rating
difference, `ratings/systems/prskill.py`; its weight, β and s, fitted on the training matches by
`fit_error_rate_weight`) and prskill/rel (one decision's spread in proportion to the player's
PR + 1); and the true-skill floor, a
forecast from the bots' true strengths: P(A wins an N-point match) = σ(β_N·(noise_B − noise_A)),
one slope per length fitted by maximum likelihood on the training 80% (it knows every bot's
noise, learns only how much a unit of noise is worth over N points; no rating system can know
more about these bots than their noise). `--quick` plays and rates the first 96 matches of the
same league (a subset of the full run's cache), for a check within ~3 minutes.

Measured 27 Nov 2026 (full league, 960 training and 240 held-out matches; log loss, and the
model minus crawford with its 95% paired bootstrap interval; docs/ratings.md has the rest):

    length    n    fibs  crawford   skill  prskill  prskill/rel   true   prskill − crawford
       all  240  0.4788    0.4481  0.4729   0.4446       0.4442 0.4311   −0.0035 [−0.0132, +0.0074]
         1   60  0.5858    0.5569  0.5884   0.5447       0.5509 0.5384   −0.0122 [−0.0215, −0.0027]
         3   60  0.5062    0.4923  0.5006   0.4934       0.4917 0.4892   +0.0011 [−0.0184, +0.0235]
         5   60  0.4674    0.4527  0.4636   0.4616       0.4504 0.4477   +0.0089 [−0.0144, +0.0359]
         7   60  0.3560    0.2904  0.3389   0.2787       0.2838 0.2490   −0.0117 [−0.0330, +0.0131]

prskill fitted β 47.4 rating points per PR point and s 58.1 PR points per decision: ahead of
FIBS at every length, level with crawford within the noise (behind at 3 and 5 points), so not
adopted.

Two gnubg processes at most (`--workers`): the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analysis.gnubg import AnalysisError, analyse_files, find_program  # noqa: E402
from ratings.systems import FibsRating, MatchRecord, get_system  # noqa: E402
from ratings.systems.prskill import AnalysedMatch, PrSkillParameters, PrSkillRating, fit_error_rate_weight  # noqa: E402
from ratings.systems.skill import luck_adjusted_score  # noqa: E402

CACHE = ROOT / ".cache" / "bot-league"
LENGTHS = (1, 3, 5, 7)
NOISES = (0.0, 0.006, 0.012, 0.018, 0.024, 0.03, 0.036, 0.042, 0.048, 0.054, 0.06, 0.066)
"""Each bot's evaluation noise (gnubg's equity units): bot00 plays 0-ply without noise."""
FULL_MATCHES = 1200
QUICK_MATCHES = 96
PER_DAY = 4
FIRST_DAY = date(2025, 1, 1)
TRAIN_SHARE = 0.8
BOOTSTRAP = 2000
BINS = (0.0, 0.2, 0.35, 0.5, 0.65, 0.8, 1.0)


@dataclass(frozen=True)
class Scheduled:
    number: int
    played_on: date
    a: int
    b: int
    length: int

    @property
    def key(self) -> str:
        return f"m{self.number:05d}"


def schedule(matches: int) -> list[Scheduled]:
    """The league's matches in date order; a prefix of the full league for any `matches`."""
    rng = random.Random(14)
    out = []
    for number in range(FULL_MATCHES):
        a, b = rng.sample(range(len(NOISES)), 2)
        out.append(Scheduled(number, FIRST_DAY + timedelta(days=number // PER_DAY), a, b,
                             LENGTHS[number % len(LENGTHS)]))
    return out[:matches]


# -- playing -------------------------------------------------------------------------------------

PLAY_SCRIPT = r'''
import os, gnubg
JOBS = %(jobs)r
gnubg.command("set threads 1")
gnubg.command("set display off")
gnubg.command("set player 0 gnubg")
gnubg.command("set player 1 gnubg")
for key, length, seed, noises, target in JOBS:
    for side, noise in enumerate(noises):
        for kind in ("chequerplay", "cubedecision"):
            gnubg.command("set player %%d %%s evaluation plies 0" %% (side, kind))
            gnubg.command("set player %%d %%s evaluation noise %%.4f" %% (side, kind, noise))
            gnubg.command("set player %%d %%s evaluation deterministic on" %% (side, kind))
    gnubg.command("set seed %%d" %% seed)
    gnubg.command("new match %%d" %% length)
    part = target + ".part"
    if os.path.exists(part):
        os.remove(part)
    gnubg.command("export match mat %%s" %% part)
    os.rename(part, target)
'''


def _play(jobs: list[tuple], program: str) -> None:
    with tempfile.TemporaryDirectory(prefix="crawford-league-") as folder:
        script = Path(folder, "play.py")
        script.write_text(PLAY_SCRIPT % {"jobs": jobs}, encoding="utf-8")
        subprocess.run([program, "-t", "-q", "-r", "-p", str(script)], cwd=folder, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=3600,
                       env={"PATH": "/usr/bin:/bin", "HOME": folder, "LANG": "C.UTF-8", "DISPLAY": ""})


def play(matches: list[Scheduled], program: str, workers: int) -> int:
    """Play the matches not yet in the cache, `workers` gnubg processes at a time, in chunks."""
    missing = [m for m in matches if not (CACHE / f"{m.key}.mat").exists()]
    jobs = [(m.key, m.length, 1000 + m.number, (NOISES[m.a], NOISES[m.b]), str(CACHE / f"{m.key}.mat"))
            for m in missing]
    chunks = [jobs[i:i + 40] for i in range(0, len(jobs), 40)]
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(lambda chunk: _play(chunk, program), chunks))
    return len(missing)


# -- analysing -----------------------------------------------------------------------------------


def analyse(matches: list[Scheduled], workers: int) -> tuple[dict[str, dict], int]:
    """Each match's figures from Crawford's analysis code at 0-ply: side 0 is player A."""
    path = CACHE / "analysis.json"
    known = json.loads(path.read_text()) if path.exists() else {}
    missing = [m for m in matches if m.key not in known and (CACHE / f"{m.key}.mat").exists()]
    chunks = [missing[i:i + 25] for i in range(0, len(missing), 25)]

    def run(chunk):
        files = {m.key: (CACHE / f"{m.key}.mat").read_text(encoding="utf-8") for m in chunk}
        return analyse_files(files, plies=0, timeout=1800)

    with ThreadPoolExecutor(workers) as pool:
        for answers in pool.map(run, chunks):
            for key, result in answers.items():
                if isinstance(result, AnalysisError):
                    continue
                known[key] = {
                    "actual": [s.actual_result for s in result.sides],
                    "lar": [s.luck_adjusted_result for s in result.sides],
                    "luck": [s.luck for s in result.sides],
                    "pr": [s.pr for s in result.sides],
                    "decisions": [s.decisions for s in result.sides],
                }
            path.write_text(json.dumps(known, sort_keys=True))  # after every chunk: a stopped run keeps its work
    path.write_text(json.dumps(known, sort_keys=True))
    return known, len(missing)


# -- scoring -------------------------------------------------------------------------------------


def log_loss(p: np.ndarray, won: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return -np.where(won, np.log(p), np.log(1 - p))


def frozen_forecasts(system, train: list[MatchRecord], test: list[MatchRecord]) -> np.ndarray:
    """P(A wins) for every held-out match from the ratings at the end of training."""
    run = system.run(train, keep_changes=False)
    out = []
    for record in test:
        a = run.ratings.get(record.player_a) or system.new_rating(record.player_a)
        b = run.ratings.get(record.player_b) or system.new_rating(record.player_b)
        if isinstance(system, FibsRating):
            out.append(system.predict(a, b, record.length).p_a)
        else:
            out.append(system.predict(a, b, record.length, on=record.played_on).p_a)
    return np.array(out)


def true_skill_forecasts(train: list[MatchRecord], test: list[MatchRecord]) -> np.ndarray:
    """σ(β_N·(noise_B − noise_A)), β_N fitted per length on the training matches (Newton)."""
    slopes = {}
    for length in LENGTHS:
        x = np.array([NOISES[r.player_b] - NOISES[r.player_a] for r in train if r.length == length])
        y = np.array([r.winner == "a" for r in train if r.length == length], dtype=float)
        beta = 0.0
        for _ in range(50):
            p = 1 / (1 + np.exp(-beta * x))
            gradient = np.sum((y - p) * x)
            curvature = np.sum(p * (1 - p) * x * x)
            if curvature <= 0:
                break
            beta += gradient / curvature
        slopes[length] = beta
    return np.array([1 / (1 + math.exp(-slopes[r.length] * (NOISES[r.player_b] - NOISES[r.player_a])))
                     for r in test])


def bootstrap(diff: np.ndarray, rng: np.random.Generator) -> tuple[float, float]:
    if len(diff) == 0:
        return math.nan, math.nan
    picks = rng.integers(0, len(diff), size=(BOOTSTRAP, len(diff)))
    means = diff[picks].mean(axis=1)
    return float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def report(forecasts: dict[str, np.ndarray], test: list[MatchRecord]) -> None:
    won = np.array([r.winner == "a" for r in test])
    lengths = np.array([r.length for r in test])
    rng = np.random.default_rng(7)
    losses = {name: log_loss(p, won) for name, p in forecasts.items()}
    groups = [("all", np.ones(len(test), dtype=bool))] + [(f"{n}", lengths == n) for n in LENGTHS]
    print("\nLog loss on the held-out matches (lower is better); Δ = model − FIBS, 95% paired bootstrap")
    header = f"{'length':>6} {'n':>4} " + " ".join(f"{name:>9}" for name in forecasts)
    header += "  " + "  ".join(f"{'Δ ' + name:>24}" for name in forecasts if name != "fibs")
    print(header)
    for label, mask in groups:
        row = f"{label:>6} {int(mask.sum()):>4} " + " ".join(f"{losses[n][mask].mean():>9.4f}" for n in forecasts)
        for name in forecasts:
            if name == "fibs":
                continue
            diff = losses[name][mask] - losses["fibs"][mask]
            low, high = bootstrap(diff, rng)
            row += f"  {diff.mean():>+8.4f} [{low:+.4f}, {high:+.4f}]"
        print(row)
    others = [name for name in forecasts if name not in ("fibs", "crawford")]
    print("\nAgainst crawford: Δ = model − crawford, 95% paired bootstrap")
    print(f"{'length':>6} {'n':>4} " + "  ".join(f"{'Δ ' + name:>24}" for name in others))
    for label, mask in groups:
        row = f"{label:>6} {int(mask.sum()):>4} "
        for name in others:
            diff = losses[name][mask] - losses["crawford"][mask]
            low, high = bootstrap(diff, rng)
            row += f"  {diff.mean():>+8.4f} [{low:+.4f}, {high:+.4f}]"
        print(row)
    print("\nReliability (all held-out matches): predicted P(A wins) by bin, mean forecast / share A won (n)")
    print(f"{'bin':>11} " + " ".join(f"{name:>20}" for name in forecasts))
    for low, high in zip(BINS, BINS[1:]):
        cells = []
        for name, p in forecasts.items():
            mask = (p >= low) & ((p < high) if high < 1.0 else (p <= high))
            if mask.sum():
                cells.append(f"{p[mask].mean():.3f} / {won[mask].mean():.3f} ({int(mask.sum()):>3})")
            else:
                cells.append("—")
        print(f"{low:>4.2f}–{high:<4.2f}  " + " ".join(f"{c:>20}" for c in cells))
    print("\nCalibration error per length (mean |forecast − outcome share| over the bins, weighted by n)")
    print(f"{'length':>6} " + " ".join(f"{name:>9}" for name in forecasts))
    for label, mask in groups:
        cells = []
        for name, p in forecasts.items():
            total = 0.0
            for low, high in zip(BINS, BINS[1:]):
                inside = mask & (p >= low) & ((p < high) if high < 1.0 else (p <= high))
                if inside.sum():
                    total += inside.sum() * abs(p[inside].mean() - won[inside].mean())
            cells.append(total / max(1, mask.sum()))
        print(f"{label:>6} " + " ".join(f"{c:>9.4f}" for c in cells))


def main() -> None:
    global CACHE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"the first {QUICK_MATCHES} matches only")
    parser.add_argument("--matches", type=int, help="the first N matches of the league (a prefix of the full run)")
    parser.add_argument("--workers", type=int, default=2, help="gnubg processes at a time (at most 2)")
    parser.add_argument("--cache", type=Path, default=CACHE, help=f"where the league is kept (default {CACHE})")
    args = parser.parse_args()
    CACHE = args.cache
    workers = max(1, min(2, args.workers))
    program = find_program()
    if program is None:
        sys.exit("GNU Backgammon (gnubg) is not installed")
    CACHE.mkdir(parents=True, exist_ok=True)
    matches = schedule(args.matches or (QUICK_MATCHES if args.quick else FULL_MATCHES))
    started = time.perf_counter()
    played = play(matches, program, workers)
    t_play = time.perf_counter() - started
    figures, analysed = analyse(matches, workers)
    t_analyse = time.perf_counter() - started - t_play
    print(f"{len(matches)} matches among {len(NOISES)} bots (noise {NOISES[0]}–{NOISES[-1]}), lengths "
          f"{', '.join(map(str, LENGTHS))}; played now {played} ({t_play:.0f} s), analysed now {analysed} "
          f"({t_analyse:.0f} s), {workers} gnubg process(es)")

    plain, scored, halved, errors = [], [], [], []
    luck = []
    for m in matches:
        f = figures.get(m.key)
        if f is None:
            continue
        winner = "a" if f["actual"][0] > 0 else "b"
        plain.append(MatchRecord(m.number, m.played_on, m.a, m.b, m.length, winner))
        errors.append(AnalysedMatch(m.number, m.played_on, m.a, m.b, m.length, winner, None,
                                    f["pr"][0], f["pr"][1], *f["decisions"]))
        score = luck_adjusted_score(f["lar"][0])
        scored.append(MatchRecord(m.number, m.played_on, m.a, m.b, m.length, winner, score))
        halved.append(MatchRecord(m.number, m.played_on, m.a, m.b, m.length, winner,
                                  min(1.0, max(0.0, 0.5 + f["lar"][0] / 2))))
        luck.append(score)
    cut = int(len(plain) * TRAIN_SHARE)
    test = plain[cut:]
    print(f"train {cut} matches (to {plain[cut - 1].played_on}), test {len(test)}; luck-adjusted score of A: "
          f"mean {np.mean(luck):.3f}, sd {np.std(luck):.3f}, clamped {sum(s in (0.0, 1.0) for s in luck)}")
    weighted = fit_error_rate_weight(errors[:cut], get_system("crawford").parameters)
    relative = fit_error_rate_weight(errors[:cut], PrSkillParameters(pr_noise_relative=True))
    prs = np.array([e.pr_a for e in errors] + [e.pr_b for e in errors])
    print(f"PR per match and player: mean {prs.mean():.2f}, sd {prs.std():.2f}; fitted on the training matches: "
          f"prskill β {weighted.pr_points:.1f} rating points per PR point, s {weighted.pr_noise:.2f} PR points "
          f"per decision; prskill/rel β {relative.pr_points:.1f}, s {relative.pr_noise:.3f}·(PR + 1)")
    forecasts = {
        "fibs": frozen_forecasts(FibsRating(), plain[:cut], test),
        "crawford": frozen_forecasts(get_system("crawford"), plain[:cut], test),
        "skill": frozen_forecasts(get_system("skill"), scored[:cut], test),
        "skill/2": frozen_forecasts(get_system("skill"), halved[:cut], test),
        "prskill": frozen_forecasts(PrSkillRating(weighted), errors[:cut], test),
        "prskill/rel": frozen_forecasts(PrSkillRating(relative), errors[:cut], test),
        "true": true_skill_forecasts(plain[:cut], test),
    }
    report(forecasts, test)
    print(f"\ntotal {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
