"""Legal plays: GNU Backgammon's answers on 3,000 positions, the rules one by one, invariants."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.errors import IllegalPlayError
from games.engine.plays import Play, apply_steps, legal_plays, play_from_steps
from games.engine.position import Position

DATA = Path(__file__).resolve().parents[3].parent / "shared" / "data"
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


def board(on_roll: dict[int, int], opponent: dict[int, int]) -> Position:
    """A position from {point: checkers} for each side, in that side's own numbering (25 = bar)."""

    def side(points):
        counts = [0] * 25
        for point, count in points.items():
            counts[point - 1] = count
        return tuple(counts)

    return Position(on_roll=side(on_roll), opponent=side(opponent))


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
