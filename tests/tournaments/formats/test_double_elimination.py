"""Double elimination, with and without a bracket reset."""

from collections import Counter

from tournaments.formats import Competitor, Result
from tournaments.formats.double_elimination import DoubleElimination


def field(n):
    return [Competitor(seed, seed) for seed in range(1, n + 1)]


def play_out(bracket, choose):
    results = []
    while True:
        ready = bracket.with_results(results).ready()
        if not ready:
            return bracket.with_results(results)
        results += [Result(p.slot, choose(p)) for p in ready]


def test_eight_players_with_the_better_seed_winning_play_fourteen_matches():
    # 7 winners' matches, 6 losers' matches (2 + 2 + 1 + 1), one grand final (1 beats 2).
    done = play_out(DoubleElimination(field(8)), lambda p: min(p.a, p.b))
    assert len(done.played()) == 14
    assert done.champion == 1
    assert [(p.competitor, p.label) for p in done.placings()][:4] == [(1, "1"), (2, "2"), (3, "3"), (4, "4")]
    assert done.state("GF-2").status.value == "void"


def test_the_grand_final_is_replayed_when_the_losers_bracket_player_wins_it():
    def choose(p):
        return max(p.a, p.b) if p.slot == "GF-1" else min(p.a, p.b)

    done = play_out(DoubleElimination(field(8)), choose)
    assert [(p.slot, p.a, p.b) for p in done.played() if p.slot.startswith("GF")] == [
        ("GF-1", 1, 2), ("GF-2", 1, 2),
    ]
    assert done.champion == 1


def test_without_a_bracket_reset_the_first_grand_final_decides():
    def choose(p):
        return max(p.a, p.b) if p.slot == "GF-1" else min(p.a, p.b)

    done = play_out(DoubleElimination(field(8), bracket_reset=False), choose)
    assert done.champion == 2
    assert len(done.played()) == 14


def test_losers_of_winners_round_two_drop_in_reverse_order():
    first = [Result(p.slot, min(p.a, p.b)) for p in DoubleElimination(field(8)).ready()]
    bracket = DoubleElimination(field(8), results=first)
    assert [(p.slot, p.a, p.b) for p in bracket.ready() if p.slot.startswith("L")] == [
        ("L1-1", 8, 5), ("L1-2", 7, 6),
    ]
    second = first + [Result(p.slot, min(p.a, p.b)) for p in bracket.ready()]
    bracket = DoubleElimination(field(8), results=second)
    # Winners' round 2: 1 beat 4, 2 beat 3; losers' round 1: 5 and 6 won.
    # 3 (from the lower half) meets 5 (from the upper half) and 4 meets 6.
    assert [(p.slot, p.a, p.b) for p in bracket.ready() if p.slot.startswith("L2")] == [
        ("L2-1", 5, 3), ("L2-2", 6, 4),
    ]


def test_a_walkover_loser_does_not_drop_into_the_losers_bracket():
    ready = DoubleElimination(field(4)).ready()
    results = [Result(ready[0].slot, 1, walkover=True), Result(ready[1].slot, 2)]
    bracket = DoubleElimination(field(4), results=results)
    assert bracket.state("L1-1").status.value == "bye"
    assert bracket.winner("L1-1") == 3


def test_losses_count_two_for_everyone_out_in_a_13_player_event():
    done = play_out(DoubleElimination(field(13)), lambda p: min(p.a, p.b))
    losses = Counter(
        p.b if done.winner(p.slot) == p.a else p.a for p in done.played()
    )
    assert done.champion == 1
    assert all(losses[player] == 2 for player in range(2, 14))


def test_losers_rounds_are_played_to_the_length_of_the_winners_round_they_take_losers_from():
    bracket = DoubleElimination(field(16), lengths=[3, 5, 7, 9])
    lengths = {}
    for state in bracket.states():
        lengths.setdefault(state.node.slot.split("-")[0], state.node.length)
    assert lengths == {
        "W1": 3, "W2": 5, "W3": 7, "W4": 9,
        "L1": 3, "L2": 5, "L3": 5, "L4": 7, "L5": 7, "L6": 9,
        "GF": 9,
    }


def test_losers_rounds_keep_their_own_lengths_when_given():
    bracket = DoubleElimination(field(4), lengths=[5, 7], losers_lengths=[3], final_length=11)
    assert {s.node.slot: s.node.length for s in bracket.states()} == {
        "W1-1": 5, "W1-2": 5, "W2-1": 7, "L1-1": 3, "L2-1": 3, "GF-1": 11, "GF-2": 11,
    }
