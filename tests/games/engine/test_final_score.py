"""Final scores a match can end on: the loser below the length, the winner one game past a score
below it, with the cube within the cap and the Crawford rule applied."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.errors import ScoringError
from games.engine.final_score import (
    check_final_score,
    cube_can_be_turned,
    is_improbable_final,
    last_game_cube,
    winning_totals,
)
from games.engine.scoring import (
    CrawfordState,
    GameEnd,
    GameOutcome,
    MatchRules,
    MatchScore,
    ResultKind,
)


def test_seven_three_ends_a_five_point_match_and_fifty_five_three_does_not():
    assert check_final_score(5, (7, 3)) == 0
    with pytest.raises(ScoringError) as refused:
        check_final_score(5, (55, 3))
    assert refused.value.field == "score_a"
    assert refused.value.message == (
        "55–3 is not a possible final score: in a 5-point match where the loser has 3, the winner ends on"
        " 5 to 20, 24 to 28, 32 to 36, 48 to 52, 64 to 68, … (the score he stood at, below 5, plus one game:"
        " the cube times 1, 2 or 3)."
    )


def test_the_refusal_sits_at_the_winners_score_and_names_the_cap():
    with pytest.raises(ScoringError) as refused:
        check_final_score(5, (2, 30), cube_cap=4)
    assert refused.value.field == "score_b"
    assert refused.value.message == (
        "2–30 is not a possible final score: in a 5-point match where the loser has 2, the winner ends on"
        " 5 to 16 (the score he stood at, below 5, plus one game: the cube times 1, 2 or 3, the cube capped at 4)."
    )


def test_a_turned_cube_in_the_crawford_game_is_named_as_the_reason():
    # 10-0 in a 3-point match: only 2 + 8 (a cube of 4, gammon; or 8) from 2-0, which is the Crawford game.
    with pytest.raises(ScoringError) as refused:
        check_final_score(3, (10, 0))
    assert refused.value.message.endswith(
        "10 would need a turned cube in the Crawford game, where the cube cannot be turned."
    )
    # Once the trailer has won the Crawford game, the cube is live again.
    assert check_final_score(3, (1, 10)) == 1


def test_a_final_score_names_its_winner_only_when_the_match_is_over():
    assert check_final_score(7, (3, 8)) == 1
    assert check_final_score(7, (9, 6)) == 0
    with pytest.raises(ScoringError, match="Nobody reached 7 points"):
        check_final_score(7, (5, 6))
    with pytest.raises(ScoringError, match="Both players cannot reach 7"):
        check_final_score(7, (7, 8))
    with pytest.raises(ScoringError) as refused:
        check_final_score(7, (-1, 7))
    assert refused.value.field == "score_a"


def test_the_crawford_game_alone_ends_a_match_from_match_point_on_one_to_three_points():
    # 2-point match, loser on 0: from 1-0 (the Crawford game) 2, 3 or 4; from 0-0 any cube.
    assert sorted(t for t in winning_totals(2, 0, cube_cap=4)) == [2, 3, 4, 6, 8, 12]
    assert not cube_can_be_turned(2, 1, 0)
    assert cube_can_be_turned(2, 1, 1)
    assert cube_can_be_turned(1, 0, 0)


def _reachable_finals(length: int, cube_cap: int) -> set[tuple[int, int]]:
    """Every final score the scorer reaches, game by game, from 0-0 (a search over its states)."""
    rules = MatchRules(length=length, cube_cap=cube_cap)
    start = ((0, 0), CrawfordState.NOT_YET)
    seen, todo, finals = {start}, [start], set()
    cubes = [c for c in (1, 2, 4, 8, 16, 32) if c <= cube_cap]
    while todo:
        score, state = todo.pop()
        for winner in (0, 1):
            for cube in cubes:
                for kind in ResultKind:
                    sheet = MatchScore.resume(rules, score=score, crawford=state)
                    outcome = GameOutcome(winner=winner, kind=kind, cube=cube, cube_owner=None if cube == 1 else 1 - winner)
                    try:
                        sheet.record(outcome)
                    except ScoringError:
                        continue
                    if sheet.finished:
                        finals.add(sheet.score)
                        continue
                    after = (sheet.score, CrawfordState.NEXT if sheet.next_game_is_crawford
                             else CrawfordState.PLAYED if sheet.crawford_played else CrawfordState.NOT_YET)
                    if after not in seen:
                        seen.add(after)
                        todo.append(after)
    return finals


@pytest.mark.parametrize("length", [1, 2, 3, 4, 5, 7])
@pytest.mark.parametrize("cube_cap", [2, 4, 16])
def test_the_final_scores_accepted_are_exactly_those_the_scorer_reaches_game_by_game(length, cube_cap):
    reachable = _reachable_finals(length, cube_cap)
    accepted = set()
    for a in range(length + 3 * cube_cap + 2):
        for b in range(length + 3 * cube_cap + 2):
            try:
                winner = check_final_score(length, (a, b), cube_cap=cube_cap)
            except ScoringError:
                continue
            accepted.add((a, b))
            assert winner == (0 if a > b else 1)
    assert accepted == reachable


games = st.lists(
    st.tuples(st.integers(0, 1), st.sampled_from(list(ResultKind)), st.sampled_from([1, 2, 4, 8, 64]),
              st.booleans()),
    min_size=1, max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(length=st.integers(1, 25), sheet=games, cap=st.sampled_from([None, 8, 64]))
def test_every_match_the_scorer_finishes_ends_on_a_final_score_that_is_accepted(length, sheet, cap):
    score = MatchScore(MatchRules(length=length, cube_cap=cap))
    for winner, kind, cube, refused in sheet:
        if score.finished:
            break
        end = GameEnd.DOUBLE_REFUSED if refused else GameEnd.PLAYED_OUT
        outcome = GameOutcome(winner=winner, end=end, kind=ResultKind.SINGLE if refused else kind, cube=cube,
                              cube_owner=None if cube == 1 else 1 - winner)
        try:
            score.record(outcome)
        except ScoringError:
            score.record(GameOutcome(winner=winner, kind=kind))
    if score.finished:
        assert check_final_score(length, score.score, cube_cap=cap) == score.winner


@given(length=st.integers(1, 99), loser=st.integers(0, 98), total=st.integers(0, 400))
def test_an_accepted_total_is_one_game_past_a_score_below_the_length(length, loser, total):
    loser = loser % length
    try:
        check_final_score(length, (total, loser))
    except ScoringError:
        return
    assert total >= length
    assert any(total - before in {c * k for c in (2**n for n in range(16)) for k in (1, 2, 3)}
               for before in range(length))


@given(length=st.integers(1, 30), loser=st.integers(0, 40), winner=st.integers(0, 300),
       cap=st.sampled_from([None, 2, 8, 64]))
def test_the_quick_check_agrees_with_the_list_of_totals(length, loser, winner, cap):
    from games.engine.final_score import is_possible_final

    listed = loser < length and winner in winning_totals(length, loser, cube_cap=cap)
    assert is_possible_final(length, winner, loser, cube_cap=cap) == listed


@pytest.mark.parametrize("length, winner, loser, cube, improbable", [
    (9, 55, 3, 16, True),  # from 7-3, a backgammon on 16
    (5, 7, 3, 1, False),
    (5, 16, 3, 4, False),  # from 4-3, a backgammon on 4
    (5, 16, 0, 8, True),  # 4-0 is the Crawford game's score: from 0-0, a gammon on 8
    (7, 14, 2, 4, False),
])
def test_the_last_game_needs_the_lowest_cube_that_reaches_the_score(length, winner, loser, cube, improbable):
    assert last_game_cube(length, winner, loser) == cube
    assert is_improbable_final(length, (winner, loser)) is improbable
    assert is_improbable_final(length, (loser, winner)) is improbable
