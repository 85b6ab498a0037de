"""Reading plays in the spellings match files use, and refusing the rest with the right error."""

import json
import random
from pathlib import Path

import pytest

from games.engine.errors import IllegalPlayError, InvalidNotationError
from games.engine.notation import format_play, parse_play, read_movements
from games.engine.plays import legal_plays
from games.engine.position import Position
from config.shared_data import SHARED_DATA

DATA = SHARED_DATA
POSITIONS = DATA / "positions.jsonl"
KNOWN = (
    [json.loads(line) for line in POSITIONS.open()] if POSITIONS.exists() else []
)
needs_known_answers = pytest.mark.skipif(
    not KNOWN, reason=f"GNU Backgammon's known answers are missing ({POSITIONS})"
)

OPENING = Position.initial()


def side(points: dict[int, int]) -> tuple[int, ...]:
    counts = [0] * 25
    for point, count in points.items():
        counts[point - 1] = count
    return tuple(counts)


def result(text, position=OPENING, dice=(3, 1)):
    return parse_play(text, position, dice).position


# --- GNU Backgammon's own notation, and one entry per die as older files write it ---------


@needs_known_answers
def test_gnu_backgammons_notation_reads_back_as_its_play():
    # Every play of the first 150 positions, then the first and last play of the others.
    for number, row in enumerate(KNOWN):
        position = Position.from_position_id(row["position_id"])
        dice = tuple(row["dice"])
        moves = row["moves"] if number < 150 else row["moves"][:1] + row["moves"][-1:]
        for move in moves:
            play = parse_play(move["notation"], position, dice)
            assert play.result_id() == move["result_id"], (row["position_id"], move["notation"])


def _per_die(steps, shuffle: random.Random, *, stars: bool, words: bool) -> str:
    names = {25: "Bar" if words else "25", 0: "Off" if words else "0"}
    moves = [f"{names.get(a, a)}/{names.get(b, b)}" for a, b in steps]
    shuffle.shuffle(moves)
    return ("  " if stars else " ").join(moves)


@needs_known_answers
def test_one_entry_per_die_in_any_order_without_hit_marks_reads_as_the_same_play():
    shuffle = random.Random(7)
    for row in KNOWN[::3]:
        position = Position.from_position_id(row["position_id"])
        dice = tuple(row["dice"])
        for move in shuffle.sample(row["moves"], min(3, len(row["moves"]))):
            text = _per_die(move["steps"], shuffle, stars=False, words=shuffle.random() < 0.5)
            play = parse_play(text, position, dice[::-1])
            assert play.result_id() == move["result_id"], (row["position_id"], text)


# --- spellings --------------------------------------------------------------------------


def test_a_play_reads_the_same_in_either_order_and_with_extra_spaces():
    assert result("24/21 6/5") == result("  6/5   24/21 ") == result("6 / 5, 24/21")


def test_the_dice_may_be_given_in_either_order():
    assert parse_play("8/5 6/5", OPENING, (1, 3)) == parse_play("8/5 6/5", OPENING, (3, 1))


def test_the_bar_is_read_as_bar_or_25_and_off_as_off_or_0():
    entering = Position(
        on_roll=side({25: 1, 6: 5, 8: 3, 13: 5, 24: 1}), opponent=side({6: 5, 8: 3, 13: 5, 24: 2})
    )
    assert result("bar/22 24/23", entering) == result("Bar/22 24/23", entering)
    assert result("25/22 24/23", entering) == result("b/22 24/23", entering)
    bearing_off = Position(on_roll=side({6: 2, 5: 3, 1: 1}), opponent=side({13: 2}))
    texts = ("6/off 5/off", "6/0 5/0", "6/Off 5/OFF")
    plays = {result(text, bearing_off, (6, 5)) for text in texts}
    assert len(plays) == 1


def test_a_combined_move_reads_as_the_two_dice_it_uses():
    assert result("24/20", dice=(3, 1)) == result("24/21 21/20", dice=(3, 1))
    assert result("24/18/13", dice=(6, 5)) == result("24/13", dice=(6, 5))


def test_a_repeat_count_moves_that_many_checkers():
    assert result("8/5(2) 6/3(2)", dice=(3, 3)) == result("8/5 8/5 6/3 6/3", dice=(3, 3))
    assert result("8/5 (2) 6/3(2)", dice=(3, 3)) == result("8/5(2) 6/3(2)", dice=(3, 3))


def test_a_hit_is_made_whether_it_is_marked_or_not():
    blot = Position(
        on_roll=side({6: 5, 8: 3, 13: 5, 24: 2}), opponent=side({6: 5, 8: 3, 13: 5, 24: 1, 20: 1})
    )
    marked = parse_play("24/20(2) 13/5*", blot, (4, 4))
    assert marked == parse_play("24/20 24/20 13/5", blot, (4, 4))
    assert marked == parse_play("13/9 9/5 24/20 24/20", blot, (4, 4))
    assert marked.hits == 1


def test_an_intermediate_hit_is_read_from_the_path():
    # The opponent's blot stands on our 7-point: 13/7*/5 hits it, 13/9/5 does not.
    blot = Position(
        on_roll=side({6: 5, 8: 3, 13: 5, 24: 2}), opponent=side({6: 5, 8: 3, 13: 4, 18: 1, 24: 2})
    )
    hitting = parse_play("13/7*/5", blot, (6, 2))
    assert hitting.hits == 1 and hitting.notation == "13/7*/5"
    quiet = parse_play("13/5", blot, (6, 2))
    assert quiet.hits == 0 and quiet.notation == "13/5"
    assert parse_play("13/7/5", blot, (6, 2)) == hitting


def test_a_dance_reads_as_the_empty_play():
    closed = Position(
        on_roll=side({25: 1, 6: 5, 8: 3, 13: 6}),
        opponent=side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 5}),
    )
    for text in ("", "Cannot Move", "no move", "(no move)"):
        play = parse_play(text, closed, (6, 5))
        assert play.is_empty and play.position == closed


def test_format_play_writes_gnu_backgammons_notation():
    assert format_play([(24, 18), (13, 10)], OPENING) == "24/18 13/10"
    assert format_play([(8, 4), (8, 4)], OPENING) == "8/4(2)"
    assert format_play([(24, 18), (18, 13)], OPENING) == "24/13"


def test_read_movements_expands_chains_and_counts_the_marked_hits():
    assert read_movements("13/7*/5 6/4*(2)") == ([(13, 7), (7, 5), (6, 4), (6, 4)], 3)


# --- the two kinds of refusal --------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["24/", "13/x", "24/18 hello", "26/20", "/13", "13", "8/4(", "*24/18", "24//18"]
)
def test_unreadable_text_is_invalid_notation(text):
    with pytest.raises(InvalidNotationError):
        parse_play(text, OPENING, (6, 1))


@pytest.mark.parametrize(
    "text",
    [
        "13/7 8/5",  # uses a 3 that was not rolled
        "13/7",  # leaves the 1 unplayed although it can be played
        "6/off 8/7",  # bears off with checkers outside the home board
        "7/13 8/7",  # moves backwards
        "",  # passes a playable roll
        "24/18 24/23 13/12",  # too many dice
    ],
)
def test_a_readable_but_illegal_play_is_an_illegal_play_with_the_legal_ones_listed(text):
    with pytest.raises(IllegalPlayError) as refused:
        parse_play(text, OPENING, (6, 1))
    assert "13/7 8/7" in refused.value.legal
    assert len(refused.value.legal) == len(legal_plays(OPENING, (6, 1)))


def test_an_illegal_play_says_which_roll_it_was():
    with pytest.raises(IllegalPlayError, match="61"):
        parse_play("13/11", OPENING, (1, 6))
