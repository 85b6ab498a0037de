"""What every rating system offers: a whole history rated in one pass, three ways.

`run` takes `MatchRecord`s and rates them with the vectorised engine (numpy), or with the scalar
one where numpy is missing; `run_sequential` always uses the scalar engine, one match after the
other (the reference the vectorised engine is tested against); `run_arrays` takes the history as
arrays, for the recompute that loads it straight from the database. A system supplies `_run`
(scalar), `_run_in_batches` (vectorised, from records) and `_rate_new_arrays` (vectorised, from
arrays, every player new).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Mapping, Sequence

from ratings.systems.history import MatchRecord, PlayerRating, ProgressCallback, RunResult, collector_paused

try:
    from ratings.systems import batches
except ImportError:  # numpy is missing: the scalar engine rates every history
    batches = None


class RatingEngine(ABC):
    state_floats: tuple[str, ...] = ()
    """The names of the floating-point columns of a player's working state (`rate_state`)."""

    settle_window = 0
    """How many first matches of a history a run's parameters depend on (0: none)."""

    settled_value = None

    vectorised = True
    """False for a system with the scalar engine alone: `run` rates with it, and the entry points
    that take arrays (`run_arrays`, `rate_state`, the incremental runs) refuse it."""

    def settled_for(self, history):
        """The system as a run of `history` rates it (its parameters fixed from the history)."""
        return self

    def settled_with(self, value):
        """The system settled as a run that found `value` (`settled_value`)."""
        return self

    settling = False
    """True while a run from a stored state must settle the system itself (`settled_from`), from
    the match counts of every player there, those who do not play after it too."""

    def settled_from(self, history, state: dict, first: int, matches_elsewhere=None):
        """The system as a run of `history` (HistoryArrays, the matches after the first `first` of
        the whole history) from `state` settles it, the players not in `history` having
        `matches_elsewhere` matches (read only while `settling`)."""
        return self

    def starting_state(self, history, state: dict | None = None, first: int = 0) -> dict:
        """The working state from which to rate `history` (HistoryArrays), whose first match
        comes after `first` matches of the whole history: `state` (every player new when None)
        with each player who has not played yet at the start the system gives him."""
        return self.new_state(history.players) if state is None else state

    @abstractmethod
    def imported(self, player: Hashable, rating: float, experience: int, as_of) -> PlayerRating:
        """The start of a player who comes with a rating and experience from another list
        (`rating` on the FIBS scale, `experience` in points played, the list dated `as_of`)."""

    @abstractmethod
    def with_starts(self, state: dict, indexes, starts: Sequence[PlayerRating]) -> dict:
        """`state` with the players at `indexes` (who have not played yet) starting from
        `starts` (`imported`) instead of as new players."""

    def require_vectorised(self) -> None:
        """Raise RuntimeError when this system has the scalar engine alone (`vectorised`)."""
        if not self.vectorised:
            raise RuntimeError(f"{self.name} rates with the scalar engine alone: use run() or run_sequential()")

    @abstractmethod
    def new_state(self, players: int) -> dict:
        """The working state of `players` new players: each of `state_floats`, `experience` and
        `matches`, an array over the players."""

    @abstractmethod
    def public_of(self, state: dict) -> tuple:
        """(rating, deviation, volatility, provisional) per player of a working state, as a run
        gives them (deviation and volatility None where the system keeps none)."""

    @abstractmethod
    def rate_state(self, history, state: dict, progress=None, keep_changes: bool = True):
        """Rate `history` (`batches.HistoryArrays`) continuing from every player's working
        state (`new_state`, or a run's `state`): the arithmetic of a whole run, so that a history
        rated in pieces, each from the state the one before left, gives the same numbers to the
        last bit as rated in one piece. Returns a `batches.ArrayRun` whose `state` is the state
        after it. Every engine has its own (`FibsRating`, `CrawfordRating`)."""

    def run(
        self,
        records: Iterable[MatchRecord],
        *,
        progress: ProgressCallback | None = None,
        keep_changes: bool = True,
        starting_ratings: Mapping[Hashable, PlayerRating] | None = None,
    ) -> RunResult:
        """Rate a whole history in one pass, one match per update, in the order given (see
        `history` for the contract), and return every player's final rating and, unless
        `keep_changes` is False, two `RatingChange`s per match.

        Players start as new players unless `starting_ratings` gives their rating (from an
        earlier run of the same system) to continue from; the final ratings include every
        starting rating, played or not."""
        if not isinstance(records, Sequence):
            records = list(records)
        with collector_paused():
            if batches is None or not self.vectorised:
                return self._run(records, progress, keep_changes, starting_ratings or {})
            return self._run_in_batches(records, progress, keep_changes, starting_ratings or {})

    def run_sequential(
        self,
        records: Iterable[MatchRecord],
        *,
        progress: ProgressCallback | None = None,
        keep_changes: bool = True,
        starting_ratings: Mapping[Hashable, PlayerRating] | None = None,
    ) -> RunResult:
        """`run` with the scalar engine, one match after the other: the reference the
        vectorised engine is tested against, and what `run` uses when numpy is missing."""
        if not isinstance(records, Sequence):
            records = list(records)
        with collector_paused():
            return self._run(records, progress, keep_changes, starting_ratings or {})

    def run_arrays(
        self,
        match_ids,
        days,
        player_a,
        player_b,
        lengths,
        a_won,
        *,
        players: int | None = None,
        a_score=None,
        progress: ProgressCallback | None = None,
        keep_changes: bool = True,
    ):
        """Rate a history given as arrays (one entry per match, in time order; players as
        indices 0..players − 1, days as `history.day_number`s) with the vectorised engine,
        every player starting new. `a_score` (optional, NaN where the winner counts) gives
        player A's score in [0, 1] for matches rated by a score; only the variance-adjusted
        engine reads it. Returns a `batches.ArrayRun`: per-player and per-match arrays."""
        if batches is None:
            raise RuntimeError("run_arrays needs numpy; use run() without it")
        self.require_vectorised()
        history = batches.HistoryArrays.build(
            match_ids, days, player_a, player_b, lengths, a_won, players, a_score
        )
        return self._rate_new_arrays(history, progress, keep_changes)
