"""Rating a history in pieces, each piece from the players' working state the one before left.

A run that continues from a stored state (the incremental recompute) rates only the matches
after it; a run that stores states on the way (checkpoints) stops at each cut. Both rate the
pieces with the same arithmetic as a whole run (`RatingEngine.rate_state`), so the numbers are
the same to the last bit.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np

from ratings.systems.batches import HistoryArrays
from ratings.systems.history import PROGRESS_EVERY


@dataclass(frozen=True)
class PiecewiseRun:
    """What `rate_in_pieces` produced.

    `changes` maps each per-match column (`rating_before_a`, …) to its array over the whole
    history (empty when the system keeps no such column); `state` is every player's working
    state at the end; `states_at_cuts` the state at each cut (a copy); `last_match` per player
    his last match's index in the history (−1 if none there)."""

    changes: dict
    state: dict
    states_at_cuts: list
    last_match: np.ndarray


CHANGE_COLUMNS = tuple(
    f"{name}_{side}"
    for name in ("rating_before", "rating_after", "deviation_before", "deviation_after", "expected")
    for side in "ab"
)


def rate_in_pieces(system, history: HistoryArrays, state: dict, cuts=(), progress=None) -> PiecewiseRun:
    """Rate `history` from `state` (one entry per player of the history), stopping at each of
    `cuts` (match indices, ascending: the state after the matches before the cut is kept).
    `progress(done, total)` counts matches over the whole history."""
    n = len(history.days)
    bounds = [0, *(int(cut) for cut in cuts), n]
    states_at_cuts = []
    pieces: dict[str, list] = {name: [] for name in CHANGE_COLUMNS}
    last_match = np.full(history.players, -1, dtype=np.int64)
    state = {name: np.array(values, copy=True) for name, values in state.items()}
    reported = [0]
    for number, (start, stop) in enumerate(zip(bounds[:-1], bounds[1:])):
        if number > 0:
            states_at_cuts.append({name: values.copy() for name, values in state.items()})
        if stop <= start:
            continue
        piece = HistoryArrays(
            history.match_ids[start:stop], history.days[start:stop], history.player_a[start:stop],
            history.player_b[start:stop], history.lengths[start:stop], history.a_won[start:stop], history.players,
            None if history.a_score is None else history.a_score[start:stop],
        )
        report = None if progress is None else partial(_report, progress, reported, start, n)
        run = system.rate_state(piece, state, report, True)
        state = run.state
        for name in CHANGE_COLUMNS:
            column = getattr(run, name)
            if column is not None:
                pieces[name].append(column)
        played = run.last_match >= 0
        last_match[played] = run.last_match[played] + start
    changes = {name: np.concatenate(columns) for name, columns in pieces.items() if columns}
    return PiecewiseRun(changes, state, states_at_cuts, last_match)


def _report(progress, reported: list, start: int, total: int, done: int, _piece_total: int) -> None:
    """A piece's progress as the whole history's: every PROGRESS_EVERY matches and at the end,
    as one run reports it."""
    done += start
    if done // PROGRESS_EVERY > reported[0] // PROGRESS_EVERY or (done == total and reported[0] != total):
        reported[0] = done
        progress(done, total)
