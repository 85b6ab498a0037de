"""Positions: GNU Backgammon's Position ID both ways, the board from each side, game results."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.errors import InvalidNotationError
from games.engine.position import Position, game_result
from games.engine.scoring import ResultKind
from config.shared_data import SHARED_DATA

DATA = SHARED_DATA
POSITIONS = DATA / "positions.jsonl"
KNOWN = [json.loads(line) for line in POSITIONS.open()] if POSITIONS.exists() else []
needs_known_answers = pytest.mark.skipif(
    not KNOWN, reason=f"GNU Backgammon's known answers are missing ({POSITIONS})"
)


def side(points: dict[int, int]) -> tuple[int, ...]:
    counts = [0] * 25
    for point, count in points.items():
        counts[point - 1] = count
    return tuple(counts)


def test_the_opening_position_id_is_gnu_backgammons():
    assert Position.initial().position_id() == "4HPwATDgc/ABMA"
    assert Position.from_position_id("4HPwATDgc/ABMA") == Position.initial()


def test_the_opening_has_two_checkers_on_each_24_point_and_167_pips():
    opening = Position.initial()
    assert opening.on_roll[23] == opening.opponent[23] == 2
    assert opening.pip_counts == (167, 167)
    assert opening.borne_off(0) == opening.borne_off(1) == 0


def test_the_checkers_not_on_roll_come_first_in_the_position_id():
    # The player on roll has a checker on the bar; in the ID that is the second half.
    position = Position.from_position_id("4NvBBSCoB3yAWA")
    assert position.on_bar(0) == 1 and position.on_bar(1) == 0
    assert position.swap().on_bar(1) == 1


def test_swap_shows_the_same_board_with_the_other_player_on_roll():
    position = Position.from_position_id("4NvBBSCoB3yAWA")
    assert position.swap().on_roll == position.opponent
    assert position.swap().swap() == position
    assert position.flipped() == position.swap()


def test_repr_round_trips():
    position = Position.from_position_id("4NvBBSCoB3yAWA")
    assert repr(position) == "Position.from_position_id('4NvBBSCoB3yAWA')"
    assert eval(repr(position)) == position


@needs_known_answers
def test_every_known_position_id_reads_and_writes_back_unchanged():
    for row in KNOWN:
        for text in [row["position_id"], *row["results"]]:
            assert Position.from_position_id(text).position_id() == text


@pytest.mark.parametrize(
    "text",
    ["", "4HPwATDgc/ABM", "4HPwATDgc/ABMA=", "4HPwATDgc!ABMA", "//////////////", None],
)
def test_a_malformed_position_id_is_invalid_notation(text):
    with pytest.raises(InvalidNotationError):
        Position.from_position_id(text)


def test_a_position_id_label_and_spaces_are_accepted():
    assert Position.from_position_id(" Position ID: 4HPwATDgc/ABMA ") == Position.initial()


def test_more_than_fifteen_checkers_a_side_is_refused():
    with pytest.raises(InvalidNotationError):
        Position(on_roll=side({6: 16}), opponent=side({6: 15}))


def test_a_point_cannot_be_held_by_both_players():
    # Our 6-point is the opponent's 19-point.
    with pytest.raises(InvalidNotationError):
        Position(on_roll=side({6: 2}), opponent=side({19: 1}))


def test_negative_counts_are_refused():
    with pytest.raises(InvalidNotationError):
        Position(on_roll=side({6: -1}), opponent=side({6: 2}))


def test_pip_count_counts_the_bar_as_25():
    position = Position(on_roll=side({25: 1, 1: 1}), opponent=side({}))
    assert position.pip_count(0) == 26 and position.borne_off(0) == 13


# --- the end of a game --------------------------------------------------------------------


def test_a_game_in_progress_has_no_result():
    assert game_result(Position.initial()) is None
    assert Position.initial().outcome() is None


def test_a_single_game_when_the_loser_has_borne_off_a_checker():
    finished = Position(on_roll=side({}), opponent=side({6: 14}))
    assert game_result(finished) is ResultKind.SINGLE
    assert finished.outcome() == (0, ResultKind.SINGLE)


def test_a_gammon_when_the_loser_has_borne_off_none():
    finished = Position(on_roll=side({}), opponent=side({6: 10, 8: 5}))
    assert game_result(finished) is ResultKind.GAMMON


def test_a_backgammon_when_the_gammoned_loser_still_has_a_checker_in_the_winners_home_board():
    # The loser's 19..24 points are the winner's home board.
    finished = Position(on_roll=side({}), opponent=side({6: 14, 20: 1}))
    assert game_result(finished) is ResultKind.BACKGAMMON


def test_a_backgammon_when_the_gammoned_loser_still_has_a_checker_on_the_bar():
    finished = Position(on_roll=side({}), opponent=side({6: 14, 25: 1}))
    assert game_result(finished) is ResultKind.BACKGAMMON


def test_the_winner_is_the_player_on_roll_or_the_opponent_whichever_has_no_checker_left():
    finished = Position(on_roll=side({6: 15}), opponent=side({}))
    assert finished.outcome() == (1, ResultKind.GAMMON)
    assert finished.swap().outcome() == (0, ResultKind.GAMMON)


# --- invariants ---------------------------------------------------------------------------


@st.composite
def positions(draw):
    mine = [0] * 25
    theirs = [0] * 25
    for counts, other in ((mine, theirs), (theirs, mine)):
        for _ in range(draw(st.integers(0, 15))):
            slot = draw(st.integers(0, 24))
            if slot < 24 and other[23 - slot]:
                continue
            counts[slot] += 1
    return Position(on_roll=tuple(mine), opponent=tuple(theirs))


@settings(max_examples=500, deadline=None)
@given(positions())
def test_a_position_id_round_trips(position):
    text = position.position_id()
    assert len(text) == 14
    assert Position.from_position_id(text) == position
    assert Position.from_position_id(position.swap().position_id()) == position.swap()


@settings(max_examples=300, deadline=None)
@given(positions())
def test_fifteen_checkers_a_side_counting_those_borne_off(position):
    for player in (0, 1):
        assert sum(position.side(player)) + position.borne_off(player) == 15


def test_the_move_engine_imports_only_the_standard_library_and_itself():
    import ast
    import sys

    engine = Path(__file__).resolve().parents[3] / "games" / "engine"
    for name in ("position.py", "plays.py", "notation.py", "match_id.py"):
        tree = ast.parse((engine / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                modules = [node.module]
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                assert top in sys.stdlib_module_names or module.startswith("games.engine"), (
                    f"{name} imports {module}"
                )
