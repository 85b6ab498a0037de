"""Match IDs: GNU Backgammon's 500 known answers, both ways, and refusals."""

import json
from pathlib import Path

import pytest

from games.engine.errors import InvalidNotationError
from games.engine.match_id import CENTRED, GameState, MatchId
from config.shared_data import SHARED_DATA

DATA = SHARED_DATA
MATCH_IDS = DATA / "matchids.jsonl"


def _known_answers():
    if not MATCH_IDS.exists():
        return []
    with MATCH_IDS.open() as lines:
        return [json.loads(line) for line in lines]


KNOWN = _known_answers()
needs_known_answers = pytest.mark.skipif(
    not KNOWN, reason=f"GNU Backgammon's known Match IDs are missing ({MATCH_IDS})"
)


def _fields(row):
    return MatchId(
        cube=row["cube"],
        cube_owner=row["cube_owner"],
        on_roll=row["on_roll"],
        crawford=bool(row["crawford"]),
        game_state=row["game_state"],
        turn=row["turn"],
        doubled=bool(row["doubled"]),
        resigned=row["resigned"],
        dice=tuple(row["dice"]),
        match_length=row["match_length"],
        score=tuple(row["score"]),
        jacoby=bool(row["jacoby"]),
    )


@needs_known_answers
def test_every_known_match_id_encodes_exactly_as_gnu_backgammon_writes_it():
    assert len(KNOWN) == 500
    assert [_fields(row).encode() for row in KNOWN] == [row["match_id"] for row in KNOWN]


@needs_known_answers
def test_every_known_match_id_decodes_to_its_fields():
    assert [MatchId.decode(row["match_id"]) for row in KNOWN] == [_fields(row) for row in KNOWN]


def test_a_new_match_starts_with_a_centred_cube_and_no_score():
    state = MatchId.decode(MatchId(match_length=7).encode())
    assert state.cube == 1 and state.cube_owner == CENTRED
    assert state.score == (0, 0) and state.match_length == 7
    assert state.game_state is GameState.PLAYING
    assert not state.is_money_play


def test_match_play_ids_end_in_e_because_the_jacoby_rule_is_off():
    assert MatchId(match_length=5, score=(2, 3), dice=(6, 1)).encode().endswith("E")
    assert not MatchId(jacoby=True).encode().endswith("E")


def test_the_crawford_flag_and_a_redoubled_cube_survive_a_round_trip():
    state = MatchId(cube=4, cube_owner=1, crawford=True, match_length=11, score=(10, 7))
    assert MatchId.decode(state.encode()) == state


def test_a_match_id_label_and_spaces_are_accepted():
    text = MatchId(match_length=3).encode()
    assert MatchId.decode(f"  Match ID: {text} ") == MatchId(match_length=3)


@pytest.mark.parametrize("text", ["", "cAk3AAAAAA", "cAk3AAAAAAAE!", "cAk3AAAAAA$E", 12])
def test_a_malformed_match_id_is_invalid_notation(text):
    with pytest.raises(InvalidNotationError):
        MatchId.decode(text)


@pytest.mark.parametrize(
    "fields",
    [{"cube": 3}, {"cube_owner": 2}, {"dice": (7, 1)}, {"dice": (3, 0)}, {"score": (-1, 0)}],
)
def test_impossible_fields_are_refused(fields):
    with pytest.raises(InvalidNotationError):
        MatchId(**fields)
