"""Legal-play throughput: positions per second, on GNU Backgammon's 3,000 known positions and on
positions from random games, beside GNU Backgammon's own move generator where it is installed.

    .venv/bin/python bench/movegen.py

Each figure is the best of five runs over the whole set. "with notation" also writes every
play's GNU Backgammon notation, which ``legal_plays`` otherwise leaves until it is asked for.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.plays import legal_plays  # noqa: E402
from games.engine.position import Position  # noqa: E402
from config.shared_data import SHARED_DATA  # noqa: E402

DATA = SHARED_DATA / "positions.jsonl"
RUNS = 5


def known_positions() -> list[tuple[Position, tuple[int, int]]]:
    if not DATA.exists():
        return []
    with DATA.open() as lines:
        rows = [json.loads(line) for line in lines]
    return [(Position.from_position_id(row["position_id"]), tuple(row["dice"])) for row in rows]


def random_game_positions(count: int, seed: int = 1) -> list[tuple[Position, tuple[int, int]]]:
    """Positions met in games where both sides choose a random legal play, with a fresh roll."""
    rng = random.Random(seed)
    found: list[tuple[Position, tuple[int, int]]] = []
    while len(found) < count:
        position = Position.initial()
        while len(found) < count and position.outcome() is None:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            found.append((position, dice))
            position = rng.choice(legal_plays(position, dice)).position.swap()
    return found


def best_rate(action, cases) -> float:
    best = float("inf")
    for _ in range(RUNS):
        start = time.perf_counter()
        action(cases)
        best = min(best, time.perf_counter() - start)
    return len(cases) / best


def ours(cases) -> None:
    for position, dice in cases:
        legal_plays(position, dice)


def ours_with_notation(cases) -> None:
    for position, dice in cases:
        for play in legal_plays(position, dice):
            play.notation


def gnubg_runner():
    try:
        import gnubg_nn
    except ImportError:
        return None

    def run(boards) -> None:
        moves = gnubg_nn.moves
        for board, (first, second) in boards:
            moves(board, first, second)

    def prepare(cases):
        return [
            (gnubg_nn.board_from_position_id(position.position_id()), dice)
            for position, dice in cases
        ]

    return prepare, run


def main() -> None:
    sets = []
    known = known_positions()
    if known:
        sets.append(("GNU Backgammon's 3,000 known positions", known))
    else:
        print(f"(known positions not found at {DATA})")
    sets.append(("10,000 positions from random games", random_game_positions(10_000)))
    gnubg = gnubg_runner()
    print(f"{'positions':<40} {'engine':>12} {'with notation':>15} {'GNU Backgammon':>16}")
    for label, cases in sets:
        plays = sum(len(legal_plays(position, dice)) for position, dice in cases)
        engine = best_rate(ours, cases)
        with_notation = best_rate(ours_with_notation, cases)
        if gnubg:
            prepare, run = gnubg
            reference = f"{best_rate(run, prepare(cases)):>12,.0f} /s"
        else:
            reference = "not installed"
        print(f"{label:<40} {engine:>10,.0f} /s {with_notation:>13,.0f} /s {reference:>16}")
        print(f"{'':<40} ({plays / len(cases):.1f} plays per position on average)")


if __name__ == "__main__":
    main()
