"""Round robin: Berger tables and standings with tie-breaks."""

from itertools import combinations

from tournaments.formats import Competitor, Result
from tournaments.formats.round_robin import RoundRobin, berger_table
from tournaments.formats.standings import TieBreak

H2H, SB = TieBreak.HEAD_TO_HEAD, TieBreak.SONNEBORN_BERGER


def field(n):
    return [Competitor(seed, seed) for seed in range(1, n + 1)]


def test_the_berger_table_for_six_matches_the_published_one():
    assert berger_table(6) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


def test_nine_players_meet_everyone_once_over_nine_rounds_with_one_bye_each():
    rr = RoundRobin(field(9))
    assert len(rr.rounds) == 9
    assert all(len(r) == 5 and sum(p.is_bye for p in r) == 1 for r in rr.rounds)
    games = [frozenset(p.players) for p in rr.pairings if not p.is_bye]
    assert len(games) == len(set(games)) == 36
    assert set(games) == {frozenset(pair) for pair in combinations(range(1, 10), 2)}
    assert sorted(p.a for p in rr.pairings if p.is_bye) == list(range(1, 10))


# Nine players; the better seed wins every match except six upsets:
#   3 beats 1, 4 beats 2, 4 beats 3, 7 beats 5, 6 beats 4, 9 beats 6.
# Points (wins):
#   1: beats 2 4 5 6 7 8 9 = 7        6: beats 4 7 8 = 3
#   2: beats 3 5 6 7 8 9 = 6          7: beats 5 8 9 = 3
#   3: beats 1 5 6 7 8 9 = 6          8: beats 9 = 1
#   4: beats 2 3 5 7 8 9 = 6          9: beats 6 = 1
#   5: beats 6 8 9 = 3
# 2, 3, 4 level on 6: among them 4 beat 2 and 3 (2 wins), 2 beat 3 (1), 3 none (0).
# 5, 6, 7 level on 3: 5 beat 6, 6 beat 7, 7 beat 5: one win each, so Sonneborn-Berger:
#   5: 6 (3) + 8 (1) + 9 (1) = 5;  6: 4 (6) + 7 (3) + 8 (1) = 10;  7: 5 (3) + 8 (1) + 9 (1) = 5
#   6 is 5th; 5 and 7 are still level and share 6th.
# 8, 9 level on 1: 8 beat 9.
# Sonneborn-Berger of the others: 1: 6+6+3+3+3+1+1 = 23; 2: 6+3+3+3+1+1 = 17;
#   3: 7+3+3+3+1+1 = 18; 4: 6+6+3+3+1+1 = 20; 8: 1; 9: 3.
UPSETS = {(3, 1), (4, 2), (4, 3), (7, 5), (6, 4), (9, 6)}


def winner(pairing):
    a, b = pairing.a, pairing.b
    if (a, b) in UPSETS:
        return a
    if (b, a) in UPSETS:
        return b
    return min(a, b)


def test_nine_player_round_robin_standings_match_the_hand_worked_example():
    rr = RoundRobin(field(9))
    rr = RoundRobin(field(9), results=[Result(p.slot, winner(p)) for p in rr.ready()])
    assert rr.is_finished
    lines = rr.standings()
    assert [(s.rank, s.competitor, s.points, s.tie_break(H2H), s.tie_break(SB)) for s in lines] == [
        (1, 1, 7, 0, 23),
        (2, 4, 6, 2, 20),
        (3, 2, 6, 1, 17),
        (4, 3, 6, 0, 18),
        (5, 6, 3, 1, 10),
        (6, 5, 3, 1, 5),
        (6, 7, 3, 1, 5),
        (8, 8, 1, 1, 1),
        (9, 9, 1, 0, 3),
    ]
    assert all(s.byes == 1 and s.wins + s.losses == 8 for s in lines)
