"""FIBS Elo, the rating backgammon players know from the First Internet Backgammon Server.

Every player starts at 1500. With D the difference between the two ratings, the underdog wins
an N-point match with probability

    P_underdog = 1 / (10^(D·sqrt(N)/2000) + 1)

and the favourite with 1 − P_underdog. The winner gains 4·sqrt(N)·(1 − P_winner) points and the
loser loses the same amount, each multiplied by his own new-player factor
max(1, 5 − experience/100), experience being the sum of the lengths of the matches he played.
The FIBS help counts the experience *before* the match; some clubs count the match being rated
as well, which `experience_includes_current=True` selects.

Between two experienced players (factor 1 each) the exchange is zero-sum.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from datetime import date, datetime

from ratings.systems.history import (
    PROGRESS_EVERY,
    MatchRecord,
    PlayerRating,
    Prediction,
    ProgressCallback,
    RatingChange,
    RunResult,
    in_time_order,
)

from ratings.systems.engine import RatingEngine, batches

INITIAL_RATING = 1500.0
"""Where every FIBS rating starts."""

EXPERIENCED_AFTER = 400
"""Experience (points played) from which the new-player factor is 1."""


def underdog_chance(difference: float, length: int) -> float:
    """The chance that the lower-rated player wins an N-point match, D = |difference|."""
    return 1.0 / (10.0 ** (abs(difference) * math.sqrt(length) / 2000.0) + 1.0)


def match_winning_chance(rating: float, opponent_rating: float, length: int) -> float:
    """The chance that a player rated `rating` beats one rated `opponent_rating` over N points."""
    return 1.0 / (1.0 + 10.0 ** ((opponent_rating - rating) * math.sqrt(length) / 2000.0))


def experience_factor(experience: int) -> float:
    """The new-player factor max(1, 5 − experience/100): 5 for a newcomer, 1 from 400 points."""
    return max(1.0, 5.0 - experience / 100.0)


def points_at_stake(winner_chance: float, length: int) -> float:
    """What the winner gains (before the new-player factor): 4·sqrt(N)·(1 − P_winner)."""
    return 4.0 * math.sqrt(length) * (1.0 - winner_chance)


class FibsRating(RatingEngine):
    """The FIBS Elo rating system.

    `experience_includes_current` chooses whether the new-player factor of a match counts that
    match's own length in the experience (False, the FIBS help's rule, by default).
    """

    name = "fibs"

    def __init__(
        self,
        *,
        initial_rating: float = INITIAL_RATING,
        experience_includes_current: bool = False,
    ) -> None:
        self.initial_rating = float(initial_rating)
        self.experience_includes_current = bool(experience_includes_current)

    def __repr__(self) -> str:
        return (
            f"FibsRating(initial_rating={self.initial_rating!r}, "
            f"experience_includes_current={self.experience_includes_current!r})"
        )

    def new_rating(self, player: Hashable) -> PlayerRating:
        """The rating of a player who has not played yet."""
        return PlayerRating(player, self.initial_rating, None, None, 0, 0, None, True)

    def is_provisional(self, rating: PlayerRating) -> bool:
        """A FIBS rating is provisional while its new-player factor exceeds 1."""
        return rating.experience < EXPERIENCED_AFTER

    def rating_as_of(self, rating: PlayerRating, moment: date | datetime) -> PlayerRating:
        """A FIBS rating does not change with time away from the board."""
        return rating

    def predict(
        self, rating_a: PlayerRating | float, rating_b: PlayerRating | float, length: int
    ) -> Prediction:
        """Each player's chance of winning an N-point match; FIBS gives no interval."""
        ra = rating_a.rating if isinstance(rating_a, PlayerRating) else float(rating_a)
        rb = rating_b.rating if isinstance(rating_b, PlayerRating) else float(rating_b)
        p_a = match_winning_chance(ra, rb, length)
        return Prediction(p_a=p_a, p_b=1.0 - p_a)

    state_floats = ("rating",)

    def new_state(self, players: int) -> dict:
        """The working state of `players` new players (`RatingEngine.rate_state`)."""
        np = batches.np
        return {
            "rating": np.full(players, self.initial_rating),
            "experience": np.zeros(players, dtype=np.int64),
            "matches": np.zeros(players, dtype=np.int64),
        }

    def rate_state(self, history, state: dict, progress=None, keep_changes: bool = True) -> batches.ArrayRun:
        return self._rate_arrays(
            history, state["rating"], state["experience"],
            state["matches"], progress, keep_changes,
        )

    def imported(self, player, rating: float, experience: int, as_of) -> PlayerRating:
        """A player from another list: his rating and experience carried over as they are."""
        return PlayerRating(player, float(rating), None, None, int(experience), 0, None,
                            experience < EXPERIENCED_AFTER)

    def with_starts(self, state: dict, indexes, starts) -> dict:
        for i, start in zip(indexes, starts):
            state["rating"][i] = start.rating
            state["experience"][i] = start.experience
        return state

    def public_of(self, state: dict) -> tuple:
        """(rating, deviation, volatility, provisional) per player of a working state."""
        return state["rating"], None, None, state["experience"] < EXPERIENCED_AFTER

    def _rate_new_arrays(self, history, progress, keep_changes: bool) -> batches.ArrayRun:
        return self.rate_state(history, self.new_state(history.players), progress, keep_changes)

    def _run_in_batches(
        self,
        records: Sequence[MatchRecord],
        progress: ProgressCallback | None,
        keep_changes: bool,
        starting_ratings: Mapping[Hashable, PlayerRating],
    ) -> RunResult:
        np = batches.np
        history, players, played = batches.records_as_arrays(records, list(starting_ratings))
        starts = list(starting_ratings.values())
        rating = np.full(history.players, self.initial_rating)
        experience = np.zeros(history.players, dtype=np.int64)
        matches = np.zeros(history.players, dtype=np.int64)
        for i, start in enumerate(starts):
            rating[i] = start.rating
            experience[i] = start.experience
            matches[i] = start.matches
        run = self._rate_arrays(history, rating, experience, matches, progress, keep_changes)
        ratings = {}
        for i, (player, rating, experience, matches, last, provisional) in enumerate(zip(
            players, run.rating.tolist(), run.experience.tolist(), run.matches.tolist(), run.last_match.tolist(),
            run.provisional.tolist(),
        )):
            last_played = played[last] if last >= 0 else starts[i].last_played
            ratings[player] = PlayerRating(player, rating, None, None, experience, matches, last_played, provisional)
        changes = batches.changes_of(run, history, players) if keep_changes else ()
        return RunResult(self.name, ratings, changes, len(records))

    def _rate_arrays(self, history, rating, experience, matches, progress, keep_changes: bool) -> batches.ArrayRun:
        """The vectorised engine: the history batch by batch (`batches.BatchLayout`), the matches
        of a batch updated together with the scalar engine's arithmetic."""
        np = batches.np
        n = len(history.days)
        layout = batches.BatchLayout.of(history)
        roots = np.sqrt(history.lengths.astype(np.float64))
        exponent_scale = layout.in_batch_order(roots / 2000.0)
        stake_scale = layout.in_batch_order(4.0 * roots)
        a_won = layout.in_batch_order(history.a_won)
        lengths = layout.in_batch_order(history.lengths.astype(np.float64))
        player_a = layout.in_batch_order(history.player_a)
        player_b = layout.in_batch_order(history.player_b)
        table = batches.PlayerTable(rating, experience)
        if keep_changes:
            changes = layout.changes(("rating_before", "rating_after", "expected"))
        reporter = batches.ProgressReporter(progress, n)
        for first, after in layout.spans():
            # the batch's A sides, then its B sides
            m = after - first
            who = np.concatenate((player_a[first:after], player_b[first:after]))
            before = table.read(who)
            rating_x = before[:, 0]
            experience_x = before[:, 1]
            rating_a = rating_x[:m]
            rating_b = rating_x[m:]
            p_a = 1.0 / (1.0 + np.power(10.0, (rating_b - rating_a) * exponent_scale[first:after]))
            scale = stake_scale[first:after]
            won = a_won[first:after]
            stake = np.where(won, scale * (1.0 - p_a), scale * p_a)
            length = lengths[first:after]
            length_x = np.concatenate((length, length))
            if self.experience_includes_current:
                factor = 5.0 - (experience_x + length_x) / 100.0
            else:
                factor = 5.0 - experience_x / 100.0
            factor = np.where(factor < 1.0, 1.0, factor)
            change = np.concatenate((stake, stake)) * factor
            state = np.empty_like(before)
            state[:, 0] = np.where(np.concatenate((won, ~won)), rating_x + change, rating_x - change)
            state[:, 1] = experience_x + length_x
            table.write(who, state)
            if keep_changes:
                changes.keep(
                    first, after, rating_before=rating_x, rating_after=state[:, 0],
                    expected=np.concatenate((p_a, 1.0 - p_a)),
                )
            reporter.advance(after)
        reporter.finish(n)
        final_experience = experience + batches.per_player_sums(
            history.player_a, history.player_b, history.lengths, history.players
        )
        return batches.ArrayRun(
            self.name,
            table.rows[:, 0].copy(),
            None,
            None,
            final_experience,
            matches + batches.per_player_sums(history.player_a, history.player_b, None, history.players),
            layout.last_match,
            final_experience < EXPERIENCED_AFTER,
            **(changes.columns if keep_changes else {}),
            state={
                "rating": table.rows[:, 0].copy(),
                "experience": final_experience,
                "matches": matches + batches.per_player_sums(history.player_a, history.player_b, None, history.players),
            },
        )

    def _run(
        self,
        records: Sequence[MatchRecord],
        progress: ProgressCallback | None,
        keep_changes: bool,
        starting_ratings: Mapping[Hashable, PlayerRating],
    ) -> RunResult:
        total = len(records)
        initial = self.initial_rating
        includes_current = self.experience_includes_current
        pow10 = math.pow
        # per player: [rating, experience, matches, last played]
        states: dict[Hashable, list] = {
            player: [start.rating, start.experience, start.matches, start.last_played]
            for player, start in starting_ratings.items()
        }
        changes: list[RatingChange] = []
        keep = changes.append if keep_changes else None
        # per length: (sqrt(N)/2000, 4·sqrt(N))
        per_length: dict[int, tuple[float, float]] = {}
        done = 0
        for record, day in in_time_order(records):
            length = record.length
            constants = per_length.get(length)
            if constants is None:
                constants = per_length[length] = (math.sqrt(length) / 2000.0, 4.0 * math.sqrt(length))
            exponent_scale, stake_scale = constants
            a_won = record.winner == "a"
            player_a = record.player_a
            player_b = record.player_b
            played_on = record.played_on

            state_a = states.get(player_a)
            if state_a is None:
                state_a = states[player_a] = [initial, 0, 0, None]
            state_b = states.get(player_b)
            if state_b is None:
                state_b = states[player_b] = [initial, 0, 0, None]
            rating_a = state_a[0]
            rating_b = state_b[0]
            p_a = 1.0 / (1.0 + pow10(10.0, (rating_b - rating_a) * exponent_scale))
            stake = stake_scale * (1.0 - p_a) if a_won else stake_scale * p_a
            experience_a = state_a[1]
            experience_b = state_b[1]
            if includes_current:
                factor_a = 5.0 - (experience_a + length) / 100.0
                factor_b = 5.0 - (experience_b + length) / 100.0
            else:
                factor_a = 5.0 - experience_a / 100.0
                factor_b = 5.0 - experience_b / 100.0
            if factor_a < 1.0:
                factor_a = 1.0
            if factor_b < 1.0:
                factor_b = 1.0
            if a_won:
                new_a = rating_a + stake * factor_a
                new_b = rating_b - stake * factor_b
            else:
                new_a = rating_a - stake * factor_a
                new_b = rating_b + stake * factor_b
            state_a[0] = new_a
            state_a[1] = experience_a + length
            state_a[2] += 1
            state_a[3] = played_on
            state_b[0] = new_b
            state_b[1] = experience_b + length
            state_b[2] += 1
            state_b[3] = played_on
            if keep is not None:
                match_id = record.match_id
                keep(RatingChange(match_id, player_a, player_b, a_won, rating_a, new_a, None, None, p_a))
                keep(RatingChange(match_id, player_b, player_a, not a_won, rating_b, new_b, None, None, 1.0 - p_a))
            done += 1
            if progress is not None and done % PROGRESS_EVERY == 0:
                progress(done, total)
        if progress is not None and done % PROGRESS_EVERY != 0:
            progress(done, total)
        ratings = {
            player: PlayerRating(
                player, rating, None, None, experience, matches, last, experience < EXPERIENCED_AFTER
            )
            for player, (rating, experience, matches, last) in states.items()
        }
        return RunResult(self.name, ratings, tuple(changes), done)
