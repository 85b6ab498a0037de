"""Legal plays: GNU Backgammon's answers on 3,000 positions, the rules one by one, invariants."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.errors import IllegalPlayError
from games.engine.plays import Play, apply_steps, legal_plays, play_from_steps
from games.engine.position import Position
from config.shared_data import SHARED_DATA

DATA = SHARED_DATA
POSITIONS = DATA / "positions.jsonl"


def _known_answers():
    if not POSITIONS.exists():
        return []
    with POSITIONS.open() as lines:
        return [json.loads(line) for line in lines]


KNOWN = _known_answers()
needs_known_answers = pytest.mark.skipif(
    not KNOWN, reason=f"GNU Backgammon's known answers are missing ({POSITIONS})"
)


def board(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    """A position from {point: checkers} for both sides, all in the mover's numbering.

    ``theirs`` names the opponent's checkers by the mover's point they stand on (the
    opponent's bar is 25), so "the opponent holds our 5-point" reads ``{5: 2}``.
    """
    on_roll = [0] * 25
    opponent = [0] * 25
    for point, count in mine.items():
        on_roll[point - 1] = count
    for point, count in theirs.items():
        opponent[24 if point == 25 else 24 - point] = count
    return Position(on_roll=tuple(on_roll), opponent=tuple(opponent))


def notations(position, dice):
    return sorted(play.notation for play in legal_plays(position, dice))


# --- GNU Backgammon's known answers --------------------------------------------------------


@needs_known_answers
def test_the_resulting_positions_match_gnu_backgammon_on_all_known_positions():
    wrong = []
    for row in KNOWN:
        plays = legal_plays(Position.from_position_id(row["position_id"]), tuple(row["dice"]))
        found = sorted(play.result_id() for play in plays if not play.is_empty)
        if found != row["results"]:
            wrong.append((row["position_id"], row["dice"]))
    assert len(KNOWN) == 3000
    assert wrong == []


@needs_known_answers
def test_the_notation_matches_gnu_backgammon_for_every_known_play():
    checked = 0
    wrong = []
    for row in KNOWN:
        plays = legal_plays(Position.from_position_id(row["position_id"]), tuple(row["dice"]))
        by_result = {play.result_id(): play for play in plays}
        for move in row["moves"]:
            play = by_result[move["result_id"]]
            checked += 1
            if play.notation != move["notation"] or play.dice_used != move["dice_used"]:
                wrong.append((row["position_id"], row["dice"], move["notation"], play.notation))
    assert checked > 50_000
    assert wrong == []


@needs_known_answers
def test_the_steps_of_every_play_lead_to_its_position():
    for row in KNOWN[:500]:
        position = Position.from_position_id(row["position_id"])
        for play in legal_plays(position, tuple(row["dice"])):
            assert apply_steps(position, play.steps) == play.position


@needs_known_answers
def test_an_unplayable_roll_has_exactly_one_empty_play():
    dances = [row for row in KNOWN if row["n_results"] == 0]
    assert dances
    for row in dances:
        position = Position.from_position_id(row["position_id"])
        plays = legal_plays(position, tuple(row["dice"]))
        assert plays == [Play((), position, 0, position)]
        assert plays[0].notation == ""
        assert plays[0].is_empty and plays[0].dice_used == 0


@needs_known_answers
def test_a_winning_play_ends_the_game_with_gnu_backgammons_result():
    from games.engine.position import game_result
    from games.engine.scoring import ResultKind

    kinds = {"single": ResultKind.SINGLE, "gammon": ResultKind.GAMMON,
             "backgammon": ResultKind.BACKGAMMON}
    seen = 0
    for row in KNOWN:
        position = Position.from_position_id(row["position_id"])
        plays = {play.result_id(): play for play in legal_plays(position, tuple(row["dice"]))}
        for move in row["moves"]:
            play = plays[move["result_id"]]
            if "wins" in move:
                seen += 1
                assert game_result(play.position) == kinds[move["wins"]]
                assert play.position.outcome() == (0, kinds[move["wins"]])
            else:
                assert game_result(play.position) is None
    assert seen > 0


# --- the rules, one by one -----------------------------------------------------------------


def test_the_opening_31_has_sixteen_plays_including_the_five_point():
    plays = notations(Position.initial(), (3, 1))
    assert len(plays) == 16
    assert "8/5 6/5" in plays


def test_a_checker_on_the_bar_must_enter_first():
    position = board({25: 1, 6: 5, 8: 3, 13: 5, 24: 1}, {19: 5, 17: 3, 12: 5, 1: 2})
    plays = legal_plays(position, (6, 3))
    assert all(play.steps[0][0] == 25 for play in plays)
    assert "13/7 13/10" not in notations(position, (6, 3))


def test_a_checker_that_cannot_enter_forfeits_the_whole_roll():
    position = board({25: 1, 6: 5, 8: 3, 13: 6}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 5})
    plays = legal_plays(position, (6, 5))
    assert len(plays) == 1 and plays[0].is_empty and plays[0].position == position


def test_with_two_on_the_bar_and_one_entry_point_only_one_checker_enters():
    # The opponent holds our 22: with 53 one checker enters on our 20, the other stays out.
    position = board({25: 2, 6: 5, 8: 3, 13: 5}, {22: 2, 19: 5, 17: 3, 12: 5})
    plays = legal_plays(position, (5, 3))
    assert [play.notation for play in plays] == ["bar/20"]
    assert plays[0].position.on_roll[24] == 1


def test_a_point_held_by_two_opposing_checkers_is_closed():
    position = board({6: 5, 8: 3, 13: 5, 24: 2}, {18: 2, 19: 5, 17: 3, 12: 5})
    for dice in ((6, 1), (6, 6)):
        for play in legal_plays(position, dice):
            assert (24, 18) not in play.steps


def test_landing_on_a_blot_hits_it_and_sends_it_to_the_bar():
    position = board({6: 5, 8: 3, 13: 5, 24: 2}, {2: 1, 19: 5, 17: 3, 12: 6})
    play = next(p for p in legal_plays(position, (6, 2)) if p.notation == "13/11 8/2*")
    assert play.hits == 1
    assert play.position.opponent[24] == 1 and play.position.opponent[22] == 0


def test_both_dice_must_be_played_when_possible():
    # 24/18 would leave the 5 unplayable (18/13, 20/15 and 24/19... after it are blocked or
    # taken), but 24/19 20/14 plays both dice: so 24/18 is not legal.
    position = board({24: 1, 20: 1, 1: 13}, {13: 2, 15: 2})
    plays = notations(position, (6, 5))
    assert all(play.dice_used == 2 for play in legal_plays(position, (6, 5)))
    assert "24/19 20/14" in plays and "24/18" not in plays


def test_the_higher_die_is_played_when_only_one_can_be():
    # Our last checker outside can play the 6 (13/7) or the 5 (13/8) but not both (our 2 is
    # held); the others, not all home, cannot move: the higher die must be played.
    position = board({13: 1, 1: 14}, {2: 2, 20: 13})
    plays = legal_plays(position, (6, 5))
    assert [play.notation for play in plays] == ["13/7"]


def test_the_lower_die_is_played_when_the_higher_cannot_be():
    position = board({13: 1, 1: 14}, {2: 2, 7: 2, 20: 11})
    plays = legal_plays(position, (6, 5))
    assert [play.notation for play in plays] == ["13/8"]


def test_doubles_are_played_four_times():
    assert all(play.dice_used == 4 for play in legal_plays(Position.initial(), (2, 2)))


def test_doubles_are_played_as_many_times_as_possible():
    # The opponent holds our 12: the back checker plays one 6 and the other three are lost
    # (the checkers on our ace point cannot bear off while one is outside).
    position = board({24: 1, 1: 14}, {12: 2, 20: 13})
    plays = legal_plays(position, (6, 6))
    assert [play.notation for play in plays] == ["24/18"]


def test_bearing_off_needs_all_fifteen_checkers_home():
    # The 1 cannot bring the checker on our 8 home, so neither die may bear off.
    position = board({8: 1, 6: 4, 5: 5, 4: 5}, {24: 2})
    for play in legal_plays(position, (6, 1)):
        assert all(target != 0 for _, target in play.steps)
    assert "8/2 6/5" in notations(position, (6, 1))


def test_bearing_off_from_the_point_the_die_shows():
    position = board({6: 3, 5: 3, 3: 9}, {24: 2})
    assert "6/off 5/off" in notations(position, (6, 5))


def test_a_die_with_an_empty_point_moves_a_checker_from_a_higher_point():
    # No checker on our 4 and one on our 6: the 4 must move it, not bear off from our 3.
    position = board({6: 1, 3: 14}, {24: 2})
    for play in legal_plays(position, (4, 1)):
        assert (3, 0) not in play.steps
    assert "6/2 3/2" in notations(position, (4, 1))


def test_bearing_off_from_the_highest_point_with_a_larger_die():
    position = board({4: 2, 2: 3}, {24: 2})
    assert notations(position, (6, 5)) == ["4/off(2)"]


def test_a_larger_die_cannot_bear_off_a_lower_checker_while_a_higher_one_remains():
    position = board({5: 1, 2: 3}, {24: 2})
    texts = notations(position, (6, 1))
    assert "5/off 2/1" in texts and "5/4 2/off" not in texts


def test_no_obligation_to_bear_off_when_another_legal_move_exists():
    position = board({6: 2, 5: 2}, {24: 2})
    assert "6/5 6/off" in notations(position, (6, 1))
    assert "6/4 5/4" in notations(position, (2, 1))


def test_a_hit_checker_must_come_home_before_bearing_off_resumes():
    position = board({25: 1, 6: 2, 3: 10}, {1: 2, 12: 5})
    for play in legal_plays(position, (6, 3)):
        assert (6, 0) not in play.steps and (3, 0) not in play.steps


def test_a_checker_brought_home_with_one_die_may_bear_off_with_the_other():
    position = board({7: 1, 6: 4, 3: 10}, {24: 2})
    plays = {play.notation: play for play in legal_plays(position, (6, 1))}
    assert sorted(plays["7/off"].steps) in ([(1, 0), (7, 1)], [(6, 0), (7, 6)])
    assert plays["7/off"].position.borne_off(0) == 1


def test_one_play_is_listed_per_distinct_resulting_position():
    plays = legal_plays(Position.initial(), (1, 1))
    assert len({play.position for play in plays}) == len(plays)


def test_gnu_backgammon_notation_combines_a_checkers_moves_and_marks_hits():
    position = board({6: 5, 8: 3, 13: 5, 24: 2}, {7: 1, 19: 5, 17: 3, 12: 4, 1: 2})
    texts = notations(position, (6, 2))
    assert "13/7*/5" in texts and "13/5" in texts and "24/18 13/11" in texts


def test_a_play_is_recognised_from_its_steps_in_any_order():
    play = play_from_steps(Position.initial(), (3, 1), [(6, 5), (8, 5)])
    assert play.notation == "8/5 6/5"


def test_steps_that_leave_a_die_unplayed_are_an_illegal_play():
    with pytest.raises(IllegalPlayError) as refused:
        play_from_steps(Position.initial(), (3, 1), [(8, 5)])
    assert "8/5 6/5" in refused.value.legal


def test_the_resulting_position_is_seen_from_the_mover():
    play = next(p for p in legal_plays(Position.initial(), (6, 5)) if p.notation == "24/13")
    assert play.position.on_roll[12] == 6 and play.position.on_roll[23] == 1
    assert play.result_id() == play.position.swap().position_id()


def test_dice_outside_one_to_six_are_refused():
    with pytest.raises(ValueError):
        legal_plays(Position.initial(), (0, 3))
    with pytest.raises(ValueError):
        legal_plays(Position.initial(), (7, 1))


# --- invariants ------------------------------------------------------------------------------


@st.composite
def positions(draw):
    """Random legal positions: each side's checkers on points the other side does not hold."""
    mine = [0] * 25
    theirs = [0] * 25
    for counts, other in ((mine, theirs), (theirs, mine)):
        for _ in range(draw(st.integers(0, 15))):
            slot = draw(st.integers(0, 24))
            if slot < 24 and other[23 - slot]:
                continue
            counts[slot] += 1
    return Position(on_roll=tuple(mine), opponent=tuple(theirs))


dice_strategy = st.tuples(st.integers(1, 6), st.integers(1, 6))


@settings(max_examples=300, deadline=None)
@given(positions(), dice_strategy)
def test_every_play_keeps_fifteen_checkers_a_side(position, dice):
    before = tuple(sum(position.side(player)) + position.borne_off(player) for player in (0, 1))
    for play in legal_plays(position, dice):
        after = play.position
        assert sum(after.on_roll) + after.borne_off(0) == 15 == before[0]
        assert sum(after.opponent) + after.borne_off(1) == 15 == before[1]
        assert after.borne_off(1) == position.borne_off(1)


@settings(max_examples=300, deadline=None)
@given(positions(), dice_strategy)
def test_the_movers_pip_count_never_grows_and_drops_by_the_dice_played(position, dice):
    for play in legal_plays(position, dice):
        moved = sum(source - target for source, target in play.steps)
        assert play.position.pip_count(0) == position.pip_count(0) - moved
        assert play.position.pip_count(0) <= position.pip_count(0)
        assert play.position.pip_count(1) >= position.pip_count(1)


@settings(max_examples=300, deadline=None)
@given(positions(), dice_strategy)
def test_every_play_uses_whole_dice_and_no_more_than_the_roll_allows(position, dice):
    plays = legal_plays(position, dice)
    used = {play.dice_used for play in plays}
    assert len(used) == 1
    limit = 4 if dice[0] == dice[1] else 2
    assert used.pop() <= limit
    for play in plays:
        for source, target in play.steps:
            assert source - target in dice or (target == 0 and source - target < max(dice))


@settings(max_examples=200, deadline=None)
@given(positions(), dice_strategy)
def test_every_result_reads_back_from_its_notation(position, dice):
    from games.engine.notation import parse_play

    for play in legal_plays(position, dice)[:6]:
        assert parse_play(play.notation, position, dice) == play


@needs_known_answers
def test_a_play_that_uses_both_dice_move_by_move_is_accepted_exactly_when_it_is_legal():
    from games.engine.plays import complete_play

    checked = 0
    for case in KNOWN[:600]:
        dice = tuple(case["dice"])
        if dice[0] == dice[1]:
            continue
        position = Position.from_position_id(case["position_id"])
        legal = {Position.from_position_id(r).swap() for r in case["results"]}
        high, low = max(dice), min(dice)
        for source in range(1, 26):
            for second in range(1, 26):
                for a, b in ((high, low), (low, high)):
                    steps = ((source, max(0, source - a)), (second, max(0, second - b)))
                    play = complete_play(position, dice, steps)
                    if play is not None:
                        checked += 1
                        assert play.position in legal, (case["position_id"], dice, steps)
    assert checked > 3000
