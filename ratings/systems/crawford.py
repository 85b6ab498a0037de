"""The variance-adjusted rating, Crawford's own (`crawford`).

Glicko-2 (rating, deviation, volatility) on the FIBS scale, whose expected score for an N-point
match uses the FIBS length scaling. On the Glicko-2 scale (μ = (r − 1500)/173.7178,
φ = RD/173.7178) the chance that a player beats opponent j over N points is

    E = 1 / (1 + exp(−k(N)·g(φ_j)·(μ − μ_j))),   k(N) = sqrt(S(N)) / 5,
    g(φ) = 1 / sqrt(1 + 3φ²/π²),

S(N) being the match's effective length, S(N) = 1 + C·(N − 1)/2 (or a table). With zero
deviation this is the FIBS curve 1 / (1 + 10^(−D·sqrt(S(N))/2000)), because
400/2000·sqrt(S) = sqrt(S)/5; at S = 25 the factor is 1 and the update is plain Glicko-2.

The history is rated one match at a time, in time order, each match its own update with one
game against one opponent (Glickman's steps 3-8 with k in the expectation, the variance
v = 1/(k²g²E(1 − E)) and the improvement Δ = v·k·g·(s − E); the new volatility by the Illinois
iteration). Before a match, each player's deviation is brought to the day of the match by the
time elapsed since his previous one, φ* = sqrt(φ² + σ²·t) with t = days / PERIOD_DAYS, capped at
the maximum deviation; there is no other growth, so matches on the same day add none between
them. A player is provisional while his deviation exceeds the provisional threshold.

One module of about eight hundred lines, on purpose: the scalar update, its array form for a whole
history (`_rate_arrays`) and the run that drives them must compute the same numbers, and are read
side by side when one of them changes (tests/ratings/systems/test_batched.py compares them match by match).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime

from ratings.systems import params
from ratings.systems.engine import (  # batches is None without numpy
    RatingEngine,
    batches,
)
from ratings.systems.glicko import (
    CONVERGENCE_TOLERANCE,
    GLICKO2_SCALE,
    RATING_CENTRE,
    deviation_after,
    g,
    illinois,
    new_log_volatility,
)
from ratings.systems.history import (
    PROGRESS_EVERY,
    MatchRecord,
    PlayerRating,
    Prediction,
    ProgressCallback,
    RatingChange,
    RunResult,
    day_number,
    in_time_order,
)

INTERVAL_Z = 1.959963984540054
"""Standard normal quantile of a two-sided 95% interval."""

_THREE_OVER_PI_SQUARED = 3.0 / (math.pi * math.pi)


@dataclass(frozen=True, slots=True)
class CrawfordParameters:
    """The parameters of the variance-adjusted rating; defaults in `params` (fitted).

    Deviations are in rating points, volatility on the Glicko-2 scale. `effective_lengths`
    maps a match length to its effective length S(N) where the formula
    S(N) = 1 + length_constant·(N − 1)/2 should not be used.

    A founder (who arrives before the history has `params.ESTABLISHED_PLAYERS` players of
    `params.ESTABLISHED_MATCHES` matches) starts at `initial_rating` ± `initial_deviation`; every
    player after them, a newcomer, at `initial_rating + newcomer_offset` ± `newcomer_deviation`
    (None: the initial deviation). The maximum deviation (None: the initial one) and the
    provisional threshold (None: 75% of the initial deviation, at most 150) follow the initial
    deviation unless given.
    """

    initial_rating: float = params.INITIAL_RATING
    initial_deviation: float = params.INITIAL_DEVIATION
    initial_volatility: float = params.INITIAL_VOLATILITY
    tau: float = params.TAU
    length_constant: float = params.LENGTH_CONSTANT
    period_days: float = params.PERIOD_DAYS
    provisional_deviation: float | None = None
    maximum_deviation: float | None = None
    match_growth: float = params.MATCH_GROWTH
    newcomer_offset: float = params.NEWCOMER_OFFSET
    newcomer_deviation: float | None = params.NEWCOMER_DEVIATION
    effective_lengths: Mapping[int, float] = field(default_factory=dict)
    tolerance: float = CONVERGENCE_TOLERANCE

    def __post_init__(self) -> None:
        for name in ("initial_deviation", "initial_volatility", "tau", "period_days"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive, not {getattr(self, name)!r}")
        if self.newcomer_deviation is not None and not self.newcomer_deviation > 0:
            raise ValueError(f"newcomer_deviation must be positive, not {self.newcomer_deviation!r}")
        if not math.isfinite(self.newcomer_offset):
            raise ValueError(f"newcomer_offset must be a number of rating points, not {self.newcomer_offset!r}")
        if self.maximum_deviation is not None and not self.maximum_deviation > 0:
            raise ValueError(f"maximum_deviation must be positive, not {self.maximum_deviation!r}")
        if self.match_growth < 0:
            raise ValueError(f"match_growth must not be negative, not {self.match_growth!r}")
        if self.length_constant < 0:
            raise ValueError(f"length_constant must not be negative, not {self.length_constant!r}")

    @property
    def deviation_cap(self) -> float:
        """The most a deviation grows to with time away: a new player's, unless set."""
        return self.initial_deviation if self.maximum_deviation is None else self.maximum_deviation

    @property
    def provisional_threshold(self) -> float:
        """A rating is provisional while its deviation is above this."""
        if self.provisional_deviation is not None:
            return self.provisional_deviation
        return min(params.PROVISIONAL_DEVIATION, params.PROVISIONAL_SHARE * self.initial_deviation)

    @property
    def newcomer_start_deviation(self) -> float:
        """A newcomer's starting deviation: `newcomer_deviation`, or the initial one when None."""
        return self.initial_deviation if self.newcomer_deviation is None else self.newcomer_deviation

    def effective_length(self, length: int) -> float:
        """S(N): the length of a skill-only match that tells as much as this one."""
        if length in self.effective_lengths:
            return float(self.effective_lengths[length])
        return 1.0 + self.length_constant * (length - 1) / 2.0

    def length_factor(self, length: int) -> float:
        """k(N) = sqrt(S(N))/5, the factor on g·(μ − μ_j) in the expected score."""
        return math.sqrt(self.effective_length(length)) / 5.0


def _one_game(
    mu: float,
    phi: float,
    sigma2: float,
    log_sigma2: float,
    opponent_mu: float,
    kg: float,
    score: float,
    tau: float,
    exp_minus_tau: float,
    tolerance: float,
    match_growth: float,
) -> tuple[float, float, float, float]:
    """Glicko-2 steps 3-8 for one game (Glicko-2 scale), with no deviation growth in step 6.

    The volatility travels as σ² and ln σ² (the Illinois iteration's variable), `kg` is
    k(N)·g(φ_j) and `exp_minus_tau` is exp(−τ). Returns (μ', φ', σ'², ln σ'²). Written out
    flat: a recompute calls it twice per match.
    """
    e = 1.0 / (1.0 + math.exp(-kg * (mu - opponent_mu)))
    information = kg * kg * e * (1.0 - e)
    if information <= 0.0:
        return mu, phi, sigma2, log_sigma2
    variance = 1.0 / information
    surprise = kg * (score - e)
    delta = variance * surprise
    phi2 = phi * phi
    base = phi2 + variance
    log_sigma2_new = new_log_volatility(
        log_sigma2, sigma2, delta * delta - base, base, tau, exp_minus_tau, tolerance
    )
    sigma2_new = math.exp(log_sigma2_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi2 + match_growth * sigma2_new) + information)
    return mu + phi_new * phi_new * surprise, phi_new, sigma2_new, log_sigma2_new


class CrawfordRating(RatingEngine):
    """The variance-adjusted rating system (see the module's description)."""

    name = "crawford"

    def __init__(self, parameters: CrawfordParameters | None = None, *, founded_after: int | None = None) -> None:
        self.parameters = parameters if parameters is not None else CrawfordParameters()
        self.founded_after = founded_after
        """Settled for a history (`settled_for`): how many of its first matches its founders
        played before it had `params.ESTABLISHED_PLAYERS` established players; None when not
        known (not settled, or the history has not got so far)."""

    def __repr__(self) -> str:
        if self.founded_after is None:
            return f"CrawfordRating({self.parameters!r})"
        return f"CrawfordRating({self.parameters!r}, founded_after={self.founded_after!r})"

    def _with(self, parameters: CrawfordParameters | None = None, founded_after: int | None = None) -> CrawfordRating:
        """This kind of system with other parameters or another founding."""
        system = type(self)(self.parameters if parameters is None else parameters)
        system.founded_after = founded_after
        return system

    def new_rating(self, player: Hashable) -> PlayerRating:
        """The rating of a player who has not played yet: a newcomer's once the system is settled
        for a history past its founders (`founded_after`), else a founder's."""
        p = self.parameters
        if self.founded_after is None:
            rating, deviation = p.initial_rating, p.initial_deviation
        else:
            rating, deviation = p.initial_rating + p.newcomer_offset, p.newcomer_start_deviation
        return PlayerRating(player, rating, deviation, p.initial_volatility, 0, 0, None,
                            deviation > p.provisional_threshold)

    def imported(self, player: Hashable, rating: float, experience: int, as_of) -> PlayerRating:
        """A player from another list: his rating, with a deviation that shrinks with his
        experience, `initial_deviation / √(1 + experience / IMPORTED_EXPERIENCE_SCALE)` and never
        below IMPORTED_DEVIATION_FLOOR (150 with none, 106 after 300 points, 67 after 1,200),
        grown from the list's date to his first match here."""
        p = self.parameters
        deviation = max(params.IMPORTED_DEVIATION_FLOOR,
                        p.initial_deviation / math.sqrt(1.0 + experience / params.IMPORTED_EXPERIENCE_SCALE))
        return PlayerRating(player, float(rating), deviation, p.initial_volatility, int(experience), 0, as_of,
                            deviation > p.provisional_threshold)

    def with_starts(self, state: dict, indexes, starts) -> dict:
        for i, start in zip(indexes, starts):
            mu, phi, sigma2, log_sigma2, last_day, experience, _, _ = self._state_from(start)
            state["mu"][i], state["phi"][i], state["sigma2"][i], state["log_sigma2"][i] = mu, phi, sigma2, log_sigma2
            state["last_day"][i] = last_day
            state["experience"][i] = experience
        return state

    def is_provisional(self, rating: PlayerRating) -> bool:
        """True while the rating's deviation exceeds the provisional threshold."""
        return rating.deviation is None or rating.deviation > self.parameters.provisional_threshold

    def rating_as_of(self, rating: PlayerRating, moment: date | datetime) -> PlayerRating:
        """The rating with its deviation grown to `moment` by the time since the player's last
        match (the ± to show today for a player who has been away)."""
        if rating.last_played is None or rating.deviation is None or rating.volatility is None:
            return rating
        p = self.parameters
        elapsed = (day_number(moment) - day_number(rating.last_played)) / p.period_days
        if elapsed <= 0.0:
            return rating
        deviation = deviation_after(rating.deviation, rating.volatility, elapsed, p.deviation_cap)
        return PlayerRating(
            rating.player,
            rating.rating,
            deviation,
            rating.volatility,
            rating.experience,
            rating.matches,
            rating.last_played,
            deviation > p.provisional_threshold,
        )

    def predict(
        self,
        rating_a: PlayerRating,
        rating_b: PlayerRating,
        length: int,
        *,
        on: date | datetime | None = None,
    ) -> Prediction:
        """Each player's chance of winning an N-point match, with both deviations integrated
        (g(sqrt(φ_a² + φ_b²))), and a 95% interval for player A's chance from the deviation of
        the rating difference. With `on`, deviations are first grown to that day."""
        if on is not None:
            rating_a = self.rating_as_of(rating_a, on)
            rating_b = self.rating_as_of(rating_b, on)
        k = self.parameters.length_factor(length)
        difference = (rating_a.rating - rating_b.rating) / GLICKO2_SCALE
        phi = math.hypot(rating_a.deviation or 0.0, rating_b.deviation or 0.0) / GLICKO2_SCALE
        p_a = _logistic(k * g(phi) * difference)
        return Prediction(
            p_a=p_a,
            p_b=1.0 - p_a,
            difference_deviation=phi * GLICKO2_SCALE,
            p_a_low=_logistic(k * (difference - INTERVAL_Z * phi)),
            p_a_high=_logistic(k * (difference + INTERVAL_Z * phi)),
        )

    def _rate_new_arrays(self, history, progress, keep_changes: bool) -> batches.ArrayRun:
        return self._rate_arrays(history, self.starting_state(history), progress, keep_changes)

    # -- state export and import: the incremental recompute (`RatingEngine.rate_state`) --

    state_floats = ("mu", "phi", "sigma2", "log_sigma2", "last_day")

    def rate_state(self, history, state: dict, progress=None, keep_changes: bool = True) -> batches.ArrayRun:
        return self._rate_arrays(history, state, progress, keep_changes)

    def public_of(self, state: dict) -> tuple:
        """(rating, deviation, volatility, provisional) per player of a working state, as a run
        gives them."""
        np = batches.np
        deviation = GLICKO2_SCALE * state["phi"]
        return (
            RATING_CENTRE + GLICKO2_SCALE * state["mu"], deviation, np.sqrt(state["sigma2"]),
            deviation > self.parameters.provisional_threshold,
        )

    @property
    def settle_window(self) -> float:
        """How many first matches of a history its founders depend on: a change among them may
        make another player a founder or a newcomer, so it is rated again in full. Until the
        history has its founders (`founded_after` None), none: a run from any state finds them
        itself (`settled_from`), from the match counts there."""
        return 0 if self.founded_after is None else self.founded_after

    @property
    def settling(self) -> bool:
        """True until the history has its founders: a run from a stored state then reads every
        player's match count there (`settled_from`), since who is established decides them."""
        return self.founded_after is None

    def settled_from(self, history, state: dict, first: int, matches_elsewhere=None) -> CrawfordRating:
        """The system as a run of `history` (HistoryArrays, the matches after the first `first`
        of the whole history) from `state` (its players' working states there) settles it, the
        other players having `matches_elsewhere` matches (an array; None: none). Settled, itself;
        unsettled, founded where the history gets its founders, or still unsettled."""
        if self.founded_after is not None:
            return self
        founded = founding(state["matches"], history, matches_elsewhere)
        return self if founded is None else self._with(founded_after=first + founded)

    def settled_for(self, history) -> CrawfordRating:
        """The system as a run of `history` (HistoryArrays, from its first match) rates it: its
        founders known (`founded_after`)."""
        np = batches.np
        return self._with(founded_after=founding(np.zeros(history.players, dtype=np.int64), history))

    def settled_on(self, records: Sequence[MatchRecord]) -> CrawfordRating:
        """`settled_for` a history given as records."""
        if not records:
            return self._with()
        history, _, _ = batches.records_as_arrays(records)
        return self.settled_for(history)

    @property
    def settled_value(self) -> float | None:
        return None if self.founded_after is None else float(self.founded_after)

    def settled_with(self, value: float | None) -> CrawfordRating:
        """The system settled as a run that found `value` (its `settled_value`)."""
        return self._with(founded_after=None if value is None else int(value))

    def starting_state(self, history, state: dict | None = None, first: int = 0) -> dict:
        """The working state from which to rate `history` (HistoryArrays): `state` (new players'
        when None) with every newcomer's start in place, a newcomer being a player who has not
        played yet and whose first match comes after the founders'. `first` is how many matches
        of the whole history come before `history` (the settled `founded_after` counts from
        there); unsettled, the founders are found from `state`'s match counts and `history`."""
        np = batches.np
        p = self.parameters
        if state is None:
            state = self.new_state(history.players)
        else:
            state = {name: np.array(values, copy=True) for name, values in state.items()}
        if self.founded_after is not None:
            founded = self.founded_after - first
        else:
            founded = founding(state["matches"], history)
        if founded is None or not len(history.days):
            return state
        first_match = batches.first_matches(history)
        newcomers = (state["matches"] == 0) & (first_match >= max(founded, 0))
        state["mu"][newcomers] = p.newcomer_offset / GLICKO2_SCALE + (p.initial_rating - RATING_CENTRE) / GLICKO2_SCALE
        state["phi"][newcomers] = p.newcomer_start_deviation / GLICKO2_SCALE
        return state

    def new_state(self, players: int) -> dict:
        np = batches.np
        p = self.parameters
        sigma2 = p.initial_volatility * p.initial_volatility
        return {
            "mu": np.full(players, (p.initial_rating - RATING_CENTRE) / GLICKO2_SCALE),
            "phi": np.full(players, p.initial_deviation / GLICKO2_SCALE),
            "sigma2": np.full(players, sigma2),
            "log_sigma2": np.full(players, math.log(sigma2)),
            "last_day": np.full(players, math.inf),
            "experience": np.zeros(players, dtype=np.int64),
            "matches": np.zeros(players, dtype=np.int64),
        }

    def _run_in_batches(
        self,
        records: Sequence[MatchRecord],
        progress: ProgressCallback | None,
        keep_changes: bool,
        starting_ratings: Mapping[Hashable, PlayerRating],
    ) -> RunResult:
        history, players, played = batches.records_as_arrays(records, list(starting_ratings))
        states = self.new_state(history.players)
        for i, start in enumerate(starting_ratings.values()):
            for key, value in zip(states, self._state_from(start)):
                states[key][i] = value
        run = self._rate_arrays(history, self.starting_state(history, states), progress, keep_changes)
        starts = list(starting_ratings.values())
        ratings = {}
        for i, (player, rating, deviation, volatility, experience, matches, last, provisional) in enumerate(zip(
            players, run.rating.tolist(), run.deviation.tolist(), run.volatility.tolist(), run.experience.tolist(),
            run.matches.tolist(), run.last_match.tolist(), run.provisional.tolist(),
        )):
            last_played = played[last] if last >= 0 else starts[i].last_played
            ratings[player] = PlayerRating(
                player, rating, deviation, volatility, experience, matches, last_played, provisional
            )
        changes = batches.changes_of(run, history, players) if keep_changes else ()
        return RunResult(self.name, ratings, changes, len(records))

    def _rate_arrays(self, history, states: dict, progress, keep_changes: bool) -> batches.ArrayRun:
        """The vectorised engine: the history batch by batch (`batches.BatchLayout`), each
        batch's two sides updated together by `_games_vectorised`."""
        self.require_vectorised()
        np = batches.np
        p = self.parameters
        scale = GLICKO2_SCALE
        n = len(history.days)
        phi_cap = p.deviation_cap / scale
        per_day = 1.0 / p.period_days
        tau = p.tau
        exp_minus_tau = math.exp(-tau)
        tolerance = p.tolerance
        three_over_pi2 = _THREE_OVER_PI_SQUARED
        layout = batches.BatchLayout.of(history)
        k = _per_length(np, layout.in_batch_order(history.lengths), p.length_factor)
        a_score = layout.in_batch_order(history.scores())
        days = layout.in_batch_order(history.days)
        player_a = layout.in_batch_order(history.player_a)
        player_b = layout.in_batch_order(history.player_b)
        # μ, φ, σ², ln σ² and the day of the last match
        table = batches.PlayerTable(
            states["mu"], states["phi"], states["sigma2"], states["log_sigma2"], states["last_day"]
        )
        if keep_changes:
            changes = layout.changes(
                ("rating_before", "rating_after", "deviation_before", "deviation_after", "expected")
            )
        reporter = batches.ProgressReporter(progress, n)
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            for first, after in layout.spans():
                # the batch's A sides, then its B sides: each side's opponent is m places away
                m = after - first
                who = np.concatenate((player_a[first:after], player_b[first:after]))
                before = table.read(who)
                mu_x = before[:, 0]
                phi_x = before[:, 1]
                sigma2_x = before[:, 2]
                day = days[first:after]
                day_x = np.concatenate((day, day))
                gap = day_x - before[:, 4]
                grown = np.sqrt(phi_x * phi_x + sigma2_x * gap * per_day)
                phi_x = np.where(gap > 0.0, np.where(grown <= phi_cap, grown, np.maximum(phi_x, phi_cap)), phi_x)
                spread2 = 1.0 + three_over_pi2 * phi_x * phi_x
                spread = np.sqrt(spread2)
                k_x = k[first:after]
                kg = np.concatenate((k_x / spread[m:], k_x / spread[:m]))
                score = a_score[first:after]
                state = np.empty_like(before)
                (state[:, 0], state[:, 1], state[:, 2], state[:, 3]) = _games_vectorised(
                    np, mu_x, phi_x, sigma2_x, before[:, 3], np.concatenate((mu_x[m:], mu_x[:m])), kg,
                    np.concatenate((score, 1.0 - score)), tau, exp_minus_tau, tolerance, p.match_growth,
                )
                state[:, 4] = day_x
                table.write(who, state)
                if keep_changes:
                    # the forecast with both deviations, g(sqrt(φ_a² + φ_b²)), as `predict` gives it
                    expected_a = 1.0 / (1.0 + np.exp(
                        -k_x * (mu_x[:m] - mu_x[m:]) / np.sqrt(spread2[:m] + spread2[m:] - 1.0)
                    ))
                    changes.keep(
                        first, after,
                        rating_before=RATING_CENTRE + scale * mu_x,
                        rating_after=RATING_CENTRE + scale * state[:, 0],
                        deviation_before=scale * phi_x,
                        deviation_after=scale * state[:, 1],
                        expected=np.concatenate((expected_a, 1.0 - expected_a)),
                    )
                reporter.advance(after)
        reporter.finish(n)
        columns = changes.columns if keep_changes else {}
        experience = states["experience"] + batches.per_player_sums(
            history.player_a, history.player_b, history.lengths, history.players
        )
        matches = states["matches"] + batches.per_player_sums(
            history.player_a, history.player_b, None, history.players
        )
        mu, phi, sigma2 = table.rows[:, :3].T
        deviation = scale * phi
        final = {name: table.rows[:, column].copy() for column, name in enumerate(self.state_floats)}
        return batches.ArrayRun(
            self.name,
            RATING_CENTRE + scale * mu,
            deviation,
            np.sqrt(sigma2),
            experience,
            matches,
            layout.last_match,
            deviation > p.provisional_threshold,
            **columns,
            state=dict(final, experience=experience, matches=matches),
        )

    def _run(
        self,
        records: Sequence[MatchRecord],
        progress: ProgressCallback | None,
        keep_changes: bool,
        starting_ratings: Mapping[Hashable, PlayerRating],
        measure: Callable | None = None,
    ) -> RunResult:
        """The scalar engine. `measure(record, μ_a, φ_a, μ_b, φ_b)`, when given, is a second
        measurement of the two players taken in before the result is rated (the ratings and
        deviations grown to the day in, updated ones out; `prskill`'s error rate); each match's
        forecast is still the one from before it."""
        total = len(records)
        p = self.parameters
        scale = GLICKO2_SCALE
        mu_initial = (p.initial_rating - RATING_CENTRE) / scale
        phi_initial = p.initial_deviation / scale
        mu_newcomer = (p.initial_rating + p.newcomer_offset - RATING_CENTRE) / scale
        phi_newcomer = p.newcomer_start_deviation / scale
        sigma2_initial = p.initial_volatility * p.initial_volatility
        log_sigma2_initial = math.log(sigma2_initial)
        phi_cap = p.deviation_cap / scale
        per_day = 1.0 / p.period_days
        tau = p.tau
        exp_minus_tau = math.exp(-tau)
        tolerance = p.tolerance
        match_growth = p.match_growth
        three_over_pi2 = _THREE_OVER_PI_SQUARED
        sqrt = math.sqrt
        exp = math.exp
        one_game = _one_game
        # per player: [μ, φ, σ², ln σ², day of last match, experience, matches, last played]
        states: dict[Hashable, list] = {
            player: self._state_from(start) for player, start in starting_ratings.items()
        }
        changes: list[RatingChange] = []
        keep = changes.append if keep_changes else None
        factors: dict[int, float] = {}
        done = 0
        # the founders: settled, the players of the first `founded_after` matches; else those who
        # arrive before ESTABLISHED_PLAYERS players have ESTABLISHED_MATCHES matches
        founded_after = self.founded_after
        established_matches = params.ESTABLISHED_MATCHES
        established = sum(1 for state in states.values() if state[6] >= established_matches)
        founded = founded_after <= 0 if founded_after is not None else established >= params.ESTABLISHED_PLAYERS
        for record, day in in_time_order(records):
            if not founded:
                founded = done >= founded_after if founded_after is not None else established >= params.ESTABLISHED_PLAYERS
            mu_start, phi_start = (mu_newcomer, phi_newcomer) if founded else (mu_initial, phi_initial)
            length = record.length
            k = factors.get(length)
            if k is None:
                k = factors[length] = p.length_factor(length)
            a_won = record.winner == "a"
            score_a = record.score if record.score is not None else (1.0 if a_won else 0.0)
            player_a = record.player_a
            player_b = record.player_b
            played_on = record.played_on

            state_a = states.get(player_a)
            if state_a is None:
                state_a = states[player_a] = [
                    mu_start, phi_start, sigma2_initial, log_sigma2_initial, day, 0, 0, None
                ]
            state_b = states.get(player_b)
            if state_b is None:
                state_b = states[player_b] = [
                    mu_start, phi_start, sigma2_initial, log_sigma2_initial, day, 0, 0, None
                ]
            mu_a, phi_a, sigma2_a, log_sigma2_a, last_a = state_a[:5]
            mu_b, phi_b, sigma2_b, log_sigma2_b, last_b = state_b[:5]
            if day > last_a:
                grown = sqrt(phi_a * phi_a + sigma2_a * (day - last_a) * per_day)
                phi_a = grown if grown <= phi_cap else max(phi_a, phi_cap)
            if day > last_b:
                grown = sqrt(phi_b * phi_b + sigma2_b * (day - last_b) * per_day)
                phi_b = grown if grown <= phi_cap else max(phi_b, phi_cap)
            if measure is not None:
                before = (mu_a, phi_a, mu_b, phi_b)
                mu_a, phi_a, mu_b, phi_b = measure(record, mu_a, phi_a, mu_b, phi_b)
            spread_a = 1.0 + three_over_pi2 * phi_a * phi_a
            spread_b = 1.0 + three_over_pi2 * phi_b * phi_b
            new_mu_a, new_phi_a, state_a[2], state_a[3] = one_game(
                mu_a, phi_a, sigma2_a, log_sigma2_a, mu_b, k / sqrt(spread_b), score_a,
                tau, exp_minus_tau, tolerance, match_growth,
            )
            new_mu_b, new_phi_b, state_b[2], state_b[3] = one_game(
                mu_b, phi_b, sigma2_b, log_sigma2_b, mu_a, k / sqrt(spread_a), 1.0 - score_a,
                tau, exp_minus_tau, tolerance, match_growth,
            )
            state_a[0] = new_mu_a
            state_a[1] = new_phi_a
            state_a[4] = day
            state_a[5] += length
            state_a[6] += 1
            state_a[7] = played_on
            state_b[0] = new_mu_b
            state_b[1] = new_phi_b
            state_b[4] = day
            state_b[5] += length
            state_b[6] += 1
            state_b[7] = played_on
            if not founded:
                established += (state_a[6] == established_matches) + (state_b[6] == established_matches)
            if keep is not None:
                match_id = record.match_id
                # the forecast with both deviations, g(sqrt(φ_a² + φ_b²)), as `predict` gives it,
                # from the ratings before the match (before a `measure` too)
                if measure is None:
                    shown_a, shown_phi_a, shown_b, shown_phi_b = mu_a, phi_a, mu_b, phi_b
                    variance = spread_a + spread_b - 1.0
                else:
                    shown_a, shown_phi_a, shown_b, shown_phi_b = before
                    variance = ((1.0 + three_over_pi2 * shown_phi_a * shown_phi_a)
                                + (1.0 + three_over_pi2 * shown_phi_b * shown_phi_b) - 1.0)
                expected_a = 1.0 / (1.0 + exp(-k * (shown_a - shown_b) / sqrt(variance)))
                keep(
                    RatingChange(
                        match_id, player_a, player_b, a_won,
                        RATING_CENTRE + scale * shown_a, RATING_CENTRE + scale * new_mu_a,
                        scale * shown_phi_a, scale * new_phi_a, expected_a,
                    )
                )
                keep(
                    RatingChange(
                        match_id, player_b, player_a, not a_won,
                        RATING_CENTRE + scale * shown_b, RATING_CENTRE + scale * new_mu_b,
                        scale * shown_phi_b, scale * new_phi_b, 1.0 - expected_a,
                    )
                )
            done += 1
            if progress is not None and done % PROGRESS_EVERY == 0:
                progress(done, total)
        if progress is not None and done % PROGRESS_EVERY != 0:
            progress(done, total)
        threshold = p.provisional_threshold
        ratings = {}
        for player, (mu, phi, sigma2, _, _, experience, matches, last) in states.items():
            deviation = scale * phi
            ratings[player] = PlayerRating(
                player, RATING_CENTRE + scale * mu, deviation, math.sqrt(sigma2), experience,
                matches, last, deviation > threshold,
            )
        return RunResult(self.name, ratings, tuple(changes), done)

    def _state_from(self, start: PlayerRating) -> list:
        """The run's working state for a player continuing from `start`."""
        p = self.parameters
        deviation = p.initial_deviation if start.deviation is None else start.deviation
        volatility = p.initial_volatility if start.volatility is None else start.volatility
        sigma2 = volatility * volatility
        last_day = math.inf if start.last_played is None else day_number(start.last_played)
        return [
            (start.rating - RATING_CENTRE) / GLICKO2_SCALE,
            deviation / GLICKO2_SCALE,
            sigma2,
            math.log(sigma2),
            last_day,
            start.experience,
            start.matches,
            start.last_played,
        ]


def founding(matches_before, history, matches_elsewhere=None) -> int | None:
    """How many first matches of `history` (HistoryArrays) its founders play: the least k such
    that, with each player's matches before it (`matches_before`, an array over the players)
    and those among its first k, `params.ESTABLISHED_PLAYERS` players have
    `params.ESTABLISHED_MATCHES` matches, counting the players who do not play in it with their
    `matches_elsewhere` (an array; None: there are none). Every player who first plays from
    match k on is a newcomer. None when the history never gets so far."""
    np = batches.np
    needed = params.ESTABLISHED_MATCHES - np.asarray(matches_before, dtype=np.int64)
    # a player is established after his needed-th match here (0 if before the history)
    established_after = batches.nth_matches(history, needed) + 1
    reached = np.sort(established_after[established_after <= len(history.days)])
    if matches_elsewhere is not None:  # established before the history, and not in it: from its start
        before = int((np.asarray(matches_elsewhere, dtype=np.int64) >= params.ESTABLISHED_MATCHES).sum())
        reached = np.concatenate((np.zeros(before, dtype=np.int64), reached))
    if len(reached) < params.ESTABLISHED_PLAYERS:
        return None
    return int(reached[params.ESTABLISHED_PLAYERS - 1])


def _per_length(np, lengths, function):
    """`function(length)` for each of the `lengths`, computed once per distinct length."""
    distinct = np.unique(lengths)
    values = np.array([function(int(length)) for length in distinct.tolist()], dtype=np.float64)
    if len(distinct) and distinct[-1] <= 1 << 16:
        # a table indexed by length: many times faster than a search
        by_length = np.zeros(int(distinct[-1]) + 1)
        by_length[distinct] = values
        return by_length[lengths]
    return values[np.searchsorted(distinct, lengths)]


def _logistic(x: float) -> float:
    if x >= 0.0:
        return 1.0 / (1.0 + math.exp(-x))
    ex = math.exp(x)
    return ex / (1.0 + ex)


ILLINOIS_ROUNDS = 60
"""Most rounds of the vectorised Illinois iteration; the updates still unconverged after them
(none in practice) are finished one by one with the scalar iteration."""

ILLINOIS_ONE_BY_ONE = 16
"""The vectorised Illinois iteration stops at this many open brackets and finishes them one by
one with the scalar iteration: below it, numpy's cost per call outweighs the work."""


def _games_vectorised(
    np, mu, phi, sigma2, log_sigma2, opponent_mu, kg, score, tau, exp_minus_tau, tolerance, match_growth
):
    """`_one_game` for many games at once, element by element the same arithmetic: returns
    (μ', φ', σ'², ln σ'²). `phi` is the deviation grown to the day of the game."""
    e = 1.0 / (1.0 + np.exp(-kg * (mu - opponent_mu)))
    information = kg * kg * e * (1.0 - e)
    informative = information > 0.0
    all_informative = bool(informative.all())
    if not all_informative:
        information = np.where(informative, information, 1.0)
    variance = 1.0 / information
    surprise = kg * (score - e)
    delta = variance * surprise
    phi2 = phi * phi
    base = phi2 + variance
    excess = delta * delta - base
    a = log_sigma2
    tau2 = tau * tau
    denominator = base + sigma2
    f_a = sigma2 * (excess - sigma2) / (2.0 * denominator * denominator)
    # the bracket's other end B: ln(excess) where excess > 0, else the first of a − τ, a − 2τ, …
    # where f is not negative. Both are computed for every element and the right one taken:
    # the first step nearly always does, and the few others step on below.
    positive = excess > 0.0
    # ln|excess| is ln(excess) where it is taken, and much faster than a logarithm of negatives
    log_excess = np.log(np.abs(excess))
    ex = sigma2 * exp_minus_tau
    denominator = base + ex
    f_step = ex * (excess - ex) / (2.0 * denominator * denominator) + 1.0 / tau
    big_b = np.where(positive, log_excess, a - tau)
    f_b = np.where(positive, -(log_excess - a) / tau2, f_step)
    searching = np.flatnonzero(~(positive | (f_step >= 0.0)))
    steps = 2
    ex = ex[searching]
    while searching.size:
        ex = ex * exp_minus_tau
        trial = a[searching] - steps * tau
        denominator = base[searching] + ex
        f_trial = ex * (excess[searching] - ex) / (2.0 * denominator * denominator) + steps / tau
        found = f_trial >= 0.0
        big_b[searching[found]] = trial[found]
        f_b[searching[found]] = f_trial[found]
        searching = searching[~found]
        ex = ex[~found]
        steps += 1
    big_a = _illinois_vectorised(np, a, big_b, f_a, f_b, excess, base, tau2, tolerance)
    sigma2_new = np.exp(big_a)
    phi_new = 1.0 / np.sqrt(1.0 / (phi2 + match_growth * sigma2_new) + information)
    mu_new = mu + phi_new * phi_new * surprise
    if not all_informative:
        mu_new = np.where(informative, mu_new, mu)
        phi_new = np.where(informative, phi_new, phi)
        sigma2_new = np.where(informative, sigma2_new, sigma2)
        big_a = np.where(informative, big_a, log_sigma2)
    return mu_new, phi_new, sigma2_new, big_a


def _illinois_vectorised(np, a, big_b, f_a, f_b, excess, base, tau2, tolerance):
    """`glicko.illinois` for many brackets [a, B] at once, each element through the same
    rounds as alone: returns the converged A per element.

    The brackets still open travel as compact arrays that shrink as brackets close; each
    round writes its A into the result, where a closed bracket's last A stays. The last few
    open brackets (a round costs the same for 3 as for 300) finish one by one."""
    result = a.copy()
    where = np.flatnonzero(np.abs(big_b - a) > tolerance)
    open_brackets = (a, big_b, f_a, f_b, excess, base, a)
    if len(where) < len(a):
        open_brackets = tuple(values.take(where) for values in open_brackets)
    big_a, big_b, f_a, f_b, excess, base, a = open_brackets
    rounds = 0
    while len(where) > ILLINOIS_ONE_BY_ONE and rounds < ILLINOIS_ROUNDS:
        rounds += 1
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        ex = np.exp(big_c)
        denominator = base + ex
        f_c = ex * (excess - ex) / (2.0 * denominator * denominator) - (big_c - a) / tau2
        flip = f_c * f_b <= 0.0
        big_a = np.where(flip, big_b, big_a)
        f_a = np.where(flip, f_b, f_a * 0.5)
        big_b = big_c
        f_b = f_c
        result[where] = big_a
        still_open = np.flatnonzero(np.abs(big_b - big_a) > tolerance)
        if len(still_open) < len(where):
            where = where[still_open]
            big_a, big_b, f_a, f_b, excess, base, a = (
                values.take(still_open) for values in (big_a, big_b, f_a, f_b, excess, base, a)
            )
    brackets = zip(big_a.tolist(), big_b.tolist(), f_a.tolist(), f_b.tolist(), excess.tolist(), base.tolist())
    for i, bracket, a_i in zip(where.tolist(), brackets, a.tolist()):
        result[i] = illinois(*bracket, a_i, tau2, tolerance)
    return result
