import math
import random
from datetime import timedelta

import pytest

from ratings.systems import CrawfordParameters, CrawfordRating, MatchRecord
from ratings.systems.prskill import AnalysedMatch, PrSkillParameters, PrSkillRating, fit_error_rate_weight

from .helpers import OPENING_DAY, experienced, match

SCALE = 173.7178


def analysed(record, pr_a, pr_b, decisions_a=50, decisions_b=50):
    return AnalysedMatch(*(getattr(record, name) for name in MatchRecord.__dataclass_fields__),
                         pr_a=pr_a, pr_b=pr_b, decisions_a=decisions_a, decisions_b=decisions_b)


def history(count=40):
    return [match(i, "ann" if i % 3 else "bob", "cat" if i % 2 else "dan", 1 + 2 * (i % 4), "ab"[i % 2], day=i)
            for i in range(count)]


@pytest.mark.parametrize("relative, s, spread, total, ann_after, bob_after", [
    (False, 20.0, 1 / 40 + 1 / 60, 22.9197, 1517.8916, 1448.0120),
    # a spread in proportion to each player's PR + 1: s·5 for Ann, s·8 for Bob
    (True, 2.0, 5 ** 2 / 40 + 8 ** 2 / 60, 9.7975, 1541.8546, 1445.3495),
])
def test_the_error_rates_are_a_kalman_step_before_crawfords_update_of_the_result(
    relative, s, spread, total, ann_after, bob_after
):
    # β 200 rating points per PR point: Ann played 4.0 over 40 decisions, Bob 7.0 over 60
    parameters = PrSkillParameters(tau=0.5, pr_points=200.0, pr_noise=s, pr_noise_relative=relative)
    ann = experienced("ann", 1500.0, deviation=150.0, volatility=0.06, last_played=OPENING_DAY)
    bob = experienced("bob", 1450.0, deviation=50.0, volatility=0.06, last_played=OPENING_DAY)
    record = analysed(match(1, "ann", "bob", 5, "b"), 4.0, 7.0, 40, 60)
    result = PrSkillRating(parameters).run([record], starting_ratings={"ann": ann, "bob": bob})

    # by hand, on the Glicko-2 scale: y = 3 PR points × β, R = (β s)²·spread
    measured = 3.0 * 200.0 / SCALE
    noise = (200.0 * s / SCALE) ** 2 * spread
    phi_a2, phi_b2 = (150.0 / SCALE) ** 2, (50.0 / SCALE) ** 2
    innovation = measured - 50.0 / SCALE
    assert innovation == pytest.approx(3.1661, abs=1e-4)
    assert phi_a2 + phi_b2 + noise == pytest.approx(total, abs=1e-4)
    total = phi_a2 + phi_b2 + noise
    after_step = {
        "ann": experienced("ann", 1500.0 + SCALE * phi_a2 / total * innovation,
                           deviation=SCALE * math.sqrt(phi_a2 * (1 - phi_a2 / total)), volatility=0.06,
                           last_played=OPENING_DAY),
        "bob": experienced("bob", 1450.0 - SCALE * phi_b2 / total * innovation,
                           deviation=SCALE * math.sqrt(phi_b2 * (1 - phi_b2 / total)), volatility=0.06,
                           last_played=OPENING_DAY),
    }
    assert after_step["ann"].rating == pytest.approx(ann_after, abs=1e-4)
    assert after_step["bob"].rating == pytest.approx(bob_after, abs=1e-4)
    # then the result (Bob won) as crawford rates it from there
    expected = CrawfordRating(CrawfordParameters(tau=0.5)).run_sequential(
        [match(1, "ann", "bob", 5, "b")], starting_ratings=after_step)
    for player in ("ann", "bob"):
        assert result.ratings[player].rating == pytest.approx(expected.ratings[player].rating, abs=1e-9)
        assert result.ratings[player].deviation == pytest.approx(expected.ratings[player].deviation, abs=1e-9)
        assert result.ratings[player].volatility == pytest.approx(expected.ratings[player].volatility, abs=1e-12)
    # Ann lost the match but played 3 PR points better: she ends above where crawford puts her
    # (below 1500 with s 20, above it with the relative spread), and the change records the loss
    crawford = CrawfordRating(CrawfordParameters(tau=0.5)).run_sequential(
        [match(1, "ann", "bob", 5, "b")], starting_ratings={"ann": ann, "bob": bob})
    assert crawford.ratings["ann"].rating < result.ratings["ann"].rating
    assert (result.ratings["ann"].rating > 1500.0) == relative
    assert [(c.player, c.won, c.rating_before) for c in result.changes] == [("ann", False, 1500.0),
                                                                          ("bob", True, 1450.0)]


def test_a_history_without_analysed_matches_rates_exactly_as_crawford():
    plain = history()
    crawford = CrawfordRating().run_sequential(plain)
    unanalysed = [analysed(r, None, None, 0, 0) for r in plain]
    for records in (plain, unanalysed):
        run = PrSkillRating(PrSkillParameters(pr_points=150.0, pr_noise=30.0)).run(records)
        assert run.system == "prskill"
        assert {p: (r.rating, r.deviation, r.volatility) for p, r in run.ratings.items()} == {
            p: (r.rating, r.deviation, r.volatility) for p, r in crawford.ratings.items()
        }
        assert [c[1:] for c in run.changes] == [c[1:] for c in crawford.changes]


def test_without_a_fitted_weight_the_error_rates_are_ignored():
    records = [analysed(r, 3.0 + i % 5, 9.0 - i % 4) for i, r in enumerate(history())]
    crawford = CrawfordRating().run_sequential(history())
    run = PrSkillRating().run(records)
    assert run.ratings == {p: r for p, r in crawford.ratings.items()}


def test_the_weight_of_the_error_rate_must_be_positive():
    with pytest.raises(ValueError, match="pr_points must be positive"):
        PrSkillParameters(pr_points=0.0, pr_noise=10.0)


def synthetic_league(beta, noise, matches=1200, players=16, seed=3):
    """Players of known strength (spread 200): results drawn from crawford's own forecast, each
    player's PR = 10 − (strength − 1500)/β, plus noise/sqrt(decisions)."""
    rng = random.Random(seed)
    strengths = [rng.gauss(0.0, 200.0) for _ in range(players)]
    system = CrawfordRating()
    out = []
    for number in range(matches):
        a, b = rng.sample(range(players), 2)
        length = (1, 3, 5, 7)[number % 4]
        k = system.parameters.length_factor(length)
        p_a = 1.0 / (1.0 + math.exp(-k * (strengths[a] - strengths[b]) / SCALE))
        decisions = [rng.randint(10 * length, 20 * length) for _ in range(2)]
        prs = [10.0 - strengths[i] / beta + rng.gauss(0.0, noise / math.sqrt(n)) for i, n in zip((a, b), decisions)]
        out.append(AnalysedMatch(number, OPENING_DAY + timedelta(days=number // 4), a, b, length,
                                 "a" if rng.random() < p_a else "b", None, *prs, *decisions))
    return out


def test_the_fit_recovers_the_weight_of_a_synthetic_league():
    records = synthetic_league(beta=100.0, noise=25.0)
    fitted = fit_error_rate_weight(records, CrawfordParameters(), rounds=3)
    assert fitted.pr_points == pytest.approx(100.0, rel=0.2)  # 109
    assert fitted.pr_noise == pytest.approx(25.0, rel=0.1)  # 24.7


def test_the_fit_needs_analysed_matches():
    with pytest.raises(ValueError, match="too few analysed matches"):
        fit_error_rate_weight(history())


def test_prskill_rates_with_the_scalar_engine_alone_and_the_array_entry_points_refuse_it():
    records = [analysed(r, 3.0 + i % 5, 9.0 - i % 4) for i, r in enumerate(history())]
    system = PrSkillRating(PrSkillParameters(pr_points=150.0, pr_noise=30.0))
    assert system.run(records) == system.run_sequential(records)
    assert system.run(records).ratings != CrawfordRating().run_sequential(records).ratings  # the error rates count
    batches = pytest.importorskip("ratings.systems.batches")
    with pytest.raises(RuntimeError, match="prskill rates with the scalar engine alone"):
        system.run_arrays([1, 2], [0, 1], [0, 1], [1, 0], [5, 5], [True, False], players=2)
    settled = PrSkillRating(PrSkillParameters(pr_points=150.0, pr_noise=30.0))
    history_arrays, _, _ = batches.records_as_arrays(records, [])
    with pytest.raises(RuntimeError, match="prskill rates with the scalar engine alone"):
        settled.rate_state(history_arrays, settled.new_state(history_arrays.players))
