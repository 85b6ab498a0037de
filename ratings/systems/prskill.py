"""The error-rate variant of the variance-adjusted rating (`prskill`).

The same engine as `crawford` (Glicko-2 with the effective length S(N) and both players'
deviations), with one addition: a match GNU Backgammon has analysed tells, besides who won, how
well each player played, his error rate (PR, `analysis.gnubg.SideFigures.pr`: equity lost per
decision × 500). The difference of the two error rates is a second measurement of the same thing
the result measures, the difference of the players' strengths, and a far less noisy one: the
dice move the result, but hardly the error rate. An unanalysed match is rated by its winner,
exactly as `crawford` rates it.

The model, on the Glicko-2 scale (μ = (r − 1500)/173.7178, φ = RD/173.7178). Player A made
PR_A over n_A decisions (unforced moves and close cube decisions), player B PR_B over n_B. Then

    PR_B − PR_A = (μ_A − μ_B)·173.7178/β + ε,   ε ~ N(0, s²·(1/n_A + 1/n_B)),

β being the rating points one PR point is worth, and s the spread of one decision's error (in PR
points: a player's PR over n decisions scatters by s/sqrt(n) about his mean). Read the other
way, y = (PR_B − PR_A)·β/173.7178 measures μ_A − μ_B with the variance
R = (β/173.7178)²·s²·(1/n_A + 1/n_B). Before the result is rated, the two ratings take this
measurement in, a Kalman step with each player's own deviation as his prior variance:

    P = φ_A² + φ_B²,   innovation = y − (μ_A − μ_B),
    μ_A += φ_A²/(P + R)·innovation,   μ_B −= φ_B²/(P + R)·innovation,
    φ_A² ← φ_A²·(1 − φ_A²/(P + R)),   φ_B² likewise,

then the result is rated by `crawford`'s update from these ratings. So a player who made fewer
errors than the ratings expected of him moves up before the result counts: an unlucky loss costs
him less than under `crawford`, a lucky win against better play earns his opponent less. A match
whose error-rate difference is the one the ratings forecast moves the ratings by the result
alone (the deviations still shrink).

One decision's spread s is the same for every player by default. With `pr_noise_relative` it is
in proportion to the player's error rate instead, s·(PR + 1) (so s is a ratio; the 1 PR point,
RELATIVE_FLOOR, keeps a match played without an error from being an exact measurement), and
R = (β/173.7178)²·s²·((PR_A + 1)²/n_A + (PR_B + 1)²/n_B): on the bot league a bot's PR over a
match scatters by about half its mean, from the best bots to the worst.

β and s are fitted by `fit_error_rate_weight` on a history: maximum likelihood of what each
match shows, forecast before the match from the ratings so far (the filter's prequential
likelihood): its winner, with `predict`'s chance, and, when analysed, its error-rate difference,
PR_B − PR_A ~ N((μ_A − μ_B)·173.7178/β, s²·(1/n_A + 1/n_B) + (173.7178/β)²·(φ_A² + φ_B²)). The
winners are needed: where the error rate outweighs the result, the ratings take their spread
from β itself, and the error rates alone hardly tell β; the winners fix the scale. Without β and
s (the default) the system rates every match as `crawford` does.

Measured on the bot league of bench/ratings_luck.py (docs/ratings.md, "Crawford with the error
rate"): 0.0035 below `crawford`'s held-out log loss, an interval that spans zero, and not ahead
at every length; not adopted.

Only the scalar engine (`run_sequential`; `run` uses it too): this variant is measured on
`bench/ratings_luck.py`, not published on the site.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace

from ratings.systems.crawford import CrawfordParameters, CrawfordRating
from ratings.systems.glicko import GLICKO2_SCALE
from ratings.systems.history import MatchRecord, PlayerRating, ProgressCallback, RunResult

_LOG_TWO_PI = math.log(2.0 * math.pi)

RELATIVE_FLOOR = 1.0
"""With `pr_noise_relative`, the PR points added to a player's error rate before it scales the
spread of his error rate: a match played without an error (PR 0) is not an exact measurement."""


@dataclass(frozen=True, slots=True)
class AnalysedMatch(MatchRecord):
    """A match record with each player's error rate from GNU Backgammon's analysis (PR, and the
    decisions it was measured over). `pr_a` None: not analysed, rated by its winner alone."""

    pr_a: float | None = None
    pr_b: float | None = None
    decisions_a: int = 0
    decisions_b: int = 0

    @property
    def analysed(self) -> bool:
        """True when both error rates are known, each over at least one decision."""
        return (self.pr_a is not None and self.pr_b is not None
                and self.decisions_a > 0 and self.decisions_b > 0)


@dataclass(frozen=True, slots=True)
class PrSkillParameters(CrawfordParameters):
    """`CrawfordParameters` and the weight of the error rate: `pr_points` (β, rating points per
    PR point) and `pr_noise` (s, one decision's spread in PR points). Either None: the error
    rate is not used and the system rates as `crawford`."""

    pr_points: float | None = None
    pr_noise: float | None = None
    pr_noise_relative: bool = False
    """True: one decision's spread is s·(PR + RELATIVE_FLOOR), in proportion to the player's
    error rate, s a ratio (see RELATIVE_FLOOR); False: s PR points for everyone."""

    def __post_init__(self) -> None:
        CrawfordParameters.__post_init__(self)
        for name in ("pr_points", "pr_noise"):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise ValueError(f"{name} must be positive, not {value!r}")

    @property
    def uses_error_rate(self) -> bool:
        return self.pr_points is not None and self.pr_noise is not None


class PrSkillRating(CrawfordRating):
    """`crawford` that also takes in each analysed match's error-rate difference (see the module's
    description); give it `AnalysedMatch` records."""

    name = "prskill"
    vectorised = False  # measured on bench/ratings_luck.py, not published: the scalar engine alone

    def __init__(self, parameters: PrSkillParameters | None = None) -> None:
        if parameters is None:
            parameters = PrSkillParameters()
        elif not isinstance(parameters, PrSkillParameters):
            parameters = PrSkillParameters(**{name: getattr(parameters, name)
                                              for name in CrawfordParameters.__dataclass_fields__})
        super().__init__(parameters)

    def __repr__(self) -> str:
        return f"PrSkillRating({self.parameters!r})"

    def _run(
        self,
        records: Sequence[MatchRecord],
        progress: ProgressCallback | None,
        keep_changes: bool,
        starting_ratings: Mapping[Hashable, PlayerRating],
        measure: Callable | None = None,
    ) -> RunResult:
        """`crawford`'s scalar engine with the error-rate step before each analysed result."""
        if measure is None and self.parameters.uses_error_rate:
            measure = ErrorRateStep(self.parameters)
        return super()._run(records, progress, keep_changes, starting_ratings, measure)

    def log_likelihood(self, records: Sequence[MatchRecord]) -> tuple[float, float]:
        """(error rates, results): the log-likelihood of the analysed matches' error-rate
        differences and of every match's winner, each forecast from the ratings before the match,
        with a new player's deviation estimated as a run estimates it."""
        step = ErrorRateStep(self.parameters) if self.parameters.uses_error_rate else None
        run = self._run(records, None, True, {}, step)
        results = math.fsum(math.log(max(1e-12, change.expected if change.won else 1.0 - change.expected))
                            for change in run.changes[::2])
        return (step.log_likelihood if step is not None else 0.0), results


class ErrorRateStep:
    """The Kalman step of an analysed match's error-rate difference (see the module's
    description), as `CrawfordRating._run` takes a `measure`; it sums the log-likelihood of the
    differences it takes in, each forecast from the ratings before it (in PR points)."""

    def __init__(self, parameters: PrSkillParameters) -> None:
        self.per_pr = parameters.pr_points / GLICKO2_SCALE  # μ per PR point
        self.noise2 = parameters.pr_noise * parameters.pr_noise
        self.relative = parameters.pr_noise_relative
        self.log_likelihood = 0.0

    def __call__(self, record, mu_a: float, phi_a: float, mu_b: float, phi_b: float) -> tuple:
        if not getattr(record, "analysed", False):
            return mu_a, phi_a, mu_b, phi_b
        # the error-rate difference: a measurement y of μ_A − μ_B with variance R
        if self.relative:
            spread = ((record.pr_a + RELATIVE_FLOOR) ** 2 / record.decisions_a
                      + (record.pr_b + RELATIVE_FLOOR) ** 2 / record.decisions_b)
        else:
            spread = 1.0 / record.decisions_a + 1.0 / record.decisions_b
        per_pr = self.per_pr
        measured = (record.pr_b - record.pr_a) * per_pr
        noise = per_pr * per_pr * self.noise2 * spread
        prior = phi_a * phi_a + phi_b * phi_b
        innovation = measured - (mu_a - mu_b)
        total_variance = prior + noise
        # the likelihood in PR points: divide the μ-scale density by per_pr
        self.log_likelihood -= 0.5 * (_LOG_TWO_PI + math.log(total_variance)
                                      + innovation * innovation / total_variance) - math.log(per_pr)
        gain_a = phi_a * phi_a / total_variance
        gain_b = phi_b * phi_b / total_variance
        return (mu_a + gain_a * innovation, phi_a * math.sqrt(1.0 - gain_a),
                mu_b - gain_b * innovation, phi_b * math.sqrt(1.0 - gain_b))


def fit_error_rate_weight(
    records: Sequence[MatchRecord],
    parameters: CrawfordParameters | None = None,
    *,
    rounds: int = 6,
    objective: str = "joint",
) -> PrSkillParameters:
    """`parameters` with β (`pr_points`) and s (`pr_noise`) fitted to `records` (a history in time
    order, with `AnalysedMatch`es among them) by maximum likelihood (`PrSkillRating.log_likelihood`)
    of the `objective`: `joint` (the error-rate differences and the winners), `results` (the
    winners alone) or `error_rates` (the differences alone).

    A search on a logarithmic grid, within β from 25 to 3,200 rating points per PR point and s
    from 2 to 128 (s a ratio from 1/16 to 4 with `pr_noise_relative`): first every factor of 2; then, `rounds` times, the step halved and a 3 × 3 grid moved
    about the best point until the best is its centre (the last step a factor of 2^(1/64), 1%). Raises ValueError when fewer
    than 10 matches are analysed."""
    if sum(getattr(r, "analysed", False) for r in records) < 10:
        raise ValueError("too few analysed matches to fit the weight of the error rate (10 or more)")
    base = parameters if parameters is not None else CrawfordParameters()
    base = PrSkillRating(base).parameters

    def log_likelihood(log_beta: float, log_s: float) -> float:
        fitted = replace(base, pr_points=math.exp(log_beta), pr_noise=math.exp(log_s))
        error_rates, results = PrSkillRating(fitted).log_likelihood(records)
        return {"joint": error_rates + results, "results": results, "error_rates": error_rates}[objective]

    step = math.log(2.0)
    betas = (math.log(25.0), math.log(3200.0))
    noises = (math.log(2.0), math.log(128.0))
    if base.pr_noise_relative:
        noises = (math.log(1.0 / 16.0), math.log(4.0))
    scores = {(b, s): log_likelihood(b, s)
              for b in (betas[0] + i * step for i in range(8))
              for s in (noises[0] + j * step for j in range(7))}
    best = max(scores, key=scores.get)
    for _ in range(rounds):
        step /= 2.0
        centre = None
        while best != centre:  # move the 3 × 3 grid until its centre is the best point
            centre = best
            for db in (-step, 0.0, step):
                for ds in (-step, 0.0, step):
                    point = (min(betas[1], max(betas[0], centre[0] + db)),
                             min(noises[1], max(noises[0], centre[1] + ds)))
                    if point not in scores:
                        scores[point] = log_likelihood(*point)
            best = max(scores, key=scores.get)
    return replace(base, pr_points=math.exp(best[0]), pr_noise=math.exp(best[1]))
