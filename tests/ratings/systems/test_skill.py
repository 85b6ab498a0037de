from dataclasses import replace

import pytest

from ratings.systems import (
    CrawfordParameters,
    CrawfordRating,
    FibsRating,
    RatingInputError,
    SkillRating,
    get_system,
    luck_adjusted_score,
)
from ratings.systems.glicko import GameResult, Glicko2Rating, rating_period_update

from .helpers import OPENING_DAY, experienced, match


def scored(record, score):
    return replace(record, score=score)


def test_the_luck_adjusted_score_is_one_half_plus_the_luck_adjusted_result():
    assert luck_adjusted_score(0.5) == 1.0
    assert luck_adjusted_score(-0.5) == 0.0
    assert luck_adjusted_score(0.0) == 0.5
    assert luck_adjusted_score(0.125) == 0.625
    assert luck_adjusted_score(-0.375) == 0.125


def test_a_luck_adjusted_score_beyond_a_whole_match_is_clamped():
    assert luck_adjusted_score(0.5952572822570801) == 1.0
    assert luck_adjusted_score(-0.61) == 0.0


def test_an_analysed_match_gives_the_engine_its_luck_adjusted_score():
    # over 25 points the update is plain Glicko-2: the score 0.7 is rated as a game scored 0.7
    parameters = CrawfordParameters(effective_lengths={25: 25.0}, tau=0.5)
    ann = experienced("ann", 1500.0, deviation=200.0, volatility=0.06, last_played=OPENING_DAY)
    bob = experienced("bob", 1400.0, deviation=30.0, volatility=0.06, last_played=OPENING_DAY)
    record = scored(match(1, "ann", "bob", 25, "b"), luck_adjusted_score(0.2))
    for run in (SkillRating(parameters).run, SkillRating(parameters).run_sequential):
        result = run([record], starting_ratings={"ann": ann, "bob": bob})
        for player, opponent, score in ((ann, bob, 0.7), (bob, ann, 0.3)):
            plain = rating_period_update(
                Glicko2Rating(player.rating, player.deviation, player.volatility),
                [GameResult(opponent.rating, opponent.deviation, score)],
                tau=0.5,
                growth_periods=0.0,
            )
            rated = result.ratings[player.player]
            assert rated.rating == pytest.approx(plain.rating, abs=1e-9)
            assert rated.deviation == pytest.approx(plain.deviation, abs=1e-9)
        # the change still records who won the match
        assert [(c.player, c.won) for c in result.changes] == [("ann", False), ("bob", True)]


def test_a_history_without_analysed_matches_rates_exactly_as_crawford():
    history = [match(i, "ann" if i % 3 else "bob", "cat" if i % 2 else "dan", 1 + 2 * (i % 4), "ab"[i % 2], day=i)
               for i in range(40)]
    crawford = get_system("crawford").run(history)
    skill = get_system("skill").run(history)
    assert skill.system == "skill"
    assert {p: (r.rating, r.deviation, r.volatility) for p, r in skill.ratings.items()} == {
        p: (r.rating, r.deviation, r.volatility) for p, r in crawford.ratings.items()
    }
    assert [c[4:] for c in skill.changes] == [c[4:] for c in crawford.changes]


def test_the_vectorised_and_scalar_engines_agree_on_luck_adjusted_scores():
    history = [
        scored(match(i, f"p{i % 5}", f"p{(i * 3 + 1) % 5 if (i * 3 + 1) % 5 != i % 5 else (i + 2) % 5}",
                     1 + 2 * (i % 4), "ab"[i % 2], day=i // 3), None if i % 4 == 0 else (i % 7) / 7)
        for i in range(120)
    ]
    batched = SkillRating().run(history)
    sequential = SkillRating().run_sequential(history)
    for player, rating in sequential.ratings.items():
        assert batched.ratings[player].rating == pytest.approx(rating.rating, abs=1e-7)
        assert batched.ratings[player].deviation == pytest.approx(rating.deviation, abs=1e-7)


def test_a_score_outside_zero_to_one_is_refused():
    with pytest.raises(RatingInputError, match="score must lie in"):
        SkillRating().run([scored(match(1, "ann", "bob", 5, "a"), 1.25)])


def test_fibs_rates_the_winner_whatever_the_score():
    plain = [match(1, "ann", "bob", 5, "a"), match(2, "bob", "cat", 3, "b", day=1)]
    with_scores = [scored(plain[0], 0.1), scored(plain[1], 0.9)]
    assert FibsRating().run(with_scores).ratings == FibsRating().run(plain).ratings
    assert isinstance(get_system("skill"), CrawfordRating)
