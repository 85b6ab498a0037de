"""Swiss pairing, elimination after k losses, and Swiss standings with tie-breaks."""

import pytest

from tournaments.formats import BracketUserError, Competitor, Pairing, Result
from tournaments.formats.standings import TieBreak
from tournaments.formats.swiss import Swiss, SwissSettings

BH, MBH, SB, H2H = (
    TieBreak.BUCHHOLZ,
    TieBreak.MEDIAN_BUCHHOLZ,
    TieBreak.SONNEBORN_BERGER,
    TieBreak.HEAD_TO_HEAD,
)


def field(n):
    return [Competitor(seed, seed) for seed in range(1, n + 1)]


def table(pairings):
    return [(p.a, p.b) for p in pairings]


# The six-player example, worked by hand.
# Round 1, one score group, top half v bottom half: 1 v 4, 2 v 5, 3 v 6.
#   1, 5 and 3 win.
# Round 2: 1, 3, 5 on 1 point; 2, 4, 6 on 0. The top group is odd: 1 v 3, and 5 floats down to
#   meet the best of the 0s he has not played: 2 is a rematch, so 5 v 4; then 2 v 6.
#   3, 5 and 6 win.
# Round 3: 3, 5 on 2; 1, 6 on 1; 2, 4 on 0: 3 v 5, 1 v 6, 2 v 4. 5, 1 and 4 win.
# Points: 5 has 3; 3 and 1 have 2; 6 and 4 have 1; 2 has 0.
# Buchholz (opponents' points), median Buchholz (without best and worst), Sonneborn-Berger
# (points of the opponents beaten):
#   1: met 4 (1), 3 (2), 6 (1)  BH 4  MBH 1  SB 1 + 1 = 2
#   3: met 6 (1), 1 (2), 5 (3)  BH 6  MBH 2  SB 1 + 2 = 3
#   5: met 2 (0), 4 (1), 3 (2)  BH 3  MBH 1  SB 0 + 1 + 2 = 3
#   6: met 3 (2), 2 (0), 1 (2)  BH 4  MBH 2  SB 0
#   4: met 1 (2), 5 (3), 2 (0)  BH 5  MBH 2  SB 0
#   2: met 5 (3), 6 (1), 4 (1)  BH 5  MBH 1  SB 0
WINNERS = {1: [1, 5, 3], 2: [3, 5, 6], 3: [5, 1, 4]}


def six_player_swiss(tie_breaks=(BH, MBH, SB, H2H)):
    settings = SwissSettings(rounds=3, tie_breaks=tie_breaks)
    pairings, results = [], []
    for round_no in (1, 2, 3):
        new = Swiss(field(6), settings, pairings=pairings, results=results).pair_next_round()
        pairings += new
        results += [
            Result(p.slot, next(w for w in WINNERS[round_no] if w in p.players)) for p in new
        ]
    return Swiss(field(6), settings, pairings=pairings, results=results)


def test_six_players_are_paired_by_score_group_without_rematches():
    swiss = six_player_swiss()
    by_round = {r: table(p for p in swiss.pairings if p.round_no == r) for r in (1, 2, 3)}
    assert by_round == {
        1: [(1, 4), (2, 5), (3, 6)],
        2: [(1, 3), (5, 4), (2, 6)],
        3: [(3, 5), (1, 6), (2, 4)],
    }
    assert swiss.is_finished


def test_six_player_standings_match_the_hand_worked_tie_breaks():
    lines = six_player_swiss().standings()
    assert [
        (s.rank, s.competitor, s.points, s.wins, s.losses, s.tie_break(BH), s.tie_break(MBH), s.tie_break(SB))
        for s in lines
    ] == [
        (1, 5, 3, 3, 0, 3, 1, 3),
        (2, 3, 2, 2, 1, 6, 2, 3),
        (3, 1, 2, 2, 1, 4, 1, 2),
        (4, 4, 1, 1, 2, 5, 2, 0),
        (5, 6, 1, 1, 2, 4, 2, 0),
        (6, 2, 0, 0, 3, 5, 1, 0),
    ]


def test_tie_breaks_apply_in_the_order_the_td_chose_and_full_ties_share_a_rank():
    # SB first: 3 (3) over 1 (2). 4 and 6 are level on SB (0) and never met (head-to-head 0),
    # so they share 4th, listed by seed.
    lines = six_player_swiss(tie_breaks=(SB, H2H)).standings()
    assert [(s.rank, s.competitor) for s in lines] == [(1, 5), (2, 3), (3, 1), (4, 4), (4, 6), (6, 2)]
    # Head-to-head first: 3 beat 1 in round 2.
    lines = six_player_swiss(tie_breaks=(H2H, BH)).standings()
    assert [(s.competitor, s.tie_break(H2H)) for s in lines[1:3]] == [(3, 1), (1, 0)]


def run_to_the_end(n, settings, winner=min):
    pairings, results = [], []
    while True:
        swiss = Swiss(field(n), settings, pairings=pairings, results=results)
        if swiss.is_finished:
            return swiss
        new = swiss.pair_next_round()
        pairings += new
        results += [Result(p.slot, winner(p.a, p.b)) for p in new if not p.is_bye]


def test_a_24_player_swiss_out_on_the_third_loss_runs_to_one_survivor():
    swiss = run_to_the_end(24, SwissSettings(out_after_losses=3))
    lines = swiss.standings()
    assert swiss.active() == (1,)
    assert swiss.rounds_paired == 11
    assert all(s.losses == 3 for s in lines if s.competitor != 1)
    assert max(s.byes for s in lines) == 1
    # 23 players out on three losses = 69 losses = 69 matches, plus the byes of odd rounds.
    assert sum(s.losses for s in lines) == 69
    assert [(s.rank, s.competitor, s.points, s.wins, s.losses) for s in lines[:3]] == [
        (1, 1, 11, 10, 0),
        (2, 2, 8, 7, 3),
        (3, 3, 7, 6, 3),
    ]
    assert [s.rank for s in lines] == sorted(s.rank for s in lines)


def test_the_bye_goes_to_the_lowest_player_and_never_twice():
    swiss = run_to_the_end(5, SwissSettings(rounds=4))
    byes = [p.a for p in swiss.pairings if p.is_bye]
    assert byes[0] == 5
    assert len(byes) == len(set(byes)) == 4


def test_a_withdrawn_player_is_not_paired():
    swiss = Swiss(field(6), SwissSettings(rounds=3), withdrawn={6})
    round_one = swiss.pair_next_round()
    assert 6 not in {player for p in round_one for player in p.players}
    assert [p.a for p in round_one if p.is_bye] == [5]


def test_the_next_round_waits_for_every_result():
    swiss = Swiss(field(4), SwissSettings(rounds=3))
    first = swiss.pair_next_round()
    with pytest.raises(BracketUserError, match="round 1 is not finished \\(1 result missing\\)"):
        Swiss(field(4), SwissSettings(rounds=3), pairings=first,
              results=[Result(first[0].slot, first[0].a)]).pair_next_round()


def test_a_hand_made_round_with_an_avoidable_rematch_is_refused():
    first = [Pairing("R1-1", 1, 1, 2), Pairing("R1-2", 1, 3, 4)]
    swiss = Swiss(field(4), SwissSettings(rounds=3), pairings=first,
                  results=[Result("R1-1", 1), Result("R1-2", 3)])
    with pytest.raises(BracketUserError, match="1 and 2 have already played"):
        swiss.check_round([Pairing("R2-1", 2, 1, 2), Pairing("R2-2", 2, 3, 4)])
    good = [Pairing("R2-1", 2, 1, 3), Pairing("R2-2", 2, 2, 4)]
    assert swiss.check_round(good) == tuple(good)


def test_a_hand_made_round_that_leaves_a_player_out_is_refused():
    swiss = Swiss(field(4), SwissSettings(rounds=3))
    with pytest.raises(BracketUserError, match="4 not paired"):
        swiss.check_round([Pairing("R1-1", 1, 1, 2), Pairing("R1-2", 1, 3, None)])


def test_a_second_bye_is_refused_while_others_have_had_none():
    first = [Pairing("R1-1", 1, 1, 2), Pairing("R1-2", 1, 3, None)]
    swiss = Swiss(field(3), SwissSettings(rounds=3), pairings=first, results=[Result("R1-1", 1)])
    with pytest.raises(BracketUserError, match="3 has already had a bye"):
        swiss.check_round([Pairing("R2-1", 2, 1, 2), Pairing("R2-2", 2, 3, None)])


def test_rematches_are_allowed_only_when_no_other_pairing_exists():
    # Four players, four rounds: after three rounds everyone has met everyone.
    swiss = run_to_the_end(4, SwissSettings(rounds=4))
    assert swiss.rounds_paired == 4
    first_three = {frozenset(p.players) for p in swiss.pairings if p.round_no <= 3}
    assert len(first_three) == 6
