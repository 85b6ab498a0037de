"""Round 1 with pairs kept apart and pairings fixed: the seeded draw changed as little as possible."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.formats import BracketUserError, Competitor, DrawRuleError, DrawRules, apply_rules, seeded_first_round


def seeded(n):
    """Players named by their seed."""
    return [Competitor(seed, seed) for seed in range(1, n + 1)]


def draw(n, **rules):
    field = seeded(n)
    return apply_rules(seeded_first_round(field), {c.id: c.seed for c in field}, DrawRules.of(**rules))


def test_no_rules_keep_the_seeded_bracket():
    assert draw(8) == [(1, 8), (4, 5), (2, 7), (3, 6)]


def test_a_pair_kept_apart_swaps_the_lower_seed_with_the_next_seed_down_or_up():
    assert draw(8, apart=[(1, 8)]) == [(1, 7), (4, 5), (2, 8), (3, 6)]
    assert draw(8, apart=[(3, 6)]) == [(1, 8), (4, 5), (2, 6), (3, 7)]
    assert draw(8, apart=[(2, 7), (2, 8)]) == [(1, 8), (4, 5), (2, 6), (3, 7)]


def test_a_swap_that_would_bring_another_kept_apart_pair_together_is_passed_over():
    assert draw(8, apart=[(1, 8), (1, 7)]) == [(1, 6), (4, 5), (2, 7), (3, 8)]


def test_a_fixed_pairing_moves_the_lower_seed_into_the_higher_seeds_opponent_line():
    assert draw(8, fixed=[(1, 2)]) == [(1, 2), (4, 5), (8, 7), (3, 6)]


def test_a_fixed_pairing_with_a_bye_player_hands_the_bye_to_the_movers_old_opponent():
    assert draw(6) == [(1, None), (4, 5), (2, None), (3, 6)]
    assert draw(6, fixed=[(1, 6)]) == [(1, 6), (4, 5), (2, None), (3, None)]


def test_a_fixed_pairing_is_not_undone_by_a_pair_kept_apart():
    assert draw(8, fixed=[(1, 7)], apart=[(2, 8)]) == [(1, 7), (4, 5), (2, 6), (3, 8)]


def test_two_players_with_byes_cannot_be_fixed_to_meet():
    with pytest.raises(DrawRuleError, match="1 and 2 both have a bye in round 1") as caught:
        draw(6, fixed=[(1, 2)])
    assert caught.value.field == "fixed"


def test_contradicting_rules_are_refused_with_the_list_they_are_in():
    with pytest.raises(DrawRuleError, match="1 cannot play both 2 and 3 in round 1") as caught:
        draw(8, fixed=[(1, 2), (1, 3)])
    assert caught.value.field == "fixed"
    with pytest.raises(DrawRuleError, match="2 and 1 are both fixed to meet and kept apart") as caught:
        draw(8, fixed=[(1, 2)], apart=[(2, 1)])
    assert caught.value.field == "apart"
    with pytest.raises(DrawRuleError, match="9 is not in the draw"):
        draw(8, apart=[(1, 9)])
    with pytest.raises(DrawRuleError, match="not 4 twice"):
        draw(8, apart=[(4, 4)])


def test_a_pair_that_cannot_be_kept_apart_is_refused():
    with pytest.raises(DrawRuleError, match="1 and 2 cannot be kept apart") as caught:
        draw(2, apart=[(1, 2)])
    assert caught.value.field == "apart"


@given(st.integers(2, 24).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.tuples(st.integers(1, n), st.integers(1, n)), max_size=4),
    st.lists(st.tuples(st.integers(1, n), st.integers(1, n)), max_size=2),
)))
def test_the_draw_places_everyone_once_keeps_every_rule_and_is_the_same_every_time(case):
    n, apart, fixed = case
    try:
        tables = draw(n, apart=apart, fixed=fixed)
    except BracketUserError:
        return
    players = [p for table in tables for p in table if p is not None]
    assert sorted(players) == list(range(1, n + 1))
    assert all(a is not None for a, _ in tables)
    met = {frozenset(t) for t in tables}
    assert not any(frozenset(pair) in met for pair in apart)
    assert all(frozenset(pair) in met for pair in fixed)
    assert [b is None for _, b in tables].count(True) == [b is None for _, b in draw(n)].count(True)
    assert draw(n, apart=apart, fixed=fixed) == tables


def test_a_pair_kept_apart_never_moves_a_bye():
    assert draw(6, apart=[(3, 6)]) == [(1, None), (4, 6), (2, None), (3, 5)]
