"""The luck-adjusted variant of the variance-adjusted rating (`skill`).

The same engine as `crawford` (Glicko-2 with the effective length S(N) and both players'
deviations), with one difference: a match GNU Backgammon has analysed is rated by its
luck-adjusted result instead of its winner. An unanalysed match is rated by its winner, exactly
as `crawford` rates it.

GNU Backgammon's luck-adjusted result in match play is in match-winning chance, centred on an
even match: the actual result is +0.5 for the winner and −0.5 for the loser (a match won is
100% − 50% of match-winning chance), and the luck-adjusted result is the actual result minus the
luck of the dice each side had, measured as the match-winning chance each roll gained or lost
against the average roll. So the score a match gives player A is

    score = 0.5 + luck-adjusted result of A,  clamped to [0, 1],

which is exactly the win (1) or the loss (0) when the dice were neutral, and otherwise the share
of the match A earned by his play: the result the glicko update would see if the dice had been
even. Since the luck-adjusted result is the actual result less the luck, whose expectation is
nil, 0.5 + LAR has the expectation of the win itself (P(A wins)), which is what the engine's
expected score E forecasts: the update stays unbiased and keeps the scale of a win, where
0.5 + LAR/2 would count a neutral win as 0.75 and halve every step.

The clamp bites where the luck-adjusted result leaves ±0.5, a match won against dice that were
worth more than the match (207 of the 1,200 matches of the bot league of
bench/ratings_luck.py, up to ±1.4): such a match counts as a whole win or loss, no more.
"""

from __future__ import annotations

from ratings.systems.crawford import CrawfordRating


def luck_adjusted_score(luck_adjusted_result: float) -> float:
    """Player A's score in [0, 1] from his luck-adjusted result (match-winning chance, ±0.5 for
    a neutral win or loss): 0.5 + the result, clamped."""
    return min(1.0, max(0.0, 0.5 + luck_adjusted_result))


def luck_adjusted_scores(luck_adjusted_results):
    """`luck_adjusted_score` for a numpy array of results at once; NaN (not analysed) stays NaN."""
    import numpy as np

    return np.clip(0.5 + np.asarray(luck_adjusted_results, dtype=np.float64), 0.0, 1.0)


class SkillRating(CrawfordRating):
    """`crawford` that rates analysed matches by their luck-adjusted score (`MatchRecord.score`)."""

    name = "skill"
    scored_by_luck = True
    """The caller gives this system each analysed match's luck-adjusted score."""
