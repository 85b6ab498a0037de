"""Changes within crawford's family tried on the real clubs (issue #23), as forecasters for
`ratings.calibration` (forecaster(history, mode, start, end) -> player A's chances):

* a forecast temperature: P = sigmoid(T · logit(P_crawford)), T fixed or fitted on the past;
* rating periods as textbook Glicko-2 has them: all matches of one day rated together from the
  players' state at the start of that day (one Glicko-2 period with several games); online, a
  match is forecast from the start-of-day state;
* a newcomer starting `newcomer_offset` points from the established players' mean (as
  bench/ratings_newcomers.py);
* a per-length multiplier on k (classes 1-3, 4-5, 6-8, 9+ points), fitted on the past.

Fitted choices are made, before each origin `start`, on the online forecasts of the second half
(by date) of the matches before it, as `FittedNewcomerOffset` does: nothing at or after `start`
chooses anything. With periods off, no offset, multipliers 1 and T 1 the forecasts are crawford's
(`CrawfordVariant`) to the last bit (checked by `--check`).

    python bench/ratings_periods.py [--mode online|frozen] [--only NAME ...] [--choices] [--check]

prints `calibration.format_origins` (every5 origins, both modes) for FIBS, the defaults and
VARIANTS (all of them: 76 s of wall time on the shared two-core machine; --only to pick).
Variant names: "T x" fixed temperature; "T fitted"/"T fit" chosen from 0.60..1.20 (T≤1: from
0.60..1.00 only; "to 1.5": 0.60..1.50) on the last `window` of the matches before the origin
(0.5 unless a number or "long" = 0.8 follows); "same mode": fitted on frozen forecasts of that
window in frozen mode; "new −100": newcomer at the established mean − 100; "new fit": the
offset fitted jointly with T; "periods": a day is one Glicko-2 rating period; "growth 1":
Glickman's step 6 (φ² + σ'²) once per period; "k/length": per-length multipliers on k fitted.

Findings (27 Nov 2026, 1,000 resamples, seed 7; model − FIBS, held-out blocks pooled):
* temperature alone: T < 1 helps the held-out blocks (club, bglab) and hurts the fitting ones;
  fitted per origin it is noisy (0.6 to 1.2 from one origin to the next) and ends near the
  defaults (online −0.0004, −0.0015 vs defaults [−0.0034, +0.0005]);
* periods: worse online (fitting part +0.0019 vs the defaults, interval above zero: forecasts
  within a day lose that day's results), the same frozen (+0.0000);
* per-length k fitted: worse (over-fits the rare lengths of bglab);
* newcomer −100 with T ≤ 1 fitted on the last 25-40% before the origin: held out −0.0050 to
  −0.0061 pooled in both modes, every set below FIBS, intervals below zero; but the league's
  fitting blocks are +0.004 to +0.005 (the defaults +0.0025), and the offset, the cap T ≤ 1 and
  the window were picked among variants after their held-out figures had been seen. With the
  offset fitted per origin too ("new fit, T≤1 fit 0.3") the interval reaches above zero.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.ratings_newcomers import grown_deviation, newcomer_state  # noqa: E402
from ratings.systems import CrawfordParameters, CrawfordRating, MatchRecord  # noqa: E402
from ratings.systems.crawford import _THREE_OVER_PI_SQUARED  # noqa: E402
from ratings.systems.glicko import new_log_volatility  # noqa: E402
from ratings.systems.history import day_number  # noqa: E402

T_GRID = tuple(round(0.6 + 0.05 * i, 2) for i in range(13))  # 0.60 .. 1.20
WIDE_T = tuple(round(0.6 + 0.05 * i, 2) for i in range(19))  # 0.60 .. 1.50
TEMPER_T = tuple(round(0.6 + 0.05 * i, 2) for i in range(9))  # 0.60 .. 1.00: only ever less confident
OFFSET_CHOICES = (None, 0.0, -25.0, -50.0, -100.0, -150.0)
MULTIPLIER_GRID = (0.7, 0.85, 1.0, 1.2, 1.4)
LENGTH_CLASSES = ("1-3", "4-5", "6-8", "9+")


def length_class(length: int) -> int:
    return 0 if length <= 3 else 1 if length <= 5 else 2 if length <= 8 else 3


_ESTIMATES: dict = {}


def estimated(history: Sequence[MatchRecord], start: int, parameters: CrawfordParameters) -> CrawfordParameters:
    key = (id(history), start, repr(parameters))
    if key not in _ESTIMATES:
        _ESTIMATES[key] = parameters
    return _ESTIMATES[key]


@dataclass(frozen=True)
class Engine:
    """crawford run sequentially, by match or (periods) by day; returns the forecasts' logits."""

    periods: bool = False
    newcomer_offset: float | None = None
    multipliers: tuple = (1.0, 1.0, 1.0, 1.0)
    growth: float | None = None
    """Growth of the deviation by σ'² per update (a match, or with periods a day): Glickman's
    step 6 once per rating period; None: the parameters' match_growth (0)."""
    parameters: CrawfordParameters = field(default_factory=CrawfordParameters, compare=False)  # defaults only here

    def logits(self, history: Sequence[MatchRecord], mode: str, start: int, end: int) -> list[float]:
        p = estimated(history, start, self.parameters)
        exp_minus_tau = math.exp(-p.tau)
        multipliers = self.multipliers
        growth = p.match_growth if self.growth is None else self.growth
        states: dict = {}  # player: [μ, φ, σ², ln σ², last day, matches]

        def newcomer(day: float) -> list:
            return newcomer_state(states, p, self.newcomer_offset, day)

        def deviation_on(state: list, day: float) -> float:
            return grown_deviation(state, day, p)

        records = history[:end]
        # groups of match indices rated together: a day (periods) or one match
        groups: list[list[int]] = []
        last_day = None
        for index, record in enumerate(records):
            day = day_number(record.played_on)
            if self.periods and groups and day == last_day:
                groups[-1].append(index)
            else:
                groups.append([index])
            last_day = day

        out: list[float] = []
        for group in groups:
            day = float(day_number(records[group[0]].played_on))
            frozen = mode == "frozen" and group[0] >= start
            # start-of-group state of every player in the group (newcomers created here)
            start_state: dict = {}
            for index in group:
                record = records[index]
                for name in (record.player_a, record.player_b):
                    if name not in start_state:
                        state = states.get(name) or newcomer(day)
                        start_state[name] = (state, deviation_on(state, day))
            games: dict = {}
            for index in group:
                record = records[index]
                a, phi_a = start_state[record.player_a]
                b, phi_b = start_state[record.player_b]
                k = p.length_factor(record.length) * multipliers[length_class(record.length)]
                spread_a = 1.0 + _THREE_OVER_PI_SQUARED * phi_a * phi_a
                spread_b = 1.0 + _THREE_OVER_PI_SQUARED * phi_b * phi_b
                if index >= start:
                    out.append(k * (a[0] - b[0]) / math.sqrt(spread_a + spread_b - 1.0))
                if frozen:
                    continue
                score = 1.0 if record.winner == "a" else 0.0
                games.setdefault(record.player_a, []).append((b[0], k / math.sqrt(spread_b), score))
                games.setdefault(record.player_b, []).append((a[0], k / math.sqrt(spread_a), 1.0 - score))
            if frozen:
                continue
            new_states = {}
            for name, played in games.items():
                state, phi = start_state[name]
                mu = state[0]
                information = 0.0
                surprise = 0.0
                for opponent_mu, kg, score in played:
                    e = 1.0 / (1.0 + math.exp(-kg * (mu - opponent_mu)))
                    information += kg * kg * e * (1.0 - e)
                    surprise += kg * (score - e)
                if information <= 0.0:
                    new = [mu, phi, state[2], state[3]]
                else:
                    variance = 1.0 / information
                    delta = variance * surprise
                    phi2 = phi * phi
                    base = phi2 + variance
                    log_sigma2_new = new_log_volatility(state[3], state[2], delta * delta - base, base, p.tau,
                                                        exp_minus_tau, p.tolerance)
                    sigma2_new = math.exp(log_sigma2_new)
                    phi_new = 1.0 / math.sqrt(1.0 / (phi2 + growth * sigma2_new) + information)
                    new = [mu + phi_new * phi_new * surprise, phi_new, sigma2_new, log_sigma2_new]
                new_states[name] = new + [day, state[5] + len(played)]
            states.update(new_states)
        return out


_LOGITS: dict = {}


def engine_logits(engine: Engine, history, mode: str, start: int, end: int) -> list[float]:
    key = (engine, id(history), mode, start, end)
    if key not in _LOGITS:
        _LOGITS[key] = engine.logits(history, mode, start, end)
    return _LOGITS[key]


def sigmoid(logits, temperature: float = 1.0) -> np.ndarray:
    return np.array([1.0 / (1.0 + math.exp(-temperature * x)) for x in logits])


def past_window(history, start: int, share: float = 0.5) -> tuple[int, np.ndarray]:
    """The last `share` (by date) of the matches before `start` (the second half by default), and
    who won them."""
    from ratings.calibration import a_won, cut

    first = cut(history, (1.0 - share) * start / len(history)) if start else 0
    return first, a_won(history)[first:start]


def mean_loss(logits, won, temperature: float = 1.0) -> float:
    from ratings.calibration import log_losses

    return float(log_losses(sigmoid(logits, temperature), won).mean()) if len(won) else 0.0


_CHOICES: dict = {}


@dataclass(frozen=True)
class Forecaster:
    """An Engine with a temperature; any of the offset, the multipliers and T fitted on the past
    before each origin (offset and T jointly; the multipliers first, by coordinate search)."""

    engine: Engine = field(default_factory=Engine)
    temperature: float = 1.0
    fit_temperature: bool = False
    fit_offset: bool = False
    fit_multipliers: bool = False
    window: float = 0.5
    """The share of the matches before the origin (the last ones) the choices are fitted on."""
    t_grid: tuple = T_GRID
    same_mode: bool = False
    """Fit on forecasts of the window in the mode being forecast (frozen: from the ratings at the
    window's start) instead of online."""

    def choose(self, history, start: int, mode: str = "online") -> tuple[Engine, float]:
        fit_mode = mode if self.same_mode else "online"
        key = (self, id(history), start, fit_mode)
        if key in _CHOICES:
            return _CHOICES[key]
        engine, temperature = self.engine, self.temperature
        first, won = past_window(history, start, self.window)
        if len(won) == 0:
            _CHOICES[key] = engine, temperature
            return _CHOICES[key]
        temperatures = self.t_grid if self.fit_temperature else (temperature,)

        def best(candidate: Engine) -> tuple[float, float]:
            logits = engine_logits(candidate, history, fit_mode, first, start)
            return min((mean_loss(logits, won, t), t) for t in temperatures)

        if self.fit_multipliers:
            present = {length_class(r.length) for r in history[first:start]}
            current = engine
            score = best(current)[0]
            for _ in range(2):
                before = current
                for cls in sorted(present):
                    for value in MULTIPLIER_GRID:
                        multipliers = list(current.multipliers)
                        multipliers[cls] = value
                        candidate = replace(current, multipliers=tuple(multipliers))
                        if candidate == current:
                            continue
                        loss = best(candidate)[0]
                        if loss < score - 1e-9:
                            current, score = candidate, loss
                if current == before:
                    break
            engine = current
        offsets = OFFSET_CHOICES if self.fit_offset else (engine.newcomer_offset,)
        choices = []
        for offset in offsets:
            candidate = replace(engine, newcomer_offset=offset)
            loss, t = best(candidate)
            choices.append((loss, t, candidate))
        loss, temperature, engine = min(choices, key=lambda c: c[0])
        _CHOICES[key] = engine, temperature
        return engine, temperature

    def __call__(self, history, mode: str, start: int, end: int) -> np.ndarray:
        engine, temperature = self.choose(history, start, mode)
        return sigmoid(engine_logits(engine, history, mode, start, end), temperature)


PERIODS = Engine(periods=True)
NEW100 = Engine(newcomer_offset=-100.0)
PERIODS_NEW100 = Engine(periods=True, newcomer_offset=-100.0)

VARIANTS = {
    **{f"T {t:g}": Forecaster(temperature=t) for t in (0.6, 0.7, 0.8, 0.9, 1.1, 1.2)},
    "T fitted": Forecaster(fit_temperature=True),
    "periods": Forecaster(PERIODS),
    **{f"periods, T {t:g}": Forecaster(PERIODS, temperature=t) for t in (0.8, 0.9)},
    "periods, T fitted": Forecaster(PERIODS, fit_temperature=True),
    "newcomer −100": Forecaster(NEW100),
    "new −100, T fitted": Forecaster(NEW100, fit_temperature=True),
    "periods, new −100": Forecaster(PERIODS_NEW100),
    "periods, new −100, T fit": Forecaster(PERIODS_NEW100, fit_temperature=True),
    "new fit, T fit": Forecaster(fit_offset=True, fit_temperature=True),
    "periods, new fit, T fit": Forecaster(PERIODS, fit_offset=True, fit_temperature=True),
    "T fit, long": Forecaster(fit_temperature=True, window=0.8),
    "T fit to 1.5, long": Forecaster(fit_temperature=True, window=0.8, t_grid=WIDE_T),
    "T fit, same mode": Forecaster(fit_temperature=True, same_mode=True),
    "T fit, long, same mode": Forecaster(fit_temperature=True, window=0.8, same_mode=True),
    "new −100, T 0.9": Forecaster(NEW100, temperature=0.9),
    "new −100, T fit long": Forecaster(NEW100, fit_temperature=True, window=0.8),
    "new −100, T long same": Forecaster(NEW100, fit_temperature=True, window=0.8, same_mode=True),
    "per., new −100, T long": Forecaster(PERIODS_NEW100, fit_temperature=True, window=0.8),
    "new fit, T fit long": Forecaster(fit_offset=True, fit_temperature=True, window=0.8),
    "new fit long, T long sm": Forecaster(fit_offset=True, fit_temperature=True, window=0.8, same_mode=True),
    "T fit, window 0.3": Forecaster(fit_temperature=True, window=0.3),
    "new −100, T fit 0.3": Forecaster(NEW100, fit_temperature=True, window=0.3),
    "new fit, T fit, 0.3": Forecaster(fit_offset=True, fit_temperature=True, window=0.3),
    "periods, growth 1": Forecaster(Engine(periods=True, growth=1.0)),
    "periods, growth 1, T fit": Forecaster(Engine(periods=True, growth=1.0), fit_temperature=True),
    "per., growth 1, new −100": Forecaster(Engine(periods=True, growth=1.0, newcomer_offset=-100.0)),
    "per., gr. 1, new −100, T f": Forecaster(Engine(periods=True, growth=1.0, newcomer_offset=-100.0),
                                             fit_temperature=True),
    "T≤1 fit": Forecaster(fit_temperature=True, t_grid=TEMPER_T),
    "T≤1 fit 0.3": Forecaster(fit_temperature=True, t_grid=TEMPER_T, window=0.3),
    "new −100, T≤1 fit": Forecaster(NEW100, fit_temperature=True, t_grid=TEMPER_T),
    "new −100, T≤1 fit 0.3": Forecaster(NEW100, fit_temperature=True, t_grid=TEMPER_T, window=0.3),
    "new fit, T≤1 fit": Forecaster(fit_offset=True, fit_temperature=True, t_grid=TEMPER_T),
    "new fit, T≤1 fit 0.3": Forecaster(fit_offset=True, fit_temperature=True, t_grid=TEMPER_T, window=0.3),
    "per., new −100, T≤1 0.3": Forecaster(PERIODS_NEW100, fit_temperature=True, t_grid=TEMPER_T, window=0.3),
    **{f"new −100, T≤1 fit {w:g}": Forecaster(NEW100, fit_temperature=True, t_grid=TEMPER_T, window=w)
       for w in (0.2, 0.25, 0.35, 0.4)},
    **{f"new {o:g}, T≤1 fit 0.3": Forecaster(Engine(newcomer_offset=o), fit_temperature=True, t_grid=TEMPER_T,
                                            window=0.3) for o in (-50.0, -150.0)},
    "new −100, T fit 0.3 to 1.5": Forecaster(NEW100, fit_temperature=True, t_grid=WIDE_T, window=0.3),
    "k/length fitted": Forecaster(fit_multipliers=True),
    "k/length, T fitted": Forecaster(fit_multipliers=True, fit_temperature=True),
    "periods, k/length, T fit": Forecaster(PERIODS, fit_multipliers=True, fit_temperature=True),
}


def samples():
    from bench.ratings_accuracy import real_samples

    return real_samples()


def check() -> None:
    """With nothing changed the forecasts are CrawfordVariant's (and so crawford's) to the bit."""
    from bench.ratings_newcomers import CrawfordVariant
    from ratings.calibration import chances, cut

    for sample in samples():
        h = sample.history
        start, end = cut(h, 0.6), len(h)
        for mode in ("online", "frozen"):
            mine = Forecaster()(h, mode, start, end)
            theirs = CrawfordVariant()(h, mode, start, end)
            reference = chances(h, CrawfordParameters(), mode, start, end)
            print(sample.name, mode, "== CrawfordVariant:", bool(np.array_equal(mine, theirs)),
                  "max |Δ| vs crawford", float(np.abs(mine - reference).max()))
            mine = Forecaster(NEW100)(h, mode, start, end)
            theirs = CrawfordVariant(newcomer_offset=-100.0)(h, mode, start, end)
            print("   newcomer −100 == CrawfordVariant:", bool(np.array_equal(mine, theirs)))


def main(argv: list[str] | None = None) -> None:
    from ratings import calibration

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=calibration.MODES, action="append")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--only", action="append", help="variant names to run (default all)")
    parser.add_argument("--choices", action="store_true", help="print the fitted choices per origin")
    args = parser.parse_args(argv)
    if args.check:
        check()
        return
    started = time.perf_counter()
    rng = np.random.default_rng(7)
    data = samples()
    if not data:
        print("The real sets are not here (../shared/data/realdata/); nothing to measure.")
        return
    variants = {k: v for k, v in VARIANTS.items() if not args.only or k in args.only}
    models = {"fibs": None, "crawford": CrawfordParameters(), **variants}
    for mode in args.mode or calibration.MODES:
        print()
        scores = calibration.score_origins(data, models, mode)
        for line in calibration.format_origins(scores, "fibs", "crawford", rng, 1000):
            print(line, flush=True)
    if args.choices:
        ordered = sorted(_CHOICES.items(), key=lambda kv: (kv[0][1], kv[0][2]))
        for (forecaster, hid, start, fit_mode), (engine, t) in ordered:
            name = next(k for k, v in variants.items() if v == forecaster)
            set_name = next(s.name for s in data if id(s.history) == hid)
            print(f"  {set_name[:12]} {start:>5} {fit_mode:<6} {name:<26} T {t:g} offset {engine.newcomer_offset}"
                  f" k× {engine.multipliers}")
    print(f"\nDone in {time.perf_counter() - started:.0f} s.")


if __name__ == "__main__":
    main()
