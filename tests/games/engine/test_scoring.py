import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.errors import ScoringError
from games.engine.scoring import (
    GameEnd,
    GameOutcome,
    MatchRules,
    MatchScore,
    ResultKind,
    SessionRules,
)

WHITE, BLACK = 0, 1


def rulebook_match() -> MatchScore:
    """The 5-point match of the reference rules: games won 2, 1, 2, 1, 2, 2 points."""
    score = MatchScore(MatchRules(length=5), players=("White", "Black"))
    score.record(GameOutcome(winner=WHITE, kind=ResultKind.GAMMON))
    score.record(GameOutcome(winner=BLACK))
    score.record(GameOutcome(winner=WHITE, cube=2, cube_owner=WHITE))
    return score


def test_the_rulebook_match_ends_six_four_with_game_four_the_crawford_game():
    score = rulebook_match()
    assert score.score == (4, 1)
    assert score.next_game_is_crawford
    assert score.crawford_game == 4
    score.record(GameOutcome(winner=BLACK))
    assert score.post_crawford
    score.record(GameOutcome(winner=BLACK, cube=2, cube_owner=WHITE))
    assert score.score == (4, 4)
    score.record(GameOutcome(winner=WHITE, kind=ResultKind.GAMMON))
    assert score.score == (6, 4)
    assert score.finished and score.winner == WHITE
    assert [g.crawford for g in score.games] == [False, False, False, True, False, False]
    assert [g.post_crawford for g in score.games] == [False, False, False, False, True, True]
    assert [g.points for g in score.games] == [2, 1, 2, 1, 2, 2]
    assert score.games[3].score_before == (4, 1) and score.games[3].score_after == (4, 2)


def test_the_crawford_game_refuses_a_turned_cube():
    score = rulebook_match()
    with pytest.raises(ScoringError) as error:
        score.record(GameOutcome(winner=BLACK, cube=2, cube_owner=BLACK))
    assert str(error.value) == "Game 4 is the Crawford game: the cube cannot be turned."
    assert error.value.field == "cube"
    assert score.score == (4, 1) and len(score.games) == 3


def test_the_crawford_game_refuses_a_refused_double():
    score = rulebook_match()
    with pytest.raises(ScoringError, match="Game 4 is the Crawford game"):
        score.record(GameOutcome(winner=WHITE, end=GameEnd.DOUBLE_REFUSED))


def test_a_game_after_the_end_of_the_match_is_refused():
    score = MatchScore(MatchRules(length=1))
    score.record(GameOutcome(winner=BLACK, kind=ResultKind.GAMMON))
    assert score.score == (0, 2) and score.winner == BLACK
    with pytest.raises(ScoringError) as error:
        score.record(GameOutcome(winner=WHITE))
    assert str(error.value) == "The match ended at 0–2 after game 1: no game can be recorded after it."


def test_a_one_point_match_has_no_crawford_game():
    score = MatchScore(MatchRules(length=1))
    assert not score.next_game_is_crawford
    assert score.crawford_game is None


def test_there_is_at_most_one_crawford_game():
    score = MatchScore(MatchRules(length=3))
    score.record(GameOutcome(winner=WHITE, kind=ResultKind.GAMMON))  # 2-0, Crawford next
    score.record(GameOutcome(winner=BLACK))  # Crawford game, 2-1
    score.record(GameOutcome(winner=BLACK))  # 2-2: Black reaches 2-away, no second Crawford game
    assert score.crawford_game == 2
    assert not score.next_game_is_crawford
    score.record(GameOutcome(winner=BLACK, cube=2, cube_owner=WHITE))
    assert score.score == (2, 4) and score.winner == BLACK


def test_a_match_can_have_no_crawford_game():
    score = MatchScore(MatchRules(length=3))
    score.record(GameOutcome(winner=WHITE, cube=4, cube_owner=BLACK))
    assert score.finished and score.crawford_game is None


def test_the_final_score_may_pass_the_match_length():
    score = MatchScore(MatchRules(length=5))
    score.record(GameOutcome(winner=WHITE, kind=ResultKind.BACKGAMMON, cube=4, cube_owner=BLACK))
    assert score.score == (12, 0)


@pytest.mark.parametrize("cube", [3, 6, 0, -2])
def test_a_cube_that_is_not_a_power_of_two_is_refused(cube):
    with pytest.raises(ScoringError) as error:
        MatchScore(MatchRules(length=7)).record(GameOutcome(winner=WHITE, cube=cube, cube_owner=BLACK))
    assert error.value.field == "cube"
    assert str(error.value) == f"The cube holds powers of two (1, 2, 4, 8, …): {cube} is not one."


def test_a_cube_of_32768_is_the_highest_a_game_records():
    score = MatchScore(SessionRules())
    score.record(GameOutcome(winner=WHITE, kind=ResultKind.BACKGAMMON, cube=2**15, cube_owner=WHITE))
    assert score.score == (3 * 2**15, 0)
    with pytest.raises(ScoringError) as error:
        score.record(GameOutcome(winner=WHITE, cube=2**16, cube_owner=WHITE))
    assert error.value.field == "cube"
    assert str(error.value) == "The cube goes up to 32768: a cube of 65536 is beyond it."


@pytest.mark.parametrize("rules", [MatchRules, SessionRules])
def test_a_cube_cap_over_the_highest_cube_is_refused(rules):
    kwargs = {"length": 7} if rules is MatchRules else {}
    assert rules(cube_cap=2**15, **kwargs).cube_cap == 32768
    with pytest.raises(ScoringError) as error:
        rules(cube_cap=2**31, **kwargs)
    assert error.value.field == "cube_cap"
    assert str(error.value) == "The cube cap is at most 32768, the highest cube there is: 2147483648 is over it."


def test_a_cube_over_the_event_cap_is_refused():
    score = MatchScore(MatchRules(length=25, cube_cap=64))
    score.record(GameOutcome(winner=WHITE, cube=64, cube_owner=WHITE, points=64))
    with pytest.raises(ScoringError) as error:
        MatchScore(MatchRules(length=25, cube_cap=64)).record(GameOutcome(winner=WHITE, cube=128, cube_owner=WHITE))
    assert str(error.value) == "The cube is capped at 64 here: a cube of 128 is over the cap."


def test_a_double_to_over_the_cap_cannot_be_refused():
    with pytest.raises(ScoringError, match="a double to 128 is over the cap"):
        MatchScore(MatchRules(length=25, cube_cap=64)).record(
            GameOutcome(winner=WHITE, end=GameEnd.DOUBLE_REFUSED, cube=64, cube_owner=WHITE)
        )


def test_without_a_cap_the_cube_goes_past_sixty_four():
    score = MatchScore(MatchRules(length=25))
    score.record(GameOutcome(winner=WHITE, cube=128, cube_owner=WHITE))
    assert score.score == (128, 0)


@pytest.mark.parametrize(
    "field,outcome,message",
    [
        ("beavered", GameOutcome(winner=0, cube=4, cube_owner=1, beavered=True), "Beavers are not used in match play."),
        (
            "raccooned",
            GameOutcome(winner=0, cube=8, cube_owner=1, raccooned=True),
            "Raccoons are not used in match play.",
        ),
        (
            "automatic_doubles",
            GameOutcome(winner=0, cube=2, automatic_doubles=1),
            "Automatic doubles are not used in match play.",
        ),
    ],
)
def test_money_options_are_refused_in_match_play(field, outcome, message):
    with pytest.raises(ScoringError) as error:
        MatchScore(MatchRules(length=7)).record(outcome)
    assert (error.value.field, str(error.value)) == (field, message)


def test_points_must_equal_kind_times_cube():
    score = MatchScore(MatchRules(length=7))
    with pytest.raises(ScoringError) as error:
        score.record(GameOutcome(winner=WHITE, kind=ResultKind.GAMMON, cube=2, cube_owner=BLACK, points=3))
    assert error.value.field == "points"
    assert str(error.value) == "A gammon with the cube on 2 is worth 4 points, not 3."
    record = score.record(GameOutcome(winner=WHITE, kind=ResultKind.BACKGAMMON, cube=2, cube_owner=BLACK, points=6))
    assert record.points == 6


def test_a_refused_double_pays_the_cube_before_the_double():
    score = MatchScore(MatchRules(length=7))
    record = score.record(GameOutcome(winner=WHITE, end=GameEnd.DOUBLE_REFUSED, cube=2, cube_owner=WHITE))
    assert record.points == 2
    with pytest.raises(ScoringError) as error:
        score.record(GameOutcome(winner=BLACK, end=GameEnd.DOUBLE_REFUSED, points=2))
    assert str(error.value) == "A double refused with the cube on 1 is worth 1 point (the cube before the double), not 2."


def test_a_refused_double_is_a_single():
    with pytest.raises(ScoringError, match="A refused double ends the game as a single"):
        MatchScore(MatchRules(length=7)).record(
            GameOutcome(winner=WHITE, end=GameEnd.DOUBLE_REFUSED, kind=ResultKind.GAMMON)
        )


def test_the_owner_of_the_cube_cannot_be_doubled_out():
    score = MatchScore(MatchRules(length=7), players=("Anna", "Ben"))
    with pytest.raises(ScoringError) as error:
        score.record(GameOutcome(winner=WHITE, end=GameEnd.DOUBLE_REFUSED, cube=2, cube_owner=BLACK))
    assert str(error.value) == "Ben owned the cube, so Anna could not double."


def test_nobody_owns_a_centred_cube():
    with pytest.raises(ScoringError) as error:
        MatchScore(MatchRules(length=7)).record(GameOutcome(winner=WHITE, cube=1, cube_owner=WHITE))
    assert error.value.field == "cube_owner"


def test_jacoby_counts_a_gammon_with_a_centred_cube_as_a_single():
    score = MatchScore(SessionRules(jacoby=True))
    with pytest.raises(ScoringError) as error:
        score.record(GameOutcome(winner=WHITE, kind=ResultKind.GAMMON, points=2))
    assert str(error.value) == "Under the Jacoby rule a gammon with a centred cube counts as a single: 1 point, not 2."
    assert score.record(GameOutcome(winner=WHITE, kind=ResultKind.GAMMON)).points == 1
    assert score.record(GameOutcome(winner=WHITE, kind=ResultKind.GAMMON, cube=2, cube_owner=BLACK)).points == 4


def test_jacoby_does_not_count_automatic_doubles_as_turning_the_cube():
    score = MatchScore(SessionRules(jacoby=True, automatic_doubles=True, automatic_double_cap=2))
    record = score.record(GameOutcome(winner=BLACK, kind=ResultKind.GAMMON, cube=4, automatic_doubles=2))
    assert record.points == 4
    with pytest.raises(ScoringError, match="at most 2 automatic doubles"):
        score.record(GameOutcome(winner=BLACK, cube=8, automatic_doubles=3))


def test_a_session_never_ends_and_has_no_crawford_game():
    score = MatchScore(SessionRules())
    for _ in range(30):
        score.record(GameOutcome(winner=WHITE, kind=ResultKind.GAMMON))
    assert score.score == (60, 0) and not score.finished and score.crawford_game is None


def test_beavers_and_raccoons_follow_the_session_options():
    plain = MatchScore(SessionRules())
    with pytest.raises(ScoringError, match="does not allow beavers"):
        plain.record(GameOutcome(winner=WHITE, cube=4, cube_owner=BLACK, beavered=True))
    beavers = MatchScore(SessionRules(beavers=True))
    assert beavers.record(GameOutcome(winner=WHITE, cube=4, cube_owner=BLACK, beavered=True)).points == 4
    with pytest.raises(ScoringError, match="does not allow raccoons"):
        beavers.record(GameOutcome(winner=WHITE, cube=8, cube_owner=BLACK, beavered=True, raccooned=True))
    raccoons = MatchScore(SessionRules(beavers=True, raccoons=True))
    record = raccoons.record(
        GameOutcome(winner=BLACK, kind=ResultKind.GAMMON, cube=8, cube_owner=BLACK, beavered=True, raccooned=True)
    )
    assert record.points == 16
    with pytest.raises(ScoringError, match="A raccoon answers a beaver"):
        raccoons.record(GameOutcome(winner=BLACK, cube=8, cube_owner=BLACK, raccooned=True))


def test_raccoons_need_beavers():
    with pytest.raises(ScoringError, match="Raccoons need beavers"):
        SessionRules(raccoons=True)


@pytest.mark.parametrize("length", [0, -3, 100])
def test_a_match_length_out_of_range_is_refused(length):
    with pytest.raises(ScoringError) as error:
        MatchRules(length=length)
    assert error.value.field == "length"


outcomes = st.builds(
    GameOutcome,
    winner=st.integers(0, 1),
    kind=st.sampled_from(list(ResultKind)),
    cube=st.sampled_from([1, 2, 4, 8]),
    cube_owner=st.sampled_from([None, 0, 1]),
    end=st.sampled_from(list(GameEnd)),
)


@given(length=st.integers(1, 25), sheet=st.lists(outcomes, max_size=40))
def test_scores_only_grow_a_finished_match_takes_no_game_and_crawford_happens_once(length, sheet):
    score = MatchScore(MatchRules(length=length))
    previous = (0, 0)
    for outcome in sheet:
        was_finished = score.finished
        before = len(score.games)
        try:
            score.record(outcome)
        except ScoringError:
            assert len(score.games) == before
            assert score.score == previous
            continue
        assert not was_finished
        assert score.score[0] >= previous[0] and score.score[1] >= previous[1]
        assert sum(score.score) > sum(previous)
        previous = score.score
    assert sum(game.crawford for game in score.games) <= 1
    if score.finished:
        assert max(score.score) >= length
    for game in score.games:
        if game.crawford:
            assert game.outcome.cube == 1 and game.outcome.end is not GameEnd.DOUBLE_REFUSED
            assert max(game.score_before) == length - 1 and min(game.score_before) < length - 1


def test_a_resumed_match_carries_on_from_its_score():
    score = MatchScore.resume(MatchRules(length=7), score=(5, 3))
    score.record(GameOutcome(winner=WHITE))
    assert score.score == (6, 3) and score.next_game_is_crawford and score.crawford_game == 2


def test_a_resumed_match_knows_its_crawford_game_was_played():
    from games.engine.scoring import CrawfordState

    score = MatchScore.resume(MatchRules(length=7), score=(6, 4), crawford=CrawfordState.PLAYED)
    assert score.post_crawford and not score.next_game_is_crawford
    assert score.record(GameOutcome(winner=BLACK, cube=2, cube_owner=WHITE)).post_crawford
    next_is_crawford = MatchScore.resume(MatchRules(length=7), score=(6, 4), crawford=CrawfordState.NEXT)
    with pytest.raises(ScoringError, match="Game 1 is the Crawford game"):
        next_is_crawford.record(GameOutcome(winner=BLACK, cube=2, cube_owner=WHITE))
    with pytest.raises(ScoringError, match="cannot be the Crawford game"):
        MatchScore.resume(MatchRules(length=7), score=(4, 4), crawford=CrawfordState.NEXT)


@pytest.mark.parametrize("doubles,cube", [(1, 1), (2, 2), (3, 4)])
def test_automatic_doubles_leave_the_cube_at_least_two_to_their_number(doubles, cube):
    score = MatchScore(SessionRules(automatic_doubles=True, automatic_double_cap=3))
    with pytest.raises(ScoringError) as error:
        score.record(GameOutcome(winner=WHITE, cube=cube, automatic_doubles=doubles))
    assert error.value.field == "cube"
    assert str(error.value) == (
        f"After {doubles} automatic double{'s' if doubles > 1 else ''} the cube is at least {2**doubles}:"
        f" a cube of {cube} is too low."
    )
    with pytest.raises(ScoringError, match=f"the cube is at least {2**doubles}"):
        score.record(GameOutcome(winner=WHITE, end=GameEnd.DOUBLE_REFUSED, cube=cube, automatic_doubles=doubles))
    assert score.games == []
    assert score.record(GameOutcome(winner=WHITE, cube=2**doubles, automatic_doubles=doubles)).points == 2**doubles


def test_a_double_refused_on_the_highest_cube_would_go_beyond_it():
    score = MatchScore(SessionRules())
    with pytest.raises(ScoringError) as error:
        score.record(GameOutcome(winner=WHITE, end=GameEnd.DOUBLE_REFUSED, cube=2**15, cube_owner=WHITE))
    assert error.value.field == "cube"
    assert str(error.value) == "The cube goes up to 32768: a double to 65536 is beyond it."
    record = score.record(GameOutcome(winner=WHITE, end=GameEnd.DOUBLE_REFUSED, cube=2**14, cube_owner=WHITE))
    assert record.points == 2**14


def test_a_double_refused_on_the_capped_cube_would_go_over_the_cap():
    score = MatchScore(SessionRules(cube_cap=64))
    with pytest.raises(ScoringError) as error:
        score.record(GameOutcome(winner=BLACK, end=GameEnd.DOUBLE_REFUSED, cube=64, cube_owner=BLACK))
    assert (error.value.field, str(error.value)) == ("cube", "The cube is capped at 64 here: a double to 128 is over the cap.")


def test_a_cap_of_zero_automatic_doubles_allows_none():
    score = MatchScore(SessionRules(automatic_doubles=True, automatic_double_cap=0))
    with pytest.raises(ScoringError) as error:
        score.record(GameOutcome(winner=WHITE, cube=2, automatic_doubles=1))
    assert error.value.field == "automatic_doubles"
    assert str(error.value) == "This session allows no automatic doubles: its cap is 0."
    assert score.record(GameOutcome(winner=WHITE)).points == 1


@pytest.mark.parametrize("score_,message", [
    ((4, 2), "At 4–2 in a 5-point match one player has reached 4 points:"
             " the Crawford game is the next game or has been played."),
    ((2, 4), "At 2–4 in a 5-point match one player has reached 4 points:"
             " the Crawford game is the next game or has been played."),
    ((4, 4), "At 4–4 in a 5-point match both players have reached 4 points: the Crawford game has been played."),
])
def test_a_resumed_score_cannot_skip_the_crawford_game(score_, message):
    from games.engine.scoring import CrawfordState

    with pytest.raises(ScoringError) as error:
        MatchScore.resume(MatchRules(length=5), score=score_, crawford=CrawfordState.NOT_YET)
    assert (error.value.field, str(error.value)) == ("score", message)
    assert MatchScore.resume(MatchRules(length=5), score=score_, crawford=CrawfordState.PLAYED).post_crawford
    assert MatchScore.resume(MatchRules(length=5), score=(3, 2)).crawford_game is None
    assert MatchScore.resume(MatchRules(length=1), score=(0, 0)).crawford_game is None
    assert MatchScore.resume(SessionRules(), score=(4, 2)).crawford_game is None
