"""Rating systems for backgammon, with no dependency but (optionally) numpy.

Three systems, each rating a whole history of matches in one pass:

* ``fibs`` — FIBS Elo (`FibsRating`), the rating backgammon players know;
* ``crawford`` — the variance-adjusted rating (`CrawfordRating`): Glicko-2 with the FIBS
  match-length scaling, deviation growing with time away, provisional while uncertain;
* ``skill`` — crawford, luck-adjusted (`SkillRating`): the same engine, with each analysed
  match scored by its luck-adjusted result (`MatchRecord.score`, `luck_adjusted_score`).

Each system rates a history with a vectorised engine (`run`, or `run_arrays` for a history
already in arrays) that cuts it into batches of matches sharing no player (`batches`), and
keeps its scalar, one-match-at-a-time engine (`run_sequential`) as the reference and as the
fallback without numpy; both give the same numbers.

Nothing here imports Django; the ratings app loads matches, calls
`get_system(name).run_arrays(...)` and saves what comes back.
"""

from __future__ import annotations

from typing import Any

from ratings.systems.crawford import CrawfordParameters, CrawfordRating
from ratings.systems.fibs import FibsRating
from ratings.systems.skill import SkillRating, luck_adjusted_score
from ratings.systems.history import (
    MatchRecord,
    PlayerRating,
    Prediction,
    RatingChange,
    RatingInputError,
    RunResult,
    UnknownRatingSystemError,
)

SYSTEMS: dict[str, type[FibsRating] | type[CrawfordRating]] = {
    "fibs": FibsRating,
    "crawford": CrawfordRating,
    "skill": SkillRating,
}
"""Every rating system by the name it goes by."""


def get_system(name: str, **options: Any) -> FibsRating | CrawfordRating:
    """The rating system called `name`, built with `options` (e.g. `parameters=` for crawford,
    `experience_includes_current=` for fibs). Raises `UnknownRatingSystemError`, a
    `ValueError`, naming the known systems."""
    try:
        system = SYSTEMS[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(SYSTEMS))
        raise UnknownRatingSystemError(f"no rating system is called {name!r}; known systems: {known}") from None
    return system(**options)


__all__ = [
    "SYSTEMS",
    "CrawfordParameters",
    "CrawfordRating",
    "FibsRating",
    "MatchRecord",
    "PlayerRating",
    "Prediction",
    "RatingChange",
    "RatingInputError",
    "RunResult",
    "SkillRating",
    "UnknownRatingSystemError",
    "get_system",
    "luck_adjusted_score",
]
