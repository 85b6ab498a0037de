"""Time to verify match files: the longest real file, and the mean over all of them.

    python bench/matfile_check.py [FOLDER]

FOLDER defaults to ../shared/data/matfiles beside the project. Verifying means reading the text,
replaying every play against the legal plays, and scoring every game.
"""

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from config.shared_data import SHARED_DATA  # noqa: E402
from games.engine.matfile import (  # noqa: E402
    GameTranscript,
    MatchTranscript,
    TranscriptCube,
    read_match_file,
    verify_match_file,
    write_match_file,
)

DEFAULT = SHARED_DATA / "matfiles"


def best_of(text: str, repeats: int) -> float:
    """The fastest of `repeats` verifications of `text`, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        verify_match_file(text)
        times.append(time.perf_counter() - start)
    return min(times)


def long_match(texts: dict[str, str], length: int = 25) -> str:
    """A `length`-point match made of real games from the files, one after another.

    Each game replays from the opening position, so real games can be chained; the score lines
    are recomputed, and the Crawford game is one without cube actions.
    """
    pool: list[GameTranscript] = []
    for text in texts.values():
        match_file = read_match_file(text)
        transcript = MatchTranscript.from_match_file(match_file, verify_match_file(match_file))
        pool.extend(dataclass_replace(game) for game in transcript.games if game.winner is not None)
    games: list[GameTranscript] = []
    score = [0, 0]
    crawford_done = False
    while max(score) < length and pool:
        crawford = not crawford_done and max(score) == length - 1
        index = 0
        if crawford:
            index = next(i for i, g in enumerate(pool) if not any(isinstance(a, TranscriptCube) for a in g.actions))
            crawford_done = True
        game = pool.pop(index)
        games.append(game)
        score[game.winner] += game.points
    return write_match_file(MatchTranscript(("Left", "Right"), length, tuple(games)))


def dataclass_replace(game: GameTranscript) -> GameTranscript:
    """The game without its recorded score line, so that the writer counts the score."""
    return GameTranscript(game.winner, game.points, game.actions)


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    files = sorted(p for p in folder.iterdir() if p.suffix in (".txt", ".mat"))
    if not files:
        print(f"no match files in {folder}")
        return
    texts = {p.name: p.read_text(encoding="utf-8") for p in files}
    plays = {name: sum(len(g.turns) for g in verify_match_file(text).games) for name, text in texts.items()}
    longest = max(plays, key=plays.get)
    report = verify_match_file(texts[longest])
    seconds = best_of(texts[longest], 5)
    print(
        f"longest file: {longest} ({report.match_length}-point match, {len(report.games)} games, "
        f"{plays[longest]} plays): {seconds * 1000:.1f} ms"
    )
    times = {name: best_of(text, 3) for name, text in texts.items()}
    total_plays = sum(plays.values())
    print(
        f"all {len(files)} files: mean {statistics.mean(times.values()) * 1000:.1f} ms a file, "
        f"{sum(times.values()) / total_plays * 1e6:.0f} µs a play ({total_plays} plays)"
    )
    match = long_match(texts)
    report = verify_match_file(match)
    assert report.ok, report.errors[:3]
    seconds = best_of(match, 5)
    turns = sum(len(g.turns) for g in report.games)
    print(
        f"a 25-point match of {len(report.games)} real games ({turns} plays, final score "
        f"{report.final_score[0]}-{report.final_score[1]}): {seconds * 1000:.1f} ms (target: under 200 ms)"
    )


if __name__ == "__main__":
    main()
