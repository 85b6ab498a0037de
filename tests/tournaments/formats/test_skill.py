"""Win and skill scoring, and the PR tie-break, from the PRs of analysed matches."""

import random
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.formats import (
    BracketUserError,
    Competitor,
    Pairing,
    Result,
    RoundRobin,
    Scoring,
    SwissKnockout,
    TieBreak,
    skill_points,
    standings,
)
from tournaments.formats.swiss import Swiss, SwissSettings

SKILL = Scoring.WIN_AND_SKILL
PR, BH = TieBreak.PR, TieBreak.BUCHHOLZ


def field(n):
    return [Competitor(seed, seed) for seed in range(1, n + 1)]


def table(pairings):
    return [(p.a, p.b) for p in pairings]


def test_the_skill_point_goes_to_a_pr_at_least_one_lower_else_half_each():
    match = Pairing("R1-1", 1, "Anna", "Bo")
    assert skill_points(match, {"Anna": 5.0, "Bo": 6.0}) == {"Anna": 1.0, "Bo": 0.0}
    assert skill_points(match, {"Anna": 9.5, "Bo": 4.1}) == {"Anna": 0.0, "Bo": 1.0}
    assert skill_points(match, {"Anna": 5.0, "Bo": 5.99}) == {"Anna": 0.5, "Bo": 0.5}
    # 8.22 - 7.22 is 0.99999999999999911 in floating point: still a margin of one.
    assert skill_points(match, {"Anna": 7.22, "Bo": 8.22}) == {"Anna": 1.0, "Bo": 0.0}
    assert skill_points(match, None) == {"Anna": 0.5, "Bo": 0.5}
    assert skill_points(match, {"Anna": 5.0}) == {"Anna": 0.5, "Bo": 0.5}


# Six players, round 1 paired 1 v 4, 2 v 5, 3 v 6; the higher seed wins every match.
#   R1-1: 1 (PR 9.0) beats 4 (PR 7.5): 4 played 1.5 better and takes the skill point.
#   R1-2: 2 beats 5, not analysed: half a skill point each.
#   R1-3: 3 (PR 4.0) beats 6 (PR 6.0): 3 takes both points.
# Win and skill: 3 has 2, 2 has 1.5, 1 and 4 have 1, 5 has 0.5, 6 has 0.
# Wins only: 1, 2 and 3 have 1; 4, 5 and 6 have 0.
ROUND_1 = [Result("R1-1", 1), Result("R1-2", 2), Result("R1-3", 3)]
PRS_1 = {"R1-1": {1: 9.0, 4: 7.5}, "R1-3": {3: 4.0, 6: 6.0}}


def after_round_1(scoring, tie_breaks=(PR,)):
    settings_ = SwissSettings(rounds=3, tie_breaks=tie_breaks, scoring=scoring)
    first = Swiss(field(6), settings_).pair_next_round()
    assert table(first) == [(1, 4), (2, 5), (3, 6)]
    return Swiss(field(6), settings_, pairings=first, results=ROUND_1, prs=PRS_1)


def test_win_and_skill_points_and_the_pr_tie_break_after_a_round():
    lines = after_round_1(SKILL).standings()
    assert [(s.rank, s.competitor, s.points, s.tie_break(PR)) for s in lines] == [
        (1, 3, 2.0, 4.0), (2, 2, 1.5, None), (3, 4, 1.0, 7.5), (4, 1, 1.0, 9.0), (5, 5, 0.5, None),
        (6, 6, 0.0, 6.0),
    ]


def test_the_pr_tie_break_puts_a_player_without_an_analysed_match_after_those_with_one():
    lines = after_round_1(Scoring.WINS).standings()
    assert [(s.rank, s.competitor, s.points) for s in lines] == [
        (1, 3, 1), (2, 1, 1), (3, 2, 1), (4, 6, 0), (5, 4, 0), (6, 5, 0)]


def test_the_swiss_pairs_on_the_same_points_as_its_standings():
    # Wins only: 1, 2, 3 on one point: 1 v 2, 3 floats down to 4, then 5 v 6.
    assert table(after_round_1(Scoring.WINS).pair_next_round()) == [(1, 2), (3, 4), (5, 6)]
    # Win and skill: 3 (2) v 2 (1.5); 1 and 4 (1) have met, so 1 meets 5 (0.5) and 4 meets 6.
    swiss = after_round_1(SKILL)
    assert [swiss.points(p) for p in swiss.active()] == [2.0, 1.5, 1.0, 1.0, 0.5, 0.0]
    assert table(swiss.pair_next_round()) == [(3, 2), (1, 5), (4, 6)]


def test_buchholz_counts_the_opponents_skill_points_too():
    lines = after_round_1(SKILL, tie_breaks=(BH, PR)).standings()
    assert {s.competitor: s.tie_break(BH) for s in lines} == {1: 1.0, 2: 0.5, 3: 0.0, 4: 1.0, 5: 1.5, 6: 2.0}
    # 1 and 4 are level on points and Buchholz: the PR decides.
    assert [(s.rank, s.competitor) for s in lines if s.competitor in (1, 4)] == [(3, 4), (4, 1)]


def test_the_average_pr_is_over_every_analysed_match_of_the_player():
    pairings = [Pairing("R1-1", 1, 1, 2), Pairing("R2-1", 2, 1, 2), Pairing("R3-1", 3, 1, 2)]
    results = [Result("R1-1", 1), Result("R2-1", 2), Result("R3-1", 1)]
    prs = {"R1-1": {1: 4.0, 2: 8.0}, "R3-1": {1: 7.0, 2: 6.5}}
    lines = standings(field(2), pairings, results, tie_breaks=(PR,), scoring=SKILL, prs=prs)
    # 1: 2 wins + skill 1 (R1) + 0.5 (R2, not analysed) + 0.5 (R3, 0.5 apart) = 4; 2: 1 + 0 + 0.5 + 0.5.
    assert [(s.competitor, s.points, s.tie_break(PR)) for s in lines] == [(1, 4.0, 5.5), (2, 2.0, 7.25)]


def test_a_bye_is_worth_its_points_and_a_half_and_a_walkover_a_win_and_a_half():
    pairings = [Pairing("R1-1", 1, 1, 2), Pairing("R1-2", 1, 3, None)]
    results = [Result("R1-1", 1, walkover=True)]
    lines = standings(field(3), pairings, results, tie_breaks=(PR,), scoring=SKILL, bye_points=1)
    assert [(s.competitor, s.points, s.byes, s.tie_break(PR)) for s in lines] == [
        (1, 1.5, 0, None), (3, 1.5, 1, None), (2, 0.0, 0, None)]
    # A round robin bye scores no win, only half a point for skill, and every player of three sits
    # out once (a round robin's byes are known from the draw). 2 and 3 shared R1-1's skill point.
    rr = RoundRobin(field(3), results=[Result("R1-1", 2)], scoring=SKILL, tie_breaks=(PR,),
                    prs={"R1-1": {2: 3.0, 3: 3.5}})
    assert table(rr.rounds[0]) == [(2, 3), (1, None)]
    assert [(s.competitor, s.points) for s in rr.standings()] == [(2, 2.0), (3, 1.0), (1, 0.5)]


def test_a_swiss_then_knockout_ranks_its_swiss_with_the_skill_points():
    settings_ = SwissSettings(scoring=SKILL, tie_breaks=(PR,))
    first = Swiss(field(4), SwissSettings(rounds=1)).pair_next_round()
    assert table(first) == [(1, 3), (2, 4)]
    # 1 and 2 win; 3 outplays 1 and 2 outplays 4: 2 (2 points) qualifies first, then 1 and 3 (1 each).
    event = SwissKnockout(field(4), swiss_rounds=1, qualifiers=2, swiss_settings=settings_,
                          swiss_pairings=first, swiss_results=[Result("R1-1", 1), Result("R1-2", 2)],
                          swiss_prs={"R1-1": {1: 9.0, 3: 5.0}, "R1-2": {2: 4.0, 4: 12.0}})
    assert [(s.competitor, s.points) for s in event.swiss.standings()] == [(2, 2.0), (3, 1.0), (1, 1.0), (4, 0.0)]
    assert [c.id for c in event.knockout.competitors] == [2, 3]


def test_the_pr_tie_break_is_listed_once():
    with pytest.raises(BracketUserError, match="listed twice"):
        standings(field(2), [], [], tie_breaks=(PR, PR))


PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(n=st.integers(2, 11), rounds=st.integers(1, 4), draw=st.integers(0, 2**32))
def test_every_match_hands_out_two_points_and_a_bye_one_and_a_half(n, rounds, draw):
    rng = random.Random(draw)
    settings_ = SwissSettings(rounds=rounds, scoring=SKILL, tie_breaks=(PR, BH))
    pairings, results, prs = [], [], {}
    for _ in range(rounds):
        for p in Swiss(field(n), settings_, pairings=pairings, results=results, prs=prs).pair_next_round():
            pairings.append(p)
            if p.is_bye:
                continue
            results.append(Result(p.slot, rng.choice(p.players)))
            if rng.random() < 0.7:
                prs[p.slot] = {player: round(rng.uniform(2, 20), 2) for player in p.players}
    swiss = Swiss(field(n), settings_, pairings=pairings, results=results, prs=prs)
    lines = swiss.standings()
    played = sum(1 for p in pairings if not p.is_bye)
    byes = len(pairings) - played
    assert sum(s.points for s in lines) == 2 * played + 1.5 * byes
    # Pairing and standings count the same points, and they never fall as the rank goes down.
    assert all(swiss.points(s.competitor) == s.points for s in lines)
    assert all(a.points >= b.points for a, b in pairwise(lines))
    # Among players level on points, a lower PR ranks higher and no PR ranks last.
    for a, b in pairwise(lines):
        if a.points == b.points and a.rank < b.rank:
            first, second = a.tie_break(PR), b.tie_break(PR)
            assert second is None or (first is not None and round(first, 9) <= round(second, 9))
