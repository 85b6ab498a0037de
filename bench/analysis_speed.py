"""Analysis throughput: real match files analysed by GNU Backgammon, in matches per minute.

    python bench/analysis_speed.py [--plies N] [FOLDER]

Runs `analysis.gnubg.analyse_files` (the code the worker runs) on every match file of FOLDER
(default ../shared/data/matfiles): once one process per file, as the worker does for each new
upload, and once in batches of ten, as `manage.py analyse --all` does. Prints matches per minute,
the mean and slowest time per match, and the average length of the matches. Needs `gnubg`.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analysis import gnubg  # noqa: E402
from config.shared_data import SHARED_DATA  # noqa: E402

DEFAULT = SHARED_DATA / "matfiles"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--plies", type=int, default=0)
    args = parser.parse_args()
    if gnubg.find_program() is None:
        print("GNU Backgammon (gnubg) is not installed: nothing to measure.")
        return
    files = {p.name: p.read_text(encoding="utf-8", errors="replace")
             for p in sorted(args.folder.glob("*")) if p.suffix in (".txt", ".mat")}
    print(f"{len(files)} match files, {args.plies}-ply, GNU Backgammon at {gnubg.find_program()}")

    times, moves = [], []
    for name, text in files.items():
        start = time.perf_counter()
        result = gnubg.analyse_files({name: text}, plies=args.plies)[name]
        times.append(time.perf_counter() - start)
        if not isinstance(result, gnubg.AnalysisError):
            moves.append(sum(side.total_moves for side in result.sides))
    total = sum(times)
    print(f"one process a match : {len(files) / total * 60:7.1f} matches/min; mean {statistics.mean(times):.2f} s, "
          f"slowest {max(times):.2f} s; {statistics.mean(moves):.0f} moves a match")

    names = list(files)
    start = time.perf_counter()
    for first in range(0, len(names), 10):
        gnubg.analyse_files({n: files[n] for n in names[first:first + 10]}, plies=args.plies)
    batched = time.perf_counter() - start
    print(f"batches of ten      : {len(files) / batched * 60:7.1f} matches/min")


if __name__ == "__main__":
    main()
